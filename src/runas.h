/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runas.h - who "-- CMD" runs as (-u USER, else the user who ran sudo, else upfront's own)
 * and which of upfront's files it must not inherit
 */
#ifndef UPF_RUNAS_H
#define UPF_RUNAS_H

#include <stdbool.h>
#include <sys/types.h>

#include "diag.h"

/* A user to become before exec, resolved in full before any fork (the child only switches). */
struct run_as {
	bool set;		/* switch before exec; false: CMD runs as upfront does */
	uid_t uid;
	gid_t gid;
	gid_t *groups;		/* supplementary groups, as initgroups(3) would set them */
	int nr_groups;
	char *name;		/* the user's name (or uid) for messages */
	const char *why;	/* "-u" or "SUDO_UID": where the user came from */
};

/**
 * run_as_user() - -u USER: a user name, or a numeric uid with an entry in the user database;
 * its primary group and supplementary groups from the group database. "-u root" (uid 0) when
 * upfront runs as root leaves @ra unset: CMD keeps root.
 * @user: the option's value
 * @ra: filled; release with run_as_release()
 * Return: 0, or -EINVAL with @d saying what is wrong (no such user; not root).
 */
int run_as_user(const char *user, struct run_as *ra, struct diag *d);

/**
 * run_as_sudo() - the default under sudo: upfront runs as root and SUDO_UID names someone
 * else; SUDO_GID (else that user's primary group) and SUDO_USER's supplementary groups.
 * SUDO_UID and SUDO_GID are checked as numbers (an environment knob is validated, never
 * guessed). Not under sudo, or SUDO_UID=0: @ra is left unset.
 * Return: 0, or -EINVAL with @d naming the variable and its value.
 */
int run_as_sudo(struct run_as *ra, struct diag *d);

/**
 * run_as_invoker() - the user who asked for this run: SUDO_UID when upfront runs as root under
 * sudo (a valid number), else the real uid. That user may change the files upfront reads
 * without gaining anything (path_owners_check() trusts them as it trusts root).
 */
uid_t run_as_invoker(void);

/**
 * run_as_open() - open(2) @path as @ra's user would: in a child that becomes the user first
 * (its rights, its file ownership; a symbolic link followed with its rights, never root's),
 * the file descriptor passed back. @ra unset: a plain open().
 * Return: the file descriptor, or -errno (of the open, or of becoming the user).
 */
int run_as_open(const struct run_as *ra, const char *path, int flags, mode_t mode);

/**
 * run_as_invoker_open() - open(2) @path as the user who asked for this run: under sudo (root,
 * SUDO_UID another user) as that user (run_as_open()), else as upfront runs
 * @who: (or NULL) gets that user's name for messages (free()), NULL when not under sudo
 * Return: the file descriptor, -errno of the open, or -EINVAL with @d filled (a bad SUDO_UID).
 */
int run_as_invoker_open(const char *path, int flags, mode_t mode, char **who, struct diag *d);

/**
 * run_as_apply() - become @ra's user: supplementary groups, group, user, in that order.
 * Only system calls: safe in the child of a fork() of a threaded process, before exec.
 * Return: 0 (also when @ra is unset), or -errno of the step that failed.
 */
int run_as_apply(const struct run_as *ra);

/**
 * run_as_note_fds() - remember the files upfront was started with (the caller's, which CMD
 * inherits as it would without upfront); call first thing in main()
 */
void run_as_note_fds(void);

/**
 * run_as_own_fds() - the files open now that upfront opened itself without close-on-exec
 * (libraries do: libcurl's socketpair under libdebuginfod), for run_as_seal_fds()
 * @out: set to an array for free(), or NULL when there are none
 * Return: how many.
 */
size_t run_as_own_fds(int **out);

/**
 * run_as_seal_fds() - mark @fds close-on-exec: in the child before exec, so CMD gets none of
 * upfront's files (a tracefs file, a socket of root's). Only fcntl(2): safe after fork().
 */
void run_as_seal_fds(const int *fds, size_t nr);

/**
 * run_as_release() - free what run_as_user()/run_as_sudo() filled in; @ra is left unset
 */
void run_as_release(struct run_as *ra);

#endif
