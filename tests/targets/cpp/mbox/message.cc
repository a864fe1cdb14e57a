// SPDX-License-Identifier: GPL-2.0-or-later
/* message.cc - key functions of the payload classes */
#include "mbox.h"

namespace caf {

message_data::~message_data() = default;

int message_data::arity() const
{
	return 0;
}

int int_data::arity() const
{
	return 2;
}

} // namespace caf
