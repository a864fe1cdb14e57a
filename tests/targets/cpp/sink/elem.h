// SPDX-License-Identifier: GPL-2.0-or-later
/* elem.h - a C++ project as projects are built: classes declared here, their key functions
 * (first out-of-line virtual function) in elem.cc, used in sink.cc and main.cc. g++ writes a
 * class's full DWARF only into the unit that holds its key function; every other unit gets a
 * declaration (DW_AT_declaration) that debuggers complete by name. The values are listed in
 * tests/targets/README.md; keep both in step. */
#ifndef SINK_ELEM_H
#define SINK_ELEM_H

#include <memory>

#define PROBED __attribute__((noinline, noclone))

template <class T>
struct singly_linked {
	T *next = nullptr;
};

struct memory_managed {
	virtual ~memory_managed();
	virtual void request_deletion() noexcept;
};

/* a mailbox element: its vtable pointer first, then the singly_linked base */
class elem : public singly_linked<elem>, public memory_managed {
public:
	elem(long mid, int sender) : mid(mid), sender(sender) {}
	~elem() override;
	virtual int kind() const;
	long mid;	/* the message id */
	int sender;	/* the sending actor's id */
};

class plain_elem : public elem {
public:
	plain_elem(long mid, int sender, int weight, const char *tag);
	int kind() const override;
	int weight;
	const char *tag;
};

struct elem_disposer {
	void operator()(memory_managed *p) const noexcept { p->request_deletion(); }
};

using elem_ptr = std::unique_ptr<elem, elem_disposer>;

/* made in elem.cc: a plain_elem, or an element of a class of elem.cc's anonymous namespace */
elem *make_elem(int which);

/* gdb's gdb.cp/derivation shapes: shadowed members and a non-virtual diamond (d has two A) */
struct A {
	virtual ~A();
	int a;
	int x;
};

struct B : A {
	virtual int who() const;
	int b;
	int x;
};

struct C : A {
	virtual int who() const;
	int c;
	int x;
};

struct D : B, C {
	int who() const override;
	int d;
	int x;
};

struct E : D {
	int who() const override;
	int e;
	int x;
};

/* fills every member with a distinct number (elem.cc) */
void fill(D *d, int base);

/* declared here, defined nowhere in the program or the library */
struct opaque_state;

class sink {
public:
	explicit sink(int id) : id(id) {}
	PROBED void put(elem_ptr p, int x);
	PROBED long take(elem *e, const elem &ref);
	PROBED long look(D *d, E *e, B *b);
	PROBED int poke(opaque_state *st, int n);
	int id;
	long total = 0;
};

#endif
