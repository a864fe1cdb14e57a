// SPDX-License-Identifier: GPL-2.0-or-later
/* debuginfo.c - a binary opened for tracing: ELF, separate debuginfo, DWARF (debugsec.c inflates it) */
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOG_DOMAIN "debuginfo"
#include "arch/arch.h"
#include "debuginfo.h"
#include "debugsec.h"
#include "dwarf-index-raw.h"
#include "dwarf-index.h"
#include "elfinfo.h"
#include "log.h"
#include "mapguard.h"
#include "remote.h"
#include "symtab.h"
#include "type-complete.h"
#include "type-index.h"

struct debuginfo {
	int fd;			/* the file, opened once: libelf, libdw and the kernel read it */
	uint64_t size;		/* its size when opened: every offset is checked against it */
	struct timespec mtime;	/* its mtime when opened: a later one means it was written */
	char *path;		/* its absolute path, from the descriptor (what -D, -a print) */
	char *kpath;		/* /proc/<pid>/fd/<fd>: the same file for the kernel, while we live */
	char *base;
	char *build_id;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Elf *elf;
	Dwarf *dw;
	Dwarf_Addr bias;
	const void *map, *debug_map;	/* the mappings of the file and of its separate DWARF */
	bool dwarf_tried;
	enum debugsec_need need;	/* what of the DWARF the mode reads (debuginfo_need()) */
	struct debugsec *zsec;	/* its sections we inflated: freed after dwfl_end() */
	Dwarf_CFI *cfi;
	bool cfi_tried;

	struct symtab *syms;	/* loaded on first use */
	struct {		/* tables of other modules, made on first use */
		void *p;
		void (*release)(void *p);
	} tables[DEBUGINFO_TABLES];

	int guessed_lang;		/* for functions without DWARF: DW_LANG_Go or 0 */
	bool lang_guessed;

	struct dw_index *idx;	/* with dw; its functions read on first use (idx_built) */
	bool idx_built;
	struct type_index *types;	/* with dw; read on its first lookup */
	struct strmap globals;	/* debuginfo_global(): name -> index in global_dies, from 1 */
	struct global_die {
		bool found;
		Dwarf_Die die;
	} *global_dies;
	size_t nr_globals, alloc_globals;
};

static char *debuginfo_search_path = NULL;

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_search_path,
};

static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO" :
	       S_ISCHR(mode) ? "a character device" : S_ISBLK(mode) ? "a block device" :
	       S_ISSOCK(mode) ? "a socket" : "not a regular file";
}

/*
 * open_regular() - @path opened for reading, when it is a regular file. A special file is
 * not opened (a FIFO would block, a device could act on it); O_NONBLOCK and fstat() catch
 * one swapped in after stat().
 * Return: the descriptor with @st filled, or a negative errno with @d filled.
 */
static int open_regular(const char *path, struct stat *st, struct diag *d)
{
	const char *name = path;	/* diag_format() escapes what messages quote */
	int fd = -1, err;

	if (stat(path, st) < 0) {
		err = errno;
		if (err == ENOENT || err == ENOTDIR)
			diag_error(d, SPAN_NONE, "no such binary '%s'", name);
		else
			diag_error(d, SPAN_NONE, "cannot open %s: %s", name, strerror(err));
		goto out;
	}
	if (!S_ISREG(st->st_mode)) {
		diag_error(d, SPAN_NONE, "%s is %s, not a binary", name, file_kind(st->st_mode));
		goto out;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		diag_fail(d, "cannot open %s: %s", name, strerror(errno));
	} else if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
		diag_error(d, SPAN_NONE, "%s is %s, not a binary", name, file_kind(st->st_mode));
		close(fd);
		fd = -1;
	}
out:
	return fd < 0 ? -EINVAL : fd;
}

/* the absolute path of the file open at @fd, as the kernel names it; @path's realpath else */
static char *fd_path(int fd, const char *path)
{
	char link[64], buf[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n > 0 && buf[0] == '/') {
		buf[n] = '\0';
		return xstrdup(buf);
	}
	return realpath(path, NULL) ?: xstrdup(path);
}

/* libdwfl reads the ELF from a duplicate of our descriptor (it closes what it is given) */
static int report_elf(struct debuginfo *dbg, struct diag *d)
{
	int fd = fcntl(dbg->fd, F_DUPFD_CLOEXEC, 0);
	Dwarf_Addr b;

	if (fd < 0)
		return diag_fail(d, "cannot duplicate a descriptor: %s", strerror(errno));
	dbg->dwfl = dwfl_begin(&dwfl_callbacks);
	if (!dbg->dwfl) {
		close(fd);
		return diag_fail(d, "libdwfl: %s", dwfl_errmsg(-1));
	}
	dwfl_report_begin(dbg->dwfl);
	/* base 0, add_p_vaddr: a PIE's DWARF addresses stay the file's own virtual addresses;
	 * the path only tells libdwfl where .gnu_debuglink files are */
	dbg->mod = dwfl_report_elf(dbg->dwfl, dbg->base, dbg->path, fd, 0, true);
	dwfl_report_end(dbg->dwfl, NULL, NULL);
	if (!dbg->mod)
		close(fd);
	dbg->elf = dbg->mod ? dwfl_module_getelf(dbg->mod, &b) : NULL;
	if (!dbg->elf || b != 0)
		return diag_error(d, SPAN_NONE, "cannot read ELF %s: %s", dbg->path, dwfl_errmsg(-1));
	/* libdwfl maps the file: a truncation by someone else is a SIGBUS, made an error line */
	dbg->map = elf_rawfile(dbg->elf, NULL);
	mapguard_add(dbg->map, dbg->size, dbg->path);
	return 0;
}

/* the separate debuginfo file libdwfl found (and mapped), named for the SIGBUS handler too */
static void guard_debug_file(struct debuginfo *dbg)
{
	Elf *elf = dwarf_getelf(dbg->dw);
	const char *debugfile = NULL;
	size_t size = 0;

	if (!elf || elf == dbg->elf)
		return;
	dwfl_module_info(dbg->mod, NULL, NULL, NULL, NULL, NULL, NULL, &debugfile);
	dbg->debug_map = elf_rawfile(elf, &size);
	mapguard_add(dbg->debug_map, size, debugfile ?: "the separate debug information");
}

struct debuginfo *debuginfo_open(const char *path, struct diag *d)
{
	struct strbuf looked = STRBUF_INIT;
	const struct arch_ops *arch;
	struct debuginfo *dbg = NULL;
	const unsigned char *bits;
	GElf_Addr bid_vaddr;
	struct stat st;
	char *found;
	int fd, n;

	found = elfinfo_find_binary(path, &looked);
	if (!found) {
		diag_error(d, SPAN_NONE, "no such binary '%s'", path);
		if (looked.len && strcmp(looked.buf, path))
			diag_hint(d, "looked in: %s", looked.buf);
		if (!strchr(path, '/') && !stat(path, &st))
			diag_hint(d, "the current directory is not searched: write ./%s for the "
				  "file there", path);
		strbuf_release(&looked);
		return NULL;
	}
	strbuf_release(&looked);
	fd = open_regular(found, &st, d);
	if (fd < 0) {
		free(found);
		return NULL;
	}
	dbg = xcalloc(1, sizeof(*dbg));
	dbg->fd = fd;
	dbg->size = st.st_size;
	dbg->mtime = st.st_mtim;
	dbg->path = fd_path(fd, found);
	free(found);
	dbg->base = xstrdup(strrchr(dbg->path, '/') ? strrchr(dbg->path, '/') + 1 : dbg->path);
	dbg->kpath = xasprintf("/proc/%d/fd/%d", (int)getpid(), fd);
	n = elfinfo_check(fd, dbg->size, dbg->path, &arch, d);
	if (n < 0)
		goto err;
	if (arch_use(arch) < 0) {
		diag_error(d, SPAN_NONE, "%s is ELF for %s, and a binary opened before it for %s: "
			   "upfront traces the programs of one machine at a time", dbg->path,
			   arch->name, arch_current()->name);
		goto err;
	}
	if (report_elf(dbg, d) < 0)
		goto err;
	n = dwfl_module_build_id(dbg->mod, &bits, &bid_vaddr);
	if (n > 0) {
		struct strbuf sb = STRBUF_INIT;

		for (int i = 0; i < n; i++)
			strbuf_addf(&sb, "%02x", bits[i]);
		dbg->build_id = strbuf_detach(&sb);
	}
	pr_debug("opened %s as %s, build-id %s", dbg->path, dbg->kpath, dbg->build_id ?: "-");
	return dbg;
err:
	debuginfo_free(dbg);
	return NULL;
}

void debuginfo_free(struct debuginfo *dbg)
{
	if (!dbg)
		return;
	for (int i = 0; i < DEBUGINFO_TABLES; i++)
		if (dbg->tables[i].p && dbg->tables[i].release)
			dbg->tables[i].release(dbg->tables[i].p);
	symtab_free(dbg->syms);
	dw_index_free(dbg->idx);
	type_complete_remove(dbg->types);
	type_index_free(dbg->types);
	if (dbg->globals.keys)
		strmap_release(&dbg->globals);
	free(dbg->global_dies);
	mapguard_remove(dbg->map);
	mapguard_remove(dbg->debug_map);
	if (dbg->dwfl)
		dwfl_end(dbg->dwfl);
	debugsec_free(dbg->zsec);
	if (dbg->fd >= 0)
		close(dbg->fd);
	free(dbg->path);
	free(dbg->kpath);
	free(dbg->base);
	free(dbg->build_id);
	free(dbg);
}

const char *debuginfo_path(const struct debuginfo *dbg)
{
	return dbg->path;
}

const char *debuginfo_kernel_path(const struct debuginfo *dbg)
{
	return dbg->kpath;
}

int debuginfo_fd(const struct debuginfo *dbg)
{
	return dbg->fd;
}

int debuginfo_unchanged(const struct debuginfo *dbg, struct diag *d)
{
	struct stat st;

	if (fstat(dbg->fd, &st) < 0)
		return diag_fail(d, "cannot stat %s: %s", dbg->path, strerror(errno));
	if ((uint64_t)st.st_size == dbg->size && st.st_mtim.tv_sec == dbg->mtime.tv_sec &&
	    st.st_mtim.tv_nsec == dbg->mtime.tv_nsec)
		return 0;
	if ((uint64_t)st.st_size != dbg->size)
		diag_error(d, SPAN_NONE, "%s changed while upfront read it (%lu bytes, now %lu)",
			   dbg->path, (unsigned long)dbg->size, (unsigned long)st.st_size);
	else
		diag_error(d, SPAN_NONE, "%s changed while upfront read it (written to meanwhile)",
			   dbg->path);
	diag_hint(d, "run again once it is written");
	return -ESTALE;
}

int debuginfo_same_file(const struct debuginfo *dbg, struct diag *d)
{
	struct stat now, mine;
	bool gone;

	if (debuginfo_unchanged(dbg, d) < 0)
		return -ESTALE;
	gone = stat(dbg->path, &now) < 0;
	if (!gone && fstat(dbg->fd, &mine) == 0 && now.st_dev == mine.st_dev &&
	    now.st_ino == mine.st_ino)
		return 0;
	/* a process of a container: its /proc/PID/exe names a path of its mount namespace */
	diag_error(d, SPAN_NONE, "%s %s (%s meanwhile, or a path of another mount namespace)",
		   dbg->path, gone ? "is not here" : "is no longer the file upfront read",
		   gone ? "removed" : "replaced");
	diag_hint(d, "trace it live instead: upfront gives the kernel the file it opened");
	return -ESTALE;
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

void debuginfo_need(struct debuginfo *dbg, enum debugsec_need need)
{
	if (!dbg->dwarf_tried)
		dbg->need = need;
}

Dwarf *debuginfo_dwarf(struct debuginfo *dbg, Dwarf_Addr *bias)
{
	if (!dbg->dwarf_tried) {
		dbg->dwarf_tried = true;
		dbg->zsec = debugsec_inflate(dbg->elf, dbg->need);
		remote_watch(dbg->dwfl, dbg->base);	/* a debuginfod download's progress */
		dbg->dw = dwfl_module_getdwarf(dbg->mod, &dbg->bias);
		remote_watch_end();
		if (dbg->dw) {
			const char *mainfile, *debugfile;

			guard_debug_file(dbg);
			dbg->idx = dw_index_new(dbg->dw);
			/* its definitions complete declarations, of its own units and others' */
			dbg->types = type_index_new(dbg->dw);
			type_complete_add(dbg->types, dbg->base);
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

const char *debuginfo_dwarf_path(struct debuginfo *dbg)
{
	const char *mainfile = NULL, *debugfile = NULL;

	if (!debuginfo_dwarf(dbg, NULL))
		return NULL;
	dwfl_module_info(dbg->mod, NULL, NULL, NULL, NULL, NULL, &mainfile, &debugfile);
	return debugfile ?: mainfile ?: dbg->path;
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
	remote_explain(dbg->build_id, &looked);	/* DEBUGINFOD_URLS: the servers' answer */
	diag_error(d, SPAN_NONE, "no debug information in %s (looked in: %s)", dbg->base,
		   looked.buf);
	diag_hint(d, "install the binary's -dbg/-dbgsym package or rebuild it with -g");
	strbuf_release(&looked);
	return -ENOENT;
}

int debuginfo_vaddr_to_offset(struct debuginfo *dbg, uint64_t vaddr, uint64_t *offset,
			      struct diag *d)
{
	/* elfinfo_check() saw every PT_LOAD inside the file: checked again, it costs nothing */
	if (!elfinfo_vaddr_to_offset(dbg->elf, vaddr, true, offset) && *offset < dbg->size)
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

void *debuginfo_table(struct debuginfo *dbg, enum debuginfo_table which,
		      void *(*make)(struct debuginfo *dbg), void (*release)(void *p))
{
	if (!dbg->tables[which].p) {
		dbg->tables[which].p = make(dbg);
		dbg->tables[which].release = release;
	}
	return dbg->tables[which].p;
}

int debuginfo_symbolize(struct debuginfo *dbg, uint64_t vaddr, struct strbuf *out)
{
	struct sym *s = symtab_covering(debuginfo_symtab(dbg), vaddr);

	if (!s)
		return -ENOENT;
	strbuf_addf(out, "%s+0x%lx", sym_name(s), (unsigned long)(vaddr - s->addr));
	return 0;
}

/* ---- DWARF: the function index and the function at an address ---- */

struct type_index *debuginfo_types(struct debuginfo *dbg)
{
	if (!debuginfo_dwarf(dbg, NULL))
		return NULL;
	if (!dbg->types)
		dbg->types = type_index_new(dbg->dw);
	return dbg->types;
}

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

static bool global_in_cu(Dwarf_Die *cu, const char *name, Dwarf_Die *out)
{
	Dwarf_Die child;

	if (dwarf_child(cu, &child) != 0)
		return false;
	do {
		const char *n;

		if (dwarf_tag(&child) != DW_TAG_variable)
			continue;
		n = dwarf_diename(&child);
		if (n && !strcmp(n, name) && (dwarf_hasattr(&child, DW_AT_location) ||
					      dwarf_hasattr(&child, DW_AT_const_value))) {
			*out = child;
			return true;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

bool debuginfo_global(struct debuginfo *dbg, const char *name, Dwarf_Die *out)
{
	Dwarf *dw = debuginfo_dwarf(dbg, NULL);
	Dwarf_Off off = 0, next;
	struct global_die g = { false };
	size_t hsize, *i;
	bool added;

	if (!dw)
		return false;
	if (!dbg->globals.keys)
		strmap_init(&dbg->globals, 8);
	i = strmap_find(&dbg->globals, name);
	if (i) {
		*out = dbg->global_dies[*i].die;
		return dbg->global_dies[*i].found;
	}
	while (!g.found && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		g.found = dwarf_offdie(dw, off + hsize, &cu) && global_in_cu(&cu, name, &g.die);
		off = next;
	}
	ALLOC_GROW(dbg->global_dies, dbg->nr_globals + 1, dbg->alloc_globals);
	dbg->global_dies[dbg->nr_globals] = g;
	strmap_add(&dbg->globals, name, dbg->nr_globals++, &added);
	*out = g.die;
	return g.found;
}

int debuginfo_getscopes_die(struct debuginfo *dbg, Dwarf_Die *cu, Dwarf_Die *fn,
			    Dwarf_Die **scopes)
{
	if (!debuginfo_dwarf(dbg, NULL))
		return dwarf_getscopes_die(fn, scopes);
	return dw_index_getscopes_die(dbg->idx, cu, fn, scopes);
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
