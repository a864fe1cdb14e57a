// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runas.c - the user "-- CMD" runs as. upfront runs as root (tracefs needs it); the command
 * it starts need not: under sudo it runs as the user who typed sudo (SUDO_UID, SUDO_GID and
 * SUDO_USER's groups), -u USER picks someone, -u root keeps root (strace's -u, but the sudo
 * default is upfront's: a traced program gains nothing from root it did not ask for).
 */
#define LOG_DOMAIN "runas"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "log.h"
#include "runas.h"
#include "util.h"

/* @s as a decimal id below (id_t)-1 (which means "no change" to setuid): digits only */
static bool parse_id(const char *s, unsigned long *out)
{
	char *end;

	if (!s || !*s || s[strspn(s, "0123456789")])
		return false;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return !errno && *out < (unsigned long)(uid_t)-1;
}

/* the groups initgroups(3) would give @name with primary group @gid */
static void fill_groups(struct run_as *ra, const char *name)
{
	int n = 16;

	for (;;) {
		int got = n;

		ra->groups = xrealloc(ra->groups, n * sizeof(*ra->groups));
		if (getgrouplist(name, ra->gid, ra->groups, &got) >= 0) {
			ra->nr_groups = got;
			return;
		}
		if (got <= n)
			n *= 2;
		else
			n = got;
		if (n > 65536)
			break;
	}
	ra->groups[0] = ra->gid;
	ra->nr_groups = 1;
}

int run_as_user(const char *user, struct run_as *ra, struct diag *d)
{
	struct passwd *pw;
	unsigned long id;

	memset(ra, 0, sizeof(*ra));
	errno = 0;
	pw = getpwnam(user);
	if (!pw && parse_id(user, &id))
		pw = getpwuid((uid_t)id);
	if (!pw)
		return diag_error(d, SPAN_NONE, "-u: no user '%s' in the user database", user);
	if (pw->pw_uid == geteuid())
		return 0;	/* -u root as root (or ourselves): CMD stays who we are */
	if (geteuid() != 0)
		return diag_error(d, SPAN_NONE, "-u %s: only root can run a command as another "
				  "user", user);
	ra->set = true;
	ra->uid = pw->pw_uid;
	ra->gid = pw->pw_gid;
	ra->name = xstrdup(pw->pw_name);
	ra->why = "-u";
	fill_groups(ra, pw->pw_name);
	return 0;
}

int run_as_sudo(struct run_as *ra, struct diag *d)
{
	const char *suid = getenv("SUDO_UID"), *sgid = getenv("SUDO_GID");
	const char *suser = getenv("SUDO_USER");
	unsigned long uid, gid = 0;
	struct passwd *pw;

	memset(ra, 0, sizeof(*ra));
	if (geteuid() != 0 || !suid)
		return 0;
	if (!parse_id(suid, &uid))
		return diag_error(d, SPAN_NONE, "SUDO_UID must be a user id, not '%s' (or run "
				  "the command as someone with -u USER)", suid);
	if (sgid && !parse_id(sgid, &gid))
		return diag_error(d, SPAN_NONE, "SUDO_GID must be a group id, not '%s' (or run "
				  "the command as someone with -u USER)", sgid);
	if (!uid)
		return 0;
	pw = getpwuid((uid_t)uid);
	if (!sgid) {
		if (!pw)
			return diag_error(d, SPAN_NONE, "SUDO_UID %lu has no entry in the user "
					  "database and SUDO_GID is not set; give -u USER", uid);
		gid = pw->pw_gid;
	}
	ra->set = true;
	ra->uid = (uid_t)uid;
	ra->gid = (gid_t)gid;
	ra->why = "SUDO_UID";
	/* SUDO_USER's groups when it is the same user; else only the primary group */
	if (suser && pw && !strcmp(pw->pw_name, suser)) {
		ra->name = xstrdup(suser);
		fill_groups(ra, suser);
	} else {
		ra->name = pw ? xstrdup(pw->pw_name) : xasprintf("%lu", uid);
		ra->groups = xmalloc(sizeof(*ra->groups));
		ra->groups[0] = ra->gid;
		ra->nr_groups = 1;
	}
	return 0;
}

int run_as_apply(const struct run_as *ra)
{
	if (!ra || !ra->set)
		return 0;
	if (setgroups(ra->nr_groups, ra->groups) < 0 || setgid(ra->gid) < 0 ||
	    setuid(ra->uid) < 0)
		return -errno;
	/* never back: a process that can regain root did not drop it */
	if (ra->uid && setuid(0) == 0)
		return -EPERM;
	return 0;
}

/* the child of run_as_open(): become the user, open, send the fd (or the errno) on @sock */
_Noreturn static void open_child(const struct run_as *ra, const char *path, int flags,
				 mode_t mode, int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	int err = run_as_apply(ra), fd = -1;
	struct iovec iov = { &err, sizeof(err) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (!err) {
		fd = open(path, flags, mode);
		err = fd < 0 ? -errno : 0;
	}
	if (fd >= 0) {
		struct cmsghdr *c;

		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	_exit(sendmsg(sock, &msg, 0) < 0);
}

int run_as_open(const struct run_as *ra, const char *path, int flags, mode_t mode)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	int sv[2], err = -EIO, fd = -1, st;
	struct iovec iov = { &err, sizeof(err) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	pid_t pid;

	if (!ra || !ra->set)
		return (fd = open(path, flags, mode)) < 0 ? -errno : fd;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		open_child(ra, path, flags, mode, sv[1]);
	}
	close(sv[1]);
	if (pid < 0) {
		err = -errno;
		close(sv[0]);
		return err;
	}
	if (recvmsg(sv[0], &msg, MSG_CMSG_CLOEXEC) == (ssize_t)sizeof(err) && !err) {
		c = CMSG_FIRSTHDR(&msg);
		if (c && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(&fd, CMSG_DATA(c), sizeof(int));
		else
			err = -EIO;
	}
	close(sv[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return fd >= 0 ? fd : (err ? err : -EIO);
}

int run_as_invoker_open(const char *path, int flags, mode_t mode, char **who, struct diag *d)
{
	struct run_as ra = { 0 };
	int fd;

	if (who)
		*who = NULL;
	if (geteuid() == 0 && run_as_invoker() != 0 && run_as_sudo(&ra, d) < 0)
		return -EINVAL;
	fd = run_as_open(&ra, path, flags, mode);
	if (who && ra.set)
		*who = xstrdup(ra.name);
	run_as_release(&ra);
	return fd;
}

/* The files open when upfront started (sorted): CMD inherits those, and none of ours. */
static int *startup_fds;
static size_t nr_startup_fds;

/* every fd >= 3 open now, in ascending order; NULL when none */
static size_t open_fds(int **out)
{
	size_t nr = 0, alloc = 0;
	struct dirent *de;
	int *fds = NULL;
	DIR *dir = opendir("/proc/self/fd");

	while (dir && (de = readdir(dir))) {
		char *end;
		long fd = strtol(de->d_name, &end, 10);

		if (*end || end == de->d_name || fd < 3 || fd == dirfd(dir))
			continue;
		ALLOC_GROW(fds, nr + 1, alloc);
		fds[nr++] = (int)fd;
	}
	if (dir)
		closedir(dir);
	for (size_t i = 1; i < nr; i++)		/* insertion sort: a handful of fds */
		for (size_t k = i; k > 0 && fds[k - 1] > fds[k]; k--) {
			int t = fds[k];

			fds[k] = fds[k - 1];
			fds[k - 1] = t;
		}
	*out = fds;
	return nr;
}

void run_as_note_fds(void)
{
	free(startup_fds);
	nr_startup_fds = open_fds(&startup_fds);
}

size_t run_as_own_fds(int **out)
{
	int *fds = NULL;
	size_t nr = open_fds(&fds), n = 0, k = 0;

	for (size_t i = 0; i < nr; i++) {
		int flags = fcntl(fds[i], F_GETFD);

		while (k < nr_startup_fds && startup_fds[k] < fds[i])
			k++;
		if ((k < nr_startup_fds && startup_fds[k] == fds[i]) || flags < 0 ||
		    (flags & FD_CLOEXEC))
			continue;
		fds[n++] = fds[i];
	}
	if (!n) {
		free(fds);
		fds = NULL;
	}
	*out = fds;
	return n;
}

void run_as_seal_fds(const int *fds, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		fcntl(fds[i], F_SETFD, FD_CLOEXEC);
}

void run_as_release(struct run_as *ra)
{
	free(ra->groups);
	free(ra->name);
	memset(ra, 0, sizeof(*ra));
}

uid_t run_as_invoker(void)
{
	unsigned long uid;

	if (geteuid() == 0 && parse_id(getenv("SUDO_UID"), &uid))
		return (uid_t)uid;
	return getuid();
}
