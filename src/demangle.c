// SPDX-License-Identifier: GPL-2.0-or-later
/* demangle.c - C++ and Rust symbol names as the language spells them (libiberty) */
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>
#undef ARRAY_SIZE /* libiberty has its own; util.h's is the same */

#include "demangle.h"
#include "util.h"

bool is_mangled(const char *sym)
{
	return sym[0] == '_' && (sym[1] == 'Z' || sym[1] == 'R');
}

/*
 * strip_abi_tags() - "tag[abi:cxx11]" -> "tag": gcc's ABI tags are part of the mangling
 * but not of the name people type (gdb and perf accept the name without them)
 */
static void strip_abi_tags(char *s)
{
	char *p, *end;

	while ((p = strstr(s, "[abi:")) && (end = strchr(p, ']')))
		memmove(p, end + 1, strlen(end + 1) + 1);
}

char *demangle(const char *sym, bool params)
{
	char *dm, *ret;
	int opts = DMGL_AUTO | DMGL_ANSI;

	if (!is_mangled(sym))
		return xstrdup(sym);
	if (params)
		opts |= DMGL_PARAMS;
	/* DMGL_AUTO tries Rust (legacy, v0; hash dropped without DMGL_VERBOSE) before C++ */
	dm = cplus_demangle(sym, opts);
	if (!dm)
		return xstrdup(sym);
	ret = xstrdup(dm);
	free(dm);
	strip_abi_tags(ret);
	return ret;
}
