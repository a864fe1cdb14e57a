// SPDX-License-Identifier: GPL-2.0-or-later
/* lang-go.c - Go rules: strings, slices, interfaces, and results in ABI registers */
#define LOG_DOMAIN "lang-go"
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"
#include "log.h"
#include "regs.h"

static bool go_string_layout(Dwarf_Die *type, const char *name, struct lang_layout *l)
{
	(void)type;
	if (!name || strcmp(name, "string"))
		return false;
	*l = (struct lang_layout){ .ptr = "str", .len = "len" };
	return true;
}

static bool go_slice_layout(Dwarf_Die *type, const char *name, struct lang_layout *l)
{
	(void)type;
	if (!name || strncmp(name, "[]", 2))
		return false;
	*l = (struct lang_layout){ .ptr = "array", .len = "len" };
	return true;
}

/* A named interface is a typedef of runtime.iface { tab, data }; interface{} of
 * runtime.eface { _type, data }. */
static const char *go_iface_word(Dwarf_Die *type, const char *name)
{
	(void)type;
	if (!name)
		return NULL;
	if (!strcmp(name, "runtime.iface"))
		return "tab";
	if (!strcmp(name, "runtime.eface"))
		return "_type";
	return NULL;
}

/* The Go linker names every type as Go spells it ("*dns.Msg", "[]main.Item"). */
static void go_type_name(Dwarf_Die *type, struct strbuf *out)
{
	const char *name = dwarf_diename(type);

	if (name)
		strbuf_addstr(out, name);
	else
		lang_c_type_name(type, false, out);
}

const struct lang_ops lang_go = {
	.name		= "Go",
	.string_layout	= go_string_layout,
	.slice_layout	= go_slice_layout,
	.iface_word	= go_iface_word,
	.type_name	= go_type_name,
};

/* Register assignment of ABIInternal, for results. */
struct assign {
	struct loc *loc;
	int next_int;
	int next_float;
	int64_t at;		/* bytes of the value covered by pieces so far */
	bool fail;		/* does not fit in registers: the whole value is on the stack */
};

static void pad_to(struct assign *a, int64_t off)
{
	if (off > a->at) {
		struct loc_piece p = { .kind = LOC_NONE, .reg = -1,
				       .size = (unsigned int)(off - a->at) };

		loc_add_piece(a->loc, &p);
		a->at = off;
	}
}

static void take_int(struct assign *a, int64_t off, int64_t size)
{
	int reg = regs_go_abi_int(a->next_int++);
	struct loc_piece p = { .kind = LOC_VAL, .reg = reg, .size = (unsigned int)size };

	if (reg < 0) {
		a->fail = true;
		return;
	}
	pad_to(a, off);
	p.fetch = xasprintf("%%%s", regs_kernel_name(reg));
	loc_add_piece(a->loc, &p);
	free(p.fetch);
	a->at = off + size;
}

static void take_float(struct assign *a, int64_t off, int64_t size)
{
	struct loc_piece p = { .kind = LOC_BAD, .reg = -1, .size = (unsigned int)size };

	if (a->next_float >= 15) {
		a->fail = true;
		return;
	}
	pad_to(a, off);
	p.why = xasprintf("is in register xmm%d, which uprobes cannot read", a->next_float++);
	loc_add_piece(a->loc, &p);
	free(p.why);
	a->at = off + size;
}

static void assign_type(struct assign *a, Dwarf_Die *type, int64_t off, int depth)
{
	Dwarf_Die t, child;
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	int64_t size = lang_type_size(type);
	int tag = lang_strip(type, &t);

	if (a->fail || depth > 16)
		return;
	if (size == 0)
		return;
	switch (tag) {
	case DW_TAG_base_type:
		if (dwarf_attr(&t, DW_AT_encoding, &attr))
			dwarf_formudata(&attr, &enc);
		if (enc == DW_ATE_float) {
			take_float(a, off, size);
		} else if (enc == DW_ATE_complex_float) {
			take_float(a, off, size / 2);
			take_float(a, off + size / 2, size / 2);
		} else {
			take_int(a, off, size);
		}
		return;
	case DW_TAG_structure_type:
		if (dwarf_child(&t, &child) != 0)
			return;
		do {
			Dwarf_Die mt;
			int64_t moff;

			if (dwarf_tag(&child) != DW_TAG_member || !lang_type_of(&child, &mt) ||
			    !lang_member_offset(&child, &moff))
				continue;
			assign_type(a, &mt, off + moff, depth + 1);
		} while (!a->fail && dwarf_siblingof(&child, &child) == 0);
		return;
	case DW_TAG_array_type: {
		Dwarf_Die et;
		int64_t esize;

		if (!lang_type_of(&t, &et) || (esize = lang_type_size(&et)) <= 0) {
			a->fail = true;
			return;
		}
		if (size / esize == 1)
			assign_type(a, &et, off, depth + 1);
		else
			a->fail = true;
		return;
	}
	default:
		/* pointers, maps, channels, funcs, unsafe.Pointer: one word */
		take_int(a, off, size > 0 ? size : 8);
	}
}

static bool is_result(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	bool flag = false;

	return dwarf_tag(die) == DW_TAG_formal_parameter &&
	       dwarf_attr_integrate(die, DW_AT_variable_parameter, &attr) &&
	       dwarf_formflag(&attr, &flag) == 0 && flag;
}

int lang_go_results(Dwarf_Die *func, struct lang_result **res, size_t *nr)
{
	struct assign a = { 0 };
	Dwarf_Die child;
	size_t alloc = 0;

	*res = NULL;
	*nr = 0;
	if (dwarf_child(func, &child) != 0)
		return -ENOENT;
	do {
		struct lang_result *r;
		const char *name;
		int save_int, save_float;

		if (!is_result(&child))
			continue;
		ALLOC_GROW(*res, *nr + 1, alloc);
		r = &(*res)[(*nr)++];
		memset(r, 0, sizeof(*r));
		name = dwarf_diename(&child);
		r->name = xstrdup(name ? name : "~r");
		r->die = child;
		r->has_type = lang_type_of(&child, &r->type);
		a.loc = &r->loc;
		a.at = 0;
		a.fail = false;
		save_int = a.next_int;
		save_float = a.next_float;
		if (r->has_type)
			assign_type(&a, &r->type, 0, 0);
		if (a.fail) {
			struct loc_piece p = { .kind = LOC_BAD, .reg = -1 };

			/* a value that does not fit goes to the stack and frees its registers */
			a.next_int = save_int;
			a.next_float = save_float;
			loc_release(&r->loc);
			p.why = xstrdup("is returned on the stack, which upfront does not read yet");
			loc_add_piece(&r->loc, &p);
			free(p.why);
		} else if (!r->loc.nr) {
			struct loc_piece p = { .kind = LOC_IMM, .reg = -1 };

			loc_add_piece(&r->loc, &p);	/* a zero-sized value */
		} else if (r->loc.nr == 1) {
			r->loc.pieces[0].size = 0;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return *nr ? 0 : -ENOENT;
}

void lang_results_free(struct lang_result *res, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(res[i].name);
		loc_release(&res[i].loc);
	}
	free(res);
}
