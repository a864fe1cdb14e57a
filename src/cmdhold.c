// SPDX-License-Identifier: GPL-2.0-or-later
/* cmdhold.c - hold a started command after its libraries are mapped: ptrace from exec to the
 * dynamic linker's _dl_debug_state(RT_CONSISTENT) */
#define LOG_DOMAIN "session"
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "arch/ptrace-regs.h"
#include "cmdhold.h"
#include "debuginfo.h"
#include "elfinfo.h"
#include "log.h"
#include "procmaps.h"
#include "symtab.h"

#define R_STATE_OFF 24		/* struct r_debug: int r_version, r_map, r_brk, r_state */
#define RT_CONSISTENT 0
#define MAX_STOPS 64		/* RT_ADD then RT_CONSISTENT, plus signals; more: give up */

int cmdhold_child(void)
{
	return ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0 ? -errno : 0;
}

/* The dynamic linker's _dl_debug_state() and _r_debug, at run time. */
struct rtld {
	uint64_t brk, r_debug;
};

/* procmaps_read(): the file mapped that has _dl_debug_state (the dynamic linker) */
static bool rtld_find(void *arg, const char *path, uint64_t lo, uint64_t hi, uint64_t pgoff)
{
	struct rtld *r = arg;
	struct debuginfo *dbg;
	uint64_t bias, brk, rd;
	struct diag d;

	(void)hi;
	if (path[0] != '/')
		return false;
	diag_init(&d, NULL);
	dbg = debuginfo_open(path, &d);
	diag_release(&d);
	if (!dbg)
		return false;
	brk = symtab_value(debuginfo_symtab(dbg), "_dl_debug_state");
	rd = symtab_value(debuginfo_symtab(dbg), "_r_debug");
	if (brk && rd && !elfinfo_mapping_bias(debuginfo_elf(dbg), lo, pgoff, &bias)) {
		r->brk = brk + bias;
		r->r_debug = rd + bias;
	}
	debuginfo_free(dbg);
	return r->brk != 0;
}

/* Wait for @pid's next stop; a signal other than our SIGTRAP is passed on. Return: the
 * stop's signal, or -ESRCH when it exited. */
static int next_stop(pid_t pid, int deliver)
{
	int st;

	if (ptrace(PTRACE_CONT, pid, NULL, (void *)(long)deliver) < 0 ||
	    waitpid(pid, &st, __WALL) != pid || !WIFSTOPPED(st))
		return -ESRCH;
	return WSTOPSIG(st);
}

/* Run @pid to the breakpoint at r->brk with RT_CONSISTENT; it is held there, restored. */
static int run_to_consistent(pid_t pid, const struct rtld *r)
{
	long orig, brk_word;
	int sig = 0;

	errno = 0;
	orig = ptrace(PTRACE_PEEKTEXT, pid, (void *)r->brk, NULL);
	if (errno)
		return -errno;
	brk_word = ptrace_brk_word(orig);
	if (ptrace(PTRACE_POKETEXT, pid, (void *)r->brk, (void *)brk_word) < 0)
		return -errno;
	for (int n = 0; n < MAX_STOPS; n++) {
		long state;
		int at;

		sig = next_stop(pid, sig == SIGTRAP ? 0 : sig);
		if (sig < 0)
			return sig;
		/* at the breakpoint: its pc is set back on it */
		if (sig != SIGTRAP || (at = ptrace_brk_hit(pid, r->brk)) == 0)
			continue;
		if (at < 0)
			return at;
		/* undo it */
		errno = 0;
		state = ptrace(PTRACE_PEEKDATA, pid, (void *)(r->r_debug + R_STATE_OFF), NULL);
		if (ptrace(PTRACE_POKETEXT, pid, (void *)r->brk, (void *)orig) < 0)
			return -errno;
		if ((int)state == RT_CONSISTENT)
			return 0;
		/* RT_ADD: step over the first instruction, then set the breakpoint again */
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) < 0 || waitpid(pid, NULL, __WALL) != pid ||
		    ptrace(PTRACE_POKETEXT, pid, (void *)r->brk, (void *)brk_word) < 0)
			return -errno;
	}
	return -ETIMEDOUT;
}

int cmdhold_wait(pid_t pid, struct diag *d)
{
	struct rtld r = { 0, 0 };
	int st, ret;

	if (waitpid(pid, &st, __WALL) != pid || !WIFSTOPPED(st))
		return diag_fail(d, "the command exited before it could be held");
	/* stopped at its exec: the program and the dynamic linker are mapped */
	procmaps_read(pid, rtld_find, &r);
	if (!r.brk) {
		pr_info("no dynamic linker in %d: held at its exec", (int)pid);
		return 0;
	}
	ret = run_to_consistent(pid, &r);
	if (ret < 0) {
		cmdhold_release(pid);
		return diag_fail(d, "could not hold the command once its libraries were loaded: %s",
				 strerror(-ret));
	}
	pr_info("%d held: its libraries are loaded", (int)pid);
	return 0;
}

void cmdhold_release(pid_t pid)
{
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
}
