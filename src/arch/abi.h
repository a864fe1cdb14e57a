/* SPDX-License-Identifier: GPL-2.0-or-later */
/* abi.h - where the calling conventions (the C ABI of the machine: System V on x86-64,
 * AAPCS64 on arm64; Go's ABIInternal) leave values: a C, C++ or Rust return value at its
 * uretprobe, Go results at a return instruction, C and C++ parameters at a function's first
 * instruction; answered by the current machine's struct abi_ops (examples are x86-64's) */
#ifndef UPF_ARCH_ABI_H
#define UPF_ARCH_ABI_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>

#include "lang.h"
#include "loc.h"

/*
 * The rules are computed from DWARF types alone (no code is read): each function answers
 * "where is this value at this instruction" as a struct loc, the form the resolver emits
 * fetchargs from. Both ABIs are written so that a parameter at the function's first
 * instruction is the same walk: Go assigns arguments and results in one pass over the
 * DW_TAG_formal_parameters (go_layout() in the .c: stack slots at +8(%sp) hold at the entry
 * as at a ret), and System V classifies an argument's eightbytes as it does a return
 * value's (sysv_classify()).
 */

/* A value the ABI put in registers or on the stack, with its DWARF description. */
struct abi_value {
	char *name;		/* "~r0" or the result's name */
	Dwarf_Die die;		/* the DW_TAG_formal_parameter */
	Dwarf_Die type;
	bool has_type;
	struct loc loc;		/* pieces in %ax, %bx, ...; LOC_MEM at +N(%sp) for values on the
				 * stack; LOC_BAD for pieces in xmm registers */
};

/**
 * abi_go_results() - where Go function @func leaves its results at a return instruction
 * @func: a DW_TAG_subprogram of a Go CU; its results are the DW_TAG_formal_parameters with
 *        DW_AT_variable_parameter
 * @res: array owned by the caller, freed with abi_values_free()
 *
 * Register ABI (CU producer says "regabi"; Go's abi-internal.md): results are assigned to
 * RAX, RBX, RCX, RDI, RSI, R8-R11 (integers, pointers) and X0-X14 (floats) from the first
 * register again, in order, each recursively (string: ptr, len; slice: ptr, len, cap;
 * interface: tab/type, data; structs field by field); a result that does not fit, or holds
 * an array of more than one element, goes to the stack whole. Stack results follow the
 * stack-assigned arguments; at the ret the return address is at 0(%sp), so stack slot N is
 * at +(8+N)(%sp). Old stack ABI (no "regabi"): every argument and result is on the stack.
 * Return: 0 with @nr >= 1, or -ENOENT when the function has no results or their types are
 * missing or of unknown size.
 */
int abi_go_results(Dwarf_Die *func, struct abi_value **res, size_t *nr);

/* abi_values_free() - free @nr values from abi_go_results(); accepts NULL */
void abi_values_free(struct abi_value *v, size_t nr);

/**
 * abi_return() - where a C, C++ or Rust function's return value is at its uretprobe
 * (x86-64 System V: up to 16 bytes in RAX:RDX by eightbyte class, floats in xmm0/xmm1,
 * larger values in memory; C++ (Itanium ABI): a class with a non-trivial copy constructor or
 * destructor in memory; Rust: aggregates over 16 bytes in memory, a pair of scalars in a
 * register each, other aggregates as an integer in RAX:RDX)
 * @func: the DW_TAG_subprogram (or an inlined copy's abstract origin)
 * @lang: the CU's rules (&lang_cxx, &lang_rust, else C)
 * @type: filled with the return type when there is one
 * @out: filled: one piece "$retval" (RAX), pieces "$retval" and "%dx" (RAX:RDX), one LOC_MEM
 *       piece at +0($retval) (returned in memory: RAX holds the buffer's address on return),
 *       LOC_BAD pieces for values in xmm or x87 registers; release with loc_release()
 * Return: true when the function has a return type, false for void (@out is "$retval").
 */
bool abi_return(Dwarf_Die *func, const struct lang_ops *lang, Dwarf_Die *type,
		struct loc *out);

/**
 * abi_entry_params() - where the parameters of @func are at its first instruction, before
 * the prologue has moved any of them (-O0 code stores them into stack slots, which its
 * DWARF names and which hold garbage until then)
 * @func: the DW_TAG_subprogram
 * @lang: the CU's rules; C and C++ (System V) and Go (its register ABI, or the stack ABI
 *        before it, as for abi_go_results()) are answered
 * @out: one value per DW_TAG_formal_parameter, in order (name, die, type, loc: integer
 *       eightbytes in %di, %si, %dx, %cx, %r8, %r9; LOC_MEM at +N(%sp) for the stack, the
 *       first at +8; LOC_BAD for an eightbyte in an xmm register); abi_values_free()
 * @why: when refused, why (for -v): "variadic", "returns a struct through a hidden pointer"
 *
 * psABI 3.2.3: each argument is classified by eightbytes (sysv_classify()); one that needs
 * more registers than are left goes to the stack whole, and the registers stay for the next.
 * Refused, so that the caller keeps reading the DWARF past the prologue: variadic functions,
 * a return value in memory (its buffer's address takes %rdi), C++ constructors and
 * destructors (hidden VTT and in-charge parameters), C++ classes passed by invisible
 * reference (a non-trivial copy constructor or destructor), K&R definitions, a calling
 * convention other than DW_CC_normal (gcc's DW_CC_nocall: a changed signature), parameters
 * of unknown size, Rust (its own ABI). Go is answered for where its DWARF is broken
 * (resolve-value.c): its arguments are never refused but for a type of unknown size.
 * Return: 0, or -ENOTSUP with @why set.
 */
int abi_entry_params(Dwarf_Die *func, const struct lang_ops *lang, struct abi_value **out,
		     size_t *nr, const char **why);

/* One machine's answers to the functions above (arch_ops.abi). */
struct abi_ops {
	int (*go_results)(Dwarf_Die *func, struct abi_value **res, size_t *nr);
	bool (*c_return)(Dwarf_Die *func, const struct lang_ops *lang, Dwarf_Die *type,
			 struct loc *out);
	int (*entry_params)(Dwarf_Die *func, const struct lang_ops *lang, struct abi_value **out,
			    size_t *nr, const char **why);
};

#endif
