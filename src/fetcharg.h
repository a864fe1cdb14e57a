/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fetcharg.h - struct trace_probe (what the kernel gets) <-> uprobe_events text, and limits */
#ifndef UPF_FETCHARG_H
#define UPF_FETCHARG_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "kcaps.h"
#include "util.h"

/* One kernel argument: NAME=FETCH:TYPE */
struct fetch_field {
	char *name;		/* kernel argument name, a C identifier */
	char *fetch;		/* "+0(+40(%di))", "%ax", "@+0x1234", "$stack0" */
	char *type;		/* "u64", "s32", "x64", "char[64]", "u8[64]", "string", "b3@5/32" */
	bool hidden;		/* a guard or length field the user did not name */
	/*
	 * Fallbacks for a kernel without a feature (fallback.h); such a field is not written.
	 * @pieces > 0: an array type the kernel lacks, written as the scalar fields
	 * fields[@first_piece ..] (hidden, consecutive: the same bytes at the same place in the
	 * record), decoded as this one. @local: a constant (\IMM) the kernel lacks, kept on
	 * upfront's side: the decoder takes its value from @fetch.
	 */
	int pieces;
	int first_piece;
	bool local;
};

/* fetch_field_written() - whether @f goes to the kernel (not a fallback's stand-in) */
static inline bool fetch_field_written(const struct fetch_field *f)
{
	return !f->pieces && !f->local;
}

/* How a user-visible value is made from its kernel fields and how to show it. */
enum value_kind {
	VK_SIGNED,	/* s8..s64 */
	VK_UNSIGNED,	/* u8..u64 */
	VK_HEX,		/* x8..x64, shown 0x... */
	VK_POINTER,	/* an address, shown 0x... */
	VK_BOOL,
	VK_CHAR,	/* a single C char, shown 'c' */
	VK_FLOAT,	/* raw bits in an x32/x64 field; size 4 or 8 */
	VK_ENUM,	/* integer shown as its enumerator name */
	VK_CSTRING,	/* kernel :string; an empty data_loc is a fault */
	VK_LSTRING,	/* text chunks (u64[N], char[N] or u8[N]) + a length field; cut to it */
	VK_BYTES,	/* a fixed array of bytes shown as text (C char[N] member) */
	VK_SYM,		/* an address shown as symbol+off from the binary (x64 field) */
	VK_RAW,		/* a raw fetcharg / kernel type: shown as the kernel would */
	VK_VARIANT,	/* a Rust enum with data: the discriminant field picks one of the
			 * variants, whose payload values (parts) are shown: Some(5) */
	VK_TYPENAME,	/* a type word shown as the name of the dynamic type it stands for
			 * (typeid()); see enum dyn_word */
	VK_IFACE,	/* a Go interface value: its dynamic type's name and, when that type
			 * is one of the arg's dyn_variants, the value's fields (parts) */
	VK_COMPLEX,	/* a complex number: raw bits of its real part in fields[field], of
			 * its imaginary part in fields[field + 1]; size 4 or 8 (each part) */
	VK_INT128,	/* a 128-bit integer (is_signed or not): its low 64 bits in
			 * fields[field], its high 64 bits in fields[field + 1] */
	VK_STRUCT,	/* a whole struct, class or union: its members are the parts, each
			 * named by its member in @expr (NULL: an anonymous member) */
	VK_ARRAY,	/* a whole array, slice or vector: its elements are the parts; or,
			 * packed, one kernel array field read through parts[0] */
	VK_MAP,		/* a Go map: its number of entries and those of the one table of
			 * slots read (trace_arg.map, parts) */
};

/* How a whole value (VK_STRUCT, VK_ARRAY) is spelled: as the language's debugger prints it. */
enum show_style {
	SHOW_C,		/* gdb: {id = 1, items = {{qty = 2}, {qty = 3}}}, {1, 2, 3...} */
	SHOW_GO,	/* delve: main.Order {ID: 1, Items: []main.Item len: 2, cap: 2, [...]} */
	SHOW_RUST,	/* Rust's {:?}: Point { x: 1, y: 2 }, [1, 2, 3] */
};

/*
 * VK_MAP: a Go map (lang.h, struct lang_go_map). fields[field] is its number of entries;
 * parts[2 * i] and parts[2 * i + 1] are the key and the value in slot i of the table read
 * (a small map's only bucket or group), shown for the slots whose control byte says they
 * are in use. ctrl -1: no table was read (its layout unknown, or the event's budget).
 */
struct trace_map {
	int ctrl;		/* field: the slots' control bytes, slot i's at bits 8i.. */
	int small;		/* field: 0 while the table holds every entry (B, dirLen) */
	int old;		/* field: NULL but while the map grows (oldbuckets), or -1 */
	int over;		/* field: NULL unless the table overflows (overflow), or -1 */
	bool swiss;		/* Go 1.24+: the table is read only while small is 0 (else it
				 * is a directory of tables); up to 1.23 the first bucket */
	unsigned int used_min;	/* a slot is in use when its byte is >= used_min; 0: when
				 * its top bit is clear */
	unsigned int slots;
	/* m["Malone"], m[5]: the value of the entry whose key is @key (a string) or @key_num
	 * (an integer), found when decoded; absent: null; not among the entries read: unknown */
	bool lookup;
	char *key;		/* owned; NULL: @key_num */
	uint64_t key_num;
};

/*
 * One variant of a VK_VARIANT value: chosen when the discriminant equals @discr (or, for the
 * default variant, matches no other: rustc's niche layout keeps the other variants' tags in
 * a field of the dataful one). Its payload is parts[first] .. parts[first + nr - 1].
 */
struct trace_variant {
	uint64_t discr;
	bool is_default;
	bool tuple;		/* fields __0, __1 ...: shown Some(5); else Rect { w: 4, h: 5 } */
	bool more;		/* a payload field that cannot be shown was left out: ".." */
	char *name;		/* "Some", "Rect" */
	int first;
	int nr;
};

/* What a type word is: how the decoder names the dynamic type it stands for (dyntype.h). */
enum dyn_word {
	DYN_NONE,
	DYN_CXX_VPTR,		/* a C++ vtable pointer: named by the vtable symbol around it */
	DYN_GO_TYPE,		/* a Go *runtime._type (an interface{}'s type word) */
	DYN_GO_ITAB,		/* a Go *runtime.itab (an interface's tab): named by its symbol,
				 * else by its _type word (trace_arg.dyn_field) */
	DYN_RUST_VTABLE,	/* a Rust dyn Trait's vtable pointer */
};

/*
 * One dynamic type of a Go interface value whose fields are fetched too (VK_IFACE): the
 * fields are read whatever the dynamic type is, and shown only when it is this one.
 */
struct dyn_variant {
	char *name;		/* the dynamic type: "*errors.errorString", "syscall.Errno" */
	uint64_t itab;		/* its itab for the interface (a vaddr), or 0 */
	uint64_t type;		/* its runtime type descriptor (a vaddr) */
	int first;		/* its fields: trace_arg.parts[first .. first + nr - 1] */
	int nr;
	bool value;		/* parts[first] is the value itself (a non-struct value type,
				 * "value" in JSON), not a field */
};

struct enum_value {
	int64_t value;
	char *name;
};

#define TRACE_ARG_MAX_GUARDS 16

/* What a guard of a trace_arg checks (trace_arg.guard_kind); the zero value is a pointer. */
enum guard_kind {
	GUARD_PTR,	/* a pointer the value is reached through: NULL or non-canonical: fault */
	GUARD_DATA,	/* a string's data pointer: a fault only when the length (len_field) > 0 */
	GUARD_LEN,	/* a runtime length (Go slice/string, Rust Vec/slice): a fault when it is
			 * <= guard_index ("o.Items[5]: index 5 out of range (len 2)") */
	GUARD_END,	/* an end pointer (std::vector _M_finish): the length is
			 * (end - fields[guard_base]) / guard_elem; a fault as for GUARD_LEN */
	GUARD_NIL,	/* a pointer that makes the value null, not a fault, when it is NULL
			 * (the object of a dynamic_cast<>, a Go interface's itab, a C string's
			 * char *); another address that cannot be one is a fault */
	GUARD_ZERO,	/* a pointer that makes the value 0 when it is NULL (len() of a nil Go
			 * map) */
	GUARD_TYPE,	/* a type word (C++ vtable pointer, Go type word or itab): the value is
			 * null unless the word less the binary's load base is one of
			 * guard_words[k]; when it is not, and guard_base[k] >= 0, the word in
			 * that field (a Go itab's _type) is tried as well */
};

/*
 * One value the user asked for. It is made of fields[field] .. fields[field + nr_fields - 1]
 * (for VK_LSTRING: nr_fields char[N] chunks in order), plus optional hidden fields.
 */
struct trace_arg {
	char *name;			/* user-visible name; also the name of fields[field] */
	char *expr;			/* the expression as typed, for -V, -l, detail views */
	char *type_name;		/* the source-level type ("[]main.Item", "struct foo *") */
	enum value_kind kind;
	unsigned int size;		/* bytes of a scalar / float (4 or 8) */
	bool is_signed;			/* VK_ENUM, VK_CHAR */
	int field;			/* index of the first field making the value */
	int nr_fields;			/* VK_LSTRING chunks; otherwise 1 */
	int len_field;			/* VK_LSTRING: index of the length field; else -1 */
	unsigned int max_len;		/* VK_LSTRING: bytes captured (sum of chunk sizes);
					 * VK_CSTRING of a char[N] array: N, the text is
					 * cut there; 0: up to the NUL */
	/*
	 * Fault detection: the kernel marks failed reads only for :string. Every pointer the
	 * value is reached through is also fetched (hidden u64 fields, outermost first);
	 * a NULL (below 4096) or non-canonical one means the value is a fault.
	 */
	int guards[TRACE_ARG_MAX_GUARDS];
	char *guard_exprs[TRACE_ARG_MAX_GUARDS];	/* "r->Question", for the fault message */
	int nr_guards;
	/*
	 * Guards are checked in order (outermost first). Beside pointers they check an index
	 * against a runtime length: guard_exprs[k] is then the indexed expression ("o.Items[5]").
	 * All zero: every guard is a GUARD_PTR.
	 */
	enum guard_kind guard_kind[TRACE_ARG_MAX_GUARDS];
	uint64_t guard_index[TRACE_ARG_MAX_GUARDS];	/* GUARD_LEN, GUARD_END: the index;
							 * GUARD_PTR, GUARD_NIL: added to the
							 * pointer fetched before it is judged */
	int guard_base[TRACE_ARG_MAX_GUARDS];		/* GUARD_END: field of the data pointer;
							 * GUARD_TYPE: of a second word, or -1 */
	unsigned int guard_elem[TRACE_ARG_MAX_GUARDS];	/* GUARD_END: bytes of an element */
	uint64_t *guard_words[TRACE_ARG_MAX_GUARDS];	/* GUARD_TYPE: the vaddrs accepted,
							 * sorted (owned) */
	unsigned int guard_nr_words[TRACE_ARG_MAX_GUARDS];
	/*
	 * GUARD_TYPE of a C++ dynamic_cast<T *>: T's qualified name (owned) and where the vtable
	 * pointer lies in T; a word none of guard_words[k] is then decided at decode time from
	 * the class of the vtable it points into, which may be in another object of the
	 * process (dynname.h). NULL: guard_words[k] alone decide.
	 */
	char *guard_class[TRACE_ARG_MAX_GUARDS];
	int64_t guard_class_off[TRACE_ARG_MAX_GUARDS];
	/*
	 * A bitfield or a part of a register (kernel type bW@O/C): W, else 0. The kernel stores
	 * the W bits zero-extended; signed kinds (VK_SIGNED, signed VK_ENUM/VK_CHAR) are
	 * sign-extended from W bits by the decoder.
	 */
	unsigned int bit_width;
	struct enum_value *enums;	/* VK_ENUM */
	size_t nr_enums;
	/*
	 * VK_VARIANT: fields[field] is the discriminant (of size discr bytes, unsigned); the
	 * parts are trace_args of their own (not in trace_probe.args), each with its field
	 * name's member in @expr ("w", "__0"). VK_IFACE: the fields of its dyn_variants.
	 */
	struct trace_variant *variants;
	size_t nr_variants;
	struct trace_arg *parts;
	size_t nr_parts;
	/* VK_TYPENAME, VK_IFACE: fields[field] is the type word */
	enum dyn_word dyn_word;
	int dyn_field;			/* DYN_GO_ITAB: the field of the itab's _type word */
	char *dyn_class;		/* DYN_CXX_VPTR: the static class of typeid()'s object
					 * (qualified), or NULL; its vtable pointer lies at
					 * @dyn_off in it (a --filter on the dynamic type) */
	int64_t dyn_off;
	struct dyn_variant *dyn_variants;	/* VK_IFACE: the types whose fields are in parts */
	size_t nr_dyn_variants;
	int64_t addend;			/* VK_POINTER: added to the address fetched (a
					 * dynamic_cast<> to a base at another offset) */
	/*
	 * VK_STRUCT, VK_ARRAY (whole values, value-layout.h): @style spells them; @more: members
	 * or elements were left out (the byte budget, --value-size), shown "...". A part that is
	 * a base class (C++) or an embedded struct (Go) has @is_base. VK_ARRAY: @count elements
	 * in the type (0 for a slice); a slice's run-time length is the field @len_field, its
	 * capacity @cap_field (-1: none), both counts, or, when @ptr_field is not -1, end pointers
	 * whose distance from the data pointer in field @ptr_field counts bytes; @packed: parts[0] describes each element, the elements
	 * being the kernel array field @field from element @first on, @elem_size bytes each.
	 * A VK_SYM of style SHOW_GO (a Go func value) is its function's name without "+0x0".
	 */
	enum show_style style;
	bool more;
	bool is_base;
	bool packed;
	uint64_t count;
	int cap_field;
	int ptr_field;
	unsigned int first;
	unsigned int elem_size;
	/*
	 * A value read through a pointer: a hidden :string field at one of its bytes (of its
	 * length for VK_LSTRING), empty (a fault) when the memory was not there. The value is
	 * a fault when that field is empty and the value's bytes are all 0 (what the kernel
	 * stores for a read that failed). 0: none (it never comes first).
	 */
	int check_field;
	const char *null_text;		/* a GUARD_NIL that is NULL: the value is null, shown
					 * as this ("NULL"; static), else as "null" */
	struct trace_map map;		/* VK_MAP */
	int64_t value_add;		/* integers and pointers: added to what the field holds,
					 * wrapped to the value's size (DWARF computes the value
					 * as a register or a word plus a constant) */
};

/**
 * trace_arg_last_pointer() - the last pointer @a's value is read through ("n.Unread"): the
 * expression of its last GUARD_PTR or GUARD_NIL guard
 * Return: borrowed from @a, or NULL when it is read through none.
 */
const char *trace_arg_last_pointer(const struct trace_arg *a);

/* What a probe point is to durations (calls.h): FUNC's entry and FUNC%return pair up. */
enum call_role {
	CALL_NONE,	/* a line, an offset, an address, an inlined copy (it has no return) */
	CALL_ENTRY,	/* FUNC: the entry of its out-of-line code */
	CALL_RETURN,	/* FUNC%return: a uretprobe, or a return instruction (Go) */
};

/* One probe point as the kernel gets it: a line of uprobe_events plus how to decode it. */
struct trace_probe {
	char *group;		/* C identifier, <= 63 */
	char *event;		/* C identifier, <= 63 */
	char *path;		/* binary, absolute: what -D and -a write, -l shows */
	char *kpath;		/* the same file as a trace session gives it to the kernel
				 * (/proc/PID/fd/N, debuginfo_kernel_path()), or NULL */
	char *build_id;		/* hex, or NULL */
	char *func;		/* the function as the language names it, or NULL */
	uint64_t vaddr;		/* the probe address in the binary */
	uint64_t offset;	/* the file offset written for the kernel */
	uint64_t ref_ctr_offset;	/* file offset of an SDT semaphore the kernel counts up
					 * while the probe is enabled, written "(0x...)"; 0: none */
	bool is_return;		/* r: a uretprobe */
	bool ret_at_sp;		/* the return address is at 0(%sp) here (an entry): --stack
				 * takes the caller from $stack0 */
	enum call_role call;	/* set by the resolver (fetcharg_parse() leaves CALL_NONE) */
	bool height_moved;	/* CALL_ENTRY past the prologue: the entry's stack pointer is
				 * DWARF register @height_reg plus @height_adj here (the CFA's
				 * rule at the probe less the CFA's distance from %sp at an
				 * entry); else it is %sp */
	int height_reg;
	int64_t height_adj;
	bool goroutines;	/* Go code: a call belongs to a goroutine (g in %r14), which
				 * may move between threads during it */
	int64_t go_stack_hi;	/* goroutines: the offset of runtime.g's stack.hi */
	struct fetch_field *fields;
	size_t nr_fields;
	struct trace_arg *args;
	size_t nr_args;
	char *note;		/* what -D says about the probe as a comment (a float followed out
				 * of an xmm register), or NULL */
	char *merged;		/* this point's event NAME to users when the kernel got it as an
				 * event of its own, NAME__2 ... (fallback.h); NULL: @event */
};

/* trace_probe_add_field() - append a field; returns its index; strings are copied */
int trace_probe_add_field(struct trace_probe *tp, const char *name, const char *fetch,
			  const char *type, bool hidden);
/* trace_probe_add_arg() - append a zeroed arg (len_field = -1) and return it */
struct trace_arg *trace_probe_add_arg(struct trace_probe *tp);
/**
 * trace_probe_truncate() - drop the fields and arguments past the first @nr_fields and
 * @nr_args (what an emit that failed half-way added)
 */
void trace_probe_truncate(struct trace_probe *tp, size_t nr_fields, size_t nr_args);
/* trace_probe_release() - free everything the probe owns; accepts a zeroed probe */
void trace_probe_release(struct trace_probe *tp);
/* trace_probe_copy() - deep copy of @src into @dst */
void trace_probe_copy(struct trace_probe *dst, const struct trace_probe *src);

/**
 * fetcharg_format() - the uprobe_events line, without newline:
 *   "p:GROUP/EVENT PATH:0xOFFSET[(0xREF_CTR)] NAME=FETCH:TYPE ..."  ("r:" for a return probe)
 */
int fetcharg_format(const struct trace_probe *tp, struct strbuf *out);

/**
 * fetcharg_format_at() - fetcharg_format() with @path instead of tp->path (a trace session
 * writes tp->kpath)
 * Return: 0, or -EINVAL when @path is empty or fails fetcharg_path_check().
 */
int fetcharg_format_at(const struct trace_probe *tp, const char *path, struct strbuf *out);

/**
 * fetcharg_path_check() - whether a uprobe_events line can carry @path as one PATH: the
 * kernel splits a command at blanks (isspace(), which in its Latin-1 ctype includes byte
 * 0xa0, so also UTF-8 letters like U+00E0), ends it at a newline and cuts it at '#'; a control
 * character would reach the terminal from -D. A ':' is carried (the kernel splits PATH:OFFSET
 * at the last one), measured on 6.18.
 * Return: 0, or -EINVAL with @d naming the byte and its position.
 */
int fetcharg_path_check(const char *path, struct diag *d);

/**
 * fetcharg_parse() - parse a uprobe_events line (as -D prints it or as tracefs lists it)
 * @line: "p:GRP/EVENT PATH:OFFSET[%return][(REF_CTR)] [NAME=]FETCH[:TYPE] ...", or "r:..."
 * @tp: zeroed, then filled with group, event, path, offset, ref_ctr_offset, is_return and
 *      fields (args
 *      left empty); release with trace_probe_release() in any case. A missing group is
 *      the kernel's default "uprobes"; a missing event stays NULL; an argument without
 *      NAME= is "argN" (its 1-based position), as the kernel names it.
 * Return: 0 or -EINVAL with @d filled (spans index @line).
 */
int fetcharg_parse(const char *line, struct trace_probe *tp, struct diag *d);

/*
 * The longest uprobe_events line the kernel takes, without its newline: "Line length is too
 * long: Should be less than 4094" (the kernel's log, EINVAL without error_log; 6.18)
 */
#define FETCHARG_MAX_LINE 4092

/**
 * fetcharg_check_limits() - check @tp against the kernel's limits before writing
 *
 * Group and event: C identifiers of at most max_event_name characters. Fields: at most
 * max_args; names C identifiers of at most max_name_len characters, unique; FETCH:TYPE
 * at most max_arg_len characters; at most max_derefs nested +OFF(); arrays of at most
 * max_array elements; a known type; the fixed part of the record (sum of
 * fetcharg_type_size(), measured on 6.18: the 8/16-byte uprobe header is not counted)
 * at most max_event_size; at most max_strings :string/:ustring/:symstr fields; the line (with
 * tp->kpath, else tp->path) at most FETCHARG_MAX_LINE bytes.
 *
 * Return: 0, or -E2BIG / -EINVAL with @d naming the limit and the argument.
 */
int fetcharg_check_limits(const struct trace_probe *tp, const struct kernel_features *kf,
			  struct diag *d);

/* fetcharg_type_size() - bytes a kernel type takes in the record's fixed part
 * ("u32" 4, "char[64]" 64, "string" 4 for its data_loc), or -1 if unknown */
int fetcharg_type_size(const char *type);

/* fetcharg_count_derefs() - how many nested +OFF(...) a fetch has */
int fetcharg_count_derefs(const char *fetch);

/**
 * fetcharg_check_raw() - a fetcharg the user wrote is one FETCHARG of the kernel's uprobe
 * grammar: %REG, @ADDR, @+OFFSET, $stack, $stackN, $retval, $comm, \IMM, \"TEXT",
 * [+|-][u]OFF(FETCHARG) (and an SDT probe's $argN, which sdt.c replaces), in printable
 * ASCII without blanks or '#' (which uprobe_events would read as the end of the argument,
 * of the command, or as a comment)
 * @s: the fetcharg, without NAME= and :TYPE
 * @len: its length
 * @bad: on failure, the offset in @s of the offending character
 * Return: NULL when it is one; otherwise what is wrong (a static string).
 */
const char *fetcharg_check_raw(const char *s, size_t len, size_t *bad);

#endif
