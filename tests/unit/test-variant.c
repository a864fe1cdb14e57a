// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-variant.c - a Rust enum with data (VK_VARIANT) from raw records: the discriminant picks
 * the variant, the default one when no other matches (the niche layout), and its payload is
 * shown as Rust's {:?} and serde's externally tagged JSON; a trace_probe with variants copies
 * deeply
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
	"name: m\n"
	"ID: 1300\n"
	"format:\n"
	UPROBE_FORMAT_COMMON
	"\tfield:u64 m;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:s32 m_x;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:s32 m_y;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:u32 m_0;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"(%lx)\", REC->__probe_ip\n";

#define FIXED 36

static struct trace_arg *part(struct trace_arg *parts, int i, const char *name,
			      const char *member, enum value_kind kind, int field)
{
	struct trace_arg *a = &parts[i];

	memset(a, 0, sizeof(*a));
	a->name = strdup(name);
	a->expr = strdup(member);
	a->kind = kind;
	a->size = 4;
	a->field = field;
	a->nr_fields = 1;
	a->len_field = -1;
	return a;
}

/* enum Msg { Quit, Move { x: i32, y: i32 }, Write(u32) } with Write the niche's default */
static void make_probe(struct trace_probe *tp)
{
	static const char *names[] = { "m", "m_x", "m_y", "m_0" };
	static const char *types[] = { "u64", "s32", "s32", "u32" };
	struct trace_arg *a;

	test_probe_init(tp, "m", 0x1100);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		trace_probe_add_field(tp, names[i], "%di", types[i], i == 0);
	a = trace_probe_add_arg(tp);
	a->name = strdup("m");
	a->kind = VK_VARIANT;
	a->size = 8;
	a->field = 0;
	a->nr_fields = 1;
	a->nr_variants = 3;
	a->variants = calloc(3, sizeof(*a->variants));
	a->variants[0] = (struct trace_variant){ .discr = 0x8000000000000000ULL,
						 .name = strdup("Quit") };
	a->variants[1] = (struct trace_variant){ .discr = 0x8000000000000001ULL,
						 .name = strdup("Move"), .first = 0, .nr = 2 };
	a->variants[2] = (struct trace_variant){ .is_default = true, .tuple = true,
						 .name = strdup("Write"), .first = 2, .nr = 1 };
	a->nr_parts = 3;
	a->parts = calloc(3, sizeof(*a->parts));
	part(a->parts, 0, "m_x", "x", VK_SIGNED, 1);
	part(a->parts, 1, "m_y", "y", VK_SIGNED, 2);
	part(a->parts, 2, "m_0", "__0", VK_UNSIGNED, 3);
}

static int make_record(unsigned char *rec, uint64_t d, int32_t x, int32_t y, uint32_t t)
{
	uint16_t type = 1300;
	int32_t pid = 42;
	uint64_t ip = 0x555555554000ULL + 0x1100;

	memset(rec, 0, 64);
	memcpy(rec, &type, 2);
	memcpy(rec + 4, &pid, 4);
	memcpy(rec + 8, &ip, 8);
	memcpy(rec + 16, &d, 8);
	memcpy(rec + 24, &x, 4);
	memcpy(rec + 28, &y, 4);
	memcpy(rec + 32, &t, 4);
	return FIXED;
}

int main(void)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *te = NULL;
	struct trace_probe tp, copy;
	struct decoder *dc;
	struct event ev;
	unsigned char rec[64];
	struct diag d;
	int size;

	diag_init(&d, NULL);
	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, 4096);
	TEST_EQ(tep_parse_format(tep, &te, format, sizeof(format) - 1, "upft"), 0);
	make_probe(&tp);
	/* the decoder works from a deep copy: the original is freed first */
	trace_probe_copy(&copy, &tp);
	trace_probe_release(&tp);
	dc = decoder_new(tep, NULL, false);
	TEST_EQ(decoder_add_probe(dc, &copy, &d), 0);

	size = make_record(rec, 0x8000000000000001ULL, -1, 2, 0);
	TEST_EQ(decode_record(dc, rec, size, 1000, 0, &ev), 0);
	TEST_EQ(ev.nr_vals, 1);
	TEST_EQ(ev.vals[0].kind, VK_VARIANT);
	TEST_STREQ(text_of(&ev.vals[0]), "Move { x: -1, y: 2 }");
	TEST_STREQ(json_args(&ev), "\"args\":{\"m\":{\"Move\":{\"x\":-1,\"y\":2}}}}");

	size = make_record(rec, 0x8000000000000000ULL, 5, 6, 7);
	TEST_EQ(decode_record(dc, rec, size, 2000, 0, &ev), 0);
	TEST_STREQ(text_of(&ev.vals[0]), "Quit");
	TEST_STREQ(json_args(&ev), "\"args\":{\"m\":\"Quit\"}}");

	/* any other discriminant: the dataful variant (here a capacity, in the niche layout) */
	size = make_record(rec, 24, 5, 6, 7);
	TEST_EQ(decode_record(dc, rec, size, 3000, 0, &ev), 0);
	TEST_STREQ(text_of(&ev.vals[0]), "Write(7)");
	TEST_STREQ(json_args(&ev), "\"args\":{\"m\":{\"Write\":7}}}");

	decoder_free(dc);
	trace_probe_release(&copy);
	tep_free(tep);
	diag_release(&d);
	return TEST_DONE();
}
