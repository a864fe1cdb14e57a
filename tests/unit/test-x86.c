// SPDX-License-Identifier: GPL-2.0-or-later
/* test-x86.c - the x86-64 instruction decoder on byte sequences and on the test targets'
 * code, and the System V / Go ABI rules on the test targets' DWARF (no root, no kernel) */
#define LOG_DOMAIN "test-x86"
#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../src/arch/abi.h"
#include "../../src/arch/arch.h"
#include "../../src/arch/x86-insn.h"
#include "dietest.h"
#include "unittest.h"

#define BASE 0x401000

static struct insn_code code(const uint8_t *bytes, size_t len)
{
	return (struct insn_code){ .bytes = bytes, .len = len, .addr = BASE };
}

/* "0x401004 0x401006": addresses as offsets from BASE ("+4 +6") */
static const char *addr_list(const uint64_t *a, size_t n)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%+lld", i ? " " : "", (long long)(a[i] - BASE));
	return sb.buf ? sb.buf : "";
}

static void test_rets(void)
{
	/* push %rbp; mov %rsp,%rbp; ret; nop; ret $8; ud2 */
	static const uint8_t plain[] = { 0x55, 0x48, 0x89, 0xe5, 0xc3, 0x90, 0xc2, 0x08, 0x00,
					 0x0f, 0x0b };
	/* mov $0xc3,%eax (a c3 inside an immediate is no ret); ret */
	static const uint8_t imm[] = { 0xb8, 0xc3, 0x00, 0x00, 0x00, 0xc3 };
	/* ret; 0x06 (push %es: invalid in 64-bit mode, skipped); ret */
	static const uint8_t bad[] = { 0xc3, 0x06, 0xc3 };
	/* lea 8(%rdi),%rax; jmp *%rax (a tail call is not a ret) */
	static const uint8_t none[] = { 0x48, 0x8d, 0x47, 0x08, 0xff, 0xe0 };
	struct insn_code c = code(plain, sizeof(plain));
	uint64_t *a;
	size_t n;

	TEST_EQ(x86_insn_rets_code(&c, &a, &n), 0);
	TEST_STREQ(addr_list(a, n), "+4 +6");
	free(a);
	c = code(imm, sizeof(imm));
	TEST_EQ(x86_insn_rets_code(&c, &a, &n), 0);
	TEST_STREQ(addr_list(a, n), "+5");
	free(a);
	c = code(bad, sizeof(bad));
	TEST_EQ(x86_insn_rets_code(&c, &a, &n), 0);
	TEST_STREQ(addr_list(a, n), "+0 +2");
	free(a);
	c = code(none, sizeof(none));
	TEST_EQ(x86_insn_rets_code(&c, &a, &n), 0);
	TEST_EQ(n, 0);
	TEST_TRUE(a == NULL);
}

static void test_branches_to(void)
{
	/* call +0x100 (to BASE+0x105); jmp +0xfb (BASE+0x105 again); call +0 (BASE+0xf); ret */
	static const uint8_t b[] = { 0xe8, 0x00, 0x01, 0x00, 0x00, 0xe9, 0xfb, 0x00, 0x00, 0x00,
				     0xe8, 0x00, 0x00, 0x00, 0x00, 0xc3 };
	/* call into BASE+0x105, then a two-byte opcode cut short: a branch could hide there */
	static const uint8_t bad[] = { 0xe8, 0x00, 0x01, 0x00, 0x00, 0x0f };
	struct insn_code c = code(b, sizeof(b));

	TEST_EQ(x86_insn_branches_to_code(&c, BASE + 0x105), 2);
	TEST_EQ(x86_insn_branches_to_code(&c, BASE + 0xf), 1);
	TEST_EQ(x86_insn_branches_to_code(&c, BASE + 0x200), 0);
	c = code(bad, sizeof(bad));
	TEST_EQ(x86_insn_branches_to_code(&c, BASE + 0x105), -EINVAL);
}

static void test_boundary(void)
{
	/* mov 8(%rdi),%rax; movzwl 0x68(%rdi),%ebx; add $1,%rbx; xor %eax,%eax; ret */
	static const uint8_t b[] = { 0x48, 0x8b, 0x47, 0x08, 0x0f, 0xb7, 0x5f, 0x68, 0x48, 0x83,
				     0xc3, 0x01, 0x31, 0xc0, 0xc3 };
	static const uint8_t bad[] = { 0x06, 0x06, 0x06 };
	struct insn_code c = code(b, sizeof(b));
	struct insn_at at;

	TEST_EQ(x86_insn_boundary_code(&c, BASE, &at), 1);
	TEST_EQ(x86_insn_boundary_code(&c, BASE + 4, &at), 1);
	TEST_EQ(x86_insn_boundary_code(&c, BASE + 14, &at), 1);
	TEST_EQ(x86_insn_boundary_code(&c, BASE + 5, &at), 0);
	TEST_EQ(at.insn, BASE + 4);
	TEST_STREQ(at.text, "movzwl 0x68(%rdi), %ebx");
	/* the instructions before it (up to 3), it, and up to 3 after */
	TEST_STREQ(addr_list(at.near, at.nr_near), "+0 +4 +8 +12 +14");
	TEST_EQ(x86_insn_boundary_code(&c, BASE + 13, &at), 0);
	TEST_EQ(at.insn, BASE + 12);
	TEST_STREQ(at.text, "xorl %eax, %eax");
	TEST_STREQ(addr_list(at.near, at.nr_near), "+0 +4 +8 +12 +14");
	/* past the bytes: not decodable up to it */
	TEST_EQ(x86_insn_boundary_code(&c, BASE + 20, &at), -EINVAL);
	TEST_EQ(x86_insn_boundary_code(&c, BASE - 1, &at), -EINVAL);
	c = code(bad, sizeof(bad));
	TEST_EQ(x86_insn_boundary_code(&c, BASE + 1, &at), -EINVAL);
	TEST_EQ(at.insn, BASE);
}

static void test_lea(void)
{
	/* lea 0x10(%rip),%rax; lea -0x10(%rip),%rcx; lea 8(%rdi),%rax; lea 0x20(%rip),%rdx;
	 * ret */
	static const uint8_t b[] = { 0x48, 0x8d, 0x05, 0x10, 0x00, 0x00, 0x00,
				     0x48, 0x8d, 0x0d, 0xf0, 0xff, 0xff, 0xff,
				     0x48, 0x8d, 0x47, 0x08,
				     0x48, 0x8d, 0x15, 0x20, 0x00, 0x00, 0x00, 0xc3 };
	struct insn_code c = code(b, sizeof(b));
	uint64_t *a;
	size_t n;

	TEST_EQ(x86_insn_lea_targets_code(&c, &a, &n), 0);
	/* from each instruction's end: 7+0x10, 14-0x10, 25+0x20 */
	TEST_STREQ(addr_list(a, n), "+23 -2 +57");
	free(a);
	c = code(b + 14, 4);	/* lea 8(%rdi),%rax alone */
	TEST_EQ(x86_insn_lea_targets_code(&c, &a, &n), 0);
	TEST_EQ(n, 0);
	free(a);
}

static void test_go_split(void)
{
	/* cmp 0x10(%r14),%rsp; jbe +0x2b; sub $0x18,%rsp (Go 1.17+, small frame) */
	static const uint8_t small[] = { 0x49, 0x3b, 0x66, 0x10, 0x76, 0x2b, 0x48, 0x83, 0xec,
					 0x18 };
	/* lea -0x108(%rsp),%r12; cmp 0x10(%r14),%r12; jbe (rel32): a big frame */
	static const uint8_t big[] = { 0x4c, 0x8d, 0xa4, 0x24, 0xf8, 0xfe, 0xff, 0xff,
				       0x4d, 0x3b, 0x66, 0x10,
				       0x0f, 0x86, 0x00, 0x01, 0x00, 0x00,
				       0x48, 0x81, 0xec, 0x88, 0x01, 0x00, 0x00 };
	/* sub $0x18,%rsp; mov %rbp,0x10(%rsp): NOSPLIT, no check */
	static const uint8_t nosplit[] = { 0x48, 0x83, 0xec, 0x18, 0x48, 0x89, 0x6c, 0x24, 0x10,
					   0xc3 };
	/* push %rbp; cmp 0x10(%r14),%rsp; jbe: a check that does not start the code */
	static const uint8_t late[] = { 0x55, 0x49, 0x3b, 0x66, 0x10, 0x76, 0x2b };
	/* cmp %r14,%rsp with no jump after it */
	static const uint8_t nojump[] = { 0x49, 0x3b, 0x66, 0x10, 0x90, 0xc3 };
	struct insn_code c = code(small, sizeof(small));
	struct insn_go_check chk;

	TEST_EQ(x86_insn_go_split_end_code(&c, NULL) - BASE, 6);
	c = code(big, sizeof(big));
	TEST_EQ(x86_insn_go_split_end_code(&c, NULL) - BASE, 18);
	c = code(nosplit, sizeof(nosplit));
	TEST_EQ(x86_insn_go_split_end_code(&c, NULL) - BASE, 0);
	c = code(late, sizeof(late));
	TEST_EQ(x86_insn_go_split_end_code(&c, NULL) - BASE, 0);
	c = code(nojump, sizeof(nojump));
	TEST_EQ(x86_insn_go_split_end_code(&c, NULL) - BASE, 0);
	c = code(small, 4);	/* cut before the jump */
	TEST_EQ(x86_insn_go_split_end_code(&c, NULL) - BASE, 0);
	/* the jbe itself: after the cmp (+4), after lea and cmp (+12); none without a check */
	c = code(small, sizeof(small));
	x86_insn_go_split_end_code(&c, &chk);
	TEST_EQ(chk.branch - BASE, 4);
	TEST_EQ(chk.stub - BASE, 6 + 0x2b);		/* jbe rel8 +0x2b */
	c = code(big, sizeof(big));
	x86_insn_go_split_end_code(&c, &chk);
	TEST_EQ(chk.branch - BASE, 12);
	TEST_EQ(chk.stub - BASE, 18 + 0x100);		/* jbe rel32 +0x100 */
	c = code(nosplit, sizeof(nosplit));
	x86_insn_go_split_end_code(&c, &chk);
	TEST_EQ(chk.branch, 0);
	TEST_EQ(chk.stub, 0);
}

/* ---- the test targets ---- */

/* bin_open() - a test target under $UPFT_TARGETS (tests/targets/build.sh builds them) */
static bool bin_open(struct bin *b, const char *rel)
{
	const char *dir = getenv("UPFT_TARGETS");
	char *path = xasprintf("%s/%s", dir && *dir ? dir : "tests/build", rel);
	bool ok = bin_open_path(b, path);

	free(path);
	return ok;
}

/* go_results() - "~r0=%ax ~r1=%bx:8 %cx:8" for Go function @name */
static const char *go_results(struct bin *b, const char *name)
{
	static struct strbuf sb = STRBUF_INIT;
	struct abi_value *v;
	Dwarf_Die fn;
	size_t n;
	int ret;

	strbuf_reset(&sb);
	if (!find_func(b, name, &fn))
		return "(not found)";
	ret = abi_go_results(&fn, &v, &n);
	if (ret)
		return ret == -ENOENT ? "(none)" : "(error)";
	for (size_t i = 0; i < n; i++) {
		strbuf_addf(&sb, "%s%s=", i ? "; " : "", v[i].name);
		loc_text(&v[i].loc, &sb);
		if (!v[i].has_type)
			strbuf_addstr(&sb, " (no type)");
	}
	abi_values_free(v, n);
	return sb.buf;
}

static void test_go_abi(void)
{
	struct bin b;

	if (!bin_open(&b, "go/churn"))
		return;
	/* integer results from RAX, RBX, RCX ... on amd64, from R0, R1, R2 ... on arm64 */
	TEST_STREQ(go_results(&b, "main.add"), BY_MACHINE("~r0=%ax", "~r0=%x0"));
	TEST_STREQ(go_results(&b, "main.greet"), BY_MACHINE("~r0=%ax:8 %bx:8", "~r0=%x0:8 %x1:8"));
	TEST_STREQ(go_results(&b, "main.evens"),
		   BY_MACHINE("~r0=%ax:8 %bx:8 %cx:8", "~r0=%x0:8 %x1:8 %x2:8"));
	/* error is an interface: its type word and data, from RBX (R1) on */
	TEST_STREQ(go_results(&b, "main.divide"),
		   BY_MACHINE("~r0=%ax; ~r1=%bx:8 %cx:8", "~r0=%x0; ~r1=%x1:8 %x2:8"));
	TEST_STREQ(go_results(&b, "main.minmax"), BY_MACHINE("lo=%ax; hi=%bx", "lo=%x0; hi=%x1"));
	/* an array of 3 goes to the stack (after the return address on amd64, after the
	 * caller's saved-LR word on arm64); the next result starts from RAX (R0) again */
	TEST_STREQ(go_results(&b, "main.grid"),
		   BY_MACHINE("cells=+8(%sp); tag=%ax:8 %bx:8", "cells=+8(%sp); tag=%x0:8 %x1:8"));
	/* a float in X0 (F0), then the bool in RAX (R0): the two kinds count separately */
	TEST_STREQ(go_results(&b, "main.ratio"),
		   BY_MACHINE("~r0=bad(xmm); ~r1=%ax", "~r0=bad(v); ~r1=%x0"));
	TEST_STREQ(go_results(&b, "main.churn"), "(none)");
	bin_close(&b);
}

/* sysv_ret() - where the return value of @name is at its uretprobe, "void" for none */
static const char *sysv_ret(struct bin *b, const char *name, const struct lang_ops *lang)
{
	static struct strbuf sb = STRBUF_INIT;
	Dwarf_Die fn, type;
	struct loc l;

	strbuf_reset(&sb);
	if (!find_func(b, name, &fn))
		return "(not found)";
	if (!abi_return(&fn, lang, &type, &l))
		strbuf_addstr(&sb, "void ");
	loc_text(&l, &sb);
	loc_release(&l);
	return sb.buf;
}

static void test_sysv_abi(void)
{
	static const char *const c_bins[] = { "c/orders-O0", "c/orders-O2" };
	static const char *const cxx_bins[] = { "cpp/actors-O0", "cpp/actors-O2" };
	static const char *const rust_bins[] = { "rust/orders-O0", "rust/orders-O1" };
	struct bin b;

	for (size_t i = 0; i < ARRAY_SIZE(c_bins); i++) {
		if (!bin_open(&b, c_bins[i]))
			continue;
		TEST_STREQ(sysv_ret(&b, "check_customer", &lang_c), "$retval");
		TEST_STREQ(sysv_ret(&b, "lookup_name", &lang_c), "$retval");
		/* struct range { long lo, hi; }: two INTEGER eightbytes (x0 and x1 on arm64) */
		TEST_STREQ(sysv_ret(&b, "price_range", &lang_c),
			   BY_MACHINE("$retval:8 %dx:8", "$retval:8 %x1:8"));
		TEST_STREQ(sysv_ret(&b, "scale", &lang_c), BY_MACHINE("bad(xmm)", "bad(v)"));
		TEST_STREQ(sysv_ret(&b, "run_once", &lang_c), "void $retval");
		bin_close(&b);
	}
	for (size_t i = 0; i < ARRAY_SIZE(cxx_bins); i++) {
		if (!bin_open(&b, cxx_bins[i]))
			continue;
		TEST_STREQ(sysv_ret(&b, "shop::span", &lang_cxx),
			   BY_MACHINE("$retval:8 %dx:8", "$retval:8 %x1:8"));
		/* 8 bytes, but a destructor: in memory, its address in RAX; arm64 passes it in
		 * x8, which need not survive the call: refused there */
		TEST_STREQ(sysv_ret(&b, "shop::ticket", &lang_cxx),
			   BY_MACHINE("+0($retval)", "bad(x8)"));
		/* the same class read by C's rules fits in RAX (x0) */
		TEST_STREQ(sysv_ret(&b, "shop::ticket", &lang_c), "$retval");
		TEST_STREQ(sysv_ret(&b, "shop::Derived::tag", &lang_cxx),
			   BY_MACHINE("+0($retval)", "bad(x8)"));
		TEST_STREQ(sysv_ret(&b, "shop::make", &lang_cxx), "$retval");
		bin_close(&b);
	}
	for (size_t i = 0; i < ARRAY_SIZE(rust_bins); i++) {
		if (!bin_open(&b, rust_bins[i]))
			continue;
		TEST_STREQ(sysv_ret(&b, "orders::shop::total", &lang_rust), "$retval");
		/* String: 24 bytes, in memory (its address in x8 on arm64: refused) */
		TEST_STREQ(sysv_ret(&b, "orders::shop::label", &lang_rust),
			   BY_MACHINE("+0($retval)", "bad(x8)"));
		/* &str: a scalar pair, pointer and length */
		TEST_STREQ(sysv_ret(&b, "orders::shop::kind_name", &lang_rust),
			   BY_MACHINE("$retval:8 %dx:8", "$retval:8 %x1:8"));
		/* (u64, u32): a scalar pair, the second half in RDX (x1) */
		TEST_STREQ(sysv_ret(&b, "orders::shop::span", &lang_rust),
			   BY_MACHINE("$retval:8 %dx:8", "$retval:8 %x1:8"));
		bin_close(&b);
	}
}

/* func_range() - [@lo, @hi) of function @name */
static bool func_range(struct bin *b, const char *name, uint64_t *lo, uint64_t *hi)
{
	Dwarf_Addr l, h;
	Dwarf_Die fn;

	if (!find_func(b, name, &fn) || dwarf_lowpc(&fn, &l) || dwarf_highpc(&fn, &h))
		return false;
	*lo = l;
	*hi = h;
	return true;
}

/* The decoder on real code: Go's main.grow checks the stack first, its rets are c3 bytes. */
static void test_target_code(void)
{
	struct insn_at at;
	uint64_t lo, hi, end;
	uint64_t *a = NULL;
	struct insn_code c;
	/* a return instruction: x86-64's c3, arm64's d65f03c0 (little-endian) */
	static const uint8_t x86_ret[] = { 0xc3 }, arm64_ret[] = { 0xc0, 0x03, 0x5f, 0xd6 };
	const uint8_t *ret = BY_MACHINE(x86_ret, arm64_ret);
	size_t ret_len = BY_MACHINE(sizeof(x86_ret), sizeof(arm64_ret));
	bool all_ret = true;
	struct diag d;
	struct bin b;
	size_t n = 0;

	if (!bin_open(&b, "go/churn"))
		return;
	if (!func_range(&b, "main.grow", &lo, &hi))
		goto out;
	diag_init(&d, NULL);
	TEST_EQ(insn_rets(b.elf, "main.grow", lo, hi, &a, &n, &d), 0);
	TEST_TRUE(n >= 1);
	for (size_t i = 0; i < n; i++)
		if (insn_code_at(b.elf, a[i], a[i] + ret_len, &c) || memcmp(c.bytes, ret, ret_len))
			all_ret = false;
	TEST_TRUE(all_ret);
	free(a);
	end = insn_go_split_end(b.elf, lo, hi, NULL);
	TEST_TRUE(end > lo && end - lo <= 20);
	TEST_EQ(insn_boundary(b.elf, "main.grow", lo, hi, end, &at, &d), 1);
	/* inside the first instruction of the check ("leaq -0xa0(%rsp), %r12": a big frame;
	 * arm64: "ldr x16, [x28, #0x10]", the stack guard of the g in x28) */
	TEST_EQ(insn_boundary(b.elf, "main.grow", lo, hi, lo + 1, &at, &d), 0);
	TEST_EQ(at.insn, lo);
	TEST_TRUE(BY_MACHINE(strstr(at.text, "%r12") || strstr(at.text, "%r14"),
			     strstr(at.text, "x28") != NULL));
	TEST_TRUE(!diag_has_error(&d));
	/* an empty extent is an error naming the function */
	TEST_EQ(insn_rets(b.elf, "main.grow", lo, lo, &a, &n, &d), -EINVAL);
	TEST_TRUE(d.msg && strstr(d.msg, "main.grow"));
	diag_release(&d);
	diag_init(&d, NULL);
	/* code that is not in the file */
	TEST_EQ(insn_rets(b.elf, NULL, 0x10, 0x20, &a, &n, &d), -ENOENT);
	TEST_TRUE(d.msg && strstr(d.msg, "0x10-0x20"));
	diag_release(&d);
	bin_close(&b);
	/* a C function has no Go stack check */
	if (!bin_open(&b, "c/orders-O0"))
		return;
	if (func_range(&b, "check_customer", &lo, &hi))
		TEST_EQ(insn_go_split_end(b.elf, lo, hi, NULL), lo);
out:
	bin_close(&b);
}

/* floats in xmm: the copies a probe can read, and what the walks refuse */
static void test_xmm(void)
{
	/* client_golang's (*gauge).Set, Go 1.19: movq %xmm0,%rcx; xchg %rcx,(%rax); ret */
	static const uint8_t set[] = { 0x66, 0x48, 0x0f, 0x7e, 0xc1, 0x48, 0x87, 0x08, 0xc3 };
	/* its Add: jmp +3; mov %rbx,%rax; mov (%rax),%rcx; movq %rcx,%xmm1; addsd %xmm0,%xmm1;
	 * movq %xmm1,%rdx: val stays in xmm0 (the jmp's target comes first) */
	static const uint8_t add[] = { 0xeb, 0x03, 0x48, 0x89, 0xd8, 0x48, 0x8b, 0x08, 0x66, 0x48,
				       0x0f, 0x6e, 0xc9, 0xf2, 0x0f, 0x58, 0xc8, 0x66, 0x48, 0x0f,
				       0x7e, 0xca };
	/* -N -l: mov %rax,0x28(%rsp); movsd %xmm0,0x30(%rsp); nop */
	static const uint8_t spill[] = { 0x48, 0x89, 0x44, 0x24, 0x28, 0xf2, 0x0f, 0x11, 0x44,
					 0x24, 0x30, 0x90 };
	/* movapd %xmm0,%xmm1; pxor %xmm0,%xmm0; movq %xmm1,%rax; nop: through another xmm */
	static const uint8_t via[] = { 0x66, 0x0f, 0x28, 0xc8, 0x66, 0x0f, 0xef, 0xc0, 0x66, 0x48,
				       0x0f, 0x7e, 0xc8, 0x90 };
	/* movd %xmm0,%eax; nop: a float in a 32-bit register */
	static const uint8_t f32[] = { 0x66, 0x0f, 0x7e, 0xc0, 0x90 };
	/* gauge_value -O2: mov (%rdi),%rax; movq %rax,%xmm0; ret */
	static const uint8_t value[] = { 0x48, 0x8b, 0x07, 0x66, 0x48, 0x0f, 0x6e, 0xc0, 0xc3 };
	/* scale -O2: movapd %xmm0,%xmm1; pxor %xmm0,%xmm0; cvtsi2sd %edi,%xmm0;
	 * mulsd %xmm1,%xmm0; ret */
	static const uint8_t scale[] = { 0x66, 0x0f, 0x28, 0xc8, 0x66, 0x0f, 0xef, 0xc0, 0xf2, 0x0f,
					 0x2a, 0xc7, 0xf2, 0x0f, 0x59, 0xc1, 0xc3 };
	/* movq %rax,%xmm0; mov $1,%eax; ret: the register changes after the copy */
	static const uint8_t clobbered[] = { 0x66, 0x48, 0x0f, 0x6e, 0xc0, 0xb8, 0x01, 0x00, 0x00,
					     0x00, 0xc3 };
	struct strbuf why = STRBUF_INIT;
	struct insn_float_copy cp;
	uint64_t stop[] = { BASE + 5 };
	struct insn_code c = code(set, sizeof(set));

	TEST_EQ(x86_insn_xmm_copy_code(&c, 0, 8, NULL, 0, &cp, &why), 0);
	TEST_EQ(cp.at - BASE, 5);
	TEST_EQ(cp.reg, 2);
	TEST_STREQ(cp.text, "movd %xmm0, %rcx");	/* capstone 4 says movd */
	TEST_EQ(x86_insn_xmm_copy_code(&c, 1, 8, NULL, 0, &cp, &why), -ENOENT);
	TEST_STREQ(strbuf_cstr(&why), "'retq' at +0x8 comes before any copy");
	strbuf_reset(&why);
	c = code(add, sizeof(add));
	TEST_EQ(x86_insn_xmm_copy_code(&c, 0, 8, stop, 1, &cp, &why), -ENOENT);
	TEST_STREQ(strbuf_cstr(&why), "'jmp 0x401005' at +0x0 comes before any copy");
	strbuf_reset(&why);
	c = code(add + 5, sizeof(add) - 5);
	TEST_EQ(x86_insn_xmm_copy_code(&c, 0, 8, NULL, 0, &cp, &why), -ENOENT);
	TEST_STREQ(strbuf_cstr(&why), "no copy in its first 4 instructions");
	strbuf_reset(&why);
	c = code(spill, sizeof(spill));
	TEST_EQ(x86_insn_xmm_copy_code(&c, 0, 8, NULL, 0, &cp, &why), 0);
	TEST_EQ(cp.at - BASE, 11);
	TEST_EQ(cp.reg, -1);
	TEST_EQ(cp.base, 7);
	TEST_EQ(cp.disp, 0x30);
	c = code(via, sizeof(via));
	TEST_EQ(x86_insn_xmm_copy_code(&c, 0, 8, NULL, 0, &cp, &why), 0);
	TEST_EQ(cp.at - BASE, 13);
	TEST_EQ(cp.reg, 0);
	c = code(f32, sizeof(f32));
	TEST_EQ(x86_insn_xmm_copy_code(&c, 0, 4, NULL, 0, &cp, &why), 0);
	TEST_EQ(cp.reg, 0);
	TEST_EQ(x86_insn_xmm_copy_code(&c, 0, 8, NULL, 0, &cp, &why), -ENOENT);
	strbuf_reset(&why);
	c = code(value, sizeof(value));
	TEST_EQ(x86_insn_xmm_source_code(&c, BASE + 8, 0, 8, NULL, 0, &cp, &why), 0);
	TEST_EQ(cp.reg, 0);
	TEST_EQ(cp.copy - BASE, 3);
	c = code(scale, sizeof(scale));
	TEST_EQ(x86_insn_xmm_source_code(&c, BASE + 16, 0, 8, NULL, 0, &cp, &why), -ENOENT);
	TEST_STREQ(strbuf_cstr(&why), "'mulsd %xmm1, %xmm0' at +0xc sets it");
	strbuf_reset(&why);
	c = code(clobbered, sizeof(clobbered));
	TEST_EQ(x86_insn_xmm_source_code(&c, BASE + 10, 0, 8, NULL, 0, &cp, &why), -ENOENT);
	TEST_STREQ(strbuf_cstr(&why), "'movd %rax, %xmm0' at +0x0 sets it, and what it copies "
		   "from is changed before the return");
	strbuf_release(&why);
}

int main(void)
{
	elf_version(EV_CURRENT);
	test_xmm();
	test_rets();
	test_branches_to();
	test_boundary();
	test_lea();
	test_go_split();
	test_go_abi();
	test_sysv_abi();
	test_target_code();
	return TEST_DONE();
}
