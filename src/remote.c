// SPDX-License-Identifier: GPL-2.0-or-later
/* remote.c - debuginfo and sources from debuginfod servers (DEBUGINFOD_URLS, libdebuginfod) */
#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pwd.h>
#include <unistd.h>
#include <sys/stat.h>

#define LOG_DOMAIN "remote"
#include "diag.h"
#include "log.h"
#include "pathsafe.h"
#include "remote.h"
#include "util.h"

/* @path and what exists of it: absolute, no symbolic link, root's, writable by root alone */
static bool root_safe(const char *path)
{
	char *p = xstrdup(path), *slash;
	struct diag d;
	struct stat st;
	bool ok = false;

	if (p[0] != '/' || strstr(p, "/../") || strstr(p, "/./"))
		goto out;
	/* the directories that exist: the rest root creates in them */
	while (lstat(p, &st) < 0 && (slash = strrchr(p, '/')) && slash != p)
		*slash = '\0';
	diag_init(&d, NULL);
	ok = path_owners_check(p, 0, &d) == 0;
	if (!ok)
		pr_info("DEBUGINFOD_CACHE_PATH %s is not root's alone: %s", path,
			d.msg ? d.msg : "");
	diag_release(&d);
out:
	free(p);
	return ok;
}

void remote_cache_for_root(void)
{
	const char *suid = getenv("SUDO_UID"), *cache = getenv("DEBUGINFOD_CACHE_PATH");
	struct passwd *pw;
	char *own;

#ifdef UPF_STATIC_BINARY
	/* no libdebuginfod.a to link, and a static binary must not dlopen() the host's: unset,
	 * so that libdw does not try either */
	if (remote_enabled())
		pr_warn("DEBUGINFOD_URLS is ignored: this static build of upfront "
			"(--enable-static-binary) has no debuginfod client (the .deb has)");
	unsetenv("DEBUGINFOD_URLS");
#endif
	if (geteuid() != 0 || !suid || !*suid || !strcmp(suid, "0"))
		return;
	if (cache && *cache && root_safe(cache))
		return;
	pw = getpwuid(0);
	own = xasprintf("%s/.cache/debuginfod_client", pw && pw->pw_dir ? pw->pw_dir : "/root");
	setenv("DEBUGINFOD_CACHE_PATH", own, 1);
	free(own);
}

bool remote_enabled(void)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	return urls && urls[strspn(urls, " \t")];
}

/* ---- libdebuginfod, loaded on first need ---- */

/*
 * Linked, libdebuginfod maps libcurl, gnutls, krb5, ldap, ssh2... into every run: 3.4 ms of
 * CPU before main() (measured: a trivial program with -ldebuginfod 4.25 ms, without 0.82),
 * for servers asked only when nothing local was found. Like libdw, which loads it for
 * dwfl_get_debuginfod_client(), we dlopen() it when a server is about to be asked. The
 * pointers take their types from the header's prototypes: a changed signature does not build.
 */
static struct {
	__typeof__(&debuginfod_begin) begin;
	__typeof__(&debuginfod_end) end;
	__typeof__(&debuginfod_find_debuginfo) find_debuginfo;
	__typeof__(&debuginfod_find_source) find_source;
	__typeof__(&debuginfod_set_progressfn) set_progressfn;
	__typeof__(&debuginfod_get_url) get_url;
	char error[256];	/* why it did not load: "" once loaded */
} dfd;

#define DFD_SYM(field, sym) (dfd.field = (__typeof__(&sym))dlsym(h, #sym))

static void dfd_load_once(void)
{
#ifdef UPF_STATIC_BINARY
	snprintf(dfd.error, sizeof(dfd.error), "no debuginfod client in this static build "
		 "(--enable-static-binary)");
#else
	void *h = dlopen(DEBUGINFOD_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (h && DFD_SYM(begin, debuginfod_begin) && DFD_SYM(end, debuginfod_end) &&
	    DFD_SYM(find_debuginfo, debuginfod_find_debuginfo) &&
	    DFD_SYM(find_source, debuginfod_find_source) &&
	    DFD_SYM(set_progressfn, debuginfod_set_progressfn) &&
	    DFD_SYM(get_url, debuginfod_get_url))
		return;
	const char *why = dlerror();

	snprintf(dfd.error, sizeof(dfd.error), "cannot load %s: %s", DEBUGINFOD_SONAME,
		 why ? why : "unknown error");
	pr_info("%s", dfd.error);
	if (h)
		dlclose(h);
#endif
}

/* dfd_load() - load libdebuginfod once; NULL when loaded, else why not (one line) */
static const char *dfd_load(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, dfd_load_once);
	return dfd.error[0] ? dfd.error : NULL;
}

/* ---- progress on a terminal ---- */

/*
 * One download at a time (libdwfl fetches synchronously on the thread that asked): the
 * line being shown. Redrawn at most every 100 ms; cleared by remote_watch_end().
 */
static struct {
	char what[256];
	bool shown;
	struct timespec last;
} progress;

static double since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (now.tv_nsec - t->tv_nsec) / 1e9;
}

/* debuginfod_progressfn_t: @a bytes so far of @b (0 or less: unknown); 0 goes on */
static int show_progress(debuginfod_client *c, long a, long b)
{
	const char *url = dfd.get_url(c);

	if (progress.shown && since(&progress.last) < 0.1)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &progress.last);
	if (!url || !*url)
		url = getenv("DEBUGINFOD_URLS");
	{
		/* the file's name is the binary's, the URL the server's: shown escaped */
		struct strbuf what = STRBUF_INIT, from = STRBUF_INIT;

		escape_name(&what, progress.what);
		escape_name(&from, url ? url : "debuginfod");
		fprintf(stderr, "\r\033[Kupfront: downloading %s from %s: %ld KB",
			strbuf_cstr(&what), strbuf_cstr(&from), a / 1024);
		strbuf_release(&what);
		strbuf_release(&from);
	}
	if (b > 0)
		fprintf(stderr, " of %ld KB", b / 1024);
	fflush(stderr);
	progress.shown = true;
	return 0;
}

void remote_watch(Dwfl *dwfl, const char *what)
{
	debuginfod_client *c;

	if (!remote_enabled() || !isatty(STDERR_FILENO))
		return;
	c = dwfl_get_debuginfod_client(dwfl);	/* libdw has loaded the library: we find it */
	if (!c || dfd_load())
		return;
	snprintf(progress.what, sizeof(progress.what), "debuginfo of %s", what);
	dfd.set_progressfn(c, show_progress);
}

void remote_watch_end(void)
{
	if (progress.shown)
		fputs("\r\033[K", stderr);
	progress.shown = false;
}

/* ---- asking the servers ourselves ---- */

/* describe() - a libdebuginfod result as words: "not found", "cannot connect: ..." */
static void describe(int err, struct strbuf *out)
{
	switch (-err) {
	case ENOENT:
		strbuf_addstr(out, "not found");
		break;
	case ECONNREFUSED:
	case EHOSTUNREACH:
	case ENETUNREACH:
		strbuf_addf(out, "cannot connect: %s", strerror(-err));
		break;
	case ETIME:
	case ETIMEDOUT:
		strbuf_addstr(out, "timed out (DEBUGINFOD_TIMEOUT)");
		break;
	default:
		strbuf_addstr(out, strerror(-err));
	}
}

static void add_servers(struct strbuf *out)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	strbuf_addf(out, "debuginfod %s", urls ? urls : "");
	while (out->len && (out->buf[out->len - 1] == ' ' || out->buf[out->len - 1] == '\t'))
		out->buf[--out->len] = '\0';
}

void remote_explain(const char *build_id, struct strbuf *looked)
{
	debuginfod_client *c;
	const char *err;
	char *path = NULL;
	int fd;

	if (!build_id || !remote_enabled())
		return;
	err = dfd_load();
	if (err) {
		strbuf_addstr(looked, ", ");
		add_servers(looked);
		strbuf_addf(looked, " (%s)", err);
		return;
	}
	c = dfd.begin();
	if (!c)
		return;
	/* a repeated 404 comes from the client's cache of misses, not the network */
	fd = dfd.find_debuginfo(c, (const unsigned char *)build_id, 0, &path);
	strbuf_addstr(looked, ", ");
	add_servers(looked);
	strbuf_addstr(looked, " (");
	if (fd >= 0) {
		/* found now: the server was down or still scanning when libdwfl asked */
		strbuf_addstr(looked, "has it now; run again");
		close(fd);
	} else {
		describe(fd, looked);
	}
	strbuf_addch(looked, ')');
	free(path);
	dfd.end(c);
}

int remote_find_source(const char *build_id, const char *path, char **local, struct strbuf *why)
{
	debuginfod_client *c;
	const char *err;
	int fd;

	*local = NULL;
	if (!remote_enabled() || !build_id)
		return -ENOSYS;
	err = dfd_load();
	if (err) {
		if (why) {
			add_servers(why);
			strbuf_addf(why, ": %s", err);
		}
		return -ENOSYS;
	}
	c = dfd.begin();
	if (!c)
		return -ENOMEM;
	if (isatty(STDERR_FILENO)) {
		snprintf(progress.what, sizeof(progress.what), "%s", path);
		dfd.set_progressfn(c, show_progress);
	}
	fd = dfd.find_source(c, (const unsigned char *)build_id, 0, path, local);
	remote_watch_end();
	if (fd < 0 && why) {
		add_servers(why);
		strbuf_addstr(why, ": ");
		describe(fd, why);
	}
	if (fd >= 0) {
		close(fd);
		pr_info("source %s from %s", path, *local);
	}
	dfd.end(c);
	return fd < 0 ? fd : 0;
}
