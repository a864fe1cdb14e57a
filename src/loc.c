// SPDX-License-Identifier: GPL-2.0-or-later
/* loc.c - DWARF location expressions at one pc -> pieces the kernel can fetch */
#define LOG_DOMAIN "loc"
#include <dwarf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "callsite.h"
#include "dwarf-aux.h"
#include "leb128.h"
#include "loc.h"
#include "log.h"
#include "regs.h"

/* A DWARF stack entry, kept symbolic: value = value(fetch) + add, a constant, or an address
 * in the file. */
struct sel {
	char *fetch;		/* NULL: a constant (@add) or a file address */
	int64_t add;
	bool file;		/* @add is a kernel file offset ("@+OFF") */
};

#define STACK_MAX 8

/* The frame an expression runs in: the probed function's at the pc, or a caller's at a call. */
struct frame {
	Dwarf_Die *func;	/* DW_AT_frame_base, or NULL */
	Dwarf_Addr pc;
	uint64_t vaddr;
	bool caller;		/* a caller's at its call: its registers are caller_reg()'s */
};

struct machine {
	struct sel st[STACK_MAX];
	int sp;
	const struct loc_ctx *ctx;
	struct strbuf *err;
	int depth;
	const struct frame *fr;	/* where the expression runs */
	struct frame own;	/* the probed function's frame at the pc */
};

static const struct {
	unsigned int op;
	const char *name;
} op_names[] = {
	{ DW_OP_deref, "DW_OP_deref" },
	{ DW_OP_dup, "DW_OP_dup" },
	{ DW_OP_drop, "DW_OP_drop" },
	{ DW_OP_over, "DW_OP_over" },
	{ DW_OP_pick, "DW_OP_pick" },
	{ DW_OP_swap, "DW_OP_swap" },
	{ DW_OP_rot, "DW_OP_rot" },
	{ DW_OP_mod, "DW_OP_mod" },
	{ DW_OP_eq, "DW_OP_eq" },
	{ DW_OP_ne, "DW_OP_ne" },
	{ DW_OP_lt, "DW_OP_lt" },
	{ DW_OP_gt, "DW_OP_gt" },
	{ DW_OP_le, "DW_OP_le" },
	{ DW_OP_ge, "DW_OP_ge" },
	{ DW_OP_xderef, "DW_OP_xderef" },
	{ DW_OP_deref_size, "DW_OP_deref_size" },
	{ DW_OP_entry_value, "DW_OP_entry_value" },
	{ DW_OP_GNU_entry_value, "DW_OP_GNU_entry_value" },
	{ DW_OP_GNU_push_tls_address, "DW_OP_GNU_push_tls_address" },
	{ DW_OP_form_tls_address, "DW_OP_form_tls_address" },
	{ DW_OP_implicit_pointer, "DW_OP_implicit_pointer" },
	{ DW_OP_GNU_implicit_pointer, "DW_OP_GNU_implicit_pointer" },
	{ DW_OP_GNU_parameter_ref, "DW_OP_GNU_parameter_ref" },
	{ DW_OP_convert, "DW_OP_convert" },
	{ DW_OP_GNU_convert, "DW_OP_GNU_convert" },
	{ DW_OP_regval_type, "DW_OP_regval_type" },
	{ DW_OP_GNU_regval_type, "DW_OP_GNU_regval_type" },
	{ DW_OP_deref_type, "DW_OP_deref_type" },
	{ DW_OP_GNU_deref_type, "DW_OP_GNU_deref_type" },
	{ DW_OP_const_type, "DW_OP_const_type" },
	{ DW_OP_GNU_const_type, "DW_OP_GNU_const_type" },
	{ DW_OP_mul, "DW_OP_mul" },
	{ DW_OP_div, "DW_OP_div" },
	{ DW_OP_and, "DW_OP_and" },
	{ DW_OP_or, "DW_OP_or" },
	{ DW_OP_xor, "DW_OP_xor" },
	{ DW_OP_shl, "DW_OP_shl" },
	{ DW_OP_shr, "DW_OP_shr" },
	{ DW_OP_shra, "DW_OP_shra" },
	{ DW_OP_neg, "DW_OP_neg" },
	{ DW_OP_not, "DW_OP_not" },
	{ DW_OP_abs, "DW_OP_abs" },
	{ DW_OP_bra, "DW_OP_bra" },
	{ DW_OP_skip, "DW_OP_skip" },
	{ DW_OP_call2, "DW_OP_call2" },
	{ DW_OP_call4, "DW_OP_call4" },
	{ DW_OP_call_ref, "DW_OP_call_ref" },
	{ DW_OP_bit_piece, "DW_OP_bit_piece" },
	{ DW_OP_push_object_address, "DW_OP_push_object_address" },
	{ DW_OP_addrx, "DW_OP_addrx" },
	{ DW_OP_constx, "DW_OP_constx" },
};

const char *loc_op_name(unsigned int op, char *buf)
{
	for (size_t i = 0; i < ARRAY_SIZE(op_names); i++)
		if (op_names[i].op == op)
			return op_names[i].name;
	snprintf(buf, 24, "DW_OP_0x%x", op);
	return buf;
}

bool loc_base_is_pc(const char *base)
{
	return base && !strcmp(base, arch_current()->ip_fetch);
}

char *loc_mem_fetch(const char *base, int64_t off)
{
	if (!base)
		return xasprintf("@+0x%" PRIx64, (uint64_t)off);
	return xasprintf("%s%" PRId64 "(%s)", off >= 0 ? "+" : "", off, base);
}

static void m_clear(struct machine *m)
{
	while (m->sp > 0)
		free(m->st[--m->sp].fetch);
}

static int m_push(struct machine *m, char *fetch, int64_t add, bool file)
{
	if (m->sp == STACK_MAX) {
		free(fetch);
		strbuf_addstr(m->err, "a DWARF expression too deep for upfront");
		return -EINVAL;
	}
	m->st[m->sp++] = (struct sel){ fetch, add, file };
	return 0;
}

static int caller_reg(struct machine *m, int reg, int64_t off);

static int push_reg(struct machine *m, int reg, int64_t off)
{
	const char *name = regs_kernel_name(reg);
	char buf[16];

	if (m->fr->caller)
		return caller_reg(m, reg, off);
	if (!name) {
		strbuf_addf(m->err, "is addressed through register %s, which uprobes cannot read",
			    regs_describe(reg, buf));
		return -EINVAL;
	}
	return m_push(m, xasprintf("%%%s", name), off, false);
}

static int run_ops(struct machine *m, const Dwarf_Op *ops, size_t n, struct loc *out);

/* Run a frame base or CFA expression on the same stack: its address stays on top. */
static int run_nested(struct machine *m, const Dwarf_Op *ops, size_t n)
{
	return run_ops(m, ops, n, NULL);
}

/* The CFA at the pc from CFI: usually DW_OP_breg7 (rsp) +N. */
static int push_cfa(struct machine *m)
{
	const struct loc_ctx *c = m->ctx;
	Dwarf_Frame *frame = NULL;
	Dwarf_Op *ops;
	size_t nops;
	int ret;

	if (!c->cfi || dwarf_cfi_addrframe(c->cfi, m->fr->vaddr, &frame) != 0 ||
	    dwarf_frame_cfa(frame, &ops, &nops) != 0) {
		free(frame);
		const struct arch_ops *a = arch_current();

		if (c->cfa_fallback == LOC_CFA_BP && !m->fr->caller && a->go_cfa_fp)
			return push_reg(m, a->fp_dwarf, a->go_cfa_fp);
		if (c->cfa_fallback == LOC_CFA_SP && !m->fr->caller && a->entry_cfa_sp)
			return push_reg(m, a->sp_dwarf, a->entry_cfa_sp);
		strbuf_addf(m->err, "needs the frame's CFA, but there is no call frame "
			    "information for 0x%" PRIx64, m->fr->vaddr);
		return -EINVAL;
	}
	if (++m->depth > 4) {
		free(frame);
		strbuf_addstr(m->err, "has a recursive frame base");
		return -EINVAL;
	}
	ret = run_nested(m, ops, nops);
	m->depth--;
	free(frame);
	return ret;
}

int loc_cfa_rule(Dwarf_CFI *cfi, uint64_t vaddr, int *reg, int64_t *off)
{
	Dwarf_Frame *frame = NULL;
	Dwarf_Op *ops;
	size_t nops;
	int ret = -1;

	if (!cfi || dwarf_cfi_addrframe(cfi, vaddr, &frame) ||
	    dwarf_frame_cfa(frame, &ops, &nops) || nops != 1) {
		free(frame);
		return -1;
	}
	if (ops[0].atom == DW_OP_bregx) {	/* libdw's DW_CFA_def_cfa */
		*reg = (int)ops[0].number;
		*off = (int64_t)ops[0].number2;
		ret = 0;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		*reg = (int)(ops[0].atom - DW_OP_breg0);
		*off = (int64_t)ops[0].number;
		ret = 0;
	}
	free(frame);
	return ret;
}

static int decode_block(Dwarf_Attribute *attr, Dwarf_Op *ops, size_t max, size_t *n);

/* DW_AT_frame_base of the function at the pc, pushed as an address. */
static int push_frame_base(struct machine *m)
{
	const struct frame *f = m->fr;
	Dwarf_Attribute attr;
	Dwarf_Op *ops, own[16];
	size_t nops;
	int ret, nloc;

	if (!f->func || !dwarf_attr(f->func, DW_AT_frame_base, &attr)) {
		strbuf_addstr(m->err, "uses DW_OP_fbreg, but the function has no frame base");
		return -EINVAL;
	}
	nloc = dwarf_getlocation_addr(&attr, f->pc, &ops, &nops, 1);
	if (nloc <= 0) {
		/* Go writes DW_OP_call_frame_cfa as a block, which libdw refuses for DWARF 4 */
		switch (dwarf_whatform(&attr)) {
		case DW_FORM_block:
		case DW_FORM_block1:
		case DW_FORM_block2:
		case DW_FORM_block4:
			if (!decode_block(&attr, own, ARRAY_SIZE(own), &nops)) {
				ops = own;
				nloc = 1;
			}
			break;
		default:
			break;
		}
	}
	if (nloc <= 0) {
		strbuf_addf(m->err, "uses DW_OP_fbreg, but the frame base is unknown at 0x%" PRIx64,
			    f->vaddr);
		return -EINVAL;
	}
	if (++m->depth > 4) {
		strbuf_addstr(m->err, "has a recursive frame base");
		return -EINVAL;
	}
	/* A frame base "in a register" (DW_OP_reg6) means the register's value. */
	if (nops == 1 && ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31) {
		ret = push_reg(m, ops[0].atom - DW_OP_reg0, 0);
	} else if (nops == 1 && ops[0].atom == DW_OP_regx) {
		ret = push_reg(m, (int)ops[0].number, 0);
	} else {
		ret = run_nested(m, ops, nops);
	}
	m->depth--;
	return ret;
}

/* Turn the machine's state at the end of a piece into a piece. */
static int finish_piece(struct machine *m, int reg, bool stack_value, bool empty,
			unsigned int size, struct loc *out)
{
	struct loc_piece p = { .reg = -1, .size = size };
	char buf[16];

	if (empty) {
		p.kind = LOC_NONE;
	} else if (reg >= 0) {
		const char *name = regs_kernel_name(reg);

		if (name) {
			p.kind = LOC_VAL;
			p.fetch = xasprintf("%%%s", name);
			p.reg = reg;
		} else {
			p.kind = LOC_BAD;
			p.reg = reg;	/* xmm: floatcopy.c may find a copy */
			p.why = xasprintf("is in register %s, which uprobes cannot read",
					  regs_describe(reg, buf));
		}
	} else if (m->sp == 0) {
		p.kind = LOC_NONE;
	} else {
		struct sel *t = &m->st[m->sp - 1];

		if (stack_value) {
			if (!t->fetch && !t->file) {
				p.kind = LOC_IMM;
				p.imm = (uint64_t)t->add;
			} else if (t->fetch) {
				p.kind = LOC_VAL;
				p.fetch = xstrdup(t->fetch);
				p.off = t->add;
			} else {
				p.kind = LOC_BAD;
				p.why = xstrdup("is a computed value (an address plus an offset), "
						"which uprobes cannot fetch");
			}
		} else if (t->file) {
			p.kind = LOC_MEM;
			p.off = t->add;
		} else if (t->fetch) {
			p.kind = LOC_MEM;
			p.base = xstrdup(t->fetch);
			p.off = t->add;
		} else {
			p.kind = LOC_MEM;
			p.base = xasprintf("\\%" PRIu64, (uint64_t)t->add);
			p.off = 0;
		}
	}
	loc_add_piece(out, &p);
	free(p.fetch);
	free(p.base);
	free(p.why);
	m_clear(m);
	return 0;
}

static void bad_piece(struct loc *out, unsigned int size, char *why)
{
	struct loc_piece p = { .kind = LOC_BAD, .reg = -1, .size = size, .why = why };

	loc_add_piece(out, &p);
	free(why);
}

/* ---- values the function was entered with (DW_OP_entry_value, DW_OP_GNU_parameter_ref) ---- */

/* Run @ops on @m's stack as a value, hiding what a failure says (the caller says it better). */
static int run_quiet(struct machine *m, const Dwarf_Op *ops, size_t n)
{
	struct strbuf *saved = m->err, e = STRBUF_INIT;
	int ret;

	m->err = &e;
	ret = run_nested(m, ops, n);
	m->err = saved;
	strbuf_release(&e);
	return ret;
}

/*
 * Push the value register @reg held when the function was entered (the caller's at its call;
 * for %sp the caller's, the CFA): from the register itself while @entry_regs says it is
 * unchanged, else where the CFI at the pc says it was saved (callee-saved registers).
 */
static int entry_reg(struct machine *m, int reg)
{
	const struct loc_ctx *c = m->ctx;
	Dwarf_Frame *frame = NULL;
	Dwarf_Op mem[3], *ops;
	size_t nops;
	char buf[16];
	int ret;

	if (reg == arch_current()->sp_dwarf)
		return push_cfa(m);
	if (reg < 64 && (c->entry_regs >> reg) & 1)
		return push_reg(m, reg, 0);
	if (!c->cfi || dwarf_cfi_addrframe(c->cfi, m->own.vaddr, &frame) != 0 ||
	    dwarf_frame_register(frame, reg, mem, &ops, &nops) != 0) {
		free(frame);
		strbuf_addf(m->err, "the CFI does not say where %s is", regs_describe(reg, buf));
		return -EINVAL;
	}
	if (nops == 0) {
		free(frame);
		if (!ops)	/* "same value": the function has not changed it */
			return push_reg(m, reg, 0);
		strbuf_addf(m->err, "%s holds it only at the function's entry",
			    regs_describe(reg, buf));
		return -EINVAL;
	}
	if (ops[nops - 1].atom == DW_OP_stack_value) {
		ret = run_quiet(m, ops, nops - 1);
	} else {
		ret = run_quiet(m, ops, nops);
		if (!ret) {
			struct sel *t = &m->st[m->sp - 1];
			char *f = t->fetch ? loc_mem_fetch(t->fetch, t->add) : NULL;

			free(t->fetch);
			*t = (struct sel){ .fetch = f };
			ret = f ? 0 : -EINVAL;
		}
	}
	free(frame);
	if (ret)
		strbuf_addf(m->err, "the CFI saves %s where uprobes cannot read it",
			    regs_describe(reg, buf));
	return ret;
}

/* Register @reg of a caller at its call, read in the probed function's frame at the pc. */
static int caller_reg(struct machine *m, int reg, int64_t off)
{
	const struct frame *saved = m->fr;
	int ret;

	m->fr = &m->own;
	ret = entry_reg(m, reg);
	m->fr = saved;
	if (!ret)
		m->st[m->sp - 1].add += off;
	return ret;
}

static void sel_describe(const struct sel *s, struct strbuf *out)
{
	if (s->file)
		strbuf_addf(out, "the address at file offset 0x%" PRIx64, (uint64_t)s->add);
	else if (!s->fetch)
		strbuf_addf(out, "%" PRId64, s->add);
	else if (s->add)
		strbuf_addf(out, "%s%+" PRId64, s->fetch, s->add);
	else
		strbuf_addstr(out, s->fetch);
}

static bool sel_same(const struct sel *a, const struct sel *b)
{
	return a->add == b->add && a->file == b->file &&
	       (a->fetch ? b->fetch && !strcmp(a->fetch, b->fetch) : !b->fetch);
}

/* "main+0x1e": where call @s returns to */
static void site_describe(const struct callsite *s, struct strbuf *out)
{
	char *name = die_func_name((Dwarf_Die *)&s->caller);
	Dwarf_Addr entry;

	if (dwarf_entrypc((Dwarf_Die *)&s->caller, &entry) != 0 || entry > s->ret_pc)
		entry = s->ret_pc;
	strbuf_addf(out, "%s+0x%" PRIx64, name ? name : "?", s->ret_pc - entry);
	free(name);
}

/* What call @s passes, as seen from the probed function at the pc, into @out. */
static int site_sel(struct machine *m, const struct callsite *s, struct sel *out,
		    struct strbuf *why)
{
	const struct loc_ctx *c = m->ctx;
	struct frame cf = { .func = (Dwarf_Die *)&s->caller, .pc = s->ret_pc - 1, .caller = true };
	struct machine sm = { .ctx = c, .err = why, .own = m->own };
	Dwarf_Attribute attr = s->value;
	Dwarf_Op *ops;
	size_t nops;
	int ret;

	cf.vaddr = s->ret_pc - 1 + (c->vaddr - c->pc);
	sm.fr = &cf;
	if (s->tail) {
		strbuf_addstr(why, "it is tail-called (the caller's frame is gone)");
		return -EINVAL;
	}
	if (!s->has_value) {
		strbuf_addstr(why, "the call does not say what it passes");
		return -EINVAL;
	}
	if (dwarf_getlocation(&attr, &ops, &nops) != 0 || !nops) {
		strbuf_addstr(why, "the call's value cannot be decoded");
		return -EINVAL;
	}
	if (nops > 1 && ops[nops - 1].atom == DW_OP_stack_value)
		nops--;
	ret = run_ops(&sm, ops, nops, NULL);
	if (!ret) {
		*out = sm.st[sm.sp - 1];
		out->fetch = out->fetch ? xstrdup(out->fetch) : NULL;
	}
	m_clear(&sm);
	return ret;
}

/*
 * Push what every described call of the function passes for @key, when they all pass the
 * same readable thing; else say why not in @why.
 */
static int push_from_callers(struct machine *m, const struct callsite_key *key,
			     struct strbuf *why)
{
	const struct loc_ctx *c = m->ctx;
	struct callsite_code code;
	struct callsite *sites = NULL;
	struct sel first = { 0 }, cur;
	size_t n = 0, i;
	int ret = -EINVAL;

	if (!c->func || !c->callers_known) {
		strbuf_addstr(why, "not every caller of the function is known (a gcc clone's are: "
			      ".isra, .constprop, .part)");
		return -EINVAL;
	}
	code.elf = c->elf;
	code.delta = (int64_t)(c->vaddr - c->pc);
	if (callsite_find(c->func, key, &code, &sites, &n, why))
		return -EINVAL;
	if (!n) {
		strbuf_addstr(why, "no call of the function is described");
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		struct strbuf e = STRBUF_INIT;

		if (site_sel(m, &sites[i], &cur, &e)) {
			strbuf_addstr(why, "the call at ");
			site_describe(&sites[i], why);
			strbuf_addf(why, " passes it in a way uprobes cannot read here (%s)",
				    strbuf_cstr(&e));
			strbuf_release(&e);
			goto out;
		}
		strbuf_release(&e);
		if (i == 0) {
			first = cur;
			continue;
		}
		if (!sel_same(&first, &cur)) {
			strbuf_addstr(why, "its callers pass different values (at ");
			site_describe(&sites[0], why);
			strbuf_addstr(why, ": ");
			sel_describe(&first, why);
			strbuf_addstr(why, "; at ");
			site_describe(&sites[i], why);
			strbuf_addstr(why, ": ");
			sel_describe(&cur, why);
			strbuf_addstr(why, ")");
			free(cur.fetch);
			goto out;
		}
		free(cur.fetch);
	}
	pr_debug("%zu calls pass the same value", n);
	ret = m_push(m, first.fetch, first.add, first.file);
	first.fetch = NULL;
out:
	free(first.fetch);
	free(sites);
	return ret;
}

/*
 * The register DW_OP_entry_value @op names (DW_OP_regN, DW_OP_regx), or -1. libdw gives the
 * operand's length in number and in number2 the operand as written: that length (ULEB128),
 * then the expression.
 */
static int entry_value_reg(const Dwarf_Op *op)
{
	const unsigned char *p = (const unsigned char *)(uintptr_t)op->number2, *end;

	if (!p || op->number == 0 || leb128_u(&p, p + 10) != op->number)
		return -1;
	end = p + op->number;
	if (*p >= DW_OP_reg0 && *p <= DW_OP_reg31 && op->number == 1)
		return *p - DW_OP_reg0;
	if (*p == DW_OP_regx) {
		p++;
		return (int)leb128_u(&p, end);
	}
	return -1;
}

/*
 * DW_OP_entry_value(DW_OP_regN) or DW_OP_GNU_parameter_ref at @op: push the value from the
 * register while it is unchanged or saved, else from the callers.
 * @why: on failure, the message for the whole location (a string to free())
 */
static int push_entry(struct machine *m, const Dwarf_Op *op, char **why)
{
	struct callsite_key key = { .reg = -1 };
	struct strbuf w = STRBUF_INIT, *saved = m->err;
	bool param = op->atom == DW_OP_GNU_parameter_ref;
	char buf[24];
	int ret = -EINVAL;

	if (param)
		strbuf_addstr(&w, "is a parameter the clone does not take (DW_OP_GNU_parameter_ref)"
			      ", known only from its callers: ");
	else
		strbuf_addstr(&w, "is only known as its value at the function's entry "
			      "(DW_OP_entry_value), which uprobes cannot read here: ");
	if (m->fr->caller) {
		strbuf_addf(&w, "a caller passes a value it only knows from its own caller (%s)",
			    loc_op_name(op->atom, buf));
		goto out;
	}
	if (param) {
		Dwarf_Die cu;

		if (!m->own.func || !dwarf_diecu(m->own.func, &cu, NULL, NULL)) {
			strbuf_addstr(&w, "its unit is unknown");
			goto out;
		}
		key.param = dwarf_dieoffset(&cu) - dwarf_cuoffset(&cu) + op->number;
		ret = push_from_callers(m, &key, &w);
		goto out;
	}
	key.reg = entry_value_reg(op);
	if (key.reg < 0) {
		strbuf_addstr(&w, "the entry value of an expression, not of a register");
		goto out;
	}
	m->err = &w;
	ret = entry_reg(m, key.reg);
	m->err = saved;
	if (ret) {
		strbuf_addstr(&w, "; ");
		ret = push_from_callers(m, &key, &w);
	}
out:
	m->err = saved;
	*why = ret ? strbuf_detach(&w) : NULL;
	strbuf_release(&w);
	return ret;
}

static int run_ops(struct machine *m, const Dwarf_Op *ops, size_t n, struct loc *out)
{
	const struct loc_ctx *c = m->ctx;
	bool stack_value = false, since_piece = false, skip_piece = false;
	int reg = -1, ret = 0;
	char buf[24];

	for (size_t i = 0; i < n; i++) {
		unsigned int a = ops[i].atom;

		if (a == DW_OP_piece && out) {
			if (skip_piece && out->nr)
				out->pieces[out->nr - 1].size = (unsigned int)ops[i].number;
			else
				finish_piece(m, reg, stack_value, !since_piece,
					     (unsigned int)ops[i].number, out);
			m_clear(m);
			reg = -1;
			stack_value = skip_piece = since_piece = false;
			continue;
		}
		if (skip_piece)
			continue;
		since_piece = true;
		if (!out && (a == DW_OP_piece || a == DW_OP_stack_value ||
			     a == DW_OP_entry_value || a == DW_OP_GNU_entry_value)) {
			goto cannot;
		} else if (!out && a >= DW_OP_reg0 && a <= DW_OP_reg31) {
			ret = push_reg(m, a - DW_OP_reg0, 0);
		} else if (a >= DW_OP_reg0 && a <= DW_OP_reg31) {
			reg = a - DW_OP_reg0;
		} else if (a == DW_OP_regx) {
			reg = (int)ops[i].number;
		} else if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
			ret = push_reg(m, a - DW_OP_breg0, (int64_t)ops[i].number);
		} else if (a == DW_OP_bregx) {
			ret = push_reg(m, (int)ops[i].number, (int64_t)ops[i].number2);
		} else if (a >= DW_OP_lit0 && a <= DW_OP_lit31) {
			ret = m_push(m, NULL, a - DW_OP_lit0, false);
		} else if (a == DW_OP_const1u || a == DW_OP_const2u || a == DW_OP_const4u ||
			   a == DW_OP_const8u || a == DW_OP_constu || a == DW_OP_const1s ||
			   a == DW_OP_const2s || a == DW_OP_const4s || a == DW_OP_const8s ||
			   a == DW_OP_consts) {
			ret = m_push(m, NULL, (int64_t)ops[i].number, false);
		} else if (a == DW_OP_addr && c->pc_relative) {
			ret = m_push(m, xstrdup(arch_current()->ip_fetch),
				     (int64_t)(ops[i].number + c->pc_delta), false);
		} else if (a == DW_OP_addr) {
			ret = m_push(m, NULL, (int64_t)(ops[i].number + c->file_delta), true);
		} else if (a == DW_OP_fbreg) {
			ret = push_frame_base(m);
			if (!ret)
				m->st[m->sp - 1].add += (int64_t)ops[i].number;
		} else if (a == DW_OP_call_frame_cfa) {
			ret = push_cfa(m);
		} else if (a == DW_OP_plus_uconst) {
			if (!m->sp)
				goto underflow;
			m->st[m->sp - 1].add += (int64_t)ops[i].number;
		} else if (a == DW_OP_plus || a == DW_OP_minus) {
			struct sel *x, *y;

			if (m->sp < 2)
				goto underflow;
			y = &m->st[m->sp - 1];
			x = &m->st[m->sp - 2];
			if (y->fetch || y->file) {
				if (a == DW_OP_minus || x->fetch || x->file)
					goto cannot;
				y->add += x->add;
				*x = *y;
			} else {
				x->add += a == DW_OP_plus ? y->add : -y->add;
			}
			m->sp--;
		} else if (a == DW_OP_deref) {
			struct sel *t;
			char *f;

			if (!m->sp)
				goto underflow;
			t = &m->st[m->sp - 1];
			if (t->file)
				f = loc_mem_fetch(NULL, t->add);
			else if (t->fetch)
				f = loc_mem_fetch(t->fetch, t->add);
			else
				goto cannot;
			free(t->fetch);
			t->fetch = f;
			t->add = 0;
			t->file = false;
		} else if (a == DW_OP_stack_value) {
			stack_value = true;
		} else if (a == DW_OP_implicit_value) {
			uint64_t v = 0;

			if (ops[i].number > 8)
				goto cannot;
			memcpy(&v, (const void *)(uintptr_t)ops[i].number2, ops[i].number);
			ret = m_push(m, NULL, (int64_t)v, false);
			stack_value = true;
		} else if (a == DW_OP_entry_value || a == DW_OP_GNU_entry_value ||
			   a == DW_OP_GNU_parameter_ref) {
			char *why = NULL;

			ret = push_entry(m, &ops[i], &why);
			if (ret && out) {
				bad_piece(out, 0, why);
				skip_piece = true;
				m_clear(m);
				ret = 0;
			} else if (ret) {
				strbuf_addstr(m->err, why);
				free(why);
			}
		} else if (a == DW_OP_nop) {
			;
		} else {
			goto cannot;
		}
		if (ret)
			return ret;
	}
	if (!out)
		return m->sp ? 0 : -EINVAL;
	/* ops after the last DW_OP_piece carry nothing; a piece-less expression is one piece */
	if (!skip_piece && !out->nr)
		finish_piece(m, reg, stack_value, n == 0, 0, out);
	m_clear(m);
	return 0;
underflow:
	strbuf_addstr(m->err, "has a malformed DWARF expression (stack underflow)");
	return -EINVAL;
cannot:
	for (size_t i = 0; i < n; i++) {
		unsigned int a = ops[i].atom;

		if (!(a == DW_OP_plus || a == DW_OP_minus || a == DW_OP_deref ||
		      (a >= DW_OP_lit0 && a <= DW_OP_lit31) || (a >= DW_OP_reg0 && a <= DW_OP_breg31) ||
		      a == DW_OP_stack_value || a == DW_OP_piece || a == DW_OP_fbreg ||
		      a == DW_OP_call_frame_cfa || a == DW_OP_plus_uconst || a == DW_OP_addr ||
		      a == DW_OP_regx || a == DW_OP_bregx || a == DW_OP_constu || a == DW_OP_consts)) {
			strbuf_addf(m->err, "is computed with %s, which a uprobe fetcharg cannot express",
				    loc_op_name(a, buf));
			return -EINVAL;
		}
	}
	strbuf_addstr(m->err, "has a location computed in a way uprobes cannot fetch");
	return -EINVAL;
}

int loc_from_ops(const Dwarf_Op *ops, size_t n, const struct loc_ctx *ctx, struct loc *out,
		 struct strbuf *err)
{
	struct machine m = { .ctx = ctx, .err = err };
	int ret;

	m.own = (struct frame){ .func = ctx->func, .pc = ctx->pc, .vaddr = ctx->vaddr };
	m.fr = &m.own;
	out->pieces = NULL;
	out->nr = 0;
	ret = run_ops(&m, ops, n, out);
	m_clear(&m);
	return ret;
}


/* The few opcodes Go's block-form locations use. */
static int decode_block(Dwarf_Attribute *attr, Dwarf_Op *ops, size_t max, size_t *n)
{
	Dwarf_Block b;
	const unsigned char *p, *end;

	*n = 0;
	if (dwarf_formblock(attr, &b) != 0)
		return -EINVAL;
	p = b.data;
	end = b.data + b.length;
	while (p < end) {
		Dwarf_Op *o = &ops[*n];
		unsigned int a = *p++;

		if (*n == max)
			return -EINVAL;
		memset(o, 0, sizeof(*o));
		o->atom = a;
		if (a == DW_OP_addr) {
			if (end - p < 8)
				return -EINVAL;
			memcpy(&o->number, p, 8);
			p += 8;
		} else if (a == DW_OP_fbreg || a == DW_OP_consts ||
			   (a >= DW_OP_breg0 && a <= DW_OP_breg31)) {
			o->number = (Dwarf_Word)leb128_s(&p, end);
		} else if (a == DW_OP_piece || a == DW_OP_plus_uconst || a == DW_OP_constu ||
			   a == DW_OP_regx) {
			o->number = leb128_u(&p, end);
		} else if (!(a == DW_OP_call_frame_cfa || a == DW_OP_stack_value ||
			     a == DW_OP_deref || (a >= DW_OP_reg0 && a <= DW_OP_reg31) ||
			     (a >= DW_OP_lit0 && a <= DW_OP_lit31))) {
			return -EINVAL;
		}
		(*n)++;
	}
	return 0;
}

/*
 * The bits of @var's type when it is a signed integer (typedefs and qualifiers stripped; an
 * enum by its underlying type or, without one, by whether an enumerator is negative); 0 when
 * it is unsigned or not an integer.
 */
static unsigned int var_sign_bits(Dwarf_Die *var)
{
	Dwarf_Attribute attr;
	Dwarf_Die t;
	Dwarf_Word enc;
	bool sg = false;
	int size;

	if (!dwarf_attr_integrate(var, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &t))
		return 0;
	for (int i = 0; i < 16; i++) {
		int tag = dwarf_tag(&t);

		if (tag == DW_TAG_base_type) {
			sg = dwarf_attr(&t, DW_AT_encoding, &attr) && !dwarf_formudata(&attr, &enc) &&
			     (enc == DW_ATE_signed || enc == DW_ATE_signed_char);
			break;
		}
		if (tag == DW_TAG_enumeration_type && !dwarf_hasattr(&t, DW_AT_type)) {
			Dwarf_Die child;
			Dwarf_Sword v;

			if (dwarf_child(&t, &child) == 0) {
				do {
					if (dwarf_attr(&child, DW_AT_const_value, &attr) &&
					    dwarf_whatform(&attr) == DW_FORM_sdata &&
					    !dwarf_formsdata(&attr, &v) && v < 0)
						sg = true;
				} while (dwarf_siblingof(&child, &child) == 0);
			}
			break;
		}
		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_enumeration_type &&
		    tag != DW_TAG_atomic_type && tag != DW_TAG_restrict_type)
			return 0;
		if (!dwarf_attr_integrate(&t, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &t))
			return 0;
	}
	size = dwarf_bytesize(&t);
	return sg && size > 0 && size <= 8 ? (unsigned int)size * 8 : 0;
}

/* Sign-extend the low @bits of @v (0 or 64: unchanged). */
static uint64_t sign_extend(uint64_t v, unsigned int bits)
{
	if (!bits || bits >= 64 || !((v >> (bits - 1)) & 1))
		return v;
	return v | ~(uint64_t)0 << bits;
}

/*
 * DW_AT_const_value as the 64 bits the kernel's immediate gets. DW_FORM_data1..8 hold raw
 * bits of that size whose signedness only the variable's type tells (libdw's
 * dwarf_formsdata() sign-extends them from the form's size: an unsigned long 200 in data1
 * became -56); they are sign-extended from the type's size when it is signed. DW_FORM_sdata
 * is signed, DW_FORM_udata unsigned; a block of at most 8 bytes is the value's bytes.
 */
static int const_value(Dwarf_Die *var, Dwarf_Attribute *attr, uint64_t *v)
{
	unsigned int bytes = 0;
	Dwarf_Sword s;
	Dwarf_Word u;
	Dwarf_Block b;

	switch (dwarf_whatform(attr)) {
	case DW_FORM_data1:
		bytes = 1;
		break;
	case DW_FORM_data2:
		bytes = 2;
		break;
	case DW_FORM_data4:
		bytes = 4;
		break;
	case DW_FORM_data8:
		bytes = 8;
		break;
	case DW_FORM_sdata:
	case DW_FORM_implicit_const:
		if (dwarf_formsdata(attr, &s) != 0)
			return -EINVAL;
		*v = (uint64_t)s;
		return 0;
	case DW_FORM_udata:
		if (dwarf_formudata(attr, &u) != 0)
			return -EINVAL;
		*v = u;
		return 0;
	case DW_FORM_block:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
		if (dwarf_formblock(attr, &b) != 0 || b.length == 0 || b.length > 8)
			return -EINVAL;
		u = 0;
		memcpy(&u, b.data, b.length);
		*v = sign_extend(u, var_sign_bits(var));
		return 0;
	default:
		return -EINVAL;
	}
	if (dwarf_formudata(attr, &u) != 0)
		return -EINVAL;
	if (bytes < 8)
		u &= ((uint64_t)1 << (bytes * 8)) - 1;
	*v = sign_extend(u, var_sign_bits(var));
	return 0;
}

int loc_from_die(Dwarf_Die *var, const struct loc_ctx *ctx, struct loc *out, struct strbuf *err)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;
	int nloc;

	out->pieces = NULL;
	out->nr = 0;
	if (dwarf_attr_integrate(var, DW_AT_const_value, &attr)) {
		struct loc_piece p = { .kind = LOC_IMM, .reg = -1 };
		Dwarf_Block b;

		if (dwarf_formblock(&attr, &b) == 0 && b.length == 16) {
			/* a 128-bit constant (rustc): two 8-byte immediates, low half first */
			p.size = 8;
			for (int i = 0; i < 2; i++) {
				memcpy(&p.imm, b.data + 8 * i, 8);
				loc_add_piece(out, &p);
			}
			return 0;
		}
		if (const_value(var, &attr, &p.imm) < 0) {
			p.kind = LOC_BAD;
			p.why = xstrdup("is a constant that upfront cannot read from the DWARF");
		}
		loc_add_piece(out, &p);
		free(p.why);
		return 0;
	}
	if (!dwarf_attr(var, DW_AT_location, &attr)) {
		struct loc_piece p = { .kind = LOC_NONE, .reg = -1 };

		loc_add_piece(out, &p);
		return 0;
	}
	switch (dwarf_whatform(&attr)) {
	case DW_FORM_block:
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4: {
		/* Go writes DWARF 4 locations as blocks, which libdw refuses for version 4 */
		Dwarf_Op own[16];
		size_t n;

		if (dwarf_getlocation(&attr, &ops, &nops) == 0)
			return loc_from_ops(ops, nops, ctx, out, err);
		if (decode_block(&attr, own, ARRAY_SIZE(own), &n)) {
			strbuf_addstr(err, "has a location block upfront cannot decode");
			return -EINVAL;
		}
		return loc_from_ops(own, n, ctx, out, err);
	}
	default:
		nloc = dwarf_getlocation_addr(&attr, ctx->pc, &ops, &nops, 1);
	}
	if (nloc < 0) {
		strbuf_addf(err, "has a location upfront cannot read: %s", dwarf_errmsg(-1));
		return -EINVAL;
	}
	if (nloc == 0 || nops == 0) {
		struct loc_piece p = { .kind = LOC_NONE, .reg = -1 };

		loc_add_piece(out, &p);
		return 0;
	}
	return loc_from_ops(ops, nops, ctx, out, err);
}
