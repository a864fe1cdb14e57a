// SPDX-License-Identifier: GPL-2.0-or-later
/* retsite.c - return instructions of a function, by disassembly (capstone) */
#define LOG_DOMAIN "retsite"

#include <capstone/capstone.h>
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
