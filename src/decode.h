/* SPDX-License-Identifier: GPL-2.0-or-later */
/* decode.h - raw tracefs records -> typed values, following the translator's trace_arg */
#ifndef UPF_DECODE_H
#define UPF_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "fetcharg.h"
#include "util.h"

/* One decoded value of an event. */
struct value {
	const char *name;		/* argument name */
	const struct trace_arg *arg;	/* NULL for fields of -e events */
	enum value_kind kind;
	bool fault;			/* the kernel could not read it */
	const char *fault_expr;		/* the link that was NULL/unreadable ("r->Question") */
	union {
		int64_t s;
		uint64_t u;
		double f;
	} num;
	const char *str;		/* VK_*STRING, VK_BYTES: bytes (not NUL-terminated) */
	size_t len;
	bool cut;			/* the string is longer than what was captured */
	const char *text;		/* VK_ENUM name, VK_SYM "sym+0x10", VK_RAW as printed */
	bool text_is_json;		/* VK_RAW: text is a JSON value (an array of numbers) */
};

/* One decoded event; values point into the event's own storage. */
struct event {
	uint64_t ts;			/* ns, the instance's trace_clock (mono) */
	int cpu;
	int pid;			/* tgid */
	int tid;
	char comm[16];
	const char *probe;		/* event name */
	const char *func;		/* function name of the probe point, or NULL */
	const struct trace_probe *tp;	/* NULL for -e events */
	struct value *vals;
	size_t nr_vals;
	uint64_t *ustack;		/* --stack: user return addresses, innermost first */
	size_t nr_ustack;
	/* --stack: per frame of ustack, "sym+0xoff" (demangled) and the file it is in; NULL
	 * entries where unknown. Valid as long as the event. */
	const char *const *ustack_syms;
	const char *const *ustack_paths;
};

/*
 * --stack: the hidden field a probe gets for $stack0 (at a function's first instruction, the
 * return address: the caller frame the kernel's frame-pointer walk misses there).
 */
#define DECODE_RET0_FIELD "upft_ret0"

struct decoder;
struct tep_handle;
struct debuginfo;

/**
 * decoder_new() - a decoder for records described by @tep (borrowed; tracefs_local_events()
 * or tep_parse_format() in tests)
 * @dbg: the binary, to symbolize VK_SYM values; may be NULL
 * @lookup_tasks: resolve tgid and comm of a tid through /proc (off in tests)
 */
struct decoder *decoder_new(struct tep_handle *tep, struct debuginfo *dbg, bool lookup_tasks);
void decoder_free(struct decoder *dc);

/**
 * decoder_add_probe() - records of tracefs event @tp->group/@tp->event decode through @tp
 * (borrowed; it must outlive the decoder). Several probe points of one event are told apart
 * by the record's probe address.
 * Return: 0, or -ENOENT when @tep does not know the event, -EINVAL when a field is missing.
 */
int decoder_add_probe(struct decoder *dc, const struct trace_probe *tp, struct diag *d);

/* decoder_add_generic() - records of SYS:EVENT decode generically from their format fields */
int decoder_add_generic(struct decoder *dc, const char *sys, const char *event, struct diag *d);

/* decoder_remove() - forget SYS:EVENT (records of it are skipped from now on) */
void decoder_remove(struct decoder *dc, const char *sys, const char *event);

/**
 * decode_record() - one raw record -> @ev
 * @data: the payload (common fields first), @size its length, @ts and @cpu from the stream
 * @ev: filled; its values and strings live in the decoder until the next decode_record()
 * Return: 0, or -ENOENT for a record of an event the decoder does not know (skip it).
 */
int decode_record(struct decoder *dc, void *data, int size, uint64_t ts, int cpu,
		  struct event *ev);

/**
 * decoder_enable_stacks() - decode ftrace's user_stack records (options/userstacktrace) with
 * decode_stack(); needs ftrace:user_stack in the tep. From now on, the maps of each process
 * are read when it is first seen, to symbolize its frames later.
 * Return: the user_stack event's id (for stream_set_attach()), or -ENOENT with @d filled.
 */
int decoder_enable_stacks(struct decoder *dc, struct diag *d);

/**
 * decode_stack() - the user_stack record that followed @ev's record -> @ev->ustack (the
 * return address from DECODE_RET0_FIELD put in as the first caller when the probe is at a
 * function's entry), symbolized. Call right after decode_record() of @ev. A record of
 * another task is ignored.
 */
void decode_stack(struct decoder *dc, const void *data, int size, struct event *ev);

/* decoder_set_task() - what is known of a task before its events come (a CMD we started) */
void decoder_set_task(struct decoder *dc, int tid, int tgid, const char *comm);

/* decode_fault_addr() - a guard pointer that cannot be dereferenced (< 4096, non-canonical) */
bool decode_fault_addr(uint64_t addr);

#endif
