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
};

#endif
