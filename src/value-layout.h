/* SPDX-License-Identifier: GPL-2.0-or-later */
/* value-layout.h - a whole value's layout: which leaves are fetched, named how, in what tree */
#ifndef UPF_VALUE_LAYOUT_H
#define UPF_VALUE_LAYOUT_H

/*
 * A struct, union, array, slice or vector named alone ("*o", "this", "r.Question[0]") is shown
 * whole, as the language's debugger prints it. Which parts that takes is type knowledge, made
 * here from the DWARF type alone: a tree whose inner nodes are structs and arrays and whose
 * leaves are the values the resolver already fetches one by one (numbers, pointers, strings,
 * Rust enums, Go interfaces). The tree is cut to a byte budget, estimated from the types:
 * depth first, members in declaration order, elements from the first; whatever is left out
 * marks its parent "more" (shown "...", never dropped in silence). The resolver
 * (resolve-emit-whole.c) walks the tree into kernel fields; the decoder and renderers put the
 * values back together from the trace_args it makes (VK_STRUCT, VK_ARRAY).
 */

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

enum vl_kind {
	VL_LEAF,	/* one value the resolver fetches by its type (emit_val()) */
	VL_STRUCT,	/* members: the kids, in declaration order (bases first) */
	VL_ARRAY,	/* elements: the kids; of a multi-dimensional array, its rows */
	VL_PACKED,	/* count elements of a number or pointer type in one kernel array
			 * field (T[N]); no kids */
	VL_SLICE,	/* a Go slice, Rust Vec/slice, std::vector: length, capacity and the
			 * first count elements: the kids, or, when @packed, one kernel array */
};

struct vl_node {
	enum vl_kind kind;
	const char *name;	/* a member's name (borrowed from DWARF); NULL: an element or an
				 * anonymous member */
	Dwarf_Die member;	/* a member: its DW_TAG_member or DW_TAG_inheritance */
	bool is_member;
	bool is_base;		/* a C++ base class, or a Go embedded struct */
	long index;		/* an element: its index in its array */
	Dwarf_Die type;		/* the node's type (of an element of a row: the array's type) */
	unsigned int dim;	/* VL_ARRAY, VL_PACKED: dimensions indexed already */
	int64_t count;		/* VL_ARRAY, VL_PACKED: elements in the type (shown: nr_kids or
				 * @fetched); VL_SLICE: elements fetched */
	int64_t fetched;	/* VL_PACKED, packed VL_SLICE: elements read */
	bool packed;		/* VL_SLICE: the elements are numbers read as one array */
	Dwarf_Die elem;		/* VL_PACKED, VL_SLICE: the element type */
	int64_t elem_size;
	bool deref;		/* a member that is a pointer, shown with what it points to
				 * (Go, one level, as delve): @type is the pointee's, @ptr_type
				 * the pointer's */
	Dwarf_Die ptr_type;
	bool more;		/* members or elements were left out: the budget ran out */
	struct vl_node *kids;
	size_t nr_kids;
};

/* What a layout may take. */
struct vl_budget {
	int64_t bytes;		/* record bytes for the whole value (--value-size) */
	int fields;		/* kernel fields it may add */
	unsigned int string_size;	/* bytes of each string with a length inside it */
	int max_array;		/* elements of one kernel array field (64) */
	int max_elems;		/* elements of one array or slice shown at most */
	bool follow;		/* the top level's pointers to structs are followed (Go) */
};

/**
 * vlayout_whole() - whether a value of @type (the @dim dimensions of an array indexed
 * already) is shown whole: a struct, class or union that is not one of the values the
 * resolver shows as one (a string with a length, a Rust enum, a Go interface, a smart
 * pointer), an array that is not C text, a slice or vector
 */
bool vlayout_whole(Dwarf_Die *type, unsigned int dim);

/**
 * vlayout_build() - the layout of a whole value of @type, cut to @b
 * @type: the value's type (vlayout_whole() is true for it)
 * @dim: dimensions of an array type indexed already
 * @b: the budget; b->bytes and b->fields are what is left once it is laid out
 * Return: the root (kind VL_STRUCT, VL_ARRAY, VL_PACKED or VL_SLICE) for vlayout_free().
 */
struct vl_node *vlayout_build(Dwarf_Die *type, unsigned int dim, struct vl_budget *b);

/**
 * vlayout_free() - free a layout from vlayout_build(); accepts NULL
 */
void vlayout_free(struct vl_node *n);

/**
 * vlayout_go_pointer() - whether Go type @type is a pointer the language spells "*T" (followed
 * as delve does), not a map or a channel, which the compiler also makes pointers (to the
 * runtime's hmap and hchan)
 */
bool vlayout_go_pointer(Dwarf_Die *type);

/**
 * vlayout_packable() - whether elements of type @elem are read as one kernel array field
 * (numbers, enums, bools and pointers of 1 to 8 bytes; not C text, nor floats' raw bits
 * other than 4 or 8 bytes)
 * @esize: filled with the element's size
 */
bool vlayout_packable(Dwarf_Die *elem, int64_t *esize);

#endif
