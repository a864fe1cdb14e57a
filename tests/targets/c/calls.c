// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * calls.c - target for trace mode's output and durations (tests/e2e/output.sh, durations.sh)
 *
 *   calls flood N        N calls of tick(i), each followed by a line on stdout (block-buffered
 *                        into a pipe: its writes end anywhere in a line)
 *   calls walk N         walk(n) recurses like fib (walk(n-1), walk(n-2)) and returns n:
 *                        2*fib(N+1)-1 calls, nested up to N deep
 *   calls down N         down(n) recurses N deep in a line, returns n (deeper than the
 *                        kernel's 64 pending return probes per thread)
 *   calls nest N         N times outer(): middle() twice, each inner() three times
 *   calls threads T N    T threads, N calls each of job(id, usec) (id = thread*1000 + call;
 *                        it sleeps usec = (thread + 1) * 1000 + call * 100, returns id)
 *   calls loop N MS      walk(N) every MS milliseconds until killed (tests that attach -p)
 *   calls forks N        N child processes one after the other, each calls spawned(i) once
 *                        and exits (tests/e2e/labels.sh: fork-heavy programs)
 *   calls reuse          a thread named "worker" calls spawned(1) and exits; then children are
 *                        forked until one gets the thread's id (asked for with ns_last_pid,
 *                        else after pid_max ids): it names itself "reuser" and calls
 *                        spawned(2); prints "calls: reuse tid T pid P after N forks, M ms in a
 *                        pid filter" (P: this process)
 *   calls family N MS [now]  walk(N) every MS milliseconds until killed; on SIGUSR1 (or at
 *                        once with "now") forks a child that calls walk(N + 1) every MS
 *                        milliseconds until killed, and prints "child PID"
 *   calls exit N         tick(N), then exit with status N (tests/e2e/cmd-exit.sh)
 *   calls raise N        tick(N), then kill itself with signal N
 *   calls copy N         copies the first 64 bytes of pure() (position-independent) to a new
 *                        executable page and calls the copy with N, prints "calls: copy
 *                        returned R": probed, the copy holds the probe's int3 (SIGTRAP)
 *   calls text S         said(S) with S as given (any bytes: tests/e2e/text-escapes.sh), then
 *                        bytes(S, S, S, S): the same pointer as uint8_t *, unsigned char *,
 *                        signed char * and char * (tests/e2e/shown.sh)
 */
#define _GNU_SOURCE
#include <glob.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define NOINLINE __attribute__((noinline, noclone))

volatile long sink;

NOINLINE long tick(long i)
{
	sink += i;
	return sink;
}

NOINLINE long walk(long n)
{
	if (n >= 2) {
		sink += walk(n - 1);
		sink += walk(n - 2);
	}
	return n;
}

NOINLINE long down(long n)
{
	if (n > 0)
		sink += down(n - 1);
	return n;
}

NOINLINE long inner(long k)
{
	for (volatile int i = 0; i < 1000; i++)
		sink += k;
	return k;
}

NOINLINE long middle(long k)
{
	for (long i = 0; i < 3; i++)
		sink += inner(k * 10 + i);
	return k;
}

NOINLINE long outer(long k)
{
	sink += middle(k * 10);
	sink += middle(k * 10 + 1);
	return k;
}

NOINLINE long job(long id, long usec)
{
	struct timespec ts = { usec / 1000000, usec % 1000000 * 1000 };

	nanosleep(&ts, NULL);
	sink += id;
	return id;
}

NOINLINE long spawned(long id)
{
	sink += id;
	return sink;
}

NOINLINE long said(const char *s)
{
	sink += (long)strlen(s);
	return sink;
}

NOINLINE long bytes(const uint8_t *u8p, const unsigned char *ucp, const signed char *scp,
		    const char *cp)
{
	sink += u8p[0] + ucp[0] + scp[0] + cp[0];
	return sink;
}

/* no memory access, no call: runs the same at any address */
NOINLINE long pure(long x)
{
	return x * 3 + 1;
}

static int run_copy(long n)
{
	long (*copy)(long);
	void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (page == MAP_FAILED)
		return 2;
	memcpy(page, (const void *)pure, 64);
	__builtin___clear_cache((char *)page, (char *)page + 64);
	copy = (long (*)(long))page;
	printf("calls: copy returned %ld\n", copy(n));
	return 0;
}

static int run_forks(long n)
{
	for (long i = 0; i < n; i++) {
		pid_t p = fork();

		if (p == 0) {
			spawned(i);
			_exit(0);
		}
		if (p < 0)
			return 2;
		waitpid(p, NULL, 0);
	}
	return 0;
}

static void *worker_main(void *arg)
{
	prctl(PR_SET_NAME, "worker");
	*(pid_t *)arg = gettid();
	spawned(1);
	return NULL;
}

/* set_last_pid() - make @pid - 1 the last id handed out, so the next fork gets @pid if it is
 * free (root: /proc/sys/kernel/ns_last_pid); 0, or -1 when the file cannot be written */
static int set_last_pid(pid_t pid)
{
	FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "w");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%d", (int)pid - 1) > 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* listed() - whether a tracefs pid filter (set_event_pid, top level or an instance's) holds @pid */
static bool listed(pid_t pid)
{
	static const char *const pats[] = { "/sys/kernel/tracing/set_event_pid",
		"/sys/kernel/tracing/instances/*/set_event_pid" };
	bool found = false;
	glob_t g;

	for (size_t i = 0; i < sizeof(pats) / sizeof(pats[0]) && !found; i++) {
		if (glob(pats[i], 0, NULL, &g) != 0)
			continue;
		for (size_t j = 0; j < g.gl_pathc && !found; j++) {
			FILE *f = fopen(g.gl_pathv[j], "r");
			int p;

			while (f && !found && fscanf(f, "%d", &p) == 1)
				found = p == pid;
			if (f)
				fclose(f);
		}
		globfree(&g);
	}
	return found;
}

static int run_reuse(void)
{
	pthread_t th;
	pid_t tid = 0;
	bool rewind = true;
	int waited = 0;

	pthread_create(&th, NULL, worker_main, &tid);
	pthread_join(th, NULL);
	/*
	 * A traced run's pid filter (set_event_pid, event-fork) drops an exited task's id when
	 * the task is freed, an RCU grace period after the id can be handed out again (since
	 * Linux 5.9): a child that got the id before that is dropped with it and its events are
	 * lost (seen under 5.10 and TCG). Wait until no filter holds the thread's id (60 s).
	 */
	while (waited < 6000 && listed(tid)) {
		usleep(10000);
		waited++;
	}
	if (waited == 6000)
		fprintf(stderr, "calls: tid %d still in a pid filter after 60 s\n", (int)tid);
	/*
	 * The thread's id goes to the next fork after the id before it was made the last one
	 * (its id is freed a moment after the join: retried). Without ns_last_pid, ids are
	 * handed out in turn up to pid_max, then again from 300: at most 2 rounds (16,384 forks
	 * outlasted minutes in a qemu TCG guest).
	 */
	for (long i = 0; i < 10 * 1000 * 1000; i++) {
		pid_t p;

		if (rewind && set_last_pid(tid) < 0) {
			perror("calls: ns_last_pid (forking through pid_max instead)");
			rewind = false;
		}
		p = fork();
		if (p == 0) {
			if (getpid() == tid) {
				prctl(PR_SET_NAME, "reuser");
				spawned(2);
			}
			_exit(0);
		}
		if (p < 0) {
			usleep(1000);
			continue;
		}
		waitpid(p, NULL, 0);
		if (p == tid) {
			printf("calls: reuse tid %d pid %d after %ld forks, %d ms in a pid filter\n",
			       (int)tid, (int)getpid(), i + 1, waited * 10);
			return 0;
		}
	}
	return 1;
}

static long per_thread;
static volatile sig_atomic_t fork_now;

static void on_usr1(int sig)
{
	(void)sig;
	fork_now = 1;
}

static void *thread_main(void *arg)
{
	long t = (long)arg;

	for (long i = 0; i < per_thread; i++)
		job(t * 1000 + i, (t + 1) * 1000 + i * 100);
	return NULL;
}

static int run_threads(long nr, long n)
{
	pthread_t th[64];

	if (nr < 1 || nr > 64)
		return 2;
	per_thread = n;
	for (long t = 0; t < nr; t++)
		pthread_create(&th[t], NULL, thread_main, (void *)t);
	for (long t = 0; t < nr; t++)
		pthread_join(th[t], NULL);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "walk";
	long n = argc > 2 ? atol(argv[2]) : 10;

	if (!strcmp(mode, "flood")) {
		for (long i = 0; i < n; i++) {
			tick(i);
			printf("calls: flood line %ld {\"not\":\"an event\"} filling the pipe\n", i);
		}
	} else if (!strcmp(mode, "walk")) {
		walk(n);
	} else if (!strcmp(mode, "down")) {
		down(n);
	} else if (!strcmp(mode, "nest")) {
		for (long i = 1; i <= n; i++)
			outer(i);
	} else if (!strcmp(mode, "loop") || !strcmp(mode, "family")) {
		long ms = argc > 3 ? atol(argv[3]) : 100;
		struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

		bool family = !strcmp(mode, "family"), forked = false;

		if (family && argc > 4)
			fork_now = 1;
		else if (family)
			signal(SIGUSR1, on_usr1);
		for (;;) {
			if (fork_now && !forked) {
				pid_t child = fork();

				forked = true;
				if (child == 0)
					n++;
				else
					printf("child %d\n", (int)child);
				fflush(stdout);
			}
			walk(n);
			nanosleep(&ts, NULL);
		}
	} else if (!strcmp(mode, "exit")) {
		tick(n);
		fflush(stdout);
		exit((int)n);
	} else if (!strcmp(mode, "raise")) {
		tick(n);
		fflush(stdout);
		signal((int)n, SIG_DFL);
		kill(getpid(), (int)n);
		return 2;
	} else if (!strcmp(mode, "text")) {
		const char *t = argc > 2 ? argv[2] : "";

		said(t);
		bytes((const uint8_t *)t, (const unsigned char *)t, (const signed char *)t, t);
	} else if (!strcmp(mode, "copy")) {
		if (run_copy(n))
			return 2;
	} else if (!strcmp(mode, "forks")) {
		if (run_forks(n))
			return 2;
	} else if (!strcmp(mode, "reuse")) {
		if (run_reuse())
			return 2;
	} else if (!strcmp(mode, "threads")) {
		if (run_threads(n, argc > 3 ? atol(argv[3]) : 5))
			return 2;
	} else {
		fprintf(stderr, "usage: calls flood|walk|down|nest|threads|loop|family|forks|reuse|exit|raise|copy|text N [N]\n");
		return 2;
	}
	fflush(stdout);	/* before the line on stderr, which may be the same file */
	fprintf(stderr, "calls: %s %ld done, sink %ld\n", mode, n, sink);
	return 0;
}
