/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decode-fixtures.h - the tracefs formats and probes test-decode.c decodes records against,
 * shared with the decode fuzzer (tests/fuzz/fuzz-decode.c). Include it after decode.h (and
 * after "#undef ARRAY_SIZE" when traceevent's event-parse.h came first).
 */
#ifndef UPF_DECODE_FIXTURES_H
#define UPF_DECODE_FIXTURES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "events.h"
#include "util.h"

static const char format[] =
	"name: w\n"
	"ID: 1234\n"
	"format:\n"
	UPROBE_FORMAT_COMMON
	"\tfield:s64 a;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:x64 b;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] s;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\tfield:char c0[8];\toffset:36;\tsize:8;\tsigned:0;\n"
	"\tfield:char c1[8];\toffset:44;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 len;\toffset:52;\tsize:8;\tsigned:0;\n"
	"\tfield:x64 g;\toffset:60;\tsize:8;\tsigned:0;\n"
	"\tfield:x64 f;\toffset:68;\tsize:8;\tsigned:0;\n"
	"\tfield:s32 e;\toffset:76;\tsize:4;\tsigned:1;\n"
	"\tfield:u8 bo;\toffset:80;\tsize:1;\tsigned:0;\n"
	"\tfield:char ch;\toffset:81;\tsize:1;\tsigned:1;\n"
	"\tfield:x32 fl;\toffset:82;\tsize:4;\tsigned:0;\n"
	"\tfield:char by[8];\toffset:86;\tsize:8;\tsigned:0;\n"
	"\tfield:x64 sy;\toffset:94;\tsize:8;\tsigned:0;\n"
	"\tfield:u16 u;\toffset:102;\tsize:2;\tsigned:0;\n"
	"\n"
	"print fmt: \"(%lx) a=%Ld\", REC->__probe_ip, REC->a\n";

#define FIXED 104

/* Raw fetchargs (decoded by their kernel type) and a runtime-length guard. */
static const char format_raw[] =
	"name: r\n"
	"ID: 1235\n"
	"format:\n"
	UPROBE_FORMAT_COMMON
	"\tfield:s32 rs;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:x16 rx;\toffset:20;\tsize:2;\tsigned:0;\n"
	"\tfield:u32 ra[3];\toffset:22;\tsize:12;\tsigned:0;\n"
	"\tfield:x8 rb[2];\toffset:34;\tsize:2;\tsigned:0;\n"
	"\tfield:__data_loc char[] rstr;\toffset:36;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 n;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 q;\toffset:48;\tsize:8;\tsigned:1;\n"
	"\n"
	"print fmt: \"(%lx)\", REC->__probe_ip\n";

#define FIXED_RAW 56

/* An existing tracefs event shown generically (-e SYS:EVENT): addresses in hex. */
static const char format_gen[] =
	"name: g\n"
	"ID: 1236\n"
	"format:\n"
	UPROBE_FORMAT_COMMON
	"\tfield:int fd;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int flags;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long count;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long call_site;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long start_addr;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\tfield:const char * buf;\toffset:48;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"(%lx) fd=%d\", REC->__probe_ip, REC->fd\n";

static struct enum_value colors[] = { { 0, "RED" }, { 1, "BLUE" }, { 2, "GREEN" } };

/* One probe whose args use every kind; field indexes follow the format above. */
static void make_probe(struct trace_probe *tp, uint64_t vaddr)
{
	static const char *names[] = { "a", "b", "s", "c0", "c1", "len", "g", "f", "e", "bo",
				       "ch", "fl", "by", "sy", "u" };
	static const char *types[] = { "s64", "x64", "string", "char[8]", "char[8]", "u64",
				       "x64", "x64", "s32", "u8", "char", "x32", "char[8]",
				       "x64", "u16" };
	struct trace_arg *a;

	test_probe_init(tp, "w", vaddr);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		trace_probe_add_field(tp, names[i], "%di", types[i],
				      !strcmp(names[i], "len") || !strcmp(names[i], "g"));
	a = trace_probe_add_arg(tp); a->name = strdup("a"); a->kind = VK_SIGNED; a->size = 8;
	a->field = 0;
	a = trace_probe_add_arg(tp); a->name = strdup("b"); a->kind = VK_HEX; a->size = 8;
	a->field = 1;
	a = trace_probe_add_arg(tp); a->name = strdup("s"); a->kind = VK_CSTRING; a->field = 2;
	a = trace_probe_add_arg(tp); a->name = strdup("name"); a->kind = VK_LSTRING;
	a->field = 3; a->nr_fields = 2; a->len_field = 5; a->max_len = 16;
	a->guards[0] = 6; a->guard_exprs[0] = strdup("r->Question"); a->nr_guards = 1;
	a = trace_probe_add_arg(tp); a->name = strdup("f"); a->kind = VK_FLOAT; a->size = 8;
	a->field = 7;
	a = trace_probe_add_arg(tp); a->name = strdup("e"); a->kind = VK_ENUM; a->size = 4;
	a->is_signed = true; a->field = 8; a->nr_enums = ARRAY_SIZE(colors);
	a->enums = calloc(a->nr_enums, sizeof(*a->enums));
	for (size_t i = 0; i < a->nr_enums; i++) {
		a->enums[i].value = colors[i].value;
		a->enums[i].name = strdup(colors[i].name);
	}
	a = trace_probe_add_arg(tp); a->name = strdup("bo"); a->kind = VK_BOOL; a->size = 1;
	a->field = 9;
	a = trace_probe_add_arg(tp); a->name = strdup("ch"); a->kind = VK_CHAR; a->size = 1;
	a->is_signed = true; a->field = 10;
	a = trace_probe_add_arg(tp); a->name = strdup("fl"); a->kind = VK_FLOAT; a->size = 4;
	a->field = 11;
	a = trace_probe_add_arg(tp); a->name = strdup("by"); a->kind = VK_BYTES; a->field = 12;
	a = trace_probe_add_arg(tp); a->name = strdup("sy"); a->kind = VK_SYM; a->size = 8;
	a->field = 13;
	a = trace_probe_add_arg(tp); a->name = strdup("u"); a->kind = VK_UNSIGNED; a->size = 2;
	a->field = 14;
	for (size_t i = 0; i < tp->nr_args; i++)
		if (!tp->args[i].nr_fields)
			tp->args[i].nr_fields = 1;
}

/* Raw args rs, rx, ra, rb, rstr; q is items[5] of a slice whose length is field n. */
static void make_probe_raw(struct trace_probe *tp, uint64_t vaddr)
{
	static const char *names[] = { "rs", "rx", "ra", "rb", "rstr", "n", "q" };
	static const char *types[] = { "s32", "x16", "u32[3]", "x8[2]", "string", "u64", "s64" };
	struct trace_arg *a;

	test_probe_init(tp, "r", vaddr);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		trace_probe_add_field(tp, names[i], "%di", types[i], !strcmp(names[i], "n"));
	for (int i = 0; i < 5; i++) {
		a = trace_probe_add_arg(tp);
		a->name = strdup(names[i]);
		a->kind = VK_RAW;
		a->field = i;
		a->nr_fields = 1;
	}
	a = trace_probe_add_arg(tp); a->name = strdup("q"); a->kind = VK_SIGNED; a->size = 8;
	a->field = 6; a->nr_fields = 1;
	a->guards[0] = 5; a->guard_kind[0] = GUARD_LEN; a->guard_index[0] = 5;
	a->guard_exprs[0] = strdup("o.Items[5]"); a->nr_guards = 1;
}

#endif
