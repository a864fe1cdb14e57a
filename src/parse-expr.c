// SPDX-License-Identifier: GPL-2.0-or-later
/* parse-expr.c - an argument's EXPR ($vars, raw fetchargs, %REG, values, casts) and back to text */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define LOG_DOMAIN "parse"
#include "fetcharg.h"
#include "log.h"
#include "parse-internal.h"

/*
 * The special variables, as the user spells them: parse_expr() parses them, expr_format()
 * prints them and the "unknown special variable" hint lists them from this one table.
 * EXPR_RAW ones are kernel fetch-args passed through as written.
 */
static const struct special_var {
	const char *name;
	enum expr_kind kind;
	bool numbered;		/* NAME followed by a number: $stackN, $argN */
	const char *note;	/* after its name in the hint */
} special_vars[] = {
	{ .name = "$params",	.kind = EXPR_PARAMS },
	{ .name = "$vars",	.kind = EXPR_VARS },
	{ .name = "$retval",	.kind = EXPR_RETVAL },
	{ .name = "$goid",	.kind = EXPR_GOID },
	{ .name = "$stack",	.kind = EXPR_RAW },
	{ .name = "$stack",	.kind = EXPR_RAW,	.numbered = true },
	{ .name = "$comm",	.kind = EXPR_RAW },
	{ .name = "$arg",	.kind = EXPR_SDT_ARG,	.numbered = true,	.note = " (SDT)" },
};

const char *expr_special_name(enum expr_kind kind)
{
	for (size_t i = 0; i < ARRAY_SIZE(special_vars); i++)
		if (special_vars[i].kind == kind && kind != EXPR_RAW)
			return special_vars[i].name;
	return NULL;
}

/* t[s..e) as a special variable of the table, or NULL */
static const struct special_var *special_find(const char *t, int s, int e)
{
	for (size_t i = 0; i < ARRAY_SIZE(special_vars); i++) {
		const struct special_var *v = &special_vars[i];
		int n = (int)strlen(v->name);

		if (!v->numbered ? word_is(t, s, e, v->name) :
		    e - s > n && !memcmp(t + s, v->name, n) &&
		    strspn(t + s + n, "0123456789") >= (size_t)(e - s - n))
			return v;
	}
	return NULL;
}

/* "$params, $vars, ..., $argN (SDT)" */
static void special_list(struct strbuf *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(special_vars); i++)
		strbuf_addf(out, "%s%s%s%s", i ? ", " : "", special_vars[i].name,
			    special_vars[i].numbered ? "N" : "",
			    special_vars[i].note ? special_vars[i].note : "");
}

static struct expr *expr_new(enum expr_kind kind, struct span sp)
{
	struct expr *e = xcalloc(1, sizeof(*e));

	e->kind = kind;
	e->span = sp;
	return e;
}

void expr_free(struct expr *e)
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

		k = word_end(t, p->pos + 1, p->end);
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

/*
 * C++'s casts by keyword, "dynamic_cast<T *>(p)", "typeid(p)", and Go's "len(m)", "cap(s)";
 * @k ends the keyword
 */
static struct expr *parse_keyword(struct parser *p, int s, int k, bool *matched)
{
	const char *t = p->t;
	bool dyn = word_is(t, s, k, "dynamic_cast"), len = word_is(t, s, k, "len");
	bool cap = word_is(t, s, k, "cap");
	bool tid = word_is(t, s, k, "typeid") || len || cap;
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
	x = expr_new(len ? EXPR_LEN : cap ? EXPR_CAP : tid ? EXPR_TYPEID : dyn ? EXPR_DYNCAST :
		     EXPR_CAST, mkspan(s, close + 1 - s));
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
	if (word_at(t, s, e, expr_special_name(EXPR_RETVAL))) {
		/* $retval->id, $retval[0].Name: the return value is the root of a chain */
		k = s + (int)strlen(expr_special_name(EXPR_RETVAL));
		x = expr_new(EXPR_RETVAL, mkspan(s, k - s));
		p->pos = k;
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
	if (t[s] == '"' && k - s >= 2 && t[k - 1] == '"' && !memchr(t + s + 1, '"', k - s - 2)) {
		/* a map's key: m["Malone"] (no escapes) */
		x = expr_new(EXPR_INDEX, mkspan(open, k + 1 - open));
		x->base = base;
		x->key = true;
		x->name = xstrndup(t + s + 1, k - s - 2);
		p->pos = k + 1;
		return x;
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
		if ((x->kind == EXPR_LEN || x->kind == EXPR_CAP) &&
		    (t[op] == '[' || t[op] == '.' || t[op] == '-')) {
			diag_error(p->d, mkspan(op, 1), "%s() gives a number; it has no fields or "
				   "elements", x->kind == EXPR_LEN ? "len" : "cap");
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

int parse_expr(struct parser *p, int s, int e, struct expr **out)
{
	const char *t = p->t;
	const char *retval = expr_special_name(EXPR_RETVAL);
	int k, nret = (int)strlen(retval);
	struct expr *x;

	*out = NULL;
	if (e - s > nret && !memcmp(t + s, retval, nret) &&
	    (t[s + nret] == '.' || t[s + nret] == '[' || t[s + nret] == '-'))
		goto chain;	/* $retval->f, $retval.f, $retval[i] */
	if (t[s] == '$') {
		const struct special_var *v;
		unsigned long n = 0;

		k = word_end(t, s + 1, e);
		if (k < e)
			return diag_error(p->d, mkspan(k, 1), "unexpected '%c' after '%.*s'", t[k],
					  k - s, t + s);
		v = special_find(t, s, e);
		if (!v) {
			struct strbuf known = STRBUF_INIT;

			diag_error(p->d, mkspan(s, e - s), "unknown special variable '%.*s'", e - s,
				   t + s);
			special_list(&known);
			diag_hint(p->d, "known: %s", known.buf);
			strbuf_release(&known);
			return -EINVAL;
		}
		if (v->kind == EXPR_SDT_ARG &&
		    (parse_num(t, s + (int)strlen(v->name), e, false, INT_MAX, &n) || !n))
			return diag_error(p->d, mkspan(s, e - s), "SDT arguments count from %s1",
					  v->name);
		x = expr_new(v->kind, mkspan(s, e - s));
		if (x->kind == EXPR_SDT_ARG) {
			x->name = xstrndup(t + s + 1, e - s - 1);	/* "arg2", without the '$' */
			x->index = (long)n;
		} else if (x->kind == EXPR_RAW) {
			x->name = xstrndup(t + s, e - s);
		}
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
		k = word_end(t, s + 1, e);
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
		else if (e->key)
			strbuf_addf(out, "[\"%s\"]", e->name);
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
	case EXPR_LEN:
	case EXPR_CAP:
		strbuf_addstr(out, e->kind == EXPR_LEN ? "len(" : e->kind == EXPR_CAP ? "cap(" :
			      "typeid(");
		expr_format(e->base, out);
		strbuf_addch(out, ')');
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
	case EXPR_GOID:
	case EXPR_RETVAL:
	case EXPR_PARAMS:
	case EXPR_VARS:
		strbuf_addstr(out, expr_special_name(e->kind));
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
	case EXPR_GOID:
		return expr_special_name(e->kind) + 1;	/* "retval": without the '$' */
	case EXPR_LEN:
		return "len";
	case EXPR_CAP:
		return "cap";
	case EXPR_SDT_ARG:
		return e->name;	/* "arg2", as perf names SDT arguments */
	default:
		return NULL;
	}
}
