// SPDX-License-Identifier: GPL-2.0-or-later
/* arm64.c - the AArch64 table: what the seam (arch.h) asks of arm64, and where each answer
 * lives (registers in arm64-regs.c, the oracle in arm64-insn.c, the ABIs in arm64-abi.c, SDT
 * operands in arm64-sdt.c) */
#define LOG_DOMAIN "arch"
#include <elf.h>
#include <stdint.h>

#include "arch/arch.h"
#include "arch/arch-tables.h"
#include "arch/arm64-abi.h"
#include "arch/arm64-float.h"
#include "arch/arm64-insn.h"
#include "arch/arm64-regs.h"
#include "arch/arm64-sdt.h"

/*
 * the first page, or above user space: 48 bits, 52 on a kernel with 52-bit VAs for a program
 * that maps there (Debian's arm64 kernel is one); a tagged pointer (top byte) is refused too
 */
static bool arm64_addr_fault(uint64_t addr)
{
	return addr < 4096 || addr >> 52;
}

/* the instruction oracle: arm64-insn.c's answers, arm64-float.c's float walks */
const struct insn_ops arm64_insn_ops = {
	.max_insn		= ARM64_INSN_SIZE,
	.go_split_bytes		= ARM64_GO_SPLIT_SCAN * ARM64_INSN_SIZE,
	.rets_code		= arm64_insn_rets_code,
	.boundary_code		= arm64_insn_boundary_code,
	.addr_targets_code	= arm64_insn_adr_targets_code,
	.go_split_end_code	= arm64_insn_go_split_end_code,
	.branches_to_code	= arm64_insn_branches_to_code,
	.straight_code		= arm64_insn_straight_code,
	.jump_targets_code	= arm64_insn_jump_targets_code,
	.float_copy_code	= arm64_float_copy_code,
	.float_source_code	= arm64_float_source_code,
};

const struct arch_ops arch_arm64 = {
	.name			= "arm64",
	.machine		= EM_AARCH64,
	.ilp32_name		= "arm64 ILP32",
	.multiarch		= "aarch64-linux-gnu",
	.lib_dirs		= "/lib/aarch64-linux-gnu:/usr/lib/aarch64-linux-gnu:/lib64:/usr/lib64:"
				  "/lib:/usr/lib",
	.ldcache_req		= 0x0a00,	/* FLAG_AARCH64_LIB64 */
	.reg_kernel_name	= arm64_reg_kernel_name,
	.fetch_regs_extra	= "pc pstate",	/* arch/arm64/kernel/ptrace.c */
	.reg_describe		= arm64_reg_describe,
	.reg_vector		= arm64_reg_vector,
	.reg_vector_dwarf	= arm64_reg_vector_dwarf,
	.sp_dwarf		= 31,
	.fp_dwarf		= 29,
	.pc_dwarf		= 32,		/* no DWARF register is the pc (32 is reserved,
						 * libdwfl's aarch64 backend leaves it unused): its
						 * slot in --stack=dwarf's registers */
	.frame_regs		= 33,		/* x0-x30, sp, pc: perf's arm64 PERF_REGS_MASK */
	.sp_fetch		= "%sp",
	.ip_fetch		= "%pc",
	.flags_fetch		= "%pstate",
	.g_fetch		= "%x28",	/* Go's g under the arm64 register ABI */
	.g_everywhere		= true,		/* R28 is g in all Go code on arm64 */
	.entry_ret_fetch	= "%x30",	/* bl left it in the link register */
	.entry_ret_dwarf	= 30,		/* until the function writes x30 */
	.go_split_flags		= 0x40000000,	/* b.ls: taken on Z set ... */
	.go_split_clear		= 0x20000000,	/* ... or C clear (NZCV: pstate bits 31-28) */
	.addr_fault		= arm64_addr_fault,
	.code_addr_strip	= arm64_pac_strip,
	.fault_keeps_prefix	= false,	/* text a byte at a time */
	.breakpoint		= "a brk",	/* brk #0x5, the kernel's uprobe break */
	.ret_pops		= 0,
	.entry_regs		= 0xffffffff,	/* x0-x30 (x30 the return address), sp */
	.insn			= &arm64_insn_ops,
	.abi			= &arm64_abi_ops,
	.sdt_arg_parse		= sdt_arg_parse_arm64,
	.sdt_got_relocs		= { R_AARCH64_GLOB_DAT, R_AARCH64_ABS64 },
};
