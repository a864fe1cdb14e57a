// SPDX-License-Identifier: GPL-2.0-or-later
/* test-kcaps.c - the kernel capability table from README texts of 4.18 to 6.18, and the mask */
#include <errno.h>
#include <stdlib.h>

#include "../../src/fallback.h"
#include "../../src/kcaps.h"
#include "kcaps-readmes.h"
#include "unittest.h"

/* the row NAME's value in kcaps_format()'s table: "yes", "no", a number; "" when absent */
static const char *row(const struct kernel_features *kf, const char *name)
{
	static char val[16];
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	size_t n = strlen(name);

	val[0] = '\0';
	kcaps_format(kf, &sb);
	for (p = sb.buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, name, n) && p[n] == ' ') {
			sscanf(p + n, "%15s", val);
			break;
		}
	strbuf_release(&sb);
	return val;
}

static void parse(struct kernel_features *kf, const char *readme)
{
	kernel_features_default(kf);
	kcaps_parse_readme(kf, readme);
}

/* RHEL 8's 4.18: none of the features of issue 20's fallbacks, ref_ctr backported */
static void test_4_18(void)
{
	struct kernel_features kf;

	parse(&kf, readme_4_18);
	TEST_TRUE(!kf.has_char && !kf.has_array && !kf.has_imm && !kf.has_imm_str);
	TEST_TRUE(!kf.has_ustring && !kf.has_user_deref && !kf.has_symstr);
	TEST_TRUE(!kf.has_multi_probe);
	TEST_TRUE(kf.has_string && kf.has_hex && kf.has_bitfield && kf.has_comm);
	TEST_TRUE(kf.has_ref_ctr);
	TEST_TRUE(kf.has_hist);
	TEST_STREQ(row(&kf, "array"), "no");
	TEST_STREQ(row(&kf, "max_array"), "64");
}

static void test_5_10(void)
{
	struct kernel_features kf;

	parse(&kf, readme_5_10);
	TEST_TRUE(!kf.has_char && !kf.has_symstr);
	TEST_TRUE(kf.has_array && kf.has_imm && kf.has_imm_str && kf.has_ustring);
	TEST_TRUE(kf.has_user_deref && kf.has_ref_ctr && kf.has_multi_probe);
	TEST_TRUE(kf.has_string && kf.has_hex && kf.has_bitfield && kf.has_comm);
	TEST_TRUE(!kf.has_hist);	/* Debian 11's 5.10 build has no CONFIG_HIST_TRIGGERS */
}

static void test_6_1(void)
{
	struct kernel_features kf;

	parse(&kf, readme_6_1);
	TEST_TRUE(!kf.has_char);
	TEST_TRUE(kf.has_symstr && kf.has_array && kf.has_imm && kf.has_ustring);
	TEST_TRUE(kf.has_multi_probe && kf.has_ref_ctr && kf.has_hist);
}

static void test_6_18(void)
{
	struct kernel_features kf, def;

	parse(&kf, readme_6_18);
	kernel_features_default(&def);
	/* the defaults are 6.18's: every README row the same */
	TEST_TRUE(kf.has_char == def.has_char && kf.has_array == def.has_array);
	TEST_TRUE(kf.has_imm == def.has_imm && kf.has_imm_str == def.has_imm_str);
	TEST_TRUE(kf.has_ustring == def.has_ustring && kf.has_symstr == def.has_symstr);
	TEST_TRUE(kf.has_multi_probe == def.has_multi_probe && kf.has_hist == def.has_hist);
	TEST_TRUE(kf.has_char && kf.has_array && kf.has_multi_probe && !kf.has_hist);
	TEST_STREQ(row(&kf, "char"), "yes");
	/* a word elsewhere in the README is no type: "char" in "charset" would not count */
	parse(&kf, "\t     type: s8/16/32/64, characters\n\t  other: char\n");
	TEST_TRUE(!kf.has_char);
	parse(&kf, "\t     type: s8/16/32/64,\n\t           char, string\n");
	TEST_TRUE(kf.has_char && kf.has_string);
}

static void test_mask(void)
{
	struct kernel_features kf;
	struct diag d;

	kernel_features_default(&kf);
	diag_init(&d, NULL);
	TEST_EQ(kcaps_mask(&kf, "-array,-imm,-multi_probe,-error_log,-buffer_percent,-char", &d),
		0);
	TEST_TRUE(!kf.has_array && !kf.has_imm && !kf.has_multi_probe && !kf.has_error_log &&
		  !kf.has_buffer_percent && !kf.has_char);
	TEST_TRUE(kf.has_imm_str && kf.has_ustring && kf.has_event_pid);
	TEST_STREQ(row(&kf, "imm"), "no");
	TEST_STREQ(row(&kf, "imm_str"), "yes");
	/* every name of issue 20's 4.18-era list is a row */
	kernel_features_default(&kf);
	TEST_EQ(kcaps_mask(&kf, "-char,-array,-imm,-imm_str,-ustring,-user_deref,-symstr,-ref_ctr,"
			   "-multi_probe,-error_log,-buffer_percent,-subbuf_size,-event_pid,"
			   "-event_fork,-record_tgid,-userstacktrace,-hist", &d), 0);
	TEST_TRUE(!kf.has_imm_str && !kf.has_ustring && !kf.has_user_deref && !kf.has_ref_ctr &&
		  !kf.has_subbuf_size && !kf.has_event_pid && !kf.has_event_fork &&
		  !kf.has_record_tgid && !kf.has_userstacktrace);
	TEST_TRUE(kf.has_string && kf.has_hex);
	TEST_EQ(kcaps_mask(&kf, "", &d), 0);
	TEST_EQ(kcaps_mask(&kf, NULL, &d), 0);
	TEST_TRUE(!diag_has_error(&d));
	/* only removing: a bare name, an unknown one, an empty word */
	TEST_EQ(kcaps_mask(&kf, "array", &d), -EINVAL);
	TEST_TRUE(d.msg && strstr(d.msg, "only removes"));
	diag_release(&d);
	diag_init(&d, NULL);
	TEST_EQ(kcaps_mask(&kf, "-char,-arrays", &d), -EINVAL);
	TEST_TRUE(d.msg && strstr(d.msg, "'-arrays' names no feature"));
	TEST_TRUE(strstr(strbuf_cstr(&d.hints), "multi_probe") != NULL);
	diag_release(&d);
	diag_init(&d, NULL);
	TEST_EQ(kcaps_mask(&kf, "-char,,-imm", &d), -EINVAL);
	diag_release(&d);
}

/* @+FILE_OFFSET: how the row file_offset is answered, and the form for a doubling kernel */
static void test_file_offset(void)
{
	struct kernel_features kf;
	struct diag d;
	char *s;

	kernel_features_default(&kf);
	/* not from tracefs (no self-test can run): the defaults, 6.18's right reads */
	TEST_EQ(kcaps_file_offset(&kf), KCAPS_FOFFS_RIGHT);
	diag_init(&d, NULL);
	TEST_EQ(kcaps_mask(&kf, "-file_offset", &d), 0);
	diag_release(&d);
	TEST_EQ(kcaps_file_offset(&kf), KCAPS_FOFFS_WRONG);
	/* 4.20 until the fix reads @+OFF at base + 2 * OFF: each one halved, nested too */
	s = fallback_halve_file_offsets("@+0x42a0");
	TEST_STREQ(s, "@+0x2150");
	free(s);
	s = fallback_halve_file_offsets("+0(+8(@+0x4010))");
	TEST_STREQ(s, "+0(+8(@+0x2008))");
	free(s);
	s = fallback_halve_file_offsets("+8(%di)");
	TEST_STREQ(s, "+8(%di)");
	free(s);
	TEST_TRUE(fallback_halve_file_offsets("@+0x11") == NULL);	/* odd: no such form */
}

int main(void)
{
	test_file_offset();
	test_4_18();
	test_5_10();
	test_6_1();
	test_6_18();
	test_mask();
	return TEST_DONE();
}
