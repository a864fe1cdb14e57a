// SPDX-License-Identifier: GPL-2.0-or-later
/* cmdexit.c - how the traced command ended, in one line, and the exit status it makes */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "arch/arch.h"
#include "cmdexit.h"

void cmdexit_describe(struct strbuf *out, const char *cmd, pid_t pid, int wstatus, bool by_us)
{
	const char *base = strrchr(cmd, '/');
	int sig;

	base = base && base[1] ? base + 1 : cmd;
	escape_untrusted(out, base, strlen(base));
	strbuf_addf(out, " (pid %d) ", (int)pid);
	if (WIFEXITED(wstatus)) {
		strbuf_addf(out, "exited with status %d", WEXITSTATUS(wstatus));
		return;
	}
	if (!WIFSIGNALED(wstatus)) {
		strbuf_addf(out, "ended with wait status 0x%x", (unsigned int)wstatus);
		return;
	}
	sig = WTERMSIG(wstatus);
	if (by_us && (sig == SIGTERM || sig == SIGKILL)) {
		strbuf_addf(out, "was ended by upfront (SIG%s) as the session stopped",
			    sigabbrev_np(sig));
		return;
	}
	if (sigabbrev_np(sig))
		strbuf_addf(out, "was killed by SIG%s", sigabbrev_np(sig));
	else
		strbuf_addf(out, "was killed by signal %d", sig);
	if (WCOREDUMP(wstatus))
		strbuf_addstr(out, " (core dumped)");
	/*
	 * A uprobe is a breakpoint instruction in the process's copy of the code (x86-64's int3,
	 * arm64's brk): the program that copies its code (a JIT, a hot patcher, self-checking
	 * code) and runs the copy runs the breakpoint where the kernel has no probe, and gets
	 * SIGTRAP.
	 */
	if (sig == SIGTRAP)
		strbuf_addf(out, ": a breakpoint trap, most likely one of upfront's probes "
			    "(%s in the probed code) that the program copied and ran elsewhere, "
			    "where the kernel has no probe", arch_current()->breakpoint);
}

int cmdexit_code(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}
