// SPDX-License-Identifier: GPL-2.0-or-later
/* dynname.c - type words a traced process holds -> dynamic type names, in any of its objects */
#define LOG_DOMAIN "decode"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfo.h"
#include "dynname.h"
#include "dyntype.h"
#include "elfinfo.h"
#include "log.h"
#include "symbolize.h"

#define CACHE_SIZE 8192		/* power of two; a collision replaces the entry */
#define MAX_UNKNOWN 65536	/* texts of unknown words kept; past this, one scratch text */

/* A word seen in a process and what it names. */
struct word_ent {
	int tgid;
	unsigned char kind;	/* enum dyn_word; 0: a free slot */
	uint64_t w;
	const char *name;	/* NULL: unnamed */
	const char *unknown;	/* made on first use */
};

/* A dynamic_cast<> decided at decode time. */
struct isa_ent {
	int tgid;
	bool used;
	uint64_t w;
	const char *cls;	/* the trace_arg's string: compared by address */
	int64_t off;
	int result;
};

struct dynnames {
	struct symbolizer *sym;
	struct word_ent *words;
	struct isa_ent *isa;
	struct strlist texts;	/* the unknown texts */
	struct strbuf scratch;
};

struct dynnames *dynnames_new(struct symbolizer *sym)
{
	struct dynnames *dn = xcalloc(1, sizeof(*dn));

	dn->sym = sym;
	dn->words = xcalloc(CACHE_SIZE, sizeof(*dn->words));
	dn->isa = xcalloc(CACHE_SIZE, sizeof(*dn->isa));
	strbuf_init(&dn->scratch);
	return dn;
}

void dynnames_free(struct dynnames *dn)
{
	if (!dn)
		return;
	free(dn->words);
	free(dn->isa);
	strlist_release(&dn->texts);
	strbuf_release(&dn->scratch);
	free(dn);
}

static size_t slot(int tgid, uint64_t w, uint64_t salt)
{
	uint64_t h = (w ^ ((uint64_t)(unsigned int)tgid << 32) ^ salt) * 0x9E3779B97F4A7C15ULL;

	return (size_t)(h >> 40) & (CACHE_SIZE - 1);
}

/*
 * The object of the process whose image holds @w: the probed binary at its load base, else
 * a file the process maps. Fills @vaddr (@w in that file) and @path; the debuginfo is NULL
 * when the word is in no file, or in one that cannot be opened (@path set then).
 */
static struct debuginfo *word_module(struct dynnames *dn, const struct dyn_at *at, uint64_t w,
				     uint64_t *vaddr, const char **path)
{
	struct debuginfo *dbg = NULL;

	*path = NULL;
	if (at->dbg && w >= at->base &&
	    elfinfo_in_image(debuginfo_elf(at->dbg), w - at->base)) {
		*vaddr = w - at->base;
		*path = debuginfo_path(at->dbg);
		return at->dbg;
	}
	*path = symbolizer_module(dn->sym, at->tgid, w, &dbg, vaddr);
	return dbg;
}

static struct word_ent *word_get(struct dynnames *dn, const struct dyn_at *at,
				 enum dyn_word kind, uint64_t w)
{
	struct word_ent *e = &dn->words[slot(at->tgid, w, kind)];
	struct debuginfo *dbg;
	const char *path;
	uint64_t vaddr;

	if (e->kind == kind && e->w == w && e->tgid == at->tgid)
		return e;
	*e = (struct word_ent){ .tgid = at->tgid, .kind = (unsigned char)kind, .w = w };
	dbg = word_module(dn, at, w, &vaddr, &path);
	if (dbg)
		e->name = dyntypes_name(dyntypes_of(dbg), kind, vaddr);
	return e;
}

static const char *unknown_text(struct dynnames *dn, const struct dyn_at *at,
				enum dyn_word kind, uint64_t w)
{
	struct word_ent *e = word_get(dn, at, kind, w);
	const char *what = kind == DYN_GO_TYPE || kind == DYN_GO_ITAB ? "type" : "vtable";
	const char *path, *file;
	uint64_t vaddr = 0;

	if (e->unknown)
		return e->unknown;
	/* past the cap, a fixed text: the scratch buffer is rewritten by the next value of the
	 * same event, which still holds this one */
	if (dn->texts.nr >= MAX_UNKNOWN)
		return kind == DYN_GO_TYPE || kind == DYN_GO_ITAB ? "<unknown type>"
								   : "<unknown vtable>";
	word_module(dn, at, w, &vaddr, &path);
	strbuf_reset(&dn->scratch);
	if (path) {
		file = strrchr(path, '/');
		strbuf_addf(&dn->scratch, "<unknown %s %s+0x%" PRIx64 ">", what,
			    file ? file + 1 : path, vaddr);
	} else {
		strbuf_addf(&dn->scratch, "<unknown %s 0x%" PRIx64 ">", what, w);
	}
	strlist_add(&dn->texts, dn->scratch.buf);
	e->unknown = dn->texts.v[dn->texts.nr - 1];
	return e->unknown;
}

const char *dynnames_text(struct dynnames *dn, const struct dyn_at *at, enum dyn_word kind,
			  uint64_t w, uint64_t w2)
{
	const char *name = word_get(dn, at, kind, w)->name;

	if (!name && kind == DYN_GO_ITAB && w2)
		name = word_get(dn, at, DYN_GO_TYPE, w2)->name;
	return name ? name : unknown_text(dn, at, kind, w);
}

/* Whether @vaddr (in @dtw's file) is the vtable pointer a @c object holds at offset @sub. */
static int address_point_is(struct dyntypes *dtw, struct dyntypes *dtp, const char *c,
			    int64_t sub, uint64_t vaddr)
{
	uint64_t ap;

	if (!dyntypes_cxx_address_point_in(dtw, dtp, c, sub, &ap))
		return -1;
	return ap == vaddr;
}

static int is_a(struct dynnames *dn, const struct dyn_at *at, uint64_t w, const char *cls,
		int64_t off)
{
	struct debuginfo *dbg;
	struct dyntypes *dtw, *dtp;
	const char *path, *c;
	uint64_t vaddr;
	int64_t t_in_c;
	int r;

	dbg = word_module(dn, at, w, &vaddr, &path);
	if (!dbg)
		return -1;
	dtw = dyntypes_of(dbg);
	dtp = at->dbg && at->dbg != dbg ? dyntypes_of(at->dbg) : NULL;
	c = dyntypes_name(dtw, DYN_CXX_VPTR, vaddr);
	if (!c)
		return 0;	/* no vtable: not an object of any class */
	/* where T lies in C: from a file that defines C (ODR: any will do) */
	r = dyntypes_cxx_base_in(dtw, dtp, c, cls, &t_in_c);
	if (r < 0)
		pr_debug("dynamic_cast<%s *>: %s (at %s+0x%" PRIx64 ") is defined in no DWARF",
			 cls, c, path, vaddr);
	return r <= 0 ? r : address_point_is(dtw, dtp, c, t_in_c + off, vaddr);
}

static bool words_have(const uint64_t *words, unsigned int nr, uint64_t vaddr)
{
	unsigned int lo = 0, hi = nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (words[mid] == vaddr)
			return true;
		if (words[mid] < vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

int dynnames_accepts(struct dynnames *dn, const struct dyn_at *at, const uint64_t *words,
		     unsigned int nr, const char *cls, int64_t off, uint64_t w)
{
	struct isa_ent *e;

	if (!w)
		return 0;
	if (words_have(words, nr, w - at->base))
		return 1;
	if (!cls)
		return 0;
	e = &dn->isa[slot(at->tgid, w, (uintptr_t)cls ^ (uint64_t)off)];

	if (e->used && e->w == w && e->tgid == at->tgid && e->cls == cls && e->off == off)
		return e->result;
	*e = (struct isa_ent){ at->tgid, true, w, cls, off, is_a(dn, at, w, cls, off) };
	return e->result;
}
