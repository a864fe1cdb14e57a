// SPDX-License-Identifier: GPL-2.0-or-later
/* test-render.c - renderers' output: whole-line writes to a pipe, one time base */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "render.h"
#include "unittest.h"

/*
 * render_flush() to a socket (as to a pipe): each write is at most PIPE_BUF bytes of whole
 * lines. A SOCK_SEQPACKET socket keeps each write a message of its own, so the test sees
 * where every write(2) began and ended.
 */
static void test_flush_lines(void)
{
	static char msg[3 * PIPE_BUF];
	struct render r;
	int sv[2], nr_msgs = 0, bad = 0;
	size_t total = 0, want = 0;
	char *longline;

	TEST_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	memset(&r, 0, sizeof(r));
	strbuf_init(&r.out);
	r.fd = sv[0];
	r.atomic_lines = true;
	/* 500 lines of varying length, 3 of 90 bytes every so often */
	for (int i = 0; i < 500; i++) {
		size_t before = r.out.len;

		strbuf_addf(&r.out, "{\"time\":%d.000000,\"probe\":\"p\",\"args\":{\"s\":\"%.*s\"}}\n",
			    i, i % 97, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
		want += r.out.len - before;
	}
	TEST_TRUE(r.out.len > 4 * PIPE_BUF);
	TEST_EQ(render_flush(&r), 0);
	TEST_EQ(r.out.len, 0);
	for (;;) {
		ssize_t n = recv(sv[1], msg, sizeof(msg), MSG_DONTWAIT);

		if (n <= 0)
			break;
		nr_msgs++;
		total += n;
		if (n > PIPE_BUF || msg[n - 1] != '\n')
			bad++;
	}
	TEST_EQ(total, want);
	TEST_EQ(bad, 0);
	TEST_TRUE(nr_msgs >= 5);

	/* a line longer than PIPE_BUF goes whole, in one write, between whole lines */
	longline = xmalloc(PIPE_BUF + 100);
	memset(longline, 'y', PIPE_BUF + 99);
	longline[PIPE_BUF + 99] = '\0';
	strbuf_addstr(&r.out, "a\n");
	strbuf_addf(&r.out, "%s\n", longline);
	strbuf_addstr(&r.out, "b\n");
	TEST_EQ(render_flush(&r), 0);
	nr_msgs = 0;
	bad = 0;
	for (;;) {
		ssize_t n = recv(sv[1], msg, sizeof(msg), MSG_DONTWAIT);

		if (n <= 0)
			break;
		nr_msgs++;
		if (msg[n - 1] != '\n')
			bad++;
		if (n > PIPE_BUF && n != PIPE_BUF + 100 && n != PIPE_BUF + 102)
			bad++;
	}
	TEST_EQ(bad, 0);
	TEST_TRUE(nr_msgs >= 2 && nr_msgs <= 3);
	free(longline);

	/* not a pipe: one write for everything */
	r.atomic_lines = false;
	for (int i = 0; i < 200; i++)
		strbuf_addf(&r.out, "line %d of a buffer that is bigger than PIPE_BUF\n", i);
	want = r.out.len;
	TEST_EQ(render_flush(&r), 0);
	TEST_EQ(recv(sv[1], msg, sizeof(msg), MSG_DONTWAIT), (ssize_t)want);
	close(sv[0]);
	close(sv[1]);
	strbuf_release(&r.out);
}

/* seconds since the first event with microseconds, everywhere */
static void test_time(void)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[32], *end;

	render_time(&sb, 1200179000ULL + 500, 1000000000ULL);
	TEST_STREQ(strbuf_cstr(&sb), "0.200180");
	end = render_put_time(buf, 1200179000ULL, 1000000000ULL);
	*end = '\0';
	TEST_STREQ(buf, "0.200179");
	end = render_put_time(buf, 61000000000ULL, 0);
	*end = '\0';
	TEST_STREQ(buf, "61.000000");
	strbuf_release(&sb);
}

static void test_durations(void)
{
	static const struct {
		uint64_t ns;
		const char *text, *json;
	} cases[] = {
		{ 0, "0ns", "0" },
		{ 850, "850ns", "0.00000085" },
		{ 999, "999ns", "0.000000999" },
		{ 1000, "1us", "0.000001" },
		{ 12500, "12.5us", "0.0000125" },
		{ 12345, "12.345us", "0.000012345" },
		{ 999999, "1ms", "0.000999999" },
		{ 999499, "999.499us", "0.000999499" },
		{ 999999600, "1s", "0.9999996" },
		{ 3250000, "3.25ms", "0.00325" },
		{ 1500000000, "1.5s", "1.5" },
		{ 2000000000, "2s", "2" },
		{ 3600000000123ULL, "3600s", "3600.000000123" },
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		strbuf_reset(&sb);
		render_duration(&sb, cases[i].ns);
		TEST_STREQ(strbuf_cstr(&sb), cases[i].text);
		strbuf_reset(&sb);
		render_seconds(&sb, cases[i].ns);
		TEST_STREQ(strbuf_cstr(&sb), cases[i].json);
	}
	strbuf_release(&sb);
}

/* render_to_buffer() - @r empty, rendering into r->out (no file), times from @t0 */
static void render_to_buffer(struct render *r, uint64_t t0)
{
	memset(r, 0, sizeof(*r));
	strbuf_init(&r->out);
	r->t0 = t0;
	r->fd = -1;
}

/* a paired return event in text and JSON; an event without a duration has no key */
static void test_duration_lines(void)
{
	struct value v = { .name = "retval", .kind = VK_SIGNED, .num.s = 3 };
	struct event ev = {
		.ts = 1000012500, .cpu = 1, .pid = 42, .tid = 43, .comm = "calls",
		.probe = "walk__return", .vals = &v, .nr_vals = 1, .duration_ns = 12500,
	};
	struct render r;

	render_to_buffer(&r, 1000000000);
	TEST_EQ(render_text_ops.event(&r, &ev), 0);
	TEST_STREQ(strbuf_cstr(&r.out), "0.000013 calls/42 walk__return retval=3 duration=12.5us\n");
	strbuf_reset(&r.out);
	TEST_EQ(render_json_ops.open(&r), 0);
	TEST_EQ(render_json_ops.event(&r, &ev), 0);
	TEST_STREQ(strbuf_cstr(&r.out),
		   "{\"time\":0.000013,\"cpu\":1,\"pid\":42,\"tid\":43,\"comm\":\"calls\","
		   "\"probe\":\"walk__return\",\"args\":{\"retval\":3},\"duration\":0.0000125}\n");
	strbuf_reset(&r.out);
	ev.duration_ns = -1;
	ev.probe = "walk";
	ev.nr_vals = 0;
	TEST_EQ(render_json_ops.event(&r, &ev), 0);
	TEST_STREQ(strbuf_cstr(&r.out),
		   "{\"time\":0.000013,\"cpu\":1,\"pid\":42,\"tid\":43,\"comm\":\"calls\","
		   "\"probe\":\"walk\",\"args\":{}}\n");
	strbuf_reset(&r.out);
	TEST_EQ(render_text_ops.event(&r, &ev), 0);
	TEST_STREQ(strbuf_cstr(&r.out), "0.000013 calls/42 walk\n");
	strbuf_release(&r.out);
}

/*
 * numbers in text and JSON: complex, 128-bit integers every digit, +Inf/-Inf/NaN apart; a
 * fault and a NULL char * (both null in JSON, the fault named in "faults")
 */
static void test_numbers(void)
{
	struct trace_arg sgn = { .is_signed = true }, uns = { .is_signed = false };
	struct value v[] = {
		{ .name = "z", .kind = VK_COMPLEX, .num.c = { 3, -4 } },
		{ .name = "s", .kind = VK_INT128, .arg = &sgn,
		  .num.w = -(((unsigned __int128)1 << 100) + 7) },
		{ .name = "u", .kind = VK_INT128, .arg = &uns, .num.w = ~(unsigned __int128)0 },
		{ .name = "p", .kind = VK_FLOAT, .num.f = INFINITY },
		{ .name = "n", .kind = VK_FLOAT, .num.f = -INFINITY },
		{ .name = "q", .kind = VK_FLOAT, .num.f = NAN },
		{ .name = "f", .kind = VK_FLOAT, .fault = true },
		{ .name = "svc", .kind = VK_CSTRING, .fault = true, .null = true, .text = "NULL" },
	};
	struct event ev = {
		.ts = 1000000000, .cpu = 0, .pid = 7, .tid = 7, .comm = "nums", .probe = "wide",
		.vals = v, .nr_vals = ARRAY_SIZE(v), .duration_ns = -1,
	};
	struct render r;

	render_to_buffer(&r, 1000000000);
	TEST_EQ(render_text_ops.event(&r, &ev), 0);
	TEST_STREQ(strbuf_cstr(&r.out), "0.000000 nums/7 wide z=(3 + -4i) "
		   "s=-1267650600228229401496703205383 u=340282366920938463463374607431768211455 "
		   "p=inf n=-inf q=nan f=(fault) svc=NULL\n");
	strbuf_reset(&r.out);
	TEST_EQ(render_json_ops.open(&r), 0);
	TEST_EQ(render_json_ops.event(&r, &ev), 0);
	TEST_STREQ(strbuf_cstr(&r.out),
		   "{\"time\":0.000000,\"cpu\":0,\"pid\":7,\"tid\":7,\"comm\":\"nums\","
		   "\"probe\":\"wide\",\"args\":{\"z\":{\"real\":3,\"imag\":-4},"
		   "\"s\":-1267650600228229401496703205383,"
		   "\"u\":340282366920938463463374607431768211455,"
		   "\"p\":\"+Inf\",\"n\":\"-Inf\",\"q\":\"NaN\",\"f\":null,\"svc\":null},"
		   "\"faults\":[\"f\"]}\n");
	strbuf_release(&r.out);
}

int main(void)
{
	test_numbers();
	test_flush_lines();
	test_time();
	test_durations();
	test_duration_lines();
	return TEST_DONE();
}
