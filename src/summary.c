// SPDX-License-Identifier: GPL-2.0-or-later
/* summary.c - the aggregates as text (bpftrace's hist() bars) or as one JSON object */
#define LOG_DOMAIN "summary"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "agg.h"
#include "decode.h"
#include "log.h"
#include "render.h"
#include "summary.h"

#define BAR_WIDTH 52		/* bpftrace's */

#define NR_FIGURES 6

/* min, avg, max, p50, p90, p99 of @l's durations (ns), with their names; *@exact: the
 * percentiles are (agg_percentile()) */
static void lat_figures(struct agg_lat *l, const char **names, uint64_t *ns, bool *exact)
{
	static const char *const n[NR_FIGURES] = { "min", "avg", "max", "p50", "p90", "p99" };
	static const double pcts[] = { 50, 90, 99 };

	memcpy(names, n, sizeof(n));
	ns[0] = l->min;
	ns[1] = l->sum / l->n;
	ns[2] = l->max;
	for (size_t k = 0; k < ARRAY_SIZE(pcts); k++)
		ns[3 + k] = agg_percentile(l, pcts[k], exact);
}

/* 1, 2, 4 ... 512, 1K ... 1M ...: a power of two, short, as bpftrace writes it */
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

void summary_bucket_label(struct strbuf *sb, int b, bool neg, bool real)
{
	if (b == 0) {
		strbuf_addstr(sb, !real ? "[0]" : neg ? "(-1, 0)" : "[0, 1)");
		return;
	}
	if (b == 1 && !real) {
		strbuf_addstr(sb, neg ? "[-1]" : "[1]");
		return;
	}
	if (neg) {
		strbuf_addstr(sb, "(-");
		pow2_short(sb, b);
		strbuf_addstr(sb, ", -");
		pow2_short(sb, b - 1);
		strbuf_addch(sb, ']');
		return;
	}
	strbuf_addch(sb, '[');
	pow2_short(sb, b - 1);
	strbuf_addstr(sb, ", ");
	pow2_short(sb, b);
	strbuf_addch(sb, ')');
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

void summary_duration_label(struct strbuf *sb, int b)
{
	strbuf_addch(sb, '[');
	if (b)
		lat_bound(sb, b - 1);
	else
		strbuf_addstr(sb, "0");
	strbuf_addstr(sb, ", ");
	lat_bound(sb, b);
	strbuf_addch(sb, ')');
}

static void fmt_num(struct strbuf *sb, double d)
{
	if (d == floor(d) && fabs(d) < 1e15)
		strbuf_addf(sb, "%.0f", d);
	else
		strbuf_addf(sb, "%.6g", d);
}

/* one bucket as bpftrace's hist() prints it: label, count, a bar of '@' */
static void hist_line(struct strbuf *sb, const char *label, uint64_t c, uint64_t peak)
{
	int bar = peak ? (int)(c * BAR_WIDTH / peak) : 0;

	strbuf_addf(sb, "    %-16s%8" PRIu64 " |", label, c);
	for (int x = 0; x < BAR_WIDTH; x++)
		strbuf_addch(sb, x < bar ? '@' : ' ');
	strbuf_addstr(sb, "|\n");
}

/* the buckets from the most negative to the largest used one, empty ones between too */
static void hist_numeric(struct strbuf *sb, const struct agg_arg *st, bool real)
{
	struct strbuf label = STRBUF_INIT;
	int plo = AGG_BUCKETS, phi = -1, nlo = AGG_BUCKETS, nhi = -1;
	uint64_t peak = 0;

	for (int b = 0; b < AGG_BUCKETS; b++) {
		if (st->pos[b]) {
			plo = b < plo ? b : plo;
			phi = b;
		}
		if (st->neg[b]) {
			nlo = b < nlo ? b : nlo;
			nhi = b;
		}
		peak = st->pos[b] > peak ? st->pos[b] : peak;
		peak = st->neg[b] > peak ? st->neg[b] : peak;
	}
	/* a histogram across 0: the negative buckets run to the smallest, then up from 0 */
	if (nhi >= 0 && phi >= 0) {
		nlo = real ? 0 : 1;
		plo = 0;
	}
	for (int b = nhi; b >= nlo && nhi >= 0; b--) {
		strbuf_reset(&label);
		summary_bucket_label(&label, b, true, real);
		hist_line(sb, label.buf, st->neg[b], peak);
	}
	for (int b = plo; b <= phi; b++) {
		strbuf_reset(&label);
		summary_bucket_label(&label, b, false, real);
		hist_line(sb, label.buf, st->pos[b], peak);
	}
	strbuf_release(&label);
}

static const char *const num_names[] = { "min", "avg", "max" };

/* min, avg, max of a numeric argument (its faults are no values) */
static void num_figures(const struct agg_arg *st, double *v)
{
	uint64_t nn = st->n - st->faults;

	v[0] = st->min;
	v[1] = nn ? st->sum / nn : 0;
	v[2] = st->max;
}

static void text_numeric(struct strbuf *sb, const struct agg_probe *p, size_t i)
{
	const struct agg_arg *st = &p->st[i];
	double v[ARRAY_SIZE(num_names)];

	num_figures(st, v);
	for (size_t k = 0; k < ARRAY_SIZE(num_names); k++) {
		strbuf_addf(sb, ", %s ", num_names[k]);
		fmt_num(sb, v[k]);
	}
	strbuf_addch(sb, '\n');
	hist_numeric(sb, st, st->real);
}

/* An argument's values, most frequent first: @shown of @nr listed, @rest counted together. */
struct top_list {
	const struct agg_top **v;
	size_t nr, shown;
	uint64_t rest;
};

static void top_list(const struct agg_arg *st, unsigned int top, struct top_list *tl)
{
	tl->nr = agg_top_sorted(st, &tl->v);
	tl->shown = tl->nr < top ? tl->nr : top;
	tl->rest = st->other;
	for (size_t k = tl->shown; k < tl->nr; k++)
		tl->rest += tl->v[k]->count;
}

static void text_top(struct strbuf *sb, const struct agg_arg *st, unsigned int top)
{
	struct top_list tl;

	top_list(st, top, &tl);
	strbuf_addf(sb, ", %zu distinct%s\n", tl.nr, st->other ? "+" : "");
	for (size_t k = 0; k < tl.shown; k++) {
		struct value tv;

		agg_top_value(tl.v[k], &tv);
		strbuf_addf(sb, "    %8" PRIu64 "  ", tl.v[k]->count);
		render_value_text(sb, &tv);
		strbuf_addch(sb, '\n');
	}
	if (tl.rest)
		strbuf_addf(sb, "    %8" PRIu64 "  (other values)\n", tl.rest);
	free(tl.v);
}

static void text_latency(struct strbuf *sb, struct agg_lat *l)
{
	struct strbuf label = STRBUF_INIT;
	uint64_t peak;
	int lo, hi;
	bool exact = true;
	const char *names[NR_FIGURES];
	uint64_t ns[NR_FIGURES];

	strbuf_addstr(sb, "  duration");
	if (l->func) {
		strbuf_addstr(sb, " of ");
		escape_untrusted(sb, l->func, strlen(l->func));
	}
	strbuf_addf(sb, ": %" PRIu64 " calls", l->n);
	lat_figures(l, names, ns, &exact);
	for (int k = 0; k < NR_FIGURES; k++) {
		/* a percentile past the kept samples is a bucket's bound: "<=" */
		strbuf_addf(sb, ", %s %s", names[k], k >= 3 && !exact ? "<=" : "");
		render_duration(sb, ns[k]);
	}
	strbuf_addch(sb, '\n');
	peak = agg_bucket_span(l->buckets, &lo, &hi);
	for (int b = lo; b <= hi; b++) {
		strbuf_reset(&label);
		summary_duration_label(&label, b);
		hist_line(sb, label.buf, l->buckets[b], peak);
	}
	strbuf_release(&label);
}

static double rate(uint64_t n, uint64_t span_ns)
{
	return span_ns ? (double)n * 1e9 / (double)span_ns : 0;
}

void summary_text(struct agg *a, const struct summary_opts *o, struct strbuf *sb)
{
	unsigned int top = o->top ? o->top : SUMMARY_TOP_DEFAULT;

	strbuf_addf(sb, "@ summary%s: %.3f s, %" PRIu64 " events, %" PRIu64 " lost\n",
		    o->final ? "" : " so far", (double)o->span_ns / 1e9, a->events, a->lost);
	for (size_t pi = 0; pi < a->nr; pi++) {
		struct agg_probe *p = a->p[pi];

		if (!p->count && p->retired)
			continue;
		strbuf_addch(sb, '\n');
		escape_untrusted(sb, p->name, strlen(p->name));
		strbuf_addf(sb, "%s: %" PRIu64 " events, %.1f/s\n", p->retired ? " (removed)" : "",
			    p->count, rate(p->count, o->span_ns));
		for (size_t i = 0; i < p->nr_vals; i++) {
			const struct agg_arg *st = &p->st[i];

			strbuf_addstr(sb, "  ");
			escape_untrusted(sb, p->val_names[i], strlen(p->val_names[i]));
			strbuf_addf(sb, ": %" PRIu64 " values", st->n);
			if (st->faults)
				strbuf_addf(sb, ", %" PRIu64 " faults", st->faults);
			if (st->numeric && st->seen)
				text_numeric(sb, p, i);
			else if (st->top_used || st->other)
				text_top(sb, st, top);
			else
				strbuf_addch(sb, '\n');
		}
		for (size_t i = 0; i < p->nr_lat; i++)
			text_latency(sb, &p->lat[i]);
		if (p->comms.n) {
			strbuf_addf(sb, "  comm: %" PRIu64 " events", p->comms.n);
			text_top(sb, &p->comms, top);
		}
	}
}

static void json_key(struct strbuf *sb, const char *k)
{
	render_json_string(sb, k, strlen(k));
	strbuf_addch(sb, ':');
}

static void json_num(struct strbuf *sb, double d)
{
	if (!isfinite(d))
		strbuf_addstr(sb, "null");
	else if (d == floor(d) && fabs(d) < 1e15)
		strbuf_addf(sb, "%.0f", d);
	else
		strbuf_addf(sb, "%.17g", d);
}

/* [{"from":LO,"to":HI,"count":N} ...] of the used buckets; @lo/@hi: each bucket's bounds */
static void json_hist_bucket(struct strbuf *sb, bool *first, double lo, double hi, uint64_t c)
{
	strbuf_addstr(sb, *first ? "{\"from\":" : ",{\"from\":");
	*first = false;
	json_num(sb, lo);
	strbuf_addstr(sb, ",\"to\":");
	json_num(sb, hi);
	strbuf_addf(sb, ",\"count\":%" PRIu64 "}", c);
}

static double pow2(int e)
{
	return e >= 64 ? INFINITY : ldexp(1.0, e);
}

static void json_numeric(struct strbuf *sb, const struct agg_arg *st)
{
	double v[ARRAY_SIZE(num_names)];
	bool first = true;

	num_figures(st, v);
	for (size_t k = 0; k < ARRAY_SIZE(num_names); k++) {
		strbuf_addf(sb, ",\"%s\":", num_names[k]);
		json_num(sb, v[k]);
	}
	/* buckets [from, to): magnitudes 2^(b-1) .. 2^b, bucket 0 holds [0, 1) */
	strbuf_addstr(sb, ",\"hist\":[");
	for (int b = AGG_BUCKETS - 1; b >= 0; b--)
		if (st->neg[b])
			json_hist_bucket(sb, &first, -pow2(b), b ? -pow2(b - 1) : 0, st->neg[b]);
	for (int b = 0; b < AGG_BUCKETS; b++)
		if (st->pos[b])
			json_hist_bucket(sb, &first, b ? pow2(b - 1) : 0, pow2(b), st->pos[b]);
	strbuf_addch(sb, ']');
}

static void json_top(struct strbuf *sb, const struct agg_arg *st, unsigned int top)
{
	struct top_list tl;

	top_list(st, top, &tl);
	strbuf_addf(sb, ",\"distinct\":%zu,\"top\":[", tl.nr);
	for (size_t k = 0; k < tl.shown; k++) {
		struct value tv;

		agg_top_value(tl.v[k], &tv);
		strbuf_addstr(sb, k ? ",{\"value\":" : "{\"value\":");
		render_value_json(sb, &tv);
		strbuf_addf(sb, ",\"count\":%" PRIu64 "}", tl.v[k]->count);
	}
	strbuf_addf(sb, "],\"other\":%" PRIu64, tl.rest);
	free(tl.v);
}

static void json_latency(struct strbuf *sb, struct agg_lat *l)
{
	bool first = true, exact = true;
	const char *names[NR_FIGURES];
	uint64_t ns[NR_FIGURES];

	strbuf_addstr(sb, "{\"func\":");
	if (l->func)
		render_json_string(sb, l->func, strlen(l->func));
	else
		strbuf_addstr(sb, "null");
	strbuf_addf(sb, ",\"count\":%" PRIu64, l->n);
	lat_figures(l, names, ns, &exact);
	for (int k = 0; k < NR_FIGURES; k++) {
		strbuf_addf(sb, ",\"%s\":", names[k]);
		render_seconds(sb, ns[k]);
	}
	strbuf_addf(sb, ",\"exact\":%s,\"hist\":[", exact ? "true" : "false");
	/* bounds in seconds, exact: 2^b ns */
	for (int b = 0; b < AGG_BUCKETS; b++) {
		if (!l->buckets[b])
			continue;
		strbuf_addstr(sb, first ? "{\"from\":" : ",{\"from\":");
		first = false;
		render_seconds(sb, b ? 1ULL << (b - 1) : 0);
		strbuf_addstr(sb, ",\"to\":");
		if (b < 64)
			render_seconds(sb, 1ULL << b);
		else
			strbuf_addstr(sb, "18446744073.709551616");
		strbuf_addf(sb, ",\"count\":%" PRIu64 "}", l->buckets[b]);
	}
	strbuf_addstr(sb, "]}");
}

static void json_probe(struct strbuf *sb, struct agg_probe *p, const struct summary_opts *o,
		       unsigned int top)
{
	strbuf_addstr(sb, "{\"probe\":");
	render_json_string(sb, p->name, strlen(p->name));
	strbuf_addf(sb, ",\"count\":%" PRIu64 ",\"rate\":", p->count);
	json_num(sb, rate(p->count, o->span_ns));
	if (p->retired)
		strbuf_addstr(sb, ",\"removed\":true");
	strbuf_addstr(sb, ",\"args\":{");
	for (size_t i = 0; i < p->nr_vals; i++) {
		const struct agg_arg *st = &p->st[i];

		if (i)
			strbuf_addch(sb, ',');
		json_key(sb, p->val_names[i]);
		strbuf_addf(sb, "{\"count\":%" PRIu64 ",\"faults\":%" PRIu64, st->n, st->faults);
		if (st->numeric && st->seen)
			json_numeric(sb, st);
		else if (st->top_used || st->other)
			json_top(sb, st, top);
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "},\"comm\":{\"count\":");
	strbuf_addf(sb, "%" PRIu64, p->comms.n);
	if (p->comms.n)
		json_top(sb, &p->comms, top);
	strbuf_addstr(sb, "},\"durations\":[");
	for (size_t i = 0; i < p->nr_lat; i++) {
		if (i)
			strbuf_addch(sb, ',');
		json_latency(sb, &p->lat[i]);
	}
	strbuf_addstr(sb, "]}");
}

void summary_json(struct agg *a, const struct summary_opts *o, struct strbuf *sb)
{
	unsigned int top = o->top ? o->top : SUMMARY_TOP_DEFAULT;
	bool first = true;

	strbuf_addstr(sb, "{\"summary\":{\"final\":");
	strbuf_addstr(sb, o->final ? "true" : "false");
	strbuf_addstr(sb, ",\"seconds\":");
	render_seconds(sb, o->span_ns);
	strbuf_addf(sb, ",\"events\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"probes\":[", a->events,
		    a->lost);
	for (size_t pi = 0; pi < a->nr; pi++) {
		if (!a->p[pi]->count && a->p[pi]->retired)
			continue;
		if (!first)
			strbuf_addch(sb, ',');
		first = false;
		json_probe(sb, a->p[pi], o, top);
	}
	strbuf_addstr(sb, "]}}\n");
}
