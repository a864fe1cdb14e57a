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
		unsigned __int128 w;	/* VK_INT128 (signed: arg->is_signed) */
		struct {
			double re, im;
		} c;			/* VK_COMPLEX */
	} num;
	const char *str;		/* VK_*STRING, VK_BYTES: bytes (not NUL-terminated) */
	size_t len;
	bool cut;			/* the string is longer than what was captured */
	const char *text;		/* VK_ENUM name, VK_SYM "sym+0x10", VK_RAW as printed,
					 * VK_VARIANT the variant's name ("Some"), VK_TYPENAME and
					 * VK_IFACE the dynamic type's name */
	bool text_is_json;		/* VK_RAW: text is a JSON value (an array of numbers) */
	const struct value *parts;	/* VK_STRUCT: the members, VK_ARRAY: the elements shown;
					 * VK_VARIANT: the variant's payload, each named by
					 * its member ("__0", "w"); VK_IFACE: the fields of the
					 * dynamic value, when its type is one the probe fetched
					 * them for */
	size_t nr_parts;
	bool tuple;			/* VK_VARIANT: shown Some(5), else Rect { w: 4, h: 5 };
					 * VK_IFACE: parts[0] is the value itself, not a field */
	bool more;			/* VK_VARIANT: a payload field was left out: ".."; VK_STRUCT,
					 * VK_ARRAY: members or elements were left out (the
					 * byte budget): "..." */
	bool is_slice;			/* VK_ARRAY of a slice or vector: its run-time length
					 * is slice_len, its capacity slice_cap (has_cap) */
	bool has_cap;
	uint64_t slice_len;
	uint64_t slice_cap;
	bool null;			/* with fault: there is no value, and that is no error:
					 * a dynamic type other than the one asked for (text
					 * "null"), a nil interface, a NULL cast, a key a Go map
					 * does not have */
	bool unknown;			/* with fault: not read, and no error either (a key not
					 * among the entries read of a large Go map): text
					 * "(unknown)" */
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
	const uint64_t *ustack;		/* --stack: user return addresses, innermost first */
	size_t nr_ustack;
	/* --stack: per frame of ustack, "sym+0xoff" (demangled) and the file it is in; NULL
	 * entries where unknown. Valid as long as the event. */
	const char *const *ustack_syms;
	const char *const *ustack_paths;
	/*
	 * --stack: per frame, true for a function inlined at the address (DWARF's
	 * DW_TAG_inlined_subroutine): its name alone in ustack_syms, before the frame it was
	 * inlined into (same address), innermost first, as perf script --inline shows them.
	 * NULL: none is.
	 */
	const bool *ustack_inlined;
	/*
	 * --stack=dwarf: NULL when the stack is whole (unwound to its outermost frame), else why
	 * it stops after the last frame: "copy" (the caller's frame is past the stack copied),
	 * "cfi" (no CFI describes the last frame's code), "frames" (too many). NULL for the
	 * kernel's frame-pointer walk, which does not say, but "lost" when its record was
	 * overwritten in the kernel's buffer (no frames then).
	 */
	const char *ustack_cut;
	/*
	 * A return event (FUNC%return) paired with its entry event (FUNC) on the same thread,
	 * or goroutine in Go: the call's duration in ns. -1 for every other event, and for a
	 * return whose entry was not seen (the call began before tracing did).
	 */
	int64_t duration_ns;
};

/*
 * Durations: the hidden fields every FUNC entry and FUNC%return probe gets in trace mode
 * (decode_add_call_fields()), from which the decoder tells calls apart (calls.h).
 */
#define DECODE_SP_FIELD		"upft_sp"	/* %sp: the frame's height */
#define DECODE_G_FIELD		"upft_g"	/* Go: %r14, the goroutine (runtime.g) */
#define DECODE_STACK_HI_FIELD	"upft_stkhi"	/* Go: g.stack.hi, the top of its stack */

struct decoder;
struct tep_handle;
struct debuginfo;

/**
 * decoder_new() - a decoder for records described by @tep
 * @tep: the event formats (borrowed; tracefs_local_events(), or tep_parse_format() in tests)
 * @dbg: the binary, to symbolize VK_SYM values; may be NULL
 * @lookup_tasks: resolve tgid and comm of a tid through /proc (off in tests)
 * Return: a decoder for decoder_free().
 */
struct decoder *decoder_new(struct tep_handle *tep, struct debuginfo *dbg, bool lookup_tasks);

/**
 * decoder_free() - free a decoder and everything its events pointed into; accepts NULL
 * @dc: the decoder
 */
void decoder_free(struct decoder *dc);

/**
 * decoder_add_probe() - records of tracefs event @tp->group/@tp->event decode through @tp
 * @dc: the decoder
 * @tp: the probe (borrowed; it must outlive the decoder)
 * @d: filled on failure
 *
 * Several probe points of one event are told apart by the record's probe address.
 * Return: 0, or -ENOENT when @tep does not know the event, -EINVAL when a field is missing.
 */
int decoder_add_probe(struct decoder *dc, const struct trace_probe *tp, struct diag *d);

/**
 * decoder_add_generic() - records of an existing tracefs event decode from its format fields
 * @dc: the decoder
 * @sys: the event's system ("syscalls")
 * @event: its name ("sys_enter_connect")
 * @shown: (or NULL: @event) the name its events get: NAME for a point NAME__K (fallback.h)
 * @d: filled on failure
 * Return: 0, or -ENOENT when the tep does not know SYS:EVENT.
 */
int decoder_add_generic(struct decoder *dc, const char *sys, const char *event, const char *shown,
			struct diag *d);

/**
 * decoder_remove() - forget an event: its records are skipped from now on
 * @dc: the decoder
 * @sys: the event's system (a probe's group)
 * @event: its name
 */
void decoder_remove(struct decoder *dc, const char *sys, const char *event);

/**
 * decode_record() - one raw record -> @ev
 * @dc: the decoder
 * @data: the payload (common fields first)
 * @size: its length in bytes
 * @ts: the record's time stamp, from the stream
 * @cpu: the CPU it was recorded on
 * @ev: filled; its values and strings live in the decoder until the next decode_record()
 * Return: 0, -ENOENT for a record of an event the decoder does not know (skip it),
 *         -EINVAL for one shorter than its event's fixed fields (corrupt: skip it), or
 *         DECODE_TASK for a record of a task event that only told the decoder who a thread
 *         id is from now on (decoder_watch_tasks(): nothing to show).
 */
int decode_record(struct decoder *dc, void *data, int size, uint64_t ts, int cpu,
		  struct event *ev);

#define DECODE_TASK 1	/* decode_record(): a task event, consumed */

/**
 * decoder_enable_stacks() - decode ftrace's user_stack records (options/userstacktrace)
 * @dc: the decoder; its tep must know ftrace:user_stack
 * @d: filled on failure
 *
 * They are decoded with decode_stack(). From now on, the maps of each process are read when
 * it is first seen, to symbolize its frames later.
 * Return: the user_stack event's id (for stream_set_attach()), or -ENOENT with @d filled.
 */
int decoder_enable_stacks(struct decoder *dc, struct diag *d);

/**
 * decode_stack() - @ev's user stack -> @ev->ustack
 * @dc: the decoder
 * @data: the user_stack record that followed @ev's record, or NULL
 * @size: its length in bytes
 * @ev: the event decode_record() just filled; a user_stack record of another task is ignored
 *
 * A probe with the fields of --stack=dwarf (ustack.h) is unwound from its own record (still
 * valid: call right after decode_record()), else the kernel's frame-pointer walk in @data is
 * taken. The frames are symbolized; when the probe is at a function's entry, the return
 * address from USTACK_RET0_FIELD is put in as the walk's first caller.
 */
void decode_stack(struct decoder *dc, const void *data, int size, struct event *ev);

/**
 * decode_add_call_fields() - add the hidden fields that pair @tp's events into calls
 * @tp: a probe before it is installed: one of role CALL_ENTRY or CALL_RETURN, or another
 *      probe point of the same event (the kernel wants the same fields in every point of an
 *      event; the decoder uses them only for the roles); added once
 * @go: a probe point of the event whose calls are a goroutine's (trace_probe.goroutines),
 *      or NULL: the Go fields too, the goroutine and the top of its stack (at @go's
 *      go_stack_hi)
 */
void decode_add_call_fields(struct trace_probe *tp, const struct trace_probe *go);

/**
 * decoder_set_task() - what is known of a task before its events come (a CMD we started)
 * @dc: the decoder
 * @tid: the task
 * @tgid: its process
 * @comm: its name (up to 15 bytes are kept)
 */
void decoder_set_task(struct decoder *dc, int tid, int tgid, const char *comm);

/**
 * decoder_task_fexec() - the task of decoder_set_task() execs through fd @fd (tasks_fexec())
 */
void decoder_task_fexec(struct decoder *dc, int tid, int fd);

/**
 * decoder_watch_tasks() - label events by the task:task_newtask and task:task_rename records
 * that come with them (tasks.h): pid and comm right across thread-id reuse and exec
 * @dc: the decoder; its tep must know the formats of the two events (the session enables
 *      them in its instance)
 */
void decoder_watch_tasks(struct decoder *dc);

/**
 * decode_fault_addr() - whether a guard pointer cannot be dereferenced
 * @addr: the pointer as fetched
 * Return: arch_ops.addr_fault(): below 4096, or not a user address of the machine (x86-64:
 * bits 47-63 not all equal; arm64: above 52 bits).
 */
bool decode_fault_addr(uint64_t addr);

#endif
