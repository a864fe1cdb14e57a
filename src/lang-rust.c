// SPDX-License-Identifier: GPL-2.0-or-later
/* lang-rust.c - Rust rules: &str, String, slices and Vec<T> found by member names */
#define LOG_DOMAIN "lang-rust"
#include <dwarf.h>
#include <string.h>

#include "lang.h"

static bool starts(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

static bool rust_string_layout(Dwarf_Die *type, const char *name, struct lang_layout *l)
{
	if (!name)
		return false;
	if (!strcmp(name, "&str") || !strcmp(name, "&mut str")) {
		*l = (struct lang_layout){ .ptr = "data_ptr", .len = "length" };
		return true;
	}
	/* String { vec: Vec<u8> { buf: RawVec { .. ptr .. }, len } }: the inner layout of
	 * RawVec changes between rustc versions, so take the first pointer below it */
	if (!strcmp(name, "String") || !strcmp(name, "alloc::string::String")) {
		*l = (struct lang_layout){ .ptr = "vec.buf", .ptr_below = true, .len = "vec.len" };
		return true;
	}
	return false;
}

static bool rust_slice_layout(Dwarf_Die *type, const char *name, struct lang_layout *l)
{
	(void)type;
	if (starts(name, "&[") || starts(name, "&mut [")) {
		*l = (struct lang_layout){ .ptr = "data_ptr", .len = "length" };
		return true;
	}
	if (starts(name, "Vec<") || starts(name, "alloc::vec::Vec<")) {
		/* the capacity: RawVecInner's Cap(usize) since rustc 1.80, RawVec's cap: usize
		 * before (1.63, Debian 12's) */
		*l = (struct lang_layout){ .ptr = "buf", .ptr_below = true, .len = "len",
					   .elem_param = "T", .cap = "buf.inner.cap.__0|buf.cap" };
		return true;
	}
	return false;
}

/* Rc<T> and Arc<T> point to a block of counts with the value inside ("value", "data");
 * Box<T> needs no rule: rustc describes it as a pointer type */
static bool rust_smart_ptr(Dwarf_Die *type, const char *name, struct lang_smart *l)
{
	(void)type;
	if (starts(name, "Rc<") || starts(name, "alloc::rc::Rc<")) {
		*l = (struct lang_smart){ .inner = "value" };
		return true;
	}
	if (starts(name, "Arc<") || starts(name, "alloc::sync::Arc<")) {
		*l = (struct lang_smart){ .inner = "data" };
		return true;
	}
	return false;
}

const struct lang_ops lang_rust = {
	.name		= "Rust",
	.null_name	= "null",
	.string_layout	= rust_string_layout,
	.slice_layout	= rust_slice_layout,
	.smart_ptr	= rust_smart_ptr,	/* Rc<T>, Arc<T> -> T */
	/* rustc names every type the way Rust spells it ("&str", "*const u8", "Vec<i32, ...>") */
	.type_name	= lang_named_type_name,
};
