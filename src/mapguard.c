// SPDX-License-Identifier: GPL-2.0-or-later
/* mapguard.c - SIGBUS in a mapped file that shrank: one error line naming it, exit 2 */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define LOG_DOMAIN "mapguard"
#include "log.h"
#include "mapguard.h"
#include "util.h"

/*
 * Why a handler rather than reading without mmap: on the 42 MB docker binary, `-D` took
 * 181 ms of CPU (min of 15) reading it through libdwfl's mapping, 201 ms with a private copy
 * in a memfd (and 42 MB of memory held unreclaimable for the session); the handler costs
 * nothing until it fires, and also covers the separate debuginfo files libdwfl maps, which
 * a copy of the binary would not. A copy would not make the answer right either: the kernel
 * probes the file as it is now. The probes are checked against the file's size and mtime
 * before they are installed (debuginfo_unchanged()).
 */

#define MAPGUARD_SLOTS 8
#define MAPGUARD_MSG 512

struct mapguard {
	uintptr_t lo, hi;		/* [lo, hi): the mapping */
	size_t len;			/* of msg */
	char msg[MAPGUARD_MSG];		/* the error line: the handler only writes it */
	int used;			/* published last, read by the handler */
};

static struct mapguard slots[MAPGUARD_SLOTS];
static const char other_msg[] =
	"upfront: a file upfront mapped was truncated while upfront read it (SIGBUS): "
	"run again once it is written\n";

static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	uintptr_t a = (uintptr_t)si->si_addr;
	const char *msg = other_msg;
	size_t len = sizeof(other_msg) - 1;

	(void)ctx;
	if (si->si_code != BUS_ADRERR) {
		/* not a file that shrank: die of it as we would have */
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	for (int i = 0; i < MAPGUARD_SLOTS; i++) {
		if (__atomic_load_n(&slots[i].used, __ATOMIC_ACQUIRE) && a >= slots[i].lo &&
		    a < slots[i].hi) {
			msg = slots[i].msg;
			len = slots[i].len;
			break;
		}
	}
	if (write(STDERR_FILENO, msg, len) < 0)
		_exit(2);
	_exit(2);
}

static void mapguard_install(void)
{
	static bool installed;
	struct sigaction sa;

	if (installed)
		return;
	installed = true;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, NULL) < 0)
		pr_warn("no SIGBUS handler: a truncated binary would crash upfront");
}

void mapguard_add(const void *addr, size_t len, const char *path)
{
	struct strbuf line = STRBUF_INIT;

	mapguard_install();
	if (!addr || !len)
		return;
	strbuf_addstr(&line, "upfront: ");
	escape_name(&line, path);
	strbuf_addstr(&line, " was truncated while upfront read it (SIGBUS): run again once it "
		      "is written\n");
	for (int i = 0; i < MAPGUARD_SLOTS; i++) {
		struct mapguard *g = &slots[i];

		if (__atomic_load_n(&g->used, __ATOMIC_ACQUIRE))
			continue;
		g->lo = (uintptr_t)addr;
		g->hi = g->lo + len;
		g->len = line.len < sizeof(g->msg) ? line.len : sizeof(g->msg);
		memcpy(g->msg, line.buf, g->len);
		if (g->len == sizeof(g->msg))
			g->msg[g->len - 1] = '\n';	/* a 500-byte path: cut, one line */
		__atomic_store_n(&g->used, 1, __ATOMIC_RELEASE);
		break;
	}
	strbuf_release(&line);
}

void mapguard_remove(const void *addr)
{
	for (int i = 0; i < MAPGUARD_SLOTS; i++)
		if (slots[i].used && slots[i].lo == (uintptr_t)addr)
			__atomic_store_n(&slots[i].used, 0, __ATOMIC_RELEASE);
}
