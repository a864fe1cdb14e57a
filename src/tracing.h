/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracing.h - tracefs: kernel features, persistent probes (-a, -l, -d), private instances */
#ifndef UPF_TRACING_H
#define UPF_TRACING_H

#include "diag.h"
#include "fetcharg.h"

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

/* tracing_list() - -l: uprobe events matching GROUP:EVENT @glob (NULL: all), perf-like */
int tracing_list(const char *glob, struct strbuf *out, struct diag *d);

/* tracing_delete() - -d: delete uprobe events matching @glob ("grp:ev", "grp:*", "ev");
 * disables them first; -ENOENT when nothing matched */
int tracing_delete(const char *glob, struct diag *d);

#endif
