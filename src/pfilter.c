// SPDX-License-Identifier: GPL-2.0-or-later
/* pfilter.c - per-probe filters: the kernel's part and the part decided on decoded events */
#define LOG_DOMAIN "filter"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "dynfilter.h"
#include "fetcharg.h"
#include "log.h"
#include "pfilter.h"
#include "util.h"

enum pred_op { OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE };

/* duration OP ns */
struct pred {
	enum pred_op op;
	double ns;
};

struct pfilter {
	const char *text;	/* as given (borrowed from argv) */
	char *probe;		/* event name or glob; NULL: every probe */
	char *kernel;		/* the kernel's part, or NULL */
	struct pred *preds;	/* the user-side part: all must hold */
	size_t nr_preds;
};

/* What one event of the session gets, once checked. */
struct pevent {
	char *event;
	struct pred *preds;	/* copies of the predicates for it */
	size_t nr_preds;
	bool drop_unpaired;	/* a return whose entry is filtered in the kernel */
};

struct pfilters {
	struct pfilter *v;
	size_t nr;
	struct pevent *evs;
	size_t nr_evs, alloc_evs;
};

/* Fields every event has (the kernel's common fields and its filter's aliases). */
static const char *const common_fields[] = {
	"common_type", "common_flags", "common_preempt_count", "common_pid", "comm", "COMM",
	"cpu", "CPU", "common_cpu", "common_timestamp", "common_stacktrace", "__probe_ip",
};

/* "job:", "get*:", "job%return:" at the start of @s: the probe's length, else 0 */
static size_t probe_prefix(const char *s)
{
	size_t n = 0;

	while (isalnum((unsigned char)s[n]) || strchr("_*?[]%", s[n]))
		n++;
	if (!n || s[n] != ':' || s[n + 1] == ':')
		return 0;
	return n;
}

/*
 * Whether @s[*@i] (of @s[0..len)) is part of a quoted string, '...' or "..." with a backslash
 * escaping the character after it: *@q is the quote open before it, or 0, and is updated; an
 * escape moves *@i onto the character it escapes
 */
static bool quoted(const char *s, size_t len, size_t *i, char *q)
{
	if (*q) {
		if (s[*i] == '\\' && *i + 1 < len)
			(*i)++;
		else if (s[*i] == *q)
			*q = 0;
		return true;
	}
	if (s[*i] == '"' || s[*i] == '\'') {
		*q = s[*i];
		return true;
	}
	return false;
}

/* @s[0..len) mentions the identifier @id outside quotes */
static bool mentions(const char *s, size_t len, const char *id)
{
	size_t n = strlen(id);
	char q = 0;

	for (size_t i = 0; i < len; i++) {
		if (quoted(s, len, &i, &q))
			continue;
		if (i + n <= len && !strncmp(s + i, id, n) &&
		    (i == 0 || !(isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_')) &&
		    (i + n == len || !(isalnum((unsigned char)s[i + n]) || s[i + n] == '_')))
			return true;
	}
	return false;
}

/* "duration > 1.5ms": the predicate, or -EINVAL */
static int parse_pred(const char *s, size_t len, struct pred *p)
{
	static const struct {
		const char *text;
		enum pred_op op;
	} ops[] = { { "<=", OP_LE }, { ">=", OP_GE }, { "==", OP_EQ }, { "!=", OP_NE },
		    { "<", OP_LT }, { ">", OP_GT } };
	static const struct {
		const char *unit;
		double ns;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };
	char *t = xstrndup(s, len), *q = t, *end;
	size_t i;
	int ret = -EINVAL;

	while (isspace((unsigned char)*q))
		q++;
	if (strncmp(q, "duration", 8))
		goto out;
	q += 8;
	while (isspace((unsigned char)*q))
		q++;
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strncmp(q, ops[i].text, strlen(ops[i].text)))
			break;
	if (i == ARRAY_SIZE(ops))
		goto out;
	p->op = ops[i].op;
	q += strlen(ops[i].text);
	while (isspace((unsigned char)*q))
		q++;
	if (!isdigit((unsigned char)*q) && *q != '.')
		goto out;
	p->ns = strtod(q, &end);
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		size_t n = strlen(units[i].unit);

		if (!strncmp(end, units[i].unit, n) && !isalpha((unsigned char)end[n]))
			break;
	}
	if (i == ARRAY_SIZE(units))
		goto out;
	p->ns *= units[i].ns;
	end += strlen(units[i].unit);
	while (isspace((unsigned char)*end))
		end++;
	ret = *end ? -EINVAL : 0;
out:
	free(t);
	return ret;
}

/*
 * Split @expr at its top-level "&&": terms naming duration are upfront's, the rest the
 * kernel's, and-ed again. duration anywhere else (under "||", in parentheses) is refused.
 */
static int split_expr(struct pfilter *f, const char *expr, struct diag *d)
{
	struct strbuf k = STRBUF_INIT;
	size_t start = 0, len = strlen(expr);
	int depth = 0, ret = 0;
	bool top_or = false;
	char q = 0;

	for (size_t i = 0; i <= len; i++) {
		char c = expr[i];

		if (q && c) {
			if (c == '\\' && expr[i + 1])
				i++;
			else if (c == q)
				q = 0;
			continue;
		}
		if (c == '"' || c == '\'') {
			q = c;
			continue;
		}
		depth += c == '(' ? 1 : c == ')' ? -1 : 0;
		if (depth == 0 && c == '|' && expr[i + 1] == '|')
			top_or = true;
		if (c && !(depth == 0 && c == '&' && expr[i + 1] == '&'))
			continue;
		/* a term: expr[start, i) */
		if (mentions(expr + start, i - start, "duration")) {
			struct pred p;

			if (top_or || parse_pred(expr + start, i - start, &p) < 0) {
				ret = diag_error(d, SPAN_NONE, "--filter '%s': duration is decided "
						 "by upfront, not the kernel: it takes 'duration OP "
						 "N UNIT' (ns, us, ms, s), and-ed (&&) with the rest",
						 f->text);
				break;
			}
			f->preds = xrealloc(f->preds, (f->nr_preds + 1) * sizeof(*f->preds));
			f->preds[f->nr_preds++] = p;
		} else {
			if (k.len)
				strbuf_addstr(&k, " && ");
			strbuf_add(&k, expr + start, i - start);
		}
		start = i + 2;
		i++;
	}
	if (ret == 0 && top_or && f->nr_preds)
		ret = diag_error(d, SPAN_NONE, "--filter '%s': duration cannot be or-ed (||)",
				 f->text);
	if (ret == 0 && k.len) {
		/* trim: the kernel's part as written, without the blanks around the && */
		char *s = strbuf_detach(&k);
		size_t a = strspn(s, " \t"), b = strlen(s);

		while (b > a && isspace((unsigned char)s[b - 1]))
			b--;
		f->kernel = b > a ? xstrndup(s + a, b - a) : NULL;
		free(s);
	}
	strbuf_release(&k);
	return ret;
}

struct pfilters *pfilters_new(char *const *texts, size_t nr, struct diag *d)
{
	struct pfilters *fs = xcalloc(1, sizeof(*fs));

	fs->v = xcalloc(nr ? nr : 1, sizeof(*fs->v));
	for (size_t i = 0; i < nr; i++) {
		struct pfilter *f = &fs->v[fs->nr++];
		size_t n = probe_prefix(texts[i]);

		f->text = texts[i];
		if (n) {
			char *p = xstrndup(texts[i], n), *r = strstr(p, "%return");

			/* FUNC%return as the probe was written: its event is FUNC__return */
			if (r && !r[7]) {
				*r = '\0';
				f->probe = xasprintf("%s__return", p);
				free(p);
			} else {
				f->probe = p;
			}
		}
		if (split_expr(f, texts[i] + (n ? n + 1 : 0), d) < 0) {
			pfilters_free(fs);
			return NULL;
		}
	}
	return fs;
}

void pfilters_free(struct pfilters *fs)
{
	if (!fs)
		return;
	for (size_t i = 0; i < fs->nr; i++) {
		free(fs->v[i].probe);
		free(fs->v[i].kernel);
		free(fs->v[i].preds);
	}
	for (size_t i = 0; i < fs->nr_evs; i++) {
		free(fs->evs[i].event);
		free(fs->evs[i].preds);
	}
	free(fs->evs);
	free(fs->v);
	free(fs);
}

static bool applies(const struct pfilter *f, const struct trace_probe *tp)
{
	return !f->probe || !fnmatch(f->probe, tp->event, 0);
}

static bool has_field(const struct trace_probe *tp, const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(common_fields); i++)
		if (strlen(common_fields[i]) == len && !strncmp(common_fields[i], name, len))
			return true;
	for (size_t i = 0; i < tp->nr_fields; i++)
		if (strlen(tp->fields[i].name) == len && !strncmp(tp->fields[i].name, name, len))
			return true;
	return false;
}

/*
 * The first field the kernel part compares that @tp lacks: an identifier followed by a
 * comparison (a bare word on the right may be a string value). Its length in *@len.
 */
static const char *missing_field(const char *k, const struct trace_probe *tp, size_t *len)
{
	size_t klen = strlen(k);
	char q = 0;

	for (size_t i = 0; k[i]; i++) {
		size_t n = 0, j;

		if (quoted(k, klen, &i, &q))
			continue;
		if (!(isalpha((unsigned char)k[i]) || k[i] == '_') ||
		    (i && (isalnum((unsigned char)k[i - 1]) || k[i - 1] == '_')))
			continue;
		/* a typeid() compared with a class: its right side is a class, not a field */
		n = dynfilter_cmp_len(k, i, tp);
		if (n) {
			i += n - 1;
			continue;
		}
		while (isalnum((unsigned char)k[i + n]) || k[i + n] == '_')
			n++;
		for (j = i + n; k[j] == ' ' || k[j] == '\t'; j++)
			;
		if (strchr("=!<>~&", k[j]) && k[j] && !has_field(tp, k + i, n)) {
			*len = n;
			return k + i;
		}
		i += n - 1;
	}
	return NULL;
}

static void field_list(struct strbuf *sb, const struct trace_probe *tp)
{
	for (size_t i = 0; i < tp->nr_fields; i++)
		if (!tp->fields[i].hidden)
			strbuf_addf(sb, "%s%s", sb->len ? ", " : "", tp->fields[i].name);
	if (!sb->len)
		strbuf_addstr(sb, "none but comm, common_pid, CPU");
}

static int check_one(const struct pfilter *f, const struct trace_probe *tp,
		     const struct trace_probe *tps, size_t nr, struct diag *d)
{
	struct strbuf sb = STRBUF_INIT;
	const char *miss;
	size_t n, n2;
	int ret = 0;

	if (f->kernel && (miss = missing_field(f->kernel, tp, &n))) {
		field_list(&sb, tp);
		ret = diag_error(d, SPAN_NONE, "--filter '%s': probe %s has no field '%.*s' (its "
				 "fields: %s)", f->text, tp->event, (int)n, miss, sb.buf);
		/* for every probe: name one that has the fields */
		for (size_t i = 0; !f->probe && i < nr; i++) {
			if (!missing_field(f->kernel, &tps[i], &n2)) {
				diag_hint(d, "a filter for one probe: --filter '%s:%s'",
					  tps[i].event, f->text);
				break;
			}
		}
	} else if (f->nr_preds && f->probe && tp->call != CALL_RETURN) {
		ret = diag_error(d, SPAN_NONE, "--filter '%s': probe %s has no duration: a return "
				 "probe (FUNC%%return, probed with FUNC) carries it", f->text,
				 tp->event);
	}
	strbuf_release(&sb);
	return ret;
}

static struct pevent *pevent_get(struct pfilters *fs, const char *event)
{
	for (size_t i = 0; i < fs->nr_evs; i++)
		if (!strcmp(fs->evs[i].event, event))
			return &fs->evs[i];
	ALLOC_GROW(fs->evs, fs->nr_evs + 1, fs->alloc_evs);
	memset(&fs->evs[fs->nr_evs], 0, sizeof(fs->evs[0]));
	fs->evs[fs->nr_evs].event = xstrdup(event);
	return &fs->evs[fs->nr_evs++];
}

/* the predicates of @f for @tp's event; a filtered entry marks its function's returns */
static void collect(struct pfilters *fs, const struct pfilter *f, const struct trace_probe *tp,
		    const struct trace_probe *tps, size_t nr)
{
	struct pevent *e;

	if (f->nr_preds && tp->call == CALL_RETURN) {
		e = pevent_get(fs, tp->event);
		e->preds = xrealloc(e->preds, (e->nr_preds + f->nr_preds) * sizeof(*e->preds));
		memcpy(e->preds + e->nr_preds, f->preds, f->nr_preds * sizeof(*f->preds));
		e->nr_preds += f->nr_preds;
	}
	if (!f->kernel || tp->call != CALL_ENTRY || !tp->func)
		return;
	for (size_t i = 0; i < nr; i++)
		if (tps[i].call == CALL_RETURN && tps[i].func && !strcmp(tps[i].func, tp->func))
			pevent_get(fs, tps[i].event)->drop_unpaired = true;
}

int pfilters_check(struct pfilters *fs, const struct trace_probe *tps, size_t nr,
		   struct diag *d)
{
	for (size_t i = 0; i < fs->nr; i++) {
		const struct pfilter *f = &fs->v[i];
		bool any = false;

		for (size_t k = 0; k < nr; k++) {
			/* points of one event share its fields: the first speaks for all */
			if (!applies(f, &tps[k]) || (k && !strcmp(tps[k - 1].event, tps[k].event)))
				continue;
			any = true;
			if (check_one(f, &tps[k], tps, nr, d) < 0)
				return -EINVAL;
			collect(fs, f, &tps[k], tps, nr);
		}
		if (!any && f->probe) {
			struct strbuf sb = STRBUF_INIT;

			for (size_t k = 0; k < nr; k++)
				if (!k || strcmp(tps[k - 1].event, tps[k].event))
					strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", tps[k].event);
			diag_error(d, SPAN_NONE, "--filter '%s': no probe '%s' (probes: %s)",
				   f->text, f->probe, sb.len ? sb.buf : "none");
			strbuf_release(&sb);
			return -EINVAL;
		}
	}
	return 0;
}

char *pfilters_kernel(const struct pfilters *fs, const struct trace_probe *tp)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;

	for (size_t i = 0; fs && i < fs->nr; i++)
		if (fs->v[i].kernel && applies(&fs->v[i], tp))
			n++;
	for (size_t i = 0; n && i < fs->nr; i++) {
		if (!fs->v[i].kernel || !applies(&fs->v[i], tp))
			continue;
		if (sb.len)
			strbuf_addstr(&sb, " && ");
		strbuf_addf(&sb, n > 1 ? "(%s)" : "%s", fs->v[i].kernel);
	}
	return sb.len ? strbuf_detach(&sb) : (strbuf_release(&sb), NULL);
}

bool pfilters_wants_events(const struct pfilters *fs)
{
	return fs && fs->nr_evs;
}

static bool pred_holds(const struct pred *p, double ns)
{
	switch (p->op) {
	case OP_LT:
		return ns < p->ns;
	case OP_LE:
		return ns <= p->ns;
	case OP_GT:
		return ns > p->ns;
	case OP_GE:
		return ns >= p->ns;
	case OP_EQ:
		return ns == p->ns;
	default:
		return ns != p->ns;
	}
}

bool pfilters_pass(const struct pfilters *fs, const struct event *ev)
{
	const struct pevent *e = NULL;

	for (size_t i = 0; i < fs->nr_evs && !e; i++)
		if (!strcmp(fs->evs[i].event, ev->probe))
			e = &fs->evs[i];
	if (!e)
		return true;
	if (ev->duration_ns < 0)
		return !(e->drop_unpaired || e->nr_preds);
	for (size_t i = 0; i < e->nr_preds; i++)
		if (!pred_holds(&e->preds[i], (double)ev->duration_ns))
			return false;
	return true;
}

void pfilters_kernel_hint(const struct trace_probe *tp, const char *filter, struct diag *d)
{
	for (size_t i = 0; tp && i < tp->nr_args; i++) {
		const struct trace_arg *a = &tp->args[i];
		const char *at = a->name ? strstr(filter, a->name) : NULL;
		size_t n = a->name ? strlen(a->name) : 0;

		if (a->kind != VK_LSTRING && a->kind != VK_BYTES &&
		    (a->field < 0 || (size_t)a->field >= tp->nr_fields ||
		     !tp->fields[a->field].local))
			continue;
		/* the name as a whole word of the filter */
		while (at && ((at > filter && (isalnum((unsigned char)at[-1]) || at[-1] == '_')) ||
			      isalnum((unsigned char)at[n]) || at[n] == '_'))
			at = strstr(at + 1, a->name);
		if (!at)
			continue;
		if (a->kind != VK_LSTRING && a->kind != VK_BYTES) {
			diag_hint(d, "'%s' is a constant here, which this kernel cannot fetch "
				  "(no \\IMM): upfront keeps it, and the kernel's filter cannot see it",
				  a->name);
			return;
		}
		diag_hint(d, "'%s' is text with a length, fetched in fixed-size chunks, which kernel "
			  "filters cannot compare as text (they can for C strings read with "
			  ":string); filter on numbers%s%s instead", a->name,
			  a->len_field >= 0 ? " such as its length " : "",
			  a->len_field >= 0 ? tp->fields[a->len_field].name : "");
		return;
	}
}
