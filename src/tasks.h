/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tasks.h - who a thread id is (its process, its name) as of each event, from the records */
#ifndef UPF_TASKS_H
#define UPF_TASKS_H

#include <stdbool.h>

struct tep_handle;

/*
 * A thread id names another task once its thread has exited and the id is reused, and a
 * task changes its name when it execs or calls prctl(PR_SET_NAME). Files read when an event
 * is decoded (/proc, saved_tgids, saved_cmdlines) tell what the id is *then*, not what it
 * was when the event fired. So the session enables the kernel's task:task_newtask and
 * task:task_rename events in its instance: decoded in time order with the probes' records,
 * they keep this table right at each event. /proc is read only for a task that existed
 * before the session (once), the saved_* files only when it is gone already.
 */
struct tasks;

/**
 * tasks_new() - an empty table
 * @lookup: look unknown tasks up in /proc and tracefs (false in tests: unknown stays unknown)
 * Return: a table for tasks_free().
 */
struct tasks *tasks_new(bool lookup);

/** tasks_free() - free @ts; accepts NULL */
void tasks_free(struct tasks *ts);

/**
 * tasks_set() - task @tid is in process @tgid and named @comm from now on
 * @comm: up to 15 bytes are kept
 */
void tasks_set(struct tasks *ts, int tid, int tgid, const char *comm);

/**
 * tasks_fexec() - task @tid (a CMD we started) execs its program with fexecve() of fd @fd:
 * before Linux 6.14 the kernel then names it "@fd" (its /dev/fd/N path; 5.10, 6.1 and 6.12
 * measured under qemu), so that rename, and the same name in the tasks it starts, keep the
 * name the task has here (tasks_set()); an exec of another program renames it as usual
 */
void tasks_fexec(struct tasks *ts, int tid, int fd);

/**
 * tasks_get() - task @tid's process and name: from the table, else looked up (and kept)
 * @tgid: gets the process id (@tid when unknown)
 * @comm: gets the name, 16 bytes ("<...>" when unknown)
 * Return: true the first time @tid is asked for since the task appeared (its first event).
 */
bool tasks_get(struct tasks *ts, int tid, int *tgid, char comm[16]);

/**
 * tasks_watch() - take the records of task:task_newtask and task:task_rename from now on
 * @tep: knows their formats (those it does not know are not watched)
 * Return: how many of the two are watched.
 */
int tasks_watch(struct tasks *ts, struct tep_handle *tep);

/**
 * tasks_record() - a record of a watched event: update the table
 * @id: the record's event id
 * @data: the record (common fields first), @size bytes
 * @tid: its common_pid (the task that was running)
 * Return: true when @id is a watched event (the record is consumed), false otherwise.
 */
bool tasks_record(struct tasks *ts, int id, const void *data, int size, int tid);

#endif
