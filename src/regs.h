/* SPDX-License-Identifier: GPL-2.0-or-later */
/* regs.h - DWARF register numbers <-> the kernel's fetcharg register names, of the current
 * architecture (arch/arch.h) */
#ifndef UPF_REGS_H
#define UPF_REGS_H

/**
 * regs_kernel_name() - the name uprobe_events reads a DWARF register by ("ax" for 0 on x86-64)
 * Return: the name without '%', or NULL when uprobes cannot read the register (vector,
 * x87, unknown registers).
 */
const char *regs_kernel_name(int regno);

/**
 * regs_describe() - the register's name for messages ("rax", "xmm0", "st1", "reg77")
 * @buf: at least 16 bytes, used for names that are made up
 * Return: @buf or a static string.
 */
const char *regs_describe(int regno, char *buf);

/**
 * regs_vector() - which floating-point/vector register a DWARF register is
 * Return: N for vector register N (0-31: xmmN, vN), -1 for any other register.
 */
int regs_vector(int regno);

/**
 * regs_vector_dwarf() - the DWARF number of vector register @n (0-31)
 */
int regs_vector_dwarf(int n);

struct diag;

/**
 * regs_fetch_check() - refuse a register a fetcharg written by the user names ("%foo",
 * "+8(%foo)") that uprobe_events on this machine cannot read, before the kernel sees it
 * @d: where the error goes
 * @start: where @fetch begins in d->input (the error points at the register), or -1
 * @fetch: the fetcharg as written; an immediate string ("\\"...") is not looked into
 * Return: 0, or -EINVAL with "no register '%foo' on MACHINE (uprobe_events reads ...)".
 */
int regs_fetch_check(struct diag *d, int start, const char *fetch);

/* The registers a CFI unwinder starts a stack from (regs_frame()). */
struct regs_frame {
	int nr;		/* DWARF registers 0 to nr - 1, each with a kernel name */
	int sp;		/* the stack pointer's DWARF number, among them */
	int pc;		/* the program counter's, among them (a reserved number on a machine
			 * whose DWARF names no pc: arm64's 32) */
};

/**
 * regs_frame() - the registers fetched with a copy of the stack (--stack=dwarf): the general
 * registers and the pc, which the CFI of any frame may name (the CFA, callee-saved values)
 * Return: a static description.
 */
const struct regs_frame *regs_frame(void);

#endif
