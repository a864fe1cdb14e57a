// SPDX-License-Identifier: GPL-2.0-or-later
/* lang-cxx.c - C++ rules: std::string (libstdc++, libc++), libstdc++'s std::vector, smart
 * pointers, qualified type names */
#define LOG_DOMAIN "lang-cxx"
#include <dwarf.h>
#include <string.h>

#include "lang.h"

static bool starts(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

/* libstdc++'s new ABI: _M_dataplus._M_p is the data, _M_string_length the length */
static bool cxx_string_layout(Dwarf_Die *type, const char *name, struct lang_layout *l)
{
	Dwarf_Die m;
	int64_t off;

	if (!starts(name, "basic_string<char,") && !starts(name, "basic_string<char8_t,"))
		return false;
	if (!lang_find_member(type, "_M_string_length", &m, &off))
		return false;
	*l = (struct lang_layout){ .ptr = "_M_dataplus._M_p", .len = "_M_string_length" };
	return true;
}

/* The type of the member at dotted @path below @type, and its offset from @type's start. */
static bool member_path(Dwarf_Die *type, const char *path, Dwarf_Die *mtype, int64_t *off)
{
	char buf[128], *name, *save = NULL;
	Dwarf_Die t = *type, m;
	int64_t at = 0, o;

	if (strlen(path) >= sizeof(buf))
		return false;
	strcpy(buf, path);
	for (name = strtok_r(buf, ".", &save); name; name = strtok_r(NULL, ".", &save)) {
		if (!lang_find_member(&t, name, &m, &o) || !lang_type_of(&m, &t))
			return false;
		at += o;
	}
	*mtype = t;
	*off = at;
	return true;
}

/*
 * libc++'s std::string (std::__1::basic_string<char, ...>): __r_'s __rep is a union of
 * __s (short: the inline __data_) and __l (long: __data_ and __size_). In the little-endian
 * layout the low bit of the first byte says long (libc++ 14 keeps a short size << 1 in the
 * unsigned char __size_; 15+ names the bits __is_long_ and __size_:7; the bits are the same),
 * and __s.__data_ follows at +1. The alternate layout (data first, the flag in the last byte)
 * is not this one: no match.
 */
#define LIBCXX_REP "__r_.__value_."

static bool cxx_sso_layout(Dwarf_Die *type, const char *name, struct lang_sso *l)
{
	Dwarf_Die t;
	int64_t s_off, d_off, ld_off, len_off;

	if (!starts(name, "basic_string<char,") ||
	    !member_path(type, LIBCXX_REP "__s", &t, &s_off) ||
	    !member_path(type, LIBCXX_REP "__s.__data_", &t, &d_off) ||
	    lang_strip(&t, &t) != DW_TAG_array_type || d_off != s_off + 1 ||
	    !member_path(type, LIBCXX_REP "__l.__data_", &t, &ld_off) ||
	    lang_strip(&t, &t) != DW_TAG_pointer_type ||
	    !member_path(type, LIBCXX_REP "__l.__size_", &t, &len_off))
		return false;
	*l = (struct lang_sso){ .flag = LIBCXX_REP "__s", .flag_bit = 0, .len_bit = 1,
				.short_data = LIBCXX_REP "__s.__data_",
				.long_data = LIBCXX_REP "__l.__data_",
				.long_len = LIBCXX_REP "__l.__size_" };
	return true;
}

static bool cxx_slice_layout(Dwarf_Die *type, const char *name, struct lang_layout *l)
{
	Dwarf_Die m;
	int64_t off;

	if (!starts(name, "vector<") || !lang_find_member(type, "_M_impl", &m, &off))
		return false;
	/* _M_start's own type is the element pointer; no length member (finish - start) */
	*l = (struct lang_layout){ .ptr = "_M_impl._M_start", .end = "_M_impl._M_finish",
				   .cap = "_M_impl._M_end_of_storage" };
	return true;
}

/* std::unique_ptr, std::shared_ptr and std::weak_ptr of libstdc++ (std::) and libc++
 * (std::__1::): their template parameter _Tp is what the held pointer points to */
static bool cxx_smart_ptr(Dwarf_Die *type, const char *name, struct lang_smart *l)
{
	struct strbuf q = STRBUF_INIT;
	bool std;

	if (!starts(name, "unique_ptr<") && !starts(name, "shared_ptr<") &&
	    !starts(name, "weak_ptr<"))
		return false;
	strbuf_init(&q);
	lang_c_type_name(type, true, &q);
	std = starts(q.buf, "std::");
	strbuf_release(&q);
	if (!std)
		return false;
	*l = (struct lang_smart){ .param = "_Tp" };
	return true;
}

static void cxx_type_name(Dwarf_Die *type, struct strbuf *out)
{
	lang_c_type_name(type, true, out);
}

const struct lang_ops lang_cxx = {
	.name			= "C++",
	.string_layout		= cxx_string_layout,
	.sso_layout		= cxx_sso_layout,	/* libc++'s std::string */
	.slice_layout		= cxx_slice_layout,
	.smart_ptr		= cxx_smart_ptr,	/* std::unique_ptr<T> -> T * */
	.type_name		= cxx_type_name,
	.char_ptr_is_string	= true,
	.null_name		= "nullptr",
};
