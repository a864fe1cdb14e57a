// SPDX-License-Identifier: GPL-2.0-or-later
/* parse.c - PROBE text -> struct probe_spec: place, arguments, expressions, types */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define LOG_DOMAIN "parse"
#include "fetcharg.h"
#include "log.h"
#include "parse.h"

/* Deeper nesting than this is not a real expression; it only protects the stack. */
#define MAX_EXPR_DEPTH 64

struct parser {
	const char *t;		/* spec->text; every span indexes it */
	struct diag *d;
	int pos;		/* expression parser: current character */
	int end;		/* expression parser: end of the expression */
	int depth;
};

static struct span mkspan(int start, int len)
{
	return (struct span){ start, len };
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Identifier characters: C's, plus any byte of a UTF-8 sequence (Go allows Unicode letters). */
static bool is_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

static bool is_ident_char(char c)
{
	return is_ident_start(c) || isdigit((unsigned char)c);
}

/* is_c_ident() - [A-Za-z_][A-Za-z0-9_]* over t[s..e) */
static bool is_c_ident(const char *t, int s, int e)
{
	int i;

	if (s >= e || !(isalpha((unsigned char)t[s]) || t[s] == '_'))
		return false;
	for (i = s + 1; i < e; i++)
		if (!(isalnum((unsigned char)t[i]) || t[i] == '_'))
			return false;
	return true;
}

static bool word_is(const char *t, int s, int e, const char *w)
{
	return (int)strlen(w) == e - s && !memcmp(t + s, w, e - s);
}

/*
 * parse_num() - a non-negative number over t[s..e): decimal, or hex with 0x if @hex_ok
 * Return: 0, -EINVAL if it is not a number, -ERANGE if it does not fit a long.
 */
static int parse_num(const char *t, int s, int e, bool hex_ok, unsigned long max,
		     unsigned long *out)
{
	unsigned long v = 0;
	int base = 10, i = s;

	if (s >= e)
		return -EINVAL;
	if (hex_ok && e - s > 2 && t[s] == '0' && (t[s + 1] == 'x' || t[s + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	for (; i < e; i++) {
		unsigned int dg;
		char c = t[i];

		if (isdigit((unsigned char)c))
			dg = c - '0';
		else if (base == 16 && isxdigit((unsigned char)c))
			dg = tolower((unsigned char)c) - 'a' + 10;
		else
			return -EINVAL;
		if (v > (max - dg) / base)
			return -ERANGE;
		v = v * base + dg;
	}
	*out = v;
	return 0;
}

/* "NAME.EXT:LINE" with a source file's extension (has_source_ext()) is a file and line. */
static bool looks_like_file(const char *t, int s, int e)
{
	int i, comp = s, dot = -1;

	for (i = s; i < e; i++) {
		if (t[i] == '/')
			comp = i + 1, dot = -1;
		else if (t[i] == '.')
			dot = i;
		else if (strchr("()*?[]<>:", t[i]))
			return false;
	}
	if (dot < 0 || dot == comp || dot + 1 >= e)
		return false;
	return has_source_ext(t + s, (size_t)(e - s));
}

/* After the C++ keyword "operator" at t[i..]: how many characters the operator takes. */
static int operator_len(const char *t, int i, int e)
{
	int k = i;

	if (k + 1 < e && ((t[k] == '(' && t[k + 1] == ')') || (t[k] == '[' && t[k + 1] == ']')))
		return 2;
	while (k < e && strchr("+-*/%^&|~!=<>,", t[k]))
		k++;
	return k - i;
}

static bool at_operator_keyword(const char *t, int s, int i, int e)
{
	return e - i >= 8 && !memcmp(t + i, "operator", 8) &&
	       (i == s || !is_ident_char(t[i - 1])) && (i + 8 == e || !is_ident_char(t[i + 8]));
}

/*
 * check_func() - a function name or glob over t[s..e): balanced () and [], no stray
 * ':' '+' '%' '=' (those belong to a place suffix or an EVENT=), no quotes.
 */
static int check_func(struct parser *p, int s, int e, bool had_event)
{
	const char *t = p->t;
	int stack[MAX_EXPR_DEPTH], sp = 0, angle = 0, i;

	for (i = s; i < e; i++) {
		char c = t[i];

		if (at_operator_keyword(t, s, i, e)) {
			i += 8;
			while (i < e && t[i] == ' ')
				i++;
			i += operator_len(t, i, e) - 1;
			continue;
		}
		switch (c) {
		case '(':
		case '[':
			if (sp == MAX_EXPR_DEPTH)
				return diag_error(p->d, mkspan(i, 1), "function name nested too deeply");
			stack[sp++] = i;
			continue;
		case ')':
		case ']':
			if (!sp || t[stack[sp - 1]] != (c == ')' ? '(' : '['))
				return diag_error(p->d, mkspan(i, 1), "unexpected '%c'", c);
			sp--;
			continue;
		case ':':
			if (i + 1 < e && t[i + 1] == ':') {
				i++;
				continue;
			}
			return diag_error(p->d, mkspan(i, 1), "expected a line number after ':'");
		case '+':
			return diag_error(p->d, mkspan(i, 1),
					  "expected a decimal or 0x offset after '+'");
		case '%':
			if (e - i >= 7 && !memcmp(t + i, "%return", 7))
				return diag_error(p->d, mkspan(i, 7), "'%%return' must end the place");
			return diag_error(p->d, mkspan(i, 1), "expected 'return' after '%%'");
		case '=':
			if (had_event || memchr(t + s, '=', i - s) || (i + 1 < e && t[i + 1] == '='))
				return diag_error(p->d, mkspan(i, 1), "unexpected '='");
			if (i == s)
				return diag_error(p->d, mkspan(i, 1),
						  "expected an event name before '='");
			return diag_error(p->d, mkspan(s, i - s),
					  "event name '%.*s' is not a C identifier", i - s, t + s);
		case '@':
			return diag_error(p->d, mkspan(i, 1), "unexpected '@'");
		case '\'':
		case '"':
		case '\\':
		case ';':
			return diag_error(p->d, mkspan(i, 1), "unexpected '%c' in function name", c);
		default:
			if ((unsigned char)c < 0x20 || c == 0x7f)
				return diag_error(p->d, mkspan(i, 1),
						  "unexpected control character in function name");
			if (c == '<')
				angle++;
			else if (c == '>' && angle)
				angle--;
			else if (is_blank(c) && !sp && !angle)
				return diag_error(p->d, mkspan(i, 1), "unexpected blank");
		}
	}
	if (sp)
		return diag_error(p->d, mkspan(stack[sp - 1], 1), "unterminated '%c'",
				  t[stack[sp - 1]]);
	return 0;
}

enum suffix_kind { SUF_RETURN, SUF_OFFSET, SUF_LINE };

static const char *const suffix_names[] = { "'%return'", "'+OFFSET'", "':LINE'" };

/*
 * place_suffix() - the place suffix ending at @e, if any: "%return", "+NUM" or ":NUM"
 * (a single ':'). Return: 1 with *kind, *at (its first character) and *val, 0 if none,
 * or -EINVAL for a suffix whose number is malformed.
 */
static int place_suffix(struct parser *p, int s, int e, enum suffix_kind *kind, int *at,
			unsigned long *val)
{
	const char *t = p->t;
	int k = e, r;

	if (e - s >= 7 && !memcmp(t + e - 7, "%return", 7)) {
		*kind = SUF_RETURN;
		*at = e - 7;
		return 1;
	}
	while (k > s && isalnum((unsigned char)t[k - 1]))
		k--;
	if (k == e || k == s || !isdigit((unsigned char)t[k]))
		return 0;
	if (t[k - 1] == '+') {
		if (k - 9 >= s && at_operator_keyword(t, s, k - 9, k - 1))
			return 0; /* "operator+" followed by digits is not a place suffix */
		r = parse_num(t, k, e, true, ULONG_MAX, val);
		if (r == -ERANGE)
			return diag_error(p->d, mkspan(k, e - k), "offset too large");
		if (r)
			return diag_error(p->d, mkspan(k, e - k),
					  "expected a decimal or 0x offset after '+'");
		*kind = SUF_OFFSET;
		*at = k - 1;
		return 1;
	}
	if (t[k - 1] == ':' && (k - 1 == s || t[k - 2] != ':')) {
		r = parse_num(t, k, e, false, INT_MAX, val);
		if (r == -ERANGE)
			return diag_error(p->d, mkspan(k, e - k), "line number too large");
		if (r)
			return diag_error(p->d, mkspan(k, e - k),
					  "expected a decimal line number after ':'");
		*kind = SUF_LINE;
		*at = k - 1;
		return 1;
	}
	return 0;
}

/* An SDT provider or probe name: identifier characters and glob characters. */
static bool is_sdt_name(const char *t, int s, int e)
{
	for (int i = s; i < e; i++)
		if (!is_ident_char(t[i]) && !strchr("*?[]", t[i]))
			return false;
	return s < e;
}

/*
 * parse_sdt_place() - "sdt_PROVIDER:NAME" or "%sdt_PROVIDER:NAME" (perf's spellings)
 * Return: 1 with @pl filled, 0 when t[s..e) is not an SDT place (a function "sdt_x:12"
 * with a line), or -EINVAL.
 */
static int parse_sdt_place(struct parser *p, struct probe_place *pl, int s, int e)
{
	const char *t = p->t;
	int ps = s, colon, k;

	if (t[ps] == '%')
		ps++;
	if (e - ps < 4 || memcmp(t + ps, "sdt_", 4))
		return 0;
	for (colon = ps; colon < e && t[colon] != ':'; colon++)
		;
	if (colon == e || (colon + 1 < e && t[colon + 1] == ':'))
		return ps > s ? diag_error(p->d, mkspan(s, e - s), "expected %%sdt_PROVIDER:NAME")
			      : 0;
	for (k = colon + 1; k < e && isdigit((unsigned char)t[k]); k++)
		;
	if (k == e && ps == s && k > colon + 1)
		return 0;	/* FUNC:LINE of a function whose name starts with sdt_ */
	if (e - colon > 7 && !memcmp(t + e - 7, "%return", 7))
		return diag_error(p->d, mkspan(e - 7, 7), "an SDT probe has no '%%return'");
	if (!is_sdt_name(t, ps + 4, colon))
		return diag_error(p->d, mkspan(ps, colon - ps),
				  "expected an SDT provider after 'sdt_'");
	if (!is_sdt_name(t, colon + 1, e)) {
		for (k = colon + 1; k < e && (is_ident_char(t[k]) || strchr("*?[]", t[k])); k++)
			;
		if (k == e)
			return diag_error(p->d, mkspan(colon, 1), "expected an SDT probe name after ':'");
		return diag_error(p->d, mkspan(k, 1), "unexpected '%c' in an SDT probe name", t[k]);
	}
	pl->kind = PLACE_SDT;
	pl->provider = xstrndup(t + ps + 4, colon - ps - 4);
	pl->func = xstrndup(t + colon + 1, e - colon - 1);
	return 1;
}

static int parse_place(struct parser *p, struct probe_place *pl, int s, int e, bool had_event)
{
	const char *t = p->t;
	int fe = e, first_at = -1, first_end = e, at = 0, r, i;
	enum suffix_kind kind = SUF_RETURN, first = SUF_RETURN;
	unsigned long val;

	pl->span = mkspan(s, e - s);
	if (s == e)
		return diag_error(p->d, mkspan(s, 0),
				  "expected a function, SRCFILE:LINE or 0xADDR");

	if (e - s >= 2 && t[s] == '0' && (t[s + 1] == 'x' || t[s + 1] == 'X')) {
		r = parse_num(t, s, e, true, ULONG_MAX, &val);
		if (r == -ERANGE)
			return diag_error(p->d, pl->span, "address too large");
		if (r || e - s == 2)
			return diag_error(p->d, pl->span, "expected a hex address after '0x'");
		pl->kind = PLACE_ADDR;
		pl->addr = val;
		return 0;
	}
	r = parse_sdt_place(p, pl, s, e);
	if (r)
		return r < 0 ? r : 0;
	if (isdigit((unsigned char)t[s])) {
		diag_error(p->d, pl->span, "expected a function, SRCFILE:LINE or 0xADDR");
		diag_hint(p->d, "an address is written in hex: 0x...");
		return -EINVAL;
	}

	/* Suffixes, right to left; only one is allowed. */
	while ((r = place_suffix(p, s, fe, &kind, &at, &val)) > 0) {
		if (first_at >= 0) {
			struct span sp = mkspan(first_at, first_end - first_at);

			if (kind == first)
				return diag_error(p->d, sp, "only one %s is allowed",
						  suffix_names[kind]);
			if (kind == SUF_RETURN || first == SUF_RETURN)
				return diag_error(p->d, sp, "'%%return' cannot be combined with %s",
						  suffix_names[kind == SUF_RETURN ? first : kind]);
			return diag_error(p->d, sp, "':LINE' cannot be combined with '+OFFSET'");
		}
		first = kind;
		first_at = at;
		switch (kind) {
		case SUF_RETURN:
			pl->is_return = true;
			break;
		case SUF_OFFSET:
			pl->has_offset = true;
			pl->offset = val;
			break;
		case SUF_LINE:
			pl->has_line = true;
			pl->line = (long)val;
			break;
		}
		fe = at;
	}
	if (r < 0)
		return r;
	if (fe == s)
		return diag_error(p->d, mkspan(s, e - s), "expected a function name before %s",
				  suffix_names[first]);

	/* FUNC@SRCFILE */
	for (i = s; i < fe; i++)
		if (t[i] == '@')
			break;
	if (i < fe) {
		if (i == s)
			return diag_error(p->d, mkspan(i, 1),
					  "expected a function name before '@'");
		if (i + 1 == fe)
			return diag_error(p->d, mkspan(i, 1),
					  "expected a source file after '@'");
		for (r = i + 1; r < fe; r++) {
			if (t[r] == '@')
				return diag_error(p->d, mkspan(r, 1), "unexpected '@'");
			if (is_blank(t[r]) || (unsigned char)t[r] < 0x20 || t[r] == 0x7f)
				return diag_error(p->d, mkspan(r, 1),
						  "unexpected blank or control character in file name");
		}
		pl->srcfile = xstrndup(t + i + 1, fe - i - 1);
		fe = i;
	} else if (pl->has_line && looks_like_file(t, s, fe)) {
		pl->kind = PLACE_SRCLINE;
		pl->srcfile = xstrndup(t + s, fe - s);
		return 0;
	}
	r = check_func(p, s, fe, had_event);
	if (r)
		return r;
	pl->kind = PLACE_FUNC;
	pl->func = xstrndup(t + s, fe - s);
	return 0;
}

static struct expr *expr_new(enum expr_kind kind, struct span sp)
{
	struct expr *e = xcalloc(1, sizeof(*e));

	e->kind = kind;
	e->span = sp;
	return e;
}

static void type_ref_free(struct type_ref *ty)
{
	if (!ty)
		return;
	free(ty->text);
	free(ty->name);
	free(ty);
}

static void expr_free(struct expr *e)
{
	while (e) {
		struct expr *base = e->base;

		free(e->name);
		type_ref_free(e->type);
		free(e);
		e = base;
	}
}

/*
 * match_close() - the index of the bracket that closes t[open] ('(', '[' or '<'), or -1 when
 * it is not closed before @end or brackets cross; the '>' of "->" is no bracket
 */
static int match_close(const char *t, int open, int end)
{
	char stack[MAX_EXPR_DEPTH];
	int sp = 0, i;

	for (i = open; i < end; i++) {
		char c = t[i], want;

		if (c == '(' || c == '[' || c == '<') {
			if (sp == MAX_EXPR_DEPTH)
				return -1;
			stack[sp++] = c;
			continue;
		}
		if (c != ')' && c != ']' && c != '>')
			continue;
		if (c == '>' && i > open && t[i - 1] == '-')
			continue;
		want = c == ')' ? '(' : c == ']' ? '[' : '<';
		if (!sp || stack[sp - 1] != want)
			return -1;
		if (--sp == 0)
			return i;
	}
	return -1;
}

/* word_at() - t[s..e) starts with word @w, followed by a non-identifier character */
static bool word_at(const char *t, int s, int e, const char *w)
{
	int n = (int)strlen(w);

	return e - s >= n && !memcmp(t + s, w, n) && (e - s == n || !is_ident_char(t[s + n]));
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

/*
 * parse_type() - the type of a cast over t[s..e): "struct inner *", "const char *",
 * "caf::(anonymous namespace)::wrapper *", "std::map<int, char> *", Go's "*main.T"
 * Return: a new type_ref, or NULL with p->d filled.
 */
static struct type_ref *parse_type(struct parser *p, int s, int e)
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

/*
 * scan_name() - the end of a name starting at @i, or @i if there is none: an identifier,
 * C++ qualified (a::b::c); at the start of an expression also "::global" and Go's
 * compiler names "~r0" and ".autotmp_5".
 */
static int scan_name(struct parser *p, int i, bool expr_start)
{
	const char *t = p->t;
	int e = p->end, start = i;

	if (expr_start) {
		if (i + 2 < e && t[i] == ':' && t[i + 1] == ':' && is_ident_start(t[i + 2]))
			i += 2;
		else if (i + 1 < e && (t[i] == '~' || t[i] == '.') && is_ident_start(t[i + 1]))
			i++;
	}
	if (i >= e || !is_ident_start(t[i]))
		return start;
	while (i < e) {
		if (is_ident_char(t[i]))
			i++;
		else if (i + 2 < e && t[i] == ':' && t[i + 1] == ':' && is_ident_start(t[i + 2]))
			i += 2;
		else
			break;
	}
	return i;
}

static struct expr *parse_unary(struct parser *p);
static struct expr *parse_primary(struct parser *p);

/* What may follow "(TYPE)" to make it a cast: the start of an operand. */
static bool is_operand_start(const char *t, int i, int e)
{
	char c = t[i];

	return is_ident_start(c) || c == '(' || c == '*' || c == '$' || c == '%' ||
	       (c == '~' && i + 1 < e && is_ident_start(t[i + 1])) ||
	       (c == ':' && i + 2 < e && t[i + 1] == ':' && is_ident_start(t[i + 2]));
}

/* "(...)" holds a type, not an expression, when it can only be one: "T *", "struct s" */
static bool looks_like_type(const char *t, int s, int e)
{
	static const char *const words[] = {
		"struct", "union", "enum", "class", "const", "volatile", "unsigned", "signed",
	};
	size_t i;

	while (s < e && is_blank(t[s]))
		s++;
	while (e > s && is_blank(t[e - 1]))
		e--;
	if (e > s && t[e - 1] == '*')
		return true;
	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (word_at(t, s, e, words[i]) && s + (int)strlen(words[i]) < e)
			return true;
	return false;
}

/*
 * parse_group() - the expression inside t[open] ... t[close], which must be all of it
 * Return: the expression, or NULL with p->d filled; p->pos is after @close.
 */
static struct expr *parse_group(struct parser *p, int open, int close)
{
	const char *t = p->t;
	int end = p->end;
	struct expr *x;

	p->pos = open + 1;
	p->end = close;
	x = parse_unary(p);
	p->end = end;
	if (x && p->pos < close) {
		if (t[p->pos] == '-' && p->pos + 1 < close && t[p->pos + 1] == '>')
			diag_error(p->d, mkspan(p->pos, 2), "expected a field name after '->'");
		else if (is_blank(t[p->pos]))
			diag_error(p->d, mkspan(p->pos, 1), "unexpected blank in an expression");
		else
			diag_error(p->d, mkspan(p->pos, 1), "expected '%c', not '%c'", t[close],
				   t[p->pos]);
		expr_free(x);
		return NULL;
	}
	p->pos = close + 1;
	return x;
}

/*
 * parse_cast() - "(TYPE)EXPR" with t[open] '(' and t[close] ')': C's cast, whose operand is
 * a unary expression ("(T *)p->x" and "(T *)(p)->x" cast p->x); with a Go type, "(TYPE)(EXPR)"
 * is Go's conversion, a primary ("(*main.T)(p).x" is a field of the converted p)
 */
static struct expr *parse_cast(struct parser *p, int open, int close)
{
	const char *t = p->t;
	struct type_ref *ty = parse_type(p, open + 1, close);
	struct expr *x, *base;

	if (!ty)
		return NULL;
	p->pos = close + 1;
	if (p->pos >= p->end || !is_operand_start(t, p->pos, p->end)) {
		if (p->pos < p->end)
			diag_error(p->d, mkspan(p->pos, 1), "expected an expression after the cast "
				   "to '%s', not '%c'", ty->text, t[p->pos]);
		else
			diag_error(p->d, mkspan(open, close + 1 - open),
				   "expected an expression after the cast to '%s'", ty->text);
		type_ref_free(ty);
		return NULL;
	}
	x = expr_new(EXPR_CAST, mkspan(open, 0));
	x->type = ty;
	/* only Go's types ("*main.T", "main.T": a '.' no C or C++ type name has) convert */
	x->paren = t[p->pos] == '(' && (ty->go_prefix || strchr(ty->name, '.'));
	if (t[p->pos] == '%') {
		int k;

		for (k = p->pos + 1; k < p->end && isalnum((unsigned char)t[k]); k++)
			;
		base = expr_new(EXPR_REG, mkspan(p->pos, k - p->pos));
		base->name = xstrndup(t + p->pos + 1, k - p->pos - 1);
		if (k == p->pos + 1) {
			diag_error(p->d, mkspan(p->pos, 1), "expected a register name after '%%'");
			expr_free(base);
			base = NULL;
		}
		p->pos = k;
	} else {
		base = x->paren ? parse_primary(p) : parse_unary(p);
	}
	if (!base) {
		expr_free(x);
		return NULL;
	}
	x->base = base;
	x->span.len = p->pos - open;
	return x;
}

/* C++'s casts by keyword, "dynamic_cast<T *>(p)", and "typeid(p)"; @k ends the keyword */
static struct expr *parse_keyword(struct parser *p, int s, int k, bool *matched)
{
	const char *t = p->t;
	bool dyn = word_is(t, s, k, "dynamic_cast"), tid = word_is(t, s, k, "typeid");
	int lt = -1, gt = -1, open = k, close;
	struct type_ref *ty = NULL;
	struct expr *x, *base;

	*matched = false;
	if (!dyn && !tid && !word_is(t, s, k, "static_cast") &&
	    !word_is(t, s, k, "reinterpret_cast"))
		return NULL;
	if (k >= p->end || t[k] != (tid ? '(' : '<'))
		return NULL;	/* a variable of that name */
	*matched = true;
	if (!tid) {
		lt = k;
		gt = match_close(t, lt, p->end);
		if (gt < 0) {
			diag_error(p->d, mkspan(lt, 1), "unterminated '<'");
			return NULL;
		}
		ty = parse_type(p, lt + 1, gt);
		if (!ty)
			return NULL;
		if (dyn && !ty->nr_ptr) {
			diag_error(p->d, ty->span, "dynamic_cast needs a pointer type");
			diag_hint(p->d, "dynamic_cast<%s *>(p)", ty->text);
			type_ref_free(ty);
			return NULL;
		}
		open = gt + 1;
	}
	if (open >= p->end || t[open] != '(') {
		diag_error(p->d, mkspan(open < p->end ? open : open - 1, 1),
			   "expected '(' after '%.*s'", open - s, t + s);
		type_ref_free(ty);
		return NULL;
	}
	close = match_close(t, open, p->end);
	if (close < 0) {
		diag_error(p->d, mkspan(open, 1), "unterminated '('");
		type_ref_free(ty);
		return NULL;
	}
	if (close == open + 1) {
		diag_error(p->d, mkspan(open, 2), "expected an expression inside '()'");
		type_ref_free(ty);
		return NULL;
	}
	base = parse_group(p, open, close);
	if (!base) {
		type_ref_free(ty);
		return NULL;
	}
	x = expr_new(tid ? EXPR_TYPEID : dyn ? EXPR_DYNCAST : EXPR_CAST, mkspan(s, close + 1 - s));
	x->type = ty;
	x->paren = true;
	x->base = base;
	return x;
}

static struct expr *parse_primary(struct parser *p)
{
	const char *t = p->t;
	int s = p->pos, e = p->end, k;
	struct expr *x;

	if (s >= e) {
		diag_error(p->d, mkspan(s > 0 ? s - 1 : 0, s > 0 ? 1 : 0),
			   "expected a variable name");
		return NULL;
	}
	if (t[s] == '(') {
		k = match_close(t, s, e);
		if (k > s + 1 && ((k + 1 < e && is_operand_start(t, k + 1, e)) ||
				  looks_like_type(t, s + 1, k)))
			return parse_cast(p, s, k);
		p->pos++;
		x = parse_unary(p);
		if (!x)
			return NULL;
		if (p->pos >= e || t[p->pos] != ')') {
			if (p->pos < e)
				diag_error(p->d, mkspan(p->pos, 1), "expected ')', not '%c'",
					   t[p->pos]);
			else
				diag_error(p->d, mkspan(s, 1), "unterminated '('");
			expr_free(x);
			return NULL;
		}
		p->pos++;
		return x;
	}
	k = scan_name(p, s, true);
	if (k > s) {
		bool kw;

		x = parse_keyword(p, s, k, &kw);
		if (kw || x)
			return x;
		x = expr_new(EXPR_VAR, mkspan(s, k - s));
		x->name = xstrndup(t + s, k - s);
		p->pos = k;
		return x;
	}
	if (isdigit((unsigned char)t[s])) {
		for (k = s; k < e && is_ident_char(t[k]); k++)
			;
		diag_error(p->d, mkspan(s, k - s), "expected a variable name, not a number");
		diag_hint(p->d, "raw offsets are written +OFF(FETCHARG), e.g. +8(%%di)");
		return NULL;
	}
	if (e - s >= 7 && !memcmp(t + s, "$retval", 7) &&
	    (e - s == 7 || !is_ident_char(t[s + 7]))) {
		/* $retval->id, $retval[0].Name: the return value is the root of a chain */
		x = expr_new(EXPR_RETVAL, mkspan(s, 7));
		p->pos = s + 7;
		return x;
	}
	if (t[s] == ')')
		diag_error(p->d, mkspan(s, 1), "unexpected ')'");
	else if (t[s] == '%' || t[s] == '$')
		diag_error(p->d, mkspan(s, 1), "'%c' may only start an argument", t[s]);
	else if ((unsigned char)t[s] < 0x20 || t[s] == 0x7f)
		diag_error(p->d, mkspan(s, 1), "unexpected control character");
	else
		diag_error(p->d, mkspan(s, 1), "expected a variable name, not '%c'", t[s]);
	return NULL;
}

static struct expr *parse_index(struct parser *p, struct expr *base)
{
	const char *t = p->t;
	int open = p->pos, s = open + 1, k, r;
	unsigned long v;
	struct expr *x;

	for (k = s; k < p->end && t[k] != ']'; k++)
		;
	if (k >= p->end) {
		diag_error(p->d, mkspan(open, 1), "unterminated '['");
		return NULL;
	}
	if (k == s) {
		diag_error(p->d, mkspan(open, 2), "expected an index inside '[]'");
		return NULL;
	}
	r = parse_num(t, s, k, true, LONG_MAX, &v);
	if (r == -ERANGE) {
		diag_error(p->d, mkspan(s, k - s), "index too large");
		return NULL;
	}
	if (r) {
		if (t[s] == '-')
			diag_error(p->d, mkspan(s, k - s), "index must not be negative");
		else
			diag_error(p->d, mkspan(s, k - s),
				   "index must be a non-negative decimal or 0x number");
		return NULL;
	}
	x = expr_new(EXPR_INDEX, mkspan(open, k + 1 - open));
	x->base = base;
	x->index = (long)v;
	p->pos = k + 1;
	return x;
}

/* parse_assert() - Go's type assertion "base.(TYPE)" at p->pos, the '.' */
static struct expr *parse_assert(struct parser *p, struct expr *base)
{
	int op = p->pos, close = match_close(p->t, op + 1, p->end);
	struct type_ref *ty;
	struct expr *x;

	if (close < 0) {
		diag_error(p->d, mkspan(op + 1, 1), "unterminated '('");
		return NULL;
	}
	ty = parse_type(p, op + 2, close);
	if (!ty)
		return NULL;
	x = expr_new(EXPR_TYPEASSERT, mkspan(op, close + 1 - op));
	x->type = ty;
	x->base = base;
	p->pos = close + 1;
	return x;
}

static struct expr *parse_postfix(struct parser *p)
{
	const char *t = p->t;
	struct expr *x = parse_primary(p), *m;
	int op, k, s;

	while (x && p->pos < p->end) {
		op = p->pos;
		if (x->kind == EXPR_TYPEID && (t[op] == '[' || t[op] == '.' || t[op] == '-')) {
			diag_error(p->d, mkspan(op, 1), "typeid() gives a type's name; it has no "
				   "fields or elements");
			goto err;
		}
		if (t[op] == '.' && op + 1 < p->end && t[op + 1] == '(') {
			m = parse_assert(p, x);
			if (!m)
				goto err;
			x = m;
			continue;
		}
		if (t[op] == '[') {
			m = parse_index(p, x);
			if (!m)
				goto err;
			x = m;
			continue;
		}
		if (t[op] == '.')
			s = op + 1;
		else if (t[op] == '-' && op + 1 < p->end && t[op + 1] == '>')
			s = op + 2;
		else
			break;
		k = scan_name(p, s, false);
		if (k == s) {
			const char *opname = t[op] == '.' ? "'.'" : "'->'";

			if (s < p->end)
				diag_error(p->d, mkspan(s, 1), "expected a field name after %s, not '%c'",
					   opname, t[s]);
			else
				diag_error(p->d, mkspan(op, s - op), "expected a field name after %s",
					   opname);
			goto err;
		}
		m = expr_new(EXPR_MEMBER, mkspan(s, k - s));
		m->name = xstrndup(t + s, k - s);
		m->arrow = t[op] == '-';
		m->base = x;
		x = m;
		p->pos = k;
	}
	return x;
err:
	expr_free(x);
	return NULL;
}

static struct expr *parse_unary(struct parser *p)
{
	struct expr *x, *base;
	int star = p->pos;

	if (++p->depth > MAX_EXPR_DEPTH) {
		diag_error(p->d, mkspan(p->pos, 1), "expression nested too deeply");
		return NULL;
	}
	if (p->pos < p->end && p->t[p->pos] == '*') {
		p->pos++;
		base = parse_unary(p);
		if (!base)
			return NULL;
		x = expr_new(EXPR_DEREF, mkspan(star, p->pos - star));
		x->base = base;
	} else {
		x = parse_postfix(p);
	}
	p->depth--;
	return x;
}

/* A raw fetcharg goes to the kernel as is: it must be one of its grammar, nothing more. */
static int check_raw(struct parser *p, int s, int e)
{
	size_t bad;
	const char *why = fetcharg_check_raw(p->t + s, (size_t)(e - s), &bad);

	if (!why)
		return 0;
	/* a fetcharg that ends too early: the span is its last character */
	return diag_error(p->d, mkspan(bad < (size_t)(e - s) ? s + (int)bad : e - 1, 1), "%s", why);
}

static int parse_expr(struct parser *p, int s, int e, struct expr **out)
{
	const char *t = p->t;
	struct expr *x;
	int k;

	*out = NULL;
	if (t[s] == '$' && e - s > 7 && !memcmp(t + s, "$retval", 7) &&
	    (t[s + 7] == '.' || t[s + 7] == '[' || t[s + 7] == '-'))
		goto chain;	/* $retval->f, $retval.f, $retval[i] */
	if (t[s] == '$') {
		for (k = s + 1; k < e && isalnum((unsigned char)t[k]); k++)
			;
		if (k < e)
			return diag_error(p->d, mkspan(k, 1), "unexpected '%c' after '%.*s'", t[k],
					  k - s, t + s);
		if (e - s > 4 && !memcmp(t + s, "$arg", 4) &&
		    strspn(t + s + 4, "0123456789") >= (size_t)(e - s - 4)) {
			unsigned long n;

			if (parse_num(t, s + 4, e, false, INT_MAX, &n) || !n)
				return diag_error(p->d, mkspan(s, e - s),
						  "SDT arguments count from $arg1");
			x = expr_new(EXPR_SDT_ARG, mkspan(s, e - s));
			x->name = xstrndup(t + s + 1, e - s - 1);
			x->index = (long)n;
			*out = x;
			return 0;
		}
		if (word_is(t, s, e, "$params"))
			x = expr_new(EXPR_PARAMS, mkspan(s, e - s));
		else if (word_is(t, s, e, "$vars"))
			x = expr_new(EXPR_VARS, mkspan(s, e - s));
		else if (word_is(t, s, e, "$retval"))
			x = expr_new(EXPR_RETVAL, mkspan(s, e - s));
		else if (word_is(t, s, e, "$goid"))
			x = expr_new(EXPR_GOID, mkspan(s, e - s));
		else if (word_is(t, s, e, "$comm") || word_is(t, s, e, "$stack") ||
			 (e - s > 6 && !memcmp(t + s, "$stack", 6) &&
			  strspn(t + s + 6, "0123456789") >= (size_t)(e - s - 6)))
			x = expr_new(EXPR_RAW, mkspan(s, e - s));
		else {
			diag_error(p->d, mkspan(s, e - s), "unknown special variable '%.*s'", e - s,
				   t + s);
			diag_hint(p->d, "known: $params, $vars, $retval, $goid, $stack, $stackN, $comm, "
				  "$argN (SDT)");
			return -EINVAL;
		}
		if (x->kind == EXPR_RAW)
			x->name = xstrndup(t + s, e - s);
		*out = x;
		return 0;
	}
	if (((t[s] == '+' || t[s] == '-') && s + 1 < e &&
	     (isdigit((unsigned char)t[s + 1]) ||
	      (t[s + 1] == 'u' && s + 2 < e && isdigit((unsigned char)t[s + 2])))) ||
	    t[s] == '@' || t[s] == '\\') {
		if (s + 1 == e)
			return diag_error(p->d, mkspan(s, 1), "expected a fetcharg after '%c'", t[s]);
		k = check_raw(p, s, e);
		if (k)
			return k;
		x = expr_new(EXPR_RAW, mkspan(s, e - s));
		x->name = xstrndup(t + s, e - s);
		*out = x;
		return 0;
	}
	if (word_is(t, s, e, "%return"))
		return diag_error(p->d, mkspan(s, e - s),
				  "'%%return' belongs to the place, without a blank before it");
	if (t[s] == '%') {
		for (k = s + 1; k < e && isalnum((unsigned char)t[k]); k++)
			;
		if (k == s + 1)
			return diag_error(p->d, mkspan(s, 1), "expected a register name after '%%'");
		if (k < e) {
			diag_error(p->d, mkspan(k, 1), "unexpected '%c' after register '%.*s'", t[k],
				   k - s, t + s);
			diag_hint(p->d, "a register is used as is; read memory with +OFF(%.*s)",
				  k - s, t + s);
			return -EINVAL;
		}
		x = expr_new(EXPR_REG, mkspan(s, e - s));
		x->name = xstrndup(t + s + 1, e - s - 1);
		*out = x;
		return 0;
	}

chain:
	p->pos = s;
	p->end = e;
	p->depth = 0;
	x = parse_unary(p);
	if (!x)
		return -EINVAL;
	if (p->pos < e) {
		if (t[p->pos] == ')')
			diag_error(p->d, mkspan(p->pos, 1), "unexpected ')'");
		else if (t[p->pos] == '-' && p->pos + 1 < e && t[p->pos + 1] == '>')
			diag_error(p->d, mkspan(p->pos, 2), "expected a field name after '->'");
		else
			diag_error(p->d, mkspan(p->pos, 1), "unexpected '%c'", t[p->pos]);
		expr_free(x);
		return -EINVAL;
	}
	*out = x;
	return 0;
}

static const char *const int_types[] = {
	"s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64", "x8", "x16", "x32", "x64",
};

static const char *const other_types[] = {
	"char", "string", "ustring", "bool", "float", "double", "sym", "symbol", "symstr",
	"%pd", "%pD",
};

static bool type_in(const char *t, int s, int e, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (word_is(t, s, e, list[i]))
			return true;
	return false;
}

/* check_type() - the types the kernel's README lists, plus upfront's bool/float/double/sym */
static int check_type(struct parser *p, int s, int e)
{
	const char *t = p->t;
	unsigned long w, o, c;
	int k, at, slash;

	if (type_in(t, s, e, int_types, ARRAY_SIZE(int_types)) ||
	    type_in(t, s, e, other_types, ARRAY_SIZE(other_types)))
		return 0;
	if (t[e - 1] == ']') {
		for (k = s; k < e && t[k] != '['; k++)
			;
		if (k == e || k == s || !(type_in(t, s, k, int_types, ARRAY_SIZE(int_types)) ||
					  word_is(t, s, k, "char") || word_is(t, s, k, "string") ||
					  word_is(t, s, k, "ustring")))
			goto bad;
		if (parse_num(t, k + 1, e - 1, false, INT_MAX, &w) || !w)
			return diag_error(p->d, mkspan(k, e - k),
					  "expected a positive array size in '[]'");
		return 0;
	}
	if (t[s] == 'b' && e - s > 1 && isdigit((unsigned char)t[s + 1])) {
		for (at = s; at < e && t[at] != '@'; at++)
			;
		for (slash = at; slash < e && t[slash] != '/'; slash++)
			;
		if (at == e || slash == e || parse_num(t, s + 1, at, false, 64, &w) ||
		    parse_num(t, at + 1, slash, false, 64, &o) ||
		    parse_num(t, slash + 1, e, false, 64, &c))
			return diag_error(p->d, mkspan(s, e - s),
					  "expected a bitfield type b<WIDTH>@<OFFSET>/<SIZE>");
		if ((c != 8 && c != 16 && c != 32 && c != 64) || !w || w + o > c)
			return diag_error(p->d, mkspan(s, e - s),
					  "bitfield '%.*s' does not fit its %lu-bit container", e - s,
					  t + s, c);
		return 0;
	}
bad:
	diag_error(p->d, mkspan(s, e - s), "unknown type '%.*s'", e - s, t + s);
	diag_hint(p->d, "types: s8..s64, u8..u64, x8..x64, char, string, ustring, bool, float, "
			"double, sym, T[N], b<WIDTH>@<OFFSET>/<SIZE>");
	return -EINVAL;
}

static int parse_arg(struct parser *p, struct probe_arg *arg, int s, int e, bool is_return)
{
	const char *t = p->t;
	int i, depth = 0, colon = -1, es = s, ee = e, r;
	const struct expr *root;

	arg->span = mkspan(s, e - s);
	arg->type_span = SPAN_NONE;

	/* NAME= */
	for (i = s; i < e && t[i] != '='; i++)
		;
	if (i < e) {
		if (i == s)
			return diag_error(p->d, mkspan(i, 1), "expected an argument name before '='");
		if (!is_c_ident(t, s, i))
			return diag_error(p->d, mkspan(s, i - s),
					  "argument name '%.*s' is not a C identifier", i - s, t + s);
		if (i + 1 == e)
			return diag_error(p->d, mkspan(i, 1), "expected an expression after '='");
		arg->name = xstrndup(t + s, i - s);
		es = i + 1;
	}

	/* :TYPE is after the last ':' that is not part of "::" and not inside () or [] */
	for (i = es; i < e; i++) {
		if (t[i] == '(' || t[i] == '[' || t[i] == '<')
			depth++;
		else if (t[i] == '>' && i > es && t[i - 1] == '-')
			continue;	/* "->" */
		else if ((t[i] == ')' || t[i] == ']' || t[i] == '>') && depth > 0)
			depth--;
		else if (t[i] == ':' && !depth) {
			if (i + 1 < e && t[i + 1] == ':') {
				i++;
				continue;
			}
			colon = i;
		}
	}
	if (colon >= 0) {
		if (colon == es)
			return diag_error(p->d, mkspan(colon, 1), "expected an expression before ':'");
		if (colon + 1 == e)
			return diag_error(p->d, mkspan(colon, 1), "expected a type after ':'");
		arg->type_span = mkspan(colon + 1, e - colon - 1);
		r = check_type(p, colon + 1, e);
		if (r)
			return r;
		arg->type = xstrndup(t + colon + 1, e - colon - 1);
		ee = colon;
	}

	r = parse_expr(p, es, ee, &arg->expr);
	if (r)
		return r;
	root = arg->expr;
	while (root->base)
		root = root->base;
	if (root != arg->expr && root->kind == EXPR_RETVAL && !is_return)
		return diag_error(p->d, root->span, "'$retval' needs a '%%return' place");
	switch (arg->expr->kind) {
	case EXPR_PARAMS:
	case EXPR_VARS:
		if (arg->type)
			return diag_error(p->d, arg->type_span, "'%s' takes no type",
					  arg->expr->kind == EXPR_PARAMS ? "$params" : "$vars");
		if (arg->name)
			return diag_error(p->d, mkspan(s, es - 1 - s), "'%s' takes no name",
					  arg->expr->kind == EXPR_PARAMS ? "$params" : "$vars");
		break;
	case EXPR_RETVAL:
		if (!is_return)
			return diag_error(p->d, arg->expr->span,
					  "'$retval' needs a '%%return' place");
		break;
	default:
		break;
	}
	return 0;
}

/*
 * next_word() - the next blank-separated word from *pos; with @group, blanks inside () and
 * <> belong to the word (C++ signatures "f(int, char)", Rust "<T as Trait>::m", casts
 * "(struct inner *)p", "dynamic_cast<caf::x *>(p)"); the '>' of "->" closes nothing
 */
static bool next_word(const char *t, int *pos, int *ws, int *we, bool group)
{
	int i = *pos, depth = 0, angle = 0, j;

	while (t[i] && is_blank(t[i]))
		i++;
	if (!t[i])
		return false;
	*ws = i;
	for (j = i; t[j]; j++) {
		if (t[j] == '(')
			depth++;
		else if (t[j] == ')' && depth)
			depth--;
		else if (t[j] == '<')
			angle++;
		else if (t[j] == '>' && angle && !(j > i && t[j - 1] == '-'))
			angle--;
		else if (is_blank(t[j]) && (!group || (!depth && !angle)))
			break;
	}
	if (group && (depth || angle)) {
		/* unbalanced: split at blanks and let the place checker name the '(' */
		for (j = i; t[j] && !is_blank(t[j]); j++)
			;
	}
	*we = j;
	*pos = j;
	return true;
}

int parse_probe(const char *text, struct probe_spec *spec, struct diag *d)
{
	struct parser p = { .d = d };
	size_t alloc = 0;
	int pos = 0, ws, we, i, r;
	bool had_event = false, is_sdt;

	memset(spec, 0, sizeof(*spec));
	spec->text = xstrdup(text);
	p.t = spec->text;
	/* the caller's text (argv), which outlives the spec, so the diag can be printed late */
	if (!d->input)
		d->input = text;

	if (!next_word(p.t, &pos, &ws, &we, true))
		return diag_error(d, mkspan(0, (int)strlen(p.t)), "empty probe");

	/* EVENT= when the text before the first '=' is an identifier (not "operator==") */
	for (i = ws; i < we && p.t[i] != '='; i++)
		;
	if (i < we && is_c_ident(p.t, ws, i) && !word_is(p.t, ws, i, "operator") &&
	    !(i + 1 < we && p.t[i + 1] == '=')) {
		spec->event = xstrndup(p.t + ws, i - ws);
		had_event = true;
		if (i + 1 == we)
			return diag_error(d, mkspan(i, 1), "expected a place after '='");
		ws = i + 1;
	}
	r = parse_place(&p, &spec->place, ws, we, had_event);
	if (r)
		return r;
	is_sdt = spec->place.kind == PLACE_SDT;

	while (next_word(p.t, &pos, &ws, &we, true)) {
		struct probe_arg *arg;

		ALLOC_GROW(spec->args, spec->nr_args + 1, alloc);
		arg = &spec->args[spec->nr_args++];
		memset(arg, 0, sizeof(*arg));
		r = parse_arg(&p, arg, ws, we, spec->place.is_return);
		if (r)
			return r;
		if (arg->expr->kind == EXPR_SDT_ARG && !is_sdt) {
			diag_error(d, arg->expr->span, "'$%s' is an SDT probe's argument",
				   arg->expr->name);
			diag_hint(d, "the place must be sdt_PROVIDER:NAME (upfront -F lists them)");
			return -EINVAL;
		}
	}
	pr_debug("parsed '%s': %zu argument(s)", spec->text, spec->nr_args);
	return 0;
}

void probe_spec_release(struct probe_spec *spec)
{
	size_t i;

	if (!spec)
		return;
	for (i = 0; i < spec->nr_args; i++) {
		free(spec->args[i].name);
		free(spec->args[i].type);
		expr_free(spec->args[i].expr);
	}
	free(spec->args);
	free(spec->place.func);
	free(spec->place.provider);
	free(spec->place.srcfile);
	free(spec->event);
	free(spec->text);
	memset(spec, 0, sizeof(*spec));
}

/* postfix binds tighter than '*' and C's cast: (*p).x and ((T *)p)->x need parentheses */
static void format_postfix_base(const struct expr *b, struct strbuf *out)
{
	if (b && (b->kind == EXPR_DEREF || (b->kind == EXPR_CAST && !b->paren))) {
		strbuf_addch(out, '(');
		expr_format(b, out);
		strbuf_addch(out, ')');
	} else {
		expr_format(b, out);
	}
}

void expr_format(const struct expr *e, struct strbuf *out)
{
	if (!e)
		return;
	switch (e->kind) {
	case EXPR_VAR:
		strbuf_addstr(out, e->name);
		break;
	case EXPR_MEMBER:
	case EXPR_INDEX:
		format_postfix_base(e->base, out);
		if (e->kind == EXPR_MEMBER)
			strbuf_addf(out, "%s%s", e->arrow ? "->" : ".", e->name);
		else
			strbuf_addf(out, "[%ld]", e->index);
		break;
	case EXPR_TYPEASSERT:
		format_postfix_base(e->base, out);
		strbuf_addf(out, ".(%s)", e->type->text);
		break;
	case EXPR_CAST:
		strbuf_addf(out, "(%s)", e->type->text);
		if (e->paren)
			strbuf_addch(out, '(');
		expr_format(e->base, out);
		if (e->paren)
			strbuf_addch(out, ')');
		break;
	case EXPR_DYNCAST:
		strbuf_addf(out, "dynamic_cast<%s>(", e->type->text);
		expr_format(e->base, out);
		strbuf_addch(out, ')');
		break;
	case EXPR_TYPEID:
		strbuf_addstr(out, "typeid(");
		expr_format(e->base, out);
		strbuf_addch(out, ')');
		break;
	case EXPR_GOID:
		strbuf_addstr(out, "$goid");
		break;
	case EXPR_DEREF:
		strbuf_addch(out, '*');
		expr_format(e->base, out);
		break;
	case EXPR_REG:
		strbuf_addf(out, "%%%s", e->name);
		break;
	case EXPR_RAW:
		strbuf_addstr(out, e->name);
		break;
	case EXPR_RETVAL:
		strbuf_addstr(out, "$retval");
		break;
	case EXPR_PARAMS:
		strbuf_addstr(out, "$params");
		break;
	case EXPR_VARS:
		strbuf_addstr(out, "$vars");
		break;
	case EXPR_SDT_ARG:
		strbuf_addf(out, "$%s", e->name);
		break;
	}
}

/* The last component of a name: after "::", without Go's leading '~' or '.'. */
static const char *name_tail(const char *name)
{
	const char *p = name, *q;

	while ((q = strstr(p, "::")) && q[2])
		p = q + 2;
	if ((*p == '~' || *p == '.') && p[1])
		p++;
	return p;
}

const char *expr_last_name(const struct expr *e)
{
	while (e && (e->kind == EXPR_INDEX || e->kind == EXPR_DEREF || e->kind == EXPR_CAST ||
		     e->kind == EXPR_DYNCAST || e->kind == EXPR_TYPEASSERT ||
		     e->kind == EXPR_TYPEID))
		e = e->base;
	if (!e)
		return NULL;
	switch (e->kind) {
	case EXPR_VAR:
	case EXPR_MEMBER:
		return name_tail(e->name);
	case EXPR_REG:
		return e->name;
	case EXPR_RETVAL:
		return "retval";
	case EXPR_GOID:
		return "goid";
	case EXPR_SDT_ARG:
		return e->name;	/* "arg2", as perf names SDT arguments */
	default:
		return NULL;
	}
}

char *probe_arg_name(const struct probe_arg *arg, size_t pos)
{
	const char *n;

	if (arg->name)
		return xstrdup(arg->name);
	n = expr_last_name(arg->expr);
	if (n)
		return xstrdup(n);
	return xasprintf("arg%zu", pos + 1);
}
