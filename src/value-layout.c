// SPDX-License-Identifier: GPL-2.0-or-later
/* value-layout.c - a whole value's layout from its DWARF type, cut to a byte budget */
#define LOG_DOMAIN "layout"
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"
#include "log.h"
#include "util.h"
#include "value-layout.h"

#define MAX_DEPTH 8	/* structs inside structs (by value: a type cannot hold itself) */
#define CHUNK 64	/* bytes of one chunk of a string with a length (resolve-emit.c) */
#define MAX_DIMS 8
#define SLICE_NUMBERS 16	/* elements of a slice of numbers fetched (one array field) */
#define SLICE_ELEMS 4	/* elements of a slice of anything else: the length is known only
			 * when the event comes, and the members after it need room too */

static bool is_struct_tag(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	       tag == DW_TAG_union_type;
}

/* A plain C "char" (text in C and C++; signed/unsigned char and uint8_t are numbers). */
static bool is_text_char(Dwarf_Die *type)
{
	Dwarf_Die t;
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;

	if (lang_strip(type, &t) != DW_TAG_base_type || lang_type_size(&t) != 1 ||
	    !dwarf_diename(&t) || strcmp(dwarf_diename(&t), "char"))
		return false;
	if (dwarf_attr(&t, DW_AT_encoding, &attr))
		dwarf_formudata(&attr, &enc);
	return (enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char) &&
	       lang_of_die(type)->char_ptr_is_string;
}

static bool has_variant_part(Dwarf_Die *t)
{
	Dwarf_Die c;

	if (dwarf_child(t, &c) != 0)
		return false;
	do {
		if (dwarf_tag(&c) == DW_TAG_variant_part)
			return true;
	} while (dwarf_siblingof(&c, &c) == 0);
	return false;
}

/* A struct type the resolver shows as one value: a string, a Rust enum, a Go interface, a
 * smart pointer. */
static bool struct_is_leaf(Dwarf_Die *t)
{
	const struct lang_ops *lo = lang_of_die(t);
	const char *name = dwarf_diename(t);
	struct lang_layout l;
	struct lang_sso sso;
	struct lang_smart sm;

	if (lo->sso_layout && lo->sso_layout(t, name, &sso))
		return true;
	if (lo->string_layout && lo->string_layout(t, name, &l) && l.len)
		return true;
	if (has_variant_part(t))
		return true;
	if (lo->iface_word && lo->iface_word(t, name))
		return true;
	if (lo->slice_layout && lo->slice_layout(t, name, &l))
		return false;
	return lo->smart_ptr && lo->smart_ptr(t, name, &sm);
}

static bool is_slice(Dwarf_Die *t, struct lang_layout *l)
{
	const struct lang_ops *lo = lang_of_die(t);

	return lo->slice_layout && lo->slice_layout(t, dwarf_diename(t), l);
}

/* The dimensions of array @arr after @dim: @count of the next, @ndims in all. */
static int array_dims(Dwarf_Die *arr, unsigned int dim, int64_t *count)
{
	int64_t counts[MAX_DIMS];
	int n = lang_array_dims(arr, counts, MAX_DIMS);

	*count = (int)dim < n ? counts[dim] : -1;
	return n;
}

bool vlayout_whole(Dwarf_Die *type, unsigned int dim)
{
	Dwarf_Die t, et;
	int64_t count;
	int tag = lang_strip(type, &t);

	if (tag == DW_TAG_array_type) {
		int n = array_dims(&t, dim, &count);

		/* C text (char[N]) is one value, a row of char[M][N] too */
		return !((int)dim + 1 >= n && lang_type_of(&t, &et) && is_text_char(&et));
	}
	if (!is_struct_tag(tag))
		return false;
	if (dwarf_hasattr(&t, DW_AT_declaration) && !dwarf_haschildren(&t))
		return false;	/* nothing to show: the resolver says so */
	return !struct_is_leaf(&t);
}

bool vlayout_go_pointer(Dwarf_Die *type)
{
	const char *name = dwarf_diename(type);

	return name && name[0] == '*';
}

bool vlayout_packable(Dwarf_Die *elem, int64_t *esize)
{
	Dwarf_Die t;
	int tag = lang_strip(elem, &t);

	*esize = lang_type_size(&t);
	if (tag == DW_TAG_pointer_type)
		*esize = 8;
	if (*esize != 1 && *esize != 2 && *esize != 4 && *esize != 8)
		return false;
	if (tag == DW_TAG_base_type) {
		Dwarf_Attribute attr;
		Dwarf_Word enc = 0;

		/* a complex number is two values (VK_COMPLEX), not one element */
		if (dwarf_attr(&t, DW_AT_encoding, &attr))
			dwarf_formudata(&attr, &enc);
		return !is_text_char(&t) && enc != DW_ATE_complex_float;
	}
	return tag == DW_TAG_enumeration_type || tag == DW_TAG_pointer_type;
}

/* What a leaf of @type costs: record bytes and kernel fields, as resolve-emit.c fetches it. */
static int64_t leaf_cost(Dwarf_Die *type, const struct vl_budget *b, int *fields)
{
	Dwarf_Die t;
	int tag = lang_strip(type, &t);
	int64_t size = lang_type_size(&t);
	unsigned int ss = b->string_size;
	struct lang_layout l;

	*fields = 1;
	if (is_struct_tag(tag)) {
		const struct lang_ops *lo = lang_of_die(&t);
		struct lang_sso sso;

		if (lo->sso_layout && lo->sso_layout(&t, dwarf_diename(&t), &sso)) {
			*fields = 2 * ((ss + CHUNK - 1) / CHUNK) + 3 + (ss % 8 != 0);
			return 2 * ss + 24;
		}
		if (lo->string_layout && lo->string_layout(&t, dwarf_diename(&t), &l) && l.len) {
			/* chunks, the length, the data pointer's guard */
			*fields = (int)((ss + CHUNK - 1) / CHUNK) + 2 + (ss % 8 != 0);
			return ss + 16;
		}
		/* a Rust enum, a Go interface: every part is read */
		*fields = size > 8 ? (int)(size / 8) + 1 : 2;
		return size > 16 ? size + 8 : 24;
	}
	if (tag == DW_TAG_array_type)	/* C text: char[N], or a :string past 64 */
		return size > 0 && size <= CHUNK ? size : 4;
	if (size <= 0 || size > 8)
		return 8;
	return size;
}

static struct vl_node *add_kid(struct vl_node *n)
{
	struct vl_node *k;

	n->kids = xrealloc(n->kids, (n->nr_kids + 1) * sizeof(*n->kids));
	k = &n->kids[n->nr_kids++];
	memset(k, 0, sizeof(*k));
	return k;
}

/* Take @cost bytes and @fields fields of @b when they are there. */
static bool take(struct vl_budget *b, int64_t cost, int fields)
{
	if (cost > b->bytes || fields > b->fields)
		return false;
	b->bytes -= cost;
	b->fields -= fields;
	return true;
}

static void build(struct vl_node *n, struct vl_budget *b, int depth);
static void node_release(struct vl_node *n);

/* Kid @k (its type set) as a whole value or a leaf; false when the budget has run out. */
static bool fill_kid(struct vl_node *n, struct vl_node *k, struct vl_budget *b, int depth)
{
	int fields;
	int64_t cost;
	Dwarf_Die pt, to;

	/* delve loads a pointer member of the value printed (its depth 1) */
	if (b->follow && !depth && k->is_member && !k->is_base && vlayout_go_pointer(&k->type) &&
	    lang_strip(&k->type, &pt) == DW_TAG_pointer_type && lang_type_of(&pt, &to) &&
	    is_struct_tag(lang_strip(&to, &to)) && vlayout_whole(&to, 0) && b->fields > 2) {
		k->deref = true;
		k->ptr_type = k->type;
		k->type = to;
		b->fields--;	/* the pointer, fetched to tell nil */
		b->bytes -= 8;
	}
	if (depth < MAX_DEPTH && vlayout_whole(&k->type, k->dim)) {
		/* the smallest a whole value takes: its first leaf */
		if (b->bytes < 8 || b->fields < 1)
			return false;
		build(k, b, depth + 1);
		if (!k->nr_kids && k->more && !k->fetched) {
			/* nothing of it fit: left out, as the leaves after it */
			node_release(k);
			if (k->deref) {
				b->fields++;
				b->bytes += 8;
			}
			return false;
		}
		return true;
	}
	k->kind = VL_LEAF;
	(void)n;
	cost = leaf_cost(&k->type, b, &fields);
	return take(b, cost, fields);
}

/* Whether @m is a data member: not a static member (DWARF 4 writes them as members) */
static bool data_member(Dwarf_Die *m)
{
	int tag = dwarf_tag(m);

	if (tag == DW_TAG_inheritance)
		return true;
	return tag == DW_TAG_member && !dwarf_hasattr(m, DW_AT_external) &&
	       !dwarf_hasattr(m, DW_AT_declaration);
}

static void build_struct(struct vl_node *n, struct vl_budget *b, int depth)
{
	Dwarf_Die t, c;

	n->kind = VL_STRUCT;
	if (!is_struct_tag(lang_strip(&n->type, &t)) || dwarf_child(&t, &c) != 0)
		return;
	do {
		struct vl_node *k;
		Dwarf_Die mt;

		if (!data_member(&c) || !lang_type_of(&c, &mt))
			continue;
		k = add_kid(n);
		k->member = c;
		k->is_member = true;
		k->is_base = dwarf_tag(&c) == DW_TAG_inheritance;
		k->name = dwarf_diename(&c);
		if (dwarf_tag(&c) == DW_TAG_inheritance) {
			Dwarf_Die bt;

			k->name = lang_strip(&mt, &bt) ? dwarf_diename(&bt) : NULL;
		}
		k->type = mt;
		if (!fill_kid(n, k, b, depth)) {
			n->nr_kids--;
			n->more = true;
			return;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
}

/* The first @n elements of element type @elem as one kernel array, within the budget. */
static int64_t packed_count(const struct vl_budget *b, int64_t n, int64_t esize)
{
	int64_t fit = esize > 0 ? b->bytes / esize : 0;

	if (n > b->max_array)
		n = b->max_array;
	if (n > b->max_elems)
		n = b->max_elems;
	return n < fit ? n : fit;
}

/* Elements @kids of array or slice @n, each of type @type at @dim, up to @count of them. */
static void build_elems(struct vl_node *n, Dwarf_Die *type, unsigned int dim, int64_t count,
			struct vl_budget *b, int depth)
{
	for (int64_t i = 0; i < count; i++) {
		struct vl_node *k;

		if (i >= b->max_elems) {
			n->more = true;
			return;
		}
		k = add_kid(n);
		k->index = (long)i;
		k->type = *type;
		k->dim = dim;
		if (!fill_kid(n, k, b, depth)) {
			n->nr_kids--;
			n->more = true;
			return;
		}
	}
}

static void build_array(struct vl_node *n, struct vl_budget *b, int depth)
{
	Dwarf_Die t, et;
	int64_t count;
	int ndims;

	n->kind = VL_ARRAY;
	lang_strip(&n->type, &t);
	ndims = array_dims(&t, n->dim, &n->count);
	count = n->count < 0 ? 0 : n->count;
	if ((int)n->dim + 1 < ndims) {
		/* a row of a multi-dimensional array: the same array type, one more dimension */
		build_elems(n, &n->type, n->dim + 1, count, b, depth);
		return;
	}
	if (!lang_type_of(&t, &et))
		return;
	if (vlayout_packable(&et, &n->elem_size)) {
		n->kind = VL_PACKED;
		n->elem = et;
		n->fetched = packed_count(b, count, n->elem_size);
		if (n->fetched && !take(b, n->fetched * n->elem_size, 1))
			n->fetched = 0;
		n->more = n->fetched < count;
		return;
	}
	build_elems(n, &et, 0, count, b, depth);
}

/* The type of what member path @path below @t points to (a slice's data pointer). */
static bool path_target(Dwarf_Die *t, const char *path, bool below, Dwarf_Die *out)
{
	char *copy = xstrdup(path), *save = NULL, *tok;
	Dwarf_Die cur = *t, m, mt;
	int64_t off;
	bool ok = true;

	for (tok = strtok_r(copy, ".", &save); tok && ok; tok = strtok_r(NULL, ".", &save)) {
		ok = lang_strip(&cur, &cur) && lang_find_member(&cur, tok, &m, &off) &&
		     lang_type_of(&m, &mt);
		cur = mt;
	}
	free(copy);
	/* Rust: the first pointer below (vec.buf.inner.ptr.pointer.pointer) */
	for (int i = 0; ok && below && i < 8 && is_struct_tag(lang_strip(&cur, &cur)); i++) {
		Dwarf_Die c;

		ok = false;
		if (dwarf_child(&cur, &c) != 0)
			break;
		do {
			if (dwarf_tag(&c) == DW_TAG_member && lang_type_of(&c, &mt)) {
				cur = mt;
				ok = true;
				break;
			}
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	return ok && lang_strip(&cur, &cur) == DW_TAG_pointer_type && lang_type_of(&cur, out);
}

static void build_slice(struct vl_node *n, struct vl_budget *b, int depth)
{
	struct lang_layout l;
	Dwarf_Die t;

	n->kind = VL_SLICE;
	lang_strip(&n->type, &t);
	if (!is_slice(&t, &l))
		return;
	if (!(l.elem_param && lang_template_param(&t, l.elem_param, &n->elem)) &&
	    !path_target(&t, l.ptr, l.ptr_below, &n->elem))
		return;
	/* the length (or end), the capacity, the data pointer */
	if (!take(b, 24, 3)) {
		n->more = true;
		return;
	}
	if (vlayout_packable(&n->elem, &n->elem_size)) {
		n->packed = true;
		n->fetched = packed_count(b, SLICE_NUMBERS, n->elem_size);
		if (n->fetched && !take(b, n->fetched * n->elem_size, 1))
			n->fetched = 0;
		n->count = n->fetched;
		return;
	}
	n->elem_size = lang_type_size(&n->elem);
	build_elems(n, &n->elem, 0, SLICE_ELEMS, b, depth);
	/* elements past the budget may be past the length too: the decoder tells */
	n->count = (int64_t)n->nr_kids;
}

static void build(struct vl_node *n, struct vl_budget *b, int depth)
{
	Dwarf_Die t;
	struct lang_layout l;
	int tag = lang_strip(&n->type, &t);

	if (tag == DW_TAG_array_type)
		build_array(n, b, depth);
	else if (is_slice(&t, &l))
		build_slice(n, b, depth);
	else
		build_struct(n, b, depth);
}

struct vl_node *vlayout_build(Dwarf_Die *type, unsigned int dim, struct vl_budget *b)
{
	struct vl_node *n = xcalloc(1, sizeof(*n));

	n->type = *type;
	n->dim = dim;
	build(n, b, 0);
	return n;
}

static void node_release(struct vl_node *n)
{
	for (size_t i = 0; i < n->nr_kids; i++)
		node_release(&n->kids[i]);
	free(n->kids);
}

void vlayout_free(struct vl_node *n)
{
	if (!n)
		return;
	node_release(n);
	free(n);
}
