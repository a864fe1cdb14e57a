// SPDX-License-Identifier: GPL-2.0-or-later
/* shape.cc - the library of the dyn target: shape's key function, and a word in its data that
 * is no vtable (lib_junk + 8) */
#include "shape.h"

volatile long drawn;

/* not a vtable: 8 bytes into it is what lib_fake()'s object points to */
long lib_junk[4] = { 1, 2, 3, 4 };

shape::~shape() {}

int shape::area() const
{
	return id;
}

shape *lib_shape(int id)
{
	shape *s = new shape;

	s->id = id;
	return s;
}

raw_object *lib_fake(int id)
{
	return new raw_object{ &lib_junk[1], id };
}

int draw(shape *s, int seq)
{
	drawn += seq + (s ? s->id : 0);
	return seq;
}
