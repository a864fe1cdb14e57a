// SPDX-License-Identifier: GPL-2.0-or-later
/* tui-detail.c - the curses view's detail pane: one event's values in full, types, its stack */
#define LOG_DOMAIN "tui"

#include <stdlib.h>
#include <string.h>

#include "debuginfo.h"
#include "log.h"
#include "resolve.h"
#include "tui-internal.h"

/* "o->customer->name (char *)": what the argument is, for the detail pane */
static void arg_info(struct strbuf *sb, const char *name, const struct trace_arg *a)
{
	if (!a)
		return;
	if (a->expr && strcmp(a->expr, name))
		strbuf_addf(sb, "%s ", a->expr);
	if (a->type_name)
		strbuf_addf(sb, "(%s)", a->type_name);
}

/* "probe NAME" and "time ... cpu pid tid comm #N" */
static void detail_head(struct tui *t, struct tui_lines *l, uint64_t seq, const struct slot *sl,
			size_t n)
{
	const struct schema *sc = t->sch[sl->schema];
	struct row *w;

	w = tui_lines_new(l);
	tui_row_add(w, R_ARGNAME, "probe  ");
	tui_row_add(w, R_PROBE, sc->name);
	if (n && t->vbuf[0].arg == NULL && sc->ap->nr_vals && !sc->ap->args[0])
		tui_row_add(w, R_DIM, "  (tracefs event)");
	w = tui_lines_new(l);
	tui_row_add(w, R_ARGNAME, "time   ");
	tui_row_role(w, R_NORMAL);
	render_time(&w->text, sl->ts, t->r->t0);
	strbuf_addf(&w->text, " s   cpu %u   pid %d   tid %d   comm ", sl->cpu, sl->pid, sl->tid);
	escape_untrusted(&w->text, sl->comm, strnlen(sl->comm, sizeof(sl->comm)));
	strbuf_addf(&w->text, "   #%llu", (unsigned long long)seq + 1);
	if (sl->duration_ns >= 0) {
		w = tui_lines_new(l);
		tui_row_add(w, R_ARGNAME, "call   ");
		tui_row_role(w, R_NORMAL);
		render_duration(&w->text, (uint64_t)sl->duration_ns);
		strbuf_addf(&w->text, "  (%lld ns since its entry)", (long long)sl->duration_ns);
	}
}

/* @n bytes of lines at @s: the first on @w, the others on rows of their own at column @ind */
static void pretty_rows(struct tui *t, struct tui_lines *l, struct row *w, int ind, const char *s,
			size_t n)
{
	while (n) {
		const char *nl = memchr(s, '\n', n);
		size_t len = nl ? (size_t)(nl - s) : n;

		tui_lines_wrap(t, l, w, ind, t->cols - 1, s, len, R_NORMAL);
		if (!nl)
			break;
		n -= len + 1;
		s = nl + 1;
		w = tui_lines_new(l);
		tui_row_pad(w, ind);
	}
}

/* @v's value in full on @w (wrapped onto new rows at column @ind): numbers also in hex */
static void detail_value(struct tui *t, struct tui_lines *l, struct row *w, int ind,
			 const struct value *v)
{
	const struct render_opts *o = &t->r->opts;
	struct strbuf txt = STRBUF_INIT;

	tui_row_role(w, v->fault ? R_ERROR : R_NORMAL);
	if (v->fault) {
		tui_fmt_value(&w->text, v);
		return;
	}
	strbuf_init(&txt);
	switch (v->kind) {
	case VK_SIGNED:
		strbuf_addf(&w->text, "%lld  (0x%llx)", (long long)v->num.s,
			    (unsigned long long)v->num.u);
		break;
	case VK_UNSIGNED:
	case VK_HEX:
	case VK_POINTER:
	case VK_CHAR:
	case VK_ENUM:
	case VK_BOOL:
		render_value_text(&w->text, v);
		strbuf_addf(&w->text, "  (%llu, 0x%llx)", (unsigned long long)v->num.u,
			    (unsigned long long)v->num.u);
		if (v->kind == VK_POINTER && o && o->dbg &&
		    debuginfo_symbolize(o->dbg, v->num.u, &txt) == 0)
			strbuf_addf(&w->text, "  %s", txt.buf);
		break;
	case VK_CSTRING:
	case VK_LSTRING:
	case VK_BYTES:
		strbuf_addch(&txt, '"');
		escape_untrusted(&txt, v->str ? v->str : "", v->len);
		strbuf_addch(&txt, '"');
		if (v->cut)
			strbuf_addstr(&txt, "...");
		strbuf_addf(&txt, "  (%zu bytes%s)", v->len, v->cut ? ", cut" : "");
		tui_lines_wrap(t, l, w, ind, t->cols - 1, txt.buf, txt.len, R_NORMAL);
		break;
	case VK_TYPENAME:
		if (v->str) {	/* a whole value: one member a row (tui-ring.c) */
			pretty_rows(t, l, w, ind, v->str, v->len);
			break;
		}
		/* fallthrough */
	default:
		render_value_text(&txt, v);
		if (v->kind == VK_FLOAT)
			strbuf_addf(&txt, "  (bits 0x%llx)", (unsigned long long)v->num.u);
		tui_lines_wrap(t, l, w, ind, t->cols - 1, txt.buf, txt.len, R_NORMAL);
		break;
	}
	strbuf_release(&txt);
}

/* one row per value of the unpacked event (t->vbuf): name, expression and type, value */
static void detail_values(struct tui *t, struct tui_lines *l, size_t n)
{
	int nw = 4, tw = 0;
	bool one_line;

	for (size_t i = 0; i < n; i++) {
		const struct trace_arg *a = t->vbuf[i].arg;

		if ((int)strlen(t->vbuf[i].name) > nw)
			nw = (int)strlen(t->vbuf[i].name);
		strbuf_reset(&t->tmp);
		arg_info(&t->tmp, t->vbuf[i].name, a);
		if ((int)t->tmp.len > tw)
			tw = (int)t->tmp.len;
	}
	nw = nw > 24 ? 24 : nw;
	tw = tw > 40 ? 40 : tw;
	/* name, expression and type, value on one line when the terminal is wide enough */
	one_line = t->cols >= nw + tw + 30;
	for (size_t i = 0; i < n; i++) {
		struct value *v = &t->vbuf[i];
		int pad, ind = one_line ? nw + tw + 4 : nw + 2;
		struct row *w = tui_lines_new(l);

		tui_row_add(w, R_ARGNAME, v->name);
		pad = nw - (int)strlen(v->name);
		tui_row_pad(w, pad > 0 ? pad : 0);
		strbuf_addstr(&w->text, "  ");
		strbuf_reset(&t->tmp);
		arg_info(&t->tmp, v->name, v->arg);
		if (t->tmp.len) {
			tui_row_role(w, R_DIM);
			strbuf_addstr(&w->text, t->tmp.buf);
			if (one_line) {
				tui_row_pad(w, tw - (int)t->tmp.len + 2);
			} else {
				w = tui_lines_new(l);
				tui_row_pad(w, nw + 2);
			}
		} else if (one_line) {
			tui_row_pad(w, tw + 2);
		}
		detail_value(t, l, w, ind, v);
	}
}

/* the user stack: the decoder's symbols when it had them, else the binary's */
static void detail_stack(struct tui *t, struct tui_lines *l, const uint64_t *stack, size_t nst)
{
	const struct render_opts *o = &t->r->opts;
	const char *syms = (const char *)stack + nst * 8;
	uint16_t nsyms = 0, cut;
	struct row *w;

	tui_lines_new(l);
	w = tui_lines_new(l);
	tui_row_add(w, R_TITLE, "user stack");
	if (!nst)
		tui_row_add(w, R_DIM, "  (none recorded)");
	memcpy(&nsyms, syms, 2);
	cut = nsyms >> STACK_CUT_SHIFT;
	nsyms &= (1u << STACK_CUT_SHIFT) - 1;
	syms += 2;
	for (size_t i = 0; i < nst; i++) {
		uint64_t a;

		memcpy(&a, (const char *)stack + i * 8, 8);
		w = tui_lines_new(l);
		tui_row_role(w, R_DIM);
		strbuf_addf(&w->text, "  #%-2zu 0x%016llx  ", i, (unsigned long long)a);
		tui_row_role(w, R_NORMAL);
		if (nsyms == nst) {
			/* symbolized by the decoder with the process's own mappings */
			uint16_t len;

			memcpy(&len, syms, 2);
			escape_untrusted(&w->text, syms + 2, len & ~STACK_SYM_INLINED);
			if (len & STACK_SYM_INLINED) {
				tui_row_role(w, R_DIM);
				strbuf_addstr(&w->text, " (inlined)");
			}
			syms += 2 + (len & ~STACK_SYM_INLINED);
		} else if (o->dbg) {
			struct strbuf sym = STRBUF_INIT;

			strbuf_init(&sym);
			if (debuginfo_symbolize(o->dbg, a, &sym) == 0)
				escape_name(&w->text, sym.buf);	/* the binary's name */
			strbuf_release(&sym);
		}
	}
	if (cut && cut <= ARRAY_SIZE(tui_stack_cuts)) {
		w = tui_lines_new(l);
		tui_row_add(w, R_DIM, "  ... ");
		tui_row_add(w, R_DIM, render_stack_cut(tui_stack_cuts[cut - 1]));
	}
}

void tui_build_detail(struct tui *t, struct tui_lines *l)
{
	uint64_t seq = t->follow ? tui_last_visible(t) : t->sel;
	const struct render_opts *o = &t->r->opts;
	uint64_t *stack = NULL;
	struct slot *sl;
	size_t n, nst = 0;

	if (seq == NO_SEQ || seq < t->tail || seq >= t->head) {
		struct row *w = tui_lines_new(l);

		tui_row_add(w, R_DIM, "(no event selected, or it has left the ring)");
		return;
	}
	sl = &t->slots[seq % t->cap];
	n = tui_unpack(t, sl, &stack, &nst);
	detail_head(t, l, seq, sl, n);
	tui_lines_new(l);
	detail_values(t, l, n);
	if (o && o->stack)
		detail_stack(t, l, stack, nst);
}
