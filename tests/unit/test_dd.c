/* dd over synthetic predicates: the answers and the number of tests. */
#include "core/isolate/bisect.h"
#include "core/isolate/dd.h"
#include "tests/unit/test.h"

#include <math.h>

struct oracle_sets {
	const size_t *need;    /* the property holds iff all of these are present */
	size_t nneed;
	const size_t *poison;  /* ... and none of these (they make it "unresolved") */
	size_t npoison;
	int calls;
};

static int has(const size_t *u, size_t n, size_t x)
{
	for (size_t i = 0; i < n; i++)
		if (u[i] == x)
			return 1;
	return 0;
}

static int pred_need(void *priv, const size_t *u, size_t n)
{
	struct oracle_sets *o = priv;
	o->calls++;
	for (size_t i = 0; i < o->npoison; i++)
		if (has(u, n, o->poison[i]))
			return 0;
	for (size_t i = 0; i < o->nneed; i++)
		if (!has(u, n, o->need[i]))
			return 0;
	return 1;
}

static void test_single_culprit_log_cost(void)
{
	size_t sizes[] = {1, 2, 3, 16, 64, 100, 256, 1024};
	for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++) {
		size_t n = sizes[s];
		size_t *units = xmalloc(n * sizeof(*units)), *out = xmalloc(n * sizeof(*out)), nout;
		for (size_t i = 0; i < n; i++)
			units[i] = i;
		for (size_t culprit = 0; culprit < n; culprit += (n / 7) + 1) {
			struct oracle_sets o = {&culprit, 1, NULL, 0, 0};
			CHECK(dd_minimize(units, n, pred_need, &o, out, &nout) == 0);
			CHECK(nout == 1 && out[0] == culprit);
			CHECK(o.calls <= (int)ceil(log2((double)n)) + 2);
		}
		free(units);
		free(out);
	}
}

static void test_two_interacting(void)
{
	size_t n = 64, units[64], out[64], nout;
	for (size_t i = 0; i < n; i++)
		units[i] = i;
	size_t need[] = {5, 40};
	struct oracle_sets o = {need, 2, NULL, 0, 0};
	CHECK(dd_minimize(units, n, pred_need, &o, out, &nout) == 0);
	CHECK(nout == 2 && out[0] == 5 && out[1] == 40);
	struct oracle_sets p = {need, 2, NULL, 0, 0};
	CHECK(dd_ddmin(units, n, pred_need, &p, out, &nout) == 0);
	CHECK(nout == 2 && out[0] == 5 && out[1] == 40);
	CHECK(o.calls <= p.calls);
}

/* Units that are not in the answer but make a configuration unresolved when
 * present without their partner must not end up in the answer. */
static int pred_partner(void *priv, const size_t *u, size_t n)
{
	(void)priv;
	/* 3 is the culprit; 7 only "builds" together with 8. */
	if (has(u, n, 7) != has(u, n, 8))
		return 0;
	return has(u, n, 3);
}

static void test_unresolved_not_in_answer(void)
{
	size_t units[12], out[12], nout;
	for (size_t i = 0; i < 12; i++)
		units[i] = i;
	CHECK(dd_minimize(units, 12, pred_partner, NULL, out, &nout) == 0);
	CHECK(nout == 1 && out[0] == 3);
}

/* The result is always 1-minimal, whatever the predicate. */
static unsigned rng = 12345;
static int pred_random_monotone_violations(void *priv, const size_t *u, size_t n)
{
	const unsigned *table = priv;
	unsigned h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned)u[i]) * 16777619u;
	if (n == 20)
		return 1;
	return (int)(table[h % 1024] & 1);
}

static void test_always_one_minimal(void)
{
	unsigned table[1024];
	for (int t = 0; t < 20; t++) {
		for (int i = 0; i < 1024; i++)
			table[i] = (rng = rng * 1103515245u + 12345u) >> 16;
		size_t units[20], out[20], nout;
		for (size_t i = 0; i < 20; i++)
			units[i] = i;
		CHECK(dd_minimize(units, 20, pred_random_monotone_violations, table, out, &nout) == 0);
		CHECK(nout >= 1);
		CHECK(pred_random_monotone_violations(table, out, nout) == 1);
		for (size_t i = 0; i < nout && nout > 1; i++) {
			size_t sub[20], k = 0;
			for (size_t j = 0; j < nout; j++)
				if (j != i)
					sub[k++] = out[j];
			CHECK(pred_random_monotone_violations(table, sub, k) == 0);
		}
	}
}

struct bis {
	size_t culprit;
	const char *skip;  /* 1 = untestable */
	int calls;
};

static int bis_test(void *priv, size_t c)
{
	struct bis *b = priv;
	b->calls++;
	if (b->skip && b->skip[c])
		return 2;
	return c >= b->culprit;
}

static void test_bisect(void)
{
	for (size_t n = 2; n < 40; n++)
		for (size_t culprit = 1; culprit < n; culprit++) {
			struct bis b = {culprit, NULL, 0};
			size_t lo, hi;
			CHECK(dd_bisect(n, NULL, bis_test, &b, &lo, &hi) == 0);
			CHECK(hi == culprit && lo == culprit - 1);
			CHECK(b.calls <= (int)ceil(log2((double)n)) + 1);
		}
	/* Skips: the commit before the culprit cannot be tested. */
	char skip[30] = {0};
	skip[11] = skip[12] = 1;
	struct bis b = {13, skip, 0};
	size_t lo, hi;
	CHECK(dd_bisect(30, NULL, bis_test, &b, &lo, &hi) == 0);
	CHECK(lo == 10 && hi == 13);
	skip[11] = skip[12] = 0;
	skip[14] = 1;
	struct bis b2 = {13, skip, 0};
	CHECK(dd_bisect(30, NULL, bis_test, &b2, &lo, &hi) == 0);
	CHECK(lo == 12 && hi == 13);
}

static int first_test(void *priv, size_t c)
{
	size_t *first = priv;
	if (*first == (size_t)-1)
		*first = c;
	return 1;
}

/* git's ties: of good, X, Y, bad, X and Y halve the three candidates
 * alike; git takes Y, the first it weighs from its parent. */
static void test_bisect_git_tie(void)
{
	size_t first = (size_t)-1, lo, hi;
	CHECK(dd_bisect(4, NULL, first_test, &first, &lo, &hi) == 0);
	CHECK(first == 2);
	CHECK(lo == 0 && hi == 1);
}

/* A rename spread over three units (0, 2, 3) that only builds whole, and a
 * value change (1) that fails alone: the answer is the value change. */
static int pred_rename(void *priv, const size_t *u, size_t n)
{
	(void)priv;
	int a = has(u, n, 0), b = has(u, n, 2), c = has(u, n, 3);
	if (a != b || b != c)
		return 0;
	return has(u, n, 1);
}

static void test_rename_value_apart(void)
{
	size_t units[4] = {0, 1, 2, 3}, out[4], nout;
	CHECK(dd_minimize(units, 4, pred_rename, NULL, out, &nout) == 0);
	CHECK(nout == 1 && out[0] == 1);
}

/* Hierarchical splits: files start at units 0, 5 and 11. A border is
 * taken when it costs no configuration more than halving. */
static int first_prefix = -1;
static int pred_record(void *priv, const size_t *u, size_t n)
{
	if (first_prefix < 0)
		first_prefix = (int)n;
	return has(u, n, 7);
}

static int file_border(void *priv, size_t a, size_t b)
{
	(void)priv;
	(void)a;
	return b == 5 || b == 11 ? 2 : 0;
}

static void test_hierarchical_splits(void)
{
	size_t units[16], out[16], nout;
	for (size_t i = 0; i < 16; i++)
		units[i] = i;
	first_prefix = -1;
	CHECK(dd_minimize_hier(units, 12, pred_record, file_border, NULL, out, &nout) == 0);
	CHECK(nout == 1 && out[0] == 7);
	CHECK(first_prefix == 5);   /* split at the file border nearest the middle, not at 6 */
	first_prefix = -1;
	CHECK(dd_minimize_hier(units, 12, pred_record, NULL, NULL, out, &nout) == 0);
	CHECK(first_prefix == 6);
	/* Of sixteen, a split at 5 would leave eleven, which halving in
	 * four configurations never does: the border costs one, not taken. */
	first_prefix = -1;
	CHECK(dd_minimize_hier(units, 16, pred_record, file_border, NULL, out, &nout) == 0);
	CHECK(nout == 1 && out[0] == 7);
	CHECK(first_prefix == 8);
}

/* The search publishes its remaining work: an estimate before each test
 * that covers the tests actually left, and 0 at the end. */
static size_t left_calls, left_last, left_tests, left_short;
static size_t left_seen[64];
static int pred_count(void *priv, const size_t *u, size_t n)
{
	(void)priv;
	left_tests++;
	return has(u, n, 11);
}

static void record_left(void *priv, size_t k)
{
	(void)priv;
	if (left_calls < 64)
		left_seen[left_calls] = k;
	left_calls++;
	left_last = k;
}

static void test_publishes_left(void)
{
	size_t units[32], out[32], nout;
	for (size_t i = 0; i < 32; i++)
		units[i] = i;
	left_calls = left_tests = left_short = 0;
	CHECK(dd_minimize_left(units, 32, pred_count, NULL, record_left, NULL, out, &nout) == 0);
	CHECK(nout == 1 && out[0] == 11);
	CHECK(left_calls == left_tests + 1);   /* one before each test, one at the end */
	CHECK(left_last == 0);
	CHECK(left_seen[0] >= 5 && left_seen[0] <= 8);   /* log2 32 and the checks, not 32 */
	for (size_t i = 0; i + 1 < left_calls && i < 64; i++)
		left_short += left_seen[i] == 0;
	CHECK(left_short == 0);
}

static int pred_abort(void *priv, const size_t *u, size_t n)
{
	int *calls = priv;
	return ++*calls >= 3 ? -7 : 0;
}

static void test_abort_propagates(void)
{
	size_t units[8] = {0, 1, 2, 3, 4, 5, 6, 7}, out[8], nout;
	int calls = 0;
	CHECK(dd_minimize(units, 8, pred_abort, &calls, out, &nout) == -7);
}

/* A graph: 0 - 1 - 2 on main, 3 - 4 - 5 on a branch from 0 (4 is bad
 * and 3 cannot be built), 6 merges 2 and 5, 7 after it. */
struct gtest {
	int fails[8], untestable[8];
	int tested[8];
};

static int graph_test(void *priv, size_t c)
{
	struct gtest *g = priv;
	g->tested[c]++;
	return g->untestable[c] ? 2 : g->fails[c];
}

static void test_bisect_graph(void)
{
	static const size_t p1[] = {0}, p2[] = {1}, p4[] = {3}, p5[] = {4}, p6[] = {2, 5}, p7[] = {6}, p3[] = {0};
	const size_t *parents[8] = {NULL, p1, p2, p3, p4, p5, p6, p7};
	size_t np[8] = {0, 1, 1, 1, 1, 1, 2, 1};
	struct gtest g = {.fails = {0, 0, 0, 0, 1, 1, 1, 1}};
	char cand[8];
	size_t bad = 0;
	struct dd_graph dg = {8, parents, np, NULL, NULL};
	CHECK(dd_bisect_graph(&dg, graph_test, &g, &bad, cand) == 0);
	CHECK(bad == 4);
	size_t nc = 0;
	for (int i = 0; i < 8; i++)
		nc += (size_t)cand[i];
	CHECK(nc == 1 && cand[4]);
	for (int i = 0; i < 8; i++)
		CHECK(g.tested[i] <= 1);
	/* The merge is the culprit when both its parents pass. */
	struct gtest m = {.fails = {0, 0, 0, 0, 0, 0, 1, 1}};
	CHECK(dd_bisect_graph(&dg, graph_test, &m, &bad, cand) == 0);
	CHECK(bad == 6);
	/* 4 cannot be tested: 4 and 5 stay candidates. */
	struct gtest s = {.fails = {0, 0, 0, 0, 1, 1, 1, 1}, .untestable = {0, 0, 0, 0, 1, 0, 0, 0}};
	CHECK(dd_bisect_graph(&dg, graph_test, &s, &bad, cand) == 0);
	CHECK(bad == 5 && cand[4] && cand[5] && !cand[3] && !cand[6]);
}

/* A predicate that holds for sets holding unit 60, and stops the search
 * at its fourth call. */
static int pred_stop(void *priv, const size_t *u, size_t n)
{
	struct oracle_sets *o = priv;
	if (++o->calls == 4)
		return DD_STOP;
	return has(u, n, 60);
}

/* Stopped in its search for the shortest prefix, the best set known is
 * the shortest prefix that kept the property, not all that was left. */
static void test_stop_keeps_best(void)
{
	size_t n = 64, perm[64], out[64], nout;
	for (size_t i = 0; i < n; i++)
		perm[i] = (i + 55) % 64;   /* 55..63, then 0..54: unit 60 is the sixth */
	/* Prefixes of 32, 16 and 8 hold it; the fourth test stops: the 8 stand. */
	struct oracle_sets o = {0};
	CHECK(dd_minimize(perm, n, pred_stop, &o, out, &nout) == DD_STOP);
	CHECK(nout == 8);
	for (size_t i = 0; i < nout; i++)
		CHECK(out[i] == perm[i]);
}

int main(void)
{
	RUN(test_bisect_graph);
	RUN(test_publishes_left);
	RUN(test_single_culprit_log_cost);
	RUN(test_two_interacting);
	RUN(test_unresolved_not_in_answer);
	RUN(test_always_one_minimal);
	RUN(test_rename_value_apart);
	RUN(test_hierarchical_splits);
	RUN(test_bisect);
	RUN(test_bisect_git_tie);
	RUN(test_abort_propagates);
	RUN(test_stop_keeps_best);
	TEST_EXIT();
}
