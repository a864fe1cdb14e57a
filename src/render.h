/* SPDX-License-Identifier: GPL-2.0-or-later */
/* render.h - how decoded events are shown: a table of ops driven by the session's one loop */
#ifndef UPF_RENDER_H
#define UPF_RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "decode.h"
#include "util.h"

struct agg;
struct debuginfo;
struct diag;
struct resolve_opts;
struct session;
struct session_event;
struct render;

/* What tick() and event() may return besides 0 (flags, or-ed). */
enum render_flags {
	RENDER_QUIT = 1,	/* end the session cleanly (q in the TUI) */
};

/*
 * A renderer. The session calls every op from one thread (its main loop), so a renderer
 * may call the callbacks of its render_ctl from any op (add a probe typed by the user,
 * remove an event, read counters) without locking.
 *
 * Pausing is the renderer's business: keep receiving event() calls (they are counted and
 * may be kept in a ring), just do not draw them. Never stop consuming: the kernel's ring
 * buffer would overflow and events would be lost.
 */
struct render_ops {
	const char *name;
	/* open() - before the probes are enabled; 0 or -errno */
	int (*open)(struct render *r);
	/* event() - one event in time order; <0 (-EPIPE) stops the session, or RENDER_QUIT */
	int (*event)(struct render *r, const struct event *ev);
	/* lost() - @nr events were lost on @cpu at this point of the stream */
	int (*lost)(struct render *r, int cpu, uint64_t nr);
	/*
	 * cmd_end() - (or NULL) the traced command ended the session other than by exit
	 * status 0: @wstatus as waitpid() gives it; after the last event, before close()
	 */
	void (*cmd_end)(struct render *r, int pid, const char *cmd, int wstatus);
	/*
	 * tick() - called every tick_ms (also when no events come): poll keys (the session
	 * watches input_fd and calls tick() early when it is readable), redraw, flush.
	 * Return 0, RENDER_QUIT, or <0 to stop with an error.
	 */
	int (*tick)(struct render *r);
	/*
	 * ended() - optional: tracing has ended by itself (@why: "the command exited", "every
	 * traced process has exited", ...) and every event is delivered; a view that stays
	 * until the user quits says so; the session keeps calling tick() until it returns
	 * RENDER_QUIT or a signal stops it. NULL: the session ends at once.
	 */
	void (*ended)(struct render *r, const char *why);
	/* close() - after the last event, before the summary goes to stderr: flush, restore
	 * the terminal. Called on every exit path once open() succeeded. */
	void (*close)(struct render *r);
	unsigned int tick_ms;	/* 0: the session's default (100 ms) */
	bool owns_terminal;	/* the view draws on the terminal: CMD gets /dev/null as its
				 * stdin, stdout and stderr so it cannot tear the screen */
};

/* What a renderer is created with: the options of the run that concern the view. */
struct render_opts {
	bool stack;			/* --stack: events carry the user stack */
	unsigned long ring_size;	/* --ring or UPFRONT_RING: events the curses view keeps,
					   0: its default */
	struct debuginfo *dbg;		/* the binary (symbolizing, completion), or NULL */
	const struct resolve_opts *ropts;	/* for completion queries, or NULL */
};

/*
 * Live control of the running session, for an interactive view: the session hands these
 * callbacks to the renderer, so no renderer links to session.c (the session drives the
 * renderer through render_ops, the renderer reaches back only through this). Any may be
 * NULL (no session: tests), each takes @s as its first argument; semantics as the
 * session_*() functions of session.h they point to.
 */
struct render_ctl {
	struct session *s;
	int (*add_probe_text)(struct session *s, const char *text, struct diag *d);
	int (*remove_event)(struct session *s, const char *name, struct diag *d);
	size_t (*nr_events)(const struct session *s);
	const struct session_event *(*event)(const struct session *s, size_t i);
	void (*counters)(const struct session *s, uint64_t *events, uint64_t *lost);
};

/* One renderer instance; the session fills the public part before open(). */
struct render {
	const struct render_ops *ops;
	struct render_opts opts;
	struct render_ctl ctl;
	int fd;			/* output: stdout, or the file of -o */
	bool atomic_lines;	/* fd is a pipe or socket: render_flush() writes at most
				 * PIPE_BUF bytes at a time, each ending at a line's end, so
				 * that no other writer's bytes land inside a line */
	int input_fd;		/* set by open() to an fd whose readability calls tick() (keys), or -1 */
	uint64_t t0;		/* ns of the first event; set by the session before its event() */
	struct agg *agg;	/* the session's aggregates (agg.h), each event counted before
				 * event(); NULL: none (a renderer that wants them counts itself) */
	struct strbuf out;	/* buffered output; render_flush() writes it */
	size_t *ends;		/* where each event's text in out ends (render_event_end()) */
	size_t nr_ends, alloc_ends;
	uint64_t unwritten;	/* events whose text render_flush() could not write */
	int write_err;		/* the first write error (an errno), 0 while none */
	void *priv;		/* the renderer's own state */
};

extern const struct render_ops render_text_ops;
extern const struct render_ops render_json_ops;
/* The curses view (tui.c); a strong reference, so the archive member is linked. */
extern const struct render_ops render_tui_ops;

/**
 * render_flush() - write r->out to r->fd completely
 * @r: the renderer; r->out holds whole lines (every op appends whole lines)
 *
 * Each write(2) ends at a line's end. To a pipe or socket (r->atomic_lines) each is also at
 * most PIPE_BUF bytes, which the kernel writes without interleaving another writer's bytes
 * (a single line longer than that is written whole, in one call).
 * Once a write failed (r->write_err), nothing more is written: a file with a hole in the
 * middle of its events would read as complete. The events whose text did not reach the file
 * whole are counted in r->unwritten.
 * Return: 0, or -EPIPE (reader gone) / -errno; the buffer is emptied in any case.
 */
int render_flush(struct render *r);

/**
 * render_event_end() - an event's text is complete in r->out: note where it ends (so that a
 * failed write counts the events it lost) and write r->out once RENDER_FLUSH_AT is reached
 * Return: as render_flush(), 0 when nothing was written.
 */
int render_event_end(struct render *r);

/* The text and JSON renderers write r->out once an event leaves this much in it. */
#define RENDER_FLUSH_AT (64 * 1024)

/**
 * render_tick_flush() - the tick of a renderer that buffers into r->out: write what is there
 * Return: as render_flush(); 0 when nothing is buffered.
 */
int render_tick_flush(struct render *r);

/**
 * render_close_flush() - the close of a renderer that buffers into r->out: write what is left
 */
void render_close_flush(struct render *r);

/**
 * render_time() - "12.345678": seconds since the first event, 6 decimals
 * @sb: appended to
 * @ts: the event's time stamp, ns
 * @t0: the first event's, ns
 */
void render_time(struct strbuf *sb, uint64_t ts, uint64_t t0);

/**
 * render_duration() - a duration as the text line shows it: "850ns", "12.5us", "3.25ms",
 * "1.5s" (the largest unit under which it is at least 1, up to 3 decimals, no trailing zeros)
 * @sb: appended to
 * @ns: the duration in ns
 */
void render_duration(struct strbuf *sb, uint64_t ns);

/**
 * render_seconds() - a duration as JSON has it: seconds, exact to the ns ("0.0000125", "2")
 * @sb: appended to
 * @ns: the duration in ns
 */
void render_seconds(struct strbuf *sb, uint64_t ns);

/**
 * render_value_text() - one value as the text renderer shows it (no name)
 * @sb: appended to: 42, 0x1f, "str"..., 'c', true, RED, sym+0x10, (fault)
 * @v: the value; bytes from the traced program are escaped (escape_untrusted())
 */
void render_value_text(struct strbuf *sb, const struct value *v);

/**
 * render_value_json() - one value as the JSON renderer shows it (no name)
 * @sb: appended to: 42, "0x1f", "str", true, "RED", null for a fault
 * @v: the value
 */
void render_value_json(struct strbuf *sb, const struct value *v);

/**
 * render_json_string() - @s as a JSON string, quotes included (bytes not valid UTF-8 escaped)
 * @sb: appended to
 */
void render_json_string(struct strbuf *sb, const char *s, size_t len);

/**
 * render_value_pretty() - a whole struct or array (VK_STRUCT, VK_ARRAY) over several lines, one
 * member or element a line, nested ones indented (gdb's "set print pretty"); other values as
 * render_value_text() does
 * @sb: appended to; lines end in '\n' but the last
 * @v: the value
 * @indent: blanks before each inner line
 */
void render_value_pretty(struct strbuf *sb, const struct value *v, int indent);

/*
 * Fast output for the per-event path: reserve room in a strbuf, write through a pointer,
 * commit. At a million events per second the per-call strbuf_add*() cost shows.
 */
static inline char *render_reserve(struct strbuf *sb, size_t n)
{
	if (!sb->buf || sb->len + n + 1 > sb->alloc) {
		size_t want = sb->len + n + 1;

		if (!sb->buf)
			strbuf_init(sb);
		if (want > sb->alloc) {
			while (sb->alloc < want)
				sb->alloc *= 2;
			sb->buf = xrealloc(sb->buf, sb->alloc);
		}
	}
	return sb->buf + sb->len;
}

static inline void render_commit(struct strbuf *sb, char *end)
{
	sb->len = end - sb->buf;
	sb->buf[sb->len] = '\0';
}

static inline char *render_put(char *p, const void *s, size_t n)
{
	/*
	 * Most pieces are a few bytes: a call to memcpy() costs more than the copy. Fixed-size
	 * moves (a byte loop would be turned back into a memcpy() call by the compiler).
	 */
	if (!__builtin_constant_p(n) && n <= 24) {
		const char *c = s;

		while (n >= 8) {
			__builtin_memcpy(p, c, 8);
			p += 8;
			c += 8;
			n -= 8;
		}
		if (n & 4) {
			__builtin_memcpy(p, c, 4);
			p += 4;
			c += 4;
		}
		if (n & 2) {
			__builtin_memcpy(p, c, 2);
			p += 2;
			c += 2;
		}
		if (n & 1)
			*p++ = *c;
		return p;
	}
	__builtin_memcpy(p, s, n);
	return p + n;
}

#define render_put_lit(p, lit) render_put((p), (lit), sizeof(lit) - 1)

/* render_put_u64() - decimal digits of @v at @p; returns the end */
static inline char *render_put_u64(char *p, uint64_t v)
{
	int n = 1;

	for (uint64_t t = v; t >= 10; t /= 10)
		n++;
	for (int i = n - 1; i >= 0; i--) {
		p[i] = '0' + v % 10;
		v /= 10;
	}
	return p + n;
}

static inline char *render_put_s64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return render_put_u64(p, -(uint64_t)v);
	}
	return render_put_u64(p, (uint64_t)v);
}

/* render_put_time() - "12.345678", seconds since @t0 with 6 decimals */
static inline char *render_put_time(char *p, uint64_t ts, uint64_t t0)
{
	uint64_t us = ((ts > t0 ? ts - t0 : 0) + 500) / 1000;
	uint64_t f = us % 1000000;

	p = render_put_u64(p, us / 1000000);
	*p++ = '.';
	for (int i = 5; i >= 0; i--) {
		p[i] = '0' + f % 10;
		f /= 10;
	}
	return p + 6;
}

/* render_safe_len() - how many leading bytes are printable ASCII other than " and \ */
static inline size_t render_safe_len(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];

		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			break;
		i++;
	}
	return i;
}

/**
 * render_u64() - fast decimal
 * @sb: appended to
 * @v: the number
 */
void render_u64(struct strbuf *sb, uint64_t v);

/**
 * render_s64() - fast signed decimal
 * @sb: appended to
 * @v: the number
 */
void render_s64(struct strbuf *sb, int64_t v);

/**
 * render_stack_cut() - why a stack stops where it does, for the text and curses views
 * @why: an event's ustack_cut ("copy", "cfi", "frames", "lost"), not NULL
 * Return: a static phrase ("stack cut: the next frame is past the 1024 bytes copied" is
 * made of it by the caller).
 */
const char *render_stack_cut(const char *why);

/**
 * render_hex() - "0x1f"
 * @sb: appended to
 * @v: the number
 */
void render_hex(struct strbuf *sb, uint64_t v);

/**
 * render_int128() - a 128-bit integer in decimal, every digit (the same in text and JSON)
 * @sb: appended to
 * @w: its bits
 * @is_signed: read @w as two's complement
 */
void render_int128(struct strbuf *sb, unsigned __int128 w, bool is_signed);

#endif
