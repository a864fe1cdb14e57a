/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arm64-insn.h - the AArch64 instruction oracle (the kernel's encodings, capstone for the text
 * and the registers written): insn.h's questions on AArch64 code, for the arm64 table and the
 * unit tests that feed it instruction words */
#ifndef UPF_ARCH_ARM64_INSN_H
#define UPF_ARCH_ARM64_INSN_H

#include "arch/insn.h"

/*
 * Every instruction is 4 bytes, little-endian, 4-aligned: boundaries need no decoding.
 * What a uprobe on an instruction costs follows arch/arm64/kernel/probes/decode-insn.c
 * (arm_probe_decode_insn(), the uprobe path; the kprobe-only literal-load simulation does not
 * apply): branches, cbz/tbz, adr/adrp, bl, br, blr, ret are simulated in the breakpoint
 * handler (PROBE_EMULATED); anything else that is safe out of line is copied to the XOL slot
 * and single-stepped (PROBE_SSTEP, nop too before Linux 6.13's nop simulation); the rest is
 * refused when the probe is enabled (arch_uprobe_analyze_insn() returns -EINVAL:
 * PROBE_REFUSED): ldr/ldrsw/prfm (literal), exclusive loads and stores (ldxr, stlxr: ldar
 * and stlr are stepped), svc/brk, msr, mrs of daif, eret, hints other than nop, bti and pac*
 * (autiasp among them), and the PAC forms retaa/retab, braa, blraa. Checked against the
 * running kernel by scripts/arm64/probe-refusals in the guest (Debian's 6.12).
 */

#define ARM64_INSN_SIZE 4

/* the instructions from a Go function's entry its stack check may take (arch_ops.insn) */
#define ARM64_GO_SPLIT_SCAN 6

/* arm64_insn_ops - the functions below, as struct insn_ops (arch/arm64.c) */
extern const struct insn_ops arm64_insn_ops;

/* arm64_insn_probe_cost() - what the arm64 kernel does with a uprobe on instruction @insn */
enum probe_cost arm64_insn_probe_cost(uint32_t insn);

/* arm64_insn_rets_code() - insn_rets_code() on AArch64: ret, retaa, retab */
int arm64_insn_rets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr);

/* arm64_insn_boundary_code() - insn_boundary_code() on AArch64: 4-aligned from @c's start */
int arm64_insn_boundary_code(const struct insn_code *c, uint64_t addr, struct insn_at *at);

/*
 * arm64_insn_go_split_end_code() - insn_go_split_end_code() on AArch64: "ldr x16, [x28,
 * #16]; cmp sp, x16; b.ls stub" (MOVD 16(g), R16; CMP R16, RSP; BLS: g is in x28), for big
 * frames with "sub x17, sp, #N; cmp x17, x16" (and a subs/b.lo for huge ones) between;
 * chk->branch is the b.ls
 */
uint64_t arm64_insn_go_split_end_code(const struct insn_code *c, struct insn_go_check *chk);

/*
 * arm64_go_split_taken() - whether the b.ls of Go's stack check is taken with condition
 * flags @pstate (the kernel's %pstate: N 31, Z 30, C 29, V 28): LS is C clear or Z set
 */
bool arm64_go_split_taken(uint64_t pstate);

/* arm64_insn_branches_to_code() - insn_branches_to_code(): b, bl, b.cond, cbz/cbnz, tbz/tbnz */
long arm64_insn_branches_to_code(const struct insn_code *c, uint64_t target);

/* arm64_insn_jump_targets_code() - insn_jump_targets_code(); @indirect: a br (not blr, ret) */
int arm64_insn_jump_targets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr,
				 bool *indirect);

/*
 * arm64_insn_adr_targets_code() - insn_addr_targets_code() on AArch64: "adrp xN, PAGE"
 * followed by "add xN, xN, #OFF", and "adr xN, LABEL"
 */
int arm64_insn_adr_targets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr);

/*
 * arm64_insn_straight_code() - insn_straight_code() on AArch64 (objdump's text); regs_written
 * bit N is DWARF register N (x0-x30 0-30, sp 31), INSN_FLAGS_BIT for NZCV
 */
int arm64_insn_straight_code(const struct insn_code *c, struct insn_info *out, size_t max,
			     size_t *nr);

/*
 * arm64_insn_all_code() - every instruction of @c from its start (at most @max), as
 * arm64_insn_straight_code() describes them, past jumps and calls too (the float walks)
 */
int arm64_insn_all_code(const struct insn_code *c, struct insn_info *out, size_t max, size_t *nr);

/**
 * arm64_pac_strip() - a return address read from a frame record or x30 without its pointer
 * authentication code: the bits above the 48-bit user address space cleared. Linux user space
 * lives below 2^48 (unless a program maps above it on a 52-bit kernel), and the PAC sits above
 * the kernel's VA size; where the CPU has no PAC the bits are 0 and nothing changes.
 */
static inline uint64_t arm64_pac_strip(uint64_t addr)
{
	return addr & ((1ull << 48) - 1);
}

#endif
