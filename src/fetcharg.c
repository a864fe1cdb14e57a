// SPDX-License-Identifier: GPL-2.0-or-later
/* fetcharg.c - struct trace_probe <-> uprobe_events lines, and the kernel's limits */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_DOMAIN "fetcharg"
#include "fetcharg.h"
#include "log.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

int trace_probe_add_field(struct trace_probe *tp, const char *name, const char *fetch,
			  const char *type, bool hidden)
{
	struct fetch_field *f;

	tp->fields = xrealloc(tp->fields, (tp->nr_fields + 1) * sizeof(*tp->fields));
	f = &tp->fields[tp->nr_fields];
	memset(f, 0, sizeof(*f));
	f->name = dup_or_null(name);
	f->fetch = dup_or_null(fetch);
	f->type = dup_or_null(type);
	f->hidden = hidden;
	return (int)tp->nr_fields++;
}

struct trace_arg *trace_probe_add_arg(struct trace_probe *tp)
{
	struct trace_arg *a;

	tp->args = xrealloc(tp->args, (tp->nr_args + 1) * sizeof(*tp->args));
	a = &tp->args[tp->nr_args++];
	memset(a, 0, sizeof(*a));
	a->len_field = -1;
	a->cap_field = -1;
	a->ptr_field = -1;
	return a;
}

const char *trace_arg_last_pointer(const struct trace_arg *a)
{
	const char *expr = NULL;

	for (int k = 0; k < a->nr_guards && k < TRACE_ARG_MAX_GUARDS; k++)
		if (a->guard_kind[k] == GUARD_PTR || a->guard_kind[k] == GUARD_NIL)
			expr = a->guard_exprs[k];
	return expr;
}

static void trace_arg_release(struct trace_arg *a)
{
	size_t i;

	free(a->name);
	free(a->expr);
	free(a->type_name);
	for (i = 0; i < (size_t)a->nr_guards && i < TRACE_ARG_MAX_GUARDS; i++) {
		free(a->guard_exprs[i]);
		free(a->guard_words[i]);
		free(a->guard_class[i]);
	}
	free(a->dyn_class);
	for (i = 0; i < a->nr_enums; i++)
		free(a->enums[i].name);
	free(a->enums);
	for (i = 0; i < a->nr_variants; i++)
		free(a->variants[i].name);
	free(a->variants);
	for (i = 0; i < a->nr_dyn_variants; i++)
		free(a->dyn_variants[i].name);
	free(a->dyn_variants);
	for (i = 0; i < a->nr_parts; i++)
		trace_arg_release(&a->parts[i]);
	free(a->parts);
	free(a->map.key);
}

/* deep copy of @s into @a */
static void trace_arg_copy(struct trace_arg *a, const struct trace_arg *s)
{
	size_t j;

	*a = *s;
	a->name = dup_or_null(s->name);
	a->expr = dup_or_null(s->expr);
	a->map.key = dup_or_null(s->map.key);
	a->type_name = dup_or_null(s->type_name);
	a->dyn_class = dup_or_null(s->dyn_class);
	for (j = 0; j < (size_t)s->nr_guards && j < TRACE_ARG_MAX_GUARDS; j++) {
		a->guard_exprs[j] = dup_or_null(s->guard_exprs[j]);
		a->guard_words[j] = NULL;
		a->guard_class[j] = dup_or_null(s->guard_class[j]);
		if (s->guard_nr_words[j]) {
			size_t n = s->guard_nr_words[j] * sizeof(uint64_t);

			a->guard_words[j] = xmalloc(n);
			memcpy(a->guard_words[j], s->guard_words[j], n);
		}
	}
	a->enums = NULL;
	if (s->nr_enums) {
		a->enums = xmalloc(s->nr_enums * sizeof(*a->enums));
		for (j = 0; j < s->nr_enums; j++) {
			a->enums[j].value = s->enums[j].value;
			a->enums[j].name = dup_or_null(s->enums[j].name);
		}
	}
	a->variants = NULL;
	if (s->nr_variants) {
		a->variants = xmalloc(s->nr_variants * sizeof(*a->variants));
		for (j = 0; j < s->nr_variants; j++) {
			a->variants[j] = s->variants[j];
			a->variants[j].name = dup_or_null(s->variants[j].name);
		}
	}
	a->dyn_variants = NULL;
	if (s->nr_dyn_variants) {
		a->dyn_variants = xmalloc(s->nr_dyn_variants * sizeof(*a->dyn_variants));
		for (j = 0; j < s->nr_dyn_variants; j++) {
			a->dyn_variants[j] = s->dyn_variants[j];
			a->dyn_variants[j].name = dup_or_null(s->dyn_variants[j].name);
		}
	}
	a->parts = NULL;
	if (s->nr_parts) {
		a->parts = xmalloc(s->nr_parts * sizeof(*a->parts));
		for (j = 0; j < s->nr_parts; j++)
			trace_arg_copy(&a->parts[j], &s->parts[j]);
	}
}

void trace_probe_truncate(struct trace_probe *tp, size_t nr_fields, size_t nr_args)
{
	while (tp->nr_args > nr_args)
		trace_arg_release(&tp->args[--tp->nr_args]);
	while (tp->nr_fields > nr_fields) {
		struct fetch_field *f = &tp->fields[--tp->nr_fields];

		free(f->name);
		free(f->fetch);
		free(f->type);
	}
}

void trace_probe_release(struct trace_probe *tp)
{
	size_t i;

	if (!tp)
		return;
	free(tp->group);
	free(tp->event);
	free(tp->path);
	free(tp->kpath);
	free(tp->build_id);
	free(tp->func);
	free(tp->note);
	free(tp->merged);
	for (i = 0; i < tp->nr_fields; i++) {
		free(tp->fields[i].name);
		free(tp->fields[i].fetch);
		free(tp->fields[i].type);
	}
	free(tp->fields);
	for (i = 0; i < tp->nr_args; i++)
		trace_arg_release(&tp->args[i]);
	free(tp->args);
	memset(tp, 0, sizeof(*tp));
}

void trace_probe_copy(struct trace_probe *dst, const struct trace_probe *src)
{
	size_t i;

	*dst = *src;
	dst->group = dup_or_null(src->group);
	dst->event = dup_or_null(src->event);
	dst->path = dup_or_null(src->path);
	dst->kpath = dup_or_null(src->kpath);
	dst->build_id = dup_or_null(src->build_id);
	dst->func = dup_or_null(src->func);
	dst->note = dup_or_null(src->note);
	dst->merged = dup_or_null(src->merged);
	dst->fields = NULL;
	dst->args = NULL;
	if (src->nr_fields) {
		dst->fields = xmalloc(src->nr_fields * sizeof(*dst->fields));
		for (i = 0; i < src->nr_fields; i++) {
			dst->fields[i] = src->fields[i];
			dst->fields[i].name = dup_or_null(src->fields[i].name);
			dst->fields[i].fetch = dup_or_null(src->fields[i].fetch);
			dst->fields[i].type = dup_or_null(src->fields[i].type);
		}
	}
	if (src->nr_args) {
		dst->args = xmalloc(src->nr_args * sizeof(*dst->args));
		for (i = 0; i < src->nr_args; i++)
			trace_arg_copy(&dst->args[i], &src->args[i]);
	}
}

/* the byte of @path the kernel would not take as part of a PATH, or NULL */
static const char *path_bad_byte(const char *path)
{
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p == ' ' || *p == '#' || *p == 0xa0)
			return (const char *)p;
	return NULL;
}

int fetcharg_path_check(const char *path, struct diag *d)
{
	const char *bad = path ? path_bad_byte(path) : NULL;
	unsigned char c;
	char what[48];

	if (!path || !*path)
		return diag_error(d, SPAN_NONE, "no binary path to write in uprobe_events");
	if (!bad)
		return 0;
	c = (unsigned char)*bad;
	if (c == '\n' || c == ' ' || c == '\t' || c == '#')
		snprintf(what, sizeof(what), "%s", c == '\n' ? "a newline" : c == ' ' ? "a blank" :
			 c == '\t' ? "a tab" : "a '#'");
	else if (c == 0xa0)
		snprintf(what, sizeof(what), "byte 0xa0 (a blank to the kernel)");
	else
		snprintf(what, sizeof(what), "control character 0x%02x", c);
	/* diag_format() escapes the path */
	diag_error(d, SPAN_NONE, "the path %s cannot be written in uprobe_events: it has %s at "
		   "byte %zu", path, what, (size_t)(bad - path) + 1);
	diag_hint(d, "trace it live (upfront gives the kernel its open file), or name the file "
		  "by a path without one (a hard link)");
	return -EINVAL;
}

int fetcharg_format(const struct trace_probe *tp, struct strbuf *out)
{
	return fetcharg_format_at(tp, tp->path, out);
}

int fetcharg_format_at(const struct trace_probe *tp, const char *path, struct strbuf *out)
{
	size_t i;

	if (!path || !*path || path_bad_byte(path))
		return -EINVAL;
	strbuf_addch(out, tp->is_return ? 'r' : 'p');
	if (tp->event && tp->group)
		strbuf_addf(out, ":%s/%s", tp->group, tp->event);
	else if (tp->event)
		strbuf_addf(out, ":%s", tp->event);
	strbuf_addf(out, " %s:0x%" PRIx64, path, tp->offset);
	if (tp->ref_ctr_offset)
		strbuf_addf(out, "(0x%" PRIx64 ")", tp->ref_ctr_offset);
	for (i = 0; i < tp->nr_fields; i++) {
		const struct fetch_field *f = &tp->fields[i];

		if (!fetch_field_written(f))
			continue;
		strbuf_addch(out, ' ');
		if (f->name)
			strbuf_addf(out, "%s=", f->name);
		strbuf_addstr(out, f->fetch ? f->fetch : "");
		if (f->type)
			strbuf_addf(out, ":%s", f->type);
	}
	return 0;
}

static struct span mkspan(const char *line, const char *s, size_t len)
{
	return (struct span){ (int)(s - line), (int)len };
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_c_ident(const char *s, size_t len)
{
	size_t i;

	if (!len || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (i = 1; i < len; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return false;
	return true;
}

/* The '%return' and '(REF_CTR)' suffixes, then PATH:OFFSET. */
static int parse_target(const char *line, const char *s, size_t len, struct trace_probe *tp,
			struct diag *d)
{
	const char *colon = NULL, *p, *e = s + len;
	char *end, *num;

	if (len && e[-1] == ')') {
		for (p = e - 1; p > s && *p != '('; p--)
			;
		if (*p != '(')
			return diag_error(d, mkspan(line, e - 1, 1), "unexpected ')'");
		num = xstrndup(p + 1, e - 1 - (p + 1));
		errno = 0;
		tp->ref_ctr_offset = strtoull(num, &end, 0);
		if (!*num || *end || errno) {
			free(num);
			return diag_error(d, mkspan(line, p + 1, e - 1 - (p + 1)),
					  "expected a reference counter offset inside '()'");
		}
		free(num);
		e = p; /* a reference counter offset (USDT semaphores) */
	}
	if (e - s >= 7 && !memcmp(e - 7, "%return", 7)) {
		tp->is_return = true;
		e -= 7;
	}
	for (p = s; p < e; p++)
		if (*p == ':')
			colon = p;
	if (!colon || colon == s)
		return diag_error(d, mkspan(line, s, len), "expected PATH:OFFSET");
	if (colon + 1 == e || !isdigit((unsigned char)colon[1]))
		return diag_error(d, mkspan(line, colon, e - colon),
				  "expected an offset after ':'");
	num = xstrndup(colon + 1, e - colon - 1);
	errno = 0;
	tp->offset = strtoull(num, &end, 0);
	if (*end || errno) {
		free(num);
		return diag_error(d, mkspan(line, colon + 1, e - colon - 1),
				  "expected a decimal or 0x offset");
	}
	free(num);
	tp->path = xstrndup(s, colon - s);
	return 0;
}

static int parse_field(const char *line, const char *s, size_t len, size_t pos,
		       struct trace_probe *tp, struct diag *d)
{
	const char *e = s + len, *eq, *colon = NULL, *p, *fetch = s;
	char *name, *f, *type = NULL;
	int depth = 0;

	eq = memchr(s, '=', len);
	if (eq) {
		if (!is_c_ident(s, eq - s))
			return diag_error(d, mkspan(line, s, eq - s),
					  "argument name '%.*s' is not a C identifier", (int)(eq - s),
					  s);
		fetch = eq + 1;
	}
	for (p = fetch; p < e; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth)
			depth--;
		else if (*p == ':' && !depth)
			colon = p;
	}
	if ((colon ? colon : e) == fetch)
		return diag_error(d, mkspan(line, s, len), "expected a fetcharg");
	if (colon && colon + 1 == e)
		return diag_error(d, mkspan(line, colon, 1), "expected a type after ':'");
	name = eq ? xstrndup(s, eq - s) : xasprintf("arg%zu", pos + 1);
	f = xstrndup(fetch, (colon ? colon : e) - fetch);
	if (colon)
		type = xstrndup(colon + 1, e - colon - 1);
	trace_probe_add_field(tp, name, f, type, false);
	free(name);
	free(f);
	free(type);
	return 0;
}

int fetcharg_parse(const char *line, struct trace_probe *tp, struct diag *d)
{
	const char *p = line, *s, *slash;
	size_t pos = 0;
	int ret;

	memset(tp, 0, sizeof(*tp));
	while (is_blank(*p))
		p++;
	if ((*p != 'p' && *p != 'r') || (p[1] && !is_blank(p[1]) && p[1] != ':'))
		return diag_error(d, mkspan(line, p, *p ? 1 : 0),
				  "expected 'p' or 'r' at the start of a uprobe_events line");
	tp->is_return = *p == 'r';
	p++;
	if (*p == ':') {
		s = ++p;
		while (*p && !is_blank(*p))
			p++;
		slash = memchr(s, '/', p - s);
		if (slash) {
			if (!is_c_ident(s, slash - s))
				return diag_error(d, mkspan(line, s, slash - s),
						  "group name '%.*s' is not a C identifier",
						  (int)(slash - s), s);
			tp->group = xstrndup(s, slash - s);
			s = slash + 1;
		} else {
			tp->group = xstrdup("uprobes");
		}
		if (!is_c_ident(s, p - s))
			return diag_error(d, mkspan(line, s, p - s),
					  "event name '%.*s' is not a C identifier", (int)(p - s), s);
		tp->event = xstrndup(s, p - s);
	}
	while (is_blank(*p))
		p++;
	if (!*p)
		return diag_error(d, mkspan(line, p, 0), "expected PATH:OFFSET");
	for (s = p; *p && !is_blank(*p); p++)
		;
	ret = parse_target(line, s, p - s, tp, d);
	if (ret)
		return ret;
	for (;;) {
		while (is_blank(*p))
			p++;
		if (!*p)
			break;
		for (s = p; *p && !is_blank(*p); p++)
			;
		ret = parse_field(line, s, p - s, pos++, tp, d);
		if (ret)
			return ret;
	}
	return 0;
}

static int base_type_size(const char *t, size_t len)
{
	static const struct {
		const char *name;
		int size;
	} types[] = {
		{ "u8", 1 }, { "s8", 1 }, { "x8", 1 }, { "char", 1 },
		{ "u16", 2 }, { "s16", 2 }, { "x16", 2 },
		{ "u32", 4 }, { "s32", 4 }, { "x32", 4 },
		{ "u64", 8 }, { "s64", 8 }, { "x64", 8 }, { "symbol", 8 },
		/* a 32-bit data_loc in the fixed part; the bytes go after it */
		{ "string", 4 }, { "ustring", 4 }, { "symstr", 4 }, { "%pd", 4 }, { "%pD", 4 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(types); i++)
		if (strlen(types[i].name) == len && !memcmp(types[i].name, t, len))
			return types[i].size;
	return -1;
}

/* strict decimal in [min, max] over s[0..len), or -1 */
static long dec(const char *s, size_t len, long min, long max)
{
	long v = 0;
	size_t i;

	if (!len)
		return -1;
	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
		if (v > max)
			return -1;
	}
	return v < min ? -1 : v;
}

/* array_len() - N of "T[N]", 0 if @type is no array, -1 if it is a malformed one */
static long array_len(const char *type, size_t *base_len)
{
	const char *open = strchr(type, '[');
	size_t len = strlen(type);

	*base_len = len;
	if (!open)
		return 0;
	*base_len = open - type;
	if (len < 3 || type[len - 1] != ']')
		return -1;
	return dec(open + 1, type + len - 1 - (open + 1), 1, INT_MAX / 8);
}

int fetcharg_type_size(const char *type)
{
	size_t base_len;
	long n, w, o, c;
	const char *at, *slash;
	int size;

	if (!type || !*type)
		return -1;
	if (type[0] == 'b' && isdigit((unsigned char)type[1])) {
		at = strchr(type, '@');
		slash = at ? strchr(at, '/') : NULL;
		if (!slash)
			return -1;
		w = dec(type + 1, at - type - 1, 1, 64);
		o = dec(at + 1, slash - at - 1, 0, 63);
		c = dec(slash + 1, strlen(slash + 1), 8, 64);
		if (w < 0 || o < 0 || (c != 8 && c != 16 && c != 32 && c != 64) || w + o > c)
			return -1;
		return (int)(c / 8);
	}
	n = array_len(type, &base_len);
	if (n < 0)
		return -1;
	size = base_type_size(type, base_len);
	if (size < 0)
		return -1;
	return n ? (int)(size * n) : size;
}

int fetcharg_count_derefs(const char *fetch)
{
	int n = 0;

	for (; fetch && *fetch; fetch++)
		if (*fetch == '(')
			n++;
	return n;
}

static bool is_string_type(const char *type, size_t len)
{
	return (len == 6 && !memcmp(type, "string", 6)) ||
	       (len == 7 && !memcmp(type, "ustring", 7)) ||
	       (len == 6 && !memcmp(type, "symstr", 6));
}

/* "name" or "name (from 'expr')": which value a kernel field is part of, for messages */
static void field_label(const struct trace_probe *tp, size_t i, struct strbuf *sb)
{
	size_t k;

	strbuf_addf(sb, "'%s'", tp->fields[i].name ? tp->fields[i].name : "?");
	for (k = 0; k < tp->nr_args; k++) {
		const struct trace_arg *a = &tp->args[k];
		bool mine = (int)i >= a->field && (int)i < a->field + (a->nr_fields ? a->nr_fields : 1);
		int g;

		mine = mine || (int)i == a->len_field;
		for (g = 0; g < a->nr_guards && g < TRACE_ARG_MAX_GUARDS; g++)
			mine = mine || (int)i == a->guards[g];
		if (mine && a->expr) {
			strbuf_addf(sb, " (from '%s')", a->expr);
			return;
		}
	}
}

static int limit_error(struct diag *d, int err, const struct trace_probe *tp, size_t i,
		       const char *what, long have, int max)
{
	struct strbuf label = STRBUF_INIT;

	strbuf_init(&label);
	field_label(tp, i, &label);
	diag_error(d, SPAN_NONE, "argument %s: %s is %ld; the kernel allows at most %d",
		   label.buf, what, have, max);
	strbuf_release(&label);
	return err;
}

static int check_name(const char *what, const char *name, int max, struct diag *d)
{
	size_t len = name ? strlen(name) : 0;

	if (!name || !is_c_ident(name, len))
		return diag_error(d, SPAN_NONE, "%s name '%s' is not a C identifier", what,
				  name ? name : "");
	if (max > 0 && len > (size_t)max) {
		diag_error(d, SPAN_NONE,
			   "%s name '%s' is %zu characters; the kernel allows at most %d", what,
			   name, len, max);
		return -E2BIG;
	}
	return 0;
}

int fetcharg_check_limits(const struct trace_probe *tp, const struct kernel_features *kf,
			  struct diag *d)
{
	long fixed = 0, strings = 0;
	size_t i, j, base_len, written = 0;
	int ret;

	ret = check_name("group", tp->group, kf->max_event_name, d);
	if (!ret)
		ret = check_name("event", tp->event, kf->max_event_name, d);
	if (ret)
		return ret;
	for (i = 0; i < tp->nr_fields; i++)
		written += fetch_field_written(&tp->fields[i]);
	if (kf->max_args > 0 && written > (size_t)kf->max_args) {
		diag_error(d, SPAN_NONE,
			   "event '%s' has %zu arguments; the kernel allows at most %d per event",
			   tp->event, written, kf->max_args);
		if (written != tp->nr_fields)
			diag_hint(d, "this kernel has no array types: each text chunk or array is "
				  "written as one field per 8 bytes; capture fewer or shorter values "
				  "(--string-size)");
		return -E2BIG;
	}
	for (i = 0; i < tp->nr_fields; i++) {
		const struct fetch_field *f = &tp->fields[i];
		size_t len;
		long n;
		int size;

		if (!f->name || !is_c_ident(f->name, strlen(f->name))) {
			diag_error(d, SPAN_NONE, "argument name '%s' is not a C identifier",
				   f->name ? f->name : "");
			return -EINVAL;
		}
		if (kf->max_name_len > 0 && strlen(f->name) > (size_t)kf->max_name_len)
			return limit_error(d, -E2BIG, tp, i, "the length of its name",
					   (long)strlen(f->name), kf->max_name_len);
		for (j = 0; j < i; j++)
			if (!strcmp(tp->fields[j].name, f->name)) {
				diag_error(d, SPAN_NONE, "argument name '%s' is used twice in event '%s'",
					   f->name, tp->event);
				return -EINVAL;
			}
		if (!fetch_field_written(f))
			continue;	/* its pieces are checked; a constant is upfront's */
		if (!f->fetch || !*f->fetch) {
			diag_error(d, SPAN_NONE, "argument '%s' has no fetcharg", f->name);
			return -EINVAL;
		}
		if (!kf->has_imm && strchr(f->fetch, '\\')) {
			diag_error(d, SPAN_NONE, "argument '%s': this kernel has no constant fetchargs "
				   "(\\IMM): %s", f->name, f->fetch);
			return -EINVAL;
		}
		len = strlen(f->fetch) + (f->type ? 1 + strlen(f->type) : 0);
		if (kf->max_arg_len > 0 && len > (size_t)kf->max_arg_len)
			return limit_error(d, -E2BIG, tp, i,
					   "the length of its expression (FETCH:TYPE)", (long)len,
					   kf->max_arg_len);
		n = fetcharg_count_derefs(f->fetch);
		if (kf->max_derefs > 0 && n > kf->max_derefs)
			return limit_error(d, -E2BIG, tp, i, "the number of nested dereferences",
					   n, kf->max_derefs);
		if (!f->type) {
			/* the kernel's default type: an unsigned long */
			fixed += 8;
			continue;
		}
		size = fetcharg_type_size(f->type);
		if (size < 0) {
			diag_error(d, SPAN_NONE, "argument '%s': unknown kernel type '%s'", f->name,
				   f->type);
			return -EINVAL;
		}
		n = array_len(f->type, &base_len);
		if (n && !kf->has_array) {
			diag_error(d, SPAN_NONE, "argument '%s': this kernel has no array types "
				   "(%s)", f->name, f->type);
			return -EINVAL;
		}
		if (kf->max_array > 0 && n > kf->max_array)
			return limit_error(d, -E2BIG, tp, i, "the number of array elements", n,
					   kf->max_array);
		if (!strncmp(f->type, "char", 4) && !kf->has_char) {
			diag_error(d, SPAN_NONE,
				   "argument '%s': this kernel has no 'char' type (6.2+); use u8",
				   f->name);
			return -EINVAL;
		}
		if (!strncmp(f->type, "ustring", 7) && !kf->has_ustring) {
			diag_error(d, SPAN_NONE, "argument '%s': this kernel has no 'ustring' type",
				   f->name);
			return -EINVAL;
		}
		/* a hidden :string is a fault check: one byte where its value is 0 (check_field) */
		if (is_string_type(f->type, base_len) && !f->hidden)
			strings += n ? n : 1;
		fixed += size;
	}
	if (kf->max_event_size > 0 && fixed > kf->max_event_size) {
		diag_error(d, SPAN_NONE,
			   "event '%s' has %ld bytes of fixed fields; the kernel allows at most %d",
			   tp->event, fixed, kf->max_event_size);
		diag_hint(d, "capture fewer or shorter values (--string-size), or less stack "
			     "(--stack=dwarf,BYTES)");
		return -E2BIG;
	}
	{
		struct strbuf line = STRBUF_INIT;
		size_t len;

		strbuf_init(&line);
		fetcharg_format_at(tp, tp->kpath ? tp->kpath : tp->path ? tp->path : "/", &line);
		len = line.len;
		strbuf_release(&line);
		if (len > FETCHARG_MAX_LINE) {
			diag_error(d, SPAN_NONE, "event '%s' is %zu bytes of uprobe_events line; the "
				   "kernel takes at most %d", tp->event, len, FETCHARG_MAX_LINE);
			diag_hint(d, "capture fewer or shorter values (--string-size, --value-size)%s",
				  written != tp->nr_fields ? "; this kernel has no array types: "
				  "text is written as one field per 8 bytes" : "");
			return -E2BIG;
		}
	}
	if (kf->max_strings > 0 && strings > kf->max_strings) {
		diag_error(d, SPAN_NONE,
			   "event '%s' has %ld :string fields; upfront allows at most %d per event",
			   tp->event, strings, kf->max_strings);
		diag_hint(d, "each can add up to 4096 bytes and the kernel silently drops a "
			     "record larger than a page; split the probe");
		return -E2BIG;
	}
	return 0;
}

/* ---- a raw fetcharg the user wrote (%REG | RAW-FETCHARG, passed to the kernel as is) ---- */

/* Nesting of +OFF(...) a raw fetcharg may have; the kernel's own limit is lower (max_derefs). */
#define RAW_MAX_DEPTH 32

struct raw_check {
	const char *s;
	size_t len;
	size_t bad;		/* where the first problem is */
	const char *why;	/* what it is; NULL while none */
};

static bool raw_fail(struct raw_check *rc, size_t at, const char *why)
{
	if (!rc->why) {
		rc->bad = at;
		rc->why = why;
	}
	return false;
}

/*
 * A byte the kernel must never see in an argument: uprobe_events ends an argument at a blank,
 * ends the command at a newline and reads the rest of the line after '#' as a comment (the
 * type and every later argument dropped without an error); control bytes, DEL and non-ASCII
 * bytes have no place in its grammar either.
 */
static bool raw_byte_ok(struct raw_check *rc, size_t i)
{
	unsigned char c = (unsigned char)rc->s[i];

	if (c == '#')
		return raw_fail(rc, i, "'#' starts a comment in uprobe_events: the kernel would "
				"drop the rest of the probe");
	if (c <= 0x20 || c >= 0x7f)
		return raw_fail(rc, i, "a raw fetcharg is printable ASCII without blanks");
	return true;
}

/* NUMBER := DIGITS | 0xHEXDIGITS at @i; the index after it */
static bool raw_number(struct raw_check *rc, size_t *i, const char *what)
{
	size_t k = *i;

	if (k + 2 < rc->len && rc->s[k] == '0' && (rc->s[k + 1] == 'x' || rc->s[k + 1] == 'X') &&
	    isxdigit((unsigned char)rc->s[k + 2])) {
		for (k += 2; k < rc->len && isxdigit((unsigned char)rc->s[k]); k++)
			;
	} else {
		for (; k < rc->len && isdigit((unsigned char)rc->s[k]); k++)
			;
	}
	if (k == *i)
		return raw_fail(rc, *i, what);
	*i = k;
	return true;
}

static bool raw_word(const struct raw_check *rc, size_t i, const char *w)
{
	size_t n = strlen(w);

	return i + n <= rc->len && !memcmp(rc->s + i, w, n);
}

/* \IMM or \"TEXT" at @i (the backslash) */
static bool raw_immediate(struct raw_check *rc, size_t *i)
{
	size_t k = *i + 1;

	if (k < rc->len && rc->s[k] == '"') {
		for (k++; k < rc->len && rc->s[k] != '"'; k++)
			;
		if (k >= rc->len)
			return raw_fail(rc, *i, "unterminated \\\"TEXT\" immediate");
		*i = k + 1;
		return true;
	}
	if (k < rc->len && rc->s[k] == '-')
		k++;
	if (!raw_number(rc, &k, "expected a number or \"TEXT\" after '\\'"))
		return false;
	*i = k;
	return true;
}

/*
 * FETCH := %REG | @ADDR | @+OFFSET | $stack | $stackN | $retval | $comm | \IMM | \"TEXT"
 *        | +OFF(FETCH) | -OFF(FETCH) | +uOFF(FETCH)
 * (Documentation/trace/uprobetracer.rst), and $argN of an SDT probe (upfront's, replaced
 * before the kernel sees it); the index after it in *@i
 */
static bool raw_fetch(struct raw_check *rc, size_t *i, int depth)
{
	size_t k = *i, open;

	if (k >= rc->len)
		return raw_fail(rc, k, "expected a fetcharg");
	switch (rc->s[k]) {
	case '%':
		for (k++; k < rc->len && isalnum((unsigned char)rc->s[k]); k++)
			;
		if (k == *i + 1)
			return raw_fail(rc, *i, "expected a register name after '%'");
		break;
	case '@':
		k++;
		if (k < rc->len && rc->s[k] == '+')
			k++;
		if (!raw_number(rc, &k, "expected an address after '@' (@ADDR or @+OFFSET; "
				"uprobes take no symbols)"))
			return false;
		break;
	case '$':
		if (raw_word(rc, k, "$stack")) {
			for (k += 6; k < rc->len && isdigit((unsigned char)rc->s[k]); k++)
				;
		} else if (raw_word(rc, k, "$retval") || raw_word(rc, k, "$comm")) {
			k += rc->s[k + 1] == 'r' ? 7 : 5;
		} else if (raw_word(rc, k, "$arg") && k + 4 < rc->len &&
			   isdigit((unsigned char)rc->s[k + 4])) {
			/* an SDT probe's argument, replaced by its fetch (sdt.c) */
			for (k += 4; k < rc->len && isdigit((unsigned char)rc->s[k]); k++)
				;
		} else {
			return raw_fail(rc, k, "expected $stack, $stackN, $retval, $comm or $argN");
		}
		break;
	case '\\':
		if (!raw_immediate(rc, &k))
			return false;
		break;
	case '+':
	case '-':
		k++;
		if (k < rc->len && rc->s[k] == 'u')
			k++;
		if (!raw_number(rc, &k, "expected an offset: +OFF(FETCHARG)"))
			return false;
		if (k >= rc->len || rc->s[k] != '(')
			return raw_fail(rc, k, "expected '(' after the offset: +OFF(FETCHARG)");
		if (depth >= RAW_MAX_DEPTH)
			return raw_fail(rc, k, "too deeply nested");
		open = k++;
		if (!raw_fetch(rc, &k, depth + 1))
			return false;
		if (k >= rc->len)
			return raw_fail(rc, open, "unterminated '('");
		if (rc->s[k] != ')')
			return raw_fail(rc, k, "expected ')'");
		k++;
		break;
	default:
		return raw_fail(rc, k, "expected a fetcharg: %REG, @ADDR, +OFF(FETCHARG), "
				"$stackN or \\IMM");
	}
	*i = k;
	return true;
}

const char *fetcharg_check_raw(const char *s, size_t len, size_t *bad)
{
	struct raw_check rc = { .s = s, .len = len };
	size_t i;

	/* the bytes first: a '#' anywhere (in a \"TEXT\" too) is the worst thing to pass on */
	for (i = 0; i < len; i++)
		if (!raw_byte_ok(&rc, i))
			break;
	i = 0;
	if (!rc.why && raw_fetch(&rc, &i, 0) && i < len)
		raw_fail(&rc, i, s[i] == ')' ? "unexpected ')'" :
			 "unexpected character after the fetcharg");
	if (rc.why)
		*bad = rc.bad;
	return rc.why;
}
