// SPDX-License-Identifier: GPL-2.0-or-later
/* pathsafe.c - whether anyone but root (and the invoking user) can change what a path names */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define LOG_DOMAIN "pathsafe"
#include "log.h"
#include "pathsafe.h"
#include "util.h"

static bool uid_trusted(uid_t uid, uid_t trusted)
{
	return uid == 0 || uid == trusted;
}

/* a user other than root and @trusted in group @gid (listed in it, or of it by default), or -1 */
static long group_other_member(gid_t gid, uid_t trusted)
{
	struct group *gr = getgrgid(gid);
	struct passwd *pw;
	long found = -1;

	for (char **m = gr ? gr->gr_mem : NULL; m && *m && found < 0; m++) {
		pw = getpwnam(*m);	/* a name with no user is no one */
		if (pw && !uid_trusted(pw->pw_uid, trusted))
			found = pw->pw_uid;
	}
	if (found >= 0)
		return found;
	setpwent();
	while ((pw = getpwent()))
		if (pw->pw_gid == gid && !uid_trusted(pw->pw_uid, trusted)) {
			found = pw->pw_uid;
			break;
		}
	endpwent();
	return found;
}

/*
 * who_can_change() - append to @why who other than root and @trusted can change the entry
 * with status @st in the directory with status @dst (rename or replace it), or, with @dst
 * NULL, the file @st itself (rewrite it)
 * Return: whether someone can.
 */
static bool who_can_change(const struct stat *st, const struct stat *dst, uid_t trusted,
			   struct strbuf *why)
{
	const struct stat *x = dst ? dst : st;
	long who;

	if (!uid_trusted(x->st_uid, trusted)) {
		strbuf_addf(why, "belongs to uid %ld", (long)x->st_uid);
		return true;
	}
	if ((x->st_mode & S_IWGRP) && x->st_gid != 0 &&
	    (who = group_other_member(x->st_gid, trusted)) >= 0) {
		strbuf_addf(why, "is writable by group %ld, which uid %ld is in", (long)x->st_gid,
			    who);
		return true;
	}
	if (x->st_mode & S_IWOTH) {
		if (dst && (dst->st_mode & S_ISVTX) && uid_trusted(st->st_uid, trusted))
			return false;	/* sticky: only the entry's owner (trusted) may rename it */
		strbuf_addstr(why, "is writable by everyone");
		return true;
	}
	return false;
}

int path_owners_check(const char *path, uid_t trusted, struct diag *d)
{
	struct strbuf why = STRBUF_INIT;
	struct stat dst, st;
	char *p = xstrdup(path), *slash;
	const char *what = NULL;
	int ret = 0;

	if (p[0] != '/' || lstat("/", &dst) < 0) {
		ret = diag_error(d, SPAN_NONE, "%s is not an absolute path", path);
		goto out;
	}
	for (slash = strchr(p + 1, '/');; slash = strchr(slash + 1, '/')) {
		if (slash)
			*slash = '\0';
		if (lstat(p, &st) < 0) {
			if (errno == ENOENT || errno == ENOTDIR)
				ret = diag_error(d, SPAN_NONE, "%s is gone: %s was moved after "
						 "upfront opened it", p, path);
			else
				ret = diag_fail(d, "cannot check %s: %s", p, strerror(errno));
			goto out;
		}
		if (S_ISLNK(st.st_mode)) {
			ret = diag_error(d, SPAN_NONE, "%s is a symbolic link now: %s was swapped "
					 "after upfront opened it", p, path);
			goto out;
		}
		/* who can rename or replace this entry: its directory's writers */
		if (who_can_change(&st, &dst, trusted, &why)) {
			*strrchr(p, '/') = '\0';
			what = *p ? p : "/";
			break;
		}
		/* the file: who can rewrite it in place */
		if (!slash) {
			if (who_can_change(&st, NULL, trusted, &why))
				what = p;
			break;
		}
		dst = st;
		*slash = '/';
	}
	if (what) {
		diag_error(d, SPAN_NONE, "refusing to give the kernel the path %s: %s %s, who could "
			   "change what it names before the kernel looks it up", path, what,
			   why.buf);
		diag_hint(d, "copy the binary to a directory only root can write, or trace it "
			  "live (without -a/--keep: upfront gives the kernel the file it opened)");
		ret = -EPERM;
	}
out:
	strbuf_release(&why);
	free(p);
	return ret;
}
