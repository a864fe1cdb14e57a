// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf-index-raw.c - the function index read from .debug_info's bytes (hostile input) */
#include <dwarf.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#define LOG_DOMAIN "dwarf-index"
#include "dwarf-aux.h"
#include "dwarf-index-raw.h"
#include "lang.h"
#include "leb128.h"
#include "log.h"
#include "util.h"

/*
 * The index needs little of each DIE: this reads .debug_info directly with the unit's abbrev
 * table, skips attribute values by their form, jumps over subtrees with DW_AT_sibling, and
 * decodes only the names and references of the DIEs dw_index_walk() would visit, with the
 * same rules. Whatever it does not understand makes it give up; the caller then walks the
 * DIEs through libdw. Every read is bounded by the unit's or the section's end: a value that
 * points outside is an error (the unit) or left to libdw (a name).
 */
struct rsec {
	const uint8_t *p;
	size_t size;
};

struct rattr {
	uint16_t at;
	uint16_t form;
	int size;		/* form_fixed_size() for the table's unit parameters */
	int64_t implicit;
};

struct rabbrev {
	uint32_t tag;
	uint32_t first;		/* index in rtable.attrs */
	uint16_t nattr;
	bool children;
	bool code;		/* DW_AT_low_pc or DW_AT_ranges */
	bool inline_;		/* DW_AT_inline */
	bool sibling;		/* DW_AT_sibling of a DIE with children */
	int fixed;		/* bytes of all attribute values when constant, else -1 */
};

struct rtable {
	uint64_t off;
	int addr_size, off_size, version;	/* what fixed was computed for */
	struct rabbrev *ab;	/* by code; tag 0: no such code */
	size_t nr_ab, alloc_ab;
	struct rattr *attrs;
	size_t nr_attrs, alloc_attrs;
	bool valid;
};

struct runit {
	uint64_t start;		/* offset of the unit header */
	const uint8_t *end;
	int addr_size, off_size, version;
	uint64_t str_off_base;
	bool have_str_off_base;
};

/* a subprogram DIE's own names and references, for dwarf_attr_integrate()'s rules */
struct rdecl {
	uint64_t off;
	const char *name, *linkage, *mips;
	uint64_t origin, spec;	/* offsets in the main file; ~0: none or elsewhere */
	bool has_origin, has_spec;	/* the attribute is there at all */
	bool unread;		/* an attribute only libdw can read */
};

struct rscan {
	struct dw_index *idx;
	Dwarf *dw;
	struct rsec info, abbrev, str, line_str, str_offsets;
	struct rsec alt_info, alt_str;
	struct rtable tab;
	struct rdecl *decls;	/* every subprogram scanned, by offset */
	size_t nr_decls, alloc_decls;
};

#define ROFF_NONE UINT64_MAX

static bool rsec_get(Elf *elf, const char *want, struct rsec *out)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	memset(out, 0, sizeof(*out));
	if (!elf || elf_getshdrstrndx(elf, &shstrndx) < 0)
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
		const char *name = sh ? elf_strptr(elf, shstrndx, sh->sh_name) : NULL;
		Elf_Data *data;

		if (!name || strcmp(name, want))
			continue;
		if ((sh->sh_flags & SHF_COMPRESSED) || sh->sh_type == SHT_NOBITS)
			return false;
		data = elf_rawdata(scn, NULL);
		if (!data || !data->d_buf)
			return false;
		out->p = data->d_buf;
		out->size = data->d_size;
		return true;
	}
	return false;
}


static inline uint64_t rd_n(const uint8_t *p, int n)
{
	uint64_t v = 0;

	/* little-endian only: x86-64 */
	memcpy(&v, p, n);
	return v;
}

/* the size of a value of @form when it does not depend on the data, else -1 (-2: unknown) */
static int form_fixed_size(unsigned form, const struct runit *u)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag: case DW_FORM_strx1:
	case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2: case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3: case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_strx4: case DW_FORM_addrx4:
	case DW_FORM_ref_sup4:
		return 4;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8: case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return u->addr_size;
	case DW_FORM_ref_addr:
		return u->version == 2 ? u->addr_size : u->off_size;
	case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_sec_offset:
	case DW_FORM_strp_sup: case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt:
		return u->off_size;
	case DW_FORM_string: case DW_FORM_block: case DW_FORM_block1: case DW_FORM_block2:
	case DW_FORM_block4: case DW_FORM_exprloc: case DW_FORM_sdata: case DW_FORM_udata:
	case DW_FORM_ref_udata: case DW_FORM_strx: case DW_FORM_addrx: case DW_FORM_loclistx:
	case DW_FORM_rnglistx: case DW_FORM_indirect: case DW_FORM_GNU_addr_index:
	case DW_FORM_GNU_str_index:
		return -1;
	default:
		return -2;
	}
}

/* skip one value; false on an unknown form or past @end */
static bool form_skip(const uint8_t **pp, const uint8_t *end, unsigned form,
		      const struct runit *u)
{
	const uint8_t *p = *pp, *nul;
	int n = form_fixed_size(form, u);
	uint64_t len = 0;

	if (n == -2)
		return false;
	if (n >= 0) {
		if (n > end - p)
			return false;
		*pp = p + n;
		return true;
	}
	switch (form) {
	case DW_FORM_string:
		nul = memchr(p, 0, end - p);
		if (!nul)
			return false;
		*pp = nul + 1;
		return true;
	case DW_FORM_block:
	case DW_FORM_exprloc:
		len = leb128_u(&p, end);
		break;
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
		n = form == DW_FORM_block1 ? 1 : form == DW_FORM_block2 ? 2 : 4;
		if (n > end - p)
			return false;
		len = rd_n(p, n);
		p += n;
		break;
	case DW_FORM_sdata:
		leb128_s(&p, end);
		break;
	case DW_FORM_indirect:
		form = leb128_u(&p, end);
		if (form == DW_FORM_indirect || form == DW_FORM_implicit_const ||
		    !form_skip(&p, end, form, u))
			return false;
		break;
	default:	/* the ULEB128 ones */
		leb128_u(&p, end);
		break;
	}
	if (len > (uint64_t)(end - p))
		return false;
	*pp = p + len;
	return true;
}

/* read a constant, reference or string offset of a fixed or ULEB form */
static bool form_read(const uint8_t **pp, const uint8_t *end, unsigned form,
		      const struct runit *u, int64_t implicit, uint64_t *val)
{
	const uint8_t *p = *pp;
	int n = form_fixed_size(form, u);

	if (form == DW_FORM_implicit_const) {
		*val = implicit;
		return true;
	}
	if (form == DW_FORM_indirect) {
		form = leb128_u(&p, end);
		*pp = p;
		return form != DW_FORM_indirect && form != DW_FORM_implicit_const &&
		       form_read(pp, end, form, u, 0, val);
	}
	if (n > 8 || n == -2)
		return false;
	if (n >= 0) {
		if (end - p < n)
			return false;
		*val = rd_n(p, n);
		*pp = p + n;
		return true;
	}
	if (form == DW_FORM_sdata) {
		*val = leb128_s(&p, end);
		*pp = p;
		return true;
	}
	if (form == DW_FORM_udata || form == DW_FORM_ref_udata || form == DW_FORM_strx ||
	    form == DW_FORM_GNU_str_index) {
		*val = leb128_u(&p, end);
		*pp = p;
		return true;
	}
	return false;
}

static void rtable_release(struct rtable *t)
{
	free(t->ab);
	free(t->attrs);
	memset(t, 0, sizeof(*t));
}

/* parse the abbrev table at @off for unit @u (kept while units share it) */
static bool rtable_load(struct rscan *s, uint64_t off, const struct runit *u)
{
	struct rtable *t = &s->tab;
	const uint8_t *p, *end = s->abbrev.p + s->abbrev.size;

	if (t->valid && t->off == off && t->addr_size == u->addr_size &&
	    t->off_size == u->off_size && t->version == u->version)
		return true;
	t->valid = false;
	t->nr_ab = t->nr_attrs = 0;
	if (off >= s->abbrev.size)
		return false;
	p = s->abbrev.p + off;
	for (;;) {
		uint64_t code = leb128_u(&p, end);
		struct rabbrev ab = { 0 };

		if (!code)
			break;
		if (p >= end || code > (1u << 20))
			return false;
		ab.tag = leb128_u(&p, end);
		if (p >= end)
			return false;
		ab.children = *p++ == DW_CHILDREN_yes;
		ab.first = t->nr_attrs;
		ab.nattr = 0;
		ab.fixed = 0;
		for (;;) {
			uint64_t at = leb128_u(&p, end), form = leb128_u(&p, end);
			int64_t ic = 0;
			int n;

			if (p >= end)
				return false;
			if (!at && !form)
				break;
			if (form == DW_FORM_implicit_const)
				ic = leb128_s(&p, end);
			n = form_fixed_size(form, u);
			if (n == -2 || at > 0xffff || form > 0xffff || ab.nattr == UINT16_MAX)
				return false;
			if (n < 0 || ab.fixed < 0)
				ab.fixed = -1;
			else
				ab.fixed += n;
			if (at == DW_AT_low_pc || at == DW_AT_ranges)
				ab.code = true;
			if (at == DW_AT_inline)
				ab.inline_ = true;
			if (at == DW_AT_sibling)
				ab.sibling = true;
			ALLOC_GROW(t->attrs, t->nr_attrs + 1, t->alloc_attrs);
			t->attrs[t->nr_attrs++] = (struct rattr){ at, form, n, ic };
			ab.nattr++;
		}
		if (code >= t->nr_ab) {
			size_t old = t->nr_ab;

			ALLOC_GROW(t->ab, code + 1, t->alloc_ab);
			memset(t->ab + old, 0, (code + 1 - old) * sizeof(*t->ab));
			t->nr_ab = code + 1;
		}
		if (!ab.tag)
			return false;
		t->ab[code] = ab;
	}
	t->off = off;
	t->addr_size = u->addr_size;
	t->off_size = u->off_size;
	t->version = u->version;
	t->valid = true;
	return true;
}

static const char *rstr_at(const struct rsec *sec, uint64_t off)
{
	if (!sec->p || off >= sec->size || !memchr(sec->p + off, 0, sec->size - off))
		return NULL;
	return (const char *)sec->p + off;
}

/* a string attribute's value; NULL when absent or not a string form we can read */
static const char *rstr(struct rscan *s, const struct runit *u, unsigned form, uint64_t v,
			const char *inl, bool *unread)
{
	const struct rsec *so = &s->str_offsets;
	uint64_t base;

	switch (form) {
	case DW_FORM_string:
		return inl;
	case DW_FORM_strp:
		return rstr_at(&s->str, v);
	case DW_FORM_line_strp:
		return rstr_at(&s->line_str, v);
	case DW_FORM_GNU_strp_alt:
		return rstr_at(&s->alt_str, v);
	case DW_FORM_strx: case DW_FORM_strx1: case DW_FORM_strx2: case DW_FORM_strx3:
	case DW_FORM_strx4: case DW_FORM_GNU_str_index:
		/* entry v of the unit's table in .debug_str_offsets, after the table's header */
		base = u->have_str_off_base ? u->str_off_base : 2 * (uint64_t)u->off_size;
		if (!so->p || base > so->size || v >= (so->size - base) / u->off_size) {
			*unread = true;
			return NULL;
		}
		return rstr_at(&s->str, rd_n(so->p + base + v * u->off_size, u->off_size));
	default:
		*unread = true;
		return NULL;
	}
}

/* what index_walk() would read of one DIE */
struct rdie {
	const char *name, *linkage, *mips;
	uint64_t origin, spec, sibling;	/* main-file offsets, ROFF_NONE when absent */
	const void *origin_addr;		/* abstract origin's bytes (main or alt file) */
	bool has_origin, has_spec;
	bool unread;				/* something only libdw can answer */
};

/*
 * Reference @v of form @form in attribute @at: its offset in the main file's .debug_info
 * into @d. One that leaves its unit (a CU-relative form) or the section, or goes to another
 * file, is left to libdw (@d->unread; a DW_AT_sibling is just not followed).
 */
static void rdie_ref(struct rscan *s, const struct runit *u, unsigned at, unsigned form,
		     uint64_t v, struct rdie *d)
{
	uint64_t unit_len = (uint64_t)(u->end - s->info.p) - u->start;

	switch (form) {
	case DW_FORM_ref1: case DW_FORM_ref2: case DW_FORM_ref4: case DW_FORM_ref8:
	case DW_FORM_ref_udata:
		if (v >= unit_len)
			goto unread;
		v += u->start;
		break;
	case DW_FORM_ref_addr:
		if (v >= s->info.size)
			goto unread;
		break;
	case DW_FORM_GNU_ref_alt:
		if (at == DW_AT_abstract_origin) {
			d->has_origin = true;
			if (s->alt_info.p && v < s->alt_info.size)
				d->origin_addr = s->alt_info.p + v;
			/* a name behind it: only libdw reads the alt file */
		}
		goto unread;
	default:
		goto unread;
	}
	if (at == DW_AT_abstract_origin) {
		d->has_origin = true;
		d->origin = v;
		d->origin_addr = s->info.p + v;
	} else if (at == DW_AT_specification) {
		d->has_spec = true;
		d->spec = v;
	} else {
		d->sibling = v;
	}
	return;
unread:
	if (at != DW_AT_sibling)
		d->unread = true;
}

/* the names and references of one DIE at *@pp (dw_index_walk()'s reads), the rest skipped */
static bool rdie_read(struct rscan *s, const struct runit *u, const struct rabbrev *ab,
		      const uint8_t **pp, struct rdie *d)
{
	const uint8_t *p = *pp;

	memset(d, 0, sizeof(*d));
	d->origin = d->spec = d->sibling = ROFF_NONE;
	for (unsigned i = 0; i < ab->nattr; i++) {
		const struct rattr *a = &s->tab.attrs[ab->first + i];
		unsigned form = a->form;
		const char *inl = (const char *)p, *str;
		uint64_t v = 0;

		switch (a->at) {
		case DW_AT_name:
		case DW_AT_linkage_name:
		case DW_AT_MIPS_linkage_name:
		case DW_AT_abstract_origin:
		case DW_AT_specification:
		case DW_AT_sibling:
			break;
		default:
			if (!form_skip(&p, u->end, form, u))
				return false;
			continue;
		}
		if (form == DW_FORM_indirect) {
			form = leb128_u(&p, u->end);
			inl = (const char *)p;
		}
		if (form == DW_FORM_string) {
			if (!form_skip(&p, u->end, form, u))
				return false;
		} else if (!form_read(&p, u->end, form, u, a->implicit, &v)) {
			if (!form_skip(&p, u->end, form, u))
				return false;
			d->unread = true;
			continue;
		}
		switch (a->at) {
		case DW_AT_name:
		case DW_AT_linkage_name:
		case DW_AT_MIPS_linkage_name:
			str = rstr(s, u, form, v, inl, &d->unread);
			if (a->at == DW_AT_name)
				d->name = str;
			else if (a->at == DW_AT_linkage_name)
				d->linkage = str;
			else
				d->mips = str;
			break;
		default:
			rdie_ref(s, u, a->at, form, v, d);
			break;
		}
	}
	*pp = p;
	return true;
}

/* skip a DIE's attribute values */
static inline bool rdie_skip(struct rscan *s, const struct runit *u, const struct rabbrev *ab,
			     const uint8_t **pp)
{
	const struct rattr *a = &s->tab.attrs[ab->first], *end = a + ab->nattr;

	if (ab->fixed >= 0) {
		if (ab->fixed > u->end - *pp)
			return false;
		*pp += ab->fixed;
		return true;
	}
	for (; a < end; a++) {
		if (a->size < 0) {
			if (!form_skip(pp, u->end, a->form, u))
				return false;
		} else if (a->size > u->end - *pp) {
			return false;
		} else {
			*pp += a->size;
		}
	}
	return true;
}

/* where @d's DW_AT_sibling says its subtree ends, when that is ahead of @p in the unit */
static const uint8_t *rdie_sibling(const struct rscan *s, const struct runit *u,
				   const struct rdie *d, const uint8_t *p)
{
	if (d->sibling == ROFF_NONE || d->sibling <= (uint64_t)(p - s->info.p) ||
	    d->sibling > (uint64_t)(u->end - s->info.p))
		return NULL;
	return s->info.p + d->sibling;
}

/*
 * The unit DIE at *@pp: the unit's language and string offsets base.
 * Return: 1 when its children follow, 0 when the unit has nothing for the index (no
 * children, a type unit), -1 on what only libdw reads.
 */
static int rscan_unit_die(struct rscan *s, struct runit *u, const uint8_t **pp, int *lang)
{
	const uint8_t *p = *pp;
	uint64_t code = leb128_u(&p, u->end);
	const struct rabbrev *ab;

	if (!code)
		return 0;
	if (code >= s->tab.nr_ab || !s->tab.ab[code].tag)
		return -1;
	ab = &s->tab.ab[code];
	if (ab->tag != DW_TAG_compile_unit && ab->tag != DW_TAG_partial_unit)
		return 0;
	for (unsigned i = 0; i < ab->nattr; i++) {
		const struct rattr *a = &s->tab.attrs[ab->first + i];
		uint64_t v;

		if (a->at != DW_AT_language && a->at != DW_AT_str_offsets_base) {
			if (!form_skip(&p, u->end, a->form, u))
				return -1;
			continue;
		}
		if (!form_read(&p, u->end, a->form, u, a->implicit, &v))
			return -1;
		if (a->at == DW_AT_language) {
			*lang = (int)v;
		} else {
			u->str_off_base = v;
			u->have_str_off_base = true;
		}
	}
	*pp = p;
	return ab->children ? 1 : 0;
}

/* a DIE whose subtree the index does not enter: past its attributes, or its subtree */
static bool rscan_pass(struct rscan *s, const struct runit *u, const struct rabbrev *ab,
		       const uint8_t **pp, bool *jumped)
{
	const uint8_t *next;
	struct rdie d;

	if (!ab->children || !ab->sibling)
		return rdie_skip(s, u, ab, pp);
	if (!rdie_read(s, u, ab, pp, &d))
		return false;
	next = rdie_sibling(s, u, &d, *pp);
	if (next) {
		*pp = next;
		*jumped = true;
	}
	return true;
}

static bool scope_tag_lang(int tag, int lang)
{
	return lang_nests_names(lang) || tag == DW_TAG_namespace;
}

/* a namespace or type at @die: *@scope becomes its name for its children (@descend) */
static bool rscan_scope(struct rscan *s, const struct runit *u, const struct rabbrev *ab,
			const uint8_t *die, const uint8_t **pp, int lang, const char **scope,
			bool *descend)
{
	struct rdie d;
	const char *n;

	if (!rdie_read(s, u, ab, pp, &d))
		return false;
	if (!ab->children || !scope_tag_lang(ab->tag, lang))
		return true;
	*descend = true;
	n = d.name;
	if (!n && (d.has_origin || d.has_spec || d.unread)) {
		/* dwarf_diename() follows the references: ask libdw */
		Dwarf_Die dd;

		if (dwarf_offdie(s->dw, die - s->info.p, &dd))
			n = dwarf_diename(&dd);
	}
	if (n)
		*scope = dw_index_scope(s->idx, *scope, n);
	return true;
}

/* a subprogram or inlined copy at @die: an index entry when it has code or is abstract */
static bool rscan_func(struct rscan *s, const struct runit *u, const struct rabbrev *ab,
		       const uint8_t *die, const uint8_t **pp, int lang, const char *scope,
		       bool *descend)
{
	bool abstract = ab->tag == DW_TAG_subprogram && ab->inline_;
	struct dw_func *f;
	struct rdie d;

	if (!rdie_read(s, u, ab, pp, &d))
		return false;
	if (ab->tag == DW_TAG_subprogram) {
		ALLOC_GROW(s->decls, s->nr_decls + 1, s->alloc_decls);
		s->decls[s->nr_decls++] = (struct rdecl){
			.off = die - s->info.p,
			.name = d.name, .linkage = d.linkage, .mips = d.mips,
			.origin = d.origin, .spec = d.spec,
			.has_origin = d.has_origin, .has_spec = d.has_spec,
			.unread = d.unread,
		};
	}
	if (!ab->code && !abstract)
		return true;
	f = dw_index_add(s->idx);
	f->off = die - s->info.p;
	f->addr = die;
	f->lang = lang;
	f->has_code = ab->code;
	f->is_abstract = abstract;
	f->scope = scope;
	if (ab->tag == DW_TAG_inlined_subroutine) {
		f->inlined = true;
		f->origin = d.origin_addr;
	} else {
		/* names: resolved after the scan (they may follow the DIE) */
		f->decl = s->nr_decls;	/* 1-based */
	}
	*descend = ab->code;
	return true;
}

/* one DIE in a subtree the index enters; @descend: into its children too */
static bool rscan_die(struct rscan *s, const struct runit *u, const struct rabbrev *ab,
		      const uint8_t *die, const uint8_t **pp, int lang, const char **scope,
		      bool *descend, bool *jumped)
{
	switch (ab->tag) {
	case DW_TAG_namespace:
	case DW_TAG_module:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
		return rscan_scope(s, u, ab, die, pp, lang, scope, descend);
	case DW_TAG_subprogram:
	case DW_TAG_inlined_subroutine:
		return rscan_func(s, u, ab, die, pp, lang, *scope, descend);
	case DW_TAG_lexical_block:
		*descend = true;
		return rdie_skip(s, u, ab, pp);
	default:
		return rscan_pass(s, u, ab, pp, jumped);
	}
}

#define RSCAN_DEPTH 66

/* one unit's DIEs after its header at @p; false when it holds what only libdw reads */
static bool rscan_unit(struct rscan *s, struct runit *u, const uint8_t *p)
{
	const char *scope[RSCAN_DEPTH + 1];
	bool active[RSCAN_DEPTH + 1];
	int depth = 1, lang = 0, r;

	r = rscan_unit_die(s, u, &p, &lang);
	if (r <= 0)
		return r == 0;
	scope[0] = scope[1] = NULL;
	active[0] = active[1] = true;
	while (p < u->end) {
		const uint8_t *die = p;
		uint64_t code = leb128_u(&p, u->end);
		bool descend = false, jumped = false;
		const char *child_scope = NULL;
		const struct rabbrev *ab;

		if (!code) {
			if (depth-- == 0)
				return true;	/* padding after the unit DIE's children */
			continue;
		}
		if (code >= s->tab.nr_ab || !s->tab.ab[code].tag)
			return false;
		ab = &s->tab.ab[code];
		if (depth > RSCAN_DEPTH || !active[depth]) {
			/* inside a subtree dw_index_walk() does not enter */
			if (!rscan_pass(s, u, ab, &p, &jumped))
				return false;
		} else {
			child_scope = scope[depth];
			if (!rscan_die(s, u, ab, die, &p, lang, &child_scope, &descend, &jumped))
				return false;
		}
		if (jumped || !ab->children)
			continue;
		depth++;
		if (depth <= RSCAN_DEPTH) {
			active[depth] = descend && depth <= 65;
			scope[depth] = child_scope;
		}
	}
	/* some producers leave out the closing null entries */
	return true;
}

static int rdecl_cmp(const void *key, const void *elem)
{
	uint64_t k = *(const uint64_t *)key, o = ((const struct rdecl *)elem)->off;

	return k < o ? -1 : k > o;
}

/*
 * dwarf_attr_integrate() over the scanned subprograms: the attribute, else the abstract
 * origin's, else the specification's; false when the chain leaves what was scanned
 */
static bool rdecl_integrate(const struct rdecl *decls, size_t nr, const struct rdecl *r,
			    int which, const char **out)
{
	for (int chain = 0; chain < 9 && r; chain++) {
		const char *v = which == 0 ? r->name : which == 1 ? r->linkage : r->mips;
		uint64_t next;

		if (r->unread)
			return false;
		if (v) {
			*out = v;
			return true;
		}
		if (r->has_origin)
			next = r->origin;
		else if (r->has_spec)
			next = r->spec;
		else {
			*out = NULL;
			return true;
		}
		if (next == ROFF_NONE)
			return false;
		r = bsearch(&next, decls, nr, sizeof(*decls), rdecl_cmp);
	}
	return false;
}

/* the subprograms' names as dwarf_attr_integrate() finds them; libdw when the chain leaves */
static void rscan_names(struct rscan *s)
{
	size_t nr, through_libdw = 0;
	struct dw_func *v = dw_index_funcs(s->idx, &nr);

	for (size_t i = 0; i < nr; i++) {
		struct dw_func *f = &v[i];
		const struct rdecl *r;
		const char *lk = NULL;
		Dwarf_Die *die;

		if (!f->decl)
			continue;
		r = &s->decls[f->decl - 1];
		f->decl = 0;
		if (rdecl_integrate(s->decls, s->nr_decls, r, 0, &f->dwname) &&
		    rdecl_integrate(s->decls, s->nr_decls, r, 1, &lk) &&
		    (lk || rdecl_integrate(s->decls, s->nr_decls, r, 2, &lk))) {
			f->linkage = lk;
			continue;
		}
		die = dw_func_die(s->idx, f);
		through_libdw++;
		f->dwname = die ? die_string(die, DW_AT_name) : NULL;
		f->linkage = die ? die_linkage_name(die) : NULL;
	}
	pr_debug("raw DWARF scan: %zu function DIEs, %zu names through libdw", nr, through_libdw);
}

/*
 * The unit header at *@pp, into @u and @abbrev_off, *@pp then at the unit DIE.
 * Return: 1 for a unit to scan, 0 for one to pass over (type units), -1 when only libdw
 * reads it (split and skeleton units, DWARF 1, a malformed header).
 */
static int runit_header(struct rscan *s, const uint8_t **pp, struct runit *u,
			uint64_t *abbrev_off)
{
	const uint8_t *p = *pp, *end = s->info.p + s->info.size;
	uint64_t len = rd_n(p, 4);
	uint8_t unit_type;

	memset(u, 0, sizeof(*u));
	u->start = p - s->info.p;
	u->off_size = 4;
	p += 4;
	if (len == 0xffffffff) {
		if (end - p < 8)
			return -1;
		len = rd_n(p, 8);
		p += 8;
		u->off_size = 8;
	} else if (len >= 0xfffffff0) {
		return -1;
	}
	/* the longest header read below: version, unit type, address size, abbrev offset */
	if (len > (uint64_t)(end - p) || len < 4 + (uint64_t)u->off_size)
		return -1;
	u->end = p + len;
	u->version = rd_n(p, 2);
	p += 2;
	if (u->version >= 5) {
		unit_type = p[0];
		u->addr_size = p[1];
		*abbrev_off = rd_n(p + 2, u->off_size);
		p += 2 + u->off_size;
		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			return 0;
		if (unit_type != DW_UT_compile && unit_type != DW_UT_partial)
			return -1;	/* skeleton and split units: libdw */
	} else if (u->version >= 2) {
		*abbrev_off = rd_n(p, u->off_size);
		p += u->off_size;
		u->addr_size = *p++;
	} else {
		return -1;
	}
	if (u->addr_size != 4 && u->addr_size != 8)
		return -1;
	*pp = p;
	return 1;
}

bool dw_index_read_raw(struct dw_index *idx)
{
	Dwarf *dw = dw_index_dwarf(idx);
	struct rscan s = { .idx = idx, .dw = dw };
	Elf *elf = dwarf_getelf(dw);
	Dwarf *alt = dwarf_getalt(dw);
	const uint8_t *p, *end;
	bool ok = true;

	if (!rsec_get(elf, ".debug_info", &s.info) || !rsec_get(elf, ".debug_abbrev", &s.abbrev))
		return false;
	rsec_get(elf, ".debug_str", &s.str);
	rsec_get(elf, ".debug_line_str", &s.line_str);
	rsec_get(elf, ".debug_str_offsets", &s.str_offsets);
	if (alt) {
		rsec_get(dwarf_getelf(alt), ".debug_info", &s.alt_info);
		rsec_get(dwarf_getelf(alt), ".debug_str", &s.alt_str);
	}
	p = s.info.p;
	end = p + s.info.size;
	/* 11 bytes: the shortest unit header */
	while (ok && end - p >= 11) {
		const uint8_t *q = p;
		uint64_t abbrev_off;
		struct runit u;
		int r = runit_header(&s, &q, &u, &abbrev_off);

		if (r > 0)
			ok = rtable_load(&s, abbrev_off, &u) && rscan_unit(&s, &u, q);
		else
			ok = r == 0;
		if (ok)
			p = u.end;
	}
	rtable_release(&s.tab);
	if (ok)
		rscan_names(&s);
	else
		pr_debug("raw DWARF scan gave up at %#lx: libdw walks the DIEs",
			 (unsigned long)(p - s.info.p));
	free(s.decls);
	if (!ok)
		dw_index_clear(idx);
	return ok;
}
