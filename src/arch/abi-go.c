// SPDX-License-Identifier: GPL-2.0-or-later
/* abi-go.c - Go's register ABI (ABIInternal), the same assignment on every machine: where a
 * Go function's arguments are at its entry and its results at a return instruction */
#define LOG_DOMAIN "abi"

#include <dwarf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/abi-go.h"
#include "log.h"

/* ---- Go's ABIInternal (abi-internal.md, "Function call argument and result passing") ---- */

/* One base value (a word or less) of a Go value in a register. */
struct go_piece {
	unsigned int offset;	/* byte offset inside the value */
	unsigned int size;	/* bytes */
	int reg;		/* DWARF number of its integer register, or -1 */
	int vec;		/* reg < 0: in vector register N (a float), which uprobes cannot
				 * read */
};

/* One argument or result of a function, and where the ABI put it. */
struct go_slot {
	const char *name;	/* borrowed from the DWARF; NULL when it has none */
	Dwarf_Die die;		/* the DW_TAG_formal_parameter */
	Dwarf_Die type;
	bool is_result;		/* DW_AT_variable_parameter */
	int64_t size;		/* bytes, -1 when unknown */
	bool on_stack;		/* the whole value is on the stack (did not fit, old ABI) */
	long sp_offset;		/* on_stack: at +sp_offset(%sp), at the entry and at a ret */
	struct go_piece *pieces;
	size_t nr_pieces;
};

struct go_assign {
	const struct go_abi_regs *regs;
	int next_int, next_float;
	bool fail;
	struct go_piece *pieces;	/* of the value being assigned */
	size_t nr, alloc;
};

/* go_size() - bytes of a Go type; a func value is one pointer */
static int64_t go_size(Dwarf_Die *type)
{
	Dwarf_Die t;

	if (lang_strip(type, &t) == DW_TAG_subroutine_type)
		return 8;
	return lang_type_size(type);
}

static int64_t go_align(Dwarf_Die *type, int depth)
{
	Dwarf_Die t, child, et;
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	int64_t a = 1, size;
	int tag = lang_strip(type, &t);

	if (depth > 16)
		return 8;
	switch (tag) {
	case DW_TAG_structure_type:
		if (dwarf_child(&t, &child) != 0)
			return a;
		do {
			Dwarf_Die mt;
			int64_t ma;

			if (dwarf_tag(&child) == DW_TAG_member && lang_type_of(&child, &mt) &&
			    (ma = go_align(&mt, depth + 1)) > a)
				a = ma;
		} while (dwarf_siblingof(&child, &child) == 0);
		return a;
	case DW_TAG_array_type:
		return lang_type_of(&t, &et) ? go_align(&et, depth + 1) : 8;
	case DW_TAG_base_type:
		size = go_size(&t);
		if (dwarf_attr(&t, DW_AT_encoding, &attr))
			dwarf_formudata(&attr, &enc);
		if (enc == DW_ATE_complex_float)
			size /= 2;
		return size > 8 ? 8 : size < 1 ? 1 : size;
	default:
		return 8;
	}
}

static void go_piece_add(struct go_assign *a, struct go_piece p)
{
	ALLOC_GROW(a->pieces, a->nr + 1, a->alloc);
	a->pieces[a->nr++] = p;
}

static void go_take_int(struct go_assign *a, int64_t off, int64_t size)
{
	if (a->next_int >= (int)a->regs->nr_int || size > 8) {
		a->fail = true;
		return;
	}
	go_piece_add(a, (struct go_piece){ .offset = (unsigned int)off,
					   .size = (unsigned int)size,
					   .reg = a->regs->int_regs[a->next_int++], .vec = -1 });
}

static void go_take_float(struct go_assign *a, int64_t off, int64_t size)
{
	if (a->next_float >= a->regs->nr_float) {
		a->fail = true;
		return;
	}
	go_piece_add(a, (struct go_piece){ .offset = (unsigned int)off,
					   .size = (unsigned int)size, .reg = -1,
					   .vec = a->next_float++ });
}

/* go_reg_assign() - "register-assignment of a value V of underlying type T" */
static void go_reg_assign(struct go_assign *a, Dwarf_Die *type, int64_t off, int depth)
{
	Dwarf_Attribute attr;
	Dwarf_Die t, child, et;
	Dwarf_Word enc = 0;
	int64_t size = go_size(type), esize;
	int tag = lang_strip(type, &t);

	if (a->fail)
		return;
	if (size < 0 || depth > 16) {
		a->fail = true;
		return;
	}
	if (size == 0)
		return;
	switch (tag) {
	case DW_TAG_base_type:
		if (dwarf_attr(&t, DW_AT_encoding, &attr))
			dwarf_formudata(&attr, &enc);
		if (enc == DW_ATE_float) {
			go_take_float(a, off, size);
		} else if (enc == DW_ATE_complex_float) {
			go_take_float(a, off, size / 2);
			go_take_float(a, off + size / 2, size / 2);
		} else {
			go_take_int(a, off, size);
		}
		return;
	case DW_TAG_structure_type:
		/* also strings (str, len), slices (array, len, cap), interfaces (tab, data) */
		if (dwarf_child(&t, &child) != 0)
			return;
		do {
			Dwarf_Word moff;
			Dwarf_Die mt;

			if (dwarf_tag(&child) != DW_TAG_member || !lang_type_of(&child, &mt))
				continue;
			if (!dwarf_attr(&child, DW_AT_data_member_location, &attr) ||
			    dwarf_formudata(&attr, &moff) != 0) {
				a->fail = true;
				return;
			}
			go_reg_assign(a, &mt, off + (int64_t)moff, depth + 1);
		} while (!a->fail && dwarf_siblingof(&child, &child) == 0);
		return;
	case DW_TAG_array_type:
		if (!lang_type_of(&t, &et) || (esize = go_size(&et)) <= 0 || size / esize != 1) {
			a->fail = true;		/* arrays of more than one element: stack */
			return;
		}
		go_reg_assign(a, &et, off, depth + 1);
		return;
	default:
		/* pointers, maps, channels, funcs, unsafe.Pointer: one word */
		go_take_int(a, off, size);
	}
}

/* go_regabi() - the CU was compiled for the register ABI (Go 1.17+ on amd64, 1.18+ on arm64) */
static bool go_regabi(Dwarf_Die *func)
{
	Dwarf_Attribute attr;
	const char *producer;
	Dwarf_Die cu;

	if (!dwarf_diecu(func, &cu, NULL, NULL) || !dwarf_attr(&cu, DW_AT_producer, &attr))
		return false;
	producer = dwarf_formstring(&attr);
	return producer && strstr(producer, "regabi");
}

static void go_slots_free(struct go_slot *s, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(s[i].pieces);
	free(s);
}

/*
 * go_layout() - every argument and result of @func in DWARF order, assigned to registers or
 * to the stack as the ABI does; stack slots are laid out arguments first, then (pointer-
 * aligned) results. Return: 0, or -EINVAL when a parameter has no type.
 */
static int go_layout(Dwarf_Die *func, const struct go_abi_regs *regs, struct go_slot **out,
		     size_t *nr)
{
	struct go_assign a = { .regs = regs };
	struct go_slot *slots = NULL;
	bool regabi = go_regabi(func), in_results = false;
	size_t n = 0, alloc = 0;
	int64_t stack = 0;	/* size of the stack sequence S so far */
	Dwarf_Die child;

	*out = NULL;
	*nr = 0;
	if (dwarf_child(func, &child) != 0)
		return 0;
	do {
		int save_int, save_float;
		struct go_slot *s;
		int64_t align;

		if (dwarf_tag(&child) != DW_TAG_formal_parameter)
			continue;
		ALLOC_GROW(slots, n + 1, alloc);
		s = &slots[n++];
		memset(s, 0, sizeof(*s));
		s->die = child;
		s->name = dwarf_diename(&child);
		s->is_result = lang_go_is_result(&child);
		if (!lang_type_of(&child, &s->type)) {
			pr_debug("parameter '%s' of %s has no type in the DWARF",
				 s->name ? s->name : "?", dwarf_diename(func));
			go_slots_free(slots, n);
			free(a.pieces);
			return -EINVAL;
		}
		if (s->is_result && !in_results) {
			/* pointer-alignment, then results from the first registers again */
			in_results = true;
			stack = (stack + 7) & ~7;
			a.next_int = 0;
			a.next_float = 0;
		}
		s->size = go_size(&s->type);
		align = go_align(&s->type, 0);
		save_int = a.next_int;
		save_float = a.next_float;
		a.fail = !regabi || s->size < 0;
		a.nr = 0;
		if (s->size > 0)
			go_reg_assign(&a, &s->type, 0, 0);
		if (a.fail) {
			a.next_int = save_int;
			a.next_float = save_float;
			a.nr = 0;
			if (s->size > 0) {
				stack = (stack + align - 1) & ~(align - 1);
				s->on_stack = true;
				s->sp_offset = regs->stack_base + stack;
				stack += s->size;
			}
		}
		if (a.nr) {
			s->pieces = xmalloc(a.nr * sizeof(*s->pieces));
			memcpy(s->pieces, a.pieces, a.nr * sizeof(*s->pieces));
			s->nr_pieces = a.nr;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	free(a.pieces);
	*out = slots;
	*nr = n;
	return 0;
}

/* go_piece_loc() - append where piece @gp is (@whole: the value's only piece) */
static void go_piece_loc(struct loc *l, const struct go_abi_regs *regs,
			 const struct go_piece *gp, bool whole)
{
	struct loc_piece p = { .reg = -1, .size = whole ? 0 : gp->size };
	char fetch[16], why[80], name[16];

	if (gp->reg >= 0) {
		snprintf(fetch, sizeof(fetch), "%%%s", regs->reg_kernel_name(gp->reg));
		p.kind = LOC_VAL;
		p.fetch = fetch;
		p.reg = gp->reg;
	} else {
		p.reg = regs->reg_vector_dwarf(gp->vec);
		snprintf(why, sizeof(why), "is in register %s, which uprobes cannot read",
			 regs->reg_describe(p.reg, name));
		p.kind = LOC_BAD;
		p.why = why;
	}
	loc_add_piece(l, &p);
}

/* go_slot_loc() - @s as a struct loc: its pieces in order, with the padding between them */
static void go_slot_loc(const struct go_slot *s, const struct go_abi_regs *regs,
			struct loc *l)
{
	unsigned int at = 0;

	if (s->on_stack) {
		struct loc_piece p = { .kind = LOC_MEM, .reg = -1,
				       .base = (char *)regs->sp_fetch,
				       .off = s->sp_offset };

		loc_add_piece(l, &p);
		return;
	}
	if (s->nr_pieces == 1 && s->pieces[0].offset == 0) {
		go_piece_loc(l, regs, &s->pieces[0], true);
		return;
	}
	for (size_t k = 0; k < s->nr_pieces; k++) {
		const struct go_piece *gp = &s->pieces[k];

		if (gp->offset > at) {
			/* padding between fields */
			struct loc_piece pad = { .kind = LOC_NONE, .reg = -1,
						 .size = gp->offset - at };

			loc_add_piece(l, &pad);
		}
		go_piece_loc(l, regs, gp, false);
		at = gp->offset + gp->size;
	}
	if (!l->nr) {
		struct loc_piece p = { .kind = LOC_IMM, .reg = -1 };

		loc_add_piece(l, &p);	/* a zero-sized value */
	}
}

int go_abi_values(Dwarf_Die *func, const struct go_abi_regs *regs, bool results,
		  struct abi_value **res, size_t *nr)
{
	struct go_slot *slots;
	struct abi_value *v;
	size_t n, nres = 0;

	*res = NULL;
	*nr = 0;
	if (go_layout(func, regs, &slots, &n))
		return -ENOENT;
	for (size_t i = 0; i < n; i++) {
		if (slots[i].is_result != results)
			continue;
		if (slots[i].size < 0) {
			pr_debug("%s '%s' of %s has a type of unknown size",
				 results ? "result" : "argument",
				 slots[i].name ? slots[i].name : "~r", dwarf_diename(func));
			go_slots_free(slots, n);
			return -ENOENT;
		}
		nres++;
	}
	if (!nres) {
		go_slots_free(slots, n);
		return -ENOENT;
	}
	v = xcalloc(nres, sizeof(*v));
	for (size_t i = 0, k = 0; i < n; i++) {
		if (slots[i].is_result != results)
			continue;
		v[k].name = xstrdup(slots[i].name ? slots[i].name : "~r");
		v[k].die = slots[i].die;
		v[k].type = slots[i].type;
		v[k].has_type = true;
		go_slot_loc(&slots[i], regs, &v[k].loc);
		k++;
	}
	go_slots_free(slots, n);
	*res = v;
	*nr = nres;
	return 0;
}

/* the values every machine's abi_ops return are freed the same way */
void abi_values_free(struct abi_value *v, size_t nr)
{
	if (!v)
		return;
	for (size_t i = 0; i < nr; i++) {
		free(v[i].name);
		loc_release(&v[i].loc);
	}
	free(v);
}
