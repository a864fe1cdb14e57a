// SPDX-License-Identifier: GPL-2.0-or-later
/* decode-num.c - numbers made of raw record bytes (floats, complex numbers, 128-bit integers)
 * and whether they were read at all */
#include <stdint.h>
#include <string.h>

#include "decode-internal.h"

double decode_float(const char *at, unsigned int size)
{
	if (size == 4) {
		float f;

		memcpy(&f, at, 4);
		return f;
	} else {
		double d;

		memcpy(&d, at, 8);
		return d;
	}
}

void decode_pair(struct value *v, const char *lo, const char *hi, unsigned int size)
{
	uint64_t l, h;

	if (v->kind == VK_COMPLEX) {
		v->num.c.re = decode_float(lo, size);
		v->num.c.im = decode_float(hi, size);
		return;
	}
	memcpy(&l, lo, 8);
	memcpy(&h, hi, 8);
	v->num.w = (unsigned __int128)h << 64 | l;
}

bool decode_check_failed(const struct fld *flds, const char *rec, const struct trace_arg *a)
{
	int first = a->kind == VK_LSTRING ? a->len_field : a->field;
	int n = a->kind == VK_LSTRING ? 1 : a->nr_fields;
	uint32_t loc;

	memcpy(&loc, rec + flds[a->check_field].off, 4);
	if (loc >> 16)
		return false;	/* its byte was read: so was the value */
	for (int i = first; i < first + n; i++)
		for (int k = 0; k < flds[i].size; k++)
			if (fld_at(rec, &flds[i])[k])
				return false;	/* a failed read leaves zeros */
	return true;
}
