// SPDX-License-Identifier: GPL-2.0-or-later
/* session.c - trace mode: private group and instance, stream, decode, render, clean exit */
#define LOG_DOMAIN "session"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "arch/arch.h"
#include "agg.h"
#include "callfields.h"
#include "checker.h"
#include "cmdexit.h"
#include "cmdhold.h"
#include "decode.h"
#include "dynfilter.h"
#include "fallback.h"
#include "log.h"
#include "metrics.h"
#include "parse.h"
#include "pfilter.h"
#include "place.h"
#include "procmaps.h"
#include "render.h"
#include "resolve.h"
#include "runas.h"
#include "regs.h"
#include "session.h"
#include "stream.h"
#include "summary.h"
#include "tracing.h"
#include "ustack.h"

#define DEFAULT_TICK_MS 100
#define FINAL_DRAIN_NS 5000000000ULL	/* give up draining after 5 s without progress */
/*
 * Per CPU: the kernel's default. A larger buffer slows the traced program: the kernel writes
 * its records round the whole buffer, which then no longer stays in the CPU's cache
 * (bench/stream-rate.sh, nobody reading, 1 thread: 4096 KB 1.10-1.14x slower than 1410 KB).
 * The drain wakes at half full and runs at real-time priority; the other half is plenty.
 */
#define DEFAULT_BUFFER_KB 1410

struct tp_batch {
	struct trace_probe *tps;
	size_t nr;
	bool owned;		/* from session_add_probe_text(): freed at the end */
};

struct session {
	const struct trace_opts *o;
	struct tracing *t;	/* the group and instance upfront_<pid> */
	struct tep_handle *tep;
	struct decoder *dc;
	struct stream *st;
	struct checker *checker;	/* events still there, -p alive, clock skew: a thread */
	struct render r;
	bool render_open;
	struct metrics *metrics;	/* --metrics, or NULL: counts beside the renderer */
	struct agg *agg;	/* --summary or the curses view: the aggregates, or NULL */
	struct pfilters *filters;	/* --filter */
	bool pf_events;		/* some are decided on decoded events (pfilters_pass()) */
	const char *end_why;	/* tracing ended by itself: why (the curses view stays) */
	bool pids_exited;	/* -p: the traced processes have exited */
	char end_buf[96];	/* end_why when it is made: the command's status */
	struct stream_stats final_ss;	/* the stream's, once hold_view() freed it */
	uint64_t cpu_at_stream;		/* this thread's CPU time (ns) when the stream opened */
	uint64_t start_ns;	/* when the probes were enabled: the summary's rates */
	uint64_t end_ns;	/* when tracing stopped (final_drain()), 0 before */
	uint64_t next_summary;	/* --interval: when the next summary is due */
	struct session_event *evs;
	size_t nr_evs, alloc_evs;
	struct strmap ev_index;	/* "sys/name" -> the index in evs of its last one */
	struct tp_batch *batches;
	size_t nr_batches, alloc_batches;
	uint64_t nr_events;
	uint64_t lost;
	bool stop;
	bool quiet;		/* max events reached or output gone: drain without rendering */
	bool write_failed;	/* the output failed (not a reader gone): CMD runs on, untraced */
	int status;
	pid_t child;
	bool child_exited;	/* seen ended (child_check()), not yet reaped */
	bool child_reaped;	/* child_wstatus is its waitpid() status */
	bool child_by_us;	/* upfront sent it SIGTERM: the session stopped first */
	int child_wstatus;
	int child_exited_ws;	/* child_check(): how it ended, when child_exited */
	bool unmapped_checked;	/* unmapped_check() has looked */
	const char *count_name;	/* deliver(): the last event's name and its index in evs */
	size_t count_idx;
	bool can_idle;		/* output to a file or pipe: decode at idle priority */
	bool idle;		/* decoding at SCHED_IDLE now */
	bool follow;		/* keep the traced processes' mappings (procmaps.h) */
	bool filter_wait;	/* a --filter on a dynamic type waits for CMD's files to be
				 * mapped (dynfilter.h): CMD is held until they are */
	bool held;		/* CMD is held (cmdhold.h): ptrace-stopped, ours to let go */
};

/*
 * Written by on_signal(), which runs on whichever thread the kernel picks (the drain thread
 * while decoding is idle and blocks the stop signals): lock-free atomics, safe both in a
 * signal handler and between threads (a volatile sig_atomic_t is only the former).
 */
static _Atomic int stop_signal;
static _Atomic int summary_signal;	/* SIGUSR1: print the summary so far */
static _Atomic pid_t idle_tid;		/* the decoding thread while at SCHED_IDLE, or 0 */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the signal handler needs lock-free atomics");

static void on_signal(int sig)
{
	int saved_errno = errno;	/* the interrupted code may be about to read it */
	pid_t tid;

	atomic_store(&stop_signal, sig);
	tid = atomic_load(&idle_tid);
	if (tid) {
		/*
		 * On the drain thread: give the decoder a CPU to stop with. One system call
		 * (no lock, no libc state), as safe here as the write(2) of the POSIX list.
		 */
		struct sched_param sp = { 0 };

		syscall(SYS_sched_setscheduler, tid, SCHED_OTHER, &sp);
	}
	errno = saved_errno;
}

static void on_summary_signal(int sig)
{
	(void)sig;
	atomic_store(&summary_signal, 1);
}

/* the session's probe group (tracing_group()) */
static const char *session_group(const struct session *s)
{
	return tracing_group(s->t);
}

/* from a table, not a scan: a glob whose points have other fields is an event per point */
static struct session_event *session_find(struct session *s, const char *sys, const char *name)
{
	char *key = xasprintf("%s/%s", sys, name);
	size_t *i = strmap_find(&s->ev_index, key);

	free(key);
	return i && !s->evs[*i].removed ? &s->evs[*i] : NULL;
}

/* @merged: (or NULL) the event a probe point NAME__K is shown as (fallback.h) */
static struct session_event *session_event_new(struct session *s, const char *sys,
					       const char *name, const char *merged)
{
	struct session_event *e;

	ALLOC_GROW(s->evs, s->nr_evs + 1, s->alloc_evs);
	e = &s->evs[s->nr_evs++];
	memset(e, 0, sizeof(*e));
	e->sys = xstrdup(sys);
	e->name = xstrdup(name);
	checker_add_event(s->checker, sys, name);	/* its index is the same */
	{
		char *key = xasprintf("%s/%s", sys, name);
		bool added;

		*strmap_add(&s->ev_index, key, 0, &added) = s->nr_evs - 1;
		free(key);
	}
	e->part = merged != NULL;
	e->merged = merged ? xstrdup(merged) : NULL;
	if (e->part)
		return e;	/* its events are the named event's */
	metrics_add_probe(s->metrics, name);
	if (s->agg)
		agg_find(s->agg, name, true);	/* the summary lists it, with 0 events */
	return e;
}

/* The event's format into the tep (for events added after the tep was loaded). */
static int tep_load_event(struct session *s, const char *sys, const char *name, struct diag *d)
{
	char *fmt;
	int size = 0;

	if (tep_find_event_by_name(s->tep, sys, name))
		return 0;
	fmt = tracing_event_format(sys, name, &size);
	if (!fmt)
		return diag_fail(d, "cannot read the format of %s:%s", sys, name);
	if (tep_parse_event(s->tep, fmt, size, sys)) {
		free(fmt);
		return diag_fail(d, "cannot parse the format of %s:%s", sys, name);
	}
	free(fmt);
	return 0;
}

/*
 * dyn_filter() - --filter with its comparisons of typeid() arguments with classes made
 * numeric, from the files the traced processes map (dynfilter.h); NULL in @out when it has
 * none. Until CMD is held with its libraries mapped, such a filter waits (filter_wait).
 */
static int dyn_filter(struct session *s, const struct trace_probe *tp, const char *user,
		      char **out, struct diag *d)
{
	const struct trace_opts *o = s->o;
	struct debuginfo *dbg = o->dbg;

	*out = NULL;
	if (!user || !tp || !dynfilter_wanted(user, tp))
		return 0;
	if (o->cmd && s->child <= 0) {
		s->filter_wait = true;
		return dynfilter_check(user, tp, d) ?: 1;
	}
	if (dbg && tp->path && strcmp(tp->path, debuginfo_path(dbg)))
		dbg = NULL;
	return dynfilter_rewrite(user, tp, dbg, s->child > 0 ? &s->child : o->pids,
				 s->child > 0 ? 1 : o->nr_pids, out, d);
}

static int write_filter(struct session *s, const char *sys, const char *name,
			const struct trace_probe *tp, struct diag *d)
{
	/* --filter's kernel parts for this probe, and the one a Go stack check's jbe needs */
	char *user = pfilters_kernel(s->filters, tp);
	char *dyn, *filter;
	int ret = dyn_filter(s, tp, user, &dyn, d);

	if (ret) {
		free(user);
		return ret < 0 ? ret : 0;
	}
	filter = place_event_filter(tp, dyn ? dyn : user);
	free(dyn);
	if (filter)
		ret = tracing_set_filter(s->t, sys, name, filter, d);
	if (ret < 0 && user)
		pfilters_kernel_hint(tp, user, d);
	free(filter);
	free(user);
	return ret;
}

/*
 * Add probes to uprobe_events in the session's group, teach the decoder, set the filter.
 * Enabling is separate (trace_run enables everything once the stream runs).
 */
/*
 * tracing_add(): the kernel is given the file upfront opened (/proc/PID/fd/N), except with
 * --keep, where the probes outlive us and get the binary's path, as -a does: the path must
 * still name that file before and after the write
 */
static int session_add_checked(struct session *s, struct trace_probe *tps, size_t nr,
			       struct diag *d)
{
	struct debuginfo *dbg = s->o->keep ? s->o->dbg : NULL;
	int ret;

	if (dbg && debuginfo_same_file(dbg, d) < 0)
		return -ESTALE;
	ret = tracing_add(s->t, tps, nr, d);
	if (!ret && dbg && debuginfo_same_file(dbg, d) < 0) {
		tracing_remove_probes(tps, nr);
		return -ESTALE;
	}
	return ret;
}

static int session_add_tps(struct session *s, struct trace_probe *tps, size_t nr, bool owned,
			   bool enable, struct diag *d)
{
	size_t first_new_ev = s->nr_evs;
	int ret;

	for (size_t i = 0; i < nr && s->o->stack; i++)
		ustack_add_fields(&tps[i], s->o->stack_copy);
	callfields_add(tps, nr, s->r.ops == &render_tui_ops);
	ret = session_add_checked(s, tps, nr, d);
	if (ret < 0)
		return ret;
	ALLOC_GROW(s->batches, s->nr_batches + 1, s->alloc_batches);
	s->batches[s->nr_batches++] = (struct tp_batch){ tps, nr, owned };
	for (size_t i = 0; i < nr; i++) {
		struct session_event *e = session_find(s, tps[i].group, tps[i].event);

		if (!e) {
			e = session_event_new(s, tps[i].group, tps[i].event, tps[i].merged);
			e->tp = &tps[i];
			ret = tep_load_event(s, tps[i].group, tps[i].event, d);
			if (ret < 0)
				return ret;
			ret = write_filter(s, tps[i].group, tps[i].event, &tps[i], d);
			if (ret < 0)
				return ret;
		}
		ret = decoder_add_probe(s->dc, &tps[i], d);
		if (ret < 0)
			return ret;
	}
	for (size_t i = first_new_ev; enable && i < s->nr_evs; i++) {
		ret = tracing_event_enable(s->t, s->evs[i].sys, s->evs[i].name, d);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int session_add_probe_text(struct session *s, const char *text, struct diag *d)
{
	const struct trace_opts *o = s->o;
	struct probe_spec spec;
	struct trace_probe *tps = NULL;
	size_t nr = 0, nr_evs = s->nr_evs;
	struct strmap batch;
	int ret;

	if (!s->t)
		return diag_error(d, SPAN_NONE, "tracing has ended: no probe can be added");
	memset(&spec, 0, sizeof(spec));
	if (!o->dbg || !o->ropts)
		return diag_error(d, SPAN_NONE, "no binary to resolve '%s' against", text);
	ret = parse_probe(text, &spec, d);
	if (ret == 0)
		ret = resolve_probe(&spec, o->dbg, o->ropts, &tps, &nr, NULL, d);
	probe_spec_release(&spec);
	if (ret < 0)
		return ret;
	/* a name already taken in the session gets _1, _2 ... (perf's way) */
	strmap_init(&batch, nr);
	for (size_t i = 0; i < nr; i++) {
		char *base = xstrdup(tps[i].event);
		bool added;

		/* a name an earlier point of this probe has is this probe's */
		for (int n = 1; session_find(s, session_group(s), tps[i].event) &&
				!strmap_find(&batch, tps[i].event); n++) {
			free(tps[i].event);
			tps[i].event = xasprintf("%s_%d", base, n);
		}
		strmap_add(&batch, tps[i].event, i, &added);
		free(base);
	}
	strmap_release(&batch);
	fallback_events(tps, nr, &o->ropts->kf);
	ret = session_add_tps(s, tps, nr, true, true, d);
	if (ret < 0) {
		/* take back what this call added */
		for (size_t i = nr_evs; i < s->nr_evs; i++) {
			decoder_remove(s->dc, s->evs[i].sys, s->evs[i].name);
			tracing_event_disable(s->t, s->evs[i].sys, s->evs[i].name);
			tracing_event_delete(s->t, s->evs[i].name);
			s->evs[i].removed = true;
			checker_forget_event(s->checker, i);
		}
		if (s->nr_batches && s->batches[s->nr_batches - 1].tps == tps)
			s->nr_batches--;
		trace_probes_free(tps, nr);
	}
	return ret;
}

int session_remove_event(struct session *s, const char *name, struct diag *d)
{
	const char *colon = strchr(name, ':');
	char *sys = colon ? xstrndup(name, colon - name) : xstrdup(session_group(s));
	struct session_event *e = session_find(s, sys, colon ? colon + 1 : name);

	free(sys);
	if (!e)
		return diag_error(d, SPAN_NONE, "no event '%s' in this session", name);
	if (!s->t)
		return diag_error(d, SPAN_NONE, "tracing has ended: the probes are removed");
	metrics_forget_probe(s->metrics, e->name);
	if (s->agg)
		agg_retire(s->agg, e->name);
	for (size_t i = 0; i < s->nr_evs; i++) {
		struct session_event *x = &s->evs[i];

		/* the event and the points the kernel got as events of their own */
		if (x->removed || (x != e && (!x->part || strcmp(x->sys, e->sys) ||
					      strcmp(x->merged, e->name))))
			continue;
		decoder_remove(s->dc, x->sys, x->name);
		tracing_event_disable(s->t, x->sys, x->name);
		if (!x->generic && !s->o->keep)
			tracing_event_delete(s->t, x->name);
		x->removed = true;
		checker_forget_event(s->checker, i);
	}
	return 0;
}

size_t session_nr_events(const struct session *s)
{
	return s->nr_evs;
}

const struct session_event *session_event(const struct session *s, size_t i)
{
	return i < s->nr_evs && !s->evs[i].part ? &s->evs[i] : NULL;
}

void session_counters(const struct session *s, uint64_t *events, uint64_t *lost)
{
	struct stream_stats ss;

	stream_stats(s->st, &ss);
	if (events)
		*events = s->nr_events;
	if (lost)
		*lost = ss.lost;
}

/*
 * -e SYS:EVENT (or SYS/EVENT) as it is, and the points of SYS:EVENT a kernel without
 * multi-probe events got as events EVENT__2 ... (upfront -a: fallback.h) under its name
 */
static int add_extra_event(struct session *s, const char *spec, struct diag *d)
{
	const char *sep = strpbrk(spec, ":/");
	struct strlist parts = STRLIST_INIT;
	char *sys, *name;
	struct session_event *e;
	int ret = 0;

	if (!sep || sep == spec || !sep[1])
		return diag_error(d, SPAN_NONE, "-e wants SYS:EVENT, not '%s'", spec);
	sys = xstrndup(spec, sep - spec);
	name = xstrdup(sep + 1);
	if (!tracing_event_exists(sys, name)) {
		ret = diag_error(d, SPAN_NONE, "no tracefs event %s:%s", sys, name);
		diag_hint(d, "see /sys/kernel/tracing/available_events");
		goto out;
	}
	tracing_event_parts(sys, name, &parts);
	for (size_t i = 0; ret == 0 && i <= parts.nr; i++) {
		const char *ev = i ? parts.v[i - 1] : name;

		ret = tep_load_event(s, sys, ev, d);
		/* an event -a put on Go's stack check (place.h) shows each call once here too */
		if (ret == 0 && tep_find_any_field(tep_find_event_by_name(s->tep, sys, ev),
						   PLACE_FLAGS_FIELD)) {
			char *filter = place_go_split_filter();

			ret = tracing_set_filter(s->t, sys, ev, filter, d);
			free(filter);
		}
		if (ret == 0)
			ret = decoder_add_generic(s->dc, sys, ev, name, d);
		if (ret == 0) {
			e = session_event_new(s, sys, ev, i ? name : NULL);
			e->generic = true;
		}
	}
	strlist_release(&parts);
out:
	free(sys);
	free(name);
	return ret;
}

/*
 * Where CMD's stdin, stdout and stderr go: left as they are; all to /dev/null (the curses view
 * owns the terminal); or stdout to upfront's stderr (the events go to upfront's stdout, which
 * is a pipe or a file: CMD's own output must not land inside the event lines).
 */
enum cmd_stdio { CMD_STDIO_KEEP, CMD_STDIO_NULL, CMD_STDOUT_TO_STDERR };

/* in the child, before exec: set up its stdin, stdout and stderr as @how says */
static void cmd_stdio_setup(enum cmd_stdio how)
{
	int nul;

	if (how == CMD_STDOUT_TO_STDERR) {
		dup2(STDERR_FILENO, STDOUT_FILENO);
		return;
	}
	if (how != CMD_STDIO_NULL)
		return;
	nul = open("/dev/null", O_RDWR);
	if (nul >= 0) {
		dup2(nul, STDIN_FILENO);
		dup2(nul, STDOUT_FILENO);
		dup2(nul, STDERR_FILENO);
		if (nul > STDERR_FILENO)
			close(nul);
	}
}

/*
 * --stack: the kernel reports the mappings of @pid and its children from now on, so frames of
 * a process that exited before its events were decoded are still named (procmaps.h)
 */
static void follow_maps(pid_t pid)
{
	struct diag d;

	diag_init(&d, NULL);
	if (procmaps_follow(pid, &d) < 0)
		pr_info("%s: frames of exited processes may stay unnamed", d.msg ? d.msg : "?");
	diag_release(&d);
}

/*
 * fork CMD stopped before exec until go_fd gets a byte; exec errors come back on err_fd;
 * @hold: it is to be held after exec (cmdhold.h)
 */
static pid_t spawn_cmd(char **cmd, int cmd_fd, const struct run_as *ra, enum cmd_stdio how,
		       bool hold, int *go_fd, int *err_fd, struct diag *d)
{
	int go[2], err[2], *own = NULL;
	size_t nr_own;
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		diag_fail(d, "pipe: %s", strerror(errno));
		return -1;
	}
	nr_own = run_as_own_fds(&own);	/* listed now: the child may only make system calls */
	pid = fork();
	if (pid < 0) {
		free(own);
		diag_fail(d, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		char c;
		int e;

		close(go[1]);
		close(err[0]);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		if (read(go[0], &c, 1) != 1)
			_exit(127);	/* the session gave up before starting us */
		cmd_stdio_setup(how);
		run_as_seal_fds(own, nr_own);	/* none of upfront's files */
		/* as the user who ran sudo, or -u USER (resolved before the fork: syscalls here) */
		e = -run_as_apply(ra);
		if (!e && hold)
			e = -cmdhold_child();
		if (!e) {
			if (cmd_fd >= 0)
				fexecve(cmd_fd, cmd, environ);
			else
				execvp(cmd[0], cmd);
			e = errno;
		}
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	free(own);
	close(go[0]);
	close(err[1]);
	*go_fd = go[1];
	*err_fd = err[0];
	return pid;
}

/*
 * The instance's per-CPU ring buffer: DEFAULT_BUFFER_KB (the drain wakes at half full, the
 * rest absorbs its latency), or UPFRONT_BUFFER_KB (main.c checks it; tests use a tiny one to
 * provoke lost events).
 */
static unsigned long buffer_kb(const struct trace_opts *o)
{
	return o->buffer_kb ? o->buffer_kb : DEFAULT_BUFFER_KB;
}

/* arg_in_maps() - @a may be a word into any object of the process (dynname.h) */
static bool arg_in_maps(const struct trace_arg *a)
{
	if (a->kind == VK_SYM || (a->kind == VK_TYPENAME && a->dyn_word == DYN_CXX_VPTR))
		return true;
	for (int k = 0; k < a->nr_guards && k < TRACE_ARG_MAX_GUARDS; k++)
		if (a->guard_class[k])
			return true;
	return false;
}

/*
 * wants_maps() - --stack, a ':sym' value, which may point into a shared library (a callback
 * into libc), or a C++ dynamic type, whose vtable may be in any object the process maps:
 * named from the process's mappings, also after it exited
 */
static bool wants_maps(const struct trace_opts *o, const struct trace_probe *tps, size_t nr)
{
	for (size_t i = 0; i < nr && !o->stack; i++)
		for (size_t j = 0; j < tps[i].nr_args; j++)
			if (arg_in_maps(&tps[i].args[j]))
				return true;
	return o->stack;
}

/*
 * Label each event by what its task was when it fired: the kernel's task events, enabled in
 * the session's tasks instance (filtered by its pids as the probes are; a ring of their own,
 * so that the events' ring loses only events), go through the stream in time order with the
 * probes' records (tasks.h). A kernel without them: /proc as before.
 */
static void watch_tasks(struct session *s)
{
	static const char *const evs[] = { "task_newtask", "task_rename" };
	struct diag d;

	diag_init(&d, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(evs); i++) {
		if (!tracing_event_exists("task", evs[i]) ||
		    tep_load_event(s, "task", evs[i], &d) < 0 ||
		    tracing_watch_task(s->t, "task", evs[i], &d) < 0)
			pr_info("no task:%s: labels of reused thread ids may be wrong", evs[i]);
		diag_release(&d);
	}
	decoder_watch_tasks(s->dc);
}

static int session_setup(struct session *s, struct trace_probe *tps, size_t nr, struct diag *d)
{
	const struct trace_opts *o = s->o;
	int ret, stack_id = 0;

	s->t = tracing_new(buffer_kb(o), o->keep, d);
	if (!s->t)
		return -EIO;
	s->checker = checker_new(s->t);

	/*
	 * Formats are loaded per event as they are added (tep_load_event); walking every
	 * system of tracefs would cost ~75 ms. The header page tells the record layout.
	 */
	s->tep = tep_alloc();
	if (!s->tep)
		return diag_fail(d, "out of memory");
	tep_set_long_size(s->tep, sizeof(long));
	tep_set_page_size(s->tep, getpagesize());
	{
		int size = 0;
		char *hp = tracing_header_page(&size);

		if (hp)
			tep_parse_header_page(s->tep, hp, size, sizeof(long));
		free(hp);
	}
	s->dc = decoder_new(s->tep, o->dbg, true);
	watch_tasks(s);
	if (o->stack && (!o->stack_copy || !regs_frame()->nr)) {
		/* a user_stack record (8 frame-pointer frames) after each event */
		ret = tracing_enable_user_stacks(s->t, d);
		if (ret < 0)
			return ret;
		ret = tep_load_event(s, "ftrace", "user_stack", d);
		if (ret < 0)
			return ret;
		stack_id = decoder_enable_stacks(s->dc, d);
		if (stack_id < 0)
			return stack_id;
	}

	for (size_t i = 0; i < o->nr_extra_events; i++) {
		ret = add_extra_event(s, o->extra_events[i], d);
		if (ret < 0)
			return ret;
	}
	if (nr) {
		ret = session_add_tps(s, tps, nr, false, false, d);
		if (ret < 0)
			return ret;
	}
	s->follow = wants_maps(o, tps, nr);
	if (o->nr_pids) {
		ret = tracing_set_pids(s->t, o->pids, o->nr_pids, true, d);
		if (ret < 0)
			return ret;
		for (size_t i = 0; s->follow && i < o->nr_pids; i++)
			follow_maps(o->pids[i]);
	}
	/* UPFRONT_QUEUE_PAGES: a small queue for tests of a decoder that falls behind */
	s->st = stream_open(s->t, s->tep, o->queue_pages, d);
	if (!s->st)
		return -EIO;
	s->cpu_at_stream = thread_cpu_ns();
	if (stack_id > 0)
		stream_set_attach(s->st, stack_id);
	return 0;
}

/* The renderer of each mode main.c sets (--stdio, --json, ...); a new one goes here too. */
static const struct render_ops *const renderers[] = {
	[RENDER_TEXT] = &render_text_ops,
	[RENDER_JSON] = &render_json_ops,
	[RENDER_TUI] = &render_tui_ops,
};

/* RENDER_AUTO: the curses view when the output (stdout, or -o FILE) is a terminal, else text */
static const struct render_ops *pick_renderer(enum render_mode mode, int fd)
{
	if ((size_t)mode < ARRAY_SIZE(renderers) && renderers[mode])
		return renderers[mode];
	return isatty(fd) ? &render_tui_ops : &render_text_ops;
}

/*
 * The renderer's output: stdout, or -o FILE (created or truncated). A pipe or socket gets
 * line-aligned writes of at most PIPE_BUF bytes (render_flush()).
 */
static int open_output(struct session *s, struct diag *d)
{
	struct stat st;

	s->r.fd = STDOUT_FILENO;
	if (s->o->output) {
		char *who;

		/*
		 * Under sudo, as the user who typed it: their rights, their file, their
		 * symbolic links followed with their rights (root would truncate any file a
		 * link in their directory names). 0600, as perf.data: events hold whatever
		 * the traced processes had in memory.
		 */
		s->r.fd = run_as_invoker_open(s->o->output, O_WRONLY | O_CREAT | O_TRUNC |
					      O_CLOEXEC, 0600, &who, d);
		if (s->r.fd == -EINVAL && diag_has_error(d))
			return -EINVAL;
		if (s->r.fd < 0) {
			int err = -s->r.fd;

			diag_error(d, SPAN_NONE, "cannot write -o %s%s%s: %s", s->o->output,
				   who ? " as " : "", who ? who : "", strerror(err));
			free(who);
			return -err;
		}
		free(who);
	}
	s->r.atomic_lines = fstat(s->r.fd, &st) == 0 &&
			    (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
	return 0;
}

/* where CMD's output goes (enum cmd_stdio) */
static enum cmd_stdio cmd_stdio_for(const struct session *s)
{
	if (s->r.ops->owns_terminal)
		return CMD_STDIO_NULL;
	if (s->r.fd == STDOUT_FILENO && !isatty(STDOUT_FILENO))
		return CMD_STDOUT_TO_STDERR;
	return CMD_STDIO_KEEP;
}

/* The output is a pipe whose reader has gone (| head -3 finished). */
static bool output_gone(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	return poll(&p, 1, 0) > 0 && (p.revents & POLLERR);
}

static void child_check(struct session *s)
{
	siginfo_t si;

	if (s->child <= 0 || s->child_exited)
		return;
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, s->child, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid) {
		/* its status as waitpid() will give it (child_wstatus is set at the reap) */
		s->child_exited_ws = si.si_code == CLD_EXITED ? (si.si_status & 0xff) << 8 :
				     (si.si_status & 0x7f) | (si.si_code == CLD_DUMPED ? 0x80 : 0);
		s->child_exited = true;
		s->stop = true;
		if (si.si_code == CLD_EXITED)
			snprintf(s->end_buf, sizeof(s->end_buf), "the command exited with status %d",
				 si.si_status & 0xff);
		else
			snprintf(s->end_buf, sizeof(s->end_buf), "the command was killed by signal "
				 "%d (%s)", si.si_status & 0x7f, strsignal(si.si_status & 0x7f));
		s->end_why = s->end_buf;
	}
}

/*
 * -p: stop once every traced process has exited (the checker's thread looks, checker.h): the
 * processes in the instance's set_event_pid, which holds the children they fork; with
 * --no-inherit the processes named with -p.
 */
static void pids_check(struct session *s)
{
	if (!s->o->nr_pids || s->child > 0 || !checker_pids_exited(s->checker))
		return;
	s->stop = true;
	s->pids_exited = true;
	s->end_why = s->o->nr_pids > 1 ? "every traced process has exited" :
		     "the traced process has exited";
}

/*
 * Decoding and output at SCHED_IDLE (@idle) or back at normal priority. Writing to a file or
 * pipe, the session decodes at idle priority while the workload keeps the CPUs busy: the
 * drain thread (normal priority) moves the kernel's sub-buffers into the bounded queue, and
 * the decoder runs in the gaps and catches up when the workload pauses or ends.
 */
static void set_idle(struct session *s, bool idle)
{
	struct sched_param sp = { 0 };
	sigset_t stops;

	if (s->idle == idle || (idle && atomic_load(&stop_signal)))
		return;
	/*
	 * At idle priority this thread may wait long for a CPU: the stop signals go to the
	 * drain thread instead (stream_open()), whose handler puts this one back.
	 */
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	if (!idle) {
		stream_boost_at_half(s->st, 0);
		atomic_store(&idle_tid, 0);
		pthread_sigmask(SIG_UNBLOCK, &stops, NULL);
		/* pid 0: this thread only (the drain thread keeps its own priority) */
		if (sched_setscheduler(0, SCHED_OTHER, &sp) < 0)
			pr_debug("sched_setscheduler: %s", strerror(errno));
		/*
		 * Catching up, at nice -10 where allowed (root): at nice 0 on a loaded
		 * machine (load 17 on 2 CPUs) the decoder's fair share, though it needs
		 * ~0.23 us a event against the workload's ~1 us a hit, let the 64 MiB queue
		 * fill and lose 3% of 1 M events. A thread's nice value is its own (Linux).
		 */
		if (setpriority(PRIO_PROCESS, (id_t)gettid(), -10) < 0)
			pr_debug("cannot raise the decoder's priority: %s", strerror(errno));
		s->idle = false;
		return;
	}
	/*
	 * Announce the thread before lowering it, and look for a stop signal after: a signal
	 * either finds idle_tid set (its handler raises us back, maybe before we lower
	 * ourselves) or came first, and then we see it here and undo it.
	 */
	pthread_sigmask(SIG_BLOCK, &stops, NULL);
	atomic_store(&idle_tid, (pid_t)gettid());
	if (sched_setscheduler(0, SCHED_IDLE, &sp) < 0) {
		pr_debug("sched_setscheduler: %s", strerror(errno));
		atomic_store(&idle_tid, 0);
		pthread_sigmask(SIG_UNBLOCK, &stops, NULL);
		return;
	}
	s->idle = true;
	stream_boost_at_half(s->st, (pid_t)gettid());
	if (atomic_load(&stop_signal))
		set_idle(s, false);
}

/*
 * Decode at idle priority unless the queue is half full: then compete for the CPU (slowing
 * the workload rather than leaving events in the kernel's buffer to be lost), until the
 * backlog is down to a quarter.
 */
static void adjust_priority(struct session *s)
{
	unsigned int backlog;

	if (!s->can_idle)
		return;
	backlog = stream_backlog(s->st);
	/* the drain thread (stream_boost_at_half()) or a stop signal may have raised us */
	if (s->idle && (backlog >= 500 || sched_getscheduler(0) != SCHED_IDLE))
		set_idle(s, false);
	else if (!s->idle && backlog < 250)
		set_idle(s, true);
}

/*
 * Writing the events failed (@err, a -errno): stop. A reader gone (EPIPE: | head -3) ends
 * the session quietly, as it ends CMD; any other error (a full disk) is said at once, in one
 * line, the session stops with status 1, and every event from here on counts as lost (the
 * summary). CMD is not ended for it: it runs on untraced and upfront waits for it.
 */
static void output_failed(struct session *s, int err)
{
	s->quiet = true;
	s->stop = true;
	if (err == -EPIPE || s->write_failed)
		return;
	s->write_failed = true;
	s->status = 1;
	fprintf(stderr, "upfront: cannot write the events to %s: %s; tracing stopped%s\n",
		s->o->output ? s->o->output : "stdout", strerror(-err),
		s->child > 0 && !s->child_exited ? ", the command runs on untraced" : "");
}

/* --no-inherit: @tgid is CMD or a process of -p */
static bool traced_tgid(const struct session *s, int tgid)
{
	if (s->child > 0)
		return tgid == s->child;
	for (size_t i = 0; i < s->o->nr_pids; i++)
		if (s->o->pids[i] == tgid)
			return true;
	return false;
}

static int deliver(struct session *s, const struct stream_rec *rec)
{
	struct event ev;
	int ret;

	if (s->quiet && !s->write_failed)
		return 0;	/* drained, not shown */
	/* not 0: not an event to show (a task event, tasks.h; a record to skip) */
	if (decode_record(s->dc, rec->data, rec->size, rec->ts, rec->cpu, &ev) != 0)
		return 0;
	if (s->quiet) {
		/* counted, as the events the failed write lost */
		s->nr_events++;
		s->r.unwritten++;
		return 0;
	}
	if (s->o->no_inherit && !traced_tgid(s, ev.pid))
		return 0;	/* --no-inherit: a child the kernel follows, not asked for */
	if (s->pf_events && !pfilters_pass(s->filters, &ev))
		return 0;	/* --filter 'duration ...', or a return whose entry was filtered */
	/* the stack once the event is kept: symbolizing is the costly part of decoding */
	if (s->o->stack)
		decode_stack(s->dc, rec->attach, rec->attach_size, &ev);
	if (!s->r.t0)
		s->r.t0 = ev.ts ? ev.ts : 1;
	if (s->agg)
		agg_event(s->agg, &ev);
	ret = s->o->summary_only ? 0 : s->r.ops->event(&s->r, &ev);
	if (s->metrics)
		metrics_event(s->metrics, &ev);
	/* ev.probe is the decoder's string for the event: the same pointer every time */
	if (ev.probe != s->count_name || s->count_idx >= s->nr_evs ||
	    s->evs[s->count_idx].removed) {
		s->count_name = NULL;
		for (size_t i = 0; i < s->nr_evs; i++) {
			if (!s->evs[i].removed && !strcmp(s->evs[i].name, ev.probe)) {
				s->count_name = ev.probe;
				s->count_idx = i;
				break;
			}
		}
	}
	if (s->count_name)
		s->evs[s->count_idx].count++;
	s->nr_events++;
	if (ret < 0) {
		output_failed(s, ret);
		return ret;
	}
	if (ret & RENDER_QUIT)
		s->stop = true;
	if (s->o->max_events && s->nr_events >= s->o->max_events) {
		s->quiet = true;
		s->stop = true;
		s->end_why = "--max-events reached";
	}
	return 0;
}

/* @rec->lost events were lost on @rec->cpu: tell the renderer (unless quiet) and the metrics */
static void deliver_lost(struct session *s, const struct stream_rec *rec)
{
	if (s->agg)
		agg_lost(s->agg, rec->lost);
	if (!s->quiet && !s->o->summary_only)
		s->r.ops->lost(&s->r, rec->cpu, rec->lost);
	if (s->metrics)
		metrics_lost(s->metrics, rec->cpu, rec->lost);
}

static int render_tick(struct session *s)
{
	int ret;

	if (s->quiet)
		return 0;
	ret = s->r.ops->tick ? s->r.ops->tick(&s->r) : 0;
	if (ret < 0) {
		output_failed(s, ret);
	} else if (ret & RENDER_QUIT) {
		s->stop = true;
	}
	return ret;
}

/*
 * The end's counts: the events and the lost on standard error, then why any were lost
 * (stream_lost_why(); scripts read the first line as it is); with -v the stream's and the
 * decoding thread's costs (bench/stream-rate.sh reads "events/s per core").
 */
static void print_counts(const struct session *s, const struct stream_stats *ss)
{
	double secs = (thread_cpu_ns() - s->cpu_at_stream) / 1e9;

	pr_info("%llu sub-buffers, %llu bytes, queue full %llu times",
		(unsigned long long)ss->pages, (unsigned long long)ss->bytes,
		(unsigned long long)ss->queue_full);
	if (s->cpu_at_stream)
		pr_info("decoding: %llu events in %.3f s of CPU, %.0f events/s per core",
			(unsigned long long)s->nr_events, secs, secs > 0 ? s->nr_events / secs : 0);
	if (!s->render_open)
		return;
	if (s->write_failed)
		fprintf(stderr, "upfront: %llu events, %llu lost (%llu not written)\n",
			(unsigned long long)(s->nr_events - s->r.unwritten),
			(unsigned long long)(ss->lost + s->r.unwritten),
			(unsigned long long)s->r.unwritten);
	else
		fprintf(stderr, "upfront: %llu events, %llu lost\n",
			(unsigned long long)s->nr_events, (unsigned long long)ss->lost);
	if (ss->lost) {
		struct strbuf why = STRBUF_INIT;

		stream_lost_why(ss, buffer_kb(s->o), &why);
		fprintf(stderr, "upfront: %s\n", strbuf_cstr(&why));
		strbuf_release(&why);
	}
	/* not events: the task records have a ring of their own (tracing_watch_task()) */
	if (ss->lost_tasks)
		fprintf(stderr, "upfront: %llu of the kernel's task records lost: threads started "
			"or renamed then may be shown with a wrong process or name\n",
			(unsigned long long)ss->lost_tasks);
}

/* Every exit path: stop recording, drain what the kernel holds, render it. */
static void final_drain(struct session *s)
{
	uint64_t give_up = 0;	/* set while nothing comes */

	s->end_ns = now_ns();
	set_idle(s, false);
	tracing_off(s->t);
	/*
	 * The session ended first: end CMD too, now, not after the backlog is shown (which
	 * may take seconds while CMD runs on untraced)
	 */
	if (s->child > 0 && !s->child_exited && !s->write_failed) {
		kill(s->child, SIGTERM);
		s->child_by_us = true;
	}
	stream_finish(s->st);
	for (;;) {
		struct stream_rec rec;
		enum stream_what w = stream_next(s->st, &rec, 50);

		if (w == STREAM_END)
			break;
		if (w == STREAM_RECORD)
			deliver(s, &rec);
		else if (w == STREAM_LOST)
			deliver_lost(s, &rec);
		/* showing the backlog may take longer: give up only when nothing comes */
		if (w != STREAM_IDLE) {
			give_up = 0;
		} else if (!give_up) {
			give_up = now_ns() + FINAL_DRAIN_NS;
		} else if (now_ns() > give_up) {
			pr_warn("gave up draining the ring buffers");
			break;
		}
	}
}

/*
 * A probed file (-x LIB) that the traced processes have not mapped after 3 s without an
 * event: its probes cannot fire there (lua5.4 links Lua statically: -x liblua5.4.so.0 sees
 * nothing). Said once, instead of a silent "0 events".
 */
static void unmapped_check(struct session *s, uint64_t elapsed_ns)
{
	const pid_t *pids = s->child > 0 ? &s->child : s->o->pids;
	size_t npids = s->child > 0 ? 1 : s->o->nr_pids;
	const char *last = NULL;

	if (s->unmapped_checked || elapsed_ns < 3000000000ULL || s->nr_events || !npids)
		return;
	s->unmapped_checked = true;
	for (size_t b = 0; b < s->nr_batches; b++) {
		for (size_t i = 0; i < s->batches[b].nr; i++) {
			const char *path = s->batches[b].tps[i].path;
			bool seen = false;

			if (!path || (last && !strcmp(last, path)))
				continue;
			last = path;
			for (size_t k = 0; k < npids && !seen; k++)
				seen = procmaps_tree_maps(pids[k], path) != 0;
			if (!seen)
				pr_warn("%s is not mapped by the traced process%s (pid %d) after 3 s: "
					"its probes cannot fire there (a program with its own copy of "
					"the code is probed with -x PROGRAM)", path,
					npids > 1 ? "es" : "", (int)pids[0]);
		}
	}
}

/*
 * Our events are still there: another process may delete a live session's events (upfront -d
 * with the session's exact group name). Tracing on without them would report "0 lost" for
 * calls it never saw; say so at once and stop with status 1.
 */
static void events_check(struct session *s)
{
	if (!checker_events_changed(s->checker))
		return;
	for (size_t i = 0; i < s->nr_evs; i++) {
		if (!checker_event_gone(s->checker, i) || s->evs[i].removed)
			continue;
		fprintf(stderr, "upfront: event %s:%s was removed from tracefs by another process "
			"(upfront -d?): its calls are no longer seen; stopping\n", s->evs[i].sys,
			s->evs[i].name);
		s->evs[i].removed = true;
		s->status = 1;
		s->stop = true;
	}
}

/*
 * The summary so far (SIGUSR1, --interval) or at exit: after the events, to the same output
 * (JSON with --json); the curses view's goes to stdout once the view has closed.
 */
static void print_summary(struct session *s, bool final)
{
	/* the time traced: up to the end of tracing, not of the view that stayed after it */
	struct summary_opts so = { .span_ns = (s->end_ns ? s->end_ns : now_ns()) - s->start_ns,
				   .top = s->o->top, .final = final };
	struct strbuf *sb = &s->r.out;
	int ret, fd = s->r.fd;

	if (!s->agg || (s->quiet && !final) || s->write_failed)
		return;
	if (s->r.ops == &render_tui_ops) {
		if (!final)
			return;	/* the view has its statistics (s) */
		s->r.fd = STDOUT_FILENO;
	}
	if (s->r.ops == &render_json_ops)
		summary_json(s->agg, &so, sb);
	else
		summary_text(s->agg, &so, sb);
	ret = render_flush(&s->r);
	s->r.fd = fd;
	if (ret < 0)
		output_failed(s, ret);
}

/* SIGUSR1 or --interval: a summary is due */
static void summary_check(struct session *s, uint64_t now)
{
	bool due = atomic_exchange(&summary_signal, 0);

	if (s->o->interval > 0 && now >= s->next_summary) {
		due = true;
		s->next_summary = now + (uint64_t)(s->o->interval * 1e9);
	}
	if (due)
		print_summary(s, false);
}

static void main_loop(struct session *s)
{
	unsigned int tick_ms = s->r.ops->tick_ms ? s->r.ops->tick_ms : DEFAULT_TICK_MS;
	uint64_t start = now_ns(), next_tick = start + tick_ms * 1000000ULL;
	uint64_t deadline = s->o->duration > 0 ? start + (uint64_t)(s->o->duration * 1e9) : 0;
	uint64_t next_check = 0;
	unsigned int n = 0;

	if (s->o->nr_pids && s->child <= 0)
		checker_watch_pids(s->checker, s->o->pids, s->o->nr_pids, !s->o->no_inherit);
	checker_set_stream(s->checker, s->st);
	checker_start(s->checker);
	s->can_idle = !s->r.ops->owns_terminal && !isatty(s->r.fd);
	adjust_priority(s);
	while (!s->stop) {
		struct stream_rec rec;
		enum stream_what w;
		uint64_t now;
		int wait_ms = s->r.input_fd >= 0 ? 20 : 50;

		/* output waiting in the buffer: see first whether more is pending (flush if not) */
		if (s->r.out.len && s->r.input_fd < 0)
			wait_ms = 0;

		w = stream_next(s->st, &rec, wait_ms);
		if (w == STREAM_RECORD)
			deliver(s, &rec);
		else if (w == STREAM_LOST)
			deliver_lost(s, &rec);
		else if (w == STREAM_END)
			break;
		if (atomic_load_explicit(&stop_signal, memory_order_relaxed)) {
			pr_info("signal %d: stopping", atomic_load(&stop_signal));
			s->stop = true;
		}
		if (w != STREAM_IDLE && (++n & 63))
			continue;
		/* every 64 events or when idle: the clock; every 5 ms: the child, the queue */
		now = now_ns();
		if (w != STREAM_IDLE && now < next_check &&
		    (s->r.input_fd < 0 || now < next_tick))
			continue;
		next_check = now + 5000000ULL;
		if (deadline && now >= deadline) {
			s->stop = true;
			s->end_why = "--duration reached";
		}
		child_check(s);
		pids_check(s);
		events_check(s);
		summary_check(s, now);
		unmapped_check(s, now - start);
		adjust_priority(s);
		if (w == STREAM_IDLE && (s->r.ops == &render_text_ops ||
					 s->r.ops == &render_json_ops)) {
			/* nothing pending: show what we have */
			if (render_tick(s) < 0)
				break;
		}
		if (s->r.input_fd >= 0) {
			struct pollfd p = { .fd = s->r.input_fd, .events = POLLIN };

			if (poll(&p, 1, 0) > 0)
				next_tick = now;
		}
		if (now >= next_tick) {
			next_tick = now + tick_ms * 1000000ULL;
			render_tick(s);
			if (s->r.fd >= 0 && output_gone(s->r.fd)) {
				s->quiet = true;
				s->stop = true;
			}
		}
	}
	/* before the stream and tracefs go: the thread uses both */
	checker_free(s->checker);
	s->checker = NULL;
	final_drain(s);
}

/*
 * The curses view stays once tracing ended by itself (CMD or the -p processes exited,
 * --duration, --max-events): the probes are removed first (an enabled uprobe costs every
 * process that hits it); the view keeps its events and statistics until q or a signal.
 */
static void hold_view(struct session *s)
{
	unsigned int tick_ms = s->r.ops->tick_ms ? s->r.ops->tick_ms : DEFAULT_TICK_MS;

	if (!s->end_why || !s->r.ops->ended || s->write_failed || atomic_load(&stop_signal))
		return;
	stream_stats(s->st, &s->final_ss);
	stream_free(s->st);
	s->st = NULL;
	tracing_free(s->t);
	s->t = NULL;
	s->r.ops->ended(&s->r, s->end_why);
	while (!atomic_load(&stop_signal)) {
		struct pollfd p = { .fd = s->r.input_fd, .events = POLLIN };
		int ret;

		poll(&p, s->r.input_fd >= 0, tick_ms);
		ret = s->r.ops->tick(&s->r);
		if (ret < 0 || (ret & RENDER_QUIT))
			break;
	}
}

/* waitpid() for CMD; its status kept in the session */
static pid_t child_wait(struct session *s, int flags)
{
	pid_t r = waitpid(s->child, &s->child_wstatus, flags);

	if (r == s->child)
		s->child_reaped = true;
	return r;
}

/* Let CMD exec (it waits for a byte on @go_fd); its exec's errno comes back on @err_fd. */
static int cmd_exec(struct session *s, int go_fd, int err_fd, struct diag *d)
{
	const struct trace_opts *o = s->o;
	int e = 0, ret;

	if (write(go_fd, "g", 1) == 1 && read(err_fd, &e, sizeof(e)) != sizeof(e))
		return 0;
	if (o->run_as && o->run_as->set)
		ret = diag_error(d, SPAN_NONE, "cannot run %s as %s: %s", o->cmd[0],
				 o->run_as->name, strerror(e ? e : EIO));
	else
		ret = diag_error(d, SPAN_NONE, "cannot run %s: %s", o->cmd[0], strerror(e ? e : EIO));
	waitpid(s->child, NULL, 0);
	s->child = -1;
	return ret;
}

/*
 * CMD has exec'd: hold it once its libraries are mapped (cmdhold.h) and write the filters that
 * waited for their addresses; trace_run() lets it go once the events are enabled.
 */
static int hold_filters(struct session *s, struct diag *d)
{
	int ret = cmdhold_wait(s->child, d);

	s->held = !ret;
	for (size_t i = 0; !ret && i < s->nr_evs; i++) {
		const struct session_event *e = &s->evs[i];

		if (!e->generic && !e->removed && e->tp)
			ret = write_filter(s, e->sys, e->name, e->tp, d);
	}
	return ret;
}

/* Wait for CMD: SIGTERM, and SIGKILL after a second. */
static void child_reap(struct session *s)
{
	if (s->child <= 0)
		return;
	/* the output failed: CMD was not ended for it (output_failed()); wait unless a signal */
	while (s->write_failed && !s->child_exited && !atomic_load(&stop_signal)) {
		if (child_wait(s, 0) == s->child)
			return;
		if (errno != EINTR)
			break;
	}
	if (s->child_exited) {
		child_wait(s, 0);
		return;
	}
	kill(s->child, SIGTERM);	/* again: it may have been started late */
	s->child_by_us = true;
	for (int i = 0; i < 100 && child_wait(s, WNOHANG) == 0; i++)
		usleep(10000);
	if (!s->child_reaped && child_wait(s, WNOHANG) == 0) {
		kill(s->child, SIGKILL);
		child_wait(s, 0);
	}
}

/*
 * Say how CMD ended, in one line. When it ended the session (it exited first), upfront's exit
 * status is the command's (its exit status, or 128 + the signal), as a shell would give it;
 * when the session stopped first (limits, a signal to upfront, an error), upfront's own.
 */
static void child_report(struct session *s)
{
	struct strbuf sb = STRBUF_INIT;

	/* a clean exit (status 0) needs no word */
	if (s->child <= 0 || !s->child_reaped ||
	    (WIFEXITED(s->child_wstatus) && !WEXITSTATUS(s->child_wstatus)))
		return;
	cmdexit_describe(&sb, s->o->cmd[0], s->child, s->child_wstatus, s->child_by_us);
	fprintf(stderr, "upfront: %s\n", sb.buf);
	strbuf_release(&sb);
	if (!s->status && !s->child_by_us && !atomic_load(&stop_signal))
		s->status = cmdexit_code(s->child_wstatus);
}

/* Free what the session holds in memory (tracefs is tracing_free()'s). */
static void session_release(struct session *s)
{
	decoder_free(s->dc);
	if (s->tep)
		tep_free(s->tep);
	for (size_t i = 0; i < s->nr_batches; i++)
		if (s->batches[i].owned)
			trace_probes_free(s->batches[i].tps, s->batches[i].nr);
	free(s->batches);
	for (size_t i = 0; i < s->nr_evs; i++) {
		free(s->evs[i].sys);
		free(s->evs[i].name);
		free(s->evs[i].merged);
	}
	free(s->evs);
	strmap_release(&s->ev_index);
	strbuf_release(&s->r.out);
	free(s->r.ends);
	metrics_free(s->metrics);	/* stops serving */
	agg_free(s->agg);
	pfilters_free(s->filters);
}

/*
 * Before anything is installed: a bad --metrics-label, a port in use, a filter for no probe or
 * for a field it lacks change nothing.
 */
static int session_check(struct session *s, struct trace_probe *tps, size_t nr, struct diag *d)
{
	const struct trace_opts *o = s->o;
	int ret;

	if (o->metrics) {
		ret = o->metrics->label ? metrics_check_label(o->metrics->label, tps, nr,
							      o->extra_events,
							      o->nr_extra_events, d) : 0;
		if (ret < 0)
			return ret;
		s->metrics = metrics_new(o->metrics, d);
		if (!s->metrics)
			return -EINVAL;
	}
	s->filters = pfilters_new(o->filters, o->nr_filters, d);
	if (!s->filters || pfilters_check(s->filters, tps, nr, d) < 0)
		return -EINVAL;
	s->pf_events = pfilters_wants_events(s->filters);
	return 0;
}

/* the CMD we started is named after its file (fexecve's "3" before 6.14 too: tasks.h) */
static void name_child(struct session *s, const struct trace_opts *o)
{
	const char *base = strrchr(o->cmd[0], '/');

	decoder_set_task(s->dc, s->child, s->child, base ? base + 1 : o->cmd[0]);
	if (o->cmd_is_dbg)
		decoder_task_fexec(s->dc, s->child, debuginfo_fd(o->dbg));
}

int trace_run(const struct trace_opts *o, struct trace_probe *tps, size_t nr, struct diag *d)
{
	struct session sess, *s = &sess;
	struct sigaction sa, old_int, old_term, old_hup, old_pipe, old_usr1;
	int go_fd = -1, err_fd = -1, ret;
	struct stream_stats ss;

	memset(s, 0, sizeof(*s));
	strmap_init(&s->ev_index, 16);
	s->o = o;
	s->child = -1;
	s->r.fd = -1;
	s->r.input_fd = -1;
	s->r.opts = (struct render_opts){ .stack = o->stack, .ring_size = o->ring_size,
					  .dbg = o->dbg, .ropts = o->ropts };
	s->r.ctl = (struct render_ctl){ s, session_add_probe_text, session_remove_event,
					session_nr_events, session_event, session_counters };
	strbuf_init(&s->r.out);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	atomic_store(&stop_signal, 0);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	sa.sa_handler = on_summary_signal;
	atomic_store(&summary_signal, 0);
	sigaction(SIGUSR1, &sa, &old_usr1);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &old_pipe);

	ret = session_check(s, tps, nr, d);
	if (ret < 0)
		goto out;
	ret = open_output(s, d);
	if (ret < 0)
		goto out;
	s->r.ops = pick_renderer(o->mode, s->r.fd);
	if (o->summary_only && s->r.ops == &render_tui_ops)
		s->r.ops = &render_text_ops;	/* no view: the summary goes to stdout */
	if (o->summary || o->summary_only || s->r.ops == &render_tui_ops)
		s->r.agg = s->agg = agg_new();
	ret = session_setup(s, tps, nr, d);
	if (ret < 0)
		goto out;
	if (o->cmd) {
		s->child = spawn_cmd(o->cmd, o->cmd_is_dbg ? debuginfo_fd(o->dbg) : -1, o->run_as,
				     cmd_stdio_for(s), s->filter_wait, &go_fd, &err_fd, d);
		if (s->child < 0) {
			ret = -EIO;
			goto out;
		}
		ret = tracing_set_pids(s->t, &s->child, 1, false, d);
		if (ret < 0)
			goto out;
		if (s->follow)
			follow_maps(s->child);	/* before it execs: every mapping is seen */
		name_child(s, o);
		/* a filter on a dynamic type: CMD execs now, held before any code of it runs */
		if (s->filter_wait && ((ret = cmd_exec(s, go_fd, err_fd, d)) < 0 ||
				       (ret = hold_filters(s, d)) < 0))
			goto out;
	}
	ret = s->r.ops->open(&s->r);
	if (ret < 0) {
		diag_fail(d, "cannot start the %s view: %s", s->r.ops->name, strerror(-ret));
		goto out;
	}
	s->render_open = true;
	/* enable in our instance only, then start recording */
	for (size_t i = 0; i < s->nr_evs; i++) {
		ret = tracing_event_enable(s->t, s->evs[i].sys, s->evs[i].name, d);
		if (ret < 0)
			goto out;
	}
	tracing_on(s->t);
	s->start_ns = now_ns();
	s->next_summary = s->start_ns + (uint64_t)(o->interval * 1e9);
	if (s->held) {
		/* probes are live: let CMD run on */
		cmdhold_release(s->child);
		s->held = false;
	} else if (s->child > 0 && (ret = cmd_exec(s, go_fd, err_fd, d)) < 0) {
		goto out;	/* probes are live: let CMD exec */
	}
	main_loop(s);
	hold_view(s);
	ret = 0;
out:
	if (s->held) {
		kill(s->child, SIGKILL);	/* it never ran: the session failed */
		cmdhold_release(s->child);
	}
	if (go_fd >= 0)
		close(go_fd);	/* a child still waiting exits */
	if (err_fd >= 0)
		close(err_fd);
	/* the command ended the session other than by status 0: said in the output too */
	if (s->render_open && s->child_exited && !s->child_by_us && s->r.ops->cmd_end &&
	    !s->quiet && s->child_exited_ws)
		s->r.ops->cmd_end(&s->r, s->child, o->cmd[0], s->child_exited_ws);
	if (s->render_open && s->r.ops->close)
		s->r.ops->close(&s->r);
	if (s->render_open && ret >= 0 && (o->summary || o->summary_only))
		print_summary(s, true);
	if (s->r.write_err && s->r.write_err != EPIPE)
		output_failed(s, -s->r.write_err);	/* the last write: said, if not yet */
	if (s->st)
		stream_stats(s->st, &ss);
	else
		ss = s->final_ss;	/* hold_view() freed it */
	if (s->render_open && s->pids_exited)
		fprintf(stderr, "upfront: %s (pid %d%s)\n", s->end_why, (int)o->pids[0],
			o->nr_pids > 1 ? ", ..." : "");
	print_counts(s, &ss);
	checker_free(s->checker);	/* a session that failed before main_loop() */
	s->checker = NULL;
	stream_free(s->st);
	if (ret < 0)
		tracing_unkeep(s->t);	/* --keep keeps a session that traced, not a failed one */
	tracing_free(s->t);	/* after the stream: its open files keep the instance busy */
	s->t = NULL;
	child_reap(s);
	if (ret >= 0)
		child_report(s);
	if (s->r.fd > STDERR_FILENO)
		close(s->r.fd);
	session_release(s);
	procmaps_stop();
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	sigaction(SIGUSR1, &old_usr1, NULL);
	if (ret < 0)
		return d->exit_code ? d->exit_code : 1;
	return s->status;
}
