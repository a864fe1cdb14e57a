// SPDX-License-Identifier: GPL-2.0-or-later
/* scheduled_actor.cc - the probed enqueue: mailbox_element is declared only in this unit */
#include "mbox.h"

namespace caf {

volatile long enqueued;

scheduled_actor::~scheduled_actor() = default;

void scheduled_actor::enqueue(mailbox_element_ptr ptr, execution_unit *eu)
{
	if (ptr) {
		received += ptr->mid;
		enqueued += ptr->kind() + eu->id;
	} else {
		enqueued += eu->id;
	}
}

} // namespace caf
