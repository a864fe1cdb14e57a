// SPDX-License-Identifier: GPL-2.0-or-later
/* resolve-dyn.c - expressions decided when the event is decoded: typeid(), dynamic_cast<>,
 * Go type assertions, and $goid */
#define LOG_DOMAIN "resolve"
#include <dwarf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "dyntype.h"
#include "lang.h"
#include "log.h"
#include "parse.h"
#include "resolve-internal.h"
#include "symtab.h"

/*
 * The kernel fetches every field of an event whatever the dynamic type turns out to be:
 * the type word (a C++ vtable pointer, a Go type word or itab, a Rust vtable pointer) is
 * fetched too, as a hidden field, and the decoder compares it with the addresses accepted
 * here (GUARD_TYPE) or names the type it stands for (typeid()). A value read through a
 * wrong guess is null, never what happens to be at that address.
 */

/* @v's part at member path @path, as a new value. */
static int val_part(struct rctx *rc, const struct val *v, const char *path, struct span sp,
		    struct val *out)
{
	val_from(out, v);
	return val_path(rc, out, path, sp);
}

/* A value that is the word fetcharg @fetch reads (a type word), of pointer type @type. */
static void val_of_fetch(struct val *out, const char *fetch, Dwarf_Die *type, bool has_type,
			 const char *what)
{
	struct loc_piece p = { .kind = LOC_VAL, .reg = -1, .fetch = (char *)fetch };

	memset(out, 0, sizeof(*out));
	loc_add_piece(&out->loc, &p);
	if (has_type)
		out->type = *type;
	out->has_type = has_type;
	out->what = xstrdup(what);
}

/* The fetch of the word at @off in object @v, which must be in memory. */
static int obj_word_fetch(struct rctx *rc, const struct val *v, int64_t off, struct span sp,
			  char **fetch)
{
	const struct loc_piece *p = &v->loc.pieces[0];

	if (v->loc.nr != 1 || p->kind != LOC_MEM)
		return diag_error(rc->d, sp, "'%s' is not in memory here; its vtable pointer "
				  "cannot be read", v->what);
	*fetch = loc_mem_fetch(p->base, p->off + off);
	return 0;
}

/* The guards recorded since the first @n: a NULL pointer there makes the value null. */
static void guards_make_nil(struct rctx *rc, int n)
{
	for (int i = n; i < rc->nr_guards; i++)
		if (rc->guards[i].kind == GUARD_PTR)
			rc->guards[i].kind = GUARD_NIL;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Record a GUARD_TYPE on the word @fetch reads (and @fetch2, tried when it is none of them):
 * the value is null unless the word is one of @words (taken, sorted here), or, with @cls (a
 * dynamic_cast<@cls *>, the word at @cls_off in it), a vtable pointer of @cls or a class
 * derived from it that the decoder finds in another object of the process.
 */
static int add_type_guard(struct rctx *rc, const char *fetch, const char *fetch2,
			  uint64_t *words, size_t nr, const char *cls, int64_t cls_off,
			  const char *expr, struct span sp)
{
	struct guard *g;
	size_t n = 0;

	qsort(words, nr, sizeof(*words), u64_cmp);
	for (size_t i = 0; i < nr; i++)
		if (!n || words[n - 1] != words[i])
			words[n++] = words[i];
	g = rctx_add_guard(rc, GUARD_TYPE, fetch, expr, (uint64_t)rc->nr_guards);
	if (!g) {
		free(words);
		return diag_error(rc->d, sp, "'%s' is reached through more than %d pointers and "
				  "type checks", expr, TRACE_ARG_MAX_GUARDS);
	}
	g->words = words;
	g->nr_words = (unsigned int)n;
	g->base = fetch2 ? xstrdup(fetch2) : NULL;
	g->cls = cls ? xstrdup(cls) : NULL;
	g->cls_off = cls_off;
	return 0;
}

/* ---- Go interfaces ---- */

char *go_iface_itab_type(Dwarf_Die *iface, const char *tab_fetch)
{
	Dwarf_Die m, pt, itab, tm;
	int64_t off, toff;

	if (!lang_find_member(iface, "tab", &m, &off) || !lang_type_of(&m, &pt) ||
	    lang_strip(&pt, &pt) != DW_TAG_pointer_type || !lang_type_of(&pt, &itab) ||
	    !lang_find_member(&itab, "_type", &tm, &toff))
		return NULL;
	return loc_mem_fetch(tab_fetch, toff);
}

/* @v is a Go interface value (struct type @t): its type word's member, or NULL. */
static const char *go_word(struct val *v, Dwarf_Die *t)
{
	const struct lang_ops *lo;

	if (!v->has_type || !tag_is_struct(lang_strip(&v->type, t)))
		return NULL;
	lo = lang_of_die(t);
	return lo == &lang_go && lo->iface_word ? lo->iface_word(t, dwarf_diename(t)) : NULL;
}

/* ---- Rust trait objects ---- */

/* The dotted path to the vtable pointer of the first trait object (a struct with members
 * "pointer" and "vtable": &dyn T, Box<dyn T>) at or below @type. */
static bool rust_vtable_path(Dwarf_Die *type, struct strbuf *path, int depth)
{
	Dwarf_Die t, m, child;
	int64_t off;

	if (depth > 6 || !tag_is_struct(lang_strip(type, &t)) || lang_of_die(&t) != &lang_rust)
		return false;
	if (lang_find_member(&t, "pointer", &m, &off) && lang_find_member(&t, "vtable", &m, &off)) {
		strbuf_addstr(path, path->len ? ".vtable" : "vtable");
		return true;
	}
	if (dwarf_child(&t, &child) != 0)
		return false;
	do {
		Dwarf_Die mt;
		size_t len = path->len;
		const char *n = dwarf_diename(&child);

		if (dwarf_tag(&child) != DW_TAG_member || !n || !lang_type_of(&child, &mt))
			continue;
		if (path->len)
			strbuf_addch(path, '.');
		strbuf_addstr(path, n);
		if (rust_vtable_path(&mt, path, depth + 1))
			return true;
		path->len = len;
		path->buf[len] = '\0';
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/* Rust: @v with the references and raw pointers in front of it followed (&Rc<dyn T>). */
static int rust_follow_refs(struct rctx *rc, struct val *v, struct span sp)
{
	for (int i = 0; i < 8 && v->has_type; i++) {
		Dwarf_Die t, to;
		struct val n;
		int tag = lang_strip(&v->type, &t);

		if (!tag_is_pointer(tag) || lang_of_die(&t) != &lang_rust || !lang_type_of(&t, &to))
			return 0;
		if (val_deref(rc, v, 0, &to, true, v->what, sp, &n))
			return -EINVAL;
		val_move(v, &n);
	}
	return 0;
}

/* ---- typeid() ---- */

static int typeid_cxx(struct rctx *rc, struct val *v, Dwarf_Die *cls, struct span sp,
		      struct val *out)
{
	Dwarf_Die member, mt;
	const char *name;
	int64_t off;
	char *fetch = NULL;

	if (!find_vptr(cls, NULL, &member, &off, 0) || !lang_type_of(&member, &mt)) {
		char *tn, *doing = xasprintf("cannot tell the dynamic type of '%s'", v->what);
		int ret = rctx_declared_only(rc, cls, doing, sp);

		free(doing);
		if (ret)
			return ret;
		tn = rctx_type_name(rc, &v->type, true);

		diag_error(rc->d, sp, "'%s' is a %s, which has no virtual functions: its dynamic "
			   "type is its static type", v->what, tn);
		free(tn);
		return -EINVAL;
	}
	if (obj_word_fetch(rc, v, off, sp, &fetch))
		return -EINVAL;
	val_of_fetch(out, fetch, &mt, true, v->what);
	out->typeid = DYN_CXX_VPTR;
	name = dyntypes_cxx_class_name(dyntypes_of(rc->dbg), cls);
	out->typeid_class = name ? xstrdup(name) : NULL;
	out->typeid_off = off;
	free(fetch);
	return 0;
}

static int typeid_go(struct rctx *rc, struct val *v, Dwarf_Die *t, const char *word,
		     struct span sp, struct val *out)
{
	struct val w;
	char *fetch;

	if (val_part(rc, v, word, sp, &w) || val_word_fetch(rc, &w, sp, &fetch)) {
		val_release(&w);
		return -EINVAL;
	}
	val_of_fetch(out, fetch, &w.type, w.has_type, v->what);
	if (!strcmp(word, "tab")) {
		out->typeid = DYN_GO_ITAB;
		out->typeid_type = go_iface_itab_type(t, fetch);
	} else {
		out->typeid = DYN_GO_TYPE;
	}
	free(fetch);
	val_release(&w);
	if (out->typeid == DYN_GO_ITAB && !out->typeid_type)
		return diag_error(rc->d, sp, "'%s': runtime.itab has no _type member in the DWARF",
				  v->what);
	return 0;
}

static int eval_typeid(struct rctx *rc, const struct expr *e, struct val *out)
{
	struct strbuf path = STRBUF_INIT;
	const char *word;
	struct val v;
	Dwarf_Die t;
	int tag = 0, n, ret = -EINVAL;

	strbuf_init(&path);
	if (val_eval(rc, e->base, &v))
		goto out;
	if (rust_follow_refs(rc, &v, e->span))
		goto out;
	if ((word = go_word(&v, &t))) {
		ret = typeid_go(rc, &v, &t, word, e->span, out);
	} else if (v.has_type && rust_vtable_path(&v.type, &path, 0)) {
		struct val w;
		char *fetch;

		if (!val_part(rc, &v, path.buf, e->span, &w) &&
		    !val_word_fetch(rc, &w, e->span, &fetch)) {
			val_of_fetch(out, fetch, &w.type, w.has_type, v.what);
			out->typeid = DYN_RUST_VTABLE;
			free(fetch);
			ret = 0;
		}
		val_release(&w);
	} else {
		n = rc->nr_guards;
		if (val_follow_pointers(rc, &v, e->span, &tag, &t))
			goto out;
		guards_make_nil(rc, n);
		if (tag_is_struct(tag) && lang_of_die(&t) == &lang_cxx)
			ret = typeid_cxx(rc, &v, &t, e->span, out);
		else
			ret = diag_error(rc->d, e->span, "typeid() needs a C++ polymorphic object, a "
					 "Go interface or a Rust dyn Trait; '%s' is none", v.what);
	}
out:
	strbuf_release(&path);
	val_release(&v);
	return ret;
}

/* ---- dynamic_cast<T *>() ---- */

/*
 * The vtable pointers an object of static type @s (at @vptr_off in it) holds when its
 * dynamic type is @target or derives from it, and @s lies at @s_in_t in @target: in each
 * such class C, the address point of the vtable of the subobject at off(@target in C) +
 * @s_in_t + @vptr_off.
 */
static size_t cxx_accepted(struct rctx *rc, Dwarf_Die *target, const char *tname,
			   int64_t s_in_t, int64_t vptr_off, uint64_t **words)
{
	struct dyntypes *dt = dyntypes_of(rc->dbg);
	struct strlist classes = STRLIST_INIT;
	size_t n = 0;

	*words = xmalloc(sizeof(**words));
	strlist_add(&classes, tname);
	dyntypes_cxx_derived(dt, tname, &classes);
	for (size_t i = 0; i < classes.nr; i++) {
		Dwarf_Die c = *target;
		int64_t t_in_c = 0;
		uint64_t ap;

		if (i && (!dyntypes_cxx_class(dt, classes.v[i], &c) ||
			  !dyntypes_cxx_base_offset(dt, &c, tname, &t_in_c))) {
			pr_info("dynamic_cast<%s *>: %s is skipped (no definition, or a virtual "
				"base)", tname, classes.v[i]);
			continue;
		}
		if (!dyntypes_cxx_address_point(dt, classes.v[i], t_in_c + s_in_t + vptr_off, &ap)) {
			pr_debug("dynamic_cast<%s *>: no vtable for %s in the binary", tname,
				 classes.v[i]);
			continue;
		}
		*words = xrealloc(*words, (n + 1) * sizeof(**words));
		(*words)[n++] = ap;
		pr_debug("dynamic_cast<%s *>: %s: vtable pointer 0x%" PRIx64, tname, classes.v[i],
			 ap);
	}
	strlist_release(&classes);
	return n;
}

/* The class @ty ("T *") names, from the binary's type index. */
static int find_class(struct rctx *rc, const struct type_ref *ty, Dwarf_Die *out)
{
	struct val tv;
	int tag;

	if (rctx_find_type(rc, ty, &tv))
		return -ENOENT;
	*out = tv.type;
	if (!tv.ptrs && (!tv.has_type || !lang_type_of(&tv.type, out)))
		return diag_error(rc->d, ty->span, "'%s' is not a pointer to a class", ty->text);
	tag = lang_strip(out, out);
	val_release(&tv);
	if (!tag_is_struct(tag))
		return diag_error(rc->d, ty->name_span, "'%s' is not a class", ty->name);
	return 0;
}

/* @v (an object of class @s) as the object of class @target containing it. */
static int dyncast_object(struct rctx *rc, const struct expr *e, struct val *v, Dwarf_Die *s,
			  struct val *out)
{
	struct dyntypes *dt = dyntypes_of(rc->dbg);
	const char *tname, *sname = dyntypes_cxx_class_name(dt, s);
	int64_t s_in_t = 0, t_in_s = 0, vptr_off;
	Dwarf_Die target, member;
	uint64_t *words;
	char *vfetch = NULL;
	size_t nr;

	if (find_class(rc, e->type, &target))
		return -ENOENT;
	tname = dyntypes_cxx_class_name(dt, &target);
	if (!tname)
		return diag_error(rc->d, e->type->name_span, "'%s' is not a C++ class",
				  e->type->name);
	if (!sname)
		return diag_error(rc->d, e->span, "'%s': its class is not in the DWARF", v->what);
	if (v->loc.nr != 1 || v->loc.pieces[0].kind != LOC_MEM)
		return diag_error(rc->d, e->span, "'%s' is not in memory here; dynamic_cast<> "
				  "needs a pointer to it", v->what);
	memset(out, 0, sizeof(*out));
	if (!strcmp(sname, tname) || dyntypes_cxx_base_offset(dt, s, tname, &t_in_s)) {
		/* the same class or a base: no check, a fixed offset */
		val_move(out, v);
		out->loc.pieces[0].off += t_in_s;
	} else if (dyntypes_cxx_base_offset(dt, &target, sname, &s_in_t)) {
		if (!find_vptr(s, NULL, &member, &vptr_off, 0) &&
		    rctx_declared_only(rc, s, "dynamic_cast<> cannot check the object", e->span))
			return -ENOENT;
		if (!find_vptr(s, NULL, &member, &vptr_off, 0))
			return diag_error(rc->d, e->span, "%s has no virtual functions: "
					  "dynamic_cast<> needs a polymorphic class", sname);
		nr = cxx_accepted(rc, &target, tname, s_in_t, vptr_off, &words);
		if (!nr)
			pr_info("dynamic_cast<%s *>(%s): no class of the binary can be one: decided "
				"from the vtables of the traced process's other objects", tname,
				v->what);
		if (obj_word_fetch(rc, v, vptr_off, e->span, &vfetch)) {
			free(words);
			return -EINVAL;
		}
		if (add_type_guard(rc, vfetch, NULL, words, nr, tname, s_in_t + vptr_off, v->what,
				   e->span)) {
			free(vfetch);
			return -EINVAL;
		}
		free(vfetch);
		val_move(out, v);
		out->loc.pieces[0].off -= s_in_t;
	} else if (lang_virtual_base_of(s, &target, &member) ||
		   lang_virtual_base_of(&target, s, &member)) {
		return diag_error(rc->d, e->type->name_span, "cannot cast '%s' between %s and %s "
				  "through a virtual base: its offset is read from the vtable at run "
				  "time, and a uprobe fetcharg cannot add a value it read to an "
				  "address", v->what, sname, tname);
	} else {
		return diag_error(rc->d, e->type->name_span, "%s does not derive from %s (the "
				  "static type of '%s'); upfront casts only down or up a hierarchy",
				  tname, sname, v->what);
	}
	out->type = target;
	out->has_type = true;
	out->addr_of = true;
	free(out->what);
	out->what = expr_text(e);
	return 0;
}

static int eval_dyncast(struct rctx *rc, const struct expr *e, struct val *out)
{
	struct val v;
	Dwarf_Die s;
	int tag = 0, n, ret = -EINVAL;

	memset(out, 0, sizeof(*out));
	if (e->type->nr_ptr != 1)
		return diag_error(rc->d, e->type->span, "dynamic_cast<> takes a pointer type "
				  "('%s *')", e->type->name);
	if (val_eval(rc, e->base, &v))
		goto out;
	n = rc->nr_guards;
	if (val_follow_pointers(rc, &v, e->span, &tag, &s))
		goto out;
	guards_make_nil(rc, n);
	if (!tag_is_struct(tag) || lang_of_die(&s) != &lang_cxx)
		ret = diag_error(rc->d, e->span, "dynamic_cast<> needs a pointer to a C++ class; "
				 "'%s' is none", v.what);
	else
		ret = dyncast_object(rc, e, &v, &s, out);
out:
	val_release(&v);
	return ret;
}

/* ---- Go: EXPR.(T) ---- */

bool go_type_direct(Dwarf_Die *t)
{
	Dwarf_Die s, child, mt;
	int tag = lang_strip(t, &s), n = 0;
	bool ptr = false;

	if (tag_is_pointer(tag) || tag == DW_TAG_subroutine_type)
		return true;
	if (tag != DW_TAG_structure_type || lang_type_size(&s) != 8 || dwarf_child(&s, &child))
		return false;
	/* a struct of one pointer */
	do {
		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		n++;
		ptr = lang_type_of(&child, &mt) && tag_is_pointer(lang_strip(&mt, &mt));
	} while (dwarf_siblingof(&child, &child) == 0);
	return n == 1 && ptr;
}

/* The guard of an assertion of interface value @v (word member @word) to a type at @taddr */
static int assert_guard(struct rctx *rc, const struct expr *e, struct val *v, Dwarf_Die *it,
			const char *word, const char *tname, uint64_t taddr)
{
	struct dyntypes *dt = dyntypes_of(rc->dbg);
	uint64_t *words = xmalloc(2 * sizeof(*words));
	char *fetch = NULL, *fetch2 = NULL;
	size_t nr = 0;
	struct val w;
	int ret;

	words[nr++] = taddr;
	ret = val_part(rc, v, word, e->span, &w);
	if (!ret)
		ret = val_word_fetch(rc, &w, e->span, &fetch);
	if (!ret && !strcmp(word, "tab")) {
		/* the itab of (T, this interface) when the binary has one; else its _type */
		struct strlist types = STRLIST_INIT;
		char *iname = rctx_type_name(rc, &v->type, true);
		uint64_t *itabs;
		size_t k = dyntypes_go_itabs(dt, iname, &types, &itabs);

		for (size_t i = 0; i < k; i++)
			if (!strcmp(types.v[i], tname)) {
				words[nr++] = itabs[i];
				break;
			}
		free(itabs);
		free(iname);
		strlist_release(&types);
		fetch2 = go_iface_itab_type(it, fetch);
	}
	if (!ret)
		ret = add_type_guard(rc, fetch, fetch2, words, nr, NULL, 0, v->what, e->span);
	else
		free(words);
	free(fetch);
	free(fetch2);
	val_release(&w);
	return ret;
}

static int eval_typeassert(struct rctx *rc, const struct expr *e, struct val *out)
{
	const char *tname = e->type->text, *word;
	uint64_t taddr;
	Dwarf_Die it, tdie;
	struct val v, data, tv;
	int ret = -EINVAL;

	memset(out, 0, sizeof(*out));
	memset(&data, 0, sizeof(data));
	if (val_eval(rc, e->base, &v))
		goto out;
	if (!(word = go_word(&v, &it))) {
		char *tn = v.has_type ? rctx_type_name(rc, &v.type, true) : xstrdup("void");

		ret = diag_error(rc->d, e->span, "'%s' is a %s, not an interface; a type assertion "
				 "needs a Go interface value", v.what, tn);
		free(tn);
		goto out;
	}
	if (rctx_find_type(rc, e->type, &tv))
		goto out;
	tdie = tv.type;
	if (tv.ptrs || !tv.has_type || !dyntypes_go_type(dyntypes_of(rc->dbg), &tdie, &taddr)) {
		val_release(&tv);
		ret = diag_error(rc->d, e->type->span, "Go type '%s' has no runtime type "
				 "descriptor in the binary: no value of it is ever stored in an "
				 "interface", tname);
		goto out;
	}
	val_release(&tv);
	if (assert_guard(rc, e, &v, &it, word, tname, taddr) ||
	    val_part(rc, &v, "data", e->span, &data))
		goto out;
	free(data.what);
	data.what = expr_text(e);
	if (go_type_direct(&tdie)) {
		/* the data word is the value */
		data.type = tdie;
		data.has_type = true;
		val_move(out, &data);
		ret = 0;
	} else {
		/* boxed: the data word points to it */
		ret = val_deref(rc, &data, 0, &tdie, true, data.what, e->span, out);
	}
out:
	val_release(&data);
	val_release(&v);
	return ret;
}

/* ---- $goid ---- */

bool rctx_go_regabi(struct rctx *rc)
{
	struct sym *s = symtab_func_covering(debuginfo_symtab(rc->dbg), rc->site->vaddr);
	size_t n = s ? strlen(s->raw) : 0;
	Dwarf_Attribute attr;
	const char *producer;

	if (n > 5 && !strcmp(s->raw + n - 5, ".abi0"))
		return false;
	if (!rc->has_cu || !dwarf_attr(&rc->cu, DW_AT_producer, &attr))
		return false;
	producer = dwarf_formstring(&attr);
	return producer && strstr(producer, "regabi");
}

bool rctx_go_g_kept(struct rctx *rc)
{
	return arch_current()->g_everywhere || rctx_go_regabi(rc);
}

bool rctx_go_g_member(struct rctx *rc, const char *path, Dwarf_Die *type, int64_t *off)
{
	Dwarf_Die g0, t, m;
	char *names = xstrdup(path), *save = NULL;
	bool ok;

	/*
	 * runtime.g0 is a runtime.g: its type gives the layout of this binary's runtime; looked
	 * up once per binary (a walk of the CUs per probe was 56% of a Go glob's time)
	 */
	*off = 0;
	ok = debuginfo_global(rc->dbg, "runtime.g0", &g0) && lang_type_of(&g0, &t);
	for (char *n = strtok_r(names, ".", &save); ok && n; n = strtok_r(NULL, ".", &save)) {
		int64_t o;

		ok = lang_find_member(&t, n, &m, &o) && lang_type_of(&m, &t);
		*off += o;
	}
	free(names);
	if (ok && type)
		*type = t;
	return ok;
}

static int eval_goid(struct rctx *rc, const struct expr *e, struct val *out)
{
	Dwarf_Die mt;
	struct loc_piece p = { .kind = LOC_MEM, .reg = -1,
			       .base = (char *)arch_current()->g_fetch };
	int64_t off;

	memset(out, 0, sizeof(*out));
	if (rc->lang != &lang_go)
		return diag_error(rc->d, e->span, "$goid is the goroutine of a Go function; %s is "
				  "not Go", rc->where);
	if (!rctx_go_g_kept(rc))
		return diag_error(rc->d, e->span, "$goid reads the goroutine from register %s, "
				  "which only Go's register ABI keeps; %s is not compiled for it "
				  "(an ABI0 or assembly function, or Go before 1.17)",
				  arch_current()->g_fetch + 1, rc->where);
	if (!rctx_go_g_member(rc, "goid", &mt, &off))
		return diag_error(rc->d, e->span, "$goid: runtime.g and its goid are not in the "
				  "binary's DWARF");
	p.off = off;
	loc_add_piece(&out->loc, &p);
	out->type = mt;
	out->has_type = true;
	out->what = xstrdup("$goid");
	return 0;
}

int val_eval_dyn(struct rctx *rc, const struct expr *e, struct val *out)
{
	memset(out, 0, sizeof(*out));
	if (!rc->has_cu)
		return diag_error(rc->d, e->span, "no debug information covers %s", rc->where);
	switch (e->kind) {
	case EXPR_TYPEID:
		return eval_typeid(rc, e, out);
	case EXPR_DYNCAST:
		return eval_dyncast(rc, e, out);
	case EXPR_TYPEASSERT:
		return eval_typeassert(rc, e, out);
	case EXPR_GOID:
		return eval_goid(rc, e, out);
	default:
		return diag_error(rc->d, e->span, "not a dynamic type expression");
	}
}
