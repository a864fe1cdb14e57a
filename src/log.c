// SPDX-License-Identifier: GPL-2.0-or-later
/* log.c - leveled messages to stderr, parked while curses owns the terminal */
#include <stdio.h>

#include "log.h"

int log_level;
static int parked;
static struct strbuf parked_buf;

void log_park(void)
{
	parked = 1;
}

void log_unpark(void)
{
	parked = 0;
	if (parked_buf.len)
		fputs(parked_buf.buf, stderr);
	strbuf_release(&parked_buf);
}

void log_msg(int level, const char *domain, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT, msg = STRBUF_INIT;
	va_list ap;

	strbuf_addf(&sb, "upfront: %s%s: ", level == LOG_WARN ? "warning: " : "", domain);
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	/* messages name binaries, symbols and probes: one line each, inert on a terminal */
	escape_name(&sb, strbuf_cstr(&msg));
	strbuf_release(&msg);
	strbuf_addch(&sb, '\n');
	if (parked)
		strbuf_addstr(&parked_buf, sb.buf);
	else
		fputs(sb.buf, stderr);
	strbuf_release(&sb);
}
