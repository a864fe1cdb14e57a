// SPDX-License-Identifier: GPL-2.0-or-later
/* render-tui.c - the live curses view: event list, filter, details, statistics, adding probes */
#define LOG_DOMAIN "tui"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "debuginfo.h"
#include "log.h"
#include "parse.h"
#include "render.h"
#include "resolve.h"
#include "session.h"

#define RING_DEFAULT	100000		/* events kept; --ring N or UPFRONT_RING overrides */
#define ARENA_PER_EVENT	160		/* bytes of values budgeted per kept event */
#define STR_MAX		4096		/* bytes of one string kept in the ring */
#define FRAME_NS	(33 * 1000000ULL)	/* at most ~30 redraws a second */
#define FILTER_BUDGET	20000		/* rows matched against a new filter per frame */
#define SPARK_SECS	60
#define TOP_CAP		256		/* distinct values counted per string argument */
#define TOP_KEY_MAX	64
#define HIST_BUCKETS	65
#define STATUS_NS	(8 * 1000000000ULL)
#define NO_SEQ		UINT64_MAX

/* value encoding in the arena: kind, flags, len, num (8), then len bytes */
#define PV_HDR		12
enum { PV_FAULT = 1, PV_CUT = 2, PV_TEXT = 4 };

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
	uint64_t pos;		/* logical offset in the arena */
	uint32_t len;
	int32_t pid;
	int32_t tid;
	uint16_t cpu;
	uint16_t schema;
	uint32_t fgen;		/* filter generation << 1 | matched */
	char comm[16];
};

struct top_ent {
	char *key;		/* NULL: free */
	uint32_t len;
	uint8_t kind;
	uint64_t num;
	uint64_t count;
};

/* Aggregates of one argument of a probe, over every event (kept in the ring or not). */
struct arg_stat {
	uint64_t n;
	uint64_t faults;
	bool numeric;
	bool seen;
	double sum;
	double min;
	double max;
	uint64_t pos[HIST_BUCKETS];	/* log2 buckets of positive values (0: zero) */
	uint64_t neg[HIST_BUCKETS];
	struct top_ent *top;		/* TOP_CAP slots, open addressing */
	size_t top_used;
	uint64_t other;			/* values that did not fit in the table */
};

/* One event name as seen in the stream: value names, column widths, statistics. */
struct schema {
	char *name;
	size_t nr_vals;
	char **val_names;
	const struct trace_arg **args;
	int *width;
	struct arg_stat *st;
	bool hidden;
	bool retired;		/* removed with d: a new probe of that name gets a new schema */
	uint64_t count;
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

struct tui {
	struct render *r;
	struct session *s;
	SCREEN *scr;
	FILE *tty;
	int saved_stderr;
	FILE *parked_err;
	bool color;
	bool utf8;
	attr_t attrs[R_NR];

	/* the ring of kept events */
	struct slot *slots;
	uint64_t cap, head, tail;
	char *arena;
	uint64_t asize, apos;

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
	bool status_err;
	uint64_t status_until;

	/* completion */
	char **funcs;
	size_t nr_funcs;
	bool funcs_loaded;
	char **cands;
	size_t nr_cands;
	char *vars_func;
	char **vars;
	size_t nr_vars;

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

static struct tui *active_tui;
static volatile sig_atomic_t curses_on;
static struct sigaction old_fatal[5];
static const int fatal_sigs[5] = { SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL };

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* A crash must not leave the terminal raw: restore it, then die as we would have. */
static void on_fatal(int sig)
{
	if (curses_on) {
		curses_on = 0;
		endwin();
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* ---- text helpers ------------------------------------------------------------------------ */

/* Next UTF-8 character of @s (valid UTF-8 as escape_untrusted() makes it); its length. */
static int utf8_next(const char *s, size_t len, unsigned int *cp)
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

static int cp_width(const struct tui *t, unsigned int cp)
{
	int w;

	if (cp < 0x80)
		return 1;
	if (!t->utf8)
		return 1;	/* drawn as '?' */
	w = wcwidth((wchar_t)cp);
	return w < 0 ? 1 : w;
}

/* display columns of UTF-8 text */
static int text_cols(const struct tui *t, const char *s, size_t len)
{
	int cols = 0;

	for (size_t i = 0; i < len;) {
		unsigned int cp;

		i += utf8_next(s + i, len - i, &cp);
		cols += cp_width(t, cp);
	}
	return cols;
}

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

static void row_reset(struct row *w)
{
	strbuf_reset(&w->text);
	w->nr_segs = 0;
}

static void row_role(struct row *w, int role)
{
	if (w->nr_segs && w->segs[w->nr_segs - 1].off == w->text.len) {
		w->segs[w->nr_segs - 1].role = role;
		return;
	}
	ALLOC_GROW(w->segs, w->nr_segs + 1, w->alloc_segs);
	w->segs[w->nr_segs++] = (struct seg){ w->text.len, role };
}

static void row_add(struct row *w, int role, const char *s)
{
	row_role(w, role);
	strbuf_addstr(&w->text, s);
}

static void row_pad(struct row *w, int n)
{
	while (n-- > 0)
		strbuf_addch(&w->text, ' ');
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
		int n = utf8_next(s + i, len - i, &cp), cw = cp_width(t, cp);
		attr_t a;

		while (si + 1 < w->nr_segs && w->segs[si + 1].off <= i)
			si++;
		a = (w->nr_segs ? t->attrs[w->segs[si].role] : t->attrs[R_NORMAL]) | base;
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
	attrset(t->attrs[R_NORMAL] | base);
	while (x++ < cols)
		addch(' ');
	attrset(A_NORMAL);
}

/* draw a plain string on line @y at @x, clipped to the screen */
static void draw_str(struct tui *t, int y, int x, int role, const char *s)
{
	row_reset(&t->row);
	row_add(&t->row, role, s);
	if (x >= COLS)
		return;
	move(y, x);
	{
		int cols = COLS - x;
		const char *p = s;
		size_t len = strlen(s);

		attrset(t->attrs[role]);
		for (size_t i = 0; i < len && cols > 0;) {
			unsigned int cp;
			int n = utf8_next(p + i, len - i, &cp), cw = cp_width(t, cp);

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

/* ---- schemas and statistics -------------------------------------------------------------- */

static struct schema *schema_new(struct tui *t, const char *name, size_t *idx)
{
	struct schema *sc = xcalloc(1, sizeof(*sc));

	sc->name = xstrdup(name);
	ALLOC_GROW(t->sch, t->nr_sch + 1, t->alloc_sch);
	*idx = t->nr_sch;
	t->sch[t->nr_sch++] = sc;
	return sc;
}

static struct schema *schema_by_name(struct tui *t, const char *name, bool create, size_t *idx)
{
	size_t i;

	for (i = 0; i < t->nr_sch; i++) {
		if (!t->sch[i]->retired && !strcmp(t->sch[i]->name, name)) {
			if (idx)
				*idx = i;
			return t->sch[i];
		}
	}
	if (!create || t->nr_sch >= 65535)
		return NULL;
	return schema_new(t, name, idx ? idx : &i);
}

/* value names, arg descriptions and statistics slots for @ev's values */
static void schema_learn(struct schema *sc, const struct event *ev)
{
	size_t n = ev->nr_vals;

	sc->val_names = xrealloc(sc->val_names, n * sizeof(*sc->val_names));
	sc->args = xrealloc(sc->args, n * sizeof(*sc->args));
	sc->width = xrealloc(sc->width, n * sizeof(*sc->width));
	sc->st = xrealloc(sc->st, n * sizeof(*sc->st));
	for (size_t i = sc->nr_vals; i < n; i++) {
		sc->val_names[i] = xstrdup(ev->vals[i].name ? ev->vals[i].name : "?");
		sc->args[i] = ev->vals[i].arg;
		sc->width[i] = 0;
		memset(&sc->st[i], 0, sizeof(sc->st[i]));
	}
	sc->nr_vals = n;
}

static void schema_free(struct schema *sc)
{
	for (size_t i = 0; i < sc->nr_vals; i++) {
		free(sc->val_names[i]);
		if (sc->st[i].top) {
			for (size_t k = 0; k < TOP_CAP; k++)
				free(sc->st[i].top[k].key);
			free(sc->st[i].top);
		}
	}
	free(sc->val_names);
	free(sc->args);
	free(sc->width);
	free(sc->st);
	free(sc->name);
	free(sc);
}

static int log2_bucket(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

static void top_count(struct arg_stat *a, uint8_t kind, const char *key, size_t len, uint64_t num)
{
	uint64_t h = 1469598103934665603ULL ^ num;
	size_t i;

	if (len > TOP_KEY_MAX)
		len = TOP_KEY_MAX;
	for (size_t k = 0; k < len; k++)
		h = (h ^ (unsigned char)key[k]) * 1099511628211ULL;
	if (!a->top)
		a->top = xcalloc(TOP_CAP, sizeof(*a->top));
	for (i = h & (TOP_CAP - 1);; i = (i + 1) & (TOP_CAP - 1)) {
		struct top_ent *e = &a->top[i];

		if (!e->key) {
			if (a->top_used >= TOP_CAP * 3 / 4) {
				a->other++;
				return;
			}
			e->key = xmalloc(len + 1);
			memcpy(e->key, key, len);
			e->key[len] = '\0';
			e->len = len;
			e->kind = kind;
			e->num = num;
			e->count = 1;
			a->top_used++;
			return;
		}
		if (e->num == num && e->len == len && e->kind == kind && !memcmp(e->key, key, len)) {
			e->count++;
			return;
		}
	}
}

static void stat_value(struct arg_stat *a, const struct value *v)
{
	double d;

	a->n++;
	if (v->fault) {
		a->faults++;
		return;
	}
	switch (v->kind) {
	case VK_SIGNED:
		d = (double)v->num.s;
		if (v->num.s < 0)
			a->neg[log2_bucket(-(uint64_t)v->num.s)]++;
		else
			a->pos[log2_bucket(v->num.s)]++;
		break;
	case VK_UNSIGNED:
		d = (double)v->num.u;
		a->pos[log2_bucket(v->num.u)]++;
		break;
	case VK_FLOAT: {
		double f = fabs(v->num.f);
		int b = 0;

		d = v->num.f;
		if (isfinite(f) && f >= 1.0) {
			b = ilogb(f) + 1;
			b = b > 64 ? 64 : b;
		} else if (!isfinite(f)) {
			b = 64;
		}
		(v->num.f < 0 ? a->neg : a->pos)[b]++;
		break;
	}
	case VK_CSTRING:
	case VK_LSTRING:
	case VK_BYTES:
		top_count(a, v->kind, v->str ? v->str : "", v->len, 0);
		return;
	default:
		top_count(a, v->kind, v->text ? v->text : "", v->text ? strlen(v->text) : 0,
			  v->num.u);
		return;
	}
	a->numeric = true;
	if (!a->seen || d < a->min)
		a->min = d;
	if (!a->seen || d > a->max)
		a->max = d;
	a->seen = true;
	a->sum += d;
}

/* ---- the ring ---------------------------------------------------------------------------- */

static size_t value_bytes(const struct value *v)
{
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
	uint8_t flags = 0;
	const char *data = NULL;
	size_t len = 0;
	uint16_t l16;

	if (v->fault) {
		flags |= PV_FAULT;
		if (v->fault_expr) {
			flags |= PV_TEXT;
			data = v->fault_expr;
			len = strnlen(data, STR_MAX);
		}
	} else if (v->kind == VK_CSTRING || v->kind == VK_LSTRING || v->kind == VK_BYTES) {
		data = v->str;
		len = v->len < STR_MAX ? v->len : STR_MAX;
		if (v->cut || v->len > STR_MAX)
			flags |= PV_CUT;
	} else if (v->text) {
		flags |= PV_TEXT;
		data = v->text;
		len = strnlen(data, STR_MAX);
	}
	p[0] = (char)v->kind;
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
	return p;
}

/* The values of kept event @sl, as struct value pointing into the arena; count returned. */
static size_t unpack(struct tui *t, const struct slot *sl, uint64_t **stack, size_t *nr_stack)
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
		v->name = i < sc->nr_vals ? sc->val_names[i] : "?";
		v->arg = i < sc->nr_vals ? sc->args[i] : NULL;
		v->fault = flags & PV_FAULT;
		v->cut = flags & PV_CUT;
		if (flags & PV_TEXT) {
			if (v->fault)
				v->fault_expr = p;
			else
				v->text = p;
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

/* bytes kept of frame @i's symbol ("sym+0x10"), 0 when the decoder had none */
static size_t stack_sym_len(const struct event *ev, size_t i)
{
	const char *s = ev->ustack_syms[i];
	size_t n = s ? strlen(s) : 0;

	return n > 200 ? 200 : n;
}

static int tui_event(struct render *r, const struct event *ev)
{
	struct tui *t = r->priv;
	struct schema *sc = t->nr_sch ? t->sch[t->last_sch] : NULL;
	size_t need = 4, nst = ev->nr_ustack < 255 ? ev->nr_ustack : 255;
	uint16_t n16;
	struct slot *sl;
	char *p;

	if (!sc || sc->retired || strcmp(sc->name, ev->probe)) {
		sc = schema_by_name(t, ev->probe, true, &t->last_sch);
		if (!sc)
			return 0;
	}
	if (ev->nr_vals > sc->nr_vals)
		schema_learn(sc, ev);
	sc->count++;
	for (size_t i = 0; i < ev->nr_vals; i++) {
		stat_value(&sc->st[i], &ev->vals[i]);
		need += value_bytes(&ev->vals[i]);
	}
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
	memcpy(p, &n16, 2);
	p += 2;
	for (size_t i = 0; i < n16; i++) {
		uint16_t sl16 = (uint16_t)stack_sym_len(ev, i);

		memcpy(p, &sl16, 2);
		memcpy(p + 2, ev->ustack_syms[i], sl16);
		p += 2 + sl16;
	}
	sl->len = (uint32_t)need;
	t->apos += need;
	t->head++;
	return 0;
}

static int tui_lost(struct render *r, int cpu, uint64_t nr)
{
	struct tui *t = r->priv;

	t->lost += nr;
	return 0;
}

/* ---- rows of the list -------------------------------------------------------------------- */

static void fmt_value(struct strbuf *sb, const struct value *v)
{
	if (v->fault && v->fault_expr) {
		strbuf_addstr(sb, "(fault: ");
		escape_untrusted(sb, v->fault_expr, strlen(v->fault_expr));
		strbuf_addch(sb, ')');
		return;
	}
	render_value_text(sb, v);
}

/* The list row of event @seq; widths of its columns grow to fit (sticky). */
static void build_row(struct tui *t, uint64_t seq, struct row *w, bool learn)
{
	struct slot *sl = &t->slots[seq % t->cap];
	struct schema *sc = t->sch[sl->schema];
	size_t n = unpack(t, sl, NULL, NULL), start;
	int cols;

	row_reset(w);
	row_role(w, R_TIME);
	render_time(&w->text, sl->ts, t->r->t0);
	cols = (int)w->text.len;
	if (learn && cols > t->w_time)
		t->w_time = cols;
	row_pad(w, t->w_time - cols + 1);

	row_role(w, R_DIM);
	start = w->text.len;
	escape_untrusted(&w->text, sl->comm, strnlen(sl->comm, sizeof(sl->comm)));
	strbuf_addch(&w->text, '/');
	render_u64(&w->text, (uint64_t)sl->pid);
	cols = text_cols(t, w->text.buf + start, w->text.len - start);
	if (learn && cols > t->w_who)
		t->w_who = cols < 24 ? cols : 24;
	row_pad(w, t->w_who - cols + 1);

	start = w->text.len;
	row_add(w, R_PROBE, sc->name);
	cols = text_cols(t, w->text.buf + start, w->text.len - start);
	if (learn && cols > t->w_probe)
		t->w_probe = cols < 28 ? cols : 28;
	row_pad(w, t->w_probe - cols);

	for (size_t i = 0; i < n; i++) {
		struct value *v = &t->vbuf[i];

		strbuf_addch(&w->text, ' ');
		start = w->text.len;
		row_add(w, R_ARGNAME, v->name);
		strbuf_addch(&w->text, '=');
		row_role(w, v->fault ? R_ERROR : R_NORMAL);
		fmt_value(&w->text, v);
		if (i + 1 < n && i < sc->nr_vals) {
			cols = text_cols(t, w->text.buf + start, w->text.len - start);
			if (learn && cols > sc->width[i])
				sc->width[i] = cols < 40 ? cols : 40;
			row_pad(w, sc->width[i] - cols);
		}
	}
}

static uint64_t view_limit(const struct tui *t)
{
	uint64_t end = t->paused ? t->pause_head : t->head;

	return end > t->tail ? end - 1 : NO_SEQ;
}

static bool visible(struct tui *t, uint64_t seq)
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
	build_row(t, seq, &t->row, false);
	m = ci_contains(t->row.text.buf, t->row.text.len, t->filter.buf, t->filter.len);
	sl->fgen = t->fgen << 1 | m;
	return m;
}

static uint64_t prev_visible(struct tui *t, uint64_t seq)
{
	while (seq > t->tail) {
		seq--;
		if (visible(t, seq))
			return seq;
	}
	return NO_SEQ;
}

static uint64_t next_visible(struct tui *t, uint64_t seq)
{
	uint64_t lim = view_limit(t);

	if (lim == NO_SEQ)
		return NO_SEQ;
	for (seq = seq < t->tail ? t->tail : seq + 1; seq <= lim; seq++)
		if (visible(t, seq))
			return seq;
	return NO_SEQ;
}

static uint64_t last_visible(struct tui *t)
{
	uint64_t lim = view_limit(t);

	if (lim == NO_SEQ)
		return NO_SEQ;
	return visible(t, lim) ? lim : prev_visible(t, lim);
}

/* keep the selection on a kept, visible event and inside the window */
static void fix_window(struct tui *t)
{
	uint64_t lim = view_limit(t), q;
	int n;

	if (t->follow)
		return;
	if (lim == NO_SEQ) {
		t->sel = t->bottom = NO_SEQ;
		return;
	}
	if (t->sel == NO_SEQ || t->sel < t->tail || t->sel > lim || !visible(t, t->sel)) {
		q = t->sel != NO_SEQ && t->sel >= t->tail && t->sel <= lim ?
			next_visible(t, t->sel) : NO_SEQ;
		if (q == NO_SEQ)
			q = t->sel != NO_SEQ && t->sel > lim ? last_visible(t) :
				next_visible(t, t->tail ? t->tail - 1 : NO_SEQ);
		if (q == NO_SEQ)
			q = last_visible(t);
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
	for (q = t->bottom; q != NO_SEQ && q > t->sel && n < t->list_rows; q = prev_visible(t, q))
		n++;
	if (n >= t->list_rows) {
		t->bottom = t->sel;
		for (int i = 0; i < t->list_rows - 1; i++) {
			q = next_visible(t, t->bottom);
			if (q == NO_SEQ)
				break;
			t->bottom = q;
		}
	}
}

static void select_move(struct tui *t, int delta)
{
	uint64_t q;

	if (t->follow || t->sel == NO_SEQ) {
		t->follow = false;
		t->sel = last_visible(t);
		t->bottom = t->sel;
		if (delta > 0)
			delta = 0;
	}
	for (; delta < 0 && t->sel != NO_SEQ; delta++) {
		q = prev_visible(t, t->sel);
		if (q == NO_SEQ)
			break;
		t->sel = q;
	}
	for (; delta > 0 && t->sel != NO_SEQ; delta--) {
		q = next_visible(t, t->sel);
		if (q == NO_SEQ)
			break;
		t->sel = q;
	}
	fix_window(t);
}

/* ---- status, prompt ---------------------------------------------------------------------- */

static void set_status(struct tui *t, bool err, const char *fmt, ...) PRINTF(3, 4);

static void set_status(struct tui *t, bool err, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(&t->status);
	va_start(ap, fmt);
	strbuf_vaddf(&t->status, fmt, ap);
	va_end(ap);
	t->status_err = err;
	t->status_until = now_ns() + STATUS_NS * (err ? 2 : 1);
	t->dirty = true;
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void cands_clear(struct tui *t)
{
	free_list(t->cands, t->nr_cands);
	t->cands = NULL;
	t->nr_cands = 0;
}

static void list_add(char ***v, size_t *n, const char *s, size_t len)
{
	for (size_t i = 0; i < *n; i++)
		if (strlen((*v)[i]) == len && !memcmp((*v)[i], s, len))
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrndup(s, len);
}

static void load_funcs(struct tui *t)
{
	const struct trace_opts *o = session_opts(t->s);
	struct strbuf sb = STRBUF_INIT;
	struct diag d;
	size_t alloc = 0;

	t->funcs_loaded = true;
	if (!o || !o->dbg)
		return;
	diag_init(&d, NULL);
	strbuf_init(&sb);
	if (debuginfo_list_functions(o->dbg, NULL, &sb, &d) == 0) {
		for (char *p = sb.buf, *nl; p && *p; p = nl + 1) {
			nl = strchr(p, '\n');
			if (!nl)
				nl = p + strlen(p);
			if (nl > p) {
				ALLOC_GROW(t->funcs, t->nr_funcs + 1, alloc);
				t->funcs[t->nr_funcs++] = xstrndup(p, nl - p);
			}
			if (!*nl)
				break;
		}
	}
	strbuf_release(&sb);
	diag_release(&d);
}

/* names from "fields: a, b, c" / "variables: a, b" in a diag's hints */
static void hint_names(const char *hints, const char *key, char ***v, size_t *n)
{
	const char *p = hints ? strstr(hints, key) : NULL;

	if (!p)
		return;
	p += strlen(key);
	while (*p && *p != ';') {
		size_t len = strcspn(p, ",;");
		const char *e = p + len;

		while (len && p[len - 1] == ' ')
			len--;
		if (len)
			list_add(v, n, p, len);
		p = e;
		if (*p == ',')
			p++;
		while (*p == ' ')
			p++;
	}
}

/* variables at the place of the probe text's first word (cached per place) */
static void load_vars(struct tui *t, const char *place)
{
	const struct trace_opts *o = session_opts(t->s);
	struct probe_spec spec;
	struct strbuf out = STRBUF_INIT;
	struct diag d;

	if (t->vars_func && !strcmp(t->vars_func, place))
		return;
	free(t->vars_func);
	free_list(t->vars, t->nr_vars);
	t->vars = NULL;
	t->nr_vars = 0;
	t->vars_func = xstrdup(place);
	if (!o || !o->dbg || !o->ropts)
		return;
	memset(&spec, 0, sizeof(spec));
	diag_init(&d, place);
	strbuf_init(&out);
	if (parse_probe(place, &spec, &d) == 0 &&
	    resolve_list_vars(&spec, o->dbg, o->ropts, &out, &d) == 0) {
		for (char *p = out.buf; *p;) {
			char *nl = strchrnul(p, '\n');

			if (p[0] == '\t' && p[1] == '\t') {
				char *name = p;

				for (char *q = p; q < nl; q++)
					if (*q == '\t')
						name = q + 1;
				if (name > p + 2)
					list_add(&t->vars, &t->nr_vars, name, strcspn(name, " \n"));
			}
			p = *nl ? nl + 1 : nl;
		}
	}
	probe_spec_release(&spec);
	strbuf_release(&out);
	diag_release(&d);
}

/* fields of expression @base at @place: ask the resolver for a field that is not there */
static void load_fields(struct tui *t, const char *place, const char *base)
{
	const struct trace_opts *o = session_opts(t->s);
	struct probe_spec spec;
	struct trace_probe *tps = NULL;
	size_t nr = 0;
	char *text;
	struct diag d;

	if (!o || !o->dbg || !o->ropts)
		return;
	text = xasprintf("%s %s.__upfront_complete__", place, base);
	memset(&spec, 0, sizeof(spec));
	diag_init(&d, text);
	if (parse_probe(text, &spec, &d) == 0 &&
	    resolve_probe(&spec, o->dbg, o->ropts, &tps, &nr, &d) == 0)
		trace_probes_free(tps, nr);
	else
		hint_names(d.hints.buf, "fields: ", &t->cands, &t->nr_cands);
	probe_spec_release(&spec);
	diag_release(&d);
	free(text);
}

/* Tab in the add prompt: complete the word under the cursor (the end of the line). */
static void complete(struct tui *t)
{
	char *line = t->line.buf ? t->line.buf : "";
	size_t len = t->line.len, wstart = len, pstart;
	char **pool;
	size_t nr_pool, nr = 0, common = 0, keep;
	const char *partial;
	char *place = NULL, *base = NULL;
	bool first;
	const char **match = NULL;

	while (wstart && line[wstart - 1] != ' ')
		wstart--;
	first = !memchr(line, ' ', wstart ? wstart - 1 : 0) && wstart == 0;
	cands_clear(t);
	pstart = wstart;
	if (first) {
		if (!t->funcs_loaded)
			load_funcs(t);
		if (memchr(line, '=', len))
			pstart = (char *)memchr(line, '=', len) - line + 1;
		pool = t->funcs;
		nr_pool = t->nr_funcs;
	} else {
		const char *eq = memchr(line + wstart, '=', len - wstart);
		size_t plen = strcspn(line, " ");
		const char *w, *sep = NULL;

		place = xstrndup(line, plen);
		if (eq)
			pstart = eq - line + 1;
		w = line + pstart;
		for (const char *q = w; q < line + len; q++) {
			if (*q == '.')
				sep = q;
			else if (*q == '-' && q[1] == '>')
				sep = q + 1;
		}
		if (sep) {
			/* EXPR.partial or EXPR->partial: fields of EXPR */
			size_t blen = (*sep == '>' ? sep - 1 : sep) - w;

			base = xstrndup(w, blen);
			load_fields(t, place, base);
			pstart = sep + 1 - line;
			pool = t->cands;
			nr_pool = t->nr_cands;
			t->cands = NULL;
			t->nr_cands = 0;
		} else {
			load_vars(t, place);
			nr_pool = t->nr_vars + 3;
			pool = xmalloc(nr_pool * sizeof(*pool));
			for (size_t i = 0; i < t->nr_vars; i++)
				pool[i] = xstrdup(t->vars[i]);
			pool[t->nr_vars] = xstrdup("$params");
			pool[t->nr_vars + 1] = xstrdup("$vars");
			pool[t->nr_vars + 2] = xstrdup("$retval");
		}
	}
	partial = line + pstart;
	keep = len - pstart;
	match = xmalloc((nr_pool + 1) * sizeof(*match));
	for (size_t i = 0; i < nr_pool; i++)
		if (!strncmp(pool[i], partial, keep))
			match[nr++] = pool[i];
	if (!nr && first && keep) {
		/* Go and C++ names: "handleRequest" completes "main.(*server).handleRequest" */
		for (size_t i = 0; i < nr_pool; i++)
			if (strstr(pool[i], partial))
				match[nr++] = pool[i];
		if (nr == 1)
			keep = 0;
	}
	if (nr == 0) {
		set_status(t, true, "no completion for '%.*s'", (int)(len - pstart), partial);
	} else {
		char *add;

		common = strlen(match[0]);
		for (size_t i = 1; i < nr; i++) {
			size_t k = 0;

			while (k < common && match[i][k] == match[0][k])
				k++;
			common = k;
		}
		add = xstrndup(match[0], common);
		t->line.len = pstart;
		t->line.buf[pstart] = '\0';
		strbuf_addstr(&t->line, add);
		free(add);
		if (nr == 1) {
			if (first)
				strbuf_addch(&t->line, ' ');
		} else {
			for (size_t i = 0; i < nr && i < 200; i++)
				list_add(&t->cands, &t->nr_cands, match[i], strlen(match[i]));
			set_status(t, false, "%zu matches", nr);
		}
	}
	free(match);
	if (!first)
		free_list(pool, nr_pool);
	free(place);
	free(base);
}

/* status_diag() - a failed add/remove's one-line error in the status line */
static void status_diag(struct tui *t, const struct diag *d)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_init(&sb);
	diag_format(d, &sb);
	set_status(t, true, "%s", sb.buf);
	strbuf_release(&sb);
}

static void do_add(struct tui *t)
{
	struct diag d;
	size_t before = session_nr_events(t->s);
	char *text = xstrdup(t->line.buf ? t->line.buf : "");

	/* blanks around the probe are not part of it */
	for (size_t n = strlen(text); n && text[n - 1] == ' '; n--)
		text[n - 1] = '\0';
	if (!*text) {
		free(text);
		return;
	}
	diag_init(&d, text);
	if (session_add_probe_text(t->s, text, &d) < 0) {
		status_diag(t, &d);
	} else {
		struct strbuf names = STRBUF_INIT;

		strbuf_init(&names);
		for (size_t i = before; i < session_nr_events(t->s); i++) {
			const struct session_event *e = session_event(t->s, i);

			if (e && !e->removed)
				strbuf_addf(&names, "%s%s", names.len ? ", " : "", e->name);
		}
		set_status(t, false, "added %s", names.len ? names.buf : text);
		strbuf_release(&names);
	}
	diag_release(&d);
	free(text);
}

static void do_remove(struct tui *t, const char *name)
{
	struct diag d;

	diag_init(&d, NULL);
	if (session_remove_event(t->s, name, &d) < 0) {
		status_diag(t, &d);
	} else {
		const char *n = strchr(name, ':') ? strchr(name, ':') + 1 : name;
		struct schema *sc = schema_by_name(t, n, false, NULL);

		/* its kept events stay; a new probe of that name starts fresh */
		if (sc)
			sc->retired = true;
		set_status(t, false, "removed %s", name);
	}
	diag_release(&d);
}

/* the name session_remove_event() wants for schema @sc */
static char *event_ref(struct tui *t, const char *name)
{
	for (size_t i = 0; i < session_nr_events(t->s); i++) {
		const struct session_event *e = session_event(t->s, i);

		if (e && !e->removed && !strcmp(e->name, name))
			return e->generic ? xasprintf("%s:%s", e->sys, e->name) : xstrdup(name);
	}
	return NULL;
}

/* ---- screens ----------------------------------------------------------------------------- */

static void draw_header(struct tui *t)
{
	const struct trace_opts *o = session_opts(t->s);
	uint64_t total = 0, lost = 0;
	size_t probes = 0;
	struct row *w = &t->row;

	session_counters(t->s, &total, &lost);
	if (t->lost > lost)
		lost = t->lost;
	for (size_t i = 0; i < session_nr_events(t->s); i++) {
		const struct session_event *e = session_event(t->s, i);

		probes += e && !e->removed;
	}
	row_reset(w);
	row_add(w, R_HEADER, " upfront ");
	if (o && o->dbg) {
		strbuf_addstr(&w->text, debuginfo_basename(o->dbg));
		strbuf_addch(&w->text, ' ');
	}
	strbuf_addf(&w->text, " probes %zu  events/s %llu  total %llu  lost ", probes,
		    (unsigned long long)t->rate, (unsigned long long)total);
	row_role(w, lost ? R_LOST : R_HEADER);
	render_u64(&w->text, lost);
	row_role(w, R_HEADER);
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

	row_reset(w);
	if (t->input == IN_FILTER) {
		row_add(w, R_TITLE, "/");
		row_role(w, R_NORMAL);
		escape_untrusted(&w->text, t->filter.buf ? t->filter.buf : "", t->filter.len);
		draw_row(t, y, COLS, w, 0, 0);
		curs_set(1);
		move(y, text_cols(t, w->text.buf, w->text.len) < COLS ?
			text_cols(t, w->text.buf, w->text.len) : COLS - 1);
		return;
	}
	if (t->input == IN_ADD) {
		int c;

		row_add(w, R_TITLE, "add probe: ");
		row_role(w, R_NORMAL);
		escape_untrusted(&w->text, t->line.buf ? t->line.buf : "", t->line.len);
		c = text_cols(t, w->text.buf, w->text.len);
		/* keep the cursor end in view on a narrow terminal */
		draw_row(t, y, COLS, w, c >= COLS ? c - COLS + 1 : 0, 0);
		curs_set(1);
		move(y, c >= COLS ? COLS - 1 : c);
		return;
	}
	curs_set(0);
	if (t->input == IN_CONFIRM) {
		row_add(w, R_ERROR, "remove probe ");
		strbuf_addstr(&w->text, t->confirm_name);
		strbuf_addstr(&w->text, "? (y/n)");
	} else if (t->status.len && now_ns() < t->status_until) {
		row_role(w, t->status_err ? R_ERROR : R_GOOD);
		escape_untrusted(&w->text, t->status.buf, t->status.len);
	} else {
		static const char *hints[] = { "?", "help", "/", "filter", "space", "pause",
					       "f", "follow", "Enter", "detail", "s", "stats",
					       "p", "probes", "a", "add", "d", "remove", "q", "quit" };

		if (t->filter.len) {
			row_add(w, R_TITLE, "filter: ");
			row_role(w, R_NORMAL);
			escape_untrusted(&w->text, t->filter.buf, t->filter.len);
			row_add(w, R_HINT, t->filter_partial ? " (searching) " : " ");
		}
		for (size_t i = 0; i < ARRAY_SIZE(hints); i += 2) {
			row_add(w, R_TITLE, hints[i]);
			row_add(w, R_HINT, " ");
			strbuf_addstr(&w->text, hints[i + 1]);
			strbuf_addstr(&w->text, "  ");
		}
	}
	draw_row(t, y, COLS, w, 0, 0);
}

static void draw_list(struct tui *t)
{
	int rows = LINES - 2 - (t->input == IN_ADD && t->nr_cands ? 0 : 0);
	uint64_t *seqs;
	int n = 0;
	uint64_t q;

	if (rows < 1)
		return;
	t->list_rows = rows;
	fix_window(t);
	seqs = xmalloc(rows * sizeof(*seqs));
	q = t->follow ? last_visible(t) : t->bottom;
	while (q != NO_SEQ && n < rows) {
		seqs[n++] = q;
		q = prev_visible(t, q);
	}
	/* newest at the bottom; when there are fewer rows, they start at the top */
	for (int i = 0; i < rows; i++) {
		int k = n - 1 - i;

		if (k < 0) {
			move(1 + i, 0);
			clrtoeol();
			continue;
		}
		build_row(t, seqs[k], &t->row, true);
		draw_row(t, 1 + i, COLS, &t->row, t->hscroll,
			 !t->follow && seqs[k] == t->sel ? t->attrs[R_SEL] : 0);
	}
	if (!n) {
		const char *msg = t->head == 0 ? "waiting for events..." :
				  "no events match (Esc clears the filter, p picks probes)";

		draw_str(t, 2, 2, R_DIM, msg);
	}
	free(seqs);
}

/* lines of an overlay: built as text, drawn with scrolling */
struct lines {
	struct row *v;
	size_t nr, alloc;
};

static struct row *lines_new(struct lines *l)
{
	struct row *w;

	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	w = &l->v[l->nr++];
	memset(w, 0, sizeof(*w));
	strbuf_init(&w->text);
	return w;
}

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		strbuf_release(&l->v[i].text);
		free(l->v[i].segs);
	}
	free(l->v);
}

static void draw_lines(struct tui *t, struct lines *l, const char *title)
{
	int rows = LINES - 2, max;
	struct row *w = &t->row;

	if (rows < 2)
		return;
	row_reset(w);
	row_add(w, R_TITLE, title);
	row_add(w, R_HINT, "   (arrows scroll, Esc/q back)");
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

/* add @len bytes of @s to rows of @l, wrapped at @width columns, each indented by @indent */
static void add_wrapped(struct tui *t, struct lines *l, struct row *first, int indent, int width,
			const char *s, size_t len, int role)
{
	struct row *w = first;
	int col = indent;

	if (width < indent + 8)
		width = indent + 8;
	row_role(w, role);
	for (size_t i = 0; i < len;) {
		unsigned int cp;
		int n = utf8_next(s + i, len - i, &cp), cw = cp_width(t, cp);

		if (col + cw > width) {
			w = lines_new(l);
			row_pad(w, indent);
			row_role(w, role);
			col = indent;
		}
		strbuf_add(&w->text, s + i, n);
		col += cw;
		i += n;
	}
}

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

static void build_detail(struct tui *t, struct lines *l)
{
	uint64_t seq = t->follow ? last_visible(t) : t->sel;
	const struct trace_opts *o = session_opts(t->s);
	struct slot *sl;
	struct schema *sc;
	uint64_t *stack = NULL;
	size_t n, nst = 0;
	int nw = 4, tw = 0;
	bool one_line;
	struct row *w;

	if (seq == NO_SEQ || seq < t->tail || seq >= t->head) {
		w = lines_new(l);
		row_add(w, R_DIM, "(no event selected, or it has left the ring)");
		return;
	}
	sl = &t->slots[seq % t->cap];
	sc = t->sch[sl->schema];
	n = unpack(t, sl, &stack, &nst);
	w = lines_new(l);
	row_add(w, R_ARGNAME, "probe  ");
	row_add(w, R_PROBE, sc->name);
	if (n && t->vbuf[0].arg == NULL && sc->nr_vals && !sc->args[0])
		row_add(w, R_DIM, "  (tracefs event)");
	w = lines_new(l);
	row_add(w, R_ARGNAME, "time   ");
	row_role(w, R_NORMAL);
	render_time(&w->text, sl->ts, t->r->t0);
	strbuf_addf(&w->text, " s   cpu %u   pid %d   tid %d   comm ", sl->cpu, sl->pid, sl->tid);
	escape_untrusted(&w->text, sl->comm, strnlen(sl->comm, sizeof(sl->comm)));
	strbuf_addf(&w->text, "   #%llu", (unsigned long long)seq + 1);
	lines_new(l);
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
	one_line = COLS >= nw + tw + 30;
	for (size_t i = 0; i < n; i++) {
		struct value *v = &t->vbuf[i];
		int pad, ind = one_line ? nw + tw + 4 : nw + 2;

		w = lines_new(l);
		row_add(w, R_ARGNAME, v->name);
		pad = nw - (int)strlen(v->name);
		row_pad(w, pad > 0 ? pad : 0);
		strbuf_addstr(&w->text, "  ");
		strbuf_reset(&t->tmp);
		arg_info(&t->tmp, v->name, v->arg);
		if (t->tmp.len) {
			row_role(w, R_DIM);
			strbuf_addstr(&w->text, t->tmp.buf);
			if (one_line) {
				row_pad(w, tw - (int)t->tmp.len + 2);
			} else {
				w = lines_new(l);
				row_pad(w, nw + 2);
			}
		} else if (one_line) {
			row_pad(w, tw + 2);
		}
		row_role(w, v->fault ? R_ERROR : R_NORMAL);
		if (v->fault) {
			fmt_value(&w->text, v);
			continue;
		}
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
			if (v->kind == VK_POINTER && o && o->dbg) {
				struct strbuf sym = STRBUF_INIT;

				strbuf_init(&sym);
				if (debuginfo_symbolize(o->dbg, v->num.u, &sym) == 0)
					strbuf_addf(&w->text, "  %s", sym.buf);
				strbuf_release(&sym);
			}
			break;
		case VK_CSTRING:
		case VK_LSTRING:
		case VK_BYTES: {
			struct strbuf esc = STRBUF_INIT;

			strbuf_init(&esc);
			strbuf_addch(&esc, '"');
			escape_untrusted(&esc, v->str ? v->str : "", v->len);
			strbuf_addch(&esc, '"');
			if (v->cut)
				strbuf_addstr(&esc, "...");
			strbuf_addf(&esc, "  (%zu bytes%s)", v->len, v->cut ? ", cut" : "");
			add_wrapped(t, l, w, ind, COLS - 1, esc.buf, esc.len, R_NORMAL);
			strbuf_release(&esc);
			break;
		}
		default: {
			struct strbuf txt = STRBUF_INIT;

			strbuf_init(&txt);
			render_value_text(&txt, v);
			if (v->kind == VK_FLOAT)
				strbuf_addf(&txt, "  (bits 0x%llx)", (unsigned long long)v->num.u);
			add_wrapped(t, l, w, ind, COLS - 1, txt.buf, txt.len, R_NORMAL);
			strbuf_release(&txt);
			break;
		}
		}
	}
	if (o && o->stack) {
		lines_new(l);
		w = lines_new(l);
		row_add(w, R_TITLE, "user stack");
		if (!nst)
			row_add(w, R_DIM, "  (none recorded)");
		const char *syms = (const char *)stack + nst * 8;
		uint16_t nsyms = 0;

		if (nst)
			memcpy(&nsyms, syms, 2);
		syms += 2;
		for (size_t i = 0; i < nst; i++) {
			uint64_t a;

			memcpy(&a, (const char *)stack + i * 8, 8);
			w = lines_new(l);
			row_role(w, R_DIM);
			strbuf_addf(&w->text, "  #%-2zu 0x%016llx  ", i, (unsigned long long)a);
			row_role(w, R_NORMAL);
			if (nsyms == nst) {
				/* symbolized by the decoder with the process's own mappings */
				uint16_t len;

				memcpy(&len, syms, 2);
				escape_untrusted(&w->text, syms + 2, len);
				syms += 2 + len;
			} else if (o->dbg) {
				struct strbuf sym = STRBUF_INIT;

				strbuf_init(&sym);
				if (debuginfo_symbolize(o->dbg, a, &sym) == 0)
					strbuf_addstr(&w->text, sym.buf);
				strbuf_release(&sym);
			}
		}
	}
}

static const char *spark_chars(const struct tui *t, int level)
{
	static const char *u[] = { " ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585",
				   "\u2586", "\u2587", "\u2588" };
	static const char *a[] = { " ", ".", ".", ":", ":", "-", "=", "+", "#" };

	return t->utf8 ? u[level] : a[level];
}

static int top_cmp(const void *x, const void *y)
{
	const struct top_ent *a = *(const struct top_ent *const *)x;
	const struct top_ent *b = *(const struct top_ent *const *)y;

	return a->count < b->count ? 1 : a->count > b->count ? -1 : 0;
}

static void fmt_num(struct strbuf *sb, double d)
{
	if (d == floor(d) && fabs(d) < 1e15)
		strbuf_addf(sb, "%.0f", d);
	else
		strbuf_addf(sb, "%.4g", d);
}

/* 1, 2, 4 ... 512, 1K ... 1M ...: a power of two, short */
static void pow2_short(struct strbuf *sb, int e)
{
	static const char units[] = " KMGTPE";
	int u = e / 10;

	if (e >= 64) {
		strbuf_addstr(sb, "inf");
		return;
	}
	if (u)
		strbuf_addf(sb, "%llu%c", 1ULL << (e - u * 10), units[u]);
	else
		strbuf_addf(sb, "%llu", 1ULL << e);
}

/* the range of histogram bucket @b: "[64, 128)", "-[64, 128)", "0", "(-1, 0)" */
static void bucket_label(struct strbuf *sb, int b, bool neg)
{
	if (b == 0) {
		strbuf_addstr(sb, neg ? "(-1, 0)" : "[0, 1)");
		return;
	}
	strbuf_addstr(sb, neg ? "-[" : "[");
	pow2_short(sb, b - 1);
	strbuf_addstr(sb, ", ");
	pow2_short(sb, b);
	strbuf_addch(sb, ')');
}

static void build_stats(struct tui *t, struct lines *l)
{
	uint64_t total = 0;

	session_counters(t->s, &total, NULL);
	for (size_t si = 0; si < t->nr_sch; si++) {
		struct schema *sc = t->sch[si];
		struct row *w;
		uint64_t peak = 1;

		if (!sc->count && sc->retired)
			continue;
		w = lines_new(l);
		row_add(w, R_PROBE, sc->name);
		row_role(w, R_NORMAL);
		strbuf_addf(&w->text, "  count %llu", (unsigned long long)sc->count);
		if (total)
			strbuf_addf(&w->text, " (%.1f%%)", 100.0 * sc->count / total);
		if (sc->hidden)
			row_add(w, R_DIM, "  [hidden]");
		if (sc->retired)
			row_add(w, R_DIM, "  [removed]");
		w = lines_new(l);
		row_add(w, R_DIM, "  rate/s  ");
		for (int k = 0; k < SPARK_SECS; k++)
			if (sc->spark[k] > peak)
				peak = sc->spark[k];
		row_role(w, R_GOOD);
		for (int k = 0; k < SPARK_SECS; k++) {
			uint64_t c = sc->spark[(sc->spark_pos + k) % SPARK_SECS];
			int level = c ? 1 + (int)(c * 7 / peak) : 0;

			strbuf_addstr(&w->text, spark_chars(t, level > 8 ? 8 : level));
		}
		row_role(w, R_DIM);
		strbuf_addf(&w->text, "  last %llu/s, peak %llu/s",
			    (unsigned long long)sc->spark[(sc->spark_pos + SPARK_SECS - 1) %
							  SPARK_SECS],
			    (unsigned long long)peak);
		for (size_t i = 0; i < sc->nr_vals; i++) {
			struct arg_stat *a = &sc->st[i];

			w = lines_new(l);
			row_pad(w, 4);
			row_add(w, R_ARGNAME, sc->val_names[i]);
			row_role(w, R_NORMAL);
			if (a->faults)
				strbuf_addf(&w->text, "  faults %llu", (unsigned long long)a->faults);
			if (a->numeric && a->seen) {
				uint64_t hmax = 1, nn = a->n - a->faults;
				int lo = HIST_BUCKETS, hi = -1;

				strbuf_addstr(&w->text, "  min ");
				fmt_num(&w->text, a->min);
				strbuf_addstr(&w->text, "  avg ");
				fmt_num(&w->text, nn ? a->sum / nn : 0);
				strbuf_addstr(&w->text, "  max ");
				fmt_num(&w->text, a->max);
				for (int b = 0; b < HIST_BUCKETS; b++) {
					if (a->pos[b] || a->neg[b]) {
						lo = b < lo ? b : lo;
						hi = b;
					}
					hmax = a->pos[b] > hmax ? a->pos[b] : hmax;
					hmax = a->neg[b] > hmax ? a->neg[b] : hmax;
				}
				/* negative buckets, largest magnitude first, then positive */
				for (int sgn = 0; sgn < 2; sgn++) {
					for (int k = 0; k <= hi - lo; k++) {
						int b = sgn ? lo + k : hi - k;
						uint64_t c = sgn ? a->pos[b] : a->neg[b];
						int bar;

						if (!c)
							continue;
						w = lines_new(l);
						row_role(w, R_DIM);
						strbuf_reset(&t->tmp);
						bucket_label(&t->tmp, b, !sgn);
						strbuf_addf(&w->text, "%8s%-24s", "", t->tmp.buf);
						row_role(w, R_GOOD);
						bar = (int)(c * 30 / hmax);
						for (int x = 0; x < (bar ? bar : 1); x++)
							strbuf_addstr(&w->text, t->utf8 ?
								      "\u2587" : "#");
						row_role(w, R_NORMAL);
						strbuf_addf(&w->text, " %llu", (unsigned long long)c);
					}
				}
			} else if (a->top_used) {
				struct top_ent **v = xmalloc(a->top_used * sizeof(*v));
				size_t nv = 0;

				for (size_t k = 0; k < TOP_CAP; k++)
					if (a->top[k].key)
						v[nv++] = &a->top[k];
				qsort(v, nv, sizeof(*v), top_cmp);
				strbuf_addf(&w->text, "  %zu distinct%s", nv,
					    a->other ? "+" : "");
				for (size_t k = 0; k < nv && k < 8; k++) {
					struct value tv;

					memset(&tv, 0, sizeof(tv));
					tv.kind = (enum value_kind)v[k]->kind;
					tv.num.u = v[k]->num;
					if (tv.kind == VK_CSTRING || tv.kind == VK_LSTRING ||
					    tv.kind == VK_BYTES) {
						tv.str = v[k]->key;
						tv.len = v[k]->len;
					} else {
						tv.text = v[k]->len ? v[k]->key : NULL;
					}
					w = lines_new(l);
					row_role(w, R_NORMAL);
					strbuf_addf(&w->text, "%8s%10llu  ", "",
						    (unsigned long long)v[k]->count);
					render_value_text(&w->text, &tv);
				}
				if (a->other) {
					w = lines_new(l);
					row_add(w, R_DIM, "");
					strbuf_addf(&w->text, "%8s%10llu  (other values)", "",
						    (unsigned long long)a->other);
				}
				free(v);
			}
		}
		lines_new(l);
	}
	if (!l->nr) {
		struct row *w = lines_new(l);

		row_add(w, R_DIM, "no events yet");
	}
}

static void build_help(struct tui *t, struct lines *l)
{
	static const char *keys[] = {
		"Up/Down, PgUp/PgDn", "select an event (stops following)",
		"Home / End", "oldest kept event / newest, follow again",
		"Left / Right", "scroll the rows sideways",
		"f", "follow the newest events on/off",
		"space", "pause: the view freezes, events are still counted and kept",
		"/", "filter the list by text (as you type); Enter keeps it, Esc clears",
		"Esc", "clear the filter / close a pane",
		"Enter", "details of the selected event: every argument in full",
		"s", "statistics per probe: counts, rate, min/avg/max, histograms, top values",
		"p", "pick the probes shown (space toggles, d removes)",
		"a", "add a probe: Tab completes functions, then variables and fields",
		"d", "remove the probe of the selected event",
		"Ctrl-L", "redraw the screen",
		"q", "quit: remove the probes and the instance",
	};
	struct row *w;

	for (size_t i = 0; i < ARRAY_SIZE(keys); i += 2) {
		w = lines_new(l);
		row_add(w, R_TITLE, "  ");
		strbuf_addstr(&w->text, keys[i]);
		row_pad(w, 22 - (int)strlen(keys[i]));
		row_add(w, R_NORMAL, keys[i + 1]);
	}
	lines_new(l);
	w = lines_new(l);
	row_add(w, R_DIM, "  ring: ");
	strbuf_addf(&w->text, "%llu events kept (UPFRONT_RING), %llu now",
		    (unsigned long long)t->cap, (unsigned long long)(t->head - t->tail));
}

/* the session's events for the picker, in the order added */
static size_t pick_list(struct tui *t, const struct session_event **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < session_nr_events(t->s) && n < max; i++) {
		const struct session_event *e = session_event(t->s, i);

		if (e && !e->removed)
			out[n++] = e;
	}
	return n;
}

static void draw_pick(struct tui *t)
{
	const struct session_event *evs[512];
	size_t n = pick_list(t, evs, ARRAY_SIZE(evs));
	struct row *w = &t->row;

	row_reset(w);
	row_add(w, R_TITLE, "probes shown");
	row_add(w, R_HINT, "   (space toggles, d removes, Esc/p back)");
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
		sc = schema_by_name(t, evs[k]->name, true, NULL);
		row_reset(w);
		row_add(w, R_NORMAL, sc && sc->hidden ? " [ ] " : " [x] ");
		row_add(w, R_PROBE, evs[k]->generic ? evs[k]->sys : "");
		if (evs[k]->generic)
			strbuf_addch(&w->text, ':');
		strbuf_addstr(&w->text, evs[k]->name);
		row_add(w, R_DIM, "  ");
		strbuf_addf(&w->text, "%llu events", (unsigned long long)(sc ? sc->count : 0));
		if (evs[k]->tp && evs[k]->tp->func && strcmp(evs[k]->tp->func, evs[k]->name))
			strbuf_addf(&w->text, "  %s", evs[k]->tp->func);
		draw_row(t, 2 + i, COLS, w, 0, (int)k == t->pick_sel ? t->attrs[R_SEL] : 0);
	}
}

static void draw_cands(struct tui *t)
{
	int max = LINES - 3, n = (int)t->nr_cands < max ? (int)t->nr_cands : max;

	if (t->input != IN_ADD || n <= 0)
		return;
	for (int i = 0; i < n; i++) {
		int k = (int)t->nr_cands > max && i == n - 1 ? -1 : i;

		row_reset(&t->row);
		if (k < 0) {
			row_add(&t->row, R_DIM, "");
			strbuf_addf(&t->row.text, " ... %zu more", t->nr_cands - (size_t)i);
		} else {
			row_add(&t->row, R_NORMAL, " ");
			strbuf_addstr(&t->row.text, t->cands[k]);
		}
		draw_row(t, LINES - 1 - n + i, COLS, &t->row, 0, t->attrs[R_SEL]);
	}
}

static void draw(struct tui *t)
{
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
		struct lines l = { NULL, 0, 0 };

		if (t->mode == M_DETAIL)
			build_detail(t, &l);
		else if (t->mode == M_STATS)
			build_stats(t, &l);
		else
			build_help(t, &l);
		draw_lines(t, &l, t->mode == M_DETAIL ? "event" :
			   t->mode == M_STATS ? "statistics (every event, also those not kept)" :
			   "keys");
		lines_free(&l);
	}
	draw_cands(t);
	draw_status(t);
	refresh();
	t->dirty = false;
}

/* ---- keys -------------------------------------------------------------------------------- */

static void line_edit(struct strbuf *sb, int key, wint_t wc, bool is_key)
{
	if (is_key) {
		if ((key == KEY_BACKSPACE || key == KEY_DC) && sb->len) {
			size_t n = sb->len - 1;

			while (n && ((unsigned char)sb->buf[n] & 0xc0) == 0x80)
				n--;
			sb->len = n;
			sb->buf[n] = '\0';
		}
		return;
	}
	if (wc == 127 || wc == 8) {
		line_edit(sb, KEY_BACKSPACE, 0, true);
	} else if (wc == 21) {	/* Ctrl-U */
		strbuf_reset(sb);
	} else if (wc == 23) {	/* Ctrl-W */
		while (sb->len && sb->buf[sb->len - 1] == ' ')
			sb->len--;
		while (sb->len && sb->buf[sb->len - 1] != ' ')
			sb->len--;
		if (sb->buf)
			sb->buf[sb->len] = '\0';
	} else if (wc >= 0x20 && wc != 0x7f) {
		char mb[MB_LEN_MAX];
		mbstate_t st;
		size_t n;

		memset(&st, 0, sizeof(st));
		n = wcrtomb(mb, (wchar_t)wc, &st);
		if (n != (size_t)-1)
			strbuf_add(sb, mb, n);
	}
}

static void filter_changed(struct tui *t)
{
	t->fgen = (t->fgen + 1) & 0x7fffffff;
	if (!t->fgen)
		t->fgen = 1;
	t->dirty = true;
}

static bool key_input(struct tui *t, int key, wint_t wc, bool is_key)
{
	if (t->input == IN_CONFIRM) {
		if (!is_key && (wc == 'y' || wc == 'Y'))
			do_remove(t, t->confirm_name);
		else
			set_status(t, false, "kept %s", t->confirm_name);
		free(t->confirm_name);
		t->confirm_name = NULL;
		t->input = IN_NONE;
		return true;
	}
	if (!is_key && wc == 27) {	/* Esc */
		if (t->input == IN_FILTER) {
			strbuf_reset(&t->filter);
			filter_changed(t);
		}
		cands_clear(t);
		t->input = IN_NONE;
		return true;
	}
	if ((!is_key && (wc == '\n' || wc == '\r')) || (is_key && key == KEY_ENTER)) {
		if (t->input == IN_ADD) {
			cands_clear(t);
			do_add(t);
		}
		t->input = IN_NONE;
		return true;
	}
	if (t->input == IN_ADD && !is_key && wc == '\t') {
		complete(t);
		return true;
	}
	if (t->input == IN_ADD) {
		line_edit(&t->line, key, wc, is_key);
		cands_clear(t);
	} else {
		line_edit(&t->filter, key, wc, is_key);
		filter_changed(t);
	}
	return true;
}

static void key_list(struct tui *t, int key, wint_t wc, bool is_key)
{
	int page = t->list_rows > 1 ? t->list_rows - 1 : 1;

	if (is_key) {
		switch (key) {
		case KEY_UP:
			select_move(t, -1);
			break;
		case KEY_DOWN:
			select_move(t, 1);
			break;
		case KEY_PPAGE:
			select_move(t, -page);
			break;
		case KEY_NPAGE:
			select_move(t, page);
			break;
		case KEY_HOME:
			t->follow = false;
			t->sel = next_visible(t, t->tail ? t->tail - 1 : NO_SEQ);
			if (!t->tail)
				t->sel = visible(t, 0) || t->head == 0 ? (t->head ? 0 : NO_SEQ) :
					next_visible(t, 0);
			t->bottom = NO_SEQ;
			fix_window(t);
			break;
		case KEY_END:
			t->follow = true;
			break;
		case KEY_LEFT:
			t->hscroll = t->hscroll > 8 ? t->hscroll - 8 : 0;
			break;
		case KEY_RIGHT:
			t->hscroll += 8;
			break;
		case KEY_ENTER:
			goto enter;
		}
		return;
	}
	switch (wc) {
	case 'q':
	case 'Q':
		t->quit = true;
		break;
	case '?':
	case 'h':
		t->mode = M_HELP;
		t->ov_scroll = 0;
		break;
	case 'f':
		t->follow = !t->follow;
		if (!t->follow) {
			t->sel = last_visible(t);
			t->bottom = t->sel;
		}
		break;
	case ' ':
		t->paused = !t->paused;
		t->pause_head = t->head;
		set_status(t, false, t->paused ? "paused: events are still counted and kept" :
			   "resumed");
		break;
	case '/':
		t->input = IN_FILTER;
		break;
	case 27:
		if (t->filter.len) {
			strbuf_reset(&t->filter);
			filter_changed(t);
		}
		break;
	case 'p':
		t->mode = M_PICK;
		break;
	case 's':
		t->mode = M_STATS;
		t->ov_scroll = 0;
		break;
	case 'a':
		t->input = IN_ADD;
		strbuf_reset(&t->line);
		break;
	case 'd': {
		uint64_t seq = t->follow ? last_visible(t) : t->sel;
		char *ref;

		if (seq == NO_SEQ || seq < t->tail) {
			set_status(t, true, "select an event of the probe to remove");
			break;
		}
		ref = event_ref(t, t->sch[t->slots[seq % t->cap].schema]->name);
		if (!ref) {
			set_status(t, true, "that probe is already removed");
			break;
		}
		t->confirm_name = ref;
		t->input = IN_CONFIRM;
		break;
	}
	case '\n':
	case '\r':
enter:
		if (t->follow) {
			t->follow = false;
			t->sel = last_visible(t);
			t->bottom = t->sel;
		}
		t->mode = M_DETAIL;
		t->ov_scroll = 0;
		break;
	case 12:	/* Ctrl-L */
		clearok(curscr, TRUE);
		break;
	}
}

static void key_overlay(struct tui *t, int key, wint_t wc, bool is_key)
{
	int page = LINES > 4 ? LINES - 4 : 1;

	if (t->mode == M_PICK) {
		const struct session_event *evs[512];
		size_t n = pick_list(t, evs, ARRAY_SIZE(evs));

		if (is_key && key == KEY_UP && t->pick_sel > 0)
			t->pick_sel--;
		else if (is_key && key == KEY_DOWN)
			t->pick_sel++;
		else if (!is_key && (wc == ' ' || wc == '\n' || wc == '\r' || wc == 'x') &&
			 t->pick_sel < (int)n) {
			struct schema *sc = schema_by_name(t, evs[t->pick_sel]->name, true, NULL);

			if (sc) {
				sc->hidden = !sc->hidden;
				filter_changed(t);
			}
		} else if (!is_key && wc == 'd' && t->pick_sel < (int)n) {
			t->confirm_name = evs[t->pick_sel]->generic ?
				xasprintf("%s:%s", evs[t->pick_sel]->sys, evs[t->pick_sel]->name) :
				xstrdup(evs[t->pick_sel]->name);
			t->input = IN_CONFIRM;
		} else if (!is_key && (wc == 27 || wc == 'p' || wc == 'q')) {
			t->mode = M_LIST;
		}
		return;
	}
	if (is_key) {
		if (key == KEY_UP)
			t->ov_scroll--;
		else if (key == KEY_DOWN)
			t->ov_scroll++;
		else if (key == KEY_PPAGE)
			t->ov_scroll -= page;
		else if (key == KEY_NPAGE)
			t->ov_scroll += page;
		else if (key == KEY_HOME)
			t->ov_scroll = 0;
		else if (key == KEY_END)
			t->ov_scroll = 1 << 30;
		else if (key == KEY_ENTER && t->mode == M_DETAIL)
			t->mode = M_LIST;
		return;
	}
	if (wc == 27 || wc == 'q' || (wc == 's' && t->mode == M_STATS) ||
	    ((wc == '\n' || wc == '\r') && t->mode == M_DETAIL) || (wc == '?' && t->mode == M_HELP))
		t->mode = M_LIST;
	else if (wc == ' ')
		t->paused = !t->paused, t->pause_head = t->head;
	else if (wc == 12)
		clearok(curscr, TRUE);
}

static void handle_key(struct tui *t, int key, wint_t wc, bool is_key)
{
	t->dirty = true;
	if (is_key && key == KEY_RESIZE) {
		clearok(curscr, TRUE);
		return;
	}
	if (t->input != IN_NONE) {
		key_input(t, key, wc, is_key);
		return;
	}
	if (!is_key && wc == 3) {	/* Ctrl-C when the terminal does not signal */
		t->quit = true;
		return;
	}
	if (t->mode == M_LIST)
		key_list(t, key, wc, is_key);
	else
		key_overlay(t, key, wc, is_key);
}

/* ---- ops --------------------------------------------------------------------------------- */

static attr_t role_attr(struct tui *t, int role)
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

	if (!t->color)
		return map[role].mono;
	if (role == R_SEL || (map[role].fg < 0 && map[role].bg < 0))
		return map[role].extra;
	init_pair((short)role, map[role].fg, map[role].bg);
	return COLOR_PAIR(role) | map[role].extra;
}

static void park_stderr(struct tui *t)
{
	/* stray writes to stderr (libraries) would tear the screen: keep them for later */
	t->parked_err = tmpfile();
	t->saved_stderr = -1;
	if (!t->parked_err)
		return;
	fflush(stderr);
	t->saved_stderr = dup(STDERR_FILENO);
	if (t->saved_stderr < 0 || dup2(fileno(t->parked_err), STDERR_FILENO) < 0) {
		if (t->saved_stderr >= 0)
			close(t->saved_stderr);
		t->saved_stderr = -1;
		fclose(t->parked_err);
		t->parked_err = NULL;
	}
}

static void unpark_stderr(struct tui *t)
{
	char buf[4096];
	size_t n;

	if (t->saved_stderr < 0)
		return;
	fflush(stderr);
	dup2(t->saved_stderr, STDERR_FILENO);
	close(t->saved_stderr);
	t->saved_stderr = -1;
	rewind(t->parked_err);
	while ((n = fread(buf, 1, sizeof(buf), t->parked_err)) > 0)
		if (fwrite(buf, 1, n, stderr) != n)
			break;
	fclose(t->parked_err);
	t->parked_err = NULL;
}

static void tui_free(struct tui *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr_sch; i++)
		schema_free(t->sch[i]);
	free(t->sch);
	free(t->slots);
	free(t->arena);
	free(t->vbuf);
	strbuf_release(&t->row.text);
	free(t->row.segs);
	strbuf_release(&t->tmp);
	strbuf_release(&t->filter);
	strbuf_release(&t->line);
	strbuf_release(&t->status);
	free(t->confirm_name);
	free_list(t->funcs, t->nr_funcs);
	free_list(t->cands, t->nr_cands);
	free_list(t->vars, t->nr_vars);
	free(t->vars_func);
	free(t);
}

static int tui_open(struct render *r)
{
	struct tui *t = xcalloc(1, sizeof(*t));
	const char *env = getenv("UPFRONT_RING");
	const char *cs;
	struct sigaction sa;
	int fd;

	t->r = r;
	t->s = r->session;
	t->cap = RING_DEFAULT;
	if (env && *env) {
		char *end;
		unsigned long long v = strtoull(env, &end, 10);

		if (!*end && v >= 100 && v <= 100000000ULL)
			t->cap = v;
	}
	if (session_opts(t->s)->ring_size)	/* --ring N wins over the environment */
		t->cap = session_opts(t->s)->ring_size;
	t->asize = t->cap * ARENA_PER_EVENT;
	if (t->asize < 4 * 1024 * 1024)
		t->asize = 4 * 1024 * 1024;
	t->slots = xcalloc(t->cap, sizeof(*t->slots));
	t->arena = xmalloc(t->asize);
	t->follow = true;
	t->sel = t->bottom = NO_SEQ;
	t->fgen = 1;
	t->saved_stderr = -1;
	strbuf_init(&t->row.text);
	strbuf_init(&t->tmp);
	strbuf_init(&t->filter);
	strbuf_init(&t->line);
	strbuf_init(&t->status);

	setlocale(LC_ALL, "");
	cs = nl_langinfo(CODESET);
	t->utf8 = cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));

	/* keys from the terminal itself: stdin may be a file or belong to CMD */
	fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
	t->tty = fd >= 0 ? fdopen(fd, "r+") : NULL;
	if (!t->tty) {
		if (fd >= 0)
			close(fd);
		tui_free(t);
		return -ENOTTY;
	}
	t->scr = newterm(NULL, stdout, t->tty);
	if (!t->scr) {
		fclose(t->tty);
		tui_free(t);
		return -ENOTTY;
	}
	set_term(t->scr);
	curses_on = 1;
	active_tui = t;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(fatal_sigs); i++)
		sigaction(fatal_sigs[i], &sa, &old_fatal[i]);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	t->color = has_colors() && !getenv("NO_COLOR");
	if (t->color) {
		start_color();
		use_default_colors();
	}
	for (int i = 0; i < R_NR; i++)
		t->attrs[i] = role_attr(t, i);
	log_park();
	park_stderr(t);
	r->priv = t;
	r->input_fd = fileno(t->tty);
	t->last_sec = now_ns();
	t->dirty = true;
	draw(t);
	return 0;
}

static int tui_tick(struct render *r)
{
	struct tui *t = r->priv;
	uint64_t now = now_ns();
	int ch, keys = 0;
	wint_t wc;

	while (keys < 256 && (ch = get_wch(&wc)) != ERR) {
		handle_key(t, ch == KEY_CODE_YES ? (int)wc : 0, wc, ch == KEY_CODE_YES);
		keys++;
		if (t->quit)
			break;
	}
	if (t->quit)
		return RENDER_QUIT;
	if (now - t->last_sec >= 1000000000ULL) {
		uint64_t total = 0;
		double secs = (now - t->last_sec) / 1e9;

		session_counters(t->s, &total, NULL);
		t->rate = (uint64_t)((total - t->last_total) / secs + 0.5);
		t->last_total = total;
		t->last_sec = now;
		for (size_t i = 0; i < t->nr_sch; i++) {
			struct schema *sc = t->sch[i];

			sc->spark[sc->spark_pos] = sc->count - sc->spark_last;
			sc->spark_last = sc->count;
			sc->spark_pos = (sc->spark_pos + 1) % SPARK_SECS;
		}
		t->dirty = true;
	}
	if (t->head != t->pause_head && !t->paused)
		t->dirty = true;
	/* keys answer at once; the stream redraws at most every FRAME_NS */
	if (keys || (t->dirty && now - t->last_draw >= FRAME_NS)) {
		draw(t);
		t->last_draw = now;
		if (!t->paused)
			t->pause_head = t->head;
	}
	return 0;
}

static void tui_close(struct render *r)
{
	struct tui *t = r->priv;

	if (!t)
		return;
	if (curses_on) {
		curses_on = 0;
		endwin();
	}
	for (size_t i = 0; i < ARRAY_SIZE(fatal_sigs); i++)
		sigaction(fatal_sigs[i], &old_fatal[i], NULL);
	delscreen(t->scr);
	fclose(t->tty);
	r->input_fd = -1;
	unpark_stderr(t);
	log_unpark();
	active_tui = NULL;
	tui_free(t);
	r->priv = NULL;
}

const struct render_ops render_tui_ops = {
	.name		= "curses",
	.open		= tui_open,
	.event		= tui_event,
	.lost		= tui_lost,
	.tick		= tui_tick,
	.close		= tui_close,
	.tick_ms	= 30,
	.owns_terminal	= true,
};
