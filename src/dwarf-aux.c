// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf-aux.c - DIE helpers every stage shares: a function's name, origin and code range */
#include <dwarf.h>

#define LOG_DOMAIN "dwarf-aux"
#include "demangle.h"
#include "dwarf-aux.h"
#include "log.h"
#include "util.h"

const char *die_string(Dwarf_Die *die, int at)
{
	Dwarf_Attribute mem;

	return dwarf_formstring(dwarf_attr_integrate(die, at, &mem));
}

const char *die_linkage_name(Dwarf_Die *die)
{
	return die_string(die, DW_AT_linkage_name) ?: die_string(die, DW_AT_MIPS_linkage_name);
}

Dwarf_Die *die_origin(Dwarf_Die *die, Dwarf_Die *mem)
{
	Dwarf_Attribute am;

	if (dwarf_attr(die, DW_AT_abstract_origin, &am) && dwarf_formref_die(&am, mem))
		return mem;
	return NULL;
}

char *func_name_make(const char *linkage, const char *name, const char *scope)
{
	if (linkage && is_mangled(linkage))
		return demangle(linkage, false);
	if (!name)
		return NULL;
	return scope ? xasprintf("%s::%s", scope, name) : xstrdup(name);
}

char *die_func_name(Dwarf_Die *die)
{
	Dwarf_Die mem, *src = die;

	if (dwarf_tag(die) == DW_TAG_inlined_subroutine && die_origin(die, &mem))
		src = &mem;
	return func_name_make(die_linkage_name(src), die_string(src, DW_AT_name), NULL);
}

bool die_code_range(Dwarf_Die *die, uint64_t *entry, uint64_t *end)
{
	Dwarf_Addr base, start, stop, pc;
	ptrdiff_t off = 0;
	bool have = false;

	if (dwarf_entrypc(die, &pc) == 0)
		have = true;
	*end = 0;
	while ((off = dwarf_ranges(die, off, &base, &start, &stop)) > 0) {
		if (!have) {
			pc = start;
			have = true;
		}
		if (pc >= start && pc < stop) {
			*end = stop;
			break;
		}
	}
	if (have)
		*entry = pc;
	return have;
}
