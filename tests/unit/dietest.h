/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dietest.h - a binary's DWARF for the ABI tests: its functions by name, a struct loc as text */
#ifndef UPF_UNIT_DIETEST_H
#define UPF_UNIT_DIETEST_H

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "../../src/loc.h"
#include "../../src/util.h"
#include "unittest.h"

struct bin {
	int fd;
	Elf *elf;
	Dwarf *dw;
};

/* bin_open_path() - the ELF file at @path with its DWARF (reported as a test) */
static bool bin_open_path(struct bin *b, const char *path)
{
	memset(b, 0, sizeof(*b));
	b->fd = open(path, O_RDONLY);
	if (b->fd >= 0) {
		b->elf = elf_begin(b->fd, ELF_C_READ_MMAP, NULL);
		b->dw = b->elf ? dwarf_begin_elf(b->elf, DWARF_C_READ, NULL) : NULL;
	}
	UT_REPORT(b->dw != NULL, "%s: the test target %s has DWARF", __FILE__, path);
	return b->dw != NULL;
}

static void bin_close(struct bin *b)
{
	if (b->dw)
		dwarf_end(b->dw);
	if (b->elf)
		elf_end(b->elf);
	if (b->fd >= 0)
		close(b->fd);
}

/* find_in() - the DIE named by @path ("shop", "span", NULL) under @scope */
static bool find_in(Dwarf_Die *scope, const char *const *path, Dwarf_Die *out)
{
	Dwarf_Die child;

	if (dwarf_child(scope, &child) != 0)
		return false;
	do {
		const char *n = dwarf_diename(&child);
		int tag = dwarf_tag(&child);

		if (!n || strcmp(n, path[0]))
			continue;
		if (!path[1] && tag == DW_TAG_subprogram) {
			*out = child;
			return true;
		}
		if (path[1] && (tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
				tag == DW_TAG_structure_type) && find_in(&child, path + 1, out))
			return true;
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/* find_func() - the DW_TAG_subprogram @name ("main.add", "shop::span") in any CU */
static bool find_func(struct bin *b, const char *name, Dwarf_Die *out)
{
	const char *path[8];
	char *copy = xstrdup(name), *p = copy;
	Dwarf_Off off = 0, next;
	size_t hsize, n = 0;
	bool found = false;

	/* Go names keep their dots; C++ and Rust nest on "::" */
	while (n < ARRAY_SIZE(path) - 1) {
		char *sep = strstr(p, "::");

		path[n++] = p;
		if (!sep)
			break;
		*sep = '\0';
		p = sep + 2;
	}
	path[n] = NULL;
	while (!found && dwarf_nextcu(b->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(b->dw, off + hsize, &cu))
			found = find_in(&cu, path, out);
		off = next;
	}
	free(copy);
	UT_REPORT(found, "%s: function %s found", __FILE__, name);
	return found;
}

/* loc_text() - "%ax:8 %bx:8", "+8(%sp)", "bad(xmm)", "pad:4" for a struct loc: an unreadable
 * piece by where it is (xmm, st0, v for arm64's vector registers, x8 for memory there) */
static void loc_text(const struct loc *l, struct strbuf *sb)
{
	for (size_t i = 0; i < l->nr; i++) {
		const struct loc_piece *p = &l->pieces[i];

		if (i)
			strbuf_addch(sb, ' ');
		switch (p->kind) {
		case LOC_VAL:
			strbuf_addstr(sb, p->fetch);
			break;
		case LOC_MEM:
			strbuf_addf(sb, "%+lld(%s)", (long long)p->off, p->base ? p->base : "@");
			break;
		case LOC_BAD:
			strbuf_addf(sb, "bad(%s)", strstr(p->why, "xmm") ? "xmm" :
				    strstr(p->why, "st0") ? "st0" : strstr(p->why, " v") ? "v" :
				    strstr(p->why, "x8") ? "x8" : "?");
			break;
		case LOC_NONE:
			strbuf_addstr(sb, "pad");
			break;
		default:
			strbuf_addstr(sb, "other");
			break;
		}
		if (p->size)
			strbuf_addf(sb, ":%u", p->size);
	}
}

#endif
