// SPDX-License-Identifier: GPL-2.0-or-later
/* type-index.c - every named type of a DWARF file by its qualified name, built once on use */
#include <ctype.h>
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#define LOG_DOMAIN "types"
#include "lang.h"
#include "log.h"
#include "type-index.h"

/* One named type: where its DIE is (in the file or in its dwz supplementary file). */
struct ti_ent {
	char *key;		/* canonical qualified name */
	Dwarf_Off off;
	Dwarf_Off cu_off;	/* its unit's DIE, to prefer the probe site's unit */
	int tag;
	bool alt;		/* in dwarf_getalt() */
	bool decl;		/* DW_AT_declaration: no members */
};

/* A pointer type by the DIE it points to (Dwarf_Die.addr is unique across both files). */
struct ti_ptr {
	const void *to;
	Dwarf_Off off;
	bool alt;
};

struct type_index {
	Dwarf *dw;
	Dwarf *alt;
	struct ti_ent *ents;
	size_t nr, alloc;
	struct ti_ptr *ptrs;
	size_t nr_ptrs, alloc_ptrs;
	bool built;
};

/* Nesting deeper than this is not a real program's namespaces. */
#define MAX_SCOPE_DEPTH 32

struct type_index *type_index_new(Dwarf *dw)
{
	struct type_index *ti = xcalloc(1, sizeof(*ti));

	ti->dw = dw;
	return ti;
}

void type_index_free(struct type_index *ti)
{
	if (!ti)
		return;
	for (size_t i = 0; i < ti->nr; i++)
		free(ti->ents[i].key);
	free(ti->ents);
	free(ti->ptrs);
	free(ti);
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

static const char *const int_words[] = {
	"signed", "unsigned", "char", "short", "int", "long", "float", "double",
};

static int int_word(const char *s, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(int_words); i++)
		if (strlen(int_words[i]) == n && !memcmp(s, int_words[i], n))
			return (int)i;
	return -1;
}

/* The words of a C integer or floating type, in the one order canon_ints() gives. */
static void canon_ints(const int *count, struct strbuf *out)
{
	const char *base;

	if (count[2]) {	/* char */
		strbuf_addstr(out, count[1] ? "unsigned char" : count[0] ? "signed char" : "char");
		return;
	}
	if (count[6]) {
		strbuf_addstr(out, "float");
		return;
	}
	if (count[7]) {
		strbuf_addstr(out, count[5] ? "long double" : "double");
		return;
	}
	base = count[3] ? "short" : count[5] == 1 ? "long" : count[5] >= 2 ? "long long" : "int";
	strbuf_addf(out, "%s%s", count[1] ? "unsigned " : "", base);
}

/*
 * A run of words "w1 w2 ..." at s[i..]: when every word is one of C's integer words, the
 * canonical spelling is appended and the run's end returned; else -1.
 */
static long canon_word_run(const char *s, size_t i, struct strbuf *out)
{
	int count[ARRAY_SIZE(int_words)] = { 0 };
	size_t j = i;

	for (;;) {
		size_t k = j;
		int w;

		while (is_ident(s[k]))
			k++;
		w = int_word(s + j, k - j);
		if (w < 0 || k == j)
			return -1;
		count[w]++;
		j = k;
		if (s[j] == ' ' && is_ident(s[j + 1])) {
			j++;
			continue;
		}
		break;
	}
	canon_ints(count, out);
	return (long)j;
}

char *type_name_canon(const char *name)
{
	struct strbuf blank = STRBUF_INIT, out = STRBUF_INIT;
	const char *s;
	size_t i;

	/* blanks only between identifier characters, one each */
	strbuf_init(&blank);
	for (s = name; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n') {
			while (s[1] == ' ' || s[1] == '\t' || s[1] == '\n')
				s++;
			if (blank.len && is_ident(blank.buf[blank.len - 1]) && is_ident(s[1]))
				strbuf_addch(&blank, ' ');
			continue;
		}
		strbuf_addch(&blank, *s);
	}
	/* runs of integer words, where a word starts (not "::long" inside a name) */
	strbuf_init(&out);
	s = blank.buf;
	for (i = 0; s[i];) {
		size_t save = out.len;
		long end = -1;

		if (is_ident(s[i]) && (i == 0 || !is_ident(s[i - 1])) &&
		    (i < 2 || s[i - 1] != ':' || s[i - 2] != ':') && (i == 0 || s[i - 1] != '.'))
			end = canon_word_run(s, i, &out);
		if (end >= 0 && !(s[end] == ':' && s[end + 1] == ':')) {
			i = (size_t)end;
			continue;
		}
		/* not a run of integer words, or "long::x": copy one name or character */
		out.len = save;
		if (out.buf)
			out.buf[save] = '\0';
		do
			strbuf_addch(&out, s[i++]);
		while (is_ident(s[i - 1]) && is_ident(s[i]));
	}
	strbuf_release(&blank);
	return strbuf_detach(&out);
}

static void add_ent(struct type_index *ti, const char *key, Dwarf_Die *die, Dwarf_Off cu_off,
		    int tag, bool alt)
{
	struct ti_ent *e;

	ALLOC_GROW(ti->ents, ti->nr + 1, ti->alloc);
	e = &ti->ents[ti->nr++];
	e->key = type_name_canon(key);
	e->off = dwarf_dieoffset(die);
	e->cu_off = cu_off;
	e->tag = tag;
	e->alt = alt;
	e->decl = dwarf_hasattr(die, DW_AT_declaration);
}

static void add_ptr(struct type_index *ti, Dwarf_Die *die, bool alt)
{
	Dwarf_Attribute attr;
	Dwarf_Die to;
	struct ti_ptr *p;

	if (!dwarf_attr(die, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &to))
		return;
	ALLOC_GROW(ti->ptrs, ti->nr_ptrs + 1, ti->alloc_ptrs);
	p = &ti->ptrs[ti->nr_ptrs++];
	p->to = to.addr;
	p->off = dwarf_dieoffset(die);
	p->alt = alt;
}

static bool is_type_tag(int tag)
{
	switch (tag) {
	case DW_TAG_base_type:
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
	case DW_TAG_typedef:
	case DW_TAG_pointer_type:
	case DW_TAG_unspecified_type:
	case DW_TAG_subroutine_type:
	case DW_TAG_array_type:
		return true;
	default:
		return false;
	}
}

/* Namespaces that C++ and Rust do not make people spell: libstdc++'s std::__cxx11::,
 * libc++'s std::__1:: (DW_AT_export_symbols in DWARF 5, not always emitted). */
static bool inline_namespace(Dwarf_Die *ns, const char *name)
{
	return dwarf_hasattr(ns, DW_AT_export_symbols) ||
	       (name && (!strcmp(name, "__cxx11") || !strcmp(name, "__1")));
}

struct walk {
	struct type_index *ti;
	Dwarf_Off cu_off;
	bool alt;
	bool nests;
};

static void walk_children(struct walk *w, Dwarf_Die *parent, const char *scope,
			  const char *vis, int depth);

/* A scope's name with @name appended ("ns::name"), or @name. */
static char *scoped(const char *scope, const char *name)
{
	return scope ? xasprintf("%s::%s", scope, name) : xstrdup(name);
}

static void walk_namespace(struct walk *w, Dwarf_Die *ns, const char *scope, const char *vis,
			   int depth)
{
	const char *n = dwarf_diename(ns);
	char *s = scoped(scope, n ? n : "(anonymous namespace)");
	char *v = inline_namespace(ns, n) ? (vis ? xstrdup(vis) : NULL)
					  : scoped(vis, n ? n : "(anonymous namespace)");

	walk_children(w, ns, s, v, depth + 1);
	free(s);
	free(v);
}

static void walk_type(struct walk *w, Dwarf_Die *die, int tag, const char *scope,
		      const char *vis, int depth)
{
	const char *n = dwarf_diename(die);
	char *key;

	if (tag == DW_TAG_pointer_type)
		add_ptr(w->ti, die, w->alt);
	if (!n)
		return;
	key = w->nests ? scoped(scope, n) : xstrdup(n);
	add_ent(w->ti, key, die, w->cu_off, tag, w->alt);
	if (w->nests && vis != scope && (!vis || !scope || strcmp(vis, scope))) {
		char *k2 = scoped(vis, n);

		add_ent(w->ti, k2, die, w->cu_off, tag, w->alt);
		free(k2);
	}
	/* C++ and Rust nest types in classes: "ns::Outer::Inner" */
	if (w->nests && (tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
			 tag == DW_TAG_union_type) && dwarf_haschildren(die)) {
		char *v = scoped(vis, n);

		walk_children(w, die, key, v, depth + 1);
		free(v);
	}
	free(key);
}

static void walk_children(struct walk *w, Dwarf_Die *parent, const char *scope,
			  const char *vis, int depth)
{
	Dwarf_Die c;

	if (depth > MAX_SCOPE_DEPTH || dwarf_child(parent, &c) != 0)
		return;
	do {
		int tag = dwarf_tag(&c);

		if (tag == DW_TAG_namespace && w->nests)
			walk_namespace(w, &c, scope, vis, depth);
		else if (is_type_tag(tag))
			walk_type(w, &c, tag, scope, vis, depth);
	} while (dwarf_siblingof(&c, &c) == 0);
}

static void walk_file(struct type_index *ti, Dwarf *dw, bool alt)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		struct walk w = { .ti = ti, .alt = alt };

		if (dwarf_offdie(dw, off + hsize, &cu)) {
			Dwarf_Attribute attr;
			Dwarf_Word lang = 0;

			/* a dwz partial unit may say no language: its names may nest (C++) */
			if (dwarf_attr(&cu, DW_AT_language, &attr) && !dwarf_formudata(&attr, &lang))
				w.nests = lang_nests_names((int)lang);
			else
				w.nests = dwarf_tag(&cu) == DW_TAG_partial_unit;
			w.cu_off = dwarf_dieoffset(&cu);
			walk_children(&w, &cu, NULL, NULL, 0);
		}
		off = next;
	}
}

static int ent_cmp(const void *a, const void *b)
{
	const struct ti_ent *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int ptr_cmp(const void *a, const void *b)
{
	const struct ti_ptr *x = a, *y = b;

	if (x->to != y->to)
		return (const char *)x->to < (const char *)y->to ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static void build(struct type_index *ti)
{
	uint64_t t0 = now_ns();

	if (ti->built)
		return;
	ti->built = true;
	walk_file(ti, ti->dw, false);
	ti->alt = dwarf_getalt(ti->dw);
	if (ti->alt)
		walk_file(ti, ti->alt, true);
	qsort(ti->ents, ti->nr, sizeof(*ti->ents), ent_cmp);
	qsort(ti->ptrs, ti->nr_ptrs, sizeof(*ti->ptrs), ptr_cmp);
	pr_info("type index: %zu names, %zu pointer types in %.1f ms", ti->nr, ti->nr_ptrs,
		(double)(now_ns() - t0) / 1e6);
}

size_t type_index_count(struct type_index *ti)
{
	build(ti);
	return ti->nr;
}

static bool ent_die(struct type_index *ti, const struct ti_ent *e, Dwarf_Die *out)
{
	return dwarf_offdie(e->alt ? ti->alt : ti->dw, e->off, out) != NULL;
}

static bool tag_fits(int want, int tag)
{
	if (!want)
		return true;
	if (want == DW_TAG_structure_type || want == DW_TAG_class_type)
		return tag == DW_TAG_structure_type || tag == DW_TAG_class_type;
	return want == tag;
}

/* The first entry of @key, or ti->nr. */
static size_t lower_bound(struct type_index *ti, const char *key)
{
	size_t lo = 0, hi = ti->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ti->ents[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Rank of a candidate: a definition in the site's unit first, then any definition, then a
 * typedef's or struct's declaration. Lower is better. */
static int rank(const struct ti_ent *e, Dwarf_Off cu_off)
{
	return (e->decl ? 2 : 0) + (e->cu_off == cu_off ? 0 : 1);
}

/* The best entry named @name (see rank()); with @def_only definitions only, in @cu only when
 * @cu_only (a unit's anonymous namespace is its own). */
static bool find(struct type_index *ti, const char *name, int tag, Dwarf_Die *cu, bool def_only,
		 bool cu_only, Dwarf_Die *out)
{
	char *key = type_name_canon(name);
	Dwarf_Off cu_off = cu ? dwarf_dieoffset(cu) : (Dwarf_Off)-1;
	bool cu_alt = cu && dwarf_cu_getdwarf(cu->cu) != ti->dw;
	const struct ti_ent *best = NULL;
	size_t i;

	build(ti);
	for (i = lower_bound(ti, key); i < ti->nr && !strcmp(ti->ents[i].key, key); i++) {
		const struct ti_ent *e = &ti->ents[i];

		if (!tag_fits(tag, e->tag) || (def_only && e->decl) ||
		    (cu_only && (e->cu_off != cu_off || e->alt != cu_alt)))
			continue;
		if (!best || rank(e, cu_off) < rank(best, cu_off))
			best = e;
	}
	free(key);
	return best && ent_die(ti, best, out);
}

bool type_index_find(struct type_index *ti, const char *name, int tag, Dwarf_Die *cu,
		     Dwarf_Die *out)
{
	return find(ti, name, tag, cu, false, false, out);
}

bool type_index_find_definition(struct type_index *ti, const char *name, int tag,
				Dwarf_Die *cu, Dwarf_Die *out)
{
	return find(ti, name, tag, cu, true, cu != NULL, out);
}

Dwarf *type_index_dwarf(const struct type_index *ti)
{
	return ti->dw;
}

bool type_index_pointer_to(struct type_index *ti, Dwarf_Die *to, Dwarf_Die *out)
{
	size_t lo = 0, hi;

	build(ti);
	hi = ti->nr_ptrs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((const char *)ti->ptrs[mid].to < (const char *)to->addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ti->nr_ptrs || ti->ptrs[lo].to != to->addr)
		return false;
	return dwarf_offdie(ti->ptrs[lo].alt ? ti->alt : ti->dw, ti->ptrs[lo].off, out) != NULL;
}

/* The last component of a qualified name: after the last "::" or '.' outside <> and (). */
static const char *last_component(const char *s)
{
	const char *last = s;
	int depth = 0;

	for (const char *p = s; *p; p++) {
		if (*p == '<' || *p == '(')
			depth++;
		else if ((*p == '>' || *p == ')') && depth)
			depth--;
		else if (!depth && *p == ':' && p[1] == ':')
			last = p + 2;
		else if (!depth && *p == '.' && p[1])
			last = p + 1;
	}
	return last;
}

struct cand {
	const char *key;
	int score;
};

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->score != y->score)
		return x->score - y->score;
	if (strlen(x->key) != strlen(y->key))
		return strlen(x->key) < strlen(y->key) ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* How much @key looks like the wanted last component @want (lower is closer), or -1. */
static int similarity(const char *key, const char *want)
{
	char lk[256], lw[256];
	const char *kl = last_component(key);
	size_t i;
	int d;

	if (strlen(kl) >= sizeof(lk) || strlen(want) >= sizeof(lw))
		return -1;
	for (i = 0; kl[i]; i++)
		lk[i] = (char)tolower((unsigned char)kl[i]);
	lk[i] = '\0';
	for (i = 0; want[i]; i++)
		lw[i] = (char)tolower((unsigned char)want[i]);
	lw[i] = '\0';
	if (!strcmp(lk, lw))
		return 0;
	if (strlen(lw) >= 3 && strstr(lk, lw))
		return 1;
	d = str_distance(lk, lw);
	return d <= 2 && (size_t)d * 3 <= strlen(lw) ? 1 + d : -1;
}

void type_index_similar(struct type_index *ti, const char *name, size_t max,
			struct strlist *out)
{
	char *key = type_name_canon(name);
	const char *want = last_component(key);
	struct cand *c = NULL;
	size_t nr = 0, alloc = 0, i;

	build(ti);
	for (i = 0; i < ti->nr; i++) {
		int s;

		/* not every pointer, slice and map of a name: the name */
		if ((i && !strcmp(ti->ents[i].key, ti->ents[i - 1].key)) ||
		    strchr("*[", ti->ents[i].key[0]) || !strncmp(ti->ents[i].key, "map[", 4))
			continue;
		s = similarity(ti->ents[i].key, want);
		if (s < 0)
			continue;
		ALLOC_GROW(c, nr + 1, alloc);
		c[nr].key = ti->ents[i].key;
		c[nr++].score = s;
	}
	if (nr)
		qsort(c, nr, sizeof(*c), cand_cmp);
	for (i = 0; i < nr && i < max; i++)
		strlist_add(out, c[i].key);
	free(c);
	free(key);
}
