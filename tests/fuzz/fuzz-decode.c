// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-decode.c - libFuzzer: decode_record() on arbitrary record bytes against the fixed
 * formats and probes of tests/unit/test-decode.c, then render the event as text and JSON.
 * The first input byte picks the event (its type id is written over the common_type).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#undef ARRAY_SIZE
#include "decode.h"
#include "render.h"
#include "util.h"

static const char format[] =
	"name: w\n"
	"ID: 1234\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned long __probe_ip;\toffset:8;\tsize:8;\tsigned:0;\n"
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


/* Raw fetchargs (decoded by their kernel type) and a runtime-length guard. */
static const char format_raw[] =
	"name: r\n"
	"ID: 1235\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned long __probe_ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:s32 rs;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:x16 rx;\toffset:20;\tsize:2;\tsigned:0;\n"
	"\tfield:u32 ra[3];\toffset:22;\tsize:12;\tsigned:0;\n"
	"\tfield:x8 rb[2];\toffset:34;\tsize:2;\tsigned:0;\n"
	"\tfield:__data_loc char[] rstr;\toffset:36;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 n;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 q;\toffset:48;\tsize:8;\tsigned:1;\n"
	"\n"
	"print fmt: \"(%lx)\", REC->__probe_ip\n";


/* An existing tracefs event shown generically (-e SYS:EVENT): addresses in hex. */
static const char format_gen[] =
	"name: g\n"
	"ID: 1236\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned long __probe_ip;\toffset:8;\tsize:8;\tsigned:0;\n"
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

	memset(tp, 0, sizeof(*tp));
	tp->group = strdup("upft");
	tp->event = strdup("w");
	tp->path = strdup("/bin/x");
	tp->vaddr = vaddr;
	tp->offset = vaddr;
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

	memset(tp, 0, sizeof(*tp));
	tp->group = strdup("upft");
	tp->event = strdup("r");
	tp->path = strdup("/bin/x");
	tp->vaddr = vaddr;
	tp->offset = vaddr;
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



/* A record of event 1234: @str goes to the data_loc (NULL: a fault), @lstr/@len the chunks. */
static struct decoder *dc;
static struct render rt, rj;

static void setup(void)
{
	static struct trace_probe tp, tp2, tpr;
	struct tep_handle *tep = tep_alloc();
	struct tep_event *te = NULL;
	struct diag d;

	diag_init(&d, NULL);
	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, 4096);
	if (tep_parse_format(tep, &te, format, sizeof(format) - 1, "upft") ||
	    tep_parse_format(tep, &te, format_raw, sizeof(format_raw) - 1, "upft") ||
	    tep_parse_format(tep, &te, format_gen, sizeof(format_gen) - 1, "sys"))
		abort();
	make_probe(&tp, 0x1100);
	make_probe(&tp2, 0x1240);
	make_probe_raw(&tpr, 0x1300);
	dc = decoder_new(tep, NULL, false);
	if (decoder_add_probe(dc, &tp, &d) || decoder_add_probe(dc, &tp2, &d) ||
	    decoder_add_probe(dc, &tpr, &d) || decoder_add_generic(dc, "sys", "g", &d))
		abort();
	diag_release(&d);
	strbuf_init(&rt.out);
	strbuf_init(&rj.out);
	rt.fd = rj.fd = -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint16_t types[] = { 1234, 1235, 1236 };
	struct event ev;
	unsigned char *rec;
	size_t n, k;

	if (!dc)
		setup();
	if (size < 1)
		return 0;
	/*
	 * The record, in a buffer of its own size so that ASan sees any read past its end;
	 * its first two bytes are made one of the known event types. decode_record() must
	 * refuse a record shorter than its event's fixed fields (the kernel never delivers
	 * one, a corrupt stream could).
	 */
	k = data[0] % 3;
	n = size - 1;
	rec = malloc(n ? n : 1);
	if (!rec)
		return 0;
	memcpy(rec, data + 1, n);
	if (n >= 2)
		memcpy(rec, &types[k], 2);
	if (decode_record(dc, rec, (int)n, 1000, data[0] >> 4, &ev) == 0) {
		strbuf_reset(&rt.out);
		strbuf_reset(&rj.out);
		rt.t0 = rj.t0 = ev.ts;
		render_text_ops.event(&rt, &ev);
		render_json_ops.event(&rj, &ev);
	}
	free(rec);
	return 0;
}
