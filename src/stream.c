// SPDX-License-Identifier: GPL-2.0-or-later
/* stream.c - drain per-CPU trace_pipe_raw into bounded queues on a thread; merge by time */
#define LOG_DOMAIN "stream"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "log.h"
#include "stream.h"
#include "tracing.h"

/* Events a CPU found empty at T may still commit a record stamped a little before T. */
#define MERGE_SLACK_NS 5000000ULL

/* A consumer that let no sub-buffer go for this long when a queue filled was held up. */
#define STALL_NS 20000000ULL

/* Slots are allocated this many sub-buffers at a time, as the queue grows. */
#define SLOT_BLOCK 64

/*
 * After a burst the pool's memory goes back to the system once a queue's backlog has been
 * at most 2 sub-buffers for this many drain rounds (about a second: a round waits up to
 * 20 ms): the freed slots but SLOT_KEEP go to a cold stack, their pages given back, used
 * again only when the warm ones run out. Without it the freed ring, first in first out,
 * cycles through every slot a burst ever made, and RSS stays at the largest burst's.
 */
#define TRIM_IDLE_ROUNDS 50
#define SLOT_KEEP 8

/* One CPU's ring of one of the session's rings (tracing_ring). */
struct cpu_queue {
	int cpu;
	enum tracing_ring which;	/* the ring of the session it reads */
	int fd;
	/*
	 * Filled sub-buffers, in order: the drain thread advances head, the consumer tail.
	 * Used slots go back to the drain through the freed ring (consumer advances fhead,
	 * drain ftail), so a queue that keeps up cycles through a few cache-warm slots;
	 * new ones are allocated only while the backlog grows, up to nr_slots.
	 */
	char **ring;			/* nr_slots */
	bool *after_full;		/* nr_slots: the drain found the queue full before this one */
	_Atomic uint64_t head;
	_Atomic uint64_t tail;
	char **freed;			/* nr_slots */
	_Atomic uint64_t fhead;
	_Atomic uint64_t ftail;
	unsigned int nr_alloc;		/* drain: slots handed out so far */
	char *spare;			/* drain: a slot taken but not filled (empty read) */
	char **blocks;			/* drain: SLOT_BLOCK slots each (mmap()ed) */
	unsigned int nr_blocks;
	char **cold;			/* drain: slots whose pages went back (a stack) */
	unsigned int nr_cold;
	unsigned int idle_rounds;	/* drain: rounds with a backlog of at most 2 */
	bool was_full;			/* drain: the queue was full since the last read */
	_Atomic bool ever_full;		/* the drain found the queue full at least once */
	_Atomic uint64_t empty_at;	/* mono ns before a read that found the ring empty */
	uint64_t wm;			/* consumer's copy of empty_at */
	/* consumer side */
	struct kbuffer *kbuf;
	bool loaded;			/* the slot at tail is loaded into kbuf */
	void *ev;			/* current record in the loaded slot, or NULL */
	uint64_t ev_ts;
	uint64_t missed;		/* lost records reported through sub-buffers */
	/*
	 * With user_stack records attached (stream_set_attach()) each event is two records: a
	 * run of lost records began with a stack (-1 each) or ended with an event (+1 each)
	 */
	int64_t pair_adj;
	uint64_t lost_ev;		/* lost events counted from missed, pair_adj */
	bool gap;			/* records were lost right before ev */
	uint64_t pending_lost;		/* to report before the next record */
	/* ring buffer stats at open, to report the difference at the end */
	uint64_t stat_base;
};

struct stream {
	struct cpu_queue *q;
	struct pollfd *pfds;
	bool timer;		/* no buffer_percent: read on a timer, poll() would wake per event */
	/* the timer's drain (timer_ms()) */
	uint64_t ring_bytes;		/* one CPU's ring buffer (0: unknown) */
	uint64_t tick_ns;		/* mono ns of the last round */
	uint64_t tick_bytes;		/* bytes read by then */
	uint64_t rate;			/* bytes per ms, the last rounds' (decaying) */
	int nr_q;			/* queues: each ring's CPUs */
	int nr_event_q;			/* of them, the events ring's */
	unsigned int nr_slots;		/* each CPU's ring */
	/*
	 * The queues' cap, all CPUs together, in slots (0: each CPU's nr_slots alone, as
	 * UPFRONT_QUEUE_PAGES asks): a workload on one thread fills one CPU's queue, which may
	 * take the whole pool. Slots count from allocation until they go cold (slot_trim()).
	 */
	unsigned int cap_slots;
	unsigned int live_slots;	/* drain: slots allocated and not cold, all CPUs */
	_Atomic uint64_t consumed_at;	/* mono ns when the consumer last let a sub-buffer go */
	_Atomic uint64_t full_stall;	/* the longest now - consumed_at when a queue filled */
	int subbuf;
	struct tracing *t;
	clockid_t clock_ref;		/* tracing_clock_ref() */
	_Atomic int64_t skew;		/* trace clock - clock_ref, ns (stream_clock_skew()) */
	pthread_t thread;
	bool thread_started;
	_Atomic int finish;		/* 1: final pass requested; 2: final pass done */
	_Atomic pid_t boost_tid;	/* stream_boost_at_half() */
	_Atomic int stop;
	/* drain_wake() calls: the consumer sleeps on this word with FUTEX_WAIT */
	_Atomic uint32_t pushes;
	_Atomic uint64_t pages;
	_Atomic uint64_t bytes;
	_Atomic uint64_t queue_full;
	uint64_t lost;
	uint64_t lost_queue_full;	/* of lost: reported after the drain found the queue full */
	uint64_t lost_end;		/* of lost: only the ring buffer's counters knew them */
	uint64_t lost_tasks;		/* records of the tasks ring lost */
	bool stats_done;
	/* stream_set_attach(): a record waiting for the next one of its CPU */
	int attach_id;
	struct cpu_queue *held_q;	/* NULL: nothing held */
	struct stream_rec held;
	char *held_buf;			/* a copy when its sub-buffer had to be let go */
};

/* records the ring buffer of @q lost since it was created (0 when it cannot tell) */
static uint64_t cpu_lost_stat(struct stream *st, const struct cpu_queue *q, uint64_t *entries)
{
	struct tracing_cpu_stats cs;

	tracing_cpu_stats(st->t, q->which, q->cpu, &cs);
	if (entries)
		*entries = cs.entries;
	return cs.lost;
}

/* the clock of this process that runs with the records' (tracing_clock_ref()), in ns */
static uint64_t ref_ns(const struct stream *st)
{
	struct timespec ts;

	clock_gettime(st->clock_ref, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* bytes of records in a sub-buffer: the header's commit field without its flag bits */
static uint64_t subbuf_data_len(const char *page)
{
	uint64_t commit;

	memcpy(&commit, page + 8, sizeof(commit));
	return commit & ((1ULL << 30) - 1);
}

/* A slot the consumer gave back to @q's freed ring, or NULL (the drain alone takes them). */
static char *slot_reuse(struct stream *st, struct cpu_queue *q)
{
	uint64_t ft = atomic_load_explicit(&q->ftail, memory_order_relaxed);
	char *slot;

	if (ft == atomic_load_explicit(&q->fhead, memory_order_acquire))
		return NULL;
	slot = q->freed[ft % st->nr_slots];
	atomic_store_explicit(&q->ftail, ft + 1, memory_order_release);
	return slot;
}

/* A free slot for the drain: a used one back from the consumer, or a new one; NULL: full. */
static char *slot_get(struct stream *st, struct cpu_queue *q)
{
	char *slot = slot_reuse(st, q);
	unsigned int i;

	if (slot)
		return slot;
	if (st->cap_slots && st->live_slots >= st->cap_slots) {
		/*
		 * The pool is taken: another CPU's queue holds the rest, maybe as freed slots
		 * from a burst there that are not trimmed yet (a thread that moved): use those
		 */
		for (int c = 0; c < st->nr_q && !slot; c++)
			if (&st->q[c] != q)
				slot = slot_reuse(st, &st->q[c]);
		return slot;
	}
	if (q->nr_cold) {
		st->live_slots++;
		return q->cold[--q->nr_cold];
	}
	if (q->nr_alloc >= st->nr_slots)
		return NULL;
	i = q->nr_alloc % SLOT_BLOCK;
	if (!i) {
		/* page-aligned, so that slot_trim() can give the pages back */
		void *b = mmap(NULL, (size_t)SLOT_BLOCK * st->subbuf, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (b == MAP_FAILED)
			return NULL;
		q->blocks = xrealloc(q->blocks, (q->nr_blocks + 1) * sizeof(*q->blocks));
		q->blocks[q->nr_blocks++] = b;
	}
	q->nr_alloc++;
	st->live_slots++;
	return q->blocks[q->nr_blocks - 1] + (size_t)i * st->subbuf;
}

/* The burst is over: the freed slots but SLOT_KEEP go cold, their pages back to the system. */
static void slot_trim(struct stream *st, struct cpu_queue *q)
{
	uint64_t ft = atomic_load_explicit(&q->ftail, memory_order_relaxed);
	uint64_t fh = atomic_load_explicit(&q->fhead, memory_order_acquire);

	/* (a queue given other CPUs' slots may have more than its cold stack holds) */
	for (; fh - ft > SLOT_KEEP && q->nr_cold < st->nr_slots; ft++) {
		char *slot = q->freed[ft % st->nr_slots];

		madvise(slot, st->subbuf, MADV_DONTNEED);
		q->cold[q->nr_cold++] = slot;
		st->live_slots--;
	}
	atomic_store_explicit(&q->ftail, ft, memory_order_release);
}

/* The consumer is done with @slot. */
static void slot_put(struct stream *st, struct cpu_queue *q, char *slot)
{
	uint64_t fh = atomic_load_explicit(&q->fhead, memory_order_relaxed);

	q->freed[fh % st->nr_slots] = slot;
	atomic_store_explicit(&q->fhead, fh + 1, memory_order_release);
}

/*
 * A queue just filled: how long the consumer has let no sub-buffer go. Long (tens of ms and
 * more): it was blocked or got no CPU; short: it ran, decoding slower than events came.
 */
static void note_stall(struct stream *st)
{
	uint64_t at = atomic_load_explicit(&st->consumed_at, memory_order_relaxed);
	uint64_t now = now_ns(), stall = now > at ? now - at : 0;

	if (stall > atomic_load_explicit(&st->full_stall, memory_order_relaxed))
		atomic_store_explicit(&st->full_stall, stall, memory_order_relaxed);
}

/* Read whole sub-buffers of one CPU until it is empty or its queue is full. */
static int drain_cpu(struct stream *st, struct cpu_queue *q, int *full_pages, bool *qfull)
{
	int got = 0;

	*qfull = false;

	for (;;) {
		uint64_t head = atomic_load_explicit(&q->head, memory_order_relaxed);
		uint64_t tail = atomic_load_explicit(&q->tail, memory_order_acquire);
		uint64_t t;
		char *slot;
		ssize_t n;

		if (head - tail >= st->nr_slots || !(slot = q->spare ? q->spare : slot_get(st, q))) {
			if (!q->was_full)
				note_stall(st);
			atomic_fetch_add(&st->queue_full, 1);
			*qfull = true;
			q->was_full = true;
			atomic_store_explicit(&q->ever_full, true, memory_order_relaxed);
			break;
		}
		q->spare = slot;
		/* in the records' clock */
		t = (uint64_t)((int64_t)ref_ns(st) +
			       atomic_load_explicit(&st->skew, memory_order_relaxed));
		n = read(q->fd, slot, st->subbuf);
		if (atomic_load(&st->finish))
			pr_debug("final read cpu%d: %zd %s", q->cpu, n, n < 0 ? strerror(errno) : "");
		if (n <= 0) {
			/* a stop signal's handler ran here: that says nothing of the ring */
			if (n < 0 && errno == EINTR)
				break;
			if (n < 0 && errno != EAGAIN)
				pr_debug("read cpu%d: %s", q->cpu, strerror(errno));
			/* empty now: nothing stamped before t (less the slack) can come later */
			atomic_store_explicit(&q->empty_at, t, memory_order_release);
			break;
		}
		atomic_fetch_add_explicit(&st->pages, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&st->bytes, n, memory_order_relaxed);
		q->ring[head % st->nr_slots] = slot;
		/* events the kernel overwrote meanwhile are reported in this sub-buffer */
		q->after_full[head % st->nr_slots] = q->was_full;
		q->was_full = false;
		q->spare = NULL;
		atomic_store_explicit(&q->head, head + 1, memory_order_release);
		got++;
		/* a full sub-buffer means more is likely waiting */
		if (subbuf_data_len(slot) > (uint64_t)st->subbuf * 3 / 4) {
			(*full_pages)++;
			continue;
		}
		/*
		 * A partly filled one: the writer is on that page or just was. Reading on
		 * would chase it, a few events per read copied one by one while it writes
		 * there; come back at the next wakeup (unless recording stopped). Except
		 * the first of a round: it is likely the rest of the page the last round
		 * stopped on, and the whole pages written since come after it (stopping
		 * there read one round in two, ~1 KiB a ms where 100 were written).
		 */
		if (got > 1 && atomic_load_explicit(&st->finish, memory_order_relaxed) != 1)
			break;
	}
	return got;
}

/*
 * Pages were pushed: wake the consumer. A consumer that read the count before looking at the
 * queues sleeps only while the count is unchanged (FUTEX_WAIT compares it in the kernel), so
 * it cannot miss this wakeup. No lock: the consumer runs at idle priority, and a mutex it held
 * for a moment before each wait (a condition variable's) would block the real-time drain for
 * as long as a busy machine leaves an idle thread preempted, while the kernel's buffer (~10 ms
 * of events at full rate) overflows.
 */
static void drain_wake(struct stream *st)
{
	atomic_fetch_add_explicit(&st->pushes, 1, memory_order_release);
	syscall(SYS_futex, &st->pushes, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Every CPU's "entries" (unread events) is 0: the final pass has everything. */
static bool rings_empty(struct stream *st)
{
	for (int c = 0; c < st->nr_q; c++) {
		uint64_t entries = 0;

		cpu_lost_stat(st, &st->q[c], &entries);
		pr_debug("final: cpu%d entries %llu", st->q[c].cpu, (unsigned long long)entries);
		if (entries)
			return false;
	}
	return true;
}

/*
 * The trace clock minus the clock of ours that runs with it (tracing_clock_ref(): the raw
 * monotonic clock for "local", both the TSC scaled; CLOCK_MONOTONIC for "mono"), from the
 * "now ts" of a CPU's stats: the clock of whichever CPU reads them, which is every CPU's where
 * the clock merges CPUs at all. Measured at the start and then by the session's checker thread
 * (checker.h), never by the drain nor the consumer: opening a tracefs file takes the kernel's
 * trace_types_lock, which any other tracing session's setup or cleanup holds for up to
 * ~200 ms; a drain blocked there lost 0.4-2.6% of 4 M events at full rate on a loaded machine
 * (6.18), and a consumer blocked there lets a CPU's queue fill. Reading the stats while a CPU
 * writes at full rate took 40-70 us.
 * Between readings the two drift apart by well under a ppm (tsc_khz's rounding). A reading
 * that took over 1 ms (preempted) is not trusted; the error, half the reading's time plus
 * 1 us, stays far inside MERGE_SLACK_NS. False: no usable reading (no "now ts").
 */
bool stream_clock_skew(struct stream *st)
{
	struct tracing_cpu_stats cs;
	uint64_t m0, m1;

	if (!st->nr_q)
		return false;
	m0 = ref_ns(st);
	tracing_cpu_stats(st->t, st->q[0].which, st->q[0].cpu, &cs);
	m1 = ref_ns(st);
	if (!cs.now_ns || m1 - m0 > 1000000ULL)
		return false;
	atomic_store_explicit(&st->skew, (int64_t)(cs.now_ns - (m0 + (m1 - m0) / 2)),
			      memory_order_relaxed);
	return true;
}

/*
 * A queue is half full: the consumer of stream_boost_at_half(), starved at idle priority on a
 * busy machine, could not even run to raise itself; raise it from here (one system call each,
 * once per arming), to normal scheduling at nice -10 where allowed.
 */
static void boost_consumer(struct stream *st)
{
	pid_t tid = atomic_exchange(&st->boost_tid, 0);
	struct sched_param sp = { 0 };

	if (!tid)
		return;
	syscall(SYS_sched_setscheduler, tid, SCHED_OTHER, &sp);
	setpriority(PRIO_PROCESS, (id_t)tid, -10);
}

void stream_boost_at_half(struct stream *st, pid_t tid)
{
	if (st)
		atomic_store(&st->boost_tid, tid);
}

/*
 * No buffer_percent: the drain reads on a timer. It sleeps as long as a quarter of one CPU's
 * ring lasts at the rate the last rounds brought, as if all of it went to one CPU (a workload
 * moves between CPUs, and the ring it moves to may have been read a round ago), from 1 to
 * 20 ms (a quiet probe's event shows promptly). The rate halves in each quieter round rather
 * than dropping to 0: one round without events says little of a busy workload's next 20 ms.
 * A fixed 10 ms lost ~2% of 1.5 M events/s (one thread, two probes) with a 1410 KiB ring.
 */
static int timer_ms(struct stream *st)
{
	uint64_t now = now_ns(), bytes = atomic_load_explicit(&st->bytes, memory_order_relaxed);
	uint64_t dt = now - st->tick_ns, rate, ms;

	rate = dt ? (bytes - st->tick_bytes) * 1000000 / dt : 0;
	st->rate = rate > st->rate / 2 ? rate : st->rate / 2;
	st->tick_ns = now;
	st->tick_bytes = bytes;
	if (!st->rate)
		return 20;
	if (!st->ring_bytes)	/* as for a default ring: 10 ms while busy */
		return 10;
	ms = st->ring_bytes / 4 / st->rate;
	return ms < 1 ? 1 : ms > 20 ? 20 : (int)ms;
}

static void *drain_main(void *arg)
{
	struct stream *st = arg;

	/*
	 * The drain must get a CPU as soon as the kernel's buffer is buffer_percent full, even
	 * with the workload on every CPU: the rest of the buffer covers only its wakeup
	 * latency. It takes ~0.03 us of CPU per event, so a real-time priority (the lowest)
	 * costs the workload little; without the privilege, a high nice value.
	 */
	{
		struct sched_param sp = { .sched_priority = 1 };

		if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp)) {
			if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), -10) < 0)
				pr_debug("cannot raise the drain thread's priority: %s",
					 strerror(errno));
		}
	}

	while (!atomic_load(&st->stop)) {
		int got = 0, full = 0;
		bool finishing = atomic_load(&st->finish) == 1, any_qfull = false;
		uint64_t inflight = 0;

		for (int c = 0; c < st->nr_q; c++) {
			uint64_t backlog;
			bool qfull;

			int n = drain_cpu(st, &st->q[c], &full, &qfull);
			struct cpu_queue *q = &st->q[c];

			got += n;
			backlog = atomic_load_explicit(&q->head, memory_order_relaxed) -
				  atomic_load_explicit(&q->tail, memory_order_acquire);
			inflight += backlog;
			if (backlog >= st->nr_slots / 2 ||
			    (st->cap_slots && inflight >= st->cap_slots / 2))
				boost_consumer(st);
			if (backlog > 2)
				q->idle_rounds = 0;
			else if (++q->idle_rounds >= TRIM_IDLE_ROUNDS) {
				slot_trim(st, q);
				q->idle_rounds = 0;
			}
			/*
			 * poll() on a ring buffer that is buffer_percent full returns at
			 * once, every time: while its queue is full, leave it out (or this
			 * real-time thread spins, and the decoder it waits for gets no CPU).
			 */
			st->pfds[c].events = qfull ? 0 : POLLIN;
			any_qfull |= qfull;
		}
		if (got)
			drain_wake(st);
		if (finishing && !got) {
			/* recording is off; a 0-byte read is not the end: ask the ring buffer */
			if (rings_empty(st) || atomic_load(&st->stop)) {
				for (int c = 0; c < st->nr_q; c++)
					atomic_store(&st->q[c].empty_at, UINT64_MAX);
				atomic_store(&st->finish, 2);
				drain_wake(st);
				break;
			}
			usleep(2000);
			continue;
		}
		/*
		 * Sleep until a CPU's buffer is buffer_percent full (the kernel wakes poll()
		 * then: whole sub-buffers in big batches when busy) or for 20 ms, so that a
		 * quiet probe's event shows promptly. Only when a queue was full (decoding
		 * behind) come back after 1 ms: reading on a short timer while busy takes
		 * partly filled sub-buffers, which the kernel copies event by event.
		 */
		if (st->timer)
			poll(NULL, 0, any_qfull ? 1 : timer_ms(st));
		else
			poll(st->pfds, st->nr_q, any_qfull ? 1 : 20);
	}
	return NULL;
}

/*
 * The queues' cap, all CPUs together: 64 MiB, or 1/64 of the RAM when that is less. Memory is
 * taken only as the backlog grows (a decoder that keeps up uses a few sub-buffers); the cap
 * is what a decoder running behind a busy workload may owe before the kernel's buffer has to
 * absorb it, and then lose (counted, with the reason, stream_stats()). The session decodes at
 * normal priority from half of it (session.c adjust_priority()): at 2 M events/s of 74 bytes
 * that is ~0.2 s of events, enough to ride out a burst. It was 1/16 of the RAM up to 1 GiB,
 * and a 60 s session at 490 k events/s on a loaded machine grew to 546 MB before the decoder
 * left idle priority (issue 22).
 */
#define QUEUE_CAP_BYTES (64ULL << 20)

static size_t default_queue_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	uint64_t ram = pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize : 0;

	return ram && ram / 64 < QUEUE_CAP_BYTES ? ram / 64 : QUEUE_CAP_BYTES;
}

struct stream *stream_open(struct tracing *t, struct tep_handle *tep, unsigned int queue_pages,
			   struct diag *d)
{
	struct stream *st = xcalloc(1, sizeof(*st));
	sigset_t all, old;
	int ncpu = sysconf(_SC_NPROCESSORS_CONF);

	st->t = t;
	st->clock_ref = tracing_clock_ref(t);
	/*
	 * default: default_queue_bytes() in all, shared: one CPU's queue may take all of it
	 * (its ring that large, or 4 CPUs' shares on machines with more than 4), at least 256
	 * sub-buffers
	 */
	st->nr_slots = queue_pages;
	st->subbuf = tracing_subbuf_size(t);
	if (!st->nr_slots) {
		st->cap_slots = default_queue_bytes() / st->subbuf;
		if (st->cap_slots < 256)
			st->cap_slots = 256;
		st->nr_slots = ncpu > 4 ? st->cap_slots / ncpu * 4 : st->cap_slots;
		if (st->nr_slots < 256)
			st->nr_slots = 256;
	}
	atomic_store(&st->consumed_at, now_ns());
	st->q = xcalloc((size_t)ncpu * TRACING_NR_RINGS, sizeof(*st->q));
	for (int i = 0; i < ncpu * TRACING_NR_RINGS; i++) {
		struct cpu_queue *q = &st->q[st->nr_q];
		enum tracing_ring ring = i / ncpu;
		int cpu = i % ncpu;

		if (!tracing_has_ring(t, ring))
			continue;
		q->fd = tracing_cpu_open_raw(t, ring, cpu, d);
		if (q->fd == -ENOENT)	/* an offline or absent CPU */
			continue;
		if (q->fd < 0)
			goto err;
		q->cpu = cpu;
		q->which = ring;
		st->nr_event_q += ring == TRACING_RING_EVENTS;
		q->ring = xcalloc(st->nr_slots, sizeof(*q->ring));
		q->after_full = xcalloc(st->nr_slots, sizeof(*q->after_full));
		q->freed = xcalloc(st->nr_slots, sizeof(*q->freed));
		q->cold = xcalloc(st->nr_slots, sizeof(*q->cold));
		q->kbuf = kbuffer_alloc(tep && tep_get_long_size(tep) == 4 ? KBUFFER_LSIZE_4 :
					KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
		q->stat_base = cpu_lost_stat(st, q, NULL);
		st->nr_q++;
	}
	/*
	 * poll() wakes the drain when a CPU's buffer is this full (percent): whole sub-buffers
	 * in batches. The other half covers the drain's wakeup latency (real-time priority:
	 * short). The wakeups themselves are cheap now that a drain stops at a partly filled
	 * sub-buffer instead of chasing the writer.
	 */
	st->timer = !tracing_set_wakeup(t, 50);
	if (st->timer) {
		st->ring_bytes = tracing_buffer_bytes(t);
		/* the first rounds as if busy (2 ms, doubling while quiet): a workload may
		 * start at full speed with the probes */
		st->rate = st->ring_bytes / 4;
		st->tick_ns = now_ns();
	}
	/* before the drain publishes a watermark: a few tries for one not preempted */
	for (int i = 0; i < 5 && !stream_clock_skew(st); i++)
		;
	pr_debug("trace clock - clock %d: %lld ns", (int)st->clock_ref,
		 (long long)atomic_load(&st->skew));
	st->pfds = xcalloc(st->nr_q + 1, sizeof(*st->pfds));
	for (int c = 0; c < st->nr_q; c++) {
		st->pfds[c].fd = st->q[c].fd;
		st->pfds[c].events = POLLIN;
	}
	/*
	 * Signals go to the consumer's thread, except the stop signals: a consumer that runs at
	 * idle priority blocks them, and the drain thread, which always gets a CPU at once,
	 * runs their handler.
	 */
	sigfillset(&all);
	sigdelset(&all, SIGINT);
	sigdelset(&all, SIGTERM);
	sigdelset(&all, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (pthread_create(&st->thread, NULL, drain_main, st)) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		diag_fail(d, "cannot start the drain thread");
		goto err;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	st->thread_started = true;
	return st;
err:
	stream_free(st);
	return NULL;
}

static int rec_type(const void *data);

enum lost_why { LOST_LATE, LOST_QUEUE_FULL, LOST_END };

/*
 * @recs more records lost on @q (@adj: see pair_adj): count them as lost events (records of
 * the events ring; two records an event with stacks attached) or lost task records. A run
 * whose ends are not known yet may count half an event: that one is counted when they are.
 */
static void count_lost(struct stream *st, struct cpu_queue *q, uint64_t recs, int adj,
		       enum lost_why why)
{
	int64_t pairs;
	uint64_t ev, n;

	q->missed += recs;
	q->pair_adj += adj;
	if (q->which == TRACING_RING_TASKS) {
		st->lost_tasks += recs;
		return;
	}
	pairs = (int64_t)q->missed + q->pair_adj;
	ev = !st->attach_id ? q->missed : pairs > 0 ? (uint64_t)pairs / 2 : 0;
	if (ev <= q->lost_ev)
		return;
	n = ev - q->lost_ev;
	q->lost_ev = ev;
	q->pending_lost += n;
	st->lost += n;
	if (why == LOST_QUEUE_FULL)
		st->lost_queue_full += n;
	else if (why == LOST_END)
		st->lost_end += n;
}

/* Make q->ev the next record of this CPU if its queue has one; report missed events. */
static void cpu_advance(struct stream *st, struct cpu_queue *q)
{
	while (!q->ev) {
		uint64_t tail = atomic_load_explicit(&q->tail, memory_order_relaxed);
		unsigned long long ts;
		char *slot;

		if (q->loaded) {
			/* the loaded sub-buffer is used up */
			q->loaded = false;
			slot_put(st, q, q->ring[tail % st->nr_slots]);
			atomic_store_explicit(&st->consumed_at, now_ns(), memory_order_relaxed);
			atomic_store_explicit(&q->tail, tail + 1, memory_order_release);
			continue;
		}
		if (atomic_load_explicit(&q->head, memory_order_acquire) == tail)
			return;
		slot = q->ring[tail % st->nr_slots];
		if (kbuffer_load_subbuffer(q->kbuf, slot) < 0) {
			slot_put(st, q, slot);
			atomic_store_explicit(&q->tail, tail + 1, memory_order_release);
			continue;
		}
		q->loaded = true;
		q->ev = kbuffer_read_event(q->kbuf, &ts);
		q->ev_ts = ts;
		q->gap = false;
		{
			int missed = kbuffer_missed_events(q->kbuf);

			if (missed) {
				/*
				 * -1: the kernel knows records were lost but not how many: its
				 * stats tell, maybe with losses of later sub-buffers in them
				 * (those report them again): never count past the stats.
				 */
				uint64_t n = missed > 0 ? (uint64_t)missed : 1;
				uint64_t now = cpu_lost_stat(st, q, NULL) - q->stat_base;
				/* the run began with the stack of the event held, ended with
				 * the event of the stack that comes first here */
				int adj = (q->ev && rec_type(q->ev) == st->attach_id) -
					  (st->held_q == q);

				if (missed < 0 && now > q->missed)
					n = now - q->missed;
				else if (now < q->missed + n)
					n = now > q->missed ? now - q->missed : 0;
				q->gap = true;
				count_lost(st, q, n, adj, q->after_full[tail % st->nr_slots] ?
					   LOST_QUEUE_FULL : LOST_LATE);
			}
		}
	}
}

static void cpu_consume(struct cpu_queue *q)
{
	unsigned long long ts;

	q->ev = kbuffer_next_event(q->kbuf, &ts);
	q->ev_ts = ts;
	q->gap = false;
}

/*
 * After the final pass, every sub-buffer used up (the runs they report end where they are
 * known): lost events the ring buffer counted but no sub-buffer reported.
 */
static void stream_final_stats(struct stream *st)
{
	if (st->stats_done)
		return;
	st->stats_done = true;
	for (int c = 0; c < st->nr_q; c++) {
		struct cpu_queue *q = &st->q[c];
		uint64_t lost = cpu_lost_stat(st, q, NULL) - q->stat_base;

		/* a queue never full: the buffer filled before the drain read it */
		if (lost > q->missed)
			count_lost(st, q, lost - q->missed, 0,
				   atomic_load(&q->ever_full) ? LOST_END : LOST_LATE);
	}
}

static int rec_type(const void *data)
{
	uint16_t id;

	memcpy(&id, data, sizeof(id));	/* common_type: the first field of every event */
	return id;
}

/*
 * The held record's CPU has its next record (or none will come): hand the held one out,
 * with that next one attached when it is of the attach type. False: keep waiting.
 */
static bool held_ready(struct stream *st, struct stream_rec *rec)
{
	struct cpu_queue *q = st->held_q;

	q->wm = atomic_load_explicit(&q->empty_at, memory_order_acquire);
	if (!q->ev)
		cpu_advance(st, q);
	/* after a gap the stack is another event's: the held one's was lost */
	if (q->ev && !q->gap && rec_type(q->ev) == st->attach_id) {
		*rec = st->held;
		rec->attach = q->ev;
		rec->attach_size = kbuffer_event_size(q->kbuf);
		cpu_consume(q);
	} else if (q->ev || q->pending_lost || q->wm == UINT64_MAX ||
		   q->wm > st->held.ts + MERGE_SLACK_NS) {
		*rec = st->held;
	} else {
		return false;
	}
	st->held_q = NULL;
	return true;
}

/* Deliver @best's record; with an attach type, only together with what follows it. */
static bool deliver_best(struct stream *st, struct cpu_queue *best, struct stream_rec *rec)
{
	rec->cpu = best->cpu;
	rec->ts = best->ev_ts;
	rec->data = best->ev;
	rec->size = kbuffer_event_size(best->kbuf);
	rec->lost = 0;
	rec->attach = NULL;
	rec->attach_size = 0;
	cpu_consume(best);
	/* (stacks follow the events ring's records only) */
	if (!st->attach_id || best->which != TRACING_RING_EVENTS ||
	    rec_type(rec->data) == st->attach_id)
		return true;
	if (best->ev) {
		/* the common case: the next record is in the same sub-buffer */
		if (rec_type(best->ev) == st->attach_id) {
			rec->attach = best->ev;
			rec->attach_size = kbuffer_event_size(best->kbuf);
			cpu_consume(best);
		}
		return true;
	}
	/* the sub-buffer ends here: keep a copy, the next one may not be read yet */
	if (!st->held_buf)
		st->held_buf = xmalloc(st->subbuf);
	if (rec->size > st->subbuf)
		rec->size = st->subbuf;
	memcpy(st->held_buf, rec->data, rec->size);
	st->held = *rec;
	st->held.data = st->held_buf;
	st->held_q = best;
	return held_ready(st, rec);
}

void stream_set_attach(struct stream *st, int type_id)
{
	if (st)
		st->attach_id = type_id;
}

enum stream_what stream_next(struct stream *st, struct stream_rec *rec, int timeout_ms)
{
	uint64_t deadline = 0;

	rec->attach = NULL;
	rec->attach_size = 0;
	for (;;) {
		struct cpu_queue *best = NULL;
		bool blocked = false, done = atomic_load(&st->finish) == 2;
		/* before looking at the queues: a push after this ends the wait below */
		uint32_t pushes = atomic_load_explicit(&st->pushes, memory_order_acquire);

		if (st->held_q) {
			if (held_ready(st, rec))
				return STREAM_RECORD;
			goto wait;
		}
		for (int c = 0; c < st->nr_q; c++) {
			struct cpu_queue *q = &st->q[c];

			/* the watermark first: pages pushed before it are visible after it */
			q->wm = atomic_load_explicit(&q->empty_at, memory_order_acquire);
			if (!q->ev)
				cpu_advance(st, q);
			if (q->pending_lost) {
				rec->cpu = q->cpu;
				rec->lost = q->pending_lost;
				rec->ts = q->ev ? q->ev_ts : 0;
				q->pending_lost = 0;
				return STREAM_LOST;
			}
			if (q->ev && (!best || q->ev_ts < best->ev_ts))
				best = q;
		}
		if (best) {
			for (int c = 0; c < st->nr_q; c++) {
				struct cpu_queue *q = &st->q[c];

				if (q->ev || q->wm == UINT64_MAX)
					continue;
				if (best->ev_ts + MERGE_SLACK_NS > q->wm)
					blocked = true;
			}
			if (!blocked) {
				if (deliver_best(st, best, rec))
					return STREAM_RECORD;
				goto wait;
			}
		} else if (done && !st->stats_done) {
			/* every sub-buffer is used up: what the counters know besides */
			stream_final_stats(st);
			continue;
		} else if (done) {
			return STREAM_END;
		}
wait:
		/* wait for the drain thread */
		{
			uint64_t now = now_ns();
			struct timespec ts;
			uint64_t until;

			if (!deadline)
				deadline = now + (uint64_t)timeout_ms * 1000000ULL;
			if (now >= deadline)
				return STREAM_IDLE;
			until = deadline - now;
			if (until > 10000000ULL)
				until = 10000000ULL;	/* re-check watermarks */
			ts.tv_sec = until / 1000000000ULL;
			ts.tv_nsec = until % 1000000000ULL;
			/* returns at once when the count moved since it was read (EAGAIN) */
			syscall(SYS_futex, &st->pushes, FUTEX_WAIT_PRIVATE, pushes, &ts, NULL, 0);
		}
	}
}

void stream_finish(struct stream *st)
{
	int expect = 0;

	if (st)
		atomic_compare_exchange_strong(&st->finish, &expect, 1);
}

void stream_stats(struct stream *st, struct stream_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (!st)
		return;
	out->pages = atomic_load(&st->pages);
	out->bytes = atomic_load(&st->bytes);
	out->queue_full = atomic_load(&st->queue_full);
	out->lost = st->lost;
	out->lost_queue_full = st->lost_queue_full;
	out->lost_end = st->lost_end;
	out->lost_tasks = st->lost_tasks;
	out->queue_bytes = (uint64_t)(st->cap_slots ? st->cap_slots : st->nr_slots * st->nr_event_q) *
			   st->subbuf;
	out->full_stall_ns = atomic_load(&st->full_stall);
}

void stream_lost_why(const struct stream_stats *ss, unsigned long buffer_kb, struct strbuf *out)
{
	uint64_t late = ss->lost - ss->lost_queue_full - ss->lost_end;
	bool mib = ss->queue_bytes >= (1 << 20);
	const char *sep = "";

	strbuf_addf(out, "of the %llu lost,", (unsigned long long)ss->lost);
	if (late) {
		strbuf_addf(out, " %llu when the kernel's buffer (%lu KiB per CPU) filled before "
			    "upfront read it", (unsigned long long)late, buffer_kb);
		sep = ";";
	}
	if (ss->lost_queue_full) {
		strbuf_addf(out, "%s %llu when decoding fell behind and the queue was at its cap "
			    "(%llu %s", sep, (unsigned long long)ss->lost_queue_full,
			    (unsigned long long)(ss->queue_bytes >> (mib ? 20 : 10)),
			    mib ? "MiB" : "KiB");
		/* a decoder that let no sub-buffer go for a while was blocked or had no CPU */
		if (ss->full_stall_ns >= STALL_NS)
			strbuf_addf(out, "; the decoder had let no sub-buffer go for %llu ms, "
				    "blocked or without a CPU)",
				    (unsigned long long)(ss->full_stall_ns / 1000000));
		else
			strbuf_addstr(out, "; the decoder ran, slower than the events came)");
		sep = ";";
	}
	if (ss->lost_end)
		strbuf_addf(out, "%s %llu counted by the kernel's buffer at the end", sep,
			    (unsigned long long)ss->lost_end);
}

unsigned int stream_backlog(struct stream *st)
{
	unsigned int most = 0;
	uint64_t all = 0;

	if (!st)
		return 0;
	for (int c = 0; c < st->nr_q; c++) {
		struct cpu_queue *q = &st->q[c];
		uint64_t n = atomic_load_explicit(&q->head, memory_order_acquire) -
			     atomic_load_explicit(&q->tail, memory_order_relaxed);
		unsigned int pm = (unsigned int)(n * 1000 / st->nr_slots);

		if (pm > most)
			most = pm;
		all += n;
	}
	if (st->cap_slots && all * 1000 / st->cap_slots > most)
		most = (unsigned int)(all * 1000 / st->cap_slots);
	return most;
}

void stream_free(struct stream *st)
{
	if (!st)
		return;
	atomic_store(&st->stop, 1);
	if (st->thread_started)
		pthread_join(st->thread, NULL);
	for (int c = 0; c < st->nr_q; c++) {
		close(st->q[c].fd);
		for (unsigned int b = 0; b < st->q[c].nr_blocks; b++)
			munmap(st->q[c].blocks[b], (size_t)SLOT_BLOCK * st->subbuf);
		free(st->q[c].blocks);
		free(st->q[c].ring);
		free(st->q[c].after_full);
		free(st->q[c].freed);
		free(st->q[c].cold);
		kbuffer_free(st->q[c].kbuf);
	}
	free(st->q);
	free(st->pfds);
	free(st->held_buf);
	free(st);
}
