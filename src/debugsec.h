/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * debugsec.h - a binary's compressed DWARF sections inflated before libdw opens them: with
 * libdeflate, on every core, and only the sections the mode reads
 */
#ifndef UPF_DEBUGSEC_H
#define UPF_DEBUGSEC_H

#include <gelf.h>

/* what a mode reads of the DWARF */
enum debugsec_need {
	DEBUGSEC_ALL,		/* probes, variables, lines, unwinding: every section */
	DEBUGSEC_NAMES,		/* -F: the DIEs, their names and code ranges; no lines,
				 * locations or CFI */
};

struct debugsec;

/**
 * debugsec_inflate() - inflate @elf's SHF_COMPRESSED (zlib) DWARF sections in place
 * @elf: the file libdw will read (libdw then finds the sections plain and does not inflate)
 * @need: DEBUGSEC_NAMES hides the other DWARF sections from libdw (SHT_NOBITS in libelf's
 *	copy of the section headers), so nothing inflates them; the file is not written
 *
 * A section whose stream libdeflate refuses is left as it was: libdw tries it with zlib and
 * ignores it when that fails too, as before.
 * Return: the buffers, to free with debugsec_free() after @elf's last user (dwfl_end()), or
 * NULL when nothing was inflated.
 */
struct debugsec *debugsec_inflate(Elf *elf, enum debugsec_need need);

/**
 * debugsec_free() - free the inflated sections; @s may be NULL
 * @s: from debugsec_inflate(), once nothing reads its ELF any more
 */
void debugsec_free(struct debugsec *s);

#endif
