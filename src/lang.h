/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lang.h - what differs between C, C++, Go and Rust: string/slice layouts, type names */
#ifndef UPF_LANG_H
#define UPF_LANG_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

#include "util.h"

/*
 * Where a string with a length or a slice/vector keeps its parts, as member paths found by
 * name (layouts differ between compiler versions, so nothing is an offset).
 */
struct lang_layout {
	const char *ptr;	/* dotted member path to the data pointer ("str", "_M_dataplus._M_p") */
	bool ptr_below;		/* the data pointer is the first pointer found depth-first below
				 * @ptr (Rust: vec.buf.inner.ptr.pointer.pointer) */
	const char *len;	/* dotted member path to the length, or NULL (std::vector) */
	const char *end;	/* no length: dotted member path to the end pointer (one past
				 * the last element: std::vector's _M_finish), or NULL */
	const char *elem_param;	/* template parameter naming the element type ("T"), or NULL:
				 * the data pointer's target type */
	const char *cap;	/* dotted member path to the capacity (a count; with @end, the
				 * end pointer of the storage), or NULL; '|' separates the
				 * paths of layouts that differ by compiler version */
};

/*
 * A smart pointer (std::unique_ptr, std::shared_ptr, std::weak_ptr; Rust's Rc, Arc): a struct
 * that holds one raw pointer and is followed like it. The pointer is found in the member
 * layout of the template instance (depth-first through members and base classes), never at
 * a fixed offset: libstdc++'s unique_ptr keeps it in _M_t._M_t's _Head_base<0>, behind the
 * deleter's _Head_base<1>; libc++'s in __ptr_'s __compressed_pair_elem<T *, 0>.
 */
struct lang_smart {
	const char *param;	/* the template type parameter it points to ("_Tp"): the first
				 * member whose type is a pointer to it; NULL or no match: the
				 * first pointer member */
	const char *inner;	/* what the pointer points to holds the value in this member
				 * (Rust: Rc's RcInner.value, Arc's ArcInner.data), or NULL */
};

/*
 * A string kept in one of two places, a flag bit saying which (libc++'s short-string
 * optimization): a short one inline, its length in the bits above the flag in the same byte;
 * a long one behind a pointer, with a length member. Both are fetched; the decoder shows the
 * one the flag names.
 */
struct lang_sso {
	const char *flag;	/* dotted member path to what starts with the byte holding the
				 * flag and the short length */
	unsigned int flag_bit;	/* the flag's bit in that byte: set for a long string */
	unsigned int len_bit;	/* the short length: the byte's bits from this one up */
	const char *short_data;	/* dotted member path to the inline char array */
	const char *long_data;	/* dotted member path to the long string's data pointer */
	const char *long_len;	/* dotted member path to its length */
};

/* A language's rules, chosen by the CU's DW_AT_language. */
struct lang_ops {
	const char *name;
	/* a text type with a length (Go string, Rust &str/String, std::string) */
	bool (*string_layout)(Dwarf_Die *type, const char *name, struct lang_layout *l);
	/* a text type kept inline or behind a pointer (libc++'s std::string) */
	bool (*sso_layout)(Dwarf_Die *type, const char *name, struct lang_sso *l);
	/* an indexable aggregate (Go slice, Rust &[T]/Vec<T>, std::vector) */
	bool (*slice_layout)(Dwarf_Die *type, const char *name, struct lang_layout *l);
	/* a smart pointer, followed by ->, ., * and casts like the raw pointer it holds */
	bool (*smart_ptr)(Dwarf_Die *type, const char *name, struct lang_smart *l);
	/* an interface: the member holding its type word (shown as a symbol), or NULL */
	const char *(*iface_word)(Dwarf_Die *type, const char *name);
	/* the type as the language spells it ("*dns.Msg", "struct foo *", "std::string") */
	void (*type_name)(Dwarf_Die *type, struct strbuf *out);
	bool char_ptr_is_string;	/* char * / char[N] are NUL-terminated text (C, C++) */
	const char *null_name;		/* a null pointer as the language spells it ("NULL") */
};

/*
 * lang.c chooses the rules (a table of DW_LANG_* -> lang_ops); lang-{c,cxx,go,rust}.c hold
 * one language's rules each; lang-common.c holds the type helpers every language uses. The
 * dependencies go one way: lang.c -> lang-{c,cxx,go,rust}.c -> lang-common.c.
 */

/**
 * lang_is_cxx() - whether a DW_LANG_* value is C++ (C++98 to C++20): whether lang.c's table,
 * the one place that says so, gives it lang_cxx's rules
 * @lang: the CU's DW_AT_language
 * Return: true for every C++ dialect.
 */
bool lang_is_cxx(int lang);

/**
 * lang_nests_names() - whether names are qualified by enclosing namespaces and types
 * @lang: the CU's DW_AT_language
 * Return: true for C++ and Rust ("ns::T::f"); false for Go and C, whose names are flat.
 */
bool lang_nests_names(int lang);

/**
 * lang_for() - the rules for a language
 * @lang: the CU's DW_AT_language
 * Return: &lang_cxx, &lang_go, &lang_rust, or &lang_c (also for unknown languages).
 */
const struct lang_ops *lang_for(int lang);

/**
 * lang_of_die() - the rules for the CU that holds @die
 * Return: as lang_for(); &lang_c when the CU cannot be found.
 */
const struct lang_ops *lang_of_die(Dwarf_Die *die);

extern const struct lang_ops lang_c, lang_cxx, lang_go, lang_rust;

/**
 * lang_go_is_result() - whether @die, a DW_TAG_formal_parameter of a Go function, is one of
 * its results: Go's compiler marks them DW_AT_variable_parameter (lang-go.c)
 */
bool lang_go_is_result(Dwarf_Die *die);

/**
 * lang_go_heap_name() - the name a Go local that escaped to the heap is known by: the
 * compiler names its DWARF variable "&x", a pointer to the heap copy (lang-go.c)
 * @dwarf_name: the variable's DW_AT_name
 * Return: "x" (a pointer into @dwarf_name), or NULL when @dwarf_name is no such name.
 */
const char *lang_go_heap_name(const char *dwarf_name);

/*
 * A Go map as its runtime keeps it, found from the DWARF the linker writes for it (member
 * names, never fixed offsets): behind the map's pointer a header with the number of entries,
 * and, for a small map, one table of 8 slots that holds every entry: a bucket up to Go 1.23
 * (runtime.hmap's buckets while B is 0; tophash bytes tell the slots in use), a group from Go
 * 1.24 on (internal/runtime/maps.Map's dirPtr while dirLen is 0; control bytes tell them).
 */
struct lang_go_map {
	bool swiss;		/* Go 1.24+: internal/runtime/maps */
	Dwarf_Die hdr;		/* what the map points to: hash<K,V> (hmap), map<K,V> (Map) */
	Dwarf_Die key, elem;	/* K and V */
	int64_t count_off;	/* in hdr: the number of entries (hmap.count, Map.used) */
	Dwarf_Die count_type;
	unsigned int count_size;
	/* the small map's table; has_table false: its layout was not found (len() still is) */
	bool has_table;
	int64_t table_off;	/* in hdr: the pointer to it (buckets, dirPtr) */
	int64_t small_off;	/* in hdr: a byte that is 0 while the map is small (B), or */
	unsigned int small_size;	/* a word (dirLen); its size */
	int64_t old_off;	/* in hdr: a pointer that is NULL but while the map grows
				 * (oldbuckets), or -1 */
	int64_t over_off;	/* in the table: the overflow bucket's pointer (NULL: none), or
				 * -1 */
	unsigned int slots;	/* 8 */
	int64_t ctrl_off;	/* in the table: one control byte per slot, slot i at +i */
	unsigned int used_min;	/* a slot is in use when its byte is >= used_min (tophash:
				 * minTopHash 5), or, when 0, when its top bit is clear (swiss) */
	int64_t key_off, key_stride;	/* in the table: slot i's key at key_off + i * stride */
	int64_t elem_off, elem_stride;
};

/**
 * lang_go_map() - whether @type (typedefs stripped here) is a Go map, and its layout
 * @m: filled when it is one
 * Return: true for a map whose header and count the DWARF has.
 */
bool lang_go_map(Dwarf_Die *type, struct lang_go_map *m);

/* Type helpers shared by the languages (lang-common.c). */

/**
 * lang_strip() - @type without typedefs and cv/atomic qualifiers; a declaration completed from
 * its definition where one is known (lang_set_completer())
 * @out: the stripped type; may be @type
 * Return: its DW_TAG, or 0 for void (no type)
 */
int lang_strip(Dwarf_Die *type, Dwarf_Die *out);

/**
 * lang_set_completer() - how lang_strip() completes a declared struct, class, union or enum
 * (DW_AT_declaration) from its definition: type_complete() once a file is added there; the
 * walks over members, bases and sizes all strip first, so they see the definition
 * @complete: fills its second argument and returns true when it knows a definition
 */
void lang_set_completer(bool (*complete)(Dwarf_Die *decl, Dwarf_Die *out));

/**
 * lang_strip_tag() - lang_strip() for what @type is, not what it holds: a declaration is not
 * completed (its tag is its definition's), so asking costs no lookup in the type index
 * @out: the stripped type, a declaration left as it is
 * Return: its DW_TAG, or 0 for void
 */
int lang_strip_tag(Dwarf_Die *type, Dwarf_Die *out);

/**
 * lang_type_of() - the DW_AT_type of @die, integrating abstract origins
 * @out: filled with the type
 * Return: false when @die has no type (void).
 */
bool lang_type_of(Dwarf_Die *die, Dwarf_Die *out);

/**
 * lang_type_size() - bytes of @type, typedefs and qualifiers stripped
 * Return: the size (pointers and references 8 unless they say otherwise), or -1 when the
 * DWARF does not give one.
 */
int64_t lang_type_size(Dwarf_Die *type);

/**
 * lang_array_dims() - the element counts of array type @arr, outermost dimension first
 * @counts: filled with up to @max counts, -1 where the count is not known: a flexible array
 *          (no bound), a GNU zero-length array (count 0), a variable-length array
 * Return: the number of dimensions (DW_TAG_subrange_type children) described, at most @max
 */
int lang_array_dims(Dwarf_Die *arr, int64_t *counts, int max);

/**
 * lang_find_member() - member @name of struct/class/union @type, searching anonymous members,
 * Go embedded structs and C++ base classes recursively; the shallowest one wins (as C++
 * and Go choose), the first declared among equally deep ones
 * @member: the DW_TAG_member found
 * @offset: its byte offset from the start of @type
 * Return: true when found.
 */
bool lang_find_member(Dwarf_Die *type, const char *name, Dwarf_Die *member, int64_t *offset);

/**
 * lang_member_ambiguous() - whether member @name of @type is found more than once at the depth
 * lang_find_member() takes it from (two base classes' copies: a C++ name lookup that is
 * ambiguous, which gdb refuses too)
 * @where: the names of the classes through which each copy is reached, for a hint
 * Return: true when ambiguous.
 */
bool lang_member_ambiguous(Dwarf_Die *type, const char *name, struct strlist *where);

/**
 * lang_promoted_path() - where a Go field promoted through an embedded pointer lies, which
 * lang_find_member() does not search (its offset is not a constant): the chain of embedded
 * members down to the struct that holds @name, pointers among them followed; the shallowest
 * one, the first declared among equally deep ones
 * @path: gets the chain as a dotted member path ("Inner", "Base.Inner")
 * Return: true when found.
 */
bool lang_promoted_path(Dwarf_Die *type, const char *name, struct strbuf *path);

/**
 * lang_smart_pointer() - where smart pointer @type (per @l from lang_ops.smart_ptr) keeps
 * its raw pointer: depth-first through members and base classes, the first member whose
 * type points to template parameter l->param, else the first pointer member
 * @ptr_type: the member's type (a pointer)
 * @offset: its byte offset from the start of @type
 * Return: true when found.
 */
bool lang_smart_pointer(Dwarf_Die *type, const struct lang_smart *l, Dwarf_Die *ptr_type,
			int64_t *offset);

/**
 * lang_base_offset() - where base class @base lies in class @derived: through
 * DW_TAG_inheritance, depth-first, non-virtual bases only (a virtual base's place is known
 * only at run time)
 * @offset: bytes from the start of @derived
 * Return: true when @base is such a base of @derived.
 */
bool lang_base_offset(Dwarf_Die *derived, Dwarf_Die *base, int64_t *offset);

/**
 * lang_base_find() - the walk lang_base_offset() makes, with the test for the base looked
 * for given by the caller (dyntype compares qualified names across units)
 * @derived: a class, struct or union (typedefs and qualifiers stripped)
 * @is_base: called with each non-virtual base class, depth-first in declaration order; true
 *           for the one looked for; on false the walk goes on inside *@base, which
 *           @is_base may replace (a declaration by its definition in another unit)
 * @arg: passed to @is_base
 * @offset: bytes from the start of @derived to the base found
 * Return: true when found (the first one, depth first).
 */
bool lang_base_find(Dwarf_Die *derived, bool (*is_base)(Dwarf_Die *base, void *arg), void *arg,
		    int64_t *offset);

/* What lang_base_named() found. */
enum lang_base {
	LANG_BASE_NONE,		/* no such class: neither the class nor one of its bases */
	LANG_BASE_FOUND,	/* one subobject, at a constant offset */
	LANG_BASE_AMBIGUOUS,	/* several (a base reached twice without virtual inheritance) */
	LANG_BASE_VIRTUAL,	/* only through a virtual base: its offset is known at run time */
};

/**
 * lang_base_named() - the subobject of class @type that a C++ qualifier names (the "B" of
 * "d->B::x"): @type itself or one of its bases, direct or not, whose qualified name is @qual
 * or ends in "::" @qual; "B::A" that is no class's name is class A (B's name for it, which
 * C++ looks up in @type: ambiguous when @type has two A)
 * @base: the class found (a definition), when LANG_BASE_FOUND
 * @offset: its bytes from the start of @type, when LANG_BASE_FOUND
 * @vbase: the virtual base on the way, when LANG_BASE_VIRTUAL
 * Return: what was found.
 */
enum lang_base lang_base_named(Dwarf_Die *type, const char *qual, Dwarf_Die *base,
			       int64_t *offset, Dwarf_Die *vbase);

/**
 * lang_virtual_base_of() - whether @base is a base of @derived reached through a virtual base
 * (whose place in the object the Itanium ABI keeps in the vtable, known only at run time)
 * @vbase: filled with the first virtual base on the way (@base itself, or one it lies in)
 * Return: true when found that way (depth first).
 */
bool lang_virtual_base_of(Dwarf_Die *derived, Dwarf_Die *base, Dwarf_Die *vbase);

/**
 * lang_virtual_base_count() - how many distinct virtual bases (direct and indirect) class
 * @cls has: the vbase offset words before its primary vtable's offset-to-top (Itanium ABI)
 * Return: the count, or -1 when there are too many to tell (64).
 */
int lang_virtual_base_count(Dwarf_Die *cls);

/**
 * lang_virtual_member() - whether member @name of @type lies in a virtual base (which
 * lang_find_member() does not search: its offset is not a constant)
 * @vbase: filled with that virtual base
 * Return: true when found there.
 */
bool lang_virtual_member(Dwarf_Die *type, const char *name, Dwarf_Die *vbase);

/**
 * lang_member_names() - the names lang_find_member() would find in @type
 * @out: the names are appended in declaration order, the members of an embedded struct
 *       or a base class right after it; a C++ member that another one of its name hides (a
 *       derived class's, or the first base's copy) as its class names it ("B::x"), once
 */
void lang_member_names(Dwarf_Die *type, struct strlist *out);

/**
 * lang_list_members() - lang_member_names() as text for people
 * @out: "a, b, c" is appended
 */
void lang_list_members(Dwarf_Die *type, struct strbuf *out);

/**
 * lang_member_offset() - a member's DW_AT_data_member_location as a constant
 * @off: filled with the byte offset; 0 when the member has no location (union members)
 * Return: false when the location is an expression other than DW_OP_plus_uconst.
 */
bool lang_member_offset(Dwarf_Die *member, int64_t *off);

/**
 * lang_template_param() - template type parameter @name of @type ("T")
 * @out: filled with the parameter's type
 * Return: false when @type has no such parameter.
 */
bool lang_template_param(Dwarf_Die *type, const char *name, Dwarf_Die *out);

/**
 * lang_c_type_name() - @type as C or C++ spells it ("struct order *", "const char *")
 * @cxx: qualify with namespaces and classes, without "struct"/"union"/"enum"
 * @out: the name is appended
 */
void lang_c_type_name(Dwarf_Die *type, bool cxx, struct strbuf *out);

/**
 * lang_named_type_name() - @type by its DW_AT_name, for compilers that name every type as
 * the language spells it (Go's linker, rustc); C's spelling for a type without a name
 * @out: the name is appended
 */
void lang_named_type_name(Dwarf_Die *type, struct strbuf *out);

#endif
