// SPDX-License-Identifier: GPL-2.0-or-later
/* x86-abi.c - the x86-64 ABIs: System V (C, C++, Rust) and Go's register ABI on amd64 */
#define LOG_DOMAIN "abi"

#include <dwarf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/abi-c.h"
#include "arch/abi-go.h"
#include "arch/x86-abi.h"
#include "arch/x86-regs.h"
#include "log.h"

/* Go on amd64: integer registers RAX RBX RCX RDI RSI R8-R11 (DWARF numbers), X0-X14 */
static const int x86_go_int_regs[] = { 0, 3, 2, 5, 4, 8, 9, 10, 11 };
static const struct go_abi_regs x86_go_regs = {
	.int_regs = x86_go_int_regs,
	.nr_int = ARRAY_SIZE(x86_go_int_regs),
	.nr_float = 15,
	.stack_base = 8,	/* past the return address the call pushed */
	.sp_fetch = "%sp",
	.reg_kernel_name = x86_reg_kernel_name,
	.reg_describe = x86_reg_describe,
	.reg_vector_dwarf = x86_reg_vector_dwarf,
};

static int x86_abi_go_results(Dwarf_Die *func, struct abi_value **res, size_t *nr)
{
	return go_abi_values(func, &x86_go_regs, true, res, nr);
}

/* ---- System V: where a uretprobe finds a C, C++ or Rust return value ---- */

enum sysv_class { RC_NONE, RC_INT, RC_SSE, RC_MEM };

static enum sysv_class class_merge(enum sysv_class a, enum sysv_class b)
{
	if (a == b || b == RC_NONE)
		return a;
	if (a == RC_NONE)
		return b;
	if (a == RC_MEM || b == RC_MEM)
		return RC_MEM;
	return RC_INT;
}

/* The classes of a value's eightbytes, and its first scalars (Rust's scalar pairs). */
struct sysv_classes {
	enum sysv_class cls[2];
	int leaves;		/* scalars seen; 3 when a bitfield or enum data makes it opaque */
	int64_t leaf_off[2];
	enum sysv_class leaf_cls[2];
};

static bool sysv_classify(Dwarf_Die *type, int64_t off, struct sysv_classes *c, int depth);

/* sysv_classify_members() - the members and bases of struct/class/union @t at @off */
static bool sysv_classify_members(Dwarf_Die *t, int64_t off, int64_t size,
				  struct sysv_classes *c, int depth)
{
	Dwarf_Attribute attr;
	Dwarf_Die child;
	int64_t i;

	if (dwarf_child(t, &child) != 0)
		return true;
	do {
		int ct = dwarf_tag(&child);
		int64_t moff = 0;
		Dwarf_Die mt;

		if (ct == DW_TAG_variant_part) {
			/* a Rust enum with data: bytes, no floats known */
			for (i = off / 8; i <= (off + size - 1) / 8 && i < 2; i++)
				c->cls[i] = class_merge(c->cls[i], RC_INT);
			c->leaves = 3;
			continue;
		}
		if ((ct != DW_TAG_member && ct != DW_TAG_inheritance) ||
		    (ct == DW_TAG_member && !dwarf_hasattr(&child, DW_AT_data_member_location) &&
		     !dwarf_hasattr(&child, DW_AT_data_bit_offset)))
			continue;
		if (!lang_type_of(&child, &mt))
			return false;
		if (dwarf_hasattr(&child, DW_AT_bit_size)) {
			int64_t bits = 0;
			Dwarf_Word bo = 0;

			if (dwarf_attr(&child, DW_AT_data_bit_offset, &attr) &&
			    dwarf_formudata(&attr, &bo) == 0)
				bits = (int64_t)bo;
			else if (lang_member_offset(&child, &moff))
				bits = moff * 8;
			i = (off * 8 + bits) / 64;
			if (i < 2)
				c->cls[i] = class_merge(c->cls[i], RC_INT);
			c->leaves = 3;
			continue;
		}
		if (!lang_member_offset(&child, &moff))
			return false;
		if (!sysv_classify(&mt, off + moff, c, depth + 1))
			return false;
	} while (dwarf_siblingof(&child, &child) == 0);
	return true;
}

/*
 * sysv_classify() - merge into @c the System V classes of the eightbytes @type covers at
 * @off. The same classification places arguments (psABI 3.2.3). Returns false when the type
 * cannot be classified.
 */
static bool sysv_classify(Dwarf_Die *type, int64_t off, struct sysv_classes *c, int depth)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	Dwarf_Die t, et;
	int64_t size = lang_type_size(type), esize, i;
	enum sysv_class k;
	int tag = lang_strip(type, &t);

	if (depth > 16 || size < 0 || !tag)
		return false;
	if (size == 0)
		return true;
	switch (tag) {
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		return sysv_classify_members(&t, off, size, c, depth);
	case DW_TAG_array_type:
		if (!lang_type_of(&t, &et) || (esize = lang_type_size(&et)) <= 0)
			return false;
		for (i = 0; i < size / esize; i++)
			if (!sysv_classify(&et, off + i * esize, c, depth + 1))
				return false;
		return true;
	case DW_TAG_base_type:
		if (dwarf_attr(&t, DW_AT_encoding, &attr))
			dwarf_formudata(&attr, &enc);
		if (enc == DW_ATE_float || enc == DW_ATE_complex_float)
			k = size > 8 && enc == DW_ATE_float ? RC_MEM : RC_SSE;	/* long double */
		else
			k = RC_INT;
		break;
	default:
		/* pointers, references, enums */
		k = RC_INT;
		break;
	}
	if (off % (size > 8 ? 8 : size))
		k = RC_MEM;	/* unaligned (packed) */
	for (i = off / 8; i <= (off + size - 1) / 8; i++) {
		if (i >= 2)
			return true;
		c->cls[i] = class_merge(c->cls[i], k);
	}
	if (c->leaves < 2) {
		c->leaf_off[c->leaves] = off;
		c->leaf_cls[c->leaves] = k;
	}
	c->leaves++;
	return true;
}

/* The integer registers a value is returned in (RAX, RDX) as uretprobe fetchargs. */
static const char *const sysv_int_ret[] = { "$retval", "%dx" };
#define SYSV_RDX 1	/* DWARF number */

static void add_reg_piece(struct loc *out, enum sysv_class c, int *next_int, int *next_sse,
			  unsigned int size)
{
	struct loc_piece p = { .reg = -1, .size = size };
	char why[80];

	if (c == RC_SSE) {
		p.reg = x86_reg_vector_dwarf(*next_sse);
		snprintf(why, sizeof(why), "is returned in register xmm%d, which uprobes cannot "
			 "read", (*next_sse)++);
		p.kind = LOC_BAD;
		p.why = why;
	} else {
		p.kind = LOC_VAL;
		p.fetch = (char *)sysv_int_ret[*next_int];
		p.reg = *next_int ? SYSV_RDX : -1;
		(*next_int)++;
	}
	loc_add_piece(out, &p);
}

/* rust_return() - Rust's own rules for an aggregate of up to 16 bytes in registers */
static void rust_return(struct sysv_classes *c, int64_t size, struct loc *out)
{
	int next_int = 0, next_sse = 0;

	if (c->leaves == 1) {
		/* a wrapper of one scalar is returned as that scalar */
		add_reg_piece(out, c->leaf_cls[0], &next_int, &next_sse, 0);
		return;
	}
	if (c->leaves == 2) {
		/* a scalar pair: each half in its own register, by its own class, in memory
		 * order */
		int first = c->leaf_off[1] < c->leaf_off[0];
		int64_t second_off = c->leaf_off[!first];

		add_reg_piece(out, c->leaf_cls[first], &next_int, &next_sse,
			      (unsigned int)second_off);
		add_reg_piece(out, c->leaf_cls[!first], &next_int, &next_sse,
			      (unsigned int)(size - second_off));
		return;
	}
	/* other aggregates are returned as an integer */
	add_reg_piece(out, RC_INT, &next_int, &next_sse, size > 8 ? 8 : 0);
	if (size > 8)
		add_reg_piece(out, RC_INT, &next_int, &next_sse, (unsigned int)(size - 8));
}

static bool x86_abi_return(Dwarf_Die *func, const struct lang_ops *lang, Dwarf_Die *type,
			   struct loc *out)
{
	struct sysv_classes c = { .cls = { RC_NONE, RC_NONE } };
	struct loc_piece p = { .kind = LOC_VAL, .reg = -1, .fetch = (char *)"$retval" };
	int next_int = 0, next_sse = 0;
	bool memory = false;
	int64_t size;
	Dwarf_Die t;
	int tag;

	memset(out, 0, sizeof(*out));
	if (!lang_type_of(func, type) || !(tag = lang_strip(type, &t))) {
		loc_add_piece(out, &p);
		return false;
	}
	size = lang_type_size(type);
	if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	    tag == DW_TAG_union_type || tag == DW_TAG_array_type) {
		memory = size > 16 || size < 0 ||
			 (lang == &lang_cxx && abi_cxx_nontrivial(&t)) ||
			 !sysv_classify(type, 0, &c, 0) ||
			 c.cls[0] == RC_MEM || c.cls[1] == RC_MEM;
	} else if (!sysv_classify(type, 0, &c, 0)) {
		loc_add_piece(out, &p);
		return true;
	}
	if (memory) {
		/* the caller's buffer: its address was passed in RDI and is in RAX on return */
		p.kind = LOC_MEM;
		p.fetch = NULL;
		p.base = (char *)"$retval";
		p.off = 0;
		loc_add_piece(out, &p);
		return true;
	}
	if (tag == DW_TAG_base_type && c.cls[0] == RC_MEM) {
		p.kind = LOC_BAD;
		p.fetch = NULL;
		p.why = (char *)"is returned in the x87 register st0, which uprobes cannot read";
		loc_add_piece(out, &p);
		return true;
	}
	if (lang == &lang_rust && tag != DW_TAG_base_type) {
		rust_return(&c, size, out);
		return true;
	}
	if (size <= 8) {
		add_reg_piece(out, c.cls[0], &next_int, &next_sse, 0);
		return true;
	}
	add_reg_piece(out, c.cls[0], &next_int, &next_sse, 8);
	add_reg_piece(out, c.cls[1], &next_int, &next_sse, (unsigned int)(size - 8));
	return true;
}

/* ---- System V: C and C++ parameters at a function's first instruction ---- */

/* Integer argument registers in order, as DWARF numbers: RDI RSI RDX RCX R8 R9. */
static const int sysv_int_args[] = { 5, 4, 1, 2, 8, 9 };
#define SYSV_NR_SSE_ARGS 8

/* The argument registers and stack taken so far. */
struct x86_args {
	int next_int, next_sse;
	int64_t stack;
};

/* x86_param() - place one parameter of @type: registers if all its eightbytes fit */
static int x86_param(Dwarf_Die *type, const struct lang_ops *lang, void *state,
		     struct loc *l, const char **why)
{
	struct x86_args *st = state;
	int *next_int = &st->next_int, *next_sse = &st->next_sse;
	int64_t *stack = &st->stack;
	struct sysv_classes c = { .cls = { RC_NONE, RC_NONE } };
	int64_t size = lang_type_size(type), align;
	int nint = 0, nsse = 0, tag;
	bool memory;
	Dwarf_Die t;

	tag = lang_strip(type, &t);
	if (size <= 0 || !tag) {
		*why = "a parameter of unknown or zero size";
		return -ENOTSUP;
	}
	if (lang == &lang_cxx && (tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
				  tag == DW_TAG_union_type) && abi_cxx_nontrivial(&t)) {
		*why = "a C++ class passed by invisible reference";
		return -ENOTSUP;
	}
	if (!sysv_classify(type, 0, &c, 0)) {
		*why = "a parameter whose class is unknown";
		return -ENOTSUP;
	}
	memory = size > 16 || c.cls[0] == RC_MEM || c.cls[1] == RC_MEM;
	for (int i = 0; i < 2 && !memory; i++) {
		nint += c.cls[i] == RC_INT;
		nsse += c.cls[i] == RC_SSE;
	}
	if (!memory && (*next_int + nint > (int)ARRAY_SIZE(sysv_int_args) ||
			*next_sse + nsse > SYSV_NR_SSE_ARGS))
		memory = true;	/* does not fit: all of it on the stack */
	if (memory) {
		struct loc_piece p = { .kind = LOC_MEM, .reg = -1, .base = (char *)"%sp" };

		align = abi_c_align(type);
		if (align < 8)
			align = 8;
		*stack = (*stack + align - 1) & ~(align - 1);
		p.off = 8 + *stack;	/* past the return address */
		*stack += (size + 7) & ~7;
		loc_add_piece(l, &p);
		return 0;
	}
	for (int i = 0; i * 8 < size; i++) {
		struct loc_piece p = { .reg = -1 };
		char fetch[16], why_buf[80];

		p.size = size <= 8 ? 0 : i ? (unsigned int)(size - 8) : 8;
		if (c.cls[i] == RC_SSE) {
			p.reg = x86_reg_vector_dwarf(*next_sse);
			snprintf(why_buf, sizeof(why_buf), "is in register xmm%d at the entry, "
				 "which uprobes cannot read", (*next_sse)++);
			p.kind = LOC_BAD;
			p.why = why_buf;
		} else if (c.cls[i] == RC_NONE) {
			p.kind = LOC_NONE;	/* padding only */
		} else {
			p.reg = sysv_int_args[(*next_int)++];
			snprintf(fetch, sizeof(fetch), "%%%s", x86_reg_kernel_name(p.reg));
			p.kind = LOC_VAL;
			p.fetch = fetch;
		}
		loc_add_piece(l, &p);
	}
	return 0;
}

static int x86_abi_entry_params(Dwarf_Die *func, const struct lang_ops *lang,
				struct abi_value **out, size_t *nr, const char **why)
{
	struct x86_args st = { 0 };
	Dwarf_Die rtype;
	struct loc rl;

	*out = NULL;
	*nr = 0;
	*why = NULL;
	if (lang == &lang_go) {
		/* what the DWARF says, unless it is broken (resolve-value.c) */
		if (!go_abi_values(func, &x86_go_regs, false, out, nr))
			return 0;
		*why = "Go: its arguments' types have no known size";
		return -ENOTSUP;
	}
	if (abi_c_refused(func, lang, why))
		return -ENOTSUP;
	/* a return value in memory: the caller's buffer comes first, in %rdi */
	if (x86_abi_return(func, lang, &rtype, &rl) && rl.nr == 1 &&
	    rl.pieces[0].kind == LOC_MEM) {
		loc_release(&rl);
		*why = "returns a struct through a hidden pointer";
		return -ENOTSUP;
	}
	loc_release(&rl);
	return abi_c_params(func, lang, x86_param, &st, out, nr, why);
}

const struct abi_ops x86_abi_ops = {
	.go_results	= x86_abi_go_results,
	.c_return	= x86_abi_return,
	.entry_params	= x86_abi_entry_params,
};
