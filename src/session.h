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

enum render_mode { RENDER_AUTO, RENDER_TEXT, RENDER_JSON, RENDER_TUI };

struct trace_opts {
	enum render_mode mode;		/* AUTO: TUI on a terminal, text otherwise */
	char **cmd;			/* -- CMD ARGS (NULL-terminated), or NULL */
	pid_t *pids;			/* -p PID ... */
	size_t nr_pids;
	unsigned long max_events;	/* 0: no limit */
	double duration;		/* seconds, 0: no limit */
	const char *filter;		/* --filter */
	char **extra_events;		/* -e SYS:EVENT ... */
	size_t nr_extra_events;
	bool keep;			/* --keep */
	bool stack;			/* --stack */
	unsigned int string_size;
	struct debuginfo *dbg;		/* the binary (symbolizing, adding probes in the TUI) */
	const struct resolve_opts *ropts;
};

/**
 * trace_run() - install @tps (their group is replaced by the session's own), enable them in
 * a private instance, stream and render every hit until an exit condition, then drain,
 * print the summary and remove everything added (unless --keep)
 * Return: exit status for main() (0 clean, 1 failure, 2 bad input), @d filled on error.
 */
int trace_run(const struct trace_opts *o, struct trace_probe *tps, size_t nr, struct diag *d);

#endif
