// SPDX-License-Identifier: GPL-2.0-or-later
/* arm64-abi.c - the AArch64 ABIs: AAPCS64 (C, C++, Rust) and Go's register ABI on arm64 */
#define LOG_DOMAIN "abi"

#include <dwarf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch/abi-c.h"
#include "arch/abi-go.h"
#include "arch/arm64-abi.h"
#include "arch/arm64-regs.h"

/* ---- Go on arm64: R0-R15, F0-F15, stack arguments from 8(RSP) ---- */

static const int arm64_go_int_regs[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
static const struct go_abi_regs arm64_go_regs = {
	.int_regs = arm64_go_int_regs,
	.nr_int = ARRAY_SIZE(arm64_go_int_regs),
	.nr_float = 16,
	.stack_base = 8,	/* 0(RSP) is the word the callee saves the link register in */
	.sp_fetch = "%sp",
	.reg_kernel_name = arm64_reg_kernel_name,
	.reg_describe = arm64_reg_describe,
	.reg_vector_dwarf = arm64_reg_vector_dwarf,
};

static int arm64_abi_go_results(Dwarf_Die *func, struct abi_value **res, size_t *nr)
{
	return go_abi_values(func, &arm64_go_regs, true, res, nr);
}

/* ---- AAPCS64 ---- */

#define NR_ARG_REGS 8	/* x0-x7, v0-v7 */

static bool is_composite(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	       tag == DW_TAG_union_type || tag == DW_TAG_array_type;
}

/*
 * hfa_leaves() - add @type's floating-point members to @n, all of @base bytes (the first
 * sets it); false when a member is not a float of that size (or a bitfield, or opaque)
 */
static bool hfa_leaves(Dwarf_Die *type, int64_t *base, int *n, int depth)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	Dwarf_Die t, child, mt;
	int64_t size = lang_type_size(type), esize;
	int tag = lang_strip(type, &t);

	if (depth > 16 || size <= 0 || *n > 4)
		return false;
	switch (tag) {
	case DW_TAG_base_type:
		if (dwarf_attr(&t, DW_AT_encoding, &attr))
			dwarf_formudata(&attr, &enc);
		if (enc == DW_ATE_complex_float) {
			size /= 2;
			*n += 1;
		} else if (enc != DW_ATE_float) {
			return false;
		}
		if (*base && *base != size)
			return false;
		*base = size;
		*n += 1;
		return *n <= 4;
	case DW_TAG_array_type:
		if (!lang_type_of(&t, &mt) || (esize = lang_type_size(&mt)) <= 0)
			return false;
		for (int64_t i = 0; i < size / esize; i++)
			if (!hfa_leaves(&mt, base, n, depth + 1))
				return false;
		return true;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		if (dwarf_child(&t, &child) != 0)
			return false;
		do {
			int ct = dwarf_tag(&child);

			if (ct == DW_TAG_variant_part)
				return false;
			if (ct != DW_TAG_member && ct != DW_TAG_inheritance)
				continue;
			if (ct == DW_TAG_member && !dwarf_hasattr(&child, DW_AT_data_member_location))
				continue;	/* static */
			if (dwarf_hasattr(&child, DW_AT_bit_size) || !lang_type_of(&child, &mt) ||
			    !hfa_leaves(&mt, base, n, depth + 1))
				return false;
		} while (dwarf_siblingof(&child, &child) == 0);
		/* a union's members overlap: an HFA only when the size is all floats */
		return *n > 0 && *base * *n == size;
	default:
		return false;
	}
}

/* hfa() - the number of float registers @type takes (a float: 1, an HFA: 1-4), or 0 */
static int hfa(Dwarf_Die *type)
{
	int64_t base = 0;
	int n = 0;

	return hfa_leaves(type, &base, &n, 0) && n >= 1 && n <= 4 ? n : 0;
}

/*
 * Rust's own ABI returns an aggregate of one scalar as that scalar, and a scalar pair (&str,
 * (u64, u32)) as two, each in its own register in memory order: x0, x1 (rustc 1.63's arm64
 * code: kind_name's csel x0 / csel x1, span's ldr x8 / ldr w1). rust_leaves() counts the
 * scalars of @type at @off; 3 stands for more, or for what hides them (an enum with data, a
 * union, an array, a bitfield); @fp when one is a float (returned in v registers).
 */
struct rust_leaves {
	int n;
	int64_t off[2];
	bool fp;
};

static void rust_leaves(Dwarf_Die *type, int64_t off, struct rust_leaves *r, int depth)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	Dwarf_Die t, child, mt;
	int64_t moff;

	if (depth > 16 || r->n > 2) {
		r->n = 3;
		return;
	}
	switch (lang_strip(type, &t)) {
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
		if (dwarf_child(&t, &child) != 0)
			return;		/* no members: nothing to return */
		do {
			int ct = dwarf_tag(&child);

			if (ct == DW_TAG_variant_part) {
				r->n = 3;
				return;
			}
			if (ct != DW_TAG_member || !dwarf_hasattr(&child, DW_AT_data_member_location))
				continue;
			if (dwarf_hasattr(&child, DW_AT_bit_size) || !lang_type_of(&child, &mt) ||
			    !lang_member_offset(&child, &moff)) {
				r->n = 3;
				return;
			}
			if (lang_type_size(&mt) != 0)	/* PhantomData, () take no register */
				rust_leaves(&mt, off + moff, r, depth + 1);
		} while (dwarf_siblingof(&child, &child) == 0);
		return;
	case DW_TAG_base_type:
		if (dwarf_attr(&t, DW_AT_encoding, &attr))
			dwarf_formudata(&attr, &enc);
		r->fp |= enc == DW_ATE_float || enc == DW_ATE_complex_float;
		break;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_enumeration_type:
		break;
	default:
		r->n = 3;
		return;
	}
	if (r->n < 2)
		r->off[r->n] = off;
	r->n++;
}

static void add_bad(struct loc *l, int reg, const char *why)
{
	struct loc_piece p = { .kind = LOC_BAD, .reg = reg, .why = (char *)why };

	loc_add_piece(l, &p);
}

static void add_xreg(struct loc *l, int reg, const char *fetch, unsigned int size)
{
	struct loc_piece p = { .kind = LOC_VAL, .reg = reg, .size = size };
	char buf[16];

	if (!fetch) {
		snprintf(buf, sizeof(buf), "%%%s", arm64_reg_kernel_name(reg));
		fetch = buf;
	}
	p.fetch = (char *)fetch;
	loc_add_piece(l, &p);
}

static bool arm64_abi_return(Dwarf_Die *func, const struct lang_ops *lang, Dwarf_Die *type,
			     struct loc *out)
{
	int64_t size;
	Dwarf_Die t;
	int tag;

	memset(out, 0, sizeof(*out));
	if (!lang_type_of(func, type) || !(tag = lang_strip(type, &t))) {
		add_xreg(out, -1, "$retval", 0);
		return false;
	}
	size = lang_type_size(type);
	if (hfa(type)) {
		add_bad(out, ARM64_V0, "is returned in register v0, which uprobes cannot read");
	} else if (is_composite(tag) && (size > 16 || size < 0 ||
					 (lang == &lang_cxx && abi_cxx_nontrivial(&t)))) {
		add_bad(out, -1, "is returned in memory at the address the caller passed in x8, "
			"which the function need not keep until it returns");
	} else if (is_composite(tag) && lang == &lang_rust) {
		struct rust_leaves r = { 0 };

		rust_leaves(type, 0, &r, 0);
		if (r.n == 2 && !r.fp) {
			/* each scalar in its own register, the one first in memory in x0 */
			int64_t second = r.off[0] < r.off[1] ? r.off[1] : r.off[0];

			add_xreg(out, -1, "$retval", (unsigned int)second);
			add_xreg(out, 1, NULL, (unsigned int)(size - second));
		} else if (r.n == 1 && !r.fp && size <= 8) {
			add_xreg(out, -1, "$retval", 0);
		} else if (r.n == 1 && !r.fp) {
			add_xreg(out, -1, "$retval", 8);	/* u128 in x0:x1 */
			add_xreg(out, 1, NULL, (unsigned int)(size - 8));
		} else {
			add_bad(out, -1, r.fp ? "is returned by Rust's own ABI on arm64 with a float "
				"in a v register, which uprobes cannot read" : "is returned by Rust's "
				"own ABI on arm64 as more than a scalar pair, which upfront does not "
				"know yet");
		}
	} else if (size <= 8) {
		add_xreg(out, -1, "$retval", 0);	/* x0 */
	} else {
		add_xreg(out, -1, "$retval", 8);	/* x0:x1 */
		add_xreg(out, 1, NULL, (unsigned int)(size - 8));
	}
	return true;
}

/* The argument registers and stack (NGRN, NSRN, NSAA) taken so far. */
struct arm64_args {
	int ngrn, nsrn;
	int64_t nsaa;
};

static void on_stack(struct arm64_args *st, Dwarf_Die *type, int64_t size, struct loc *l)
{
	struct loc_piece p = { .kind = LOC_MEM, .reg = -1, .base = (char *)"%sp" };
	int64_t align = abi_c_align(type);

	if (align < 8)
		align = 8;
	st->nsaa = (st->nsaa + align - 1) & ~(align - 1);
	p.off = st->nsaa;	/* sp points at the first at the entry */
	st->nsaa += (size + 7) & ~7;
	loc_add_piece(l, &p);
}

/* arm64_param() - place one parameter of @type by AAPCS64's rules (stage C) */
static int arm64_param(Dwarf_Die *type, const struct lang_ops *lang, void *state, struct loc *l,
		       const char **why)
{
	struct arm64_args *st = state;
	int64_t size = lang_type_size(type);
	int tag, nv, nx;
	Dwarf_Die t;

	tag = lang_strip(type, &t);
	if (size <= 0 || !tag) {
		*why = "a parameter of unknown or zero size";
		return -ENOTSUP;
	}
	if (lang == &lang_cxx && is_composite(tag) && tag != DW_TAG_array_type &&
	    abi_cxx_nontrivial(&t)) {
		*why = "a C++ class passed by invisible reference";
		return -ENOTSUP;
	}
	if ((nv = hfa(type))) {
		char why[80];

		if (st->nsrn + nv > NR_ARG_REGS) {
			st->nsrn = NR_ARG_REGS;
			on_stack(st, type, size, l);
			return 0;
		}
		snprintf(why, sizeof(why), "is in register v%d at the entry, which uprobes cannot "
			 "read", st->nsrn);
		add_bad(l, arm64_reg_vector_dwarf(st->nsrn), why);
		st->nsrn += nv;
		return 0;
	}
	if (is_composite(tag) && size > 16) {
		/* passed as a pointer to a copy the caller made */
		struct loc_piece p = { .kind = LOC_MEM, .reg = -1 };
		char base[16];

		if (st->ngrn >= NR_ARG_REGS) {
			*why = "a large struct whose copy's address is on the stack";
			return -ENOTSUP;
		}
		snprintf(base, sizeof(base), "%%%s", arm64_reg_kernel_name(st->ngrn++));
		p.base = base;
		loc_add_piece(l, &p);
		return 0;
	}
	nx = (int)((size + 7) / 8);
	if (abi_c_align(type) == 16)
		st->ngrn = (st->ngrn + 1) & ~1;	/* from an even register */
	if (st->ngrn + nx > NR_ARG_REGS) {
		st->ngrn = NR_ARG_REGS;
		on_stack(st, type, size, l);
		return 0;
	}
	if (nx == 1) {
		add_xreg(l, st->ngrn++, NULL, 0);
		return 0;
	}
	add_xreg(l, st->ngrn++, NULL, 8);
	add_xreg(l, st->ngrn++, NULL, (unsigned int)(size - 8));
	return 0;
}

static int arm64_abi_entry_params(Dwarf_Die *func, const struct lang_ops *lang,
				  struct abi_value **out, size_t *nr, const char **why)
{
	struct arm64_args st = { 0 };

	*out = NULL;
	*nr = 0;
	*why = NULL;
	if (lang == &lang_go) {
		/* what the DWARF says, unless it is broken (resolve-value.c) */
		if (!go_abi_values(func, &arm64_go_regs, false, out, nr))
			return 0;
		*why = "Go: its arguments' types have no known size";
		return -ENOTSUP;
	}
	if (abi_c_refused(func, lang, why))
		return -ENOTSUP;
	/* a result in memory takes x8, not an argument register: nothing moves */
	return abi_c_params(func, lang, arm64_param, &st, out, nr, why);
}

const struct abi_ops arm64_abi_ops = {
	.go_results	= arm64_abi_go_results,
	.c_return	= arm64_abi_return,
	.entry_params	= arm64_abi_entry_params,
};
