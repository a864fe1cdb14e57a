// SPDX-License-Identifier: GPL-2.0-or-later
/* checker.c - a session's slow checks on a thread of their own, off the decoding path */
#define LOG_DOMAIN "checker"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "checker.h"
#include "log.h"
#include "stream.h"
#include "tracing.h"
#include "util.h"

struct checked_event {
	char *sys, *name;
	bool forgotten;		/* removed by the session itself */
	bool gone;		/* found missing */
	bool reported;		/* checker_event_gone() said so */
};

struct checker {
	struct tracing *t;
	pthread_t thread;
	bool started;
	pthread_mutex_t lock;	/* everything below but the stream */
	pthread_cond_t wake;	/* checker_free(): stop now */
	bool stop;
	struct checked_event *evs;
	size_t nr_evs, alloc_evs;
	_Atomic bool changed;	/* an event was found gone since checker_events_changed() */
	pid_t *pids;
	size_t nr_pids;
	bool from_instance;
	_Atomic bool pids_exited;
	pthread_mutex_t st_lock;	/* held while the skew is measured */
	struct stream *st;
};

struct checker *checker_new(struct tracing *t)
{
	struct checker *c = xcalloc(1, sizeof(*c));
	pthread_condattr_t ca;

	c->t = t;
	pthread_mutex_init(&c->lock, NULL);
	pthread_mutex_init(&c->st_lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c->wake, &ca);
	pthread_condattr_destroy(&ca);
	return c;
}

void checker_free(struct checker *c)
{
	if (!c)
		return;
	if (c->started) {
		pthread_mutex_lock(&c->lock);
		c->stop = true;
		pthread_cond_signal(&c->wake);
		pthread_mutex_unlock(&c->lock);
		pthread_join(c->thread, NULL);
	}
	for (size_t i = 0; i < c->nr_evs; i++) {
		free(c->evs[i].sys);
		free(c->evs[i].name);
	}
	free(c->evs);
	free(c->pids);
	pthread_cond_destroy(&c->wake);
	pthread_mutex_destroy(&c->st_lock);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

size_t checker_add_event(struct checker *c, const char *sys, const char *name)
{
	struct checked_event *e;
	size_t i;

	if (!c)
		return 0;
	pthread_mutex_lock(&c->lock);
	ALLOC_GROW(c->evs, c->nr_evs + 1, c->alloc_evs);
	i = c->nr_evs++;
	e = &c->evs[i];
	memset(e, 0, sizeof(*e));
	e->sys = xstrdup(sys);
	e->name = xstrdup(name);
	pthread_mutex_unlock(&c->lock);
	return i;
}

void checker_forget_event(struct checker *c, size_t i)
{
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	if (i < c->nr_evs)
		c->evs[i].forgotten = true;
	pthread_mutex_unlock(&c->lock);
}

bool checker_event_gone(struct checker *c, size_t i)
{
	bool gone = false;

	pthread_mutex_lock(&c->lock);
	if (i < c->nr_evs && c->evs[i].gone && !c->evs[i].reported) {
		c->evs[i].reported = true;
		gone = true;
	}
	pthread_mutex_unlock(&c->lock);
	return gone;
}

bool checker_events_changed(struct checker *c)
{
	return atomic_exchange(&c->changed, false);
}

void checker_watch_pids(struct checker *c, const pid_t *pids, size_t nr, bool from_instance)
{
	pthread_mutex_lock(&c->lock);
	free(c->pids);
	c->pids = nr ? xmalloc(nr * sizeof(*pids)) : NULL;
	if (nr)
		memcpy(c->pids, pids, nr * sizeof(*pids));
	c->nr_pids = nr;
	c->from_instance = from_instance;
	pthread_mutex_unlock(&c->lock);
}

bool checker_pids_exited(struct checker *c)
{
	return atomic_load(&c->pids_exited);
}

void checker_set_stream(struct checker *c, struct stream *st)
{
	pthread_mutex_lock(&c->st_lock);
	c->st = st;
	pthread_mutex_unlock(&c->st_lock);
}

/* /proc/PID/stat: the process exists and is no zombie */
static bool pid_running(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == EACCES;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* comm may hold anything, the state follows its ')' */
	return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

/*
 * Some process of @pids runs; with @from_instance those in the instance's set_event_pid (the
 * kernel drops each task from it as it exits and adds the children it forks, with event-fork)
 */
static bool pids_running(struct tracing *t, const pid_t *pids, size_t nr, bool from_instance)
{
	pid_t *set = NULL;
	ssize_t n;
	bool running = false;

	if (!from_instance) {
		for (size_t i = 0; i < nr && !running; i++)
			running = pid_running(pids[i]);
		return running;
	}
	n = tracing_pids(t, &set);
	if (n < 0)
		return true;	/* set_event_pid unreadable: cannot tell, keep tracing */
	for (ssize_t i = 0; i < n && !running; i++)
		running = pid_running(set[i]);
	free(set);
	return running;
}

/* One round of checks; called and returns with c->lock held, which the slow parts drop. */
static void check_once(struct checker *c)
{
	size_t nr = c->nr_evs, nr_pids = c->nr_pids;
	bool *present = xcalloc(nr ? nr : 1, sizeof(*present));
	struct checked_event *snap = xmalloc((nr ? nr : 1) * sizeof(*snap));
	pid_t *pids = nr_pids ? xmalloc(nr_pids * sizeof(*pids)) : NULL;
	bool from_instance = c->from_instance, running = true;

	/* names are never freed before checker_free(): the copies may point at them */
	memcpy(snap, c->evs, nr * sizeof(*snap));
	if (nr_pids)
		memcpy(pids, c->pids, nr_pids * sizeof(*pids));
	pthread_mutex_unlock(&c->lock);

	for (size_t i = 0; i < nr; i++)
		present[i] = snap[i].forgotten || snap[i].gone ||
			     tracing_event_present(c->t, snap[i].sys, snap[i].name);
	if (nr_pids && !atomic_load(&c->pids_exited))
		running = pids_running(c->t, pids, nr_pids, from_instance);
	pthread_mutex_lock(&c->st_lock);
	if (c->st)
		stream_clock_skew(c->st);
	pthread_mutex_unlock(&c->st_lock);

	pthread_mutex_lock(&c->lock);
	for (size_t i = 0; i < nr; i++) {
		if (present[i] || c->evs[i].forgotten || c->evs[i].gone)
			continue;
		c->evs[i].gone = true;
		atomic_store(&c->changed, true);
	}
	if (!running && nr_pids == c->nr_pids)
		atomic_store(&c->pids_exited, true);
	free(present);
	free(snap);
	free(pids);
}

static void *checker_main(void *arg)
{
	struct checker *c = arg;

	pthread_mutex_lock(&c->lock);
	while (!c->stop) {
		struct timespec ts;
		uint64_t until;

		check_once(c);
		until = now_ns() + CHECKER_EVERY_MS * 1000000ULL;
		ts.tv_sec = (time_t)(until / 1000000000ULL);
		ts.tv_nsec = (long)(until % 1000000000ULL);
		while (!c->stop && pthread_cond_timedwait(&c->wake, &c->lock, &ts) != ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

int checker_start(struct checker *c)
{
	sigset_t all, old;
	int ret;

	if (c->started)
		return 0;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&c->thread, NULL, checker_main, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		pr_warn("cannot start the checks' thread: %s", strerror(ret));
		return -ret;
	}
	c->started = true;
	return 0;
}
