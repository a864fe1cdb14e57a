// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * insn-cost.c - the target of bench/insn-cost.sh: one small function per instruction class
 * that compilers put at and near function entries, the instruction to probe at a global label.
 *
 *   insn-cost list            name, file offset of the probed instruction, its text
 *   insn-cost run NAME CALLS  calls NAME's function CALLS times on this thread; prints ns/call
 *                             and the first byte at the probed address after the loop (0xcc
 *                             while a uprobe's breakpoint is there; a kernel that optimizes
 *                             the probe rewrites the instruction into a call, 0xe8)
 *
 * The file offset comes from the program headers of the running process (dl_iterate_phdr), so
 * the script needs no objdump and works for PIE and non-PIE builds alike.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * Every function leaves the stack and the callee-saved registers as it found them; the probed
 * instruction is the label insn_NAME. Bytes are spelled out where assemblers pick another
 * encoding (nop5, endbr64 on an assembler without CET, jmp rel32).
 */
asm(".text\n"
    ".p2align 4\n"
    /* push %rbp: the classic frame-pointer entry */
    ".globl f_push_rbp\nf_push_rbp:\n"
    ".globl insn_push_rbp\ninsn_push_rbp:\n push %rbp\n pop %rbp\n ret\n"
    ".p2align 4\n"
    ".globl f_push_rbx\nf_push_rbx:\n"
    ".globl insn_push_rbx\ninsn_push_rbx:\n push %rbx\n pop %rbx\n ret\n"
    ".p2align 4\n"
    /* a REX-prefixed push (41 57) */
    ".globl f_push_r15\nf_push_r15:\n"
    ".globl insn_push_r15\ninsn_push_r15:\n push %r15\n pop %r15\n ret\n"
    ".p2align 4\n"
    ".globl f_nop\nf_nop:\n"
    ".globl insn_nop\ninsn_nop:\n nop\n ret\n"
    ".p2align 4\n"
    /* nopl 0x0(%rax,%rax,1): the 5-byte nop of -fpatchable-function-entry and USDT */
    ".globl f_nop5\nf_nop5:\n"
    ".globl insn_nop5\ninsn_nop5:\n .byte 0x0f,0x1f,0x44,0x00,0x00\n ret\n"
    ".p2align 4\n"
    /* the other multi-byte nops compilers pad with: 66 90, 0f 1f 00, 0f 1f 40 00, 66 0f 1f 44 */
    ".globl f_nop2\nf_nop2:\n"
    ".globl insn_nop2\ninsn_nop2:\n .byte 0x66,0x90\n ret\n"
    ".p2align 4\n"
    ".globl f_nop3\nf_nop3:\n"
    ".globl insn_nop3\ninsn_nop3:\n .byte 0x0f,0x1f,0x00\n ret\n"
    ".p2align 4\n"
    ".globl f_nop4\nf_nop4:\n"
    ".globl insn_nop4\ninsn_nop4:\n .byte 0x0f,0x1f,0x40,0x00\n ret\n"
    ".p2align 4\n"
    ".globl f_nop6\nf_nop6:\n"
    ".globl insn_nop6\ninsn_nop6:\n .byte 0x66,0x0f,0x1f,0x44,0x00,0x00\n ret\n"
    ".p2align 4\n"
    /* endbr64 (f3 0f 1e fa): the first instruction of -fcf-protection code (Debian's libc) */
    ".globl f_endbr64\nf_endbr64:\n"
    ".globl insn_endbr64\ninsn_endbr64:\n .byte 0xf3,0x0f,0x1e,0xfa\n ret\n"
    ".p2align 4\n"
    ".globl f_mov_rsp_rbp\nf_mov_rsp_rbp:\n push %rbp\n"
    ".globl insn_mov_rsp_rbp\ninsn_mov_rsp_rbp:\n mov %rsp,%rbp\n pop %rbp\n ret\n"
    ".p2align 4\n"
    ".globl f_mov_reg\nf_mov_reg:\n"
    ".globl insn_mov_reg\ninsn_mov_reg:\n mov %rdi,%rax\n ret\n"
    ".p2align 4\n"
    ".globl f_mov_reg32\nf_mov_reg32:\n"
    ".globl insn_mov_reg32\ninsn_mov_reg32:\n mov %edi,%eax\n ret\n"
    ".p2align 4\n"
    /* -O0's parameter store: mov %rdi,-0x8(%rbp) */
    ".globl f_mov_to_stack\nf_mov_to_stack:\n push %rbp\n mov %rsp,%rbp\n"
    ".globl insn_mov_to_stack\ninsn_mov_to_stack:\n mov %rdi,-0x8(%rbp)\n pop %rbp\n ret\n"
    ".p2align 4\n"
    /* -O0's first body instruction: mov -0x8(%rbp),%rax */
    ".globl f_mov_from_stack\nf_mov_from_stack:\n push %rbp\n mov %rsp,%rbp\n"
    " mov %rdi,-0x8(%rbp)\n"
    ".globl insn_mov_from_stack\ninsn_mov_from_stack:\n mov -0x8(%rbp),%rax\n pop %rbp\n ret\n"
    ".p2align 4\n"
    /* Go's argument spill: mov %rax,0x8(%rsp) (here into the red zone) */
    ".globl f_mov_to_rsp\nf_mov_to_rsp:\n"
    ".globl insn_mov_to_rsp\ninsn_mov_to_rsp:\n mov %rdi,-0x8(%rsp)\n ret\n"
    ".p2align 4\n"
    ".globl f_mov_imm\nf_mov_imm:\n"
    ".globl insn_mov_imm\ninsn_mov_imm:\n mov $0x1,%eax\n ret\n"
    ".p2align 4\n"
    /* the stack protector's load */
    ".globl f_mov_fs\nf_mov_fs:\n"
    ".globl insn_mov_fs\ninsn_mov_fs:\n mov %fs:0x28,%rax\n ret\n"
    ".p2align 4\n"
    ".globl f_sub_rsp\nf_sub_rsp:\n"
    ".globl insn_sub_rsp\ninsn_sub_rsp:\n sub $0x18,%rsp\n add $0x18,%rsp\n ret\n"
    ".p2align 4\n"
    ".globl f_add_rsp\nf_add_rsp:\n sub $0x18,%rsp\n"
    ".globl insn_add_rsp\ninsn_add_rsp:\n add $0x18,%rsp\n ret\n"
    ".p2align 4\n"
    /* Go's big-frame check computes the frame's low end: lea -N(%rsp),%r12 (here %rax) */
    ".globl f_lea\nf_lea:\n"
    ".globl insn_lea\ninsn_lea:\n lea -0x18(%rsp),%rax\n ret\n"
    ".p2align 4\n"
    ".globl f_lea_rip\nf_lea_rip:\n"
    ".globl insn_lea_rip\ninsn_lea_rip:\n lea g_fake(%rip),%rax\n ret\n"
    ".p2align 4\n"
    ".globl f_xor\nf_xor:\n"
    ".globl insn_xor\ninsn_xor:\n xor %eax,%eax\n ret\n"
    ".p2align 4\n"
    ".globl f_test\nf_test:\n"
    ".globl insn_test\ninsn_test:\n test %rdi,%rdi\n ret\n"
    ".p2align 4\n"
    ".globl f_pop\nf_pop:\n push %rbp\n"
    ".globl insn_pop\ninsn_pop:\n pop %rbp\n ret\n"
    ".p2align 4\n"
    ".globl f_leaf\nf_leaf:\n ret\n"
    ".p2align 4\n"
    ".globl f_call\nf_call:\n"
    ".globl insn_call\ninsn_call:\n call f_leaf\n ret\n"
    ".p2align 4\n"
    ".globl f_jmp8\nf_jmp8:\n"
    ".globl insn_jmp8\ninsn_jmp8:\n .byte 0xeb,0x00\n ret\n"
    ".p2align 4\n"
    ".globl f_jmp32\nf_jmp32:\n"
    ".globl insn_jmp32\ninsn_jmp32:\n .byte 0xe9,0x00,0x00,0x00,0x00\n ret\n"
    ".p2align 4\n"
    /* je rel32 (0f 84), not taken: the test of 1 leaves ZF clear */
    ".globl f_jcc32\nf_jcc32:\n mov $1,%eax\n test %eax,%eax\n"
    ".globl insn_jcc32\ninsn_jcc32:\n .byte 0x0f,0x84,0x00,0x00,0x00,0x00\n ret\n"
    ".p2align 4\n"
    ".globl f_call_ind\nf_call_ind:\n lea f_leaf(%rip),%rax\n"
    ".globl insn_call_ind\ninsn_call_ind:\n call *%rax\n ret\n"
    ".p2align 4\n"
    ".globl f_ret\nf_ret:\n"
    ".globl insn_ret\ninsn_ret:\n ret\n"
    ".p2align 4\n"
    /*
     * Go's stack-bound check: cmp 0x10(%r14),%rsp; jbe morestack. %r14 is callee-saved here
     * and points at a fake g whose stackguard0 (+16) is 0, so the jbe is never taken.
     */
    ".globl f_go_cmp\nf_go_cmp:\n push %r14\n lea g_fake(%rip),%r14\n"
    ".globl insn_go_cmp\ninsn_go_cmp:\n cmp 0x10(%r14),%rsp\n"
    ".globl insn_go_jbe\ninsn_go_jbe:\n jbe 1f\n pop %r14\n ret\n1:\n pop %r14\n ret\n"
    ".data\n.p2align 4\ng_fake:\n .quad 0, 0, 0, 0\n"
    ".text\n");

#define CLASS(n, text) { #n, text, f_##n, insn_##n }
#define DECL(n) extern void f_##n(void); extern const char insn_##n[]

DECL(push_rbp); DECL(push_rbx); DECL(push_r15); DECL(nop); DECL(nop5); DECL(nop2); DECL(nop3);
DECL(nop4); DECL(nop6); DECL(endbr64); DECL(jcc32); DECL(call_ind);
DECL(mov_rsp_rbp); DECL(mov_reg); DECL(mov_reg32); DECL(mov_to_stack); DECL(mov_from_stack);
DECL(mov_to_rsp); DECL(mov_imm); DECL(mov_fs); DECL(sub_rsp); DECL(add_rsp); DECL(lea);
DECL(lea_rip); DECL(xor); DECL(test); DECL(pop); DECL(call); DECL(jmp8); DECL(jmp32); DECL(ret);
DECL(go_cmp);
extern const char insn_go_jbe[];

static const struct cls {
	const char *name;
	const char *text;
	void (*fn)(void);
	const char *at;
} classes[] = {
	CLASS(push_rbp, "push %rbp"),
	CLASS(push_rbx, "push %rbx"),
	CLASS(push_r15, "push %r15"),
	CLASS(nop, "nop"),
	CLASS(nop5, "nopl 0x0(%rax,%rax,1)"),
	CLASS(nop2, "xchg %ax,%ax (66 90)"),
	CLASS(nop3, "nopl (%rax)"),
	CLASS(nop4, "nopl 0x0(%rax)"),
	CLASS(nop6, "nopw 0x0(%rax,%rax,1)"),
	CLASS(endbr64, "endbr64"),
	CLASS(mov_rsp_rbp, "mov %rsp,%rbp"),
	CLASS(mov_reg, "mov %rdi,%rax"),
	CLASS(mov_reg32, "mov %edi,%eax"),
	CLASS(mov_to_stack, "mov %rdi,-0x8(%rbp)"),
	CLASS(mov_from_stack, "mov -0x8(%rbp),%rax"),
	CLASS(mov_to_rsp, "mov %rdi,-0x8(%rsp)"),
	CLASS(mov_imm, "mov $0x1,%eax"),
	CLASS(mov_fs, "mov %fs:0x28,%rax"),
	CLASS(sub_rsp, "sub $0x18,%rsp"),
	CLASS(add_rsp, "add $0x18,%rsp"),
	CLASS(lea, "lea -0x18(%rsp),%rax"),
	CLASS(lea_rip, "lea 0x0(%rip),%rax"),
	CLASS(xor, "xor %eax,%eax"),
	CLASS(test, "test %rdi,%rdi"),
	CLASS(pop, "pop %rbp"),
	CLASS(call, "call rel32"),
	CLASS(jmp8, "jmp rel8"),
	CLASS(jmp32, "jmp rel32"),
	CLASS(jcc32, "je rel32 (not taken)"),
	CLASS(call_ind, "call *%rax"),
	CLASS(ret, "ret"),
	CLASS(go_cmp, "cmp 0x10(%r14),%rsp"),
	/* the same code, probed on its jbe */
	{ "go_jbe", "jbe rel8 (not taken)", f_go_cmp, insn_go_jbe },
};

struct find {
	uintptr_t addr;
	long long offset;
};

/* the file offset of @addr in the main program, from its PT_LOAD headers */
static int find_offset(struct dl_phdr_info *info, size_t size, void *data)
{
	struct find *f = data;

	(void)size;
	if (info->dlpi_name && info->dlpi_name[0])
		return 0;	/* the main program comes first, named "" */
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t va = f->addr - info->dlpi_addr;

		if (ph->p_type == PT_LOAD && va >= ph->p_vaddr && va < ph->p_vaddr + ph->p_filesz) {
			f->offset = (long long)(va - ph->p_vaddr + ph->p_offset);
			return 1;
		}
	}
	return 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	size_t n = sizeof(classes) / sizeof(classes[0]);

	if (argc == 2 && !strcmp(argv[1], "list")) {
		for (size_t i = 0; i < n; i++) {
			struct find f = { (uintptr_t)classes[i].at, -1 };

			dl_iterate_phdr(find_offset, &f);
			if (f.offset < 0)
				return 1;
			printf("%s\t0x%llx\t%s\n", classes[i].name, f.offset, classes[i].text);
		}
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "run")) {
		long calls = atol(argv[3]);

		for (size_t i = 0; i < n; i++) {
			void (*volatile fn)(void) = classes[i].fn;
			double t0;

			if (strcmp(argv[2], classes[i].name))
				continue;
			for (long k = 0; k < calls / 100 + 1; k++)	/* warm up: page in, optimize */
				fn();
			t0 = now();
			for (long k = 0; k < calls; k++)
				fn();
			printf("%.1f %02x\n", (now() - t0) / calls,
			       *(const volatile unsigned char *)classes[i].at);
			return 0;
		}
		fprintf(stderr, "no class %s\n", argv[2]);
		return 2;
	}
	fprintf(stderr, "usage: %s list | run NAME CALLS\n", argv[0]);
	return 2;
}
