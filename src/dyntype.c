// SPDX-License-Identifier: GPL-2.0-or-later
/* dyntype.c - dynamic types: type words (C++ vptrs, Go type words and itabs, Rust vtable
 * pointers) <-> type names, from the binary's symbols and DWARF; tables built on first use */
#define LOG_DOMAIN "dyntype"
#include <dwarf.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfo.h"
#include "dyntype.h"
#include "lang.h"
#include "log.h"
#include "symtab.h"
#include "type-index.h"

#define DW_AT_go_runtime_type 0x2904	/* Go: offset of the type's runtime descriptor */
#define CACHE_MAX (1u << 20)		/* words remembered; past this, lookups are not cached */

struct cxx_class;
struct cxx_edge;

/* A type word seen by the decoder and what it names (NULL: nothing). */
struct word_ent {
	uint64_t vaddr;
	const char *name;
	unsigned char kind;	/* enum dyn_word; 0: a free slot */
};

/* A Go type with a runtime descriptor, or a Rust vtable: an address and a name. */
struct addr_name {
	uint64_t vaddr;
	char *name;
	Dwarf_Off die;		/* Go: the type's DIE */
};

/* A C++ vtable symbol by the class it is for. */
struct cxx_vtable {
	char *cls;
	uint64_t vaddr, size;
};

struct dyntypes {
	struct debuginfo *dbg;
	struct word_ent *cache;
	size_t cache_cap, cache_nr;
	struct strlist owned;		/* names made for the cache */
	bool go_done;
	struct addr_name *go;		/* sorted by vaddr */
	size_t nr_go;
	uint64_t go_base;		/* where the runtime type descriptors start */
	bool go_base_done;
	bool rust_done;
	struct addr_name *rust;		/* sorted by vaddr */
	size_t nr_rust;
	bool cxx_done;
	struct cxx_vtable *cxx;		/* sorted by class */
	size_t nr_cxx;
	bool classes_done;
	struct cxx_class *classes;	/* sorted by DIE offset */
	size_t nr_classes;
	struct strlist class_names;
	struct cxx_edge *edges;		/* sorted by base */
	size_t nr_edges;
};

struct dyntypes *dyntypes_new(struct debuginfo *dbg)
{
	struct dyntypes *dt = xcalloc(1, sizeof(*dt));

	dt->dbg = dbg;
	return dt;
}

static void addr_names_free(struct addr_name *v, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(v[i].name);
	free(v);
}

void dyntypes_free(struct dyntypes *dt)
{
	if (!dt)
		return;
	free(dt->cache);
	strlist_release(&dt->owned);
	addr_names_free(dt->go, dt->nr_go);
	addr_names_free(dt->rust, dt->nr_rust);
	for (size_t i = 0; i < dt->nr_cxx; i++)
		free(dt->cxx[i].cls);
	free(dt->cxx);
	free(dt->classes);
	strlist_release(&dt->class_names);
	free(dt->edges);
	free(dt);
}

static void *dyntypes_make(struct debuginfo *dbg)
{
	return dyntypes_new(dbg);
}

static void dyntypes_release(void *p)
{
	dyntypes_free(p);
}

struct dyntypes *dyntypes_of(struct debuginfo *dbg)
{
	return debuginfo_table(dbg, DEBUGINFO_DYNTYPES, dyntypes_make, dyntypes_release);
}

/* ---- names from symbols (no tables) ---- */

char *dyntype_cxx_vtable_class(const char *sym)
{
	static const char prefix[] = "vtable for ";

	if (!sym || strncmp(sym, prefix, sizeof(prefix) - 1) || !sym[sizeof(prefix) - 1])
		return NULL;
	return xstrdup(sym + sizeof(prefix) - 1);
}

char *dyntype_go_itab_split(const char *sym, char **iface)
{
	const char *t, *comma = NULL;
	int depth = 0;

	if (iface)
		*iface = NULL;
	if (!sym || (strncmp(sym, "go.itab.", 8) && strncmp(sym, "go:itab.", 8)))
		return NULL;
	t = sym + 8;
	for (const char *p = t; *p; p++) {
		if (*p == '[' || *p == '(' || *p == '{')
			depth++;
		else if ((*p == ']' || *p == ')' || *p == '}') && depth > 0)
			depth--;
		else if (*p == ',' && !depth)
			comma = p;
	}
	if (!comma || comma == t || !comma[1])
		return NULL;
	if (iface)
		*iface = xstrdup(comma + 1);
	return xstrndup(t, (size_t)(comma - t));
}

char *dyntype_rust_vtable_type(const char *name)
{
	static const char suffix[] = ">::{vtable}";
	size_t n = name ? strlen(name) : 0, sl = sizeof(suffix) - 1;
	int depth = 0;

	if (n <= sl + 1 || name[0] != '<' || strcmp(name + n - sl, suffix))
		return NULL;
	/* "<T as Trait>": the " as " outside T's own brackets */
	for (size_t i = 1; i + 4 < n - sl; i++) {
		char c = name[i];

		if (c == '<' || c == '(' || c == '[')
			depth++;
		else if ((c == '>' || c == ')' || c == ']') && depth > 0)
			depth--;
		else if (!depth && !strncmp(name + i, " as ", 4))
			return i > 1 ? xstrndup(name + 1, i - 1) : NULL;
	}
	return NULL;
}

/* ---- DWARF walks: Go runtime types, Rust vtables ---- */

static int addr_cmp(const void *a, const void *b)
{
	const struct addr_name *x = a, *y = b;

	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

/* Go: where the runtime type descriptors start (moduledata.types). */
static uint64_t go_types_base(struct debuginfo *dbg)
{
	static const char *const names[] = { "runtime.types", "type:*", "type.*" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		uint64_t v = symtab_value(debuginfo_symtab(dbg), names[i]);

		if (v)
			return v;
	}
	return 0;
}

static uint64_t go_base(struct dyntypes *dt)
{
	if (!dt->go_base_done) {
		dt->go_base_done = true;
		dt->go_base = go_types_base(dt->dbg);
	}
	return dt->go_base;
}

typedef void (*top_die_fn)(struct dyntypes *dt, Dwarf_Die *die, Dwarf_Addr bias, void *arg);

/* Call @fn for every DIE just below the CU DIE of the CUs in @lang. */
static void walk_top_dies(struct dyntypes *dt, int lang, top_die_fn fn, void *arg)
{
	Dwarf_Addr bias = 0;
	Dwarf *dw = debuginfo_dwarf(dt->dbg, &bias);
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dw && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, child;
		Dwarf_Attribute attr;
		Dwarf_Word l = 0;

		if (dwarf_offdie(dw, off + hsize, &cu) &&
		    dwarf_attr(&cu, DW_AT_language, &attr) && !dwarf_formudata(&attr, &l) &&
		    (int)l == lang && dwarf_child(&cu, &child) == 0) {
			do
				fn(dt, &child, bias, arg);
			while (dwarf_siblingof(&child, &child) == 0);
		}
		off = next;
	}
}

struct grow {
	struct addr_name **v;
	size_t *nr;
	size_t alloc;
	uint64_t base;
};

static void grow_add(struct grow *g, uint64_t vaddr, const char *name, Dwarf_Off die)
{
	ALLOC_GROW(*g->v, *g->nr + 1, g->alloc);
	(*g->v)[*g->nr] = (struct addr_name){ .vaddr = vaddr, .name = xstrdup(name), .die = die };
	(*g->nr)++;
}

/* The offset of Go type @die's runtime descriptor from the start of the types, or 0. */
static uint64_t go_runtime_off(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Word w;
	Dwarf_Addr a;

	if (!dwarf_attr(die, DW_AT_go_runtime_type, &attr))
		return 0;
	if (dwarf_formudata(&attr, &w) == 0)
		return w;
	return dwarf_formaddr(&attr, &a) == 0 ? a : 0;
}

static void go_type_die(struct dyntypes *dt, Dwarf_Die *die, Dwarf_Addr bias, void *arg)
{
	struct grow *g = arg;
	const char *name = dwarf_diename(die);
	uint64_t w = name ? go_runtime_off(die) : 0;

	(void)dt;
	(void)bias;
	if (w)
		grow_add(g, g->base + w, name, dwarf_dieoffset(die));
}

static void go_load(struct dyntypes *dt)
{
	struct grow g = { .v = &dt->go, .nr = &dt->nr_go };

	if (dt->go_done)
		return;
	dt->go_done = true;
	g.base = go_base(dt);
	if (!g.base) {
		pr_debug("no runtime.types / type.* symbol: Go type words cannot be named");
		return;
	}
	walk_top_dies(dt, DW_LANG_Go, go_type_die, &g);
	qsort(dt->go, dt->nr_go, sizeof(*dt->go), addr_cmp);
	pr_info("%zu Go runtime types, from 0x%llx", dt->nr_go, (unsigned long long)g.base);
}

static void rust_vtable_die(struct dyntypes *dt, Dwarf_Die *die, Dwarf_Addr bias, void *arg)
{
	struct grow *g = arg;
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;
	const char *name;
	char *type;

	(void)dt;
	if (dwarf_tag(die) != DW_TAG_variable || !(name = dwarf_diename(die)) ||
	    !strstr(name, "::{vtable}") || !dwarf_attr(die, DW_AT_location, &attr) ||
	    dwarf_getlocation(&attr, &ops, &nops) != 0 || nops != 1 || ops[0].atom != DW_OP_addr)
		return;
	/* a vtable the linker dropped with its section: at 0 (rustc 1.63's std has dozens) */
	if (!ops[0].number)
		return;
	type = dyntype_rust_vtable_type(name);
	if (type)
		grow_add(g, ops[0].number + bias, type, 0);
	free(type);
}

static void rust_load(struct dyntypes *dt)
{
	struct grow g = { .v = &dt->rust, .nr = &dt->nr_rust };

	if (dt->rust_done)
		return;
	dt->rust_done = true;
	walk_top_dies(dt, DW_LANG_Rust, rust_vtable_die, &g);
	qsort(dt->rust, dt->nr_rust, sizeof(*dt->rust), addr_cmp);
	pr_info("%zu Rust vtables", dt->nr_rust);
}

static const struct addr_name *addr_find(const struct addr_name *v, size_t nr, uint64_t vaddr)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].vaddr == vaddr)
			return &v[mid];
		if (v[mid].vaddr < vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

bool dyntypes_go_type(struct dyntypes *dt, Dwarf_Die *type, uint64_t *vaddr)
{
	uint64_t off;

	off = go_runtime_off(type);
	if (!off || !go_base(dt))
		return false;
	*vaddr = dt->go_base + off;
	return true;
}

size_t dyntypes_go_itabs(struct dyntypes *dt, const char *iface, struct strlist *types,
			 uint64_t **addrs)
{
	size_t nr, n = 0, alloc = 0;
	struct sym *s = symtab_syms(debuginfo_symtab(dt->dbg), &nr);

	if (addrs)
		*addrs = NULL;
	for (size_t i = 0; i < nr; i++) {
		char *in = NULL, *t = dyntype_go_itab_split(s[i].raw, &in);

		if (t && !strcmp(in, iface)) {
			strlist_add(types, t);
			if (addrs) {
				ALLOC_GROW(*addrs, n + 1, alloc);
				(*addrs)[n] = s[i].addr;
			}
			n++;
		}
		free(t);
		free(in);
	}
	return n;
}

/* ---- C++ vtables ---- */

static int cxx_cmp(const void *a, const void *b)
{
	return strcmp(((const struct cxx_vtable *)a)->cls, ((const struct cxx_vtable *)b)->cls);
}

static void cxx_load(struct dyntypes *dt)
{
	size_t nr, alloc = 0;
	struct sym *s;
	char *canon;

	if (dt->cxx_done)
		return;
	dt->cxx_done = true;
	s = symtab_syms(debuginfo_symtab(dt->dbg), &nr);
	for (size_t i = 0; i < nr; i++) {
		char *cls;

		if (strncmp(s[i].raw, "_ZTV", 4) || !s[i].size)
			continue;
		cls = dyntype_cxx_vtable_class(sym_name(&s[i]));
		if (!cls)
			continue;
		/* "> >" or ">>", "long unsigned int" or "unsigned long": one spelling */
		canon = type_name_canon(cls);
		free(cls);
		cls = canon;
		ALLOC_GROW(dt->cxx, dt->nr_cxx + 1, alloc);
		dt->cxx[dt->nr_cxx++] = (struct cxx_vtable){ cls, s[i].addr, s[i].size };
	}
	qsort(dt->cxx, dt->nr_cxx, sizeof(*dt->cxx), cxx_cmp);
}

bool dyntypes_cxx_vtable(struct dyntypes *dt, const char *cls, uint64_t *vaddr, uint64_t *size)
{
	struct cxx_vtable key = { .cls = type_name_canon(cls) }, *e;

	cxx_load(dt);
	e = dt->nr_cxx ? bsearch(&key, dt->cxx, dt->nr_cxx, sizeof(*dt->cxx), cxx_cmp) : NULL;
	free(key.cls);
	if (!e)
		return false;
	*vaddr = e->vaddr;
	*size = e->size;
	return true;
}

size_t dyntypes_cxx_vtables(struct dyntypes *dt, const char *glob, struct strlist *out)
{
	char *g = type_name_canon(glob);
	size_t n = 0;

	cxx_load(dt);
	for (size_t i = 0; i < dt->nr_cxx; i++)
		if ((!i || strcmp(dt->cxx[i].cls, dt->cxx[i - 1].cls)) &&
		    glob_match(g, dt->cxx[i].cls)) {
			strlist_add(out, dt->cxx[i].cls);
			n++;
		}
	free(g);
	return n;
}

/* The file's bytes at [@vaddr, @vaddr + @size), or NULL when no section holds them. */
static const unsigned char *elf_bytes(Elf *elf, uint64_t vaddr, uint64_t size)
{
	Elf_Scn *scn = NULL;

	while (elf && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS || !(sh.sh_flags & SHF_ALLOC) ||
		    vaddr < sh.sh_addr || vaddr + size > sh.sh_addr + sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || vaddr - sh.sh_addr + size > d->d_size)
			return NULL;
		return (const unsigned char *)d->d_buf + (vaddr - sh.sh_addr);
	}
	return NULL;
}

/*
 * The primary vtable's address point: after the offset-to-top and RTTI words, which follow
 * one vbase offset word per virtual base of the class (none without virtual bases: +16).
 * The offset-to-top word must be 0 and the vbase offsets not: a 0 there is a virtual base
 * at the object's start (a nearly empty primary one, whose vcall offsets come first too),
 * which this count does not cover: no address point, rather than a wrong one.
 */
static bool primary_address_point(struct dyntypes *dt, const char *cls, const unsigned char *b,
				  uint64_t vaddr, uint64_t size, uint64_t *ap)
{
	Dwarf_Die die;
	int nvb = 0;
	uint64_t w;

	if (dyntypes_cxx_class(dt, cls, &die)) {
		/* a declaration cannot say how many virtual bases there are */
		if (dwarf_hasattr(&die, DW_AT_declaration))
			return false;
		nvb = lang_virtual_base_count(&die);
	}
	if (nvb < 0 || (uint64_t)nvb * 8 + 24 > size)
		return false;
	for (int i = 0; i <= nvb && nvb; i++) {
		if (!b)
			return false;
		memcpy(&w, b + (size_t)i * 8, 8);
		if ((w == 0) != (i == nvb))
			return false;
	}
	*ap = vaddr + (uint64_t)nvb * 8 + 16;
	return true;
}

bool dyntypes_cxx_address_point(struct dyntypes *dt, const char *cls, int64_t off, uint64_t *ap)
{
	const unsigned char *b;
	uint64_t vaddr, size, want = (uint64_t)-off;

	if (!dyntypes_cxx_vtable(dt, cls, &vaddr, &size) || size < 24)
		return false;
	b = elf_bytes(debuginfo_elf(dt->dbg), vaddr, size);
	if (!off)
		return primary_address_point(dt, cls, b, vaddr, size, ap);
	/* a secondary vtable: its offset-to-top word (-@off), its RTTI word, then its slots */
	for (uint64_t i = 8; b && i + 24 <= size; i += 8) {
		uint64_t w;

		memcpy(&w, b + i, 8);
		if (w == want) {
			*ap = vaddr + i + 16;
			return true;
		}
	}
	return false;
}

bool dyntypes_cxx_address_point_in(struct dyntypes *dt, struct dyntypes *other, const char *cls,
				   int64_t off, uint64_t *ap)
{
	uint64_t vt, size, vt2, size2, ap2;

	if (!dyntypes_cxx_vtable(dt, cls, &vt, &size))
		return false;
	if (dyntypes_cxx_address_point(dt, cls, off, ap))
		return true;
	if (!other || !dyntypes_cxx_address_point(other, cls, off, &ap2) ||
	    !dyntypes_cxx_vtable(other, cls, &vt2, &size2) || size2 != size)
		return false;
	*ap = vt + (ap2 - vt2);
	return true;
}

/* ---- C++ classes: names and inheritance ---- */

/* A class or struct DIE of the C++ DWARF. */
struct cxx_class {
	Dwarf_Off die;
	const char *name;	/* qualified, as the demangler spells it (in classes_names) */
	bool decl;
};

/* A derived class and one of its direct bases, by name. */
struct cxx_edge {
	const char *base, *derived;
};

struct class_walk {
	struct dyntypes *dt;
	size_t alloc, ealloc;
	struct strbuf scope;
	/* the inheritance of a definition: derived name, base DIE offset */
	struct { const char *derived; Dwarf_Off base; } *raw;
	size_t nr_raw, raw_alloc;
};

static int class_off_cmp(const void *a, const void *b)
{
	const struct cxx_class *x = a, *y = b;

	return x->die < y->die ? -1 : x->die > y->die;
}

static int edge_cmp(const void *a, const void *b)
{
	const struct cxx_edge *x = a, *y = b;
	int c = strcmp(x->base, y->base);

	return c ? c : strcmp(x->derived, y->derived);
}

static void class_walk_scope(struct class_walk *w, Dwarf_Die *parent, int depth);

/* Record class DIE @die named @name (in the current scope), then its nested classes. */
static void class_record(struct class_walk *w, Dwarf_Die *die, const char *name, int depth)
{
	struct dyntypes *dt = w->dt;
	size_t keep = w->scope.len;
	Dwarf_Attribute attr;
	bool decl = false, has_child;
	Dwarf_Die child;
	const char *qn;

	strbuf_addstr(&w->scope, name);
	strlist_add(&dt->class_names, w->scope.buf);
	qn = dt->class_names.v[dt->class_names.nr - 1];
	if (dwarf_attr(die, DW_AT_declaration, &attr))
		dwarf_formflag(&attr, &decl);
	ALLOC_GROW(dt->classes, dt->nr_classes + 1, w->alloc);
	dt->classes[dt->nr_classes++] = (struct cxx_class){ dwarf_dieoffset(die), qn, decl };
	has_child = dwarf_child(die, &child) == 0;
	while (!decl && has_child) {
		Dwarf_Die base;

		if (dwarf_tag(&child) == DW_TAG_inheritance &&
		    dwarf_formref_die(dwarf_attr(&child, DW_AT_type, &attr), &base)) {
			ALLOC_GROW(w->raw, w->nr_raw + 1, w->raw_alloc);
			w->raw[w->nr_raw].derived = qn;
			w->raw[w->nr_raw].base = dwarf_dieoffset(&base);
			w->nr_raw++;
		}
		has_child = dwarf_siblingof(&child, &child) == 0;
	}
	strbuf_addstr(&w->scope, "::");
	class_walk_scope(w, die, depth + 1);
	w->scope.len = keep;
	w->scope.buf[keep] = '\0';
}

/* The namespaces and classes below @parent, their names prefixed with w->scope. */
static void class_walk_scope(struct class_walk *w, Dwarf_Die *parent, int depth)
{
	Dwarf_Die child;

	if (depth > 32 || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		const char *name = dwarf_diename(&child);
		size_t keep = w->scope.len;

		if (tag == DW_TAG_namespace) {
			strbuf_addstr(&w->scope, name ? name : "(anonymous namespace)");
			strbuf_addstr(&w->scope, "::");
			class_walk_scope(w, &child, depth + 1);
			w->scope.len = keep;
			w->scope.buf[keep] = '\0';
		} else if ((tag == DW_TAG_class_type || tag == DW_TAG_structure_type) && name) {
			class_record(w, &child, name, depth);
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

static const struct cxx_class *class_at(const struct dyntypes *dt, Dwarf_Off off)
{
	struct cxx_class key = { .die = off };

	return dt->nr_classes ? bsearch(&key, dt->classes, dt->nr_classes, sizeof(key),
					class_off_cmp) : NULL;
}

/* The direct bases of every definition, as edges between names, sorted by base. */
static void class_edges(struct dyntypes *dt, struct class_walk *w)
{
	size_t alloc = 0;

	for (size_t i = 0; i < w->nr_raw; i++) {
		const struct cxx_class *b = class_at(dt, w->raw[i].base);

		if (!b)
			continue;
		ALLOC_GROW(dt->edges, dt->nr_edges + 1, alloc);
		dt->edges[dt->nr_edges++] = (struct cxx_edge){ b->name, w->raw[i].derived };
	}
	qsort(dt->edges, dt->nr_edges, sizeof(*dt->edges), edge_cmp);
}

static void classes_load(struct dyntypes *dt)
{
	struct class_walk w = { .dt = dt };
	Dwarf *dw = debuginfo_dwarf(dt->dbg, NULL);
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (dt->classes_done)
		return;
	dt->classes_done = true;
	strbuf_init(&w.scope);
	while (dw && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Attribute attr;
		Dwarf_Word l = 0;

		if (dwarf_offdie(dw, off + hsize, &cu) &&
		    dwarf_attr(&cu, DW_AT_language, &attr) && !dwarf_formudata(&attr, &l) &&
		    lang_is_cxx((int)l))
			class_walk_scope(&w, &cu, 0);
		off = next;
	}
	qsort(dt->classes, dt->nr_classes, sizeof(*dt->classes), class_off_cmp);
	class_edges(dt, &w);
	free(w.raw);
	strbuf_release(&w.scope);
	pr_info("%zu C++ classes, %zu inheritance edges", dt->nr_classes, dt->nr_edges);
}

bool dyntypes_cxx_class(struct dyntypes *dt, const char *name, Dwarf_Die *die)
{
	struct type_index *ti = debuginfo_types(dt->dbg);

	return ti && type_index_find(ti, name, DW_TAG_structure_type, NULL, die);
}

const char *dyntypes_cxx_class_name(struct dyntypes *dt, Dwarf_Die *cls)
{
	const struct cxx_class *c;

	classes_load(dt);
	c = class_at(dt, dwarf_dieoffset(cls));
	return c ? c->name : NULL;
}

size_t dyntypes_cxx_derived(struct dyntypes *dt, const char *name, struct strlist *out)
{
	size_t first = out->nr;

	classes_load(dt);
	/* breadth first: the list grows as the classes found are searched in turn */
	for (size_t q = first; ; q++) {
		const char *b = q == first ? name : out->v[q - 1];
		struct cxx_edge key = { b, "" };
		size_t lo = 0, hi = dt->nr_edges;

		if (q > out->nr)
			break;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (edge_cmp(&dt->edges[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < dt->nr_edges && !strcmp(dt->edges[lo].base, b); lo++) {
			const char *d = dt->edges[lo].derived;
			bool seen = !strcmp(d, name);

			for (size_t k = first; k < out->nr && !seen; k++)
				seen = !strcmp(out->v[k], d);
			if (!seen)
				strlist_add(out, d);
		}
	}
	return out->nr - first;
}

struct base_want {
	struct dyntypes *dt;
	const char *name;	/* qualified, as dyntypes_cxx_class_name() gives it */
};

/* lang_base_find()'s test: the base class of that name */
static bool base_named(Dwarf_Die *b, void *arg)
{
	const struct base_want *w = arg;
	const char *bn = dyntypes_cxx_class_name(w->dt, b);
	Dwarf_Die def;

	if (bn && !strcmp(bn, w->name))
		return true;
	/* a declaration here: the definition is in another unit */
	if (bn && !dwarf_haschildren(b) && dyntypes_cxx_class(w->dt, bn, &def))
		*b = def;
	return false;
}

bool dyntypes_cxx_base_offset(struct dyntypes *dt, Dwarf_Die *cls, const char *base,
			      int64_t *off)
{
	struct base_want w = { dt, base };

	return lang_base_find(cls, base_named, &w, off);
}

bool dyntype_cxx_same(const char *a, const char *b)
{
	char *x = type_name_canon(a), *y = type_name_canon(b);
	bool same = !strcmp(x, y);

	free(x);
	free(y);
	return same;
}

/* A base class looked for in the DWARF of two binaries. */
struct base_want2 {
	struct dyntypes *dts[2];
	const char *name;
};

/* the definition of class @name in one of @w's binaries (a declaration tells nothing) */
static bool class_def2(struct base_want2 *w, const char *name, Dwarf_Die *die)
{
	for (int i = 0; i < 2; i++)
		if (w->dts[i] && dyntypes_cxx_class(w->dts[i], name, die) &&
		    !dwarf_hasattr(die, DW_AT_declaration))
			return true;
	return false;
}

/* lang_base_find()'s test across two binaries: a base declared in one (its key function in
 * another unit or file) is followed into its definition in either */
static bool base_named2(Dwarf_Die *b, void *arg)
{
	struct base_want2 *w = arg;
	Dwarf *dw = dwarf_cu_getdwarf(b->cu);
	const char *bn = NULL;
	Dwarf_Die def;

	for (int i = 0; i < 2 && !bn; i++)
		if (w->dts[i] && debuginfo_dwarf(w->dts[i]->dbg, NULL) == dw)
			bn = dyntypes_cxx_class_name(w->dts[i], b);
	if (bn && dyntype_cxx_same(bn, w->name))
		return true;
	if (bn && dwarf_hasattr(b, DW_AT_declaration) && class_def2(w, bn, &def))
		*b = def;
	return false;
}

int dyntypes_cxx_base_in(struct dyntypes *dt, struct dyntypes *other, const char *cls,
			 const char *base, int64_t *off)
{
	struct base_want2 w = { { dt, other }, base };
	Dwarf_Die die;

	*off = 0;
	if (dyntype_cxx_same(cls, base))
		return 1;
	if (!class_def2(&w, cls, &die))
		return -1;
	return lang_base_find(&die, base_named2, &w, off) ? 1 : 0;
}

/* ---- decode time: one hash lookup per word ---- */

static size_t slot_of(const struct dyntypes *dt, uint64_t vaddr, enum dyn_word kind)
{
	uint64_t h = (vaddr ^ ((uint64_t)kind << 60)) * 0x9E3779B97F4A7C15ULL;

	return (size_t)(h >> 32) & (dt->cache_cap - 1);
}

static struct word_ent *cache_find(struct dyntypes *dt, uint64_t vaddr, enum dyn_word kind)
{
	size_t i;

	if (!dt->cache_cap)
		return NULL;
	for (i = slot_of(dt, vaddr, kind); dt->cache[i].kind; i = (i + 1) & (dt->cache_cap - 1))
		if (dt->cache[i].vaddr == vaddr && dt->cache[i].kind == kind)
			return &dt->cache[i];
	return NULL;
}

static void cache_put(struct dyntypes *dt, uint64_t vaddr, enum dyn_word kind, const char *name)
{
	size_t i;

	if (dt->cache_nr >= CACHE_MAX)
		return;
	if (2 * (dt->cache_nr + 1) > dt->cache_cap) {
		struct word_ent *old = dt->cache;
		size_t cap = dt->cache_cap;

		dt->cache_cap = cap ? 2 * cap : 256;
		dt->cache = xcalloc(dt->cache_cap, sizeof(*dt->cache));
		dt->cache_nr = 0;
		for (size_t k = 0; k < cap; k++)
			if (old[k].kind)
				cache_put(dt, old[k].vaddr, old[k].kind, old[k].name);
		free(old);
	}
	for (i = slot_of(dt, vaddr, kind); dt->cache[i].kind; i = (i + 1) & (dt->cache_cap - 1))
		;
	dt->cache[i] = (struct word_ent){ vaddr, name, (unsigned char)kind };
	dt->cache_nr++;
}

/* A name made for the cache: kept as long as @dt. */
static const char *own(struct dyntypes *dt, char *s)
{
	if (!s)
		return NULL;
	strlist_add(&dt->owned, s);
	free(s);
	return dt->owned.v[dt->owned.nr - 1];
}

static const char *name_uncached(struct dyntypes *dt, enum dyn_word kind, uint64_t vaddr)
{
	const struct addr_name *e;
	struct sym *s;

	switch (kind) {
	case DYN_CXX_VPTR:
		s = symtab_covering(debuginfo_symtab(dt->dbg), vaddr);
		return s && !strncmp(s->raw, "_ZTV", 4) ?
		       own(dt, dyntype_cxx_vtable_class(sym_name(s))) : NULL;
	case DYN_GO_ITAB: {
		size_t nr;
		struct sym *all = symtab_syms(debuginfo_symtab(dt->dbg), &nr);

		s = symtab_first_at(debuginfo_symtab(dt->dbg), vaddr);
		for (; s && s < all + nr && s->addr == vaddr; s++) {
			char *t = dyntype_go_itab_split(s->raw, NULL);

			if (t)
				return own(dt, t);
		}
		return NULL;
	}
	case DYN_GO_TYPE:
		go_load(dt);
		e = addr_find(dt->go, dt->nr_go, vaddr);
		return e ? e->name : NULL;
	case DYN_RUST_VTABLE:
		rust_load(dt);
		e = addr_find(dt->rust, dt->nr_rust, vaddr);
		return e ? e->name : NULL;
	default:
		return NULL;
	}
}

const char *dyntypes_name(struct dyntypes *dt, enum dyn_word kind, uint64_t vaddr)
{
	struct word_ent *e = cache_find(dt, vaddr, kind);
	const char *name;

	if (e)
		return e->name;
	name = name_uncached(dt, kind, vaddr);
	cache_put(dt, vaddr, kind, name);
	return name;
}
