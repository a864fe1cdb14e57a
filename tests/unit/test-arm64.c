// SPDX-License-Identifier: GPL-2.0-or-later
/* test-arm64.c - the AArch64 instruction oracle on instruction words assembled by
 * aarch64-linux-gnu-as (objdump -d shown beside each): return sites, boundaries, what the
 * arm64 kernel does with a uprobe on each, Go's stack check, jump and adrp/add targets (no
 * root, no kernel) */
#define LOG_DOMAIN "test-arm64"
#include <errno.h>
#include <stdlib.h>

#include "../../src/arch/arm64-float.h"
#include "../../src/arch/arm64-insn.h"
#include "../../src/util.h"
#include "unittest.h"

#define BASE 0x400000

/* the assembled function: f at BASE */
static const uint32_t f[] = {
	0xf9400b90,	/* 00 ldr x16, [x28, #16] */
	0xeb3063ff,	/* 04 cmp sp, x16 */
	0x540002c9,	/* 08 b.ls 60 */
	0xa9be7bfd,	/* 0c stp x29, x30, [sp, #-32]! */
	0x910003fd,	/* 10 mov x29, sp */
	0xf9000fe0,	/* 14 str x0, [sp, #24] */
	0x580002c0,	/* 18 ldr x0, 70 (literal) */
	0xc85f7c41,	/* 1c ldxr x1, [x2] */
	0xc8dffc41,	/* 20 ldar x1, [x2] */
	0xb40001a0,	/* 24 cbz x0, 58 */
	0x97fffff6,	/* 28 bl 0 */
	0x37180160,	/* 2c tbnz w0, #3, 58 */
	0x90000000,	/* 30 adrp x0, 0 (this page) */
	0x91004000,	/* 34 add x0, x0, #0x10 */
	0x10fffe41,	/* 38 adr x1, 0 */
	0xd61f0060,	/* 3c br x3 */
	0xd4000001,	/* 40 svc #0 */
	0xd53bd040,	/* 44 mrs x0, tpidr_el0 */
	0xd503233f,	/* 48 paciasp */
	0xd50323bf,	/* 4c autiasp */
	0xd503201f,	/* 50 nop */
	0xd503245f,	/* 54 bti c */
	0xd65f03c0,	/* 58 ret */
	0xd65f0bff,	/* 5c retaa */
	0x97ffffe8,	/* 60 bl 0 */
	0x17ffffe7,	/* 64 b 0 */
};

static uint8_t bytes[sizeof(f)];

static struct insn_code code(size_t from, size_t n)
{
	return (struct insn_code){ .bytes = bytes + from * 4, .len = n * 4,
				    .addr = BASE + from * 4 };
}

static const char *addr_list(const uint64_t *a, size_t n)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%+lld", i ? " " : "", (long long)(a[i] - BASE));
	return sb.buf ? sb.buf : "";
}

static void test_costs(void)
{
	static const char *const want[] = {
		"single-stepped", "single-stepped", "emulated", "single-stepped",
		"single-stepped", "single-stepped", "refused by the kernel",
		"refused by the kernel", "single-stepped", "emulated", "emulated",
		"emulated", "emulated", "single-stepped", "emulated", "emulated",
		"refused by the kernel", "single-stepped", "single-stepped",
		"refused by the kernel", "single-stepped", "single-stepped", "emulated",
		"refused by the kernel", "emulated", "emulated",
	};

	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		TEST_STREQ(probe_cost_name(arm64_insn_probe_cost(f[i])), want[i]);
	/* mrs of daif is the one system register the kernel does not step */
	TEST_STREQ(probe_cost_name(arm64_insn_probe_cost(0xd53b4220)), "refused by the kernel");
}

static void test_rets_and_targets(void)
{
	struct insn_code c = code(0, ARRAY_SIZE(f));
	uint64_t *a;
	size_t n;
	bool indirect;

	TEST_EQ(arm64_insn_rets_code(&c, &a, &n), 0);
	TEST_STREQ(addr_list(a, n), "+88 +92");
	free(a);
	TEST_EQ(arm64_insn_jump_targets_code(&c, &a, &n, &indirect), 0);
	TEST_STREQ(addr_list(a, n), "+96 +88 +0 +88 +0 +0");
	TEST_TRUE(indirect);
	free(a);
	TEST_EQ(arm64_insn_branches_to_code(&c, BASE), 3);
	TEST_EQ(arm64_insn_branches_to_code(&c, BASE + 0x58), 2);
	TEST_EQ(arm64_insn_adr_targets_code(&c, &a, &n), 0);
	TEST_STREQ(addr_list(a, n), "+16 +0");
	free(a);
	/* no ret in the first ten */
	c = code(0, 10);
	TEST_EQ(arm64_insn_rets_code(&c, &a, &n), 0);
	TEST_EQ(n, 0);
	free(a);
}

static void test_boundary(void)
{
	struct insn_code c = code(0, ARRAY_SIZE(f));
	struct insn_at at;

	TEST_EQ(arm64_insn_boundary_code(&c, BASE + 0x14, &at), 1);
	TEST_EQ(arm64_insn_boundary_code(&c, BASE + 0x16, &at), 0);
	TEST_EQ(at.insn, BASE + 0x14);
	TEST_STREQ(at.text, "str x0, [sp, #0x18]");
	TEST_STREQ(addr_list(at.near, at.nr_near), "+8 +12 +16 +20 +24 +28 +32");
	TEST_EQ(arm64_insn_boundary_code(&c, BASE + 0x1000, &at), -EINVAL);
}

static void test_go_split(void)
{
	static const uint8_t big[] = {
		0x90, 0x0b, 0x40, 0xf9,	/* ldr x16, [x28, #16] */
		0xf1, 0x07, 0x40, 0xd1,	/* sub x17, sp, #0x1, lsl #12 */
		0x3f, 0x02, 0x10, 0xeb,	/* cmp x17, x16 */
		0x69, 0x00, 0x00, 0x54,	/* b.ls +0xc */
		0xfd, 0x7b, 0xbe, 0xa9,	/* stp x29, x30, [sp, #-32]! */
	};
	struct insn_code c = code(0, ARRAY_SIZE(f));
	struct insn_go_check chk;

	TEST_EQ(arm64_insn_go_split_end_code(&c, &chk), BASE + 0xc);
	TEST_EQ(chk.branch, BASE + 8);
	TEST_EQ(chk.stub, BASE + 0x60);
	/* NOSPLIT: no check, the entry itself */
	c = code(3, 4);
	TEST_EQ(arm64_insn_go_split_end_code(&c, &chk), BASE + 0xc);
	TEST_EQ(chk.branch, 0);
	c = (struct insn_code){ .bytes = big, .len = sizeof(big), .addr = BASE };
	TEST_EQ(arm64_insn_go_split_end_code(&c, &chk), BASE + 0x10);
	TEST_EQ(chk.stub, BASE + 0x18);
	/* a frame past 4 KiB (go/orders main.bigframe): the size in x27, subs, b.lo, then cmp */
	static const uint8_t huge[] = {
		0x90, 0x0b, 0x40, 0xf9,	/* ldr x16, [x28, #16] */
		0x1b, 0xf4, 0x83, 0xd2,	/* mov x27, #0x1fa0 */
		0xf1, 0x63, 0x3b, 0xeb,	/* subs x17, sp, x27 */
		0x63, 0x00, 0x00, 0x54,	/* b.lo +0xc */
		0x3f, 0x02, 0x10, 0xeb,	/* cmp x17, x16 */
		0x29, 0x00, 0x00, 0x54,	/* b.ls +0x4 */
	};
	c = (struct insn_code){ .bytes = huge, .len = sizeof(huge), .addr = BASE };
	TEST_EQ(arm64_insn_go_split_end_code(&c, &chk), BASE + 0x18);
	TEST_EQ(chk.branch, BASE + 0x14);
	TEST_EQ(chk.stub, BASE + 0x18);
	/* LS: C clear or Z set (NZCV in bits 31-28) */
	TEST_TRUE(arm64_go_split_taken(0));
	TEST_TRUE(arm64_go_split_taken(0x60000000));
	TEST_TRUE(!arm64_go_split_taken(0x20000000));
}

static void test_straight(void)
{
	struct insn_code c = code(3, 10);
	struct insn_info in[16];
	size_t n;

	TEST_EQ(arm64_insn_straight_code(&c, in, ARRAY_SIZE(in), &n), 0);
	TEST_EQ(n, 7);		/* stp ... cbz */
	TEST_STREQ(in[0].text, "stp x29, x30, [sp, #-0x20]!");
	TEST_EQ(in[0].regs_written, 1ull << 31);	/* sp (writeback) */
	TEST_TRUE(in[0].stores);
	TEST_EQ(in[1].regs_written, 1ull << 29);	/* mov x29, sp */
	TEST_TRUE(!in[1].stores);
	TEST_TRUE(in[2].stores);			/* str */
	TEST_EQ(in[3].regs_written, 1ull << 0);		/* ldr x0, =lit */
	TEST_STREQ(probe_cost_name(in[3].cost), "refused by the kernel");
	TEST_TRUE(in[6].ends_straight);			/* cbz */
	/* a PAC hint capstone 4 may not know: x30 is signed in place */
	c = code(18, 2);
	TEST_EQ(arm64_insn_straight_code(&c, in, ARRAY_SIZE(in), &n), 0);
	TEST_EQ(n, 2);
	TEST_TRUE(in[0].regs_written & (1ull << 30));
	/* a frame record's return address without its PAC bits */
	TEST_EQ(arm64_pac_strip(0x003f0000aaaa1234ull), 0xaaaa1234ull);
	TEST_EQ(arm64_pac_strip(0xffffaaaa1234ull), 0xffffaaaa1234ull);
}

/* floats in v registers: the copies a probe can read (words from aarch64-linux-gnu-as) */
static const uint32_t fl[] = {
	0x9e660001,	/* 00 fmov x1, d0		(go/nums main.(*gauge).Set) */
	0xc89ffc01,	/* 04 stlr x1, [x0] */
	0xd65f03c0,	/* 08 ret */
	0xfd0023e0,	/* 0c str d0, [sp, #64]	(go/nums-N: its spill) */
	0xd503201f,	/* 10 nop */
	0x1e604001,	/* 14 fmov d1, d0 */
	0x9e660022,	/* 18 fmov x2, d1 */
	0xd65f03c0,	/* 1c ret */
	0x1e260000,	/* 20 fmov w0, s0 */
	0xd503201f,	/* 24 nop */
	0x1e602800,	/* 28 fadd d0, d0, d0 */
	0x9e660001,	/* 2c fmov x1, d0 */
	0xd65f03c0,	/* 30 ret */
	0xc8dffc08,	/* 34 ldar x8, [x0]	(rust/nums-O1 Gauge::value) */
	0x9e670100,	/* 38 fmov d0, x8 */
	0xd65f03c0,	/* 3c ret */
	0x9e620001,	/* 40 scvtf d1, x0	(go/nums main.scale) */
	0x1e610800,	/* 44 fmul d0, d0, d1 */
	0xd65f03c0,	/* 48 ret */
	0x9e670000,	/* 4c fmov d0, x0 */
	0xd2800020,	/* 50 mov x0, #1 */
	0xd65f03c0,	/* 54 ret */
	0xfd400be0,	/* 58 ldr d0, [sp, #16]	(c/nums-O0 gauge_value) */
	0x910083ff,	/* 5c add sp, sp, #0x20 */
	0xd65f03c0,	/* 60 ret */
	0xfc1f83a0,	/* 64 stur d0, [x29, #-8] */
	0xd503201f,	/* 68 nop */
	0xfd400420,	/* 6c ldr d0, [x1, #8] */
	0xd65f03c0,	/* 70 ret */
};

static void test_float(void)
{
	static uint8_t b[sizeof(fl)];
	struct strbuf why = STRBUF_INIT;
	struct insn_float_copy cp;
	struct insn_code c;

	for (size_t i = 0; i < ARRAY_SIZE(fl); i++)
		for (int k = 0; k < 4; k++)
			b[i * 4 + k] = (uint8_t)(fl[i] >> (8 * k));
#define FL(from, n) ((struct insn_code){ .bytes = b + (from) * 4, .len = (n) * 4, \
					 .addr = BASE + (from) * 4 })
	c = FL(0, 3);
	TEST_EQ(arm64_float_copy_code(&c, 0, 8, NULL, 0, &cp, &why), 0);
	TEST_EQ(cp.at - BASE, 4);
	TEST_EQ(cp.reg, 1);
	TEST_STREQ(cp.text, "fmov x1, d0");
	TEST_EQ(arm64_float_copy_code(&c, 1, 8, NULL, 0, &cp, &why), -ENOENT);
	TEST_STREQ(strbuf_cstr(&why), "'ret' at +0x8 comes before any copy");
	strbuf_reset(&why);
	c = FL(3, 2);
	TEST_EQ(arm64_float_copy_code(&c, 0, 8, NULL, 0, &cp, &why), 0);
	TEST_EQ(cp.reg, -1);
	TEST_EQ(cp.base, 31);		/* sp */
	TEST_EQ(cp.disp, 64);
	c = FL(5, 3);			/* through v1 */
	TEST_EQ(arm64_float_copy_code(&c, 0, 8, NULL, 0, &cp, &why), 0);
	TEST_EQ(cp.at - BASE, 0x1c);
	TEST_EQ(cp.reg, 2);
	c = FL(8, 2);			/* a float in w0: 4 bytes, not a double's 8 */
	TEST_EQ(arm64_float_copy_code(&c, 0, 4, NULL, 0, &cp, &why), 0);
	TEST_EQ(cp.reg, 0);
	TEST_EQ(arm64_float_copy_code(&c, 0, 8, NULL, 0, &cp, &why), -ENOENT);
	strbuf_reset(&why);
	c = FL(10, 3);
	TEST_EQ(arm64_float_copy_code(&c, 0, 8, NULL, 0, &cp, &why), -ENOENT);
	TEST_STREQ(strbuf_cstr(&why), "'fadd d0, d0, d0' at +0x0 overwrites it before any copy");
	strbuf_reset(&why);
	c = FL(25, 2);
	TEST_EQ(arm64_float_copy_code(&c, 0, 8, NULL, 0, &cp, &why), 0);
	TEST_EQ(cp.base, 29);
	TEST_EQ(cp.disp, -8);
	/* results */
	c = FL(13, 3);
	TEST_EQ(arm64_float_source_code(&c, BASE + 0x3c, 0, 8, NULL, 0, &cp, &why), 0);
	TEST_EQ(cp.reg, 8);
	TEST_EQ(cp.copy - BASE, 0x38);
	TEST_EQ(cp.at - BASE, 0x3c);
	c = FL(16, 3);
	TEST_EQ(arm64_float_source_code(&c, BASE + 0x48, 0, 8, NULL, 0, &cp, &why), -ENOENT);
	TEST_STREQ(strbuf_cstr(&why), "'fmul d0, d0, d1' at +0x4 sets it");
	strbuf_reset(&why);
	c = FL(19, 3);
	TEST_EQ(arm64_float_source_code(&c, BASE + 0x54, 0, 8, NULL, 0, &cp, &why), -ENOENT);
	TEST_STREQ(strbuf_cstr(&why), "'fmov d0, x0' at +0x0 sets it, and what it copies from "
		   "is changed before the return");
	strbuf_reset(&why);
	c = FL(22, 3);			/* the slot is below sp at the return */
	TEST_EQ(arm64_float_source_code(&c, BASE + 0x60, 0, 8, NULL, 0, &cp, &why), -ENOENT);
	TEST_STREQ(strbuf_cstr(&why), "'ldr d0, [sp, #0x10]' at +0x0 sets it, and what it "
		   "copies from is changed before the return");
	strbuf_reset(&why);
	c = FL(27, 2);
	TEST_EQ(arm64_float_source_code(&c, BASE + 0x70, 0, 8, NULL, 0, &cp, &why), -ENOENT);
	TEST_STREQ(strbuf_cstr(&why), "'ldr d0, [x1, #8]' at +0x0 loads it from memory that is "
		   "not the stack (another thread may change it)");
#undef FL
	strbuf_release(&why);
}

int main(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		for (int k = 0; k < 4; k++)
			bytes[i * 4 + k] = (uint8_t)(f[i] >> (8 * k));
	test_costs();
	test_rets_and_targets();
	test_boundary();
	test_go_split();
	test_straight();
	test_float();
	return TEST_DONE();
}
