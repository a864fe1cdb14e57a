// SPDX-License-Identifier: GPL-2.0-or-later
/* replay.c - a saved run's JSON lines back into the renderers and the summary */
#define LOG_DOMAIN "replay"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agg.h"
#include "decode.h"
#include "jsonread.h"
#include "log.h"
#include "render.h"
#include "replay.h"
#include "summary.h"

/*
 * What the renderer's render_ctl sees of a replay. The callbacks take the session pointer
 * as an opaque handle (render.h): a replay passes its own state as that handle.
 */
struct replay {
	struct session_event *evs;	/* one per probe name seen, in order */
	size_t nr_evs, alloc_evs;
	uint64_t events, lost;
};

#define RP(s) ((struct replay *)(void *)(s))

static size_t rp_nr_events(const struct session *s)
{
	return RP(s)->nr_evs;
}

static const struct session_event *rp_event(const struct session *s, size_t i)
{
	return i < RP(s)->nr_evs ? &RP(s)->evs[i] : NULL;
}

static void rp_counters(const struct session *s, uint64_t *events, uint64_t *lost)
{
	if (events)
		*events = RP(s)->events;
	if (lost)
		*lost = RP(s)->lost;
}

static int rp_add(struct session *s, const char *text, struct diag *d)
{
	(void)s;
	return diag_error(d, SPAN_NONE, "a replay cannot add probes ('%s')", text);
}

static int rp_remove(struct session *s, const char *name, struct diag *d)
{
	(void)s;
	return diag_error(d, SPAN_NONE, "a replay cannot remove probes ('%s')", name);
}

/* the probe's entry: its name stays valid (event.probe points to it) */
static struct session_event *rp_probe(struct replay *rp, const char *name)
{
	struct session_event *e;

	for (size_t i = 0; i < rp->nr_evs; i++)
		if (!strcmp(rp->evs[i].name, name))
			return &rp->evs[i];
	ALLOC_GROW(rp->evs, rp->nr_evs + 1, rp->alloc_evs);
	e = &rp->evs[rp->nr_evs++];
	memset(e, 0, sizeof(*e));
	e->sys = xstrdup("replay");
	e->name = xstrdup(name);
	return e;
}

/* "0x1f": what the JSON output writes for x* types and pointers */
static bool hex_text(const char *s, size_t len, uint64_t *v)
{
	if (len < 3 || len > 18 || s[0] != '0' || s[1] != 'x')
		return false;
	for (size_t i = 2; i < len; i++)
		if (!strchr("0123456789abcdef", s[i]) || !s[i])
			return false;
	*v = strtoull(s + 2, NULL, 16);
	return true;
}

/*
 * A JSON value as the value it was written from, as far as JSON tells: numbers, "0x..."
 * as hex, other strings as strings (an enum's name or a symbol reads as a string), true and
 * false, null as a value that could not be read, objects and arrays as their JSON text.
 */
static void to_value(const struct json *j, const char *name, struct value *v)
{
	memset(v, 0, sizeof(*v));
	v->name = name;
	switch (j->type) {
	case JSON_NULL:
		v->kind = VK_UNSIGNED;
		v->fault = true;
		break;
	case JSON_BOOL:
		v->kind = VK_BOOL;
		v->num.u = j->b;
		break;
	case JSON_NUMBER:
		if (j->is_int && j->negative && j->u <= (uint64_t)INT64_MAX + 1) {
			v->kind = VK_SIGNED;
			v->num.s = (int64_t)(0 - j->u);
		} else if (j->is_int && !j->negative) {
			v->kind = VK_UNSIGNED;
			v->num.u = j->u;
		} else {
			v->kind = VK_FLOAT;
			v->num.f = j->num;
		}
		break;
	case JSON_STRING:
		if (hex_text(j->str, j->len, &v->num.u)) {
			v->kind = VK_HEX;
		} else {
			v->kind = VK_LSTRING;
			v->str = j->str;
			v->len = j->len;
		}
		break;
	default:
		v->kind = VK_RAW;
		v->text = xstrndup(j->raw, j->raw_len);
		v->text_is_json = true;
		break;
	}
}

#define TS_BASE 1000000000ULL	/* ns added to "time": a time stamp is never 0 */

/* one event line into @ev (its values in *@vals, names borrowed from @j); -EINVAL if none */
static int to_event(struct replay *rp, const struct json *j, struct event *ev,
		    struct value **vals, size_t *alloc)
{
	const struct json *t = json_get(j, "time"), *probe = json_get(j, "probe");
	const struct json *args = json_get(j, "args"), *f;
	struct session_event *e;

	if (!t || t->type != JSON_NUMBER || !probe || probe->type != JSON_STRING ||
	    (args && args->type != JSON_OBJECT))
		return -EINVAL;
	memset(ev, 0, sizeof(*ev));
	e = rp_probe(rp, probe->str);
	ev->probe = e->name;
	ev->ts = TS_BASE + (uint64_t)(t->num * 1e9 + 0.5);
	ev->cpu = (f = json_get(j, "cpu")) && f->type == JSON_NUMBER ? (int)f->num : 0;
	ev->pid = (f = json_get(j, "pid")) && f->type == JSON_NUMBER ? (int)f->num : 0;
	ev->tid = (f = json_get(j, "tid")) && f->type == JSON_NUMBER ? (int)f->num : ev->pid;
	if ((f = json_get(j, "comm")) && f->type == JSON_STRING)
		snprintf(ev->comm, sizeof(ev->comm), "%s", f->str);
	ev->duration_ns = -1;
	if ((f = json_get(j, "duration")) && f->type == JSON_NUMBER)
		ev->duration_ns = (int64_t)(f->num * 1e9 + 0.5);
	ev->nr_vals = args ? args->nr : 0;
	ALLOC_GROW(*vals, ev->nr_vals + 1, *alloc);
	for (size_t i = 0; i < ev->nr_vals; i++)
		to_value(&args->kids[i], args->keys[i], &(*vals)[i]);
	ev->vals = *vals;
	e->count++;
	return 0;
}

struct replay_state {
	const struct replay_opts *o;
	struct replay rp;
	struct render r;
	struct agg *agg;
	struct strbuf funcs;		/* the function names of return events, NUL-separated */
	uint64_t span_ns;		/* "seconds" of the file's summary line, 0: none */
	bool open;
};

/* the function of return event @probe ("job__return" -> "job"), for the durations */
static const char *ret_func(struct replay_state *st, const char *probe)
{
	size_t n = strlen(probe);
	const char *p;

	if (n <= 8 || strcmp(probe + n - 8, "__return"))
		return NULL;
	for (p = st->funcs.buf; p && p < st->funcs.buf + st->funcs.len; p += strlen(p) + 1)
		if (strlen(p) == n - 8 && !strncmp(p, probe, n - 8))
			return p;
	/* appended once per function; the buffer may move, so look it up again next time */
	strbuf_add(&st->funcs, probe, n - 8);
	strbuf_addch(&st->funcs, '\0');
	return NULL;
}

/* one line of the file: an event, a lost record, a summary (skipped) */
static int replay_line(struct replay_state *st, const char *line, size_t len, size_t lineno,
		       struct value **vals, size_t *alloc, struct diag *d)
{
	struct json j;
	struct event ev;
	size_t at = 0;
	int ret = 0;

	if (json_parse(line, len, &j, &at) < 0 || j.type != JSON_OBJECT)
		return diag_error(d, SPAN_NONE, "%s:%zu: not JSON (at byte %zu): a replay reads "
				  "what --json or -o FILE --json wrote", st->o->path, lineno,
				  at + 1);
	if (json_get(&j, "exit") && !json_get(&j, "probe")) {
		json_release(&j);	/* how the traced command ended (its own line) */
		return 0;
	}
	if (json_get(&j, "summary")) {
		const struct json *sec = json_get(json_get(&j, "summary"), "seconds");

		/* the run's own time traced: the rates come out as the run printed them */
		if (sec && sec->type == JSON_NUMBER && sec->num > 0)
			st->span_ns = (uint64_t)(sec->num * 1e9 + 0.5);
		json_release(&j);
		return 0;
	}
	if (json_get(&j, "lost") && !json_get(&j, "probe")) {
		const struct json *n = json_get(&j, "lost"), *c = json_get(&j, "cpu");
		uint64_t nr = n->type == JSON_NUMBER ? (uint64_t)n->num : 0;

		st->rp.lost += nr;
		agg_lost(st->agg, nr);
		if (!st->o->summary_only)
			st->r.ops->lost(&st->r, c && c->type == JSON_NUMBER ? (int)c->num : 0, nr);
		json_release(&j);
		return 0;
	}
	if (to_event(&st->rp, &j, &ev, vals, alloc) < 0) {
		json_release(&j);
		return diag_error(d, SPAN_NONE, "%s:%zu: no event (it has no \"time\" and "
				  "\"probe\"): a replay reads what --json wrote", st->o->path,
				  lineno);
	}
	if (ev.duration_ns >= 0 && !(ev.func = ret_func(st, ev.probe)))
		ev.func = ret_func(st, ev.probe);
	if (!st->r.t0)
		st->r.t0 = ev.ts;
	st->rp.events++;
	agg_event(st->agg, &ev);
	if (!st->o->summary_only)
		ret = st->r.ops->event(&st->r, &ev);
	for (size_t i = 0; i < ev.nr_vals; i++)
		if (ev.vals[i].kind == VK_RAW)
			free((char *)ev.vals[i].text);
	json_release(&j);
	return ret < 0 ? ret : 0;
}

static int replay_file(struct replay_state *st, FILE *f, struct diag *d)
{
	struct value *vals = NULL;
	size_t alloc = 0, lineno = 0, cap = 0;
	char *line = NULL;
	ssize_t n;
	int ret = 0;

	while (ret == 0 && (n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (!n)
			continue;
		ret = replay_line(st, line, (size_t)n, lineno, &vals, &alloc, d);
		if (ret == 0 && st->r.out.len >= RENDER_FLUSH_AT)
			ret = render_flush(&st->r) < 0 ? -EPIPE : 0;
	}
	if (ret == 0 && ferror(f))
		ret = diag_fail(d, "cannot read %s: %s", st->o->path, strerror(errno));
	free(line);
	free(vals);
	return ret;
}

/* the curses view: the whole run is in it; it stays until q */
static void replay_hold(struct replay_state *st)
{
	struct strbuf why = STRBUF_INIT;

	if (!st->r.ops->ended)
		return;
	strbuf_addf(&why, "a replay of %s, %llu events", st->o->path,
		    (unsigned long long)st->rp.events);
	st->r.ops->ended(&st->r, why.buf);
	strbuf_release(&why);
	for (;;) {
		struct pollfd p = { .fd = st->r.input_fd, .events = POLLIN };
		int ret;

		poll(&p, st->r.input_fd >= 0, st->r.ops->tick_ms ? (int)st->r.ops->tick_ms : 100);
		ret = st->r.ops->tick(&st->r);
		if (ret < 0 || (ret & RENDER_QUIT))
			break;
	}
}

static const struct render_ops *replay_renderer(const struct replay_opts *o)
{
	if (o->mode == RENDER_JSON)
		return &render_json_ops;
	if (o->mode == RENDER_TEXT || o->summary_only || !isatty(STDOUT_FILENO))
		return &render_text_ops;
	return &render_tui_ops;
}

int replay_run(const struct replay_opts *o, struct diag *d)
{
	struct replay_state st = { .o = o };
	struct summary_opts so = { .top = o->top, .final = true };
	FILE *f = strcmp(o->path, "-") ? fopen(o->path, "re") : stdin;
	int ret;

	if (!f)
		return diag_error(d, SPAN_NONE, "cannot read %s: %s", o->path, strerror(errno));
	st.agg = agg_new();
	strbuf_init(&st.funcs);
	strbuf_init(&st.r.out);
	st.r.fd = STDOUT_FILENO;
	st.r.input_fd = -1;
	st.r.agg = st.agg;
	st.r.opts.ring_size = o->ring_size;
	st.r.ctl = (struct render_ctl){ (struct session *)(void *)&st.rp, rp_add, rp_remove,
					rp_nr_events, rp_event, rp_counters };
	st.r.ops = replay_renderer(o);
	ret = st.r.ops->open(&st.r);
	if (ret < 0) {
		diag_fail(d, "cannot start the %s view: %s", st.r.ops->name, strerror(-ret));
		goto out;
	}
	st.open = true;
	ret = replay_file(&st, f, d);
	if (ret == 0 && st.r.ops->tick)
		st.r.ops->tick(&st.r);
	if (ret == 0)
		replay_hold(&st);
	st.r.ops->close(&st.r);
	if (ret == 0 && (o->summary || o->summary_only)) {
		/* the time the run traced, else from its first event to its last */
		so.span_ns = st.span_ns ? st.span_ns :
			     st.agg->events ? st.agg->last_ts - st.agg->first_ts : 0;
		if (st.r.ops == &render_json_ops)
			summary_json(st.agg, &so, &st.r.out);
		else
			summary_text(st.agg, &so, &st.r.out);
		render_flush(&st.r);
	}
	fprintf(stderr, "upfront: replayed %llu events, %llu lost\n",
		(unsigned long long)st.rp.events, (unsigned long long)st.rp.lost);
out:
	if (f != stdin)
		fclose(f);
	for (size_t i = 0; i < st.rp.nr_evs; i++) {
		free(st.rp.evs[i].sys);
		free(st.rp.evs[i].name);
	}
	free(st.rp.evs);
	strbuf_release(&st.funcs);
	strbuf_release(&st.r.out);
	agg_free(st.agg);
	if (ret == -EPIPE)
		return 0;
	return ret < 0 ? (d->exit_code ? d->exit_code : 1) : 0;
}
