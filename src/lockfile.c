// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lockfile.c - a trace session's liveness as an flock()ed file /run/upfront/GROUP.lock. The
 * lock lives as long as any process holds its open file: upfront and the cleanup watchdog it
 * forks (tracing.c), so a session whose upfront died stays "alive" until the watchdog has
 * removed what it left. Nothing here depends on pid numbers.
 */
#define LOG_DOMAIN "lockfile"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lockfile.h"
#include "log.h"

static char *lock_path(const char *name)
{
	return xasprintf(LOCKFILE_DIR "/%s.lock", name);
}

/* the directory exists, is root's and closed to others: files in it can be trusted */
static int lock_dir(void)
{
	struct stat st;

	if (mkdir(LOCKFILE_DIR, 0700) < 0 && errno != EEXIST)
		return -errno;
	if (lstat(LOCKFILE_DIR, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & 022))
		return -EPERM;
	return 0;
}

/* @fd (locked) is still the file at @path: not removed by its owner before we locked it */
static bool same_file(int fd, const char *path)
{
	struct stat a, b;

	return !fstat(fd, &a) && !stat(path, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int lockfile_take(const char *name)
{
	char *path = lock_path(name);
	int ret = lock_dir(), fd = -1;

	/* a file removed between our open and our lock is no lock: open it again */
	for (int tries = 0; !ret && tries < 10; tries++) {
		fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0) {
			ret = -errno;
			break;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			ret = errno == EWOULDBLOCK ? -EBUSY : -errno;
			break;
		}
		if (same_file(fd, path)) {
			char pid[32];
			int n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());

			/* for people: the pid in the namespace that took it */
			if (ftruncate(fd, 0) < 0 || write(fd, pid, n) != n)
				pr_debug("cannot write %s: %s", path, strerror(errno));
			free(path);
			return fd;
		}
		close(fd);
		fd = -1;
	}
	if (fd >= 0)
		close(fd);
	free(path);
	return ret ? ret : -EBUSY;
}

enum lockfile_state lockfile_probe(const char *name, int *fd)
{
	char *path = lock_path(name);
	int f = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	enum lockfile_state state = LOCKFILE_HELD;

	if (fd)
		*fd = -1;
	if (f < 0) {
		state = errno == ENOENT ? LOCKFILE_NONE : LOCKFILE_HELD;
	} else if (flock(f, LOCK_EX | LOCK_NB) == 0 && same_file(f, path)) {
		/* (a file its owner removed just now: its remains are gone, or going) */
		state = LOCKFILE_FREE;
		if (fd) {
			*fd = f;
			f = -1;
		}
	}
	if (f >= 0)
		close(f);
	free(path);
	return state;
}

void lockfile_drop(const char *name, int fd)
{
	char *path = lock_path(name);

	if (fd >= 0) {
		unlink(path);	/* while still locked: nobody takes the old file meanwhile */
		close(fd);
	}
	free(path);
}

void lockfile_names(struct strlist *out)
{
	DIR *dir = opendir(LOCKFILE_DIR);
	struct dirent *de;

	while (dir && (de = readdir(dir))) {
		size_t n = strlen(de->d_name);

		if (n > 5 && !strcmp(de->d_name + n - 5, ".lock")) {
			char *name = xstrndup(de->d_name, n - 5);

			strlist_add(out, name);
			free(name);
		}
	}
	if (dir)
		closedir(dir);
}

static char *kept_path(const char *name)
{
	return xasprintf(LOCKFILE_DIR "/%s.kept", name);
}

int lockfile_mark_kept(const char *name)
{
	char *path = kept_path(name);
	int ret = lock_dir(), fd;

	if (!ret) {
		fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			ret = -errno;
		else
			close(fd);
	}
	free(path);
	return ret;
}

bool lockfile_is_kept(const char *name)
{
	char *path = kept_path(name);
	struct stat st;
	bool kept = !lstat(path, &st) && S_ISREG(st.st_mode) && st.st_uid == 0;

	free(path);
	return kept;
}

void lockfile_unmark_kept(const char *name)
{
	char *path = kept_path(name);

	unlink(path);
	free(path);
}
