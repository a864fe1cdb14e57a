// SPDX-License-Identifier: GPL-2.0-or-later
/* render-json.c - one JSON object per event per line, as the man page defines it (OUTPUT) */
#define LOG_DOMAIN "render"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "log.h"
#include "render.h"

/* A JSON string: printable ASCII is copied in runs, everything else goes through escape_json(). */
static void json_str(struct strbuf *sb, const char *s, size_t len)
{
	char *p = render_reserve(sb, len + 2);

	*p++ = '"';
	while (len) {
		size_t n = render_safe_len(s, len), m = 1;

		p = render_put(p, s, n);
		s += n;
		len -= n;
		if (!len)
			break;
		/* a run of bytes that need escaping (keeps UTF-8 sequences whole) */
		while (m < len && !render_safe_len(s + m, 1))
			m++;
		render_commit(sb, p);
		escape_json(sb, s, m);
		s += m;
		len -= m;
		p = render_reserve(sb, len + 2);
	}
	*p++ = '"';
	render_commit(sb, p);
}

#define IDENT_ROOM 64	/* bytes reserved for a name: event <= 63, argument <= 32 (kernel) */

/*
 * A name we made or the kernel checked (a C identifier): no escaping needed. The caller
 * reserved IDENT_ROOM + 2 + @after bytes at @p; a longer name grows the buffer and keeps
 * @after bytes of room behind it.
 */
static char *json_ident(struct strbuf *sb, char *p, const char *s, size_t after)
{
	size_t i = 0;

	*p++ = '"';
	while (s[i] && i < IDENT_ROOM) {
		p[i] = s[i];
		i++;
	}
	p += i;
	if (s[i]) {
		size_t n = strlen(s + i);

		render_commit(sb, p);
		p = render_reserve(sb, n + 2 + after);
		p = render_put(p, s + i, n);
	}
	*p++ = '"';
	return p;
}

static void json_value(struct strbuf *sb, const struct value *v);

/* "None", {"Some":5}, {"Pair":[1,2]}, {"Rect":{"w":4,"h":5}}: serde's externally tagged form */
static void json_variant(struct strbuf *sb, const struct value *v)
{
	const char *name = v->text ? v->text : "?";

	if (!v->nr_parts) {
		json_str(sb, name, strlen(name));
		return;
	}
	strbuf_addch(sb, '{');
	json_str(sb, name, strlen(name));
	strbuf_addch(sb, ':');
	if (v->tuple && v->nr_parts == 1) {
		json_value(sb, &v->parts[0]);
	} else {
		strbuf_addch(sb, v->tuple ? '[' : '{');
		for (size_t i = 0; i < v->nr_parts; i++) {
			if (i)
				strbuf_addch(sb, ',');
			if (!v->tuple) {
				json_str(sb, v->parts[i].name, strlen(v->parts[i].name));
				strbuf_addch(sb, ':');
			}
			json_value(sb, &v->parts[i]);
		}
		strbuf_addch(sb, v->tuple ? ']' : '}');
	}
	strbuf_addch(sb, '}');
}

/* A word named when it can be (a symbol, a dynamic type: v->text), else "0x..." */
static void json_name_or_hex(struct strbuf *sb, const struct value *v)
{
	if (v->text) {
		json_str(sb, v->text, strlen(v->text));
		return;
	}
	strbuf_addch(sb, '"');
	render_hex(sb, v->num.u);
	strbuf_addch(sb, '"');
}

/* A Go interface value: {"type":"*errors.errorString","s":"disk full"}; a value type's
 * value is "value" ({"type":"syscall.Errno","value":2}). Go has no field named "type". */
static void json_iface(struct strbuf *sb, const struct value *v)
{
	strbuf_addstr(sb, "{\"type\":");
	json_name_or_hex(sb, v);
	for (size_t i = 0; i < v->nr_parts; i++) {
		const char *n = v->tuple ? "value" : v->parts[i].name;

		strbuf_addch(sb, ',');
		json_str(sb, n, strlen(n));
		strbuf_addch(sb, ':');
		json_value(sb, &v->parts[i]);
		if (v->tuple)
			break;
	}
	strbuf_addch(sb, '}');
}

/* A number; the ones JSON has no number for as Prometheus writes them: "+Inf", "-Inf", "NaN" */
static void json_float(struct strbuf *sb, double f)
{
	if (isfinite(f))
		strbuf_addf(sb, "%.17g", f);
	else if (isnan(f))
		strbuf_addstr(sb, "\"NaN\"");
	else
		strbuf_addstr(sb, f < 0 ? "\"-Inf\"" : "\"+Inf\"");
}

/* A whole struct's members into an object being written: an anonymous member's own */
static void json_members(struct strbuf *sb, const struct value *v, bool *first)
{
	for (size_t i = 0; i < v->nr_parts; i++) {
		const struct value *p = &v->parts[i];

		if (!p->name && p->kind == VK_STRUCT && !p->fault) {
			json_members(sb, p, first);
			continue;
		}
		if (!*first)
			strbuf_addch(sb, ',');
		*first = false;
		json_str(sb, p->name ? p->name : "", p->name ? strlen(p->name) : 0);
		strbuf_addch(sb, ':');
		json_value(sb, p);
	}
	if (v->more) {
		strbuf_addstr(sb, *first ? "\"...\":true" : ",\"...\":true");
		*first = false;
	}
}

/*
 * A whole value: a struct as an object (an anonymous member's members in it), an array as an
 * array, a slice as {"len":N,"cap":N,"elems":[...]}; what the budget left out is a key
 * "..." (true) or a last element "..."
 */
static void json_whole(struct strbuf *sb, const struct value *v)
{
	bool first = true;

	if (v->kind == VK_STRUCT) {
		strbuf_addch(sb, '{');
		json_members(sb, v, &first);
		strbuf_addch(sb, '}');
		return;
	}
	if (v->is_slice) {
		strbuf_addf(sb, "{\"len\":%" PRIu64, v->slice_len);
		if (v->has_cap)
			strbuf_addf(sb, ",\"cap\":%" PRIu64, v->slice_cap);
		strbuf_addstr(sb, ",\"elems\":");
	}
	strbuf_addch(sb, '[');
	for (size_t i = 0; i < v->nr_parts; i++) {
		if (i)
			strbuf_addch(sb, ',');
		json_value(sb, &v->parts[i]);
	}
	if (v->more)
		strbuf_addstr(sb, v->nr_parts ? ",\"...\"" : "\"...\"");
	strbuf_addch(sb, ']');
	if (v->is_slice)
		strbuf_addch(sb, '}');
}

/*
 * A Go map: {"len":3,"entries":{"alice":31,"bob":42}}, and "more":true when not every entry
 * was read; a key that is not a string is written as its text ("1", "true"), as Go's
 * encoding/json writes map keys
 */
static void json_map(struct strbuf *sb, const struct value *v)
{
	struct strbuf key = STRBUF_INIT;

	strbuf_init(&key);
	strbuf_addstr(sb, "{\"len\":");
	render_u64(sb, v->num.u);
	strbuf_addstr(sb, ",\"entries\":{");
	for (size_t i = 0; i + 1 < v->nr_parts; i += 2) {
		const struct value *k = &v->parts[i];

		if (i)
			strbuf_addch(sb, ',');
		if (!k->fault && (k->kind == VK_LSTRING || k->kind == VK_CSTRING)) {
			json_str(sb, k->str ? k->str : "", k->len);
		} else {
			strbuf_reset(&key);
			render_value_text(&key, k);
			json_str(sb, key.buf, key.len);
		}
		strbuf_addch(sb, ':');
		json_value(sb, &v->parts[i + 1]);
	}
	strbuf_addstr(sb, v->more ? "},\"more\":true}" : "}}");
	strbuf_release(&key);
}

static void json_value(struct strbuf *sb, const struct value *v)
{
	if (v->fault) {
		strbuf_addstr(sb, "null");
		return;
	}
	switch (v->kind) {
	case VK_VARIANT:
		json_variant(sb, v);
		break;
	case VK_SIGNED:
		render_s64(sb, v->num.s);
		break;
	case VK_UNSIGNED:
		render_u64(sb, v->num.u);
		break;
	case VK_HEX:
	case VK_POINTER:
		strbuf_addch(sb, '"');
		render_hex(sb, v->num.u);
		strbuf_addch(sb, '"');
		break;
	case VK_BOOL:
		strbuf_addstr(sb, v->num.u ? "true" : "false");
		break;
	case VK_CHAR: {
		char c = (char)v->num.u;

		json_str(sb, &c, 1);
		break;
	}
	case VK_FLOAT:
		json_float(sb, v->num.f);
		break;
	case VK_COMPLEX:
		strbuf_addstr(sb, "{\"real\":");
		json_float(sb, v->num.c.re);
		strbuf_addstr(sb, ",\"imag\":");
		json_float(sb, v->num.c.im);
		strbuf_addch(sb, '}');
		break;
	case VK_INT128:
		render_int128(sb, v->num.w, v->arg && v->arg->is_signed);
		break;
	case VK_ENUM:
		if (v->text)
			json_str(sb, v->text, strlen(v->text));
		else if (v->arg && v->arg->is_signed)
			render_s64(sb, v->num.s);
		else
			render_u64(sb, v->num.u);
		break;
	case VK_CSTRING:
	case VK_LSTRING:
	case VK_BYTES:
		json_str(sb, v->str ? v->str : "", v->len);
		break;
	case VK_IFACE:
		json_iface(sb, v);
		break;
	case VK_STRUCT:
	case VK_ARRAY:
		json_whole(sb, v);
		break;
	case VK_MAP:
		json_map(sb, v);
		break;
	case VK_SYM:
	case VK_TYPENAME:
		json_name_or_hex(sb, v);
		break;
	case VK_RAW:
	default:
		if (v->text && v->text_is_json)
			strbuf_addstr(sb, v->text);
		else if (v->text)
			json_str(sb, v->text, strlen(v->text));
		else
			render_u64(sb, v->num.u);
		break;
	}
}

void render_value_json(struct strbuf *sb, const struct value *v)
{
	json_value(sb, v);
}

void render_json_string(struct strbuf *sb, const char *s, size_t len)
{
	json_str(sb, s, len);
}

static int json_open(struct render *r)
{
	r->input_fd = -1;
	/* --stack: every event gets a "stack" key (its priv is just this flag) */
	r->priv = r->opts.stack ? (void *)r : NULL;
	return 0;
}

/*
 * ,"stack":["sym+0x10","0x7f..."]; with functions inlined at a frame (their names alone,
 * innermost first, before the function they were inlined into):
 * ,"stack":["leaf+0x0","inner","outer","main+0x2c"],"stack_inlined":[1,2]
 * and when the stack stops before its outermost frame (--stack=dwarf), why:
 * ,"stack_cut":"copy" (or "cfi", "frames"; "lost" when --stack=fp's record was overwritten)
 */
static void json_stack(struct strbuf *sb, const struct event *ev)
{
	bool any = false;

	strbuf_addstr(sb, ",\"stack\":[");
	for (size_t i = 0; i < ev->nr_ustack; i++) {
		const char *sym = ev->ustack_syms ? ev->ustack_syms[i] : NULL;

		if (i)
			strbuf_addch(sb, ',');
		if (sym) {
			json_str(sb, sym, strlen(sym));
		} else {
			strbuf_addch(sb, '"');
			render_hex(sb, ev->ustack[i]);
			strbuf_addch(sb, '"');
		}
	}
	strbuf_addch(sb, ']');
	for (size_t i = 0; ev->ustack_inlined && i < ev->nr_ustack; i++) {
		if (!ev->ustack_inlined[i])
			continue;
		strbuf_addstr(sb, any ? "," : ",\"stack_inlined\":[");
		render_u64(sb, i);
		any = true;
	}
	if (any)
		strbuf_addch(sb, ']');
	if (ev->ustack_cut) {
		strbuf_addstr(sb, ",\"stack_cut\":");
		json_str(sb, ev->ustack_cut, strlen(ev->ustack_cut));
	}
}

/*
 * ,"faults":["unread"]: the arguments whose null is a value the kernel could not read, not
 * a null value (a NULL char *, a nil interface); no key when there is none
 */
static void json_faults(struct strbuf *sb, const struct event *ev)
{
	bool any = false;

	for (size_t i = 0; i < ev->nr_vals; i++) {
		const struct value *v = &ev->vals[i];

		if (!v->fault || v->null)
			continue;
		strbuf_addstr(sb, any ? "," : ",\"faults\":[");
		json_str(sb, v->name, strlen(v->name));
		any = true;
	}
	if (any)
		strbuf_addch(sb, ']');
}

static int json_event(struct render *r, const struct event *ev)
{
	struct strbuf *sb = &r->out;
	char *p = render_reserve(sb, 160);

	p = render_put_lit(p, "{\"time\":");
	p = render_put_time(p, ev->ts, r->t0);
	p = render_put_lit(p, ",\"cpu\":");
	p = render_put_u64(p, (uint64_t)ev->cpu);
	p = render_put_lit(p, ",\"pid\":");
	p = render_put_s64(p, ev->pid);
	p = render_put_lit(p, ",\"tid\":");
	p = render_put_s64(p, ev->tid);
	p = render_put_lit(p, ",\"comm\":");
	render_commit(sb, p);
	json_str(sb, ev->comm, strnlen(ev->comm, sizeof(ev->comm)));
	p = render_reserve(sb, 32 + IDENT_ROOM);
	p = render_put_lit(p, ",\"probe\":");
	p = json_ident(sb, p, ev->probe, 24);
	p = render_put_lit(p, ",\"args\":{");
	for (size_t i = 0; i < ev->nr_vals; i++) {
		const struct value *v = &ev->vals[i];

		render_commit(sb, p);
		p = render_reserve(sb, 48 + IDENT_ROOM);
		if (i)
			*p++ = ',';
		p = json_ident(sb, p, v->name, 40);
		*p++ = ':';
		if (v->fault) {
			p = render_put_lit(p, "null");
			continue;
		}
		switch (v->kind) {
		case VK_SIGNED:
			p = render_put_s64(p, v->num.s);
			continue;
		case VK_UNSIGNED:
			p = render_put_u64(p, v->num.u);
			continue;
		default:
			render_commit(sb, p);
			json_value(sb, v);
			p = render_reserve(sb, 8);
			continue;
		}
	}
	*p++ = '}';
	render_commit(sb, p);
	json_faults(sb, ev);
	if (ev->duration_ns >= 0) {
		/* a paired return: the call's duration in seconds */
		strbuf_addstr(sb, ",\"duration\":");
		render_seconds(sb, (uint64_t)ev->duration_ns);
	}
	if (r->priv)
		json_stack(sb, ev);
	p = render_reserve(sb, 4);
	p = render_put_lit(p, "}\n");
	render_commit(sb, p);
	return render_event_end(r);
}

static int json_lost(struct render *r, int cpu, uint64_t nr)
{
	strbuf_addstr(&r->out, "{\"lost\":");
	render_u64(&r->out, nr);
	strbuf_addstr(&r->out, ",\"cpu\":");
	render_u64(&r->out, (uint64_t)cpu);
	strbuf_addstr(&r->out, "}\n");
	return 0;
}

/* {"exit":{"pid":4242,"cmd":"prog","status":7}} or {"exit":{...,"signal":"SIGSEGV","core":true}} */
static void json_cmd_end(struct render *r, int pid, const char *cmd, int wstatus)
{
	const char *base = strrchr(cmd, '/');

	base = base && base[1] ? base + 1 : cmd;
	strbuf_addstr(&r->out, "{\"exit\":{\"pid\":");
	render_u64(&r->out, (uint64_t)pid);
	strbuf_addstr(&r->out, ",\"cmd\":");
	json_str(&r->out, base, strlen(base));
	if (WIFEXITED(wstatus)) {
		strbuf_addstr(&r->out, ",\"status\":");
		render_u64(&r->out, (uint64_t)WEXITSTATUS(wstatus));
	} else if (WIFSIGNALED(wstatus)) {
		const char *abbrev = sigabbrev_np(WTERMSIG(wstatus));

		strbuf_addf(&r->out, ",\"signal\":\"SIG%s\",\"core\":%s",
			    abbrev ? abbrev : "?", WCOREDUMP(wstatus) ? "true" : "false");
	}
	strbuf_addstr(&r->out, "}}\n");
}

const struct render_ops render_json_ops = {
	.name	= "json",
	.open	= json_open,
	.event	= json_event,
	.lost	= json_lost,
	.cmd_end = json_cmd_end,
	.tick	= render_tick_flush,
	.close	= render_close_flush,
};
