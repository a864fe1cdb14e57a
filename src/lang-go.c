// SPDX-License-Identifier: GPL-2.0-or-later
/* lang-go.c - Go rules: strings, slices, interfaces, type names as Go spells them */
#define LOG_DOMAIN "lang-go"
#include <dwarf.h>
#include <string.h>

#include "lang.h"

#define DW_AT_go_kind	0x2900	/* the type's reflect.Kind */
#define DW_AT_go_key	0x2901	/* a map's key type */
#define DW_AT_go_elem	0x2902	/* a map's, slice's, channel's element type */
#define GO_KIND_MAP	21
#define GO_KIND_SLICE	23
#define GO_KIND_STRING	24
#define GO_MIN_TOPHASH	5	/* runtime/map.go: tophash values below are empty markers */

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

/* The type attribute @at of @die (a map's key or element type) */
static bool go_type_attr(Dwarf_Die *die, int at, Dwarf_Die *out)
{
	Dwarf_Attribute attr;

	return dwarf_attr(die, at, &attr) && dwarf_formref_die(&attr, out);
}

/* Member @name of struct @t: its offset, its type (when @type is not NULL) and size */
static bool go_member(Dwarf_Die *t, const char *name, int64_t *off, Dwarf_Die *type,
		      unsigned int *size)
{
	Dwarf_Die m, mt;

	if (!lang_find_member(t, name, &m, off) || !lang_type_of(&m, &mt))
		return false;
	if (type)
		*type = mt;
	if (size)
		*size = (unsigned int)lang_type_size(&mt);
	return true;
}

/* What pointer type @t points to, typedefs stripped, @levels times */
static bool go_deref(Dwarf_Die *t, int levels, Dwarf_Die *out)
{
	Dwarf_Die cur = *t;

	for (int i = 0; i < levels; i++)
		if (lang_strip(&cur, &cur) != DW_TAG_pointer_type || !lang_type_of(&cur, &cur))
			return false;
	return lang_strip(&cur, out) == DW_TAG_structure_type;
}

/* Up to Go 1.23: hash<K,V> { count, flags, B, ..., buckets, oldbuckets, ... } and
 * bucket<K,V> { tophash [8]uint8; keys [8]K; values [8]V; overflow } */
static void go_map_buckets(struct lang_go_map *m)
{
	Dwarf_Die bt, b, kt;
	unsigned int sz;

	if (!go_member(&m->hdr, "buckets", &m->table_off, &bt, NULL) || !go_deref(&bt, 1, &b) ||
	    !go_member(&m->hdr, "B", &m->small_off, NULL, &m->small_size) ||
	    !go_member(&b, "tophash", &m->ctrl_off, NULL, &sz) || sz < 8 ||
	    !go_member(&b, "keys", &m->key_off, &kt, NULL) ||
	    !go_member(&b, "values", &m->elem_off, NULL, NULL))
		return;
	/* keys or values over 128 bytes are kept behind pointers: [8]*K */
	if (lang_type_size(&kt) != 8 * lang_type_size(&m->key))
		return;
	m->key_stride = lang_type_size(&m->key);
	m->elem_stride = lang_type_size(&m->elem);
	if (!go_member(&m->hdr, "oldbuckets", &m->old_off, NULL, NULL))
		m->old_off = -1;
	if (!go_member(&b, "overflow", &m->over_off, NULL, NULL))
		m->over_off = -1;
	if (m->key_stride < 0 || m->elem_stride < 0 ||
	    m->elem_off != m->key_off + 8 * m->key_stride)
		return;
	m->slots = 8;
	m->used_min = GO_MIN_TOPHASH;
	m->has_table = true;
}

/* Go 1.24+: map<K,V> { used, seed, dirPtr (**table<K,V>), dirLen, ... }; a small map's
 * dirPtr points to a group { ctrl uint64; slots [8]struct { key K; elem V } } instead, the
 * type of table<K,V>.groups.data */
static void go_map_groups(struct lang_go_map *m)
{
	Dwarf_Die dt, tab, gr, gt, g, st, slot;
	int64_t goff, doff, soff, koff, eoff;
	unsigned int csz;
	int64_t counts[1];

	if (!go_member(&m->hdr, "dirPtr", &m->table_off, &dt, NULL) ||
	    !go_member(&m->hdr, "dirLen", &m->small_off, NULL, &m->small_size) ||
	    !go_deref(&dt, 2, &tab) || !go_member(&tab, "groups", &goff, &gr, NULL) ||
	    !go_member(&gr, "data", &doff, &gt, NULL) || !go_deref(&gt, 1, &g) ||
	    !go_member(&g, "ctrl", &m->ctrl_off, NULL, &csz) || csz != 8 ||
	    !go_member(&g, "slots", &soff, &st, NULL) ||
	    lang_strip(&st, &st) != DW_TAG_array_type ||
	    lang_array_dims(&st, counts, 1) != 1 || counts[0] != 8 ||
	    !lang_type_of(&st, &slot) || !go_member(&slot, "key", &koff, NULL, NULL) ||
	    !go_member(&slot, "elem", &eoff, NULL, NULL))
		return;
	m->slots = 8;
	m->key_off = soff + koff;
	m->elem_off = soff + eoff;
	m->key_stride = m->elem_stride = lang_type_size(&slot);
	m->old_off = m->over_off = -1;
	m->used_min = 0;
	m->has_table = m->key_stride > 0;
}

bool lang_go_map(Dwarf_Die *type, struct lang_go_map *m)
{
	Dwarf_Die t = *type;
	const char *name;

	memset(m, 0, sizeof(*m));
	/* the typedef "map[K]V" (or a named map type) carries the kind, key and element */
	while (dwarf_tag(&t) == DW_TAG_typedef && go_kind(&t) != GO_KIND_MAP)
		if (!lang_type_of(&t, &t))
			return false;
	if (go_kind(&t) != GO_KIND_MAP || !go_type_attr(&t, DW_AT_go_key, &m->key) ||
	    !go_type_attr(&t, DW_AT_go_elem, &m->elem) || !go_deref(&t, 1, &m->hdr))
		return false;
	name = dwarf_diename(&m->hdr);
	if (name && !strncmp(name, "hash<", 5)) {
		if (!go_member(&m->hdr, "count", &m->count_off, &m->count_type, &m->count_size))
			return false;
		go_map_buckets(m);
		return true;
	}
	if (name && !strncmp(name, "map<", 4)) {
		m->swiss = true;
		if (!go_member(&m->hdr, "used", &m->count_off, &m->count_type, &m->count_size))
			return false;
		go_map_groups(m);
		return true;
	}
	return false;
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
