// SPDX-License-Identifier: GPL-2.0-or-later
/* decode-map.c - a Go map's entries from the slots of the table fetched (VK_MAP) */
#define LOG_DOMAIN "decode"
#include <string.h>

#include "decode-internal.h"

/* the little-endian unsigned number in field @field of @p's record @rec; 0 for none (-1) */
static uint64_t field_u(const struct dprobe *p, const char *rec, int field)
{
	uint64_t v = 0;
	const char *at;
	int size;

	if (field < 0)
		return 0;
	at = decode_field(p, rec, field, &size);
	memcpy(&v, at, size < 8 ? (size_t)size : 8);	/* x86: little-endian */
	return v;
}

/* whether slot @i is in use by its control byte in @ctrl (struct trace_map) */
static bool slot_used(const struct trace_map *m, uint64_t ctrl, unsigned int i)
{
	unsigned int b = (unsigned int)(ctrl >> (8 * i)) & 0xff;

	return m->used_min ? b >= m->used_min : !(b & 0x80);
}

/* whether decoded key @k is the key @m looks up (@key_len: strlen(m->key), once per lookup) */
static bool key_is(const struct trace_map *m, size_t key_len, const struct value *k)
{
	if (k->fault)
		return false;
	if (m->key)
		return (k->kind == VK_LSTRING || k->kind == VK_CSTRING) && !k->cut &&
		       k->len == key_len && !memcmp(k->str, m->key, k->len);
	return (k->kind == VK_SIGNED || k->kind == VK_UNSIGNED) && k->num.u == m->key_num;
}

/*
 * m[key]: the value of the entry with that key among the slots in use, found here (where
 * the runtime keeps it depends on a hash a uprobe cannot compute); when the table read holds
 * every entry, a key not in it is absent (null), else unknown
 */
static void map_lookup(struct decoder *dc, const struct dprobe *p, const char *rec, int size,
		       uint64_t base, const struct trace_arg *a, struct value *v, bool scan,
		       bool whole)
{
	const struct trace_map *m = &a->map;
	const char *name = v->name;
	uint64_t ctrl = field_u(p, rec, m->ctrl);
	size_t key_len = m->key ? strlen(m->key) : 0;
	struct value k;

	for (unsigned int i = 0; scan && i < m->slots; i++) {
		if (!slot_used(m, ctrl, i))
			continue;
		decode_arg(dc, p, rec, size, base, &a->parts[2 * i], &k);
		if (!key_is(m, key_len, &k))
			continue;
		decode_arg(dc, p, rec, size, base, &a->parts[2 * i + 1], v);
		v->name = name;
		return;
	}
	v->kind = a->parts[1].kind;
	v->fault = true;
	v->null = whole;
	v->unknown = !whole;
}

void decode_map(struct decoder *dc, const struct dprobe *p, const char *rec, int size,
		uint64_t base, const struct trace_arg *a, struct value *v)
{
	const struct trace_map *m = &a->map;
	uint64_t ctrl, found = 0;
	struct value *parts;
	bool small;

	v->num.u = field_u(p, rec, a->field);
	v->more = v->num.u > 0;
	if (m->ctrl < 0 || a->nr_parts < 2 * (size_t)m->slots)
		return;
	/* while the map grows or the table overflows, entries are elsewhere too */
	small = !field_u(p, rec, m->small) && !field_u(p, rec, m->old) &&
		!field_u(p, rec, m->over);
	if (m->lookup) {
		/* an empty map has no key; a large swiss map's pointer is to a directory of
		 * tables, not to a group */
		map_lookup(dc, p, rec, size, base, a, v, v->num.u && (small || !m->swiss),
			   small || !v->num.u);
		return;
	}
	if (!v->num.u || (m->swiss && field_u(p, rec, m->small)))
		return;
	ctrl = field_u(p, rec, m->ctrl);
	parts = decode_values(dc, 2 * (size_t)m->slots);
	if (!parts)
		return;
	for (unsigned int i = 0; i < m->slots && found < v->num.u; i++) {
		if (!slot_used(m, ctrl, i))
			continue;
		decode_arg(dc, p, rec, size, base, &a->parts[2 * i], &parts[2 * found]);
		decode_arg(dc, p, rec, size, base, &a->parts[2 * i + 1], &parts[2 * found + 1]);
		parts[2 * found].name = "key";
		parts[2 * found + 1].name = "value";
		found++;
	}
	v->parts = parts;
	v->nr_parts = 2 * (size_t)found;
	v->more = !small || found < v->num.u;
}
