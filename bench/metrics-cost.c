// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * metrics-cost.c - what --metrics adds per event on the decoding thread: metrics_event() on
 * decoded events of an entry probe and its %return (with a duration), without and with a
 * --metrics-label string label, with a thread scraping metrics_format() every millisecond
 * meanwhile (the HTTP server's work, minus HTTP). Built and run by bench/metrics-cost.sh.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "decode.h"
#include "metrics.h"

static atomic_bool done;

/* CPU seconds of the calling thread */
static double now(void)
{
	struct timespec t;

	/* this thread's CPU time: the machine is shared */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void *scraper(void *arg)
{
	struct strbuf sb = STRBUF_INIT;

	while (!atomic_load(&done)) {
		strbuf_reset(&sb);
		metrics_format(arg, METRICS_OPENMETRICS, &sb);
		usleep(1000);
	}
	strbuf_release(&sb);
	return NULL;
}

/* ns per event over @n events alternating entry and return */
static double run(const char *label, long n)
{
	static char entry[] = "work", ret[] = "work__return";
	static const char *const names[] = { "alpha", "beta", "gamma", "delta" };
	struct metrics_opts o = { .label = label };
	struct value v[4] = {
		{ .name = "a", .kind = VK_SIGNED }, { .name = "b", .kind = VK_SIGNED },
		{ .name = "s", .kind = VK_CSTRING }, { .name = "d", .kind = VK_SIGNED },
	};
	struct event e = { .probe = entry, .func = "work", .vals = v, .nr_vals = 4,
			   .duration_ns = -1 };
	struct event r = { .probe = ret, .func = "work", .duration_ns = 0 };
	struct metrics *m;
	pthread_t t;
	struct diag d;
	double t0;

	diag_init(&d, NULL);
	m = metrics_new(&o, &d);
	diag_release(&d);
	atomic_store(&done, false);
	pthread_create(&t, NULL, scraper, m);
	t0 = now();
	for (long i = 0; i < n; i++) {
		v[0].num.s = i;
		v[2].str = names[i & 3];
		v[2].len = 5;
		r.duration_ns = 1000 + (i & 0xffff);
		metrics_event(m, (i & 1) ? &r : &e);
	}
	t0 = now() - t0;
	atomic_store(&done, true);
	pthread_join(t, NULL);
	metrics_free(m);
	return t0 * 1e9 / n;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000000;

	printf("metrics_event(), %ld events (entry and %%return with a duration), scraped "
	       "every 1 ms:\n", n);
	printf("  no label              %6.2f ns/event\n", run(NULL, n));
	printf("  --metrics-label work:s %5.2f ns/event\n", run("work:s", n));
	return 0;
}
