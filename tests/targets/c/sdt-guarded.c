// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sdt-guarded.c - SDT probes behind semaphores, as dtrace -G generated headers use them:
 * the program computes a probe's arguments only while a tracer counts the semaphore up
 * (uprobe_events' (REF_CTR_OFFSET)), and says so on stdout ("guarded k=K").
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <sys/sdt.h>

/* the semaphores sys/sdt.h names PROVIDER_NAME_semaphore, in .probes as dtrace -G does */
__extension__ unsigned short upft_guarded_semaphore __attribute__((unused, section(".probes")));
__extension__ unsigned short upft_unused_semaphore __attribute__((unused, section(".probes")));

int guarded_work(int k, const char *name)
{
	if (upft_guarded_semaphore) {
		char buf[32];

		snprintf(buf, sizeof(buf), "expensive-%s", name);
		printf("guarded k=%d\n", k);
		fflush(stdout);
		STAP_PROBE2(upft, guarded, k, buf);
	}
	if (upft_unused_semaphore)
		STAP_PROBE1(upft, unused, k);
	return k;
}
