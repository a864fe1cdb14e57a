// SPDX-License-Identifier: GPL-2.0-or-later
/* render-text.c - one line per event, perf trace style; helpers shared by the renderers */
#define LOG_DOMAIN "render"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "render.h"

/* the bytes of the next write(2) from @s: whole lines, at most PIPE_BUF of them if possible */
static size_t line_chunk(const char *s, size_t len)
{
	const char *nl;

	if (len <= PIPE_BUF)
		return len;
	nl = memrchr(s, '\n', PIPE_BUF);
	if (nl)
		return nl - s + 1;
	/* one line longer than PIPE_BUF: whole, in one call */
	nl = memchr(s + PIPE_BUF, '\n', len - PIPE_BUF);
	return nl ? (size_t)(nl - s + 1) : len;
}

int render_flush(struct render *r)
{
	size_t done = 0;
	int ret = 0;

	if (r->write_err)
		ret = -r->write_err;
	while (!ret && done < r->out.len) {
		size_t want = r->out.len - done;
		ssize_t n;

		if (r->atomic_lines)
			want = line_chunk(r->out.buf + done, want);
		n = write(r->fd, r->out.buf + done, want);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			r->write_err = errno;
			break;
		}
		done += n;
	}
	if (ret) {
		/* every event that did not reach the file up to its last byte */
		for (size_t i = 0; i < r->nr_ends; i++)
			r->unwritten += r->ends[i] > done;
	}
	r->nr_ends = 0;
	strbuf_reset(&r->out);
	return ret;
}

int render_event_end(struct render *r)
{
	if (r->nr_ends == r->alloc_ends) {
		r->alloc_ends = r->alloc_ends ? 2 * r->alloc_ends : 1024;
		r->ends = xrealloc(r->ends, r->alloc_ends * sizeof(*r->ends));
	}
	r->ends[r->nr_ends++] = r->out.len;
	return r->out.len >= RENDER_FLUSH_AT ? render_flush(r) : 0;
}

int render_tick_flush(struct render *r)
{
	return r->out.len ? render_flush(r) : 0;
}

void render_close_flush(struct render *r)
{
	render_flush(r);
}

void render_u64(struct strbuf *sb, uint64_t v)
{
	char tmp[24], *p = tmp + sizeof(tmp);

	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	strbuf_add(sb, p, tmp + sizeof(tmp) - p);
}

void render_s64(struct strbuf *sb, int64_t v)
{
	if (v < 0) {
		strbuf_addch(sb, '-');
		render_u64(sb, -(uint64_t)v);
	} else {
		render_u64(sb, v);
	}
}

void render_int128(struct strbuf *sb, unsigned __int128 w, bool is_signed)
{
	char tmp[48], *p = tmp + sizeof(tmp);
	bool neg = is_signed && (w >> 127);

	if (neg)
		w = -w;
	do {
		*--p = '0' + (int)(w % 10);
		w /= 10;
	} while (w);
	if (neg)
		*--p = '-';
	strbuf_add(sb, p, tmp + sizeof(tmp) - p);
}

const char *render_stack_cut(const char *why)
{
	if (!strcmp(why, "copy"))
		return "stack cut: the next frame is past the stack copied (--stack=dwarf,BYTES)";
	if (!strcmp(why, "cfi"))
		return "stack cut: no CFI describes the frame above";
	if (!strcmp(why, "lost"))
		return "stack lost: the kernel's buffer overwrote its record, not the event's";
	return "stack cut: more frames than are kept";
}

void render_hex(struct strbuf *sb, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[20], *p = tmp + sizeof(tmp);

	do {
		*--p = digits[v & 15];
		v >>= 4;
	} while (v);
	*--p = 'x';
	*--p = '0';
	strbuf_add(sb, p, tmp + sizeof(tmp) - p);
}

void render_time(struct strbuf *sb, uint64_t ts, uint64_t t0)
{
	uint64_t d = ts > t0 ? ts - t0 : 0;
	uint64_t us = (d + 500) / 1000;
	char frac[7];
	uint64_t f = us % 1000000;

	render_u64(sb, us / 1000000);
	for (int i = 5; i >= 0; i--) {
		frac[i] = '0' + f % 10;
		f /= 10;
	}
	frac[6] = '\0';
	strbuf_addch(sb, '.');
	strbuf_add(sb, frac, 6);
}

/* "12.500" -> "12.5", "3.000" -> "3" */
static void trim_decimals(struct strbuf *sb, size_t start)
{
	if (!memchr(sb->buf + start, '.', sb->len - start))
		return;
	while (sb->len > start && sb->buf[sb->len - 1] == '0')
		sb->len--;
	if (sb->len > start && sb->buf[sb->len - 1] == '.')
		sb->len--;
	sb->buf[sb->len] = '\0';
}

void render_duration(struct strbuf *sb, uint64_t ns)
{
	static const struct {
		uint64_t ns;
		const char *unit;
	} units[] = { { 1000000000ULL, "s" }, { 1000000ULL, "ms" }, { 1000ULL, "us" } };
	size_t start = sb->len;

	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		/* thousandths of the unit, rounded, in integers (a double loses the ns of hours) */
		uint64_t milli = ns > UINT64_MAX / 1000 ? ns / (units[i].ns / 1000) :
			(ns * 1000 + units[i].ns / 2) / units[i].ns;

		/* the largest unit it is at least 1 of, once rounded (999.9996ms is 1s) */
		if (milli < 1000)
			continue;
		strbuf_addf(sb, "%" PRIu64 ".%03u", milli / 1000, (unsigned int)(milli % 1000));
		trim_decimals(sb, start);
		strbuf_addstr(sb, units[i].unit);
		return;
	}
	render_u64(sb, ns);
	strbuf_addstr(sb, "ns");
}

void render_seconds(struct strbuf *sb, uint64_t ns)
{
	size_t start = sb->len;

	strbuf_addf(sb, "%" PRIu64 ".%09u", (uint64_t)(ns / 1000000000ULL),
		    (unsigned int)(ns % 1000000000ULL));
	trim_decimals(sb, start);
}

static void render_double(struct strbuf *sb, double f)
{
	if (isnan(f))
		strbuf_addstr(sb, "nan");
	else if (isinf(f))
		strbuf_addstr(sb, f < 0 ? "-inf" : "inf");
	else
		strbuf_addf(sb, "%.17g", f);
}

/* Some(5), None, Rect { w: 4, h: 5 }, as Rust's {:?} shows them */
static void render_variant_text(struct strbuf *sb, const struct value *v)
{
	strbuf_addstr(sb, v->text ? v->text : "?");
	if (!v->nr_parts && !v->more)
		return;
	strbuf_addstr(sb, v->tuple ? "(" : " { ");
	for (size_t i = 0; i < v->nr_parts; i++) {
		if (i)
			strbuf_addstr(sb, ", ");
		if (!v->tuple)
			strbuf_addf(sb, "%s: ", v->parts[i].name);
		render_value_text(sb, &v->parts[i]);
	}
	if (v->more)
		strbuf_addstr(sb, v->nr_parts ? ", .." : "..");
	strbuf_addstr(sb, v->tuple ? ")" : " }");
}

/* A Go interface value as delve shows it: error(*errors.errorString) {s: "disk full"} */
static void render_iface_text(struct strbuf *sb, const struct value *v)
{
	const char *st = v->arg && v->arg->type_name ? v->arg->type_name : "interface";

	escape_untrusted(sb, st, strlen(st));
	strbuf_addch(sb, '(');
	if (v->text)
		escape_untrusted(sb, v->text, strlen(v->text));
	else
		render_hex(sb, v->num.u);
	strbuf_addch(sb, ')');
	if (v->tuple && v->nr_parts) {
		strbuf_addch(sb, ' ');
		render_value_text(sb, &v->parts[0]);
	} else if (v->nr_parts) {
		strbuf_addstr(sb, " {");
		for (size_t i = 0; i < v->nr_parts; i++) {
			if (i)
				strbuf_addstr(sb, ", ");
			strbuf_addstr(sb, v->parts[i].name);
			strbuf_addstr(sb, ": ");
			render_value_text(sb, &v->parts[i]);
		}
		strbuf_addch(sb, '}');
	}
}

/* A whole value's parts, each "NAME = " (C) or "NAME: " before it, @sep between them */
static void whole_parts(struct strbuf *sb, const struct value *v, const char *sep,
			const char *is, bool names)
{
	for (size_t i = 0; i < v->nr_parts; i++) {
		const struct value *p = &v->parts[i];

		if (i)
			strbuf_addstr(sb, sep);
		if (names && p->name && p->arg && p->arg->is_base && is[0] == ' ')
			strbuf_addf(sb, "<%s>%s", p->arg->type_name ? p->arg->type_name : p->name,
				    is);	/* gdb: <ns::Base> = {...} */
		else if (names && p->name)
			strbuf_addf(sb, "%s%s", p->name, is);
		render_value_text(sb, p);
	}
}

/* gdb: {id = 1, items = {{qty = 2}, {qty = 3}}}, {1, 2, 3...}, std::vector of length ... */
static void whole_c(struct strbuf *sb, const struct value *v)
{
	bool st = v->kind == VK_STRUCT;

	if (v->is_slice) {
		strbuf_addf(sb, "std::vector of length %" PRIu64, v->slice_len);
		if (v->has_cap)
			strbuf_addf(sb, ", capacity %" PRIu64, v->slice_cap);
		strbuf_addstr(sb, " = ");
	}
	strbuf_addch(sb, '{');
	whole_parts(sb, v, ", ", " = ", st);
	if (v->more)
		strbuf_addstr(sb, st ? (v->nr_parts ? ", ..." : "...") : "...");
	strbuf_addch(sb, '}');
}

/* A part of a Go value as delve shows it: nil, (*main.Point)(0xc000012345) */
static void go_leaf(struct strbuf *sb, const struct value *v)
{
	const char *tn = v->arg && v->arg->type_name ? v->arg->type_name : NULL;

	if (v->fault && v->null) {
		/* a nil pointer member that would be followed: *main.Point nil */
		if (tn && (v->kind == VK_STRUCT || v->kind == VK_ARRAY)) {
			escape_untrusted(sb, tn, strlen(tn));
			strbuf_addch(sb, ' ');
		}
		strbuf_addstr(sb, "nil");
	} else if (!v->fault && v->kind == VK_POINTER && !v->num.u) {
		strbuf_addstr(sb, "nil");
	} else if (!v->fault && v->kind == VK_POINTER && tn) {
		strbuf_addstr(sb, "(");
		escape_untrusted(sb, tn, strlen(tn));
		strbuf_addstr(sb, ")(");
		render_hex(sb, v->num.u);
		strbuf_addch(sb, ')');
	} else {
		render_value_text(sb, v);
	}
}

/* delve: main.Order {ID: 1, Items: []main.Item len: 2, cap: 2, [{Qty: 2},{Qty: 3}]} */
static void whole_go(struct strbuf *sb, const struct value *v, bool typed)
{
	const char *tn = v->arg && v->arg->type_name ? v->arg->type_name : NULL;
	bool st = v->kind == VK_STRUCT;

	if (typed && tn) {
		escape_untrusted(sb, tn, strlen(tn));
		strbuf_addch(sb, ' ');
	}
	if (v->is_slice) {
		strbuf_addf(sb, "len: %" PRIu64 ", cap: %" PRIu64 ", ", v->slice_len, v->slice_cap);
		if (!v->nr_parts && !v->slice_len && !v->more) {
			strbuf_addstr(sb, "[]");
			return;
		}
	}
	strbuf_addch(sb, st ? '{' : '[');
	for (size_t i = 0; i < v->nr_parts; i++) {
		const struct value *p = &v->parts[i];

		if (i)
			strbuf_addstr(sb, st ? ", " : ",");
		if (st && p->name)
			strbuf_addf(sb, "%s: ", p->name);
		/* delve names the type of a member, not of an element */
		if ((p->kind == VK_STRUCT || p->kind == VK_ARRAY) && !p->fault)
			whole_go(sb, p, st);
		else
			go_leaf(sb, p);
	}
	if (v->more) {
		if (v->is_slice && v->slice_len > v->nr_parts)
			strbuf_addf(sb, "%s...+%" PRIu64 " more", v->nr_parts ? "," : "",
				    v->slice_len - v->nr_parts);
		else
			strbuf_addstr(sb, v->nr_parts ? (st ? ", ..." : ",...") : "...");
	}
	strbuf_addch(sb, st ? '}' : ']');
}

/* Rust's {:?}: Point { x: 1, y: 2 }, Pair(1, 2), [1, 2, 3] */
static void whole_rust(struct strbuf *sb, const struct value *v)
{
	const char *tn = v->arg && v->arg->type_name ? v->arg->type_name : "";
	const char *last = strrchr(tn, ':');
	bool tuple = v->nr_parts && v->parts[0].name && !strncmp(v->parts[0].name, "__", 2);

	if (v->kind == VK_ARRAY) {
		if (v->is_slice)
			strbuf_addf(sb, "len: %" PRIu64 ", ", v->slice_len);
		if (v->is_slice && v->has_cap)
			strbuf_addf(sb, "cap: %" PRIu64 ", ", v->slice_cap);
		strbuf_addch(sb, '[');
		whole_parts(sb, v, ", ", "", false);
		if (v->more)
			strbuf_addstr(sb, v->nr_parts ? ", .." : "..");
		strbuf_addch(sb, ']');
		return;
	}
	tn = last ? last + 1 : tn;
	escape_untrusted(sb, tn, strlen(tn));
	strbuf_addstr(sb, tuple ? "(" : *tn ? " { " : "{ ");
	whole_parts(sb, v, ", ", ": ", !tuple);
	if (v->more)
		strbuf_addstr(sb, v->nr_parts ? ", .." : "..");
	strbuf_addstr(sb, tuple ? ")" : " }");
}

/* A Go map as delve shows it: map[string]int ["alice": 31, "bob": 42]; the entries not read
 * are counted: map[int]int [0: 0, 1: 1, ...+38 more] */
static void render_map_text(struct strbuf *sb, const struct value *v)
{
	const char *tn = v->arg && v->arg->type_name ? v->arg->type_name : "map";

	escape_untrusted(sb, tn, strlen(tn));
	strbuf_addstr(sb, " [");
	for (size_t i = 0; i + 1 < v->nr_parts; i += 2) {
		if (i)
			strbuf_addstr(sb, ", ");
		render_value_text(sb, &v->parts[i]);
		strbuf_addstr(sb, ": ");
		render_value_text(sb, &v->parts[i + 1]);
	}
	if (v->more)
		strbuf_addf(sb, "%s...+%" PRIu64 " more", v->nr_parts ? ", " : "",
			    v->num.u - v->nr_parts / 2);
	strbuf_addch(sb, ']');
}

void render_value_text(struct strbuf *sb, const struct value *v)
{
	if (v->fault) {
		/* a nil Go pointer shown with what it points to: delve's nil */
		if (v->null && v->arg && v->arg->style == SHOW_GO &&
		    (v->kind == VK_STRUCT || v->kind == VK_ARRAY))
			strbuf_addstr(sb, "nil");
		else
			strbuf_addstr(sb, v->null ? (v->text ? v->text : "null") :
				      v->unknown ? "(unknown)" : "(fault)");
		return;
	}
	switch (v->kind) {
	case VK_VARIANT:
		render_variant_text(sb, v);
		break;
	case VK_SIGNED:
		render_s64(sb, v->num.s);
		break;
	case VK_UNSIGNED:
		render_u64(sb, v->num.u);
		break;
	case VK_HEX:
	case VK_POINTER:
		render_hex(sb, v->num.u);
		break;
	case VK_BOOL:
		strbuf_addstr(sb, v->num.u ? "true" : "false");
		break;
	case VK_CHAR: {
		char c = (char)v->num.u;

		strbuf_addch(sb, '\'');
		escape_untrusted(sb, &c, 1);
		strbuf_addch(sb, '\'');
		break;
	}
	case VK_FLOAT:
		render_double(sb, v->num.f);
		break;
	case VK_COMPLEX:
		/* as delve shows it: (1 + 2i), (3 + -4i) */
		strbuf_addch(sb, '(');
		render_double(sb, v->num.c.re);
		strbuf_addstr(sb, " + ");
		render_double(sb, v->num.c.im);
		strbuf_addstr(sb, "i)");
		break;
	case VK_INT128:
		render_int128(sb, v->num.w, v->arg && v->arg->is_signed);
		break;
	case VK_ENUM:
		if (v->text)
			strbuf_addstr(sb, v->text);
		else if (v->arg && v->arg->is_signed)
			render_s64(sb, v->num.s);
		else
			render_u64(sb, v->num.u);
		break;
	case VK_CSTRING:
	case VK_LSTRING:
	case VK_BYTES:
		strbuf_addch(sb, '"');
		escape_untrusted(sb, v->str ? v->str : "", v->len);
		strbuf_addch(sb, '"');
		if (v->cut)
			strbuf_addstr(sb, "...");
		break;
	case VK_SYM:
	case VK_TYPENAME:
		if (v->text)
			strbuf_addstr(sb, v->text);
		else
			render_hex(sb, v->num.u);
		break;
	case VK_IFACE:
		render_iface_text(sb, v);
		break;
	case VK_STRUCT:
	case VK_ARRAY:
		if (v->arg && v->arg->style == SHOW_GO)
			whole_go(sb, v, true);
		else if (v->arg && v->arg->style == SHOW_RUST)
			whole_rust(sb, v);
		else
			whole_c(sb, v);
		break;
	case VK_MAP:
		render_map_text(sb, v);
		break;
	case VK_RAW:
	default:
		if (v->text && v->text_is_json)
			strbuf_addstr(sb, v->text);	/* ours: [1, 2] or ["0x1", "0x2"] */
		else if (v->text)
			escape_untrusted(sb, v->text, strlen(v->text));
		else
			render_u64(sb, v->num.u);
		break;
	}
}

/* Whether @v's parts are numbers and other one-line values (an array of them fits a line) */
static bool flat_parts(const struct value *v)
{
	for (size_t i = 0; i < v->nr_parts; i++)
		if (!v->parts[i].fault && (v->parts[i].kind == VK_STRUCT ||
					   v->parts[i].kind == VK_ARRAY))
			return false;
	return true;
}

void render_value_pretty(struct strbuf *sb, const struct value *v, int indent)
{
	enum show_style st = v->arg ? v->arg->style : SHOW_C;
	const char *tn = v->arg && v->arg->type_name ? v->arg->type_name : NULL;
	bool is_struct = v->kind == VK_STRUCT;

	if (v->fault || (v->kind != VK_STRUCT && v->kind != VK_ARRAY) ||
	    (!is_struct && flat_parts(v))) {
		render_value_text(sb, v);
		return;
	}
	if (st != SHOW_C && tn) {
		escape_untrusted(sb, tn, strlen(tn));
		strbuf_addch(sb, ' ');
	}
	if (v->is_slice)
		strbuf_addf(sb, "len: %" PRIu64 ", cap: %" PRIu64 ", ", v->slice_len, v->slice_cap);
	strbuf_addch(sb, is_struct || st == SHOW_C ? '{' : '[');
	for (size_t i = 0; i < v->nr_parts; i++) {
		const struct value *p = &v->parts[i];

		strbuf_addf(sb, "\n%*s", indent + 2, "");
		if (is_struct && p->name)
			strbuf_addf(sb, st == SHOW_C ? "%s = " : "%s: ", p->name);
		render_value_pretty(sb, p, indent + 2);
		if (i + 1 < v->nr_parts || v->more)
			strbuf_addch(sb, ',');
	}
	if (v->more)
		strbuf_addf(sb, "\n%*s...", indent + 2, "");
	strbuf_addf(sb, "\n%*s%c", indent, "", is_struct || st == SHOW_C ? '}' : ']');
}

static int text_open(struct render *r)
{
	r->input_fd = -1;
	return 0;
}

static int text_event(struct render *r, const struct event *ev)
{
	struct strbuf *sb = &r->out;

	render_time(sb, ev->ts, r->t0);
	strbuf_addch(sb, ' ');
	escape_untrusted(sb, ev->comm, strnlen(ev->comm, sizeof(ev->comm)));
	strbuf_addch(sb, '/');
	render_u64(sb, (uint64_t)ev->pid);
	strbuf_addch(sb, ' ');
	strbuf_addstr(sb, ev->probe);
	for (size_t i = 0; i < ev->nr_vals; i++) {
		strbuf_addch(sb, ' ');
		strbuf_addstr(sb, ev->vals[i].name);
		strbuf_addch(sb, '=');
		render_value_text(sb, &ev->vals[i]);
	}
	if (ev->duration_ns >= 0) {
		strbuf_addstr(sb, " duration=");
		render_duration(sb, (uint64_t)ev->duration_ns);
	}
	strbuf_addch(sb, '\n');
	/* --stack: one frame a line, as perf script shows a callchain */
	for (size_t i = 0; i < ev->nr_ustack; i++) {
		const char *sym = ev->ustack_syms ? ev->ustack_syms[i] : NULL;
		const char *path = ev->ustack_paths ? ev->ustack_paths[i] : NULL;

		strbuf_addf(sb, "\t%16" PRIx64 " ", ev->ustack[i]);
		if (sym && ev->ustack_inlined && ev->ustack_inlined[i]) {
			/* perf script --inline: the name, no offset, no file */
			escape_untrusted(sb, sym, strlen(sym));
			strbuf_addstr(sb, " (inlined)\n");
			continue;
		}
		if (sym)
			escape_untrusted(sb, sym, strlen(sym));
		else
			strbuf_addstr(sb, "[unknown]");
		strbuf_addstr(sb, " (");
		if (path)
			escape_untrusted(sb, path, strlen(path));
		else
			strbuf_addstr(sb, "[unknown]");
		strbuf_addstr(sb, ")\n");
	}
	if (ev->ustack_cut) {
		strbuf_addf(sb, "\t%16s ", "...");
		strbuf_addstr(sb, render_stack_cut(ev->ustack_cut));
		strbuf_addch(sb, '\n');
	}
	return render_event_end(r);
}

static int text_lost(struct render *r, int cpu, uint64_t nr)
{
	strbuf_addstr(&r->out, "# lost ");
	render_u64(&r->out, nr);
	strbuf_addstr(&r->out, " events on CPU ");
	render_u64(&r->out, (uint64_t)cpu);
	strbuf_addch(&r->out, '\n');
	return 0;
}

const struct render_ops render_text_ops = {
	.name	= "text",
	.open	= text_open,
	.event	= text_event,
	.lost	= text_lost,
	.tick	= render_tick_flush,
	.close	= render_close_flush,
};
