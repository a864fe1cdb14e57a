// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kcaps.c - the kernel capability table: which tracefs features the running kernel has,
 * from its README (as perf probe reads it), the files it has, and one try-and-remove probe
 */
#define LOG_DOMAIN "kcaps"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
#include <tracefs.h>

#include "kcaps.h"
#include "log.h"

/* How a row is learned. */
enum kcap_how {
	KCAP_TYPE,	/* a word of the README's "type:" list */
	KCAP_README,	/* a text anywhere in the README */
	KCAP_FILE,	/* a file under the tracefs root */
	KCAP_SELFTEST,	/* a probe of upfront itself, when first needed (kcaps_file_offset()) */
};

#define KF(field) offsetof(struct kernel_features, field)

/*
 * The table. The README texts are the kernel's own (kernel/trace/trace.c readme_msg; perf
 * probe keeps the same kind of table in tools/perf/util/probe-file.c). Files are looked up
 * in the top tracing directory; an instance has the same ones.
 */
static const struct kcap {
	const char *name;	/* UPFRONT_KERNEL_FEATURES word and -v row */
	size_t off;		/* the bool in struct kernel_features */
	enum kcap_how how;
	const char *what;	/* the type word, README text or file */
	const char *desc;	/* for messages (NULL: @what) */
} kcap_table[] = {
	{ "char", KF(has_char), KCAP_TYPE, "char", "the char type" },
	{ "string", KF(has_string), KCAP_TYPE, "string", "the string type" },
	{ "hex", KF(has_hex), KCAP_README, "x8/16/32/64", "hex types x8..x64" },
	{ "bitfield", KF(has_bitfield), KCAP_README, "b<bit-width>@",
	  "bitfield types b<W>@<O>/<C>" },
	{ "array", KF(has_array), KCAP_README, "<array-size>", "array types TYPE[N]" },
	{ "imm", KF(has_imm), KCAP_README, "\\imm-value", "constants \\IMM" },
	{ "imm_str", KF(has_imm_str), KCAP_README, "\\\"imm-string\"",
	  "string constants \\\"STR\"" },
	{ "ustring", KF(has_ustring), KCAP_TYPE, "ustring", "the ustring type" },
	{ "user_deref", KF(has_user_deref), KCAP_README, "[u]<offset>",
	  "user dereferences +uOFF(...)" },
	{ "symstr", KF(has_symstr), KCAP_TYPE, "symstr", "the symstr type" },
	{ "comm", KF(has_comm), KCAP_README, "$comm", "$comm" },
	/* "place (uprobe): <path>:<offset>[%return][(ref_ctr_offset)]" */
	{ "ref_ctr", KF(has_ref_ctr), KCAP_README, "ref_ctr_offset",
	  "SDT semaphores (ref_ctr_offset)" },
	/* "uprobe_events - Create/append/remove/show ..." came with multi-probe events */
	{ "multi_probe", KF(has_multi_probe), KCAP_README, "Create/append/",
	  "several probe points in one event" },
	{ "error_log", KF(has_error_log), KCAP_FILE, "error_log", NULL },
	{ "buffer_percent", KF(has_buffer_percent), KCAP_FILE, "buffer_percent", NULL },
	{ "subbuf_size", KF(has_subbuf_size), KCAP_FILE, "buffer_subbuf_size_kb", NULL },
	{ "event_pid", KF(has_event_pid), KCAP_FILE, "set_event_pid", NULL },
	{ "event_fork", KF(has_event_fork), KCAP_FILE, "options/event-fork", NULL },
	{ "record_tgid", KF(has_record_tgid), KCAP_FILE, "options/record-tgid", NULL },
	{ "userstacktrace", KF(has_userstacktrace), KCAP_FILE, "options/userstacktrace", NULL },
	/* the trigger list names it: "hist (see below)" */
	{ "hist", KF(has_hist), KCAP_README, "hist (see below)", "hist triggers" },
	/* Linux 4.20 until the 2026 stable fix reads @+OFF at base + 2 * OFF (kcaps.h) */
	{ "file_offset", KF(has_file_offset), KCAP_SELFTEST, "@+FILE_OFFSET",
	  "@+FILE_OFFSET read at the offset" },
};

/* The limits, printed after the rows; not masked (kernel_features_default() has them). */
static const struct {
	const char *name;
	size_t off;
} kcap_limits[] = {
	{ "max_args", KF(max_args) },		{ "max_arg_len", KF(max_arg_len) },
	{ "max_name_len", KF(max_name_len) },	{ "max_derefs", KF(max_derefs) },
	{ "max_array", KF(max_array) },		{ "max_event_size", KF(max_event_size) },
	{ "max_event_name", KF(max_event_name) },
};

static bool *kcap_flag(struct kernel_features *kf, const struct kcap *c)
{
	return (bool *)((char *)kf + c->off);
}

static bool kcap_get(const struct kernel_features *kf, const struct kcap *c)
{
	return *(const bool *)((const char *)kf + c->off);
}

void kernel_features_default(struct kernel_features *kf)
{
	memset(kf, 0, sizeof(*kf));
	for (size_t i = 0; i < ARRAY_SIZE(kcap_table); i++)
		*kcap_flag(kf, &kcap_table[i]) = true;
	kf->has_hist = false;		/* off in this machine's 6.18 build */
	kf->probed_multi = -1;
	kf->max_args = 128;		/* MAX_TRACE_ARGS */
	kf->max_arg_len = 63;		/* MAX_ARGSTR_LEN: "Argument expression is too long" */
	kf->max_name_len = 32;		/* MAX_ARG_NAME_LEN: 32 accepted, 33 rejected on 6.18 */
	kf->max_derefs = 14;		/* nested +OFF(): 14 accepted, 15 rejected on 6.18 */
	kf->max_array = 64;		/* MAX_ARRAY_LEN */
	kf->max_event_size = 3072;	/* "Event too big": fields only, measured on 6.18 */
	kf->max_event_name = 63;	/* MAX_EVENT_NAME_LEN - 1 */
	/*
	 * Not a kernel limit. The kernel reads a :string up to the next NUL, up to 4096
	 * bytes, when the event fires, and a record larger than a page is dropped without a
	 * trace (no lost count; doc/kernel-facts.md). The length of a C string cannot be known
	 * when the probe is written, so no rule makes :string safe; upfront keeps the risk
	 * small by allowing few of them per event: three typical C strings (paths, host
	 * names, identifiers: well under 1 KB each) plus the fixed part stay inside a page.
	 * Strings that carry a length never use :string (fixed char[N] chunks instead).
	 */
	kf->max_strings = 3;
}

/*
 * The README's "type:" list: from " type: " to the first following line that has a ':' of
 * its own (continuation lines have none).
 */
static void readme_type_list(const char *readme, const char **start, const char **end)
{
	const char *sec = strstr(readme, " type: ");
	const char *nl;

	*start = *end = NULL;
	if (!sec)
		return;
	*start = sec + 7;
	for (nl = *start; (nl = strchr(nl, '\n')); nl++) {
		const char *next = strchr(nl + 1, '\n');
		const char *colon = strchr(nl + 1, ':');

		if (!next || (colon && colon < next))
			break;
	}
	*end = nl ? nl : *start + strlen(*start);
}

/* @type is a whole word of the README's "type:" list */
static bool readme_has_type(const char *readme, const char *type)
{
	const char *start, *end, *p;
	size_t n = strlen(type);

	readme_type_list(readme, &start, &end);
	for (p = start; p && (p = strstr(p, type)) && p < end; p += n) {
		char before = p[-1], after = p[n];

		if ((before == ' ' || before == ',' || before == '\t') &&
		    (after == ',' || after == ' ' || after == '\n' || after == '\0'))
			return true;
	}
	return false;
}

void kcaps_parse_readme(struct kernel_features *kf, const char *readme)
{
	for (size_t i = 0; i < ARRAY_SIZE(kcap_table); i++) {
		const struct kcap *c = &kcap_table[i];

		if (c->how == KCAP_TYPE)
			*kcap_flag(kf, c) = readme_has_type(readme, c->what);
		else if (c->how == KCAP_README)
			*kcap_flag(kf, c) = strstr(readme, c->what) != NULL;
	}
	kf->from_tracefs = true;
}

static const struct kcap *kcap_find(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(kcap_table); i++)
		if (strlen(kcap_table[i].name) == len && !strncmp(kcap_table[i].name, name, len))
			return &kcap_table[i];
	return NULL;
}

static void kcap_names(struct strbuf *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(kcap_table); i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", kcap_table[i].name);
}

int kcaps_mask(struct kernel_features *kf, const char *spec, struct diag *d)
{
	const char *p = spec;

	while (p && *p) {
		size_t len = strcspn(p, ",");
		const struct kcap *c = len > 1 && *p == '-' ? kcap_find(p + 1, len - 1) : NULL;

		if (!c) {
			struct strbuf names = STRBUF_INIT;

			kcap_names(&names);
			if (*p == '-')
				diag_error(d, SPAN_NONE, "UPFRONT_KERNEL_FEATURES: '%.*s' names no "
					   "feature", (int)len, p);
			else
				diag_error(d, SPAN_NONE, "UPFRONT_KERNEL_FEATURES: '%.*s' is no "
					   "-FEATURE (the mask only removes features)", (int)len, p);
			diag_hint(d, "features: %s", strbuf_cstr(&names));
			strbuf_release(&names);
			return -EINVAL;
		}
		*kcap_flag(kf, c) = false;
		kf->masked |= 1U << (c - kcap_table);
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* A tracefs file exists (under the top tracing directory). */
static bool tracefs_has(const char *name)
{
	char *path = tracefs_get_tracing_file(name);
	bool ok = path && !access(path, F_OK);

	tracefs_put_tracing_file(path);
	return ok;
}

static int write_line(int fd, const char *line)
{
	ssize_t n = write(fd, line, strlen(line));

	return n == (ssize_t)strlen(line) ? 0 : n < 0 ? -errno : -EIO;
}

/*
 * A scratch event of our own: a group no session and no test uses (upft_kcaps<pid>; a
 * leftover one names a live pid while we run, check-tracefs-clean.sh counts it after).
 */
struct scratch {
	int fd;			/* uprobe_events, O_APPEND */
	char group[32];
	sigset_t old;
};

/* scratch_open() - open uprobe_events and hold signals; false when it cannot be written */
static bool scratch_open(struct scratch *sc)
{
	char *file = tracefs_get_tracing_file("uprobe_events");
	sigset_t all;

	sc->fd = file ? open(file, O_WRONLY | O_APPEND | O_CLOEXEC) : -1;
	tracefs_put_tracing_file(file);
	if (sc->fd < 0)
		return false;
	snprintf(sc->group, sizeof(sc->group), "upft_kcaps%d", (int)getpid());
	/* no signal between a write and its removal: nothing is left behind */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &sc->old);
	return true;
}

/* scratch_try() - define "KIND:GROUP/EVENT PLACE ARGS"; Return: 0 or -errno */
static int scratch_try(struct scratch *sc, char kind, const char *event, const char *place,
		       const char *args)
{
	char *line = xasprintf("%c:%s/%s %s%s%s\n", kind, sc->group, event, place,
			       args && *args ? " " : "", args ? args : "");
	int ret = write_line(sc->fd, line);

	free(line);
	return ret;
}

static void scratch_remove(struct scratch *sc, const char *event)
{
	char *line = xasprintf("-:%s/%s\n", sc->group, event);
	int r = write_line(sc->fd, line);

	if (r < 0)
		pr_warn("could not remove the event %s/%s: %s", sc->group, event, strerror(-r));
	free(line);
}

static void scratch_close(struct scratch *sc)
{
	sigprocmask(SIG_SETMASK, &sc->old, NULL);
	close(sc->fd);
}

static bool uprobe_events_writable(void)
{
	char *path = tracefs_get_tracing_file("uprobe_events");
	bool ok = path && !access(path, W_OK);

	tracefs_put_tracing_file(path);
	return ok;
}

/* The initial pid namespace's inode (PROC_PID_INIT_INO): pids of others mean something here. */
#define PID_NS_INIT_INO 0xEFFFFFFCU

/*
 * scratch_left() - whether tracefs has an upft_kcaps<pid> group (in @sub, "events") or
 * instance ("instances") of a process that is gone
 */
static bool scratch_left(const char *sub)
{
	char *dir = tracefs_get_tracing_file(sub);
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *de;
	bool found = false;

	while (d && !found && (de = readdir(d))) {
		long pid;

		if (strncmp(de->d_name, "upft_kcaps", 10))
			continue;
		pid = strtol(de->d_name + 10, NULL, 10);
		found = pid > 0 && kill((pid_t)pid, 0) < 0 && errno == ESRCH;
	}
	if (d)
		closedir(d);
	tracefs_put_tracing_file(dir);
	return found;
}

/*
 * reap_scratch() - remove the scratch events of upfront processes that are gone (killed with
 * SIGKILL between a write and its removal); never one of a live process, and nothing from a
 * child pid namespace, where their pid numbers say nothing
 */
static void reap_scratch(void)
{
	char *text = NULL, *p;
	struct stat st;

	/* the self-test's instance (kcaps_file_offset()) holds its event enabled: first */
	if (scratch_left("instances")) {
		char *dir = tracefs_get_tracing_file("instances");
		DIR *dd = dir ? opendir(dir) : NULL;
		struct dirent *de;

		while (dd && (de = readdir(dd))) {
			long pid = strncmp(de->d_name, "upft_kcaps", 10) ? 0 :
				   strtol(de->d_name + 10, NULL, 10);
			char *path;

			if (pid <= 0 || !(kill((pid_t)pid, 0) < 0 && errno == ESRCH))
				continue;
			path = xasprintf("%s/%s", dir, de->d_name);
			if (!rmdir(path))
				pr_info("removed instance %s, left by a process that is gone",
					de->d_name);
			free(path);
		}
		if (dd)
			closedir(dd);
		tracefs_put_tracing_file(dir);
	}
	/* events/ first: uprobe_events is long with many uprobes (the kernel rereads its list) */
	if (!scratch_left("events"))
		return;
	text = tracefs_instance_file_read(NULL, "uprobe_events", NULL);
	p = text;
	if (!text || stat("/proc/self/ns/pid", &st) || st.st_ino != PID_NS_INIT_INO)
		goto out;
	while ((p = strstr(p, ":upft_kcaps"))) {
		char *end, *ev = NULL, *line;
		long pid = strtol(p + 11, &end, 10);
		size_t n = *end == '/' ? strcspn(end + 1, " \n") : 0;

		p += 11;
		if (!n || pid <= 0 || pid == getpid() || !(kill((pid_t)pid, 0) < 0 && errno == ESRCH))
			continue;
		ev = xstrndup(end + 1, n);
		line = xasprintf("-:upft_kcaps%ld/%s", pid, ev);
		if (tracefs_instance_file_append(NULL, "uprobe_events", line) >= 0)
			pr_info("removed %s, left by a process that is gone", line + 2);
		free(line);
		free(ev);
	}
out:
	free(text);
}

/*
 * probe_multi() - whether one event takes a second probe point: define two points of this
 * executable (never enabled, so nothing is inserted) under one event name, then remove it
 * Return: 1 or 0; -1 when it could not be told (no write access, an odd path).
 */
static int probe_multi(void)
{
	char exe[PATH_MAX], place[PATH_MAX + 8];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct scratch sc;
	int ret = -1, r;

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	if (strpbrk(exe, " \t\n:#"))
		return -1;	/* not something the uprobe_events syntax carries */
	if (!scratch_open(&sc))
		return -1;
	snprintf(place, sizeof(place), "%s:0x0", exe);
	if (scratch_try(&sc, 'p', "multi", place, NULL) == 0) {
		snprintf(place, sizeof(place), "%s:0x1", exe);
		r = scratch_try(&sc, 'p', "multi", place, NULL);
		ret = r == 0 ? 1 : r == -EEXIST ? 0 : -1;
		scratch_remove(&sc, "multi");
	}
	scratch_close(&sc);
	return ret;
}

/*
 * The @+FILE_OFFSET self-test: a uprobe on foffs_point() reads foffs_magic with @+, at the
 * file offset that is foffs_magic's when the kernel adds the offset once (base: the probe's
 * address less its file offset), and at half of it (both aligned to 16: the offset is even).
 * Result: an enum kcaps_foffs, or -1 could not run, -2 not run.
 */
static int foffs_result = -2;
static volatile const uint64_t foffs_magic __attribute__((aligned(16))) = 0x75706674666f6666ULL;

__attribute__((noinline, noclone, used, aligned(16))) static void foffs_point(void)
{
	__asm__ volatile("" ::: "memory");
}

/* the file offset of @addr in upfront's own mapping of @exe (/proc/self/maps); -1 if none */
static long long self_file_offset(const void *addr, const char *exe)
{
	FILE *f = fopen("/proc/self/maps", "re");
	unsigned long long lo, hi, pgoff;
	char line[PATH_MAX + 128], path[PATH_MAX];
	long long off = -1;

	while (f && off < 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %4095s", &lo, &hi, &pgoff, path) == 4 &&
		    (uintptr_t)addr >= lo && (uintptr_t)addr < hi && !strcmp(path, exe))
			off = (long long)((uintptr_t)addr - lo + pgoff);
	}
	if (f)
		fclose(f);
	return off;
}

/* the values the scratch event's record shows for "v=0x... h=0x...", from instance @inst */
static int foffs_read(struct tracefs_instance *inst, uint64_t *v, uint64_t *h)
{
	char *text = tracefs_instance_file_read(inst, "trace", NULL);
	const char *p = text ? strstr(text, " v=0x") : NULL;
	const char *q = p ? strstr(p, " h=0x") : NULL;
	int ret = q ? 0 : -1;

	if (q) {
		*v = strtoull(p + 3, NULL, 16);
		*h = strtoull(q + 3, NULL, 16);
	}
	free(text);
	return ret;
}

/* foffs_test() - the self-test: 1, 0, or -1 when it could not run */
static int foffs_test(void)
{
	char exe[PATH_MAX], place[PATH_MAX + 24], args[48];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct tracefs_instance *inst = NULL;
	long long at, magic;
	struct scratch sc;
	uint64_t v = 0, h = 0;
	long long x;
	int ret = -1;

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	at = self_file_offset((const void *)foffs_point, exe);
	magic = self_file_offset((const void *)&foffs_magic, exe);
	if (at < 0 || magic < 0 || strpbrk(exe, " \t\n:#") || !scratch_open(&sc))
		return -1;
	/* @+X reads base + X, base = the probe's address - its file offset */
	snprintf(place, sizeof(place), "%s:0x%llx", exe, at);
	x = (long long)((uintptr_t)&foffs_magic - (uintptr_t)foffs_point) + at;
	snprintf(args, sizeof(args), "v=@+0x%llx:x64 h=@+0x%llx:x64", x, x / 2);
	if (scratch_try(&sc, 'p', "foffs", place, args) < 0)
		goto out;
	inst = tracefs_instance_create(sc.group);
	if (inst && tracefs_event_enable(inst, sc.group, "foffs") == 0) {
		foffs_point();
		if (foffs_read(inst, &v, &h) == 0)
			ret = v == foffs_magic ? KCAPS_FOFFS_RIGHT :
			      h == foffs_magic && !(x & 1) ? KCAPS_FOFFS_DOUBLED : KCAPS_FOFFS_WRONG;
		tracefs_event_disable(inst, sc.group, "foffs");
	}
	if (inst) {
		tracefs_instance_destroy(inst);
		tracefs_instance_free(inst);
	}
	scratch_remove(&sc, "foffs");
	pr_info("@+FILE_OFFSET self-test: read 0x%llx at the offset, 0x%llx at half of it, for "
		"0x%llx: %s", (unsigned long long)v, (unsigned long long)h,
		(unsigned long long)foffs_magic, ret < 0 ? "no record" :
		ret == KCAPS_FOFFS_RIGHT ? "right" : ret ? "at twice the offset" : "wrong");
out:
	scratch_close(&sc);
	return ret;
}

enum kcaps_foffs kcaps_file_offset(const struct kernel_features *kf)
{
	if (!kf->has_file_offset)
		return KCAPS_FOFFS_WRONG;
	if (!kf->from_tracefs)
		return KCAPS_FOFFS_RIGHT;
	if (foffs_result == -2)
		foffs_result = uprobe_events_writable() ? foffs_test() : -1;
	return foffs_result < 0 ? KCAPS_FOFFS_RIGHT : (enum kcaps_foffs)foffs_result;
}

int kcaps_read(struct kernel_features *kf, struct diag *d)
{
	char *readme;
	int multi;

	kernel_features_default(kf);
	readme = tracefs_instance_file_read(NULL, "README", NULL);
	if (readme) {
		kcaps_parse_readme(kf, readme);
		for (size_t i = 0; i < ARRAY_SIZE(kcap_table); i++)
			if (kcap_table[i].how == KCAP_FILE)
				*kcap_flag(kf, &kcap_table[i]) = tracefs_has(kcap_table[i].what);
		if (uprobe_events_writable())
			reap_scratch();
		/* kernels whose README does not say it may still have it (a backport): ask */
		multi = kf->has_multi_probe ? -1 : probe_multi();
		if (multi >= 0) {
			kf->has_multi_probe = multi;
			kf->probed_multi = (signed char)multi;
		}
		free(readme);
	} else {
		pr_info("no tracefs README; assuming kernel 6.18's features");
	}
	if (kcaps_mask(kf, getenv("UPFRONT_KERNEL_FEATURES"), d) < 0)
		return -EINVAL;
	if (log_level >= LOG_INFO) {
		struct strbuf sb = STRBUF_INIT;
		char *line, *save = NULL;

		kcaps_format(kf, &sb);
		for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			pr_info("%s", line);
		strbuf_release(&sb);
	}
	return 0;
}

static const char *kcap_source(const struct kernel_features *kf, size_t i, char *buf, size_t n)
{
	const struct kcap *c = &kcap_table[i];

	if (kf->masked & (1U << i))
		return "masked (UPFRONT_KERNEL_FEATURES)";
	if (!kf->from_tracefs)
		return "default (no tracefs README)";
	if (c->off == KF(has_multi_probe) && kf->probed_multi >= 0)
		return "probe";
	if (c->how == KCAP_SELFTEST)
		return foffs_result == -2 ? "default (tested when a probe reads @+)" :
		       foffs_result == -1 ? "default (the self-test could not run)" :
		       foffs_result == KCAPS_FOFFS_DOUBLED ?
					    "self-test (a probe of upfront's own binary): read at twice "
					    "the offset, upfront writes half of it" :
					    "self-test (a probe of upfront's own binary)";
	if (c->how == KCAP_FILE)
		snprintf(buf, n, "file %s", c->what);
	else
		snprintf(buf, n, "README");
	return buf;
}

void kcaps_format(const struct kernel_features *kf, struct strbuf *out)
{
	char buf[64];

	for (size_t i = 0; i < ARRAY_SIZE(kcap_table); i++) {
		const char *v = kcap_get(kf, &kcap_table[i]) ? "yes" : "no";

		/* file_offset, once tested: "half" where upfront writes half the offset */
		if (kcap_table[i].how == KCAP_SELFTEST && kf->has_file_offset && kf->from_tracefs &&
		    foffs_result >= 0)
			v = foffs_result == KCAPS_FOFFS_RIGHT ? "yes" :
			    foffs_result == KCAPS_FOFFS_DOUBLED ? "half" : "no";
		strbuf_addf(out, "%-15s %-4s %s\n", kcap_table[i].name, v,
			    kcap_source(kf, i, buf, sizeof(buf)));
	}
	for (size_t i = 0; i < ARRAY_SIZE(kcap_limits); i++)
		strbuf_addf(out, "%-15s %-4d %s\n", kcap_limits[i].name,
			    *(const int *)((const char *)kf + kcap_limits[i].off),
			    "default (the same on every kernel measured)");
}

/* The row named @name, which must exist. */
static const struct kcap *kcap_row(const char *name)
{
	return kcap_find(name, strlen(name));
}

/* A row @kf lacks is named in @out ("array types TYPE[N]"), once. */
static void lacking(const struct kernel_features *kf, const char *name, struct strbuf *out)
{
	const struct kcap *c = kcap_row(name);
	const char *d = c->desc ? c->desc : c->what;

	if (kcap_get(kf, c) || strstr(strbuf_cstr(out), d))
		return;
	strbuf_addf(out, "%s%s", out->len ? ", " : "", d);
}

/*
 * arg_lacking() - the rows one "NAME=FETCH:TYPE" argument (or a probe point, @place) needs
 * that @kf lacks
 */
static void arg_lacking(const struct kernel_features *kf, const char *arg, bool place,
			struct strbuf *out)
{
	const char *type = strrchr(arg, ':'), *p;

	if (place) {
		if (strchr(arg, '('))
			lacking(kf, "ref_ctr", out);
		return;
	}
	if (strstr(arg, "\\\""))
		lacking(kf, "imm_str", out);
	else if (strchr(arg, '\\'))
		lacking(kf, "imm", out);
	for (p = arg; (p = strpbrk(p, "+-")); p++)
		if (p[1] == 'u' && p[2] >= '0' && p[2] <= '9')
			lacking(kf, "user_deref", out);
	if (strstr(arg, "$comm"))
		lacking(kf, "comm", out);
	if (!type++)
		return;
	if (!strncmp(type, "char", 4))
		lacking(kf, "char", out);
	else if (!strncmp(type, "ustring", 7))
		lacking(kf, "ustring", out);
	else if (!strncmp(type, "symstr", 6))
		lacking(kf, "symstr", out);
	else if (!strncmp(type, "string", 6))
		lacking(kf, "string", out);
	else if (type[0] == 'x' && type[1] >= '0' && type[1] <= '9')
		lacking(kf, "hex", out);
	else if (type[0] == 'b' && type[1] >= '0' && type[1] <= '9')
		lacking(kf, "bitfield", out);
	if (strchr(type, '['))
		lacking(kf, "array", out);
}

/* The next blank-separated word of a uprobe_events line (a \"...\" constant is one word). */
static const char *next_word(const char *p, size_t *len)
{
	bool quoted = false;
	const char *e;

	while (*p == ' ' || *p == '\t')
		p++;
	for (e = p; *e && (quoted || (*e != ' ' && *e != '\t' && *e != '\n')); e++)
		if (*e == '"' && e > p && e[-1] == '\\')
			quoted = !quoted;
		else if (*e == '"' && quoted)
			quoted = false;
	*len = (size_t)(e - p);
	return p;
}

/* The scratch event "why" with @place and @args, removed at once; Return: 0 or -errno. */
static int try_part(struct scratch *sc, char kind, const char *place, const char *args)
{
	int r = scratch_try(sc, kind, "why", place, args);

	if (!r)
		scratch_remove(sc, "why");
	return r;
}

int kcaps_explain(const struct kernel_features *kf, const char *line, struct strbuf *out)
{
	struct strbuf missing = STRBUF_INIT;
	struct scratch sc;
	const char *p, *w;
	char kind = line[0] == 'r' ? 'r' : 'p', *place, *arg;
	size_t len, nr = 0;
	int r;

	p = next_word(line, &len);		/* p:GROUP/EVENT */
	w = next_word(p + len, &len);		/* PATH:0xOFF[(0xREF)] */
	if (!len || !scratch_open(&sc))
		return -1;
	place = xstrndup(w, len);
	r = try_part(&sc, kind, place, NULL);
	if (r < 0) {
		arg_lacking(kf, place, true, &missing);
		strbuf_addf(out, "it refuses the probe point '%s' itself (%s)", place,
			    strerror(-r));
	}
	for (p = w + len; r == 0 && (w = next_word(p, &len), len); p = w + len, nr++) {
		arg = xstrndup(w, len);
		r = try_part(&sc, kind, place, arg);
		if (r < 0) {
			arg_lacking(kf, arg, false, &missing);
			strbuf_addf(out, "it refuses the argument '%s'%s", arg,
				    nr ? " (the ones before it are accepted)" : "");
		}
		free(arg);
	}
	scratch_close(&sc);
	if (r == 0)
		strbuf_addf(out, "each part alone is accepted: it refuses the %zu arguments "
			    "together (too many, or too big an event)", nr);
	if (missing.len)
		strbuf_addf(out, "; it uses what this kernel lacks: %s", missing.buf);
	strbuf_release(&missing);
	free(place);
	return 0;
}
