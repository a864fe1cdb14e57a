/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bidcache.h - what upfront worked out about a binary, kept by its build-id for the next run:
 * one file per binary and kind in the user's own cache directory, trusted only when nobody
 * else can have written it
 */
#ifndef UPF_BIDCACHE_H
#define UPF_BIDCACHE_H

#include <stddef.h>

#include "debuginfo.h"

/**
 * bidcache_read() - the cached @kind for @dbg, when a current one is there
 * @kind: a file name suffix, "funcs"
 * @len: filled with the length of what is returned
 *
 * The directory is $XDG_CACHE_HOME/upfront (an absolute path) or ~/.cache/upfront of the
 * effective user (from the password database, not $HOME); UPFRONT_CACHE=off turns the cache
 * off. It is used only when every directory on its path
 * belongs to root or the effective user and nobody else can write it (path_owners_check()),
 * it is the user's and mode 0700, and the file is a regular file of the user's, written by
 * nobody else, with one link, opened without following a symbolic link. A file is current
 * when its first line names this upfront (its own build-id), @dbg's build-id, size and mtime,
 * and the file the DWARF came from is the same size and mtime as then.
 * Return: what bidcache_write() stored (malloc()ed, NUL-terminated), or NULL: none, stale,
 * or not trusted (the reason at -v).
 */
char *bidcache_read(struct debuginfo *dbg, const char *kind, size_t *len);

/**
 * bidcache_write() - keep @data as @dbg's @kind for the next run (bidcache_read())
 * @dwarf_path: the file @dbg's DWARF was read from (checked for changes on reading), or NULL
 *	when it had none: then nothing is written (a debug file installed later must be seen)
 *
 * Written to a new file that is renamed over the old one; the directory keeps the newest
 * 64 files. Failing to write is not an error (-v says why).
 */
void bidcache_write(struct debuginfo *dbg, const char *kind, const char *dwarf_path,
		    const char *data, size_t len);

#endif
