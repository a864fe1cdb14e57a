// SPDX-License-Identifier: GPL-2.0-or-later
/* arch.c - the architecture tables, chosen by ELF machine; regs.h answered by the current one */
#define LOG_DOMAIN "arch"
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "arch/arch-tables.h"
#include "diag.h"
#include "log.h"
#include "regs.h"
#include "util.h"

static const struct arch_ops *const arches[] = {
	&arch_x86_64,
	&arch_arm64,
};

#if defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64
#else
#define HOST_MACHINE EM_X86_64
#endif

static const struct arch_ops *current;
static bool chosen;	/* by a binary (arch_use()), not the host's default */

const struct arch_ops *arch_for_machine(unsigned int machine)
{
	for (size_t i = 0; i < ARRAY_SIZE(arches); i++)
		if (arches[i]->machine == machine)
			return arches[i];
	return NULL;
}

const struct arch_ops *arch_current(void)
{
	if (!current)
		current = arch_for_machine(HOST_MACHINE) ?: arches[0];
	return current;
}

int arch_use(const struct arch_ops *a)
{
	/* only the first binary writes: later ones (libraries symbolized by the session's
	 * threads) only read */
	if (chosen)
		return current == a ? 0 : -EXDEV;
	current = a;
	chosen = true;
	pr_debug("architecture %s", a->name);
	return 0;
}

const char *arch_names(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(arches) && n < size; i++)
		n += snprintf(buf + n, size - n, "%s%s",
			      !i ? "" : i + 1 < ARRAY_SIZE(arches) ? ", " : " and ", arches[i]->name);
	return buf;
}

static const struct {
	unsigned int machine;
	const char *name;
} machines[] = {
	{ EM_X86_64, "x86-64" },	{ EM_386, "i386" },		{ EM_ARM, "ARM" },
	{ EM_AARCH64, "AArch64" },	{ EM_RISCV, "RISC-V" },		{ EM_PPC, "PowerPC" },
	{ EM_PPC64, "PowerPC64" },	{ EM_S390, "s390" },		{ EM_MIPS, "MIPS" },
	{ EM_SPARC, "SPARC" },		{ EM_SPARCV9, "SPARC64" },	{ EM_IA_64, "IA-64" },
	{ EM_68K, "m68k" },		{ EM_SH, "SuperH" },		{ EM_PARISC, "PA-RISC" },
	{ EM_LOONGARCH, "LoongArch" },	{ EM_BPF, "BPF" },		{ EM_NONE, "no machine" },
};

const char *arch_machine_name(unsigned int machine, char *buf, size_t size)
{
	for (size_t i = 0; i < ARRAY_SIZE(machines); i++)
		if (machines[i].machine == machine)
			return machines[i].name;
	snprintf(buf, size, "machine %u", machine);
	return buf;
}

/* ---- regs.h: the current machine's registers ---- */

const char *regs_kernel_name(int regno)
{
	return arch_current()->reg_kernel_name(regno);
}

const char *regs_describe(int regno, char *buf)
{
	return arch_current()->reg_describe(regno, buf);
}

int regs_vector(int regno)
{
	return arch_current()->reg_vector(regno);
}

int regs_vector_dwarf(int n)
{
	return arch_current()->reg_vector_dwarf(n);
}

/* whether @name (@len bytes) is one of the blank-separated names of @list */
static bool name_listed(const char *list, const char *name, size_t len)
{
	size_t n;

	for (const char *w = list; *w; w += n + (w[n] == ' ')) {
		n = strcspn(w, " ");
		if (n == len && !strncmp(w, name, len))
			return true;
	}
	return false;
}

/* DWARF numbers below this are asked for a kernel name (x86's flags is 49) */
#define DWARF_REGS_NAMED 128

/* whether uprobe_events reads a register named @name (@len bytes) on this machine */
static bool fetch_reg_known(const struct arch_ops *a, const char *name, size_t len)
{
	for (int r = 0; r < DWARF_REGS_NAMED; r++) {
		const char *k = a->reg_kernel_name(r);

		if (k && strlen(k) == len && !strncmp(k, name, len))
			return true;
	}
	return name_listed(a->fetch_regs_extra, name, len);
}

/* the name's number when it is letters then digits ("r8": 8, prefix length 1), else -1 */
static long reg_number(const char *name, size_t *prefix)
{
	size_t n = strcspn(name, "0123456789");

	*prefix = n;
	return n && name[n] && strspn(name + n, "0123456789") == strlen(name + n) ?
		       strtol(name + n, NULL, 10) : -1;
}

/*
 * The registers uprobe_events reads, for a message: the DWARF registers' kernel names in
 * their order, then the others; three or more of one prefix numbered in a row are joined
 * ("r8-r15", "x0-x30").
 */
static void fetch_regs_brief(const struct arch_ops *a, struct strbuf *out)
{
	const char *names[DWARF_REGS_NAMED];
	int nr = 0;

	for (int r = 0; r < DWARF_REGS_NAMED; r++)
		if (a->reg_kernel_name(r))
			names[nr++] = a->reg_kernel_name(r);
	for (int i = 0, j; i < nr; i = j) {
		size_t pi, pj;
		long first = reg_number(names[i], &pi);

		for (j = i + 1; j < nr && first >= 0; j++)
			if (reg_number(names[j], &pj) != first + (j - i) || pj != pi ||
			    strncmp(names[i], names[j], pi))
				break;
		if (first < 0 || j - i < 3)
			j = i + 1;
		strbuf_addf(out, "%s%s", out->len ? " " : "", names[i]);
		if (j > i + 1)
			strbuf_addf(out, "-%s", names[j - 1]);
	}
	strbuf_addf(out, " %s", a->fetch_regs_extra);
}

int regs_fetch_check(struct diag *d, int start, const char *fetch)
{
	const struct arch_ops *a = arch_current();
	const char *s = fetch, *k;

	if (fetch[0] == '\\')
		return 0;
	while ((s = strchr(s, '%'))) {
		for (k = ++s; isalnum((unsigned char)*k) || *k == '_'; k++)
			;
		if (k > s && !fetch_reg_known(a, s, (size_t)(k - s))) {
			struct span sp = { start + (int)(s - 1 - fetch), (int)(k - s) + 1 };
			struct strbuf regs = STRBUF_INIT;

			fetch_regs_brief(a, &regs);
			diag_error(d, start < 0 ? SPAN_NONE : sp, "no register '%%%.*s' on %s",
				   (int)(k - s), s, a->name);
			diag_hint(d, "uprobe_events reads %s", regs.buf);
			strbuf_release(&regs);
			return -EINVAL;
		}
		s = k;
	}
	return 0;
}

const struct regs_frame *regs_frame(void)
{
	static struct regs_frame rf;
	const struct arch_ops *a = arch_current();

	rf = (struct regs_frame){ .nr = a->frame_regs, .sp = a->sp_dwarf, .pc = a->pc_dwarf };
	return &rf;
}
