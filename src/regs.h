/* SPDX-License-Identifier: GPL-2.0-or-later */
/* regs.h - (being written) */
#ifndef UPF_REGS_H
#define UPF_REGS_H
#endif
