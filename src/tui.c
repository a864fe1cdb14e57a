// SPDX-License-Identifier: GPL-2.0-or-later
/* tui.c - the live curses view's renderer: the terminal, the loop's tick, keys */
#define LOG_DOMAIN "tui"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "log.h"
#include "render.h"
#include "session.h"
#include "tui-internal.h"

/* last: its macros (lines, columns, cur_term ...) would rename libdw.h's parameters */
#include <term.h>

/* The terminal while the view runs; only this file opens and restores it. */
struct tui_term {
	SCREEN *scr;
	FILE *tty;
	int saved_stderr;
	FILE *parked_err;
};

/*
 * What a fatal signal needs to give the terminal back, prepared while the view opens: the
 * handler may only make async-signal-safe calls (endwin() is not one), so it writes this
 * reset sequence (from terminfo: leave the alternate screen, show the cursor, plain text,
 * keypad off) and sets the saved termios back, both system calls, then dies of the signal.
 */
static volatile sig_atomic_t curses_on;
static int term_fd = -1;		/* the terminal curses draws on (stdout) */
static struct termios term_saved;	/* its modes before curses */
static bool term_saved_ok;
static char term_reset[256];
static size_t term_reset_len;
static const int fatal_sigs[] = { SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGQUIT, SIGTRAP,
				  SIGSYS, SIGXCPU, SIGXFSZ };
static struct sigaction old_fatal[ARRAY_SIZE(fatal_sigs)];
static volatile sig_atomic_t fatal_stderr = -1;	/* the real stderr while it is parked */

/*
 * A crash must not leave the terminal raw: restore it, then die as we would have. A SIGBUS
 * goes on to the handler that was there before (mapguard's: a binary truncated meanwhile is
 * its one error line, exit 2); other signals never (an ASan build's SIGSEGV handler would
 * exit 1 instead of dying of it).
 */
static void on_fatal(int sig, siginfo_t *si, void *ctx)
{
	int saved_errno = errno;

	if (curses_on) {
		curses_on = 0;
		if (term_reset_len && write(term_fd, term_reset, term_reset_len) < 0)
			saved_errno = errno;
		if (term_saved_ok)
			tcsetattr(term_fd, TCSANOW, &term_saved);
	}
	if (sig == SIGBUS && fatal_stderr >= 0)
		dup2(fatal_stderr, STDERR_FILENO);	/* its line to the user, not the park */
	for (size_t i = 0; i < ARRAY_SIZE(fatal_sigs); i++)
		if (sig == SIGBUS && fatal_sigs[i] == sig && (old_fatal[i].sa_flags & SA_SIGINFO) &&
		    old_fatal[i].sa_sigaction)
			old_fatal[i].sa_sigaction(sig, si, ctx);
	errno = saved_errno;
	raise(sig);	/* SA_RESETHAND | SA_NODEFER: the default action, now */
}

/* append terminfo capability @cap to term_reset, without its $<N> padding */
static void reset_add(const char *cap)
{
	const char *s = tigetstr((char *)cap);

	if (!s || s == (char *)-1)
		return;
	for (; *s && term_reset_len < sizeof(term_reset); s++) {
		if (s[0] == '$' && s[1] == '<' && strchr(s, '>')) {
			s = strchr(s, '>');
			continue;
		}
		term_reset[term_reset_len++] = *s;
	}
}

/* the reset sequence and the terminal's modes, for on_fatal(); before curses changes them */
static void fatal_prepare(int fd)
{
	term_fd = fd;
	term_saved_ok = tcgetattr(fd, &term_saved) == 0;
}

static void fatal_arm(void)
{
	struct sigaction sa;

	term_reset_len = 0;
	reset_add("rmcup");
	reset_add("cnorm");
	reset_add("sgr0");
	reset_add("rmkx");
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fatal;
	sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(fatal_sigs); i++)
		sigaction(fatal_sigs[i], &sa, &old_fatal[i]);
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
			tui_remove_probe(t, t->confirm_name);
		else
			tui_set_status(t, false, "kept %s", t->confirm_name);
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
		tui_cands_clear(t);
		t->input = IN_NONE;
		return true;
	}
	if ((!is_key && (wc == '\n' || wc == '\r')) || (is_key && key == KEY_ENTER)) {
		if (t->input == IN_ADD) {
			tui_cands_clear(t);
			tui_prompt_add(t);
		}
		t->input = IN_NONE;
		return true;
	}
	if (t->input == IN_ADD && !is_key && wc == '\t') {
		tui_complete(t);
		return true;
	}
	if (t->input == IN_ADD) {
		line_edit(&t->line, key, wc, is_key);
		tui_cands_clear(t);
		t->status_until = 0;	/* what the last Tab said is about the old text */
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
			tui_select_move(t, -1);
			break;
		case KEY_DOWN:
			tui_select_move(t, 1);
			break;
		case KEY_PPAGE:
			tui_select_move(t, -page);
			break;
		case KEY_NPAGE:
			tui_select_move(t, page);
			break;
		case KEY_HOME:
			t->follow = false;
			t->sel = tui_next_visible(t, t->tail ? t->tail - 1 : NO_SEQ);
			if (!t->tail)
				t->sel = tui_visible(t, 0) || t->head == 0 ?
					(t->head ? 0 : NO_SEQ) : tui_next_visible(t, 0);
			t->bottom = NO_SEQ;
			tui_fix_window(t);
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
			t->sel = tui_last_visible(t);
			t->bottom = t->sel;
		}
		break;
	case ' ':
		t->paused = !t->paused;
		t->pause_head = t->head;
		tui_set_status(t, false, t->paused ? "paused: events are still counted and kept" :
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
		t->status_until = 0;
		break;
	case 'd': {
		uint64_t seq = t->follow ? tui_last_visible(t) : t->sel;
		char *ref;

		if (seq == NO_SEQ || seq < t->tail) {
			tui_set_status(t, true, "select an event of the probe to remove");
			break;
		}
		ref = tui_event_ref(t, t->sch[t->slots[seq % t->cap].schema]->name);
		if (!ref) {
			tui_set_status(t, true, "that probe is already removed");
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
			t->sel = tui_last_visible(t);
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
		size_t n = tui_pick_list(t, evs, ARRAY_SIZE(evs));

		if (is_key && key == KEY_UP && t->pick_sel > 0)
			t->pick_sel--;
		else if (is_key && key == KEY_DOWN)
			t->pick_sel++;
		else if (!is_key && (wc == ' ' || wc == '\n' || wc == '\r' || wc == 'x') &&
			 t->pick_sel < (int)n) {
			struct schema *sc = tui_schema_find(t, evs[t->pick_sel]->name, true, NULL);

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


void tui_build_help(struct tui *t, struct tui_lines *l)
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
		w = tui_lines_new(l);
		tui_row_add(w, R_TITLE, "  ");
		strbuf_addstr(&w->text, keys[i]);
		tui_row_pad(w, 22 - (int)strlen(keys[i]));
		tui_row_add(w, R_NORMAL, keys[i + 1]);
	}
	tui_lines_new(l);
	w = tui_lines_new(l);
	tui_row_add(w, R_DIM, "  ring: ");
	strbuf_addf(&w->text, "%llu events kept (UPFRONT_RING), %llu now",
		    (unsigned long long)t->cap, (unsigned long long)(t->head - t->tail));
}

/* ---- ops --------------------------------------------------------------------------------- */

static void park_stderr(struct tui_term *tm)
{
	/* stray writes to stderr (libraries) would tear the screen: keep them for later */
	tm->parked_err = tmpfile();
	tm->saved_stderr = -1;
	if (!tm->parked_err)
		return;
	fflush(stderr);
	tm->saved_stderr = dup(STDERR_FILENO);
	if (tm->saved_stderr < 0 || dup2(fileno(tm->parked_err), STDERR_FILENO) < 0) {
		if (tm->saved_stderr >= 0)
			close(tm->saved_stderr);
		tm->saved_stderr = -1;
		fclose(tm->parked_err);
		tm->parked_err = NULL;
	}
	fatal_stderr = tm->saved_stderr;
}

static void unpark_stderr(struct tui_term *tm)
{
	char buf[4096];
	size_t n;

	if (tm->saved_stderr < 0)
		return;
	fflush(stderr);
	fatal_stderr = -1;
	dup2(tm->saved_stderr, STDERR_FILENO);
	close(tm->saved_stderr);
	tm->saved_stderr = -1;
	rewind(tm->parked_err);
	while ((n = fread(buf, 1, sizeof(buf), tm->parked_err)) > 0)
		if (fwrite(buf, 1, n, stderr) != n)
			break;
	fclose(tm->parked_err);
	tm->parked_err = NULL;
}

static void tui_free(struct tui *t)
{
	if (!t)
		return;
	tui_ring_release(t);
	strbuf_release(&t->row.text);
	free(t->row.segs);
	strbuf_release(&t->tmp);
	strbuf_release(&t->filter);
	strbuf_release(&t->line);
	strbuf_release(&t->status);
	free(t->confirm_name);
	free(t->ended);
	tui_prompt_release(t);
	free(t->term);
	free(t);
}

/* curses on /dev/tty (keys from the terminal itself: stdin may be a file or belong to CMD) */
static int term_open(struct tui *t)
{
	struct tui_term *tm = t->term;
	int fd;

	fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
	tm->tty = fd >= 0 ? fdopen(fd, "r+") : NULL;
	if (!tm->tty) {
		if (fd >= 0)
			close(fd);
		return -ENOTTY;
	}
	fatal_prepare(fileno(stdout));
	tm->scr = newterm(NULL, stdout, tm->tty);
	if (!tm->scr) {
		fclose(tm->tty);
		return -ENOTTY;
	}
	set_term(tm->scr);
	fatal_arm();
	curses_on = 1;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	tui_draw_init(t, has_colors() && !getenv("NO_COLOR"));
	log_park();
	park_stderr(tm);
	return 0;
}

/* the terminal as it was: called once on every exit path after term_open() succeeded */
static void term_close(struct tui *t)
{
	struct tui_term *tm = t->term;

	if (curses_on) {
		curses_on = 0;
		endwin();
	}
	for (size_t i = 0; i < ARRAY_SIZE(fatal_sigs); i++)
		sigaction(fatal_sigs[i], &old_fatal[i], NULL);
	delscreen(tm->scr);
	fclose(tm->tty);
	unpark_stderr(tm);
	log_unpark();
}

static int tui_open(struct render *r)
{
	struct tui *t = xcalloc(1, sizeof(*t));
	const char *cs;
	int err;

	t->r = r;
	t->ctl = &r->ctl;
	t->term = xcalloc(1, sizeof(*t->term));
	t->term->saved_stderr = -1;
	t->cap = RING_DEFAULT;
	if (r->opts.ring_size)	/* --ring N, else UPFRONT_RING (main.c checks both) */
		t->cap = r->opts.ring_size;
	t->agg = r->agg;
	if (!t->agg) {
		t->agg = agg_new();
		t->own_agg = true;
	}
	tui_ring_init(t);
	t->follow = true;
	t->sel = t->bottom = NO_SEQ;
	t->fgen = 1;
	strbuf_init(&t->row.text);
	strbuf_init(&t->tmp);
	strbuf_init(&t->filter);
	strbuf_init(&t->line);
	strbuf_init(&t->status);

	setlocale(LC_ALL, "");
	cs = nl_langinfo(CODESET);
	t->utf8 = cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));

	err = term_open(t);
	if (err < 0) {
		tui_free(t);
		return err;
	}
	r->priv = t;
	r->input_fd = fileno(t->term->tty);
	t->last_sec = now_ns();
	t->dirty = true;
	tui_draw(t);
	return 0;
}

static int tui_lost(struct render *r, int cpu, uint64_t nr)
{
	struct tui *t = r->priv;

	t->lost += nr;
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

		t->ctl->counters(t->ctl->s, &total, NULL);
		t->rate = (uint64_t)((total - t->last_total) / secs + 0.5);
		t->last_total = total;
		t->last_sec = now;
		tui_stats_second(t);
		t->dirty = true;
	}
	if (t->head != t->pause_head && !t->paused)
		t->dirty = true;
	/* keys answer at once; the stream redraws at most every FRAME_NS */
	if (keys || (t->dirty && now - t->last_draw >= FRAME_NS)) {
		tui_draw(t);
		t->last_draw = now;
		if (!t->paused)
			t->pause_head = t->head;
	}
	return 0;
}

static void tui_ended(struct render *r, const char *why)
{
	struct tui *t = r->priv;

	free(t->ended);
	t->ended = xstrdup(why);
	t->dirty = true;
}

static void tui_close(struct render *r)
{
	struct tui *t = r->priv;

	if (!t)
		return;
	term_close(t);
	r->input_fd = -1;
	tui_free(t);
	r->priv = NULL;
}

const struct render_ops render_tui_ops = {
	.name		= "curses",
	.open		= tui_open,
	.event		= tui_event,
	.lost		= tui_lost,
	.tick		= tui_tick,
	.ended		= tui_ended,
	.close		= tui_close,
	.tick_ms	= 30,
	.owns_terminal	= true,
};
