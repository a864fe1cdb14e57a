// SPDX-License-Identifier: GPL-2.0-or-later
/* tui-stats.c - the curses view's statistics: per-probe schemas, aggregates, the overlay */
#define LOG_DOMAIN "tui"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "tui-internal.h"

static struct schema *schema_new(struct tui *t, const char *name, size_t *idx)
{
	struct schema *sc = xcalloc(1, sizeof(*sc));

	sc->name = xstrdup(name);
	ALLOC_GROW(t->sch, t->nr_sch + 1, t->alloc_sch);
	*idx = t->nr_sch;
	t->sch[t->nr_sch++] = sc;
	return sc;
}

struct schema *tui_schema_find(struct tui *t, const char *name, bool create, size_t *idx)
{
	size_t i;

	for (i = 0; i < t->nr_sch; i++) {
		if (!t->sch[i]->retired && !strcmp(t->sch[i]->name, name)) {
			if (idx)
				*idx = i;
			return t->sch[i];
		}
	}
	if (!create || t->nr_sch >= 65535)
		return NULL;
	return schema_new(t, name, idx ? idx : &i);
}

/* value names, arg descriptions and statistics slots for @ev's values */
void tui_schema_learn(struct schema *sc, const struct event *ev)
{
	size_t n = ev->nr_vals;

	sc->val_names = xrealloc(sc->val_names, n * sizeof(*sc->val_names));
	sc->args = xrealloc(sc->args, n * sizeof(*sc->args));
	sc->width = xrealloc(sc->width, n * sizeof(*sc->width));
	sc->st = xrealloc(sc->st, n * sizeof(*sc->st));
	for (size_t i = sc->nr_vals; i < n; i++) {
		sc->val_names[i] = xstrdup(ev->vals[i].name ? ev->vals[i].name : "?");
		sc->args[i] = ev->vals[i].arg;
		sc->width[i] = 0;
		memset(&sc->st[i], 0, sizeof(sc->st[i]));
	}
	sc->nr_vals = n;
}

void tui_schema_free(struct schema *sc)
{
	for (size_t i = 0; i < sc->nr_vals; i++) {
		free(sc->val_names[i]);
		if (sc->st[i].top) {
			for (size_t k = 0; k < TOP_CAP; k++)
				free(sc->st[i].top[k].key);
			free(sc->st[i].top);
		}
	}
	for (size_t i = 0; i < sc->nr_lat; i++)
		free(sc->lat[i].func);
	free(sc->lat);
	free(sc->val_names);
	free(sc->args);
	free(sc->width);
	free(sc->st);
	free(sc->name);
	free(sc);
}

static int log2_bucket(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

static void top_count(struct arg_stat *a, uint8_t kind, const char *key, size_t len, uint64_t num)
{
	uint64_t h = 1469598103934665603ULL ^ num;
	size_t i;

	if (len > TOP_KEY_MAX)
		len = TOP_KEY_MAX;
	for (size_t k = 0; k < len; k++)
		h = (h ^ (unsigned char)key[k]) * 1099511628211ULL;
	if (!a->top)
		a->top = xcalloc(TOP_CAP, sizeof(*a->top));
	for (i = h & (TOP_CAP - 1);; i = (i + 1) & (TOP_CAP - 1)) {
		struct top_ent *e = &a->top[i];

		if (!e->key) {
			if (a->top_used >= TOP_CAP * 3 / 4) {
				a->other++;
				return;
			}
			e->key = xmalloc(len + 1);
			memcpy(e->key, key, len);
			e->key[len] = '\0';
			e->len = len;
			e->kind = kind;
			e->num = num;
			e->count = 1;
			a->top_used++;
			return;
		}
		if (e->num == num && e->len == len && e->kind == kind && !memcmp(e->key, key, len)) {
			e->count++;
			return;
		}
	}
}

void tui_stats_count(struct arg_stat *a, const struct value *v)
{
	double d;

	a->n++;
	if (v->fault) {
		a->faults++;
		return;
	}
	switch (v->kind) {
	case VK_SIGNED:
		d = (double)v->num.s;
		if (v->num.s < 0)
			a->neg[log2_bucket(-(uint64_t)v->num.s)]++;
		else
			a->pos[log2_bucket(v->num.s)]++;
		break;
	case VK_UNSIGNED:
		d = (double)v->num.u;
		a->pos[log2_bucket(v->num.u)]++;
		break;
	case VK_FLOAT: {
		double f = fabs(v->num.f);
		int b = 0;

		d = v->num.f;
		if (isfinite(f) && f >= 1.0) {
			b = ilogb(f) + 1;
			b = b > 64 ? 64 : b;
		} else if (!isfinite(f)) {
			b = 64;
		}
		(v->num.f < 0 ? a->neg : a->pos)[b]++;
		break;
	}
	case VK_CSTRING:
	case VK_LSTRING:
	case VK_BYTES:
		top_count(a, v->kind, v->str ? v->str : "", v->len, 0);
		return;
	default:
		top_count(a, v->kind, v->text ? v->text : "", v->text ? strlen(v->text) : 0,
			  v->num.u);
		return;
	}
	a->numeric = true;
	if (!a->seen || d < a->min)
		a->min = d;
	if (!a->seen || d > a->max)
		a->max = d;
	a->seen = true;
	a->sum += d;
}

void tui_stats_duration(struct schema *sc, const char *func, uint64_t ns)
{
	struct lat_stat *l = NULL;

	/* one function per event, or a few (a glob's points share an event) */
	for (size_t i = 0; i < sc->nr_lat && !l; i++)
		if (func ? sc->lat[i].func && !strcmp(sc->lat[i].func, func) : !sc->lat[i].func)
			l = &sc->lat[i];
	if (!l) {
		ALLOC_GROW(sc->lat, sc->nr_lat + 1, sc->alloc_lat);
		l = &sc->lat[sc->nr_lat++];
		memset(l, 0, sizeof(*l));
		l->func = func ? xstrdup(func) : NULL;
		l->min = UINT64_MAX;
	}
	l->n++;
	l->sum += ns;
	l->min = ns < l->min ? ns : l->min;
	l->max = ns > l->max ? ns : l->max;
	l->buckets[log2_bucket(ns)]++;
}

void tui_stats_second(struct tui *t)
{
	for (size_t i = 0; i < t->nr_sch; i++) {
		struct schema *sc = t->sch[i];

		sc->spark[sc->spark_pos] = sc->count - sc->spark_last;
		sc->spark_last = sc->count;
		sc->spark_pos = (sc->spark_pos + 1) % SPARK_SECS;
	}
}

/* ---- the overlay -------------------------------------------------------------------------- */

static const char *spark_chars(const struct tui *t, int level)
{
	static const char *u[] = { " ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585",
				   "\u2586", "\u2587", "\u2588" };
	static const char *a[] = { " ", ".", ".", ":", ":", "-", "=", "+", "#" };

	return t->utf8 ? u[level] : a[level];
}

static int top_cmp(const void *x, const void *y)
{
	const struct top_ent *a = *(const struct top_ent *const *)x;
	const struct top_ent *b = *(const struct top_ent *const *)y;

	return a->count < b->count ? 1 : a->count > b->count ? -1 : 0;
}

static void fmt_num(struct strbuf *sb, double d)
{
	if (d == floor(d) && fabs(d) < 1e15)
		strbuf_addf(sb, "%.0f", d);
	else
		strbuf_addf(sb, "%.4g", d);
}

/* 1, 2, 4 ... 512, 1K ... 1M ...: a power of two, short */
static void pow2_short(struct strbuf *sb, int e)
{
	static const char units[] = " KMGTPE";
	int u = e / 10;

	if (e >= 64) {
		strbuf_addstr(sb, "inf");
		return;
	}
	if (u)
		strbuf_addf(sb, "%llu%c", 1ULL << (e - u * 10), units[u]);
	else
		strbuf_addf(sb, "%llu", 1ULL << e);
}

/* the range of histogram bucket @b: "[64, 128)", "-[64, 128)", "0", "(-1, 0)" */
static void bucket_label(struct strbuf *sb, int b, bool neg)
{
	if (b == 0) {
		strbuf_addstr(sb, neg ? "(-1, 0)" : "[0, 1)");
		return;
	}
	strbuf_addstr(sb, neg ? "-[" : "[");
	pow2_short(sb, b - 1);
	strbuf_addstr(sb, ", ");
	pow2_short(sb, b);
	strbuf_addch(sb, ')');
}

/* "name  count N (P%)" and the rate sparkline of the last SPARK_SECS seconds */
static void stats_probe(struct tui *t, struct tui_lines *l, const struct schema *sc,
			uint64_t total)
{
	struct row *w;
	uint64_t peak = 1;

	w = tui_lines_new(l);
	tui_row_add(w, R_PROBE, sc->name);
	tui_row_role(w, R_NORMAL);
	strbuf_addf(&w->text, "  count %llu", (unsigned long long)sc->count);
	if (total)
		strbuf_addf(&w->text, " (%.1f%%)", 100.0 * sc->count / total);
	if (sc->hidden)
		tui_row_add(w, R_DIM, "  [hidden]");
	if (sc->retired)
		tui_row_add(w, R_DIM, "  [removed]");
	w = tui_lines_new(l);
	tui_row_add(w, R_DIM, "  rate/s  ");
	for (int k = 0; k < SPARK_SECS; k++)
		if (sc->spark[k] > peak)
			peak = sc->spark[k];
	tui_row_role(w, R_GOOD);
	for (int k = 0; k < SPARK_SECS; k++) {
		uint64_t c = sc->spark[(sc->spark_pos + k) % SPARK_SECS];
		int level = c ? 1 + (int)(c * 7 / peak) : 0;

		strbuf_addstr(&w->text, spark_chars(t, level > 8 ? 8 : level));
	}
	tui_row_role(w, R_DIM);
	strbuf_addf(&w->text, "  last %llu/s, peak %llu/s",
		    (unsigned long long)sc->spark[(sc->spark_pos + SPARK_SECS - 1) % SPARK_SECS],
		    (unsigned long long)peak);
}

/* min/avg/max of a numeric argument on @w, then its histogram on rows of their own */
static void stats_numeric(struct tui *t, struct tui_lines *l, struct row *w,
			  const struct arg_stat *a)
{
	uint64_t hmax = 1, nn = a->n - a->faults;
	int lo = HIST_BUCKETS, hi = -1;

	strbuf_addstr(&w->text, "  min ");
	fmt_num(&w->text, a->min);
	strbuf_addstr(&w->text, "  avg ");
	fmt_num(&w->text, nn ? a->sum / nn : 0);
	strbuf_addstr(&w->text, "  max ");
	fmt_num(&w->text, a->max);
	for (int b = 0; b < HIST_BUCKETS; b++) {
		if (a->pos[b] || a->neg[b]) {
			lo = b < lo ? b : lo;
			hi = b;
		}
		hmax = a->pos[b] > hmax ? a->pos[b] : hmax;
		hmax = a->neg[b] > hmax ? a->neg[b] : hmax;
	}
	/* negative buckets, largest magnitude first, then positive */
	for (int sgn = 0; sgn < 2; sgn++) {
		for (int k = 0; k <= hi - lo; k++) {
			int b = sgn ? lo + k : hi - k;
			uint64_t c = sgn ? a->pos[b] : a->neg[b];
			int bar;

			if (!c)
				continue;
			w = tui_lines_new(l);
			tui_row_role(w, R_DIM);
			strbuf_reset(&t->tmp);
			bucket_label(&t->tmp, b, !sgn);
			strbuf_addf(&w->text, "%8s%-24s", "", t->tmp.buf);
			tui_row_role(w, R_GOOD);
			bar = (int)(c * 30 / hmax);
			for (int x = 0; x < (bar ? bar : 1); x++)
				strbuf_addstr(&w->text, t->utf8 ? "\u2587" : "#");
			tui_row_role(w, R_NORMAL);
			strbuf_addf(&w->text, " %llu", (unsigned long long)c);
		}
	}
}

/* a bucket's bound, 2^@e ns, short: "512ns", "4.1us", "16us", "1ms", "1.1s" */
static void lat_bound(struct strbuf *sb, int e)
{
	static const struct {
		double ns;
		const char *unit;
	} units[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" } };
	double ns = e >= 64 ? 1.8446744073709552e19 : (double)(1ULL << e);

	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		double v = ns / units[i].ns;

		if (v < 1 && units[i].ns > 1)
			continue;
		if (v < 10 && v != floor(v))
			strbuf_addf(sb, "%.1f%s", v, units[i].unit);
		else
			strbuf_addf(sb, "%.0f%s", v, units[i].unit);
		return;
	}
}

/* the latency histogram of one function: "duration  n  min avg max", then a row a bucket */
static void stats_latency(struct tui *t, struct tui_lines *l, const struct lat_stat *a,
			  bool named)
{
	struct row *w = tui_lines_new(l);
	uint64_t hmax = 1;
	int lo = HIST_BUCKETS, hi = -1;

	tui_row_pad(w, 4);
	tui_row_add(w, R_ARGNAME, "duration");
	tui_row_role(w, R_NORMAL);
	if (named && a->func) {
		strbuf_addstr(&w->text, " of ");
		escape_untrusted(&w->text, a->func, strlen(a->func));
	}
	strbuf_addf(&w->text, "  calls %llu  min ", (unsigned long long)a->n);
	render_duration(&w->text, a->min);
	strbuf_addstr(&w->text, "  avg ");
	render_duration(&w->text, a->sum / a->n);
	strbuf_addstr(&w->text, "  max ");
	render_duration(&w->text, a->max);
	for (int b = 0; b < HIST_BUCKETS; b++) {
		if (a->buckets[b]) {
			lo = b < lo ? b : lo;
			hi = b;
		}
		hmax = a->buckets[b] > hmax ? a->buckets[b] : hmax;
	}
	/* every bucket from the fastest to the slowest call, empty ones too (the shape) */
	for (int b = lo; b <= hi; b++) {
		uint64_t c = a->buckets[b];
		int bar = (int)(c * 30 / hmax);

		w = tui_lines_new(l);
		tui_row_role(w, R_DIM);
		strbuf_reset(&t->tmp);
		strbuf_addch(&t->tmp, '[');
		if (b)
			lat_bound(&t->tmp, b - 1);
		else
			strbuf_addstr(&t->tmp, "0");
		strbuf_addstr(&t->tmp, ", ");
		lat_bound(&t->tmp, b);
		strbuf_addch(&t->tmp, ')');
		strbuf_addf(&w->text, "%8s%-24s", "", t->tmp.buf);
		tui_row_role(w, R_GOOD);
		for (int x = 0; x < (bar || !c ? bar : 1); x++)
			strbuf_addstr(&w->text, t->utf8 ? "\u2587" : "#");
		tui_row_role(w, R_NORMAL);
		strbuf_addf(&w->text, " %llu", (unsigned long long)c);
	}
}

/* the number of distinct values of an argument on @w, then the 8 most frequent */
static void stats_top(struct tui_lines *l, struct row *w, const struct arg_stat *a)
{
	struct top_ent **v = xmalloc(a->top_used * sizeof(*v));
	size_t nv = 0;

	for (size_t k = 0; k < TOP_CAP; k++)
		if (a->top[k].key)
			v[nv++] = &a->top[k];
	qsort(v, nv, sizeof(*v), top_cmp);
	strbuf_addf(&w->text, "  %zu distinct%s", nv, a->other ? "+" : "");
	for (size_t k = 0; k < nv && k < 8; k++) {
		struct value tv;

		memset(&tv, 0, sizeof(tv));
		tv.kind = (enum value_kind)v[k]->kind;
		tv.num.u = v[k]->num;
		if (tv.kind == VK_CSTRING || tv.kind == VK_LSTRING || tv.kind == VK_BYTES) {
			tv.str = v[k]->key;
			tv.len = v[k]->len;
		} else {
			tv.text = v[k]->len ? v[k]->key : NULL;
		}
		w = tui_lines_new(l);
		tui_row_role(w, R_NORMAL);
		strbuf_addf(&w->text, "%8s%10llu  ", "", (unsigned long long)v[k]->count);
		render_value_text(&w->text, &tv);
	}
	if (a->other) {
		w = tui_lines_new(l);
		tui_row_add(w, R_DIM, "");
		strbuf_addf(&w->text, "%8s%10llu  (other values)", "",
			    (unsigned long long)a->other);
	}
	free(v);
}

void tui_build_stats(struct tui *t, struct tui_lines *l)
{
	uint64_t total = 0;

	t->ctl->counters(t->ctl->s, &total, NULL);
	for (size_t si = 0; si < t->nr_sch; si++) {
		struct schema *sc = t->sch[si];

		if (!sc->count && sc->retired)
			continue;
		stats_probe(t, l, sc, total);
		for (size_t i = 0; i < sc->nr_vals; i++) {
			struct arg_stat *a = &sc->st[i];
			struct row *w = tui_lines_new(l);

			tui_row_pad(w, 4);
			tui_row_add(w, R_ARGNAME, sc->val_names[i]);
			tui_row_role(w, R_NORMAL);
			if (a->faults)
				strbuf_addf(&w->text, "  faults %llu",
					    (unsigned long long)a->faults);
			if (a->numeric && a->seen)
				stats_numeric(t, l, w, a);
			else if (a->top_used)
				stats_top(l, w, a);
		}
		for (size_t i = 0; i < sc->nr_lat; i++)
			stats_latency(t, l, &sc->lat[i], sc->nr_lat > 1);
		tui_lines_new(l);
	}
	if (!l->nr) {
		struct row *w = tui_lines_new(l);

		tui_row_add(w, R_DIM, "no events yet");
	}
}
