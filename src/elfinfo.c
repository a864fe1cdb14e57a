// SPDX-License-Identifier: GPL-2.0-or-later
/* elfinfo.c - finding a binary like the dynamic linker does; ELF segments and offsets */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOG_DOMAIN "elfinfo"
#include "arch/arch.h"
#include "elfinfo.h"
#include "log.h"

/* glibc's ld.so.cache, new format (glibc >= 2.32 writes only this one) */
#define LDCACHE_MAGIC "glibc-ld.so.cache1.1"
#define LDCACHE_FLAG_TYPE_MASK 0x00ff
#define LDCACHE_FLAG_ELF_LIBC6 0x0003
#define LDCACHE_FLAG_REQ_MASK 0x0f00

struct ldcache_head {
	char magic[20];		/* "glibc-ld.so.cache" "1.1" */
	uint32_t nlibs;
	uint32_t len_strings;
	uint8_t flags;
	uint8_t pad[3];
	uint32_t extension_offset;
	uint32_t unused[3];
};

struct ldcache_entry {
	int32_t flags;
	uint32_t key;		/* string offsets from the start of the file */
	uint32_t value;
	uint32_t osversion;
	uint64_t hwcap;
};

char *elfinfo_ldcache_lookup(const char *soname)
{
	const struct ldcache_head *h;
	const struct ldcache_entry *e;
	char *ret = NULL;
	struct stat st;
	size_t off;
	void *map;
	int fd;

	fd = open("/etc/ld.so.cache", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || (size_t)st.st_size < sizeof(*h)) {
		close(fd);
		return NULL;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NULL;
	/* an old-format ("ld.so-1.7.0") part may come first; the new one is what we read */
	off = 0;
	if (memcmp(map, LDCACHE_MAGIC, strlen(LDCACHE_MAGIC))) {
		void *p = memmem(map, st.st_size, LDCACHE_MAGIC, strlen(LDCACHE_MAGIC));

		if (!p)
			goto out;
		off = (char *)p - (char *)map;
	}
	h = (const struct ldcache_head *)((char *)map + off);
	if (off + sizeof(*h) + (size_t)h->nlibs * sizeof(*e) > (size_t)st.st_size)
		goto out;
	e = (const struct ldcache_entry *)(h + 1);
	for (uint32_t i = 0; i < h->nlibs; i++) {
		const char *key, *val;

		if ((e[i].flags & LDCACHE_FLAG_TYPE_MASK) != LDCACHE_FLAG_ELF_LIBC6 ||
		    (e[i].flags & LDCACHE_FLAG_REQ_MASK) != arch_current()->ldcache_req)
			continue;
		if (e[i].key >= st.st_size || e[i].value >= st.st_size)
			continue;
		key = (const char *)map + e[i].key;
		val = (const char *)map + e[i].value;
		if (!memchr(key, 0, st.st_size - e[i].key) || !memchr(val, 0, st.st_size - e[i].value))
			continue;
		if (!strcmp(key, soname)) {
			ret = xstrdup(val);
			break;
		}
	}
out:
	munmap(map, st.st_size);
	return ret;
}

/* @path when it is a regular file (a search skips directories, FIFOs, devices) */
static char *try_path(const char *path, struct strbuf *looked)
{
	struct stat st;

	if (looked) {
		if (looked->len)
			strbuf_addstr(looked, ", ");
		strbuf_addstr(looked, path);
	}
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return NULL;
	pr_debug("found %s", path);
	return xstrdup(path);
}

/*
 * each absolute directory of a ':'-separated list: an empty or relative entry would mean
 * the current directory, where a root user may be working among files of others
 */
static char *try_dirs(const char *list, const char *name, struct strbuf *looked)
{
	const char *p = list, *colon;
	char *ret = NULL;

	while (p && *p && !ret) {
		colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);

		if (n && *p == '/') {
			char *path = xasprintf("%.*s/%s", (int)n, p, name);

			ret = try_path(path, looked);
			free(path);
		}
		p = colon ? colon + 1 : NULL;
	}
	return ret;
}

static char *try_ldcache(const char *name, struct strbuf *looked)
{
	char *cached = elfinfo_ldcache_lookup(name), *ret = NULL;

	if (cached && *cached == '/')
		ret = try_path(cached, looked);
	free(cached);
	return ret;
}

char *elfinfo_find_binary(const char *name, struct strbuf *looked)
{
	const char *std_dirs = arch_current()->lib_dirs;
	char *ret;

	/* a path the user wrote is taken as written; the caller says what it is */
	if (strchr(name, '/'))
		return xstrdup(name);
	/* never the current directory (perf probe -x tries it first): write ./NAME for that */
	if (strstr(name, ".so")) {
		ret = try_dirs(getenv("LD_LIBRARY_PATH"), name, looked);
		if (!ret)
			ret = try_ldcache(name, looked);
		if (!ret)
			ret = try_dirs(std_dirs, name, looked);
		if (ret)
			return ret;
	}
	ret = try_dirs(getenv("PATH") ? getenv("PATH") : "/usr/local/bin:/usr/bin:/bin", name,
		       looked);
	if (!ret && !strstr(name, ".so"))
		ret = try_ldcache(name, looked);
	return ret;
}

/* ---- is it a binary upfront can probe ---- */

static bool read_at(int fd, void *buf, size_t len, uint64_t off, uint64_t size)
{
	return off <= size && len <= size - off && pread(fd, buf, len, off) == (ssize_t)len;
}

/* the number of program headers: e_phnum, or section 0's sh_info when it is PN_XNUM */
static bool phdr_count(int fd, const Elf64_Ehdr *eh, uint64_t size, uint64_t *nr)
{
	Elf64_Shdr sh0;

	*nr = eh->e_phnum;
	if (eh->e_phnum != PN_XNUM)
		return true;
	if (!read_at(fd, &sh0, sizeof(sh0), eh->e_shoff, size))
		return false;
	*nr = sh0.sh_info;
	return true;
}

/* the program headers inside the file, each PT_LOAD's bytes too */
static int check_phdrs(int fd, const Elf64_Ehdr *eh, uint64_t size, const char *name,
		       struct diag *d)
{
	uint64_t nr;
	Elf64_Phdr ph;

	if (!phdr_count(fd, eh, size, &nr) || (nr && eh->e_phentsize != sizeof(ph)) ||
	    eh->e_phoff > size || nr > (size - eh->e_phoff) / sizeof(ph))
		return diag_error(d, SPAN_NONE, "%s: its program headers are not inside the file "
				  "(%lu bytes): truncated or corrupt", name, (unsigned long)size);
	for (uint64_t i = 0; i < nr; i++) {
		if (!read_at(fd, &ph, sizeof(ph), eh->e_phoff + i * sizeof(ph), size))
			return diag_fail(d, "%s: cannot read program header %lu", name,
					 (unsigned long)i);
		if (ph.p_type != PT_LOAD)
			continue;
		if (ph.p_offset > size || ph.p_filesz > size - ph.p_offset)
			return diag_error(d, SPAN_NONE, "%s: segment %lu (PT_LOAD at file offset "
					  "%#lx, %#lx bytes) ends past the end of the file (%#lx "
					  "bytes): truncated or corrupt", name, (unsigned long)i,
					  (unsigned long)ph.p_offset, (unsigned long)ph.p_filesz,
					  (unsigned long)size);
	}
	return 0;
}

int elfinfo_check(int fd, uint64_t size, const char *name, const struct arch_ops **arch,
		  struct diag *d)
{
	unsigned char *id;
	Elf64_Ehdr eh;
	char buf[32], names[64];
	uint16_t machine;
	bool big;

	if (!read_at(fd, &eh, EI_NIDENT, 0, size) || memcmp(eh.e_ident, ELFMAG, SELFMAG))
		return diag_error(d, SPAN_NONE, "%s is not an ELF binary", name);
	id = eh.e_ident;
	big = id[EI_DATA] == ELFDATA2MSB;
	if (!read_at(fd, &machine, sizeof(machine), offsetof(Elf64_Ehdr, e_machine), size))
		return diag_error(d, SPAN_NONE, "%s: its ELF header is cut short: truncated", name);
	machine = big ? (uint16_t)(machine >> 8 | machine << 8) : machine;
	*arch = arch_for_machine(machine);
	if (!*arch || id[EI_CLASS] != ELFCLASS64 || id[EI_DATA] != ELFDATA2LSB)
		return diag_error(d, SPAN_NONE, "%s is ELF for %s%s, upfront probes %s only",
				  name, *arch && id[EI_CLASS] == ELFCLASS32 ? (*arch)->ilp32_name :
				  arch_machine_name(machine, buf, sizeof(buf)),
				  big ? " (big-endian)" : id[EI_DATA] != ELFDATA2LSB ?
				  " (unknown byte order)" : "", arch_names(names, sizeof(names)));
	if (!read_at(fd, &eh, sizeof(eh), 0, size))
		return diag_error(d, SPAN_NONE, "%s: its ELF header is cut short: truncated", name);
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
		return diag_error(d, SPAN_NONE, "%s is not an executable or shared library (ELF "
				  "type %s)", name, eh.e_type == ET_REL ? "relocatable, a .o" :
				  eh.e_type == ET_CORE ? "core dump" : "unknown");
	return check_phdrs(fd, &eh, size, name, d);
}

int elfinfo_vaddr_to_offset(Elf *elf, uint64_t vaddr, bool exec_only, uint64_t *offset)
{
	size_t n;

	if (elf_getphdrnum(elf, &n) < 0)
		return -ERANGE;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr mem, *ph = gelf_getphdr(elf, i, &mem);

		if (!ph || ph->p_type != PT_LOAD)
			continue;
		if (exec_only && !(ph->p_flags & PF_X))
			continue;
		if (vaddr >= ph->p_vaddr && vaddr < ph->p_vaddr + ph->p_filesz) {
			*offset = vaddr - ph->p_vaddr + ph->p_offset;
			return 0;
		}
	}
	return -ERANGE;
}

int elfinfo_offset_to_vaddr(Elf *elf, uint64_t offset, uint64_t *vaddr)
{
	size_t n;

	if (elf_getphdrnum(elf, &n) < 0)
		return -ERANGE;
	/* executable segments first: an offset can be in two segments' page-aligned ranges */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr mem, *ph = gelf_getphdr(elf, i, &mem);

			if (!ph || ph->p_type != PT_LOAD)
				continue;
			if (!pass != !!(ph->p_flags & PF_X))
				continue;
			if (offset >= ph->p_offset && offset < ph->p_offset + ph->p_filesz) {
				*vaddr = offset - ph->p_offset + ph->p_vaddr;
				return 0;
			}
		}
	}
	return -ERANGE;
}

bool elfinfo_in_code(Elf *elf, uint64_t vaddr)
{
	const uint64_t want = SHF_ALLOC | SHF_EXECINSTR;
	Elf_Scn *scn = NULL;
	uint64_t off;
	size_t nr = 0;

	if (!elf || elfinfo_vaddr_to_offset(elf, vaddr, true, &off))
		return false;
	if (elf_getshdrnum(elf, &nr) < 0 || nr <= 1)
		return true;	/* no sections: the segment says it all */
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);

		if (sh && sh->sh_type == SHT_PROGBITS && (sh->sh_flags & want) == want &&
		    vaddr >= sh->sh_addr && vaddr - sh->sh_addr < sh->sh_size)
			return true;
	}
	return false;
}

bool elfinfo_in_image(Elf *elf, uint64_t vaddr)
{
	size_t n;

	if (!elf || elf_getphdrnum(elf, &n) < 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr mem, *ph = gelf_getphdr(elf, i, &mem);

		if (ph && ph->p_type == PT_LOAD && vaddr >= ph->p_vaddr &&
		    vaddr - ph->p_vaddr < ph->p_memsz)
			return true;
	}
	return false;
}

int elfinfo_mapping_bias(Elf *elf, uint64_t lo, uint64_t pgoff, uint64_t *bias)
{
	size_t n;

	if (!elf || elf_getphdrnum(elf, &n) < 0)
		return -ERANGE;
	/*
	 * a segment is mapped from the page holding its first byte; that page may end the
	 * segment before it too (rustc's lld layout: R up to 0x133d8, R E from 0x133e0), so a
	 * segment that starts at @pgoff is taken first, then one that holds it
	 */
	for (int exact = 1; exact >= 0; exact--) {
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr mem, *ph = gelf_getphdr(elf, i, &mem);
			uint64_t page_off, page_vaddr;

			if (!ph || ph->p_type != PT_LOAD)
				continue;
			page_off = ph->p_offset & ~0xfffULL;
			page_vaddr = ph->p_vaddr & ~0xfffULL;
			if (exact ? pgoff == page_off :
				    pgoff >= page_off && pgoff < ph->p_offset + ph->p_filesz) {
				*bias = lo - (page_vaddr + (pgoff - page_off));
				return 0;
			}
		}
	}
	return -ERANGE;
}

const char *elfinfo_debuglink(Elf *elf)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
		const char *name;
		Elf_Data *data;

		if (!sh)
			continue;
		name = elf_strptr(elf, shstrndx, sh->sh_name);
		if (!name || strcmp(name, ".gnu_debuglink"))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_size || !memchr(data->d_buf, 0, data->d_size))
			return NULL;
		return data->d_buf;
	}
	return NULL;
}
