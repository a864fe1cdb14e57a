/* SPDX-License-Identifier: GPL-2.0-or-later */
/* place.h - a probe's PLACE -> the addresses to probe, each with its function and scope */
#ifndef UPF_PLACE_H
#define UPF_PLACE_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

#include "debuginfo.h"
#include "probe.h"

/* One address to probe. */
struct probe_site {
	uint64_t vaddr;		/* probe address (virtual, in the binary) */
	uint64_t offset;	/* file offset for the kernel */
	char *func;		/* function name as the language spells it, or NULL (0xADDR) */
	bool has_die;		/* die/cu valid */
	Dwarf_Die die;		/* the function (subprogram or inlined_subroutine) holding vaddr */
	Dwarf_Die cu;
	int lang;		/* DW_LANG_* */
	bool is_return;		/* a uretprobe (C, C++, Rust %return) */
	bool at_ret_insn;	/* a p: probe on a return instruction (Go %return) */
	bool after_prologue;	/* vaddr was moved past the prologue */
	bool ret_at_sp;		/* the caller's return address is at 0(%sp), no frame pushed yet
				 * (the entry, or past Go's stack check) */
	bool has_frame_func;	/* frame_func valid */
	Dwarf_Die frame_func;	/* the out-of-line subprogram whose code holds vaddr: for an
				 * inlined copy its caller, which has DW_AT_frame_base
				 * (dwarf_getscopes() gives the abstract origin's instead) */
};

/**
 * place_resolve() - every address @pl names
 * @pl: FUNC (entry, past the prologue when the parameters' locations need it), FUNC+OFF,
 *      0xADDR; FUNC:RELLINE, SRCFILE:LINE and %return as far as implemented
 * @sites: array owned by the caller, freed with probe_sites_free()
 * Return: 0 with @nr >= 1, or a negative errno with @d filled.
 */
int place_resolve(const struct probe_place *pl, struct debuginfo *dbg, struct probe_site **sites,
		  size_t *nr, struct diag *d);
void probe_sites_free(struct probe_site *sites, size_t nr);

#endif
