// SPDX-License-Identifier: GPL-2.0-or-later
/* lang-common.c - the type helpers all languages share (lang-*.c and the rest use them) */
#define LOG_DOMAIN "lang-common"
#include <dwarf.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"

bool lang_type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute attr;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr))
		return false;
	return dwarf_formref_die(&attr, out) != NULL;
}

static bool (*completer)(Dwarf_Die *decl, Dwarf_Die *out);

void lang_set_completer(bool (*complete)(Dwarf_Die *decl, Dwarf_Die *out))
{
	completer = complete;
}

static int strip(Dwarf_Die *type, Dwarf_Die *out, bool complete)
{
	Dwarf_Die cur = *type;
	int i;

	for (i = 0; i < 64; i++) {
		int tag = dwarf_tag(&cur);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type &&
		    tag != DW_TAG_atomic_type && tag != DW_TAG_immutable_type) {
			/* a declaration: its definition, where one is known (type-complete.c) */
			if (complete && completer && (tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
					  tag == DW_TAG_union_type ||
					  tag == DW_TAG_enumeration_type) &&
			    dwarf_hasattr(&cur, DW_AT_declaration) && completer(&cur, out))
				return dwarf_tag(out);
			*out = cur;
			return tag;
		}
		if (!lang_type_of(&cur, &cur))
			return 0;
	}
	return 0;
}

int lang_strip(Dwarf_Die *type, Dwarf_Die *out)
{
	return strip(type, out, true);
}

int lang_strip_tag(Dwarf_Die *type, Dwarf_Die *out)
{
	/* a declaration's tag is its definition's: nothing to look up for what it is */
	return strip(type, out, false);
}

int64_t lang_type_size(Dwarf_Die *type)
{
	Dwarf_Die t;
	Dwarf_Word sz;
	int tag = lang_strip(type, &t);

	if (!tag)
		return -1;
	if (tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type ||
	    tag == DW_TAG_rvalue_reference_type || tag == DW_TAG_ptr_to_member_type) {
		if (dwarf_aggregate_size(&t, &sz) == 0)
			return (int64_t)sz;
		return 8;
	}
	if (dwarf_aggregate_size(&t, &sz) != 0)
		return -1;
	return (int64_t)sz;
}

/*
 * A subrange bound as a number: DW_FORM_data1..8 are raw bits whose sign the form does not
 * give (libdw's dwarf_formsdata() sign-extends them, so an upper bound of 255 in data1 read
 * as -1); a C bound is not negative, so they are read unsigned. DW_FORM_sdata is signed.
 */
static bool bound_value(Dwarf_Attribute *attr, int64_t *v)
{
	Dwarf_Sword s;
	Dwarf_Word u;

	switch (dwarf_whatform(attr)) {
	case DW_FORM_sdata:
	case DW_FORM_implicit_const:
		if (dwarf_formsdata(attr, &s) != 0)
			return false;
		*v = s;
		return true;
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
	case DW_FORM_udata:
		if (dwarf_formudata(attr, &u) != 0)
			return false;
		/* an all-ones data8 upper bound is how some producers write -1 (no elements) */
		*v = u > INT64_MAX ? -1 : (int64_t)u;
		return true;
	default:
		return false;	/* a DWARF expression or a reference: a variable-length array */
	}
}

int lang_array_dims(Dwarf_Die *arr, int64_t *counts, int max)
{
	Dwarf_Die child;
	int n = 0;

	if (dwarf_child(arr, &child) != 0)
		return 0;
	do {
		Dwarf_Attribute attr;
		int64_t v, lo = 0;

		if (dwarf_tag(&child) != DW_TAG_subrange_type)
			continue;
		if (n == max)
			break;
		counts[n] = -1;
		if (dwarf_attr(&child, DW_AT_lower_bound, &attr) && !bound_value(&attr, &lo))
			lo = 0;
		if (dwarf_attr(&child, DW_AT_count, &attr)) {
			if (bound_value(&attr, &v) && v >= 0)
				counts[n] = v;
		} else if (dwarf_attr(&child, DW_AT_upper_bound, &attr)) {
			if (bound_value(&attr, &v) && v >= lo - 1)
				counts[n] = v - lo + 1;
		}
		/* a zero-length array ends a struct: its real length is the program's */
		if (counts[n] == 0)
			counts[n] = -1;
		n++;
	} while (dwarf_siblingof(&child, &child) == 0);
	return n;
}

bool lang_member_offset(Dwarf_Die *member, int64_t *off)
{
	Dwarf_Attribute attr;
	Dwarf_Word w;
	Dwarf_Op *ops;
	size_t n;

	*off = 0;
	if (!dwarf_attr(member, DW_AT_data_member_location, &attr))
		return true;	/* union members, and members at 0 in some producers */
	if (dwarf_formudata(&attr, &w) == 0) {
		*off = (int64_t)w;
		return true;
	}
	if (dwarf_getlocation(&attr, &ops, &n) == 0 && n == 1 &&
	    ops[0].atom == DW_OP_plus_uconst) {
		*off = (int64_t)ops[0].number;
		return true;
	}
	return false;
}

/* Members whose members are searched as if they were the outer type's own. */
static bool is_transparent(Dwarf_Die *m)
{
	Dwarf_Attribute attr;
	bool flag = false;

	if (dwarf_tag(m) == DW_TAG_inheritance)
		return true;
	if (dwarf_tag(m) != DW_TAG_member)
		return false;
	if (!dwarf_diename(m))
		return true;	/* anonymous struct/union */
	/* Go embedded struct: DW_AT_go_embedded_field (0x2903) */
	if (dwarf_attr(m, 0x2903, &attr) && dwarf_formflag(&attr, &flag) == 0 && flag)
		return true;
	return false;
}

/*
 * find_member() - the shallowest member @name below @type (its own members at @depth, then
 * what is embedded, in declaration order), as C++ and Go pick among bases and embedded
 * structs: std::tuple's _M_head_impl of its first element (a base of a base) rather than
 * the deleter's (a base of a base of a base). Return: the depth found, or INT_MAX.
 */
static int find_member(Dwarf_Die *type, const char *name, Dwarf_Die *member, int64_t *offset,
		       int depth, int best)
{
	Dwarf_Die t, child;

	if (depth > 16 || depth >= best)
		return INT_MAX;
	if (!lang_strip(type, &t) || dwarf_child(&t, &child) != 0)
		return INT_MAX;
	/* the type's own members first, then what is embedded */
	do {
		const char *n;
		int64_t off;

		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		n = dwarf_diename(&child);
		if (n && !strcmp(n, name) && lang_member_offset(&child, &off)) {
			*member = child;
			*offset = off;
			return depth;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	dwarf_child(&t, &child);
	do {
		Dwarf_Die sub, m;
		int64_t off, inner;
		int r;

		if (!is_transparent(&child) || !lang_member_offset(&child, &off) ||
		    !lang_type_of(&child, &sub))
			continue;
		r = find_member(&sub, name, &m, &inner, depth + 1, best);
		if (r < best) {
			best = r;
			*member = m;
			*offset = off + inner;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return best;
}

bool lang_find_member(Dwarf_Die *type, const char *name, Dwarf_Die *member, int64_t *offset)
{
	return find_member(type, name, member, offset, 0, INT_MAX) != INT_MAX;
}

/* Every member @name below @type at a constant offset: depth, offset, and the name of the
 * class holding it or, when @type holds it itself, NULL (for lang_member_ambiguous()). */
struct mcand {
	int depth;
	int64_t off;
	const char *via;	/* the class holding the member's class, or NULL */
};

static void all_members(Dwarf_Die *type, const char *name, const char *via, int64_t base,
			int depth, struct mcand *c, size_t *nr, size_t max)
{
	Dwarf_Die t, child;

	if (depth > 16 || !lang_strip(type, &t) || dwarf_child(&t, &child) != 0)
		return;
	do {
		const char *n = dwarf_diename(&child);
		Dwarf_Die sub;
		int64_t off;

		if (!lang_member_offset(&child, &off))
			continue;
		if (dwarf_tag(&child) == DW_TAG_member && n && !strcmp(n, name) && *nr < max)
			c[(*nr)++] = (struct mcand){ depth, base + off, via };
		else if (is_transparent(&child) && lang_type_of(&child, &sub))
			all_members(&sub, name, dwarf_tag(&child) == DW_TAG_inheritance ?
				    dwarf_diename(&t) : via, base + off, depth + 1, c, nr, max);
	} while (dwarf_siblingof(&child, &child) == 0);
}

bool lang_member_ambiguous(Dwarf_Die *type, const char *name, struct strlist *where)
{
	struct mcand c[16];
	size_t nr = 0, i;
	int best = INT_MAX, n = 0;
	Dwarf_Die t, child;

	/* the class's own member hides every base's: its bases need not be looked at */
	if (lang_strip(type, &t) && dwarf_child(&t, &child) == 0) {
		do {
			const char *cn = dwarf_diename(&child);

			if (dwarf_tag(&child) == DW_TAG_member && cn && !strcmp(cn, name))
				return false;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	all_members(type, name, NULL, 0, 0, c, &nr, ARRAY_SIZE(c));
	for (i = 0; i < nr; i++)
		if (c[i].depth < best)
			best = c[i].depth;
	for (i = 0; i < nr; i++)
		n += c[i].depth == best;
	for (i = 0; n > 1 && i < nr; i++)
		if (c[i].depth == best && c[i].via)
			strlist_add(where, c[i].via);
	return n > 1;
}

static bool tag_is_aggregate(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	       tag == DW_TAG_union_type;
}

/* @type, or what it points to when it is a pointer (a Go struct embedded through a pointer) */
static int strip_embedded(Dwarf_Die *type, Dwarf_Die *out)
{
	Dwarf_Die to;
	int tag = lang_strip(type, out);

	if (tag == DW_TAG_pointer_type && lang_type_of(out, &to))
		tag = lang_strip(&to, out);
	return tag;
}

/*
 * promoted_path() - the shallowest chain of named embedded members below @type whose last
 * one holds member @name, pointers to embedded structs followed; @path gets the chain
 * ("Inner", "Base.Inner"), @tmp is scratch. Return: the depth found, or INT_MAX.
 */
static int promoted_path(Dwarf_Die *type, const char *name, struct strbuf *path,
			 struct strbuf *tmp, int depth, int best)
{
	Dwarf_Die t, child, m;
	int64_t off;

	if (depth > 8 || depth >= best || !tag_is_aggregate(strip_embedded(type, &t)))
		return INT_MAX;
	if (depth && find_member(&t, name, &m, &off, 0, 1) == 0) {
		strbuf_reset(path);
		strbuf_addstr(path, tmp->buf);
		return depth;
	}
	if (dwarf_child(&t, &child) != 0)
		return INT_MAX;
	do {
		const char *n = dwarf_diename(&child);
		size_t len = tmp->len;
		Dwarf_Die sub;
		int r;

		if (dwarf_tag(&child) != DW_TAG_member || !n || !is_transparent(&child) ||
		    !lang_type_of(&child, &sub))
			continue;
		strbuf_addf(tmp, "%s%s", len ? "." : "", n);
		r = promoted_path(&sub, name, path, tmp, depth + 1, best);
		if (r < best)
			best = r;
		tmp->len = len;
		tmp->buf[len] = '\0';
	} while (dwarf_siblingof(&child, &child) == 0);
	return best;
}

bool lang_promoted_path(Dwarf_Die *type, const char *name, struct strbuf *path)
{
	struct strbuf tmp = STRBUF_INIT;
	int r;

	strbuf_init(&tmp);
	r = promoted_path(type, name, path, &tmp, 0, INT_MAX);
	strbuf_release(&tmp);
	return r != INT_MAX;
}

/* @a and @b are the same type: the same DIE, or of one tag and one name (two units' copies) */
static bool same_type(Dwarf_Die *a, Dwarf_Die *b)
{
	Dwarf_Die sa, sb;
	int ta = lang_strip_tag(a, &sa), tb = lang_strip_tag(b, &sb);
	const char *na, *nb;

	if (!ta || ta != tb)
		return false;
	if (sa.addr == sb.addr)
		return true;
	na = dwarf_diename(&sa);
	nb = dwarf_diename(&sb);
	return na && nb && !strcmp(na, nb);
}

/* Depth-first: the first member below @type that is a pointer to @to (any pointer: NULL). */
static bool find_pointer(Dwarf_Die *type, Dwarf_Die *to, Dwarf_Die *ptr_type, int64_t *offset,
			 int depth)
{
	Dwarf_Die t, child;

	if (depth > 16 || !tag_is_aggregate(lang_strip(type, &t)) || dwarf_child(&t, &child) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child), mtag;
		Dwarf_Die mt, mts, pointee;
		int64_t off, inner;

		if ((tag != DW_TAG_member && tag != DW_TAG_inheritance) ||
		    dwarf_hasattr(&child, DW_AT_external) || !lang_member_offset(&child, &off) ||
		    !lang_type_of(&child, &mt))
			continue;
		mtag = lang_strip(&mt, &mts);
		if (mtag == DW_TAG_pointer_type && tag == DW_TAG_member &&
		    (!to || (lang_type_of(&mts, &pointee) && same_type(&pointee, to)))) {
			*ptr_type = mt;
			*offset = off;
			return true;
		}
		if (find_pointer(&mt, to, ptr_type, &inner, depth + 1)) {
			*offset = off + inner;
			return true;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

static bool base_find(Dwarf_Die *derived, bool (*is_base)(Dwarf_Die *base, void *arg),
		      void *arg, int64_t *offset, int depth)
{
	Dwarf_Die t, child;

	if (depth > 32 || !tag_is_aggregate(lang_strip(derived, &t)) || dwarf_child(&t, &child) != 0)
		return false;
	do {
		Dwarf_Attribute attr;
		Dwarf_Word virt = 0;
		Dwarf_Die bt;
		int64_t off, inner;

		if (dwarf_tag(&child) != DW_TAG_inheritance || !lang_type_of(&child, &bt))
			continue;
		if (dwarf_attr(&child, DW_AT_virtuality, &attr))
			dwarf_formudata(&attr, &virt);
		if (virt || !lang_member_offset(&child, &off))
			continue;
		if (is_base(&bt, arg)) {
			*offset = off;
			return true;
		}
		if (base_find(&bt, is_base, arg, &inner, depth + 1)) {
			*offset = off + inner;
			return true;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

bool lang_base_find(Dwarf_Die *derived, bool (*is_base)(Dwarf_Die *base, void *arg), void *arg,
		    int64_t *offset)
{
	return base_find(derived, is_base, arg, offset, 0);
}

static bool is_same_type(Dwarf_Die *base, void *want)
{
	return same_type(base, want);
}

bool lang_base_offset(Dwarf_Die *derived, Dwarf_Die *base, int64_t *offset)
{
	return lang_base_find(derived, is_same_type, base, offset);
}

/* Depth-first through every base; @vb is the virtual base the walk went through, or NULL. */
static bool virtual_find(Dwarf_Die *derived, bool (*test)(Dwarf_Die *t, void *arg), void *arg,
			 Dwarf_Die *vb, Dwarf_Die *vbase, int depth)
{
	Dwarf_Die t, child;

	if (depth > 32 || !tag_is_aggregate(lang_strip(derived, &t)) || dwarf_child(&t, &child) != 0)
		return false;
	do {
		Dwarf_Die bt, *through = vb;

		if (dwarf_tag(&child) != DW_TAG_inheritance || !lang_type_of(&child, &bt))
			continue;
		if (dwarf_hasattr(&child, DW_AT_virtuality) && !through)
			through = &bt;
		if (through && test(&bt, arg)) {
			*vbase = *through;
			return true;
		}
		if (virtual_find(&bt, test, arg, through, vbase, depth + 1))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/* The distinct virtual bases below @t into @seen (DIEs, compared as same_type() does). */
static void virtual_bases(Dwarf_Die *t, Dwarf_Die *seen, int *nr, int max, int depth)
{
	Dwarf_Die st, child;

	if (depth > 32 || !tag_is_aggregate(lang_strip(t, &st)) || dwarf_child(&st, &child) != 0)
		return;
	do {
		Dwarf_Die bt;
		int i;

		if (dwarf_tag(&child) != DW_TAG_inheritance || !lang_type_of(&child, &bt))
			continue;
		if (dwarf_hasattr(&child, DW_AT_virtuality)) {
			for (i = 0; i < *nr && !same_type(&seen[i], &bt); i++)
				;
			if (i == *nr && *nr < max)
				seen[(*nr)++] = bt;
		}
		virtual_bases(&bt, seen, nr, max, depth + 1);
	} while (dwarf_siblingof(&child, &child) == 0);
}

int lang_virtual_base_count(Dwarf_Die *cls)
{
	Dwarf_Die seen[64];
	int nr = 0;

	virtual_bases(cls, seen, &nr, 64, 0);
	return nr < 64 ? nr : -1;
}

bool lang_virtual_base_of(Dwarf_Die *derived, Dwarf_Die *base, Dwarf_Die *vbase)
{
	return virtual_find(derived, is_same_type, base, NULL, vbase, 0);
}

/* Whether class @t's qualified name is @qual or ends with "::" @qual. */
static bool class_named(Dwarf_Die *t, const char *qual)
{
	struct strbuf n = STRBUF_INIT;
	size_t lq = strlen(qual);
	bool ok;

	strbuf_init(&n);
	lang_c_type_name(t, true, &n);
	ok = n.len >= lq && !strcmp(n.buf + n.len - lq, qual) &&
	     (n.len == lq || (n.len > lq + 1 && !strncmp(n.buf + n.len - lq - 2, "::", 2)));
	strbuf_release(&n);
	return ok;
}

struct named {
	const char *qual;
	Dwarf_Die base, vbase;
	int64_t off;
	int found;		/* distinct subobjects found at constant offsets */
	bool virt;		/* found through a virtual base (then in @vbase) */
};

/* @t (at @off in the outermost class, @through the virtual base on the way or NULL) and
 * its bases, depth first */
static void named_walk(struct named *w, Dwarf_Die *t, int64_t off, Dwarf_Die *through,
		       int depth)
{
	Dwarf_Die st, child;

	if (depth > 32 || !tag_is_aggregate(lang_strip(t, &st)))
		return;
	if (class_named(&st, w->qual)) {
		if (through && !w->virt) {
			w->virt = true;
			w->vbase = *through;
		} else if (!through && (!w->found || w->off != off)) {
			if (!w->found++) {
				w->base = st;
				w->off = off;
			}
		}
		return;
	}
	if (dwarf_child(&st, &child) != 0)
		return;
	do {
		Dwarf_Die bt;
		int64_t o = 0;
		bool virt = dwarf_hasattr(&child, DW_AT_virtuality);

		if (dwarf_tag(&child) != DW_TAG_inheritance || !lang_type_of(&child, &bt) ||
		    (!virt && !lang_member_offset(&child, &o)))
			continue;
		named_walk(w, &bt, off + o, through ? through : virt ? &bt : NULL, depth + 1);
	} while (dwarf_siblingof(&child, &child) == 0);
}

enum lang_base lang_base_named(Dwarf_Die *type, const char *qual, Dwarf_Die *base,
			       int64_t *offset, Dwarf_Die *vbase)
{
	struct named w = { .qual = qual };
	const char *last = qual, *q;

	named_walk(&w, type, 0, NULL, 0);
	while ((q = strstr(last, "::")))
		last = q + 2;
	if (!w.found && !w.virt && last != qual) {
		/* "B::A" that names no class is B's name for class A, looked up as A is */
		w.qual = last;
		named_walk(&w, type, 0, NULL, 0);
	}
	if (w.found > 1)
		return LANG_BASE_AMBIGUOUS;
	if (w.found) {
		*base = w.base;
		*offset = w.off;
		return LANG_BASE_FOUND;
	}
	if (w.virt) {
		*vbase = w.vbase;
		return LANG_BASE_VIRTUAL;
	}
	return LANG_BASE_NONE;
}

/* @t has a member @name at a constant offset (its own, or embedded non-virtually) */
static bool has_member(Dwarf_Die *t, void *name)
{
	Dwarf_Die m;
	int64_t off;

	return lang_find_member(t, name, &m, &off);
}

bool lang_virtual_member(Dwarf_Die *type, const char *name, Dwarf_Die *vbase)
{
	return virtual_find(type, has_member, (void *)name, NULL, vbase, 0);
}

bool lang_smart_pointer(Dwarf_Die *type, const struct lang_smart *l, Dwarf_Die *ptr_type,
			int64_t *offset)
{
	Dwarf_Die param;

	if (l->param && lang_template_param(type, l->param, &param) &&
	    find_pointer(type, &param, ptr_type, offset, 0))
		return true;
	return find_pointer(type, NULL, ptr_type, offset, 0);
}

/* A member as lang_member_names() lists it: its name, its depth, the class declaring it and
 * the class whose base that class is (NULL at the top). */
struct mname {
	const char *name;
	const char *owner;
	const char *via;
	int depth;
};

static void list_members(Dwarf_Die *type, const char *via, struct mname **out, size_t *nr,
			 size_t *alloc, int depth)
{
	Dwarf_Die t, child;

	if (depth > 16 || !lang_strip(type, &t) || dwarf_child(&t, &child) != 0)
		return;
	do {
		const char *n = dwarf_diename(&child);
		int tag = dwarf_tag(&child);
		Dwarf_Die sub;

		if (tag == DW_TAG_member && n) {
			ALLOC_GROW(*out, *nr + 1, *alloc);
			(*out)[(*nr)++] = (struct mname){ n, dwarf_diename(&t), via, depth };
		}
		/* a Go struct embedded through a pointer promotes its fields too */
		if ((tag == DW_TAG_member || tag == DW_TAG_inheritance) && is_transparent(&child) &&
		    lang_type_of(&child, &sub) && strip_embedded(&sub, &sub))
			list_members(&sub, tag == DW_TAG_inheritance ? dwarf_diename(&t) : via, out,
				     nr, alloc, depth + 1);
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* How many members of @m[i]'s name are as shallow as it or shallower (1: the bare name finds
 * it), and how many share its owner or its via class. */
static void name_counts(const struct mname *m, size_t nr, size_t i, int *shallow, int *owner,
			int *via)
{
	*shallow = *owner = *via = 0;
	for (size_t k = 0; k < nr; k++) {
		if (strcmp(m[k].name, m[i].name))
			continue;
		*shallow += m[k].depth <= m[i].depth;
		*owner += m[k].owner && m[i].owner && !strcmp(m[k].owner, m[i].owner);
		*via += m[k].via && m[i].via && !strcmp(m[k].via, m[i].via);
	}
}

void lang_member_names(Dwarf_Die *type, struct strlist *out)
{
	struct mname *m = NULL;
	size_t nr = 0, alloc = 0;

	list_members(type, NULL, &m, &nr, &alloc, 0);
	for (size_t i = 0; i < nr; i++) {
		int shallow, owner, via;
		char *q = NULL;
		bool seen = false;

		name_counts(m, nr, i, &shallow, &owner, &via);
		if (shallow == 1 || !m[i].owner) {
			strlist_add(out, m[i].name);
			continue;
		}
		/* hidden by a derived class's, or one of two bases' copies: C++ spells it B::x
		 * by a class that has one (its own, else the base it is reached through) */
		if (owner == 1)
			q = xasprintf("%s::%s", m[i].owner, m[i].name);
		else if (via == 1)
			q = xasprintf("%s::%s", m[i].via, m[i].name);
		for (size_t k = 0; q && k < out->nr && !seen; k++)
			seen = !strcmp(out->v[k], q);
		if (q && !seen)
			strlist_add(out, q);
		free(q);
	}
	free(m);
}

void lang_list_members(Dwarf_Die *type, struct strbuf *out)
{
	struct strlist names = STRLIST_INIT;

	lang_member_names(type, &names);
	for (size_t i = 0; i < names.nr; i++)
		strbuf_addf(out, "%s%s", out->len ? ", " : "", names.v[i]);
	strlist_release(&names);
}

bool lang_template_param(Dwarf_Die *type, const char *name, Dwarf_Die *out)
{
	Dwarf_Die t, child;

	if (!lang_strip(type, &t) || dwarf_child(&t, &child) != 0)
		return false;
	do {
		const char *n = dwarf_diename(&child);

		if (dwarf_tag(&child) == DW_TAG_template_type_parameter && n &&
		    !strcmp(n, name))
			return lang_type_of(&child, out);
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/* "ns::Class::" for a C++ DIE, from its enclosing scopes. */
static void add_scopes(Dwarf_Die *die, struct strbuf *out)
{
	Dwarf_Die *scopes = NULL;
	int n = dwarf_getscopes_die(die, &scopes);

	for (int i = n - 1; i >= 1; i--) {
		int tag = dwarf_tag(&scopes[i]);
		const char *name = dwarf_diename(&scopes[i]);

		if (tag != DW_TAG_namespace && tag != DW_TAG_class_type &&
		    tag != DW_TAG_structure_type && tag != DW_TAG_union_type)
			continue;
		/* std::__cxx11 is an inline namespace nobody types */
		if (name && !strcmp(name, "__cxx11"))
			continue;
		strbuf_addstr(out, name ? name : "(anonymous namespace)");
		strbuf_addstr(out, "::");
	}
	free(scopes);
}

enum { Q_CONST = 1, Q_VOLATILE = 2 };

static void add_quals(struct strbuf *out, unsigned int quals, bool after)
{
	if (quals & Q_CONST)
		strbuf_addstr(out, after ? "const" : "const ");
	if ((quals & (Q_CONST | Q_VOLATILE)) == (Q_CONST | Q_VOLATILE) && after)
		strbuf_addch(out, ' ');
	if (quals & Q_VOLATILE)
		strbuf_addstr(out, after ? "volatile" : "volatile ");
}

/*
 * c_name() - @type as C spells it; @quals are qualifiers of an outer DW_TAG_const_type or
 * volatile_type still to print: before a named type ("const char"), after a pointer's '*'
 * ("char *const"), on an array's elements (gcc qualifies both the array and its elements:
 * "const char[15]", once)
 */
static void c_name(Dwarf_Die *type, bool cxx, struct strbuf *out, int depth, unsigned int quals)
{
	Dwarf_Die inner;
	const char *name = dwarf_diename(type);
	int tag = dwarf_tag(type);
	bool has_inner = lang_type_of(type, &inner);

	if (depth > 16) {
		strbuf_addstr(out, "...");
		return;
	}
	switch (tag) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		if (has_inner && dwarf_tag(&inner) == DW_TAG_subroutine_type)
			strbuf_addstr(out, "func");
		else if (has_inner)
			c_name(&inner, cxx, out, depth + 1, 0);
		else
			strbuf_addstr(out, "void");
		strbuf_addstr(out, tag == DW_TAG_pointer_type ? " *" :
			      tag == DW_TAG_reference_type ? " &" : " &&");
		add_quals(out, quals, true);
		return;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
		quals |= tag == DW_TAG_const_type ? Q_CONST : Q_VOLATILE;
		if (has_inner) {
			c_name(&inner, cxx, out, depth + 1, quals);
		} else {
			add_quals(out, quals, false);
			strbuf_addstr(out, "void");
		}
		return;
	case DW_TAG_array_type: {
		int64_t counts[8];
		int n = lang_array_dims(type, counts, ARRAY_SIZE(counts));

		if (has_inner)
			c_name(&inner, cxx, out, depth + 1, quals);
		for (int i = 0; i < n; i++) {
			if (counts[i] >= 0)
				strbuf_addf(out, "[%" PRId64 "]", counts[i]);
			else
				strbuf_addstr(out, "[]");
		}
		return;
	}
	case DW_TAG_subroutine_type:
		add_quals(out, quals, false);
		strbuf_addstr(out, "func");
		return;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
		add_quals(out, quals, false);
		if (!cxx)
			strbuf_addstr(out, tag == DW_TAG_union_type ? "union " :
				      tag == DW_TAG_enumeration_type ? "enum " : "struct ");
		if (cxx)
			add_scopes(type, out);
		strbuf_addstr(out, name ? name : "(anonymous)");
		return;
	default:
		add_quals(out, quals, false);
		if (cxx && tag != DW_TAG_base_type)
			add_scopes(type, out);
		strbuf_addstr(out, name ? name : "(anonymous)");
	}
}

void lang_c_type_name(Dwarf_Die *type, bool cxx, struct strbuf *out)
{
	c_name(type, cxx, out, 0, 0);
}

void lang_named_type_name(Dwarf_Die *type, struct strbuf *out)
{
	const char *name = dwarf_diename(type);

	if (name)
		strbuf_addstr(out, name);
	else
		lang_c_type_name(type, false, out);
}
