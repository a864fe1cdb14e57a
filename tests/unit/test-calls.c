// SPDX-License-Identifier: GPL-2.0-or-later
/* test-calls.c - durations: entries and returns paired per thread/goroutine, as stacks */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callfields.h"
#include "calls.h"
#include "decode.h"
#include "fetcharg.h"
#include "resolve.h"
#include "unittest.h"

static struct call_key key(int pid, uint64_t thread, unsigned int func)
{
	struct call_key k = { .pid = pid, .thread = thread, .func = func };

	return k;
}

/* C: the entry probe's %sp is below the CFA, the uretprobe's at it (8 above the return
 * address, which the entry's frame holds) */
static void test_c_recursion(void)
{
	struct calls *c = calls_new();
	unsigned int f = calls_func(c, "/bin/x:walk");
	struct call_key k = key(10, 10, f);
	const call_height cfa = 0x7ffc0000;

	TEST_EQ(calls_func(c, "/bin/x:walk"), f);
	TEST_TRUE(calls_func(c, "/bin/x:other") != f);
	calls_expect_returns(c, f);
	/* walk(2) -> walk(1), walk(0): frames of 48 bytes, the entry probe past a push */
	calls_entry(c, &k, 1000, cfa - 16);
	calls_entry(c, &k, 1100, cfa - 48 - 16);
	TEST_EQ(calls_return(c, &k, 1300, cfa - 48), 200);
	calls_entry(c, &k, 1400, cfa - 48 - 16);
	TEST_EQ(calls_return(c, &k, 1450, cfa - 48), 50);
	TEST_EQ(calls_pending(c), 1);
	TEST_EQ(calls_return(c, &k, 2000, cfa), 1000);
	TEST_EQ(calls_pending(c), 0);
	/* a return whose entry was not seen */
	TEST_EQ(calls_return(c, &k, 2100, cfa), -1);
	/* a caller's entry stays when a call that began before tracing returns */
	calls_entry(c, &k, 3000, cfa - 16);
	TEST_EQ(calls_return(c, &k, 3100, cfa - 48), -1);
	TEST_EQ(calls_pending(c), 1);
	TEST_EQ(calls_return(c, &k, 3200, cfa), 200);
	/* -O0: the entry probe past the prologue, where the caller's height is its callee's CFA */
	calls_entry(c, &k, 4000, cfa - 32);
	calls_entry(c, &k, 4100, cfa - 64);
	TEST_EQ(calls_return(c, &k, 4200, cfa - 32), 100);
	TEST_EQ(calls_pending(c), 1);
	TEST_EQ(calls_return(c, &k, 4300, cfa), 300);
	calls_free(c);
}

/* the kernel keeps 64 pending uretprobes per thread: deeper calls return unseen */
static void test_missing_returns(void)
{
	struct calls *c = calls_new();
	unsigned int f = calls_func(c, "down");
	struct call_key k = key(10, 11, f);
	const call_height top = 0x7ffc0000;

	calls_expect_returns(c, f);
	for (int d = 0; d < 100; d++)
		calls_entry(c, &k, 1000 + d, top - 32 * d - 8);
	TEST_EQ(calls_pending(c), 100);
	/* only the outer 64 return, innermost of them first */
	for (int d = 63; d >= 0; d--) {
		int64_t got = calls_return(c, &k, 5000 + (63 - d), top - 32 * d);

		if (got != 5000 + (63 - d) - (1000 + d)) {
			TEST_EQ(got, 5000 + (63 - d) - (1000 + d));
			break;
		}
	}
	TEST_EQ(calls_pending(c), 0);
	calls_free(c);
}

static void test_threads(void)
{
	struct calls *c = calls_new();
	unsigned int f = calls_func(c, "job"), g = calls_func(c, "entry_only");
	struct call_key a = key(10, 11, f), b = key(10, 12, f), o = key(10, 11, g);

	calls_expect_returns(c, f);
	calls_entry(c, &a, 100, 500);
	calls_entry(c, &b, 150, 500);
	/* entries of a function without a return probe are not kept */
	calls_entry(c, &o, 160, 400);
	TEST_EQ(calls_pending(c), 2);
	TEST_EQ(calls_return(c, &b, 170, 508), 20);
	TEST_EQ(calls_return(c, &a, 400, 508), 300);
	TEST_EQ(calls_return(c, &a, 400, 508), -1);
	/* another process with the same thread number is another thread */
	calls_entry(c, &a, 1000, 500);
	b = key(20, 11, f);
	TEST_EQ(calls_return(c, &b, 1100, 508), -1);
	TEST_EQ(calls_return(c, &a, 1100, 508), 100);

	/* many threads come and go: the table is rebuilt, none of the pending calls is lost */
	for (int t = 0; t < 5000; t++) {
		struct call_key k = key(30, 1000 + t, f);

		calls_entry(c, &k, t, 100);
		if (t % 10)
			calls_return(c, &k, t + 1, 108);
	}
	TEST_EQ(calls_pending(c), 500);
	{
		int bad = 0;

		for (int t = 0; t < 5000; t += 10) {
			struct call_key k = key(30, 1000 + t, f);

			bad += calls_return(c, &k, t + 7, 108) != 7;
		}
		TEST_EQ(bad, 0);
	}
	TEST_EQ(calls_pending(c), 0);
	calls_free(c);
}

/*
 * Go: the probe at a RET sees the stack pointer the entry probe saw (both 8 below the CFA;
 * the decoder adds the 8 at a RET); the height is taken from the top of the goroutine's
 * stack, which moves when it grows.
 * A panic unwinds frames without a RET: a recovered outer call pairs with its own entry.
 */
static void test_goroutines(void)
{
	struct calls *c = calls_new();
	unsigned int f = calls_func(c, "main.work");
	struct call_key k = key(10, 0xc000001a00, f);
	struct call_key other = key(10, 0xc000001b00, f);

	calls_expect_returns(c, f);
	calls_entry(c, &k, 100, -200);
	/* the goroutine moves to another thread and its stack to a bigger one: same heights */
	calls_entry(c, &k, 200, -328);
	calls_entry(c, &other, 250, -200);
	TEST_EQ(calls_return(c, &k, 300, -320), 100);
	TEST_EQ(calls_return(c, &k, 450, -192), 350);
	TEST_EQ(calls_return(c, &other, 500, -192), 250);
	/* recursion: the inner calls panic, the outer one recovers and returns */
	calls_entry(c, &k, 1000, -200);
	calls_entry(c, &k, 1010, -328);
	calls_entry(c, &k, 1020, -456);
	TEST_EQ(calls_return(c, &k, 1100, -192), 100);
	TEST_EQ(calls_pending(c), 0);
	calls_free(c);
}

/* a thread whose returns never come does not grow without end */
static void test_bounds(void)
{
	struct calls *c = calls_new();
	unsigned int f = calls_func(c, "f");
	struct call_key k = key(1, 1, f);

	calls_expect_returns(c, f);
	for (int i = 0; i < 10000; i++)
		calls_entry(c, &k, i, 1000000 - i * 16);
	TEST_TRUE(calls_pending(c) <= 4096);
	/* the innermost is still there */
	TEST_EQ(calls_return(c, &k, 20000, 1000000 - 9999 * 16 + 8), 20000 - 9999);
	calls_free(c);
	calls_free(NULL);
}

static bool has_field(const struct trace_probe *tp, const char *name)
{
	for (size_t i = 0; i < tp->nr_fields; i++)
		if (!strcmp(tp->fields[i].name, name))
			return true;
	return false;
}

static void set_point(struct trace_probe *tp, const char *event, const char *func,
		      enum call_role call, bool go)
{
	memset(tp, 0, sizeof(*tp));
	tp->event = strdup(event);
	tp->func = func ? strdup(func) : NULL;
	tp->path = strdup("/bin/x");
	tp->call = call;
	tp->goroutines = go;
	tp->go_stack_hi = 8;
}

/*
 * callfields_add(): an event gets the fields that pair calls in each of its points when one
 * of them has a call role whose other half is in the batch (or may come later: the curses
 * view), and Go's fields when such a point is Go code; a glob of many functions is one event
 */
static void test_callfields(void)
{
	enum { N = 3000 };
	struct trace_probe *tps = calloc(N + 6, sizeof(*tps));
	char name[32];

	/* a glob's entries in one event, one of them also probed at its return */
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "fn_%04d", i);
		set_point(&tps[i], "fn", name, CALL_ENTRY, false);
	}
	set_point(&tps[N], "fn__return", "fn_0042", CALL_RETURN, false);
	/* an entry alone, and a line of the same function in its event */
	set_point(&tps[N + 1], "alone", "alone", CALL_ENTRY, false);
	set_point(&tps[N + 2], "alone", "alone", CALL_NONE, false);
	/* Go: the pair's event gets g and the stack's top */
	set_point(&tps[N + 3], "handle", "main.handle", CALL_ENTRY, true);
	set_point(&tps[N + 4], "handle__return", "main.handle", CALL_RETURN, true);
	/* the same function name in another binary pairs with nothing */
	set_point(&tps[N + 5], "other__return", "alone", CALL_RETURN, false);
	free(tps[N + 5].path);
	tps[N + 5].path = strdup("/bin/y");
	callfields_add(tps, N + 6, false);
	TEST_TRUE(has_field(&tps[0], DECODE_SP_FIELD));
	TEST_TRUE(has_field(&tps[N - 1], DECODE_SP_FIELD));
	TEST_TRUE(has_field(&tps[N], DECODE_SP_FIELD));
	TEST_TRUE(!has_field(&tps[0], DECODE_G_FIELD));
	TEST_TRUE(!has_field(&tps[N + 1], DECODE_SP_FIELD));
	TEST_TRUE(!has_field(&tps[N + 2], DECODE_SP_FIELD));
	TEST_TRUE(has_field(&tps[N + 3], DECODE_G_FIELD));
	TEST_TRUE(has_field(&tps[N + 4], DECODE_STACK_HI_FIELD));
	TEST_TRUE(!has_field(&tps[N + 5], DECODE_SP_FIELD));
	/* the curses view may add the other half: every event with a call role */
	callfields_add(&tps[N + 1], 2, true);
	TEST_TRUE(has_field(&tps[N + 1], DECODE_SP_FIELD));
	TEST_TRUE(has_field(&tps[N + 2], DECODE_SP_FIELD));
	/* added once */
	callfields_add(tps, 1, true);
	TEST_EQ(tps[0].nr_fields, 1);
	trace_probes_free(tps, N + 6);
}

int main(void)
{
	test_c_recursion();
	test_callfields();
	test_missing_returns();
	test_threads();
	test_goroutines();
	test_bounds();
	return TEST_DONE();
}
