/* SPDX-License-Identifier: GPL-2.0-or-later */
/* procmaps.h - the executable mappings of traced processes, kept from fork/exec to exit */
#ifndef UPF_PROCMAPS_H
#define UPF_PROCMAPS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "diag.h"

/*
 * /proc/PID/maps is gone once a process exits, and a short-lived command has often exited
 * before its first event is decoded. The kernel reports every executable mmap, exec, fork
 * and exit of a process tree as perf records (a dummy software event with mmap2/comm/task,
 * inherited, one ring per CPU; no BPF, no samples), as it does for perf record: from those
 * the mappings of each process are known for as long as upfront runs.
 */

/**
 * procmaps_follow() - keep the mappings of @pid and of every process it forks from now on
 * @pid: a process that has not exec'd its program yet (a "-- CMD" child waiting to exec),
 *       or a running process (then its current mappings are read from /proc first)
 * Return: 0, or a negative errno with @d filled (perf_event_open refused).
 */
int procmaps_follow(pid_t pid, struct diag *d);

/**
 * procmaps_find() - the file mapped at @addr in process @tgid, as the kernel reported it
 * @path: borrowed until procmaps_stop(); "[vdso]" for the vDSO
 * @lo: the mapping's start; @pgoff: the file offset mapped at @lo
 * Return: true when a followed process had @addr mapped (also after it exited).
 *
 * Reads what the kernel reported since the last call first.
 */
bool procmaps_find(int tgid, uint64_t addr, const char **path, uint64_t *lo, uint64_t *pgoff);

/* what procmaps_each() calls: true stops the walk */
typedef bool (*procmaps_fn)(void *arg, const char *path, uint64_t lo, uint64_t hi,
			   uint64_t pgoff);

/**
 * procmaps_each() - call @fn for each mapping of process @tgid the kernel reported (the
 * latest first; also after it exited), until it returns true
 * Return: true when @fn did; false when it never did or @tgid was not followed.
 */
bool procmaps_each(int tgid, procmaps_fn fn, void *arg);

/**
 * procmaps_read() - call @fn for each executable mapping of a file (or the vDSO) that
 * /proc/@pid/maps shows now, in address order, until it returns true
 * Return: true when @fn did; false when it never did or @pid is gone.
 */
bool procmaps_read(int pid, procmaps_fn fn, void *arg);

/**
 * procmaps_tree_maps() - whether process @pid or a process it forked has @path mapped now
 * (/proc/PID/maps and /proc/PID/task/TID/children, a few levels deep)
 * Return: 1 mapped, 0 not mapped, -1 when @pid is gone.
 */
int procmaps_tree_maps(pid_t pid, const char *path);

/**
 * procmaps_vdso_file() - a file holding the vDSO's image, for the readers of ELF files
 * (libelf, libdw) that a "[vdso]" mapping leaves without one: the image is the kernel's, the
 * same in every 64-bit process, so upfront's own is copied once into a memfd
 * Return: its path (/proc/self/fd/N, static), or NULL when there is none. Not thread-safe:
 * call from one thread (the decoder's).
 */
const char *procmaps_vdso_file(void);

/* procmaps_stop() - close the perf events and forget every mapping */
void procmaps_stop(void);

#endif
