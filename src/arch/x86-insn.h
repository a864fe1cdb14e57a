/* SPDX-License-Identifier: GPL-2.0-or-later */
/* x86-insn.h - the x86-64 instruction oracle (capstone): insn.h's questions on x86-64 code,
 * for the x86-64 table and the unit tests that feed it bytes */
#ifndef UPF_ARCH_X86_INSN_H
#define UPF_ARCH_X86_INSN_H

#include "arch/insn.h"

/* x86_insn_ops - the functions below, as struct insn_ops (arch/x86_64.c) */
extern const struct insn_ops x86_insn_ops;

/* x86_insn_rets_code() - insn_rets_code() on x86-64: near `ret` (c3, c2 imm16) */
int x86_insn_rets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr);

/* x86_insn_boundary_code() - insn_boundary_code() on x86-64 */
int x86_insn_boundary_code(const struct insn_code *c, uint64_t addr, struct insn_at *at);

/* x86_insn_lea_targets_code() - insn_addr_targets_code() on x86-64: rip-relative `lea` */
int x86_insn_lea_targets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr);

/*
 * x86_insn_go_split_end_code() - insn_go_split_end_code() on x86-64: "cmp 0x10(%r14),%rsp;
 * jbe morestack", also after "lea -N(%rsp),%r12" for big frames
 */
uint64_t x86_insn_go_split_end_code(const struct insn_code *c, struct insn_go_check *chk);

/* x86_insn_branches_to_code() - insn_branches_to_code() on x86-64 */
long x86_insn_branches_to_code(const struct insn_code *c, uint64_t target);

/**
 * x86_insn_probe_cost() - what a hit on the instruction starting at @bytes costs
 * @size: its length (from the decoder)
 * Return: PROBE_EMULATED or _OPTIMIZED for the encodings measured so, else _SSTEP.
 */
enum probe_cost x86_insn_probe_cost(const uint8_t *bytes, size_t size);

/* x86_insn_straight_code() - insn_straight_code() on x86-64 (AT&T text) */
int x86_insn_straight_code(const struct insn_code *c, struct insn_info *out, size_t max,
			   size_t *nr);

/* x86_insn_jump_targets_code() - insn_jump_targets_code() on x86-64 */
int x86_insn_jump_targets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr,
			       bool *indirect);

/* x86_insn_xmm_copy_code() - insn_float_copy_code() on x86-64: xmm@xmm */
int x86_insn_xmm_copy_code(const struct insn_code *c, unsigned int xmm, unsigned int size,
			   const uint64_t *stop, size_t nstop, struct insn_float_copy *out,
			   struct strbuf *why);

/* x86_insn_xmm_source_code() - insn_float_source_code() on x86-64: xmm@xmm */
int x86_insn_xmm_source_code(const struct insn_code *c, uint64_t ret_at, unsigned int xmm,
			     unsigned int size, const uint64_t *stop, size_t nstop,
			     struct insn_float_copy *out, struct strbuf *why);

#endif
