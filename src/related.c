// SPDX-License-Identifier: GPL-2.0-or-later
/* related.c - the objects related to a probed binary, whose types complete its declarations */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LOG_DOMAIN "related"
#include "debuginfo.h"
#include "elfinfo.h"
#include "log.h"
#include "related.h"
#include "type-complete.h"

struct rel_obj {
	char *path;		/* canonical */
	struct debuginfo *dbg;	/* opened as a source, or NULL */
	struct related *owner;
};

struct related {
	struct rel_obj **objs;
	size_t nr, alloc;
	char *self;		/* the probed binary's canonical path */
};

static void add_needed_of(struct related *r, Elf *elf, const char *path);

static int obj_open(void *arg)
{
	struct rel_obj *o = arg;
	struct diag d;

	diag_init(&d, NULL);
	o->dbg = debuginfo_open(o->path, &d);
	diag_release(&d);
	if (!o->dbg)
		return -ENOENT;
	/* what it needs is mapped too: looked in after the sources there are */
	add_needed_of(o->owner, debuginfo_elf(o->dbg), o->path);
	return debuginfo_dwarf(o->dbg, NULL) ? 0 : -ENOENT;
}

/* @path added once (named @name in messages, or by its file name), unless it is the probed
 * binary itself. */
static void add(struct related *r, const char *path, const char *name)
{
	char *real = realpath(path, NULL);
	struct rel_obj *o;

	if (!real)
		return;
	if (r->self && !strcmp(real, r->self))
		goto dup;
	for (size_t i = 0; i < r->nr; i++)
		if (!strcmp(r->objs[i]->path, real))
			goto dup;
	o = xcalloc(1, sizeof(*o));
	o->path = real;
	o->owner = r;
	ALLOC_GROW(r->objs, r->nr + 1, r->alloc);
	r->objs[r->nr++] = o;
	if (!name)
		name = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
	type_complete_add_source(name, obj_open, o);
	return;
dup:
	free(real);
}

/* "$ORIGIN/../lib" with $ORIGIN (or ${ORIGIN}) replaced by @origin. */
static char *expand_origin(const char *dir, const char *origin)
{
	struct strbuf out = STRBUF_INIT;

	strbuf_init(&out);
	while (*dir) {
		if (!strncmp(dir, "$ORIGIN", 7)) {
			strbuf_addstr(&out, origin);
			dir += 7;
		} else if (!strncmp(dir, "${ORIGIN}", 9)) {
			strbuf_addstr(&out, origin);
			dir += 9;
		} else {
			strbuf_addch(&out, *dir++);
		}
	}
	return strbuf_detach(&out);
}

/* @name looked for in colon-separated @runpath, then as the dynamic linker does. */
static void add_needed(struct related *r, const char *name, const char *runpath,
		       const char *origin)
{
	char *list = runpath ? xstrdup(runpath) : NULL, *save = NULL, *dir, *found;

	for (dir = list ? strtok_r(list, ":", &save) : NULL; dir; dir = strtok_r(NULL, ":", &save)) {
		char *d = expand_origin(dir, origin), *p = xasprintf("%s/%s", d, name);

		free(d);
		/* a relative entry names the current directory: never looked in (elfinfo.c) */
		if (*p == '/' && access(p, R_OK) == 0) {
			add(r, p, name);
			free(p);
			free(list);
			return;
		}
		free(p);
	}
	free(list);
	found = elfinfo_find_binary(name, NULL);
	if (found)
		add(r, found, name);
	free(found);
}

/* @elf's DT_NEEDED libraries, found from @path's directory. */
static void add_needed_of(struct related *r, Elf *elf, const char *path)
{
	const char *runpath = NULL, **names = NULL;
	char *dup = xstrdup(path), *origin;
	Elf_Scn *scn = NULL;
	size_t nr = 0, alloc = 0;

	while (elf && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Dyn dyn;
			const char *s;

			if (!gelf_getdyn(data, (int)i, &dyn))
				break;
			if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RUNPATH &&
			    dyn.d_tag != DT_RPATH)
				continue;
			s = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val);
			if (!s)
				continue;
			if (dyn.d_tag == DT_NEEDED) {	/* all of them: a definition may be in any */
				ALLOC_GROW(names, nr + 1, alloc);
				names[nr++] = s;
			} else if (dyn.d_tag != DT_NEEDED && (!runpath || dyn.d_tag == DT_RUNPATH))
				runpath = s;
		}
	}
	origin = dirname(dup);
	for (size_t i = 0; i < nr; i++)
		add_needed(r, names[i], runpath, origin);
	free(names);
	free(dup);
}

/* Every file-backed executable mapping of @pid. */
static void add_maps(struct related *r, pid_t pid)
{
	char name[64], line[PATH_MAX + 128];
	FILE *f;

	snprintf(name, sizeof(name), "/proc/%d/maps", (int)pid);
	f = fopen(name, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char perms[8], *path = strchr(line, '/');

		if (sscanf(line, "%*s %7s", perms) != 1 || perms[2] != 'x' || !path)
			continue;
		path[strcspn(path, "\n")] = '\0';
		add(r, path, NULL);
	}
	fclose(f);
}

/* The libraries program @path needs (those the probed library does not need too). */
static void add_program_needed(struct related *r, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;

	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf)
		add_needed_of(r, elf, path);
	elf_end(elf);
	close(fd);
}

struct related *related_new(struct debuginfo *dbg, const char *cmd, const pid_t *pids,
			    size_t nr_pids)
{
	struct related *r = xcalloc(1, sizeof(*r));
	char *cmd_path = cmd ? elfinfo_find_binary(cmd, NULL) : NULL;

	r->self = realpath(debuginfo_path(dbg), NULL);
	if (cmd_path)
		add(r, cmd_path, NULL);
	for (size_t i = 0; i < nr_pids; i++) {
		char exe[64];

		snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)pids[i]);
		add(r, exe, NULL);
		add_maps(r, pids[i]);
	}
	add_needed_of(r, debuginfo_elf(dbg), debuginfo_path(dbg));
	if (cmd_path)
		add_program_needed(r, cmd_path);
	free(cmd_path);
	pr_info("%zu related objects may complete declared types", r->nr);
	return r;
}

void related_free(struct related *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr; i++) {
		type_complete_remove_source(r->objs[i]);
		debuginfo_free(r->objs[i]->dbg);
		free(r->objs[i]->path);
		free(r->objs[i]);
	}
	free(r->objs);
	free(r->self);
	free(r);
}
