// SPDX-License-Identifier: GPL-2.0-or-later
/* symtab.c - a binary's ELF symbols sorted by address, and the one search over them */
#include <stdlib.h>
#include <string.h>

#define LOG_DOMAIN "symtab"
#include "demangle.h"
#include "log.h"
#include "symtab.h"
#include "util.h"

struct symtab {
	struct sym *v;		/* sorted by sym_cmp() */
	size_t nr, alloc;
};

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* functions first, then larger, then the shorter (not __GI_-style alias) name */
	if (x->func != y->func)
		return x->func ? -1 : 1;
	/* an old version ("memcpy@GLIBC_2.2.5") names its address last */
	if ((x->ver == SYM_VER_OLD) != (y->ver == SYM_VER_OLD))
		return x->ver == SYM_VER_OLD ? 1 : -1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return strlen(x->raw) < strlen(y->raw) ? -1 : strlen(x->raw) > strlen(y->raw);
}

static bool is_cold_part(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot && (!strcmp(dot, ".cold") || !strncmp(dot, ".cold.", 6) ||
		       (dot > name && !strncmp(dot - 5, ".cold.", 6)));
}

/* symbol @i of @mod as a struct sym; false for what the table leaves out */
static bool sym_read(Dwfl_Module *mod, int i, struct sym *out)
{
	unsigned char ver = SYM_UNVERSIONED;
	const char *name, *at;
	GElf_Word shndx;
	GElf_Addr addr;
	GElf_Sym s;
	int type;

	name = dwfl_module_getsym_info(mod, i, &s, &addr, &shndx, NULL, NULL);
	if (!name || !*name || shndx == SHN_UNDEF || shndx == SHN_ABS || !addr)
		return false;
	type = GELF_ST_TYPE(s.st_info);
	if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT && type != STT_NOTYPE)
		return false;
	if (type == STT_NOTYPE && !s.st_size)
		return false;
	/* no mangling scheme uses '@': it starts a version (glibc's .symtab has them) */
	at = strchr(name, '@');
	if (at && at > name) {
		ver = at[1] == '@' ? SYM_VER_DEFAULT : SYM_VER_OLD;
		name = xstrndup(name, (size_t)(at - name));
	}
	*out = (struct sym){
		.addr = addr,
		.size = s.st_size,
		.raw = name,
		/* gcc's "f.cold" holds f's unlikely blocks: not an entry to probe */
		.func = (type == STT_FUNC || type == STT_GNU_IFUNC) && !is_cold_part(name),
		.ifunc = type == STT_GNU_IFUNC,
		.raw_owned = ver != SYM_UNVERSIONED,
		.ver = ver,
	};
	return true;
}

struct symtab *symtab_load(Dwfl_Module *mod)
{
	struct symtab *st = xcalloc(1, sizeof(*st));
	int n = dwfl_module_getsymtab(mod);

	for (int i = 1; i < n; i++) {
		ALLOC_GROW(st->v, st->nr + 1, st->alloc);
		if (sym_read(mod, i, &st->v[st->nr]))
			st->nr++;
	}
	if (st->nr > 1)	/* none at all in a fully stripped binary: no qsort(NULL, 0) */
		qsort(st->v, st->nr, sizeof(*st->v), sym_cmp);
	pr_debug("%zu symbols", st->nr);
	return st;
}

void symtab_free(struct symtab *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nr; i++) {
		struct sym *s = &st->v[i];

		if (s->lname != s->raw)
			free(s->lname);
		if (s->dname != s->raw)
			free(s->dname);
		if (s->raw_owned)
			free((char *)s->raw);
	}
	free(st->v);
	free(st);
}

struct sym *symtab_syms(struct symtab *st, size_t *nr)
{
	*nr = st->nr;
	return st->v;
}

/* the search: how many symbols start at or below @addr */
static size_t syms_upto(const struct symtab *st, uint64_t addr)
{
	size_t lo = 0, hi = st->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct sym *symtab_first_at(struct symtab *st, uint64_t addr)
{
	size_t i = addr ? syms_upto(st, addr - 1) : 0;

	return i < st->nr && st->v[i].addr == addr ? &st->v[i] : NULL;
}

/* the first symbol at @s's address (sym_cmp() put the preferred one first) */
static struct sym *first_of_addr(struct symtab *st, struct sym *s)
{
	while (s > st->v && (s - 1)->addr == s->addr)
		s--;
	return s;
}

struct sym *symtab_covering(struct symtab *st, uint64_t vaddr)
{
	size_t n = syms_upto(st, vaddr);
	struct sym *s;

	if (!n)
		return NULL;
	s = first_of_addr(st, &st->v[n - 1]);
	/* a symbol without size (hand-written assembly, __FRAME_END__) covers little */
	if (!s->size)
		return vaddr - s->addr < 256 ? s : NULL;
	if (vaddr < s->addr + s->size)
		return s;
	/* maybe an enclosing, larger symbol further left (rare) */
	for (struct sym *t = s; t > st->v && vaddr - (t - 1)->addr < (1u << 20);) {
		t--;
		if (t->size && vaddr < t->addr + t->size)
			return t;
	}
	return NULL;
}

struct sym *symtab_func_covering(struct symtab *st, uint64_t vaddr)
{
	for (size_t i = syms_upto(st, vaddr); i-- > 0 && vaddr - st->v[i].addr < (1u << 20);) {
		struct sym *s = &st->v[i];

		if (!s->func || !s->size || vaddr >= s->addr + s->size)
			continue;
		/* several at one address: the preferred function */
		while (s > st->v && (s - 1)->addr == s->addr && (s - 1)->func)
			s--;
		return s;
	}
	return NULL;
}

const char *sym_name(struct sym *s)
{
	if (!s->lname)
		s->lname = is_mangled(s->raw) ? demangle(s->raw, false) : (char *)s->raw;
	return s->lname;
}

const char *sym_signature(struct sym *s)
{
	if (!s->dname)
		s->dname = is_mangled(s->raw) ? demangle(s->raw, true) : (char *)s->raw;
	if (s->dname == s->raw || !strcmp(s->dname, sym_name(s)))
		return NULL;
	return s->dname;
}
