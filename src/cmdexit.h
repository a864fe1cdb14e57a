/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmdexit.h - how the traced command (-- CMD) ended: the line upfront says, its exit status */
#ifndef UPF_CMDEXIT_H
#define UPF_CMDEXIT_H

#include <stdbool.h>
#include <sys/types.h>

#include "util.h"

/**
 * cmdexit_describe() - "CMD (pid N) exited with status 7", "... was killed by SIGSEGV (core
 * dumped)", a SIGTRAP named as a probe's breakpoint run elsewhere, or "... was ended by
 * upfront (SIGTERM) as the session stopped" (no newline, no "upfront: ")
 * @out: appended to
 * @cmd: the command as given (escaped: it may hold any byte)
 * @pid: its pid
 * @wstatus: its status from waitpid()
 * @by_us: upfront sent it SIGTERM/SIGKILL at the end of the session
 */
void cmdexit_describe(struct strbuf *out, const char *cmd, pid_t pid, int wstatus, bool by_us);

/**
 * cmdexit_code() - the exit status a shell gives for @wstatus: the command's exit status, or
 * 128 + the signal that killed it
 */
int cmdexit_code(int wstatus);

#endif
