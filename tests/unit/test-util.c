// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-util.c - escaping of untrusted bytes, JSON strings, names, globs, distances, strbuf,
 * source file names
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/diag.h"
#include "../../src/cmdexit.h"
#include "../../src/util.h"
#include "unittest.h"

/* escape_untrusted() of @len bytes (static buffer, valid until the next call) */
static const char *esc(const char *s, size_t len)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_release(&sb);
	strbuf_init(&sb);
	escape_untrusted(&sb, s, len);
	return sb.buf;
}

static const char *json(const char *s, size_t len)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_release(&sb);
	strbuf_init(&sb);
	escape_json(&sb, s, len);
	return sb.buf;
}

static const char *label(const char *s, size_t len)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_release(&sb);
	strbuf_init(&sb);
	escape_label(&sb, s, len);
	return sb.buf;
}

static const char *ident(const char *s, size_t max)
{
	static char *last;

	free(last);
	last = sanitize_ident(s, max);
	return last;
}

#define ESC(lit) esc(lit, sizeof(lit) - 1)
#define JSON(lit) json(lit, sizeof(lit) - 1)
#define LABEL(lit) label(lit, sizeof(lit) - 1)

static void test_escape_untrusted(void)
{
	TEST_STREQ(ESC("cnn.com."), "cnn.com.");
	TEST_STREQ(ESC(""), "");
	TEST_STREQ(ESC("\x1b[2Jboom"), "\\e[2Jboom");
	TEST_STREQ(ESC("a\nb\tc\rd"), "a\\nb\\tc\\rd");
	TEST_STREQ(ESC("q\"b\\"), "q\\\"b\\\\");
	TEST_STREQ(ESC("nul\0x"), "nul\\x00x");
	TEST_STREQ(ESC("\x07\x7f"), "\\x07\\x7f");
	/* valid UTF-8 is kept: 2, 3 and 4 byte sequences */
	TEST_STREQ(ESC("caf\xc3\xa9"), "caf\xc3\xa9");
	TEST_STREQ(ESC("\xe2\x82\xac 5"), "\xe2\x82\xac 5");
	TEST_STREQ(ESC("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");
	/* invalid UTF-8 byte by byte */
	TEST_STREQ(ESC("\xff\xfe"), "\\xff\\xfe");
	TEST_STREQ(ESC("\xc3"), "\\xc3");			/* cut short */
	TEST_STREQ(ESC("\xe2\x82"), "\\xe2\\x82");		/* cut short */
	TEST_STREQ(ESC("\xc0\x80"), "\\xc0\\x80");		/* overlong NUL */
	TEST_STREQ(ESC("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");	/* overlong '/' */
	TEST_STREQ(ESC("\xed\xa0\x80"), "\\xed\\xa0\\x80");	/* a surrogate */
	TEST_STREQ(ESC("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80"); /* above U+10FFFF */
	TEST_STREQ(ESC("\x80x"), "\\x80x");			/* a lone continuation */
	/* C1 controls (U+0080..U+009F), e.g. CSI U+009B, act on some terminals */
	TEST_STREQ(ESC("\xc2\x9b" "2J"), "\\xc2\\x9b2J");
	TEST_STREQ(ESC("\xc2\x85"), "\\xc2\\x85");
	TEST_STREQ(ESC("\xc2\xa0"), "\xc2\xa0");		/* U+00A0 is not C1 */
	/* bidi and invisible format controls: U+202E turns the rest of a line around */
	TEST_STREQ(ESC("ab\xe2\x80\xae" "cd"), "ab\\xe2\\x80\\xaecd");
	TEST_STREQ(ESC("\xe2\x81\xa6x"), "\\xe2\\x81\\xa6x");	/* U+2066 */
	TEST_STREQ(ESC("\xe2\x80\x8b"), "\\xe2\\x80\\x8b");	/* U+200B */
	TEST_STREQ(ESC("\xe2\x80\x94"), "\xe2\x80\x94");	/* U+2014 a dash: kept */
	/* only @len bytes are read */
	TEST_STREQ(esc("abcdef", 3), "abc");
	TEST_STREQ(esc("\xc3\xa9", 1), "\\xc3");
	/* appends */
	{
		struct strbuf sb = STRBUF_INIT;

		strbuf_init(&sb);
		strbuf_addstr(&sb, "name=");
		escape_untrusted(&sb, "\x1b", 1);
		TEST_STREQ(sb.buf, "name=\\e");
		strbuf_release(&sb);
	}
}

static void test_escape_json(void)
{
	TEST_STREQ(JSON("cnn.com."), "cnn.com.");
	TEST_STREQ(JSON("say \"hi\"\\"), "say \\\"hi\\\"\\\\");
	TEST_STREQ(JSON("a\nb\tc\r"), "a\\nb\\tc\\r");
	TEST_STREQ(JSON("\x1b\x01"), "\\u001b\\u0001");
	TEST_STREQ(JSON("nul\0"), "nul\\u0000");
	TEST_STREQ(JSON("\x7f"), "\\u007f");
	TEST_STREQ(JSON("caf\xc3\xa9 \xe2\x82\xac"), "caf\xc3\xa9 \xe2\x82\xac");
	/* a byte that is not UTF-8: a lone surrogate, never a character (\u00ff is 'ÿ') */
	TEST_STREQ(JSON("\xff"), "\\udcff");
	TEST_STREQ(JSON("\xc3("), "\\udcc3(");
	/* C1 and format controls: the character, escaped (not its bytes as Latin-1) */
	TEST_STREQ(JSON("\xc2\x9b"), "\\u009b");
	TEST_STREQ(JSON("a\xc2\x85" "b"), "a\\u0085b");
	TEST_STREQ(JSON("\xe2\x80\xae" "abc"), "\\u202eabc");
	TEST_STREQ(JSON("\xef\xbb\xbf"), "\\ufeff");
	TEST_STREQ(JSON("\xc2\xa0\xc3\xbf"), "\xc2\xa0\xc3\xbf");
	TEST_STREQ(JSON("/"), "/");
}

static void test_sanitize_ident(void)
{
	TEST_STREQ(ident("main.(*server).handleRequest", 63), "main_server_handleRequest");
	TEST_STREQ(ident("caf::scheduled_actor::enqueue", 63), "caf_scheduled_actor_enqueue");
	TEST_STREQ(ident("myapp::handler::run", 63), "myapp_handler_run");
	TEST_STREQ(ident("github.com/x/y.(*T).M", 63), "github_com_x_y_T_M");
	TEST_STREQ(ident("main.main.func1", 63), "main_main_func1");
	TEST_STREQ(ident("getaddrinfo", 63), "getaddrinfo");
	TEST_STREQ(ident("1abc", 63), "_1abc");
	TEST_STREQ(ident("9", 63), "_9");
	TEST_STREQ(ident("operator()", 63), "operator");
	TEST_STREQ(ident("a__b", 63), "a_b");
	TEST_STREQ(ident("", 63), "_");
	TEST_STREQ(ident("***", 63), "_");
	TEST_STREQ(ident("caf\xc3\xa9", 63), "caf");
	/* cut at max */
	TEST_STREQ(ident("abcdefghij", 4), "abcd");
	TEST_EQ(strlen(ident("github.com/docker/cli/cli/command/container.(*containerOptions)."
			     "runContainerWithAVeryLongName", 63)), 63);
	TEST_STREQ(ident("1234567", 4), "_123");
	TEST_STREQ(ident("ab.cd", 3), "ab");	/* a trailing '_' after the cut goes too */
}

static void test_glob(void)
{
	TEST_TRUE(glob_match("get*", "getaddrinfo"));
	TEST_TRUE(!glob_match("get*", "forget"));
	TEST_TRUE(glob_match("main.(*State).*", "main.(*State).Add"));
	TEST_TRUE(!glob_match("main.(*State).*", "main.(*Store).Add"));
	TEST_TRUE(glob_match("*.handleRequest", "main.(*server).handleRequest"));
	TEST_TRUE(glob_match("github.com/*.M", "github.com/x/y.(*T).M")); /* '*' matches '/' */
	TEST_TRUE(glob_match("caf::*::enqueue", "caf::scheduled_actor::enqueue"));
	TEST_TRUE(glob_match("f?o", "foo"));
	TEST_TRUE(!glob_match("f?o", "fo"));
	TEST_TRUE(glob_match("[gs]et", "set"));
	TEST_TRUE(!glob_match("[gs]et", "let"));
	TEST_TRUE(glob_match("exact", "exact"));
	TEST_TRUE(!glob_match("exact", "exact2"));
	TEST_TRUE(has_glob("get*"));
	TEST_TRUE(has_glob("f?o"));
	TEST_TRUE(has_glob("[ab]"));
	/* the '*' of a Go pointer receiver (*T) is part of the name */
	TEST_TRUE(!has_glob("main.(*server).handleRequest"));
	TEST_TRUE(has_glob("main.(*server).*"));
	TEST_TRUE(glob_match("main.(*server).handleRequest", "main.(*server).handleRequest"));
	TEST_TRUE(!glob_match("main.(*server).handleRequest", "main.(Xserver).handleRequest"));
	TEST_TRUE(glob_match("*(*server).h*", "main.(*server).handleRequest"));
	TEST_TRUE(!has_glob("caf::scheduled_actor::enqueue"));
}

static void test_distance(void)
{
	TEST_EQ(str_distance("kitten", "sitting"), 3);
	TEST_EQ(str_distance("", "abc"), 3);
	TEST_EQ(str_distance("abc", ""), 3);
	TEST_EQ(str_distance("same", "same"), 0);
	TEST_EQ(str_distance("Question", "Questions"), 1);
	TEST_EQ(str_distance("Qestion", "Question"), 1);
	TEST_EQ(str_distance("ab", "ba"), 2);
	TEST_TRUE(str_distance("handleRequest", "handleReqest") <
		  str_distance("handleRequest", "serveDNS"));
	{
		char a[300];

		memset(a, 'a', 299);
		a[299] = '\0';
		TEST_EQ(str_distance(a, "a"), 1000); /* too long to bother */
	}
}

static void test_strbuf(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;
	int i;

	TEST_STREQ(strbuf_cstr(&sb), "");
	strbuf_addstr(&sb, "a");	/* a never-initialized buffer grows too */
	TEST_STREQ(sb.buf, "a");
	for (i = 0; i < 100; i++)
		strbuf_addf(&sb, "%02d", i % 100);
	TEST_EQ(sb.len, 201);
	strbuf_reset(&sb);
	TEST_EQ(sb.len, 0);
	strbuf_addf(&sb, "%0300d", 7);
	TEST_EQ(sb.len, 300);
	TEST_EQ(sb.buf[299], '7');
	s = strbuf_detach(&sb);
	TEST_EQ(strlen(s), 300);
	TEST_TRUE(sb.buf == NULL && sb.len == 0);
	free(s);
	s = xasprintf("%s-%d", "x", 5);
	TEST_STREQ(s, "x-5");
	free(s);
	strbuf_release(&sb);
}

#define SRC(lit) has_source_ext(lit, sizeof(lit) - 1)

/* the one list of source extensions, shared by PROBE ("file.c:12") and -L */
static void test_source_ext(void)
{
	TEST_TRUE(SRC("orders.c"));
	TEST_TRUE(SRC("src/dir.v2/server.go"));
	TEST_TRUE(SRC("x.cpp") && SRC("x.c++") && SRC("x.rs") && SRC("x.S") && SRC("x.y"));
	TEST_TRUE(!SRC("main.run"));
	TEST_TRUE(!SRC("main.(*server).handleRequest"));
	TEST_TRUE(!SRC("dir.c/vector"));		/* the extension of the last component */
	TEST_TRUE(!SRC("Makefile"));
	TEST_TRUE(!SRC("x."));
	TEST_TRUE(has_source_ext("a.go:12", 4));	/* only @len bytes count */
}

/* Prometheus/OpenMetrics label values: the format's three escapes, \xHH for the rest */
static void test_escape_label(void)
{
	TEST_STREQ(LABEL("cnn.com."), "cnn.com.");
	TEST_STREQ(LABEL(""), "");
	TEST_STREQ(LABEL("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
	TEST_STREQ(LABEL("tab\there"), "tab\\\\x09here");
	TEST_STREQ(LABEL("\x1b[2J"), "\\\\x1b[2J");
	TEST_STREQ(LABEL("nul\0x"), "nul\\\\x00x");
	TEST_STREQ(LABEL("caf\xc3\xa9 \xe2\x82\xac"), "caf\xc3\xa9 \xe2\x82\xac");
	TEST_STREQ(LABEL("\xff\xc3"), "\\\\xff\\\\xc3");
	TEST_STREQ(LABEL("\x7f"), "\\\\x7f");
	TEST_STREQ(label("abcdef", 2), "ab");
}

/* escape_name() of a NUL-terminated name (static buffer, valid until the next call) */
static const char *name(const char *s)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_release(&sb);
	strbuf_init(&sb);
	escape_name(&sb, s);
	return sb.buf;
}

/*
 * Names from a binary or the user (-F, -V, -L, errors, logs, the curses view): the rule of
 * escape_untrusted(), but quotes and backslashes are kept (C++'s operator"", the kernel's
 * \IMM); nothing splits a line, nothing reaches the terminal as a sequence
 */
static void test_escape_name(void)
{
	TEST_STREQ(name("main.(*Store).Add"), "main.(*Store).Add");
	TEST_STREQ(name("evil\nfake_func\x1b[31m"), "evil\\nfake_func\\e[31m");
	TEST_STREQ(name("v\x1b]0;pwn\x07\nfake_var"), "v\\e]0;pwn\\x07\\nfake_var");
	TEST_STREQ(name("f\rx\ty"), "f\\rx\\ty");
	TEST_STREQ(name("operator\"\" _km"), "operator\"\" _km");
	TEST_STREQ(name("a=\\42"), "a=\\42");
	TEST_STREQ(name("\x7f\xc2\x9b" "2J"), "\\x7f\\xc2\\x9b2J");
	TEST_STREQ(name("caf\xc3\xa9 \xff"), "caf\xc3\xa9 \\xff");
	TEST_STREQ(name(NULL), "");
	{
		struct strbuf sb = STRBUF_INIT;

		escape_name_n(&sb, "ab\ncd", 3);
		TEST_STREQ(strbuf_cstr(&sb), "ab\\n");
		strbuf_release(&sb);
	}
}

/* an error line: the message, the user's text and the hints escaped, one line */
static void test_diag_line(void)
{
	const char *input = "nosuch\rfoo \x1b]0;x\x07";
	struct strbuf sb = STRBUF_INIT;
	struct diag d;

	diag_init(&d, input);
	diag_error(&d, (struct span){ 0, 6 }, "no function '%s'", "nosuch");
	diag_hint(&d, "closest: %s", "evil\nfake_func\x1b[31m");
	diag_format(&d, &sb);
	TEST_STREQ(strbuf_cstr(&sb), "no function 'nosuch' at 'nosuch' (column 1 of "
		   "'nosuch\\rfoo \\e]0;x\\x07'); closest: evil\\nfake_func\\e[31m");
	strbuf_release(&sb);
	diag_release(&d);
}

static void test_cmdexit(void)
{
	struct strbuf sb = STRBUF_INIT;

	cmdexit_describe(&sb, "/opt/my prog", 42, 7 << 8, false);
	TEST_STREQ(sb.buf, "my prog (pid 42) exited with status 7");
	TEST_EQ(cmdexit_code(7 << 8), 7);
	strbuf_reset(&sb);
	cmdexit_describe(&sb, "a\x1b[31m", 42, SIGSEGV | 0x80, false);
	TEST_STREQ(sb.buf, "a\\e[31m (pid 42) was killed by SIGSEGV (core dumped)");
	TEST_EQ(cmdexit_code(SIGSEGV | 0x80), 128 + SIGSEGV);
	strbuf_reset(&sb);
	cmdexit_describe(&sb, "p", 42, SIGTERM, true);
	TEST_STREQ(sb.buf, "p (pid 42) was ended by upfront (SIGTERM) as the session stopped");
	strbuf_reset(&sb);
	cmdexit_describe(&sb, "p", 42, SIGTERM, false);
	TEST_STREQ(sb.buf, "p (pid 42) was killed by SIGTERM");
	strbuf_reset(&sb);
	cmdexit_describe(&sb, "p", 42, SIGTRAP, false);
	TEST_TRUE(!strncmp(sb.buf, "p (pid 42) was killed by SIGTRAP: a breakpoint trap, most "
			   "likely one of upfront's probes", 73));
	strbuf_release(&sb);
}

int main(void)
{
	test_cmdexit();
	test_escape_untrusted();
	test_escape_name();
	test_diag_line();
	test_escape_json();
	test_escape_label();
	test_sanitize_ident();
	test_glob();
	test_distance();
	test_strbuf();
	test_source_ext();
	return TEST_DONE();
}
