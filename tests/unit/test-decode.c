// SPDX-License-Identifier: GPL-2.0-or-later
/* test-decode.c - raw uprobe records (inline tracefs format + bytes) -> values -> text/JSON */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#undef ARRAY_SIZE
#include "arch/arch.h"
#include "decode.h"
#include "render.h"
#include "decode-fixtures.h"
#include "events.h"
#include "unittest.h"

static void put(unsigned char *rec, int off, const void *v, size_t n)
{
	memcpy(rec + off, v, n);
}

static void put64(unsigned char *rec, int off, uint64_t v)
{
	put(rec, off, &v, 8);
}

static int make_record_raw(unsigned char *rec, uint64_t ip, uint64_t n)
{
	uint16_t type = 1235, x = 0xbeef;
	int32_t pid = 43, rs = -7;
	uint32_t ra[3] = { 20, 21, 4000000000U }, loc = (3 << 16) | FIXED_RAW;

	memset(rec, 0, 512);
	put(rec, 0, &type, 2);
	put(rec, 4, &pid, 4);
	put64(rec, 8, ip);
	put(rec, 16, &rs, 4);
	put(rec, 20, &x, 2);
	put(rec, 22, ra, 12);
	rec[34] = 0x0a;
	rec[35] = 0xff;
	put(rec, 36, &loc, 4);
	put64(rec, 40, n);
	put64(rec, 48, (uint64_t)-9);
	memcpy(rec + FIXED_RAW, "ok", 3);
	return FIXED_RAW + 3;
}

/* A record of event 1234: @str goes to the data_loc (NULL: a fault), @lstr/@len the chunks. */
static int make_record(unsigned char *rec, uint64_t ip, const char *str, const char *lstr,
		       uint64_t len, uint64_t guard)
{
	uint16_t type = 1234;
	int32_t pid = 42, e = 2;
	double f = 3.5;
	float fl = 1.25f;
	uint64_t bits;
	uint32_t bits32, loc;
	int size = FIXED;
	uint16_t u = 65535;

	memset(rec, 0, 512);
	put(rec, 0, &type, 2);
	put(rec, 4, &pid, 4);
	put64(rec, 8, ip);
	put64(rec, 16, (uint64_t)-5);
	put64(rec, 24, 0x1f);
	if (str) {
		size_t n = strlen(str) + 1;

		loc = (uint32_t)(n << 16) | FIXED;
		memcpy(rec + FIXED, str, n);
		size += n;
	} else {
		loc = FIXED;	/* length 0: the kernel's mark for a failed read */
	}
	put(rec, 32, &loc, 4);
	memcpy(rec + 36, lstr, strlen(lstr) < 16 ? strlen(lstr) : 16);
	put64(rec, 52, len);
	put64(rec, 60, guard);
	memcpy(&bits, &f, 8);
	put64(rec, 68, bits);
	put(rec, 76, &e, 4);
	rec[80] = 1;
	rec[81] = 'x';
	memcpy(&bits32, &fl, 4);
	put(rec, 82, &bits32, 4);
	memcpy(rec + 86, "ab", 2);
	put64(rec, 94, 0x401000);
	put(rec, 102, &u, 2);
	return size;
}

static struct trace_arg *arg_named(struct trace_probe *tp, const char *name)
{
	for (size_t i = 0; i < tp->nr_args; i++)
		if (!strcmp(tp->args[i].name, name))
			return &tp->args[i];
	return NULL;
}

int main(void)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *te = NULL;
	struct trace_probe tp, tp2, tpr;
	struct decoder *dc;
	struct event ev;
	unsigned char rec[512];
	const uint64_t base = 0x555555554000ULL;
	struct diag d;
	int size;

	diag_init(&d, NULL);
	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, 4096);
	TEST_EQ(tep_parse_format(tep, &te, format, sizeof(format) - 1, "upft"), 0);
	make_probe(&tp, 0x1100);
	make_probe(&tp2, 0x1240);
	dc = decoder_new(tep, NULL, false);
	TEST_EQ(decoder_add_probe(dc, &tp, &d), 0);

	/* every kind */
	size = make_record(rec, base + 0x1100, "hi\033\n", "hello world!!!!!", 11, 0x7fff0000);
	TEST_EQ(decode_record(dc, rec, size, 1000, 1, &ev), 0);
	TEST_EQ(ev.tid, 42);
	TEST_STREQ(ev.probe, "w");
	TEST_EQ(ev.nr_vals, 12);
	TEST_EQ(val(&ev, "a")->num.s, -5);
	TEST_STREQ(text_of(val(&ev, "a")), "-5");
	TEST_STREQ(text_of(val(&ev, "b")), "0x1f");
	TEST_STREQ(text_of(val(&ev, "s")), "\"hi\\e\\n\"");
	TEST_STREQ(text_of(val(&ev, "name")), "\"hello world\"");
	TEST_EQ(val(&ev, "name")->cut, 0);
	TEST_STREQ(text_of(val(&ev, "f")), "3.5");
	TEST_STREQ(text_of(val(&ev, "e")), "GREEN");
	TEST_STREQ(text_of(val(&ev, "bo")), "true");
	TEST_STREQ(text_of(val(&ev, "ch")), "'x'");
	TEST_STREQ(text_of(val(&ev, "fl")), "1.25");
	TEST_STREQ(text_of(val(&ev, "by")), "\"ab\"");
	TEST_STREQ(text_of(val(&ev, "sy")), "0x401000");	/* no binary: the address */
	TEST_STREQ(text_of(val(&ev, "u")), "65535");
	TEST_STREQ(json_of(&ev),
		   "{\"time\":0.000000,\"cpu\":1,\"pid\":42,\"tid\":42,\"comm\":\"<...>\","
		   "\"probe\":\"w\",\"args\":{\"a\":-5,\"b\":\"0x1f\",\"s\":\"hi\\u001b\\n\","
		   "\"name\":\"hello world\",\"f\":3.5,\"e\":\"GREEN\",\"bo\":true,\"ch\":\"x\","
		   "\"fl\":1.25,\"by\":\"ab\",\"sy\":\"0x401000\",\"u\":65535}}\n");

	/* a value the DWARF computes as a field plus a constant (a caller's register minus 1,
	 * its frame's address plus 8): added, wrapped to the value's size */
	arg_named(&tp, "a")->value_add = -3;
	arg_named(&tp, "b")->value_add = 16;
	arg_named(&tp, "u")->value_add = 1;
	size = make_record(rec, base + 0x1100, "hi", "hello", 5, 0x7fff0000);
	TEST_EQ(decode_record(dc, rec, size, 1000, 1, &ev), 0);
	TEST_STREQ(text_of(val(&ev, "a")), "-8");
	TEST_STREQ(text_of(val(&ev, "b")), "0x2f");
	TEST_STREQ(text_of(val(&ev, "u")), "0");
	arg_named(&tp, "a")->value_add = 0;
	arg_named(&tp, "b")->value_add = 0;
	arg_named(&tp, "u")->value_add = 0;

	/* a record shorter than the event's fixed fields is refused, never read past its end
	 * (found by fuzz-decode: 22 bytes of a 104-byte event) */
	TEST_EQ(decode_record(dc, rec, 22, 1500, 0, &ev), -EINVAL);
	TEST_EQ(decode_record(dc, rec, 1, 1500, 0, &ev), -EINVAL);

	/* a string longer than captured is cut to the chunks and marked */
	size = make_record(rec, base + 0x1100, "x", "0123456789abcdefXYZ", 40, 0x7fff0000);
	TEST_EQ(decode_record(dc, rec, size, 2000, 0, &ev), 0);
	TEST_EQ(val(&ev, "name")->len, 16);
	TEST_EQ(val(&ev, "name")->cut, 1);
	TEST_STREQ(text_of(val(&ev, "name")), "\"0123456789abcdef\"...");

	/* faults: a NULL guard, a non-canonical guard, an empty data_loc */
	size = make_record(rec, base + 0x1100, NULL, "junk", 4, 0);
	TEST_EQ(decode_record(dc, rec, size, 3000, 0, &ev), 0);
	TEST_EQ(val(&ev, "name")->fault, 1);
	TEST_STREQ(val(&ev, "name")->fault_expr, "r->Question");
	TEST_STREQ(text_of(val(&ev, "name")), "(fault)");
	TEST_EQ(val(&ev, "s")->fault, 1);
	TEST_TRUE(strstr(json_of(&ev), "\"s\":null,\"name\":null,") != NULL);
	size = make_record(rec, base + 0x1100, "ok", "junk", 4, 0x8000000000001000ULL);
	TEST_EQ(decode_record(dc, rec, size, 3000, 0, &ev), 0);
	TEST_EQ(val(&ev, "name")->fault, 1);
	TEST_EQ(decode_fault_addr(4095), 1);
	TEST_EQ(decode_fault_addr(0x7ffff7dd0000ULL), 0);
	/* the machine's user space: x86-64's canonical addresses (47 bits, and the top half),
	 * arm64's 52 bits (Debian's arm64 kernel maps user space up to 2^52 on request) */
	TEST_EQ(decode_fault_addr(0xffff800000000000ULL), arch_current()->machine == EM_AARCH64);
	TEST_EQ(decode_fault_addr(0x0000800000000000ULL), arch_current()->machine == EM_X86_64);

	/* invalid UTF-8 and control bytes stay inert in text and valid in JSON */
	size = make_record(rec, base + 0x1100, "\xff\xfe\033[2J\xc3\xa9", "a\"b\\c", 5, 0x7fff0000);
	TEST_EQ(decode_record(dc, rec, size, 3000, 0, &ev), 0);
	TEST_STREQ(text_of(val(&ev, "s")), "\"\\xff\\xfe\\e[2J\xc3\xa9\"");
	TEST_STREQ(text_of(val(&ev, "name")), "\"a\\\"b\\\\c\"");
	TEST_TRUE(strstr(json_of(&ev), "\"s\":\"\\udcff\\udcfe\\u001b[2J\xc3\xa9\"") != NULL);
	TEST_TRUE(strstr(json_of(&ev), "\"name\":\"a\\\"b\\\\c\"") != NULL);

	/* two probe points of one event: the record's ip picks the right one */
	TEST_EQ(decoder_add_probe(dc, &tp2, &d), 0);
	size = make_record(rec, base + 0x1240, "x", "y", 1, 0x7fff0000);
	TEST_EQ(decode_record(dc, rec, size, 4000, 0, &ev), 0);
	TEST_TRUE(ev.tp == &tp2);
	size = make_record(rec, base + 0x1100, "x", "y", 1, 0x7fff0000);
	TEST_EQ(decode_record(dc, rec, size, 4000, 0, &ev), 0);
	TEST_TRUE(ev.tp == &tp);

	/* an event the decoder does not know is skipped */
	rec[0] = 7;
	rec[1] = 0;
	TEST_EQ(decode_record(dc, rec, size, 5000, 0, &ev), -ENOENT);

	/* raw fetchargs by their kernel type; an index past a runtime length is a fault */
	TEST_EQ(tep_parse_format(tep, &te, format_raw, sizeof(format_raw) - 1, "upft"), 0);
	make_probe_raw(&tpr, 0x1300);
	TEST_EQ(decoder_add_probe(dc, &tpr, &d), 0);
	size = make_record_raw(rec, base + 0x1300, 6);
	TEST_EQ(decode_record(dc, rec, size, 6000, 0, &ev), 0);
	TEST_TRUE(ev.tp == &tpr);
	TEST_EQ(ev.nr_vals, 6);
	TEST_EQ(val(&ev, "rs")->kind, VK_SIGNED);
	TEST_STREQ(text_of(val(&ev, "rs")), "-7");
	TEST_EQ(val(&ev, "rx")->kind, VK_HEX);
	TEST_STREQ(text_of(val(&ev, "rx")), "0xbeef");
	TEST_STREQ(text_of(val(&ev, "ra")), "[20, 21, 4000000000]");
	TEST_STREQ(text_of(val(&ev, "rb")), "[\"0xa\", \"0xff\"]");
	TEST_EQ(val(&ev, "rstr")->kind, VK_CSTRING);
	TEST_STREQ(text_of(val(&ev, "rstr")), "\"ok\"");
	TEST_EQ(val(&ev, "q")->fault, 0);
	TEST_EQ(val(&ev, "q")->num.s, -9);
	TEST_TRUE(strstr(json_of(&ev), "\"ra\":[20, 21, 4000000000],\"rb\":[\"0xa\", \"0xff\"]") !=
		  NULL);
	size = make_record_raw(rec, base + 0x1300, 5);
	TEST_EQ(decode_record(dc, rec, size, 6000, 0, &ev), 0);
	TEST_EQ(val(&ev, "q")->fault, 1);
	TEST_STREQ(val(&ev, "q")->fault_expr, "o.Items[5]: index 5 out of range (len 5)");

	/* time: seconds since the first event, 6 decimals */
	{
		struct strbuf sb = STRBUF_INIT;

		render_time(&sb, 1000000000ULL + 123456789ULL, 1000000000ULL);
		TEST_STREQ(sb.buf, "0.123457");
		/* one time base: the text line, JSON and the curses view all use it */
		strbuf_reset(&sb);
		render_time(&sb, 5, 5);
		TEST_STREQ(sb.buf, "0.000000");
		strbuf_reset(&sb);
		render_time(&sb, 3000000000ULL + 7000ULL, 0);
		TEST_STREQ(sb.buf, "3.000007");
		strbuf_release(&sb);
	}
	/* -e SYS:EVENT: fields that hold addresses in hex, numbers in decimal */
	TEST_EQ(tep_parse_format(tep, &te, format_gen, sizeof(format_gen) - 1, "gen"), 0);
	TEST_EQ(decoder_add_generic(dc, "gen", "g", NULL, &d), 0);
	memset(rec, 0, 56);
	rec[0] = 1236 & 0xff;
	rec[1] = 1236 >> 8;
	put(rec, 4, &(int){ 42 }, 4);
	put64(rec, 8, 0x5974539);
	put(rec, 16, &(int){ -3 }, 4);
	put(rec, 20, &(unsigned int){ 17 }, 4);
	put64(rec, 24, 4096);
	put64(rec, 32, 0xffffffff81234567ULL);
	put64(rec, 40, 0x7f0000001000ULL);
	put64(rec, 48, 0x7ffd1000);
	TEST_EQ(decode_record(dc, rec, 56, 7000, 0, &ev), 0);
	TEST_STREQ(text_of(val(&ev, "__probe_ip")), "0x5974539");
	TEST_STREQ(text_of(val(&ev, "fd")), "-3");
	TEST_STREQ(text_of(val(&ev, "flags")), "17");
	TEST_STREQ(text_of(val(&ev, "count")), "4096");
	TEST_STREQ(text_of(val(&ev, "call_site")), "0xffffffff81234567");
	TEST_STREQ(text_of(val(&ev, "start_addr")), "0x7f0000001000");
	TEST_STREQ(text_of(val(&ev, "buf")), "0x7ffd1000");
	TEST_TRUE(strstr(json_of(&ev), "\"__probe_ip\":\"0x5974539\",\"fd\":-3") != NULL);
	decoder_free(dc);
	trace_probe_release(&tp);
	trace_probe_release(&tp2);
	trace_probe_release(&tpr);
	diag_release(&d);
	tep_free(tep);
	return TEST_DONE();
}
