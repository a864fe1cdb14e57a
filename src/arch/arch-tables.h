/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arch-tables.h - the ops table of each machine (for arch.c, and for tests that pick one) */
#ifndef UPF_ARCH_TABLES_H
#define UPF_ARCH_TABLES_H

struct arch_ops;

extern const struct arch_ops arch_x86_64;	/* arch/x86_64.c */
extern const struct arch_ops arch_arm64;	/* arch/arm64.c */

#endif
