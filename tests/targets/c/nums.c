// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nums.c - target for numbers that are easy to show wrong: 128-bit integers, complex numbers,
 * infinities and NaN, a NULL char * beside a pointer into unmapped memory, and doubles that
 * arrive in xmm registers (a gauge whose set() stores the value's bits, as Prometheus's
 * client_golang does). tests/targets/README.md lists the calls.
 */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct wide {
	__int128 s;
	unsigned __int128 u;
	double _Complex z;
	float _Complex zf;
	double inf, ninf, nan;
	long zero;
	long *unread;		/* points at an address that is never mapped */
	long *nul;
	const char *service;	/* NULL, as getaddrinfo()'s service often is */
};

struct gauge {
	uint64_t bits;
	const char *name;
};

static volatile long sink;

/* reads every field, so that -O2 keeps the stores to them (ipa-modref drops the rest) */
__attribute__((noinline, noclone)) int wide(struct wide *w, __int128 a, unsigned __int128 b)
{
	__int128 h = a / 3 + (__int128)(b / 5) + w->s / 7 + (__int128)(w->u / 11);

	h += (__int128)(creal(w->z) + cimag(w->z) + crealf(w->zf) + cimagf(w->zf));
	h += isinf(w->inf) + isinf(w->ninf) + isnan(w->nan) + w->zero;
	h += (w->unread != NULL) + (w->nul != NULL) + (w->service != NULL);
	return (int)(h % 1000);
}

/* getaddrinfo()'s first two parameters */
__attribute__((noinline, noclone)) int lookup(const char *node, const char *service)
{
	return (node ? (int)strlen(node) : 0) + (service ? (int)strlen(service) : 0);
}

/* the value's bits are stored as client_golang's gauge.Set stores them */
__attribute__((noinline, noclone)) void gauge_set(struct gauge *g, double val)
{
	uint64_t bits;

	memcpy(&bits, &val, sizeof(bits));
	__atomic_store_n(&g->bits, bits, __ATOMIC_SEQ_CST);
}

__attribute__((noinline, noclone)) void gauge_add(struct gauge *g, double val)
{
	uint64_t old, new;
	double f;

	do {
		old = __atomic_load_n(&g->bits, __ATOMIC_SEQ_CST);
		memcpy(&f, &old, sizeof(f));
		f += val;
		memcpy(&new, &f, sizeof(new));
	} while (!__atomic_compare_exchange_n(&g->bits, &old, new, 0, __ATOMIC_SEQ_CST,
					      __ATOMIC_SEQ_CST));
}

__attribute__((noinline, noclone)) double gauge_value(struct gauge *g)
{
	uint64_t bits = __atomic_load_n(&g->bits, __ATOMIC_SEQ_CST);
	double f;

	memcpy(&f, &bits, sizeof(f));
	return f;
}

/* a double that never leaves xmm registers */
__attribute__((noinline, noclone)) double scale(double x, int n)
{
	return x * n;
}

static void run_once(void)
{
	static struct gauge g = { 0, "fake_gauge" };
	struct wide w;

	memset(&w, 0, sizeof(w));
	w.s = -((__int128)1 << 100) - 7;		/* -1267650600228229401496703205383 */
	w.u = ~(unsigned __int128)0;			/* 2^128 - 1 */
	w.z = 1.0 + 2.0 * I;
	w.zf = -1.5f - 0.25f * I;
	w.inf = INFINITY;
	w.ninf = -INFINITY;
	w.nan = NAN;
	w.unread = (long *)(uintptr_t)12345;
	sink += wide(&w, ((__int128)1 << 100) + 7, (unsigned __int128)1 << 64);
	sink += lookup("localhost", NULL);
	sink += lookup("example.org", "http");
	gauge_set(&g, 42.5);
	gauge_add(&g, 5);
	gauge_add(&g, -7.25);
	sink += (long)gauge_value(&g);
	gauge_set(&g, -INFINITY);
	sink += (long)scale(1.5, 3);
}

/* usage: nums [REPEAT [INTERVAL_MS]]; REPEAT 0 = forever; UPFT_TARGET_DELAY_MS delays the start */
int main(int argc, char **argv)
{
	const char *delay = getenv("UPFT_TARGET_DELAY_MS");
	int repeat = argc > 1 ? atoi(argv[1]) : 1, interval = argc > 2 ? atoi(argv[2]) : 0;

	if (delay)
		usleep(atoi(delay) * 1000);
	for (int i = 0; repeat == 0 || i < repeat; i++) {
		run_once();
		if (interval > 0)
			usleep(interval * 1000);
	}
	printf("nums: sink %ld\n", (long)sink);
	return 0;
}
