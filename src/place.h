/* SPDX-License-Identifier: GPL-2.0-or-later */
/* place.h - a probe's PLACE -> the addresses to probe, each with its function and scope */
#ifndef UPF_PLACE_H
#define UPF_PLACE_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

#include "debuginfo.h"
#include "probe.h"
#include "arch/insn.h"

struct trace_probe;

/*
 * Another instruction for the same probe point, cheaper for the kernel to hit (emulated
 * instead of single-stepped): place.c finds them, resolve.c resolves the arguments there and
 * keeps the first one where place_alt_agrees() says the values read are the same.
 */
struct site_alt {
	uint64_t vaddr;
	uint64_t offset;
	enum probe_cost cost;
	char *insn;		/* "push %rbp", for -v */
	bool entry_abi;		/* the parameters are read where the ABI passed them: no
				 * instruction before @vaddr has moved them (-O0 code stores them
				 * into the stack slots its DWARF names only in the prologue) */
	bool ret_at_sp;		/* nothing before @vaddr has moved %sp */
	uint64_t clobbered;	/* registers written between the point's own address and
				 * @vaddr (insn_info.regs_written bits) */
	bool go_split;		/* the jbe of Go's stack check: needs place_go_split_filter() */
};

/*
 * A Go entry on its stack check's jbe (emulated, where the instruction past the check is
 * single-stepped) is hit twice when the stack must grow: first with the jump taken (CF or
 * ZF set), then again once runtime.morestack has grown the stack and run the function from
 * its entry. Its event fetches the flags into this hidden field, and the filter drops the
 * taken hit in the kernel (the other points of the event fetch 0 there); -D prints the
 * filter as a comment, perf record and trace-cmd take it with --filter / -f.
 */
#define PLACE_FLAGS_FIELD	"upft_fl"

/**
 * place_go_split_filter() - the filter that drops the taken hits: "!(upft_fl & 0x41)" on x86-64
 * (jbe is taken on CF or ZF), "!(upft_fl & 0x40000000) && (upft_fl & 0x20000000)" on arm64
 * (b.ls is taken on Z or not C): arch_ops.go_split_flags and go_split_clear
 * Return: a string to free().
 */
char *place_go_split_filter(void);

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
	bool entry_abi;		/* parameters from the ABI (a site_alt taken) */
	bool go_split;		/* on Go's stack check's jbe (a site_alt taken): filtered */
	enum probe_cost cost;	/* of the instruction at vaddr */
	char *insn;		/* its text for -v, or NULL when it could not be decoded */
	struct site_alt *alts;	/* cheaper addresses for this point, best first */
	size_t nr_alts;
	uint64_t copy_die;	/* a float parameter read where the code copied it out of an
				 * xmm register (floatcopy_param()): its DIE offset, or 0 */
	struct insn_float_copy copy;	/* that copy: the register or stack slot it is in */
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
 * @skipped: when not NULL, gets "NAME (why)" for each match of a FUNC glob that cannot be
 *           probed and was skipped (code not in the file: Go's runtime.etext; no return
 *           instruction for %return; an offset past its end)
 * Return: 0 with @nr >= 1, or a negative errno with @d filled (for a glob: when every match
 * was skipped, the first one's reason).
 */
int place_resolve(const struct probe_place *pl, struct debuginfo *dbg, struct probe_site **sites,
		  size_t *nr, struct strlist *skipped, struct diag *d);
void probe_sites_free(struct probe_site *sites, size_t nr);

/**
 * place_alt_agrees() - whether @alt_tp, resolved at @alt, reads the values @tp reads at the
 * site's own address: the same arguments and fields (names and types), and no fetch names
 * a register that an instruction between the two addresses writes
 */
bool place_alt_agrees(const struct site_alt *alt, const struct trace_probe *tp,
		      const struct trace_probe *alt_tp);

/**
 * place_take_alt() - make @s probe at @alt instead of its own address (vaddr, offset, the
 * instruction, entry_abi, ret_at_sp); @alt is one of @s's
 * @tp: the probe resolved at @alt: gets the PLACE_FLAGS_FIELD when @alt is a Go stack check
 */
void place_take_alt(struct probe_site *s, const struct site_alt *alt, struct trace_probe *tp);

/**
 * place_share_flags_field() - when one of the points @tps of a probe has the
 * PLACE_FLAGS_FIELD, give it to the others as 0 (\0): the points of one event have the same
 * fields, and 0 passes the filter
 */
void place_share_flags_field(struct trace_probe *tps, size_t nr);

/**
 * place_entry_regs() - the registers that hold at @vaddr the values they had at the entry
 * @fstart of the function [@fstart, @fend): every register at the entry; past it, those no
 * instruction writes in the straight code from the entry to @vaddr that no jump enters
 * Return: bit N for DWARF register N (insn_info.regs_written bits), 0 when unknown.
 */
uint64_t place_entry_regs(struct debuginfo *dbg, uint64_t fstart, uint64_t fend, uint64_t vaddr);

/**
 * place_event_filter() - the kernel filter the event of @tp needs so that each call is seen
 * once, combined with @user's (--filter; may be NULL): "(USER) && FILTER"
 * Return: a string to free(), or NULL when neither is needed.
 */
char *place_event_filter(const struct trace_probe *tp, const char *user);


#endif
