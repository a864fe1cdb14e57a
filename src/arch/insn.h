/* SPDX-License-Identifier: GPL-2.0-or-later */
/* insn.h - the instruction oracle, whatever the machine: return sites, instruction boundaries,
 * the addresses code computes, the end of Go's stack-bound check, what probing an instruction
 * costs and changes, floats copied out of vector registers (each machine answers in its
 * struct insn_ops; examples below are x86-64's) */
#ifndef UPF_ARCH_INSN_H
#define UPF_ARCH_INSN_H

#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "util.h"

/*
 * Two levels: the insn_*_code() functions decode bytes in memory with the current machine's
 * decoder (arch_current()->insn; each machine's are unit-tested on byte sequences); the
 * others find the bytes of [start, end) in a binary (insn_code_at()) and turn what goes wrong
 * into a message naming the function. Nothing here knows DWARF or the symbol table: callers
 * pass the function's name for messages.
 */

/* A stretch of machine code: borrowed bytes and the virtual address of the first one. */
struct insn_code {
	const uint8_t *bytes;
	size_t len;
	uint64_t addr;
};

/* The instruction an address falls inside of, for the error that refuses it. */
struct insn_at {
	uint64_t insn;		/* where that instruction starts */
	char text[200];		/* "movzwl 0x68(%rdi), %ebx" (AT&T, as objdump and perf show it) */
	uint64_t near[8];	/* instruction starts around it, ascending (the function's
				 * first ones when it is near the entry) */
	size_t nr_near;
};

/**
 * insn_code_at() - the bytes of [@start, @end) in the file @elf, from the section holding
 * them or (no section headers) from the PT_LOAD segment
 * @out: filled; its bytes are borrowed from libelf and live as long as @elf
 * Return: 0, or -ENOENT when the range is empty or not all of it is in the file.
 */
int insn_code_at(Elf *elf, uint64_t start, uint64_t end, struct insn_code *out);

/**
 * insn_rets_code() - addresses of every return instruction in @c (x86-64: near `ret`, c3 and
 * c2 imm16)
 * @addrs: array owned by the caller (free()), ascending; NULL when @nr is 0
 *
 * Far returns do not occur in user code, and a jmp to another function (a tail call) leaves
 * through that function's ret. Go never tail-calls, so for Go every exit is a ret found
 * here. Undecodable bytes (padding, data) are stepped over one at a time.
 * Return: 0 (also with @nr 0), or -EIO when capstone cannot start.
 */
int insn_rets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr);

/**
 * insn_rets() - insn_rets_code() on the code of function @name at [@start, @end)
 * @name: for messages; NULL: "0xSTART-0xEND"
 * @addrs: array owned by the caller (free())
 * Return: 0 with @nr >= 1, or a negative errno with @d filled (-EINVAL: extent unknown,
 * -ENOENT: code not in the file or no ret in it, -EIO: capstone failed).
 */
int insn_rets(Elf *elf, const char *name, uint64_t start, uint64_t end, uint64_t **addrs,
		  size_t *nr, struct diag *d);

/**
 * insn_boundary_code() - whether @addr starts an instruction, decoding @c from its first
 * byte (which must start one: a function's entry)
 * @at: filled when @addr is inside an instruction; when the code does not decode up to
 *      @addr, @at->insn is the address where decoding stopped
 * Return: 1 when @addr starts an instruction, 0 when it is inside one (@at filled), -EINVAL
 * when @c does not decode up to @addr (or @addr is outside @c), -EIO when capstone cannot
 * start.
 */
int insn_boundary_code(const struct insn_code *c, uint64_t addr, struct insn_at *at);

/**
 * insn_boundary() - whether @addr starts an instruction of function @name, disassembled
 * from its entry @start
 * @end: the end of the function, or 0 when unknown
 * @at: filled when @addr is inside an instruction
 *
 * A uprobe replaces the first byte of an instruction: one in the middle of an instruction
 * corrupts the program.
 * Return: 1 when @addr starts an instruction, 0 when it is inside one (@at filled), or a
 * negative errno with @d filled (code not in the file, not disassemblable up to @addr).
 */
int insn_boundary(Elf *elf, const char *name, uint64_t start, uint64_t end, uint64_t addr,
		      struct insn_at *at, struct diag *d);

/**
 * insn_addr_targets_code() - every address a rip-relative `lea` in @c computes: for an
 * IFUNC resolver, the implementations it can return
 * @addrs: array owned by the caller (free()), in the code's order, may repeat
 * Return: 0 (also with @nr 0), or -EIO when capstone cannot start.
 */
int insn_addr_targets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr);

/**
 * insn_addr_targets() - insn_addr_targets_code() on the code at [@start, @end) of @elf
 * @addrs: array owned by the caller (free())
 * Return: 0 (also with @nr 0), or a negative errno (-ENOENT: the code is not in the file).
 */
int insn_addr_targets(Elf *elf, uint64_t start, uint64_t end, uint64_t **addrs,
			 size_t *nr);

/* Go's stack-bound check at a function's start */
struct insn_go_check {
	uint64_t branch;	/* its conditional branch (x86-64: jbe, taken on CF or ZF), or 0 */
	uint64_t stub;		/* where it goes: the code that calls runtime.morestack and
				 * jumps back to the entry, or 0 */
};

/**
 * insn_go_split_end_code() - the address just past a Go function's stack-bound check
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
uint64_t insn_go_split_end_code(const struct insn_code *c, struct insn_go_check *chk);

/**
 * insn_go_split_end() - insn_go_split_end_code() on the function at [@start, @end)
 * of @elf (@end 0 or past the check: only its first instructions are read), @chk as there
 * Return: the address after the check, or @start when there is none or the code is not in
 * the file.
 */
uint64_t insn_go_split_end(Elf *elf, uint64_t start, uint64_t end,
			       struct insn_go_check *chk);

/**
 * insn_branches_to_code() - how many direct calls and jumps in @c go to @target
 * Return: the count, -EINVAL when some bytes of @c do not decode (a branch could hide there),
 * -EIO when capstone cannot start.
 */
long insn_branches_to_code(const struct insn_code *c, uint64_t target);

/**
 * insn_branches_to() - insn_branches_to_code() on the code at [@start, @end) of @elf
 * Return: the count, or a negative errno (-ENOENT: the code is not in the file).
 */
long insn_branches_to(Elf *elf, uint64_t start, uint64_t end, uint64_t target);

/* ---- what probing an instruction costs, what it changes ---- */

/*
 * How the kernel runs the instruction under a uprobe's breakpoint. Measured, not derived:
 * bench/insn-cost.sh times a hit on each class on the running kernel; the table in
 * x86-insn.c holds what it found on 6.18.44.
 */
enum probe_cost {
	PROBE_REFUSED = -1,	/* the kernel refuses a probe on it (arm64: ldr literal, exclusive
				 * loads and stores, svc, autiasp, retaa ...): worse than any */
	PROBE_SSTEP,	/* copied out of line and single-stepped: ~20x an emulated hit */
	PROBE_EMULATED,	/* emulated in the breakpoint handler (push, nop, jmp, jcc, call) */
	PROBE_OPTIMIZED,	/* a 5-byte nop: rewritten into a call to the uprobe trampoline
				 * after the first hit (6.18), cheaper still */
};

/* One decoded instruction: what probing it costs and what running it changes. */
struct insn_info {
	uint64_t addr;
	unsigned int size;
	char text[200];		/* "push %rbp" (AT&T, as objdump and perf show it) */
	enum probe_cost cost;
	uint64_t regs_written;	/* bit N: DWARF register N (any part of it; x86-64 0-15: rax,
				 * rdx, rcx, rbx, rsi, rdi, rbp, rsp, r8-r15), INSN_FLAGS_BIT */
	bool stores;		/* writes memory, other than the slot a push makes below %sp */
	bool ends_straight;	/* jumps, calls, returns or traps: the next one may not run */
};

#define INSN_FLAGS_BIT 63	/* regs_written: the flags */

/* probe_cost_name() - "emulated", "single-stepped", "optimized" for -v (every machine's) */
const char *probe_cost_name(enum probe_cost cost);

/**
 * insn_straight_code() - the instructions of @c from its first byte that run one after
 * the other: up to and including the first that jumps, calls, returns or traps, or the
 * first @max, or what decodes
 * @out: room for @max
 * Return: 0 with @nr >= 0, or -EIO when capstone cannot start.
 */
int insn_straight_code(const struct insn_code *c, struct insn_info *out, size_t max,
			   size_t *nr);

/**
 * insn_straight() - insn_straight_code() on the code at [@start, @end) of @elf
 * @end: the end of the function, or 0 when unknown (then at most @max * 15 bytes are read)
 * Return: 0, or a negative errno (-ENOENT: the code is not in the file).
 */
int insn_straight(Elf *elf, uint64_t start, uint64_t end, struct insn_info *out,
		      size_t max, size_t *nr);

/**
 * insn_jump_targets_code() - every address inside @c that a direct jump, conditional
 * jump, loop or call in @c goes to: code that may run again, or be entered, from there
 * @addrs: array owned by the caller (free()), unsorted, may repeat
 * @indirect: set when @c has an indirect jump (a switch's table can go anywhere)
 * Return: 0 (also with @nr 0), or -EIO when capstone cannot start.
 */
int insn_jump_targets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr,
			       bool *indirect);

/* insn_jump_targets() - the same on [@start, @end) of @elf; -ENOENT: not in the file */
int insn_jump_targets(Elf *elf, uint64_t start, uint64_t end, uint64_t **addrs,
			  size_t *nr, bool *indirect);

/* ---- floats in vector registers (xmm, v), which uprobes cannot read ---- */

/* A float's copy in a general register or a stack slot, found by the walks below. */
struct insn_float_copy {
	uint64_t copy;		/* the instruction that copies it (to or from the vector
				 * register) */
	uint64_t at;		/* where a probe reads the copy: the instruction after a copy out
				 * of the vector register; the return instruction for a result */
	int reg;		/* the general register holding it (DWARF number 0-15), or -1 */
	int base;		/* else a stack slot: its base register (6 %rbp or 7 %rsp) */
	int64_t disp;		/* and displacement */
	char text[200];		/* the copy, "movq %xmm0, %rcx" (AT&T) */
};

/**
 * insn_float_copy_code() - where the float in vector register @vec at @c's first instruction
 * is copied to a general register or a stack slot, in the code that runs straight on from
 * there (moves between vector registers followed)
 * @size: its bytes (4 float, 8 double): a 32-bit register holds a float, not a double
 * @stop: addresses a jump goes to: the walk stops there (a probe past one could be missed,
 *        or hit again by a loop)
 * @out: filled on success; out->at is the instruction after the copy
 * @why: on failure, what the walk ran into ("'addsd %xmm0, %xmm1' at +0x8 overwrites it")
 * Return: 0, -ENOENT with @why filled, or -EIO when capstone cannot start.
 */
int insn_float_copy_code(const struct insn_code *c, unsigned int vec, unsigned int size,
			   const uint64_t *stop, size_t nstop, struct insn_float_copy *out,
			   struct strbuf *why);

/**
 * insn_float_source_code() - where the float a function returns in vector register @vec at
 * its return
 * instruction @ret_at came from: a move from a general register or a stack slot that nothing
 * changes between it and the return (moves between vector registers followed back), in the
 * straight code before @ret_at
 * @c: the function's code from its entry (decoded from there up to @ret_at)
 * @size: its bytes (4 float, 8 double)
 * @stop: addresses a jump goes to: the walk back stops at one
 * @out: filled on success (out->at is @ret_at)
 * @why: on failure, what sets it ("'mulsd %xmm1, %xmm0' at +0xc sets it")
 * Return: 0, -ENOENT with @why filled, or -EIO.
 */
int insn_float_source_code(const struct insn_code *c, uint64_t ret_at, unsigned int vec,
			     unsigned int size, const uint64_t *stop, size_t nstop,
			     struct insn_float_copy *out, struct strbuf *why);

/*
 * One machine's decoder: the *_code() functions above, as it answers them. The wrappers
 * (insn_rets() ...) read the code out of the binary and call the current machine's.
 */
struct insn_ops {
	unsigned int max_insn;		/* the longest instruction, in bytes (x86-64: 15) */
	unsigned int go_split_bytes;	/* how far from a Go function's entry its stack check
					 * can end */
	int (*rets_code)(const struct insn_code *c, uint64_t **addrs, size_t *nr);
	int (*boundary_code)(const struct insn_code *c, uint64_t addr, struct insn_at *at);
	int (*addr_targets_code)(const struct insn_code *c, uint64_t **addrs, size_t *nr);
	uint64_t (*go_split_end_code)(const struct insn_code *c, struct insn_go_check *chk);
	long (*branches_to_code)(const struct insn_code *c, uint64_t target);
	int (*straight_code)(const struct insn_code *c, struct insn_info *out, size_t max,
			     size_t *nr);
	int (*jump_targets_code)(const struct insn_code *c, uint64_t **addrs, size_t *nr,
				 bool *indirect);
	int (*float_copy_code)(const struct insn_code *c, unsigned int vec, unsigned int size,
			       const uint64_t *stop, size_t nstop, struct insn_float_copy *out,
			       struct strbuf *why);
	int (*float_source_code)(const struct insn_code *c, uint64_t ret_at, unsigned int vec,
				 unsigned int size, const uint64_t *stop, size_t nstop,
				 struct insn_float_copy *out, struct strbuf *why);
};

#endif
