/* SPDX-License-Identifier: GPL-2.0-or-later */
/* x86-abi.h - the x86-64 ABIs (System V; Go's ABIInternal on amd64) as struct abi_ops */
#ifndef UPF_ARCH_X86_ABI_H
#define UPF_ARCH_X86_ABI_H

#include "arch/abi.h"

extern const struct abi_ops x86_abi_ops;

#endif
