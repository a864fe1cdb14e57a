/* SPDX-License-Identifier: GPL-2.0-or-later */
/* debuginfo.h - a binary opened for tracing: its ELF, symbols and DWARF (in the file or
 * separate), what lies at an address */
#ifndef UPF_DEBUGINFO_H
#define UPF_DEBUGINFO_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

#include "debugsec.h"
#include "diag.h"
#include "util.h"

struct debuginfo;
struct symtab;
struct dw_index;
struct type_index;

/**
 * debuginfo_open() - open a binary's symbols and DWARF
 * @path: executable or library, as given with -x: a path (/proc/PID/exe for -p), or a
 *        soname / bare name resolved like the dynamic linker would (ld.so.cache, standard
 *        dirs) and then $PATH, never in the current directory (elfinfo_find_binary())
 * @d: filled in on failure ("no such binary", "X is a directory, not a binary", not ELF,
 *     "X is ELF for i386, upfront probes x86-64 only", a segment past the end of the file)
 * Return: a handle for debuginfo_free(), or NULL; DIEs found through it stay valid until then.
 *
 * The file is opened once, checked (elfinfo_check()) and read through that descriptor only,
 * which stays open until debuginfo_free(): the kernel is given the same file through
 * debuginfo_kernel_path(), whatever the path names by then.
 * A binary without DWARF opens fine (symbols only); debuginfo_require_dwarf() reports it.
 * Separate debuginfo is found by build-id and .gnu_debuglink under /usr/lib/debug.
 */
struct debuginfo *debuginfo_open(const char *path, struct diag *d);

/**
 * debuginfo_free() - close @dbg: its ELF, DWARF, symbol table and index; accepts NULL
 */
void debuginfo_free(struct debuginfo *dbg);

/**
 * debuginfo_path() - the binary's absolute, canonical path, as the kernel names the file
 * upfront opened (what -D and -a print; it may hold any byte, see fetcharg_path_check())
 */
const char *debuginfo_path(const struct debuginfo *dbg);

/**
 * debuginfo_kernel_path() - "/proc/<pid>/fd/<n>": a path naming the very file upfront opened
 * and checked, for uprobe_events while upfront runs (the kernel resolves it to the inode at
 * the write; a file swapped in at debuginfo_path() later is not probed)
 */
const char *debuginfo_kernel_path(const struct debuginfo *dbg);

/**
 * debuginfo_fd() - the descriptor of the file upfront opened (owned by @dbg, close-on-exec)
 */
int debuginfo_fd(const struct debuginfo *dbg);

/**
 * debuginfo_unchanged() - whether the file upfront opened still has the size and mtime it had
 * then (written to meanwhile, its probes' offsets may name other instructions: checked before
 * -D prints and before probes are installed)
 * Return: 0, or -ESTALE with @d filled ("X changed while upfront read it").
 */
int debuginfo_unchanged(const struct debuginfo *dbg, struct diag *d);

/**
 * debuginfo_same_file() - whether debuginfo_path() still names the file upfront opened, and
 * that file is unchanged (debuginfo_unchanged()): -a gives the kernel the path, it checks
 * before and after writing
 * Return: 0, or -ESTALE with @d filled.
 */
int debuginfo_same_file(const struct debuginfo *dbg, struct diag *d);

/**
 * debuginfo_build_id() - the binary's build-id in hex, or NULL
 */
const char *debuginfo_build_id(const struct debuginfo *dbg);

/**
 * debuginfo_basename() - the file name without directories ("dnsfwd", "libc.so.6")
 */
const char *debuginfo_basename(const struct debuginfo *dbg);

/**
 * debuginfo_elf() - the binary's own ELF (for code bytes, program headers)
 */
Elf *debuginfo_elf(struct debuginfo *dbg);

/**
 * debuginfo_symtab() - the binary's ELF symbols, read on first use
 * Return: the table (owned by @dbg; empty when the binary has none).
 */
struct symtab *debuginfo_symtab(struct debuginfo *dbg);

/* Tables other modules keep per binary, with it (debuginfo_table()). */
enum debuginfo_table {
	DEBUGINFO_DYNTYPES,	/* dyntype.c: vtables, Go runtime types */
	DEBUGINFO_TABLES
};

/**
 * debuginfo_table() - a table another module keeps for this binary: made on first use,
 * freed by debuginfo_free() (so modules above debuginfo cache per binary without it
 * knowing their types)
 * @which: the table
 * @make: makes it from @dbg when there is none yet
 * @release: frees it
 * Return: the table.
 */
void *debuginfo_table(struct debuginfo *dbg, enum debuginfo_table which,
		      void *(*make)(struct debuginfo *dbg), void (*release)(void *p));

/**
 * debuginfo_require_dwarf() - whether DWARF is available
 * Return: 0, or -ENOENT with @d saying that the binary has no debug information and every
 * place that was looked at (build-id, .gnu_debuglink).
 */
int debuginfo_require_dwarf(struct debuginfo *dbg, struct diag *d);

/**
 * debuginfo_need() - what of the DWARF the mode reads, said before it is opened
 * @need: DEBUGSEC_NAMES (-F): the other sections are neither inflated nor seen by libdw for
 *	the rest of @dbg's life; DEBUGSEC_ALL (the default) for everything else.
 *	Ignored once debuginfo_dwarf() has opened the DWARF.
 */
void debuginfo_need(struct debuginfo *dbg, enum debugsec_need need);

/**
 * debuginfo_dwarf() - the binary's DWARF, opened on first use (its compressed sections
 * inflated first, see debugsec_inflate())
 * @bias: when not NULL, filled with what to add to a DWARF address to get the binary's
 *        virtual address (0 unless the debuginfo was prelinked differently)
 * Return: the Dwarf handle (owned by @dbg), or NULL when there is no DWARF.
 */
Dwarf *debuginfo_dwarf(struct debuginfo *dbg, Dwarf_Addr *bias);

/**
 * debuginfo_dwarf_path() - the file the DWARF was read from: the binary, or its separate
 * debug file
 * Return: a path owned by @dbg, or NULL when there is no DWARF.
 */
const char *debuginfo_dwarf_path(struct debuginfo *dbg);

/**
 * debuginfo_cfi() - call frame information (.eh_frame, else .debug_frame), for the CFA at a pc
 * Return: the CFI (owned by @dbg; its addresses are virtual addresses), or NULL.
 */
Dwarf_CFI *debuginfo_cfi(struct debuginfo *dbg);

/**
 * debuginfo_addr_cu() - the compile unit whose code holds @vaddr (from .debug_aranges)
 * @cu: filled on success
 * Return: true, or false when there is no DWARF for @vaddr. DWARF pc = @vaddr - bias.
 */
bool debuginfo_addr_cu(struct debuginfo *dbg, uint64_t vaddr, Dwarf_Die *cu);

/**
 * debuginfo_subprogram_at() - the out-of-line function (DW_TAG_subprogram with code) whose
 * code holds @vaddr, also when @vaddr is in an inlined copy
 * Return: true with @die and @cu filled, false without DWARF there.
 */
bool debuginfo_subprogram_at(struct debuginfo *dbg, uint64_t vaddr, Dwarf_Die *die,
			     Dwarf_Die *cu);

/**
 * debuginfo_getscopes() - what dwarf_getscopes(@cu, @pc, @scopes) returns (the DIEs whose
 * code holds @pc, innermost first, ending with the CU; through an inlined copy on into its
 * abstract definition's parents), without walking the whole CU again on every call: from
 * the second call for a CU on, its top-level code is looked up in a table by address
 * (dw_index_getscopes()), and where @pc is in an inlined copy the chain ends with the
 * outermost copy's callers and the CU (the abstract parents take a walk of the CU)
 * @cu: the CU DIE, as from debuginfo_addr_cu()
 * @pc: a DWARF address (vaddr - bias)
 * Return: the number of scopes with *@scopes a new array for free(), 0 when nothing holds
 * @pc, or -1 (libdw error), like dwarf_getscopes().
 */
int debuginfo_getscopes(struct debuginfo *dbg, Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die **scopes);

/**
 * debuginfo_global() - a variable with a location at the top of a CU, named @name
 * ("runtime.g0"), in the first CU that has one; looked up once per binary and name
 * Return: true with @out filled (valid until debuginfo_free()).
 */
bool debuginfo_global(struct debuginfo *dbg, const char *name, Dwarf_Die *out);

/**
 * debuginfo_getscopes_die() - what dwarf_getscopes_die(@fn, @scopes) returns for a function
 * of @cu: @fn, the namespaces and classes holding it, then the CU (dw_index_getscopes_die():
 * from a table, not a walk of the CU per call)
 * Return: the number of scopes with *@scopes a new array for free(), or -1.
 */
int debuginfo_getscopes_die(struct debuginfo *dbg, Dwarf_Die *cu, Dwarf_Die *fn,
			    Dwarf_Die **scopes);

/**
 * debuginfo_index() - every function DIE of the DWARF, read on first use: from the raw
 * bytes of .debug_info (dwarf-index-raw.h), else through libdw (dw_index_walk()); the
 * environment variable UPFRONT_INDEX=libdw skips the raw reader (tests compare the two)
 * Return: the index (owned by @dbg), or NULL without DWARF.
 */
struct dw_index *debuginfo_index(struct debuginfo *dbg);

/**
 * debuginfo_types() - every named type of the DWARF by qualified name (type-index.h), read
 * on its first lookup, once per binary
 * Return: the index (owned by @dbg), or NULL without DWARF.
 */
struct type_index *debuginfo_types(struct debuginfo *dbg);

/**
 * debuginfo_lang_guess() - the language of code DWARF does not describe, from the binary's
 * sections
 * Return: DW_LANG_Go for a Go binary (.gopclntab, .go.buildinfo), else 0.
 */
int debuginfo_lang_guess(struct debuginfo *dbg);

/**
 * debuginfo_func_extent() - the code of the function holding @vaddr: the function symbol
 * whose [start, start + size) holds it, else the DWARF subprogram's address range holding it
 * (a cold part's range starts its own run of instructions)
 * @name: filled with the function's name (borrowed), or NULL when DWARF has none
 * Return: true with @start, @end and @name filled, false when no function is known there.
 */
bool debuginfo_func_extent(struct debuginfo *dbg, uint64_t vaddr, uint64_t *start, uint64_t *end,
			   const char **name);

/**
 * debuginfo_vaddr_to_offset() - the file offset the kernel wants for a virtual address,
 * from the PT_LOAD program header containing it (PIE, non-PIE, Go's 0x400000 layout)
 * Return: 0, or -ERANGE with @d filled when no executable segment holds @vaddr (or its
 * offset is not inside the file).
 */
int debuginfo_vaddr_to_offset(struct debuginfo *dbg, uint64_t vaddr, uint64_t *offset,
			      struct diag *d);

/**
 * debuginfo_offset_to_vaddr() - the virtual address of file offset @offset (for -l and for
 * probe ips in records), the inverse of debuginfo_vaddr_to_offset()
 * Return: 0, or -ERANGE when no segment holds @offset.
 */
int debuginfo_offset_to_vaddr(struct debuginfo *dbg, uint64_t offset, uint64_t *vaddr);

/**
 * debuginfo_symbolize() - "symbol+0xoff" (demangled) for a virtual address in the binary
 * Return: 0 and @out filled, or -ENOENT when no symbol covers @vaddr.
 */
int debuginfo_symbolize(struct debuginfo *dbg, uint64_t vaddr, struct strbuf *out);

#endif
