/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse-internal.h - what parse*.c share: the parser's state, characters, words, entry points */
#ifndef UPF_PARSE_INTERNAL_H
#define UPF_PARSE_INTERNAL_H

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>

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

static inline struct span mkspan(int start, int len)
{
	return (struct span){ start, len };
}

static inline bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Identifier characters: C's, plus any byte of a UTF-8 sequence (Go allows Unicode letters). */
static inline bool is_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

static inline bool is_ident_char(char c)
{
	return is_ident_start(c) || isdigit((unsigned char)c);
}

/* word_end() - the end of the word of ASCII letters, digits and '_' at t[s..e): a register's
 * or a special variable's name ("%orig_ax", "$arg1") */
static inline int word_end(const char *t, int s, int e)
{
	while (s < e && (isalnum((unsigned char)t[s]) || t[s] == '_'))
		s++;
	return s;
}

static inline bool word_is(const char *t, int s, int e, const char *w)
{
	return (int)strlen(w) == e - s && !memcmp(t + s, w, e - s);
}

/* word_at() - t[s..e) starts with word @w, followed by a non-identifier character */
static inline bool word_at(const char *t, int s, int e, const char *w)
{
	int n = (int)strlen(w);

	return e - s >= n && !memcmp(t + s, w, n) && (e - s == n || !is_ident_char(t[s + n]));
}

/**
 * expr_special_name() - how the user spells the special variable of @kind ("$retval" for
 * EXPR_RETVAL; parse-expr.c's table), or NULL for a kind that is none (EXPR_RAW: several)
 */
const char *expr_special_name(enum expr_kind kind);

/**
 * parse_num() - a non-negative number over t[s..e): decimal, or hex with 0x if @hex_ok
 * (parse-lex.c)
 * @t: the text
 * @s: the number's first character
 * @e: its end
 * @hex_ok: a 0x prefix is allowed
 * @max: the largest value accepted
 * @out: the value, on success
 * Return: 0, -EINVAL if it is not a number, -ERANGE if it is over @max.
 */
int parse_num(const char *t, int s, int e, bool hex_ok, unsigned long max, unsigned long *out);

/**
 * parse_place() - PLACE over t[s..e): FUNC[@SRCFILE][:RELLINE | +OFFSET | %return],
 * SRCFILE:LINE, 0xADDR or sdt_PROVIDER:NAME (parse-place.c)
 * @p: the parser; p->d is filled on failure
 * @pl: filled on success (its strings are owned by the spec)
 * @s: the place's first character in p->t
 * @e: the end of the place in p->t
 * @had_event: an EVENT= came before it (another '=' is then an error)
 * Return: 0, or -EINVAL with p->d filled.
 */
int parse_place(struct parser *p, struct probe_place *pl, int s, int e, bool had_event);

/**
 * parse_expr() - an argument's expression over t[s..e), without NAME= and :TYPE
 * (parse-expr.c): a special variable ($params, $argN, ...), a raw fetcharg, a register or
 * a value expression
 * @p: the parser; p->pos, p->end and p->depth are used; p->d is filled on failure
 * @s: the expression's first character in p->t
 * @e: the end of the expression in p->t
 * @out: the new tree for expr_free(), or NULL on failure
 * Return: 0, or -EINVAL with p->d filled.
 */
int parse_expr(struct parser *p, int s, int e, struct expr **out);

/**
 * expr_free() - free an expression tree from parse_expr(); accepts NULL
 */
void expr_free(struct expr *e);

/**
 * parse_type() - the type of a cast over t[s..e) (parse-type.c): "struct inner *",
 * "const char *", "caf::(anonymous namespace)::wrapper *", "std::map<int, char> *", Go's
 * "*main.T"
 * Return: a new type_ref for type_ref_free(), or NULL with p->d filled.
 */
struct type_ref *parse_type(struct parser *p, int s, int e);

/**
 * type_ref_free() - free a type_ref from parse_type(); accepts NULL
 */
void type_ref_free(struct type_ref *ty);

#endif
