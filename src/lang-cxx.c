// SPDX-License-Identifier: GPL-2.0-or-later
/* lang-cxx.c - C++ rules: libstdc++ std::string and std::vector, smart pointers, qualified type
 * names */
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

static bool cxx_slice_layout(Dwarf_Die *type, const char *name, struct lang_layout *l)
{
	Dwarf_Die m;
	int64_t off;

	if (!starts(name, "vector<") || !lang_find_member(type, "_M_impl", &m, &off))
		return false;
	/* _M_start's own type is the element pointer; no length member (finish - start) */
	*l = (struct lang_layout){ .ptr = "_M_impl._M_start", .end = "_M_impl._M_finish" };
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
	.slice_layout		= cxx_slice_layout,
	.smart_ptr		= cxx_smart_ptr,	/* std::unique_ptr<T> -> T * */
	.type_name		= cxx_type_name,
	.char_ptr_is_string	= true,
};
