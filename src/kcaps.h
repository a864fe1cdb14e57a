/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kcaps.h - the running kernel's tracing capabilities, read once from tracefs (README
 * patterns, files present, a try-and-remove probe) and masked by UPFRONT_KERNEL_FEATURES;
 * the one place in upfront that knows what a kernel version offers
 */
#ifndef UPF_KCAPS_H
#define UPF_KCAPS_H

#include <stdbool.h>

#include "diag.h"
#include "util.h"

/*
 * What the running kernel accepts; kernel_features_default() is 6.18's. The has_ fields are
 * the table's rows (kcaps.c), each with its UPFRONT_KERNEL_FEATURES name in the comment.
 */
struct kernel_features {
	bool has_char;		/* char: the "char" type (6.2+); else u8[N] for text chunks */
	bool has_string;	/* string: the "string" type */
	bool has_hex;		/* hex: x8/x16/x32/x64 */
	bool has_bitfield;	/* bitfield: b<W>@<O>/<C> */
	bool has_array;		/* array: TYPE[N] (4.20+); else one field per element */
	bool has_imm;		/* imm: \IMM constants */
	bool has_imm_str;	/* imm_str: \"STRING" constants */
	bool has_ustring;	/* ustring: the "ustring" type */
	bool has_user_deref;	/* user_deref: +uOFF(FETCH) */
	bool has_symstr;	/* symstr: the "symstr" type (listed; 6.18 rejects it for uprobes) */
	bool has_comm;		/* comm: $comm */
	bool has_ref_ctr;	/* ref_ctr: PATH:OFFSET(REF_CTR_OFFSET): SDT semaphores (4.20+) */
	bool has_multi_probe;	/* multi_probe: one event, several probe points (append) */
	bool has_error_log;	/* error_log: the reason of a rejected definition */
	bool has_buffer_percent; /* buffer_percent: readers woken at a fill level */
	bool has_subbuf_size;	/* subbuf_size: buffer_subbuf_size_kb (6.8+) */
	bool has_event_pid;	/* event_pid: set_event_pid */
	bool has_event_fork;	/* event_fork: options/event-fork */
	bool has_record_tgid;	/* record_tgid: options/record-tgid */
	bool has_userstacktrace; /* userstacktrace: options/userstacktrace */
	bool has_hist;		/* hist: hist triggers (events/.../hist) */
	bool has_file_offset;	/* file_offset: @+FILE_OFFSET is read where upfront can aim it
				 * (a one-time self-test when needed: kcaps_file_offset()) */
	int max_args;		/* 128 */
	int max_arg_len;	/* 63 characters after NAME=, including :TYPE */
	int max_name_len;	/* 32 characters of an argument name */
	int max_derefs;		/* 14 nested dereferences */
	int max_array;		/* 64 elements */
	int max_event_size;	/* 3072 bytes of fixed fields */
	int max_event_name;	/* 63 characters for group and event names */
	int max_strings;	/* :string fields per event (upfront's rule, not the kernel's: 3) */
	/* how the table was learned, for kcaps_format() */
	bool from_tracefs;	/* the README was read (else every row is the default) */
	signed char probed_multi; /* the try-and-remove probe said 1 or 0; -1: not run */
	unsigned int masked;	/* rows turned off by UPFRONT_KERNEL_FEATURES, by table index */
};
/* A limit of 0 or less in struct kernel_features is not checked. */

/*
 * What kernels do differently that no row can tell (nothing in tracefs shows it), measured
 * with scripts/kernel-matrix under qemu, and where upfront copes with it:
 * - @+OFFSET reads at base + 2 * OFFSET from 4.20 (533059281ee5, parse_probe_arg() leaves the
 *   offset in the dereference too) until "tracing/probes: Fix double addition of offset for
 *   @+FOFFSET" (2026, stable): Debian 11's 5.10.0-32 (5.10.223) read a global as 0 or a
 *   fault, 5.10.0-46 (5.10.262), 6.1.0-50 (6.1.176) and 6.18 right, a 5.15.100 build 0.
 *   loc.c reads globals as +D(%ip), relative to the probe, on every kernel (loc.h:
 *   pc_relative); a return probe, whose %ip is its caller's, still writes @+OFFSET: the row
 *   file_offset is a self-test of how this kernel reads it (kcaps_file_offset()), and where
 *   it reads at twice the offset fallback.c writes half of it.
 * - fexecve() names the program after its fd ("3", /dev/fd/3) before 6.14: tasks_fexec().
 * - 5.10 and 6.1 reject $comm:u32 with EINVAL and nothing in error_log (6.18 says why).
 */

/* How the running kernel reads @+FILE_OFFSET (kcaps_file_offset()). */
enum kcaps_foffs {
	KCAPS_FOFFS_WRONG,	/* elsewhere: a %return probe cannot read a global */
	KCAPS_FOFFS_RIGHT,	/* at base + OFFSET */
	KCAPS_FOFFS_DOUBLED,	/* at base + 2 * OFFSET (4.20 until the fix): write OFFSET / 2 */
};

/**
 * kcaps_file_offset() - how the running kernel reads @+FILE_OFFSET; the first call with a
 * table read from tracefs tests it: a probe on a function of upfront's own binary reads a
 * constant of it with @+ at its offset and at half of it (scratch event and instance
 * upft_kcaps<pid>, removed before this returns, signals held meanwhile; ~0.1 s, mostly the
 * cost of disabling an event); later calls give that answer
 * @kf: the table; its row file_offset masked, KCAPS_FOFFS_WRONG; not from tracefs, or the
 *	test could not run (uprobe_events not writable: nothing could be installed), RIGHT
 */
enum kcaps_foffs kcaps_file_offset(const struct kernel_features *kf);

/* kernel_features_default() - the features and limits measured on kernel 6.18 */
void kernel_features_default(struct kernel_features *kf);

/**
 * kcaps_parse_readme() - set the rows the tracefs README text tells (types, fetch syntax,
 * ref_ctr_offset, multi-probe events, hist triggers); no tracefs needed (unit tests)
 * @kf: filled from kernel_features_default() first; rows the README cannot tell are kept
 */
void kcaps_parse_readme(struct kernel_features *kf, const char *readme);

/**
 * kcaps_mask() - turn off the features a UPFRONT_KERNEL_FEATURES value names:
 * "-array,-imm" (only removing; a kernel's feature cannot be added)
 * @spec: the value (NULL or "" masks nothing)
 * @d: filled for a bad word (what, where, the names that exist)
 * Return: 0, or -EINVAL.
 */
int kcaps_mask(struct kernel_features *kf, const char *spec, struct diag *d);

/**
 * kcaps_read() - the running kernel's table: defaults, the README, the files present, the
 * multi-probe try-and-remove probe where the README does not list them (when uprobe_events
 * is writable: a group upft_kcaps<pid> removed before this returns, with signals held
 * meanwhile; those of processes that are gone are removed first), then the mask in
 * UPFRONT_KERNEL_FEATURES; without a readable README, 6.18's defaults (masked)
 * @d: filled when the mask is bad
 * Return: 0, or -EINVAL (bad UPFRONT_KERNEL_FEATURES).
 */
int kcaps_read(struct kernel_features *kf, struct diag *d);

/**
 * kcaps_format() - the table, one row a line: "NAME VALUE SOURCE" (VALUE yes/no or a
 * number; SOURCE: README, file PATH, probe, default, masked): what `-v` and
 * `--kernel-features` print and what tests read
 */
void kcaps_format(const struct kernel_features *kf, struct strbuf *out);

/**
 * kcaps_explain() - what the kernel refuses in a uprobe_events @line it rejected without a
 * reason (no error_log, or no entry in it: 6.1 and $comm:u32): the probe point alone, then
 * each argument alone, each defined as a scratch event of the group upft_kcaps<pid> and
 * removed at once (signals held meanwhile); the features the refused part uses that @kf
 * lacks are named
 * @out: gets "it refuses the argument 'c=$comm:u32' (the ones before it are accepted)"
 * Return: 0, or -1 when nothing could be tried (uprobe_events not writable; @out untouched)
 */
int kcaps_explain(const struct kernel_features *kf, const char *line, struct strbuf *out);

#endif
