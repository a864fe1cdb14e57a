/* SPDX-License-Identifier: GPL-2.0-or-later */
/* related.h - the objects related to a probed binary, whose types complete its declarations */
#ifndef UPF_RELATED_H
#define UPF_RELATED_H

#include <stddef.h>
#include <sys/types.h>

struct debuginfo;
struct related;

/**
 * related_new() - the objects whose definitions may complete @dbg's declared types, added as
 * type_complete_add_source() sources (opened only when a declaration is not defined in @dbg
 * itself), in this order: the program of "-- CMD" when it is not @dbg (a library's class
 * defined in the program), every object the processes @pids map, @dbg's needed libraries
 * (DT_NEEDED, by its DT_RUNPATH/DT_RPATH with $ORIGIN, then as the dynamic linker finds them)
 * and the program's
 * @cmd: the command's name or path as given, or NULL
 * @pids: processes given with -p; @nr_pids may be 0
 * Return: the set, for related_free().
 */
struct related *related_new(struct debuginfo *dbg, const char *cmd, const pid_t *pids,
			    size_t nr_pids);

/**
 * related_free() - remove the sources and close the objects opened for them; accepts NULL
 */
void related_free(struct related *r);

#endif
