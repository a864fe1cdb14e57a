// SPDX-License-Identifier: GPL-2.0-or-later
/* parse.c - PROBE text -> struct probe_spec: words, EVENT=, NAME=, :TYPE; see parse-internal.h */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define LOG_DOMAIN "parse"
#include "log.h"
#include "parse-internal.h"

/* is_c_ident() - [A-Za-z_][A-Za-z0-9_]* over t[s..e) */
static bool is_c_ident(const char *t, int s, int e)
{
	return s < e && (isalpha((unsigned char)t[s]) || t[s] == '_') && word_end(t, s + 1, e) == e;
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
		return diag_error(p->d, root->span, "'%s' needs a '%%return' place",
				  expr_special_name(EXPR_RETVAL));
	switch (arg->expr->kind) {
	case EXPR_PARAMS:
	case EXPR_VARS:
		if (arg->type)
			return diag_error(p->d, arg->type_span, "'%s' takes no type",
					  expr_special_name(arg->expr->kind));
		if (arg->name)
			return diag_error(p->d, mkspan(s, es - 1 - s), "'%s' takes no name",
					  expr_special_name(arg->expr->kind));
		break;
	case EXPR_RETVAL:
		if (!is_return)
			return diag_error(p->d, arg->expr->span, "'%s' needs a '%%return' place",
					  expr_special_name(EXPR_RETVAL));
		break;
	default:
		break;
	}
	return 0;
}

/*
 * next_word() - the next blank-separated word from *pos; with @group, blanks inside (), []
 * and <> belong to the word (C++ signatures "f(int, char)", Rust "<T as Trait>::m", Go
 * generics "F[go.shape.interface { Len() int }]", casts "(struct inner *)p",
 * "dynamic_cast<caf::x *>(p)"); the '>' of "->" closes nothing
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
		if (t[j] == '(' || t[j] == '[')
			depth++;
		else if ((t[j] == ')' || t[j] == ']') && depth)
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
