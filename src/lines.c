// SPDX-License-Identifier: GPL-2.0-or-later
/* lines.c - source lines <-> addresses from the DWARF line table; -L listings */
#define LOG_DOMAIN "lines"

#include <ctype.h>
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dwarf-aux.h"
#include "funcs.h"
#include "lines.h"
#include "log.h"
#include "remote.h"
#include "runas.h"

/*
 * A "run" is a maximal stretch of consecutive line-table rows (in address order, inside one
 * sequence and inside the address ranges we look at) that all belong to the same line of the
 * file we look at. A line in a loop body is one run; a line with code in several places (a
 * for header, inlined copies, instantiations) is several. A run is probe-able at its first
 * is_stmt row; a run without one (code the compiler moved there) is not a statement start.
 */
struct run {
	uint64_t addr;		/* DWARF address of the run's first is_stmt row */
	int line;
	bool empty;		/* no instruction from @addr on: the next row has its address */
	const char *file;	/* borrowed from libdw's file table */
};

struct runs {
	struct run *v;
	size_t nr, alloc;
};

/* Address ranges of a DIE (DWARF addresses), NULL ranges means "everything". */
struct ranges {
	Dwarf_Addr (*r)[2];
	size_t nr, alloc;
};

/* Which file names of a CU's file table count as "the file". */
struct file_match {
	const char *pattern;	/* tail ("server.go", "c/lines.c") or a full path */
	bool both_ways;		/* also accept @pattern ending in the candidate (same file,
				 * named relative in one place and absolute in another) */
	const char *last;	/* cache: the last file name looked at ... */
	bool last_ok;		/* ... and whether it matched */
};

/* normalize_path() - drop "." components and fold "dir/.." (lexically), squeeze '/' */
static char *normalize_path(const char *path)
{
	size_t len = strlen(path), n = 0;
	char *out = xmalloc(len + 2);
	bool abs = *path == '/';
	const char *p = path;

	if (abs)
		out[n++] = '/';
	while (*p) {
		size_t cl = strcspn(p, "/");

		if (cl == 0 || (cl == 1 && p[0] == '.')) {
			/* empty or "." component */
		} else if (cl == 2 && p[0] == '.' && p[1] == '.' && n > (size_t)abs &&
			   !(n - abs >= 2 && out[n - 1] == '.' && out[n - 2] == '.' &&
			     (n - abs == 2 || out[n - 3] == '/'))) {
			/* drop the previous component */
			while (n > (size_t)abs && out[n - 1] != '/')
				n--;
			if (n > (size_t)abs)
				n--;
		} else {
			if (n > (size_t)abs)
				out[n++] = '/';
			memcpy(out + n, p, cl);
			n += cl;
		}
		p += cl;
		if (*p == '/')
			p++;
	}
	if (!n)
		out[n++] = '.';
	out[n] = '\0';
	return out;
}

/* path_tail_match() - @path is @tail, or ends with "/" @tail */
static bool path_tail_match(const char *path, const char *tail)
{
	size_t pl = strlen(path), tl = strlen(tail);

	while (tail[0] == '.' && tail[1] == '/') {
		tail += 2;
		tl -= 2;
	}
	if (!tl || tl > pl)
		return false;
	if (strcmp(path + pl - tl, tail))
		return false;
	return tl == pl || path[pl - tl - 1] == '/' || tail[0] == '/';
}

static bool file_matches(struct file_match *m, const char *name)
{
	char *norm;

	if (!name)
		return false;
	if (name == m->last)
		return m->last_ok;
	norm = normalize_path(name);
	m->last = name;
	m->last_ok = path_tail_match(norm, m->pattern) ||
		     (m->both_ways && path_tail_match(m->pattern, norm));
	free(norm);
	return m->last_ok;
}

static bool in_ranges(const struct ranges *rg, Dwarf_Addr a)
{
	if (!rg)
		return true;
	for (size_t i = 0; i < rg->nr; i++)
		if (a >= rg->r[i][0] && a < rg->r[i][1])
			return true;
	return false;
}

static int die_ranges(Dwarf_Die *die, struct ranges *rg)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0) {
		ALLOC_GROW(rg->r, rg->nr + 1, rg->alloc);
		rg->r[rg->nr][0] = start;
		rg->r[rg->nr][1] = end;
		rg->nr++;
	}
	return off < 0 ? -EINVAL : 0;
}

static void run_add(struct runs *rs, uint64_t addr, int line, const char *file, bool empty)
{
	ALLOC_GROW(rs->v, rs->nr + 1, rs->alloc);
	rs->v[rs->nr++] = (struct run){ .addr = addr, .line = line, .file = file,
					.empty = empty };
}

/* The innermost function or inlined copy holding DWARF address @addr. */
static bool innermost_func(Dwarf *dw, Dwarf_Addr addr, Dwarf_Die *out)
{
	Dwarf_Die cu, *scopes = NULL;
	bool found = false;
	int n;

	if (!dwarf_addrdie(dw, addr, &cu))
		return false;
	n = dwarf_getscopes(&cu, addr, &scopes);
	for (int i = 0; i < n && !found; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			*out = scopes[i];
			found = true;
		}
	}
	free(scopes);
	return found;
}

/*
 * drop_empty_runs() - an optimizer leaves a line's statement mark at an address whose
 * instructions belong to other lines (0 bytes of its own: "views" at one address), often
 * inside another inlined copy. Such a run is dropped when the same line has a run with
 * instructions whose innermost function or inlined copy is the same: that is where the line's
 * code is. Only the same: another inlined copy inside the function is another copy of the line
 * (arm64's gcc marks scale()'s first copy at twice's entry, outside the copy's ranges, whose
 * rows for the line are not statements; the second copy's run is inside twice too, yet the
 * first copy's mark is its only place, where gdb breaks as well)
 */
static void drop_empty_runs(Dwarf *dw, struct runs *rs)
{
	size_t n = 0;

	for (size_t i = 0; i < rs->nr; i++) {
		struct run *r = &rs->v[i];
		bool drop = false;
		Dwarf_Die scope, oscope;

		if (r->empty && innermost_func(dw, r->addr, &scope)) {
			for (size_t j = 0; j < rs->nr && !drop; j++) {
				struct run *o = &rs->v[j];

				drop = j != i && !o->empty && o->line == r->line &&
				       (o->file == r->file || !strcmp(o->file, r->file)) &&
				       innermost_func(dw, o->addr, &oscope) &&
				       dwarf_dieoffset(&oscope) == dwarf_dieoffset(&scope);
			}
		}
		if (!drop)
			rs->v[n++] = *r;
	}
	rs->nr = n;
}

/*
 * drop_dead_runs() - the runs of code the linker dropped (funcs_code_is_live()): their rows
 * stay in the line table at the address 0 and up, which arm64's PIEs map executable with the
 * ELF header (rust/orders-O1: orders.rs:36 at 0x14 and 0x1c, in a dropped Option::copied)
 */
static void drop_dead_runs(struct debuginfo *dbg, Dwarf_Addr bias, struct runs *rs)
{
	size_t n = 0;

	for (size_t i = 0; i < rs->nr; i++)
		if (funcs_code_is_live(dbg, rs->v[i].addr + bias))
			rs->v[n++] = rs->v[i];
	rs->nr = n;
}

/*
 * A function's entry: as perf probe does, the rows at a function's first address (its "{",
 * the first statements an optimizer moved there) count as the function's declaration line,
 * so FUNC:0 is the entry and the lines after it are where the body really starts.
 */
struct entries {
	struct entry {
		Dwarf_Addr addr;
		int line;
	} *v;
	size_t nr, alloc;
};

static void entry_add(struct entries *es, Dwarf_Die *die, int line)
{
	Dwarf_Addr pc;

	if (!line && (dwarf_decl_line(die, &line) || line <= 0))
		return;
	if (dwarf_entrypc(die, &pc))
		return;
	ALLOC_GROW(es->v, es->nr + 1, es->alloc);
	es->v[es->nr++] = (struct entry){ .addr = pc, .line = line };
}

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * relabel_entries() - for each entry, the row at its address with the smallest line not
 * before the declaration ("{" at -O0; the first body line at -O2) is relabelled to the
 * declaration line; other rows there keep their lines (an inlined callee's, moved code).
 * Return: per-row new line or 0, or NULL when there is nothing to relabel.
 */
static int *relabel_entries(Dwarf_Lines *lines, size_t nlines, struct file_match *m,
			    struct entries *es)
{
	int *relabel = NULL;
	size_t g = 0;

	if (!es || !es->nr)
		return NULL;
	if (es->nr > 1)
		qsort(es->v, es->nr, sizeof(*es->v), cmp_entry);
	while (g < nlines) {
		Dwarf_Addr addr, a2;
		struct entry key, *e;
		size_t h = g + 1;

		if (dwarf_lineaddr(dwarf_onesrcline(lines, g), &addr)) {
			g++;
			continue;
		}
		while (h < nlines && !dwarf_lineaddr(dwarf_onesrcline(lines, h), &a2) && a2 == addr)
			h++;
		key.addr = addr;
		e = bsearch(&key, es->v, es->nr, sizeof(*es->v), cmp_entry);
		while (e && e > es->v && e[-1].addr == addr)
			e--;
		for (; e && e < es->v + es->nr && e->addr == addr; e++) {
			size_t best = SIZE_MAX;
			int best_line = 0;

			for (size_t i = g; i < h; i++) {
				Dwarf_Line *l = dwarf_onesrcline(lines, i);
				bool end = false;
				int ln;

				if (dwarf_lineno(l, &ln) || ln < e->line ||
				    (best != SIZE_MAX && ln >= best_line))
					continue;
				if (dwarf_lineendsequence(l, &end) || end ||
				    !file_matches(m, dwarf_linesrc(l, NULL, NULL)))
					continue;
				best = i;
				best_line = ln;
			}
			if (best == SIZE_MAX || best_line == e->line)
				continue;
			if (!relabel)
				relabel = xcalloc(nlines, sizeof(*relabel));
			relabel[best] = e->line;
		}
		g = h;
	}
	return relabel;
}

/* cu_entries() - the entries of the functions (and inlined copies) declared in a file @m
 * matches */
static void cu_entries(Dwarf_Die *parent, struct file_match *m, struct entries *es)
{
	Dwarf_Die child;

	if (dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			if (file_matches(m, dwarf_decl_file(&child)))
				entry_add(es, &child, 0);
		}
		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_module:
			cu_entries(&child, m, es);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

/*
 * collect_runs() - the runs of the CU @cu's line table for files @m matches, restricted to
 * @rg (NULL: the whole CU); @es: function entries (see relabel_entries())
 */
static int collect_runs(Dwarf_Die *cu, struct file_match *m, const struct ranges *rg,
			struct entries *es, struct runs *rs)
{
	Dwarf_Lines *lines;
	size_t nlines;
	bool open = false, have_stmt = false;
	int cur_line = -1;
	const char *cur_file = NULL;
	uint64_t cur_addr = 0;
	int *relabel;

	if (dwarf_getsrclines(cu, &lines, &nlines) != 0)
		return -ENOENT;
	relabel = relabel_entries(lines, nlines, m, es);

#define CLOSE_RUN(at, known)                                              \
	do {                                                              \
		if (open && have_stmt)                                    \
			run_add(rs, cur_addr, cur_line, cur_file,         \
				(known) && (at) == cur_addr);             \
		open = false;                                             \
		have_stmt = false;                                        \
	} while (0)

	for (size_t i = 0; i < nlines; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr addr;
		bool end = false, stmt = false;
		int lineno = 0;
		const char *src;

		if (!l || dwarf_lineaddr(l, &addr) || dwarf_lineno(l, &lineno))
			continue;
		dwarf_lineendsequence(l, &end);
		if (end || !in_ranges(rg, addr)) {
			CLOSE_RUN(addr, true);
			continue;
		}
		dwarf_linebeginstatement(l, &stmt);
		src = dwarf_linesrc(l, NULL, NULL);
		if (!file_matches(m, src)) {
			CLOSE_RUN(addr, true);
			continue;
		}
		if (relabel && relabel[i])
			lineno = relabel[i];
		if (open && lineno == cur_line) {
			if (!have_stmt && stmt) {
				have_stmt = true;
				cur_addr = addr;
			}
			continue;
		}
		CLOSE_RUN(addr, true);
		open = true;
		cur_line = lineno;
		cur_file = src;
		have_stmt = stmt;
		cur_addr = addr;
	}
	CLOSE_RUN(0, false);
#undef CLOSE_RUN
	free(relabel);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_line_addr(const void *a, const void *b)
{
	const struct line_addr *x = a, *y = b;

	return cmp_u64(&x->vaddr, &y->vaddr);
}

/* nearest() - the closest lines before and after @line that have a run (0: none) */
static void nearest(const struct runs *rs, long line, int *before, int *after)
{
	*before = 0;
	*after = 0;
	for (size_t i = 0; i < rs->nr; i++) {
		int l = rs->v[i].line;

		if (l < line && l > *before)
			*before = l;
		if (l > line && (!*after || l < *after))
			*after = l;
	}
}

/* runs_to_addrs() - the runs of @line as line_addrs (sorted, unique), with @bias added */
static size_t runs_to_addrs(const struct runs *rs, long line, Dwarf_Addr bias,
			    struct line_addr **out)
{
	struct line_addr *la = NULL;
	size_t nr = 0, alloc = 0, n = 0;

	for (size_t i = 0; i < rs->nr; i++) {
		if (rs->v[i].line != line)
			continue;
		ALLOC_GROW(la, nr + 1, alloc);
		la[nr].vaddr = rs->v[i].addr + bias;
		la[nr].file = normalize_path(rs->v[i].file);
		la[nr].line = (int)line;
		nr++;
	}
	if (!nr)
		return 0;
	if (nr > 1)
		qsort(la, nr, sizeof(*la), cmp_line_addr);
	for (size_t i = 0; i < nr; i++) {
		if (n && la[n - 1].vaddr == la[i].vaddr) {
			free(la[i].file);
			continue;
		}
		la[n++] = la[i];
	}
	*out = la;
	return n;
}

void line_addrs_free(struct line_addr *la, size_t nr)
{
	if (!la)
		return;
	for (size_t i = 0; i < nr; i++)
		free(la[i].file);
	free(la);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * func_decl() - a function's first line and its file (for inlined copies: the origin's).
 * Go before 1.20 gives no DW_AT_decl_line for functions: the line of the row at the entry
 * (Go's "func" line) stands in for it.
 */
static int func_decl(Dwarf_Die *func_die, int *decl_line, const char **decl_file,
		     struct diag *d)
{
	Dwarf_Addr pc;
	char *name;
	Dwarf_Line *row;
	Dwarf_Die cu;

	*decl_file = dwarf_decl_file(func_die);
	if (dwarf_decl_line(func_die, decl_line) != 0 || *decl_line <= 0) {
		*decl_line = 0;
		if (dwarf_entrypc(func_die, &pc) == 0 && dwarf_diecu(func_die, &cu, NULL, NULL) &&
		    (row = dwarf_getsrc_die(&cu, pc)) && dwarf_lineno(row, decl_line) == 0) {
			const char *src = dwarf_linesrc(row, NULL, NULL);

			if (!*decl_file)
				*decl_file = src;
			else if (!src || strcmp(base_name(src), base_name(*decl_file)))
				*decl_line = 0;
		}
	}
	if (*decl_line > 0 && *decl_file)
		return 0;
	name = die_func_name(func_die);
	if (*decl_line <= 0)
		diag_error(d, SPAN_NONE, "the debug information has no line for '%s'", name ?: "?");
	else
		diag_error(d, SPAN_NONE, "the debug information has no source file for '%s'",
			   name ?: "?");
	free(name);
	return -ENOENT;
}

/* inlined_ranges() - the ranges of every inlined copy nested in @die */
static void inlined_ranges(Dwarf_Die *die, struct ranges *rg)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_inlined_subroutine)
			die_ranges(&child, rg);
		else if (tag == DW_TAG_lexical_block)
			inlined_ranges(&child, rg);
	} while (dwarf_siblingof(&child, &child) == 0);
}

/*
 * own_last_line() - the last line of a function's file that has code of its own: rows that
 * cover at least one byte (not the zero-length rows optimizers leave at a block's start),
 * inside @rg and outside the inlined copies in @inl
 */
static int own_last_line(Dwarf_Die *cu, struct file_match *m, const struct ranges *rg,
			 const struct ranges *inl)
{
	Dwarf_Lines *lines;
	size_t nlines;
	int last = 0;

	if (dwarf_getsrclines(cu, &lines, &nlines) != 0)
		return 0;
	for (size_t i = 0; i + 1 < nlines; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr addr, next;
		bool end = false;
		int ln;

		if (dwarf_lineaddr(l, &addr) || dwarf_lineno(l, &ln) ||
		    dwarf_lineaddr(dwarf_onesrcline(lines, i + 1), &next))
			continue;
		if (next <= addr || ln <= last || dwarf_lineendsequence(l, &end) || end)
			continue;
		if (!in_ranges(rg, addr) || (inl->nr && in_ranges(inl, addr)))
			continue;
		if (file_matches(m, dwarf_linesrc(l, NULL, NULL)))
			last = ln;
	}
	return last;
}

/*
 * func_runs() - the runs of @func_die's own lines inside its ranges: lines of its file from
 * its first line @decl_line to its last line with code of its own
 */
static int func_runs(Dwarf_Die *func_die, const char *decl_file, int decl_line,
		     struct runs *rs)
{
	struct file_match m = { .pattern = NULL, .both_ways = true };
	struct ranges rg = { 0 }, inl = { 0 };
	struct entries es = { 0 };
	size_t first = rs->nr, n;
	int ret, last;
	Dwarf_Die cu;
	char *norm;

	if (!dwarf_diecu(func_die, &cu, NULL, NULL))
		return -ENOENT;
	if (die_ranges(func_die, &rg) < 0 || !rg.nr) {
		free(rg.r);
		return -ENOENT;
	}
	norm = normalize_path(decl_file);
	m.pattern = norm;
	entry_add(&es, func_die, decl_line);
	ret = collect_runs(&cu, &m, &rg, &es, rs);
	inlined_ranges(func_die, &inl);
	m.last = NULL;
	last = own_last_line(&cu, &m, &rg, &inl);
	if (last < decl_line)
		last = INT_MAX;
	for (size_t i = n = first; i < rs->nr; i++)
		if (rs->v[i].line >= decl_line && rs->v[i].line <= last)
			rs->v[n++] = rs->v[i];
	rs->nr = n;
	free(inl.r);
	free(es.v);
	free(norm);
	free(rg.r);
	return ret;
}

/* lines_for_func() for a function named @name (in messages) */
static int func_lines(struct debuginfo *dbg, Dwarf_Die *func_die, const char *name, long rel,
		      struct line_addr **out, size_t *nr, struct diag *d)
{
	const char *decl_file;
	struct runs rs = { 0 };
	Dwarf_Addr bias = 0, entry;
	int decl_line, before, after, ret;
	long line;

	*out = NULL;
	*nr = 0;
	if (!debuginfo_dwarf(dbg, &bias)) {
		diag_error(d, SPAN_NONE, "no debug information for source lines");
		return -ENOENT;
	}
	if (rel < 0) {
		diag_error(d, SPAN_NONE, "line %ld of '%s' is before the function", rel, name);
		return -EINVAL;
	}
	ret = func_decl(func_die, &decl_line, &decl_file, d);
	if (ret)
		return ret;
	line = decl_line + rel;
	ret = func_runs(func_die, decl_file, decl_line, &rs);
	if (ret) {
		free(rs.v);
		diag_error(d, SPAN_NONE, "no line table for '%s'", name);
		return -ENOENT;
	}
	drop_empty_runs(debuginfo_dwarf(dbg, &bias), &rs);
	*nr = runs_to_addrs(&rs, line, bias, out);
	if (*nr > 1 && rel == 0 && dwarf_entrypc(func_die, &entry) == 0) {
		/* FUNC:0 is the entry; Go also gives its "func" line to the stack-growth call
		 * at the function's end */
		for (size_t i = 0; i < *nr; i++)
			if ((*out)[i].vaddr == entry + bias) {
				struct line_addr keep = (*out)[i];

				(*out)[i].file = NULL;
				line_addrs_free(*out, *nr);
				*out = xmalloc(sizeof(**out));
				**out = keep;
				*nr = 1;
				break;
			}
	}
	if (*nr) {
		pr_debug("%s:%ld (%s:%ld): %zu address(es)", name, rel, base_name(decl_file), line,
			 *nr);
		free(rs.v);
		return 0;
	}
	nearest(&rs, line, &before, &after);
	free(rs.v);
	diag_error(d, SPAN_NONE, "line %ld of '%s' (%s:%ld) has no code", rel, name,
		   base_name(decl_file), line);
	if (before && after)
		diag_hint(d, "nearest lines with code: %s:%ld and %s:%ld", name,
			  (long)before - decl_line, name, (long)after - decl_line);
	else if (before || after)
		diag_hint(d, "nearest line with code: %s:%ld", name,
			  (long)(before ? before : after) - decl_line);
	else
		diag_hint(d, "the function has no line information");
	return -ENOENT;
}

int lines_for_func(struct debuginfo *dbg, Dwarf_Die *func_die, long rel, struct line_addr **out,
		   size_t *nr, struct diag *d)
{
	char *name = die_func_name(func_die);
	int ret = func_lines(dbg, func_die, name ?: "?", rel, out, nr, d);

	free(name);
	return ret;
}

/* The distinct files that a tail matches, to report an ambiguous SRCFILE. */
struct name_set {
	char **v;
	size_t nr, alloc;
};

static void name_set_add(struct name_set *ns, const char *name)
{
	char *norm = normalize_path(name);

	for (size_t i = 0; i < ns->nr; i++)
		if (!strcmp(ns->v[i], norm)) {
			free(norm);
			return;
		}
	ALLOC_GROW(ns->v, ns->nr + 1, ns->alloc);
	ns->v[ns->nr++] = norm;
}

static void name_set_free(struct name_set *ns)
{
	for (size_t i = 0; i < ns->nr; i++)
		free(ns->v[i]);
	free(ns->v);
}

/*
 * file_runs() - the runs of every CU for the files whose name ends in @file; @names gets the
 * distinct matching file names (more than one: ambiguous)
 */
static int file_runs(Dwarf *dw, const char *file, struct runs *rs, struct name_set *names)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie;
	uint8_t unit_type;
	Dwarf_Half version;
	char *pattern = normalize_path(file);
	struct entries es = { 0 };

	while (dwarf_get_units(dw, cu, &cu, &version, &unit_type, &cudie, &subdie) == 0) {
		struct file_match m = { .pattern = pattern };
		Dwarf_Files *files;
		size_t nfiles, before = rs->nr;
		bool any = false;

		if (unit_type == DW_UT_skeleton)
			cudie = subdie;
		if (dwarf_tag(&cudie) != DW_TAG_compile_unit && dwarf_tag(&cudie) != DW_TAG_partial_unit)
			continue;
		/* the file table is cheap to check before walking the rows */
		if (dwarf_getsrcfiles(&cudie, &files, &nfiles) != 0)
			continue;
		for (size_t i = 0; i < nfiles; i++)
			if (file_matches(&m, dwarf_filesrc(files, i, NULL, NULL)))
				any = true;
		if (!any)
			continue;
		es.nr = 0;
		cu_entries(&cudie, &m, &es);
		collect_runs(&cudie, &m, NULL, &es, rs);
		for (size_t i = before; i < rs->nr; i++)
			name_set_add(names, rs->v[i].file);
	}
	free(es.v);
	free(pattern);
	return 0;
}

int lines_for_file(struct debuginfo *dbg, const char *file, long line, struct line_addr **out,
		   size_t *nr, struct diag *d)
{
	struct name_set names = { 0 };
	struct runs rs = { 0 };
	Dwarf_Addr bias = 0;
	int before, after;
	Dwarf *dw;

	*out = NULL;
	*nr = 0;
	dw = debuginfo_dwarf(dbg, &bias);
	if (!dw) {
		diag_error(d, SPAN_NONE, "no debug information for source lines");
		return -ENOENT;
	}
	file_runs(dw, file, &rs, &names);
	if (!names.nr) {
		free(rs.v);
		diag_error(d, SPAN_NONE, "no source file '%s' in the debug information", file);
		return -ENOENT;
	}
	if (names.nr > 1) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; i < names.nr && i < 10; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "", names.v[i]);
		if (names.nr > 10)
			strbuf_addf(&sb, ", ... (%zu in all)", names.nr);
		diag_error(d, SPAN_NONE, "source file '%s' is ambiguous", file);
		diag_hint(d, "matches %s", strbuf_cstr(&sb));
		strbuf_release(&sb);
		name_set_free(&names);
		free(rs.v);
		return -EINVAL;
	}
	drop_dead_runs(dbg, bias, &rs);
	drop_empty_runs(dw, &rs);
	*nr = runs_to_addrs(&rs, line, bias, out);
	if (*nr) {
		pr_debug("%s:%ld: %zu address(es)", names.v[0], line, *nr);
		name_set_free(&names);
		free(rs.v);
		return 0;
	}
	nearest(&rs, line, &before, &after);
	diag_error(d, SPAN_NONE, "line %ld of %s has no code", line, names.v[0]);
	if (before && after)
		diag_hint(d, "nearest lines with code: %d and %d", before, after);
	else if (before || after)
		diag_hint(d, "nearest line with code: %d", before ? before : after);
	name_set_free(&names);
	free(rs.v);
	return -ENOENT;
}

/* ---- -L ---- */

static bool looks_like_file(const char *s, size_t len)
{
	const char *slash = memrchr(s, '/', len), *last = slash ? slash + 1 : s;
	size_t llen = len - (size_t)(last - s);

	if (has_source_ext(s, len))
		return true;
	/*
	 * A path without a source extension ("/usr/include/c++/12/vector") is a file; a Go
	 * function has its import path's slashes too, but a '.' or '(' in its last part:
	 * "github.com/spf13/cobra.(*Command).Execute", "example.com/orders/store.Lookup".
	 */
	return slash && !memchr(last, '.', llen) && !memchr(last, '(', llen);
}

/* The largest line number -L takes: DWARF's are 32-bit, so is the kernel's idea of a file. */
#define MAX_LINE INT_MAX

/* one number of a range: digits, at most MAX_LINE (never strtol's saturated LONG_MAX) */
static int range_number(const char *s, char **end, long *out)
{
	errno = 0;
	*out = strtol(s, end, 10);
	return errno || *out > MAX_LINE ? -ERANGE : 0;
}

/*
 * parse_range() - "N", "N-M", "N+C" after the last ':'
 * Return: 1 for a range in [@start, @end], 0 when @s is not a range, -ERANGE for a number or
 * an end past MAX_LINE.
 */
static int parse_range(const char *s, long *start, long *end)
{
	char *p;
	long n;

	if (!isdigit((unsigned char)*s))
		return 0;
	if (range_number(s, &p, start))
		return -ERANGE;
	*end = -1;
	if (!*p) {
		*end = *start;
		return 1;
	}
	if ((*p == '-' || *p == '+') && isdigit((unsigned char)p[1])) {
		char op = *p;

		if (range_number(p + 1, &p, &n))
			return -ERANGE;
		if (*p)
			return 0;
		*end = op == '-' ? n : *start + n;
		if (*end > MAX_LINE)
			return -ERANGE;
		return *end >= *start;
	}
	return 0;
}

/* A source file in memory, split into lines. */
struct source {
	char *text;
	char **line;		/* line[1..nr] */
	size_t nr;
};

static void source_release(struct source *src)
{
	free(src->text);
	free(src->line);
}

/* a source file, opened as the user who ran sudo (run_as_invoker_open()); NULL with errno */
static FILE *source_open(const char *path, struct diag *d)
{
	int fd = run_as_invoker_open(path, O_RDONLY | O_CLOEXEC, 0, NULL, d);
	FILE *f;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

/* source_read() - @path, or when it is not on disk the copy a debuginfod server has of the
 * source of @build_id (remote.h) */
static int source_read(const char *path, const char *build_id, struct source *src,
		       struct diag *d)
{
	struct strbuf why = STRBUF_INIT;
	size_t alloc = 0, len = 0;
	char buf[65536], *local = NULL;
	FILE *f;
	char *p;

	memset(src, 0, sizeof(*src));
	/* under sudo with the user's rights: a binary's DWARF may name any file (/etc/shadow) */
	f = source_open(path, d);
	if (!f && errno == ENOENT && !remote_find_source(build_id, path, &local, &why))
		f = source_open(local, d);
	free(local);
	if (!f && diag_has_error(d))
		return -EINVAL;
	if (!f) {
		int err = errno;

		diag_error(d, SPAN_NONE, "cannot read the source file: %s", strerror(err));
		diag_hint(d, "looked at %s (the path the debug information gives)%s%s", path,
			  why.len ? ", " : "", why.buf ? why.buf : "");
		strbuf_release(&why);
		return -err;
	}
	strbuf_release(&why);
	for (;;) {
		size_t n = fread(buf, 1, sizeof(buf), f);

		if (!n)
			break;
		ALLOC_GROW(src->text, len + n + 1, alloc);
		memcpy(src->text + len, buf, n);
		len += n;
	}
	fclose(f);
	if (!src->text)
		src->text = xstrdup("");
	src->text[len] = '\0';
	alloc = 0;
	ALLOC_GROW(src->line, 2, alloc);
	src->line[0] = NULL;
	for (p = src->text; p < src->text + len;) {
		char *nl = memchr(p, '\n', (size_t)(src->text + len - p));

		ALLOC_GROW(src->line, src->nr + 2, alloc);
		src->line[++src->nr] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	return 0;
}

/*
 * add_source_line() - one line as perf probe -L prints it: control bytes (but tabs) and bytes
 * that are not UTF-8 escaped; quotes and backslashes are source text, shown as they are
 */
static void add_source_line(struct strbuf *out, const char *text)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, "\t");

		escape_name_n(out, p, n);
		p += n;
		if (*p) {
			strbuf_addch(out, *p);
			p++;
		}
	}
	strbuf_addch(out, '\n');
}

static bool runs_have_line(const struct runs *rs, long line)
{
	for (size_t i = 0; i < rs->nr; i++)
		if (rs->v[i].line == line)
			return true;
	return false;
}

static long runs_max_line(const struct runs *rs)
{
	long m = 0;

	for (size_t i = 0; i < rs->nr; i++)
		if (rs->v[i].line > m)
			m = rs->v[i].line;
	return m;
}

/* How many lines perf probe -L shows after a function's last line with code. */
#define TRAILING_LINES 3

/*
 * show() - lines [@first, @last] of @path, numbered (@line - @origin) where @rs has code;
 * @last < 0: through the last line with code plus TRAILING_LINES
 */
static int show(struct debuginfo *dbg, const char *header_name, const char *path, long origin,
		long first, long last, const struct runs *rs, struct strbuf *out, struct diag *d)
{
	struct source src;
	int ret;

	ret = source_read(path, debuginfo_build_id(dbg), &src, d);
	if (ret)
		return ret;
	if (last < 0)
		last = runs_max_line(rs) + TRAILING_LINES;
	if (first < 1)
		first = 1;
	if (last > (long)src.nr)
		last = (long)src.nr;
	if (first > (long)src.nr) {
		diag_error(d, SPAN_NONE, "%s has only %zu lines", path, src.nr);
		source_release(&src);
		return -ERANGE;
	}
	/* the name is the user's, the path the binary's: escaped like the lines */
	strbuf_addch(out, '<');
	if (header_name) {
		escape_name(out, header_name);
		strbuf_addch(out, '@');
	}
	escape_name(out, path);
	strbuf_addf(out, ":%ld>\n", header_name ? first - origin : first);
	for (long l = first; l <= last; l++) {
		if (runs_have_line(rs, l))
			strbuf_addf(out, "%7ld  ", l - origin);
		else
			strbuf_addstr(out, "         ");
		add_source_line(out, src.line[l]);
	}
	source_release(&src);
	return 0;
}

static int show_func(struct debuginfo *dbg, const char *name, bool has_range, long rstart,
		     long rend, struct strbuf *out, struct diag *d)
{
	const char *decl_file = NULL;
	struct runs rs = { 0 };
	struct func *funcs = NULL;
	size_t nfuncs = 0, pick = SIZE_MAX;
	int decl_line = 0, ret;
	char *path;

	ret = funcs_find(dbg, name, &funcs, &nfuncs, d);
	if (ret)
		return ret;
	/* the out-of-line copy names the function best; inlined copies add their lines */
	for (size_t i = 0; i < nfuncs; i++)
		if (funcs[i].has_die && (pick == SIZE_MAX || (funcs[pick].inlined &&
							      !funcs[i].inlined)))
			pick = i;
	if (pick == SIZE_MAX) {
		diag_error(d, SPAN_NONE, "no debug information for '%s'", name);
		funcs_free(funcs, nfuncs);
		return -ENOENT;
	}
	ret = func_decl(&funcs[pick].die, &decl_line, &decl_file, d);
	if (ret) {
		funcs_free(funcs, nfuncs);
		return ret;
	}
	path = normalize_path(decl_file);
	for (size_t i = 0; i < nfuncs; i++) {
		struct diag d2;
		const char *f2;
		int l2;

		if (!funcs[i].has_die)
			continue;
		diag_init(&d2, NULL);
		ret = func_decl(&funcs[i].die, &l2, &f2, &d2);
		diag_release(&d2);
		if (ret || l2 != decl_line || strcmp(base_name(f2), base_name(path)))
			continue;
		func_runs(&funcs[i].die, f2, l2, &rs);
	}
	if (has_range)
		ret = show(dbg, name, path, decl_line, decl_line + rstart, decl_line + rend, &rs,
			   out, d);
	else
		ret = show(dbg, name, path, decl_line, decl_line, -1, &rs, out, d);
	free(path);
	free(rs.v);
	funcs_free(funcs, nfuncs);
	return ret;
}

static int show_file(struct debuginfo *dbg, const char *file, bool has_range, long start,
		     long end, struct strbuf *out, struct diag *d)
{
	struct name_set names = { 0 };
	struct runs rs = { 0 };
	Dwarf_Addr bias;
	Dwarf *dw;
	int ret;

	dw = debuginfo_dwarf(dbg, &bias);
	if (!dw) {
		diag_error(d, SPAN_NONE, "no debug information for source lines");
		return -ENOENT;
	}
	file_runs(dw, file, &rs, &names);
	if (names.nr != 1) {
		if (!names.nr) {
			diag_error(d, SPAN_NONE, "no source file '%s' in the debug information", file);
			ret = -ENOENT;
		} else {
			diag_error(d, SPAN_NONE, "source file '%s' is ambiguous", file);
			for (size_t i = 0; i < names.nr && i < 10; i++)
				diag_hint(d, "%s", names.v[i]);
			ret = -EINVAL;
		}
		name_set_free(&names);
		free(rs.v);
		return ret;
	}
	if (!has_range) {
		start = 1;
		end = LONG_MAX;
	}
	ret = show(dbg, NULL, names.v[0], 0, start, end, &rs, out, d);
	name_set_free(&names);
	free(rs.v);
	return ret;
}

int lines_show(struct debuginfo *dbg, const char *place, struct strbuf *out, struct diag *d)
{
	const char *colon = strrchr(place, ':');
	bool has_range = false;
	long start = 0, end = 0;
	size_t len = strlen(place);
	char *name;
	int ret;

	ret = colon ? parse_range(colon + 1, &start, &end) : 0;
	if (ret < 0)
		return diag_error(d, SPAN_NONE, "line range '%s' is out of range (lines are "
				  "numbered up to %d)", colon + 1, MAX_LINE);
	if (ret > 0) {
		has_range = true;
		len = (size_t)(colon - place);
	} else if (colon && colon > place && colon[-1] != ':' && colon[1] != ':' &&
		   isdigit((unsigned char)colon[1])) {
		return diag_error(d, SPAN_NONE, "bad line range '%s' (want N, N-M or N+COUNT)",
				  colon + 1);
	}
	if (!len)
		return diag_error(d, SPAN_NONE, "-L wants FUNC[:RANGE] or SRCFILE[:RANGE]");
	ret = debuginfo_require_dwarf(dbg, d);	/* the places looked in, debuginfod's answer */
	if (ret)
		return ret;
	name = xstrndup(place, len);
	if (looks_like_file(name, len)) {
		ret = show_file(dbg, name, has_range, start, end, out, d);
	} else {
		/* FUNC@SRCFILE: the function is looked up by name; the file is for humans */
		char *at = strchr(name, '@');

		if (at)
			*at = '\0';
		ret = show_func(dbg, name, has_range, start, end, out, d);
	}
	free(name);
	return ret;
}
