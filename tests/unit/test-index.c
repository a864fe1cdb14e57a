// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-index.c - the two function indexers agree on the real test targets (the raw
 * .debug_info reader and the libdw walk: the same function DIEs, names, addresses, inlined
 * copies), functions found by name lie where the ELF symbol table says, and the raw reader
 * survives corrupted .debug_info. No root, no kernel: only the binaries tests/targets/build.sh
 * makes, under $UPFT_TARGETS (default $UPFT_BUILDDIR/tests/build, else tests/build).
 */
#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/arch/arch.h"
#include "../../src/debuginfo.h"
#include "../../src/dwarf-aux.h"
#include "../../src/dwarf-index-raw.h"
#include "../../src/dwarf-index.h"
#include "../../src/funcs.h"
#include "../../src/symtab.h"
#include "targets.h"
#include "unittest.h"

/* every language and optimization level the targets are built at */
static const char *const targets[] = {
	"c/orders-O0", "c/orders-O2", "c/lines-O0", "c/lines-O2", "c/values-O2",
	"cpp/actors-O0", "cpp/actors-O2", "go/orders", "go/dnsfwd", "rust/orders-O0",
	"rust/orders-O1",
};

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* what differs between entry @x of index @a and entry @y of index @b, or NULL */
static const char *func_diff(struct dw_index *a, struct dw_func *x, struct dw_index *b,
			     struct dw_func *y)
{
	uint64_t ex = 0, ey = 0, endx = 0, endy = 0;
	Dwarf_Die *dx, *dy;
	bool hx, hy;

	if (x->off != y->off || x->addr != y->addr)
		return "DIE";
	if (x->origin != y->origin)
		return "abstract origin";
	if (x->inlined != y->inlined || x->has_code != y->has_code ||
	    x->is_abstract != y->is_abstract)
		return "kind (inlined, code, abstract)";
	if (x->lang != y->lang)
		return "language";
	if (!str_eq(x->dwname, y->dwname))
		return "DW_AT_name";
	if (!str_eq(x->linkage, y->linkage))
		return "linkage name";
	if (!str_eq(x->scope, y->scope))
		return "scope";
	if (strcmp(dw_func_name(x), dw_func_name(y)))
		return "name";
	if (strcmp(dw_func_ident(x), dw_func_ident(y)))
		return "signature";
	dx = dw_func_die(a, x);
	dy = dw_func_die(b, y);
	if (!dx || !dy)
		return "DIE not readable";
	hx = die_code_range(dx, &ex, &endx);
	hy = die_code_range(dy, &ey, &endy);
	if (hx != hy || ex != ey || endx != endy)
		return "code range";
	return NULL;
}

/* the raw reader and the libdw walk make the same index of @target */
static void test_indexers_agree(const char *target)
{
	struct debuginfo *dbg = open_target(target);
	size_t na, nb, bad = 0, inlined = 0;
	struct dw_index *raw, *lib;
	struct dw_func *a, *b;
	bool raw_ok;
	Dwarf *dw;

	if (!dbg)
		return;
	dw = debuginfo_dwarf(dbg, NULL);
	raw = dw_index_new(dw);
	lib = dw_index_new(dw);
	raw_ok = dw_index_read_raw(raw);
	UT_REPORT(raw_ok, "%s: the raw reader reads it (no fall back to libdw)", target);
	dw_index_walk(lib);
	a = dw_index_funcs(raw, &na);
	b = dw_index_funcs(lib, &nb);
	TEST_EQ(na, nb);
	for (size_t i = 0; i < na && i < nb; i++) {
		const char *why = func_diff(raw, &a[i], lib, &b[i]);

		inlined += b[i].inlined;
		if (why && !bad++)
			printf("#   entry %zu (DIE %#lx, %s): %s differs\n", i,
			       (unsigned long)b[i].off, dw_func_name(&b[i]), why);
	}
	UT_REPORT(raw_ok && nb > 0 && na == nb && !bad,
		  "%s: raw reader and libdw walk agree on %zu function DIEs (%zu inlined copies)",
		  target, nb, inlined);
	if (bad)
		printf("#   %zu of %zu entries differ\n", bad, nb);
	dw_index_free(raw);
	dw_index_free(lib);
	debuginfo_free(dbg);
}

/* @target opened with its index built by the raw reader, or (@libdw) the libdw walk */
static struct debuginfo *open_indexed(const char *target, bool libdw)
{
	struct debuginfo *dbg;

	if (libdw)
		setenv("UPFRONT_INDEX", "libdw", 1);
	else
		unsetenv("UPFRONT_INDEX");
	dbg = open_target(target);
	if (dbg)
		debuginfo_index(dbg);	/* the index is built now, while the variable says so */
	unsetenv("UPFRONT_INDEX");
	return dbg;
}

static const char *func_find_diff(const struct func *x, const struct func *y)
{
	if (!str_eq(x->name, y->name) || !str_eq(x->signature, y->signature))
		return "name";
	if (x->entry != y->entry || x->end != y->end)
		return "address";
	if (x->inlined != y->inlined || x->has_die != y->has_die || x->lang != y->lang)
		return "kind";
	/* two handles map the file twice: the DIEs' offsets tell */
	if (x->has_die && dwarf_dieoffset((Dwarf_Die *)&x->die) !=
			  dwarf_dieoffset((Dwarf_Die *)&y->die))
		return "DIE";
	return NULL;
}

/*
 * funcs_find() gives the same functions through either index (UPFRONT_INDEX=libdw), or the
 * same error (an ambiguous name lists the same candidates)
 */
static void test_find_agrees(const char *target, const char *const *patterns)
{
	struct debuginfo *raw = open_indexed(target, false), *lib = open_indexed(target, true);

	for (const char *const *p = patterns; raw && lib && *p; p++) {
		struct func *fa = NULL, *fb = NULL;
		size_t na = 0, nb = 0, bad = 0, inl = 0;
		struct diag da, db;
		int ra, rb;

		diag_init(&da, *p);
		diag_init(&db, *p);
		ra = funcs_find(raw, *p, &fa, &na, &da);
		rb = funcs_find(lib, *p, &fb, &nb, &db);
		for (size_t i = 0; i < na && i < nb; i++) {
			const char *why = func_find_diff(&fa[i], &fb[i]);

			inl += fb[i].inlined;
			if (why && !bad++)
				printf("#   function %zu (%s at %#lx): %s differs\n", i, fb[i].name,
				       (unsigned long)fb[i].entry, why);
		}
		UT_REPORT(ra == rb && str_eq(da.msg, db.msg) && na == nb && !bad,
			  "%s: '%s' finds the same %zu functions (%zu inlined) through both "
			  "indexes%s", target, *p, nb, inl, rb ? " (the same error)" : "");
		if (ra != rb || !str_eq(da.msg, db.msg) || na != nb)
			printf("#   raw: %d, %zu functions (%s); libdw: %d, %zu (%s)\n", ra, na,
			       da.msg ? da.msg : "", rb, nb, db.msg ? db.msg : "");
		funcs_free(fa, na);
		funcs_free(fb, nb);
		diag_release(&da);
		diag_release(&db);
	}
	debuginfo_free(raw);
	debuginfo_free(lib);
}

/* the function symbol named @name (as the language spells it), or NULL */
static struct sym *sym_named(struct debuginfo *dbg, const char *name)
{
	size_t nr;
	struct sym *v = symtab_syms(debuginfo_symtab(dbg), &nr);

	for (size_t i = 0; i < nr; i++)
		if (v[i].func && !strcmp(sym_name(&v[i]), name))
			return &v[i];
	return NULL;
}

/* the index entry with code named @name: its entry address (a virtual address), or 0 */
static uint64_t index_entry(struct debuginfo *dbg, struct dw_index *idx, const char *name)
{
	Dwarf_Addr bias = 0;
	uint64_t entry, end;
	size_t nr;
	struct dw_func *v = dw_index_funcs(idx, &nr);

	debuginfo_dwarf(dbg, &bias);
	for (size_t i = 0; i < nr; i++) {
		Dwarf_Die *die;

		if (v[i].inlined || !v[i].has_code || strcmp(dw_func_name(&v[i]), name))
			continue;
		die = dw_func_die(idx, &v[i]);
		if (die && die_code_range(die, &entry, &end))
			return entry + bias;
	}
	return 0;
}

/* @name is one out-of-line function at its symbol's value, in both indexes */
static void test_at_symbol(const char *target, const char *name)
{
	struct debuginfo *dbg = open_target(target);
	struct dw_index *raw, *lib;
	struct func *f = NULL;
	struct sym *s;
	size_t nr = 0;
	struct diag d;

	if (!dbg)
		return;
	diag_init(&d, name);
	s = sym_named(dbg, name);
	UT_REPORT(s != NULL, "%s: the symbol table has %s", target, name);
	TEST_EQ(funcs_find(dbg, name, &f, &nr, &d), 0);
	TEST_EQ(nr, 1);
	if (s && nr == 1) {
		TEST_EQ(f[0].entry, s->addr);
		TEST_EQ(f[0].end, s->addr + s->size);
		TEST_TRUE(!f[0].inlined && f[0].has_die);
		TEST_STREQ(f[0].name, name);
	}
	raw = dw_index_new(debuginfo_dwarf(dbg, NULL));
	lib = dw_index_new(debuginfo_dwarf(dbg, NULL));
	dw_index_read_raw(raw);
	dw_index_walk(lib);
	if (s) {
		TEST_EQ(index_entry(dbg, raw, name), s->addr);
		TEST_EQ(index_entry(dbg, lib, name), s->addr);
	}
	dw_index_free(raw);
	dw_index_free(lib);
	funcs_free(f, nr);
	diag_release(&d);
	debuginfo_free(dbg);
}

/* scale() exists only inlined, twice in twice(): two copies inside twice's code */
static void test_inlined_copies(const char *target)
{
	struct debuginfo *dbg = open_target(target);
	struct func *f = NULL;
	struct sym *twice;
	size_t nr = 0;
	struct diag d;

	if (!dbg)
		return;
	diag_init(&d, "scale");
	twice = sym_named(dbg, "twice");
	TEST_TRUE(twice != NULL);
	TEST_TRUE(sym_named(dbg, "scale") == NULL);
	TEST_EQ(funcs_find(dbg, "scale", &f, &nr, &d), 0);
	TEST_EQ(nr, 2);
	for (size_t i = 0; twice && i < nr; i++) {
		TEST_TRUE(f[i].inlined);
		TEST_STREQ(f[i].name, "scale");
		TEST_TRUE(f[i].entry >= twice->addr && f[i].entry < twice->addr + twice->size);
	}
	if (nr == 2)
		TEST_TRUE(f[0].entry != f[1].entry);
	funcs_free(f, nr);
	diag_release(&d);
	debuginfo_free(dbg);
}

/* -F: scale() is listed as inlined-only, twice() (which has code) is not */
static void test_inlined_listed(const char *target, const char *inlined, const char *outofline)
{
	struct debuginfo *dbg = open_target(target);
	struct strlist inl = STRLIST_INIT, all = STRLIST_INIT;
	bool found = false, wrong = false;
	struct diag d;

	if (!dbg)
		return;
	diag_init(&d, NULL);
	TEST_EQ(funcs_list_inlined(dbg, NULL, &inl), 0);
	TEST_EQ(funcs_list(dbg, NULL, &all, &d), 0);
	for (size_t i = 0; i < inl.nr; i++) {
		found |= !strcmp(inl.v[i], inlined);
		wrong |= !strcmp(inl.v[i], outofline);
		for (size_t j = 0; j < all.nr; j++)
			wrong |= !strcmp(inl.v[i], all.v[j]);	/* listed once, in one list */
	}
	TEST_TRUE(found);
	TEST_TRUE(!wrong);
	strlist_release(&inl);
	TEST_EQ(funcs_list_inlined(dbg, "twi*", &inl), 0);
	TEST_EQ(inl.nr, 0);
	strlist_release(&inl);
	strlist_release(&all);
	diag_release(&d);
	debuginfo_free(dbg);
}

/* a name with '[' (Rust's impls on slices) is a glob that matches its own name */
static void test_literal_brackets(const char *target, const char *name)
{
	struct debuginfo *dbg = open_target(target);
	struct func *f = NULL;
	size_t nr = 0;
	struct diag d;

	if (!dbg)
		return;
	diag_init(&d, name);
	TEST_EQ(funcs_find(dbg, name, &f, &nr, &d), 0);
	TEST_TRUE(nr >= 1);
	for (size_t i = 0; i < nr; i++)
		TEST_STREQ(f[i].name, name);
	funcs_free(f, nr);
	diag_release(&d);
	debuginfo_free(dbg);
}

/* the file offset and size of section @want of the ELF file @path, when not compressed */
static bool section_of(const char *path, const char *want, size_t *off, size_t *size)
{
	int fd = open(path, O_RDONLY);
	Elf *elf = fd >= 0 && elf_version(EV_CURRENT) != EV_NONE ?
		   elf_begin(fd, ELF_C_READ, NULL) : NULL;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	bool found = false;

	while (elf && !elf_getshdrstrndx(elf, &shstrndx) && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
		const char *name = sh ? elf_strptr(elf, shstrndx, sh->sh_name) : NULL;

		if (name && !strcmp(name, want)) {
			*off = sh->sh_offset;
			*size = sh->sh_size;
			found = !(sh->sh_flags & SHF_COMPRESSED);
			break;
		}
	}
	elf_end(elf);
	if (fd >= 0)
		close(fd);
	return found;
}

static bool write_file(const char *path, const unsigned char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	bool ok = fd >= 0 && write(fd, buf, len) == (ssize_t)len;

	if (fd >= 0)
		close(fd);
	return ok;
}

/*
 * Corrupted .debug_info (random bytes changed in copies of a target): the raw reader reads
 * it or gives up, never past its sections (run under --enable-sanitizers to see a stray
 * read), and every entry it makes is a DIE inside .debug_info.
 */
static void test_raw_corrupted(const char *target, int rounds)
{
	char *path = target_path(target), tmp[] = "/tmp/upft-test-index.XXXXXX";
	unsigned char *orig = NULL, *buf = NULL;
	size_t off = 0, size = 0, len = 0, bad = 0, gave_up = 0;
	unsigned int seed = 1;
	struct stat st;
	int fd = mkstemp(tmp);
	FILE *f = fopen(path, "rb");

	if (fd >= 0)
		close(fd);
	if (f && !fstat(fileno(f), &st) && st.st_size > 0) {
		len = st.st_size;
		orig = xmalloc(len);
		buf = xmalloc(len);
		if (fread(orig, 1, len, f) != len)
			len = 0;
	}
	if (f)
		fclose(f);
	if (!len || fd < 0 || !section_of(path, ".debug_info", &off, &size) || size < 64) {
		UT_REPORT(0, "%s: a copy with corrupted .debug_info (%s)", target, path);
		goto out;
	}
	for (int r = 0; r < rounds; r++) {
		struct debuginfo *dbg;
		struct diag d;
		int flips = 1 + rand_r(&seed) % 8;

		memcpy(buf, orig, len);
		for (int i = 0; i < flips; i++)
			buf[off + rand_r(&seed) % size] = rand_r(&seed);
		if (!write_file(tmp, buf, len))
			break;
		diag_init(&d, NULL);
		dbg = debuginfo_open(tmp, &d);
		if (dbg && debuginfo_dwarf(dbg, NULL)) {
			struct dw_index *idx = dw_index_new(debuginfo_dwarf(dbg, NULL));
			size_t nr;
			struct dw_func *v;

			if (!dw_index_read_raw(idx))
				gave_up++;
			v = dw_index_funcs(idx, &nr);
			for (size_t i = 0; i < nr; i++)
				if (v[i].off >= size)
					bad++;
			dw_index_free(idx);
		}
		debuginfo_free(dbg);
		diag_release(&d);
	}
	UT_REPORT(bad == 0, "%s: %d corrupted copies: the raw reader read or gave up "
		  "(%zu gave up), every entry inside .debug_info", target, rounds, gave_up);
out:
	unlink(tmp);
	free(orig);
	free(buf);
	free(path);
}

int main(void)
{
	static const char *const c_pats[] = { "*", "main", "process_order", NULL };
	static const char *const lines_pats[] = { "*", "scale", "twice", NULL };
	static const char *const cpp_pats[] = { "*", "shop::*", "price", "shop::price(int)",
						"shop::Derived::kind", NULL };
	static const char *const go_pats[] = { "*", "main.*", "Add", "main.(*Store).Add",
					       "nosuchfunc", NULL };
	static const char *const rust_pats[] = { "*", "orders::*", "total", NULL };

	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
		test_indexers_agree(targets[i]);

	test_find_agrees("c/orders-O0", c_pats);
	test_find_agrees("c/orders-O2", c_pats);
	test_find_agrees("c/lines-O2", lines_pats);
	test_find_agrees("cpp/actors-O0", cpp_pats);
	test_find_agrees("cpp/actors-O2", cpp_pats);
	test_find_agrees("go/orders", go_pats);
	test_find_agrees("rust/orders-O0", rust_pats);
	test_find_agrees("rust/orders-O1", rust_pats);

	test_at_symbol("c/orders-O0", "process_order");
	test_at_symbol("c/orders-O2", "process_order");
	test_at_symbol("cpp/actors-O2", "shop::restock");
	test_at_symbol("cpp/actors-O0", "shop::Derived::describe");
	test_at_symbol("go/orders", "main.(*Store).Add");
	test_at_symbol("rust/orders-O1", "orders::shop::total");
	test_inlined_copies("c/lines-O0");
	test_inlined_copies("c/lines-O2");
	test_inlined_listed("c/lines-O2", "scale", "twice");
	/* arm64's Rust targets come from Debian 12's rustc 1.63 (the arm64 root's), whose std
	 * has no <[u8] as Debug>::fmt of its own in the program */
	test_literal_brackets("rust/orders-O1",
			      BY_MACHINE("<[u8] as core::fmt::Debug>::fmt",
					 "core::ptr::drop_in_place<alloc::boxed::Box<[alloc::string::String]>>"));

	test_raw_corrupted("c/orders-O2", 300);
	test_raw_corrupted("cpp/actors-O0", 100);
	return TEST_DONE();
}
