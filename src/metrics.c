// SPDX-License-Identifier: GPL-2.0-or-later
/* metrics.c - counters and duration histograms of the session, as Prometheus/OpenMetrics text */
#define LOG_DOMAIN "metrics"

#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "decode.h"
#include "fetcharg.h"
#include "log.h"
#include "metrics.h"
#include "render.h"

/*
 * Duration buckets (le): 1 us to 10 s in 1-2.5-5 steps. A uprobe hit costs about 1 us, so
 * nothing shorter can be told apart; Prometheus' default buckets (5 ms and up) would put
 * every call of a fast function into the first one.
 */
static const struct {
	uint64_t ns;
	const char *le;
} buckets[] = {
	{ 1000, "1e-06" },	{ 2500, "2.5e-06" },	{ 5000, "5e-06" },
	{ 10000, "1e-05" },	{ 25000, "2.5e-05" },	{ 50000, "5e-05" },
	{ 100000, "0.0001" },	{ 250000, "0.00025" },	{ 500000, "0.0005" },
	{ 1000000, "0.001" },	{ 2500000, "0.0025" },	{ 5000000, "0.005" },
	{ 10000000, "0.01" },	{ 25000000, "0.025" },	{ 50000000, "0.05" },
	{ 100000000, "0.1" },	{ 250000000, "0.25" },	{ 500000000, "0.5" },
	{ 1000000000, "1" },	{ 2500000000, "2.5" },	{ 5000000000, "5" },
	{ 10000000000, "10" },
};
#define NR_BUCKETS (ARRAY_SIZE(buckets) + 1)	/* and +Inf */

/* One label set of upfront_events_total. Immutable but for the counter once published. */
struct series {
	_Atomic uint64_t events;
	char *probe;			/* escaped for the exposition */
	char *label;			/* the --metrics-label value, escaped; NULL: none */
	struct series *_Atomic next;
};

/* One label set of upfront_duration_seconds; readers retry while @seq is odd or changed. */
struct hist {
	_Atomic uint64_t seq;
	_Atomic uint64_t count[NR_BUCKETS];	/* per bucket, not cumulative */
	_Atomic uint64_t sum_ns;
	char *func;			/* escaped */
	char *label;			/* escaped, or NULL */
	struct hist *_Atomic next;
};

/* A value of the labeled probe: the writer's index entry. */
struct lv {
	uint64_t hash;
	char *raw;			/* the value as text, before escaping */
	size_t len;
	struct series *series;
	struct hist *hist;		/* made at the first duration */
	const char *hist_func;		/* the event.func @hist is for */
};

/* The writer's own index of an event name (no reader touches it). */
struct slot {
	const char *key;		/* the event.probe pointer last seen for it, or NULL */
	char *name;
	struct series *series;		/* unlabeled */
	struct hist *hist;		/* unlabeled; made at the first duration */
	const char *hist_func;		/* the event.func @hist is for (globs' points differ) */
	bool labeled;			/* the probe of --metrics-label */
	size_t arg_idx;			/* where the label's value was in event.vals before */
};

struct metrics {
	struct metrics_opts o;
	struct metrics_http *http;
	/* what readers walk: lists that only grow, published with release stores */
	struct series *_Atomic series_head;
	struct hist *_Atomic hist_head;
	_Atomic uint64_t *lost;		/* per CPU */
	int nr_cpus;
	char *label_probe, *label_arg;	/* --metrics-label, split */
	/* the writer's */
	struct series *series_tail;
	struct hist *hist_tail;
	struct slot **slots;
	size_t nr_slots, alloc_slots;
	struct slot *last;
	struct lv *lvs;			/* open addressing, lv_cap entries (a power of 2) */
	size_t nr_lvs, lv_cap;
	struct lv other;		/* the values past label_max */
	struct strbuf scratch;
};

/* Single writer: a plain load and store, no locked instruction on the hot path. */
static inline void counter_add(_Atomic uint64_t *c, uint64_t n)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + n,
			      memory_order_relaxed);
}

static inline uint64_t counter_get(_Atomic uint64_t *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}

static char *escaped(const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	escape_label(&sb, s, len);
	return strbuf_detach(&sb);
}

static void series_publish(struct metrics *m, struct series *s)
{
	if (m->series_tail)
		atomic_store_explicit(&m->series_tail->next, s, memory_order_release);
	else
		atomic_store_explicit(&m->series_head, s, memory_order_release);
	m->series_tail = s;
}

static struct series *series_new(struct metrics *m, const char *probe, const char *label)
{
	struct series *s = xcalloc(1, sizeof(*s));

	s->probe = escaped(probe, strlen(probe));
	s->label = label ? xstrdup(label) : NULL;
	series_publish(m, s);
	return s;
}

/* The histogram of @func (escaped) and @label (escaped or NULL): an existing one or a new one. */
static struct hist *hist_get(struct metrics *m, const char *func, const char *label)
{
	struct hist *h;

	for (h = m->hist_head; h; h = h->next)
		if (!strcmp(h->func, func) && (h->label == label || (h->label && label &&
							       !strcmp(h->label, label))))
			return h;
	h = xcalloc(1, sizeof(*h));
	h->func = xstrdup(func);
	h->label = label ? xstrdup(label) : NULL;
	if (m->hist_tail)
		atomic_store_explicit(&m->hist_tail->next, h, memory_order_release);
	else
		atomic_store_explicit(&m->hist_head, h, memory_order_release);
	m->hist_tail = h;
	return h;
}

static size_t bucket_of(uint64_t ns)
{
	size_t lo = 0, hi = ARRAY_SIZE(buckets);

	/* the first bucket whose bound is >= ns; ARRAY_SIZE: +Inf */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (buckets[mid].ns >= ns)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static void hist_observe(struct hist *h, uint64_t ns)
{
	uint64_t seq = atomic_load_explicit(&h->seq, memory_order_relaxed);

	atomic_store_explicit(&h->seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	counter_add(&h->count[bucket_of(ns)], 1);
	counter_add(&h->sum_ns, ns);
	atomic_store_explicit(&h->seq, seq + 2, memory_order_release);
}

/* A consistent copy of @h: retried while the writer is inside hist_observe(). */
static void hist_read(struct hist *h, uint64_t *count, uint64_t *sum_ns)
{
	for (unsigned int tries = 0;; tries++) {
		uint64_t seq = atomic_load_explicit(&h->seq, memory_order_acquire);

		if (!(seq & 1)) {
			for (size_t i = 0; i < NR_BUCKETS; i++)
				count[i] = counter_get(&h->count[i]);
			*sum_ns = counter_get(&h->sum_ns);
			atomic_thread_fence(memory_order_acquire);
			if (atomic_load_explicit(&h->seq, memory_order_relaxed) == seq)
				return;
		}
		if (tries >= 64)
			sched_yield();	/* the writer was preempted inside */
	}
}

void metrics_duration(struct metrics *m, const char *func, const char *label, uint64_t ns)
{
	char *f = escaped(func, strlen(func));

	hist_observe(hist_get(m, f, label), ns);
	free(f);
}

static struct slot *slot_new(struct metrics *m, const char *name)
{
	struct slot *sl = xcalloc(1, sizeof(*sl));

	sl->name = xstrdup(name);
	sl->labeled = m->label_probe && !strcmp(name, m->label_probe);
	if (!sl->labeled)
		sl->series = series_new(m, name, NULL);
	ALLOC_GROW(m->slots, m->nr_slots + 1, m->alloc_slots);
	m->slots[m->nr_slots++] = sl;
	return sl;
}

static struct slot *slot_find(struct metrics *m, const char *name)
{
	for (size_t i = 0; i < m->nr_slots; i++)
		if (!strcmp(m->slots[i]->name, name))
			return m->slots[i];
	return NULL;
}

/* The slot of event name @probe: by the decoder's pointer first (the same every time). */
static struct slot *slot_for(struct metrics *m, const char *probe)
{
	struct slot *sl;

	if (m->last && m->last->key == probe)
		return m->last;
	for (size_t i = 0; i < m->nr_slots; i++) {
		if (m->slots[i]->key == probe) {
			m->last = m->slots[i];
			return m->last;
		}
	}
	sl = slot_find(m, probe);
	if (!sl)
		sl = slot_new(m, probe);
	sl->key = probe;
	m->last = sl;
	return sl;
}

void metrics_add_probe(struct metrics *m, const char *name)
{
	if (m && !slot_find(m, name))
		slot_new(m, name);
}

void metrics_forget_probe(struct metrics *m, const char *name)
{
	struct slot *sl = m ? slot_find(m, name) : NULL;

	if (sl)
		sl->key = NULL;
}

/* FNV-1a */
static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The label's value of @ev as text into m->scratch; false when @ev does not carry it. */
static bool label_value(struct metrics *m, struct slot *sl, const struct event *ev)
{
	const struct value *v = NULL;

	if (sl->arg_idx < ev->nr_vals && ev->vals[sl->arg_idx].name &&
	    !strcmp(ev->vals[sl->arg_idx].name, m->label_arg)) {
		v = &ev->vals[sl->arg_idx];
	} else {
		for (size_t i = 0; i < ev->nr_vals && !v; i++) {
			if (ev->vals[i].name && !strcmp(ev->vals[i].name, m->label_arg)) {
				sl->arg_idx = i;
				v = &ev->vals[i];
			}
		}
	}
	if (!v)
		return false;
	strbuf_reset(&m->scratch);
	if (!v->fault && (v->kind == VK_CSTRING || v->kind == VK_LSTRING || v->kind == VK_BYTES))
		strbuf_add(&m->scratch, v->str ? v->str : "", v->len);
	else
		render_value_text(&m->scratch, v);
	return true;
}

/* The entry of the value in m->scratch: found, new, or "other" past label_max values. */
static struct lv *lv_for(struct metrics *m, const char *probe)
{
	const char *raw = m->scratch.buf ? m->scratch.buf : "";
	size_t len = m->scratch.len, i;
	uint64_t h = hash_bytes(raw, len);
	struct lv *e;

	for (i = h & (m->lv_cap - 1);; i = (i + 1) & (m->lv_cap - 1)) {
		e = &m->lvs[i];
		if (!e->raw)
			break;
		if (e->hash == h && e->len == len && !memcmp(e->raw, raw, len))
			return e;
	}
	if (m->nr_lvs >= m->o.label_max) {
		if (!m->other.series) {
			m->other.raw = xstrdup("other");
			m->other.series = series_new(m, probe, "other");
		}
		return &m->other;
	}
	e->hash = h;
	e->raw = xmalloc(len + 1);
	memcpy(e->raw, raw, len);
	e->raw[len] = '\0';
	e->len = len;
	{
		char *lab = escaped(raw, len);

		e->series = series_new(m, probe, lab);
		free(lab);
	}
	m->nr_lvs++;
	return e;
}

/* The call's duration, for a return event that the decoder paired with its entry (calls.c). */
static inline bool event_duration(const struct event *ev, uint64_t *ns)
{
	if (ev->duration_ns < 0)
		return false;
	*ns = (uint64_t)ev->duration_ns;
	return true;
}

/*
 * The histogram of @ev's function (its event name for a probe at an address) and @label:
 * the one cached in *@cache while the event's function is *@cache_func, else looked up.
 */
static struct hist *duration_hist(struct metrics *m, const struct event *ev, const char *label,
				  struct hist **cache, const char **cache_func)
{
	if (!*cache || *cache_func != ev->func) {
		const char *func = ev->func ? ev->func : ev->probe;
		char *f = escaped(func, strlen(func));

		*cache = hist_get(m, f, label);
		*cache_func = ev->func;
		free(f);
	}
	return *cache;
}

void metrics_event(struct metrics *m, const struct event *ev)
{
	struct slot *sl = slot_for(m, ev->probe);
	uint64_t ns;

	if (!sl->labeled) {
		counter_add(&sl->series->events, 1);
		if (event_duration(ev, &ns)) {
			hist_observe(duration_hist(m, ev, NULL, &sl->hist, &sl->hist_func), ns);
		}
		return;
	}
	{
		struct lv *e;

		if (!label_value(m, sl, ev))
			strbuf_reset(&m->scratch);
		e = lv_for(m, sl->name);
		counter_add(&e->series->events, 1);
		if (event_duration(ev, &ns)) {
			hist_observe(duration_hist(m, ev, e->series->label, &e->hist,
						   &e->hist_func), ns);
		}
	}
}

void metrics_lost(struct metrics *m, int cpu, uint64_t nr)
{
	if (cpu < 0 || cpu >= m->nr_cpus) {
		pr_debug("lost events on cpu %d, past the %d known", cpu, m->nr_cpus);
		cpu = m->nr_cpus - 1;
	}
	counter_add(&m->lost[cpu], nr);
}

/* A label name Prometheus takes that is not one of ours; "__" names are reserved. */
static bool label_name_ok(const char *s)
{
	static const char *const ours[] = { "probe", "func", "le", "cpu" };

	if (!*s || isdigit((unsigned char)*s) || !strncmp(s, "__", 2))
		return false;
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return false;
	for (size_t i = 0; i < ARRAY_SIZE(ours); i++)
		if (!strcmp(s, ours[i]))
			return false;
	return true;
}

static int check_label_arg(const char *probe, const char *arg, const struct trace_probe *tps,
			   size_t nr, struct diag *d)
{
	struct strbuf names = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < nr; i++) {
		if (strcmp(tps[i].event, probe))
			continue;
		for (size_t k = 0; k < tps[i].nr_args; k++)
			if (tps[i].args[k].name && !strcmp(tps[i].args[k].name, arg))
				goto out;
		for (size_t k = 0; k < tps[i].nr_args && i == 0; k++)
			strbuf_addf(&names, "%s%s", k ? ", " : "", tps[i].args[k].name);
	}
	ret = diag_error(d, SPAN_NONE, "--metrics-label: probe '%s' has no argument '%s'",
			 probe, arg);
	if (names.len)
		diag_hint(d, "arguments: %s", names.buf);
out:
	strbuf_release(&names);
	return ret;
}

int metrics_check_label(const char *label, const struct trace_probe *tps, size_t nr,
			char *const *extra, size_t nr_extra, struct diag *d)
{
	const char *colon = strchr(label, ':');
	struct strbuf names = STRBUF_INIT;
	char *probe;
	int ret;

	if (!colon || colon == label || !colon[1])
		return diag_error(d, SPAN_NONE, "--metrics-label wants PROBE:ARG, not '%s'", label);
	if (!label_name_ok(colon + 1)) {
		diag_error(d, SPAN_NONE, "--metrics-label: '%s' cannot be a label name", colon + 1);
		diag_hint(d, "letters, digits and '_', not starting with a digit or \"__\", and "
			  "not probe, func, le or cpu");
		return -EINVAL;
	}
	probe = xstrndup(label, colon - label);
	for (size_t i = 0; i < nr; i++) {
		if (!strcmp(tps[i].event, probe)) {
			ret = check_label_arg(probe, colon + 1, tps, nr, d);
			goto out;
		}
	}
	for (size_t i = 0; i < nr_extra; i++) {
		const char *sep = strpbrk(extra[i], ":/");

		if (sep && !strcmp(sep + 1, probe)) {
			ret = 0;	/* an -e event: its fields are known once tracing */
			goto out;
		}
	}
	for (size_t i = 0; i < nr; i++)
		if (!i || strcmp(tps[i].event, tps[i - 1].event))
			strbuf_addf(&names, "%s%s", i ? ", " : "", tps[i].event);
	ret = diag_error(d, SPAN_NONE, "--metrics-label: no probe '%s' in this session", probe);
	if (names.len)
		diag_hint(d, "probes: %s", names.buf);
out:
	strbuf_release(&names);
	free(probe);
	return ret;
}

/* metrics_http_expose_fn of the HTTP server: the format the request accepts, on its thread */
static const char *metrics_expose(void *ctx, const char *accept, struct strbuf *out)
{
	enum metrics_format f = metrics_negotiate(accept);

	metrics_format(ctx, f, out);
	return metrics_content_type(f);
}

struct metrics *metrics_new(const struct metrics_opts *o, struct diag *d)
{
	struct metrics *m = xcalloc(1, sizeof(*m));

	m->o = *o;
	if (!m->o.label_max)
		m->o.label_max = METRICS_LABEL_MAX_DEFAULT;
	if (o->label && strchr(o->label, ':')) {
		const char *colon = strchr(o->label, ':');

		m->label_probe = xstrndup(o->label, colon - o->label);
		m->label_arg = xstrdup(colon + 1);
	}
	/* at most half full: short probe chains */
	for (m->lv_cap = 16; m->lv_cap < 2 * ((size_t)m->o.label_max + 1); m->lv_cap *= 2)
		;
	m->lvs = xcalloc(m->lv_cap, sizeof(*m->lvs));
	m->nr_cpus = get_nprocs_conf();
	if (m->nr_cpus < 1)
		m->nr_cpus = 1;
	m->lost = xcalloc(m->nr_cpus, sizeof(*m->lost));
	strbuf_init(&m->scratch);
	if (o->listen) {
		m->http = metrics_http_start(o->listen, metrics_expose, m, d);
		if (!m->http) {
			metrics_free(m);
			return NULL;
		}
	}
	return m;
}

void metrics_free(struct metrics *m)
{
	struct series *s, *sn;
	struct hist *h, *hn;

	if (!m)
		return;
	metrics_http_stop(m->http);	/* no reader after this */
	for (s = m->series_head; s; s = sn) {
		sn = s->next;
		free(s->probe);
		free(s->label);
		free(s);
	}
	for (h = m->hist_head; h; h = hn) {
		hn = h->next;
		free(h->func);
		free(h->label);
		free(h);
	}
	for (size_t i = 0; i < m->nr_slots; i++) {
		free(m->slots[i]->name);
		free(m->slots[i]);
	}
	free(m->slots);
	for (size_t i = 0; i < m->lv_cap; i++)
		free(m->lvs[i].raw);
	free(m->lvs);
	free(m->other.raw);
	free((void *)m->lost);
	free(m->label_probe);
	free(m->label_arg);
	strbuf_release(&m->scratch);
	free(m);
}

/* "1.5", "0.000123": nanoseconds as seconds, without trailing zeros */
static void add_seconds(struct strbuf *out, uint64_t ns)
{
	char frac[16];
	int n;

	strbuf_addf(out, "%llu", (unsigned long long)(ns / 1000000000));
	if (!(ns % 1000000000))
		return;
	n = snprintf(frac, sizeof(frac), "%09llu", (unsigned long long)(ns % 1000000000));
	while (n > 0 && frac[n - 1] == '0')
		n--;
	strbuf_addf(out, ".%.*s", n, frac);
}

/* # HELP and # TYPE (and # UNIT) of a family: OpenMetrics names it without "_total" */
static void family(struct strbuf *out, bool om, const char *name, const char *type,
		   const char *unit, const char *help)
{
	const char *suffix = !om && !strcmp(type, "counter") ? "_total" : "";

	if (om) {
		strbuf_addf(out, "# TYPE %s %s\n", name, type);
		if (unit)
			strbuf_addf(out, "# UNIT %s %s\n", name, unit);
		strbuf_addf(out, "# HELP %s %s\n", name, help);
	} else {
		strbuf_addf(out, "# HELP %s%s %s\n", name, suffix, help);
		strbuf_addf(out, "# TYPE %s%s %s\n", name, suffix, type);
	}
}

static void format_hist(struct metrics *m, struct hist *h, struct strbuf *out)
{
	uint64_t count[NR_BUCKETS], sum_ns, total = 0;
	struct strbuf lab = STRBUF_INIT;

	hist_read(h, count, &sum_ns);
	strbuf_addf(&lab, "func=\"%s\"", h->func);
	if (h->label)
		strbuf_addf(&lab, ",%s=\"%s\"", m->label_arg, h->label);
	for (size_t i = 0; i < NR_BUCKETS; i++) {
		total += count[i];
		strbuf_addf(out, "upfront_duration_seconds_bucket{%s,le=\"%s\"} %llu\n", lab.buf,
			    i < ARRAY_SIZE(buckets) ? buckets[i].le : "+Inf",
			    (unsigned long long)total);
	}
	strbuf_addf(out, "upfront_duration_seconds_sum{%s} ", lab.buf);
	add_seconds(out, sum_ns);
	strbuf_addf(out, "\nupfront_duration_seconds_count{%s} %llu\n", lab.buf,
		    (unsigned long long)total);
	strbuf_release(&lab);
}

void metrics_format(struct metrics *m, enum metrics_format f, struct strbuf *out)
{
	bool om = f == METRICS_OPENMETRICS;
	struct series *s;
	struct hist *h;

	family(out, om, "upfront_events", "counter", NULL,
	       "Events of each probe (and -e event) that upfront decoded.");
	for (s = atomic_load_explicit(&m->series_head, memory_order_acquire); s;
	     s = atomic_load_explicit(&s->next, memory_order_acquire)) {
		strbuf_addf(out, "upfront_events_total{probe=\"%s\"", s->probe);
		if (s->label)
			strbuf_addf(out, ",%s=\"%s\"", m->label_arg, s->label);
		strbuf_addf(out, "} %llu\n", (unsigned long long)counter_get(&s->events));
	}
	family(out, om, "upfront_lost_events", "counter", NULL,
	       "Events the kernel's ring buffer of each CPU lost, as far as it told.");
	for (int cpu = 0; cpu < m->nr_cpus; cpu++)
		strbuf_addf(out, "upfront_lost_events_total{cpu=\"%d\"} %llu\n", cpu,
			    (unsigned long long)counter_get(&m->lost[cpu]));
	h = atomic_load_explicit(&m->hist_head, memory_order_acquire);
	if (h)
		family(out, om, "upfront_duration_seconds", "histogram", "seconds",
		       "Calls from FUNC to FUNC%return, paired per thread (per goroutine in Go).");
	for (; h; h = atomic_load_explicit(&h->next, memory_order_acquire))
		format_hist(m, h, out);
	if (om)
		strbuf_addstr(out, "# EOF\n");
}

/* the media range @r (up to @end) with its parameters: whether it is OpenMetrics with q > 0 */
static bool accepts_openmetrics(const char *r, const char *end)
{
	static const char om[] = "application/openmetrics-text";
	const char *semi;

	while (r < end && isspace((unsigned char)*r))
		r++;
	if ((size_t)(end - r) < sizeof(om) - 1 || strncasecmp(r, om, sizeof(om) - 1))
		return false;
	r += sizeof(om) - 1;
	while (r < end && isspace((unsigned char)*r))
		r++;
	if (r < end && *r != ';')
		return false;	/* application/openmetrics-textfoo */
	for (semi = r; semi && semi < end; semi = memchr(semi + 1, ';', end - semi - 1)) {
		const char *p = semi + 1;

		while (p < end && isspace((unsigned char)*p))
			p++;
		if (end - p >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=')
			return strtod(p + 2, NULL) > 0;
	}
	return true;
}

enum metrics_format metrics_negotiate(const char *accept)
{
	const char *p = accept;

	while (p && *p) {
		const char *comma = strchr(p, ',');
		const char *end = comma ? comma : p + strlen(p);

		if (accepts_openmetrics(p, end))
			return METRICS_OPENMETRICS;
		p = comma ? comma + 1 : NULL;
	}
	return METRICS_TEXT;
}

const char *metrics_content_type(enum metrics_format f)
{
	return f == METRICS_OPENMETRICS ?
		"application/openmetrics-text; version=1.0.0; charset=utf-8" :
		"text/plain; version=0.0.4; charset=utf-8";
}
