/* SPDX-License-Identifier: GPL-2.0-or-later */
/* regs.h - DWARF register numbers <-> the kernel's fetcharg register names (per arch) */
#ifndef UPF_REGS_H
#define UPF_REGS_H

/**
 * regs_kernel_name() - the name uprobe_events reads a DWARF register by ("ax" for 0 on x86_64)
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
 * regs_xmm() - which vector register a DWARF register is
 * Return: N for xmmN (0-31), -1 for any other register.
 */
int regs_xmm(int regno);

/**
 * regs_xmm_dwarf() - the DWARF number of register xmm@n (0-31)
 */
int regs_xmm_dwarf(int n);

#endif
