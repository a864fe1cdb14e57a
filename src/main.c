// SPDX-License-Identifier: GPL-2.0-or-later
/* main.c - command line: modes, options, the one error line and the exit status */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LOG_DOMAIN "main"
#include "debuginfo.h"
#include "diag.h"
#include "fallback.h"
#include "fetcharg.h"
#include "funcs.h"
#include "kcaps.h"
#include "lines.h"
#include "log.h"
#include "metrics.h"
#include "nsroot.h"
#include "parse.h"
#include "pathsafe.h"
#include "place.h"
#include "query.h"
#include "replay.h"
#include "related.h"
#include "remote.h"
#include "resolve.h"
#include "sdt.h"
#include "runas.h"
#include "session.h"
#include "ustack.h"
#include "tracing.h"
#include "util.h"

#define EXIT_BAD_INPUT 2

enum mode {
	MODE_TRACE,
	MODE_FUNCS,	/* -F */
	MODE_VARS,	/* -V */
	MODE_LINES,	/* -L */
	MODE_DEFINE,	/* -D */
	MODE_ADD,	/* -a */
	MODE_LIST,	/* -l */
	MODE_DELETE,	/* -d */
};

struct options {
	enum mode mode;
	bool mode_set;
	const char *binary;
	const char *group;
	char **words;		/* positional words: probes, a glob or a place */
	size_t nr_words;
	char **cmd;
	pid_t *pids;
	size_t nr_pids;
	char **extra_events;
	size_t nr_extra;
	size_t alloc_pids, alloc_extra;
	enum render_mode render;
	const char *output;	/* -o FILE */
	unsigned long max_events;
	double duration;
	char **filters;		/* --filter [PROBE:]EXPR ... */
	size_t nr_filters, alloc_filters;
	bool keep;
	bool no_inherit;	/* --no-inherit */
	const char *replay;	/* --replay FILE */
	bool kernel_features;	/* --kernel-features: print the capability table */
	bool stack;
	unsigned int stack_copy;	/* --stack=dwarf,BYTES; 0: --stack=fp */
	unsigned int string_size;
	unsigned int value_size;
	unsigned long ring_size;
	struct metrics_opts metrics;	/* --metrics, --metrics-label, --metrics-label-max */
	struct {
		bool on, only;		/* --summary, --summary-only */
		double interval;	/* --interval SECS */
		unsigned long top;	/* --top N */
	} summary;
	const char *user;	/* -u USER */
	struct run_as run_as;	/* who CMD runs as: -u, else the sudo user, else as we do */
	unsigned long buffer_kb;	/* UPFRONT_BUFFER_KB */
	unsigned long queue_pages;	/* UPFRONT_QUEUE_PAGES */
};

static const char usage_text[] =
	"usage: upfront [OPTIONS] [-x BINARY] PROBE... [-- CMD [ARGS]]   trace live\n"
	"       upfront -x BINARY -F [GLOB]              list probe-able functions\n"
	"       upfront -x BINARY -V PLACE               list variables at a place, with types\n"
	"       upfront -x BINARY -L PLACE               show source lines, marking probe-able ones\n"
	"       upfront -x BINARY -D PROBE...            print uprobe_events lines; touch nothing\n"
	"       upfront -x BINARY -a PROBE...            add probes persistently (like perf probe -a)\n"
	"       upfront -l [GLOB]                        list uprobe events in tracefs\n"
	"       upfront -d GLOB                          delete uprobe events\n"
	"\n"
	"PROBE := [EVENT=]PLACE [ARG ...]   (one shell word, as in perf probe)\n"
	"PLACE := FUNC[@SRCFILE][:RELLINE | +OFFSET | %return] | SRCFILE:LINE | 0xADDR\n"
	"       | sdt_PROVIDER:NAME                  (a USDT probe; -F lists them)\n"
	"ARG   := [NAME=]EXPR[:TYPE] | $params | $vars | $retval[:TYPE] | $argN (SDT)\n"
	"EXPR  := VAR | EXPR.FIELD | EXPR->FIELD | EXPR[INDEX] | *EXPR | %REG | RAW-FETCHARG\n"
	"TYPE  := s8..s64 | u8..u64 | x8..x64 | string | bool | float | double | sym | <kernel type>\n"
	"\n"
	"Options:\n"
	"  -x, --exec BINARY       the program or library (path or soname, e.g. libc.so.6)\n"
	"  -F, --funcs             list functions (matching GLOB)\n"
	"  -V, --vars              list variables at PLACE ('PLACE EXPR': the fields of EXPR)\n"
	"  -L, --line              show source of PLACE (FUNC or SRCFILE:START-END)\n"
	"  -D, --definition        print uprobe_events definitions, install nothing\n"
	"  -a, --add               add the probes to tracefs and keep them\n"
	"  -l, --list              list uprobe events\n"
	"  -d, --del               delete uprobe events matching GLOB (GROUP:EVENT)\n"
	"  -g, --group NAME        group for -D/-a (default probe_<binary>)\n"
	"  -p, --pid PID           trace this process and the children it forks (repeatable);\n"
	"                          stop once they have all exited\n"
	"      --no-inherit        not the children -p PID or CMD fork\n"
	"  -u, --user USER         run CMD as USER (default under sudo: the user who ran sudo;\n"
	"                          -u root keeps root)\n"
	"      --stdio             line-oriented text output even on a terminal\n"
	"      --json              one JSON object per event per line\n"
	"  -o, --output FILE       write the events to FILE (CMD's own output stays apart)\n"
	"      --max-events N      stop after N events\n"
	"      --duration SECS     stop after SECS seconds\n"
	"      --filter [PROBE:]FILTER  event filter on PROBE's fields (every probe's without\n"
	"                          PROBE; repeatable), in the kernel; 'duration > 1ms' on a\n"
	"                          FUNC%return probe is decided by upfront\n"
	"      --stack[=MODE]      user stack trace for each event; MODE dwarf[,BYTES]\n"
	"                          (default, BYTES 1024): a copy of the stack top unwound\n"
	"                          with the binaries' CFI; fp: the kernel's frame-pointer walk\n"
	"  -e, --event SYS:EVENT   also show an existing tracefs event\n"
	"      --keep              leave the probes installed on exit\n"
	"      --string-size N     bytes captured for strings with a length (default 96)\n"
	"      --value-size N      record bytes for the structs, arrays and slices shown\n"
	"                          whole (default 2048); what does not fit is shown \"...\"\n"
	"      --ring N            events the curses view keeps (default 100000)\n"
	"      --summary           at exit (and on SIGUSR1) print per probe its count and rate,\n"
	"                          per argument min/avg/max and a log2 histogram, or its top\n"
	"                          values; per FUNC%return the durations' histogram, p50/p90/p99\n"
	"      --summary-only      only the summary, no events (as bpftrace's maps at exit)\n"
	"      --interval SECS     also print the summary so far every SECS seconds\n"
	"      --top N             values listed per argument in the summary (default 10)\n"
	"      --replay FILE       show a run saved with --json (-o FILE) again: the curses\n"
	"                          view, --stdio, --json, --summary; no tracefs, no root\n"
	"      --metrics ADDR:PORT serve Prometheus/OpenMetrics text at http://ADDR:PORT/metrics\n"
	"                          while tracing: events per probe, lost events per CPU,\n"
	"                          durations of FUNC..FUNC%return as histograms\n"
	"      --metrics-label PROBE:ARG\n"
	"                          label PROBE's counter (and histogram) with ARG's value\n"
	"      --metrics-label-max N  distinct ARG values before \"other\" (default 100)\n"
	"  -v, --verbose           more messages (-vv: debug); -v starts with the kernel's table\n"
	"      --kernel-features   print what the running kernel offers (the table) and exit\n"
	"  -h, --help              this text\n"
	"      --version           print the version\n"
	"\n"
	"Examples:\n"
	"  upfront -x ./dnsfwd 'main.(*server).handleRequest r->Question[0].Name'\n"
	"  upfront -x libc.so.6 --json 'getaddrinfo name service' -- curl -s example.com\n"
	"  upfront -x ./dnsfwd -D 'main.(*server).handleRequest r->Question[0].Name'\n"
	"-D lines also carry helper fields read to tell a fault from a value: NAME_pN (the\n"
	"N-th pointer of the expression's chain), NAME_nN (a length it indexes), NAME_len and\n"
	"NAME_atN (a string's length, its text from byte N on), NAME_c (a :string that\n"
	"tells a value read through a pointer into unmapped memory from a 0), NAME_hi (the\n"
	"second half of a complex number or a 128-bit integer); see upfront(1), -D.\n"
	"Each probe point goes on the cheapest instruction that reads the same values (one\n"
	"the kernel emulates, not single-steps); -v names it; a Go entry on its stack check's\n"
	"jbe needs the filter -D prints; UPFRONT_PLACEMENT=plain turns this off. See upfront(1),\n"
	"Placement.\n"
	"Probing FUNC and FUNC%return gives each return its call's duration (per thread, per\n"
	"goroutine in Go): duration=12.5us in text, \"duration\":0.0000125 (seconds) in JSON.\n"
	"See upfront(1) for the probe syntax.\n";

enum long_only {
	OPT_BASE = 256,
	OPT_STDIO = OPT_BASE,
	OPT_JSON,
	OPT_MAX_EVENTS,
	OPT_DURATION,
	OPT_FILTER,
	OPT_STACK,
	OPT_KEEP,
	OPT_STRING_SIZE,
	OPT_VALUE_SIZE,
	OPT_RING,
	OPT_METRICS,
	OPT_METRICS_LABEL,
	OPT_METRICS_LABEL_MAX,
	OPT_VERSION,
	OPT_SUMMARY,
	OPT_SUMMARY_ONLY,
	OPT_INTERVAL,
	OPT_TOP,
	OPT_NO_INHERIT,
	OPT_REPLAY,
	OPT_KERNEL_FEATURES,
};

static const struct option long_options[] = {
	{ "exec", required_argument, NULL, 'x' },
	{ "funcs", no_argument, NULL, 'F' },
	{ "vars", no_argument, NULL, 'V' },
	{ "line", no_argument, NULL, 'L' },
	{ "definition", no_argument, NULL, 'D' },
	{ "add", no_argument, NULL, 'a' },
	{ "list", no_argument, NULL, 'l' },
	{ "del", no_argument, NULL, 'd' },
	{ "group", required_argument, NULL, 'g' },
	{ "pid", required_argument, NULL, 'p' },
	{ "user", required_argument, NULL, 'u' },
	{ "event", required_argument, NULL, 'e' },
	{ "output", required_argument, NULL, 'o' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "stdio", no_argument, NULL, OPT_STDIO },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "max-events", required_argument, NULL, OPT_MAX_EVENTS },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "stack", optional_argument, NULL, OPT_STACK },
	{ "keep", no_argument, NULL, OPT_KEEP },
	{ "string-size", required_argument, NULL, OPT_STRING_SIZE },
	{ "value-size", required_argument, NULL, OPT_VALUE_SIZE },
	{ "ring", required_argument, NULL, OPT_RING },
	{ "metrics", required_argument, NULL, OPT_METRICS },
	{ "metrics-label", required_argument, NULL, OPT_METRICS_LABEL },
	{ "metrics-label-max", required_argument, NULL, OPT_METRICS_LABEL_MAX },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "summary", no_argument, NULL, OPT_SUMMARY },
	{ "summary-only", no_argument, NULL, OPT_SUMMARY_ONLY },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "no-inherit", no_argument, NULL, OPT_NO_INHERIT },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "kernel-features", no_argument, NULL, OPT_KERNEL_FEATURES },
	{ NULL, 0, NULL, 0 },
};

/* A mode letter and the option text that selected it, for the conflict message. */
static const struct {
	int opt;
	enum mode mode;
	const char *name;
} mode_options[] = {
	{ 'F', MODE_FUNCS, "-F" }, { 'V', MODE_VARS, "-V" },   { 'L', MODE_LINES, "-L" },
	{ 'D', MODE_DEFINE, "-D" }, { 'a', MODE_ADD, "-a" },   { 'l', MODE_LIST, "-l" },
	{ 'd', MODE_DELETE, "-d" },
};

/* input_error() - the one error line for bad input from the user, "(see @see)"; exit 2 */
static int input_error(const char *see, const char *fmt, va_list ap)
{
	struct strbuf msg = STRBUF_INIT, line = STRBUF_INIT;

	strbuf_vaddf(&msg, fmt, ap);
	/* option values and knobs are the user's bytes: one line, inert on a terminal */
	escape_name(&line, strbuf_cstr(&msg));
	fprintf(stderr, "upfront: %s (see %s)\n", strbuf_cstr(&line), see);
	strbuf_release(&msg);
	strbuf_release(&line);
	return EXIT_BAD_INPUT;
}

/* bad_usage() - the one error line for a bad command line; exit 2 */
static int bad_usage(const char *fmt, ...) PRINTF(1, 2);
static int bad_usage(const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = input_error("upfront --help", fmt, ap);
	va_end(ap);
	return ret;
}

/* report() - print @d as the one error line and return its exit status */
static int report(struct diag *d)
{
	struct strbuf sb = STRBUF_INIT;
	int code = d->exit_code ? d->exit_code : EXIT_BAD_INPUT;

	diag_format(d, &sb);
	fprintf(stderr, "upfront: %s\n", strbuf_cstr(&sb));
	strbuf_release(&sb);
	return code;
}

/*
 * parse_number() - @s as a decimal number from @min to @max: digits only (no sign, blank,
 * base prefix or trailing junk) and never saturated; otherwise the one error line, which says
 * what @opt wants (@what)
 */
static int parse_number(const char *s, const char *opt, const char *what, unsigned long min,
			unsigned long max, unsigned long *out)
{
	unsigned long v;

	errno = 0;
	v = strtoul(s, NULL, 10);
	if (!*s || s[strspn(s, "0123456789")] || errno || v < min || v > max)
		return bad_usage("%s wants %s, not '%s'", opt, what, s);
	*out = v;
	return 0;
}

/*
 * --stack[=fp|dwarf[,BYTES]]: the kernel's frame-pointer walk, or a copy of BYTES of the stack
 * top with the registers (ustack.h), u64 words: a multiple of 8, and with the registers within
 * the kernel's 3072 bytes of fields per event
 */
static int parse_stack(const char *arg, struct options *o)
{
	unsigned long bytes = USTACK_DEFAULT_COPY;
	char what[48];

	o->stack = true;
	o->stack_copy = 0;
	if (arg && !strcmp(arg, "fp"))
		return 0;
	if (arg && strcmp(arg, "dwarf")) {
		if (strncmp(arg, "dwarf,", 6))
			return bad_usage("--stack wants fp, dwarf or dwarf,BYTES, not '%s'", arg);
		/* the machine's: upfront traces the programs of the kernel it runs on */
		snprintf(what, sizeof(what), "a multiple of 8 from 8 to %u", ustack_max_copy());
		if (parse_number(arg + 6, "--stack=dwarf,BYTES", what, 8, ustack_max_copy(),
				 &bytes))
			return EXIT_BAD_INPUT;
		if (bytes % 8)
			return bad_usage("--stack=dwarf,BYTES wants a multiple of 8 (the copy is "
					 "u64 words), not '%s'", arg + 6);
	}
	o->stack_copy = (unsigned int)bytes;
	return 0;
}

/* --duration: seconds, a finite number above 0; 1e9 s keeps the deadline in 64-bit ns */
static int parse_seconds(const char *s, const char *opt, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!(isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) ||
	    *end || errno || !isfinite(v) || v <= 0 || v > 1e9)
		return bad_usage("%s wants a number of seconds above 0 and at most 1e9, not '%s'",
				 opt, s);
	*out = v;
	return 0;
}

/*
 * check_group() - -g as the kernel takes a group (a C identifier of at most 63 characters),
 * never a trace session's name (upfront_<digits>: another session would take it for its own
 * or reap it); said, never rewritten
 */
static int check_group(const char *g)
{
	size_t n = strlen(g), ok = strspn(g, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "0123456789_");

	if (!n || ok != n || isdigit((unsigned char)*g))
		return bad_usage("-g wants a group name of letters, digits and '_' that does not "
				 "start with a digit (the kernel's rule), not '%s'", g);
	if (n > 63)
		return bad_usage("-g wants a group name of at most 63 characters (the kernel's "
				 "limit), not %zu", n);
	if (!strncmp(g, "upfront_", 8) && g[8] && !g[8 + strspn(g + 8, "0123456789")])
		return bad_usage("-g '%s' is a trace session's name (upfront_<pid>); choose "
				 "another", g);
	return 0;
}

/*
 * check_event_spec() - -e SYS:EVENT (or SYS/EVENT): two names of tracefs' events directory,
 * letters, digits, '_', '-' and '.', never "." or ".." (they would name another directory)
 */
static int check_event_spec(const char *spec)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "0123456789_-.";
	size_t sys = strcspn(spec, ":/");
	const char *ev = spec + sys + (spec[sys] != '\0');

	if (!spec[sys] || !sys || !*ev || strspn(spec, ok) != sys || ev[strspn(ev, ok)] ||
	    *spec == '.' || *ev == '.')
		return bad_usage("-e wants SYSTEM:EVENT (names of letters, digits, '_', '-' and "
				 "'.'), not '%s'", spec);
	return 0;
}

/*
 * --filter goes to the event's filter file as it is: one line of text. A control byte (a
 * newline is whitespace to the kernel's parser, a line break to whatever reads the filter
 * back) or a byte that is not UTF-8 is refused, as is a filter longer than the kernel's
 * write limit (a page less the NUL: EINVAL with no reason in error_log).
 */
static int check_filter(const char *filter)
{
	struct strbuf esc = STRBUF_INIT;
	size_t len = strlen(filter);
	bool clean;

	escape_name(&esc, filter);
	clean = esc.len == len;	/* escape_name() keeps printable UTF-8 text as it is */
	strbuf_release(&esc);
	if (!clean)
		return bad_usage("--filter wants one line of text (no control characters, UTF-8), "
				 "not '%s'", filter);
	if (len > 4095)
		return bad_usage("--filter is %zu bytes long: the kernel takes at most 4095", len);
	return 0;
}

/* --filter, repeatable: checked as text here, against the probes by the session */
static int add_filter(struct options *o, const char *arg)
{
	if (check_filter(arg))
		return EXIT_BAD_INPUT;
	ALLOC_GROW(o->filters, o->nr_filters + 1, o->alloc_filters);
	o->filters[o->nr_filters++] = (char *)arg;
	return 0;
}

/* --metrics ADDR:PORT (checked now: a bad one is an error before anything is resolved),
 * --metrics-label PROBE:ARG (checked against the probes once resolved), --metrics-label-max */
static int parse_metrics_option(int c, const char *arg, struct metrics_opts *m)
{
	unsigned long n;
	struct diag d;
	int code = 0;

	switch (c) {
	case OPT_METRICS:
		diag_init(&d, NULL);
		if (metrics_check_listen(arg, &d) < 0)
			code = report(&d);
		diag_release(&d);
		m->listen = arg;
		return code;
	case OPT_METRICS_LABEL:
		if (!strchr(arg, ':'))
			return bad_usage("--metrics-label wants PROBE:ARG, not '%s'", arg);
		m->label = arg;
		return 0;
	default:
		if (parse_number(arg, "--metrics-label-max", "a number of label values from 1 to "
				 "100000", 1, 100000, &n))
			return EXIT_BAD_INPUT;
		m->label_max = n;
		return 0;
	}
}

/*
 * --summary, --summary-only, --interval SECS (implies --summary), --top N, --no-inherit,
 * --replay FILE, --kernel-features
 */
static int parse_session_option(int c, const char *arg, struct options *o)
{
	switch (c) {
	case OPT_KERNEL_FEATURES:
		o->kernel_features = true;
		return 0;
	case OPT_NO_INHERIT:
		o->no_inherit = true;
		return 0;
	case OPT_REPLAY:
		o->replay = arg;
		return 0;
	case OPT_SUMMARY:
		o->summary.on = true;
		return 0;
	case OPT_SUMMARY_ONLY:
		o->summary.only = true;
		return 0;
	case OPT_INTERVAL:
		o->summary.on = true;
		return parse_seconds(arg, "--interval", &o->summary.interval);
	default:
		return parse_number(arg, "--top", "a number of values from 1 to 1000", 1, 1000,
				    &o->summary.top);
	}
}

/* --string-size N (bytes of a string with a length), --value-size N (of a whole value) */
static int parse_size(int opt, const char *arg, struct options *o)
{
	unsigned long n;

	if (opt == OPT_STRING_SIZE) {
		if (parse_number(arg, "--string-size", "a number of bytes from 1 to 1024", 1, 1024,
				 &n))
			return -1;
		o->string_size = (unsigned int)n;
		return 0;
	}
	if (parse_number(arg, "--value-size", "a number of bytes from 8 to 3072", 8, 3072, &n))
		return -1;
	o->value_size = (unsigned int)n;
	return 0;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	unsigned long n;
	int c, i;

	o->render = RENDER_AUTO;
	o->string_size = RESOLVE_STRING_SIZE;
	/*
	 * "-- CMD" is cut off before getopt sees it: GNU getopt permutes options and probes
	 * (perf's habit of options after probes works) but would lose where "--" stood.
	 */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			if (i + 1 >= argc)
				return bad_usage("'--' must be followed by a command");
			o->cmd = argv + i + 1;
			argv[i] = NULL;
			argc = i;
			break;
		}
	}
	opterr = 0;	/* one line on stderr, ours: getopt's own message would be a second */
	while ((c = getopt_long(argc, argv, ":x:FVLDaldg:p:u:e:o:vh", long_options, NULL)) != -1) {
		for (i = 0; i < (int)ARRAY_SIZE(mode_options); i++) {
			if (mode_options[i].opt != c)
				continue;
			if (o->mode_set && o->mode != mode_options[i].mode)
				return bad_usage("%s cannot be combined with another mode",
						 mode_options[i].name);
			o->mode = mode_options[i].mode;
			o->mode_set = true;
		}
		switch (c) {
		case 'x':
			o->binary = optarg;
			break;
		case 'g':
			if (check_group(optarg))
				return EXIT_BAD_INPUT;
			o->group = optarg;
			break;
		case 'p':
			if (parse_number(optarg, "-p", "a process id (1 to 2147483647)", 1, INT_MAX,
					 &n))
				return EXIT_BAD_INPUT;
			ALLOC_GROW(o->pids, o->nr_pids + 1, o->alloc_pids);
			o->pids[o->nr_pids++] = (pid_t)n;
			break;
		case 'u':
			o->user = optarg;
			break;
		case 'e':
			if (check_event_spec(optarg))
				return EXIT_BAD_INPUT;
			ALLOC_GROW(o->extra_events, o->nr_extra + 1, o->alloc_extra);
			o->extra_events[o->nr_extra++] = optarg;
			break;
		case 'o':
			if (!*optarg)
				return bad_usage("-o wants a file name");
			o->output = optarg;
			break;
		case 'v':
			log_level++;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		case OPT_VERSION:
			puts("upfront " PACKAGE_VERSION);
			exit(0);
		case OPT_STDIO:
			o->render = RENDER_TEXT;
			break;
		case OPT_JSON:
			o->render = RENDER_JSON;
			break;
		case OPT_MAX_EVENTS:
			if (parse_number(optarg, "--max-events", "a number of events above 0", 1,
					 ULONG_MAX, &o->max_events))
				return EXIT_BAD_INPUT;
			break;
		case OPT_DURATION:
			if (parse_seconds(optarg, "--duration", &o->duration))
				return EXIT_BAD_INPUT;
			break;
		case OPT_FILTER:
			if (add_filter(o, optarg))
				return EXIT_BAD_INPUT;
			break;
		case OPT_STACK:
			if (parse_stack(optarg, o))
				return EXIT_BAD_INPUT;
			break;
		case OPT_KEEP:
			o->keep = true;
			break;
		case OPT_STRING_SIZE:
		case OPT_VALUE_SIZE:
			if (parse_size(c, optarg, o))
				return EXIT_BAD_INPUT;
			break;
		case OPT_RING:
			if (parse_number(optarg, "--ring", "a number of events from 100 to 100000000",
					 100, 100000000UL, &o->ring_size))
				return EXIT_BAD_INPUT;
			break;
		case OPT_METRICS: case OPT_METRICS_LABEL: case OPT_METRICS_LABEL_MAX:
			if (parse_metrics_option(c, optarg, &o->metrics))
				return EXIT_BAD_INPUT;
			break;
		case OPT_SUMMARY: case OPT_SUMMARY_ONLY: case OPT_INTERVAL: case OPT_TOP:
		case OPT_NO_INHERIT: case OPT_REPLAY: case OPT_KERNEL_FEATURES:
			if (parse_session_option(c, optarg, o))
				return EXIT_BAD_INPUT;
			break;
		case 'F': case 'V': case 'L': case 'D': case 'a': case 'l': case 'd':
			break;
		case ':':
			/* optopt: a short option's letter, or a long option's OPT_* value */
			if (optopt > 0 && optopt < OPT_BASE)
				return bad_usage("option '-%c' needs an argument", optopt);
			return bad_usage("option '%s' needs an argument", argv[optind - 1]);
		default:
			if (optopt > 0 && optopt < OPT_BASE)
				return bad_usage("unknown option '-%c'", optopt);
			if (optopt >= OPT_BASE)
				return bad_usage("option '%s' takes no argument", argv[optind - 1]);
			return bad_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	o->words = argv + optind;
	o->nr_words = argc - optind;
	if (o->cmd && o->mode != MODE_TRACE)
		return bad_usage("'-- CMD' is only for trace mode");
	if (o->metrics.listen && o->mode != MODE_TRACE)
		return bad_usage("--metrics is only for trace mode");
	if ((o->metrics.label || o->metrics.label_max) && !o->metrics.listen)
		return bad_usage("--metrics-label%s needs --metrics ADDR:PORT",
				 o->metrics.label ? "" : "-max");
	if (o->output && o->mode != MODE_TRACE)
		return bad_usage("-o is only for trace mode");
	if ((o->summary.on || o->summary.only || o->summary.top) && o->mode != MODE_TRACE)
		return bad_usage("--summary%s is only for trace mode", o->summary.only ? "-only" : "");
	if (o->user && !o->cmd)
		return bad_usage("-u USER names who runs '-- CMD'; there is no CMD");
	if (o->group && o->mode != MODE_DEFINE && o->mode != MODE_ADD)
		return bad_usage("-g names the group of -D and -a (a trace session's group is "
				 "upfront_<pid>)");
	return 0;
}

/* env_error() - the one error line for a bad environment knob; exit 2 */
static int env_error(const char *fmt, ...) PRINTF(1, 2);
static int env_error(const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = input_error("ENVIRONMENT in upfront(1)", fmt, ap);
	va_end(ap);
	return ret;
}

/* A numeric environment knob: unset or empty is 0 (the default); anything else is checked. */
static int env_number(const char *name, const char *what, unsigned long min, unsigned long max,
		      unsigned long *out)
{
	const char *v = getenv(name);
	unsigned long n;

	*out = 0;
	if (!v || !*v)
		return 0;
	errno = 0;
	n = strtoul(v, NULL, 10);
	if (v[strspn(v, "0123456789")] || errno || n < min || n > max)
		return env_error("%s wants %s, not '%s'", name, what, v);
	*out = n;
	return 0;
}

/*
 * read_env() - every UPFRONT_* knob checked at start, before anything is installed: a bad
 * value is one error line, never a default guessed from atoi() nor an abort after the
 * probes were added
 */
/* The knobs that take a word, and their words (unset or empty: the default). */
static const struct {
	const char *name;
	const char *words[3];
	const char *want;
} env_words[] = {
	{ "UPFRONT_CACHE", { "off" }, "'off'" },
	{ "UPFRONT_INDEX", { "libdw", "raw" }, "'libdw' or 'raw'" },
	{ "UPFRONT_PLACEMENT", { "plain" }, "'plain'" },
	{ "UPFRONT_TRACE_CLOCK", { "local", "mono" }, "'local' or 'mono'" },
};

/* UPFRONT_KERNEL_FEATURES, checked before any mode runs (kcaps_read() applies it) */
static int check_kcaps_mask(void)
{
	struct kernel_features kf;
	struct diag d;
	int code = 0;

	kernel_features_default(&kf);
	diag_init(&d, NULL);
	if (kcaps_mask(&kf, getenv("UPFRONT_KERNEL_FEATURES"), &d) < 0)
		code = report(&d);
	diag_release(&d);
	return code;
}

static int read_env(struct options *o)
{
	unsigned long ring;

	if (env_number("UPFRONT_BUFFER_KB", "a per-CPU buffer size in KiB from 4 to 1048576", 4,
		       1048576, &o->buffer_kb) ||
	    env_number("UPFRONT_QUEUE_PAGES", "a number of pages per CPU from 2 to 262144", 2,
		       262144, &o->queue_pages) ||
	    env_number("UPFRONT_RING", "a number of events from 100 to 100000000", 100,
		       100000000UL, &ring))
		return EXIT_BAD_INPUT;
	if (!o->ring_size)	/* --ring wins */
		o->ring_size = ring;
	if (check_kcaps_mask())
		return EXIT_BAD_INPUT;
	for (size_t i = 0; i < ARRAY_SIZE(env_words); i++) {
		const char *v = getenv(env_words[i].name);
		bool ok = !v || !*v;

		for (size_t k = 0; !ok && k < ARRAY_SIZE(env_words[i].words); k++)
			ok = env_words[i].words[k] && !strcmp(v, env_words[i].words[k]);
		if (!ok)
			return env_error("%s wants %s, not '%s'", env_words[i].name,
					 env_words[i].want, v);
	}
	return 0;
}

/*
 * read_kcaps() - the kernel's capability table (-v prints it); --kernel-features prints it
 * on stdout, the rows tests ask
 */
static int read_kcaps(struct kernel_features *kf, bool print)
{
	struct strbuf sb = STRBUF_INIT;
	struct diag d;
	int code = 0;

	diag_init(&d, NULL);
	if (kcaps_read(kf, &d) < 0)
		code = report(&d);
	diag_release(&d);
	if (!code && print) {
		kcaps_file_offset(kf);	/* the self-test: the row is shown as tested */
		kcaps_format(kf, &sb);
		fputs(strbuf_cstr(&sb), stdout);
		strbuf_release(&sb);
	}
	return code;
}

/* resolve_run_as() - who CMD runs as: -u USER, else the sudo user (SUDO_UID), else as we do */
static int resolve_run_as(struct options *o)
{
	struct diag d;
	int ret, code = 0;

	if (!o->cmd)
		return 0;
	diag_init(&d, NULL);
	ret = o->user ? run_as_user(o->user, &o->run_as, &d) : run_as_sudo(&o->run_as, &d);
	if (ret < 0)
		code = report(&d);
	else if (o->run_as.set)
		pr_info("running %s as %s (uid %d, from %s)", o->cmd[0], o->run_as.name,
			(int)o->run_as.uid, o->run_as.why);
	diag_release(&d);
	return code;
}

/*
 * open_binary() - -x, or the command of "-- CMD", or the process of -p: its /proc/PID/exe
 * opened as is (the file the process runs, even when its path is gone or names another file
 * by now), never the path that link shows
 */
static struct debuginfo *open_binary(const struct options *o, struct diag *d)
{
	char exe[64];

	if (o->binary && o->nr_pids) {
		/* a process in a container: -x as it sees it */
		char *in_ns = nsroot_binary(o->pids[0], o->binary);

		if (in_ns) {
			struct debuginfo *dbg = debuginfo_open(in_ns, d);

			free(in_ns);
			return dbg;
		}
	}
	if (o->binary)
		return debuginfo_open(o->binary, d);
	if (o->cmd)
		return debuginfo_open(o->cmd[0], d);
	if (o->nr_pids) {
		snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)o->pids[0]);
		if (access(exe, F_OK) < 0) {
			diag_error(d, SPAN_NONE, "no process %d (or its executable is unreadable)",
				   (int)o->pids[0]);
			return NULL;
		}
		return debuginfo_open(exe, d);
	}
	diag_error(d, SPAN_NONE, "no binary: give -x BINARY, -p PID or -- CMD");
	return NULL;
}

struct probes {
	struct probe_spec *specs;
	size_t nr_specs;
	struct trace_probe *tps;
	size_t nr;
	size_t *spec_of;	/* tps[i] came from specs[spec_of[i]] */
	struct strlist *skipped;	/* per spec: glob matches that cannot be probed */
};

static void probes_release(struct probes *p)
{
	size_t i;

	for (i = 0; i < p->nr_specs; i++) {
		probe_spec_release(&p->specs[i]);
		if (p->skipped)
			strlist_release(&p->skipped[i]);
	}
	free(p->specs);
	free(p->skipped);
	trace_probes_free(p->tps, p->nr);
	free(p->spec_of);
	memset(p, 0, sizeof(*p));
}

/*
 * parse_and_resolve() - every probe parsed first (syntax errors before any DWARF work),
 * then resolved; nothing touches tracefs until all of them have resolved.
 */
static int parse_and_resolve(struct options *o, struct debuginfo *dbg,
			     const struct resolve_opts *ropts, struct probes *p)
{
	size_t i, j, alloc = 0;
	struct diag d;
	int code = 0;

	p->specs = xcalloc(o->nr_words, sizeof(*p->specs));
	p->skipped = xcalloc(o->nr_words, sizeof(*p->skipped));
	p->nr_specs = o->nr_words;
	for (i = 0; i < o->nr_words; i++) {
		diag_init(&d, o->words[i]);
		if (parse_probe(o->words[i], &p->specs[i], &d) < 0) {
			code = report(&d);
			diag_release(&d);
			return code;
		}
		diag_release(&d);
	}
	for (i = 0; i < p->nr_specs; i++) {
		struct trace_probe *tps = NULL;
		size_t nr = 0;

		diag_init(&d, p->specs[i].text);
		if (resolve_probe(&p->specs[i], dbg, ropts, &tps, &nr, &p->skipped[i], &d) < 0) {
			code = report(&d);
			diag_release(&d);
			return code;
		}
		diag_release(&d);
		ALLOC_GROW(p->tps, p->nr + nr, alloc);
		p->spec_of = xrealloc(p->spec_of, (p->nr + nr) * sizeof(*p->spec_of));
		for (j = 0; j < nr; j++) {
			p->tps[p->nr + j] = tps[j];
			p->spec_of[p->nr + j] = i;
		}
		p->nr += nr;
		free(tps);	/* the elements moved into p->tps */
	}
	resolve_uniq_events(p->tps, p->nr, p->spec_of);
	fallback_events(p->tps, p->nr, &ropts->kf);
	return 0;
}

/* print_name_line() - a name from the binary on its own line: a newline in it must not
 * make a second, fake line, an escape sequence must not reach the terminal */
static void print_name_line(const char *name)
{
	struct strbuf line = STRBUF_INIT;

	escape_name(&line, name);
	printf("%s\n", strbuf_cstr(&line));
	strbuf_release(&line);
}

/*
 * print_funcs() - -F's functions in one sorted list: those with code of their own, and those
 * that exist only inlined, marked by a tab and "(inlined)" (a column: cut -f1 gives names)
 */
static void print_funcs(const struct strlist *names, const struct strlist *inl)
{
	struct strbuf line = STRBUF_INIT;
	size_t i = 0, j = 0;

	while (i < names->nr || j < inl->nr) {
		bool own = j == inl->nr || (i < names->nr && strcmp(names->v[i], inl->v[j]) <= 0);

		strbuf_reset(&line);
		escape_name(&line, own ? names->v[i++] : inl->v[j++]);
		if (!own)
			strbuf_addstr(&line, "\t(inlined)");
		strbuf_addch(&line, '\n');
		fwrite(line.buf, 1, line.len, stdout);
	}
	strbuf_release(&line);
}

static int mode_funcs(struct options *o, struct debuginfo *dbg)
{
	struct strlist names = STRLIST_INIT, inl = STRLIST_INIT;
	struct diag d;
	int code = 0;

	if (o->nr_words > 1)
		return bad_usage("-F takes at most one GLOB");
	diag_init(&d, o->nr_words ? o->words[0] : NULL);
	debuginfo_need(dbg, DEBUGSEC_NAMES);	/* names and code ranges: no lines, no locations */
	if (funcs_list(dbg, o->nr_words ? o->words[0] : NULL, &names, &d) < 0)
		code = report(&d);
	if (!code)
		funcs_list_inlined(dbg, o->nr_words ? o->words[0] : NULL, &inl);
	print_funcs(&names, &inl);
	if (!code) {
		strlist_release(&names);
		sdt_list(dbg, o->nr_words ? o->words[0] : NULL, &names);	/* sdt_PROVIDER:NAME */
		for (size_t i = 0; i < names.nr; i++)
			print_name_line(names.v[i]);
	}
	diag_release(&d);
	strlist_release(&names);
	strlist_release(&inl);
	return code;
}

/*
 * list_fields() - -V 'PLACE EXPR...': the fields of each EXPR's type at PLACE, a header line
 * and one name per line after two tabs (where -V puts a variable's type and name)
 */
static int list_fields(const struct probe_spec *spec, struct debuginfo *dbg,
		       const struct resolve_opts *ropts, struct strbuf *out, struct diag *d)
{
	const char *place_end = spec->text + strcspn(spec->text, " \t");

	for (size_t i = 0; i < spec->nr_args; i++) {
		const struct probe_arg *a = &spec->args[i];
		const char *start = spec->text + a->span.start, *end = start + a->span.len;
		struct strlist names = STRLIST_INIT;
		char *expr;
		int ret;

		if (a->name && memchr(start, '=', end - start))
			start = (const char *)memchr(start, '=', end - start) + 1;
		if (a->type && a->type_span.start > 0)
			end = spec->text + a->type_span.start - 1;	/* before ":TYPE" */
		expr = xstrndup(start, end > start ? end - start : 0);
		ret = query_fields(spec, expr, dbg, ropts, &names, d);
		if (ret == 0) {
			/* the user's text and the binary's field names: escaped, one a line */
			strbuf_addstr(out, "Fields of ");
			escape_name(out, expr);
			strbuf_addstr(out, " at ");
			escape_name_n(out, spec->text, (size_t)(place_end - spec->text));
			strbuf_addch(out, '\n');
			for (size_t k = 0; k < names.nr; k++) {
				strbuf_addstr(out, "\t\t");
				escape_name(out, names.v[k]);
				strbuf_addch(out, '\n');
			}
		}
		free(expr);
		strlist_release(&names);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int mode_vars(struct options *o, struct debuginfo *dbg, const struct resolve_opts *ropts)
{
	struct strbuf out = STRBUF_INIT;
	struct probe_spec spec = { 0 };
	struct diag d;
	int code = 0;

	if (o->nr_words != 1)
		return bad_usage("-V takes one PLACE");
	diag_init(&d, o->words[0]);
	if (parse_probe(o->words[0], &spec, &d) < 0 ||
	    (spec.nr_args ? list_fields(&spec, dbg, ropts, &out, &d) :
	     resolve_list_vars(&spec, dbg, ropts, &out, &d)) < 0)
		code = report(&d);
	else
		fputs(strbuf_cstr(&out), stdout);
	probe_spec_release(&spec);
	diag_release(&d);
	strbuf_release(&out);
	return code;
}

static int mode_lines(struct options *o, struct debuginfo *dbg)
{
	struct strbuf out = STRBUF_INIT;
	struct diag d;
	int code = 0;

	if (o->nr_words != 1)
		return bad_usage("-L takes one PLACE (FUNC or SRCFILE:START-END)");
	diag_init(&d, o->words[0]);
	if (lines_show(dbg, o->words[0], &out, &d) < 0)
		code = report(&d);
	else
		fputs(strbuf_cstr(&out), stdout);
	diag_release(&d);
	strbuf_release(&out);
	return code;
}

/*
 * print_filters() - for each event whose points need a kernel filter to see each call once
 * (place_event_filter(): a Go entry on its stack check's jbe), the filter: as a comment
 * after the -D lines (the kernel skips it in uprobe_events), with -a how perf and trace-cmd
 * take it
 */
static void print_filters(const struct probes *p, bool added)
{
	/* the events said: a table, not a scan (a Go glob has a filter on every point) */
	struct strmap said;

	strmap_init(&said, 16);
	for (size_t i = 0; i < p->nr; i++) {
		const struct trace_probe *tp = &p->tps[i];
		char *f = place_event_filter(tp, NULL);
		bool seen = false;

		if (f) {
			char *key = xasprintf("%s/%s", tp->group, tp->event);

			strmap_add(&said, key, i, &seen);
			seen = !seen;
			free(key);
		}
		if (f && !seen && !added)
			printf("# filter %s/%s '%s' (each call once on Go's stack check)\n",
			       tp->group, tp->event, f);
		else if (f && !seen)
			fprintf(stderr, "  %s:%s is on Go's stack check: filter with '%s' (perf record "
				"-e %s:%s --filter '%s', trace-cmd record -e %s:%s -f '%s') to see "
				"each call once\n", tp->group, tp->event, f, tp->group, tp->event, f,
				tp->group, tp->event, f);
		free(f);
	}
	strmap_release(&said);
}

/*
 * print_sums() - the fields whose value is what the kernel reads plus a constant (a caller's
 * local's address, "%sp" + 16: trace_arg.value_add), which the kernel cannot add: as a
 * comment after the -D lines
 */
static void print_sums(const struct probes *p)
{
	for (size_t i = 0; i < p->nr; i++) {
		const struct trace_probe *tp = &p->tps[i];

		for (size_t k = 0; k < tp->nr_args; k++) {
			const struct trace_arg *a = &tp->args[k];

			if (a->value_add)
				printf("# %s/%s: %s is the field %s %" PRId64 " (the kernel cannot "
				       "add; upfront adds it)\n", tp->group, tp->event, a->name,
				       a->value_add < 0 ? "minus" : "plus",
				       a->value_add < 0 ? -a->value_add : a->value_add);
		}
	}
}

/*
 * mark in @marks the fields whose type starts with @type ("u64[", "u8[") among the text
 * (strings with a length, char arrays) of @nr args @a and their parts
 */
static void mark_text_fields(const struct trace_probe *tp, const struct trace_arg *a, size_t nr,
			     const char *type, bool *marks)
{
	for (size_t i = 0; i < nr; i++) {
		for (int k = 0; (a[i].kind == VK_LSTRING || a[i].kind == VK_BYTES) &&
				a[i].field >= 0 && k < a[i].nr_fields; k++)
			if (!strncmp(tp->fields[a[i].field + k].type, type, strlen(type)))
				marks[a[i].field + k] = true;
		mark_text_fields(tp, a[i].parts, a[i].nr_parts, type, marks);
	}
}

/*
 * text_field_names() - the names of @tp's text fields whose type starts with @type ("u64[",
 * "u8["): those the kernel gets, into @written; as "FIRST..LAST", the scalar pieces of those it
 * has no array type for (fallback.h), into @pieces (which may be @written)
 */
static void text_field_names(const struct trace_probe *tp, const char *type,
			     struct strbuf *written, struct strbuf *pieces)
{
	bool *marks = xcalloc(tp->nr_fields + 1, sizeof(*marks));

	mark_text_fields(tp, tp->args, tp->nr_args, type, marks);
	for (size_t i = 0; i < tp->nr_fields; i++) {
		const struct fetch_field *f = &tp->fields[i];

		if (marks[i] && f->pieces)
			strbuf_addf(pieces, "%s%s..%s", pieces->len ? ", " : "",
				    tp->fields[f->first_piece].name,
				    tp->fields[f->first_piece + f->pieces - 1].name);
		else if (marks[i] && fetch_field_written(f))
			strbuf_addf(written, "%s%s", written->len ? ", " : "", f->name);
	}
	free(marks);
}

/*
 * -D: the text a live session reads as u64 words (strings with a length), said in a comment:
 * the kernel's trace, perf and trace-cmd show those fields as numbers
 */
static void print_text_words(const struct trace_probe *tp)
{
	struct strbuf sb = STRBUF_INIT;

	text_field_names(tp, "u64[", &sb, &sb);
	if (sb.len)
		printf("# %s/%s: %s: text as u64 words, as a live session reads it (the kernel's trace, "
		       "perf and trace-cmd show numbers, the text's bytes in memory order; -a defines "
		       "bytes)\n", tp->group, tp->event, sb.buf);
	strbuf_release(&sb);
}

/*
 * text_bytes_note() - how other tools show @tp's text fetched as u8[N] (kernels without the
 * char type, and -a on every kernel: perf 6.1 misreads char[N]); empty when it has none
 */
static void text_bytes_note(const struct trace_probe *tp, bool added, struct strbuf *out)
{
	struct strbuf names = STRBUF_INIT, words = STRBUF_INIT;

	text_field_names(tp, "u8[", &names, &words);
	if (names.len)
		strbuf_addf(out, "%s/%s: %s: text as u8[N] bytes (%s): the kernel's trace, perf "
			    "and trace-cmd show each byte as a decimal number, {97,108,...} for "
			    "\"al...\"; upfront -e %s:%s shows the text", tp->group, tp->event,
			    names.buf, added ? "not char[N], which perf 6.1 misreads" :
			    "this kernel has no char type", tp->group, tp->event);
	if (words.len)
		strbuf_addf(out, "%s%s/%s: %s: text as u64 words (this kernel has no array types): "
			    "the kernel's trace, perf and trace-cmd show numbers, the text's bytes "
			    "in memory order; upfront -e %s:%s shows the text", out->len ? "\n# " : "",
			    tp->group, tp->event, words.buf, tp->group, tp->event);
	strbuf_release(&names);
	strbuf_release(&words);
}

static void print_definitions(const struct probes *p, struct debuginfo *dbg)
{
	struct strbuf line = STRBUF_INIT;
	const char *id = debuginfo_build_id(dbg);
	size_t i;

	escape_name(&line, debuginfo_path(dbg));
	printf("# build-id %s; binary %s\n", id ? id : "none", strbuf_cstr(&line));
	for (i = 0; i < p->nr; i++) {
		strbuf_reset(&line);
		fetcharg_format(&p->tps[i], &line);
		puts(strbuf_cstr(&line));
		if (p->tps[i].note)
			printf("# %s/%s: %s\n", p->tps[i].group, p->tps[i].event, p->tps[i].note);
		print_text_words(&p->tps[i]);
		strbuf_reset(&line);
		text_bytes_note(&p->tps[i], false, &line);
		if (line.len)
			printf("# %s\n", line.buf);
	}
	print_filters(p, false);
	print_sums(p);
	strbuf_release(&line);
}

/*
 * print_skipped() - one line per glob that skipped matches it cannot probe, once every probe
 * resolved: "upfront: 'runtime.e*' skipped 1 match: runtime.etext (no code in the file)"
 */
static void print_skipped(const struct probes *p)
{
	enum { SHOWN = 8 };
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < p->nr_specs; i++) {
		const struct strlist *l = &p->skipped[i];

		if (!l->nr)
			continue;
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "upfront: '");
		escape_name(&sb, p->specs[i].text);
		strbuf_addf(&sb, "' skipped %zu match%s: ", l->nr, l->nr > 1 ? "es" : "");
		for (size_t k = 0; k < l->nr && k < SHOWN; k++) {
			strbuf_addstr(&sb, k ? ", " : "");
			escape_name(&sb, l->v[k]);
		}
		if (l->nr > SHOWN)
			strbuf_addf(&sb, " and %zu more (-v lists them)", l->nr - SHOWN);
		fprintf(stderr, "%s\n", sb.buf);
	}
	strbuf_release(&sb);
}

/* check_limits() - every probe against the running kernel's limits, before anything is added */
static int check_limits(const struct probes *p, const struct kernel_features *kf)
{
	struct diag d;
	size_t i;
	int code;

	for (i = 0; i < p->nr; i++) {
		diag_init(&d, NULL);
		if (fetcharg_check_limits(&p->tps[i], kf, &d) < 0) {
			code = report(&d);
			diag_release(&d);
			return code;
		}
		diag_release(&d);
	}
	return 0;
}

static void print_added(const struct probes *p)
{
	struct strbuf func = STRBUF_INIT, path = STRBUF_INIT;
	const char *last = NULL;
	size_t i;

	fprintf(stderr, "Added new event%s:\n", p->nr > 1 ? "s" : "");
	for (i = 0; i < p->nr;) {
		const struct trace_probe *tp = &p->tps[i];
		size_t same = 1;

		strbuf_reset(&func);
		strbuf_reset(&path);
		escape_name(&func, tp->func ? tp->func : "address");
		escape_name(&path, tp->path);

		/*
		 * the points of a glob that share one event are one line, also those the kernel
		 * got as events of their own (NAME__2 ..., fallback.h)
		 */
		while (i + same < p->nr && (!strcmp(p->tps[i + same].event, tp->event) ||
					    (p->tps[i + same].merged &&
					     !strcmp(p->tps[i + same].merged, tp->event))) &&
		       !strcmp(p->tps[i + same].group, tp->group))
			same++;
		if (same > 1)
			fprintf(stderr, "  %s:%s (on %s and %zu more places in %s)\n", tp->group,
				tp->event, strbuf_cstr(&func), same - 1, strbuf_cstr(&path));
		else
			fprintf(stderr, "  %s:%s (on %s in %s)\n", tp->group, tp->event,
				strbuf_cstr(&func), strbuf_cstr(&path));
		last = tp->event;
		i += same;
	}
	fprintf(stderr, "\nYou can now use it in all perf tools, such as:\n\n"
		"\tperf record -e %s:%s -aR sleep 1\n\tor: trace-cmd record -e %s:%s\n"
		"\tor live: upfront -e %s:%s\n",
		p->tps[p->nr - 1].group, last, p->tps[p->nr - 1].group, last,
		p->tps[p->nr - 1].group, last);
	for (i = 0; i < p->nr; i++) {
		strbuf_reset(&func);
		text_bytes_note(&p->tps[i], true, &func);
		for (char *l = func.len ? func.buf : NULL, *nl; l; l = nl ? nl + 3 : NULL) {
			nl = strstr(l, "\n# ");	/* one note a line, each indented */
			fprintf(stderr, "\t# %.*s\n", nl ? (int)(nl - l) : (int)strlen(l), l);
		}
	}
	print_filters(p, true);
	strbuf_release(&func);
	strbuf_release(&path);
}

static int mode_probes(struct options *o, struct debuginfo *dbg, struct resolve_opts *ropts)
{
	struct trace_opts topts = { 0 };
	struct probes p = { 0 };
	struct diag d;
	int code;

	if (!o->nr_words && !(o->mode == MODE_TRACE && o->nr_extra))
		return bad_usage("no PROBE given");
	if (o->mode == MODE_DEFINE || o->mode == MODE_ADD) {
		/* the path is written: one the uprobe_events syntax cannot carry is refused */
		diag_init(&d, NULL);
		code = fetcharg_path_check(debuginfo_path(dbg), &d) < 0 ? report(&d) : 0;
		diag_release(&d);
		if (code)
			return code;
	}
	if (dbg && (o->mode == MODE_ADD || (o->mode == MODE_TRACE && o->keep))) {
		/* the kernel looks the path up itself: no one else may change what it names */
		diag_init(&d, NULL);
		code = debuginfo_same_file(dbg, &d) < 0 ||
		       path_owners_check(debuginfo_path(dbg), run_as_invoker(), &d) < 0 ?
			report(&d) : 0;
		diag_release(&d);
		if (code)
			return code;
	}
	/*
	 * Events that outlive upfront are read by perf and trace-cmd: text chunks as u8[N], not
	 * char[N], whose print format ('%c' per byte) perf 6.1 misreads, and every field after
	 * it with it (name_len=98: a byte of the string)
	 */
	if (o->mode == MODE_ADD || (o->mode == MODE_TRACE && o->keep)) {
		ropts->kf.has_char = false;
		ropts->text_bytes = true;
	}
	code = parse_and_resolve(o, dbg, ropts, &p);
	if (code)
		goto out;
	code = check_limits(&p, &ropts->kf);
	if (code)
		goto out;
	print_skipped(&p);
	diag_init(&d, NULL);
	/* the offsets are the file's as upfront read it: one written to meanwhile is refused */
	if (dbg && debuginfo_unchanged(dbg, &d) < 0) {
		code = report(&d);
		diag_release(&d);
		goto out;
	}
	switch (o->mode) {
	case MODE_DEFINE:
		print_definitions(&p, dbg);
		break;
	case MODE_ADD:
		/*
		 * The kernel keeps the path it is given and looks it up itself: it must still
		 * name the file upfront read, before and after the write (else the events go)
		 */
		if (debuginfo_same_file(dbg, &d) < 0 ||
		    tracing_add_probes(p.tps, p.nr, false, &d) < 0) {
			code = report(&d);
		} else if (debuginfo_same_file(dbg, &d) < 0) {
			tracing_remove_probes(p.tps, p.nr);
			code = report(&d);
		} else {
			print_added(&p);
		}
		break;
	default:
		topts.mode = o->render;
		topts.output = o->output;
		topts.cmd = o->cmd;
		topts.pids = o->pids;
		topts.nr_pids = o->nr_pids;
		topts.max_events = o->max_events;
		topts.duration = o->duration;
		topts.filters = o->filters;
		topts.nr_filters = o->nr_filters;
		topts.extra_events = o->extra_events;
		topts.nr_extra_events = o->nr_extra;
		topts.summary = o->summary.on;
		topts.summary_only = o->summary.only;
		topts.interval = o->summary.interval;
		topts.top = (unsigned int)o->summary.top;
		topts.keep = o->keep;
		topts.no_inherit = o->no_inherit;
		topts.stack = o->stack;
		topts.stack_copy = o->stack_copy;
		topts.string_size = o->string_size;
		topts.ring_size = o->ring_size;
		topts.buffer_kb = o->buffer_kb;
		topts.queue_pages = (unsigned int)o->queue_pages;
		topts.run_as = &o->run_as;
		topts.dbg = dbg;
		topts.cmd_is_dbg = dbg && o->cmd && !o->binary;
		topts.ropts = ropts;
		topts.metrics = o->metrics.listen ? &o->metrics : NULL;
		code = trace_run(&topts, p.tps, p.nr, &d);
		if (diag_has_error(&d))
			code = report(&d);
		break;
	}
	diag_release(&d);
out:
	probes_release(&p);
	return code;
}

static int mode_tracefs(struct options *o)
{
	struct strbuf out = STRBUF_INIT;
	struct diag d;
	int code = 0;

	if (o->nr_words > 1)
		return bad_usage("%s takes at most one GLOB", o->mode == MODE_LIST ? "-l" : "-d");
	if (o->mode == MODE_DELETE && !o->nr_words)
		return bad_usage("-d needs a GLOB (GROUP:EVENT) of the events to delete");
	diag_init(&d, NULL);
	if (o->mode == MODE_LIST) {
		if (tracing_list(o->nr_words ? o->words[0] : NULL, &out, &d) < 0)
			code = report(&d);
		else
			fputs(strbuf_cstr(&out), stdout);
	} else if (tracing_delete(o->words[0], &out, &d) < 0) {
		code = report(&d);
	} else {
		fputs(strbuf_cstr(&out), stdout);
	}
	diag_release(&d);
	strbuf_release(&out);
	return code;
}

/* --replay FILE: a saved run into the view, the text or JSON output and the summary */
static int mode_replay(const struct options *o)
{
	struct replay_opts ro = { .path = o->replay, .mode = o->render, .summary = o->summary.on,
				  .summary_only = o->summary.only, .top = (unsigned int)o->summary.top,
				  .ring_size = o->ring_size };
	struct diag d;
	int code;

	if (o->mode != MODE_TRACE || o->nr_words || o->cmd || o->nr_pids || o->binary ||
	    o->nr_extra || o->output)
		return bad_usage("--replay FILE shows a saved run: no PROBE, -x, -p, -e, -o or "
				 "-- CMD with it");
	diag_init(&d, NULL);
	code = replay_run(&ro, &d);
	if (code)
		code = report(&d);
	diag_release(&d);
	return code;
}

int main(int argc, char **argv)
{
	struct resolve_opts ropts = { 0 };
	struct options o = { 0 };
	struct debuginfo *dbg = NULL;
	struct related *rel = NULL;
	struct diag d;
	int code;

	if (argc == 5 && !strcmp(argv[1], TRACING_WATCHDOG_ARG))
		return tracing_watchdog(argv[2], argv[3], argv[4]);	/* tracing_new()'s */
	run_as_note_fds();	/* the caller's files, which CMD inherits (and none of ours) */
	remote_cache_for_root();	/* under sudo: not through the user's directories */
	code = parse_args(argc, argv, &o);
	if (!code)
		code = read_env(&o);
	if (!code)
		code = resolve_run_as(&o);
	if (code)
		goto out;
	if ((o.mode == MODE_LIST || o.mode == MODE_DELETE) && !o.kernel_features)
		return mode_tracefs(&o);
	if (o.replay)
		return mode_replay(&o);
	if (o.mode == MODE_TRACE && !o.nr_words && !o.nr_extra && !o.kernel_features) {
		fputs(usage_text, stderr);
		return EXIT_BAD_INPUT;
	}

	ropts.group = o.group;
	ropts.string_size = o.string_size;
	ropts.value_size = o.value_size;
	code = read_kcaps(&ropts.kf, o.kernel_features);
	if (code || o.kernel_features)
		goto out;
	tracing_use_kcaps(&ropts.kf);

	if (o.mode == MODE_TRACE && !o.nr_words) {
		/* only -e events: no binary needed */
		code = mode_probes(&o, NULL, &ropts);
		goto out;
	}
	diag_init(&d, NULL);
	dbg = open_binary(&o, &d);
	if (!dbg) {
		code = report(&d);
		diag_release(&d);
		goto out;
	}
	diag_release(&d);
	rel = related_new(dbg, o.cmd ? o.cmd[0] : NULL, o.pids, o.nr_pids);

	switch (o.mode) {
	case MODE_FUNCS:
		code = mode_funcs(&o, dbg);
		break;
	case MODE_VARS:
		code = mode_vars(&o, dbg, &ropts);
		break;
	case MODE_LINES:
		code = mode_lines(&o, dbg);
		break;
	default:
		code = mode_probes(&o, dbg, &ropts);
		break;
	}
out:
	related_free(rel);
	debuginfo_free(dbg);
	run_as_release(&o.run_as);
	free(o.pids);
	free(o.extra_events);
	return code;
}
