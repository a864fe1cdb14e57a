// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * whole.cpp - whole values for the e2e cases (tests/e2e/cases/whole.cases): a class with a
 * base class, a std::string, std::vectors of numbers and of structs, a nested struct, a union,
 * and `this` in a method. Each probed function is called once; the values were checked with
 * gdb ("p *this", "p *s", "p v") at each function's entry, at -O0 and -O2.
 */
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <unistd.h>

#define PROBED __attribute__((noinline, noclone, used))

namespace geo {

struct Point {
	int x;
	int y;
};

struct Named {
	std::string name;
	int rank;
};

class Shape : public Named {
public:
	Point origin;
	std::vector<int> sides;
	std::vector<Point> marks;
	union {
		int i;
		float f;
	} u;
	bool filled;

	PROBED int area() const;
};

int Shape::area() const
{
	return origin.x * origin.y + (int)sides.size();
}

} // namespace geo

volatile long sink;

/* place(): called once with the shape below and its vector of sides */
PROBED int place(const geo::Shape *s, const std::vector<int> &v)
{
	sink = s->rank + (long)v.size();
	return (int)sink;
}

int main(int argc, char **argv)
{
	int repeat = argc > 1 ? atoi(argv[1]) : 1;
	int interval = argc > 2 ? atoi(argv[2]) : 0;
	const char *delay = getenv("UPFT_TARGET_DELAY_MS");
	geo::Shape s;
	long sum = 0;

	if (delay)
		usleep(strtol(delay, NULL, 0) * 1000);
	s.name = "box";
	s.rank = 2;
	s.origin = { 3, 4 };
	s.sides.reserve(6);
	s.sides = { 5, 6, 7, 8 };
	s.marks = { { 1, 2 }, { 3, 4 } };
	s.u.i = 42;
	s.filled = true;
	for (int r = 0; repeat == 0 || r < repeat; r++) {
		if (r && interval)
			usleep(interval * 1000);
		sum += s.area();
		sum += place(&s, s.sides);
	}
	printf("whole: %ld\n", sum);
	return 0;
}
