// SPDX-License-Identifier: GPL-2.0-or-later
/* resolve-type.c - types a probe names: casts, base-class qualifiers (B::x), declarations without a definition */
#define LOG_DOMAIN "resolve"
#include <dwarf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"
#include "log.h"
#include "parse.h"
#include "resolve-internal.h"
#include "type-complete.h"
#include "type-index.h"

int rctx_declared_only(struct rctx *rc, Dwarf_Die *type, const char *doing, struct span sp)
{
	struct strbuf why = STRBUF_INIT;

	strbuf_init(&why);
	if (!type_complete_declared_only(type, &why)) {
		strbuf_release(&why);
		return 0;
	}
	diag_error(rc->d, sp, "%s: %s", doing, why.buf);
	strbuf_release(&why);
	return -ENOENT;
}

/* rctx_declared_only() for reading @what. */
int rctx_declared_reading(struct rctx *rc, Dwarf_Die *t, const char *what, struct span sp)
{
	char *doing = xasprintf("cannot read '%s'", what);
	int ret = rctx_declared_only(rc, t, doing, sp);

	free(doing);
	return ret;
}

/* Member @name found in two base classes' copies: refused, as gdb and C++ refuse it. */
bool rctx_member_ambiguous(struct rctx *rc, Dwarf_Die *t, const char *name, struct span sp)
{
	struct strlist where = STRLIST_INIT;
	struct strbuf alts = STRBUF_INIT;
	char *tn;

	if (!lang_member_ambiguous(t, name, &where)) {
		strlist_release(&where);
		return false;
	}
	strbuf_init(&alts);
	for (size_t i = 0; i < where.nr; i++)
		strbuf_addf(&alts, "%s'%s::%s'", i ? " or " : "", where.v[i], name);
	tn = rctx_type_name(rc, t, true);
	diag_error(rc->d, sp, "member '%s' is ambiguous in '%s': its base classes have one each",
		   name, tn);
	if (alts.len)
		diag_hint(rc->d, "name the base class: %s", alts.buf);
	free(tn);
	strbuf_release(&alts);
	strlist_release(&where);
	return true;
}

/*
 * "B::x" in class @t: member x of its base class B (or of @t itself when it is B), as C++'s
 * qualified names pick a hidden member or one base's copy (gdb's gdb.cp/derivation).
 */
int rctx_qualified_member(struct rctx *rc, Dwarf_Die *t, const char *name, const char *what,
			    Dwarf_Die *member, int64_t *off, struct span sp)
{
	const char *mem = name, *q;
	Dwarf_Die base, vbase;
	int64_t boff, moff;
	char *qual, *tn;
	int ret = 0;

	while ((q = strstr(mem, "::")))
		mem = q + 2;
	qual = xstrndup(name, (size_t)(mem - 2 - name));
	tn = rctx_type_name(rc, t, true);
	switch (lang_base_named(t, qual, &base, &boff, &vbase)) {
	case LANG_BASE_FOUND:
		break;
	case LANG_BASE_VIRTUAL:
		ret = rctx_virtual_base_error(rc, sp, name, t, &vbase);
		goto out;
	case LANG_BASE_AMBIGUOUS: {
		struct strlist where = STRLIST_INIT;

		ret = diag_error(rc->d, sp, "base class '%s' is ambiguous in '%s': it is in %s "
				 "more than once", qual, tn, tn);
		if (lang_member_ambiguous(t, mem, &where) && where.nr == 2)
			diag_hint(rc->d, "name the base class it is in: '%s::%s' or '%s::%s'",
				  where.v[0], mem, where.v[1], mem);
		strlist_release(&where);
		goto out;
	}
	default:
		if (rctx_declared_reading(rc, t, what, sp)) {
			ret = -ENOENT;
			goto out;
		}
		ret = diag_error(rc->d, sp, "'%s' is neither '%s' nor one of its base classes", qual,
				 tn);
		goto out;
	}
	if (rctx_member_ambiguous(rc, &base, mem, sp)) {
		ret = -EINVAL;
		goto out;
	}
	if (!lang_find_member(&base, mem, member, &moff)) {
		struct strbuf fields = STRBUF_INIT;

		if (lang_virtual_member(&base, mem, &vbase)) {
			ret = rctx_virtual_base_error(rc, sp, name, &base, &vbase);
			goto out;
		}
		strbuf_init(&fields);
		lang_list_members(&base, &fields);
		ret = diag_error(rc->d, sp, "'%s' has no field '%s'", qual, mem);
		if (fields.len)
			diag_hint(rc->d, "fields: %s", fields.buf);
		strbuf_release(&fields);
		goto out;
	}
	*off = boff + moff;
out:
	free(qual);
	free(tn);
	return ret < 0 ? ret : 0;
}

char *val_type_name(struct rctx *rc, const struct val *v)
{
	struct strbuf sb = STRBUF_INIT;
	char *base;
	bool go = rc->lang == &lang_go;

	if (!v->ptrs)
		return rctx_type_name(rc, (Dwarf_Die *)&v->type, v->has_type);
	base = rctx_type_name(rc, (Dwarf_Die *)&v->type, v->has_type);
	strbuf_init(&sb);
	for (unsigned int i = 0; go && i < v->ptrs; i++)
		strbuf_addch(&sb, '*');
	strbuf_addstr(&sb, base);
	if (!go) {
		if (base[0] && base[strlen(base) - 1] != '*')
			strbuf_addch(&sb, ' ');
		for (unsigned int i = 0; i < v->ptrs; i++)
			strbuf_addch(&sb, '*');
	}
	free(base);
	return strbuf_detach(&sb);
}

static const int tag_of[] = {
	[TYPE_TAG_NONE] = 0,
	[TYPE_TAG_STRUCT] = DW_TAG_structure_type,
	[TYPE_TAG_UNION] = DW_TAG_union_type,
	[TYPE_TAG_ENUM] = DW_TAG_enumeration_type,
	[TYPE_TAG_CLASS] = DW_TAG_class_type,
};

static const char *const tag_word[] = {
	[TYPE_TAG_NONE] = "", [TYPE_TAG_STRUCT] = "struct ", [TYPE_TAG_UNION] = "union ",
	[TYPE_TAG_ENUM] = "enum ", [TYPE_TAG_CLASS] = "class ",
};

/* The "no type" error, with the names of the binary that look like it. */
static int type_not_found(struct rctx *rc, struct type_index *ti, const struct type_ref *ty)
{
	struct strlist like = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;

	diag_error(rc->d, ty->name_span, "no type '%s%s' in %s", tag_word[ty->tag], ty->name,
		   debuginfo_basename(rc->dbg));
	if (ti)
		type_index_similar(ti, ty->name, 6, &like);
	strbuf_init(&sb);
	for (size_t i = 0; i < like.nr; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", like.v[i]);
	if (like.nr)
		diag_hint(rc->d, "similar types: %s", sb.buf);
	else if (ti && rc->lang == &lang_cxx)
		diag_hint(rc->d, "C++ names are spelled as the demangler does: "
			  "ns::(anonymous namespace)::T");
	else if (ti && rc->lang == &lang_go)
		diag_hint(rc->d, "Go names carry their package: main.T, *main.T");
	else if (ti && rc->lang == &lang_rust)
		diag_hint(rc->d, "Rust names carry their path: crate::module::T");
	strbuf_release(&sb);
	strlist_release(&like);
	return -ENOENT;
}

/* Go: "Order" in a function of package main is main.Order, as Go code spells it there. */
static bool go_find_in_package(struct rctx *rc, struct type_index *ti, const struct type_ref *ty,
			       Dwarf_Die *cu, Dwarf_Die *out)
{
	const char *f = rc->site->func, *slash, *dot;
	char *q;
	bool found;

	if (rc->lang != &lang_go || !f || strchr(ty->name, '.'))
		return false;
	slash = strrchr(f, '/');
	dot = strchr(slash ? slash : f, '.');
	if (!dot)
		return false;
	q = xasprintf("%.*s.%s", (int)(dot - f), f, ty->name);
	found = type_index_find(ti, q, 0, cu, out);
	free(q);
	return found;
}

int rctx_find_type(struct rctx *rc, const struct type_ref *ty, struct val *out)
{
	struct type_index *ti = debuginfo_types(rc->dbg);
	Dwarf_Die *cu = rc->has_cu ? &rc->cu : NULL;
	Dwarf_Die t;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	if (!ti)
		return type_not_found(rc, NULL, ty);
	/* Go names its pointer types: "*main.T" is one DIE */
	if (ty->go_prefix && type_index_find(ti, ty->text, 0, cu, &out->type)) {
		out->has_type = true;
		return 0;
	}
	if (!strcmp(ty->name, "void") && !ty->tag) {
		out->ptrs = ty->nr_ptr;
		if (!out->ptrs)
			return diag_error(rc->d, ty->span, "cannot cast to void");
		return 0;
	}
	/* a type of the probed binary, else of the objects related to it (its program) */
	if (!type_index_find(ti, ty->name, tag_of[ty->tag], cu, &t) &&
	    !go_find_in_package(rc, ti, ty, cu, &t) &&
	    !type_complete_find(ty->name, tag_of[ty->tag], type_index_dwarf(ti), &t))
		return type_not_found(rc, ti, ty);
	/* pointer levels: the binary's own pointer type DIEs while it has them */
	for (i = 0; i < ty->nr_ptr; i++) {
		Dwarf_Die p;

		if (!type_index_pointer_to(ti, &t, &p))
			break;
		t = p;
	}
	out->type = t;
	out->has_type = true;
	out->ptrs = ty->nr_ptr - i;
	return 0;
}

/* What a value is, for the rules of a cast. */
enum val_class {
	VC_WORD,	/* a pointer, a reference's address, a register or raw fetcharg */
	VC_SCALAR,	/* a number, an enum, a bool */
	VC_AGGREGATE,	/* a struct, class, union */
	VC_ARRAY,
	VC_OTHER,
};

static enum val_class val_class(const struct val *v, int64_t *size)
{
	Dwarf_Die t;
	int tag;

	*size = 8;
	if (v->ptrs || !v->has_type)
		return VC_WORD;
	tag = lang_strip((Dwarf_Die *)&v->type, &t);
	*size = lang_type_size(&t);
	if (tag_is_pointer(tag) || tag == DW_TAG_subroutine_type)
		return VC_WORD;
	if (tag == DW_TAG_base_type || tag == DW_TAG_enumeration_type)
		return VC_SCALAR;
	if (tag_is_struct(tag))
		return VC_AGGREGATE;
	if (tag == DW_TAG_array_type)
		return VC_ARRAY;
	return VC_OTHER;
}

/* The class pointer value @v points to (stripped), when it points to one. */
static bool pointee_class(const struct val *v, Dwarf_Die *out)
{
	Dwarf_Die t, to;

	if (v->ptrs == 1 && v->has_type)
		return tag_is_struct(lang_strip((Dwarf_Die *)&v->type, out));
	if (v->ptrs || !v->has_type || !tag_is_pointer(lang_strip((Dwarf_Die *)&v->type, &t)) ||
	    !lang_type_of(&t, &to))
		return false;
	return tag_is_struct(lang_strip(&to, out));
}

/*
 * A C++ cast between a class and one of its (non-virtual) base classes moves the pointer,
 * as static_cast does: + the base's offset up to it, - down from it. The bytes to add.
 */
static int64_t base_adjust(const struct val *v, const struct val *to)
{
	Dwarf_Die from_c, to_c;
	int64_t off;

	if (!pointee_class(v, &from_c) || !pointee_class(to, &to_c) || from_c.addr == to_c.addr)
		return 0;
	if (lang_base_offset(&from_c, &to_c, &off))
		return off;
	if (lang_base_offset(&to_c, &from_c, &off))
		return -off;
	return 0;
}

/* a cast between a class and a virtual base of it (static_cast up, or down: ill-formed) */
static bool virtual_base_cast(const struct val *v, const struct val *to)
{
	Dwarf_Die from_c, to_c, vb;
	int64_t off;

	if (!pointee_class(v, &from_c) || !pointee_class(to, &to_c) || from_c.addr == to_c.addr)
		return false;
	if (lang_base_offset(&from_c, &to_c, &off) || lang_base_offset(&to_c, &from_c, &off))
		return false;
	return lang_virtual_base_of(&from_c, &to_c, &vb) || lang_virtual_base_of(&to_c, &from_c, &vb);
}

/* Refused, not read at the wrong place (a cast is otherwise not checked) */
static int virtual_cast_error(struct rctx *rc, struct span sp, const struct val *v,
			      const char *fn, const char *tn)
{
	diag_error(rc->d, sp, "cannot cast '%s' (%s) to %s: a virtual base's offset is read from "
		   "the vtable at run time, and a uprobe fetcharg cannot add a value it read to an "
		   "address", v->what, fn, tn);
	diag_hint(rc->d, "probe a function that has the base class's pointer");
	return -EINVAL;
}

/* @v is a smart pointer of its language */
static bool smart_pointer(struct val *v)
{
	const struct lang_ops *lo;
	struct lang_smart l;
	Dwarf_Die t;

	if (v->ptrs || !v->has_type || !tag_is_struct(lang_strip(&v->type, &t)))
		return false;
	lo = lang_of_die(&t);
	return lo->smart_ptr && lo->smart_ptr(&t, dwarf_diename(&t), &l);
}

int val_cast(struct rctx *rc, struct val *v, const struct val *to, const char *what,
	     struct span sp)
{
	int64_t from_size, to_size;
	enum val_class from = val_class(v, &from_size), cls = val_class(to, &to_size);
	char *fn, *tn;
	enum smart smart;
	int ret = 0;

	if (from == VC_AGGREGATE && cls == VC_WORD) {
		struct lang_smart l;
		Dwarf_Die t;
		const struct lang_ops *lo;

		lang_strip(&v->type, &t);
		lo = lang_of_die(&t);
		if (lo->smart_ptr && lo->smart_ptr(&t, dwarf_diename(&t), &l) && l.inner) {
			fn = val_type_name(rc, v);
			diag_error(rc->d, sp, "cannot cast '%s' (%s) to a pointer: it points to a "
				   "block of counts with the value inside", v->what, fn);
			diag_hint(rc->d, "follow it instead: %s->field", v->what);
			free(fn);
			return -EINVAL;
		}
		if (val_smart_ptr(rc, v, false, sp, &smart))
			return -EINVAL;
		if (smart)
			from = val_class(v, &from_size);
	} else if (from == VC_AGGREGATE && smart_pointer(v)) {
		fn = val_type_name(rc, v);
		tn = val_type_name(rc, to);
		diag_error(rc->d, sp, "cannot cast '%s' (%s) to %s: it holds a pointer", v->what,
			   fn, tn);
		diag_hint(rc->d, "cast it to a pointer: (%s *)%s", tn, v->what);
		free(fn);
		free(tn);
		return -EINVAL;
	}
	fn = val_type_name(rc, v);
	tn = val_type_name(rc, to);
	if (cls == VC_WORD && from != VC_WORD && !(from == VC_SCALAR && from_size == 8)) {
		ret = diag_error(rc->d, sp, "cannot cast '%s' (%s, %" PRId64 " bytes) to %s",
				 v->what, fn, from_size, tn);
		if (from == VC_AGGREGATE || from == VC_ARRAY)
			diag_hint(rc->d, "cast a pointer to it, or one of its fields");
	} else if (cls != VC_WORD && cls != VC_SCALAR && from == VC_WORD && v->has_type) {
		ret = diag_error(rc->d, sp, "cannot cast pointer '%s' (%s) to %s", v->what, fn, tn);
		diag_hint(rc->d, "cast it to a pointer: (%s *)%s", tn, v->what);
	} else if (cls == VC_SCALAR && from == VC_SCALAR && to_size > from_size) {
		ret = diag_error(rc->d, sp, "cannot widen '%s' (%s, %" PRId64 " bytes) to %s "
				 "(%" PRId64 " bytes)", v->what, fn, from_size, tn, to_size);
		diag_hint(rc->d, "a cast reads the value's own bytes as another type; name a "
			  "kernel type for it instead (:u64, :s64)");
	} else if ((cls == VC_AGGREGATE || cls == VC_ARRAY) &&
		   (v->loc.nr != 1 || v->loc.pieces[0].kind != LOC_MEM)) {
		ret = diag_error(rc->d, sp, "cannot read '%s' as %s: it is not in memory at %s",
				 v->what, tn, rc->where);
	} else if (cls == VC_OTHER || from == VC_OTHER) {
		ret = diag_error(rc->d, sp, "cannot cast '%s' (%s) to %s", v->what, fn, tn);
	}
	if (!ret && cls == VC_WORD && virtual_base_cast(v, to))
		ret = virtual_cast_error(rc, sp, v, fn, tn);
	free(fn);
	free(tn);
	if (ret)
		return ret;
	if (cls == VC_WORD)
		v->adj += base_adjust(v, to);
	v->type = to->type;
	v->has_type = to->has_type;
	v->ptrs = to->ptrs;
	v->dim = 0;
	v->is_vptr = false;
	v->raw = false;
	free(v->what);
	v->what = xstrdup(what);
	return 0;
}

int val_eval_cast(struct rctx *rc, const struct expr *e, struct val *out)
{
	struct val to;
	char *what;
	int ret;

	ret = rctx_find_type(rc, e->type, &to);
	if (ret)
		return ret;
	ret = val_eval(rc, e->base, out);
	if (ret)
		return ret;
	what = expr_text(e);
	ret = val_cast(rc, out, &to, what, e->span);
	free(what);
	return ret;
}

int val_smart_ptr(struct rctx *rc, struct val *v, bool to_value, struct span sp,
		  enum smart *kind)
{
	const struct lang_ops *lo;
	struct lang_smart l;
	Dwarf_Die t, pt, to;
	int64_t off;
	struct val n;
	char *what;
	int ret;

	*kind = SMART_NONE;
	if (v->ptrs || !v->has_type || !tag_is_struct(lang_strip(&v->type, &t)))
		return 0;
	lo = lang_of_die(&t);
	if (!lo->smart_ptr || !lo->smart_ptr(&t, dwarf_diename(&t), &l))
		return 0;
	if (!lang_smart_pointer(&t, &l, &pt, &off)) {
		char *tn = val_type_name(rc, v);

		ret = diag_error(rc->d, sp, "'%s' is a %s, but no pointer was found in its "
				 "layout", v->what, tn);
		free(tn);
		return ret;
	}
	if (val_at_offset(rc, v, off, &pt, v->what, sp))
		return -EINVAL;
	*kind = SMART_PTR;
	if (!l.inner || !to_value)
		return 0;
	/* Rc<T>, Arc<T>: the pointer's target holds the counts and the value */
	if (!lang_type_of(&pt, &to) || val_deref(rc, v, 0, &to, true, v->what, sp, &n))
		return -EINVAL;
	val_move(v, &n);
	what = xstrdup(v->what);
	ret = val_path(rc, v, l.inner, sp);
	if (!ret) {
		free(v->what);
		v->what = what;
		what = NULL;
		*kind = SMART_VALUE;
	}
	free(what);
	return ret;
}
