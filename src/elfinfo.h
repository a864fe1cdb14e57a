/* SPDX-License-Identifier: GPL-2.0-or-later */
/* elfinfo.h - finding a binary like the dynamic linker does; ELF segments and offsets */
#ifndef UPF_ELFINFO_H
#define UPF_ELFINFO_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "util.h"

struct arch_ops;

/**
 * elfinfo_find_binary() - the file -x names
 * @name: a path (has a '/': returned as is, whatever it is), else a soname or library file
 *        name (LD_LIBRARY_PATH, /etc/ld.so.cache, the standard directories) or an
 *        executable's name ($PATH); never a file of the current directory, and only
 *        absolute directories of LD_LIBRARY_PATH and $PATH, as the dynamic linker of a
 *        target started elsewhere would see them
 * @looked: the places tried, ", "-separated (for the error message)
 * Return: a new string to open (a search finds regular files only), or NULL.
 */
char *elfinfo_find_binary(const char *name, struct strbuf *looked);

/**
 * elfinfo_ldcache_lookup() - the path /etc/ld.so.cache gives for @soname (a library of the
 * current architecture, arch_current()), or NULL
 */
char *elfinfo_ldcache_lookup(const char *soname);

/**
 * elfinfo_check() - whether the file open at @fd is a binary upfront can probe: ELF for a
 * machine with an arch_ops table (64-bit, little-endian), an executable or shared library,
 * its program headers and the bytes of every PT_LOAD segment inside the file
 * @size: the file's size (fstat), which every offset is checked against
 * @name: the file, as messages show it
 * @arch: set to its machine's table when there is one
 * @d: filled on failure: "NAME is ELF for i386, upfront probes x86-64 only", "NAME: segment
 *     2 (PT_LOAD at ...) ends past the end of the file (...): truncated or corrupt"
 * Return: 0, or a negative errno.
 *
 * Read with pread(), before libelf sees the file: a foreign binary's DWARF register numbers
 * would otherwise become another machine's register names.
 */
int elfinfo_check(int fd, uint64_t size, const char *name, const struct arch_ops **arch,
		  struct diag *d);

/**
 * elfinfo_vaddr_to_offset() - file offset of @vaddr from the PT_LOAD segment holding it
 * @exec_only: only executable segments count
 * Return: 0, or -ERANGE when no (executable) segment holds @vaddr.
 */
int elfinfo_vaddr_to_offset(Elf *elf, uint64_t vaddr, bool exec_only, uint64_t *offset);
/**
 * elfinfo_offset_to_vaddr() - inverse of elfinfo_vaddr_to_offset(); -ERANGE if no segment
 */
int elfinfo_offset_to_vaddr(Elf *elf, uint64_t offset, uint64_t *vaddr);

/**
 * elfinfo_in_code() - whether @vaddr lies in an executable section of @elf (.text, .plt ...),
 * or, in a file without section headers, in an executable PT_LOAD segment; an executable
 * segment alone also holds the ELF header where it starts at 0 (arm64's PIEs)
 */
bool elfinfo_in_code(Elf *elf, uint64_t vaddr);

/**
 * elfinfo_in_image() - whether @vaddr lies in the memory image of a PT_LOAD segment of @elf
 * (p_memsz: .bss and a copy relocation's target included, which no file mapping shows)
 */
bool elfinfo_in_image(Elf *elf, uint64_t vaddr);

/**
 * elfinfo_mapping_bias() - where @elf was loaded, from one of its file mappings
 * @lo: the mapping's start in the process; @pgoff: the file offset mapped there
 * @bias: filled with the load bias (a runtime address less the vaddr it stands for)
 * Return: 0, or -ERANGE when no PT_LOAD segment's pages hold @pgoff.
 */
int elfinfo_mapping_bias(Elf *elf, uint64_t lo, uint64_t pgoff, uint64_t *bias);

/**
 * elfinfo_debuglink() - the .gnu_debuglink file name, or NULL (borrowed from @elf)
 */
const char *elfinfo_debuglink(Elf *elf);

#endif
