/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracing.h - tracefs: kernel features, persistent probes (-a, -l, -d), private instances */
#ifndef UPF_TRACING_H
#define UPF_TRACING_H

#include "diag.h"
#include "fetcharg.h"
#include "util.h"

struct tracefs_instance;

/**
 * tracing_read_features() - fill @kf from the running kernel's tracefs README (types such
 * as char); limits keep their measured defaults. Without tracefs, the defaults.
 */
void tracing_read_features(struct kernel_features *kf);

/**
 * tracing_add_probes() - -a: write each probe to uprobe_events, as perf probe -a does;
 * on any failure remove what this call added and quote error_log in @d
 */
int tracing_add_probes(const struct trace_probe *tps, size_t nr, struct diag *d);

/* tracing_list() - -l: uprobe events matching GROUP:EVENT @glob (NULL: all), perf-like,
 * one line per probe point: "  grp:ev (on /path:0xoff with a b c)"; returns how many */
int tracing_list(const char *glob, struct strbuf *out, struct diag *d);

/* tracing_delete() - -d: delete uprobe events matching @glob ("grp:ev", "grp:*", "ev" for any
 * group); disables them first; a live session's upfront_<pid> group only when named exactly.
 * @removed (or NULL) gets "Removed event: GROUP:EVENT" lines, as perf probe -d prints
 * Return: number of events deleted, -ENOENT when nothing matched (@d filled) */
int tracing_delete(const char *glob, struct strbuf *removed, struct diag *d);

/**
 * tracing_error_text() - the kernel's reason for the last rejected write, from error_log of
 * @inst (NULL: top level): "trace_uprobe: error: Unknown type is specified at 'b=%si:u99'"
 * (the token the kernel's caret points at); nothing is appended when error_log is empty
 */
void tracing_error_text(struct tracefs_instance *inst, struct strbuf *out);

#endif
