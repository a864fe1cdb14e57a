/* SPDX-License-Identifier: GPL-2.0-or-later */
/* query.h - what the resolver knows at a place, as arrays: variables, fields of a type */
#ifndef UPF_QUERY_H
#define UPF_QUERY_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "probe.h"
#include "util.h"

struct debuginfo;
struct resolve_opts;

/* Whether a variable's value can be read at the site (-V marks the ones that cannot). */
enum query_state {
	QUERY_READABLE,		/* its location is valid here */
	QUERY_OPTIMIZED_OUT,	/* no location at this pc: "(optimized out here)" */
	QUERY_UNREADABLE,	/* a location uprobes cannot read: "(unreadable here)" */
};

/* One variable visible at a probe site. */
struct query_var {
	char *name;
	char *type;			/* as the language spells it: "*dns.Msg", "const Item &" */
	enum query_state state;
};

/* The variables at one probe site, innermost scope first, shadowed names left out. */
struct query_site {
	char *label;			/* the site for people: "luaH_get+0xd7", "0x401136" */
	struct query_var *vars;
	size_t nr;
	char *func;			/* the function as the language spells it, or NULL */
	bool has_dwarf;			/* false: no debug information covers the site */
};

/**
 * query_vars() - the variables visible at each probe site of @spec's place, with types
 * @spec: from parse_probe(); only its place is used
 * @o: the resolver's options (resolve.h)
 * @out: array owned by the caller, one element per probe site in address order (a glob
 *       gives several), freed with query_sites_free()
 * @nr: its length, at least 1 on success
 * @d: filled on failure (an unknown place)
 *
 * This is the one walk of the variables for people and programs: -V (resolve_list_vars())
 * prints its text from these arrays, the curses view completes names from them.
 *
 * Return: 0, or a negative errno with @d filled.
 */
int query_vars(const struct probe_spec *spec, struct debuginfo *dbg,
	       const struct resolve_opts *o, struct query_site **out, size_t *nr,
	       struct diag *d);

/**
 * query_sites_free() - free what query_vars() returned; accepts NULL
 */
void query_sites_free(struct query_site *s, size_t nr);

/**
 * query_fields() - the member names of the type of expression @expr at @spec's place
 * @spec: from parse_probe(); only its place is used
 * @expr: an argument expression as a probe takes it ("o", "o->customer", "r.Question[0]")
 * @out: names appended in declaration order, without duplicates (members of anonymous
 *       members, Go embedded structs and C++ bases included, as the resolver finds them)
 * @d: filled on failure
 *
 * Pointers and references are followed as the resolver follows them for '.' and '->', so
 * the names are exactly the fields "@expr.NAME" resolves. Only types are used: a pointer
 * that is optimized out at the place still has fields. At a glob's several sites, the
 * names of every site where @expr has a type, in order of first appearance.
 *
 * Return: 0 (with no names when the type is not a struct, class or union), or a negative
 * errno with @d filled when @expr does not parse or names nothing at any site.
 */
int query_fields(const struct probe_spec *spec, const char *expr, struct debuginfo *dbg,
		 const struct resolve_opts *o, struct strlist *out, struct diag *d);

#endif
