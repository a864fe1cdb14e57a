// SPDX-License-Identifier: GPL-2.0-or-later
/* arm64-insn.c - AArch64 instruction decoding: the kernel's encodings for what a probe does,
 * capstone for the text and the registers an instruction writes */
#define LOG_DOMAIN "arm64-insn"

#include <capstone/capstone.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arm64-insn.h"
#include "log.h"
#include "util.h"

/* ---- encodings (the Arm ARM's; the same masks as the kernel's asm/insn.h) ---- */

static uint32_t word_at(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int64_t sext(uint64_t v, unsigned int bits)
{
	uint64_t m = 1ull << (bits - 1);

	v &= (1ull << bits) - 1;
	return (int64_t)((v ^ m) - m);
}

#define IS(insn, mask, val) (((insn) & (mask)) == (val))

static bool is_b_bl(uint32_t i)		{ return IS(i, 0x7c000000, 0x14000000); }
static bool is_bcond(uint32_t i)	{ return IS(i, 0xff000010, 0x54000000); }
static bool is_cb(uint32_t i)		{ return IS(i, 0x7e000000, 0x34000000); }
static bool is_tb(uint32_t i)		{ return IS(i, 0x7e000000, 0x36000000); }
static bool is_adr_adrp(uint32_t i)	{ return IS(i, 0x1f000000, 0x10000000); }
/* unconditional branch (register): br, blr, ret, eret, and their PAC forms */
static bool is_branch_reg(uint32_t i)	{ return IS(i, 0xfe000000, 0xd6000000); }
static unsigned int branch_reg_opc(uint32_t i) { return (i >> 21) & 0xf; }
static bool is_ret(uint32_t i)
{
	return is_branch_reg(i) && branch_reg_opc(i) == 2;	/* ret, retaa, retab */
}

/* the direct branches' targets */
static bool branch_target(uint32_t i, uint64_t pc, uint64_t *to)
{
	if (is_b_bl(i))
		*to = pc + (uint64_t)(sext(i, 26) * 4);
	else if (is_bcond(i) || is_cb(i))
		*to = pc + (uint64_t)(sext(i >> 5, 19) * 4);
	else if (is_tb(i))
		*to = pc + (uint64_t)(sext(i >> 5, 14) * 4);
	else
		return false;
	return true;
}

/* ---- what the kernel does with a uprobe on it (arch/arm64/kernel/probes/decode-insn.c) ---- */

static bool is_class_branch_sys(uint32_t i)	{ return IS(i, 0x1c000000, 0x14000000); }
static bool is_exception(uint32_t i)		{ return IS(i, 0xff000000, 0xd4000000); }
static bool is_msr_imm(uint32_t i)		{ return IS(i, 0xfff8f01f, 0xd500401f); }
static bool is_msr_reg(uint32_t i)		{ return IS(i, 0xfff00000, 0xd5100000); }
static bool is_mrs(uint32_t i)			{ return IS(i, 0xfff00000, 0xd5300000); }
static bool is_hint(uint32_t i)			{ return IS(i, 0xfffff01f, 0xd503201f); }
static bool is_eret(uint32_t i)
{
	return i == 0xd69f03e0 || IS(i, 0xfffffbff, 0xd69f0bff);	/* eret, eretaa/ab */
}

/* the hints the kernel single-steps: nop, xpaclri, pacia1716/pacib1716, paciaz/paciasp,
 * pacibz/pacibsp, bti (aarch64_insn_is_steppable_hint()); autiasp and the others are not */
static bool is_steppable_hint(uint32_t i)
{
	static const uint16_t ok[] = { 0x000, 0x0e0, 0x100, 0x140, 0x300, 0x320, 0x340, 0x360,
				       0x400, 0x440, 0x480, 0x4c0 };

	for (size_t k = 0; k < ARRAY_SIZE(ok); k++)
		if ((i & 0xfe0) == ok[k])
			return true;
	return false;
}

static bool uses_literal(uint32_t i)
{
	return IS(i, 0xbf000000, 0x18000000) ||	/* ldr (literal) */
	       IS(i, 0xff000000, 0x98000000) ||	/* ldrsw (literal) */
	       IS(i, 0xff000000, 0xd8000000) ||	/* prfm (literal) */
	       is_adr_adrp(i);
}

static bool is_exclusive(uint32_t i)
{
	/*
	 * ldxr/stxr/ldaxr/stlxr and the pairs (o2 clear in the load/store exclusive class); the
	 * kernel (6.12, measured by scripts/arm64/probe-refusals) steps ldar and stlr (o2 set)
	 */
	return IS(i, 0x3f800000, 0x08400000) || IS(i, 0x3f800000, 0x08000000);
}

/* the MRS system register field of DAIF (op0 3, op1 3, CRn 4, CRm 2, op2 1) */
#define SYSREG_DAIF 0xda11

static bool is_steppable(uint32_t i)
{
	if (is_class_branch_sys(i)) {
		if (is_b_bl(i) || is_bcond(i) || is_cb(i) || is_tb(i) || is_branch_reg(i) ||
		    is_msr_imm(i) || is_msr_reg(i) || is_exception(i) || is_eret(i))
			return false;
		/* mrs steps out of line but for daif, which the stepping changes */
		if (is_mrs(i))
			return ((i & 0x1fffe0) >> 5) != SYSREG_DAIF;
		if (is_hint(i))
			return is_steppable_hint(i);
		return true;
	}
	return !uses_literal(i) && !is_exclusive(i);
}

enum probe_cost arm64_insn_probe_cost(uint32_t insn)
{
	if (is_steppable(insn))
		return PROBE_SSTEP;
	if (is_bcond(insn) || is_cb(insn) || is_tb(insn) || is_adr_adrp(insn) ||
	    is_b_bl(insn) || IS(insn, 0xfffffc1f, 0xd61f0000) ||	/* br */
	    IS(insn, 0xfffffc1f, 0xd63f0000) || IS(insn, 0xfffffc1f, 0xd65f0000))	/* blr, ret */
		return PROBE_EMULATED;
	/* the PAC forms (retaa, braa, blraa) are neither steppable nor simulated */
	return PROBE_REFUSED;
}


/* ---- walking the code ---- */

static int insn_word(const struct insn_code *c, uint64_t addr, uint32_t *insn)
{
	if (addr < c->addr || (addr - c->addr) % ARM64_INSN_SIZE ||
	    addr - c->addr + ARM64_INSN_SIZE > c->len)
		return -EINVAL;
	*insn = word_at(c->bytes + (addr - c->addr));
	return 0;
}

/* the instructions of @c, in order, handed to @fn until it returns true */
static void walk(const struct insn_code *c, bool (*fn)(uint32_t insn, uint64_t pc, void *arg),
		 void *arg)
{
	for (size_t off = 0; off + ARM64_INSN_SIZE <= c->len; off += ARM64_INSN_SIZE)
		if (fn(word_at(c->bytes + off), c->addr + off, arg))
			return;
}

struct addr_list {
	uint64_t *v;
	size_t n, alloc;
	const struct insn_code *c;
	uint64_t target;	/* branches_to */
	bool indirect;		/* jump targets: a br */
	uint64_t page[32];	/* adr targets: what adrp/adr put in each register */
	uint32_t page_set;
};

static void addr_list_add(struct addr_list *l, uint64_t addr)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = addr;
}

static bool collect_ret(uint32_t insn, uint64_t pc, void *arg)
{
	if (is_ret(insn))
		addr_list_add(arg, pc);
	return false;
}

int arm64_insn_rets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr)
{
	struct addr_list l = { .c = c };

	walk(c, collect_ret, &l);
	*addrs = l.v;
	*nr = l.n;
	return 0;
}

static bool count_branch(uint32_t insn, uint64_t pc, void *arg)
{
	struct addr_list *l = arg;
	uint64_t to;

	if (branch_target(insn, pc, &to) && to == l->target)
		l->n++;
	return false;
}

long arm64_insn_branches_to_code(const struct insn_code *c, uint64_t target)
{
	struct addr_list l = { .c = c, .target = target };

	walk(c, count_branch, &l);
	return (long)l.n;
}

static bool collect_jump(uint32_t insn, uint64_t pc, void *arg)
{
	struct addr_list *l = arg;
	uint64_t to;

	if (branch_target(insn, pc, &to)) {
		if (to >= l->c->addr && to < l->c->addr + l->c->len)
			addr_list_add(l, to);
	} else if (is_branch_reg(insn) && branch_reg_opc(insn) == 0) {
		l->indirect = true;	/* br: a switch's table, or a tail call */
	}
	return false;
}

int arm64_insn_jump_targets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr,
				 bool *indirect)
{
	struct addr_list l = { .c = c };

	walk(c, collect_jump, &l);
	*addrs = l.v;
	*nr = l.n;
	*indirect = l.indirect;
	return 0;
}

static bool collect_adr(uint32_t insn, uint64_t pc, void *arg)
{
	struct addr_list *l = arg;
	unsigned int rd = insn & 0x1f, rn = (insn >> 5) & 0x1f;

	if (is_adr_adrp(insn)) {
		int64_t imm = sext(((insn >> 5) & 0x7ffff) << 2 | ((insn >> 29) & 3), 21);

		if (insn & 0x80000000)		/* adrp: 4 KiB pages */
			l->page[rd] = (pc & ~0xfffull) + (uint64_t)(imm * 4096);
		else
			l->page[rd] = pc + (uint64_t)imm;
		l->page_set |= 1u << rd;
		if (!(insn & 0x80000000))
			addr_list_add(l, l->page[rd]);
		return false;
	}
	/* add xD, xN, #imm{, lsl #12} on a register adrp set */
	if (IS(insn, 0xff800000, 0x91000000) && rd != 31 && (l->page_set & (1u << rn))) {
		uint64_t imm = (insn >> 10) & 0xfff;

		if (insn & (1u << 22))
			imm <<= 12;
		addr_list_add(l, l->page[rn] + imm);
		l->page[rd] = l->page[rn] + imm;
		l->page_set |= 1u << rd;
		return false;
	}
	if (rd != 31)	/* any other write to the register: a guess, conservatively dropped */
		l->page_set &= ~(1u << rd);
	return false;
}

int arm64_insn_adr_targets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr)
{
	struct addr_list l = { .c = c };

	walk(c, collect_adr, &l);
	*addrs = l.v;
	*nr = l.n;
	return 0;
}

/* ---- Go's stack-bound check ---- */

#define SPLIT_SCAN ARM64_GO_SPLIT_SCAN

/* ldr x16, [x28, #16]: g.stackguard0 (g is in x28 on arm64's register ABI) */
static bool is_ldr_stackguard(uint32_t i)
{
	return IS(i, 0xffc00000, 0xf9400000) && ((i >> 5) & 0x1f) == 28 &&
	       ((i >> 10) & 0xfff) == 2;
}

/* cmp/subs with xzr as the destination (shifted or extended register, or an immediate) */
static bool is_cmp(uint32_t i)
{
	return (i & 0x1f) == 31 && (IS(i, 0xff200000, 0xeb000000) ||
				    IS(i, 0xffe00000, 0xeb200000) || IS(i, 0xff800000, 0xf1000000));
}

uint64_t arm64_insn_go_split_end_code(const struct insn_code *c, struct insn_go_check *chk)
{
	bool guard = false, cmp = false;

	if (chk)
		memset(chk, 0, sizeof(*chk));
	for (size_t k = 0; k < SPLIT_SCAN && (k + 1) * ARM64_INSN_SIZE <= c->len; k++) {
		uint64_t pc = c->addr + k * ARM64_INSN_SIZE;
		uint32_t i = word_at(c->bytes + k * ARM64_INSN_SIZE);

		if (is_ldr_stackguard(i)) {
			guard = true;
		} else if (guard && is_cmp(i)) {
			cmp = true;
		} else if (guard && cmp && is_bcond(i) && (i & 0xf) == 0x9) {	/* b.ls */
			if (chk) {
				chk->branch = pc;
				branch_target(i, pc, &chk->stub);
			}
			return pc + ARM64_INSN_SIZE;
		} else if (is_bcond(i) && (i & 0xf) == 0x3) {
			/* b.lo after subs: a frame bigger than the stack's low addresses */
		} else if (!IS(i, 0x7f800000, 0x51000000) && !IS(i, 0x7f800000, 0x71000000) &&
			   !IS(i, 0x7f800000, 0x52800000) && !IS(i, 0x7f800000, 0x72800000) &&
			   !IS(i, 0x5f200000, 0x4b200000) && !IS(i, 0x5f200000, 0x4b000000)) {
			/* not sub/subs (immediate, extended or shifted register: "mov x27, #N;
			 * subs x17, sp, x27" for frames past 4 KiB), movz/movk computing the
			 * frame's low end */
			break;
		}
	}
	return c->addr;
}

bool arm64_go_split_taken(uint64_t pstate)
{
	bool z = pstate & (1ull << 30), carry = pstate & (1ull << 29);

	return z || !carry;
}

/* ---- instruction boundaries ---- */

/* the text of the instruction at @pc, "ldr x16, [x28, #0x10]" or ".inst 0x..." */
static void insn_text(csh cs, cs_insn *ci, uint32_t insn, uint64_t pc, char *buf, size_t size)
{
	uint8_t b[4] = { insn, insn >> 8, insn >> 16, insn >> 24 };
	const uint8_t *p = b;
	size_t n = sizeof(b);
	uint64_t a = pc;

	if (ci && cs_disasm_iter(cs, &p, &n, &a, ci))
		snprintf(buf, size, "%s%s%s", ci->mnemonic, ci->op_str[0] ? " " : "", ci->op_str);
	else
		snprintf(buf, size, ".inst 0x%08x", insn);
}

/*
 * disasm_open() - the capstone handle (with details), opened once per process as x86-insn.c
 * does, and one instruction buffer; false when capstone cannot start
 */
static bool disasm_open(csh *cs, cs_insn **insn)
{
	static csh handle;
	static bool opened;

	if (!opened) {
		if (cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &handle) != CS_ERR_OK)
			return false;
		cs_option(handle, CS_OPT_DETAIL, CS_OPT_ON);
		opened = true;
	}
	*cs = handle;
	*insn = cs_malloc(*cs);
	return *insn != NULL;
}

int arm64_insn_boundary_code(const struct insn_code *c, uint64_t addr,
			     struct insn_at *at)
{
	uint64_t first, start;
	cs_insn *ci = NULL;
	uint32_t insn;
	csh cs;

	memset(at, 0, sizeof(*at));
	if (addr < c->addr || addr >= c->addr + c->len)
		return -EINVAL;
	if ((addr - c->addr) % ARM64_INSN_SIZE == 0)
		return 1;
	start = addr - (addr - c->addr) % ARM64_INSN_SIZE;
	at->insn = start;
	if (insn_word(c, start, &insn) == 0) {
		if (!disasm_open(&cs, &ci))
			ci = NULL;
		insn_text(cs, ci, insn, start, at->text, sizeof(at->text));
		if (ci)
			cs_free(ci, 1);
	}
	first = start >= c->addr + 3 * ARM64_INSN_SIZE ? start - 3 * ARM64_INSN_SIZE : c->addr;
	for (uint64_t a = first; a + ARM64_INSN_SIZE <= c->addr + c->len &&
	     at->nr_near < ARRAY_SIZE(at->near) && a <= start + 3 * ARM64_INSN_SIZE;
	     a += ARM64_INSN_SIZE)
		at->near[at->nr_near++] = a;
	return 0;
}

/* ---- what probing an instruction costs, what it changes ---- */

/* capstone's general registers (any width) -> DWARF numbers (x0-x30 0-30, sp 31) */
static int reg_dwarf(unsigned int r)
{
	if (r >= ARM64_REG_X0 && r <= ARM64_REG_X28)
		return (int)(r - ARM64_REG_X0);
	if (r >= ARM64_REG_W0 && r <= ARM64_REG_W30)
		return (int)(r - ARM64_REG_W0);
	switch (r) {
	case ARM64_REG_X29: return 29;
	case ARM64_REG_X30: return 30;
	case ARM64_REG_SP: case ARM64_REG_WSP: return 31;
	case ARM64_REG_NZCV: return INSN_FLAGS_BIT;
	default: return -1;
	}
}

static bool is_store(uint32_t i)
{
	if (!IS(i, 0x0a000000, 0x08000000))	/* loads and stores */
		return false;
	/* atomic memory operations (ldadd, swp ...) write whatever their bit 22 says */
	if (IS(i, 0x3b200c00, 0x38200000))
		return true;
	return !(i & (1u << 22));	/* L (or opc's low bit) clear: a store, or a signed load
					 * counted as one: stores only err towards "changes" */
}

/*
 * pac_hint_writes() - what a PAC hint signs or authenticates in place (capstone 4 shows them
 * as "hint #N"): x17 for the 1716 forms, x30 for the -z and -sp forms and xpaclri. The value a
 * fetch of the register reads changes.
 */
static uint64_t pac_hint_writes(uint32_t insn)
{
	unsigned int h = (insn & 0xfe0) >> 5;

	if (h >= 8 && h <= 14)
		return 1ull << 17;
	if (h == 7 || (h >= 24 && h <= 31))
		return 1ull << 30;
	return 0;
}

/*
 * is_flags_only() - an instruction that writes the flags and no register: cmp, cmn, tst (subs,
 * adds, ands into xzr: Rd 31 is xzr where the S bit is set, sp where it is not) and ccmp,
 * ccmn; capstone 4 marks their first source operand written (cmp x0, #1: x0, which kept a
 * probe off the b.ne after it, an emulated instruction reading the same x0)
 */
static bool is_flags_only(uint32_t i)
{
	bool s = i & (1u << 29), zr = (i & 0x1f) == 31, ands = (i & 0x60000000) == 0x60000000;

	return (s && zr && (IS(i, 0x1f800000, 0x11000000) ||	/* add/sub, immediate */
			    IS(i, 0x1f000000, 0x0b000000))) ||	/* shifted, extended register */
	       (ands && zr && (IS(i, 0x1f800000, 0x12000000) ||	/* logical, immediate */
			       IS(i, 0x1f000000, 0x0a000000))) ||	/* shifted register */
	       (s && IS(i, 0x1fe00000, 0x1a400000));		/* ccmp, ccmn */
}

static void insn_info(csh cs, cs_insn *ci, uint32_t insn, uint64_t pc,
		      struct insn_info *out)
{
	uint8_t b[4] = { insn, insn >> 8, insn >> 16, insn >> 24 };
	const uint8_t *p = b;
	size_t n = sizeof(b);
	uint64_t a = pc;

	memset(out, 0, sizeof(*out));
	out->addr = pc;
	out->size = ARM64_INSN_SIZE;
	out->cost = arm64_insn_probe_cost(insn);
	out->stores = is_store(insn);
	out->ends_straight = is_class_branch_sys(insn) &&
			     (is_b_bl(insn) || is_bcond(insn) || is_cb(insn) || is_tb(insn) ||
			      is_branch_reg(insn) || is_exception(insn));
	if (!cs_disasm_iter(cs, &p, &n, &a, ci)) {
		snprintf(out->text, sizeof(out->text), ".inst 0x%08x", insn);
		out->regs_written = is_hint(insn) ? pac_hint_writes(insn) : ~0ull;
		return;
	}
	snprintf(out->text, sizeof(out->text), "%s%s%s", ci->mnemonic,
		 ci->op_str[0] ? " " : "", ci->op_str);
	const cs_arm64 *x = &ci->detail->arm64;
	for (uint8_t k = 0; k < x->op_count; k++) {
		const cs_arm64_op *op = &x->operands[k];
		int d = -1;

		if (op->type == ARM64_OP_REG && (op->access & CS_AC_WRITE))
			d = reg_dwarf(op->reg);
		else if (op->type == ARM64_OP_MEM && x->writeback)
			d = reg_dwarf(op->mem.base);
		if (d >= 0)
			out->regs_written |= 1ull << d;
	}
	for (uint8_t k = 0; k < ci->detail->regs_write_count; k++) {
		int d = reg_dwarf(ci->detail->regs_write[k]);

		if (d >= 0)
			out->regs_written |= 1ull << d;
	}
	if (x->update_flags)
		out->regs_written |= 1ull << INSN_FLAGS_BIT;
	if (is_hint(insn))
		out->regs_written |= pac_hint_writes(insn);
	/* capstone 4 leaves access unset on some forms: a load's first operand is written */
	if (IS(insn, 0x0a000000, 0x08000000) && !out->stores && x->op_count &&
	    x->operands[0].type == ARM64_OP_REG && reg_dwarf(x->operands[0].reg) >= 0)
		out->regs_written |= 1ull << reg_dwarf(x->operands[0].reg);
	if (is_flags_only(insn))
		out->regs_written = 1ull << INSN_FLAGS_BIT;
}

/* the instructions of @c from its start, at most @max; @straight: up to the first that
 * ends straight code */
static int decode_code(const struct insn_code *c, struct insn_info *out, size_t max, size_t *nr,
		       bool straight)
{
	cs_insn *ci;
	csh cs;

	*nr = 0;
	if (!disasm_open(&cs, &ci))
		return -EIO;
	for (size_t off = 0; *nr < max && off + ARM64_INSN_SIZE <= c->len;
	     off += ARM64_INSN_SIZE) {
		struct insn_info *in = &out[(*nr)++];

		insn_info(cs, ci, word_at(c->bytes + off), c->addr + off, in);
		if (straight && in->ends_straight)
			break;
	}
	cs_free(ci, 1);
	return 0;
}

int arm64_insn_straight_code(const struct insn_code *c, struct insn_info *out,
			     size_t max, size_t *nr)
{
	return decode_code(c, out, max, nr, true);
}

int arm64_insn_all_code(const struct insn_code *c, struct insn_info *out, size_t max, size_t *nr)
{
	return decode_code(c, out, max, nr, false);
}
