// SPDX-License-Identifier: GPL-2.0-or-later
/* test-aapcs64.c - the arm64 ABIs (AAPCS64) on the DWARF of functions cross-compiled for arm64
 * here (aarch64-linux-gnu-gcc: scripts/install-deps.sh --test), no root, no kernel, no arm64 */
#define LOG_DOMAIN "test-aapcs64"
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "../../src/arch/arm64-abi.h"
#include "../../src/lang.h"
#include "dietest.h"
#include "unittest.h"

/* what each function's parameters and result are; the expectations are in test_*() */
static const char fixture[] =
	"struct pair { long a, b; };\n"			/* 16 bytes: two x registers */
	"struct big { long a, b, c; };\n"		/* 24: by reference, result via x8 */
	"struct hfa3 { double x, y, z; };\n"		/* a homogeneous float aggregate */
	"struct mix { int i; float f; };\n"		/* 8 bytes, not all floats: x0 */
	"long f_ints(int a, long b, char c, void *p) { return a + b + c + (long)p; }\n"
	"struct pair f_pair(struct pair p, int k) { p.a += k; return p; }\n"
	"struct big f_big(struct big b, long k) { b.a += k; return b; }\n"
	"double f_hfa(struct hfa3 h, double d, int i) { return h.x + d + i; }\n"
	"long f_stack(long a, long b, long c, long d, long e, long f, long g, long h,\n"
	"	     long i, int j) { return a + b + c + d + e + f + g + h + i + j; }\n"
	"__int128 f_i128(int a, __int128 b) { return a + b; }\n"
	"struct mix f_mix(struct mix m) { return m; }\n"
	"long f_float_int(float x, long y) { return (long)x + y; }\n"
	"void f_void(void) { }\n";

static struct bin b;

/* build the fixture for arm64: a shared object, so that its DWARF needs no relocation */
static bool build(char *dir)
{
	char *src = xasprintf("%s/aapcs64.c", dir), *so = xasprintf("%s/aapcs64.so", dir);
	char *cmd = xasprintf("aarch64-linux-gnu-gcc -g -O0 -shared -nostdlib -fPIC -o %s %s", so,
			      src);
	FILE *f = fopen(src, "w");
	bool ok = f && fputs(fixture, f) >= 0;

	if (f)
		fclose(f);
	ok = ok && system(cmd) == 0;
	UT_REPORT(ok, "%s: %s (install gcc-aarch64-linux-gnu)", __FILE__, cmd);
	ok = ok && bin_open_path(&b, so);
	free(src);
	free(so);
	free(cmd);
	return ok;
}

/* params() - "a=%x0; b=%x1" for the parameters of @name at its entry, or "refused: WHY" */
static const char *params(const char *name)
{
	static struct strbuf sb = STRBUF_INIT;
	struct abi_value *v;
	const char *why;
	Dwarf_Die fn;
	size_t n;

	strbuf_reset(&sb);
	if (!find_func(&b, name, &fn))
		return "(not found)";
	if (arm64_abi_ops.entry_params(&fn, &lang_c, &v, &n, &why)) {
		strbuf_addf(&sb, "refused: %s", why);
		return sb.buf;
	}
	for (size_t i = 0; i < n; i++) {
		strbuf_addf(&sb, "%s%s=", i ? "; " : "", v[i].name);
		loc_text(&v[i].loc, &sb);
	}
	abi_values_free(v, n);
	return sb.buf;
}

/* ret() - where the result of @name is at its uretprobe */
static const char *ret(const char *name)
{
	static struct strbuf sb = STRBUF_INIT;
	Dwarf_Die fn, type;
	struct loc l;

	strbuf_reset(&sb);
	if (!find_func(&b, name, &fn))
		return "(not found)";
	if (!arm64_abi_ops.c_return(&fn, &lang_c, &type, &l))
		strbuf_addstr(&sb, "void ");
	loc_text(&l, &sb);
	loc_release(&l);
	return sb.buf;
}

static void test_params(void)
{
	TEST_STREQ(params("f_ints"), "a=%x0; b=%x1; c=%x2; p=%x3");
	TEST_STREQ(params("f_pair"), "p=%x0:8 %x1:8; k=%x2");
	/* over 16 bytes: a pointer to the caller's copy */
	TEST_STREQ(params("f_big"), "b=+0(%x0); k=%x1");
	/* an HFA takes v0-v2, the double v3; the int is still the first x register */
	TEST_STREQ(params("f_hfa"), "h=bad(v); d=bad(v); i=%x0");
	/* the ninth and tenth on the stack, from 0(sp): no return address there */
	TEST_STREQ(params("f_stack"), "a=%x0; b=%x1; c=%x2; d=%x3; e=%x4; f=%x5; g=%x6; h=%x7; "
		   "i=+0(%sp); j=+8(%sp)");
	/* a 16-byte aligned value starts at an even register */
	TEST_STREQ(params("f_i128"), "a=%x0; b=%x2:8 %x3:8");
	TEST_STREQ(params("f_mix"), "m=%x0");
	TEST_STREQ(params("f_float_int"), "x=bad(v); y=%x0");
	TEST_STREQ(params("f_void"), "");
}

static void test_returns(void)
{
	TEST_STREQ(ret("f_ints"), "$retval");
	TEST_STREQ(ret("f_pair"), "$retval:8 %x1:8");
	/* in the caller's memory, whose address (x8) the function need not keep */
	TEST_STREQ(ret("f_big"), "bad(x8)");
	TEST_STREQ(ret("f_hfa"), "bad(v)");
	TEST_STREQ(ret("f_i128"), "$retval:8 %x1:8");
	TEST_STREQ(ret("f_mix"), "$retval");
	TEST_STREQ(ret("f_void"), "void $retval");
}

int main(void)
{
	char dir[] = "/tmp/upft-aapcs64.XXXXXX";

	elf_version(EV_CURRENT);
	if (!mkdtemp(dir)) {
		UT_REPORT(false, "%s: mkdtemp", __FILE__);
		return TEST_DONE();
	}
	if (build(dir)) {
		test_params();
		test_returns();
		bin_close(&b);
	}
	{
		char *cmd = xasprintf("rm -rf %s", dir);

		if (system(cmd))
			UT_REPORT(false, "%s: %s", __FILE__, cmd);
		free(cmd);
	}
	return TEST_DONE();
}
