// SPDX-License-Identifier: GPL-2.0-or-later
/* test-place.c - the choice of a probe's address (issue 10): what a hit costs per encoding,
 * what an instruction writes, the parameters at an entry from the System V ABI, and the
 * address resolve_probe() settles on for the test targets (no root, no kernel) */
#include <dwarf.h>
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../src/arch/abi.h"
#include "../../src/arch/arch.h"
#include "../../src/debuginfo.h"
#include "../../src/fetcharg.h"
#include "../../src/funcs.h"
#include "../../src/parse.h"
#include "../../src/place.h"
#include "../../src/resolve.h"
#include "../../src/arch/x86-insn.h"
#include "targets.h"
#include "unittest.h"

#define BASE 0x401000

static enum probe_cost cost_of(const uint8_t *b, size_t n)
{
	struct insn_code c = { .bytes = b, .len = n, .addr = BASE };
	struct insn_info in;
	size_t nr = 0;

	if (x86_insn_straight_code(&c, &in, 1, &nr) || nr != 1 || in.size != n)
		return (enum probe_cost)-1;
	return in.cost;
}

#define COST(want, ...)                                                                 \
	do {                                                                            \
		static const uint8_t b_[] = { __VA_ARGS__ };                            \
		TEST_STREQ(probe_cost_name(cost_of(b_, sizeof(b_))), want);        \
	} while (0)

/* the table measured by bench/insn-cost.sh on 6.18 */
static void test_cost(void)
{
	COST("emulated", 0x55);				/* push %rbp */
	COST("emulated", 0x53);				/* push %rbx */
	COST("emulated", 0x41, 0x57);			/* push %r15 */
	COST("emulated", 0x90);				/* nop */
	COST("emulated", 0x66, 0x90);			/* xchg %ax,%ax */
	COST("emulated", 0x0f, 0x1f, 0x00);		/* nopl (%rax) */
	COST("emulated", 0x0f, 0x1f, 0x40, 0x00);	/* nopl 0(%rax) */
	COST("emulated", 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00);	/* nopw */
	COST("optimized", 0x0f, 0x1f, 0x44, 0x00, 0x00);	/* nopl 0(%rax,%rax,1) */
	COST("emulated", 0xe8, 0x00, 0x00, 0x00, 0x00);	/* call rel32 */
	COST("emulated", 0xe9, 0x00, 0x00, 0x00, 0x00);	/* jmp rel32 */
	COST("emulated", 0xeb, 0x00);			/* jmp rel8 */
	COST("emulated", 0x76, 0x10);			/* jbe rel8 */
	COST("emulated", 0x0f, 0x86, 0, 0, 0, 0);	/* jbe rel32 */
	COST("single-stepped", 0xf3, 0x0f, 0x1e, 0xfa);	/* endbr64 */
	COST("single-stepped", 0x48, 0x89, 0xe5);	/* mov %rsp,%rbp */
	COST("single-stepped", 0x48, 0x89, 0x7d, 0xf8);	/* mov %rdi,-8(%rbp) */
	COST("single-stepped", 0x48, 0x83, 0xec, 0x18);	/* sub $0x18,%rsp */
	COST("single-stepped", 0x31, 0xc0);		/* xor %eax,%eax */
	COST("single-stepped", 0xc3);			/* ret */
	COST("single-stepped", 0x5d);			/* pop %rbp */
	COST("single-stepped", 0xff, 0xd0);		/* call *%rax */
	COST("single-stepped", 0x49, 0x3b, 0x66, 0x10);	/* cmp 0x10(%r14),%rsp */
	COST("single-stepped", 0x66, 0x50);		/* push %ax: not measured */
}

/* what straight code writes, where it stops */
static void test_straight(void)
{
	/* endbr64; push %rbp; mov %rsp,%rbp; mov %rdi,-8(%rbp); call rel32; nop */
	static const uint8_t b[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x55, 0x48, 0x89, 0xe5,
				     0x48, 0x89, 0x7d, 0xf8, 0xe8, 0x00, 0x00, 0x00, 0x00, 0x90 };
	struct insn_code c = { .bytes = b, .len = sizeof(b), .addr = BASE };
	struct insn_info in[8];
	size_t n = 0;

	TEST_EQ(x86_insn_straight_code(&c, in, 8, &n), 0);
	TEST_EQ(n, 5);		/* up to and including the call */
	TEST_EQ(in[0].regs_written, 0);
	TEST_EQ(in[1].regs_written, 1u << 7);			/* push: %rsp */
	TEST_TRUE(!in[1].stores);				/* its slot does not count */
	TEST_EQ(in[2].regs_written, 1u << 6);			/* %rbp */
	TEST_TRUE(in[3].stores);
	TEST_TRUE(in[4].ends_straight);
	TEST_STREQ(in[1].text, "pushq %rbp");
	TEST_EQ(in[4].addr, BASE + 12);
	n = 0;
	TEST_EQ(x86_insn_straight_code(&c, in, 2, &n), 0);
	TEST_EQ(n, 2);
	{
		/* test %edi,%edi; jle +2; xor %eax,%eax; ret; add $1,%eax; jmp -7 (to the xor) */
		static const uint8_t j[] = { 0x85, 0xff, 0x7e, 0x03, 0x31, 0xc0, 0xc3,
					     0x83, 0xc0, 0x01, 0xeb, 0xf8 };
		struct insn_code jc = { .bytes = j, .len = sizeof(j), .addr = BASE };
		bool indirect = true;
		uint64_t *t = NULL;

		TEST_EQ(x86_insn_straight_code(&jc, in, 8, &n), 0);
		TEST_EQ(n, 2);
		TEST_EQ(in[0].regs_written, 1ull << INSN_FLAGS_BIT);
		TEST_EQ(x86_insn_jump_targets_code(&jc, &t, &n, &indirect), 0);
		TEST_EQ(n, 2);
		TEST_TRUE(!indirect);
		TEST_TRUE(n == 2 && t[0] == BASE + 7 && t[1] == BASE + 4);
		free(t);
	}
	{
		/* jmp *%rax: a table can go anywhere */
		static const uint8_t ij[] = { 0xff, 0xe0 };
		struct insn_code ic = { .bytes = ij, .len = sizeof(ij), .addr = BASE };
		bool indirect = false;
		uint64_t *t = NULL;

		TEST_EQ(x86_insn_jump_targets_code(&ic, &t, &n, &indirect), 0);
		TEST_TRUE(indirect);
		free(t);
	}
}

/* ---- the test targets ---- */

/* "%di %si:8 +8(%sp) bad pad" for a struct loc */
static void loc_text(const struct loc *l, struct strbuf *sb)
{
	for (size_t i = 0; i < l->nr; i++) {
		const struct loc_piece *p = &l->pieces[i];

		if (i)
			strbuf_addch(sb, ' ');
		if (p->kind == LOC_VAL)
			strbuf_addstr(sb, p->fetch);
		else if (p->kind == LOC_MEM)
			strbuf_addf(sb, "%+lld(%s)", (long long)p->off, p->base ? p->base : "@");
		else if (p->kind == LOC_BAD)
			strbuf_addstr(sb, "bad");
		else
			strbuf_addstr(sb, "pad");
		if (p->size)
			strbuf_addf(sb, ":%u", p->size);
	}
}

/* "a=%di b=%si ..." for function @name's parameters at its entry, or "refused: WHY" */
static char *entry_text(struct debuginfo *dbg, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	struct func *f = NULL;
	struct abi_value *v;
	const char *why;
	struct diag d;
	size_t nf = 0, n;

	strbuf_init(&sb);
	diag_init(&d, name);
	if (funcs_find(dbg, name, &f, &nf, &d) || !nf || !f[0].has_die) {
		strbuf_addstr(&sb, "(not found)");
		goto out;
	}
	if (abi_entry_params(&f[0].die, lang_for(f[0].lang), &v, &n, &why)) {
		strbuf_addf(&sb, "refused: %s", why);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		strbuf_addf(&sb, "%s%s=", i ? " " : "", v[i].name);
		loc_text(&v[i].loc, &sb);
	}
	abi_values_free(v, n);
out:
	funcs_free(f, nf);
	diag_release(&d);
	return strbuf_detach(&sb);
}

#define ENTRY(dbg, fn, want)                                                            \
	do {                                                                            \
		char *t_ = entry_text(dbg, fn);                                         \
		TEST_STREQ(t_, want);                                                   \
		free(t_);                                                               \
	} while (0)

static void test_entry_abi(void)
{
	static const char *const bins[] = { "c/entry-O0", "c/entry-O2" };

	for (size_t i = 0; i < 2; i++) {
		struct debuginfo *dbg = open_target(bins[i]);

		if (!dbg)
			continue;
		/* System V on x86-64, AAPCS64 on arm64 (x0-x7, then the stack from 0(sp): no
		 * return address there) */
		ENTRY(dbg, "pa_target", BY_MACHINE("a=%di b=%si c=%dx s=%cx",
						   "a=%x0 b=%x1 c=%x2 s=%x3"));
		ENTRY(dbg, "eight", BY_MACHINE("a=%di b=%si c=%dx d=%cx e=%r8 f=%r9 g=+8(%sp) "
					       "h=+16(%sp) i=+24(%sp) j=+32(%sp)",
					       "a=%x0 b=%x1 c=%x2 d=%x3 e=%x4 f=%x5 g=%x6 h=%x7 "
					       "i=+0(%sp) j=+8(%sp)"));
		/* pt in one register; big on the stack (arm64: over 16 bytes, by reference in
		 * x1); k; mix: INTEGER then SSE (arm64: not all floats, two x registers) */
		ENTRY(dbg, "bystruct", BY_MACHINE("p=%di bg=+8(%sp) k=%si m=%dx:8 bad:8",
						  "p=%x0 bg=+0(%x1) k=%x2 m=%x3:8 %x4:8"));
		/* five registers used, the pair needs two: the stack; f takes the sixth (arm64:
		 * x5 and x6 for the pair, f in x7) */
		ENTRY(dbg, "spill", BY_MACHINE("a=%di b=%si c=%dx d=%cx e=%r8 p=+8(%sp) f=%r9",
					       "a=%x0 b=%x1 c=%x2 d=%x3 e=%x4 p=%x5:8 %x6:8 f=%x7"));
		ENTRY(dbg, "scaled", BY_MACHINE("x=bad y=%di", "x=bad y=%x0"));
		ENTRY(dbg, "sum", "refused: variadic");
		/* the hidden pointer takes RDI; arm64 passes it in x8, the arguments stay */
		ENTRY(dbg, "retbig", BY_MACHINE("refused: returns a struct through a hidden pointer",
						"v=%x0 w=%x1"));
		debuginfo_free(dbg);
	}
	{
		struct debuginfo *dbg = open_target("go/orders");

		if (dbg) {
			/* Go's register ABI (used where its DWARF is broken) */
			ENTRY(dbg, "main.(*Store).Add", BY_MACHINE("s=%ax o=%bx", "s=%x0 o=%x1"));
			debuginfo_free(dbg);
		}
		/* a string, a slice (whose DWARF pieces are broken there), a bool */
		dbg = open_target("go/shapes");
		if (dbg) {
			ENTRY(dbg, "main.parse",
			      BY_MACHINE("name=%ax:8 %bx:8 src=%cx:8 %di:8 %si:8 ok=%r8",
					 "name=%x0:8 %x1:8 src=%x2:8 %x3:8 %x4:8 ok=%x5"));
			debuginfo_free(dbg);
		}
	}
}

/* resolve_probe()'s address for @probe as "+OFF fetch fetch ..." from the function's entry */
static char *chosen(struct debuginfo *dbg, const char *probe)
{
	struct strbuf sb = STRBUF_INIT;
	struct resolve_opts o = { 0 };
	struct probe_spec spec = { 0 };
	struct trace_probe *tps = NULL;
	struct func *f = NULL;
	size_t nr = 0, nf = 0;
	struct diag d;

	kernel_features_default(&o.kf);
	strbuf_init(&sb);
	diag_init(&d, probe);
	if (parse_probe(probe, &spec, &d) || resolve_probe(&spec, dbg, &o, &tps, &nr, NULL, &d) ||
	    funcs_find(dbg, spec.place.func, &f, &nf, &d) || !nf) {
		strbuf_addf(&sb, "error: %s", d.msg ? d.msg : "?");
		goto out;
	}
	strbuf_addf(&sb, "+%llu", (unsigned long long)(tps[0].vaddr - f[0].entry));
	for (size_t i = 0; i < tps[0].nr_fields; i++)
		strbuf_addf(&sb, " %s", tps[0].fields[i].fetch);
out:
	funcs_free(f, nf);
	trace_probes_free(tps, nr);
	probe_spec_release(&spec);
	diag_release(&d);
	return strbuf_detach(&sb);
}

#define CHOSEN(dbg, probe, want)                                                        \
	do {                                                                            \
		char *t_ = chosen(dbg, probe);                                          \
		TEST_STREQ(t_, want);                                                   \
		free(t_);                                                               \
	} while (0)

/* the choice for @probe holds @needle ("(%bp)": past the prologue, in its stack slots) */
#define CHOSEN_HAS(dbg, probe, needle)                                                  \
	do {                                                                            \
		char *t_ = chosen(dbg, probe);                                          \
		UT_REPORT(strstr(t_, needle) != NULL, "%s:%d: %s: \"%s\" in \"%s\"",     \
			  __FILE__, __LINE__, probe, needle, t_);                       \
		free(t_);                                                               \
	} while (0)

static void test_choice(void)
{
	struct debuginfo *dbg = open_target("c/entry-O0");

	if (dbg) {
		/* the entry's push %rbp, the ABI's registers and stack (s: its pointer too, NULL is
		 * no fault); arm64's gcc -O0 names the slots by sp, which its first instruction
		 * moves: past the stores of the prologue (pa_target's four str, eight's eight) */
		CHOSEN(dbg, "pa_target a b c s",
		       BY_MACHINE("+0 %di %si %dx +0(%cx) %cx",
				  "+20 +24(%sp) +16(%sp) +8(%sp) +0(+0(%sp)) +0(%sp)"));
		CHOSEN(dbg, "eight f g j",
		       BY_MACHINE("+0 %r9 +8(%sp) +32(%sp)", "+36 +16(%sp) +8(%sp) +72(%sp)"));
		CHOSEN(dbg, "pa_target", BY_MACHINE("+0", "+20"));
		/* past the prologue: not safe from the ABI, or not readable at the entry */
		CHOSEN_HAS(dbg, "sum n", BY_MACHINE("(%bp)", "(%sp)"));
		CHOSEN_HAS(dbg, "retbig v", BY_MACHINE("(%bp)", "(%sp)"));
		CHOSEN_HAS(dbg, "scaled x", BY_MACHINE("(%bp)", "(%sp)"));
		CHOSEN_HAS(dbg, "counted a twice", BY_MACHINE("(%bp)", "(%sp)"));
		/* a part of a register for a struct member (arm64: x0's slot, str x0, [sp, #40]) */
		CHOSEN(dbg, "bystruct p.y", BY_MACHINE("+0 %di", "+20 +44(%sp)"));
		debuginfo_free(dbg);
	}
	dbg = open_target("c/entry-O2");
	if (dbg) {
		CHOSEN(dbg, "pa_target a b c s", BY_MACHINE("+0 %di %si %dx +0(%cx) %cx",
							   "+0 %x0 %x1 %x2 +0(%x3) %x3"));
		debuginfo_free(dbg);
	}
	dbg = open_target("c/orders-O2");
	if (dbg) {
		/* test %edi,%edi; jle: the jle, as nothing the probe reads has moved (arm64: "mov
		 * w5, w0; cmp w0, #0; b.le": the simulated b.le, as cmp writes only the flags) */
		CHOSEN(dbg, "sum_loop n", BY_MACHINE("+2 %di", "+8 %x0"));
		/* a uretprobe's breakpoint too: %sp still points at the return address (arm64:
		 * x30 still holds it, at the simulated b.le) */
		CHOSEN(dbg, "sum_loop%return $retval", BY_MACHINE("+2 $retval", "+8 $retval"));
		setenv("UPFRONT_PLACEMENT", "plain", 1);
		CHOSEN(dbg, "sum_loop n", BY_MACHINE("+0 %di", "+0 %x0"));
		unsetenv("UPFRONT_PLACEMENT");
		debuginfo_free(dbg);
	}
	dbg = open_target("c/entry-O0");
	if (dbg) {
		setenv("UPFRONT_PLACEMENT", "plain", 1);
		CHOSEN_HAS(dbg, "pa_target a", BY_MACHINE("(%bp)", "(%sp)"));
		unsetenv("UPFRONT_PLACEMENT");
		debuginfo_free(dbg);
	}
	dbg = open_target("go/calls");
	if (dbg) {
		/* Go 1.19 sets up its frame with a single-stepped sub: the check's jbe, + flags
		 * (arm64: "ldr x16, [x28, #16]; cmp sp, x16; b.ls", the b.ls and pstate) */
		CHOSEN(dbg, "main.down id n", BY_MACHINE("+4 %ax %bx %flags", "+8 %x0 %x1 %pstate"));
		/* lea; cmp; jbe (arm64: ldr; sub x17, sp, #0x7a0; cmp; b.ls) */
		CHOSEN(dbg, "main.deep id n", BY_MACHINE("+12 %ax %bx %flags",
							 "+12 %x0 %x1 %pstate"));
		/* its first line: the same jbe (the morestack stub's run of the line left out) */
		CHOSEN(dbg, "main.down:0 id n", BY_MACHINE("+4 %ax %bx %flags",
							   "+8 %x0 %x1 %pstate"));
		setenv("UPFRONT_PLACEMENT", "plain", 1);
		/* past the check */
		CHOSEN(dbg, "main.down id n", BY_MACHINE("+6 %ax %bx", "+12 %x0 %x1"));
		unsetenv("UPFRONT_PLACEMENT");
		debuginfo_free(dbg);
	}
}

/* the flags field of a Go stack check's jbe: shared as 0 by an event's other points */
static void test_go_split(void)
{
	struct trace_probe tps[2] = { 0 };
	char *f;

	trace_probe_add_field(&tps[0], "id", "%ax", "s64", false);
	trace_probe_add_field(&tps[1], "id", "%ax", "s64", false);
	place_share_flags_field(tps, 2);
	TEST_EQ(tps[1].nr_fields, 1);				/* none has it: none gets it */
	TEST_TRUE(place_event_filter(&tps[0], NULL) == NULL);
	f = place_event_filter(&tps[0], "id > 1");
	TEST_STREQ(f, "id > 1");
	free(f);
	trace_probe_add_field(&tps[1], PLACE_FLAGS_FIELD, BY_MACHINE("%flags", "%pstate"), "x64",
			      true);
	place_share_flags_field(tps, 2);
	TEST_EQ(tps[0].nr_fields, 2);
	TEST_STREQ(tps[0].fields[1].name, "upft_fl");
	/* flags that pass the filter: 0 (arm64: C set, 0x20000000) */
	TEST_STREQ(tps[0].fields[1].fetch, BY_MACHINE("\\0", "\\536870912"));
	TEST_TRUE(tps[0].fields[1].hidden);
	TEST_EQ(tps[1].nr_fields, 2);
	f = place_event_filter(&tps[0], NULL);
	/* jbe: taken on CF or ZF; b.ls: on Z set or C clear */
	TEST_STREQ(f, BY_MACHINE("!(upft_fl & 0x41)",
				 "!(upft_fl & 0x40000000) && (upft_fl & 0x20000000)"));
	free(f);
	f = place_event_filter(&tps[1], "id > 1 || id < -1");
	TEST_STREQ(f, BY_MACHINE("(id > 1 || id < -1) && !(upft_fl & 0x41)",
				 "(id > 1 || id < -1) && !(upft_fl & 0x40000000) && "
				 "(upft_fl & 0x20000000)"));
	free(f);
	trace_probe_release(&tps[0]);
	trace_probe_release(&tps[1]);
}

/* place_alt_agrees(): the same values, and no register read that was written in between */
static void test_agrees(void)
{
	/* the machine's stack pointer, first and second argument registers, frame pointer */
	const int sp = BY_MACHINE(7, 31), a1 = BY_MACHINE(5, 0), a2 = BY_MACHINE(4, 1);
	const char *first = BY_MACHINE("%di", "%x0"), *second = BY_MACHINE("%si", "%x1");
	struct trace_probe a = { 0 }, b = { 0 };
	struct site_alt alt = { .clobbered = 1ull << sp };	/* %rsp written before the alt */
	struct trace_arg *x;

	trace_probe_add_field(&a, "n", BY_MACHINE("-20(%bp)", "-20(%x29)"), "s32", false);
	x = trace_probe_add_arg(&a);
	x->name = xstrdup("n");
	x->kind = VK_SIGNED;
	trace_probe_add_field(&b, "n", first, "s32", false);
	x = trace_probe_add_arg(&b);
	x->name = xstrdup("n");
	x->kind = VK_SIGNED;
	TEST_TRUE(place_alt_agrees(&alt, &a, &b));
	free(b.fields[0].fetch);
	b.fields[0].fetch = xstrdup("+8(%sp)");		/* moved by the push */
	TEST_TRUE(!place_alt_agrees(&alt, &a, &b));
	free(b.fields[0].fetch);
	b.fields[0].fetch = xstrdup(second);
	alt.clobbered = 1ull << a2;			/* %rsi */
	TEST_TRUE(!place_alt_agrees(&alt, &a, &b));
	alt.clobbered = 1ull << a1;			/* %rdi: not read */
	TEST_TRUE(place_alt_agrees(&alt, &a, &b));
	free(b.fields[0].type);
	b.fields[0].type = xstrdup("s64");		/* another type: another value */
	TEST_TRUE(!place_alt_agrees(&alt, &a, &b));
	trace_probe_release(&a);
	trace_probe_release(&b);
}

int main(void)
{
	test_cost();
	test_straight();
	test_entry_abi();
	test_choice();
	test_agrees();
	test_go_split();
	return TEST_DONE();
}
