// SPDX-License-Identifier: GPL-2.0-or-later
/* test-runas.c - who "-- CMD" runs as: -u USER, the sudo user, checked SUDO_* values */
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../src/runas.h"
#include "unittest.h"

static void test_user(void)
{
	struct passwd *nobody = getpwnam("nobody");
	struct run_as ra;
	struct diag d;

	diag_init(&d, NULL);
	TEST_EQ(run_as_user("nosuchuser_upft", &ra, &d), -EINVAL);
	TEST_STREQ(d.msg, "-u: no user 'nosuchuser_upft' in the user database");
	diag_release(&d);

	/* ourselves: nothing to switch */
	diag_init(&d, NULL);
	TEST_EQ(run_as_user(getpwuid(geteuid())->pw_name, &ra, &d), 0);
	TEST_EQ(ra.set, false);
	run_as_release(&ra);
	diag_release(&d);

	if (!nobody || geteuid() != 0)
		return;
	diag_init(&d, NULL);
	TEST_EQ(run_as_user("nobody", &ra, &d), 0);
	TEST_EQ(ra.set, true);
	TEST_EQ(ra.uid, nobody->pw_uid);
	TEST_EQ(ra.gid, nobody->pw_gid);
	TEST_TRUE(ra.nr_groups >= 1 && ra.groups[0] == nobody->pw_gid);
	TEST_STREQ(ra.name, "nobody");
	run_as_release(&ra);
	TEST_EQ(run_as_user("65534", &ra, &d), 0);	/* a uid in the database */
	TEST_EQ(ra.uid, 65534);
	run_as_release(&ra);
	diag_release(&d);
}

static void test_sudo(void)
{
	struct run_as ra;
	struct diag d;

	if (geteuid() != 0)
		return;		/* not root: never a switch */
	unsetenv("SUDO_UID");
	unsetenv("SUDO_GID");
	unsetenv("SUDO_USER");
	diag_init(&d, NULL);
	TEST_EQ(run_as_sudo(&ra, &d), 0);
	TEST_EQ(ra.set, false);
	setenv("SUDO_UID", "65534", 1);
	setenv("SUDO_GID", "65534", 1);
	setenv("SUDO_USER", "nobody", 1);
	TEST_EQ(run_as_sudo(&ra, &d), 0);
	TEST_EQ(ra.set, true);
	TEST_EQ(ra.uid, 65534);
	TEST_EQ(ra.gid, 65534);
	TEST_STREQ(ra.why, "SUDO_UID");
	run_as_release(&ra);
	setenv("SUDO_UID", "0", 1);
	TEST_EQ(run_as_sudo(&ra, &d), 0);
	TEST_EQ(ra.set, false);		/* sudo from root */
	diag_release(&d);

	static const char *const bad[] = { "", "abc", "-1", "+5", " 5", "5x", "4294967295",
					   "99999999999999999999" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		diag_init(&d, NULL);
		setenv("SUDO_UID", bad[i], 1);
		TEST_EQ(run_as_sudo(&ra, &d), -EINVAL);
		TEST_TRUE(d.msg && strstr(d.msg, "SUDO_UID must be a user id"));
		diag_release(&d);
	}
	setenv("SUDO_UID", "65534", 1);
	setenv("SUDO_GID", "x", 1);
	diag_init(&d, NULL);
	TEST_EQ(run_as_sudo(&ra, &d), -EINVAL);
	TEST_TRUE(d.msg && strstr(d.msg, "SUDO_GID must be a group id"));
	diag_release(&d);
	unsetenv("SUDO_UID");
	unsetenv("SUDO_GID");
	unsetenv("SUDO_USER");
}

int main(void)
{
	test_user();
	test_sudo();
	return TEST_DONE();
}
