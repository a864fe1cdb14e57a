/* SPDX-License-Identifier: GPL-2.0-or-later */
/* type-complete.h - a declared struct or class completed from its definition: in the same
 * file (another unit), else in the files related to it (a library's program, its libraries) */
#ifndef UPF_TYPE_COMPLETE_H
#define UPF_TYPE_COMPLETE_H

#include <elfutils/libdw.h>
#include <stdbool.h>

#include "util.h"

struct type_index;

/*
 * g++ writes a polymorphic class's full DWARF only into the unit that holds its key function
 * (its first out-of-line virtual function); every other unit has a bare declaration
 * (DW_AT_declaration), and a library's class may be defined only in the library while the
 * program declares it (and the other way round). Debuggers complete such a type by its
 * qualified name. Once a file is added here, lang_strip() does the same for every caller:
 * members, sizes, bases and vtable pointers are those of the definition.
 */

/**
 * type_complete_add() - a file whose definitions complete declarations (debuginfo.c adds each
 * binary whose DWARF it opens)
 * @ti: its type index, owned by the caller, which calls type_complete_remove() before freeing it
 * @name: the file's name for messages ("libsink.so"); copied
 */
void type_complete_add(struct type_index *ti, const char *name);

/**
 * type_complete_remove() - forget @ti (and every completion found through it); accepts NULL
 */
void type_complete_remove(struct type_index *ti);

/**
 * type_complete_add_source() - a file to look in when the files added so far have no
 * definition, opened only then
 * @name: its name for messages; copied
 * @open: opens it (its index is then type_complete_add()ed) and returns 0, or a negative errno;
 *        called at most once
 * @arg: passed to @open; also the key for type_complete_remove_source()
 */
void type_complete_add_source(const char *name, int (*open)(void *arg), void *arg);

/**
 * type_complete_remove_source() - forget the source added with @arg (before @arg is freed)
 */
void type_complete_remove_source(void *arg);

/**
 * type_complete() - the definition of declared struct, class, union or enum @decl: the one
 * of its qualified name in @decl's own file (an anonymous namespace's class: in its own unit
 * only), else in the other files added, else in the sources, in the order added
 * Return: true with @out filled; false when no definition is known (@out untouched).
 */
bool type_complete(Dwarf_Die *decl, Dwarf_Die *out);

/**
 * type_complete_find() - a definition of type @name (as type_index_find_definition() takes
 * it) in the files added other than @skip's, else in the sources, in the order added: a
 * cast's type that the probed binary does not have (a program's class, cast to in its library)
 * Return: true with @out filled.
 */
bool type_complete_find(const char *name, int tag, Dwarf *skip, Dwarf_Die *out);

/**
 * type_complete_declared_only() - whether @type (typedefs and qualifiers stripped) is a
 * declaration nothing completes, and if so why, for an error line
 * @why: "'opaque_state' is declared only; no definition in libsink.so, sink" is appended
 * Return: true for such a declaration.
 */
bool type_complete_declared_only(Dwarf_Die *type, struct strbuf *why);

#endif
