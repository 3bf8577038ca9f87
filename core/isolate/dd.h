/* core/isolate/ owns change isolation: the repository, changes and their
 * configurations, scratch worktrees, running commands, verdicts, the search.
 *
 * dd — the search algorithms of delta debugging, independent of what is
 * tested: reduction of a set to a 1-minimal
 * subset that still has a property (failure-inducing changes, changes whose
 * reversion fixes, auxiliary changes a build needs), and plain ddmin for
 * comparison. Callers give a predicate over subsets of units 0..n-1. */
#ifndef CULPRIT_DD_H
#define CULPRIT_DD_H

#include <stddef.h>
#include "core/util.h"

/* The property being searched for, evaluated on a subset of units:
 * return 1 (has it), 0 (has not), 2 (cannot tell: unresolved, which counts
 * as "has not" except that the search probes nearby subsets), 3 (cannot
 * tell, and nearby subsets would not tell either: the program ran and
 * failed otherwise, which a split elsewhere rarely mends; counts as 2
 * without the probes), <0 to abort. */
typedef int (*dd_pred)(void *priv, const size_t *units, size_t n);

/* A predicate (or commit test) may return DD_STOP: the search then stops and
 * returns DD_STOP with the best answer known so far (a set that has the
 * property, not necessarily minimal; the narrowest commit range). */
#define DD_STOP (-1000)

/* Reduce `units` (n of them, in hierarchy order: file, function, position),
 * for which pred is known to hold, to a 1-minimal subset for which it holds
 * (removing any single unit loses the property). pred(empty) is assumed not
 * to hold. A binary search for the shortest prefix that keeps the property
 * finds each needed unit in about log2(n) tests, so one failure-inducing
 * change among n costs about log2(n) + 1 tests; the final pass checks
 * 1-minimality explicitly. out receives the subset (caller-allocated, room
 * for n), *nout its size. Returns 0, or the predicate's negative status. */
int dd_minimize(const size_t *units, size_t n, dd_pred pred, void *priv, size_t *out, size_t *nout);

/* The same, hierarchical: boundary(priv, a, b) says how strong the border
 * between consecutive units a and b is (2 another file, 1 another
 * function, 0 the same one; for tokens: another hunk, another line). The
 * binary search then splits at the strongest border near the middle, so
 * that configurations keep files and functions whole where it costs nothing,
 * and fewer of them fail to build. */
typedef int (*dd_boundary)(void *priv, size_t a, size_t b);
int dd_minimize_hier(const size_t *units, size_t n, dd_pred pred, dd_boundary boundary, void *priv, size_t *out,
		     size_t *nout);

/* The same, publishing its remaining work: before each test, left(priv, k)
 * gets an estimate k of the tests still to run (the binary search's steps
 * over what is left, the check of what was found, the 1-minimality pass),
 * so that a progress display need not guess; left(priv, 0) at the end. */
typedef void (*dd_left)(void *priv, size_t k);
int dd_minimize_left(const size_t *units, size_t n, dd_pred pred, dd_boundary boundary, dd_left left, void *priv,
		     size_t *out, size_t *nout);

/* Zeller and Hildebrandt's ddmin, as published: subsets, then complements, at
 * granularity 2, doubling when nothing has the property. For benchmarks. */
int dd_ddmin(const size_t *units, size_t n, dd_pred pred, void *priv, size_t *out, size_t *nout);

#endif
