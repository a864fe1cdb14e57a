// SPDX-License-Identifier: GPL-2.0-or-later
/* resolve.c - probe_spec + DWARF -> struct trace_probe (what the kernel gets) */
#define LOG_DOMAIN "resolve"
#include <dwarf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi-x86_64.h"
#include "lang.h"
#include "loc.h"
#include "log.h"
#include "parse.h"
#include "place.h"
#include "regs.h"
#include "resolve-internal.h"
#include "resolve.h"

#define CHUNK 64

void val_release(struct val *v)
{
	loc_release(&v->loc);
	free(v->what);
	memset(v, 0, sizeof(*v));
}

static void guards_clear(struct rctx *rc)
{
	for (int i = 0; i < rc->nr_guards; i++) {
		free(rc->guards[i].fetch);
		free(rc->guards[i].expr);
		free(rc->guards[i].base);
	}
	memset(rc->guards, 0, sizeof(rc->guards));
	rc->nr_guards = 0;
}

char *rctx_type_name(struct rctx *rc, Dwarf_Die *type, bool has_type)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_init(&sb);
	if (!has_type)
		strbuf_addstr(&sb, rc->lang == &lang_go ? "unsafe.Pointer" : "void");
	else
		lang_of_die(type)->type_name(type, &sb);
	return strbuf_detach(&sb);
}

static const char *die_name(Dwarf_Die *die)
{
	const char *n = dwarf_diename(die);

	return n ? n : "";
}

/* ---- names of kernel fields ---- */

static bool field_name_used(const struct trace_probe *tp, const char *name)
{
	for (size_t i = 0; i < tp->nr_fields; i++)
		if (!strcmp(tp->fields[i].name, name))
			return true;
	return false;
}

/* Whether @name is a NAME= the user gave in this probe (other than the one being emitted). */
static bool name_reserved(const struct rctx *rc, const char *name)
{
	if (rc->claim && !strcmp(rc->claim, name))
		return false;
	for (size_t i = 0; i < rc->spec->nr_args; i++)
		if (rc->spec->args[i].name && !strcmp(rc->spec->args[i].name, name))
			return true;
	return false;
}

static bool name_taken(const struct rctx *rc, const char *name)
{
	return field_name_used(rc->tp, name) || name_reserved(rc, name);
}

/*
 * @base made a C identifier of at most 32 characters not yet used in the probe (_1, _2 ...);
 * names the user gave with NAME= are kept free for their arguments, so a guard "name_p1"
 * or a chunk "Name_1" never takes an argument's name
 */
static char *uniq_name(const struct rctx *rc, const char *base)
{
	char *s = sanitize_ident(base, NAME_MAX_LEN);
	char *n;

	if (!name_taken(rc, s))
		return s;
	for (int i = 1;; i++) {
		char suffix[16];
		int sl = snprintf(suffix, sizeof(suffix), "_%d", i);
		int keep = (int)strlen(s);

		if (keep + sl > NAME_MAX_LEN)
			keep = NAME_MAX_LEN - sl;
		n = xasprintf("%.*s%s", keep, s, suffix);
		if (!name_taken(rc, n)) {
			free(s);
			return n;
		}
		free(n);
	}
}

/* ---- errors ---- */

static int piece_error(struct rctx *rc, const struct loc_piece *p, const char *what,
		       struct span sp)
{
	if (p->kind == LOC_BAD)
		return diag_error(rc->d, sp, "'%s' %s (at %s)", what, p->why, rc->where);
	return diag_error(rc->d, sp, "'%s' is optimized out at %s", what, rc->where);
}

/* ---- locations of parts of a value ---- */

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
				if (rel + size > 8)
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

/* The fetcharg that reads @v as a word (a pointer, a length). */
static int val_word_fetch(struct rctx *rc, const struct val *v, struct span sp, char **fetch)
{
	const struct loc_piece *p;

	*fetch = NULL;
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
		return 0;
	case LOC_IMM:
		*fetch = xasprintf("\\%" PRIu64, p->imm);
		return 0;
	default:
		return piece_error(rc, p, v->what, sp);
	}
}

static struct guard *add_guard_kind(struct rctx *rc, enum guard_kind kind, const char *fetch,
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

static void add_guard(struct rctx *rc, const char *fetch, const char *expr)
{
	for (int i = 0; i < rc->nr_guards; i++)
		if (rc->guards[i].kind == GUARD_PTR && !strcmp(rc->guards[i].fetch, fetch))
			return;
	add_guard_kind(rc, GUARD_PTR, fetch, expr, 0);
}

/* @v is a pointer: @out is what it points to, plus @off bytes, of type @to. */
static int val_deref(struct rctx *rc, const struct val *v, int64_t off, Dwarf_Die *to,
		     bool has_to, const char *what, struct span sp, struct val *out)
{
	struct loc_piece p = { .kind = LOC_MEM, .reg = -1 };
	char *fetch;
	int ret = val_word_fetch(rc, v, sp, &fetch);

	if (ret)
		return ret;
	add_guard(rc, fetch, v->what);
	memset(out, 0, sizeof(*out));
	p.base = fetch;
	p.off = off;
	loc_add_piece(&out->loc, &p);
	free(fetch);
	if (has_to)
		out->type = *to;
	out->has_type = has_to;
	out->what = xstrdup(what);
	return 0;
}

/* Replace *v with *n. */
static void val_move(struct val *v, struct val *n)
{
	val_release(v);
	*v = *n;
	memset(n, 0, sizeof(*n));
}

int val_follow_pointers(struct rctx *rc, struct val *v, struct span sp, int *tag_out,
			Dwarf_Die *stripped)
{
	for (int i = 0; i < 16; i++) {
		Dwarf_Die to;
		struct val n;
		int tag;

		if (!v->has_type) {
			*tag_out = 0;
			return 0;
		}
		tag = lang_strip(&v->type, stripped);
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

static bool find_vptr(Dwarf_Die *type, const char *suffix, Dwarf_Die *member, int64_t *off,
		      int depth)
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

/* @v.@name, following pointers first. */
static int val_member(struct rctx *rc, struct val *v, const char *name, const char *what,
		      struct span sp)
{
	Dwarf_Die t, member, mtype;
	int64_t off, size, boff;
	unsigned int bit_off = 0, bit_size = 0, container = 0;
	struct val n;
	int tag = 0, ret;

	if (val_follow_pointers(rc, v, sp, &tag, &t))
		return -EINVAL;
	if (!v->has_type)
		return diag_error(rc->d, sp, "'%s' has no type; it has no field '%s'", v->what,
				  name);
	if (!tag_is_struct(tag)) {
		char *tn = rctx_type_name(rc, &v->type, true);

		diag_error(rc->d, sp, "'%s' is a %s, not a struct; it has no field '%s'", v->what,
			   tn, name);
		free(tn);
		return -EINVAL;
	}
	if (!lang_find_member(&t, name, &member, &off)) {
		struct strbuf fields = STRBUF_INIT;
		const char *tn = dwarf_diename(&t);

		if (!strncmp(name, "_vptr", 5) &&
		    find_vptr(&t, name[5] ? name + 6 : NULL, &member, &off, 0))
			goto found;
		strbuf_init(&fields);
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
	if (!lang_type_of(&member, &mtype))
		return diag_error(rc->d, sp, "field '%s' has no type", name);
	size = lang_type_size(&mtype);
	if (size < 0)
		size = 8;
	boff = off;
	ret = member_bits(&member, &mtype, off, &boff, &bit_off, &bit_size, &container);
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
	n.is_vptr = !strncmp(die_name(&member), "_vptr", 5);
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
static int val_path(struct rctx *rc, struct val *v, const char *path, struct span sp)
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
static int layout_ptr(struct rctx *rc, const struct val *v, const struct lang_layout *l,
		      struct span sp, struct val *out)
{
	memset(out, 0, sizeof(*out));
	out->type = v->type;
	out->has_type = v->has_type;
	loc_copy(&out->loc, &v->loc);
	out->what = xstrdup(v->what);
	if (val_path(rc, out, l->ptr, sp))
		return -EINVAL;
	if (l->ptr_below) {
		struct strbuf path = STRBUF_INIT;
		int ret;

		strbuf_init(&path);
		if (!first_pointer(&out->type, &path, 0)) {
			strbuf_release(&path);
			return diag_error(rc->d, sp, "'%s': no data pointer found in its layout",
					  v->what);
		}
		ret = val_path(rc, out, path.buf, sp);
		strbuf_release(&path);
		if (ret)
			return ret;
	}
	return 0;
}

static int layout_len(struct rctx *rc, const struct val *v, const struct lang_layout *l,
		      struct span sp, struct val *out)
{
	memset(out, 0, sizeof(*out));
	out->type = v->type;
	out->has_type = v->has_type;
	loc_copy(&out->loc, &v->loc);
	out->what = xstrdup(v->what);
	return val_path(rc, out, l->len, sp);
}

/* Classify a struct value: a string with a length, a slice, an interface. */
static bool get_layout(Dwarf_Die *stripped, bool slice, struct lang_layout *l)
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
static int array_dim(Dwarf_Die *arr, unsigned int dim, int64_t *count, int64_t *inner)
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
 * A length that cannot be read here leaves the index bounded only by the NULL guard.
 */
static void add_bound(struct rctx *rc, const struct val *v, const struct lang_layout *l,
		      const struct val *ptr, long idx, int64_t esize, const char *what,
		      struct span sp)
{
	struct diag scratch, *save = rc->d;
	struct val w;
	char *f = NULL, *pf = NULL;
	struct guard *g;

	if (!l->len && (!l->end || esize <= 0))
		return;
	diag_init(&scratch, rc->spec->text);
	rc->d = &scratch;
	memset(&w, 0, sizeof(w));
	if (l->len) {
		if (!layout_len(rc, v, l, sp, &w) && !val_word_fetch(rc, &w, sp, &f))
			add_guard_kind(rc, GUARD_LEN, f, what, (uint64_t)idx);
	} else {
		w.type = v->type;
		w.has_type = v->has_type;
		loc_copy(&w.loc, &v->loc);
		w.what = xstrdup(v->what);
		if (!val_path(rc, &w, l->end, sp) && !val_word_fetch(rc, &w, sp, &f) &&
		    !val_word_fetch(rc, ptr, sp, &pf) &&
		    (g = add_guard_kind(rc, GUARD_END, f, what, (uint64_t)idx))) {
			g->base = pf;
			g->elem = (unsigned int)esize;
			pf = NULL;
		}
	}
	if (diag_has_error(&scratch))
		pr_info("%s: no bound check: %s", what, scratch.msg ? scratch.msg : "?");
	free(f);
	free(pf);
	val_release(&w);
	diag_release(&scratch);
	rc->d = save;
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

/* @v[@idx] */
static int val_index(struct rctx *rc, struct val *v, long idx, const char *what, struct span sp)
{
	Dwarf_Die t, elem;
	struct lang_layout l;
	struct val n;
	int64_t esize, off = 0;
	int tag = 0;

	for (int i = 0; i < 16; i++) {
		if (!v->has_type)
			return diag_error(rc->d, sp, "'%s' has no type to index", v->what);
		tag = lang_strip(&v->type, &t);
		if (tag == DW_TAG_reference_type || tag == DW_TAG_rvalue_reference_type) {
			Dwarf_Die to;

			if (!lang_type_of(&t, &to) ||
			    val_deref(rc, v, 0, &to, true, v->what, sp, &n))
				return -EINVAL;
			val_move(v, &n);
			continue;
		}
		break;
	}
	if (tag == DW_TAG_array_type) {
		int64_t count, inner, total = lang_type_size(&t);
		int ndims;

		if (!lang_type_of(&t, &elem))
			return diag_error(rc->d, sp, "'%s' is an array without element type", v->what);
		ndims = array_dim(&t, v->dim, &count, &inner);
		esize = lang_type_size(&elem);
		if (esize <= 0 && ndims <= 1 && count > 0 && total > 0)
			esize = total / count;
		if (inner < 0)
			return diag_error(rc->d, sp, "cannot index '%s': an inner dimension of its "
					  "array type has no known size", v->what);
		esize *= inner;
		if (esize <= 0)
			return diag_error(rc->d, sp, "cannot index '%s': the size of its elements is "
					  "unknown", v->what);
		if (count >= 0 && (idx < 0 || idx >= count))
			return diag_error(rc->d, sp, "index %ld is out of bounds of '%s' (%" PRId64
					  " elements)", idx, v->what, count);
		if (index_offset(rc, idx, esize, v->what, sp, &off) ||
		    loc_part(rc, v, off, esize, &n, sp))
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
	if (tag == DW_TAG_pointer_type) {
		if (!lang_type_of(&t, &elem))
			return diag_error(rc->d, sp, "cannot index '%s': it is a void pointer",
					  v->what);
		esize = lang_type_size(&elem);
		if (esize <= 0)
			return diag_error(rc->d, sp, "cannot index '%s': the size of what it points "
					  "to is unknown", v->what);
		if (index_offset(rc, idx, esize, v->what, sp, &off) ||
		    val_deref(rc, v, off, &elem, true, what, sp, &n))
			return -EINVAL;
		val_move(v, &n);
		return 0;
	}
	if (tag_is_struct(tag) && (get_layout(&t, true, &l) || get_layout(&t, false, &l))) {
		struct val ptr;
		Dwarf_Die pt;
		bool has_elem = false;
		int ret;

		if (l.elem_param)
			has_elem = lang_template_param(&t, l.elem_param, &elem);
		if (layout_ptr(rc, v, &l, sp, &ptr))
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
		add_bound(rc, v, &l, &ptr, idx, esize, what, sp);
		ret = val_deref(rc, &ptr, off, &elem, true, what, sp, &n);
		val_release(&ptr);
		if (ret)
			return ret;
		val_move(v, &n);
		return 0;
	}
	{
		char *tn = rctx_type_name(rc, &v->type, true);

		diag_error(rc->d, sp, "cannot index '%s': type %s is not an array, pointer, slice "
			   "or vector", v->what, tn);
		free(tn);
		return -EINVAL;
	}
}

/* ---- variables ---- */

static void ensure_scopes(struct rctx *rc);

static bool is_var_tag(int tag)
{
	return tag == DW_TAG_variable || tag == DW_TAG_formal_parameter;
}

bool rctx_locals_visit(struct rctx *rc, local_fn fn, void *arg)
{
	const char **seen = NULL;
	size_t nseen = 0, alloc = 0;
	bool stopped = false;

	ensure_scopes(rc);
	for (int i = 0; i < rc->nscopes && !stopped; i++) {
		Dwarf_Die child;
		int stag = dwarf_tag(&rc->scopes[i]);

		if (stag == DW_TAG_compile_unit || stag == DW_TAG_partial_unit)
			break;
		if (dwarf_child(&rc->scopes[i], &child) != 0)
			continue;
		do {
			const char *n;
			bool dup = false;

			if (!is_var_tag(dwarf_tag(&child)) || !(n = dwarf_diename(&child)))
				continue;
			for (size_t k = 0; k < nseen && !dup; k++)
				dup = !strcmp(seen[k], n);
			if (dup)
				continue;
			switch (fn(rc, &rc->scopes[i], &child, n, arg)) {
			case VISIT_SKIP:
				break;
			case VISIT_TAKE:
				ALLOC_GROW(seen, nseen + 1, alloc);
				seen[nseen++] = n;
				break;
			case VISIT_STOP:
				stopped = true;
				break;
			}
		} while (!stopped && dwarf_siblingof(&child, &child) == 0);
	}
	free(seen);
	return stopped;
}

struct local_query {
	const char *name;
	Dwarf_Die *out;
};

static enum visit local_is(struct rctx *rc, Dwarf_Die *scope, Dwarf_Die *var, const char *name,
			   void *arg)
{
	struct local_query *q = arg;

	if (strcmp(name, q->name))
		return VISIT_TAKE;
	*q->out = *var;
	return VISIT_STOP;
}

/* A local or parameter named @name visible at the pc, innermost scope first. */
static bool find_local(struct rctx *rc, const char *name, Dwarf_Die *out)
{
	struct local_query q = { name, out };

	return rctx_locals_visit(rc, local_is, &q);
}

static bool has_location(Dwarf_Die *die)
{
	return dwarf_hasattr(die, DW_AT_location) || dwarf_hasattr(die, DW_AT_const_value);
}

/* A global in @scope (a CU or namespace): "ns::var" walks namespaces; Go's "main.config"
 * is one name. */
static bool find_global_in(Dwarf_Die *scope, const char *name, Dwarf_Die *out, int depth)
{
	Dwarf_Die child;
	const char *sep = strstr(name, "::");

	if (depth > 8 || dwarf_child(scope, &child) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child);
		const char *n;

		if (tag == DW_TAG_variable) {
			n = dwarf_diename(&child);
			if (n && !strcmp(n, name) && has_location(&child)) {
				*out = child;
				return true;
			}
		} else if (sep && (tag == DW_TAG_namespace || tag == DW_TAG_structure_type ||
				   tag == DW_TAG_class_type)) {
			n = dwarf_diename(&child);
			if (n && strlen(n) == (size_t)(sep - name) &&
			    !strncmp(n, name, sep - name) &&
			    find_global_in(&child, sep + 2, out, depth + 1))
				return true;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	/* a C++ static member is defined at CU level with a DW_AT_specification */
	if (sep && depth == 0 && dwarf_child(scope, &child) == 0) {
		const char *last = name;

		for (const char *p = name; (p = strstr(p, "::")); p += 2)
			last = p + 2;
		do {
			const char *n;

			if (dwarf_tag(&child) != DW_TAG_variable ||
			    !dwarf_hasattr(&child, DW_AT_specification))
				continue;
			n = dwarf_diename(&child);
			if (n && !strcmp(n, last) && has_location(&child)) {
				*out = child;
				return true;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	return false;
}

static bool find_global(struct rctx *rc, const char *name, Dwarf_Die *out)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (rc->has_cu && find_global_in(&rc->cu, name, out, 0))
		return true;
	while (dwarf_nextcu(rc->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(rc->dw, off + hsize, &cu) &&
		    (!rc->has_cu || dwarf_dieoffset(&cu) != dwarf_dieoffset(&rc->cu)) &&
		    find_global_in(&cu, name, out, 0))
			return true;
		off = next;
	}
	return false;
}

static enum visit local_name_add(struct rctx *rc, Dwarf_Die *scope, Dwarf_Die *var,
				 const char *name, void *arg)
{
	struct strbuf *out = arg;

	if (out->len)
		strbuf_addstr(out, ", ");
	strbuf_addstr(out, name);
	return VISIT_TAKE;
}

/* "a, b, c": the names visible at the pc, for the "no variable" hint */
static void list_locals(struct rctx *rc, struct strbuf *out)
{
	rctx_locals_visit(rc, local_name_add, out);
}

static int val_from_die(struct rctx *rc, Dwarf_Die *var, const char *what, struct span sp,
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
		return 0;
	}
	strbuf_init(&err);
	ret = loc_from_die(var, &rc->lc, &out->loc, &err);
	if (ret) {
		diag_error(rc->d, sp, "'%s' %s (at %s)", what, err.buf, rc->where);
		strbuf_release(&err);
		return ret;
	}
	strbuf_release(&err);
	out->has_type = lang_type_of(var, &out->type);
	out->what = xstrdup(what);
	return 0;
}

static int go_results(struct rctx *rc, struct abi_value **res, size_t *nr, struct span sp);

/* A Go result named at a return instruction ("~r1", "lo"): from the ABI's registers */
static int eval_go_result(struct rctx *rc, const char *name, struct span sp, struct val *out)
{
	struct abi_value *res;
	size_t nr;

	if (go_results(rc, &res, &nr, sp))
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
	if (find_local(rc, name, &var)) {
		if (rc->site->at_ret_insn && die_is_go_result(&var))
			return eval_go_result(rc, name, sp, out);
		if (rc->site->is_return)
			return diag_error(rc->d, sp, "'%s' is a local of %s; a return probe reads "
					  "only $retval, globals and registers", name,
					  rc->site->func ? rc->site->func : rc->where);
		return val_from_die(rc, &var, name, sp, out);
	}
	/* C++: a member named without this-> inside a method */
	if (find_local(rc, "this", &var)) {
		Dwarf_Die pt, st, m;
		int64_t off;

		if (lang_type_of(&var, &pt) && lang_strip(&pt, &pt) == DW_TAG_pointer_type &&
		    lang_type_of(&pt, &st) && lang_find_member(&st, name, &m, &off)) {
			if (val_from_die(rc, &var, "this", sp, out))
				return -EINVAL;
			return val_member(rc, out, name, name, sp);
		}
	}
	if (find_global(rc, name, &var))
		return val_from_die(rc, &var, name, sp, out);
	/* Go: a package-level variable of the probed function's package without the prefix */
	if (rc->lang == &lang_go && rc->site->func && !strchr(name, '.')) {
		const char *f = rc->site->func, *slash = strrchr(f, '/');
		const char *dot = strchr(slash ? slash : f, '.');

		if (dot) {
			char *q = xasprintf("%.*s.%s", (int)(dot - f), f, name);
			bool found = find_global(rc, q, &var);

			free(q);
			if (found)
				return val_from_die(rc, &var, name, sp, out);
		}
	}
	{
		struct strbuf names = STRBUF_INIT;

		strbuf_init(&names);
		list_locals(rc, &names);
		diag_error(rc->d, sp, "no variable '%s' at %s", name, rc->where);
		if (names.len)
			diag_hint(rc->d, "variables: %s", names.buf);
		strbuf_release(&names);
	}
	return -ENOENT;
}

/* Go results at a return instruction, from the ABI's registers */
static int go_results(struct rctx *rc, struct abi_value **res, size_t *nr, struct span sp)
{
	Dwarf_Die *fn = rc->has_here ? &rc->here : rc->has_func ? &rc->func : NULL;

	if (!fn || abi_go_results(fn, res, nr))
		return diag_error(rc->d, sp, "%s returns nothing", rc->site->func ?
				  rc->site->func : rc->where);
	return 0;
}

static int eval_retval(struct rctx *rc, struct span sp, struct val *out)
{
	memset(out, 0, sizeof(*out));
	if (rc->site->is_return) {
		struct loc_piece p = { .kind = LOC_VAL, .reg = -1, .fetch = (char *)"$retval" };
		Dwarf_Die *fn = rc->has_here ? &rc->here : rc->has_func ? &rc->func : NULL;

		/* RAX, RAX:RDX or the memory RAX points to, by the ABI's rules for the type */
		if (fn)
			out->has_type = abi_sysv_return(fn, rc->lang, &out->type, &out->loc);
		else
			loc_add_piece(&out->loc, &p);
		out->what = xstrdup("$retval");
		return 0;
	}
	if (rc->site->at_ret_insn) {
		struct abi_value *res;
		size_t nr;

		if (go_results(rc, &res, &nr, sp))
			return -EINVAL;
		if (nr > 1) {
			abi_values_free(res, nr);
			return diag_error(rc->d, sp, "%s has %zu results; use $retval alone to get "
					  "each of them", rc->site->func, nr);
		}
		loc_copy(&out->loc, &res[0].loc);
		out->type = res[0].type;
		out->has_type = res[0].has_type;
		out->what = xstrdup("$retval");
		abi_values_free(res, nr);
		return 0;
	}
	return diag_error(rc->d, sp, "$retval needs a return probe (FUNC%%return)");
}

static char *expr_text(const struct expr *e)
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
	    find_local(rc, r->name, &var))
		return false;
	strbuf_init(&name);
	expr_format(e, &name);
	if (find_global(rc, name.buf, &var))
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
		if (e->base->kind == EXPR_MEMBER && !strcmp(e->base->name, "_vptr")) {
			char *name = xasprintf("_vptr.%s", e->name);

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
		what = expr_text(e);
		ret = val_index(rc, out, e->index, what, e->span);
		free(what);
		return ret;
	case EXPR_DEREF: {
		Dwarf_Die t;
		int tag;

		ret = val_eval(rc, e->base, out);
		if (ret)
			return ret;
		tag = out->has_type ? lang_strip(&out->type, &t) : 0;
		what = expr_text(e);
		if (tag == DW_TAG_array_type || tag == DW_TAG_pointer_type) {
			ret = val_index(rc, out, 0, what, e->span);
		} else if (!out->has_type) {
			struct val n;

			ret = val_deref(rc, out, 0, NULL, false, what, e->span, &n);
			if (!ret)
				val_move(out, &n);
		} else {
			char *tn = rctx_type_name(rc, &out->type, true);

			ret = diag_error(rc->d, e->span, "cannot dereference '%s' of type %s",
					 out->what, tn);
			free(tn);
		}
		free(what);
		return ret;
	}
	default:
		return diag_error(rc->d, e->span, "$params and $vars stand alone, not in an "
				  "expression");
	}
}

/* ---- emitting kernel fields ---- */

struct emit {
	const char *name;		/* the argument's name (unique, sanitized) */
	const char *expr;		/* as typed */
	const char *cast;		/* :TYPE, or NULL */
	struct span sp;			/* for errors */
	struct span cast_sp;
};

static struct trace_arg *new_arg(struct rctx *rc, const struct emit *em, struct val *v,
				 enum value_kind kind, unsigned int size, int field)
{
	struct trace_arg *a = trace_probe_add_arg(rc->tp);

	a->name = xstrdup(rc->tp->fields[field].name);
	a->expr = xstrdup(em->expr);
	a->type_name = v->has_type ? rctx_type_name(rc, &v->type, true) : NULL;
	a->kind = kind;
	a->size = size;
	a->field = field;
	a->nr_fields = 1;
	a->len_field = -1;
	return a;
}

/* The index of a hidden field fetching @fetch as @type, added (named @base) if there is none */
static int hidden_field(struct rctx *rc, const char *fetch, const char *type, const char *base)
{
	char *name;
	int idx;

	for (size_t f = 0; f < rc->tp->nr_fields; f++) {
		struct fetch_field *ff = &rc->tp->fields[f];

		if (ff->hidden && !strcmp(ff->fetch, fetch) && !strcmp(ff->type, type))
			return (int)f;
	}
	name = uniq_name(rc, base);
	idx = trace_probe_add_field(rc->tp, name, fetch, type, true);
	free(name);
	return idx;
}

static void attach_guards(struct rctx *rc, struct trace_arg *a)
{
	for (int i = 0; i < rc->nr_guards && a->nr_guards < TRACE_ARG_MAX_GUARDS; i++) {
		const struct guard *g = &rc->guards[i];
		int k = a->nr_guards;
		char *base;

		if (g->kind == GUARD_LEN)
			base = xasprintf("%.*s__n%d", NAME_MAX_LEN - 5, a->name, i + 1);
		else
			base = xasprintf("%.*s__p%d", NAME_MAX_LEN - 5, a->name, i + 1);
		a->guards[k] = hidden_field(rc, g->fetch, g->kind == GUARD_LEN ? "u64" : "x64",
					    base);
		free(base);
		a->guard_exprs[k] = xstrdup(g->expr);
		a->guard_kind[k] = g->kind;
		a->guard_index[k] = g->index;
		if (g->kind == GUARD_END) {
			base = xasprintf("%.*s__p%d", NAME_MAX_LEN - 5, a->name, i + 2);
			a->guard_base[k] = hidden_field(rc, g->base, "x64", base);
			a->guard_elem[k] = g->elem;
			free(base);
		}
		a->nr_guards++;
	}
}

/* One scalar field: @v read as kernel @type. */
static int emit_scalar(struct rctx *rc, const struct emit *em, struct val *v, const char *ktype,
		       enum value_kind kind, unsigned int size, bool is_signed,
		       struct trace_arg **out)
{
	char *fetch, *type = NULL, *name;
	struct trace_arg *a;
	int field;

	if (v->bit_size && v->loc.nr == 1 && v->loc.pieces[0].kind == LOC_VAL)
		fetch = xstrdup(v->loc.pieces[0].fetch);	/* a part of a register */
	else if (val_word_fetch(rc, v, em->sp, &fetch))
		return -EINVAL;
	if (v->bit_size && (kind == VK_SIGNED || kind == VK_UNSIGNED || kind == VK_HEX ||
			    kind == VK_BOOL || kind == VK_ENUM || kind == VK_CHAR))
		type = xasprintf("b%u@%u/%u", v->bit_size, v->bit_off, v->bit_container);
	name = uniq_name(rc, em->name);
	field = trace_probe_add_field(rc->tp, name, fetch, type ? type : ktype, false);
	a = new_arg(rc, em, v, kind, size, field);
	a->is_signed = is_signed;
	if (type)
		a->bit_width = v->bit_size;	/* signed values are sign-extended from it */
	free(name);
	free(fetch);
	free(type);
	attach_guards(rc, a);
	if (out)
		*out = a;
	return 0;
}

/* The fetcharg of @v's address, for types the kernel reads at an address (arrays, strings) */
static int val_addr_fetch(struct rctx *rc, const struct val *v, struct span sp, char **fetch)
{
	const struct loc_piece *p = &v->loc.pieces[0];

	if (v->loc.nr == 1 && p->kind == LOC_MEM) {
		*fetch = loc_mem_fetch(p->base, p->off);
		return 0;
	}
	if (v->loc.nr == 1 && (p->kind == LOC_NONE || p->kind == LOC_BAD))
		return piece_error(rc, p, v->what, sp);
	return diag_error(rc->d, sp, "'%s' is in registers, not in memory; it cannot be read as "
			  "an array", v->what);
}

static int emit_cstring_at(struct rctx *rc, const struct emit *em, struct val *v,
			   const char *addr_fetch, struct trace_arg **out)
{
	char *name = uniq_name(rc, em->name);
	int field = trace_probe_add_field(rc->tp, name, addr_fetch,
					  em->cast && !strcmp(em->cast, "ustring") ? "ustring" :
					  "string", false);
	struct trace_arg *a = new_arg(rc, em, v, VK_CSTRING, 0, field);

	free(name);
	attach_guards(rc, a);
	if (out)
		*out = a;
	return 0;
}

/*
 * A C char[N] (array type @arr) as text. Its N bytes need not end in a NUL (a full
 * fixed-size name), and the kernel's :string would then read on into what follows the
 * array. Up to the kernel's array limit it is fetched as char[N]: exactly its bytes, shown
 * up to the first NUL (VK_BYTES), never more. A longer one is a :string with max_len N,
 * which the decoder cuts at; one of unknown length (a flexible member) a plain :string.
 */
static int emit_char_array(struct rctx *rc, const struct emit *em, struct val *v,
			   Dwarf_Die *arr)
{
	struct trace_arg *a = NULL;
	int64_t count, inner;
	char *f;

	array_dim(arr, v->dim, &count, &inner);
	count = count < 0 || inner < 0 ? -1 : count * inner;
	if (val_addr_fetch(rc, v, em->sp, &f))
		return -EINVAL;
	if (count > 0 && count <= rc->o->kf.max_array) {
		char *name = uniq_name(rc, em->name);
		char *t = xasprintf("%s[%" PRId64 "]", rc->o->kf.has_char ? "char" : "u8", count);
		int field = trace_probe_add_field(rc->tp, name, f, t, false);

		a = new_arg(rc, em, v, VK_BYTES, 0, field);
		attach_guards(rc, a);
		free(name);
		free(t);
	} else {
		emit_cstring_at(rc, em, v, f, &a);
		if (count > 0)
			a->max_len = (unsigned int)count;
	}
	free(f);
	return 0;
}

/* A C string through pointer @v: +0(PTR):string */
static int emit_cstring_ptr(struct rctx *rc, const struct emit *em, struct val *v)
{
	char *pf, *f;
	int ret;

	if (val_word_fetch(rc, v, em->sp, &pf))
		return -EINVAL;
	f = loc_mem_fetch(pf, 0);
	ret = emit_cstring_at(rc, em, v, f, NULL);
	free(pf);
	free(f);
	return ret;
}

/* A string with a length: char[64] chunks at the data pointer + a hidden length. */
static int emit_lstring(struct rctx *rc, const struct emit *em, struct val *v,
			const struct lang_layout *l)
{
	struct val ptr, len;
	char *pf = NULL, *lf = NULL;
	unsigned int total = rc->o->string_size ? rc->o->string_size : 128;
	unsigned int nchunks = (total + CHUNK - 1) / CHUNK, at = 0;
	struct trace_arg *a = NULL;
	int ret = -EINVAL;

	memset(&len, 0, sizeof(len));
	if (layout_ptr(rc, v, l, em->sp, &ptr))
		return -EINVAL;
	if (val_word_fetch(rc, &ptr, em->sp, &pf))
		goto out;
	if (l->len && (layout_len(rc, v, l, em->sp, &len) ||
		       val_word_fetch(rc, &len, em->sp, &lf)))
		goto out;
	for (unsigned int i = 0; i < nchunks; i++) {
		unsigned int n = total - at < CHUNK ? total - at : CHUNK;
		char *base = i ? xasprintf("%s_%u", em->name, i) : xstrdup(em->name);
		char *name = uniq_name(rc, base);
		char *f = loc_mem_fetch(pf, at);
		char *t = xasprintf("%s[%u]", rc->o->kf.has_char ? "char" : "u8", n);
		int field = trace_probe_add_field(rc->tp, name, f, t, false);

		if (!a) {
			a = new_arg(rc, em, v, VK_LSTRING, 0, field);
			a->max_len = total;
		}
		a->nr_fields++;
		at += n;
		free(base);
		free(name);
		free(f);
		free(t);
	}
	a->nr_fields--;
	if (lf) {
		char *base = xasprintf("%.*s_len", NAME_MAX_LEN - 4, em->name);

		a->len_field = hidden_field(rc, lf, "u64", base);
		free(base);
		/* a NULL data pointer with a length is a fault, not an empty string */
		add_guard_kind(rc, GUARD_DATA, pf, v->what, 0);
	}
	attach_guards(rc, a);
	ret = 0;
out:
	free(pf);
	free(lf);
	val_release(&ptr);
	val_release(&len);
	return ret;
}

static bool is_char_type(Dwarf_Die *type)
{
	Dwarf_Die t;
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0, size = 0;

	if (lang_strip(type, &t) != DW_TAG_base_type)
		return false;
	if (dwarf_attr(&t, DW_AT_encoding, &attr))
		dwarf_formudata(&attr, &enc);
	if (dwarf_attr(&t, DW_AT_byte_size, &attr))
		dwarf_formudata(&attr, &size);
	/* plain "char" is text; signed/unsigned char and uint8_t are bytes */
	return size == 1 && (enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char) &&
	       dwarf_diename(&t) && !strcmp(dwarf_diename(&t), "char");
}

static const char *int_type(unsigned int size, char prefix)
{
	static const char *const s[] = { "s8", "s16", "s32", "s64" };
	static const char *const u[] = { "u8", "u16", "u32", "u64" };
	static const char *const x[] = { "x8", "x16", "x32", "x64" };
	int i = size >= 8 ? 3 : size >= 4 ? 2 : size >= 2 ? 1 : 0;

	return prefix == 's' ? s[i] : prefix == 'x' ? x[i] : u[i];
}

static void fill_enums(struct trace_arg *a, Dwarf_Die *en)
{
	Dwarf_Die child;
	size_t alloc = 0;

	if (dwarf_child(en, &child) != 0)
		return;
	do {
		Dwarf_Attribute attr;
		Dwarf_Sword s;
		Dwarf_Word u;
		int64_t val;

		if (dwarf_tag(&child) != DW_TAG_enumerator ||
		    !dwarf_attr(&child, DW_AT_const_value, &attr))
			continue;
		switch (dwarf_whatform(&attr)) {
		case DW_FORM_data1:
		case DW_FORM_data2:
		case DW_FORM_data4:
		case DW_FORM_data8: {
			/*
			 * Raw bits of the form's size: libdw's dwarf_formsdata() sign-extends
			 * them from that size (200 in data1 read as -56, the value of another
			 * enumerator). Signed from the enum's own size instead.
			 */
			unsigned int bits = a->size > 0 && a->size < 8 ? a->size * 8 : 64;
			int form = dwarf_whatform(&attr);
			unsigned int fbits = form == DW_FORM_data1 ? 8 : form == DW_FORM_data2 ? 16 :
					     form == DW_FORM_data4 ? 32 : 64;

			if (dwarf_formudata(&attr, &u))
				continue;
			if (fbits < 64)
				u &= ((uint64_t)1 << fbits) - 1;
			if (a->is_signed && bits < 64 && ((u >> (bits - 1)) & 1))
				u |= ~(uint64_t)0 << bits;
			val = (int64_t)u;
			break;
		}
		default:
			if (a->is_signed && !dwarf_formsdata(&attr, &s))
				val = s;
			else if (!dwarf_formudata(&attr, &u))
				val = (int64_t)u;
			else if (!dwarf_formsdata(&attr, &s))
				val = s;
			else
				continue;
		}
		ALLOC_GROW(a->enums, a->nr_enums + 1, alloc);
		a->enums[a->nr_enums].value = val;
		a->enums[a->nr_enums].name = xstrdup(die_name(&child));
		a->nr_enums++;
	} while (dwarf_siblingof(&child, &child) == 0);
}

static bool enum_signed(Dwarf_Die *en)
{
	Dwarf_Die bt;
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;

	if (lang_type_of(en, &bt) && lang_strip(&bt, &bt) == DW_TAG_base_type &&
	    dwarf_attr(&bt, DW_AT_encoding, &attr) && !dwarf_formudata(&attr, &enc))
		return enc == DW_ATE_signed || enc == DW_ATE_signed_char;
	if (dwarf_attr(en, DW_AT_encoding, &attr) && !dwarf_formudata(&attr, &enc))
		return enc == DW_ATE_signed;
	return true;	/* C enums are int */
}

/* An explicit :TYPE */
static int emit_cast(struct rctx *rc, const struct emit *em, struct val *v)
{
	const char *c = em->cast;
	Dwarf_Die t;
	int tag = v->has_type ? lang_strip(&v->type, &t) : 0;

	/*
	 * A raw memory fetcharg typed string or T[N] already names the address the kernel
	 * reads at ("+0(%di):string"): pass it as written, as perf does.
	 */
	if (v->raw && v->loc.nr == 1 && (!strcmp(c, "string") || !strcmp(c, "ustring")))
		return emit_cstring_at(rc, em, v, v->loc.pieces[0].fetch, NULL);
	if (!strcmp(c, "string") || !strcmp(c, "ustring")) {
		char *f;
		int ret;

		Dwarf_Die et;

		if (tag == DW_TAG_array_type && !strcmp(c, "string") && lang_type_of(&t, &et) &&
		    is_char_type(&et))
			return emit_char_array(rc, em, v, &t);
		if (tag == DW_TAG_array_type) {
			if (val_addr_fetch(rc, v, em->sp, &f))
				return -EINVAL;
			ret = emit_cstring_at(rc, em, v, f, NULL);
			free(f);
			return ret;
		}
		return emit_cstring_ptr(rc, em, v);
	}
	if (!strcmp(c, "sym") || !strcmp(c, "symbol"))
		return emit_scalar(rc, em, v, "x64", VK_SYM, 8, false, NULL);
	if (!strcmp(c, "float"))
		return emit_scalar(rc, em, v, "x32", VK_FLOAT, 4, false, NULL);
	if (!strcmp(c, "double"))
		return emit_scalar(rc, em, v, "x64", VK_FLOAT, 8, false, NULL);
	if (!strcmp(c, "bool"))
		return emit_scalar(rc, em, v, "u8", VK_BOOL, 1, false, NULL);
	if ((c[0] == 's' || c[0] == 'u' || c[0] == 'x') &&
	    (!strcmp(c + 1, "8") || !strcmp(c + 1, "16") || !strcmp(c + 1, "32") ||
	     !strcmp(c + 1, "64"))) {
		unsigned int bits = (unsigned int)atoi(c + 1);

		return emit_scalar(rc, em, v, c, c[0] == 's' ? VK_SIGNED : c[0] == 'u' ?
				   VK_UNSIGNED : VK_HEX, bits / 8, c[0] == 's', NULL);
	}
	/* any other kernel type (u8[16], b4@2/8, char, %pd ...) as the kernel shows it */
	if (strchr(c, '[')) {
		char *f;
		char *name;
		int field;
		struct trace_arg *a;

		if (v->raw && v->loc.nr == 1)
			f = xstrdup(v->loc.pieces[0].fetch);
		else if (val_addr_fetch(rc, v, em->sp, &f))
			return -EINVAL;
		name = uniq_name(rc, em->name);
		field = trace_probe_add_field(rc->tp, name, f, c, false);
		a = new_arg(rc, em, v, VK_RAW, 0, field);
		attach_guards(rc, a);
		free(name);
		free(f);
		return 0;
	}
	return emit_scalar(rc, em, v, c, VK_RAW, 0, false, NULL);
}

static int emit_struct_error(struct rctx *rc, const struct emit *em, struct val *v,
			     Dwarf_Die *t)
{
	struct strbuf fields = STRBUF_INIT;
	char *tn = rctx_type_name(rc, &v->type, true);

	strbuf_init(&fields);
	lang_list_members(t, &fields);
	diag_error(rc->d, em->sp, "'%s' is a %s; name one of its fields", v->what, tn);
	if (fields.len)
		diag_hint(rc->d, "fields: %s", fields.buf);
	strbuf_release(&fields);
	free(tn);
	return -EINVAL;
}

/* The last argument shows @v's type, not the type of the part that was fetched. */
static void set_last_type_name(struct rctx *rc, struct val *v)
{
	struct trace_arg *a = &rc->tp->args[rc->tp->nr_args - 1];

	free(a->type_name);
	a->type_name = rctx_type_name(rc, &v->type, true);
}

/* @v as kernel fields, by its type. */
static int emit_val(struct rctx *rc, const struct emit *em, struct val *v)
{
	Dwarf_Die t, to;
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	struct lang_layout l;
	int64_t size;
	int tag;

	if (v->loc.nr == 1 && (v->loc.pieces[0].kind == LOC_NONE ||
			       v->loc.pieces[0].kind == LOC_BAD))
		return piece_error(rc, &v->loc.pieces[0], v->what, em->sp);
	if (em->cast)
		return emit_cast(rc, em, v);
	if (!v->has_type) {
		/* registers, raw fetchargs, void: passed as the kernel reads them */
		const struct loc_piece *p = &v->loc.pieces[0];
		bool special = p->kind == LOC_VAL && p->fetch && p->fetch[0] != '%' &&
			       p->fetch[0] != '$';

		return emit_scalar(rc, em, v, special ? "u64" : "u64", VK_RAW, 8, false, NULL);
	}
	tag = lang_strip(&v->type, &t);
	size = lang_type_size(&v->type);
	switch (tag) {
	case DW_TAG_base_type:
		if (dwarf_attr(&t, DW_AT_encoding, &attr))
			dwarf_formudata(&attr, &enc);
		if (size > 8 || size <= 0)
			return diag_error(rc->d, em->sp, "'%s' has %" PRId64 " bytes; upfront reads "
					  "values of up to 8", v->what, size);
		switch (enc) {
		case DW_ATE_boolean:
			return emit_scalar(rc, em, v, int_type(size, 'u'), VK_BOOL, size, false,
					   NULL);
		case DW_ATE_float:
			if (v->loc.nr == 1 && v->loc.pieces[0].kind == LOC_VAL &&
			    v->loc.pieces[0].reg >= 0)
				return diag_error(rc->d, em->sp, "'%s' is a float in register %s, "
						  "which upfront cannot read as a float", v->what,
						  v->loc.pieces[0].fetch);
			return emit_scalar(rc, em, v, size == 4 ? "x32" : "x64", VK_FLOAT, size,
					   false, NULL);
		case DW_ATE_signed_char:
		case DW_ATE_unsigned_char:
			if (size == 1 && !v->bit_size)	/* a char bitfield is a number */
				return emit_scalar(rc, em, v, enc == DW_ATE_signed_char ? "s8" : "u8",
						   VK_CHAR, 1, enc == DW_ATE_signed_char, NULL);
			/* fallthrough */
		case DW_ATE_signed:
			if (enc == DW_ATE_signed || enc == DW_ATE_signed_char)
				return emit_scalar(rc, em, v, int_type(size, 's'), VK_SIGNED, size,
						   true, NULL);
			/* fallthrough */
		default:
			return emit_scalar(rc, em, v, int_type(size, 'u'), VK_UNSIGNED, size,
					   false, NULL);
		}
	case DW_TAG_enumeration_type: {
		struct trace_arg *a;
		bool sg = enum_signed(&t);

		if (size <= 0 || size > 8)
			size = 4;
		if (emit_scalar(rc, em, v, int_type(size, sg ? 's' : 'u'), VK_ENUM, size, sg, &a))
			return -EINVAL;
		fill_enums(a, &t);
		return 0;
	}
	case DW_TAG_pointer_type:
		if (v->is_vptr)
			return emit_scalar(rc, em, v, "x64", VK_SYM, 8, false, NULL);
		if (lang_type_of(&t, &to)) {
			Dwarf_Die ts;
			int ttag = lang_strip(&to, &ts);

			if (rc->lang->char_ptr_is_string && lang_of_die(&t)->char_ptr_is_string &&
			    is_char_type(&to))
				return emit_cstring_ptr(rc, em, v);
			if (ttag == DW_TAG_subroutine_type)
				return emit_scalar(rc, em, v, "x64", VK_SYM, 8, false, NULL);
		}
		return emit_scalar(rc, em, v, "x64", VK_POINTER, 8, false, NULL);
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type: {
		struct val n;

		if (!lang_type_of(&t, &to))
			return emit_scalar(rc, em, v, "x64", VK_POINTER, 8, false, NULL);
		if (val_deref(rc, v, 0, &to, true, v->what, em->sp, &n))
			return -EINVAL;
		val_move(v, &n);
		return emit_val(rc, em, v);
	}
	case DW_TAG_ptr_to_member_type:
		return emit_scalar(rc, em, v, "x64", VK_HEX, 8, false, NULL);
	case DW_TAG_subroutine_type:
		return emit_scalar(rc, em, v, "x64", VK_SYM, 8, false, NULL);
	case DW_TAG_array_type: {
		Dwarf_Die et, ets;
		int64_t count, esize;
		char *f, *ktype, *name;
		int field;
		struct trace_arg *a;

		int64_t inner;

		if (!lang_type_of(&t, &et))
			return diag_error(rc->d, em->sp, "'%s' is an array of unknown type",
					  v->what);
		/* what is left of a multi-dimensional array is read whole, row after row */
		array_dim(&t, v->dim, &count, &inner);
		count = count < 0 || inner < 0 ? -1 : count * inner;
		if (is_char_type(&et) && rc->lang->char_ptr_is_string)
			return emit_char_array(rc, em, v, &t);
		esize = lang_type_size(&et);
		if (lang_strip(&et, &ets) != DW_TAG_base_type && !tag_is_pointer(dwarf_tag(&ets)))
			return diag_error(rc->d, em->sp, "'%s' is an array of aggregates; index it "
					  "('%s[0]')", v->what, v->what);
		if (count < 0)
			return diag_error(rc->d, em->sp, "'%s' is an array of unknown length; index "
					  "it ('%s[0]')", v->what, v->what);
		if (count <= 0 || count > rc->o->kf.max_array || esize <= 0 || esize > 8)
			return diag_error(rc->d, em->sp, "'%s' has %" PRId64 " elements; the kernel "
					  "reads arrays of up to %d; index it", v->what, count,
					  rc->o->kf.max_array);
		if (val_addr_fetch(rc, v, em->sp, &f))
			return -EINVAL;
		{
			Dwarf_Word e2 = 0;

			if (dwarf_attr(&ets, DW_AT_encoding, &attr))
				dwarf_formudata(&attr, &e2);
			ktype = xasprintf("%s[%" PRId64 "]", int_type(esize, (e2 == DW_ATE_signed ||
						e2 == DW_ATE_signed_char) ? 's' :
						dwarf_tag(&ets) == DW_TAG_pointer_type ? 'x' : 'u'),
					  count);
		}
		name = uniq_name(rc, em->name);
		field = trace_probe_add_field(rc->tp, name, f, ktype, false);
		a = new_arg(rc, em, v, VK_RAW, 0, field);
		attach_guards(rc, a);
		free(name);
		free(ktype);
		free(f);
		return 0;
	}
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type: {
		const struct lang_ops *lo = lang_of_die(&t);
		const char *word;

		if (get_layout(&t, false, &l) && l.len)
			return emit_lstring(rc, em, v, &l);
		if (lo->iface_word && (word = lo->iface_word(&t, dwarf_diename(&t)))) {
			struct val w;
			int ret;

			memset(&w, 0, sizeof(w));
			w.type = v->type;
			w.has_type = true;
			loc_copy(&w.loc, &v->loc);
			w.what = xstrdup(v->what);
			ret = val_path(rc, &w, word, em->sp);
			if (!ret)
				ret = emit_scalar(rc, em, &w, "x64", VK_SYM, 8, false, NULL);
			if (!ret)
				set_last_type_name(rc, v);
			val_release(&w);
			return ret;
		}
		if (get_layout(&t, true, &l)) {
			struct val w;
			int ret;

			/* a slice/vector alone: its length (std::vector: its data pointer) */
			memset(&w, 0, sizeof(w));
			if (l.len)
				ret = layout_len(rc, v, &l, em->sp, &w);
			else
				ret = layout_ptr(rc, v, &l, em->sp, &w);
			if (!ret)
				ret = emit_scalar(rc, em, &w, l.len ? "u64" : "x64",
						  l.len ? VK_UNSIGNED : VK_POINTER, 8, false, NULL);
			if (!ret)
				set_last_type_name(rc, v);
			val_release(&w);
			return ret;
		}
		return emit_struct_error(rc, em, v, &t);
	}
	default: {
		char *tn = rctx_type_name(rc, &v->type, true);

		diag_error(rc->d, em->sp, "'%s' has type %s, which upfront cannot read", v->what,
			   tn);
		free(tn);
		return -EINVAL;
	}
	}
}

/* ---- one argument ---- */

static char *arg_text(const struct probe_spec *spec, const struct probe_arg *pa)
{
	if (pa->span.start >= 0 && pa->span.len > 0 &&
	    (size_t)(pa->span.start + pa->span.len) <= strlen(spec->text))
		return xstrndup(spec->text + pa->span.start, pa->span.len);
	return expr_text(pa->expr);
}

/* @given: @name is the user's NAME=, used as is (unique, at most 32 characters) */
static int emit_one(struct rctx *rc, const char *name, bool given, const char *expr,
		    const char *cast, struct span sp, struct span cast_sp, struct val *v)
{
	struct emit em = { .expr = expr, .cast = cast, .sp = sp, .cast_sp = cast_sp };
	char *n;
	int ret;

	if (given) {
		if (strlen(name) > NAME_MAX_LEN)
			return diag_error(rc->d, sp, "argument name '%s' is longer than the kernel's "
					  "limit of %d characters", name, NAME_MAX_LEN);
		if (field_name_used(rc->tp, name))
			return diag_error(rc->d, sp, "argument name '%s' is used twice", name);
		n = xstrdup(name);
		rc->claim = n;
	} else {
		n = uniq_name(rc, name);
	}
	em.name = n;
	ret = emit_val(rc, &em, v);
	rc->claim = NULL;
	free(n);
	return ret;
}

/* $params / $vars / Go's multi-result $retval: each value that can be read */
static void emit_each(struct rctx *rc, Dwarf_Die *var, const char *name, bool quiet)
{
	struct diag scratch, *save = rc->d;
	struct val v;
	size_t nf = rc->tp->nr_fields, na = rc->tp->nr_args;

	diag_init(&scratch, rc->spec->text);
	rc->d = &scratch;
	guards_clear(rc);
	if (val_from_die(rc, var, name, SPAN_NONE, &v) == 0) {
		if (emit_one(rc, name, false, name, NULL, SPAN_NONE, SPAN_NONE, &v)) {
			/* drop what a failed value added */
			while (rc->tp->nr_args > na) {
				struct trace_arg *a = &rc->tp->args[--rc->tp->nr_args];

				free(a->name);
				free(a->expr);
				free(a->type_name);
				for (int g = 0; g < a->nr_guards; g++)
					free(a->guard_exprs[g]);
				for (size_t e = 0; e < a->nr_enums; e++)
					free(a->enums[e].name);
				free(a->enums);
			}
			while (rc->tp->nr_fields > nf) {
				struct fetch_field *f = &rc->tp->fields[--rc->tp->nr_fields];

				free(f->name);
				free(f->fetch);
				free(f->type);
			}
			if (!quiet)
				pr_info("skipping %s: %s", name, scratch.msg ? scratch.msg : "?");
		}
	}
	val_release(&v);
	guards_clear(rc);
	diag_release(&scratch);
	rc->d = save;
}

bool die_is_go_result(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	bool flag = false;

	return dwarf_attr_integrate(die, DW_AT_variable_parameter, &attr) &&
	       dwarf_formflag(&attr, &flag) == 0 && flag;
}

/*
 * $params: the parameters of the function probed (the inlined copy's own at an inlined
 * site); $vars: every variable visible at the pc
 */
static enum visit param_emit(struct rctx *rc, Dwarf_Die *scope, Dwarf_Die *var, const char *name,
			     void *arg)
{
	const bool *all_vars = arg;

	if (!*all_vars) {
		if (dwarf_tag(var) != DW_TAG_formal_parameter)
			return VISIT_SKIP;
		if (rc->has_here ? dwarf_dieoffset(scope) != dwarf_dieoffset(&rc->here) :
				   scope != &rc->scopes[0])
			return VISIT_SKIP;
	}
	if (die_is_go_result(var) && !rc->site->at_ret_insn)
		return VISIT_SKIP;
	emit_each(rc, var, name, false);
	return VISIT_TAKE;
}

static int emit_params(struct rctx *rc, bool all_vars, struct span sp)
{
	size_t before = rc->tp->nr_args;

	if (!rc->has_cu)
		return diag_error(rc->d, sp, "no debug information covers %s", rc->where);
	rctx_locals_visit(rc, param_emit, &all_vars);
	if (rc->tp->nr_args == before)
		return diag_error(rc->d, sp, "no %s can be read at %s", all_vars ? "variables" :
				  "parameters", rc->where);
	return 0;
}

/* Go results at a ret instruction, one argument each */
static int emit_go_results(struct rctx *rc, const struct probe_arg *pa)
{
	struct abi_value *res;
	size_t nr;

	if (go_results(rc, &res, &nr, pa->expr->span))
		return -EINVAL;
	for (size_t i = 0; i < nr; i++) {
		struct val v;
		const char *n = res[i].name;
		char *name;
		int ret;

		if (n[0] == '~')
			n++;
		name = nr == 1 && pa->name ? xstrdup(pa->name) : xstrdup(n);
		memset(&v, 0, sizeof(v));
		loc_copy(&v.loc, &res[i].loc);
		v.type = res[i].type;
		v.has_type = res[i].has_type;
		v.what = xstrdup(res[i].name);
		guards_clear(rc);
		ret = emit_one(rc, name, nr == 1 && pa->name, res[i].name, pa->type, pa->span, pa->type_span, &v);
		val_release(&v);
		free(name);
		if (ret) {
			abi_values_free(res, nr);
			return ret;
		}
	}
	abi_values_free(res, nr);
	return 0;
}

/*
 * The kernel's limits on the fields argument @pa added (from @nf on), named after what the
 * user typed: nested dereferences, then the length of FETCH:TYPE, then the event's size.
 * fetcharg_check_limits() checks the finished probe again.
 */
static int check_arg_limits(struct rctx *rc, const struct probe_arg *pa, size_t nf)
{
	const struct kernel_features *kf = &rc->o->kf;
	long fixed = 0;
	int ret = 0;

	for (size_t i = nf; i < rc->tp->nr_fields && !ret; i++) {
		const struct fetch_field *f = &rc->tp->fields[i];
		size_t len = strlen(f->fetch) + 1 + strlen(f->type);
		int n = fetcharg_count_derefs(f->fetch);

		if (kf->max_derefs > 0 && n > kf->max_derefs) {
			ret = diag_error(rc->d, pa->span, "argument '%s' needs %d nested "
					 "dereferences; the kernel's limit is %d", f->name, n,
					 kf->max_derefs);
		} else if (kf->max_arg_len > 0 && len > (size_t)kf->max_arg_len) {
			ret = diag_error(rc->d, pa->span, "argument '%s' is too long for the "
					 "kernel: '%s:%s' has %zu characters, the limit is %d",
					 f->name, f->fetch, f->type, len, kf->max_arg_len);
		}
	}
	for (size_t i = 0; i < rc->tp->nr_fields && !ret; i++) {
		int size = fetcharg_type_size(rc->tp->fields[i].type);

		fixed += size > 0 ? size : 8;
	}
	if (!ret && kf->max_event_size > 0 && fixed > kf->max_event_size) {
		ret = diag_error(rc->d, pa->span, "with argument '%s' the event has %ld bytes of "
				 "fields; the kernel's limit is %d", rc->tp->args[rc->tp->nr_args - 1].name,
				 fixed, kf->max_event_size);
		diag_hint(rc->d, "capture fewer or shorter values (--string-size %u now)",
			  rc->o->string_size ? rc->o->string_size : 128);
	}
	return ret ? -E2BIG : 0;
}

static int resolve_arg_limited(struct rctx *rc, const struct probe_arg *pa);

static int resolve_arg(struct rctx *rc, const struct probe_arg *pa)
{
	size_t nf = rc->tp->nr_fields;
	int ret = resolve_arg_limited(rc, pa);

	return ret ? ret : check_arg_limits(rc, pa, nf);
}

static int resolve_arg_limited(struct rctx *rc, const struct probe_arg *pa)
{
	struct val v;
	char *text, *vname = NULL, *pos_name = NULL;
	const char *name;
	int ret;

	guards_clear(rc);
	switch (pa->expr->kind) {
	case EXPR_PARAMS:
		return emit_params(rc, false, pa->expr->span);
	case EXPR_VARS:
		return emit_params(rc, true, pa->expr->span);
	case EXPR_RETVAL:
		if (rc->site->at_ret_insn)
			return emit_go_results(rc, pa);
		break;
	default:
		break;
	}
	ret = val_eval(rc, pa->expr, &v);
	if (ret) {
		val_release(&v);
		guards_clear(rc);
		return ret;
	}
	text = arg_text(rc->spec, pa);
	name = pa->name ? pa->name : expr_last_name(pa->expr);
	if (!name || !*name) {
		/* raw fetchargs are named by position, as perf and the kernel do: arg1, arg2 */
		pos_name = probe_arg_name(pa, pa - rc->spec->args);
		name = pos_name;
	}
	/* "this->_vptr.Base" is named as the member is: _vptr_Base, not Base */
	if (!pa->name && pa->expr->kind == EXPR_MEMBER && pa->expr->base->kind == EXPR_MEMBER &&
	    !strcmp(pa->expr->base->name, "_vptr"))
		vname = xasprintf("_vptr_%s", pa->expr->name);
	ret = emit_one(rc, vname ? vname : name, !vname && pa->name, text, pa->type, pa->span, pa->type_span, &v);
	free(vname);
	free(pos_name);
	free(text);
	val_release(&v);
	guards_clear(rc);
	return ret;
}

/* ---- one site ---- */

void rctx_release(struct rctx *rc)
{
	free(rc->scopes);
	free(rc->where);
	guards_clear(rc);
}

/*
 * dwarf_getscopes() does not look into namespaces, where rustc puts its functions: walk
 * namespaces and types, and the code scopes that hold @pc. Innermost first, like it.
 */
static bool scopes_walk(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die **chain, int *n, int depth)
{
	Dwarf_Die child;

	if (depth > 64 || dwarf_child(parent, &child) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child);
		bool code = tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
			    tag == DW_TAG_lexical_block;

		if (code && dwarf_haspc(&child, pc) > 0) {
			*chain = xrealloc(*chain, sizeof(**chain) * (*n + 1));
			(*chain)[(*n)++] = child;
			scopes_walk(&child, pc, chain, n, depth + 1);
			return true;
		}
		if ((tag == DW_TAG_namespace || tag == DW_TAG_module ||
		     tag == DW_TAG_structure_type || tag == DW_TAG_class_type) &&
		    scopes_walk(&child, pc, chain, n, depth + 1))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

static int own_scopes(Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die **out)
{
	Dwarf_Die *chain = NULL;
	int n = 0;

	scopes_walk(cu, pc, &chain, &n, 0);
	chain = xrealloc(chain, sizeof(*chain) * (n + 1));
	chain[n++] = *cu;
	/* innermost first */
	for (int i = 0; i < (n - 1) / 2; i++) {
		Dwarf_Die t = chain[i];

		chain[i] = chain[n - 2 - i];
		chain[n - 2 - i] = t;
	}
	*out = chain;
	return n;
}

/* The scopes at the pc, innermost first, and the subprogram holding it. */
static void ensure_scopes(struct rctx *rc)
{
	if (rc->scopes_done || !rc->has_cu)
		return;
	rc->scopes_done = true;
	/* from a per-CU table: a glob over 1000 functions of one CU must not walk it 1000 times */
	rc->nscopes = debuginfo_getscopes(rc->dbg, &rc->cu, rc->lc.pc, &rc->scopes);
	if (rc->nscopes <= 0) {
		free(rc->scopes);
		rc->scopes = NULL;
		rc->nscopes = own_scopes(&rc->cu, rc->lc.pc, &rc->scopes);
	}
	for (int i = 0; i < rc->nscopes; i++) {
		int tag = dwarf_tag(&rc->scopes[i]);

		/*
		 * In an inlined copy the scopes go on through the inlined function's abstract
		 * definition, which has no frame base: place.c names the out-of-line function
		 * whose frame holds the pc
		 */
		if (tag == DW_TAG_subprogram && !rc->site->has_frame_func) {
			rc->func = rc->scopes[i];
			rc->has_func = true;
		}
		if (!rc->has_here && (tag == DW_TAG_subprogram ||
				      tag == DW_TAG_inlined_subroutine)) {
			rc->here = rc->scopes[i];
			rc->has_here = true;
		}
	}
}

int rctx_init(struct rctx *rc, const struct probe_spec *spec, struct debuginfo *dbg,
	      const struct resolve_opts *o, const struct probe_site *site, struct diag *d)
{
	Dwarf_Addr entry;
	uint64_t fentry = site->vaddr;

	memset(rc, 0, sizeof(*rc));
	rc->spec = spec;
	rc->dbg = dbg;
	rc->o = o;
	rc->site = site;
	rc->d = d;
	rc->dw = debuginfo_dwarf(dbg, &rc->bias);
	rc->lang = lang_for(site->lang);
	if (rc->dw) {
		Dwarf_Addr pc = site->vaddr - rc->bias;

		if (site->has_die) {
			rc->cu = site->cu;
			rc->has_cu = true;
			rc->here = site->die;
			rc->has_here = true;
		} else if (dwarf_addrdie(rc->dw, pc, &rc->cu)) {
			rc->has_cu = true;
		}
		if (rc->has_cu && !site->lang)
			rc->lang = lang_for(dwarf_srclang(&rc->cu));
		rc->lc.pc = pc;
		if (site->has_frame_func) {
			/* the frame base and CFA: from the out-of-line function holding the pc */
			rc->func = site->frame_func;
			rc->has_func = true;
		}
		if (site->has_die && dwarf_tag(&rc->here) == DW_TAG_subprogram) {
			/* scopes only when an argument needs a variable (a glob of 1000 doesn't) */
			if (!site->has_frame_func) {
				rc->func = rc->here;
				rc->has_func = true;
			}
		} else {
			ensure_scopes(rc);
		}
		rc->lc.pc = pc;
	}
	rc->lc.vaddr = site->vaddr;
	rc->lc.cfi = debuginfo_cfi(dbg);
	rc->lc.func = rc->has_func ? &rc->func : NULL;
	rc->lc.file_delta = (int64_t)rc->bias + (int64_t)site->offset - (int64_t)site->vaddr;
	if (rc->lang == &lang_go && rc->has_func) {
		/* Go without .debug_frame: the CFA from the frame pointer (see loc.h) */
		Dwarf_Addr lo;

		rc->lc.cfa_fallback = LOC_CFA_BP;
		if (site->at_ret_insn || (dwarf_lowpc(&rc->func, &lo) == 0 && lo == rc->lc.pc))
			rc->lc.cfa_fallback = LOC_CFA_SP;
	}
	if (rc->has_here && dwarf_entrypc(&rc->here, &entry) == 0)
		fentry = entry + rc->bias;
	if (site->func && fentry <= site->vaddr)
		rc->where = xasprintf("%s+0x%" PRIx64, site->func, site->vaddr - fentry);
	else
		rc->where = xasprintf("0x%" PRIx64, site->vaddr);
	return 0;
}

static int resolve_site(const struct probe_spec *spec, struct debuginfo *dbg,
			const struct resolve_opts *o, const struct probe_site *site,
			struct trace_probe *tp, struct diag *d)
{
	struct rctx rc;
	const char *bid;
	int ret = 0;

	rctx_init(&rc, spec, dbg, o, site, d);
	rc.tp = tp;
	tp->path = xstrdup(debuginfo_path(dbg));
	bid = debuginfo_build_id(dbg);
	tp->build_id = bid ? xstrdup(bid) : NULL;
	tp->func = site->func ? xstrdup(site->func) : NULL;
	tp->vaddr = site->vaddr;
	tp->ret_at_sp = site->ret_at_sp;
	tp->offset = site->offset;
	tp->is_return = site->is_return;
	for (size_t i = 0; i < spec->nr_args && !ret; i++)
		ret = resolve_arg(&rc, &spec->args[i]);
	rctx_release(&rc);
	return ret;
}

/* ---- event names ---- */

static char *signature(const struct trace_probe *tp)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_init(&sb);
	strbuf_addstr(&sb, tp->is_return ? "r" : "p");
	for (size_t i = 0; i < tp->nr_fields; i++)
		strbuf_addf(&sb, " %s:%s", tp->fields[i].name, tp->fields[i].type);
	return strbuf_detach(&sb);
}

/*
 * last_component() - the function's own name, as the event is named (CLI.md:
 * p:probe_dnsfwd/handleRequest): the part after the last "::" or '.' that is not inside
 * (), <> or [] ("main.(*server).handleRequest" -> "handleRequest", "caf::actor::enqueue"
 * -> "enqueue", "<Vec<T> as Drop>::drop" -> "drop"), without a trailing parameter list.
 */
static char *last_component(const char *name)
{
	size_t len = strlen(name), start = 0;
	int depth = 0;

	if (len && name[len - 1] == ')') {
		/* drop "(int, char)" of a C++ signature */
		for (size_t i = len; i-- > 0;) {
			depth += name[i] == ')' ? 1 : name[i] == '(' ? -1 : 0;
			if (!depth) {
				if (i)
					len = i;
				break;
			}
		}
		depth = 0;
	}
	for (size_t i = 0; i < len; i++) {
		char c = name[i];

		if (c == '(' || c == '<' || c == '[')
			depth++;
		else if ((c == ')' || c == '>' || c == ']') && depth > 0)
			depth--;
		else if (!depth && c == '.' && i + 1 < len)
			start = i + 1;
		else if (!depth && c == ':' && name[i + 1] == ':' && i + 2 < len)
			start = i + 2, i++;
	}
	return xstrndup(name + start, len - start);
}

static char *base_event(const struct probe_spec *spec, const struct probe_site *site,
			bool glob_shared)
{
	const char *suffix = site->is_return || site->at_ret_insn ? "__return" : "";
	char *s, *r;

	if (spec->event)
		return sanitize_ident(spec->event, 63);
	if (spec->place.kind == PLACE_ADDR || !site->func)
		return xasprintf("addr_%" PRIx64, site->vaddr);
	if (glob_shared) {
		s = sanitize_ident(spec->place.func, 63 - strlen(suffix));
	} else {
		char *own = last_component(site->func);

		s = sanitize_ident(own, 63 - strlen(suffix));
		free(own);
	}
	if (glob_shared && s[0] == '_' && s[1]) {
		/* "*_order" shares "order", not "_order" */
		r = xstrdup(s + strspn(s, "_"));
		free(s);
		s = r;
	}
	if (!strcmp(s, "_") || !*s) {
		free(s);
		s = xstrdup("probe");
	}
	r = xasprintf("%s%s", s, suffix);
	free(s);
	return r;
}

static void name_events(const struct probe_spec *spec, const struct resolve_opts *o,
			struct debuginfo *dbg, const struct probe_site *sites,
			struct trace_probe *tps, size_t nr)
{
	char **sigs = xcalloc(nr, sizeof(*sigs));
	bool glob = spec->place.kind == PLACE_FUNC && spec->place.func &&
		    has_glob(spec->place.func);
	bool all_same = true;
	char *group;

	for (size_t i = 0; i < nr; i++) {
		sigs[i] = signature(&tps[i]);
		if (i && strcmp(sigs[i], sigs[0]))
			all_same = false;
	}
	if (o->group) {
		group = sanitize_ident(o->group, 63);
	} else {
		/* as perf names it: the basename up to its first '-', '.' or '_' (probe_libc) */
		const char *base = debuginfo_basename(dbg);
		size_t n = strcspn(base, "-._");
		char *cut = xstrndup(base, n ? n : strlen(base));
		char *b = sanitize_ident(cut, 57);

		group = xasprintf("probe_%s", b);
		free(cut);
		free(b);
	}
	for (size_t i = 0; i < nr; i++) {
		char *base = base_event(spec, &sites[i], glob && all_same && nr > 1);
		char *name = NULL;

		/* a name taken by a site with other fields gets _1, _2 ... */
		for (int k = 0; !name; k++) {
			char *cand = k ? xasprintf("%.*s_%d", 58, base, k) : xstrdup(base);
			bool clash = false;

			for (size_t j = 0; j < i; j++) {
				if (strcmp(tps[j].event, cand))
					continue;
				if (strcmp(sigs[j], sigs[i]))
					clash = true;
			}
			if (clash)
				free(cand);
			else
				name = cand;
		}
		tps[i].event = name;
		tps[i].group = xstrdup(group);
		free(base);
	}
	for (size_t i = 0; i < nr; i++)
		free(sigs[i]);
	free(sigs);
	free(group);
}

int resolve_probe(const struct probe_spec *spec, struct debuginfo *dbg,
		  const struct resolve_opts *o, struct trace_probe **tps, size_t *nr,
		  struct diag *d)
{
	struct probe_site *sites = NULL;
	struct trace_probe *out;
	size_t nsites = 0, n = 0;
	bool glob = spec->place.kind == PLACE_FUNC && spec->place.func &&
		    has_glob(spec->place.func);
	struct diag first;
	int ret;

	*tps = NULL;
	*nr = 0;
	ret = place_resolve(&spec->place, dbg, &sites, &nsites, d);
	if (ret)
		return ret;
	out = xcalloc(nsites ? nsites : 1, sizeof(*out));
	diag_init(&first, d->input);
	for (size_t i = 0; i < nsites; i++) {
		struct diag one;
		const struct probe_site *s = &sites[i];

		diag_init(&one, d->input);
		ret = resolve_site(spec, dbg, o, s, &out[n], glob ? &one : d);
		if (ret && !glob) {
			diag_release(&one);
			goto err;
		}
		if (ret) {
			/* a glob skips the functions where an argument does not exist */
			pr_info("%s: %s", s->func ? s->func : "?", one.msg ? one.msg : "?");
			if (!diag_has_error(&first)) {
				diag_release(&first);
				first = one;
			} else {
				diag_release(&one);
			}
			trace_probe_release(&out[n]);
			memset(&out[n], 0, sizeof(out[n]));
			continue;
		}
		diag_release(&one);
		n++;
	}
	if (!n) {
		/* every match failed: the first reason */
		d->span = first.span;
		diag_error(d, first.span, "%s", first.msg ? first.msg : "no probe site");
		if (first.hints.len)
			diag_hint(d, "%s", first.hints.buf);
		ret = -EINVAL;
		goto err;
	}
	{
		/* name_events works on the sites that resolved, in order */
		struct probe_site *ok = xcalloc(n, sizeof(*ok));
		size_t k = 0;

		for (size_t i = 0; i < nsites && k < n; i++)
			if (out[k].vaddr == sites[i].vaddr && out[k].is_return == sites[i].is_return)
				ok[k++] = sites[i];
		name_events(spec, o, dbg, ok, out, n);
		free(ok);
	}
	for (size_t i = 0; i < n; i++) {
		ret = fetcharg_check_limits(&out[i], &o->kf, d);
		if (ret)
			goto err;
	}
	diag_release(&first);
	probe_sites_free(sites, nsites);
	*tps = out;
	*nr = n;
	return 0;
err:
	diag_release(&first);
	trace_probes_free(out, nsites);
	probe_sites_free(sites, nsites);
	return ret ? ret : -EINVAL;
}

void trace_probes_free(struct trace_probe *tps, size_t nr)
{
	if (!tps)
		return;
	for (size_t i = 0; i < nr; i++)
		trace_probe_release(&tps[i]);
	free(tps);
}

void resolve_uniq_events(struct trace_probe *tps, size_t nr, const size_t *spec_of)
{
	for (size_t i = 0; i < nr; i++) {
		bool clash = false;

		for (size_t j = 0; j < i; j++)
			if (spec_of[j] != spec_of[i] && !strcmp(tps[j].group, tps[i].group) &&
			    !strcmp(tps[j].event, tps[i].event))
				clash = true;
		if (!clash)
			continue;
		/* rename every probe of spec_of[i] that has this name, alike */
		for (int k = 1;; k++) {
			char *cand = xasprintf("%.*s_%d", 58, tps[i].event, k);
			bool used = false;

			for (size_t j = 0; j < nr; j++)
				if (!strcmp(tps[j].group, tps[i].group) &&
				    !strcmp(tps[j].event, cand))
					used = true;
			if (!used) {
				char *old = xstrdup(tps[i].event);

				for (size_t j = i; j < nr; j++) {
					if (spec_of[j] == spec_of[i] && !strcmp(tps[j].event, old)) {
						free(tps[j].event);
						tps[j].event = xstrdup(cand);
					}
				}
				free(old);
				free(cand);
				break;
			}
			free(cand);
		}
	}
}
