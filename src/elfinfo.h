/* SPDX-License-Identifier: GPL-2.0-or-later */
/* elfinfo.h - finding a binary like the dynamic linker does; ELF segments and offsets */
#ifndef UPF_ELFINFO_H
#define UPF_ELFINFO_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "util.h"

/**
 * elfinfo_find_binary() - the canonical path of the binary -x names
 * @name: a path (has a '/'), a file in the current directory, a soname or library file name
 *        (LD_LIBRARY_PATH, /etc/ld.so.cache, the standard directories) or an executable's
 *        name ($PATH)
 * @looked: the places tried, ", "-separated (for the error message)
 * Return: a new string from realpath(), or NULL when nothing was found.
 */
char *elfinfo_find_binary(const char *name, struct strbuf *looked);

/**
 * elfinfo_ldcache_lookup() - the path /etc/ld.so.cache gives for @soname (x86-64), or NULL
 */
char *elfinfo_ldcache_lookup(const char *soname);

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
 * elfinfo_debuglink() - the .gnu_debuglink file name, or NULL (borrowed from @elf)
 */
const char *elfinfo_debuglink(Elf *elf);

#endif
