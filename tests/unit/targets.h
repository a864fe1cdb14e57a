/* SPDX-License-Identifier: GPL-2.0-or-later */
/* targets.h - the test targets (tests/targets, built by tests/targets/build.sh) for unit tests */
#ifndef UPF_UNIT_TARGETS_H
#define UPF_UNIT_TARGETS_H

#include <stdio.h>
#include <stdlib.h>

#include "../../src/debuginfo.h"
#include "../../src/diag.h"
#include "../../src/util.h"
#include "unittest.h"

/*
 * target_path() - where a target ("c/orders-O2", "go/orders") is: $UPFT_TARGETS (set by
 * scripts/run-tests), else $UPFT_BUILDDIR/tests/build, else tests/build
 * Return: a new path for free().
 */
static char *target_path(const char *target)
{
	const char *dir = getenv("UPFT_TARGETS"), *build = getenv("UPFT_BUILDDIR");

	if (dir && *dir)
		return xasprintf("%s/%s", dir, target);
	if (build && *build)
		return xasprintf("%s/tests/build/%s", build, target);
	return xasprintf("tests/build/%s", target);
}

/* the target opened, or NULL with a failed test (a missing target fails, it is no skip) */
static struct debuginfo *open_target(const char *target)
{
	char *path = target_path(target);
	struct debuginfo *dbg;
	struct diag d;

	diag_init(&d, NULL);
	dbg = debuginfo_open(path, &d);
	if (!dbg || !debuginfo_dwarf(dbg, NULL)) {
		UT_REPORT(0, "%s: open %s with DWARF (build it: tests/targets/build.sh)", target,
			  path);
		printf("#   %s\n", d.msg ? d.msg : "no DWARF");
		debuginfo_free(dbg);
		dbg = NULL;
	}
	diag_release(&d);
	free(path);
	return dbg;
}

#endif
