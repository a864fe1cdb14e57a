/* SPDX-License-Identifier: GPL-2.0-or-later */
/* x86-insn.h - x86-64 instruction decoding (capstone): return sites, instruction boundaries,
 * rip-relative lea targets, the end of Go's stack-bound check */
#ifndef UPF_X86_INSN_H
#define UPF_X86_INSN_H

#include <libelf.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/*
 * Two levels: the x86_insn_*_code() functions decode bytes in memory (unit-tested on byte
 * sequences); the others find the bytes of [start, end) in a binary (x86_insn_code()) and
 * turn what goes wrong into a message naming the function. Nothing here knows DWARF or the
 * symbol table: callers pass the function's name for messages.
 */

/* A stretch of machine code: borrowed bytes and the virtual address of the first one. */
struct x86_code {
	const uint8_t *bytes;
	size_t len;
	uint64_t addr;
};

/* The instruction an address falls inside of, for the error that refuses it. */
struct x86_insn_at {
	uint64_t insn;		/* where that instruction starts */
	char text[200];		/* "movzwl 0x68(%rdi), %ebx" (AT&T, as objdump and perf show it) */
	uint64_t near[8];	/* instruction starts around it, ascending (the function's
				 * first ones when it is near the entry) */
	size_t nr_near;
};

/**
 * x86_insn_code() - the bytes of [@start, @end) in the file @elf, from the section holding
 * them or (no section headers) from the PT_LOAD segment
 * @out: filled; its bytes are borrowed from libelf and live as long as @elf
 * Return: 0, or -ENOENT when the range is empty or not all of it is in the file.
 */
int x86_insn_code(Elf *elf, uint64_t start, uint64_t end, struct x86_code *out);

/**
 * x86_insn_rets_code() - addresses of every near `ret` (c3, c2 imm16) in @c
 * @addrs: array owned by the caller (free()), ascending; NULL when @nr is 0
 *
 * Far returns do not occur in user code, and a jmp to another function (a tail call) leaves
 * through that function's ret. Go never tail-calls, so for Go every exit is a ret found
 * here. Undecodable bytes (padding, data) are stepped over one at a time.
 * Return: 0 (also with @nr 0), or -EIO when capstone cannot start.
 */
int x86_insn_rets_code(const struct x86_code *c, uint64_t **addrs, size_t *nr);

/**
 * x86_insn_rets() - x86_insn_rets_code() on the code of function @name at [@start, @end)
 * @name: for messages; NULL: "0xSTART-0xEND"
 * @addrs: array owned by the caller (free())
 * Return: 0 with @nr >= 1, or a negative errno with @d filled (-EINVAL: extent unknown,
 * -ENOENT: code not in the file or no ret in it, -EIO: capstone failed).
 */
int x86_insn_rets(Elf *elf, const char *name, uint64_t start, uint64_t end, uint64_t **addrs,
		  size_t *nr, struct diag *d);

/**
 * x86_insn_boundary_code() - whether @addr starts an instruction, decoding @c from its first
 * byte (which must start one: a function's entry)
 * @at: filled when @addr is inside an instruction; when the code does not decode up to
 *      @addr, @at->insn is the address where decoding stopped
 * Return: 1 when @addr starts an instruction, 0 when it is inside one (@at filled), -EINVAL
 * when @c does not decode up to @addr (or @addr is outside @c), -EIO when capstone cannot
 * start.
 */
int x86_insn_boundary_code(const struct x86_code *c, uint64_t addr, struct x86_insn_at *at);

/**
 * x86_insn_boundary() - whether @addr starts an instruction of function @name, disassembled
 * from its entry @start
 * @end: the end of the function, or 0 when unknown
 * @at: filled when @addr is inside an instruction
 *
 * A uprobe replaces the first byte of an instruction: one in the middle of an instruction
 * corrupts the program.
 * Return: 1 when @addr starts an instruction, 0 when it is inside one (@at filled), or a
 * negative errno with @d filled (code not in the file, not disassemblable up to @addr).
 */
int x86_insn_boundary(Elf *elf, const char *name, uint64_t start, uint64_t end, uint64_t addr,
		      struct x86_insn_at *at, struct diag *d);

/**
 * x86_insn_lea_targets_code() - every address a rip-relative `lea` in @c computes: for an
 * IFUNC resolver, the implementations it can return
 * @addrs: array owned by the caller (free()), in the code's order, may repeat
 * Return: 0 (also with @nr 0), or -EIO when capstone cannot start.
 */
int x86_insn_lea_targets_code(const struct x86_code *c, uint64_t **addrs, size_t *nr);

/**
 * x86_insn_lea_targets() - x86_insn_lea_targets_code() on the code at [@start, @end) of @elf
 * @addrs: array owned by the caller (free())
 * Return: 0 (also with @nr 0), or a negative errno (-ENOENT: the code is not in the file).
 */
int x86_insn_lea_targets(Elf *elf, uint64_t start, uint64_t end, uint64_t **addrs,
			 size_t *nr);

/**
 * x86_insn_go_split_end_code() - the address just past a Go function's stack-bound check
 * at the start of @c ("cmp 0x10(%r14),%rsp; jbe morestack", also after
 * "lea -N(%rsp),%r12" for big frames)
 *
 * When the stack must grow, runtime.morestack copies it and runs the function again from
 * its entry: a probe on the entry then fires twice for one call. Past the check it fires
 * once, with the arguments still in their registers.
 * Return: the address after the check's conditional jump, or @c->addr when the code starts
 * with no check (NOSPLIT functions) or cannot be decoded.
 */
uint64_t x86_insn_go_split_end_code(const struct x86_code *c);

/**
 * x86_insn_go_split_end() - x86_insn_go_split_end_code() on the function at [@start, @end)
 * of @elf (@end 0 or past the check: only its first instructions are read)
 * Return: the address after the check, or @start when there is none or the code is not in
 * the file.
 */
uint64_t x86_insn_go_split_end(Elf *elf, uint64_t start, uint64_t end);

#endif
