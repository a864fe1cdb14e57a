// SPDX-License-Identifier: GPL-2.0-or-later
/* ptrace-regs.c - a software breakpoint in a traced child, on the machine upfront runs on:
 * its encoding and the program counter at the stop (PTRACE_GETREGSET, NT_PRSTATUS) */
#define LOG_DOMAIN "session"
#include <elf.h>
#include <errno.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>

#include "arch/ptrace-regs.h"

#if defined(__aarch64__)
#define BRK_MASK 0xffffffffL
#define BRK_INSN 0xd4200000L	/* brk #0 */
#define PC(r) ((r).pc)
#define TRAP_SIZE 0		/* the pc stays on the brk */
#else
#define BRK_MASK 0xffL
#define BRK_INSN 0xccL		/* int3 */
#define PC(r) ((r).rip)
#define TRAP_SIZE 1		/* the pc is past the int3 */
#endif

long ptrace_brk_word(long orig)
{
	return (orig & ~BRK_MASK) | BRK_INSN;
}

int ptrace_brk_hit(pid_t pid, uint64_t addr)
{
	struct user_regs_struct regs;
	struct iovec io = { &regs, sizeof(regs) };

	if (ptrace(PTRACE_GETREGSET, pid, (void *)NT_PRSTATUS, &io) < 0)
		return -errno;
	if (PC(regs) != addr + TRAP_SIZE)
		return 0;
	PC(regs) = addr;
	if (ptrace(PTRACE_SETREGSET, pid, (void *)NT_PRSTATUS, &io) < 0)
		return -errno;
	return 1;
}
