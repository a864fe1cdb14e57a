/* SPDX-License-Identifier: GPL-2.0-or-later */
/* floatcopy.h - a float in a vector register (xmm), which uprobes cannot read, followed to where the
 * code copies it: a parameter forward to a general register or stack slot (the probe moves to
 * the instruction after the copy), a result back from its return to where it came from */
#ifndef UPF_FLOATCOPY_H
#define UPF_FLOATCOPY_H

#include "debuginfo.h"
#include "place.h"
#include "util.h"
#include "arch/insn.h"

/**
 * floatcopy_param() - where the float parameter in register vector register @vec (regs_vector()) at probe site @s is
 * copied, in the code every call runs straight on from there
 * @size: its bytes (4 or 8)
 * @out: filled with @s moved to the instruction after the copy (its own insn text and cost,
 *       no alternatives, ret_at_sp only when %rsp has not moved); free its insn with
 *       floatcopy_site_release()
 * @fc: the copy found
 * @why: on failure, what stopped the walk (appended)
 * Return: 0, or -ENOENT with @why filled (also for inlined copies and sites of no function).
 */
int floatcopy_param(struct debuginfo *dbg, const struct probe_site *s, int vec,
		    unsigned int size, struct probe_site *out, struct insn_float_copy *fc,
		    struct strbuf *why);

/* floatcopy_site_release() - free what floatcopy_param() put in @s of its own */
void floatcopy_site_release(struct probe_site *s);

/**
 * floatcopy_result() - the general register a float result in vector register @vec (regs_vector()) is copied from before
 * the function returns, the same at every return: read there at the return instruction (Go's
 * %return) or after it (a uretprobe)
 * @s: a site with at_ret_insn (its vaddr is the return) or is_return (every ret of the
 *     function)
 * @fc: filled with the copy (of the first return)
 * @why: on failure, what sets the register (appended)
 * Return: 0, or -ENOENT with @why filled.
 */
int floatcopy_result(struct debuginfo *dbg, const struct probe_site *s, int vec,
		     unsigned int size, struct insn_float_copy *fc, struct strbuf *why);

#endif
