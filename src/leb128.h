/* SPDX-License-Identifier: GPL-2.0-or-later */
/* leb128.h - DWARF's variable-length integers, for the code that reads DWARF bytes itself */
#ifndef UPF_LEB128_H
#define UPF_LEB128_H

#include <stdint.h>

/**
 * leb128_u() - read an unsigned LEB128 at *@pp (not past @end) and advance *@pp;
 * bits beyond 64 are dropped
 */
static inline uint64_t leb128_u(const uint8_t **pp, const uint8_t *end)
{
	const uint8_t *p = *pp;
	uint64_t v = 0;
	int shift = 0;

	while (p < end) {
		uint8_t b = *p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	*pp = p;
	return v;
}

/**
 * leb128_s() - the signed form; computed unsigned (a shift into bit 63 of int64_t is UB)
 */
static inline int64_t leb128_s(const uint8_t **pp, const uint8_t *end)
{
	const uint8_t *p = *pp;
	uint64_t v = 0;
	int shift = 0;
	uint8_t b = 0;

	while (p < end) {
		b = *p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	if (shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	*pp = p;
	return (int64_t)v;
}

#endif
