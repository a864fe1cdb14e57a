/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse.h - PROBE text -> struct probe_spec, and back */
#ifndef UPF_PARSE_H
#define UPF_PARSE_H

#include "probe.h"
#include "util.h"

/**
 * parse_probe() - parse one probe string "[EVENT=]PLACE [ARG ...]"
 * @text: the probe as one shell word (arguments separated by blanks)
 * @spec: filled on success; release with probe_spec_release() in any case
 * @d: on failure: the message and the span of the offending token in @text
 * Return: 0, or -EINVAL with @d filled.
 */
int parse_probe(const char *text, struct probe_spec *spec, struct diag *d);

/* probe_spec_release() - free what parse_probe() allocated; accepts a zeroed spec */
void probe_spec_release(struct probe_spec *spec);

/* expr_format() - an expression written back in source syntax ("r->Question[0].Name") */
void expr_format(const struct expr *e, struct strbuf *out);

/* expr_last_name() - the default argument name as perf picks it: the last member or
 * variable name of @e ("Name" for r->Question[0].Name), "retval", or the register */
const char *expr_last_name(const struct expr *e);

#endif
