// SPDX-License-Identifier: GPL-2.0-or-later
/* type-complete.c - a declared struct or class completed from its definition, by qualified name */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#define LOG_DOMAIN "types"
#include "lang.h"
#include "log.h"
#include "type-complete.h"
#include "type-index.h"

struct tc_file {
	struct type_index *ti;
	char *name;
};

struct tc_source {
	char *name;
	int (*open)(void *arg);
	void *arg;
	bool tried;
	bool failed;	/* tried, and no DWARF */
};

/* What a declaration DIE (by its address in the mapped DWARF) was completed with. */
struct tc_memo {
	const void *addr;
	Dwarf_Die def;
	bool found;
};

/*
 * One table for the process: lang_strip() has no context to carry it, and a DIE names its
 * file (dwarf_cu_getdwarf()). Used from the resolving thread only.
 */
static struct {
	struct tc_file *files;
	size_t nr, alloc;
	struct tc_source *srcs;
	size_t nr_srcs, alloc_srcs;
	struct tc_memo *memo;	/* open addressing, cap a power of two */
	size_t memo_nr, memo_cap;
} tc;

static void memo_clear(bool negative_only)
{
	size_t cap = tc.memo_cap;
	struct tc_memo *old = tc.memo;

	tc.memo = NULL;
	tc.memo_nr = tc.memo_cap = 0;
	if (!negative_only) {
		free(old);
		return;
	}
	/* keep what was found: a file added later does not change it */
	for (size_t i = 0; i < cap; i++) {
		if (!old[i].addr || !old[i].found)
			continue;
		if (!tc.memo_cap) {
			tc.memo_cap = cap;
			tc.memo = xcalloc(cap, sizeof(*tc.memo));
		}
		for (size_t j = ((uintptr_t)old[i].addr >> 4) & (cap - 1);; j = (j + 1) & (cap - 1)) {
			if (!tc.memo[j].addr) {
				tc.memo[j] = old[i];
				tc.memo_nr++;
				break;
			}
		}
	}
	free(old);
}

static struct tc_memo *memo_slot(const void *addr)
{
	size_t i;

	if (!tc.memo_cap)
		return NULL;
	for (i = ((uintptr_t)addr >> 4) & (tc.memo_cap - 1); tc.memo[i].addr;
	     i = (i + 1) & (tc.memo_cap - 1))
		if (tc.memo[i].addr == addr)
			return &tc.memo[i];
	return &tc.memo[i];
}

static void memo_put(const void *addr, bool found, Dwarf_Die *def)
{
	struct tc_memo *m;

	if (tc.memo_nr * 2 >= tc.memo_cap) {
		struct tc_memo *old = tc.memo;
		size_t cap = tc.memo_cap;

		tc.memo_cap = cap ? cap * 2 : 64;
		tc.memo = xcalloc(tc.memo_cap, sizeof(*tc.memo));
		tc.memo_nr = 0;
		for (size_t i = 0; i < cap; i++)
			if (old[i].addr)
				memo_put(old[i].addr, old[i].found, &old[i].def);
		free(old);
	}
	m = memo_slot(addr);
	if (!m->addr)
		tc.memo_nr++;
	m->addr = addr;
	m->found = found;
	if (found)
		m->def = *def;
}

void type_complete_add(struct type_index *ti, const char *name)
{
	lang_set_completer(type_complete);
	ALLOC_GROW(tc.files, tc.nr + 1, tc.alloc);
	tc.files[tc.nr].ti = ti;
	tc.files[tc.nr++].name = xstrdup(name);
	memo_clear(true);
}

void type_complete_remove(struct type_index *ti)
{
	for (size_t i = 0; ti && i < tc.nr; i++) {
		if (tc.files[i].ti != ti)
			continue;
		free(tc.files[i].name);
		memmove(&tc.files[i], &tc.files[i + 1], (tc.nr - i - 1) * sizeof(*tc.files));
		tc.nr--;
		memo_clear(false);
		return;
	}
}

void type_complete_add_source(const char *name, int (*open)(void *arg), void *arg)
{
	ALLOC_GROW(tc.srcs, tc.nr_srcs + 1, tc.alloc_srcs);
	tc.srcs[tc.nr_srcs++] = (struct tc_source){ xstrdup(name), open, arg, false, false };
	memo_clear(true);
}

void type_complete_remove_source(void *arg)
{
	for (size_t i = 0; i < tc.nr_srcs; i++) {
		if (tc.srcs[i].arg != arg)
			continue;
		free(tc.srcs[i].name);
		memmove(&tc.srcs[i], &tc.srcs[i + 1], (tc.nr_srcs - i - 1) * sizeof(*tc.srcs));
		tc.nr_srcs--;
		return;
	}
}

/* The tag a definition of @tag is looked up with (a class may be defined as a struct). */
static int def_tag(int tag)
{
	return tag == DW_TAG_class_type ? DW_TAG_structure_type : tag;
}

static bool tag_completes(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	       tag == DW_TAG_union_type || tag == DW_TAG_enumeration_type;
}

/* @decl's name as its file's type index keys it, and its unit; NULL when it has none. */
static char *decl_name(Dwarf_Die *decl, Dwarf_Die *cu, bool *anon)
{
	Dwarf_Attribute attr;
	Dwarf_Word lang = 0;
	struct strbuf qn = STRBUF_INIT;

	if (!dwarf_diename(decl) || !dwarf_diecu(decl, cu, NULL, NULL))
		return NULL;
	if (dwarf_attr(cu, DW_AT_language, &attr))
		dwarf_formudata(&attr, &lang);
	if (!lang_nests_names((int)lang))
		return xstrdup(dwarf_diename(decl));
	strbuf_init(&qn);
	lang_c_type_name(decl, true, &qn);
	*anon = strstr(qn.buf, "(anonymous namespace)") != NULL;
	return strbuf_detach(&qn);
}

static bool own_file(const struct tc_file *f, Dwarf *dw)
{
	Dwarf *mine = type_index_dwarf(f->ti);

	return mine == dw || (mine && dwarf_getalt(mine) == dw);
}

/* Files [from, tc.nr) other than @dw's, in order. */
static bool find_other(size_t from, Dwarf *dw, const char *name, int tag, Dwarf_Die *out)
{
	for (size_t i = from; i < tc.nr; i++)
		if (!own_file(&tc.files[i], dw) &&
		    type_index_find_definition(tc.files[i].ti, name, tag, NULL, out))
			return true;
	return false;
}

/* The sources not opened yet, in order, until one defines @name. */
static bool find_in_sources(const char *name, int tag, Dwarf *dw, Dwarf_Die *out)
{
	for (size_t i = 0; i < tc.nr_srcs; i++) {
		size_t before = tc.nr;

		if (tc.srcs[i].tried)
			continue;
		tc.srcs[i].tried = true;
		pr_info("looking for %s: opening %s", name, tc.srcs[i].name);
		if (tc.srcs[i].open(tc.srcs[i].arg) != 0)
			tc.srcs[i].failed = true;
		else if (find_other(before, dw, name, tag, out))
			return true;
	}
	return false;
}

bool type_complete_find(const char *name, int tag, Dwarf *skip, Dwarf_Die *out)
{
	return find_other(0, skip, name, tag, out) || find_in_sources(name, tag, skip, out);
}

static bool lookup(Dwarf_Die *decl, Dwarf_Die *out)
{
	Dwarf *dw = dwarf_cu_getdwarf(decl->cu);
	int tag = def_tag(dwarf_tag(decl));
	bool anon = false, found = false;
	Dwarf_Die cu;
	char *name = decl_name(decl, &cu, &anon);
	size_t i;

	if (!name)
		return false;
	for (i = 0; i < tc.nr && !found; i++)
		if (own_file(&tc.files[i], dw))
			found = type_index_find_definition(tc.files[i].ti, name, tag,
							   anon ? &cu : NULL, out);
	if (!found && !anon)
		found = type_complete_find(name, tag, dw, out);
	pr_debug("declaration of %s %s", name, found ? "completed" : "has no definition");
	free(name);
	return found;
}

bool type_complete(Dwarf_Die *decl, Dwarf_Die *out)
{
	struct tc_memo *m;
	Dwarf_Die def;
	bool found;

	if (!tag_completes(dwarf_tag(decl)) || !dwarf_hasattr(decl, DW_AT_declaration))
		return false;
	m = memo_slot(decl->addr);
	if (m && m->addr) {
		if (m->found)
			*out = m->def;
		return m->found;
	}
	found = lookup(decl, &def);
	memo_put(decl->addr, found, &def);
	if (found)
		*out = def;
	return found;
}

bool type_complete_declared_only(Dwarf_Die *type, struct strbuf *why)
{
	Dwarf_Die t;
	size_t i;

	if (!tag_completes(lang_strip(type, &t)) || !dwarf_hasattr(&t, DW_AT_declaration))
		return false;
	strbuf_addch(why, '\'');
	lang_c_type_name(&t, lang_of_die(&t) != &lang_c, why);
	strbuf_addstr(why, "' is declared only; no definition in ");
	for (i = 0; i < tc.nr; i++)
		strbuf_addf(why, "%s%s", i ? ", " : "", tc.files[i].name);
	for (size_t j = 0; j < tc.nr_srcs; j++)
		if (tc.srcs[j].failed)
			strbuf_addf(why, "%s%s (no DWARF)", i++ ? ", " : "", tc.srcs[j].name);
	if (!i)
		strbuf_addstr(why, "the binary");
	return true;
}
