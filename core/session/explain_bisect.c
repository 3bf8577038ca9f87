/* The explain module: bisection, the culprit commit over the commit graph (as
 * git bisect) or the first-parent chain, and the failure it is searched for. */
#include "core/session/stage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/isolate/bisect.h"
#include "core/isolate/workspace.h"

struct bisect_ctx {
	struct explain *x;
	struct cerr *e;
	int loose;          /* a commit failing otherwise than the bad revision fails (as git bisect) */
	size_t different;   /* commits seen failing otherwise */
};

static int bisect_test(void *priv, size_t k)
{
	struct bisect_ctx *c = priv;
	struct explain *x = c->x;
	struct change_set *s;
	struct outcome o;
	char h[13];

	if (repo_diff(x->p->repo, x->good, x->commits[k], &s, c->e) < 0)
		return -1;
	struct bits *all = bits_new(s->natoms);
	bits_fill(all);
	ex_short_hex(x->commits[k], h);
	char *label = xasprintf("commit %s (%zu of %zu)", h, k, x->ncommits - 1);
	int rc = ex_test_config(x, s, all, label, x->signature, &o, c->e);
	free(label);
	bits_free(all);
	change_set_free(s);
	if (rc < 0)
		return rc;
	x->commits_tested++;
	int other = o.verdict == VERDICT_UNRESOLVED && o.why == WHY_DIFFERENT;
	c->different += (size_t)other;
	if (other && c->loose)
		o.verdict = VERDICT_FAIL;
	ex_lock(x);
	x->commit_verdict[k] = (int)o.verdict;
	ex_unlock(x);
	rc = o.verdict == VERDICT_PASS ? 0 : o.verdict == VERDICT_FAIL ? 1 : 2;
	outcome_release(&o);
	return rc;
}

/* Bisection with the failure's identity leaves a range when commits in it
 * fail otherwise than the bad revision (a later commit changed the message,
 * renamed the function that asserts): bisect again taking any failure as
 * the failure, as git bisect does (their outcomes are stored, so only new
 * commits are built). */
static int bisect_loosely(struct explain *x, struct bisect_ctx *c)
{
	if (c->loose || !c->different)
		return 0;
	c->loose = 1;
	ex_event(x, "BISECT_LOOSE", "%zu commit%s of the range fail%s otherwise than the bad revision: bisecting again "
		 "with any failure as the failure, as git bisect does", c->different, c->different == 1 ? "" : "s",
		 c->different == 1 ? "s" : "");
	return 1;
}

/* Bisection over the first-parent chain (--first-parent). */
static int bisect_first_parent(struct explain *x, struct cerr *e)
{
	char(*fp)[41] = NULL;
	size_t nfp = 0;
	int anc = repo_is_ancestor(x->p->repo, x->good, x->bad, e);
	if (anc < 0)
		return -1;
	if (anc && repo_first_parents(x->p->repo, x->good, x->bad, &fp, &nfp, e) < 0)
		return -1;
	x->unrelated = !anc;
	if (!anc)
		ex_event(x, "NO_BISECTION", "good is not an ancestor of bad: searching the changes between the two trees");
	if (!anc || nfp == 0) {
		free(fp);
		fp = xmalloc(sizeof(*fp));
		memcpy(fp[0], x->bad, 41);
		nfp = 1;
	}
	x->ncommits = nfp + 1;
	x->commits = xmalloc(x->ncommits * sizeof(*x->commits));
	memcpy(x->commits[0], x->good, 41);
	memcpy(x->commits + 1, fp, nfp * sizeof(*fp));
	free(fp);
	x->commit_verdict = xmalloc(x->ncommits * sizeof(int));
	for (size_t i = 0; i < x->ncommits; i++)
		x->commit_verdict[i] = -1;
	x->commit_verdict[0] = VERDICT_PASS;
	x->commit_verdict[x->ncommits - 1] = VERDICT_FAIL;
	x->lo = 0;
	x->hi = x->ncommits - 1;
	if (x->ncommits <= 2)
		return 0;

	ex_phase(x, PHASE_BISECT);
	struct bisect_ctx c = {x, e, 0, 0};
	size_t *rank = repo_id_ranks(x->commits, x->ncommits);
	int rc = dd_bisect(x->ncommits, rank, bisect_test, &c, &x->lo, &x->hi);
	if (rc == 0 && x->hi > x->lo + 1 && bisect_loosely(x, &c))
		rc = dd_bisect(x->ncommits, rank, bisect_test, &c, &x->lo, &x->hi);
	free(rank);
	if (rc < 0 && rc != DD_STOP)
		return rc;
	char h[13];
	ex_short_hex(x->commits[x->hi], h);
	if (rc == DD_STOP) {
		char l[13];
		ex_short_hex(x->commits[x->lo], l);
		ex_event(x, "STOPPED", "stopped: the failure came in %s..%s", l, h);
		return DD_STOP;
	}
	if (x->hi == x->lo + 1) {
		char *subject = repo_commit_subject(x->p->repo, x->commits[x->hi]);
		ex_event(x, "COMMIT_BLAMED", "commit %s broke the test: %s", h, subject ? subject : "");
		free(subject);
	} else {
		char l[13];
		ex_short_hex(x->commits[x->lo], l);
		ex_event(x, "COMMIT_BLAMED", "the failure came in %s..%s (%zu commits that cannot be tested)", l, h,
			 x->hi - x->lo - 1);
	}
	return 0;
}

/* The graph bisection's test of commit k of the range (commits[k + 1]). */
static int graph_test(void *priv, size_t k)
{
	return bisect_test(priv, k + 1);
}

/* Reorder x->commits (and their verdicts) so that the base (the culprit's
 * parent, or the range's) and the candidates end the list: commits[lo] the
 * base, commits[hi] the first failing commit, the untestable candidates
 * between them. base_k is the base's index in commits, or -1 when it lies
 * outside the range (it then takes good's place: both pass). */
static void lay_out(struct explain *x, const char *cand, size_t bad, long base_k, const char *base_hex)
{
	size_t n = x->ncommits, m = 0;
	char(*c)[41] = xmalloc(n * sizeof(*c));
	int *v = xmalloc(n * sizeof(*v));
	/* The others first (good dropped when the base stands in for it). */
	for (size_t k = 0; k < n; k++) {
		int in = k > 0 && cand[k - 1];
		if (in || (long)k == base_k || (k == 0 && base_k < 0))
			continue;
		memcpy(c[m], x->commits[k], 41);
		v[m++] = x->commit_verdict[k];
	}
	x->lo = m;
	memcpy(c[m], base_k >= 0 ? x->commits[base_k] : base_hex, 41);
	v[m++] = base_k >= 0 ? x->commit_verdict[base_k] : VERDICT_PASS;
	for (size_t k = 1; k < n; k++)
		if (cand[k - 1] && k - 1 != bad) {
			memcpy(c[m], x->commits[k], 41);
			v[m++] = x->commit_verdict[k];
		}
	x->hi = m;
	memcpy(c[m], x->commits[bad + 1], 41);
	v[m++] = x->commit_verdict[bad + 1];
	ex_lock(x);
	free(x->commits);
	free(x->commit_verdict);
	x->commits = c;
	x->commit_verdict = v;
	ex_unlock(x);
}

/* Bisection over the commit graph, as git bisect: the first failing
 * commit whose parents all pass; a range when skips leave several. */
static int bisect_graph(struct explain *x, struct cerr *e)
{
	struct repo_graph g;
	if (repo_graph(x->p->repo, x->good, x->bad, &g, e) < 0)
		return -1;
	x->ncommits = g.n + 1;
	x->commits = xmalloc(x->ncommits * sizeof(*x->commits));
	memcpy(x->commits[0], x->good, 41);
	memcpy(x->commits + 1, g.id, g.n * sizeof(*g.id));
	x->commit_verdict = xmalloc(x->ncommits * sizeof(int));
	for (size_t i = 0; i < x->ncommits; i++)
		x->commit_verdict[i] = -1;
	x->commit_verdict[0] = VERDICT_PASS;
	x->commit_verdict[x->ncommits - 1] = VERDICT_FAIL;

	char *cand = xcalloc(g.n + 1, 1);
	size_t bad = g.n - 1;
	int rc = 0;
	if (g.n > 1) {
		ex_phase(x, PHASE_BISECT);
		struct bisect_ctx c = {x, e, 0, 0};
		struct dd_graph dg = {g.n, (const size_t *const *)g.parents, g.nparents, g.date, g.idrank};
		rc = dd_bisect_graph(&dg, graph_test, &c, &bad, cand);
		size_t left = 0;
		for (size_t k = 0; rc == 0 && k < g.n; k++)
			left += (size_t)cand[k];
		if (rc == 0 && left > 1 && bisect_loosely(x, &c)) {
			memset(cand, 0, g.n);
			bad = g.n - 1;
			rc = dd_bisect_graph(&dg, graph_test, &c, &bad, cand);
		}
	} else {
		cand[0] = 1;
	}
	if (rc < 0 && rc != DD_STOP) {
		free(cand);
		repo_graph_release(&g);
		return rc;
	}
	/* The base: the culprit's first parent; for a range, the first parent
	 * outside the candidates of its oldest candidate. */
	size_t ncand = 0, oldest = bad;
	for (size_t k = 0; k < g.n; k++)
		if (cand[k]) {
			if (!ncand)
				oldest = k;
			ncand++;
		}
	const char *base = g.first_parent[oldest];
	long base_k = -1;
	for (size_t k = 0; k < g.n; k++)
		if (!cand[k] && !strcmp(g.id[k], base))
			base_k = (long)k + 1;
	if (!base[0] || !strcmp(base, x->good))
		base_k = 0;   /* a root commit of another history is searched against good */
	int merge = g.arity[bad] > 1;
	lay_out(x, cand, bad, base_k, base);
	free(cand);
	repo_graph_release(&g);

	char h[13], l[13];
	ex_short_hex(x->commits[x->hi], h);
	ex_short_hex(x->commits[x->lo], l);
	if (rc == DD_STOP) {
		ex_event(x, "STOPPED", "stopped: the failure came in %s..%s", l, h);
		return DD_STOP;
	}
	if (ncand == 1) {
		char *subject = repo_commit_subject(x->p->repo, x->commits[x->hi]);
		ex_event(x, "COMMIT_BLAMED", "%s %s broke the test%s: %s", merge ? "merge" : "commit", h,
			 merge ? " (all its parents pass)" : "", subject ? subject : "");
		free(subject);
	} else {
		ex_event(x, "COMMIT_BLAMED", "the failure came in %s..%s (%zu commits that cannot be tested)", l, h,
			 ncand - 1);
	}
	return 0;
}

/* When the culprit commit fails otherwise than the bad revision (taken
 * as failing by the loose bisection), its own failure, measured like the
 * bad revision's (its test run twice, what differs masked) and kept in the
 * session, is what the search of its changes looks for. */
static int culprit_failure(struct explain *x, struct cerr *e)
{
	if (x->hi != x->lo + 1 || !strcmp(x->commits[x->hi], x->bad))
		return 0;
	struct change_set *s;
	if (repo_diff(x->p->repo, x->good, x->commits[x->hi], &s, e) < 0)
		return -1;
	struct bits *all = bits_new(s->natoms);
	bits_fill(all);
	char h[13];
	ex_short_hex(x->commits[x->hi], h);
	char *label = xasprintf("commit %s", h);
	struct outcome o;
	int rc = ex_test_config(x, s, all, label, x->signature, &o, e);
	if (rc == 0 && o.verdict == VERDICT_UNRESOLVED && o.why == WHY_DIFFERENT) {
		char *sig = store_get(x->p->store, x->p->session, "culprit_signature");
		if (!sig) {
			outcome_release(&o);
			rc = ex_retest_config(x, s, all, label, NULL, &o, e);
			if (rc == 0 && o.verdict == VERDICT_FAIL && o.signature) {
				sig = xstrdup(o.signature);
				store_set(x->p->store, x->p->session, "culprit_signature", sig, NULL);
			}
		}
		if (sig) {
			ex_lock(x);
			free(x->culprit_signature);
			x->culprit_signature = sig;
			ex_unlock(x);
			ex_event(x, "CULPRIT_FAILURE", "commit %s fails otherwise than the bad revision, with %s: its "
				 "changes are searched for that failure", h, sig);
		}
	}
	if (rc == 0)
		outcome_release(&o);
	free(label);
	bits_free(all);
	change_set_free(s);
	return rc;
}

int ex_bisect(struct explain *x, struct cerr *e)
{
	int anc = repo_is_ancestor(x->p->repo, x->good, x->bad, e);
	if (anc < 0)
		return -1;
	int rc = anc && !x->opts.first_parent ? bisect_graph(x, e) : bisect_first_parent(x, e);
	return rc == 0 ? culprit_failure(x, e) : rc;
}
