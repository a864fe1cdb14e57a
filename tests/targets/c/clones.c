// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clones.c - values only the callers know, and an inline function whose copies gcc -O2
 * splits (tests/e2e/cases/clones.cases, tests/unit/translate/clones.cases)
 *
 * Built at -O2 only (c/clones-O2). The shapes, checked with readelf --debug-dump=info and
 * llvm-dwarfdump on gcc 12.2 (Debian 12) -g -O2:
 * - run.isra.0: IPA-SRA passes eu->core instead of eu. The clone's `eu` is
 *   DW_OP_GNU_parameter_ref; main's DW_TAG_call_site_parameter (DW_AT_call_parameter) gives
 *   it as DW_OP_breg12 (r12): 0, a callee-saved register run.isra.0 never touches: %r12.
 * - peek.isra.0: the same for eu->load, called once from once(), whose unit is a local at a
 *   stack slot: DW_OP_fbreg -32 in once()'s frame, which is %sp + 8 at the clone's entry.
 * - mix.isra.0: called from once() and twice() with their local unit (DW_OP_fbreg -32 and
 *   -64: both %sp + 8 at the clone's entry, below their frames) and from main with its unit
 *   in r12: the callers disagree, -D says so.
 * - step.constprop.0: mode is the constant 4 (DW_AT_const_value); past the call to note()
 *   id is DW_OP_entry_value(DW_OP_reg5), and main's call site passes DW_OP_breg3 (rbx): -1,
 *   which step saved on its stack: +8(%sp) minus 1.
 * - lookup(): inlined into type_cmd() and exists_cmd(); each copy has an empty first range
 *   and its DW_AT_entry_pc outside its ranges (Redis 7.2's lookupKeyReadWithFlags in
 *   typeCommand). In type_cmd key is DW_OP_breg5 (rdi): 16; DW_OP_deref; DW_OP_plus_uconst 8
 *   at the entry pc (c->argv[1]); in exists_cmd it is c->argv + r12, a sum uprobes cannot
 *   fetch: that copy is skipped with a warning.
 *
 * gdb 13 at each clone (bt, info args), run without arguments:
 *   run (x=x@entry=10, eu=0x7ffe...) eu->core = 3; then x 11, core 4
 *   peek (k=k@entry=20, eu=0x7ffe...) eu->load = 40, eu->name = "once"; then k 21, load 42
 *   mix (k=k@entry=1, a=...) a->core = 20 (from once); mix (k=2) a->core = 31 (from twice)
 *   step (id=id@entry=0, u=..., mode=4) at step:4 (r += ...); then id 1
 *   type_cmd: lookup key->ptr = "k1", flags = 1
 *
 * usage: clones [N]  - N rounds (default 2)
 */
#include <stdio.h>
#include <stdlib.h>

struct unit {
	int core;
	int load;
	const char *name;
};

struct unit *volatile g_seen;

/* noipa: neither cloned nor inlined; keeps its argument in memory (it escapes) */
__attribute__((noipa)) void note(struct unit *u)
{
	g_seen = u;
}

static __attribute__((noinline)) int run(struct unit *eu, int x)
{
	return eu->core * x + 1;
}

static __attribute__((noinline)) int peek(struct unit *eu, int k)
{
	return eu->load + k;
}

static __attribute__((noinline)) int mix(struct unit *a, int k)
{
	return a->core - k;
}

static __attribute__((noinline)) int step(int id, int mode, struct unit *u)
{
	int r = u->load + id;

	note(u);
	r += mode * u->core;
	printf("step %d\n", r);
	return r + u->load;
}

__attribute__((noipa)) int once(int k)
{
	struct unit u = { k, k * 2, "once" };

	note(&u);
	return peek(&u, k) + mix(&u, 1);
}

__attribute__((noipa)) int twice(int k)
{
	struct unit pad[2] = { { 0, 0, "pad" }, { 0, 0, "pad" } };
	struct unit v = { k + 1, k * 3, "twice" };

	note(pad);
	note(&v);
	return mix(&v, 2) + k + pad[1].core;
}

/* Redis's shape: a lookup inlined into commands */
struct obj {
	int type;
	const char *ptr;
};

struct db {
	int id;
	struct obj *slots[4];
};

struct client {
	struct db *db;
	int argc;
	struct obj **argv;
};

__attribute__((noipa)) struct obj *db_find(struct db *db, struct obj *key, int flags)
{
	return key && key->type < 4 && flags >= 0 ? db->slots[key->type] : NULL;
}

__attribute__((noipa)) void reply(struct client *c, long v)
{
	printf("%s %ld\n", c->argv[0]->ptr, v);
}

static inline struct obj *lookup(struct db *db, struct obj *key, int flags)
{
	struct obj *o = db_find(db, key, flags);

	if (!o)
		return NULL;
	return o;
}

__attribute__((noipa)) void type_cmd(struct client *c)
{
	struct obj *o = lookup(c->db, c->argv[1], 1);

	reply(c, o ? o->type : -1);
}

__attribute__((noipa)) void exists_cmd(struct client *c)
{
	long count = 0;

	for (int j = 1; j < c->argc; j++)
		if (lookup(c->db, c->argv[j], 1))
			count++;
	reply(c, count);
}

int main(int argc, char **argv)
{
	struct unit u = { 3, 7, "alpha" };
	struct obj a = { 1, "type" }, b = { 2, "exists" }, k1 = { 1, "k1" }, k2 = { 3, "k2" };
	struct db db = { 7, { NULL, &a, &b, NULL } };
	struct obj *av1[] = { &a, &k1 }, *av2[] = { &b, &k1, &k2 };
	struct client c1 = { &db, 2, av1 }, c2 = { &db, 3, av2 };
	int n = argc > 1 ? atoi(argv[1]) : 2, s = 0;

	note(&u);
	for (int i = 0; i < n; i++) {
		u.core = 3 + i;
		s += run(&u, i + 10);
		s += step(i, 4, &u);
		s += once(i + 20);
		s += twice(i + 30);
		s += mix(&u, 3);
	}
	type_cmd(&c1);
	exists_cmd(&c2);
	printf("%d\n", s);
	return 0;
}
