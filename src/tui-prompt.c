// SPDX-License-Identifier: GPL-2.0-or-later
/* tui-prompt.c - the curses view's prompt: status messages, adding and removing probes, Tab */
#define LOG_DOMAIN "tui"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfo.h"
#include "log.h"
#include "parse.h"
#include "resolve.h"
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
	t->status_until = tui_now_ns() + STATUS_NS * (err ? 2 : 1);
	t->dirty = true;
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void tui_cands_clear(struct tui *t)
{
	free_list(t->cands, t->nr_cands);
	t->cands = NULL;
	t->nr_cands = 0;
}

static void list_add(char ***v, size_t *n, const char *s, size_t len)
{
	for (size_t i = 0; i < *n; i++)
		if (strlen((*v)[i]) == len && !memcmp((*v)[i], s, len))
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrndup(s, len);
}

static void load_funcs(struct tui *t)
{
	const struct trace_opts *o = session_opts(t->s);
	struct strbuf sb = STRBUF_INIT;
	struct diag d;
	size_t alloc = 0;

	t->funcs_loaded = true;
	if (!o || !o->dbg)
		return;
	diag_init(&d, NULL);
	strbuf_init(&sb);
	if (debuginfo_list_functions(o->dbg, NULL, &sb, &d) == 0) {
		for (char *p = sb.buf, *nl; p && *p; p = nl + 1) {
			nl = strchr(p, '\n');
			if (!nl)
				nl = p + strlen(p);
			if (nl > p) {
				ALLOC_GROW(t->funcs, t->nr_funcs + 1, alloc);
				t->funcs[t->nr_funcs++] = xstrndup(p, nl - p);
			}
			if (!*nl)
				break;
		}
	}
	strbuf_release(&sb);
	diag_release(&d);
}

/* names from "fields: a, b, c" / "variables: a, b" in a diag's hints */
static void hint_names(const char *hints, const char *key, char ***v, size_t *n)
{
	const char *p = hints ? strstr(hints, key) : NULL;

	if (!p)
		return;
	p += strlen(key);
	while (*p && *p != ';') {
		size_t len = strcspn(p, ",;");
		const char *e = p + len;

		while (len && p[len - 1] == ' ')
			len--;
		if (len)
			list_add(v, n, p, len);
		p = e;
		if (*p == ',')
			p++;
		while (*p == ' ')
			p++;
	}
}

/* variables at the place of the probe text's first word (cached per place) */
static void load_vars(struct tui *t, const char *place)
{
	const struct trace_opts *o = session_opts(t->s);
	struct probe_spec spec;
	struct strbuf out = STRBUF_INIT;
	struct diag d;

	if (t->vars_func && !strcmp(t->vars_func, place))
		return;
	free(t->vars_func);
	free_list(t->vars, t->nr_vars);
	t->vars = NULL;
	t->nr_vars = 0;
	t->vars_func = xstrdup(place);
	if (!o || !o->dbg || !o->ropts)
		return;
	memset(&spec, 0, sizeof(spec));
	diag_init(&d, place);
	strbuf_init(&out);
	if (parse_probe(place, &spec, &d) == 0 &&
	    resolve_list_vars(&spec, o->dbg, o->ropts, &out, &d) == 0) {
		for (char *p = out.buf; *p;) {
			char *nl = strchrnul(p, '\n');

			if (p[0] == '\t' && p[1] == '\t') {
				char *name = p;

				for (char *q = p; q < nl; q++)
					if (*q == '\t')
						name = q + 1;
				if (name > p + 2)
					list_add(&t->vars, &t->nr_vars, name, strcspn(name, " \n"));
			}
			p = *nl ? nl + 1 : nl;
		}
	}
	probe_spec_release(&spec);
	strbuf_release(&out);
	diag_release(&d);
}

/* fields of expression @base at @place: ask the resolver for a field that is not there */
static void load_fields(struct tui *t, const char *place, const char *base)
{
	const struct trace_opts *o = session_opts(t->s);
	struct probe_spec spec;
	struct trace_probe *tps = NULL;
	size_t nr = 0;
	char *text;
	struct diag d;

	if (!o || !o->dbg || !o->ropts)
		return;
	text = xasprintf("%s %s.__upfront_complete__", place, base);
	memset(&spec, 0, sizeof(spec));
	diag_init(&d, text);
	if (parse_probe(text, &spec, &d) == 0 &&
	    resolve_probe(&spec, o->dbg, o->ropts, &tps, &nr, &d) == 0)
		trace_probes_free(tps, nr);
	else
		hint_names(d.hints.buf, "fields: ", &t->cands, &t->nr_cands);
	probe_spec_release(&spec);
	diag_release(&d);
	free(text);
}

/* Tab in the add prompt: complete the word under the cursor (the end of the line). */
void tui_complete(struct tui *t)
{
	char *line = t->line.buf ? t->line.buf : "";
	size_t len = t->line.len, wstart = len, pstart;
	char **pool;
	size_t nr_pool, nr = 0, common = 0, keep;
	const char *partial;
	char *place = NULL, *base = NULL;
	bool first;
	const char **match = NULL;

	while (wstart && line[wstart - 1] != ' ')
		wstart--;
	first = !memchr(line, ' ', wstart ? wstart - 1 : 0) && wstart == 0;
	tui_cands_clear(t);
	pstart = wstart;
	if (first) {
		if (!t->funcs_loaded)
			load_funcs(t);
		if (memchr(line, '=', len))
			pstart = (char *)memchr(line, '=', len) - line + 1;
		pool = t->funcs;
		nr_pool = t->nr_funcs;
	} else {
		const char *eq = memchr(line + wstart, '=', len - wstart);
		size_t plen = strcspn(line, " ");
		const char *w, *sep = NULL;

		place = xstrndup(line, plen);
		if (eq)
			pstart = eq - line + 1;
		w = line + pstart;
		for (const char *q = w; q < line + len; q++) {
			if (*q == '.')
				sep = q;
			else if (*q == '-' && q[1] == '>')
				sep = q + 1;
		}
		if (sep) {
			/* EXPR.partial or EXPR->partial: fields of EXPR */
			size_t blen = (*sep == '>' ? sep - 1 : sep) - w;

			base = xstrndup(w, blen);
			load_fields(t, place, base);
			pstart = sep + 1 - line;
			pool = t->cands;
			nr_pool = t->nr_cands;
			t->cands = NULL;
			t->nr_cands = 0;
		} else {
			load_vars(t, place);
			nr_pool = t->nr_vars + 3;
			pool = xmalloc(nr_pool * sizeof(*pool));
			for (size_t i = 0; i < t->nr_vars; i++)
				pool[i] = xstrdup(t->vars[i]);
			pool[t->nr_vars] = xstrdup("$params");
			pool[t->nr_vars + 1] = xstrdup("$vars");
			pool[t->nr_vars + 2] = xstrdup("$retval");
		}
	}
	partial = line + pstart;
	keep = len - pstart;
	match = xmalloc((nr_pool + 1) * sizeof(*match));
	for (size_t i = 0; i < nr_pool; i++)
		if (!strncmp(pool[i], partial, keep))
			match[nr++] = pool[i];
	if (!nr && first && keep) {
		/* Go and C++ names: "handleRequest" completes "main.(*server).handleRequest" */
		for (size_t i = 0; i < nr_pool; i++)
			if (strstr(pool[i], partial))
				match[nr++] = pool[i];
		if (nr == 1)
			keep = 0;
	}
	if (nr == 0) {
		tui_set_status(t, true, "no completion for '%.*s'", (int)(len - pstart), partial);
	} else {
		char *add;

		common = strlen(match[0]);
		for (size_t i = 1; i < nr; i++) {
			size_t k = 0;

			while (k < common && match[i][k] == match[0][k])
				k++;
			common = k;
		}
		add = xstrndup(match[0], common);
		t->line.len = pstart;
		t->line.buf[pstart] = '\0';
		strbuf_addstr(&t->line, add);
		free(add);
		if (nr == 1) {
			if (first)
				strbuf_addch(&t->line, ' ');
		} else {
			for (size_t i = 0; i < nr && i < 200; i++)
				list_add(&t->cands, &t->nr_cands, match[i], strlen(match[i]));
			tui_set_status(t, false, "%zu matches", nr);
		}
	}
	free(match);
	if (!first)
		free_list(pool, nr_pool);
	free(place);
	free(base);
}

/* status_diag() - a failed add/remove's one-line error in the status line */
static void status_diag(struct tui *t, const struct diag *d)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_init(&sb);
	diag_format(d, &sb);
	tui_set_status(t, true, "%s", sb.buf);
	strbuf_release(&sb);
}

void tui_prompt_add(struct tui *t)
{
	struct diag d;
	size_t before = session_nr_events(t->s);
	char *text = xstrdup(t->line.buf ? t->line.buf : "");

	/* blanks around the probe are not part of it */
	for (size_t n = strlen(text); n && text[n - 1] == ' '; n--)
		text[n - 1] = '\0';
	if (!*text) {
		free(text);
		return;
	}
	diag_init(&d, text);
	if (session_add_probe_text(t->s, text, &d) < 0) {
		status_diag(t, &d);
	} else {
		struct strbuf names = STRBUF_INIT;

		strbuf_init(&names);
		for (size_t i = before; i < session_nr_events(t->s); i++) {
			const struct session_event *e = session_event(t->s, i);

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
	if (session_remove_event(t->s, name, &d) < 0) {
		status_diag(t, &d);
	} else {
		const char *n = strchr(name, ':') ? strchr(name, ':') + 1 : name;
		struct schema *sc = tui_schema_find(t, n, false, NULL);

		/* its kept events stay; a new probe of that name starts fresh */
		if (sc)
			sc->retired = true;
		tui_set_status(t, false, "removed %s", name);
	}
	diag_release(&d);
}

/* the name session_remove_event() wants for schema @sc */
char *tui_event_ref(struct tui *t, const char *name)
{
	for (size_t i = 0; i < session_nr_events(t->s); i++) {
		const struct session_event *e = session_event(t->s, i);

		if (e && !e->removed && !strcmp(e->name, name))
			return e->generic ? xasprintf("%s:%s", e->sys, e->name) : xstrdup(name);
	}
	return NULL;
}

void tui_prompt_release(struct tui *t)
{
	free_list(t->funcs, t->nr_funcs);
	free_list(t->cands, t->nr_cands);
	free_list(t->vars, t->nr_vars);
	free(t->vars_func);
	t->funcs = t->cands = t->vars = NULL;
	t->nr_funcs = t->nr_cands = t->nr_vars = 0;
	t->vars_func = NULL;
}
