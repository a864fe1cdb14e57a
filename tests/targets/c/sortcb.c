// SPDX-License-Identifier: GPL-2.0-or-later
/* sortcb.c - a callback through libc: qsort calls by_key (tests/e2e/stack-cfi.sh) */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct item {
	int key;
	const char *name;
};

static int by_key(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

static int sorted;

__attribute__((noinline)) static void sort_items(struct item *v, size_t n)
{
	qsort(v, n, sizeof(*v), by_key);
	sorted++;	/* not a tail call: sort_items stays on the stack */
}

int main(int argc, char **argv)
{
	struct item v[] = { { 3, "c" }, { 1, "a" }, { 2, "b" } };
	int rounds = argc > 1 ? atoi(argv[1]) : 1;

	for (int r = 0; r < rounds; r++) {
		sort_items(v, 3);
		v[0].key = 3;
		v[2].key = 1;
		if (argc > 2)
			usleep(atoi(argv[2]) * 1000);
	}
	printf("%s%s%s %d\n", v[0].name, v[1].name, v[2].name, sorted);
	return 0;
}
