// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stack-cost.c - bench/stack-cost.sh's workload: leaf() called CALLS times from DEPTH frames of
 * -O2 code without frame pointers; prints the calling thread's CPU time per call in ns
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* its first instruction a nop, which the kernel emulates: the probe alone costs ~1 us */
__attribute__((noinline)) long leaf(long x)
{
	__asm__ volatile("nop" : "+r"(x));
	return x * 3 + 1;
}

__attribute__((noinline)) static long down(int depth, long calls)
{
	long s = 0;

	if (depth > 0) {
		s = down(depth - 1, calls);
		__asm__ volatile("" : "+r"(s));	/* not a tail call: each frame stays */
		return s + 1;
	}
	for (long i = 0; i < calls; i++)
		s += leaf(i);
	return s;
}

static double thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 100000;
	int depth = argc > 2 ? atoi(argv[2]) : 8;
	double t0 = thread_ns();
	long s = down(depth, calls);

	printf("%.1f %ld\n", (thread_ns() - t0) / calls, s & 1);
	return 0;
}
