// SPDX-License-Identifier: GPL-2.0-or-later
/* procmaps.c - the executable mappings of traced processes, kept from fork/exec to exit */
#define LOG_DOMAIN "procmaps"

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "log.h"
#include "procmaps.h"
#include "util.h"

#define RING_PAGES 64	/* per CPU: 256 KB, thousands of mmap records between two reads */

struct pm_map {
	uint64_t lo, hi, pgoff;
	char *path;
};

/* One process; maps in the order the kernel reported them (a later one wins). */
struct pm_proc {
	int tgid;
	struct pm_map *m;
	size_t nr, alloc;
};

/* A record copied out of a ring, to be applied in time order across CPUs. */
struct pm_rec {
	uint64_t time;
	uint32_t type;
	uint16_t misc;
	uint32_t pid, ppid;
	uint64_t addr, len, pgoff;
	char *path;
};

static struct {
	int *fds;
	void **rings;
	size_t nr;
	size_t page;
	struct pm_proc *procs;
	size_t nr_procs, alloc_procs;
	uint64_t lost;
} pm;

static struct pm_proc *proc_get(int tgid, bool create)
{
	for (size_t i = 0; i < pm.nr_procs; i++)
		if (pm.procs[i].tgid == tgid)
			return &pm.procs[i];
	if (!create)
		return NULL;
	ALLOC_GROW(pm.procs, pm.nr_procs + 1, pm.alloc_procs);
	memset(&pm.procs[pm.nr_procs], 0, sizeof(*pm.procs));
	pm.procs[pm.nr_procs].tgid = tgid;
	return &pm.procs[pm.nr_procs++];
}

static void proc_add(struct pm_proc *p, uint64_t lo, uint64_t hi, uint64_t pgoff,
		     const char *path)
{
	ALLOC_GROW(p->m, p->nr + 1, p->alloc);
	p->m[p->nr++] = (struct pm_map){ lo, hi, pgoff, xstrdup(path) };
}

static void proc_clear(struct pm_proc *p)
{
	for (size_t i = 0; i < p->nr; i++)
		free(p->m[i].path);
	p->nr = 0;
}

bool procmaps_read(int pid, procmaps_fn fn, void *arg)
{
	char path[64], line[4096];
	bool stop = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!stop && fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, off;
		char perm[8];
		int n = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &lo, &hi, perm, &off, &n) < 4 ||
		    !n || perm[2] != 'x' || (line[n] != '/' && strncmp(line + n, "[vdso]", 6)))
			continue;
		line[n + strcspn(line + n, "\n")] = '\0';
		stop = fn(arg, line + n, lo, hi, off);
	}
	fclose(f);
	return stop;
}

/* procmaps_read(): where upfront's own vDSO is */
static bool vdso_span(void *arg, const char *path, uint64_t lo, uint64_t hi, uint64_t pgoff)
{
	uint64_t *span = arg;

	(void)pgoff;
	if (strcmp(path, "[vdso]"))
		return false;
	span[0] = lo;
	span[1] = hi;
	return true;
}

const char *procmaps_vdso_file(void)
{
	static char path[32];
	static int state;	/* 0: not tried yet, 1: path, -1: none */
	uint64_t span[2];
	size_t len;
	int fd;

	if (state)
		return state > 0 ? path : NULL;
	state = -1;
	if (!procmaps_read(getpid(), vdso_span, span))
		return NULL;
	len = span[1] - span[0];
	fd = memfd_create("upfront-vdso", MFD_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (write(fd, (const void *)(uintptr_t)span[0], len) != (ssize_t)len) {
		close(fd);
		return NULL;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	state = 1;
	return path;
}

/* seed_one() - a mapping a running process has now, from procmaps_read() */
static bool seed_one(void *arg, const char *path, uint64_t lo, uint64_t hi, uint64_t pgoff)
{
	proc_add(arg, lo, hi, pgoff, path);
	return false;
}

static int open_cpu(pid_t pid, int cpu)
{
	struct perf_event_attr a = { 0 };

	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_TIME;
	a.sample_id_all = 1;	/* every record ends with its time: CPUs merge in order */
	a.mmap = 1;		/* executable mappings only (mmap_data stays 0) */
	a.mmap2 = 1;
	a.comm = 1;
	a.comm_exec = 1;
	a.task = 1;		/* fork and exit */
	a.inherit = 1;		/* the processes and threads @pid creates */
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.disabled = 0;
	return (int)syscall(SYS_perf_event_open, &a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

int procmaps_follow(pid_t pid, struct diag *d)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	size_t base = pm.nr;

	pm.page = (size_t)sysconf(_SC_PAGESIZE);
	pm.fds = xrealloc(pm.fds, (pm.nr + ncpu) * sizeof(*pm.fds));
	pm.rings = xrealloc(pm.rings, (pm.nr + ncpu) * sizeof(*pm.rings));
	for (long c = 0; c < ncpu; c++) {
		int fd = open_cpu(pid, (int)c);
		void *ring;

		if (fd < 0 && errno == ENODEV)
			continue;	/* an offline CPU */
		if (fd < 0)
			return diag_fail(d, "perf_event_open (mappings of %d for --stack): %s",
					 (int)pid, strerror(errno));
		ring = mmap(NULL, (1 + RING_PAGES) * pm.page, PROT_READ | PROT_WRITE, MAP_SHARED,
			    fd, 0);
		if (ring == MAP_FAILED) {
			int err = errno;

			close(fd);
			return diag_fail(d, "mmap of a perf ring: %s", strerror(err));
		}
		pm.fds[pm.nr] = fd;
		pm.rings[pm.nr++] = ring;
	}
	procmaps_read(pid, seed_one, proc_get(pid, true));
	pr_debug("following the mappings of %d on %zu CPUs", (int)pid, pm.nr - base);
	return 0;
}

/* The trailing sample_id of a non-sample record: only PERF_SAMPLE_TIME, the last u64. */
static uint64_t rec_time(const struct perf_event_header *h)
{
	uint64_t t;

	memcpy(&t, (const char *)h + h->size - 8, 8);
	return t;
}

static void rec_parse(const struct perf_event_header *h, struct pm_rec *r)
{
	const char *b = (const char *)(h + 1);
	uint32_t u[4];

	memset(r, 0, sizeof(*r));
	r->type = h->type;
	r->misc = h->misc;
	r->time = rec_time(h);
	switch (h->type) {
	case PERF_RECORD_MMAP2:
		memcpy(u, b, 8);
		r->pid = u[0];
		memcpy(&r->addr, b + 8, 8);
		memcpy(&r->len, b + 16, 8);
		memcpy(&r->pgoff, b + 24, 8);
		/* maj, min, ino, ino_generation (24 bytes), prot, flags, then the name */
		r->path = xstrndup(b + 32 + 24 + 8, h->size - sizeof(*h) - 64 - 8);
		break;
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		memcpy(u, b, 16);
		r->pid = u[0];
		r->ppid = u[1];	/* FORK/EXIT: ppid; COMM: tid */
		break;
	}
}

static int rec_cmp(const void *a, const void *b)
{
	const struct pm_rec *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

static void apply(const struct pm_rec *r)
{
	struct pm_proc *p, *parent;

	switch (r->type) {
	case PERF_RECORD_MMAP2:
		proc_add(proc_get((int)r->pid, true), r->addr, r->addr + r->len, r->pgoff, r->path);
		break;
	case PERF_RECORD_COMM:
		if (r->misc & PERF_RECORD_MISC_COMM_EXEC)
			proc_clear(proc_get((int)r->pid, true));	/* a new address space */
		break;
	case PERF_RECORD_FORK:
		if (r->pid == r->ppid)
			break;	/* a thread shares its process's maps */
		p = proc_get((int)r->pid, true);
		parent = proc_get((int)r->ppid, false);	/* after @p: that may move the array */
		proc_clear(p);
		for (size_t i = 0; parent && i < parent->nr; i++)
			proc_add(p, parent->m[i].lo, parent->m[i].hi, parent->m[i].pgoff,
				 parent->m[i].path);
		break;
	case PERF_RECORD_LOST:
		pm.lost++;
		break;
	}
}

/* poll() - copy every pending record out of the rings, then apply them in time order */
static void poll_rings(void)
{
	struct pm_rec *recs = NULL;
	size_t nr = 0, alloc = 0, size = RING_PAGES * pm.page;

	for (size_t i = 0; i < pm.nr; i++) {
		struct perf_event_mmap_page *mp = pm.rings[i];
		char *data = (char *)pm.rings[i] + pm.page;
		uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
		uint64_t tail = mp->data_tail;

		while (tail < head) {
			struct perf_event_header h, *hp;
			char buf[4096 + 128];
			size_t off = tail % size;

			memcpy(&h, data + off, sizeof(h));	/* a header never wraps (8-aligned) */
			if (h.size < sizeof(h) || h.size > sizeof(buf))
				break;
			if (off + h.size <= size) {
				memcpy(buf, data + off, h.size);
			} else {
				memcpy(buf, data + off, size - off);
				memcpy(buf + size - off, data, h.size - (size - off));
			}
			hp = (struct perf_event_header *)buf;
			if (hp->type == PERF_RECORD_MMAP2 || hp->type == PERF_RECORD_COMM ||
			    hp->type == PERF_RECORD_FORK || hp->type == PERF_RECORD_LOST) {
				ALLOC_GROW(recs, nr + 1, alloc);
				rec_parse(hp, &recs[nr++]);
			}
			tail += h.size;
		}
		__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	}
	if (nr > 1)
		qsort(recs, nr, sizeof(*recs), rec_cmp);
	for (size_t i = 0; i < nr; i++) {
		apply(&recs[i]);
		free(recs[i].path);
	}
	free(recs);
}

bool procmaps_find(int tgid, uint64_t addr, const char **path, uint64_t *lo, uint64_t *pgoff)
{
	struct pm_proc *p;

	if (!pm.nr && !pm.nr_procs)
		return false;
	poll_rings();
	p = proc_get(tgid, false);
	for (size_t i = p ? p->nr : 0; i-- > 0;) {
		const struct pm_map *m = &p->m[i];

		if (addr >= m->lo && addr < m->hi) {
			*path = m->path;
			*lo = m->lo;
			*pgoff = m->pgoff;
			return true;
		}
	}
	return false;
}

bool procmaps_each(int tgid, procmaps_fn fn, void *arg)
{
	struct pm_proc *p;

	if (!pm.nr && !pm.nr_procs)
		return false;
	poll_rings();
	p = proc_get(tgid, false);
	for (size_t i = p ? p->nr : 0; i-- > 0;)
		if (fn(arg, p->m[i].path, p->m[i].lo, p->m[i].hi, p->m[i].pgoff))
			return true;
	return false;
}

static int tree_maps(pid_t pid, const char *path, int depth)
{
	char file[64], line[4096];
	size_t plen = strlen(path);
	struct dirent *de;
	DIR *tasks;
	FILE *f;

	snprintf(file, sizeof(file), "/proc/%d/maps", (int)pid);
	f = fopen(file, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strcspn(line, "\n");

		if (n > plen && !memcmp(line + n - plen, path, plen) && line[n - plen - 1] == ' ') {
			fclose(f);
			return 1;
		}
	}
	fclose(f);
	if (depth >= 4)
		return 0;
	snprintf(file, sizeof(file), "/proc/%d/task", (int)pid);
	tasks = opendir(file);
	while (tasks && (de = readdir(tasks))) {
		char cpath[300];
		int child;

		if (de->d_name[0] == '.')
			continue;
		snprintf(cpath, sizeof(cpath), "/proc/%d/task/%s/children", (int)pid, de->d_name);
		f = fopen(cpath, "re");
		if (!f)
			continue;
		while (fscanf(f, "%d", &child) == 1) {
			if (tree_maps(child, path, depth + 1) == 1) {
				fclose(f);
				closedir(tasks);
				return 1;
			}
		}
		fclose(f);
	}
	if (tasks)
		closedir(tasks);
	return 0;
}

int procmaps_tree_maps(pid_t pid, const char *path)
{
	return tree_maps(pid, path, 0);
}

void procmaps_stop(void)
{
	for (size_t i = 0; i < pm.nr; i++) {
		munmap(pm.rings[i], (1 + RING_PAGES) * pm.page);
		close(pm.fds[i]);
	}
	for (size_t i = 0; i < pm.nr_procs; i++) {
		proc_clear(&pm.procs[i]);
		free(pm.procs[i].m);
	}
	free(pm.fds);
	free(pm.rings);
	free(pm.procs);
	if (pm.lost)
		pr_info("%llu perf records of mappings lost", (unsigned long long)pm.lost);
	memset(&pm, 0, sizeof(pm));
}
