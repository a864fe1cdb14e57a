/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracing.h - every tracefs call of upfront but the capability table (kcaps.h): persistent
 * probes (-a, -l, -d), and a trace session's private group and instance (upfront_<pid>)
 */
#ifndef UPF_TRACING_H
#define UPF_TRACING_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <sys/types.h>

#include "diag.h"
#include "fetcharg.h"
#include "util.h"

/**
 * tracing_use_kcaps() - the kernel capability table (kcaps_read()'s, masked) that tracing
 * follows: error_log is read, buffer_percent, buffer_subbuf_size_kb, options/event-fork,
 * record-tgid and userstacktrace are used only where it has them; 6.18's until called
 * @kf: copied
 */
void tracing_use_kcaps(const struct kernel_features *kf);

/**
 * tracing_add_probes() - -a: write each probe to uprobe_events, as perf probe -a does;
 * on any failure remove what this call added and quote error_log in @d
 * @by_fd: give the kernel each probe's kpath (/proc/PID/fd/N, the file upfront opened: for
 *         a session, whose probes go when it ends), else its path (-a: the probes stay, and
 *         the kernel keeps the text it was given)
 * Return: 0, or -errno with @d filled.
 */
int tracing_add_probes(const struct trace_probe *tps, size_t nr, bool by_fd, struct diag *d);

/**
 * tracing_remove_probes() - remove the events of @tps (each GROUP/EVENT once), as after a
 * failed tracing_add_probes(); a missing one is not an error
 */
void tracing_remove_probes(const struct trace_probe *tps, size_t nr);

/**
 * tracing_list() - -l: uprobe events matching GROUP:EVENT @glob (NULL: all), perf-like,
 * one line per probe point: "  grp:ev (on /path:0xoff with a b c)"
 * Return: how many lines were added to @out, or -errno with @d filled.
 */
int tracing_list(const char *glob, struct strbuf *out, struct diag *d);

/**
 * tracing_delete() - -d: delete uprobe events matching @glob ("grp:ev", "grp:*", "ev" for any
 * group); disables them first; a live session's upfront_<pid> group only when named exactly.
 * @removed: (or NULL) gets "Removed event: GROUP:EVENT" lines, as perf probe -d prints
 * Return: number of events deleted, -ENOENT when nothing matched (@d filled)
 */
int tracing_delete(const char *glob, struct strbuf *removed, struct diag *d);

/**
 * tracing_event_exists() - a dynamic or static event @sys:@name is defined in tracefs
 */
bool tracing_event_exists(const char *sys, const char *name);

/**
 * tracing_event_parts() - the events of @sys named @name__2, @name__3 ...: the probe points
 * of event @name that a kernel without multi-probe events got as events of their own
 * (fallback.h), as -l and -d take them
 * @out: gets their names, in the order tracefs lists them
 */
void tracing_event_parts(const char *sys, const char *name, struct strlist *out);

/**
 * tracing_event_format() - the text of the "format" file of event @sys:@name
 * @size: (or NULL) gets its length
 * Return: the text for free(), or NULL when the event has none.
 */
char *tracing_event_format(const char *sys, const char *name, int *size);

/**
 * tracing_header_page() - the ring buffer's header_page description (the layout of a
 * sub-buffer's header, for tep_parse_header_page())
 * Return: the text for free(), or NULL.
 */
char *tracing_header_page(int *size);

/**
 * tracing_saved_comm() - the command name the kernel recorded for task @tid
 * (saved_cmdlines), for a task that is already gone from /proc
 * @comm: gets it, NUL-terminated, cut to @size - 1; left as it is when there is none
 * Return: whether the kernel had one.
 */
bool tracing_saved_comm(int tid, char *comm, size_t size);

/**
 * tracing_saved_tgid() - the process the kernel recorded for task @tid (saved_tgids, filled
 * while a session's instance has options/record-tgid set)
 * @tid: the task, which may have exited
 * Return: its tgid, or 0 when the kernel does not know it.
 */
int tracing_saved_tgid(int tid);

/*
 * A trace session in tracefs: the uprobe group and the instance that share the name
 * upfront_<pid of this process> (the man page's "private tracefs instance"). The pid in the
 * name is how a later run tells a dead session's leftovers from a live one's. Events are
 * enabled in the instance only, so other tracers and other sessions do not see them.
 *
 * Costs measured on 6.18 (doc/kernel-facts.md): defining, enabling and removing an event is
 * cheap; disabling one costs ~49 ms, however many probe points share it.
 *
 * The functions below are called from the session's thread, except tracing_cpu_stats() and
 * tracing_cpu_open_raw(), which only read and may run on the drain thread too.
 */
struct tracing;

/**
 * tracing_new() - take the session's name upfront_<getpid()> with its lock file
 * (/run/upfront, lockfile.h), first remove what dead sessions left (an upfront_* instance or
 * group whose lock is free, or without a lock file whose pid is gone: kill -9 of upfront and
 * its watchdog, power loss; never a live one's), start the cleanup watchdog (unless @keep),
 * then create the instance with recording off, trace_clock mono (CPUs merge in order,
 * times are CLOCK_MONOTONIC) and @buffer_kb of ring buffer per CPU (0: the kernel's)
 * @keep: tracing_free() leaves the group's events and the instance in place (--keep)
 * Return: the session for tracing_free(), or NULL with @d filled.
 */
struct tracing *tracing_new(unsigned long buffer_kb, bool keep, struct diag *d);

/* argv[1] of the cleanup watchdog tracing_new() starts (main() hands it to tracing_watchdog()) */
#define TRACING_WATCHDOG_ARG "--watchdog-internal"

/**
 * tracing_watchdog() - the body of a session's cleanup watchdog ("upfront
 * --watchdog-internal GROUP PIPE_FD LOCK_FD", started by tracing_new() unless --keep): wait
 * until upfront closes the pipe; if it did so without saying it removed everything (it died:
 * SIGSEGV, SIGKILL, abort), remove the session's instance and events, then its lock file
 * @group: the session's name, upfront_<pid>[_<n>]
 * Return: exit status: 0, or 2 for arguments that are not a watchdog's.
 */
int tracing_watchdog(const char *group, const char *pipe_fd, const char *lock_fd);

/**
 * tracing_free() - stop recording, remove the instance (which disables its events) and
 * delete every event of the group, unless --keep; accepts NULL. Close the per-CPU files
 * (stream_free()) first: an open file keeps the instance busy.
 */
void tracing_free(struct tracing *t);

/**
 * tracing_unkeep() - tracing_free() removes everything after all, --keep or not: the session
 * failed before it traced (bad input installs nothing); accepts NULL
 */
void tracing_unkeep(struct tracing *t);

/**
 * tracing_group() - the session's group and instance name, "upfront_<pid>"; borrowed
 */
const char *tracing_group(const struct tracing *t);

/**
 * tracing_add() - define @tps in the session's group: each probe's group is replaced by
 * tracing_group() (probe points with the same event name become one event); not enabled.
 * The kernel gets each probe's kpath (the file upfront opened), with --keep its path.
 * Return: 0, or -errno with @d filled and nothing of this call left defined.
 */
int tracing_add(struct tracing *t, struct trace_probe *tps, size_t nr, struct diag *d);

/**
 * tracing_event_enable() - enable @sys:@name in the session's instance (not elsewhere)
 * Return: 0, or -errno with @d filled.
 */
int tracing_event_enable(struct tracing *t, const char *sys, const char *name, struct diag *d);

/**
 * tracing_event_present() - whether @sys:@name is still defined and in the session's instance
 * (another process may have deleted it: upfront -d GROUP:*, a write to uprobe_events)
 */
bool tracing_event_present(struct tracing *t, const char *sys, const char *name);

/**
 * tracing_event_disable() - disable @sys:@name in the session's instance: ~49 ms
 */
void tracing_event_disable(struct tracing *t, const char *sys, const char *name);

/**
 * tracing_event_delete() - delete event @name of the session's group, every probe point of
 * it, disabling it wherever it is enabled; a failure is logged, not returned
 */
void tracing_event_delete(struct tracing *t, const char *name);

/**
 * tracing_set_filter() - the kernel filter @filter for @sys:@name in the instance
 * Return: 0, or -EINVAL with @d filled, quoting the kernel's reason from error_log.
 */
int tracing_set_filter(struct tracing *t, const char *sys, const char *name,
		       const char *filter, struct diag *d);

/**
 * tracing_pids() - the tasks the instance records now (set_event_pid: the kernel drops each
 * as it exits and adds those the traced ones fork)
 * @out: set to an array for free()
 * Return: how many, or -1 when the instance has no set_event_pid to read.
 */
ssize_t tracing_pids(struct tracing *t, pid_t **out);

/**
 * tracing_set_pids() - record only events of these processes and the children they fork
 * (set_event_pid, options/event-fork; in both rings); @threads: also every thread each one
 * has now (set_event_pid filters by task). Replaces an earlier set.
 * Return: 0, or -errno with @d filled (-ESRCH: "no process N").
 */
int tracing_set_pids(struct tracing *t, const pid_t *pids, size_t nr, bool threads,
		     struct diag *d);

/**
 * tracing_enable_user_stacks() - a user_stack record (8 frame-pointer frames) follows each
 * event on its CPU (options/userstacktrace)
 * Return: 0, or -errno with @d filled.
 */
int tracing_enable_user_stacks(struct tracing *t, struct diag *d);

/**
 * tracing_on() / tracing_off() - start or stop recording into the session's rings;
 * after tracing_off() the buffers keep what they hold until it is read
 */
void tracing_on(struct tracing *t);
void tracing_off(struct tracing *t);

/**
 * tracing_subbuf_size() - bytes in one sub-buffer of the instance's ring buffer (the unit
 * trace_pipe_raw hands out): buffer_subbuf_size_kb, or the page size when it has none
 */
int tracing_subbuf_size(struct tracing *t);

/**
 * tracing_buffer_bytes() - bytes of ring buffer per CPU of the instance (its per_cpu
 * buffer_size_kb), 0 when it cannot be read
 */
uint64_t tracing_buffer_bytes(struct tracing *t);

/**
 * tracing_clock_ref() - the clock of this process that runs at the rate of the instance's
 * trace_clock, which stamps the records: CLOCK_MONOTONIC for "mono", CLOCK_MONOTONIC_RAW for
 * "local" (sched_clock(): the TSC scaled, as the raw clock is). They differ by an offset: the
 * "now ts" of tracing_cpu_stats() tells it.
 */
clockid_t tracing_clock_ref(const struct tracing *t);

/**
 * tracing_set_wakeup() - a poll() on trace_pipe_raw wakes when the CPU's buffer is
 * @percent full (buffer_percent); 0 wakes on every event
 * Return: false when the kernel has no buffer_percent (a poll() there wakes on every event:
 * read on a timer instead)
 */
bool tracing_set_wakeup(struct tracing *t, unsigned int percent);

/*
 * A session's two rings: its events', and the kernel's task records' (tracing_watch_task()),
 * kept apart so that what the first loses is a count of events.
 */
enum tracing_ring {
	TRACING_RING_EVENTS,
	TRACING_RING_TASKS,
	TRACING_NR_RINGS
};

/**
 * tracing_watch_task() - enable the kernel's task event @sys:@name in the session's tasks
 * instance (<group>_tasks, made at the first call: a small ring, the same trace_clock, the
 * same processes as tracing_set_pids() gives both); removed by tracing_free() even with
 * --keep, reaped with its session
 * Return: 0, or -errno with @d filled.
 */
int tracing_watch_task(struct tracing *t, const char *sys, const char *name, struct diag *d);

/** tracing_has_ring() - the session has ring @ring (the tasks ring once a task is watched) */
bool tracing_has_ring(struct tracing *t, enum tracing_ring ring);

/**
 * tracing_cpu_open_raw() - open per_cpu/cpu@cpu/trace_pipe_raw of ring @ring, read-only,
 * non-blocking, close-on-exec
 * Return: the file descriptor; -ENOENT for a CPU that is absent or offline; other -errno
 * with @d filled.
 */
int tracing_cpu_open_raw(struct tracing *t, enum tracing_ring ring, int cpu, struct diag *d);

/* The ring buffer's counters of one CPU (per_cpu/cpuN/stats). */
struct tracing_cpu_stats {
	uint64_t entries;	/* events in the buffer, not yet read */
	uint64_t lost;		/* overrun + commit overrun + dropped events, since creation */
	uint64_t now_ns;	/* the instance's trace clock during the read, us resolution */
};

/**
 * tracing_cpu_stats() - the counters of CPU @cpu of ring @ring
 * Return: 0, or -errno with @out zeroed.
 */
int tracing_cpu_stats(struct tracing *t, enum tracing_ring ring, int cpu,
		      struct tracing_cpu_stats *out);

#endif
