/* bisect — commit bisection, independent of what is tested: over a
 * first-parent chain, or over a commit graph choosing the commits
 * `git bisect` would choose. A test returns 0 pass, 1 fail, 2 untestable
 * (skipped, as `git bisect skip`), <0 abort (DD_STOP: stop with the
 * narrowest answer known). */
#ifndef CULPRIT_BISECT_H
#define CULPRIT_BISECT_H

#include "core/isolate/dd.h"

typedef int (*dd_commit_test)(void *priv, size_t commit);

/* A commit graph: commits 0..n-1 in topological order (parents first),
 * parents[k][0..nparents[k]) commit k's parents inside (first parent
 * first). What git's choice depends on besides the graph: date[k], the
 * committer time (NULL: index order stands for it), and idrank[k], the
 * rank of commit k's id in byte order (NULL: the index). */
struct dd_graph {
	size_t n;
	const size_t *const *parents;
	const size_t *nparents;
	const long long *date;
	const size_t *idrank;
};

/* Bisection over a commit graph, as `git bisect` does it. Commit n-1 is
 * known to fail, and every parent outside 0..n-1 to pass. The candidates
 * are the ancestors of the first failing commit known (itself included)
 * that are no ancestor of a passing one; each step tests the commit git
 * bisect would test: the candidate whose candidate ancestors best halve
 * them, ties broken as git breaks them (its walk in date order, the first
 * found about half way), and after a skip the best by distance and id, or
 * when that one is skipped a commit away from it picked by git's
 * pseudo-random rule. On return *bad is the first failing commit found
 * and cand[k] is 1 for each commit still a candidate: one candidate (*bad)
 * names the culprit, which for a merge means all its parents pass.
 * Returns 0, or the test's negative status. Git walks the range again at
 * each step and its walk stops a few commits early, so when committer
 * dates go backwards it may keep (and test) an ancestor of a passing
 * commit; here the graph is read once and reachability is exact, so the
 * choices can differ then. */
int dd_bisect_graph(const struct dd_graph *g, dd_commit_test test, void *priv, size_t *bad, char *cand);

/* Bisection over a chain, as `git bisect --first-parent`: commits 0..n-1
 * are good..bad in first-parent order, commit 0 known to pass and commit
 * n-1 to fail; idrank as above (NULL: the index). On return, *lo is the
 * last passing and *hi the first failing commit found; hi == lo + 1 names
 * one culprit commit, a wider range is left by skips. */
int dd_bisect(size_t n, const size_t *idrank, dd_commit_test test, void *priv, size_t *lo, size_t *hi);

#endif
