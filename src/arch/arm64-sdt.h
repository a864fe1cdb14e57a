/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arm64-sdt.h - SDT operands on AArch64 (arch_ops.sdt_arg_parse) */
#ifndef UPF_ARCH_ARM64_SDT_H
#define UPF_ARCH_ARM64_SDT_H

#include "sdt.h"

/**
 * sdt_arg_parse_arm64() - sdt_arg_parse() for AArch64's operand syntax (arch/arm64-sdt.c)
 * @text: "8@x0", "-4@w1", "-4@[sp, 12]", "8@[x1]", "4@[x0, #:lo12:counter]", "4@5"
 */
int sdt_arg_parse_arm64(const char *text, struct sdt_arg *a);

#endif
