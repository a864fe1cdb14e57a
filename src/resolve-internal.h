/* SPDX-License-Identifier: GPL-2.0-or-later */
/* resolve-internal.h - what the resolver's stages share: one probe site's context and values */
#ifndef UPF_RESOLVE_INTERNAL_H
#define UPF_RESOLVE_INTERNAL_H

/*
 * Internal to resolve*.c and query.c; nothing else includes it. The stages:
 *   resolve-scope.c  the place: scopes at the pc, variables visible there, globals
 *   resolve-value.c  an expression walked over DWARF types to a value and its location
 *   resolve-dyn.c    typeid(), dynamic_cast<>, Go's EXPR.(T), $goid: type words and guards
 *   resolve-emit.c   a value as kernel fetch-args, by its type and language
 *   resolve-emit-dyn.c  type words and Go interface values as fetch-args
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

struct abi_value;

#define NAME_MAX_LEN 32		/* the kernel's limit on a field name */

/*
 * A pointer the value is reached through, fetched so a NULL link is seen as a fault; or a
 * runtime length an index is checked against (see enum guard_kind).
 */
struct guard {
	enum guard_kind kind;
	char *fetch;
	char *expr;
	uint64_t index;		/* GUARD_LEN, GUARD_END; GUARD_TYPE: tells guards on one word
				 * apart; GUARD_PTR, GUARD_NIL: added to the word fetched (the
				 * pointer is a register plus a constant) */
	char *base;		/* GUARD_END: fetch of the data pointer; GUARD_TYPE: of a second
				 * type word (a Go itab's _type), or NULL */
	unsigned int elem;	/* GUARD_END: element size */
	uint64_t *words;	/* GUARD_TYPE: the accepted vaddrs, sorted */
	unsigned int nr_words;
	char *cls;		/* GUARD_TYPE of a dynamic_cast<T *>: T, decided at decode time
				 * for words not in @words (trace_arg.guard_class) */
	int64_t cls_off;	/* where the vtable pointer lies in T */
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
	enum dyn_word typeid;		/* typeid(): @loc is a type word of this kind, shown as
					 * the name of the dynamic type it stands for */
	char *typeid_type;		/* typeid() of a Go interface: the fetch of its itab's
					 * _type word */
	char *typeid_class;		/* typeid() of a C++ object: its static class, whose
					 * vtable pointer lies at @typeid_off in it */
	int64_t typeid_off;
	bool addr_of;			/* dynamic_cast<> alone: shown as the address of the
					 * object @loc describes */
	bool raw;			/* a raw fetcharg: kernel semantics, typed as written */
	unsigned int dim;		/* an array @type: how many of its dimensions are indexed
					 * already (m[1] of int m[3][4] is an int[4]) */
	int64_t adj;			/* a pointer: bytes to add to it before it is followed
					 * (a C++ cast to a base class that is not at offset 0, or
					 * from one to a derived class: static_cast's adjustment) */
	unsigned int ptrs;		/* pointer levels above @type that the DWARF has no DIE
					 * for: a cast to "T *" where the binary never names T *
					 * (1: a T *; @has_type false: a void *) */
	char *what;			/* the expression so far, for messages ("r->Question") */
	const struct expr *map_key;	/* a Go map looked up by this EXPR_INDEX's key, decided
					 * when the event is decoded (emit_go_map()) */
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
	/* site->entry_abi: the parameters where the ABI passed them (abi_entry_params()) */
	struct abi_value *abi;
	size_t nr_abi;
	int abi_ret;			/* 0 when computed and usable, 1 before it is computed */
	const char *abi_why;
	bool in_part;			/* emitting the fields of a Go interface's dynamic value:
					 * they are hidden fields, shared where they read the same */
	const struct expr *arg_expr;	/* the whole expression of the argument resolved */
	unsigned int part_string_size;	/* inside a whole value: bytes of each string with a
					 * length (0: resolve_opts.string_size) */
	/*
	 * The first parameter whose value is a float in a vector register here (floatcopy.c may
	 * find where the code copies it): its DIE offset (0: none), register and bytes
	 */
	uint64_t float_die;
	int float_vec;
	unsigned int float_size;
	char float_name[64];
	bool in_whole;			/* emitting a whole value's leaves: a C string past the
					 * :string limit is shown as its address */
	bool in_expansion;		/* emitting one of many values ($params, $vars, a Go
					 * function's results): a Go pointer stays an address */
	long whole_bytes;		/* record bytes the whole values of this probe took so
					 * far (--value-size is for all of them) */
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

/**
 * rctx_release() - free what rctx_init() and the walks allocated
 */
void rctx_release(struct rctx *rc);

/**
 * rctx_var_loc() - where variable @var is at the site: its DWARF location at the pc, or at
 * an entry read from the ABI (site->entry_abi) the parameter's register or stack slot there
 * @out: filled; release with loc_release() (also on failure)
 * @err: on failure the reason ("is not live yet at the entry")
 * Return: 0, or -EINVAL.
 */
int rctx_var_loc(struct rctx *rc, Dwarf_Die *var, struct loc *out, struct strbuf *err);

/**
 * rctx_abi_param_loc() - where the ABI passed parameter @var of the function probed (the
 * entry's locations, also where no instruction has run but Go's stack check)
 * @out: filled; release with loc_release() (also on failure)
 * @err: on failure the reason
 * Return: 0, or -EINVAL.
 */
int rctx_abi_param_loc(struct rctx *rc, Dwarf_Die *var, struct loc *out, struct strbuf *err);

/**
 * rctx_var_pieces() - check the location pieces of variable @var's value @out against the
 * size of its type: pieces that do not add up cannot say which bytes are where (Go 1.19's
 * golang/go#61700). A parameter read where the function is entered, before anything but
 * Go's stack check has run, is then where the ABI passed it; anything else is refused,
 * naming the compiler.
 * @what: the expression for messages
 * Return: 0 (@out's location replaced when it was broken), or -EINVAL with rc->d filled.
 */
int rctx_var_pieces(struct rctx *rc, Dwarf_Die *var, const char *what, struct span sp,
		    struct val *out);

/**
 * rctx_heap_local() - a Go local that escaped to the heap: its DWARF variable "&x" is the
 * pointer to it, which is followed (and guarded) so that x is the value
 * @out: the pointer, replaced by x; left alone for any other variable
 * Return: 0, or a negative errno with rc->d filled.
 */
int rctx_heap_local(struct rctx *rc, Dwarf_Die *var, struct span sp, struct val *out);

/**
 * rctx_locals_visit() - call @fn for each named parameter and local visible at the pc,
 * innermost scope first; a name @fn took hides the same name in outer scopes (shadowing).
 * A Go local that escaped to the heap ("&x" in DWARF) is given by its own name, x; its
 * DIE describes the pointer to it (val_from_die() follows it)
 * Return: true when @fn stopped the walk.
 */
bool rctx_locals_visit(struct rctx *rc, local_fn fn, void *arg);

/**
 * rctx_find_local() - the local or parameter @name visible at the pc, innermost first
 */
bool rctx_find_local(struct rctx *rc, const char *name, Dwarf_Die *out);

/**
 * rctx_find_global() - a global variable with a location, in the site's CU first, then in
 * every CU; "ns::var" walks namespaces and classes, Go's "main.config" is one name
 */
bool rctx_find_global(struct rctx *rc, const char *name, Dwarf_Die *out);

/**
 * rctx_go_regabi() - whether the site's CU is compiled for Go's register ABI (Go 1.17+),
 * which keeps the running goroutine (its runtime.g) in r14
 * @rc: the context
 * Return: true for Go code with "regabi" in its DW_AT_producer, outside an ABI0 function
 * (assembly: the linker names it "F.abi0"); false for those, Go before 1.17 and other
 * languages.
 */
bool rctx_go_regabi(struct rctx *rc);

/**
 * rctx_go_g_kept() - whether the site's Go code keeps the goroutine in the machine's g register
 * (arch_ops.g_fetch): under the register ABI (rctx_go_regabi()), or everywhere on a machine
 * whose Go reserves the register in all code (arm64's R28)
 */
bool rctx_go_g_kept(struct rctx *rc);

/**
 * rctx_go_g_member() - a member of runtime.g ($goid's "goid", durations' "stack.hi"), from
 * the binary's DWARF (the type of runtime.g0)
 * @rc: the context
 * @path: member names separated by '.', each a member of the previous one's type
 * @type: if not NULL, gets the last member's type
 * @off: gets its offset from the start of runtime.g (where r14 points)
 * Return: true when the DWARF has it.
 */
bool rctx_go_g_member(struct rctx *rc, const char *path, Dwarf_Die *type, int64_t *off);

/**
 * rctx_float_result() - a float result @l (one piece) in an xmm register, which uprobes cannot
 * read: where the code copied it from before returning (floatcopy_result()), else the piece's
 * reason says what that walk found
 * @size: the result's bytes
 */
void rctx_float_result(struct rctx *rc, struct loc *l, unsigned int size);

/**
 * rctx_list_locals() - "a, b, c": the names visible at the pc, for the "no variable" hint
 */
void rctx_list_locals(struct rctx *rc, struct strbuf *out);

/**
 * rctx_type_name() - @type as the site's language spells it
 * @has_type: false for no type: "void" ("unsafe.Pointer" in Go)
 * Return: a new string for free().
 */
char *rctx_type_name(struct rctx *rc, Dwarf_Die *type, bool has_type);

/**
 * rctx_go_results() - the Go results of the probed function at a return instruction, in
 * the ABI's result registers
 * @res: freed with abi_values_free()
 * Return: 0, or a negative errno with rc->d filled (the function returns nothing).
 */
int rctx_go_results(struct rctx *rc, struct abi_value **res, size_t *nr, struct span sp);

/* ---- values (resolve-value.c) ---- */

/**
 * val_release() - free @v's location and text; @v is left zeroed
 */
void val_release(struct val *v);

/**
 * val_from() - a new value of @v's type at @v's location, described as @v is: where a walk
 * into @v's parts starts (bit fields, indexed dimensions and adjustments are not copied)
 * @out: overwritten; release it with val_release()
 */
void val_from(struct val *out, const struct val *v);

/**
 * val_move() - replace *@v with *@n; @n is left zeroed
 */
void val_move(struct val *v, struct val *n);

/**
 * val_eval() - expression @e at the site: its type and location, with the pointers it is
 * reached through recorded as guards in @rc
 * @out: filled (release with val_release() in any case)
 * Return: 0, or a negative errno with rc->d naming the token.
 */
int val_eval(struct rctx *rc, const struct expr *e, struct val *out);

/**
 * val_from_die() - variable @var's value at the site, from its DWARF location at the pc
 * (any location under rc->types_only)
 * @what: the expression for messages
 * Return: 0, or a negative errno with rc->d saying why it cannot be read.
 */
int val_from_die(struct rctx *rc, Dwarf_Die *var, const char *what, struct span sp,
		 struct val *out);

/**
 * val_follow_pointers() - follow pointers and references until @v is not one; stops at
 * void pointers
 * @tag_out: the DW_TAG of the type reached, 0 when @v has no type
 * @stripped: that type without typedefs and qualifiers
 * Return: 0, or a negative errno with rc->d filled.
 */
int val_follow_pointers(struct rctx *rc, struct val *v, struct span sp, int *tag_out,
			Dwarf_Die *stripped);

/**
 * val_deref() - what pointer @v points to, plus @off bytes, as type @to (none when
 * !@has_to); the pointer is recorded as a guard
 * @what: the new value's expression for messages
 * Return: 0, or a negative errno with rc->d filled.
 */
int val_deref(struct rctx *rc, const struct val *v, int64_t off, Dwarf_Die *to,
	      bool has_to, const char *what, struct span sp, struct val *out);

/**
 * val_at_offset() - @v replaced by its part of type @type at byte @off
 * @what: the new value's expression for messages
 * Return: 0, or a negative errno with rc->d filled (a part of a split location that cannot
 * be read).
 */
int val_at_offset(struct rctx *rc, struct val *v, int64_t off, Dwarf_Die *type,
		  const char *what, struct span sp);

/**
 * val_bytes() - bytes [@off, @off + @size) of @v's location as a value of no type (one half of
 * a complex number or a 128-bit integer), described as @v is
 * @out: filled; release it with val_release() (also on failure)
 * Return: 0, or a negative errno with rc->d filled (a part split over pieces, optimized out).
 */
int val_bytes(struct rctx *rc, const struct val *v, int64_t off, int64_t size, struct span sp,
	     struct val *out);

/**
 * val_member_die() - @v replaced by its member @member (a DW_TAG_member, bit fields too) at
 * byte @off of @v's struct type
 * @what: the new value's expression for messages
 * Return: 0, or a negative errno with rc->d filled.
 */
int val_member_die(struct rctx *rc, struct val *v, Dwarf_Die *member, int64_t off,
		   const char *what, struct span sp);

/**
 * val_index() - @v replaced by @v[@idx]: an element of an array (a row of a multi-dimensional
 * one), pointer, slice, vector or string with a length (checked against its length when the
 * event is decoded: a guard)
 * Return: 0, or a negative errno with rc->d filled.
 */
int val_index(struct rctx *rc, struct val *v, long idx, const char *what, struct span sp);

/**
 * val_path() - @v replaced by its member at dotted path @path ("_M_dataplus._M_p"); 0, or a
 * negative errno with rc->d filled
 */
int val_path(struct rctx *rc, struct val *v, const char *path, struct span sp);

/**
 * val_word_fetch() - the fetcharg that reads @v as one word (a pointer, a length)
 * @fetch: a new string, NULL on failure
 * Return: 0, or a negative errno with rc->d filled.
 */
int val_word_fetch(struct rctx *rc, const struct val *v, struct span sp, char **fetch);

/**
 * val_word_fetch_add() - val_word_fetch() of a word that may be what the fetch reads plus a
 * constant (a LOC_VAL with an off: a caller's local's address, "%sp" + 16)
 * @add: gets the constant, which the caller adds where the kernel cannot (the decoder adds
 *       trace_arg.value_add; a dereference adds it to its offset)
 */
int val_word_fetch_add(struct rctx *rc, const struct val *v, struct span sp, char **fetch,
		       int64_t *add);

/**
 * val_piece_error() - the error for a location piece that cannot be read (optimized out, or an
 * operation uprobes cannot express); returns -EINVAL
 */
int val_piece_error(struct rctx *rc, const struct loc_piece *p, const char *what,
		    struct span sp);

/**
 * type_layout() - classify struct type @stripped by its language's rules
 * @slice: true: an indexable aggregate (Go slice, Rust Vec, std::vector); false: a string
 *         with a length (Go string, Rust &str/String, std::string)
 * Return: true with @l filled when it is one.
 */
bool type_layout(Dwarf_Die *stripped, bool slice, struct lang_layout *l);

/**
 * val_layout_ptr() - the data pointer of slice or string @v per layout @l
 * @out: filled; released again on failure (releasing it once more is harmless)
 * Return: 0, or a negative errno with rc->d filled.
 */
int val_layout_ptr(struct rctx *rc, const struct val *v, const struct lang_layout *l,
		   struct span sp, struct val *out);

/**
 * val_layout_len() - the length of slice or string @v per layout @l
 * @out: filled; released again on failure (releasing it once more is harmless)
 * Return: 0, or a negative errno with rc->d filled.
 */
int val_layout_len(struct rctx *rc, const struct val *v, const struct lang_layout *l,
		   struct span sp, struct val *out);

/**
 * type_array_dim() - the dimensions of array @arr left after @dim of them are indexed
 * @count: the element count of the next one (-1: not known)
 * @inner: the number of elements one step of it covers (the product of the dimensions
 *         after it; -1 when one of them is not known)
 * Return: the dimensions in all.
 */
int type_array_dim(Dwarf_Die *arr, unsigned int dim, int64_t *count, int64_t *inner);

/**
 * rctx_add_guard() - record a guard of @kind on @fetch (duplicates and guards past
 * TRACE_ARG_MAX_GUARDS are dropped: NULL); @expr names it in messages
 */
struct guard *rctx_add_guard(struct rctx *rc, enum guard_kind kind, const char *fetch,
			     const char *expr, uint64_t index);

/**
 * rctx_guards_clear() - forget the guards of the argument done
 */
void rctx_guards_clear(struct rctx *rc);

/**
 * rctx_guards_truncate() - forget the guards recorded after the first @n
 */
void rctx_guards_truncate(struct rctx *rc, int n);

/**
 * find_vptr() - the vtable pointer member of C++ class @type or of its bases
 * @suffix: the class gcc names it after ("_vptr.Base": "Base"), or NULL for the first found
 * @member: filled with the DW_TAG_member
 * @off: filled with its offset from the start of @type
 * @depth: 0 (the recursion's)
 * Return: true when found.
 */
bool find_vptr(Dwarf_Die *type, const char *suffix, Dwarf_Die *member, int64_t *off, int depth);

/* ---- dynamic types (resolve-dyn.c) ---- */

/**
 * val_eval_dyn() - the expressions decided when the event is decoded, and $goid
 * @e: EXPR_TYPEID (a type word, out->typeid set), EXPR_DYNCAST and EXPR_TYPEASSERT (the
 *     value as the type named, behind a GUARD_TYPE on its type word), EXPR_GOID (the
 *     goroutine's id, read through the g in r14)
 * @out: filled (release with val_release() in any case)
 * Return: 0, or a negative errno with rc->d naming the token.
 */
int val_eval_dyn(struct rctx *rc, const struct expr *e, struct val *out);

/**
 * go_type_direct() - whether a Go value of type @t is stored in an interface's data word
 * itself (pointers, maps, channels, functions, a struct of one pointer), not behind it
 */
bool go_type_direct(Dwarf_Die *t);

/**
 * go_iface_itab_type() - the fetch of the _type word of the itab that Go interface word
 * @tab_fetch reads (itab._type's offset from @iface's DWARF)
 * @iface: the runtime.iface struct type
 * Return: a new string, or NULL when the DWARF does not say.
 */
char *go_iface_itab_type(Dwarf_Die *iface, const char *tab_fetch);

/**
 * expr_text() - @e in source syntax, a new string ("r->Question[0].Name")
 */
char *expr_text(const struct expr *e);

/* ---- len() and cap() (resolve-len.c) ---- */

/**
 * val_eval_len() - EXPR_LEN, EXPR_CAP @e: the length of a Go map (its entry count, 0 when
 * nil), slice or string, the capacity of a Go slice, an array's element count
 * @out: filled (release with val_release() in any case)
 * Return: 0, or a negative errno with rc->d naming the token.
 */
int val_eval_len(struct rctx *rc, const struct expr *e, struct val *out);

/**
 * val_is_go_map() - whether @v is a Go map (the site's language is Go)
 */
bool val_is_go_map(struct rctx *rc, const struct val *v);

/**
 * val_map_key() - EXPR_INDEX @e on Go map @v: a lookup by key, made when the event is decoded
 * among the entries of a small map's table (v->map_key set): only as a whole argument, by a
 * string or integer key of the map's key type. A quoted key on something else is refused.
 * Return: 0, or -EINVAL with rc->d filled.
 */
int val_map_key(struct rctx *rc, const struct expr *e, struct val *v);

/* ---- types named in the probe (resolve-type.c) ---- */

/**
 * val_type_name() - @v's type as the site's language spells it, pointer levels without a
 * DIE (val.ptrs) included ("struct inner *", "*main.T")
 * Return: a new string for free().
 */
char *val_type_name(struct rctx *rc, const struct val *v);

/**
 * rctx_find_type() - the type @ty names, from the binary's type index: its DIE, with the
 * binary's own pointer DIEs for its '*'s while there are some, the rest in @out->ptrs
 * @out: only its type, has_type and ptrs are set
 * Return: 0, or -ENOENT with rc->d naming similar types.
 */
int rctx_find_type(struct rctx *rc, const struct type_ref *ty, struct val *out);

/**
 * rctx_declared_only() - refuse a use of @type when it is a declaration nothing completes
 * (no definition in the binary or the objects related to it: type_complete())
 * @doing: what could not be done, for the message ("cannot read 'st->foo'")
 * Return: 0 when @type is not such a declaration, else -ENOENT with rc->d filled.
 */
int rctx_declared_only(struct rctx *rc, Dwarf_Die *type, const char *doing, struct span sp);

/**
 * rctx_declared_reading() - rctx_declared_only() for reading @what ("cannot read 'st->foo'")
 */
int rctx_declared_reading(struct rctx *rc, Dwarf_Die *t, const char *what, struct span sp);

/**
 * rctx_virtual_base_error() - refuse member @name of @t, which lies in virtual base @vbase
 * (its offset is in the object's vtable, which a fetcharg cannot add)
 * Return: -EINVAL with rc->d filled.
 */
int rctx_virtual_base_error(struct rctx *rc, struct span sp, const char *name, Dwarf_Die *t,
			    Dwarf_Die *vbase);

/**
 * rctx_member_ambiguous() - refuse member @name of class @t when two of its bases have one
 * each at the depth it would be taken from (lang_member_ambiguous()), as C++ and gdb do
 * Return: true with rc->d filled (the bases to name in the hint), false when unambiguous.
 */
bool rctx_member_ambiguous(struct rctx *rc, Dwarf_Die *t, const char *name, struct span sp);

/**
 * rctx_qualified_member() - "B::x" in class @t: member x of its base class B, or of @t when
 * it is B ("B::A::x": of the A in B), as C++'s qualified names pick a hidden member or one
 * base's copy
 * @what: the expression for messages
 * @member: the member found; @off: its bytes from the start of @t
 * Return: 0, or a negative errno with rc->d filled (no such base, an ambiguous one, a virtual
 * one, no such member).
 */
int rctx_qualified_member(struct rctx *rc, Dwarf_Die *t, const char *name, const char *what,
			  Dwarf_Die *member, int64_t *off, struct span sp);

/**
 * val_cast() - @v read as type @to (from rctx_find_type()): same location, new type; a
 * smart pointer cast to a pointer is its raw pointer; a scalar is not widened, an
 * aggregate must be in memory
 * @what: the new value's expression for messages
 * Return: 0, or a negative errno with rc->d filled.
 */
int val_cast(struct rctx *rc, struct val *v, const struct val *to, const char *what,
	     struct span sp);

/**
 * val_eval_cast() - EXPR_CAST @e: its operand evaluated and cast to its type
 * Return: 0, or a negative errno with rc->d filled.
 */
int val_eval_cast(struct rctx *rc, const struct expr *e, struct val *out);

/* What val_smart_ptr() made of a value. */
enum smart {
	SMART_NONE,	/* not a smart pointer: left as it was */
	SMART_PTR,	/* now the raw pointer it holds */
	SMART_VALUE,	/* now the value it points to (Rust's Rc and Arc keep it inside a
			 * block of counts, which the pointer points to) */
};

/**
 * val_smart_ptr() - when @v is a smart pointer (std::unique_ptr, std::shared_ptr,
 * std::weak_ptr of libstdc++ or libc++; Rust's Rc, Arc), replace it with the raw pointer it
 * holds, found from its type's member layout by the language's rules (lang_ops.smart_ptr)
 * @to_value: where the pointer's target holds the value in a member (Rc, Arc), go on to it
 *            (SMART_VALUE); else stop at the raw pointer
 * @kind: what @v became
 * Return: 0, or a negative errno with rc->d filled (a smart pointer whose layout has no
 * pointer where the rules say).
 */
int val_smart_ptr(struct rctx *rc, struct val *v, bool to_value, struct span sp,
		  enum smart *kind);

/* ---- kernel fields (resolve-emit.c) ---- */

/* One argument on its way to kernel fields. */
struct emit {
	const char *name;		/* the argument's name (unique, sanitized) */
	const char *expr;		/* as typed */
	const char *cast;		/* :TYPE, or NULL */
	struct span sp;			/* for errors */
	struct span cast_sp;
};

/**
 * emit_val() - @v as the fields of one argument (em->name), by its type or em->cast
 * Return: 0, or a negative errno with rc->d filled.
 */
int emit_val(struct rctx *rc, const struct emit *em, struct val *v);

/**
 * emit_scalar() - one field: @v read as kernel type @ktype, shown as @kind
 * @out: when not NULL, the argument made (valid until the next one is added)
 * Return: 0, or a negative errno with rc->d filled.
 */
int emit_scalar(struct rctx *rc, const struct emit *em, struct val *v, const char *ktype,
		enum value_kind kind, unsigned int size, bool is_signed, struct trace_arg **out);

/**
 * hidden_field() - the index of a hidden field fetching @fetch as @type, added (named after
 * @base, made unique) when there is none
 */
int hidden_field(struct rctx *rc, const char *fetch, const char *type, const char *base);

/**
 * uniq_name() - @base made a C identifier of at most NAME_MAX_LEN characters that no field of
 * the probe and no NAME= of the probe has (with _1, _2 ...); a new string
 */
char *uniq_name(const struct rctx *rc, const char *base);

/**
 * new_arg() - append the argument em->name of kind @kind whose value is field @field
 * Return: it (valid until the next argument is added).
 */
struct trace_arg *new_arg(struct rctx *rc, const struct emit *em, struct val *v,
			  enum value_kind kind, unsigned int size, int field);

/**
 * attach_guards() - the guards recorded in @rc as @a's hidden fields
 */
void attach_guards(struct rctx *rc, struct trace_arg *a);

/**
 * val_addr_fetch() - the fetcharg of @v's address (@v in memory: an array the kernel reads at)
 * Return: 0, or a negative errno with rc->d filled.
 */
int val_addr_fetch(struct rctx *rc, const struct val *v, struct span sp, char **fetch);

/**
 * int_type() - the kernel type of an integer of @size bytes: @prefix 's', 'u' or 'x'
 */
const char *int_type(unsigned int size, char prefix);

/* ---- whole values as kernel fields (resolve-emit-whole.c) ---- */

/**
 * emit_whole() - a struct, union, array, slice or vector shown whole (vlayout_whole()): the
 * leaves of its layout (value-layout.h) as arguments of their own, gathered into one
 * VK_STRUCT or VK_ARRAY argument, cut to the byte budget (--value-size) and the kernel's
 * limits on fields and record size
 * Return: 0, or a negative errno with rc->d filled.
 */
int emit_whole(struct rctx *rc, const struct emit *em, struct val *v);

/**
 * emit_go_func() - a Go func value @v (a pointer to its closure, whose first word is the
 * code): shown as its function's name (VK_SYM), null when nil, as delve shows it
 * Return: 0, or a negative errno with rc->d filled.
 */
int emit_go_func(struct rctx *rc, const struct emit *em, struct val *v);

/**
 * emit_pointee_whole() - Go pointer @v to a value of type @to, shown whole as delve prints
 * it ("*main.Order {...}"), null (nil) when it is nil; named by the pointer's type
 * Return: 0, or a negative errno with rc->d filled.
 */
int emit_pointee_whole(struct rctx *rc, const struct emit *em, struct val *v, Dwarf_Die *to);

/**
 * set_last_type_name() - the last argument shows @v's type, not that of the part fetched
 */
void set_last_type_name(struct rctx *rc, struct val *v);

/**
 * pop_arg() - take the argument just appended out of rc->tp->args into @parts (@nr of them)
 */
void pop_arg(struct rctx *rc, struct trace_arg **parts, size_t *nr);

/* ---- fault checks (resolve-check.c) ---- */

/**
 * check_attach() - when @a (just emitted, its guards attached) is read through a pointer, the
 * hidden :string field that tells its failed read from a 0 (a->check_field)
 */
void check_attach(struct rctx *rc, struct trace_arg *a);

/* ---- Go maps as kernel fields (resolve-emit-map.c) ---- */

/**
 * emit_go_map() - Go map @v (layout @m) alone: its number of entries (null when nil) and,
 * for a small map whose table layout is known, its table's slots (VK_MAP); the entries are
 * left out (shown as more) when a key or value cannot be read or they pass the budget
 * Return: 0, or a negative errno with rc->d filled.
 */
int emit_go_map(struct rctx *rc, const struct emit *em, struct val *v,
		const struct lang_go_map *m);

/* ---- dynamic values as kernel fields (resolve-emit-dyn.c) ---- */

/**
 * emit_typeid() - typeid(): the type word @v (v->typeid), shown as the dynamic type's name
 * Return: 0, or a negative errno with rc->d filled.
 */
int emit_typeid(struct rctx *rc, const struct emit *em, struct val *v);

/**
 * emit_addr_of() - dynamic_cast<> alone: the address of object @v (its base pointer plus
 * an offset the decoder adds)
 * Return: 0, or a negative errno with rc->d filled.
 */
int emit_addr_of(struct rctx *rc, const struct emit *em, struct val *v);

/**
 * emit_event_bytes() - the bytes @tp's fields take in a record so far (8 for a type whose
 * size is not fixed): what the values made of many fields (Go interfaces, maps) budget by
 */
size_t emit_event_bytes(const struct trace_probe *tp);

/**
 * emit_go_iface() - a Go interface value alone (struct type @t, type word member @word):
 * its dynamic type's name and the fields of the values of the dynamic types it is known to
 * hold (VK_IFACE)
 * Return: 0, or a negative errno with rc->d filled.
 */
int emit_go_iface(struct rctx *rc, const struct emit *em, struct val *v, Dwarf_Die *t,
		  const char *word);

/**
 * emit_arg() - value @v as the fields of one argument of rc->tp, by its type (or @cast)
 * @name: the argument's name; @given: it is the user's NAME=, used as is (unique, at most
 *        NAME_MAX_LEN characters), else made a unique identifier
 * @expr: the argument as typed; @cast: its :TYPE or NULL
 * @sp, @cast_sp: for errors
 * Return: 0, or a negative errno with rc->d filled.
 */
int emit_arg(struct rctx *rc, const char *name, bool given, const char *expr,
	     const char *cast, struct span sp, struct span cast_sp, struct val *v);

#endif
