/* SPDX-License-Identifier: GPL-2.0-or-later */
/* decode-internal.h - what decode*.c share: numbers made of raw record bytes */
#ifndef UPF_DECODE_INTERNAL_H
#define UPF_DECODE_INTERNAL_H

#include "decode.h"

/**
 * decode_float() - the IEEE 754 number whose bits are the @size bytes at @at
 * @at: the bytes in the record (any alignment)
 * @size: 4 (float) or 8 (double)
 * Return: the number, as a double (a float converts exactly).
 */
double decode_float(const char *at, unsigned int size);

/**
 * decode_pair() - a VK_COMPLEX or VK_INT128 value from its two halves
 * @v: its kind set; num.c or num.w filled
 * @lo: the real part, or the low 64 bits
 * @hi: the imaginary part, or the high 64 bits
 * @size: bytes of each half (4 or 8 for VK_COMPLEX, 8 for VK_INT128)
 */
void decode_pair(struct value *v, const char *lo, const char *hi, unsigned int size);

#endif
