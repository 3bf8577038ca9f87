/* main — the command line: parse options, then drive the engine in batch
 * mode (or, later, the workbench), and print reports of stored sessions. */
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/explain.h"
#include "core/report.h"
#include "core/util.h"

#define VERSION "0.1"

static volatile int interrupted;

static const char usage[] =
	"usage: culprit [options] --good REV --bad REV -- TEST-COMMAND [ARG...]\n"
	"       culprit report [-C DIR] [--format FORMAT]\n"
	"\n"
	"Find the commit and the smallest set of changes that make a test fail.\n"
	"\n"
	"  -C DIR                 the repository (or any directory inside it); default: .\n"
	"  -g, --good REV         a revision where the test passes\n"
	"  -b, --bad REV          a revision where it fails\n"
	"  -B, --build CMD        build command run in the scratch worktree\n"
	"                         (default: make, when the bad revision has a Makefile)\n"
	"      --batch            run to the end without the workbench and print the report\n"
	"  -f, --format FORMAT    report format: text (default), markdown, json\n"
	"      --fail-pattern RE  PCRE2 pattern whose match in the test output is the failure\n"
	"      --repeat N         run the test N times per configuration; disagreeing runs are flaky\n"
	"      --build-timeout S  seconds before a build is killed (default 600)\n"
	"      --test-timeout S   seconds before a test is killed (default 60)\n"
	"      --fresh            forget the stored session and start over\n"
	"  -q, --quiet            no progress on standard error\n"
	"  -h, --help             this text\n"
	"      --version          the version\n"
	"\n"
	"Exit status: 0 failure-inducing changes found, 1 not explained, 2 bad usage or input.\n"
	"The session is stored in <gitdir>/culprit/; running again resumes it.\n";

static void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "culprit: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, " (see culprit --help)\n");
	va_end(ap);
	exit(2);
}

/* After getopt_long returned '?' (unknown) or ':' (missing argument). */
static void bad_option(int c, char **argv) __attribute__((noreturn));
static void bad_option(int c, char **argv)
{
	const char *opt = argv[optind - 1];
	char shortopt[3] = {'-', (char)optopt, 0};
	if (optopt && !(opt[0] == '-' && opt[1] == '-'))
		opt = shortopt;
	if (c == ':')
		die_usage("option '%s' needs an argument", opt);
	die_usage("unknown option '%s'", opt);
}

static double parse_seconds(const char *opt, const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || v <= 0)
		die_usage("%s needs a positive number of seconds", opt);
	return v;
}

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

struct batch {
	int quiet;
};

static void batch_event(void *priv, const char *type, const char *text)
{
	struct batch *b = priv;
	if (!b->quiet)
		fprintf(stderr, "culprit: %s\n", text);
	(void)type;
}

static int print_report(const struct explain *x, enum report_format f)
{
	struct buf out = BUF_INIT;
	report_render(x, f, &out);
	fwrite(out.s, 1, out.len, stdout);
	buf_release(&out);
	return fflush(stdout) == 0 ? 0 : -1;
}

static int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *dir = NULL;
	enum report_format fmt = REPORT_TEXT;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:C:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'C':
			dir = optarg;
			break;
		case 'f':
			if (report_format_parse(optarg, &fmt) < 0)
				die_usage("unknown report format '%s'", optarg);
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			bad_option(c, argv);
		}
	}
	if (optind < argc)
		die_usage("unexpected argument '%s'", argv[optind]);

	struct cerr e = {{0}};
	struct explain *x = NULL;
	if (explain_open_stored(&x, dir, &e) < 0) {
		fprintf(stderr, "culprit: %s\n", e.msg);
		explain_free(x);
		return 2;
	}
	int rc = explain_run(x, &e);
	if (rc < 0) {
		fprintf(stderr, "culprit: %s\n", e.msg);
		explain_free(x);
		return 2;
	}
	print_report(x, fmt);
	explain_free(x);
	return rc;
}

int main(int argc, char **argv)
{
	enum { OPT_BATCH = 256, OPT_PATTERN, OPT_REPEAT, OPT_BTIME, OPT_TTIME, OPT_FRESH, OPT_VERSION };
	static const struct option longopts[] = {
		{"good", required_argument, NULL, 'g'},
		{"bad", required_argument, NULL, 'b'},
		{"build", required_argument, NULL, 'B'},
		{"batch", no_argument, NULL, OPT_BATCH},
		{"format", required_argument, NULL, 'f'},
		{"fail-pattern", required_argument, NULL, OPT_PATTERN},
		{"repeat", required_argument, NULL, OPT_REPEAT},
		{"build-timeout", required_argument, NULL, OPT_BTIME},
		{"test-timeout", required_argument, NULL, OPT_TTIME},
		{"fresh", no_argument, NULL, OPT_FRESH},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, OPT_VERSION},
		{NULL, 0, NULL, 0},
	};
	struct explain_opts o = {.repeat = 1, .build_timeout = 600, .test_timeout = 60};
	enum report_format fmt = REPORT_TEXT;
	int batch = 0, quiet = 0, c;

	if (argc > 1 && !strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:C:g:b:B:f:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'C':
			o.dir = optarg;
			break;
		case 'g':
			o.good = optarg;
			break;
		case 'b':
			o.bad = optarg;
			break;
		case 'B':
			o.build = optarg;
			break;
		case OPT_BATCH:
			batch = 1;
			break;
		case 'f':
			if (report_format_parse(optarg, &fmt) < 0)
				die_usage("unknown report format '%s'", optarg);
			break;
		case OPT_PATTERN:
			o.fail_pattern = optarg;
			break;
		case OPT_REPEAT: {
			char *end;
			long n = strtol(optarg, &end, 10);
			if (end == optarg || *end || n < 1 || n > 1000)
				die_usage("--repeat needs a number from 1 to 1000, not '%s'", optarg);
			o.repeat = (int)n;
			break;
		}
		case OPT_BTIME:
			o.build_timeout = parse_seconds("--build-timeout", optarg);
			break;
		case OPT_TTIME:
			o.test_timeout = parse_seconds("--test-timeout", optarg);
			break;
		case OPT_FRESH:
			o.fresh = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		case OPT_VERSION:
			printf("culprit %s\n", VERSION);
			return 0;
		default:
			bad_option(c, argv);
		}
	}
	if (!o.good)
		die_usage("%s", "missing --good REV");
	if (!o.bad)
		die_usage("%s", "missing --bad REV");
	if (optind >= argc)
		die_usage("%s", "missing the test command after --");

	struct buf test = BUF_INIT;
	if (argc - optind == 1) {
		buf_adds(&test, argv[optind]);   /* one word: a shell command as given */
	} else {
		for (int i = optind; i < argc; i++) {
			if (i > optind)
				buf_addc(&test, ' ');
			shell_quote(&test, argv[i]);
		}
	}
	o.test = test.s;
	if (!batch) {
		fprintf(stderr, "culprit: the full-screen workbench is not in this version; use --batch\n");
		buf_release(&test);
		return 2;
	}

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	struct batch b = {quiet};
	struct explain_hooks h = {.event = batch_event, .priv = &b, .cancel = &interrupted};
	struct cerr e = {{0}};
	struct explain *x = NULL;
	int rc = explain_open(&x, &o, &h, &e);
	if (rc == 0)
		rc = explain_run(x, &e);
	buf_release(&test);
	if (rc < 0) {
		fprintf(stderr, "culprit: %s\n", e.msg);
		explain_free(x);
		return 2;
	}
	if (print_report(x, fmt) < 0)
		rc = 2;
	explain_free(x);
	return rc;
}
