// SPDX-License-Identifier: GPL-2.0-or-later
/* test-parse.c - the probe parser: places, arguments, expressions, types, errors, round trips */
#include <errno.h>
#include <stdlib.h>

#include "../../src/parse.h"
#include "parsed.h"
#include "unittest.h"

/* the text an expression formats back to (static buffer, valid until the next call) */
static const char *fmt(const struct expr *e)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_release(&sb);
	strbuf_init(&sb);
	expr_format(e, &sb);
	return strbuf_cstr(&sb);
}

/* the text an error's span covers */
static const char *err_token(const char *text)
{
	static char buf[256];
	int len = d.span.len;

	if (d.span.start < 0 || d.span.start > (int)strlen(text))
		return "(none)";
	if (len > 255)
		len = 255;
	memcpy(buf, text + d.span.start, len);
	buf[len] = '\0';
	return buf;
}

/* an invalid probe: error, message contains @msg, span covers @tok */
#define TEST_BAD(text, tok, want)                                                          \
	do {                                                                              \
		int _r = parse(text);                                                     \
		TEST_EQ(_r, -EINVAL);                                                     \
		TEST_STREQ(err_token(text), tok);                                         \
		UT_REPORT(d.msg && strstr(d.msg, want), "%s:%d: '%s' error '%s' has '%s'", \
			  __FILE__, __LINE__, text, d.msg ? d.msg : "(null)", want);      \
	} while (0)

/* an expression that parses as one argument and formats back to itself */
static void round_trip(const char *exprtext)
{
	char probe[512];

	snprintf(probe, sizeof(probe), "f %s", exprtext);
	if (parse(probe) || spec.nr_args != 1) {
		UT_REPORT(0, "round trip '%s': %s", exprtext, d.msg ? d.msg : "no arg");
		return;
	}
	UT_REPORT(!strcmp(fmt(spec.args[0].expr), exprtext), "round trip '%s' -> '%s'", exprtext,
		  fmt(spec.args[0].expr));
}

static void test_places(void)
{
	/* C */
	TEST_EQ(parse("getaddrinfo"), 0);
	TEST_EQ(spec.place.kind, PLACE_FUNC);
	TEST_STREQ(spec.place.func, "getaddrinfo");
	TEST_TRUE(!spec.place.has_line && !spec.place.has_offset && !spec.place.is_return);
	TEST_EQ(spec.place.span.start, 0);
	TEST_EQ(spec.place.span.len, 11);
	TEST_EQ(spec.nr_args, 0);
	TEST_STREQ(spec.event, NULL);

	TEST_EQ(parse("getaddrinfo%return"), 0);
	TEST_STREQ(spec.place.func, "getaddrinfo");
	TEST_TRUE(spec.place.is_return);

	TEST_EQ(parse("main+16"), 0);
	TEST_TRUE(spec.place.has_offset);
	TEST_EQ(spec.place.offset, 16);
	TEST_EQ(parse("main+0x1f"), 0);
	TEST_EQ(spec.place.offset, 0x1f);
	TEST_STREQ(spec.place.func, "main");

	TEST_EQ(parse("main:12"), 0);
	TEST_EQ(spec.place.kind, PLACE_FUNC);
	TEST_TRUE(spec.place.has_line);
	TEST_EQ(spec.place.line, 12);

	TEST_EQ(parse("main@src/main.c:3"), 0);
	TEST_STREQ(spec.place.func, "main");
	TEST_STREQ(spec.place.srcfile, "src/main.c");
	TEST_EQ(spec.place.line, 3);

	TEST_EQ(parse("handler@server.go"), 0);
	TEST_STREQ(spec.place.srcfile, "server.go");
	TEST_TRUE(!spec.place.has_line);

	/* FUNC@VERSION looks like FUNC@SRCFILE (place.c tells them apart); '@@' is a version */
	TEST_EQ(parse("pthread_kill@GLIBC_2.2.5"), 0);
	TEST_STREQ(spec.place.func, "pthread_kill");
	TEST_STREQ(spec.place.srcfile, "GLIBC_2.2.5");
	TEST_EQ(parse("pthread_kill@@GLIBC_2.34%return"), 0);
	TEST_STREQ(spec.place.func, "pthread_kill");
	TEST_STREQ(spec.place.srcfile, "@GLIBC_2.34");
	TEST_TRUE(spec.place.is_return);

	/* SRCFILE:LINE */
	TEST_EQ(parse("server.go:42"), 0);
	TEST_EQ(spec.place.kind, PLACE_SRCLINE);
	TEST_STREQ(spec.place.srcfile, "server.go");
	TEST_STREQ(spec.place.func, NULL);
	TEST_EQ(spec.place.line, 42);
	TEST_EQ(parse("src/main.rs:10"), 0);
	TEST_EQ(spec.place.kind, PLACE_SRCLINE);
	TEST_STREQ(spec.place.srcfile, "src/main.rs");
	TEST_EQ(parse("lib/actor.cpp:7 x"), 0);
	TEST_EQ(spec.place.kind, PLACE_SRCLINE);
	TEST_EQ(spec.nr_args, 1);

	/* 0xADDR */
	TEST_EQ(parse("0x401136"), 0);
	TEST_EQ(spec.place.kind, PLACE_ADDR);
	TEST_EQ(spec.place.addr, 0x401136);

	/* C++ */
	TEST_EQ(parse("caf::scheduled_actor::enqueue"), 0);
	TEST_STREQ(spec.place.func, "caf::scheduled_actor::enqueue");
	TEST_TRUE(!spec.place.has_line);
	TEST_EQ(parse("caf::scheduled_actor::enqueue:12"), 0);
	TEST_STREQ(spec.place.func, "caf::scheduled_actor::enqueue");
	TEST_EQ(spec.place.line, 12);
	TEST_EQ(parse("ns::C::m(int)"), 0);
	TEST_STREQ(spec.place.func, "ns::C::m(int)");
	TEST_EQ(parse("ns::C::m(int, char const*) a"), 0);
	TEST_STREQ(spec.place.func, "ns::C::m(int, char const*)");
	TEST_EQ(spec.nr_args, 1);
	TEST_EQ(parse("Functor::operator()"), 0);
	TEST_STREQ(spec.place.func, "Functor::operator()");
	TEST_EQ(parse("operator=="), 0);
	TEST_STREQ(spec.event, NULL);
	TEST_STREQ(spec.place.func, "operator==");
	TEST_EQ(parse("V::operator+=%return"), 0);
	TEST_STREQ(spec.place.func, "V::operator+=");
	TEST_TRUE(spec.place.is_return);
	TEST_EQ(parse("<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop self"), 0);
	TEST_STREQ(spec.place.func, "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop");
	TEST_EQ(spec.nr_args, 1);
	TEST_EQ(parse("std::vector<int>::push_back"), 0);
	TEST_STREQ(spec.place.func, "std::vector<int>::push_back");
	TEST_EQ(parse("ns::operator< a"), 0);
	TEST_STREQ(spec.place.func, "ns::operator<");
	TEST_EQ(spec.nr_args, 1);
	TEST_EQ(parse("ns::C::~C"), 0);
	TEST_STREQ(spec.place.func, "ns::C::~C");

	/* Go */
	TEST_EQ(parse("main.(*server).handleRequest"), 0);
	TEST_STREQ(spec.place.func, "main.(*server).handleRequest");
	TEST_EQ(parse("github.com/x/y.(*T).M:3"), 0);
	TEST_EQ(spec.place.kind, PLACE_FUNC);
	TEST_STREQ(spec.place.func, "github.com/x/y.(*T).M");
	TEST_EQ(spec.place.line, 3);
	TEST_EQ(parse("main.main.func1"), 0);
	TEST_STREQ(spec.place.func, "main.main.func1");
	TEST_EQ(parse("main.(*State).*"), 0);
	TEST_STREQ(spec.place.func, "main.(*State).*");
	TEST_EQ(parse("main.Map[go.shape.int_0]"), 0);
	TEST_STREQ(spec.place.func, "main.Map[go.shape.int_0]");
	TEST_EQ(parse("main.(*T).c:4"), 0);
	TEST_EQ(spec.place.kind, PLACE_FUNC);

	/* Go's linker escapes '.' (and '%', '"', blanks) in an import path's last element */
	TEST_EQ(parse("gopkg.in/yaml%2ev3.(*parser).parse"), 0);
	TEST_STREQ(spec.place.func, "gopkg.in/yaml%2ev3.(*parser).parse");
	TEST_TRUE(!spec.place.is_return);
	TEST_EQ(parse("gopkg.in/yaml%2ev3.(*parser).parse%return p"), 0);
	TEST_STREQ(spec.place.func, "gopkg.in/yaml%2ev3.(*parser).parse");
	TEST_TRUE(spec.place.is_return);
	TEST_EQ(spec.nr_args, 1);
	TEST_EQ(parse("ev=go.opentelemetry.io/otel/semconv/v1%2e26%2e0.Foo:3"), 0);
	TEST_STREQ(spec.event, "ev");
	TEST_STREQ(spec.place.func, "go.opentelemetry.io/otel/semconv/v1%2e26%2e0.Foo");
	TEST_EQ(spec.place.line, 3);
	TEST_EQ(parse("x/a%25b.F+8"), 0);
	TEST_STREQ(spec.place.func, "x/a%25b.F");
	TEST_EQ(spec.place.offset, 8);
	TEST_EQ(parse("gopkg.in/yaml.v3.(*parser).parse"), 0);
	TEST_STREQ(spec.place.func, "gopkg.in/yaml.v3.(*parser).parse");

	/* Rust: array types "[T; N]" and string literals (extern "C") inside <> or [] */
	TEST_EQ(parse("<[u8; 4] as core::fmt::Debug>::fmt"), 0);
	TEST_STREQ(spec.place.func, "<[u8; 4] as core::fmt::Debug>::fmt");
	TEST_EQ(spec.nr_args, 0);
	TEST_EQ(parse("core::ptr::drop_in_place<alloc::boxed::Box<[orders::shop::Item; 1]>> x"), 0);
	TEST_STREQ(spec.place.func, "core::ptr::drop_in_place<alloc::boxed::Box<[orders::shop::Item; 1]>>");
	TEST_EQ(spec.nr_args, 1);
	TEST_EQ(parse("<alloc::raw_vec::RawVec<(*mut u8, unsafe extern \"C\" fn(*mut u8)), "
		      "std::alloc::System>>::grow_one%return"), 0);
	TEST_STREQ(spec.place.func, "<alloc::raw_vec::RawVec<(*mut u8, unsafe extern \"C\" "
		   "fn(*mut u8)), std::alloc::System>>::grow_one");
	TEST_TRUE(spec.place.is_return);
	TEST_EQ(parse("core::array::<impl core::ops::index::Index<I> for [T; N]>::index:2"), 0);
	TEST_STREQ(spec.place.func, "core::array::<impl core::ops::index::Index<I> for [T; N]>::index");
	TEST_EQ(spec.place.line, 2);

	/* Rust lifetimes inside <>; Go generics' shapes with blanks and ';' inside [] */
	TEST_EQ(parse("<&mut dyn for<'a> core::ops::function::FnMut<(&'a u8,)>>::call_mut x"), 0);
	TEST_STREQ(spec.place.func, "<&mut dyn for<'a> core::ops::function::FnMut<(&'a u8,)>>::call_mut");
	TEST_EQ(spec.nr_args, 1);
	TEST_EQ(parse("crypto/hmac.New.UnwrapNew[go.shape.interface { Reset(); Size() int }].func1%return"), 0);
	TEST_STREQ(spec.place.func, "crypto/hmac.New.UnwrapNew[go.shape.interface { Reset(); Size() int }].func1");
	TEST_TRUE(spec.place.is_return);
	TEST_EQ(spec.nr_args, 0);
	TEST_EQ(parse("<Box<dyn Fn<(&u8,), Output = ()>> as Drop>::drop"), 0);
	TEST_STREQ(spec.place.func, "<Box<dyn Fn<(&u8,), Output = ()>> as Drop>::drop");
	TEST_STREQ(spec.event, NULL);
	TEST_EQ(parse("ev=<F<Output = u8>>::m"), 0);
	TEST_STREQ(spec.event, "ev");
	TEST_STREQ(spec.place.func, "<F<Output = u8>>::m");
	TEST_EQ(parse("f a[1] b"), 0);
	TEST_EQ(spec.nr_args, 2);

	/* Rust, globs */
	TEST_EQ(parse("myapp::handler::run"), 0);
	TEST_STREQ(spec.place.func, "myapp::handler::run");
	TEST_EQ(parse("get*"), 0);
	TEST_STREQ(spec.place.func, "get*");

	/* EVENT= */
	TEST_EQ(parse("lookup=getaddrinfo name"), 0);
	TEST_STREQ(spec.event, "lookup");
	TEST_STREQ(spec.place.func, "getaddrinfo");
	TEST_EQ(spec.place.span.start, 7);
	TEST_EQ(spec.place.span.len, 11);
	TEST_EQ(parse("  \tf  a  b "), 0);
	TEST_EQ(spec.nr_args, 2);
	TEST_EQ(spec.place.span.start, 3);
	TEST_EQ(spec.args[1].span.start, 9);
}

static void test_args(void)
{
	struct expr *e;

	TEST_EQ(parse("main.(*server).handleRequest r->Question[0].Name"), 0);
	TEST_EQ(spec.nr_args, 1);
	e = spec.args[0].expr;
	TEST_EQ(e->kind, EXPR_MEMBER);
	TEST_STREQ(e->name, "Name");
	TEST_TRUE(!e->arrow);
	TEST_EQ(e->span.start, 44);
	TEST_EQ(e->span.len, 4);
	TEST_EQ(e->base->kind, EXPR_INDEX);
	TEST_EQ(e->base->index, 0);
	TEST_EQ(e->base->base->kind, EXPR_MEMBER);
	TEST_TRUE(e->base->base->arrow);
	TEST_STREQ(e->base->base->name, "Question");
	TEST_EQ(e->base->base->base->kind, EXPR_VAR);
	TEST_STREQ(e->base->base->base->name, "r");
	TEST_EQ(e->base->base->base->span.start, 29);
	TEST_STREQ(expr_last_name(e), "Name");
	TEST_EQ(spec.args[0].span.start, 29);
	TEST_EQ(spec.args[0].span.len, 19);

	TEST_EQ(parse("f n=*p:u32"), 0);
	TEST_STREQ(spec.args[0].name, "n");
	TEST_STREQ(spec.args[0].type, "u32");
	TEST_EQ(spec.args[0].type_span.start, 7);
	TEST_EQ(spec.args[0].type_span.len, 3);
	TEST_EQ(spec.args[0].expr->kind, EXPR_DEREF);
	TEST_EQ(spec.args[0].expr->base->kind, EXPR_VAR);
	TEST_STREQ(expr_last_name(spec.args[0].expr), "p");

	TEST_EQ(parse("f ns::counter:u64 this->x Base::y"), 0);
	TEST_EQ(spec.args[0].expr->kind, EXPR_VAR);
	TEST_STREQ(spec.args[0].expr->name, "ns::counter");
	TEST_STREQ(spec.args[0].type, "u64");
	TEST_STREQ(expr_last_name(spec.args[0].expr), "counter");
	TEST_STREQ(spec.args[1].expr->base->name, "this");
	TEST_STREQ(spec.args[2].expr->name, "Base::y");

	TEST_EQ(parse("main.f ~r0 .autotmp_5 s[0x10]"), 0);
	TEST_STREQ(spec.args[0].expr->name, "~r0");
	TEST_STREQ(expr_last_name(spec.args[0].expr), "r0");
	TEST_STREQ(spec.args[1].expr->name, ".autotmp_5");
	TEST_STREQ(expr_last_name(spec.args[1].expr), "autotmp_5");
	TEST_EQ(spec.args[2].expr->index, 16);

	TEST_EQ(parse("f%return $retval:s32"), 0);
	TEST_EQ(spec.args[0].expr->kind, EXPR_RETVAL);
	TEST_STREQ(spec.args[0].type, "s32");
	TEST_STREQ(expr_last_name(spec.args[0].expr), "retval");

	/* $retval is the root of a chain */
	TEST_EQ(parse("f%return $retval->id $retval[0].Name (*$retval).x $retval.n:u8"), 0);
	TEST_EQ(spec.args[0].expr->kind, EXPR_MEMBER);
	TEST_EQ(spec.args[0].expr->base->kind, EXPR_RETVAL);
	TEST_STREQ(expr_last_name(spec.args[0].expr), "id");
	TEST_STREQ(fmt(spec.args[0].expr), "$retval->id");
	TEST_EQ(spec.args[1].expr->base->kind, EXPR_INDEX);
	TEST_EQ(spec.args[1].expr->base->base->kind, EXPR_RETVAL);
	TEST_STREQ(fmt(spec.args[1].expr), "$retval[0].Name");
	TEST_EQ(spec.args[2].expr->base->base->kind, EXPR_RETVAL);
	TEST_STREQ(spec.args[3].type, "u8");
	TEST_STREQ(fmt(spec.args[3].expr), "$retval.n");

	TEST_EQ(parse("f $params $vars"), 0);
	TEST_EQ(spec.args[0].expr->kind, EXPR_PARAMS);
	TEST_EQ(spec.args[1].expr->kind, EXPR_VARS);
	TEST_STREQ(expr_last_name(spec.args[0].expr), NULL);

	/* raw fetchargs and registers */
	TEST_EQ(parse("f +0(+8(%di)):string @0x1234:u32 $stack0 $comm -8(%bp) \\42 %ax"), 0);
	TEST_EQ(spec.nr_args, 7);
	TEST_EQ(spec.args[0].expr->kind, EXPR_RAW);
	TEST_STREQ(spec.args[0].expr->name, "+0(+8(%di))");
	TEST_STREQ(spec.args[0].type, "string");
	TEST_STREQ(spec.args[1].expr->name, "@0x1234");
	TEST_STREQ(spec.args[1].type, "u32");
	TEST_EQ(spec.args[2].expr->kind, EXPR_RAW);
	TEST_STREQ(spec.args[2].expr->name, "$stack0");
	TEST_EQ(spec.args[3].expr->kind, EXPR_RAW);
	TEST_EQ(spec.args[4].expr->kind, EXPR_RAW);
	TEST_EQ(spec.args[5].expr->kind, EXPR_RAW);
	TEST_EQ(spec.args[6].expr->kind, EXPR_REG);
	TEST_STREQ(spec.args[6].expr->name, "ax");
	TEST_STREQ(expr_last_name(spec.args[6].expr), "ax");
	TEST_STREQ(expr_last_name(spec.args[0].expr), NULL);

	/* default names */
	{
		char *n1 = probe_arg_name(&spec.args[0], 0);
		char *n2 = probe_arg_name(&spec.args[1], 1);
		char *n7 = probe_arg_name(&spec.args[6], 6);

		TEST_STREQ(n1, "arg1");
		TEST_STREQ(n2, "arg2");
		TEST_STREQ(n7, "ax");
		free(n1);
		free(n2);
		free(n7);
	}
	TEST_EQ(parse("f q=a.b"), 0);
	{
		char *n = probe_arg_name(&spec.args[0], 0);

		TEST_STREQ(n, "q");
		free(n);
	}

	/* types */
	TEST_EQ(parse("f a:b3@5/32 b:char[16] c:u8[4] d:ustring e:x16 g:bool h:double i:sym"), 0);
	TEST_STREQ(spec.args[0].type, "b3@5/32");
	TEST_STREQ(spec.args[1].type, "char[16]");
	TEST_STREQ(spec.args[2].type, "u8[4]");
	TEST_STREQ(spec.args[7].type, "sym");
	TEST_EQ(parse("f a::b"), 0);
	TEST_STREQ(spec.args[0].type, NULL);
	TEST_STREQ(spec.args[0].expr->name, "a::b");

	/* parentheses group; postfix binds tighter than '*' */
	TEST_EQ(parse("f (*p).x *p.x"), 0);
	TEST_EQ(spec.args[0].expr->kind, EXPR_MEMBER);
	TEST_EQ(spec.args[0].expr->base->kind, EXPR_DEREF);
	TEST_EQ(spec.args[1].expr->kind, EXPR_DEREF);
	TEST_EQ(spec.args[1].expr->base->kind, EXPR_MEMBER);
}

static void test_casts(void)
{
	struct expr *e;

	/* C: the operand is a unary expression; blanks inside the parentheses are the word's */
	TEST_EQ(parse("f (struct inner *)o->opaque ((struct inner *)o->opaque)->weight"), 0);
	TEST_EQ(spec.nr_args, 2);
	e = spec.args[0].expr;
	TEST_EQ(e->kind, EXPR_CAST);
	TEST_STREQ(e->type->text, "struct inner *");
	TEST_STREQ(e->type->name, "inner");
	TEST_EQ(e->type->tag, TYPE_TAG_STRUCT);
	TEST_EQ(e->type->nr_ptr, 1);
	TEST_TRUE(!e->type->go_prefix && !e->paren);
	TEST_EQ(e->type->span.start, 3);
	TEST_EQ(e->type->span.len, 14);
	TEST_EQ(e->type->name_span.start, 10);
	TEST_EQ(e->type->name_span.len, 5);
	TEST_EQ(e->span.start, 2);
	TEST_EQ(e->span.len, 25);
	TEST_EQ(e->base->kind, EXPR_MEMBER);
	TEST_STREQ(e->base->name, "opaque");
	TEST_STREQ(expr_last_name(e), "opaque");
	e = spec.args[1].expr;
	TEST_EQ(e->kind, EXPR_MEMBER);
	TEST_STREQ(e->name, "weight");
	TEST_EQ(e->base->kind, EXPR_CAST);
	TEST_EQ(e->base->base->kind, EXPR_MEMBER);
	TEST_STREQ(fmt(e), "((struct inner *)o->opaque)->weight");

	TEST_EQ(parse("f (unsigned long)x (const char * const *)argv (char*)s:string"), 0);
	TEST_STREQ(spec.args[0].expr->type->name, "unsigned long");
	TEST_EQ(spec.args[0].expr->type->nr_ptr, 0);
	TEST_EQ(spec.args[0].expr->type->tag, TYPE_TAG_NONE);
	TEST_STREQ(spec.args[1].expr->type->name, "char");
	TEST_EQ(spec.args[1].expr->type->nr_ptr, 2);
	TEST_STREQ(spec.args[2].expr->type->text, "char*");
	TEST_STREQ(spec.args[2].type, "string");

	/* C++: qualified names, anonymous namespaces, templates */
	TEST_EQ(parse("caf::scheduled_actor::enqueue "
		      "w=(caf::(anonymous namespace)::mailbox_element_wrapper *)ptr "
		      "(caf::plain_element *)ptr:x64 "
		      "(std::map<int, std::pair<char, long> > const *)m"), 0);
	TEST_EQ(spec.nr_args, 3);
	TEST_STREQ(spec.args[0].name, "w");
	TEST_STREQ(spec.args[0].expr->type->name,
		   "caf::(anonymous namespace)::mailbox_element_wrapper");
	TEST_EQ(spec.args[0].expr->type->nr_ptr, 1);
	TEST_STREQ(spec.args[1].expr->type->name, "caf::plain_element");
	TEST_STREQ(spec.args[1].type, "x64");
	TEST_STREQ(spec.args[2].expr->type->name, "std::map<int, std::pair<char, long> >");
	TEST_EQ(spec.args[2].expr->type->nr_ptr, 1);

	/* Go: "(*main.T)(p)" is a conversion, a primary: ".x" is the converted value's */
	TEST_EQ(parse("main.f (*main.T)(p).x (**main.T)(pp) ([]byte)(b)"), 0);
	e = spec.args[0].expr;
	TEST_EQ(e->kind, EXPR_MEMBER);
	TEST_EQ(e->base->kind, EXPR_CAST);
	TEST_TRUE(e->base->paren && e->base->type->go_prefix);
	TEST_STREQ(e->base->type->name, "main.T");
	TEST_EQ(e->base->type->nr_ptr, 1);
	TEST_STREQ(fmt(e), "(*main.T)(p).x");
	TEST_EQ(spec.args[1].expr->type->nr_ptr, 2);
	TEST_STREQ(spec.args[2].expr->type->name, "[]byte");

	/* a parenthesized expression is still one */
	TEST_EQ(parse("f (*p).x (p)"), 0);
	TEST_EQ(spec.args[0].expr->kind, EXPR_MEMBER);
	TEST_EQ(spec.args[0].expr->base->kind, EXPR_DEREF);
	TEST_EQ(spec.args[1].expr->kind, EXPR_VAR);

	/* a register, a dereference of a cast, static_cast */
	TEST_EQ(parse("f (struct s *)%si *(int *)p static_cast<T *>(p)->x"), 0);
	TEST_EQ(spec.args[0].expr->base->kind, EXPR_REG);
	TEST_STREQ(spec.args[0].expr->base->name, "si");
	TEST_EQ(spec.args[1].expr->kind, EXPR_DEREF);
	TEST_EQ(spec.args[1].expr->base->kind, EXPR_CAST);
	TEST_EQ(spec.args[2].expr->kind, EXPR_MEMBER);
	TEST_EQ(spec.args[2].expr->base->kind, EXPR_CAST);
	TEST_STREQ(fmt(spec.args[2].expr), "(T *)(p)->x");

	/* C: a parenthesized operand is still the cast's whole unary expression */
	TEST_EQ(parse("f (struct a *)(p)->x ((struct b *)((struct a *)p)->q)->y"), 0);
	TEST_EQ(spec.args[0].expr->kind, EXPR_CAST);
	TEST_EQ(spec.args[0].expr->base->kind, EXPR_MEMBER);
	TEST_STREQ(fmt(spec.args[0].expr), "(struct a *)p->x");
	TEST_EQ(spec.args[1].expr->kind, EXPR_MEMBER);
	TEST_EQ(spec.args[1].expr->base->kind, EXPR_CAST);
	TEST_EQ(spec.args[1].expr->base->base->kind, EXPR_MEMBER);
	TEST_STREQ(spec.args[1].expr->base->base->name, "q");
}

static void test_dynamic(void)
{
	struct expr *e;

	TEST_EQ(parse("enqueue dynamic_cast<caf::(anonymous namespace)::wrapper *>(ptr)->msg "
		      "typeid(*ptr) typeid(ptr->data)"), 0);
	TEST_EQ(spec.nr_args, 3);
	e = spec.args[0].expr;
	TEST_EQ(e->kind, EXPR_MEMBER);
	TEST_EQ(e->base->kind, EXPR_DYNCAST);
	TEST_STREQ(e->base->type->name, "caf::(anonymous namespace)::wrapper");
	TEST_EQ(e->base->type->nr_ptr, 1);
	TEST_EQ(e->base->span.start, 8);
	TEST_EQ(e->base->span.len, 56);
	TEST_EQ(e->base->base->kind, EXPR_VAR);
	TEST_STREQ(fmt(e), "dynamic_cast<caf::(anonymous namespace)::wrapper *>(ptr)->msg");
	TEST_EQ(spec.args[1].expr->kind, EXPR_TYPEID);
	TEST_EQ(spec.args[1].expr->base->kind, EXPR_DEREF);
	TEST_STREQ(fmt(spec.args[1].expr), "typeid(*ptr)");
	TEST_STREQ(expr_last_name(spec.args[1].expr), "ptr");
	TEST_EQ(spec.args[2].expr->base->kind, EXPR_MEMBER);

	/* Go: type assertions are postfix */
	TEST_EQ(parse("main.handle err.(*main.MyErr).Code e=err.(main.ValErr) typeid(err) $goid"),
		0);
	e = spec.args[0].expr;
	TEST_EQ(e->kind, EXPR_MEMBER);
	TEST_EQ(e->base->kind, EXPR_TYPEASSERT);
	TEST_STREQ(e->base->type->name, "main.MyErr");
	TEST_EQ(e->base->type->nr_ptr, 1);
	TEST_TRUE(e->base->type->go_prefix);
	TEST_EQ(e->base->span.start, 15);
	TEST_EQ(e->base->span.len, 14);
	TEST_STREQ(fmt(e), "err.(*main.MyErr).Code");
	TEST_EQ(spec.args[1].expr->kind, EXPR_TYPEASSERT);
	TEST_EQ(spec.args[1].expr->type->nr_ptr, 0);
	TEST_STREQ(expr_last_name(spec.args[1].expr), "err");
	TEST_EQ(spec.args[2].expr->kind, EXPR_TYPEID);
	TEST_EQ(spec.args[3].expr->kind, EXPR_GOID);
	TEST_STREQ(expr_last_name(spec.args[3].expr), "goid");
	TEST_EQ(spec.args[3].expr->span.start, 67);
	TEST_EQ(spec.args[3].expr->span.len, 5);

	/* variables that happen to be named like the keywords */
	TEST_EQ(parse("f typeid dynamic_cast.x"), 0);
	TEST_EQ(spec.args[0].expr->kind, EXPR_VAR);
	TEST_EQ(spec.args[1].expr->base->kind, EXPR_VAR);

	/* Go's len(), cap() (len and cap alone are variables) and a map's quoted key */
	TEST_EQ(parse("main.f len(m) cap(s.b) len m[\"Malone\"] cap"), 0);
	TEST_EQ(spec.args[0].expr->kind, EXPR_LEN);
	TEST_STREQ(expr_last_name(spec.args[0].expr), "len");
	TEST_EQ(spec.args[1].expr->kind, EXPR_CAP);
	TEST_EQ(spec.args[1].expr->base->kind, EXPR_MEMBER);
	TEST_EQ(spec.args[2].expr->kind, EXPR_VAR);
	TEST_EQ(spec.args[3].expr->kind, EXPR_INDEX);
	TEST_EQ(spec.args[3].expr->key, true);
	TEST_STREQ(spec.args[3].expr->name, "Malone");
	TEST_EQ(spec.args[4].expr->kind, EXPR_VAR);
}

static void test_errors(void)
{
	TEST_BAD("", "", "empty probe");
	TEST_BAD("   ", "   ", "empty probe");
	TEST_BAD("f r->", "->", "expected a field name after '->'");
	TEST_BAD("f r->1", "1", "expected a field name after '->'");
	TEST_BAD("f r.", ".", "expected a field name after '.'");
	TEST_BAD("f a[1", "[", "unterminated '['");
	TEST_BAD("f a[-1]", "-1", "must not be negative");
	TEST_BAD("f a[i]", "i", "non-negative");
	TEST_BAD("f a[]", "[]", "expected an index");
	TEST_BAD("f a)", ")", "unexpected ')'");
	TEST_BAD("f (a", "(", "unterminated '('");
	TEST_BAD("f a+b", "+", "unexpected '+'");
	TEST_BAD("f 12", "12", "not a number");
	TEST_BAD("f+4%return", "%return", "'%return' cannot be combined with '+OFFSET'");
	TEST_BAD("f:3%return", "%return", "'%return' cannot be combined with ':LINE'");
	TEST_BAD("f+4:3", ":3", "':LINE' cannot be combined with '+OFFSET'");
	TEST_BAD("f+1+2", "+2", "only one '+OFFSET'");
	TEST_BAD("f+zz", "+", "expected a decimal or 0x offset");
	TEST_BAD("f+0xzz", "0xzz", "expected a decimal or 0x offset");
	TEST_BAD("f:x", ":", "expected a line number");
	TEST_BAD("f%ret", "%", "expected 'return'");
	TEST_BAD("f%2", "%", "expected 'return'");
	TEST_BAD("a%2e%zz.f", "%", "expected 'return'");
	TEST_BAD("f;", ";", "unexpected ';'");
	TEST_BAD("f<'>", "'", "unexpected '''");
	TEST_BAD("f'a", "'", "unexpected '''");
	TEST_BAD("f<a;b", ";", "unexpected ';'");	/* no '>': not inside <> */
	TEST_BAD("\"f\"", "\"", "unexpected '\"'");
	TEST_BAD("f<extern \"C>", "\"", "unterminated '\"'");
	TEST_BAD("f<\"a\\\"b\">", "\\", "unexpected '\\'");
	TEST_BAD("%return", "%return", "expected a function name");
	TEST_BAD("0xg1", "0xg1", "hex address");
	TEST_BAD("1234", "1234", "expected a function");
	TEST_BAD("ev=", "=", "expected a place");
	TEST_BAD("my-ev=f", "my-ev", "not a C identifier");
	TEST_BAD("f@", "@", "expected a source file or symbol version");
	TEST_BAD("f@@", "@@", "expected a symbol version after '@@'");
	TEST_BAD("f@@V@x", "@", "unexpected '@'");
	TEST_BAD("@a.c", "@", "expected a function name");
	TEST_BAD("main.(*T.M", "(", "unterminated '('");
	TEST_BAD("main.T).M", ")", "unexpected ')'");
	TEST_BAD("f =x", "=", "expected an argument name");
	TEST_BAD("f 1a=x", "1a", "not a C identifier");
	TEST_BAD("f a=", "=", "expected an expression");
	TEST_BAD("f a:", ":", "expected a type");
	TEST_BAD("f :u8", ":", "expected an expression");
	TEST_BAD("f a:u7", "u7", "unknown type 'u7'");
	TEST_BAD("f a:strng", "strng", "unknown type");
	TEST_BAD("f a:u8[0]", "[0]", "positive array size");
	TEST_BAD("f a:b9@0/8", "b9@0/8", "does not fit");
	TEST_BAD("f $foo", "$foo", "unknown special variable");
	TEST_BAD("f $retval", "$retval", "needs a '%return'");
	TEST_BAD("f $retval->id", "$retval", "needs a '%return'");
	TEST_BAD("f%return $retvalx", "$retvalx", "unknown special variable");
	TEST_BAD("f%return $retval-id", "-", "unexpected '-'");
	TEST_BAD("f $params:u8", "u8", "takes no type");
	TEST_BAD("f %", "%", "register name");
	TEST_BAD("f %di+8", "+", "after register");
	TEST_BAD("f +8(%di", "(", "unterminated '('");
	TEST_BAD("f a..b", ".", "expected a field name after '.'");
	TEST_BAD("f a-b", "-", "unexpected '-'");
	TEST_BAD("f 'x'", "'", "expected a variable name");
	TEST_BAD("'main.f'", "'", "unexpected '''");
	TEST_BAD("f *", "*", "expected a variable name");
	TEST_BAD("f %return", "%return", "belongs to the place");
	TEST_BAD("=f", "=", "expected an event name");
	TEST_BAD("a==", "=", "unexpected '='");
	TEST_BAD("f ********************************************************************************p", "*",
		 "nested too deeply");
	TEST_BAD("f (struct s *)", "(struct s *)", "expected an expression after the cast to "
		 "'struct s *'");
	TEST_BAD("f (T *)+", "+", "expected an expression after the cast");
	TEST_BAD("f (struct s &)p", "&", "cannot cast to a reference");
	TEST_BAD("f (const *)p", "const *", "expected a type name");
	TEST_BAD("f (int;)p", ";", "unexpected ';' in a type");
	TEST_BAD("f dynamic_cast<T>(p)", "T", "dynamic_cast needs a pointer type");
	TEST_BAD("f dynamic_cast<T *(p)", "<", "unterminated '<'");
	TEST_BAD("f dynamic_cast<T *>p", "p", "expected '(' after 'dynamic_cast<T *>'");
	TEST_BAD("f dynamic_cast<T *>(p", "<", "unterminated '<'");	/* split at the blank */
	TEST_BAD("f dynamic_cast<T*>(p", "(", "unterminated '('");
	TEST_BAD("f dynamic_cast<>(p)", "<", "expected a type");
	TEST_BAD("f typeid()", "()", "expected an expression inside");
	TEST_BAD("f typeid(p q)", " ", "unexpected blank");
	TEST_BAD("f typeid(p]", "(", "unterminated '('");
	TEST_BAD("f typeid(p).name", ".", "has no fields");
	TEST_BAD("f len(m)[0]", "[", "len() gives a number");
	TEST_BAD("f cap()", "()", "expected an expression inside");
	TEST_BAD("f err.(", "(", "unterminated '('");
	TEST_BAD("f err.()", "(", "expected a type");
	TEST_BAD("f $goid:u8x", "u8x", "unknown type");
	TEST_BAD("f $goidx", "$goidx", "unknown special variable");
	/* the message and span come out in diag_format() as one line */
	{
		struct strbuf sb = STRBUF_INIT;

		parse("f r->Question[x]");
		strbuf_init(&sb);
		diag_format(&d, &sb);
		TEST_STREQ(sb.buf, "index must be a non-negative decimal or 0x number at 'x' "
				   "(column 15 of 'f r->Question[x]')");
		strbuf_release(&sb);
	}
}

static void test_round_trip(void)
{
	static const char *const exprs[] = {
		"r->Question[0].Name", "a.b.c", "p->q->r", "*p", "**pp", "(*p).x", "(*p)[3]",
		"*p.x", "a[1][2]", "ns::g", "this->Base::m", "%di", "+0(+8(%di))", "$stack3",
		"$retval", "@0x10", "~r1", "s[4096]", "(struct inner *)o->opaque",
		"((struct inner *)o->opaque)->weight", "(*main.T)(p).x", "(main.T)(p).x",
		"*(int *)p", "((T *)p)[2]", "(T)(U)x", "dynamic_cast<ns::D *>(b)->x", "typeid(*b)",
		"err.(*main.E).Code", "err.(main.V)", "$goid", "(T *)%si",
		"(caf::(anonymous namespace)::w *)p", "len(m)", "cap(o.s)", "m[\"Malone\"]",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(exprs); i++) {
		if (!strcmp(exprs[i], "$retval")) {
			if (parse("f%return $retval"))
				UT_REPORT(0, "round trip $retval");
			else
				TEST_STREQ(fmt(spec.args[0].expr), "$retval");
			continue;
		}
		round_trip(exprs[i]);
	}
	/* a hex index formats as decimal, and that parses to the same tree */
	TEST_EQ(parse("f a[0x10]"), 0);
	TEST_STREQ(fmt(spec.args[0].expr), "a[16]");
	TEST_EQ(parse("f ((p))->x"), 0);
	TEST_STREQ(fmt(spec.args[0].expr), "p->x");
}

/* @e formatted, parsed again as a probe's argument and formatted again gives the same text */
static bool reformats(const struct expr *e, bool is_return)
{
	struct probe_spec sp2;
	struct diag d2;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	char *probe;
	bool ok;

	strbuf_init(&a);
	strbuf_init(&b);
	expr_format(e, &a);
	probe = xasprintf("f%s %s", is_return ? "%return" : "", a.buf);
	diag_init(&d2, probe);
	ok = !parse_probe(probe, &sp2, &d2) && sp2.nr_args == 1;
	if (ok) {
		expr_format(sp2.args[0].expr, &b);
		ok = !strcmp(a.buf, b.buf);
	}
	if (!ok)
		UT_REPORT(0, "reformat '%s' -> '%s' (%s)", a.buf, b.buf ? b.buf : "",
			  d2.msg ? d2.msg : "");
	probe_spec_release(&sp2);
	diag_release(&d2);
	strbuf_release(&a);
	strbuf_release(&b);
	free(probe);
	return ok;
}

/* random input never crashes and always either parses or names an error inside the text */
static void test_fuzz(void)
{
	static const char alphabet[] = "ab_:.->[]()*%$@+0x19 =\t'~/\\&r\xc3\xa9<>";
	unsigned int seed = 12345;
	int i, j, bad_span = 0, no_msg = 0, reformat_bad = 0;
	char buf[48];

	for (i = 0; i < 100000; i++) {
		int len = rand_r(&seed) % (int)(sizeof(buf) - 1);

		for (j = 0; j < len; j++)
			buf[j] = alphabet[rand_r(&seed) % (sizeof(alphabet) - 1)];
		buf[len] = '\0';
		if (parse(buf)) {
			if (!d.msg)
				no_msg++;
			if (d.span.start < 0 || d.span.start + d.span.len > len)
				bad_span++;
		} else {
			size_t k;

			/* everything that parses formats back and parses again, the same */
			for (k = 0; k < spec.nr_args; k++) {
				if (!spec.args[k].expr)
					no_msg++;
				else
					reformat_bad += !reformats(spec.args[k].expr,
								   spec.place.is_return);
			}
		}
	}
	TEST_EQ(no_msg, 0);
	TEST_EQ(bad_span, 0);
	TEST_EQ(reformat_bad, 0);
}

/*
 * Raw fetchargs go to the kernel as is: only its grammar passes. A '#' would start a comment
 * in uprobe_events (the kernel silently drops the type and every later argument), a blank or
 * control byte ends the argument or the command, non-ASCII is nothing the kernel reads.
 */
static void test_raw_fetchargs(void)
{
	TEST_EQ(parse("f +0(%di) -8(+0(%si)) +u8(%si) @0x10 @+0x10 \\-12 \\\"abc\" +8($stack) "
		      "+0($stack3) +0x10(%di):char[4]"), 0);
	TEST_EQ(spec.nr_args, 10);
	TEST_STREQ(spec.args[6].expr->name, "\\\"abc\"");
	TEST_BAD("f +0(%di)#", "#", "'#' starts a comment");
	TEST_BAD("f +0(%di)#:u32", "#", "'#' starts a comment");
	TEST_BAD("f x=+0(%di)# y=%si", "#", "'#' starts a comment");
	TEST_BAD("f \\\"ab#c\"", "#", "'#' starts a comment");
	TEST_BAD("f @0x10#", "#", "'#' starts a comment");
	TEST_BAD("f +0(%di)\x7f", "\x7f", "printable ASCII");
	TEST_BAD("f +0(%d\xc3\xa9)", "\xc3", "printable ASCII");
	TEST_BAD("f +0(%di)\x1b[2J", "\x1b", "printable ASCII");
	TEST_BAD("f +0(%di)\x01", "\x01", "printable ASCII");
	TEST_BAD("f +8(%di))", ")", "unexpected ')'");
	TEST_BAD("f +8(%di", "(", "unterminated '('");
	TEST_BAD("f +8(%di)x", "x", "unexpected character after the fetcharg");
	TEST_BAD("f +8()", ")", "expected a fetcharg");
	TEST_BAD("f +8($bad)", "$", "expected $stack");
	TEST_BAD("f +8($arg)", "$", "expected $stack");
	TEST_BAD("f @sym", "s", "uprobes take no symbols");
	TEST_BAD("f +8x(%di)", "x", "expected '(' after the offset");
	TEST_BAD("f \\x", "x", "expected a number");
	TEST_BAD("f \\\"abc", "\\", "unterminated");
}

int main(void)
{
	test_places();
	test_args();
	test_casts();
	test_dynamic();
	test_errors();
	test_raw_fetchargs();
	test_round_trip();
	test_fuzz();
	probe_spec_release(&spec);
	diag_release(&d);
	return TEST_DONE();
}
