// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runstat.c - run a command once, its output discarded, and print "WALL CPU MAXRSS-KB EXIT"
 * of that process alone (wait4(); CPU = user + system). bench/translate.sh runs each side
 * through it: a child forked from python would carry python's ~14 MB into its ru_maxrss
 * (the peak counts the pages of the process it was forked from, until exec), this one's ~1.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double secs(const struct timeval *tv)
{
	return tv->tv_sec + tv->tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: runstat CMD [ARG...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%.6f %.6f %ld %d\n", t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       secs(&ru.ru_utime) + secs(&ru.ru_stime), ru.ru_maxrss,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}
