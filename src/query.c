// SPDX-License-Identifier: GPL-2.0-or-later
/* query.c - names the resolver knows at a place, as arrays (variables, fields) and as -V text */
#define LOG_DOMAIN "query"
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "parse.h"
#include "query.h"
#include "resolve-internal.h"
#include "sdt.h"

/* ---- variables ---- */

struct var_list {
	struct query_var *v;
	size_t nr;
	size_t alloc;
};

/* Whether @var can be read at the site: its location at the pc, as the resolver reads it. */
static enum query_state var_state(struct rctx *rc, Dwarf_Die *var)
{
	struct strbuf err = STRBUF_INIT;
	struct loc l = { 0 };
	enum query_state st = QUERY_READABLE;

	if (lang_go_is_result(var) && rc->site->at_ret_insn)
		return QUERY_READABLE;	/* read from the ABI's result registers */
	strbuf_init(&err);
	if (loc_from_die(var, &rc->lc, &l, &err))
		st = QUERY_UNREADABLE;
	else if (l.nr == 1 && l.pieces[0].kind == LOC_NONE)
		st = QUERY_OPTIMIZED_OUT;
	else if (l.nr == 1 && l.pieces[0].kind == LOC_BAD)
		st = QUERY_UNREADABLE;
	loc_release(&l);
	strbuf_release(&err);
	return st;
}

static enum visit var_add(struct rctx *rc, Dwarf_Die *scope, Dwarf_Die *var, const char *name,
			  void *arg)
{
	struct var_list *vl = arg;
	struct query_var *qv;
	Dwarf_Die t;
	bool has_t;

	/* a Go result has a value only at a return instruction */
	if (lang_go_is_result(var) && !rc->site->at_ret_insn)
		return VISIT_TAKE;
	has_t = lang_type_of(var, &t);
	/* "&x" (Go, moved to the heap) is listed as x, of the type pointed to */
	if (has_t && lang_go_heap_name(dwarf_diename(var)) && rc->lang == &lang_go &&
	    lang_strip(&t, &t) == DW_TAG_pointer_type)
		has_t = lang_type_of(&t, &t);
	ALLOC_GROW(vl->v, vl->nr + 1, vl->alloc);
	qv = &vl->v[vl->nr++];
	qv->name = xstrdup(name);
	qv->type = rctx_type_name(rc, &t, has_t);
	qv->state = var_state(rc, var);
	return VISIT_TAKE;
}

/* An SDT probe's arguments as its note gives them: "$arg1".. typed "s32" (sdt.h). */
static int sdt_vars(const struct probe_spec *spec, struct debuginfo *dbg,
		    struct query_site **out, size_t *nr, struct diag *d)
{
	struct sdt_probe *ps;
	struct query_site *qs;
	size_t n;
	int ret = sdt_find(spec, dbg, &ps, &n, d);

	if (ret)
		return ret;
	qs = xcalloc(n, sizeof(*qs));
	for (size_t i = 0; i < n; i++) {
		qs[i].label = xasprintf("sdt_%s:%s", ps[i].provider, ps[i].name);
		qs[i].func = xstrdup(qs[i].label);
		qs[i].has_dwarf = true;	/* the note describes the arguments */
		qs[i].vars = xcalloc(ps[i].nr_args + 1, sizeof(*qs[i].vars));
		qs[i].nr = ps[i].nr_args;
		for (size_t k = 0; k < ps[i].nr_args; k++) {
			qs[i].vars[k].name = xasprintf("$arg%zu", k + 1);
			qs[i].vars[k].type = xstrdup(sdt_arg_type(&ps[i].args[k]));
			qs[i].vars[k].state = ps[i].args[k].kind == SDT_ARG_BAD ?
					      QUERY_UNREADABLE : QUERY_READABLE;
		}
	}
	sdt_probes_free(ps, n);
	*out = qs;
	*nr = n;
	return 0;
}

int query_vars(const struct probe_spec *spec, struct debuginfo *dbg,
	       const struct resolve_opts *o, struct query_site **out, size_t *nr,
	       struct diag *d)
{
	struct probe_site *sites = NULL;
	struct query_site *qs;
	size_t nsites = 0;
	int ret;

	*out = NULL;
	*nr = 0;
	if (spec->place.kind == PLACE_SDT)
		return sdt_vars(spec, dbg, out, nr, d);
	ret = place_resolve(&spec->place, dbg, &sites, &nsites, NULL, d);
	if (ret)
		return ret;
	qs = xcalloc(nsites ? nsites : 1, sizeof(*qs));
	for (size_t i = 0; i < nsites; i++) {
		struct var_list vl = { NULL, 0, 0 };
		struct rctx rc;

		rctx_init(&rc, spec, dbg, o, &sites[i], d);
		qs[i].label = xstrdup(rc.where);
		qs[i].func = sites[i].func ? xstrdup(sites[i].func) : NULL;
		qs[i].has_dwarf = rc.has_cu;
		if (rc.has_cu)
			rctx_locals_visit(&rc, var_add, &vl);
		qs[i].vars = vl.v;
		qs[i].nr = vl.nr;
		rctx_release(&rc);
	}
	probe_sites_free(sites, nsites);
	*out = qs;
	*nr = nsites;
	return 0;
}

void query_sites_free(struct query_site *s, size_t nr)
{
	if (!s)
		return;
	for (size_t i = 0; i < nr; i++) {
		for (size_t k = 0; k < s[i].nr; k++) {
			free(s[i].vars[k].name);
			free(s[i].vars[k].type);
		}
		free(s[i].vars);
		free(s[i].label);
		free(s[i].func);
	}
	free(s);
}

/* -V: perf's layout, from query_vars()' arrays */
int resolve_list_vars(const struct probe_spec *spec, struct debuginfo *dbg,
		      const struct resolve_opts *o, struct strbuf *out, struct diag *d)
{
	static const char *const note[] = {
		[QUERY_READABLE] = "",
		[QUERY_OPTIMIZED_OUT] = "\t(optimized out here)",
		[QUERY_UNREADABLE] = "\t(unreadable here)",
	};
	struct query_site *qs;
	size_t nr;
	int ret;

	if (spec->place.kind == PLACE_SDT)
		return sdt_list_vars(spec, dbg, out, d);	/* with the notes' locations */
	ret = query_vars(spec, dbg, o, &qs, &nr, d);
	if (ret)
		return ret;
	/* names and types come from the binary: escape_name() keeps each on its line */
	for (size_t i = 0; i < nr; i++) {
		strbuf_addstr(out, "Available variables at ");
		escape_name(out, qs[i].func ? qs[i].func : qs[i].label);
		strbuf_addstr(out, "\n        @<");
		escape_name(out, qs[i].label);
		strbuf_addstr(out, ">\n");
		if (!qs[i].has_dwarf)
			strbuf_addstr(out, "\t\t(no debug information here)\n");
		for (size_t k = 0; k < qs[i].nr; k++) {
			strbuf_addstr(out, "\t\t");
			escape_name(out, qs[i].vars[k].type);
			strbuf_addch(out, '\t');
			escape_name(out, qs[i].vars[k].name);
			strbuf_addf(out, "%s\n", note[qs[i].vars[k].state]);
		}
	}
	query_sites_free(qs, nr);
	return 0;
}

/* ---- fields ---- */

/* Append the names of @names not yet in @out. */
static void add_new_names(struct strlist *out, const struct strlist *names)
{
	for (size_t i = 0; i < names->nr; i++) {
		bool seen = false;

		for (size_t k = 0; k < out->nr && !seen; k++)
			seen = !strcmp(out->v[k], names->v[i]);
		if (!seen)
			strlist_add(out, names->v[i]);
	}
}

/* The fields of @e at one site into @out; 0, or a negative errno with @d filled. */
static int site_fields(const struct probe_spec *spec, const struct expr *e,
		       struct debuginfo *dbg, const struct resolve_opts *o,
		       const struct probe_site *site, struct strlist *out, struct diag *d)
{
	struct rctx rc;
	struct val v;
	Dwarf_Die t;
	int tag = 0, ret;

	rctx_init(&rc, spec, dbg, o, site, d);
	rc.types_only = true;
	ret = val_eval(&rc, e, &v);
	if (!ret)
		ret = val_follow_pointers(&rc, &v, e->span, &tag, &t);
	if (!ret && tag_is_struct(tag))
		ret = rctx_declared_only(&rc, &t, "cannot list the fields", e->span);
	if (!ret && tag_is_struct(tag)) {
		struct strlist names = STRLIST_INIT;

		lang_member_names(&t, &names);
		add_new_names(out, &names);
		strlist_release(&names);
	}
	val_release(&v);
	rctx_release(&rc);
	return ret;
}

int query_fields(const struct probe_spec *spec, const char *expr, struct debuginfo *dbg,
		 const struct resolve_opts *o, struct strlist *out, struct diag *d)
{
	struct probe_site *sites = NULL;
	struct probe_spec q;
	struct diag first;
	size_t nsites = 0, ok = 0;
	char *text;
	int ret;

	/* the expression parsed as a probe at the same place takes it ("PLACE EXPR") */
	memset(&q, 0, sizeof(q));
	text = xasprintf("%.*s %s", spec->place.span.len, spec->text + spec->place.span.start,
			 expr ? expr : "");
	diag_init(&first, text);
	ret = parse_probe(text, &q, &first);
	if (!ret && (q.nr_args != 1 || q.args[0].name || q.args[0].type))
		ret = diag_error(&first, SPAN_NONE, "'%s' is not one expression", expr);
	if (!ret)
		ret = place_resolve(&q.place, dbg, &sites, &nsites, NULL, &first);
	for (size_t i = 0; !ret && i < nsites; i++) {
		struct diag one;

		diag_init(&one, text);
		if (site_fields(&q, q.args[0].expr, dbg, o, &sites[i], out, &one) == 0) {
			ok++;
			diag_release(&one);
		} else if (!diag_has_error(&first)) {
			diag_release(&first);
			first = one;	/* the first site's reason */
		} else {
			diag_release(&one);
		}
	}
	if (!ret && !ok)
		ret = -ENOENT;
	if (ret) {
		/* the spans index the text made here, not the caller's input */
		diag_error(d, SPAN_NONE, "%s", first.msg ? first.msg : "no probe site");
		if (first.hints.len)
			diag_hint(d, "%s", first.hints.buf);
	}
	probe_sites_free(sites, nsites);
	probe_spec_release(&q);
	diag_release(&first);
	free(text);
	return ret;
}
