// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-types.c - types found by name (the type index: canonical names, C++ scopes with anonymous
 * and inline namespaces, Go and Rust names, pointer DIEs, similar names), smart pointers' raw
 * pointers found in their layout (libstdc++ and libc++), C type names with qualifiers, declared C++
 * classes completed from another unit or another binary, base classes named by qualifiers. No
 * root, no kernel: only the binaries tests/targets/build.sh makes, under $UPFT_TARGETS (default
 * $UPFT_BUILDDIR/tests/build, else tests/build).
 */
#include <dwarf.h>
#include <elf.h>
#include <stdlib.h>

#include "../../src/arch/arch.h"
#include "../../src/debuginfo.h"
#include "../../src/lang.h"
#include "../../src/type-complete.h"
#include "../../src/type-index.h"
#include "targets.h"
#include "unittest.h"

static void canon_is(const char *in, const char *want)
{
	char *got = type_name_canon(in);

	UT_REPORT(!strcmp(got, want), "canon '%s' -> '%s' (want '%s')", in, got, want);
	free(got);
}

static void test_canon(void)
{
	canon_is("unsigned long", "unsigned long");
	canon_is("long unsigned int", "unsigned long");
	canon_is("long  int", "long");
	canon_is("short unsigned int", "unsigned short");
	canon_is("long long int", "long long");
	canon_is("unsigned", "unsigned int");
	canon_is("signed char", "signed char");
	canon_is("char", "char");
	canon_is("long double", "long double");
	canon_is("std::map<long unsigned int, int>", "std::map<unsigned long,int>");
	canon_is("std::vector<int, std::allocator<int> >", "std::vector<int,std::allocator<int>>");
	canon_is("caf::(anonymous namespace)::wrapper", "caf::(anonymous namespace)::wrapper");
	canon_is("ns::long::x", "ns::long::x");
	canon_is("long::x", "long::x");
	canon_is("main.T", "main.T");
	canon_is("*main.T", "*main.T");
	canon_is("uint8_t", "uint8_t");
}

/* @name found in @ti: its DIE's tag and name */
static void found(struct type_index *ti, const char *name, int tag, int want_tag,
		  const char *want_name)
{
	Dwarf_Die t;
	bool ok = type_index_find(ti, name, tag, NULL, &t);

	UT_REPORT(ok, "type '%s' found", name);
	if (!ok)
		return;
	if (want_tag)
		UT_REPORT(dwarf_tag(&t) == want_tag, "'%s': tag 0x%x, want 0x%x", name,
			  dwarf_tag(&t), want_tag);
	if (want_name)
		UT_REPORT(dwarf_diename(&t) && !strcmp(dwarf_diename(&t), want_name),
			  "'%s': DIE named '%s', want '%s'", name,
			  dwarf_diename(&t) ? dwarf_diename(&t) : "(null)", want_name);
}

static void not_found(struct type_index *ti, const char *name, int tag)
{
	Dwarf_Die t;

	UT_REPORT(!type_index_find(ti, name, tag, NULL, &t), "type '%s' not found", name);
}

static bool similar_has(struct type_index *ti, const char *name, const char *want)
{
	struct strlist l = STRLIST_INIT;
	bool has = false;

	type_index_similar(ti, name, 6, &l);
	for (size_t i = 0; i < l.nr; i++)
		has |= !strcmp(l.v[i], want);
	strlist_release(&l);
	return has;
}

static void test_cxx(const char *target)
{
	struct debuginfo *dbg = open_target(target);
	struct type_index *ti;
	Dwarf_Die t, p;

	if (!dbg)
		return;
	ti = debuginfo_types(dbg);
	TEST_TRUE(ti != NULL);
	TEST_TRUE(type_index_count(ti) > 100);
	found(ti, "caf::plain_element", 0, DW_TAG_class_type, "plain_element");
	found(ti, "caf::plain_element", DW_TAG_structure_type, DW_TAG_class_type, NULL);
	found(ti, "caf::(anonymous namespace)::mailbox_element_wrapper", 0, 0,
	      "mailbox_element_wrapper");
	found(ti, "caf::context", DW_TAG_structure_type, DW_TAG_structure_type, "context");
	found(ti, "caf::mailbox_element_ptr", 0, DW_TAG_typedef, NULL);
	found(ti, "unsigned long", 0, DW_TAG_base_type, NULL);
	found(ti, "std::unique_ptr<caf::mailbox_element, caf::detail::disposer>", 0, 0, NULL);
	not_found(ti, "plain_element", 0);
	not_found(ti, "caf::context", DW_TAG_union_type);
	not_found(ti, "caf::plain_elemnt", 0);
	TEST_TRUE(similar_has(ti, "caf::plain_elemnt", "caf::plain_element"));
	TEST_TRUE(similar_has(ti, "plain_element", "caf::plain_element"));

	/* a pointer DIE to a class that has one (this), none for one that has none */
	if (type_index_find(ti, "caf::scheduled_actor", 0, NULL, &t)) {
		TEST_TRUE(type_index_pointer_to(ti, &t, &p));
		TEST_EQ(dwarf_tag(&p), DW_TAG_pointer_type);
	}

	/* the raw pointer of unique_ptr<T, D>: not in the deleter, at offset 0 */
	if (type_index_find(ti, "caf::mailbox_element_ptr", 0, NULL, &t)) {
		const struct lang_ops *lo;
		struct lang_smart l;
		Dwarf_Die s, pt, to;
		int64_t off = -1;
		char *n;

		lang_strip(&t, &s);
		lo = lang_of_die(&s);
		TEST_TRUE(lo->smart_ptr && lo->smart_ptr(&s, dwarf_diename(&s), &l));
		TEST_TRUE(lang_smart_pointer(&s, &l, &pt, &off));
		TEST_EQ(off, 0);
		TEST_TRUE(lang_type_of(&pt, &to) && lang_strip(&pt, &pt) == DW_TAG_pointer_type);
		lang_type_of(&pt, &to);
		lang_strip(&to, &to);
		n = (char *)dwarf_diename(&to);
		TEST_STREQ(n, "mailbox_element");
	}
	debuginfo_free(dbg);
}

static void test_other_langs(void)
{
	struct debuginfo *dbg = open_target("go/orders");
	struct type_index *ti;

	if (dbg) {
		ti = debuginfo_types(dbg);
		found(ti, "main.Order", 0, DW_TAG_structure_type, "main.Order");
		found(ti, "*main.Order", 0, DW_TAG_pointer_type, "*main.Order");
		TEST_TRUE(similar_has(ti, "main.Ordr", "main.Order"));
		debuginfo_free(dbg);
	}
	dbg = open_target("rust/types-O0");
	if (dbg) {
		ti = debuginfo_types(dbg);
		found(ti, "types::zoo::Animal", 0, DW_TAG_structure_type, "Animal");
		/* Rc's allocator parameter is in its name since rustc 1.64; arm64's Rust targets
		 * come from Debian 12's rustc 1.63 (the arm64 root's) */
		found(ti, BY_MACHINE("alloc::rc::Rc<types::zoo::Animal, alloc::alloc::Global>",
				     "alloc::rc::Rc<types::zoo::Animal>"), 0,
		      DW_TAG_structure_type, NULL);
		debuginfo_free(dbg);
	}
	dbg = open_target("c/orders-O0");
	if (dbg) {
		ti = debuginfo_types(dbg);
		found(ti, "customer", DW_TAG_structure_type, DW_TAG_structure_type, "customer");
		found(ti, "tier", DW_TAG_enumeration_type, DW_TAG_enumeration_type, "tier");
		not_found(ti, "customer", DW_TAG_union_type);
		found(ti, "long", 0, DW_TAG_base_type, "long int");
		debuginfo_free(dbg);
	}
}

/* C++ names with qualifiers: a pointer to a class, const after a pointer's '*' */
static void test_names(void)
{
	struct debuginfo *dbg = open_target("cpp/mailbox-O0");
	struct type_index *ti;
	struct strbuf sb = STRBUF_INIT;
	Dwarf_Die t, p;

	if (!dbg)
		return;
	ti = debuginfo_types(dbg);
	strbuf_init(&sb);
	if (type_index_find(ti, "caf::scheduled_actor", 0, NULL, &t) &&
	    type_index_pointer_to(ti, &t, &p))
		lang_c_type_name(&p, true, &sb);
	TEST_STREQ(sb.buf, "caf::scheduled_actor *");
	strbuf_release(&sb);
	debuginfo_free(dbg);
}

/* The pointee of parameter @nth (0: this) of method @method of class @cls, as @cls's unit
 * declares it. */
static bool param_pointee(struct type_index *ti, const char *cls, const char *method, int nth,
			  Dwarf_Die *out)
{
	Dwarf_Die c, m, p;

	if (!type_index_find(ti, cls, 0, NULL, &c) || dwarf_child(&c, &m) != 0)
		return false;
	do {
		const char *n = dwarf_diename(&m);
		int i = 0;

		if (dwarf_tag(&m) != DW_TAG_subprogram || !n || strcmp(n, method) ||
		    dwarf_child(&m, &p) != 0)
			continue;
		do {
			if (dwarf_tag(&p) == DW_TAG_formal_parameter && i++ == nth)
				return lang_type_of(&p, out) && lang_type_of(out, out);
		} while (dwarf_siblingof(&p, &p) == 0);
	} while (dwarf_siblingof(&m, &m) == 0);
	return false;
}

/* cpp/sink: classes declared in sink.cc, defined in elem.cc (or in the library, for main.cc) */
static void test_complete(const char *lib, const char *prog)
{
	struct debuginfo *dbg = open_target(lib), *pdbg;
	struct strlist where = STRLIST_INIT;
	struct strbuf why = STRBUF_INIT;
	struct type_index *ti;
	Dwarf_Die decl, def, base, vbase, m;
	int64_t off = -1;
	bool amb;

	if (!dbg)
		return;
	ti = debuginfo_types(dbg);
	/* look(D *d, E *e, B *b): D as sink.cc has it, a declaration */
	TEST_TRUE(param_pointee(ti, "sink", "look", 1, &decl));
	TEST_TRUE(dwarf_hasattr(&decl, DW_AT_declaration));
	TEST_EQ(lang_strip(&decl, &def), DW_TAG_structure_type);
	TEST_TRUE(!dwarf_hasattr(&def, DW_AT_declaration));
	TEST_EQ(lang_type_size(&decl), 56);
	TEST_TRUE(lang_find_member(&decl, "d", &m, &off));
	TEST_EQ(off, 48);
	TEST_EQ(lang_base_named(&decl, "C", &base, &off, &vbase), LANG_BASE_FOUND);
	TEST_EQ(off, 24);
	TEST_EQ(lang_base_named(&decl, "D", &base, &off, &vbase), LANG_BASE_FOUND);
	TEST_EQ(off, 0);
	TEST_EQ(lang_base_named(&decl, "A", &base, &off, &vbase), LANG_BASE_AMBIGUOUS);
	TEST_EQ(lang_base_named(&decl, "B::A", &base, &off, &vbase), LANG_BASE_AMBIGUOUS);
	TEST_EQ(lang_base_named(&decl, "Z", &base, &off, &vbase), LANG_BASE_NONE);
	amb = lang_member_ambiguous(&decl, "x", &where);
	TEST_TRUE(!amb);
	amb = lang_member_ambiguous(&decl, "a", &where);
	TEST_TRUE(amb);
	TEST_EQ(where.nr, 2);
	if (where.nr == 2) {
		TEST_STREQ(where.v[0], "B");
		TEST_STREQ(where.v[1], "C");
	}
	TEST_TRUE(!type_complete_declared_only(&decl, &why));
	/* poke(opaque_state *st, int n): defined nowhere */
	TEST_TRUE(param_pointee(ti, "sink", "poke", 1, &decl));
	TEST_TRUE(type_complete_declared_only(&decl, &why));
	TEST_TRUE(strstr(why.buf, "'opaque_state' is declared only; no definition in libsink") !=
		  NULL);
	/* the program's class over the library's elem: completed from the library */
	pdbg = open_target(prog);
	if (pdbg) {
		struct type_index *pti = debuginfo_types(pdbg);

		TEST_TRUE(type_index_find(pti, "local_elem", 0, NULL, &def));
		TEST_TRUE(lang_find_member(&def, "mid", &m, &off));
		TEST_EQ(off, 16);
		TEST_TRUE(lang_find_member(&def, "extra", &m, &off));
		TEST_EQ(off, 32);
		debuginfo_free(pdbg);
	}
	strlist_release(&where);
	strbuf_release(&why);
	debuginfo_free(dbg);
}

int main(void)
{
	test_canon();
	test_cxx("cpp/mailbox-O0");
	test_cxx("cpp/mailbox-O2");
	test_cxx("cpp/mailbox-libcxx-O0");
	test_cxx("cpp/mailbox-libcxx-O2");
	test_other_langs();
	test_names();
	test_complete("cpp/libsink-O0.so", "cpp/sink-O0");
	test_complete("cpp/libsink-O2.so", "cpp/sink-O2");
	return TEST_DONE();
}
