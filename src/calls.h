/* SPDX-License-Identifier: GPL-2.0-or-later */
/* calls.h - durations: FUNC's entry and FUNC%return events paired per thread or goroutine */
#ifndef UPF_CALLS_H
#define UPF_CALLS_H

#include <stdint.h>

/*
 * Which call an event belongs to: a function in a process on a thread (C, C++, Rust) or a
 * goroutine (Go, which moves goroutines between threads).
 */
struct call_key {
	int pid;		/* the process (tgid) */
	uint64_t thread;	/* the thread id, or the goroutine's g pointer */
	unsigned int func;	/* calls_func() */
};

/*
 * Where a call's frame is on its stack, from the stack pointer: the stack pointer itself
 * (C), or its distance below the goroutine stack's top (Go: a goroutine's stack is copied
 * elsewhere when it grows, at the same distance from the top). A deeper call is lower.
 * At an entry probe the height is below the call's canonical frame address (CFA, the stack
 * pointer before the call instruction): the return address at least is pushed. At a return
 * it is the CFA (a uretprobe fires after the return; at a return instruction the caller
 * adds the 8 bytes of the return address). A caller's entry height is at least its
 * callee's CFA (it may be equal: an entry probe past the prologue).
 */
typedef int64_t call_height;

struct calls;

/**
 * calls_new() - an empty set of pending calls
 * Return: a handle for calls_free().
 */
struct calls *calls_new(void);

/**
 * calls_free() - free the pending calls and the function names; accepts NULL
 * @c: the calls
 */
void calls_free(struct calls *c);

/**
 * calls_func() - the number calls use for function @name (the same name, the same number)
 * @c: the calls
 * @name: the function as the language names it
 * Return: its number, from 1.
 */
unsigned int calls_func(struct calls *c, const char *name);

/**
 * calls_expect_returns() - function @func has a return probe: remember its entries
 * @c: the calls
 * @func: calls_func()
 *
 * Entries of a function without a return probe are not kept (nothing would pop them).
 */
void calls_expect_returns(struct calls *c, unsigned int func);

/**
 * calls_entry() - a call of @k->func began on @k->thread
 * @c: the calls
 * @k: the call
 * @ts: the entry event's time stamp, ns
 * @h: the frame's height (call_height) at the entry probe
 */
void calls_entry(struct calls *c, const struct call_key *k, uint64_t ts, call_height h);

/**
 * calls_return() - a call of @k->func returned on @k->thread: pair it with its entry
 * @c: the calls
 * @k: the call
 * @ts: the return event's time stamp, ns
 * @h: the call's CFA as a height (see call_height)
 *
 * The pending entries of that function on that thread form a stack (recursion). Its entry
 * is the outermost pending entry below @h; pending entries deeper than it are calls
 * whose return was never seen (the kernel keeps at most 64 pending uretprobes per thread,
 * a longjmp, a Go panic unwinding): they are dropped with it. Entries at or above @h are
 * its callers'.
 * Return: the call's duration in ns, or -1 when its entry was not seen.
 */
int64_t calls_return(struct calls *c, const struct call_key *k, uint64_t ts, call_height h);

/**
 * calls_pending() - how many entries wait for their return, over all threads and functions
 * @c: the calls
 * Return: the number.
 */
uint64_t calls_pending(const struct calls *c);

#endif
