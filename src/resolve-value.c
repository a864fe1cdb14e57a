// SPDX-License-Identifier: GPL-2.0-or-later
/* resolve-value.c - an expression walked over DWARF types: members, indexing, strings/slices */
#define LOG_DOMAIN "resolve"
#include <dwarf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arch/abi.h"
#include "lang.h"
#include "log.h"
#include "parse.h"
#include "regs.h"
#include "resolve-internal.h"

void val_release(struct val *v)
{
	loc_release(&v->loc);
	free(v->what);
	free(v->typeid_type);
	free(v->typeid_class);
	memset(v, 0, sizeof(*v));
}

void val_from(struct val *out, const struct val *v)
{
	memset(out, 0, sizeof(*out));
	out->type = v->type;
	out->has_type = v->has_type;
	loc_copy(&out->loc, &v->loc);
	out->what = xstrdup(v->what);
}

/* Replace *v with *n. */
void val_move(struct val *v, struct val *n)
{
	val_release(v);
	*v = *n;
	memset(n, 0, sizeof(*n));
}

void rctx_guards_truncate(struct rctx *rc, int n)
{
	for (int i = n; i < rc->nr_guards; i++) {
		free(rc->guards[i].fetch);
		free(rc->guards[i].expr);
		free(rc->guards[i].base);
		free(rc->guards[i].words);
		free(rc->guards[i].cls);
		memset(&rc->guards[i], 0, sizeof(rc->guards[i]));
	}
	if (n < rc->nr_guards)
		rc->nr_guards = n;
}

void rctx_guards_clear(struct rctx *rc)
{
	rctx_guards_truncate(rc, 0);
}

int val_piece_error(struct rctx *rc, const struct loc_piece *p, const char *what,
		       struct span sp)
{
	if (p->kind == LOC_BAD)
		return diag_error(rc->d, sp, "'%s' %s (at %s)", what, p->why, rc->where);
	return diag_error(rc->d, sp, "'%s' is optimized out at %s", what, rc->where);
}

/* The part [@off, @off + @size) of @v's location into @out (which gets no type). */
static int loc_part(struct rctx *rc, const struct val *v, int64_t off, int64_t size,
		    struct val *out, struct span sp)
{
	int64_t start = 0;
	size_t i, first = (size_t)-1;

	memset(out, 0, sizeof(*out));
	if (v->loc.nr == 1 && v->loc.pieces[0].size == 0) {
		first = 0;
	} else {
		for (i = 0; i < v->loc.nr; i++) {
			int64_t psz = v->loc.pieces[i].size;

			if (off >= start && off < start + psz) {
				first = i;
				break;
			}
			start += psz;
		}
	}
	if (first == (size_t)-1)
		return diag_error(rc->d, sp, "'%s' has no location for bytes %" PRId64 "..%" PRId64
				  " at %s", v->what, off, off + size, rc->where);
	{
		const struct loc_piece *p = &v->loc.pieces[first];
		int64_t rel = off - start;
		int64_t psz = p->size ? p->size : INT64_MAX;
		struct loc_piece np = *p;

		if (rel + size > psz) {
			/* the part spans several pieces: it must start and end on their borders */
			int64_t end = off + size, at = start;

			if (rel != 0)
				goto misaligned;
			for (i = first; i < v->loc.nr && at < end; i++) {
				loc_add_piece(&out->loc, &v->loc.pieces[i]);
				at += v->loc.pieces[i].size;
			}
			if (at != end)
				goto misaligned;
			return 0;
		}
		np.size = 0;
		switch (p->kind) {
		case LOC_MEM:
			np.off = p->off + rel;
			break;
		case LOC_VAL:
			if (rel || (v->bit_size && size * 8 < 64)) {
				if (rel + size > 8 || p->off)
					goto misaligned;
				out->bit_off = (unsigned int)(rel * 8);
				out->bit_size = (unsigned int)(size * 8);
				out->bit_container = 64;
			}
			break;
		case LOC_IMM:
			if (rel >= 8)
				np.imm = 0;
			else
				np.imm = p->imm >> (rel * 8);
			if (size < 8)
				np.imm &= (1ULL << (size * 8)) - 1;
			break;
		default:
			break;
		}
		loc_add_piece(&out->loc, &np);
	}
	return 0;
misaligned:
	loc_release(&out->loc);
	return diag_error(rc->d, sp, "'%s' is split over registers in a way upfront cannot read "
			  "(bytes %" PRId64 "..%" PRId64 ")", v->what, off, off + size);
}

int val_at_offset(struct rctx *rc, struct val *v, int64_t off, Dwarf_Die *type,
		  const char *what, struct span sp)
{
	int64_t size = lang_type_size(type);
	struct val n;

	if (loc_part(rc, v, off, size > 0 ? size : 8, &n, sp))
		return -EINVAL;
	n.type = *type;
	n.has_type = true;
	n.what = xstrdup(what);
	val_move(v, &n);
	return 0;
}

int val_bytes(struct rctx *rc, const struct val *v, int64_t off, int64_t size, struct span sp,
	     struct val *out)
{
	if (loc_part(rc, v, off, size, out, sp))
		return -EINVAL;
	out->what = xstrdup(v->what);
	return 0;
}

/* The fetcharg that reads @v as a word (a pointer, a length), less @add (LOC_VAL's off). */
int val_word_fetch_add(struct rctx *rc, const struct val *v, struct span sp, char **fetch,
		       int64_t *add)
{
	const struct loc_piece *p;

	*fetch = NULL;
	*add = 0;
	if (v->loc.nr != 1)
		return diag_error(rc->d, sp, "'%s' is split over several registers here", v->what);
	p = &v->loc.pieces[0];
	switch (p->kind) {
	case LOC_MEM:
		*fetch = loc_mem_fetch(p->base, p->off);
		return 0;
	case LOC_VAL:
		if (v->bit_size)
			return diag_error(rc->d, sp, "'%s' is a part of register %s, which cannot "
					  "be followed", v->what, p->fetch);
		*fetch = xstrdup(p->fetch);
		*add = p->off;
		return 0;
	case LOC_IMM:
		*fetch = xasprintf("\\%" PRIu64, p->imm);
		return 0;
	default:
		return val_piece_error(rc, p, v->what, sp);
	}
}

int val_word_fetch(struct rctx *rc, const struct val *v, struct span sp, char **fetch)
{
	int64_t add;
	int ret = val_word_fetch_add(rc, v, sp, fetch, &add);

	if (ret || !add)
		return ret;
	diag_error(rc->d, sp, "'%s' is %s %s %" PRId64 ", a sum uprobes cannot fetch here",
		   v->what, *fetch, add < 0 ? "minus" : "plus", add < 0 ? -add : add);
	free(*fetch);
	*fetch = NULL;
	return -EINVAL;
}

struct guard *rctx_add_guard(struct rctx *rc, enum guard_kind kind, const char *fetch,
				    const char *expr, uint64_t index)
{
	struct guard *g;

	for (int i = 0; i < rc->nr_guards; i++)
		if (rc->guards[i].kind == kind && !strcmp(rc->guards[i].fetch, fetch) &&
		    rc->guards[i].index == index)
			return NULL;
	if (rc->nr_guards == TRACE_ARG_MAX_GUARDS)
		return NULL;
	g = &rc->guards[rc->nr_guards++];
	memset(g, 0, sizeof(*g));
	g->kind = kind;
	g->fetch = xstrdup(fetch);
	g->expr = xstrdup(expr);
	g->index = index;
	return g;
}

/* @add: the pointer is what @fetch reads plus @add (the guard judges their sum) */
static void add_guard(struct rctx *rc, const char *fetch, int64_t add, const char *expr)
{
	for (int i = 0; i < rc->nr_guards; i++)
		if (rc->guards[i].kind == GUARD_PTR && !strcmp(rc->guards[i].fetch, fetch) &&
		    rc->guards[i].index == (uint64_t)add)
			return;
	rctx_add_guard(rc, GUARD_PTR, fetch, expr, (uint64_t)add);
}

/* @v is a pointer: @out is what it points to, plus @off bytes, of type @to. */
int val_deref(struct rctx *rc, const struct val *v, int64_t off, Dwarf_Die *to,
		     bool has_to, const char *what, struct span sp, struct val *out)
{
	struct loc_piece p = { .kind = LOC_MEM, .reg = -1 };
	char *fetch;
	int64_t add;
	int ret = val_word_fetch_add(rc, v, sp, &fetch, &add);

	if (ret)
		return ret;
	add_guard(rc, fetch, add, v->what);
	p.base = fetch;
	p.off = off + v->adj + add;
	memset(out, 0, sizeof(*out));
	loc_add_piece(&out->loc, &p);
	free(fetch);
	if (has_to)
		out->type = *to;
	out->has_type = has_to;
	out->what = xstrdup(what);
	return 0;
}

/* @v is a pointer without a DIE (val.ptrs): @out is what it points to, @off bytes on */
static int val_deref_synth(struct rctx *rc, const struct val *v, int64_t off, const char *what,
			   struct span sp, struct val *out)
{
	Dwarf_Die to = v->type;
	int ret = val_deref(rc, v, off, &to, v->has_type, what, sp, out);

	if (!ret)
		out->ptrs = v->ptrs - 1;
	return ret;
}

/*
 * follow() - val_follow_pointers(), stopping at a struct that has a member @keep (a smart
 * pointer's own members stay reachable: ptr._M_t, rc.ptr) when @keep is not NULL
 */
static int follow(struct rctx *rc, struct val *v, struct span sp, int *tag_out,
		  Dwarf_Die *stripped, const char *keep)
{
	for (int i = 0; i < 16; i++) {
		Dwarf_Die to;
		struct val n;
		enum smart smart;
		int64_t off;
		int tag;

		if (v->ptrs) {
			if (val_deref_synth(rc, v, 0, v->what, sp, &n))
				return -EINVAL;
			val_move(v, &n);
			continue;
		}
		if (!v->has_type) {
			*tag_out = 0;
			return 0;
		}
		tag = lang_strip(&v->type, stripped);
		if (tag_is_struct(tag) && keep && lang_find_member(stripped, keep, &to, &off)) {
			*tag_out = tag;
			return 0;
		}
		if (tag_is_struct(tag)) {
			if (val_smart_ptr(rc, v, true, sp, &smart))
				return -EINVAL;
			if (smart)
				continue;
		}
		if (!tag_is_pointer(tag) || !lang_type_of(stripped, &to)) {
			*tag_out = tag;
			return 0;
		}
		if (val_deref(rc, v, 0, &to, true, v->what, sp, &n))
			return -EINVAL;
		val_move(v, &n);
	}
	return diag_error(rc->d, sp, "'%s' is a pointer to a pointer to ... too deep", v->what);
}

int val_follow_pointers(struct rctx *rc, struct val *v, struct span sp, int *tag_out,
			Dwarf_Die *stripped)
{
	return follow(rc, v, sp, tag_out, stripped, NULL);
}

/* Bitfield position of @member: in bits from the start of its container. */
static int member_bits(Dwarf_Die *member, Dwarf_Die *mtype, int64_t moff_bytes, int64_t *byte_off,
		       unsigned int *bit_off, unsigned int *bit_size, unsigned int *container)
{
	Dwarf_Attribute attr;
	Dwarf_Word w, bs;
	int64_t csize = lang_type_size(mtype);

	if (!dwarf_attr(member, DW_AT_bit_size, &attr) || dwarf_formudata(&attr, &bs))
		return 0;
	if (csize <= 0 || csize > 8)
		csize = 4;
	*bit_size = (unsigned int)bs;
	*container = (unsigned int)(csize * 8);
	if (dwarf_attr(member, DW_AT_data_bit_offset, &attr) && !dwarf_formudata(&attr, &w)) {
		/* bits from the start of the struct (moff_bytes is then 0) */
		uint64_t total = w + (uint64_t)moff_bytes * 8;
		uint64_t cont = total / (csize * 8) * csize;

		*byte_off = (int64_t)cont;
		*bit_off = (unsigned int)(total - cont * 8);
	} else if (dwarf_attr(member, DW_AT_bit_offset, &attr) && !dwarf_formudata(&attr, &w)) {
		Dwarf_Word stor = (Dwarf_Word)csize;

		/* DWARF 2/3: counted from the most significant bit of the storage unit */
		if (dwarf_attr(member, DW_AT_byte_size, &attr))
			dwarf_formudata(&attr, &stor);
		*byte_off = moff_bytes;
		*bit_off = (unsigned int)(stor * 8 - w - bs);
		*container = (unsigned int)(stor * 8);
	} else {
		*byte_off = moff_bytes;
		*bit_off = 0;
	}
	if (*bit_off + *bit_size > *container)
		return -1;
	return 1;
}

bool find_vptr(Dwarf_Die *type, const char *suffix, Dwarf_Die *member, int64_t *off, int depth)
{
	Dwarf_Die t, child;

	if (depth > 16 || !lang_strip(type, &t) || dwarf_child(&t, &child) != 0)
		return false;
	do {
		const char *n = dwarf_diename(&child);
		Dwarf_Die sub;
		int64_t o, inner;

		if (dwarf_tag(&child) == DW_TAG_member && n && !strncmp(n, "_vptr", 5) &&
		    (!suffix || !strcmp(n + 5 + (n[5] != 0), suffix)) &&
		    lang_member_offset(&child, off)) {
			*member = child;
			return true;
		}
		if (dwarf_tag(&child) == DW_TAG_inheritance && lang_member_offset(&child, &o) &&
		    lang_type_of(&child, &sub) && find_vptr(&sub, suffix, member, &inner,
							     depth + 1)) {
			*off = o + inner;
			return true;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/*
 * A member of a virtual base: the Itanium ABI keeps the base's offset in the vtable (the
 * vbase offset below the address point), and a fetcharg can add a constant to an address but
 * not a value it read. Refused rather than read at a guessed offset (the man page, under
 * casts).
 */
int rctx_virtual_base_error(struct rctx *rc, struct span sp, const char *name, Dwarf_Die *t,
			      Dwarf_Die *vbase)
{
	struct strbuf tn = STRBUF_INIT, bn = STRBUF_INIT;

	strbuf_init(&tn);
	strbuf_init(&bn);
	lang_c_type_name(t, true, &tn);
	lang_c_type_name(vbase, true, &bn);
	diag_error(rc->d, sp, "'%s' is in %s, a virtual base of %s: its offset is read from the "
		   "vtable at run time, and a uprobe fetcharg cannot add a value it read to an "
		   "address", name, bn.buf, tn.buf);
	diag_hint(rc->d, "probe a function that has a %s * (this in its methods)", bn.buf);
	strbuf_release(&tn);
	strbuf_release(&bn);
	return -EINVAL;
}


/* "_vptr", "B::_vptr": the first part of a vtable pointer's name, which has a dot */
static bool names_vptr(const char *name)
{
	size_t n = strlen(name);

	return !strcmp(name, "_vptr") || (n > 7 && !strcmp(name + n - 7, "::_vptr"));
}

/* @v.@name, following pointers first. */
static int val_member(struct rctx *rc, struct val *v, const char *name, const char *what,
		      struct span sp)
{
	Dwarf_Die t, member, vbase;
	int64_t off;
	int tag = 0, ret;

	if (follow(rc, v, sp, &tag, &t, name))
		return -EINVAL;
	if (!v->has_type)
		return diag_error(rc->d, sp, "'%s' has no type; it has no field '%s'", v->what,
				  name);
	if (!tag_is_struct(tag)) {
		char *tn = val_type_name(rc, v);

		diag_error(rc->d, sp, "'%s' is a %s, not a struct; it has no field '%s'", v->what,
			   tn, name);
		free(tn);
		return -EINVAL;
	}
	if (strstr(name, "::")) {
		ret = rctx_qualified_member(rc, &t, name, what, &member, &off, sp);
		if (ret)
			return ret;
		goto found;
	}
	if (strncmp(name, "_vptr", 5) && rctx_member_ambiguous(rc, &t, name, sp))
		return -EINVAL;
	if (!lang_find_member(&t, name, &member, &off)) {
		struct strbuf fields = STRBUF_INIT;
		const char *tn = dwarf_diename(&t);

		if (!strncmp(name, "_vptr", 5) &&
		    find_vptr(&t, name[5] ? name + 6 : NULL, &member, &off, 0))
			goto found;
		if (lang_virtual_member(&t, name, &vbase))
			return rctx_virtual_base_error(rc, sp, name, &t, &vbase);
		if (rctx_declared_reading(rc, &t, what, sp))
			return -ENOENT;
		strbuf_init(&fields);
		if (lang_promoted_path(&t, name, &fields)) {
			/* Go: through an embedded pointer, which is followed (nil: a fault) */
			ret = val_path(rc, v, fields.buf, sp);
			strbuf_release(&fields);
			return ret ? ret : val_member(rc, v, name, what, sp);
		}
		lang_list_members(&t, &fields);
		diag_error(rc->d, sp, "'%s' has no field '%s'", tn ? tn : v->what, name);
		if (fields.len)
			diag_hint(rc->d, "fields: %s", fields.buf);
		else
			diag_hint(rc->d, "it has no fields");
		strbuf_release(&fields);
		return -ENOENT;
	}
found:
	return val_member_die(rc, v, &member, off, what, sp);
}

int val_member_die(struct rctx *rc, struct val *v, Dwarf_Die *member, int64_t off,
		   const char *what, struct span sp)
{
	Dwarf_Die mtype;
	int64_t size, boff;
	unsigned int bit_off = 0, bit_size = 0, container = 0;
	const char *name = dwarf_diename(member) ? dwarf_diename(member) : what;
	struct val n;
	int ret;

	if (!lang_type_of(member, &mtype))
		return diag_error(rc->d, sp, "field '%s' has no type", name);
	size = lang_type_size(&mtype);
	if (size < 0)
		size = 8;
	boff = off;
	ret = member_bits(member, &mtype, off, &boff, &bit_off, &bit_size, &container);
	if (ret < 0)
		return diag_error(rc->d, sp, "bitfield '%s' straddles its storage unit", name);
	if (ret > 0)
		size = container / 8;
	ret = loc_part(rc, v, boff, size, &n, sp);
	if (ret)
		return ret;
	n.type = mtype;
	n.has_type = true;
	n.what = xstrdup(what);
	n.is_vptr = dwarf_diename(member) && !strncmp(dwarf_diename(member), "_vptr", 5);
	if (ret == 0 && bit_size) {
		if (n.bit_size) {
			/* a bitfield of a struct in a register: both shifts add up */
			n.bit_off += bit_off;
			n.bit_size = bit_size;
		} else {
			n.bit_off = bit_off;
			n.bit_size = bit_size;
			n.bit_container = container;
		}
	}
	val_move(v, &n);
	return 0;
}

/* The value at dotted member path @path below @v. */
int val_path(struct rctx *rc, struct val *v, const char *path, struct span sp)
{
	char *copy = xstrdup(path), *save = NULL, *tok;
	int ret = 0;

	for (tok = strtok_r(copy, ".", &save); tok && !ret; tok = strtok_r(NULL, ".", &save)) {
		char *what = xasprintf("%s.%s", v->what, tok);

		ret = val_member(rc, v, tok, what, sp);
		free(what);
	}
	free(copy);
	return ret;
}

/* The path to the first pointer member found depth-first below @type. */
static bool first_pointer(Dwarf_Die *type, struct strbuf *path, int depth)
{
	Dwarf_Die t, child;

	if (depth > 12 || !tag_is_struct(lang_strip(type, &t)) || dwarf_child(&t, &child) != 0)
		return false;
	do {
		Dwarf_Die mt, mts;
		size_t len = path->len;
		int tag;

		if (dwarf_tag(&child) != DW_TAG_member || !dwarf_diename(&child) ||
		    !lang_type_of(&child, &mt))
			continue;
		if (path->len)
			strbuf_addch(path, '.');
		strbuf_addstr(path, dwarf_diename(&child));
		tag = lang_strip(&mt, &mts);
		if (tag == DW_TAG_pointer_type)
			return true;
		if (first_pointer(&mt, path, depth + 1))
			return true;
		path->len = len;
		path->buf[len] = '\0';
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/* @v's data pointer per @l (below @v's struct). */
int val_layout_ptr(struct rctx *rc, const struct val *v, const struct lang_layout *l,
		      struct span sp, struct val *out)
{
	val_from(out, v);
	if (val_path(rc, out, l->ptr, sp)) {
		val_release(out);	/* callers return at once: nothing of it may stay */
		return -EINVAL;
	}
	if (l->ptr_below) {
		struct strbuf path = STRBUF_INIT;
		int ret;

		strbuf_init(&path);
		if (!first_pointer(&out->type, &path, 0)) {
			strbuf_release(&path);
			val_release(out);
			return diag_error(rc->d, sp, "'%s': no data pointer found in its layout",
					  v->what);
		}
		ret = val_path(rc, out, path.buf, sp);
		strbuf_release(&path);
		if (ret) {
			val_release(out);
			return ret;
		}
	}
	return 0;
}

int val_layout_len(struct rctx *rc, const struct val *v, const struct lang_layout *l,
		      struct span sp, struct val *out)
{
	int ret;

	val_from(out, v);
	ret = val_path(rc, out, l->len, sp);
	if (ret)
		val_release(out);
	return ret;
}

/* Classify a struct value: a string with a length, a slice, an interface. */
bool type_layout(Dwarf_Die *stripped, bool slice, struct lang_layout *l)
{
	const struct lang_ops *lo = lang_of_die(stripped);
	const char *name = dwarf_diename(stripped);

	if (slice)
		return lo->slice_layout && lo->slice_layout(stripped, name, l);
	return lo->string_layout && lo->string_layout(stripped, name, l);
}

#define MAX_DIMS 8

/*
 * The dimensions of array @arr left after @dim of them are indexed: @count of the next one
 * (-1: not known), @inner the number of elements one step of it covers (the product of the
 * dimensions after it; -1 when one of them is not known). Return: the dimensions in all.
 */
int type_array_dim(Dwarf_Die *arr, unsigned int dim, int64_t *count, int64_t *inner)
{
	int64_t counts[MAX_DIMS];
	int n = lang_array_dims(arr, counts, MAX_DIMS);

	*count = -1;
	*inner = 1;
	if ((int)dim >= n)
		return n;
	*count = counts[dim];
	for (int i = (int)dim + 1; i < n; i++) {
		if (counts[i] < 0 || *inner < 0) {
			*inner = -1;
			continue;
		}
		*inner *= counts[i];
	}
	return n;
}

/*
 * Check index @idx of slice/vector @v (layout @l, data pointer @ptr) against its runtime
 * length: a hidden length field (or std::vector's end pointer) and a GUARD_LEN/GUARD_END.
 * A length that cannot be read here (optimized out where the compiler proved the index in
 * bounds, or needs it no more) refuses the index: read unchecked it would show the bytes
 * past the end as an element (the man page, "Optimized code").
 */
static int add_bound(struct rctx *rc, const struct val *v, const struct lang_layout *l,
		     const struct val *ptr, long idx, int64_t esize, const char *what,
		     struct span sp)
{
	struct diag scratch, *save = rc->d;
	struct val w;
	char *f = NULL, *pf = NULL;
	struct guard *g;
	int ret = 0;

	if (!l->len && (!l->end || esize <= 0))
		return 0;
	diag_init(&scratch, rc->spec->text);
	rc->d = &scratch;
	memset(&w, 0, sizeof(w));
	if (l->len) {
		if (!val_layout_len(rc, v, l, sp, &w) && !val_word_fetch(rc, &w, sp, &f))
			rctx_add_guard(rc, GUARD_LEN, f, what, (uint64_t)idx);
	} else {
		val_from(&w, v);
		if (!val_path(rc, &w, l->end, sp) && !val_word_fetch(rc, &w, sp, &f) &&
		    !val_word_fetch(rc, ptr, sp, &pf) &&
		    (g = rctx_add_guard(rc, GUARD_END, f, what, (uint64_t)idx))) {
			g->base = pf;
			g->elem = (unsigned int)esize;
			pf = NULL;
		}
	}
	rc->d = save;
	if (diag_has_error(&scratch)) {
		ret = diag_error(rc->d, sp, "cannot check index %ld of '%s' against its length: "
				 "%s", idx, v->what, scratch.msg ? scratch.msg : "?");
		if (!l->ptr_below)
			diag_hint(rc->d, "to read it unchecked, index the data pointer: %s.%s[%ld]",
				  v->what, l->ptr, idx);
	}
	free(f);
	free(pf);
	val_release(&w);
	diag_release(&scratch);
	return ret;
}

/* The byte offset of element @idx of @esize bytes; an error when it does not fit in 63 bits
 * (a wrapped product would silently read another element). */
static int index_offset(struct rctx *rc, long idx, int64_t esize, const char *what,
			struct span sp, int64_t *off)
{
	if (esize > 0 && idx > 0 && idx > INT64_MAX / esize)
		return diag_error(rc->d, sp, "index %ld of '%s' is too large: it is %ld elements "
				  "of %" PRId64 " bytes past the start", idx, what, idx, esize);
	*off = (int64_t)idx * esize;
	return 0;
}

/* @v[@idx] of array type @t: a part of @v, or a row of a multi-dimensional array */
static int index_array(struct rctx *rc, struct val *v, Dwarf_Die *t, long idx,
		       const char *what, struct span sp)
{
	int64_t count, inner, esize, off = 0, total = lang_type_size(t);
	Dwarf_Die elem;
	struct val n;
	int ndims;

	if (!lang_type_of(t, &elem))
		return diag_error(rc->d, sp, "'%s' is an array without element type", v->what);
	ndims = type_array_dim(t, v->dim, &count, &inner);
	esize = lang_type_size(&elem);
	if (esize <= 0 && ndims <= 1 && count > 0 && total > 0)
		esize = total / count;
	if (inner < 0)
		return diag_error(rc->d, sp, "cannot index '%s': an inner dimension of its array "
				  "type has no known size", v->what);
	esize *= inner;
	if (esize <= 0)
		return diag_error(rc->d, sp, "cannot index '%s': the size of its elements is "
				  "unknown", v->what);
	if (count >= 0 && (idx < 0 || idx >= count))
		return diag_error(rc->d, sp, "index %ld is out of bounds of '%s' (%" PRId64
				  " elements)", idx, v->what, count);
	if (index_offset(rc, idx, esize, v->what, sp, &off) || loc_part(rc, v, off, esize, &n, sp))
		return -EINVAL;
	if ((int)v->dim + 1 < ndims) {
		/* a row of a multi-dimensional array: the same array type, one more index */
		n.type = v->type;
		n.dim = v->dim + 1;
	} else {
		n.type = elem;
	}
	n.has_type = true;
	n.what = xstrdup(what);
	val_move(v, &n);
	return 0;
}

/* @v[@idx] of pointer type @t: what it points to, @idx elements on */
static int index_pointer(struct rctx *rc, struct val *v, Dwarf_Die *t, long idx,
			 const char *what, struct span sp)
{
	Dwarf_Die elem;
	int64_t esize, off = 0;
	struct val n;

	if (!lang_type_of(t, &elem))
		return diag_error(rc->d, sp, "cannot index '%s': it is a void pointer", v->what);
	esize = lang_type_size(&elem);
	if (esize < 0 && rctx_declared_reading(rc, &elem, what, sp))
		return -ENOENT;
	/* *p of a zero-sized type (a Rust enum of one unit variant) is fine: nothing is read */
	if (esize < 0 || (esize == 0 && idx))
		return diag_error(rc->d, sp, "cannot index '%s': the size of what it points to is "
				  "unknown", v->what);
	if (index_offset(rc, idx, esize, v->what, sp, &off) ||
	    val_deref(rc, v, off, &elem, true, what, sp, &n))
		return -EINVAL;
	val_move(v, &n);
	return 0;
}

/* @v[@idx] of a slice, vector or string of layout @l (struct type @t): through its data
 * pointer, checked against its length at run time */
static int index_slice(struct rctx *rc, struct val *v, Dwarf_Die *t, const struct lang_layout *l,
		       long idx, const char *what, struct span sp)
{
	struct val ptr, n;
	Dwarf_Die pt, elem;
	bool has_elem = false;
	int64_t esize, off = 0;
	int ret;

	if (l->elem_param)
		has_elem = lang_template_param(t, l->elem_param, &elem);
	if (val_layout_ptr(rc, v, l, sp, &ptr))
		return -EINVAL;
	/* a slice is guarded by its own name, not by its data member's */
	free(ptr.what);
	ptr.what = xstrdup(v->what);
	if (!has_elem && ptr.has_type && lang_strip(&ptr.type, &pt) == DW_TAG_pointer_type)
		has_elem = lang_type_of(&pt, &elem);
	if (!has_elem) {
		val_release(&ptr);
		return diag_error(rc->d, sp, "cannot index '%s': its element type is unknown",
				  v->what);
	}
	esize = lang_type_size(&elem);
	if (esize < 0)
		esize = 0;
	if (index_offset(rc, idx, esize, v->what, sp, &off)) {
		val_release(&ptr);
		return -EINVAL;
	}
	if (add_bound(rc, v, l, &ptr, idx, esize, what, sp)) {
		val_release(&ptr);
		return -EINVAL;
	}
	ret = val_deref(rc, &ptr, off, &elem, true, what, sp, &n);
	val_release(&ptr);
	if (ret)
		return ret;
	val_move(v, &n);
	return 0;
}

/* @v[@idx] of a pointer without a DIE (a cast's "T *"): @idx elements on */
static int index_synth(struct rctx *rc, struct val *v, long idx, const char *what,
		       struct span sp)
{
	int64_t esize = v->ptrs > 1 ? 8 : v->has_type ? lang_type_size(&v->type) : -1, off = 0;
	struct val n;

	if (esize <= 0 && v->has_type && rctx_declared_reading(rc, &v->type, what, sp))
		return -ENOENT;
	if (esize <= 0)
		return diag_error(rc->d, sp, "cannot index '%s': the size of what it points to is "
				  "unknown", v->what);
	if (index_offset(rc, idx, esize, v->what, sp, &off) ||
	    val_deref_synth(rc, v, off, what, sp, &n))
		return -EINVAL;
	val_move(v, &n);
	return 0;
}

/* @v[@idx]: arrays, pointers, slices, vectors and strings with a length; references and
 * smart pointers are followed first */
int val_index(struct rctx *rc, struct val *v, long idx, const char *what, struct span sp)
{
	Dwarf_Die t;
	struct lang_layout l;
	int tag = 0;
	char *tn;

	for (int i = 0; i < 16; i++) {
		Dwarf_Die to;
		struct val n;
		enum smart smart;

		if (v->ptrs)
			return index_synth(rc, v, idx, what, sp);
		if (!v->has_type)
			return diag_error(rc->d, sp, "'%s' has no type to index", v->what);
		tag = lang_strip(&v->type, &t);
		if (tag_is_struct(tag)) {
			if (val_smart_ptr(rc, v, false, sp, &smart))
				return -EINVAL;
			if (smart)
				continue;
		}
		if (tag != DW_TAG_reference_type && tag != DW_TAG_rvalue_reference_type)
			break;
		if (!lang_type_of(&t, &to) || val_deref(rc, v, 0, &to, true, v->what, sp, &n))
			return -EINVAL;
		val_move(v, &n);
	}
	if (tag == DW_TAG_array_type)
		return index_array(rc, v, &t, idx, what, sp);
	if (tag == DW_TAG_pointer_type)
		return index_pointer(rc, v, &t, idx, what, sp);
	if (tag_is_struct(tag) && (type_layout(&t, true, &l) || type_layout(&t, false, &l)))
		return index_slice(rc, v, &t, &l, idx, what, sp);
	tn = val_type_name(rc, v);
	diag_error(rc->d, sp, "cannot index '%s': type %s is not an array, pointer, slice or "
		   "vector", v->what, tn);
	free(tn);
	return -EINVAL;
}

static bool piece_same(const struct loc_piece *a, const struct loc_piece *b)
{
	return a->kind == b->kind && a->size == b->size && a->reg == b->reg && a->off == b->off &&
	       a->imm == b->imm && !strcmp(a->fetch ? a->fetch : "", b->fetch ? b->fetch : "") &&
	       !strcmp(a->base ? a->base : "", b->base ? b->base : "");
}

/*
 * Go 1.19 describes some two-word parameters (an interface: tab, data) with every piece
 * twice ("rbx piece 8, rbx piece 8, rcx piece 8, rcx piece 8" for 16 bytes): the pieces
 * cover twice the type's size, in identical pairs. Keep one of each pair.
 */
static void loc_undouble(struct loc *l, Dwarf_Die *type)
{
	int64_t size = lang_type_size(type), total = 0;
	struct loc half = { NULL, 0 };
	size_t i;

	if (l->nr < 4 || l->nr % 2)
		return;
	for (i = 0; i < l->nr; i++)
		total += l->pieces[i].size;
	if (size <= 0 || total != 2 * size)
		return;
	for (i = 0; i < l->nr; i += 2)
		if (!piece_same(&l->pieces[i], &l->pieces[i + 1]))
			return;
	for (i = 0; i < l->nr; i += 2)
		loc_add_piece(&half, &l->pieces[i]);
	loc_release(l);
	*l = half;
}

int val_from_die(struct rctx *rc, Dwarf_Die *var, const char *what, struct span sp,
			struct val *out)
{
	struct strbuf err = STRBUF_INIT;
	int ret;

	memset(out, 0, sizeof(*out));
	if (rc->types_only) {
		/* any location will do: nothing is fetched, pointers are followed by type */
		struct loc_piece p = { .kind = LOC_IMM, .reg = -1 };

		loc_add_piece(&out->loc, &p);
		out->has_type = lang_type_of(var, &out->type);
		out->what = xstrdup(what);
		return rctx_heap_local(rc, var, sp, out);
	}
	strbuf_init(&err);
	ret = rctx_var_loc(rc, var, &out->loc, &err);
	if (ret) {
		diag_error(rc->d, sp, "'%s' %s (at %s)", what, err.buf, rc->where);
		strbuf_release(&err);
		return ret;
	}
	strbuf_release(&err);
	out->has_type = lang_type_of(var, &out->type);
	out->what = xstrdup(what);
	if (out->has_type && rc->lang == &lang_go)
		loc_undouble(&out->loc, &out->type);
	if (rctx_var_pieces(rc, var, what, sp, out))
		return -EINVAL;
	return rctx_heap_local(rc, var, sp, out);
}

/* A Go result named at a return instruction ("~r1", "lo"): from the ABI's registers */
static int eval_go_result(struct rctx *rc, const char *name, struct span sp, struct val *out)
{
	struct abi_value *res;
	size_t nr;

	if (rctx_go_results(rc, &res, &nr, sp))
		return -EINVAL;
	for (size_t i = 0; i < nr; i++) {
		if (strcmp(res[i].name, name))
			continue;
		loc_copy(&out->loc, &res[i].loc);
		out->type = res[i].type;
		out->has_type = res[i].has_type;
		out->what = xstrdup(name);
		abi_values_free(res, nr);
		return 0;
	}
	abi_values_free(res, nr);
	return diag_error(rc->d, sp, "'%s' is not a result of %s", name, rc->where);
}

static int eval_var(struct rctx *rc, const char *name, struct span sp, struct val *out)
{
	Dwarf_Die var;

	if (!rc->has_cu)
		return diag_error(rc->d, sp, "no debug information covers %s; only registers and "
				  "raw fetchargs can be read there", rc->where);
	if (rctx_find_local(rc, name, &var)) {
		if (rc->site->at_ret_insn && lang_go_is_result(&var))
			return eval_go_result(rc, name, sp, out);
		if (rc->site->is_return)
			return diag_error(rc->d, sp, "'%s' is a local of %s; a return probe reads "
					  "only $retval, globals and registers", name,
					  rc->site->func ? rc->site->func : rc->where);
		return val_from_die(rc, &var, name, sp, out);
	}
	/* C++: a member named without this-> inside a method */
	if (rctx_find_local(rc, "this", &var)) {
		Dwarf_Die pt, st, m;
		int64_t off;

		if (lang_type_of(&var, &pt) && lang_strip(&pt, &pt) == DW_TAG_pointer_type &&
		    lang_type_of(&pt, &st) && lang_find_member(&st, name, &m, &off)) {
			if (val_from_die(rc, &var, "this", sp, out))
				return -EINVAL;
			return val_member(rc, out, name, name, sp);
		}
	}
	if (rctx_find_global(rc, name, &var))
		return val_from_die(rc, &var, name, sp, out);
	/* Go: a package-level variable of the probed function's package without the prefix */
	if (rc->lang == &lang_go && rc->site->func && !strchr(name, '.')) {
		const char *f = rc->site->func, *slash = strrchr(f, '/');
		const char *dot = strchr(slash ? slash : f, '.');

		if (dot) {
			char *q = xasprintf("%.*s.%s", (int)(dot - f), f, name);
			bool found = rctx_find_global(rc, q, &var);

			free(q);
			if (found)
				return val_from_die(rc, &var, name, sp, out);
		}
	}
	{
		struct strbuf names = STRBUF_INIT;

		strbuf_init(&names);
		rctx_list_locals(rc, &names);
		diag_error(rc->d, sp, "no variable '%s' at %s", name, rc->where);
		if (names.len)
			diag_hint(rc->d, "variables: %s", names.buf);
		strbuf_release(&names);
	}
	return -ENOENT;
}

static int eval_retval(struct rctx *rc, struct span sp, struct val *out)
{
	memset(out, 0, sizeof(*out));
	if (rc->site->is_return) {
		struct loc_piece p = { .kind = LOC_VAL, .reg = -1, .fetch = (char *)"$retval" };
		Dwarf_Die *fn = rc->has_here ? &rc->here : rc->has_func ? &rc->func : NULL;

		/* RAX, RAX:RDX or the memory RAX points to, by the ABI's rules for the type */
		if (fn)
			out->has_type = abi_return(fn, rc->lang, &out->type, &out->loc);
		else
			loc_add_piece(&out->loc, &p);
		if (out->has_type)
			rctx_float_result(rc, &out->loc, (unsigned int)lang_type_size(&out->type));
		out->what = xstrdup("$retval");
		return 0;
	}
	if (rc->site->at_ret_insn) {
		struct abi_value *res;
		size_t nr;

		if (rctx_go_results(rc, &res, &nr, sp))
			return -EINVAL;
		if (nr > 1) {
			abi_values_free(res, nr);
			return diag_error(rc->d, sp, "%s has %zu results; use $retval alone to get "
					  "each of them", rc->site->func, nr);
		}
		loc_copy(&out->loc, &res[0].loc);
		out->type = res[0].type;
		out->has_type = res[0].has_type;
		if (out->has_type)
			rctx_float_result(rc, &out->loc, (unsigned int)lang_type_size(&out->type));
		out->what = xstrdup("$retval");
		abi_values_free(res, nr);
		return 0;
	}
	return diag_error(rc->d, sp, "$retval needs a return probe (FUNC%%return)");
}

char *expr_text(const struct expr *e)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_init(&sb);
	expr_format(e, &sb);
	return strbuf_detach(&sb);
}

/*
 * Go's globals are named with their package ("main.config"), which reads as a member
 * expression: when the chain's root is no local, try the dotted name as a global.
 */
static bool dotted_global(struct rctx *rc, const struct expr *e, struct val *out)
{
	struct strbuf name = STRBUF_INIT;
	const struct expr *r = e;
	Dwarf_Die var;
	bool found = false;

	while (r->kind == EXPR_MEMBER && !r->arrow)
		r = r->base;
	if (r->kind != EXPR_VAR || !rc->has_cu || rc->lang != &lang_go ||
	    rctx_find_local(rc, r->name, &var))
		return false;
	strbuf_init(&name);
	expr_format(e, &name);
	if (rctx_find_global(rc, name.buf, &var))
		found = val_from_die(rc, &var, name.buf, e->span, out) == 0;
	strbuf_release(&name);
	return found;
}

int val_eval(struct rctx *rc, const struct expr *e, struct val *out)
{
	char *what;
	int ret;

	memset(out, 0, sizeof(*out));
	switch (e->kind) {
	case EXPR_VAR:
		return eval_var(rc, e->name, e->span, out);
	case EXPR_REG:
	case EXPR_RAW: {
		struct loc_piece p = { .kind = LOC_VAL, .reg = -1 };

		p.fetch = e->kind == EXPR_REG ? xasprintf("%%%s", e->name) : xstrdup(e->name);
		if (regs_fetch_check(rc->d, e->span.start, p.fetch)) {
			free(p.fetch);
			return -EINVAL;
		}
		loc_add_piece(&out->loc, &p);
		free(p.fetch);
		out->raw = e->kind == EXPR_RAW;
		out->what = expr_text(e);
		return 0;
	}
	case EXPR_RETVAL:
		return eval_retval(rc, e->span, out);
	case EXPR_MEMBER:
		/* gcc's vtable pointer "_vptr.Base" reads as member Base of member _vptr */
		/* gcc's "_vptr.Base" is one name: the parser split it at the dot */
		if (e->base->kind == EXPR_MEMBER && names_vptr(e->base->name)) {
			char *name = xasprintf("%s.%s", e->base->name, e->name);

			ret = val_eval(rc, e->base->base, out);
			what = expr_text(e);
			if (!ret)
				ret = val_member(rc, out, name, what, e->span);
			free(what);
			free(name);
			return ret;
		}
		if (dotted_global(rc, e, out))
			return 0;
		ret = val_eval(rc, e->base, out);
		if (ret)
			return ret;
		what = expr_text(e);
		ret = val_member(rc, out, e->name, what, e->span);
		free(what);
		return ret;
	case EXPR_INDEX:
		ret = val_eval(rc, e->base, out);
		if (ret)
			return ret;
		if (e->key || val_is_go_map(rc, out))
			return val_map_key(rc, e, out);
		what = expr_text(e);
		ret = val_index(rc, out, e->index, what, e->span);
		free(what);
		return ret;
	case EXPR_DEREF: {
		Dwarf_Die t;
		int tag;

		enum smart smart = SMART_NONE;

		ret = val_eval(rc, e->base, out);
		if (ret)
			return ret;
		tag = out->has_type ? lang_strip(&out->type, &t) : 0;
		if (tag_is_struct(tag) && !out->ptrs) {
			if (val_smart_ptr(rc, out, true, e->span, &smart))
				return -EINVAL;
			tag = out->has_type ? lang_strip(&out->type, &t) : 0;
		}
		what = expr_text(e);
		if (smart == SMART_VALUE) {
			free(out->what);
			out->what = what;
			return 0;
		}
		if (out->ptrs || tag == DW_TAG_array_type || tag == DW_TAG_pointer_type) {
			ret = val_index(rc, out, 0, what, e->span);
		} else if (!out->has_type) {
			struct val n;

			ret = val_deref(rc, out, 0, NULL, false, what, e->span, &n);
			if (!ret)
				val_move(out, &n);
		} else {
			char *tn = val_type_name(rc, out);

			ret = diag_error(rc->d, e->span, "cannot dereference '%s' of type %s",
					 out->what, tn);
			free(tn);
		}
		free(what);
		return ret;
	}
	case EXPR_CAST:
		return val_eval_cast(rc, e, out);
	case EXPR_LEN:
	case EXPR_CAP:
		return val_eval_len(rc, e, out);
	case EXPR_DYNCAST:
	case EXPR_TYPEASSERT:
	case EXPR_TYPEID:
	case EXPR_GOID:
		return val_eval_dyn(rc, e, out);
	default:
		return diag_error(rc->d, e->span, "$params and $vars stand alone, not in an "
				  "expression");
	}
}
