// SPDX-License-Identifier: GPL-2.0-or-later
/* zoo.cpp - C++ test target of dynamic types: a polymorphic hierarchy with a class in an
 * anonymous namespace and multiple inheritance, used through base pointers */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

/*
 * Every probed function is noinline and noclone; objects are made by a noinline factory, so
 * their dynamic type is unknown to the probed code at -O2. The values are listed in
 * tests/targets/README.md; keep both in step.
 */
#define PROBED __attribute__((noinline, noclone))

volatile long sink;

namespace zoo {

struct Node {
	virtual ~Node() {}
	int id = 0;
};

struct Animal : Node {
	virtual int legs() const { return 4; }
	int weight = 0;
};

struct Dog : Animal {
	int tricks = 0;
};

struct Puppy : Dog {
	int legs() const override { return 4; }
	int age = 0;
};

struct Cat : Animal {
	int lives = 9;
};

/* a second polymorphic base: a Parrot's Named part has its own (secondary) vtable */
struct Named {
	virtual ~Named() {}
	virtual const char *name() const { return label; }
	const char *label = "";
};

struct Parrot : Animal, Named {
	int legs() const override { return 2; }
	int words = 0;
};

namespace {
struct Ghost : Animal {
	int legs() const override { return 0; }
	int boo = 0;
};
}

PROBED Animal *make(int kind, int id)
{
	Animal *a;

	switch (kind) {
	case 0: {
		Dog *d = new Dog;
		d->tricks = 3;
		a = d;
		break;
	}
	case 1: {
		Puppy *p = new Puppy;
		p->tricks = 1;
		p->age = 2;
		a = p;
		break;
	}
	case 2:
		a = new Cat;
		break;
	case 3: {
		Parrot *p = new Parrot;
		p->words = 12;
		p->label = "polly";
		a = p;
		break;
	}
	default: {
		Ghost *g = new Ghost;
		g->boo = 13;
		a = g;
		break;
	}
	}
	a->id = id;
	a->weight = id * 10;
	return a;
}

/* feed(): called with a Dog, a Puppy, a Cat, a Parrot and a Ghost, in that order */
PROBED int feed(Animal *a)
{
	sink += a->weight;
	return a->legs() + a->id;
}

/* call(): called with the Parrot's Named part (its vptr is Parrot's secondary vtable) */
PROBED int call(Named *n)
{
	return (int)strlen(n->name());
}

} // namespace zoo

static void run_once(void)
{
	zoo::Animal *all[5];

	for (int i = 0; i < 5; i++)
		all[i] = zoo::make(i, 101 + i);
	for (int i = 0; i < 5; i++)
		sink += zoo::feed(all[i]);
	sink += zoo::call(static_cast<zoo::Parrot *>(all[3]));
	for (int i = 0; i < 5; i++)
		delete all[i];
}

/* usage: zoo [REPEAT [INTERVAL_MS]]; REPEAT 0 = forever; UPFT_TARGET_DELAY_MS delays the start */
int main(int argc, char **argv)
{
	int repeat = argc > 1 ? atoi(argv[1]) : 1;
	int interval = argc > 2 ? atoi(argv[2]) : 0;
	const char *delay = getenv("UPFT_TARGET_DELAY_MS");

	if (delay)
		usleep(atoi(delay) * 1000);
	for (int i = 0; repeat == 0 || i < repeat; i++) {
		run_once();
		if (interval > 0)
			usleep(interval * 1000);
	}
	printf("zoo: sink %ld\n", (long)sink);
	return 0;
}
