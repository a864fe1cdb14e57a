/* SPDX-License-Identifier: GPL-2.0-or-later */
/* type-index.h - every named type of a DWARF file by its qualified name, built once on use */
#ifndef UPF_TYPE_INDEX_H
#define UPF_TYPE_INDEX_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>

#include "util.h"

struct type_index;

/**
 * type_index_new() - an index of the types of @dw (and of its dwz supplementary file),
 * read on the first lookup: one walk of every unit's top-level DIEs, into namespaces and,
 * for C++ and Rust, into classes (nested types); function bodies are not read
 * @dw: kept open by the caller as long as the index
 * Return: the index, for type_index_free().
 */
struct type_index *type_index_new(Dwarf *dw);

/**
 * type_index_free() - free @ti; accepts NULL
 */
void type_index_free(struct type_index *ti);

/**
 * type_index_find() - a type by the name a program spells it with
 * @name: "inner" (C's struct inner), "unsigned long", "caf::plain_element",
 *        "caf::(anonymous namespace)::wrapper", "std::map<int, char>", "main.T", "*main.T";
 *        compared in canonical form (type_name_canon())
 * @tag: DW_TAG_structure_type (a struct or class), DW_TAG_union_type,
 *       DW_TAG_enumeration_type, or 0 for any type
 * @cu: the unit to prefer when several units define the name (the probe site's), or NULL
 * @out: the DIE found: a definition rather than a declaration
 * Return: true when found.
 */
bool type_index_find(struct type_index *ti, const char *name, int tag, Dwarf_Die *cu,
		     Dwarf_Die *out);

/**
 * type_index_find_definition() - a definition (never a declaration) of struct, class, union
 * or enum @name, to complete a declaration with
 * @tag: as for type_index_find()
 * @cu: NULL for any unit; else that unit only (a name in an anonymous namespace names a
 *      different type in each unit)
 * Return: true with @out filled.
 */
bool type_index_find_definition(struct type_index *ti, const char *name, int tag,
				Dwarf_Die *cu, Dwarf_Die *out);

/**
 * type_index_dwarf() - the DWARF @ti indexes (its dwz supplementary file is dwarf_getalt())
 */
Dwarf *type_index_dwarf(const struct type_index *ti);

/**
 * type_index_pointer_to() - a DW_TAG_pointer_type DIE whose target is @to, if the binary
 * has one (casts to "T *" use it; without one the resolver builds the pointer itself)
 * Return: true with @out filled.
 */
bool type_index_pointer_to(struct type_index *ti, Dwarf_Die *to, Dwarf_Die *out);

/**
 * type_index_similar() - up to @max names of the index that look like @name (the same
 * last component give or take two letters, or containing it), closest first, for hints
 * @out: the names, as the index keeps them (canonical)
 */
void type_index_similar(struct type_index *ti, const char *name, size_t max,
			struct strlist *out);

/**
 * type_index_count() - how many names the index holds (building it if needed)
 */
size_t type_index_count(struct type_index *ti);

/**
 * type_name_canon() - @name in the form names are compared in: blanks only between two
 * identifier characters, runs of C's integer words in one order ("long unsigned int" and
 * "unsigned long" are "unsigned long"; "short int" is "short"), also inside template
 * arguments ("map<long unsigned int, int>" is "map<unsigned long,int>")
 * Return: a new string for free().
 */
char *type_name_canon(const char *name);

#endif
