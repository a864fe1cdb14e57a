/* SPDX-License-Identifier: GPL-2.0-or-later */
/* abi-c.h - what the C ABIs of every machine share, for the machines' abi_ops (arch/) */
#ifndef UPF_ARCH_ABI_C_H
#define UPF_ARCH_ABI_C_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

#include "arch/abi.h"

/**
 * abi_cxx_nontrivial() - whether the Itanium C++ ABI passes and returns class @type in memory
 * (by invisible reference): a non-trivial copy or move constructor or destructor, user-
 * provided, virtual functions or bases, or a base or member that has one
 */
bool abi_cxx_nontrivial(Dwarf_Die *type);

/* abi_c_align() - the alignment of @type (DW_AT_alignment, else its largest member's) */
int64_t abi_c_align(Dwarf_Die *type);

/**
 * abi_c_refused() - whether a machine's C rules cannot place the parameters of @func at its
 * entry: not C or C++ (Rust has its own ABI), a K&R definition, a calling convention other
 * than DW_CC_normal (gcc's DW_CC_nocall: a changed signature), a C++ constructor or
 * destructor (hidden VTT and in-charge parameters)
 * @why: set when refused, for -v
 */
bool abi_c_refused(Dwarf_Die *func, const struct lang_ops *lang, const char **why);

/*
 * abi_c_place_fn - place one parameter of @type into @l, the machine's registers and stack
 * used so far in @state; 0, or -ENOTSUP with @why set
 */
typedef int (*abi_c_place_fn)(Dwarf_Die *type, const struct lang_ops *lang, void *state,
			      struct loc *l, const char **why);

/**
 * abi_c_params() - every DW_TAG_formal_parameter of @func, in order, placed by @place
 * @out: abi_values_free()
 * Return: 0, or -ENOTSUP with @why set (variadic, a parameter without a type, or @place's).
 */
int abi_c_params(Dwarf_Die *func, const struct lang_ops *lang, abi_c_place_fn place,
		 void *state, struct abi_value **out, size_t *nr, const char **why);

#endif
