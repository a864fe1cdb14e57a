/* SPDX-License-Identifier: GPL-2.0-or-later */
/* events.h - uprobe events for the unit tests: the format's common fields, a probe, values */
#ifndef UPF_UNIT_EVENTS_H
#define UPF_UNIT_EVENTS_H

#include <string.h>

#include "../../src/decode.h"
#include "../../src/render.h"
#include "../../src/util.h"

/* The fields every uprobe event's tracefs format starts with; the event's own from offset 16 */
#define UPROBE_FORMAT_COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n" \
	"\n" \
	"\tfield:unsigned long __probe_ip;\toffset:8;\tsize:8;\tsigned:0;\n"

/* test_probe_init() - @tp made empty: event upft/@event on /bin/x at @vaddr (its file offset) */
static inline void test_probe_init(struct trace_probe *tp, const char *event, uint64_t vaddr)
{
	memset(tp, 0, sizeof(*tp));
	tp->group = strdup("upft");
	tp->event = strdup(event);
	tp->path = strdup("/bin/x");
	tp->vaddr = vaddr;
	tp->offset = vaddr;
}

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

/* json_args() - @ev's JSON line from its "args" on (one line: the TAP line stays one line), ""
 * without one; valid until the next call */
static inline const char *json_args(const struct event *ev)
{
	static struct strbuf line = STRBUF_INIT;
	const char *s;

	strbuf_reset(&line);
	strbuf_addstr(&line, json_of(ev));
	if (line.len && line.buf[line.len - 1] == '\n')
		line.buf[--line.len] = '\0';
	s = strstr(strbuf_cstr(&line), "\"args\":");
	return s ? s : "";
}

#endif
