/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe.h - a probe as the user typed it: place and argument expressions (the AST) */
#ifndef UPF_PROBE_H
#define UPF_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

enum place_kind {
	PLACE_FUNC,	/* FUNC[@SRCFILE][:RELLINE | +OFFSET | %return] */
	PLACE_SRCLINE,	/* SRCFILE:LINE */
	PLACE_ADDR,	/* 0xADDR, a virtual address in the binary */
	PLACE_SDT,	/* sdt_PROVIDER:NAME or %sdt_PROVIDER:NAME: a USDT / SystemTap SDT note */
};

struct probe_place {
	enum place_kind kind;
	char *func;		/* PLACE_FUNC: name or glob as typed; PLACE_SDT: NAME (or glob) */
	char *provider;		/* PLACE_SDT: PROVIDER (or glob), without "sdt_" */
	/*
	 * @SRCFILE of PLACE_FUNC, or SRCFILE of PLACE_SRCLINE; NULL if none. FUNC@SUFFIX may
	 * name a symbol version instead (place.c decides); FUNC@@VERSION is kept as "@VERSION".
	 */
	char *srcfile;
	long line;		/* RELLINE (PLACE_FUNC, has_line) or LINE (PLACE_SRCLINE) */
	unsigned long offset;	/* +OFFSET (has_offset) */
	unsigned long addr;	/* PLACE_ADDR */
	bool has_line;
	bool has_offset;
	bool is_return;		/* %return */
	struct span span;	/* the whole place in probe_spec.text */
};

enum expr_kind {
	EXPR_VAR,	/* name: a parameter, local or global variable */
	EXPR_MEMBER,	/* base.name or base->name (interchangeable) */
	EXPR_INDEX,	/* base[index] */
	EXPR_DEREF,	/* *base */
	EXPR_REG,	/* %name: a register, passed as is */
	EXPR_RAW,	/* name holds a raw kernel fetcharg (+8(%di), @0x1234, $stack0 ...) */
	EXPR_RETVAL,	/* $retval */
	EXPR_PARAMS,	/* $params: every parameter */
	EXPR_VARS,	/* $vars: every variable visible at the place */
	EXPR_CAST,	/* (TYPE)base, (TYPE)(base), static_cast<TYPE>(base): base read as TYPE */
	EXPR_DYNCAST,	/* dynamic_cast<TYPE *>(base): base as TYPE * when the object's dynamic
			 * type is TYPE or derives from it, else null (decided when decoded) */
	EXPR_TYPEASSERT,/* base.(TYPE): a Go type assertion, null unless the interface value's
			 * dynamic type is TYPE (decided when decoded) */
	EXPR_TYPEID,	/* typeid(base): the name of base's dynamic type (C++ polymorphic
			 * object, Go interface value, Rust dyn Trait) */
	EXPR_GOID,	/* $goid: the current goroutine's id (Go) */
	EXPR_LEN,	/* len(base): the length of a Go map, slice or string, an array */
	EXPR_CAP,	/* cap(base): the capacity of a Go slice, an array */
	EXPR_SDT_ARG,	/* $argN: the Nth argument of an SDT probe (index = N, from 1) */
};

/* The tag word a C type name starts with ("struct inner"); C++ class names need none. */
enum type_tag {
	TYPE_TAG_NONE,
	TYPE_TAG_STRUCT,
	TYPE_TAG_UNION,
	TYPE_TAG_ENUM,
	TYPE_TAG_CLASS,
};

/*
 * A type as the user spelled it in a cast: "struct inner *", "unsigned long",
 * "caf::(anonymous namespace)::mailbox_element_wrapper *", "std::vector<int> *", Go's
 * "*main.T" and "[]byte". Resolved by name against the binary's DWARF.
 */
struct type_ref {
	char *text;		/* as typed, runs of blanks made one: "struct inner *" */
	char *name;		/* the type pointed to, without tag, qualifiers and '*'s:
				 * "inner", "unsigned long", "main.T", "[]byte" */
	enum type_tag tag;
	unsigned int nr_ptr;	/* pointer levels: '*'s after the name (C, C++) or before it
				 * (Go "*main.T") */
	bool go_prefix;		/* the '*'s came first, Go style */
	struct span span;	/* the whole type in probe_spec.text */
	struct span name_span;	/* @name in probe_spec.text */
};

struct expr {
	enum expr_kind kind;
	struct expr *base;	/* MEMBER, INDEX, DEREF, CAST, DYNCAST, TYPEASSERT, TYPEID */
	char *name;		/* VAR, MEMBER field, REG (without %), RAW text */
	struct type_ref *type;	/* CAST, DYNCAST, TYPEASSERT: the type named */
	long index;		/* INDEX; SDT_ARG: N */
	bool arrow;		/* MEMBER written with -> */
	bool key;		/* INDEX by a quoted key, m["Malone"]: @name holds it (a Go map's
				 * key; refused, see val_index()) */
	bool paren;		/* CAST: the operand was parenthesized, "(T)(p)": postfix after it
				 * applies to the cast, as in Go's conversion "(*main.T)(p).x" */
	struct span span;	/* the token this node came from (for a MEMBER: the field name;
				 * for CAST, DYNCAST, TYPEID: the whole construct; for a
				 * TYPEASSERT: ".(TYPE)") */
};

struct probe_arg {
	char *name;		/* NAME= given by the user, or NULL */
	struct expr *expr;
	char *type;		/* :TYPE given by the user, or NULL */
	struct span span;	/* the whole argument */
	struct span type_span;
};

/* What the user typed: owned by the spec, freed with probe_spec_release(). */
struct probe_spec {
	char *text;		/* the probe string; spans index into it */
	char *event;		/* EVENT= given by the user, or NULL */
	struct probe_place place;
	struct probe_arg *args;
	size_t nr_args;
};

#endif
