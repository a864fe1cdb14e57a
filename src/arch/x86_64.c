// SPDX-License-Identifier: GPL-2.0-or-later
/* x86_64.c - the x86-64 table: what the seam (arch.h) asks of x86-64, and where each answer
 * lives (registers in x86-regs.c, the oracle in x86-insn.c, the ABIs in x86-abi.c) */
#define LOG_DOMAIN "arch"
#include <elf.h>

#include "arch/arch.h"
#include "arch/arch-tables.h"
#include "arch/x86-abi.h"
#include "arch/x86-insn.h"
#include "arch/x86-regs.h"
#include "arch/x86-sdt.h"

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
	.fetch_regs_extra	= "cs ss orig_ax",	/* arch/x86/kernel/ptrace.c, x86-64 */
	.reg_describe		= x86_reg_describe,
	.reg_vector		= x86_reg_vector,
	.reg_vector_dwarf	= x86_reg_vector_dwarf,
	.sp_dwarf		= 7,
	.fp_dwarf		= 6,
	.go_cfa_fp		= 16,	/* saved rbp, return address */
	.entry_cfa_sp		= 8,	/* the return address */
	.pc_dwarf		= 16,		/* rip, the return address column */
	.frame_regs		= 17,		/* rax..r15, rip: perf's PERF_REGS_MASK too */
	.entry_regs		= 0x1ffff,	/* rax..r15 and the return address */
	.sp_fetch		= "%sp",
	.ip_fetch		= "%ip",
	.flags_fetch		= "%flags",
	.g_fetch		= "%r14",
	.entry_ret_fetch	= "$stack0",	/* the call pushed it */
	.entry_ret_dwarf	= 7,		/* until %rsp moves */
	.go_split_flags		= 0x41,		/* jbe: CF (bit 0) or ZF (bit 6) */
	.addr_fault		= x86_addr_fault,
	.local_clocksource	= "tsc",
	.fault_keeps_prefix	= true,
	.breakpoint		= "an int3",
	.ret_pops		= 8,
	.insn			= &x86_insn_ops,
	.abi			= &x86_abi_ops,
	.sdt_arg_parse		= x86_sdt_arg_parse,
	.sdt_got_relocs		= { R_X86_64_GLOB_DAT, R_X86_64_64 },
};
