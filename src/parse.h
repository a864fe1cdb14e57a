/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse.h - PROBE text -> struct probe_spec, and back */
#ifndef UPF_PARSE_H
#define UPF_PARSE_H

#include "probe.h"
#include "util.h"

/**
 * parse_probe() - parse one probe string "[EVENT=]PLACE [ARG ...]"
 * @text: the probe as one shell word (arguments separated by blanks)
 * @spec: filled on success; release with probe_spec_release() in any case
 * @d: on failure: the message and the span of the offending token in @text
 *
 * PLACE is FUNC[@SRCFILE][:RELLINE | +OFFSET | %return], SRCFILE:LINE or 0xADDR.
 * "NAME:LINE" is a SRCFILE:LINE when NAME's last path component ends in a source
 * file extension (.c .h .cc .cpp .cxx .hpp .go .rs .s .S ...) and has no '(' '*' '?'
 * '[' in it; otherwise NAME is a function and LINE is relative to its start. A '/'
 * alone does not make a file: Go functions carry package paths
 * ("github.com/x/y.(*T).M:3"). Blanks inside parentheses belong to the place, so a
 * C++ signature "ns::C::m(int, char)" is one place.
 *
 * In an ARG, blanks inside () and <> belong to it, so types can be spelled as the
 * language does: "(struct inner *)p", "dynamic_cast<caf::(anonymous namespace)::w *>(p)".
 * A parenthesized group followed by an operand ("(T *)p", "(*main.T)(p)"), or one that can
 * only be a type ("(struct s)x", "(T *)"), is a cast (EXPR_CAST): C's "(T)x" casts the unary
 * expression after it ("(T *)p->q" and "(T *)(p)->q" cast p->q); Go's conversion "(T)(x)"
 * (a type with a '.', or Go's leading '*') and C++'s static_cast<T>(x) are primaries
 * ("(*main.T)(p).f" is a field of the converted p).
 * "dynamic_cast<T *>(x)" (EXPR_DYNCAST) needs a pointer type; "typeid(x)" (EXPR_TYPEID)
 * takes no postfix, nor do Go's "len(x)" (EXPR_LEN) and "cap(x)" (EXPR_CAP); Go's "x.(T)"
 * (EXPR_TYPEASSERT) is postfix; "$goid" is EXPR_GOID.
 *
 * Return: 0, or -EINVAL with @d filled (the first error; its span is in spec->text,
 * which is a copy of @text, so the offsets also index @text).
 */
int parse_probe(const char *text, struct probe_spec *spec, struct diag *d);

/**
 * probe_spec_release() - free what parse_probe() allocated; accepts a zeroed spec
 */
void probe_spec_release(struct probe_spec *spec);

/**
 * expr_format() - an expression written back in source syntax ("r->Question[0].Name");
 * parsing the result gives the same tree
 */
void expr_format(const struct expr *e, struct strbuf *out);

/**
 * expr_last_name() - the default argument name as perf picks it
 * @e: an expression from parse_probe()
 *
 * EXPR_VAR and EXPR_MEMBER: the (last) name, without a C++ qualification, a Go
 * leading '~' or '.' ("Name" for r->Question[0].Name, "counter" for ns::counter,
 * "r0" for ~r0, "autotmp_5" for .autotmp_5); EXPR_INDEX, EXPR_DEREF, EXPR_CAST,
 * EXPR_DYNCAST, EXPR_TYPEASSERT and EXPR_TYPEID: that of their base ("p" for *p, "a" for
 * a[3], "ptr" for typeid(*ptr)); EXPR_LEN, EXPR_CAP: "len", "cap"; EXPR_REG: the register
 * ("di"); EXPR_GOID: "goid";
 * EXPR_RETVAL: "retval"; EXPR_RAW, EXPR_PARAMS, EXPR_VARS: NULL (a raw fetcharg
 * is named by its position, see probe_arg_name(); $params/$vars expand to many).
 * The result may still need sanitize_ident() (Go and C++ names are not always C
 * identifiers) and de-duplication.
 *
 * Return: a string borrowed from @e (or static), or NULL.
 */
const char *expr_last_name(const struct expr *e);

/**
 * probe_arg_name() - the name an argument gets when the user gave none
 * @arg: an argument of a parsed probe
 * @pos: its position in probe_spec.args (0-based)
 *
 * NAME= if given, else expr_last_name(), else "arg<pos+1>" as perf names raw
 * fetchargs. Not made an identifier or unique here.
 *
 * Return: a new string for free().
 */
char *probe_arg_name(const struct probe_arg *arg, size_t pos);

#endif
