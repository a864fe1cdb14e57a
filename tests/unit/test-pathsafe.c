// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-pathsafe.c - who could change what a path names (path_owners_check()), on a directory
 * of our own under /tmp: as root and as uid 65534 alike, the running user is the trusted one
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/pathsafe.h"
#include "unittest.h"

static char dir[PATH_MAX], file[PATH_MAX + 16];

/* path_owners_check(@path, @trusted): its return, and the message (if any) in @msg */
static int check(const char *path, uid_t trusted, char *msg, size_t len)
{
	struct diag d;
	int ret;

	diag_init(&d, NULL);
	ret = path_owners_check(path, trusted, &d);
	snprintf(msg, len, "%s", d.msg ? d.msg : "");
	diag_release(&d);
	return ret;
}

static void test_modes(void)
{
	uid_t me = geteuid();
	char msg[PATH_MAX * 3];
	FILE *f;

	f = fopen(file, "w");
	TEST_TRUE(f != NULL);
	if (f)
		fclose(f);
	chmod(dir, 0755);
	chmod(file, 0644);
	TEST_EQ(check(file, me, msg, sizeof(msg)), 0);
	if (me != 0)	/* not trusted: our own directory (in sticky /tmp) is someone else's */
		TEST_EQ(check(file, 0, msg, sizeof(msg)), -EPERM);
	/* others' write bits only: our group may have other members (nogroup has) */
	chmod(dir, 0757);
	TEST_EQ(check(file, me, msg, sizeof(msg)), -EPERM);
	TEST_TRUE(strstr(msg, " is writable by everyone, who could change what it names") != NULL);
	chmod(dir, 01757);	/* sticky: only the file's (trusted) owner can rename it */
	TEST_EQ(check(file, me, msg, sizeof(msg)), 0);
	chmod(dir, 0755);
	chmod(file, 0646);	/* anyone can rewrite the file itself */
	TEST_EQ(check(file, me, msg, sizeof(msg)), -EPERM);
	TEST_TRUE(strstr(msg, "/f is writable by everyone") != NULL);
	chmod(file, 0644);
	unlink(file);
}

static void test_swapped(void)
{
	char link[PATH_MAX + 16], sub[PATH_MAX + 16], via[PATH_MAX + 32], msg[PATH_MAX * 3];

	snprintf(sub, sizeof(sub), "%s/sub", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	snprintf(via, sizeof(via), "%s/link/x", dir);
	TEST_EQ(mkdir(sub, 0755), 0);
	TEST_EQ(symlink(sub, link), 0);
	TEST_EQ(check(via, geteuid(), msg, sizeof(msg)), -EINVAL);
	TEST_TRUE(strstr(msg, "/link is a symbolic link now") != NULL);
	unlink(link);
	rmdir(sub);
	TEST_EQ(check(via, geteuid(), msg, sizeof(msg)), -EINVAL);
	TEST_TRUE(strstr(msg, "/link is gone") != NULL);
	TEST_EQ(check("relative/path", geteuid(), msg, sizeof(msg)), -EINVAL);
}

int main(void)
{
	char tmpl[] = "/tmp/upft-pathsafe.XXXXXX";
	char *real;

	if (!mkdtemp(tmpl) || !(real = realpath(tmpl, NULL))) {
		printf("not ok 1 - cannot make a directory under /tmp\n1..1\n");
		return 1;
	}
	snprintf(dir, sizeof(dir), "%s", real);
	snprintf(file, sizeof(file), "%s/f", dir);
	free(real);
	test_modes();
	test_swapped();
	rmdir(dir);
	return TEST_DONE();
}
