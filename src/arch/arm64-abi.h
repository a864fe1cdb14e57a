/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arm64-abi.h - the AArch64 ABIs (AAPCS64 for C, C++ and Rust; Go's ABIInternal on arm64) as
 * struct abi_ops */
#ifndef UPF_ARCH_ARM64_ABI_H
#define UPF_ARCH_ARM64_ABI_H

#include "arch/abi.h"

/*
 * AAPCS64 (the Procedure Call Standard for the Arm 64-bit Architecture): integers, pointers
 * and composites of up to 16 bytes in x0-x7 (a 16-byte aligned one from an even register),
 * floats and homogeneous float aggregates (HFA, up to four members of one float type) in
 * v0-v7, which uprobes cannot read, larger composites as a pointer to a copy, the rest on the
 * stack from 0(sp) at the entry (no return address there: it is in x30); results in x0/x0:x1
 * or v0-v3, larger ones in memory whose address the caller passed in x8 (not kept: refused at
 * the return). Go (abi-internal.md, arm64): R0-R15 and F0-F15, stack arguments at 8(RSP).
 */
extern const struct abi_ops arm64_abi_ops;

#endif
