// SPDX-License-Identifier: GPL-2.0-or-later
/* main.cc - the program of the dyn target: draw() is called with a shape, then with objects
 * whose vtable pointer points into the library's data (lib_junk + 8), the program's data
 * (main_junk + 16) and the heap */
#include <cstdio>
#include <cstdlib>

#include "shape.h"

long main_junk[4] = { 5, 6, 7, 8 };

int main()
{
	raw_object *heap = new raw_object{ nullptr, 4 };

	heap->vptr = new long[2]{ 9, 10 };
	draw(lib_shape(1), 1);
	draw(reinterpret_cast<shape *>(lib_fake(2)), 2);
	draw(reinterpret_cast<shape *>(new raw_object{ &main_junk[2], 3 }), 3);
	draw(reinterpret_cast<shape *>(heap), 4);
	printf("dyn: done\n");
	return 0;
}
