// SPDX-License-Identifier: GPL-2.0-or-later
/* retsite.c - return instructions of a function, by disassembly (capstone) */
#define LOG_DOMAIN "retsite"

#include <capstone/capstone.h>
#include <dwarf.h>
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "retsite.h"

/*
 * code_bytes() - the file's bytes for [@start, @end): from the section holding them, or
 * (no section headers) from the executable PT_LOAD segment. Borrowed from libelf.
 */
static const uint8_t *code_bytes(Elf *elf, uint64_t start, uint64_t end)
{
	Elf_Scn *scn = NULL;
	size_t nphdr, size;
	const char *raw;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (start < sh.sh_addr || end > sh.sh_addr + sh.sh_size)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf || data->d_size < sh.sh_size)
			return NULL;
		return (const uint8_t *)data->d_buf + (start - sh.sh_addr);
	}
	raw = elf_rawfile(elf, &size);
	if (!raw || elf_getphdrnum(elf, &nphdr))
		return NULL;
	for (size_t i = 0; i < nphdr; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (start < ph.p_vaddr || end > ph.p_vaddr + ph.p_filesz)
			continue;
		if (ph.p_offset + (end - ph.p_vaddr) > size)
			return NULL;
		return (const uint8_t *)raw + ph.p_offset + (start - ph.p_vaddr);
	}
	return NULL;
}

/* where() - "main.foo" or "0x401000-0x401100" for messages */
static void where(struct debuginfo *dbg, uint64_t start, uint64_t end, struct strbuf *sb)
{
	strbuf_reset(sb);
	if (debuginfo_symbolize(dbg, start, sb) == 0) {
		/* "main.foo+0x0" -> "main.foo" */
		size_t n = sb->len;

		if (n > 4 && !strcmp(sb->buf + n - 4, "+0x0")) {
			sb->len = n - 4;
			sb->buf[sb->len] = '\0';
		}
		return;
	}
	strbuf_reset(sb);
	strbuf_addf(sb, "0x%llx-0x%llx", (unsigned long long)start, (unsigned long long)end);
}

/*
 * Only near `ret` (c3, c2 imm16) counts: far returns do not occur in user code, and a jmp to
 * another function (a tail call) leaves through that function's ret. Go never tail-calls, so
 * for Go (the only user: a uretprobe breaks its stacks) every exit is a ret found here.
 */
/*
 * disasm_open() - a capstone handle for x86-64 and one instruction buffer (with room for
 * operand details when @detail: capstone sizes the buffer when it is allocated); false on
 * failure
 */
static bool disasm_open(csh *cs, cs_insn **insn, bool detail)
{
	if (cs_open(CS_ARCH_X86, CS_MODE_64, cs) != CS_ERR_OK)
		return false;
	if (detail)
		cs_option(*cs, CS_OPT_DETAIL, CS_OPT_ON);
	*insn = cs_malloc(*cs);
	if (!*insn) {
		cs_close(cs);
		return false;
	}
	return true;
}

static void disasm_close(csh *cs, cs_insn *insn)
{
	cs_free(insn, 1);
	cs_close(cs);
}

int retsite_find(struct debuginfo *dbg, uint64_t start, uint64_t end, uint64_t **addrs,
		 size_t *nr, struct diag *d)
{
	struct strbuf sb = STRBUF_INIT;
	const uint8_t *code;
	uint64_t *out = NULL;
	size_t n = 0, alloc = 0, skipped = 0;
	cs_insn *insn;
	csh cs;
	Elf *elf;

	*addrs = NULL;
	*nr = 0;
	if (end <= start) {
		where(dbg, start, end, &sb);
		diag_error(d, SPAN_NONE, "the extent of %s is unknown", sb.buf);
		strbuf_release(&sb);
		return -EINVAL;
	}
	elf = debuginfo_elf(dbg);
	code = elf ? code_bytes(elf, start, end) : NULL;
	if (!code) {
		where(dbg, start, end, &sb);
		diag_error(d, SPAN_NONE, "the code of %s is not in the file", sb.buf);
		strbuf_release(&sb);
		return -ENOENT;
	}
	if (!disasm_open(&cs, &insn, false)) {
		diag_fail(d, "cannot start the disassembler (capstone)");
		return -EIO;
	}
	for (uint64_t pc = start; pc < end;) {
		size_t size = end - pc;
		const uint8_t *p = code + (pc - start);
		uint64_t a = pc;

		while (cs_disasm_iter(cs, &p, &size, &a, insn)) {
			if (insn->id == X86_INS_RET) {
				ALLOC_GROW(out, n + 1, alloc);
				out[n++] = insn->address;
			}
		}
		if (!size)
			break;
		/* undecodable byte (padding, data): step over it and go on */
		skipped++;
		pc = a + 1;
	}
	disasm_close(&cs, insn);
	if (skipped)
		pr_debug("0x%llx-0x%llx: %zu undecodable byte(s) skipped",
			 (unsigned long long)start, (unsigned long long)end, skipped);
	if (!n) {
		where(dbg, start, end, &sb);
		diag_error(d, SPAN_NONE, "no return instruction in %s", sb.buf);
		diag_hint(d, "a function that never returns has no return to probe");
		strbuf_release(&sb);
		free(out);
		return -ENOENT;
	}
	strbuf_release(&sb);
	*addrs = out;
	*nr = n;
	return 0;
}

/* ---- Go's stack-bound check ---- */

/* Instructions of the check are among the first few; anything longer is not one. */
#define SPLIT_SCAN 6

uint64_t retsite_go_split_end(struct debuginfo *dbg, uint64_t start, uint64_t end)
{
	uint64_t lim = end > start && end - start < SPLIT_SCAN * 15 ? end : start + SPLIT_SCAN * 15;
	Elf *elf = debuginfo_elf(dbg);
	const uint8_t *code = elf ? code_bytes(elf, start, lim) : NULL;
	const uint8_t *p = code;
	size_t size = lim - start;
	uint64_t a = start, found = start;
	bool cmp_g = false;
	cs_insn *insn;
	csh cs;

	if (!code || !disasm_open(&cs, &insn, false))
		return start;
	for (int i = 0; i < SPLIT_SCAN && cs_disasm_iter(cs, &p, &size, &a, insn); i++) {
		/* the goroutine (g) is in r14 on the register ABI: g.stackguard0 at +16 */
		if (insn->id == X86_INS_CMP && strstr(insn->op_str, "r14")) {
			cmp_g = true;
			continue;
		}
		if (cmp_g && (insn->id == X86_INS_JBE || insn->id == X86_INS_JB)) {
			found = insn->address + insn->size;
			break;
		}
		/* lea/mov/sub computing the frame's low end for big frames come first */
		if (insn->id != X86_INS_LEA && insn->id != X86_INS_MOV && insn->id != X86_INS_SUB &&
		    insn->id != X86_INS_JB)
			break;
	}
	disasm_close(&cs, insn);
	return found;
}

/* ---- instruction boundaries, the targets an IFUNC resolver loads ---- */

/* x86-64 instructions are at most 15 bytes: the one holding an address starts before it */
#define MAX_INSN 15

int retsite_insn_boundary(struct debuginfo *dbg, uint64_t start, uint64_t end, uint64_t addr,
			  struct insn_at *at, struct diag *d)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t lim = addr + 4 * MAX_INSN, pc = start;
	uint64_t starts[2 * ARRAY_SIZE(at->near)];
	size_t n = 0, after = 0;
	const uint8_t *code, *p;
	size_t size;
	cs_insn *insn;
	int ret = -EIO;
	Elf *elf;
	csh cs;

	memset(at, 0, sizeof(*at));
	if (addr == start)
		return 1;
	/* the end is known: every instruction of the function ends there or before */
	if (end && end > addr && end < lim)
		lim = end;
	elf = debuginfo_elf(dbg);
	/* near the end of the code a shorter stretch may be all the file has */
	code = NULL;
	while (elf && lim > addr && !(code = code_bytes(elf, start, lim)))
		lim--;
	if (!code || addr < start) {
		where(dbg, start, end, &sb);
		diag_error(d, SPAN_NONE, "the code of %s is not in the file", sb.buf);
		strbuf_release(&sb);
		return -ENOENT;
	}
	if (!disasm_open(&cs, &insn, false)) {
		diag_fail(d, "cannot start the disassembler (capstone)");
		return -EIO;
	}
	cs_option(cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	p = code;
	size = lim - start;
	while (cs_disasm_iter(cs, &p, &size, &pc, insn)) {
		uint64_t a = insn->address;

		/* keep the last few starts before @addr and a few after it */
		if (a <= addr) {
			/* room for 3 after it */
			if (n == ARRAY_SIZE(starts) - 3)
				memmove(starts, starts + 1, --n * sizeof(*starts));
			starts[n++] = a;
		} else if (after++ < 3 && n < ARRAY_SIZE(starts)) {
			starts[n++] = a;
		}
		if (a == addr) {
			ret = 1;
			break;
		}
		if (a < addr && a + insn->size > addr) {
			at->insn = a;
			snprintf(at->text, sizeof(at->text), "%s%s%s", insn->mnemonic,
				 insn->op_str[0] ? " " : "", insn->op_str);
			ret = 0;
		}
		if (a > addr && after >= 3)
			break;
	}
	if (ret == 0) {
		/* up to 3 before the one holding @addr, it, and what follows */
		size_t first = 0;

		for (size_t i = 0; i < n; i++)
			if (starts[i] == at->insn)
				first = i > 2 ? i - 3 : 0;
		for (size_t i = first; i < n && at->nr_near < ARRAY_SIZE(at->near); i++)
			at->near[at->nr_near++] = starts[i];
	} else if (ret < 0) {
		/* not decodable up to @addr: whether it starts an instruction is unknown */
		where(dbg, start, end, &sb);
		diag_error(d, SPAN_NONE, "cannot tell whether 0x%llx starts an instruction: the "
			   "code of %s does not disassemble up to it (at 0x%llx)",
			   (unsigned long long)addr, sb.buf, (unsigned long long)pc);
		ret = -EINVAL;
	}
	disasm_close(&cs, insn);
	strbuf_release(&sb);
	return ret;
}

int retsite_lea_targets(struct debuginfo *dbg, uint64_t start, uint64_t end, uint64_t **addrs,
			size_t *nr)
{
	const uint8_t *code, *p;
	uint64_t *out = NULL, pc = start;
	size_t n = 0, alloc = 0, size;
	cs_insn *insn;
	Elf *elf;
	csh cs;

	*addrs = NULL;
	*nr = 0;
	elf = debuginfo_elf(dbg);
	code = elf && end > start ? code_bytes(elf, start, end) : NULL;
	if (!code)
		return -ENOENT;
	if (!disasm_open(&cs, &insn, true))
		return -EIO;
	p = code;
	size = end - start;
	while (cs_disasm_iter(cs, &p, &size, &pc, insn)) {
		const cs_x86 *x = &insn->detail->x86;

		if (insn->id != X86_INS_LEA || x->op_count != 2 || x->operands[1].type != X86_OP_MEM ||
		    x->operands[1].mem.base != X86_REG_RIP)
			continue;
		ALLOC_GROW(out, n + 1, alloc);
		/* rip-relative: from the end of the instruction */
		out[n++] = insn->address + insn->size + (uint64_t)x->operands[1].mem.disp;
	}
	disasm_close(&cs, insn);
	*addrs = out;
	*nr = n;
	return 0;
}

/* ---- Go results at a return instruction (abi-internal.md, "Function call argument and
 * result passing") ---- */

static const char *const go_int_regs[] = { "ax", "bx", "cx", "di", "si", "r8", "r9", "r10",
					   "r11" };
#define GO_NR_FLOAT_REGS 15

struct go_assign {
	int next_int, next_float;
	bool fail;
	bool stack_only;		/* just split the value into its base pieces */
	struct go_piece *pieces;	/* of the value being assigned */
	size_t nr, alloc;
};

/* go_strip() - follow typedefs and qualifiers; returns the tag of what is left */
static int go_strip(Dwarf_Die *type, Dwarf_Die *out)
{
	Dwarf_Attribute attr;
	int depth = 0;

	*out = *type;
	for (;;) {
		int tag = dwarf_tag(out);

		if ((tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		     tag != DW_TAG_volatile_type) || depth++ > 32)
			return tag;
		if (!dwarf_attr_integrate(out, DW_AT_type, &attr) ||
		    !dwarf_formref_die(&attr, out))
			return DW_TAG_unspecified_type;
	}
}

static bool go_type_of(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, DW_AT_type, &attr) && dwarf_formref_die(&attr, type);
}

static int64_t go_size(Dwarf_Die *type)
{
	Dwarf_Word size;
	Dwarf_Die t;
	int tag = go_strip(type, &t);

	if (tag == DW_TAG_pointer_type || tag == DW_TAG_subroutine_type)
		return 8;
	if (dwarf_aggregate_size(&t, &size) != 0)
		return -1;
	return (int64_t)size;
}

static int64_t go_align(Dwarf_Die *type, int depth)
{
	Dwarf_Die t, child, et;
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	int64_t a = 1, size;
	int tag = go_strip(type, &t);

	if (depth > 16)
		return 8;
	switch (tag) {
	case DW_TAG_structure_type:
		if (dwarf_child(&t, &child) == 0) {
			do {
				Dwarf_Die mt;
				int64_t ma;

				if (dwarf_tag(&child) == DW_TAG_member && go_type_of(&child, &mt) &&
				    (ma = go_align(&mt, depth + 1)) > a)
					a = ma;
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		return a;
	case DW_TAG_array_type:
		return go_type_of(&t, &et) ? go_align(&et, depth + 1) : 8;
	case DW_TAG_base_type:
		size = go_size(&t);
		if (dwarf_attr(&t, DW_AT_encoding, &attr))
			dwarf_formudata(&attr, &enc);
		if (enc == DW_ATE_complex_float)
			size /= 2;
		return size > 8 ? 8 : size < 1 ? 1 : size;
	default:
		return 8;
	}
}

static void go_piece_add(struct go_assign *a, struct go_piece p)
{
	ALLOC_GROW(a->pieces, a->nr + 1, a->alloc);
	a->pieces[a->nr++] = p;
}

static void go_take_int(struct go_assign *a, int64_t off, int64_t size)
{
	if (a->stack_only) {
		go_piece_add(a, (struct go_piece){ .offset = (unsigned int)off,
						   .size = (unsigned int)size, .xmm = -1 });
		return;
	}
	if (a->next_int >= (int)ARRAY_SIZE(go_int_regs) || size > 8) {
		a->fail = true;
		return;
	}
	go_piece_add(a, (struct go_piece){ .offset = (unsigned int)off,
					   .size = (unsigned int)size,
					   .reg = go_int_regs[a->next_int++], .xmm = -1 });
}

static void go_take_float(struct go_assign *a, int64_t off, int64_t size)
{
	if (a->stack_only) {
		go_take_int(a, off, size);
		return;
	}
	if (a->next_float >= GO_NR_FLOAT_REGS) {
		a->fail = true;
		return;
	}
	go_piece_add(a, (struct go_piece){ .offset = (unsigned int)off,
					   .size = (unsigned int)size, .xmm = a->next_float++ });
}

/* go_reg_assign() - "register-assignment of a value V of underlying type T" */
static void go_reg_assign(struct go_assign *a, Dwarf_Die *type, int64_t off, int depth)
{
	Dwarf_Attribute attr;
	Dwarf_Die t, child, et;
	Dwarf_Word enc = 0;
	int64_t size = go_size(type), esize;
	int tag = go_strip(type, &t);

	if (a->fail)
		return;
	if (size < 0 || depth > 16) {
		a->fail = true;
		return;
	}
	if (size == 0)
		return;
	switch (tag) {
	case DW_TAG_base_type:
		if (dwarf_attr(&t, DW_AT_encoding, &attr))
			dwarf_formudata(&attr, &enc);
		if (enc == DW_ATE_float) {
			go_take_float(a, off, size);
		} else if (enc == DW_ATE_complex_float) {
			go_take_float(a, off, size / 2);
			go_take_float(a, off + size / 2, size / 2);
		} else {
			go_take_int(a, off, size);
		}
		return;
	case DW_TAG_structure_type:
		/* also strings (str, len), slices (array, len, cap), interfaces (tab, data) */
		if (dwarf_child(&t, &child) != 0)
			return;
		do {
			Dwarf_Word moff;
			Dwarf_Die mt;

			if (dwarf_tag(&child) != DW_TAG_member || !go_type_of(&child, &mt))
				continue;
			if (!dwarf_attr(&child, DW_AT_data_member_location, &attr) ||
			    dwarf_formudata(&attr, &moff) != 0) {
				a->fail = true;
				return;
			}
			go_reg_assign(a, &mt, off + (int64_t)moff, depth + 1);
		} while (!a->fail && dwarf_siblingof(&child, &child) == 0);
		return;
	case DW_TAG_array_type:
		if (!go_type_of(&t, &et) || (esize = go_size(&et)) <= 0 || size / esize != 1) {
			a->fail = true;		/* arrays of more than one element: stack */
			return;
		}
		go_reg_assign(a, &et, off, depth + 1);
		return;
	default:
		/* pointers, maps, channels, funcs, unsafe.Pointer: one word */
		go_take_int(a, off, size);
	}
}

static bool go_is_result(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	bool flag = false;

	return dwarf_attr_integrate(die, DW_AT_variable_parameter, &attr) &&
	       dwarf_formflag(&attr, &flag) == 0 && flag;
}

/* go_regabi() - the CU was compiled for the register ABI (Go 1.17+ on amd64) */
static bool go_regabi(Dwarf_Die *func)
{
	Dwarf_Attribute attr;
	const char *producer;
	Dwarf_Die cu;

	if (!dwarf_diecu(func, &cu, NULL, NULL) || !dwarf_attr(&cu, DW_AT_producer, &attr))
		return false;
	producer = dwarf_formstring(&attr);
	return producer && strstr(producer, "regabi");
}

void go_results_free(struct go_result *res, size_t nr)
{
	if (!res)
		return;
	for (size_t i = 0; i < nr; i++) {
		free(res[i].name);
		free(res[i].pieces);
	}
	free(res);
}

int go_result_regs(Dwarf_Die *func, struct go_result **out, size_t *nr, struct diag *d)
{
	struct go_assign a = { 0 };
	struct go_result *res = NULL;
	bool regabi = go_regabi(func);
	size_t n = 0, alloc = 0;
	int64_t stack = 0;	/* size of the stack sequence S so far */
	bool in_results = false;
	Dwarf_Die child;

	*out = NULL;
	*nr = 0;
	if (dwarf_child(func, &child) != 0)
		return 0;
	do {
		bool is_result;
		Dwarf_Die type;
		int64_t size, align;
		int save_int, save_float;
		const char *name;

		if (dwarf_tag(&child) != DW_TAG_formal_parameter)
			continue;
		is_result = go_is_result(&child);
		name = dwarf_diename(&child);
		if (!go_type_of(&child, &type)) {
			diag_error(d, SPAN_NONE, "parameter '%s' of %s has no type in the DWARF",
				   name ? name : "?", dwarf_diename(func));
			go_results_free(res, n);
			return -EINVAL;
		}
		if (is_result && !in_results) {
			/* pointer-alignment, then results from the first registers again */
			in_results = true;
			stack = (stack + 7) & ~7;
			a.next_int = 0;
			a.next_float = 0;
		}
		size = go_size(&type);
		align = go_align(&type, 0);
		save_int = a.next_int;
		save_float = a.next_float;
		a.fail = !regabi || size < 0;
		a.nr = 0;
		if (size > 0)
			go_reg_assign(&a, &type, 0, 0);
		if (a.fail) {
			a.next_int = save_int;
			a.next_float = save_float;
			a.nr = 0;
		}
		if (is_result) {
			struct go_result *r;

			ALLOC_GROW(res, n + 1, alloc);
			r = &res[n++];
			memset(r, 0, sizeof(*r));
			r->name = xstrdup(name ? name : "~r");
			r->die = child;
			r->type = type;
			r->has_type = true;
			if (size < 0) {
				diag_error(d, SPAN_NONE, "result '%s' of %s has a type of unknown size",
					   r->name, dwarf_diename(func));
				go_results_free(res, n);
				free(a.pieces);
				return -EINVAL;
			}
			if (a.fail && size > 0) {
				r->on_stack = true;
				stack = (stack + align - 1) & ~(align - 1);
				r->sp_offset = 8 + stack;
				/* the value's base pieces, each on the stack */
				a.fail = false;
				a.stack_only = true;
				go_reg_assign(&a, &type, 0, 0);
				a.stack_only = false;
				for (size_t i = 0; i < a.nr; i++)
					a.pieces[i].sp_offset = r->sp_offset + a.pieces[i].offset;
				if (a.fail) {	/* a big array: one piece for the whole value */
					a.nr = 0;
					go_piece_add(&a, (struct go_piece){
						.size = (unsigned int)size, .xmm = -1,
						.sp_offset = r->sp_offset });
				}
				stack += size;
			}
			r->pieces = a.nr ? xmalloc(a.nr * sizeof(*r->pieces)) : NULL;
			if (a.nr)
				memcpy(r->pieces, a.pieces, a.nr * sizeof(*r->pieces));
			r->nr_pieces = a.nr;
		} else if (a.fail && size > 0) {
			stack = (stack + align - 1) & ~(align - 1);
			stack += size;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	free(a.pieces);
	*out = res;
	*nr = n;
	return 0;
}

/* ---- where a uretprobe finds a C, C++ or Rust return value (x86-64) ---- */

enum ret_class { RC_NONE, RC_INT, RC_SSE, RC_MEM };

/* Names of a C++ class's constructors: the class name up to its template arguments. */
static bool cxx_is_ctor_name(const char *fn, const char *cls)
{
	size_t n = strcspn(cls, "<");

	return fn && !strncmp(fn, cls, n) && (fn[n] == '\0' || fn[n] == '<');
}

static bool die_flag(Dwarf_Die *die, unsigned int at)
{
	Dwarf_Attribute attr;
	bool flag = false;

	return dwarf_attr(die, at, &attr) && dwarf_formflag(&attr, &flag) == 0 && flag;
}

/* The member function is defaulted in its class (trivial unless its members are not). */
static bool defaulted_in_class(Dwarf_Die *fn)
{
	Dwarf_Attribute attr;
	Dwarf_Word v = 0;

	return dwarf_attr(fn, DW_AT_defaulted, &attr) && dwarf_formudata(&attr, &v) == 0 &&
	       v == DW_DEFAULTED_in_class;
}

/* A copy or move constructor: its first parameter after this is a reference to @cls. */
static bool is_copy_ctor(Dwarf_Die *fn, Dwarf_Die *cls)
{
	Dwarf_Die p, t, to;

	if (dwarf_child(fn, &p) != 0)
		return false;
	do {
		int tag;

		if (dwarf_tag(&p) != DW_TAG_formal_parameter || die_flag(&p, DW_AT_artificial))
			continue;
		if (!lang_type_of(&p, &t))
			return false;
		tag = lang_strip(&t, &t);
		if (tag != DW_TAG_reference_type && tag != DW_TAG_rvalue_reference_type)
			return false;
		if (!lang_type_of(&t, &to) || !lang_strip(&to, &to))
			return false;
		return dwarf_dieoffset(&to) == dwarf_dieoffset(cls) ||
		       (dwarf_diename(&to) && dwarf_diename(cls) &&
			!strcmp(dwarf_diename(&to), dwarf_diename(cls)));
	} while (dwarf_siblingof(&p, &p) == 0);
	return false;
}

/*
 * cxx_nontrivial() - the Itanium C++ ABI returns a class in memory when it has a non-trivial
 * copy or move constructor or destructor: user-provided ones, virtual functions or bases,
 * or any base or member that has them.
 */
static bool cxx_nontrivial(Dwarf_Die *type, int depth)
{
	const char *cls = dwarf_diename(type);
	Dwarf_Die child, t;

	if (depth > 8 || dwarf_child(type, &child) != 0)
		return false;
	do {
		const char *n = dwarf_diename(&child);
		int tag = dwarf_tag(&child);

		switch (tag) {
		case DW_TAG_subprogram:
			if (die_flag(&child, DW_AT_artificial) || defaulted_in_class(&child))
				break;
			if (dwarf_hasattr(&child, DW_AT_virtuality))
				return true;
			if (n && n[0] == '~')
				return true;
			if (cls && cxx_is_ctor_name(n, cls) && is_copy_ctor(&child, type))
				return true;
			break;
		case DW_TAG_inheritance:
			if (dwarf_hasattr(&child, DW_AT_virtuality))
				return true;
			/* fallthrough */
		case DW_TAG_member:
			if (tag == DW_TAG_member && n && !strncmp(n, "_vptr", 5))
				return true;
			if (tag == DW_TAG_member && !dwarf_hasattr(&child, DW_AT_data_member_location))
				break;	/* static */
			if (!lang_type_of(&child, &t))
				break;
			tag = lang_strip(&t, &t);
			while (tag == DW_TAG_array_type && lang_type_of(&t, &t))
				tag = lang_strip(&t, &t);
			if ((tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
			     tag == DW_TAG_union_type) && cxx_nontrivial(&t, depth + 1))
				return true;
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

static enum ret_class class_merge(enum ret_class a, enum ret_class b)
{
	if (a == b || b == RC_NONE)
		return a;
	if (a == RC_NONE)
		return b;
	if (a == RC_MEM || b == RC_MEM)
		return RC_MEM;
	return RC_INT;
}

/*
 * classify() - the System V classes of the eightbytes @type covers at @off; @leaves counts
 * the scalars (Rust's scalar pairs). Returns false when the type cannot be classified.
 */
static bool classify(Dwarf_Die *type, int64_t off, enum ret_class cls[2], int *leaves,
		     int64_t leaf_off[2], enum ret_class leaf_cls[2], int depth)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	Dwarf_Die t, child, et;
	int64_t size = lang_type_size(type), esize, i;
	enum ret_class c;
	int tag = lang_strip(type, &t);

	if (depth > 16 || size < 0 || !tag)
		return false;
	if (size == 0)
		return true;
	switch (tag) {
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		if (dwarf_child(&t, &child) != 0)
			return true;
		do {
			int ct = dwarf_tag(&child);
			int64_t moff = 0;
			Dwarf_Die mt;

			if (ct == DW_TAG_variant_part) {
				/* a Rust enum with data: bytes, no floats known */
				for (i = off / 8; i <= (off + size - 1) / 8 && i < 2; i++)
					cls[i] = class_merge(cls[i], RC_INT);
				*leaves = 3;
				continue;
			}
			if ((ct != DW_TAG_member && ct != DW_TAG_inheritance) ||
			    (ct == DW_TAG_member &&
			     !dwarf_hasattr(&child, DW_AT_data_member_location) &&
			     !dwarf_hasattr(&child, DW_AT_data_bit_offset)))
				continue;
			if (!lang_type_of(&child, &mt))
				return false;
			if (dwarf_hasattr(&child, DW_AT_bit_size)) {
				int64_t bits = 0;
				Dwarf_Word bo = 0;

				if (dwarf_attr(&child, DW_AT_data_bit_offset, &attr) &&
				    dwarf_formudata(&attr, &bo) == 0)
					bits = (int64_t)bo;
				else if (lang_member_offset(&child, &moff))
					bits = moff * 8;
				i = (off * 8 + bits) / 64;
				if (i < 2)
					cls[i] = class_merge(cls[i], RC_INT);
				*leaves = 3;
				continue;
			}
			if (!lang_member_offset(&child, &moff))
				return false;
			if (!classify(&mt, off + moff, cls, leaves, leaf_off, leaf_cls, depth + 1))
				return false;
		} while (dwarf_siblingof(&child, &child) == 0);
		return true;
	case DW_TAG_array_type:
		if (!lang_type_of(&t, &et) || (esize = lang_type_size(&et)) <= 0)
			return false;
		for (i = 0; i < size / esize; i++)
			if (!classify(&et, off + i * esize, cls, leaves, leaf_off, leaf_cls,
				      depth + 1))
				return false;
		return true;
	case DW_TAG_base_type:
		if (dwarf_attr(&t, DW_AT_encoding, &attr))
			dwarf_formudata(&attr, &enc);
		if (enc == DW_ATE_float || enc == DW_ATE_complex_float)
			c = size > 8 && enc == DW_ATE_float ? RC_MEM : RC_SSE;	/* long double */
		else
			c = RC_INT;
		break;
	default:
		/* pointers, references, enums */
		c = RC_INT;
		break;
	}
	if (off % (size > 8 ? 8 : size))
		c = RC_MEM;	/* unaligned (packed) */
	for (i = off / 8; i <= (off + size - 1) / 8; i++) {
		if (i >= 2)
			return true;
		cls[i] = class_merge(cls[i], c);
	}
	if (*leaves < 2) {
		leaf_off[*leaves] = off;
		leaf_cls[*leaves] = c;
	}
	(*leaves)++;
	return true;
}

static void add_reg_piece(struct loc *out, enum ret_class c, int *next_int, int *next_sse,
			  unsigned int size)
{
	static const char *const int_regs[] = { "$retval", "%dx" };
	struct loc_piece p = { .reg = -1, .size = size };
	char why[80];

	if (c == RC_SSE) {
		snprintf(why, sizeof(why), "is returned in register xmm%d, which uprobes cannot "
			 "read", (*next_sse)++);
		p.kind = LOC_BAD;
		p.why = why;
	} else {
		p.kind = LOC_VAL;
		p.fetch = (char *)int_regs[(*next_int)++];
		p.reg = p.fetch[0] == '%' ? 1 : -1;	/* DWARF 1 is rdx */
	}
	loc_add_piece(out, &p);
}

bool retsite_value(Dwarf_Die *func, const struct lang_ops *lang, Dwarf_Die *type,
		   struct loc *out)
{
	enum ret_class cls[2] = { RC_NONE, RC_NONE }, leaf_cls[2] = { RC_NONE, RC_NONE };
	int64_t leaf_off[2] = { 0, 0 }, size;
	int leaves = 0, next_int = 0, next_sse = 0;
	struct loc_piece p = { .kind = LOC_VAL, .reg = -1, .fetch = (char *)"$retval" };
	bool memory = false;
	Dwarf_Die t;
	int tag;

	memset(out, 0, sizeof(*out));
	if (!lang_type_of(func, type) || !(tag = lang_strip(type, &t))) {
		loc_add_piece(out, &p);
		return false;
	}
	size = lang_type_size(type);
	if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	    tag == DW_TAG_union_type || tag == DW_TAG_array_type) {
		memory = size > 16 || size < 0 ||
			 (lang == &lang_cxx && cxx_nontrivial(&t, 0)) ||
			 !classify(type, 0, cls, &leaves, leaf_off, leaf_cls, 0) ||
			 cls[0] == RC_MEM || cls[1] == RC_MEM;
	} else if (!classify(type, 0, cls, &leaves, leaf_off, leaf_cls, 0)) {
		loc_add_piece(out, &p);
		return true;
	}
	if (memory) {
		/* the caller's buffer: its address was passed in RDI and is in RAX on return */
		p.kind = LOC_MEM;
		p.fetch = NULL;
		p.base = (char *)"$retval";
		p.off = 0;
		loc_add_piece(out, &p);
		return true;
	}
	if (tag == DW_TAG_base_type && cls[0] == RC_MEM) {
		p.kind = LOC_BAD;
		p.fetch = NULL;
		p.why = (char *)"is returned in the x87 register st0, which uprobes cannot read";
		loc_add_piece(out, &p);
		return true;
	}
	if (lang == &lang_rust && leaves == 1 && tag != DW_TAG_base_type) {
		/* a wrapper of one scalar is returned as that scalar */
		add_reg_piece(out, leaf_cls[0], &next_int, &next_sse, 0);
		return true;
	}
	if (lang == &lang_rust && leaves == 2 && tag != DW_TAG_base_type) {
		/* a scalar pair: each half in its own register, by its own class, in memory order */
		if (leaf_off[1] < leaf_off[0]) {
			int64_t o = leaf_off[0];
			enum ret_class c = leaf_cls[0];

			leaf_off[0] = leaf_off[1];
			leaf_cls[0] = leaf_cls[1];
			leaf_off[1] = o;
			leaf_cls[1] = c;
		}
		add_reg_piece(out, leaf_cls[0], &next_int, &next_sse,
			      (unsigned int)leaf_off[1]);
		add_reg_piece(out, leaf_cls[1], &next_int, &next_sse,
			      (unsigned int)(size - leaf_off[1]));
		return true;
	}
	if (lang == &lang_rust && tag != DW_TAG_base_type) {
		/* other aggregates of up to 16 bytes are returned as an integer */
		cls[0] = RC_INT;
		cls[1] = size > 8 ? RC_INT : RC_NONE;
	}
	if (size <= 8) {
		add_reg_piece(out, cls[0], &next_int, &next_sse, 0);
		return true;
	}
	add_reg_piece(out, cls[0], &next_int, &next_sse, 8);
	add_reg_piece(out, cls[1], &next_int, &next_sse, (unsigned int)(size - 8));
	return true;
}
