/* SPDX-License-Identifier: GPL-2.0-or-later */
/* resolve.h - probe_spec + DWARF -> struct trace_probe (what the kernel gets) */
#ifndef UPF_RESOLVE_H
#define UPF_RESOLVE_H

#include "debuginfo.h"
#include "fetcharg.h"
#include "probe.h"

/* --value-size's default: record bytes of an event's whole values (structs shown alone) */
#define RESOLVE_VALUE_SIZE 2048
/*
 * --string-size's default: bytes captured of a string with a length. The kernel reads its
 * words one user access each (~29 ns a word on 6.18, against ~470 ns for the probe alone);
 * 96 is the largest size that kept the Go probe under 1.9x the probe alone (issue 22's 2x less
 * this machine's run-to-run noise): 128 measured 2.00-2.07x, 112 1.92-1.94x, 96 1.80-1.82x
 * (bench/string-cost.sh, doc/performance.md)
 */
#define RESOLVE_STRING_SIZE 96

struct resolve_opts {
	const char *group;		/* NULL: "probe_<binary>" as perf names it */
	unsigned int string_size;	/* bytes captured of strings with a length (0: the
					 * default, RESOLVE_STRING_SIZE) */
	unsigned int value_size;	/* record bytes of the whole structs/arrays/slices of an
					 * event together (0: the default, RESOLVE_VALUE_SIZE) */
	struct kernel_features kf;	/* what the running kernel accepts */
	bool text_bytes;		/* text chunks as byte arrays that perf and trace-cmd
					 * show (-a, --keep), not u64 words (a live session) */
};

/**
 * resolve_probe() - turn one parsed probe into kernel probes, one per probe site
 * @spec: from parse_probe()
 * @tps: array owned by the caller, freed with trace_probes_free(); event names are
 *       C identifiers; sites of one glob whose fields agree share one event name
 * @skipped: when not NULL, gets "NAME (why)" for each match of a FUNC glob that cannot be
 *           probed (place_resolve()); a match without the arguments is skipped quietly (-v)
 * Return: 0, or a negative errno with @d naming the token (spans index spec->text).
 */
int resolve_probe(const struct probe_spec *spec, struct debuginfo *dbg,
		  const struct resolve_opts *o, struct trace_probe **tps, size_t *nr,
		  struct strlist *skipped, struct diag *d);

/**
 * trace_probes_free() - release each of @nr probes and free the array; accepts NULL
 */
void trace_probes_free(struct trace_probe *tps, size_t nr);

/**
 * resolve_default_group() - the group -D and -a use without -g, as perf probe names it:
 * "probe_" and the binary's basename up to its first character that is not a letter, a digit
 * or '_' (libc.so.6: probe_libc; c_O2: probe_c_O2; my-tool.x1: probe_my)
 * @binary: the binary's path or basename
 * Return: the group, for free().
 */
char *resolve_default_group(const char *binary);

/**
 * resolve_uniq_events() - make event names unique across probes from different specs
 * (perf appends _1, _2 ...); probes that share a name on purpose (one spec) keep it
 * @tps: the probes of every spec, in order; renamed in place
 * @spec_of: the spec each probe came from (the probes of one spec are in one group)
 *
 * A probe whose name an earlier probe of another spec has takes, with every probe of its
 * spec of that name, the first NAME_1, NAME_2 ... that no probe has. Linear in @nr.
 */
void resolve_uniq_events(struct trace_probe *tps, size_t nr, const size_t *spec_of);

/**
 * resolve_list_vars() - -V: the variables available at a place with their types, perf-like,
 * printed from query_vars() (query.c):
 *   Available variables at main.(*server).handleRequest
 *           @<main.(*server).handleRequest+0x0>
 *                   *dns.Msg        r
 *                   int     n       (optimized out here)
 * Return: 0, or a negative errno with @d filled (an unknown place).
 */
int resolve_list_vars(const struct probe_spec *spec, struct debuginfo *dbg,
		      const struct resolve_opts *o, struct strbuf *out, struct diag *d);

#endif
