// SPDX-License-Identifier: GPL-2.0-or-later
/* regs-x86_64.c - (being written) */
