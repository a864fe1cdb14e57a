// SPDX-License-Identifier: GPL-2.0-or-later
/* callfields.c - which probe points of a batch get the fields that pair calls (durations) */
#define LOG_DOMAIN "session"
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "callfields.h"
#include "decode.h"
#include "fetcharg.h"
#include "util.h"

/* a probe point by two of its names (function and binary, or event), for sorting */
struct tp_key {
	const char *k1, *k2;
	size_t i;
};

static int tp_key_cmp(const void *a, const void *b)
{
	const struct tp_key *x = a, *y = b;
	int c = strcmp(x->k1, y->k1);

	if (!c)
		c = strcmp(x->k2, y->k2);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

static bool tp_key_same(const struct tp_key *x, const struct tp_key *y)
{
	return !strcmp(x->k1, y->k1) && !strcmp(x->k2, y->k2);
}

/*
 * paired[i]: the other role of tps[i]'s function (FUNC for FUNC%return and back) is among
 * @tps. Sorted by function and binary, not a scan per probe: a glob of 2,000 functions took
 * 6 s here (O(n^3) with a scan of the batch per point of an event).
 */
static void call_pairs(const struct trace_probe *tps, size_t nr, struct tp_key *keys,
		       bool *paired)
{
	size_t n = 0;

	for (size_t i = 0; i < nr; i++)
		if (tps[i].call != CALL_NONE && tps[i].func)
			keys[n++] = (struct tp_key){ tps[i].func, tps[i].path ? tps[i].path : "", i };
	qsort(keys, n, sizeof(*keys), tp_key_cmp);
	for (size_t a = 0, b; a < n; a = b) {
		bool entry = false, ret = false;

		for (b = a; b < n && tp_key_same(&keys[a], &keys[b]); b++) {
			entry |= tps[keys[b].i].call == CALL_ENTRY;
			ret |= tps[keys[b].i].call == CALL_RETURN;
		}
		for (size_t k = a; k < b; k++)
			paired[keys[k].i] = entry && ret;
	}
}

void callfields_add(struct trace_probe *tps, size_t nr, bool later)
{
	struct tp_key *keys = xmalloc((nr ? nr : 1) * sizeof(*keys));
	bool *paired = xcalloc(nr ? nr : 1, sizeof(*paired));

	call_pairs(tps, nr, keys, paired);
	for (size_t i = 0; i < nr; i++)
		keys[i] = (struct tp_key){ tps[i].event, "", i };
	qsort(keys, nr, sizeof(*keys), tp_key_cmp);
	for (size_t a = 0, b; a < nr; a = b) {
		const struct trace_probe *go = NULL;
		bool call = false;

		for (b = a; b < nr && tp_key_same(&keys[a], &keys[b]); b++) {
			const struct trace_probe *tp = &tps[keys[b].i];

			if (tp->call == CALL_NONE || (!later && !paired[keys[b].i]))
				continue;
			call = true;
			if (tp->goroutines && !go)
				go = tp;
		}
		for (size_t k = a; call && k < b; k++)
			decode_add_call_fields(&tps[keys[k].i], go);
	}
	free(paired);
	free(keys);
}
