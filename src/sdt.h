/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sdt.h - USDT / SystemTap SDT probes: .note.stapsdt, argument specs, sdt_PROVIDER:NAME */
#ifndef UPF_SDT_H
#define UPF_SDT_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "debuginfo.h"
#include "diag.h"
#include "fetcharg.h"
#include "probe.h"
#include "util.h"

enum sdt_arg_kind {
	SDT_ARG_REG,	/* %rax, %ebp, %r12d, %ah */
	SDT_ARG_MEM,	/* DISP(%reg): memory at a register plus a displacement */
	SDT_ARG_IMM,	/* $5: a constant */
	SDT_ARG_RIP,	/* SYM[+-DISP](%rip): memory at a symbol (or at its GOT slot) */
	SDT_ARG_LO12,	/* [xN, #:lo12:SYM]: memory at a register (an adrp of SYM's page) plus
			 * the low 12 bits of SYM's address (arm64) */
	SDT_ARG_BAD,	/* a form uprobes cannot fetch (an index register, an xmm register) */
};

/* One argument of an SDT probe, from its spec in the note ("-4@112(%rsp)"). */
struct sdt_arg {
	char *text;		/* the spec as in the note */
	unsigned int size;	/* bytes: 1, 2, 4 or 8 (8 when the note gives none) */
	bool is_signed;		/* a '-' before the size */
	enum sdt_arg_kind kind;
	const char *reg;	/* REG, MEM: the kernel's name of the 64-bit register ("sp") */
	unsigned int reg_bits;	/* REG: the width the spec names (64 for %rax, 32 for %eax) */
	unsigned int reg_shift;	/* REG: 8 for %ah %bh %ch %dh, else 0 */
	int64_t disp;		/* MEM, RIP: displacement; IMM: the value */
	char *sym;		/* RIP, LO12: the symbol */
	bool got;		/* RIP: "SYM@GOTPCREL": the GOT slot holding SYM's address */
	char *err;		/* BAD: why it cannot be fetched */
};

/**
 * sdt_arg_parse() - parse one argument spec of an SDT note in the current machine's operand
 * syntax (arch_ops.sdt_arg_parse: x86-64's AT&T "8@%rbx", "-4@112(%rsp)", "4@$5",
 * "8@foo+8(%rip)"; AArch64's "8@x0", "-4@[sp, 12]")
 * @a: filled; release with sdt_arg_release(). A form uprobes cannot fetch is kind
 *     SDT_ARG_BAD with @a->err saying why (it is still listed by -V).
 * Return: 0, or -EINVAL when @text is not an argument spec at all (a->err says why).
 */
int sdt_arg_parse(const char *text, struct sdt_arg *a);
void sdt_arg_release(struct sdt_arg *a);

/* sdt_arg_int() - a decimal or 0x number with an optional sign over [s, e) (for parsers) */
bool sdt_arg_int(const char *s, const char *e, int64_t *out);

/**
 * sdt_arg_size_parse() - the "[-]N@" before an operand: @a reset and its text, size and sign
 * set (for each machine's parser)
 * Return: the operand after it, or NULL (@a->err says why).
 */
const char *sdt_arg_size_parse(const char *text, struct sdt_arg *a);

/* sdt_arg_bad() - @a becomes SDT_ARG_BAD with the message; returns 0 */
int sdt_arg_bad(struct sdt_arg *a, const char *fmt, ...) PRINTF(2, 3);

/* One probe in .note.stapsdt, with the addresses adjusted for prelink as perf and bcc do. */
struct sdt_probe {
	char *provider;
	char *name;
	uint64_t pc;		/* virtual address of the probe's nop */
	uint64_t pc_offset;	/* its file offset (what uprobe_events wants) */
	uint64_t sem;		/* virtual address of the semaphore (unsigned short), 0: none */
	uint64_t sem_offset;	/* its file offset (uprobe_events' REF_CTR_OFFSET) */
	char *args_text;	/* the argument specs as in the note, blank separated */
	struct sdt_arg *args;
	size_t nr_args;
};

/**
 * sdt_probes_read() - every probe of @elf's .note.stapsdt, in note order
 * @elf: an executable or shared library
 * @out: array for sdt_probes_free(); NULL with @nr 0 when the binary has none
 * Return: 0, or -EINVAL with @d filled when a note is malformed.
 *
 * The pc and semaphore of a note are link-time addresses; when the binary was prelinked
 * after the notes were written, .stapsdt.base moved and the note's base says where it was:
 * both move by the same amount.
 */
int sdt_probes_read(Elf *elf, struct sdt_probe **out, size_t *nr, struct diag *d);
void sdt_probes_free(struct sdt_probe *p, size_t nr);

/**
 * sdt_arg_fetch() - the kernel fetcharg reading @a at @p (without :TYPE)
 * @elf: the binary, for a symbol of SDT_ARG_RIP
 * @fetch: a new string ("+112(%sp)", "%bx", "\5", "@+0x4b6f0")
 * Return: 0, or -EINVAL with @d naming the argument and why it cannot be read.
 */
int sdt_arg_fetch(Elf *elf, const struct sdt_probe *p, const struct sdt_arg *a, char **fetch,
		  struct diag *d);

/* sdt_arg_type() - the kernel type of @a as its note gives it ("s32", "u64"), static */
const char *sdt_arg_type(const struct sdt_arg *a);

/**
 * sdt_resolve() - kernel probes for a PLACE_SDT spec: one per note that matches
 * @spec: PROVIDER and NAME may be globs; arguments are $argN (:TYPE, :string), raw
 *        fetchargs in which $argN stands for the argument's fetch ("+8($arg1):u32"),
 *        %REG, or $params (every argument); none: every argument, named arg1.. as perf
 * @group: -g, or NULL for "sdt_PROVIDER"
 * @kf: the running kernel's features and limits (ref_ctr_offset for a semaphore)
 * Group "sdt_PROVIDER" (or @group), event NAME, as perf names them; the notes of one
 * probe (inlined at several places) share one event when their fields agree. A probe with
 * a semaphore gets its file offset as ref_ctr_offset.
 * Return: 0, or a negative errno with @d filled (spans index spec->text).
 */
int sdt_resolve(const struct probe_spec *spec, struct debuginfo *dbg, const char *group,
		const struct kernel_features *kf, struct trace_probe **tps, size_t *nr,
		struct diag *d);

/**
 * sdt_list_vars() - -V for a PLACE_SDT spec: each matching note, its address and
 * semaphore, and its arguments with size, sign, location and the kernel fetch
 */
int sdt_list_vars(const struct probe_spec *spec, struct debuginfo *dbg, struct strbuf *out,
		  struct diag *d);

/**
 * sdt_find() - the notes a PLACE_SDT spec names, in note order (for query_vars())
 * @out: array for sdt_probes_free()
 * Return: 0 with @nr >= 1, or -ENOENT with @d naming the probes there are.
 */
int sdt_find(const struct probe_spec *spec, struct debuginfo *dbg, struct sdt_probe **out,
	     size_t *nr, struct diag *d);

/**
 * sdt_list() - -F: "sdt_PROVIDER:NAME" of every SDT probe in @dbg matching @glob (NULL: all;
 * the glob is matched against the whole "sdt_PROVIDER:NAME"), sorted and unique
 * Return: the number of names added.
 */
int sdt_list(struct debuginfo *dbg, const char *glob, struct strlist *out);

#endif
