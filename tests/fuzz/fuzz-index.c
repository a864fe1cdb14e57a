// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-index.c - libFuzzer: the raw DWARF reader (dw_index_read_raw()) on mutated copies of
 * a small target's .debug_info.
 *
 * UPF_FUZZ_ELF names the target (scripts/fuzz-smoke builds tests/targets/c/orders.c with
 * -g). Each input is written over the target's .debug_info in a memory copy of the file
 * (cut or zero-padded to the section's size, so the ELF itself stays well formed); the copy
 * is opened with elf_memory() and dwarf_begin_elf(), and the index read from it.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>

#include "dwarf-index.h"
#include "dwarf-index-raw.h"

static unsigned char *image, *copy;
static size_t image_size, info_off, info_size;

static void setup(void)
{
	const char *path = getenv("UPF_FUZZ_ELF");
	struct stat st;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	Elf *elf;
	int fd;

	if (!path || (fd = open(path, O_RDONLY)) < 0 || fstat(fd, &st)) {
		fprintf(stderr, "fuzz-index: set UPF_FUZZ_ELF to an ELF file with DWARF\n");
		abort();
	}
	image_size = st.st_size;
	image = malloc(image_size);
	copy = malloc(image_size);
	if (!image || !copy || pread(fd, image, image_size, 0) != (ssize_t)image_size)
		abort();
	close(fd);
	elf_version(EV_CURRENT);
	elf = elf_memory((char *)image, image_size);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		abort();
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".debug_info") && sh.sh_type != SHT_NOBITS) {
			info_off = sh.sh_offset;
			info_size = sh.sh_size;
		}
	}
	elf_end(elf);
	if (!info_size || info_off + info_size > image_size) {
		fprintf(stderr, "fuzz-index: %s has no .debug_info\n", path);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dw_index *idx;
	Dwarf *dw;
	Elf *elf;

	if (!image)
		setup();
	memcpy(copy, image, image_size);
	memset(copy + info_off, 0, info_size);
	memcpy(copy + info_off, data, size < info_size ? size : info_size);
	elf = elf_memory((char *)copy, image_size);
	if (!elf)
		return 0;
	dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	if (dw) {
		idx = dw_index_new(dw);
		if (idx) {
			if (dw_index_read_raw(idx)) {
				size_t n;

				dw_index_funcs(idx, &n);
			}
			dw_index_free(idx);
		}
		dwarf_end(dw);
	}
	elf_end(elf);
	return 0;
}
