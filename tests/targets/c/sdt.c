// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sdt.c - a target with SDT (USDT) probes from <sys/sdt.h> (systemtap-sdt-dev), for
 * tests/e2e/sdt.sh. This file's probes have no semaphore; sdt-guarded.c's have one.
 *
 * usage: sdt [N]   calls work() N times (default 3), k = 0..N-1
 *
 * Every value a probe passes is known: k, the item of round k (id 100+k, name "item-k",
 * qty 1000*k - 1), and constants of each size and sign, so the test checks exact values.
 * -O0 passes them in stack slots (8@-24(%rbp)), -O2 in registers (-4@%ebx) and through
 * %rip (8@upft_counter(%rip)); "4@$5"-style constants come from literal arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>

struct item {
	int id;
	const char *name;
	long qty;
};

long upft_counter = 41;

int guarded_work(int k, const char *name);	/* sdt-guarded.c */

static __attribute__((noinline)) long work(struct item *it, int k)
{
	signed char sc = (signed char)(-5 - k);
	short sh = (short)(-300 - k);
	unsigned int ui = 4000000000u + (unsigned int)k;
	long neg = -1234567890123L - k;

	upft_counter++;
	STAP_PROBE3(upft, item, it->id, it->name, it->qty);
	STAP_PROBE4(upft, sizes, sc, sh, ui, neg);
	STAP_PROBE3(upft, konst, 5, -7, upft_counter);
	STAP_PROBE(upft, noargs);
	return it->qty + guarded_work(k, it->name);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	char names[16][16];
	struct item it;
	long sum = 0;

	for (int k = 0; k < n && k < 16; k++) {
		snprintf(names[k], sizeof(names[k]), "item-%d", k);
		it.id = 100 + k;
		it.name = names[k];
		it.qty = 1000L * k - 1;
		sum += work(&it, k);
	}
	printf("sum %ld\n", sum);
	return 0;
}
