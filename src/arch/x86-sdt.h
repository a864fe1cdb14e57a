/* SPDX-License-Identifier: GPL-2.0-or-later */
/* x86-sdt.h - SDT operands on x86-64 (arch_ops.sdt_arg_parse) */
#ifndef UPF_ARCH_X86_SDT_H
#define UPF_ARCH_X86_SDT_H

#include "sdt.h"

/**
 * x86_sdt_arg_parse() - sdt_arg_parse() for x86-64's AT&T syntax
 * @text: "8@%rbx", "-4@112(%rsp)", "8@-24(%rbp)", "-8@%rax", "4@$5", "8@foo+8(%rip)"
 */
int x86_sdt_arg_parse(const char *text, struct sdt_arg *a);

#endif
