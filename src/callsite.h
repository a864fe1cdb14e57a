/* SPDX-License-Identifier: GPL-2.0-or-later */
/* callsite.h - the calls of a function its DWARF describes, and what each caller passes */
#ifndef UPF_CALLSITE_H
#define UPF_CALLSITE_H

/*
 * gcc describes each call of an optimized function (DW_TAG_call_site, DWARF 5, or
 * DW_TAG_GNU_call_site) with what the caller passes (DW_TAG_call_site_parameter): for a
 * register, or for a parameter the callee's clone no longer takes (DW_OP_GNU_parameter_ref
 * names it), an expression in the caller's frame at the call (DW_AT_call_value). gdb reads
 * DW_OP_entry_value and DW_OP_GNU_parameter_ref from the call site of the frame it unwinds
 * to; loc.c reads them where every call says the same. This module only finds the calls.
 */

#include <elfutils/libdw.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "util.h"

/* What is passed: a register at the call, or a parameter named by its DIE. */
struct callsite_key {
	int reg;		/* DWARF register (DW_AT_location DW_OP_regN), or -1 */
	Dwarf_Off param;	/* reg < 0: the formal parameter's DIE offset (DW_AT_call_parameter,
				 * DW_AT_abstract_origin in the GNU form) */
};

/* The machine code, to count the calls of a function its DWARF leaves undescribed. */
struct callsite_code {
	Elf *elf;
	int64_t delta;		/* virtual address in @elf = DWARF address + delta */
};

/* One call of the function. */
struct callsite {
	Dwarf_Addr ret_pc;	/* the return address (DWARF address) */
	Dwarf_Die caller;	/* the out-of-line subprogram whose frame makes the call */
	bool tail;		/* a tail call: the caller's frame is gone when the callee runs */
	bool has_value;		/* the call says what it passes for the key */
	Dwarf_Attribute value;	/* then: DW_AT_call_value (DW_AT_GNU_call_site_value) */
};

/**
 * callsite_find() - every call of @callee that the DWARF of its compilation unit describes
 * (its DW_AT_call_origin is @callee), with what each passes for @key
 * @callee: an out-of-line subprogram (a clone's concrete DIE)
 * @code: when not NULL, a function whose calls the DWARF may leave undescribed (no
 *        DW_AT_call_all_calls: g++ writes only DW_AT_call_all_tail_calls on some) is
 *        disassembled: it is fine when its direct calls and jumps to @callee are as many as
 *        its described calls of it
 * @sites: array for free(), NULL when @nr is 0; DIEs and attributes in it live as long as the
 *         Dwarf
 * @err: on failure why the list would not be every call
 *
 * Only the callee's unit is searched: the callers of a local function (a gcc clone) are there.
 * Return: 0 (also with @nr 0), or -EINVAL when a function of the unit may call @callee where
 * its DWARF does not say.
 */
int callsite_find(Dwarf_Die *callee, const struct callsite_key *key,
		  const struct callsite_code *code, struct callsite **sites, size_t *nr,
		  struct strbuf *err);

#endif
