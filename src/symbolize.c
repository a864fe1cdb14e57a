// SPDX-License-Identifier: GPL-2.0-or-later
/* symbolize.c - a small cache of address -> "symbol+0xoff": vtables, itabs, stack frames */
#define LOG_DOMAIN "symbolize"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <dwarf.h>

#include "debuginfo.h"
#include "dwarf-aux.h"
#include "elfinfo.h"
#include "log.h"
#include "nsroot.h"
#include "procmaps.h"
#include "symbolize.h"

#define SYM_CACHE_SIZE 4096	/* power of two; a collision just replaces the entry */
#define TASK_MAPS 256		/* processes whose maps are kept (power of two) */
#define REREAD_NS 1000000000ULL	/* an address outside every known mapping: re-read at most
				 * this often (dlopen after the first read) */

struct sym_entry {
	const void *owner;	/* the binary's struct lib */
	uint64_t vaddr;
	char *text;		/* NULL with known = true: no symbol there */
	bool known;
};

/*
 * The functions inlined at an address of a binary, innermost first (--stack frames). Found
 * once per (binary, address), then a hash probe: c/inlined-O2 --json --stack, 600,000
 * events of 5 frames (2 inlined), took 0.65 us of upfront's CPU per event before and 0.82
 * after, plus 0.05 s once (DWARF of the binary and of libc from libc6-dbg).
 */
struct inl_entry {
	const void *owner;	/* the binary's struct lib */
	uint64_t vaddr;		/* the address looked up (a return address - 1) */
	char **names;
	size_t nr;
	bool known;
};

/* A file stack frames were found in; opened on first use. */
struct lib {
	char *path;
	struct debuginfo *dbg;	/* NULL: could not be opened */
	bool owned;
	struct lib *next;
};

struct map_ent {
	uint64_t lo, hi, pgoff;
	struct lib *lib;
};

struct task_maps {
	int tgid;		/* 0: free slot */
	bool gone;		/* no /proc entry when it was first seen */
	uint64_t read_ns;
	struct map_ent *m;
	size_t nr;
};

struct symbolizer {
	struct debuginfo *dbg;
	struct lib *self;	/* the binary of @dbg, in the lib list */
	struct lib *libs;
	struct sym_entry *cache;
	struct inl_entry *inl;	/* SYM_CACHE_SIZE entries, made with the first frame */
	struct task_maps *tasks;
	struct strbuf tmp;
};

struct symbolizer *symbolizer_new(struct debuginfo *dbg)
{
	struct symbolizer *s = xcalloc(1, sizeof(*s));

	s->dbg = dbg;
	s->cache = xcalloc(SYM_CACHE_SIZE, sizeof(*s->cache));
	strbuf_init(&s->tmp);
	if (dbg) {
		s->self = xcalloc(1, sizeof(*s->self));
		s->self->path = xstrdup(debuginfo_path(dbg));
		s->self->dbg = dbg;
		s->libs = s->self;
	}
	return s;
}

/* "sym+0xoff" of @vaddr in @lib, through the cache */
static const char *lib_lookup(struct symbolizer *s, struct lib *lib, uint64_t vaddr)
{
	uint64_t h = (vaddr ^ (uintptr_t)lib) * 0x9E3779B97F4A7C15ULL;
	struct sym_entry *e = &s->cache[h >> 52 & (SYM_CACHE_SIZE - 1)];

	if (!lib || !lib->dbg)
		return NULL;
	if (e->known && e->vaddr == vaddr && e->owner == lib)
		return e->text;
	/* replaced: callers copy what they keep beyond the next lookup */
	free(e->text);
	e->text = NULL;
	e->vaddr = vaddr;
	e->owner = lib;
	e->known = true;
	strbuf_reset(&s->tmp);
	if (debuginfo_symbolize(lib->dbg, vaddr, &s->tmp) == 0 && s->tmp.len)
		e->text = xstrdup(s->tmp.buf);
	return e->text;
}

const char *symbolizer_lookup(struct symbolizer *s, uint64_t vaddr)
{
	if (!s || !s->self)
		return NULL;
	return lib_lookup(s, s->self, vaddr);
}

/*
 * The inlined_subroutine scopes holding @pc, outermost first into @names: down from the
 * out-of-line function through every child whose code holds @pc (lexical blocks too).
 * dwarf_getscopes() would continue from the innermost inlined copy into its abstract
 * definition's parents, losing the callers it was inlined into.
 */
static void inl_walk(Dwarf_Die *fn, Dwarf_Addr pc, char ***names, size_t *nr, size_t *alloc)
{
	Dwarf_Die parent = *fn, child;
	bool found = true;

	while (found && dwarf_child(&parent, &child) == 0) {
		found = false;
		do {
			int tag = dwarf_tag(&child);

			if (tag == DW_TAG_subprogram || dwarf_haspc(&child, pc) != 1)
				continue;
			if (tag == DW_TAG_inlined_subroutine) {
				char *name = die_func_name(&child);

				ALLOC_GROW(*names, *nr + 1, *alloc);
				(*names)[(*nr)++] = name ? name : xstrdup("[unknown]");
			}
			parent = child;
			found = true;
			break;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
}

/* the functions inlined at @vaddr of @lib (@ret: a return address), through the cache */
static const struct inl_entry *lib_inlines(struct symbolizer *s, struct lib *lib, uint64_t vaddr,
					   bool ret)
{
	uint64_t key = ret ? vaddr - 1 : vaddr, start, end, h;
	Dwarf_Addr bias = 0;
	size_t alloc = 0;
	const char *name;
	struct inl_entry *e;
	Dwarf_Die fn, cu;

	if (!lib || !lib->dbg || !vaddr)
		return NULL;
	if (!s->inl)
		s->inl = xcalloc(SYM_CACHE_SIZE, sizeof(*s->inl));
	h = (key ^ (uintptr_t)lib) * 0x9E3779B97F4A7C15ULL;
	e = &s->inl[h >> 52 & (SYM_CACHE_SIZE - 1)];
	if (e->known && e->vaddr == key && e->owner == lib)
		return e;
	for (size_t i = 0; i < e->nr; i++)
		free(e->names[i]);
	free(e->names);
	memset(e, 0, sizeof(*e));
	e->vaddr = key;
	e->owner = lib;
	e->known = true;
	/* a return address at a function's start (after a noreturn call): not the caller's */
	if (ret && debuginfo_func_extent(lib->dbg, vaddr, &start, &end, &name) && start == vaddr)
		return e;
	if (!debuginfo_dwarf(lib->dbg, &bias) ||
	    !debuginfo_subprogram_at(lib->dbg, key, &fn, &cu))
		return e;
	inl_walk(&fn, key - bias, &e->names, &e->nr, &alloc);
	/* innermost first, as perf prints them */
	for (size_t i = 0; i < e->nr / 2; i++) {
		char *t = e->names[i];

		e->names[i] = e->names[e->nr - 1 - i];
		e->names[e->nr - 1 - i] = t;
	}
	return e;
}

static struct lib *lib_get(struct symbolizer *s, const char *path)
{
	struct lib *l;
	struct diag d;

	for (l = s->libs; l; l = l->next)
		if (!strcmp(l->path, path))
			return l;
	l = xcalloc(1, sizeof(*l));
	l->path = xstrdup(path);
	diag_init(&d, NULL);
	/* the vDSO has no file of its own: upfront's copy of its image (procmaps.h) */
	l->dbg = debuginfo_open(strcmp(path, "[vdso]") ? path :
				procmaps_vdso_file() ? procmaps_vdso_file() : path, &d);
	if (!l->dbg)
		pr_debug("cannot open %s for stack frames", path);
	diag_release(&d);
	l->owned = true;
	l->next = s->libs;
	s->libs = l;
	return l;
}

/* @path as process @tgid names it: in its own mount namespace (a container) */
static struct lib *lib_get_of(struct symbolizer *s, int tgid, const char *path)
{
	char *in_ns = nsroot_path(tgid, path);
	struct lib *l = lib_get(s, in_ns ? in_ns : path);

	free(in_ns);
	return l;
}

struct maps_arg {
	struct symbolizer *s;
	struct task_maps *t;
	size_t alloc;
};

/* procmaps_read(): one executable mapping of a file */
static bool maps_one(void *arg, const char *path, uint64_t lo, uint64_t hi, uint64_t pgoff)
{
	struct maps_arg *ma = arg;
	struct task_maps *t = ma->t;
	size_t n = strlen(path);
	char *file;

	if (path[0] != '/')
		return false;	/* [vdso] */
	file = n > 10 && !strcmp(path + n - 10, " (deleted)") ? xstrndup(path, n - 10) :
	       xstrdup(path);
	ALLOC_GROW(t->m, t->nr + 1, ma->alloc);
	t->m[t->nr++] = (struct map_ent){ lo, hi, pgoff, lib_get_of(ma->s, t->tgid, file) };
	free(file);
	return false;
}

static void maps_read(struct symbolizer *s, struct task_maps *t)
{
	struct maps_arg ma = { s, t, 0 };
	char path[64];

	free(t->m);
	t->m = NULL;
	t->nr = 0;
	t->read_ns = now_ns();
	snprintf(path, sizeof(path), "/proc/%d/maps", t->tgid);
	if (access(path, R_OK)) {
		t->gone = true;
		return;
	}
	procmaps_read(t->tgid, maps_one, &ma);
}

/* symbol and inlined functions of @vaddr in @lib */
static void frame_vaddr(struct symbolizer *s, struct lib *lib, uint64_t vaddr, bool ret,
			struct sym_frame *f)
{
	const struct inl_entry *e;

	f->sym = lib_lookup(s, lib, vaddr);
	/* only under a known function: a frame without a name stays as it was */
	e = f->sym ? lib_inlines(s, lib, vaddr, ret) : NULL;
	if (e && e->nr) {
		f->inlined = (const char *const *)e->names;
		f->nr_inlined = e->nr;
	}
}

static struct task_maps *task_get(struct symbolizer *s, int tgid)
{
	struct task_maps *t;

	if (!s->tasks)
		s->tasks = xcalloc(TASK_MAPS, sizeof(*s->tasks));
	t = &s->tasks[(unsigned int)tgid & (TASK_MAPS - 1)];
	if (t->tgid != tgid) {
		free(t->m);
		memset(t, 0, sizeof(*t));
		t->tgid = tgid;
		maps_read(s, t);
	}
	return t;
}

void symbolizer_note_task(struct symbolizer *s, int tgid)
{
	if (s && tgid > 0)
		task_get(s, tgid);
}

static const struct map_ent *maps_find(const struct task_maps *t, uint64_t addr)
{
	for (size_t i = 0; i < t->nr; i++)
		if (addr >= t->m[i].lo && addr < t->m[i].hi)
			return &t->m[i];
	return NULL;
}

/* @lib's virtual address of runtime address @addr mapped at @lo from file offset @pgoff */
static void frame_name(struct symbolizer *s, struct lib *lib, uint64_t addr, uint64_t lo,
		       uint64_t pgoff, bool ret, struct sym_frame *f)
{
	uint64_t vaddr;

	f->path = lib->path;
	if (lib->dbg && elfinfo_offset_to_vaddr(debuginfo_elf(lib->dbg), addr - lo + pgoff,
						&vaddr) == 0)
		frame_vaddr(s, lib, vaddr, ret, f);
}

void symbolizer_frame(struct symbolizer *s, int tgid, uint64_t addr, uint64_t base, bool ret,
		      struct sym_frame *f)
{
	const struct map_ent *m = NULL;
	struct task_maps *t;
	const char *mpath;
	uint64_t lo, pgoff;

	memset(f, 0, sizeof(*f));
	if (!s || !addr)
		return;
	if (tgid > 0 && procmaps_find(tgid, addr, &mpath, &lo, &pgoff)) {
		/* followed from fork/exec (--stack): known also after the process exited */
		frame_name(s, lib_get_of(s, tgid, mpath), addr, lo, pgoff, ret, f);
		return;
	}
	if (tgid > 0) {
		t = task_get(s, tgid);
		m = maps_find(t, addr);
		if (!m && !t->gone && now_ns() - t->read_ns > REREAD_NS) {
			maps_read(s, t);
			m = maps_find(t, addr);
		}
	}
	if (m) {
		frame_name(s, m->lib, addr, m->lo, m->pgoff, ret, f);
		return;
	}
	/* the process is gone: the binary itself, from the probe's load base */
	if (base != UINT64_MAX && s->self && addr > base) {
		frame_vaddr(s, s->self, addr - base, ret, f);
		if (f->sym)
			f->path = s->self->path;
	}
}

const char *symbolizer_value(struct symbolizer *s, int tgid, uint64_t addr, uint64_t base)
{
	const char *sym = NULL;
	struct sym_frame f;

	if (!s || !addr)
		return NULL;
	if (s->self && base != UINT64_MAX && addr > base)
		sym = lib_lookup(s, s->self, addr - base);
	if (!sym && tgid > 0) {
		symbolizer_frame(s, tgid, addr, UINT64_MAX, false, &f);
		sym = f.sym;
	}
	return sym;
}

struct module_find {
	struct symbolizer *s;
	int tgid;
	uint64_t addr, vaddr;
	struct lib *lib;
};

/* whether the image of @lib, mapped at @lo from @pgoff, holds the address */
static bool lib_holds(struct module_find *mf, struct lib *lib, uint64_t lo, uint64_t pgoff)
{
	Elf *elf = lib && lib->dbg ? debuginfo_elf(lib->dbg) : NULL;
	uint64_t bias;

	if (!elf || elfinfo_mapping_bias(elf, lo, pgoff, &bias) ||
	    !elfinfo_in_image(elf, mf->addr - bias))
		return false;
	mf->lib = lib;
	mf->vaddr = mf->addr - bias;
	return true;
}

/* procmaps_each(): lib_holds() of the file mapped there, as the process names it */
static bool module_holds(void *arg, const char *path, uint64_t lo, uint64_t hi, uint64_t pgoff)
{
	struct module_find *mf = arg;

	(void)hi;
	return path[0] == '/' && lib_holds(mf, lib_get_of(mf->s, mf->tgid, path), lo, pgoff);
}

const char *symbolizer_module(struct symbolizer *s, int tgid, uint64_t addr,
			      struct debuginfo **dbg, uint64_t *vaddr)
{
	struct module_find mf = { s, tgid, addr, 0, NULL };
	struct task_maps *t;

	*dbg = NULL;
	if (!s || tgid <= 0 || !addr)
		return NULL;
	if (!procmaps_each(tgid, module_holds, &mf)) {
		t = task_get(s, tgid);
		for (int pass = 0; pass < 2 && !mf.lib; pass++) {
			/* dlopen() since the last read: read again, at most every REREAD_NS */
			if (pass && (t->gone || now_ns() - t->read_ns <= REREAD_NS))
				break;
			if (pass)
				maps_read(s, t);
			for (size_t i = 0; i < t->nr && !mf.lib; i++)
				lib_holds(&mf, t->m[i].lib, t->m[i].lo, t->m[i].pgoff);
		}
	}
	if (!mf.lib)
		return NULL;
	*dbg = mf.lib->dbg;
	*vaddr = mf.vaddr;
	return mf.lib->path;
}

void symbolizer_free(struct symbolizer *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < SYM_CACHE_SIZE; i++)
		free(s->cache[i].text);
	free(s->cache);
	for (size_t i = 0; s->inl && i < SYM_CACHE_SIZE; i++) {
		for (size_t k = 0; k < s->inl[i].nr; k++)
			free(s->inl[i].names[k]);
		free(s->inl[i].names);
	}
	free(s->inl);
	for (size_t i = 0; s->tasks && i < TASK_MAPS; i++)
		free(s->tasks[i].m);
	free(s->tasks);
	while (s->libs) {
		struct lib *l = s->libs;

		s->libs = l->next;
		if (l->owned)
			debuginfo_free(l->dbg);
		free(l->path);
		free(l);
	}
	strbuf_release(&s->tmp);
	free(s);
}
