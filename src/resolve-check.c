// SPDX-License-Identifier: GPL-2.0-or-later
/* resolve-check.c - a value read through a pointer: the fetch that tells a failed read from 0 */
#define LOG_DOMAIN "resolve"
#include <dwarf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "resolve-internal.h"

/*
 * The kernel reads a value's last link with copy_from_user(), which fills what it could not
 * read with zeros, and says nothing: a pointer into unmapped memory reads 0. (A link before
 * the last that fails leaves the value's bytes as they were, but the guard of the next link
 * reads 0 then and is a fault.) Only a :string field marks a failed read (an empty data_loc),
 * so a value whose last link is a pointer gets a hidden :string at one of its own bytes: where
 * the value is 0 that byte is a NUL, the string is "" (one byte in the record) when the memory
 * is there and a fault when it is not. The byte is the value's most significant one (0 in
 * non-negative numbers and in pointers: the string stays one byte long), the first one of a
 * float, a complex number or a char array (0 in round numbers and in empty text).
 * The values read through one pointer share the check of the first of them (the memory of one
 * object is there or not as a whole): a check whose byte is not 0 reads on to the next NUL,
 * and is empty (a zero value through that pointer then a fault) only when that run reaches
 * unmapped memory or a length of 4096. Measured in bench/fault-cost.sh.
 */

/* the offset N of fetch "+N(...)" or "-N(...)", and where its "(" is; false for others */
static bool mem_fetch_off(const char *fetch, int64_t *off, const char **paren)
{
	char *end;

	if (fetch[0] != '+' && fetch[0] != '-')
		return false;
	*off = strtoll(fetch, &end, 0);
	if (end == fetch + 1 || *end != '(')
		return false;
	*paren = end;
	return true;
}

/*
 * whether @a's value is read at an address its last pointer guard holds: the fetch inside
 * @paren, "(+56(%ax))", is that guard's (a pointer alone, "-8(%bp)", is not read through it)
 */
static bool through_pointer(const struct rctx *rc, const struct trace_arg *a, const char *paren)
{
	const char *ptr = NULL;
	size_t n = strlen(paren);

	for (int k = 0; k < a->nr_guards; k++)
		if (a->guard_kind[k] == GUARD_PTR || a->guard_kind[k] == GUARD_NIL)
			ptr = rc->tp->fields[a->guards[k]].fetch;
	return ptr && n >= 2 && paren[n - 1] == ')' && strlen(ptr) == n - 2 &&
	       !strncmp(paren + 1, ptr, n - 2);
}

void check_attach(struct rctx *rc, struct trace_arg *a)
{
	const struct fetch_field *f;
	const char *paren;
	int64_t off;
	int size;
	char *fetch, *base;
	bool low = false;

	switch (a->kind) {
	case VK_FLOAT:
	case VK_COMPLEX:
	case VK_BYTES:
		low = true;
		/* fallthrough */
	case VK_SIGNED:
	case VK_UNSIGNED:
	case VK_HEX:
	case VK_POINTER:
	case VK_BOOL:
	case VK_CHAR:
	case VK_ENUM:
	case VK_SYM:
	case VK_INT128:
		f = &rc->tp->fields[a->field];
		break;
	case VK_LSTRING:
		if (a->len_field < 0)
			return;
		f = &rc->tp->fields[a->len_field];	/* a length of 0 is ambiguous */
		break;
	default:
		return;
	}
	if (!mem_fetch_off(f->fetch, &off, &paren) || !through_pointer(rc, a, paren))
		return;
	size = fetcharg_type_size(f->type);
	if (size <= 0)
		return;
	if (a->kind == VK_COMPLEX || a->kind == VK_INT128)
		size *= 2;	/* the halves are in a row: the whole value's last byte */
	if (!low)
		off += size - 1;
	/* one check per pointer: the values read through it share the first one's */
	for (size_t i = 0; i < rc->tp->nr_fields; i++) {
		const struct fetch_field *g = &rc->tp->fields[i];
		const char *gp;
		int64_t goff;

		if (g->hidden && !strcmp(g->type, "string") && mem_fetch_off(g->fetch, &goff, &gp) &&
		    !strcmp(gp, paren)) {
			a->check_field = (int)i;
			return;
		}
	}
	fetch = xasprintf("%+" PRId64 "%s", off, paren);
	base = xasprintf("%.*s__c", NAME_MAX_LEN - 3, a->name);
	a->check_field = hidden_field(rc, fetch, "string", base);
	free(base);
	free(fetch);
}
