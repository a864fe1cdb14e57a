// SPDX-License-Identifier: GPL-2.0-or-later
/* agg.c - aggregates of decoded events: counts, numbers, top values, call durations */
#define LOG_DOMAIN "agg"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "agg.h"
#include "decode.h"
#include "log.h"
#include "render.h"
#include "util.h"

struct agg *agg_new(void)
{
	return xcalloc(1, sizeof(struct agg));
}

static void probe_free(struct agg_probe *p)
{
	for (size_t i = 0; i < p->nr_vals; i++) {
		free(p->val_names[i]);
		if (p->st[i].top) {
			for (size_t k = 0; k < AGG_TOP_CAP; k++)
				free(p->st[i].top[k].key);
			free(p->st[i].top);
		}
	}
	if (p->comms.top) {
		for (size_t k = 0; k < AGG_TOP_CAP; k++)
			free(p->comms.top[k].key);
		free(p->comms.top);
	}
	for (size_t i = 0; i < p->nr_lat; i++) {
		free(p->lat[i].func);
		free(p->lat[i].samples);
	}
	free(p->lat);
	free(p->val_names);
	free(p->args);
	free(p->st);
	free(p->name);
	free(p);
}

void agg_free(struct agg *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nr; i++)
		probe_free(a->p[i]);
	free(a->p);
	free(a);
}

struct agg_probe *agg_find(struct agg *a, const char *name, bool create)
{
	struct agg_probe *p;

	if (a->nr && !a->p[a->last]->retired && !strcmp(a->p[a->last]->name, name))
		return a->p[a->last];
	for (size_t i = 0; i < a->nr; i++) {
		if (!a->p[i]->retired && !strcmp(a->p[i]->name, name)) {
			a->last = i;
			return a->p[i];
		}
	}
	if (!create)
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->name = xstrdup(name);
	ALLOC_GROW(a->p, a->nr + 1, a->alloc);
	a->last = a->nr;
	a->p[a->nr++] = p;
	return p;
}

void agg_retire(struct agg *a, const char *name)
{
	struct agg_probe *p = agg_find(a, name, false);

	if (p)
		p->retired = true;
}

void agg_lost(struct agg *a, uint64_t nr)
{
	a->lost += nr;
}

void agg_probe_learn(struct agg_probe *p, size_t n, const char *const *names,
		     const struct trace_arg *const *args)
{
	if (n <= p->nr_vals)
		return;
	p->val_names = xrealloc(p->val_names, n * sizeof(*p->val_names));
	p->args = xrealloc(p->args, n * sizeof(*p->args));
	p->st = xrealloc(p->st, n * sizeof(*p->st));
	for (size_t i = p->nr_vals; i < n; i++) {
		p->val_names[i] = xstrdup(names[i] ? names[i] : "?");
		p->args[i] = args ? args[i] : NULL;
		memset(&p->st[i], 0, sizeof(p->st[i]));
	}
	p->nr_vals = n;
}

static void top_count(struct agg_arg *a, uint8_t kind, const char *key, size_t len, uint64_t num)
{
	uint64_t h = 1469598103934665603ULL ^ num;
	size_t i;

	if (len > AGG_TOP_KEY_MAX)
		len = AGG_TOP_KEY_MAX;
	for (size_t k = 0; k < len; k++)
		h = (h ^ (unsigned char)key[k]) * 1099511628211ULL;
	if (!a->top)
		a->top = xcalloc(AGG_TOP_CAP, sizeof(*a->top));
	for (i = h & (AGG_TOP_CAP - 1);; i = (i + 1) & (AGG_TOP_CAP - 1)) {
		struct agg_top *e = &a->top[i];

		if (!e->key) {
			if (a->top_used >= AGG_TOP_CAP * 3 / 4) {
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

int agg_float_bucket(double v)
{
	double f = fabs(v);
	int b = 0;

	if (isfinite(f) && f >= 1.0) {
		b = ilogb(f) + 1;
		b = b > 64 ? 64 : b;
	} else if (!isfinite(f)) {
		b = 64;
	}
	return b;
}

void agg_count_value(struct agg_arg *a, const struct value *v)
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
			a->neg[agg_bucket(-(uint64_t)v->num.s)]++;
		else
			a->pos[agg_bucket(v->num.s)]++;
		break;
	case VK_UNSIGNED:
		d = (double)v->num.u;
		a->pos[agg_bucket(v->num.u)]++;
		break;
	case VK_FLOAT:
		d = v->num.f;
		a->real = true;
		(v->num.f < 0 ? a->neg : a->pos)[agg_float_bucket(v->num.f)]++;
		break;
	case VK_CSTRING:
	case VK_LSTRING:
	case VK_BYTES:
		top_count(a, v->kind, v->str ? v->str : "", v->len, 0);
		return;
	case VK_STRUCT:
	case VK_ARRAY:
	case VK_MAP:
	case VK_COMPLEX:
	case VK_INT128: {
		/* a whole value, a Go map, a number of two words: counted by the text it is shown
		 * as (a VK_TYPENAME) */
		struct strbuf sb = STRBUF_INIT;

		render_value_text(&sb, v);
		top_count(a, VK_TYPENAME, strbuf_cstr(&sb), sb.len, 0);
		strbuf_release(&sb);
		return;
	}
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

void agg_count_duration(struct agg_probe *p, const char *func, uint64_t ns)
{
	struct agg_lat *l = NULL;

	/* one function per event, or a few (a glob's points share an event) */
	for (size_t i = 0; i < p->nr_lat && !l; i++)
		if (func ? p->lat[i].func && !strcmp(p->lat[i].func, func) : !p->lat[i].func)
			l = &p->lat[i];
	if (!l) {
		ALLOC_GROW(p->lat, p->nr_lat + 1, p->alloc_lat);
		l = &p->lat[p->nr_lat++];
		memset(l, 0, sizeof(*l));
		l->func = func ? xstrdup(func) : NULL;
		l->min = UINT64_MAX;
	}
	l->n++;
	l->sum += ns;
	l->min = ns < l->min ? ns : l->min;
	l->max = ns > l->max ? ns : l->max;
	l->buckets[agg_bucket(ns)]++;
	if (l->nr_samples < AGG_SAMPLES_MAX) {
		ALLOC_GROW(l->samples, l->nr_samples + 1, l->alloc_samples);
		l->samples[l->nr_samples++] = ns;
		l->sorted = false;
	}
}

struct agg_probe *agg_event(struct agg *a, const struct event *ev)
{
	struct agg_probe *p = agg_find(a, ev->probe, true);

	if (ev->nr_vals > p->nr_vals) {
		const char *names[ev->nr_vals];
		const struct trace_arg *args[ev->nr_vals];

		for (size_t i = 0; i < ev->nr_vals; i++) {
			names[i] = ev->vals[i].name;
			args[i] = ev->vals[i].arg;
		}
		agg_probe_learn(p, ev->nr_vals, names, args);
	}
	if (!p->count)
		p->first_ts = ev->ts;
	p->last_ts = ev->ts;
	p->count++;
	if (!a->events)
		a->first_ts = ev->ts;
	a->last_ts = ev->ts;
	a->events++;
	if (ev->duration_ns >= 0)
		agg_count_duration(p, ev->func, (uint64_t)ev->duration_ns);
	/* bpftrace's @[comm] = count() */
	top_count(&p->comms, VK_LSTRING, ev->comm, strnlen(ev->comm, sizeof(ev->comm)), 0);
	p->comms.n++;
	for (size_t i = 0; i < ev->nr_vals; i++)
		agg_count_value(&p->st[i], &ev->vals[i]);
	return p;
}

static int top_cmp(const void *x, const void *y)
{
	const struct agg_top *a = *(const struct agg_top *const *)x;
	const struct agg_top *b = *(const struct agg_top *const *)y;

	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	/* equal counts: a stable order that does not depend on the hash table */
	{
		size_t n = a->len < b->len ? a->len : b->len;
		int c = memcmp(a->key, b->key, n);

		if (c)
			return c;
		if (a->len != b->len)
			return a->len < b->len ? -1 : 1;
		return a->num < b->num ? -1 : a->num > b->num;
	}
}

size_t agg_top_sorted(const struct agg_arg *st, const struct agg_top ***out)
{
	const struct agg_top **v = xmalloc((st->top_used + 1) * sizeof(*v));
	size_t nv = 0;

	for (size_t k = 0; st->top && k < AGG_TOP_CAP; k++)
		if (st->top[k].key)
			v[nv++] = &st->top[k];
	qsort(v, nv, sizeof(*v), top_cmp);
	*out = v;
	return nv;
}

void agg_top_value(const struct agg_top *e, struct value *v)
{
	memset(v, 0, sizeof(*v));
	v->kind = (enum value_kind)e->kind;
	v->num.u = e->num;
	if (v->kind == VK_CSTRING || v->kind == VK_LSTRING || v->kind == VK_BYTES) {
		v->str = e->key;
		v->len = e->len;
	} else {
		v->text = e->len ? e->key : NULL;
	}
}

static int u64_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

uint64_t agg_bucket_span(const uint64_t *b, int *lo, int *hi)
{
	uint64_t peak = 0;

	*lo = AGG_BUCKETS;
	*hi = -1;
	for (int i = 0; i < AGG_BUCKETS; i++) {
		if (b[i]) {
			*lo = i < *lo ? i : *lo;
			*hi = i;
		}
		peak = b[i] > peak ? b[i] : peak;
	}
	return peak;
}

uint64_t agg_percentile(struct agg_lat *l, double pct, bool *exact)
{
	/* nearest rank: the smallest value with at least pct% of the values at or below it */
	uint64_t rank = (uint64_t)ceil(pct / 100.0 * (double)l->n), seen = 0;

	if (!l->n)
		return 0;
	rank = rank ? rank : 1;
	if (exact)
		*exact = l->n == l->nr_samples;
	if (l->n == l->nr_samples) {
		if (!l->sorted) {
			qsort(l->samples, l->nr_samples, sizeof(*l->samples), u64_cmp);
			l->sorted = true;
		}
		return l->samples[rank - 1];
	}
	for (int b = 0; b < AGG_BUCKETS; b++) {
		seen += l->buckets[b];
		if (seen >= rank) {
			uint64_t hi = b >= 64 ? UINT64_MAX : (1ULL << b);

			return hi < l->max ? hi : l->max;
		}
	}
	return l->max;
}
