// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-dyntype.c - dynamic types decided when an event is decoded: the type-word guards of
 * dynamic_cast<> and Go type assertions, typeid() and Go interface values, from an inline
 * tracefs format plus raw bytes; and the names of vtables, Go types and Rust vtables in
 * the real test targets (tests/targets/build.sh makes them, under $UPFT_TARGETS, default
 * $UPFT_BUILDDIR/tests/build, else tests/build). No root, no kernel.
 */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#undef ARRAY_SIZE
#include "../../src/debuginfo.h"
#include "../../src/decode.h"
#include "../../src/dynfilter.h"
#include "../../src/dyntype.h"
#include "../../src/render.h"
#include "../../src/symtab.h"
#include "../../src/type-index.h"
#include "targets.h"
#include "events.h"
#include "unittest.h"

static const char format[] =
	"name: dyn\n"
	"ID: 1300\n"
	"format:\n"
	UPROBE_FORMAT_COMMON
	"\tfield:s32 v;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:x64 v_p1;\toffset:20;\tsize:8;\tsigned:0;\n"
	"\tfield:x64 v_t2;\toffset:28;\tsize:8;\tsigned:0;\n"
	"\tfield:x64 v_t3;\toffset:36;\tsize:8;\tsigned:0;\n"
	"\tfield:x64 p;\toffset:44;\tsize:8;\tsigned:0;\n"
	"\tfield:x64 t;\toffset:52;\tsize:8;\tsigned:0;\n"
	"\tfield:x64 e;\toffset:60;\tsize:8;\tsigned:0;\n"
	"\tfield:x64 e_t;\toffset:68;\tsize:8;\tsigned:0;\n"
	"\tfield:char e_s[8];\toffset:76;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 e_s_len;\toffset:84;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 e_value;\toffset:92;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"(%lx)\", REC->__probe_ip\n";

#define FIXED 100
#define BASE 0x555555554000ULL	/* the binary's load base in the traced process (PIE) */

enum { F_V, F_VP, F_VT, F_VT2, F_P, F_T, F_E, F_ET, F_ES, F_ESLEN, F_EV };

/* v: a member read through dynamic_cast<>: NULL object -> null, vptr not accepted -> null */
static void add_cast_arg(struct trace_probe *tp)
{
	struct trace_arg *a = trace_probe_add_arg(tp);
	static const uint64_t words[] = { 0x2000, 0x3010 };

	a->name = strdup("v");
	a->kind = VK_SIGNED;
	a->size = 4;
	a->field = F_V;
	a->nr_fields = 1;
	a->guards[0] = F_VP;
	a->guard_kind[0] = GUARD_NIL;
	a->guard_exprs[0] = strdup("a");
	a->guards[1] = F_VT;
	a->guard_kind[1] = GUARD_TYPE;
	a->guard_exprs[1] = strdup("a");
	a->guard_base[1] = F_VT2;	/* tried when the first word is none of them */
	a->guard_words[1] = malloc(sizeof(words));
	memcpy(a->guard_words[1], words, sizeof(words));
	a->guard_nr_words[1] = 2;
	a->nr_guards = 2;
}

/* e: a Go error with two variants: *errors.errorString {s} and syscall.Errno (a value) */
static void add_iface_arg(struct trace_probe *tp)
{
	struct trace_arg *a = trace_probe_add_arg(tp), *pa;

	a->name = strdup("e");
	a->type_name = strdup("error");
	a->kind = VK_IFACE;
	a->size = 8;
	a->field = F_E;
	a->nr_fields = 1;
	a->dyn_word = DYN_GO_ITAB;
	a->dyn_field = F_ET;
	a->dyn_variants = calloc(2, sizeof(*a->dyn_variants));
	a->dyn_variants[0] = (struct dyn_variant){ strdup("*errors.errorString"), 0x4000, 0x5000,
						   0, 1, false };
	a->dyn_variants[1] = (struct dyn_variant){ strdup("syscall.Errno"), 0x4100, 0x5100, 1,
						   1, true };
	a->nr_dyn_variants = 2;
	a->parts = calloc(2, sizeof(*a->parts));
	a->nr_parts = 2;
	pa = &a->parts[0];
	pa->name = strdup("s");
	pa->expr = strdup("s");
	pa->kind = VK_LSTRING;
	pa->field = F_ES;
	pa->nr_fields = 1;
	pa->len_field = F_ESLEN;
	pa->max_len = 8;
	pa = &a->parts[1];
	pa->name = strdup("value");
	pa->expr = strdup("value");
	pa->kind = VK_UNSIGNED;
	pa->size = 8;
	pa->field = F_EV;
	pa->nr_fields = 1;
	pa->len_field = -1;
}

static void make_probe(struct trace_probe *tp)
{
	static const char *names[] = { "v", "v_p1", "v_t2", "v_t3", "p", "t", "e", "e_t", "e_s",
				       "e_s_len", "e_value" };
	static const char *types[] = { "s32", "x64", "x64", "x64", "x64", "x64", "x64", "x64",
				       "char[8]", "u64", "u64" };
	struct trace_arg *a;

	test_probe_init(tp, "dyn", 0x1100);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		trace_probe_add_field(tp, names[i], "%di", types[i], i != F_V && i != F_P &&
				      i != F_T && i != F_E);
	add_cast_arg(tp);
	/* p: dynamic_cast<> alone, to a base 16 bytes before the object's */
	a = trace_probe_add_arg(tp);
	a->name = strdup("p");
	a->kind = VK_POINTER;
	a->size = 8;
	a->field = F_P;
	a->nr_fields = 1;
	a->addend = -16;
	/* t: typeid() (no binary here: shown as the address) */
	a = trace_probe_add_arg(tp);
	a->name = strdup("t");
	a->kind = VK_TYPENAME;
	a->size = 8;
	a->field = F_T;
	a->nr_fields = 1;
	a->dyn_word = DYN_CXX_VPTR;
	add_iface_arg(tp);
}

struct words {
	uint64_t vp, vt, vt2, p, t, e, et;
	const char *s;
	uint64_t value;
};

static int make_record(unsigned char *rec, const struct words *w)
{
	uint16_t type = 1300;
	int32_t pid = 7, v = 42;
	uint64_t ip = BASE + 0x1100, slen = w->s ? strlen(w->s) : 0;

	memset(rec, 0, 256);
	memcpy(rec, &type, 2);
	memcpy(rec + 4, &pid, 4);
	memcpy(rec + 8, &ip, 8);
	memcpy(rec + 16, &v, 4);
	memcpy(rec + 20, &w->vp, 8);
	memcpy(rec + 28, &w->vt, 8);
	memcpy(rec + 36, &w->vt2, 8);
	memcpy(rec + 44, &w->p, 8);
	memcpy(rec + 52, &w->t, 8);
	memcpy(rec + 60, &w->e, 8);
	memcpy(rec + 68, &w->et, 8);
	if (w->s)
		memcpy(rec + 76, w->s, slen < 8 ? slen : 8);
	memcpy(rec + 84, &slen, 8);
	memcpy(rec + 92, &w->value, 8);
	return FIXED;
}

static void test_guards(void)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *te = NULL;
	unsigned char rec[256];
	struct trace_probe tp;
	struct decoder *dc;
	struct event ev;
	struct diag d;
	struct words w = {
		.vp = 0x7f0000001000, .vt = BASE + 0x2000, .vt2 = 0, .p = 0x7f0000001010,
		.t = BASE + 0x2000, .e = BASE + 0x4000, .et = BASE + 0x5000, .s = "disk",
	};
	int size;

	diag_init(&d, NULL);
	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, 4096);
	TEST_EQ(tep_parse_format(tep, &te, format, sizeof(format) - 1, "upft"), 0);
	make_probe(&tp);
	dc = decoder_new(tep, NULL, false);
	TEST_EQ(decoder_add_probe(dc, &tp, &d), 0);

	/* the type word is one of those accepted: the value; the parts of an interface are
	 * not arguments of their own */
	size = make_record(rec, &w);
	TEST_EQ(decode_record(dc, rec, size, 1000, 0, &ev), 0);
	TEST_EQ(ev.nr_vals, 4);
	TEST_STREQ(text_of(val(&ev, "v")), "42");
	TEST_STREQ(text_of(val(&ev, "p")), "0x7f0000001000");
	/* no binary to name it: unknown, never a bare number */
	TEST_STREQ(text_of(val(&ev, "t")), "<unknown vtable 0x555555556000>");
	TEST_STREQ(text_of(val(&ev, "e")), "error(*errors.errorString) {s: \"disk\"}");
	TEST_STREQ(json_of(&ev),
		   "{\"time\":0.000000,\"cpu\":0,\"pid\":7,\"tid\":7,\"comm\":\"<...>\","
		   "\"probe\":\"dyn\",\"args\":{\"v\":42,\"p\":\"0x7f0000001000\","
		   "\"t\":\"<unknown vtable 0x555555556000>\",\"e\":{\"type\":\"*errors.errorString\","
		   "\"s\":\"disk\"}}}\n");

	/* not the first word, but the second (a Go itab's _type) */
	w.vt = BASE + 0x2008;
	w.vt2 = BASE + 0x3010;
	size = make_record(rec, &w);
	TEST_EQ(decode_record(dc, rec, size, 1000, 0, &ev), 0);
	TEST_STREQ(text_of(val(&ev, "v")), "42");

	/* neither: null, not a fault, in text and JSON */
	w.vt2 = BASE + 0x3018;
	size = make_record(rec, &w);
	TEST_EQ(decode_record(dc, rec, size, 1000, 0, &ev), 0);
	TEST_EQ(val(&ev, "v")->null, 1);
	TEST_STREQ(text_of(val(&ev, "v")), "null");
	TEST_TRUE(strstr(json_of(&ev), "\"v\":null,") != NULL);
	/* an address of the binary not less the load base is no match either */
	w.vt = 0x2000;
	w.vt2 = 0;
	size = make_record(rec, &w);
	TEST_EQ(decode_record(dc, rec, size, 1000, 0, &ev), 0);
	TEST_STREQ(text_of(val(&ev, "v")), "null");

	/* a NULL object: null before its vtable pointer is looked at */
	w.vt = BASE + 0x2000;
	w.vp = 0;
	size = make_record(rec, &w);
	TEST_EQ(decode_record(dc, rec, size, 1000, 0, &ev), 0);
	TEST_STREQ(text_of(val(&ev, "v")), "null");

	/* a NULL pointer stays NULL (no offset added); a NULL typeid() word is null */
	w.p = 0;
	w.t = 0;
	size = make_record(rec, &w);
	TEST_EQ(decode_record(dc, rec, size, 1000, 0, &ev), 0);
	TEST_STREQ(text_of(val(&ev, "p")), "0x0");
	TEST_STREQ(text_of(val(&ev, "t")), "null");

	/* an interface: a nil one is null; a variant found by its _type (an itab made at run
	 * time), a value type shown as its value; an unknown type as unknown, with its itab's address */
	w.e = 0;
	size = make_record(rec, &w);
	TEST_EQ(decode_record(dc, rec, size, 1000, 0, &ev), 0);
	TEST_STREQ(text_of(val(&ev, "e")), "null");
	TEST_TRUE(strstr(json_of(&ev), "\"e\":null}") != NULL);
	w.e = 0xc000010000;
	w.et = BASE + 0x5100;
	w.value = 2;
	size = make_record(rec, &w);
	TEST_EQ(decode_record(dc, rec, size, 1000, 0, &ev), 0);
	TEST_STREQ(text_of(val(&ev, "e")), "error(syscall.Errno) 2");
	TEST_TRUE(strstr(json_of(&ev), "\"e\":{\"type\":\"syscall.Errno\",\"value\":2}") != NULL);
	w.e = BASE + 0x4200;
	w.et = BASE + 0x5200;
	size = make_record(rec, &w);
	TEST_EQ(decode_record(dc, rec, size, 1000, 0, &ev), 0);
	TEST_STREQ(text_of(val(&ev, "e")), "error(<unknown type 0x555555558200>)");
	TEST_TRUE(strstr(json_of(&ev), "\"e\":{\"type\":\"<unknown type 0x555555558200>\"}") !=
		  NULL);

	/* a copy of the probe owns its own words and variants */
	{
		struct trace_probe cp;

		trace_probe_copy(&cp, &tp);
		TEST_TRUE(cp.args[0].guard_words[1] != tp.args[0].guard_words[1]);
		TEST_EQ(cp.args[0].guard_words[1][1], 0x3010);
		TEST_STREQ(cp.args[3].dyn_variants[1].name, "syscall.Errno");
		TEST_TRUE(cp.args[3].dyn_variants[1].name != tp.args[3].dyn_variants[1].name);
		TEST_STREQ(cp.args[3].parts[0].name, "s");
		TEST_TRUE(cp.args[3].parts[0].name != tp.args[3].parts[0].name);
		trace_probe_release(&cp);
	}
	decoder_free(dc);
	trace_probe_release(&tp);
	diag_release(&d);
	tep_free(tep);
}

static void test_names(void)
{
	char *s, *i;

	s = dyntype_cxx_vtable_class("vtable for zoo::(anonymous namespace)::Ghost");
	TEST_STREQ(s, "zoo::(anonymous namespace)::Ghost");
	free(s);
	TEST_TRUE(dyntype_cxx_vtable_class("typeinfo for zoo::Dog") == NULL);
	TEST_TRUE(dyntype_cxx_vtable_class("vtable for ") == NULL);
	s = dyntype_go_itab_split("go.itab.*errors.errorString,error", &i);
	TEST_STREQ(s, "*errors.errorString");
	TEST_STREQ(i, "error");
	free(s);
	free(i);
	s = dyntype_go_itab_split("go:itab.main.Pair[int,string],fmt.Stringer", &i);
	TEST_STREQ(s, "main.Pair[int,string]");
	TEST_STREQ(i, "fmt.Stringer");
	free(s);
	free(i);
	s = dyntype_go_itab_split("go.itab.func(int, string),main.F", NULL);
	TEST_STREQ(s, "func(int, string)");
	free(s);
	TEST_TRUE(dyntype_go_itab_split("go.itab.noiface", NULL) == NULL);
	TEST_TRUE(dyntype_go_itab_split("type.*errors.errorString", NULL) == NULL);
	s = dyntype_rust_vtable_type("<orders::shapes::Circle as orders::shapes::Shape>::{vtable}");
	TEST_STREQ(s, "orders::shapes::Circle");
	free(s);
	s = dyntype_rust_vtable_type("<alloc::vec::Vec<u8, alloc::alloc::Global> as "
				     "core::fmt::Debug>::{vtable}");
	TEST_STREQ(s, "alloc::vec::Vec<u8, alloc::alloc::Global>");
	free(s);
	s = dyntype_rust_vtable_type("<<T as a::B>::C as a::D>::{vtable}");
	TEST_STREQ(s, "<T as a::B>::C");
	free(s);
	TEST_TRUE(dyntype_rust_vtable_type("orders::X::{vtable}") == NULL);
	TEST_TRUE(dyntype_rust_vtable_type("<X as Y>::{vtable_type}") == NULL);
}

static uint64_t sym_addr(struct debuginfo *dbg, const char *raw)
{
	return symtab_value(debuginfo_symtab(dbg), raw);
}

static void test_cxx(void)
{
	struct debuginfo *dbg = open_target("cpp/zoo-O2");
	struct strlist derived = STRLIST_INIT;
	struct dyntypes *dt;
	uint64_t dog, parrot, vt, sz, ap;
	Dwarf_Die cls;
	int64_t off;

	if (!dbg)
		return;
	dt = dyntypes_of(dbg);
	TEST_TRUE(dt == dyntypes_of(dbg));	/* one per binary */
	dog = sym_addr(dbg, "_ZTVN3zoo3DogE");
	parrot = sym_addr(dbg, "_ZTVN3zoo6ParrotE");
	TEST_TRUE(dog && parrot);
	/* a vtable pointer, primary or secondary, names its class; other words nothing */
	TEST_STREQ(dyntypes_name(dt, DYN_CXX_VPTR, dog + 16), "zoo::Dog");
	TEST_STREQ(dyntypes_name(dt, DYN_CXX_VPTR, dog + 16), "zoo::Dog");	/* cached */
	TEST_STREQ(dyntypes_name(dt, DYN_CXX_VPTR, parrot + 0x38), "zoo::Parrot");
	TEST_STREQ(dyntypes_name(dt, DYN_CXX_VPTR,
				 sym_addr(dbg, "_ZTVN3zoo12_GLOBAL__N_15GhostE") + 16),
		   "zoo::(anonymous namespace)::Ghost");
	TEST_TRUE(dyntypes_name(dt, DYN_CXX_VPTR, sym_addr(dbg, "main")) == NULL);
	TEST_TRUE(dyntypes_cxx_vtable(dt, "zoo::Parrot", &vt, &sz));
	TEST_EQ(vt, parrot);
	TEST_EQ(sz, 0x50);
	TEST_TRUE(!dyntypes_cxx_vtable(dt, "zoo::Animal", &vt, &sz));	/* never made */
	/* the secondary vtable of the Named part at +16: after its offset-to-top -16 */
	TEST_TRUE(dyntypes_cxx_address_point(dt, "zoo::Parrot", 0, &ap));
	TEST_EQ(ap, parrot + 16);
	TEST_TRUE(dyntypes_cxx_address_point(dt, "zoo::Parrot", 16, &ap));
	TEST_EQ(ap, parrot + 0x38);
	TEST_TRUE(!dyntypes_cxx_address_point(dt, "zoo::Parrot", 8, &ap));
	/* the hierarchy from DW_TAG_inheritance */
	TEST_EQ(dyntypes_cxx_derived(dt, "zoo::Animal", &derived), 5);
	TEST_EQ(dyntypes_cxx_derived(dt, "zoo::Dog", &derived), 1);
	TEST_STREQ(derived.v[derived.nr - 1], "zoo::Puppy");
	TEST_TRUE(dyntypes_cxx_class(dt, "zoo::Parrot", &cls));
	TEST_STREQ(dyntypes_cxx_class_name(dt, &cls), "zoo::Parrot");
	TEST_TRUE(dyntypes_cxx_base_offset(dt, &cls, "zoo::Named", &off));
	TEST_EQ(off, 16);
	TEST_TRUE(dyntypes_cxx_base_offset(dt, &cls, "zoo::Node", &off));
	TEST_EQ(off, 0);
	TEST_TRUE(!dyntypes_cxx_base_offset(dt, &cls, "zoo::Dog", &off));
	TEST_TRUE(dyntypes_cxx_class(dt, "zoo::(anonymous namespace)::Ghost", &cls));
	strlist_release(&derived);
	debuginfo_free(dbg);
}

static void test_go(void)
{
	struct debuginfo *dbg = open_target("go/errs");
	struct strlist types = STRLIST_INIT;
	struct dyntypes *dt;
	uint64_t t, *itabs = NULL;
	Dwarf_Die die;
	size_t n;
	bool found = false;

	if (!dbg)
		return;
	dt = dyntypes_of(dbg);
	/* a runtime type: from its DIE at resolve time, back to the name at decode time */
	TEST_TRUE(type_index_find(debuginfo_types(dbg), "*main.OpError", 0, NULL, &die));
	TEST_TRUE(dyntypes_go_type(dt, &die, &t));
	TEST_STREQ(dyntypes_name(dt, DYN_GO_TYPE, t), "*main.OpError");
	TEST_TRUE(type_index_find(debuginfo_types(dbg), "syscall.Errno", 0, NULL, &die));
	TEST_TRUE(dyntypes_go_type(dt, &die, &t));
	TEST_STREQ(dyntypes_name(dt, DYN_GO_TYPE, t), "syscall.Errno");
	/* a type no interface ever holds has no descriptor */
	TEST_TRUE(type_index_find(debuginfo_types(dbg), "main.Job", 0, NULL, &die));
	TEST_TRUE(!dyntypes_go_type(dt, &die, &t));
	/* the itabs of error: the conversions the compiler saw */
	n = dyntypes_go_itabs(dt, "error", &types, &itabs);
	TEST_TRUE(n >= 5);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(types.v[i], "main.ValErr"))
			continue;
		found = true;
		TEST_EQ(itabs[i], sym_addr(dbg, "go.itab.main.ValErr,error"));
		TEST_STREQ(dyntypes_name(dt, DYN_GO_ITAB, itabs[i]), "main.ValErr");
	}
	TEST_TRUE(found);
	free(itabs);
	strlist_release(&types);
	debuginfo_free(dbg);
}

/* the address of the top-level DWARF variable @name (a Rust vtable), 0 if none */
static uint64_t dwarf_var_addr(struct debuginfo *dbg, const char *name)
{
	Dwarf *dw = debuginfo_dwarf(dbg, NULL);
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dw && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, c;

		if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_child(&cu, &c) == 0) {
			do {
				Dwarf_Attribute attr;
				Dwarf_Op *ops;
				size_t nops;

				if (dwarf_tag(&c) == DW_TAG_variable && dwarf_diename(&c) &&
				    !strcmp(dwarf_diename(&c), name) &&
				    dwarf_attr(&c, DW_AT_location, &attr) &&
				    !dwarf_getlocation(&attr, &ops, &nops) && nops == 1)
					return ops[0].number;
			} while (dwarf_siblingof(&c, &c) == 0);
		}
		off = next;
	}
	return 0;
}

static void test_rust(void)
{
	struct debuginfo *dbg = open_target("rust/orders-O0");
	struct dyntypes *dt;
	uint64_t circle;

	if (!dbg)
		return;
	dt = dyntypes_of(dbg);
	/* the vtables have no symbols: their DWARF variables name them */
	circle = dwarf_var_addr(dbg, "<orders::shapes::Circle as orders::shapes::Shape>::{vtable}");
	TEST_TRUE(circle != 0);
	TEST_STREQ(dyntypes_name(dt, DYN_RUST_VTABLE, circle), "orders::shapes::Circle");
	TEST_TRUE(dyntypes_name(dt, DYN_RUST_VTABLE, 0) == NULL);
	TEST_TRUE(dyntypes_name(dt, DYN_RUST_VTABLE, sym_addr(dbg, "main")) == NULL);
	debuginfo_free(dbg);
}

/* a probe with one typeid() argument: t=typeid(*a), a zoo::Animal * */
static void filter_probe(struct trace_probe *tp)
{
	struct trace_arg *a;

	memset(tp, 0, sizeof(*tp));
	tp->event = xstrdup("feed");
	trace_probe_add_field(tp, "t", "+0(%di)", "x64", false);
	a = trace_probe_add_arg(tp);
	a->name = xstrdup("t");
	a->expr = xstrdup("typeid(*a)");
	a->kind = VK_TYPENAME;
	a->dyn_word = DYN_CXX_VPTR;
	a->dyn_class = xstrdup("zoo::Animal");
}

/* --filter on typeid(): what is a comparison, the checks, the addresses of a non-PIE binary */
static void test_filter(void)
{
	const char *cmp = "t == caf::mailbox_element_vals<std::string>";
	struct debuginfo *dbg = open_target("cpp/zoo-O0-nopie"), *pie;
	struct trace_probe tp;
	struct diag d;
	char *out, *want;

	filter_probe(&tp);
	TEST_EQ(dynfilter_cmp_len("x > 1 && t == zoo::Cat || y", 9, &tp), 13);
	TEST_EQ(dynfilter_cmp_len(cmp, 0, &tp), strlen(cmp));
	TEST_EQ(dynfilter_cmp_len("typeid( *a ) ~ \"zoo::*\")", 0, &tp), 23);
	TEST_EQ(dynfilter_cmp_len("t == 0x401000", 0, &tp), 0);	/* a number: as it is */
	TEST_EQ(dynfilter_cmp_len("x == zoo::Cat", 0, &tp), 0);	/* x is no typeid() */
	TEST_TRUE(dynfilter_wanted("(t != zoo::Cat)", &tp));
	TEST_TRUE(!dynfilter_wanted("x == 1 && t > 0", &tp));
	TEST_TRUE(dynfilter_wanted("typeid(*b) == zoo::Cat", &tp));
	diag_init(&d, NULL);
	TEST_TRUE(dynfilter_check("typeid(*b) == zoo::Cat", &tp, &d) < 0);
	TEST_STREQ(d.msg, "--filter: 'typeid(*b)' is none of the probe's arguments; a filter "
		   "compares the typeid() arguments the probe fetches");
	diag_release(&d);
	if (!dbg)
		goto out;
	/* non-PIE: the vtable's address point, without a process */
	diag_init(&d, NULL);
	TEST_EQ(dynfilter_rewrite("x > 1 && t == \"zoo::Cat\"", &tp, dbg, NULL, 0, &out, &d), 0);
	want = xasprintf("x > 1 && (t == 0x%llx)",
			 (unsigned long long)sym_addr(dbg, "_ZTVN3zoo3CatE") + 16);
	TEST_STREQ(out, want);
	free(out);
	free(want);
	TEST_TRUE(dynfilter_rewrite("t == zoo::Nosuch", &tp, dbg, NULL, 0, &out, &d) < 0);
	TEST_TRUE(d.msg && strstr(d.msg, "no class named 'zoo::Nosuch' has a vtable in"));
	diag_release(&d);
	debuginfo_free(dbg);
	/* a PIE without a process: not known, said so */
	pie = open_target("cpp/zoo-O0");
	if (pie) {
		diag_init(&d, NULL);
		TEST_TRUE(dynfilter_rewrite("t == zoo::Cat", &tp, pie, NULL, 0, &out, &d) < 0);
		TEST_TRUE(d.msg && strstr(d.msg, "is not known before a process maps"));
		diag_release(&d);
		debuginfo_free(pie);
	}
out:
	trace_probe_release(&tp);
}

int main(void)
{
	test_guards();
	test_names();
	test_cxx();
	test_go();
	test_rust();
	test_filter();
	return TEST_DONE();
}
