// SPDX-License-Identifier: GPL-2.0-or-later
/* tui-draw.c - the curses view on the screen: header, list, status line, overlays, colours */
#define LOG_DOMAIN "tui"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfo.h"
#include "log.h"
#include "resolve.h"
#include "session.h"
#include "tui-internal.h"

/* the attribute of each role, set by tui_draw_init() (one curses screen per process) */
static attr_t role_attrs[R_NR];

static attr_t role_attr(bool color, int role)
{
	static const struct {
		short fg, bg;
		attr_t extra, mono;
	} map[R_NR] = {
		[R_NORMAL]	= { -1, -1, 0, 0 },
		[R_HEADER]	= { COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
		[R_LOST]	= { COLOR_WHITE, COLOR_RED, A_BOLD, A_BOLD | A_UNDERLINE },
		[R_PROBE]	= { COLOR_CYAN, -1, A_BOLD, A_BOLD },
		[R_ARGNAME]	= { COLOR_GREEN, -1, 0, 0 },
		[R_TIME]	= { COLOR_BLUE, -1, A_BOLD, 0 },
		[R_ERROR]	= { COLOR_RED, -1, A_BOLD, A_BOLD },
		[R_HINT]	= { -1, -1, A_DIM, 0 },
		[R_SEL]		= { -1, -1, A_REVERSE, A_REVERSE },
		[R_DIM]		= { COLOR_YELLOW, -1, 0, 0 },
		[R_GOOD]	= { COLOR_GREEN, -1, A_BOLD, 0 },
		[R_TITLE]	= { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	};

	if (!color)
		return map[role].mono;
	if (role == R_SEL || (map[role].fg < 0 && map[role].bg < 0))
		return map[role].extra;
	init_pair((short)role, map[role].fg, map[role].bg);
	return COLOR_PAIR(role) | map[role].extra;
}

void tui_draw_init(struct tui *t, bool color)
{
	if (color) {
		start_color();
		use_default_colors();
	}
	for (int i = 0; i < R_NR; i++)
		role_attrs[i] = role_attr(color, i);
}

/*
 * Draw @w at line @y from column 0 over @cols columns, skipping the first @skip columns;
 * @base is or-ed into every attribute (the selection). Pads the rest with blanks.
 */
static void draw_row(struct tui *t, int y, int cols, const struct row *w, int skip, attr_t base)
{
	const char *s = w->text.buf ? w->text.buf : "";
	size_t len = w->text.len, si = 0;
	int col = 0, x = 0;

	move(y, 0);
	for (size_t i = 0; i < len && x < cols;) {
		unsigned int cp;
		int n = tui_utf8_next(s + i, len - i, &cp), cw = tui_cp_width(t, cp);
		attr_t a;

		while (si + 1 < w->nr_segs && w->segs[si + 1].off <= i)
			si++;
		a = (w->nr_segs ? role_attrs[w->segs[si].role] : role_attrs[R_NORMAL]) | base;
		if (col >= skip) {
			if (x + cw > cols)
				break;
			attrset(a);
			if (cp < 0x80)
				addch((chtype)(unsigned char)s[i]);
			else if (t->utf8)
				addnstr(s + i, n);
			else
				addch('?');
			x += cw;
		}
		col += cw;
		i += n;
	}
	attrset(role_attrs[R_NORMAL] | base);
	while (x++ < cols)
		addch(' ');
	attrset(A_NORMAL);
}

/* draw a plain string on line @y at @x, clipped to the screen */
static void draw_str(struct tui *t, int y, int x, int role, const char *s)
{
	tui_row_reset(&t->row);
	tui_row_add(&t->row, role, s);
	if (x >= COLS)
		return;
	move(y, x);
	{
		int cols = COLS - x;
		const char *p = s;
		size_t len = strlen(s);

		attrset(role_attrs[role]);
		for (size_t i = 0; i < len && cols > 0;) {
			unsigned int cp;
			int n = tui_utf8_next(p + i, len - i, &cp), cw = tui_cp_width(t, cp);

			if (cw > cols)
				break;
			if (cp < 0x80)
				addch((chtype)(unsigned char)p[i]);
			else if (t->utf8)
				addnstr(p + i, n);
			else
				addch('?');
			cols -= cw;
			i += n;
		}
		attrset(A_NORMAL);
	}
}

static void draw_header(struct tui *t)
{
	const struct render_opts *o = &t->r->opts;
	uint64_t total = 0, lost = 0;
	size_t probes = 0;
	struct row *w = &t->row;

	t->ctl->counters(t->ctl->s, &total, &lost);
	if (t->lost > lost)
		lost = t->lost;
	for (size_t i = 0; i < t->ctl->nr_events(t->ctl->s); i++) {
		const struct session_event *e = t->ctl->event(t->ctl->s, i);

		probes += e && !e->removed;
	}
	tui_row_reset(w);
	tui_row_add(w, R_HEADER, " upfront ");
	if (o && o->dbg) {
		escape_name(&w->text, debuginfo_basename(o->dbg));
		strbuf_addch(&w->text, ' ');
	}
	strbuf_addf(&w->text, " probes %zu  events/s %llu  total %llu  lost ", probes,
		    (unsigned long long)t->rate, (unsigned long long)total);
	tui_row_role(w, lost ? R_LOST : R_HEADER);
	render_u64(&w->text, lost);
	tui_row_role(w, R_HEADER);
	if (t->paused)
		strbuf_addstr(&w->text, "  [PAUSED]");
	if (!t->follow && t->mode == M_LIST)
		strbuf_addstr(&w->text, "  [SCROLL]");
	if (t->head - t->tail >= t->cap)
		strbuf_addf(&w->text, "  ring %llu", (unsigned long long)t->cap);
	draw_row(t, 0, COLS, w, 0, 0);
}

static void draw_status(struct tui *t)
{
	struct row *w = &t->row;
	int y = LINES - 1;

	tui_row_reset(w);
	if (t->input == IN_FILTER) {
		tui_row_add(w, R_TITLE, "/");
		tui_row_role(w, R_NORMAL);
		escape_name_n(&w->text, t->filter.buf ? t->filter.buf : "", t->filter.len);
		draw_row(t, y, COLS, w, 0, 0);
		curs_set(1);
		move(y, tui_text_cols(t, w->text.buf, w->text.len) < COLS ?
			tui_text_cols(t, w->text.buf, w->text.len) : COLS - 1);
		return;
	}
	if (t->input == IN_ADD) {
		int c;

		tui_row_add(w, R_TITLE, "add probe: ");
		tui_row_role(w, R_NORMAL);
		escape_name_n(&w->text, t->line.buf ? t->line.buf : "", t->line.len);
		c = tui_text_cols(t, w->text.buf, w->text.len);
		/* keep the cursor end in view on a narrow terminal */
		draw_row(t, y, COLS, w, c >= COLS ? c - COLS + 1 : 0, 0);
		curs_set(1);
		move(y, c >= COLS ? COLS - 1 : c);
		return;
	}
	curs_set(0);
	if (t->input == IN_CONFIRM) {
		tui_row_add(w, R_ERROR, "remove probe ");
		escape_name(&w->text, t->confirm_name);
		strbuf_addstr(&w->text, "? (y/n)");
	} else if (t->status.len && now_ns() < t->status_until) {
		tui_row_role(w, t->status_err ? R_ERROR : R_GOOD);
		escape_name_n(&w->text, t->status.buf, t->status.len);
	} else if (t->ended) {
		/* tracing is over: the events and statistics stay until q */
		tui_row_add(w, R_LOST, "ended: ");
		tui_row_role(w, R_NORMAL);
		escape_name(&w->text, t->ended);
		tui_row_add(w, R_HINT, "; the events and statistics stay: ");
		tui_row_add(w, R_TITLE, "s");
		tui_row_add(w, R_HINT, " stats, ");
		tui_row_add(w, R_TITLE, "q");
		tui_row_add(w, R_HINT, " quit");
	} else {
		static const char *hints[] = { "?", "help", "/", "filter", "space", "pause",
					       "f", "follow", "Enter", "detail", "s", "stats",
					       "p", "probes", "a", "add", "d", "remove", "q", "quit" };

		if (t->filter.len) {
			tui_row_add(w, R_TITLE, "filter: ");
			tui_row_role(w, R_NORMAL);
			escape_name_n(&w->text, t->filter.buf, t->filter.len);
			tui_row_add(w, R_HINT, t->filter_partial ? " (searching) " : " ");
		}
		for (size_t i = 0; i < ARRAY_SIZE(hints); i += 2) {
			tui_row_add(w, R_TITLE, hints[i]);
			tui_row_add(w, R_HINT, " ");
			strbuf_addstr(&w->text, hints[i + 1]);
			strbuf_addstr(&w->text, "  ");
		}
	}
	draw_row(t, y, COLS, w, 0, 0);
}

static void draw_list(struct tui *t)
{
	int rows = LINES - 2;
	uint64_t *seqs;
	int n = 0;
	uint64_t q;

	if (rows < 1)
		return;
	t->list_rows = rows;
	tui_fix_window(t);
	seqs = xmalloc(rows * sizeof(*seqs));
	q = t->follow ? tui_last_visible(t) : t->bottom;
	while (q != NO_SEQ && n < rows) {
		seqs[n++] = q;
		q = tui_prev_visible(t, q);
	}
	/* newest at the bottom; when there are fewer rows, they start at the top */
	for (int i = 0; i < rows; i++) {
		int k = n - 1 - i;

		if (k < 0) {
			move(1 + i, 0);
			clrtoeol();
			continue;
		}
		tui_build_row(t, seqs[k], &t->row, true);
		draw_row(t, 1 + i, COLS, &t->row, t->hscroll,
			 !t->follow && seqs[k] == t->sel ? role_attrs[R_SEL] : 0);
	}
	if (!n) {
		const char *msg = t->head == 0 ? "waiting for events..." :
				  "no events match (Esc clears the filter, p picks probes)";

		draw_str(t, 2, 2, R_DIM, msg);
	}
	free(seqs);
}

static void draw_lines(struct tui *t, struct tui_lines *l, const char *title)
{
	int rows = LINES - 2, max;
	struct row *w = &t->row;

	if (rows < 2)
		return;
	tui_row_reset(w);
	tui_row_add(w, R_TITLE, title);
	tui_row_add(w, R_HINT, "   (arrows scroll, Esc/q back)");
	draw_row(t, 1, COLS, w, 0, 0);
	rows--;
	max = (int)l->nr - rows;
	if (t->ov_scroll > max)
		t->ov_scroll = max;
	if (t->ov_scroll < 0)
		t->ov_scroll = 0;
	for (int i = 0; i < rows; i++) {
		size_t k = (size_t)(t->ov_scroll + i);

		if (k < l->nr) {
			draw_row(t, 2 + i, COLS, &l->v[k], 0, 0);
		} else {
			move(2 + i, 0);
			clrtoeol();
		}
	}
}

/* the session's events for the picker, in the order added */
size_t tui_pick_list(struct tui *t, const struct session_event **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < t->ctl->nr_events(t->ctl->s) && n < max; i++) {
		const struct session_event *e = t->ctl->event(t->ctl->s, i);

		if (e && !e->removed)
			out[n++] = e;
	}
	return n;
}

static void draw_pick(struct tui *t)
{
	const struct session_event *evs[512];
	size_t n = tui_pick_list(t, evs, ARRAY_SIZE(evs));
	struct row *w = &t->row;

	tui_row_reset(w);
	tui_row_add(w, R_TITLE, "probes shown");
	tui_row_add(w, R_HINT, "   (space toggles, d removes, Esc/p back)");
	draw_row(t, 1, COLS, w, 0, 0);
	if (t->pick_sel >= (int)n)
		t->pick_sel = (int)n - 1;
	if (t->pick_sel < 0)
		t->pick_sel = 0;
	for (int i = 0; i < LINES - 3; i++) {
		size_t k = (size_t)i + (t->pick_sel >= LINES - 3 ? t->pick_sel - (LINES - 4) : 0);
		struct schema *sc;

		if (k >= n) {
			move(2 + i, 0);
			clrtoeol();
			continue;
		}
		sc = tui_schema_find(t, evs[k]->name, true, NULL);
		tui_row_reset(w);
		tui_row_add(w, R_NORMAL, sc && sc->hidden ? " [ ] " : " [x] ");
		tui_row_add(w, R_PROBE, evs[k]->generic ? evs[k]->sys : "");
		if (evs[k]->generic)
			strbuf_addch(&w->text, ':');
		strbuf_addstr(&w->text, evs[k]->name);
		tui_row_add(w, R_DIM, "  ");
		strbuf_addf(&w->text, "%llu events", (unsigned long long)(sc ? sc->ap->count : 0));
		if (evs[k]->tp && evs[k]->tp->func && strcmp(evs[k]->tp->func, evs[k]->name)) {
			strbuf_addstr(&w->text, "  ");
			escape_name(&w->text, evs[k]->tp->func);
		}
		draw_row(t, 2 + i, COLS, w, 0, (int)k == t->pick_sel ? role_attrs[R_SEL] : 0);
	}
}

/* above the add prompt: the completions of the last Tab, or why there are none */
static void draw_cands(struct tui *t)
{
	int max = LINES - 3, n = (int)t->cands.nr < max ? (int)t->cands.nr : max;

	if (t->input != IN_ADD)
		return;
	if (!n && t->status.len && now_ns() < t->status_until && LINES > 2) {
		tui_row_reset(&t->row);
		tui_row_role(&t->row, t->status_err ? R_ERROR : R_GOOD);
		strbuf_addch(&t->row.text, ' ');
		escape_name_n(&t->row.text, t->status.buf, t->status.len);
		draw_row(t, LINES - 2, COLS, &t->row, 0, 0);
		return;
	}
	if (n <= 0)
		return;
	for (int i = 0; i < n; i++) {
		int k = (int)t->cands.nr > max && i == n - 1 ? -1 : i;

		tui_row_reset(&t->row);
		if (k < 0) {
			tui_row_add(&t->row, R_DIM, "");
			strbuf_addf(&t->row.text, " ... %zu more", t->cands.nr - (size_t)i);
		} else {
			tui_row_add(&t->row, R_NORMAL, " ");
			escape_name(&t->row.text, t->cands.v[k]);
		}
		draw_row(t, LINES - 1 - n + i, COLS, &t->row, 0, role_attrs[R_SEL]);
	}
}

void tui_draw(struct tui *t)
{
	t->cols = COLS;
	t->filter_budget = FILTER_BUDGET;
	t->filter_partial = false;
	if (LINES < 3 || COLS < 10) {
		erase();
		draw_str(t, 0, 0, R_NORMAL, "terminal too small");
		refresh();
		return;
	}
	draw_header(t);
	if (t->mode == M_LIST) {
		draw_list(t);
	} else if (t->mode == M_PICK) {
		draw_pick(t);
	} else {
		struct tui_lines l = { NULL, 0, 0 };

		if (t->mode == M_DETAIL)
			tui_build_detail(t, &l);
		else if (t->mode == M_STATS)
			tui_build_stats(t, &l);
		else
			tui_build_help(t, &l);
		draw_lines(t, &l, t->mode == M_DETAIL ? "event" :
			   t->mode == M_STATS ? "statistics (every event, also those not kept)" :
			   "keys");
		tui_lines_release(&l);
	}
	draw_cands(t);
	draw_status(t);
	refresh();
	t->dirty = false;
}
