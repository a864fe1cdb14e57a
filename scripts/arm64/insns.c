// SPDX-License-Identifier: GPL-2.0-or-later
/* insns.c - one instruction of each class arch/arm64-insn.c tells apart, at labels i_NAME in
 * insns() (never called), for scripts/arm64/probe-refusals: the arm64 kernel takes or refuses
 * a uprobe on each as upfront says */
#include <unistd.h>
void insns(void);
__asm__(".text\n.globl insns\n.type insns,%function\ninsns:\n"
	"i_ldr_imm: ldr x16, [x28, #16]\n"
	"i_cmp: cmp sp, x16\n"
	"i_bls: b.ls 1f\n"
	"i_stp: stp x29, x30, [sp, #-32]!\n"
	"i_ldr_lit: ldr x0, 2f\n"
	"i_ldxr: ldxr x1, [x2]\n"
	"i_ldar: ldar x1, [x2]\n"
	"i_cbz: cbz x0, 1f\n"
	"i_bl: bl insns\n"
	"i_adrp: adrp x0, insns\n"
	"i_br: br x3\n"
	"i_svc: svc #0\n"
	"i_mrs: mrs x0, tpidr_el0\n"
	"i_paciasp: hint #25\n"
	"i_autiasp: hint #29\n"
	"i_nop: nop\n"
	"i_bti: hint #34\n"
	"i_retaa: .inst 0xd65f0bff\n"
	"1: i_ret: ret\n"
	".p2align 3\n2: .quad 0x1234\n"
	".size insns, .-insns\n");
int main(void)
{
	pause();
	return 0;
}
