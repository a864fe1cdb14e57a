// SPDX-License-Identifier: GPL-2.0-or-later
/* sdt.c - USDT / SystemTap SDT probes: .note.stapsdt, argument specs, sdt_PROVIDER:NAME */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define LOG_DOMAIN "sdt"
#include "arch/arch.h"
#include "elfinfo.h"
#include "fallback.h"
#include "log.h"
#include "parse.h"
#include "regs.h"
#include "arch/arch.h"
#include "sdt.h"

#define NT_STAPSDT 3
#define SDT_NOTE_SCN ".note.stapsdt"
#define SDT_BASE_SCN ".stapsdt.base"

/* ---- argument specs ---- */

/* a machine without an SDT operand parser (a port under way): every argument is refused */
static int no_sdt_parser(const char *text, struct sdt_arg *a)
{
	if (!sdt_arg_size_parse(text, a))
		return -EINVAL;
	return sdt_arg_bad(a, "'%s': upfront does not read SDT operands of %s binaries yet", text,
			   arch_current()->name);
}

static int (*sdt_parser(const struct arch_ops *a))(const char *, struct sdt_arg *)
{
	return a->sdt_arg_parse ? a->sdt_arg_parse : no_sdt_parser;
}

int sdt_arg_parse(const char *text, struct sdt_arg *a)
{
	return sdt_parser(arch_current())(text, a);
}

const char *sdt_arg_type(const struct sdt_arg *a)
{
	static const char *const types[2][4] = {
		{ "u8", "u16", "u32", "u64" },
		{ "s8", "s16", "s32", "s64" },
	};
	unsigned int size = a->size;

	if (a->kind == SDT_ARG_REG && a->reg_shift)
		return "b8@8/64";	/* %ah: bits 8..15 of the register */
	if (a->kind == SDT_ARG_REG && a->reg_bits / 8 < size)
		size = a->reg_bits / 8;	/* "8@%eax": the rest is not the value's */
	return types[a->is_signed][size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3];
}

/* ---- the notes ---- */

static Elf_Scn *section_by_name(Elf *elf, const char *name, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, shdr))
			continue;
		n = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/* read_addr() - an address of the note's descriptor in the file's class and byte order */
static uint64_t read_addr(Elf *elf, const unsigned char *p, bool is64)
{
	unsigned char buf[8];
	Elf_Data dst = { .d_buf = buf, .d_size = sizeof(buf), .d_version = EV_CURRENT };
	Elf_Data src = { .d_buf = (void *)p, .d_size = is64 ? 8 : 4, .d_version = EV_CURRENT,
			 .d_type = ELF_T_ADDR };

	if (!gelf_xlatetom(elf, &dst, &src, elf_getident(elf, NULL)[EI_DATA]))
		return 0;
	if (is64) {
		uint64_t v;

		memcpy(&v, buf, 8);
		return v;
	} else {
		uint32_t v;

		memcpy(&v, buf, 4);
		return v;
	}
}

/*
 * split_args() - the note's blank-separated specs, each parsed by @parse (the binary's machine:
 * AArch64's "[sp, 12]" has a blank inside its brackets)
 */
static void split_args(struct sdt_probe *p, int (*parse)(const char *text, struct sdt_arg *a))
{
	size_t alloc = 0;
	const char *s = p->args_text;

	while (*s) {
		const char *w;
		int depth = 0;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		for (w = s; *s && (depth > 0 || (*s != ' ' && *s != '\t')); s++)
			depth += *s == '[' ? 1 : *s == ']' ? -1 : 0;
		ALLOC_GROW(p->args, p->nr_args + 1, alloc);
		{
			char *t = xstrndup(w, s - w);

			parse(t, &p->args[p->nr_args++]);	/* a bad one says why */
			free(t);
		}
	}
}

/* the table of @elf's machine (the current one when libelf cannot say) */
static const struct arch_ops *elf_arch(Elf *elf)
{
	const struct arch_ops *a = NULL;
	GElf_Ehdr eh;

	if (gelf_getehdr(elf, &eh))
		a = arch_for_machine(eh.e_machine);
	return a ? a : arch_current();
}

/* One note's descriptor: pc, base, semaphore, then provider, name and arguments. */
static int note_probe(Elf *elf, const unsigned char *desc, size_t len, bool is64,
		      struct sdt_probe *p, uint64_t *base)
{
	size_t asz = is64 ? 8 : 4;
	const char *prov, *name, *args, *end = (const char *)desc + len;

	if (len < 3 * asz + 3)
		return -EINVAL;
	p->pc = read_addr(elf, desc, is64);
	*base = read_addr(elf, desc + asz, is64);
	p->sem = read_addr(elf, desc + 2 * asz, is64);
	prov = (const char *)desc + 3 * asz;
	name = memchr(prov, '\0', end - prov);
	if (!name++ || name >= end)
		return -EINVAL;
	args = memchr(name, '\0', end - name);
	if (!args++ || args > end)
		return -EINVAL;
	p->provider = xstrdup(prov);
	p->name = xstrdup(name);
	p->args_text = args < end ? xstrndup(args, strnlen(args, end - args)) : xstrdup("");
	split_args(p, sdt_parser(elf_arch(elf)));
	return 0;
}

int sdt_probes_read(Elf *elf, struct sdt_probe **out, size_t *nr, struct diag *d)
{
	GElf_Shdr shdr, base_shdr;
	Elf_Scn *scn = NULL;
	size_t alloc = 0, shstrndx;
	bool is64 = gelf_getclass(elf) == ELFCLASS64, have_base;

	*out = NULL;
	*nr = 0;
	have_base = section_by_name(elf, SDT_BASE_SCN, &base_shdr) != NULL;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;
		const char *sname;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		sname = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (!sname || strcmp(sname, SDT_NOTE_SCN))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		while ((off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0) {
			const char *owner = (const char *)data->d_buf + noff;
			struct sdt_probe p = { 0 };
			uint64_t base = 0, adj = 0;
			int ret;

			if (nh.n_type != NT_STAPSDT || nh.n_namesz != 8 || memcmp(owner, "stapsdt", 8))
				continue;
			ret = note_probe(elf, (const unsigned char *)data->d_buf + doff,
					 nh.n_descsz, is64, &p, &base);
			if (ret) {
				sdt_probes_free(*out, *nr);
				*out = NULL;
				*nr = 0;
				return diag_fail(d, "malformed SDT note at offset 0x%zx of %s",
						 doff, SDT_NOTE_SCN);
			}
			/* prelink moved the code after the note was written: so did the base */
			if (have_base && base)
				adj = base_shdr.sh_addr - base;
			p.pc += adj;
			if (p.sem)
				p.sem += adj;
			if (elfinfo_vaddr_to_offset(elf, p.pc, true, &p.pc_offset))
				pr_info("SDT %s:%s at 0x%" PRIx64 " is in no executable segment",
					p.provider, p.name, p.pc);
			if (p.sem && elfinfo_vaddr_to_offset(elf, p.sem, false, &p.sem_offset))
				pr_info("SDT %s:%s: semaphore 0x%" PRIx64 " is in no segment",
					p.provider, p.name, p.sem);
			ALLOC_GROW(*out, *nr + 1, alloc);
			(*out)[(*nr)++] = p;
		}
	}
	pr_debug("%zu SDT note(s)", *nr);
	return 0;
}

/* what one note's probe owns, freed (the probe itself is an element of an array) */
static void sdt_probe_release(struct sdt_probe *p)
{
	for (size_t k = 0; k < p->nr_args; k++)
		sdt_arg_release(&p->args[k]);
	free(p->args);
	free(p->provider);
	free(p->name);
	free(p->args_text);
}

void sdt_probes_free(struct sdt_probe *p, size_t nr)
{
	for (size_t i = 0; p && i < nr; i++)
		sdt_probe_release(&p[i]);
	free(p);
}

/* ---- fetching an argument ---- */

/* sym_value() - the value of symbol @name in .symtab or .dynsym */
static bool sym_value(Elf *elf, const char *name, uint64_t *value)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		size_t n;

		if (!gelf_getshdr(scn, &shdr) ||
		    (shdr.sh_type != SHT_SYMTAB && shdr.sh_type != SHT_DYNSYM) || !shdr.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		n = shdr.sh_size / shdr.sh_entsize;
		for (size_t i = 0; i < n; i++) {
			GElf_Sym sym;
			const char *sn;

			if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
				continue;
			sn = elf_strptr(elf, shdr.sh_link, sym.st_name);
			if (sn && !strcmp(sn, name)) {
				*value = sym.st_value;
				return true;
			}
		}
	}
	return false;
}

/* got_slot() - the address of the GOT slot the dynamic linker fills with @name's address
 * (a relocation of a type arch_ops.sdt_got_relocs names: R_X86_64_GLOB_DAT, R_X86_64_64) */
static bool got_slot(Elf *elf, const char *name, uint64_t *slot)
{
	const struct arch_ops *a = elf_arch(elf);
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Scn *symscn;
		GElf_Shdr symshdr;
		Elf_Data *data, *syms;
		size_t n;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_RELA || !shdr.sh_entsize)
			continue;
		symscn = elf_getscn(elf, shdr.sh_link);
		data = elf_getdata(scn, NULL);
		if (!symscn || !gelf_getshdr(symscn, &symshdr) || !data)
			continue;
		syms = elf_getdata(symscn, NULL);
		n = shdr.sh_size / shdr.sh_entsize;
		for (size_t i = 0; syms && i < n; i++) {
			GElf_Rela r;
			GElf_Sym sym;
			const char *sn;
			int type;

			if (!gelf_getrela(data, (int)i, &r))
				continue;
			type = (int)GELF_R_TYPE(r.r_info);
			if ((type != (int)a->sdt_got_relocs[0] && type != (int)a->sdt_got_relocs[1]) ||
			    !gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym))
				continue;
			sn = elf_strptr(elf, symshdr.sh_link, sym.st_name);
			if (sn && !strcmp(sn, name)) {
				*slot = r.r_offset;
				return true;
			}
		}
	}
	return false;
}

int sdt_arg_fetch(Elf *elf, const struct sdt_probe *p, const struct sdt_arg *a, char **fetch,
		  struct diag *d)
{
	uint64_t v;

	*fetch = NULL;
	switch (a->kind) {
	case SDT_ARG_REG:
		*fetch = xasprintf("%%%s", a->reg);
		return 0;
	case SDT_ARG_MEM:
		*fetch = xasprintf("%c%" PRIu64 "(%%%s)", a->disp < 0 ? '-' : '+',
				   a->disp < 0 ? -(uint64_t)a->disp : (uint64_t)a->disp, a->reg);
		return 0;
	case SDT_ARG_IMM:
		*fetch = xasprintf("\\%" PRId64, a->disp);
		return 0;
	case SDT_ARG_RIP:
		if (a->got && (!elf || !got_slot(elf, a->sym, &v)))
			return diag_error(d, SPAN_NONE, "'%s': no GOT slot for '%s' in the binary",
					  a->text, a->sym);
		if (!a->got && (!elf || !sym_value(elf, a->sym, &v)))
			return diag_error(d, SPAN_NONE, "'%s': no symbol '%s' in the binary",
					  a->text, a->sym);
		/*
		 * Read relative to the probe's own address (%ip at an SDT probe, which is never a
		 * return probe): the symbol's distance from the probe. Not @+OFFSET: Linux 4.20
		 * to the 2026 stable fix adds it twice (kcaps.h).
		 */
		v += a->disp;
		*fetch = xasprintf("%+" PRId64 "(%s)", (int64_t)(v - p->pc), arch_current()->ip_fetch);
		return 0;
	case SDT_ARG_LO12:
		/* the register holds SYM's 4 KiB page (adrp): the load bias keeps the low bits */
		if (!elf || !sym_value(elf, a->sym, &v))
			return diag_error(d, SPAN_NONE, "'%s': no symbol '%s' in the binary",
					  a->text, a->sym);
		*fetch = xasprintf("+%" PRIu64 "(%%%s)", ((v & 0xfff) + (uint64_t)a->disp),
				   a->reg);
		return 0;
	case SDT_ARG_BAD:
	default:
		return diag_error(d, SPAN_NONE, "%s", a->err ? a->err : a->text);
	}
}

/* ---- sdt_PROVIDER:NAME ---- */

static bool probe_matches(const struct probe_place *pl, const struct sdt_probe *p)
{
	return glob_match(pl->provider, p->provider) && glob_match(pl->func, p->name);
}

static char *sdt_label(const struct sdt_probe *p)
{
	return xasprintf("sdt_%s:%s", p->provider, p->name);
}

/* no_match() - the error for a place that matches no note, with the closest names */
static int no_match(const struct probe_place *pl, struct debuginfo *dbg,
		    const struct sdt_probe *ps, size_t n, struct diag *d)
{
	struct strbuf hint = STRBUF_INIT;
	char *want = xasprintf("sdt_%s:%s", pl->provider, pl->func);
	int best = -1, ret;

	if (!n) {
		ret = diag_error(d, pl->span, "%s has no SDT probes (no %s section)",
				 debuginfo_path(dbg), SDT_NOTE_SCN);
		free(want);
		return ret;
	}
	ret = diag_error(d, pl->span, "no SDT probe %s in %s", want, debuginfo_path(dbg));
	for (size_t i = 0; i < n; i++) {
		char *l = sdt_label(&ps[i]);
		int dist = str_distance(want, l);

		if (best < 0 || dist < best)
			best = dist;
		free(l);
	}
	for (size_t i = 0, k = 0; i < n && k < 8; i++) {
		char *l = sdt_label(&ps[i]);
		bool dup = false;

		for (size_t j = 0; j < i; j++)
			if (!strcmp(ps[j].provider, ps[i].provider) && !strcmp(ps[j].name, ps[i].name))
				dup = true;
		if (!dup && (n <= 8 || str_distance(want, l) <= best + 3)) {
			strbuf_addf(&hint, "%s%s", k ? ", " : "", l);
			k++;
		}
		free(l);
	}
	diag_hint(d, "SDT probes there: %s", hint.buf);
	strbuf_release(&hint);
	free(want);
	return ret;
}

struct sdt_ctx {
	const struct probe_spec *spec;
	struct debuginfo *dbg;
	const struct kernel_features *kf;
	const struct sdt_probe *p;
	struct trace_probe *tp;
	struct diag *d;
};

static char *uniq_field_name(const struct trace_probe *tp, const char *base)
{
	char *s = sanitize_ident(base, 32), *cand = xstrdup(s);

	for (int k = 1;; k++) {
		bool used = false;

		for (size_t i = 0; i < tp->nr_fields; i++)
			if (!strcmp(tp->fields[i].name, cand))
				used = true;
		if (!used)
			break;
		free(cand);
		cand = xasprintf("%.28s_%d", s, k);
	}
	free(s);
	return cand;
}

/*
 * add_value() - one user-visible value: a field NAME=FETCH:TYPE and its trace_arg
 * @type: the user's :TYPE, or NULL for @def_type (the note's size and sign)
 * @addr_fetch: for :string on an SDT argument, the fetch already names a pointer value:
 *              the string is at +0() of it
 */
static int add_value(struct sdt_ctx *c, const char *name, const char *expr, const char *fetch,
		     const char *type, const char *def_type, bool deref_for_string,
		     struct span sp)
{
	enum value_kind kind = VK_RAW;
	unsigned int size = 0, bits = 0;
	char *f = NULL, *n;
	const char *kt = type ? type : def_type;
	bool is_signed = false;
	struct trace_arg *a;
	int field;

	if (!strcmp(kt, "string") || !strcmp(kt, "ustring")) {
		if (deref_for_string && fetch[0] == '\\')
			return diag_error(c->d, sp, "'%s' is a constant, not a pointer to a string",
					  expr);
		kind = VK_CSTRING;
		f = deref_for_string ? xasprintf("+0(%s)", fetch) : xstrdup(fetch);
	} else if ((kt[0] == 's' || kt[0] == 'u' || kt[0] == 'x') &&
		   (!strcmp(kt + 1, "8") || !strcmp(kt + 1, "16") || !strcmp(kt + 1, "32") ||
		    !strcmp(kt + 1, "64"))) {
		kind = kt[0] == 's' ? VK_SIGNED : kt[0] == 'u' ? VK_UNSIGNED : VK_HEX;
		size = (unsigned int)atoi(kt + 1) / 8;
		is_signed = kt[0] == 's';
	} else if (!strcmp(kt, "b8@8/64")) {
		kind = def_type[0] == 's' ? VK_SIGNED : VK_UNSIGNED;
		size = 1;
		bits = 8;
		is_signed = kind == VK_SIGNED;
	} else if (!strcmp(kt, "bool")) {
		kind = VK_BOOL, size = 1, kt = "u8";
	} else if (!strcmp(kt, "char")) {
		kind = VK_CHAR, size = 1, is_signed = true, kt = c->kf->has_char ? "char" : "s8";
	} else if (!strcmp(kt, "sym") || !strcmp(kt, "symbol")) {
		kind = VK_SYM, size = 8, kt = "x64";
	} else if (!strcmp(kt, "float")) {
		kind = VK_FLOAT, size = 4, kt = "x32";
	} else if (!strcmp(kt, "double")) {
		kind = VK_FLOAT, size = 8, kt = "x64";
	}
	if (!f)
		f = xstrdup(fetch);
	n = uniq_field_name(c->tp, name);
	field = trace_probe_add_field(c->tp, n, f, kt, false);
	a = trace_probe_add_arg(c->tp);
	a->name = n;
	a->expr = xstrdup(expr);
	a->kind = kind;
	a->size = size;
	a->is_signed = is_signed;
	a->bit_width = bits;
	a->field = field;
	a->nr_fields = 1;
	free(f);
	return 0;
}

/* The note's argument @n (from 1) as a fetch, or an error at @sp. */
static int arg_fetch(struct sdt_ctx *c, long n, struct span sp, char **fetch)
{
	struct diag tmp;
	int ret;

	if (n < 1 || (size_t)n > c->p->nr_args) {
		char *l = sdt_label(c->p);

		if (c->p->nr_args == 1)
			ret = diag_error(c->d, sp, "%s has 1 argument ($arg1)", l);
		else if (c->p->nr_args)
			ret = diag_error(c->d, sp, "%s has %zu arguments ($arg1..$arg%zu)", l,
					 c->p->nr_args, c->p->nr_args);
		else
			ret = diag_error(c->d, sp, "%s has no arguments", l);
		free(l);
		return ret;
	}
	diag_init(&tmp, NULL);
	ret = sdt_arg_fetch(debuginfo_elf(c->dbg), c->p, &c->p->args[n - 1], fetch, &tmp);
	if (ret) {
		diag_error(c->d, sp, "$arg%ld of %s:%s: %s", n, c->p->provider, c->p->name,
			   tmp.msg ? tmp.msg : "cannot be read");
		diag_release(&tmp);
		return ret;
	}
	diag_release(&tmp);
	return 0;
}

static int add_note_arg(struct sdt_ctx *c, long n, const char *name, const char *type,
			struct span sp)
{
	char *fetch = NULL, *expr = xasprintf("$arg%ld", n);
	char *nm = name ? NULL : xasprintf("arg%ld", n);
	int ret = arg_fetch(c, n, sp, &fetch);

	if (!ret)
		ret = add_value(c, name ? name : nm, expr, fetch, type,
				sdt_arg_type(&c->p->args[n - 1]), true, sp);
	if (!ret)
		c->tp->args[c->tp->nr_args - 1].type_name = xstrdup(c->p->args[n - 1].text);
	free(fetch);
	free(expr);
	free(nm);
	return ret;
}

/* A raw fetcharg in which "$argN" stands for the note's argument N: "+8($arg1):u32". */
static int add_raw(struct sdt_ctx *c, const struct probe_arg *pa, size_t pos)
{
	const char *s = pa->expr->name, *q;
	struct strbuf f = STRBUF_INIT;
	char *name = probe_arg_name(pa, pos), *expr;
	int ret = regs_fetch_check(c->d, pa->expr->span.start, s);

	if (ret)
		goto out;
	while ((q = strstr(s, "$arg")) && isdigit((unsigned char)q[4])) {
		char *end, *af;
		long n = strtol(q + 4, &end, 10);
		struct span sp = { pa->expr->span.start + (int)(q - pa->expr->name),
				   (int)(end - q) };

		strbuf_add(&f, s, q - s);
		ret = arg_fetch(c, n, sp, &af);
		if (ret)
			goto out;
		strbuf_addstr(&f, af);
		free(af);
		s = end;
	}
	strbuf_addstr(&f, s);
	expr = xstrdup(pa->expr->name);
	ret = add_value(c, name, expr, strbuf_cstr(&f), pa->type, "u64", false, pa->span);
	free(expr);
out:
	strbuf_release(&f);
	free(name);
	return ret;
}

static int add_args(struct sdt_ctx *c)
{
	const struct probe_spec *spec = c->spec;
	int ret = 0;

	if (!spec->nr_args) {
		/* as perf: every argument, arg1..argN */
		for (size_t k = 0; !ret && k < c->p->nr_args; k++)
			ret = add_note_arg(c, (long)k + 1, NULL, NULL, spec->place.span);
		return ret;
	}
	for (size_t i = 0; !ret && i < spec->nr_args; i++) {
		const struct probe_arg *pa = &spec->args[i];
		const struct expr *e = pa->expr;
		char *name, *expr;

		switch (e->kind) {
		case EXPR_SDT_ARG:
			ret = add_note_arg(c, e->index, pa->name, pa->type, e->span);
			break;
		case EXPR_PARAMS:
			for (size_t k = 0; !ret && k < c->p->nr_args; k++)
				ret = add_note_arg(c, (long)k + 1, NULL, NULL, e->span);
			break;
		case EXPR_RAW:
			ret = add_raw(c, pa, i);
			break;
		case EXPR_REG:
			name = probe_arg_name(pa, i);
			expr = xasprintf("%%%s", e->name);
			ret = regs_fetch_check(c->d, e->span.start, expr) ?:
			      add_value(c, name, expr, expr, pa->type, "u64", false, pa->span);
			free(name);
			free(expr);
			break;
		default:
			ret = diag_error(c->d, e->span, "an SDT probe's arguments are $arg1..$argN, "
					 "not variables");
			diag_hint(c->d, "upfront -V sdt_%s:%s lists them; +OFF($argN):TYPE reads "
				  "memory they point to", c->p->provider, c->p->name);
			break;
		}
	}
	return ret;
}

static bool same_fields(const struct trace_probe *a, const struct trace_probe *b)
{
	if (a->nr_fields != b->nr_fields)
		return false;
	for (size_t i = 0; i < a->nr_fields; i++)
		if (strcmp(a->fields[i].name, b->fields[i].name) ||
		    strcmp(a->fields[i].type, b->fields[i].type))
			return false;
	return true;
}

/* event_ident() - @s as a tracefs name: kept as is when it is a C identifier ("gc__start",
 * as perf keeps it), else made one by sanitize_ident() */
static char *event_ident(const char *s)
{
	bool ok = (isalpha((unsigned char)*s) || *s == '_') && strlen(s) <= 63;

	for (const char *p = s; ok && *p; p++)
		ok = isalnum((unsigned char)*p) || *p == '_';
	return ok ? xstrdup(s) : sanitize_ident(s, 63);
}

/*
 * name_events() - event NAME (or EVENT=) in group sdt_PROVIDER (or -g), as perf names them;
 * the copies of one probe share an event where the kernel allows it (same field names and
 * types), else they get NAME_1, NAME_2 as perf names a second probe
 */
static void name_events(const struct probe_spec *spec, const char *group,
			struct trace_probe *tps, const struct sdt_probe *ps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *g = group ? xstrdup(group) : xasprintf("sdt_%s", ps[i].provider);
		char *base = event_ident(spec->event ? spec->event : ps[i].name);

		tps[i].group = event_ident(g);
		tps[i].event = xstrdup(base);
		for (int k = 1;; k++) {
			bool clash = false;

			for (size_t j = 0; j < i; j++) {
				if (strcmp(tps[j].group, tps[i].group) ||
				    strcmp(tps[j].event, tps[i].event))
					continue;
				/* a copy of the same probe with the same fields joins the event */
				if (!strcmp(ps[j].provider, ps[i].provider) &&
				    !strcmp(ps[j].name, ps[i].name) && same_fields(&tps[j], &tps[i]))
					continue;
				clash = true;
			}
			if (!clash)
				break;
			free(tps[i].event);
			tps[i].event = xasprintf("%.58s_%d", base, k);
		}
		free(base);
		free(g);
	}
}

int sdt_resolve(const struct probe_spec *spec, struct debuginfo *dbg, const char *group,
		const struct kernel_features *kf, struct trace_probe **tps, size_t *nr,
		struct diag *d)
{
	struct sdt_probe *ps = NULL;
	struct trace_probe *out = NULL;
	size_t n = 0;
	int ret;

	*tps = NULL;
	*nr = 0;
	ret = sdt_find(spec, dbg, &ps, &n, d);
	if (ret)
		return ret;
	out = xcalloc(n, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		const struct sdt_probe *p = &ps[i];
		struct trace_probe *tp = &out[i];
		struct sdt_ctx c = { spec, dbg, kf, p, tp, d };

		tp->path = xstrdup(debuginfo_path(dbg));
		tp->kpath = xstrdup(debuginfo_kernel_path(dbg));
		tp->build_id = debuginfo_build_id(dbg) ? xstrdup(debuginfo_build_id(dbg)) : NULL;
		tp->func = sdt_label(p);
		tp->vaddr = p->pc;
		tp->offset = p->pc_offset;
		tp->ref_ctr_offset = p->sem_offset;
		if (!p->pc_offset) {
			ret = diag_error(d, spec->place.span, "%s:%s at 0x%" PRIx64 " is in no "
					 "executable segment of %s", p->provider, p->name, p->pc,
					 debuginfo_path(dbg));
			goto out;
		}
		if (p->sem && !p->sem_offset) {
			ret = diag_error(d, spec->place.span, "the semaphore of %s:%s at 0x%" PRIx64
					 " is in no segment of %s", p->provider, p->name, p->sem,
					 debuginfo_path(dbg));
			goto out;
		}
		if (p->sem && !kf->has_ref_ctr) {
			ret = diag_error(d, spec->place.span, "sdt_%s:%s is guarded by a semaphore, "
					 "and this kernel's uprobes cannot count one (no "
					 "ref_ctr_offset in tracefs README; Linux 4.20+)", p->provider,
					 p->name);
			diag_hint(d, "the program only takes the probe's path while the semaphore at "
				  "0x%" PRIx64 " is non-zero", p->sem);
			goto out;
		}
		ret = add_args(&c);
		if (ret)
			goto out;
	}
	name_events(spec, group, out, ps, n);
	for (size_t i = 0; i < n; i++) {
		ret = fallback_fields(&out[i], kf, d);
		if (!ret)
			ret = fetcharg_check_limits(&out[i], kf, d);
		if (ret)
			goto out;
	}
	pr_debug("%zu SDT site(s) for sdt_%s:%s", n, spec->place.provider, spec->place.func);
	*tps = out;
	*nr = n;
	out = NULL;
out:
	for (size_t i = 0; out && i < n; i++)
		trace_probe_release(&out[i]);
	free(out);
	sdt_probes_free(ps, n);
	return ret;
}

int sdt_list_vars(const struct probe_spec *spec, struct debuginfo *dbg, struct strbuf *out,
		  struct diag *d)
{
	struct sdt_probe *ps = NULL;
	size_t n = 0;
	int ret;

	ret = sdt_find(spec, dbg, &ps, &n, d);
	if (ret)
		return ret;
	for (size_t i = 0; i < n; i++) {
		const struct sdt_probe *p = &ps[i];
		struct strbuf where = STRBUF_INIT;

		/* the note's names and texts are the binary's: escaped, each on its line */
		strbuf_addstr(out, "Available arguments at sdt_");
		escape_name(out, p->provider);
		strbuf_addch(out, ':');
		escape_name(out, p->name);
		strbuf_addch(out, '\n');
		if (debuginfo_symbolize(dbg, p->pc, &where)) {
			strbuf_addf(out, "        @<0x%" PRIx64 ">", p->pc);
		} else {
			strbuf_addstr(out, "        @<");
			escape_name(out, where.buf);
			strbuf_addf(out, "> (0x%" PRIx64 ")", p->pc);
		}
		if (p->sem)
			strbuf_addf(out, ", semaphore at 0x%" PRIx64, p->sem);
		strbuf_addch(out, '\n');
		strbuf_release(&where);
		if (!p->nr_args)
			strbuf_addstr(out, "\t\t(no arguments)\n");
		for (size_t k = 0; k < p->nr_args; k++) {
			const struct sdt_arg *a = &p->args[k];
			struct diag tmp;
			char *fetch = NULL;

			diag_init(&tmp, NULL);
			strbuf_addf(out, "\t\t%s\t$arg%zu\t", sdt_arg_type(a), k + 1);
			escape_name(out, a->text);
			strbuf_addch(out, '\t');
			if (sdt_arg_fetch(debuginfo_elf(dbg), p, a, &fetch, &tmp)) {
				strbuf_addstr(out, "(unreadable: ");
				escape_name(out, tmp.msg ? tmp.msg : "?");
				strbuf_addch(out, ')');
			} else {
				escape_name(out, fetch);
			}
			strbuf_addch(out, '\n');
			diag_release(&tmp);
			free(fetch);
		}
	}
	sdt_probes_free(ps, n);
	return 0;
}

int sdt_find(const struct probe_spec *spec, struct debuginfo *dbg, struct sdt_probe **out,
	     size_t *nr, struct diag *d)
{
	struct sdt_probe *ps = NULL;
	size_t nps = 0, n = 0;
	int ret;

	*out = NULL;
	*nr = 0;
	ret = sdt_probes_read(debuginfo_elf(dbg), &ps, &nps, d);
	if (ret)
		return ret;
	for (size_t i = 0; i < nps; i++) {
		struct sdt_probe tmp;

		if (!probe_matches(&spec->place, &ps[i]))
			continue;
		tmp = ps[n];	/* matches move to the front, in note order */
		ps[n++] = ps[i];
		ps[i] = tmp;
	}
	if (!n) {
		ret = no_match(&spec->place, dbg, ps, nps, d);
		sdt_probes_free(ps, nps);
		return ret;
	}
	for (size_t i = n; i < nps; i++)
		sdt_probe_release(&ps[i]);
	*out = ps;
	*nr = n;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sdt_list(struct debuginfo *dbg, const char *glob, struct strlist *out)
{
	struct sdt_probe *ps = NULL;
	struct strlist names = STRLIST_INIT;
	size_t nps = 0;
	struct diag d;
	int added = 0;

	diag_init(&d, NULL);
	if (sdt_probes_read(debuginfo_elf(dbg), &ps, &nps, &d))
		pr_info("%s", d.msg ? d.msg : "cannot read SDT notes");
	diag_release(&d);
	for (size_t i = 0; i < nps; i++) {
		char *l = sdt_label(&ps[i]);

		if (!glob || glob_match(glob, l))
			strlist_add(&names, l);
		free(l);
	}
	if (names.nr)
		qsort(names.v, names.nr, sizeof(*names.v), cmp_str);
	for (size_t i = 0; i < names.nr; i++) {
		if (i && !strcmp(names.v[i], names.v[i - 1]))
			continue;
		strlist_add(out, names.v[i]);
		added++;
	}
	strlist_release(&names);
	sdt_probes_free(ps, nps);
	return added;
}
