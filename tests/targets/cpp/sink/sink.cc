// SPDX-License-Identifier: GPL-2.0-or-later
/* sink.cc - the probed functions: every class they use is declared only in this unit (its key
 * function is in elem.cc) */
#include "elem.h"

volatile long sink_seen;

namespace stats {
long puts;	/* calls of sink::put so far, counted before its body */
}

void sink::put(elem_ptr p, int x)
{
	stats::puts++;
	if (p) {
		total += p->mid + x;
		sink_seen += p->kind();
	} else {
		sink_seen += x;
	}
}

long sink::take(elem *e, const elem &ref)
{
	long r = e->mid + ref.sender;

	sink_seen += r;
	return r;
}

long sink::look(D *d, E *e, B *b)
{
	long r = d->x + e->x + b->x + d->who();

	sink_seen += r;
	return r;
}

int sink::poke(opaque_state *st, int n)
{
	sink_seen += n + (st != nullptr);
	return n;
}
