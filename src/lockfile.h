/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lockfile.h - a trace session's liveness: a file under /run/upfront named after its group,
 * flock()ed for the session's lifetime (by upfront and its cleanup watchdog). A lock says
 * "alive" across pid namespaces, where a pid number says nothing.
 */
#ifndef UPF_LOCKFILE_H
#define UPF_LOCKFILE_H

#include <stdbool.h>

#include "util.h"

/* The directory of the lock files; root's, mode 0700. */
#define LOCKFILE_DIR "/run/upfront"

enum lockfile_state {
	LOCKFILE_NONE,		/* no lock file: a session of an older upfront, or none */
	LOCKFILE_HELD,		/* a live session (or one being cleaned up) */
	LOCKFILE_FREE,		/* its session is gone: its remains may be removed */
};

/**
 * lockfile_take() - create (or reuse a free) lock file for @name and lock it
 * Return: the locked descriptor (close-on-exec) to keep for the session's lifetime;
 * -EBUSY when another session holds @name; another -errno when there is no usable
 * LOCKFILE_DIR (not a root-owned directory closed to others, or not creatable).
 */
int lockfile_take(const char *name);

/**
 * lockfile_probe() - whether @name's session is alive
 * @fd: (or NULL) for LOCKFILE_FREE, gets the lock, taken: the caller removes the session's
 * remains while holding it, then calls lockfile_drop(); with NULL it is let go at once
 * Return: the state; a lock file that cannot be opened counts as LOCKFILE_HELD.
 */
enum lockfile_state lockfile_probe(const char *name, int *fd);

/**
 * lockfile_drop() - remove @name's lock file and let go of its lock @fd (from
 * lockfile_take() or lockfile_probe()); the session's remains are gone by now
 */
void lockfile_drop(const char *name, int fd);

/**
 * lockfile_mark_kept() - mark @name's session as kept (--keep): a session gone whose
 * remains are nobody's to reap; upfront -d removes them and the mark (lockfile_unmark_kept)
 * Return: 0, or -errno when the mark cannot be made (the remains are then reaped as a dead
 * session's by the next run)
 */
int lockfile_mark_kept(const char *name);

/**
 * lockfile_names() - the names that have a lock file in LOCKFILE_DIR ("upfront_42" for
 * upfront_42.lock), held or not: a session killed before it made anything in tracefs left
 * only its lock file, which only this finds
 * @out: appended to
 */
void lockfile_names(struct strlist *out);

/** lockfile_is_kept() - whether @name's session was kept (its mark is there) */
bool lockfile_is_kept(const char *name);

/** lockfile_unmark_kept() - remove @name's kept mark (its remains are gone) */
void lockfile_unmark_kept(const char *name);

#endif
