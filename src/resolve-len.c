// SPDX-License-Identifier: GPL-2.0-or-later
/* resolve-len.c - len() and cap() of Go maps, slices and strings, of arrays; map lookups */
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

/*
 * len() of Go map @v (layout @m): the number of entries in its header, through the map's
 * pointer; a nil map's length is 0 (GUARD_ZERO), as Go's len() says.
 */
static int map_len(struct rctx *rc, struct val *v, const struct lang_go_map *m,
		   const char *what, struct span sp)
{
	int before = rc->nr_guards;
	struct val n;

	if (val_deref(rc, v, m->count_off, (Dwarf_Die *)&m->count_type, true, what, sp, &n))
		return -EINVAL;
	if (rc->nr_guards == before + 1)
		rc->guards[before].kind = GUARD_ZERO;
	val_move(v, &n);
	return 0;
}

/* len() or cap() of an array: its element count, a constant */
static int array_len(struct rctx *rc, struct val *v, Dwarf_Die *t, const char *what,
		     struct span sp)
{
	struct loc_piece p = { .kind = LOC_IMM, .reg = -1 };
	int64_t count, inner;

	type_array_dim(t, v->dim, &count, &inner);
	if (count < 0)
		return diag_error(rc->d, sp, "'%s' is an array of unknown length", v->what);
	p.imm = (uint64_t)count;
	val_release(v);
	loc_add_piece(&v->loc, &p);
	v->what = xstrdup(what);
	return 0;
}

int val_eval_len(struct rctx *rc, const struct expr *e, struct val *out)
{
	bool cap = e->kind == EXPR_CAP;
	struct lang_go_map m;
	struct lang_layout l;
	struct val n;
	char *what = NULL;
	Dwarf_Die t;
	int tag, ret;

	ret = val_eval(rc, e->base, out);
	if (ret)
		return ret;
	what = expr_text(e);
	if (out->has_type && !out->ptrs && !cap && lang_go_map(&out->type, &m)) {
		ret = map_len(rc, out, &m, what, e->span);
		goto done;
	}
	/* a pointer to an array or a slice: what it points to (Go's len(p) of a *[N]T) */
	if (val_follow_pointers(rc, out, e->span, &tag, &t)) {
		ret = -EINVAL;
		goto done;
	}
	if (tag == DW_TAG_array_type) {
		ret = array_len(rc, out, &t, what, e->span);
		goto done;
	}
	/* a capacity that is a count (beside a length; std::vector's is an end pointer) */
	if (tag_is_struct(tag) &&
	    (type_layout(&t, true, &l) || (!cap && type_layout(&t, false, &l))) &&
	    l.len && (!cap || l.cap)) {
		val_from(&n, out);
		ret = val_path(rc, &n, cap ? l.cap : l.len, e->span);
		if (!ret) {
			free(n.what);
			n.what = xstrdup(what);
			val_move(out, &n);
		}
		val_release(&n);
		goto done;
	}
	{
		char *tn = out->has_type ? val_type_name(rc, out) : xstrdup("no type");

		ret = diag_error(rc->d, e->span, "%s() of '%s' (%s): it takes %s", cap ? "cap" : "len",
				 out->what, tn, cap ? "a Go slice or an array" :
				 "a Go map, slice or string, or an array");
		free(tn);
	}
done:
	free(what);
	return ret;
}

bool val_is_go_map(struct rctx *rc, const struct val *v)
{
	struct lang_go_map m;

	return rc->lang == &lang_go && v->has_type && !v->ptrs &&
	       lang_go_map((Dwarf_Die *)&v->type, &m);
}

/* Whether key type @kt takes the literal of @e: a string for a string key, a number for an
 * integer key (Go's string and integer types, named ones too) */
static bool key_fits(const struct expr *e, Dwarf_Die *kt)
{
	struct lang_layout l;
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	Dwarf_Die t;
	int tag = lang_strip(kt, &t);

	if (e->key)
		return tag_is_struct(tag) && type_layout(&t, false, &l) && l.len;
	if (tag != DW_TAG_base_type || !dwarf_attr(&t, DW_AT_encoding, &attr) ||
	    dwarf_formudata(&attr, &enc))
		return false;
	return enc == DW_ATE_signed || enc == DW_ATE_unsigned;
}

int val_map_key(struct rctx *rc, const struct expr *e, struct val *v)
{
	struct lang_go_map m;
	char *tn;

	if (!val_is_go_map(rc, v)) {
		tn = v->has_type ? val_type_name(rc, v) : xstrdup("no type");
		diag_error(rc->d, e->span, "a quoted key indexes a Go map; '%s' is a %s",
			   v->what, tn);
		free(tn);
		return -EINVAL;
	}
	lang_go_map(&v->type, &m);
	if (e != rc->arg_expr)
		return diag_error(rc->d, e->span, "a lookup by key in Go map '%s' is made when the "
				  "event is decoded, among the entries read: it must be the whole "
				  "argument, not a part of one", v->what);
	if (!m.has_table)
		return diag_error(rc->d, e->span, "cannot look up a key in Go map '%s': the layout "
				  "of its table is not in the DWARF", v->what);
	if (!key_fits(e, &m.key)) {
		tn = rctx_type_name(rc, &m.key, true);
		diag_error(rc->d, e->span, "cannot look up %s in Go map '%s': its keys are of type "
			   "%s; a key is a quoted string for string keys, a number for integer "
			   "keys", e->key ? "a quoted key" : "a number", v->what, tn);
		free(tn);
		return -EINVAL;
	}
	v->map_key = e;
	return 0;
}
