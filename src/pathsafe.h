/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pathsafe.h - who can change what a path names. Probes that outlive upfront (-a, --keep)
 * give the kernel the binary's path, which it looks up itself at the write: anyone who can
 * rename an entry on that path (or rewrite the file) in between chooses the file the probe
 * lands in, at offsets upfront computed for another (a symlink to libc.so.6, an int3 in the
 * middle of an instruction of every process).
 */
#ifndef UPF_PATHSAFE_H
#define UPF_PATHSAFE_H

#include <sys/types.h>

#include "diag.h"

/**
 * path_owners_check() - whether only root and @trusted can change what @path names
 * @path: absolute and canonical (no symbolic link, no "." or ".."), as debuginfo_path()
 * @trusted: the invoking user (run_as_invoker()); 0 when only root is trusted
 * @d: on failure, names the directory or file, who can change it, and what to do instead
 *
 * Each directory on the path must belong to root or @trusted and be writable by no one else:
 * not by a group with another member (its gr_mem or a user whose primary group it is), not
 * by everyone unless sticky (then the entry in it must belong to root or @trusted, as the
 * directory does). The file itself likewise: nobody else may rewrite it. A component that is
 * a symbolic link now (the path was canonical when upfront opened it) counts as swapped.
 * A POSIX access ACL that lets another user (named, or in a named group) write counts too.
 * Return: 0, or -EPERM with @d filled; -errno (also with @d) when a component cannot be read.
 */
int path_owners_check(const char *path, uid_t trusted, struct diag *d);

#endif
