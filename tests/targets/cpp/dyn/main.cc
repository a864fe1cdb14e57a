// SPDX-License-Identifier: GPL-2.0-or-later
/* main.cc - the program of the dyn target: draw() is called with a shape, then with objects
 * whose vtable pointer points into the library's data (lib_junk + 8), the program's data
 * (main_junk + 16) and the heap */
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include "shape.h"

long main_junk[4] = { 5, 6, 7, 8 };

/* usage: dyn [REPEAT [INTERVAL_MS]]: the four calls, REPEAT times (0: forever) */
int main(int argc, char **argv)
{
	long repeat = argc > 1 ? strtol(argv[1], NULL, 0) : 1;
	long interval = argc > 2 ? strtol(argv[2], NULL, 0) : 0;
	raw_object *heap = new raw_object{ nullptr, 4 };
	shape *s = lib_shape(1);
	raw_object *fake = lib_fake(2), *prog = new raw_object{ &main_junk[2], 3 };

	heap->vptr = new long[2]{ 9, 10 };
	for (long i = 0; repeat == 0 || i < repeat; i++) {
		draw(s, 1);
		draw(reinterpret_cast<shape *>(fake), 2);
		draw(reinterpret_cast<shape *>(prog), 3);
		draw(reinterpret_cast<shape *>(heap), 4);
		if (interval > 0)
			usleep(interval * 1000);
	}
	printf("dyn: done\n");
	return 0;
}
