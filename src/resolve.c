// SPDX-License-Identifier: GPL-2.0-or-later
/* resolve.c - probe_spec + DWARF -> struct trace_probe (what the kernel gets), per probe site */
#define LOG_DOMAIN "resolve"
#include <ctype.h>
#include <dwarf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/abi.h"
#include "arch/arch.h"
#include "fallback.h"
#include "lang.h"
#include "floatcopy.h"
#include "log.h"
#include "parse.h"
#include "place.h"
#include "resolve-internal.h"
#include "regs.h"
#include "resolve.h"
#include "sdt.h"
#include "symtab.h"

static char *arg_text(const struct probe_spec *spec, const struct probe_arg *pa)
{
	if (pa->span.start >= 0 && pa->span.len > 0 &&
	    (size_t)(pa->span.start + pa->span.len) <= strlen(spec->text))
		return xstrndup(spec->text + pa->span.start, pa->span.len);
	return expr_text(pa->expr);
}

/* $params / $vars / Go's multi-result $retval: each value that can be read */
static void emit_each(struct rctx *rc, Dwarf_Die *var, const char *name, bool quiet)
{
	struct diag scratch, *save = rc->d;
	struct val v;
	size_t nf = rc->tp->nr_fields, na = rc->tp->nr_args;

	diag_init(&scratch, rc->spec->text);
	rc->d = &scratch;
	rctx_guards_clear(rc);
	rc->in_expansion = true;
	if (val_from_die(rc, var, name, SPAN_NONE, &v) == 0) {
		if (emit_arg(rc, name, false, name, NULL, SPAN_NONE, SPAN_NONE, &v)) {
			/* drop what a failed value added (a whole value's parts too) */
			trace_probe_truncate(rc->tp, nf, na);
			if (!quiet)
				pr_info("skipping %s: %s", name, scratch.msg ? scratch.msg : "?");
		}
	}
	rc->in_expansion = false;
	val_release(&v);
	rctx_guards_clear(rc);
	diag_release(&scratch);
	rc->d = save;
}

/*
 * $params: the parameters of the function probed (the inlined copy's own at an inlined
 * site); $vars: every variable visible at the pc
 */
static enum visit param_emit(struct rctx *rc, Dwarf_Die *scope, Dwarf_Die *var, const char *name,
			     void *arg)
{
	const bool *all_vars = arg;

	if (!*all_vars) {
		if (dwarf_tag(var) != DW_TAG_formal_parameter)
			return VISIT_SKIP;
		if (rc->has_here ? dwarf_dieoffset(scope) != dwarf_dieoffset(&rc->here) :
				   scope != &rc->scopes[0])
			return VISIT_SKIP;
	}
	if (lang_go_is_result(var) && !rc->site->at_ret_insn)
		return VISIT_SKIP;
	emit_each(rc, var, name, false);
	return VISIT_TAKE;
}

static int emit_params(struct rctx *rc, bool all_vars, struct span sp)
{
	size_t before = rc->tp->nr_args;

	if (!rc->has_cu)
		return diag_error(rc->d, sp, "no debug information covers %s", rc->where);
	rctx_locals_visit(rc, param_emit, &all_vars);
	if (rc->tp->nr_args == before)
		return diag_error(rc->d, sp, "no %s can be read at %s", all_vars ? "variables" :
				  "parameters", rc->where);
	return 0;
}

/* Go results at a ret instruction, one argument each */
static int emit_go_results(struct rctx *rc, const struct probe_arg *pa)
{
	struct abi_value *res;
	size_t nr;

	if (rctx_go_results(rc, &res, &nr, pa->expr->span))
		return -EINVAL;
	for (size_t i = 0; i < nr; i++) {
		struct val v;
		const char *n = res[i].name;
		char *name;
		int ret;

		if (n[0] == '~')
			n++;
		name = nr == 1 && pa->name ? xstrdup(pa->name) : xstrdup(n);
		memset(&v, 0, sizeof(v));
		loc_copy(&v.loc, &res[i].loc);
		v.type = res[i].type;
		v.has_type = res[i].has_type;
		if (v.has_type)
			rctx_float_result(rc, &v.loc, (unsigned int)lang_type_size(&v.type));
		v.what = xstrdup(res[i].name);
		rctx_guards_clear(rc);
		rc->in_expansion = nr > 1;
		ret = emit_arg(rc, name, nr == 1 && pa->name, res[i].name, pa->type, pa->span,
			       pa->type_span, &v);
		rc->in_expansion = false;
		val_release(&v);
		free(name);
		if (ret) {
			abi_values_free(res, nr);
			return ret;
		}
	}
	abi_values_free(res, nr);
	return 0;
}

/*
 * The kernel's limits on the fields argument @pa added (from @nf on), named after what the
 * user typed: nested dereferences, then the length of FETCH:TYPE, then the event's size.
 * fetcharg_check_limits() checks the finished probe again.
 */
static int check_arg_limits(struct rctx *rc, const struct probe_arg *pa, size_t nf)
{
	const struct kernel_features *kf = &rc->o->kf;
	long fixed = 0;
	int ret = 0;

	for (size_t i = nf; i < rc->tp->nr_fields && !ret; i++) {
		const struct fetch_field *f = &rc->tp->fields[i];
		size_t len = strlen(f->fetch) + 1 + strlen(f->type);
		int n = fetcharg_count_derefs(f->fetch);

		if (kf->max_derefs > 0 && n > kf->max_derefs) {
			ret = diag_error(rc->d, pa->span, "argument '%s' needs %d nested "
					 "dereferences; the kernel's limit is %d", f->name, n,
					 kf->max_derefs);
		} else if (kf->max_arg_len > 0 && len > (size_t)kf->max_arg_len) {
			ret = diag_error(rc->d, pa->span, "argument '%s' is too long for the "
					 "kernel: '%s:%s' has %zu characters, the limit is %d",
					 f->name, f->fetch, f->type, len, kf->max_arg_len);
		}
	}
	for (size_t i = 0; i < rc->tp->nr_fields && !ret; i++) {
		int size = fetcharg_type_size(rc->tp->fields[i].type);

		fixed += size > 0 ? size : 8;
	}
	if (!ret && kf->max_event_size > 0 && fixed > kf->max_event_size) {
		ret = diag_error(rc->d, pa->span, "with argument '%s' the event has %ld bytes of "
				 "fields; the kernel's limit is %d",
				 rc->tp->args[rc->tp->nr_args - 1].name, fixed, kf->max_event_size);
		diag_hint(rc->d, "capture fewer or shorter values (--string-size %u now)",
			  rc->o->string_size ? rc->o->string_size : RESOLVE_STRING_SIZE);
	}
	return ret ? -E2BIG : 0;
}

static int resolve_arg_limited(struct rctx *rc, const struct probe_arg *pa)
{
	struct val v;
	char *text, *vname = NULL, *pos_name = NULL;
	const char *name;
	int ret;

	rctx_guards_clear(rc);
	switch (pa->expr->kind) {
	case EXPR_PARAMS:
		return emit_params(rc, false, pa->expr->span);
	case EXPR_VARS:
		return emit_params(rc, true, pa->expr->span);
	case EXPR_RETVAL:
		if (rc->site->at_ret_insn)
			return emit_go_results(rc, pa);
		break;
	default:
		break;
	}
	rc->arg_expr = pa->expr;
	ret = val_eval(rc, pa->expr, &v);
	rc->arg_expr = NULL;
	if (ret) {
		val_release(&v);
		rctx_guards_clear(rc);
		return ret;
	}
	text = arg_text(rc->spec, pa);
	name = pa->name ? pa->name : expr_last_name(pa->expr);
	if (!name || !*name) {
		/* raw fetchargs are named by position, as perf and the kernel do: arg1, arg2 */
		pos_name = probe_arg_name(pa, pa - rc->spec->args);
		name = pos_name;
	}
	/* "this->_vptr.Base" is named as the member is: _vptr_Base, not Base */
	if (!pa->name && pa->expr->kind == EXPR_MEMBER && pa->expr->base->kind == EXPR_MEMBER &&
	    (!strcmp(pa->expr->base->name, "_vptr") ||
	     (strstr(pa->expr->base->name, "::_vptr") &&
	      !strcmp(strstr(pa->expr->base->name, "::_vptr"), "::_vptr"))))
		vname = xasprintf("_vptr_%s", pa->expr->name);
	ret = emit_arg(rc, vname ? vname : name, !vname && pa->name, text, pa->type, pa->span,
		       pa->type_span, &v);
	free(vname);
	free(pos_name);
	free(text);
	val_release(&v);
	rctx_guards_clear(rc);
	return ret;
}

static int resolve_arg(struct rctx *rc, const struct probe_arg *pa)
{
	size_t nf = rc->tp->nr_fields;
	int ret = resolve_arg_limited(rc, pa);

	return ret ? ret : check_arg_limits(rc, pa, nf);
}

/* FUNC's entry (not an inlined copy: it has no return) or FUNC%return, for durations */
static enum call_role call_role_of(const struct probe_spec *spec, const struct probe_site *site)
{
	const struct probe_place *pl = &spec->place;

	if (pl->kind != PLACE_FUNC || pl->has_line || pl->has_offset || !site->func)
		return CALL_NONE;
	if (site->is_return || site->at_ret_insn)
		return CALL_RETURN;
	if (site->has_die && dwarf_tag((Dwarf_Die *)&site->die) == DW_TAG_inlined_subroutine)
		return CALL_NONE;
	/* moved to a float's copy past a change of %sp: its height is not the call's */
	if (site->copy_die && !site->ret_at_sp)
		return CALL_NONE;
	return pl->is_return ? CALL_NONE : CALL_ENTRY;
}

/*
 * entry_height() - durations pair a return with its entry by the stack pointer at the call's
 * entry; an entry probed past its prologue (-O0 parameters in the slots it stores them to,
 * where no cheaper instruction at the entry reads the same) finds it from the CFA's rule
 * there: "sp + 32" past arm64's stp, "%rsp + 24" or "%rbp + 16" past x86-64's pushes. With
 * no such rule the entry is not paired: its return shows no duration, never a wrong one.
 */
static void entry_height(struct debuginfo *dbg, const struct probe_site *site,
			 struct trace_probe *tp)
{
	int reg;
	int64_t off;

	if (loc_cfa_rule(debuginfo_cfi(dbg), site->vaddr, &reg, &off) ||
	    !regs_kernel_name(reg)) {
		pr_info("%s: no CFA rule at 0x%" PRIx64 ": its calls get no duration",
			site->func ? site->func : "probe", site->vaddr);
		tp->call = CALL_NONE;
		return;
	}
	tp->height_moved = true;
	tp->height_reg = reg;
	tp->height_adj = off - (int64_t)arch_current()->entry_cfa_sp;
}

/* A float parameter the site could not read (rctx.float_die): floatcopy.c may follow it. */
struct float_miss {
	uint64_t die;
	int vec;		/* the vector register (regs_vector()) */
	unsigned int size;
	char name[64];
};

static int resolve_site_at(const struct probe_spec *spec, struct debuginfo *dbg,
			const struct resolve_opts *o, const struct probe_site *site,
			struct trace_probe *tp, struct diag *d, struct float_miss *fm)
{
	struct rctx rc;
	const char *bid;
	int ret = 0;

	rctx_init(&rc, spec, dbg, o, site, d);
	rc.tp = tp;
	tp->path = xstrdup(debuginfo_path(dbg));
	tp->kpath = xstrdup(debuginfo_kernel_path(dbg));
	bid = debuginfo_build_id(dbg);
	tp->build_id = bid ? xstrdup(bid) : NULL;
	tp->func = site->func ? xstrdup(site->func) : NULL;
	tp->vaddr = site->vaddr;
	tp->ret_at_sp = site->ret_at_sp;
	tp->offset = site->offset;
	tp->is_return = site->is_return;
	tp->call = call_role_of(spec, site);
	if (tp->call == CALL_ENTRY && !site->ret_at_sp)
		entry_height(dbg, site, tp);
	/*
	 * Durations: Go code that keeps the goroutine (runtime.g) in its register (the register
	 * ABI's r14; arm64's R28 everywhere) pairs its calls per goroutine, by their height below
	 * g.stack.hi; elsewhere (x86-64 assembly, Go before 1.17, no runtime.g in the DWARF) per
	 * thread
	 */
	if (tp->call != CALL_NONE && site->lang == DW_LANG_Go && rctx_go_g_kept(&rc) &&
	    rctx_go_g_member(&rc, "stack.hi", NULL, &tp->go_stack_hi))
		tp->goroutines = true;
	for (size_t i = 0; i < spec->nr_args && !ret; i++)
		ret = resolve_arg(&rc, &spec->args[i]);
	if (fm) {
		*fm = (struct float_miss){ rc.float_die, rc.float_vec, rc.float_size, "" };
		snprintf(fm->name, sizeof(fm->name), "%s", rc.float_name);
	}
	rctx_release(&rc);
	return ret;
}

/*
 * resolve_float_copy() - the probe at @site failed on a float parameter in an xmm register
 * (@fm): moved to where the code copies it to a general register or the stack (floatcopy.c),
 * read there; else the error says what the walk found. -v and -D say where it went.
 */
static int resolve_float_copy(const struct probe_spec *spec, struct debuginfo *dbg,
			      const struct resolve_opts *o, struct probe_site *site,
			      const struct float_miss *fm, struct trace_probe *tp, struct diag *d)
{
	struct strbuf why = STRBUF_INIT;
	struct insn_float_copy copy;
	struct probe_site at;
	struct diag ad;
	char reg[16];
	int ret;

	strbuf_init(&why);
	if (floatcopy_param(dbg, site, fm->vec, fm->size, &at, &copy, &why)) {
		diag_hint(d, "followed %s from there: %s",
			  regs_describe(regs_vector_dwarf(fm->vec), reg), strbuf_cstr(&why));
		strbuf_release(&why);
		return -EINVAL;
	}
	strbuf_release(&why);
	at.copy = copy;
	at.copy_die = fm->die;
	diag_init(&ad, d->input);
	trace_probe_release(tp);
	ret = resolve_site_at(spec, dbg, o, &at, tp, &ad, NULL);
	if (ret) {
		diag_release(d);
		*d = ad;
		floatcopy_site_release(&at);
		return ret;
	}
	diag_release(&ad);
	tp->note = xasprintf("'%s' was in %s: read where '%s' at 0x%" PRIx64 " copied it, "
			     "the probe is at 0x%" PRIx64, fm->name,
			     regs_describe(regs_vector_dwarf(fm->vec), reg), at.copy.text,
			     at.copy.copy, at.vaddr);
	pr_info("%s: %s (%s, %s)", site->func ? site->func : "probe", tp->note,
		at.insn ? at.insn : "?", probe_cost_name(at.cost));
	free(site->insn);
	site->insn = at.insn;
	site->entry_abi = false;
	site->go_split = false;
	site->vaddr = at.vaddr;
	site->offset = at.offset;
	site->cost = at.cost;
	site->ret_at_sp = at.ret_at_sp;
	site->copy_die = at.copy_die;
	site->copy = at.copy;
	return 0;
}

/*
 * resolve_site() - the probe at @site, moved to the first of its cheaper alternatives (an
 * emulated instruction instead of a single-stepped one, place.c) where the same values
 * resolve and read the same (place_alt_agrees()); -v says which instruction it is
 */
static int resolve_site(const struct probe_spec *spec, struct debuginfo *dbg,
			const struct resolve_opts *o, struct probe_site *site,
			struct trace_probe *tp, struct diag *d)
{
	struct float_miss fm = { 0 };
	int ret = resolve_site_at(spec, dbg, o, site, tp, d, &fm);

	if (ret && fm.die && !site->copy_die)
		return resolve_float_copy(spec, dbg, o, site, &fm, tp, d);
	if (ret)
		return ret;
	for (size_t i = 0; i < site->nr_alts; i++) {
		const struct site_alt *a = &site->alts[i];
		struct trace_probe atp = { 0 };
		struct probe_site at = *site;
		struct diag ad;
		bool ok;

		at.vaddr = a->vaddr;
		at.offset = a->offset;
		at.entry_abi = a->entry_abi;
		if (!site->is_return)
			at.ret_at_sp = a->ret_at_sp;
		diag_init(&ad, d->input);
		ok = !resolve_site_at(spec, dbg, o, &at, &atp, &ad, NULL) &&
		     place_alt_agrees(a, tp, &atp);
		if (!ok)
			pr_debug("%s: not at 0x%" PRIx64 " (%s): %s", site->func ? site->func : "?",
				 a->vaddr, a->insn, ad.msg ? ad.msg : "other values there");
		diag_release(&ad);
		if (ok) {
			trace_probe_release(tp);
			*tp = atp;
			place_take_alt(site, a, tp);
			break;
		}
		trace_probe_release(&atp);
	}
	if (site->cost == PROBE_REFUSED) {
		/* arm64: an instruction the kernel neither steps out of line nor simulates */
		diag_error(d, SPAN_NONE, "the kernel refuses a uprobe on '%s' at 0x%" PRIx64
			   " in %s", site->insn ? site->insn : "?", site->vaddr,
			   site->func ? site->func : "the binary");
		diag_hint(d, "probe the instruction before or after it (FUNC+OFFSET, or a line)");
		return -EINVAL;
	}
	pr_info("%s at 0x%" PRIx64 "%s: %s (%s)%s", site->func ? site->func : "probe",
		site->vaddr, site->has_die && dwarf_tag(&site->die) == DW_TAG_inlined_subroutine ?
		" (an inlined copy)" : "", site->insn ? site->insn : "?",
		probe_cost_name(site->cost), site->entry_abi ? ", parameters from the ABI" :
		site->go_split ? ", Go's stack check: its event filters the taken jump" : "");
	return 0;
}

static char *signature(const struct trace_probe *tp)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_init(&sb);
	strbuf_addstr(&sb, tp->is_return ? "r" : "p");
	for (size_t i = 0; i < tp->nr_fields; i++)
		strbuf_addf(&sb, " %s:%s", tp->fields[i].name, tp->fields[i].type);
	return strbuf_detach(&sb);
}

/*
 * last_component() - the function's own name, as the event is named (man page, "Event name":
 * p:probe_dnsfwd/handleRequest): the part after the last "::" or '.' that is not inside
 * (), <> or [] ("main.(*server).handleRequest" -> "handleRequest", "caf::actor::enqueue"
 * -> "enqueue", "<Vec<T> as Drop>::drop" -> "drop"), without a trailing parameter list.
 */
static char *last_component(const char *name)
{
	size_t len = strlen(name), start = 0;
	int depth = 0;

	if (len && name[len - 1] == ')') {
		/* drop "(int, char)" of a C++ signature */
		for (size_t i = len; i-- > 0;) {
			depth += name[i] == ')' ? 1 : name[i] == '(' ? -1 : 0;
			if (!depth) {
				if (i)
					len = i;
				break;
			}
		}
		depth = 0;
	}
	for (size_t i = 0; i < len; i++) {
		char c = name[i];

		if (c == '(' || c == '<' || c == '[')
			depth++;
		else if ((c == ')' || c == '>' || c == ']') && depth > 0)
			depth--;
		else if (!depth && c == '.' && i + 1 < len)
			start = i + 1;
		else if (!depth && c == ':' && name[i + 1] == ':' && i + 2 < len)
			start = i + 2, i++;
	}
	return xstrndup(name + start, len - start);
}

/*
 * old_version() - the symbol version of @site's function when that is an old one (a symbol
 * "pthread_kill@GLIBC_2.2.5" -F lists by that name, no current version at its address), or
 * NULL: its event carries the version, as -F's name made an identifier
 * (pthread_kill_GLIBC_2_2_5), so it differs from the current version's (pthread_kill)
 */
static const char *old_version(struct debuginfo *dbg, const struct probe_site *site)
{
	struct symtab *st = debuginfo_symtab(dbg);
	struct sym *s = site->func ? symtab_func_covering(st, site->vaddr) : NULL, *end;
	const char *version = NULL;
	uint64_t addr;
	size_t nr;

	if (!s)
		return NULL;
	addr = s->addr;
	end = symtab_syms(st, &nr) + nr;
	/* the symbols at its address: aliases (__pthread_kill_esrch) may come first */
	for (s = symtab_first_at(st, addr); s && s < end && s->addr == addr; s++) {
		if (!s->func || strcmp(sym_name(s), site->func))
			continue;
		if (s->ver != SYM_VER_OLD || !s->version)
			return NULL;	/* the current version, or unversioned, is here too */
		version = s->version;
	}
	return version;
}

static char *base_event(const struct probe_spec *spec, struct debuginfo *dbg,
			const struct probe_site *site, bool glob_shared)
{
	const char *suffix = site->is_return || site->at_ret_insn ? "__return" : "";
	const char *version;
	char *s, *r;

	if (spec->event)
		return sanitize_ident(spec->event, 63);
	if (spec->place.kind == PLACE_ADDR || !site->func)
		return xasprintf("addr_%" PRIx64, site->vaddr);
	if (glob_shared) {
		s = sanitize_ident(spec->place.func, 63 - strlen(suffix));
	} else {
		char *own = last_component(site->func);

		version = old_version(dbg, site);
		if (version) {
			r = xasprintf("%s_%s", own, version);
			free(own);
			own = r;
		}
		s = sanitize_ident(own, 63 - strlen(suffix));
		free(own);
	}
	if (glob_shared && s[0] == '_' && s[1]) {
		/* "*_order" shares "order", not "_order" */
		r = xstrdup(s + strspn(s, "_"));
		free(s);
		s = r;
	}
	if (!strcmp(s, "_") || !*s) {
		free(s);
		s = xstrdup("probe");
	}
	r = xasprintf("%s%s", s, suffix);
	free(s);
	return r;
}

char *resolve_default_group(const char *binary)
{
	const char *base = strrchr(binary, '/') ? strrchr(binary, '/') + 1 : binary;
	size_t n = 0;

	/*
	 * As perf probe names it (convert_exec_to_group()): the basename up to its first
	 * character that is not a letter, digit or '_': libc.so.6 -> probe_libc, c_O2 ->
	 * probe_c_O2, my-tool.x1 -> probe_my
	 */
	while (base[n] && (isalnum((unsigned char)base[n]) || base[n] == '_') && n < 57)
		n++;
	return xasprintf("probe_%.*s", (int)n, base);
}

static void name_events(const struct probe_spec *spec, const struct resolve_opts *o,
			struct debuginfo *dbg, const struct probe_site *sites,
			struct trace_probe *tps, size_t nr)
{
	char **sigs = xcalloc(nr, sizeof(*sigs));
	bool glob = spec->place.kind == PLACE_FUNC && spec->place.func &&
		    has_glob(spec->place.func);
	bool all_same = true, one_func = true, added;
	struct strmap taken;
	char *group;

	strmap_init(&taken, nr);
	for (size_t i = 0; i < nr; i++) {
		sigs[i] = signature(&tps[i]);
		if (i && strcmp(sigs[i], sigs[0]))
			all_same = false;
		/*
		 * a pattern whose points are all of one function (its copies) is named after the
		 * function, as a plain name is: Rust's "<impl Index<I> for [T; N]>::index" looks
		 * like a glob, and rustc 1.63 (arm64's Debian 12) inlines it once more
		 */
		if (i && (!sites[i].func || !sites[0].func || strcmp(sites[i].func, sites[0].func)))
			one_func = false;
	}
	if (o->group) {
		group = sanitize_ident(o->group, 63);
	} else {
		group = resolve_default_group(debuginfo_basename(dbg));
	}
	for (size_t i = 0; i < nr; i++) {
		char *base = base_event(spec, dbg, &sites[i], glob && all_same && !one_func);
		char *name = NULL;

		/*
		 * a name taken by a site with other fields gets _1, _2 ...; the sites of one name
		 * all have the same fields, so the table keeps the first site of each name
		 */
		for (int k = 0; !name; k++) {
			char *cand = k ? xasprintf("%.*s_%d", 58, base, k) : xstrdup(base);
			size_t *first = strmap_add(&taken, cand, i, &added);

			if (!added && strcmp(sigs[*first], sigs[i]))
				free(cand);
			else
				name = cand;
		}
		tps[i].event = name;
		tps[i].group = xstrdup(group);
		free(base);
	}
	for (size_t i = 0; i < nr; i++)
		free(sigs[i]);
	free(sigs);
	free(group);
	strmap_release(&taken);
}

/*
 * Points of one event at one place (a function whose first instruction is where another's
 * inlined copy starts, or two copies nested there, once placement moved them together: 13
 * of docker's 84,895 points for '*') are one uprobe to the kernel, which rejects the second
 * ("exact same probe event"), and to the decoder, which tells the points of an event apart
 * by their address: the first one stays, or the function's own entry before a copy.
 * Return: how many are left, in their order.
 */
static size_t drop_same_place(struct trace_probe *tps, size_t nr)
{
	struct strbuf key = STRBUF_INIT;
	struct strmap seen;
	bool *drop = xcalloc(nr ? nr : 1, sizeof(*drop)), added;
	size_t n = 0;

	strmap_init(&seen, nr);
	for (size_t i = 0; i < nr; i++) {
		size_t *k;

		strbuf_reset(&key);
		strbuf_addf(&key, "%s/%s %" PRIx64 "%s", tps[i].group, tps[i].event,
			    tps[i].offset, tps[i].is_return ? "r" : "");
		k = strmap_add(&seen, key.buf, i, &added);
		if (added)
			continue;
		if (tps[*k].call == CALL_NONE && tps[i].call != CALL_NONE) {
			drop[*k] = true;
			*k = i;
		} else {
			drop[i] = true;
		}
	}
	for (size_t i = 0; i < nr; i++) {
		if (drop[i]) {
			pr_info("%s: at 0x%" PRIx64 " as another point of %s: left out",
				tps[i].func ? tps[i].func : "?", tps[i].vaddr, tps[i].event);
			trace_probe_release(&tps[i]);
			continue;
		}
		if (n != i)
			tps[n] = tps[i];
		n++;
	}
	/* the caller frees every place it had (resolve_probe()'s err:) */
	if (n < nr)
		memset(&tps[n], 0, (nr - n) * sizeof(*tps));
	strmap_release(&seen);
	strbuf_release(&key);
	free(drop);
	return n;
}

/* diag_take() - @from's error (the first failure of several sites) as @d's */
static void diag_take(struct diag *d, const struct diag *from)
{
	d->span = from->span;
	diag_error(d, from->span, "%s", from->msg ? from->msg : "no probe site");
	if (from->hints.len)
		diag_hint(d, "%s", from->hints.buf);
}

int resolve_probe(const struct probe_spec *spec, struct debuginfo *dbg,
		  const struct resolve_opts *o, struct trace_probe **tps, size_t *nr,
		  struct strlist *skipped, struct diag *d)
{
	struct probe_site *sites = NULL;
	struct trace_probe *out;
	size_t nsites = 0, n = 0;
	bool glob = spec->place.kind == PLACE_FUNC && spec->place.func &&
		    has_glob(spec->place.func);
	struct diag first;
	int ret;

	*tps = NULL;
	*nr = 0;
	if (spec->place.kind == PLACE_SDT)
		return sdt_resolve(spec, dbg, o->group, &o->kf, tps, nr, d);
	ret = place_resolve(&spec->place, dbg, &sites, &nsites, skipped, d);
	if (ret)
		return ret;
	out = xcalloc(nsites ? nsites : 1, sizeof(*out));
	diag_init(&first, d->input);
	for (size_t i = 0; i < nsites; i++) {
		struct diag one;
		struct probe_site *s = &sites[i];
		/* an inlined copy of a function that has other copies */
		bool copy = nsites > 1 && s->has_die &&
			    dwarf_tag(&s->die) == DW_TAG_inlined_subroutine;

		diag_init(&one, d->input);
		ret = resolve_site(spec, dbg, o, s, &out[n],
				   glob || copy || diag_has_error(&first) ? &one : d);
		if (ret && !glob && !copy) {
			/* the first reason, also when copies before it were skipped */
			if (diag_has_error(&first))
				diag_take(d, &first);
			diag_release(&one);
			goto err;
		}
		if (ret) {
			/*
			 * a glob skips the functions where an argument does not exist, a function
			 * the inlined copies where it cannot be read (optimized out there, or
			 * computed from two registers: Redis's lookupKeyReadWithFlags in
			 * existsCommand); when none is left, the first reason is the error
			 */
			if (copy && skipped)
				strlist_add(skipped, one.msg ? one.msg : "?");
			pr_info("%s: %s", s->func ? s->func : "?", one.msg ? one.msg : "?");
			if (!diag_has_error(&first)) {
				diag_release(&first);
				first = one;
			} else {
				diag_release(&one);
			}
			trace_probe_release(&out[n]);
			memset(&out[n], 0, sizeof(out[n]));
			continue;
		}
		diag_release(&one);
		n++;
	}
	if (!n) {
		/* every match failed: the first reason */
		diag_take(d, &first);
		ret = -EINVAL;
		goto err;
	}
	{
		/* name_events works on the sites that resolved, in order */
		struct probe_site *ok = xcalloc(n, sizeof(*ok));
		size_t k = 0;

		for (size_t i = 0; i < nsites && k < n; i++) {
			if (out[k].vaddr == sites[i].vaddr &&
			    out[k].is_return == sites[i].is_return)
				ok[k++] = sites[i];
		}
		place_share_flags_field(out, n);
		name_events(spec, o, dbg, ok, out, n);
		free(ok);
		n = drop_same_place(out, n);
	}
	for (size_t i = 0; i < n; i++) {
		ret = fallback_fields(&out[i], &o->kf, d);
		if (!ret)
			ret = fetcharg_check_limits(&out[i], &o->kf, d);
		if (ret)
			goto err;
	}
	diag_release(&first);
	probe_sites_free(sites, nsites);
	*tps = out;
	*nr = n;
	return 0;
err:
	diag_release(&first);
	trace_probes_free(out, nsites);
	probe_sites_free(sites, nsites);
	return ret ? ret : -EINVAL;
}

void trace_probes_free(struct trace_probe *tps, size_t nr)
{
	if (!tps)
		return;
	for (size_t i = 0; i < nr; i++)
		trace_probe_release(&tps[i]);
	free(tps);
}

/*
 * Each probe in order keeps its name unless a probe before it of another spec has it; then
 * every probe of its spec with that name takes the first "NAME_k" (k = 1, 2 ...) no probe
 * has. A name once taken stays taken and names before a probe are final, so a table of the
 * names, of which spec owns each, of the renames done and of the next k to try per name
 * does it in one pass (1,600 probes of one name took 10.8 s with the pairwise scans).
 */
void resolve_uniq_events(struct trace_probe *tps, size_t nr, const size_t *spec_of)
{
	struct strmap used, owner, renamed, next;
	bool added;

	strmap_init(&used, nr);
	strmap_init(&owner, nr);
	strmap_init(&renamed, 0);
	strmap_init(&next, 0);
	for (size_t i = 0; i < nr; i++) {
		char *key = xasprintf("%s/%s", tps[i].group, tps[i].event);

		strmap_add(&used, key, 0, &added);
		free(key);
	}
	for (size_t i = 0; i < nr; i++) {
		char *key = xasprintf("%s/%s", tps[i].group, tps[i].event);
		char *mine = xasprintf("%zu/%s", spec_of[i], key);
		size_t *v = strmap_find(&renamed, mine), *k;
		char *cand = NULL, *ckey = NULL;

		if (v) {
			/* an earlier probe of this spec with this name was renamed: alike */
			free(tps[i].event);
			tps[i].event = xstrdup(tps[*v].event);
		} else if (*(v = strmap_add(&owner, key, spec_of[i], &added)) != spec_of[i]) {
			k = strmap_add(&next, key, 1, &added);
			for (;; ++*k) {
				cand = xasprintf("%.*s_%zu", 58, tps[i].event, *k);
				ckey = xasprintf("%s/%s", tps[i].group, cand);
				if (!strmap_find(&used, ckey))
					break;
				free(cand);
				free(ckey);
			}
			++*k;
			strmap_add(&used, ckey, 0, &added);
			strmap_add(&owner, ckey, spec_of[i], &added);
			strmap_add(&renamed, mine, i, &added);
			free(tps[i].event);
			tps[i].event = cand;
			free(ckey);
		}
		free(mine);
		free(key);
	}
	strmap_release(&used);
	strmap_release(&owner);
	strmap_release(&renamed);
	strmap_release(&next);
}
