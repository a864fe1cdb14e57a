// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inlined.c - a function called from two always_inline helpers that -O2 inlines into main:
 * the return address in main lies in both inlined scopes (tests/e2e/stack-inline.sh)
 *
 * usage: inlined [N [MS]]  - calls leaf N times (default 2), MS milliseconds apart (default 0)
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* noipa: no clone, no inlining, the call stays a call */
__attribute__((noipa)) int leaf(int x)
{
	return x * 3 + 1;
}

static inline __attribute__((always_inline)) int inner(int x)
{
	return leaf(x + 1) + 2;
}

static inline __attribute__((always_inline)) int outer(int x)
{
	return inner(x * 2) - 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2, ms = argc > 2 ? atoi(argv[2]) : 0, s = 0;

	for (int i = 0; i < n; i++) {
		s += outer(i);
		if (ms)
			usleep(ms * 1000);
	}
	printf("%d\n", s);
	return 0;
}
