/* SPDX-License-Identifier: GPL-2.0-or-later */
/* events.h - a decoded event's values by name, as text and as JSON, for the unit tests */
#ifndef UPF_UNIT_EVENTS_H
#define UPF_UNIT_EVENTS_H

#include <string.h>

#include "../../src/decode.h"
#include "../../src/render.h"
#include "../../src/util.h"

/* val() - the value named @name in @ev, or NULL */
static inline const struct value *val(const struct event *ev, const char *name)
{
	for (size_t i = 0; i < ev->nr_vals; i++)
		if (!strcmp(ev->vals[i].name, name))
			return &ev->vals[i];
	return NULL;
}

/* text_of() - @v as the text renderer shows it, "" for NULL; valid until the next call */
static inline const char *text_of(const struct value *v)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	if (v)
		render_value_text(&sb, v);
	return strbuf_cstr(&sb);
}

/* json_of() - @ev as the JSON renderer writes it (one line); valid until the next call */
static inline const char *json_of(const struct event *ev)
{
	static struct render r;

	if (!r.out.buf)
		strbuf_init(&r.out);
	strbuf_reset(&r.out);
	r.fd = -1;
	r.t0 = ev->ts;
	render_json_ops.event(&r, ev);
	return strbuf_cstr(&r.out);
}

#endif
