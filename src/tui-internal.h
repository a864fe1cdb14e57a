/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tui-internal.h - the curses view's shared state, private to src/tui*.c
 *
 * tui.c owns the terminal: it is the only file that opens and restores curses (on every exit
 * path and fatal signal) and reads keys; tui-draw.c is the only other file that calls curses
 * (it puts rows on the screen). Every other tui-*.c builds rows as attributed text
 * (struct row), so this header does not include <curses.h>.
 *
 *   tui.c        render ops, the loop's tick, keys
 *   tui-ring.c   the ring of kept events, the filter and the selection over it
 *   tui-row.c    rows as attributed text (UTF-8 widths, wrapping, the list row of an event)
 *   tui-draw.c   drawing: header, list, status line, overlays, colours
 *   tui-stats.c  per-probe schemas and statistics, the statistics overlay
 *   tui-detail.c the detail pane of one event
 *   tui-prompt.c the status line's messages, adding and removing probes, Tab completion
 */
#ifndef UPF_TUI_INTERNAL_H
#define UPF_TUI_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "agg.h"
#include "render.h"
#include "util.h"

#define RING_DEFAULT	100000		/* events kept; --ring N or UPFRONT_RING overrides */
#define ARENA_PER_EVENT	160		/* bytes of values budgeted per kept event */
#define STR_MAX		4096		/* bytes of one string kept in the ring */
#define FRAME_NS	(33 * 1000000ULL)	/* at most ~30 redraws a second */
#define FILTER_BUDGET	20000		/* rows matched against a new filter per frame */
#define SPARK_SECS	60
#define STATUS_NS	(8 * 1000000000ULL)
#define NO_SEQ		UINT64_MAX

/* colour pairs / attributes by role */
enum role {
	R_NORMAL, R_HEADER, R_LOST, R_PROBE, R_ARGNAME, R_TIME, R_ERROR, R_HINT, R_SEL,
	R_DIM, R_GOOD, R_TITLE, R_NR
};

enum mode { M_LIST, M_DETAIL, M_STATS, M_HELP, M_PICK };
enum input { IN_NONE, IN_FILTER, IN_ADD, IN_CONFIRM };

/* One kept event; its values are in the arena at @pos. */
struct slot {
	uint64_t ts;
	int64_t duration_ns;	/* a paired return's (struct event), or -1 */
	uint64_t pos;		/* logical offset in the arena */
	uint32_t len;
	int32_t pid;
	int32_t tid;
	uint16_t cpu;
	uint16_t schema;
	uint32_t fgen;		/* filter generation << 1 | matched */
	char comm[16];
};

/* One event name as seen in the stream: value names, column widths, statistics. */
struct schema {
	char *name;
	struct agg_probe *ap;		/* its values' names and its statistics (agg.h) */
	int *width;			/* per value of ap, nr_width of them */
	size_t nr_width;
	bool hidden;
	bool retired;		/* removed with d: a new probe of that name gets a new schema */
	uint64_t spark[SPARK_SECS];
	unsigned int spark_pos;
	uint64_t spark_last;
};

/* A row of text with attributes, built before drawing. */
struct seg {
	size_t off;
	int role;
};

struct row {
	struct strbuf text;
	struct seg *segs;
	size_t nr_segs, alloc_segs;
};

/* Lines of an overlay (detail, statistics, help): built as text, drawn with scrolling. */
struct tui_lines {
	struct row *v;
	size_t nr, alloc;
};

struct session_event;
struct tui_term;

struct tui {
	struct render *r;
	const struct render_ctl *ctl;	/* the session's live control (r->ctl) */
	struct tui_term *term;		/* tui.c's: the terminal, curses, parked stderr */
	bool utf8;
	int cols;			/* the screen's width at the last draw */

	/* the ring of kept events */
	struct slot *slots;
	uint64_t cap, head, tail;
	char *arena;
	uint64_t asize, apos;

	struct agg *agg;		/* the statistics: the session's (r->agg), or the view's own */
	bool own_agg;			/* agg is the view's: it counts the events itself */
	struct schema **sch;
	size_t nr_sch, alloc_sch, last_sch;

	/* view */
	enum mode mode;
	enum input input;
	bool follow;
	bool paused;
	uint64_t pause_head;
	uint64_t sel;
	uint64_t bottom;
	int hscroll;
	int list_rows;
	int ov_scroll;
	int pick_sel;
	int w_time, w_who, w_probe;

	struct strbuf filter;
	uint32_t fgen;
	unsigned int filter_budget;
	bool filter_partial;

	struct strbuf line;		/* the prompt being edited (add) */
	char *confirm_name;		/* d: the event to remove after y */
	struct strbuf status;
	char *ended;			/* why tracing ended (render_ops.ended), or NULL: live */
	bool status_err;
	uint64_t status_until;

	/* completion */
	struct strlist funcs;		/* the binary's functions, loaded on the first Tab */
	bool funcs_loaded;
	struct strlist cands;		/* the last Tab's matches, shown above the prompt */
	char *vars_place;		/* the place t->vars are the variables of */
	struct strlist vars;
	bool vars_return;		/* it is a %return place: $retval is valid */

	uint64_t last_draw;
	uint64_t last_sec;
	uint64_t last_total;
	uint64_t rate;
	uint64_t lost;
	bool dirty;
	bool quit;

	struct value *vbuf;
	size_t vbuf_alloc;
	struct row row;
	struct strbuf tmp;
};

/* ---- tui.c -------------------------------------------------------------------------------- */

/**
 * tui_build_help() - the help overlay: the keys and what they do
 * @t: the view
 * @l: rows are appended here
 */
void tui_build_help(struct tui *t, struct tui_lines *l);

/* ---- tui-ring.c --------------------------------------------------------------------------- */

/**
 * tui_ring_init() - allocate the ring of kept events
 * @t: the view; t->cap is the number of events kept
 */
void tui_ring_init(struct tui *t);

/**
 * tui_ring_release() - free the ring and the schemas; accepts a ring never initialized
 * @t: the view
 */
void tui_ring_release(struct tui *t);

/**
 * tui_event() - keep @ev in the ring (dropping the oldest) and count it in the statistics
 * @r: the renderer, r->priv is the view
 * @ev: the decoded event; its strings are copied
 * Return: 0.
 */
int tui_event(struct render *r, const struct event *ev);

#define STACK_SYM_INLINED 0x8000	/* in a kept frame symbol's length (at most 200) */
#define STACK_CUT_SHIFT 12		/* in the count of kept frame symbols (at most 255):
					 * 1 + the index of the event's ustack_cut in
					 * tui_stack_cuts[], 0 when the stack is whole */
extern const char *const tui_stack_cuts[4];

/**
 * tui_unpack() - the values of kept event @sl
 * @t: the view; the values go to t->vbuf and point into the arena
 * @sl: a slot of the ring, still kept
 * @stack: if not NULL, set to the event's user stack (unaligned: read with memcpy); the
 *	   decoder's symbols follow it (a u16 count, then u16 length + bytes per frame; a
 *	   function inlined at the frame has STACK_SYM_INLINED or'ed into its length)
 * @nr_stack: the number of frames in @stack
 * Return: the number of values in t->vbuf, valid until the next tui_unpack().
 */
size_t tui_unpack(struct tui *t, const struct slot *sl, uint64_t **stack, size_t *nr_stack);

/**
 * tui_visible() - whether kept event @seq passes the probe picker and the filter
 * @t: the view
 * @seq: a sequence number in [t->tail, t->head)
 *
 * A new filter is matched against at most FILTER_BUDGET rows per frame; a row not yet
 * matched is not visible and sets t->filter_partial.
 * Return: true when the row is shown.
 */
bool tui_visible(struct tui *t, uint64_t seq);

/**
 * tui_prev_visible() - the visible event before @seq
 * @t: the view
 * @seq: a sequence number
 * Return: its sequence number, or NO_SEQ.
 */
uint64_t tui_prev_visible(struct tui *t, uint64_t seq);

/**
 * tui_next_visible() - the visible event after @seq (the oldest kept one for NO_SEQ)
 * @t: the view
 * @seq: a sequence number, or NO_SEQ
 * Return: its sequence number, or NO_SEQ.
 */
uint64_t tui_next_visible(struct tui *t, uint64_t seq);

/**
 * tui_last_visible() - the newest visible event (up to the pause point when paused)
 * @t: the view
 * Return: its sequence number, or NO_SEQ.
 */
uint64_t tui_last_visible(struct tui *t);

/**
 * tui_fix_window() - keep the selection on a kept, visible event and inside the window
 * @t: the view; t->list_rows is the window's height
 */
void tui_fix_window(struct tui *t);

/**
 * tui_select_move() - move the selection by @delta visible rows (stops following)
 * @t: the view
 * @delta: rows, negative towards older events
 */
void tui_select_move(struct tui *t, int delta);

/* ---- tui-row.c ---------------------------------------------------------------------------- */

/**
 * tui_utf8_next() - the next character of valid UTF-8 text (as escape_untrusted() makes it)
 * @s: the text
 * @len: bytes left in @s, at least 1
 * @cp: set to the code point ('?' for a stray byte)
 * Return: its length in bytes.
 */
int tui_utf8_next(const char *s, size_t len, unsigned int *cp);

/**
 * tui_cp_width() - the display columns of code point @cp
 * @t: the view (a non-UTF-8 terminal shows every non-ASCII character as one '?')
 * @cp: the code point
 * Return: 1 or 2 (0 for a combining character).
 */
int tui_cp_width(const struct tui *t, unsigned int cp);

/**
 * tui_text_cols() - the display columns of UTF-8 text
 * @t: the view
 * @s: the text
 * @len: its length in bytes
 * Return: the number of columns.
 */
int tui_text_cols(const struct tui *t, const char *s, size_t len);

/**
 * tui_row_reset() - empty @w, keeping its memory
 * @w: the row
 */
void tui_row_reset(struct row *w);

/**
 * tui_row_role() - the text added to @w from now on is drawn as @role
 * @w: the row
 * @role: an enum role
 */
void tui_row_role(struct row *w, int role);

/**
 * tui_row_add() - add @s to @w, drawn as @role
 * @w: the row
 * @role: an enum role
 * @s: the text, UTF-8 (escape untrusted bytes first)
 */
void tui_row_add(struct row *w, int role, const char *s);

/**
 * tui_row_pad() - add @n blanks to @w (none when @n <= 0)
 * @w: the row
 * @n: the number of blanks
 */
void tui_row_pad(struct row *w, int n);

/**
 * tui_lines_new() - append an empty row to @l
 * @l: the overlay's lines
 * Return: the row, valid until the next tui_lines_new().
 */
struct row *tui_lines_new(struct tui_lines *l);

/**
 * tui_lines_release() - free the rows of @l
 * @l: the overlay's lines
 */
void tui_lines_release(struct tui_lines *l);

/**
 * tui_lines_wrap() - add text to @first, continued on new rows of @l when it is too wide
 * @t: the view
 * @l: the overlay's lines; @first is its last row
 * @first: the row the text starts on, at column @indent
 * @indent: the columns each continuation row is indented by
 * @width: the column the text wraps at (at least @indent + 8 is used)
 * @s: the text, UTF-8
 * @len: its length in bytes
 * @role: how it is drawn
 */
void tui_lines_wrap(struct tui *t, struct tui_lines *l, struct row *first, int indent, int width,
		    const char *s, size_t len, int role);

/**
 * tui_fmt_value() - a value as the list shows it; a fault names the expression that faulted
 * @sb: the text is appended here
 * @v: the value
 */
void tui_fmt_value(struct strbuf *sb, const struct value *v);

/**
 * tui_build_row() - the list row of kept event @seq
 * @t: the view
 * @seq: a sequence number in [t->tail, t->head)
 * @w: the row, reset first
 * @learn: widen the columns to fit this row (they never shrink), as drawn rows do
 */
void tui_build_row(struct tui *t, uint64_t seq, struct row *w, bool learn);

/* ---- tui-draw.c --------------------------------------------------------------------------- */

/**
 * tui_draw_init() - colours and attributes of the roles, once curses runs
 * @t: the view
 * @color: use colours (the terminal has them and NO_COLOR is not set)
 */
void tui_draw_init(struct tui *t, bool color);

/**
 * tui_draw() - draw the whole screen for the current mode and refresh it
 * @t: the view; t->dirty is cleared
 */
void tui_draw(struct tui *t);

/**
 * tui_pick_list() - the session's events for the probe picker, in the order added
 * @t: the view
 * @out: filled with borrowed events that are not removed
 * @max: the size of @out
 * Return: the number of events in @out.
 */
size_t tui_pick_list(struct tui *t, const struct session_event **out, size_t max);

/* ---- tui-stats.c -------------------------------------------------------------------------- */

/**
 * tui_schema_find() - the schema of event name @name that is not retired
 * @t: the view
 * @name: the event's name (without a system)
 * @create: create it when there is none (up to 65535 schemas)
 * @idx: if not NULL, set to its index in t->sch
 * Return: the schema, or NULL.
 */
struct schema *tui_schema_find(struct tui *t, const char *name, bool create, size_t *idx);

/**
 * tui_schema_free() - free a schema and its statistics
 * @sc: the schema
 */
void tui_schema_free(struct schema *sc);

/**
 * tui_stats_second() - a second has passed: the rate sparklines advance
 * @t: the view
 */
void tui_stats_second(struct tui *t);

/**
 * tui_build_stats() - the statistics overlay: counts, rates, min/avg/max, histograms, top values
 * @t: the view
 * @l: rows are appended here
 */
void tui_build_stats(struct tui *t, struct tui_lines *l);

/* ---- tui-detail.c ------------------------------------------------------------------------- */

/**
 * tui_build_detail() - the detail pane of the selected event: every value in full, its stack
 * @t: the view; t->cols is the width the rows wrap at
 * @l: rows are appended here
 */
void tui_build_detail(struct tui *t, struct tui_lines *l);

/* ---- tui-prompt.c ------------------------------------------------------------------------- */

/**
 * tui_set_status() - a message in the status line, for a few seconds
 * @t: the view
 * @err: an error (shown longer, in the error colour)
 * @fmt: printf format
 */
void tui_set_status(struct tui *t, bool err, const char *fmt, ...) PRINTF(3, 4);

/**
 * tui_prompt_add() - add the probe typed in the add prompt (t->line); the result goes to the
 * status line
 * @t: the view
 */
void tui_prompt_add(struct tui *t);

/**
 * tui_remove_probe() - remove the session's event @name; its kept events stay
 * @t: the view
 * @name: "EVENT", or "SYS:EVENT" for a tracefs event added with -e
 */
void tui_remove_probe(struct tui *t, const char *name);

/**
 * tui_event_ref() - the name tui_remove_probe() wants for event @name
 * @t: the view
 * @name: the event's name as its schema has it
 * Return: an allocated name, or NULL when no such event is installed.
 */
char *tui_event_ref(struct tui *t, const char *name);

/**
 * tui_complete() - Tab in the add prompt: complete the word at the end of t->line
 * @t: the view
 *
 * The first word completes a function name; later words complete variables at that place,
 * or the fields of an expression after '.' or '->'. Several matches go to t->cands.
 */
void tui_complete(struct tui *t);

/**
 * tui_cands_clear() - forget the completion candidates shown
 * @t: the view
 */
void tui_cands_clear(struct tui *t);

/**
 * tui_prompt_release() - free what completion loaded (function names, variables)
 * @t: the view
 */
void tui_prompt_release(struct tui *t);

#endif
