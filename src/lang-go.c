// SPDX-License-Identifier: GPL-2.0-or-later
/* lang-go.c - Go rules: strings, slices, interfaces, type names as Go spells them */
#define LOG_DOMAIN "lang-go"
#include <dwarf.h>
#include <string.h>

#include "lang.h"

static bool go_string_layout(Dwarf_Die *type, const char *name, struct lang_layout *l)
{
	(void)type;
	if (!name || strcmp(name, "string"))
		return false;
	*l = (struct lang_layout){ .ptr = "str", .len = "len" };
	return true;
}

static bool go_slice_layout(Dwarf_Die *type, const char *name, struct lang_layout *l)
{
	(void)type;
	if (!name || strncmp(name, "[]", 2))
		return false;
	*l = (struct lang_layout){ .ptr = "array", .len = "len" };
	return true;
}

/* A named interface is a typedef of runtime.iface { tab, data }; interface{} of
 * runtime.eface { _type, data }. */
static const char *go_iface_word(Dwarf_Die *type, const char *name)
{
	(void)type;
	if (!name)
		return NULL;
	if (!strcmp(name, "runtime.iface"))
		return "tab";
	if (!strcmp(name, "runtime.eface"))
		return "_type";
	return NULL;
}

/* The Go linker names every type as Go spells it ("*dns.Msg", "[]main.Item"). */
static void go_type_name(Dwarf_Die *type, struct strbuf *out)
{
	const char *name = dwarf_diename(type);

	if (name)
		strbuf_addstr(out, name);
	else
		lang_c_type_name(type, false, out);
}

const struct lang_ops lang_go = {
	.name		= "Go",
	.string_layout	= go_string_layout,
	.slice_layout	= go_slice_layout,
	.iface_word	= go_iface_word,
	.type_name	= go_type_name,
};
