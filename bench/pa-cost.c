// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pa-cost.c - the workload for bench/pa-cost.sh: pa_target(long, unsigned long,
 * void *, const char *) built -O0, called N times on one thread.
 *
 * The machine is shared: wall time there measures the other engineers' load as much as the
 * probe. So besides wall ns/call it prints the thread's own CPU time per call (the probe's
 * breakpoint, fetch-args and ring-buffer write run in the thread's context and are counted
 * there, interrupts it takes too; time it waits for a CPU is not), and the 10th percentile and
 * median of the wall ns/call of batches of 1,000 calls (most batches are not preempted).
 * Output on stderr: "WALL CPU BATCH_P10 BATCH_MEDIAN", ns per call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BATCH 1000

volatile long sink;

long pa_target(long a, unsigned long b, void *c, const char *s)
{
	return a + (long)b + (c != 0) + s[0];
}

static double now(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, nb = n / BATCH;
	double *bt, w0, c0, b0, w1, c1;

	if (nb < 1)
		nb = 1;
	n = nb * BATCH;
	bt = calloc(nb, sizeof(*bt));
	if (!bt)
		return 1;
	w0 = b0 = now(CLOCK_MONOTONIC);
	c0 = now(CLOCK_THREAD_CPUTIME_ID);
	for (long i = 0, k = 0; i < n; i++) {
		sink += pa_target(i, 2 * i, (void *)&sink, "hello");
		if ((i + 1) % BATCH == 0) {
			double b1 = now(CLOCK_MONOTONIC);

			bt[k++] = (b1 - b0) / BATCH;
			b0 = b1;
		}
	}
	w1 = now(CLOCK_MONOTONIC);
	c1 = now(CLOCK_THREAD_CPUTIME_ID);
	qsort(bt, nb, sizeof(*bt), cmp);
	fprintf(stderr, "%.1f %.1f %.1f %.1f\n", (w1 - w0) / n, (c1 - c0) / n, bt[nb / 10],
		bt[nb / 2]);
	free(bt);
	return 0;
}
