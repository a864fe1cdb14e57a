// SPDX-License-Identifier: GPL-2.0-or-later
/* tui-prompt.c - the curses view's prompt: status messages, adding and removing probes, Tab */
#define LOG_DOMAIN "tui"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "funcs.h"
#include "log.h"
#include "parse.h"
#include "query.h"
#include "sdt.h"
#include "session.h"
#include "tui-internal.h"

void tui_set_status(struct tui *t, bool err, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(&t->status);
	va_start(ap, fmt);
	strbuf_vaddf(&t->status, fmt, ap);
	va_end(ap);
	t->status_err = err;
	t->status_until = now_ns() + STATUS_NS * (err ? 2 : 1);
	t->dirty = true;
}

/* status_diag() - a diag's one line (a failed add, remove, completion) in the status line */
static void status_diag(struct tui *t, const struct diag *d)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_init(&sb);
	diag_format(d, &sb);
	tui_set_status(t, true, "%s", sb.buf);
	strbuf_release(&sb);
}

void tui_cands_clear(struct tui *t)
{
	strlist_release(&t->cands);
}

static void list_add_unique(struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->v[i], s))
			return;
	strlist_add(l, s);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * the binary's function names, once, as -F lists them: symbols, old versions as NAME@VERSION,
 * inlined-only functions, SDT probes
 */
static void load_funcs(struct tui *t)
{
	const struct render_opts *o = &t->r->opts;
	struct diag d;

	t->funcs_loaded = true;
	if (!o || !o->dbg)
		return;
	diag_init(&d, NULL);
	if (funcs_list(o->dbg, NULL, &t->funcs, &d) < 0)
		status_diag(t, &d);
	else
		funcs_list_inlined(o->dbg, NULL, &t->funcs);	/* as -F lists them, unmarked */
	sdt_list(o->dbg, NULL, &t->funcs);			/* sdt_PROVIDER:NAME */
	diag_release(&d);
	if (t->funcs.nr > 1)
		qsort(t->funcs.v, t->funcs.nr, sizeof(*t->funcs.v), cmp_names);
}

/* the variables that can be read at @place (the probe text's first word), cached per place */
static void load_vars(struct tui *t, const char *place)
{
	const struct render_opts *o = &t->r->opts;
	struct query_site *qs = NULL;
	struct probe_spec spec;
	size_t nr = 0;
	struct diag d;

	if (t->vars_place && !strcmp(t->vars_place, place))
		return;
	free(t->vars_place);
	strlist_release(&t->vars);
	t->vars_place = xstrdup(place);
	t->vars_return = false;
	if (!o || !o->dbg || !o->ropts)
		return;
	memset(&spec, 0, sizeof(spec));
	diag_init(&d, place);
	if (parse_probe(place, &spec, &d) == 0) {
		t->vars_return = spec.place.is_return;
		if (query_vars(&spec, o->dbg, o->ropts, &qs, &nr, &d) == 0)
			for (size_t i = 0; i < nr; i++)
				for (size_t k = 0; k < qs[i].nr; k++)
					if (qs[i].vars[k].state == QUERY_READABLE)
						list_add_unique(&t->vars, qs[i].vars[k].name);
	}
	query_sites_free(qs, nr);
	probe_spec_release(&spec);
	diag_release(&d);
}

/* the fields of expression @base's type at @place; 0, or -errno with @d filled */
static int load_fields(struct tui *t, const char *place, const char *base, struct strlist *out,
		       struct diag *d)
{
	const struct render_opts *o = &t->r->opts;
	struct probe_spec spec;
	int err;

	if (!o || !o->dbg || !o->ropts)
		return 0;
	memset(&spec, 0, sizeof(spec));
	err = parse_probe(place, &spec, d);
	if (!err)
		err = query_fields(&spec, base, o->dbg, o->ropts, out, d);
	probe_spec_release(&spec);
	return err;
}

/*
 * arg_names() - the names an argument word of the probe text can take: after "EXPR." or
 * "EXPR->", the fields of EXPR's type; else the variables at the place and the special
 * arguments valid there ($retval only at a %return place)
 * @t: the view
 * @wstart: where the word starts in t->line
 * @pstart: set to where the partial name starts (after "NAME=", ".", "->")
 * @out: the names
 * Return: 0, or -1 when EXPR has no fields to offer (the status line says why).
 */
static int arg_names(struct tui *t, size_t wstart, size_t *pstart, struct strlist *out)
{
	const char *line = t->line.buf, *end = line + t->line.len;
	const char *eq = memchr(line + wstart, '=', t->line.len - wstart);
	const char *w, *sep = NULL;
	char *place = xstrndup(line, strcspn(line, " "));
	int ret = 0;

	*pstart = eq ? (size_t)(eq - line) + 1 : wstart;
	w = line + *pstart;
	for (const char *q = w; q < end; q++) {
		if (*q == '.')
			sep = q;
		else if (*q == '-' && q[1] == '>')
			sep = q + 1;
	}
	if (sep) {
		char *base = xstrndup(w, (*sep == '>' ? sep - 1 : sep) - w);
		struct diag d;

		diag_init(&d, base);
		ret = -1;
		if (load_fields(t, place, base, out, &d) < 0)
			status_diag(t, &d);
		else if (!out->nr)
			tui_set_status(t, true, "%s has no fields", base);
		else
			ret = 0;
		*pstart = sep + 1 - line;
		diag_release(&d);
		free(base);
	} else {
		load_vars(t, place);
		for (size_t i = 0; i < t->vars.nr; i++)
			strlist_add(out, t->vars.v[i]);
		strlist_add(out, "$params");
		strlist_add(out, "$vars");
		if (t->vars_return)
			strlist_add(out, "$retval");
	}
	free(place);
	return ret;
}

/*
 * complete_from() - complete the partial name at t->line[@pstart...] from @pool: the longest
 * common prefix of the matches; several matches go to t->cands
 * @first: the place's function name: a unique match is followed by a blank, and a name
 *	   that is no prefix matches inside ("handleRequest": "main.(*server).handleRequest")
 */
static void complete_from(struct tui *t, char *const *pool, size_t nr_pool, size_t pstart,
			  bool first)
{
	const char *partial = t->line.buf + pstart;
	size_t keep = t->line.len - pstart, nr = 0, common;
	const char **match = xmalloc((nr_pool + 1) * sizeof(*match));

	for (size_t i = 0; i < nr_pool; i++)
		if (!strncmp(pool[i], partial, keep))
			match[nr++] = pool[i];
	if (!nr && first && keep)
		for (size_t i = 0; i < nr_pool; i++)
			if (strstr(pool[i], partial))
				match[nr++] = pool[i];
	if (nr == 0) {
		tui_set_status(t, true, "no completion for '%.*s'", (int)keep, partial);
		free(match);
		return;
	}
	common = strlen(match[0]);
	for (size_t i = 1; i < nr; i++) {
		size_t k = 0;

		while (k < common && match[i][k] == match[0][k])
			k++;
		common = k;
	}
	/* matches inside names may share less than what was typed: keep the typed text */
	if (nr == 1 || common >= keep) {
		t->line.len = pstart;
		t->line.buf[pstart] = '\0';
		strbuf_add(&t->line, match[0], common);
	}
	if (nr == 1) {
		if (first)
			strbuf_addch(&t->line, ' ');
	} else {
		for (size_t i = 0; i < nr && i < 200; i++)
			strlist_add(&t->cands, match[i]);
		tui_set_status(t, false, "%zu matches", nr);
	}
	free(match);
}

void tui_complete(struct tui *t)
{
	struct strlist names = STRLIST_INIT;
	size_t wstart = t->line.len, pstart;
	const char *line = t->line.buf;

	tui_cands_clear(t);
	while (wstart && line[wstart - 1] != ' ')
		wstart--;
	if (wstart == 0) {
		const char *eq = memchr(line, '=', t->line.len);

		/* [EVENT=]FUNC */
		if (!t->funcs_loaded)
			load_funcs(t);
		pstart = eq ? (size_t)(eq - line) + 1 : 0;
		complete_from(t, t->funcs.v, t->funcs.nr, pstart, true);
		return;
	}
	if (arg_names(t, wstart, &pstart, &names) == 0)
		complete_from(t, names.v, names.nr, pstart, false);
	strlist_release(&names);
}

void tui_prompt_add(struct tui *t)
{
	struct diag d;
	size_t before = t->ctl->nr_events(t->ctl->s);
	char *text = xstrdup(t->line.buf ? t->line.buf : "");

	/* blanks around the probe are not part of it */
	for (size_t n = strlen(text); n && text[n - 1] == ' '; n--)
		text[n - 1] = '\0';
	if (!*text) {
		free(text);
		return;
	}
	diag_init(&d, text);
	if (t->ctl->add_probe_text(t->ctl->s, text, &d) < 0) {
		status_diag(t, &d);
	} else {
		struct strbuf names = STRBUF_INIT;

		strbuf_init(&names);
		for (size_t i = before; i < t->ctl->nr_events(t->ctl->s); i++) {
			const struct session_event *e = t->ctl->event(t->ctl->s, i);

			if (e && !e->removed)
				strbuf_addf(&names, "%s%s", names.len ? ", " : "", e->name);
		}
		tui_set_status(t, false, "added %s", names.len ? names.buf : text);
		strbuf_release(&names);
	}
	diag_release(&d);
	free(text);
}

void tui_remove_probe(struct tui *t, const char *name)
{
	struct diag d;

	diag_init(&d, NULL);
	if (t->ctl->remove_event(t->ctl->s, name, &d) < 0) {
		status_diag(t, &d);
	} else {
		const char *n = strchr(name, ':') ? strchr(name, ':') + 1 : name;
		struct schema *sc = tui_schema_find(t, n, false, NULL);

		/* its kept events stay; a new probe of that name starts fresh */
		if (sc)
			sc->retired = true;
		if (t->own_agg)
			agg_retire(t->agg, n);
		tui_set_status(t, false, "removed %s", name);
	}
	diag_release(&d);
}

/* the name ctl->remove_event() wants for schema @sc */
char *tui_event_ref(struct tui *t, const char *name)
{
	for (size_t i = 0; i < t->ctl->nr_events(t->ctl->s); i++) {
		const struct session_event *e = t->ctl->event(t->ctl->s, i);

		if (e && !e->removed && !strcmp(e->name, name))
			return e->generic ? xasprintf("%s:%s", e->sys, e->name) : xstrdup(name);
	}
	return NULL;
}

void tui_prompt_release(struct tui *t)
{
	strlist_release(&t->funcs);
	strlist_release(&t->cands);
	strlist_release(&t->vars);
	free(t->vars_place);
	t->vars_place = NULL;
}
