/* SPDX-License-Identifier: GPL-2.0-or-later */
/* checker.h - a session's slow checks on a thread of their own, off the decoding path */
#ifndef UPF_CHECKER_H
#define UPF_CHECKER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct stream;
struct tracing;

/*
 * Every CHECKER_EVERY_MS the checker's thread looks whether the session's events are still in
 * tracefs, whether -p's processes still run, and measures the trace clock's skew. Each of
 * those opens or looks up a tracefs file, which waits behind the kernel's locks
 * (trace_types_lock, event_mutex, eventfs_mutex) while another session sets up or cleans up:
 * 3-177 ms measured on a shared machine, when ~240 ms of events at full rate fill a CPU's
 * queue. The decoding thread only reads the answers.
 */
#define CHECKER_EVERY_MS 200

struct checker;

/**
 * checker_new() - checks on session @t's events, none yet; no thread before checker_start()
 * Return: a checker for checker_free().
 */
struct checker *checker_new(struct tracing *t);

/** checker_free() - stop the thread (waiting for its check to end) and free @c; accepts NULL */
void checker_free(struct checker *c);

/**
 * checker_add_event() - look for event @sys:@name in the session's instance from now on
 * @c: accepts NULL (the checks have ended): nothing is looked for
 * Return: its index for checker_event_gone() and checker_forget_event(), in the order added.
 */
size_t checker_add_event(struct checker *c, const char *sys, const char *name);

/** checker_forget_event() - event @i was removed by the session itself: no longer look; @c
 * may be NULL */
void checker_forget_event(struct checker *c, size_t i);

/**
 * checker_event_gone() - event @i was found missing by a check (removed by another process)
 * and this is the first time it is asked; at most once per event
 */
bool checker_event_gone(struct checker *c, size_t i);

/** checker_events_changed() - a check found an event missing since the last call */
bool checker_events_changed(struct checker *c);

/**
 * checker_watch_pids() - -p: report when none of the traced processes runs any more
 * @pids: the processes named (copied)
 * @from_instance: true: the processes in the instance's set_event_pid (the kernel keeps
 *                 their children there); false (--no-inherit): @pids alone
 */
void checker_watch_pids(struct checker *c, const pid_t *pids, size_t nr, bool from_instance);

/** checker_pids_exited() - every process checker_watch_pids() watches has exited */
bool checker_pids_exited(struct checker *c);

/**
 * checker_set_stream() - measure @st's clock skew (stream_clock_skew()) at each check; NULL:
 * stop (before stream_free(), which must not run while the thread measures: this waits)
 */
void checker_set_stream(struct checker *c, struct stream *st);

/**
 * checker_start() - start the thread (all signals blocked there); the first check runs at once
 * Return: 0, or a negative errno (the checks then never run).
 */
int checker_start(struct checker *c);

#endif
