/* SPDX-License-Identifier: GPL-2.0-or-later */
/* retsite.h - return instructions of a function, by disassembly (capstone) */
#ifndef UPF_RETSITE_H
#define UPF_RETSITE_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

#include "debuginfo.h"
#include "lang.h"
#include "loc.h"

/**
 * retsite_find() - virtual addresses of every return instruction in [@start, @end)
 * @addrs: array owned by the caller (free())
 * Return: 0 with @nr >= 1, or a negative errno with @d filled.
 */
int retsite_find(struct debuginfo *dbg, uint64_t start, uint64_t end, uint64_t **addrs,
		 size_t *nr, struct diag *d);

/* The instruction an address falls inside of, for the error that refuses it. */
struct insn_at {
	uint64_t insn;		/* where that instruction starts */
	char text[200];		/* "movzwl 0x68(%rdi), %ebx" (AT&T, as objdump and perf show it) */
	uint64_t near[8];	/* instruction starts around it, ascending (the function's
				 * first ones when it is near the entry) */
	size_t nr_near;
};

/**
 * retsite_insn_boundary() - whether @addr starts an instruction of the code at @start
 * @start: an address known to start an instruction (a function's entry)
 * @end: the end of the function, or 0 when unknown
 * @at: filled when @addr is inside an instruction
 *
 * Disassembles from @start (capstone) up to @addr. A uprobe replaces the first byte of an
 * instruction: one in the middle of an instruction corrupts the program.
 * Return: 1 when @addr starts an instruction, 0 when it is inside one (@at filled), or a
 * negative errno with @d filled (code not in the file, not disassemblable up to @addr).
 */
int retsite_insn_boundary(struct debuginfo *dbg, uint64_t start, uint64_t end, uint64_t addr,
			  struct insn_at *at, struct diag *d);

/**
 * retsite_lea_targets() - every address a rip-relative `lea` in [@start, @end) computes:
 * for an IFUNC resolver, the implementations it can return
 * @addrs: array owned by the caller (free()), in the code's order, may repeat
 * Return: 0 (also with @nr 0), or a negative errno (the code is not in the file).
 */
int retsite_lea_targets(struct debuginfo *dbg, uint64_t start, uint64_t end, uint64_t **addrs,
			size_t *nr);

/* One base value (a word or less) of a Go result, where it is at a return instruction. */
struct go_piece {
	unsigned int offset;	/* byte offset inside the result's value */
	unsigned int size;	/* bytes */
	const char *reg;	/* kernel register name ("ax", "bx", ... "r11"); NULL on the stack */
	int xmm;		/* >= 0: in register xmmN (a float), which uprobes cannot read */
	long sp_offset;		/* !reg && xmm < 0: at +sp_offset(%sp) */
};

/* A Go result: "~r0" or its declared name, and where each of its pieces is. */
struct go_result {
	char *name;
	Dwarf_Die die;		/* the DW_TAG_formal_parameter (DW_AT_variable_parameter) */
	Dwarf_Die type;		/* its type; has_type false when the DWARF has none */
	bool has_type;
	bool on_stack;		/* the whole value is on the stack (did not fit, old ABI) */
	long sp_offset;		/* on_stack: the value starts at +sp_offset(%sp) */
	struct go_piece *pieces;
	size_t nr_pieces;
};

/**
 * go_result_regs() - where Go function @func leaves its results at a return instruction
 * @func: a DW_TAG_subprogram of a Go CU
 * @out: array owned by the caller, freed with go_results_free()
 *
 * Register ABI (CU producer says "regabi"): results are assigned to RAX, RBX, RCX, RDI, RSI,
 * R8-R11 (integers, pointers) and X0-X14 (floats) from the first register again, in order,
 * each recursively (string: ptr, len; slice: ptr, len, cap; interface: tab/type, data;
 * structs field by field); a result that does not fit, or holds an array of more than one
 * element, goes to the stack whole. Stack results follow the stack-assigned arguments; at the
 * ret the return address is at 0(%sp), so stack slot N is at +(8+N)(%sp). Old stack ABI
 * (no "regabi"): every argument and result is on the stack.
 * Return: 0 (also with @nr 0: no results), or -EINVAL with @d filled (unsized type).
 */
int go_result_regs(Dwarf_Die *func, struct go_result **out, size_t *nr, struct diag *d);
void go_results_free(struct go_result *res, size_t nr);

/**
 * retsite_value() - where a C, C++ or Rust function's return value is at its uretprobe
 * (x86-64 System V: up to 16 bytes in RAX:RDX by eightbyte class, floats in xmm0/xmm1,
 * larger values in memory; C++ (Itanium ABI): a class with a non-trivial copy constructor or
 * destructor in memory; Rust: aggregates over 16 bytes in memory, a pair of scalars in a
 * register each, other aggregates as an integer in RAX:RDX)
 * @func: the DW_TAG_subprogram (or an inlined copy's abstract origin)
 * @lang: the CU's rules (&lang_cxx, &lang_rust, else C)
 * @type: filled with the return type when there is one
 * @out: filled: one piece "$retval" (RAX), pieces "$retval" and "%dx" (RAX:RDX), one LOC_MEM
 *       piece at +0($retval) (returned in memory: RAX holds the buffer's address on return),
 *       LOC_BAD pieces for values in xmm or x87 registers; release with loc_release()
 * Return: true when the function has a return type, false for void (@out is "$retval").
 */
bool retsite_value(Dwarf_Die *func, const struct lang_ops *lang, Dwarf_Die *type,
		   struct loc *out);

/**
 * retsite_go_split_end() - the address just past a Go function's stack-bound check
 * ("cmp 0x10(%r14),%rsp; jbe morestack", also with "lea -N(%rsp),%r12" for big frames)
 * @start: the function's entry; @end: its end
 *
 * When the stack must grow, runtime.morestack copies it and runs the function again from
 * its entry: a probe on the entry then fires twice for one call. Past the check it fires
 * once, with the arguments still in their registers.
 * Return: the address after the check's conditional jump, or @start when the function has
 * no check (NOSPLIT functions) or its code cannot be read.
 */
uint64_t retsite_go_split_end(struct debuginfo *dbg, uint64_t start, uint64_t end);

#endif
