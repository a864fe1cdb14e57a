// SPDX-License-Identifier: GPL-2.0-or-later
/* place.c - a probe's PLACE -> the addresses to probe, each with its function and scope */
#include <ctype.h>
#include <dwarf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define LOG_DOMAIN "place"
#include "arch/arch.h"
#include "dwarf-aux.h"
#include "fetcharg.h"
#include "funcs.h"
#include "lang.h"
#include "lines.h"
#include "log.h"
#include "place.h"
#include "regs.h"
#include "arch/insn.h"

/*
 * The parameters of @fn live in frame-base slots (DW_OP_fbreg, or memory at the frame
 * pointer, one location for the whole function) that the prologue writes: -O0 C/C++/Rust.
 * Then the entry reads garbage.
 */
static bool params_need_prologue(Dwarf_Die *fn)
{
	Dwarf_Die child;
	Dwarf_Addr entry;
	bool fbreg = false;

	if (dwarf_child(fn, &child) != 0 || dwarf_entrypc(fn, &entry) != 0)
		return false;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Attribute attr;
		Dwarf_Op *ops;
		size_t nops;

		if (tag != DW_TAG_formal_parameter && tag != DW_TAG_variable)
			continue;
		if (!dwarf_attr(&child, DW_AT_location, &attr))
			continue;
		if (dwarf_whatform(&attr) != DW_FORM_exprloc &&
		    dwarf_whatform(&attr) != DW_FORM_block1 &&
		    dwarf_whatform(&attr) != DW_FORM_block) {
			/* a location list: the compiler tracked it, unless it starts after the
			 * entry (clang -O0: a class passed by reference, once it is stored) */
			if (dwarf_getlocation_addr(&attr, entry, &ops, &nops, 1) > 0)
				return false;
			continue;
		}
		if (dwarf_getlocation(&attr, &ops, &nops) != 0 || !nops)
			continue;
		/*
		 * clang -O0 on arm64 names the slots by x29 and sp (DW_OP_breg29, breg31); gcc
		 * -O0 on arm64 keeps the address of a struct passed by reference (AAPCS64: over
		 * 16 bytes) in a callee-saved register the prologue loads (DW_OP_breg19): memory
		 * at a register is no register the caller set, only a value in one (DW_OP_regN)
		 */
		if (ops[0].atom == DW_OP_fbreg ||
		    ops[0].atom == DW_OP_breg0 + (unsigned int)arch_current()->fp_dwarf ||
		    ops[0].atom == DW_OP_breg0 + (unsigned int)arch_current()->sp_dwarf)
			fbreg = true;
		else if (tag == DW_TAG_formal_parameter &&
			 !(ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31))
			return false;
	} while (dwarf_siblingof(&child, &child) == 0);
	return fbreg;
}

/* line_addr() - the address of line @i of @lines plus @bias; false when it has none */
static bool line_addr(Dwarf_Lines *lines, size_t i, Dwarf_Addr bias, uint64_t *a)
{
	Dwarf_Line *l = dwarf_onesrcline(lines, i);
	Dwarf_Addr raw;

	if (!l || dwarf_lineaddr(l, &raw) != 0)
		return false;
	*a = raw + bias;
	return true;
}

/*
 * Past the prologue: the row flagged prologue_end, else the first statement row after the
 * entry (gcc -O0 starts the body with a new row after storing the parameters).
 * libdw hands out a CU's rows sorted by address, so the rows past @entry are found by
 * bisection and the walk stops at @end: a glob over the thousand functions of one CU does
 * not read the CU's whole table once per function.
 * Return: the address, or @entry when the line table says nothing useful.
 */
static uint64_t skip_prologue(struct debuginfo *dbg, Dwarf_Die *cu, uint64_t entry, uint64_t end)
{
	Dwarf_Lines *lines;
	Dwarf_Addr bias;
	uint64_t best = 0, a;
	size_t n, lo = 0, hi;

	debuginfo_dwarf(dbg, &bias);
	if (dwarf_getsrclines(cu, &lines, &n) != 0)
		return entry;
	for (hi = n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (!line_addr(lines, mid, bias, &a) || a <= entry)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		bool stmt = true, pend = false, endseq = false;

		if (!line_addr(lines, i, bias, &a) || a <= entry)
			continue;
		if (end && a >= end)
			break;
		dwarf_lineendsequence(l, &endseq);
		if (endseq)
			continue;
		dwarf_linebeginstatement(l, &stmt);
		dwarf_lineprologueend(l, &pend);
		if (pend)
			return a;	/* rows ascend: the first prologue_end is the lowest */
		if (stmt && !best)
			best = a;
	}
	return best ? best : entry;
}

/* ---- the cheapest instruction for a probe point ---- */

/* Instructions looked at past a point's own address: a prologue is shorter. */
#define WINDOW 24

/* site_insn() - the instruction at the site's address: its cost and text for -v */
static void site_insn(struct debuginfo *dbg, struct probe_site *s, uint64_t end)
{
	struct insn_info in;
	size_t n;

	s->cost = PROBE_SSTEP;
	if (insn_straight(debuginfo_elf(dbg), s->vaddr, end > s->vaddr ? end : 0, &in, 1,
			      &n) || !n)
		return;
	s->cost = in.cost;
	free(s->insn);
	s->insn = xstrdup(in.text);
}

static bool addr_in(uint64_t a, const uint64_t *set, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == a)
			return true;
	return false;
}

/* the function's code is one range (no cold part that could jump back in) */
static bool one_range(Dwarf_Die *fn)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off;
	int n = 0;

	for (off = 0; (off = dwarf_ranges(fn, off, &base, &lo, &hi)) > 0;)
		n++;
	return n == 1;
}

/*
 * UPFRONT_PLACEMENT=plain: every probe on its plain address (the entry, past the prologue at
 * -O0, a line's first instruction), as before issue 10; bench/placement.sh compares the two
 */
static bool placement_costs(void)
{
	const char *e = getenv("UPFRONT_PLACEMENT");

	return !e || strcmp(e, "plain");
}

/* the function holding @vaddr, [@start, @end), when nothing can jump into it from outside */
static bool one_piece(struct debuginfo *dbg, uint64_t vaddr, uint64_t *start, uint64_t *end)
{
	Dwarf_Die die, cu;
	const char *name;

	return debuginfo_func_extent(dbg, vaddr, start, end, &name) &&
	       debuginfo_subprogram_at(dbg, vaddr, &die, &cu) && one_range(&die);
}

/*
 * line_end() - where the code of the line-table row at @vaddr ends: the first row after it
 * of another line (or the end of its sequence); 0 when the table does not say
 */
static uint64_t line_end(struct debuginfo *dbg, uint64_t vaddr)
{
	Dwarf_Lines *lines;
	Dwarf_Addr bias;
	Dwarf_Die cu;
	int line = -1;
	size_t n;

	if (!debuginfo_dwarf(dbg, &bias) || !debuginfo_addr_cu(dbg, vaddr, &cu) ||
	    dwarf_getsrclines(&cu, &lines, &n) != 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		bool endseq = false;
		Dwarf_Addr a;
		int ln;

		if (!l || dwarf_lineaddr(l, &a) != 0 || dwarf_lineno(l, &ln) != 0)
			continue;
		a += bias;
		dwarf_lineendsequence(l, &endseq);
		if (line < 0) {
			if (a == vaddr && !endseq)
				line = ln;
			continue;
		}
		if (a > vaddr && (endseq || ln != line))
			return a;
		if (a < vaddr)
			return 0;	/* another sequence */
	}
	return 0;
}

static int alt_cmp(const void *a, const void *b)
{
	const struct site_alt *x = a, *y = b;

	if (x->cost != y->cost)
		return (int)y->cost - (int)x->cost;	/* optimized, emulated, single-stepped */
	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

/*
 * site_alts() - other instructions for the point @s of function @f: from @from (the entry,
 * where nothing has run yet) up to @to (the end of the prologue), those every call runs
 * exactly once, before the values can have changed: straight code from @from up to the first
 * jump, call or return (that one included, as the probe fires before it runs), no address of
 * it a jump goes to (a loop back would fire it again), nothing stored to memory before it
 * but by push. Those cheaper than @s's own instruction become its alternatives, best first;
 * with @abi the parameters are to be read from the ABI there, else from the DWARF. A return
 * probe's only where %sp has not moved (the kernel takes the return address from 0(%sp)).
 */
static void site_alts(struct debuginfo *dbg, struct probe_site *s, uint64_t fstart,
		      uint64_t fend, uint64_t from, uint64_t to, bool abi)
{
	struct insn_info win[WINDOW];
	Elf *elf = debuginfo_elf(dbg);
	uint64_t *targets = NULL;
	size_t nw = 0, nt = 0, alloc = 0;
	uint64_t clobbered = 0;
	bool indirect;

	if (!placement_costs() || !fend || insn_straight(elf, from, fend, win, WINDOW, &nw) ||
	    !nw)
		return;
	if (insn_jump_targets(elf, fstart, fend, &targets, &nt, &indirect))
		return;
	for (size_t k = 0; k < nw && win[k].addr <= to; k++) {
		const struct insn_info *in = &win[k];

		if (k && (indirect || addr_in(in->addr, targets, nt)))
			break;
		if (in->cost > s->cost && in->addr != s->vaddr &&
		    (!s->is_return || !(clobbered & (1ull << arch_current()->sp_dwarf)))) {
			struct site_alt *a;

			ALLOC_GROW(s->alts, s->nr_alts + 1, alloc);
			a = &s->alts[s->nr_alts++];
			memset(a, 0, sizeof(*a));
			a->vaddr = in->addr;
			a->cost = in->cost;
			a->insn = xstrdup(in->text);
			a->entry_abi = abi;
			a->ret_at_sp = !(clobbered & (1ull << arch_current()->entry_ret_dwarf));
			a->clobbered = clobbered;
		}
		if (in->stores || in->ends_straight)
			break;
		clobbered |= in->regs_written;
	}
	free(targets);
	if (s->nr_alts > 1)
		qsort(s->alts, s->nr_alts, sizeof(*s->alts), alt_cmp);
}

uint64_t place_entry_regs(struct debuginfo *dbg, uint64_t fstart, uint64_t fend, uint64_t vaddr)
{
	struct insn_info win[WINDOW];
	Elf *elf = debuginfo_elf(dbg);
	uint64_t *targets = NULL;
	uint64_t clobbered = 0, regs = 0;
	size_t nw = 0, nt = 0, k;
	bool indirect;

	if (vaddr == fstart)
		return ~0ull;
	if (!fend || vaddr < fstart || vaddr >= fend ||
	    insn_straight(elf, fstart, fend, win, WINDOW, &nw))
		return 0;
	/*
	 * Only a place in the straight code from the entry can have them; the function's jump
	 * targets (a disassembly of all of it) are wanted only then. An inlined copy deep in a
	 * large function is not: Go's runtime.* has 5,352 points in 1,995 functions, and this
	 * disassembled the holding function again for each copy (58% of the glob's CPU).
	 */
	for (k = 0; k < nw && win[k].addr < vaddr && !win[k].ends_straight; k++)
		;
	if (k == nw || win[k].addr != vaddr ||
	    insn_jump_targets(elf, fstart, fend, &targets, &nt, &indirect))
		return 0;
	for (k = 0; k < nw && win[k].addr <= vaddr && !indirect; k++) {
		if (k && addr_in(win[k].addr, targets, nt))
			break;
		if (win[k].addr == vaddr) {
			regs = ~clobbered;
			break;
		}
		if (win[k].ends_straight)
			break;
		clobbered |= win[k].regs_written;
	}
	free(targets);
	return regs;
}

/* whether @fetch names register @name ("%sp") */
static bool fetch_names(const char *fetch, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = fetch; (p = strstr(p, name)); p++)
		if (!isalnum((unsigned char)p[len]))
			return true;
	return false;
}

/*
 * the registers a fetch reads (insn_info.regs_written bits); the pc: all of them, but for a
 * global's +OFF(%ip), which is resolved at each place's own address (loc.h: pc_relative)
 */
static uint64_t fetch_regs(const char *fetch)
{
	const struct arch_ops *a = arch_current();
	size_t len = strlen(a->ip_fetch);
	uint64_t m = 0;

	for (const char *p = fetch; (p = strstr(p, a->ip_fetch)); p++)
		if (!isalnum((unsigned char)p[len]) && (p == fetch || p[-1] != '('))
			return ~0ull;
	if (strstr(fetch, "$stack"))
		m |= 1ull << a->sp_dwarf;
	if (fetch_names(fetch, a->flags_fetch))
		m |= 1ull << INSN_FLAGS_BIT;
	for (int r = 0; r < INSN_FLAGS_BIT; r++) {
		const char *name = regs_kernel_name(r);
		size_t len = name ? strlen(name) : 0;

		for (const char *p = fetch; len && (p = strchr(p, '%')); p++)
			if (!strncmp(p + 1, name, len) && !isalnum((unsigned char)p[1 + len]))
				m |= 1ull << r;
	}
	return m;
}

static bool str_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

bool place_alt_agrees(const struct site_alt *alt, const struct trace_probe *tp,
		      const struct trace_probe *alt_tp)
{
	if (tp->nr_args != alt_tp->nr_args || tp->nr_fields != alt_tp->nr_fields)
		return false;
	for (size_t i = 0; i < tp->nr_args; i++) {
		const struct trace_arg *a = &tp->args[i], *b = &alt_tp->args[i];

		/* a part of a register is a bitfield where memory is not (bit_width) */
		if (!str_same(a->name, b->name) || !str_same(a->type_name, b->type_name) ||
		    a->kind != b->kind || a->size != b->size)
			return false;
	}
	for (size_t i = 0; i < tp->nr_fields; i++) {
		const struct fetch_field *a = &tp->fields[i], *b = &alt_tp->fields[i];

		if (!str_same(a->name, b->name) || a->hidden != b->hidden ||
		    (!str_same(a->type, b->type) && a->type[0] != 'b' && b->type[0] != 'b') ||
		    (fetch_regs(b->fetch) & alt->clobbered))
			return false;
	}
	return true;
}

/* the kernel gets the flags field (not a \0 kept on upfront's side: fallback.h) */
static bool has_flags_field(const struct trace_probe *tp)
{
	for (size_t i = 0; i < tp->nr_fields; i++)
		if (!strcmp(tp->fields[i].name, PLACE_FLAGS_FIELD) &&
		    fetch_field_written(&tp->fields[i]))
			return true;
	return false;
}

void place_share_flags_field(struct trace_probe *tps, size_t nr)
{
	char *fetch;
	size_t i;

	for (i = 0; i < nr && !has_flags_field(&tps[i]); i++)
		;
	if (i == nr)
		return;
	/* flags no filter drops: none of go_split_flags set, all of go_split_clear */
	fetch = xasprintf("\\%llu", arch_current()->go_split_clear);
	for (i = 0; i < nr; i++)
		if (!has_flags_field(&tps[i]))
			trace_probe_add_field(&tps[i], PLACE_FLAGS_FIELD, fetch, "x64", true);
	free(fetch);
}

char *place_event_filter(const struct trace_probe *tp, const char *user)
{
	bool split = has_flags_field(tp);

	if (user && !*user)
		user = NULL;
	if (split && user) {
		char *keep = place_go_split_filter(), *f = xasprintf("(%s) && %s", user, keep);

		free(keep);
		return f;
	}
	if (split)
		return place_go_split_filter();
	return user ? xstrdup(user) : NULL;
}

char *place_go_split_filter(void)
{
	const struct arch_ops *a = arch_current();

	if (!a->go_split_clear)
		return xasprintf("!(%s & %#llx)", PLACE_FLAGS_FIELD, a->go_split_flags);
	return xasprintf("!(%s & %#llx) && (%s & %#llx)", PLACE_FLAGS_FIELD, a->go_split_flags,
			 PLACE_FLAGS_FIELD, a->go_split_clear);
}

void place_take_alt(struct probe_site *s, const struct site_alt *alt, struct trace_probe *tp)
{
	s->vaddr = alt->vaddr;
	s->offset = alt->offset;
	s->cost = alt->cost;
	free(s->insn);
	s->insn = xstrdup(alt->insn);
	s->entry_abi = alt->entry_abi;
	if (!s->is_return)
		s->ret_at_sp = alt->ret_at_sp;
	s->after_prologue = false;
	s->go_split = alt->go_split;
	if (alt->go_split && !has_flags_field(tp))
		trace_probe_add_field(tp, PLACE_FLAGS_FIELD, arch_current()->flags_fetch, "x64", true);
}

static void site_from_func(struct probe_site *s, const struct func *f, uint64_t vaddr)
{
	memset(s, 0, sizeof(*s));
	s->vaddr = vaddr;
	s->func = xstrdup(f->name);
	s->has_die = f->has_die;
	if (f->has_die) {
		s->die = f->die;
		s->cu = f->cu;
	}
	s->lang = f->lang;
}

/* the frame's function: the site's own subprogram, or the one an inlined copy sits in */
static void site_frame_func(struct debuginfo *dbg, struct probe_site *s)
{
	Dwarf_Die cu;

	if (!s->has_die)
		return;
	if (dwarf_tag(&s->die) == DW_TAG_subprogram) {
		s->frame_func = s->die;
		s->has_frame_func = true;
	} else {
		s->has_frame_func = debuginfo_subprogram_at(dbg, s->vaddr, &s->frame_func, &cu);
	}
}

static int site_offset(struct debuginfo *dbg, struct probe_site *s, struct diag *d)
{
	return debuginfo_vaddr_to_offset(dbg, s->vaddr, &s->offset, d);
}

static void add_site(struct probe_site **sites, size_t *nr, size_t *alloc,
		     const struct probe_site *s)
{
	ALLOC_GROW(*sites, *nr + 1, *alloc);
	(*sites)[(*nr)++] = *s;
}

static bool tail_match(const char *path, const char *tail);
static int diag_take(struct diag *d, struct diag *from, struct span sp, int ret);

/*
 * A uprobe replaces the first byte of an instruction with int3: one inside an instruction
 * corrupts the program. @addr (FUNC+OFFSET, 0xADDR) must start an instruction of the function
 * @fname at [@start, @end), found by disassembling from its entry.
 */
static int check_insn_start(struct debuginfo *dbg, const struct probe_place *pl,
			    const char *fname, uint64_t start, uint64_t end, uint64_t addr,
			    struct diag *d)
{
	struct strbuf list = STRBUF_INIT;
	struct insn_at at;
	struct diag bd;
	int ret;

	diag_init(&bd, d->input);
	ret = insn_boundary(debuginfo_elf(dbg), fname, start, end, addr, &at, &bd);
	if (ret < 0)
		return diag_take(d, &bd, pl->span, ret);
	diag_release(&bd);
	if (ret == 1)
		return 0;
	for (size_t i = 0; i < at.nr_near; i++) {
		if (pl->kind == PLACE_ADDR)
			strbuf_addf(&list, "%s0x%llx", i ? ", " : "",
				    (unsigned long long)at.near[i]);
		else
			strbuf_addf(&list, "%s+%llu", i ? ", " : "",
				    (unsigned long long)(at.near[i] - start));
	}
	if (pl->kind == PLACE_ADDR)
		ret = diag_error(d, pl->span, "0x%llx (%s+%llu) is inside the instruction at 0x%llx "
				 "(%s+%llu: %s); instructions start at %s",
				 (unsigned long long)addr, fname, (unsigned long long)(addr - start),
				 (unsigned long long)at.insn, fname,
				 (unsigned long long)(at.insn - start), at.text, list.buf);
	else
		ret = diag_error(d, pl->span, "%s+%llu is inside the instruction at +%llu (%s); "
				 "instructions start at %s", fname,
				 (unsigned long long)(addr - start),
				 (unsigned long long)(at.insn - start), at.text, list.buf);
	strbuf_release(&list);
	return ret;
}

/*
 * Every function DIE holding @pc as nested in the code, depth-first (dwarf_getscopes() goes
 * from an inlined copy into its abstract origin instead). Optimized code can have sibling
 * inlined copies whose ranges share an address.
 */
static int func_chain(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *out, int *depths, int nr,
		      int max, int depth)
{
	Dwarf_Die child;

	if (depth > 64 || dwarf_child(parent, &child) != 0)
		return nr;
	do {
		int tag = dwarf_tag(&child);

		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
			if (dwarf_haspc(&child, pc) != 1)
				break;
			if (tag != DW_TAG_lexical_block && nr < max) {
				depths[nr] = depth;
				out[nr++] = child;
			}
			nr = func_chain(&child, pc, out, depths, nr, max, depth + 1);
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			nr = func_chain(&child, pc, out, depths, nr, max, depth + 1);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return nr;
}

/*
 * The function DIE (subprogram or inlined copy) holding @vaddr, and its name: the innermost
 * one, or with @file (a source line's), the one whose source holds @line: inlined copies
 * share addresses, and the line's own function is the one with the nearest decl_line.
 */
static void site_at_addr(struct debuginfo *dbg, uint64_t vaddr, const char *file, long line,
			 struct probe_site *s)
{
	struct strbuf sb = STRBUF_INIT;
	Dwarf_Die cudie, chain[32];
	int depths[32];
	Dwarf_Addr bias;
	int n, pick = -1, best_line = -1;

	memset(s, 0, sizeof(*s));
	s->vaddr = vaddr;
	if (debuginfo_symbolize(dbg, vaddr, &sb) == 0) {
		char *plus = strrchr(sb.buf, '+');

		if (plus)
			*plus = 0;
		s->func = strbuf_detach(&sb);
	}
	strbuf_release(&sb);
	if (!debuginfo_dwarf(dbg, &bias) || !debuginfo_addr_cu(dbg, vaddr, &cudie))
		return;
	s->cu = cudie;
	s->lang = dwarf_srclang(&cudie);
	if (s->lang < 0)
		s->lang = 0;
	n = func_chain(&cudie, vaddr - bias, chain, depths, 0, ARRAY_SIZE(chain), 0);
	for (int i = 0; i < n; i++) {
		int dl;

		/* without a source line: the innermost */
		if (!file) {
			if (pick < 0 || depths[i] > depths[pick])
				pick = i;
			continue;
		}
		if (pick < 0)
			pick = i;
		/* an inlined copy's decl_* come from its abstract origin */
		if (dwarf_decl_line(&chain[i], &dl) != 0 || dl > line)
			continue;
		if (!tail_match(dwarf_decl_file(&chain[i]), file) &&
		    !tail_match(file, dwarf_decl_file(&chain[i])))
			continue;
		if (dl > best_line || (dl == best_line && depths[i] > depths[pick])) {
			best_line = dl;
			pick = i;
		}
	}
	if (pick >= 0) {
		int tag = dwarf_tag(&chain[pick]);
		char *name = die_func_name(&chain[pick]);

		s->die = chain[pick];
		s->has_die = true;
		/* an inlined copy is named after itself, not the function holding it */
		if (name && (tag == DW_TAG_inlined_subroutine || !s->func)) {
			free(s->func);
			s->func = name;
		} else {
			free(name);
		}
	}
}

/* move the error in @from to @d, pointing at @sp when it has no place of its own */
static int diag_take(struct diag *d, struct diag *from, struct span sp, int ret)
{
	if (from->msg) {
		if (from->exit_code == 1)
			diag_fail(d, "%s", from->msg);
		else
			diag_error(d, from->span.start >= 0 ? from->span : sp, "%s", from->msg);
		if (from->hints.len)
			diag_hint(d, "%s", from->hints.buf);
	}
	diag_release(from);
	return ret;
}

static bool tail_match(const char *path, const char *tail)
{
	size_t lp, lt;

	if (!path || !tail)
		return false;
	lp = strlen(path);
	lt = strlen(tail);
	if (lt > lp || strcmp(path + lp - lt, tail))
		return false;
	return lt == lp || tail[0] == '/' || path[lp - lt - 1] == '/';
}

static bool func_in_file(struct func *f, const char *file)
{
	if (!f->has_die)
		return false;
	return tail_match(dwarf_decl_file(&f->die), file) ||
	       tail_match(dwarf_diename(&f->cu), file);
}

/*
 * line_go_split() - a line whose code starts a Go function's (@s at its entry) holds the
 * stack check: an alternative on its jbe needs the flags and the filter, as an entry does
 */
static void line_go_split(struct debuginfo *dbg, struct probe_site *s, uint64_t end)
{
	struct insn_go_check chk;

	if (lang_for(s->lang) != &lang_go || !s->nr_alts)
		return;
	insn_go_split_end(debuginfo_elf(dbg), s->vaddr, end, &chk);
	for (size_t i = 0; chk.branch && i < s->nr_alts; i++)
		if (s->alts[i].vaddr == chk.branch)
			s->alts[i].go_split = true;
}

/*
 * in_go_stub() - @s is where a Go function's stack check jumps (the line of its entry: spill
 * the arguments, call runtime.morestack, jump back to the entry). A probe there fires only
 * when the stack grows, just before the function runs the line again from its entry: a
 * second hit for one pass, with the arguments spilled.
 */
static bool in_go_stub(struct debuginfo *dbg, const struct probe_site *s)
{
	struct insn_go_check chk;
	uint64_t start, end;

	if (lang_for(s->lang) != &lang_go || !one_piece(dbg, s->vaddr, &start, &end))
		return false;
	insn_go_split_end(debuginfo_elf(dbg), start, end, &chk);
	return chk.stub && chk.stub == s->vaddr;
}

static int resolve_lines(const struct probe_place *pl, struct debuginfo *dbg, struct func *f,
			 struct probe_site **sites, size_t *nr, size_t *alloc, struct diag *d)
{
	struct line_addr *la = NULL;
	size_t n = 0;
	int ret;

	if (f) {
		if (!f->has_die)
			return diag_error(d, pl->span, "%s has no DWARF: no line information",
					  f->name);
		ret = lines_for_func(dbg, &f->die, pl->line, &la, &n, d);
	} else {
		ret = lines_for_file(dbg, pl->srcfile, pl->line, &la, &n, d);
	}
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < n; i++) {
		struct probe_site s;

		uint64_t start, end, lend;

		if (f) {
			site_from_func(&s, f, la[i].vaddr);
		} else {
			site_at_addr(dbg, la[i].vaddr, la[i].file, la[i].line, &s);
		}
		if (n > 1 && in_go_stub(dbg, &s)) {
			pr_info("%s: line %ld at 0x%" PRIx64 " is the stack check's morestack call: "
				"the function runs the line again from its entry", s.func ? s.func : "?",
				pl->line, s.vaddr);
			free(s.func);
			continue;
		}
		/* the cheapest instruction of the line's run that every pass reaches first */
		site_insn(dbg, &s, 0);
		if (one_piece(dbg, s.vaddr, &start, &end) && (lend = line_end(dbg, s.vaddr)) &&
		    lend <= end) {
			site_alts(dbg, &s, start, end, s.vaddr, lend - 1, false);
			if (s.vaddr == start)
				line_go_split(dbg, &s, end);
		}
		add_site(sites, nr, alloc, &s);
	}
	line_addrs_free(la, n);
	return 0;
}

static int resolve_return(const struct probe_place *pl, struct debuginfo *dbg, struct func *f,
			  struct probe_site **sites, size_t *nr, size_t *alloc, struct diag *d)
{
	struct probe_site s;
	uint64_t *addrs = NULL;
	size_t n = 0;
	int ret;

	if (lang_for(f->lang) != &lang_go) {
		/*
		 * a uretprobe (the trampoline: measured cheaper than a single-stepped ret, see
		 * bench/placement.sh): its breakpoint on the cheapest instruction before %sp moves
		 */
		site_from_func(&s, f, f->entry);
		s.is_return = true;
		site_insn(dbg, &s, f->end);
		if (!f->inlined && f->has_die && one_range(&f->die))
			site_alts(dbg, &s, f->entry, f->end, f->entry,
				  skip_prologue(dbg, &f->cu, f->entry, f->end), false);
		add_site(sites, nr, alloc, &s);
		return 0;
	}
	/* Go: a uretprobe crashes the program when the goroutine stack moves */
	if (!f->end)
		return diag_error(d, pl->span, "%%return: the end of %s is unknown", f->name);
	ret = insn_rets(debuginfo_elf(dbg), f->name, f->entry, f->end, &addrs, &n, d);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < n; i++) {
		site_from_func(&s, f, addrs[i]);
		s.at_ret_insn = true;
		add_site(sites, nr, alloc, &s);
	}
	free(addrs);
	return 0;
}

/* FUNC+OFFSET: one site, at an instruction of @f */
static int resolve_offset(const struct probe_place *pl, struct debuginfo *dbg, struct func *f,
			  struct probe_site **sites, size_t *nr, size_t *alloc, struct diag *d)
{
	struct probe_site s;
	int ret;

	/* compared as a distance: entry + a huge offset wraps below the end */
	if (f->end && pl->offset >= f->end - f->entry)
		return diag_error(d, pl->span, "offset +%lu is beyond the end of %s (size %lu)",
				  pl->offset, f->name, (unsigned long)(f->end - f->entry));
	if (pl->offset > UINT64_MAX - f->entry)
		return diag_error(d, pl->span, "offset +%lu is beyond the end of %s", pl->offset,
				  f->name);
	ret = check_insn_start(dbg, pl, f->name, f->entry, f->end, f->entry + pl->offset, d);
	if (ret >= 0) {
		site_from_func(&s, f, f->entry + pl->offset);
		add_site(sites, nr, alloc, &s);
	}
	return ret;
}

/*
 * go_split_alt() - the jbe of a Go entry's stack check as the last alternative of @s (past
 * the check), after those that need no filter: only when the instruction at @s is
 * single-stepped, as every hit on the jbe
 * pays for the flags field and the filter (place_go_split_filter()) that drops its taken hits.
 * Nothing between the jbe and @s writes a register (the jbe writes none): clobbered 0.
 */
static void go_split_alt(struct debuginfo *dbg, struct probe_site *s, uint64_t jbe,
			 uint64_t end)
{
	struct insn_info in;
	struct site_alt *a;
	size_t n;

	if (!placement_costs() || s->cost != PROBE_SSTEP)
		return;
	if (insn_straight(debuginfo_elf(dbg), jbe, end, &in, 1, &n) || !n ||
	    in.cost == PROBE_SSTEP)
		return;
	s->alts = xrealloc(s->alts, (s->nr_alts + 1) * sizeof(*s->alts));
	a = &s->alts[s->nr_alts++];
	memset(a, 0, sizeof(*a));
	a->vaddr = jbe;
	a->cost = in.cost;
	a->insn = xstrdup(in.text);
	a->ret_at_sp = true;
	a->go_split = true;
}

/* FUNC: its entry, past the prologue where the parameters' locations need it */
static void resolve_entry(struct debuginfo *dbg, struct func *f, struct probe_site **sites,
			  size_t *nr, size_t *alloc)
{
	struct probe_site s;
	bool go = lang_for(f->lang) == &lang_go;
	struct insn_go_check chk = { 0 };
	uint64_t at = f->entry;
	bool abi = false;

	if (f->has_die && !go && params_need_prologue(&f->die)) {
		at = skip_prologue(dbg, &f->cu, f->entry, f->end);
		abi = at != f->entry;
	} else if (go && !f->inlined) {
		at = insn_go_split_end(debuginfo_elf(dbg), f->entry, f->end, &chk);
	}
	site_from_func(&s, f, at);
	s.after_prologue = at != f->entry;
	s.ret_at_sp = at == f->entry || go;
	site_insn(dbg, &s, f->end);
	/*
	 * -O0: from the entry (reading the parameters from the ABI) to the prologue's end;
	 * else from here to the prologue's end (the DWARF)
	 */
	if (!f->inlined && f->has_die && one_range(&f->die))
		site_alts(dbg, &s, f->entry, f->end, abi ? f->entry : at,
			  abi ? at : skip_prologue(dbg, &f->cu, at, f->end), abi);
	if (chk.branch)
		go_split_alt(dbg, &s, chk.branch, f->end);
	add_site(sites, nr, alloc, &s);
}

/* the sites of @f for FUNC, FUNC+OFFSET or FUNC%return */
static int func_sites(const struct probe_place *pl, struct debuginfo *dbg, struct func *f,
		      struct probe_site **sites, size_t *nr, size_t *alloc, struct diag *d)
{
	if (pl->is_return)
		return resolve_return(pl, dbg, f, sites, nr, alloc, d);
	if (pl->has_offset)
		return resolve_offset(pl, dbg, f, sites, nr, alloc, d);
	resolve_entry(dbg, f, sites, nr, alloc);
	return 0;
}

/*
 * glob_func_sites() - func_sites() for one match of a glob: a match that cannot be probed
 * (its code is not in the file, like Go's runtime.etext; no return instruction for %return)
 * is skipped and named in @skipped ("runtime.etext (no code in the file)"); the first
 * skip's error is kept in @first for when every match is skipped
 */
static void glob_func_sites(const struct probe_place *pl, struct debuginfo *dbg, struct func *f,
			    struct probe_site **sites, size_t *nr, size_t *alloc,
			    struct strlist *skipped, struct diag *first)
{
	struct diag fd;
	const char *why;
	uint64_t off;
	int ret;

	diag_init(&fd, first->input);
	ret = debuginfo_vaddr_to_offset(dbg, f->entry, &off, &fd);
	why = "no code in the file";
	if (!ret) {
		ret = func_sites(pl, dbg, f, sites, nr, alloc, &fd);
		why = pl->is_return && ret == -ENOENT ? "no return instruction" : fd.msg;
	}
	if (ret < 0) {
		char *one = xasprintf("%s (%s)", f->name, why ? why : "cannot be probed");

		pr_info("skipping %s", one);
		if (skipped)
			strlist_add(skipped, one);
		free(one);
		if (!diag_has_error(first))
			diag_take(first, &fd, pl->span, 0);
	}
	diag_release(&fd);
}

/* FUNC:RELLINE in the copies of FUNC that have code for the line (see resolve_func()) */
static int func_line_sites(const struct probe_place *pl, struct debuginfo *dbg, struct func *f,
			   struct probe_site **sites, size_t *nr, size_t *alloc,
			   struct diag *line_err, int *line_ret, struct diag *d)
{
	struct diag cd;
	int ret;

	diag_init(&cd, d->input);
	ret = resolve_lines(pl, dbg, f, sites, nr, alloc, &cd);
	if (ret == -ENOENT) {
		if (!*line_ret) {
			*line_ret = ret;
			*line_err = cd;
		} else {
			diag_release(&cd);
		}
		return 0;
	}
	if (ret < 0) {
		ret = diag_take(d, &cd, pl->span, ret);
		if (*line_ret)
			diag_release(line_err);
		*line_ret = 0;
		return ret;
	}
	diag_release(&cd);
	return 0;
}

static int resolve_func(const struct probe_place *pl, struct debuginfo *dbg,
			struct probe_site **sites, size_t *nr, size_t *alloc,
			struct strlist *skipped, struct diag *d)
{
	bool glob = has_glob(pl->func);
	struct func *funcs = NULL;
	struct diag ld, line_err, first;
	size_t nf = 0, kept = 0;
	int ret, line_ret = 0;
	const char *srcfile = pl->srcfile;
	char *versioned = NULL;

	diag_init(&ld, d->input);
	/* FUNC@SUFFIX: a symbol version the binary defines, else a source file */
	ret = srcfile ? funcs_at_version(dbg, pl->func, srcfile, func_in_file, &versioned, &ld) : 0;
	if (ret > 0)
		srcfile = NULL;
	if (ret >= 0)
		ret = funcs_find(dbg, versioned ?: pl->func, &funcs, &nf, &ld);
	free(versioned);
	if (ret < 0)
		return diag_take(d, &ld, pl->span, ret);
	diag_release(&ld);
	diag_init(&first, d->input);
	for (size_t i = 0; i < nf && ret >= 0; i++) {
		struct func *f = &funcs[i];

		if (srcfile && !func_in_file(f, srcfile))
			continue;
		kept++;
		if (f->inlined && (pl->is_return || pl->has_offset))
			continue;	/* an inlined copy has no return and no own offsets */
		/*
		 * A copy (inlined, an instantiation) where the line has no code is skipped: the
		 * optimizer may have merged that line into another line in one copy only. The
		 * first copy's error is reported when no copy has the line.
		 */
		if (pl->has_line && !pl->is_return)
			ret = func_line_sites(pl, dbg, f, sites, nr, alloc, &line_err, &line_ret, d);
		else if (glob)
			glob_func_sites(pl, dbg, f, sites, nr, alloc, skipped, &first);
		else
			ret = func_sites(pl, dbg, f, sites, nr, alloc, d);
	}
	if (line_ret) {
		if (ret >= 0 && !*nr)
			ret = diag_take(d, &line_err, pl->span, line_ret);
		else
			diag_release(&line_err);
	}
	if (ret >= 0 && !kept) {
		ret = diag_error(d, pl->span, "no function '%s' in %s", pl->func, srcfile);
		funcs_hint_versions(dbg, pl->func, d);	/* a misspelt version */
	} else if (ret >= 0 && !*nr && diag_has_error(&first)) {
		ret = diag_take(d, &first, pl->span, -EINVAL);	/* every match skipped */
	} else if (ret >= 0 && !*nr) {
		ret = diag_error(d, pl->span, "%s is only inlined: it has no %s", pl->func,
				 pl->is_return ? "return to probe" : "code of its own for +OFFSET");
	}
	diag_release(&first);
	funcs_free(funcs, nf);
	return ret;
}

int place_resolve(const struct probe_place *pl, struct debuginfo *dbg, struct probe_site **sites,
		  size_t *nr, struct strlist *skipped, struct diag *d)
{
	size_t alloc = 0;
	int ret = 0;

	*sites = NULL;
	*nr = 0;
	switch (pl->kind) {
	case PLACE_FUNC:
		ret = resolve_func(pl, dbg, sites, nr, &alloc, skipped, d);
		break;
	case PLACE_SRCLINE:
		ret = debuginfo_require_dwarf(dbg, d);
		if (!ret)
			ret = resolve_lines(pl, dbg, NULL, sites, nr, &alloc, d);
		break;
	case PLACE_ADDR: {
		struct probe_site s;
		uint64_t start, end;
		const char *fname;

		/* outside every known function nothing says where instructions start */
		if (debuginfo_func_extent(dbg, pl->addr, &start, &end, &fname)) {
			ret = check_insn_start(dbg, pl, fname ?: "?", start, end, pl->addr, d);
			if (ret < 0)
				break;
		}
		site_at_addr(dbg, pl->addr, NULL, 0, &s);
		add_site(sites, nr, &alloc, &s);
		break;
	}
	default:
		ret = diag_error(d, pl->span, "unknown kind of place");
	}
	for (size_t i = 0; ret >= 0 && i < *nr; i++) {
		struct probe_site *s = &(*sites)[i];

		site_frame_func(dbg, s);
		if (!s->insn)
			site_insn(dbg, s, 0);
		ret = site_offset(dbg, s, d);
		if (ret < 0 && d->span.start < 0)
			d->span = pl->span;
		for (size_t k = 0; ret >= 0 && k < s->nr_alts; k++) {
			struct diag od;

			diag_init(&od, d->input);
			if (debuginfo_vaddr_to_offset(dbg, s->alts[k].vaddr, &s->alts[k].offset,
						      &od) < 0) {
				/* not in the file (cannot be: the entry is): none of them */
				for (size_t j = 0; j < s->nr_alts; j++)
					free(s->alts[j].insn);
				s->nr_alts = 0;
			}
			diag_release(&od);
		}
	}
	if (ret >= 0 && !*nr)
		ret = diag_error(d, pl->span, "no address to probe");
	if (ret < 0) {
		probe_sites_free(*sites, *nr);
		*sites = NULL;
		*nr = 0;
		return ret;
	}
	pr_debug("%zu site(s) for %s", *nr, pl->func ?: pl->srcfile ?: "address");
	return 0;
}

void probe_sites_free(struct probe_site *sites, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(sites[i].func);
		free(sites[i].insn);
		for (size_t k = 0; k < sites[i].nr_alts; k++)
			free(sites[i].alts[k].insn);
		free(sites[i].alts);
	}
	free(sites);
}
