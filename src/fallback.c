// SPDX-License-Identifier: GPL-2.0-or-later
/* fallback.c - scalar pieces for arrays, constants kept by upfront, an event per point */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_DOMAIN "fallback"
#include "fallback.h"
#include "log.h"

/* How an array's fetch reads memory: at +OFF(INNER), at @ADDR or at @+FILE_OFFSET. */
struct mem_fetch {
	enum { MEM_DEREF, MEM_ADDR, MEM_FILE } kind;
	bool user;		/* +uOFF(...) */
	long long off;		/* MEM_DEREF: OFF; else the address or file offset */
	const char *inner;	/* MEM_DEREF: "(INNER)", borrowed from the fetch */
};

static bool parse_mem_fetch(const char *fetch, struct mem_fetch *m)
{
	const char *p = fetch;
	char *end;
	bool neg;

	memset(m, 0, sizeof(*m));
	if (*p == '@') {
		m->kind = p[1] == '+' ? MEM_FILE : MEM_ADDR;
		p += m->kind == MEM_FILE ? 2 : 1;
		if (!isdigit((unsigned char)*p))
			return false;
		m->off = (long long)strtoull(p, &end, 0);
		return !*end;
	}
	if (*p != '+' && *p != '-')
		return false;
	neg = *p++ == '-';
	if (*p == 'u') {
		m->user = true;
		p++;
	}
	if (!isdigit((unsigned char)*p))
		return false;
	m->off = strtoll(p, &end, 0);
	if (neg)
		m->off = -m->off;
	m->kind = MEM_DEREF;
	m->inner = end;
	return *end == '(' && fetch[strlen(fetch) - 1] == ')';
}

/* the fetch that reads @add bytes past where @m reads */
static char *mem_fetch_at(const struct mem_fetch *m, long long add)
{
	long long o = m->off + add;

	switch (m->kind) {
	case MEM_ADDR:
		return xasprintf("@0x%llx", (unsigned long long)o);
	case MEM_FILE:
		return xasprintf("@+0x%llx", (unsigned long long)o);
	default:
		return xasprintf("%c%s%lld%s", o < 0 ? '-' : '+', m->user ? "u" : "",
				 o < 0 ? -o : o, m->inner);
	}
}

static bool field_name_used(const struct trace_probe *tp, const char *name)
{
	for (size_t i = 0; i < tp->nr_fields; i++)
		if (tp->fields[i].name && !strcmp(tp->fields[i].name, name))
			return true;
	return false;
}

/* a name for the pieces of field @i, NAME cut so that NAME_w<@nr - 1> fits */
static char *piece_base(const struct trace_probe *tp, size_t i, int nr,
			const struct kernel_features *kf)
{
	int digits = snprintf(NULL, 0, "%d", nr - 1);
	int room = (kf->max_name_len > 0 ? kf->max_name_len : 32) - 2 - digits;
	char *base = xasprintf("%.*s", room, tp->fields[i].name);

	for (int k = 0; k < nr; k++) {
		char *n = xasprintf("%s_w%d", base, k);
		bool used = field_name_used(tp, n);

		free(n);
		if (used) {
			free(base);
			return xasprintf("upft_a%zu", i);
		}
	}
	return base;
}

/* how many scalar pieces split_array() makes of @bytes */
static int nr_pieces(int bytes)
{
	return bytes / 8 + __builtin_popcount((unsigned int)(bytes % 8));
}

size_t fallback_kernel_fields(const struct trace_probe *tp, const struct kernel_features *kf,
			      size_t *line)
{
	size_t n = 0, len = 0;

	for (size_t i = 0; i < tp->nr_fields; i++) {
		const struct fetch_field *f = &tp->fields[i];
		size_t one = strlen(f->name) + strlen(f->fetch ? f->fetch : "") +
			     (f->type ? strlen(f->type) : 0) + 3;
		int k = 1;

		if (f->local || f->pieces || (!kf->has_imm && f->fetch && f->fetch[0] == '\\'))
			continue;	/* a constant upfront keeps; pieces counted as fields */
		if (!kf->has_array && f->type && strchr(f->type, '[')) {
			k = nr_pieces(fetcharg_type_size(f->type));
			one += 6;	/* _wK=, a few more offset digits, u64 for u8[N] */
		}
		n += (size_t)k;
		len += one * (size_t)k;
	}
	if (line)
		*line = len;
	return n;
}

static int split_array(struct trace_probe *tp, size_t i, const struct kernel_features *kf,
		       struct diag *d)
{
	const char *type = tp->fields[i].type;
	int bytes = fetcharg_type_size(type), nr = 0, at, first = -1;
	struct mem_fetch m;
	char *base;

	if (!strncmp(type, "string", 6) || !strncmp(type, "ustring", 7) ||
	    !strncmp(type, "symstr", 6) || bytes <= 0)
		return diag_error(d, SPAN_NONE, "argument '%s': this kernel has no array types, and "
				  "an array of strings (%s) has no other form", tp->fields[i].name,
				  type);
	if (!parse_mem_fetch(tp->fields[i].fetch, &m))
		return diag_error(d, SPAN_NONE, "argument '%s': this kernel has no array types, and "
				  "'%s:%s' cannot be read as words", tp->fields[i].name,
				  tp->fields[i].fetch, type);
	base = piece_base(tp, i, nr_pieces(bytes), kf);
	for (at = 0, nr = 0; at < bytes; nr++) {
		int size = bytes - at >= 8 ? 8 : bytes - at >= 4 ? 4 : bytes - at >= 2 ? 2 : 1;
		char *name = xasprintf("%s_w%d", base, nr), *fetch = mem_fetch_at(&m, at);
		char t[8];
		int k;

		snprintf(t, sizeof(t), "u%d", size * 8);
		k = trace_probe_add_field(tp, name, fetch, t, true);
		if (first < 0)
			first = k;
		free(name);
		free(fetch);
		at += size;
	}
	free(base);
	tp->fields[i].pieces = nr;
	tp->fields[i].first_piece = first;
	return 0;
}

/* +OFF(\ADDR) -> @ADDR+OFF, in place; false when a \ is left that is not one */
static bool inline_constant_reads(struct fetch_field *f)
{
	char *p;

	while ((p = strstr(f->fetch, "(\\"))) {
		char *s = p, *end;
		unsigned long long addr;
		long long off;
		bool neg;

		/* back to the +OFF or -OFF (or +uOFF) of this dereference */
		while (s > f->fetch && (isxdigit((unsigned char)s[-1]) || s[-1] == 'x' ||
					s[-1] == 'u'))
			s--;
		if (s == f->fetch || (s[-1] != '+' && s[-1] != '-') || p[2] == '"')
			return false;
		neg = *--s == '-';
		off = strtoll(s + 1 + (s[1] == 'u'), NULL, 0);
		addr = strtoull(p + 2, &end, 0);
		if (*end != ')' || end == p + 2)
			return false;
		{
			char *n = xasprintf("%.*s@0x%llx%s", (int)(s - f->fetch), f->fetch,
					    addr + (unsigned long long)(neg ? -off : off), end + 1);

			free(f->fetch);
			f->fetch = n;
		}
	}
	return !strchr(f->fetch, '\\');
}

static int keep_constant(struct trace_probe *tp, size_t i, struct diag *d)
{
	struct fetch_field *f = &tp->fields[i];
	const char *t = f->type ? f->type : "u64";
	char *end;

	if (f->fetch[0] != '\\') {
		if (inline_constant_reads(f))
			return 0;
		return diag_error(d, SPAN_NONE, "argument '%s': this kernel has no constant "
				  "fetchargs (\\IMM), and '%s' has no other form", f->name,
				  f->fetch);
	}
	errno = 0;
	if (f->fetch[1] == '-')
		(void)strtoll(f->fetch + 1, &end, 0);
	else
		(void)strtoull(f->fetch + 1, &end, 0);
	if (f->fetch[1] == '"' || *end || end == f->fetch + 1 || errno ||
	    !strchr("usx", t[0]) || strchr(t, '[') || fetcharg_type_size(t) <= 0)
		return diag_error(d, SPAN_NONE, "argument '%s': this kernel has no constant "
				  "fetchargs (\\IMM); upfront keeps integers for it, not %s:%s",
				  f->name, f->fetch, t);
	f->local = true;
	return 0;
}

/*
 * fallback_halve_file_offsets() - @fetch with each @+OFF written @+OFF/2, for a kernel that
 * reads @+OFF at base + 2 * OFF (kcaps.h); NULL when an OFF is odd (no such form)
 */
char *fallback_halve_file_offsets(const char *fetch)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = fetch, *at;

	while ((at = strstr(p, "@+"))) {
		char *end;
		unsigned long long off = strtoull(at + 2, &end, 0);

		if (end == at + 2 || (off & 1)) {
			strbuf_release(&sb);
			return NULL;
		}
		strbuf_addf(&sb, "%.*s@+0x%llx", (int)(at - p), p, off / 2);
		p = end;
	}
	strbuf_addstr(&sb, p);
	return strbuf_detach(&sb);
}

/*
 * A read at a file offset (@+OFF: a global in a %return probe, whose %ip is its caller's): on
 * a kernel that reads it at twice the offset (kcaps.h: Linux 4.20 until the 2026 stable fix),
 * at half of it (checked by the self-test); on one that reads it elsewhere, or an odd offset
 * there, no other form: refused, with the reason
 */
static int check_file_offset(const struct trace_probe *tp, struct fetch_field *f,
			     const struct kernel_features *kf, struct diag *d)
{
	enum kcaps_foffs how;
	char *half;

	if (!strstr(f->fetch, "@+"))
		return 0;
	how = kcaps_file_offset(kf);
	if (how == KCAPS_FOFFS_RIGHT)
		return 0;
	if (how == KCAPS_FOFFS_DOUBLED && (half = fallback_halve_file_offsets(f->fetch))) {
		pr_debug("%s: %s written %s (this kernel reads @+ at twice the offset)", f->name,
			 f->fetch, half);
		free(f->fetch);
		f->fetch = half;
		return 0;
	}
	diag_error(d, SPAN_NONE, "cannot read '%s'%s: it is read at a file offset (%s) and %s",
		   f->name, tp->is_return ? " in a %return probe" : "", f->fetch,
		   !kf->has_file_offset ? "UPFRONT_KERNEL_FEATURES masks @+FILE_OFFSET (file_offset)" :
		   how == KCAPS_FOFFS_DOUBLED ? "this kernel reads @+FILE_OFFSET at twice the "
		   "offset (Linux 4.20 until the 2026 stable fix 'tracing/probes: Fix double "
		   "addition of offset for @+FOFFSET'), and half of this one is no whole number" :
		   "this kernel reads @+FILE_OFFSET at another place (upfront's self-test read a "
		   "wrong value)");
	diag_hint(d, "a global is read relative to the probe's address at an entry or a line "
		  "probe: read it there (FUNC, or FUNC:LINE of the return)");
	return -EINVAL;
}

int fallback_fields(struct trace_probe *tp, const struct kernel_features *kf, struct diag *d)
{
	size_t n = tp->nr_fields;

	for (size_t i = 0; i < n; i++) {
		struct fetch_field *f = &tp->fields[i];
		int ret = 0;

		if (!fetch_field_written(f) || !f->fetch)
			continue;
		ret = check_file_offset(tp, f, kf, d);
		if (ret)
			return ret;
		if (!kf->has_imm && strchr(f->fetch, '\\'))
			ret = keep_constant(tp, i, d);
		else if (!kf->has_array && f->type && strchr(f->type, '['))
			ret = split_array(tp, i, kf, d);
		if (ret)
			return ret;
	}
	return 0;
}

/* the fields @a and @b write are the same (names and types, in order) */
static bool same_written(const struct trace_probe *a, const struct trace_probe *b)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < a->nr_fields && !fetch_field_written(&a->fields[i]))
			i++;
		while (j < b->nr_fields && !fetch_field_written(&b->fields[j]))
			j++;
		if (i == a->nr_fields || j == b->nr_fields)
			return i == a->nr_fields && j == b->nr_fields;
		if (strcmp(a->fields[i].name, b->fields[j].name) ||
		    strcmp(a->fields[i].type ? a->fields[i].type : "",
			   b->fields[j].type ? b->fields[j].type : ""))
			return false;
		i++;
		j++;
	}
}

static bool event_used(const struct trace_probe *tps, size_t nr, const char *group,
		       const char *event)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(tps[i].event, event) && !strcmp(tps[i].group, group))
			return true;
	return false;
}

/* the next free NAME__K of @tp's event for its point, from *@k on */
static char *split_name(const struct trace_probe *tps, size_t nr, const struct trace_probe *tp,
			int max, int *k)
{
	for (;; ++*k) {
		int digits = snprintf(NULL, 0, "%d", *k);
		char *n = xasprintf("%.*s__%d", max - 2 - digits, tp->event, *k);

		if (!event_used(tps, nr, tp->group, n))
			return n;
		free(n);
	}
}

void fallback_events(struct trace_probe *tps, size_t nr, const struct kernel_features *kf)
{
	int max = kf->max_event_name > 0 ? kf->max_event_name : 63;

	for (size_t i = 0; i < nr;) {
		size_t end = i + 1, owner;
		char *name;
		int k = 2;

		while (end < nr && !strcmp(tps[end].event, tps[i].event) &&
		       !strcmp(tps[end].group, tps[i].group) && !tps[end].merged)
			end++;
		for (size_t j = i + 1; j < end; j++) {
			/* with multi-probe events, a point joins the first event with its fields */
			for (owner = i; kf->has_multi_probe && owner < j; owner++)
				if ((owner == i || tps[owner].merged) && same_written(&tps[owner],
										      &tps[j]))
					break;
			if (kf->has_multi_probe && owner < j) {
				if (owner != i) {
					free(tps[j].event);
					tps[j].event = xstrdup(tps[owner].event);
					tps[j].merged = xstrdup(tps[i].event);
				}
				continue;
			}
			tps[j].merged = xstrdup(tps[i].event);
			name = split_name(tps, nr, &tps[j], max, &k);
			free(tps[j].event);
			tps[j].event = name;
			pr_debug("%s: point %zu as event %s", tps[j].merged, j - i + 1,
				 tps[j].event);
		}
		i = end;
	}
}

bool fallback_merged_name(const char *event, size_t *len)
{
	size_t n = strlen(event), d = n;

	while (d > 0 && isdigit((unsigned char)event[d - 1]))
		d--;
	if (d == n || d < 3 || event[d - 1] != '_' || event[d - 2] != '_' || event[d] == '0' ||
	    (n - d == 1 && event[d] == '1'))
		return false;
	*len = d - 2;
	return true;
}
