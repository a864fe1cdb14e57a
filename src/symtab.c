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
	const char **verdefs;	/* the versions of .gnu.version_d (borrowed) */
	size_t nr_verdefs;
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

bool sym_is_clone(const struct sym *s)
{
	return strstr(s->raw, ".isra.") || strstr(s->raw, ".constprop.") ||
	       strstr(s->raw, ".part.");
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
		at += ver == SYM_VER_DEFAULT ? 2 : 1;
	} else {
		at = NULL;
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
		.version = at && *at ? at : NULL,
	};
	return true;
}

/* ---- versions from .dynsym (a binary without .symtab: names carry no "@VERSION") ---- */

/* one versioned .dynsym entry */
struct dynver {
	uint64_t addr;
	const char *name, *version;
	bool hidden;		/* an old version: not what the name binds to */
};

static int dynver_cmp(const void *a, const void *b)
{
	const struct dynver *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static Elf_Scn *scn_of_type(Elf *elf, GElf_Word type, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, shdr) && shdr->sh_type == type)
			return scn;
	return NULL;
}

/* the names of .gnu.version_d by version index (index 1 is the file itself: no version) */
static void verdefs_read(struct symtab *st, Elf *elf, const char ***byidx, size_t *nr_idx)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = scn_of_type(elf, SHT_GNU_verdef, &shdr);
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	size_t alloc = 0, off = 0;
	GElf_Verdef vd;
	GElf_Verdaux va;

	for (int n = 0; data && n < (int)shdr.sh_info && gelf_getverdef(data, (int)off, &vd);
	     n++) {
		const char *name = gelf_getverdaux(data, (int)(off + vd.vd_aux), &va) ?
				   elf_strptr(elf, shdr.sh_link, va.vda_name) : NULL;

		if (name && !(vd.vd_flags & VER_FLG_BASE)) {
			ALLOC_GROW(st->verdefs, st->nr_verdefs + 1, alloc);
			st->verdefs[st->nr_verdefs++] = name;
		}
		if (name && vd.vd_ndx < 0x8000) {
			if (vd.vd_ndx >= *nr_idx) {
				*byidx = xrealloc(*byidx, (vd.vd_ndx + 1) * sizeof(**byidx));
				memset(*byidx + *nr_idx, 0,
				       (vd.vd_ndx + 1 - *nr_idx) * sizeof(**byidx));
				*nr_idx = vd.vd_ndx + 1;
			}
			(*byidx)[vd.vd_ndx] = (vd.vd_flags & VER_FLG_BASE) ? NULL : name;
		}
		if (!vd.vd_next)
			break;
		off += vd.vd_next;
	}
}

/* the versioned symbols .dynsym defines, sorted by address and name */
static struct dynver *dynvers_read(Elf *elf, const char **byidx, size_t nr_idx, size_t *nr)
{
	GElf_Shdr sh, vsh;
	Elf_Scn *dyn = scn_of_type(elf, SHT_DYNSYM, &sh);
	Elf_Scn *vs = scn_of_type(elf, SHT_GNU_versym, &vsh);
	Elf_Data *data = dyn ? elf_getdata(dyn, NULL) : NULL;
	Elf_Data *vdata = vs ? elf_getdata(vs, NULL) : NULL;
	struct dynver *out = NULL;
	size_t alloc = 0, n = data && sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;

	*nr = 0;
	for (size_t i = 1; vdata && i < n; i++) {
		GElf_Versym v;
		GElf_Sym s;
		size_t idx;

		if (!gelf_getsym(data, (int)i, &s) || s.st_shndx == SHN_UNDEF ||
		    !gelf_getversym(vdata, (int)i, &v))
			continue;
		idx = v & 0x7fff;
		if (idx >= nr_idx || !byidx[idx])
			continue;
		ALLOC_GROW(out, *nr + 1, alloc);
		out[(*nr)++] = (struct dynver){ s.st_value, elf_strptr(elf, sh.sh_link, s.st_name),
					       byidx[idx], (v & 0x8000) != 0 };
		if (!out[*nr - 1].name)
			(*nr)--;
	}
	if (*nr > 1)
		qsort(out, *nr, sizeof(*out), dynver_cmp);
	return out;
}

/*
 * The binary's versions, and each symbol's when its name does not carry it: .dynsym's names
 * never do (.gnu.version holds them), .symtab's do when the linker kept them (glibc's).
 */
static void versions_load(struct symtab *st, Dwfl_Module *mod)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	const char **byidx = NULL;
	size_t nr_idx = 0, nr = 0;
	struct dynver *dv;

	if (!elf)
		return;
	verdefs_read(st, elf, &byidx, &nr_idx);
	dv = nr_idx ? dynvers_read(elf, byidx, nr_idx, &nr) : NULL;
	for (size_t i = 0; nr && i < st->nr; i++) {
		struct sym *s = &st->v[i];
		struct dynver key = { s->addr - bias, s->raw, NULL, false }, *hit;

		if (s->ver != SYM_UNVERSIONED)
			continue;
		hit = bsearch(&key, dv, nr, sizeof(*dv), dynver_cmp);
		if (!hit)
			continue;
		s->version = hit->version;
		s->ver = hit->hidden ? SYM_VER_OLD : SYM_VER_DEFAULT;
	}
	free(dv);
	free(byidx);
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
	versions_load(st, mod);
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
	free(st->verdefs);
	free(st);
}

bool symtab_has_version(struct symtab *st, const char *version)
{
	for (size_t i = 0; i < st->nr_verdefs; i++)
		if (!strcmp(st->verdefs[i], version))
			return true;
	return false;
}

struct sym *symtab_syms(struct symtab *st, size_t *nr)
{
	*nr = st->nr;
	return st->v;
}

uint64_t symtab_value(struct symtab *st, const char *raw)
{
	size_t nr;
	struct sym *s = symtab_syms(st, &nr);

	for (size_t i = 0; i < nr; i++)
		if (!strcmp(s[i].raw, raw))
			return s[i].addr;
	return 0;
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
