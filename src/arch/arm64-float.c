// SPDX-License-Identifier: GPL-2.0-or-later
/* arm64-float.c - floats in AArch64's v registers, which uprobes cannot read (the kernel's
 * arm64 pt_regs holds x0-x30, sp, pc and pstate only): where the code copies a parameter out
 * to a general register or a stack slot, and where a result in v0 came from */
#define LOG_DOMAIN "arm64-insn"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arm64-float.h"
#include "arch/float-walk.h"
#include "arch/arm64-insn.h"
#include "util.h"

#define IS(insn, mask, val) (((insn) & (mask)) == (val))

static uint32_t word_at(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int64_t sext9(uint32_t v)
{
	return (int64_t)((v & 0x1ff) ^ 0x100) - 0x100;
}

static unsigned int rd(uint32_t i)	{ return i & 0x1f; }
static unsigned int rn(uint32_t i)	{ return (i >> 5) & 0x1f; }

/*
 * The vector registers @i may write, erring towards "all of them": calls (AAPCS64 keeps only
 * the low halves of v8-v15, Go's ABI none), the scalar floating-point and Advanced SIMD data
 * processing group (its destination; compares, which write the flags only, are counted too),
 * SIMD&FP loads (their registers; structure loads all), SVE (all).
 */
static uint32_t v_written(uint32_t i)
{
	if (IS(i, 0x7c000000, 0x14000000) && (i & 0x80000000))	/* bl */
		return ~0u;
	if (IS(i, 0xfffffc1f, 0xd63f0000))			/* blr */
		return ~0u;
	if (IS(i, 0x1e000000, 0x04000000))			/* SVE */
		return ~0u;
	if (IS(i, 0x0e000000, 0x0e000000))			/* SIMD&FP data processing */
		return 1u << rd(i);
	if (IS(i, 0x0a000000, 0x08000000) && (i & 0x04000000)) {	/* SIMD&FP load/store */
		switch ((i >> 28) & 3) {
		case 0:		/* structures (ld1 ... ld4): L is bit 22 */
			return i & (1u << 22) ? ~0u : 0;
		case 1:		/* literal: a load */
			return 1u << rd(i);
		case 2:		/* pairs */
			return i & (1u << 22) ? 1u << rd(i) | 1u << ((i >> 10) & 0x1f) : 0;
		default:	/* one register: opc's low bit set loads */
			return i & (1u << 22) ? 1u << rd(i) : 0;
		}
	}
	return 0;
}

/* the copy @i makes between a vector register and a general register or memory, if any */
static void fl_copy(uint32_t i, struct fl_insn *k)
{
	static const struct {
		uint32_t mask, val;
		unsigned int bytes;
		char kind;	/* 'g' to a general register, 'G' from one, 'v' v to v, 's' store,
				 * 'l' load, 'S'/'L' the unscaled forms */
	} forms[] = {
		{ 0xfffffc00, 0x9e660000, 8, 'g' },	/* fmov xd, dn */
		{ 0xfffffc00, 0x1e260000, 4, 'g' },	/* fmov wd, sn */
		{ 0xfffffc00, 0x4e083c00, 8, 'g' },	/* mov xd, vn.d[0] (umov) */
		{ 0xfffffc00, 0x0e043c00, 4, 'g' },	/* mov wd, vn.s[0] (umov) */
		{ 0xfffffc00, 0x9e670000, 8, 'G' },	/* fmov dd, xn */
		{ 0xfffffc00, 0x1e270000, 4, 'G' },	/* fmov sd, wn */
		{ 0xfffffc00, 0x1e604000, 8, 'v' },	/* fmov dd, dn */
		{ 0xfffffc00, 0x1e204000, 4, 'v' },	/* fmov sd, sn */
		{ 0xbfe0fc00, 0x0ea01c00, 8, 'v' },	/* mov vd.8b/16b, vn (orr, rm == rn) */
		{ 0xffc00000, 0xfd000000, 8, 's' },	/* str dt, [xn, #imm] */
		{ 0xffc00000, 0xbd000000, 4, 's' },	/* str st, [xn, #imm] */
		{ 0xffc00000, 0x3d800000, 16, 's' },	/* str qt, [xn, #imm] */
		{ 0xffe00c00, 0xfc000000, 8, 'S' },	/* stur dt, [xn, #simm] */
		{ 0xffe00c00, 0xbc000000, 4, 'S' },	/* stur st */
		{ 0xffe00c00, 0x3c800000, 16, 'S' },	/* stur qt */
		{ 0xffc00000, 0xfd400000, 8, 'l' },	/* ldr dt, [xn, #imm] */
		{ 0xffc00000, 0xbd400000, 4, 'l' },	/* ldr st */
		{ 0xffc00000, 0x3dc00000, 16, 'l' },	/* ldr qt */
		{ 0xffe00c00, 0xfc400000, 8, 'L' },	/* ldur dt, [xn, #simm] */
		{ 0xffe00c00, 0xbc400000, 4, 'L' },	/* ldur st */
		{ 0xffe00c00, 0x3cc00000, 16, 'L' },	/* ldur qt */
	};

	k->vsrc = k->vdst = k->reg = k->base = -1;
	for (size_t f = 0; f < ARRAY_SIZE(forms); f++) {
		if (!IS(i, forms[f].mask, forms[f].val))
			continue;
		k->bytes = forms[f].bytes;
		switch (forms[f].kind) {
		case 'g':
			k->to_gp = rd(i) != 31;		/* to xzr: no copy */
			k->vsrc = (int)rn(i);
			k->reg = (int)rd(i);
			break;
		case 'G':
			k->from_gp = rn(i) != 31;	/* xzr: a constant 0, no copy */
			k->vdst = (int)rd(i);
			k->reg = (int)rn(i);
			break;
		case 'v':
			if (forms[f].mask == 0xbfe0fc00 && ((i >> 16) & 0x1f) != rn(i))
				break;	/* a real orr */
			k->v_move = true;
			k->vsrc = (int)rn(i);
			k->vdst = (int)rd(i);
			break;
		default: {
			bool scaled = forms[f].kind == 's' || forms[f].kind == 'l';
			bool store = forms[f].kind == 's' || forms[f].kind == 'S';

			k->base = (int)rn(i);	/* 31: sp */
			k->disp = scaled ? (int64_t)((i >> 10) & 0xfff) * forms[f].bytes :
					   sext9(i >> 12);
			if (store) {
				k->to_mem = true;
				k->vsrc = (int)rd(i);
			} else {
				k->from_mem = true;
				k->vdst = (int)rd(i);
			}
		}
		}
		return;
	}
}

/* the instructions of @c from its start (at most @max), as the float walks see them; -EIO */
static int fl_decode(const struct insn_code *c, struct fl_insn *out, size_t max, size_t *nr)
{
	struct insn_info *in = xcalloc(max, sizeof(*in));
	int ret = arm64_insn_all_code(c, in, max, nr);

	for (size_t k = 0; !ret && k < *nr; k++) {
		struct fl_insn *f = &out[k];
		uint32_t word = word_at(c->bytes + (in[k].addr - c->addr));

		memset(f, 0, sizeof(*f));
		f->addr = in[k].addr;
		f->size = in[k].size;
		memcpy(f->text, in[k].text, sizeof(f->text));
		f->gp_written = in[k].regs_written;
		f->stores = in[k].stores;
		f->ends_straight = in[k].ends_straight;
		fl_copy(word, f);
		f->slot = (f->to_mem || f->from_mem) && (f->base == 31 || f->base == 29);
		/* fmov xd, dn and umov are in the SIMD&FP group but write a general register */
		f->v_written = f->vsrc >= 0 && f->reg >= 0 ? 0 : v_written(word);
	}
	free(in);
	return ret;
}

#define FL_MAX 64	/* instructions a walk looks at */

int arm64_float_copy_code(const struct insn_code *c, unsigned int vec, unsigned int size,
			  const uint64_t *stop, size_t nstop, struct insn_float_copy *out,
			  struct strbuf *why)
{
	struct fl_insn *in = xcalloc(FL_MAX, sizeof(*in));
	size_t n = 0;
	int ret = -EIO;

	if (!fl_decode(c, in, FL_MAX, &n))
		ret = fl_walk_copy(in, n, c->addr, vec, size, stop, nstop, out, why);
	free(in);
	return ret;
}

int arm64_float_source_code(const struct insn_code *c, uint64_t ret_at, unsigned int vec,
			    unsigned int size, const uint64_t *stop, size_t nstop,
			    struct insn_float_copy *out, struct strbuf *why)
{
	struct fl_insn *in = xcalloc(FL_MAX * 64, sizeof(*in));
	size_t n = 0;
	int ret = -EIO;

	if (!fl_decode(c, in, FL_MAX * 64, &n))
		ret = fl_walk_source(in, n, c->addr, ret_at, vec, size, stop, nstop, out, why);
	free(in);
	return ret;
}
