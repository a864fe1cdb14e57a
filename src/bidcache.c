// SPDX-License-Identifier: GPL-2.0-or-later
/* bidcache.c - per-build-id cache files in the user's own directory, trusted only if unwritable by others */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOG_DOMAIN "cache"
#include "bidcache.h"
#include "log.h"
#include "pathsafe.h"
#include "util.h"

#define BIDCACHE_KEEP 64	/* files kept in the directory: the newest */
#define BIDCACHE_MAX (64u << 20)	/* a larger file is not ours */

/* ---- this upfront's own build-id: a cache written by another build is not read ---- */

static int self_note(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct strbuf *out = arg;

	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;

		if (ph->p_type != PT_NOTE)
			continue;
		while (end - p >= (long)sizeof(ElfW(Nhdr))) {
			const ElfW(Nhdr) *n = (const void *)p;
			const unsigned char *desc = (const unsigned char *)(n + 1) +
						    ((n->n_namesz + 3) & ~3u);

			if ((const char *)desc + n->n_descsz > end)
				break;
			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
			    !memcmp(n + 1, "GNU", 4)) {
				for (unsigned j = 0; j < n->n_descsz; j++)
					strbuf_addf(out, "%02x", desc[j]);
				return 1;
			}
			p = (const char *)desc + ((n->n_descsz + 3) & ~3u);
		}
	}
	return 1;	/* the first object is the program itself: stop there */
}

static const char *self_build_id(void)
{
	static struct strbuf id = STRBUF_INIT;
	static bool done;

	if (!done) {
		done = true;
		dl_iterate_phdr(self_note, &id);
	}
	return id.len ? id.buf : NULL;
}

/* ---- the directory ---- */

static bool cache_off(void)
{
	const char *e = getenv("UPFRONT_CACHE");

	return e && !strcmp(e, "off");	/* main.c refuses any other word */
}

/* whether nobody but root and the user can change what @path names (-v says why not) */
static bool dir_trusted(const char *path)
{
	char *real = realpath(path, NULL);
	struct diag d;
	bool ok;

	diag_init(&d, NULL);
	ok = real && path_owners_check(real, geteuid(), &d) == 0;
	if (!real)
		pr_info("no cache directory %s: %s", path, strerror(errno));
	else if (!ok)
		pr_info("cache %s not used: %s", real, d.msg ?: "others can write it");
	diag_release(&d);
	free(real);
	return ok;
}

/*
 * cache_dir_path() - the cache directory ($XDG_CACHE_HOME/upfront, ~/.cache/upfront), made
 * if missing, but only in a directory nobody else can change: root never makes a directory
 * through a path a user could have pointed elsewhere
 */
static char *cache_dir_path(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	char *base, *parent, *dir = NULL;
	struct passwd *pw;
	struct stat st;

	if (xdg && xdg[0] == '/') {
		base = xstrdup(xdg);
		parent = xstrndup(xdg, strrchr(xdg, '/') - xdg);
		if (!*parent) {
			free(parent);
			parent = xstrdup("/");
		}
	} else {
		pw = getpwuid(geteuid());
		if (!pw || !pw->pw_dir || pw->pw_dir[0] != '/')
			return NULL;
		base = xasprintf("%s/.cache", pw->pw_dir);
		parent = xstrdup(pw->pw_dir);
	}
	if (stat(base, &st) < 0 && dir_trusted(parent))
		mkdir(base, 0700);	/* as the XDG directory specification says */
	if (dir_trusted(base)) {
		dir = xasprintf("%s/upfront", base);
		mkdir(dir, 0700);
	}
	free(parent);
	free(base);
	return dir;
}

/*
 * cache_dir_open() - a descriptor of the cache directory when nobody but root and the user
 * can change what is in it or what its path names; -1 else (why at -v)
 */
static int cache_dir_open(void)
{
	char *dir = cache_dir_path(), *real = dir ? realpath(dir, NULL) : NULL;
	struct stat st;
	int fd = -1;

	if (!real) {
		if (dir)
			pr_info("no cache directory %s: %s", dir, strerror(errno));
	} else if (!dir_trusted(real)) {
		/* said why */
	} else if ((fd = open(real, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		pr_info("cannot open cache %s: %s", real, strerror(errno));
	} else if (fstat(fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 077)) {
		pr_info("cache %s not used: not the user's own, mode 0700", real);
		close(fd);
		fd = -1;
	}
	free(real);
	free(dir);
	return fd;
}

/* ---- the key ---- */

static char *file_name(const struct debuginfo *dbg, const char *kind)
{
	return xasprintf("%s.%s", debuginfo_build_id(dbg), kind);
}

/* "SIZE MTIME.NSEC" of @path, or "-" when it cannot be stat()ed */
static void file_stamp(const char *path, struct strbuf *out)
{
	struct stat st;

	if (path && !stat(path, &st))
		strbuf_addf(out, "%lld %lld.%09ld", (long long)st.st_size,
			    (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	else
		strbuf_addstr(out, "-");
}

/* the first line: "upfront-cache 1 SELF-ID BUILD-ID SIZE MTIME" of the binary, as opened */
static bool key_line(struct debuginfo *dbg, struct strbuf *out)
{
	const char *self = self_build_id();
	struct stat st;

	if (!self || !debuginfo_build_id(dbg) || fstat(debuginfo_fd(dbg), &st) < 0)
		return false;
	strbuf_addf(out, "upfront-cache 1 %s %s %lld %lld.%09ld\n", self, debuginfo_build_id(dbg),
		    (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	return true;
}

/* ---- reading ---- */

static char *read_trusted(int dirfd, const char *name, size_t *len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	char *buf = NULL;
	size_t got = 0;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022) || st.st_nlink != 1 || (uint64_t)st.st_size > BIDCACHE_MAX) {
		pr_info("cache file %s not used: not a file of the user's alone", name);
		goto out;
	}
	buf = xmalloc(st.st_size + 1);
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, st.st_size - got);

		if (n <= 0)
			break;
		got += n;
	}
	buf[got] = 0;
	*len = got;
out:
	close(fd);
	return buf;
}

/*
 * the second line, "dwarf SIZE MTIME PATH": whether the file the DWARF came from is as it was;
 * Return: the length of the line, 0 when it is not
 */
static size_t dwarf_line_current(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', end - p), *path;
	struct strbuf now = STRBUF_INIT, line = STRBUF_INIT;
	bool same;

	if (!nl || strncmp(p, "dwarf ", 6))
		return 0;
	strbuf_add(&line, p + 6, nl - p - 6);
	/* SIZE MTIME, then the path, which may hold spaces */
	path = strchr(line.buf, ' ');
	path = path ? strchr(path + 1, ' ') : NULL;
	if (!path)
		return 0;
	file_stamp(path + 1, &now);
	same = now.len == (size_t)(path - line.buf) && !memcmp(now.buf, line.buf, now.len);
	strbuf_release(&now);
	strbuf_release(&line);
	return same ? nl + 1 - p : 0;
}

char *bidcache_read(struct debuginfo *dbg, const char *kind, size_t *len)
{
	struct strbuf key = STRBUF_INIT;
	char *name, *buf = NULL, *out = NULL;
	size_t n = 0, dl;
	int dirfd;

	if (cache_off() || !key_line(dbg, &key))
		goto out;
	dirfd = cache_dir_open();
	if (dirfd < 0)
		goto out;
	name = file_name(dbg, kind);
	buf = read_trusted(dirfd, name, &n);
	close(dirfd);
	if (!buf || n < key.len || memcmp(buf, key.buf, key.len) ||
	    !(dl = dwarf_line_current(buf + key.len, buf + n))) {
		if (buf)
			pr_info("cache file %s is stale", name);
		free(name);
		goto out;
	}
	pr_info("%s from the cache (%s)", kind, name);
	free(name);
	*len = n - key.len - dl;
	out = xmalloc(*len + 1);
	memcpy(out, buf + key.len + dl, *len);
	out[*len] = 0;
out:
	free(buf);
	strbuf_release(&key);
	return out;
}

/* ---- writing ---- */

struct centry {
	char *name;
	struct timespec mtime;
};

static int centry_cmp(const void *a, const void *b)
{
	const struct centry *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec > y->mtime.tv_sec ? -1 : 1;
	return x->mtime.tv_nsec > y->mtime.tv_nsec ? -1 : x->mtime.tv_nsec < y->mtime.tv_nsec;
}

/* the directory keeps its newest BIDCACHE_KEEP files of ours ("ID.KIND", no dot first) */
static void cache_trim(int dirfd)
{
	int fd = dup(dirfd);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct centry *v = NULL;
	size_t nr = 0, alloc = 0;
	struct dirent *de;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(dir))) {
		struct stat st;

		if (de->d_name[0] == '.' || fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		ALLOC_GROW(v, nr + 1, alloc);
		v[nr++] = (struct centry){ xstrdup(de->d_name), st.st_mtim };
	}
	closedir(dir);
	if (nr > BIDCACHE_KEEP) {
		qsort(v, nr, sizeof(*v), centry_cmp);
		for (size_t i = BIDCACHE_KEEP; i < nr; i++)
			unlinkat(dirfd, v[i].name, 0);
	}
	for (size_t i = 0; i < nr; i++)
		free(v[i].name);
	free(v);
}

static bool write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n <= 0)
			return false;
		p += n;
		len -= n;
	}
	return true;
}

void bidcache_write(struct debuginfo *dbg, const char *kind, const char *dwarf_path,
		    const char *data, size_t len)
{
	struct strbuf head = STRBUF_INIT;
	char *name = NULL, *tmp = NULL;
	int dirfd = -1, fd;
	bool ok;

	if (cache_off() || !dwarf_path || !key_line(dbg, &head))
		goto out;
	strbuf_addstr(&head, "dwarf ");
	file_stamp(dwarf_path, &head);
	strbuf_addf(&head, " %s\n", dwarf_path);
	if (strchr(dwarf_path, '\n') || (dirfd = cache_dir_open()) < 0)
		goto out;
	name = file_name(dbg, kind);
	tmp = xasprintf(".%s.%d", name, (int)getpid());
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		pr_info("cannot write cache file %s: %s", name, strerror(errno));
		goto out;
	}
	ok = write_all(fd, head.buf, head.len) && write_all(fd, data, len);
	ok = !close(fd) && ok && !renameat(dirfd, tmp, dirfd, name);
	if (!ok) {
		pr_info("cannot write cache file %s: %s", name, strerror(errno));
		unlinkat(dirfd, tmp, 0);
	} else {
		pr_info("%s written to the cache (%s)", kind, name);
		cache_trim(dirfd);
	}
out:
	if (dirfd >= 0)
		close(dirfd);
	free(tmp);
	free(name);
	strbuf_release(&head);
}
