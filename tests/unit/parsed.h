/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parsed.h - a probe text parsed into the test's one probe_spec and diag, for parser tests */
#ifndef UPF_UNIT_PARSED_H
#define UPF_UNIT_PARSED_H

#include "../../src/diag.h"
#include "../../src/parse.h"

static struct probe_spec spec;
static struct diag d;

/* parse @text into spec and d (what the last call left is released); parse_probe()'s result */
static int parse(const char *text)
{
	probe_spec_release(&spec);
	diag_release(&d);
	diag_init(&d, text);
	return parse_probe(text, &spec, &d);
}

#endif
