// SPDX-License-Identifier: GPL-2.0-or-later
/* float-walk.c - a float in a vector register followed to a copy uprobes can read: forward
 * from a parameter's probe to the first copy out, back from a return to what set the result;
 * the same on every machine, over the instructions its decoder describes */
#define LOG_DOMAIN "insn"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "arch/float-walk.h"

static bool fl_stop(uint64_t a, const uint64_t *stop, size_t nstop)
{
	for (size_t i = 0; i < nstop; i++)
		if (stop[i] == a)
			return true;
	return false;
}

/* the copy @k makes, read at @at */
static void fl_out(const struct fl_insn *k, uint64_t at, struct insn_float_copy *out)
{
	bool gp = k->to_gp || k->from_gp;

	out->copy = k->addr;
	out->at = at;
	out->reg = gp ? k->reg : -1;
	out->base = gp ? -1 : k->base;
	out->disp = gp ? 0 : k->disp;
	memcpy(out->text, k->text, sizeof(out->text));
}

int fl_walk_copy(const struct fl_insn *in, size_t n, uint64_t start, unsigned int vec,
		 unsigned int size, const uint64_t *stop, size_t nstop,
		 struct insn_float_copy *out, struct strbuf *why)
{
	uint32_t have = 1u << vec;

	for (size_t i = 0; i < n; i++) {
		const struct fl_insn *k = &in[i];
		uint64_t off = k->addr - start;

		if (i && fl_stop(k->addr, stop, nstop)) {
			strbuf_addf(why, "a jump lands at +0x%" PRIx64 " before it is copied", off);
			return -ENOENT;
		}
		if (k->vsrc >= 0 && (have >> k->vsrc & 1) && k->bytes >= size) {
			if (k->v_move) {
				have |= 1u << k->vdst;		/* one more copy in a vector register */
				continue;
			}
			if (k->to_gp || (k->to_mem && k->slot)) {
				if (i + 1 >= n || fl_stop(k->addr + k->size, stop, nstop)) {
					strbuf_addf(why, "'%s' at +0x%" PRIx64 " copies it, but a jump "
						    "lands right after", k->text, off);
					return -ENOENT;
				}
				fl_out(k, k->addr + k->size, out);
				return 0;
			}
		}
		have &= ~k->v_written;
		if (!have) {
			strbuf_addf(why, "'%s' at +0x%" PRIx64 " overwrites it before any copy",
				    k->text, off);
			return -ENOENT;
		}
		if (k->ends_straight) {
			strbuf_addf(why, "'%s' at +0x%" PRIx64 " comes before any copy", k->text,
				    off);
			return -ENOENT;
		}
	}
	strbuf_addf(why, "no copy in its first %zu instructions", n);
	return -ENOENT;
}

/* whether the instruction @k that sets the result is a copy a probe at the return can read;
 * @rest: the instructions between it and the return */
static bool fl_source_ok(const struct fl_insn *k, const struct fl_insn *rest, size_t nrest,
			 unsigned int size, uint64_t start, struct strbuf *why)
{
	uint64_t after = 0, off = k->addr - start;
	bool stored = false;

	for (size_t j = 0; j < nrest; j++) {
		after |= rest[j].gp_written;
		stored |= rest[j].stores;
	}
	if (!k->from_gp && !k->from_mem) {
		strbuf_addf(why, "'%s' at +0x%" PRIx64 " sets it", k->text, off);
		return false;
	}
	if (k->from_mem && !k->slot) {
		strbuf_addf(why, "'%s' at +0x%" PRIx64 " loads it from memory that is not the "
			    "stack (another thread may change it)", k->text, off);
		return false;
	}
	if (k->bytes < size) {
		strbuf_addf(why, "'%s' at +0x%" PRIx64 " sets only %u of its bytes", k->text, off,
			    k->bytes);
		return false;
	}
	if ((k->from_gp && (after >> k->reg & 1)) ||
	    (k->from_mem && ((after >> k->base & 1) || stored))) {
		strbuf_addf(why, "'%s' at +0x%" PRIx64 " sets it, and what it copies from is "
			    "changed before the return", k->text, off);
		return false;
	}
	return true;
}

int fl_walk_source(const struct fl_insn *in, size_t n, uint64_t start, uint64_t ret_at,
		   unsigned int vec, unsigned int size, const uint64_t *stop, size_t nstop,
		   struct insn_float_copy *out, struct strbuf *why)
{
	unsigned int want = vec;
	size_t r;

	for (r = 0; r < n && in[r].addr != ret_at; r++)
		;
	if (r == n) {
		strbuf_addstr(why, "the return is not in the code");
		return -ENOENT;
	}
	/* the return itself a jump's target: another path may set the register there */
	if (fl_stop(in[r].addr, stop, nstop)) {
		strbuf_addf(why, "a jump lands at the return, +0x%" PRIx64, in[r].addr - start);
		return -ENOENT;
	}
	for (size_t i = r; i-- > 0;) {
		const struct fl_insn *k = &in[i];

		if (k->ends_straight) {
			strbuf_addf(why, "'%s' at +0x%" PRIx64 " %s", k->text, k->addr - start,
				    k->v_written >> want & 1 ? "sets it (a call's result)" :
				    "comes between the return and what sets it");
			return -ENOENT;
		}
		if (!(k->v_written >> want & 1)) {
			if (fl_stop(k->addr, stop, nstop)) {
				strbuf_addf(why, "a jump lands at +0x%" PRIx64 " after it is set",
					    k->addr - start);
				return -ENOENT;
			}
			continue;
		}
		if (k->v_move && k->vdst == (int)want && k->bytes >= size) {
			want = (unsigned int)k->vsrc;	/* from another vector register */
			continue;
		}
		if (!fl_source_ok(k, k + 1, r - i - 1, size, start, why))
			return -ENOENT;
		fl_out(k, ret_at, out);
		return 0;
	}
	strbuf_addstr(why, "nothing sets it");
	return -ENOENT;
}
