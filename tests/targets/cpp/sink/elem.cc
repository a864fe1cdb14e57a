// SPDX-License-Identifier: GPL-2.0-or-later
/* elem.cc - the key functions of elem.h's classes: their vtables and full DWARF are here */
#include "elem.h"

memory_managed::~memory_managed() = default;

void memory_managed::request_deletion() noexcept
{
	delete this;
}

elem::~elem() = default;

int elem::kind() const
{
	return 0;
}

plain_elem::plain_elem(long mid, int sender, int weight, const char *tag)
	: elem(mid, sender), weight(weight), tag(tag)
{
}

int plain_elem::kind() const
{
	return 1;
}

namespace {

/* an element only this unit knows, as CAF's mailbox_element_wrapper */
class wrapped_elem : public elem {
public:
	wrapped_elem(long mid, int sender, long payload) : elem(mid, sender), payload(payload) {}
	int kind() const override { return 2; }
	long payload;
};

} // namespace

elem *make_elem(int which)
{
	if (which == 0)
		return new plain_elem(101, 7, 42, "plain");
	return new wrapped_elem(102, 8, 6000000000L);
}

A::~A() = default;

int B::who() const
{
	return 2;
}

int C::who() const
{
	return 3;
}

int D::who() const
{
	return 4;
}

int E::who() const
{
	return 5;
}

/* A in B: a, x = base + 1, 2; B: b, x = 3, 4; A in C: 5, 6; C: 7, 8; D: d, x = 9, 10 */
void fill(D *d, int base)
{
	B *b = d;
	C *c = d;

	static_cast<A *>(b)->a = base + 1;
	static_cast<A *>(b)->x = base + 2;
	b->b = base + 3;
	b->x = base + 4;
	static_cast<A *>(c)->a = base + 5;
	static_cast<A *>(c)->x = base + 6;
	c->c = base + 7;
	c->x = base + 8;
	d->d = base + 9;
	d->x = base + 10;
}
