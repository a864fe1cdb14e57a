// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clones.cpp - C++ methods gcc -O2 turns into clones whose parameters only the callers know
 * (tests/e2e/cases/clones.cases, tests/unit/translate/clones.cases)
 *
 * Built at -O2 only (cpp/clones-O2). The shapes, checked with readelf --debug-dump=info on
 * g++ 12.2 (Debian 12) -g -O2, the actor framework's shape (CAF's
 * scheduled_actor::enqueue(mailbox_element_ptr, execution_unit *)):
 * - "sched::actor::enqueue(sched::mailbox_element*, sched::execution_unit*) [clone .isra.0]":
 *   IPA-SRA passes ptr->mid and eu->core instead of ptr and eu. Both are
 *   DW_OP_GNU_parameter_ref; resume()'s call site gives them as DW_OP_fbreg -48 and -64:
 *   its locals, %sp + 24 and %sp + 8 at the clone's entry. this stays in %rdi.
 * - "sched::actor::weigh(int, long) [clone .isra.0]": this is replaced by this->seen_ and
 *   this->id_; main passes this as DW_OP_fbreg -56 (%sp + 16), resume() as DW_OP_breg12:
 *   the callers disagree on 'this', which -D says; factor and amount are in registers.
 *
 * gdb 13 at the clones (bt, info args), run without arguments:
 *   enqueue (this=this@entry=0x7ffe..., eu=0x7ffe...f0, ptr=0x7ffe...00): *ptr = {mid = 100,
 *     text = "msg"}, *eu = {core = 2, load = 0, name = "worker"}, seen_ = 0; then mid 101,
 *     core 3, load 5, seen_ 100
 *   weigh (factor=factor@entry=3, amount=amount@entry=0, this=...); amount 1, then 40
 *
 * usage: clones [N]  - N rounds (default 2)
 */
#include <cstdio>
#include <cstdlib>

namespace sched {

struct execution_unit {
	int core;
	int load;
	const char *name;
};

struct mailbox_element {
	int mid;
	const char *text;
};

execution_unit *volatile g_unit;
mailbox_element *volatile g_elem;

/* noipa: neither cloned nor inlined; their arguments stay in memory (they escape) */
__attribute__((noipa)) void publish(execution_unit *eu)
{
	g_unit = eu;
}

__attribute__((noipa)) void post(mailbox_element *m)
{
	g_elem = m;
}

class actor {
public:
	explicit actor(int id) : id_(id) {}

	__attribute__((noinline)) int enqueue(mailbox_element *ptr, execution_unit *eu)
	{
		seen_ += ptr->mid;
		return seen_ + eu->core;
	}

	__attribute__((noinline)) long weigh(int factor, long amount)
	{
		long w = seen_;

		std::printf("weigh %d\n", id_);
		for (int i = 0; i < factor; i++)
			w += amount >> i;
		return w;
	}

	int id_;
	int seen_ = 0;
};

__attribute__((noipa)) int resume(actor *a, int round)
{
	execution_unit eu = { round + 2, round * 5, "worker" };
	mailbox_element m = { 100 + round, "msg" };

	publish(&eu);
	post(&m);
	return a->enqueue(&m, &eu) + (int)a->weigh(3, round);
}

} // namespace sched

int main(int argc, char **argv)
{
	int n = argc > 1 ? std::atoi(argv[1]) : 2, s = 0;
	sched::actor a(7);

	for (int i = 0; i < n; i++)
		s += sched::resume(&a, i);
	s += (int)a.weigh(3, 40);
	std::printf("%d\n", s);
	return 0;
}
