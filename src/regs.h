/* SPDX-License-Identifier: GPL-2.0-or-later */
/* regs.h - DWARF register numbers <-> the kernel's fetcharg register names (per arch) */
#ifndef UPF_REGS_H
#define UPF_REGS_H

#include <stdbool.h>

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

/* regs_is_vector() - true for the registers that hold floats (xmm on x86_64) */
bool regs_is_vector(int regno);

/* regs_sp() / regs_fp() - DWARF numbers of the stack and frame pointer */
int regs_sp(void);
int regs_fp(void);

/**
 * regs_go_abi_int() - DWARF number of the @i-th integer register of Go's register ABI
 * (ABIInternal: RAX RBX RCX RDI RSI R8 R9 R10 R11), or -1 past the last one
 */
int regs_go_abi_int(int i);

#endif
