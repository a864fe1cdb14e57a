// SPDX-License-Identifier: GPL-2.0-or-later
/* arm64-sdt.c - SDT argument specs in AArch64's operand syntax (what gcc prints for sys/sdt.h's
 * "nor" constraint on arm64): x0/w0, [xN], [xN, DISP], [xN, #:lo12:SYM], a plain constant */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define LOG_DOMAIN "sdt"
#include "log.h"
#include "arch/arm64-regs.h"
#include "arch/arm64-sdt.h"

/* reg() - "x0".."x30", "w0".."w30", "sp", "fp" (x29), "lr" (x30) over [s, e) */
static bool reg(const char *s, const char *e, const char **kreg, unsigned int *bits)
{
	size_t len = e - s;
	char *end;
	long n;

	if (len == 2 && !memcmp(s, "sp", 2)) {
		*kreg = arm64_reg_kernel_name(31);
		*bits = 64;
		return true;
	}
	if (len == 2 && (!memcmp(s, "fp", 2) || !memcmp(s, "lr", 2))) {
		*kreg = arm64_reg_kernel_name(s[0] == 'f' ? 29 : 30);
		*bits = 64;
		return true;
	}
	if (len < 2 || len > 3 || (s[0] != 'x' && s[0] != 'w') || !isdigit((unsigned char)s[1]))
		return false;
	n = strtol(s + 1, &end, 10);
	if (end != e || n < 0 || n > 30 || (len == 3 && s[1] == '0'))
		return false;
	*kreg = arm64_reg_kernel_name((int)n);	/* DWARF x0-x30 are 0-30 */
	*bits = s[0] == 'x' ? 64 : 32;
	return true;
}

/* num() - a decimal or 0x number with an optional sign (and '#') over [s, e) */
static bool num(const char *s, const char *e, int64_t *out)
{
	char buf[32], *end;

	if (s < e && *s == '#')
		s++;
	if (s >= e || (size_t)(e - s) >= sizeof(buf))
		return false;
	memcpy(buf, s, e - s);
	buf[e - s] = '\0';
	if (!isdigit((unsigned char)buf[buf[0] == '-' || buf[0] == '+']))
		return false;
	errno = 0;
	*out = strtoll(buf, &end, 0);
	return !errno && !*end;
}

/* the part of a memory operand after "[xN, ": "12", "#-20", "#:lo12:SYM", "#:lo12:SYM+8" */
static int mem_offset(struct sdt_arg *a, const char *s, const char *e)
{
	const char *lo = "#:lo12:", *p;

	while (s < e && *s == ' ')
		s++;
	if (num(s, e, &a->disp)) {
		a->kind = SDT_ARG_MEM;
		return 0;
	}
	if ((size_t)(e - s) > strlen(lo) && !memcmp(s, lo, strlen(lo))) {
		s += strlen(lo);
		for (p = s; p < e && (isalnum((unsigned char)*p) || *p == '_' || *p == '.'); p++)
			;
		if (p == s || (p < e && !num(p, e, &a->disp)))
			return sdt_arg_bad(a, "'%s': expected a symbol after ':lo12:'", a->text);
		a->sym = xstrndup(s, p - s);
		a->kind = SDT_ARG_LO12;
		return 0;
	}
	if (memchr(s, ',', e - s) || (s < e && (*s == 'x' || *s == 'w')))
		return sdt_arg_bad(a, "'%s' adds an index register, which uprobes cannot do",
				   a->text);
	sdt_arg_bad(a, "'%s': expected a displacement after the base register", a->text);
	return -EINVAL;
}

int sdt_arg_parse_arm64(const char *text, struct sdt_arg *a)
{
	const char *op, *e, *comma;
	unsigned int bits;
	const char *kreg;

	if (!(op = sdt_arg_size_parse(text, a)))
		return -EINVAL;
	e = op + strlen(op);
	if (reg(op, e, &kreg, &bits)) {
		a->kind = SDT_ARG_REG;
		a->reg = kreg;
		a->reg_bits = bits;
		return 0;
	}
	if (num(op, e, &a->disp)) {
		a->kind = SDT_ARG_IMM;
		return 0;
	}
	if (*op == 'v' || *op == 'q' || *op == 'd' || *op == 's' || *op == 'h' || *op == 'b') {
		const char *r = op + 1;

		while (r < e && isdigit((unsigned char)*r))
			r++;
		if (r == e && r > op + 1)
			return sdt_arg_bad(a, "'%s' is in %s, which uprobes cannot read", text, op);
	}
	if (*op != '[' || e[-1] != ']') {
		sdt_arg_bad(a, "'%s' is not an operand (xN, wN, [xN, DISP] or a constant)", text);
		return -EINVAL;
	}
	/* "[x1]", "[sp, 12]"; a pre/post-index writeback ("[x1, 8]!") is never an operand */
	op++;
	e--;
	comma = memchr(op, ',', e - op);
	if (!reg(op, comma ? comma : e, &kreg, &bits) || bits != 64) {
		sdt_arg_bad(a, "'%s': expected a 64-bit base register inside '[]'", text);
		return -EINVAL;
	}
	a->reg = kreg;
	if (!comma) {
		a->kind = SDT_ARG_MEM;
		return 0;
	}
	return mem_offset(a, comma + 1, e);
}
