/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unwind.h - a thread's stack from a copy of its top and its registers taken with an event,
 * unwound by the CFI (.eh_frame, .debug_frame) of the files its process maps (libdwfl), as
 * perf record --call-graph dwarf does; for code built without frame pointers
 */
#ifndef UPF_UNWIND_H
#define UPF_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct unwinder;

/* How a stack ended: what unwinder_stack() says after its last frame. */
enum unwind_end {
	UNWIND_END,	/* the outermost frame: its CFI says there is no caller (_start, clone) */
	UNWIND_CUT,	/* the next frame needs memory past the copy (or below it): not guessed */
	UNWIND_LOST,	/* no CFI or no file for the last frame's code: its caller is unknown */
	UNWIND_FULL,	/* more frames than the caller has room for */
};

/* One frame of a stack, innermost first. */
struct unwind_frame {
	uint64_t pc;	/* the first frame's pc, then return addresses */
	bool ret;	/* @pc is a return address: its call is at @pc - 1 */
};

/**
 * unwinder_new() - an unwinder; the files of each process are opened once and kept
 * Return: an unwinder for unwinder_free().
 */
struct unwinder *unwinder_new(void);

/**
 * unwinder_stack() - the frames of thread @tid of process @tgid when an event was taken
 * @u: the unwinder
 * @tgid: the process, whose executable mappings name the files (procmaps.h: followed from
 *        fork/exec, or /proc/@tgid/maps while it runs)
 * @tid: the thread
 * @regs: the registers, in DWARF numbering 0 to regs_frame()->nr - 1 (regs.h)
 * @copy: the bytes of the stack from the stack pointer up, as the event copied them
 * @size: bytes in @copy
 * @out: filled with the frames
 * @max: room in @out
 * @end: filled with how the stack ended
 *
 * A frame is reported only when the CFI of the frame below it gave it, from registers and
 * memory of the copy: past the copy the stack is cut (UNWIND_CUT), never guessed, and a
 * frame-pointer fallback libdwfl may take when the CFI fails is not used.
 * Return: the number of frames in @out.
 */
size_t unwinder_stack(struct unwinder *u, int tgid, int tid, const uint64_t *regs,
		      const void *copy, size_t size, struct unwind_frame *out, size_t max,
		      enum unwind_end *end);

/**
 * unwinder_free() - close every file and free the unwinder; accepts NULL
 * @u: the unwinder
 */
void unwinder_free(struct unwinder *u);

#endif
