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
#include "symtab.h"
#include "x86-insn.h"

/* One DIE of the DWARF index: a subprogram with code or DW_AT_inline, or an inlined copy. */
struct idx_ent {
	uint64_t off;		/* in the units' file's .debug_info (never an alt file) */
	const void *addr;	/* the DIE's Dwarf_Die.addr */
	Dwarf_Die die;		/* valid once die_ok (idx_die()) */
	bool die_ok;
	size_t decl;		/* while the raw scan resolves names */
	const void *origin;	/* inlined: the abstract origin's Dwarf_Die.addr */
	const char *dwname;	/* DW_AT_name (integrated), borrowed */
	const char *linkage;	/* DW_AT_linkage_name (integrated), borrowed */
	const char *scope;	/* "ns::Class" of the parents, interned, or NULL */
	char *name;		/* lazy: as the language spells it */
	char *sig;		/* lazy: demangled with parameters */
	int lang;
	bool inlined;
	bool has_code;
	bool is_abstract;	/* has DW_AT_inline */
};

/* the subprograms of a CU find_subprogram() meets outside other functions, by low pc */
struct cu_func {
	Dwarf_Addr low;
	size_t order;		/* in the walk: the first one at an address wins */
	Dwarf_Die die;
};

/* a code range of a DIE at the top of a CU, for debuginfo_getscopes() */
struct cu_top {
	Dwarf_Addr start, end;
	Dwarf_Addr max_end;	/* of this and every earlier one (sorted by start) */
	size_t order;		/* of the DIE among the CU's children */
	Dwarf_Die die;
};

struct cu_funcs {
	const void *cu;		/* the CU DIE's addr */
	unsigned int lookups;
	struct cu_func *v;	/* sorted by low, then order; NULL until the second lookup */
	size_t nr, alloc;
	bool built;
	unsigned int scope_lookups;
	struct cu_top *tops;	/* sorted by start; built on the second debuginfo_getscopes() */
	size_t nr_tops, alloc_tops;
	bool tops_built, tops_bad;	/* bad: imported units, only libdw gets it right */
};

struct cu_range {
	uint64_t start, end;
	Dwarf_Die cu;
};

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

	struct cu_range *cu_ranges;	/* when .debug_aranges misses CUs (Go) */
	size_t nr_cu_ranges;
	bool cu_ranges_built;
	int guessed_lang;		/* for functions without DWARF: DW_LANG_Go or 0 */
	bool lang_guessed;

	struct cu_funcs *cu_funcs;	/* function tables of the CUs looked up more than once */
	size_t nr_cu_funcs, alloc_cu_funcs;

	struct idx_ent *idx;
	size_t nr_idx, alloc_idx;
	bool idx_built;
	char **scopes;		/* interned scope strings */
	size_t nr_scopes, alloc_scopes;
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
	for (size_t i = 0; i < dbg->nr_idx; i++) {
		free(dbg->idx[i].name);
		free(dbg->idx[i].sig);
	}
	free(dbg->idx);
	for (size_t i = 0; i < dbg->nr_cu_funcs; i++) {
		free(dbg->cu_funcs[i].v);
		free(dbg->cu_funcs[i].tops);
	}
	free(dbg->cu_funcs);
	free(dbg->cu_ranges);
	for (size_t i = 0; i < dbg->nr_scopes; i++)
		free(dbg->scopes[i]);
	free(dbg->scopes);
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

/* ---- DWARF: the subprogram at an address, the index of every function DIE ---- */

static bool die_code_range(Dwarf_Die *die, uint64_t *entry, uint64_t *end)
{
	Dwarf_Addr base, start, stop, pc;
	ptrdiff_t off = 0;
	bool have = false;

	if (dwarf_entrypc(die, &pc) == 0)
		have = true;
	*end = 0;
	while ((off = dwarf_ranges(die, off, &base, &start, &stop)) > 0) {
		if (!have) {
			pc = start;
			have = true;
		}
		if (pc >= start && pc < stop) {
			*end = stop;
			break;
		}
	}
	if (have)
		*entry = pc;
	return have;
}

static bool is_scope_tag(int tag)
{
	return tag == DW_TAG_namespace || tag == DW_TAG_module || tag == DW_TAG_class_type ||
	       tag == DW_TAG_structure_type || tag == DW_TAG_union_type;
}

/* the subprogram with code at @pc in the children of @parent (namespaces, classes, nesting) */
static bool find_subprogram(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *out, int depth)
{
	Dwarf_Die child;
	bool found = false;

	if (depth > 16 || dwarf_child(parent, &child) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Addr low;

		if (tag == DW_TAG_subprogram) {
			if (dwarf_lowpc(&child, &low) == 0 && low == pc) {
				*out = child;
				return true;
			}
			if (!found && dwarf_haspc(&child, pc) == 1) {
				*out = child;
				found = true;
				/* a nested function may start right here */
				if (find_subprogram(&child, pc, out, depth + 1))
					return true;
				*out = child;
			}
		} else if (is_scope_tag(tag)) {
			if (find_subprogram(&child, pc, out, depth + 1))
				return true;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return found;
}

static void cu_funcs_walk(struct cu_funcs *cf, Dwarf_Die *parent, int depth)
{
	Dwarf_Die child;

	if (depth > 16 || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Addr low;

		if (tag == DW_TAG_subprogram) {
			if (dwarf_lowpc(&child, &low) == 0) {
				ALLOC_GROW(cf->v, cf->nr + 1, cf->alloc);
				cf->v[cf->nr] = (struct cu_func){ low, cf->nr, child };
				cf->nr++;
			}
		} else if (is_scope_tag(tag)) {
			cu_funcs_walk(cf, &child, depth + 1);
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int cu_func_cmp(const void *a, const void *b)
{
	const struct cu_func *x = a, *y = b;

	if (x->low != y->low)
		return x->low < y->low ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * The function starting exactly at @pc, from a per-CU table once a CU is asked twice (a glob
 * over 1000 functions of one CU would walk the CU 1000 times). Functions nested in others
 * (GNU C) are left to find_subprogram(), as is every pc inside a function.
 */
static struct cu_funcs *cu_funcs_of(struct debuginfo *dbg, Dwarf_Die *cu)
{
	struct cu_funcs *cf;

	for (size_t i = 0; i < dbg->nr_cu_funcs; i++)
		if (dbg->cu_funcs[i].cu == cu->addr)
			return &dbg->cu_funcs[i];
	ALLOC_GROW(dbg->cu_funcs, dbg->nr_cu_funcs + 1, dbg->alloc_cu_funcs);
	cf = &dbg->cu_funcs[dbg->nr_cu_funcs++];
	memset(cf, 0, sizeof(*cf));
	cf->cu = cu->addr;
	return cf;
}

static bool cu_func_exact(struct debuginfo *dbg, Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die *out)
{
	struct cu_funcs *cf = cu_funcs_of(dbg, cu);
	size_t lo = 0, hi;

	if (++cf->lookups < 2)
		return false;
	if (!cf->built) {
		cf->built = true;
		cu_funcs_walk(cf, cu, 0);
		qsort(cf->v, cf->nr, sizeof(*cf->v), cu_func_cmp);
	}
	hi = cf->nr;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (cf->v[mid].low < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == cf->nr || cf->v[lo].low != pc)
		return false;
	*out = cf->v[lo].die;
	return true;
}

/* the function DIE whose code starts at (or holds) @vaddr, and its CU */

static bool func_die_at(struct debuginfo *dbg, uint64_t vaddr, Dwarf_Die *die, Dwarf_Die *cu)
{
	if (!debuginfo_addr_cu(dbg, vaddr, cu))
		return false;
	if (cu_func_exact(dbg, cu, vaddr - dbg->bias, die))
		return true;
	return find_subprogram(cu, vaddr - dbg->bias, die, 0);
}

static int cu_range_cmp(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Go's linker writes .debug_aranges only for cgo's C units: map the rest from CU ranges */
static void cu_ranges_build(struct debuginfo *dbg)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie;
	size_t alloc = 0;
	uint8_t unit_type;

	dbg->cu_ranges_built = true;
	while (dwarf_get_units(dbg->dw, cu, &cu, NULL, &unit_type, &cudie, &subdie) == 0) {
		Dwarf_Addr base, start, end;
		ptrdiff_t off = 0;

		if (unit_type == DW_UT_skeleton)
			cudie = subdie;
		while ((off = dwarf_ranges(&cudie, off, &base, &start, &end)) > 0) {
			if (start >= end)
				continue;
			ALLOC_GROW(dbg->cu_ranges, dbg->nr_cu_ranges + 1, alloc);
			dbg->cu_ranges[dbg->nr_cu_ranges++] =
				(struct cu_range){ .start = start, .end = end, .cu = cudie };
		}
	}
	qsort(dbg->cu_ranges, dbg->nr_cu_ranges, sizeof(*dbg->cu_ranges), cu_range_cmp);
	pr_debug("%zu CU address ranges", dbg->nr_cu_ranges);
}

bool debuginfo_addr_cu(struct debuginfo *dbg, uint64_t vaddr, Dwarf_Die *cu)
{
	Dwarf_Addr bias, pc;
	Dwarf_Die *cudie;
	size_t lo = 0, hi;

	if (!debuginfo_dwarf(dbg, NULL))
		return false;
	/* libdwfl answers some CU for addresses .debug_aranges does not have (Go): check */
	cudie = dwfl_module_addrdie(dbg->mod, vaddr, &bias);
	if (cudie && dwarf_haspc(cudie, vaddr - bias) == 1) {
		*cu = *cudie;
		return true;
	}
	if (!dbg->cu_ranges_built)
		cu_ranges_build(dbg);
	pc = vaddr - dbg->bias;
	hi = dbg->nr_cu_ranges;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (dbg->cu_ranges[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ranges of different CUs do not overlap; look back a little for nested ones */
	for (size_t i = lo; i-- > 0 && lo - i < 8;) {
		if (pc >= dbg->cu_ranges[i].start && pc < dbg->cu_ranges[i].end) {
			*cu = dbg->cu_ranges[i].cu;
			return true;
		}
	}
	return false;
}

static int guess_lang(struct debuginfo *dbg)
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

bool debuginfo_subprogram_at(struct debuginfo *dbg, uint64_t vaddr, Dwarf_Die *die,
			     Dwarf_Die *cu)
{
	return func_die_at(dbg, vaddr, die, cu);
}

/* ---- debuginfo_getscopes(): dwarf_getscopes() without a walk of the CU per call ---- */

static int cu_top_cmp(const void *a, const void *b)
{
	const struct cu_top *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* every child of the CU with code ranges, in the order dwarf_getscopes() visits them */
static void cu_tops_build(struct cu_funcs *cf, Dwarf_Die *cu)
{
	Dwarf_Die child;
	size_t order = 0;

	cf->tops_built = true;
	if (dwarf_child(cu, &child) != 0)
		return;
	do {
		Dwarf_Addr base, start, end;
		ptrdiff_t off = 0;

		if (dwarf_tag(&child) == DW_TAG_imported_unit) {
			cf->tops_bad = true;
			return;
		}
		order++;
		if (!dwarf_hasattr(&child, DW_AT_low_pc) && !dwarf_hasattr(&child, DW_AT_ranges))
			continue;
		while ((off = dwarf_ranges(&child, off, &base, &start, &end)) > 0) {
			if (start >= end)
				continue;
			ALLOC_GROW(cf->tops, cf->nr_tops + 1, cf->alloc_tops);
			cf->tops[cf->nr_tops++] = (struct cu_top){
				.start = start, .end = end, .order = order, .die = child,
			};
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	qsort(cf->tops, cf->nr_tops, sizeof(*cf->tops), cu_top_cmp);
	for (size_t i = 0; i < cf->nr_tops; i++)
		cf->tops[i].max_end = i && cf->tops[i - 1].max_end > cf->tops[i].end ?
				      cf->tops[i - 1].max_end : cf->tops[i].end;
}

/* the first child of the CU (in DIE order) whose code holds @pc */
static bool cu_top_at(struct cu_funcs *cf, Dwarf_Addr pc, Dwarf_Die *out)
{
	size_t lo = 0, hi = cf->nr_tops, best = SIZE_MAX;

	/* the last range starting at or below pc, then back while an earlier one can hold it */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (cf->tops[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && cf->tops[i].max_end > pc;) {
		if (pc < cf->tops[i].end &&
		    (best == SIZE_MAX || cf->tops[i].order < cf->tops[best].order))
			best = i;
	}
	if (best == SIZE_MAX)
		return false;
	*out = cf->tops[best].die;
	return true;
}

/* the tags __libdw_visit_scopes() descends into */
static bool may_have_scopes(int tag)
{
	switch (tag) {
	case DW_TAG_compile_unit:
	case DW_TAG_module:
	case DW_TAG_lexical_block:
	case DW_TAG_with_stmt:
	case DW_TAG_catch_block:
	case DW_TAG_try_block:
	case DW_TAG_entry_point:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_subprogram:
	case DW_TAG_namespace:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
		return true;
	default:
		return false;
	}
}

int debuginfo_getscopes(struct debuginfo *dbg, Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die **scopes)
{
	struct cu_funcs *cf = cu_funcs_of(dbg, cu);
	Dwarf_Die *chain = NULL, top, cur;
	size_t n = 0, alloc = 0;

	if (++cf->scope_lookups < 2)
		return dwarf_getscopes(cu, pc, scopes);
	if (!cf->tops_built)
		cu_tops_build(cf, cu);
	if (cf->tops_bad)
		return dwarf_getscopes(cu, pc, scopes);
	if (!cu_top_at(cf, pc, &top))
		return 0;
	/* down the first child holding pc at each level, as the libdw walk goes */
	cur = top;
	ALLOC_GROW(chain, n + 1, alloc);
	chain[n++] = cur;
	for (;;) {
		Dwarf_Die child;
		bool found = false;
		int tag = dwarf_tag(&cur);

		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_imported_unit) {
			/* the abstract definition's scopes follow: libdw's own walk */
			free(chain);
			return dwarf_getscopes(cu, pc, scopes);
		}
		if (!may_have_scopes(tag) || dwarf_child(&cur, &child) != 0)
			break;
		do {
			int r = dwarf_haspc(&child, pc);

			if (dwarf_tag(&child) == DW_TAG_imported_unit) {
				free(chain);
				return dwarf_getscopes(cu, pc, scopes);
			}
			if (r > 0) {
				found = true;
				break;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
		if (!found)
			break;
		cur = child;
		ALLOC_GROW(chain, n + 1, alloc);
		chain[n++] = cur;
	}
	/* innermost first, then the CU */
	ALLOC_GROW(chain, n + 1, alloc);
	for (size_t i = 0; i < n / 2; i++) {
		Dwarf_Die t = chain[i];

		chain[i] = chain[n - 1 - i];
		chain[n - 1 - i] = t;
	}
	chain[n++] = *cu;
	*scopes = chain;
	return n;
}

static const char *intern_scope(struct debuginfo *dbg, const char *outer, const char *name)
{
	char *s = outer ? xasprintf("%s::%s", outer, name) : xstrdup(name);

	ALLOC_GROW(dbg->scopes, dbg->nr_scopes + 1, dbg->alloc_scopes);
	dbg->scopes[dbg->nr_scopes++] = s;
	return s;
}

static const char *die_str(Dwarf_Die *die, int at)
{
	Dwarf_Attribute mem;

	return dwarf_formstring(dwarf_attr_integrate(die, at, &mem));
}

char *debuginfo_die_name(Dwarf_Die *die)
{
	Dwarf_Attribute am;
	Dwarf_Die o, *src = die;
	const char *lk, *n;

	if (dwarf_tag(die) == DW_TAG_inlined_subroutine &&
	    dwarf_attr(die, DW_AT_abstract_origin, &am) && dwarf_formref_die(&am, &o))
		src = &o;
	lk = die_str(src, DW_AT_linkage_name);
	if (!lk)
		lk = die_str(src, DW_AT_MIPS_linkage_name);
	if (lk && is_mangled(lk))
		return demangle(lk, false);
	n = die_str(src, DW_AT_name);
	return n ? xstrdup(n) : NULL;
}

static void index_walk(struct debuginfo *dbg, Dwarf_Die *parent, const char *scope, int lang,
		       int depth)
{
	Dwarf_Die child;

	if (depth > 64 || dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		struct idx_ent *e;

		switch (tag) {
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			if (lang_nests_names(lang) || tag == DW_TAG_namespace) {
				const char *n = dwarf_diename(&child);

				if (!dwarf_haschildren(&child))
					break;
				index_walk(dbg, &child, n ? intern_scope(dbg, scope, n) : scope,
					   lang, depth + 1);
			}
			break;
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine: {
			bool code = dwarf_hasattr(&child, DW_AT_low_pc) ||
				    dwarf_hasattr(&child, DW_AT_ranges);
			bool abstract = tag == DW_TAG_subprogram &&
					dwarf_hasattr(&child, DW_AT_inline);

			if (!code && !abstract)
				break;
			ALLOC_GROW(dbg->idx, dbg->nr_idx + 1, dbg->alloc_idx);
			e = &dbg->idx[dbg->nr_idx++];
			memset(e, 0, sizeof(*e));
			e->die = child;
			e->die_ok = true;
			e->addr = child.addr;
			e->off = dwarf_dieoffset(&child);
			e->lang = lang;
			e->has_code = code;
			e->is_abstract = abstract;
			e->scope = scope;
			if (tag == DW_TAG_inlined_subroutine) {
				Dwarf_Attribute am;
				Dwarf_Die o;

				e->inlined = true;
				if (dwarf_attr(&child, DW_AT_abstract_origin, &am) &&
				    dwarf_formref_die(&am, &o))
					e->origin = o.addr;
			} else {
				e->dwname = die_str(&child, DW_AT_name);
				e->linkage = die_str(&child, DW_AT_linkage_name);
				if (!e->linkage)
					e->linkage = die_str(&child, DW_AT_MIPS_linkage_name);
			}
			/* e may move while the children are added; not used below */
			if (code)
				index_walk(dbg, &child, scope, lang, depth + 1);
			break;
		}
		case DW_TAG_lexical_block:
			index_walk(dbg, &child, scope, lang, depth + 1);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* the DIE of an index entry, from its offset the first time */
static Dwarf_Die *idx_die(struct debuginfo *dbg, struct idx_ent *e)
{
	if (!e->die_ok) {
		if (!dwarf_offdie(dbg->dw, e->off, &e->die))
			return NULL;
		e->die_ok = true;
	}
	return &e->die;
}

/* ---- the DWARF index from the raw bytes of .debug_info ---- */

/*
 * Walking every DIE through libdw costs an abbrev hash lookup under a lock per DIE and per
 * attribute (80% of a -D on a 42 MB Go binary once the sections are inflated). The index
 * needs little of each DIE: this reads .debug_info directly with the unit's abbrev table,
 * skips attribute values by their form, jumps over subtrees with DW_AT_sibling, and decodes
 * only the names and references of the DIEs index_walk() would visit, with the same rules.
 * Whatever it does not understand (split units, unknown forms or sections it cannot read)
 * makes index_build() fall back to index_walk().
 */
struct rsec {
	const uint8_t *p;
	size_t size;
};

struct rattr {
	uint16_t at;
	uint16_t form;
	int size;		/* form_fixed_size() for the table's unit parameters */
	int64_t implicit;
};

struct rabbrev {
	uint32_t tag;
	uint32_t first;		/* index in rtable.attrs */
	uint16_t nattr;
	bool children;
	bool code;		/* DW_AT_low_pc or DW_AT_ranges */
	bool inline_;		/* DW_AT_inline */
	bool sibling;		/* DW_AT_sibling of a DIE with children */
	int fixed;		/* bytes of all attribute values when constant, else -1 */
};

struct rtable {
	uint64_t off;
	int addr_size, off_size, version;	/* what fixed was computed for */
	struct rabbrev *ab;	/* by code; tag 0: no such code */
	size_t nr_ab, alloc_ab;
	struct rattr *attrs;
	size_t nr_attrs, alloc_attrs;
	bool valid;
};

struct runit {
	uint64_t start;		/* offset of the unit header */
	const uint8_t *end;
	int addr_size, off_size, version;
	uint64_t str_off_base;
	bool have_str_off_base;
};

struct rscan {
	struct debuginfo *dbg;
	Dwarf *dw;
	struct rsec info, abbrev, str, line_str, str_offsets;
	struct rsec alt_info, alt_str;
	struct rtable tab;
	bool bad;
};

/* a subprogram DIE's own names and references, for dwarf_attr_integrate()'s rules */
struct rdecl {
	uint64_t off;
	const char *name, *linkage, *mips;
	uint64_t origin, spec;	/* offsets in the main file; ~0: none or elsewhere */
	bool has_origin, has_spec;	/* the attribute is there at all */
	bool unread;		/* an attribute only libdw can read */
};

#define ROFF_NONE UINT64_MAX

static bool rsec_get(Elf *elf, const char *want, struct rsec *out)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	memset(out, 0, sizeof(*out));
	if (!elf || elf_getshdrstrndx(elf, &shstrndx) < 0)
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
		const char *name = sh ? elf_strptr(elf, shstrndx, sh->sh_name) : NULL;
		Elf_Data *data;

		if (!name || strcmp(name, want))
			continue;
		if ((sh->sh_flags & SHF_COMPRESSED) || sh->sh_type == SHT_NOBITS)
			return false;
		data = elf_rawdata(scn, NULL);
		if (!data || !data->d_buf)
			return false;
		out->p = data->d_buf;
		out->size = data->d_size;
		return true;
	}
	return false;
}


static inline uint64_t rd_n(const uint8_t *p, int n)
{
	uint64_t v = 0;

	/* little-endian only: x86-64 */
	memcpy(&v, p, n);
	return v;
}

/* the size of a value of @form when it does not depend on the data, else -1 (-2: unknown) */
static int form_fixed_size(unsigned form, const struct runit *u)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag: case DW_FORM_strx1:
	case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2: case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3: case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_strx4: case DW_FORM_addrx4:
	case DW_FORM_ref_sup4:
		return 4;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8: case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return u->addr_size;
	case DW_FORM_ref_addr:
		return u->version == 2 ? u->addr_size : u->off_size;
	case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_sec_offset:
	case DW_FORM_strp_sup: case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt:
		return u->off_size;
	case DW_FORM_string: case DW_FORM_block: case DW_FORM_block1: case DW_FORM_block2:
	case DW_FORM_block4: case DW_FORM_exprloc: case DW_FORM_sdata: case DW_FORM_udata:
	case DW_FORM_ref_udata: case DW_FORM_strx: case DW_FORM_addrx: case DW_FORM_loclistx:
	case DW_FORM_rnglistx: case DW_FORM_indirect: case DW_FORM_GNU_addr_index:
	case DW_FORM_GNU_str_index:
		return -1;
	default:
		return -2;
	}
}

/* skip one value; false on an unknown form or past @end */
static bool form_skip(const uint8_t **pp, const uint8_t *end, unsigned form,
		      const struct runit *u)
{
	const uint8_t *p = *pp;
	int n = form_fixed_size(form, u);
	uint64_t len;

	if (n >= 0) {
		p += n;
	} else if (n == -2) {
		return false;
	} else {
		switch (form) {
		case DW_FORM_string:
			p = memchr(p, 0, end - p);
			if (!p)
				return false;
			p++;
			break;
		case DW_FORM_block:
		case DW_FORM_exprloc:
			len = leb128_u(&p, end);
			if (len > (uint64_t)(end - p))
				return false;
			p += len;
			break;
		case DW_FORM_block1:
			if (p >= end)
				return false;
			p += 1 + p[0];
			break;
		case DW_FORM_block2:
			if (end - p < 2)
				return false;
			p += 2 + rd_n(p, 2);
			break;
		case DW_FORM_block4:
			if (end - p < 4)
				return false;
			p += 4 + rd_n(p, 4);
			break;
		case DW_FORM_sdata:
			leb128_s(&p, end);
			break;
		case DW_FORM_indirect:
			form = leb128_u(&p, end);
			if (form == DW_FORM_indirect || form == DW_FORM_implicit_const)
				return false;
			if (!form_skip(&p, end, form, u))
				return false;
			break;
		default:	/* the ULEB128 ones */
			leb128_u(&p, end);
			break;
		}
	}
	if (p > end)
		return false;
	*pp = p;
	return true;
}

/* read a constant, reference or string offset of a fixed or ULEB form */
static bool form_read(const uint8_t **pp, const uint8_t *end, unsigned form,
		      const struct runit *u, int64_t implicit, uint64_t *val)
{
	const uint8_t *p = *pp;
	int n = form_fixed_size(form, u);

	if (form == DW_FORM_implicit_const) {
		*val = implicit;
		return true;
	}
	if (form == DW_FORM_indirect) {
		form = leb128_u(&p, end);
		*pp = p;
		return form != DW_FORM_indirect && form != DW_FORM_implicit_const &&
		       form_read(pp, end, form, u, 0, val);
	}
	if (n > 8 || n == -2)
		return false;
	if (n >= 0) {
		if (end - p < n)
			return false;
		*val = rd_n(p, n);
		*pp = p + n;
		return true;
	}
	if (form == DW_FORM_sdata) {
		*val = leb128_s(&p, end);
		*pp = p;
		return true;
	}
	if (form == DW_FORM_udata || form == DW_FORM_ref_udata || form == DW_FORM_strx ||
	    form == DW_FORM_GNU_str_index) {
		*val = leb128_u(&p, end);
		*pp = p;
		return true;
	}
	return false;
}

static void rtable_release(struct rtable *t)
{
	free(t->ab);
	free(t->attrs);
	memset(t, 0, sizeof(*t));
}

/* parse the abbrev table at @off for unit @u (kept while units share it) */
static bool rtable_load(struct rscan *s, uint64_t off, const struct runit *u)
{
	struct rtable *t = &s->tab;
	const uint8_t *p, *end = s->abbrev.p + s->abbrev.size;

	if (t->valid && t->off == off && t->addr_size == u->addr_size &&
	    t->off_size == u->off_size && t->version == u->version)
		return true;
	t->valid = false;
	t->nr_ab = t->nr_attrs = 0;
	if (off >= s->abbrev.size)
		return false;
	p = s->abbrev.p + off;
	for (;;) {
		uint64_t code = leb128_u(&p, end);
		struct rabbrev ab = { 0 };

		if (!code)
			break;
		if (p >= end || code > (1u << 20))
			return false;
		ab.tag = leb128_u(&p, end);
		if (p >= end)
			return false;
		ab.children = *p++ == DW_CHILDREN_yes;
		ab.first = t->nr_attrs;
		ab.nattr = 0;
		ab.fixed = 0;
		for (;;) {
			uint64_t at = leb128_u(&p, end), form = leb128_u(&p, end);
			int64_t ic = 0;
			int n;

			if (p >= end)
				return false;
			if (!at && !form)
				break;
			if (form == DW_FORM_implicit_const)
				ic = leb128_s(&p, end);
			n = form_fixed_size(form, u);
			if (n == -2 || at > 0xffff || form > 0xffff)
				return false;
			if (n < 0 || ab.fixed < 0)
				ab.fixed = -1;
			else
				ab.fixed += n;
			if (at == DW_AT_low_pc || at == DW_AT_ranges)
				ab.code = true;
			if (at == DW_AT_inline)
				ab.inline_ = true;
			if (at == DW_AT_sibling)
				ab.sibling = true;
			ALLOC_GROW(t->attrs, t->nr_attrs + 1, t->alloc_attrs);
			t->attrs[t->nr_attrs++] = (struct rattr){ at, form, n, ic };
			ab.nattr++;
		}
		if (code >= t->nr_ab) {
			size_t old = t->nr_ab;

			ALLOC_GROW(t->ab, code + 1, t->alloc_ab);
			memset(t->ab + old, 0, (code + 1 - old) * sizeof(*t->ab));
			t->nr_ab = code + 1;
		}
		if (!ab.tag)
			return false;
		t->ab[code] = ab;
	}
	t->off = off;
	t->addr_size = u->addr_size;
	t->off_size = u->off_size;
	t->version = u->version;
	t->valid = true;
	return true;
}

static const char *rstr_at(const struct rsec *sec, uint64_t off)
{
	if (!sec->p || off >= sec->size || !memchr(sec->p + off, 0, sec->size - off))
		return NULL;
	return (const char *)sec->p + off;
}

/* a string attribute's value; NULL when absent or not a string form we can read */
static const char *rstr(struct rscan *s, const struct runit *u, unsigned form, uint64_t v,
			const char *inl, bool *unread)
{
	switch (form) {
	case DW_FORM_string:
		return inl;
	case DW_FORM_strp:
		return rstr_at(&s->str, v);
	case DW_FORM_line_strp:
		return rstr_at(&s->line_str, v);
	case DW_FORM_GNU_strp_alt:
		return rstr_at(&s->alt_str, v);
	case DW_FORM_strx: case DW_FORM_strx1: case DW_FORM_strx2: case DW_FORM_strx3:
	case DW_FORM_strx4: case DW_FORM_GNU_str_index: {
		uint64_t base = u->have_str_off_base ? u->str_off_base :
				(uint64_t)(u->off_size == 8 ? 16 : 8);
		uint64_t at = base + v * u->off_size;

		if (!s->str_offsets.p || at + u->off_size > s->str_offsets.size) {
			*unread = true;
			return NULL;
		}
		return rstr_at(&s->str, rd_n(s->str_offsets.p + at, u->off_size));
	}
	default:
		*unread = true;
		return NULL;
	}
}

/* what index_walk() would read of one DIE */
struct rdie {
	const char *name, *linkage, *mips;
	uint64_t origin, spec, sibling;	/* main-file offsets, ROFF_NONE when absent */
	const void *origin_addr;		/* abstract origin's bytes (main or alt file) */
	bool has_origin, has_spec;
	bool unread;				/* something only libdw can answer */
};

static bool rdie_read(struct rscan *s, const struct runit *u, const struct rabbrev *ab,
		      const uint8_t **pp, struct rdie *d)
{
	const uint8_t *p = *pp;

	memset(d, 0, sizeof(*d));
	d->origin = d->spec = d->sibling = ROFF_NONE;
	for (unsigned i = 0; i < ab->nattr; i++) {
		const struct rattr *a = &s->tab.attrs[ab->first + i];
		unsigned form = a->form;
		const char *inl = (const char *)p;
		uint64_t v = 0;

		switch (a->at) {
		case DW_AT_name:
		case DW_AT_linkage_name:
		case DW_AT_MIPS_linkage_name:
		case DW_AT_abstract_origin:
		case DW_AT_specification:
		case DW_AT_sibling:
			break;
		default:
			if (!form_skip(&p, u->end, form, u))
				return false;
			continue;
		}
		if (form == DW_FORM_indirect) {
			form = leb128_u(&p, u->end);
			inl = (const char *)p;
		}
		if (form == DW_FORM_string) {
			if (!form_skip(&p, u->end, form, u))
				return false;
		} else if (!form_read(&p, u->end, form, u, a->implicit, &v)) {
			if (!form_skip(&p, u->end, form, u))
				return false;
			d->unread = true;
			continue;
		}
		if (a->at == DW_AT_name || a->at == DW_AT_linkage_name ||
		    a->at == DW_AT_MIPS_linkage_name) {
			const char *str = rstr(s, u, form, v, inl, &d->unread);

			if (a->at == DW_AT_name)
				d->name = str;
			else if (a->at == DW_AT_linkage_name)
				d->linkage = str;
			else
				d->mips = str;
			continue;
		}
		/* references */
		switch (form) {
		case DW_FORM_ref1: case DW_FORM_ref2: case DW_FORM_ref4: case DW_FORM_ref8:
		case DW_FORM_ref_udata:
			v += u->start;
			break;
		case DW_FORM_ref_addr:
			break;
		case DW_FORM_GNU_ref_alt:
			if (a->at == DW_AT_abstract_origin) {
				d->has_origin = true;
				if (s->alt_info.p && v < s->alt_info.size)
					d->origin_addr = s->alt_info.p + v;
				/* a name behind it: only libdw reads the alt file */
			}
			if (a->at != DW_AT_sibling)
				d->unread = true;
			continue;
		default:
			if (a->at != DW_AT_sibling)
				d->unread = true;
			continue;
		}
		if (v >= s->info.size) {
			d->unread = true;
			continue;
		}
		if (a->at == DW_AT_abstract_origin) {
			d->has_origin = true;
			d->origin = v;
			d->origin_addr = s->info.p + v;
		} else if (a->at == DW_AT_specification) {
			d->has_spec = true;
			d->spec = v;
		} else {
			d->sibling = v;
		}
	}
	*pp = p;
	return true;
}

/* skip a DIE's attribute values */
static inline bool rdie_skip(struct rscan *s, const struct runit *u, const struct rabbrev *ab,
			     const uint8_t **pp)
{
	const struct rattr *a = &s->tab.attrs[ab->first], *end = a + ab->nattr;

	if (ab->fixed >= 0) {
		*pp += ab->fixed;
		return *pp <= u->end;
	}
	for (; a < end; a++) {
		if (a->size >= 0)
			*pp += a->size;
		else if (!form_skip(pp, u->end, a->form, u))
			return false;
	}
	return *pp <= u->end;
}

static bool scope_tag_lang(int tag, int lang)
{
	return lang_nests_names(lang) || tag == DW_TAG_namespace;
}

#define RSCAN_DEPTH 66

/* one unit's DIEs; false when the unit holds something only libdw can read */
static bool rscan_unit(struct rscan *s, struct runit *u, const uint8_t *p,
		       struct rdecl **decls, size_t *nr_decls, size_t *alloc_decls)
{
	struct debuginfo *dbg = s->dbg;
	const char *scope[RSCAN_DEPTH + 1];
	bool active[RSCAN_DEPTH + 1];
	int depth = 0, lang = 0;
	bool top = true;

	scope[0] = NULL;
	active[0] = true;
	while (p < u->end) {
		const uint8_t *die = p;
		const struct rabbrev *ab;
		uint64_t code = leb128_u(&p, u->end);
		bool act, descend = false;
		const char *child_scope;
		struct rdie d;

		if (!code) {
			if (depth-- == 0)
				return true;	/* padding after the unit DIE's children */
			continue;
		}
		if (code >= s->tab.nr_ab || !s->tab.ab[code].tag)
			return false;
		ab = &s->tab.ab[code];
		act = depth <= RSCAN_DEPTH && active[depth];
		child_scope = depth <= RSCAN_DEPTH ? scope[depth] : NULL;
		if (top) {
			/* the unit DIE: language and string offsets base */
			const uint8_t *q = p;

			top = false;
			if (ab->tag != DW_TAG_compile_unit && ab->tag != DW_TAG_partial_unit)
				return true;	/* a type unit: nothing for the index */
			for (unsigned i = 0; i < ab->nattr; i++) {
				const struct rattr *a = &s->tab.attrs[ab->first + i];
				uint64_t v;

				if (a->at == DW_AT_language || a->at == DW_AT_str_offsets_base) {
					if (!form_read(&q, u->end, a->form, u, a->implicit, &v))
						return false;
					if (a->at == DW_AT_language)
						lang = (int)v;
					else {
						u->str_off_base = v;
						u->have_str_off_base = true;
					}
				} else if (!form_skip(&q, u->end, a->form, u)) {
					return false;
				}
			}
			p = q;
			if (!ab->children)
				return true;
			depth = 1;
			scope[1] = NULL;
			active[1] = true;
			continue;
		}
		if (!act) {
			/* inside a subtree index_walk() does not enter */
			if (!ab->children || !ab->sibling) {
				if (!rdie_skip(s, u, ab, &p))
					return false;
				d.sibling = ROFF_NONE;
			} else if (!rdie_read(s, u, ab, &p, &d)) {
				return false;
			}
			if (ab->children) {
				if (d.sibling != ROFF_NONE &&
				    d.sibling > (uint64_t)(p - s->info.p) &&
				    s->info.p + d.sibling <= u->end) {
					p = s->info.p + d.sibling;
					continue;
				}
				depth++;
				if (depth <= RSCAN_DEPTH)
					active[depth] = false;
			}
			continue;
		}
		switch (ab->tag) {
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			if (!rdie_read(s, u, ab, &p, &d))
				return false;
			if (ab->children && scope_tag_lang(ab->tag, lang)) {
				const char *n = d.name;

				descend = true;
				if (!n && (d.has_origin || d.has_spec || d.unread)) {
					/* dwarf_diename() follows the references: ask libdw */
					Dwarf_Die dd;

					if (dwarf_offdie(s->dw, die - s->info.p, &dd))
						n = dwarf_diename(&dd);
				}
				if (n)
					child_scope = intern_scope(dbg, child_scope, n);
			}
			break;
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine: {
			bool abstract = ab->tag == DW_TAG_subprogram && ab->inline_;
			struct idx_ent *e;

			if (!rdie_read(s, u, ab, &p, &d))
				return false;
			if (ab->tag == DW_TAG_subprogram) {
				ALLOC_GROW(*decls, *nr_decls + 1, *alloc_decls);
				(*decls)[(*nr_decls)++] = (struct rdecl){
					.off = die - s->info.p,
					.name = d.name, .linkage = d.linkage, .mips = d.mips,
					.origin = d.origin, .spec = d.spec,
					.has_origin = d.has_origin, .has_spec = d.has_spec,
					.unread = d.unread,
				};
			}
			if (!ab->code && !abstract)
				break;
			ALLOC_GROW(dbg->idx, dbg->nr_idx + 1, dbg->alloc_idx);
			e = &dbg->idx[dbg->nr_idx++];
			memset(e, 0, sizeof(*e));
			e->off = die - s->info.p;
			e->addr = die;
			e->lang = lang;
			e->has_code = ab->code;
			e->is_abstract = abstract;
			e->scope = child_scope;
			if (ab->tag == DW_TAG_inlined_subroutine) {
				e->inlined = true;
				e->origin = d.origin_addr;
			} else {
				/* names: resolved after the scan (they may follow the DIE) */
				e->decl = *nr_decls;	/* 1-based */
			}
			descend = ab->code;
			break;
		}
		case DW_TAG_lexical_block:
			descend = true;
			/* fall through */
		default:
			if (!descend && (!ab->children || !ab->sibling)) {
				if (!rdie_skip(s, u, ab, &p))
					return false;
				break;
			}
			if (!rdie_read(s, u, ab, &p, &d))
				return false;
			if (!descend && ab->children && d.sibling != ROFF_NONE &&
			    d.sibling > (uint64_t)(p - s->info.p) &&
			    s->info.p + d.sibling <= u->end) {
				p = s->info.p + d.sibling;
				continue;
			}
			break;
		}
		if (ab->children) {
			depth++;
			if (depth <= RSCAN_DEPTH) {
				active[depth] = descend && depth <= 65;
				scope[depth] = child_scope;
			}
		}
	}
	/* some producers leave out the closing null entries */
	return true;
}

static int rdecl_cmp(const void *key, const void *elem)
{
	uint64_t k = *(const uint64_t *)key, o = ((const struct rdecl *)elem)->off;

	return k < o ? -1 : k > o;
}

/*
 * dwarf_attr_integrate() over the scanned subprograms: the attribute, else the abstract
 * origin's, else the specification's; false when the chain leaves what was scanned
 */
static bool rdecl_integrate(const struct rdecl *decls, size_t nr, const struct rdecl *r,
			    int which, const char **out)
{
	for (int chain = 0; chain < 9 && r; chain++) {
		const char *v = which == 0 ? r->name : which == 1 ? r->linkage : r->mips;
		uint64_t next;

		if (r->unread)
			return false;
		if (v) {
			*out = v;
			return true;
		}
		if (r->has_origin)
			next = r->origin;
		else if (r->has_spec)
			next = r->spec;
		else {
			*out = NULL;
			return true;
		}
		if (next == ROFF_NONE)
			return false;
		r = bsearch(&next, decls, nr, sizeof(*decls), rdecl_cmp);
	}
	return false;
}

/* the index from the raw bytes; false (and nothing added) when libdw has to do it */
static bool index_build_raw(struct debuginfo *dbg, Dwarf *dw)
{
	struct rscan s = { .dbg = dbg, .dw = dw };
	struct rdecl *decls = NULL;
	size_t nr_decls = 0, alloc_decls = 0, libdw_names = 0;
	Elf *elf = dwarf_getelf(dw);
	Dwarf *alt = dwarf_getalt(dw);
	const uint8_t *p, *end;
	bool ok = true;

	if (!rsec_get(elf, ".debug_info", &s.info) || !rsec_get(elf, ".debug_abbrev", &s.abbrev))
		return false;
	rsec_get(elf, ".debug_str", &s.str);
	rsec_get(elf, ".debug_line_str", &s.line_str);
	rsec_get(elf, ".debug_str_offsets", &s.str_offsets);
	if (alt) {
		rsec_get(dwarf_getelf(alt), ".debug_info", &s.alt_info);
		rsec_get(dwarf_getelf(alt), ".debug_str", &s.alt_str);
	}
	p = s.info.p;
	end = p + s.info.size;
	while (ok && end - p >= 11) {
		struct runit u = { .start = p - s.info.p };
		uint64_t len = rd_n(p, 4), abbrev_off;
		uint8_t unit_type = DW_UT_compile;

		p += 4;
		u.off_size = 4;
		if (len == 0xffffffff) {
			if (end - p < 8) {
				ok = false;
				break;
			}
			len = rd_n(p, 8);
			p += 8;
			u.off_size = 8;
		} else if (len >= 0xfffffff0) {
			ok = false;
			break;
		}
		if (len > (uint64_t)(end - p)) {
			ok = false;
			break;
		}
		u.end = p + len;
		/* the longest header read below: version, unit type, address size, abbrev offset */
		if (len < 4 + (uint64_t)u.off_size) {
			ok = false;
			break;
		}
		u.version = rd_n(p, 2);
		p += 2;
		if (u.version >= 5) {
			unit_type = p[0];
			u.addr_size = p[1];
			p += 2;
			abbrev_off = rd_n(p, u.off_size);
			p += u.off_size;
			if (unit_type == DW_UT_type || unit_type == DW_UT_split_type) {
				p = u.end;
				continue;
			}
			if (unit_type != DW_UT_compile && unit_type != DW_UT_partial) {
				ok = false;	/* skeleton and split units: libdw */
				break;
			}
		} else if (u.version >= 2) {
			abbrev_off = rd_n(p, u.off_size);
			p += u.off_size;
			u.addr_size = *p++;
		} else {
			ok = false;
			break;
		}
		if ((u.addr_size != 4 && u.addr_size != 8) || p > u.end ||
		    !rtable_load(&s, abbrev_off, &u) ||
		    !rscan_unit(&s, &u, p, &decls, &nr_decls, &alloc_decls)) {
			ok = false;
			break;
		}
		p = u.end;
	}
	rtable_release(&s.tab);
	if (!ok) {
		pr_debug("raw DWARF scan gave up at %#lx: libdw walks the DIEs",
			 (unsigned long)(p - s.info.p));
		for (size_t i = 0; i < dbg->nr_idx; i++)
			free(dbg->idx[i].name);
		dbg->nr_idx = 0;
		free(decls);
		return false;
	}
	/* names as dwarf_attr_integrate() finds them */
	for (size_t i = 0; i < dbg->nr_idx; i++) {
		struct idx_ent *e = &dbg->idx[i];
		const struct rdecl *r;
		const char *lk = NULL;

		if (!e->decl)
			continue;
		r = &decls[e->decl - 1];
		if (rdecl_integrate(decls, nr_decls, r, 0, &e->dwname) &&
		    rdecl_integrate(decls, nr_decls, r, 1, &lk) &&
		    (lk || rdecl_integrate(decls, nr_decls, r, 2, &lk))) {
			e->linkage = lk;
		} else {
			Dwarf_Die *die = idx_die(dbg, e);

			libdw_names++;
			e->dwname = die ? die_str(die, DW_AT_name) : NULL;
			e->linkage = die ? die_str(die, DW_AT_linkage_name) : NULL;
			if (die && !e->linkage)
				e->linkage = die_str(die, DW_AT_MIPS_linkage_name);
		}
		e->decl = 0;
	}
	free(decls);
	pr_debug("raw DWARF scan: %zu function DIEs, %zu names through libdw", dbg->nr_idx,
		 libdw_names);
	return true;
}

/* one pass over every unit, once per debuginfo */
static void index_build(struct debuginfo *dbg)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie;
	uint8_t unit_type;
	Dwarf *dw;

	if (dbg->idx_built)
		return;
	dbg->idx_built = true;
	dw = debuginfo_dwarf(dbg, NULL);
	if (!dw)
		return;
	if (index_build_raw(dbg, dw))
		return;
	while (dwarf_get_units(dw, cu, &cu, NULL, &unit_type, &cudie, &subdie) == 0) {
		Dwarf_Die *top = unit_type == DW_UT_skeleton ? &subdie : &cudie;
		int lang = dwarf_srclang(top);

		index_walk(dbg, top, NULL, lang < 0 ? 0 : lang, 0);
	}
	pr_debug("DWARF index: %zu function DIEs", dbg->nr_idx);
}

static const char *idx_name(struct idx_ent *e)
{
	if (!e->name) {
		if (e->linkage && is_mangled(e->linkage))
			e->name = demangle(e->linkage, false);
		else if (e->scope && e->dwname)
			e->name = xasprintf("%s::%s", e->scope, e->dwname);
		else
			e->name = xstrdup(e->dwname ?: "");
	}
	return e->name;
}

/* the demangled signature when it says more than idx_name(), else the name */
static const char *idx_ident(struct idx_ent *e)
{
	if (!e->sig) {
		e->sig = e->linkage && is_mangled(e->linkage) ? demangle(e->linkage, true) :
			 xstrdup(idx_name(e));
	}
	return strcmp(e->sig, idx_name(e)) ? e->sig : idx_name(e);
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
	struct idx_ent *e;	/* from DWARF */
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
	size_t nr_funcs = 0, nr_syms;
	int best = MATCH_NONE, ret = 0;
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
		index_build(dbg);
		for (size_t i = 0; i < dbg->nr_idx; i++) {
			struct idx_ent *e = &dbg->idx[i];
			int q;

			if (e->inlined || !e->dwname)
				continue;
			if (pt.key[0] && !strstr(e->dwname, pt.key) &&
			    !(e->linkage && strstr(e->linkage, pt.key)))
				continue;
			q = pattern_match(&pt, idx_name(e), NULL);
			if (q == MATCH_NONE || q < best)
				continue;
			if (q > best) {
				best = q;
				nr_cands = 0;
			}
			ALLOC_GROW(cands, nr_cands + 1, alloc_cands);
			cands[nr_cands++] = (struct cand){ .name = idx_name(e), .e = e, .q = q };
			if (idx_ident(e) != idx_name(e))
				cands[nr_cands - 1].sig = idx_ident(e);
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
			f.lang = guess_lang(dbg);
			if (func_die_at(dbg, f.entry, &die, &cu)) {
				uint64_t e, end;

				func_fill_die(&f, &die);
				if (!f.end && die_code_range(&die, &e, &end) && e == f.entry)
					f.end = end;
				o = inline_origin(&die);
			}
		} else {
			struct idx_ent *e = cands[i].e;

			Dwarf_Die *edie = idx_die(dbg, e);

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

		index_build(dbg);
		/* C++ overloads share a name: compare signatures */
		for (size_t i = 0; i < nr_cands; i++)
			names[nr_names++] = cands[i].sig ?: cands[i].name;
		qsort(names, nr_names, sizeof(*names), strcmp_ptr);
		for (size_t i = 0; i < dbg->nr_idx; i++) {
			struct idx_ent *e = &dbg->idx[i];

			if (!e->is_abstract || !e->dwname)
				continue;
			if (pt.key[0] && !strstr(e->dwname, pt.key) &&
			    !(e->linkage && strstr(e->linkage, pt.key)))
				continue;
			if (!bsearch(&(const char *){ idx_ident(e) }, names, nr_names,
				     sizeof(*names), strcmp_ptr))
				continue;
			ALLOC_GROW(origins, nr_origins + 1, alloc_origins);
			origins[nr_origins++] = e->addr;
		}
		free(names);
		qsort(origins, nr_origins, sizeof(*origins), ptr_cmp);
		for (size_t i = 0; i < dbg->nr_idx; i++) {
			struct idx_ent *e = &dbg->idx[i];
			struct func f = { 0 };
			Dwarf_Die *die;

			if (!e->inlined || !e->origin ||
			    !bsearch(&e->origin, origins, nr_origins, sizeof(*origins), ptr_cmp))
				continue;
			die = idx_die(dbg, e);
			if (!die || !die_code_range(die, &f.entry, &f.end))
				continue;
			f.inlined = true;
			/* the abstract DIE's name, which is what was matched */
			f.name = debuginfo_die_name(die);
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
					lk = die_str(&o, DW_AT_linkage_name);
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
