/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dynfilter.h - --filter on a C++ dynamic type: 'typeid(*p) == caf::foo' made a numeric
 * comparison of the vtable pointer the event fetches, for the kernel */
#ifndef UPF_DYNFILTER_H
#define UPF_DYNFILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "diag.h"
#include "fetcharg.h"

struct debuginfo;

/*
 * A kernel filter compares numbers; a typeid() argument is the object's vtable pointer (an
 * x64 field). 'LHS == CLASS', 'LHS != CLASS' and 'LHS ~ GLOB', where LHS is a typeid()
 * argument (its name, or its expression as typed: typeid(*ptr)) and CLASS a class as the
 * demangler spells it (quoted or not), become comparisons of that field with the address
 * points an object of each such class holds there, in every file of the traced processes
 * that has the class's vtable: '(t == 0x55d0c1a2b2c0 || t == 0x7f...)'. The addresses are
 * those of the files as mapped when the filter is made: a position-independent file's are
 * known only in a process; a non-PIE program's always.
 */

/**
 * dynfilter_wanted() - whether @filter compares one of @tp's typeid() arguments with a class,
 * so that it must be made with the traced processes' files mapped, or has a typeid() that
 * is none of them (dynfilter_rewrite() says so)
 */
bool dynfilter_wanted(const char *filter, const struct trace_probe *tp);

/**
 * dynfilter_cmp_len() - the length of the comparison of one of @tp's typeid() arguments with
 * a class that starts at @filter[@i] ('t == caf::mailbox_element_vals<std::string>', whose
 * right side is no field), or 0 when none starts there
 */
size_t dynfilter_cmp_len(const char *filter, size_t i, const struct trace_probe *tp);

/**
 * dynfilter_check() - the errors of dynfilter_rewrite() that need no file: a typeid() that is
 * none of the probe's arguments, a comparison of one that is no C++ object's
 * Return: 0, or -EINVAL with @d filled.
 */
int dynfilter_check(const char *filter, const struct trace_probe *tp, struct diag *d);

/**
 * dynfilter_rewrite() - @filter with its comparisons of typeid() arguments made numeric
 * @filter: as given with --filter
 * @tp: the probe whose event gets the filter
 * @dbg: the probed binary
 * @pids: the traced processes (their files and load addresses, from /proc/PID/maps), or
 *        none (@nr_pids 0): then only a non-PIE probed binary's addresses are known
 * @out: filled with a new string (free()), or NULL when @filter has no such comparison
 * Return: 0, or -EINVAL with @d filled: a class no file has a vtable for, a typeid() that is
 * none of the probe's arguments, addresses not known (a PIE or library, no process).
 */
int dynfilter_rewrite(const char *filter, const struct trace_probe *tp, struct debuginfo *dbg,
		      const pid_t *pids, size_t nr_pids, char **out, struct diag *d);

#endif
