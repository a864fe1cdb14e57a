// SPDX-License-Identifier: GPL-2.0-or-later
/* calls.c - durations: pending calls per (process, thread or goroutine, function), as stacks */
#define LOG_DOMAIN "calls"

#include <stdlib.h>
#include <string.h>

#include "calls.h"
#include "log.h"
#include "util.h"

/*
 * A thread deeper than this in one function (pending entries whose returns never come) loses
 * its outermost entries; all threads together at most CALLS_MAX_PENDING (then everything
 * pending is forgotten: some durations are missing, none is wrong).
 */
#define CALLS_MAX_DEPTH		4096
#define CALLS_MAX_PENDING	(1u << 22)

struct frame {
	uint64_t ts;
	call_height h;
};

/* The pending calls of one function on one thread; a slot of the table. */
struct stack {
	struct call_key key;
	bool used;
	struct frame *v;
	uint32_t nr, alloc;
};

struct calls {
	struct stack *tab;	/* open addressing, linear probing; cap a power of two */
	size_t cap, used;
	uint64_t pending;
	struct strmap names;	/* function numbers, from 1 (a table: a glob of 10,000) */
	bool *returns;		/* returns[n - 1]: has a return probe */
	size_t nr_names, alloc_returns;
};

struct calls *calls_new(void)
{
	struct calls *c = xcalloc(1, sizeof(*c));

	c->cap = 64;
	c->tab = xcalloc(c->cap, sizeof(*c->tab));
	strmap_init(&c->names, 16);
	return c;
}

static void tab_free(struct stack *tab, size_t cap)
{
	for (size_t i = 0; i < cap; i++)
		free(tab[i].v);
	free(tab);
}

void calls_free(struct calls *c)
{
	if (!c)
		return;
	tab_free(c->tab, c->cap);
	strmap_release(&c->names);
	free(c->returns);
	free(c);
}

unsigned int calls_func(struct calls *c, const char *name)
{
	bool added;
	size_t *n = strmap_add(&c->names, name, c->nr_names + 1, &added);

	if (!added)
		return *n;
	ALLOC_GROW(c->returns, c->nr_names + 1, c->alloc_returns);
	c->returns[c->nr_names] = false;
	return ++c->nr_names;
}

void calls_expect_returns(struct calls *c, unsigned int func)
{
	if (func && func <= c->nr_names)
		c->returns[func - 1] = true;
}

uint64_t calls_pending(const struct calls *c)
{
	return c->pending;
}

static size_t key_hash(const struct call_key *k)
{
	uint64_t h = (uint64_t)(uint32_t)k->pid * 0x9e3779b97f4a7c15ULL;

	h ^= k->thread + 0x632be59bd9b4e019ULL + (h << 6) + (h >> 2);
	h ^= (uint64_t)k->func * 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 29;
	return (size_t)h;
}

static bool key_eq(const struct call_key *a, const struct call_key *b)
{
	return a->pid == b->pid && a->thread == b->thread && a->func == b->func;
}

/* the slot of @k, or the free slot where it would go */
static struct stack *tab_slot(struct stack *tab, size_t cap, const struct call_key *k)
{
	for (size_t i = key_hash(k) & (cap - 1);; i = (i + 1) & (cap - 1))
		if (!tab[i].used || key_eq(&tab[i].key, k))
			return &tab[i];
}

/*
 * A new table when half full: only threads with pending calls move over (threads that come
 * and go leave empty stacks behind), and it doubles when they fill half of it.
 */
static void tab_rebuild(struct calls *c)
{
	size_t live = 0, cap = c->cap;
	struct stack *tab;

	for (size_t i = 0; i < c->cap; i++)
		live += c->tab[i].used && c->tab[i].nr;
	while (live * 4 >= cap)
		cap *= 2;
	tab = xcalloc(cap, sizeof(*tab));
	c->used = 0;
	for (size_t i = 0; i < c->cap; i++) {
		struct stack *s = &c->tab[i];

		if (!s->used)
			continue;
		if (!s->nr) {
			free(s->v);
			continue;
		}
		*tab_slot(tab, cap, &s->key) = *s;
		c->used++;
	}
	free(c->tab);
	c->tab = tab;
	c->cap = cap;
}

/* forget every pending call (too many: their returns are not coming) */
static void calls_clear(struct calls *c)
{
	pr_debug("%llu pending calls: forgetting them", (unsigned long long)c->pending);
	tab_free(c->tab, c->cap);
	c->cap = 64;
	c->tab = xcalloc(c->cap, sizeof(*c->tab));
	c->used = 0;
	c->pending = 0;
}

void calls_entry(struct calls *c, const struct call_key *k, uint64_t ts, call_height h)
{
	struct stack *s;

	if (!k->func || k->func > c->nr_names || !c->returns[k->func - 1])
		return;
	if (c->pending >= CALLS_MAX_PENDING)
		calls_clear(c);
	s = tab_slot(c->tab, c->cap, k);
	if (!s->used) {
		if ((c->used + 1) * 2 > c->cap) {
			tab_rebuild(c);
			s = tab_slot(c->tab, c->cap, k);
		}
		memset(s, 0, sizeof(*s));
		s->key = *k;
		s->used = true;
		c->used++;
	}
	if (s->nr >= CALLS_MAX_DEPTH) {
		/* the outermost half goes */
		memmove(s->v, s->v + s->nr / 2, (s->nr - s->nr / 2) * sizeof(*s->v));
		c->pending -= s->nr / 2;
		s->nr -= s->nr / 2;
	}
	ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	s->v[s->nr++] = (struct frame){ ts, h };
	c->pending++;
}

int64_t calls_return(struct calls *c, const struct call_key *k, uint64_t ts, call_height h)
{
	struct stack *s = tab_slot(c->tab, c->cap, k);
	uint32_t n;

	if (!s->used || !s->nr)
		return -1;
	/* pop what is below h; the last one popped is this call's entry */
	n = s->nr;
	while (n && s->v[n - 1].h < h)
		n--;
	if (n == s->nr)
		return -1;	/* only callers pending: this call began before we looked */
	c->pending -= s->nr - n;
	s->nr = n;
	return ts >= s->v[n].ts ? (int64_t)(ts - s->v[n].ts) : 0;
}
