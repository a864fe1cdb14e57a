// SPDX-License-Identifier: GPL-2.0-or-later
/* parse-type.c - the TYPE of a cast or type assertion, spelled as C, C++, Go or Rust do */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define LOG_DOMAIN "parse"
#include "log.h"
#include "parse-internal.h"

void type_ref_free(struct type_ref *ty)
{
	if (!ty)
		return;
	free(ty->text);
	free(ty->name);
	free(ty);
}

/* word_before() - t[s..e) ends with word @w, preceded by a non-identifier character */
static bool word_before(const char *t, int s, int e, const char *w)
{
	int n = (int)strlen(w);

	return e - s >= n && !memcmp(t + e - n, w, n) && (e - n == s || !is_ident_char(t[e - n - 1]));
}

/* collapse() - t[s..e) with each run of blanks made one blank */
static char *collapse(const char *t, int s, int e)
{
	char *out = xmalloc(e - s + 1), *o = out;
	int i;

	for (i = s; i < e; i++) {
		if (is_blank(t[i])) {
			if (o > out && o[-1] == ' ')
				continue;
			*o++ = ' ';
		} else {
			*o++ = t[i];
		}
	}
	*o = '\0';
	return out;
}

static const char *const tag_words[] = {
	[TYPE_TAG_STRUCT] = "struct", [TYPE_TAG_UNION] = "union", [TYPE_TAG_ENUM] = "enum",
	[TYPE_TAG_CLASS] = "class",
};

/* check_type_chars() - the characters a type name may hold (C, C++ templates, Go, Rust) */
static int check_type_chars(struct parser *p, int s, int e)
{
	const char *t = p->t;
	int i, depth = 0;

	for (i = s; i < e; i++) {
		char c = t[i];

		if (c == '&') {
			diag_error(p->d, mkspan(i, 1), "cannot cast to a reference");
			diag_hint(p->d, "cast to a pointer: (T *)p");
			return -EINVAL;
		}
		if (c == '(' || c == '[' || c == '<')
			depth++;
		else if (c == ')' || c == ']' || c == '>')
			depth--;
		if (depth < 0)
			return diag_error(p->d, mkspan(i, 1), "unexpected '%c' in a type", c);
		if (is_ident_char(c) || is_blank(c) || strchr(":<>()[]*,.{}#/-", c))
			continue;
		if ((unsigned char)c < 0x20 || c == 0x7f)
			return diag_error(p->d, mkspan(i, 1), "unexpected control character in a type");
		return diag_error(p->d, mkspan(i, 1), "unexpected '%c' in a type", c);
	}
	if (depth)
		return diag_error(p->d, mkspan(s, e - s), "unbalanced brackets in type '%.*s'",
				  e - s, t + s);
	return 0;
}

/* strip_type_suffix() - count the '*'s after a C or C++ type name and drop its qualifiers */
static int strip_type_suffix(struct parser *p, struct type_ref *ty, int ns, int ne)
{
	const char *t = p->t;

	for (;;) {
		while (ne > ns && is_blank(t[ne - 1]))
			ne--;
		if (ne > ns && t[ne - 1] == '*') {
			ty->nr_ptr++;
			ne--;
		} else if (word_before(t, ns, ne, "const")) {
			ne -= 5;
		} else if (word_before(t, ns, ne, "volatile")) {
			ne -= 8;
		} else {
			return ne;
		}
	}
}

/* strip_type_prefix() - skip a C type's leading qualifiers and its tag word */
static int strip_type_prefix(struct parser *p, struct type_ref *ty, int ns, int ne)
{
	const char *t = p->t;
	size_t k;

	for (;;) {
		bool more = false;

		if (word_at(t, ns, ne, "const")) {
			ns += 5;
			more = true;
		} else if (word_at(t, ns, ne, "volatile")) {
			ns += 8;
			more = true;
		}
		for (k = 1; !more && !ty->tag && k < ARRAY_SIZE(tag_words); k++) {
			if (word_at(t, ns, ne, tag_words[k]) && ns + (int)strlen(tag_words[k]) < ne) {
				ty->tag = (enum type_tag)k;
				ns += (int)strlen(tag_words[k]);
				more = true;
			}
		}
		while (ns < ne && is_blank(t[ns]))
			ns++;
		if (!more)
			return ns;
	}
}

struct type_ref *parse_type(struct parser *p, int s, int e)
{
	const char *t = p->t;
	struct type_ref *ty;
	int ns, ne;

	while (s < e && is_blank(t[s]))
		s++;
	while (e > s && is_blank(t[e - 1]))
		e--;
	if (s == e) {
		diag_error(p->d, mkspan(s > 0 ? s - 1 : s, s > 0 ? 1 : 0), "expected a type");
		return NULL;
	}
	if (check_type_chars(p, s, e))
		return NULL;
	ty = xcalloc(1, sizeof(*ty));
	ty->span = mkspan(s, e - s);
	ns = s;
	ne = e;
	while (ns < ne && (t[ns] == '*' || is_blank(t[ns]))) {
		if (t[ns++] == '*')
			ty->nr_ptr++;
	}
	ty->go_prefix = ty->nr_ptr > 0;
	if (!ty->go_prefix) {
		ne = strip_type_suffix(p, ty, ns, ne);
		ns = strip_type_prefix(p, ty, ns, ne);
	}
	if (ns >= ne || strchr("*,)>]:", t[ns]) || isdigit((unsigned char)t[ns])) {
		diag_error(p->d, ty->span, "expected a type name in '%.*s'", e - s, t + s);
		type_ref_free(ty);
		return NULL;
	}
	ty->name_span = mkspan(ns, ne - ns);
	ty->name = collapse(t, ns, ne);
	ty->text = collapse(t, s, e);
	return ty;
}
