/* coverage: real gcov on a small program with a seeded fault and a suite of
 * 30 tests; per-test coverage, serial equals parallel, and the faulty line's
 * rank under each formula checked against a computation done here, on the
 * coverage matrix, independently of core/spectra. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/spectrum/coverage.h"
#include "core/spectrum/spectra.h"
#include "tests/unit/test.h"

static char dir[256];

/* grade(score): the seeded fault is "score > 90" on line 5 (it should be
 * ">= 90"). Tests give scores and expect grades; only a score of 90 fails. */
static const char program[] =
	"#include <stdio.h>\n"                                  /* 1 */
	"#include <stdlib.h>\n"                                 /* 2 */
	"static char grade(int score)\n"                        /* 3 */
	"{\n"                                                   /* 4 */
	"\tif (score > 90)\n"                                   /* 5: the fault (>= 90) */
	"\t\treturn 'A';\n"                                     /* 6 */
	"\tif (score >= 80)\n"                                  /* 7 */
	"\t\treturn 'B';\n"                                     /* 8 */
	"\tif (score >= 70)\n"                                  /* 9 */
	"\t\treturn 'C';\n"                                     /* 10 */
	"\treturn 'F';\n"                                       /* 11 */
	"}\n"                                                   /* 12 */
	"int main(int argc, char **argv)\n"                     /* 13 */
	"{\n"                                                   /* 14 */
	"\tint s = atoi(argv[1]);\n"                            /* 15 */
	"\tif (s < 0 || s > 100) {\n"                           /* 16 */
	"\t\tputs(\"out of range\");\n"                         /* 17 */
	"\t\treturn 2;\n"                                       /* 18 */
	"\t}\n"                                                 /* 19 */
	"\tprintf(\"%c\\n\", grade(s));\n"                      /* 20 */
	"\treturn 0;\n"                                         /* 21 */
	"}\n";

static char expected_grade(int s)
{
	return s >= 90 ? 'A' : s >= 80 ? 'B' : s >= 70 ? 'C' : 'F';
}

static void sh(const char *script)
{
	struct buf cmd = BUF_INIT;
	buf_addf(&cmd, "cd '%s' && %s", dir, script);
	if (system(cmd.s) != 0)
		printf("  setup failed: %s\n", cmd.s);
	buf_release(&cmd);
}

static struct suite suite;
static int scores[30];

static void make_suite(void)
{
	struct buf text = BUF_INIT;
	for (int i = 0; i < 30; i++) {
		/* 0..100 in steps, and 90 itself (which exposes the fault) twice. */
		scores[i] = i == 29 ? 90 : i == 28 ? 90 : (i * 37) % 101;
		buf_addf(&text, "t%02d [ \"$(./grade %d)\" = %c ]\n", i, scores[i], expected_grade(scores[i]));
	}
	struct cerr e;
	if (suite_parse(&suite, text.s, "suite", &e) < 0)
		printf("  suite: %s\n", e.msg);
	buf_release(&text);
}

static void test_collect_serial_and_parallel(void)
{
	struct coverage a, b;
	struct cerr e;
	char runs[300];
	snprintf(runs, sizeof(runs), "%s/runs", dir);
	CHECK(coverage_collect(&a, dir, runs, &suite, 1, 30, NULL, &e) == 0);
	CHECK(coverage_collect(&b, dir, runs, &suite, 2, 30, NULL, &e) == 0);
	CHECK(a.nfiles == 1 && !strcmp(a.files[0], "grade.c"));   /* no system headers */
	CHECK(a.nlines == b.nlines && a.nruns == 30 && b.nruns == 30);
	for (size_t i = 0; i < a.nruns && i < b.nruns; i++) {
		CHECK(!strcmp(a.runs[i].name, b.runs[i].name));
		CHECK(a.runs[i].status == b.runs[i].status);
		CHECK(bits_equal(a.runs[i].hit, b.runs[i].hit));
	}
	/* Each test covers what its input drives, no more (no accumulation). */
	long l6 = coverage_find(&a, "grade.c", 6), l11 = coverage_find(&a, "grade.c", 11);
	CHECK(l6 >= 0 && l11 >= 0);
	for (size_t i = 0; i < a.nruns; i++) {
		int s = scores[i];
		CHECK(bits_test(a.runs[i].hit, (size_t)l6) == (s > 90));
		CHECK(bits_test(a.runs[i].hit, (size_t)l11) == (s < 70));
		CHECK((a.runs[i].status == COV_FAIL) == (s == 90));
	}
	coverage_release(&a);
	coverage_release(&b);
}

/* The rank of line 5 (the fault) computed here from the matrix. */
static double formula(int f, double ef, double ep, double F, double P)
{
	switch (f) {
	case SPECTRA_TARANTULA: return ef / F + ep / P == 0 ? 0 : (ef / F) / (ef / F + ep / P);
	case SPECTRA_OCHIAI: return F * (ef + ep) == 0 ? 0 : ef / sqrt(F * (ef + ep));
	case SPECTRA_DSTAR: return ep + F - ef == 0 ? 0 : ef * ef / (ep + F - ef);
	case SPECTRA_OP2: return ef - ep / (P + 1);
	default: return F + ep == 0 ? 0 : ef / (F + ep);
	}
}

static void test_rank_of_the_fault(void)
{
	struct coverage c;
	struct cerr e;
	char runs[300];
	snprintf(runs, sizeof(runs), "%s/runs", dir);
	CHECK(coverage_collect(&c, dir, runs, &suite, 2, 30, NULL, &e) == 0);
	int F = 0, P = 0;
	for (size_t i = 0; i < c.nruns; i++)
		c.runs[i].status == COV_FAIL ? F++ : P++;
	int nineties = 0;
	for (int i = 0; i < 30; i++)
		nineties += scores[i] == 90;
	CHECK(F == nineties && F >= 2 && P == 30 - F);
	long fault = coverage_find(&c, "grade.c", 5);
	for (int f = 0; f < SPECTRA_NFORMULAS; f++) {
		struct spectra_line *v = xcalloc(c.nlines, sizeof(*v));
		double *score = xcalloc(c.nlines, sizeof(*score)), *conf = xcalloc(c.nlines, sizeof(*conf));
		for (size_t l = 0; l < c.nlines; l++) {
			int ef = 0, ep = 0;
			for (size_t i = 0; i < c.nruns; i++)
				if (bits_test(c.runs[i].hit, l))
					c.runs[i].status == COV_FAIL ? ef++ : ep++;
			v[l] = (struct spectra_line){c.files[c.lines[l].file], (int)c.lines[l].line, ef, ep, NULL, 0, 0, 0, 0};
			score[l] = formula(f, ef, ep, F, P);
			conf[l] = fmax((double)ef / F, (double)ep / P);
		}
		/* Pessimistic rank: lines scoring higher, or equal with confidence >=. */
		size_t expect = 0;
		for (size_t l = 0; l < c.nlines; l++)
			if (score[l] > score[fault] + 1e-12 ||
			    (fabs(score[l] - score[fault]) <= 1e-12 && conf[l] >= conf[fault] - 1e-12))
				expect++;
		spectra_rank(v, c.nlines, (enum spectra_formula)f, F, P);
		size_t got = 0;
		for (size_t l = 0; l < c.nlines; l++)
			if (v[l].line == 5)
				got = v[l].rank;
		if (got != expect)
			printf("  %s: rank %zu, expected %zu\n", spectra_formula_name((enum spectra_formula)f), got, expect);
		CHECK(got == expect && got >= 1);
		free(v);
		free(score);
		free(conf);
	}
	coverage_release(&c);
}

static void test_text_round_trip(void)
{
	struct coverage a, b;
	struct cerr e;
	char runs[300];
	snprintf(runs, sizeof(runs), "%s/runs", dir);
	CHECK(coverage_collect(&a, dir, runs, &suite, 2, 30, NULL, &e) == 0);
	char **names = xcalloc(a.nruns, sizeof(*names)), **hits = xcalloc(a.nruns, sizeof(*hits));
	enum cov_status *st = xcalloc(a.nruns, sizeof(*st));
	int *codes = xcalloc(a.nruns, sizeof(*codes));
	for (size_t i = 0; i < a.nruns; i++) {
		names[i] = a.runs[i].name;
		st[i] = a.runs[i].status;
		codes[i] = a.runs[i].code;
		hits[i] = coverage_hits_text(&a, i);
	}
	CHECK(coverage_from_text(&b, a.nruns, names, st, codes, hits, &e) == 0);
	/* The same runs hit the same (file, line) pairs. */
	for (size_t i = 0; i < a.nruns; i++) {
		char *t = coverage_hits_text(&b, i);
		CHECK_STR(t, hits[i]);
		free(t);
		free(hits[i]);
	}
	char *bad[] = {"no tab here\n"};
	coverage_release(&b);
	struct coverage d;
	CHECK(coverage_from_text(&d, 1, names, st, codes, bad, &e) < 0);
	free(names);
	free(hits);
	free(st);
	free(codes);
	coverage_release(&a);
}

static void test_timeout_is_unresolved(void)
{
	struct suite s;
	struct coverage c;
	struct cerr e;
	char runs[300];
	snprintf(runs, sizeof(runs), "%s/runs", dir);
	CHECK(suite_parse(&s, "slow sleep 30\nfast ./grade 95\n", "suite", &e) == 0);
	/* Under load the fast test may need more than the first limit: longer
	 * limits, all far below the slow test's 30 s. */
	for (double limit = 0.5; limit < 10; limit *= 4) {
		CHECK(coverage_collect(&c, dir, runs, &s, 2, limit, NULL, &e) == 0);
		if (c.nruns == 2 && c.runs[1].status == COV_PASS)
			break;
		coverage_release(&c);
	}
	CHECK(c.nruns == 2 && c.runs[0].status == COV_UNRESOLVED && c.runs[1].status == COV_PASS);
	coverage_release(&c);
	suite_release(&s);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/culprit-cov.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	char path[300];
	snprintf(path, sizeof(path), "%s/grade.c", dir);
	struct cerr e;
	file_write_atomic(path, program, strlen(program), 0644, &e);
	sh("cc -O0 -g --coverage -c grade.c && cc --coverage -o grade grade.o");
	make_suite();
	RUN(test_collect_serial_and_parallel);
	RUN(test_rank_of_the_fault);
	RUN(test_text_round_trip);
	RUN(test_timeout_is_unresolved);
	suite_release(&suite);
	remove_tree(dir, NULL);
	TEST_EXIT();
}
