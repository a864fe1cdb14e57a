// SPDX-License-Identifier: GPL-2.0-or-later
/* main.cc - the program of the sink project: it links libsink (elem.cc, sink.cc), defines a
 * class of its own derived from the library's elem (its vtable is in the program), and makes
 * an elem itself (the inline constructor refers to the library's vtable from the program) */
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include "elem.h"

/* a class the program defines: the library sees it only through its vtable */
class local_elem : public elem {
public:
	local_elem(long mid, int sender, long extra) : elem(mid, sender), extra(extra) {}
	int kind() const override;
	long extra;
};

int local_elem::kind() const
{
	return 3;
}

static long checksum;

static void run_once()
{
	sink s(5);
	D d;
	E e;

	s.put(elem_ptr(make_elem(0)), 10);
	s.put(elem_ptr(make_elem(1)), 20);
	s.put(elem_ptr(new local_elem(103, 9, 77)), 30);
	s.put(elem_ptr(new elem(104, 10)), 40);
	s.put(elem_ptr(), 50);
	{
		plain_elem pe(201, 11, 5, "taken");
		elem el(202, 12);

		s.take(&pe, el);
	}
	fill(&d, 100);
	fill(&e, 200);
	e.e = 211;
	e.x = 212;
	s.look(&d, &e, &e);
	s.poke(reinterpret_cast<opaque_state *>(&s), 6);
	checksum += s.total;
}

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
	printf("sink: total=%ld\n", checksum);
	return 0;
}
