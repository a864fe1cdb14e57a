// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-whole.c - whole values (VK_STRUCT, VK_ARRAY) from raw records: a struct with a nested
 * struct, an anonymous member and a cut (the budget), a Go slice read as one packed array
 * whose elements past its length are not shown, in gdb's, delve's and Rust's spelling and
 * as JSON; a trace_probe with whole values copies deeply
 */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#undef ARRAY_SIZE
#include "decode.h"
#include "render.h"
#include "events.h"
#include "unittest.h"

static const char format[] =
	"name: w\n"
	"ID: 1400\n"
	"format:\n"
	UPROBE_FORMAT_COMMON
	"\tfield:u8 s;\toffset:16;\tsize:1;\tsigned:0;\n"
	"\tfield:s32 s_x;\toffset:17;\tsize:4;\tsigned:1;\n"
	"\tfield:s32 s_y;\toffset:21;\tsize:4;\tsigned:1;\n"
	"\tfield:u16 s_zone;\toffset:25;\tsize:2;\tsigned:0;\n"
	"\tfield:s64 xs[4];\toffset:27;\tsize:32;\tsigned:1;\n"
	"\tfield:u64 xs_len;\toffset:59;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 xs_cap;\toffset:67;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"(%lx)\", REC->__probe_ip\n";

#define FIXED 75

static void leaf(struct trace_arg *a, const char *member, enum value_kind kind, int size,
		 int field)
{
	memset(a, 0, sizeof(*a));
	a->name = strdup(member);
	a->expr = member[0] ? strdup(member) : NULL;
	a->kind = kind;
	a->size = (unsigned int)size;
	a->is_signed = kind == VK_SIGNED;
	a->field = field;
	a->nr_fields = 1;
	a->len_field = a->cap_field = a->ptr_field = -1;
}

/* s = {p = {x, y}, {zone}, ...}; xs = []int64 of which 4 were read */
static void make_probe(struct trace_probe *tp, enum show_style style)
{
	static const char *names[] = { "s", "s_x", "s_y", "s_zone", "xs", "xs_len", "xs_cap" };
	static const char *types[] = { "u8", "s32", "s32", "u16", "s64[4]", "u64", "u64" };
	struct trace_arg *a, *p;

	test_probe_init(tp, "w", 0x1100);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		trace_probe_add_field(tp, names[i], "%di", types[i], i >= 5);
	a = trace_probe_add_arg(tp);
	a->name = strdup("s");
	a->type_name = strdup(style == SHOW_RUST ? "t::T" : "main.T");
	a->kind = VK_STRUCT;
	a->style = style;
	a->more = true;
	a->nr_parts = 2;
	a->parts = calloc(2, sizeof(*a->parts));
	p = &a->parts[0];
	leaf(p, "p", VK_STRUCT, 0, 1);
	p->style = style;
	p->type_name = strdup(style == SHOW_RUST ? "t::P" : "main.P");
	p->nr_parts = 2;
	p->parts = calloc(2, sizeof(*p->parts));
	leaf(&p->parts[0], "x", VK_SIGNED, 4, 1);
	leaf(&p->parts[1], "y", VK_SIGNED, 4, 2);
	p = &a->parts[1];
	leaf(p, "", VK_STRUCT, 0, 3);	/* anonymous */
	p->style = style;
	p->nr_parts = 1;
	p->parts = calloc(1, sizeof(*p->parts));
	leaf(&p->parts[0], "zone", VK_UNSIGNED, 2, 3);

	a = trace_probe_add_arg(tp);
	a->name = strdup("xs");
	a->type_name = strdup("[]int");
	a->kind = VK_ARRAY;
	a->style = style;
	a->field = 4;
	a->packed = true;
	a->elem_size = 8;
	a->len_field = 5;
	a->cap_field = 6;
	a->nr_parts = 1;
	a->parts = calloc(1, sizeof(*a->parts));
	leaf(a->parts, "", VK_SIGNED, 8, 0);
}

static int make_record(unsigned char *rec, uint64_t len)
{
	uint16_t type = 1400, zone = 3;
	int32_t pid = 42, x = 1, y = -2;
	uint64_t ip = 0x555555554000ULL + 0x1100, cap = 8;
	int64_t xs[4] = { 10, 20, 30, 99 };

	memset(rec, 0, 96);
	memcpy(rec, &type, 2);
	memcpy(rec + 4, &pid, 4);
	memcpy(rec + 8, &ip, 8);
	memcpy(rec + 17, &x, 4);
	memcpy(rec + 21, &y, 4);
	memcpy(rec + 25, &zone, 2);
	memcpy(rec + 27, xs, 32);
	memcpy(rec + 59, &len, 8);
	memcpy(rec + 67, &cap, 8);
	return FIXED;
}

/* one style: the texts of s and xs for a slice of length @len */
static void check(struct tep_handle *tep, enum show_style style, uint64_t len, const char *s_text,
		  const char *xs_text, const char *json)
{
	struct trace_probe tp, copy;
	struct decoder *dc;
	unsigned char rec[96];
	struct event ev;
	struct diag d;
	int size;

	diag_init(&d, NULL);
	make_probe(&tp, style);
	trace_probe_copy(&copy, &tp);	/* the decoder works from a deep copy */
	trace_probe_release(&tp);
	dc = decoder_new(tep, NULL, false);
	TEST_EQ(decoder_add_probe(dc, &copy, &d), 0);
	size = make_record(rec, len);
	TEST_EQ(decode_record(dc, rec, size, 1000, 0, &ev), 0);
	TEST_EQ(ev.nr_vals, 2);
	TEST_STREQ(text_of(&ev.vals[0]), s_text);
	TEST_STREQ(text_of(&ev.vals[1]), xs_text);
	if (json)
		TEST_STREQ(json_args(&ev), json);
	decoder_free(dc);
	trace_probe_release(&copy);
	diag_release(&d);
}

int main(void)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *te = NULL;

	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, 4096);
	TEST_EQ(tep_parse_format(tep, &te, format, sizeof(format) - 1, "upft"), 0);

	/* gdb: an anonymous member nested without a name, a cut struct ends in ", ..." */
	check(tep, SHOW_C, 3, "{p = {x = 1, y = -2}, {zone = 3}, ...}",
	      "std::vector of length 3, capacity 8 = {10, 20, 30}",
	      "\"args\":{\"s\":{\"p\":{\"x\":1,\"y\":-2},\"zone\":3,\"...\":true},"
	      "\"xs\":{\"len\":3,\"cap\":8,\"elems\":[10,20,30]}}}");
	/* delve: members' types named, elements' not; a slice past what was read */
	check(tep, SHOW_GO, 3, "main.T {p: main.P {x: 1, y: -2}, {zone: 3}, ...}",
	      "[]int len: 3, cap: 8, [10,20,30]", NULL);
	check(tep, SHOW_GO, 6, "main.T {p: main.P {x: 1, y: -2}, {zone: 3}, ...}",
	      "[]int len: 6, cap: 8, [10,20,30,99,...+2 more]",
	      "\"args\":{\"s\":{\"p\":{\"x\":1,\"y\":-2},\"zone\":3,\"...\":true},"
	      "\"xs\":{\"len\":6,\"cap\":8,\"elems\":[10,20,30,99,\"...\"]}}}");
	check(tep, SHOW_GO, 0, "main.T {p: main.P {x: 1, y: -2}, {zone: 3}, ...}",
	      "[]int len: 0, cap: 8, []", NULL);
	/* Rust's {:?} */
	check(tep, SHOW_RUST, 2, "T { p: P { x: 1, y: -2 }, { zone: 3 }, .. }",
	      "len: 2, cap: 8, [10, 20]", NULL);
	tep_free(tep);
	return TEST_DONE();
}
