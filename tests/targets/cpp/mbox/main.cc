// SPDX-License-Identifier: GPL-2.0-or-later
/* main.cc - the program of the mbox project: sends elements of the library's classes and of
 * its own (mailbox_element_vals<std::string>, tuple_vals<std::string>: their vtables are in
 * the program) to the library's scheduled_actor::enqueue */
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include "mbox.h"

static long checksum;

static void run_once()
{
	caf::scheduled_actor actor(3);
	caf::execution_unit eu = { 1, "worker-1" };
	caf::message m1, m2;

	m1.data = std::make_shared<caf::int_data>(5, 6000000000L);
	m2.data = std::make_shared<caf::tuple_vals<std::string>>("hello");
	actor.enqueue(caf::make_mailbox_element(101, 7, m1), &eu);
	actor.enqueue(caf::make_mailbox_element(102, 8, m2), &eu);
	actor.enqueue(caf::mailbox_element_ptr(new caf::mailbox_element_vals<std::string>(
			      103, 9, "a value held by the element itself")),
		      &eu);
	actor.enqueue(caf::mailbox_element_ptr(new caf::mailbox_element(104, 10)), &eu);
	actor.enqueue(caf::mailbox_element_ptr(), &eu);
	checksum += actor.received;
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
	printf("mbox: received=%ld\n", checksum);
	return 0;
}
