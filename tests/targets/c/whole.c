// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * whole.c - whole values for the e2e cases (tests/e2e/cases/whole.cases): a nested struct, a
 * union, a 2-D array, an array of structs, strings and pointers, bitfields, anonymous members,
 * and a struct too big for the byte budget. Each probed function is called once; the values
 * were checked with gdb ("p *s", "p m") at each function's entry, at -O0 and -O2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROBED __attribute__((noinline, noclone, used))

enum color { RED, GREEN = 5, BLUE };

struct point {
	int x;
	int y;
};

union num {
	int i;
	unsigned char b[4];
};

struct shape {
	const char *name;
	char tag[8];
	struct point origin;
	struct point corners[2];
	enum color color;
	union num n;
	unsigned int visible:1;
	unsigned int layer:4;
	struct {
		short zone;
		short shelf;
	};
	struct shape *next;
	double scale;
	int grid[2][3];
};

/* too big for the default budget: shown cut, marked "..." */
struct big {
	long v[40];
	struct point pts[100];
	int tail;
};

/* four C strings: the kernel's :string is read for three per event, the fourth is an address */
struct names {
	const char *a, *b, *c, *d;
};

static struct names nm = { "one", "two", "three", "four" };
static struct shape s2 = { .name = "tail", .tag = "t2", .origin = { 7, 8 } };
static struct shape s1 = {
	.name = "square", .tag = "sq", .origin = { 1, -2 },
	.corners = { { 0, 0 }, { 10, 10 } }, .color = GREEN, .n = { .i = 0x01020304 },
	.visible = 1, .layer = 9, .zone = 3, .shelf = 12, .next = &s2, .scale = 1.5,
	.grid = { { 1, 2, 3 }, { 4, 5, 6 } },
};
static struct big b1;
volatile long sink;

/* draw(): called once with &s1 */
PROBED int draw(struct shape *s)
{
	sink = s->origin.x;
	return s->color;
}

/* mat(): called once with the 2-D array { {1, 2, 3}, {4, 5, 6} } and the point (3, 4) */
PROBED int mat(int m[2][3], struct point p)
{
	sink = m[1][2] + p.x;
	return (int)sink;
}

/* weigh(): called once with &b1, v[i] = i, pts[i] = (i, -i), tail = 77 */
PROBED long weigh(struct big *b)
{
	sink = b->v[3];
	return sink;
}

/* greet(): called once with &nm */
PROBED int greet(struct names *n)
{
	sink = n->a[0];
	return (int)strlen(n->d);
}

int main(int argc, char **argv)
{
	int m[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
	struct point p = { 3, 4 };
	int repeat = argc > 1 ? atoi(argv[1]) : 1;
	int interval = argc > 2 ? atoi(argv[2]) : 0;
	const char *delay = getenv("UPFT_TARGET_DELAY_MS");
	long sum = 0;

	if (delay)
		usleep(strtol(delay, NULL, 0) * 1000);
	for (int i = 0; i < 100; i++) {
		if (i < 40)
			b1.v[i] = i;
		b1.pts[i].x = i;
		b1.pts[i].y = -i;
	}
	b1.tail = 77;
	for (int r = 0; repeat == 0 || r < repeat; r++) {
		if (r && interval)
			usleep(interval * 1000);
		sum += draw(&s1);
		sum += mat(m, p);
		sum += weigh(&b1);
		sum += greet(&nm);
	}
	printf("whole: %ld\n", sum);
	return 0;
}
