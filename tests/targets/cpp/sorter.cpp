// SPDX-License-Identifier: GPL-2.0-or-later
/* sorter.cpp - std::sort with a comparator, on a std::thread (tests/e2e/stack-cfi.sh) */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

struct Shape {
	virtual ~Shape() = default;
	virtual int area() const = 0;
};

struct Rect : Shape {
	int w, h;
	Rect(int w_, int h_) : w(w_), h(h_) {}
	int area() const override;
};

/* out of line: the comparator's virtual call is a real frame */
__attribute__((noinline)) int Rect::area() const
{
	return w * h;
}

__attribute__((noinline)) static bool by_area(const Shape *a, const Shape *b)
{
	return a->area() < b->area();
}

static long total;

__attribute__((noinline)) static void sort_shapes(std::vector<Shape *> &v)
{
	std::sort(v.begin(), v.end(), by_area);
	total += v.front()->area();	/* not a tail call: sort_shapes stays on the stack */
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1;
	Rect a(3, 3), b(1, 2), c(2, 2);
	std::vector<Shape *> v{ &a, &b, &c };

	for (int r = 0; r < rounds; r++) {
		std::thread t([&v] { sort_shapes(v); });
		t.join();
		std::swap(v[0], v[2]);
	}
	printf("%ld\n", total);
	return 0;
}
