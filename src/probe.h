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
};

struct probe_place {
	enum place_kind kind;
	char *func;		/* PLACE_FUNC: name or glob as typed */
	char *srcfile;		/* @SRCFILE of PLACE_FUNC, or SRCFILE of PLACE_SRCLINE; NULL if none */
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
};

struct expr {
	enum expr_kind kind;
	struct expr *base;	/* MEMBER, INDEX, DEREF */
	char *name;		/* VAR, MEMBER field, REG (without %), RAW text */
	long index;		/* INDEX */
	bool arrow;		/* MEMBER written with -> */
	struct span span;	/* the token this node came from (for a MEMBER: the field name) */
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
