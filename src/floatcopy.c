// SPDX-License-Identifier: GPL-2.0-or-later
/* floatcopy.c - a float in a vector register followed to a copy uprobes can read */
#define LOG_DOMAIN "floatcopy"

#include <dwarf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "floatcopy.h"
#include "log.h"

/*
 * [@lo, @hi) of the out-of-line function holding site @s, as virtual addresses: for an inlined
 * copy its caller's code, where the walk goes on (what xmm0 holds is the same value there)
 */
static bool func_range(struct debuginfo *dbg, const struct probe_site *s, uint64_t *lo,
		       uint64_t *hi)
{
	/* the out-of-line code holding it (Go's DIE of a function it can inline is abstract) */
	Dwarf_Die *f = s->has_frame_func ? (Dwarf_Die *)&s->frame_func : (Dwarf_Die *)&s->die;
	Dwarf_Addr bias, l, h;

	if ((!s->has_frame_func && !s->has_die) || !debuginfo_dwarf(dbg, &bias) ||
	    dwarf_lowpc(f, &l) || dwarf_highpc(f, &h) || h <= l)
		return false;
	*lo = l + bias;
	*hi = h + bias;
	return true;
}

int floatcopy_param(struct debuginfo *dbg, const struct probe_site *s, int vec,
		    unsigned int size, struct probe_site *out, struct insn_float_copy *fc,
		    struct strbuf *why)
{
	struct insn_info in[64];
	struct insn_code c;
	uint64_t lo, hi, *targets = NULL;
	size_t nt = 0, n = 0;
	bool indirect = false, sp_moved = false;
	Elf *elf = debuginfo_elf(dbg);
	int ret;

	if (s->is_return || s->at_ret_insn || !func_range(dbg, s, &lo, &hi) ||
	    s->vaddr < lo || s->vaddr >= hi || insn_code_at(elf, s->vaddr, hi, &c) ||
	    insn_jump_targets(elf, lo, hi, &targets, &nt, &indirect)) {
		strbuf_addstr(why, "the code after the probe is not one function's");
		free(targets);
		return -ENOENT;
	}
	if (indirect) {
		strbuf_addstr(why, "the function jumps through a table");
		free(targets);
		return -ENOENT;
	}
	ret = insn_float_copy_code(&c, (unsigned int)vec, size, targets, nt, fc, why);
	free(targets);
	if (ret)
		return -ENOENT;
	/* the stack pointer on the way there: the return address is at 0(%sp) no more */
	if (!insn_straight(elf, s->vaddr, fc->at, in, ARRAY_SIZE(in), &n))
		for (size_t i = 0; i < n && in[i].addr < fc->at; i++)
			sp_moved |= in[i].regs_written >> arch_current()->sp_dwarf & 1;
	*out = *s;
	out->vaddr = fc->at;
	out->alts = NULL;
	out->nr_alts = 0;
	out->entry_abi = false;
	out->go_split = false;
	out->ret_at_sp = s->ret_at_sp && !sp_moved;
	out->insn = NULL;
	out->cost = PROBE_SSTEP;
	if (debuginfo_vaddr_to_offset(dbg, out->vaddr, &out->offset, NULL)) {
		strbuf_addstr(why, "the copy is not in the file");
		return -ENOENT;
	}
	if (!insn_straight(elf, out->vaddr, hi, in, 1, &n) && n) {
		out->cost = in[0].cost;
		out->insn = xstrdup(in[0].text);
	}
	return 0;
}

void floatcopy_site_release(struct probe_site *s)
{
	free(s->insn);
	s->insn = NULL;
}

int floatcopy_result(struct debuginfo *dbg, const struct probe_site *s, int vec,
		     unsigned int size, struct insn_float_copy *fc, struct strbuf *why)
{
	uint64_t lo, hi, *targets = NULL, *rets = NULL, one;
	size_t nt = 0, nr = 0;
	bool indirect = false;
	Elf *elf = debuginfo_elf(dbg);
	struct insn_code c;
	int ret = -ENOENT;

	if (!func_range(dbg, s, &lo, &hi) || insn_code_at(elf, lo, hi, &c) ||
	    insn_jump_targets(elf, lo, hi, &targets, &nt, &indirect)) {
		strbuf_addstr(why, "the function's code cannot be read");
		return -ENOENT;
	}
	if (s->at_ret_insn) {
		one = s->vaddr;
		rets = &one;
		nr = 1;
	} else if (insn_rets_code(&c, &rets, &nr) || !nr) {
		strbuf_addstr(why, "the function has no return instruction");
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		struct strbuf w = STRBUF_INIT;
		struct insn_float_copy k;

		strbuf_init(&w);
		if (insn_float_source_code(&c, rets[i], (unsigned int)vec, size, targets, nt, &k,
					     &w)) {
			strbuf_addf(why, "from the return at +0x%" PRIx64 ": %s", rets[i] - lo,
				    strbuf_cstr(&w));
			strbuf_release(&w);
			goto out;
		}
		strbuf_release(&w);
		/* after a uretprobe's return %sp has moved: only a register holds */
		if (k.reg < 0 && !s->at_ret_insn) {
			strbuf_addf(why, "from the return at +0x%" PRIx64 ": '%s' sets it from "
				    "the stack, which the return leaves", rets[i] - lo, k.text);
			goto out;
		}
		if (i && (k.reg != fc->reg || k.base != fc->base || k.disp != fc->disp)) {
			strbuf_addf(why, "the returns at +0x%" PRIx64 " and +0x%" PRIx64 " set it "
				    "from different places", rets[0] - lo, rets[i] - lo);
			goto out;
		}
		if (!i)
			*fc = k;
	}
	ret = 0;
out:
	if (rets != &one)
		free(rets);
	free(targets);
	return ret;
}
