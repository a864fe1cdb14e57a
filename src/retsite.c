// SPDX-License-Identifier: GPL-2.0-or-later
/* retsite.c - return instructions of a function, by disassembly (capstone) */
#define LOG_DOMAIN "retsite"

#include <capstone/capstone.h>
#include <dwarf.h>
#include <errno.h>
#include <gelf.h>
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
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
		diag_fail(d, "cannot start the disassembler (capstone)");
		return -EIO;
	}
	insn = cs_malloc(cs);
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
	cs_free(insn, 1);
	cs_close(&cs);
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
