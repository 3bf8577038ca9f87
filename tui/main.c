/* main — the command line: parse options, then drive the engine in batch
 * mode (or, later, the workbench), and print reports of stored sessions. */
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/isolate/run.h"
#include "core/session/explain.h"
#include "core/session/report.h"
#include "core/session/store.h"
#include "core/spectrum/spectra.h"
#include "core/spectrum/suite.h"
#include "keymaps/keymap.h"
#include "tui/workbench.h"
#include "core/util.h"

#define VERSION "0.1"

static volatile sig_atomic_t interrupted;

static const char usage[] =
	"usage: culprit [options] --good REV --bad REV -- TEST-COMMAND [ARG...]\n"
	"       culprit report [-C DIR] [--session ID] [--format FORMAT] [--top N]\n"
	"       culprit rank [-C DIR] [--session ID] [--formula F] [--top N] [--changed] [--format FORMAT]\n"
	"       culprit tests [-C DIR] [--session ID]\n"
	"       culprit sessions [-C DIR]\n"
	"\n"
	"Find the commit and the smallest set of changes that make a test fail.\n"
	"\n"
	"  -C DIR                 the repository (or any directory inside it); default: .\n"
	"  -g, --good REV         a revision where the test passes\n"
	"  -b, --bad REV          a revision where it fails\n"
	"  -B, --build CMD        build command run in the scratch worktree\n"
	"                         (default: make, when the bad revision has a Makefile)\n"
	"      --batch            run to the end without the workbench and print the report\n"
	"                         (without it, the full-screen workbench opens)\n"
	"  -f, --format FORMAT    report format: text (default), markdown, json\n"
	"      --fail-pattern RE  PCRE2 pattern whose match in the test output is the failure\n"
	"      --repeat N         run the test N times per configuration; disagreeing runs are flaky\n"
	"      --build-timeout S  seconds before a build is killed (default: 10x the first\n"
	"                         full build, at least 60)\n"
	"      --test-timeout S   seconds before a test is killed (default: 10x the slower\n"
	"                         of the good and bad runs, at least 5)\n"
	"      --first-parent     bisect the first-parent commits only (default: every commit\n"
	"                         between good and bad, as git bisect)\n"
	"      --max-configurations N  build and test at most N configurations, then report\n"
	"                         the best answer so far\n"
	"      --test-memory MB   address-space limit of each build and test (default: none)\n"
	"      --suite FILE       rank lines by suspiciousness over this test suite's coverage\n"
	"                         (a line a test: NAME COMMAND; '#' starts a comment)\n"
	"      --coverage-build CMD  build with coverage (default: make CFLAGS=\"-O0 -g --coverage\n"
	"                         -include $CULPRIT_GCOV_FLUSH\" LDFLAGS=--coverage)\n"
	"      --jobs N           tests run at once for coverage (default: the number of cores)\n"
	"      --formula F        tarantula, ochiai (default), dstar, op2 or jaccard\n"
	"      --changed          rank only lines that good..bad added or modified\n"
	"      --top N            ranked lines in the report (default 20; 0: all)\n"
	"      --no-semantic      skip the semantic explainer (tracing the failing run, Z3 causes)\n"
	"      --cflags FLAGS     compiler flags for instrumenting when the project has no\n"
	"                         compile_commands.json (default: record one with bear)\n"
	"      --rounds N         semantic rounds at most (default 16)\n"
	"      --refine N         with --batch: generate tests and approve up to N of them,\n"
	"                         one at a time, ranking again after each\n"
	"      --fresh            forget the stored session and start over\n"
	"      --keys STYLE       vi (default) or emacs key bindings in the workbench\n"
	"      --dump-keymap      print the effective key bindings and exit\n"
	"  -q, --quiet            no progress on standard error\n"
	"  -h, --help             this text\n"
	"      --version          the version\n"
	"\n"
	"Exit status: 0 failure-inducing changes found, 1 not explained, 2 bad usage or input.\n"
	"The session is stored in <gitdir>/culprit/; running again resumes it. report, rank and\n"
	"tests read the last finished analysis, or the session --session ID names (culprit sessions).\n";

static void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die_usage(const char *fmt, ...)
{
	va_list ap;
	struct buf b = BUF_INIT;
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	text_sanitize(b.s);   /* it quotes arguments */
	fprintf(stderr, "culprit: %s (see culprit --help)\n", b.s);
	buf_release(&b);
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

static double seconds_option(const char *opt, const char *s)
{
	double v;
	if (parse_seconds(s, &v) < 0)
		die_usage("%s needs a positive number of seconds (at most %.0f)", opt, SECONDS_MAX);
	return v;
}

/* The workbench waits for another run on the repository (--batch refuses). */
static void lock_waiting(const char *msg)
{
	fprintf(stderr, "culprit: %s; waiting for it to finish\n", msg);
}

/* The first signal stops the run at its next step (the session keeps what
 * was tested); a second one ends it at once, by that signal, for a step
 * that does not return soon (a solver call): builds and tests running die
 * with it (their guard, core/isolate/run.c), and the session resumes. */
static void on_signal(int sig)
{
	if (interrupted) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	interrupted = 1;
}

/* Keymap warnings, one a line ("path:line: message"). */
static void keymap_warning(void *priv, const char *msg)
{
	struct buf *b = priv;
	buf_adds(b, msg);
	buf_addc(b, '\n');
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

static int print_report(const struct explain *x, enum report_format f, size_t top)
{
	struct buf out = BUF_INIT;
	report_render(x, f, top, &out);
	fwrite(out.s, 1, out.len, stdout);
	buf_release(&out);
	return fflush(stdout) == 0 ? 0 : -1;
}

static long parse_count(const char *opt, const char *s, long min, long max)
{
	char *end;
	long n = strtol(s, &end, 10);
	if (end == s || *end || n < min || n > max)
		die_usage("%s needs a number from %ld to %ld, not '%s'", opt, min, max, s);
	return n;
}

static int parse_formula(const char *s)
{
	enum spectra_formula f;
	if (spectra_formula_parse(s, &f) < 0)
		die_usage("unknown formula '%s' (tarantula, ochiai, dstar, op2, jaccard)", s);
	return (int)f;
}

static long long parse_session(const char *s)
{
	char *end;
	long long n = strtoll(s, &end, 10);
	if (end == s || *end || n < 1)
		die_usage("--session needs a session id (culprit sessions lists them), not '%s'", s);
	return n;
}

/* culprit report, rank and tests: the stored session, replayed without building. */
static int cmd_stored(int argc, char **argv, int rank)
{
	int tests = rank == 2;
	enum { OPT_FORMULA = 256, OPT_TOP, OPT_CHANGED, OPT_SESSION };
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"formula", required_argument, NULL, OPT_FORMULA},
		{"top", required_argument, NULL, OPT_TOP},
		{"changed", no_argument, NULL, OPT_CHANGED},
		{"session", required_argument, NULL, OPT_SESSION},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *dir = NULL;
	enum report_format fmt = REPORT_TEXT;
	int c, formula = SPECTRA_OCHIAI, changed = 0;
	size_t top = 20;
	long long session = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":C:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'C':
			dir = optarg;
			break;
		case OPT_SESSION:
			session = parse_session(optarg);
			break;
		case 'f':
			if (report_format_parse(optarg, &fmt) < 0)
				die_usage("unknown report format '%s'", optarg);
			break;
		case OPT_FORMULA:
			formula = parse_formula(optarg);
			break;
		case OPT_TOP:
			top = (size_t)parse_count("--top", optarg, 0, 100000000);
			break;
		case OPT_CHANGED:
			changed = 1;
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
	if (rank != 1 && (formula != SPECTRA_OCHIAI || changed))
		die_usage("%s", "--formula and --changed are options of culprit rank");
	if (tests && (fmt != REPORT_TEXT || top != 20))
		die_usage("%s", "culprit tests takes only -C DIR and --session ID");

	struct cerr e = {{0}};
	struct explain *x = NULL;
	if (explain_open_stored(&x, dir, session, formula, changed, &e) < 0) {
		fprintf(stderr, "culprit: %s\n", e.msg);
		explain_free(x);
		return 2;
	}
	if (tests) {   /* the approved tests, as a suite file */
		char *suite = explain_refine_suite(x);
		if (suite[0])
			fputs(suite, stdout);
		else
			fprintf(stderr, "culprit: the stored session has no approved tests (culprit --refine N, or R in "
					"the workbench)\n");
		int rc = suite[0] ? 0 : 1;
		free(suite);
		explain_free(x);
		return rc;
	}
	int rc = explain_run(x, &e);
	if (rc < 0) {
		fprintf(stderr, "culprit: %s\n", e.msg);
		explain_free(x);
		return 2;
	}
	if (rank == 1 && !x->ranked) {
		fprintf(stderr, "culprit: the stored session has no ranking: run culprit with --suite FILE\n");
		explain_free(x);
		return 2;
	}
	struct buf out = BUF_INIT;
	if (rank == 1)
		report_ranking(x, fmt, top, &out);
	else
		report_render(x, fmt, top, &out);
	fwrite(out.s, 1, out.len, stdout);
	buf_release(&out);
	explain_free(x);
	return rc;
}

/* culprit sessions: every stored session of the repository, the one
 * report/rank/tests read by default marked with '*'. */
static int cmd_sessions(int argc, char **argv)
{
	static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	const char *dir = NULL;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":C:h", longopts, NULL)) != -1) {
		if (c == 'C')
			dir = optarg;
		else if (c == 'h') {
			fputs(usage, stdout);
			return 0;
		} else
			bad_option(c, argv);
	}
	if (optind < argc)
		die_usage("unexpected argument '%s'", argv[optind]);
	struct cerr e = {{0}};
	struct session_row *rows = NULL;
	size_t n = 0;
	int64_t pick = 0;
	if (explain_sessions(dir, &rows, &n, &pick, &e) < 0) {
		fprintf(stderr, "culprit: %s\n", e.msg);
		return 2;
	}
	printf("  %4s  %-11s  %-16s  %-27s  %7s  %s\n", "ID", "STATE", "DATE", "GOOD..BAD", "CONFIGS", "TEST");
	for (size_t i = 0; i < n; i++) {
		const struct session_row *r = &rows[i];
		char date[32] = "";
		time_t t = (time_t)(r->finished > 0 ? r->finished : r->used);
		struct tm tm;
		if (localtime_r(&t, &tm))
			strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm);
		char range[128];
		snprintf(range, sizeof(range), "%s..%s", r->good ? r->good : "?", r->bad ? r->bad : "?");
		printf("%c %4lld  %-11s  %-16s  %-27s  %7lld  %s\n", r->id == pick ? '*' : ' ', (long long)r->id,
		       r->state ? r->state : "new", date, range, (long long)r->configs, r->test ? r->test : "?");
	}
	if (!n)
		fprintf(stderr, "culprit: no stored session (run culprit first)\n");
	store_sessions_free(rows, n);
	return n ? 0 : 1;
}

/* The subcommand (report, rank, tests, sessions) wherever it stands among
 * the options before "--": its index in argv, or 0. */
static int find_subcommand(int argc, char **argv, const struct option *longopts, const char *shortopts)
{
	static const char *const names[] = {"report", "rank", "tests", "sessions"};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--"))
			return 0;
		if (a[0] == '-' && a[1] == '-') {   /* --name or --name=value */
			size_t len = strcspn(a + 2, "=");
			for (const struct option *o = longopts; o->name; o++)
				if (strlen(o->name) == len && !strncmp(o->name, a + 2, len) && o->has_arg == required_argument &&
				    !a[2 + len])
					i++;
			continue;
		}
		if (a[0] == '-' && a[1]) {   /* -C DIR, -CDIR, -q */
			const char *p = strchr(shortopts, a[1]);
			if (p && p[1] == ':' && !a[2])
				i++;
			continue;
		}
		for (size_t k = 0; k < sizeof(names) / sizeof(*names); k++)
			if (!strcmp(a, names[k]))
				return i;
		return 0;   /* the test command (without "--") */
	}
	return 0;
}

/* Run a subcommand with every other argument after it, so that options go
 * before or after its name. */
static int run_subcommand(int argc, char **argv, int at)
{
	char **v = xmalloc(((size_t)argc + 1) * sizeof(*v));
	int n = 0;
	v[n++] = argv[at];
	for (int i = 1; i < argc; i++)
		if (i != at)
			v[n++] = argv[i];
	v[n] = NULL;
	const char *name = argv[at];
	int rc = !strcmp(name, "sessions") ? cmd_sessions(n, v)
		 : cmd_stored(n, v, !strcmp(name, "rank") ? 1 : !strcmp(name, "tests") ? 2 : 0);
	free(v);
	return rc;
}

/* A relative --suite is relative to where culprit was started: kept as an
 * absolute path, `culprit rank` finds it from anywhere. */
static char *absolute_path(const char *p)
{
	if (!p || p[0] == '/')
		return NULL;
	char *r = realpath(p, NULL);
	if (r)
		return r;
	char cwd[4096];
	return getcwd(cwd, sizeof(cwd)) ? xasprintf("%s/%s", cwd, p) : NULL;
}

int main(int argc, char **argv)
{
	enum { OPT_BATCH = 256, OPT_PATTERN, OPT_REPEAT, OPT_BTIME, OPT_TTIME, OPT_FRESH, OPT_VERSION, OPT_SUITE,
	       OPT_COVBUILD, OPT_JOBS, OPT_FORMULA, OPT_CHANGED, OPT_TOP, OPT_KEYS, OPT_DUMP_KEYMAP, OPT_NO_SEMANTIC,
	       OPT_CFLAGS, OPT_ROUNDS, OPT_REFINE, OPT_FIRST_PARENT, OPT_MAX_CONFIGS, OPT_SESSION, OPT_TMEM };
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
		{"test-memory", required_argument, NULL, OPT_TMEM},
		{"fresh", no_argument, NULL, OPT_FRESH},
		{"no-semantic", no_argument, NULL, OPT_NO_SEMANTIC},
		{"cflags", required_argument, NULL, OPT_CFLAGS},
		{"rounds", required_argument, NULL, OPT_ROUNDS},
		{"refine", required_argument, NULL, OPT_REFINE},
		{"first-parent", no_argument, NULL, OPT_FIRST_PARENT},
		{"max-configurations", required_argument, NULL, OPT_MAX_CONFIGS},
		{"suite", required_argument, NULL, OPT_SUITE},
		{"coverage-build", required_argument, NULL, OPT_COVBUILD},
		{"jobs", required_argument, NULL, OPT_JOBS},
		{"formula", required_argument, NULL, OPT_FORMULA},
		{"changed", no_argument, NULL, OPT_CHANGED},
		{"top", required_argument, NULL, OPT_TOP},
		{"keys", required_argument, NULL, OPT_KEYS},
		{"dump-keymap", no_argument, NULL, OPT_DUMP_KEYMAP},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, OPT_VERSION},
		{"session", required_argument, NULL, OPT_SESSION},
		{NULL, 0, NULL, 0},
	};
	struct explain_opts o = {.repeat = 1, .build_timeout = 0, .test_timeout = 0, .formula = SPECTRA_OCHIAI,
				 .semantic = 1};
	size_t top = 20;
	enum report_format fmt = REPORT_TEXT;
	int batch = 0, quiet = 0, c, keys = -1, dump_keymap = 0, refine = 0;
	static char *suite_abs;   /* (lives as long as the process) */

	setlocale(LC_ALL, "");
	int sub = find_subcommand(argc, argv, longopts, "C:g:b:B:f:qh");
	if (sub)
		return run_subcommand(argc, argv, sub);

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
		case OPT_REPEAT:
			o.repeat = (int)parse_count("--repeat", optarg, 1, 1000);
			break;
		case OPT_BTIME:
			o.build_timeout = seconds_option("--build-timeout", optarg);
			break;
		case OPT_TTIME:
			o.test_timeout = seconds_option("--test-timeout", optarg);
			break;
		case OPT_TMEM:   /* every build and test, for this process */
			run_set_memory_limit((size_t)parse_count("--test-memory", optarg, 16, 1L << 30));
			break;
		case OPT_FRESH:
			o.fresh = 1;
			break;
		case OPT_NO_SEMANTIC:
			o.semantic = 0;
			break;
		case OPT_CFLAGS:
			o.cflags = optarg;
			break;
		case OPT_ROUNDS:
			o.rounds = (int)parse_count("--rounds", optarg, 1, 1000);
			break;
		case OPT_REFINE:
			refine = (int)parse_count("--refine", optarg, 0, 1000);
			break;
		case OPT_FIRST_PARENT:
			o.first_parent = 1;
			break;
		case OPT_MAX_CONFIGS:
			o.max_configs = (size_t)parse_count("--max-configurations", optarg, 1, 100000000);
			break;
		case OPT_SUITE:
			free(suite_abs);
			suite_abs = absolute_path(optarg);
			o.suite = suite_abs ? suite_abs : optarg;
			break;
		case OPT_COVBUILD:
			o.coverage_build = optarg;
			break;
		case OPT_JOBS:
			o.jobs = (int)parse_count("--jobs", optarg, 1, 1024);
			break;
		case OPT_FORMULA:
			o.formula = parse_formula(optarg);
			break;
		case OPT_CHANGED:
			o.changed_only = 1;
			break;
		case OPT_TOP:
			top = (size_t)parse_count("--top", optarg, 0, 100000000);
			break;
		case OPT_KEYS:
			if (strcmp(optarg, "vi") && strcmp(optarg, "emacs"))
				die_usage("--keys is vi or emacs, not '%s'", optarg);
			keys = !strcmp(optarg, "emacs") ? KEYMAP_EMACS : KEYMAP_VI;
			break;
		case OPT_DUMP_KEYMAP:
			dump_keymap = 1;
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
		case OPT_SESSION:
			die_usage("%s", "--session goes with culprit report, rank or tests");
		default:
			bad_option(c, argv);
		}
	}
	/* The keymap: --keys, else the user file's "set keys", else vi; then the file. */
	char *kpath = keymap_default_path();
	if (keys < 0)
		keys = keymap_file_style(kpath);
	struct keymap *km = keymap_new(keys == KEYMAP_EMACS ? KEYMAP_EMACS : KEYMAP_VI);
	struct buf kwarn = BUF_INIT;
	keymap_load_file(km, kpath, keymap_warning, &kwarn);
	free(kpath);
	if (dump_keymap) {
		struct buf out = BUF_INIT;
		keymap_dump(km, &out);
		fputs(out.s ? out.s : "", stdout);
		fputs(kwarn.s ? kwarn.s : "", stderr);
		buf_release(&out);
		buf_release(&kwarn);
		keymap_free(km);
		return 0;
	}
	if (!o.good)
		die_usage("%s", "missing --good REV");
	if (!o.bad)
		die_usage("%s", "missing --bad REV");
	if (optind >= argc)
		die_usage("%s", "missing the test command after --");
	if (refine && !batch)
		die_usage("%s", "--refine N goes with --batch (in the workbench, refine with R)");
	if (refine && !o.semantic)
		die_usage("%s", "--refine needs the semantic explainer's trace: drop --no-semantic");
	if (o.suite) {   /* read now: a bad suite file must not wait for the end of the search */
		struct suite st;
		struct cerr e = {{0}};
		if (suite_load(&st, o.suite, &e) < 0) {
			fprintf(stderr, "culprit: %s\n", e.msg);
			exit(2);
		}
		suite_release(&st);
	}

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
	if (!batch && (!isatty(0) || !isatty(1))) {
		fprintf(stderr, "culprit: the workbench needs a terminal; use --batch to print the report instead\n");
		buf_release(&test);
		buf_release(&kwarn);
		keymap_free(km);
		return 2;
	}
	if (!batch) {
		struct cerr e = {{0}};
		struct explain *x = NULL;
		o.lock_waiting = lock_waiting;
		int rc = explain_open(&x, &o, NULL, &e);
		if (rc == 0) {
			struct workbench_opts wo = {.keymap = km, .format = fmt, .top = top,
						    .notice = kwarn.len ? kwarn.s : NULL};
			rc = workbench_run(x, &wo, &e);
		} else {
			rc = 2;
		}
		if (rc == 2 && e.msg[0])
			fprintf(stderr, "culprit: %s\n", e.msg);
		explain_free(x);
		buf_release(&test);
		buf_release(&kwarn);
		keymap_free(km);
		return rc;
	}
	fputs(kwarn.s ? kwarn.s : "", stderr);
	buf_release(&kwarn);
	keymap_free(km);

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
	/* Refinement: each proposal approved, up to N. */
	for (int k = 0; rc == 0 && k < refine && !interrupted; k++) {
		int p = explain_refine_propose(x, &e);
		if (p < 0) {
			fprintf(stderr, "culprit: refinement: %s\n", e.msg);
			break;
		}
		if (p == 0)
			break;
		if (explain_refine_answer(x, REFINE_APPROVE, &e) < 0) {
			fprintf(stderr, "culprit: refinement: %s\n", e.msg);
			break;
		}
	}
	if (print_report(x, fmt, top) < 0)
		rc = 2;
	explain_free(x);
	return rc;
}
