// SPDX-License-Identifier: GPL-2.0-or-later
/* util.c - allocation, strbuf, escaping of untrusted bytes, globs, names, the clock */
#include <ctype.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util.h"

static void *oom(void)
{
	fputs("upfront: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	return p ? p : oom();
}

void *xcalloc(size_t nmemb, size_t n)
{
	void *p = calloc(nmemb ? nmemb : 1, n ? n : 1);

	return p ? p : oom();
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	return p ? p : oom();
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	return p ? p : oom();
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	return p ? p : oom();
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb);
}

void strbuf_init(struct strbuf *sb)
{
	sb->alloc = 64;
	sb->len = 0;
	sb->buf = xmalloc(sb->alloc);
	sb->buf[0] = '\0';
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

char *strbuf_detach(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return s;
}

static void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;

	if (!sb->buf)
		strbuf_init(sb);
	if (want <= sb->alloc)
		return;
	while (sb->alloc < want)
		sb->alloc *= 2;
	sb->buf = xrealloc(sb->buf, sb->alloc);
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, n);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

const char *strbuf_cstr(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

/* utf8_decode() - length of the valid UTF-8 sequence at @s (<= @len bytes), its code point
 * in @cp; 0 if invalid (overlong, a surrogate, past U+10FFFF, cut short) */
static size_t utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
	size_t n, i;

	*cp = s[0];
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, *cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, *cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, *cp = s[0] & 0x07;
	else
		return 0;
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && *cp < 0x800) || (n == 4 && (*cp < 0x10000 || *cp > 0x10ffff)) ||
	    (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * A character that acts instead of showing: C1 controls (U+0080..U+009F act on some
 * terminals), the bidirectional controls (U+202E turns the rest of a line around:
 * "Trojan Source"), zero-width and other invisible format characters, the line and
 * paragraph separators.
 */
static bool cp_acts(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x180e ||
	       (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2060 && cp <= 0x206f) || cp == 0xfeff || (cp >= 0xfff9 && cp <= 0xfffb);
}

/* utf8_len() - length of the valid UTF-8 sequence at @s that may be shown as it is, or 0 */
static size_t utf8_len(const unsigned char *s, size_t len)
{
	uint32_t cp;
	size_t n = utf8_decode(s, len, &cp);

	return n && !cp_acts(cp) ? n : 0;
}

/*
 * escape_bytes() - the one rule for showing bytes that come from outside (a traced program,
 * a binary's names, the user's text) on a terminal or in a line-oriented listing: control
 * bytes, DEL, C1 controls and bytes that are not UTF-8 become visible escapes, so nothing
 * splits a line or reaches the terminal as a command. @quotes: escape '"' and '\' too (a
 * value shown inside quotes); names and messages keep them as they are.
 */
static void escape_bytes(struct strbuf *sb, const char *s, size_t len, bool quotes)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n, run;

	while (i < len) {
		unsigned char c = p[i];

		/* printable ASCII that needs no backslash goes out as one run (-F prints 40,000
		 * names: per-character work was half its time) */
		for (run = i; run < len && p[run] >= 0x20 && p[run] < 0x7f && p[run] != '\\' &&
			      p[run] != '"'; run++)
			;
		if (run > i) {
			strbuf_add(sb, p + i, run - i);
			i = run;
			continue;
		}
		switch (c) {
		case '\n': strbuf_addstr(sb, "\\n"); i++; continue;
		case '\t': strbuf_addstr(sb, "\\t"); i++; continue;
		case '\r': strbuf_addstr(sb, "\\r"); i++; continue;
		case 0x1b: strbuf_addstr(sb, "\\e"); i++; continue;
		case '\\':
		case '"':
			if (quotes)
				strbuf_addch(sb, '\\');
			strbuf_addch(sb, (char)c);
			i++;
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
			strbuf_addf(sb, "\\x%02x", c);
			i++;
			continue;
		}
		n = utf8_len(p + i, len - i);
		if (!n) {
			strbuf_addf(sb, "\\x%02x", c);
			i++;
			continue;
		}
		strbuf_add(sb, p + i, n);
		i += n;
	}
}

void escape_untrusted(struct strbuf *sb, const char *s, size_t len)
{
	escape_bytes(sb, s, len, true);
}

void escape_name(struct strbuf *sb, const char *s)
{
	if (s)
		escape_bytes(sb, s, strlen(s), false);
}

void escape_name_n(struct strbuf *sb, const char *s, size_t len)
{
	escape_bytes(sb, s, len, false);
}

void escape_label(struct strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		unsigned char c = p[i];

		switch (c) {
		case '\\': strbuf_addstr(sb, "\\\\"); i++; continue;
		case '"': strbuf_addstr(sb, "\\\""); i++; continue;
		case '\n': strbuf_addstr(sb, "\\n"); i++; continue;
		}
		n = c < 0x20 || c == 0x7f ? 0 : c < 0x80 ? 1 : utf8_len(p + i, len - i);
		if (!n) {
			/* the value reads \xHH: its backslash escaped as the format wants */
			strbuf_addf(sb, "\\\\x%02x", c);
			i++;
			continue;
		}
		strbuf_add(sb, p + i, n);
		i += n;
	}
}

void escape_json(struct strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;
	uint32_t cp;

	while (i < len) {
		unsigned char c = p[i];

		switch (c) {
		case '"': strbuf_addstr(sb, "\\\""); i++; continue;
		case '\\': strbuf_addstr(sb, "\\\\"); i++; continue;
		case '\n': strbuf_addstr(sb, "\\n"); i++; continue;
		case '\t': strbuf_addstr(sb, "\\t"); i++; continue;
		case '\r': strbuf_addstr(sb, "\\r"); i++; continue;
		}
		if (c < 0x20 || c == 0x7f) {
			strbuf_addf(sb, "\\u%04x", c);
			i++;
			continue;
		}
		n = utf8_decode(p + i, len - i, &cp);
		if (!n) {
			/*
			 * A byte that is not UTF-8: JSON has no bytes. Not "\u00ff", which
			 * reads as the character U+00FF: the lone surrogate U+DC00 + byte, as
			 * Python's surrogateescape (PEP 383) writes it, which no text holds and
			 * which decodes back to the byte there.
			 */
			strbuf_addf(sb, "\\udc%02x", c);
			i++;
			continue;
		}
		if (cp_acts(cp))
			strbuf_addf(sb, "\\u%04x", (unsigned int)cp);	/* the character, inert */
		else
			strbuf_add(sb, p + i, n);
		i += n;
	}
}

/*
 * Go names a method on a pointer receiver "main.(*server).handleRequest": a '*' right after
 * '(' is part of the name, never a wildcard. glob_pattern() escapes it for fnmatch().
 */
static char *glob_pattern(const char *pattern)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	strbuf_init(&sb);
	for (p = pattern; *p; p++) {
		if (*p == '*' && p > pattern && p[-1] == '(')
			strbuf_addch(&sb, '\\');
		strbuf_addch(&sb, *p);
	}
	return strbuf_detach(&sb);
}

bool glob_match(const char *pattern, const char *s)
{
	char *pat;
	bool ok;

	if (!strstr(pattern, "(*"))
		return fnmatch(pattern, s, 0) == 0;
	pat = glob_pattern(pattern);
	ok = fnmatch(pat, s, 0) == 0;
	free(pat);
	return ok;
}

bool has_glob(const char *s)
{
	const char *p;

	for (p = s; *p; p++) {
		if (*p == '?' || *p == '[')
			return true;
		if (*p == '*' && !(p > s && p[-1] == '('))
			return true;
	}
	return false;
}

int str_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int *row, best;

	if (la > 256 || lb > 256)
		return 1000;
	row = xmalloc((lb + 1) * sizeof(*row));
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		int prev = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			int cur = row[j];
			int cost = a[i - 1] == b[j - 1] ? 0 : 1;
			int v = prev + cost;

			if (row[j] + 1 < v)
				v = row[j] + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			row[j] = v;
			prev = cur;
		}
	}
	best = row[lb];
	free(row);
	return best;
}

char *sanitize_ident(const char *s, size_t max)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_init(&sb);
	if (isdigit((unsigned char)*s))
		strbuf_addch(&sb, '_');
	for (; *s && sb.len < max; s++) {
		char c = isalnum((unsigned char)*s) ? *s : '_';

		if (c == '_' && sb.len && sb.buf[sb.len - 1] == '_')
			continue;
		strbuf_addch(&sb, c);
	}
	/* a trailing '_' left by ')' or '*' carries nothing */
	while (sb.len > 1 && sb.buf[sb.len - 1] == '_')
		sb.buf[--sb.len] = '\0';
	if (!sb.len)
		strbuf_addch(&sb, '_');
	return strbuf_detach(&sb);
}

void strlist_addn(struct strlist *l, const char *s, size_t n)
{
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr++] = xstrndup(s, n);
}

void strlist_add(struct strlist *l, const char *s)
{
	strlist_addn(l, s, strlen(s));
}

void strlist_release(struct strlist *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}

/*
 * Extensions of the source files compilers name in DWARF (C, C++, Go, Rust, assembler,
 * Objective-C, yacc and lex sources that #line points to), as they are spelled.
 */
static const char *const source_exts[] = {
	"c", "h", "cc", "cp", "cpp", "cxx", "c++", "C", "H", "hh", "hpp", "hxx", "h++",
	"ipp", "tcc", "inl", "inc", "go", "rs", "s", "S", "m", "mm", "y", "l",
};

bool has_source_ext(const char *name, size_t len)
{
	const char *end = name + len, *dot = NULL;

	for (const char *p = end; p > name && p[-1] != '/'; p--) {
		if (p[-1] == '.') {
			dot = p - 1;
			break;
		}
	}
	if (!dot)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(source_exts); i++)
		if (strlen(source_exts[i]) == (size_t)(end - dot - 1) &&
		    !memcmp(dot + 1, source_exts[i], (size_t)(end - dot - 1)))
			return true;
	return false;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static size_t strmap_slot(const struct strmap *t, const char *key)
{
	uint64_t h = 14695981039346656037ULL;
	size_t i;

	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	for (i = (size_t)h & (t->cap - 1); t->keys[i] && strcmp(t->keys[i], key);
	     i = (i + 1) & (t->cap - 1))
		;
	return i;
}

void strmap_init(struct strmap *t, size_t expect)
{
	t->cap = 16;
	while (t->cap < expect * 2)
		t->cap *= 2;
	t->keys = xcalloc(t->cap, sizeof(*t->keys));
	t->vals = xcalloc(t->cap, sizeof(*t->vals));
	t->nr = 0;
}

void strmap_release(struct strmap *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->keys[i]);
	free(t->keys);
	free(t->vals);
	memset(t, 0, sizeof(*t));
}

size_t *strmap_find(const struct strmap *t, const char *key)
{
	size_t i = strmap_slot(t, key);

	return t->keys[i] ? &t->vals[i] : NULL;
}

size_t *strmap_add(struct strmap *t, const char *key, size_t val, bool *added)
{
	size_t i;

	if ((t->nr + 1) * 2 > t->cap) {
		struct strmap big;

		strmap_init(&big, t->nr + 1);
		for (size_t k = 0; k < t->cap; k++) {
			if (!t->keys[k])
				continue;
			i = strmap_slot(&big, t->keys[k]);
			big.keys[i] = t->keys[k];
			big.vals[i] = t->vals[k];
		}
		big.nr = t->nr;
		free(t->keys);
		free(t->vals);
		*t = big;
	}
	i = strmap_slot(t, key);
	*added = !t->keys[i];
	if (*added) {
		t->keys[i] = xstrdup(key);
		t->vals[i] = val;
		t->nr++;
	}
	return &t->vals[i];
}
