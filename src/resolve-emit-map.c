// SPDX-License-Identifier: GPL-2.0-or-later
/* resolve-emit-map.c - a Go map as kernel fetch-args: its length and a small map's entries */
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

#define MAP_BUDGET 2560		/* no entries once the event's fixed fields would pass this */
#define MAP_FIELDS 110		/* ... or its fields this many (the kernel takes 128) */
#define MAP_STRING 64		/* bytes read of each string key or value */
#define MAP_STRING_NO_ARRAY 8	/* ... where the kernel has no array types: 1 field */

/* A hidden field reading the word at pointer @ptr + @off as @type, named @name; -1 on error */
static int word_field(struct rctx *rc, const struct val *ptr, int64_t off, const char *type,
		      const char *name)
{
	int nguards = rc->nr_guards, idx = -1;
	struct val w;
	char *f = NULL;

	if (!val_deref(rc, ptr, off, NULL, false, ptr->what, SPAN_NONE, &w) &&
	    !val_word_fetch(rc, &w, SPAN_NONE, &f))
		idx = hidden_field(rc, f, type, name);
	free(f);
	val_release(&w);
	rctx_guards_truncate(rc, nguards);
	return idx;
}

/* Slot @slot's key (or value) of type @t at @off in the table @tab points to: one more arg,
 * its expr @part */
static bool emit_slot(struct rctx *rc, const struct emit *em, const struct val *tab, int64_t off,
		      Dwarf_Die *t, const char *part, unsigned int slot)
{
	int nguards = rc->nr_guards;
	size_t nargs = rc->tp->nr_args;
	struct emit e2 = *em;
	char *name = xasprintf("%.*s__%c%u", NAME_MAX_LEN - 6, em->name, part[0], slot);
	char *what = xasprintf("%s.%s[%u]", em->expr, part, slot);
	struct val w;
	bool ok;

	e2.name = name;
	e2.cast = NULL;
	ok = !val_deref(rc, tab, off, t, true, what, em->sp, &w) && !emit_val(rc, &e2, &w) &&
	     rc->tp->nr_args == nargs + 1;
	if (ok) {
		free(rc->tp->args[nargs].expr);
		rc->tp->args[nargs].expr = xstrdup(part);
	}
	val_release(&w);
	rctx_guards_truncate(rc, nguards);
	free(name);
	free(what);
	return ok;
}

/*
 * The table of a small map (@m->has_table) as args[@idx]'s parts: the words that say whether
 * it holds every entry, its control bytes and each slot's key and value. A key or value that
 * cannot be read, or a table past the budget, leaves the entries out (shown as more).
 */
static void emit_table(struct rctx *rc, const struct emit *em, const struct val *map,
		       const struct lang_go_map *m, int idx)
{
	size_t nf = rc->tp->nr_fields, na = rc->tp->nr_args, nparts, line;
	struct resolve_opts o = *rc->o;
	const struct resolve_opts *save_o = rc->o;
	struct trace_arg *parts = NULL;
	struct trace_map tm = { .ctrl = -1, .small = -1, .old = -1, .over = -1,
				.swiss = m->swiss, .used_min = m->used_min, .slots = m->slots };
	int nguards = rc->nr_guards;
	bool ok = true;
	struct val tab;
	char *n;

	if (o.string_size > MAP_STRING)
		o.string_size = MAP_STRING;
	/* without array types every 8 bytes of text is a field of its own (fallback.h) */
	if (!o.kf.has_array && o.string_size > MAP_STRING_NO_ARRAY)
		o.string_size = MAP_STRING_NO_ARRAY;
	rc->o = &o;
	rc->in_part = true;
	n = xasprintf("%.*s__small", NAME_MAX_LEN - 8, em->name);
	tm.small = word_field(rc, map, m->small_off, m->small_size == 1 ? "u8" : "u64", n);
	free(n);
	if (m->old_off >= 0) {
		n = xasprintf("%.*s__old", NAME_MAX_LEN - 6, em->name);
		tm.old = word_field(rc, map, m->old_off, "x64", n);
		free(n);
	}
	ok = tm.small >= 0 && !val_deref(rc, map, m->table_off, NULL, false, map->what, em->sp,
					 &tab);
	if (ok) {
		free(tab.what);
		tab.what = xasprintf("%s (its table)", map->what);
		n = xasprintf("%.*s__ctrl", NAME_MAX_LEN - 7, em->name);
		tm.ctrl = word_field(rc, &tab, m->ctrl_off, "x64", n);
		free(n);
		if (m->over_off >= 0) {
			n = xasprintf("%.*s__over", NAME_MAX_LEN - 7, em->name);
			tm.over = word_field(rc, &tab, m->over_off, "x64", n);
			free(n);
		}
		ok = tm.ctrl >= 0;
	}
	for (unsigned int i = 0; ok && i < m->slots; i++)
		ok = emit_slot(rc, em, &tab, m->key_off + i * m->key_stride, (Dwarf_Die *)&m->key,
			       "key", i) &&
		     emit_slot(rc, em, &tab, m->elem_off + i * m->elem_stride,
			       (Dwarf_Die *)&m->elem, "value", i);
	/* fields as the kernel gets them (without array types, one per 8 bytes of text) */
	if (ok && (emit_event_bytes(rc->tp) > MAP_BUDGET ||
		   fallback_kernel_fields(rc->tp, &rc->o->kf, &line) > MAP_FIELDS ||
		   (!rc->o->kf.has_array && line > FETCHARG_MAX_LINE * 3 / 4))) {
		pr_info("%s: its entries are left out: past the event's budget", em->expr);
		ok = false;
	}
	val_release(&tab);
	rctx_guards_truncate(rc, nguards);
	rc->in_part = false;
	rc->o = save_o;
	if (!ok) {
		trace_probe_truncate(rc->tp, nf, na);
		return;
	}
	/* the slots' args, made after args[@idx], become its parts */
	nparts = rc->tp->nr_args - na;
	parts = xmalloc(nparts * sizeof(*parts));
	memcpy(parts, &rc->tp->args[na], nparts * sizeof(*parts));
	rc->tp->nr_args = na;
	rc->tp->args[idx].map = tm;
	rc->tp->args[idx].parts = parts;
	rc->tp->args[idx].nr_parts = nparts;
}

int emit_go_map(struct rctx *rc, const struct emit *em, struct val *v,
		const struct lang_go_map *m)
{
	struct diag scratch, *save = rc->d;
	int before = rc->nr_guards, idx;
	struct trace_arg *a;
	struct val c;

	if (val_deref(rc, v, m->count_off, (Dwarf_Die *)&m->count_type, true, v->what, em->sp,
		      &c))
		return -EINVAL;
	/* a nil map: null, as delve's "nil" */
	if (rc->nr_guards == before + 1)
		rc->guards[before].kind = GUARD_NIL;
	if (emit_scalar(rc, em, &c, m->count_size == 4 ? "u32" : "u64", VK_MAP, m->count_size,
			false, &a)) {
		val_release(&c);
		return -EINVAL;
	}
	val_release(&c);
	idx = (int)(a - rc->tp->args);
	set_last_type_name(rc, v);
	a->map = (struct trace_map){ .ctrl = -1, .small = -1, .old = -1, .over = -1 };
	if (!m->has_table)
		return 0;
	diag_init(&scratch, rc->spec->text);
	rc->d = &scratch;	/* a key or value that cannot be read leaves the entries out */
	emit_table(rc, em, v, m, idx);
	rc->d = save;
	a = &rc->tp->args[idx];
	if (a->map.ctrl < 0 && v->map_key) {
		diag_error(rc->d, em->sp, "cannot look up a key in Go map '%s': its entries cannot "
			   "be read (%s)", v->what, scratch.msg ? scratch.msg :
			   "past the event's budget");
		diag_release(&scratch);
		return -EINVAL;
	}
	if (diag_has_error(&scratch))
		pr_info("%s: its entries are left out: %s", em->expr,
			scratch.msg ? scratch.msg : "?");
	diag_release(&scratch);
	if (v->map_key) {
		/* the entry's value, shown with the value type's name */
		a->map.lookup = true;
		a->map.key = v->map_key->key ? xstrdup(v->map_key->name) : NULL;
		a->map.key_num = (uint64_t)v->map_key->index;
		free(a->type_name);
		a->type_name = rctx_type_name(rc, (Dwarf_Die *)&m->elem, true);
	}
	return 0;
}
