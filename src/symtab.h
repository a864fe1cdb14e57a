/* SPDX-License-Identifier: GPL-2.0-or-later */
/* symtab.h - a binary's ELF symbols (functions and objects), sorted by address */
#ifndef UPF_SYMTAB_H
#define UPF_SYMTAB_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* symbol versions: "fopen@@GLIBC_2.2.5" (default), "pthread_kill@GLIBC_2.2.5" (an old one) */
enum sym_ver { SYM_UNVERSIONED, SYM_VER_DEFAULT, SYM_VER_OLD };

/*
 * One ELF symbol, owned by its symtab; read-only for callers. raw is borrowed from the ELF
 * string table, or (raw_owned) a copy without the "@VERSION": programs and people call it
 * "fopen". The names the language spells come from sym_name() and sym_signature().
 */
struct sym {
	uint64_t addr;
	uint64_t size;
	const char *raw;
	char *lname;		/* as the language spells it, without parameters (lazy) */
	char *dname;		/* demangled with parameters (lazy; == raw when not mangled) */
	bool func;		/* STT_FUNC or STT_GNU_IFUNC, not a gcc ".cold" part */
	bool ifunc;		/* STT_GNU_IFUNC: the resolver, run once at load time */
	bool raw_owned;		/* raw is a copy without the version */
	unsigned char ver;	/* enum sym_ver */
	const char *version;	/* "GLIBC_2.2.5" (borrowed), or NULL when unversioned */
};

struct symtab;

/**
 * symtab_load() - the defined function and object symbols of @mod (.symtab, else .dynsym)
 * @mod: a module of a Dwfl the caller keeps open as long as the table (names are borrowed)
 * Return: a table for symtab_free(); empty, never NULL, when the binary has no symbols.
 *
 * Several symbols at one address are sorted so that the one to name it by comes first:
 * functions, then the current version, then the larger, then the shorter name.
 */
struct symtab *symtab_load(Dwfl_Module *mod);

/**
 * symtab_has_version() - whether the binary defines symbol version @version (.gnu.version_d:
 * "GLIBC_2.2.5" in libc.so.6; never the file's own base version)
 */
bool symtab_has_version(struct symtab *st, const char *version);

/**
 * symtab_free() - free @st and the names it made; accepts NULL
 */
void symtab_free(struct symtab *st);

/**
 * symtab_syms() - every symbol, sorted by address
 * @nr: filled with the count
 * Return: the array (owned by @st), NULL when empty.
 */
struct sym *symtab_syms(struct symtab *st, size_t *nr);

/**
 * symtab_value() - the address of the symbol whose raw (mangled, unversioned) name is @raw
 * Return: it, or 0 when there is none.
 */
uint64_t symtab_value(struct symtab *st, const char *raw);

/**
 * symtab_first_at() - the symbol that names @addr: the first of those starting exactly there
 * Return: it (the others at @addr follow it in symtab_syms()), or NULL.
 */
struct sym *symtab_first_at(struct symtab *st, uint64_t addr);

/**
 * symtab_covering() - the symbol holding @vaddr, to name an address by ("memcpy+0x10")
 *
 * The preferred symbol at the nearest address at or below @vaddr, when its size covers
 * @vaddr; else a larger symbol further left that encloses it. A symbol without size
 * (hand-written assembly) holds 256 bytes.
 * Return: the symbol, or NULL when none holds @vaddr.
 */
struct sym *symtab_covering(struct symtab *st, uint64_t vaddr);

/**
 * symtab_func_covering() - the function symbol with a size holding @vaddr (up to 1 MiB
 * below it), the preferred function of those at its address
 * Return: the symbol, or NULL.
 */
struct sym *symtab_func_covering(struct symtab *st, uint64_t vaddr);

/**
 * sym_name() - @s's name as its language spells it, without parameters ("ns::C::m")
 * Return: a string owned by the table.
 */
const char *sym_name(struct sym *s);

/**
 * sym_signature() - the demangled name with parameters ("ns::C::m(int)")
 * Return: a string owned by the table, or NULL when it says no more than sym_name().
 */
const char *sym_signature(struct sym *s);

/**
 * sym_is_clone() - whether @s is a copy gcc made of a function for its own direct calls
 * (interprocedural SRA "f.isra.0", constant propagation "f.constprop.0", a split-off part
 * "f.part.0"): a local symbol whose address the program never takes, called only from code
 * in its own unit
 */
bool sym_is_clone(const struct sym *s);

#endif
