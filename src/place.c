// SPDX-License-Identifier: GPL-2.0-or-later
/* place.c - a probe's PLACE -> the addresses to probe, each with its function and scope */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define LOG_DOMAIN "place"
#include "dwarf-aux.h"
#include "funcs.h"
#include "lines.h"
#include "log.h"
#include "place.h"
#include "x86-insn.h"

static bool lang_is_go(int lang)
{
	return lang == DW_LANG_Go;
}

/*
 * The parameters of @fn live in frame-base slots (DW_OP_fbreg, one location for the whole
 * function) that the prologue writes: -O0 C/C++/Rust. Then the entry reads garbage.
 */
static bool params_need_prologue(Dwarf_Die *fn)
{
	Dwarf_Die child;
	bool fbreg = false;

	if (dwarf_child(fn, &child) != 0)
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
		    dwarf_whatform(&attr) != DW_FORM_block)
			return false;	/* a location list: the compiler tracked it */
		if (dwarf_getlocation(&attr, &ops, &nops) != 0 || !nops)
			continue;
		if (ops[0].atom == DW_OP_fbreg)
			fbreg = true;
		else if (tag == DW_TAG_formal_parameter)
			return false;
	} while (dwarf_siblingof(&child, &child) == 0);
	return fbreg;
}

/*
 * Past the prologue: the row flagged prologue_end, else the first statement row after the
 * entry (gcc -O0 starts the body with a new row after storing the parameters).
 * Return: the address, or @entry when the line table says nothing useful.
 */
static uint64_t skip_prologue(struct debuginfo *dbg, Dwarf_Die *cu, uint64_t entry, uint64_t end)
{
	Dwarf_Lines *lines;
	Dwarf_Addr bias;
	uint64_t best = 0, pe = 0;
	size_t n;

	debuginfo_dwarf(dbg, &bias);
	if (dwarf_getsrclines(cu, &lines, &n) != 0)
		return entry;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		bool stmt = true, pend = false, endseq = false;

		if (!l || dwarf_lineaddr(l, &a) != 0)
			continue;
		a += bias;
		if (a <= entry || (end && a >= end))
			continue;
		dwarf_lineendsequence(l, &endseq);
		if (endseq)
			continue;
		dwarf_linebeginstatement(l, &stmt);
		dwarf_lineprologueend(l, &pend);
		if (pend && (!pe || a < pe))
			pe = a;
		if (stmt && (!best || a < best))
			best = a;
	}
	if (pe)
		return pe;
	return best ? best : entry;
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
	struct x86_insn_at at;
	struct diag bd;
	int ret;

	diag_init(&bd, d->input);
	ret = x86_insn_boundary(debuginfo_elf(dbg), fname, start, end, addr, &at, &bd);
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

		if (f) {
			site_from_func(&s, f, la[i].vaddr);
		} else {
			site_at_addr(dbg, la[i].vaddr, la[i].file, la[i].line, &s);
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

	if (!lang_is_go(f->lang)) {
		site_from_func(&s, f, f->entry);
		s.is_return = true;
		add_site(sites, nr, alloc, &s);
		return 0;
	}
	/* Go: a uretprobe crashes the program when the goroutine stack moves */
	if (!f->end)
		return diag_error(d, pl->span, "%%return: the end of %s is unknown", f->name);
	ret = x86_insn_rets(debuginfo_elf(dbg), f->name, f->entry, f->end, &addrs, &n, d);
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

static int resolve_func(const struct probe_place *pl, struct debuginfo *dbg,
			struct probe_site **sites, size_t *nr, size_t *alloc, struct diag *d)
{
	struct func *funcs = NULL;
	struct diag ld, line_err;
	size_t nf = 0, kept = 0;
	int ret, line_ret = 0;

	diag_init(&ld, d->input);
	ret = funcs_find(dbg, pl->func, &funcs, &nf, &ld);
	if (ret < 0)
		return diag_take(d, &ld, pl->span, ret);
	diag_release(&ld);
	for (size_t i = 0; i < nf; i++) {
		struct func *f = &funcs[i];
		struct probe_site s;

		if (pl->srcfile && !func_in_file(f, pl->srcfile))
			continue;
		kept++;
		if (f->inlined && (pl->is_return || pl->has_offset))
			continue;	/* an inlined copy has no return and no own offsets */
		if (pl->is_return) {
			ret = resolve_return(pl, dbg, f, sites, nr, alloc, d);
		} else if (pl->has_line) {
			/*
			 * A copy (inlined, an instantiation) where the line has no code is skipped:
			 * the optimizer may have merged that line into another line in one copy
			 * only. The first copy's error is reported when no copy has the line.
			 */
			struct diag cd;

			diag_init(&cd, d->input);
			ret = resolve_lines(pl, dbg, f, sites, nr, alloc, &cd);
			if (ret == -ENOENT) {
				if (!line_ret) {
					line_ret = ret;
					line_err = cd;
				} else {
					diag_release(&cd);
				}
				ret = 0;
			} else if (ret < 0) {
				ret = diag_take(d, &cd, pl->span, ret);
				if (line_ret)
					diag_release(&line_err);
				line_ret = 0;
			} else {
				diag_release(&cd);
			}
		} else if (pl->has_offset) {
			/* compared as a distance: entry + a huge offset wraps below the end */
			if (f->end && pl->offset >= f->end - f->entry) {
				ret = diag_error(d, pl->span,
						 "offset +%lu is beyond the end of %s (size %lu)",
						 pl->offset, f->name,
						 (unsigned long)(f->end - f->entry));
			} else if (pl->offset > UINT64_MAX - f->entry) {
				ret = diag_error(d, pl->span, "offset +%lu is beyond the end of %s",
						 pl->offset, f->name);
			} else {
				ret = check_insn_start(dbg, pl, f->name, f->entry, f->end,
						       f->entry + pl->offset, d);
				if (ret >= 0) {
					site_from_func(&s, f, f->entry + pl->offset);
					add_site(sites, nr, alloc, &s);
				}
			}
		} else {
			uint64_t at = f->entry;

			if (f->has_die && !lang_is_go(f->lang) && params_need_prologue(&f->die))
				at = skip_prologue(dbg, &f->cu, f->entry, f->end);
			else if (lang_is_go(f->lang) && !f->inlined)
				at = x86_insn_go_split_end(debuginfo_elf(dbg), f->entry, f->end);
			site_from_func(&s, f, at);
			s.after_prologue = at != f->entry;
			s.ret_at_sp = at == f->entry || lang_is_go(f->lang);
			add_site(sites, nr, alloc, &s);
		}
		if (ret < 0)
			break;
	}
	if (line_ret) {
		if (ret >= 0 && !*nr)
			ret = diag_take(d, &line_err, pl->span, line_ret);
		else
			diag_release(&line_err);
	}
	if (ret >= 0 && !kept)
		ret = diag_error(d, pl->span, "no function '%s' in %s", pl->func, pl->srcfile);
	else if (ret >= 0 && !*nr)
		ret = diag_error(d, pl->span, "%s is only inlined: it has no %s", pl->func,
				 pl->is_return ? "return to probe" : "code of its own for +OFFSET");
	funcs_free(funcs, nf);
	return ret;
}

int place_resolve(const struct probe_place *pl, struct debuginfo *dbg, struct probe_site **sites,
		  size_t *nr, struct diag *d)
{
	size_t alloc = 0;
	int ret = 0;

	*sites = NULL;
	*nr = 0;
	switch (pl->kind) {
	case PLACE_FUNC:
		ret = resolve_func(pl, dbg, sites, nr, &alloc, d);
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
		site_frame_func(dbg, &(*sites)[i]);
		ret = site_offset(dbg, &(*sites)[i], d);
		if (ret < 0 && d->span.start < 0)
			d->span = pl->span;
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
	for (size_t i = 0; i < nr; i++)
		free(sites[i].func);
	free(sites);
}
