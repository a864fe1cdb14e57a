// SPDX-License-Identifier: GPL-2.0-or-later
/* x86-regs.c - x86-64 DWARF register numbers and the kernel's names for them */
#include <stdio.h>

#include "arch/x86-regs.h"
#include "util.h"

/* System V psABI DWARF numbering; index = DWARF register number. */
static const struct {
	const char *kernel;	/* pt_regs name as uprobe_events spells it */
	const char *name;	/* the name in messages */
} gprs[] = {
	{ "ax", "rax" }, { "dx", "rdx" }, { "cx", "rcx" }, { "bx", "rbx" },
	{ "si", "rsi" }, { "di", "rdi" }, { "bp", "rbp" }, { "sp", "rsp" },
	{ "r8", "r8" },	 { "r9", "r9" },  { "r10", "r10" }, { "r11", "r11" },
	{ "r12", "r12" }, { "r13", "r13" }, { "r14", "r14" }, { "r15", "r15" },
	{ "ip", "rip" },
};

const char *x86_reg_kernel_name(int regno)
{
	if (regno >= 0 && (size_t)regno < ARRAY_SIZE(gprs))
		return gprs[regno].kernel;
	if (regno == 49)
		return "flags";
	return NULL;
}

const char *x86_reg_describe(int regno, char *buf)
{
	if (regno >= 0 && (size_t)regno < ARRAY_SIZE(gprs))
		return gprs[regno].name;
	if (regno >= 17 && regno <= 32)
		snprintf(buf, 16, "xmm%d", regno - 17);
	else if (regno >= 33 && regno <= 40)
		snprintf(buf, 16, "st%d", regno - 33);
	else if (regno >= 41 && regno <= 48)
		snprintf(buf, 16, "mm%d", regno - 41);
	else if (regno >= 67 && regno <= 82)
		snprintf(buf, 16, "xmm%d", regno - 67 + 16);
	else if (regno == 49)
		snprintf(buf, 16, "rflags");
	else
		snprintf(buf, 16, "reg%d", regno);
	return buf;
}

int x86_reg_vector(int regno)
{
	if (regno >= 17 && regno <= 32)
		return regno - 17;
	if (regno >= 67 && regno <= 82)
		return regno - 67 + 16;
	return -1;
}

int x86_reg_vector_dwarf(int n)
{
	return n < 16 ? 17 + n : 67 + n - 16;
}
