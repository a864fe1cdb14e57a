// SPDX-License-Identifier: GPL-2.0-or-later
/* pathsafe.c - whether anyone but root (and the invoking user) can change what a path names */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

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

/* the kernel's POSIX ACL xattr (linux/posix_acl_xattr.h): a version, then entries */
#define ACL_XATTR_VERSION 2
#define ACL_TAG_USER 0x02
#define ACL_TAG_GROUP 0x08
#define ACL_TAG_MASK 0x10
#define ACL_PERM_WRITE 0x02

struct acl_entry {
	uint16_t tag;
	uint16_t perm;
	uint32_t id;
};

/*
 * acl_writer() - a user other than root and @trusted whom @path's access ACL lets write (a
 * named user, or a member of a named group, when the mask lets them), or -1
 */
static long acl_writer(const char *path, uid_t trusted)
{
	unsigned char buf[4 + 64 * sizeof(struct acl_entry)];
	struct acl_entry e;
	ssize_t n = lgetxattr(path, "system.posix_acl_access", buf, sizeof(buf));
	uint32_t version;
	bool mask_w = true;
	long who = -1;

	if (n < 4)
		return -1;
	memcpy(&version, buf, 4);
	if (version != ACL_XATTR_VERSION)
		return -1;
	for (ssize_t off = 4; off + (ssize_t)sizeof(e) <= n; off += sizeof(e)) {
		memcpy(&e, buf + off, sizeof(e));
		if (e.tag == ACL_TAG_MASK)
			mask_w = e.perm & ACL_PERM_WRITE;
	}
	for (ssize_t off = 4; off + (ssize_t)sizeof(e) <= n && who < 0; off += sizeof(e)) {
		memcpy(&e, buf + off, sizeof(e));
		if (!mask_w || !(e.perm & ACL_PERM_WRITE))
			continue;
		if (e.tag == ACL_TAG_USER && !uid_trusted(e.id, trusted))
			who = e.id;
		else if (e.tag == ACL_TAG_GROUP && e.id != 0)
			who = group_other_member(e.id, trusted);
	}
	return who;
}

/*
 * who_can_change() - append to @why who other than root and @trusted can change the entry
 * with status @st in the directory with status @dst (rename or replace it), or, with @dst
 * NULL, the file @st itself (rewrite it)
 * Return: whether someone can.
 */
static bool who_can_change(const char *path, const struct stat *st, const struct stat *dst,
			   uid_t trusted, struct strbuf *why)
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
			return false;	/* sticky: only its (trusted) owner renames it */
		strbuf_addstr(why, "is writable by everyone");
		return true;
	}
	who = acl_writer(path, trusted);
	if (who >= 0) {
		strbuf_addf(why, "is writable by uid %ld through its ACL", who);
		return true;
	}
	return false;
}

int path_owners_check(const char *path, uid_t trusted, struct diag *d)
{
	struct strbuf why = STRBUF_INIT;
	struct stat dst, st;
	char *p = xstrdup(path), *slash, *dir = NULL;
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
		dir = xstrndup(p, strrchr(p, '/') - p);
		if (who_can_change(*dir ? dir : "/", &st, &dst, trusted, &why)) {
			what = *dir ? dir : "/";
			break;
		}
		free(dir);
		dir = NULL;
		/* the file: who can rewrite it in place */
		if (!slash) {
			if (who_can_change(p, &st, NULL, trusted, &why))
				what = p;
			break;
		}
		dst = st;
		*slash = '/';
	}
	if (what) {
		diag_error(d, SPAN_NONE, "refusing to give the kernel the path %s: %s %s, who "
			   "could change what it names before the kernel looks it up", path,
			   what, why.buf);
		diag_hint(d, "copy the binary to a directory only root can write, or trace it "
			  "live (without -a/--keep: upfront gives the kernel the file it opened)");
		ret = -EPERM;
	}
out:
	strbuf_release(&why);
	free(dir);
	free(p);
	return ret;
}
