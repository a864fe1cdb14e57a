// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-gomap.c - Go maps decoded from the slots of the table fetched (VK_MAP): a bucket's
 * tophash bytes (Go up to 1.23) and a swiss group's control bytes (Go 1.24+, which the suite's
 * Go 1.19 cannot build), lookups by key; text and JSON
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#undef ARRAY_SIZE
#include "decode.h"
#include "events.h"
#include "render.h"
#include "unittest.h"

/* n, ctrl, small, then k0..k7 and v0..v7: every field a u64 at 16 + 8 * index */
#define NR_FIELDS 19
#define MAP_REC (16 + 8 * NR_FIELDS)

static const char format_map[] =
	"name: m\n"
	"ID: 1240\n"
	"format:\n"
	UPROBE_FORMAT_COMMON
	"\tfield:u64 n;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:x64 ctrl;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 small;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 k0;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 k1;\toffset:48;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 k2;\toffset:56;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 k3;\toffset:64;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 k4;\toffset:72;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 k5;\toffset:80;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 k6;\toffset:88;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 k7;\toffset:96;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 v0;\toffset:104;\tsize:8;\tsigned:1;\n"
	"\tfield:s64 v1;\toffset:112;\tsize:8;\tsigned:1;\n"
	"\tfield:s64 v2;\toffset:120;\tsize:8;\tsigned:1;\n"
	"\tfield:s64 v3;\toffset:128;\tsize:8;\tsigned:1;\n"
	"\tfield:s64 v4;\toffset:136;\tsize:8;\tsigned:1;\n"
	"\tfield:s64 v5;\toffset:144;\tsize:8;\tsigned:1;\n"
	"\tfield:s64 v6;\toffset:152;\tsize:8;\tsigned:1;\n"
	"\tfield:s64 v7;\toffset:160;\tsize:8;\tsigned:1;\n"
	"\n"
	"print fmt: \"(%lx) n=%Lu\", REC->__probe_ip, REC->n\n";

/* a map[uint64]int64 as emit_go_map() makes it: @swiss picks the control bytes' rule;
 * @lookup: m[@key] */
static void make_map_probe(struct trace_probe *tp, uint64_t vaddr, bool swiss, bool lookup,
			   uint64_t key)
{
	static const char *names[NR_FIELDS] = { "n", "ctrl", "small", "k0", "k1", "k2", "k3",
						"k4", "k5", "k6", "k7", "v0", "v1", "v2", "v3",
						"v4", "v5", "v6", "v7" };
	struct trace_arg *a;

	test_probe_init(tp, "m", vaddr);
	for (int i = 0; i < NR_FIELDS; i++)
		trace_probe_add_field(tp, names[i], "%di", i < 3 ? (i == 1 ? "x64" : "u64") :
				      i < 11 ? "u64" : "s64", i > 0);
	a = trace_probe_add_arg(tp);
	*a = (struct trace_arg){ .kind = VK_MAP, .size = 8, .nr_fields = 1, .len_field = -1 };
	a->name = strdup("m");
	a->type_name = strdup("map[uint64]int64");
	a->map = (struct trace_map){ .ctrl = 1, .small = 2, .old = -1, .over = -1,
				     .swiss = swiss, .used_min = swiss ? 0 : 5, .slots = 8,
				     .lookup = lookup, .key_num = key };
	a->parts = calloc(16, sizeof(*a->parts));
	a->nr_parts = 16;
	for (int i = 0; i < 16; i++) {
		struct trace_arg *k = &a->parts[i];
		int field = i % 2 ? 11 + i / 2 : 3 + i / 2;

		*k = (struct trace_arg){ .kind = i % 2 ? VK_SIGNED : VK_UNSIGNED, .size = 8,
					 .field = field, .nr_fields = 1, .len_field = -1 };
		k->name = strdup(names[field]);
		k->expr = strdup(i % 2 ? "value" : "key");
	}
}

/* a record: @n entries, control bytes @ctrl, @small, slot i's key i*10 and value i*i*100 */
static int make_map_record(unsigned char *rec, uint64_t ip, uint64_t n, uint64_t ctrl,
			   uint64_t small)
{
	uint16_t type = 1240;
	int32_t pid = 44;

	memset(rec, 0, MAP_REC);
	memcpy(rec, &type, 2);
	memcpy(rec + 4, &pid, 4);
	memcpy(rec + 8, &ip, 8);
	memcpy(rec + 16, &n, 8);
	memcpy(rec + 24, &ctrl, 8);
	memcpy(rec + 32, &small, 8);
	for (uint64_t i = 0; i < 8; i++) {
		uint64_t k = i * 10;
		int64_t v = (int64_t)(i * i * 100);

		memcpy(rec + 40 + 8 * i, &k, 8);
		memcpy(rec + 104 + 8 * i, &v, 8);
	}
	return MAP_REC;
}

/* the text of map @m decoded from a record at @ip (see make_map_record()) */
static const char *map_text(struct decoder *dc, uint64_t ip, uint64_t n, uint64_t ctrl,
			    uint64_t small, struct event *ev)
{
	unsigned char rec[MAP_REC];
	int size = make_map_record(rec, ip, n, ctrl, small);

	if (decode_record(dc, rec, size, 1000, 0, ev))
		return "(not decoded)";
	return text_of(val(ev, "m"));
}

int main(void)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *te = NULL;
	struct trace_probe swiss, hmap, look, look2;
	const uint64_t base = 0x555555554000ULL;
	struct decoder *dc;
	struct event ev;
	struct diag d;

	diag_init(&d, NULL);
	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, 4096);
	TEST_EQ(tep_parse_format(tep, &te, format_map, sizeof(format_map) - 1, "upft"), 0);
	make_map_probe(&swiss, 0x1000, true, false, 0);
	make_map_probe(&hmap, 0x1100, false, false, 0);
	make_map_probe(&look, 0x1200, true, true, 20);
	make_map_probe(&look2, 0x1300, false, true, 30);
	dc = decoder_new(tep, NULL, false);
	TEST_EQ(decoder_add_probe(dc, &swiss, &d), 0);
	TEST_EQ(decoder_add_probe(dc, &hmap, &d), 0);
	TEST_EQ(decoder_add_probe(dc, &look, &d), 0);
	TEST_EQ(decoder_add_probe(dc, &look2, &d), 0);

	/*
	 * swiss: a slot is in use when its control byte's top bit is clear (ctrlEmpty 0x80,
	 * ctrlDeleted 0xfe): byte 0 0x12 used, 1 0x05 used, 2 0xfe deleted, 3 0x80 empty,
	 * 4 0x7f used; shown in slot order
	 */
	TEST_STREQ(map_text(dc, base + 0x1000, 3, 0x8080807f80fe0512ULL, 0, &ev),
		   "map[uint64]int64 [0: 0, 10: 100, 40: 1600]");
	TEST_TRUE(strstr(json_of(&ev), "\"m\":{\"len\":3,\"entries\":{\"0\":0,\"10\":100,"
			 "\"40\":1600}}") != NULL);
	/* more entries than slots in use: counted as more */
	TEST_STREQ(map_text(dc, base + 0x1000, 5, 0x8080807f80fe0512ULL, 0, &ev),
		   "map[uint64]int64 [0: 0, 10: 100, 40: 1600, ...+2 more]");
	TEST_TRUE(strstr(json_of(&ev), ",\"more\":true}") != NULL);
	/* a large swiss map (a directory of tables): no group to read, only its length */
	TEST_STREQ(map_text(dc, base + 0x1000, 100, 0x12, 4, &ev),
		   "map[uint64]int64 [...+100 more]");
	TEST_STREQ(map_text(dc, base + 0x1000, 0, 0x8080808080808080ULL, 0, &ev),
		   "map[uint64]int64 []");
	TEST_TRUE(strstr(json_of(&ev), "\"m\":{\"len\":0,\"entries\":{}}") != NULL);

	/*
	 * up to Go 1.23: a slot is in use when its tophash is minTopHash (5) or more; 0 is
	 * emptyRest, 1 emptyOne, 2..4 evacuated; B > 0: the first bucket's, the rest counted
	 */
	TEST_STREQ(map_text(dc, base + 0x1100, 2, 0x0000000500ff0301ULL, 0, &ev),
		   "map[uint64]int64 [20: 400, 40: 1600]");
	TEST_STREQ(map_text(dc, base + 0x1100, 40, 0x0000000500ff0301ULL, 3, &ev),
		   "map[uint64]int64 [20: 400, 40: 1600, ...+38 more]");

	/* lookups: found; absent from a small map (null); not among a large map's (unknown) */
	TEST_STREQ(map_text(dc, base + 0x1200, 3, 0x8080807f80fe0512ULL, 0, &ev), "null");
	TEST_EQ(val(&ev, "m")->null, 1);	/* 20 is in slot 2, which is deleted */
	TEST_STREQ(map_text(dc, base + 0x1200, 3, 0x8080807f80120512ULL, 0, &ev), "400");
	TEST_TRUE(strstr(json_of(&ev), "\"m\":400") != NULL);
	TEST_STREQ(map_text(dc, base + 0x1200, 30, 0x12, 4, &ev), "(unknown)");
	TEST_TRUE(strstr(json_of(&ev), "\"m\":null") != NULL);
	/* slot 3 not in use, then in use */
	TEST_STREQ(map_text(dc, base + 0x1300, 40, 0x0000000500ff0301ULL, 3, &ev), "(unknown)");
	TEST_STREQ(map_text(dc, base + 0x1300, 40, 0x0000000505ff0301ULL, 3, &ev), "900");

	decoder_free(dc);
	trace_probe_release(&swiss);
	trace_probe_release(&hmap);
	trace_probe_release(&look);
	trace_probe_release(&look2);
	diag_release(&d);
	tep_free(tep);
	return TEST_DONE();
}
