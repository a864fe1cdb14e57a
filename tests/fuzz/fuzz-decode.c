// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-decode.c - libFuzzer: decode_record() on arbitrary record bytes against the fixed
 * formats and probes of tests/unit/decode-fixtures.h, then render the event as text and JSON.
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
#include "../unit/decode-fixtures.h"

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
	    decoder_add_probe(dc, &tpr, &d) || decoder_add_generic(dc, "sys", "g", NULL, &d))
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
