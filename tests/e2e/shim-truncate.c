// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shim-truncate.c - LD_PRELOAD'ed into upfront by truncated.sh: the first time upfront asks
 * libdwfl for the build-id (right after debuginfo_open() opened and mapped the file, before
 * any symbol or DWARF is read), truncate $UPFT_SHIM_TRUNCATE to $UPFT_SHIM_SIZE bytes, as
 * another process rewriting the binary in place (cp, a linker) would. Deterministic: no race.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <unistd.h>

int dwfl_module_build_id(Dwfl_Module *mod, const unsigned char **bits, GElf_Addr *vaddr)
{
	static int (*real)(Dwfl_Module *, const unsigned char **, GElf_Addr *);
	const char *file = getenv("UPFT_SHIM_TRUNCATE");
	const char *size = getenv("UPFT_SHIM_SIZE");

	if (!real)
		real = (int (*)(Dwfl_Module *, const unsigned char **, GElf_Addr *))
			dlsym(RTLD_NEXT, "dwfl_module_build_id");
	if (file && *file) {
		if (truncate(file, size ? atoll(size) : 4096) < 0)
			_exit(99);
		unsetenv("UPFT_SHIM_TRUNCATE");	/* once; and not for -- CMD */
	}
	return real(mod, bits, vaddr);
}
