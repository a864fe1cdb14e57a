// SPDX-License-Identifier: GPL-2.0-or-later
/* abi.c - the calling conventions of the current machine (arch_current()->abi) */
#define LOG_DOMAIN "abi"

#include <stdlib.h>

#include "arch/abi.h"
#include "arch/arch.h"

int abi_go_results(Dwarf_Die *func, struct abi_value **res, size_t *nr)
{
	return arch_current()->abi->go_results(func, res, nr);
}

bool abi_return(Dwarf_Die *func, const struct lang_ops *lang, Dwarf_Die *type, struct loc *out)
{
	return arch_current()->abi->c_return(func, lang, type, out);
}

int abi_entry_params(Dwarf_Die *func, const struct lang_ops *lang, struct abi_value **out,
		     size_t *nr, const char **why)
{
	return arch_current()->abi->entry_params(func, lang, out, nr, why);
}

void abi_values_free(struct abi_value *v, size_t nr)
{
	if (!v)
		return;
	for (size_t i = 0; i < nr; i++) {
		free(v[i].name);
		loc_release(&v[i].loc);
	}
	free(v);
}
