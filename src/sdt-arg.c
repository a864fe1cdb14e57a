// SPDX-License-Identifier: GPL-2.0-or-later
/* sdt-arg.c - what every machine's SDT operand parser shares: the "[-]N@" size, a number, an
 * operand uprobes cannot read, the release; below the machines' parsers (src/arch/), which
 * sdt.c reaches through arch_ops */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sdt.h"

int sdt_arg_bad(struct sdt_arg *a, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(a->err);
	a->err = strbuf_detach(&sb);
	a->kind = SDT_ARG_BAD;
	return 0;
}

bool sdt_arg_int(const char *s, const char *e, int64_t *out)
{
	char *buf, *end;
	bool ok;

	if (s >= e)
		return false;
	buf = xstrndup(s, e - s);
	errno = 0;
	*out = strtoll(buf, &end, 0);
	ok = !errno && !*end && (isdigit((unsigned char)buf[0]) ||
				 ((buf[0] == '-' || buf[0] == '+') &&
				  isdigit((unsigned char)buf[1])));
	free(buf);
	return ok;
}

const char *sdt_arg_size_parse(const char *text, struct sdt_arg *a)
{
	const char *at = strchr(text, '@'), *op = text;

	memset(a, 0, sizeof(*a));
	a->text = xstrdup(text);
	a->size = 8;
	if (at) {
		const char *s = text;
		int64_t n;

		if (*s == '-') {
			a->is_signed = true;
			s++;
		}
		if (!sdt_arg_int(s, at, &n) || (n != 1 && n != 2 && n != 4 && n != 8)) {
			sdt_arg_bad(a, "'%s': the size before '@' is not 1, 2, 4 or 8", text);
			return NULL;
		}
		a->size = (unsigned int)n;
		op = at + 1;
	}
	if (!*op) {
		sdt_arg_bad(a, "'%s' has no operand", text);
		return NULL;
	}
	return op;
}

void sdt_arg_release(struct sdt_arg *a)
{
	if (!a)
		return;
	free(a->text);
	free(a->sym);
	free(a->err);
	memset(a, 0, sizeof(*a));
}
