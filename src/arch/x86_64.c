// SPDX-License-Identifier: GPL-2.0-or-later
/* x86_64.c - the x86-64 table: DWARF register numbers, the kernel's names for them, the
 * registers the decoder and the session read, the library directories */
#define LOG_DOMAIN "arch"
#include <elf.h>
#include <stdio.h>

#include "arch/arch-tables.h"
#include "arch/x86-abi.h"
#include "arch/x86-insn.h"
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

static const char *x86_reg_kernel_name(int regno)
{
	if (regno >= 0 && (size_t)regno < ARRAY_SIZE(gprs))
		return gprs[regno].kernel;
	if (regno == 49)
		return "flags";
	return NULL;
}

static const char *x86_reg_describe(int regno, char *buf)
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

static int x86_reg_vector(int regno)
{
	if (regno >= 17 && regno <= 32)
		return regno - 17;
	if (regno >= 67 && regno <= 82)
		return regno - 67 + 16;
	return -1;
}

static int x86_reg_vector_dwarf(int n)
{
	return n < 16 ? 17 + n : 67 + n - 16;
}

/* the first page, or not canonical (bits 63-47 neither all 0 nor all 1) */
static bool x86_addr_fault(uint64_t addr)
{
	uint64_t top = addr >> 47;

	return addr < 4096 || (top != 0 && top != 0x1ffff);
}

const struct arch_ops arch_x86_64 = {
	.name			= "x86-64",
	.machine		= EM_X86_64,
	.ilp32_name		= "x32",
	.multiarch		= "x86_64-linux-gnu",
	.lib_dirs		= "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib64:/usr/lib64:"
				  "/lib:/usr/lib",
	.ldcache_req		= 0x0300,	/* FLAG_X8664_LIB64 */
	.reg_kernel_name	= x86_reg_kernel_name,
	.reg_describe		= x86_reg_describe,
	.reg_vector		= x86_reg_vector,
	.reg_vector_dwarf	= x86_reg_vector_dwarf,
	.sp_dwarf		= 7,
	.entry_regs		= 0x1ffff,	/* rax..r15 and the return address */
	.sp_fetch		= "%sp",
	.ip_fetch		= "%ip",
	.flags_fetch		= "%flags",
	.g_fetch		= "%r14",
	.entry_ret_fetch	= "$stack0",	/* the call pushed it */
	.entry_ret_dwarf	= 7,		/* until %rsp moves */
	.go_split_flags		= 0x41,		/* jbe: CF (bit 0) or ZF (bit 6) */
	.addr_fault		= x86_addr_fault,
	.insn			= &x86_insn_ops,
	.abi			= &x86_abi_ops,
};
