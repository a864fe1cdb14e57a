// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tracing.c - every tracefs call but the kernel capability table (kcaps.c): persistent
 * probes (-a, -l, -d), a session's private group and instance (upfront_<pid>) and their removal
 */
#define LOG_DOMAIN "tracing"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <tracefs.h>

#include "arch/arch.h"
#include "debuginfo.h"
#include "fallback.h"
#include "kcaps.h"
#include "lockfile.h"
#include "log.h"
#include "tracing.h"

/* The kernel capability table tracing follows (tracing_use_kcaps()); 6.18's before that. */
static struct kernel_features kcaps;
static bool kcaps_set;

void tracing_use_kcaps(const struct kernel_features *kf)
{
	kcaps = *kf;
	kcaps_set = true;
}

static const struct kernel_features *caps(void)
{
	if (!kcaps_set) {
		kernel_features_default(&kcaps);
		kcaps_set = true;
	}
	return &kcaps;
}

/* One line of uprobe_events split into its parts; pointers into a copy of the line. */
struct uprobe_line {
	char kind;		/* 'p' or 'r' */
	char *group;
	char *event;
	char *target;		/* PATH:0xOFFSET */
	char *args;		/* "a=%di:u64 b=..." or "" */
};

static int uprobe_line_split(char *line, struct uprobe_line *ul)
{
	char *sp, *slash;

	if ((line[0] != 'p' && line[0] != 'r') || line[1] != ':')
		return -EINVAL;
	ul->kind = line[0];
	ul->group = line + 2;
	sp = strchr(ul->group, ' ');
	if (!sp)
		return -EINVAL;
	*sp = '\0';
	slash = strchr(ul->group, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	ul->event = slash + 1;
	ul->target = sp + 1;
	sp = strchr(ul->target, ' ');
	if (sp) {
		*sp = '\0';
		ul->args = sp + 1;
	} else {
		ul->args = sp = ul->target + strlen(ul->target);
	}
	return 0;
}

/*
 * shown_event() - the name -l and -d show for event @event of @group: NAME for NAME__K, a
 * probe point given an event of its own (fallback.h) when NAME is in @events ("GROUP/EVENT"
 * of every uprobe event), else @event
 * Return: a string for free().
 */
static char *shown_event(const struct strlist *events, const char *group, const char *event)
{
	size_t len;

	if (!fallback_merged_name(event, &len))
		return xstrdup(event);
	for (size_t i = 0; i < events->nr; i++) {
		const char *e = events->v[i], *slash = strchr(e, '/');

		if (slash && (size_t)(slash - e) == strlen(group) && !strncmp(e, group, slash - e) &&
		    strlen(slash + 1) == len && !strncmp(slash + 1, event, len))
			return xstrndup(event, len);
	}
	return xstrdup(event);
}

/* Split "GROUP:EVENT" / "EVENT" into a group glob and an event glob (allocated). */
static void split_glob(const char *glob, char **group, char **event)
{
	const char *colon = glob ? strchr(glob, ':') : NULL;

	if (!glob || !*glob) {
		*group = xstrdup("*");
		*event = xstrdup("*");
	} else if (colon) {
		*group = xstrndup(glob, colon - glob);
		*event = xstrdup(colon + 1);
		if (!**group) {
			free(*group);
			*group = xstrdup("*");
		}
		if (!**event) {
			free(*event);
			*event = xstrdup("*");
		}
	} else {
		*group = xstrdup("*");
		*event = xstrdup(glob);
	}
}

/*
 * The session naming rule, the one place that knows it: a trace session's uprobe group and
 * its instance are both named upfront_<pid>, the pid of the upfront process that owns them
 * (upfront_<pid>_<n> when a session in another pid namespace holds that name). A session is
 * alive while its lock file is locked (lockfile.h): by upfront, and after upfront died by its
 * cleanup watchdog until that has removed what was left. While alive, nothing else removes
 * its group or instance (not even -d with a glob); once its lock is free, the next session
 * removes whatever is left (kill -9 of both, power loss). A name without a lock file (an
 * older upfront's, or no usable /run/upfront) falls back to its pid: alive while
 * kill(pid, 0) finds the process, which is only right in the same pid namespace.
 */
#define SESSION_PREFIX "upfront_"

/*
 * A session's second instance, <name>_tasks: the kernel's task records (tracing_watch_task())
 * in a ring of their own, so that the session's ring holds only its events and the kernel's
 * lost count there is a count of events. It belongs to the session <name>: reaped with it.
 */
#define TASKS_SUFFIX "_tasks"
#define TASKS_BUFFER_KB 128

/* The initial pid namespace's inode (the kernel's PROC_PID_INIT_INO, include/linux/proc_ns.h) */
#define PID_NS_INIT_INO 0xEFFFFFFCU

/*
 * in_child_pid_ns() - upfront runs in a pid namespace below the first (a container, unshare
 * --pid): pid numbers in others' session names mean nothing here, so names without a lock
 * file count as alive
 */
static bool in_child_pid_ns(void)
{
	static int nested = -1;
	struct stat st;

	if (nested < 0)
		nested = !stat("/proc/self/ns/pid", &st) && st.st_ino != PID_NS_INIT_INO;
	return nested;
}

static bool pid_alive(pid_t pid)
{
	if (in_child_pid_ns())
		return pid > 0;	/* cannot tell from here: alive */
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

/*
 * The pid in a session's name "upfront_<pid>" or "upfront_<pid>_<n>" (a group or an
 * instance); 0 for other names.
 */
static pid_t session_name_pid(const char *name)
{
	size_t n = strlen(SESSION_PREFIX);
	char *end;
	long pid;

	if (strncmp(name, SESSION_PREFIX, n) != 0 || !isdigit((unsigned char)name[n]))
		return 0;
	pid = strtol(name + n, &end, 10);
	if (*end == '_' && isdigit((unsigned char)end[1]))
		strtol(end + 1, &end, 10);
	return *end || pid <= 0 || pid != (pid_t)pid ? 0 : (pid_t)pid;
}

/* the session an instance belongs to: @name, or the session of a tasks instance (in @buf) */
static const char *instance_session(const char *name, char *buf, size_t size)
{
	size_t n = strlen(name), sn = strlen(TASKS_SUFFIX);

	if (n <= sn || strcmp(name + n - sn, TASKS_SUFFIX) || n - sn >= size)
		return name;
	memcpy(buf, name, n - sn);
	buf[n - sn] = '\0';
	return buf;
}

/* a session's group or instance name, live: never touched through a glob, never reaped */
static bool session_is_live(const char *name)
{
	if (!session_name_pid(name))
		return false;
	switch (lockfile_probe(name, NULL)) {
	case LOCKFILE_HELD:
		return true;
	case LOCKFILE_FREE:
		return false;
	default:
		return pid_alive(session_name_pid(name));
	}
}

/*
 * A session's name whose session is gone: its remains are the next session's to remove.
 * @lock_fd gets its lock file, taken (or -1 when it has none): lockfile_drop() it after.
 */
static bool session_is_stale(const char *name, int *lock_fd)
{
	int fd;

	*lock_fd = -1;
	/* a --keep session's remains stay until upfront -d removes them */
	if (!session_name_pid(name) || lockfile_is_kept(name))
		return false;
	switch (lockfile_probe(name, lock_fd)) {
	case LOCKFILE_FREE:
		return true;
	case LOCKFILE_HELD:
		return false;
	default:
		if (pid_alive(session_name_pid(name)))
			return false;
		/*
		 * Its pid is gone and it has no lock file (a --keep session's, an older
		 * upfront's): lock one for the reap, or runs starting together remove the same
		 * instance at once (ENODEV, EBUSY). Held: another run reaps it now.
		 */
		fd = lockfile_take(name);
		if (fd == -EBUSY)
			return false;
		*lock_fd = fd >= 0 ? fd : -1;
		return true;
	}
}

/*
 * A trace session gives the kernel the file it opened as /proc/PID/fd/N, and the kernel
 * keeps that text. Of a live session (group upfront_PID, the same PID) it is shown as the
 * path of that file and read for symbols; otherwise (a session gone, its pid reused) as is,
 * never opened.
 * Return: a new string to show, with *@open_it telling whether @path names the file.
 */
static char *shown_path(const char *group, const char *path, bool *open_it)
{
	char buf[PATH_MAX];
	int pid, fd, end = 0;
	ssize_t n;

	*open_it = true;
	if (sscanf(path, "/proc/%d/fd/%d%n", &pid, &fd, &end) != 2 || path[end])
		return xstrdup(path);
	*open_it = false;
	if (session_name_pid(group) != pid || !pid_alive(pid))
		return xstrdup(path);
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n <= 0 || buf[0] != '/')
		return xstrdup(path);
	buf[n] = '\0';
	*open_it = true;
	return xstrdup(buf);
}

/*
 * list_place() - "process_order+0x0 in /bin/x" for "/bin/x:0x14c0", as perf probe -l names
 * the place; the binary as is when it has no symbol there. @dbg caches the last binary.
 */
static void list_place(struct strbuf *out, const char *group, const char *target, bool ret,
		       struct debuginfo **dbg, char **dbg_path)
{
	const char *colon = strrchr(target, ':');
	struct strbuf sym = STRBUF_INIT;
	uint64_t off, vaddr;
	struct diag d;
	char *path, *shown;
	bool open_it;

	/* the path and the symbol name are a binary's: escape_name() keeps them inert */
	if (!colon) {
		escape_name(out, target);
		strbuf_addstr(out, ret ? "%return" : "");
		return;
	}
	path = xstrndup(target, colon - target);
	off = strtoull(colon + 1, NULL, 0);
	shown = shown_path(group, path, &open_it);
	if (!*dbg_path || strcmp(*dbg_path, path)) {
		debuginfo_free(*dbg);
		free(*dbg_path);
		diag_init(&d, NULL);
		/* a deleted binary: no name, no error */
		*dbg = open_it ? debuginfo_open(path, &d) : NULL;
		diag_release(&d);
		*dbg_path = xstrdup(path);
	}
	strbuf_init(&sym);
	if (*dbg && !debuginfo_offset_to_vaddr(*dbg, off, &vaddr) &&
	    !debuginfo_symbolize(*dbg, vaddr, &sym)) {
		escape_name(out, sym.buf);
		strbuf_addf(out, "%s in ", ret ? "%return" : "");
		escape_name(out, shown);
	} else {
		escape_name(out, shown);
		strbuf_addf(out, "%s%s", colon, ret ? "%return" : "");
	}
	strbuf_release(&sym);
	free(shown);
	free(path);
}

/* "GROUP/EVENT" of each line of uprobe_events @text into @events */
static void all_events(const char *text, struct strlist *events)
{
	for (const char *l = text; *l; l = strchrnul(l, '\n'), l += !!*l) {
		const char *sp = strchr(l, ' '), *nl = strchrnul(l, '\n');

		if ((l[0] == 'p' || l[0] == 'r') && l[1] == ':' && sp && sp < nl)
			strlist_addn(events, l + 2, sp - l - 2);
	}
}

int tracing_list(const char *glob, struct strbuf *out, struct diag *d)
{
	struct strlist events = STRLIST_INIT;
	struct debuginfo *dbg = NULL;
	char *dbg_path = NULL;
	char *text, *gglob, *eglob, *save = NULL;
	int n = 0;

	text = tracefs_instance_file_read(NULL, "uprobe_events", NULL);
	if (!text) {
		if (!tracefs_tracing_dir())
			return diag_fail(d, "tracefs is not mounted (mount -t tracefs nodev "
				"/sys/kernel/tracing)");
		return 0;	/* empty file */
	}
	split_glob(glob, &gglob, &eglob);
	all_events(text, &events);
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct uprobe_line ul;
		char *shown;

		if (uprobe_line_split(line, &ul) < 0)
			continue;
		shown = shown_event(&events, ul.group, ul.event);
		if (!glob_match(gglob, ul.group) || !glob_match(eglob, shown)) {
			free(shown);
			continue;
		}
		/* the points the kernel got as events of their own are listed as one event */
		strbuf_addf(out, "  %s:%s (on ", ul.group, shown);
		free(shown);
		list_place(out, ul.group, ul.target, ul.kind == 'r', &dbg, &dbg_path);
		if (*ul.args) {
			char *asave = NULL;
			const char *sep = " with ";

			for (char *a = strtok_r(ul.args, " ", &asave); a;
			     a = strtok_r(NULL, " ", &asave)) {
				char *eq = strchr(a, '=');

				if (eq)
					*eq = '\0';
				strbuf_addf(out, "%s%s", sep, a);
				sep = " ";
			}
		}
		strbuf_addstr(out, ")\n");
		n++;
	}
	debuginfo_free(dbg);
	free(dbg_path);
	strlist_release(&events);
	free(gglob);
	free(eglob);
	free(text);
	return n;
}

bool tracing_event_exists(const char *sys, const char *name)
{
	return tracefs_event_file_exists(NULL, sys, name, "format");
}

void tracing_event_parts(const char *sys, const char *name, struct strlist *out)
{
	char **evs = tracefs_system_events(NULL, sys);
	size_t len;

	for (size_t i = 0; evs && evs[i]; i++)
		if (fallback_merged_name(evs[i], &len) && len == strlen(name) &&
		    !strncmp(evs[i], name, len))
			strlist_add(out, evs[i]);
	tracefs_list_free(evs);
}

char *tracing_event_format(const char *sys, const char *name, int *size)
{
	return tracefs_event_file_read(NULL, sys, name, "format", size);
}

char *tracing_header_page(int *size)
{
	char *hp = tracefs_event_file_read(NULL, "header_page", NULL, NULL, size);

	if (!hp)
		hp = tracefs_instance_file_read(NULL, "events/header_page", size);
	return hp;
}

/* Remove GROUP/EVENT (every probe point of it), disabling it everywhere first. */
static int tracing_remove_event(const char *group, const char *event)
{
	struct tracefs_dynevent *dev;
	int ret;

	dev = tracefs_dynevent_get(TRACEFS_DYNEVENT_UPROBE, group, event);
	if (!dev)
		dev = tracefs_dynevent_get(TRACEFS_DYNEVENT_URETPROBE, group, event);
	if (!dev)
		return -ENOENT;
	ret = tracefs_dynevent_destroy(dev, true);
	if (ret < 0)
		ret = errno ? -errno : -EIO;
	tracefs_dynevent_free(dev);
	return ret;
}

bool tracing_saved_comm(int tid, char *comm, size_t size)
{
	char *text = tracefs_instance_file_read(NULL, "saved_cmdlines", NULL);
	bool found = false;
	char key[24];
	int n;

	if (!text || !size)
		goto out;
	/* "<tid> <comm>" lines */
	n = snprintf(key, sizeof(key), "%d ", tid);
	for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strncmp(l, key, n)) {
			size_t len = strcspn(l + n, "\n");

			if (len > size - 1)
				len = size - 1;
			memcpy(comm, l + n, len);
			comm[len] = '\0';
			found = true;
			break;
		}
	}
out:
	free(text);
	return found;
}

int tracing_saved_tgid(int tid)
{
	char *text = tracefs_instance_file_read(NULL, "saved_tgids", NULL);
	int tgid = 0;
	char key[24];
	int n;

	if (!text)
		return 0;
	/* "<pid> <tgid>" lines */
	n = snprintf(key, sizeof(key), "%d ", tid);
	for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strncmp(l, key, n)) {
			tgid = atoi(l + n);
			break;
		}
	}
	free(text);
	return tgid;
}

/*
 * tracing_error_text() - the kernel's reason for the last rejected write, from error_log of
 * @inst (NULL: top level): "trace_uprobe: error: Unknown type is specified at 'b=%si:u99'"
 * (the token the kernel's caret points at); nothing is appended when error_log is empty
 */
static void tracing_error_text(struct tracefs_instance *inst, struct strbuf *out)
{
	char *log = caps()->has_error_log ? tracefs_error_last(inst) : NULL;
	char *msg, *cmd = NULL, *caret = NULL, *save = NULL;

	if (!log || !*log) {
		free(log);
		return;
	}
	msg = strtok_r(log, "\n", &save);
	for (char *l = strtok_r(NULL, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *c = strstr(l, "Command: ");

		if (c && !cmd)
			cmd = c + 9;
		else if (strchr(l, '^') && cmd)
			caret = l;
	}
	/* "[  470.149830] trace_uprobe: error: Unknown type is specified" */
	if (msg[0] == '[' && strstr(msg, "] "))
		msg = strstr(msg, "] ") + 2;
	strbuf_addstr(out, msg);
	if (cmd && caret) {
		/* the caret sits under the offending token of the command */
		long col = (long)(strchr(caret, '^') - caret);
		const char *cl = cmd - 9;
		long pos;
		const char *b, *e;

		/* the caret's column counts from the start of the "Command:" line */
		while (cl > log && cl[-1] != '\0' && cl[-1] != '\n')
			cl--;
		pos = col - (long)(cmd - cl);
		if (pos >= 0 && pos <= (long)strlen(cmd)) {
			for (b = cmd + pos; b > cmd && b[-1] != ' '; b--)
				;
			for (e = cmd + pos; *e && *e != ' '; e++)
				;
			if (e > b)
				strbuf_addf(out, " at '%.*s'", (int)(e - b), b);
		}
	}
	free(log);
}

/*
 * no_reason() - the kernel rejected @line with @err and wrote no reason (no error_log, or
 * no entry in it): say which part it refuses, found by trying each alone (kcaps_explain())
 */
static void no_reason(const char *line, int err, struct strbuf *out)
{
	struct strbuf why = STRBUF_INIT;

	strbuf_addf(out, "%s, with no reason given (%s)", strerror(err),
		    caps()->has_error_log ? "error_log has no entry for it" :
		    "this kernel has no error_log");
	if (kcaps_explain(caps(), line, &why) == 0)
		strbuf_addf(out, "; %s", why.buf);
	strbuf_release(&why);
}

/* the kernel's reason for @tp's rejected @line (errno @err) in @d; returns -errno */
static int add_rejected(const struct trace_probe *tp, struct strbuf *line, int err,
			struct diag *d)
{
	struct strbuf klog = STRBUF_INIT;

	tracing_error_text(NULL, &klog);
	line->buf[line->len - 1] = '\0';
	if (!klog.len && (err == EINVAL || err == E2BIG))
		no_reason(line->buf, err, &klog);
	/*
	 * The kernel's reason for the line (an error_log entry, or EINVAL/E2BIG without one) is
	 * bad input, as our own checks' errors: exit status 2. Anything else (no memory, no
	 * permission) is a failure.
	 */
	if (klog.len || err == EINVAL || err == E2BIG)
		diag_error(d, SPAN_NONE, "the kernel rejected probe %s:%s: %s", tp->group, tp->event,
			   klog.len ? klog.buf : strerror(err));
	else
		diag_fail(d, "the kernel rejected probe %s:%s: %s", tp->group, tp->event,
			  strerror(err ? err : EIO));
	diag_hint(d, "line: %s", line->buf);
	strbuf_release(&klog);
	return -(err ? err : EIO);
}

/*
 * One open of uprobe_events and one clear of error_log for every line, and a table of the
 * events created: per line, a stat, an open of error_log and a scan of the created events
 * were 9 system calls and O(n) for a glob of 10,000 functions (the kernel's own cost per line
 * grows with the uprobes it has: validate_ref_ctr_offset() visits each).
 */
int tracing_add_probes(const struct trace_probe *tps, size_t nr, bool by_fd, struct diag *d)
{
	/* events this call created, "group/event", for rollback */
	struct strmap created;
	struct strbuf line = STRBUF_INIT, key = STRBUF_INIT;
	char *file = tracefs_get_tracing_file("uprobe_events");
	int ret = 0, fd = file ? open(file, O_WRONLY | O_APPEND | O_CLOEXEC) : -1;

	tracefs_put_tracing_file(file);
	strmap_init(&created, 16);
	if (fd < 0 && nr) {
		ret = -(errno ? errno : ENOENT);
		diag_fail(d, "cannot open uprobe_events: %s", strerror(-ret));
		goto out;
	}
	tracefs_error_clear(NULL);
	for (size_t i = 0; i < nr; i++) {
		const struct trace_probe *tp = &tps[i];
		bool mine;

		strbuf_reset(&key);
		strbuf_addf(&key, "%s/%s", tp->group, tp->event);
		mine = strmap_find(&created, key.buf);
		if (!mine && tracing_event_exists(tp->group, tp->event)) {
			ret = diag_error(d, SPAN_NONE, "event %s:%s already exists", tp->group,
					 tp->event);
			diag_hint(d, "remove it with upfront -d %s:%s, or name the probe EVENT=...",
				  tp->group, tp->event);
			goto rollback;
		}
		strbuf_reset(&line);
		ret = fetcharg_format_at(tp, by_fd && tp->kpath ? tp->kpath : tp->path, &line);
		if (ret < 0) {
			fetcharg_path_check(tp->path, d);
			diag_error(d, SPAN_NONE, "cannot format probe %s:%s", tp->group, tp->event);
			goto rollback;
		}
		strbuf_addch(&line, '\n');
		pr_debug("uprobe_events << %s", line.buf);
		if (write(fd, line.buf, line.len) != (ssize_t)line.len) {
			ret = add_rejected(tp, &line, errno, d);
			goto rollback;
		}
		if (!mine) {
			bool added;

			strmap_add(&created, key.buf, 0, &added);
		}
	}
	goto out;

rollback:
	for (size_t k = 0; k < created.cap; k++) {
		char *slash = created.keys[k] ? strchr(created.keys[k], '/') : NULL;

		if (!slash)
			continue;
		*slash = '\0';
		if (tracing_remove_event(created.keys[k], slash + 1) < 0)
			pr_warn("could not remove %s:%s", created.keys[k], slash + 1);
		*slash = '/';
	}
out:
	if (fd >= 0)
		close(fd);
	strmap_release(&created);
	strbuf_release(&line);
	strbuf_release(&key);
	return ret;
}

void tracing_remove_probes(const struct trace_probe *tps, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		int ret;

		/* the points of one event are next to each other: one removal takes them all */
		if (i && !strcmp(tps[i].group, tps[i - 1].group) &&
		    !strcmp(tps[i].event, tps[i - 1].event))
			continue;
		ret = tracing_remove_event(tps[i].group, tps[i].event);
		if (ret < 0 && ret != -ENOENT)
			pr_warn("could not remove %s:%s: %s", tps[i].group, tps[i].event,
				strerror(-ret));
	}
}

static int destroy_instance(struct tracefs_instance *inst);
static void remove_instances(const char *session, bool tell);

/*
 * After -d deleted events of session group @group: once none is left, what a session gone
 * left besides them (its instance, a --keep session's mark) goes too. A live session's stays.
 */
static void drop_session_remains(const char *group)
{
	struct tracefs_dynevent **left;
	bool kept = lockfile_is_kept(group);

	if (!session_name_pid(group) || (!kept && session_is_live(group)))
		return;
	left = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_UPROBE | TRACEFS_DYNEVENT_URETPROBE,
					group);
	if (left && left[0]) {
		tracefs_dynevent_list_free(left);
		return;
	}
	tracefs_dynevent_list_free(left);
	remove_instances(group, false);
	if (kept)
		lockfile_unmark_kept(group);
}

int tracing_delete(const char *glob, struct strbuf *removed, struct diag *d)
{
	struct strlist events = STRLIST_INIT;
	struct tracefs_dynevent **devs;
	char *gglob, *eglob;
	char **done = NULL, *skipped = NULL;
	size_t nr_done = 0, alloc = 0;
	int ret = 0, failed = 0;

	split_glob(glob, &gglob, &eglob);
	devs = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_UPROBE | TRACEFS_DYNEVENT_URETPROBE,
					NULL);
	for (size_t i = 0; devs && devs[i]; i++) {
		char *sys = NULL, *ev = NULL;

		tracefs_dynevent_info(devs[i], &sys, &ev, NULL, NULL, NULL);
		if (sys && ev) {
			char *key = xasprintf("%s/%s", sys, ev);

			strlist_add(&events, key);
			free(key);
		}
		free(sys);
		free(ev);
	}
	for (size_t i = 0; devs && devs[i]; i++) {
		char *sys = NULL, *ev = NULL, *key, *shown = NULL;
		bool seen = false, live;

		tracefs_dynevent_info(devs[i], &sys, &ev, NULL, NULL, NULL);
		/* the points the kernel got as events of their own go with their event */
		if (sys && ev)
			shown = shown_event(&events, sys, ev);
		if (!sys || !ev || !glob_match(gglob, sys) ||
		    (!glob_match(eglob, ev) && !glob_match(eglob, shown)))
			goto next;
		/* a running session's events only when its group is named exactly */
		live = session_is_live(sys);
		if (live && (has_glob(gglob) || strcmp(gglob, sys))) {
			if (!skipped)
				skipped = xstrdup(sys);
			goto next;
		}
		key = xasprintf("%s/%s", sys, ev);
		for (size_t k = 0; k < nr_done; k++)
			seen |= !strcmp(done[k], key);
		if (seen) {
			free(key);
			goto next;
		}
		ALLOC_GROW(done, nr_done + 1, alloc);
		done[nr_done++] = key;
		if (tracefs_dynevent_destroy(devs[i], true) < 0) {
			int err = errno;

			if (!failed++)
				diag_fail(d, "could not delete %s:%s: %s", sys, ev,
					  strerror(err ? err : EIO));
			ret = -(err ? err : EIO);
		} else if (strcmp(shown, ev) && glob_match(eglob, shown)) {
			/* a part of event SHOWN, which is said */
		} else if (removed && live) {
			/* asked by its exact name: said, and the session stops (it notices) */
			strbuf_addf(removed, "Removed event: %s:%s (of the running session of "
				    "pid %d, which stops with an error)\n", sys, ev,
				    (int)session_name_pid(sys));
		} else if (removed) {
			strbuf_addf(removed, "Removed event: %s:%s\n", sys, ev);
		}
next:
		free(shown);
		free(sys);
		free(ev);
	}
	strlist_release(&events);
	if (!ret && !nr_done) {
		diag_error(d, SPAN_NONE, "no uprobe event matches '%s'", glob);
		if (skipped)
			diag_hint(d, "a running session's events (%s) are deleted only by its exact "
				  "group: upfront -d '%s:*'", skipped, skipped);
		ret = -ENOENT;
	}
	free(skipped);
	for (size_t k = 0; k < nr_done; k++) {
		*strchr(done[k], '/') = '\0';
		if (!k || strcmp(done[k], done[k - 1]))
			drop_session_remains(done[k]);
	}
	for (size_t k = 0; k < nr_done; k++)
		free(done[k]);
	free(done);
	tracefs_dynevent_list_free(devs);
	free(gglob);
	free(eglob);
	return ret < 0 ? ret : (int)nr_done;
}

/* ---- a trace session's group and instance ---- */

struct tracing {
	char group[64];			/* upfront_<pid>: the group and the instance */
	struct tracefs_instance *inst;
	struct tracefs_instance *tinst;	/* <group>_tasks (tracing_watch_task()), or NULL */
	bool keep;			/* --keep: tracing_free() leaves everything (but tinst) */
	bool have_events;		/* something was added to uprobe_events */
	int lock_fd;			/* the session's lock file, locked (or -1) */
	int watchdog_fd;		/* write end of the watchdog's pipe (or -1) */
	pid_t watchdog;			/* the cleanup watchdog (or 0) */
	clockid_t clock_ref;		/* tracing_clock_ref() */
};

/*
 * Delete every event of @group (return how many): one removal takes all probe points of an
 * event. Unforced first: with the instance gone the events are enabled nowhere, and the
 * forced removal walks every instance of the system to disable them.
 */
static int delete_group_events(const char *group)
{
	struct tracefs_dynevent **devs;
	char *last = NULL;
	int n = 0;

	devs = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_UPROBE | TRACEFS_DYNEVENT_URETPROBE,
					group);
	for (size_t i = 0; devs && devs[i]; i++) {
		char *ev = NULL;

		tracefs_dynevent_info(devs[i], NULL, &ev, NULL, NULL, NULL);
		if (ev && (!last || strcmp(last, ev))) {
			n++;
			if (tracefs_dynevent_destroy(devs[i], false) < 0 && errno != ENOENT &&
			    tracefs_dynevent_destroy(devs[i], true) < 0 && errno != ENOENT)
				pr_warn("could not remove %s:%s: %s", group, ev, strerror(errno));
		}
		free(last);
		last = ev;
	}
	free(last);
	tracefs_dynevent_list_free(devs);
	return n;
}

/*
 * Remove instance @inst: that disables its events. EBUSY while another process holds one
 * of its files open (libtracefs' forced event removal walks every instance): try again
 * for a while.
 */
static int destroy_instance(struct tracefs_instance *inst)
{
	int ret, tries = 0;

	tracefs_trace_off(inst);
	while ((ret = tracefs_instance_destroy(inst)) < 0 && errno == EBUSY && tries++ < 200)
		usleep(10000);
	return ret;
}

/* remove the instances of session @session: its own and its tasks instance */
static void remove_instances(const char *session, bool tell)
{
	char *names[2] = { xstrdup(session), xasprintf("%s" TASKS_SUFFIX, session) };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		struct tracefs_instance *inst;

		if (tracefs_instance_exists(names[i]) &&
		    (inst = tracefs_instance_alloc(NULL, names[i]))) {
			if (tell)
				pr_info("removing instance %s of a dead run", names[i]);
			if (destroy_instance(inst) < 0)
				pr_warn("could not remove instance %s: %s", names[i],
					strerror(errno));
			tracefs_instance_free(inst);
		}
		free(names[i]);
	}
}

/* remove what session @name left: its instances (which disables its events), then its events */
static void reap_session(const char *name)
{
	remove_instances(name, true);
	if (delete_group_events(name))
		pr_info("removed the events of a dead run (%s)", name);
}

/* add @name to @l once */
static void add_name(struct strlist *l, const char *name)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->v[i], name))
			return;
	strlist_add(l, name);
}

/* Remove instances and uprobe groups of dead sessions; never a live one's. */
static void reap_stale(void)
{
	char **insts = tracefs_instances("^" SESSION_PREFIX "[0-9]");	/* a basic regex */
	struct strlist names = STRLIST_INIT, locks = STRLIST_INIT;
	struct tracefs_dynevent **devs;

	for (size_t i = 0; insts && insts[i]; i++) {
		char buf[64];
		const char *name = instance_session(insts[i], buf, sizeof(buf));

		if (session_name_pid(name))
			add_name(&names, name);
	}
	tracefs_list_free(insts);
	devs = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_UPROBE | TRACEFS_DYNEVENT_URETPROBE, NULL);
	for (size_t i = 0; devs && devs[i]; i++) {
		char *sys = NULL;

		tracefs_dynevent_info(devs[i], &sys, NULL, NULL, NULL, NULL);
		if (sys && session_name_pid(sys))
			add_name(&names, sys);
		free(sys);
	}
	tracefs_dynevent_list_free(devs);
	/* a run killed between taking its lock and starting its watchdog left only the lock */
	lockfile_names(&locks);
	for (size_t i = 0; i < locks.nr; i++)
		if (session_name_pid(locks.v[i]))
			add_name(&names, locks.v[i]);
	strlist_release(&locks);
	for (size_t i = 0; i < names.nr; i++) {
		int lock_fd;

		/* with its lock taken: its session cannot come back meanwhile */
		if (!session_is_stale(names.v[i], &lock_fd))
			continue;
		reap_session(names.v[i]);
		lockfile_drop(names.v[i], lock_fd);
	}
	strlist_release(&names);
}

/*
 * session_take_name() - the session's name, upfront_<pid>, with its lock file locked; a name
 * another session holds (one in another pid namespace with our pid number) gets _1, _2 ...
 * Without a usable lock directory the name is taken as is and liveness is the pid's.
 */
static int session_take_name(struct tracing *t, struct diag *d)
{
	for (int n = 0; n < 100; n++) {
		int fd;

		if (n)
			snprintf(t->group, sizeof(t->group), SESSION_PREFIX "%d_%d",
				 (int)getpid(), n);
		else
			snprintf(t->group, sizeof(t->group), SESSION_PREFIX "%d", (int)getpid());
		/* a kept session of a process that had our pid: its name stays its own */
		if (lockfile_is_kept(t->group))
			continue;
		fd = lockfile_take(t->group);
		if (fd >= 0) {
			t->lock_fd = fd;
			/* a dead run's remains under our name (a pid used again) are ours now */
			reap_session(t->group);
			return 0;
		}
		if (fd != -EBUSY) {
			pr_warn("no lock file in %s (%s): a session in another pid namespace could "
				"take this one for dead", LOCKFILE_DIR, strerror(-fd));
			return 0;
		}
	}
	return diag_fail(d, "no free session name %s%d_N: 100 are held", SESSION_PREFIX,
			 (int)getpid());
}

/*
 * watchdog_start() - fork the session's cleanup watchdog: a fresh "upfront
 * --watchdog-internal GROUP PIPE LOCK" (exec'd: the child of a threaded process may only
 * make system calls) holding the read end of a pipe whose write end only upfront has, and
 * a copy of the session's lock. When upfront dies for any reason (SIGSEGV, SIGKILL, abort)
 * the pipe reads end of file and the watchdog removes the instance and the events, keeping
 * the session locked until they are gone; tracing_free() tells it all is done ('d').
 */
static void watchdog_start(struct tracing *t)
{
	int p[2], rfd, lfd = -1;
	char rarg[16], larg[16];
	char *argv[] = { "upfront", TRACING_WATCHDOG_ARG, t->group, rarg, larg, NULL };
	struct sigaction ign = { .sa_handler = SIG_IGN };
	static const int ignored[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP,
				       SIGTTIN, SIGTTOU };
	sigset_t none;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0) {
		pr_warn("no cleanup watchdog: pipe: %s", strerror(errno));
		return;
	}
	/* the child's copies, numbered now: after fork() it may not call snprintf() */
	rfd = fcntl(p[0], F_DUPFD_CLOEXEC, 10);
	if (t->lock_fd >= 0)
		lfd = fcntl(t->lock_fd, F_DUPFD_CLOEXEC, 10);
	snprintf(rarg, sizeof(rarg), "%d", rfd);
	snprintf(larg, sizeof(larg), "%d", lfd);
	sigemptyset(&none);
	pid = rfd < 0 ? -1 : fork();
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR);

		fcntl(rfd, F_SETFD, 0);
		if (lfd >= 0)
			fcntl(lfd, F_SETFD, 0);
		/* deaf to the terminal's and the session's signals: it ends when upfront does */
		for (size_t i = 0; i < ARRAY_SIZE(ignored); i++)
			sigaction(ignored[i], &ign, NULL);
		sigprocmask(SIG_SETMASK, &none, NULL);
		setpgid(0, 0);
		if (nul >= 0) {
			dup2(nul, STDIN_FILENO);
			dup2(nul, STDOUT_FILENO);
		}
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	if (pid < 0)
		pr_warn("no cleanup watchdog: fork: %s", strerror(errno));
	if (rfd >= 0)
		close(rfd);
	if (lfd >= 0)
		close(lfd);
	close(p[0]);
	if (pid < 0) {
		close(p[1]);
		return;
	}
	t->watchdog = pid;
	t->watchdog_fd = p[1];
}

/* watchdog_stop() - everything is removed (or kept): the watchdog exits without a look */
static void watchdog_stop(struct tracing *t)
{
	if (t->watchdog_fd < 0)
		return;
	if (write(t->watchdog_fd, "d", 1) != 1)
		pr_debug("watchdog: %s", strerror(errno));
	close(t->watchdog_fd);
	t->watchdog_fd = -1;
	waitpid(t->watchdog, NULL, 0);
}

int tracing_watchdog(const char *group, const char *pipe_arg, const char *lock_arg)
{
	char *end, c;
	long rfd = strtol(pipe_arg, &end, 10), lfd;
	ssize_t n;

	if (*end || rfd < 3 || !session_name_pid(group))
		return 2;
	lfd = strtol(lock_arg, &end, 10);
	if (*end)
		return 2;
	/* nothing of upfront's but the pipe and the lock (a library's stray socket) */
	for (int fd = 3; fd < 1024; fd++)
		if (fd != rfd && fd != lfd)
			close(fd);
	do
		n = read((int)rfd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1)
		return 0;	/* upfront removed everything itself */
	/* upfront is gone without saying so: what it left goes, while its lock is held */
	reap_session(group);
	lockfile_drop(group, lfd >= 0 ? (int)lfd : -1);
	return 0;
}

/*
 * Set @inst's trace_clock to @clk unless it is that already: a write resets the ring buffers
 * (20-30 ms on 6.18), and a new instance starts with "local".
 */
static int write_clock(struct tracefs_instance *inst, const char *clk)
{
	char *now = tracefs_get_clock(inst);
	bool same = now && !strcmp(now, clk);

	free(now);
	return same ? 0 : tracefs_instance_file_write(inst, "trace_clock", clk) < 0 ? -1 : 0;
}

/*
 * The instance's trace_clock, which stamps every record. "local" (sched_clock(): the TSC
 * scaled) costs the traced thread ~4% of a bare probe's hit less than "mono" (a fenced TSC
 * read under the timekeeper's seqcount; bench/pa-cost.sh, 6.18). It is per CPU, which only
 * matters where CPUs' TSCs differ: where the TSC is the kernel's clocksource the kernel has
 * found it synchronized, and records of all CPUs merge in order. Elsewhere "mono". Records are
 * never compared with CLOCK_MONOTONIC directly: the drain maps its clock through the "now ts"
 * of per_cpu/cpuN/stats (tracing_cpu_stats()). UPFRONT_TRACE_CLOCK ("local" or "mono",
 * main.c checks it) chooses (comparisons, tests).
 */
static void set_clock(struct tracing *t)
{
	const char *clk = getenv("UPFRONT_TRACE_CLOCK");

	if (!clk || !*clk) {
		FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource",
				"r");
		const char *synced = arch_current()->local_clocksource;
		char cs[32] = "";

		if (f) {
			if (!fgets(cs, sizeof(cs), f))
				cs[0] = '\0';
			fclose(f);
		}
		cs[strcspn(cs, "\n")] = '\0';
		clk = synced && !strcmp(cs, synced) ? "local" : "mono";
	}
	if (write_clock(t->inst, clk) < 0) {
		pr_warn("cannot set trace_clock %s: %s", clk, strerror(errno));
		clk = "mono";
		if (write_clock(t->inst, clk) < 0)
			pr_warn("cannot set trace_clock mono: %s", strerror(errno));
	} else {
		pr_debug("trace_clock %s", clk);
	}
	t->clock_ref = !strcmp(clk, "mono") ? CLOCK_MONOTONIC : !strcmp(clk, "boot") ?
		       CLOCK_BOOTTIME : CLOCK_MONOTONIC_RAW;
}

clockid_t tracing_clock_ref(const struct tracing *t)
{
	return t->clock_ref;
}

/* the trace_clock set_clock() chose, by the clock it runs with */
static const char *clock_name(const struct tracing *t)
{
	return t->clock_ref == CLOCK_MONOTONIC ? "mono" :
	       t->clock_ref == CLOCK_BOOTTIME ? "boot" : "local";
}

struct tracing *tracing_new(unsigned long buffer_kb, bool keep, struct diag *d)
{
	struct tracing *t = xcalloc(1, sizeof(*t));

	t->lock_fd = t->watchdog_fd = -1;
	t->keep = keep;
	if (session_take_name(t, d) < 0) {
		free(t);
		return NULL;
	}
	reap_stale();
	if (!keep)
		watchdog_start(t);	/* from here on a crash leaves nothing behind */
	t->inst = tracefs_instance_create(t->group);
	if (!t->inst) {
		diag_fail(d, "cannot create tracefs instance %s: %s", t->group, strerror(errno));
		tracing_free(t);
		return NULL;
	}
	tracefs_trace_off(t->inst);
	set_clock(t);
	/*
	 * The process of each task that had an event goes to saved_tgids: a thread that exits
	 * before its events are decoded is no longer in /proc (tracing_saved_tgid())
	 */
	if (caps()->has_record_tgid &&
	    tracefs_instance_file_write(t->inst, "options/record-tgid", "1") < 0)
		pr_debug("cannot set options/record-tgid: %s", strerror(errno));
	if (buffer_kb && tracefs_instance_set_buffer_size(t->inst, buffer_kb, -1) < 0)
		pr_warn("cannot set buffer_size_kb %lu: %s", buffer_kb, strerror(errno));
	return t;
}

void tracing_free(struct tracing *t)
{
	if (!t)
		return;
	/* even when kept: only this session reads the task records */
	if (t->tinst) {
		if (destroy_instance(t->tinst) < 0)
			pr_warn("could not remove instance %s" TASKS_SUFFIX ": %s", t->group,
				strerror(errno));
		tracefs_instance_free(t->tinst);
	}
	if (t->inst) {
		tracefs_trace_off(t->inst);
		if (!t->keep && destroy_instance(t->inst) < 0)
			pr_warn("could not remove instance %s: %s", t->group, strerror(errno));
		tracefs_instance_free(t->inst);
	}
	if (t->have_events && !t->keep)
		delete_group_events(t->group);
	else if (t->have_events && lockfile_mark_kept(t->group) < 0)
		pr_warn("kept group %s and instance %s, without a mark in %s: the next run takes "
			"them for a dead session's and removes them", t->group, t->group,
			LOCKFILE_DIR);
	else if (t->have_events)
		pr_warn("kept group %s and instance %s (remove with upfront -d '%s:*')", t->group,
			t->group, t->group);
	/* kept: the lock goes and the pid says (as for an older upfront's) */
	lockfile_drop(t->group, t->lock_fd);
	watchdog_stop(t);
	free(t);
}

void tracing_unkeep(struct tracing *t)
{
	if (t)
		t->keep = false;
}

const char *tracing_group(const struct tracing *t)
{
	return t->group;
}

int tracing_add(struct tracing *t, struct trace_probe *tps, size_t nr, struct diag *d)
{
	int ret;

	for (size_t i = 0; i < nr; i++) {
		free(tps[i].group);
		tps[i].group = xstrdup(t->group);
	}
	/* --keep: the probes outlive us, /proc/PID/fd/N would name nothing (or another file) */
	ret = tracing_add_probes(tps, nr, !t->keep, d);
	if (ret == 0 && nr)
		t->have_events = true;
	return ret;
}

int tracing_event_enable(struct tracing *t, const char *sys, const char *name, struct diag *d)
{
	if (tracefs_event_enable(t->inst, sys, name) < 0) {
		int err = errno ? errno : EIO;

		diag_fail(d, "cannot enable %s:%s: %s", sys, name, strerror(err));
		return -err;
	}
	return 0;
}

/* the instance whose ring is @ring (NULL: none) */
static struct tracefs_instance *ring_inst(struct tracing *t, enum tracing_ring ring)
{
	return ring == TRACING_RING_TASKS ? t->tinst : t->inst;
}

bool tracing_has_ring(struct tracing *t, enum tracing_ring ring)
{
	return ring_inst(t, ring) != NULL;
}

/* the tasks instance, created with recording off, the session's clock, a small ring */
static struct tracefs_instance *tasks_instance(struct tracing *t, struct diag *d)
{
	char name[sizeof(t->group) + sizeof(TASKS_SUFFIX)];

	if (t->tinst)
		return t->tinst;
	snprintf(name, sizeof(name), "%s" TASKS_SUFFIX, t->group);
	t->tinst = tracefs_instance_create(name);
	if (!t->tinst) {
		diag_fail(d, "cannot create tracefs instance %s: %s", name, strerror(errno));
		return NULL;
	}
	tracefs_trace_off(t->tinst);
	if (write_clock(t->tinst, clock_name(t)) < 0 ||
	    tracefs_instance_set_buffer_size(t->tinst, TASKS_BUFFER_KB, -1) < 0) {
		diag_fail(d, "cannot set up tracefs instance %s: %s", name, strerror(errno));
		destroy_instance(t->tinst);
		tracefs_instance_free(t->tinst);
		t->tinst = NULL;
	}
	return t->tinst;
}

int tracing_watch_task(struct tracing *t, const char *sys, const char *name, struct diag *d)
{
	struct tracefs_instance *inst = tasks_instance(t, d);

	if (!inst)
		return -EIO;
	if (tracefs_event_enable(inst, sys, name) < 0) {
		int err = errno ? errno : EIO;

		diag_fail(d, "cannot enable %s:%s: %s", sys, name, strerror(err));
		return -err;
	}
	return 0;
}

bool tracing_event_present(struct tracing *t, const char *sys, const char *name)
{
	return tracefs_event_file_exists(t->inst, sys, name, "enable");
}

void tracing_event_disable(struct tracing *t, const char *sys, const char *name)
{
	if (tracefs_event_disable(t->inst, sys, name) < 0)
		pr_debug("cannot disable %s:%s: %s", sys, name, strerror(errno));
}

void tracing_event_delete(struct tracing *t, const char *name)
{
	int ret = tracing_remove_event(t->group, name);

	if (ret < 0 && ret != -ENOENT)
		pr_warn("could not remove %s:%s: %s", t->group, name, strerror(-ret));
}

/*
 * filter_error_text() - the reason for a rejected filter as the event's filter file keeps it
 * (every kernel, error_log or not: the text, a caret line, "parse_error: WHY"): "parse_error:
 * Expecting numeric field at '"x"'"; nothing appended when the file has no such line
 */
static void filter_error_text(struct tracefs_instance *inst, const char *sys, const char *name,
			      struct strbuf *out)
{
	char *text = tracefs_event_file_read(inst, sys, name, "filter", NULL);
	char *why = text ? strstr(text, "parse_error: ") : NULL;
	char *caret = why ? strchr(text, '^') : NULL;

	if (why) {
		strbuf_add(out, why, strcspn(why, "\n"));
		/* the caret sits in or just after the offending token of the first line */
		if (caret && caret < why) {
			const char *nl = strchr(text, '\n');
			const char *line2 = nl ? nl + 1 : NULL;
			long col = line2 && caret >= line2 ? (long)(caret - line2) : -1, start;

			if (col > 0 && col <= (long)(nl - text) && (col == nl - text ||
								    text[col] == ' '))
				col--;
			if (col >= 0 && col < (long)(nl - text) && text[col] != ' ') {
				for (start = col; start > 0 && text[start - 1] != ' '; start--)
					;
				strbuf_addf(out, " at '%.*s'", (int)strcspn(text + start, " \n"),
					    text + start);
			}
		}
	}
	free(text);
}

int tracing_set_filter(struct tracing *t, const char *sys, const char *name,
		       const char *filter, struct diag *d)
{
	struct strbuf why = STRBUF_INIT;
	int err;

	tracefs_error_clear(t->inst);
	if (tracefs_event_file_write(t->inst, sys, name, "filter", filter) >= 0)
		return 0;
	err = errno;
	tracing_error_text(t->inst, &why);
	if (!why.len)	/* no error_log: the filter file says why */
		filter_error_text(t->inst, sys, name, &why);
	diag_error(d, SPAN_NONE, "the kernel rejected the filter '%s' on %s: %s", filter, name,
		   why.len ? why.buf : strerror(err ? err : EINVAL));
	strbuf_release(&why);
	return -EINVAL;
}

/* " TID" for every thread of process @pid but @pid itself */
static void add_threads(struct strbuf *sb, pid_t pid)
{
	char path[64];
	struct dirent *de;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	while (dir && (de = readdir(dir))) {
		if (de->d_name[0] != '.' && atoi(de->d_name) != pid)
			strbuf_addf(sb, "%s ", de->d_name);
	}
	if (dir)
		closedir(dir);
}

ssize_t tracing_pids(struct tracing *t, pid_t **out)
{
	char *text = tracefs_instance_file_read(t->inst, "set_event_pid", NULL), *p, *end;
	size_t n = 0, alloc = 0;

	*out = NULL;
	/* libtracefs gives NULL for an empty file too (every traced task gone): -1 only when
	 * the file itself cannot be opened */
	if (!text && !tracefs_file_exists(t->inst, "set_event_pid"))
		return -1;
	for (p = text; p && *p; p = end) {
		long v = strtol(p, &end, 10);

		if (end == p) {
			end = p + 1;
			continue;
		}
		ALLOC_GROW(*out, n + 1, alloc);
		(*out)[n++] = (pid_t)v;
	}
	free(text);
	return (ssize_t)n;
}

int tracing_set_pids(struct tracing *t, const pid_t *pids, size_t nr, bool threads,
		     struct diag *d)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	if (!caps()->has_event_pid)
		return diag_error(d, SPAN_NONE, "this kernel has no set_event_pid: upfront cannot "
				  "keep to the processes of -p or of -- CMD");
	for (size_t i = 0; i < nr; i++) {
		if (!pid_alive(pids[i])) {
			ret = diag_error(d, SPAN_NONE, "no process %d", (int)pids[i]);
			goto out;
		}
		strbuf_addf(&sb, "%d ", (int)pids[i]);
		if (threads)
			add_threads(&sb, pids[i]);
	}
	if (!caps()->has_event_fork)
		pr_warn("this kernel has no options/event-fork: the processes the traced ones "
			"start are not traced");
	/* libtracefs 1.6 has no helper for set_event_pid: write the files, of both rings */
	for (int r = 0; r < TRACING_NR_RINGS && !ret; r++) {
		struct tracefs_instance *inst = ring_inst(t, r);

		if (!inst)
			continue;
		if (caps()->has_event_fork)
			tracefs_instance_file_write(inst, "options/event-fork", "1");
		if (tracefs_instance_file_write(inst, "set_event_pid", sb.buf) < 0)
			ret = diag_fail(d, "cannot write set_event_pid: %s", strerror(errno));
	}
out:
	strbuf_release(&sb);
	return ret;
}

int tracing_enable_user_stacks(struct tracing *t, struct diag *d)
{
	if (!caps()->has_userstacktrace)
		return diag_error(d, SPAN_NONE, "this kernel has no options/userstacktrace, which "
				  "--stack reads");
	if (tracefs_instance_file_write(t->inst, "options/userstacktrace", "1") < 0)
		return diag_fail(d, "cannot enable options/userstacktrace: %s", strerror(errno));
	return 0;
}

void tracing_on(struct tracing *t)
{
	/* the tasks first: a task record comes before the events of its task */
	if (t->tinst)
		tracefs_trace_on(t->tinst);
	tracefs_trace_on(t->inst);
}

void tracing_off(struct tracing *t)
{
	tracefs_trace_off(t->inst);
	if (t->tinst)
		tracefs_trace_off(t->tinst);
}

int tracing_subbuf_size(struct tracing *t)
{
	char *kb = caps()->has_subbuf_size ?
		   tracefs_instance_file_read(t->inst, "buffer_subbuf_size_kb", NULL) : NULL;
	int size = kb && atoi(kb) > 0 ? atoi(kb) * 1024 : getpagesize();

	free(kb);
	return size;
}

uint64_t tracing_buffer_bytes(struct tracing *t)
{
	/* the kernel's size of CPU 0's ring (every CPU's is the same: buffer_size_kb set them) */
	ssize_t kb = tracefs_instance_get_buffer_size(t->inst, 0);

	return kb > 0 ? (uint64_t)kb * 1024 : 0;
}

bool tracing_set_wakeup(struct tracing *t, unsigned int percent)
{
	char text[16];

	if (!caps()->has_buffer_percent)
		return false;

	snprintf(text, sizeof(text), "%u", percent);
	for (int r = 0; r < TRACING_NR_RINGS; r++) {
		struct tracefs_instance *inst = ring_inst(t, r);

		if (inst && tracefs_instance_file_write(inst, "buffer_percent", text) < 0)
			pr_debug("cannot set buffer_percent: %s", strerror(errno));
	}
	return true;
}

int tracing_cpu_open_raw(struct tracing *t, enum tracing_ring ring, int cpu, struct diag *d)
{
	char *dir = tracefs_instance_get_file(ring_inst(t, ring), "per_cpu");
	char *file = xasprintf("%s/cpu%d/trace_pipe_raw", dir ? dir : "per_cpu", cpu);
	int fd, err;

	tracefs_put_tracing_file(dir);
	fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	err = errno;
	if (fd < 0 && err != ENOENT)		/* ENOENT: an offline or absent CPU */
		diag_fail(d, "cannot open %s: %s", file, strerror(err));
	free(file);
	return fd < 0 ? -err : fd;
}

int tracing_cpu_stats(struct tracing *t, enum tracing_ring ring, int cpu,
		      struct tracing_cpu_stats *out)
{
	char path[64], *text, *p;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", cpu);
	text = tracefs_instance_file_read(ring_inst(t, ring), path, NULL);
	if (!text)
		return errno ? -errno : -EIO;
	if (!strncmp(text, "entries: ", 9))	/* "entries: N" comes first */
		out->entries = strtoull(text + 9, NULL, 10);
	if ((p = strstr(text, "\noverrun: ")))
		out->lost += strtoull(p + 10, NULL, 10);
	if ((p = strstr(text, "commit overrun: ")))
		out->lost += strtoull(p + 16, NULL, 10);
	if ((p = strstr(text, "dropped events: ")))
		out->lost += strtoull(p + 16, NULL, 10);
	if ((p = strstr(text, "\nnow ts: "))) {
		char *end;
		unsigned long long sec = strtoull(p + 9, &end, 10);

		/* "now ts: 12345.678901": seconds and microseconds, for clocks that count ns */
		if (*end == '.')
			out->now_ns = sec * 1000000000ULL + strtoull(end + 1, NULL, 10) * 1000ULL;
	}
	free(text);
	return 0;
}
