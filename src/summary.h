/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary.h - the aggregates (agg.h) as a summary: text with histograms as bpftrace prints
 * hist(), or one JSON object; and the bucket labels the curses statistics share with it
 */
#ifndef UPF_SUMMARY_H
#define UPF_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>

#include "util.h"

struct agg;

#define SUMMARY_TOP_DEFAULT 10

struct summary_opts {
	uint64_t span_ns;	/* the time the rates are over: the run so far, or a replay's */
	unsigned int top;	/* values listed per argument that is no number; 0: the default */
	bool final;		/* at exit (else an interval's or SIGUSR1's) */
};

/**
 * summary_text() - per probe its count and rate; per argument count, min, avg, max and a log2
 * histogram (numbers) or its most frequent values (strings, enums, symbols, types); per
 * function with %return its durations' histogram and percentiles
 * @sb: appended to, whole lines
 */
void summary_text(struct agg *a, const struct summary_opts *o, struct strbuf *sb);

/**
 * summary_json() - the same numbers as one JSON object on one line ({"summary":{...}}\n);
 * times in seconds, as the events' "duration"
 * @sb: appended to
 */
void summary_json(struct agg *a, const struct summary_opts *o, struct strbuf *sb);

/**
 * summary_bucket_label() - the range of log2 bucket @b as bpftrace labels it: "[0]", "[1]",
 * "[4, 8)", "[1K, 2K)"; @neg: of the negative values ("[-1]", "(-8, -4]"); @real: of a float
 * argument (bucket 0 is "[0, 1)")
 * @sb: appended to
 */
void summary_bucket_label(struct strbuf *sb, int b, bool neg, bool real);

/**
 * summary_duration_label() - the range of duration bucket @b: "[0, 1ns)", "[512ns, 1us)"
 * @sb: appended to
 */
void summary_duration_label(struct strbuf *sb, int b);

#endif
