// SPDX-License-Identifier: GPL-2.0-or-later
/* callsite.c - the calls of a function its DWARF describes, and what each caller passes */
#define LOG_DOMAIN "callsite"
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "callsite.h"
#include "dwarf-aux.h"
#include "log.h"
#include "arch/insn.h"

struct walk {
	Dwarf_Off callee;
	uint64_t callee_vaddr;		/* its entry, where direct calls go */
	const struct callsite_code *code;
	const struct callsite_key *key;
	struct callsite *v;
	size_t nr;
	char *blind;		/* the first function with calls its DWARF may not describe */
};

static Dwarf_Off ref_off(Dwarf_Die *die, int at, int gnu_at)
{
	Dwarf_Attribute attr;
	Dwarf_Die ref;

	if ((dwarf_attr(die, at, &attr) || (gnu_at && dwarf_attr(die, gnu_at, &attr))) &&
	    dwarf_formref_die(&attr, &ref))
		return dwarf_dieoffset(&ref);
	return (Dwarf_Off)-1;
}

/* The register a call-site parameter's DW_AT_location names (DW_OP_regN, DW_OP_regx), or -1. */
static int param_reg(Dwarf_Die *p)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t n;

	if (!dwarf_attr(p, DW_AT_location, &attr) || dwarf_getlocation(&attr, &ops, &n) != 0 ||
	    n != 1)
		return -1;
	if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31)
		return ops[0].atom - DW_OP_reg0;
	if (ops[0].atom == DW_OP_regx)
		return (int)ops[0].number;
	return -1;
}

/* What call site @cs passes for the key, into @s. */
static void site_value(struct walk *w, Dwarf_Die *cs, struct callsite *s)
{
	Dwarf_Die p;

	if (dwarf_child(cs, &p) != 0)
		return;
	do {
		int tag = dwarf_tag(&p);
		bool match;

		if (tag != DW_TAG_call_site_parameter && tag != DW_TAG_GNU_call_site_parameter)
			continue;
		if (w->key->reg >= 0)
			match = param_reg(&p) == w->key->reg;
		else
			match = ref_off(&p, DW_AT_call_parameter, DW_AT_abstract_origin) ==
				w->key->param;
		if (!match)
			continue;
		s->has_value = dwarf_attr(&p, DW_AT_call_value, &s->value) ||
			       dwarf_attr(&p, DW_AT_GNU_call_site_value, &s->value);
		return;
	} while (dwarf_siblingof(&p, &p) == 0);
}

static void add_site(struct walk *w, Dwarf_Die *cs, Dwarf_Die *caller)
{
	struct callsite s = { .caller = *caller };
	Dwarf_Attribute attr;

	if (!(dwarf_attr(cs, DW_AT_call_return_pc, &attr) || dwarf_attr(cs, DW_AT_low_pc, &attr)) ||
	    dwarf_formaddr(&attr, &s.ret_pc) != 0)
		return;
	s.tail = dwarf_hasattr(cs, DW_AT_call_tail_call) || dwarf_hasattr(cs, DW_AT_GNU_tail_call);
	site_value(w, cs, &s);
	w->v = xrealloc(w->v, sizeof(*w->v) * (w->nr + 1));
	w->v[w->nr++] = s;
}

static bool has_code(Dwarf_Die *die)
{
	return dwarf_hasattr(die, DW_AT_low_pc) || dwarf_hasattr(die, DW_AT_ranges);
}

/*
 * Whether function @fn, which does not say that its DWARF describes all its calls, calls the
 * callee no more than the @described times it does describe: its direct calls and jumps to
 * the callee's entry, counted in its code (a clone is never called through a pointer).
 */
static bool calls_described(struct walk *w, Dwarf_Die *fn, size_t described)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;
	long n, total = 0;

	if (!w->code || !w->code->elf)
		return false;
	while ((off = dwarf_ranges(fn, off, &base, &start, &end)) > 0) {
		n = insn_branches_to(w->code->elf, start + w->code->delta,
					 end + w->code->delta, w->callee_vaddr);
		if (n < 0)
			return false;
		total += n;
	}
	return off == 0 && (size_t)total == described;
}

static size_t sites_of(struct walk *w, Dwarf_Die *fn)
{
	size_t n = 0;

	for (size_t i = 0; i < w->nr; i++)
		n += dwarf_dieoffset(&w->v[i].caller) == dwarf_dieoffset(fn);
	return n;
}

/* The DIEs under @parent; @caller: the out-of-line function whose frame they run in. */
static void walk_children(struct walk *w, Dwarf_Die *parent, Dwarf_Die *caller, int depth)
{
	Dwarf_Die c;

	if (depth > 64 || dwarf_child(parent, &c) != 0)
		return;
	do {
		switch (dwarf_tag(&c)) {
		case DW_TAG_call_site:
		case DW_TAG_GNU_call_site:
			if (caller && ref_off(&c, DW_AT_call_origin, DW_AT_abstract_origin) ==
				      w->callee)
				add_site(w, &c, caller);
			break;
		case DW_TAG_subprogram:
			if (!has_code(&c)) {
				walk_children(w, &c, NULL, depth + 1);	/* in-class definitions */
				break;
			}
			walk_children(w, &c, &c, depth + 1);
			if (!w->blind && !dwarf_hasattr(&c, DW_AT_call_all_calls) &&
			    !dwarf_hasattr(&c, DW_AT_GNU_all_call_sites) &&
			    !calls_described(w, &c, sites_of(w, &c))) {
				w->blind = die_func_name(&c);
				if (!w->blind)
					w->blind = xstrdup("a function without a name");
			}
			break;
		case DW_TAG_lexical_block:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			walk_children(w, &c, caller, depth + 1);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
}

int callsite_find(Dwarf_Die *callee, const struct callsite_key *key,
		  const struct callsite_code *code, struct callsite **sites, size_t *nr,
		  struct strbuf *err)
{
	struct walk w = { .callee = dwarf_dieoffset(callee), .key = key, .code = code };
	uint64_t entry, end;
	Dwarf_Die cu;

	*sites = NULL;
	*nr = 0;
	if (!dwarf_diecu(callee, &cu, NULL, NULL)) {
		strbuf_addstr(err, "its compilation unit is unknown");
		return -EINVAL;
	}
	if (code && die_code_range(callee, &entry, &end))
		w.callee_vaddr = entry + code->delta;
	else
		w.code = NULL;
	walk_children(&w, &cu, NULL, 0);
	if (w.blind) {
		strbuf_addf(err, "%s makes calls its DWARF does not describe", w.blind);
		free(w.blind);
		free(w.v);
		return -EINVAL;
	}
	pr_debug("%zu calls of the function at DIE 0x%llx", w.nr, (unsigned long long)w.callee);
	*sites = w.v;
	*nr = w.nr;
	return 0;
}
