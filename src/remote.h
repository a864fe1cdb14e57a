/* SPDX-License-Identifier: GPL-2.0-or-later */
/* remote.h - debuginfo and sources from debuginfod servers (DEBUGINFOD_URLS, libdebuginfod) */
#ifndef UPF_REMOTE_H
#define UPF_REMOTE_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>

#include "util.h"

/*
 * Local files always come first: libdwfl's standard lookup asks the servers only after the
 * binary itself, /usr/lib/debug/.build-id and .gnu_debuglink found nothing, and only when
 * DEBUGINFOD_URLS is set. Downloads go to the client's standard cache
 * ($DEBUGINFOD_CACHE_PATH, else ~/.cache/debuginfod_client), where gdb, perf and other
 * debuginfod clients find them too.
 */

/**
 * remote_cache_for_root() - under sudo (root, SUDO_UID another user), keep libdebuginfod's
 * cache where only root can change it: a DEBUGINFOD_CACHE_PATH (or HOME, XDG_CACHE_HOME,
 * which it derives the cache from) kept from the user's environment would have root create
 * and write files through the user's symbolic links. DEBUGINFOD_CACHE_PATH is kept only
 * when every existing directory of it is root's and writable by no one else; otherwise it
 * is set to root's own ~root/.cache/debuginfod_client. Call before any debuginfod use.
 * In a static build (--enable-static-binary), which has no debuginfod client, it unsets
 * DEBUGINFOD_URLS (a warning when it was set) so that neither upfront nor libdw asks.
 */
void remote_cache_for_root(void);

/* remote_enabled() - DEBUGINFOD_URLS names at least one server */
bool remote_enabled(void);

/**
 * remote_watch() - show a download's progress on stderr while libdwfl fetches for @dwfl
 * Only when stderr is a terminal and DEBUGINFOD_URLS is set; @what names the binary in the
 * progress line ("downloading debuginfo of WHAT from URL: 12 KB of 40 KB").
 * remote_watch_end() clears the line.
 */
void remote_watch(Dwfl *dwfl, const char *what);
void remote_watch_end(void);

/**
 * remote_explain() - why the servers did not give debuginfo for @build_id, for the "no
 * debug information" error: appends ", debuginfod http://host:port (not found)" (or the
 * failure: "cannot connect: Connection refused", or "cannot load libdebuginfod.so.1: REASON":
 * libdebuginfod is dlopen()ed on first need) to @looked. Nothing when remote_enabled()
 * is false or @build_id is NULL.
 */
void remote_explain(const char *build_id, struct strbuf *looked);

/**
 * remote_find_source() - a source file the DWARF of @build_id names, from the servers'
 * /buildid/ID/source/PATH, for -L when @path is not on disk
 * @local: the file in the client's cache, a new string for free()
 * Return: 0, or a negative errno (-ENOSYS when no server is set or libdebuginfod does not
 * load); @why (may be NULL) gets the server and the reason on failure.
 */
int remote_find_source(const char *build_id, const char *path, char **local, struct strbuf *why);

#endif
