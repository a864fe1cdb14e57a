/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arch.h - everything an architecture decides, one ops table per machine, chosen by the
 * e_machine of the binary opened */
#ifndef UPF_ARCH_H
#define UPF_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct abi_ops;
struct insn_ops;
struct sdt_arg;

/*
 * The seam between upfront and the machines it probes. Nothing outside src/arch/ names an
 * architecture (scripts/check-layout.sh enforces it): what differs between machines is a
 * member of struct arch_ops, and code asks arch_current() for it. perf chooses its register
 * table per binary in the same way (the e_machine of the ELF file), bpftrace has one
 * src/arch/<arch> per machine.
 *
 * One architecture per process: debuginfo_open() selects the table of the first binary it
 * opens (arch_use()); a binary of another machine opened after it is refused (a session
 * traces the programs of one kernel). Before any binary is opened (fetcharg_parse() of a
 * definition, replay) the table is the one of the machine upfront was built for. The pointer
 * is written only while binaries are opened, before the session's threads start.
 */
struct arch_ops {
	const char *name;		/* "x86-64": messages, -v */
	unsigned int machine;		/* its ELF e_machine (64-bit, little-endian) */
	const char *ilp32_name;		/* its 32-bit ABI's name, refused: "x32" */

	/* ---- the library directories ---- */
	const char *multiarch;		/* Debian's multiarch triplet: "x86_64-linux-gnu" */
	const char *lib_dirs;		/* the dynamic linker's default directories, in its order,
					 * ':'-separated ("/lib/TRIPLET:/usr/lib/TRIPLET:...") */
	unsigned int ldcache_req;	/* glibc ld.so.cache: the FLAG_REQUIRED_MASK bits of this
					 * machine's 64-bit libraries (0x0300 x86-64, 0x0a00 arm64) */

	/* ---- registers, by DWARF number ---- */
	/* the name uprobe_events reads it by, without '%' ("ax"), or NULL when it cannot */
	const char *(*reg_kernel_name)(int regno);
	/*
	 * the names a fetcharg may give ("%cs") besides those reg_kernel_name() gives a DWARF
	 * register, blank-separated: together the kernel's regs_query_register_offset() table
	 */
	const char *fetch_regs_extra;
	/* the name for messages ("rax", "xmm0"), in @buf (16 bytes) when made up */
	const char *(*reg_describe)(int regno, char *buf);
	/* which floating-point/vector register it is (xmmN, vN), or -1 */
	int (*reg_vector)(int regno);
	/* the DWARF number of vector register @n */
	int (*reg_vector_dwarf)(int n);
	int sp_dwarf;			/* the stack pointer's DWARF number (the CFA's base) */
	int fp_dwarf;			/* the frame pointer's (x86-64 rbp 6, arm64 x29) */
	/* Go without CFI: the CFA as the frame pointer + @go_cfa_fp in a body, the stack pointer +
	 * @entry_cfa_sp at an entry or a return; 0 where the machine's frames give no fixed
	 * offset (arm64's Go frame pointer lies a frame size below the CFA) */
	int go_cfa_fp;
	int entry_cfa_sp;
	int pc_dwarf;			/* the program counter's (regs_frame()); a machine whose
					 * DWARF numbers no pc gives it a reserved number: the
					 * pc is fetched by @ip_fetch there */
	int frame_regs;			/* --stack=dwarf fetches DWARF registers 0 to this - 1
					 * with the stack's copy: those the CFI of a frame may
					 * name, sp and pc among them (regs_frame()) */
	/*
	 * the registers (bit N: DWARF register N) a function's first instruction finds as its
	 * caller left them, uprobes can read, and DW_OP_entry_value may name: the general
	 * registers and the return address column (loc_ctx.entry_regs at an entry)
	 */
	unsigned long long entry_regs;

	/* ---- fetchargs for what the decoder, the session and $goid read ---- */
	const char *sp_fetch;		/* the stack pointer: "%sp" */
	const char *ip_fetch;		/* the program counter: "%ip" (a fetch naming it reads
					 * the probe's address, not a register a probe can miss) */
	const char *flags_fetch;	/* the condition flags: "%flags" */
	const char *g_fetch;		/* Go's goroutine (runtime.g) under its register ABI:
					 * "%r14" */
	bool g_everywhere;		/* @g_fetch holds g in every Go function, assembly and
					 * ABI0 ones and Go before 1.17 too (arm64's R28); else
					 * only under the register ABI (x86-64's r14) */
	/*
	 * The return address at a function's first instruction ("$stack0": the call pushed it
	 * at 0(%sp)); it stays there while the register @entry_ret_dwarf is not written
	 * (x86-64: the stack pointer; a link register machine: the link register).
	 */
	const char *entry_ret_fetch;
	int entry_ret_dwarf;
	/*
	 * Go's stack-bound check branches to morestack when one of the bits @go_split_flags of
	 * @flags_fetch is set (x86-64: jbe, CF|ZF = 0x41; arm64: b.ls, Z) or one of the bits
	 * @go_split_clear is clear (arm64: b.ls, C = 0x20000000; x86-64: none): such a hit is
	 * the call that will run again.
	 */
	unsigned long long go_split_flags;
	unsigned long long go_split_clear;

	/*
	 * whether @addr cannot be a user pointer a probe dereferences (the first page, and
	 * x86-64's non-canonical addresses; arm64's above its 52-bit user space)
	 */
	bool (*addr_fault)(uint64_t addr);

	/*
	 * The clocksource under which the kernel's per-CPU trace clock ("local") agrees across
	 * CPUs, so the session may use it (x86-64: "tsc"); NULL: always "mono". The traced
	 * programs run on this machine, so their table is the host's.
	 */
	const char *local_clocksource;

	/*
	 * a return address read from a frame record, the stack or the link register without
	 * what the CPU signed into its unused top bits (arm64's pointer authentication code,
	 * -mbranch-protection=pac-ret), or NULL when a machine keeps nothing there
	 */
	uint64_t (*code_addr_strip)(uint64_t addr);

	/*
	 * Whether a user read the kernel's fetch makes (copy_from_user_nofault()) that faults
	 * part way keeps the bytes before the fault: x86-64's copy does, byte-exact; arm64's
	 * keeps at most the first byte of the access (arch/arm64/lib/copy_from_user.S: its fixup
	 * retries one byte), the rest of the field is what the event buffer held. Text up to a
	 * string's length is read in u64 words only where it does: a string that ends before an
	 * unmapped page is read in a word that runs into it (e2e go.cases, calls edge).
	 */
	bool fault_keeps_prefix;
	/* the instruction a uprobe puts in the process's code, with its article ("an int3") */
	const char *breakpoint;
	/* the bytes a return pops off the stack: x86-64's ret its address (8), arm64's none (x30) */
	unsigned int ret_pops;

	/* ---- the instruction oracle (arch/insn.h) ---- */
	const struct insn_ops *insn;

	/* ---- the calling conventions: C's, Go's (arch/abi.h) ---- */
	const struct abi_ops *abi;

	/* ---- SDT probes (sdt.h) ---- */
	/* one argument spec of a .note.stapsdt in this machine's operand syntax */
	int (*sdt_arg_parse)(const char *text, struct sdt_arg *a);
	/* the relocation types that fill a GOT slot with a symbol's address (SYM@GOTPCREL) */
	unsigned int sdt_got_relocs[2];
};

/**
 * arch_current() - the table of the machine of the binaries opened, or of the machine
 * upfront was built for when none was
 * Return: a static table, never NULL.
 */
const struct arch_ops *arch_current(void);

/**
 * arch_for_machine() - the table of ELF machine @machine (64-bit, little-endian)
 * Return: a static table, or NULL when upfront does not know the machine.
 */
const struct arch_ops *arch_for_machine(unsigned int machine);

/**
 * arch_use() - make @a the current table (debuginfo_open(), tests)
 * Return: 0, or -EXDEV when a binary of another machine selected another table before.
 */
int arch_use(const struct arch_ops *a);

/**
 * arch_machine_name() - the name of ELF machine @machine for messages ("AArch64", "i386")
 * @buf: used for an unknown machine ("machine 1234")
 */
const char *arch_machine_name(unsigned int machine, char *buf, size_t size);

/**
 * arch_names() - the machines upfront probes, for messages: "x86-64 and arm64"
 * @buf: filled (64 bytes hold them)
 * Return: @buf.
 */
const char *arch_names(char *buf, size_t size);

#endif
