/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stream.h - per-CPU raw ring buffers drained into bounded queues, merged in time order */
#ifndef UPF_STREAM_H
#define UPF_STREAM_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "diag.h"

struct stream;
struct strbuf;
struct tracing;
struct tep_handle;

/* What stream_next() returns. */
enum stream_what {
	STREAM_END = 0,		/* stopped and everything was delivered */
	STREAM_RECORD,		/* @rec holds one event */
	STREAM_LOST,		/* @rec->lost events were lost on @rec->cpu here */
	STREAM_IDLE,		/* nothing could be delivered before the timeout */
};

struct stream_rec {
	uint64_t ts;		/* trace_clock (mono) ns */
	int cpu;
	void *data;		/* the event's payload (common fields first) */
	int size;
	uint64_t lost;		/* STREAM_LOST */
	void *attach;		/* the record of stream_set_attach()'s type that followed this
				 * one on its CPU (a user_stack), or NULL */
	int attach_size;
};

/* Counters, per session. */
struct stream_stats {
	uint64_t pages;		/* sub-buffers read */
	uint64_t bytes;
	uint64_t lost;		/* events reported lost (missed events + final ring stats) */
	/*
	 * Why, of @lost: the kernel's buffer filled while the drain left it alone because the
	 * CPU's queue was at its cap (decoding behind); the rest of @lost but @lost_end, while
	 * the queue had room (the drain read too late for the buffer's size)
	 */
	uint64_t lost_queue_full;
	uint64_t lost_end;	/* counted by the ring buffer's stats at the end alone, on a CPU
				 * whose queue was full at times (else they count as the rest) */
	uint64_t lost_tasks;	/* the kernel's task records lost (tasks.h): not events */
	uint64_t queue_full;	/* times the drain found a CPU's queue full */
	uint64_t queue_bytes;	/* the queues' cap, all CPUs together */
	uint64_t full_stall_ns;	/* when a queue filled, the longest the consumer had let no
				 * sub-buffer go (blocked, or no CPU) */
};

/**
 * stream_open() - open every CPU's trace_pipe_raw of session @t (non-blocking) and start the drain
 * thread that copies whole sub-buffers into a bounded queue per CPU (@queue_pages each;
 * 0: one pool of 64 MiB for all, or 1/64 of the RAM when less, which one CPU's queue may take
 * whole; taken as the backlog grows). The drain never waits on decoding: when a queue is full the kernel buffers, then
 * loses events (counted in stream_stats() with the reason). The drain thread runs at
 * real-time priority when allowed, and leaves SIGINT, SIGTERM and SIGHUP unblocked (their
 * handler runs there when the consumer's thread blocks them); other signals it blocks.
 * @tep: the event formats (for the header page / kbuffer layout)
 * Return: the stream, or NULL with @d filled.
 */
struct stream *stream_open(struct tracing *t, struct tep_handle *tep, unsigned int queue_pages,
			   struct diag *d);

/**
 * stream_next() - the next event in time order across CPUs
 * @timeout_ms: how long to wait for something deliverable; 0 polls
 *
 * An event is delivered once every other CPU either has a later event queued or was found
 * empty after it (a few ms of slack), so the merge is exact even for a quiet CPU.
 * @rec->data stays valid until the next call. Not thread safe: one consumer.
 */
enum stream_what stream_next(struct stream *st, struct stream_rec *rec, int timeout_ms);

/**
 * stream_finish() - the kernel stopped recording (tracing_on 0): read what is left in the
 * ring buffers, then stream_next() delivers it and returns STREAM_END. Counts the lost
 * events the ring buffer's stats know of that no sub-buffer reported; they come out of
 * stream_next() as STREAM_LOST before STREAM_END.
 */
void stream_finish(struct stream *st);

/**
 * stream_set_attach() - records of tracefs event id @type_id (ftrace's user_stack) that
 * follow a record on the same CPU are handed out with it (stream_rec.attach) instead of on
 * their own; a record waits for its CPU's next one (the kernel commits the two separately,
 * maybe in different sub-buffers) until it comes or the CPU is found empty. 0: off.
 */
void stream_set_attach(struct stream *st, int type_id);

/**
 * stream_stats() - counters so far; all 0 for a NULL @st
 */
void stream_stats(struct stream *st, struct stream_stats *out);

/**
 * stream_lost_why() - why @ss->lost events were lost, as a phrase for the summary ("of the N
 * lost, A when the kernel's buffer (@buffer_kb KiB per CPU) filled before upfront read it;
 * B when decoding fell behind and the queue was at its cap (64 MiB); C counted by the
 * kernel's buffer at the end", the parts that are not 0), appended to @out
 */
void stream_lost_why(const struct stream_stats *ss, unsigned long buffer_kb, struct strbuf *out);

/**
 * stream_backlog() - how full the fullest CPU's queue, or the pool of all, is, in permille of
 * its bound (the decoder's debt to the drain; at 1000 the drain leaves events in the kernel's
 * buffer)
 */
unsigned int stream_backlog(struct stream *st);

/**
 * stream_boost_at_half() - when a CPU's queue is half full, the drain thread moves thread @tid
 * (the consumer, which runs at SCHED_IDLE while the queue is short) to normal scheduling at
 * nice -10 where allowed: at idle priority on a busy machine it could not run to do it
 * itself. Once per call; 0 disarms.
 */
void stream_boost_at_half(struct stream *st, pid_t tid);

/**
 * stream_clock_skew() - measure the trace clock's offset from the clock of ours that runs with
 * it again (it drifts by well under a ppm), from a CPU's stats file: that open can wait
 * ~200 ms behind other sessions' tracefs work, so not on the draining or decoding path (the
 * session's checker thread calls it); safe beside stream_next() on another thread
 * Return: false when the reading was unusable (preempted, or no "now ts"): the last stays.
 */
bool stream_clock_skew(struct stream *st);

/**
 * stream_free() - stop the drain thread, close everything; accepts NULL
 */
void stream_free(struct stream *st);

#endif
