// SPDX-License-Identifier: GPL-2.0-or-later
/* nsroot.c - -x names resolved in a traced process's mount namespace (containers) */
#define LOG_DOMAIN "nsroot"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch/arch.h"
#include "log.h"
#include "nsroot.h"
#include "util.h"


static bool other_mount_ns_now(pid_t pid)
{
	char path[64];
	struct stat self, other;

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pid);
	if (stat("/proc/self/ns/mnt", &self) < 0 || stat(path, &other) < 0)
		return false;
	return self.st_ino != other.st_ino || self.st_dev != other.st_dev;
}

/* the last answer, per process (a stack's frames ask for one process after another) */
static bool other_mount_ns(pid_t pid)
{
	static pid_t last_pid;
	static bool last;

	if (pid != last_pid) {
		last = other_mount_ns_now(pid);
		last_pid = pid;
	}
	return last;
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * where a container's dynamic linker looks when the process has not mapped the library: the
 * machine's default directories, then /usr/local/lib
 */
static char *in_lib_dirs(pid_t pid, const char *name)
{
	char *dirs = xasprintf("%s:/usr/local/lib", arch_current()->lib_dirs), *path = NULL;
	char *save;

	for (char *dir = strtok_r(dirs, ":", &save); dir && !path;
	     dir = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("/proc/%d/root%s/%s", (int)pid, dir, name);

		if (is_file(p))
			path = p;
		else
			free(p);
	}
	free(dirs);
	return path;
}

/*
 * @path, as /proc/PID/maps names a file of @pid's, under /proc/PID/root. When @pid is chrooted
 * inside its mount namespace (unshare -m then chroot, runc --no-pivot), the kernel names its
 * files from the namespace's root, not from the process's ("/newroot/usr/lib/libc.so.6"), and
 * readlink(/proc/PID/root) is that prefix ("/newroot"): dropped when the file is there without it
 * and not with it
 */
static char *under_root(pid_t pid, const char *path)
{
	char *p = xasprintf("/proc/%d/root%s", (int)pid, path), *q;
	char link[64], root[4096];
	ssize_t n;

	if (is_file(p))
		return p;
	snprintf(link, sizeof(link), "/proc/%d/root", (int)pid);
	n = readlink(link, root, sizeof(root) - 1);
	if (n <= 1 || strncmp(path, root, (size_t)n) || path[n] != '/')
		return p;
	q = xasprintf("%s%s", link, path + n);
	if (!is_file(q)) {
		free(q);
		return p;
	}
	pr_debug("%d: %s is %s in its root (chrooted in its namespace)", (int)pid, path, path + n);
	free(p);
	return q;
}

/* @base is @name, or @name followed by a version ("libz.so" for "libz.so.1.2.13") */
static bool name_matches(const char *base, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(base, name, n) && (!base[n] || base[n] == '.');
}

/* the file named @name (a basename) that @pid has mapped, as its path in its namespace */
static char *mapped(pid_t pid, const char *name)
{
	char path[64], *line = NULL, *found = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	while (!found && getline(&line, &cap, f) > 0) {
		char *file = strchr(line, '/'), *base;

		if (!file)
			continue;
		file[strcspn(file, "\n")] = '\0';
		base = strrchr(file, '/') + 1;
		if (name_matches(base, name))
			found = xstrdup(file);
	}
	free(line);
	fclose(f);
	return found;
}

char *nsroot_binary(pid_t pid, const char *name)
{
	char *in_ns, *path;

	if (!other_mount_ns(pid))
		return NULL;
	if (name[0] == '/') {
		path = xasprintf("/proc/%d/root%s", (int)pid, name);
	} else if (strchr(name, '/')) {
		return NULL;	/* relative to upfront's directory, as without -p */
	} else if ((in_ns = mapped(pid, name))) {
		path = under_root(pid, in_ns);
		free(in_ns);
	} else {
		path = in_lib_dirs(pid, name);
		if (!path)
			return NULL;
	}
	pr_info("-x %s: in the mount namespace of process %d: %s", name, (int)pid, path);
	return path;
}

char *nsroot_path(pid_t pid, const char *path)
{
	if (pid <= 0 || path[0] != '/' || !other_mount_ns(pid))
		return NULL;
	return under_root(pid, path);
}
