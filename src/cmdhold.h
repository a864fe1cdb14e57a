/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmdhold.h - a started command held once its dynamic linker has mapped and relocated its
 * libraries, before any of their code runs (where a --filter needs their load addresses) */
#ifndef UPF_CMDHOLD_H
#define UPF_CMDHOLD_H

#include <sys/types.h>

#include "diag.h"

/*
 * The command is traced (ptrace) from its exec on: stopped there, it has its program and the
 * dynamic linker mapped; a breakpoint on the dynamic linker's _dl_debug_state(), which it calls
 * for debuggers with r_debug.r_state RT_CONSISTENT once every library is loaded, holds it
 * before the libraries' constructors and main() run. A program without a dynamic linker (static)
 * is held at its exec. Then it is let go (PTRACE_DETACH): nothing of upfront stays in it.
 */

/**
 * cmdhold_child() - in the child, before exec: ask to be held after it (PTRACE_TRACEME)
 * Return: 0, or a negative errno.
 */
int cmdhold_child(void);

/**
 * cmdhold_wait() - wait until @pid (which called cmdhold_child() and exec'd) is held as
 * described above
 * Return: 0, or a negative errno with @d filled (it exited, ptrace failed); then it is let go
 * when it still runs.
 */
int cmdhold_wait(pid_t pid, struct diag *d);

/* cmdhold_release() - let @pid run on, untraced */
void cmdhold_release(pid_t pid);

#endif
