/* Spectrum-based ranking: coverage collection for 1,000 tests with --jobs 2
 * against the same tests without coverage, ranking time for 100,000 lines,
 * and the EXAM score and top-N of a seeded fault under each formula.
 * Prints figures; never fails on time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/spectrum/coverage.h"
#include "core/spectrum/rank.h"
#include "core/util.h"

static char dir[256];

/* Two seeded faults: line 5 (> 90 instead of >= 90), executed by every
 * test, and line 9 (>= 71 instead of >= 70), executed only below 80. */
static const char *const programs[2] = {
	"#include <stdio.h>\n#include <stdlib.h>\n"
	"static char grade(int s)\n{\n"
	"\tif (s > 90)\n"
	"\t\treturn 'A';\n\tif (s >= 80)\n\t\treturn 'B';\n\tif (s >= 70)\n\t\treturn 'C';\n"
	"\tif (s >= 60)\n\t\treturn 'D';\n\treturn 'F';\n}\n"
	"int main(int argc, char **argv)\n{\n\tint s = argc > 1 ? atoi(argv[1]) : 0;\n"
	"\tif (s < 0 || s > 100) {\n\t\tputs(\"out of range\");\n\t\treturn 2;\n\t}\n"
	"\tprintf(\"%c\\n\", grade(s));\n\treturn 0;\n}\n",
	"#include <stdio.h>\n#include <stdlib.h>\n"
	"static char grade(int s)\n{\n"
	"\tif (s >= 90)\n"
	"\t\treturn 'A';\n\tif (s >= 80)\n\t\treturn 'B';\n\tif (s >= 71)\n\t\treturn 'C';\n"
	"\tif (s >= 60)\n\t\treturn 'D';\n\treturn 'F';\n}\n"
	"int main(int argc, char **argv)\n{\n\tint s = argc > 1 ? atoi(argv[1]) : 0;\n"
	"\tif (s < 0 || s > 100) {\n\t\tputs(\"out of range\");\n\t\treturn 2;\n\t}\n"
	"\tprintf(\"%c\\n\", grade(s));\n\treturn 0;\n}\n"};
static const int fault_line[2] = {5, 9};

static char want(int s)
{
	return s >= 90 ? 'A' : s >= 80 ? 'B' : s >= 70 ? 'C' : s >= 60 ? 'D' : 'F';
}

static int sh(const char *script)
{
	struct buf cmd = BUF_INIT;
	buf_addf(&cmd, "cd '%s' && %s", dir, script);
	int rc = system(cmd.s);
	buf_release(&cmd);
	return rc;
}

static void collect(int fault)
{
	struct buf text = BUF_INIT;
	for (int i = 0; i < 1000; i++) {
		int s = (i * 7919) % 101;
		buf_addf(&text, "t%04d [ \"$(./grade %d)\" = %c ]\n", i, s, want(s));
	}
	struct suite suite;
	struct cerr e;
	suite_parse(&suite, text.s, "bench", &e);
	buf_release(&text);
	char plain[300], cov[300], runs[300];
	snprintf(plain, sizeof(plain), "%s/plain", dir);
	snprintf(cov, sizeof(cov), "%s/cov", dir);
	snprintf(runs, sizeof(runs), "%s/runs", dir);
	struct coverage c;
	double t0 = now_seconds();
	coverage_collect(&c, plain, runs, &suite, 2, 30, NULL, &e);
	double tplain = now_seconds() - t0;
	coverage_release(&c);
	t0 = now_seconds();
	int rc = coverage_collect(&c, cov, runs, &suite, 2, 30, NULL, &e);
	double tcov = now_seconds() - t0;
	if (fault == 0)
		printf("1000 tests, --jobs 2: without coverage %.2f s, with per-test coverage %.2f s: %.2fx (target < 2x)\n",
		       tplain, tcov, tcov / tplain);
	if (rc < 0) {
		printf("coverage failed: %s\n", e.msg);
		suite_release(&suite);
		return;
	}
	/* EXAM and top-N of the fault (line 5) under each formula. */
	int *counted = xcalloc(c.nruns, sizeof(*counted));
	int failing = 0;
	for (size_t i = 0; i < c.nruns; i++) {
		counted[i] = c.runs[i].status != COV_UNRESOLVED;
		failing += c.runs[i].status == COV_FAIL;
	}
	printf("seeded fault grade.c:%d, %d failing of %zu tests, %zu executable lines\n", fault_line[fault], failing,
	       c.nruns, c.nlines);
	printf("  %-10s %6s %8s %7s %6s %6s %6s %6s\n", "formula", "rank", "rank_avg", "EXAM", "top1", "top3", "top5", "top10");
	for (int f = 0; f < SPECTRA_NFORMULAS; f++) {
		struct ranking r;
		rank_compute(&r, &c, counted, NULL, (enum spectra_formula)f, 0);
		size_t rank = 0;
		double avg = 0;
		for (size_t i = 0; i < r.n; i++)
			if (r.v[i].s.line == fault_line[fault]) {
				rank = r.v[i].s.rank;
				avg = r.v[i].s.rank_avg;
			}
		printf("  %-10s %6zu %8.1f %7.3f %6s %6s %6s %6s\n", spectra_formula_name((enum spectra_formula)f), rank, avg,
		       (double)rank / (double)c.nlines, rank <= 1 ? "yes" : "no", rank <= 3 ? "yes" : "no",
		       rank <= 5 ? "yes" : "no", rank <= 10 ? "yes" : "no");
		rank_release(&r);
	}
	free(counted);
	coverage_release(&c);
	suite_release(&suite);
}

static void rank_speed(void)
{
	enum { LINES = 100000, RUNS = 40 };
	struct coverage c = {0};
	c.files = xcalloc(100, sizeof(*c.files));
	c.nfiles = 100;
	for (int i = 0; i < 100; i++)
		c.files[i] = xasprintf("src/file%03d.c", i);
	c.lines = xcalloc(LINES, sizeof(*c.lines));
	c.nlines = LINES;
	for (int l = 0; l < LINES; l++)
		c.lines[l] = (struct cov_line){(uint32_t)(l / 1000), (uint32_t)(l % 1000 + 1)};
	c.runs = xcalloc(RUNS, sizeof(*c.runs));
	c.nruns = RUNS;
	srand(3);
	int *counted = xcalloc(RUNS, sizeof(*counted));
	for (int i = 0; i < RUNS; i++) {
		c.runs[i].name = xasprintf("t%d", i);
		c.runs[i].status = i % 8 == 0 ? COV_FAIL : COV_PASS;
		c.runs[i].hit = bits_new(LINES);
		counted[i] = 1;
		for (int l = 0; l < LINES; l++)
			if (rand() % 3 == 0)
				bits_set(c.runs[i].hit, (size_t)l);
	}
	struct ranking r;
	double t0 = now_seconds();
	rank_compute(&r, &c, counted, NULL, SPECTRA_OCHIAI, 0);
	double t = now_seconds() - t0;
	printf("ranking %d executable lines over %d tests: %.1f ms (target < 100 ms), %zu lines ranked\n", LINES, RUNS,
	       t * 1000, r.n);
	rank_release(&r);
	free(counted);
	coverage_release(&c);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/culprit-spectrum.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	char path[300];
	struct cerr e;
	snprintf(path, sizeof(path), "%s/grade.c", dir);
	for (int f = 0; f < 2; f++) {
		file_write_atomic(path, programs[f], strlen(programs[f]), 0644, &e);
		sh("rm -rf plain cov runs && mkdir plain cov && cc -O0 -o plain/grade grade.c && cp grade.c cov/ && cd cov && "
		   "cc -O0 -g --coverage -c grade.c && cc --coverage -o grade grade.o");
		collect(f);
	}
	rank_speed();
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("peak memory: %ld KiB\n", ru.ru_maxrss);
	remove_tree(dir, NULL);
	return 0;
}
