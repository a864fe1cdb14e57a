// SPDX-License-Identifier: GPL-2.0-or-later
/* resolve-emit-whole.c - a whole struct, array or slice as kernel fields, by its layout */
#define LOG_DOMAIN "resolve"
#include <dwarf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fallback.h"
#include "lang.h"
#include "log.h"
#include "resolve-internal.h"
#include "value-layout.h"

/* Fields and record bytes left to the arguments after a whole value, and to the call fields
 * (durations, --stack) added when the session starts. */
#define RESERVE_FIELDS 8
#define RESERVE_BYTES 64
#define RESERVE_LINE 512	/* the path, the event's name, the fields added later */
#define PART_STRING 64	/* bytes of a string with a length inside a whole value (at most) */

/* One whole value on its way: where its parts stop. */
struct whole {
	struct rctx *rc;
	const struct emit *em;
	enum show_style style;
	size_t max_fields;	/* rc->tp may not have more fields (as the kernel gets them) */
	size_t max_line;	/* nor take more of the uprobe_events line */
	long max_bytes;		/* nor more record bytes */
	bool full;		/* a limit was reached: nothing more is added */
	const struct vl_node *root;	/* the value's own node: shown, if only as {...} */
};

static long probe_bytes(const struct trace_probe *tp)
{
	long n = 0;

	for (size_t i = 0; i < tp->nr_fields; i++) {
		int s = fetcharg_type_size(tp->fields[i].type);

		n += s > 0 ? s : 8;
	}
	return n;
}

/* Whether field @f is one the kernel takes: its FETCH:TYPE length and its dereferences. */
static bool field_fits(const struct kernel_features *kf, const struct fetch_field *f)
{
	size_t len = strlen(f->fetch) + 1 + strlen(f->type);

	return (kf->max_arg_len <= 0 || len <= (size_t)kf->max_arg_len) &&
	       (kf->max_derefs <= 0 || fetcharg_count_derefs(f->fetch) <= kf->max_derefs);
}

/*
 * Whether rc->tp is within the whole value's limits, the fields added since the first
 * @since included: a part too deep for the kernel (a long chain of pointers) is left out, not
 * the probe refused
 */
static bool within(const struct whole *w, size_t since)
{
	const struct trace_probe *tp = w->rc->tp;
	size_t line;

	for (size_t i = since; i < tp->nr_fields; i++)
		if (!field_fits(&w->rc->o->kf, &tp->fields[i]))
			return false;
	return fallback_kernel_fields(tp, &w->rc->o->kf, &line) <= w->max_fields &&
	       line <= w->max_line && probe_bytes(tp) <= w->max_bytes;
}

static int emit_node(struct whole *w, const struct vl_node *n, struct val *v, const char *name,
		     const char *expr);

/* A leaf by its type, as any argument; false (nothing added) when it cannot be read here or
 * passes the limits */
static bool emit_leaf(struct whole *w, struct val *v, const char *name, const char *expr)
{
	struct rctx *rc = w->rc;
	struct diag scratch, *save = rc->d;
	struct emit sub = *w->em;
	size_t fields = rc->tp->nr_fields, args = rc->tp->nr_args;
	bool ok;

	sub.name = name;
	sub.expr = expr;
	sub.cast = NULL;
	diag_init(&scratch, rc->spec->text);
	rc->d = &scratch;
	ok = !emit_val(rc, &sub, v) && rc->tp->nr_args == args + 1;
	rc->d = save;
	if (ok && !within(w, fields)) {
		/* this part alone is left out (past the budget, or a field the kernel refuses);
		 * the smaller ones after it may still fit */
		pr_debug("%s: not shown: past the budget or the kernel's limits", v->what);
		ok = false;
	}
	if (!ok) {
		if (scratch.msg)
			pr_debug("%s: not shown: %s", v->what, scratch.msg);
		trace_probe_truncate(rc->tp, fields, args);
	}
	diag_release(&scratch);
	return ok;
}

/* The argument of a struct or array made of @parts: named @name, of @v's type. */
static struct trace_arg *compose(struct whole *w, struct val *v, const char *name,
				 const char *expr, enum value_kind kind, struct trace_arg *parts,
				 size_t nr, int field)
{
	struct emit sub = *w->em;
	struct trace_arg *a;

	sub.expr = expr;
	a = new_arg(w->rc, &sub, v, kind, 0, field);
	free(a->name);
	a->name = xstrdup(name);
	free(a->expr);
	a->expr = expr ? xstrdup(expr) : NULL;
	a->parts = parts;
	a->nr_parts = nr;
	a->style = w->style;
	return a;
}

/* The field a composed argument points at: its first part's (it is never read). */
static int first_field(struct whole *w, const struct trace_arg *parts, size_t nr)
{
	(void)w;
	return nr ? parts[0].field : 0;
}

/* Member @kv, a pointer, replaced by what it points to; nil makes the part null, not a fault */
static int follow_member(struct whole *w, const struct vl_node *k, struct val *kv)
{
	struct val n;
	char *pf;

	if (val_word_fetch(w->rc, kv, w->em->sp, &pf))
		return -EINVAL;
	rctx_add_guard(w->rc, GUARD_NIL, pf, kv->what, 0);
	free(pf);
	if (val_deref(w->rc, kv, 0, (Dwarf_Die *)&k->type, true, kv->what, w->em->sp, &n))
		return -EINVAL;
	val_move(kv, &n);
	return 0;
}

/* The kids of @n as parts: each from a copy of @v moved to it by @step. */
static size_t emit_kids(struct whole *w, const struct vl_node *n, struct val *v, const char *name,
			struct trace_arg **parts, bool *more)
{
	struct rctx *rc = w->rc;
	size_t nr = 0;

	for (size_t i = 0; i < n->nr_kids && !w->full; i++) {
		const struct vl_node *k = &n->kids[i];
		int nguards = rc->nr_guards, ret;
		char *kname, *what, *expr = NULL;
		struct val kv;
		int64_t off = 0;

		val_from(&kv, v);
		kv.dim = v->dim;
		if (k->is_member) {
			const char *mn = k->name ? k->name : "anon";

			kname = xasprintf("%s_%s", name, mn);
			what = xasprintf("%s.%s", v->what, mn);
			expr = k->name ? xstrdup(k->name) : NULL;
			/* a computed offset (a virtual base's) is no place to read: left out */
			if (!lang_member_offset((Dwarf_Die *)&k->member, &off))
				ret = -EINVAL;
			else
				ret = val_member_die(rc, &kv, (Dwarf_Die *)&k->member, off, what,
						     w->em->sp);
		} else {
			kname = xasprintf("%s_%ld", name, k->index);
			what = xasprintf("%s[%ld]", v->what, k->index);
			ret = val_index(rc, &kv, k->index, what, w->em->sp);
		}
		if (!ret && k->deref)
			ret = follow_member(w, k, &kv);
		if (ret || emit_node(w, k, &kv, kname, expr)) {
			*more = true;
			if (ret)
				pr_debug("%s: not shown: %s", what, rc->d->msg ? rc->d->msg : "?");
		} else {
			pop_arg(rc, parts, &nr);
			(*parts)[nr - 1].is_base = k->is_base;
			if (k->deref) {	/* named by the pointer's type: *main.Point {...} */
				free((*parts)[nr - 1].type_name);
				(*parts)[nr - 1].type_name = rctx_type_name(rc,
								(Dwarf_Die *)&k->ptr_type, true);
			}
		}
		rctx_guards_truncate(rc, nguards);
		val_release(&kv);
		free(kname);
		free(what);
		free(expr);
	}
	if (w->full && nr < n->nr_kids)
		*more = true;
	return nr;
}

/* Release @parts (popped arguments): put back and truncated away. */
static void drop_parts(struct rctx *rc, struct trace_arg *parts, size_t nr)
{
	size_t args = rc->tp->nr_args;

	for (size_t i = 0; i < nr; i++)
		*trace_probe_add_arg(rc->tp) = parts[i];
	free(parts);
	trace_probe_truncate(rc->tp, rc->tp->nr_fields, args);
}

/*
 * The element template of a packed array: element 0 of @v emitted as any value, its
 * argument kept without its fields (the array field is read through it), its kernel type in
 * @ktype
 */
static bool packed_template(struct whole *w, struct val *v, struct trace_arg **parts,
			    size_t *nr, char **ktype)
{
	struct rctx *rc = w->rc;
	size_t fields = rc->tp->nr_fields;
	int nguards = rc->nr_guards;
	struct val ev;
	bool ok = false;

	val_from(&ev, v);
	ev.dim = v->dim;
	if (!val_index(rc, &ev, 0, ev.what, w->em->sp) && emit_leaf(w, &ev, "upft_elem", NULL)) {
		struct trace_arg *a = &rc->tp->args[rc->tp->nr_args - 1];

		*ktype = xstrdup(rc->tp->fields[a->field].type);
		for (int k = 0; k < a->nr_guards; k++)
			free(a->guard_exprs[k]);
		a->nr_guards = 0;
		a->field = 0;
		pop_arg(rc, parts, nr);
		ok = !strchr(*ktype, '[') && !strchr(*ktype, '@') && strcmp(*ktype, "string");
		if (!ok) {
			free(*ktype);
			drop_parts(rc, *parts, *nr);
			*parts = NULL;
			*nr = 0;
		}
	}
	trace_probe_truncate(rc->tp, fields, rc->tp->nr_args);
	rctx_guards_truncate(rc, nguards);
	val_release(&ev);
	return ok;
}

/* @count elements from @fetch as one kernel array field, read through a template */
static int emit_packed(struct whole *w, const struct vl_node *n, struct val *v, const char *name,
		       const char *expr, const char *fetch)
{
	struct rctx *rc = w->rc;
	struct trace_arg *parts = NULL, *a;
	size_t nr = 0, fields = rc->tp->nr_fields;
	char *ktype = NULL, *t, *fname;
	int field;

	if (n->fetched <= 0 || !packed_template(w, v, &parts, &nr, &ktype)) {
		free(parts);
		return -EINVAL;
	}
	t = xasprintf("%s[%" PRId64 "]", ktype, n->fetched);
	fname = uniq_name(rc, name);
	field = trace_probe_add_field(rc->tp, fname, fetch, t, false);
	free(fname);
	free(t);
	free(ktype);
	if (!within(w, fields)) {
		w->full = true;
		drop_parts(rc, parts, nr);
		trace_probe_truncate(rc->tp, fields, rc->tp->nr_args);
		return -E2BIG;
	}
	a = compose(w, v, name, expr, VK_ARRAY, parts, nr, field);
	a->packed = true;
	a->elem_size = (unsigned int)n->elem_size;
	a->count = (uint64_t)(n->count > 0 ? n->count : 0);
	a->more = n->more;
	return 0;
}

/* A slice's length and capacity (counts, or end pointers from the data pointer @pf) */
static void slice_bounds(struct whole *w, struct val *v, const struct lang_layout *l,
			 const char *name, const char *pf, struct trace_arg *a)
{
	struct rctx *rc = w->rc;
	const char *paths[2] = { l->len ? l->len : l->end, l->cap };
	int *out[2] = { &a->len_field, &a->cap_field };
	struct diag scratch, *save = rc->d;
	bool ok;

	diag_init(&scratch, rc->spec->text);

	for (int i = 0; i < 2; i++) {
		char *alts = paths[i] ? xstrdup(paths[i]) : NULL, *save_alt = NULL, *path;

		/* the first of the '|'-separated paths the type has (a capacity moved by rustc) */
		for (path = alts ? strtok_r(alts, "|", &save_alt) : NULL; path;
		     path = strtok_r(NULL, "|", &save_alt)) {
			struct val x;
			char *f = NULL, *base;

			val_from(&x, v);
			rc->d = &scratch;	/* a layout without it: none */
			ok = !val_path(rc, &x, path, w->em->sp) &&
			     !val_word_fetch(rc, &x, w->em->sp, &f);
			rc->d = save;
			if (ok) {
				base = xasprintf("%.*s_%s", NAME_MAX_LEN - 4, name,
						 i ? "cap" : "len");
				*out[i] = hidden_field(rc, f, l->len ? "u64" : "x64", base);
				free(base);
			}
			free(f);
			val_release(&x);
			if (ok)
				break;
		}
		free(alts);
	}
	diag_release(&scratch);
	if (!l->len) {
		char *base = xasprintf("%.*s_ptr", NAME_MAX_LEN - 4, name);

		a->ptr_field = hidden_field(rc, pf, "x64", base);
		free(base);
	}
	/* a NULL data pointer with a length is a fault, not an empty slice */
	if (a->len_field >= 0 && l->len)
		rctx_add_guard(rc, GUARD_DATA, pf, v->what, 0);
}

static int emit_slice(struct whole *w, const struct vl_node *n, struct val *v, const char *name,
		      const char *expr)
{
	struct rctx *rc = w->rc;
	struct trace_arg *parts = NULL, *a;
	struct lang_layout l;
	struct val ptr;
	Dwarf_Die t;
	char *pf = NULL;
	size_t nr = 0;
	bool more = n->more;
	int ret, nguards = rc->nr_guards;

	lang_strip(&v->type, &t);
	if (!type_layout(&t, true, &l))
		return -EINVAL;
	if (val_layout_ptr(rc, v, &l, w->em->sp, &ptr))
		return -EINVAL;
	ret = val_word_fetch(rc, &ptr, w->em->sp, &pf);
	val_release(&ptr);
	if (ret)
		return ret;
	if (n->packed && n->fetched > 0) {
		char *f = loc_mem_fetch(pf, 0);

		ret = emit_packed(w, n, v, name, expr, f);
		free(f);
		if (ret) {
			free(pf);
			return ret;
		}
		a = &rc->tp->args[rc->tp->nr_args - 1];
		a->count = 0;
		a->more = false;
	} else {
		nr = emit_kids(w, n, v, name, &parts, &more);
		a = compose(w, v, name, expr, VK_ARRAY, parts, nr, first_field(w, parts, nr));
		a->elem_size = (unsigned int)(n->elem_size > 0 ? n->elem_size : 0);
		a->more = more;
	}
	slice_bounds(w, v, &l, name, pf, a);
	attach_guards(rc, a);
	rctx_guards_truncate(rc, nguards);
	free(pf);
	return 0;
}

/*
 * An array of unknown or no length (C's flexible "int vals[]", GNU's "int z[0]") as its
 * address, as gdb shows it: the base pointer it is reached through, plus its offset (the
 * decoder adds it: trace_arg.addend).
 */
static int emit_address(struct whole *w, struct val *v, const char *name, const char *expr)
{
	struct rctx *rc = w->rc;
	const struct loc_piece *p = &v->loc.pieces[0];
	struct emit sub = *w->em;
	struct trace_arg *a;
	char *fname;
	int field;

	if (v->loc.nr != 1 || p->kind != LOC_MEM || !p->base)
		return -EINVAL;
	sub.expr = expr;
	fname = uniq_name(rc, name);
	field = trace_probe_add_field(rc->tp, fname, p->base, "x64", false);
	free(fname);
	a = new_arg(rc, &sub, v, VK_POINTER, 8, field);
	free(a->expr);
	a->expr = expr ? xstrdup(expr) : NULL;
	a->addend = p->off;
	attach_guards(rc, a);
	return 0;
}

/* Node @n of value @v as one argument appended to rc->tp (its parts inside it). */
static int emit_node(struct whole *w, const struct vl_node *n, struct val *v, const char *name,
		     const char *expr)
{
	struct rctx *rc = w->rc;
	struct trace_arg *parts = NULL, *a;
	size_t nr;
	bool more = n->more;
	char *f;
	int ret;

	if (w->full)
		return -E2BIG;
	if ((n->kind == VL_ARRAY || n->kind == VL_PACKED) && n->count <= 0 && !n->nr_kids)
		return emit_address(w, v, name, expr);
	switch (n->kind) {
	case VL_LEAF:
		return emit_leaf(w, v, name, expr) ? 0 : -EINVAL;
	case VL_SLICE:
		return emit_slice(w, n, v, name, expr);
	case VL_PACKED:
		if (n->fetched <= 0)
			break;	/* nothing of it fits: {...} */
		if (val_addr_fetch(rc, v, w->em->sp, &f))
			return -EINVAL;
		ret = emit_packed(w, n, v, name, expr, f);
		free(f);
		if (!ret)
			attach_guards(rc, &rc->tp->args[rc->tp->nr_args - 1]);
		return ret;
	default:
		break;
	}
	nr = emit_kids(w, n, v, name, &parts, &more);
	if (!nr && n->nr_kids && n != w->root) {
		free(parts);
		return -E2BIG;	/* none of its parts fit: left out, as a leaf that does not */
	}
	a = compose(w, v, name, expr, n->kind == VL_STRUCT ? VK_STRUCT : VK_ARRAY, parts, nr,
		    first_field(w, parts, nr));
	a->more = more;
	a->count = (uint64_t)(n->count > 0 ? n->count : 0);
	attach_guards(rc, a);
	return 0;
}

static enum show_style style_of(const struct lang_ops *lo)
{
	return lo == &lang_go ? SHOW_GO : lo == &lang_rust ? SHOW_RUST : SHOW_C;
}

int emit_whole(struct rctx *rc, const struct emit *em, struct val *v)
{
	const struct kernel_features *kf = &rc->o->kf;
	unsigned int ss = rc->o->string_size ? rc->o->string_size : RESOLVE_STRING_SIZE;
	struct whole w = { .rc = rc, .em = em, .style = style_of(rc->lang) };
	struct vl_budget b = {
		.bytes = (rc->o->value_size ? rc->o->value_size : RESOLVE_VALUE_SIZE) -
			 rc->whole_bytes,
		/* without array types every 8 bytes of text is a field (fallback.h) */
		.string_size = ss < PART_STRING >> (kf->has_array ? 0 : 1) ? ss :
			       PART_STRING >> (kf->has_array ? 0 : 1),
		.max_array = kf->max_array > 0 ? kf->max_array : 64,
		.max_elems = kf->max_array > 0 ? kf->max_array : 64,
		.follow = rc->lang == &lang_go,
	};
	size_t fields = rc->tp->nr_fields, args = rc->tp->nr_args, kfields, line;
	long before = probe_bytes(rc->tp);
	struct vl_node *root;
	char *mark;
	int ret, mfield;
	bool packed;

	if (rc->in_whole)
		return diag_error(rc->d, em->sp, "'%s' is nested too deep to be shown whole",
				  v->what);
	kfields = fallback_kernel_fields(rc->tp, kf, &line);
	w.max_fields = kf->max_args > 0 ? (size_t)kf->max_args - RESERVE_FIELDS : 1024;
	w.max_bytes = kf->max_event_size > 0 ? kf->max_event_size - RESERVE_BYTES : 1L << 20;
	if (w.max_fields < kfields + 2 || probe_bytes(rc->tp) + 8 > w.max_bytes ||
	    (!kf->has_array && line + 64 > FETCHARG_MAX_LINE - RESERVE_LINE))
		return diag_error(rc->d, em->sp, "'%s' cannot be shown whole: the event has no room "
				  "left (the kernel's limits on fields and record size)", v->what);
	if (b.bytes < 0)
		b.bytes = 0;	/* --value-size is spent: shown as {...} */
	/* half of what is left: the arguments after it (a $params of structs too) still fit */
	if (b.bytes > (w.max_bytes - probe_bytes(rc->tp)) / 2)
		b.bytes = (w.max_bytes - probe_bytes(rc->tp)) / 2;
	b.fields = (int)(w.max_fields - kfields) / 2;
	w.max_fields = kfields + (size_t)b.fields;
	/*
	 * the kernel takes lines of FETCHARG_MAX_LINE bytes, which one field per 8 bytes of text
	 * (no array types) can pass before the fields do: half of what is left, as above
	 */
	w.max_line = kf->has_array ? SIZE_MAX : line + (FETCHARG_MAX_LINE - RESERVE_LINE - line) / 2;
	w.max_bytes = probe_bytes(rc->tp) + b.bytes;
	root = vlayout_build(&v->type, v->dim, &b);
	/* a struct's own field, a constant: its name stays the argument's (an array of numbers
	 * is its one field) */
	mark = uniq_name(rc, em->name);
	packed = (root->kind == VL_PACKED || (root->kind == VL_SLICE && root->packed)) &&
		 root->fetched > 0;
	mfield = packed ? -1 : trace_probe_add_field(rc->tp, mark, "\\0", "u8", false);
	rc->in_whole = true;
	rc->part_string_size = b.string_size;
	w.root = root;
	ret = emit_node(&w, root, v, mark, em->expr);
	rc->in_whole = false;
	rc->part_string_size = 0;
	vlayout_free(root);
	if (ret) {
		trace_probe_truncate(rc->tp, fields, args);
		free(mark);
		return diag_error(rc->d, em->sp, "'%s' cannot be shown whole here (-v says why)",
				  v->what);
	}
	if (mfield >= 0)
		rc->tp->args[rc->tp->nr_args - 1].field = mfield;
	rc->whole_bytes += probe_bytes(rc->tp) - before;
	free(mark);
	return 0;
}

/*
 * deref_past_nil() - what pointer @v points to as @n (@to, @has_to: as val_deref()'s), with
 * a GUARD_NIL on the pointer: a NULL @v is null, not a fault
 */
static int deref_past_nil(struct rctx *rc, const struct emit *em, const struct val *v,
			  Dwarf_Die *to, bool has_to, struct val *n)
{
	char *pf;

	if (val_word_fetch(rc, v, em->sp, &pf))
		return -EINVAL;
	rctx_add_guard(rc, GUARD_NIL, pf, v->what, 0);
	free(pf);
	if (val_deref(rc, v, 0, to, has_to, v->what, em->sp, n))
		return -EINVAL;
	return 0;
}

int emit_go_func(struct rctx *rc, const struct emit *em, struct val *v)
{
	struct trace_arg *a;
	struct val n;
	int ret;

	if (deref_past_nil(rc, em, v, NULL, false, &n))
		return -EINVAL;
	ret = emit_scalar(rc, em, &n, "x64", VK_SYM, 8, false, &a);
	if (!ret) {
		a->style = SHOW_GO;	/* its function's name alone: main.double */
		set_last_type_name(rc, v);
	}
	val_release(&n);
	return ret;
}

int emit_pointee_whole(struct rctx *rc, const struct emit *em, struct val *v, Dwarf_Die *to)
{
	struct val n;
	int ret;

	if (deref_past_nil(rc, em, v, to, true, &n))
		return -EINVAL;
	ret = emit_whole(rc, em, &n);
	if (!ret)
		set_last_type_name(rc, v);
	val_release(&n);
	return ret;
}
