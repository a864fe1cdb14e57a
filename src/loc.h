/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loc.h - DWARF location expressions at one pc -> pieces the kernel can fetch */
#ifndef UPF_LOC_H
#define UPF_LOC_H

#include <elfutils/libdw.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "util.h"

enum loc_kind {
	LOC_VAL,	/* the value is what @fetch reads ("%ax", "+8(%sp)") plus @off: a DWARF
			 * value computed as a register plus a constant ("%sp" + 16, the address
			 * of a caller's local) has @off, which the decoder adds */
	LOC_MEM,	/* the value is in memory at @base + @off; @base NULL: file offset @off */
	LOC_IMM,	/* a constant @imm (DW_OP_stack_value of a literal, DW_AT_const_value) */
	LOC_NONE,	/* optimized out here (no location at the pc, an empty piece) */
	LOC_BAD,	/* somewhere uprobes cannot read; @why says where ("in register xmm0") */
};

/* One piece of a value: Go's register ABI splits a string into ptr and len pieces. */
struct loc_piece {
	enum loc_kind kind;
	char *fetch;		/* LOC_VAL */
	char *base;		/* LOC_MEM: fetch giving the base address; NULL: @off is a file offset */
	int64_t off;		/* LOC_MEM; LOC_VAL: added to what @fetch reads (usually 0) */
	uint64_t imm;		/* LOC_IMM */
	char *why;		/* LOC_BAD */
	int reg;		/* LOC_VAL of a plain register: its DWARF number; LOC_BAD in a
				 * register uprobes cannot read (xmm0): its DWARF number; else -1 */
	unsigned int size;	/* bytes the piece covers; 0: the whole value (single piece) */
};

struct loc {
	struct loc_piece *pieces;
	size_t nr;
};

/* Where an expression is evaluated. */
struct loc_ctx {
	Dwarf_Addr pc;		/* the probe address in DWARF addresses */
	uint64_t vaddr;		/* the same in the binary's virtual addresses (for CFI) */
	Dwarf_CFI *cfi;		/* CFI, or NULL */
	Dwarf_Die *func;	/* the subprogram (DW_AT_frame_base), or NULL */
	int64_t file_delta;	/* kernel "@+OFF" = DWARF address + file_delta */
	/*
	 * A global at DWARF address A is read as +(A + pc_delta)(%ip), relative to the probe's
	 * own address, when @pc_relative (entry and instruction probes); a return probe's %ip
	 * is its caller's, so there it stays "@+(A + file_delta)". Linux 4.20 to the 2026
	 * stable fix adds an @+OFFSET twice (kcaps.h): Debian 11's 5.10.0-32 read a fault.
	 */
	bool pc_relative;
	int64_t pc_delta;
	/*
	 * Without CFI for the pc (Go 1.21+ writes no .debug_frame): the CFA from the frame
	 * pointer Go keeps, at the machine's offsets (arch_ops go_cfa_fp, entry_cfa_sp: on
	 * amd64 %bp+16 in a function's body, after PUSHQ BP; MOVQ SP, BP, and %sp+8 at its
	 * entry or a RET; none on arm64, refused there). LOC_CFA_BP: the body's; LOC_CFA_SP:
	 * the entry's or a return's; 0: an error.
	 */
	int cfa_fallback;
	/*
	 * Values the function was entered with (DW_OP_entry_value, DW_OP_GNU_parameter_ref):
	 * @entry_regs has bit N set for each DWARF register N that still holds at the pc the
	 * value it had at the entry (all of them at the entry itself; 0: none known). Callee-
	 * saved registers are also found where the CFI says they were saved. Anything else
	 * comes from the callers (callsite.h), when @callers_known says every call of @func is
	 * a direct call its unit describes: a gcc clone (.isra, .constprop, .part) is local and
	 * its address is never taken.
	 */
	uint64_t entry_regs;
	bool callers_known;
	Elf *elf;		/* the binary's code (callsite_find()), or NULL */
};


#define LOC_CFA_BP 1
#define LOC_CFA_SP 2

/**
 * loc_base_is_pc() - whether a LOC_MEM piece's @base is the program counter: memory at a
 * fixed place in the binary (a global, read relative to the probe: loc_ctx.pc_relative)
 */
bool loc_base_is_pc(const char *base);

/**
 * loc_from_die() - the location of variable/parameter @var at ctx->pc
 * (DW_AT_location, a location list evaluated at the pc, or DW_AT_const_value)
 * @out: filled; release with loc_release() (also on failure)
 * @err: on failure the reason ("uses DW_OP_foo, which upfront cannot express")
 * Return: 0 (a variable without a location at the pc gets one LOC_NONE piece), or -EINVAL.
 */
int loc_from_die(Dwarf_Die *var, const struct loc_ctx *ctx, struct loc *out, struct strbuf *err);

/**
 * loc_from_ops() - translate one DWARF expression (see loc_from_die())
 * @ops, @n: the expression's operations
 * @out: filled; release with loc_release() (also on failure)
 * @err: on failure the reason
 * Return: 0, or -EINVAL.
 */
int loc_from_ops(const Dwarf_Op *ops, size_t n, const struct loc_ctx *ctx, struct loc *out,
		 struct strbuf *err);

/**
 * loc_release() - free @l's pieces and their fetch strings; @l is left empty
 */
void loc_release(struct loc *l);

/**
 * loc_copy() - a deep copy of @src into @dst (which is overwritten, not released)
 */
void loc_copy(struct loc *dst, const struct loc *src);

/**
 * loc_add_piece() - append a copy of @p (strings are duplicated)
 */
void loc_add_piece(struct loc *l, const struct loc_piece *p);

/**
 * loc_mem_fetch() - the fetcharg that reads the value at @base+@off ("+8(%di)", "-16(%bp)",
 * "@+0x2010" when @base is NULL); a new string
 */
char *loc_mem_fetch(const char *base, int64_t off);

/**
 * loc_op_name() - "DW_OP_entry_value" etc. for messages
 * @buf: at least 24 bytes, used for an operation without a name
 * Return: @buf or a static string.
 */
const char *loc_op_name(unsigned int op, char *buf);

/**
 * loc_cfa_rule() - the CFA at @vaddr as the CFI gives it when it is a register plus an
 * offset (DW_CFA_def_cfa: "%rsp + 24" past a prologue's pushes, "%rbp + 16" past a frame
 * pointer's set-up, arm64's "sp + 32" past its stp)
 * @reg: its DWARF register number
 * @off: the offset added to it
 * Return: 0, or -1 when there is no CFI for @vaddr or the CFA is an expression
 */
int loc_cfa_rule(Dwarf_CFI *cfi, uint64_t vaddr, int *reg, int64_t *off);

#endif
