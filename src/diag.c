// SPDX-License-Identifier: GPL-2.0-or-later
/* diag.c - collect one error with its place and hints */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

void diag_init(struct diag *d, const char *input)
{
	memset(d, 0, sizeof(*d));
	d->input = input;
	d->span = SPAN_NONE;
	d->exit_code = 2;
	strbuf_init(&d->hints);
}

void diag_release(struct diag *d)
{
	free(d->msg);
	d->msg = NULL;
	strbuf_release(&d->hints);
}

bool diag_has_error(const struct diag *d)
{
	return d->msg != NULL;
}

static int diag_set(struct diag *d, struct span sp, int code, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	if (d->msg)
		return -EINVAL;
	strbuf_vaddf(&sb, fmt, ap);
	d->msg = strbuf_detach(&sb);
	d->span = sp;
	d->exit_code = code;
	strbuf_reset(&d->hints);
	return -EINVAL;
}

int diag_error(struct diag *d, struct span sp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_set(d, sp, 2, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int diag_fail(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_set(d, SPAN_NONE, 1, fmt, ap);
	va_end(ap);
	return -EIO;
}

void diag_hint(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	if (!d->hints.buf)
		strbuf_init(&d->hints);
	if (d->hints.len)
		strbuf_addstr(&d->hints, "; ");
	va_start(ap, fmt);
	strbuf_vaddf(&d->hints, fmt, ap);
	va_end(ap);
}

void diag_format(const struct diag *d, struct strbuf *out)
{
	struct strbuf line = STRBUF_INIT;

	strbuf_addstr(&line, d->msg ? d->msg : "unknown error");
	if (d->input && d->span.start >= 0 && d->span.start <= (int)strlen(d->input)) {
		int len = d->span.len;

		if (len > 0)
			strbuf_addf(&line, " at '%.*s'", len, d->input + d->span.start);
		strbuf_addf(&line, " (column %d of '%s')", d->span.start + 1, d->input);
	}
	if (d->hints.len) {
		strbuf_addstr(&line, "; ");
		strbuf_addstr(&line, d->hints.buf);
	}
	/*
	 * One line, inert on a terminal: messages quote names from the binary and the user's
	 * own text, either of which may hold a newline or an escape sequence.
	 */
	escape_name_n(out, line.buf ? line.buf : "", line.len);
	strbuf_release(&line);
}
