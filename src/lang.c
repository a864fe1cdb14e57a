// SPDX-License-Identifier: GPL-2.0-or-later
/* lang.c - which rules a CU follows: its DW_AT_language -> the struct lang_ops of lang-*.c */
#define LOG_DOMAIN "lang"
#include <dwarf.h>

#include "lang.h"

/* Every DW_LANG_* that has rules of its own; any other language (C, assembly, ...) is C. */
static const struct {
	int dw_lang;
	const struct lang_ops *ops;
} langs[] = {
	{ DW_LANG_C_plus_plus,		&lang_cxx },
	{ DW_LANG_C_plus_plus_03,	&lang_cxx },
	{ DW_LANG_C_plus_plus_11,	&lang_cxx },
	{ DW_LANG_C_plus_plus_14,	&lang_cxx },
	{ 0x2a,				&lang_cxx },	/* DW_LANG_C_plus_plus_17 and _20 */
	{ 0x2b,				&lang_cxx },	/* may be missing from older dwarf.h */
	{ DW_LANG_Go,			&lang_go },
	{ DW_LANG_Rust,			&lang_rust },
};

const struct lang_ops *lang_for(int lang)
{
	for (size_t i = 0; i < ARRAY_SIZE(langs); i++)
		if (langs[i].dw_lang == lang)
			return langs[i].ops;
	return &lang_c;
}

bool lang_is_cxx(int lang)
{
	return lang_for(lang) == &lang_cxx;
}

bool lang_nests_names(int lang)
{
	return lang_is_cxx(lang) || lang == DW_LANG_Rust;
}

const struct lang_ops *lang_of_die(Dwarf_Die *die)
{
	Dwarf_Die cu;

	if (!dwarf_diecu(die, &cu, NULL, NULL))
		return &lang_c;
	return lang_for(dwarf_srclang(&cu));
}
