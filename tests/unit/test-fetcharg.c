// SPDX-License-Identifier: GPL-2.0-or-later
/* test-fetcharg.c - uprobe_events lines: format/parse round trips, kernel limits, type sizes */
#include <errno.h>
#include <stdlib.h>

#include "../../src/fetcharg.h"
#include "unittest.h"

static struct kernel_features kf;

static void probe_init(struct trace_probe *tp, const char *group, const char *event)
{
	memset(tp, 0, sizeof(*tp));
	tp->group = xstrdup(group);
	tp->event = xstrdup(event);
	tp->path = xstrdup("/opt/dnsfwd");
	tp->offset = 0x223b20;
}

/* format @tp, parse it back, and check the fields survived */
static void round_trip(const struct trace_probe *tp, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	struct trace_probe back;
	struct diag d;
	size_t i;
	bool same;

	strbuf_init(&sb);
	TEST_EQ(fetcharg_format(tp, &sb), 0);
	TEST_STREQ(sb.buf, want);
	diag_init(&d, sb.buf);
	TEST_EQ(fetcharg_parse(sb.buf, &back, &d), 0);
	same = back.nr_fields == tp->nr_fields && back.is_return == tp->is_return &&
	       back.offset == tp->offset && !strcmp(back.path, tp->path) &&
	       !strcmp(back.group, tp->group) && !strcmp(back.event, tp->event);
	for (i = 0; same && i < tp->nr_fields; i++)
		same = !strcmp(back.fields[i].name, tp->fields[i].name) &&
		       !strcmp(back.fields[i].fetch, tp->fields[i].fetch) &&
		       !strcmp(back.fields[i].type, tp->fields[i].type);
	UT_REPORT(same, "round trip of '%s'", sb.buf);
	trace_probe_release(&back);
	diag_release(&d);
	strbuf_release(&sb);
}

static void test_features(void)
{
	kernel_features_default(&kf);
	TEST_EQ(kf.max_args, 128);
	TEST_EQ(kf.max_arg_len, 63);
	TEST_EQ(kf.max_name_len, 32);
	TEST_EQ(kf.max_derefs, 14);
	TEST_EQ(kf.max_array, 64);
	TEST_EQ(kf.max_event_size, 3072);
	TEST_EQ(kf.max_event_name, 63);
	TEST_EQ(kf.max_strings, 3);
	TEST_TRUE(kf.has_char && kf.has_ustring);
}

static void test_format(void)
{
	struct trace_probe tp, cp;
	struct trace_arg *a;
	struct strbuf sb = STRBUF_INIT;

	probe_init(&tp, "probe_dnsfwd", "handleRequest");
	TEST_EQ(trace_probe_add_field(&tp, "name", "+0(+0(+40(%di)))", "char[64]", false), 0);
	TEST_EQ(trace_probe_add_field(&tp, "name_at64", "+64(+0(+40(%di)))", "char[64]", false), 1);
	TEST_EQ(trace_probe_add_field(&tp, "name_len", "+8(+40(%di))", "u64", true), 2);
	TEST_EQ(tp.nr_fields, 3);
	TEST_TRUE(tp.fields[2].hidden);
	round_trip(&tp, "p:probe_dnsfwd/handleRequest /opt/dnsfwd:0x223b20 "
			"name=+0(+0(+40(%di))):char[64] name_at64=+64(+0(+40(%di))):char[64] "
			"name_len=+8(+40(%di)):u64");

	a = trace_probe_add_arg(&tp);
	TEST_EQ(a->len_field, -1);
	TEST_EQ(a->nr_guards, 0);
	a->name = xstrdup("name");
	a->expr = xstrdup("r->Question[0].Name");
	a->kind = VK_LSTRING;
	a->field = 0;
	a->nr_fields = 2;
	a->len_field = 2;
	a->nr_guards = 1;
	a->guards[0] = 2;
	a->guard_exprs[0] = xstrdup("r->Question");
	a->enums = xcalloc(1, sizeof(*a->enums));
	a->enums[0].name = xstrdup("A");
	a->nr_enums = 1;
	TEST_EQ(tp.nr_args, 1);

	/* a deep copy shares nothing */
	trace_probe_copy(&cp, &tp);
	TEST_TRUE(cp.fields != tp.fields && cp.fields[0].fetch != tp.fields[0].fetch);
	TEST_STREQ(cp.fields[1].name, "name_at64");
	TEST_TRUE(cp.fields[2].hidden);
	TEST_STREQ(cp.args[0].expr, "r->Question[0].Name");
	TEST_TRUE(cp.args[0].expr != tp.args[0].expr);
	TEST_STREQ(cp.args[0].guard_exprs[0], "r->Question");
	TEST_STREQ(cp.args[0].enums[0].name, "A");
	TEST_EQ(cp.args[0].len_field, 2);
	TEST_EQ(cp.offset, 0x223b20);
	trace_probe_release(&tp);
	TEST_TRUE(tp.fields == NULL && tp.nr_fields == 0 && tp.group == NULL);
	strbuf_init(&sb);
	TEST_EQ(fetcharg_format(&cp, &sb), 0);
	TEST_TRUE(strstr(sb.buf, "name_len=+8(+40(%di)):u64") != NULL);
	strbuf_release(&sb);
	trace_probe_release(&cp);
	trace_probe_release(&cp); /* twice is harmless */

	/* a return probe */
	probe_init(&tp, "upft", "ret");
	tp.is_return = true;
	trace_probe_add_field(&tp, "retval", "$retval", "s32", false);
	round_trip(&tp, "r:upft/ret /opt/dnsfwd:0x223b20 retval=$retval:s32");
	trace_probe_release(&tp);

	/* no path: nothing to write */
	memset(&tp, 0, sizeof(tp));
	strbuf_init(&sb);
	TEST_EQ(fetcharg_format(&tp, &sb), -EINVAL);
	strbuf_release(&sb);
}

static void test_parse(void)
{
	struct trace_probe tp;
	struct diag d;

	/* as tracefs lists it */
	diag_init(&d, NULL);
	TEST_EQ(fetcharg_parse("p:upft/ev /bin/x:0x0000000000001139 a=%di:u64 s=+0(%si):string\n",
			       &tp, &d), 0);
	TEST_STREQ(tp.group, "upft");
	TEST_STREQ(tp.event, "ev");
	TEST_STREQ(tp.path, "/bin/x");
	TEST_EQ(tp.offset, 0x1139);
	TEST_TRUE(!tp.is_return);
	TEST_EQ(tp.nr_fields, 2);
	TEST_STREQ(tp.fields[0].name, "a");
	TEST_STREQ(tp.fields[0].fetch, "%di");
	TEST_STREQ(tp.fields[0].type, "u64");
	TEST_STREQ(tp.fields[1].fetch, "+0(%si)");
	TEST_STREQ(tp.fields[1].type, "string");
	trace_probe_release(&tp);

	TEST_EQ(fetcharg_parse("r:upft/ev /lib/x86_64-linux-gnu/libc.so.6:0x4f2a0 arg1=$retval:x64",
			       &tp, &d), 0);
	TEST_TRUE(tp.is_return);
	TEST_STREQ(tp.path, "/lib/x86_64-linux-gnu/libc.so.6");
	TEST_EQ(tp.offset, 0x4f2a0);
	TEST_STREQ(tp.fields[0].fetch, "$retval");
	trace_probe_release(&tp);

	/* the kernel's own forms: no type, no name, default group, %return, ref counter */
	TEST_EQ(fetcharg_parse("p:ev /bin/x:4096 %di +8(%sp):b3@5/32", &tp, &d), 0);
	TEST_STREQ(tp.group, "uprobes");
	TEST_EQ(tp.offset, 4096);
	TEST_STREQ(tp.fields[0].name, "arg1");
	TEST_STREQ(tp.fields[0].type, NULL);
	TEST_STREQ(tp.fields[1].name, "arg2");
	TEST_STREQ(tp.fields[1].type, "b3@5/32");
	trace_probe_release(&tp);
	TEST_EQ(fetcharg_parse("p /bin/x:0x10%return", &tp, &d), 0);
	TEST_TRUE(tp.is_return);
	TEST_STREQ(tp.event, NULL);
	TEST_EQ(tp.offset, 0x10);
	trace_probe_release(&tp);
	TEST_EQ(fetcharg_parse("p:g/e /bin/x:0x10(0x3c) a=@+0x4010:u32", &tp, &d), 0);
	TEST_EQ(tp.offset, 0x10);
	TEST_STREQ(tp.path, "/bin/x");
	TEST_STREQ(tp.fields[0].fetch, "@+0x4010");
	trace_probe_release(&tp);

	/* errors */
	TEST_EQ(fetcharg_parse("x:g/e /bin/x:0x10", &tp, &d), -EINVAL);
	TEST_TRUE(d.msg && strstr(d.msg, "'p' or 'r'"));
	trace_probe_release(&tp);
	diag_release(&d);
	diag_init(&d, NULL);
	TEST_EQ(fetcharg_parse("p:g/e /bin/x", &tp, &d), -EINVAL);
	TEST_TRUE(d.msg && strstr(d.msg, "PATH:OFFSET"));
	trace_probe_release(&tp);
	diag_release(&d);
	diag_init(&d, NULL);
	TEST_EQ(fetcharg_parse("p:g/e /bin/x:0xzz", &tp, &d), -EINVAL);
	TEST_EQ(d.span.start, 13);
	trace_probe_release(&tp);
	diag_release(&d);
	diag_init(&d, NULL);
	TEST_EQ(fetcharg_parse("p:g/my-ev /bin/x:0x1", &tp, &d), -EINVAL);
	TEST_TRUE(d.msg && strstr(d.msg, "not a C identifier"));
	trace_probe_release(&tp);
	diag_release(&d);
	diag_init(&d, NULL);
	TEST_EQ(fetcharg_parse("p:g/e /bin/x:0x1 a=%di:", &tp, &d), -EINVAL);
	TEST_TRUE(d.msg && strstr(d.msg, "expected a type"));
	trace_probe_release(&tp);
	diag_release(&d);
}

/* check_limits() fails with @err and a message containing @want */
static void expect_limit(const struct trace_probe *tp, int err, const char *want)
{
	struct diag d;
	int r;

	diag_init(&d, NULL);
	r = fetcharg_check_limits(tp, &kf, &d);
	TEST_EQ(r, err);
	UT_REPORT(d.msg && strstr(d.msg, want), "limit message '%s' has '%s'",
		  d.msg ? d.msg : "(null)", want);
	diag_release(&d);
}

static int limits_ok(const struct trace_probe *tp)
{
	struct diag d;
	int r;

	diag_init(&d, NULL);
	r = fetcharg_check_limits(tp, &kf, &d);
	if (r)
		printf("# unexpected: %s\n", d.msg);
	diag_release(&d);
	return r;
}

static void test_limits(void)
{
	struct trace_probe tp;
	char buf[256];
	int i;

	/* at every limit: accepted */
	probe_init(&tp, "g", "e");
	trace_probe_add_field(&tp, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "%di", "u64", false);
	/* 14 derefs: 59 + ":u8" = 62 characters */
	strcpy(buf, "+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(%di))))))))))))))");
	trace_probe_add_field(&tp, "deep", buf, "u8", false);
	TEST_EQ(fetcharg_count_derefs(buf), 14);
	TEST_EQ(strlen(buf) + 3, 62);
	trace_probe_add_field(&tp, "arr", "+0(%di)", "u8[64]", false);
	TEST_EQ(limits_ok(&tp), 0);
	trace_probe_release(&tp);

	/* arguments: 128 ok, 129 too many */
	probe_init(&tp, "g", "e");
	for (i = 0; i < 128; i++) {
		snprintf(buf, sizeof(buf), "a%d", i);
		trace_probe_add_field(&tp, buf, "%di", "u8", false);
	}
	TEST_EQ(limits_ok(&tp), 0);
	trace_probe_add_field(&tp, "one_more", "%di", "u8", false);
	expect_limit(&tp, -E2BIG, "129 arguments; the kernel allows at most 128");
	trace_probe_release(&tp);

	/* argument name of 33 characters */
	probe_init(&tp, "g", "e");
	trace_probe_add_field(&tp, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "%di", "u64", false);
	expect_limit(&tp, -E2BIG, "length of its name is 33; the kernel allows at most 32");
	trace_probe_release(&tp);

	/* expression of 64 characters, named with the value it belongs to */
	probe_init(&tp, "g", "e");
	trace_probe_add_field(&tp, "x", "+000000000000000000000000000000000000000000000000000000(%di)",
			      "u64", false);
	{
		struct trace_arg *a = trace_probe_add_arg(&tp);

		a->name = xstrdup("x");
		a->expr = xstrdup("p->very.long.chain");
		a->nr_fields = 1;
	}
	expect_limit(&tp, -E2BIG, "argument 'x' (from 'p->very.long.chain'): the length of its "
				  "expression (FETCH:TYPE) is 64; the kernel allows at most 63");
	trace_probe_release(&tp);

	/* 15 dereferences */
	probe_init(&tp, "g", "e");
	trace_probe_add_field(&tp, "d", "+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(%di)))))))))))))))",
			      NULL, false);
	kf.max_arg_len = 0; /* not checked: only the derefs are wrong here */
	expect_limit(&tp, -E2BIG, "nested dereferences is 15; the kernel allows at most 14");
	kernel_features_default(&kf);
	trace_probe_release(&tp);

	/* array of 65 */
	probe_init(&tp, "g", "e");
	trace_probe_add_field(&tp, "s", "+0(%di)", "char[65]", false);
	expect_limit(&tp, -E2BIG, "array elements is 65; the kernel allows at most 64");
	trace_probe_release(&tp);

	/* event size: 3072 bytes of fields fit (measured: the header is not counted) */
	probe_init(&tp, "g", "e");
	for (i = 0; i < 48; i++) {
		snprintf(buf, sizeof(buf), "c%d", i);
		trace_probe_add_field(&tp, buf, "+0(%di)", "char[64]", false);
	}
	TEST_EQ(limits_ok(&tp), 0);
	trace_probe_add_field(&tp, "one", "%di", "u8", false);
	expect_limit(&tp, -E2BIG, "3073 bytes of fixed fields; the kernel allows at most 3072");
	trace_probe_release(&tp);

	/* strings: three allowed, a fourth is refused with the reason */
	probe_init(&tp, "g", "e");
	for (i = 0; i < 3; i++) {
		snprintf(buf, sizeof(buf), "s%d", i);
		trace_probe_add_field(&tp, buf, "+0(%di)", "string", false);
	}
	TEST_EQ(limits_ok(&tp), 0);
	trace_probe_add_field(&tp, "s3", "+0(%si)", "ustring", false);
	expect_limit(&tp, -E2BIG, "4 :string fields; upfront allows at most 3");
	trace_probe_release(&tp);

	/* names */
	probe_init(&tp, "g", "main.handle");
	expect_limit(&tp, -EINVAL, "event name 'main.handle' is not a C identifier");
	trace_probe_release(&tp);
	probe_init(&tp, "1g", "e");
	expect_limit(&tp, -EINVAL, "group name '1g' is not a C identifier");
	trace_probe_release(&tp);
	memset(buf, 'e', 64);
	buf[64] = '\0';
	probe_init(&tp, "g", buf);
	expect_limit(&tp, -E2BIG, "is 64 characters; the kernel allows at most 63");
	trace_probe_release(&tp);
	probe_init(&tp, "g", "e");
	trace_probe_add_field(&tp, "a", "%di", "u8", false);
	trace_probe_add_field(&tp, "a", "%si", "u8", false);
	expect_limit(&tp, -EINVAL, "'a' is used twice");
	trace_probe_release(&tp);
	probe_init(&tp, "g", "e");
	trace_probe_add_field(&tp, "a-b", "%di", "u8", false);
	expect_limit(&tp, -EINVAL, "'a-b' is not a C identifier");
	trace_probe_release(&tp);
	probe_init(&tp, "g", "e");
	trace_probe_add_field(&tp, "a", "%di", "u24", false);
	expect_limit(&tp, -EINVAL, "unknown kernel type 'u24'");
	trace_probe_release(&tp);

	/* an older kernel without char */
	probe_init(&tp, "g", "e");
	trace_probe_add_field(&tp, "s", "+0(%di)", "char[8]", false);
	kf.has_char = false;
	expect_limit(&tp, -EINVAL, "no 'char' type");
	kernel_features_default(&kf);
	TEST_EQ(limits_ok(&tp), 0);
	trace_probe_release(&tp);
}

static void test_sizes(void)
{
	/* every kernel type, each of its own size (a u16 counted as 4 went unseen) */
	static const struct {
		const char *type;
		int size;
	} all[] = {
		{ "u8", 1 }, { "s8", 1 }, { "x8", 1 }, { "char", 1 },
		{ "u16", 2 }, { "s16", 2 }, { "x16", 2 },
		{ "u32", 4 }, { "s32", 4 }, { "x32", 4 },
		{ "u64", 8 }, { "s64", 8 }, { "x64", 8 },
		{ "u16[3]", 6 }, { "x16[64]", 128 }, { "s8[5]", 5 }, { "x64[2]", 16 },
	};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		UT_REPORT(fetcharg_type_size(all[i].type) == all[i].size,
			  "%s:%d: fetcharg_type_size(\"%s\") == %d (got %d)", __FILE__, __LINE__,
			  all[i].type, all[i].size, fetcharg_type_size(all[i].type));
	TEST_EQ(fetcharg_type_size("u8"), 1);
	TEST_EQ(fetcharg_type_size("s16"), 2);
	TEST_EQ(fetcharg_type_size("x32"), 4);
	TEST_EQ(fetcharg_type_size("u64"), 8);
	TEST_EQ(fetcharg_type_size("char"), 1);
	TEST_EQ(fetcharg_type_size("string"), 4);
	TEST_EQ(fetcharg_type_size("ustring"), 4);
	TEST_EQ(fetcharg_type_size("symbol"), 8);
	TEST_EQ(fetcharg_type_size("char[64]"), 64);
	TEST_EQ(fetcharg_type_size("u8[64]"), 64);
	TEST_EQ(fetcharg_type_size("u32[4]"), 16);
	TEST_EQ(fetcharg_type_size("string[2]"), 8);
	TEST_EQ(fetcharg_type_size("b3@5/32"), 4);
	TEST_EQ(fetcharg_type_size("b1@0/8"), 1);
	TEST_EQ(fetcharg_type_size("b9@0/8"), -1);
	TEST_EQ(fetcharg_type_size("b3@5/24"), -1);
	TEST_EQ(fetcharg_type_size("u8[0]"), -1);
	TEST_EQ(fetcharg_type_size("u8[x]"), -1);
	TEST_EQ(fetcharg_type_size("u8[4"), -1);
	TEST_EQ(fetcharg_type_size("u24"), -1);
	TEST_EQ(fetcharg_type_size(""), -1);
	TEST_EQ(fetcharg_type_size(NULL), -1);
	TEST_EQ(fetcharg_type_size("float"), -1); /* upfront's, not the kernel's: x32 */

	TEST_EQ(fetcharg_count_derefs("%di"), 0);
	TEST_EQ(fetcharg_count_derefs("+8(%di)"), 1);
	TEST_EQ(fetcharg_count_derefs("+0(+0(+40(%di)))"), 3);
	TEST_EQ(fetcharg_count_derefs("@+0x4010"), 0);
	TEST_EQ(fetcharg_count_derefs(NULL), 0);
}

int main(void)
{
	test_features();
	test_format();
	test_parse();
	test_limits();
	test_sizes();
	return TEST_DONE();
}
