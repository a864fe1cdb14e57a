/* SPDX-License-Identifier: GPL-2.0-or-later */
/* x86-regs.h - x86-64 registers by DWARF number (System V psABI numbering): the answers to
 * arch_ops' register questions, for the x86-64 table and the x86-64 ABIs */
#ifndef UPF_ARCH_X86_REGS_H
#define UPF_ARCH_X86_REGS_H

/* x86_reg_kernel_name() - arch_ops.reg_kernel_name on x86-64: "ax" for 0, "flags" for 49 */
const char *x86_reg_kernel_name(int regno);

/* x86_reg_describe() - arch_ops.reg_describe on x86-64: "rax", "xmm0", "st1", "reg77" */
const char *x86_reg_describe(int regno, char *buf);

/* x86_reg_vector() - arch_ops.reg_vector on x86-64: N for xmmN (0-31), else -1 */
int x86_reg_vector(int regno);

/* x86_reg_vector_dwarf() - arch_ops.reg_vector_dwarf on x86-64: the DWARF number of xmm@n */
int x86_reg_vector_dwarf(int n);

#endif
