// SPDX-License-Identifier: GPL-2.0-or-later
/* unwind.c - a stack copied with an event, unwound by its process's CFI through libdwfl */
#define LOG_DOMAIN "unwind"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdwfl.h>

#include "arch/arch.h"
#include "elfinfo.h"
#include "log.h"
#include "nsroot.h"
#include "procmaps.h"
#include "regs.h"
#include "unwind.h"
#include "util.h"

#define UNWIND_PROCS 16		/* processes whose files stay open; a power of two */
#define REREAD_NS 1000000000ull	/* a process not followed: its maps read again at most 1/s */

/* the sample being unwound: what the thread callbacks read */
struct walk {
	int tid;
	const uint64_t *regs;
	const unsigned char *copy;
	uint64_t lo;		/* the stack pointer: @copy's address in the process */
	size_t size;
	bool fault;		/* a read missed the copy */
	struct unwind_frame *out;
	size_t n, max;
	enum unwind_end end;
	Dwfl *dwfl;
};

/* a process's files, reported to one Dwfl at their load biases */
struct proc {
	int tgid;
	Dwfl *dwfl;
	size_t nr_maps;		/* mappings it was built from, to see a dlopen */
	uint64_t read_ns;	/* when /proc was read (a process not followed) */
	struct walk *cur;
};

struct unwinder {
	struct proc procs[UNWIND_PROCS];
};

struct unwinder *unwinder_new(void)
{
	return xcalloc(1, sizeof(struct unwinder));
}

static void proc_clear(struct proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	memset(p, 0, sizeof(*p));
}

void unwinder_free(struct unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < UNWIND_PROCS; i++)
		proc_clear(&u->procs[i]);
	free(u);
}

/* The files are reported as they are: CFI is in them (.eh_frame), no separate debuginfo. */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Callbacks file_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = no_debuginfo,
};

static pid_t next_thread(Dwfl *dwfl, void *dwfl_arg, void **thread_argp)
{
	struct proc *p = dwfl_arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = p;
	return p->cur->tid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *dwfl_arg, void **thread_argp)
{
	(void)dwfl, (void)tid;
	*thread_argp = dwfl_arg;
	return true;
}

/*
 * a word of the copy or a register as libdwfl should see it: a return address signed with a
 * pointer authentication code (arm64's pac-ret: paciasp before x30 is saved) has bits set
 * above the user address space, and libdwfl (0.188) takes the whole word for the caller's pc,
 * which no file holds; stripped when what is left lies in a file of the process (a value that
 * only looks like one, in a callee-saved register's slot, stays as it is)
 */
static uint64_t code_addr(Dwfl *dwfl, uint64_t v)
{
	uint64_t (*strip)(uint64_t) = arch_current()->code_addr_strip;
	uint64_t s = strip ? strip(v) : v;

	return s != v && dwfl_addrmodule(dwfl, s) ? s : v;
}

/* only the copy: memory past it is not guessed (a fault ends the stack as cut) */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *dwfl_arg)
{
	struct walk *w = ((struct proc *)dwfl_arg)->cur;

	if (addr < w->lo || addr - w->lo > w->size || w->size - (addr - w->lo) < 8) {
		w->fault = true;
		return false;
	}
	memcpy(result, w->copy + (addr - w->lo), 8);
	*result = code_addr(dwfl, *result);
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	struct walk *w = ((struct proc *)thread_arg)->cur;
	const struct regs_frame *rf = regs_frame();
	Dwarf_Word regs[64];

	/* x30 at an entry past paciasp holds the signed return address */
	for (int i = 0; i < rf->nr && i < 64; i++)
		regs[i] = i == rf->pc || i == rf->sp ? w->regs[i] : code_addr(w->dwfl, w->regs[i]);
	if (!dwfl_thread_state_registers(thread, 0, rf->nr, regs))
		return false;
	dwfl_thread_state_register_pc(thread, w->regs[rf->pc]);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

struct report {
	Dwfl *dwfl;
	int tgid;
	size_t nr;
	char **paths;		/* reported */
	size_t nr_paths, alloc;
};

/* the file a mapping is of, reported at the bias the mapping gives it (once per file) */
static bool report_one(void *arg, const char *path, uint64_t lo, uint64_t hi, uint64_t pgoff)
{
	struct report *r = arg;
	char *in_ns;
	const char *file;
	uint64_t bias;
	Elf *elf;
	int fd;

	(void)hi;
	r->nr++;
	/* the vDSO: a signal that interrupted clock_gettime there has its pc in the signal frame */
	if (path[0] != '/' && (strcmp(path, "[vdso]") || !procmaps_vdso_file()))
		return false;
	for (size_t i = 0; i < r->nr_paths; i++)
		if (!strcmp(r->paths[i], path))
			return false;	/* reported already (another mapping of the file) */
	ALLOC_GROW(r->paths, r->nr_paths + 1, r->alloc);
	r->paths[r->nr_paths++] = xstrdup(path);
	in_ns = path[0] == '/' ? nsroot_path(r->tgid, path) : NULL;
	file = in_ns ? in_ns : path[0] == '/' ? path : procmaps_vdso_file();
	fd = open(file, O_RDONLY | O_CLOEXEC);
	elf = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	if (!elf || elfinfo_mapping_bias(elf, lo, pgoff, &bias))
		pr_debug("%d: no load bias of %s", r->tgid, file);
	else if (!dwfl_report_elf(r->dwfl, path, file, -1, bias, false))
		pr_debug("%d: cannot report %s: %s", r->tgid, file, dwfl_errmsg(-1));
	else
		pr_debug("%d: %s at bias 0x%llx", r->tgid, file, (unsigned long long)bias);
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	free(in_ns);
	return false;
}

/* the Dwfl of @p->tgid from its mappings (followed, else /proc), attached to the callbacks */
static bool proc_build(struct proc *p, int tgid)
{
	struct report r = { .tgid = tgid };

	proc_clear(p);
	p->tgid = tgid;
	p->dwfl = r.dwfl = dwfl_begin(&file_callbacks);
	if (!p->dwfl)
		return false;
	dwfl_report_begin(p->dwfl);
	if (!procmaps_each(tgid, report_one, &r)) {
		if (!r.nr) {
			p->read_ns = now_ns();
			procmaps_read(tgid, report_one, &r);
		}
	}
	p->nr_maps = r.nr;
	for (size_t i = 0; i < r.nr_paths; i++)
		free(r.paths[i]);
	free(r.paths);
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (!dwfl_attach_state(p->dwfl, NULL, tgid, &thread_callbacks, p)) {
		pr_debug("%d: no unwinding: %s", tgid, dwfl_errmsg(-1));
		proc_clear(p);
		return false;
	}
	return true;
}

static bool count_one(void *arg, const char *path, uint64_t lo, uint64_t hi, uint64_t pgoff)
{
	(void)path, (void)lo, (void)hi, (void)pgoff;
	++*(size_t *)arg;
	return false;
}

/* the process's Dwfl, built again when it mapped more files since (dlopen) */
static struct proc *proc_get(struct unwinder *u, int tgid)
{
	struct proc *p = &u->procs[(unsigned int)tgid & (UNWIND_PROCS - 1)];
	size_t nr = 0;

	procmaps_each(tgid, count_one, &nr);
	if (p->tgid == tgid && p->dwfl &&
	    (nr ? nr == p->nr_maps : now_ns() - p->read_ns < REREAD_NS))
		return p;
	return proc_build(p, tgid) ? p : NULL;
}

/* whether the CFI of the file at @pc describes the frame there */
static bool has_cfi(Dwfl *dwfl, Dwarf_Addr pc)
{
	Dwfl_Module *m = dwfl_addrmodule(dwfl, pc);
	Dwarf_CFI *cfis[2];
	Dwarf_Addr bias[2];

	if (!m)
		return false;
	cfis[0] = dwfl_module_eh_cfi(m, &bias[0]);
	cfis[1] = cfis[0] ? NULL : dwfl_module_dwarf_cfi(m, &bias[1]);
	for (int i = 0; i < 2; i++) {
		Dwarf_Frame *fr;

		if (cfis[i] && dwarf_cfi_addrframe(cfis[i], pc - bias[i], &fr) == 0) {
			free(fr);
			return true;
		}
	}
	/* .eh_frame without this function: .debug_frame may have it */
	if (cfis[0]) {
		Dwarf_CFI *dw = dwfl_module_dwarf_cfi(m, &bias[1]);
		Dwarf_Frame *fr;

		if (dw && dwarf_cfi_addrframe(dw, pc - bias[1], &fr) == 0) {
			free(fr);
			return true;
		}
	}
	return false;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct walk *w = arg;
	Dwarf_Addr pc;
	bool act;

	/* the CFI of the frame below could not be followed: libdwfl's fallback guessed this */
	if (w->fault) {
		w->end = UNWIND_CUT;
		return DWARF_CB_ABORT;
	}
	if (!dwfl_frame_pc(state, &pc, &act)) {
		w->end = UNWIND_LOST;
		return DWARF_CB_ABORT;
	}
	if (w->n == w->max) {
		w->end = UNWIND_FULL;
		return DWARF_CB_ABORT;
	}
	w->out[w->n++] = (struct unwind_frame){ .pc = pc, .ret = !act };
	/* no CFI here: its caller would come from a guess (libdwfl's frame-pointer fallback) */
	if (!has_cfi(w->dwfl, act ? pc : pc - 1)) {
		pr_debug("no CFI at 0x%llx: %s", (unsigned long long)pc, dwfl_errmsg(-1));
		w->end = UNWIND_LOST;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

size_t unwinder_stack(struct unwinder *u, int tgid, int tid, const uint64_t *regs,
		      const void *copy, size_t size, struct unwind_frame *out, size_t max,
		      enum unwind_end *end)
{
	const struct regs_frame *rf = regs_frame();
	struct walk w = { .tid = tid, .regs = regs, .copy = copy, .lo = regs[rf->sp],
			  .size = size, .out = out, .max = max, .end = UNWIND_END };
	struct proc *p = proc_get(u, tgid);
	int ret;

	if (!p) {
		/* no files: the pc alone */
		*end = UNWIND_LOST;
		if (!max)
			return 0;
		out[0] = (struct unwind_frame){ .pc = regs[rf->pc], .ret = false };
		return 1;
	}
	p->cur = &w;
	w.dwfl = p->dwfl;
	ret = dwfl_getthread_frames(p->dwfl, tid, frame_cb, &w);
	p->cur = NULL;
	/*
	 * a return address past the copy ends the walk as if the stack ended there (libdwfl
	 * takes an unreadable one for an undefined one): the read that failed says otherwise
	 */
	if (w.end == UNWIND_END && w.fault)
		w.end = UNWIND_CUT;
	if (ret < 0 && w.end == UNWIND_END) {
		w.end = UNWIND_LOST;
		pr_debug("%d/%d: stack ends after %zu frames: %s", tgid, tid, w.n,
			 dwfl_errmsg(-1));
	}
	if (!w.n && max)
		out[w.n++] = (struct unwind_frame){ .pc = regs[rf->pc], .ret = false };
	*end = w.end;
	return w.n;
}
