// SPDX-License-Identifier: GPL-2.0-or-later
/* ustack.c - --stack: an event's user stack as named frames, walked by the kernel or unwound */
#define LOG_DOMAIN "ustack"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "fetcharg.h"
#include "log.h"
#include "regs.h"
#include "symbolize.h"
#include "unwind.h"
#include "ustack.h"
#include "util.h"

#define USTACK_RAW 128		/* frames of one stack */
#define USTACK_FRAMES 512	/* and the functions inlined at them */
#define CHUNK_WORDS 64		/* the kernel's largest array (MAX_ARRAY_LEN) */

struct ustack {
	struct symbolizer *sym;
	struct unwinder *uw;
	struct unwind_frame raw[USTACK_RAW];
	/* the frames with the inlined functions at each (DWARF) before it */
	uint64_t frames[USTACK_FRAMES];
	const char *syms[USTACK_FRAMES], *paths[USTACK_FRAMES];
	bool inlined[USTACK_FRAMES];
	size_t sym_off[USTACK_FRAMES];	/* into names; SIZE_MAX: no name */
	struct strbuf names;
};

static bool has_field(const struct trace_probe *tp, const char *name)
{
	for (size_t i = 0; i < tp->nr_fields; i++)
		if (!strcmp(tp->fields[i].name, name))
			return true;
	return false;
}

void ustack_add_fields(struct trace_probe *tp, unsigned int bytes)
{
	const struct regs_frame *rf = regs_frame();
	const char *sp = regs_kernel_name(rf->sp);
	char name[32], fetch[64], type[16];

	/* a machine whose table names no registers for it yet: the kernel's walk (session.c) */
	if (!bytes || !rf->nr) {
		if (!tp->is_return && !has_field(tp, USTACK_RET0_FIELD))
			trace_probe_add_field(tp, USTACK_RET0_FIELD, arch_current()->entry_ret_fetch,
					      "x64", true);
		return;
	}
	if (has_field(tp, USTACK_REG_FIELD "0"))
		return;
	for (int r = 0; r < rf->nr; r++) {
		snprintf(name, sizeof(name), USTACK_REG_FIELD "%d", r);
		if (r == rf->pc)
			snprintf(fetch, sizeof(fetch), "%s", arch_current()->ip_fetch);
		else
			snprintf(fetch, sizeof(fetch), "%%%s", regs_kernel_name(r));
		trace_probe_add_field(tp, name, fetch, "x64", true);
	}
	/* u64 words: the kernel reads an array element by element, so the fewer the better */
	for (unsigned int off = 0, i = 0; off < bytes; off += CHUNK_WORDS * 8, i++) {
		unsigned int words = (bytes - off) / 8 < CHUNK_WORDS ? (bytes - off) / 8 : CHUNK_WORDS;

		snprintf(name, sizeof(name), USTACK_COPY_FIELD "%u", i);
		snprintf(fetch, sizeof(fetch), "+%u(%%%s)", off, sp);
		snprintf(type, sizeof(type), "u64[%u]", words);
		trace_probe_add_field(tp, name, fetch, type, true);
	}
}

unsigned int ustack_max_copy(void)
{
	return USTACK_EVENT_BYTES - 8 * (unsigned int)regs_frame()->nr;
}

void ustack_layout_init(struct ustack_layout *l)
{
	memset(l, 0, sizeof(*l));
	l->regs_off = l->copy_off = -1;
}

/* "upft_r12" -> 12 for @prefix "upft_r"; -1 when @name is not one */
static int field_index(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	long i;

	if (strncmp(name, prefix, n) || name[n] < '0' || name[n] > '9')
		return -1;
	i = strtol(name + n, &end, 10);
	return *end || i > 4096 ? -1 : (int)i;
}

bool ustack_layout_field(struct ustack_layout *l, const char *name, int off, int size)
{
	int i = field_index(name, USTACK_REG_FIELD);

	if (i >= 0) {
		if (i == 0)
			l->regs_off = off;
		if (i != l->nr_regs || size != 8 || l->regs_off < 0 || off != l->regs_off + 8 * i)
			l->broken = true;
		l->nr_regs++;
		return true;
	}
	i = field_index(name, USTACK_COPY_FIELD);
	if (i < 0)
		return false;
	if (i == 0)
		l->copy_off = off;
	if (l->copy_off < 0 || off != l->copy_off + l->copy_size)
		l->broken = true;
	l->copy_size += size;
	return true;
}

bool ustack_layout_ok(const struct ustack_layout *l)
{
	return !l->broken && l->regs_off >= 0 && l->nr_regs == regs_frame()->nr &&
	       l->copy_off >= 0 && l->copy_size > 0;
}

struct ustack *ustack_new(struct symbolizer *sym)
{
	struct ustack *us = xcalloc(1, sizeof(*us));

	us->sym = sym;
	strbuf_init(&us->names);
	return us;
}

void ustack_free(struct ustack *us)
{
	if (!us)
		return;
	unwinder_free(us->uw);
	strbuf_release(&us->names);
	free(us);
}

/* frame @nf named @name (copied: the symbolizer's strings last until its next lookup) */
static void frame_add(struct ustack *us, size_t nf, uint64_t addr, const char *name,
		      const char *path, bool inlined)
{
	us->frames[nf] = addr;
	us->sym_off[nf] = SIZE_MAX;
	if (name) {
		us->sym_off[nf] = us->names.len;
		strbuf_add(&us->names, name, strlen(name) + 1);
	}
	/* library paths live as long as the symbolizer */
	us->paths[nf] = path;
	us->inlined[nf] = inlined;
}

/* name @n frames of us->raw of process @tgid, the functions inlined at each before it */
static void name_frames(struct ustack *us, int tgid, size_t n, uint64_t base,
			struct ustack_frames *out)
{
	size_t nf = 0;

	strbuf_reset(&us->names);
	for (size_t i = 0; i < n && nf < USTACK_FRAMES; i++) {
		uint64_t a = us->raw[i].pc;
		struct sym_frame f;

		symbolizer_frame(us->sym, tgid, a, base, us->raw[i].ret, &f);
		for (size_t k = 0; k < f.nr_inlined && nf < USTACK_FRAMES - 1; k++)
			frame_add(us, nf++, a, f.inlined[k], f.path, true);
		frame_add(us, nf++, a, f.sym, f.path, false);
	}
	/* the names are in place now that the buffer grows no more */
	for (size_t i = 0; i < nf; i++)
		us->syms[i] = us->sym_off[i] == SIZE_MAX ? NULL : us->names.buf + us->sym_off[i];
	*out = (struct ustack_frames){ .addrs = us->frames, .nr = nf, .syms = us->syms,
				       .paths = us->paths, .inlined = us->inlined };
}

void ustack_walk(struct ustack *us, int tgid, const uint64_t *callers, size_t n,
		 uint64_t ret0, uint64_t base, struct ustack_frames *out)
{
	/* the return addresses of frame records and the link register as signed (arm64 PAC) */
	uint64_t (*strip)(uint64_t) = arch_current()->code_addr_strip;
	size_t nr = 0;

	for (size_t i = 0; i < n && nr < USTACK_RAW; i++) {
		/* every frame after [0] is a return address */
		us->raw[nr++] = (struct unwind_frame){ .pc = i && strip ? strip(callers[i]) : callers[i],
						       .ret = i > 0 };
		/* [0] is where the probe hit; at an entry the walk skips the caller */
		if (i == 0 && ret0 && nr < USTACK_RAW)
			us->raw[nr++] = (struct unwind_frame){ .pc = strip ? strip(ret0) : ret0,
							       .ret = true };
	}
	name_frames(us, tgid, nr, base, out);
}

void ustack_unwind(struct ustack *us, int tgid, int tid, const char *rec,
		   const struct ustack_layout *l, uint64_t base, struct ustack_frames *out)
{
	static const char *const why[] = {
		[UNWIND_END] = NULL, [UNWIND_CUT] = "copy", [UNWIND_LOST] = "cfi",
		[UNWIND_FULL] = "frames",
	};
	uint64_t regs[64];
	enum unwind_end end;
	size_t n;

	if (!us->uw)
		us->uw = unwinder_new();
	for (int i = 0; i < l->nr_regs && i < 64; i++)
		memcpy(&regs[i], rec + l->regs_off + 8 * i, 8);
	n = unwinder_stack(us->uw, tgid, tid, regs, rec + l->copy_off, (size_t)l->copy_size,
			   us->raw, USTACK_RAW, &end);
	name_frames(us, tgid, n, base, out);
	out->cut = why[end];
}
