/* SPDX-License-Identifier: GPL-2.0-or-later */
/* session.h - trace mode: private group and instance, stream, decode, render, clean exit */
#ifndef UPF_SESSION_H
#define UPF_SESSION_H

#include <stdbool.h>
#include <sys/types.h>

#include "debuginfo.h"
#include "diag.h"
#include "fetcharg.h"

struct resolve_opts;
struct metrics_opts;
struct run_as;

enum render_mode { RENDER_AUTO, RENDER_TEXT, RENDER_JSON, RENDER_TUI };

struct trace_opts {
	enum render_mode mode;		/* AUTO: TUI on a terminal, text otherwise */
	const char *output;		/* -o FILE: events go there instead of stdout */
	char **cmd;			/* -- CMD ARGS (NULL-terminated), or NULL */
	pid_t *pids;			/* -p PID ... */
	size_t nr_pids;
	bool no_inherit;		/* --no-inherit: not the children -p or CMD fork */
	unsigned long max_events;	/* 0: no limit */
	double duration;		/* seconds, 0: no limit */
	char *const *filters;		/* --filter [PROBE:]EXPR ... (pfilter.h) */
	size_t nr_filters;
	char **extra_events;		/* -e SYS:EVENT ... */
	size_t nr_extra_events;
	bool summary;			/* --summary: the aggregates at exit (and on SIGUSR1) */
	bool summary_only;		/* --summary-only: no events, only the summary */
	double interval;		/* --interval SECS: a summary every SECS, 0: none */
	unsigned int top;		/* --top N: values listed per argument, 0: default */
	bool keep;			/* --keep */
	bool stack;			/* --stack */
	unsigned int stack_copy;	/* --stack=dwarf: bytes of stack copied with each event;
					   0: the kernel's frame-pointer walk (--stack=fp) */
	unsigned int string_size;
	unsigned long ring_size;	/* --ring or UPFRONT_RING: events the curses view keeps,
					   0: its default */
	unsigned long buffer_kb;	/* UPFRONT_BUFFER_KB: per-CPU ring buffer, 0: default */
	unsigned int queue_pages;	/* UPFRONT_QUEUE_PAGES: per-CPU queue, 0: default */
	const struct run_as *run_as;	/* who CMD runs as (-u, sudo); NULL: as upfront */
	struct debuginfo *dbg;		/* the binary (symbolizing, adding probes in the TUI) */
	bool cmd_is_dbg;		/* @dbg is CMD's binary, as upfront opened and probed
					 * it: CMD runs that file (fexecve), no new PATH lookup */
	const struct resolve_opts *ropts;
	const struct metrics_opts *metrics;	/* --metrics: serve statistics, or NULL */
};

/**
 * trace_run() - install @tps (their group is replaced by the session's own), enable them in
 * a private instance, stream and render every hit until an exit condition, then drain,
 * print the summary and remove everything added (unless --keep)
 * Return: exit status for main() (0 clean, 1 failure, 2 bad input), @d filled on error.
 */
int trace_run(const struct trace_opts *o, struct trace_probe *tps, size_t nr, struct diag *d);

/*
 * The running session, for renderers (render.h): all of these are called from the session's
 * one thread (inside a render op), never from a signal handler or another thread.
 */
struct session;

/* One tracefs event of the session: a probe event (several probe points may share it) or
 * an -e event shown generically. */
struct session_event {
	char *sys;
	char *name;
	const struct trace_probe *tp;	/* the first probe point; NULL for -e events */
	bool generic;
	bool removed;
	bool part;			/* a probe point the kernel got as an event of its own
					 * (trace_probe.merged): shown, counted and removed as
					 * the event of that name, not listed */
	char *merged;			/* part: the name of that event */
	uint64_t count;			/* events of it rendered so far */
};

/**
 * session_add_probe_text() - resolve PROBE text as on the command line (against the binary
 * of trace_opts.dbg), add it to the session's group, enable it in the instance; its events
 * flow through the same stream. Return: 0, or -errno with @d filled (nothing left added).
 */
int session_add_probe_text(struct session *s, const char *text, struct diag *d);

/**
 * session_remove_event() - stop showing event @name (a probe event of the session, or
 * "sys:event" of an -e event): disable it (about 49 ms) and, for a probe, delete it.
 */
int session_remove_event(struct session *s, const char *name, struct diag *d);

/**
 * session_nr_events() - how many events the session has had, removed ones included;
 * session_event() - the @i-th, in the order added, borrowed; NULL past the end and for a
 * part of another (session_event.part)
 */
size_t session_nr_events(const struct session *s);
const struct session_event *session_event(const struct session *s, size_t i);

/**
 * session_counters() - events rendered and events lost so far; either may be NULL
 */
void session_counters(const struct session *s, uint64_t *events, uint64_t *lost);

#endif
