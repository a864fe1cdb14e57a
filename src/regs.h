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

#endif
