// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shim-race.c - LD_PRELOAD'ed into upfront by truncated.sh and persistent.sh to play, at a
 * fixed point, the other process of a race (deterministic: no timing):
 *  - UPFT_SHIM_TRUNCATE=FILE, UPFT_SHIM_SIZE=N: the first time upfront asks libdwfl for the
 *    build-id (right after debuginfo_open() opened and mapped the file, before any symbol or
 *    DWARF is read), truncate FILE to N bytes (default 4096), as a rebuild in place would;
 *  - UPFT_SHIM_SWAP=SRC:DST: just before upfront appends its first line to uprobe_events
 *    (tracefs_instance_file_append(), or write(2) on a descriptor of uprobe_events, the way
 *    tracing_add_probes() writes its lines), rename SRC over DST, as someone who can write DST's directory would between upfront's
 *    check of the path and the kernel's lookup of it.
 * Each acts once and is then unset (so "-- CMD" does not see it).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tracefs_instance;	/* libtracefs: only passed on */
#include <unistd.h>

int dwfl_module_build_id(Dwfl_Module *mod, const unsigned char **bits, GElf_Addr *vaddr)
{
	static int (*real)(Dwfl_Module *, const unsigned char **, GElf_Addr *);
	const char *file = getenv("UPFT_SHIM_TRUNCATE");
	const char *size = getenv("UPFT_SHIM_SIZE");

	if (!real)
		real = (int (*)(Dwfl_Module *, const unsigned char **, GElf_Addr *))
			dlsym(RTLD_NEXT, "dwfl_module_build_id");
	if (file && *file) {
		if (truncate(file, size ? atoll(size) : 4096) < 0)
			_exit(99);
		unsetenv("UPFT_SHIM_TRUNCATE");
	}
	return real(mod, bits, vaddr);
}

/* Once, when UPFT_SHIM_SWAP is set: rename SRC over DST. */
static void swap_once(void)
{
	const char *swap = getenv("UPFT_SHIM_SWAP");
	char *src, *dst;

	if (!swap || !*swap)
		return;
	src = strdup(swap);
	dst = strchr(src, ':');
	if (!dst)
		_exit(98);
	*dst++ = '\0';
	if (rename(src, dst) < 0)
		_exit(97);
	free(src);
	unsetenv("UPFT_SHIM_SWAP");
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);
	const char *swap = getenv("UPFT_SHIM_SWAP");

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (swap && *swap) {
		char link[64], path[4096];
		ssize_t len;

		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		len = readlink(link, path, sizeof(path) - 1);
		if (len > 14) {
			path[len] = '\0';
			if (!strcmp(path + len - 14, "/uprobe_events"))
				swap_once();
		}
	}
	return real(fd, buf, n);
}

int tracefs_instance_file_append(struct tracefs_instance *instance, const char *file,
				 const char *str)
{
	static int (*real)(struct tracefs_instance *, const char *, const char *);

	if (!real)
		real = (int (*)(struct tracefs_instance *, const char *, const char *))
			dlsym(RTLD_NEXT, "tracefs_instance_file_append");
	if (!strcmp(file, "uprobe_events"))
		swap_once();
	return real(instance, file, str);
}
