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
#include "retsite.h"

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

/* A piece of @size bytes of a result, from where retsite.c says it is. */
static void add_piece(struct loc *l, const struct go_piece *gp, bool whole)
{
	struct loc_piece p = { .reg = -1, .size = whole ? 0 : gp->size };

	if (gp->reg) {
		p.kind = LOC_VAL;
		p.fetch = xasprintf("%%%s", gp->reg);
	} else if (gp->xmm >= 0) {
		p.kind = LOC_BAD;
		p.why = xasprintf("is in register xmm%d, which uprobes cannot read", gp->xmm);
	} else {
		p.kind = LOC_MEM;
		p.base = xstrdup("%sp");
		p.off = gp->sp_offset;
	}
	loc_add_piece(l, &p);
	free(p.fetch);
	free(p.base);
	free(p.why);
}

int lang_go_results(Dwarf_Die *func, struct lang_result **res, size_t *nr)
{
	struct go_result *gr = NULL;
	struct diag d;
	size_t n = 0;

	*res = NULL;
	*nr = 0;
	diag_init(&d, NULL);
	if (go_result_regs(func, &gr, &n, &d) || !n) {
		diag_release(&d);
		go_results_free(gr, n);
		return -ENOENT;
	}
	diag_release(&d);
	*res = xcalloc(n, sizeof(**res));
	for (size_t i = 0; i < n; i++) {
		struct lang_result *r = &(*res)[i];
		unsigned int at = 0;

		r->name = xstrdup(gr[i].name ? gr[i].name : "~r");
		r->die = gr[i].die;
		r->type = gr[i].type;
		r->has_type = gr[i].has_type;
		if (gr[i].on_stack) {
			struct loc_piece p = { .kind = LOC_MEM, .reg = -1, .off = gr[i].sp_offset };

			p.base = xstrdup("%sp");
			loc_add_piece(&r->loc, &p);
			free(p.base);
			continue;
		}
		if (gr[i].nr_pieces == 1 && gr[i].pieces[0].offset == 0) {
			add_piece(&r->loc, &gr[i].pieces[0], true);
			continue;
		}
		for (size_t k = 0; k < gr[i].nr_pieces; k++) {
			const struct go_piece *gp = &gr[i].pieces[k];

			if (gp->offset > at) {
				/* padding between fields */
				struct loc_piece pad = { .kind = LOC_NONE, .reg = -1,
							 .size = gp->offset - at };

				loc_add_piece(&r->loc, &pad);
			}
			add_piece(&r->loc, gp, false);
			at = gp->offset + gp->size;
		}
		if (!r->loc.nr) {
			struct loc_piece p = { .kind = LOC_IMM, .reg = -1 };

			loc_add_piece(&r->loc, &p);	/* a zero-sized value */
		}
	}
	*nr = n;
	go_results_free(gr, n);
	return 0;
}

void lang_results_free(struct lang_result *res, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(res[i].name);
		loc_release(&res[i].loc);
	}
	free(res);
}
