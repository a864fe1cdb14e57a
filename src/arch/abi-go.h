/* SPDX-License-Identifier: GPL-2.0-or-later */
/* abi-go.h - Go's register ABI (ABIInternal) for any machine, given its registers: for the
 * machines' abi_ops (arch/) */
#ifndef UPF_ARCH_ABI_GO_H
#define UPF_ARCH_ABI_GO_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>

#include "arch/abi.h"

/* The registers Go's ABIInternal assigns on one machine (abi-internal.md, per architecture). */
struct go_abi_regs {
	const int *int_regs;	/* integer registers in assignment order, DWARF numbers */
	size_t nr_int;
	int nr_float;		/* floating-point registers: vector registers 0..nr_float-1 */
	long stack_base;	/* where the stack-assigned arguments start at the entry, from
				 * the stack pointer (8 on amd64: the return address) */
	const char *sp_fetch;	/* the stack pointer's fetcharg ("%sp") */
	/* the machine's registers (arch_ops' members of the same names): the ABI code sits
	 * below arch.c, which selects the table, so it is handed them instead of asking */
	const char *(*reg_kernel_name)(int regno);
	const char *(*reg_describe)(int regno, char *buf);
	int (*reg_vector_dwarf)(int n);
};

/**
 * go_abi_values() - the results (@results) or the arguments of Go function @func where the
 * ABI puts them, as abi_go_results() describes (the old stack ABI when the CU's producer does
 * not say "regabi")
 * @res: freed with abi_values_free()
 * Return: 0, or -ENOENT when there are none or one's type has no known size.
 */
int go_abi_values(Dwarf_Die *func, const struct go_abi_regs *regs, bool results,
		  struct abi_value **res, size_t *nr);

#endif
