// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-tasks.c - who a thread id is at each event, from task:task_newtask and task:task_rename
 * records (their tracefs formats inline, as the kernel 6.18 has them): a thread joins its
 * creator's process, a process its own; a rename (exec, prctl) changes the name, but for the
 * fd number fexecve() gives a CMD before 6.14; an id reused
 * by a new task is that task from its record on; an unknown id stays unknown without lookups.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "../../src/tasks.h"
#include "unittest.h"

#define COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char newtask_format[] =
	"name: task_newtask\nID: 140\nformat:\n" COMMON
	"\tfield:pid_t pid;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:char comm[16];\toffset:12;\tsize:16;\tsigned:0;\n"
	"\tfield:u64 clone_flags;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:short oom_score_adj;\toffset:40;\tsize:2;\tsigned:1;\n\n"
	"print fmt: \"pid=%d comm=%s\", REC->pid, REC->comm\n";

static const char rename_format[] =
	"name: task_rename\nID: 141\nformat:\n" COMMON
	"\tfield:pid_t pid;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:char oldcomm[16];\toffset:12;\tsize:16;\tsigned:0;\n"
	"\tfield:char newcomm[16];\toffset:28;\tsize:16;\tsigned:0;\n"
	"\tfield:short oom_score_adj;\toffset:44;\tsize:2;\tsigned:1;\n\n"
	"print fmt: \"pid=%d newcomm=%s\", REC->pid, REC->newcomm\n";

#define CLONE_THREAD 0x00010000ULL

static int newtask(unsigned char *rec, int by, int32_t pid, const char *comm, uint64_t flags)
{
	uint16_t id = 140;

	memset(rec, 0, 48);
	memcpy(rec, &id, 2);
	memcpy(rec + 4, &by, 4);
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 12, comm, strnlen(comm, 16));
	memcpy(rec + 32, &flags, 8);
	return 48;
}

static int renamed(unsigned char *rec, int by, int32_t pid, const char *comm)
{
	uint16_t id = 141;

	memset(rec, 0, 48);
	memcpy(rec, &id, 2);
	memcpy(rec + 4, &by, 4);
	memcpy(rec + 8, &pid, 4);
	memcpy(rec + 28, comm, strnlen(comm, 16));
	return 48;
}

/* "TGID COMM" of @tid */
static const char *who(struct tasks *ts, int tid)
{
	static char buf[64];
	char comm[16];
	int tgid;

	tasks_get(ts, tid, &tgid, comm);
	snprintf(buf, sizeof(buf), "%d %s", tgid, comm);
	return buf;
}

int main(void)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *te = NULL;
	struct tasks *ts = tasks_new(false);
	unsigned char rec[64];
	int size;
	bool all = true;

	tep_set_long_size(tep, 8);
	TEST_EQ(tep_parse_format(tep, &te, newtask_format, sizeof(newtask_format) - 1, "task"), 0);
	TEST_EQ(tep_parse_format(tep, &te, rename_format, sizeof(rename_format) - 1, "task"), 0);
	TEST_EQ(tasks_watch(ts, tep), 2);

	tasks_set(ts, 100, 100, "parent");
	TEST_STREQ(who(ts, 100), "100 parent");
	/* a thread of 100, a child process, each from the creator's record */
	size = newtask(rec, 100, 101, "parent", CLONE_THREAD | 0x100);
	TEST_TRUE(tasks_record(ts, 140, rec, size, 100));
	size = newtask(rec, 100, 102, "parent", 0x11);
	TEST_TRUE(tasks_record(ts, 140, rec, size, 100));
	TEST_STREQ(who(ts, 101), "100 parent");
	TEST_STREQ(who(ts, 102), "102 parent");
	/* the child execs (or calls prctl): its new name; the thread renames itself */
	size = renamed(rec, 102, 102, "prog");
	TEST_TRUE(tasks_record(ts, 141, rec, size, 102));
	size = renamed(rec, 101, 101, "worker");
	TEST_TRUE(tasks_record(ts, 141, rec, size, 101));
	TEST_STREQ(who(ts, 102), "102 prog");
	TEST_STREQ(who(ts, 101), "100 worker");
	/* thread 101 exits, its id goes to a new process forked by 102 */
	size = newtask(rec, 102, 101, "prog", 0x11);
	TEST_TRUE(tasks_record(ts, 140, rec, size, 102));
	TEST_STREQ(who(ts, 101), "101 prog");
	/* a record of another event is not the table's */
	TEST_TRUE(!tasks_record(ts, 1234, rec, size, 102));
	/* unknown, no lookups: unknown */
	TEST_STREQ(who(ts, 777), "777 <...>");
	/* a name of 16 bytes without a NUL: 15 kept */
	size = renamed(rec, 102, 102, "abcdefghijklmnopq");
	TEST_TRUE(tasks_record(ts, 141, rec, size, 102));
	TEST_STREQ(who(ts, 102), "102 abcdefghijklmno");
	/*
	 * a CMD upfront starts with fexecve() of fd 3: before 6.14 the exec renames it "3"; it
	 * keeps its name, and so does a child the kernel names "3" after it; its own exec of
	 * another program, or a child's, renames it
	 */
	tasks_set(ts, 300, 300, "calls-O2");
	tasks_fexec(ts, 300, 3);
	size = renamed(rec, 300, 300, "3");
	TEST_TRUE(tasks_record(ts, 141, rec, size, 300));
	TEST_STREQ(who(ts, 300), "300 calls-O2");
	size = newtask(rec, 300, 301, "3", 0x11);
	TEST_TRUE(tasks_record(ts, 140, rec, size, 300));
	TEST_STREQ(who(ts, 301), "301 calls-O2");
	size = renamed(rec, 301, 301, "sh");
	TEST_TRUE(tasks_record(ts, 141, rec, size, 301));
	TEST_STREQ(who(ts, 301), "301 sh");
	size = renamed(rec, 300, 300, "33");
	TEST_TRUE(tasks_record(ts, 141, rec, size, 300));
	TEST_STREQ(who(ts, 300), "300 33");
	/* a short record (a corrupt stream): consumed, nothing read past it */
	TEST_TRUE(tasks_record(ts, 140, rec, 20, 102));
	/* many tasks: the table grows, every one is still found */
	for (int i = 0; i < 20000; i++) {
		size = newtask(rec, 100, 200000 + i, "many", i % 2 ? CLONE_THREAD : 0);
		tasks_record(ts, 140, rec, size, 100);
	}
	for (int i = 0; i < 20000; i++) {
		char want[64];

		snprintf(want, sizeof(want), "%d many", i % 2 ? 100 : 200000 + i);
		all &= !strcmp(who(ts, 200000 + i), want);
	}
	TEST_TRUE(all);
	tasks_free(ts);
	tep_free(tep);
	return TEST_DONE();
}
