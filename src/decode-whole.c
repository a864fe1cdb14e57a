// SPDX-License-Identifier: GPL-2.0-or-later
/* decode-whole.c - whole structs, arrays and slices put back together from their parts */
#define LOG_DOMAIN "decode"

#include <string.h>

#include "decode-internal.h"
#include "log.h"

static uint64_t rd(const char *p, unsigned int size)
{
	uint8_t b[8] = { 0 };
	uint64_t v;

	memcpy(b, p, size > 8 ? 8 : size);
	memcpy(&v, b, 8);
	return v;
}

static int64_t rd_signed(const char *p, unsigned int size)
{
	uint64_t u = rd(p, size);
	unsigned int bits = size * 8;

	if (bits >= 64)
		return (int64_t)u;
	return (int64_t)(u << (64 - bits)) >> (64 - bits);
}

/* Element @at of a packed array, of @t's kind (a number, enum, bool, char, float, pointer) */
static void packed_elem(const struct trace_arg *t, const char *at, unsigned int esize,
			struct value *v)
{
	memset(v, 0, sizeof(*v));
	v->arg = t;
	v->name = "";
	v->kind = t->kind;
	switch (t->kind) {
	case VK_SIGNED:
		v->num.s = rd_signed(at, esize);
		break;
	case VK_CHAR:
	case VK_ENUM:
		if (t->is_signed)
			v->num.s = rd_signed(at, esize);
		else
			v->num.u = rd(at, esize);
		for (size_t i = 0; t->kind == VK_ENUM && i < t->nr_enums; i++)
			if (t->enums[i].value == v->num.s)
				v->text = t->enums[i].name;
		break;
	case VK_FLOAT:
		v->num.f = decode_float(at, esize);
		break;
	case VK_SYM:
		v->kind = VK_POINTER;	/* not symbolized inside an array */
		v->num.u = rd(at, esize);
		break;
	default:
		v->num.u = rd(at, esize);
		break;
	}
}

/* A slice's length and capacity from their fields (counts, or end pointers) */
static void slice_bounds(const struct dprobe *p, const char *rec, const struct trace_arg *a,
			 struct value *v)
{
	uint64_t ptr = 0;
	int fs;

	v->is_slice = true;
	if (a->ptr_field >= 0) {
		const char *at = decode_field(p, rec, a->ptr_field, &fs);

		ptr = rd(at, 8);
	}
	for (int i = 0; i < 2; i++) {
		int f = i ? a->cap_field : a->len_field;
		const char *at;
		uint64_t n;

		if (f < 0)
			continue;
		at = decode_field(p, rec, f, &fs);
		n = rd(at, (unsigned int)fs);
		if (a->ptr_field >= 0)
			n = n >= ptr && a->elem_size ? (n - ptr) / a->elem_size : 0;
		if (i) {
			v->slice_cap = n;
			v->has_cap = true;
		} else {
			v->slice_len = n;
		}
	}
}

void decode_whole(struct decoder *dc, const struct dprobe *p, const char *rec, int size,
		  uint64_t base, const struct trace_arg *a, struct value *v)
{
	struct value *parts;
	size_t n = a->nr_parts;
	int fs;

	v->more = a->more;
	if (a->kind == VK_ARRAY && a->len_field >= 0)
		slice_bounds(p, rec, a, v);
	if (a->packed) {
		const char *at = decode_field(p, rec, a->field, &fs);

		n = a->elem_size && a->nr_parts ? (size_t)fs / a->elem_size : 0;
		if (v->is_slice && v->slice_len < n)
			n = (size_t)v->slice_len;
		parts = n ? decode_values(dc, n) : NULL;
		if (n && !parts)
			n = 0;
		for (size_t i = 0; i < n; i++)
			packed_elem(&a->parts[0], at + i * a->elem_size, a->elem_size, &parts[i]);
		v->more = v->is_slice ? v->slice_len > n : a->count > n;
		v->parts = parts;
		v->nr_parts = n;
		return;
	}
	if (v->is_slice && v->slice_len < n)
		n = (size_t)v->slice_len;
	if (v->is_slice)
		v->more = v->slice_len > n;
	parts = n ? decode_values(dc, n) : NULL;
	if (n && !parts) {
		v->more = true;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		decode_arg(dc, p, rec, size, base, &a->parts[i], &parts[i]);
		parts[i].name = a->parts[i].expr;	/* NULL: an element, an anonymous member */
	}
	v->parts = parts;
	v->nr_parts = n;
}
