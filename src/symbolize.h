/* SPDX-License-Identifier: GPL-2.0-or-later */
/* symbolize.h - addresses in a binary -> "symbol+0xoff", cached for the event stream */
#ifndef UPF_SYMBOLIZE_H
#define UPF_SYMBOLIZE_H

#include <stdint.h>

struct debuginfo;
struct symbolizer;

/* symbolizer_new() - a cache over debuginfo_symbolize() for @dbg (borrowed; may be NULL) */
struct symbolizer *symbolizer_new(struct debuginfo *dbg);

/**
 * symbolizer_lookup() - "symbol+0xoff" (demangled) for virtual address @vaddr of the binary
 * Return: a string owned by the symbolizer, valid until the next lookup, or NULL when no
 * symbol covers @vaddr or there is no binary.
 */
const char *symbolizer_lookup(struct symbolizer *s, uint64_t vaddr);

void symbolizer_free(struct symbolizer *s);

#endif
