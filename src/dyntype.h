/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dyntype.h - dynamic types: a type word (C++ vtable pointer, Go type word or itab, Rust
 * vtable pointer) <-> the name of the type it stands for, from the binary's symbols and DWARF */
#ifndef UPF_DYNTYPE_H
#define UPF_DYNTYPE_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

#include "fetcharg.h"
#include "util.h"

struct debuginfo;
struct dyntypes;

/*
 * Where the names come from (each table is built on first use, once per binary):
 * - C++: the vtable symbol around a vtable pointer ("vtable for zoo::Dog", demangled from
 *   _ZTV...; a secondary vtable of multiple inheritance lies inside its class's symbol).
 * - Go: a type word is the address of a runtime type descriptor, which has no symbol of
 *   its own; the DWARF type DIE whose DW_AT_go_runtime_type is its offset from the start
 *   of the types ("type.*" in Go 1.19, "type:*" since 1.20, or runtime.types) names it
 *   ("*errors.errorString"). An itab has a symbol: "go.itab.*errors.errorString,error"
 *   ("go:itab." since Go 1.20).
 * - Rust: rustc gives a vtable no symbol but a DWARF variable
 *   "<orders::Circle as orders::Shape>::{vtable}" at its address.
 */

/**
 * dyntypes_new() - the dynamic types of @dbg's binary; nothing is read until asked
 * @dbg: the binary (borrowed; it must outlive the result)
 * Return: a handle for dyntypes_free().
 */
struct dyntypes *dyntypes_new(struct debuginfo *dbg);

/**
 * dyntypes_free() - free @dt and its tables; accepts NULL
 */
void dyntypes_free(struct dyntypes *dt);

/**
 * dyntypes_of() - the dynamic types of @dbg's binary, made once and kept with it (freed by
 * debuginfo_free()): what the resolver and the decoder share
 */
struct dyntypes *dyntypes_of(struct debuginfo *dbg);

/**
 * dyntypes_name() - the name of the dynamic type a type word stands for (decode time)
 * @dt: the tables
 * @kind: what the word is (DYN_GO_ITAB: an itab, named by its symbol only)
 * @vaddr: the word, less the binary's load base: an address in the binary
 *
 * Each word is looked up once; after that it is one hash lookup.
 * Return: "zoo::Dog", "*errors.errorString", "orders::Circle" (owned by @dt, valid until
 * dyntypes_free()), or NULL when @vaddr is none of the binary's vtables or types.
 */
const char *dyntypes_name(struct dyntypes *dt, enum dyn_word kind, uint64_t vaddr);

/**
 * dyntypes_go_type() - the runtime type descriptor of Go type @type (resolve time)
 * @type: a type DIE (from the type index: "*main.OpError", "syscall.Errno", "int")
 * @vaddr: filled with its descriptor's address (what a type word holds)
 * Return: true when the binary has that type's descriptor (DW_AT_go_runtime_type).
 */
bool dyntypes_go_type(struct dyntypes *dt, Dwarf_Die *type, uint64_t *vaddr);

/**
 * dyntypes_go_itabs() - the itabs of Go interface @iface that the binary has symbols for
 * (the conversions to @iface the compiler saw)
 * @iface: the interface as the itab symbols spell it: "error", "fmt.Stringer"
 * @types: the dynamic types are appended ("*errors.errorString", "syscall.Errno"), in
 *         address order
 * @addrs: when not NULL, filled with a new array (free()) of the itabs' addresses, one per
 *         type appended
 * Return: how many were appended.
 */
size_t dyntypes_go_itabs(struct dyntypes *dt, const char *iface, struct strlist *types,
			 uint64_t **addrs);

/**
 * dyntypes_cxx_vtable() - the vtable symbol of C++ class @cls ("vtable for @cls")
 * @cls: as the demangler spells it: "zoo::Dog", "zoo::(anonymous namespace)::Ghost"
 * @vaddr: filled with the symbol's address
 * @size: filled with its size (the whole vtable group of the class)
 * Return: true when the binary defines that vtable (an abstract class or one never
 * instantiated in it has none).
 */
bool dyntypes_cxx_vtable(struct dyntypes *dt, const char *cls, uint64_t *vaddr, uint64_t *size);

/**
 * dyntypes_cxx_vtables() - the C++ classes the binary defines a vtable for whose name
 * matches @glob (glob_match() on the form type_name_canon() gives both)
 * @out: their names are appended, in that form, in name order
 * Return: how many were appended.
 */
size_t dyntypes_cxx_vtables(struct dyntypes *dt, const char *glob, struct strlist *out);

/**
 * dyntypes_cxx_address_point() - the value a vtable pointer holds in the subobject at
 * offset @off of an object of class @cls (Itanium C++ ABI, no virtual bases)
 * @off: the subobject's offset in the complete object; 0 for the primary vtable
 * @ap: filled with the address
 *
 * The primary vtable's address point is 16 bytes into the vtable symbol (after the
 * offset-to-top and RTTI words); a secondary one follows its own offset-to-top word,
 * -@off, which is found in the vtable's bytes in the file.
 * Return: true, or false when the class has no vtable or none for that offset.
 */
bool dyntypes_cxx_address_point(struct dyntypes *dt, const char *cls, int64_t off, uint64_t *ap);

/**
 * dyntypes_cxx_address_point_in() - dyntypes_cxx_address_point() in @dt's vtable of @cls,
 * its place in the vtable group taken from @other's vtable of it when @dt's bytes cannot tell
 * (a copy relocation's target: zeros in the file, and often only a declaration of the class)
 * @other: another binary that defines the vtable, or NULL
 * Return: true with @ap an address of @dt's binary.
 */
bool dyntypes_cxx_address_point_in(struct dyntypes *dt, struct dyntypes *other, const char *cls,
				   int64_t off, uint64_t *ap);

/**
 * dyntypes_cxx_class() - the definition of C++ class @name, from the binary's type index
 * (type-index.h)
 * @name: as the demangler spells it: "zoo::Dog", "zoo::(anonymous namespace)::Ghost"
 * @die: filled with a DIE that defines it
 * Return: true when found.
 */
bool dyntypes_cxx_class(struct dyntypes *dt, const char *name, Dwarf_Die *die);

/**
 * dyntypes_cxx_class_name() - the qualified name of C++ class DIE @cls (a definition or a
 * declaration), from the class table (every class and struct of the binary's C++ DWARF
 * with its DW_TAG_inheritance, read on first use), as dyntypes_cxx_class() takes it
 * Return: the name (owned by @dt), or NULL when @cls is not in the class table.
 */
const char *dyntypes_cxx_class_name(struct dyntypes *dt, Dwarf_Die *cls);

/**
 * dyntypes_cxx_derived() - the classes that derive from @name, directly or through others
 * (DW_TAG_inheritance of every class definition)
 * @out: their names are appended, each once; @name itself is not
 * Return: how many were appended.
 */
size_t dyntypes_cxx_derived(struct dyntypes *dt, const char *name, struct strlist *out);

/**
 * dyntypes_cxx_base_offset() - where base class @base lies in class @cls
 * @cls: a class definition
 * @base: the base's qualified name
 * @off: filled with its offset in @cls (through every level of inheritance); the first one
 *       found, depth first, when @base occurs more than once
 * Return: true when found through non-virtual inheritance only; false when @base is no
 * base of @cls, or only a virtual one (whose offset is known only at run time).
 */
bool dyntypes_cxx_base_offset(struct dyntypes *dt, Dwarf_Die *cls, const char *base,
			      int64_t *off);

/**
 * dyntypes_cxx_base_in() - where class @base lies in class @cls, from the definition of
 * @cls in @dt's DWARF, else in @other's (NULL: none); a declaration tells nothing
 * @off: filled with the offset (0 when @cls is @base)
 * Return: 1 found; 0 when @cls is defined and @base is no non-virtual base of it; -1 when
 * neither defines @cls.
 */
int dyntypes_cxx_base_in(struct dyntypes *dt, struct dyntypes *other, const char *cls,
			 const char *base, int64_t *off);

/**
 * dyntype_cxx_same() - whether @a and @b name the same class (compared as type_name_canon()
 * spells them)
 */
bool dyntype_cxx_same(const char *a, const char *b);

/**
 * dyntype_cxx_vtable_class() - the class of a demangled vtable symbol
 * @sym: "vtable for zoo::Dog"
 * Return: a new string ("zoo::Dog"), or NULL when @sym is no vtable.
 */
char *dyntype_cxx_vtable_class(const char *sym);

/**
 * dyntype_go_itab_split() - the dynamic type and the interface of a Go itab symbol
 * @sym: "go.itab.*errors.errorString,error", "go:itab.main.Pair[int,string],fmt.Stringer"
 * @iface: when not NULL, filled with a new string: the interface ("error")
 * Return: a new string (the type: "*errors.errorString"), or NULL when @sym is no itab. The
 * comma between them is the last one outside brackets and parentheses.
 */
char *dyntype_go_itab_split(const char *sym, char **iface);

/**
 * dyntype_rust_vtable_type() - the concrete type of a Rust vtable's DWARF name
 * @name: "<orders::Circle as orders::Shape>::{vtable}"
 * Return: a new string ("orders::Circle"), or NULL when @name is no vtable.
 */
char *dyntype_rust_vtable_type(const char *name);

#endif
