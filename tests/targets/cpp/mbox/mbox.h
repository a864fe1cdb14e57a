// SPDX-License-Identifier: GPL-2.0-or-later
/* mbox.h - the mailbox of the actor field note (CAF 0.17's scheduled_actor::enqueue) split as
 * CAF splits it: classes declared here, key functions in mailbox_element.cc and message.cc,
 * the probed enqueue in scheduled_actor.cc (all three in libmbox), element and payload classes
 * of the program's own in main.cc. The values are listed in tests/targets/README.md. */
#ifndef MBOX_MBOX_H
#define MBOX_MBOX_H

#include <memory>
#include <string>

#define PROBED __attribute__((noinline, noclone))

namespace caf {

template <class T>
struct singly_linked {
	T *next = nullptr;
};

class memory_managed {
public:
	virtual ~memory_managed();
	virtual void request_deletion() noexcept;
};

/* the payload of a message: polymorphic, shared */
class message_data {
public:
	explicit message_data(int r) : refs(r) {}
	virtual ~message_data();
	virtual int arity() const;
	int refs;
};

class int_data : public message_data {
public:
	int_data(int a, long b) : message_data(1), a(a), b(b) {}
	int arity() const override;
	int a;
	long b;
};

/* a payload class template: its instances' vtables are where they are used (the program) */
template <class T>
class tuple_vals : public message_data {
public:
	explicit tuple_vals(T v) : message_data(2), value(std::move(v)) {}
	int arity() const override { return 1; }
	T value;
};

class message {
public:
	std::shared_ptr<message_data> data;
};

class message_view {
public:
	virtual ~message_view();
	virtual int view_size() const;
};

class mailbox_element : public singly_linked<mailbox_element>, public memory_managed,
			public message_view {
public:
	mailbox_element(long mid, int sender) : mid(mid), sender(sender) {}
	~mailbox_element() override;
	virtual int kind() const;
	long mid;	/* the message id */
	int sender;	/* the sending actor's id */
};

/* an element holding its values itself: instances live where they are used (the program) */
template <class T>
class mailbox_element_vals final : public mailbox_element {
public:
	mailbox_element_vals(long mid, int sender, T v)
		: mailbox_element(mid, sender), value(std::move(v))
	{
	}
	int kind() const override { return 4; }
	T value;
};

namespace detail {

struct disposer {
	void operator()(memory_managed *p) const noexcept { p->request_deletion(); }
};

} // namespace detail

using mailbox_element_ptr = std::unique_ptr<mailbox_element, detail::disposer>;

/* an element of mailbox_element.cc's anonymous namespace carrying @msg (CAF's
 * mailbox_element_wrapper) */
mailbox_element_ptr make_mailbox_element(long mid, int sender, message msg);

struct execution_unit {
	int id;
	const char *name;
};

class scheduled_actor {
public:
	explicit scheduled_actor(int id) : id(id) {}
	virtual ~scheduled_actor();
	PROBED void enqueue(mailbox_element_ptr ptr, execution_unit *eu);
	int id;
	long received = 0;
};

} // namespace caf

#endif
