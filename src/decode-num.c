// SPDX-License-Identifier: GPL-2.0-or-later
/* decode-num.c - numbers made of raw record bytes: floats, complex numbers, 128-bit integers */
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
