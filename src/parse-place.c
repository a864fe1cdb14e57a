// SPDX-License-Identifier: GPL-2.0-or-later
/* parse-place.c - a probe's PLACE: FUNC[@SRCFILE][:LINE|+OFF|%return], FILE:LINE, 0xADDR, SDT */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define LOG_DOMAIN "parse"
#include "log.h"
#include "parse-internal.h"

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

/* Go's linker escapes bytes of an import path as "%XX" (yaml.v3 -> yaml%2ev3) */
static bool is_go_escape(const char *t, int i, int e)
{
	return i + 2 < e && isxdigit((unsigned char)t[i + 1]) && isxdigit((unsigned char)t[i + 2]);
}

/*
 * string_literal_end() - after the '"' at t[i]: the index of the closing '"' of a string
 * literal in a name (Rust's extern "C"), or a negative errno with p->d filled
 */
static int string_literal_end(struct parser *p, int i, int e)
{
	const char *t = p->t;

	for (int k = i + 1; k < e; k++) {
		if (t[k] == '"')
			return k;
		if (t[k] == '\\' || (unsigned char)t[k] < 0x20 || t[k] == 0x7f)
			return diag_error(p->d, mkspan(k, 1), "unexpected '%s' in a function name's "
					  "string", t[k] == '\\' ? "\\" : "control character");
	}
	return diag_error(p->d, mkspan(i, 1), "unterminated '\"' in function name");
}

/*
 * check_func() - a function name or glob over t[s..e): balanced () and [], no stray
 * ':' '+' '%' '=' (those belong to a place suffix or an EVENT=). Names that need more:
 * Go's "%XX" escapes (gopkg.in/yaml%2ev3.F), and inside <>, () or [] Rust's array types
 * ("<[u8; 4] as Debug>::fmt": a ';' directly inside []; Go's "F[go.shape.interface { a();
 * b() }]" too), string literals ('RawVec<unsafe extern "C" fn()>'), lifetimes ("for<'a>") and
 * trait bounds ("dyn Fn<()> + Sync").
 */
static int check_func(struct parser *p, int s, int e, bool had_event)
{
	const char *t = p->t;
	int stack[MAX_EXPR_DEPTH], sp = 0, angle = 0, i, k;

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
			if (sp || angle)
				continue;	/* Rust's "<&dyn Fn<()> + Sync as FnOnce<()>>" */
			return diag_error(p->d, mkspan(i, 1),
					  "expected a decimal or 0x offset after '+'");
		case '%':
			if (is_go_escape(t, i, e)) {
				i += 2;
				continue;
			}
			if (e - i >= 7 && !memcmp(t + i, "%return", 7))
				return diag_error(p->d, mkspan(i, 7), "'%%return' must end the place");
			return diag_error(p->d, mkspan(i, 1), "expected 'return' after '%%'");
		case '=':
			if ((sp || angle) && !(i + 1 < e && t[i + 1] == '='))
				continue;	/* Rust's "dyn Fn<(&u8,), Output = bool>" */
			if (had_event || memchr(t + s, '=', i - s) || (i + 1 < e && t[i + 1] == '='))
				return diag_error(p->d, mkspan(i, 1), "unexpected '='");
			if (i == s)
				return diag_error(p->d, mkspan(i, 1),
						  "expected an event name before '='");
			return diag_error(p->d, mkspan(s, i - s),
					  "event name '%.*s' is not a C identifier", i - s, t + s);
		case '@':
			return diag_error(p->d, mkspan(i, 1), "unexpected '@'");
		case ';':
			if (sp && t[stack[sp - 1]] == '[')
				continue;
			return diag_error(p->d, mkspan(i, 1), "unexpected '%c' in function name", c);
		case '"':
			if (!sp && !angle)
				return diag_error(p->d, mkspan(i, 1),
						  "unexpected '%c' in function name", c);
			k = string_literal_end(p, i, e);
			if (k < 0)
				return k;
			i = k;
			continue;
		case '\'':
			/* a Rust lifetime: "for<'a> Fn(&'a T)", "'_", "'static" */
			if ((sp || angle) && i + 1 < e && is_ident_start(t[i + 1]))
				continue;
			return diag_error(p->d, mkspan(i, 1), "unexpected '%c' in function name", c);
		case '\\':
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

int parse_place(struct parser *p, struct probe_place *pl, int s, int e, bool had_event)
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

	/* FUNC@SRCFILE, FUNC@VERSION, FUNC@@VERSION (kept as "@VERSION": place.c decides) */
	for (i = s; i < fe; i++)
		if (t[i] == '@')
			break;
	if (i < fe) {
		bool dflt = i + 1 < fe && t[i + 1] == '@';

		if (i == s)
			return diag_error(p->d, mkspan(i, 1),
					  "expected a function name before '@'");
		if (i + 1 + dflt == fe)
			return diag_error(p->d, mkspan(i, 1 + dflt), dflt ?
					  "expected a symbol version after '@@'" :
					  "expected a source file or symbol version after '@'");
		for (r = i + 1 + dflt; r < fe; r++) {
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
