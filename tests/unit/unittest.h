/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unittest.h - tiny TAP test helpers: each TEST_* is one "ok"/"not ok" line */
#ifndef UPF_UNITTEST_H
#define UPF_UNITTEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int ut_n, ut_failed;

#define UT_REPORT(ok, ...)                                                          \
	do {                                                                        \
		ut_n++;                                                             \
		if (!(ok))                                                          \
			ut_failed++;                                                \
		printf("%sok %d - ", (ok) ? "" : "not ", ut_n);                     \
		printf(__VA_ARGS__);                                                \
		printf("\n");                                                       \
	} while (0)

/* TEST_EQ() - integers; prints both expressions and values on failure */
#define TEST_EQ(a, b)                                                               \
	do {                                                                        \
		long long _a = (long long)(a), _b = (long long)(b);                 \
		UT_REPORT(_a == _b, "%s:%d: %s == %s", __FILE__, __LINE__, #a, #b); \
		if (_a != _b)                                                       \
			printf("#   %s = %lld\n#   %s = %lld\n", #a, _a, #b, _b);   \
	} while (0)

/* TEST_STREQ() - strings (NULL allowed) */
#define TEST_STREQ(a, b)                                                            \
	do {                                                                        \
		const char *_a = (a), *_b = (b);                                    \
		int _ok = (_a && _b) ? !strcmp(_a, _b) : _a == _b;                  \
		UT_REPORT(_ok, "%s:%d: %s == \"%s\"", __FILE__, __LINE__, #a,       \
			  _b ? _b : "(null)");                                      \
		if (!_ok)                                                           \
			printf("#   got      \"%s\"\n#   expected \"%s\"\n",         \
			       _a ? _a : "(null)", _b ? _b : "(null)");             \
	} while (0)

#define TEST_TRUE(c) UT_REPORT((c), "%s:%d: %s", __FILE__, __LINE__, #c)

/*
 * BY_MACHINE() - an expectation per machine: the x86-64 one or the arm64 one, for the machine
 * of the binaries the test reads (arch_current(): the one debuginfo_open() chose, else the
 * host's, which tests/targets/build.sh built the targets for); the test includes
 * "../../src/arch/arch.h" and <elf.h>
 */
#define BY_MACHINE(x86_64, arm64) (arch_current()->machine == EM_AARCH64 ? (arm64) : (x86_64))

/* TEST_DONE() - the plan line and exit status; use as `return TEST_DONE();` */
#define TEST_DONE() (printf("1..%d\n", ut_n), ut_failed ? 1 : 0)

#endif
