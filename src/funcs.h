/* SPDX-License-Identifier: GPL-2.0-or-later */
/* funcs.h - the functions a FUNC pattern names, as the user means them: every copy, or an
 * error that says why not (no such name, ambiguous, an IFUNC resolver) */
#ifndef UPF_FUNCS_H
#define UPF_FUNCS_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "debuginfo.h"
#include "diag.h"
#include "util.h"

/* A function found by name: one per place it has code (out-of-line copy or inlined copy). */
struct func {
	char *name;		/* as the language spells it: "main.(*server).handleRequest",
				 * "ns::Class::method", "crate::module::func", "getaddrinfo" */
	char *signature;	/* C++ demangled with parameters ("ns::C::m(int)"), or NULL */
	uint64_t entry;		/* virtual address of the first instruction */
	uint64_t end;		/* one past the last (of the entry range), 0 if unknown */
	bool inlined;		/* an inlined copy: die is a DW_TAG_inlined_subroutine */
	bool has_die;		/* die and cu are valid (not when only the symbol table knows it) */
	Dwarf_Die die;		/* DW_TAG_subprogram (concrete) or DW_TAG_inlined_subroutine */
	Dwarf_Die cu;
	int lang;		/* DW_LANG_* of the CU, 0 when unknown */
};

/**
 * funcs_find() - every copy of the functions @pattern names
 * @pattern: a name as the language spells it, a glob, an unambiguous suffix
 *           ("handleRequest" for "main.(*server).handleRequest"), or a C++ signature;
 *           "NAME@VERSION" / "NAME@@VERSION": only the symbols of that version (the
 *           default one for '@@'). Without a version an old version counts only when
 *           nothing else has the name.
 * @out: array owned by the caller, freed with funcs_free()
 * Return: 0 with @nr >= 1; -ENOENT with @d listing the closest names (or saying the binary
 * has no debug information); -EINVAL with @d listing the candidates (an ambiguous suffix,
 * overloads of a non-glob) or the implementations of an IFUNC resolver.
 *
 * The symbol table is searched first, DWARF's index when it has no match or for a glob;
 * inlined copies of a matched function are included from every CU.
 */
int funcs_find(struct debuginfo *dbg, const char *pattern, struct func **out, size_t *nr,
	       struct diag *d);

/**
 * funcs_at_version() - what the SUFFIX of FUNC@SUFFIX names: a symbol version or a source file
 * @func: FUNC as typed
 * @suffix: SUFFIX; "@VERSION" for FUNC@@VERSION
 * @in_file: whether a function is in a source file (FUNC@SRCFILE's rule)
 * @pattern: set to "FUNC@VERSION" or "FUNC@@VERSION" for funcs_find() when it is a version
 * Return: 1 a version; 0 a source file (not a version the binary defines); -ENOENT for
 * FUNC@@VERSION of a version the binary does not define, -EINVAL when SUFFIX is both a
 * version and a source file of FUNC (@d says how to write each), with @d filled.
 *
 * SUFFIX is a version when the binary defines it (.gnu.version_d): a closed list read from
 * the binary, so the same words always mean the same thing.
 */
int funcs_at_version(struct debuginfo *dbg, const char *func, const char *suffix,
		     bool (*in_file)(struct func *f, const char *file), char **pattern,
		     struct diag *d);

/**
 * funcs_hint_versions() - a hint listing @func's symbol versions ("versions:
 * pthread_kill@@GLIBC_2.34, pthread_kill@GLIBC_2.2.5"), when it has any
 */
void funcs_hint_versions(struct debuginfo *dbg, const char *func, struct diag *d);

/**
 * funcs_code_is_live() - whether code DWARF describes at @entry is in the binary: the linker's
 * --gc-sections drops code but keeps its DWARF (functions, ranges, line-table rows), with the
 * address 0 (ld.bfd), 1 (ld.bfd in .debug_ranges, where 0 would end the list: rustc 1.63's
 * inlined copies on arm64, whose first segment starts at 0 with the ELF header) or -1 (lld),
 * in no executable section
 */
bool funcs_code_is_live(struct debuginfo *dbg, uint64_t entry);

/**
 * funcs_free() - free what funcs_find() returned; accepts NULL
 */
void funcs_free(struct func *funcs, size_t nr);

/**
 * funcs_list() - the names of the functions matching @glob (NULL: all) as the language spells
 * them, from the symbol table: sorted, unique (what -F prints, one per line); an old
 * symbol version as NAME@VERSION ("pthread_kill@GLIBC_2.2.5"), the name that probes it
 * @out: appended to (strlist_release() by the caller)
 * Return: 0.
 */
int funcs_list(struct debuginfo *dbg, const char *glob, struct strlist *out, struct diag *d);

/**
 * funcs_list_inlined() - the functions matching @glob (NULL: all) that have no code of their
 * own, only inlined copies (DWARF's): sorted, unique, none that funcs_list() lists
 * @out: appended to (strlist_release() by the caller)
 * Return: 0 (nothing without DWARF).
 *
 * funcs_find() finds them by these names: each inlined copy is a probe point.
 */
int funcs_list_inlined(struct debuginfo *dbg, const char *glob, struct strlist *out);

#endif
