// SPDX-License-Identifier: GPL-2.0-or-later
/* resolve-emit.c - a value as kernel fetch-args, by its type and language */
#define LOG_DOMAIN "resolve"
#include <dwarf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "lang.h"
#include "log.h"
#include "resolve-internal.h"
#include "value-layout.h"

#define CHUNK 64	/* bytes per chunk of a string with a length as bytes (-a, --keep: u8[64]) */
/*
 * bytes per chunk as u64 words (a live session): u64[64], the kernel's largest array. One
 * array rather than one per 64 bytes: each fetch-arg costs the hit its own pass through the
 * kernel's fetch code, ~40 ns measured for a second u64[8] against one u64[16] (issue 22)
 */
#define WORDS_CHUNK 512
#define MAX_CHUNKS 64	/* chunks of one string: 4 KB, past what fits a record anyway */

static bool field_name_used(const struct trace_probe *tp, const char *name)
{
	for (size_t i = 0; i < tp->nr_fields; i++)
		if (!strcmp(tp->fields[i].name, name))
			return true;
	return false;
}

/* Whether @name is a NAME= the user gave in this probe (other than the one being emitted). */
static bool name_reserved(const struct rctx *rc, const char *name)
{
	if (rc->claim && !strcmp(rc->claim, name))
		return false;
	for (size_t i = 0; i < rc->spec->nr_args; i++)
		if (rc->spec->args[i].name && !strcmp(rc->spec->args[i].name, name))
			return true;
	return false;
}

static bool name_taken(const struct rctx *rc, const char *name)
{
	return field_name_used(rc->tp, name) || name_reserved(rc, name);
}

/*
 * @base made a C identifier of at most 32 characters not yet used in the probe (_1, _2 ...);
 * names the user gave with NAME= are kept free for their arguments, so a guard "name_p1"
 * or a chunk "Name_1" never takes an argument's name
 */
char *uniq_name(const struct rctx *rc, const char *base)
{
	char *s = sanitize_ident(base, NAME_MAX_LEN);
	char *n;

	if (!name_taken(rc, s))
		return s;
	for (int i = 1;; i++) {
		char suffix[16];
		int sl = snprintf(suffix, sizeof(suffix), "_%d", i);
		int keep = (int)strlen(s);

		if (keep + sl > NAME_MAX_LEN)
			keep = NAME_MAX_LEN - sl;
		n = xasprintf("%.*s%s", keep, s, suffix);
		if (!name_taken(rc, n)) {
			free(s);
			return n;
		}
		free(n);
	}
}

struct trace_arg *new_arg(struct rctx *rc, const struct emit *em, struct val *v,
			  enum value_kind kind, unsigned int size, int field)
{
	struct trace_arg *a = trace_probe_add_arg(rc->tp);

	a->name = xstrdup(rc->tp->fields[field].name);
	a->expr = xstrdup(em->expr);
	a->type_name = v->has_type || v->ptrs ? val_type_name(rc, v) : NULL;
	a->kind = kind;
	a->size = size;
	a->field = field;
	a->nr_fields = 1;
	a->len_field = -1;
	a->cap_field = -1;
	a->ptr_field = -1;
	return a;
}

/* The index of a hidden field fetching @fetch as @type, added (named @base) if there is none */
int hidden_field(struct rctx *rc, const char *fetch, const char *type, const char *base)
{
	char *name;
	int idx;

	for (size_t f = 0; f < rc->tp->nr_fields; f++) {
		struct fetch_field *ff = &rc->tp->fields[f];

		if (ff->hidden && !strcmp(ff->fetch, fetch) && !strcmp(ff->type, type))
			return (int)f;
	}
	name = uniq_name(rc, base);
	idx = trace_probe_add_field(rc->tp, name, fetch, type, true);
	free(name);
	return idx;
}

/* A GUARD_TYPE's words and second word (a Go itab's _type) into guard @k of @a. */
static void attach_type_guard(struct rctx *rc, struct trace_arg *a, int k, const struct guard *g,
			      int i)
{
	size_t n = g->nr_words * sizeof(uint64_t);

	a->guard_words[k] = xmalloc(n ? n : 1);
	if (n)
		memcpy(a->guard_words[k], g->words, n);
	a->guard_nr_words[k] = g->nr_words;
	a->guard_class[k] = g->cls ? xstrdup(g->cls) : NULL;
	a->guard_class_off[k] = g->cls_off;
	a->guard_base[k] = -1;
	if (g->base) {
		char *base = xasprintf("%.*s__t%d", NAME_MAX_LEN - 5, a->name, i + 2);

		a->guard_base[k] = hidden_field(rc, g->base, "x64", base);
		free(base);
	}
}

/*
 * The guards of the value just emitted as @a's hidden fields: NAME__pN a pointer (GUARD_PTR,
 * GUARD_NIL, GUARD_DATA, GUARD_END), NAME__nN a length, NAME__tN a type word (GUARD_TYPE).
 */
void attach_guards(struct rctx *rc, struct trace_arg *a)
{
	for (int i = 0; i < rc->nr_guards && a->nr_guards < TRACE_ARG_MAX_GUARDS; i++) {
		const struct guard *g = &rc->guards[i];
		int k = a->nr_guards;
		char tag = g->kind == GUARD_LEN ? 'n' : g->kind == GUARD_TYPE ? 't' : 'p';
		char *base;

		base = xasprintf("%.*s__%c%d", NAME_MAX_LEN - 5, a->name, tag, i + 1);
		a->guards[k] = hidden_field(rc, g->fetch, g->kind == GUARD_LEN ? "u64" : "x64",
					    base);
		free(base);
		a->guard_exprs[k] = xstrdup(g->expr);
		a->guard_kind[k] = g->kind;
		a->guard_index[k] = g->index;
		if (g->kind == GUARD_END) {
			base = xasprintf("%.*s__p%d", NAME_MAX_LEN - 5, a->name, i + 2);
			a->guard_base[k] = hidden_field(rc, g->base, "x64", base);
			a->guard_elem[k] = g->elem;
			free(base);
		}
		if (g->kind == GUARD_TYPE)
			attach_type_guard(rc, a, k, g, i);
		a->nr_guards++;
	}
	check_attach(rc, a);
}

/*
 * A field holding a value. The fields of a Go interface's dynamic value (rc->in_part) are
 * hidden, and shared with an earlier one that reads the same: the variants of an error
 * mostly read the same words (a string at +0 of what the data word points to).
 */
static int value_field(struct rctx *rc, const char *name, const char *fetch, const char *type)
{
	if (rc->in_part)
		return hidden_field(rc, fetch, type, name);
	return trace_probe_add_field(rc->tp, name, fetch, type, false);
}

/* One scalar field: @v read as kernel @type. */
int emit_scalar(struct rctx *rc, const struct emit *em, struct val *v, const char *ktype,
		       enum value_kind kind, unsigned int size, bool is_signed,
		       struct trace_arg **out)
{
	char *fetch, *type = NULL, *name;
	struct trace_arg *a;
	int64_t add = 0;
	int field;

	if (v->bit_size && v->loc.nr == 1 && v->loc.pieces[0].kind == LOC_VAL &&
	    !v->loc.pieces[0].off)
		fetch = xstrdup(v->loc.pieces[0].fetch);	/* a part of a register */
	else if (val_word_fetch_add(rc, v, em->sp, &fetch, &add))
		return -EINVAL;
	if (add && (v->bit_size || !(kind == VK_SIGNED || kind == VK_UNSIGNED ||
				     kind == VK_HEX || kind == VK_POINTER))) {
		diag_error(rc->d, em->sp, "'%s' is %s %s %" PRId64 ", a sum upfront adds only to "
			   "integers and pointers", v->what, fetch, add < 0 ? "minus" : "plus",
			   add < 0 ? -add : add);
		free(fetch);
		return -EINVAL;
	}
	if (v->bit_size && (kind == VK_SIGNED || kind == VK_UNSIGNED || kind == VK_HEX ||
			    kind == VK_BOOL || kind == VK_ENUM || kind == VK_CHAR))
		type = xasprintf("b%u@%u/%u", v->bit_size, v->bit_off, v->bit_container);
	name = uniq_name(rc, em->name);
	field = value_field(rc, name, fetch, type ? type : ktype);
	a = new_arg(rc, em, v, kind, size, field);
	a->is_signed = is_signed;
	a->value_add = add;
	if (type)
		a->bit_width = v->bit_size;	/* signed values are sign-extended from it */
	free(name);
	free(fetch);
	free(type);
	attach_guards(rc, a);
	if (out)
		*out = a;
	return 0;
}

/* The fetcharg of @v's address, for types the kernel reads at an address (arrays, strings) */
int val_addr_fetch(struct rctx *rc, const struct val *v, struct span sp, char **fetch)
{
	const struct loc_piece *p = &v->loc.pieces[0];

	if (v->loc.nr == 1 && p->kind == LOC_MEM) {
		*fetch = loc_mem_fetch(p->base, p->off);
		return 0;
	}
	if (v->loc.nr == 1 && (p->kind == LOC_NONE || p->kind == LOC_BAD))
		return val_piece_error(rc, p, v->what, sp);
	return diag_error(rc->d, sp, "'%s' is in registers, not in memory; it cannot be read as "
			  "an array", v->what);
}

static int emit_cstring_at(struct rctx *rc, const struct emit *em, struct val *v,
			   const char *addr_fetch, struct trace_arg **out)
{
	char *name = uniq_name(rc, em->name);
	int field = value_field(rc, name, addr_fetch,
				em->cast && !strcmp(em->cast, "ustring") ? "ustring" : "string");
	struct trace_arg *a = new_arg(rc, em, v, VK_CSTRING, 0, field);

	free(name);
	attach_guards(rc, a);
	if (out)
		*out = a;
	return 0;
}

/*
 * A C char[N] (array type @arr) as text. Its N bytes need not end in a NUL (a full
 * fixed-size name), and the kernel's :string would then read on into what follows the
 * array. Up to the kernel's array limit it is fetched as char[N]: exactly its bytes, shown
 * up to the first NUL (VK_BYTES), never more. A longer one is a :string with max_len N,
 * which the decoder cuts at; one of unknown length (a flexible member) a plain :string.
 */
static int emit_char_array(struct rctx *rc, const struct emit *em, struct val *v,
			   Dwarf_Die *arr)
{
	struct trace_arg *a = NULL;
	int64_t count, inner;
	char *f;

	type_array_dim(arr, v->dim, &count, &inner);
	count = count < 0 || inner < 0 ? -1 : count * inner;
	if (val_addr_fetch(rc, v, em->sp, &f))
		return -EINVAL;
	if (count > 0 && count <= rc->o->kf.max_array) {
		char *name = uniq_name(rc, em->name);
		char *t = xasprintf("%s[%" PRId64 "]", rc->o->kf.has_char ? "char" : "u8", count);
		int field = trace_probe_add_field(rc->tp, name, f, t, false);

		a = new_arg(rc, em, v, VK_BYTES, 0, field);
		attach_guards(rc, a);
		free(name);
		free(t);
	} else {
		emit_cstring_at(rc, em, v, f, &a);
		if (count > 0)
			a->max_len = (unsigned int)count;
	}
	free(f);
	return 0;
}

/*
 * :string on a C char[N]: a C string at the array, as perf reads it. Where N is 0 or 1 (the
 * struct hack: Lua's TString.contents[1], CPython's ob_sval[1]) or unknown, the string goes
 * on past the array, as the program reads it; a longer array is cut at its N bytes.
 */
static int emit_char_array_cstring(struct rctx *rc, const struct emit *em, struct val *v,
				   Dwarf_Die *arr)
{
	struct trace_arg *a = NULL;
	int64_t count, inner;
	char *f;

	type_array_dim(arr, v->dim, &count, &inner);
	count = count < 0 || inner < 0 ? -1 : count * inner;
	if (val_addr_fetch(rc, v, em->sp, &f))
		return -EINVAL;
	emit_cstring_at(rc, em, v, f, &a);
	if (count > 1)
		a->max_len = (unsigned int)count;
	free(f);
	return 0;
}

/* The :string fields of the probe so far */
static int nr_strings(const struct trace_probe *tp)
{
	int n = 0;

	for (size_t i = 0; i < tp->nr_fields; i++)
		n += !strcmp(tp->fields[i].type, "string") || !strcmp(tp->fields[i].type, "ustring");
	return n;
}

/* A C string through pointer @v: +0(PTR):string; inside a whole value, past the limit on
 * :string fields, its address */
static int emit_cstring_ptr(struct rctx *rc, const struct emit *em, struct val *v)
{
	struct trace_arg *a = NULL;
	char *pf, *f;
	int64_t add;
	int ret;

	if (rc->in_whole && rc->o->kf.max_strings > 0 && nr_strings(rc->tp) >= rc->o->kf.max_strings)
		return emit_scalar(rc, em, v, "x64", VK_POINTER, 8, false, NULL);

	if (val_word_fetch_add(rc, v, em->sp, &pf, &add))
		return -EINVAL;
	f = loc_mem_fetch(pf, add);
	/* NULL is a value of a char *, not a fault: the pointer is fetched to tell them apart */
	rctx_add_guard(rc, GUARD_NIL, pf, v->what, (uint64_t)add);
	ret = emit_cstring_at(rc, em, v, f, &a);
	a->null_text = rc->lang->null_name;
	free(pf);
	free(f);
	return ret;
}

/*
 * The first of @n hidden fields in a row that read @f[i] as @t[i], or -1: the text of a
 * string another variant of a Go interface's value reads already.
 */
static int find_run(struct rctx *rc, char **f, char **t, unsigned int n)
{
	for (size_t k = 0; k + n <= rc->tp->nr_fields; k++) {
		unsigned int i = 0;

		while (i < n && rc->tp->fields[k + i].hidden &&
		       !strcmp(rc->tp->fields[k + i].fetch, f[i]) &&
		       !strcmp(rc->tp->fields[k + i].type, t[i]))
			i++;
		if (i == n)
			return (int)k;
	}
	return -1;
}

/* whether text is read as bytes: -a, --keep, or a machine that loses a word's bytes on a fault */
static bool text_as_bytes(const struct rctx *rc)
{
	return rc->o->text_bytes || !arch_current()->fault_keeps_prefix;
}

/*
 * The fields of @n text bytes @at past the data pointer fetched by @pf, into @f and @t: in a
 * live session u64 words, the kernel's cheapest read per byte (its cost follows the number of
 * array elements, one user read each: char[64] costs 7x u64[8]), whose bytes the decoder takes
 * in memory order; the last n % 8 bytes stay bytes, so no word reads past what is asked for.
 * -a and --keep: bytes only, which perf and trace-cmd show as such; bytes only too on a machine
 * whose kernel loses the bytes before a fault inside a word (arm64: a string that ends just
 * before an unmapped page is read in a word that runs into it, arch_ops.fault_keeps_prefix).
 * The byte offset of each field goes into @off.
 * Return: the number of fields (1 or 2).
 */
static unsigned int text_fields(const struct rctx *rc, const char *pf, unsigned int at,
				unsigned int n, char **f, char **t, unsigned int *off)
{
	unsigned int words = text_as_bytes(rc) ? 0 : n / 8, k = 0;

	if (words) {
		off[k] = at;
		f[k] = loc_mem_fetch(pf, at);
		t[k++] = xasprintf("u64[%u]", words);
	}
	if (n > words * 8) {
		off[k] = at + words * 8;
		f[k] = loc_mem_fetch(pf, off[k]);
		t[k++] = xasprintf("%s[%u]", rc->o->kf.has_char ? "char" : "u8", n - words * 8);
	}
	return k;
}

/*
 * The name of a string's text field at byte @off: NAME for the first, NAME_atOFF for the
 * others, outside the NAME_1, NAME_2 ... that tell apart arguments of the same name, so that
 * those do not depend on how many fields the text takes (arm64 reads it as char[64] chunks,
 * x86-64 as one u64[N]: a second string "Name" would be Name_2 on one and Name_1 on the other)
 */
static char *text_field_name(const char *name, unsigned int off)
{
	char suffix[16];
	int sl = snprintf(suffix, sizeof(suffix), "_at%u", off);

	return off ? xasprintf("%.*s%s", NAME_MAX_LEN - sl, name, suffix) : xstrdup(name);
}

/* A string with a length: chunks at the data pointer (u64 words, or bytes of 64) + a hidden length. */
static int emit_lstring(struct rctx *rc, const struct emit *em, struct val *v,
			const struct lang_layout *l)
{
	struct val ptr, len;
	char *pf = NULL, *lf = NULL;
	unsigned int total = rc->part_string_size ? rc->part_string_size :
			     rc->o->string_size ? rc->o->string_size : RESOLVE_STRING_SIZE;
	unsigned int chunk = text_as_bytes(rc) ? CHUNK : WORDS_CHUNK;
	unsigned int nchunks = (total + chunk - 1) / chunk, at = 0, nf = 0;
	char *chunk_f[MAX_CHUNKS + 1], *chunk_t[MAX_CHUNKS + 1];
	unsigned int chunk_at[MAX_CHUNKS + 1];
	struct trace_arg *a = NULL;
	int ret = -EINVAL, first, added = -1;

	if (nchunks > MAX_CHUNKS)
		nchunks = MAX_CHUNKS;
	if (total > nchunks * chunk)
		total = nchunks * chunk;

	memset(&len, 0, sizeof(len));
	if (val_layout_ptr(rc, v, l, em->sp, &ptr))
		return -EINVAL;
	if (val_word_fetch(rc, &ptr, em->sp, &pf))
		goto out;
	if (l->len && (val_layout_len(rc, v, l, em->sp, &len) ||
		       val_word_fetch(rc, &len, em->sp, &lf)))
		goto out;
	for (unsigned int i = 0; i < nchunks; i++) {
		unsigned int n = total - at < chunk ? total - at : chunk;

		nf += text_fields(rc, pf, at, n, chunk_f + nf, chunk_t + nf, chunk_at + nf);
		at += n;
	}
	first = rc->in_part ? find_run(rc, chunk_f, chunk_t, nf) : -1;
	for (unsigned int i = 0; first < 0 && i < nf; i++) {
		char *base = text_field_name(em->name, chunk_at[i]);
		char *name = uniq_name(rc, base);
		int field = trace_probe_add_field(rc->tp, name, chunk_f[i], chunk_t[i],
						  rc->in_part);

		if (!i)
			added = field;
		free(base);
		free(name);
	}
	if (first < 0)
		first = added;
	for (unsigned int i = 0; i < nf; i++) {
		free(chunk_f[i]);
		free(chunk_t[i]);
	}
	a = new_arg(rc, em, v, VK_LSTRING, 0, first);
	a->max_len = total;
	a->nr_fields = (int)nf;
	if (lf) {
		char *base = xasprintf("%.*s_len", NAME_MAX_LEN - 4, em->name);

		a->len_field = hidden_field(rc, lf, "u64", base);
		free(base);
		/* a NULL data pointer with a length is a fault, not an empty string */
		rctx_add_guard(rc, GUARD_DATA, pf, v->what, 0);
	}
	attach_guards(rc, a);
	ret = 0;
out:
	free(pf);
	free(lf);
	val_release(&ptr);
	val_release(&len);
	return ret;
}

/* The fetch of @path below @v, which must be in memory (an address to read at). */
static int sso_fetch(struct rctx *rc, const struct emit *em, struct val *v, const char *path,
		     Dwarf_Die *type, char **fetch)
{
	struct val w;
	int ret;

	*fetch = NULL;
	val_from(&w, v);
	ret = val_path(rc, &w, path, em->sp);
	if (!ret && (w.loc.nr != 1 || w.loc.pieces[0].kind != LOC_MEM))
		ret = diag_error(rc->d, em->sp, "'%s' is not in memory at %s", v->what, rc->where);
	if (!ret)
		ret = val_word_fetch(rc, &w, em->sp, fetch);
	if (!ret && type)
		*type = w.type;
	val_release(&w);
	return ret;
}

/*
 * A string kept inline or behind a pointer (libc++'s std::string): the flag bit as the
 * discriminant of two nameless variants, the inline bytes with the short length from the
 * flag's byte, and the long string as any string with a length; the decoder shows the one
 * the flag names as the value itself. The long part's pointer is garbage in a short string
 * (its bytes are text): it is read (a fault there costs nothing) but never shown.
 */
static int emit_sso(struct rctx *rc, const struct emit *em, struct val *v,
		    const struct lang_sso *s)
{
	unsigned int total = rc->part_string_size ? rc->part_string_size :
			     rc->o->string_size ? rc->o->string_size : RESOLVE_STRING_SIZE, n;
	struct lang_layout lay = { .ptr = s->long_data, .len = s->long_len };
	struct trace_arg *parts = NULL, *a;
	struct trace_variant *vars;
	char *ff = NULL, *sf = NULL, *t, *name;
	size_t nparts = 0;
	int discr, field, nguards = rc->nr_guards, ret;
	struct emit sub = *em;
	int64_t cap = -1;
	Dwarf_Die at;

	ret = sso_fetch(rc, em, v, s->flag, NULL, &ff);
	if (!ret)
		ret = sso_fetch(rc, em, v, s->short_data, &at, &sf);
	if (ret || lang_array_dims(&at, &cap, 1) != 1 || cap <= 0) {
		if (!ret)
			ret = diag_error(rc->d, em->sp, "'%s': its inline buffer has no size",
					 v->what);
		goto out;
	}
	t = xasprintf("b1@%u/8", s->flag_bit);
	name = uniq_name(rc, em->name);
	discr = trace_probe_add_field(rc->tp, name, ff, t, false);
	free(name);
	free(t);
	sub.cast = NULL;
	/* the short string: its inline bytes, its length in the flag's byte */
	n = total < (unsigned int)cap ? total : (unsigned int)cap;
	t = xasprintf("%s[%u]", rc->o->kf.has_char ? "char" : "u8", n);
	name = xasprintf("%.*s_s", NAME_MAX_LEN - 2, em->name);
	sub.name = name;
	field = trace_probe_add_field(rc->tp, name, sf, t, false);
	free(t);
	a = new_arg(rc, &sub, v, VK_LSTRING, 0, field);
	a->max_len = n;
	t = xasprintf("b%u@%u/8", 8 - s->len_bit, s->len_bit);
	free(name);
	name = xasprintf("%.*s_s_len", NAME_MAX_LEN - 6, em->name);
	a->len_field = hidden_field(rc, ff, t, name);
	free(t);
	free(name);
	attach_guards(rc, a);
	/* the long string */
	name = xasprintf("%.*s_l", NAME_MAX_LEN - 2, em->name);
	sub.name = name;
	ret = emit_lstring(rc, &sub, v, &lay);
	free(name);
	rctx_guards_truncate(rc, nguards);	/* its data pointer's guard is its own */
	if (ret)
		goto out;	/* the probe fails: both args go with it */
	pop_arg(rc, &parts, &nparts);	/* parts[0]: long */
	pop_arg(rc, &parts, &nparts);	/* parts[1]: short */
	vars = xcalloc(2, sizeof(*vars));
	vars[0] = (struct trace_variant){ .discr = 0, .first = 1, .nr = 1 };
	vars[1] = (struct trace_variant){ .discr = 1, .first = 0, .nr = 1 };
	a = new_arg(rc, em, v, VK_VARIANT, 1, discr);
	a->variants = vars;
	a->nr_variants = 2;
	a->parts = parts;
	a->nr_parts = nparts;
	attach_guards(rc, a);
out:
	free(ff);
	free(sf);
	return ret;
}

static bool is_char_type(Dwarf_Die *type)
{
	Dwarf_Die t;
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0, size = 0;

	if (lang_strip_tag(type, &t) != DW_TAG_base_type)
		return false;
	if (dwarf_attr(&t, DW_AT_encoding, &attr))
		dwarf_formudata(&attr, &enc);
	if (dwarf_attr(&t, DW_AT_byte_size, &attr))
		dwarf_formudata(&attr, &size);
	/* plain "char" is text; signed/unsigned char and uint8_t are bytes */
	return size == 1 && (enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char) &&
	       dwarf_diename(&t) && !strcmp(dwarf_diename(&t), "char");
}

const char *int_type(unsigned int size, char prefix)
{
	static const char *const s[] = { "s8", "s16", "s32", "s64" };
	static const char *const u[] = { "u8", "u16", "u32", "u64" };
	static const char *const x[] = { "x8", "x16", "x32", "x64" };
	int i = size >= 8 ? 3 : size >= 4 ? 2 : size >= 2 ? 1 : 0;

	return prefix == 's' ? s[i] : prefix == 'x' ? x[i] : u[i];
}

/* The value of enumerator constant @attr in an enum of @size bytes; false if it has none. */
static bool enum_value(Dwarf_Attribute *attr, unsigned int size, bool is_signed, int64_t *val)
{
	int form = dwarf_whatform(attr);
	Dwarf_Sword s;
	Dwarf_Word u;

	if (form == DW_FORM_data1 || form == DW_FORM_data2 || form == DW_FORM_data4 ||
	    form == DW_FORM_data8) {
		/*
		 * Raw bits of the form's size: libdw's dwarf_formsdata() sign-extends them from
		 * that size (200 in data1 read as -56, the value of another enumerator). Signed
		 * from the enum's own size instead.
		 */
		unsigned int bits = size > 0 && size < 8 ? size * 8 : 64;
		unsigned int fbits = form == DW_FORM_data1 ? 8 : form == DW_FORM_data2 ? 16 :
				     form == DW_FORM_data4 ? 32 : 64;

		if (dwarf_formudata(attr, &u))
			return false;
		if (fbits < 64)
			u &= ((uint64_t)1 << fbits) - 1;
		if (is_signed && bits < 64 && ((u >> (bits - 1)) & 1))
			u |= ~(uint64_t)0 << bits;
		*val = (int64_t)u;
		return true;
	}
	if (is_signed && !dwarf_formsdata(attr, &s))
		*val = s;
	else if (!dwarf_formudata(attr, &u))
		*val = (int64_t)u;
	else if (!dwarf_formsdata(attr, &s))
		*val = s;
	else
		return false;
	return true;
}

/* The enumerators of enum type @en, for showing @a's values by name. */
static void fill_enums(struct trace_arg *a, Dwarf_Die *en)
{
	Dwarf_Die child;
	size_t alloc = 0;

	if (dwarf_child(en, &child) != 0)
		return;
	do {
		Dwarf_Attribute attr;
		const char *name = dwarf_diename(&child);
		int64_t val;

		if (dwarf_tag(&child) != DW_TAG_enumerator ||
		    !dwarf_attr(&child, DW_AT_const_value, &attr) ||
		    !enum_value(&attr, a->size, a->is_signed, &val))
			continue;
		ALLOC_GROW(a->enums, a->nr_enums + 1, alloc);
		a->enums[a->nr_enums].value = val;
		a->enums[a->nr_enums].name = xstrdup(name ? name : "");
		a->nr_enums++;
	} while (dwarf_siblingof(&child, &child) == 0);
}

static bool enum_signed(Dwarf_Die *en)
{
	Dwarf_Die bt;
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;

	if (lang_type_of(en, &bt) && lang_strip(&bt, &bt) == DW_TAG_base_type &&
	    dwarf_attr(&bt, DW_AT_encoding, &attr) && !dwarf_formudata(&attr, &enc))
		return enc == DW_ATE_signed || enc == DW_ATE_signed_char;
	if (dwarf_attr(en, DW_AT_encoding, &attr) && !dwarf_formudata(&attr, &enc))
		return enc == DW_ATE_signed;
	return true;	/* C enums are int */
}

/* An explicit :TYPE */
static int emit_cast(struct rctx *rc, const struct emit *em, struct val *v)
{
	const char *c = em->cast;
	Dwarf_Die t;
	int tag = v->ptrs ? DW_TAG_pointer_type : v->has_type ? lang_strip(&v->type, &t) : 0;

	/*
	 * A raw memory fetcharg typed string or T[N] already names the address the kernel
	 * reads at ("+0(%di):string"): pass it as written, as perf does.
	 */
	if (v->raw && v->loc.nr == 1 && (!strcmp(c, "string") || !strcmp(c, "ustring")))
		return emit_cstring_at(rc, em, v, v->loc.pieces[0].fetch, NULL);
	if (!strcmp(c, "string") || !strcmp(c, "ustring")) {
		char *f;
		int ret;

		Dwarf_Die et;

		if (tag == DW_TAG_array_type && !strcmp(c, "string") && lang_type_of(&t, &et) &&
		    is_char_type(&et))
			return emit_char_array_cstring(rc, em, v, &t);
		if (tag == DW_TAG_array_type) {
			if (val_addr_fetch(rc, v, em->sp, &f))
				return -EINVAL;
			ret = emit_cstring_at(rc, em, v, f, NULL);
			free(f);
			return ret;
		}
		return emit_cstring_ptr(rc, em, v);
	}
	if (!strcmp(c, "sym") || !strcmp(c, "symbol"))
		return emit_scalar(rc, em, v, "x64", VK_SYM, 8, false, NULL);
	if (!strcmp(c, "float"))
		return emit_scalar(rc, em, v, "x32", VK_FLOAT, 4, false, NULL);
	if (!strcmp(c, "double"))
		return emit_scalar(rc, em, v, "x64", VK_FLOAT, 8, false, NULL);
	if (!strcmp(c, "bool"))
		return emit_scalar(rc, em, v, "u8", VK_BOOL, 1, false, NULL);
	if ((c[0] == 's' || c[0] == 'u' || c[0] == 'x') &&
	    (!strcmp(c + 1, "8") || !strcmp(c + 1, "16") || !strcmp(c + 1, "32") ||
	     !strcmp(c + 1, "64"))) {
		unsigned int bits = (unsigned int)atoi(c + 1);

		return emit_scalar(rc, em, v, c, c[0] == 's' ? VK_SIGNED : c[0] == 'u' ?
				   VK_UNSIGNED : VK_HEX, bits / 8, c[0] == 's', NULL);
	}
	/* any other kernel type (u8[16], b4@2/8, char, %pd ...) as the kernel shows it */
	if (strchr(c, '[')) {
		char *f;
		char *name;
		int field;
		struct trace_arg *a;

		if (v->raw && v->loc.nr == 1)
			f = xstrdup(v->loc.pieces[0].fetch);
		else if (val_addr_fetch(rc, v, em->sp, &f))
			return -EINVAL;
		name = uniq_name(rc, em->name);
		field = trace_probe_add_field(rc->tp, name, f, c, false);
		a = new_arg(rc, em, v, VK_RAW, 0, field);
		attach_guards(rc, a);
		free(name);
		free(f);
		return 0;
	}
	return emit_scalar(rc, em, v, c, VK_RAW, 0, false, NULL);
}

static int emit_struct_error(struct rctx *rc, const struct emit *em, struct val *v,
			     Dwarf_Die *t)
{
	struct strbuf fields = STRBUF_INIT;
	char *tn = rctx_type_name(rc, &v->type, true);

	strbuf_init(&fields);
	lang_list_members(t, &fields);
	diag_error(rc->d, em->sp, "'%s' is a %s; name one of its fields", v->what, tn);
	if (fields.len)
		diag_hint(rc->d, "fields: %s", fields.buf);
	strbuf_release(&fields);
	free(tn);
	return -EINVAL;
}

/* The last argument shows @v's type, not the type of the part that was fetched. */
void set_last_type_name(struct rctx *rc, struct val *v)
{
	struct trace_arg *a = &rc->tp->args[rc->tp->nr_args - 1];

	free(a->type_name);
	a->type_name = val_type_name(rc, v);
}


/*
 * A value of two halves of @half bytes each (a complex number's real and imaginary parts, a
 * 128-bit integer's low and high words), fetched as @ktype each: the argument's field and a
 * hidden one right after it ("NAME_hi"), wherever the halves are (memory, two registers).
 */
static int emit_pair(struct rctx *rc, const struct emit *em, struct val *v, unsigned int half,
		     const char *ktype, enum value_kind kind, bool is_signed)
{
	char *fetch[2] = { NULL, NULL }, *name = NULL, *hi;
	struct trace_arg *a;
	int ret = 0, field;

	for (int i = 0; i < 2 && !ret; i++) {
		struct val part;

		ret = val_bytes(rc, v, (int64_t)i * half, half, em->sp, &part);
		if (!ret)
			ret = val_word_fetch(rc, &part, em->sp, &fetch[i]);
		val_release(&part);
	}
	if (!ret) {
		name = uniq_name(rc, em->name);
		field = trace_probe_add_field(rc->tp, name, fetch[0], ktype, rc->in_part);
		hi = xasprintf("%.*s_hi", NAME_MAX_LEN - 3, name);
		free(name);
		name = uniq_name(rc, hi);
		free(hi);
		trace_probe_add_field(rc->tp, name, fetch[1], ktype, true);
		a = new_arg(rc, em, v, kind, half, field);
		a->nr_fields = 2;
		a->is_signed = is_signed;
		attach_guards(rc, a);
	}
	free(name);
	free(fetch[0]);
	free(fetch[1]);
	return ret;
}

/* A base type: a number, a character, a bool, a float (of up to 8 bytes), a complex number,
 * a 128-bit integer. */
static int emit_base(struct rctx *rc, const struct emit *em, struct val *v, Dwarf_Die *t)
{
	int64_t size = lang_type_size(&v->type);
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;

	if (dwarf_attr(t, DW_AT_encoding, &attr))
		dwarf_formudata(&attr, &enc);
	if (enc == DW_ATE_complex_float && (size == 8 || size == 16))
		return emit_pair(rc, em, v, size / 2, size == 8 ? "x32" : "x64", VK_COMPLEX, false);
	if (size == 16 && (enc == DW_ATE_signed || enc == DW_ATE_unsigned))
		return emit_pair(rc, em, v, 8, "x64", VK_INT128, enc == DW_ATE_signed);
	if (size > 8 || size <= 0)
		return diag_error(rc->d, em->sp, "'%s' has %" PRId64 " bytes; upfront reads "
				  "values of up to 8, complex numbers and 128-bit integers",
				  v->what, size);
	switch (enc) {
	case DW_ATE_boolean:
		return emit_scalar(rc, em, v, int_type(size, 'u'), VK_BOOL, size, false, NULL);
	case DW_ATE_float:
		if (v->loc.nr == 1 && v->loc.pieces[0].kind == LOC_VAL &&
		    v->loc.pieces[0].reg >= 0)
			return diag_error(rc->d, em->sp, "'%s' is a float in register %s, which "
					  "upfront cannot read as a float", v->what,
					  v->loc.pieces[0].fetch);
		return emit_scalar(rc, em, v, size == 4 ? "x32" : "x64", VK_FLOAT, size, false,
				   NULL);
	case DW_ATE_unsigned_char:
		/* unsigned char, uint8_t, lu_byte are bytes, numbers to their programmers; a
		 * plain char that is unsigned (not on x86) is still a character */
		if (!dwarf_diename(t) || strcmp(dwarf_diename(t), "char"))
			return emit_scalar(rc, em, v, "u8", VK_UNSIGNED, 1, false, NULL);
		/* fallthrough */
	case DW_ATE_signed_char:
		if (size == 1 && !v->bit_size)	/* a char bitfield is a number */
			return emit_scalar(rc, em, v, enc == DW_ATE_signed_char ? "s8" : "u8",
					   VK_CHAR, 1, enc == DW_ATE_signed_char, NULL);
		/* fallthrough */
	case DW_ATE_signed:
		if (enc == DW_ATE_signed || enc == DW_ATE_signed_char)
			return emit_scalar(rc, em, v, int_type(size, 's'), VK_SIGNED, size, true,
					   NULL);
		/* fallthrough */
	default:
		return emit_scalar(rc, em, v, int_type(size, 'u'), VK_UNSIGNED, size, false, NULL);
	}
}

/* An enum: its number, shown by the enumerator's name. */
static int emit_enum(struct rctx *rc, const struct emit *em, struct val *v, Dwarf_Die *t)
{
	int64_t size = lang_type_size(&v->type);
	struct trace_arg *a;
	bool sg = enum_signed(t);

	if (size <= 0 || size > 8)
		size = 4;
	if (emit_scalar(rc, em, v, int_type(size, sg ? 's' : 'u'), VK_ENUM, size, sg, &a))
		return -EINVAL;
	fill_enums(a, t);
	return 0;
}

/* A pointer: a C string, a function's symbol or an address; a reference: what it names. */
static int emit_pointer(struct rctx *rc, const struct emit *em, struct val *v, Dwarf_Die *t,
			int tag)
{
	Dwarf_Die to;
	struct val n;

	if (tag != DW_TAG_pointer_type) {
		if (!lang_type_of(t, &to))
			return emit_scalar(rc, em, v, "x64", VK_POINTER, 8, false, NULL);
		if (val_deref(rc, v, 0, &to, true, v->what, em->sp, &n))
			return -EINVAL;
		val_move(v, &n);
		return emit_val(rc, em, v);
	}
	if (v->is_vptr)
		return emit_scalar(rc, em, v, "x64", VK_SYM, 8, false, NULL);
	if (lang_type_of(t, &to)) {
		Dwarf_Die ts;
		int ttag = lang_strip_tag(&to, &ts);

		if (rc->lang->char_ptr_is_string && lang_of_die(t)->char_ptr_is_string &&
		    is_char_type(&to))
			return emit_cstring_ptr(rc, em, v);
		if (ttag == DW_TAG_subroutine_type && lang_of_die(t) == &lang_go)
			return emit_go_func(rc, em, v);
		if (ttag == DW_TAG_subroutine_type)
			return emit_scalar(rc, em, v, "x64", VK_SYM, 8, false, NULL);
		/* Go: a pointer alone is shown with what it points to, as delve prints it */
		if (rc->lang == &lang_go && !rc->in_whole && !rc->in_part &&
		    !rc->in_expansion && vlayout_go_pointer(&v->type) && vlayout_whole(&to, 0))
			return emit_pointee_whole(rc, em, v, &to);
	}
	return emit_scalar(rc, em, v, "x64", VK_POINTER, 8, false, NULL);
}

/* A pointer without a DIE (a cast's "T *"): a C string when T is a character, else an
 * address. */
static int emit_synth_pointer(struct rctx *rc, const struct emit *em, struct val *v)
{
	if (v->ptrs == 1 && v->has_type && rc->lang->char_ptr_is_string &&
	    lang_of_die(&v->type)->char_ptr_is_string && is_char_type(&v->type))
		return emit_cstring_ptr(rc, em, v);
	return emit_scalar(rc, em, v, "x64", VK_POINTER, 8, false, NULL);
}

/* An array: char[N] as text, else the kernel's T[N] of numbers or pointers. */
static int emit_array(struct rctx *rc, const struct emit *em, struct val *v, Dwarf_Die *t)
{
	Dwarf_Die et, ets;
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	int64_t count, esize, inner;
	char *f, *ktype, *name;
	struct trace_arg *a;
	int field;

	if (!lang_type_of(t, &et))
		return diag_error(rc->d, em->sp, "'%s' is an array of unknown type", v->what);
	/* what is left of a multi-dimensional array is read whole, row after row */
	type_array_dim(t, v->dim, &count, &inner);
	count = count < 0 || inner < 0 ? -1 : count * inner;
	if (is_char_type(&et) && rc->lang->char_ptr_is_string)
		return emit_char_array(rc, em, v, t);
	esize = lang_type_size(&et);
	if (lang_strip(&et, &ets) != DW_TAG_base_type && !tag_is_pointer(dwarf_tag(&ets)))
		return diag_error(rc->d, em->sp, "'%s' is an array of aggregates; index it "
				  "('%s[0]')", v->what, v->what);
	if (count < 0)
		return diag_error(rc->d, em->sp, "'%s' is an array of unknown length; index it "
				  "('%s[0]')", v->what, v->what);
	if (count <= 0 || count > rc->o->kf.max_array || esize <= 0 || esize > 8)
		return diag_error(rc->d, em->sp, "'%s' has %" PRId64 " elements; the kernel "
				  "reads arrays of up to %d; index it", v->what, count,
				  rc->o->kf.max_array);
	if (val_addr_fetch(rc, v, em->sp, &f))
		return -EINVAL;
	if (dwarf_attr(&ets, DW_AT_encoding, &attr))
		dwarf_formudata(&attr, &enc);
	ktype = xasprintf("%s[%" PRId64 "]", int_type(esize, (enc == DW_ATE_signed ||
				enc == DW_ATE_signed_char) ? 's' :
				dwarf_tag(&ets) == DW_TAG_pointer_type ? 'x' : 'u'), count);
	name = uniq_name(rc, em->name);
	field = trace_probe_add_field(rc->tp, name, f, ktype, false);
	a = new_arg(rc, em, v, VK_RAW, 0, field);
	attach_guards(rc, a);
	free(name);
	free(ktype);
	free(f);
	return 0;
}

/* The scalar at member path @path of @v (an interface's type word, a slice's length),
 * shown with @v's type. */
static int emit_part(struct rctx *rc, const struct emit *em, struct val *v, const char *path,
		     const char *ktype, enum value_kind kind)
{
	struct val w;
	int ret;

	val_from(&w, v);
	ret = val_path(rc, &w, path, em->sp);
	if (!ret)
		ret = emit_scalar(rc, em, &w, ktype, kind, 8, false, NULL);
	if (!ret)
		set_last_type_name(rc, v);
	val_release(&w);
	return ret;
}

/*
 * A struct, class or union: a string with a length as text, a Go interface as its dynamic
 * type (and value), a slice/vector alone as its length (std::vector: its data pointer);
 * anything else must be named by a field.
 */
/* The DW_TAG_variant_part of a Rust enum's struct type (rustc's enums with data). */
static bool variant_part(Dwarf_Die *t, Dwarf_Die *vp)
{
	if (dwarf_child(t, vp) != 0)
		return false;
	do {
		if (dwarf_tag(vp) == DW_TAG_variant_part)
			return true;
	} while (dwarf_siblingof(vp, vp) == 0);
	return false;
}

/* Take the argument emit_*() just appended out of rc->tp->args into @parts. */
void pop_arg(struct rctx *rc, struct trace_arg **parts, size_t *nr)
{
	*parts = xrealloc(*parts, (*nr + 1) * sizeof(**parts));
	(*parts)[(*nr)++] = rc->tp->args[--rc->tp->nr_args];
}

/* @v's part at @off of type @type as one value, named NAME_MEMBER; false when it cannot be
 * shown (a struct payload: only its name is) */
static bool emit_part_value(struct rctx *rc, const struct emit *em, struct val *v, int64_t off,
			    Dwarf_Die *type, const char *member, struct trace_arg **parts,
			    size_t *nr)
{
	struct diag scratch, *save = rc->d;
	struct emit sub = *em;
	size_t before = rc->tp->nr_args, fields = rc->tp->nr_fields;
	struct val w;
	char *name = xasprintf("%s_%s", em->name, member[0] == '_' && member[1] == '_' ?
			       member + 2 : member);
	bool ok, in_whole;

	memset(&w, 0, sizeof(w));
	w.type = v->type;
	w.has_type = true;
	loc_copy(&w.loc, &v->loc);
	w.what = xasprintf("%s.%s", v->what, member);
	sub.name = name;
	sub.cast = NULL;
	diag_init(&scratch, rc->spec->text);
	rc->d = &scratch;
	in_whole = rc->in_whole;
	rc->in_whole = true;	/* a struct payload is not shown whole: its name is */
	ok = !val_at_offset(rc, &w, off, type, w.what, em->sp) && !emit_val(rc, &sub, &w) &&
	     rc->tp->nr_args == before + 1;
	rc->in_whole = in_whole;
	rc->d = save;
	if (ok) {
		free(rc->tp->args[before].expr);
		rc->tp->args[before].expr = xstrdup(member);
		pop_arg(rc, parts, nr);
	} else {
		pr_debug("%s.%s: not shown: %s", v->what, member, scratch.msg ? scratch.msg : "?");
		trace_probe_truncate(rc->tp, fields, before);
	}
	diag_release(&scratch);
	val_release(&w);
	free(name);
	return ok;
}

/* One variant (DW_TAG_variant @var): its name, discriminant value and payload. */
static void emit_one_variant(struct rctx *rc, const struct emit *em, struct val *v,
			     Dwarf_Die *var, uint64_t mask, struct trace_variant *tv,
			     struct trace_arg **parts, size_t *nr)
{
	Dwarf_Attribute attr;
	Dwarf_Word dv;
	Dwarf_Die m, pt, c;
	int64_t moff = 0, off;

	tv->is_default = !dwarf_attr(var, DW_AT_discr_value, &attr) || dwarf_formudata(&attr, &dv);
	tv->discr = tv->is_default ? 0 : dv & mask;
	tv->first = (int)*nr;
	if (dwarf_child(var, &m) != 0 || dwarf_tag(&m) != DW_TAG_member)
		return;
	tv->name = xstrdup(dwarf_diename(&m) ? dwarf_diename(&m) : "?");
	lang_member_offset(&m, &moff);
	if (!lang_type_of(&m, &pt) || lang_strip(&pt, &pt) == 0 || dwarf_child(&pt, &c) != 0)
		return;
	tv->tuple = true;
	do {
		const char *n = dwarf_diename(&c);
		Dwarf_Die ct;

		if (dwarf_tag(&c) != DW_TAG_member || !n || !lang_member_offset(&c, &off) ||
		    !lang_type_of(&c, &ct))
			continue;
		if (strncmp(n, "__", 2))
			tv->tuple = false;
		if (emit_part_value(rc, em, v, moff + off, &ct, n, parts, nr))
			tv->nr++;
		else
			tv->more = true;
	} while (dwarf_siblingof(&c, &c) == 0);
}

/*
 * A Rust enum of one variant: no discriminant in DWARF (nor in memory). A constant 0 stands
 * for it (a fetcharg "\0"), the one variant is the default one, and its payload is fetched
 * as any variant's: Only(7, 8), At { x: 3, y: -4 }, Alone (which reads nothing).
 */
static int emit_single_variant(struct rctx *rc, const struct emit *em, struct val *v,
			       Dwarf_Die *vp)
{
	struct trace_variant *vars = NULL;
	struct trace_arg *parts = NULL, *a;
	size_t nvars = 0, nparts = 0;
	struct emit dem = *em;
	char *name = uniq_name(rc, em->name);
	int field = trace_probe_add_field(rc->tp, name, "\\0", "u8", false);
	Dwarf_Die c;

	free(name);
	dem.cast = NULL;
	if (dwarf_child(vp, &c) == 0) {
		do {
			if (dwarf_tag(&c) != DW_TAG_variant || nvars)
				continue;
			vars = xcalloc(1, sizeof(*vars));
			emit_one_variant(rc, &dem, v, &c, 0xff, &vars[nvars++], &parts, &nparts);
			vars[0].is_default = true;
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	if (!nvars)
		return emit_struct_error(rc, em, v, &v->type);
	a = new_arg(rc, em, v, VK_VARIANT, 1, field);
	a->variants = vars;
	a->nr_variants = nvars;
	a->parts = parts;
	a->nr_parts = nparts;
	/* a zero-sized one has one value, read from nowhere: Rust's reference to it is
	 * dangling (NonNull::dangling(), 0x1), not a NULL to judge */
	if (lang_type_size(&v->type) != 0)
		attach_guards(rc, a);
	return 0;
}

/*
 * A Rust enum with data: the discriminant as a hidden field, then every variant's payload
 * fetched (the kernel cannot choose), and the decoder shows the variant the discriminant
 * names: Some(5), None, Err("no stock"), Rect { w: 4, h: 5 }. The tagged layout keeps the
 * tag in a member of its own; the niche layout in a field of the dataful variant, whose
 * variant is then the default one.
 */
static int emit_variant(struct rctx *rc, const struct emit *em, struct val *v, Dwarf_Die *vp)
{
	struct trace_variant *vars = NULL;
	struct trace_arg *parts = NULL, *a;
	size_t nvars = 0, nparts = 0;
	Dwarf_Attribute attr;
	Dwarf_Die discr, dt, c;
	int64_t doff = 0, dsize = 1;
	uint64_t mask;
	struct trace_arg *da;
	struct val w;
	int field;
	unsigned int bits;
	struct emit dem = *em;

	if (!dwarf_attr(vp, DW_AT_discr, &attr))
		return emit_single_variant(rc, em, v, vp);
	if (!dwarf_formref_die(&attr, &discr) || !lang_member_offset(&discr, &doff) ||
	    !lang_type_of(&discr, &dt))
		return emit_struct_error(rc, em, v, &v->type);
	dsize = lang_type_size(&dt);
	if (dsize <= 0 || dsize > 8)
		return diag_error(rc->d, em->sp, "'%s' is an enum whose discriminant has %" PRId64
				  " bytes", v->what, dsize);
	mask = dsize == 8 ? ~0ULL : (1ULL << (dsize * 8)) - 1;
	val_from(&w, v);
	dem.cast = NULL;
	/* the discriminant: a field of its own (a part of a register too), its arg dropped */
	if (val_at_offset(rc, &w, doff, &dt, w.what, em->sp) ||
	    emit_scalar(rc, &dem, &w, int_type((unsigned int)dsize, 'u'), VK_UNSIGNED,
			(unsigned int)dsize, false, &da)) {
		val_release(&w);
		return -EINVAL;
	}
	val_release(&w);
	field = da->field;
	bits = da->bit_width;
	trace_probe_truncate(rc->tp, rc->tp->nr_fields, rc->tp->nr_args - 1);
	if (dwarf_child(vp, &c) == 0) {
		do {
			if (dwarf_tag(&c) != DW_TAG_variant)
				continue;
			vars = xrealloc(vars, (nvars + 1) * sizeof(*vars));
			memset(&vars[nvars], 0, sizeof(*vars));
			emit_one_variant(rc, &dem, v, &c, mask, &vars[nvars++], &parts, &nparts);
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	a = new_arg(rc, em, v, VK_VARIANT, (unsigned int)dsize, field);
	a->bit_width = bits;
	a->variants = vars;
	a->nr_variants = nvars;
	a->parts = parts;
	a->nr_parts = nparts;
	attach_guards(rc, a);
	return 0;
}

/* A smart pointer alone is its raw pointer (as gdb shows get()), named by its own type. */
static int emit_smart_or_error(struct rctx *rc, const struct emit *em, struct val *v,
			       Dwarf_Die *t)
{
	struct val w;
	enum smart kind;
	int ret;

	val_from(&w, v);
	ret = val_smart_ptr(rc, &w, false, em->sp, &kind);
	if (!ret && kind == SMART_NONE)
		ret = emit_struct_error(rc, em, v, t);
	else if (!ret)
		ret = emit_scalar(rc, em, &w, "x64", VK_POINTER, 8, false, NULL);
	if (!ret && kind != SMART_NONE)
		set_last_type_name(rc, v);
	val_release(&w);
	return ret;
}

static int emit_aggregate(struct rctx *rc, const struct emit *em, struct val *v, Dwarf_Die *t)
{
	const struct lang_ops *lo = lang_of_die(t);
	struct lang_layout l;
	struct lang_sso sso;
	const char *word;
	Dwarf_Die vp;

	if (lo->sso_layout && lo->sso_layout(t, dwarf_diename(t), &sso))
		return emit_sso(rc, em, v, &sso);
	if (type_layout(t, false, &l) && l.len)
		return emit_lstring(rc, em, v, &l);
	if (variant_part(t, &vp))
		return emit_variant(rc, em, v, &vp);
	if (lo->iface_word && (word = lo->iface_word(t, dwarf_diename(t))))
		return emit_go_iface(rc, em, v, t, word);
	if (type_layout(t, true, &l)) {
		struct val w;
		int ret;

		/* a slice/vector alone: its length (std::vector: its data pointer) */
		if (l.len)
			return emit_part(rc, em, v, l.len, "u64", VK_UNSIGNED);
		ret = val_layout_ptr(rc, v, &l, em->sp, &w);
		if (!ret)
			ret = emit_scalar(rc, em, &w, "x64", VK_POINTER, 8, false, NULL);
		if (!ret)
			set_last_type_name(rc, v);
		val_release(&w);
		return ret;
	}
	return emit_smart_or_error(rc, em, v, t);
}

/* @v as kernel fields, by its type. */
int emit_val(struct rctx *rc, const struct emit *em, struct val *v)
{
	Dwarf_Die t;
	int tag;

	if (v->loc.nr == 1 && (v->loc.pieces[0].kind == LOC_NONE ||
			       v->loc.pieces[0].kind == LOC_BAD))
		return val_piece_error(rc, &v->loc.pieces[0], v->what, em->sp);
	if (v->adj)
		return diag_error(rc->d, em->sp, "'%s' is a pointer moved by %" PRId64 " bytes to its "
				  "base or derived class, which uprobes cannot add; read a field "
				  "through it", v->what, v->adj);
	if (em->cast)
		return emit_cast(rc, em, v);
	if (v->typeid)
		return emit_typeid(rc, em, v);
	if (v->addr_of)
		return emit_addr_of(rc, em, v);
	if (v->ptrs)
		return emit_synth_pointer(rc, em, v);
	if (!v->has_type)	/* registers, raw fetchargs, void: as the kernel reads them */
		return emit_scalar(rc, em, v, "u64", VK_RAW, 8, false, NULL);
	if (rc->lang == &lang_go) {
		struct lang_go_map m;

		if (lang_go_map(&v->type, &m))
			return emit_go_map(rc, em, v, &m);
	}
	if (vlayout_whole(&v->type, v->dim))
		return emit_whole(rc, em, v);
	tag = lang_strip(&v->type, &t);
	switch (tag) {
	case DW_TAG_base_type:
		return emit_base(rc, em, v, &t);
	case DW_TAG_enumeration_type:
		return emit_enum(rc, em, v, &t);
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		return emit_pointer(rc, em, v, &t, tag);
	case DW_TAG_ptr_to_member_type:
		return emit_scalar(rc, em, v, "x64", VK_HEX, 8, false, NULL);
	case DW_TAG_subroutine_type:
		if (lang_of_die(&t) == &lang_go)	/* a func value: a pointer to its closure */
			return emit_go_func(rc, em, v);
		return emit_scalar(rc, em, v, "x64", VK_SYM, 8, false, NULL);
	case DW_TAG_array_type:
		return emit_array(rc, em, v, &t);
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		return emit_aggregate(rc, em, v, &t);
	default: {
		char *tn = rctx_type_name(rc, &v->type, true);

		diag_error(rc->d, em->sp, "'%s' has type %s, which upfront cannot read", v->what,
			   tn);
		free(tn);
		return -EINVAL;
	}
	}
}


/* @given: @name is the user's NAME=, used as is (unique, at most 32 characters) */
int emit_arg(struct rctx *rc, const char *name, bool given, const char *expr,
		    const char *cast, struct span sp, struct span cast_sp, struct val *v)
{
	struct emit em = { .expr = expr, .cast = cast, .sp = sp, .cast_sp = cast_sp };
	char *n;
	int ret;

	if (given) {
		if (strlen(name) > NAME_MAX_LEN)
			return diag_error(rc->d, sp, "argument name '%s' is longer than the "
					  "kernel's limit of %d characters", name, NAME_MAX_LEN);
		if (field_name_used(rc->tp, name))
			return diag_error(rc->d, sp, "argument name '%s' is used twice", name);
		n = xstrdup(name);
		rc->claim = n;
	} else {
		n = uniq_name(rc, name);
	}
	em.name = n;
	ret = emit_val(rc, &em, v);
	rc->claim = NULL;
	free(n);
	return ret;
}
