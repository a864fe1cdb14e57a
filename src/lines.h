/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lines.h - source lines <-> addresses from the DWARF line table; -L listings */
#ifndef UPF_LINES_H
#define UPF_LINES_H

#include <elfutils/libdw.h>
#include <stdint.h>

#include "debuginfo.h"
#include "probe.h"

/* One address where a source line has code. */
struct line_addr {
	uint64_t vaddr;
	char *file;		/* the source path as DWARF names it */
	int line;
};

/**
 * lines_for_func() - addresses of FUNC:RELLINE (@rel lines after the function's first line,
 * DW_AT_decl_line) inside @func_die's ranges; one per place the line has code
 * Return: 0 with @nr >= 1, or -ENOENT with @d naming the nearest lines that have code.
 */
int lines_for_func(struct debuginfo *dbg, Dwarf_Die *func_die, long rel, struct line_addr **out,
		   size_t *nr, struct diag *d);

/**
 * lines_for_file() - addresses of SRCFILE:LINE, @file matched by its tail ("server.go")
 * over every CU; one per place (loops, inlined copies, instantiations)
 */
int lines_for_file(struct debuginfo *dbg, const char *file, long line, struct line_addr **out,
		   size_t *nr, struct diag *d);
void line_addrs_free(struct line_addr *la, size_t nr);

/**
 * lines_show() - -L: source of a function or SRCFILE:START-END with probe-able lines marked
 * as perf probe -L does; says where it looked when the source file is missing
 */
int lines_show(struct debuginfo *dbg, const char *place, struct strbuf *out, struct diag *d);

#endif
