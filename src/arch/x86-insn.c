// SPDX-License-Identifier: GPL-2.0-or-later
/* x86-insn.c - x86-64 instruction decoding with capstone: the x86-64 instruction oracle */
#define LOG_DOMAIN "x86-insn"

#include <capstone/capstone.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "util.h"
#include "arch/float-walk.h"
#include "arch/x86-insn.h"

/* x86-64 instructions are at most 15 bytes: the one holding an address starts before it */
#define MAX_INSN 15

/*
 * disasm_open() - a capstone handle for x86-64 and one instruction buffer (with room for
 * operand details when @detail: capstone sizes the buffer when it is allocated); false on
 * failure. The two handles (with and without details) are opened once per process and kept:
 * capstone 4 builds its instruction-id table anew for every handle, which cost a glob over a
 * thousand functions most of its time. Each use starts in the default (Intel) syntax.
 */
static bool disasm_open(csh *cs, cs_insn **insn, bool detail)
{
	static csh handle[2];
	static bool opened[2];

	if (!opened[detail]) {
		if (cs_open(CS_ARCH_X86, CS_MODE_64, &handle[detail]) != CS_ERR_OK)
			return false;
		if (detail)
			cs_option(handle[detail], CS_OPT_DETAIL, CS_OPT_ON);
		opened[detail] = true;
	}
	*cs = handle[detail];
	cs_option(*cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_DEFAULT);
	*insn = cs_malloc(*cs);
	return *insn != NULL;
}

/* disasm_close() - frees the instruction buffer; the handle stays for the next use */
static void disasm_close(csh *cs, cs_insn *insn)
{
	(void)cs;
	cs_free(insn, 1);
}

/*
 * disasm_walk() - every instruction of @c, in order, handed to @fn with @arg; an undecodable
 * byte (padding, data) is stepped over and decoding goes on after it
 * @detail: @fn reads insn->detail (groups, operands)
 * Return: how many bytes were stepped over, or -EIO when capstone cannot be opened.
 */
static long disasm_walk(const struct insn_code *c, bool detail,
			void (*fn)(const cs_insn *insn, void *arg), void *arg)
{
	uint64_t end = c->addr + c->len;
	long skipped = 0;
	cs_insn *insn;
	csh cs;

	if (!disasm_open(&cs, &insn, detail))
		return -EIO;
	for (uint64_t pc = c->addr; pc < end;) {
		size_t size = end - pc;
		const uint8_t *p = c->bytes + (pc - c->addr);
		uint64_t a = pc;

		while (cs_disasm_iter(cs, &p, &size, &a, insn))
			fn(insn, arg);
		if (!size)
			break;
		skipped++;
		pc = a + 1;
	}
	disasm_close(&cs, insn);
	return skipped;
}

/* Addresses a disasm_walk() collects. */
struct addr_list {
	uint64_t *v;
	size_t n, alloc;
	const struct insn_code *c;
	bool *indirect;		/* jump targets: set on an indirect jmp */
};

static void addr_list_add(struct addr_list *l, uint64_t addr)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = addr;
}

/* ---- return instructions ---- */

static void collect_ret(const cs_insn *insn, void *arg)
{
	if (insn->id == X86_INS_RET)
		addr_list_add(arg, insn->address);
}

int x86_insn_rets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr)
{
	struct addr_list l = { .c = c };
	long skipped;

	*addrs = NULL;
	*nr = 0;
	skipped = disasm_walk(c, false, collect_ret, &l);
	if (skipped < 0)
		return skipped;
	if (skipped)
		pr_debug("0x%llx-0x%llx: %ld undecodable byte(s) skipped",
			 (unsigned long long)c->addr, (unsigned long long)(c->addr + c->len),
			 skipped);
	*addrs = l.v;
	*nr = l.n;
	return 0;
}

/* ---- Go's stack-bound check ---- */

/* Instructions of the check are among the first few; anything longer is not one. */
#define SPLIT_SCAN 6

uint64_t x86_insn_go_split_end_code(const struct insn_code *c, struct insn_go_check *chk)
{
	const uint8_t *p = c->bytes;
	size_t size = c->len;
	uint64_t a = c->addr, found = c->addr;
	bool cmp_g = false;
	cs_insn *insn;
	csh cs;

	if (chk)
		memset(chk, 0, sizeof(*chk));
	if (!disasm_open(&cs, &insn, true))
		return c->addr;
	for (int i = 0; i < SPLIT_SCAN && cs_disasm_iter(cs, &p, &size, &a, insn); i++) {
		/* the goroutine (g) is in r14 on the register ABI: g.stackguard0 at +16 */
		if (insn->id == X86_INS_CMP && strstr(insn->op_str, "r14")) {
			cmp_g = true;
			continue;
		}
		if (cmp_g && (insn->id == X86_INS_JBE || insn->id == X86_INS_JB)) {
			found = insn->address + insn->size;
			if (chk && insn->id == X86_INS_JBE &&
			    insn->detail->x86.op_count == 1 &&
			    insn->detail->x86.operands[0].type == X86_OP_IMM) {
				chk->branch = insn->address;
				chk->stub = insn->detail->x86.operands[0].imm;
			}
			break;
		}
		/* lea/mov/sub computing the frame's low end for big frames come first */
		if (insn->id != X86_INS_LEA && insn->id != X86_INS_MOV && insn->id != X86_INS_SUB &&
		    insn->id != X86_INS_JB)
			break;
	}
	disasm_close(&cs, insn);
	return found;
}

/* ---- instruction boundaries ---- */

int x86_insn_boundary_code(const struct insn_code *c, uint64_t addr, struct insn_at *at)
{
	uint64_t starts[2 * ARRAY_SIZE(at->near)];
	uint64_t pc = c->addr;
	const uint8_t *p = c->bytes;
	size_t size = c->len, n = 0, after = 0;
	cs_insn *insn;
	int ret = -EINVAL;
	csh cs;

	memset(at, 0, sizeof(*at));
	if (addr == c->addr)
		return 1;
	if (addr < c->addr) {
		at->insn = c->addr;
		return -EINVAL;
	}
	if (!disasm_open(&cs, &insn, false))
		return -EIO;
	cs_option(cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	while (cs_disasm_iter(cs, &p, &size, &pc, insn)) {
		uint64_t a = insn->address;

		/* keep the last few starts before @addr and a few after it */
		if (a <= addr) {
			/* room for 3 after it */
			if (n == ARRAY_SIZE(starts) - 3)
				memmove(starts, starts + 1, --n * sizeof(*starts));
			starts[n++] = a;
		} else if (after++ < 3 && n < ARRAY_SIZE(starts)) {
			starts[n++] = a;
		}
		if (a == addr) {
			ret = 1;
			break;
		}
		if (a < addr && a + insn->size > addr) {
			at->insn = a;
			snprintf(at->text, sizeof(at->text), "%s%s%s", insn->mnemonic,
				 insn->op_str[0] ? " " : "", insn->op_str);
			ret = 0;
		}
		if (a > addr && after >= 3)
			break;
	}
	disasm_close(&cs, insn);
	if (ret == 0) {
		/* up to 3 before the one holding @addr, it, and what follows */
		size_t first = 0;

		for (size_t i = 0; i < n; i++)
			if (starts[i] == at->insn)
				first = i > 2 ? i - 3 : 0;
		for (size_t i = first; i < n && at->nr_near < ARRAY_SIZE(at->near); i++)
			at->near[at->nr_near++] = starts[i];
	} else if (ret < 0) {
		at->insn = pc;	/* where decoding stopped */
	}
	return ret;
}

/* ---- the targets an IFUNC resolver loads ---- */

int x86_insn_lea_targets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr)
{
	const uint8_t *p = c->bytes;
	uint64_t *out = NULL, pc = c->addr;
	size_t n = 0, alloc = 0, size = c->len;
	cs_insn *insn;
	csh cs;

	*addrs = NULL;
	*nr = 0;
	if (!disasm_open(&cs, &insn, true))
		return -EIO;
	while (cs_disasm_iter(cs, &p, &size, &pc, insn)) {
		const cs_x86 *x = &insn->detail->x86;

		if (insn->id != X86_INS_LEA || x->op_count != 2 ||
		    x->operands[1].type != X86_OP_MEM || x->operands[1].mem.base != X86_REG_RIP)
			continue;
		ALLOC_GROW(out, n + 1, alloc);
		/* rip-relative: from the end of the instruction */
		out[n++] = insn->address + insn->size + (uint64_t)x->operands[1].mem.disp;
	}
	disasm_close(&cs, insn);
	*addrs = out;
	*nr = n;
	return 0;
}

/* ---- what probing an instruction costs, what it changes ---- */

/*
 * The encodings a uprobe hit does not single-step, as bench/insn-cost.sh measured them on
 * kernel 6.18.44 (x86_64, a 2-core VM): push of a register 0.66-1.0 us, nop, xchg %ax,%ax
 * and nopl/nopw 0.64-0.86 us, call/jmp rel 0.65-0.9 us, jcc rel8/rel32 0.6-1.3 us; a 5-byte
 * nopl 0.34-0.5 us (the kernel rewrites it into a call to its uprobe trampoline). Everything
 * else measured, endbr64, mov, lea, sub/add, xor, test, pop, ret, cmp, call *%reg, was
 * single-stepped at 20-60 us under load. Patterns match the first bytes under @mask; @size,
 * when set, is the whole instruction's length. Unlisted encodings count as single-stepped.
 */
static const struct probe_cost_rule {
	uint8_t bytes[5];
	uint8_t mask[5];
	uint8_t nr;		/* bytes compared */
	uint8_t size;		/* the instruction's length, 0: any */
	enum probe_cost cost;
} probe_costs[] = {
	{ { 0x0f, 0x1f, 0x44, 0x00, 0x00 }, { 0xff, 0xff, 0xff, 0xff, 0xff }, 5, 5,
	  PROBE_OPTIMIZED },					/* nopl 0x0(%rax,%rax,1) */
	{ { 0x50 }, { 0xf8 }, 1, 1, PROBE_EMULATED },		/* push %rax-%rdi */
	{ { 0x41, 0x50 }, { 0xff, 0xf8 }, 2, 2, PROBE_EMULATED },	/* push %r8-%r15 */
	{ { 0x90 }, { 0xff }, 1, 1, PROBE_EMULATED },		/* nop */
	{ { 0x66, 0x90 }, { 0xff, 0xff }, 2, 2, PROBE_EMULATED },	/* xchg %ax,%ax */
	{ { 0x0f, 0x1f, 0x00 }, { 0xff, 0xff, 0x38 }, 3, 0, PROBE_EMULATED }, /* nopl */
	{ { 0x66, 0x0f, 0x1f, 0x00 }, { 0xff, 0xff, 0xff, 0x38 }, 4, 0,
	  PROBE_EMULATED },						/* nopw */
	{ { 0xe8 }, { 0xff }, 1, 5, PROBE_EMULATED },		/* call rel32 */
	{ { 0xe9 }, { 0xff }, 1, 5, PROBE_EMULATED },		/* jmp rel32 */
	{ { 0xeb }, { 0xff }, 1, 2, PROBE_EMULATED },		/* jmp rel8 */
	{ { 0x70 }, { 0xf0 }, 1, 2, PROBE_EMULATED },		/* jcc rel8 */
	{ { 0x0f, 0x80 }, { 0xff, 0xf0 }, 2, 6, PROBE_EMULATED },	/* jcc rel32 */
};

enum probe_cost x86_insn_probe_cost(const uint8_t *bytes, size_t size)
{
	for (size_t i = 0; i < ARRAY_SIZE(probe_costs); i++) {
		const struct probe_cost_rule *r = &probe_costs[i];
		size_t k;

		if ((r->size && size != r->size) || size < r->nr)
			continue;
		for (k = 0; k < r->nr && (bytes[k] & r->mask[k]) == r->bytes[k]; k++)
			;
		if (k == r->nr)
			return r->cost;
	}
	return PROBE_SSTEP;
}

/* capstone's registers (any width) -> DWARF numbers; what a write clobbers */
static const struct {
	x86_reg reg;
	uint8_t dwarf;
} reg_dwarf[] = {
	{ X86_REG_RAX, 0 }, { X86_REG_EAX, 0 }, { X86_REG_AX, 0 }, { X86_REG_AL, 0 },
	{ X86_REG_AH, 0 }, { X86_REG_RDX, 1 }, { X86_REG_EDX, 1 }, { X86_REG_DX, 1 },
	{ X86_REG_DL, 1 }, { X86_REG_DH, 1 }, { X86_REG_RCX, 2 }, { X86_REG_ECX, 2 },
	{ X86_REG_CX, 2 }, { X86_REG_CL, 2 }, { X86_REG_CH, 2 }, { X86_REG_RBX, 3 },
	{ X86_REG_EBX, 3 }, { X86_REG_BX, 3 }, { X86_REG_BL, 3 }, { X86_REG_BH, 3 },
	{ X86_REG_RSI, 4 }, { X86_REG_ESI, 4 }, { X86_REG_SI, 4 }, { X86_REG_SIL, 4 },
	{ X86_REG_RDI, 5 }, { X86_REG_EDI, 5 }, { X86_REG_DI, 5 }, { X86_REG_DIL, 5 },
	{ X86_REG_RBP, 6 }, { X86_REG_EBP, 6 }, { X86_REG_BP, 6 }, { X86_REG_BPL, 6 },
	{ X86_REG_RSP, 7 }, { X86_REG_ESP, 7 }, { X86_REG_SP, 7 }, { X86_REG_SPL, 7 },
	{ X86_REG_R8, 8 }, { X86_REG_R8D, 8 }, { X86_REG_R8W, 8 }, { X86_REG_R8B, 8 },
	{ X86_REG_R9, 9 }, { X86_REG_R9D, 9 }, { X86_REG_R9W, 9 }, { X86_REG_R9B, 9 },
	{ X86_REG_R10, 10 }, { X86_REG_R10D, 10 }, { X86_REG_R10W, 10 }, { X86_REG_R10B, 10 },
	{ X86_REG_R11, 11 }, { X86_REG_R11D, 11 }, { X86_REG_R11W, 11 }, { X86_REG_R11B, 11 },
	{ X86_REG_R12, 12 }, { X86_REG_R12D, 12 }, { X86_REG_R12W, 12 }, { X86_REG_R12B, 12 },
	{ X86_REG_R13, 13 }, { X86_REG_R13D, 13 }, { X86_REG_R13W, 13 }, { X86_REG_R13B, 13 },
	{ X86_REG_R14, 14 }, { X86_REG_R14D, 14 }, { X86_REG_R14W, 14 }, { X86_REG_R14B, 14 },
	{ X86_REG_R15, 15 }, { X86_REG_R15D, 15 }, { X86_REG_R15W, 15 }, { X86_REG_R15B, 15 },
	{ X86_REG_EFLAGS, INSN_FLAGS_BIT },
};

static uint64_t reg_bit(uint16_t reg)
{
	for (size_t i = 0; i < ARRAY_SIZE(reg_dwarf); i++)
		if (reg_dwarf[i].reg == reg)
			return 1ull << reg_dwarf[i].dwarf;
	return 0;
}

/* x86_info() - @insn (decoded with details) as a struct insn_info */
static void x86_info(csh cs, const cs_insn *insn, struct insn_info *out)
{
	const cs_x86 *x = &insn->detail->x86;
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;

	memset(out, 0, sizeof(*out));
	out->addr = insn->address;
	out->size = insn->size;
	snprintf(out->text, sizeof(out->text), "%s%s%s", insn->mnemonic,
		 insn->op_str[0] ? " " : "", insn->op_str);
	out->cost = x86_insn_probe_cost(insn->bytes, insn->size);
	if (cs_regs_access(cs, insn, rd, &nrd, wr, &nwr) == CS_ERR_OK) {
		for (uint8_t i = 0; i < nwr; i++)
			out->regs_written |= reg_bit(wr[i]);
	} else {
		out->regs_written = ~0ull;	/* unknown: everything */
	}
	for (uint8_t i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM && (x->operands[i].access & CS_AC_WRITE))
			out->stores = true;
	/* string stores name their memory implicitly */
	if (insn->id == X86_INS_STOSB || insn->id == X86_INS_STOSW ||
	    insn->id == X86_INS_STOSD || insn->id == X86_INS_STOSQ ||
	    insn->id == X86_INS_MOVSB || insn->id == X86_INS_MOVSW ||
	    insn->id == X86_INS_MOVSD || insn->id == X86_INS_MOVSQ || insn->id == X86_INS_ENTER)
		out->stores = true;
	for (uint8_t i = 0; i < insn->detail->groups_count; i++) {
		switch (insn->detail->groups[i]) {
		case CS_GRP_JUMP:
		case CS_GRP_CALL:
		case CS_GRP_RET:
		case CS_GRP_INT:
		case CS_GRP_IRET:
			out->ends_straight = true;
			break;
		default:
			break;
		}
	}
	if (insn->id == X86_INS_SYSCALL || insn->id == X86_INS_UD2 || insn->id == X86_INS_HLT)
		out->ends_straight = true;
}

/*
 * att_decode() - @c's instructions from its start (with details, AT&T syntax), each handed to
 * @fn with its index until @fn returns true (that one counted) or @max were seen
 * @nr: how many were handed over
 * Return: 0, or -EIO when capstone cannot start.
 */
static int att_decode(const struct insn_code *c, size_t max,
		      bool (*fn)(csh cs, const cs_insn *insn, size_t i, void *arg), void *arg,
		      size_t *nr)
{
	const uint8_t *p = c->bytes;
	size_t size = c->len, n = 0;
	uint64_t pc = c->addr;
	cs_insn *insn;
	csh cs;

	*nr = 0;
	if (!disasm_open(&cs, &insn, true))
		return -EIO;
	cs_option(cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	while (n < max && cs_disasm_iter(cs, &p, &size, &pc, insn))
		if (fn(cs, insn, n++, arg))
			break;
	disasm_close(&cs, insn);
	*nr = n;
	return 0;
}

static bool straight_one(csh cs, const cs_insn *insn, size_t i, void *arg)
{
	struct insn_info *out = arg;

	x86_info(cs, insn, &out[i]);
	return out[i].ends_straight;
}

int x86_insn_straight_code(const struct insn_code *c, struct insn_info *out, size_t max,
			   size_t *nr)
{
	return att_decode(c, max, straight_one, out, nr);
}

/* a direct jump's or call's target inside the code; an indirect jmp sets *l->indirect */
static void collect_jump(const cs_insn *insn, void *arg)
{
	const cs_x86 *x = &insn->detail->x86;
	struct addr_list *l = arg;
	bool jump = false;

	for (uint8_t i = 0; i < insn->detail->groups_count; i++)
		if (insn->detail->groups[i] == CS_GRP_JUMP || insn->detail->groups[i] == CS_GRP_CALL)
			jump = true;
	if (!jump || x->op_count != 1)
		return;
	if (x->operands[0].type != X86_OP_IMM) {
		if (insn->id == X86_INS_JMP)
			*l->indirect = true;
		return;
	}
	if ((uint64_t)x->operands[0].imm < l->c->addr ||
	    (uint64_t)x->operands[0].imm >= l->c->addr + l->c->len)
		return;
	addr_list_add(l, (uint64_t)x->operands[0].imm);
}

int x86_insn_jump_targets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr,
			       bool *indirect)
{
	struct addr_list l = { .c = c, .indirect = indirect };
	long ret;

	*addrs = NULL;
	*nr = 0;
	*indirect = false;
	ret = disasm_walk(c, true, collect_jump, &l);
	if (ret < 0)
		return ret;
	*addrs = l.v;
	*nr = l.n;
	return 0;
}

struct branch_count {
	uint64_t target;
	size_t n;
};

static void count_branch(const cs_insn *insn, void *arg)
{
	const cs_x86 *x = &insn->detail->x86;
	struct branch_count *b = arg;

	for (uint8_t i = 0; i < insn->detail->groups_count; i++)
		if ((insn->detail->groups[i] == CS_GRP_JUMP ||
		     insn->detail->groups[i] == CS_GRP_CALL) && x->op_count == 1 &&
		    x->operands[0].type == X86_OP_IMM &&
		    (uint64_t)x->operands[0].imm == b->target) {
			b->n++;
			return;
		}
}

long x86_insn_branches_to_code(const struct insn_code *c, uint64_t target)
{
	struct branch_count b = { .target = target };
	long ret = disasm_walk(c, true, count_branch, &b);

	if (ret < 0)
		return ret;
	return ret ? -EINVAL : (long)b.n;
}

/* ---- floats in xmm registers: where a value is copied to, where a result comes from ---- */

/* xmm, ymm or zmm register N (its low 64 bits are xmmN's), else -1 */
static int xmm_num(unsigned int r)
{
	if (r >= X86_REG_XMM0 && r <= X86_REG_XMM31)
		return (int)(r - X86_REG_XMM0);
	if (r >= X86_REG_YMM0 && r <= X86_REG_YMM31)
		return (int)(r - X86_REG_YMM0);
	if (r >= X86_REG_ZMM0 && r <= X86_REG_ZMM31)
		return (int)(r - X86_REG_ZMM0);
	return -1;
}

/* the DWARF number (0-15) of a 64-bit or 32-bit general register (its @bytes), else -1 */
static int gp_num(unsigned int r, unsigned int *bytes)
{
	static const unsigned int r64[16] = {
		X86_REG_RAX, X86_REG_RDX, X86_REG_RCX, X86_REG_RBX, X86_REG_RSI, X86_REG_RDI,
		X86_REG_RBP, X86_REG_RSP, X86_REG_R8, X86_REG_R9, X86_REG_R10, X86_REG_R11,
		X86_REG_R12, X86_REG_R13, X86_REG_R14, X86_REG_R15,
	};
	static const unsigned int r32[16] = {
		X86_REG_EAX, X86_REG_EDX, X86_REG_ECX, X86_REG_EBX, X86_REG_ESI, X86_REG_EDI,
		X86_REG_EBP, X86_REG_ESP, X86_REG_R8D, X86_REG_R9D, X86_REG_R10D, X86_REG_R11D,
		X86_REG_R12D, X86_REG_R13D, X86_REG_R14D, X86_REG_R15D,
	};

	for (int i = 0; i < 16; i++) {
		if (r64[i] == r || r32[i] == r) {
			*bytes = r64[i] == r ? 8 : 4;
			return i;
		}
	}
	return -1;
}

static bool is_move(unsigned int id)
{
	static const unsigned int ids[] = {
		X86_INS_MOVQ, X86_INS_MOVD, X86_INS_MOVSD, X86_INS_MOVSS, X86_INS_MOVAPD,
		X86_INS_MOVAPS, X86_INS_MOVUPD, X86_INS_MOVUPS, X86_INS_MOVDQA, X86_INS_MOVDQU,
		X86_INS_VMOVQ, X86_INS_VMOVD, X86_INS_VMOVSD, X86_INS_VMOVSS, X86_INS_VMOVAPD,
		X86_INS_VMOVAPS, X86_INS_VMOVUPD, X86_INS_VMOVUPS,
	};

	for (size_t i = 0; i < ARRAY_SIZE(ids); i++)
		if (ids[i] == id)
			return true;
	return false;
}

/*
 * the general register or stack slot operand @op of a move stands for, into @out: a general
 * register (its bytes), or memory, a slot when %rsp or %rbp based with no index (memory no
 * other thread writes); false when it is neither (a segment register, mm)
 */
static bool fl_operand(const cs_x86_op *op, struct fl_insn *out)
{
	unsigned int bb = 0;

	if (op->type == X86_OP_REG) {
		out->reg = gp_num(op->reg, &out->bytes);
		return out->reg >= 0;
	}
	if (op->type != X86_OP_MEM)
		return false;
	out->base = gp_num(op->mem.base, &bb);
	out->disp = op->mem.disp;
	out->bytes = 16;
	out->slot = op->mem.index == X86_REG_INVALID && op->mem.segment == X86_REG_INVALID &&
		    bb == 8 && (out->base == 6 || out->base == 7);
	return true;
}

/* a move's operands @src and @dst as the float walks' copy */
static void fl_move(const cs_x86_op *src, const cs_x86_op *dst, struct fl_insn *out)
{
	int vs = src->type == X86_OP_REG ? xmm_num(src->reg) : -1;
	int vd = dst->type == X86_OP_REG ? xmm_num(dst->reg) : -1;

	out->vsrc = vs;
	out->vdst = vd;
	if (vs >= 0 && vd >= 0) {
		out->v_move = true;
		out->bytes = 16;
	} else if (vs >= 0 && fl_operand(dst, out)) {
		out->to_gp = dst->type == X86_OP_REG;
		out->to_mem = !out->to_gp;
	} else if (vd >= 0 && fl_operand(src, out)) {
		out->from_gp = src->type == X86_OP_REG;
		out->from_mem = !out->from_gp;
	}
}

static void fl_info(csh cs, const cs_insn *insn, struct fl_insn *out)
{
	const cs_x86 *x = &insn->detail->x86;
	const cs_x86_op *src = NULL, *dst = NULL;
	struct insn_info in;
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;
	int w = 0, r = 0;

	x86_info(cs, insn, &in);
	memset(out, 0, sizeof(*out));
	out->vsrc = out->vdst = out->reg = out->base = -1;
	out->addr = in.addr;
	out->size = in.size;
	memcpy(out->text, in.text, sizeof(out->text));
	out->gp_written = in.regs_written;
	out->stores = in.stores;
	out->ends_straight = in.ends_straight;
	if (cs_regs_access(cs, insn, rd, &nrd, wr, &nwr) == CS_ERR_OK) {
		for (uint8_t i = 0; i < nwr; i++)
			if (xmm_num(wr[i]) >= 0)
				out->v_written |= 1u << xmm_num(wr[i]);
	} else {
		out->v_written = ~0u;
	}
	for (uint8_t i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];

		if (op->type == X86_OP_REG && (op->access & CS_AC_WRITE) && xmm_num(op->reg) >= 0)
			out->v_written |= 1u << xmm_num(op->reg);
		if (op->access & CS_AC_WRITE) {
			dst = op;
			w++;
		} else if (op->access & CS_AC_READ) {
			src = op;
			r++;
		}
	}
	if (is_move(insn->id) && x->op_count == 2 && w == 1 && r == 1)
		fl_move(src, dst, out);
	/* a call may change every xmm register (caller-saved in System V and Go's ABIs) */
	for (uint8_t i = 0; i < insn->detail->groups_count; i++)
		if (insn->detail->groups[i] == CS_GRP_CALL)
			out->v_written = ~0u;
}

static bool fl_one(csh cs, const cs_insn *insn, size_t i, void *arg)
{
	fl_info(cs, insn, &((struct fl_insn *)arg)[i]);
	return false;
}

#define FL_MAX 64	/* instructions a walk looks at */

int x86_insn_xmm_copy_code(const struct insn_code *c, unsigned int xmm, unsigned int size,
			   const uint64_t *stop, size_t nstop, struct insn_float_copy *out,
			   struct strbuf *why)
{
	struct fl_insn *in = xcalloc(FL_MAX, sizeof(*in));
	size_t n = 0;
	int ret = -EIO;

	if (!att_decode(c, FL_MAX, fl_one, in, &n))
		ret = fl_walk_copy(in, n, c->addr, xmm, size, stop, nstop, out, why);
	free(in);
	return ret;
}

int x86_insn_xmm_source_code(const struct insn_code *c, uint64_t ret_at, unsigned int xmm,
			     unsigned int size, const uint64_t *stop, size_t nstop,
			     struct insn_float_copy *out, struct strbuf *why)
{
	struct fl_insn *in = xcalloc(FL_MAX * 64, sizeof(*in));
	size_t n = 0;
	int ret = -EIO;

	if (!att_decode(c, FL_MAX * 64, fl_one, in, &n))
		ret = fl_walk_source(in, n, c->addr, ret_at, xmm, size, stop, nstop, out, why);
	free(in);
	return ret;
}

const struct insn_ops x86_insn_ops = {
	.max_insn		= MAX_INSN,
	.go_split_bytes		= SPLIT_SCAN * MAX_INSN,
	.rets_code		= x86_insn_rets_code,
	.boundary_code		= x86_insn_boundary_code,
	.addr_targets_code	= x86_insn_lea_targets_code,
	.go_split_end_code	= x86_insn_go_split_end_code,
	.branches_to_code	= x86_insn_branches_to_code,
	.straight_code		= x86_insn_straight_code,
	.jump_targets_code	= x86_insn_jump_targets_code,
	.float_copy_code	= x86_insn_xmm_copy_code,
	.float_source_code	= x86_insn_xmm_source_code,
};
