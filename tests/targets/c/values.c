// SPDX-License-Identifier: GPL-2.0-or-later
/* values.c - target for values that are easy to get silently wrong: constants, bounds, dims */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Array bounds whose DWARF encoding has the top bit set (upper bound 255 in one byte,
 * 39999 in two), a multi-dimensional array, a GNU zero-length and a C99 flexible array.
 */
struct grid {
	char b200[200];
	char b256[256];
	int m[3][4];
	short s[2][3][5];
	long big[40000];
};

struct zhdr {
	int n;
	long z[0];
};

struct flex {
	int n;
	int vals[];
};

static struct grid grid;
static volatile unsigned long sink;

__attribute__((noinline)) void use(unsigned long v)
{
	sink += v;
}

__attribute__((noinline)) int grid_sum(struct grid *g)
{
	return g->m[1][2] + g->s[1][2][4] + (int)g->big[39999];
}

__attribute__((noinline)) int tails(struct zhdr *z, struct flex *f)
{
	return (int)z->z[1] + f->vals[2];
}

/* At -O2 these locals are DW_AT_const_value: 200 and 40000 in data1/data2 forms. */
__attribute__((noinline)) int konst(int w)
{
	unsigned long big = 200;
	unsigned int bigger = 40000;
	unsigned char uc = 250;
	signed char sc = -6;
	long neg = -100;

	use(big + (unsigned long)w);
	use(bigger + (unsigned long)w);
	use(uc + (unsigned long)w);
	use((unsigned long)(sc + w));
	use((unsigned long)(neg + w));
	return w;
}

/* Enumerators: gcc writes -56 as sdata and 200 as data1 (0xc8, the same byte). */
enum wide { W_NEG = -56, W_ZERO = 0, W_BIG = 200 };

__attribute__((noinline)) int pick(enum wide w)
{
	return (int)w + 1;
}

/*
 * Char arrays filled to their last byte: no NUL ends them, and the next member starts with
 * text. tag "ABCDEFGH" (8 bytes), next "IJKL", big 100 'b's, after "after".
 */
struct label {
	char tag[8];
	char next[8];
	char big[100];
	char after[8];
	int n;
};

static struct label label;

__attribute__((noinline)) int labels(struct label *l)
{
	return l->n + l->tag[0] + l->big[99];
}

int main(void)
{
	struct zhdr *z = malloc(sizeof(*z) + 2 * sizeof(long));
	struct flex *f = malloc(sizeof(*f) + 3 * sizeof(int));

	if (!z || !f)
		return 1;
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 4; j++)
			grid.m[i][j] = i * 10 + j;
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 3; j++)
			for (int k = 0; k < 5; k++)
				grid.s[i][j][k] = (short)(i * 100 + j * 10 + k);
	grid.b200[150] = 'x';
	grid.b200[199] = 'z';
	grid.b256[255] = 'y';
	grid.big[39999] = 7;
	z->n = 2;
	z->z[0] = 100;
	z->z[1] = -200;
	f->n = 3;
	f->vals[0] = 10;
	f->vals[1] = 20;
	f->vals[2] = 30;
	printf("grid=%d tails=%d konst=%d\n", grid_sum(&grid), tails(z, f), konst(1));
	printf("pick=%d\n", pick(W_BIG) + pick(W_NEG));
	memcpy(label.tag, "ABCDEFGH", 8);
	strcpy(label.next, "IJKL");
	memset(label.big, 'b', sizeof(label.big));
	strcpy(label.after, "after");
	label.n = 3;
	printf("labels=%d\n", labels(&label));
	free(z);
	free(f);
	return 0;
}
