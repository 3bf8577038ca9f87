/* The explain module: ranking from the suite's coverage, the core boost, the fault sets. */
#include "core/session/stage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/isolate/workspace.h"


/* Where a test's result at a revision is kept: by kind, revision, name and command. */
static char *run_key(const char *kind, const char *rev, const struct suite_test *t)
{
	char h[41];
	repo_hash(t->cmd, strlen(t->cmd), h);
	return xasprintf("run.%s.%.12s.%s.%.12s", kind, rev, t->name, h);
}

/* Run the tests of s whose results at rev are not stored yet, in dir, and
 * store them: "status code seconds\n" then the executed lines. */
static int suite_runs(struct explain *x, const char *kind, const char *rev, const char *dir, const char *build,
		      const struct suite *s, struct cerr *e)
{
	struct suite missing = {xcalloc(s->n + 1, sizeof(struct suite_test)), 0};
	for (size_t i = 0; i < s->n; i++) {
		char *key = run_key(kind, rev, &s->v[i]);
		char *v = store_get(x->p->store, x->p->session, key);
		if (!v)
			missing.v[missing.n++] = s->v[i];
		free(key);
		free(v);
	}
	int rc = 0;
	if (missing.n && x->opts.replay)
		rc = cerr_set(e, "the stored session has no %s results for %zu tests; run culprit again to finish it",
			      kind, missing.n);
	if (missing.n && rc == 0) {
		rc = ex_build_for_suite(x, dir, build, !strncmp(kind, "coverage", 8) ? "coverage" : "good revision's", e);
		struct coverage c;
		char *runs = xasprintf("%sruns-%s", x->p->sessdir, kind);
		if (rc == 0) {
			int jobs = x->opts.jobs > 0 ? x->opts.jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
			ex_activity(x, xasprintf("running %zu tests (%s)", missing.n, kind));
			rc = coverage_collect(&c, dir, runs, &missing, jobs, x->opts.test_timeout, x->hooks.cancel, e);
			ex_activity(x, NULL);
		}
		for (size_t i = 0; rc == 0 && i < c.nruns; i++) {
			char *hits = coverage_hits_text(&c, i);
			char *val = xasprintf("%d %d %.3f\n%s", (int)c.runs[i].status, c.runs[i].code, c.runs[i].seconds, hits);
			char *key = run_key(kind, rev, &missing.v[i]);
			rc = store_set(x->p->store, x->p->session, key, val, e);
			free(hits);
			free(val);
			free(key);
		}
		if (rc == 0) {
			ex_event(x, "TESTS_RUN", "%zu tests run at %.12s (%s)", missing.n, rev, kind);
			coverage_release(&c);
		}
		remove_tree(runs, NULL);
		free(runs);
	}
	free(missing.v);
	return rc;
}

/* The stored results of s at rev as a coverage. */
static int suite_load_runs(struct explain *x, const char *kind, const char *rev, const struct suite *s,
			   struct coverage *c, struct cerr *e)
{
	char **names = xcalloc(s->n + 1, sizeof(*names)), **hits = xcalloc(s->n + 1, sizeof(*hits));
	char **vals = xcalloc(s->n + 1, sizeof(*vals));
	enum cov_status *st = xcalloc(s->n + 1, sizeof(*st));
	int *codes = xcalloc(s->n + 1, sizeof(*codes));
	int rc = 0;
	for (size_t i = 0; i < s->n && rc == 0; i++) {
		char *key = run_key(kind, rev, &s->v[i]);
		vals[i] = store_get(x->p->store, x->p->session, key);
		free(key);
		int status = 0;
		char *nl = vals[i] ? strchr(vals[i], '\n') : NULL;
		if (!nl || sscanf(vals[i], "%d %d", &status, &codes[i]) != 2 || status < 0 || status > COV_UNRESOLVED) {
			rc = cerr_set(e, "the stored results of test '%s' are damaged", s->v[i].name);
			break;
		}
		st[i] = (enum cov_status)status;
		names[i] = s->v[i].name;
		hits[i] = nl + 1;
	}
	if (rc == 0)
		rc = coverage_from_text(c, s->n, names, st, codes, hits, e);
	for (size_t i = 0; i < s->n; i++)
		free(vals[i]);
	free(vals);
	free(names);
	free(hits);
	free(st);
	free(codes);
	return rc;
}

/* Point each ranked line at its text in the bad revision. */
static void attach_sources(struct explain *x)
{
	for (size_t i = 0; i < x->ranking.n; i++) {
		struct rank_entry *r = &x->ranking.v[i];
		size_t k;
		for (k = 0; k < x->p->nsources; k++)
			if (!strcmp(x->p->sources[k].s, r->s.file))
				break;
		if (k == x->p->nsources) {
			/* Each source kept as "path\0content". */
			struct buf content = BUF_INIT;
			unsigned mode;
			x->p->sources = xrealloc(x->p->sources, (x->p->nsources + 1) * sizeof(*x->p->sources));
			struct buf *b = &x->p->sources[x->p->nsources++];
			buf_init(b);
			buf_adds(b, r->s.file);
			buf_addc(b, '\0');
			if (repo_read_path(x->p->repo, x->bad, r->s.file, &content, &mode, NULL) == 1)
				buf_add(b, content.s, content.len);
			buf_release(&content);
		}
		const struct buf *b = &x->p->sources[k];
		const char *p = b->s + strlen(b->s) + 1, *end = b->s + b->len;
		for (int line = 1; p < end && line < r->s.line; line++) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			p = nl ? nl + 1 : end;
		}
		if (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			r->text = p;
			r->text_len = (size_t)((nl ? nl : end) - p);
		}
	}
}

/* Whether a list of lines holds line. */
static int list_has(const char *list, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = list; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len == n && !memcmp(p, line, n))
			return 1;
		p = nl ? nl + 1 : p + len;
	}
	return 0;
}

/* SAT-TAR: the statements of the causes' unsat cores get +1, except those
 * an approved failing test rated lower (refine.unboosted). Only causes that
 * force the failure count: a cause the formula could not force names just
 * the statement it started from, which proves nothing. Under the lock. */
void ex_boost(struct explain *x)
{
	char *off = store_get(x->p->store, x->p->session, "refine.unboosted");
	size_t n = 0, cap = 0;
	char **files = NULL;
	int *lines = NULL;
	for (size_t k = 0; k < x->tree.n; k++)
		for (size_t i = 0; x->tree.nodes[k].forcing && i < x->tree.nodes[k].nstmts; i++) {
			const struct ct_stmt *st = &x->tree.nodes[k].stmts[i];
			if (!st->file || st->line <= 0)
				continue;
			char *key = xasprintf("%s:%d", st->file, st->line);
			int skip = list_has(off, key);
			free(key);
			if (skip)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				files = xrealloc(files, cap * sizeof(*files));
				lines = xrealloc(lines, cap * sizeof(*lines));
			}
			files[n] = st->file;
			lines[n++] = st->line;
		}
	rank_boost(&x->ranking, files, lines, n);
	free(files);
	free(lines);
	free(off);
	if (x->opts.changed_only)
		ex_prefer_inducing(x);
}

/* --changed: the lines of the failure-inducing changes before the other
 * changed lines. The answer's changes are the ranking's when both come
 * from good..bad; when bisection narrowed the answer to a commit that is
 * the bad one, its changes name the ranking's by the lines they cover. */
void ex_prefer_inducing(struct explain *x)
{
	const struct change_set *full = x->set_full;
	if (!full || !x->inducing.n)
		return;
	unsigned char *pref = xcalloc(full->nchanges + 1, 1);
	for (size_t i = 0; i < x->inducing.n; i++) {
		size_t c = x->inducing.v[i].change;
		if (x->set == full) {
			if (c < full->nchanges)
				pref[c] = 1;
			continue;
		}
		if (!x->set || c >= x->set->nchanges || strcmp(x->set->new_rev, full->new_rev))
			continue;
		const struct change *a = &x->set->changes[c];
		const char *path = x->set->files[a->file].new_path;
		for (size_t k = 0; k < full->nchanges; k++) {
			const struct change *b = &full->changes[k];
			if (!strcmp(full->files[b->file].new_path, path) && b->new_start < a->new_start + a->new_lines &&
			    a->new_start < b->new_start + b->new_lines)
				pref[k] = 1;
		}
	}
	rank_prefer(&x->ranking, pref, full->nchanges);
	free(pref);
}

/* The ranking from the stored results of the suite's runs. */
int ex_rank_stored(struct explain *x, const struct suite *s, int quiet, struct cerr *e)
{
	struct coverage good = {0}, cov = {0};
	char ch[41];
	ex_coverage_build_of(x, ch);
	char *ckind = xasprintf("coverage-%.8s", ch);
	int rc = suite_load_runs(x, "good", x->good, s, &good, e);
	if (rc == 0)
		rc = suite_load_runs(x, ckind, x->bad, s, &cov, e);
	free(ckind);
	if (rc == 0) {
		int *counted = xcalloc(cov.nruns + 1, sizeof(*counted));
		size_t at_good = 0, unresolved = 0;
		for (size_t i = 0; i < cov.nruns; i++) {
			int is_failing_test = !strcmp(s->v[i].cmd, x->opts.test);
			if (is_failing_test)
				cov.runs[i].status = COV_FAIL;
			if (!is_failing_test && good.runs[i].status == COV_FAIL) {
				at_good++;
				if (!quiet)
					ex_event(x, "TEST_LEFT_OUT", "test %s fails at the good revision too: left out",
						 s->v[i].name);
			} else if (cov.runs[i].status == COV_UNRESOLVED) {
				unresolved++;
			} else {
				counted[i] = 1;
			}
		}
		ex_lock(x);
		rank_release(&x->ranking);
		rank_compute(&x->ranking, &cov, counted, x->p->full, (enum spectra_formula)x->opts.formula,
			     x->opts.changed_only);
		ex_boost(x);
		x->tests = s->n;
		x->tests_failing_at_good = at_good;
		x->tests_unresolved = unresolved;
		x->ranked = 1;
		attach_sources(x);
		ex_unlock(x);
		free(counted);
		if (!quiet)
			ex_event(x, "RANKED", "%zu lines ranked (%s) from %d failing and %d passing tests", x->ranking.n,
				 spectra_formula_name((enum spectra_formula)x->opts.formula), x->ranking.F, x->ranking.P);
	}
	coverage_release(&good);
	if (rc == 0) {
		coverage_release(&x->p->cov);
		x->p->cov = cov;
	} else {
		coverage_release(&cov);
	}
	return rc;
}

int ex_rank_suite(struct explain *x, struct cerr *e)
{
	struct suite s;
	int rc;
	ex_phase(x, PHASE_RANK);
	if (ex_load_suite(x, &s, e) < 0)
		return -1;
	/* Which tests fail at the good revision too: they are not about this regression. */
	rc = ex_ensure_workspace(x, x->good, e);
	if (rc == 0) {
		struct bits *none = bits_new(x->p->full->natoms);
		rc = workspace_apply(x->p->ws, x->p->full, none, NULL, e);
		bits_free(none);
	}
	if (rc == 0)
		rc = suite_runs(x, "good", x->good, workspace_path(x->p->ws), x->build, &s, e);
	/* Coverage at the bad revision, in its own worktree. */
	char ch[41];
	const char *cbuild = ex_coverage_build_of(x, ch);
	char *ckind = xasprintf("coverage-%.8s", ch);
	char *cdir = xasprintf("%swt-cov-%.12s-%.8s", x->p->sessdir, x->bad, ch);
	struct workspace *cw = NULL;
	if (rc == 0 && !x->opts.replay)
		rc = workspace_open(&cw, x->p->repo, cdir, x->bad, e);
	if (rc == 0)
		rc = suite_runs(x, ckind, x->bad, cdir, cbuild, &s, e);
	free(cdir);
	free(ckind);
	workspace_free(cw);
	if (rc == 0)
		rc = ex_rank_stored(x, &s, 0, e);
	suite_release(&s);
	return rc;
}

int explain_rerank(struct explain *x, int formula, int changed_only, struct cerr *e)
{
	struct suite s;
	if (!x->ranked)
		return cerr_set(e, "no ranking yet");
	x->opts.formula = formula;
	x->opts.changed_only = changed_only;
	if (ex_load_suite(x, &s, e) < 0)
		return -1;
	int rc = ex_rank_stored(x, &s, 1, e);
	suite_release(&s);
	return rc;
}

/* ---------------------------------------------------------- fault sets */

#define FAULTS_TOP 3   /* ranks a fault set should reach, with the changed lines */

static double faults_susp(void *priv, const char *file, int line)
{
	struct explain *x = priv;
	const struct rank_entry *r = rank_find(&x->ranking, file, line);
	return r ? r->raw : 0;
}

/* Changed by good..bad, or among the top-ranked lines. */
static int faults_wanted(void *priv, const char *file, int line)
{
	struct explain *x = priv;
	const struct rank_entry *r = rank_find(&x->ranking, file, line);
	return r && (r->change >= 0 || r->s.rank <= FAULTS_TOP);
}

static int faults_forced(void *priv, unsigned site, unsigned instance, int outcome, struct trace *out,
			 struct cerr *e)
{
	struct explain *x = priv;
	ex_activity(x, xasprintf("fault sets: the failing run with branch %u forced", site));
	int rc = why_run_forced(x->p->why, site, instance, outcome, out, e);
	ex_activity(x, NULL);
	return rc;
}

static void faults_release(void *priv, struct trace *t)
{
	(void)priv;
	trace_release(t);
}

/* The stored fault sets into the model: 1 loaded, 0 none (or, with
 * weighted >= 0, none computed with that weighting). */
static int load_faults(struct explain *x, int weighted)
{
	char *stored = store_get(x->p->store, x->p->session, "why.faults");
	struct comss_result r;
	struct cerr je;
	int rc = 0;
	if (stored && comss_from_json(&r, stored, strlen(stored), &je) == 0) {
		if (weighted >= 0 && !r.weighted != !weighted) {
			comss_release(&r);
		} else {
			ex_lock(x);
			comss_release(&x->faults);
			x->faults = r;
			x->faulted = 1;
			ex_unlock(x);
			rc = 1;
		}
	}
	free(stored);
	return rc;
}

/* The fault sets as stored, when the causal tree they were computed from
 * was taken from the store too and the ranking weights them the same way:
 * reopening a session recomputes nothing. */
int ex_faults_stored(struct explain *x)
{
	return x->p->tree_stored && load_faults(x, x->ranked);
}

/* The MaxSAT fault sets of the failing run, weighted by the ranking when
 * there is one, widened on demand; stored in the session. */
int ex_faults(struct explain *x, struct cerr *e)
{
	const struct expect *fx = NULL;
	size_t nfx = x->p->why ? why_failure(x->p->why, &fx) : 0;
	const struct trace *t = x->trace;
	/* What the sets were computed over: when that has not changed (a
	 * reopened session), the stored sets are shown, not computed again. */
	char *key = xasprintf("%d %d %d %zu", x->ranked, x->ranking.F, x->ranking.P, x->ranking.n);
	char *stored_key = store_get(x->p->store, x->p->session, "why.faults.key");
	int same = stored_key && !strcmp(stored_key, key);
	free(stored_key);
	if (!t || same) {
		free(key);
		load_faults(x, -1);
		return 0;
	}
	struct comss_opts o = {.weighted = x->ranked, .ofc = 1, .susp = faults_susp, .forced = faults_forced,
			       .wanted = x->ranked ? faults_wanted : NULL,
			       .release = faults_release, .priv = x,
			       .shown = x->tree.failure_ev < t->n ? (size_t)x->tree.failure_ev + 1 : 0};
	struct comss_result r;
	struct cerr ce = {{0}};
	ex_activity(x, xstrdup("fault sets: solving"));
	int rc = comss_run(t, fx, nfx, &o, &r, &ce);
	ex_activity(x, NULL);
	if (rc < 0) {
		if (ex_was_stopped(x)) {
			free(key);
			return ABORT_STOPPED;
		}
		ex_lock(x);
		free(x->faults_note);
		x->faults_note = xasprintf("no fault sets: %s", ce.msg);
		ex_unlock(x);
		free(key);
		ex_event(x, "FAULT_SETS", "%s", x->faults_note);
		(void)e;
		return 0;
	}
	struct buf j = BUF_INIT;
	comss_json(&r, &j);
	store_set(x->p->store, x->p->session, "why.faults", j.s, NULL);
	store_set(x->p->store, x->p->session, "why.faults.key", key, NULL);
	buf_release(&j);
	ex_lock(x);
	comss_release(&x->faults);
	x->faults = r;
	x->faulted = 1;
	ex_unlock(x);
	free(key);
	ex_event(x, "FAULT_SETS", "%zu fault sets (MaxSAT%s; %d runs, %zu clauses, %.2fs)", r.n,
		 r.weighted ? ", weighted by suspiciousness" : "", r.paths, r.clauses, r.seconds);
	return 0;
}

