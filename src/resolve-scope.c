// SPDX-License-Identifier: GPL-2.0-or-later
/* resolve-scope.c - a probe site's context: its CU, frame and scopes, the variables visible */
#define LOG_DOMAIN "resolve"
#include <dwarf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "arch/abi.h"
#include "dwarf-aux.h"
#include "floatcopy.h"
#include "lang.h"
#include "log.h"
#include "regs.h"
#include "resolve-internal.h"
#include "symtab.h"

char *rctx_type_name(struct rctx *rc, Dwarf_Die *type, bool has_type)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_init(&sb);
	if (!has_type)
		strbuf_addstr(&sb, rc->lang == &lang_go ? "unsafe.Pointer" : "void");
	else
		lang_of_die(type)->type_name(type, &sb);
	return strbuf_detach(&sb);
}

void rctx_release(struct rctx *rc)
{
	abi_values_free(rc->abi, rc->nr_abi);
	free(rc->scopes);
	free(rc->where);
	rctx_guards_clear(rc);
}

/*
 * dwarf_getscopes() does not look into namespaces, where rustc puts its functions: walk
 * namespaces and types, and the code scopes that hold @pc. Innermost first, like it.
 */
static bool scopes_walk(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die **chain, int *n, int depth)
{
	Dwarf_Die child;

	if (depth > 64 || dwarf_child(parent, &child) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child);
		bool code = tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
			    tag == DW_TAG_lexical_block;

		if (code && dwarf_haspc(&child, pc) > 0) {
			*chain = xrealloc(*chain, sizeof(**chain) * (*n + 1));
			(*chain)[(*n)++] = child;
			scopes_walk(&child, pc, chain, n, depth + 1);
			return true;
		}
		if ((tag == DW_TAG_namespace || tag == DW_TAG_module ||
		     tag == DW_TAG_structure_type || tag == DW_TAG_class_type) &&
		    scopes_walk(&child, pc, chain, n, depth + 1))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

static int own_scopes(Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die **out)
{
	Dwarf_Die *chain = NULL;
	int n = 0;

	scopes_walk(cu, pc, &chain, &n, 0);
	chain = xrealloc(chain, sizeof(*chain) * (n + 1));
	chain[n++] = *cu;
	/* innermost first */
	for (int i = 0; i < (n - 1) / 2; i++) {
		Dwarf_Die t = chain[i];

		chain[i] = chain[n - 2 - i];
		chain[n - 2 - i] = t;
	}
	*out = chain;
	return n;
}

/*
 * dwarf_getscopes() goes from the innermost inlined call on into the callee's abstract
 * definition and its parents: the caller's own parameters are not in the chain. Where an
 * inlined call starts at the caller's first instruction (PyDict_GetItem's "op", whose
 * inlined callee's scope starts at its entry), the caller's variables would be missing.
 * Rebuild the chain from the code: from the out-of-line function holding the pc down to the
 * pc, innermost first, then the function's own parents (namespaces, the unit).
 */
static bool concrete_scopes(struct rctx *rc)
{
	Dwarf_Die fn, cu, *up = NULL, *chain;
	Dwarf_Addr entry;
	int k, n = 1, nup;

	for (k = 0; k < rc->nscopes; k++)
		if (dwarf_tag(&rc->scopes[k]) == DW_TAG_inlined_subroutine)
			break;
	if (k == rc->nscopes)
		return true;
	if (rc->has_func && dwarf_tag(&rc->func) == DW_TAG_subprogram &&
	    dwarf_haspc(&rc->func, rc->lc.pc) > 0)
		fn = rc->func;
	else if (!debuginfo_subprogram_at(rc->dbg, rc->lc.pc + rc->bias, &fn, &cu))
		return false;
	chain = xmalloc(sizeof(*chain));
	chain[0] = fn;
	/*
	 * At the probed function's own entry an inlined call starting there has not begun:
	 * its variables are the caller's values under other names (and "this" would be the
	 * callee's). Only below the entry do inner scopes come first.
	 */
	if (!(rc->has_here && dwarf_tag(&rc->here) == DW_TAG_subprogram &&
	      dwarf_entrypc(&rc->here, &entry) == 0 && entry == rc->lc.pc))
		scopes_walk(&fn, rc->lc.pc, &chain, &n, 0);
	for (int i = 0; i < n / 2; i++) {
		Dwarf_Die t = chain[i];

		chain[i] = chain[n - 1 - i];
		chain[n - 1 - i] = t;
	}
	nup = debuginfo_getscopes_die(rc->dbg, &rc->cu, &fn, &up);
	chain = xrealloc(chain, sizeof(*chain) * (n + (nup > 1 ? nup - 1 : 1)));
	if (nup > 1) {
		memcpy(chain + n, up + 1, sizeof(*chain) * (nup - 1));
		n += nup - 1;
	} else {
		chain[n++] = rc->cu;
	}
	free(up);
	free(rc->scopes);
	rc->scopes = chain;
	rc->nscopes = n;
	return true;
}

/*
 * An inlined copy probed at its entry pc where that pc lies outside its ranges (gcc gives a
 * copy an empty first range and an entry pc where its first instructions are mixed with the
 * caller's: Redis's lookupKeyReadWithFlags in typeCommand): the scopes at the pc miss the
 * copy, whose parameters have locations there. It becomes the innermost scope.
 */
static void copy_scope(struct rctx *rc)
{
	Dwarf_Off here;

	if (!rc->has_here || dwarf_tag(&rc->here) != DW_TAG_inlined_subroutine ||
	    !rc->site->has_die)
		return;
	here = dwarf_dieoffset(&rc->here);
	for (int i = 0; i < rc->nscopes; i++)
		if (dwarf_dieoffset(&rc->scopes[i]) == here)
			return;
	rc->scopes = xrealloc(rc->scopes, sizeof(*rc->scopes) * (rc->nscopes + 1));
	memmove(rc->scopes + 1, rc->scopes, sizeof(*rc->scopes) * rc->nscopes);
	rc->scopes[0] = rc->here;
	rc->nscopes++;
	pr_debug("the inlined copy at 0x%" PRIx64 " is not in the scopes there: added",
		 rc->site->vaddr);
}

/* The scopes at the pc, innermost first, and the subprogram holding it. */
static void ensure_scopes(struct rctx *rc)
{
	if (rc->scopes_done || !rc->has_cu)
		return;
	rc->scopes_done = true;
	/* from a per-CU table: a glob over 1000 functions of one CU must not walk it 1000 times */
	rc->nscopes = debuginfo_getscopes(rc->dbg, &rc->cu, rc->lc.pc, &rc->scopes);
	if (rc->nscopes <= 0) {
		free(rc->scopes);
		rc->scopes = NULL;
		rc->nscopes = own_scopes(&rc->cu, rc->lc.pc, &rc->scopes);
	}
	if (!concrete_scopes(rc)) {
		/* no function holds the pc: libdw's chain, through the abstract definition */
		free(rc->scopes);
		rc->scopes = NULL;
		rc->nscopes = dwarf_getscopes(&rc->cu, rc->lc.pc, &rc->scopes);
		if (rc->nscopes < 0)
			rc->nscopes = 0;
	}
	copy_scope(rc);
	for (int i = 0; i < rc->nscopes; i++) {
		int tag = dwarf_tag(&rc->scopes[i]);

		/*
		 * In an inlined copy the scopes go on through the inlined function's abstract
		 * definition, which has no frame base: place.c names the out-of-line function
		 * whose frame holds the pc
		 */
		if (tag == DW_TAG_subprogram && !rc->site->has_frame_func) {
			rc->func = rc->scopes[i];
			rc->has_func = true;
		}
		if (!rc->has_here && (tag == DW_TAG_subprogram ||
				      tag == DW_TAG_inlined_subroutine)) {
			rc->here = rc->scopes[i];
			rc->has_here = true;
		}
	}
}

/*
 * An inlined copy is named by the function whose code holds it, as perf does
 * ("luaH_get+0xd7" for luaH_getshortstr inlined there): its own name would say "+0x0" for
 * every copy.
 */
static bool inlined_where(struct rctx *rc)
{
	const struct probe_site *site = rc->site;
	Dwarf_Addr entry;
	char *name;

	if (!site->has_die || dwarf_tag(&rc->here) != DW_TAG_inlined_subroutine ||
	    !site->has_frame_func || dwarf_entrypc((Dwarf_Die *)&site->frame_func, &entry) != 0 ||
	    entry + rc->bias > site->vaddr)
		return false;
	name = die_func_name((Dwarf_Die *)&site->frame_func);
	if (!name)
		return false;
	rc->where = xasprintf("%s+0x%" PRIx64, name, site->vaddr - (entry + rc->bias));
	free(name);
	return true;
}

/*
 * What loc.c needs for the values the function was entered with (DW_OP_entry_value,
 * DW_OP_GNU_parameter_ref): at its entry every register still holds them; a gcc clone's
 * callers are all in its unit, where their DWARF says what they pass.
 */
static void entry_ctx(struct rctx *rc)
{
	uint64_t entry, end, fstart, fend;
	const char *name;
	struct symtab *st;
	struct sym *s;

	if (!rc->has_func || !die_code_range(&rc->func, &entry, &end))
		return;
	if (!rc->site->is_return && !rc->site->at_ret_insn &&
	    debuginfo_func_extent(rc->dbg, entry + rc->bias, &fstart, &fend, &name))
		rc->lc.entry_regs = place_entry_regs(rc->dbg, fstart, fend, rc->site->vaddr) &
				    arch_current()->entry_regs;
	else if (entry == rc->lc.pc && !rc->site->is_return)
		rc->lc.entry_regs = arch_current()->entry_regs;
	st = debuginfo_symtab(rc->dbg);
	s = st ? symtab_func_covering(st, entry + rc->bias) : NULL;
	rc->lc.callers_known = s && s->addr == entry + rc->bias && sym_is_clone(s);
	rc->lc.elf = debuginfo_elf(rc->dbg);
}

int rctx_init(struct rctx *rc, const struct probe_spec *spec, struct debuginfo *dbg,
	      const struct resolve_opts *o, const struct probe_site *site, struct diag *d)
{
	Dwarf_Addr entry;
	uint64_t fentry = site->vaddr;

	memset(rc, 0, sizeof(*rc));
	rc->abi_ret = 1;
	rc->spec = spec;
	rc->dbg = dbg;
	rc->o = o;
	rc->site = site;
	rc->d = d;
	rc->dw = debuginfo_dwarf(dbg, &rc->bias);
	rc->lang = lang_for(site->lang);
	if (rc->dw) {
		Dwarf_Addr pc = site->vaddr - rc->bias;

		if (site->has_die) {
			rc->cu = site->cu;
			rc->has_cu = true;
			rc->here = site->die;
			rc->has_here = true;
		} else if (dwarf_addrdie(rc->dw, pc, &rc->cu)) {
			rc->has_cu = true;
		}
		if (rc->has_cu && !site->lang)
			rc->lang = lang_for(dwarf_srclang(&rc->cu));
		rc->lc.pc = pc;
		if (site->has_frame_func) {
			/* the frame base and CFA: from the out-of-line function holding the pc */
			rc->func = site->frame_func;
			rc->has_func = true;
		}
		if (site->has_die && dwarf_tag(&rc->here) == DW_TAG_subprogram) {
			/* scopes only when an argument needs a variable (a glob of 1000 doesn't) */
			if (!site->has_frame_func) {
				rc->func = rc->here;
				rc->has_func = true;
			}
		} else {
			ensure_scopes(rc);
		}
		rc->lc.pc = pc;
	}
	rc->lc.vaddr = site->vaddr;
	rc->lc.cfi = debuginfo_cfi(dbg);
	rc->lc.func = rc->has_func ? &rc->func : NULL;
	rc->lc.file_delta = (int64_t)rc->bias + (int64_t)site->offset - (int64_t)site->vaddr;
	rc->lc.pc_relative = !site->is_return;
	rc->lc.pc_delta = (int64_t)rc->bias - (int64_t)site->vaddr;
	if (rc->lang == &lang_go && rc->has_func) {
		/* Go without .debug_frame: the CFA from the frame pointer (see loc.h) */
		Dwarf_Addr lo;

		rc->lc.cfa_fallback = LOC_CFA_BP;
		if (site->at_ret_insn || (dwarf_lowpc(&rc->func, &lo) == 0 && lo == rc->lc.pc))
			rc->lc.cfa_fallback = LOC_CFA_SP;
	}
	entry_ctx(rc);
	if (rc->has_here && dwarf_entrypc(&rc->here, &entry) == 0)
		fentry = entry + rc->bias;
	if (inlined_where(rc))
		return 0;
	if (site->func && fentry <= site->vaddr)
		rc->where = xasprintf("%s+0x%" PRIx64, site->func, site->vaddr - fentry);
	else
		rc->where = xasprintf("0x%" PRIx64, site->vaddr);
	return 0;
}

static bool is_var_tag(int tag)
{
	return tag == DW_TAG_variable || tag == DW_TAG_formal_parameter;
}

bool rctx_locals_visit(struct rctx *rc, local_fn fn, void *arg)
{
	const char **seen = NULL;
	size_t nseen = 0, alloc = 0;
	bool stopped = false;

	ensure_scopes(rc);
	for (int i = 0; i < rc->nscopes && !stopped; i++) {
		Dwarf_Die child;
		int stag = dwarf_tag(&rc->scopes[i]);

		if (stag == DW_TAG_compile_unit || stag == DW_TAG_partial_unit)
			break;
		if (dwarf_child(&rc->scopes[i], &child) != 0)
			continue;
		do {
			const char *n;
			bool dup = false;

			if (!is_var_tag(dwarf_tag(&child)) || !(n = dwarf_diename(&child)))
				continue;
			if (rc->lang == &lang_go && lang_go_heap_name(n))
				n = lang_go_heap_name(n);	/* "&x": x, moved to the heap */
			for (size_t k = 0; k < nseen && !dup; k++)
				dup = !strcmp(seen[k], n);
			if (dup)
				continue;
			switch (fn(rc, &rc->scopes[i], &child, n, arg)) {
			case VISIT_SKIP:
				break;
			case VISIT_TAKE:
				ALLOC_GROW(seen, nseen + 1, alloc);
				seen[nseen++] = n;
				break;
			case VISIT_STOP:
				stopped = true;
				break;
			}
		} while (!stopped && dwarf_siblingof(&child, &child) == 0);
	}
	free(seen);
	return stopped;
}

struct local_query {
	const char *name;
	Dwarf_Die *out;
};

static enum visit local_is(struct rctx *rc, Dwarf_Die *scope, Dwarf_Die *var, const char *name,
			   void *arg)
{
	struct local_query *q = arg;

	if (strcmp(name, q->name))
		return VISIT_TAKE;
	*q->out = *var;
	return VISIT_STOP;
}

/* A local or parameter named @name visible at the pc, innermost scope first. */
bool rctx_find_local(struct rctx *rc, const char *name, Dwarf_Die *out)
{
	struct local_query q = { name, out };
	const char *cn;

	/*
	 * a probe moved to a float parameter's copy (floatcopy.c): its name is still the
	 * parameter, not one of a function inlined there (AtomicU64::store's val: u64)
	 */
	if (rc->site->copy_die && dwarf_offdie(rc->dw, rc->site->copy_die, out) &&
	    (cn = dwarf_diename(out)) && !strcmp(cn, name))
		return true;
	return rctx_locals_visit(rc, local_is, &q);
}

static bool has_location(Dwarf_Die *die)
{
	return dwarf_hasattr(die, DW_AT_location) || dwarf_hasattr(die, DW_AT_const_value);
}

/* A global in @scope (a CU or namespace): "ns::var" walks namespaces; Go's "main.config"
 * is one name. */
static bool find_global_in(Dwarf_Die *scope, const char *name, Dwarf_Die *out, int depth)
{
	Dwarf_Die child;
	const char *sep = strstr(name, "::");

	if (depth > 8 || dwarf_child(scope, &child) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child);
		const char *n;

		if (tag == DW_TAG_variable) {
			n = dwarf_diename(&child);
			if (n && !strcmp(n, name) && has_location(&child)) {
				*out = child;
				return true;
			}
		} else if (sep && (tag == DW_TAG_namespace || tag == DW_TAG_structure_type ||
				   tag == DW_TAG_class_type)) {
			n = dwarf_diename(&child);
			if (n && strlen(n) == (size_t)(sep - name) &&
			    !strncmp(n, name, sep - name) &&
			    find_global_in(&child, sep + 2, out, depth + 1))
				return true;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	/* a C++ static member is defined at CU level with a DW_AT_specification */
	if (sep && depth == 0 && dwarf_child(scope, &child) == 0) {
		const char *last = name;

		for (const char *p = name; (p = strstr(p, "::")); p += 2)
			last = p + 2;
		do {
			const char *n;

			if (dwarf_tag(&child) != DW_TAG_variable ||
			    !dwarf_hasattr(&child, DW_AT_specification))
				continue;
			n = dwarf_diename(&child);
			if (n && !strcmp(n, last) && has_location(&child)) {
				*out = child;
				return true;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	return false;
}

bool rctx_find_global(struct rctx *rc, const char *name, Dwarf_Die *out)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (rc->has_cu && find_global_in(&rc->cu, name, out, 0))
		return true;
	while (dwarf_nextcu(rc->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(rc->dw, off + hsize, &cu) &&
		    (!rc->has_cu || dwarf_dieoffset(&cu) != dwarf_dieoffset(&rc->cu)) &&
		    find_global_in(&cu, name, out, 0))
			return true;
		off = next;
	}
	return false;
}

static enum visit local_name_add(struct rctx *rc, Dwarf_Die *scope, Dwarf_Die *var,
				 const char *name, void *arg)
{
	struct strbuf *out = arg;

	if (out->len)
		strbuf_addstr(out, ", ");
	strbuf_addstr(out, name);
	return VISIT_TAKE;
}

/* "a, b, c": the names visible at the pc, for the "no variable" hint */
void rctx_list_locals(struct rctx *rc, struct strbuf *out)
{
	rctx_locals_visit(rc, local_name_add, out);
}

/* Go results at a return instruction, from the ABI's registers */
int rctx_go_results(struct rctx *rc, struct abi_value **res, size_t *nr, struct span sp)
{
	Dwarf_Die *fn = rc->has_here ? &rc->here : rc->has_func ? &rc->func : NULL;

	if (!fn || abi_go_results(fn, res, nr))
		return diag_error(rc->d, sp, "%s returns nothing", rc->site->func ?
				  rc->site->func : rc->where);
	return 0;
}

/*
 * entry_loc() - where @var is at a function's first instruction before its prologue has run
 * (site->entry_abi): a parameter where the ABI passed it; any other variable only when its
 * location names no register or frame (a static), as nothing else is live yet
 */
int rctx_abi_param_loc(struct rctx *rc, Dwarf_Die *var, struct loc *out, struct strbuf *err)
{
	if (rc->abi_ret == 1)
		rc->abi_ret = abi_entry_params(&rc->here, rc->lang, &rc->abi, &rc->nr_abi,
					       &rc->abi_why);
	if (rc->abi_ret) {
		strbuf_addf(err, "cannot be read from the ABI at the entry (%s)",
			    rc->abi_why ? rc->abi_why : "?");
		return -EINVAL;
	}
	for (size_t i = 0; i < rc->nr_abi; i++) {
		if (dwarf_dieoffset(&rc->abi[i].die) != dwarf_dieoffset(var))
			continue;
		loc_copy(out, &rc->abi[i].loc);
		return 0;
	}
	strbuf_addstr(err, "is not a parameter of the function entered");
	return -EINVAL;
}

static int entry_loc(struct rctx *rc, Dwarf_Die *var, struct loc *out, struct strbuf *err)
{
	int ret;

	if (dwarf_tag(var) == DW_TAG_formal_parameter && rc->has_here)
		return rctx_abi_param_loc(rc, var, out, err);
	ret = loc_from_die(var, &rc->lc, out, err);
	if (ret)
		return ret;
	for (size_t i = 0; i < out->nr; i++) {
		const struct loc_piece *p = &out->pieces[i];

		if (p->kind == LOC_VAL || (p->kind == LOC_MEM && p->base && !loc_base_is_pc(p->base))) {
			strbuf_addstr(err, "is not live yet at the entry");
			return -EINVAL;
		}
	}
	return 0;
}

/* Whether @var is a 128-bit integer parameter of C or C++ that DWARF puts in two registers. */
static bool wide_reg_param(struct rctx *rc, Dwarf_Die *var, const struct loc *l)
{
	Dwarf_Die t;
	Dwarf_Attribute at;
	Dwarf_Word enc = 0;

	if (dwarf_tag(var) != DW_TAG_formal_parameter || !rc->has_here ||
	    (rc->lang != &lang_c && rc->lang != &lang_cxx) || l->nr != 2 ||
	    l->pieces[0].kind != LOC_VAL || l->pieces[1].kind != LOC_VAL ||
	    !lang_type_of(var, &t) || lang_strip(&t, &t) != DW_TAG_base_type ||
	    lang_type_size(&t) != 16 || !dwarf_attr(&t, DW_AT_encoding, &at) ||
	    dwarf_formudata(&at, &enc) || (enc != DW_ATE_signed && enc != DW_ATE_unsigned))
		return false;
	if (rc->abi_ret == 1)
		rc->abi_ret = abi_entry_params(&rc->here, rc->lang, &rc->abi, &rc->nr_abi,
					       &rc->abi_why);
	return rc->abi_ret == 0;
}

/*
 * A 128-bit integer parameter in registers: gcc (12) describes the pair the ABI passed it in
 * (%rsi:%rdx) as two registers in a row of its own numbering (DW_OP_reg4 rsi, DW_OP_reg5 rdi),
 * so its DWARF names the wrong high half wherever the value is still where it came, and
 * it starts the range of a copy into other registers before the moves. At the function's
 * entry it is read where the ABI put it; elsewhere the wrong pair is refused.
 */
static int wide_param_loc(struct rctx *rc, Dwarf_Die *var, struct loc *out, struct strbuf *err)
{
	Dwarf_Addr lo;
	const struct loc *abi = NULL;

	for (size_t i = 0; i < rc->nr_abi; i++)
		if (dwarf_dieoffset(&rc->abi[i].die) == dwarf_dieoffset(var))
			abi = &rc->abi[i].loc;
	if (!abi || abi->nr != 2 || abi->pieces[0].kind != LOC_VAL ||
	    abi->pieces[1].kind != LOC_VAL || (!strcmp(abi->pieces[0].fetch, out->pieces[0].fetch) &&
					       !strcmp(abi->pieces[1].fetch, out->pieces[1].fetch)))
		return 0;
	if (dwarf_lowpc(&rc->here, &lo) == 0 && lo == rc->lc.pc && !rc->site->is_return &&
	    dwarf_tag(&rc->here) != DW_TAG_inlined_subroutine) {
		/* nothing has run yet: the ABI is right (gcc also starts the range of a copy
		 * into other registers at the entry, before the moves) */
		loc_release(out);
		loc_copy(out, abi);
		return 0;
	}
	if (strcmp(abi->pieces[0].fetch, out->pieces[0].fetch))
		return 0;	/* moved elsewhere: as the DWARF says */
	strbuf_addf(err, "is in %s:%s by the ABI, where gcc's DWARF says %s:%s (it names the "
		    "wrong register for 128-bit values in registers)", abi->pieces[0].fetch,
		    abi->pieces[1].fetch, out->pieces[0].fetch, out->pieces[1].fetch);
	return -EINVAL;
}

/* @l holds @v where the site's code copied it out of an xmm register (floatcopy_param()) */
static void copied_loc(const struct insn_float_copy *c, struct loc *l)
{
	struct loc_piece p = { .reg = -1 };	/* not "a float in a register": its bits */
	const char *name = regs_kernel_name(c->reg >= 0 ? c->reg : c->base);
	char buf[16];

	loc_release(l);
	snprintf(buf, sizeof(buf), "%%%s", name ? name : "?");
	if (c->reg >= 0) {
		p.kind = LOC_VAL;
		p.fetch = buf;
	} else {
		p.kind = LOC_MEM;
		p.base = buf;
		p.off = c->disp;
	}
	loc_add_piece(l, &p);
}

/* the first float parameter found in an xmm register: floatcopy.c may follow it */
static void float_note(struct rctx *rc, Dwarf_Die *var, const struct loc *l)
{
	Dwarf_Die t;
	int64_t size;

	if (rc->float_die || dwarf_tag(var) != DW_TAG_formal_parameter || l->nr != 1 ||
	    l->pieces[0].kind != LOC_BAD || regs_vector(l->pieces[0].reg) < 0 ||
	    !lang_type_of(var, &t) || (size = lang_type_size(&t)) <= 0 || size > 8)
		return;
	rc->float_die = dwarf_dieoffset(var);
	rc->float_vec = regs_vector(l->pieces[0].reg);
	rc->float_size = (unsigned int)size;
	snprintf(rc->float_name, sizeof(rc->float_name), "%s",
		 dwarf_diename(var) ? dwarf_diename(var) : "?");
}

int rctx_var_loc(struct rctx *rc, Dwarf_Die *var, struct loc *out, struct strbuf *err)
{
	int ret;

	if (rc->site->copy_die && rc->site->copy_die == dwarf_dieoffset(var)) {
		out->pieces = NULL;
		out->nr = 0;
		copied_loc(&rc->site->copy, out);
		return 0;
	}
	if (rc->site->entry_abi)
		ret = entry_loc(rc, var, out, err);
	else
		ret = loc_from_die(var, &rc->lc, out, err);
	if (!ret && wide_reg_param(rc, var, out))
		ret = wide_param_loc(rc, var, out, err);
	if (!ret)
		float_note(rc, var, out);
	return ret;
}

/*
 * Location pieces that do not add up to the size of the variable's type cannot say which
 * bytes are where: Go 1.19 describes some parameters with 32 bytes of pieces for a 24-byte
 * slice, its pointer twice, or for a 16-byte interface, its data word three times
 * (golang/go#61700); read in order, a slice's length shows its data pointer. More pieces than
 * bytes are broken in any language, fewer in Go (elsewhere a part with no piece is refused
 * when it is read, loc_part()).
 */
static bool pieces_broken(struct rctx *rc, const struct loc *l, Dwarf_Die *type)
{
	int64_t size = lang_type_size(type), total = 0;

	if (l->nr < 2 || size <= 0)
		return false;
	for (size_t i = 0; i < l->nr; i++)
		total += l->pieces[i].size;
	return total != size && (total > size || rc->lang == &lang_go);
}

int rctx_var_pieces(struct rctx *rc, Dwarf_Die *var, const char *what, struct span sp,
		    struct val *out)
{
	const struct probe_site *s = rc->site;
	int64_t total = 0, size = lang_type_size(&out->type);
	const char *producer = NULL;
	struct strbuf err = STRBUF_INIT;
	Dwarf_Attribute attr;
	struct loc abi = { NULL, 0 };
	char *tn;

	if (!out->has_type || !pieces_broken(rc, &out->loc, &out->type))
		return 0;
	strbuf_init(&err);
	if (dwarf_tag(var) == DW_TAG_formal_parameter && s->ret_at_sp && !s->is_return &&
	    !s->at_ret_insn && rc->has_here && dwarf_tag(&rc->here) == DW_TAG_subprogram &&
	    !rctx_abi_param_loc(rc, var, &abi, &err)) {
		pr_info("%s: its DWARF location pieces are broken; where the ABI passed it",
			what);
		loc_release(&out->loc);
		out->loc = abi;
		strbuf_release(&err);
		return 0;
	}
	loc_release(&abi);
	strbuf_release(&err);
	for (size_t i = 0; i < out->loc.nr; i++)
		total += out->loc.pieces[i].size;
	if (rc->has_cu && dwarf_attr(&rc->cu, DW_AT_producer, &attr))
		producer = dwarf_formstring(&attr);
	tn = rctx_type_name(rc, &out->type, true);
	diag_error(rc->d, sp, "'%s' cannot be read at %s: the compiler's DWARF for it is broken, "
		   "its location pieces cover %" PRId64 " bytes of a %" PRId64 "-byte %s (%s%s)",
		   what, rc->where, total, size, tn, producer ? producer : "unknown producer",
		   rc->lang == &lang_go ? "; golang/go#61700" : "");
	free(tn);
	return -EINVAL;
}

int rctx_heap_local(struct rctx *rc, Dwarf_Die *var, struct span sp, struct val *out)
{
	Dwarf_Die pt, to;
	struct val n;
	char *what;
	int ret;

	if (rc->lang != &lang_go || !lang_go_heap_name(dwarf_diename(var)) || !out->has_type ||
	    lang_strip(&out->type, &pt) != DW_TAG_pointer_type || !lang_type_of(&pt, &to))
		return 0;
	what = out->what;
	out->what = xasprintf("&%s", what);
	ret = val_deref(rc, out, 0, &to, true, what, sp, &n);
	free(what);
	if (ret)
		return ret;
	val_move(out, &n);
	return 0;
}

void rctx_float_result(struct rctx *rc, struct loc *l, unsigned int size)
{
	struct strbuf why = STRBUF_INIT;
	struct insn_float_copy c;
	struct loc_piece *p = l->nr == 1 ? &l->pieces[0] : NULL;
	char *w, reg[16];

	if (!p || p->kind != LOC_BAD || regs_vector(p->reg) < 0 || size > 8 ||
	    (!rc->site->is_return && !rc->site->at_ret_insn))
		return;
	strbuf_init(&why);
	if (!floatcopy_result(rc->dbg, rc->site, regs_vector(p->reg), size, &c, &why)) {
		pr_info("%s: the float result in %s is read from %s, which '%s' at 0x%" PRIx64
			" copied it from", rc->where, regs_describe(p->reg, reg),
			regs_kernel_name(c.reg >= 0 ? c.reg : c.base), c.text, c.copy);
		copied_loc(&c, l);
	} else {
		w = xasprintf("%s (followed back %s)", p->why, strbuf_cstr(&why));
		free(p->why);
		p->why = w;
	}
	strbuf_release(&why);
}
