/* SPDX-License-Identifier: GPL-2.0-or-later */
/* resolve-internal.h - what the resolver's stages share: one probe site's context and values */
#ifndef UPF_RESOLVE_INTERNAL_H
#define UPF_RESOLVE_INTERNAL_H

/*
 * Internal to resolve*.c and query.c; nothing else includes it. The stages:
 *   resolve-scope.c  the place: scopes at the pc, variables visible there, globals
 *   resolve-value.c  an expression walked over DWARF types to a value and its location
 *   resolve-emit.c   a value as kernel fetch-args, by its type and language
 *   resolve.c        the driver: spec -> one trace_probe per site, event names
 *   query.c          names for people and completion: -V, variables, fields
 */

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

#include "lang.h"
#include "loc.h"
#include "place.h"
#include "resolve.h"

#define NAME_MAX_LEN 32		/* the kernel's limit on a field name */

/*
 * A pointer the value is reached through, fetched so a NULL link is seen as a fault; or a
 * runtime length an index is checked against (see enum guard_kind).
 */
struct guard {
	enum guard_kind kind;
	char *fetch;
	char *expr;
	uint64_t index;		/* GUARD_LEN, GUARD_END */
	char *base;		/* GUARD_END: fetch of the data pointer */
	unsigned int elem;	/* GUARD_END: element size */
};

/* A value on its way to kernel fields: a type and where it lives at the probe address. */
struct val {
	Dwarf_Die type;
	bool has_type;
	struct loc loc;
	unsigned int bit_size;		/* a bitfield, or a part of a register: bits */
	unsigned int bit_off;
	unsigned int bit_container;	/* bits of what @loc fetches */
	bool is_vptr;			/* a C++ vtable pointer member: shown as a symbol */
	bool raw;			/* a raw fetcharg: kernel semantics, typed as written */
	unsigned int dim;		/* an array @type: how many of its dimensions are indexed
					 * already (m[1] of int m[3][4] is an int[4]) */
	char *what;			/* the expression so far, for messages ("r->Question") */
};

/* Everything about one probe site while its arguments are resolved. */
struct rctx {
	const struct probe_spec *spec;
	struct debuginfo *dbg;
	const struct resolve_opts *o;
	const struct probe_site *site;
	struct diag *d;
	Dwarf *dw;
	Dwarf_Addr bias;
	Dwarf_Die cu;
	bool has_cu;
	Dwarf_Die *scopes;		/* rctx_ensure_scopes() */
	int nscopes;
	bool scopes_done;
	Dwarf_Die func;			/* the out-of-line subprogram holding the pc */
	bool has_func;
	Dwarf_Die here;			/* the function probed (maybe an inlined copy) */
	bool has_here;
	struct loc_ctx lc;
	const struct lang_ops *lang;
	char *where;			/* "func+0x12" for messages */
	bool types_only;		/* query.c: only types matter; a variable's location is
					 * not read (an optimized-out pointer still has fields) */
	struct trace_probe *tp;
	struct guard guards[TRACE_ARG_MAX_GUARDS];
	int nr_guards;
	const char *claim;		/* the NAME= of the argument being emitted, or NULL */
};

/* What a rctx_locals_visit() callback did with a variable. */
enum visit {
	VISIT_SKIP,	/* not counted: an outer variable of the same name may still come */
	VISIT_TAKE,	/* counted: it shadows outer variables of its name */
	VISIT_STOP,	/* done: end the walk */
};

typedef enum visit (*local_fn)(struct rctx *rc, Dwarf_Die *scope, Dwarf_Die *var,
			       const char *name, void *arg);

static inline bool tag_is_pointer(int tag)
{
	return tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type ||
	       tag == DW_TAG_rvalue_reference_type;
}

static inline bool tag_is_struct(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	       tag == DW_TAG_union_type;
}

/* ---- the place (resolve-scope.c) ---- */

/**
 * rctx_init() - the context of one probe site: its CU, function, language, frame
 * @rc: filled; release with rctx_release()
 * @d: where errors of this site go (borrowed)
 * Return: 0.
 */
int rctx_init(struct rctx *rc, const struct probe_spec *spec, struct debuginfo *dbg,
	      const struct resolve_opts *o, const struct probe_site *site, struct diag *d);

/* rctx_release() - free what rctx_init() and the walks allocated */
void rctx_release(struct rctx *rc);

/**
 * rctx_locals_visit() - call @fn for each named parameter and local visible at the pc,
 * innermost scope first; a name @fn took hides the same name in outer scopes (shadowing)
 * Return: true when @fn stopped the walk.
 */
bool rctx_locals_visit(struct rctx *rc, local_fn fn, void *arg);

/**
 * rctx_type_name() - @type as the site's language spells it
 * @has_type: false for no type: "void" ("unsafe.Pointer" in Go)
 * Return: a new string for free().
 */
char *rctx_type_name(struct rctx *rc, Dwarf_Die *type, bool has_type);

/* die_is_go_result() - true for a Go function's result (DW_AT_variable_parameter) */
bool die_is_go_result(Dwarf_Die *die);

/* ---- values (resolve-value.c) ---- */

/* val_release() - free @v's location and text; @v is left zeroed */
void val_release(struct val *v);

/**
 * val_eval() - expression @e at the site: its type and location, with the pointers it is
 * reached through recorded as guards in @rc
 * @out: filled (release with val_release() in any case)
 * Return: 0, or a negative errno with rc->d naming the token.
 */
int val_eval(struct rctx *rc, const struct expr *e, struct val *out);

/**
 * val_follow_pointers() - follow pointers and references until @v is not one; stops at
 * void pointers
 * @tag_out: the DW_TAG of the type reached, 0 when @v has no type
 * @stripped: that type without typedefs and qualifiers
 * Return: 0, or a negative errno with rc->d filled.
 */
int val_follow_pointers(struct rctx *rc, struct val *v, struct span sp, int *tag_out,
			Dwarf_Die *stripped);

#endif
