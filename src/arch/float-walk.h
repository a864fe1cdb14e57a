/* SPDX-License-Identifier: GPL-2.0-or-later */
/* float-walk.h - the walks that follow a float in a vector register to a copy uprobes can
 * read, over instructions each machine's decoder describes (x86-insn.c, arm64-float.c) */
#ifndef UPF_ARCH_FLOAT_WALK_H
#define UPF_ARCH_FLOAT_WALK_H

#include "arch/insn.h"

/* One instruction as the float walks see it, filled by a machine's decoder. */
struct fl_insn {
	uint64_t addr;
	unsigned int size;
	char text[200];
	uint32_t v_written;	/* bit N: vector register N (any part of it) may be written */
	uint64_t gp_written;	/* insn_info.regs_written */
	bool stores, ends_straight;
	/*
	 * a plain copy of bits: from vector register @vsrc to vector register @vdst (v_move),
	 * to general register @reg or memory at @base + @disp (to_gp, to_mem), or from them into
	 * @vdst (from_gp, from_mem); @bytes the bits it carries; @slot: the memory is a stack
	 * slot a probe may read (a frame or stack pointer base, no index: no other thread
	 * writes it)
	 */
	bool v_move, to_gp, to_mem, from_gp, from_mem, slot;
	int vsrc, vdst, reg, base;
	int64_t disp;
	unsigned int bytes;
};

/**
 * fl_walk_copy() - insn_float_copy_code() over @n decoded instructions from the start of the
 * code at @start, the instruction after each one at addr + size
 */
int fl_walk_copy(const struct fl_insn *in, size_t n, uint64_t start, unsigned int vec,
		 unsigned int size, const uint64_t *stop, size_t nstop,
		 struct insn_float_copy *out, struct strbuf *why);

/**
 * fl_walk_source() - insn_float_source_code() over @n decoded instructions from @start
 */
int fl_walk_source(const struct fl_insn *in, size_t n, uint64_t start, uint64_t ret_at,
		   unsigned int vec, unsigned int size, const uint64_t *stop, size_t nstop,
		   struct insn_float_copy *out, struct strbuf *why);

#endif
