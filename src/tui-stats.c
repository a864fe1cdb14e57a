// SPDX-License-Identifier: GPL-2.0-or-later
/* tui-stats.c - the curses view's statistics: per-probe schemas, aggregates, the overlay */
#define LOG_DOMAIN "tui"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "summary.h"
#include "tui-internal.h"

static struct schema *schema_new(struct tui *t, const char *name, size_t *idx)
{
	struct schema *sc = xcalloc(1, sizeof(*sc));

	sc->name = xstrdup(name);
	sc->ap = agg_find(t->agg, name, true);
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

void tui_schema_free(struct schema *sc)
{
	free(sc->width);
	free(sc->name);
	free(sc);
}

void tui_stats_second(struct tui *t)
{
	for (size_t i = 0; i < t->nr_sch; i++) {
		struct schema *sc = t->sch[i];

		sc->spark[sc->spark_pos] = sc->ap->count - sc->spark_last;
		sc->spark_last = sc->ap->count;
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

static void fmt_num(struct strbuf *sb, double d)
{
	if (d == floor(d) && fabs(d) < 1e15)
		strbuf_addf(sb, "%.0f", d);
	else
		strbuf_addf(sb, "%.4g", d);
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
	strbuf_addf(&w->text, "  count %llu", (unsigned long long)sc->ap->count);
	if (total)
		strbuf_addf(&w->text, " (%.1f%%)", 100.0 * sc->ap->count / total);
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
			  const struct agg_arg *a)
{
	uint64_t hmax = 1, nn = a->n - a->faults;
	int lo = AGG_BUCKETS, hi = -1;

	strbuf_addstr(&w->text, "  min ");
	fmt_num(&w->text, a->min);
	strbuf_addstr(&w->text, "  avg ");
	fmt_num(&w->text, nn ? a->sum / nn : 0);
	strbuf_addstr(&w->text, "  max ");
	fmt_num(&w->text, a->max);
	for (int b = 0; b < AGG_BUCKETS; b++) {
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
			summary_bucket_label(&t->tmp, b, !sgn, a->real);
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

/* the latency histogram of one function: "duration  n  min avg max", then a row a bucket */
static void stats_latency(struct tui *t, struct tui_lines *l, struct agg_lat *a,
			  bool named)
{
	struct row *w = tui_lines_new(l);
	uint64_t hmax;
	int lo, hi;

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
	/* the summary's percentiles (summary.h) */
	for (int k = 0; k < 3; k++) {
		static const double pct[] = { 50, 90, 99 };
		bool exact = true;
		uint64_t v = agg_percentile(a, pct[k], &exact);

		strbuf_addf(&w->text, "  p%g %s", pct[k], exact ? "" : "<=");
		render_duration(&w->text, v);
	}
	hmax = agg_bucket_span(a->buckets, &lo, &hi);
	hmax = hmax ? hmax : 1;
	/* every bucket from the fastest to the slowest call, empty ones too (the shape) */
	for (int b = lo; b <= hi; b++) {
		uint64_t c = a->buckets[b];
		int bar = (int)(c * 30 / hmax);

		w = tui_lines_new(l);
		tui_row_role(w, R_DIM);
		strbuf_reset(&t->tmp);
		summary_duration_label(&t->tmp, b);
		strbuf_addf(&w->text, "%8s%-24s", "", t->tmp.buf);
		tui_row_role(w, R_GOOD);
		for (int x = 0; x < (bar || !c ? bar : 1); x++)
			strbuf_addstr(&w->text, t->utf8 ? "\u2587" : "#");
		tui_row_role(w, R_NORMAL);
		strbuf_addf(&w->text, " %llu", (unsigned long long)c);
	}
}

/* the number of distinct values of an argument on @w, then the 8 most frequent */
static void stats_top(struct tui_lines *l, struct row *w, const struct agg_arg *a)
{
	const struct agg_top **v;
	size_t nv = agg_top_sorted(a, &v);

	strbuf_addf(&w->text, "  %zu distinct%s", nv, a->other ? "+" : "");
	for (size_t k = 0; k < nv && k < 8; k++) {
		struct value tv;

		agg_top_value(v[k], &tv);
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

		if (!sc->ap->count && sc->retired)
			continue;
		stats_probe(t, l, sc, total);
		for (size_t i = 0; i < sc->ap->nr_vals; i++) {
			struct agg_arg *a = &sc->ap->st[i];
			struct row *w = tui_lines_new(l);

			tui_row_pad(w, 4);
			tui_row_add(w, R_ARGNAME, sc->ap->val_names[i]);
			tui_row_role(w, R_NORMAL);
			if (a->faults)
				strbuf_addf(&w->text, "  faults %llu",
					    (unsigned long long)a->faults);
			if (a->numeric && a->seen)
				stats_numeric(t, l, w, a);
			else if (a->top_used)
				stats_top(l, w, a);
		}
		for (size_t i = 0; i < sc->ap->nr_lat; i++)
			stats_latency(t, l, &sc->ap->lat[i], sc->ap->nr_lat > 1);
		tui_lines_new(l);
	}
	if (!l->nr) {
		struct row *w = tui_lines_new(l);

		tui_row_add(w, R_DIM, "no events yet");
	}
}
