// SPDX-License-Identifier: GPL-2.0-or-later
/* lang-go.c - Go rules: strings, slices, interfaces, type names as Go spells them */
#define LOG_DOMAIN "lang-go"
#include <dwarf.h>
#include <string.h>

#include "lang.h"

#define DW_AT_go_kind	0x2900	/* the type's reflect.Kind */
#define GO_KIND_SLICE	23
#define GO_KIND_STRING	24

/* The reflect.Kind the Go linker gives type @type (a named string type has String), or 0. */
static int go_kind(Dwarf_Die *type)
{
	Dwarf_Attribute attr;
	Dwarf_Word k;

	if (!dwarf_attr(type, DW_AT_go_kind, &attr) || dwarf_formudata(&attr, &k))
		return 0;
	return (int)k;
}

/* "string", or a named string type ("type errorString string"): { str, len } */
static bool go_string_layout(Dwarf_Die *type, const char *name, struct lang_layout *l)
{
	if (!name || (strcmp(name, "string") && go_kind(type) != GO_KIND_STRING))
		return false;
	*l = (struct lang_layout){ .ptr = "str", .len = "len" };
	return true;
}

/* "[]T", or a named slice type ("type IDs []int"): { array, len, cap } */
static bool go_slice_layout(Dwarf_Die *type, const char *name, struct lang_layout *l)
{
	if (!name || (strncmp(name, "[]", 2) && go_kind(type) != GO_KIND_SLICE))
		return false;
	*l = (struct lang_layout){ .ptr = "array", .len = "len", .cap = "cap" };
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

bool lang_go_is_result(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	bool flag = false;

	return dwarf_attr_integrate(die, DW_AT_variable_parameter, &attr) &&
	       dwarf_formflag(&attr, &flag) == 0 && flag;
}

const char *lang_go_heap_name(const char *dwarf_name)
{
	if (!dwarf_name || dwarf_name[0] != '&' || !dwarf_name[1])
		return NULL;
	return dwarf_name + 1;
}

const struct lang_ops lang_go = {
	.name		= "Go",
	.null_name	= "nil",
	.string_layout	= go_string_layout,
	.slice_layout	= go_slice_layout,
	.iface_word	= go_iface_word,
	/* the Go linker names every type as Go spells it ("*dns.Msg", "[]main.Item") */
	.type_name	= lang_named_type_name,
};
