/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ptrace-regs.h - a software breakpoint in a traced child, on the machine upfront runs on
 * (chosen when upfront is built: ptrace reaches processes of this machine only) */
#ifndef UPF_PTRACE_REGS_H
#define UPF_PTRACE_REGS_H

#include <stdint.h>
#include <sys/types.h>

/**
 * ptrace_brk_word() - @orig, the word PTRACE_PEEKTEXT read at an instruction's address, with
 * that instruction replaced by a breakpoint (x86-64: int3 in the low byte; arm64: brk #0 in
 * the low 4 bytes)
 */
long ptrace_brk_word(long orig);

/**
 * ptrace_brk_hit() - whether stopped child @pid stands at the breakpoint at @addr, and if so,
 * set its program counter back to @addr (x86-64 reports the byte after int3, arm64 the brk)
 * Return: 1 at it (the pc set to @addr), 0 elsewhere, a negative errno when ptrace failed.
 */
int ptrace_brk_hit(pid_t pid, uint64_t addr);

#endif
