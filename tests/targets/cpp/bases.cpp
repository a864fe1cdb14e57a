// SPDX-License-Identifier: GPL-2.0-or-later
/* bases.cpp - C++ test target: std::string short and long (libstdc++'s and libc++'s short-string
 * layouts) by const reference and as a member; virtual base classes (a diamond, a single one) */
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

/* The values are listed in tests/targets/README.md; keep both in step. */
#ifdef __clang__
#define PROBED __attribute__((noinline))
#else
#define PROBED __attribute__((noinline, noclone))
#endif

volatile long sink;

namespace vb {

struct label {
	int id;
	std::string name;
};

PROBED int greet(const std::string &s, const label &l)
{
	return (int)(s.size() + l.name.size()) + l.id;
}

struct node {
	int weight = 5;
	virtual ~node() {}
	virtual int kind() const { return 1; }
};

struct left : virtual node {
	int l = 11;
};

struct right : virtual node {
	int r = 22;
};

struct diamond : left, right {
	int d = 33;
	explicit diamond(int w) { weight = w; }
	int kind() const override { return 3; }
};

struct solo : virtual node {
	int s = 44;
	explicit solo(int w) { weight = w; }
};

PROBED int visit(diamond *dm, left *lp, solo *so)
{
	return dm->weight + lp->weight + so->weight + dm->d + lp->kind();
}

PROBED node *make(int which, int w)
{
	if (which)
		return new diamond(w);
	return new solo(w);
}

} // namespace vb

static void run_once(void)
{
	std::string shorts("hi"), longs("a string of more than twenty-three bytes");
	vb::label a{ 1, "tiny" }, b{ 2, "a label long enough for the heap, surely" };

	sink += vb::greet(shorts, b);
	sink += vb::greet(longs, a);

	vb::diamond *dm = dynamic_cast<vb::diamond *>(vb::make(1, 7));
	vb::solo *so = dynamic_cast<vb::solo *>(vb::make(0, 9));

	sink += vb::visit(dm, dm, so);
	delete dm;
	delete so;
}

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
	printf("bases: sink=%ld\n", sink);
	return 0;
}
