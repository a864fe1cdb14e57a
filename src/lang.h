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
};

/* A language's rules, chosen by the CU's DW_AT_language. */
struct lang_ops {
	const char *name;
	/* a text type with a length (Go string, Rust &str/String, std::string) */
	bool (*string_layout)(Dwarf_Die *type, const char *name, struct lang_layout *l);
	/* an indexable aggregate (Go slice, Rust &[T]/Vec<T>, std::vector) */
	bool (*slice_layout)(Dwarf_Die *type, const char *name, struct lang_layout *l);
	/* an interface: the member holding its type word (shown as a symbol), or NULL */
	const char *(*iface_word)(Dwarf_Die *type, const char *name);
	/* the type as the language spells it ("*dns.Msg", "struct foo *", "std::string") */
	void (*type_name)(Dwarf_Die *type, struct strbuf *out);
	bool char_ptr_is_string;	/* char * / char[N] are NUL-terminated text (C, C++) */
};

/* lang_is_cxx() - true for every DW_LANG_* that is C++ (C++98 to C++20): the one place
 * that says so */
bool lang_is_cxx(int lang);
/* lang_nests_names() - true when DW_LANG_* @lang qualifies names by enclosing namespaces
 * and types (C++, Rust: "ns::T::f"); Go and C names are flat */
bool lang_nests_names(int lang);

/* lang_for() - the rules for DW_LANG_* @lang (C's for unknown languages) */
const struct lang_ops *lang_for(int lang);
/* lang_of_die() - the rules for the CU that holds @die */
const struct lang_ops *lang_of_die(Dwarf_Die *die);

extern const struct lang_ops lang_c, lang_cxx, lang_go, lang_rust;

/* Type helpers shared by the languages (lang.c). */

/**
 * lang_strip() - @type without typedefs and cv/atomic qualifiers
 * @out: the stripped type; may be @type
 * Return: its DW_TAG, or 0 for void (no type)
 */
int lang_strip(Dwarf_Die *type, Dwarf_Die *out);

/* lang_type_of() - DW_AT_type of @die (integrating abstract origins); false for void */
bool lang_type_of(Dwarf_Die *die, Dwarf_Die *out);

/* lang_type_size() - bytes of @type (typedefs stripped, pointers 8), or -1 */
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
 * Go embedded structs and C++ base classes recursively
 * @member: the DW_TAG_member found
 * @offset: its byte offset from the start of @type
 * Return: true when found.
 */
bool lang_find_member(Dwarf_Die *type, const char *name, Dwarf_Die *member, int64_t *offset);

/* lang_member_names() - the names lang_find_member() would find, in declaration order */
void lang_member_names(Dwarf_Die *type, struct strlist *out);
/* lang_list_members() - the same as text for people: "a, b, c" */
void lang_list_members(Dwarf_Die *type, struct strbuf *out);

/* lang_member_offset() - DW_AT_data_member_location as a constant; false if it is not one */
bool lang_member_offset(Dwarf_Die *member, int64_t *off);

/* lang_template_param() - template type parameter @name of @type ("T"), false if none */
bool lang_template_param(Dwarf_Die *type, const char *name, Dwarf_Die *out);

/* lang_c_type_name() - C spelling; @cxx: qualified with namespaces/classes, no "struct" */
void lang_c_type_name(Dwarf_Die *type, bool cxx, struct strbuf *out);

#endif
