// SPDX-License-Identifier: GPL-2.0-or-later
/* resolve-emit-dyn.c - dynamic values as kernel fields: typeid()'s type word, dynamic_cast<>
 * alone, and a Go interface value with the fields of the dynamic types it may hold */
#define LOG_DOMAIN "resolve"
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dyntype.h"
#include "lang.h"
#include "log.h"
#include "resolve-internal.h"
#include "type-index.h"

/* typeid(): the type word, shown as the name of the dynamic type it stands for. */
int emit_typeid(struct rctx *rc, const struct emit *em, struct val *v)
{
	struct trace_arg *a;

	if (emit_scalar(rc, em, v, "x64", VK_TYPENAME, 8, false, &a))
		return -EINVAL;
	a->dyn_word = v->typeid;
	a->dyn_class = v->typeid_class ? xstrdup(v->typeid_class) : NULL;
	a->dyn_off = v->typeid_off;
	free(a->type_name);
	a->type_name = xstrdup("typeid");
	if (v->typeid_type) {
		/* hidden_field() adds a field, not an argument: @a stays valid */
		char *base = xasprintf("%.*s__t", NAME_MAX_LEN - 4, a->name);

		a->dyn_field = hidden_field(rc, v->typeid_type, "x64", base);
		free(base);
	}
	return 0;
}

/* dynamic_cast<T *>() alone: the address of the object (its base pointer plus an offset). */
int emit_addr_of(struct rctx *rc, const struct emit *em, struct val *v)
{
	const struct loc_piece *p = &v->loc.pieces[0];
	struct loc_piece w = { .kind = LOC_VAL, .reg = -1 };
	struct trace_arg *a;
	struct val pv;
	char *tn;
	int ret;

	if (v->loc.nr != 1 || p->kind != LOC_MEM || !p->base)
		return diag_error(rc->d, em->sp, "'%s' is not reached through a pointer", v->what);
	memset(&pv, 0, sizeof(pv));
	w.fetch = p->base;
	loc_add_piece(&pv.loc, &w);
	pv.what = xstrdup(v->what);
	ret = emit_scalar(rc, em, &pv, "x64", VK_POINTER, 8, false, &a);
	if (!ret) {
		a->addend = p->off;
		tn = rctx_type_name(rc, &v->type, true);
		free(a->type_name);
		a->type_name = xasprintf("%s *", tn);
		free(tn);
	}
	val_release(&pv);
	return ret;
}

#define IFACE_MAX_VARIANTS 12	/* dynamic types of an interface whose fields are fetched */
#define IFACE_MAX_FIELDS 4	/* fields shown of each */
#define IFACE_BUDGET 2048	/* no more variants once the event's fixed fields take this */

/*
 * The dynamic types whose values an error shows first (delve shows them so); then the
 * program's own types (package main, or a module path with a dot), then the rest.
 */
static int variant_rank(const char *type)
{
	static const char *const common[] = {
		"*errors.errorString", "*fmt.wrapError", "syscall.Errno", "*io/fs.PathError",
		"*os.SyscallError", "*net.OpError", "*strconv.NumError",
	};
	const char *t = type + strspn(type, "*[]"), *slash = strchr(t, '/'), *dot = strchr(t, '.');

	for (size_t i = 0; i < ARRAY_SIZE(common); i++)
		if (!strcmp(type, common[i]))
			return (int)i;
	if (!strncmp(t, "main.", 5) || (slash && dot && dot < slash))
		return 100;
	return 200;
}

size_t emit_event_bytes(const struct trace_probe *tp)
{
	size_t n = 0;

	for (size_t i = 0; i < tp->nr_fields; i++) {
		int sz = fetcharg_type_size(tp->fields[i].type);

		n += sz > 0 ? (size_t)sz : 8;
	}
	return n;
}

/* The fields of the dynamic values of a Go interface (trace_arg.parts), as they are made. */
struct parts {
	struct trace_arg *v;
	size_t nr;
};

/* The argument emitted since there were @nargs, if any, moved into @ps, shown as @member. */
static bool take_part(struct rctx *rc, size_t nargs, struct parts *ps, const char *member)
{
	struct trace_arg *a;

	if (rc->tp->nr_args <= nargs)
		return false;
	pop_arg(rc, &ps->v, &ps->nr);
	a = &ps->v[ps->nr - 1];
	free(a->name);
	free(a->expr);
	a->name = xstrdup(member);
	a->expr = xstrdup(member);	/* the part's name, as for VK_VARIANT */
	return true;
}

/* One field of a variant's value (member @m of struct value @obj) into @ps. */
static void emit_iface_field(struct rctx *rc, const struct emit *em, const struct val *obj,
			       const char *member, const char *tname, struct parts *ps)
{
	struct emit e2 = *em;
	struct val f, t;
	char *name = xasprintf("%s__%s", em->name, member);
	char *expr = xasprintf("%s.(%s).%s", em->expr, tname, member);
	const char *word;
	Dwarf_Die st;
	size_t nargs = rc->tp->nr_args;
	int tag, ret;

	memset(&f, 0, sizeof(f));
	f.type = obj->type;
	f.has_type = obj->has_type;
	loc_copy(&f.loc, &obj->loc);
	f.what = xstrdup(expr);
	e2.name = name;
	e2.expr = expr;
	e2.cast = NULL;
	ret = val_path(rc, &f, member, em->sp);
	tag = ret ? 0 : lang_strip(&f.type, &st);
	if (!ret && tag_is_struct(tag) && (word = lang_of_die(&st)->iface_word ?
					   lang_of_die(&st)->iface_word(&st, dwarf_diename(&st)) :
					   NULL)) {
		/* an interface in the value (a wrapped error): its dynamic type's name */
		ret = val_path(rc, memcpy(&t, &f, sizeof(t)), word, em->sp);
		memset(&f, 0, sizeof(f));
		if (!ret) {
			t.typeid = !strcmp(word, "tab") ? DYN_GO_ITAB : DYN_GO_TYPE;
			if (t.typeid == DYN_GO_ITAB) {
				char *tf = NULL;

				if (!val_word_fetch(rc, &t, em->sp, &tf))
					t.typeid_type = go_iface_itab_type(&st, tf);
				free(tf);
			}
			ret = emit_typeid(rc, &e2, &t);
		}
		val_release(&t);
	} else if (!ret && (tag == DW_TAG_base_type || tag == DW_TAG_enumeration_type ||
			    tag == DW_TAG_pointer_type || tag_is_struct(tag))) {
		ret = emit_val(rc, &e2, &f);
	} else {
		ret = -EINVAL;	/* slices, arrays, maps: not shown */
	}
	if (!ret)
		take_part(rc, nargs, ps, member);
	val_release(&f);
	free(name);
	free(expr);
}

/* The value of dynamic type @tdie (@tname) behind data word @data, into @ps for @var. */
static void emit_iface_value(struct rctx *rc, const struct emit *em, const struct val *data,
			 Dwarf_Die *tdie, const char *tname, struct parts *ps,
			 struct dyn_variant *var)
{
	Dwarf_Die t, st, child;
	struct lang_layout l;
	struct val obj;
	int tag = lang_strip(tdie, &t), n = 0;

	memset(&obj, 0, sizeof(obj));
	if (tag == DW_TAG_pointer_type && lang_type_of(&t, &st) &&
	    tag_is_struct(lang_strip(&st, &st))) {
		if (val_deref(rc, data, 0, &st, true, data->what, em->sp, &obj))
			return;
	} else if (!go_type_direct(tdie) && (tag_is_struct(tag) || tag == DW_TAG_base_type)) {
		if (val_deref(rc, data, 0, tdie, true, data->what, em->sp, &obj))
			return;
		st = t;
	} else {
		return;	/* a pointer to a non-struct, a map, a channel: the type name alone */
	}
	if (tag == DW_TAG_base_type || (tag_is_struct(tag) && type_layout(&t, false, &l))) {
		/* a number or a string: the value itself */
		struct emit e2 = *em;
		char *name = xasprintf("%s__value", em->name);
		size_t nargs = rc->tp->nr_args;

		e2.name = name;
		e2.cast = NULL;
		if (!emit_val(rc, &e2, &obj) && take_part(rc, nargs, ps, "value"))
			var->value = true;
		free(name);
	} else if (dwarf_child(&st, &child) == 0) {
		do {
			const char *m = dwarf_diename(&child);

			if (dwarf_tag(&child) == DW_TAG_member && m && n < IFACE_MAX_FIELDS) {
				emit_iface_field(rc, em, &obj, m, tname, ps);
				n++;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	val_release(&obj);
}

static int rank_cmp(const void *a, const void *b)
{
	const char *const *x = a, *const *y = b;
	int c = variant_rank(*x) - variant_rank(*y);

	return c ? c : strcmp(*x, *y);
}

/* What an interface{} shows the value of, when it holds one (they share most fields). */
static const char *const eface_types[] = {
	"int", "string", "float64", "bool", "int64", "uint64",
};

/*
 * The dynamic types of interface @iname (named in the binary's itab symbols; NULL for an
 * interface{}: eface_types) whose values args[@parent] shows: each one's fields are
 * fetched, and shown when it is the one.
 */
static void emit_iface_values(struct rctx *rc, const struct emit *em, const struct val *v,
			  const char *iname, int parent)
{
	struct dyntypes *dt = dyntypes_of(rc->dbg);
	struct type_index *ti = debuginfo_types(rc->dbg);
	struct strlist types = STRLIST_INIT;
	struct diag scratch, *save = rc->d;
	int nguards = rc->nr_guards;
	size_t n = 0, alloc = 0, nvars = 0;
	struct dyn_variant *vars = NULL;
	struct parts ps = { NULL, 0 };
	struct trace_arg *a;
	struct val data;

	val_from(&data, v);
	diag_init(&scratch, rc->spec->text);
	rc->d = &scratch;	/* a field that cannot be read is left out, not an error */
	rc->in_part = true;
	if (iname) {
		n = dyntypes_go_itabs(dt, iname, &types, NULL);
		qsort(types.v, n, sizeof(*types.v), rank_cmp);
	} else {
		/* interface{}: no itabs say what it holds; the common value types */
		for (size_t i = 0; i < ARRAY_SIZE(eface_types); i++)
			strlist_add(&types, eface_types[i]);
		n = types.nr;
	}
	if (!ti || val_path(rc, &data, "data", em->sp))
		n = 0;
	for (size_t i = 0; i < n; i++) {
		struct dyn_variant var = { .name = types.v[i], .first = (int)ps.nr };
		uint64_t *itabs = NULL;
		Dwarf_Die tdie;
		struct strlist one = STRLIST_INIT;

		if (nvars >= IFACE_MAX_VARIANTS || emit_event_bytes(rc->tp) > IFACE_BUDGET)
			break;
		if (!type_index_find(ti, types.v[i], 0, NULL, &tdie) ||
		    !dyntypes_go_type(dt, &tdie, &var.type))
			continue;
		/* its itab for this interface */
		for (size_t k = 0, m = iname ? dyntypes_go_itabs(dt, iname, &one, &itabs) : 0;
		     k < m; k++)
			if (!strcmp(one.v[k], types.v[i]))
				var.itab = itabs[k];
		free(itabs);
		strlist_release(&one);
		emit_iface_value(rc, em, &data, &tdie, types.v[i], &ps, &var);
		rctx_guards_truncate(rc, nguards);
		var.nr = (int)ps.nr - var.first;
		var.name = xstrdup(types.v[i]);
		ALLOC_GROW(vars, nvars + 1, alloc);
		vars[nvars++] = var;
	}
	/* every part was taken out of rc->tp->args: args[@parent] is the last again */
	a = &rc->tp->args[parent];
	a->parts = ps.v;
	a->nr_parts = ps.nr;
	a->dyn_variants = vars;
	a->nr_dyn_variants = nvars;
	rc->in_part = false;
	rc->d = save;
	diag_release(&scratch);
	val_release(&data);
	strlist_release(&types);
}

/*
 * A Go interface value alone: its dynamic type's name (the type word: an itab, or an
 * interface{}'s type), and for an interface with methods the fields of the values of the
 * dynamic types it is known to hold (VK_IFACE, shown as delve shows it).
 */
int emit_go_iface(struct rctx *rc, const struct emit *em, struct val *v, Dwarf_Die *t,
			 const char *word)
{
	struct trace_arg *a;
	struct val w;
	char *fetch = NULL, *tn;
	int ret, idx;

	val_from(&w, v);
	ret = val_path(rc, &w, word, em->sp);
	if (!ret)
		ret = emit_scalar(rc, em, &w, "x64", VK_IFACE, 8, false, &a);
	if (ret)
		goto out;
	idx = (int)(a - rc->tp->args);
	set_last_type_name(rc, v);
	a->dyn_word = DYN_GO_TYPE;
	if (!strcmp(word, "tab") && !val_word_fetch(rc, &w, em->sp, &fetch)) {
		char *tf = go_iface_itab_type(t, fetch);
		char *base = xasprintf("%.*s__t", NAME_MAX_LEN - 4, a->name);

		a->dyn_word = DYN_GO_ITAB;
		if (tf)
			a->dyn_field = hidden_field(rc, tf, "x64", base);
		else
			a->dyn_word = DYN_GO_TYPE;
		free(tf);
		free(base);
		tn = rctx_type_name(rc, &v->type, true);
		if (a->dyn_word == DYN_GO_ITAB)
			emit_iface_values(rc, em, v, tn, idx);
		free(tn);
	} else if (strcmp(word, "tab")) {
		emit_iface_values(rc, em, v, NULL, idx);
	}
out:
	free(fetch);
	val_release(&w);
	return ret;
}
