// SPDX-License-Identifier: GPL-2.0-or-later
/* shape.h - type words that name no class: objects whose vtable pointer points into a
 * library's data, into the program's data or into the heap, traced in the library. The values
 * are listed in tests/targets/README.md; keep both in step. */
#ifndef DYN_SHAPE_H
#define DYN_SHAPE_H

#define PROBED __attribute__((noinline, noclone))

struct shape {
	virtual ~shape();
	virtual int area() const;
	int id = 0;
};

/* a polymorphic object as memory holds it: a vtable pointer, then the members */
struct raw_object {
	const void *vptr;
	int id;
};

/* a shape (vtable in the library); then raw objects: vptr into the library's data */
shape *lib_shape(int id);
raw_object *lib_fake(int id);

/* the probed function */
PROBED int draw(shape *s, int seq);

#endif
