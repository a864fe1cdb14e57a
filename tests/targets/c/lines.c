// SPDX-License-Identifier: GPL-2.0-or-later
/* lines.c - target for source-line probes: a local in a loop, an inlined helper, returns */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct item {
	const char *name;
	int qty;
};

static struct item items[] = { { "apple", 3 }, { "pear", 5 }, { "plum", 7 } };
static volatile int sink;

__attribute__((noinline)) void consume(int v)
{
	sink += v;
}

/* Inlined into both callers below: its body line has code in two places. */
static inline __attribute__((always_inline)) int scale(int v, int f)
{
	int scaled = v * f + 1;

	consume(scaled);
	return scaled;
}

__attribute__((noinline)) int sum_loop(int n)
{
	int total = 0;

	for (int i = 0; i < n; i++) {
		int sq = i * i + 1;

		consume(sq);
		total += sq;
	}
	return total;
}

__attribute__((noinline)) int twice(int a, int b)
{
	int x = scale(a, 2);
	int y = scale(b, 3);

	return x + y;
}

__attribute__((noinline)) const char *item_name(int i)
{
	return items[i % 3].name;
}

__attribute__((noinline)) struct item *item_at(int i)
{
	return &items[i % 3];
}

/* Signed bitfields: the kernel's bW@O/C zero-extends them, the decoder sign-extends. */
struct delta {
	int dx : 5;
	int dy : 7;
	unsigned int flags : 3;
	signed char dz : 4;
};

static struct delta deltas[] = { { -3, 60, 5, -8 }, { 15, -64, 0, 7 } };

__attribute__((noinline)) int apply_delta(struct delta *d)
{
	return d->dx + d->dy + (int)d->flags + d->dz;
}

/* A chain of 16 nodes: n->next->...->val reaches the kernel's limits through real DWARF. */
struct node {
	long pad[2];
	struct node *next;	/* at +16 */
	int val;
};

static struct node chain[16];

__attribute__((noinline)) int walk(struct node *n)
{
	return n->val;
}

/*
 * dispatch(): the printf_id case (shared field notes, local variables from registers): id is
 * copied out of a message and compared against constants; at -O2 it lives only in a register
 * from its load to the compares. Called with ids 30007, 30000, 30001, 42 (returns 2, 0, 1, 3).
 */
static volatile int finalize;
static long handled[4];

__attribute__((noinline)) int dispatch(const void *data, int size)
{
	unsigned char buf[64];
	unsigned long id;

	memcpy(buf, data, size < 64 ? size : 64);
	memcpy(&id, buf, sizeof(id));
	if (finalize)
		return -1;
	if (id == 30000) {
		handled[0]++;
		return 0;
	} else if (id == 30001) {
		handled[1]++;
		return 1;
	} else if (id == 30007) {
		handled[2]++;
		return 2;
	}
	handled[3]++;
	return 3;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5;

	printf("sum=%d\n", sum_loop(n));
	printf("twice=%d\n", twice(n, n + 1));
	printf("name=%s qty=%d\n", item_name(n), item_at(n)->qty);
	printf("delta=%d\n", apply_delta(&deltas[0]) + apply_delta(&deltas[1]));
	for (int i = 0; i < 16; i++) {
		chain[i].val = i;
		chain[i].next = i < 15 ? &chain[i + 1] : NULL;
	}
	printf("walk=%d\n", walk(&chain[0]));
	{
		static const unsigned long msgs[][2] = { { 30007, 1 }, { 30000, 2 }, { 30001, 3 },
							   { 42, 4 } };
		int r = 0;

		for (int i = 0; i < 4; i++)
			r = r * 10 + dispatch(msgs[i], (int)sizeof(msgs[i]));
		printf("dispatch=%d\n", r);
	}
	return 0;
}
