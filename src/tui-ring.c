// SPDX-License-Identifier: GPL-2.0-or-later
/* tui-ring.c - the curses view's ring of kept events, and the filter and selection over it */
#define LOG_DOMAIN "tui"

#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "tui-internal.h"

/* value encoding in the arena: kind, flags, len, num (8), then len bytes */
#define PV_HDR		12
enum { PV_FAULT = 1, PV_CUT = 2, PV_TEXT = 4, PV_NULL = 8, PV_PRETTY = 16 };

void tui_ring_init(struct tui *t)
{
	t->asize = t->cap * ARENA_PER_EVENT;
	if (t->asize < 4 * 1024 * 1024)
		t->asize = 4 * 1024 * 1024;
	t->slots = xcalloc(t->cap, sizeof(*t->slots));
	t->arena = xmalloc(t->asize);
}

void tui_ring_release(struct tui *t)
{
	for (size_t i = 0; i < t->nr_sch; i++)
		tui_schema_free(t->sch[i]);
	free(t->sch);
	if (t->own_agg)
		agg_free(t->agg);
	free(t->slots);
	free(t->arena);
	free(t->vbuf);
}

/*
 * A Go interface value's fields are not kept one by one, nor the two halves of a complex
 * number or a 128-bit integer, nor a whole struct's or array's parts: the value is kept as the
 * text the text renderer makes of it (a VK_TYPENAME, whose text is shown as it is).
 */
static bool kept_as_text(const struct value *v)
{
	return !v->fault && (v->kind == VK_IFACE || v->kind == VK_COMPLEX ||
			     v->kind == VK_INT128 || v->kind == VK_STRUCT || v->kind == VK_ARRAY);
}

static const char *iface_text(const struct value *v, struct strbuf *sb)
{
	strbuf_reset(sb);
	render_value_text(sb, v);
	if (v->kind == VK_STRUCT || v->kind == VK_ARRAY) {
		/* and, after its NUL, over several lines for the detail pane, when both fit the
		 * ring's limit (else the pane wraps the one line) */
		size_t one = sb->len;

		strbuf_addch(sb, '\0');
		render_value_pretty(sb, v, 0);
		if (sb->len >= STR_MAX) {
			sb->len = one;
			sb->buf[one] = '\0';
		}
	}
	return sb->buf;
}

static size_t value_bytes(const struct value *v)
{
	if (kept_as_text(v)) {
		struct strbuf sb = STRBUF_INIT;
		size_t n;

		iface_text(v, &sb);
		n = (sb.len < STR_MAX ? sb.len : STR_MAX) + 1;
		strbuf_release(&sb);
		return PV_HDR + n;
	}
	if (v->fault && v->null)
		return PV_HDR + (v->text ? strnlen(v->text, STR_MAX) + 1 : 0);
	if (v->fault)
		return PV_HDR + (v->fault_expr ? strnlen(v->fault_expr, STR_MAX) + 1 : 0);
	switch (v->kind) {
	case VK_CSTRING:
	case VK_LSTRING:
	case VK_BYTES:
		return PV_HDR + (v->len < STR_MAX ? v->len : STR_MAX);
	default:
		return PV_HDR + (v->text ? strnlen(v->text, STR_MAX) + 1 : 0);
	}
}

static char *pack_value(char *p, const struct value *v)
{
	struct strbuf sb = STRBUF_INIT;
	enum value_kind kind = v->kind;
	uint8_t flags = 0;
	const char *data = NULL;
	size_t len = 0;
	uint16_t l16;

	if (v->fault) {
		/* a null's own spelling ("NULL") is kept; a fault's, the link that failed */
		const char *t = v->null && v->text ? v->text : v->null ? NULL : v->fault_expr;

		flags |= PV_FAULT | (v->null ? PV_NULL : 0);
		if (t) {
			flags |= PV_TEXT;
			data = t;
			len = strnlen(data, STR_MAX);
		}
	} else if (v->kind == VK_CSTRING || v->kind == VK_LSTRING || v->kind == VK_BYTES) {
		data = v->str;
		len = v->len < STR_MAX ? v->len : STR_MAX;
		if (v->cut || v->len > STR_MAX)
			flags |= PV_CUT;
	} else if (kept_as_text(v)) {
		flags |= PV_TEXT;
		data = iface_text(v, &sb);
		len = sb.len < STR_MAX ? sb.len : STR_MAX;
		if (strlen(data) < len)
			flags |= PV_PRETTY;
		kind = VK_TYPENAME;
	} else if (v->text) {
		flags |= PV_TEXT;
		data = v->text;
		len = strnlen(data, STR_MAX);
	}
	p[0] = (char)kind;
	p[1] = (char)flags;
	l16 = (uint16_t)(len + ((flags & PV_TEXT) ? 1 : 0));
	memcpy(p + 2, &l16, 2);
	memcpy(p + 4, &v->num.u, 8);
	p += PV_HDR;
	if (len)
		memcpy(p, data, len);
	p += len;
	if (flags & PV_TEXT)
		*p++ = '\0';
	strbuf_release(&sb);
	return p;
}

/* The values of kept event @sl, as struct value pointing into the arena; count returned. */
size_t tui_unpack(struct tui *t, const struct slot *sl, uint64_t **stack, size_t *nr_stack)
{
	const struct schema *sc = t->sch[sl->schema];
	const char *p = t->arena + sl->pos % t->asize;
	uint16_t n, ns;

	memcpy(&n, p, 2);
	p += 2;
	ALLOC_GROW(t->vbuf, (size_t)n + 1, t->vbuf_alloc);
	for (size_t i = 0; i < n; i++) {
		struct value *v = &t->vbuf[i];
		uint16_t len;
		uint8_t flags = p[1];

		memset(v, 0, sizeof(*v));
		v->kind = (enum value_kind)(unsigned char)p[0];
		memcpy(&len, p + 2, 2);
		memcpy(&v->num.u, p + 4, 8);
		p += PV_HDR;
		v->name = i < sc->ap->nr_vals ? sc->ap->val_names[i] : "?";
		v->arg = i < sc->ap->nr_vals ? sc->ap->args[i] : NULL;
		v->fault = flags & PV_FAULT;
		v->null = flags & PV_NULL;
		v->cut = flags & PV_CUT;
		if (flags & PV_TEXT) {
			if (v->fault && !v->null)
				v->fault_expr = p;
			else
				v->text = p;
			if ((flags & PV_PRETTY) && strlen(p) + 1 < len) {
				/* the detail pane's lines: after the one-line text's NUL */
				v->str = p + strlen(p) + 1;
				v->len = strnlen(v->str, (size_t)len - strlen(p) - 1);
			}
		} else {
			v->str = p;
			v->len = len;
		}
		p += len;
	}
	memcpy(&ns, p, 2);
	if (stack) {
		*stack = (uint64_t *)(uintptr_t)(p + 2);	/* unaligned: read with memcpy */
		*nr_stack = ns;
	}
	return n;
}

const char *const tui_stack_cuts[4] = { "copy", "cfi", "frames", "lost" };

/* STACK_CUT_SHIFT: how @ev's stack ends */
static uint16_t stack_cut_bits(const struct event *ev)
{
	for (uint16_t i = 0; ev->ustack_cut && i < ARRAY_SIZE(tui_stack_cuts); i++)
		if (!strcmp(ev->ustack_cut, tui_stack_cuts[i]))
			return (uint16_t)((i + 1) << STACK_CUT_SHIFT);
	return 0;
}

/* bytes kept of frame @i's symbol ("sym+0x10"), 0 when the decoder had none */
static size_t stack_sym_len(const struct event *ev, size_t i)
{
	const char *s = ev->ustack_syms[i];
	size_t n = s ? strlen(s) : 0;

	return n > 200 ? 200 : n;
}

int tui_event(struct render *r, const struct event *ev)
{
	struct tui *t = r->priv;
	struct schema *sc = t->nr_sch ? t->sch[t->last_sch] : NULL;
	size_t need = 4, nst = ev->nr_ustack < 255 ? ev->nr_ustack : 255;
	uint16_t n16;
	struct slot *sl;
	char *p;

	if (!sc || sc->retired || strcmp(sc->name, ev->probe)) {
		sc = tui_schema_find(t, ev->probe, true, &t->last_sch);
		if (!sc)
			return 0;
	}
	/* the statistics: the view's own, or the session's (which counted @ev already) */
	if (t->own_agg)
		agg_event(t->agg, ev);
	if (sc->ap->nr_vals > sc->nr_width) {
		sc->width = xrealloc(sc->width, sc->ap->nr_vals * sizeof(*sc->width));
		memset(sc->width + sc->nr_width, 0,
		       (sc->ap->nr_vals - sc->nr_width) * sizeof(*sc->width));
		sc->nr_width = sc->ap->nr_vals;
	}
	for (size_t i = 0; i < ev->nr_vals; i++)
		need += value_bytes(&ev->vals[i]);
	need += nst * 8 + 2;
	/* the decoder's symbols for the frames (valid only now), kept with the event */
	if (nst && ev->ustack_syms)
		for (size_t i = 0; i < nst; i++)
			need += 2 + stack_sym_len(ev, i);

	/* a record never wraps: skip to the arena's start when it does not fit */
	if (t->apos % t->asize + need > t->asize)
		t->apos += t->asize - t->apos % t->asize;
	while (t->tail < t->head &&
	       (t->head - t->tail >= t->cap ||
		t->slots[t->tail % t->cap].pos + t->asize < t->apos + need))
		t->tail++;
	sl = &t->slots[t->head % t->cap];
	sl->ts = ev->ts;
	sl->duration_ns = ev->duration_ns;
	sl->pos = t->apos;
	sl->pid = ev->pid;
	sl->tid = ev->tid;
	sl->cpu = (uint16_t)ev->cpu;
	sl->schema = (uint16_t)t->last_sch;
	sl->fgen = 0;
	memcpy(sl->comm, ev->comm, sizeof(sl->comm));
	p = t->arena + t->apos % t->asize;
	n16 = (uint16_t)ev->nr_vals;
	memcpy(p, &n16, 2);
	p += 2;
	for (size_t i = 0; i < ev->nr_vals; i++)
		p = pack_value(p, &ev->vals[i]);
	n16 = (uint16_t)nst;
	memcpy(p, &n16, 2);
	p += 2;
	if (nst) {
		memcpy(p, ev->ustack, nst * 8);
		p += nst * 8;
	}
	n16 = (uint16_t)(nst && ev->ustack_syms ? nst : 0);
	{
		uint16_t w16 = n16 | stack_cut_bits(ev);

		memcpy(p, &w16, 2);
	}
	p += 2;
	for (size_t i = 0; i < n16; i++) {
		uint16_t sl16 = (uint16_t)stack_sym_len(ev, i);
		/* a function inlined at the frame: STACK_SYM_INLINED in the length */
		uint16_t w16 = sl16 | (ev->ustack_inlined && ev->ustack_inlined[i] ?
				       STACK_SYM_INLINED : 0);

		memcpy(p, &w16, 2);
		memcpy(p + 2, ev->ustack_syms[i], sl16);
		p += 2 + sl16;
	}
	sl->len = (uint32_t)need;
	t->apos += need;
	t->head++;
	return 0;
}

/* ---- filter and selection ----------------------------------------------------------------- */

static bool ci_contains(const char *hay, size_t hlen, const char *needle, size_t nlen)
{
	if (!nlen)
		return true;
	for (size_t i = 0; i + nlen <= hlen; i++) {
		size_t k = 0;

		while (k < nlen) {
			unsigned char a = hay[i + k], b = needle[k];

			if (a >= 'A' && a <= 'Z')
				a += 32;
			if (b >= 'A' && b <= 'Z')
				b += 32;
			if (a != b)
				break;
			k++;
		}
		if (k == nlen)
			return true;
	}
	return false;
}

static uint64_t view_limit(const struct tui *t)
{
	uint64_t end = t->paused ? t->pause_head : t->head;

	return end > t->tail ? end - 1 : NO_SEQ;
}

bool tui_visible(struct tui *t, uint64_t seq)
{
	struct slot *sl = &t->slots[seq % t->cap];
	bool m;

	if (t->sch[sl->schema]->hidden)
		return false;
	if (!t->filter.len)
		return true;
	if (sl->fgen >> 1 == t->fgen)
		return sl->fgen & 1;
	if (!t->filter_budget) {
		t->filter_partial = true;
		return false;
	}
	t->filter_budget--;
	tui_build_row(t, seq, &t->row, false);
	m = ci_contains(t->row.text.buf, t->row.text.len, t->filter.buf, t->filter.len);
	sl->fgen = t->fgen << 1 | m;
	return m;
}

uint64_t tui_prev_visible(struct tui *t, uint64_t seq)
{
	while (seq > t->tail) {
		seq--;
		if (tui_visible(t, seq))
			return seq;
	}
	return NO_SEQ;
}

uint64_t tui_next_visible(struct tui *t, uint64_t seq)
{
	uint64_t lim = view_limit(t);

	if (lim == NO_SEQ)
		return NO_SEQ;
	for (seq = seq < t->tail ? t->tail : seq + 1; seq <= lim; seq++)
		if (tui_visible(t, seq))
			return seq;
	return NO_SEQ;
}

uint64_t tui_last_visible(struct tui *t)
{
	uint64_t lim = view_limit(t);

	if (lim == NO_SEQ)
		return NO_SEQ;
	return tui_visible(t, lim) ? lim : tui_prev_visible(t, lim);
}

/* keep the selection on a kept, visible event and inside the window */
void tui_fix_window(struct tui *t)
{
	uint64_t lim = view_limit(t), q;
	int n;

	if (t->follow)
		return;
	if (lim == NO_SEQ) {
		t->sel = t->bottom = NO_SEQ;
		return;
	}
	if (t->sel == NO_SEQ || t->sel < t->tail || t->sel > lim || !tui_visible(t, t->sel)) {
		q = t->sel != NO_SEQ && t->sel >= t->tail && t->sel <= lim ?
			tui_next_visible(t, t->sel) : NO_SEQ;
		if (q == NO_SEQ)
			q = t->sel != NO_SEQ && t->sel > lim ? tui_last_visible(t) :
				tui_next_visible(t, t->tail ? t->tail - 1 : NO_SEQ);
		if (q == NO_SEQ)
			q = tui_last_visible(t);
		t->sel = q;
	}
	if (t->sel == NO_SEQ) {
		t->bottom = NO_SEQ;
		return;
	}
	if (t->bottom == NO_SEQ || t->bottom < t->sel || t->bottom > lim)
		t->bottom = t->sel;
	/* is sel within list_rows of bottom? */
	n = 0;
	for (q = t->bottom; q != NO_SEQ && q > t->sel && n < t->list_rows;
	     q = tui_prev_visible(t, q))
		n++;
	if (n >= t->list_rows) {
		t->bottom = t->sel;
		for (int i = 0; i < t->list_rows - 1; i++) {
			q = tui_next_visible(t, t->bottom);
			if (q == NO_SEQ)
				break;
			t->bottom = q;
		}
	}
}

void tui_select_move(struct tui *t, int delta)
{
	uint64_t q;

	if (t->follow || t->sel == NO_SEQ) {
		t->follow = false;
		t->sel = tui_last_visible(t);
		t->bottom = t->sel;
		if (delta > 0)
			delta = 0;
	}
	for (; delta < 0 && t->sel != NO_SEQ; delta++) {
		q = tui_prev_visible(t, t->sel);
		if (q == NO_SEQ)
			break;
		t->sel = q;
	}
	for (; delta > 0 && t->sel != NO_SEQ; delta--) {
		q = tui_next_visible(t, t->sel);
		if (q == NO_SEQ)
			break;
		t->sel = q;
	}
	tui_fix_window(t);
}

