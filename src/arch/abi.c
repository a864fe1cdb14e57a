// SPDX-License-Identifier: GPL-2.0-or-later
/* abi.c - the calling conventions of the current machine (arch_current()->abi) */
#define LOG_DOMAIN "abi"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch/abi.h"
#include "arch/arch.h"

/*
 * A machine whose table has no abi_ops yet (a port under way) answers as a function whose
 * values the ABI does not place: the resolver then reads the DWARF, and a return value is
 * refused with the reason.
 */

int abi_go_results(Dwarf_Die *func, struct abi_value **res, size_t *nr)
{
	const struct abi_ops *abi = arch_current()->abi;

	if (!abi) {
		*res = NULL;
		*nr = 0;
		return -ENOENT;
	}
	return abi->go_results(func, res, nr);
}

bool abi_return(Dwarf_Die *func, const struct lang_ops *lang, Dwarf_Die *type, struct loc *out)
{
	const struct abi_ops *abi = arch_current()->abi;
	struct loc_piece p = { .kind = LOC_BAD, .reg = -1 };
	char why[80];

	if (abi)
		return abi->c_return(func, lang, type, out);
	memset(out, 0, sizeof(*out));
	snprintf(why, sizeof(why), "is where the %s ABI returns it, which upfront does not know",
		 arch_current()->name);
	p.why = why;
	loc_add_piece(out, &p);
	return lang_type_of(func, type);
}

int abi_entry_params(Dwarf_Die *func, const struct lang_ops *lang, struct abi_value **out,
		     size_t *nr, const char **why)
{
	const struct abi_ops *abi = arch_current()->abi;

	if (abi)
		return abi->entry_params(func, lang, out, nr, why);
	*out = NULL;
	*nr = 0;
	*why = "no ABI rules for this machine";
	return -ENOTSUP;
}
