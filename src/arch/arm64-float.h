/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arm64-float.h - floats in AArch64's v registers followed to copies uprobes can read (the
 * insn_float_*_code() walks of arch/insn.h on arm64) */
#ifndef UPF_ARCH_ARM64_FLOAT_H
#define UPF_ARCH_ARM64_FLOAT_H

#include "arch/insn.h"

/*
 * arm64_float_copy_code() - insn_float_copy_code() on AArch64: the first copy of v@vec out
 * to a general register (fmov xN, dM; fmov wN, sM; umov) or a stack slot at sp or x29 (str,
 * stur of dM, sM, qM), moves between v registers followed (fmov dN, dM; mov vN.16b, vM.16b)
 */
int arm64_float_copy_code(const struct insn_code *c, unsigned int vec, unsigned int size,
			  const uint64_t *stop, size_t nstop, struct insn_float_copy *out,
			  struct strbuf *why);

/*
 * arm64_float_source_code() - insn_float_source_code() on AArch64: the fmov dN, xM (sN, wM)
 * or the ldr/ldur from a stack slot at sp or x29 that last sets v@vec before the return at
 * @ret_at, with nothing changing what it copied from before the return
 */
int arm64_float_source_code(const struct insn_code *c, uint64_t ret_at, unsigned int vec,
			    unsigned int size, const uint64_t *stop, size_t nstop,
			    struct insn_float_copy *out, struct strbuf *why);

#endif
