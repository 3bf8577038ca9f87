/* spectra: each formula against values worked out by hand, and the ranks. */
#include <math.h>

#include "core/spectrum/spectra.h"
#include "tests/unit/test.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

static void test_formulas_by_hand(void)
{
	double conf;
	/* ef = 3 of F = 4 failing, ep = 2 of P = 8 passing. */
	CHECK(NEAR(spectra_score(SPECTRA_TARANTULA, 3, 2, 4, 8, &conf), 0.75 / (0.75 + 0.25)));
	CHECK(NEAR(conf, 0.75));
	CHECK(NEAR(spectra_score(SPECTRA_OCHIAI, 3, 2, 4, 8, NULL), 3 / sqrt(4.0 * 5)));
	CHECK(NEAR(spectra_score(SPECTRA_DSTAR, 3, 2, 4, 8, NULL), 9.0 / (2 + 1)));
	CHECK(NEAR(spectra_score(SPECTRA_OP2, 3, 2, 4, 8, NULL), 3 - 2.0 / 9));
	CHECK(NEAR(spectra_score(SPECTRA_JACCARD, 3, 2, 4, 8, NULL), 3.0 / 6));
}

static void test_division_by_zero_is_zero(void)
{
	double conf;
	CHECK(spectra_score(SPECTRA_TARANTULA, 0, 0, 0, 0, &conf) == 0);
	CHECK(conf == 0);
	/* No passing tests: ep/P counts as 0, so a failing line scores 1. */
	CHECK(NEAR(spectra_score(SPECTRA_TARANTULA, 1, 0, 1, 0, NULL), 1));
	CHECK(spectra_score(SPECTRA_OCHIAI, 0, 3, 2, 5, NULL) == 0);
	/* DStar with every failing test and no passing one: 0 denominator. */
	CHECK(spectra_score(SPECTRA_DSTAR, 2, 0, 2, 5, NULL) == 0);
	CHECK(spectra_score(SPECTRA_JACCARD, 0, 0, 0, 0, NULL) == 0);
}

static void test_names(void)
{
	enum spectra_formula f;
	for (int i = 0; i < SPECTRA_NFORMULAS; i++) {
		CHECK(spectra_formula_parse(spectra_formula_name((enum spectra_formula)i), &f) == 0);
		CHECK((int)f == i);
	}
	CHECK(spectra_formula_parse("bogus", &f) == -1);
}

static void test_ranks_with_ties(void)
{
	/* F = 2, P = 2. Lines: a (2,0), b (2,1), c (2,1), d (0,2), e (1,1). */
	struct spectra_line v[] = {
		{"x.c", 4, 2, 1, NULL, 0, 0, 0, 0}, {"x.c", 1, 2, 0, NULL, 0, 0, 0, 0},
		{"x.c", 9, 0, 2, NULL, 0, 0, 0, 0}, {"x.c", 5, 2, 1, NULL, 0, 0, 0, 0},
		{"x.c", 7, 1, 1, NULL, 0, 0, 0, 0},
	};
	spectra_rank(v, 5, SPECTRA_TARANTULA, 2, 2);
	/* Tarantula: a 1, b = c = 1/(1+.5) = 2/3, e = .5/(.5+.5) = .5, d 0. */
	CHECK(v[0].line == 1 && v[0].rank == 1 && NEAR(v[0].rank_avg, 1));
	CHECK(v[1].line == 4 && v[2].line == 5);
	CHECK(v[1].rank == 3 && v[2].rank == 3);
	CHECK(NEAR(v[1].rank_avg, 2.5) && NEAR(v[2].rank_avg, 2.5));
	CHECK(v[3].line == 7 && v[3].rank == 4);
	CHECK(v[4].line == 9 && v[4].rank == 5);
}

static void test_confidence_breaks_ties(void)
{
	/* Both score 1 under Tarantula (ep = 0); the line run by more failing tests first. */
	struct spectra_line v[] = {
		{"y.c", 1, 1, 0, NULL, 0, 0, 0, 0},
		{"y.c", 2, 3, 0, NULL, 0, 0, 0, 0},
	};
	spectra_rank(v, 2, SPECTRA_TARANTULA, 3, 4);
	CHECK(v[0].line == 2 && v[0].rank == 1);
	CHECK(v[1].line == 1 && v[1].rank == 2);
}

int main(void)
{
	RUN(test_formulas_by_hand);
	RUN(test_division_by_zero_is_zero);
	RUN(test_names);
	RUN(test_ranks_with_ties);
	RUN(test_confidence_breaks_ties);
	TEST_EXIT();
}
