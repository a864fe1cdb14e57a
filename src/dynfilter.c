// SPDX-License-Identifier: GPL-2.0-or-later
/* dynfilter.c - --filter on a C++ dynamic type made numeric: the vtable pointers of a class in
 * the files of the traced processes */
#define LOG_DOMAIN "filter"
#include <ctype.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfo.h"
#include "dynfilter.h"
#include "dyntype.h"
#include "elfinfo.h"
#include "log.h"
#include "nsroot.h"
#include "procmaps.h"

#define MAX_WORDS 64	/* addresses one comparison may become (the kernel takes 4095 bytes) */

/* A file of the traced processes, where one of them loaded it. */
struct dfile {
	struct debuginfo *dbg;
	bool owned;
	uint64_t bias;
};

struct dfiles {
	struct debuginfo *probed;
	pid_t pid;		/* the process being read (file_add()) */
	struct dfile *v;
	size_t nr, alloc;
};

/* One comparison: LHS OP RHS at filter[start, end). */
struct cmp {
	size_t start, end;
	const struct trace_arg *a;
	char op;		/* '=', '!', '~' */
	char *rhs;		/* the class or glob, unquoted */
};

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* @s with its blanks left out, for comparing expressions as typed */
static char *squeeze(const char *s, size_t n)
{
	char *out = xmalloc(n + 1), *o = out;

	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			*o++ = s[i];
	*o = '\0';
	return out;
}

/* the typeid() argument of @tp named @name, or typed as @name (typeid(*p)) */
static const struct trace_arg *typeid_arg(const struct trace_probe *tp, const char *s, size_t n)
{
	char *want = squeeze(s, n);
	const struct trace_arg *found = NULL;

	for (size_t i = 0; i < tp->nr_args && !found; i++) {
		const struct trace_arg *a = &tp->args[i];
		char *e;

		if (a->kind != VK_TYPENAME)
			continue;
		e = a->expr ? squeeze(a->expr, strlen(a->expr)) : NULL;
		if ((a->name && !strcmp(a->name, want)) || (e && !strcmp(e, want)))
			found = a;
		free(e);
	}
	free(want);
	return found;
}

/* the end of "typeid(...)" at @s, or 0 when @s is no typeid() */
static size_t typeid_len(const char *s)
{
	size_t i = 6;
	int depth = 0;

	if (strncmp(s, "typeid", 6) || is_ident(s[6]))
		return 0;
	while (isspace((unsigned char)s[i]))
		i++;
	if (s[i] != '(')
		return 0;
	for (; s[i]; i++) {
		if (s[i] == '(')
			depth++;
		else if (s[i] == ')' && --depth == 0)
			return i + 1;
	}
	return 0;
}

/* The right-hand side at @s: a quoted string, or a class name up to a top-level "&&", "||"
 * or unmatched ')'. Return: its length in the filter, with @rhs a new string; 0 if none. */
static size_t rhs_parse(const char *s, char **rhs)
{
	size_t i = 0, end;
	int depth = 0;

	*rhs = NULL;
	if (*s == '"') {
		const char *q = strchr(s + 1, '"');

		if (!q)
			return 0;
		*rhs = xstrndup(s + 1, (size_t)(q - s - 1));
		return (size_t)(q - s) + 1;
	}
	if (!*s || isdigit((unsigned char)*s))
		return 0;	/* a number: the kernel compares it as it is */
	for (; s[i]; i++) {
		if (s[i] == '<' || s[i] == '(' || s[i] == '[')
			depth++;
		else if ((s[i] == '>' || s[i] == ')' || s[i] == ']') && depth > 0)
			depth--;
		else if (!depth && (s[i] == ')' || !strncmp(s + i, "&&", 2) ||
				    !strncmp(s + i, "||", 2)))
			break;
	}
	end = i;
	while (end && isspace((unsigned char)s[end - 1]))
		end--;
	if (!end)
		return 0;
	*rhs = xstrndup(s, end);
	return end;
}

/* Where the next word at or after @i starts (outside quoted strings), or the end. */
static size_t next_word(const char *filter, size_t i)
{
	for (; filter[i]; i++) {
		if (filter[i] == '"') {
			const char *q = strchr(filter + i + 1, '"');

			if (!q)
				return strlen(filter);
			i = (size_t)(q - filter);
		} else if (is_ident(filter[i]) && (!i || !is_ident(filter[i - 1]))) {
			return i;
		}
	}
	return i;
}

/* The comparison of a typeid() argument that starts at filter[@i], if there is one. */
static int cmp_at(const char *filter, size_t i, const struct trace_probe *tp, struct cmp *c,
		  struct diag *d)
{
	size_t n = typeid_len(filter + i), j;
	const char *s = filter + i;

	memset(c, 0, sizeof(*c));
	if (!n)
		while (is_ident(s[n]))
			n++;
	c->a = typeid_arg(tp, s, n);
	if (!c->a) {
		if (!strncmp(s, "typeid", 6) && typeid_len(s))
			return diag_error(d, SPAN_NONE, "--filter: '%.*s' is none of the probe's "
					  "arguments; a filter compares the typeid() arguments the "
					  "probe fetches", (int)n, s);
		return 0;
	}
	for (j = n; isspace((unsigned char)s[j]); j++)
		;
	if ((s[j] == '=' || s[j] == '!') && s[j + 1] == '=') {
		c->op = s[j];
		j += 2;
	} else if (s[j] == '~') {
		c->op = '~';
		j++;
	} else {
		return 0;
	}
	while (isspace((unsigned char)s[j]))
		j++;
	n = rhs_parse(s + j, &c->rhs);
	if (!n) {
		c->a = NULL;
		return 0;
	}
	c->start = i;
	c->end = i + j + n;
	return 1;
}

size_t dynfilter_cmp_len(const char *filter, size_t i, const struct trace_probe *tp)
{
	struct diag d;
	struct cmp c;
	size_t n;

	diag_init(&d, NULL);
	n = cmp_at(filter, i, tp, &c, &d) > 0 ? c.end - c.start : 0;
	free(c.rhs);
	diag_release(&d);
	return n;
}

bool dynfilter_wanted(const char *filter, const struct trace_probe *tp)
{
	struct diag d;
	struct cmp c;
	bool found = false;

	if (!filter)
		return false;
	diag_init(&d, NULL);
	for (size_t i = next_word(filter, 0); filter[i] && !found; i = next_word(filter, i + 1)) {
		/* a typeid() that is none of the arguments: dynfilter_rewrite() says so */
		found = cmp_at(filter, i, tp, &c, &d) != 0;
		free(c.rhs);
	}
	diag_release(&d);
	return found;
}

/* ---- the files of the traced processes ---- */

static bool file_add(void *arg, const char *path, uint64_t lo, uint64_t hi, uint64_t pgoff)
{
	struct dfiles *fs = arg;
	struct debuginfo *dbg = NULL;
	bool owned = false;
	uint64_t bias;
	struct diag d;
	char *in_ns;

	(void)hi;
	if (path[0] != '/')
		return false;
	/* as the process names it: in its own mount namespace (a container) */
	in_ns = nsroot_path(fs->pid, path);
	if (in_ns)
		path = in_ns;
	for (size_t i = 0; i < fs->nr && !dbg; i++)
		if (!strcmp(debuginfo_path(fs->v[i].dbg), path))
			dbg = fs->v[i].dbg;
	if (!dbg && fs->probed && !strcmp(debuginfo_path(fs->probed), path))
		dbg = fs->probed;
	if (!dbg) {
		diag_init(&d, NULL);
		dbg = debuginfo_open(path, &d);
		diag_release(&d);
		owned = true;
	}
	free(in_ns);
	if (!dbg || elfinfo_mapping_bias(debuginfo_elf(dbg), lo, pgoff, &bias)) {
		if (owned)
			debuginfo_free(dbg);
		return false;
	}
	for (size_t i = 0; i < fs->nr; i++)
		if (fs->v[i].dbg == dbg && fs->v[i].bias == bias)
			return false;
	ALLOC_GROW(fs->v, fs->nr + 1, fs->alloc);
	fs->v[fs->nr++] = (struct dfile){ dbg, owned, bias };
	return false;
}

static void files_release(struct dfiles *fs)
{
	for (size_t i = 0; i < fs->nr; i++)
		if (fs->v[i].owned)
			debuginfo_free(fs->v[i].dbg);
	free(fs->v);
}

static bool is_exec(struct debuginfo *dbg)
{
	GElf_Ehdr eh;

	return gelf_getehdr(debuginfo_elf(dbg), &eh) && eh.e_type == ET_EXEC;
}

/* ---- class names -> addresses ---- */

/* Append the address points that objects of class @c hold at typeid()'s word of @a. */
static void class_words(struct dfiles *fs, const struct trace_arg *a, const char *c,
			uint64_t *words, size_t *nr)
{
	struct dyntypes *dtp = fs->probed ? dyntypes_of(fs->probed) : NULL;

	for (size_t i = 0; i < fs->nr && *nr <= MAX_WORDS; i++) {
		struct dyntypes *dt = dyntypes_of(fs->v[i].dbg);
		uint64_t vt, size, ap, w;
		int64_t s_in_c;
		bool seen = false;

		if (!dyntypes_cxx_vtable(dt, c, &vt, &size) ||
		    dyntypes_cxx_base_in(dt, dt == dtp ? NULL : dtp, c, a->dyn_class, &s_in_c) <= 0 ||
		    !dyntypes_cxx_address_point_in(dt, dt == dtp ? NULL : dtp, c, s_in_c + a->dyn_off,
						   &ap))
			continue;
		w = fs->v[i].bias + ap;
		for (size_t k = 0; k < *nr && !seen; k++)
			seen = words[k] == w;
		if (!seen)
			words[(*nr)++] = w;
		pr_debug("filter: %s in %s: 0x%" PRIx64, c, debuginfo_path(fs->v[i].dbg), w);
	}
}

/* The classes @c names: itself, or those a glob matches, in every file. */
static void class_names(struct dfiles *fs, const struct cmp *c, struct strlist *out)
{
	for (size_t i = 0; i < fs->nr; i++) {
		struct strlist l = STRLIST_INIT;

		dyntypes_cxx_vtables(dyntypes_of(fs->v[i].dbg), c->op == '~' ? c->rhs : "*", &l);
		for (size_t k = 0; k < l.nr; k++) {
			bool seen = false;

			if (c->op != '~' && !dyntype_cxx_same(l.v[k], c->rhs))
				continue;
			for (size_t j = 0; j < out->nr && !seen; j++)
				seen = !strcmp(out->v[j], l.v[k]);
			if (!seen)
				strlist_add(out, l.v[k]);
		}
		strlist_release(&l);
	}
}

static int cmp_emit(struct dfiles *fs, const struct cmp *c, struct strbuf *sb, struct diag *d)
{
	struct strlist classes = STRLIST_INIT;
	uint64_t words[MAX_WORDS + 1];
	const char *name = c->a->name;
	size_t nr = 0;

	class_names(fs, c, &classes);
	for (size_t i = 0; i < classes.nr && nr <= MAX_WORDS; i++)
		class_words(fs, c->a, classes.v[i], words, &nr);
	if (!nr && classes.nr)
		diag_error(d, SPAN_NONE, "--filter: %s%s is not %s or a class derived from it (the "
			   "static type of typeid()'s object), or its place in one is not in the "
			   "DWARF: '%s' would never hold its vtable", classes.v[0], classes.nr > 1 ?
			   " (and the other classes matched)" : "", c->a->dyn_class, name);
	else if (!nr)
		diag_error(d, SPAN_NONE, "--filter: no class %s '%s' has a vtable in %s (classes are "
			   "spelled as typeid() shows them; '~' takes a glob)",
			   c->op == '~' ? "matching" : "named", c->rhs,
			   fs->nr > 1 ? "the files of the traced processes" :
			   debuginfo_path(fs->v[0].dbg));
	else if (nr > MAX_WORDS)
		diag_error(d, SPAN_NONE, "--filter: '%s' stands for more than %d vtable addresses "
			   "(%zu classes): a filter that long is not for the kernel; narrow it",
			   c->rhs, MAX_WORDS, classes.nr);
	strlist_release(&classes);
	if (!nr || nr > MAX_WORDS)
		return -EINVAL;
	strbuf_addch(sb, '(');
	for (size_t i = 0; i < nr; i++)
		strbuf_addf(sb, "%s%s %s 0x%" PRIx64, i ? (c->op == '!' ? " && " : " || ") : "",
			    name, c->op == '!' ? "!=" : "==", words[i]);
	strbuf_addch(sb, ')');
	return 0;
}

/* The files whose addresses are known: the processes', or a non-PIE probed binary. */
static int files_get(struct dfiles *fs, struct debuginfo *dbg, const pid_t *pids,
		     size_t nr_pids, const struct cmp *c, struct diag *d)
{
	bool probed_mapped = false;

	for (size_t i = 0; i < nr_pids; i++) {
		fs->pid = pids[i];
		procmaps_read(pids[i], file_add, fs);
	}
	for (size_t i = 0; i < fs->nr; i++)
		probed_mapped |= fs->v[i].dbg == dbg;
	if (nr_pids && dbg && !probed_mapped)
		pr_warn("--filter: %s is not mapped by process %d yet: the filter holds the vtables "
			"of the files it maps now, not of those it loads later", debuginfo_path(dbg),
			(int)pids[0]);
	if (!nr_pids && dbg && is_exec(dbg)) {
		ALLOC_GROW(fs->v, fs->nr + 1, fs->alloc);
		fs->v[fs->nr++] = (struct dfile){ dbg, false, 0 };
	}
	if (fs->nr)
		return 0;
	if (nr_pids)
		return diag_error(d, SPAN_NONE, "--filter: the traced process%s %d ha%s no file "
				  "mapped to take the vtables of '%s' from", nr_pids > 1 ? "es" : "",
				  (int)pids[0], nr_pids > 1 ? "ve" : "s", c->rhs);
	return diag_error(d, SPAN_NONE, "--filter: where the vtables of '%s' are is not known "
			  "before a process maps %s (position-independent): give -p PID or -- CMD",
			  c->rhs, debuginfo_path(dbg));
}

/* dynfilter_rewrite(); with @check, only the comparisons are checked (no file is read) */
static int rewrite(const char *filter, const struct trace_probe *tp, struct debuginfo *dbg,
		   const pid_t *pids, size_t nr_pids, bool check, char **out, struct diag *d)
{
	struct dfiles fs = { .probed = dbg };
	struct strbuf sb = STRBUF_INIT;
	size_t copied = 0;
	int ret = 0;

	*out = NULL;
	strbuf_init(&sb);
	for (size_t i = next_word(filter, 0); filter[i] && !ret; i = next_word(filter, i + 1)) {
		struct cmp c;
		int r;

		r = cmp_at(filter, i, tp, &c, d);
		if (r > 0 && !c.a->dyn_class)
			r = diag_error(d, SPAN_NONE, "--filter: '%s' is not the dynamic type of a C++ "
				       "object; a filter compares C++ classes only", c.a->expr);
		if (r > 0 && check)
			r = 0;
		if (r > 0 && !fs.nr && !fs.v)
			r = files_get(&fs, dbg, pids, nr_pids, &c, d) ? -EINVAL : 1;
		if (r > 0) {
			strbuf_add(&sb, filter + copied, c.start - copied);
			r = cmp_emit(&fs, &c, &sb, d);
			copied = c.end;
			i = c.end - 1;	/* the next word starts after it */
		}
		free(c.rhs);
		ret = r < 0 ? r : 0;
	}
	if (!ret && copied) {
		strbuf_addstr(&sb, filter + copied);
		*out = strbuf_detach(&sb);
		pr_info("--filter for %s: %s", tp->event, *out);
	}
	strbuf_release(&sb);
	files_release(&fs);
	return ret;
}

int dynfilter_rewrite(const char *filter, const struct trace_probe *tp, struct debuginfo *dbg,
		      const pid_t *pids, size_t nr_pids, char **out, struct diag *d)
{
	return rewrite(filter, tp, dbg, pids, nr_pids, false, out, d);
}

int dynfilter_check(const char *filter, const struct trace_probe *tp, struct diag *d)
{
	char *out;

	return rewrite(filter, tp, NULL, NULL, 0, true, &out, d);
}
