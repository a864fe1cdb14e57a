// SPDX-License-Identifier: GPL-2.0-or-later
/* mailbox.cpp - C++ test target modelled on CAF's scheduled_actor::enqueue (see the field note
 * on telling a mailbox element's dynamic type from its vtable): smart pointers, several
 * dynamic types behind one base pointer, one in an anonymous namespace, a void * context */
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <unistd.h>

/*
 * Every probed function is noinline and noclone; elements are made by a noinline factory so
 * their dynamic type is not known at the call. The values are listed in
 * tests/targets/README.md; keep both in step.
 */
#ifdef __clang__
#define PROBED __attribute__((noinline))
#else
#define PROBED __attribute__((noinline, noclone))
#endif

volatile long sink;

namespace caf {

template <class T>
struct singly_linked {
	T *next = nullptr;
};

class memory_managed {
public:
	virtual ~memory_managed() = default;
	virtual void request_deletion() noexcept { delete this; }
};

/* the payload of a message: polymorphic, shared */
class message_data {
public:
	explicit message_data(int r) : refs(r) {}
	virtual ~message_data() = default;
	virtual int arity() const { return 0; }
	int refs;
};

class int_data : public message_data {
public:
	int_data(int a, long b) : message_data(1), a(a), b(b) {}
	int arity() const override { return 2; }
	int a;
	long b;
};

class string_data : public message_data {
public:
	explicit string_data(const char *s) : message_data(2), text(s) {}
	int arity() const override { return 1; }
	std::string text;
};

class message {
public:
	std::shared_ptr<message_data> data;
};

class mailbox_element : public singly_linked<mailbox_element>, public memory_managed {
public:
	mailbox_element(long mid, int sender) : mid(mid), sender(sender) {}
	virtual int kind() const { return 0; }
	long mid;	/* the message id */
	int sender;	/* the sending actor's id */
};

/* a named concrete element */
class plain_element : public mailbox_element {
public:
	plain_element(long mid, int sender, int weight, const char *tag)
		: mailbox_element(mid, sender), weight(weight), tag(tag)
	{
	}
	int kind() const override { return 1; }
	int weight;
	const char *tag;
};

namespace {

/* an element in an anonymous namespace, carrying a message */
class mailbox_element_wrapper : public mailbox_element {
public:
	mailbox_element_wrapper(long mid, int sender, std::shared_ptr<message_data> d)
		: mailbox_element(mid, sender)
	{
		msg.data = std::move(d);
	}
	int kind() const override { return 2; }
	message msg;
};

} // namespace

namespace detail {

struct disposer {
	void operator()(memory_managed *p) const noexcept { p->request_deletion(); }
};

} // namespace detail

using mailbox_element_ptr = std::unique_ptr<mailbox_element, detail::disposer>;

struct execution_unit {
	int id;
	const char *name;
};

/* what a context pointer hides */
struct context {
	int depth;
	long budget;
	const char *label;
};

class scheduled_actor {
public:
	explicit scheduled_actor(int id) : id(id) {}
	PROBED void enqueue(mailbox_element_ptr ptr, execution_unit *eu);
	PROBED int resume(void *ctx, int n);
	PROBED long inspect(std::shared_ptr<message_data> data, std::weak_ptr<message_data> seen);
	PROBED int adopt(std::unique_ptr<plain_element> elem);
	PROBED long link(singly_linked<mailbox_element> *node);
	int id;
	long received = 0;
};

void scheduled_actor::enqueue(mailbox_element_ptr ptr, execution_unit *eu)
{
	if (ptr) {
		received += ptr->mid;
		sink += ptr->kind() + eu->id;
	} else {
		sink += eu->id;
	}
}

int scheduled_actor::resume(void *ctx, int n)
{
	context *c = static_cast<context *>(ctx);

	sink += c->depth + n;
	return c->depth + n;
}

long scheduled_actor::inspect(std::shared_ptr<message_data> data,
			      std::weak_ptr<message_data> seen)
{
	long r = data ? data->arity() + data->refs : -1;

	if (auto s = seen.lock())
		r += s->refs;
	sink += r;
	return r;
}

int scheduled_actor::adopt(std::unique_ptr<plain_element> elem)
{
	sink += elem->weight;
	return elem->weight;
}

/* a pointer to a base class that is not at offset 0 (vptr first, then singly_linked) */
long scheduled_actor::link(singly_linked<mailbox_element> *node)
{
	long r = node->next ? 1 : 2;

	sink += r;
	return r;
}

PROBED mailbox_element *make_element(int which)
{
	switch (which) {
	case 0:
		return new plain_element(101, 7, 42, "plain");
	case 1:
		return new mailbox_element_wrapper(102, 8, std::make_shared<int_data>(5, 6000000000L));
	case 2:
		return new mailbox_element_wrapper(103, 9, std::make_shared<string_data>("hello"));
	default:
		return new mailbox_element(104, 10);
	}
}

} // namespace caf

static void run_once()
{
	caf::scheduled_actor actor(3);
	caf::execution_unit eu = { 1, "worker-1" };
	caf::context ctx = { 4, 900, "ctx-label" };

	for (int i = 0; i < 4; i++)
		actor.enqueue(caf::mailbox_element_ptr(caf::make_element(i)), &eu);
	actor.enqueue(caf::mailbox_element_ptr(), &eu);
	sink += actor.resume(&ctx, 2);
	{
		auto d = std::make_shared<caf::int_data>(11, 12);
		std::shared_ptr<caf::message_data> s = std::make_shared<caf::string_data>("seen");
		std::weak_ptr<caf::message_data> w = s;

		sink += actor.inspect(d, w);
		sink += actor.inspect(nullptr, std::weak_ptr<caf::message_data>());
	}
	sink += actor.adopt(std::make_unique<caf::plain_element>(201, 5, 77, "adopted"));
	{
		std::unique_ptr<caf::mailbox_element> linked(caf::make_element(0));

		sink += actor.link(linked.get());
	}
	sink += actor.received;
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
	printf("mailbox: sink=%ld\n", sink);
	return 0;
}
