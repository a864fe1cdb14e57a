/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arm64-insn.h - AArch64 instruction decoding (capstone and the kernel's own encodings):
 * return sites, instruction boundaries, jump targets, Go's stack-bound check, what a uprobe on
 * an instruction costs on the arm64 kernel, adrp/add targets */
#ifndef UPF_ARM64_INSN_H
#define UPF_ARM64_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The same questions as x86-insn.h asks of x86-64 code, for AArch64, on bytes in memory (the
 * seam finds the bytes in the binary; unit-tested on byte sequences). Every instruction is 4
 * bytes, little-endian, 4-aligned: boundaries need no decoding, only alignment.
 */

/* A stretch of machine code: borrowed bytes and the virtual address of the first one. */
struct arm64_code {
	const uint8_t *bytes;
	size_t len;
	uint64_t addr;
};

#define ARM64_INSN_SIZE 4

/*
 * What the arm64 kernel does with the instruction under a uprobe's breakpoint, from
 * arch/arm64/kernel/probes/decode-insn.c (arm_probe_decode_insn(), the uprobe path: the
 * kprobe-only literal-load simulation does not apply): branches, cbz/tbz, adr/adrp, bl, br,
 * blr, ret are simulated in the breakpoint handler; anything else that is safe out of line is
 * copied to the XOL slot and single-stepped; the rest is refused when the probe is enabled
 * (arch_uprobe_analyze_insn() returns -EINVAL).
 */
enum arm64_probe_cost {
	ARM64_PROBE_SSTEP,	/* copied out of line and single-stepped */
	ARM64_PROBE_SIMULATED,	/* simulated in the breakpoint handler, no slot */
	ARM64_PROBE_REJECTED,	/* refused: ldr/ldrsw/prfm (literal), exclusive and acquire/
				 * release loads and stores (ldxr, stlxr, ldar, cas), svc/brk,
				 * msr, mrs (but of daif), eret, hints other than nop, bti and
				 * pac*: autiasp among them; retaa/retab, braa, blraa */
};

/**
 * arm64_insn_probe_cost() - what the kernel does with a uprobe on instruction @insn
 * Return: one of enum arm64_probe_cost.
 */
enum arm64_probe_cost arm64_insn_probe_cost(uint32_t insn);

/* arm64_probe_cost_name() - "simulated", "single-stepped", "refused by the kernel" */
const char *arm64_probe_cost_name(enum arm64_probe_cost cost);

/**
 * arm64_insn_word() - the instruction at @addr of @c
 * Return: 0 and @insn set, or -EINVAL when @addr is not 4-aligned from @c's start or is
 * outside @c.
 */
int arm64_insn_word(const struct arm64_code *c, uint64_t addr, uint32_t *insn);

/**
 * arm64_insn_rets_code() - addresses of every return in @c: ret, retaa, retab (the PAC
 * forms authenticate x30 first)
 * @addrs: array owned by the caller (free()), ascending; NULL when @nr is 0
 *
 * A tail call (b to another function) leaves through that function's return; Go never
 * tail-calls, so every exit of a Go function is a ret found here.
 * Return: 0 (also with @nr 0), or -EIO when capstone cannot start.
 */
int arm64_insn_rets_code(const struct arm64_code *c, uint64_t **addrs, size_t *nr);

/* The instruction an address falls inside of, for the error that refuses it. */
struct arm64_insn_at {
	uint64_t insn;		/* where that instruction starts */
	char text[200];		/* "ldr x16, [x28, #0x10]" (as objdump shows it) */
	uint64_t near[8];	/* instruction starts around it, ascending */
	size_t nr_near;
};

/**
 * arm64_insn_boundary_code() - whether @addr starts an instruction of @c (whose first byte
 * starts one)
 * @at: filled when @addr is inside an instruction
 * Return: 1 when it starts one, 0 when inside one (@at filled), -EINVAL when @addr is outside
 * @c.
 */
int arm64_insn_boundary_code(const struct arm64_code *c, uint64_t addr,
			     struct arm64_insn_at *at);

/* Go's stack-bound check at a function's start */
struct arm64_go_check {
	uint64_t bls;		/* its b.ls (taken when C is clear or Z set), or 0 */
	uint64_t stub;		/* where the b.ls goes: the call of runtime.morestack, or 0 */
};

/**
 * arm64_insn_go_split_end_code() - the address just past a Go function's stack-bound check at
 * the start of @c: "ldr x16, [x28, #16]; cmp sp, x16; b.ls stub" (MOVD 16(g), R16; CMP R16,
 * RSP; BLS: g in x28), for big frames with "sub x17, sp, #N; cmp x17, x16" between
 * @chk: when not NULL, gets the b.ls and where it goes, or zeros
 * Return: the address after the b.ls, or @c->addr when there is no check (NOSPLIT).
 */
uint64_t arm64_insn_go_split_end_code(const struct arm64_code *c, struct arm64_go_check *chk);

/**
 * arm64_go_split_taken() - whether the b.ls of Go's stack check is taken with condition
 * flags @pstate (the kernel's %pstate: N 31, Z 30, C 29, V 28): LS is C clear or Z set
 */
bool arm64_go_split_taken(uint64_t pstate);

/**
 * arm64_insn_branches_to_code() - how many direct branches (b, bl, b.cond, cbz/cbnz,
 * tbz/tbnz) in @c go to @target
 * Return: the count, or -EIO when capstone cannot start.
 */
long arm64_insn_branches_to_code(const struct arm64_code *c, uint64_t target);

/**
 * arm64_insn_jump_targets_code() - every address inside @c that a direct branch or call in
 * @c goes to
 * @addrs: array owned by the caller (free()), unsorted, may repeat
 * @indirect: set when @c has a br (a switch's table can go anywhere); blr and ret are not
 * Return: 0, or -EIO when capstone cannot start.
 */
int arm64_insn_jump_targets_code(const struct arm64_code *c, uint64_t **addrs, size_t *nr,
				 bool *indirect);

/**
 * arm64_insn_adr_targets_code() - every address an "adrp xN, PAGE" (+ "add xN, xN, #OFF")
 * or "adr xN, LABEL" in @c computes: for an IFUNC resolver, the implementations it returns
 * @addrs: array owned by the caller (free()), in the code's order, may repeat
 * Return: 0, or -EIO when capstone cannot start.
 */
int arm64_insn_adr_targets_code(const struct arm64_code *c, uint64_t **addrs, size_t *nr);

/* One decoded instruction: what probing it costs and what running it changes. */
struct arm64_insn_info {
	uint64_t addr;
	unsigned int size;	/* 4 */
	char text[200];		/* "stp x29, x30, [sp, #-0x20]!" */
	enum arm64_probe_cost cost;
	uint64_t regs_written;	/* bit N: DWARF register N (0-30 x0-x30, 31 sp),
				 * ARM64_FLAGS_BIT: the condition flags */
	bool stores;		/* writes memory */
	bool ends_straight;	/* branches, calls, returns or traps: the next one may not run */
};

#define ARM64_FLAGS_BIT 32	/* regs_written: NZCV */

/**
 * arm64_insn_straight_code() - the instructions of @c from its first that run one after the
 * other: up to and including the first that branches, calls, returns or traps, or @max
 * @out: room for @max
 * Return: 0 with @nr >= 0, or -EIO when capstone cannot start.
 */
int arm64_insn_straight_code(const struct arm64_code *c, struct arm64_insn_info *out,
			     size_t max, size_t *nr);

/**
 * arm64_pac_strip() - a return address read from a frame record or x30 without its pointer
 * authentication code: the bits above the 48-bit user address space cleared (Linux user
 * space uses 48-bit addresses; where the CPU has no PAC the bits are already 0, so the strip
 * changes nothing)
 */
static inline uint64_t arm64_pac_strip(uint64_t addr)
{
	return addr & ((1ull << 48) - 1);
}

#endif
