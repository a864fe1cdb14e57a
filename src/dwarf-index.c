// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf-index.c - the function DIEs of a DWARF file through libdw, and per-CU lookup tables */
#include <dwarf.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define LOG_DOMAIN "dwarf-index"
#include "demangle.h"
#include "dwarf-aux.h"
#include "dwarf-index.h"
#include "lang.h"
#include "log.h"
#include "util.h"

/* the subprograms of a CU find_subprogram() meets outside other functions, by low pc */
struct cu_func {
	Dwarf_Addr low;
	size_t order;		/* in the walk: the first one at an address wins */
	Dwarf_Die die;
};

/* a code range of a DIE: at the top of a CU (dw_index_getscopes()), or of a function */
struct cu_top {
	Dwarf_Addr start, end;
	Dwarf_Addr max_end;	/* of this and every earlier one (sorted by start) */
	size_t order;		/* of the DIE among the CU's children */
	Dwarf_Die die;
};

/* a subprogram of the walk by its DIE offset, with the namespace or class holding it */
struct cu_fn_up {
	Dwarf_Off off;
	long up;		/* index in cu_tables.ups, -1: the CU */
};

/* a namespace, module, class or structure the walk went into */
struct cu_up {
	Dwarf_Die die;
	long up;		/* the one holding it, -1: the CU */
	bool libdw_skips;	/* a union: dwarf_getscopes_die() does not go into it */
};

/* the tables of one CU, made on its second lookup (one lookup is cheaper as a walk) */
struct cu_tables {
	const void *cu;		/* the CU DIE's addr */
	unsigned int lookups;
	struct cu_func *v;	/* sorted by low, then order; NULL until the second lookup */
	size_t nr, alloc;
	struct cu_top *spans;	/* every code range of the walk's functions, by start */
	size_t nr_spans, alloc_spans;
	struct cu_fn_up *fns;	/* every function of the walk, in DIE order */
	size_t nr_fns, alloc_fns;
	struct cu_up *ups;
	size_t nr_ups, alloc_ups;
	bool built;
	unsigned int scope_lookups;
	struct cu_top *tops;	/* sorted by start; built on the second dw_index_getscopes() */
	size_t nr_tops, alloc_tops;
	bool tops_built, tops_bad;	/* bad: imported units, only libdw gets it right */
};

struct cu_range {
	Dwarf_Addr start, end;
	Dwarf_Die cu;
};

struct dw_index {
	Dwarf *dw;

	struct dw_func *v;	/* the function DIEs, in DIE order */
	size_t nr, alloc;
	char **scopes;		/* interned scope strings */
	size_t nr_scopes, alloc_scopes;

	struct cu_tables *cus;	/* of the CUs looked up */
	size_t nr_cus, alloc_cus;
	struct cu_range *cu_ranges;	/* every CU's ranges, sorted by start */
	size_t nr_cu_ranges;
	bool cu_ranges_built;
};

struct dw_index *dw_index_new(Dwarf *dw)
{
	struct dw_index *idx = xcalloc(1, sizeof(*idx));

	idx->dw = dw;
	return idx;
}

void dw_index_clear(struct dw_index *idx)
{
	for (size_t i = 0; i < idx->nr; i++) {
		free(idx->v[i].name);
		free(idx->v[i].sig);
	}
	idx->nr = 0;
}

void dw_index_free(struct dw_index *idx)
{
	if (!idx)
		return;
	dw_index_clear(idx);
	free(idx->v);
	for (size_t i = 0; i < idx->nr_scopes; i++)
		free(idx->scopes[i]);
	free(idx->scopes);
	for (size_t i = 0; i < idx->nr_cus; i++) {
		free(idx->cus[i].v);
		free(idx->cus[i].tops);
		free(idx->cus[i].spans);
		free(idx->cus[i].fns);
		free(idx->cus[i].ups);
	}
	free(idx->cus);
	free(idx->cu_ranges);
	free(idx);
}

Dwarf *dw_index_dwarf(struct dw_index *idx)
{
	return idx->dw;
}

/*
 * The one search of the sorted tables: how many of the @nr elements of @size bytes at @v
 * have the Dwarf_Addr at @key_off at or below @key.
 */
static size_t upto(const void *v, size_t nr, size_t size, size_t key_off, Dwarf_Addr key)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		Dwarf_Addr at;

		memcpy(&at, (const char *)v + mid * size + key_off, sizeof(at));
		if (at <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ---- the function table ---- */

struct dw_func *dw_index_add(struct dw_index *idx)
{
	struct dw_func *f;

	ALLOC_GROW(idx->v, idx->nr + 1, idx->alloc);
	f = &idx->v[idx->nr++];
	memset(f, 0, sizeof(*f));
	return f;
}

const char *dw_index_scope(struct dw_index *idx, const char *outer, const char *name)
{
	char *s = outer ? xasprintf("%s::%s", outer, name) : xstrdup(name);

	ALLOC_GROW(idx->scopes, idx->nr_scopes + 1, idx->alloc_scopes);
	idx->scopes[idx->nr_scopes++] = s;
	return s;
}

struct dw_func *dw_index_funcs(struct dw_index *idx, size_t *nr)
{
	*nr = idx->nr;
	return idx->v;
}

Dwarf_Die *dw_func_die(struct dw_index *idx, struct dw_func *f)
{
	if (!f->die_ok) {
		if (!dwarf_offdie(idx->dw, f->off, &f->die))
			return NULL;
		f->die_ok = true;
	}
	return &f->die;
}

const char *dw_func_name(struct dw_func *f)
{
	if (!f->name)
		f->name = func_name_make(f->linkage, f->dwname, f->scope) ?: xstrdup("");
	return f->name;
}

const char *dw_func_ident(struct dw_func *f)
{
	if (!f->sig) {
		f->sig = f->linkage && is_mangled(f->linkage) ? demangle(f->linkage, true) :
			 xstrdup(dw_func_name(f));
	}
	return strcmp(f->sig, dw_func_name(f)) ? f->sig : dw_func_name(f);
}

/* a function DIE, @child of a unit or of what walk() enters */
static void walk_func(struct dw_index *idx, Dwarf_Die *child, int tag, const char *scope,
		      int lang, bool code)
{
	struct dw_func *f = dw_index_add(idx);
	Dwarf_Die mem, *o;

	f->die = *child;
	f->die_ok = true;
	f->addr = child->addr;
	f->off = dwarf_dieoffset(child);
	f->lang = lang;
	f->has_code = code;
	f->is_abstract = tag == DW_TAG_subprogram && dwarf_hasattr(child, DW_AT_inline);
	f->scope = scope;
	if (tag == DW_TAG_inlined_subroutine) {
		f->inlined = true;
		o = die_origin(child, &mem);
		if (o)
			f->origin = o->addr;
	} else {
		f->dwname = die_string(child, DW_AT_name);
		f->linkage = die_linkage_name(child);
	}
}

static void walk(struct dw_index *idx, Dwarf_Die *parent, const char *scope, int lang,
		 int depth)
{
	Dwarf_Die child;

	if (depth > 64 || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		bool code, abstract;
		const char *n;

		switch (tag) {
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			if (!lang_nests_names(lang) && tag != DW_TAG_namespace)
				break;
			if (!dwarf_haschildren(&child))
				break;
			n = dwarf_diename(&child);
			n = n ? dw_index_scope(idx, scope, n) : scope;
			walk(idx, &child, n, lang, depth + 1);
			break;
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
			code = dwarf_hasattr(&child, DW_AT_low_pc) ||
			       dwarf_hasattr(&child, DW_AT_ranges);
			abstract = tag == DW_TAG_subprogram && dwarf_hasattr(&child, DW_AT_inline);
			if (!code && !abstract)
				break;
			walk_func(idx, &child, tag, scope, lang, code);
			if (code)
				walk(idx, &child, scope, lang, depth + 1);
			break;
		case DW_TAG_lexical_block:
			walk(idx, &child, scope, lang, depth + 1);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

void dw_index_walk(struct dw_index *idx)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie;
	uint8_t unit_type;

	while (dwarf_get_units(idx->dw, cu, &cu, NULL, &unit_type, &cudie, &subdie) == 0) {
		Dwarf_Die *top = unit_type == DW_UT_skeleton ? &subdie : &cudie;
		int lang = dwarf_srclang(top);

		walk(idx, top, NULL, lang < 0 ? 0 : lang, 0);
	}
	pr_debug("DWARF index through libdw: %zu function DIEs", idx->nr);
}

/* ---- the CUs' ranges (Go) ---- */

static int cu_range_cmp(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static void cu_ranges_build(struct dw_index *idx)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie;
	size_t alloc = 0;
	uint8_t unit_type;

	idx->cu_ranges_built = true;
	while (dwarf_get_units(idx->dw, cu, &cu, NULL, &unit_type, &cudie, &subdie) == 0) {
		Dwarf_Addr base, start, end;
		ptrdiff_t off = 0;

		if (unit_type == DW_UT_skeleton)
			cudie = subdie;
		while ((off = dwarf_ranges(&cudie, off, &base, &start, &end)) > 0) {
			if (start >= end)
				continue;
			ALLOC_GROW(idx->cu_ranges, idx->nr_cu_ranges + 1, alloc);
			idx->cu_ranges[idx->nr_cu_ranges++] =
				(struct cu_range){ .start = start, .end = end, .cu = cudie };
		}
	}
	if (idx->nr_cu_ranges > 1)
		qsort(idx->cu_ranges, idx->nr_cu_ranges, sizeof(*idx->cu_ranges), cu_range_cmp);
	pr_debug("%zu CU address ranges", idx->nr_cu_ranges);
}

bool dw_index_cu_at(struct dw_index *idx, Dwarf_Addr pc, Dwarf_Die *cu)
{
	size_t n;

	if (!idx->cu_ranges_built)
		cu_ranges_build(idx);
	n = upto(idx->cu_ranges, idx->nr_cu_ranges, sizeof(*idx->cu_ranges),
		 offsetof(struct cu_range, start), pc);
	/* ranges of different CUs do not overlap; look back a little for nested ones */
	for (size_t i = n; i-- > 0 && n - i < 8;) {
		if (pc >= idx->cu_ranges[i].start && pc < idx->cu_ranges[i].end) {
			*cu = idx->cu_ranges[i].cu;
			return true;
		}
	}
	return false;
}

/* ---- the function at an address ---- */

static bool is_scope_tag(int tag)
{
	return tag == DW_TAG_namespace || tag == DW_TAG_module || tag == DW_TAG_class_type ||
	       tag == DW_TAG_structure_type || tag == DW_TAG_union_type;
}

/* the subprogram with code at @pc in the children of @parent (namespaces, classes, nesting) */
static bool find_subprogram(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *out, int depth)
{
	Dwarf_Die child;
	bool found = false;

	if (depth > 16 || dwarf_child(parent, &child) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Addr low;

		if (tag == DW_TAG_subprogram) {
			if (dwarf_lowpc(&child, &low) == 0 && low == pc) {
				*out = child;
				return true;
			}
			if (!found && dwarf_haspc(&child, pc) == 1) {
				*out = child;
				found = true;
				/* a nested function may start right here */
				if (find_subprogram(&child, pc, out, depth + 1))
					return true;
				*out = child;
			}
		} else if (is_scope_tag(tag)) {
			if (find_subprogram(&child, pc, out, depth + 1))
				return true;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return found;
}

static int cu_top_cmp(const void *a, const void *b)
{
	const struct cu_top *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* @v sorted by start, with each range's max_end */
static void ranges_sort(struct cu_top *v, size_t nr)
{
	if (nr > 1)
		qsort(v, nr, sizeof(*v), cu_top_cmp);
	for (size_t i = 0; i < nr; i++)
		v[i].max_end = i && v[i - 1].max_end > v[i].end ? v[i - 1].max_end : v[i].end;
}

/* of the ranges @v (ranges_sort()) holding @pc, the index of the first in order, or -1 */
static long ranges_first(const struct cu_top *v, size_t nr, Dwarf_Addr pc)
{
	size_t n, best = SIZE_MAX;

	/* the last range starting at or below pc, then back while an earlier one can hold it */
	n = upto(v, nr, sizeof(*v), offsetof(struct cu_top, start), pc);
	for (size_t i = n; i-- > 0 && v[i].max_end > pc;) {
		if (pc < v[i].end && (best == SIZE_MAX || v[i].order < v[best].order))
			best = i;
	}
	return best == SIZE_MAX ? -1 : (long)best;
}

static void cu_span_add(struct cu_tables *ct, Dwarf_Die *fn, size_t order)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(fn, off, &base, &start, &end)) > 0) {
		if (start >= end)
			continue;
		ALLOC_GROW(ct->spans, ct->nr_spans + 1, ct->alloc_spans);
		ct->spans[ct->nr_spans++] = (struct cu_top){
			.start = start, .end = end, .order = order, .die = *fn,
		};
	}
}

/* @up: the index in ct->ups of @parent, -1 for the CU */
static void cu_funcs_walk(struct cu_tables *ct, Dwarf_Die *parent, long up, int depth)
{
	Dwarf_Die child;

	if (depth > 16 || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Addr low;

		if (tag == DW_TAG_subprogram) {
			if (dwarf_lowpc(&child, &low) == 0) {
				ALLOC_GROW(ct->v, ct->nr + 1, ct->alloc);
				ct->v[ct->nr] = (struct cu_func){ low, ct->nr, child };
				ct->nr++;
			}
			if (dwarf_hasattr(&child, DW_AT_low_pc) ||
			    dwarf_hasattr(&child, DW_AT_ranges))
				cu_span_add(ct, &child, ct->nr_fns);
			ALLOC_GROW(ct->fns, ct->nr_fns + 1, ct->alloc_fns);
			ct->fns[ct->nr_fns++] = (struct cu_fn_up){ dwarf_dieoffset(&child), up };
		} else if (is_scope_tag(tag)) {
			ALLOC_GROW(ct->ups, ct->nr_ups + 1, ct->alloc_ups);
			ct->ups[ct->nr_ups] = (struct cu_up){ child, up, tag == DW_TAG_union_type };
			cu_funcs_walk(ct, &child, (long)ct->nr_ups++, depth + 1);
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int cu_func_cmp(const void *a, const void *b)
{
	const struct cu_func *x = a, *y = b;

	if (x->low != y->low)
		return x->low < y->low ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static struct cu_tables *cu_tables_of(struct dw_index *idx, Dwarf_Die *cu)
{
	struct cu_tables *ct;

	for (size_t i = 0; i < idx->nr_cus; i++)
		if (idx->cus[i].cu == cu->addr)
			return &idx->cus[i];
	ALLOC_GROW(idx->cus, idx->nr_cus + 1, idx->alloc_cus);
	ct = &idx->cus[idx->nr_cus++];
	memset(ct, 0, sizeof(*ct));
	ct->cu = cu->addr;
	return ct;
}

/*
 * The function starting exactly at @pc, from a per-CU table once a CU is asked twice (a glob
 * over 1000 functions of one CU would walk the CU 1000 times). Functions nested in others
 * (GNU C) are left to find_subprogram(), as is every pc inside a function.
 */
/* the tables of @cu, built on its second lookup: NULL before */
static struct cu_tables *cu_funcs_of(struct dw_index *idx, Dwarf_Die *cu)
{
	struct cu_tables *ct = cu_tables_of(idx, cu);

	if (++ct->lookups < 2)
		return NULL;
	if (!ct->built) {
		ct->built = true;
		cu_funcs_walk(ct, cu, -1, 0);
		if (ct->nr > 1)
			qsort(ct->v, ct->nr, sizeof(*ct->v), cu_func_cmp);
		ranges_sort(ct->spans, ct->nr_spans);
	}
	return ct;
}

static bool cu_func_exact(struct cu_tables *ct, Dwarf_Addr pc, Dwarf_Die *out)
{
	size_t i;

	/* the first one at pc: after every one below it */
	i = pc ? upto(ct->v, ct->nr, sizeof(*ct->v), offsetof(struct cu_func, low), pc - 1) : 0;
	if (i == ct->nr || ct->v[i].low != pc)
		return false;
	*out = ct->v[i].die;
	return true;
}

/*
 * The function holding @pc that the walk meets first (find_subprogram()'s answer), then a
 * function nested in it that holds @pc: from the table of code ranges, not a walk of the
 * CU per pc (a glob over the Go runtime's inlined copies walked it for each).
 */
static bool cu_func_holding(struct cu_tables *ct, Dwarf_Addr pc, Dwarf_Die *out)
{
	long best = ranges_first(ct->spans, ct->nr_spans, pc);
	Dwarf_Die nested;

	if (best < 0)
		return false;
	*out = ct->spans[best].die;
	if (find_subprogram(out, pc, &nested, 1))
		*out = nested;
	return true;
}

bool dw_index_subprogram_at(struct dw_index *idx, Dwarf_Die *cu, Dwarf_Addr pc,
			    Dwarf_Die *die)
{
	struct cu_tables *ct = cu_funcs_of(idx, cu);

	if (!ct)
		return find_subprogram(cu, pc, die, 0);
	return cu_func_exact(ct, pc, die) || cu_func_holding(ct, pc, die);
}

static int cu_fn_up_cmp(const void *a, const void *b)
{
	const struct cu_fn_up *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

int dw_index_getscopes_die(struct dw_index *idx, Dwarf_Die *cu, Dwarf_Die *fn,
			   Dwarf_Die **scopes)
{
	struct cu_tables *ct = cu_funcs_of(idx, cu);
	struct cu_fn_up key = { dwarf_dieoffset(fn), 0 }, *f;
	Dwarf_Die *v;
	int n = 1;

	f = ct ? bsearch(&key, ct->fns, ct->nr_fns, sizeof(*ct->fns), cu_fn_up_cmp) : NULL;
	if (!f)
		return dwarf_getscopes_die(fn, scopes);
	for (long up = f->up; up >= 0; up = ct->ups[up].up, n++)
		if (ct->ups[up].libdw_skips)
			return dwarf_getscopes_die(fn, scopes);
	v = xmalloc((n + 1) * sizeof(*v));
	v[0] = *fn;
	n = 1;
	for (long up = f->up; up >= 0; up = ct->ups[up].up)
		v[n++] = ct->ups[up].die;
	v[n++] = *cu;
	*scopes = v;
	return n;
}

/* ---- dw_index_getscopes(): dwarf_getscopes() without a walk of the CU per call ---- */

/* every child of the CU with code ranges, in the order dwarf_getscopes() visits them */
static void cu_tops_build(struct cu_tables *ct, Dwarf_Die *cu)
{
	Dwarf_Die child;
	size_t order = 0;

	ct->tops_built = true;
	if (dwarf_child(cu, &child) != 0)
		return;
	do {
		Dwarf_Addr base, start, end;
		ptrdiff_t off = 0;

		if (dwarf_tag(&child) == DW_TAG_imported_unit) {
			ct->tops_bad = true;
			return;
		}
		order++;
		if (!dwarf_hasattr(&child, DW_AT_low_pc) && !dwarf_hasattr(&child, DW_AT_ranges))
			continue;
		while ((off = dwarf_ranges(&child, off, &base, &start, &end)) > 0) {
			if (start >= end)
				continue;
			ALLOC_GROW(ct->tops, ct->nr_tops + 1, ct->alloc_tops);
			ct->tops[ct->nr_tops++] = (struct cu_top){
				.start = start, .end = end, .order = order, .die = child,
			};
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	ranges_sort(ct->tops, ct->nr_tops);
}

/* the first child of the CU (in DIE order) whose code holds @pc */
static bool cu_top_at(struct cu_tables *ct, Dwarf_Addr pc, Dwarf_Die *out)
{
	long best = ranges_first(ct->tops, ct->nr_tops, pc);

	if (best < 0)
		return false;
	*out = ct->tops[best].die;
	return true;
}

/* the tags __libdw_visit_scopes() descends into */
static bool may_have_scopes(int tag)
{
	switch (tag) {
	case DW_TAG_compile_unit:
	case DW_TAG_module:
	case DW_TAG_lexical_block:
	case DW_TAG_with_stmt:
	case DW_TAG_catch_block:
	case DW_TAG_try_block:
	case DW_TAG_entry_point:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_subprogram:
	case DW_TAG_namespace:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
		return true;
	default:
		return false;
	}
}

/*
 * Down from @top through the first child holding @pc at each level, as the libdw walk goes,
 * to the outermost inlined copy holding @pc.
 * Return: the chain's length with *@chain a new array (outermost first), or -1 when the
 * chain enters what only libdw's walk follows (an imported unit).
 */
static int scopes_down(Dwarf_Die *top, Dwarf_Addr pc, Dwarf_Die **chain)
{
	Dwarf_Die *v = NULL, cur = *top;
	size_t n = 0, alloc = 0;

	ALLOC_GROW(v, n + 1, alloc);
	v[n++] = cur;
	for (;;) {
		int tag = dwarf_tag(&cur);
		bool found = false;
		Dwarf_Die child;

		/*
		 * libdw goes on from an inlined copy into its abstract definition's parents,
		 * found by a walk of the CU; the chain ends here (dw_index_getscopes())
		 */
		if (tag == DW_TAG_inlined_subroutine)
			break;
		if (tag == DW_TAG_imported_unit)
			goto libdw;
		if (!may_have_scopes(tag) || dwarf_child(&cur, &child) != 0)
			break;
		do {
			int r = dwarf_haspc(&child, pc);

			if (dwarf_tag(&child) == DW_TAG_imported_unit)
				goto libdw;
			if (r > 0) {
				found = true;
				break;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
		if (!found)
			break;
		cur = child;
		ALLOC_GROW(v, n + 1, alloc);
		v[n++] = cur;
	}
	/* room for the CU the caller adds */
	ALLOC_GROW(v, n + 1, alloc);
	*chain = v;
	return n;
libdw:
	free(v);
	return -1;
}

int dw_index_getscopes(struct dw_index *idx, Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die **scopes)
{
	struct cu_tables *ct = cu_tables_of(idx, cu);
	Dwarf_Die *chain, top;
	int n;

	if (++ct->scope_lookups < 2)
		return dwarf_getscopes(cu, pc, scopes);
	if (!ct->tops_built)
		cu_tops_build(ct, cu);
	if (ct->tops_bad)
		return dwarf_getscopes(cu, pc, scopes);
	if (!cu_top_at(ct, pc, &top))
		return 0;
	n = scopes_down(&top, pc, &chain);
	if (n < 0)
		return dwarf_getscopes(cu, pc, scopes);
	/* innermost first, then the CU */
	for (int i = 0; i < n / 2; i++) {
		Dwarf_Die t = chain[i];

		chain[i] = chain[n - 1 - i];
		chain[n - 1 - i] = t;
	}
	chain[n++] = *cu;
	*scopes = chain;
	return n;
}
