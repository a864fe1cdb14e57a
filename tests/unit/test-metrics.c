// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-metrics.c - the statistics of --metrics without a kernel or a socket: counters from
 * decoded events, the label and its cap, histograms, both exposition formats line by line,
 * content negotiation, and snapshots read while another thread writes
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/sysinfo.h>

#include "../../src/decode.h"
#include "../../src/fetcharg.h"
#include "../../src/metrics.h"
#include "unittest.h"

/* An event of @probe (the pointer is what the decoder hands out) with a string "key". */
static void event_key(struct metrics *m, const char *probe, const char *key)
{
	struct value v = { .name = "key", .kind = VK_LSTRING, .str = key, .len = strlen(key) };
	struct event ev = { .probe = probe, .func = "get_item", .vals = &v, .nr_vals = 1,
			    .duration_ns = -1 };

	metrics_event(m, &ev);
}

static void event_plain(struct metrics *m, const char *probe, int n)
{
	struct value v = { .name = "n", .kind = VK_SIGNED, .num.s = n };
	struct event ev = { .probe = probe, .vals = &v, .nr_vals = 1, .duration_ns = -1 };

	metrics_event(m, &ev);
}

/* the lost-events lines for this machine's CPUs, cpu 0 having lost @lost0 */
static void lost_lines(struct strbuf *sb, int lost0)
{
	for (int cpu = 0; cpu < get_nprocs_conf(); cpu++)
		strbuf_addf(sb, "upfront_lost_events_total{cpu=\"%d\"} %d\n", cpu, cpu ? 0 : lost0);
}

/* the 23 bucket lines of one histogram, from the counts of each bound's bucket */
static void bucket_lines(struct strbuf *sb, const char *labels, const int *per_bucket)
{
	static const char *const le[] = {
		"1e-06", "2.5e-06", "5e-06", "1e-05", "2.5e-05", "5e-05", "0.0001", "0.00025",
		"0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25",
		"0.5", "1", "2.5", "5", "10", "+Inf",
	};
	int total = 0;

	for (size_t i = 0; i < sizeof(le) / sizeof(le[0]); i++) {
		total += per_bucket[i];
		strbuf_addf(sb, "upfront_duration_seconds_bucket{%s,le=\"%s\"} %d\n", labels, le[i],
			    total);
	}
}

/* @got and @want line by line: one test, and the first line that differs when they do */
static void test_lines(const char *got, const char *want, const char *what)
{
	int line = 1;

	while (*got && *want) {
		size_t g = strcspn(got, "\n"), w = strcspn(want, "\n");

		if (g != w || memcmp(got, want, g)) {
			UT_REPORT(0, "%s: line %d", what, line);
			printf("#   got      %.*s\n#   expected %.*s\n", (int)g, got, (int)w, want);
			return;
		}
		got += g + (got[g] == '\n');
		want += w + (want[w] == '\n');
		line++;
	}
	UT_REPORT(!*got && !*want, "%s: %d lines as expected", what, line - 1);
	if (*got || *want)
		printf("#   %s has more: %.60s\n", *got ? "got" : "expected", *got ? got : want);
}

static struct metrics *scenario(void)
{
	struct metrics_opts o = { .label = "get:key", .label_max = 2 };
	struct diag d;
	struct metrics *m;
	char put[] = "put", get[] = "get", put2[] = "put";

	diag_init(&d, NULL);
	m = metrics_new(&o, &d);
	diag_release(&d);
	metrics_add_probe(m, "put");
	metrics_add_probe(m, "get");	/* labeled: no series until a value comes */
	metrics_add_probe(m, "idle");
	for (int i = 0; i < 3; i++)
		event_plain(m, put, i);
	event_key(m, get, "a");
	event_key(m, get, "b\"\n\x01");
	event_key(m, get, "c");	/* past the cap of 2: "other" */
	event_key(m, get, "d");
	event_key(m, get, "a");
	/* the decoder's string for "put" freed and another one at a new address */
	metrics_forget_probe(m, "put");
	event_plain(m, put2, 9);
	metrics_lost(m, 0, 5);
	metrics_duration(m, "put", NULL, 1500);
	metrics_duration(m, "put", NULL, 1000);	/* on the bound: le is "<=" */
	metrics_duration(m, "put", NULL, 20000000000ULL);
	metrics_duration(m, "get_item", "a", 250000);
	return m;
}

static void test_text(void)
{
	struct metrics *m = scenario();
	struct strbuf got = STRBUF_INIT, want = STRBUF_INIT;
	int put_b[23] = { [0] = 1, [1] = 1, [22] = 1 }, get_b[23] = { [7] = 1 };

	strbuf_init(&got);
	strbuf_init(&want);
	metrics_format(m, METRICS_TEXT, &got);
	strbuf_addstr(&want,
		"# HELP upfront_events_total Events of each probe (and -e event) that upfront "
		"decoded.\n"
		"# TYPE upfront_events_total counter\n"
		"upfront_events_total{probe=\"put\"} 4\n"
		"upfront_events_total{probe=\"idle\"} 0\n"
		"upfront_events_total{probe=\"get\",key=\"a\"} 2\n"
		"upfront_events_total{probe=\"get\",key=\"b\\\"\\n\\\\x01\"} 1\n"
		"upfront_events_total{probe=\"get\",key=\"other\"} 2\n"
		"# HELP upfront_lost_events_total Events the kernel's ring buffer of each CPU "
		"lost, "
		"as far as it told.\n"
		"# TYPE upfront_lost_events_total counter\n");
	lost_lines(&want, 5);
	strbuf_addstr(&want,
		"# HELP upfront_duration_seconds Calls from FUNC to FUNC%return, paired per thread "
		"(per goroutine in Go).\n"
		"# TYPE upfront_duration_seconds histogram\n");
	bucket_lines(&want, "func=\"put\"", put_b);
	strbuf_addstr(&want, "upfront_duration_seconds_sum{func=\"put\"} 20.0000025\n"
			     "upfront_duration_seconds_count{func=\"put\"} 3\n");
	bucket_lines(&want, "func=\"get_item\",key=\"a\"", get_b);
	strbuf_addstr(&want, "upfront_duration_seconds_sum{func=\"get_item\",key=\"a\"} 0.00025\n"
			     "upfront_duration_seconds_count{func=\"get_item\",key=\"a\"} 1\n");
	test_lines(got.buf, want.buf, "text format 0.0.4");
	strbuf_release(&got);
	strbuf_release(&want);
	metrics_free(m);
}

static void test_openmetrics(void)
{
	struct metrics *m = scenario();
	struct strbuf got = STRBUF_INIT;
	const char *eof;

	strbuf_init(&got);
	metrics_format(m, METRICS_OPENMETRICS, &got);
	/* families are named without _total, samples with it; TYPE first, a UNIT where known */
	TEST_TRUE(!strncmp(got.buf, "# TYPE upfront_events counter\n# HELP upfront_events ",
			   strlen("# TYPE upfront_events counter\n# HELP upfront_events ")));
	TEST_TRUE(strstr(got.buf, "\nupfront_events_total{probe=\"put\"} 4\n") != NULL);
	TEST_TRUE(strstr(got.buf, "\n# TYPE upfront_lost_events counter\n") != NULL);
	TEST_TRUE(strstr(got.buf, "\n# TYPE upfront_duration_seconds histogram\n"
				  "# UNIT upfront_duration_seconds seconds\n") != NULL);
	TEST_TRUE(strstr(got.buf, "_total counter") == NULL);
	eof = strstr(got.buf, "# EOF\n");
	TEST_TRUE(eof && eof[6] == '\0');
	strbuf_release(&got);
	metrics_free(m);
}

/* return events carry the paired call's duration (calls.c): it goes to the function's histogram */
static void test_event_durations(void)
{
	struct metrics_opts o = { .label = "work__return:r" };
	struct strbuf sb = STRBUF_INIT;
	char probe[] = "work__return";
	const int64_t ns[] = { 3000, -1, 7000, 2000000000 };
	struct metrics *m;
	struct diag d;

	diag_init(&d, NULL);
	m = metrics_new(&o, &d);
	diag_release(&d);
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		struct value v = { .name = "r", .kind = VK_SIGNED, .num.s = i & 1 };
		struct event ev = { .probe = probe, .func = "work", .vals = &v, .nr_vals = 1,
				    .duration_ns = ns[i] };

		metrics_event(m, &ev);
	}
	strbuf_init(&sb);
	metrics_format(m, METRICS_TEXT, &sb);
	/* r=0: 3 us and 7 us; r=1: the unpaired return (counted, no duration) and 2 s */
	TEST_TRUE(strstr(sb.buf, "\nupfront_events_total{probe=\"work__return\",r=\"0\"} 2\n"));
	TEST_TRUE(strstr(sb.buf, "\nupfront_events_total{probe=\"work__return\",r=\"1\"} 2\n"));
	TEST_TRUE(strstr(sb.buf, "\nupfront_duration_seconds_count{func=\"work\",r=\"0\"} 2\n"));
	TEST_TRUE(strstr(sb.buf, "\nupfront_duration_seconds_sum{func=\"work\",r=\"0\"} "
				 "0.00001\n"));
	TEST_TRUE(strstr(sb.buf, "\nupfront_duration_seconds_bucket{func=\"work\",r=\"0\","
				 "le=\"5e-06\"} 1\n"));
	TEST_TRUE(strstr(sb.buf, "\nupfront_duration_seconds_bucket{func=\"work\",r=\"0\","
				 "le=\"1e-05\"} 2\n"));
	TEST_TRUE(strstr(sb.buf, "\nupfront_duration_seconds_count{func=\"work\",r=\"1\"} 1\n"));
	TEST_TRUE(strstr(sb.buf, "\nupfront_duration_seconds_sum{func=\"work\",r=\"1\"} 2\n"));
	TEST_TRUE(strstr(sb.buf, "\nupfront_duration_seconds_bucket{func=\"work\",r=\"1\","
				 "le=\"1\"} 0\n"));
	TEST_TRUE(strstr(sb.buf, "\nupfront_duration_seconds_bucket{func=\"work\",r=\"1\","
				 "le=\"2.5\"} 1\n"));
	strbuf_release(&sb);
	metrics_free(m);
}

static void test_negotiate(void)
{
	/* what Prometheus 2.42 sends */
	TEST_EQ(metrics_negotiate("application/openmetrics-text;version=1.0.0,application/"
				  "openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;"
				  "q=0.5,*/*;q=0.1"), METRICS_OPENMETRICS);
	TEST_EQ(metrics_negotiate(NULL), METRICS_TEXT);
	TEST_EQ(metrics_negotiate("*/*"), METRICS_TEXT);
	TEST_EQ(metrics_negotiate("text/plain;version=0.0.4"), METRICS_TEXT);
	TEST_EQ(metrics_negotiate("text/plain, Application/OpenMetrics-Text"), METRICS_OPENMETRICS);
	TEST_EQ(metrics_negotiate("application/openmetrics-text; q=0, text/plain"), METRICS_TEXT);
	TEST_EQ(metrics_negotiate("application/openmetrics-textual"), METRICS_TEXT);
	TEST_STREQ(metrics_content_type(METRICS_TEXT), "text/plain; version=0.0.4; charset=utf-8");
	TEST_STREQ(metrics_content_type(METRICS_OPENMETRICS),
		   "application/openmetrics-text; version=1.0.0; charset=utf-8");
}

static void test_check(void)
{
	struct trace_probe tp = { .event = "get" };
	struct trace_arg arg = { .name = "key" };
	char *extra[] = { "syscalls:sys_enter_read" };
	struct diag d;

	tp.args = &arg;
	tp.nr_args = 1;
#define CHECK(label, want)                                                              \
	do {                                                                            \
		diag_init(&d, NULL);                                                    \
		TEST_EQ(metrics_check_label(label, &tp, 1, extra, 1, &d), want);        \
		diag_release(&d);                                                       \
	} while (0)
	CHECK("get:key", 0);
	CHECK("get:nokey", -EINVAL);
	CHECK("nope:key", -EINVAL);
	CHECK("sys_enter_read:fd", 0);
	CHECK("get:le", -EINVAL);
	CHECK("get:__name__", -EINVAL);
	CHECK("get:", -EINVAL);
	CHECK(":key", -EINVAL);
#undef CHECK
	diag_init(&d, NULL);
	TEST_EQ(metrics_check_listen("127.0.0.1:9100", &d), 0);
	TEST_EQ(metrics_check_listen("[::1]:9100", &d), 0);
	TEST_EQ(metrics_check_listen("127.0.0.1", &d), -EINVAL);
	TEST_EQ(metrics_check_listen("127.0.0.1:0", &d), -EINVAL);
	TEST_EQ(metrics_check_listen("127.0.0.1:65536", &d), -EINVAL);
	TEST_EQ(metrics_check_listen("127.0.0.1:http", &d), -EINVAL);
	TEST_EQ(metrics_check_listen("::1:9100", &d), -EINVAL);
	diag_release(&d);
}

/* --- snapshots while the writer runs ---------------------------------------------------- */

#define WRITES 300000

static atomic_bool writer_done;

static void *writer(void *arg)
{
	struct metrics *m = arg;
	char probe[] = "hot";

	for (int i = 0; i < WRITES; i++) {
		event_plain(m, probe, i);
		/* 3 us into the le="5e-06" bucket, 7 us into le="1e-05" */
		metrics_duration(m, "hot", NULL, i & 1 ? 7000 : 3000);
	}
	atomic_store(&writer_done, true);
	return NULL;
}

/* the value of the first line of @text starting with @prefix, or -1 */
static double sample(const char *text, const char *prefix)
{
	const char *p = strstr(text, prefix);

	return p ? strtod(p + strlen(prefix), NULL) : -1;
}

static void test_concurrent(void)
{
	struct metrics_opts o = { 0 };
	struct strbuf sb = STRBUF_INIT;
	int snapshots = 0, torn = 0, backwards = 0;
	double last = 0;
	struct metrics *m;
	pthread_t t;
	struct diag d;

	diag_init(&d, NULL);
	m = metrics_new(&o, &d);
	diag_release(&d);
	pthread_create(&t, NULL, writer, m);
	while (!atomic_load(&writer_done) || !snapshots) {
		double events, le5, le10, le2, sum, count;

		strbuf_reset(&sb);
		metrics_format(m, METRICS_TEXT, &sb);
		snapshots++;
		events = sample(sb.buf, "upfront_events_total{probe=\"hot\"} ");
		if (events >= 0 && events < last)
			backwards++;
		last = events >= 0 ? events : last;
		if (!strstr(sb.buf, "upfront_duration_seconds_count"))
			continue;
		le2 = sample(sb.buf, "{func=\"hot\",le=\"2.5e-06\"} ");
		le5 = sample(sb.buf, "{func=\"hot\",le=\"5e-06\"} ");
		le10 = sample(sb.buf, "{func=\"hot\",le=\"1e-05\"} ");
		sum = sample(sb.buf, "upfront_duration_seconds_sum{func=\"hot\"} ");
		count = sample(sb.buf, "upfront_duration_seconds_count{func=\"hot\"} ");
		/* the sum agrees with the buckets: nothing read half-way through an update */
		if (le2 != 0 || count != le10 ||
		    (long long)(sum * 1e9 + 0.5) != (long long)(le5 * 3000 + (le10 - le5) * 7000))
			torn++;
	}
	pthread_join(t, NULL);
	TEST_TRUE(snapshots > 1);
	TEST_EQ(torn, 0);
	TEST_EQ(backwards, 0);
	strbuf_reset(&sb);
	metrics_format(m, METRICS_TEXT, &sb);
	TEST_EQ(sample(sb.buf, "upfront_events_total{probe=\"hot\"} "), WRITES);
	TEST_EQ(sample(sb.buf, "upfront_duration_seconds_count{func=\"hot\"} "), WRITES);
	printf("# %d snapshots while writing\n", snapshots);
	strbuf_release(&sb);
	metrics_free(m);
}

int main(void)
{
	test_text();
	test_openmetrics();
	test_event_durations();
	test_negotiate();
	test_check();
	test_concurrent();
	return TEST_DONE();
}
