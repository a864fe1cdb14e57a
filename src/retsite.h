/* SPDX-License-Identifier: GPL-2.0-or-later */
/* retsite.h - return instructions of a function, by disassembly (capstone) */
#ifndef UPF_RETSITE_H
#define UPF_RETSITE_H

#include <stdint.h>

#include "debuginfo.h"

/**
 * retsite_find() - virtual addresses of every return instruction in [@start, @end)
 * @addrs: array owned by the caller (free())
 * Return: 0 with @nr >= 1, or a negative errno with @d filled.
 */
int retsite_find(struct debuginfo *dbg, uint64_t start, uint64_t end, uint64_t **addrs,
		 size_t *nr, struct diag *d);

#endif
