/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pfilter.h - --filter [PROBE:]EXPR: which probes a filter is for, the part the kernel
 * decides (its event filter) and the part upfront decides on decoded events (duration)
 */
#ifndef UPF_PFILTER_H
#define UPF_PFILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

struct event;
struct trace_probe;
struct pfilters;

/**
 * pfilters_new() - the filters of the command line, each "[PROBE:]EXPR"
 * @texts: the --filter arguments, in order; PROBE is an event name or a glob of them (job,
 *	   job__return, 'get*'); without one the filter is for every probe
 * @d: filled when one is malformed: a user-side term that is not "duration OP N UNIT" or
 *     is not and-ed with the rest (exit status 2)
 * Return: for pfilters_free(), or NULL; an empty set for @nr == 0.
 */
struct pfilters *pfilters_new(char *const *texts, size_t nr, struct diag *d);

/**
 * pfilters_free() - accepts NULL
 */
void pfilters_free(struct pfilters *f);

/**
 * pfilters_check() - every PROBE names a probe of @tps; a filter for every probe names no
 * field one of them lacks; duration only on return probes paired with their entries.
 * Remembers the functions whose entries are filtered in the kernel (their unpaired returns
 * are dropped: their calls were filtered out).
 * @d: filled naming the probe and what it has instead
 * Return: 0, or -EINVAL.
 */
int pfilters_check(struct pfilters *f, const struct trace_probe *tps, size_t nr, struct diag *d);

/**
 * pfilters_kernel() - the kernel filter for @tp's event: the kernel parts of the filters
 * for it, and-ed
 * Return: a string for free(), or NULL when none applies.
 */
char *pfilters_kernel(const struct pfilters *f, const struct trace_probe *tp);

/**
 * pfilters_kernel_hint() - why the kernel may have rejected filter @filter of @tp's event,
 * as a hint in @d, when it names a value the kernel cannot compare: text with a length
 * (fetched in chunks: u64 words, char[N] or u8[N], numbers to the kernel; kernel filters
 * compare text only in :string fields) or a constant upfront keeps (fallback.h)
 */
void pfilters_kernel_hint(const struct trace_probe *tp, const char *filter, struct diag *d);

/**
 * pfilters_wants_events() - there are user-side predicates: call pfilters_pass() per event
 */
bool pfilters_wants_events(const struct pfilters *f);

/**
 * pfilters_pass() - whether decoded event @ev passes the user-side predicates of its probe
 */
bool pfilters_pass(const struct pfilters *f, const struct event *ev);

#endif
