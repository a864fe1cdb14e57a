/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.h - allocation that never returns NULL, growable strings, escaping of untrusted bytes,
 * globs and names, the clock
 */
#ifndef UPF_UTIL_H
#define UPF_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PRINTF(f, a) __attribute__((format(printf, f, a)))

/**
 * xmalloc() - malloc() that never returns NULL: out of memory prints a message and aborts;
 * xcalloc(), xrealloc(), xstrdup(), xstrndup() and xasprintf() the same for theirs
 * Return: memory for free(); never NULL (0 bytes gives a unique pointer too).
 */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) PRINTF(1, 2);

/**
 * ALLOC_GROW() - grow array @x to hold at least @nr elements; @alloc tracks capacity
 */
#define ALLOC_GROW(x, nr, alloc)                                                     \
	do {                                                                         \
		if ((size_t)(nr) > (size_t)(alloc)) {                                \
			(alloc) = (alloc) ? (alloc) * 2 : 8;                         \
			if ((size_t)(alloc) < (size_t)(nr))                          \
				(alloc) = (nr);                                      \
			(x) = xrealloc((x), sizeof(*(x)) * (alloc));                 \
		}                                                                    \
	} while (0)

/* A growable NUL-terminated string; buf is never NULL after strbuf_init(). */
struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { NULL, 0, 0 }

/**
 * strbuf_init() - an empty string ("" in @sb->buf); strbuf_release() frees it and leaves
 * it as STRBUF_INIT; strbuf_reset() empties it and keeps the memory
 */
void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
/**
 * strbuf_detach() - hand the string to the caller
 * Return: the buffer for free() ("" when nothing was added); @sb is left empty.
 */
char *strbuf_detach(struct strbuf *sb);
/**
 * strbuf_add() - append @len bytes; strbuf_addstr(), strbuf_addch(), strbuf_addf() and
 * strbuf_vaddf() append a string, a character, printf() output; the result stays
 * NUL-terminated (it may contain NULs of its own from strbuf_add())
 */
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) PRINTF(2, 3);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/**
 * strbuf_cstr() - the string, borrowed
 * Return: never NULL, also for an empty, never-used buffer.
 */
const char *strbuf_cstr(const struct strbuf *sb);

/* A list of owned strings: what a query answers (names of functions, variables, fields). */
struct strlist {
	char **v;
	size_t nr;
	size_t alloc;
};

#define STRLIST_INIT { NULL, 0, 0 }

/**
 * strlist_add() - append a copy of @s; strlist_addn() - of its first @n bytes
 */
void strlist_add(struct strlist *l, const char *s);
void strlist_addn(struct strlist *l, const char *s, size_t n);
/**
 * strlist_release() - free every string and the array; @l is left empty
 */
void strlist_release(struct strlist *l);

/*
 * A table from strings to numbers (open addressing, FNV-1a), for the sets of names that a
 * scan per name would make quadratic: event names, function names, "group/event" keys.
 */
struct strmap {
	char **keys;
	size_t *vals;
	size_t cap;		/* a power of two, at least twice @nr */
	size_t nr;
};

/**
 * strmap_init() - an empty table sized for @expect keys; strmap_release() frees its keys
 */
void strmap_init(struct strmap *t, size_t expect);
void strmap_release(struct strmap *t);
/**
 * strmap_find() - the value of @key, or NULL when it is not in @t (valid until the next add)
 */
size_t *strmap_find(const struct strmap *t, const char *key);
/**
 * strmap_add() - the value of @key, added with @val when it is not in @t (then *@added is
 * true); valid until the next add
 */
size_t *strmap_add(struct strmap *t, const char *key, size_t val, bool *added);

/**
 * escape_untrusted() - append bytes from a traced program so a terminal shows them inertly
 * @sb: output
 * @s: bytes, not necessarily NUL-terminated or valid UTF-8
 * @len: number of bytes
 *
 * Valid UTF-8 printable text is kept; control bytes become \n \t \r \e \\ \" or \xHH,
 * invalid UTF-8 bytes become \xHH, and DEL, C1 controls and the bidirectional and invisible
 * format controls (U+202E, U+200B, ...) are escaped too (their bytes as \xHH).
 */
void escape_untrusted(struct strbuf *sb, const char *s, size_t len);

/**
 * escape_name() - append a name that comes from a binary or from the user (a symbol, a DWARF
 * name, a source path, probe text, an option's value) for a listing, an error line, a log
 * line or the curses view
 * @sb: output
 * @s: NUL-terminated name; NULL appends nothing
 *
 * The rule of escape_untrusted() (one function behind both), except that quotes and
 * backslashes stay as they are: a name with a newline stays on its line ("a\nb"), an ESC or
 * OSC sequence is shown ("\e[31m"), never sent to the terminal. escape_name_n() takes @len
 * bytes instead.
 */
void escape_name(struct strbuf *sb, const char *s);
void escape_name_n(struct strbuf *sb, const char *s, size_t len);

/**
 * escape_json() - append @len bytes as the inside of a JSON string (no quotes)
 *
 * Valid UTF-8 stays as it is. Control characters become \n \t \r or \uXXXX of the
 * character (C0, DEL, C1 such as U+0085, and the bidirectional and invisible format controls
 * such as U+202E: a terminal showing the line acts on none). A byte that is not UTF-8 becomes
 * \udcXX (XX the byte): a lone surrogate, which is no character and cannot be taken for one
 * (\u00ff would read as 'ÿ'); Python's json module with surrogateescape gives the byte back.
 * The output is ASCII and valid JSON.
 */
void escape_json(struct strbuf *sb, const char *s, size_t len);

/**
 * escape_label() - append @len bytes as a Prometheus/OpenMetrics label value (inside its
 * quotes): backslash, '"' and newline escaped as the exposition formats want; other control
 * bytes and bytes that are not valid UTF-8 become the text \xHH (its backslash escaped), so
 * the value is valid UTF-8 and shows the bytes as escape_untrusted() would
 */
void escape_label(struct strbuf *sb, const char *s, size_t len);

/**
 * glob_match() - fnmatch(3) without FNM_PATHNAME: '*' also matches '/' and '.'; the '*' of
 * a Go pointer receiver "(*T)" is literal
 */
bool glob_match(const char *pattern, const char *s);
/**
 * has_glob() - true when @s has a glob meta character (* ? [), not counting "(*"
 */
bool has_glob(const char *s);

/**
 * str_distance() - Levenshtein distance, for "did you mean" hints
 * Return: the distance; 1000 for strings too long to bother.
 */
int str_distance(const char *a, const char *b);

/**
 * sanitize_ident() - @s made a C identifier for tracefs names (perf's rules): other
 * characters become '_', runs of '_' collapse, a leading digit gets '_' in front,
 * cut at @max characters
 * Return: a new string for free().
 */
char *sanitize_ident(const char *s, size_t max);

/**
 * has_source_ext() - the last path component of @name (@len bytes) ends in a source file's
 * extension: ".c", ".cpp", ".go", ".rs", ".S", ... The one list that tells a place
 * "orders.c:42" (file and line) from "main.run:3" (function and relative line), for PROBE
 * and for -L.
 */
bool has_source_ext(const char *name, size_t len);

/**
 * now_ns() - CLOCK_MONOTONIC in ns: timeouts and ticks (records carry the instance's trace
 * clock, which stream.c maps through tracing_clock_ref())
 */
uint64_t now_ns(void);

/**
 * thread_cpu_ns() - the calling thread's CPU time in ns (CLOCK_THREAD_CPUTIME_ID)
 */
uint64_t thread_cpu_ns(void);

#endif
