// SPDX-License-Identifier: GPL-2.0-or-later
/* lang-c.c - C rules: NUL-terminated char strings, "struct foo *" type names */
#define LOG_DOMAIN "lang-c"

#include "lang.h"

static void c_type_name(Dwarf_Die *type, struct strbuf *out)
{
	lang_c_type_name(type, false, out);
}

const struct lang_ops lang_c = {
	.name			= "C",
	.type_name		= c_type_name,
	.char_ptr_is_string	= true,
	.null_name		= "NULL",
};
