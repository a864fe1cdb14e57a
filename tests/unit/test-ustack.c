// SPDX-License-Identifier: GPL-2.0-or-later
/* test-ustack.c - --stack's fields: the registers and the stack's copy, where a record has them */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>

#include "../../src/arch/arch.h"
#include "../../src/fetcharg.h"
#include "../../src/regs.h"
#include "../../src/ustack.h"
#include "unittest.h"

static void probe_init(struct trace_probe *tp, bool ret)
{
	memset(tp, 0, sizeof(*tp));
	tp->group = xstrdup("upft_t");
	tp->event = xstrdup("by_key");
	tp->path = xstrdup("/opt/sortcb");
	tp->offset = 0x1260;
	tp->is_return = ret;
}

static void test_fields(void)
{
	/* the machine's registers by DWARF number, the pc last: x86-64's rax..r15 and rip,
	 * arm64's x0-x30, sp (31) and the pc in DWARF's reserved 32, as perf fetches them */
	const int nr = BY_MACHINE(17, 33), sp = BY_MACHINE(7, 31);
	struct kernel_features kf;
	struct trace_probe tp;
	struct diag d;
	char name[32];

	kernel_features_default(&kf);
	probe_init(&tp, false);
	ustack_add_fields(&tp, 1024);
	/* the registers, then 1024 bytes as two u64[64] */
	TEST_EQ(regs_frame()->nr, nr);
	TEST_EQ(tp.nr_fields, nr + 2);
	TEST_STREQ(tp.fields[0].name, "upft_r0");
	TEST_STREQ(tp.fields[0].fetch, BY_MACHINE("%ax", "%x0"));
	TEST_STREQ(tp.fields[sp].fetch, "%sp");
	snprintf(name, sizeof(name), "upft_r%d", nr - 1);
	TEST_STREQ(tp.fields[nr - 1].name, name);
	TEST_STREQ(tp.fields[nr - 1].fetch, BY_MACHINE("%ip", "%pc"));
	TEST_STREQ(tp.fields[nr - 1].type, "x64");
	TEST_EQ(tp.fields[nr - 1].hidden, true);
	TEST_STREQ(tp.fields[nr].name, "upft_stk0");
	TEST_STREQ(tp.fields[nr].fetch, "+0(%sp)");
	TEST_STREQ(tp.fields[nr].type, "u64[64]");
	TEST_STREQ(tp.fields[nr + 1].fetch, "+512(%sp)");
	/* twice: nothing more */
	ustack_add_fields(&tp, 1024);
	TEST_EQ(tp.nr_fields, nr + 2);
	trace_probe_release(&tp);

	/* the largest: the last chunk shorter, exactly the kernel's 3072 bytes (x86-64: 367
	 * words, arm64: 351) */
	TEST_EQ(ustack_max_copy(), BY_MACHINE(2936, 2808));
	probe_init(&tp, false);
	ustack_add_fields(&tp, ustack_max_copy());
	TEST_EQ(tp.nr_fields, nr + 6);
	TEST_STREQ(tp.fields[nr + 5].fetch, "+2560(%sp)");
	TEST_STREQ(tp.fields[nr + 5].type, BY_MACHINE("u64[47]", "u64[31]"));
	diag_init(&d, NULL);
	TEST_EQ(fetcharg_check_limits(&tp, &kf, &d), 0);
	diag_release(&d);
	/* one more u64 and the event is too big */
	trace_probe_add_field(&tp, "n", BY_MACHINE("%di", "%x0"), "u64", false);
	diag_init(&d, NULL);
	TEST_EQ(fetcharg_check_limits(&tp, &kf, &d), -E2BIG);
	diag_release(&d);
	trace_probe_release(&tp);

	/* fp: the return address at an entry ($stack0; arm64: the link register), none for a
	 * return probe */
	probe_init(&tp, false);
	ustack_add_fields(&tp, 0);
	TEST_EQ(tp.nr_fields, 1);
	TEST_STREQ(tp.fields[0].name, USTACK_RET0_FIELD);
	TEST_STREQ(tp.fields[0].fetch, BY_MACHINE("$stack0", "%x30"));
	trace_probe_release(&tp);
	probe_init(&tp, true);
	ustack_add_fields(&tp, 0);
	TEST_EQ(tp.nr_fields, 0);
	trace_probe_release(&tp);
}

/* the fields of @bytes of copy at @off on, registers first; @gap bytes left after register @at */
static struct ustack_layout layout(int off, int bytes, int gap, int at)
{
	struct ustack_layout l;
	char name[32];

	ustack_layout_init(&l);
	TEST_EQ(ustack_layout_field(&l, "n", off - 8, 8), false);
	for (int r = 0; r < regs_frame()->nr; r++) {
		snprintf(name, sizeof(name), USTACK_REG_FIELD "%d", r);
		TEST_EQ(ustack_layout_field(&l, name, off, 8), true);
		off += 8 + (r == at ? gap : 0);
	}
	for (int i = 0; bytes > 0; i++, bytes -= 512) {
		int n = bytes < 512 ? bytes : 512;

		snprintf(name, sizeof(name), USTACK_COPY_FIELD "%d", i);
		TEST_EQ(ustack_layout_field(&l, name, off, n), true);
		off += n;
	}
	return l;
}

static void test_layout(void)
{
	struct ustack_layout l = layout(24, 1024, 0, -1);

	TEST_EQ(ustack_layout_ok(&l), true);
	TEST_EQ(l.regs_off, 24);
	TEST_EQ(l.nr_regs, BY_MACHINE(17, 33));
	TEST_EQ(l.copy_off, 24 + BY_MACHINE(17, 33) * 8);
	TEST_EQ(l.copy_size, 1024);
	l = layout(24, 600, 0, -1);
	TEST_EQ(ustack_layout_ok(&l), true);
	TEST_EQ(l.copy_size, 600);
	/* a register not where the ones before it end: not taken as a stack */
	l = layout(24, 1024, 8, 3);
	TEST_EQ(ustack_layout_ok(&l), false);
	/* no copy */
	l = layout(24, 0, 0, -1);
	TEST_EQ(ustack_layout_ok(&l), false);
	/* nothing at all */
	ustack_layout_init(&l);
	TEST_EQ(ustack_layout_ok(&l), false);
	TEST_EQ(ustack_layout_field(&l, "upft_rx", 0, 8), false);
	TEST_EQ(ustack_layout_field(&l, "upft_stkhi", 0, 8), false);
}

int main(void)
{
	test_fields();
	test_layout();
	return TEST_DONE();
}
