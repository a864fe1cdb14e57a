// SPDX-License-Identifier: GPL-2.0-or-later
/* funcs.c - FUNC patterns: matching names, finding every copy, ambiguity and IFUNC errors */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define LOG_DOMAIN "funcs"
#include "bidcache.h"
#include "demangle.h"
#include "dwarf-aux.h"
#include "dwarf-index.h"
#include "elfinfo.h"
#include "funcs.h"
#include "lang.h"
#include "log.h"
#include "symtab.h"
#include "arch/insn.h"

/* ---- matching a FUNC pattern ---- */

struct pattern {
	const char *text;
	char *nospace;		/* text without blanks, for signatures */
	char key[256];		/* trailing identifier every match's symbol contains, or "" */
	bool glob;
	bool sig;		/* "C::f(int)": compared with the demangled signature */
};

static bool is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* a '*' in Go's "(*T)" is not a glob */
static bool pattern_is_glob(const char *s)
{
	for (const char *p = s; *p; p++) {
		if (*p == '?' || *p == '[')
			return true;
		if (*p == '*' && !(p > s && p[-1] == '(' && is_ident_char(p[1])))
			return true;
	}
	return false;
}

static void pattern_init(struct pattern *pt, const char *text)
{
	size_t len = strlen(text), end = len, start;
	char *q;

	memset(pt, 0, sizeof(*pt));
	pt->text = text;
	pt->glob = pattern_is_glob(text);
	pt->nospace = xstrdup(text);
	for (q = pt->nospace; *text; text++)
		if (*text != ' ')
			*q++ = *text;
	*q = 0;
	text = pt->text;
	/* "C::f(int)": the parameter list is the '(' matching the last ')' */
	if (len > 2 && text[len - 1] == ')') {
		int depth = 0;

		for (size_t i = len; i-- > 0;) {
			if (text[i] == ')')
				depth++;
			else if (text[i] == '(' && !--depth) {
				/* Go's "main.(*T)" has a '(' right after a '.', C++ never */
				if (i > 0 && text[i - 1] != '.') {
					pt->sig = true;
					end = i;
				}
				break;
			}
		}
	}
	start = end;
	while (start > 0 && is_ident_char(text[start - 1]))
		start--;
	if (end - start < sizeof(pt->key) && (end == len || pt->sig))
		memcpy(pt->key, text + start, end - start);
	/* a key followed by glob characters says nothing */
	if (pt->glob && end == len && len && !is_ident_char(text[len - 1]))
		pt->key[0] = 0;
}

static void pattern_release(struct pattern *pt)
{
	free(pt->nospace);
}

static bool eq_nospace(const char *a, const char *b)
{
	for (;;) {
		while (*a == ' ')
			a++;
		while (*b == ' ')
			b++;
		if (*a != *b)
			return false;
		if (!*a)
			return true;
		a++;
		b++;
	}
}

/* @pat is a tail of @name starting after '.', "::", ')' or '/' */
static bool suffix_match(const char *name, const char *pat)
{
	size_t ln = strlen(name), lp = strlen(pat);
	char c;

	if (!lp || lp >= ln || strcmp(name + ln - lp, pat))
		return false;
	c = name[ln - lp - 1];
	return c == '.' || c == ':' || c == ')' || c == '/';
}

static char *strip_spaces(const char *s)
{
	char *r = xstrdup(s), *q = r;

	for (; *s; s++)
		if (*s != ' ')
			*q++ = *s;
	*q = 0;
	return r;
}

enum { MATCH_NONE, MATCH_SUFFIX, MATCH_EXACT };

/* "ns::twice<int>" -> "ns::twice", or NULL when @name has no template arguments */
static char *strip_templates(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	int depth = 0;

	if (!strchr(name, '<') || strstr(name, "operator"))
		return NULL;
	for (const char *p = name; *p; p++) {
		if (*p == '<')
			depth++;
		else if (*p == '>' && depth > 0)
			depth--;
		else if (!depth)
			strbuf_addch(&sb, *p);
	}
	if (depth) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

static int pattern_match_one(const struct pattern *pt, const char *name, const char *sig);

/* C++ templates: "twice" names every "twice<T>" (as a suffix would) */
static int pattern_match(const struct pattern *pt, const char *name, const char *sig)
{
	int q = pattern_match_one(pt, name, sig);
	char *plain;

	if (q != MATCH_NONE || pt->glob || pt->sig || strchr(pt->text, '<'))
		return q;
	plain = strip_templates(name);
	if (plain) {
		q = pattern_match_one(pt, plain, NULL);
		if (q == MATCH_EXACT)
			q = MATCH_SUFFIX;
		free(plain);
	}
	return q;
}

/*
 * go_unescape() - a Go symbol with its linker escapes decoded, as Go source and delve spell
 * it ("gopkg.in/yaml%2ev3.F" -> "gopkg.in/yaml.v3.F"), or NULL when @name has none
 */
static char *go_unescape(const char *name)
{
	static const char hex[] = "0123456789abcdef";
	char *r, *q;

	if (!strchr(name, '%'))
		return NULL;
	r = q = xstrdup(name);
	for (const char *p = name; *p; p++) {
		const char *hi = p[0] == '%' && p[1] ? strchr(hex, p[1] | 0x20) : NULL;
		const char *lo = hi && p[2] ? strchr(hex, p[2] | 0x20) : NULL;

		if (hi && lo && p[1] != '%' && p[2] != '%') {
			*q++ = (char)((hi - hex) << 4 | (lo - hex));
			p += 2;
		} else {
			*q++ = *p;
		}
	}
	*q = 0;
	if (!strcmp(r, name)) {
		free(r);
		return NULL;
	}
	return r;
}

/* @glob matches @name, or (Go) @name with its linker escapes decoded */
static bool glob_match_name(const char *glob, const char *name)
{
	char *plain;
	bool ok;

	if (glob_match(glob, name))
		return true;
	plain = go_unescape(name);
	ok = plain && glob_match(glob, plain);
	free(plain);
	return ok;
}

static int pattern_match_plain(const struct pattern *pt, const char *name)
{
	/* Rust's "<[u8] as core::fmt::Debug>::fmt" looks like a glob: its own name matches it */
	if (pt->glob)
		return !strcmp(name, pt->text) || glob_match(pt->text, name) ? MATCH_EXACT :
									      MATCH_NONE;
	if (!strcmp(name, pt->text))
		return MATCH_EXACT;
	return suffix_match(name, pt->text) ? MATCH_SUFFIX : MATCH_NONE;
}

static int pattern_match_one(const struct pattern *pt, const char *name, const char *sig)
{
	int q;
	char *plain;

	if (pt->sig) {
		const char *target = sig ? sig : name;
		int ret = MATCH_NONE;
		char *ns;

		if (pt->glob)
			return glob_match(pt->text, target) ? MATCH_EXACT : MATCH_NONE;
		if (eq_nospace(pt->text, target))
			return MATCH_EXACT;
		ns = strip_spaces(target);
		if (suffix_match(ns, pt->nospace))
			ret = MATCH_SUFFIX;
		free(ns);
		return ret;
	}
	q = pattern_match_plain(pt, name);
	if (q != MATCH_NONE || !strchr(name, '%'))
		return q;
	/* Go: the name as typed in source ("gopkg.in/yaml.v3.F") names the escaped symbol */
	plain = go_unescape(name);
	if (plain) {
		q = pattern_match_plain(pt, plain);
		free(plain);
	}
	return q;
}

/* ---- funcs_find() ---- */

/* a function a pattern matches, from the symbol table or from DWARF */
struct cand {
	const char *name;
	const char *sig;
	struct sym *s;		/* from the symbol table, or */
	struct dw_func *e;	/* from DWARF */
	int q;
};

/* the state of one funcs_find() */
struct finder {
	struct debuginfo *dbg;
	const char *pattern;
	const char *version;	/* "NAME@VERSION": only symbols of VERSION, or NULL */
	bool version_dflt;	/* "NAME@@VERSION": and VERSION is NAME's default */
	struct pattern pt;
	struct cand *cands;	/* of the best match quality seen */
	size_t nr_cands, alloc_cands;
	int best;
	struct func *funcs;
	size_t nr_funcs, alloc_funcs;
	uint64_t *entries;	/* the funcs' entries + 1, open addressing (0: empty) */
	size_t entries_cap;	/* a power of two, over twice nr_funcs */
	const void **origins;	/* abstract DIEs whose inlined copies count */
	size_t nr_origins, alloc_origins;
};

static int strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int ptr_cmp(const void *a, const void *b)
{
	const void *x = *(const void *const *)a, *y = *(const void *const *)b;

	return x < y ? -1 : x > y;
}

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* keep @c when it matches as well as the best so far; a better one drops the others */
static void cand_add(struct finder *fd, const struct cand *c)
{
	if (c->q == MATCH_NONE || c->q < fd->best)
		return;
	if (c->q > fd->best) {
		fd->best = c->q;
		fd->nr_cands = 0;
	}
	ALLOC_GROW(fd->cands, fd->nr_cands + 1, fd->alloc_cands);
	fd->cands[fd->nr_cands++] = *c;
}

static void cands_from_symtab(struct finder *fd)
{
	size_t nr;
	struct sym *syms = symtab_syms(debuginfo_symtab(fd->dbg), &nr);

	for (size_t i = 0; i < nr; i++) {
		struct cand c = { .s = &syms[i] };

		if (!c.s->func || (fd->pt.key[0] && !strstr(c.s->raw, fd->pt.key)))
			continue;
		if (fd->version && (!c.s->version || strcmp(c.s->version, fd->version) ||
				    (fd->version_dflt && c.s->ver != SYM_VER_DEFAULT)))
			continue;
		c.name = sym_name(c.s);
		if (fd->pt.sig)
			c.sig = sym_signature(c.s);
		c.q = pattern_match(&fd->pt, c.name, c.sig);
		if (c.q == MATCH_NONE || c.q < fd->best)
			continue;
		if (is_mangled(c.s->raw))
			c.sig = sym_signature(c.s);
		cand_add(fd, &c);
	}
}

/* @e names the pattern's trailing identifier (a cheap test before its name is made) */
static bool index_has_key(const struct finder *fd, const struct dw_func *e)
{
	return !fd->pt.key[0] || strstr(e->dwname, fd->pt.key) ||
	       (e->linkage && strstr(e->linkage, fd->pt.key));
}

/*
 * Only DWARF knows it: inlined-only functions, a stripped symbol table. A glob matches those
 * too (copies the symbols also have are merged by address).
 */
static void cands_from_index(struct finder *fd)
{
	struct dw_index *idx = debuginfo_index(fd->dbg);
	size_t nr;
	struct dw_func *v = dw_index_funcs(idx, &nr);

	for (size_t i = 0; i < nr; i++) {
		struct cand c = { .e = &v[i] };

		if (c.e->inlined || !c.e->dwname || !index_has_key(fd, c.e))
			continue;
		c.name = dw_func_name(c.e);
		c.q = pattern_match(&fd->pt, c.name, NULL);
		if (c.q == MATCH_NONE || c.q < fd->best)
			continue;
		if (dw_func_ident(c.e) != c.name)
			c.sig = dw_func_ident(c.e);
		cand_add(fd, &c);
	}
}

static int cand_cmp_name(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	if (r)
		return r;
	return strcmp(x->sig ?: "", y->sig ?: "");
}

static bool cand_is_old_version(const struct cand *c)
{
	return c->s && c->s->ver == SYM_VER_OLD;
}

/*
 * Of "pthread_kill@@GLIBC_2.34" and "pthread_kill@GLIBC_2.2.5" (kept for programs linked
 * before 2.34) the default version is the function people mean: an old version counts only
 * when nothing else has its name. @cands is sorted by name. Return: the number kept.
 */
static size_t drop_old_versions(struct cand *cands, size_t nr)
{
	size_t out = 0;

	for (size_t i = 0, j; i < nr; i = j) {
		bool current = false;

		for (j = i; j < nr && !strcmp(cands[j].name, cands[i].name); j++)
			current |= !cand_is_old_version(&cands[j]);
		for (size_t k = i; k < j; k++)
			if (!current || !cand_is_old_version(&cands[k]))
				cands[out++] = cands[k];
	}
	return out;
}

/* "closest: a, b, c": the three function names nearest to @pattern */
static void hint_closest(struct debuginfo *dbg, const char *pattern, struct diag *d)
{
	const char *best[3] = { NULL, NULL, NULL };
	int bestd[3] = { 1 << 30, 1 << 30, 1 << 30 };
	size_t nr_syms;
	struct sym *syms = symtab_syms(debuginfo_symtab(dbg), &nr_syms);

	for (size_t i = 0; i < nr_syms; i++) {
		const char *n, *tail;
		int dist, k;

		if (!syms[i].func)
			continue;
		n = sym_name(&syms[i]);
		/* runtime internals (_init, __libc_*) only when asked for */
		if (n[0] == '_' && pattern[0] != '_')
			continue;
		/* compare with the whole name and with its last component */
		tail = n + strlen(n);
		while (tail > n && tail[-1] != '.' && tail[-1] != ':' && tail[-1] != '/')
			tail--;
		if (abs((int)strlen(tail) - (int)strlen(pattern)) > bestd[2] &&
		    abs((int)strlen(n) - (int)strlen(pattern)) > bestd[2])
			continue;
		dist = str_distance(pattern, n);
		if (tail != n) {
			int dt = str_distance(pattern, tail);

			if (dt < dist)
				dist = dt;
		}
		if (dist >= bestd[2])
			continue;
		for (k = 0; k < 3; k++)
			if (best[k] && !strcmp(best[k], n))
				break;
		if (k < 3)
			continue;
		for (k = 2; k > 0 && dist < bestd[k - 1]; k--) {
			best[k] = best[k - 1];
			bestd[k] = bestd[k - 1];
		}
		best[k] = n;
		bestd[k] = dist;
	}
	if (best[0])
		diag_hint(d, "closest: %s%s%s%s%s", best[0], best[1] ? ", " : "", best[1] ?: "",
			  best[2] ? ", " : "", best[2] ?: "");
}

/* nothing matched: the missing debuginfo of a stripped binary, else the closest names */
static int no_match(struct finder *fd, struct diag *d)
{
	int ret;

	if (!debuginfo_dwarf(fd->dbg, NULL)) {
		/* a stripped binary: the missing debuginfo is the news, not the name */
		ret = debuginfo_require_dwarf(fd->dbg, d);
		diag_hint(d, "no symbol '%s' either", fd->pattern);
		return ret;
	}
	diag_error(d, SPAN_NONE, "no function '%s' in %s", fd->pattern,
		   debuginfo_basename(fd->dbg));
	hint_closest(fd->dbg, fd->pattern, d);
	return -ENOENT;
}

/*
 * The implementations an IFUNC resolver's code loads (rip-relative lea), by their names.
 * Return: the number of addresses it loads (some may name no other function).
 */
static size_t ifunc_targets(struct debuginfo *dbg, struct sym *s, const char *prefix,
			  const char ***impls, size_t *nr, size_t *alloc)
{
	struct symtab *st = debuginfo_symtab(dbg);
	uint64_t *targets = NULL;
	size_t nt = 0, nr_syms;
	struct sym *syms = symtab_syms(st, &nr_syms);

	if (s->size)
		insn_addr_targets(debuginfo_elf(dbg), s->addr, s->addr + s->size, &targets, &nt);
	for (size_t i = 0; i < nt; i++) {
		struct sym *t = symtab_first_at(st, targets[i]), *pick = NULL;

		/* of the names at the target, one that starts with "__NAME_" */
		for (; t && t < syms + nr_syms && t->addr == targets[i]; t++) {
			if (!t->func || t->ifunc)
				continue;
			if (!pick || (has_prefix(sym_name(t), prefix) &&
				      !has_prefix(sym_name(pick), prefix)))
				pick = t;
		}
		if (!pick || pick->addr == s->addr)
			continue;
		ALLOC_GROW(*impls, *nr + 1, *alloc);
		(*impls)[(*nr)++] = sym_name(pick);
	}
	free(targets);
	return nt;
}

/*
 * ifunc_error() - @s is an IFUNC resolver (STT_GNU_IFUNC): the dynamic linker runs it once to
 * pick the implementation every call then goes to, so a probe on it catches nothing. The
 * implementations are what the resolver's code loads with rip-relative lea (exact: not every
 * __memcpy_* is memcpy's); each is named, of the names at its address, by one that starts
 * with "__NAME_" when there is one (glibc names them so). Without any: the "__NAME_" symbols.
 */
static int ifunc_error(struct debuginfo *dbg, struct sym *s, const char *name, struct diag *d)
{
	struct strbuf list = STRBUF_INIT, glob = STRBUF_INIT;
	const char **impls = NULL, **globbed = NULL, *self = NULL;
	size_t nr = 0, alloc = 0, nr_glob = 0, alloc_glob = 0, nt, uniq = 0, uniq_glob = 0;
	char *prefix = xasprintf("__%s_", name);
	size_t nr_syms;
	struct sym *syms = symtab_syms(debuginfo_symtab(dbg), &nr_syms);

	nt = ifunc_targets(dbg, s, prefix, &impls, &nr, &alloc);
	strbuf_addf(&glob, "%s*", prefix);
	for (size_t i = 0; i < nr_syms; i++) {
		struct sym *t = &syms[i];

		if (!t->func || t->ifunc)
			continue;
		if (t->addr == s->addr && !self)
			self = sym_name(t); /* the resolver's own name: "strlen_ifunc" */
		if (!glob_match(glob.buf, sym_name(t)))
			continue;
		ALLOC_GROW(globbed, nr_glob + 1, alloc_glob);
		globbed[nr_glob++] = sym_name(t);
		if (!nt) {
			ALLOC_GROW(impls, nr + 1, alloc);
			impls[nr++] = sym_name(t);
		}
	}
	if (nr > 1)
		qsort(impls, nr, sizeof(*impls), strcmp_ptr);
	for (size_t i = 0; i < nr; i++) {
		if (i && !strcmp(impls[i], impls[i - 1]))
			continue;
		strbuf_addf(&list, "%s%s", uniq++ ? ", " : "", impls[i]);
		if (!has_prefix(impls[i], prefix))
			nr_glob = 0;	/* the glob would miss it */
	}
	/* the glob when it names exactly these: all of them start with the prefix (above), and
	 * it matches no other name */
	if (nr_glob > 1)
		qsort(globbed, nr_glob, sizeof(*globbed), strcmp_ptr);
	for (size_t i = 0; i < nr_glob; i++)
		if (!i || strcmp(globbed[i], globbed[i - 1]))
			uniq_glob++;
	diag_error(d, SPAN_NONE, "%s in %s is an IFUNC resolver: it runs once, when the dynamic "
		   "linker binds calls to it, to pick the implementation they go to; a probe on it "
		   "sees no calls", name, debuginfo_basename(dbg));
	if (nr)
		diag_hint(d, "probe the implementations: %s%s%s%s", list.buf,
			  uniq_glob == uniq ? " (all: '" : "", uniq_glob == uniq ? glob.buf : "",
			  uniq_glob == uniq ? "')" : "");
	if (self)
		diag_hint(d, "the resolver itself is %s", self);
	strbuf_release(&list);
	strbuf_release(&glob);
	free(impls);
	free(globbed);
	free(prefix);
	return -EINVAL;
}

/*
 * An IFUNC resolver is never what a name means: an error listing the implementations.
 * A glob leaves resolvers out; the resolver is probed by its own name (strlen_ifunc).
 */
static int drop_ifuncs(struct finder *fd, struct diag *d)
{
	struct cand *ifunc = NULL;
	size_t kept = 0;

	for (size_t i = 0; i < fd->nr_cands; i++) {
		if (fd->cands[i].s && fd->cands[i].s->ifunc) {
			if (!ifunc)
				ifunc = &fd->cands[i];
			if (!fd->pt.glob)
				break;
			continue;
		}
		fd->cands[kept++] = fd->cands[i];
	}
	if (ifunc && (!fd->pt.glob || !kept))
		return ifunc_error(fd->dbg, ifunc->s, ifunc->name, d);
	fd->nr_cands = kept;
	return 0;
}

/* what the ambiguity error shows of candidate @i: its name, or its signature (overloads) */
static const char *cand_shown(const struct cand *c, bool by_name)
{
	return by_name ? c->name : c->sig ?: c->name;
}

/* a name that is not a glob must name one function (its overloads need a signature) */
static int check_ambiguous(struct finder *fd, struct diag *d)
{
	struct strbuf list = STRBUF_INIT;
	struct cand *c = fd->cands;
	size_t names = 0, sigs = 0;

	for (size_t i = 0; i < fd->nr_cands; i++) {
		if (!i || strcmp(c[i].name, c[i - 1].name))
			names++;
		if (c[i].sig && (!i || !c[i - 1].sig || strcmp(c[i].sig, c[i - 1].sig)))
			sigs++;
	}
	if (names <= 1 && (sigs <= 1 || fd->pt.sig))
		return 0;
	for (size_t i = 0; i < fd->nr_cands; i++) {
		const char *show = cand_shown(&c[i], names > 1);

		if (i && !strcmp(cand_shown(&c[i - 1], names > 1), show))
			continue;
		strbuf_addf(&list, "%s%s", list.len ? ", " : "", show);
	}
	diag_error(d, SPAN_NONE, "ambiguous function '%s': %s", fd->pattern, list.buf);
	diag_hint(d, names > 1 ? "name one of them, or use a glob" :
		  "add the parameters, as in '%s', or use a glob", c[0].sig ?: c[0].name);
	strbuf_release(&list);
	return -EINVAL;
}

static void func_fill_die(struct func *f, Dwarf_Die *die)
{
	f->has_die = true;
	f->die = *die;
	if (!dwarf_diecu(die, &f->cu, NULL, NULL)) {
		f->has_die = false;
		return;
	}
	f->lang = dwarf_srclang(&f->cu);
	if (f->lang < 0)
		f->lang = 0;
}

/* the slot of @entry in fd->entries: where it is, or the empty one where it would go */
static size_t entry_slot(const struct finder *fd, uint64_t entry)
{
	uint64_t h = (entry + 1) * 0x9e3779b97f4a7c15ULL;
	size_t i = (size_t)(h >> 17) & (fd->entries_cap - 1);

	while (fd->entries[i] && fd->entries[i] != entry + 1)
		i = (i + 1) & (fd->entries_cap - 1);
	return i;
}

/*
 * add @f unless a function at its entry is there already (then @f's names are freed): a
 * table of the entries, not a scan per function ('*' on a Go binary of 85,000 functions)
 */
static void func_add(struct finder *fd, struct func *f)
{
	size_t i;

	if ((fd->nr_funcs + 1) * 2 > fd->entries_cap) {
		uint64_t *old = fd->entries;
		size_t old_cap = fd->entries_cap;

		fd->entries_cap = old_cap ? old_cap * 2 : 64;
		fd->entries = xcalloc(fd->entries_cap, sizeof(*fd->entries));
		for (size_t k = 0; k < old_cap; k++)
			if (old[k])
				fd->entries[entry_slot(fd, old[k] - 1)] = old[k];
		free(old);
	}
	i = entry_slot(fd, f->entry);
	if (fd->entries[i]) {
		free(f->name);
		free(f->signature);
		return;
	}
	fd->entries[i] = f->entry + 1;
	ALLOC_GROW(fd->funcs, fd->nr_funcs + 1, fd->alloc_funcs);
	fd->funcs[fd->nr_funcs++] = *f;
}

static void origin_add(struct finder *fd, const void *o)
{
	ALLOC_GROW(fd->origins, fd->nr_origins + 1, fd->alloc_origins);
	fd->origins[fd->nr_origins++] = o;
}

/* the abstract DIE address of a function DIE, when it is (also) inlined somewhere */
static const void *inline_origin(Dwarf_Die *die)
{
	Dwarf_Die mem, *src = die_origin(die, &mem) ?: die;

	return dwarf_hasattr(src, DW_AT_inline) ? src->addr : NULL;
}

/* a symbol's function at its address, with the DWARF subprogram there */
static void func_from_sym(struct finder *fd, const struct cand *c, struct func *f)
{
	Dwarf_Die die, cu;
	uint64_t e, end;
	const void *o;

	f->entry = c->s->addr;
	f->end = c->s->size ? f->entry + c->s->size : 0;
	f->lang = debuginfo_lang_guess(fd->dbg);
	if (!debuginfo_subprogram_at(fd->dbg, f->entry, &die, &cu))
		return;
	func_fill_die(f, &die);
	if (!f->end && die_code_range(&die, &e, &end) && e == f->entry)
		f->end = end;
	o = inline_origin(&die);
	if (o)
		origin_add(fd, o);
}

bool funcs_code_is_live(struct debuginfo *dbg, uint64_t entry)
{
	return entry && elfinfo_in_code(debuginfo_elf(dbg), entry);
}

/* an index entry's out-of-line code, if it has any */
static void func_from_index(struct finder *fd, struct dw_func *e, struct func *f)
{
	Dwarf_Die *die = dw_func_die(debuginfo_index(fd->dbg), e);

	if (e->is_abstract)
		origin_add(fd, e->addr);
	if (!e->has_code || !die || !die_code_range(die, &f->entry, &f->end) ||
	    !funcs_code_is_live(fd->dbg, f->entry))
		f->entry = 0;
	else
		func_fill_die(f, die);
}

/* the out-of-line copies of the candidates, and the abstract DIEs of those also inlined */
static void funcs_from_cands(struct finder *fd)
{
	for (size_t i = 0; i < fd->nr_cands; i++) {
		struct cand *c = &fd->cands[i];
		struct func f = { 0 };

		if (c->s)
			func_from_sym(fd, c, &f);
		else
			func_from_index(fd, c->e, &f);
		if (!f.entry)
			continue;
		f.name = xstrdup(c->name);
		f.signature = c->sig ? xstrdup(c->sig) : NULL;
		func_add(fd, &f);
	}
}

/* the abstract DIEs of other CUs with a candidate's name (a header's static inline) */
static void origins_by_name(struct finder *fd)
{
	const char **names = xmalloc(sizeof(*names) * fd->nr_cands);
	struct dw_index *idx = debuginfo_index(fd->dbg);
	size_t nr;
	struct dw_func *v = dw_index_funcs(idx, &nr);

	/* C++ overloads share a name: compare signatures */
	for (size_t i = 0; i < fd->nr_cands; i++)
		names[i] = fd->cands[i].sig ?: fd->cands[i].name;
	qsort(names, fd->nr_cands, sizeof(*names), strcmp_ptr);
	for (size_t i = 0; i < nr; i++) {
		struct dw_func *e = &v[i];

		if (!e->is_abstract || !e->dwname || !index_has_key(fd, e))
			continue;
		if (bsearch(&(const char *){ dw_func_ident(e) }, names, fd->nr_cands,
			    sizeof(*names), strcmp_ptr))
			origin_add(fd, e->addr);
	}
	free(names);
}

/* an inlined copy, named by its abstract DIE, which is what was matched */
static bool func_from_inlined(struct dw_func *e, Dwarf_Die *die, struct func *f)
{
	Dwarf_Die mem, *o;
	const char *lk;

	if (!die_code_range(die, &f->entry, &f->end))
		return false;
	f->inlined = true;
	f->name = die_func_name(die);
	if (!f->name)
		return false;
	/* a name without its scope, in a language that nests names: qualify it */
	if (e->scope && !strstr(f->name, "::") && lang_nests_names(e->lang)) {
		char *q = xasprintf("%s::%s", e->scope, f->name);

		free(f->name);
		f->name = q;
	}
	o = die_origin(die, &mem);
	lk = o ? die_string(o, DW_AT_linkage_name) : NULL;
	if (lk && is_mangled(lk)) {
		f->signature = demangle(lk, true);
		if (!strcmp(f->signature, f->name)) {
			free(f->signature);
			f->signature = NULL;
		}
	}
	func_fill_die(f, die);
	return true;
}

/* every inlined copy of the abstract DIEs collected, in every CU */
static void funcs_from_inlined(struct finder *fd)
{
	struct dw_index *idx = debuginfo_index(fd->dbg);
	size_t nr;
	struct dw_func *v = dw_index_funcs(idx, &nr);

	origins_by_name(fd);
	if (fd->nr_origins > 1)
		qsort(fd->origins, fd->nr_origins, sizeof(*fd->origins), ptr_cmp);
	for (size_t i = 0; i < nr; i++) {
		struct dw_func *e = &v[i];
		struct func f = { 0 };
		Dwarf_Die *die;

		if (!e->inlined || !e->origin ||
		    !bsearch(&e->origin, fd->origins, fd->nr_origins, sizeof(*fd->origins),
			     ptr_cmp))
			continue;
		die = dw_func_die(idx, e);
		if (die && func_from_inlined(e, die, &f) && funcs_code_is_live(fd->dbg, f.entry)) {
			func_add(fd, &f);
		} else {
			free(f.name);
			free(f.signature);
		}
	}
}

/* "NAME@@V" (the default version) or "NAME@V": how -F and errors spell a symbol */
static void sym_versioned_name(struct sym *s, struct strbuf *out)
{
	strbuf_addstr(out, sym_name(s));
	if (s->version)
		strbuf_addf(out, "%s%s", s->ver == SYM_VER_DEFAULT ? "@@" : "@", s->version);
}

/* the symbols of @name's versions, "a@@V1, a@V2", appended to @out; Return: how many */
static size_t list_versions(struct debuginfo *dbg, const char *name, struct strbuf *out)
{
	size_t nr_syms, n = 0;
	struct sym *syms = symtab_syms(debuginfo_symtab(dbg), &nr_syms);

	for (size_t i = 0; i < nr_syms; i++) {
		if (!syms[i].func || !syms[i].version || strcmp(sym_name(&syms[i]), name))
			continue;
		if (n++)
			strbuf_addstr(out, ", ");
		sym_versioned_name(&syms[i], out);
	}
	return n;
}

/* "NAME@VERSION" matched nothing: the versions NAME has, if any */
static int no_version_match(struct finder *fd, struct diag *d)
{
	struct strbuf list = STRBUF_INIT;

	diag_error(d, SPAN_NONE, "no function '%s' in %s", fd->pattern,
		   debuginfo_basename(fd->dbg));
	if (!fd->pt.glob && list_versions(fd->dbg, fd->pt.text, &list))
		diag_hint(d, "versions: %s", list.buf);
	else if (fd->version_dflt)
		diag_hint(d, "'@@' names the default version; '%s@%s' any version", fd->pt.text,
			  fd->version);
	strbuf_release(&list);
	return -ENOENT;
}

/* the candidates: one name (or a glob's), not an IFUNC resolver; 0 or an error in @d */
static int find_cands(struct finder *fd, struct diag *d)
{
	int ret;

	cands_from_symtab(fd);
	/* DWARF knows no versions: a versioned name is the symbol table's alone */
	if ((!fd->nr_cands || fd->pt.glob) && !fd->version && debuginfo_dwarf(fd->dbg, NULL))
		cands_from_index(fd);
	if (!fd->nr_cands && fd->version)
		return no_version_match(fd, d);
	if (!fd->nr_cands)
		return no_match(fd, d);
	qsort(fd->cands, fd->nr_cands, sizeof(*fd->cands), cand_cmp_name);
	if (!fd->version)
		fd->nr_cands = drop_old_versions(fd->cands, fd->nr_cands);
	ret = drop_ifuncs(fd, d);
	if (!ret && !fd->pt.glob)
		ret = check_ambiguous(fd, d);
	return ret;
}

int funcs_find(struct debuginfo *dbg, const char *pattern, struct func **out, size_t *nr,
	       struct diag *d)
{
	struct finder fd = { .dbg = dbg, .pattern = pattern, .best = MATCH_NONE };
	const char *at = strchr(pattern, '@');
	char *name = NULL;
	int ret;

	*out = NULL;
	*nr = 0;
	if (at && at > pattern) {
		name = xstrndup(pattern, (size_t)(at - pattern));
		fd.version_dflt = at[1] == '@';
		fd.version = at + 1 + fd.version_dflt;
	}
	pattern_init(&fd.pt, name ?: pattern);
	ret = find_cands(&fd, d);
	if (!ret) {
		funcs_from_cands(&fd);
		if (fd.nr_origins)
			funcs_from_inlined(&fd);
		if (!fd.nr_funcs) {
			diag_error(d, SPAN_NONE, fd.nr_origins ?
				   "function '%s' in %s has no code: no code of its own, and no "
				   "inlined copy the linker kept" :
				   "function '%s' in %s has no code (declared only)",
				   pattern, debuginfo_basename(dbg));
			ret = -ENOENT;
		}
	}
	if (!ret) {
		*out = fd.funcs;
		*nr = fd.nr_funcs;
	} else {
		funcs_free(fd.funcs, fd.nr_funcs);
	}
	free(fd.cands);
	free(fd.entries);
	free(fd.origins);
	pattern_release(&fd.pt);
	free(name);
	return ret;
}

void funcs_hint_versions(struct debuginfo *dbg, const char *func, struct diag *d)
{
	struct strbuf list = STRBUF_INIT;

	if (list_versions(dbg, func, &list))
		diag_hint(d, "versions: %s", list.buf);
	strbuf_release(&list);
}

/* whether a copy of @func is in source file @file (@in_file's rule) */
static bool func_has_file(struct debuginfo *dbg, const char *func, const char *file,
			  bool (*in_file)(struct func *f, const char *file))
{
	struct func *funcs = NULL;
	size_t nf = 0;
	bool found = false;
	struct diag q;

	diag_init(&q, NULL);
	if (funcs_find(dbg, func, &funcs, &nf, &q) == 0)
		for (size_t i = 0; i < nf && !found; i++)
			found = in_file(&funcs[i], file);
	funcs_free(funcs, nf);
	diag_release(&q);
	return found;
}

int funcs_at_version(struct debuginfo *dbg, const char *func, const char *suffix,
		     bool (*in_file)(struct func *f, const char *file), char **pattern,
		     struct diag *d)
{
	struct symtab *st = debuginfo_symtab(dbg);
	bool dflt = suffix[0] == '@';
	const char *version = suffix + dflt;

	*pattern = NULL;
	if (!symtab_has_version(st, version)) {
		if (!dflt)
			return 0;	/* a source file */
		diag_error(d, SPAN_NONE, "%s defines no symbol version '%s'",
			   debuginfo_basename(dbg), version);
		funcs_hint_versions(dbg, func, d);
		return -ENOENT;
	}
	if (!dflt && func_has_file(dbg, func, version, in_file)) {
		diag_error(d, SPAN_NONE, "'%s@%s': '%s' is both a symbol version and a source file "
			   "of %s", func, version, version, debuginfo_basename(dbg));
		diag_hint(d, "for the source file, name its directory too (DIR/%s)", version);
		return -EINVAL;
	}
	*pattern = xasprintf("%s@%s%s", func, dflt ? "@" : "", version);
	return 1;
}

void funcs_free(struct func *funcs, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(funcs[i].name);
		free(funcs[i].signature);
	}
	free(funcs);
}

/* ---- funcs_list() ---- */

int funcs_list(struct debuginfo *dbg, const char *glob, struct strlist *out, struct diag *d)
{
	size_t nr = 0, nr_syms;
	struct sym *syms = symtab_syms(debuginfo_symtab(dbg), &nr_syms);
	const char **names = xmalloc(sizeof(*names) * (nr_syms + 1));

	struct strlist old = STRLIST_INIT;
	struct strbuf vn = STRBUF_INIT;

	for (size_t i = 0; i < nr_syms; i++) {
		const char *n;

		if (!syms[i].func)
			continue;
		n = sym_name(&syms[i]);
		if (glob && !glob_match_name(glob, n))
			continue;
		if (syms[i].ver == SYM_VER_OLD) {
			/* an old version by the name that probes it: "pthread_kill@GLIBC_2.2.5" */
			strbuf_reset(&vn);
			sym_versioned_name(&syms[i], &vn);
			strlist_add(&old, vn.buf);
			n = old.v[old.nr - 1];
		}
		names[nr++] = n;
	}
	if (nr > 1)
		qsort(names, nr, sizeof(*names), strcmp_ptr);
	for (size_t i = 0; i < nr; i++)
		if (!i || strcmp(names[i], names[i - 1]))
			strlist_add(out, names[i]);
	free(names);
	strlist_release(&old);
	strbuf_release(&vn);
	return 0;
}

/* ---- funcs_list_inlined() ---- */

/* what names a DWARF function without making its name: the strings are DWARF's own, so a
 * concrete copy reached through its abstract origin has the very same pointers */
struct dw_key {
	const char *n;
	const char *scope;
};

static int dw_key_cmp(const void *a, const void *b)
{
	const struct dw_key *x = a, *y = b;
	int r = strcmp(x->n, y->n);

	return r ? r : strcmp(x->scope ?: "", y->scope ?: "");
}

static struct dw_key dw_key_of(const struct dw_func *e)
{
	return (struct dw_key){ .n = e->linkage ?: e->dwname,
				.scope = e->linkage ? NULL : e->scope };
}

/* the sorted keys of every out-of-line copy with code in @v */
static struct dw_key *outofline_keys(struct dw_func *v, size_t nr, size_t *nk)
{
	struct dw_key *keys = xmalloc(sizeof(*keys) * (nr + 1));

	*nk = 0;
	for (size_t i = 0; i < nr; i++)
		if (!v[i].inlined && v[i].has_code && (v[i].linkage || v[i].dwname))
			keys[(*nk)++] = dw_key_of(&v[i]);
	if (*nk > 1)
		qsort(keys, *nk, sizeof(*keys), dw_key_cmp);
	return keys;
}

/* an inlined copy with code, by the abstract origin it copies */
struct copy {
	const void *origin;
	struct dw_func *e;
};

static int copy_cmp(const void *a, const void *b)
{
	const struct copy *x = a, *y = b;

	return x->origin < y->origin ? -1 : x->origin > y->origin;
}

/* every inlined copy with code in @v, sorted by abstract origin */
static struct copy *inlined_copies(struct dw_func *v, size_t nr, size_t *no)
{
	struct copy *copies = xmalloc(sizeof(*copies) * (nr + 1));

	*no = 0;
	for (size_t i = 0; i < nr; i++)
		if (v[i].inlined && v[i].has_code && v[i].origin)
			copies[(*no)++] = (struct copy){ v[i].origin, &v[i] };
	if (*no > 1)
		qsort(copies, *no, sizeof(*copies), copy_cmp);
	return copies;
}

/* whether abstract function @a has an inlined copy the linker kept (not gc'ed code) */
static bool has_live_copy(struct debuginfo *dbg, struct dw_index *idx, const struct dw_func *a,
			  const struct copy *copies, size_t no)
{
	struct copy key = { a->addr, NULL };
	const struct copy *c = bsearch(&key, copies, no, sizeof(*copies), copy_cmp);
	uint64_t entry, end;

	if (!c)
		return false;
	while (c > copies && c[-1].origin == a->addr)
		c--;
	for (; c < copies + no && c->origin == a->addr; c++) {
		Dwarf_Die *die = dw_func_die(idx, c->e);

		if (die && die_code_range(die, &entry, &end) && funcs_code_is_live(dbg, entry))
			return true;
	}
	return false;
}

/*
 * An abstract function is inlined-only when some inlined copy of it has code, no DWARF
 * subprogram of its name has code of its own, and the symbol table has no function by that
 * name (a copy DWARF does not describe). Only names are made for those: making the name
 * of every function (C++ demangling) would cost what reading the index costs.
 */
static void list_inlined(struct debuginfo *dbg, struct dw_index *idx, const char *glob,
			 struct strlist *out)
{
	size_t nr = 0, nk, no, nn = 0, nr_syms, ns = 0;
	struct dw_func *v = dw_index_funcs(idx, &nr);
	struct sym *syms = symtab_syms(debuginfo_symtab(dbg), &nr_syms);
	const char **names, **symnames;
	struct copy *copies;
	struct dw_key *keys;

	if (!nr)
		return;
	keys = outofline_keys(v, nr, &nk);
	copies = inlined_copies(v, nr, &no);
	names = xmalloc(sizeof(*names) * (nr + 1));
	for (size_t i = 0; i < nr; i++) {
		struct dw_key k = dw_key_of(&v[i]);
		const char *n;

		if (!v[i].is_abstract || !k.n || bsearch(&k, keys, nk, sizeof(*keys), dw_key_cmp))
			continue;
		n = dw_func_name(&v[i]);
		if (*n && (!glob || glob_match_name(glob, n)) &&
		    has_live_copy(dbg, idx, &v[i], copies, no))
			names[nn++] = n;
	}
	symnames = xmalloc(sizeof(*symnames) * (nr_syms + 1));
	for (size_t i = 0; nn && i < nr_syms; i++)
		if (syms[i].func)
			symnames[ns++] = sym_name(&syms[i]);
	if (ns > 1)
		qsort(symnames, ns, sizeof(*symnames), strcmp_ptr);
	if (nn > 1)
		qsort(names, nn, sizeof(*names), strcmp_ptr);
	for (size_t i = 0; i < nn; i++) {
		if ((i && !strcmp(names[i], names[i - 1])) ||
		    bsearch(&names[i], symnames, ns, sizeof(*symnames), strcmp_ptr))
			continue;
		strlist_add(out, names[i]);
	}
	free(symnames);
	free(names);
	free(copies);
	free(keys);
}

/* the cached list, one name a line, those matching @glob added to @out */
static void add_cached(const char *text, const char *glob, struct strlist *out)
{
	for (const char *p = text, *nl; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		if (nl > p) {
			strlist_addn(out, p, nl - p);
			if (glob && !glob_match_name(glob, out->v[out->nr - 1]))
				free(out->v[--out->nr]);
		}
		if (!*nl)
			break;
	}
}

/*
 * The list depends on the binary and its DWARF alone: it is computed whole and kept by
 * build-id (bidcache.c), so that the next -F on the binary neither inflates nor reads the
 * DWARF (docker: 0.1 s of CPU and 30 MB of memory). A name with a newline is not cached.
 */
int funcs_list_inlined(struct debuginfo *dbg, const char *glob, struct strlist *out)
{
	struct strlist all = STRLIST_INIT;
	struct strbuf text = STRBUF_INIT;
	bool cacheable = true;
	size_t len;
	char *cached = bidcache_read(dbg, "funcs", &len);
	struct dw_index *idx;

	if (cached) {
		add_cached(cached, glob, out);
		free(cached);
		return 0;
	}
	idx = debuginfo_dwarf(dbg, NULL) ? debuginfo_index(dbg) : NULL;
	if (!idx)
		return 0;
	list_inlined(dbg, idx, NULL, &all);
	for (size_t i = 0; i < all.nr && cacheable; i++) {
		strbuf_addstr(&text, all.v[i]);
		strbuf_addch(&text, '\n');
		cacheable = !strchr(all.v[i], '\n');
	}
	if (cacheable)
		bidcache_write(dbg, "funcs", debuginfo_dwarf_path(dbg), text.buf ?: "", text.len);
	for (size_t i = 0; i < all.nr; i++)
		if (!glob || glob_match_name(glob, all.v[i]))
			strlist_add(out, all.v[i]);
	strbuf_release(&text);
	strlist_release(&all);
	return 0;
}
