/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dwarf-aux.h - DIE helpers every stage shares: a function's name, origin and code range */
#ifndef UPF_DWARF_AUX_H
#define UPF_DWARF_AUX_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

/**
 * die_string() - string attribute @at of @die, else of its abstract origin or specification
 * (dwarf_attr_integrate())
 * Return: the string (borrowed from the DWARF), or NULL.
 */
const char *die_string(Dwarf_Die *die, int at);

/**
 * die_linkage_name() - DW_AT_linkage_name of @die (integrated), else the pre-DWARF-4
 * DW_AT_MIPS_linkage_name
 * Return: the mangled name (borrowed), or NULL.
 */
const char *die_linkage_name(Dwarf_Die *die);

/**
 * die_origin() - the abstract origin of @die (an inlined copy or a concrete out-of-line
 * instance), read into @mem
 * Return: @mem, or NULL when @die has no DW_AT_abstract_origin.
 */
Dwarf_Die *die_origin(Dwarf_Die *die, Dwarf_Die *mem);

/**
 * func_name_make() - the one rule for a function's name as its language spells it: the
 * demangled @linkage name when it is mangled, else @name, in @scope ("ns::Class") when given
 * Return: a new string (free()), or NULL when there is neither name.
 */
char *func_name_make(const char *linkage, const char *name, const char *scope);

/**
 * die_func_name() - the name of a function DIE as the language spells it ("ns::C::m",
 * "main.f", "crate::m::f") by func_name_make() from its linkage name and DW_AT_name; an
 * inlined copy is named by its abstract origin
 * Return: a new string (free()), or NULL when the DIE has no name.
 */
char *die_func_name(Dwarf_Die *die);

/**
 * die_code_range() - where a function DIE's code starts and the end of the range holding
 * that entry
 * @entry: DW_AT_entry_pc, else the low pc, else the first range's start (DWARF addresses)
 * @end: one past the range holding @entry, 0 when no range holds it
 * Return: true with both filled, false when the DIE has no code.
 */
bool die_code_range(Dwarf_Die *die, uint64_t *entry, uint64_t *end);

#endif
