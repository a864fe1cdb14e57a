/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dwarf-index.h - every function DIE of a DWARF file in one table, and per-CU tables of where
 * functions and scopes are (what libdw finds by walking a CU on every call) */
#ifndef UPF_DWARF_INDEX_H
#define UPF_DWARF_INDEX_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dw_index;

/*
 * One function DIE: a subprogram with code or with DW_AT_inline (an abstract definition), or
 * an inlined copy. Filled in by a builder (dw_index_walk(), dw_index_read_raw()), read-only
 * for everyone else. The two builders fill the same fields the same way.
 */
struct dw_func {
	uint64_t off;		/* in the units' file's .debug_info (never an alt file) */
	const void *addr;	/* the DIE's Dwarf_Die.addr: what identifies it */
	const void *origin;	/* inlined: the abstract origin's Dwarf_Die.addr, or NULL */
	const char *dwname;	/* DW_AT_name (integrated), borrowed from the DWARF */
	const char *linkage;	/* DW_AT_linkage_name (integrated; MIPS's), borrowed */
	const char *scope;	/* "ns::Class" of the parents (owned by the index), or NULL */
	char *name;		/* lazy: dw_func_name() */
	char *sig;		/* lazy: dw_func_ident() */
	Dwarf_Die die;		/* valid once die_ok (dw_func_die()) */
	size_t decl;		/* a builder's own use while it builds; 0 after */
	int lang;		/* DW_LANG_* of the unit */
	bool die_ok;
	bool inlined;		/* DW_TAG_inlined_subroutine */
	bool has_code;		/* DW_AT_low_pc or DW_AT_ranges */
	bool is_abstract;	/* DW_TAG_subprogram with DW_AT_inline */
};

/**
 * dw_index_new() - an empty index of @dw, for a builder to fill; the per-CU tables fill
 * themselves on use
 * @dw: kept open by the caller as long as the index
 * Return: the index, for dw_index_free().
 */
struct dw_index *dw_index_new(Dwarf *dw);

/**
 * dw_index_free() - free @idx, its names and tables; accepts NULL
 */
void dw_index_free(struct dw_index *idx);

/**
 * dw_index_dwarf() - the Dwarf the index reads
 */
Dwarf *dw_index_dwarf(struct dw_index *idx);

/**
 * dw_index_walk() - fill @idx through libdw: every unit's DIEs, into namespaces and types
 * of the languages that nest names (lang_nests_names()), functions and lexical blocks
 * (the reference the raw reader, dwarf-index-raw.h, must agree with)
 */
void dw_index_walk(struct dw_index *idx);

/**
 * dw_index_add() - a new, zeroed entry at the end of the table, for a builder
 * Return: the entry; entries returned earlier may move.
 */
struct dw_func *dw_index_add(struct dw_index *idx);

/**
 * dw_index_scope() - "@outer::@name" (just @name when @outer is NULL), kept by the index
 * Return: the string, valid until dw_index_free().
 */
const char *dw_index_scope(struct dw_index *idx, const char *outer, const char *name);

/**
 * dw_index_clear() - drop every entry (the interned scopes stay), after a builder gave up
 */
void dw_index_clear(struct dw_index *idx);

/**
 * dw_index_funcs() - the table, in DIE order
 * @nr: filled with the count
 * Return: the entries (owned by @idx), NULL when empty.
 */
struct dw_func *dw_index_funcs(struct dw_index *idx, size_t *nr);

/**
 * dw_func_die() - the DIE of entry @f, read from its offset the first time
 * Return: a DIE owned by the entry, or NULL when libdw cannot read it.
 */
Dwarf_Die *dw_func_die(struct dw_index *idx, struct dw_func *f);

/**
 * dw_func_name() - @f's name as the language spells it: the demangled linkage name, else
 * DW_AT_name in its scope ("ns::Class::m"); "" when it has none
 * Return: a string owned by the entry.
 */
const char *dw_func_name(struct dw_func *f);

/**
 * dw_func_ident() - what tells @f from its overloads: the demangled signature when that
 * says more than dw_func_name() ("ns::f(int)"), else the name (the same pointer)
 * Return: a string owned by the entry.
 */
const char *dw_func_ident(struct dw_func *f);

/**
 * dw_index_cu_at() - the CU whose ranges hold DWARF address @pc, from every CU's ranges
 * (Go's linker writes .debug_aranges only for cgo's C units)
 * Return: true with @cu filled.
 */
bool dw_index_cu_at(struct dw_index *idx, Dwarf_Addr pc, Dwarf_Die *cu);

/**
 * dw_index_subprogram_at() - the out-of-line function of @cu starting at @pc, else the
 * one holding it (into namespaces, classes and nested functions)
 * @cu: as from dw_index_cu_at() or libdwfl
 * Return: true with @die filled. From the second call for a CU on, from a table of the
 * CU's functions and their code ranges.
 */
bool dw_index_subprogram_at(struct dw_index *idx, Dwarf_Die *cu, Dwarf_Addr pc,
			    Dwarf_Die *die);

/**
 * dw_index_getscopes_die() - what dwarf_getscopes_die(@fn, @scopes) returns for a function
 * of @cu (@fn, the namespaces and classes holding it, the CU), from the second lookup in
 * @cu on through the table dw_index_subprogram_at() makes, not a walk of the CU per call
 * Return: the number of scopes with *@scopes a new array for free(), or -1.
 */
int dw_index_getscopes_die(struct dw_index *idx, Dwarf_Die *cu, Dwarf_Die *fn,
			   Dwarf_Die **scopes);

/**
 * dw_index_getscopes() - what dwarf_getscopes(@cu, @pc, @scopes) returns (the DIEs whose
 * code holds @pc, innermost first, ending with the CU), from the second call for a CU on
 * through a table of the CU's top-level code ranges instead of a walk of the CU. Where @pc
 * is in an inlined copy, the chain from that call on holds the outermost inlined copy, its
 * callers and the CU: libdw goes on into the copy's abstract definition and its parents,
 * which takes a walk of the CU (a caller wants the concrete chain: resolve-scope.c)
 * Return: the number of scopes with *@scopes a new array for free(), 0 when nothing holds
 * @pc, or -1 (libdw error).
 */
int dw_index_getscopes(struct dw_index *idx, Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die **scopes);

#endif
