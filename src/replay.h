/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.h - a saved run (the JSON lines of --json or -o FILE) read back into the curses
 * view, the text or JSON output and the summary: no tracefs, no root
 */
#ifndef UPF_REPLAY_H
#define UPF_REPLAY_H

#include <stdbool.h>

#include "diag.h"
#include "session.h"

struct replay_opts {
	const char *path;		/* the file; "-": standard input */
	enum render_mode mode;		/* AUTO: the curses view on a terminal, else text */
	bool summary;			/* --summary: the summary after the events */
	bool summary_only;		/* --summary-only */
	unsigned int top;		/* --top N; 0: the default */
	unsigned long ring_size;	/* --ring N; 0: the view's default */
};

/**
 * replay_run() - show the events saved in @o->path as a live run shows them, then the
 * summary when asked (the curses view stays until q)
 * @d: filled when the file cannot be read or a line is no event upfront wrote (its number)
 * Return: exit status for main() (0, 1 for a read failure, 2 for a malformed file).
 */
int replay_run(const struct replay_opts *o, struct diag *d);

#endif
