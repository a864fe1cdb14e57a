/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ustack.h - --stack: an event's user stack as named frames, from the kernel's frame-pointer
 * walk (ftrace:user_stack) or from the registers and the copy of the stack top the event
 * fetched (--stack=dwarf), unwound by CFI (unwind.h)
 */
#ifndef UPF_USTACK_H
#define UPF_USTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct symbolizer;
struct trace_probe;

/*
 * --stack=fp: the hidden field a probe gets for the return address at a function's first
 * instruction ($stack0 on x86-64): the caller frame the kernel's frame-pointer walk misses
 * there. The decoder uses it only where the probe is at an entry.
 */
#define USTACK_RET0_FIELD "upft_ret0"

/*
 * --stack=dwarf: the hidden fields a probe gets: the registers regs_frame() names, each
 * "upft_rN" (N its DWARF number) as x64, then the stack from the stack pointer up in
 * "upft_stkN" chunks of u64[64] (the kernel's largest array), the last one shorter.
 */
#define USTACK_REG_FIELD "upft_r"
#define USTACK_COPY_FIELD "upft_stk"

/* The default copy, in bytes: bench/stack-cost.sh measures what it costs (man page). */
#define USTACK_DEFAULT_COPY 1024
/* The kernel's bytes of fields per event (MAX_TRACE_ARGS' buffer): the registers and the copy */
#define USTACK_EVENT_BYTES 3072

/**
 * ustack_max_copy() - the largest copy: the kernel's 3072 bytes of fields per event less the
 * registers' of the current machine (x86-64's 17: 2936, arm64's 33: 2808)
 */
unsigned int ustack_max_copy(void);

/**
 * ustack_add_fields() - the fields --stack needs in probe @tp: the registers and a copy of
 * @bytes of stack, or with @bytes 0 (--stack=fp) the return address where a probe at an entry
 * (not a return probe) has it
 * @bytes: a multiple of 8, or 0
 *
 * Every probe point of an event gets them (the kernel wants the same fields in all); a probe
 * that has them already is left as it is.
 */
void ustack_add_fields(struct trace_probe *tp, unsigned int bytes);

/* Where a probe's registers and copy are in its records (ustack_layout_field()). */
struct ustack_layout {
	int regs_off;		/* upft_r0; the others follow, 8 bytes each; -1: none */
	int nr_regs;
	int copy_off;		/* upft_stk0; the others follow, without gaps; -1: none */
	int copy_size;		/* bytes of all the chunks */
	bool broken;		/* a field is not where the ones before it end */
};

/**
 * ustack_layout_init() - a layout with nothing found yet
 */
void ustack_layout_init(struct ustack_layout *l);

/**
 * ustack_layout_field() - take field @name at @off (@size bytes) into @l when it is one of
 * ustack_add_fields()'s, in the order they were added
 * Return: true when it was one of them.
 */
bool ustack_layout_field(struct ustack_layout *l, const char *name, int off, int size);

/**
 * ustack_layout_ok() - the layout has every register and a copy, each where expected
 */
bool ustack_layout_ok(const struct ustack_layout *l);

struct ustack;

/* An event's frames, innermost first, as struct event carries them (decode.h). */
struct ustack_frames {
	const uint64_t *addrs;
	size_t nr;
	const char *const *syms;	/* "sym+0xoff" or an inlined function's name; NULL: none */
	const char *const *paths;	/* the file, NULL when unknown */
	const bool *inlined;
	const char *cut;		/* NULL, "copy", "cfi" or "frames" (unwind.h) */
};

/**
 * ustack_new() - the frames of one event at a time, named through @sym
 * @sym: the decoder's symbolizer (borrowed)
 * Return: a ustack for ustack_free().
 */
struct ustack *ustack_new(struct symbolizer *sym);

/**
 * ustack_walk() - the frames of process @tgid from the kernel's frame-pointer walk
 * @callers: the walk's addresses, innermost first (the first is where the probe hit)
 * @n: how many
 * @ret0: $stack0 at a function's first instruction, where the walk skips the caller, or 0
 * @base: the probed binary's load base (symbolizer_frame()), or UINT64_MAX
 * @out: filled; it points into @us until the next call
 */
void ustack_walk(struct ustack *us, int tgid, const uint64_t *callers, size_t n,
		 uint64_t ret0, uint64_t base, struct ustack_frames *out);

/**
 * ustack_unwind() - the frames of thread @tid of process @tgid, unwound from a record's
 * registers and copy of the stack
 * @rec: the record; @l says where the fields are in it
 * @base: as for ustack_walk()
 * @out: filled (@out->cut: how the stack ended); it points into @us until the next call
 */
void ustack_unwind(struct ustack *us, int tgid, int tid, const char *rec,
		   const struct ustack_layout *l, uint64_t base, struct ustack_frames *out);

/**
 * ustack_free() - free @us and the files its unwinder opened; accepts NULL
 */
void ustack_free(struct ustack *us);

#endif
