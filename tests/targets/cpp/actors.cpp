// SPDX-License-Identifier: GPL-2.0-or-later
/* actors.cpp - C++ test target: classes, virtual dispatch, std::string/vector, references, overloads */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

/*
 * Every probed function is noinline and noclone; objects are made by a noinline factory and
 * used through Base *, so calls stay virtual at -O2. The values are listed in
 * tests/targets/README.md; keep both in step.
 */
#define PROBED __attribute__((noinline, noclone))

volatile long sink;

namespace shop {

enum class Status { Idle, Busy = 4, Closed };

struct Item {
	std::string sku;
	int count;
	double price;
};

class Base {
public:
	explicit Base(int id_) : id(id_), status(Status::Busy) {}
	virtual ~Base() {}
	virtual int kind() const;
	int id;
	Status status;
};

class Derived : public Base {
public:
	Derived(int id_, const char *name_, std::vector<int> qty_)
		: Base(id_), name(name_), qty(qty_), level(2)
	{
	}
	int kind() const override;
	int describe(const Item &it, std::string note);
	const char *title() const;
	std::string tag() const;
	std::string name;
	std::vector<int> qty;
	short level;
};

PROBED int Base::kind() const
{
	return 1;
}

/* Derived::kind(): called through Base * for both objects (vptr -> vtable for shop::Derived) */
PROBED int Derived::kind() const
{
	return 2 + id;
}

/* Derived::describe(): called twice (see run_once) */
PROBED int Derived::describe(const Item &it, std::string note)
{
	return id + (int)name.size() + it.count + (int)note.size() + (qty.empty() ? 0 : qty[0]);
}

/* price(int) and price(double): an overloaded pair (the ambiguity error) */
PROBED long price(int cents)
{
	return cents * 2L;
}

PROBED double price(double amount)
{
	return amount * 2.0;
}

/* restock(): a free function with a reference and a pointer parameter */
PROBED int restock(Item &it, const Derived *who, unsigned int extra)
{
	it.count += (int)extra;
	return it.count + who->id;
}

PROBED Base *make(int id, const char *name, std::vector<int> qty)
{
	return new Derived(id, name, qty);
}

/* Derived::title(): the name as a C string ("bob", "a-customer-name-longer-than-sso") */
PROBED const char *Derived::title() const
{
	return name.c_str();
}

/* Derived::tag(): a std::string by value, returned through a hidden pointer ("bob#7") */
PROBED std::string Derived::tag() const
{
	return name + "#" + std::to_string(id);
}

/* span(): a 16-byte struct by value, returned in RAX:RDX (first and last qty) */
struct Span {
	long lo;
	long hi;
};

PROBED Span span(const Derived *d)
{
	return Span{ d->qty.front(), d->qty.back() };
}

/* Ticket: 8 bytes, but its destructor makes the ABI return it through a hidden pointer */
struct Ticket {
	long no;
	~Ticket();
};

PROBED Ticket::~Ticket()
{
	sink += no;
}

PROBED Ticket ticket(int id)
{
	return Ticket{ id * 100L };
}

} /* namespace shop */

static void run_once()
{
	shop::Base *a = shop::make(7, "bob", { 1, 2, 3 });
	shop::Base *b = shop::make(8, "a-customer-name-longer-than-sso", { 40, 50 });
	shop::Item pen = { "pen-blue", 12, 1.25 };
	shop::Item ink = { "ink-cartridge-black-xl-0042", 3, 19.5 };

	sink += a->kind();
	sink += b->kind();
	/*
	 * The notes' text is hidden from the optimizer: with a constant short text gcc -O2 knows
	 * the temporary's data pointer is its own buffer and, as describe() reads only the
	 * length, may drop the store of the pointer.
	 */
	static const char *volatile notes[] = { "first", "second note, longer than fifteen" };

	sink += static_cast<shop::Derived *>(a)->describe(pen, notes[0]);
	sink += static_cast<shop::Derived *>(b)->describe(ink, notes[1]);
	sink += shop::price(150);
	sink += (long)shop::price(2.25);
	sink += shop::restock(pen, static_cast<shop::Derived *>(a), 5);
	for (shop::Base *o : { a, b }) {
		const shop::Derived *d = static_cast<const shop::Derived *>(o);

		sink += (long)strlen(d->title());
		sink += (long)d->tag().size();
		sink += shop::span(d).hi;
		sink += shop::ticket(d->id).no;
	}
	delete a;
	delete b;
}

/* usage: actors [REPEAT [INTERVAL_MS]]; REPEAT 0 = forever; UPFT_TARGET_DELAY_MS delays the start */
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
	printf("actors: sink=%ld\n", sink);
	return 0;
}
