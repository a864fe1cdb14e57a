// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz-parse.c - libFuzzer: parse_probe() on arbitrary text, then format and release */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_spec spec;
	struct diag d;
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&spec, 0, sizeof(spec));
	diag_init(&d, NULL);
	if (parse_probe(text, &spec, &d) == 0) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; i < spec.nr_args; i++) {
			expr_format(spec.args[i].expr, &sb);
			expr_last_name(spec.args[i].expr);
			strbuf_reset(&sb);
		}
		strbuf_release(&sb);
	}
	probe_spec_release(&spec);
	diag_release(&d);
	free(text);
	return 0;
}
