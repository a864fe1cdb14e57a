// SPDX-License-Identifier: GPL-2.0-or-later
/* orders.c - C test target: calls its probed functions a known number of times with known values */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Every probed function is noinline and noclone (no .constprop/.isra copies at -O2) and has
 * external linkage; every result is folded into sink and printed, so nothing is optimized
 * away. The values are listed in tests/targets/README.md; keep both in step.
 */
#define PROBED __attribute__((noinline, noclone))

enum tier { TIER_BRONZE, TIER_SILVER = 5, TIER_GOLD };

struct customer {
	char *name;
	char code[16];
	int age;
	enum tier tier;
};

struct item {
	char sku[8];
	unsigned int qty;
	long price_cents;
};

struct flags {
	unsigned int urgent:1;
	unsigned int flags:3;
	unsigned int mode:5;
	unsigned int rest:7;
};

union amount {
	int as_int;
	unsigned char bytes[4];
	float as_float;
};

struct order {
	int id;
	unsigned int seq;
	long total;
	short prio;
	char grade;
	bool paid;
	enum tier tier;
	struct customer *customer;
	struct item items[3];
	struct flags fl;
	double weight;
	float ratio;
	union amount u;
	union {			/* anonymous union member */
		long ext_id;
		void *ext_ptr;
	};
	struct {		/* anonymous struct member */
		short zone;
		short shelf;
	};
	const char *note;
};

struct config {
	const char *name;
	int version;
	char region[8];
};

struct config g_config = { "upfront-test", 3, "eu-west" };
long g_counter;
volatile long sink;

static struct customer c_alice = { "alice", "GOLD-0001", 34, TIER_GOLD };
static struct customer c_bob = { "bob", "SILV-0002", 27, TIER_SILVER };

static struct order order1 = {
	.id = 101, .seq = 4000000000u, .total = -1234567890123L, .prio = -7, .grade = 'A',
	.paid = true, .tier = TIER_GOLD, .customer = &c_alice,
	.items = { { "sku-a", 2, 1999 }, { "sku-b", 3, 250 }, { "sku-c", 1, 99900 } },
	.fl = { .urgent = 1, .flags = 5, .mode = 17, .rest = 100 },
	.weight = 2.5, .ratio = 0.25f, .u = { .as_int = 0x01020304 },
	.ext_id = 9001, .zone = 3, .shelf = 12, .note = "fragile",
};

static struct order order2 = {
	.id = 102, .seq = 7, .total = 4200, .prio = 3, .grade = 'B',
	.paid = false, .tier = TIER_SILVER, .customer = &c_bob,
	.items = { { "sku-d", 4, 500 }, { "sku-e", 5, 600 }, { "sku-f", 6, 700 } },
	.fl = { .urgent = 0, .flags = 2, .mode = 31, .rest = 0 },
	.weight = -0.125, .ratio = 1.5f, .u = { .as_int = -1 },
	.ext_id = -5, .zone = 1, .shelf = 2, .note = "gift wrap",
};

/* customer is NULL: for the fault tests (o->customer->name is reached through NULL) */
static struct order order3 = {
	.id = 103, .seq = 1, .total = 1, .tier = TIER_BRONZE, .customer = NULL,
	.items = { { "sku-x", 9, 1 } }, .note = NULL,
};

/* process_order(): called twice, with order1 then order2; bumps g_counter after reading it */
PROBED int process_order(struct order *o)
{
	int sum = o->id + (int)o->seq + o->items[1].qty + o->fl.mode + o->zone;

	if (o->customer)
		sum += (int)strlen(o->customer->name);
	g_counter++;
	return sum;
}

/* audit_order(): called once, with order3 (customer == NULL) */
PROBED int audit_order(struct order *o)
{
	return o->id + (o->customer ? o->customer->age : -1);
}

/* check_customer(): called twice: with NULL, then with &c_bob */
PROBED int check_customer(struct customer *c)
{
	return c ? c->age : -1;
}

/* process_batch(): called once with {&order1, &order2}, n = 2 */
PROBED int process_batch(struct order **orders, int n)
{
	int sum = 0;

	for (int i = 0; i < n; i++)
		sum += orders[i]->id;
	return sum;
}

/* log_message(): called once: level 2, msg with ESC sequences and a newline */
PROBED int log_message(int level, const char *msg)
{
	return level + (int)strlen(msg);
}

/* set_limits(): called once with (-5, 3000000000, -9000000000, -300, 'z', true, TIER_SILVER) */
PROBED long set_limits(int a, unsigned int b, long c, short d, char e, bool f, enum tier t)
{
	return a + (long)b + c + d + e + f + t;
}

/* sum_loop(): called once with n = 4; sq takes 0, 1, 4, 9 (for line probes) */
PROBED long sum_loop(int n)
{
	long acc = 0;

	for (int i = 0; i < n; i++) {
		int sq = i * i;

		acc += sq;
		sink += acc;
	}
	return acc;
}

/* scale(): called once with (1.5, 2.0f, &order1); at -O2 factor and f live in xmm registers */
PROBED double scale(double factor, float f, struct order *o)
{
	return factor * f * o->weight;
}

/*
 * late_local(): called once with 7; at -O2 "late" has no location at the entry (its value
 * only exists after the call), so probing it there is "optimized out at this address"
 */
PROBED int late_local(int used)
{
	int late = check_customer(&c_alice) + used;

	sink += late;
	return late * 3;
}

/* lookup_name(): called once with 2; returns a C string (for %return tests) */
PROBED const char *lookup_name(int i)
{
	return i == 2 ? c_bob.name : c_alice.name;
}

/* find_order(): called once with 102; returns a struct pointer (for $retval->id) */
PROBED struct order *find_order(int id)
{
	return id == 102 ? &order2 : &order1;
}

/* price_range(): called once with &order1 (250, 99900); a 16-byte struct returned in RAX:RDX */
struct range {
	long lo;
	long hi;
};

PROBED struct range price_range(struct order *o)
{
	struct range r = { o->items[0].price_cents, o->items[0].price_cents };

	for (int i = 1; i < 3; i++) {
		if (o->items[i].price_cents < r.lo)
			r.lo = o->items[i].price_cents;
		if (o->items[i].price_cents > r.hi)
			r.hi = o->items[i].price_cents;
	}
	return r;
}

static void run_once(void)
{
	struct order *batch[2] = { &order1, &order2 };

	sink += process_order(&order1);
	sink += process_order(&order2);
	sink += audit_order(&order3);
	sink += check_customer(NULL);
	sink += check_customer(&c_bob);
	sink += process_batch(batch, 2);
	sink += log_message(2, "\x1b[31mred\x1b[0m\nnext line");
	sink += set_limits(-5, 3000000000u, -9000000000L, -300, 'z', true, TIER_SILVER);
	sink += sum_loop(4);
	sink += (long)scale(1.5, 2.0f, &order1);
	sink += late_local(7);
	sink += (long)strlen(lookup_name(2));
	sink += find_order(102)->id;
	sink += price_range(&order1).hi;
	sink += g_config.version;
}

/*
 * usage: orders [REPEAT [INTERVAL_MS]]
 * Runs the sequence REPEAT times (default 1; 0 = forever), INTERVAL_MS apart.
 * UPFT_TARGET_DELAY_MS delays the start (for tests that attach with -p).
 */
int main(int argc, char **argv)
{
	long repeat = argc > 1 ? strtol(argv[1], NULL, 0) : 1;
	long interval = argc > 2 ? strtol(argv[2], NULL, 0) : 0;
	const char *delay = getenv("UPFT_TARGET_DELAY_MS");

	if (delay)
		usleep(strtol(delay, NULL, 0) * 1000);
	for (long i = 0; repeat == 0 || i < repeat; i++) {
		run_once();
		if (interval > 0)
			usleep(interval * 1000);
	}
	printf("orders: sink=%ld counter=%ld\n", sink, g_counter);
	return 0;
}
