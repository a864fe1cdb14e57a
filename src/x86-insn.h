/* SPDX-License-Identifier: GPL-2.0-or-later */
/* x86-insn.h - x86-64 instruction decoding (capstone): return sites, instruction boundaries,
 * rip-relative lea targets, the end of Go's stack-bound check */
#ifndef UPF_X86_INSN_H
#define UPF_X86_INSN_H

#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "util.h"

/*
 * Two levels: the x86_insn_*_code() functions decode bytes in memory (unit-tested on byte
 * sequences); the others find the bytes of [start, end) in a binary (x86_insn_code()) and
 * turn what goes wrong into a message naming the function. Nothing here knows DWARF or the
 * symbol table: callers pass the function's name for messages.
 */

/* A stretch of machine code: borrowed bytes and the virtual address of the first one. */
struct x86_code {
	const uint8_t *bytes;
	size_t len;
	uint64_t addr;
};

/* The instruction an address falls inside of, for the error that refuses it. */
struct x86_insn_at {
	uint64_t insn;		/* where that instruction starts */
	char text[200];		/* "movzwl 0x68(%rdi), %ebx" (AT&T, as objdump and perf show it) */
	uint64_t near[8];	/* instruction starts around it, ascending (the function's
				 * first ones when it is near the entry) */
	size_t nr_near;
};

/**
 * x86_insn_code() - the bytes of [@start, @end) in the file @elf, from the section holding
 * them or (no section headers) from the PT_LOAD segment
 * @out: filled; its bytes are borrowed from libelf and live as long as @elf
 * Return: 0, or -ENOENT when the range is empty or not all of it is in the file.
 */
int x86_insn_code(Elf *elf, uint64_t start, uint64_t end, struct x86_code *out);

/**
 * x86_insn_rets_code() - addresses of every near `ret` (c3, c2 imm16) in @c
 * @addrs: array owned by the caller (free()), ascending; NULL when @nr is 0
 *
 * Far returns do not occur in user code, and a jmp to another function (a tail call) leaves
 * through that function's ret. Go never tail-calls, so for Go every exit is a ret found
 * here. Undecodable bytes (padding, data) are stepped over one at a time.
 * Return: 0 (also with @nr 0), or -EIO when capstone cannot start.
 */
int x86_insn_rets_code(const struct x86_code *c, uint64_t **addrs, size_t *nr);

/**
 * x86_insn_rets() - x86_insn_rets_code() on the code of function @name at [@start, @end)
 * @name: for messages; NULL: "0xSTART-0xEND"
 * @addrs: array owned by the caller (free())
 * Return: 0 with @nr >= 1, or a negative errno with @d filled (-EINVAL: extent unknown,
 * -ENOENT: code not in the file or no ret in it, -EIO: capstone failed).
 */
int x86_insn_rets(Elf *elf, const char *name, uint64_t start, uint64_t end, uint64_t **addrs,
		  size_t *nr, struct diag *d);

/**
 * x86_insn_boundary_code() - whether @addr starts an instruction, decoding @c from its first
 * byte (which must start one: a function's entry)
 * @at: filled when @addr is inside an instruction; when the code does not decode up to
 *      @addr, @at->insn is the address where decoding stopped
 * Return: 1 when @addr starts an instruction, 0 when it is inside one (@at filled), -EINVAL
 * when @c does not decode up to @addr (or @addr is outside @c), -EIO when capstone cannot
 * start.
 */
int x86_insn_boundary_code(const struct x86_code *c, uint64_t addr, struct x86_insn_at *at);

/**
 * x86_insn_boundary() - whether @addr starts an instruction of function @name, disassembled
 * from its entry @start
 * @end: the end of the function, or 0 when unknown
 * @at: filled when @addr is inside an instruction
 *
 * A uprobe replaces the first byte of an instruction: one in the middle of an instruction
 * corrupts the program.
 * Return: 1 when @addr starts an instruction, 0 when it is inside one (@at filled), or a
 * negative errno with @d filled (code not in the file, not disassemblable up to @addr).
 */
int x86_insn_boundary(Elf *elf, const char *name, uint64_t start, uint64_t end, uint64_t addr,
		      struct x86_insn_at *at, struct diag *d);

/**
 * x86_insn_lea_targets_code() - every address a rip-relative `lea` in @c computes: for an
 * IFUNC resolver, the implementations it can return
 * @addrs: array owned by the caller (free()), in the code's order, may repeat
 * Return: 0 (also with @nr 0), or -EIO when capstone cannot start.
 */
int x86_insn_lea_targets_code(const struct x86_code *c, uint64_t **addrs, size_t *nr);

/**
 * x86_insn_lea_targets() - x86_insn_lea_targets_code() on the code at [@start, @end) of @elf
 * @addrs: array owned by the caller (free())
 * Return: 0 (also with @nr 0), or a negative errno (-ENOENT: the code is not in the file).
 */
int x86_insn_lea_targets(Elf *elf, uint64_t start, uint64_t end, uint64_t **addrs,
			 size_t *nr);

/* Go's stack-bound check at a function's start */
struct x86_go_check {
	uint64_t jbe;		/* its jbe (taken on CF or ZF), or 0 */
	uint64_t stub;		/* where the jbe goes: the code that calls runtime.morestack and
				 * jumps back to the entry, or 0 */
};

/**
 * x86_insn_go_split_end_code() - the address just past a Go function's stack-bound check
 * at the start of @c ("cmp 0x10(%r14),%rsp; jbe morestack", also after
 * "lea -N(%rsp),%r12" for big frames)
 *
 * @chk: when not NULL, gets the check's jbe and where it goes, or zeros when there is no
 *       check or its jump is another one
 *
 * When the stack must grow (or the goroutine is to be preempted), the jbe is taken and
 * runtime.morestack runs the function again from its entry: a probe on the entry or on the
 * jbe then fires twice for one call, the first time with the jump taken. Past the check it
 * fires once, with the arguments still in their registers.
 * Return: the address after the check's conditional jump, or @c->addr when the code starts
 * with no check (NOSPLIT functions) or cannot be decoded.
 */
uint64_t x86_insn_go_split_end_code(const struct x86_code *c, struct x86_go_check *chk);

/**
 * x86_insn_go_split_end() - x86_insn_go_split_end_code() on the function at [@start, @end)
 * of @elf (@end 0 or past the check: only its first instructions are read), @chk as there
 * Return: the address after the check, or @start when there is none or the code is not in
 * the file.
 */
uint64_t x86_insn_go_split_end(Elf *elf, uint64_t start, uint64_t end,
			       struct x86_go_check *chk);

/**
 * x86_insn_branches_to_code() - how many direct calls and jumps in @c go to @target
 * Return: the count, -EINVAL when some bytes of @c do not decode (a branch could hide there),
 * -EIO when capstone cannot start.
 */
long x86_insn_branches_to_code(const struct x86_code *c, uint64_t target);

/**
 * x86_insn_branches_to() - x86_insn_branches_to_code() on the code at [@start, @end) of @elf
 * Return: the count, or a negative errno (-ENOENT: the code is not in the file).
 */
long x86_insn_branches_to(Elf *elf, uint64_t start, uint64_t end, uint64_t target);

/* ---- what probing an instruction costs, what it changes ---- */

/*
 * How the kernel runs the instruction under a uprobe's breakpoint. Measured, not derived:
 * bench/insn-cost.sh times a hit on each class on the running kernel; the table in
 * x86-insn.c holds what it found on 6.18.44.
 */
enum x86_probe_cost {
	X86_PROBE_SSTEP,	/* copied out of line and single-stepped: ~20x an emulated hit */
	X86_PROBE_EMULATED,	/* emulated in the breakpoint handler (push, nop, jmp, jcc, call) */
	X86_PROBE_OPTIMIZED,	/* a 5-byte nop: rewritten into a call to the uprobe trampoline
				 * after the first hit (6.18), cheaper still */
};

/* One decoded instruction: what probing it costs and what running it changes. */
struct x86_insn_info {
	uint64_t addr;
	unsigned int size;
	char text[200];		/* "push %rbp" (AT&T, as objdump and perf show it) */
	enum x86_probe_cost cost;
	uint32_t regs_written;	/* bit N: DWARF register N (0-15: rax, rdx, rcx, rbx, rsi,
				 * rdi, rbp, rsp, r8-r15; any part of it), X86_FLAGS_BIT */
	bool stores;		/* writes memory, other than the slot a push makes below %sp */
	bool ends_straight;	/* jumps, calls, returns or traps: the next one may not run */
};

#define X86_FLAGS_BIT 16	/* regs_written: the flags */

/**
 * x86_insn_probe_cost() - what a hit on the instruction starting at @bytes costs
 * @size: its length (from the decoder)
 * Return: X86_PROBE_EMULATED or _OPTIMIZED for the encodings measured so, else _SSTEP.
 */
enum x86_probe_cost x86_insn_probe_cost(const uint8_t *bytes, size_t size);

/* x86_probe_cost_name() - "emulated", "single-stepped", "optimized" for -v */
const char *x86_probe_cost_name(enum x86_probe_cost cost);

/**
 * x86_insn_straight_code() - the instructions of @c from its first byte that run one after
 * the other: up to and including the first that jumps, calls, returns or traps, or the
 * first @max, or what decodes
 * @out: room for @max
 * Return: 0 with @nr >= 0, or -EIO when capstone cannot start.
 */
int x86_insn_straight_code(const struct x86_code *c, struct x86_insn_info *out, size_t max,
			   size_t *nr);

/**
 * x86_insn_straight() - x86_insn_straight_code() on the code at [@start, @end) of @elf
 * @end: the end of the function, or 0 when unknown (then at most @max * 15 bytes are read)
 * Return: 0, or a negative errno (-ENOENT: the code is not in the file).
 */
int x86_insn_straight(Elf *elf, uint64_t start, uint64_t end, struct x86_insn_info *out,
		      size_t max, size_t *nr);

/**
 * x86_insn_jump_targets_code() - every address inside @c that a direct jump, conditional
 * jump, loop or call in @c goes to: code that may run again, or be entered, from there
 * @addrs: array owned by the caller (free()), unsorted, may repeat
 * @indirect: set when @c has an indirect jump (a switch's table can go anywhere)
 * Return: 0 (also with @nr 0), or -EIO when capstone cannot start.
 */
int x86_insn_jump_targets_code(const struct x86_code *c, uint64_t **addrs, size_t *nr,
			       bool *indirect);

/* x86_insn_jump_targets() - the same on [@start, @end) of @elf; -ENOENT: not in the file */
int x86_insn_jump_targets(Elf *elf, uint64_t start, uint64_t end, uint64_t **addrs,
			  size_t *nr, bool *indirect);

/* ---- floats in xmm registers, which uprobes cannot read ---- */

/* A float's copy in a general register or a stack slot, found by the walks below. */
struct x86_xmm_copy {
	uint64_t copy;		/* the instruction that copies it (to or from the xmm register) */
	uint64_t at;		/* where a probe reads the copy: the instruction after a copy out
				 * of xmm; the return instruction for a result */
	int reg;		/* the general register holding it (DWARF number 0-15), or -1 */
	int base;		/* else a stack slot: its base register (6 %rbp or 7 %rsp) */
	int64_t disp;		/* and displacement */
	char text[200];		/* the copy, "movq %xmm0, %rcx" (AT&T) */
};

/**
 * x86_insn_xmm_copy_code() - where the float in register xmm@xmm at @c's first instruction
 * is copied to a general register or a stack slot, in the code that runs straight on from
 * there (moves between xmm registers followed)
 * @size: its bytes (4 float, 8 double): a 32-bit register holds a float, not a double
 * @stop: addresses a jump goes to: the walk stops there (a probe past one could be missed,
 *        or hit again by a loop)
 * @out: filled on success; out->at is the instruction after the copy
 * @why: on failure, what the walk ran into ("'addsd %xmm0, %xmm1' at +0x8 overwrites it")
 * Return: 0, -ENOENT with @why filled, or -EIO when capstone cannot start.
 */
int x86_insn_xmm_copy_code(const struct x86_code *c, unsigned int xmm, unsigned int size,
			   const uint64_t *stop, size_t nstop, struct x86_xmm_copy *out,
			   struct strbuf *why);

/**
 * x86_insn_xmm_source_code() - where the float a function returns in xmm@xmm at its return
 * instruction @ret_at came from: a move from a general register or a stack slot that nothing
 * changes between it and the return (moves between xmm registers followed back), in the
 * straight code before @ret_at
 * @c: the function's code from its entry (decoded from there up to @ret_at)
 * @size: its bytes (4 float, 8 double)
 * @stop: addresses a jump goes to: the walk back stops at one
 * @out: filled on success (out->at is @ret_at)
 * @why: on failure, what sets it ("'mulsd %xmm1, %xmm0' at +0xc sets it")
 * Return: 0, -ENOENT with @why filled, or -EIO.
 */
int x86_insn_xmm_source_code(const struct x86_code *c, uint64_t ret_at, unsigned int xmm,
			     unsigned int size, const uint64_t *stop, size_t nstop,
			     struct x86_xmm_copy *out, struct strbuf *why);

#endif
