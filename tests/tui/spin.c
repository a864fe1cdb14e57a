// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * spin.c - TUI test target, quiet: after DELAY_MS (-1: once it gets SIGUSR1) calls work()
 * COUNT times (0: forever) at RATE calls/s (0: flat out), other() every 10th call; then, with
 * a 4th argument, calls other() at RATE until killed. usage: spin COUNT [RATE [DELAY_MS [tail]]]
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static const char *names[] = { "alice", "bob", "carol", "\xc3\xa9mile \xe2\x9c\x93",
			       "esc\x1b[31mred", "dave" };

volatile long sink;
static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

__attribute__((noinline)) long work(int i, long value, const char *name)
{
	sink += value + name[0];
	return sink;
}

__attribute__((noinline)) int other(int x)
{
	sink -= x;
	return x * 2;
}

int main(int argc, char **argv)
{
	long count = argc > 1 ? atol(argv[1]) : 0;
	long rate = argc > 2 ? atol(argv[2]) : 100;
	long delay_ms = argc > 3 ? atol(argv[3]) : 0;
	struct timespec ts;

	if (delay_ms < 0) {
		sigset_t usr1, old;

		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		sigprocmask(SIG_BLOCK, &usr1, &old);
		signal(SIGUSR1, on_usr1);
		while (!go)
			sigsuspend(&old);
		sigprocmask(SIG_SETMASK, &old, NULL);
	} else if (delay_ms) {
		usleep(delay_ms * 1000);
	}
	for (long i = 0; !count || i < count; i++) {
		work((int)i, (i % 7) * 100 - 200, names[i % 6]);
		if (i % 10 == 0)
			other((int)i);
		if (rate > 0) {
			ts.tv_sec = 0;
			ts.tv_nsec = 1000000000L / rate;
			nanosleep(&ts, NULL);
		}
	}
	for (long i = 0; argc > 4; i++) {
		other((int)i);
		ts.tv_sec = 0;
		ts.tv_nsec = 1000000000L / (rate > 0 ? rate : 100);
		nanosleep(&ts, NULL);
	}
	return 0;
}
