// SPDX-License-Identifier: GPL-2.0-or-later
/* arm64.c - the AArch64 table: DWARF register numbers (the AAPCS64 DWARF supplement: x0-x30
 * 0-30, sp 31, v0-v31 64-95), the kernel's names for them, the registers the decoder, the
 * session and $goid read, the library directories */
#define LOG_DOMAIN "arch"
#include <elf.h>
#include <stdio.h>

#include "arch/arch.h"
#include "arch/arch-tables.h"
#include "arch/arm64-insn.h"
#include "arch/arm64-sdt.h"
#include "util.h"

/* uprobe_events on arm64 reads x0-x30, sp, pc and pstate (regs_query_register_offset()) */
static const char *const xregs[] = {
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10",
	"x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20",
	"x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "x30", "sp",
};

static const char *arm64_reg_kernel_name(int regno)
{
	if (regno >= 0 && (size_t)regno < ARRAY_SIZE(xregs))
		return xregs[regno];
	return NULL;
}

static const char *arm64_reg_describe(int regno, char *buf)
{
	if (regno >= 0 && (size_t)regno < ARRAY_SIZE(xregs))
		return xregs[regno];
	if (regno >= 64 && regno <= 95)
		snprintf(buf, 16, "v%d", regno - 64);
	else if (regno == 33)
		snprintf(buf, 16, "elr_mode");
	else
		snprintf(buf, 16, "reg%d", regno);
	return buf;
}

static int arm64_reg_vector(int regno)
{
	return regno >= 64 && regno <= 95 ? regno - 64 : -1;
}

static int arm64_reg_vector_dwarf(int n)
{
	return 64 + n;
}

/*
 * the first page, or above user space: 48 bits, 52 on a kernel with 52-bit VAs for a program
 * that maps there (Debian's arm64 kernel is one); a tagged pointer (top byte) is refused too
 */
static bool arm64_addr_fault(uint64_t addr)
{
	return addr < 4096 || addr >> 52;
}

const struct arch_ops arch_arm64 = {
	.name			= "arm64",
	.machine		= EM_AARCH64,
	.ilp32_name		= "arm64 ILP32",
	.multiarch		= "aarch64-linux-gnu",
	.lib_dirs		= "/lib/aarch64-linux-gnu:/usr/lib/aarch64-linux-gnu:/lib64:/usr/lib64:"
				  "/lib:/usr/lib",
	.ldcache_req		= 0x0a00,	/* FLAG_AARCH64_LIB64 */
	.reg_kernel_name	= arm64_reg_kernel_name,
	.reg_describe		= arm64_reg_describe,
	.reg_vector		= arm64_reg_vector,
	.reg_vector_dwarf	= arm64_reg_vector_dwarf,
	.sp_dwarf		= 31,
	.fp_dwarf		= 29,
	.sp_fetch		= "%sp",
	.ip_fetch		= "%pc",
	.flags_fetch		= "%pstate",
	.g_fetch		= "%x28",	/* Go's g under the arm64 register ABI */
	.entry_ret_fetch	= "%x30",	/* bl left it in the link register */
	.entry_ret_dwarf	= 30,		/* until the function writes x30 */
	.go_split_flags		= 0x40000000,	/* b.ls: taken on Z set ... */
	.go_split_clear		= 0x20000000,	/* ... or C clear (NZCV: pstate bits 31-28) */
	.addr_fault		= arm64_addr_fault,
	.entry_regs		= 0xffffffff,	/* x0-x30 (x30 the return address), sp */
	.insn			= &arm64_insn_ops,
	.sdt_arg_parse		= sdt_arg_parse_arm64,
	.sdt_got_relocs		= { R_AARCH64_GLOB_DAT, R_AARCH64_ABS64 },
};
