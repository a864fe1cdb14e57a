/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics.h - the session's statistics as Prometheus/OpenMetrics text, served over HTTP */
#ifndef UPF_METRICS_H
#define UPF_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "metrics-http.h"
#include "util.h"

struct event;
struct trace_probe;
struct metrics;

#define METRICS_LABEL_MAX_DEFAULT 100

/* What --metrics, --metrics-label and --metrics-label-max asked for. */
struct metrics_opts {
	const char *listen;		/* "ADDR:PORT"; NULL: no HTTP endpoint (tests) */
	const char *label;		/* "PROBE:ARG", or NULL */
	unsigned int label_max;		/* distinct values of ARG before "other"; 0: default */
};

/* The two exposition formats. */
enum metrics_format {
	METRICS_TEXT,		/* Prometheus text format 0.0.4 */
	METRICS_OPENMETRICS,	/* OpenMetrics 1.0.0 text */
};

/**
 * metrics_check_label() - whether --metrics-label PROBE:ARG names an event of the session
 * and, for a probe of @tps, one of its arguments; and ARG is a label name Prometheus takes
 * @label: "PROBE:ARG"
 * @tps: the session's probes (their EVENT names and argument names)
 * @extra: the -e events ("SYS:EVENT"); their fields are not known here and not checked
 * @d: filled when not, with the probes or arguments there are as a hint
 * Return: 0, or -EINVAL.
 */
int metrics_check_label(const char *label, const struct trace_probe *tps, size_t nr,
			char *const *extra, size_t nr_extra, struct diag *d);

/**
 * metrics_new() - empty statistics; when @o->listen is set, also listen there and serve
 * them at /metrics from a thread of libmicrohttpd's
 * @o: the options (copied)
 * @d: filled on failure: a bad address, a port in use (exit status 2 either way)
 * Return: statistics for metrics_free(), or NULL.
 *
 * Threads: everything below but metrics_format() is called from the session's one thread
 * (the writer); metrics_format() may run on any thread at the same time (the HTTP thread).
 * The writer never takes a lock: counters are single-writer atomics, a histogram is
 * updated under a sequence count its readers retry on, and new series are published
 * whole onto lists that only grow.
 */
struct metrics *metrics_new(const struct metrics_opts *o, struct diag *d);

/**
 * metrics_free() - stop serving, then free everything; accepts NULL
 */
void metrics_free(struct metrics *m);

/**
 * metrics_add_probe() - an event of the session: its counter shows 0 until it counts
 * (not for the probe of --metrics-label, whose series are made by the values that come)
 * @name: the event's name, as event.probe will carry it (copied)
 */
void metrics_add_probe(struct metrics *m, const char *name);

/**
 * metrics_forget_probe() - event @name was removed: its counters stay, but event.probe
 * pointers remembered for it are dropped (the decoder may reuse the memory)
 */
void metrics_forget_probe(struct metrics *m, const char *name);

/**
 * metrics_event() - count one decoded event; observe its duration when it carries one
 * @ev: borrowed for the call
 */
void metrics_event(struct metrics *m, const struct event *ev);

/**
 * metrics_duration() - observe one call of @func that took @ns nanoseconds
 * @func: the function (the histogram's func label)
 * @label: the --metrics-label value already escaped for the format (escape_label()),
 *         or NULL for the function's unlabeled histogram
 *
 * metrics_event() calls it for events with a duration; tests call it directly.
 */
void metrics_duration(struct metrics *m, const char *func, const char *label, uint64_t ns);

/**
 * metrics_lost() - @nr events were lost on @cpu (the stream's STREAM_LOST)
 */
void metrics_lost(struct metrics *m, int cpu, uint64_t nr);

/**
 * metrics_format() - the statistics now, in format @f; safe while the writer runs
 * @out: appended to
 */
void metrics_format(struct metrics *m, enum metrics_format f, struct strbuf *out);

/**
 * metrics_negotiate() - the format for an HTTP Accept header (NULL: none sent):
 * OpenMetrics when it lists application/openmetrics-text (with a q above 0), else text
 */
enum metrics_format metrics_negotiate(const char *accept);

/**
 * metrics_content_type() - the Content-Type of format @f
 */
const char *metrics_content_type(enum metrics_format f);

#endif
