// SPDX-License-Identifier: GPL-2.0-or-later
/* x86-sdt.c - SDT argument specs in x86-64's AT&T operand syntax: %reg, DISP(%reg), $IMM,
 * SYM(%rip), SYM@GOTPCREL(%rip) */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86-sdt.h"
#include "util.h"

/* The x86-64 registers an SDT spec can name, by the kernel's name of the whole register. */
static const struct {
	const char *kreg;
	const char *n64, *n32, *n16, *n8, *n8h;
} gp_regs[] = {
	{ "ax", "rax", "eax", "ax", "al", "ah" },
	{ "bx", "rbx", "ebx", "bx", "bl", "bh" },
	{ "cx", "rcx", "ecx", "cx", "cl", "ch" },
	{ "dx", "rdx", "edx", "dx", "dl", "dh" },
	{ "si", "rsi", "esi", "si", "sil", NULL },
	{ "di", "rdi", "edi", "di", "dil", NULL },
	{ "bp", "rbp", "ebp", "bp", "bpl", NULL },
	{ "sp", "rsp", "esp", "sp", "spl", NULL },
	{ "ip", "rip", "eip", "ip", NULL, NULL },
};

static const char *const r_regs[] = { "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15" };

/*
 * reg_lookup() - the kernel's name of register @name (without '%') and how much of it is
 * meant: %r12d is r12 at 32 bits, %ah is ax at 8 bits shifted by 8. Return: false if unknown.
 */
static bool reg_lookup(const char *name, size_t len, const char **kreg, unsigned int *bits,
		       unsigned int *shift)
{
	*shift = 0;
	for (size_t i = 0; i < ARRAY_SIZE(gp_regs); i++) {
		const char *names[] = { gp_regs[i].n64, gp_regs[i].n32, gp_regs[i].n16,
					gp_regs[i].n8, gp_regs[i].n8h };
		static const unsigned int widths[] = { 64, 32, 16, 8, 8 };

		for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
			if (names[k] && strlen(names[k]) == len && !memcmp(names[k], name, len)) {
				*kreg = gp_regs[i].kreg;
				*bits = widths[k];
				*shift = k == 4 ? 8 : 0;
				return true;
			}
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(r_regs); i++) {
		size_t rl = strlen(r_regs[i]);

		if (len < rl || memcmp(name, r_regs[i], rl))
			continue;
		*kreg = r_regs[i];
		if (len == rl)
			*bits = 64;
		else if (len == rl + 1 && name[rl] == 'd')
			*bits = 32;
		else if (len == rl + 1 && name[rl] == 'w')
			*bits = 16;
		else if (len == rl + 1 && (name[rl] == 'b' || name[rl] == 'l'))
			*bits = 8;
		else
			continue;
		return true;
	}
	return false;
}

/* "%reg" at [s, e) */
static bool parse_reg(const char *s, const char *e, const char **kreg, unsigned int *bits,
		      unsigned int *shift)
{
	return e - s > 1 && *s == '%' && reg_lookup(s + 1, e - s - 1, kreg, bits, shift);
}

/* "SYM", "SYM+8", "SYM-8" at [s, e) */
static bool parse_sym(struct sdt_arg *a, const char *s, const char *e)
{
	const char *p = s;

	if (s >= e || !(isalpha((unsigned char)*s) || *s == '_' || *s == '.'))
		return false;
	while (p < e && (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '$'))
		p++;
	a->sym = xstrndup(s, p - s);
	/* "qsort@GOTPCREL(%rip)": the GOT slot holding the symbol's address (-fPIC, -O2) */
	if (e - p >= 9 && !strncmp(p, "@GOTPCREL", 9)) {
		a->got = true;
		p += 9;
	}
	if (p < e && !sdt_arg_int(p, e, &a->disp)) {
		free(a->sym);
		a->sym = NULL;
		a->got = false;
		return false;
	}
	return true;
}

int x86_sdt_arg_parse(const char *text, struct sdt_arg *a)
{
	const char *op, *e, *open;
	unsigned int bits, shift;
	const char *kreg;

	if (!(op = sdt_arg_size_parse(text, a)))
		return -EINVAL;
	e = op + strlen(op);
	if (*op == '%') {
		if (!parse_reg(op, e, &kreg, &bits, &shift)) {
			if (!strncmp(op, "%xmm", 4) || !strncmp(op, "%ymm", 4) ||
			    !strncmp(op, "%st", 3))
				return sdt_arg_bad(a, "'%s' is in %s, which uprobes cannot read", text,
					       op);
			sdt_arg_bad(a, "'%s': unknown register %s", text, op);
			return -EINVAL;
		}
		a->kind = SDT_ARG_REG;
		a->reg = kreg;
		a->reg_bits = bits;
		a->reg_shift = shift;
		return 0;
	}
	if (*op == '$') {
		if (!sdt_arg_int(op + 1, e, &a->disp))
			return sdt_arg_bad(a, "'%s' is the address of a symbol, which uprobes cannot "
				       "compute", text);
		a->kind = SDT_ARG_IMM;
		return 0;
	}
	if (e[-1] != ')' || !(open = memchr(op, '(', e - op))) {
		int64_t n;

		if (sdt_arg_int(op, e, &n))
			return sdt_arg_bad(a, "'%s' is memory at an absolute address, which uprobes "
				       "cannot read in a relocatable binary", text);
		sdt_arg_bad(a, "'%s' is not an operand (%%REG, $IMM or DISP(%%REG))", text);
		return -EINVAL;
	}
	if (memchr(open, ',', e - open))
		return sdt_arg_bad(a, "'%s' adds an index register, which uprobes cannot do", text);
	if (!parse_reg(open + 1, e - 1, &kreg, &bits, &shift) || bits != 64 || shift) {
		sdt_arg_bad(a, "'%s': expected a 64-bit base register inside '()'", text);
		return -EINVAL;
	}
	a->reg = kreg;
	if (!strcmp(kreg, "ip")) {
		if (!parse_sym(a, op, open))
			return sdt_arg_bad(a, "'%s' is relative to the next instruction and names no "
				       "symbol", text);
		a->kind = SDT_ARG_RIP;
		return 0;
	}
	if (open > op && !sdt_arg_int(op, open, &a->disp)) {
		if (parse_sym(a, op, open))
			return sdt_arg_bad(a, "'%s' adds a symbol's address to a register, which "
				       "uprobes cannot do", text);
		sdt_arg_bad(a, "'%s': expected a displacement before '('", text);
		return -EINVAL;
	}
	a->kind = SDT_ARG_MEM;
	return 0;
}
