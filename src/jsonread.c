// SPDX-License-Identifier: GPL-2.0-or-later
/* jsonread.c - a recursive-descent JSON reader (RFC 8259), for saved runs */
#define LOG_DOMAIN "json"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"
#include "log.h"
#include "util.h"

#define MAX_DEPTH 64

struct reader {
	const char *s;
	size_t len, pos;
	int depth;
};

static void blanks(struct reader *r)
{
	while (r->pos < r->len && strchr(" \t\r\n", r->s[r->pos]) && r->s[r->pos])
		r->pos++;
}

static int value(struct reader *r, struct json *v);

static bool lit(struct reader *r, const char *w)
{
	size_t n = strlen(w);

	if (r->len - r->pos < n || memcmp(r->s + r->pos, w, n))
		return false;
	r->pos += n;
	return true;
}

static int hex4(struct reader *r, unsigned int *cp)
{
	*cp = 0;
	if (r->len - r->pos < 4)
		return -EINVAL;
	for (int i = 0; i < 4; i++) {
		char c = r->s[r->pos++];

		*cp <<= 4;
		if (c >= '0' && c <= '9')
			*cp |= c - '0';
		else if (c >= 'a' && c <= 'f')
			*cp |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			*cp |= c - 'A' + 10;
		else
			return -EINVAL;
	}
	return 0;
}

static void put_utf8(struct strbuf *sb, unsigned int cp)
{
	if (cp < 0x80) {
		strbuf_addch(sb, (char)cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, (char)(0xc0 | cp >> 6));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, (char)(0xe0 | cp >> 12));
		strbuf_addch(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addch(sb, (char)(0xf0 | cp >> 18));
		strbuf_addch(sb, (char)(0x80 | ((cp >> 12) & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(sb, (char)(0x80 | (cp & 0x3f)));
	}
}

static int escape(struct reader *r, struct strbuf *sb)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *p;
	unsigned int cp, lo;

	if (r->pos >= r->len)
		return -EINVAL;
	p = strchr(from, r->s[r->pos]);
	if (p && *p) {
		strbuf_addch(sb, to[p - from]);
		r->pos++;
		return 0;
	}
	if (r->s[r->pos++] != 'u' || hex4(r, &cp) < 0)
		return -EINVAL;
	/* a surrogate pair is one code point */
	if (cp >= 0xd800 && cp < 0xdc00 && lit(r, "\\u") && hex4(r, &lo) == 0 &&
	    lo >= 0xdc00 && lo < 0xe000)
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	put_utf8(sb, cp);
	return 0;
}

static int string(struct reader *r, char **out, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_init(&sb);
	r->pos++;	/* the opening quote */
	while (r->pos < r->len && r->s[r->pos] != '"') {
		unsigned char c = r->s[r->pos];

		if (c < 0x20)
			goto bad;
		if (c == '\\') {
			r->pos++;
			if (escape(r, &sb) < 0)
				goto bad;
			continue;
		}
		strbuf_addch(&sb, (char)c);
		r->pos++;
	}
	if (r->pos >= r->len)
		goto bad;
	r->pos++;
	*len = sb.len;
	*out = strbuf_detach(&sb);
	return 0;
bad:
	strbuf_release(&sb);
	return -EINVAL;
}

static int number(struct reader *r, struct json *v)
{
	const char *start = r->s + r->pos;
	size_t i = r->pos;
	char *end, *text;

	v->type = JSON_NUMBER;
	v->is_int = true;
	if (i < r->len && r->s[i] == '-')
		i++;
	if (i >= r->len || r->s[i] < '0' || r->s[i] > '9')
		return -EINVAL;
	while (i < r->len && ((r->s[i] >= '0' && r->s[i] <= '9') || strchr(".eE+-", r->s[i]))) {
		if (strchr(".eE", r->s[i]))
			v->is_int = false;
		i++;
	}
	text = xstrndup(start, i - r->pos);
	v->num = strtod(text, &end);
	if (*end) {
		free(text);
		return -EINVAL;
	}
	v->negative = text[0] == '-';
	if (v->is_int) {
		errno = 0;
		v->u = strtoull(text + v->negative, NULL, 10);
		if (errno)
			v->is_int = false;	/* past 64 bits: only the double */
	}
	free(text);
	r->pos = i;
	return 0;
}

static int members(struct reader *r, struct json *v, bool object)
{
	size_t alloc = 0;

	r->pos++;
	blanks(r);
	if (r->pos < r->len && r->s[r->pos] == (object ? '}' : ']')) {
		r->pos++;
		return 0;
	}
	for (;;) {
		char *key = NULL;
		size_t klen;

		blanks(r);
		if (object) {
			if (r->pos >= r->len || r->s[r->pos] != '"' || string(r, &key, &klen) < 0)
				return -EINVAL;
			blanks(r);
			if (r->pos >= r->len || r->s[r->pos++] != ':') {
				free(key);
				return -EINVAL;
			}
		}
		ALLOC_GROW(v->kids, v->nr + 1, alloc);
		if (object) {
			v->keys = xrealloc(v->keys, alloc * sizeof(*v->keys));
			v->keys[v->nr] = key;
		}
		memset(&v->kids[v->nr], 0, sizeof(v->kids[0]));
		v->nr++;
		if (value(r, &v->kids[v->nr - 1]) < 0)
			return -EINVAL;
		blanks(r);
		if (r->pos < r->len && r->s[r->pos] == ',') {
			r->pos++;
			continue;
		}
		if (r->pos < r->len && r->s[r->pos] == (object ? '}' : ']')) {
			r->pos++;
			return 0;
		}
		return -EINVAL;
	}
}

static int value(struct reader *r, struct json *v)
{
	int ret;
	char c;

	blanks(r);
	if (r->pos >= r->len || ++r->depth > MAX_DEPTH)
		return -EINVAL;
	v->raw = r->s + r->pos;
	c = r->s[r->pos];
	if (c == '{' || c == '[') {
		v->type = c == '{' ? JSON_OBJECT : JSON_ARRAY;
		ret = members(r, v, c == '{');
	} else if (c == '"') {
		v->type = JSON_STRING;
		ret = string(r, &v->str, &v->len);
	} else if (lit(r, "true") || lit(r, "false")) {
		v->type = JSON_BOOL;
		v->b = c == 't';
		ret = 0;
	} else if (lit(r, "null")) {
		v->type = JSON_NULL;
		ret = 0;
	} else {
		ret = number(r, v);
	}
	v->raw_len = r->s + r->pos - v->raw;
	r->depth--;
	return ret;
}

int json_parse(const char *text, size_t len, struct json *out, size_t *err_at)
{
	struct reader r = { .s = text, .len = len };

	memset(out, 0, sizeof(*out));
	if (value(&r, out) == 0) {
		blanks(&r);
		if (r.pos == len)
			return 0;
	}
	if (err_at)
		*err_at = r.pos;
	json_release(out);
	return -EINVAL;
}

void json_release(struct json *v)
{
	for (size_t i = 0; i < v->nr; i++) {
		if (v->keys)
			free(v->keys[i]);
		json_release(&v->kids[i]);
	}
	free(v->keys);
	free(v->kids);
	free(v->str);
	memset(v, 0, sizeof(*v));
}

const struct json *json_get(const struct json *v, const char *key)
{
	if (!v || v->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->keys[i], key))
			return &v->kids[i];
	return NULL;
}
