/* SPDX-License-Identifier: GPL-2.0-or-later */
/* decode-internal.h - what decode*.c share: fields in a record, numbers made of their bytes,
 * whole values' and Go maps' parts, fault checks */
#ifndef UPF_DECODE_INTERNAL_H
#define UPF_DECODE_INTERNAL_H

#include "decode.h"

/* Where a kernel field is in the record. */
struct fld {
	int off;
	int size;
	bool dyn;		/* __data_loc / __rel_loc */
	bool rel;
	bool is_signed;
	const char *type;	/* kernel type of the fetch ("u64", "char[64]") */
	bool local;		/* a constant upfront keeps (fetch_field.local): in @imm */
	char imm[8];		/* its value, little-endian, as the kernel would store it */
};

/* fld_at() - where the bytes of field @f are: in record @rec, or the constant upfront keeps */
static inline const char *fld_at(const char *rec, const struct fld *f)
{
	return f->local ? f->imm : rec + f->off;
}

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

struct decoder;
struct dprobe;

/**
 * decode_arg() - argument @a of probe point @p's record @rec (@size bytes) into @v
 * @base: the load base of the probed binary in the process
 */
void decode_arg(struct decoder *dc, const struct dprobe *p, const char *rec, int size,
		uint64_t base, const struct trace_arg *a, struct value *v);

/**
 * decode_values() - @n values from the event's arena (valid until the next record)
 * Return: them, or NULL when the arena is full.
 */
struct value *decode_values(struct decoder *dc, size_t n);

/**
 * decode_field() - where field @field of probe point @p is in record @rec
 * @size: filled with its size in bytes
 */
const char *decode_field(const struct dprobe *p, const char *rec, int field, int *size);

/**
 * decode_whole() - a whole struct or array (VK_STRUCT, VK_ARRAY): its parts decoded, those
 * of a slice past its run-time length left out
 */
void decode_whole(struct decoder *dc, const struct dprobe *p, const char *rec, int size,
		  uint64_t base, const struct trace_arg *a, struct value *v);

/**
 * decode_check_failed() - whether @a, read through a pointer, was not there: its fault check
 * (trace_arg.check_field) read nothing and its bytes are all 0, as the kernel leaves a read
 * that failed
 * @flds: the fields of @a's probe in the record
 * @rec: the record
 * @a: an argument with a check_field
 */
bool decode_check_failed(const struct fld *flds, const char *rec, const struct trace_arg *a);

/**
 * decode_map() - a Go map (VK_MAP): its number of entries, null when nil, and the entries of
 * the slots in use of the table fetched (decode-map.c); more when not all were read
 */
void decode_map(struct decoder *dc, const struct dprobe *p, const char *rec, int size,
		uint64_t base, const struct trace_arg *a, struct value *v);

#endif
