// SPDX-License-Identifier: GPL-2.0-or-later
/* tui-row.c - rows of the curses view as attributed text: widths, wrapping, an event's row */
#define LOG_DOMAIN "tui"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "log.h"
#include "tui-internal.h"

int tui_utf8_next(const char *s, size_t len, unsigned int *cp)
{
	unsigned char c = s[0];
	int n = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;

	if ((size_t)n > len || c < 0xc0) {
		*cp = c < 0x80 ? c : '?';
		return 1;
	}
	*cp = n == 1 ? c : c & (0x3f >> (n - 1));
	for (int i = 1; i < n; i++)
		*cp = (*cp << 6) | (s[i] & 0x3f);
	return n;
}

int tui_cp_width(const struct tui *t, unsigned int cp)
{
	int w;

	if (cp < 0x80)
		return 1;
	if (!t->utf8)
		return 1;	/* drawn as '?' */
	w = wcwidth((wchar_t)cp);
	return w < 0 ? 1 : w;
}

int tui_text_cols(const struct tui *t, const char *s, size_t len)
{
	int cols = 0;

	for (size_t i = 0; i < len;) {
		unsigned int cp;

		i += tui_utf8_next(s + i, len - i, &cp);
		cols += tui_cp_width(t, cp);
	}
	return cols;
}

void tui_row_reset(struct row *w)
{
	strbuf_reset(&w->text);
	w->nr_segs = 0;
}

void tui_row_role(struct row *w, int role)
{
	if (w->nr_segs && w->segs[w->nr_segs - 1].off == w->text.len) {
		w->segs[w->nr_segs - 1].role = role;
		return;
	}
	ALLOC_GROW(w->segs, w->nr_segs + 1, w->alloc_segs);
	w->segs[w->nr_segs++] = (struct seg){ w->text.len, role };
}

void tui_row_add(struct row *w, int role, const char *s)
{
	tui_row_role(w, role);
	strbuf_addstr(&w->text, s);
}

void tui_row_pad(struct row *w, int n)
{
	while (n-- > 0)
		strbuf_addch(&w->text, ' ');
}

struct row *tui_lines_new(struct tui_lines *l)
{
	struct row *w;

	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	w = &l->v[l->nr++];
	memset(w, 0, sizeof(*w));
	strbuf_init(&w->text);
	return w;
}

void tui_lines_release(struct tui_lines *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		strbuf_release(&l->v[i].text);
		free(l->v[i].segs);
	}
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}

void tui_lines_wrap(struct tui *t, struct tui_lines *l, struct row *first, int indent, int width,
		    const char *s, size_t len, int role)
{
	struct row *w = first;
	int col = indent;

	if (width < indent + 8)
		width = indent + 8;
	tui_row_role(w, role);
	for (size_t i = 0; i < len;) {
		unsigned int cp;
		int n = tui_utf8_next(s + i, len - i, &cp), cw = tui_cp_width(t, cp);

		if (col + cw > width) {
			w = tui_lines_new(l);
			tui_row_pad(w, indent);
			tui_row_role(w, role);
			col = indent;
		}
		strbuf_add(&w->text, s + i, n);
		col += cw;
		i += n;
	}
}

void tui_fmt_value(struct strbuf *sb, const struct value *v)
{
	if (v->fault && v->fault_expr && !v->null) {
		strbuf_addstr(sb, "(fault: ");
		escape_untrusted(sb, v->fault_expr, strlen(v->fault_expr));
		strbuf_addch(sb, ')');
		return;
	}
	render_value_text(sb, v);
}

/* The list row of event @seq; widths of its columns grow to fit (sticky). */
void tui_build_row(struct tui *t, uint64_t seq, struct row *w, bool learn)
{
	struct slot *sl = &t->slots[seq % t->cap];
	struct schema *sc = t->sch[sl->schema];
	size_t n = tui_unpack(t, sl, NULL, NULL), start;
	int cols;

	tui_row_reset(w);
	tui_row_role(w, R_TIME);
	render_time(&w->text, sl->ts, t->r->t0);
	cols = (int)w->text.len;
	if (learn && cols > t->w_time)
		t->w_time = cols;
	tui_row_pad(w, t->w_time - cols + 1);

	tui_row_role(w, R_DIM);
	start = w->text.len;
	escape_untrusted(&w->text, sl->comm, strnlen(sl->comm, sizeof(sl->comm)));
	strbuf_addch(&w->text, '/');
	render_u64(&w->text, (uint64_t)sl->pid);
	cols = tui_text_cols(t, w->text.buf + start, w->text.len - start);
	if (learn && cols > t->w_who)
		t->w_who = cols < 24 ? cols : 24;
	tui_row_pad(w, t->w_who - cols + 1);

	start = w->text.len;
	tui_row_add(w, R_PROBE, sc->name);
	cols = tui_text_cols(t, w->text.buf + start, w->text.len - start);
	if (learn && cols > t->w_probe)
		t->w_probe = cols < 28 ? cols : 28;
	tui_row_pad(w, t->w_probe - cols);

	for (size_t i = 0; i < n; i++) {
		struct value *v = &t->vbuf[i];

		strbuf_addch(&w->text, ' ');
		start = w->text.len;
		tui_row_add(w, R_ARGNAME, v->name);
		strbuf_addch(&w->text, '=');
		tui_row_role(w, v->fault ? R_ERROR : R_NORMAL);
		tui_fmt_value(&w->text, v);
		if ((i + 1 < n || sl->duration_ns >= 0) && i < sc->nr_width) {
			cols = tui_text_cols(t, w->text.buf + start, w->text.len - start);
			if (learn && cols > sc->width[i])
				sc->width[i] = cols < 40 ? cols : 40;
			tui_row_pad(w, sc->width[i] - cols);
		}
	}
	/* a paired return: the call's duration, as the text line has it */
	if (sl->duration_ns >= 0) {
		strbuf_addch(&w->text, ' ');
		tui_row_add(w, R_ARGNAME, "duration");
		strbuf_addch(&w->text, '=');
		tui_row_role(w, R_NORMAL);
		render_duration(&w->text, (uint64_t)sl->duration_ns);
	}
}
