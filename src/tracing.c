// SPDX-License-Identifier: GPL-2.0-or-later
/* tracing.c - tracefs: kernel features from README, persistent probes (-a, -l, -d) */
#define LOG_DOMAIN "tracing"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "debuginfo.h"
#include "log.h"
#include "tracing.h"

/* A type word in the README's "type:" list (up to the next "name:" line), as a whole word. */
static bool readme_has_type(const char *readme, const char *type)
{
	const char *sec = strstr(readme, " type: ");
	const char *end, *p;
	size_t n = strlen(type);

	if (!sec)
		return false;
	sec += 7;
	/* continuation lines have no ':' of their own */
	for (end = sec; (end = strchr(end, '\n')); end++) {
		const char *nl = strchr(end + 1, '\n');
		const char *colon = strchr(end + 1, ':');

		if (!nl || (colon && colon < nl))
			break;
	}
	for (p = sec; (p = strstr(p, type)) && (!end || p < end); p += n) {
		char before = p[-1], after = p[n];

		if ((before == ' ' || before == ',' || before == '\t') &&
		    (after == ',' || after == ' ' || after == '\n' || after == '\0'))
			return true;
	}
	return false;
}

void tracing_read_features(struct kernel_features *kf)
{
	char *readme;

	kernel_features_default(kf);
	readme = tracefs_instance_file_read(NULL, "README", NULL);
	if (!readme) {
		pr_info("no tracefs README; assuming kernel 6.18 features");
		return;
	}
	kf->has_char = readme_has_type(readme, "char");
	kf->has_ustring = readme_has_type(readme, "ustring");
	pr_debug("kernel features: char=%d ustring=%d", kf->has_char, kf->has_ustring);
	free(readme);
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

/* upfront_<pid> of a live session other than ours: never touched through a glob */
static bool group_is_live_session(const char *group)
{
	char *end;
	long pid;

	if (strncmp(group, "upfront_", 8) != 0)
		return false;
	pid = strtol(group + 8, &end, 10);
	if (*end || pid <= 0)
		return false;
	return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

/*
 * list_place() - "process_order+0x0 in /bin/x" for "/bin/x:0x14c0", as perf probe -l names
 * the place; the binary as is when it has no symbol there. @dbg caches the last binary.
 */
static void list_place(struct strbuf *out, const char *target, bool ret, struct debuginfo **dbg,
		       char **dbg_path)
{
	const char *colon = strrchr(target, ':');
	struct strbuf sym = STRBUF_INIT;
	uint64_t off, vaddr;
	struct diag d;
	char *path;

	if (!colon) {
		strbuf_addf(out, "%s%s", target, ret ? "%return" : "");
		return;
	}
	path = xstrndup(target, colon - target);
	off = strtoull(colon + 1, NULL, 0);
	if (!*dbg_path || strcmp(*dbg_path, path)) {
		debuginfo_free(*dbg);
		free(*dbg_path);
		diag_init(&d, NULL);
		*dbg = debuginfo_open(path, &d);	/* a deleted binary: no name, no error */
		diag_release(&d);
		*dbg_path = xstrdup(path);
	}
	strbuf_init(&sym);
	if (*dbg && !debuginfo_offset_to_vaddr(*dbg, off, &vaddr) &&
	    !debuginfo_symbolize(*dbg, vaddr, &sym))
		strbuf_addf(out, "%s%s in %s", sym.buf, ret ? "%return" : "", path);
	else
		strbuf_addf(out, "%s%s", target, ret ? "%return" : "");
	strbuf_release(&sym);
	free(path);
}

int tracing_list(const char *glob, struct strbuf *out, struct diag *d)
{
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
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct uprobe_line ul;

		if (uprobe_line_split(line, &ul) < 0)
			continue;
		if (!glob_match(gglob, ul.group) || !glob_match(eglob, ul.event))
			continue;
		strbuf_addf(out, "  %s:%s (on ", ul.group, ul.event);
		list_place(out, ul.target, ul.kind == 'r', &dbg, &dbg_path);
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
	free(gglob);
	free(eglob);
	free(text);
	return n;
}

/* tracing_event_exists() - a dynamic or static event GROUP/EVENT is defined */
static bool tracing_event_exists(const char *group, const char *event)
{
	return tracefs_event_file_exists(NULL, group, event, "format");
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

void tracing_error_text(struct tracefs_instance *inst, struct strbuf *out)
{
	char *log = tracefs_error_last(inst);
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

int tracing_add_probes(const struct trace_probe *tps, size_t nr, struct diag *d)
{
	/* events this call created, "group/event", for rollback */
	char **created = NULL;
	size_t nr_created = 0, alloc = 0;
	struct strbuf line = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < nr; i++) {
		const struct trace_probe *tp = &tps[i];
		bool mine = false;

		for (size_t k = 0; k < nr_created; k++) {
			size_t gl = strlen(tp->group);

			if (!strncmp(created[k], tp->group, gl) && created[k][gl] == '/' &&
			    !strcmp(created[k] + gl + 1, tp->event))
				mine = true;
		}
		if (!mine && tracing_event_exists(tp->group, tp->event)) {
			ret = diag_error(d, SPAN_NONE, "event %s:%s already exists", tp->group,
					 tp->event);
			diag_hint(d, "remove it with upfront -d %s:%s, or name the probe EVENT=...",
				  tp->group, tp->event);
			goto rollback;
		}
		strbuf_reset(&line);
		ret = fetcharg_format(tp, &line);
		if (ret < 0) {
			diag_fail(d, "cannot format probe %s:%s", tp->group, tp->event);
			goto rollback;
		}
		strbuf_addch(&line, '\n');
		tracefs_error_clear(NULL);
		pr_debug("uprobe_events << %s", line.buf);
		if (tracefs_instance_file_append(NULL, "uprobe_events", line.buf) < 0) {
			int err = errno;
			struct strbuf klog = STRBUF_INIT;

			tracing_error_text(NULL, &klog);
			line.buf[line.len - 1] = '\0';
			diag_fail(d, "the kernel rejected probe %s:%s: %s", tp->group, tp->event,
				  klog.len ? klog.buf : strerror(err ? err : EIO));
			diag_hint(d, "line: %s", line.buf);
			strbuf_release(&klog);
			ret = -(err ? err : EIO);
			goto rollback;
		}
		if (!mine) {
			ALLOC_GROW(created, nr_created + 1, alloc);
			created[nr_created++] = xasprintf("%s/%s", tp->group, tp->event);
		}
	}
	goto out;

rollback:
	for (size_t k = 0; k < nr_created; k++) {
		char *slash = strchr(created[k], '/');

		*slash = '\0';
		if (tracing_remove_event(created[k], slash + 1) < 0)
			pr_warn("could not remove %s:%s", created[k], slash + 1);
	}
out:
	for (size_t k = 0; k < nr_created; k++)
		free(created[k]);
	free(created);
	strbuf_release(&line);
	return ret;
}

int tracing_delete(const char *glob, struct strbuf *removed, struct diag *d)
{
	struct tracefs_dynevent **devs;
	char *gglob, *eglob;
	char **done = NULL;
	size_t nr_done = 0, alloc = 0;
	int ret = 0, failed = 0;

	split_glob(glob, &gglob, &eglob);
	devs = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_UPROBE | TRACEFS_DYNEVENT_URETPROBE,
					NULL);
	for (size_t i = 0; devs && devs[i]; i++) {
		char *sys = NULL, *ev = NULL, *key;
		bool seen = false;

		tracefs_dynevent_info(devs[i], &sys, &ev, NULL, NULL, NULL);
		if (!sys || !ev || !glob_match(gglob, sys) || !glob_match(eglob, ev))
			goto next;
		/* a running session's events only when its group is named exactly */
		if (group_is_live_session(sys) && (has_glob(gglob) || strcmp(gglob, sys)))
			goto next;
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
		} else if (removed) {
			strbuf_addf(removed, "Removed event: %s:%s\n", sys, ev);
		}
next:
		free(sys);
		free(ev);
	}
	if (!ret && !nr_done) {
		diag_error(d, SPAN_NONE, "no uprobe event matches '%s'", glob);
		ret = -ENOENT;
	}
	for (size_t k = 0; k < nr_done; k++)
		free(done[k]);
	free(done);
	tracefs_dynevent_list_free(devs);
	free(gglob);
	free(eglob);
	return ret < 0 ? ret : (int)nr_done;
}
