// SPDX-License-Identifier: GPL-2.0-or-later
/* test-resolve.c - event names made unique across probes: resolve_uniq_events() */
#include <stdlib.h>

#include "../../src/resolve.h"
#include "unittest.h"

/*
 * The pairwise version resolve_uniq_events() replaced (cubic in the worst case): the
 * reference its names are compared with.
 */
static void uniq_reference(struct trace_probe *tps, size_t nr, const size_t *spec_of)
{
	for (size_t i = 0; i < nr; i++) {
		bool clash = false;

		for (size_t j = 0; j < i; j++)
			if (spec_of[j] != spec_of[i] && !strcmp(tps[j].group, tps[i].group) &&
			    !strcmp(tps[j].event, tps[i].event))
				clash = true;
		if (!clash)
			continue;
		for (int k = 1;; k++) {
			char *cand = xasprintf("%.*s_%d", 58, tps[i].event, k);
			bool used = false;

			for (size_t j = 0; j < nr; j++)
				if (!strcmp(tps[j].group, tps[i].group) &&
				    !strcmp(tps[j].event, cand))
					used = true;
			if (!used) {
				char *old = xstrdup(tps[i].event);

				for (size_t j = i; j < nr; j++) {
					if (spec_of[j] != spec_of[i] || strcmp(tps[j].event, old))
						continue;
					free(tps[j].event);
					tps[j].event = xstrdup(cand);
				}
				free(old);
				free(cand);
				break;
			}
			free(cand);
		}
	}
}

static struct trace_probe *probes(size_t nr, const char *const *groups,
				  const char *const *events)
{
	struct trace_probe *tps = xcalloc(nr ? nr : 1, sizeof(*tps));

	for (size_t i = 0; i < nr; i++) {
		tps[i].group = xstrdup(groups ? groups[i] : "g");
		tps[i].event = xstrdup(events[i]);
	}
	return tps;
}

/* "a b a_1": the events, blank-separated (a new string) */
static char *names(const struct trace_probe *tps, size_t nr)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_init(&sb);
	for (size_t i = 0; i < nr; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", tps[i].event);
	return strbuf_detach(&sb);
}

/* uniq(): run resolve_uniq_events() on events (all in group "g" unless @groups) */
static char *uniq(size_t nr, const char *const *groups, const char *const *events,
		  const size_t *spec_of)
{
	struct trace_probe *tps = probes(nr, groups, events);
	char *s;

	resolve_uniq_events(tps, nr, spec_of);
	s = names(tps, nr);
	trace_probes_free(tps, nr);
	return s;
}

#define UNIQ(want, groups, events, specs)                                            \
	do {                                                                        \
		char *_s = uniq(sizeof(specs) / sizeof(specs[0]), groups, events, specs); \
		TEST_STREQ(_s, want);                                               \
		free(_s);                                                           \
	} while (0)

static void test_examples(void)
{
	{
		/* as perf: the second and third probe of one name get _1, _2 */
		const char *ev[] = { "f", "f", "f" };
		const size_t sp[] = { 0, 1, 2 };

		UNIQ("f f_1 f_2", NULL, ev, sp);
	}
	{
		/* sites of one spec share a name on purpose; the other spec's all move alike */
		const char *ev[] = { "f", "f", "f", "f" };
		const size_t sp[] = { 0, 0, 1, 1 };

		UNIQ("f f f_1 f_1", NULL, ev, sp);
	}
	{
		/* a name a later probe has is not taken */
		const char *ev[] = { "f", "f", "f_1" };
		const size_t sp[] = { 0, 1, 2 };

		UNIQ("f f_2 f_1", NULL, ev, sp);
	}
	{
		/* only the name that clashes moves */
		const char *ev[] = { "f", "f", "h", "f" };
		const size_t sp[] = { 0, 1, 1, 1 };

		UNIQ("f f_1 h f_1", NULL, ev, sp);
	}
	{
		/* groups are separate name spaces */
		const char *gr[] = { "g1", "g2", "g1" };
		const char *ev[] = { "f", "f", "f" };
		const size_t sp[] = { 0, 1, 2 };

		UNIQ("f f f_1", gr, ev, sp);
	}
	{
		/* a long name is cut to 58 characters before its suffix (63 in all) */
#define LONG63 "a123456789b123456789c123456789d123456789e123456789f123456789xyz"
		const char *ev[] = { LONG63, LONG63 };
		const size_t sp[] = { 0, 1 };

		UNIQ(LONG63 " a123456789b123456789c123456789d123456789e123456789f1234567_1", NULL,
		     ev, sp);
	}
	{
		const char *ev[] = { "only" };
		const size_t sp[] = { 0 };

		UNIQ("only", NULL, ev, sp);
	}
}

/* 1,600 probes of one name, each its own spec (a glob expanded by the shell) */
static void test_many(void)
{
	enum { N = 1600 };
	const char *ev[N];
	size_t sp[N];
	struct trace_probe *tps;
	char *last;
	bool distinct = true;

	for (size_t i = 0; i < N; i++) {
		ev[i] = "handler";
		sp[i] = i;
	}
	tps = probes(N, NULL, ev);
	resolve_uniq_events(tps, N, sp);
	TEST_STREQ(tps[0].event, "handler");
	TEST_STREQ(tps[1].event, "handler_1");
	last = xasprintf("handler_%d", N - 1);
	TEST_STREQ(tps[N - 1].event, last);
	for (size_t i = 1; i < N && distinct; i++) {
		char *want = xasprintf("handler_%zu", i);

		distinct = !strcmp(tps[i].event, want);
		free(want);
	}
	TEST_TRUE(distinct);
	free(last);
	trace_probes_free(tps, N);
}

/* random names from a small pool (clashes, suffixes that exist already) vs the reference */
static void test_random(void)
{
	static const char *const pool[] = { "f", "f_1", "f_2", "g", "f_1_1", "g_1", "f_3" };
	static const char *const groups[] = { "a", "b" };
	unsigned int seed = 1;
	int same = 0, runs = 2000;

	for (int r = 0; r < runs; r++) {
		size_t nr = 1 + (size_t)(rand_r(&seed) % 12);
		const char *ev[12], *gr[12];
		size_t sp[12], spec = 0;
		const char *group = groups[0];
		struct trace_probe *a, *b;
		char *sa, *sb;

		for (size_t i = 0; i < nr; i++) {
			/* specs are consecutive runs, as main.c lays them out; one group each */
			if (i && rand_r(&seed) % 3) {
				spec++;
				group = groups[rand_r(&seed) % 4 == 0];
			}
			sp[i] = spec;
			gr[i] = group;
			ev[i] = pool[rand_r(&seed) % (sizeof(pool) / sizeof(pool[0]))];
		}
		a = probes(nr, gr, ev);
		b = probes(nr, gr, ev);
		resolve_uniq_events(a, nr, sp);
		uniq_reference(b, nr, sp);
		sa = names(a, nr);
		sb = names(b, nr);
		if (!strcmp(sa, sb))
			same++;
		else
			printf("# run %d: got \"%s\", the reference \"%s\"\n", r, sa, sb);
		free(sa);
		free(sb);
		trace_probes_free(a, nr);
		trace_probes_free(b, nr);
	}
	TEST_EQ(same, runs);
}

/* -D and -a's group without -g: perf probe's convert_exec_to_group() */
static void test_default_group(void)
{
	static const char *const cases[][2] = {
		{ "c_O2", "probe_c_O2" },
		{ "my-tool.x1", "probe_my" },
		{ "/usr/lib/x86_64-linux-gnu/libc.so.6", "probe_libc" },
		{ "/opt/dnsfwd", "probe_dnsfwd" },
		{ "orders-O2", "probe_orders" },
		{ "python3.11d", "probe_python3" },
		{ "a_b_c", "probe_a_b_c" },
		{ "-x", "probe_" },
	};
	char long_name[100], *g;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		g = resolve_default_group(cases[i][0]);
		TEST_STREQ(g, cases[i][1]);
		free(g);
	}
	/* at most 63 characters, the kernel's limit */
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	g = resolve_default_group(long_name);
	TEST_EQ(strlen(g), 63);
	free(g);
}

int main(void)
{
	test_default_group();
	test_examples();
	test_many();
	test_random();
	return TEST_DONE();
}
