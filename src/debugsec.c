// SPDX-License-Identifier: GPL-2.0-or-later
/* debugsec.c - compressed DWARF sections inflated with libdeflate, in parallel, by need */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define LOG_DOMAIN "debuginfo"
#include "debugsec.h"
#include "log.h"
#include "util.h"

#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

/*
 * libdw 0.188 inflates every SHF_COMPRESSED DWARF section with zlib when it opens the DWARF,
 * one after the other: on a 42 MB Go binary 39 MB in 0.12 s of CPU, most of a -D. libdeflate
 * inflates the same streams 3.4x faster (whole buffers, sizes known from the Chdr); the
 * sections are independent streams, so the idle cores take some. Only the raw deflate
 * stream is inflated: the zlib header is checked by hand and the trailing Adler-32 is not
 * (15% of the time). It guards against a corrupted file, which the deflate structure and an
 * output of exactly ch_size bytes mostly catch, and DWARF is read as hostile input anyway.
 *
 * libdw takes a section's data from elf_getdata() once SHF_COMPRESSED is clear, as
 * elf_compress() leaves it: the same is done here through the public structures (the
 * Elf_Data's buffer and size, gelf_update_shdr() on libelf's copy of the header).
 */

struct zsec {
	Elf_Scn *scn;
	const unsigned char *in;	/* the raw deflate stream, after the zlib header */
	size_t in_len;
	size_t size;			/* ch_size: the inflated bytes */
	void *out;			/* NULL until inflated, and when that failed */
};

struct debugsec {
	struct zsec *z;
	size_t nr;
	size_t next;		/* atomic: the next section a worker takes */
};

/* sections -F reads: the DIEs, their strings, and low_pc/ranges for the code check */
static bool names_read_section(const char *name)
{
	static const char *const names[] = {
		"info", "abbrev", "str", "line_str", "str_offsets", "addr", "ranges",
		"rnglists", "aranges", "types",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name + 7, names[i]))
			return true;
	return false;
}

/* the sections libdw 0.188's dwarf_begin_elf() reads: no other is worth the time */
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

#define HUGE_SIZE ((size_t)2 << 20)

/* a large section's mapping: its whole pages (the tail of the last huge page is not mapped,
 * not to count in the resident set when it is not a huge page) */
static size_t zsec_map_len(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (size + page - 1) & ~(page - 1);
}

static void zsec_release(void *out, size_t size)
{
	if (size < HUGE_SIZE)
		free(out);
	else if (out)
		munmap(out, zsec_map_len(size));
}

#ifdef HAVE_LIBDEFLATE
/*
 * A section's buffer: from 2 MiB on, mapped on a 2 MiB boundary and advised as huge pages
 * where transparent huge pages are on ("madvise", Debian's default). The inflated bytes are
 * written once, in order: on docker's 39 MB of DWARF, 4 KiB pages took ~8,000 page faults
 * (each page allocated, charged and cleared alone), ~10% of a -D's CPU.
 */
static void *zsec_alloc(size_t size)
{
	size_t len = zsec_map_len(size), span = len + HUGE_SIZE;
	char *p, *q;

	if (size < HUGE_SIZE)
		return malloc(size ? size : 1);
	p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	q = (char *)(((uintptr_t)p + HUGE_SIZE - 1) & ~(uintptr_t)(HUGE_SIZE - 1));
	if (q > p)
		munmap(p, q - p);
	if (q + len < p + span)
		munmap(q + len, p + span - (q + len));
	madvise(q, len, MADV_HUGEPAGE);
	return q;
}

static void *inflate_worker(void *arg)
{
	struct debugsec *s = arg;
	struct libdeflate_decompressor *dec = libdeflate_alloc_decompressor();
	size_t i;

	if (!dec)
		return NULL;
	while ((i = __atomic_fetch_add(&s->next, 1, __ATOMIC_RELAXED)) < s->nr) {
		struct zsec *z = &s->z[i];
		size_t got = 0;
		void *out = zsec_alloc(z->size);

		if (out && libdeflate_deflate_decompress(dec, z->in, z->in_len, out, z->size,
							 &got) == LIBDEFLATE_SUCCESS &&
		    got == z->size)
			z->out = out;
		else
			zsec_release(out, z->size);
	}
	libdeflate_free_decompressor(dec);
	return NULL;
}
#else
/* built without libdeflate: libelf's zlib, still on every core (elf_compress() touches only
 * the one section's state once the section headers are loaded); libelf owns the buffers */
static void *inflate_worker(void *arg)
{
	struct debugsec *s = arg;
	size_t i;

	while ((i = __atomic_fetch_add(&s->next, 1, __ATOMIC_RELAXED)) < s->nr)
		elf_compress(s->z[i].scn, 0, 0);
	return NULL;
}
#endif

static int zsec_cmp(const void *a, const void *b)
{
	const struct zsec *x = a, *y = b;

	return x->size > y->size ? -1 : x->size < y->size;
}

/*
 * zsec_get() - @scn's deflate stream when it is a zlib SHF_COMPRESSED section of sane size:
 * deflate expands at most ~1032:1, a larger ch_size is a lie not worth allocating for. The
 * Chdr is read from the raw bytes: gelf_getchdr() goes through elf_getdata(), which copies a
 * whole section that is not 8-byte aligned in the file (all of a Go binary's: 10 MB).
 */
static bool zsec_get(Elf *elf, Elf_Scn *scn, struct zsec *z)
{
	bool is32 = gelf_getclass(elf) == ELFCLASS32;
	size_t hdr = is32 ? sizeof(Elf32_Chdr) : sizeof(Elf64_Chdr);
	Elf_Data *raw = elf_rawdata(scn, NULL);
	const char *ident = elf_getident(elf, NULL);
	const unsigned char *p;
	uint64_t type, size;

	if (!raw || !raw->d_buf || raw->d_size < hdr + 6 || !ident ||
	    ident[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB))
		return false;
	if (is32) {
		Elf32_Chdr ch;

		memcpy(&ch, raw->d_buf, sizeof(ch));
		type = ch.ch_type;
		size = ch.ch_size;
	} else {
		Elf64_Chdr ch;

		memcpy(&ch, raw->d_buf, sizeof(ch));
		type = ch.ch_type;
		size = ch.ch_size;
	}
	p = (const unsigned char *)raw->d_buf + hdr;
	/* CM 8 (deflate), window <= 32K, no preset dictionary, the header's check */
	if (type != ELFCOMPRESS_ZLIB || (p[0] & 0x0f) != 8 || (p[0] >> 4) > 7 || (p[1] & 0x20) ||
	    (p[0] * 256 + p[1]) % 31)
		return false;
	z->scn = scn;
	z->in = p + 2;
	z->in_len = raw->d_size - hdr - 2;
	z->size = size;
	return size && size / 1032 <= z->in_len;
}

/*
 * zsec_install() - the section now holds @z->out, as elf_compress(scn, 0, 0) would leave it.
 * Its raw data is made ELF_T_BYTE first, so that elf_getdata() takes it as it is instead of
 * copying it to align a Chdr; then both point at the inflated bytes (elf_rawdata() is what
 * the raw DWARF scan reads), and libelf's copy of the header says so. libelf frees neither
 * buffer: the file's bytes are mapped, ours are freed by debugsec_free().
 */
static bool zsec_install(struct zsec *z)
{
	Elf_Data *raw = elf_rawdata(z->scn, NULL), *data;
	GElf_Shdr mem, *sh = gelf_getshdr(z->scn, &mem);

	if (!raw || !sh)
		return false;
	raw->d_type = ELF_T_BYTE;
	data = elf_getdata(z->scn, NULL);
	if (!data)
		return false;
	sh->sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
	sh->sh_size = z->size;
	sh->sh_addralign = 1;
	if (!gelf_update_shdr(z->scn, sh))
		return false;
	for (Elf_Data *d = raw;; d = data) {
		d->d_buf = z->out;
		d->d_size = z->size;
		d->d_type = ELF_T_BYTE;
		d->d_align = 1;
		d->d_off = 0;
		if (d == data)
			break;
	}
	return true;
}

/* hide a section libdw would otherwise inflate although the mode never reads it */
static void zsec_hide(Elf_Scn *scn)
{
	GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);

	if (sh) {
		sh->sh_type = SHT_NOBITS;
		gelf_update_shdr(scn, sh);
	}
}

/* the compressed DWARF sections of @elf that @need reads; the others hidden */
static void zsec_collect(Elf *elf, enum debugsec_need need, struct debugsec *s)
{
	size_t shstrndx, alloc = 0;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
		const char *name = sh ? elf_strptr(elf, shstrndx, sh->sh_name) : NULL;
		struct zsec z = { 0 };

		if (!name || !libdw_reads_section(name) || !(sh->sh_flags & SHF_COMPRESSED) ||
		    (sh->sh_flags & SHF_ALLOC) || sh->sh_type == SHT_NOBITS)
			continue;
		if (need == DEBUGSEC_NAMES && !names_read_section(name)) {
			zsec_hide(scn);
			continue;
		}
		if (!zsec_get(elf, scn, &z))
			continue;
		ALLOC_GROW(s->z, s->nr + 1, alloc);
		s->z[s->nr++] = z;
	}
}

/* minimum total for threads to pay off; at most this many */
#define INFLATE_PARALLEL_MIN (4u << 20)
#define INFLATE_MAX_THREADS 8

struct debugsec *debugsec_inflate(Elf *elf, enum debugsec_need need)
{
	struct debugsec *s = xcalloc(1, sizeof(*s));
	pthread_t tids[INFLATE_MAX_THREADS];
	size_t nthreads = 0, done = 0;
	uint64_t total = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	zsec_collect(elf, need, s);
	if (!s->nr) {
		debugsec_free(s);
		return NULL;
	}
	qsort(s->z, s->nr, sizeof(*s->z), zsec_cmp);	/* largest first */
	for (size_t i = 0; i < s->nr; i++)
		total += s->z[i].size;
	if (total < INFLATE_PARALLEL_MIN)
		ncpu = 1;
	total = 0;
	/* the calling thread is one of the workers */
	for (long i = 1; i < ncpu && i <= INFLATE_MAX_THREADS && (size_t)i < s->nr; i++) {
		if (pthread_create(&tids[nthreads], NULL, inflate_worker, s))
			break;
		nthreads++;
	}
	inflate_worker(s);
	for (size_t i = 0; i < nthreads; i++)
		pthread_join(tids[i], NULL);
	for (size_t i = 0; i < s->nr; i++) {
		struct zsec *z = &s->z[i];

		if (z->out && !zsec_install(z)) {
			zsec_release(z->out, z->size);
			z->out = NULL;
		}
#ifndef HAVE_LIBDEFLATE
		done++;
		total += z->size;
#endif
		if (z->out) {
			done++;
			total += z->size;
		}
	}
	pr_debug("inflated %zu of %zu debug sections (%lu bytes) on %zu threads", done, s->nr,
		 (unsigned long)total, nthreads + 1);
	return s;
}

void debugsec_free(struct debugsec *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr; i++)
		zsec_release(s->z[i].out, s->z[i].size);
	free(s->z);
	free(s);
}
