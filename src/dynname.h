/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dynname.h - type words a traced process holds -> the dynamic types they stand for, in
 * whichever object of the process defines them (the probed binary, a library, the program) */
#ifndef UPF_DYNNAME_H
#define UPF_DYNNAME_H

#include <stdbool.h>
#include <stdint.h>

#include "fetcharg.h"

struct debuginfo;
struct symbolizer;
struct dynnames;

/*
 * A C++ object's vtable pointer points into the vtable of its dynamic type, which lives in
 * the object that defines the class: the probed library, the program, another library, or
 * the program's .bss, where a copy relocation moved a library's vtable (g++ -O0, a class whose
 * constructor is inlined into the program). A word is looked up in the probed binary first
 * (at the load base the probe address gives), then in every file the process maps
 * (symbolizer_module()); each (process, word) once, then one hash probe.
 */

/**
 * dynnames_new() - a cache of type word names over @sym's files (borrowed: it must outlive
 * the result)
 * Return: a handle for dynnames_free().
 */
struct dynnames *dynnames_new(struct symbolizer *sym);

/* dynnames_free() - free @dn; accepts NULL */
void dynnames_free(struct dynnames *dn);

/* Where a type word was read: the process and the probed binary's place in it. */
struct dyn_at {
	int tgid;
	struct debuginfo *dbg;	/* the probed binary, or NULL when the probe is not in it */
	uint64_t base;		/* its load base in @tgid */
};

/**
 * dynnames_text() - the dynamic type type word @w stands for, as it is shown
 * @kind: what the word is (DYN_CXX_VPTR, DYN_GO_TYPE, DYN_GO_ITAB, DYN_RUST_VTABLE)
 * @w2: DYN_GO_ITAB: the itab's _type word, which names the type of an itab made at run time
 *      (no symbol); else 0
 *
 * An unnamed word is shown as "<unknown vtable libfoo.so+0x1234>" (the file it lies in and
 * its address there), or "<unknown vtable 0x7f...>" when it lies in no file of the process
 * ("type" for Go's words): never as a bare number that looks like a value.
 * Return: "zoo::Dog" or the unknown text, valid until dynnames_free().
 */
const char *dynnames_text(struct dynnames *dn, const struct dyn_at *at, enum dyn_word kind,
			  uint64_t w, uint64_t w2);

/**
 * dynnames_accepts() - a GUARD_TYPE (fetcharg.h): whether type word @w is one the guard
 * accepts
 * @words: the vaddrs of the probed binary it accepts (sorted), compared with @w less the
 *         load base
 * @cls: a dynamic_cast<T *>'s T, or NULL; with it, a word none of @words is accepted when it
 *       points into the vtable of T or of a class derived from T, in any object of the
 *       process, at the address point of the subobject whose vtable pointer lies at @off
 *       in T
 * Return: 1 yes, 0 no (a NULL word too), -1 when it cannot be told (the word's class is
 * defined in no DWARF the process's objects have).
 */
int dynnames_accepts(struct dynnames *dn, const struct dyn_at *at, const uint64_t *words,
		     unsigned int nr, const char *cls, int64_t off, uint64_t w);

#endif
