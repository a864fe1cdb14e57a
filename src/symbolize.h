/* SPDX-License-Identifier: GPL-2.0-or-later */
/* symbolize.h - addresses in a binary -> "symbol+0xoff", cached for the event stream */
#ifndef UPF_SYMBOLIZE_H
#define UPF_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct debuginfo;
struct symbolizer;

/**
 * symbolizer_new() - a cache over debuginfo_symbolize()
 * @dbg: the binary (borrowed; may be NULL: then only processes' maps are used)
 * Return: a symbolizer for symbolizer_free().
 */
struct symbolizer *symbolizer_new(struct debuginfo *dbg);

/**
 * symbolizer_lookup() - "symbol+0xoff" (demangled) for a virtual address of the binary
 * @s: the symbolizer
 * @vaddr: the address, as in the binary's symbol table
 * Return: a string owned by the symbolizer, valid until the next lookup, or NULL when no
 * symbol covers @vaddr or there is no binary.
 */
const char *symbolizer_lookup(struct symbolizer *s, uint64_t vaddr);

/**
 * symbolizer_note_task() - read /proc/@tgid/maps now, once per process
 * @s: the symbolizer
 * @tgid: the process
 *
 * Call it when a process is first seen: it may have exited by the time its stacks are
 * symbolized.
 */
void symbolizer_note_task(struct symbolizer *s, int tgid);

/* A stack frame, named: what symbolizer_frame() fills in. */
struct sym_frame {
	const char *sym;		/* "symbol+0xoff" (demangled), or NULL when none covers it */
	const char *path;		/* the file mapped at the address, or NULL when unknown */
	const char *const *inlined;	/* functions inlined at the address (DWARF), innermost
					 * first, demangled; the last one's caller is @sym */
	size_t nr_inlined;
};

/**
 * symbolizer_frame() - a runtime address of process @tgid -> symbol, file, inlined functions
 * @s: the symbolizer
 * @tgid: the process
 * @addr: the address in @tgid
 * @base: load base of the symbolizer's binary in @tgid (from a probe address), used when
 *        the process's maps are unknown (it exited before it was seen); UINT64_MAX: unknown
 * @ret: @addr is a return address: the inlined functions are those of the call before it
 *       (@addr - 1, as unwinders look it up), within the same function
 * @f: filled in; everything NULL / 0 when unknown
 *
 * The binary is the one given to symbolizer_new(); shared libraries are opened with
 * debuginfo_open() on first use (once per path). The inlined functions come from the
 * DW_TAG_inlined_subroutine scopes holding the address (separate debuginfo included), found
 * once per (file, address) and cached. The strings are owned by the symbolizer and valid
 * until the next symbolizer_frame() or symbolizer_lookup().
 */
void symbolizer_frame(struct symbolizer *s, int tgid, uint64_t addr, uint64_t base, bool ret,
		      struct sym_frame *f);

/**
 * symbolizer_value() - "symbol+0xoff" for a pointer a probe fetched in process @tgid (':sym')
 * @s: the symbolizer
 * @tgid: the process, for an address outside the binary (0: unknown)
 * @addr: the pointer's value
 * @base: load base of the binary in @tgid (from the probe address); UINT64_MAX: unknown
 *
 * An address in the binary is named from its symbols, as symbolizer_lookup() does; one in a
 * shared library (a callback into libc) from the process's mappings, as symbolizer_frame()
 * names stack frames: also after the process exited when procmaps_follow() followed it.
 * Return: a string owned by the symbolizer, valid until the next lookup, or NULL.
 */
const char *symbolizer_value(struct symbolizer *s, int tgid, uint64_t addr, uint64_t base);

/**
 * symbolizer_module() - the file of process @tgid whose loaded image holds runtime address
 * @addr: a data word such as a vtable pointer, which may lie in any object the process
 * mapped (a library's .data.rel.ro, the program's .bss where a copy relocation put a
 * library's vtable)
 * @s: the symbolizer
 * @tgid: the process
 * @addr: the address in @tgid
 * @dbg: filled with the file's debuginfo (owned by the symbolizer), or NULL when it cannot
 *       be opened
 * @vaddr: filled with @addr as an address of that file
 *
 * The files are those the process maps executable code of (its /proc maps, or the mappings
 * procmaps_follow() kept after it exited); @addr is theirs when it falls in one of their
 * PT_LOAD segments' memory images at the bias their mapping gives.
 * Return: the file's path (owned by the symbolizer), or NULL when no mapped file holds @addr.
 */
const char *symbolizer_module(struct symbolizer *s, int tgid, uint64_t addr,
			      struct debuginfo **dbg, uint64_t *vaddr);

/**
 * symbolizer_free() - free the symbolizer and the libraries it opened; accepts NULL
 * @s: the symbolizer
 */
void symbolizer_free(struct symbolizer *s);

#endif
