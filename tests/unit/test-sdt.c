// SPDX-License-Identifier: GPL-2.0-or-later
/* test-sdt.c - SDT places and $argN in the parser, note argument specs, the (REF_CTR) suffix */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>

#include "../../src/arch/arch.h"
#include "../../src/fetcharg.h"
#include "../../src/parse.h"
#include "../../src/sdt.h"
#include "../../src/arch/arm64-sdt.h"
#include "../../src/arch/x86-sdt.h"
#include "parsed.h"
#include "unittest.h"

#define TEST_BAD(text, want)                                                               \
	do {                                                                              \
		int _r = parse(text);                                                     \
		TEST_EQ(_r, -EINVAL);                                                     \
		UT_REPORT(d.msg && strstr(d.msg, want), "%s:%d: '%s' error '%s' has '%s'", \
			  __FILE__, __LINE__, text, d.msg ? d.msg : "(null)", want);      \
	} while (0)

static void test_places(void)
{
	TEST_EQ(parse("sdt_python:gc__start"), 0);
	TEST_EQ(spec.place.kind, PLACE_SDT);
	TEST_STREQ(spec.place.provider, "python");
	TEST_STREQ(spec.place.func, "gc__start");
	TEST_EQ(spec.nr_args, 0);

	/* perf's other spelling */
	TEST_EQ(parse("%sdt_python:gc__start"), 0);
	TEST_EQ(spec.place.kind, PLACE_SDT);
	TEST_STREQ(spec.place.provider, "python");

	TEST_EQ(parse("ev=sdt_upft:*"), 0);
	TEST_EQ(spec.place.kind, PLACE_SDT);
	TEST_STREQ(spec.event, "ev");
	TEST_STREQ(spec.place.func, "*");

	/* a function whose name starts with sdt_, with a line: not an SDT place */
	TEST_EQ(parse("sdt_helper:12"), 0);
	TEST_EQ(spec.place.kind, PLACE_FUNC);
	TEST_STREQ(spec.place.func, "sdt_helper");
	TEST_EQ(spec.place.line, 12);
	TEST_EQ(parse("sdt_helper"), 0);
	TEST_EQ(spec.place.kind, PLACE_FUNC);

	TEST_BAD("sdt_python:gc__start%return", "no '%return'");
	TEST_BAD("%sdt_python", "%sdt_PROVIDER:NAME");
	TEST_BAD("sdt_:x", "provider");
	TEST_BAD("sdt_python:", "probe name");
	TEST_BAD("sdt_python:gc-start", "unexpected '-'");
}

static void test_args(void)
{
	struct strbuf sb = STRBUF_INIT;

	TEST_EQ(parse("sdt_python:import__find__load__start name=$arg1:string $arg2 "
		      "+8($arg1):u32"), 0);
	TEST_EQ(spec.nr_args, 3);
	TEST_EQ(spec.args[0].expr->kind, EXPR_SDT_ARG);
	TEST_EQ(spec.args[0].expr->index, 1);
	TEST_STREQ(spec.args[0].name, "name");
	TEST_STREQ(spec.args[0].type, "string");
	TEST_EQ(spec.args[1].expr->kind, EXPR_SDT_ARG);
	TEST_EQ(spec.args[1].expr->index, 2);
	{
		char *n = probe_arg_name(&spec.args[1], 1);

		TEST_STREQ(n, "arg2");	/* as perf names SDT arguments */
		free(n);
	}
	expr_format(spec.args[1].expr, &sb);
	TEST_STREQ(strbuf_cstr(&sb), "$arg2");
	TEST_EQ(spec.args[2].expr->kind, EXPR_RAW);
	TEST_STREQ(spec.args[2].expr->name, "+8($arg1)");
	strbuf_release(&sb);

	TEST_BAD("sdt_python:gc__start $arg0", "count from $arg1");
	TEST_BAD("main $arg1", "SDT probe's argument");
	TEST_BAD("sdt_python:gc__start $argx", "unknown special variable");
}

/* sdt_arg_parse() + sdt_arg_fetch() + sdt_arg_type() of one spec */
static void spec_parsed(int (*parse)(const char *, struct sdt_arg *), const char *text,
			enum sdt_arg_kind kind, const char *fetch, const char *type)
{
	struct sdt_probe p = { .pc = 0x1000, .pc_offset = 0x1000 };
	struct sdt_arg a;
	char *f = NULL;
	struct diag dd;
	int r;

	diag_init(&dd, NULL);
	r = parse(text, &a);
	UT_REPORT(r == 0 && a.kind == kind, "%s:%d: '%s' parses as kind %d (got %d, %d: %s)",
		  __FILE__, __LINE__, text, kind, r, a.kind, a.err ? a.err : "");
	if (fetch) {
		r = sdt_arg_fetch(NULL, &p, &a, &f, &dd);
		UT_REPORT(!r && f && !strcmp(f, fetch), "%s:%d: '%s' fetches as '%s' (got '%s')",
			  __FILE__, __LINE__, text, fetch, f ? f : "(null)");
		TEST_STREQ(sdt_arg_type(&a), type);
	}
	free(f);
	sdt_arg_release(&a);
	diag_release(&dd);
}

/* each machine's parser by name: the operands are the machine's, whichever runs the test */
#define spec_is(...) spec_parsed(x86_sdt_arg_parse, __VA_ARGS__)
#define arm64_spec_is(...) spec_parsed(sdt_arg_parse_arm64, __VA_ARGS__)

/* AArch64's operands, as gcc prints them for sys/sdt.h (aarch64-linux-gnu-gcc 12) */
static void test_arm64_specs(void)
{
	struct sdt_arg a;

	arm64_spec_is("8@x0", SDT_ARG_REG, "%x0", "u64");
	arm64_spec_is("-4@w1", SDT_ARG_REG, "%x1", "s32");
	arm64_spec_is("8@w19", SDT_ARG_REG, "%x19", "u32");	/* the register is narrower */
	arm64_spec_is("-4@[sp, 12]", SDT_ARG_MEM, "+12(%sp)", "s32");
	arm64_spec_is("8@[x1]", SDT_ARG_MEM, "+0(%x1)", "u64");
	arm64_spec_is("-8@[x29, -24]", SDT_ARG_MEM, "-24(%x29)", "s64");
	arm64_spec_is("4@[x2, #16]", SDT_ARG_MEM, "+16(%x2)", "u32");
	arm64_spec_is("-4@-7", SDT_ARG_IMM, "\\-7", "s32");
	arm64_spec_is("4@5", SDT_ARG_IMM, "\\5", "u32");
	arm64_spec_is("8@[x0, #:lo12:upft_counter]", SDT_ARG_LO12, NULL, NULL);
	arm64_spec_is("8@[x0, x1]", SDT_ARG_BAD, NULL, NULL);
	arm64_spec_is("8@d0", SDT_ARG_BAD, NULL, NULL);
	TEST_EQ(sdt_arg_parse_arm64("8@x31", &a), -EINVAL);
	sdt_arg_release(&a);
	TEST_EQ(sdt_arg_parse_arm64("8@[w1]", &a), -EINVAL);
	sdt_arg_release(&a);
	TEST_EQ(sdt_arg_parse_arm64("8@[x0, #:lo12:upft_counter+8]", &a), 0);
	TEST_STREQ(a.sym, "upft_counter");
	TEST_EQ(a.disp, 8);
	sdt_arg_release(&a);
}

static void test_specs(void)
{
	struct sdt_arg a;

	spec_is("8@%rbx", SDT_ARG_REG, "%bx", "u64");
	spec_is("-4@112(%rsp)", SDT_ARG_MEM, "+112(%sp)", "s32");
	spec_is("8@-24(%rbp)", SDT_ARG_MEM, "-24(%bp)", "u64");
	spec_is("-8@%rax", SDT_ARG_REG, "%ax", "s64");
	spec_is("-4@%ebp", SDT_ARG_REG, "%bp", "s32");
	spec_is("4@%r8d", SDT_ARG_REG, "%r8", "u32");
	spec_is("-2@%cx", SDT_ARG_REG, "%cx", "s16");
	spec_is("-1@%dl", SDT_ARG_REG, "%dx", "s8");
	spec_is("1@%ah", SDT_ARG_REG, "%ax", "b8@8/64");
	spec_is("8@%eax", SDT_ARG_REG, "%ax", "u32");	/* the register is narrower */
	spec_is("-4@(%rax)", SDT_ARG_MEM, "+0(%ax)", "s32");
	spec_is("8@0x10(%r12)", SDT_ARG_MEM, "+16(%r12)", "u64");
	spec_is("4@$5", SDT_ARG_IMM, "\\5", "u32");
	spec_is("-4@$-7", SDT_ARG_IMM, "\\-7", "s32");
	spec_is("%rdi", SDT_ARG_REG, "%di", "u64");	/* no size: 8 bytes */
	spec_is("-8@upft_counter(%rip)", SDT_ARG_RIP, NULL, NULL);
	spec_is("8@(%rax,%rbx,8)", SDT_ARG_BAD, NULL, NULL);
	spec_is("8@%xmm0", SDT_ARG_BAD, NULL, NULL);
	spec_is("8@$sym", SDT_ARG_BAD, NULL, NULL);

	TEST_EQ(x86_sdt_arg_parse("3@%rax", &a), -EINVAL);
	sdt_arg_release(&a);
	TEST_EQ(x86_sdt_arg_parse("8@%foo", &a), -EINVAL);
	sdt_arg_release(&a);
	TEST_EQ(x86_sdt_arg_parse("8@", &a), -EINVAL);
	sdt_arg_release(&a);
	TEST_EQ(x86_sdt_arg_parse("-8@upft_counter+8(%rip)", &a), 0);
	TEST_STREQ(a.sym, "upft_counter");
	TEST_EQ(a.disp, 8);
	TEST_EQ(a.got, false);
	sdt_arg_release(&a);
	/* gcc -O2 -fPIC: a function's address as its GOT slot's content */
	TEST_EQ(x86_sdt_arg_parse("8@qsort@GOTPCREL(%rip)", &a), 0);
	TEST_EQ(a.kind, SDT_ARG_RIP);
	TEST_STREQ(a.sym, "qsort");
	TEST_EQ(a.got, true);
	TEST_EQ(a.disp, 0);
	sdt_arg_release(&a);
	TEST_EQ(x86_sdt_arg_parse("8@qsort@PLT(%rip)", &a), 0);
	TEST_EQ(a.kind, SDT_ARG_BAD);
	sdt_arg_release(&a);
	/* sdt_arg_parse(): the current machine's (the host's, before a binary is opened) */
	TEST_EQ(sdt_arg_parse(BY_MACHINE("8@%rbx", "8@x19"), &a), 0);
	TEST_EQ(a.kind, SDT_ARG_REG);
	sdt_arg_release(&a);
	TEST_EQ(sdt_arg_parse(BY_MACHINE("8@x19", "8@%rbx"), &a), -EINVAL);
	sdt_arg_release(&a);
}

static void test_ref_ctr(void)
{
	const char *line = "p:sdt_python/gc__start /usr/bin/python3.11:0x287f3(0x68326e) "
			   "arg1=+112(%sp):s32";
	struct trace_probe tp;
	struct strbuf sb = STRBUF_INIT;
	struct diag dd;

	diag_init(&dd, line);
	TEST_EQ(fetcharg_parse(line, &tp, &dd), 0);
	TEST_EQ(tp.offset, 0x287f3);
	TEST_EQ(tp.ref_ctr_offset, 0x68326e);
	fetcharg_format(&tp, &sb);
	TEST_STREQ(strbuf_cstr(&sb), line);
	trace_probe_release(&tp);
	diag_release(&dd);
	strbuf_release(&sb);

	line = "p:g/e /bin/x:0x10(zz)";
	diag_init(&dd, line);
	TEST_EQ(fetcharg_parse(line, &tp, &dd), -EINVAL);
	trace_probe_release(&tp);
	diag_release(&dd);
}

int main(void)
{
	test_places();
	test_args();
	test_specs();
	test_arm64_specs();
	test_ref_ctr();
	probe_spec_release(&spec);
	diag_release(&d);
	return TEST_DONE();
}
