/* The session: opening it, the premise, and the state machine that calls
 * the stages in turn (see stage.h); refinement's rounds go through it too. */
#include "core/session/stage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/isolate/config.h"
#include "core/isolate/dd.h"
#include "core/isolate/workspace.h"

#define PREMISE_TEST_TIMEOUT 60     /* seconds, while the premise measures the runs */
#define PREMISE_BUILD_TIMEOUT 600
#define MIN_TEST_TIMEOUT 5
#define MIN_BUILD_TIMEOUT 60

const char *explain_phase_name(enum explain_phase p)
{
	static const char *names[] = {"starting", "checking the premise", "bisecting commits",
				      "minimizing failure-inducing changes", "searching the fix",
				      "refining to tokens", "explaining the failure", "ranking by coverage", "done"};
	return names[p];
}

const char *change_mark_name(enum change_mark m)
{
	static const char *names[] = {"untested", "applied", "reverted", "failure-inducing",
				      "fix", "auxiliary", "interacting"};
	return names[m];
}

/* ---------------------------------------------------------------- opening */

static void session_inputs(const struct explain *x, struct buf *key, struct buf *desc)
{
	/* The key: what decides every outcome. Timeouts are left out so that a
	 * longer timeout can resume the same session. */
	buf_addf(key, "good %s\nbad %s\nbuild %s\ntest %s\npattern %s\nrepeat %d\n", x->good, x->bad,
		 x->build, x->opts.test, x->opts.fail_pattern ? x->opts.fail_pattern : "",
		 x->opts.repeat);
	buf_addf(desc, "good %s (%s), bad %s (%s), build '%s', test '%s'", x->opts.good, x->good,
		 x->opts.bad, x->bad, x->build, x->opts.test);
}

static int store_inputs(struct explain *x, struct cerr *e)
{
	char num[64];
	const char *names[] = {"good_rev", "bad_rev", "build", "test", "fail_pattern", "suite", "coverage_build"};
	const char *values[] = {x->opts.good, x->opts.bad, x->opts.build, x->opts.test,
				x->opts.fail_pattern, x->opts.suite, x->opts.coverage_build};
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (values[i] && store_set(x->p->store, x->p->session, names[i], values[i], e) < 0)
			return -1;
	if (store_set(x->p->store, x->p->session, "cflags", x->opts.cflags ? x->opts.cflags : "", e) < 0)
		return -1;
	snprintf(num, sizeof(num), "%d", x->opts.repeat);
	if (store_set(x->p->store, x->p->session, "repeat", num, e) < 0)
		return -1;
	snprintf(num, sizeof(num), "%g", x->opts.build_timeout);
	if (store_set(x->p->store, x->p->session, "build_timeout", num, e) < 0)
		return -1;
	snprintf(num, sizeof(num), "%d", x->opts.first_parent);
	if (store_set(x->p->store, x->p->session, "first_parent", num, e) < 0)
		return -1;
	snprintf(num, sizeof(num), "%d", x->opts.jobs);
	if (store_set(x->p->store, x->p->session, "jobs", num, e) < 0)
		return -1;
	snprintf(num, sizeof(num), "%g", x->opts.test_timeout);
	if (store_set(x->p->store, x->p->session, "test_timeout", num, e) < 0)
		return -1;
	/* The revisions as resolved: a branch that moves on does not change what was analysed. */
	if (store_set(x->p->store, x->p->session, "good_hex", x->good, e) < 0 ||
	    store_set(x->p->store, x->p->session, "bad_hex", x->bad, e) < 0)
		return -1;
	char *state = store_get(x->p->store, x->p->session, "state");
	int rc = state ? 0 : store_set(x->p->store, x->p->session, "state", "new", e);
	free(state);
	return rc;
}

/* What the run came to, kept with the session so that `culprit report`
 * finds the last finished analysis. A finished session stays finished when
 * a later run of it is stopped or fails. */
static void record_state(struct explain *x, int rc)
{
	const char *state = rc == ABORT_STOPPED || rc == DD_STOP ? "stopped"
			    : rc < 0                        ? "failed"
			    : x->explained                  ? "explained"
							    : "unexplained";
	char *old = store_get(x->p->store, x->p->session, "state");
	int was_finished = old && (!strcmp(old, "explained") || !strcmp(old, "unexplained"));
	free(old);
	char num[64];
	snprintf(num, sizeof(num), "%d", x->builds_before + x->builds);
	store_set(x->p->store, x->p->session, "builds", num, NULL);
	if (was_finished && (!strcmp(state, "stopped") || !strcmp(state, "failed")))
		return;
	store_set(x->p->store, x->p->session, "state", state, NULL);
	if (!strcmp(state, "explained") || !strcmp(state, "unexplained")) {
		snprintf(num, sizeof(num), "%lld", (long long)time(NULL));
		store_set(x->p->store, x->p->session, "finished", num, NULL);
	}
}

char *explain_stored_state(struct explain *x)
{
	char *v = store_get(x->p->store, x->p->session, "state");
	return v ? v : xstrdup("new");
}

int explain_open(struct explain **out, const struct explain_opts *o, const struct explain_hooks *h,
		 struct cerr *e)
{
	struct explain *x = xcalloc(1, sizeof(*x));
	x->p = xcalloc(1, sizeof(*x->p));
	x->p->lockfd = -1;
	pthread_mutex_init(&x->lock, NULL);
	x->opts = *o;
	x->opts.dir = ex_dup(o->dir);
	x->opts.good = xstrdup(o->good);
	x->opts.bad = xstrdup(o->bad);
	x->opts.build = ex_dup(o->build);
	x->opts.test = xstrdup(o->test);
	x->opts.fail_pattern = ex_dup(o->fail_pattern);
	x->opts.suite = ex_dup(o->suite);
	x->opts.coverage_build = ex_dup(o->coverage_build);
	x->opts.cflags = ex_dup(o->cflags);
	if (x->opts.repeat < 1)
		x->opts.repeat = 1;
	if (h)
		x->hooks = *h;
	x->started = now_seconds();
	*out = x;

	if (repo_open(&x->p->repo, o->dir, e) < 0)
		return -1;
	x->gitdir = xstrdup(repo_gitdir(x->p->repo));
	if (repo_resolve(x->p->repo, o->good, x->good, e) < 0 ||
	    repo_resolve(x->p->repo, o->bad, x->bad, e) < 0)
		return -1;
	if (!strcmp(x->good, x->bad))
		return cerr_set(e, "good and bad are the same commit (%.12s): there is no change to explain",
				x->good);
	if (oracle_new(&x->p->oracle, o->fail_pattern, e) < 0)
		return -1;

	if (o->build) {
		x->build = xstrdup(o->build);
	} else {
		struct buf b = BUF_INIT;
		unsigned mode;
		int has = repo_read_path(x->p->repo, x->bad, "Makefile", &b, &mode, NULL);
		buf_release(&b);
		x->build = xstrdup(has == 1 ? "make" : "");
	}

	if (repo_diff(x->p->repo, x->good, x->bad, &x->p->full, e) < 0)
		return -1;
	x->set_full = x->p->full;
	if (x->p->full->nchanges == 0)
		return cerr_set(e, "good (%.12s) and bad (%.12s) have the same files: there is no change to explain",
				x->good, x->bad);

	x->p->sessdir = xasprintf("%sculprit/", x->gitdir);
	int rc = mkdir_p(x->p->sessdir, 0755, e);
	if (rc == 0 && !o->replay)
		rc = ex_lock_repository(x, e);   /* report, rank and tests read without it */
	char *db = xasprintf("%ssession.db", x->p->sessdir);
	if (rc == 0)
		rc = store_open(&x->p->store, db, e);
	free(db);
	if (rc < 0)
		return -1;

	struct buf key = BUF_INIT, desc = BUF_INIT;
	char keyhex[41];
	session_inputs(x, &key, &desc);
	repo_hash(key.s, key.len, keyhex);
	buf_release(&key);
	if (o->replay && o->session > 0) {   /* picked by id (culprit report --session) */
		x->p->session = o->session;
		x->resumed = 1;
	} else {
		rc = store_session_open(x->p->store, keyhex, desc.s, o->fresh && !o->replay, &x->p->session,
					&x->resumed, e);
	}
	buf_release(&desc);
	if (rc < 0)
		return -1;
	if (o->replay && !x->resumed)
		return cerr_set(e, "no stored session to report");
	if (!o->replay && store_inputs(x, e) < 0)
		return -1;
	/* Timeouts not given are derived from the premise's runs; until then
	 * the premise runs under these. */
	x->derived_test_timeout = x->opts.test_timeout <= 0;
	x->derived_build_timeout = x->opts.build_timeout <= 0;
	if (x->derived_test_timeout)
		x->opts.test_timeout = PREMISE_TEST_TIMEOUT;
	if (x->derived_build_timeout)
		x->opts.build_timeout = PREMISE_BUILD_TIMEOUT;
	char *el = store_get(x->p->store, x->p->session, "elapsed");
	x->elapsed_before = el ? strtod(el, NULL) : 0;
	free(el);
	char *nb = store_get(x->p->store, x->p->session, "builds");
	x->builds_before = nb ? atoi(nb) : 0;
	free(nb);
	return 0;
}

static int open_db(const char *dir, struct store **s, struct cerr *e);

int explain_open_stored(struct explain **out, const char *dir, int64_t want, int o_formula, int o_changed,
			struct cerr *e)
{
	struct store *s;
	int64_t id;

	*out = NULL;
	int rc = open_db(dir, &s, e);
	if (rc < 0)
		return -1;
	rc = store_session_pick(s, want, &id, e);
	if (rc <= 0) {
		if (rc == 0 && want > 0)
			cerr_set(e, "no stored session %lld (culprit sessions lists them)", (long long)want);
		else if (rc == 0)
			cerr_set(e, "no stored session to report");
		store_free(s);
		return -1;
	}
	char *good = store_get(s, id, "good_hex"), *bad = store_get(s, id, "bad_hex");
	if (!good)
		good = store_get(s, id, "good_rev");
	if (!bad)
		bad = store_get(s, id, "bad_rev");
	char *good_rev = store_get(s, id, "good_rev"), *bad_rev = store_get(s, id, "bad_rev");
	char *build = store_get(s, id, "build"), *test = store_get(s, id, "test");
	char *pattern = store_get(s, id, "fail_pattern"), *repeat = store_get(s, id, "repeat");
	char *bt = store_get(s, id, "build_timeout"), *tt = store_get(s, id, "test_timeout");
	char *suite = store_get(s, id, "suite"), *cov = store_get(s, id, "coverage_build");
	char *jobs = store_get(s, id, "jobs"), *cflags = store_get(s, id, "cflags");
	char *fp = store_get(s, id, "first_parent");
	store_free(s);
	if (!good || !bad || !test) {
		rc = cerr_set(e, "the stored session is incomplete; run culprit again");
	} else {
		struct explain_opts o = {
			.dir = dir, .good = good, .bad = bad, .build = build, .test = test,
			.fail_pattern = pattern, .repeat = repeat ? atoi(repeat) : 1,
			.build_timeout = bt ? strtod(bt, NULL) : 0, .test_timeout = tt ? strtod(tt, NULL) : 0,
			.suite = suite, .coverage_build = cov, .jobs = jobs ? atoi(jobs) : 0,
			.formula = o_formula, .changed_only = o_changed, .replay = 1, .semantic = 1,
			.cflags = cflags && cflags[0] ? cflags : NULL, .first_parent = fp ? atoi(fp) : 0, .session = id,
		};
		rc = explain_open(out, &o, NULL, e);
		if (rc == 0 && good_rev && bad_rev) {   /* the names the user gave, for the report */
			free((char *)(*out)->opts.good);
			free((char *)(*out)->opts.bad);
			(*out)->opts.good = xstrdup(good_rev);
			(*out)->opts.bad = xstrdup(bad_rev);
		}
	}
	free(good_rev);
	free(bad_rev);
	free(good);
	free(bad);
	free(build);
	free(test);
	free(pattern);
	free(repeat);
	free(bt);
	free(tt);
	free(suite);
	free(cov);
	free(cflags);
	free(jobs);
	free(fp);
	return rc;
}

/* The session database of the repository at dir, when there is one. */
static int open_db(const char *dir, struct store **s, struct cerr *e)
{
	struct repo *r;
	if (repo_open(&r, dir, e) < 0)
		return -1;
	char *db = xasprintf("%sculprit/session.db", repo_gitdir(r));
	struct stat st;
	int rc = 0;
	if (stat(db, &st) < 0)
		rc = cerr_set(e, "no stored session in %s (run culprit first)", repo_gitdir(r));
	else
		rc = store_open(s, db, e);
	free(db);
	repo_free(r);
	return rc;
}

int explain_sessions(const char *dir, struct session_row **rows, size_t *n, int64_t *pick, struct cerr *e)
{
	struct store *s;
	*rows = NULL;
	*n = 0;
	*pick = 0;
	if (open_db(dir, &s, e) < 0)
		return -1;
	int rc = store_sessions(s, rows, n, e);
	if (rc == 0 && store_session_pick(s, 0, pick, e) < 0)
		rc = -1;
	store_free(s);
	return rc;
}

void explain_free(struct explain *x)
{
	if (!x)
		return;
	if (x->set && (!x->p || x->set != x->p->full))
		change_set_free(x->set);
	if (x->p) {
		ex_traces_release(x->p);
		why_free(x->p->why);
		coverage_release(&x->p->cov);
		workspace_free(x->p->ws);
		change_set_free(x->p->full);
		oracle_free(x->p->oracle);
		store_free(x->p->store);
		ex_unlock_repository(x);   /* after the store is closed */
		repo_free(x->p->repo);
		free(x->p->sessdir);
		free(x->p->built_dir);
		bits_free(x->p->whole_file);
		bits_free(x->p->whole_group);
		for (size_t i = 0; i < x->p->nsources; i++)
			buf_release(&x->p->sources[i]);
		free(x->p->sources);
		free(x->p);
	}
	for (size_t i = 0; i < x->nconfigs; i++) {
		free(x->configs[i].label);
		free(x->configs[i].signature);
		free(x->configs[i].excerpt);
	}
	free(x->configs);
	ex_list_release(&x->inducing);
	ex_list_release(&x->fix);
	ex_list_release(&x->aux);
	ex_list_release(&x->ind_needs);
	ex_list_release(&x->fix_needs);
	for (size_t i = 0; i < x->nfix_other; i++)
		ex_list_release(&x->fix_other[i]);
	free(x->fix_other);
	x->fix_other = NULL;
	x->nfix_other = 0;
	free(x->marks);
	free(x->change_commit);
	free(x->commits);
	free(x->commit_verdict);
	free(x->signature);
	free(x->culprit_signature);
	free(x->note);
	free(x->activity);
	free(x->culprit_subject);
	free(x->culprit_author);
	free(x->build);
	free(x->gitdir);
	free((char *)x->opts.dir);
	free((char *)x->opts.good);
	free((char *)x->opts.bad);
	free((char *)x->opts.build);
	free((char *)x->opts.test);
	free((char *)x->opts.fail_pattern);
	free((char *)x->opts.suite);
	free((char *)x->opts.coverage_build);
	free((char *)x->opts.cflags);
	ctree_release(&x->tree);
	rank_release(&x->ranking);
	free(x->ranking_note);
	ex_refine_release(&x->refine);
	comss_release(&x->faults);
	free(x->faults_note);
	interact_release(&x->interact);
	free(x->interact_note);
	pthread_mutex_destroy(&x->lock);
	free(x);
}

/* ------------------------------------------------- testing a configuration */

/* ------------------------------------------------------------------ premise */

/* Timeouts not given: the test's is max(5 s, 10x the slower of the good and
 * bad runs); the build's 10x the first full build (the bad revision's), at
 * least a minute: a workspace kept from an earlier session builds
 * incrementally at first, and later commits may rebuild everything. */
static void derive_timeouts(struct explain *x, const struct outcome *bad, const struct outcome *good)
{
	/* Per run: the bad revision runs at least twice (what varies by
	 * itself), more when its runs disagree. */
	int bad_runs = bad->runs > 0 ? bad->runs : x->opts.repeat < 2 ? 2 : x->opts.repeat;
	int good_runs = good->runs > 0 ? good->runs : x->opts.repeat;
	double bt = bad->test_seconds / bad_runs, gt = good->test_seconds / (good_runs > 0 ? good_runs : 1);
	double slower = bt > gt ? bt : gt;
	if (x->derived_test_timeout)
		x->opts.test_timeout = 10 * slower > MIN_TEST_TIMEOUT ? 10 * slower : MIN_TEST_TIMEOUT;
	if (x->derived_build_timeout)
		x->opts.build_timeout = 10 * bad->build_seconds > MIN_BUILD_TIMEOUT ? 10 * bad->build_seconds
									    : MIN_BUILD_TIMEOUT;
	/* A generated input may make the program wait or loop: its runs get
	 * max(2 s, 10x the test's own time), never more than the test's. */
	x->refine.timeout = 10 * slower > 2 ? 10 * slower : 2;
	if (x->opts.test_timeout > 0 && x->refine.timeout > x->opts.test_timeout)
		x->refine.timeout = x->opts.test_timeout;
	if (x->derived_test_timeout || x->derived_build_timeout)
		ex_event(x, "TIMEOUTS", "test timeout %.3g s%s, build timeout %.3g s%s", x->opts.test_timeout,
			 x->derived_test_timeout ? " (10x the slower of the good and bad runs, at least 5 s)" : " (given)",
			 x->opts.build_timeout,
			 x->derived_build_timeout ? " (10x the bad revision's build, at least 60 s)" : " (given)");
}

/* Is sig the status `status` (with or without what follows it)? */
static int sig_is(const char *sig, const char *status)
{
	size_t n = strlen(status);
	return sig && !strncmp(sig, status, n) && (sig[n] == '\0' || sig[n] == ';');
}

/* The bad revision is built and tested twice (what varies between its runs
 * is masked in the failure's identity, see oracle.h), then the good one. */
static int check_premise(struct explain *x, struct cerr *e)
{
	const struct change_set *s = x->p->full;
	struct bits *all = bits_new(s->natoms), *none = bits_new(s->natoms);
	struct outcome o;
	char g[13], b[13];
	int rc;

	ex_short_hex(x->good, g);
	ex_short_hex(x->bad, b);
	bits_fill(all);
	ex_phase(x, PHASE_PREMISE);
	char *label = xasprintf("bad revision %s", b);
	rc = ex_test_config(x, s, all, label, NULL, &o, e);
	if (rc == 0 && (o.verdict != VERDICT_FAIL || !o.signature) && !x->opts.replay &&
	    ex_config_from_store(x, o.key)) {   /* as at the good revision below */
		outcome_release(&o);
		ex_event(x, "PREMISE_RETESTED", "the stored outcome at the bad revision %s says the test does not fail: "
			 "testing it again", b);
		rc = ex_retest_config(x, s, all, label, NULL, &o, e);
	}
	free(label);
	if (rc < 0)
		goto out;
	if (o.why == WHY_BUILD || o.why == WHY_BUILD_TIMEOUT)
		rc = cerr_set(e, "the build fails at the bad revision %s: %s", b, o.excerpt ? o.excerpt : x->build);
	else if (sig_is(o.signature, "exit 127"))
		rc = cerr_set(e, "test command not found (exit 127 at the bad revision): %s", x->opts.test);
	else if (sig_is(o.signature, "exit 126"))
		rc = cerr_set(e, "test command cannot be executed (exit 126 at the bad revision): %s", x->opts.test);
	else if (o.why == WHY_TEST_TIMEOUT)
		rc = cerr_set(e, "the test times out at the bad revision %s (--test-timeout %g)", b, x->opts.test_timeout);
	else if (o.why == WHY_UNTESTABLE)
		rc = cerr_set(e, "the test cannot run at the bad revision %s (it exits 125)", b);
	else if (o.why == WHY_FLAKY)
		rc = cerr_set(e, "the test is flaky at the bad revision %s: its --repeat runs disagree", b);
	else if (o.verdict != VERDICT_FAIL || !o.signature)
		rc = cerr_set(e, "the test passes at the bad revision %s: there is no failure to explain", b);
	if (rc < 0) {
		outcome_release(&o);
		goto out;
	}
	x->signature = xstrdup(o.signature);
	struct outcome bad_o = o;
	if (!x->opts.replay)
		store_set(x->p->store, x->p->session, "signature", x->signature, NULL);

	label = xasprintf("good revision %s", g);
	rc = ex_test_config(x, s, none, label, x->signature, &o, e);
	if (rc == 0 && o.verdict != VERDICT_PASS && !x->opts.replay && ex_config_from_store(x, o.key)) {
		/* A stored session whose premise fails would not have gone on: the
		 * stored outcome is not trusted (a worktree disturbed while it was
		 * tested gives such false verdicts), it is tested again. */
		outcome_release(&o);
		ex_event(x, "PREMISE_RETESTED", "the stored outcome at the good revision %s says the test fails: "
			 "testing it again", g);
		rc = ex_retest_config(x, s, none, label, x->signature, &o, e);
	}
	free(label);
	if (rc < 0) {
		outcome_release(&bad_o);
		goto out;
	}
	if (o.why == WHY_BUILD || o.why == WHY_BUILD_TIMEOUT)
		rc = cerr_set(e, "the build fails at the good revision %s: %s", g, o.excerpt ? o.excerpt : x->build);
	else if (o.verdict != VERDICT_PASS)
		rc = cerr_set(e, "the test fails at the good revision %s (%s%s%s): it is not a regression", g,
			      o.signature ? o.signature : verdict_name(o.verdict), o.why ? ", " : "",
			      why_name(o.why));
	if (rc == 0)
		derive_timeouts(x, &bad_o, &o);
	outcome_release(&o);
	outcome_release(&bad_o);
	if (rc == 0)
		ex_event(x, "PREMISE_CHECKED", "the test passes at %s and fails at %s with %s", g, b, x->signature);
out:
	bits_free(all);
	bits_free(none);
	return rc;
}

int explain_state_set(struct explain *x, const char *name, const char *value)
{
	char *key = xasprintf("ui.%s", name);
	int rc = store_set(x->p->store, x->p->session, key, value, NULL);
	free(key);
	return rc;
}

char *explain_state_get(struct explain *x, const char *name)
{
	char *key = xasprintf("ui.%s", name);
	char *v = store_get(x->p->store, x->p->session, key);
	free(key);
	return v;
}

const char *explain_dir(const struct explain *x)
{
	return x->p->sessdir;
}

/* --------------------------------------------------------------- the run */

/* Forget the previous run's model (the configurations tested stay: they are the cache). */

static void reset_model(struct explain *x)
{
	ex_lock(x);
	if (x->set && x->set != x->p->full)
		change_set_free(x->set);
	x->set = NULL;
	free(x->marks);
	x->marks = NULL;
	free(x->change_commit);
	x->change_commit = NULL;
	free(x->commits);
	x->commits = NULL;
	free(x->commit_verdict);
	x->commit_verdict = NULL;
	x->ncommits = x->lo = x->hi = 0;
	x->unrelated = 0;
	ex_list_release(&x->inducing);
	ex_list_release(&x->fix);
	ex_list_release(&x->aux);
	ex_list_release(&x->ind_needs);
	ex_list_release(&x->fix_needs);
	for (size_t i = 0; i < x->nfix_other; i++)
		ex_list_release(&x->fix_other[i]);
	free(x->fix_other);
	x->fix_other = NULL;
	x->nfix_other = 0;
	free(x->note);
	x->note = NULL;
	free(x->signature);
	x->signature = NULL;
	free(x->culprit_signature);
	x->culprit_signature = NULL;
	x->refined = x->explained = x->commits_tested = 0;
	x->phase = PHASE_START;
	x->p->stopping = 0;
	x->p->err.msg[0] = '\0';
	ex_unlock(x);
}

/* The culprit commit's subject, author and date, for the diff pane and the report. */
static void describe_culprit(struct explain *x)
{
	const char *c = explain_culprit_commit(x);
	char *subject = c ? repo_commit_subject(x->p->repo, c) : NULL;
	long long when = 0;
	char *author = c ? repo_commit_author(x->p->repo, c, &when) : NULL;
	ex_lock(x);
	free(x->culprit_subject);
	free(x->culprit_author);
	x->culprit_subject = subject;
	x->culprit_author = author;
	x->culprit_time = when;
	ex_unlock(x);
}

int explain_run(struct explain *x, struct cerr *e)
{
	int rc;

	reset_model(x);
	ex_event(x, x->resumed ? "SESSION_RESUMED" : "SESSION_STARTED", "%s %.12s..%.12s: %s",
		 x->resumed ? "resuming" : "starting", x->good, x->bad, x->opts.test);
	rc = check_premise(x, e);
	if (rc == 0)
		rc = ex_bisect(x, e);
	if (rc == 0)
		describe_culprit(x);
	if (rc == 0)
		rc = ex_search_begin(x, e);
	if (rc == 0) {
		ex_interact(x, ex_revert);
		rc = ex_search_changes(x, e);
	}
	if (rc == 0 && x->explained && x->opts.semantic) {
		int wr = ex_why(x, ex_revert, e);
		if (wr < 0)
			rc = wr;
	}
	if (rc >= 0 && (x->opts.suite || ex_refine_has_tests(x))) {
		int rr = ex_rank_suite(x, e);
		if (rr == ABORT_STOPPED)
			rc = rr;
		else if (rr < 0)
			rc = -1;
	}
	if (rc >= 0 && x->explained && x->opts.semantic && x->tree.failure && !ex_faults_stored(x)) {
		int fr = ex_faults(x, e);
		if (fr == ABORT_STOPPED)
			rc = fr;
	}
	x->elapsed = now_seconds() - x->started;
	if (!x->opts.replay) {
		char num[64];
		snprintf(num, sizeof(num), "%.3f", x->elapsed_before + x->elapsed);
		store_set(x->p->store, x->p->session, "elapsed", num, NULL);
	}
	if (!x->opts.replay)
		record_state(x, rc);
	if (rc == ABORT_STOPPED || rc == DD_STOP) {
		free(x->note);
		x->note = xstrdup(rc == DD_STOP ? x->p->stopping == 3
							  ? "the stored session is not finished: it stopped before the changes were searched"
						  : x->p->stopping == 2
							  ? "the budget of configurations (--max-configurations) was spent before the changes were searched"
							  : "stopped before the changes were searched"
						: "the analysis was cancelled before it finished");
		ex_event(x, "STOPPED", "%s", x->note);
		ex_phase(x, PHASE_DONE);
		return 1;
	}
	if (rc < 0)
		return -1;
	ex_phase(x, PHASE_DONE);
	if (!x->explained && !x->note)
		x->note = xstrdup("no set of changes reproduces the failure (every smaller configuration was unresolved)");
	ex_event(x, "ANALYSIS_DONE", "%s", x->explained ? "explained" : x->note);
	return x->explained ? 0 : 1;
}

int explain_restore(struct explain *x, struct cerr *e)
{
	x->opts.replay = 1;
	int rc = explain_run(x, e);
	x->opts.replay = 0;
	if (rc >= 0 && x->opts.semantic)
		ex_why_reload(x);
	return rc;
}

/* ------------------------------------------------------------ refinement */

int explain_refine_propose(struct explain *x, struct cerr *e)
{
	/* The failing test alone is ranked first, when there is no suite. */
	if (x->trace && !x->ranked && !x->opts.replay && ex_rank_suite(x, e) < 0)
		return -1;
	return ex_refine_propose(x, e);
}

int explain_refine_answer(struct explain *x, enum refine_answer a, struct cerr *e)
{
	struct ranking before = {0};
	int rc = ex_refine_record(x, a, &before, e);
	if (rc <= 0)
		return rc;
	/* Approved: the ranking again, with the new test. */
	int changed = 0;
	rc = ex_rank_suite(x, e);
	if (rc >= 0 && ex_refine_moves(x, &before, &changed, e) > 0) {
		struct suite st;
		if (ex_load_suite(x, &st, e) == 0) {   /* a boost was lost */
			ex_rank_stored(x, &st, 1, e);
			suite_release(&st);
		}
	}
	if (rc >= 0)
		ex_refine_done(x, &before, changed);
	rank_release(&before);
	if (rc < 0)
		return -1;
	if (x->faulted && changed)
		ex_faults(x, e);   /* the weights changed */
	return 0;
}
