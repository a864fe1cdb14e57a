// SPDX-License-Identifier: GPL-2.0-or-later
/* mailbox_element.cc - key functions of the element classes, and the element class of this
 * unit's anonymous namespace */
#include "mbox.h"

namespace caf {

memory_managed::~memory_managed() = default;

void memory_managed::request_deletion() noexcept
{
	delete this;
}

message_view::~message_view() = default;

int message_view::view_size() const
{
	return 0;
}

mailbox_element::~mailbox_element() = default;

int mailbox_element::kind() const
{
	return 0;
}

namespace {

class mailbox_element_wrapper : public mailbox_element {
public:
	mailbox_element_wrapper(long mid, int sender, message m)
		: mailbox_element(mid, sender), msg(std::move(m))
	{
	}
	int kind() const override { return 2; }
	int view_size() const override { return msg.data ? msg.data->arity() : 0; }
	message msg;
};

} // namespace

mailbox_element_ptr make_mailbox_element(long mid, int sender, message msg)
{
	return mailbox_element_ptr(new mailbox_element_wrapper(mid, sender, std::move(msg)));
}

} // namespace caf
