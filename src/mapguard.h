/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mapguard.h - a file that libelf and libdw read through mmap, truncated by another process
 * meanwhile (a rebuild, cp over it, a hostile owner), raises SIGBUS on the next page read
 * past its new end. A handler turns that into one error line naming the file, exit 2.
 */
#ifndef UPF_MAPGUARD_H
#define UPF_MAPGUARD_H

#include <stddef.h>

/**
 * mapguard_add() - name the file mapped at [@addr, @addr + @len) for the SIGBUS handler
 * @path: the file, as the error line names it (escaped here: any bytes)
 *
 * The first call installs the handler for the process (SA_SIGINFO; kept for its lifetime).
 * A SIGBUS for a page of a named mapping prints "upfront: PATH was truncated while upfront
 * read it (SIGBUS): ..." and ends the process with status 2; one elsewhere in a file mapping
 * (BUS_ADRERR) prints the same for "a file upfront mapped". Anything else (an unaligned
 * access, a memory error) dies of the signal as it would have. The handler only calls
 * write() and _exit(): a trace session's probes are then removed by its cleanup watchdog
 * (tracing.c), as after any other crash. At most 8 mappings are named; more are not.
 */
void mapguard_add(const void *addr, size_t len, const char *path);

/**
 * mapguard_remove() - forget the mapping named at @addr (its file is about to be unmapped)
 */
void mapguard_remove(const void *addr);

#endif
