// SPDX-License-Identifier: GPL-2.0-or-later
/* decode.c - raw tracefs records -> typed values, following the translator's trace_arg */
#define LOG_DOMAIN "decode"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#undef ARRAY_SIZE
#include "arch/arch.h"
#include "regs.h"
#include "calls.h"
#include "debuginfo.h"
#include "decode-internal.h"
#include "decode.h"
#include "dynname.h"
#include "dyntype.h"
#include "log.h"
#include "symbolize.h"
#include "tasks.h"
#include "tracing.h"
#include "ustack.h"

#define ARENA_SIZE (64 * 1024)	/* strings of one event; a record is at most a page */
#define IP_CACHE 1024		/* power of two */
#define USTACK_MAX 64		/* frames of one user_stack record (8 on 6.18) */

struct dprobe {
	const struct trace_probe *tp;
	struct fld *flds;	/* one per tp->fields */
	int ret0_off;		/* USTACK_RET0_FIELD, or -1 */
	unsigned int func;	/* durations: calls_func() of a CALL_ENTRY/CALL_RETURN, or 0 */
	int sp_off, g_off, hi_off;	/* DECODE_SP_FIELD, _G_, _STACK_HI_, or -1 */
	struct ustack_layout stack;	/* --stack=dwarf: registers and the stack's copy */
	bool at_entry;		/* the probe is at the function's first instruction */
	bool in_dbg;		/* the probe is in the decoder's binary */
};

struct dev {
	struct tep_event *te;
	char *sys, *name;
	char *shown;		/* generic: the name its events get, if not its own */
	bool generic;
	struct dprobe *probes;
	size_t nr_probes, alloc_probes;
	/* the probes by their address's offset in its page (probe_of()); built for nr_paged */
	struct page_ix *paged;
	size_t nr_paged;
	int ip_off;		/* __probe_ip (p:) or __probe_func (r:), -1 if none */
	int fixed_size;		/* bytes of the fixed fields: a shorter record is corrupt */
	struct tep_format_field **gfields;	/* generic: the non-common fields */
	bool *ghex;				/* generic: the field is an address: hex */
	size_t nr_gfields;
	struct value *vals;
	size_t max_vals;
};

struct page_ix {
	uint32_t in_page;	/* vaddr % 4096 */
	uint32_t probe;		/* index in dev->probes */
};

struct ip_entry {
	int tgid;
	uint64_t ip;
	int probe;		/* index in dev->probes */
	struct dev *dev;
};

struct decoder {
	struct tep_handle *tep;
	struct debuginfo *dbg;
	struct symbolizer *sym;
	struct dynnames *dn;	/* type words -> dynamic types, in any object of a process */
	int cur_tgid;		/* the event's process (':sym' of a library's address) */
	struct calls *calls;	/* durations: pending calls */
	struct tasks *tasks;	/* tid -> process, name */
	int pid_off, type_off, type_size;
	struct dev **by_id;
	size_t nr_ids;
	char *arena;
	size_t arena_used;
	struct ip_entry ips[IP_CACHE];
	struct trace_seq seq;
	/* --stack */
	bool stacks;
	int us_pid_off, us_caller_off, us_nr;
	uint64_t last_ret0;	/* of the last decoded record: $stack0 at an entry, or 0 */
	uint64_t last_base;	/* its binary's load base, or UINT64_MAX */
	const char *last_rec;	/* --stack=dwarf: its record, and where its copy is */
	const struct ustack_layout *last_stack;
	struct ustack *us;
};

struct decoder *decoder_new(struct tep_handle *tep, struct debuginfo *dbg, bool lookup_tasks)
{
	struct decoder *dc = xcalloc(1, sizeof(*dc));

	dc->tep = tep;
	dc->dbg = dbg;
	dc->sym = symbolizer_new(dbg);
	dc->us = ustack_new(dc->sym);
	dc->dn = dynnames_new(dc->sym);
	dc->calls = calls_new();
	dc->tasks = tasks_new(lookup_tasks);
	dc->arena = xmalloc(ARENA_SIZE);
	dc->pid_off = 4;
	dc->type_off = 0;
	dc->type_size = 2;
	trace_seq_init(&dc->seq);
	return dc;
}

static void dev_free(struct dev *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nr_probes; i++)
		free(e->probes[i].flds);
	free(e->probes);
	free(e->paged);
	free(e->gfields);
	free(e->ghex);
	free(e->vals);
	free(e->sys);
	free(e->name);
	free(e->shown);
	free(e);
}

void decoder_free(struct decoder *dc)
{
	if (!dc)
		return;
	for (size_t i = 0; i < dc->nr_ids; i++) {
		/* an event is in the table once */
		dev_free(dc->by_id[i]);
	}
	free(dc->by_id);
	dynnames_free(dc->dn);
	ustack_free(dc->us);
	symbolizer_free(dc->sym);
	calls_free(dc->calls);
	tasks_free(dc->tasks);
	free(dc->arena);
	trace_seq_destroy(&dc->seq);
	free(dc);
}

/* fixed_size() - where @te's last fixed field ends: every record of it is at least this long */
static int fixed_size(const struct tep_event *te)
{
	const struct tep_format_field *lists[] = { te->format.common_fields, te->format.fields };
	int end = 0;

	for (size_t i = 0; i < ARRAY_SIZE(lists); i++)
		for (const struct tep_format_field *f = lists[i]; f; f = f->next)
			if (f->offset + f->size > end)
				end = f->offset + f->size;
	return end;
}

static struct dev *dev_get(struct decoder *dc, const char *sys, const char *name, bool generic,
			   struct diag *d)
{
	struct tep_event *te = tep_find_event_by_name(dc->tep, sys, name);
	struct tep_format_field *f;
	struct dev *e;

	if (!te) {
		if (d)
			diag_fail(d, "no format for event %s:%s", sys, name);
		return NULL;
	}
	if ((size_t)te->id < dc->nr_ids && dc->by_id[te->id])
		return dc->by_id[te->id];
	if ((size_t)te->id >= dc->nr_ids) {
		size_t n = te->id + 64;

		dc->by_id = xrealloc(dc->by_id, n * sizeof(*dc->by_id));
		memset(dc->by_id + dc->nr_ids, 0, (n - dc->nr_ids) * sizeof(*dc->by_id));
		dc->nr_ids = n;
	}
	e = xcalloc(1, sizeof(*e));
	e->te = te;
	e->sys = xstrdup(sys);
	e->name = xstrdup(name);
	e->generic = generic;
	e->ip_off = -1;
	e->fixed_size = fixed_size(te);
	f = tep_find_field(te, "__probe_ip");
	if (!f)
		f = tep_find_field(te, "__probe_func");
	if (f)
		e->ip_off = f->offset;
	f = tep_find_common_field(te, "common_pid");
	if (f)
		dc->pid_off = f->offset;
	f = tep_find_common_field(te, "common_type");
	if (f) {
		dc->type_off = f->offset;
		dc->type_size = f->size;
	}
	dc->by_id[te->id] = e;
	return e;
}

static void fld_from(struct fld *fl, const struct tep_format_field *f)
{
	fl->off = f->offset;
	fl->size = f->size;
	fl->dyn = f->flags & TEP_FIELD_IS_DYNAMIC;
	fl->rel = f->flags & TEP_FIELD_IS_RELATIVE;
	fl->is_signed = f->flags & TEP_FIELD_IS_SIGNED;
}

/*
 * A field the kernel does not have (fallback.h): a constant upfront keeps, or an array the
 * kernel got as scalar pieces, which lie one after the other in the record
 */
static int fld_fallback(struct tep_event *te, const struct trace_probe *tp,
			const struct fetch_field *ff, struct fld *fl)
{
	memset(fl, 0, sizeof(*fl));
	fl->type = ff->type;
	if (ff->local) {
		/* "\-5", "\0x41", "\7" of a u/s/x type: its bytes, little-endian */
		uint64_t v = ff->fetch[1] == '-' ? (uint64_t)strtoll(ff->fetch + 1, NULL, 0) :
			     strtoull(ff->fetch + 1, NULL, 0);
		int size = fetcharg_type_size(ff->type ? ff->type : "u64");

		fl->local = true;
		fl->size = size > 0 && size <= 8 ? size : 8;
		fl->is_signed = ff->type && ff->type[0] == 's';
		for (int k = 0; k < 8; k++)
			fl->imm[k] = (char)(v >> (8 * k));
		return 0;
	}
	for (int k = 0; k < ff->pieces; k++) {
		const struct tep_format_field *f =
			tep_find_field(te, tp->fields[ff->first_piece + k].name);

		if (!f || (k && f->offset != fl->off + fl->size))
			return -ENOENT;
		if (!k)
			fl->off = f->offset;
		fl->size += f->size;
	}
	return 0;
}

/*
 * Durations: a probe with a call role and the fields to tell its calls apart gets the number
 * of its function (in its binary: a name may be in several)
 */
static void probe_call_setup(struct decoder *dc, struct dprobe *p)
{
	const struct trace_probe *tp = p->tp;
	char *key;

	if (tp->call == CALL_NONE || !tp->func || p->sp_off < 0 ||
	    (tp->goroutines && (p->g_off < 0 || p->hi_off < 0)))
		return;
	key = xasprintf("%s:%s", tp->path ? tp->path : "", tp->func);
	p->func = calls_func(dc->calls, key);
	free(key);
	if (tp->call == CALL_RETURN)
		calls_expect_returns(dc->calls, p->func);
}

void decode_add_call_fields(struct trace_probe *tp, const struct trace_probe *go)
{
	char fetch[32];

	for (size_t i = 0; i < tp->nr_fields; i++)
		if (!strcmp(tp->fields[i].name, DECODE_SP_FIELD))
			return;
	const struct arch_ops *a = arch_current();
	const char *reg = tp->height_moved ? regs_kernel_name(tp->height_reg) : NULL;

	/* an entry probed past its prologue: the register of the CFA's rule (resolve.c) */
	if (reg)
		snprintf(fetch, sizeof(fetch), "%%%s", reg);
	trace_probe_add_field(tp, DECODE_SP_FIELD, reg ? fetch : a->sp_fetch, "x64", true);
	if (!go)
		return;
	snprintf(fetch, sizeof(fetch), "+%lld(%s)", (long long)go->go_stack_hi, a->g_fetch);
	trace_probe_add_field(tp, DECODE_G_FIELD, a->g_fetch, "x64", true);
	trace_probe_add_field(tp, DECODE_STACK_HI_FIELD, fetch, "x64", true);
}

int decoder_add_probe(struct decoder *dc, const struct trace_probe *tp, struct diag *d)
{
	struct dev *e = dev_get(dc, tp->group, tp->event, false, d);
	struct dprobe *p;

	if (!e)
		return -ENOENT;
	ALLOC_GROW(e->probes, e->nr_probes + 1, e->alloc_probes);
	p = &e->probes[e->nr_probes];
	p->tp = tp;
	p->ret0_off = -1;
	p->at_entry = false;
	p->func = 0;
	p->sp_off = p->g_off = p->hi_off = -1;
	ustack_layout_init(&p->stack);
	p->flds = xcalloc(tp->nr_fields ? tp->nr_fields : 1, sizeof(*p->flds));
	for (size_t i = 0; i < tp->nr_fields; i++) {
		const struct fetch_field *ff = &tp->fields[i];
		struct tep_format_field *f;

		if (ff->local || ff->pieces) {
			if (fld_fallback(e->te, tp, ff, &p->flds[i]) < 0) {
				free(p->flds);
				return diag_fail(d, "event %s:%s has no field %s_w0", tp->group,
						 tp->event, ff->name);
			}
			continue;
		}
		f = tep_find_field(e->te, ff->name);
		if (!f) {
			free(p->flds);
			return diag_fail(d, "event %s:%s has no field %s", tp->group, tp->event,
					 tp->fields[i].name);
		}
		fld_from(&p->flds[i], f);
		p->flds[i].type = tp->fields[i].type;
		if (ustack_layout_field(&p->stack, tp->fields[i].name, f->offset, f->size))
			continue;
		if (!strcmp(tp->fields[i].name, USTACK_RET0_FIELD))
			p->ret0_off = f->offset;
		else if (!strcmp(tp->fields[i].name, DECODE_SP_FIELD))
			p->sp_off = f->offset;
		else if (!strcmp(tp->fields[i].name, DECODE_G_FIELD))
			p->g_off = f->offset;
		else if (!strcmp(tp->fields[i].name, DECODE_STACK_HI_FIELD))
			p->hi_off = f->offset;
	}
	probe_call_setup(dc, p);
	p->in_dbg = dc->dbg && tp->path && !strcmp(tp->path, debuginfo_path(dc->dbg));
	if (p->ret0_off >= 0 && !tp->is_return && p->in_dbg) {
		/* at "func+0x0" the frame is not pushed yet: $stack0 is the return address */
		const char *at = symbolizer_lookup(dc->sym, tp->vaddr);
		size_t n = at ? strlen(at) : 0;

		p->at_entry = tp->ret_at_sp || (n > 4 && !strcmp(at + n - 4, "+0x0"));
	}
	e->nr_probes++;
	if (tp->nr_args > e->max_vals) {
		e->max_vals = tp->nr_args;
		e->vals = xrealloc(e->vals, e->max_vals * sizeof(*e->vals));
	}
	return 0;
}

/*
 * An unsigned field of an existing event that holds an address, by its name (the kernel's
 * types say "unsigned long" for them): __probe_ip, __probe_func, __probe_ret_ip of probe
 * events, ip and parent_ip of the function tracer, call_site, ..._addr, ..._ptr.
 */
static bool field_is_address(const struct tep_format_field *f)
{
	static const char *const names[] = { "ip", "pc", "func", "caller", "call_site", "addr",
					     "address", "ptr", "parent_ip" };
	static const char *const suffixes[] = { "_ip", "_pc", "_func", "_addr", "_address",
						"_ptr", "_site" };
	size_t n = strlen(f->name);

	if ((f->flags & (TEP_FIELD_IS_SIGNED | TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) ||
	    f->size < 4)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(f->name, names[i]))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
		size_t k = strlen(suffixes[i]);

		if (n > k && !strcmp(f->name + n - k, suffixes[i]))
			return true;
	}
	return false;
}

int decoder_add_generic(struct decoder *dc, const char *sys, const char *event, const char *shown,
			struct diag *d)
{
	struct dev *e = dev_get(dc, sys, event, true, d);
	struct tep_format_field **fields;

	if (!e)
		return -ENOENT;
	if (e->gfields)
		return 0;
	if (shown && strcmp(shown, event))
		e->shown = xstrdup(shown);
	fields = tep_event_fields(e->te);
	for (size_t i = 0; fields && fields[i]; i++)
		e->nr_gfields++;
	e->gfields = xcalloc(e->nr_gfields + 1, sizeof(*e->gfields));
	e->ghex = xcalloc(e->nr_gfields + 1, sizeof(*e->ghex));
	for (size_t i = 0; i < e->nr_gfields; i++) {
		e->gfields[i] = fields[i];
		e->ghex[i] = field_is_address(fields[i]);
	}
	free(fields);
	e->max_vals = e->nr_gfields;
	e->vals = xcalloc(e->max_vals + 1, sizeof(*e->vals));
	return 0;
}

void decoder_remove(struct decoder *dc, const char *sys, const char *event)
{
	for (size_t i = 0; i < dc->nr_ids; i++) {
		struct dev *e = dc->by_id[i];

		if (e && !strcmp(e->sys, sys) && !strcmp(e->name, event)) {
			dc->by_id[i] = NULL;
			for (size_t k = 0; k < IP_CACHE; k++)
				if (dc->ips[k].dev == e)
					dc->ips[k].dev = NULL;
			dev_free(e);
		}
	}
}

bool decode_fault_addr(uint64_t addr)
{
	return arch_current()->addr_fault(addr);
}

static uint64_t rd_u(const char *p, int size)
{
	switch (size) {
	case 1:
		return *(const uint8_t *)p;
	case 2: {
		uint16_t v;

		memcpy(&v, p, 2);
		return v;
	}
	case 4: {
		uint32_t v;

		memcpy(&v, p, 4);
		return v;
	}
	default: {
		uint64_t v;

		memcpy(&v, p, 8);
		return v;
	}
	}
}

static int64_t rd_s(const char *p, int size)
{
	switch (size) {
	case 1:
		return *(const int8_t *)p;
	case 2:
		return (int16_t)rd_u(p, 2);
	case 4:
		return (int32_t)rd_u(p, 4);
	default:
		return (int64_t)rd_u(p, 8);
	}
}

static char *arena_alloc(struct decoder *dc, size_t n)
{
	char *p;

	if (dc->arena_used + n > ARENA_SIZE)
		return NULL;
	p = dc->arena + dc->arena_used;
	dc->arena_used += n;
	return p;
}

/* A signed value; a bitfield of @width bits (the kernel zero-extends it) is sign-extended */
static int64_t rd_bits_s(const char *p, int size, unsigned int width)
{
	uint64_t u;

	if (!width || width >= 64)
		return rd_s(p, size);
	u = rd_u(p, size) << (64 - width);
	return (int64_t)u >> (64 - width);
}

static const char *arena_str(struct decoder *dc, const char *s, size_t n)
{
	char *p = arena_alloc(dc, n + 1);

	if (!p)
		return "";
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* A __data_loc / __rel_loc field: where its bytes are and how many. */
static const char *rd_loc(const char *rec, int size, const struct fld *fl, size_t *len)
{
	uint32_t loc = (uint32_t)rd_u(rec + fl->off, 4);
	size_t off = loc & 0xffff;

	*len = loc >> 16;
	if (fl->rel)
		off += fl->off + fl->size;
	if (off + *len > (size_t)size) {
		*len = 0;
		return rec;
	}
	return rec + off;
}

static int page_ix_cmp(const void *a, const void *b)
{
	const struct page_ix *x = a, *y = b;

	if (x->in_page != y->in_page)
		return x->in_page < y->in_page ? -1 : 1;
	return x->probe < y->probe ? -1 : x->probe > y->probe;
}

/*
 * The probes of @e whose address has @ip's offset in its page (a PIE loads at a page
 * boundary: only those can be at @ip), from a table sorted by that offset, in the order
 * they were added: *@nr of them from the return value.
 */
static const struct page_ix *probes_in_page(struct dev *e, uint64_t ip, size_t *nr)
{
	size_t lo = 0, hi, n;
	uint32_t key = ip & 0xfff;

	if (e->nr_paged != e->nr_probes) {
		e->paged = xrealloc(e->paged, e->nr_probes * sizeof(*e->paged));
		for (size_t i = 0; i < e->nr_probes; i++)
			e->paged[i] = (struct page_ix){ e->probes[i].tp->vaddr & 0xfff, i };
		qsort(e->paged, e->nr_probes, sizeof(*e->paged), page_ix_cmp);
		e->nr_paged = e->nr_probes;
	}
	for (hi = e->nr_paged; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->paged[mid].in_page < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (n = lo; n < e->nr_paged && e->paged[n].in_page == key; n++)
		;
	*nr = n - lo;
	return e->paged + lo;
}

/* of @cand (probes at @ip's page offset), the one at file offset of @ip in @tgid, or -1 */
static int probe_by_maps(struct dev *e, const struct page_ix *cand, size_t nr, uint64_t ip,
			 int tgid)
{
	char path[64], line[512];
	int found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", tgid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, pgoff;

		if (sscanf(line, "%llx-%llx %*s %llx", &lo, &hi, &pgoff) != 3 || ip < lo ||
		    ip >= hi)
			continue;
		for (size_t i = 0; i < nr; i++)
			if (e->probes[cand[i].probe].tp->offset == ip - lo + pgoff)
				found = cand[i].probe;
		break;
	}
	if (f)
		fclose(f);
	return found;
}

/* Load base of the probed binary in this process: the probe's runtime ip less its vaddr. */
static struct dprobe *probe_of(struct decoder *dc, struct dev *e, const char *rec, int tgid,
			       uint64_t *base)
{
	uint64_t ip = e->ip_off >= 0 ? rd_u(rec + e->ip_off, 8) : 0;
	struct dprobe *p = &e->probes[0];

	if (e->nr_probes > 1 && e->ip_off >= 0) {
		struct ip_entry *c = &dc->ips[((ip >> 2) ^ (uint64_t)tgid) & (IP_CACHE - 1)];
		int found = -1;

		if (c->dev == e && c->ip == ip && c->tgid == tgid) {
			found = c->probe;
		} else {
			size_t nr;
			const struct page_ix *cand = probes_in_page(e, ip, &nr);

			/* same page offset: ask /proc/PID/maps for the file offset */
			if (nr > 1)
				found = probe_by_maps(e, cand, nr, ip, tgid);
			if (found < 0)
				found = nr ? (int)cand[0].probe : 0;
			c->dev = e;
			c->ip = ip;
			c->tgid = tgid;
			c->probe = found;
		}
		p = &e->probes[found];
	}
	*base = ip ? ip - p->tp->vaddr : 0;
	return p;
}

void decoder_set_task(struct decoder *dc, int tid, int tgid, const char *comm)
{
	tasks_set(dc->tasks, tid, tgid, comm);
}

void decoder_task_fexec(struct decoder *dc, int tid, int fd)
{
	tasks_fexec(dc->tasks, tid, fd);
}

void decoder_watch_tasks(struct decoder *dc)
{
	tasks_watch(dc->tasks, dc->tep);
}

static void task_lookup(struct decoder *dc, int tid, struct event *ev)
{
	int tgid;

	/* first sight of the process: keep its maps while it lives, for its stack frames */
	if (tasks_get(dc->tasks, tid, &tgid, ev->comm) && dc->stacks)
		symbolizer_note_task(dc->sym, tgid);
	ev->pid = tgid;
}

/*
 * int_array() - a kernel array of s/u/x<bits> elements ("s32[4]") as "[20, 21, 22, 23]"
 * (x elements as "0x14" strings), which reads the same in text and JSON; false for others
 */
static bool int_array(struct decoder *dc, struct value *v, const char *at, const struct fld *fl)
{
	const char *t = fl->type;
	char *end;
	unsigned long bits, n;
	struct strbuf sb = STRBUF_INIT;
	size_t esz;

	if (!t || (t[0] != 's' && t[0] != 'u' && t[0] != 'x'))
		return false;
	bits = strtoul(t + 1, &end, 10);
	if ((bits != 8 && bits != 16 && bits != 32 && bits != 64) || *end != '[')
		return false;
	n = strtoul(end + 1, &end, 10);
	esz = bits / 8;
	if (*end != ']' || !n || n * esz > (unsigned long)fl->size)
		return false;
	strbuf_init(&sb);
	strbuf_addch(&sb, '[');
	for (unsigned long i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(&sb, ", ");
		if (t[0] == 's')
			strbuf_addf(&sb, "%" PRId64, rd_s(at + i * esz, (int)esz));
		else if (t[0] == 'u')
			strbuf_addf(&sb, "%" PRIu64, rd_u(at + i * esz, (int)esz));
		else
			strbuf_addf(&sb, "\"0x%" PRIx64 "\"", rd_u(at + i * esz, (int)esz));
	}
	strbuf_addch(&sb, ']');
	v->text = arena_str(dc, sb.buf, sb.len);
	v->text_is_json = v->text != NULL;
	strbuf_release(&sb);
	return v->text != NULL;
}

static void dyn_at(const struct decoder *dc, const struct dprobe *p, uint64_t base,
		   struct dyn_at *at)
{
	*at = (struct dyn_at){ dc->cur_tgid, p->in_dbg ? dc->dbg : NULL, base };
}

/* The dynamic type type word @w of @a stands for (dynnames_text()). */
static const char *dyn_text(struct decoder *dc, const struct dprobe *p, const char *rec,
			    uint64_t base, const struct trace_arg *a, uint64_t w)
{
	const struct fld *t = a->dyn_word == DYN_GO_ITAB ? &p->flds[a->dyn_field] : NULL;
	struct dyn_at at;

	dyn_at(dc, p, base, &at);
	return dynnames_text(dc->dn, &at, a->dyn_word ? a->dyn_word : DYN_CXX_VPTR, w,
			     t ? rd_u(fld_at(rec, t), t->size) : 0);
}

/*
 * type_guard_ok() - guard @k of @a on type word @w (dynnames_accepts()); when it is not
 * accepted, the second word of the guard (a Go itab's _type) is tried. Return: 1, 0, -1.
 */
static int type_guard_ok(struct decoder *dc, const struct dprobe *p, const char *rec,
			 const struct trace_arg *a, int k, uint64_t w, uint64_t base)
{
	const struct fld *f2 = a->guard_base[k] >= 0 ? &p->flds[a->guard_base[k]] : NULL;
	struct dyn_at at;
	int r;

	dyn_at(dc, p, base, &at);
	r = dynnames_accepts(dc->dn, &at, a->guard_words[k], a->guard_nr_words[k],
			     a->guard_class[k], a->guard_class_off[k], w);
	if (r || !f2)
		return r;
	return dynnames_accepts(dc->dn, &at, a->guard_words[k], a->guard_nr_words[k], NULL, 0,
				rd_u(fld_at(rec, f2), f2->size));
}

/*
 * arg_guard_fault() - whether a pointer @a's value goes through faulted, or an index it uses
 * is out of range; if so, @v is the fault naming the expression
 */
static bool arg_guard_fault(struct decoder *dc, const struct dprobe *p, const char *rec,
			    uint64_t base, const struct trace_arg *a, struct value *v)
{
	char msg[256];
	int mlen;

	for (int k = 0; k < a->nr_guards; k++) {
		const struct fld *g = &p->flds[a->guards[k]];
		uint64_t w = rd_u(fld_at(rec, g), g->size), len;

		if (a->guard_kind[k] == GUARD_PTR || a->guard_kind[k] == GUARD_NIL)
			w += a->guard_index[k];	/* a pointer computed as a word plus this */

		switch (a->guard_kind[k]) {
		case GUARD_TYPE:
			switch (type_guard_ok(dc, p, rec, a, k, w, base)) {
			case 1:
				continue;
			case 0:
				v->fault = v->null = true;
				v->fault_expr = a->guard_exprs[k];
				return true;
			default:
				v->fault = true;
				mlen = snprintf(msg, sizeof(msg), "%s: dynamic type %s, whose class "
						"is in no DWARF", a->guard_exprs[k],
						dyn_text(dc, p, rec, base, a, w));
				v->fault_expr = arena_str(dc, msg, mlen < (int)sizeof(msg) ?
							  (size_t)mlen : sizeof(msg) - 1);
				return true;
			}
		case GUARD_NIL:
			if (w)
				break;	/* not NULL: a fault where it cannot be a pointer */
			v->fault = v->null = true;
			v->text = a->null_text;
			v->fault_expr = a->guard_exprs[k];
			return true;
		case GUARD_DATA:
			/* a string's data pointer matters only when it has a length */
			if (a->len_field < 0 || !rd_u(fld_at(rec, &p->flds[a->len_field]),
						      p->flds[a->len_field].size))
				continue;
			break;
		case GUARD_LEN:
		case GUARD_END:
			len = w;
			if (a->guard_kind[k] == GUARD_END) {
				const struct fld *b = &p->flds[a->guard_base[k]];
				uint64_t start = rd_u(fld_at(rec, b), b->size);

				len = w >= start && a->guard_elem[k] ?
				      (w - start) / a->guard_elem[k] : 0;
			}
			if (len > a->guard_index[k])
				continue;
			v->fault = true;
			mlen = snprintf(msg, sizeof(msg), "%s: index %" PRIu64 " out of range "
					"(len %" PRIu64 ")", a->guard_exprs[k], a->guard_index[k], len);
			v->fault_expr = arena_str(dc, msg, mlen < (int)sizeof(msg) ? (size_t)mlen :
						  sizeof(msg) - 1);
			return true;
		default:	/* GUARD_PTR; GUARD_ZERO: NULL is 0, no fault (len() of a nil map) */
			if (a->guard_kind[k] == GUARD_ZERO && !w)
				return true;
			break;
		}
		if (decode_fault_addr(w)) {
			v->fault = true;
			v->fault_expr = a->guard_exprs[k];
			return true;
		}
	}
	return false;
}

/*
 * a string that carries a length: its chunks joined (u64 words as their bytes, in memory
 * order: the kernel copies each word as it is in memory), cut to the length fetched
 */
static void decode_lstring(struct decoder *dc, const struct dprobe *p, const char *rec,
			   const struct trace_arg *a, struct value *v)
{
	uint64_t want = a->len_field >= 0 ?
		rd_u(fld_at(rec, &p->flds[a->len_field]), p->flds[a->len_field].size) : 0;
	size_t have = 0, cap = a->max_len;
	char *buf;

	for (int i = 0; i < a->nr_fields; i++)
		have += p->flds[a->field + i].size;
	if (!cap || cap > have)
		cap = have;
	buf = arena_alloc(dc, cap + 1);
	if (!buf)
		return;
	have = 0;
	for (int i = 0; i < a->nr_fields && have < cap; i++) {
		const struct fld *c = &p->flds[a->field + i];
		size_t n = c->size < (int)(cap - have) ? (size_t)c->size : cap - have;

		memcpy(buf + have, fld_at(rec, c), n);
		have += n;
	}
	v->cut = want > cap;
	v->len = want > cap ? cap : want;
	v->str = buf;
	buf[v->len] = '\0';
}

/* a raw fetcharg (%REG, +8(%sp):x32, a tracefs event's field): by its kernel type */
static void decode_raw(struct decoder *dc, const struct dprobe *p, const char *rec, int size,
		       const struct trace_arg *a, struct value *v)
{
	const struct fld *fl = &p->flds[a->field];
	const char *t = fl->type ? fl->type : "";
	const char *at = fld_at(rec, fl);

	if (fl->dyn) {
		size_t len;
		const char *s = rd_loc(rec, size, fl, &len);

		v->kind = VK_CSTRING;
		if (!len) {
			v->fault = true;
			return;
		}
		if (s[len - 1] == '\0')
			len--;
		v->str = s;
		v->len = len;
	} else if (strchr(t, '[') && int_array(dc, v, at, fl)) {
		/* an array of integers: [20, 21, 22], also valid JSON */
	} else if (strchr(t, '[')) {
		/* an array: {a,b,c} as the kernel prints it */
		struct tep_event *te =
			tep_find_event(dc->tep, (int)rd_u(rec + dc->type_off, dc->type_size));
		struct tep_format_field *f = tep_find_field(te, p->tp->fields[a->field].name);
		struct tep_format_field whole;

		if (!f && te && fl->size > 0) {
			/* written as scalar pieces (fallback.h): printed as the one field */
			unsigned long n = strtoul(strchr(t, '[') + 1, NULL, 10);

			whole = (struct tep_format_field){
				.event = te, .type = (char *)t, .name = (char *)a->name,
				.offset = fl->off, .size = fl->size,
				.arraylen = (unsigned int)n, .elementsize = n ? fl->size / n : 1,
				.flags = TEP_FIELD_IS_ARRAY |
					 (strstr(t, "char") ? TEP_FIELD_IS_STRING : 0),
			};
			f = &whole;
		}
		trace_seq_reset(&dc->seq);
		if (f)
			tep_print_field_content(&dc->seq, (void *)rec, size, f);
		trace_seq_terminate(&dc->seq);
		v->text = arena_str(dc, dc->seq.buffer, dc->seq.len);
	} else if (t[0] == 's') {
		v->kind = VK_SIGNED;
		v->num.s = rd_s(at, fl->size);
	} else if (t[0] == 'x') {
		v->kind = VK_HEX;
		v->num.u = rd_u(at, fl->size);
	} else {
		v->kind = VK_UNSIGNED;
		v->num.u = rd_u(at, fl->size);
	}
}

/* @n values from the arena, aligned for them; NULL when it is full */
struct value *decode_values(struct decoder *dc, size_t n)
{
	char *p = arena_alloc(dc, n * sizeof(struct value) + _Alignof(struct value));
	uintptr_t at;

	if (!p)
		return NULL;
	at = ((uintptr_t)p + _Alignof(struct value) - 1) & ~(uintptr_t)(_Alignof(struct value) - 1);
	return (struct value *)at;
}

/*
 * a Rust enum with data: the discriminant picks the variant (the one of its value, else the
 * default one), whose payload fields are decoded as values of their own
 */
static void decode_variant(struct decoder *dc, const struct dprobe *p, const char *rec,
			   int size, uint64_t base, const struct trace_arg *a, struct value *v)
{
	const struct fld *fl = &p->flds[a->field];
	uint64_t d = rd_u(fld_at(rec, fl), fl->size);
	const struct trace_variant *pick = NULL;
	struct value *parts;

	for (size_t i = 0; i < a->nr_variants && !pick; i++)
		if (!a->variants[i].is_default && a->variants[i].discr == d)
			pick = &a->variants[i];
	for (size_t i = 0; i < a->nr_variants && !pick; i++)
		if (a->variants[i].is_default)
			pick = &a->variants[i];
	if (!pick) {
		/* a discriminant no variant has: not this enum (a wrong cast), shown as it is */
		v->kind = VK_UNSIGNED;
		v->num.u = d;
		return;
	}
	if (!pick->name) {
		/* a nameless variant is where the value is (libc++'s short or long string) */
		if (pick->nr == 1 && (size_t)pick->first < a->nr_parts) {
			decode_arg(dc, p, rec, size, base, &a->parts[pick->first], v);
			v->name = a->name;
			v->arg = a;
		}
		return;
	}
	v->text = pick->name;
	v->tuple = pick->tuple;
	v->more = pick->more;
	if (!pick->nr || (size_t)(pick->first + pick->nr) > a->nr_parts)
		return;
	parts = decode_values(dc, (size_t)pick->nr);
	if (!parts)
		return;
	for (int k = 0; k < pick->nr; k++) {
		const struct trace_arg *pa = &a->parts[pick->first + k];

		decode_arg(dc, p, rec, size, base, pa, &parts[k]);
		parts[k].name = pa->expr ? pa->expr : pa->name;
	}
	v->parts = parts;
	v->nr_parts = (size_t)pick->nr;
}


/*
 * A Go interface value: its type word names the dynamic type; when that type is one of
 * @a's dyn_variants, the fields fetched for it (its parts) are decoded too.
 */
static void decode_iface(struct decoder *dc, const struct dprobe *p, const char *rec, int size,
			 uint64_t base, const struct trace_arg *a, struct value *v)
{
	const struct fld *fl = &p->flds[a->field];
	uint64_t w = rd_u(fld_at(rec, fl), fl->size), t = w;
	const struct dyn_variant *var = NULL;
	struct value *parts;

	v->num.u = w;
	if (!w) {
		v->fault = v->null = true;	/* nil */
		return;
	}
	if (a->dyn_word == DYN_GO_ITAB)
		t = rd_u(fld_at(rec, &p->flds[a->dyn_field]), p->flds[a->dyn_field].size);
	for (size_t i = 0; i < a->nr_dyn_variants && !var; i++) {
		const struct dyn_variant *x = &a->dyn_variants[i];

		if ((x->itab && x->itab == w - base) || (t && x->type == t - base))
			var = x;
	}
	v->text = var ? var->name : dyn_text(dc, p, rec, base, a, w);
	if (!var || var->nr <= 0 || (size_t)(var->first + var->nr) > a->nr_parts)
		return;
	parts = decode_values(dc, (size_t)var->nr);
	if (!parts)
		return;
	for (int k = 0; k < var->nr; k++) {
		const struct trace_arg *pa = &a->parts[var->first + k];

		decode_arg(dc, p, rec, size, base, pa, &parts[k]);
		parts[k].name = pa->expr ? pa->expr : pa->name;
	}
	v->parts = parts;
	v->nr_parts = (size_t)var->nr;
	v->tuple = var->value;
}

/* @u plus @add, wrapped to @size bytes (sign-extended from them when @sg) */
static uint64_t add_wrapped(uint64_t u, int64_t add, int size, bool sg)
{
	unsigned int bits = (unsigned int)size * 8;

	u += (uint64_t)add;
	if (bits && bits < 64) {
		u &= ((uint64_t)1 << bits) - 1;
		if (sg && (u >> (bits - 1)) & 1)
			u |= ~(uint64_t)0 << bits;
	}
	return u;
}

const char *decode_field(const struct dprobe *p, const char *rec, int field, int *size)
{
	*size = p->flds[field].size;
	return fld_at(rec, &p->flds[field]);
}

void decode_arg(struct decoder *dc, const struct dprobe *p, const char *rec, int size,
		uint64_t base, const struct trace_arg *a, struct value *v)
{
	const struct fld *fl = &p->flds[a->field];
	const char *at = fld_at(rec, fl);

	memset(v, 0, sizeof(*v));
	v->name = a->name;
	v->arg = a;
	v->kind = a->kind;
	if (arg_guard_fault(dc, p, rec, base, a, v))
		return;
	if (a->check_field > 0 && decode_check_failed(p->flds, rec, a)) {
		v->fault = true;	/* read through a pointer into memory that is not there */
		v->fault_expr = trace_arg_last_pointer(a);
		return;
	}
	switch (a->kind) {
	case VK_SIGNED:
		v->num.s = rd_bits_s(at, fl->size, a->bit_width);
		if (a->value_add)
			v->num.u = add_wrapped(v->num.u, a->value_add, fl->size, true);
		break;
	case VK_CHAR:
	case VK_ENUM:
		if (a->is_signed || fl->is_signed)
			v->num.s = rd_bits_s(at, fl->size, a->bit_width);
		else
			v->num.u = rd_u(at, fl->size);
		if (a->kind == VK_ENUM) {
			for (size_t i = 0; i < a->nr_enums; i++)
				if (a->enums[i].value == v->num.s)
					v->text = a->enums[i].name;
		}
		break;
	case VK_UNSIGNED:
	case VK_HEX:
	case VK_BOOL:
		v->num.u = rd_u(at, fl->size);
		if (a->value_add)
			v->num.u = add_wrapped(v->num.u, a->value_add, fl->size, false);
		break;
	case VK_POINTER:
		v->num.u = add_wrapped(rd_u(at, fl->size), a->value_add, fl->size, false);
		if (v->num.u)
			v->num.u += (uint64_t)a->addend;
		break;
	case VK_TYPENAME:
		v->num.u = rd_u(at, fl->size);
		if (!v->num.u)
			v->fault = v->null = true;
		else
			v->text = dyn_text(dc, p, rec, base, a, v->num.u);
		break;
	case VK_IFACE:
		decode_iface(dc, p, rec, size, base, a, v);
		break;
	case VK_FLOAT:
		v->num.f = decode_float(at, a->size == 4 ? 4 : 8);
		break;
	case VK_COMPLEX:
	case VK_INT128:
		decode_pair(v, at, fld_at(rec, &p->flds[a->field + 1]), a->size);
		break;
	case VK_CSTRING: {
		size_t len;
		const char *s = rd_loc(rec, size, fl, &len);

		if (!fl->dyn || !len) {
			v->fault = true;	/* the kernel stores an empty data_loc on -EFAULT */
			break;
		}
		if (s[len - 1] == '\0')
			len--;
		/* a char[N] array without a NUL: the kernel read on past its end */
		if (a->max_len && len > a->max_len)
			len = a->max_len;
		v->str = s;
		v->len = len;
		break;
	}
	case VK_LSTRING:
		decode_lstring(dc, p, rec, a, v);
		break;
	case VK_BYTES:
		/* a C char[N]: text up to the first NUL */
		v->str = at;
		v->len = strnlen(at, fl->size);
		break;
	case VK_SYM: {
		const char *s;

		v->num.u = rd_u(at, fl->size);
		s = symbolizer_value(dc->sym, dc->cur_tgid, v->num.u, base);
		if (s) {
			size_t n = strlen(s);

			/* delve names a function's own address without "+0x0" */
			if (a->style == SHOW_GO && n > 4 && !memcmp(s + n - 4, "+0x0", 4))
				n -= 4;
			v->text = arena_str(dc, s, n);
		}
		break;
	}
	case VK_VARIANT:
		decode_variant(dc, p, rec, size, base, a, v);
		break;
	case VK_STRUCT:
	case VK_ARRAY:
		decode_whole(dc, p, rec, size, base, a, v);
		break;
	case VK_MAP:
		decode_map(dc, p, rec, size, base, a, v);
		break;
	case VK_RAW:
	default:
		decode_raw(dc, p, rec, size, a, v);
		break;
	}
}

static void decode_generic(struct decoder *dc, struct dev *e, const char *rec, int size,
			   struct event *ev)
{
	for (size_t i = 0; i < e->nr_gfields; i++) {
		struct tep_format_field *f = e->gfields[i];
		struct value *v = &e->vals[i];
		unsigned long fl = f->flags;

		memset(v, 0, sizeof(*v));
		v->name = f->name;
		if (fl & TEP_FIELD_IS_DYNAMIC) {
			struct fld l;
			size_t len;
			const char *s;

			fld_from(&l, f);
			s = rd_loc(rec, size, &l, &len);
			v->kind = VK_CSTRING;
			if (fl & TEP_FIELD_IS_STRING || strstr(f->type, "char")) {
				while (len && s[len - 1] == '\0')
					len--;
				v->str = s;
				v->len = len;
			} else {
				v->kind = VK_RAW;
			}
		} else if (fl & TEP_FIELD_IS_ARRAY) {
			if (fl & TEP_FIELD_IS_STRING || strstr(f->type, "char")) {
				v->kind = VK_BYTES;
				v->str = rec + f->offset;
				v->len = strnlen(v->str, f->size);
				continue;
			}
			v->kind = VK_RAW;
		} else if (fl & TEP_FIELD_IS_POINTER) {
			v->kind = VK_POINTER;
			v->num.u = rd_u(rec + f->offset, f->size);
			continue;
		} else if (f->size <= 8) {
			if (fl & TEP_FIELD_IS_SIGNED) {
				v->kind = VK_SIGNED;
				v->num.s = rd_s(rec + f->offset, f->size);
			} else {
				v->kind = e->ghex[i] ? VK_HEX : VK_UNSIGNED;
				v->num.u = rd_u(rec + f->offset, f->size);
			}
			continue;
		} else {
			v->kind = VK_RAW;
		}
		if (v->kind == VK_RAW) {
			trace_seq_reset(&dc->seq);
			tep_print_field_content(&dc->seq, (void *)rec, size, f);
			trace_seq_terminate(&dc->seq);
			v->text = arena_str(dc, dc->seq.buffer, dc->seq.len);
		}
	}
	ev->vals = e->vals;
	ev->nr_vals = e->nr_gfields;
}

/*
 * Durations: an entry is remembered, a return paired with its entry. The call is the
 * thread's, or in Go the goroutine's; the frame's height is the stack pointer, or in Go its
 * distance from the top of the goroutine's stack (which moves when it grows).
 */
static void decode_call(struct decoder *dc, const struct dprobe *p, const char *rec,
			struct event *ev)
{
	const struct trace_probe *tp = p->tp;
	struct call_key k = { .pid = ev->pid, .thread = (uint64_t)ev->tid, .func = p->func };
	uint64_t sp = rd_u(rec + p->sp_off, 8) + (uint64_t)tp->height_adj;
	call_height h = (call_height)sp;

	if (tp->goroutines) {
		k.thread = rd_u(rec + p->g_off, 8);
		h = (call_height)(sp - rd_u(rec + p->hi_off, 8));
	}
	/*
	 * a return's height is its entry's plus 8, as after x86-64's ret pops the return address
	 * (calls_return() pops the entries below it): on a return instruction (Go %return) that
	 * address is still on the stack; arm64's is in x30, so its sp is the entry's after a
	 * return as on it (a uretprobe paired no call there: durations.sh in the arm64 guest)
	 */
	if (tp->call == CALL_RETURN)
		h += tp->is_return ? 8 - arch_current()->ret_pops : 8;
	if (tp->call == CALL_ENTRY)
		calls_entry(dc->calls, &k, ev->ts, h);
	else
		ev->duration_ns = calls_return(dc->calls, &k, ev->ts, h);
}

int decode_record(struct decoder *dc, void *data, int size, uint64_t ts, int cpu,
		  struct event *ev)
{
	const char *rec = data;
	struct dev *e;
	int id, tid;

	if (size < dc->type_off + dc->type_size)
		return -EINVAL;
	id = (int)rd_u(rec + dc->type_off, dc->type_size);
	e = (size_t)id < dc->nr_ids ? dc->by_id[id] : NULL;
	if (!e) {
		if (size >= dc->pid_off + 4 &&
		    tasks_record(dc->tasks, id, rec, size, (int)rd_s(rec + dc->pid_off, 4)))
			return DECODE_TASK;
		return -ENOENT;
	}
	if (size < e->fixed_size)
		return -EINVAL;	/* a corrupt record: its fixed fields would be read past its end */
	dc->arena_used = 0;
	tid = (int)rd_s(rec + dc->pid_off, 4);
	ev->ts = ts;
	ev->cpu = cpu;
	ev->tid = tid;
	task_lookup(dc, tid, ev);
	dc->cur_tgid = ev->pid;
	ev->probe = e->shown ? e->shown : e->name;
	ev->ustack = NULL;
	ev->nr_ustack = 0;
	ev->ustack_syms = NULL;
	ev->ustack_inlined = NULL;
	ev->ustack_paths = NULL;
	ev->ustack_cut = NULL;
	ev->duration_ns = -1;
	dc->last_ret0 = 0;
	dc->last_stack = NULL;
	dc->last_base = UINT64_MAX;
	if (e->generic || !e->nr_probes) {
		ev->tp = NULL;
		ev->func = NULL;
		decode_generic(dc, e, rec, size, ev);
		return 0;
	}
	{
		uint64_t base = 0;
		struct dprobe *p = probe_of(dc, e, rec, ev->pid, &base);
		const struct trace_probe *tp = p->tp;

		ev->tp = tp;
		ev->func = tp->func;
		if (tp->merged)
			ev->probe = tp->merged;	/* an event of its own only to the kernel */
		if (p->at_entry)
			dc->last_ret0 = rd_u(rec + p->ret0_off, 8);
		if (e->ip_off >= 0 && p->in_dbg)
			dc->last_base = base;
		if (ustack_layout_ok(&p->stack)) {
			dc->last_rec = rec;
			dc->last_stack = &p->stack;
		}
		for (size_t i = 0; i < tp->nr_args && i < e->max_vals; i++)
			decode_arg(dc, p, rec, size, base, &tp->args[i], &e->vals[i]);
		ev->vals = e->vals;
		ev->nr_vals = tp->nr_args < e->max_vals ? tp->nr_args : e->max_vals;
		if (p->func)
			decode_call(dc, p, rec, ev);
	}
	return 0;
}

int decoder_enable_stacks(struct decoder *dc, struct diag *d)
{
	struct tep_event *te = tep_find_event_by_name(dc->tep, "ftrace", "user_stack");
	struct tep_format_field *caller, *pid;

	if (!te)
		return diag_fail(d, "no format for ftrace:user_stack (options/userstacktrace)");
	caller = tep_find_field(te, "caller");
	pid = tep_find_common_field(te, "common_pid");
	if (!caller || !pid || caller->size < 8)
		return diag_fail(d, "ftrace:user_stack has no caller[] field");
	dc->us_caller_off = caller->offset;
	dc->us_nr = caller->size / 8 < USTACK_MAX ? caller->size / 8 : USTACK_MAX;
	dc->us_pid_off = pid->offset;
	dc->stacks = true;
	return te->id;
}

void decode_stack(struct decoder *dc, const void *data, int size, struct event *ev)
{
	const char *rec = data;
	uint64_t callers[USTACK_MAX];
	struct ustack_frames f;
	size_t n = 0;

	if (dc->last_stack) {
		/* --stack=dwarf: the last decoded record, which is @ev's */
		ustack_unwind(dc->us, ev->pid, ev->tid, dc->last_rec, dc->last_stack,
			      dc->last_base, &f);
	} else {
		if (!dc->stacks)
			return;
		/* none after the event: the kernel's buffer overwrote it (stream.h) */
		if (!rec || size < dc->us_caller_off + dc->us_nr * 8 ||
		    (int)rd_s(rec + dc->us_pid_off, 4) != ev->tid) {
			ev->ustack_cut = "lost";
			return;
		}
		for (int i = 0; i < dc->us_nr; i++) {
			uint64_t a = rd_u(rec + dc->us_caller_off + i * 8, 8);

			if (!a || a == ULONG_MAX)
				break;
			callers[n++] = a;
		}
		ustack_walk(dc->us, ev->pid, callers, n,
			    dc->last_ret0 && !decode_fault_addr(dc->last_ret0) ? dc->last_ret0 : 0,
			    dc->last_base, &f);
	}
	ev->ustack = f.addrs;
	ev->nr_ustack = f.nr;
	ev->ustack_syms = f.syms;
	ev->ustack_inlined = f.inlined;
	ev->ustack_paths = f.paths;
	ev->ustack_cut = f.cut;
}
