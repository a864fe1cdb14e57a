// SPDX-License-Identifier: GPL-2.0-or-later
/* debuginfo.c - a binary's ELF symbols and DWARF (in the file or separate), function lookup */
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOG_DOMAIN "debuginfo"
#include "debuginfo.h"
#include "leb128.h"
#include "demangle.h"
#include "elfinfo.h"
#include "lang.h"
#include "log.h"
#include "dwarf-aux.h"
#include "dwarf-index.h"
#include "dwarf-index-raw.h"
#include "symtab.h"
#include "x86-insn.h"

struct debuginfo {
	char *path;
	char *base;
	char *build_id;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Elf *elf;
	Dwarf *dw;
	Dwarf_Addr bias;
	bool dwarf_tried;
	Dwarf_CFI *cfi;
	bool cfi_tried;

	struct symtab *syms;	/* loaded on first use */

	int guessed_lang;		/* for functions without DWARF: DW_LANG_Go or 0 */
	bool lang_guessed;

	struct dw_index *idx;	/* with dw; its functions read on first use (idx_built) */
	bool idx_built;
};

static char *debuginfo_search_path = NULL;

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_search_path,
};

struct debuginfo *debuginfo_open(const char *path, struct diag *d)
{
	struct strbuf looked = STRBUF_INIT;
	struct debuginfo *dbg;
	const unsigned char *bits;
	GElf_Addr bid_vaddr;
	GElf_Ehdr ehdr;
	char magic[4];
	char *real;
	int fd, n;

	real = elfinfo_find_binary(path, &looked);
	if (!real) {
		diag_error(d, SPAN_NONE, "no such binary '%s'", path);
		if (looked.len && strcmp(looked.buf, path))
			diag_hint(d, "looked in: %s", looked.buf);
		strbuf_release(&looked);
		return NULL;
	}
	strbuf_release(&looked);
	fd = open(real, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		diag_fail(d, "cannot open %s: %s", real, strerror(errno));
		free(real);
		return NULL;
	}
	n = read(fd, magic, sizeof(magic));
	close(fd);
	if (n != sizeof(magic) || memcmp(magic, ELFMAG, SELFMAG)) {
		diag_error(d, SPAN_NONE, "%s is not an ELF binary", real);
		free(real);
		return NULL;
	}

	dbg = xcalloc(1, sizeof(*dbg));
	dbg->path = real;
	dbg->base = xstrdup(strrchr(real, '/') ? strrchr(real, '/') + 1 : real);
	dbg->dwfl = dwfl_begin(&dwfl_callbacks);
	if (!dbg->dwfl) {
		diag_fail(d, "libdwfl: %s", dwfl_errmsg(-1));
		goto err;
	}
	dwfl_report_begin(dbg->dwfl);
	/* base 0, add_p_vaddr: a PIE's DWARF addresses stay the file's own virtual addresses */
	dbg->mod = dwfl_report_elf(dbg->dwfl, dbg->base, real, -1, 0, true);
	dwfl_report_end(dbg->dwfl, NULL, NULL);
	if (!dbg->mod) {
		diag_error(d, SPAN_NONE, "cannot read ELF %s: %s", real, dwfl_errmsg(-1));
		goto err;
	}
	{
		Dwarf_Addr b;

		dbg->elf = dwfl_module_getelf(dbg->mod, &b);
		if (!dbg->elf || b != 0) {
			diag_error(d, SPAN_NONE, "cannot read ELF %s: %s", real, dwfl_errmsg(-1));
			goto err;
		}
	}
	if (!gelf_getehdr(dbg->elf, &ehdr)) {
		diag_error(d, SPAN_NONE, "%s: %s", real, elf_errmsg(-1));
		goto err;
	}
	if (ehdr.e_type != ET_EXEC && ehdr.e_type != ET_DYN) {
		diag_error(d, SPAN_NONE, "%s is not an executable or shared library", real);
		goto err;
	}
	n = dwfl_module_build_id(dbg->mod, &bits, &bid_vaddr);
	if (n > 0) {
		struct strbuf sb = STRBUF_INIT;

		for (int i = 0; i < n; i++)
			strbuf_addf(&sb, "%02x", bits[i]);
		dbg->build_id = strbuf_detach(&sb);
	}
	pr_debug("opened %s build-id %s %s", real, dbg->build_id ?: "-",
		 ehdr.e_type == ET_DYN ? "ET_DYN" : "ET_EXEC");
	return dbg;
err:
	debuginfo_free(dbg);
	return NULL;
}

void debuginfo_free(struct debuginfo *dbg)
{
	if (!dbg)
		return;
	symtab_free(dbg->syms);
	dw_index_free(dbg->idx);
	if (dbg->dwfl)
		dwfl_end(dbg->dwfl);
	free(dbg->path);
	free(dbg->base);
	free(dbg->build_id);
	free(dbg);
}

const char *debuginfo_path(const struct debuginfo *dbg)
{
	return dbg->path;
}

const char *debuginfo_build_id(const struct debuginfo *dbg)
{
	return dbg->build_id;
}

const char *debuginfo_basename(const struct debuginfo *dbg)
{
	return dbg->base;
}

Elf *debuginfo_elf(struct debuginfo *dbg)
{
	return dbg->elf;
}

/* ---- decompressing the debug sections on every core ---- */

/*
 * libdw inflates every SHF_COMPRESSED debug section when it opens the DWARF, one after the
 * other (0.14 s of a 42 MB Go binary's 0.2 s). Sections are independent zlib streams: inflate
 * them here first, largest first, on the idle cores too; libdw then finds them plain.
 * elf_compress() only touches the one section's state once the section headers are loaded.
 */
struct inflate_job {
	Elf_Scn **scns;
	size_t nr;
	size_t next;		/* atomic */
};

static void *inflate_worker(void *arg)
{
	struct inflate_job *job = arg;
	size_t i;

	while ((i = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED)) < job->nr)
		elf_compress(job->scns[i], 0, 0);
	return NULL;
}

struct zscn {
	Elf_Scn *scn;
	uint64_t size;		/* uncompressed */
};

static int zscn_cmp(const void *a, const void *b)
{
	const struct zscn *x = a, *y = b;

	return x->size > y->size ? -1 : x->size < y->size;
}

/* the sections libdw 0.188's dwarf_begin_elf() inflates: no other is worth the time */
static bool libdw_reads_section(const char *name)
{
	static const char *const names[] = {
		"info", "types", "abbrev", "addr", "aranges", "line", "line_str", "frame", "loc",
		"loclists", "pubnames", "str", "str_offsets", "macinfo", "macro", "ranges",
		"rnglists", "cu_index", "tu_index",
	};

	if (strncmp(name, ".debug_", 7))
		return false;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name + 7, names[i]))
			return true;
	return false;
}

/* minimum total for threads to pay off: below, libdw does it alone */
#define INFLATE_PARALLEL_MIN (4u << 20)
#define INFLATE_MAX_THREADS 8

static void inflate_debug_sections(Elf *elf)
{
	pthread_t tids[INFLATE_MAX_THREADS];
	struct inflate_job job = { 0 };
	struct zscn *z = NULL;
	size_t shstrndx, nr = 0, alloc = 0, nthreads = 0;
	uint64_t total = 0;
	Elf_Scn *scn = NULL;
	long ncpu;

	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 2 || elf_getshdrstrndx(elf, &shstrndx) < 0)
		return;
	/* gelf_getshdr() of every section loads all headers before any thread starts */
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
		const char *name = sh ? elf_strptr(elf, shstrndx, sh->sh_name) : NULL;
		GElf_Chdr ch;

		if (!name || !libdw_reads_section(name) || !(sh->sh_flags & SHF_COMPRESSED) ||
		    (sh->sh_flags & SHF_ALLOC) || sh->sh_type == SHT_NOBITS)
			continue;
		if (!gelf_getchdr(scn, &ch) || ch.ch_type != ELFCOMPRESS_ZLIB)
			continue;
		ALLOC_GROW(z, nr + 1, alloc);
		z[nr++] = (struct zscn){ .scn = scn, .size = ch.ch_size };
		total += ch.ch_size;
	}
	if (nr < 2 || total < INFLATE_PARALLEL_MIN) {
		free(z);
		return;
	}
	qsort(z, nr, sizeof(*z), zscn_cmp);
	job.scns = xmalloc(sizeof(*job.scns) * nr);
	for (size_t i = 0; i < nr; i++)
		job.scns[i] = z[i].scn;
	job.nr = nr;
	free(z);
	/* the calling thread is one of the workers */
	for (long i = 1; i < ncpu && i <= INFLATE_MAX_THREADS && (size_t)i < nr; i++) {
		if (pthread_create(&tids[nthreads], NULL, inflate_worker, &job))
			break;
		nthreads++;
	}
	inflate_worker(&job);
	for (size_t i = 0; i < nthreads; i++)
		pthread_join(tids[i], NULL);
	pr_debug("inflated %zu debug sections (%lu bytes) on %zu threads", nr,
		 (unsigned long)total, nthreads + 1);
	free(job.scns);
}

Dwarf *debuginfo_dwarf(struct debuginfo *dbg, Dwarf_Addr *bias)
{
	if (!dbg->dwarf_tried) {
		dbg->dwarf_tried = true;
		inflate_debug_sections(dbg->elf);
		dbg->dw = dwfl_module_getdwarf(dbg->mod, &dbg->bias);
		if (dbg->dw) {
			const char *mainfile, *debugfile;

			dbg->idx = dw_index_new(dbg->dw);
			dwfl_module_info(dbg->mod, NULL, NULL, NULL, NULL, NULL, &mainfile,
					 &debugfile);
			pr_info("DWARF of %s from %s (bias %#lx)", dbg->path,
				debugfile ?: mainfile ?: "?", (unsigned long)dbg->bias);
		}
	}
	if (bias)
		*bias = dbg->bias;
	return dbg->dw;
}

Dwarf_CFI *debuginfo_cfi(struct debuginfo *dbg)
{
	Dwarf_Addr bias;

	if (!dbg->cfi_tried) {
		dbg->cfi_tried = true;
		dbg->cfi = dwfl_module_eh_cfi(dbg->mod, &bias);
		if (!dbg->cfi)
			dbg->cfi = dwfl_module_dwarf_cfi(dbg->mod, &bias);
	}
	return dbg->cfi;
}

int debuginfo_require_dwarf(struct debuginfo *dbg, struct diag *d)
{
	struct strbuf looked = STRBUF_INIT;
	const char *link;

	if (debuginfo_dwarf(dbg, NULL))
		return 0;
	strbuf_addstr(&looked, dbg->path);
	if (dbg->build_id && strlen(dbg->build_id) > 2)
		strbuf_addf(&looked, ", /usr/lib/debug/.build-id/%.2s/%s.debug", dbg->build_id,
			    dbg->build_id + 2);
	link = elfinfo_debuglink(dbg->elf);
	if (link) {
		char *dir = xstrndup(dbg->path, strrchr(dbg->path, '/') - dbg->path);

		strbuf_addf(&looked, ", %s/%s, %s/.debug/%s, /usr/lib/debug%s/%s", dir, link, dir,
			    link, dir, link);
		free(dir);
	} else {
		strbuf_addf(&looked, ", /usr/lib/debug%s.debug", dbg->path);
	}
	diag_error(d, SPAN_NONE, "no debug information in %s (looked in: %s)", dbg->base,
		   looked.buf);
	diag_hint(d, "install the binary's -dbg/-dbgsym package or rebuild it with -g");
	strbuf_release(&looked);
	return -ENOENT;
}

int debuginfo_vaddr_to_offset(struct debuginfo *dbg, uint64_t vaddr, uint64_t *offset,
			      struct diag *d)
{
	if (!elfinfo_vaddr_to_offset(dbg->elf, vaddr, true, offset))
		return 0;
	diag_error(d, SPAN_NONE, "address %#lx is not in an executable segment of %s",
		   (unsigned long)vaddr, dbg->base);
	return -ERANGE;
}

int debuginfo_offset_to_vaddr(struct debuginfo *dbg, uint64_t offset, uint64_t *vaddr)
{
	return elfinfo_offset_to_vaddr(dbg->elf, offset, vaddr);
}

/* ---- symbols ---- */

struct symtab *debuginfo_symtab(struct debuginfo *dbg)
{
	if (!dbg->syms)
		dbg->syms = symtab_load(dbg->mod);
	return dbg->syms;
}

int debuginfo_symbolize(struct debuginfo *dbg, uint64_t vaddr, struct strbuf *out)
{
	struct sym *s = symtab_covering(debuginfo_symtab(dbg), vaddr);

	if (!s)
		return -ENOENT;
	strbuf_addf(out, "%s+0x%lx", sym_name(s), (unsigned long)(vaddr - s->addr));
	return 0;
}

static int strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int debuginfo_list_functions(struct debuginfo *dbg, const char *glob, struct strbuf *out,
			     struct diag *d)
{
	const char **names = NULL;
	size_t nr = 0, nr_syms;
	struct sym *syms = symtab_syms(debuginfo_symtab(dbg), &nr_syms);

	(void)d;
	names = xmalloc(sizeof(*names) * (nr_syms + 1));
	for (size_t i = 0; i < nr_syms; i++) {
		const char *n;

		if (!syms[i].func)
			continue;
		n = sym_name(&syms[i]);
		if (glob && !glob_match(glob, n))
			continue;
		names[nr++] = n;
	}
	qsort(names, nr, sizeof(*names), strcmp_ptr);
	for (size_t i = 0; i < nr; i++) {
		if (i && !strcmp(names[i], names[i - 1]))
			continue;
		strbuf_addstr(out, names[i]);
		strbuf_addch(out, '\n');
	}
	free(names);
	return 0;
}

/* ---- DWARF: the function index and the function at an address ---- */

struct dw_index *debuginfo_index(struct debuginfo *dbg)
{
	const char *force = getenv("UPFRONT_INDEX");

	if (!debuginfo_dwarf(dbg, NULL))
		return NULL;
	if (dbg->idx_built)
		return dbg->idx;
	dbg->idx_built = true;
	/* UPFRONT_INDEX=libdw: the reference walk, for tests and for a raw reader bug */
	if (force && !strcmp(force, "libdw"))
		pr_info("UPFRONT_INDEX=libdw: the function index walks the DIEs through libdw");
	else if (dw_index_read_raw(dbg->idx))
		return dbg->idx;
	dw_index_walk(dbg->idx);
	return dbg->idx;
}

bool debuginfo_addr_cu(struct debuginfo *dbg, uint64_t vaddr, Dwarf_Die *cu)
{
	Dwarf_Addr bias;
	Dwarf_Die *cudie;

	if (!debuginfo_dwarf(dbg, NULL))
		return false;
	/* libdwfl answers some CU for addresses .debug_aranges does not have (Go): check */
	cudie = dwfl_module_addrdie(dbg->mod, vaddr, &bias);
	if (cudie && dwarf_haspc(cudie, vaddr - bias) == 1) {
		*cu = *cudie;
		return true;
	}
	return dw_index_cu_at(dbg->idx, vaddr - dbg->bias, cu);
}

bool debuginfo_subprogram_at(struct debuginfo *dbg, uint64_t vaddr, Dwarf_Die *die,
			     Dwarf_Die *cu)
{
	return debuginfo_addr_cu(dbg, vaddr, cu) &&
	       dw_index_subprogram_at(dbg->idx, cu, vaddr - dbg->bias, die);
}

int debuginfo_getscopes(struct debuginfo *dbg, Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die **scopes)
{
	if (!debuginfo_dwarf(dbg, NULL))
		return dwarf_getscopes(cu, pc, scopes);
	return dw_index_getscopes(dbg->idx, cu, pc, scopes);
}

int debuginfo_lang_guess(struct debuginfo *dbg)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (dbg->lang_guessed)
		return dbg->guessed_lang;
	dbg->lang_guessed = true;
	if (elf_getshdrstrndx(dbg->elf, &shstrndx) < 0)
		return 0;
	while ((scn = elf_nextscn(dbg->elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
		const char *name = sh ? elf_strptr(dbg->elf, shstrndx, sh->sh_name) : NULL;

		if (name && (!strcmp(name, ".go.buildinfo") || !strcmp(name, ".gopclntab") ||
			     !strcmp(name, ".note.go.buildid")))
			dbg->guessed_lang = DW_LANG_Go;
	}
	return dbg->guessed_lang;
}

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

static int pattern_match_one(const struct pattern *pt, const char *name, const char *sig)
{
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
	if (pt->glob)
		return glob_match(pt->text, name) ? MATCH_EXACT : MATCH_NONE;
	if (!strcmp(name, pt->text))
		return MATCH_EXACT;
	return suffix_match(name, pt->text) ? MATCH_SUFFIX : MATCH_NONE;
}

/* ---- debuginfo_find_functions() ---- */

struct cand {
	const char *name;
	const char *sig;
	struct sym *s;		/* from the symbol table, or */
	struct dw_func *e;	/* from DWARF */
	int q;
};

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

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
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
	size_t nr = 0, alloc = 0, nr_glob = 0, alloc_glob = 0, nt = 0, uniq = 0, uniq_glob = 0;
	char *prefix = xasprintf("__%s_", name);
	struct symtab *st = debuginfo_symtab(dbg);
	uint64_t *targets = NULL;
	size_t nr_syms;
	struct sym *syms = symtab_syms(st, &nr_syms);

	if (s->size)
		x86_insn_lea_targets(dbg->elf, s->addr, s->addr + s->size, &targets, &nt);
	for (size_t i = 0; i < nt; i++) {
		struct sym *t = symtab_first_at(st, targets[i]), *pick = NULL;

		for (; t && t < syms + nr_syms && t->addr == targets[i]; t++) {
			if (!t->func || t->ifunc)
				continue;
			if (!pick || (has_prefix(sym_name(t), prefix) &&
				      !has_prefix(sym_name(pick), prefix)))
				pick = t;
		}
		if (!pick || pick->addr == s->addr)
			continue;
		ALLOC_GROW(impls, nr + 1, alloc);
		impls[nr++] = sym_name(pick);
	}
	free(targets);
	strbuf_addf(&glob, "%s*", prefix);
	for (size_t i = 0; i < nr_syms; i++) {
		struct sym *t = &syms[i];

		if (!t->func || t->ifunc)
			continue;
		if (t->addr == s->addr && !self)
			self = sym_name(t);	/* the resolver's own name: glibc's "strlen_ifunc" */
		if (!glob_match(glob.buf, sym_name(t)))
			continue;
		ALLOC_GROW(globbed, nr_glob + 1, alloc_glob);
		globbed[nr_glob++] = sym_name(t);
		if (!nt) {
			ALLOC_GROW(impls, nr + 1, alloc);
			impls[nr++] = sym_name(t);
		}
	}
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
	qsort(globbed, nr_glob, sizeof(*globbed), strcmp_ptr);
	for (size_t i = 0; i < nr_glob; i++)
		if (!i || strcmp(globbed[i], globbed[i - 1]))
			uniq_glob++;
	diag_error(d, SPAN_NONE, "%s in %s is an IFUNC resolver: it runs once, when the dynamic "
		   "linker binds calls to it, to pick the implementation they go to; a probe on it "
		   "sees no calls", name, dbg->base);
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

static void add_func(struct func **out, size_t *nr, size_t *alloc, const struct func *f)
{
	for (size_t i = 0; i < *nr; i++)
		if ((*out)[i].entry == f->entry) {
			free(f->name);
			free(f->signature);
			return;
		}
	ALLOC_GROW(*out, *nr + 1, *alloc);
	(*out)[(*nr)++] = *f;
}

static int ptr_cmp(const void *a, const void *b)
{
	const void *x = *(const void *const *)a, *y = *(const void *const *)b;

	return x < y ? -1 : x > y;
}

/* the abstract DIE address of a function DIE, when it is (also) inlined somewhere */
static const void *inline_origin(Dwarf_Die *die)
{
	Dwarf_Attribute am;
	Dwarf_Die o, *src = die;

	if (dwarf_attr(die, DW_AT_abstract_origin, &am) && dwarf_formref_die(&am, &o))
		src = &o;
	if (dwarf_hasattr(src, DW_AT_inline))
		return src->addr;
	return NULL;
}

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

int debuginfo_find_functions(struct debuginfo *dbg, const char *pattern, struct func **out,
			     size_t *nr, struct diag *d)
{
	struct cand *cands = NULL;
	size_t nr_cands = 0, alloc_cands = 0, alloc_out = 0;
	const void **origins = NULL;
	size_t nr_origins = 0, alloc_origins = 0;
	struct pattern pt;
	struct func *funcs = NULL;
	size_t nr_funcs = 0, nr_syms, nr_idx = 0;
	struct dw_func *idx_funcs = NULL;
	int best = MATCH_NONE, ret = 0;
	struct dw_index *idx = NULL;
	struct sym *syms;

	*out = NULL;
	*nr = 0;
	pattern_init(&pt, pattern);
	syms = symtab_syms(debuginfo_symtab(dbg), &nr_syms);
	for (size_t i = 0; i < nr_syms; i++) {
		struct sym *s = &syms[i];
		const char *name, *sig = NULL;
		int q;

		if (!s->func || (pt.key[0] && !strstr(s->raw, pt.key)))
			continue;
		name = sym_name(s);
		if (pt.sig)
			sig = sym_signature(s);
		q = pattern_match(&pt, name, sig);
		if (q == MATCH_NONE || q < best)
			continue;
		if (is_mangled(s->raw))
			sig = sym_signature(s);
		if (q > best) {
			best = q;
			nr_cands = 0;
		}
		ALLOC_GROW(cands, nr_cands + 1, alloc_cands);
		cands[nr_cands++] = (struct cand){ .name = name, .sig = sig, .s = s, .q = q };
	}
	if ((!nr_cands || pt.glob) && debuginfo_dwarf(dbg, NULL)) {
		/*
		 * Only DWARF knows it: inlined-only functions, a stripped symbol table. A glob
		 * matches those too (copies the symbols also have are merged by address).
		 */
		idx = debuginfo_index(dbg);
		idx_funcs = dw_index_funcs(idx, &nr_idx);
		for (size_t i = 0; i < nr_idx; i++) {
			struct dw_func *e = &idx_funcs[i];
			int q;

			if (e->inlined || !e->dwname)
				continue;
			if (pt.key[0] && !strstr(e->dwname, pt.key) &&
			    !(e->linkage && strstr(e->linkage, pt.key)))
				continue;
			q = pattern_match(&pt, dw_func_name(e), NULL);
			if (q == MATCH_NONE || q < best)
				continue;
			if (q > best) {
				best = q;
				nr_cands = 0;
			}
			ALLOC_GROW(cands, nr_cands + 1, alloc_cands);
			cands[nr_cands++] = (struct cand){ .name = dw_func_name(e), .e = e, .q = q };
			if (dw_func_ident(e) != dw_func_name(e))
				cands[nr_cands - 1].sig = dw_func_ident(e);
		}
	}
	if (!nr_cands && !debuginfo_dwarf(dbg, NULL)) {
		/* a stripped binary: the missing debuginfo is the news, not the name */
		ret = debuginfo_require_dwarf(dbg, d);
		diag_hint(d, "no symbol '%s' either", pattern);
		goto out;
	}
	if (!nr_cands) {
		diag_error(d, SPAN_NONE, "no function '%s' in %s", pattern, dbg->base);
		hint_closest(dbg, pattern, d);
		ret = -ENOENT;
		goto out;
	}
	qsort(cands, nr_cands, sizeof(*cands), cand_cmp_name);
	nr_cands = drop_old_versions(cands, nr_cands);
	/*
	 * An IFUNC resolver is never what a name means: an error listing the implementations.
	 * A glob leaves resolvers out; the resolver is probed by its own name (strlen_ifunc).
	 */
	{
		size_t kept = 0;
		struct cand *ifunc = NULL;

		for (size_t i = 0; i < nr_cands; i++) {
			if (cands[i].s && cands[i].s->ifunc) {
				if (!ifunc)
					ifunc = &cands[i];
				if (!pt.glob)
					break;
				continue;
			}
			cands[kept++] = cands[i];
		}
		if (ifunc && (!pt.glob || !kept)) {
			ret = ifunc_error(dbg, ifunc->s, ifunc->name, d);
			goto out;
		}
		nr_cands = kept;
	}
	if (!pt.glob) {
		struct strbuf list = STRBUF_INIT;
		size_t names = 0, sigs = 0;

		for (size_t i = 0; i < nr_cands; i++) {
			if (!i || strcmp(cands[i].name, cands[i - 1].name))
				names++;
			if (cands[i].sig && (!i || !cands[i - 1].sig ||
					     strcmp(cands[i].sig, cands[i - 1].sig)))
				sigs++;
		}
		if (names > 1 || (sigs > 1 && !pt.sig)) {
			for (size_t i = 0; i < nr_cands; i++) {
				const char *show = names > 1 ? cands[i].name :
						   cands[i].sig ?: cands[i].name;
				const char *prev = !i ? NULL : names > 1 ? cands[i - 1].name :
						   cands[i - 1].sig ?: cands[i - 1].name;

				if (prev && !strcmp(prev, show))
					continue;
				strbuf_addf(&list, "%s%s", list.len ? ", " : "", show);
			}
			diag_error(d, SPAN_NONE, "ambiguous function '%s': %s", pattern, list.buf);
			diag_hint(d, names > 1 ? "name one of them, or use a glob" :
				  "add the parameters, as in '%s', or use a glob",
				  cands[0].sig ?: cands[0].name);
			strbuf_release(&list);
			ret = -EINVAL;
			goto out;
		}
	}

	for (size_t i = 0; i < nr_cands; i++) {
		struct func f = { 0 };
		const void *o = NULL;
		Dwarf_Die die, cu;

		if (cands[i].s) {
			f.entry = cands[i].s->addr;
			f.end = cands[i].s->size ? f.entry + cands[i].s->size : 0;
			f.lang = debuginfo_lang_guess(dbg);
			if (debuginfo_subprogram_at(dbg, f.entry, &die, &cu)) {
				uint64_t e, end;

				func_fill_die(&f, &die);
				if (!f.end && die_code_range(&die, &e, &end) && e == f.entry)
					f.end = end;
				o = inline_origin(&die);
			}
		} else {
			struct dw_func *e = cands[i].e;

			Dwarf_Die *edie = dw_func_die(idx, e);

			if (e->is_abstract)
				o = e->addr;
			if (!e->has_code || !edie || !die_code_range(edie, &f.entry, &f.end))
				f.entry = 0;
			else
				func_fill_die(&f, edie);
		}
		if (f.entry) {
			f.name = xstrdup(cands[i].name);
			f.signature = cands[i].sig ? xstrdup(cands[i].sig) : NULL;
			add_func(&funcs, &nr_funcs, &alloc_out, &f);
		}
		if (o) {
			ALLOC_GROW(origins, nr_origins + 1, alloc_origins);
			origins[nr_origins++] = o;
		}
	}

	/* inlined copies, of this CU's abstract DIE and of other CUs' (a header's static inline) */
	if (nr_origins) {
		size_t nr_names = 0;
		const char **names = xmalloc(sizeof(*names) * nr_cands);

		idx = debuginfo_index(dbg);
		idx_funcs = dw_index_funcs(idx, &nr_idx);
		/* C++ overloads share a name: compare signatures */
		for (size_t i = 0; i < nr_cands; i++)
			names[nr_names++] = cands[i].sig ?: cands[i].name;
		qsort(names, nr_names, sizeof(*names), strcmp_ptr);
		for (size_t i = 0; i < nr_idx; i++) {
			struct dw_func *e = &idx_funcs[i];

			if (!e->is_abstract || !e->dwname)
				continue;
			if (pt.key[0] && !strstr(e->dwname, pt.key) &&
			    !(e->linkage && strstr(e->linkage, pt.key)))
				continue;
			if (!bsearch(&(const char *){ dw_func_ident(e) }, names, nr_names,
				     sizeof(*names), strcmp_ptr))
				continue;
			ALLOC_GROW(origins, nr_origins + 1, alloc_origins);
			origins[nr_origins++] = e->addr;
		}
		free(names);
		qsort(origins, nr_origins, sizeof(*origins), ptr_cmp);
		for (size_t i = 0; i < nr_idx; i++) {
			struct dw_func *e = &idx_funcs[i];
			struct func f = { 0 };
			Dwarf_Die *die;

			if (!e->inlined || !e->origin ||
			    !bsearch(&e->origin, origins, nr_origins, sizeof(*origins), ptr_cmp))
				continue;
			die = dw_func_die(idx, e);
			if (!die || !die_code_range(die, &f.entry, &f.end))
				continue;
			f.inlined = true;
			/* the abstract DIE's name, which is what was matched */
			f.name = die_func_name(die);
			if (!f.name)
				continue;
			if (e->scope && !strstr(f.name, "::") && e->lang != DW_LANG_Go &&
			    e->lang != DW_LANG_C99 && e->lang != DW_LANG_C89 &&
			    e->lang != DW_LANG_C11) {
				char *q = xasprintf("%s::%s", e->scope, f.name);

				free(f.name);
				f.name = q;
			}
			{
				Dwarf_Attribute am;
				Dwarf_Die o;
				const char *lk = NULL;

				if (dwarf_attr(die, DW_AT_abstract_origin, &am) &&
				    dwarf_formref_die(&am, &o))
					lk = die_string(&o, DW_AT_linkage_name);
				if (lk && is_mangled(lk)) {
					char *sig = demangle(lk, true);

					if (strcmp(sig, f.name))
						f.signature = sig;
					else
						free(sig);
				}
			}
			func_fill_die(&f, die);
			add_func(&funcs, &nr_funcs, &alloc_out, &f);
		}
	}
	if (!nr_funcs) {
		diag_error(d, SPAN_NONE, "function '%s' in %s has no code (declared only)",
			   pattern, dbg->base);
		ret = -ENOENT;
		goto out;
	}
	*out = funcs;
	*nr = nr_funcs;
	funcs = NULL;
	nr_funcs = 0;
out:
	func_list_free(funcs, nr_funcs);
	free(cands);
	free(origins);
	pattern_release(&pt);
	return ret;
}

void func_list_free(struct func *funcs, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(funcs[i].name);
		free(funcs[i].signature);
	}
	free(funcs);
}

bool debuginfo_func_extent(struct debuginfo *dbg, uint64_t vaddr, uint64_t *start, uint64_t *end,
			   const char **name)
{
	struct sym *s = symtab_func_covering(debuginfo_symtab(dbg), vaddr);
	Dwarf_Addr base, lo, hi, bias = 0;
	ptrdiff_t off = 0;
	Dwarf_Die die, cu;

	if (s) {
		*start = s->addr;
		*end = s->addr + s->size;
		*name = sym_name(s);
		return true;
	}
	/* no symbol: the DWARF range of the subprogram holding it */
	if (!debuginfo_dwarf(dbg, &bias) || !debuginfo_subprogram_at(dbg, vaddr, &die, &cu))
		return false;
	while ((off = dwarf_ranges(&die, off, &base, &lo, &hi)) > 0) {
		if (vaddr - bias >= lo && vaddr - bias < hi) {
			*start = lo + bias;
			*end = hi + bias;
			*name = dwarf_diename(&die);
			return true;
		}
	}
	return false;
}
