/* SPDX-License-Identifier: GPL-2.0-or-later */
/* diag.h - one error with its place and hints, filled by modules, printed by main.c */
#ifndef UPF_DIAG_H
#define UPF_DIAG_H

#include "util.h"

/* A range of characters in the text being parsed (a probe string). */
struct span {
	int start;
	int len;
};

#define SPAN_NONE ((struct span){ -1, 0 })

struct diag {
	const char *input;	/* text that @span points into; borrowed, may be NULL */
	struct span span;	/* where: the offending token */
	char *msg;		/* what was wrong; NULL when no error */
	struct strbuf hints;	/* what exists instead: "fields: a, b, c" */
	int exit_code;		/* 2 for bad input (default), 1 for a system failure */
};

/**
 * diag_init() - no error yet; @input (borrowed, may be NULL) is the text spans index
 */
void diag_init(struct diag *d, const char *input);
/**
 * diag_release() - free the message and hints; @d can be initialized again
 */
void diag_release(struct diag *d);
/**
 * diag_has_error() - an error was recorded
 */
bool diag_has_error(const struct diag *d);

/**
 * diag_error() - record what was wrong; the first error wins, later ones are ignored
 * @sp: the token in d->input, or SPAN_NONE
 * Return: -EINVAL, so callers can `return diag_error(...)`.
 */
int diag_error(struct diag *d, struct span sp, const char *fmt, ...) PRINTF(3, 4);
/**
 * diag_fail() - like diag_error() for system failures (exit status 1)
 * Return: -EIO.
 */
int diag_fail(struct diag *d, const char *fmt, ...) PRINTF(2, 3);
/**
 * diag_hint() - add "; <hint>" to the current error
 */
void diag_hint(struct diag *d, const char *fmt, ...) PRINTF(2, 3);

/**
 * diag_format() - the error as one line without newline:
 *   "MSG at 'TOKEN' (column N of 'INPUT'); HINTS"
 */
void diag_format(const struct diag *d, struct strbuf *out);

#endif
