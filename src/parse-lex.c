// SPDX-License-Identifier: GPL-2.0-or-later
/* parse-lex.c - the probe language's numbers (its characters and words: parse-internal.h) */
#include <ctype.h>
#include <errno.h>

#define LOG_DOMAIN "parse"
#include "log.h"
#include "parse-internal.h"

int parse_num(const char *t, int s, int e, bool hex_ok, unsigned long max,
	      unsigned long *out)
{
	unsigned long v = 0;
	int base = 10, i = s;

	if (s >= e)
		return -EINVAL;
	if (hex_ok && e - s > 2 && t[s] == '0' && (t[s + 1] == 'x' || t[s + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	for (; i < e; i++) {
		unsigned int dg;
		char c = t[i];

		if (isdigit((unsigned char)c))
			dg = c - '0';
		else if (base == 16 && isxdigit((unsigned char)c))
			dg = tolower((unsigned char)c) - 'a' + 10;
		else
			return -EINVAL;
		if (v > (max - dg) / base)
			return -ERANGE;
		v = v * base + dg;
	}
	*out = v;
	return 0;
}
