// SPDX-License-Identifier: GPL-2.0-or-later
/* insn.c - the instruction oracle's questions on a binary's code, answered by the current
 * machine's decoder (arch_current()->insn) */
#define LOG_DOMAIN "insn"

#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"
#include "arch/insn.h"
#include "log.h"
#include "util.h"

static const struct insn_ops *ops(void)
{
	return arch_current()->insn;
}

int insn_rets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr)
{
	return ops()->rets_code(c, addrs, nr);
}

int insn_boundary_code(const struct insn_code *c, uint64_t addr, struct insn_at *at)
{
	return ops()->boundary_code(c, addr, at);
}

int insn_addr_targets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr)
{
	return ops()->addr_targets_code(c, addrs, nr);
}

uint64_t insn_go_split_end_code(const struct insn_code *c, struct insn_go_check *chk)
{
	return ops()->go_split_end_code(c, chk);
}

long insn_branches_to_code(const struct insn_code *c, uint64_t target)
{
	return ops()->branches_to_code(c, target);
}

int insn_straight_code(const struct insn_code *c, struct insn_info *out, size_t max, size_t *nr)
{
	return ops()->straight_code(c, out, max, nr);
}

int insn_jump_targets_code(const struct insn_code *c, uint64_t **addrs, size_t *nr,
			   bool *indirect)
{
	return ops()->jump_targets_code(c, addrs, nr, indirect);
}

int insn_float_copy_code(const struct insn_code *c, unsigned int vec, unsigned int size,
			 const uint64_t *stop, size_t nstop, struct insn_float_copy *out,
			 struct strbuf *why)
{
	return ops()->float_copy_code(c, vec, size, stop, nstop, out, why);
}

int insn_float_source_code(const struct insn_code *c, uint64_t ret_at, unsigned int vec,
			   unsigned int size, const uint64_t *stop, size_t nstop,
			   struct insn_float_copy *out, struct strbuf *why)
{
	return ops()->float_source_code(c, ret_at, vec, size, stop, nstop, out, why);
}

/* where() - @name, or "0x401000-0x401100" when the caller has none, for messages */
static const char *where(const char *name, uint64_t start, uint64_t end, struct strbuf *sb)
{
	if (name)
		return name;
	strbuf_reset(sb);
	strbuf_addf(sb, "0x%llx-0x%llx", (unsigned long long)start, (unsigned long long)end);
	return sb->buf;
}

int insn_code_at(Elf *elf, uint64_t start, uint64_t end, struct insn_code *out)
{
	Elf_Scn *scn = NULL;
	size_t nphdr, size;
	const char *raw;

	memset(out, 0, sizeof(*out));
	if (!elf || end <= start)
		return -ENOENT;
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
			return -ENOENT;
		*out = (struct insn_code){ .bytes = (const uint8_t *)data->d_buf +
						   (start - sh.sh_addr),
					  .len = end - start, .addr = start };
		return 0;
	}
	raw = elf_rawfile(elf, &size);
	if (!raw || elf_getphdrnum(elf, &nphdr))
		return -ENOENT;
	for (size_t i = 0; i < nphdr; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (start < ph.p_vaddr || end > ph.p_vaddr + ph.p_filesz)
			continue;
		if (ph.p_offset + (end - ph.p_vaddr) > size)
			return -ENOENT;
		*out = (struct insn_code){ .bytes = (const uint8_t *)raw + ph.p_offset +
						   (start - ph.p_vaddr),
					  .len = end - start, .addr = start };
		return 0;
	}
	return -ENOENT;
}

int insn_rets(Elf *elf, const char *name, uint64_t start, uint64_t end, uint64_t **addrs,
		  size_t *nr, struct diag *d)
{
	struct strbuf sb = STRBUF_INIT;
	struct insn_code c;
	int ret;

	*addrs = NULL;
	*nr = 0;
	if (end <= start) {
		diag_error(d, SPAN_NONE, "the extent of %s is unknown",
			   where(name, start, end, &sb));
		ret = -EINVAL;
	} else if (insn_code_at(elf, start, end, &c)) {
		diag_error(d, SPAN_NONE, "the code of %s is not in the file",
			   where(name, start, end, &sb));
		ret = -ENOENT;
	} else if (insn_rets_code(&c, addrs, nr)) {
		diag_fail(d, "cannot start the disassembler (capstone)");
		ret = -EIO;
	} else if (!*nr) {
		diag_error(d, SPAN_NONE, "no return instruction in %s",
			   where(name, start, end, &sb));
		diag_hint(d, "a function that never returns has no return to probe");
		ret = -ENOENT;
	} else {
		ret = 0;
	}
	strbuf_release(&sb);
	return ret;
}

uint64_t insn_go_split_end(Elf *elf, uint64_t start, uint64_t end,
			       struct insn_go_check *chk)
{
	uint64_t lim = end > start && end - start < ops()->go_split_bytes ?
		       end : start + ops()->go_split_bytes;
	struct insn_code c;

	if (chk)
		memset(chk, 0, sizeof(*chk));
	if (insn_code_at(elf, start, lim, &c))
		return start;
	return insn_go_split_end_code(&c, chk);
}

int insn_boundary(Elf *elf, const char *name, uint64_t start, uint64_t end, uint64_t addr,
		      struct insn_at *at, struct diag *d)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t lim = addr + 4 * ops()->max_insn;
	struct insn_code c;
	int ret = -ENOENT;

	memset(at, 0, sizeof(*at));
	if (addr == start)
		return 1;
	/* the end is known: every instruction of the function ends there or before */
	if (end && end > addr && end < lim)
		lim = end;
	/* near the end of the code a shorter stretch may be all the file has */
	while (addr >= start && lim > addr && (ret = insn_code_at(elf, start, lim, &c)))
		lim--;
	if (ret) {
		diag_error(d, SPAN_NONE, "the code of %s is not in the file",
			   where(name, start, end, &sb));
		strbuf_release(&sb);
		return -ENOENT;
	}
	ret = insn_boundary_code(&c, addr, at);
	if (ret == -EIO) {
		diag_fail(d, "cannot start the disassembler (capstone)");
	} else if (ret < 0) {
		/* not decodable up to @addr: whether it starts an instruction is unknown */
		diag_error(d, SPAN_NONE, "cannot tell whether 0x%llx starts an instruction: the "
			   "code of %s does not disassemble up to it (at 0x%llx)",
			   (unsigned long long)addr, where(name, start, end, &sb),
			   (unsigned long long)at->insn);
		memset(at, 0, sizeof(*at));
		ret = -EINVAL;
	}
	strbuf_release(&sb);
	return ret;
}

int insn_addr_targets(Elf *elf, uint64_t start, uint64_t end, uint64_t **addrs,
			 size_t *nr)
{
	struct insn_code c;

	*addrs = NULL;
	*nr = 0;
	if (insn_code_at(elf, start, end, &c))
		return -ENOENT;
	return insn_addr_targets_code(&c, addrs, nr);
}

const char *probe_cost_name(enum probe_cost cost)
{
	static const char *const names[] = {
		[PROBE_SSTEP] = "single-stepped",
		[PROBE_EMULATED] = "emulated",
		[PROBE_OPTIMIZED] = "optimized",
	};

	if (cost == PROBE_REFUSED)
		return "refused by the kernel";
	return names[cost];
}

int insn_straight(Elf *elf, uint64_t start, uint64_t end, struct insn_info *out,
		      size_t max, size_t *nr)
{
	uint64_t lim = start + max * ops()->max_insn;
	struct insn_code c;
	int ret = -ENOENT;

	*nr = 0;
	if (end > start && end < lim)
		lim = end;
	/* near the end of the code a shorter stretch may be all the file has */
	while (lim > start && (ret = insn_code_at(elf, start, lim, &c)))
		lim--;
	if (ret)
		return ret;
	return insn_straight_code(&c, out, max, nr);
}

long insn_branches_to(Elf *elf, uint64_t start, uint64_t end, uint64_t target)
{
	struct insn_code c;

	if (insn_code_at(elf, start, end, &c))
		return -ENOENT;
	return insn_branches_to_code(&c, target);
}

int insn_jump_targets(Elf *elf, uint64_t start, uint64_t end, uint64_t **addrs,
			  size_t *nr, bool *indirect)
{
	struct insn_code c;

	*addrs = NULL;
	*nr = 0;
	*indirect = false;
	if (insn_code_at(elf, start, end, &c))
		return -ENOENT;
	return insn_jump_targets_code(&c, addrs, nr, indirect);
}
