// SPDX-License-Identifier: GPL-2.0-or-later
/* tasks.c - thread id -> process and name as of each event: a hash table fed by the records */
#define LOG_DOMAIN "decode"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "log.h"
#include "tasks.h"
#include "tracing.h"
#include "util.h"

#define CLONE_THREAD_FLAG 0x00010000ULL	/* <linux/sched.h> CLONE_THREAD */

struct task {
	int tid;		/* 0: a free slot */
	int tgid;
	bool asked;		/* tasks_get() returned it once */
	char comm[16];
	char fexec[12];		/* tasks_fexec(): the kernel's name for it after the exec */
};

/* where a field of a watched event is, or size 0 when the event has none */
struct tfield {
	int off, size;
};

struct tasks {
	struct task *slots;	/* open addressing, linear probing; a power of two */
	size_t nr_slots, used;
	bool lookup;
	int newtask_id, rename_id;	/* -1: not watched */
	struct tfield nt_pid, nt_comm, nt_flags;
	struct tfield rn_pid, rn_comm;
};

struct tasks *tasks_new(bool lookup)
{
	struct tasks *ts = xcalloc(1, sizeof(*ts));

	ts->nr_slots = 1024;
	ts->slots = xcalloc(ts->nr_slots, sizeof(*ts->slots));
	ts->lookup = lookup;
	ts->newtask_id = ts->rename_id = -1;
	return ts;
}

void tasks_free(struct tasks *ts)
{
	if (!ts)
		return;
	free(ts->slots);
	free(ts);
}

static size_t slot_of(const struct tasks *ts, int tid)
{
	return ((uint32_t)tid * 2654435761U) & (ts->nr_slots - 1);
}

static struct task *find(struct tasks *ts, int tid)
{
	for (size_t i = slot_of(ts, tid);; i = (i + 1) & (ts->nr_slots - 1)) {
		if (ts->slots[i].tid == tid)
			return &ts->slots[i];
		if (!ts->slots[i].tid)
			return NULL;
	}
}

static void grow(struct tasks *ts)
{
	struct task *old = ts->slots;
	size_t n = ts->nr_slots;

	ts->nr_slots *= 2;
	ts->slots = xcalloc(ts->nr_slots, sizeof(*ts->slots));
	for (size_t i = 0; i < n; i++) {
		size_t k;

		if (!old[i].tid)
			continue;
		for (k = slot_of(ts, old[i].tid); ts->slots[k].tid; k = (k + 1) & (ts->nr_slots - 1))
			;
		ts->slots[k] = old[i];
	}
	free(old);
}

/* the slot of @tid, made if new (the table is bounded by the ids in use: pid_max) */
static struct task *get_slot(struct tasks *ts, int tid)
{
	struct task *t = find(ts, tid);
	size_t i;

	if (t)
		return t;
	if ((ts->used + 1) * 4 > ts->nr_slots * 3)
		grow(ts);
	for (i = slot_of(ts, tid); ts->slots[i].tid; i = (i + 1) & (ts->nr_slots - 1))
		;
	ts->used++;
	ts->slots[i].tid = tid;
	return &ts->slots[i];
}

static void set_comm(struct task *t, const char *comm, size_t max)
{
	size_t n = strnlen(comm, max < 15 ? max : 15);

	memcpy(t->comm, comm, n);
	t->comm[n] = '\0';
}

void tasks_set(struct tasks *ts, int tid, int tgid, const char *comm)
{
	struct task *t;

	if (tid <= 0)
		return;
	t = get_slot(ts, tid);
	t->tgid = tgid;
	t->asked = false;
	set_comm(t, comm, 15);
}

void tasks_fexec(struct tasks *ts, int tid, int fd)
{
	if (tid > 0 && fd >= 0)
		snprintf(get_slot(ts, tid)->fexec, sizeof(ts->slots->fexec), "%d", fd);
}

/* whether a kernel rename of @t to @comm (@max bytes) is only fexecve's fd number */
static bool fexec_rename(const struct task *t, const char *comm, size_t max)
{
	return t->fexec[0] && !strncmp(comm, t->fexec, max) && strlen(t->fexec) < max &&
	       !comm[strlen(t->fexec)];
}

/* a task the records did not announce (it existed before the session): /proc, once */
static void lookup(struct tasks *ts, int tid, int *tgid, char comm[16])
{
	char path[64], buf[512];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f) {
		/* gone already: the kernel's saved_cmdlines and saved_tgids still know it */
		int g = tracing_saved_tgid(tid);

		if (g > 0)
			*tgid = g;
		tracing_saved_comm(tid, comm, 16);
		return;
	}
	while (fgets(buf, sizeof(buf), f)) {
		if (!strncmp(buf, "Name:\t", 6)) {
			size_t n = strcspn(buf + 6, "\n");

			if (n > 15)
				n = 15;
			memcpy(comm, buf + 6, n);
			comm[n] = '\0';
		} else if (!strncmp(buf, "Tgid:\t", 6)) {
			*tgid = atoi(buf + 6);
			break;
		}
	}
	fclose(f);
}

bool tasks_get(struct tasks *ts, int tid, int *tgid, char comm[16])
{
	struct task *t = tid > 0 ? find(ts, tid) : NULL;

	bool first;

	if (t) {
		*tgid = t->tgid;
		memcpy(comm, t->comm, 16);
		first = !t->asked;
		t->asked = true;
		return first;
	}
	*tgid = tid;
	strcpy(comm, tid ? "<...>" : "<idle>");
	if (!ts->lookup || tid <= 0)
		return tid > 0;
	lookup(ts, tid, tgid, comm);
	tasks_set(ts, tid, *tgid, comm);
	find(ts, tid)->asked = true;
	return true;
}

static struct tfield field_of(struct tep_event *ev, const char *name)
{
	struct tep_format_field *f = ev ? tep_find_field(ev, name) : NULL;

	return f ? (struct tfield){ f->offset, f->size } : (struct tfield){ 0, 0 };
}

int tasks_watch(struct tasks *ts, struct tep_handle *tep)
{
	struct tep_event *nt = tep_find_event_by_name(tep, "task", "task_newtask");
	struct tep_event *rn = tep_find_event_by_name(tep, "task", "task_rename");
	int n = 0;

	if (nt) {
		ts->nt_pid = field_of(nt, "pid");
		ts->nt_comm = field_of(nt, "comm");
		ts->nt_flags = field_of(nt, "clone_flags");
		if (ts->nt_pid.size == 4 && ts->nt_comm.size && ts->nt_flags.size == 8) {
			ts->newtask_id = nt->id;
			n++;
		}
	}
	if (rn) {
		/* pid: the renamed task (kernels that dropped it rename only current) */
		ts->rn_pid = field_of(rn, "pid");
		ts->rn_comm = field_of(rn, "newcomm");
		if (ts->rn_comm.size) {
			ts->rename_id = rn->id;
			n++;
		}
	}
	return n;
}

static bool fits(struct tfield f, int size)
{
	return f.size && f.off >= 0 && f.off + f.size <= size;
}

bool tasks_record(struct tasks *ts, int id, const void *data, int size, int tid)
{
	const char *rec = data;

	if (id < 0 || (id != ts->newtask_id && id != ts->rename_id))
		return false;
	if (id == ts->newtask_id) {
		int32_t pid;
		uint64_t flags;
		int tgid;
		char comm[16];

		if (!fits(ts->nt_pid, size) || !fits(ts->nt_comm, size) || !fits(ts->nt_flags, size))
			return true;
		memcpy(&pid, rec + ts->nt_pid.off, 4);
		memcpy(&flags, rec + ts->nt_flags.off, 8);
		/* a thread joins its creator's process; anything else is a process of its own */
		tgid = pid;
		if (flags & CLONE_THREAD_FLAG)
			tasks_get(ts, tid, &tgid, comm);
		if (pid > 0) {
			struct task *t = get_slot(ts, pid), *parent = find(ts, tid);

			t->tgid = tgid;
			t->asked = false;	/* a new task (maybe an old id) */
			t->fexec[0] = '\0';
			if (parent && fexec_rename(parent, rec + ts->nt_comm.off, ts->nt_comm.size)) {
				/* a child of a program fexecve named: it has the parent's name */
				memcpy(t->fexec, parent->fexec, sizeof(t->fexec));
				memcpy(t->comm, parent->comm, sizeof(t->comm));
			} else {
				set_comm(t, rec + ts->nt_comm.off, ts->nt_comm.size);
			}
		}
		return true;
	}
	/* task_rename: prctl(PR_SET_NAME), a write to /proc/TID/comm, an exec */
	if (!fits(ts->rn_comm, size))
		return true;
	{
		int32_t pid = tid;
		int tgid;
		char comm[16];

		if (fits(ts->rn_pid, size) && ts->rn_pid.size == 4)
			memcpy(&pid, rec + ts->rn_pid.off, 4);
		if (pid <= 0)
			return true;
		tasks_get(ts, pid, &tgid, comm);
		if (!fexec_rename(get_slot(ts, pid), rec + ts->rn_comm.off, ts->rn_comm.size))
			set_comm(get_slot(ts, pid), rec + ts->rn_comm.off, ts->rn_comm.size);
	}
	return true;
}
