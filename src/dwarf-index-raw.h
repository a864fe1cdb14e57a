/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dwarf-index-raw.h - the function index read from .debug_info's bytes, without libdw's walk */
#ifndef UPF_DWARF_INDEX_RAW_H
#define UPF_DWARF_INDEX_RAW_H

#include <stdbool.h>

#include "dwarf-index.h"

/**
 * dw_index_read_raw() - fill empty @idx from the raw bytes of its DWARF's .debug_info, with
 * the entries dw_index_walk() would make, in the same order
 *
 * Walking every DIE through libdw costs an abbrev lookup under a lock per DIE and per
 * attribute; this reads only what the index needs and jumps over subtrees with DW_AT_sibling.
 * The bytes are read as hostile input: every read is bounded by its unit and section.
 * Return: true, or false with @idx left empty when the DWARF holds something only libdw
 * reads (split or skeleton units, DWARF 1, unknown forms, compressed or missing sections,
 * malformed data): then the caller runs dw_index_walk().
 */
bool dw_index_read_raw(struct dw_index *idx);

#endif
