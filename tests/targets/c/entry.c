// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * entry.c - target for entry probes read from the System V ABI (tests/e2e/cases/entry.cases):
 * at -O0 the DWARF names stack slots the prologue has not written yet at the entry, so
 * upfront reads the parameters where the caller put them; functions whose entry is not
 * safe to read that way keep the probe past the prologue.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct pt {
	int x, y;		/* one eightbyte: %rdi, y in its upper half */
};

struct big {
	long a, b, c;		/* 24 bytes: on the stack */
};

struct mix {
	long a;			/* INTEGER: a register */
	double d;		/* SSE: %xmm, which uprobes cannot read */
};

struct pair {
	long lo, hi;		/* two eightbytes: two registers, or the stack when one is left */
};

static volatile long sink;

#define KEEP __attribute__((noinline, noclone))

/* four arguments (the hitloop pa_target) */
KEEP long pa_target(long a, unsigned long b, void *c, const char *s)
{
	return a + (long)b + (long)c + s[0];
}

/* ten: the last four on the stack above the return address */
KEEP long eight(long a, long b, long c, long d, long e, long f, long g, int h, char i,
		short j)
{
	return a + b + c + d + e + f + g + h + i + j;
}

/* small structs by value: split into eightbytes, a big one on the stack */
KEEP long bystruct(struct pt p, struct big bg, int k, struct mix m)
{
	return p.x + p.y + bg.a + bg.c + k + m.a + (long)m.d;
}

/* a pair that does not fit in the last register goes to the stack; f still gets %r9 */
KEEP long spill(long a, long b, long c, long d, long e, struct pair p, long f)
{
	return a + b + c + d + e + p.lo + p.hi + f;
}

/* variadic: the probe stays past the prologue */
KEEP long sum(int n, ...)
{
	va_list ap;
	long s = 0;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += va_arg(ap, int);
	va_end(ap);
	return s;
}

/* a struct returned in memory: its buffer's address comes first, in %rdi */
KEEP struct big retbig(long v, int w)
{
	struct big b = { v, w, v + w };

	return b;
}

/* a double in %xmm0: y is readable at the entry, x only past the prologue */
KEEP double scaled(double x, int y)
{
	return x * y;
}

/* a local has no value at the entry */
KEEP int counted(int a)
{
	int twice = 2 * a;

	sink += twice;
	return twice + 1;
}

int main(int argc, char **argv)
{
	int repeat = argc > 1 ? atoi(argv[1]) : 1;
	struct pt p = { 3, -4 };
	struct big bg = { 5, 6, 7 };
	struct mix m = { 8, 9.5 };
	struct pair pr = { 100, 200 };
	long t = 0;

	for (int r = 0; r < repeat || repeat == 0; r++) {
		for (long i = 1; i <= 2; i++) {
			t += pa_target(i, 2 * i, (void *)(0x1000 * i), i == 1 ? "hello" : "world");
			t += eight(1, 2, 3, 4, 5, 6, 7, -8, 'z', (short)(1000 * i));
			t += bystruct(p, bg, 11 * (int)i, m);
			t += spill(1, 2, 3, 4, 5, pr, 60 + i);
			t += sum(3, 10, 20, (int)(30 * i));
			t += retbig(i, 40).c;
			t += (long)scaled(1.5, 2 * (int)i);
			t += counted(21 * (int)i);
		}
	}
	printf("%ld\n", t);
	return 0;
}
