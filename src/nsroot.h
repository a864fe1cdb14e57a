/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nsroot.h - a binary named with -x as a traced process sees it: in its own mount namespace
 * (a container), through /proc/PID/root and the files it has mapped
 */
#ifndef UPF_NSROOT_H
#define UPF_NSROOT_H

#include <sys/types.h>

/**
 * nsroot_binary() - @name (-x) as process @pid sees it, when @pid is in another mount
 * namespace than upfront: an absolute path under /proc/PID/root; a soname or file name
 * (libc.so.6) as the file of that name the process has mapped, else in the standard library
 * directories of its root
 * Return: a path to open from here, for free(); NULL when @pid shares upfront's mount
 * namespace, or the name is not found there (then @name is taken as it is).
 */
char *nsroot_binary(pid_t pid, const char *name);

/**
 * nsroot_path() - an absolute @path of process @pid's (its maps, its mmap records) as a path
 * to open from here: under /proc/PID/root when @pid is in another mount namespace (a maps path
 * of a process chrooted there, named from its namespace's root, taken relative to its own root
 * when the file is found only that way)
 * Return: a path for free(), or NULL when @path is to be opened as it is (the same
 * namespace, or the process is gone and its namespace with it).
 */
char *nsroot_path(pid_t pid, const char *path);

#endif
