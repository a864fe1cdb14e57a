// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-agg.c - the aggregates (agg.c): numbers' buckets, min/avg/max, top values, exact and
 * bucketed percentiles; the summary's bucket labels (bpftrace's); the JSON reader a replay
 * uses (jsonread.c): what the JSON renderer writes comes back
 */
#include <stdlib.h>
#include <string.h>

#include "../../src/agg.h"
#include "../../src/decode.h"
#include "../../src/jsonread.h"
#include "../../src/summary.h"
#include "../../src/util.h"
#include "unittest.h"

static void test_numbers(void)
{
	struct agg_arg st;
	struct value v;
	static const int64_t xs[] = { 0, 1, 2, 3, 1000, -5 };

	memset(&st, 0, sizeof(st));
	memset(&v, 0, sizeof(v));
	v.kind = VK_SIGNED;
	for (size_t i = 0; i < ARRAY_SIZE(xs); i++) {
		v.num.s = xs[i];
		agg_count_value(&st, &v);
	}
	v.fault = true;
	agg_count_value(&st, &v);
	TEST_EQ(st.n, 7);
	TEST_EQ(st.faults, 1);
	TEST_TRUE(st.min == -5 && st.max == 1000 && st.sum == 1001);
	TEST_EQ(st.pos[0], 1);	/* 0 */
	TEST_EQ(st.pos[1], 1);	/* 1 */
	TEST_EQ(st.pos[2], 2);	/* 2, 3 */
	TEST_EQ(st.pos[10], 1);	/* 1000 in [512, 1024) */
	TEST_EQ(st.neg[3], 1);	/* -5 in (-8, -4] */
}

static void test_top(void)
{
	struct agg_arg st;
	struct value v;
	const struct agg_top **top;
	static const char *names[] = { "bob", "alice", "bob", "carol", "bob", "alice" };
	size_t n;

	memset(&st, 0, sizeof(st));
	memset(&v, 0, sizeof(v));
	v.kind = VK_LSTRING;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		v.str = names[i];
		v.len = strlen(names[i]);
		agg_count_value(&st, &v);
	}
	n = agg_top_sorted(&st, &top);
	TEST_EQ(n, 3);
	TEST_STREQ(top[0]->key, "bob");
	TEST_EQ(top[0]->count, 3);
	TEST_STREQ(top[1]->key, "alice");
	TEST_STREQ(top[2]->key, "carol");
	free(top);
	for (size_t k = 0; k < AGG_TOP_CAP; k++)
		free(st.top[k].key);
	free(st.top);
}

static void test_percentiles(void)
{
	struct agg *a = agg_new();
	struct agg_probe *p = agg_find(a, "f__return", true);
	bool exact = false;

	for (uint64_t i = 1; i <= 100; i++)
		agg_count_duration(p, "f", i * 1000);
	TEST_EQ(agg_percentile(&p->lat[0], 50, &exact), 50000);
	TEST_TRUE(exact);
	TEST_EQ(agg_percentile(&p->lat[0], 99, NULL), 99000);
	TEST_EQ(agg_percentile(&p->lat[0], 100, NULL), 100000);
	/* past the samples kept: the bucket's upper bound, never above the max */
	p->lat[0].n++;
	p->lat[0].buckets[agg_bucket(200000)]++;
	p->lat[0].max = 200000;
	TEST_EQ(agg_percentile(&p->lat[0], 100, &exact), 200000);
	TEST_TRUE(!exact);
	TEST_EQ(agg_percentile(&p->lat[0], 50, NULL), 65536);	/* 50000 in [32768, 65536) */
	agg_free(a);
}

static const char *label(int b, bool neg, bool real)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_release(&sb);
	strbuf_init(&sb);
	summary_bucket_label(&sb, b, neg, real);
	return sb.buf;
}

static void test_labels(void)
{
	TEST_STREQ(label(0, false, false), "[0]");
	TEST_STREQ(label(1, false, false), "[1]");
	TEST_STREQ(label(3, false, false), "[4, 8)");
	TEST_STREQ(label(11, false, false), "[1K, 2K)");
	TEST_STREQ(label(21, false, false), "[1M, 2M)");
	TEST_STREQ(label(1, true, false), "[-1]");
	TEST_STREQ(label(3, true, false), "(-8, -4]");
	TEST_STREQ(label(0, false, true), "[0, 1)");
}

static void test_json(void)
{
	static const char line[] = "{\"time\":0.5,\"probe\":\"p\",\"args\":{\"s\":\"a\\\"\\u00e9\\ud83d\\ude00\","
				   "\"n\":-3,\"u\":18446744073709551615,\"f\":1.5e3,\"z\":null,"
				   "\"o\":{\"a\":[1,2]}}}";
	const struct json *args, *o;
	struct json j;
	size_t at = 0;

	TEST_EQ(json_parse(line, strlen(line), &j, &at), 0);
	args = json_get(&j, "args");
	TEST_TRUE(args && args->nr == 6);
	TEST_STREQ(json_get(args, "s")->str, "a\"\xc3\xa9\xf0\x9f\x98\x80");
	TEST_TRUE(json_get(args, "n")->is_int && json_get(args, "n")->negative &&
		  json_get(args, "n")->u == 3);
	TEST_TRUE(json_get(args, "u")->u == UINT64_MAX);
	TEST_TRUE(!json_get(args, "f")->is_int && json_get(args, "f")->num == 1500);
	TEST_EQ(json_get(args, "z")->type, JSON_NULL);
	o = json_get(args, "o");
	TEST_EQ(o->raw_len, strlen("{\"a\":[1,2]}"));
	json_release(&j);
	TEST_EQ(json_parse("{\"a\":1", 6, &j, &at), -22);
	TEST_EQ(at, 6);
	TEST_EQ(json_parse("[1,]", 4, &j, &at), -22);
	TEST_EQ(json_parse("{} x", 4, &j, &at), -22);
}

int main(void)
{
	test_numbers();
	test_top();
	test_percentiles();
	test_labels();
	test_json();
	return TEST_DONE();
}
