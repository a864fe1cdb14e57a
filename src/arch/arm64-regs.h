/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arm64-regs.h - AArch64 registers by DWARF number (the AAPCS64 DWARF supplement: x0-x30 0-30,
 * sp 31, v0-v31 64-95): the answers to arch_ops' register questions, for the arm64 table and
 * the arm64 ABIs */
#ifndef UPF_ARCH_ARM64_REGS_H
#define UPF_ARCH_ARM64_REGS_H

#define ARM64_SP	31	/* DWARF number of sp */
#define ARM64_V0	64	/* DWARF number of v0 (v0-v31: 64-95) */

/* arm64_reg_kernel_name() - uprobe_events' name: "x0".."x30", "sp"; NULL for v0-v31 */
const char *arm64_reg_kernel_name(int regno);

/* arm64_reg_describe() - the name for messages: "x0", "sp", "v0", "reg77" (@buf, 16 bytes) */
const char *arm64_reg_describe(int regno, char *buf);

/* arm64_reg_vector() - N for vN (DWARF 64 + N), else -1 */
int arm64_reg_vector(int regno);

/* arm64_reg_vector_dwarf() - the DWARF number of v@n */
int arm64_reg_vector_dwarf(int n);

#endif
