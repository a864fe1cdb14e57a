// SPDX-License-Identifier: GPL-2.0-or-later
/* arm64-regs.c - AArch64 DWARF register numbers and the kernel's names for them */
#include <stdio.h>

#include "arch/arm64-regs.h"
#include "util.h"

/* uprobe_events on arm64 reads x0-x30, sp, pc and pstate (regs_query_register_offset()) */
static const char *const xregs[] = {
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10",
	"x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20",
	"x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "x30", "sp",
};

const char *arm64_reg_kernel_name(int regno)
{
	if (regno >= 0 && (size_t)regno < ARRAY_SIZE(xregs))
		return xregs[regno];
	return NULL;
}

const char *arm64_reg_describe(int regno, char *buf)
{
	if (regno >= 0 && (size_t)regno < ARRAY_SIZE(xregs))
		return xregs[regno];
	if (arm64_reg_vector(regno) >= 0)
		snprintf(buf, 16, "v%d", arm64_reg_vector(regno));
	else if (regno == 33)
		snprintf(buf, 16, "elr_mode");
	else
		snprintf(buf, 16, "reg%d", regno);
	return buf;
}

int arm64_reg_vector(int regno)
{
	return regno >= ARM64_V0 && regno < ARM64_V0 + 32 ? regno - ARM64_V0 : -1;
}

int arm64_reg_vector_dwarf(int n)
{
	return ARM64_V0 + n;
}
