/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * agg.h - aggregates of decoded events: per probe its count and time span, per argument the
 * numbers' min/avg/max and log2 histogram or the most frequent values, per function with
 * %return the call durations. One module feeds the curses statistics and the summary at exit
 * (summary.h), live or replayed.
 */
#ifndef UPF_AGG_H
#define UPF_AGG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct event;
struct value;
struct trace_arg;

#define AGG_BUCKETS	65		/* log2 buckets: [0] is 0, [b] is [2^(b-1), 2^b) */
#define AGG_TOP_CAP	256		/* distinct values counted per argument */
#define AGG_TOP_KEY_MAX	64		/* bytes of a value kept as its key */
#define AGG_SAMPLES_MAX	100000		/* durations kept per function for exact percentiles */

/* One distinct value of an argument that is no number. */
struct agg_top {
	char *key;		/* NULL: a free slot */
	uint32_t len;
	uint8_t kind;		/* enum value_kind */
	uint64_t num;		/* the number beside the text (an enum's value) */
	uint64_t count;
};

/* Aggregates of one argument of a probe, over every event. */
struct agg_arg {
	uint64_t n;
	uint64_t faults;
	bool numeric;
	bool real;		/* floats were counted: bucket 0 is [0, 1) */
	bool seen;		/* min and max are set */
	double sum;
	double min;
	double max;
	uint64_t pos[AGG_BUCKETS];	/* log2 buckets of the magnitude of values >= 0 */
	uint64_t neg[AGG_BUCKETS];	/* and of values < 0 */
	struct agg_top *top;		/* AGG_TOP_CAP slots, open addressing */
	size_t top_used;
	uint64_t other;			/* values that did not fit in the table */
};

/* The durations of one function's calls (return events paired with their entries). */
struct agg_lat {
	char *func;			/* the function, or NULL (a probe at an address) */
	uint64_t n;
	uint64_t sum, min, max;		/* ns */
	uint64_t buckets[AGG_BUCKETS];	/* log2 buckets of ns */
	uint64_t *samples;		/* the first AGG_SAMPLES_MAX durations */
	size_t nr_samples, alloc_samples;
	bool sorted;
};

/* One event name of the stream. */
struct agg_probe {
	char *name;
	size_t nr_vals;
	char **val_names;
	const struct trace_arg **args;	/* the values' arguments (NULL: none, a replay) */
	struct agg_arg *st;
	struct agg_lat *lat;
	size_t nr_lat, alloc_lat;
	bool retired;			/* removed: a new probe of that name starts anew */
	struct agg_arg comms;		/* the events' process names, as top values */
	uint64_t count;
	uint64_t first_ts, last_ts;	/* ns, of its first and last event */
};

/* Every probe's aggregates; filled from one thread, read from the same. */
struct agg {
	struct agg_probe **p;
	size_t nr, alloc;
	size_t last;			/* the probe of the last event (a cache) */
	uint64_t events;
	uint64_t lost;
	uint64_t first_ts, last_ts;
};

/**
 * agg_new() - empty aggregates
 * Return: for agg_free().
 */
struct agg *agg_new(void);

/**
 * agg_free() - free @a and everything in it; accepts NULL
 */
void agg_free(struct agg *a);

/**
 * agg_find() - the probe named @name that is not retired
 * @create: make it when there is none
 * Return: borrowed, valid until agg_free(); NULL when not found and not created.
 */
struct agg_probe *agg_find(struct agg *a, const char *name, bool create);

/**
 * agg_event() - count @ev: its probe, each value, its duration when it carries one
 * @ev: borrowed for the call
 * Return: the probe it was counted in (borrowed).
 */
struct agg_probe *agg_event(struct agg *a, const struct event *ev);

/**
 * agg_retire() - probe @name was removed: its aggregates stay, a new probe of that name
 * gets new ones
 */
void agg_retire(struct agg *a, const char *name);

/**
 * agg_lost() - @nr events were lost
 */
void agg_lost(struct agg *a, uint64_t nr);

/**
 * agg_count_value() - count @v in @st (agg_event() does it for each value; replays and tests
 * call it directly)
 */
void agg_count_value(struct agg_arg *st, const struct value *v);

/**
 * agg_count_duration() - count a call of @func (NULL: unnamed) that took @ns in @p
 */
void agg_count_duration(struct agg_probe *p, const char *func, uint64_t ns);

/**
 * agg_probe_learn() - names and arguments for values beyond the @p->nr_vals known so far
 * @names: @n names (copied); @args: @n arguments, or NULL
 */
void agg_probe_learn(struct agg_probe *p, size_t n, const char *const *names,
		     const struct trace_arg *const *args);

/**
 * agg_top_sorted() - @st's distinct values, most frequent first (ties: the first seen order
 * of the table)
 * @out: set to an array for free() (pointers borrowed from @st)
 * Return: how many.
 */
size_t agg_top_sorted(const struct agg_arg *st, const struct agg_top ***out);

/**
 * agg_top_value() - a distinct value as a struct value, for render_value_text() and JSON
 * @v: filled; its strings point into @e
 */
void agg_top_value(const struct agg_top *e, struct value *v);

/**
 * agg_percentile() - the @pct percentile (0 < @pct <= 100) of @l's durations, in ns:
 * nearest rank over the kept samples (exact while @l->n <= AGG_SAMPLES_MAX); past that, the
 * upper bound of the log2 bucket it falls in (capped by the max).
 * @exact: if not NULL, set to whether the value is exact
 */
uint64_t agg_percentile(struct agg_lat *l, double pct, bool *exact);

/**
 * agg_bucket_span() - the log2 buckets @b[0..AGG_BUCKETS) a histogram shows: the first and
 * the last that is not empty in *@lo and *@hi (AGG_BUCKETS and -1 when all are)
 * Return: the largest count, 0 when all are empty.
 */
uint64_t agg_bucket_span(const uint64_t *b, int *lo, int *hi);

/**
 * agg_float_bucket() - the log2 bucket of a float's magnitude (0 below 1, 64 for inf/nan)
 */
int agg_float_bucket(double f);

/**
 * agg_bucket() - the log2 bucket of @v: 0 for 0, else 64 - clz
 */
static inline int agg_bucket(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

#endif
