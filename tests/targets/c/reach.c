// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * reach.c - code found only in less common ways, for tests/e2e/reach.sh:
 *  - scale_qty() exists only inlined (twice, with the factors 3 and 7): no symbol, no
 *    out-of-line copy; -F lists it marked "(inlined)" and each copy is a probe point;
 *  - pthread_kill is called by its current version (pthread_kill@@GLIBC_2.34) and by the
 *    old one programs linked before glibc 2.34 call (pthread_kill@GLIBC_2.2.5);
 *  - the SDT probe reach:callback passes a function pointer into this binary (by_qty) and
 *    one into libc (qsort, through a global the dynamic linker fills), for ':sym'.
 *
 * usage: reach [N]   N rounds (default 2), round k uses qty 5+k
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>

/* glibc before 2.34 kept pthread_kill in libpthread; its old version stays in libc */
extern int pthread_kill_old(pthread_t t, int sig);
#if defined(__aarch64__)
__asm__(".symver pthread_kill_old, pthread_kill@GLIBC_2.17");	/* arm64's first version */
#else
__asm__(".symver pthread_kill_old, pthread_kill@GLIBC_2.2.5");
#endif

static inline int scale_qty(int q, int f)
{
	if (q > 1000)
		q = 1000;
	return q * f + (q >> 2);
}

__attribute__((noinline)) int small_order(int q)
{
	return scale_qty(q, 3) + 1;
}

__attribute__((noinline)) int large_order(int q)
{
	return scale_qty(q, 7) - 1;
}

static int by_qty(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

void (*volatile sort_fn)(void *, size_t, size_t, int (*)(const void *, const void *)) = qsort;

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	int qty[3] = { 3, 1, 2 };
	long sum = 0;

	for (int k = 0; k < n; k++) {
		sum += small_order(5 + k) + large_order(6 + k);
		/* signal 0: checks the thread exists, sends nothing */
		sum += pthread_kill(pthread_self(), 0);
		sum += pthread_kill_old(pthread_self(), 0) * 2;
		DTRACE_PROBE3(reach, callback, by_qty, sort_fn, k);
		sort_fn(qty, 3, sizeof(qty[0]), by_qty);
	}
	printf("sum %ld %d\n", sum, qty[0]);
	return 0;
}
