// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ticks.c - a SIGPROF handler interrupting a loop of clock_gettime()/gettimeofday() calls,
 * which run in the vDSO, for tests/e2e/reach.sh: the stack of a probe in on_tick() (called
 * from the handler) goes through the signal frame (libc's __restore_rt) into the
 * interrupted code. The kernel's frame-pointer walk never shows a vDSO frame there: the
 * interrupted address is only in the signal frame, the walk continues at the caller's.
 *
 * usage: ticks [N]   N rounds of the loop (default 2000000); a tick every 200 us of CPU in it
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

volatile long ticks;

__attribute__((noinline)) void on_tick(int sig)
{
	ticks += sig;
}

static void handler(int sig)
{
	on_tick(sig);
}

int main(int argc, char **argv)
{
	struct itimerval it = { { 0, 200 }, { 0, 200 } };
	long n = argc > 1 ? atol(argv[1]) : 2000000, sum = 0;
	struct sigaction sa;
	struct timespec ts;
	struct timeval tv;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigaction(SIGPROF, &sa, NULL);
	setitimer(ITIMER_PROF, &it, NULL);
	for (long i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		gettimeofday(&tv, NULL);
		sum += ts.tv_nsec + tv.tv_usec;
	}
	/* no tick past the loop: crtstuff's exit code (deregister_tm_clones) has no CFI, and a
	 * stack interrupted there ends for want of it (once in 262 ticks under 6.12 and TCG) */
	setitimer(ITIMER_PROF, &(struct itimerval){ { 0, 0 }, { 0, 0 } }, NULL);
	printf("%ld %ld\n", sum & 1, ticks);
	return 0;
}
