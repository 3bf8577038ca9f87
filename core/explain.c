#include "core/explain.h"
#include "core/json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/config.h"
#include "core/dd.h"
#include "core/json.h"
#include "core/suite.h"
#include "core/coverage.h"
#include "core/repo.h"
#include "core/run.h"
#include "core/store.h"
#include "core/workspace.h"
#include "core/gen.h"
#include "core/refine.h"

static int refine_has_tests(struct explain *x);
static void explain_interact(struct explain *x);
static void refine_release(struct explain_refine *r);

#define ABORT_STOPPED (-100)    /* the gate or the cancel flag stopped the analysis */
#define EXCERPT_MAX 4096
#define REFINE_MAX_ATOMS 32     /* token-level search budget, in pieces */

struct explain_priv {
	struct repo *repo;
	struct store *store;
	int64_t session;
	struct oracle *oracle;
	struct workspace *ws;
	char ws_base[41];
	struct change_set *full;     /* diff(good, bad) */
	struct cerr err;             /* the error that aborted a predicate */
	int stopping;                /* the user stopped refinement: keep the best so far */
	char *sessdir;               /* <gitdir>/culprit/ */
	struct buf *sources;         /* files of the bad revision the ranking shows lines of */
	struct why *why;             /* the semantic explainer (kept for its trace) */
	struct coverage cov;         /* the suite's coverage at the bad revision, as last ranked */
	const struct change_set *why_set;   /* the set why was made for */
	size_t nsources;
};

/* What the units of one search stand for: unit u is atoms [start[u], start[u]+len[u]). */
struct units {
	size_t *start, *len;
	size_t n;
};

/* One search over the change set: which set, its units, the aux memo. */
struct search {
	struct explain *x;
	const struct change_set *s;
	const struct units *u;       /* the units being searched */
	const size_t *reverted;      /* while searching aux: the reverted units (of u) */
	size_t nreverted;
};

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

static void short_hex(const char *hex, char out[13])
{
	snprintf(out, 13, "%.12s", hex);
}

static void model_lock(struct explain *x)
{
	pthread_mutex_lock(&x->lock);
}

static void model_unlock(struct explain *x)
{
	pthread_mutex_unlock(&x->lock);
}

static void event(struct explain *x, const char *type, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void event(struct explain *x, const char *type, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (!x->opts.replay)
		store_event_add(x->p->store, x->p->session, type, b.s, NULL);
	if (x->hooks.event)
		x->hooks.event(x->hooks.priv, type, b.s);
	buf_release(&b);
}

static void set_activity(struct explain *x, char *activity)
{
	model_lock(x);
	free(x->activity);
	x->activity = activity;
	model_unlock(x);
}

static void set_phase(struct explain *x, enum explain_phase p)
{
	model_lock(x);
	x->phase = p;
	model_unlock(x);
}

static char *dupe_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
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
	snprintf(num, sizeof(num), "%d", x->opts.jobs);
	if (store_set(x->p->store, x->p->session, "jobs", num, e) < 0)
		return -1;
	snprintf(num, sizeof(num), "%g", x->opts.test_timeout);
	return store_set(x->p->store, x->p->session, "test_timeout", num, e);
}

int explain_open(struct explain **out, const struct explain_opts *o, const struct explain_hooks *h,
		 struct cerr *e)
{
	struct explain *x = xcalloc(1, sizeof(*x));
	x->p = xcalloc(1, sizeof(*x->p));
	pthread_mutex_init(&x->lock, NULL);
	x->opts = *o;
	x->opts.dir = dupe_or_null(o->dir);
	x->opts.good = xstrdup(o->good);
	x->opts.bad = xstrdup(o->bad);
	x->opts.build = dupe_or_null(o->build);
	x->opts.test = xstrdup(o->test);
	x->opts.fail_pattern = dupe_or_null(o->fail_pattern);
	x->opts.suite = dupe_or_null(o->suite);
	x->opts.coverage_build = dupe_or_null(o->coverage_build);
	x->opts.cflags = dupe_or_null(o->cflags);
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
	rc = store_session_open(x->p->store, keyhex, desc.s, o->fresh && !o->replay, &x->p->session,
				&x->resumed, e);
	buf_release(&desc);
	if (rc < 0)
		return -1;
	if (o->replay && !x->resumed)
		return cerr_set(e, "no stored session to report");
	if (!o->replay && store_inputs(x, e) < 0)
		return -1;
	char *el = store_get(x->p->store, x->p->session, "elapsed");
	x->elapsed_before = el ? strtod(el, NULL) : 0;
	free(el);
	return 0;
}

int explain_open_stored(struct explain **out, const char *dir, int o_formula, int o_changed, struct cerr *e)
{
	struct repo *r;
	struct store *s;
	int64_t id;
	char *inputs = NULL;

	*out = NULL;
	if (repo_open(&r, dir, e) < 0)
		return -1;
	char *db = xasprintf("%sculprit/session.db", repo_gitdir(r));
	struct stat st;
	if (stat(db, &st) < 0) {
		cerr_set(e, "no stored session in %s (run culprit first)", repo_gitdir(r));
		free(db);
		repo_free(r);
		return -1;
	}
	int rc = store_open(&s, db, e);
	free(db);
	repo_free(r);
	if (rc < 0)
		return -1;
	rc = store_session_latest(s, &id, &inputs, e);
	free(inputs);
	if (rc <= 0) {
		if (rc == 0)
			cerr_set(e, "no stored session to report");
		store_free(s);
		return -1;
	}
	char *good = store_get(s, id, "good_rev"), *bad = store_get(s, id, "bad_rev");
	char *build = store_get(s, id, "build"), *test = store_get(s, id, "test");
	char *pattern = store_get(s, id, "fail_pattern"), *repeat = store_get(s, id, "repeat");
	char *bt = store_get(s, id, "build_timeout"), *tt = store_get(s, id, "test_timeout");
	char *suite = store_get(s, id, "suite"), *cov = store_get(s, id, "coverage_build");
	char *jobs = store_get(s, id, "jobs"), *cflags = store_get(s, id, "cflags");
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
			.cflags = cflags && cflags[0] ? cflags : NULL,
		};
		rc = explain_open(out, &o, NULL, e);
	}
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
	return rc;
}

static void list_release(struct explain_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

void explain_free(struct explain *x)
{
	if (!x)
		return;
	if (x->set && (!x->p || x->set != x->p->full))
		change_set_free(x->set);
	if (x->p) {
		why_free(x->p->why);
		coverage_release(&x->p->cov);
		workspace_free(x->p->ws);
		change_set_free(x->p->full);
		oracle_free(x->p->oracle);
		store_free(x->p->store);
		repo_free(x->p->repo);
		free(x->p->sessdir);
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
	list_release(&x->inducing);
	list_release(&x->fix);
	list_release(&x->aux);
	free(x->marks);
	free(x->commits);
	free(x->commit_verdict);
	free(x->signature);
	free(x->note);
	free(x->activity);
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
	refine_release(&x->refine);
	comss_release(&x->faults);
	free(x->faults_note);
	interact_release(&x->interact);
	free(x->interact_note);
	pthread_mutex_destroy(&x->lock);
	free(x);
}

/* ------------------------------------------------- testing a configuration */

static int ensure_workspace(struct explain *x, const char *base, struct cerr *e)
{
	if (x->p->ws && !strcmp(x->p->ws_base, base))
		return 0;
	workspace_free(x->p->ws);
	x->p->ws = NULL;
	char *dir = xasprintf("%sculprit/wt-%.12s", x->gitdir, base);
	int rc = workspace_open(&x->p->ws, x->p->repo, dir, base, e);
	free(dir);
	if (rc < 0)
		return -1;
	memcpy(x->p->ws_base, base, 41);
	return 0;
}

static void on_output(void *priv, const char *data, size_t len)
{
	struct explain *x = priv;
	if (x->hooks.output)
		x->hooks.output(x->hooks.priv, data, len);
}

/* The last lines of an output, at most EXCERPT_MAX bytes. */
static char *tail_excerpt(const struct buf *out)
{
	size_t from = out->len > EXCERPT_MAX ? out->len - EXCERPT_MAX : 0;
	while (from > 0 && out->s[from - 1] != '\n')
		from++;
	return xstrndup(out->s ? out->s + from : "", out->len - from);
}

static int was_stopped(const struct explain *x)
{
	return x->hooks.cancel && *x->hooks.cancel;
}

/* Build and test the worktree as it is now. expected NULL: the bad revision,
 * whose failure becomes the signature. Fills o (not its key or label). */
/* Run a build command in dir (counted, shown as the activity). */
static int run_build(struct explain *x, const char *dir, const char *cmd, const char *what, const char *const *env,
		     struct run_result *r, struct cerr *e)
{
	struct run_opts ro = {.cmd = cmd, .cwd = dir, .timeout = x->opts.build_timeout, .cancel = x->hooks.cancel,
			      .on_output = on_output, .priv = x, .env = env};
	set_activity(x, xasprintf("%s: %s", what, cmd));
	if (run_command(&ro, r, e) < 0)
		return -1;
	x->builds++;
	return 0;
}

/* What a failed build says: its first compiler error, or that it timed out. */
static char *build_error(const struct explain *x, const struct run_result *r)
{
	return r->status == RUN_TIMEOUT ? run_describe(r, x->opts.build_timeout)
					: oracle_build_error(r->out.s ? r->out.s : "");
}

static int build_and_test(struct explain *x, const char *expected, struct outcome *o, struct cerr *e)
{
	const char *dir = workspace_path(x->p->ws);
	struct run_opts ro = {.cwd = dir, .cancel = x->hooks.cancel, .on_output = on_output, .priv = x};
	struct run_result r;

	if (x->build[0]) {
		if (run_build(x, dir, x->build, "building", NULL, &r, e) < 0)
			return -1;
		o->build_seconds = r.seconds;
		if (r.status == RUN_CANCELLED) {
			run_result_release(&r);
			return ABORT_STOPPED;
		}
		if (r.status != RUN_EXITED || r.code != 0) {
			o->verdict = VERDICT_UNRESOLVED;
			o->why = r.status == RUN_TIMEOUT ? WHY_BUILD_TIMEOUT : WHY_BUILD;
			o->excerpt = build_error(x, &r);
			run_result_release(&r);
			return 0;
		}
		run_result_release(&r);
	}

	ro.cmd = x->opts.test;
	ro.timeout = x->opts.test_timeout;
	set_activity(x, xasprintf("testing: %s", x->opts.test));
	for (int i = 0; i < x->opts.repeat; i++) {
		if (run_command(&ro, &r, e) < 0)
			return -1;
		if (r.status == RUN_CANCELLED) {
			run_result_release(&r);
			return ABORT_STOPPED;
		}
		enum unresolved_why why = WHY_NONE;
		char *sig = NULL;
		enum verdict v = oracle_judge(x->p->oracle, expected, &r, &why, &sig);
		if (!expected && sig) {
			v = VERDICT_FAIL;   /* at the bad revision, any failure is the failure */
			why = WHY_NONE;
		}
		o->test_seconds += r.seconds;
		o->runs++;
		if (i == 0) {
			o->verdict = v;
			o->why = why;
			o->signature = sig;
			free(o->excerpt);
			o->excerpt = r.status == RUN_TIMEOUT ? run_describe(&r, ro.timeout) : tail_excerpt(&r.out);
		} else {
			if ((int)v != o->verdict || (sig && o->signature && strcmp(sig, o->signature)))
				o->flaky = 1;
			free(sig);
		}
		run_result_release(&r);
	}
	if (o->flaky) {
		o->verdict = VERDICT_UNRESOLVED;
		o->why = WHY_FLAKY;
	}
	return 0;
}

static void remember_config(struct explain *x, const struct outcome *o, int stored)
{
	model_lock(x);
	x->configs = xrealloc(x->configs, (x->nconfigs + 1) * sizeof(*x->configs));
	struct explain_config *c = &x->configs[x->nconfigs++];
	memcpy(c->key, o->key, 41);
	c->label = xstrdup(o->label ? o->label : "");
	c->verdict = o->verdict;
	c->why = o->why;
	c->signature = dupe_or_null(o->signature);
	c->excerpt = dupe_or_null(o->excerpt);
	c->build_seconds = o->build_seconds;
	c->test_seconds = o->test_seconds;
	c->stored = stored;
	if (o->why == WHY_FLAKY)
		x->flaky++;
	model_unlock(x);
}

/* Test the configuration `applied` of set s (relative to s->old_rev): from
 * the session when it was tested before, else built and tested now. */
static int test_config(struct explain *x, const struct change_set *s, const struct bits *applied,
		       const char *label, const char *expected, struct outcome *o, struct cerr *e)
{
	memset(o, 0, sizeof(*o));
	config_key(s, applied, o->key);
	for (size_t i = 0; i < x->nconfigs; i++)
		if (!strcmp(x->configs[i].key, o->key)) {
			const struct explain_config *c = &x->configs[i];
			o->label = xstrdup(c->label);
			o->verdict = c->verdict;
			o->why = c->why;
			o->signature = dupe_or_null(c->signature);
			o->excerpt = dupe_or_null(c->excerpt);
			return 0;
		}
	int found = store_outcome_get(x->p->store, x->p->session, o->key, o, e);
	if (found < 0)
		return -1;
	if (found) {
		x->stored_hits++;
		remember_config(x, o, 1);
		return 0;
	}
	if (x->opts.replay)
		return cerr_set(e, "the stored session is not finished (%s was not tested yet); run culprit again to finish it",
				label);
	if (was_stopped(x))
		return ABORT_STOPPED;
	if (x->p->stopping)
		return DD_STOP;
	int g = x->hooks.gate ? x->hooks.gate(x->hooks.priv, label) : 0;
	if (g < 0)
		return ABORT_STOPPED;
	if (g > 0) {
		x->p->stopping = 1;   /* unwind every search with its best answer */
		return DD_STOP;
	}

	o->label = xstrdup(label);
	size_t written = 0;
	if (ensure_workspace(x, s->old_rev, e) < 0 || workspace_apply(x->p->ws, s, applied, &written, e) < 0)
		return -1;
	double t0 = now_seconds();
	int rc = build_and_test(x, expected, o, e);
	set_activity(x, NULL);
	if (rc < 0)
		return rc;
	if (store_outcome_put(x->p->store, x->p->session, o, e) < 0)
		return -1;
	remember_config(x, o, 0);
	event(x, "CONFIG_TESTED", "%s: %s%s%s (%.1fs, %zu file%s written)", label, verdict_name(o->verdict),
	      o->why ? ", " : "", why_name(o->why), now_seconds() - t0, written, written == 1 ? "" : "s");
	return 0;
}

/* ------------------------------------------------------------------ premise */

static int check_premise(struct explain *x, struct cerr *e)
{
	const struct change_set *s = x->p->full;
	struct bits *all = bits_new(s->natoms), *none = bits_new(s->natoms);
	struct outcome o;
	char g[13], b[13];
	int rc;

	short_hex(x->good, g);
	short_hex(x->bad, b);
	bits_fill(all);
	set_phase(x, PHASE_PREMISE);
	char *label = xasprintf("bad revision %s", b);
	rc = test_config(x, s, all, label, NULL, &o, e);
	free(label);
	if (rc < 0)
		goto out;
	if (o.why == WHY_BUILD || o.why == WHY_BUILD_TIMEOUT)
		rc = cerr_set(e, "the build fails at the bad revision %s: %s", b, o.excerpt ? o.excerpt : x->build);
	else if (o.signature && !strcmp(o.signature, "exit 127"))
		rc = cerr_set(e, "test command not found (exit 127 at the bad revision): %s", x->opts.test);
	else if (o.signature && !strcmp(o.signature, "exit 126"))
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
	outcome_release(&o);
	if (!x->opts.replay)
		store_set(x->p->store, x->p->session, "signature", x->signature, NULL);

	label = xasprintf("good revision %s", g);
	rc = test_config(x, s, none, label, x->signature, &o, e);
	free(label);
	if (rc < 0)
		goto out;
	if (o.why == WHY_BUILD || o.why == WHY_BUILD_TIMEOUT)
		rc = cerr_set(e, "the build fails at the good revision %s: %s", g, o.excerpt ? o.excerpt : x->build);
	else if (o.verdict != VERDICT_PASS)
		rc = cerr_set(e, "the test fails at the good revision %s (%s%s%s): it is not a regression", g,
			      o.signature ? o.signature : verdict_name(o.verdict), o.why ? ", " : "",
			      why_name(o.why));
	outcome_release(&o);
	if (rc == 0)
		event(x, "PREMISE_CHECKED", "the test passes at %s and fails at %s with %s", g, b, x->signature);
out:
	bits_free(all);
	bits_free(none);
	return rc;
}

/* ---------------------------------------------------------------- bisection */

struct bisect_ctx {
	struct explain *x;
	struct cerr *e;
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
	short_hex(x->commits[k], h);
	char *label = xasprintf("commit %s (%zu of %zu)", h, k, x->ncommits - 1);
	int rc = test_config(x, s, all, label, x->signature, &o, c->e);
	free(label);
	bits_free(all);
	change_set_free(s);
	if (rc < 0)
		return rc;
	x->commits_tested++;
	model_lock(x);
	x->commit_verdict[k] = (int)o.verdict;
	model_unlock(x);
	rc = o.verdict == VERDICT_PASS ? 0 : o.verdict == VERDICT_FAIL ? 1 : 2;
	outcome_release(&o);
	return rc;
}

static int bisect(struct explain *x, struct cerr *e)
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
		event(x, "NO_BISECTION", "good is not an ancestor of bad: searching the changes between the two trees");
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

	set_phase(x, PHASE_BISECT);
	struct bisect_ctx c = {x, e};
	int rc = dd_bisect(x->ncommits, bisect_test, &c, &x->lo, &x->hi);
	if (rc < 0 && rc != DD_STOP)
		return rc;
	char h[13];
	short_hex(x->commits[x->hi], h);
	if (rc == DD_STOP) {
		char l[13];
		short_hex(x->commits[x->lo], l);
		event(x, "STOPPED", "stopped: the failure came in %s..%s", l, h);
		return DD_STOP;
	}
	if (x->hi == x->lo + 1) {
		char *subject = repo_commit_subject(x->p->repo, x->commits[x->hi]);
		event(x, "COMMIT_BLAMED", "commit %s broke the test: %s", h, subject ? subject : "");
		free(subject);
	} else {
		char l[13];
		short_hex(x->commits[x->lo], l);
		event(x, "COMMIT_BLAMED", "the failure came in %s..%s (%zu commits that cannot be tested)", l, h,
		      x->hi - x->lo - 1);
	}
	return 0;
}

/* ------------------------------------------------------ searching changes */

static void units_add_atoms(const struct units *u, const size_t *units, size_t n, struct bits *b,
			    int value)
{
	for (size_t i = 0; i < n; i++)
		for (size_t a = u->start[units[i]]; a < u->start[units[i]] + u->len[units[i]]; a++)
			value ? bits_set(b, a) : bits_clear(b, a);
}

static void atom_name(const struct change_set *s, size_t atom, struct buf *b)
{
	const struct change_atom *a = &s->atoms[atom];
	if (a->sub)
		buf_addf(b, "%u.%u", s->changes[a->change].id, a->sub);
	else
		buf_addf(b, "%u", s->changes[a->change].id);
}

/* "3 5.2 8": the applied (or, with invert, the left out) changes and atoms. */
static void describe_atoms(const struct change_set *s, const struct bits *b, int invert, struct buf *out)
{
	size_t shown = 0;
	for (size_t c = 0; c < s->nchanges; c++) {
		const struct change *ch = &s->changes[c];
		size_t in = 0;
		for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
			in += (size_t)(bits_test(b, a) != invert);
		if (in == 0)
			continue;
		if (shown++ == 12) {
			buf_adds(out, " ...");
			return;
		}
		if (shown > 1)
			buf_addc(out, ' ');
		if (in == ch->natoms) {
			buf_addf(out, "%u", ch->id);
			continue;
		}
		int first = 1;
		for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
			if (bits_test(b, a) != invert) {
				if (!first)
					buf_addc(out, ' ');
				first = 0;
				atom_name(s, a, out);
			}
	}
	if (!shown)
		buf_adds(out, "none");
}

static void show_marks(struct explain *x, const struct bits *applied)
{
	model_lock(x);
	for (size_t c = 0; c < x->set->nchanges; c++) {
		const struct change *ch = &x->set->changes[c];
		int any = 0;
		for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
			any |= bits_test(applied, a);
		x->marks[c] = any ? MARK_APPLIED : MARK_REVERTED;
	}
	model_unlock(x);
}

/* Test the set's configuration `applied`; the verdict, or <0. */
static int test_atoms(struct search *sr, const struct bits *applied, int revert_view, enum unresolved_why *why)
{
	struct explain *x = sr->x;
	struct buf label = BUF_INIT;
	struct outcome o;

	buf_adds(&label, revert_view ? "bad without " : "good with ");
	describe_atoms(sr->s, applied, revert_view, &label);
	show_marks(x, applied);
	int rc = test_config(x, sr->s, applied, label.s, x->signature, &o, &x->p->err);
	buf_release(&label);
	if (rc < 0)
		return rc;
	rc = (int)o.verdict;
	if (why)
		*why = o.why;
	outcome_release(&o);
	return rc;
}

static int pred_inducing(void *priv, const size_t *units, size_t n)
{
	struct search *sr = priv;
	struct bits *b = bits_new(sr->s->natoms);
	units_add_atoms(sr->u, units, n, b, 1);
	int v = test_atoms(sr, b, 0, NULL);
	bits_free(b);
	return v < 0 ? v : v == VERDICT_FAIL ? 1 : v == VERDICT_UNRESOLVED ? 2 : 0;
}

static size_t *bits_list(const struct bits *b, size_t *n)
{
	size_t *v = xmalloc((bits_count(b) + 1) * sizeof(*v));
	*n = 0;
	for (size_t i = 0; i < b->n; i++)
		if (bits_test(b, i))
			v[(*n)++] = i;
	return v;
}

/* Does reverting these units from the failing commit make the test pass? */
static int pred_revert(void *priv, const size_t *units, size_t n)
{
	struct search *sr = priv;
	struct bits *b = bits_new(sr->s->natoms);
	bits_fill(b);
	units_add_atoms(sr->u, units, n, b, 0);
	int v = test_atoms(sr, b, 1, NULL);
	bits_free(b);
	return v < 0 ? v : v == VERDICT_PASS ? 1 : v == VERDICT_UNRESOLVED ? 2 : 0;
}

/* While searching auxiliary changes: does reverting sr->reverted (units)
 * and these units still build? */
static int pred_builds(void *priv, const size_t *units, size_t n)
{
	struct search *sr = priv;
	struct bits *b = bits_new(sr->s->natoms);
	bits_fill(b);
	units_add_atoms(sr->u, sr->reverted, sr->nreverted, b, 0);
	units_add_atoms(sr->u, units, n, b, 0);
	enum unresolved_why why = WHY_NONE;
	int v = test_atoms(sr, b, 1, &why);
	bits_free(b);
	return v < 0 ? v : why != WHY_BUILD && why != WHY_BUILD_TIMEOUT;
}

/* Split a minimal fix R (units of sr->u) into causes and auxiliary units: a
 * unit is a cause when reverting R without it still fails; the auxiliary
 * units are the fewest of the others that reverting the causes needs to
 * build. 1 when split (causes and aux filled, as atoms), 0 when the units
 * of R cannot be told apart at this level, <0 on abort. */
static int split_fix(struct search *sr, const size_t *R, size_t nr, struct bits *causes, struct bits *aux)
{
	size_t *c = xmalloc((nr + 1) * sizeof(*c)), *rest = xmalloc((nr + 1) * sizeof(*rest));
	size_t nc = 0, nrest = 0;
	int rc = 0;

	for (size_t i = 0; i < nr; i++) {
		size_t k = 0;
		for (size_t j = 0; j < nr; j++)
			if (j != i)
				rest[k++] = R[j];
		rc = nr == 1 ? 0 : pred_revert(sr, rest, k);
		if (rc < 0)
			goto out;
		if (rc == 0)
			c[nc++] = R[i];   /* without it the test still fails: a cause */
	}
	if (nc == 0)
		goto out;
	for (size_t i = 0; i < nr; i++) {
		int in = 0;
		for (size_t j = 0; j < nc; j++)
			in |= c[j] == R[i];
		if (!in)
			rest[nrest++] = R[i];
	}
	size_t *a = xmalloc((nrest + 1) * sizeof(*a)), na = 0;
	rc = nrest ? pred_builds(&(struct search){.x = sr->x, .s = sr->s, .u = sr->u, .reverted = c, .nreverted = nc},
				 NULL, 0)
		   : 1;
	if (rc == 0) {
		struct search sub = *sr;
		sub.reverted = c;
		sub.nreverted = nc;
		rc = dd_minimize(rest, nrest, pred_builds, &sub, a, &na);
	} else if (rc == 1) {
		rc = 0;
	}
	if (rc < 0) {
		free(a);
		goto out;
	}
	units_add_atoms(sr->u, c, nc, causes, 1);
	units_add_atoms(sr->u, a, na, aux, 1);
	free(a);
	rc = 1;
out:
	free(c);
	free(rest);
	return rc;
}

static void to_items(const struct change_set *s, const struct bits *b, struct explain_list *l)
{
	list_release(l);
	l->v = xmalloc((s->natoms + 1) * sizeof(*l->v));
	for (size_t c = 0; c < s->nchanges; c++) {
		const struct change *ch = &s->changes[c];
		size_t in = 0;
		for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
			in += (size_t)bits_test(b, a);
		if (in == ch->natoms && in > 0) {
			l->v[l->n++] = (struct explain_item){c, -1};
			continue;
		}
		for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
			if (bits_test(b, a))
				l->v[l->n++] = (struct explain_item){c, (long)a};
	}
}

/* How strong the border between two units is: for changes, 2 another
 * file, 1 another function; for atoms, 2 another hunk, 1 another line. */
static int border(void *priv, size_t a, size_t b)
{
	struct search *sr = priv;
	const struct change_set *s = sr->s;
	size_t atom_a = sr->u->start[a], atom_b = sr->u->start[b];
	const struct change_atom *x = &s->atoms[atom_a], *y = &s->atoms[atom_b];
	const struct change *cx = &s->changes[x->change], *cy = &s->changes[y->change];
	if (sr->u->len[a] == 1 && sr->u->len[b] == 1 && s->natoms != s->nchanges && sr->u->n == s->natoms)
		return cx != cy ? 2 : x->old_line != y->old_line;
	struct explain *ex = sr->x;
	if (sr->u->n == s->nchanges && ex->interacted && ex->interact.group[x->change] >= 0 &&
	    ex->interact.group[x->change] == ex->interact.group[y->change])
		return -1;   /* interacting changes: split them last */
	if (cx->file != cy->file)
		return 2;
	return strcmp(cx->function ? cx->function : "", cy->function ? cy->function : "") != 0;
}

/* Minimize over units `cand` of table u with predicate p: the result as
 * units (out, room for n) and as atoms (result). */
static int minimize(struct search *sr, const struct units *u, const size_t *cand, size_t n, dd_pred p,
		    size_t *out, size_t *nout, struct bits *result)
{
	sr->u = u;
	int rc = dd_minimize_hier(cand, n, p, border, sr, out, nout);
	if (rc == 0 || rc == DD_STOP)
		units_add_atoms(u, out, *nout, result, 1);
	return rc;
}

static void units_init(struct units *u, size_t n)
{
	u->n = n;
	u->start = xmalloc((n + 1) * sizeof(*u->start));
	u->len = xmalloc((n + 1) * sizeof(*u->len));
}

static void units_release(struct units *u)
{
	free(u->start);
	free(u->len);
}

static void finish_marks(struct explain *x)
{
	model_lock(x);
	for (size_t c = 0; c < x->set->nchanges; c++)
		x->marks[c] = MARK_APPLIED;   /* not a cause: it stays as the bad revision has it */
	for (size_t i = 0; i < x->aux.n; i++)
		x->marks[x->aux.v[i].change] = MARK_AUX;
	for (size_t i = 0; i < x->fix.n; i++)
		x->marks[x->fix.v[i].change] = MARK_FIX;
	for (size_t i = 0; i < x->inducing.n; i++)
		x->marks[x->inducing.v[i].change] = x->inducing.n > 1 ? MARK_INTERACTING : MARK_INDUCING;
	model_unlock(x);
}

/* The search at one level (changes or atoms) over candidate units cand. */
struct level {
	struct bits *inducing, *revert, *causes, *aux;
	int split;      /* the fix could be split into causes and auxiliary units */
};

static void level_init(struct level *l, size_t natoms)
{
	l->inducing = bits_new(natoms);
	l->revert = bits_new(natoms);
	l->causes = bits_new(natoms);
	l->aux = bits_new(natoms);
	l->split = 0;
}

static void level_release(struct level *l)
{
	bits_free(l->inducing);
	bits_free(l->revert);
	bits_free(l->causes);
	bits_free(l->aux);
}

static int search_level(struct explain *x, struct search *sr, const struct units *u, const size_t *ind_cand,
			size_t nind, const size_t *rev_cand, size_t nrev, struct level *l, int *stopped)
{
	size_t n = nind > nrev ? nind : nrev;
	size_t *out = xmalloc((n + 1) * sizeof(*out)), nout = 0;
	struct buf d = BUF_INIT;
	const char *lvl = u->n == sr->s->natoms && sr->s->natoms != sr->s->nchanges ? " (token level)" : "";
	int rc;

	set_phase(x, lvl[0] ? PHASE_REFINE : PHASE_INDUCING);
	rc = minimize(sr, u, ind_cand, nind, pred_inducing, out, &nout, l->inducing);
	if (rc == DD_STOP)
		*stopped = 1;
	else if (rc < 0)
		goto out;
	describe_atoms(sr->s, l->inducing, 0, &d);
	event(x, "INDUCING_FOUND", "failure-inducing%s: %s%s", lvl, d.s, *stopped ? " (stopped, not minimal)" : "");
	if (*stopped) {
		rc = 0;
		goto out;
	}

	set_phase(x, lvl[0] ? PHASE_REFINE : PHASE_FIX);
	/* Most often reverting the failure-inducing changes fixes the test:
	 * then the fix lies among them, and the search stays that small. */
	size_t *finducing = xmalloc((nout + 1) * sizeof(*finducing)), nfi = nout;
	memcpy(finducing, out, nout * sizeof(*out));
	rc = nfi < nrev ? pred_revert(sr, finducing, nfi) : 0;
	if (rc == 1)
		rc = minimize(sr, u, finducing, nfi, pred_revert, out, &nout, l->revert);
	else if (rc >= 0 || rc == 2)
		rc = minimize(sr, u, rev_cand, nrev, pred_revert, out, &nout, l->revert);
	free(finducing);
	if (rc == DD_STOP) {
		*stopped = 1;
		bits_free(l->causes);
		l->causes = bits_dup(l->revert);
		rc = 0;
		goto out;
	}
	if (rc < 0)
		goto out;
	rc = split_fix(sr, out, nout, l->causes, l->aux);
	if (rc == DD_STOP) {
		*stopped = 1;
		rc = 0;
	}
	if (rc < 0)
		goto out;
	l->split = rc == 1;
	buf_reset(&d);
	describe_atoms(sr->s, l->split ? l->causes : l->revert, 0, &d);
	buf_adds(&d, " makes the test pass (auxiliary: ");
	describe_atoms(sr->s, l->aux, 0, &d);
	buf_adds(&d, l->split ? ")" : "; causes and build needs cannot be told apart here)");
	event(x, "FIX_FOUND", "fix%s: reverting %s", lvl, d.s);
	rc = 0;
out:
	free(out);
	buf_release(&d);
	return rc;
}

/* Keep the changes being searched in the session, one JSON object each. */
static int store_changes(struct explain *x, const struct change_set *s, struct cerr *e)
{
	static const char *const kinds[] = {"hunk", "file added", "file deleted", "file renamed",
					    "mode changed", "binary file changed"};
	char **ids = xcalloc(s->nchanges + 1, sizeof(*ids)), **json = xcalloc(s->nchanges + 1, sizeof(*json));
	for (size_t i = 0; i < s->nchanges; i++) {
		const struct change *c = &s->changes[i];
		const struct change_file *f = &s->files[c->file];
		struct buf b = BUF_INIT;
		ids[i] = xasprintf("%u", c->id);
		buf_addf(&b, "{\"id\": \"%u\", \"kind\": \"%s\", \"commit\": \"%s\", \"file\": ", c->id, kinds[c->kind],
			 s->new_rev);
		json_str(&b, f->new_path);
		buf_adds(&b, ", \"old_file\": ");
		json_str(&b, f->old_path);
		buf_adds(&b, ", \"function\": ");
		json_str(&b, c->function ? c->function : "");
		buf_addf(&b, ", \"old_start\": %d, \"old_lines\": %d, \"new_start\": %d, \"new_lines\": %d, \"pieces\": %zu}",
			 c->old_start, c->old_lines, c->new_start, c->new_lines, c->natoms);
		json[i] = buf_detach(&b);
	}
	int rc = store_changes_put(x->p->store, x->p->session, (const char *const *)ids, (const char *const *)json,
				   s->nchanges, e);
	for (size_t i = 0; i < s->nchanges; i++) {
		free(ids[i]);
		free(json[i]);
	}
	free(ids);
	free(json);
	return rc;
}

static int search_changes(struct explain *x, struct cerr *e)
{
	struct change_set *s = x->p->full;
	if (x->lo != 0 || x->hi != x->ncommits - 1) {
		if (repo_diff(x->p->repo, x->commits[x->lo], x->commits[x->hi], &s, e) < 0)
			return -1;
	}
	model_lock(x);
	x->set = s;
	x->marks = xcalloc(s->nchanges + 1, sizeof(*x->marks));
	model_unlock(x);
	if (!x->opts.replay && store_changes(x, s, e) < 0)
		return -1;
	if (s->nchanges == 0) {
		x->note = xstrdup("the culprit commit changes no file");
		return 1;
	}
	explain_interact(x);

	struct units cu, au;
	units_init(&cu, s->nchanges);
	for (size_t c = 0; c < s->nchanges; c++) {
		cu.start[c] = s->changes[c].atom0;
		cu.len[c] = s->changes[c].natoms;
	}
	units_init(&au, s->natoms);
	for (size_t a = 0; a < s->natoms; a++) {
		au.start[a] = a;
		au.len[a] = 1;
	}
	size_t *all = xmalloc((s->nchanges + 1) * sizeof(*all)), nall = 0;
	/* Interacting changes next to each other, in one partition where it costs nothing (border). */
	for (size_t c = 0; c < s->nchanges; c++) {
		long g = x->interacted ? x->interact.group[c] : -1;
		if (g >= 0 && (size_t)g != c)
			continue;   /* placed with its group's first */
		all[nall++] = c;
		for (size_t k = c + 1; g >= 0 && k < s->nchanges; k++)
			if (x->interact.group[k] == g)
				all[nall++] = k;
	}

	struct search sr = {.x = x, .s = s};
	struct level hl, tl;
	struct bits *ind = NULL, *fix = NULL, *aux = bits_new(s->natoms);
	int stopped = 0, rc;
	level_init(&hl, s->natoms);
	level_init(&tl, s->natoms);

	rc = search_level(x, &sr, &cu, all, s->nchanges, all, s->nchanges, &hl, &stopped);
	if (rc < 0)
		goto out;
	ind = bits_dup(hl.inducing);
	fix = bits_dup(hl.split ? hl.causes : hl.revert);
	if (hl.split)
		bits_or(aux, hl.aux);

	/* Hunks that cannot be told apart (the fix needs auxiliary changes, or
	 * the failure needs more than the fix): go to token level inside them. */
	int splittable = 0;
	for (size_t c = 0; c < s->nchanges; c++)
		if (s->changes[c].natoms > 1 &&
		    (bits_test(hl.inducing, s->changes[c].atom0) || bits_test(hl.revert, s->changes[c].atom0)))
			splittable = 1;
	int entangled = !hl.split || bits_count(hl.aux) > 0 || !bits_equal(hl.inducing, hl.causes);
	/* Token pieces of large rewrites mostly give configurations that do not
	 * build: past a budget, the hunk-level answer is the answer. */
	struct bits *both = bits_dup(hl.inducing);
	bits_or(both, hl.revert);
	size_t pieces = bits_count(both);
	bits_free(both);
	if (splittable && entangled && !stopped && pieces > REFINE_MAX_ATOMS) {
		event(x, "REFINE_SKIPPED", "not refined to tokens: %zu pieces is more than %d", pieces, REFINE_MAX_ATOMS);
		splittable = 0;
	}
	if (splittable && entangled && !stopped) {
		size_t ni, nr;
		size_t *ic = bits_list(hl.inducing, &ni), *rc_ = bits_list(hl.revert, &nr);
		rc = search_level(x, &sr, &au, ic, ni, rc_, nr, &tl, &stopped);
		free(ic);
		free(rc_);
		if (rc < 0)
			goto out;
		bits_free(ind);
		ind = bits_dup(tl.inducing);
		if (tl.split) {
			/* When the hunk-level fix only built as a whole, what it
			 * carried beyond the token-level causes is what the build
			 * needs with them: auxiliary. */
			bits_free(fix);
			fix = bits_dup(tl.causes);
			bits_zero(aux);
			if (!hl.split)
				bits_or(aux, hl.revert);
			bits_or(aux, hl.aux);
			bits_or(aux, tl.aux);
			for (size_t a = 0; a < s->natoms; a++)
				if (bits_test(fix, a))
					bits_clear(aux, a);
		}
		x->refined = 1;
	}
	/* Changes the failure needs only to build are auxiliary, not causes. */
	struct bits *causes = bits_dup(ind);
	for (size_t a = 0; a < s->natoms; a++)
		if (bits_test(aux, a))
			bits_clear(causes, a);
	if (bits_count(causes) > 0) {
		bits_free(ind);
		ind = causes;
	} else {
		bits_free(causes);
	}
	model_lock(x);
	to_items(s, ind, &x->inducing);
	to_items(s, fix, &x->fix);
	to_items(s, aux, &x->aux);
	x->explained = x->inducing.n > 0;
	if (stopped) {
		free(x->note);
		x->note = xstrdup("the search was stopped: these sets are the best found so far, not minimal");
	} else if (!hl.split && !tl.split) {
		free(x->note);
		x->note = xstrdup("the fix's changes only build together: culprit could not tell causes from build needs");
	}
	model_unlock(x);
	finish_marks(x);
	rc = 0;
out:
	if (rc < 0 && rc != ABORT_STOPPED && x->p->err.msg[0])
		cerr_set(e, "%s", x->p->err.msg);
	level_release(&hl);
	level_release(&tl);
	bits_free(ind);
	bits_free(fix);
	bits_free(aux);
	free(all);
	units_release(&cu);
	units_release(&au);
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


/* ------------------------------------------------------------- ranking */

#define DEFAULT_COVERAGE_BUILD "make CFLAGS=\"-O0 -g --coverage -include $CULPRIT_GCOV_FLUSH\" LDFLAGS=--coverage"

/* Included in every file of the coverage build (through $CULPRIT_GCOV_FLUSH):
 * a test that crashes or fails an assert still leaves its coverage, since
 * gcov only writes its counts at exit. */
static const char gcov_flush_header[] =
	"/* written by culprit: dump coverage counts when a test dies by a signal */\n"
	"#include <signal.h>\n"
	"extern void __gcov_dump(void);\n"
	"static void culprit_gcov_on_signal(int sig)\n"
	"{\n"
	"\t__gcov_dump();\n"
	"\tsignal(sig, SIG_DFL);\n"
	"\traise(sig);\n"
	"}\n"
	"__attribute__((constructor)) static void culprit_gcov_catch(void)\n"
	"{\n"
	"\tstatic const int sigs[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTERM};\n"
	"\tfor (unsigned i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)\n"
	"\t\tsignal(sigs[i], culprit_gcov_on_signal);\n"
	"}\n";
#define FAILING_TEST_NAME "(the failing test)"

/* Where a test's result at a revision is kept: by kind, revision, name and command. */
static char *run_key(const char *kind, const char *rev, const struct suite_test *t)
{
	char h[41];
	repo_hash(t->cmd, strlen(t->cmd), h);
	return xasprintf("run.%s.%.12s.%s.%.12s", kind, rev, t->name, h);
}

/* Build dir's tree with cmd; 0, or an error naming the command. */
static int build_for_suite(struct explain *x, const char *dir, const char *cmd, const char *what, struct cerr *e)
{
	if (!cmd[0])
		return 0;
	char *header = xasprintf("%sgcov-flush.h", x->p->sessdir);
	char *env0 = xasprintf("CULPRIT_GCOV_FLUSH=%s", header);
	const char *env[] = {env0, NULL};
	/* Written once: a newer header would make gcov warn about every object. */
	struct buf have = BUF_INIT;
	int same = file_read(header, &have, 1 << 16, NULL) == 0 && have.len == sizeof(gcov_flush_header) - 1 &&
		   !memcmp(have.s, gcov_flush_header, have.len);
	buf_release(&have);
	int wrote = same ? 0 : file_write_atomic(header, gcov_flush_header, sizeof(gcov_flush_header) - 1, 0644, e);
	free(header);
	if (wrote < 0) {
		free(env0);
		return -1;
	}
	struct run_result r;
	char *label = xasprintf("building %s", what);
	int ran = run_build(x, dir, cmd, label, env, &r, e);
	free(label);
	free(env0);
	if (ran < 0)
		return -1;
	set_activity(x, NULL);
	int rc = 0;
	if (r.status == RUN_CANCELLED)
		rc = ABORT_STOPPED;
	else if (r.status != RUN_EXITED || r.code != 0) {
		char *err = build_error(x, &r);
		rc = cerr_set(e, "the %s build failed (%s): %s", what, cmd, err ? err : "no output");
		free(err);
	}
	run_result_release(&r);
	return rc;
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
		rc = build_for_suite(x, dir, build, !strncmp(kind, "coverage", 8) ? "coverage" : "good revision's", e);
		struct coverage c;
		char *runs = xasprintf("%sruns-%s", x->p->sessdir, kind);
		if (rc == 0) {
			int jobs = x->opts.jobs > 0 ? x->opts.jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
			set_activity(x, xasprintf("running %zu tests (%s)", missing.n, kind));
			rc = coverage_collect(&c, dir, runs, &missing, jobs, x->opts.test_timeout, x->hooks.cancel, e);
			set_activity(x, NULL);
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
			event(x, "TESTS_RUN", "%zu tests run at %.12s (%s)", missing.n, rev, kind);
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

/* The suite file, with the failing test added when the suite lacks it: it
 * counts as failing even if the suite has no failing test. */
static int load_suite(struct explain *x, struct suite *s, struct cerr *e)
{
	if (x->opts.suite && suite_load(s, x->opts.suite, e) < 0)
		return -1;
	if (!x->opts.suite)
		memset(s, 0, sizeof(*s));
	/* The tests approved in refinement join it. */
	char *approved = store_get(x->p->store, x->p->session, "refine.approved");
	if (approved && approved[0]) {
		struct suite more;
		if (suite_parse(&more, approved, "the approved tests", e) < 0) {
			free(approved);
			suite_release(s);
			return -1;
		}
		s->v = xrealloc(s->v, (s->n + more.n + 1) * sizeof(*s->v));
		memcpy(s->v + s->n, more.v, more.n * sizeof(*s->v));
		s->n += more.n;
		free(more.v);
	}
	free(approved);
	int has_failing = 0;
	for (size_t i = 0; i < s->n; i++)
		has_failing |= !strcmp(s->v[i].cmd, x->opts.test);
	if (!has_failing) {
		s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
		s->v[s->n++] = (struct suite_test){xstrdup(FAILING_TEST_NAME), xstrdup(x->opts.test), 0};
	}
	return 0;
}

/* Coverage results and worktrees go by coverage build command too: another
 * command, other objects and other counts. */
static const char *coverage_build_of(const struct explain *x, char hash[41])
{
	const char *cbuild = x->opts.coverage_build ? x->opts.coverage_build : DEFAULT_COVERAGE_BUILD;
	repo_hash(cbuild, strlen(cbuild), hash);
	return cbuild;
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
 * an approved failing test rated lower (refine.unboosted). Under the lock. */
static void boost(struct explain *x)
{
	char *off = store_get(x->p->store, x->p->session, "refine.unboosted");
	size_t n = 0, cap = 0;
	char **files = NULL;
	int *lines = NULL;
	for (size_t k = 0; k < x->tree.n; k++)
		for (size_t i = 0; i < x->tree.nodes[k].nstmts; i++) {
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
}

/* The ranking from the stored results of the suite's runs. */
static int rank_stored(struct explain *x, const struct suite *s, int quiet, struct cerr *e)
{
	struct coverage good = {0}, cov = {0};
	char ch[41];
	coverage_build_of(x, ch);
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
					event(x, "TEST_LEFT_OUT", "test %s fails at the good revision too: left out",
					      s->v[i].name);
			} else if (cov.runs[i].status == COV_UNRESOLVED) {
				unresolved++;
			} else {
				counted[i] = 1;
			}
		}
		model_lock(x);
		rank_release(&x->ranking);
		rank_compute(&x->ranking, &cov, counted, x->p->full, (enum spectra_formula)x->opts.formula,
			     x->opts.changed_only);
		boost(x);
		x->tests = s->n;
		x->tests_failing_at_good = at_good;
		x->tests_unresolved = unresolved;
		x->ranked = 1;
		attach_sources(x);
		model_unlock(x);
		free(counted);
		if (!quiet)
			event(x, "RANKED", "%zu lines ranked (%s) from %d failing and %d passing tests", x->ranking.n,
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

static int rank_suite(struct explain *x, struct cerr *e)
{
	struct suite s;
	int rc;
	set_phase(x, PHASE_RANK);
	if (load_suite(x, &s, e) < 0)
		return -1;
	/* Which tests fail at the good revision too: they are not about this regression. */
	rc = ensure_workspace(x, x->good, e);
	if (rc == 0) {
		struct bits *none = bits_new(x->p->full->natoms);
		rc = workspace_apply(x->p->ws, x->p->full, none, NULL, e);
		bits_free(none);
	}
	if (rc == 0)
		rc = suite_runs(x, "good", x->good, workspace_path(x->p->ws), x->build, &s, e);
	/* Coverage at the bad revision, in its own worktree. */
	char ch[41];
	const char *cbuild = coverage_build_of(x, ch);
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
		rc = rank_stored(x, &s, 0, e);
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
	if (load_suite(x, &s, e) < 0)
		return -1;
	int rc = rank_stored(x, &s, 1, e);
	suite_release(&s);
	return rc;
}

/* ---------------------------------------------------------- fault sets */

static double faults_susp(void *priv, const char *file, int line)
{
	struct explain *x = priv;
	const struct rank_entry *r = rank_find(&x->ranking, file, line);
	return r ? r->raw : 0;
}

static int faults_forced(void *priv, unsigned site, unsigned instance, int outcome, struct trace *out,
			 struct cerr *e)
{
	struct explain *x = priv;
	set_activity(x, xasprintf("fault sets: the failing run with branch %u forced", site));
	int rc = why_run_forced(x->p->why, site, instance, outcome, out, e);
	set_activity(x, NULL);
	return rc;
}

static void faults_release(void *priv, struct trace *t)
{
	(void)priv;
	trace_release(t);
}

/* The MaxSAT fault sets of the failing run, weighted by the ranking when
 * there is one, widened on demand; stored in the session. */
static int explain_faults(struct explain *x, struct cerr *e)
{
	const struct expect *fx;
	size_t nfx = x->p->why ? why_failure(x->p->why, &fx) : 0;
	const struct trace *t = x->trace;
	if (!t || !nfx) {
		char *stored = store_get(x->p->store, x->p->session, "why.faults");
		struct comss_result r;
		struct cerr je;
		if (stored && comss_from_json(&r, stored, strlen(stored), &je) == 0) {
			model_lock(x);
			comss_release(&x->faults);
			x->faults = r;
			x->faulted = 1;
			model_unlock(x);
		}
		free(stored);
		return 0;
	}
	struct comss_opts o = {.weighted = x->ranked, .ofc = 1, .susp = faults_susp, .forced = faults_forced,
			       .release = faults_release, .priv = x};
	struct comss_result r;
	struct cerr ce = {{0}};
	set_activity(x, xstrdup("fault sets: solving"));
	int rc = comss_run(t, fx, nfx, &o, &r, &ce);
	set_activity(x, NULL);
	if (rc < 0) {
		if (was_stopped(x))
			return ABORT_STOPPED;
		model_lock(x);
		free(x->faults_note);
		x->faults_note = xasprintf("no fault sets: %s", ce.msg);
		model_unlock(x);
		event(x, "FAULT_SETS", "%s", x->faults_note);
		(void)e;
		return 0;
	}
	struct buf j = BUF_INIT;
	comss_json(&r, &j);
	store_set(x->p->store, x->p->session, "why.faults", j.s, NULL);
	buf_release(&j);
	model_lock(x);
	comss_release(&x->faults);
	x->faults = r;
	x->faulted = 1;
	model_unlock(x);
	event(x, "FAULT_SETS", "%zu fault sets (MaxSAT%s; %d runs, %zu clauses, %.2fs)", r.n,
	      r.weighted ? ", weighted by suspiciousness" : "", r.paths, r.clauses, r.seconds);
	return 0;
}

/* ----------------------------------------------------------- refinement */

#define REFINE_CANDIDATES 12    /* new inputs generated and run per round */

static int refine_has_tests(struct explain *x)
{
	char *v = store_get(x->p->store, x->p->session, "refine.approved");
	int has = v && v[0];
	free(v);
	return has;
}

static void proposal_release(struct refine_proposal *p)
{
	free(p->name);
	free(p->input);
	free(p->cmd);
	free(p->test);
	free(p->branch);
	free(p->verdict);
	for (size_t i = 0; i < p->ncovered; i++)
		free(p->covered[i]);
	free(p->covered);
	memset(p, 0, sizeof(*p));
}

static void moves_release(struct explain_refine *r)
{
	for (size_t i = 0; i < r->nmoves; i++)
		free(r->moves[i].file);
	free(r->moves);
	r->moves = NULL;
	r->nmoves = 0;
}

static void refine_release(struct explain_refine *r)
{
	proposal_release(&r->cur);
	moves_release(r);
	free(r->note);
	memset(r, 0, sizeof(*r));
}

/* Append a line to a stored list. */
static int store_append(struct explain *x, const char *key, const char *line, struct cerr *e)
{
	char *old = store_get(x->p->store, x->p->session, key);
	char *v = xasprintf("%s%s\n", old ? old : "", line);
	int rc = store_set(x->p->store, x->p->session, key, v, e);
	free(old);
	free(v);
	return rc;
}


/* The program commands of the approved and rejected inputs. */
static char **refine_seen(struct explain *x, size_t *n)
{
	char *v = store_get(x->p->store, x->p->session, "refine.seen");
	char **out = NULL;
	*n = 0;
	for (char *p = v, *nl; p && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		out = xrealloc(out, (*n + 1) * sizeof(*out));
		out[(*n)++] = xstrndup(p, (size_t)(nl - p));
	}
	free(v);
	return out;
}

/* The good revision built plainly and the bad one built for coverage. */
static int refine_trees(struct explain *x, char **cdir, struct cerr *e)
{
	int rc = ensure_workspace(x, x->good, e);
	if (rc == 0) {
		struct bits *none = bits_new(x->p->full->natoms);
		rc = workspace_apply(x->p->ws, x->p->full, none, NULL, e);
		bits_free(none);
	}
	if (rc == 0 && x->build[0]) {
		struct run_result r;
		rc = run_build(x, workspace_path(x->p->ws), x->build, "building the good revision", NULL, &r, e);
		if (rc == 0 && (r.status != RUN_EXITED || r.code != 0))
			rc = cerr_set(e, "the good revision's build failed (%s)", x->build);
		if (rc == 0)
			run_result_release(&r);
		set_activity(x, NULL);
	}
	char ch[41];
	const char *cbuild = coverage_build_of(x, ch);
	*cdir = xasprintf("%swt-cov-%.12s-%.8s", x->p->sessdir, x->bad, ch);
	struct workspace *cw = NULL;
	if (rc == 0)
		rc = workspace_open(&cw, x->p->repo, *cdir, x->bad, e);
	workspace_free(cw);
	if (rc == 0)
		rc = build_for_suite(x, *cdir, cbuild, "coverage", e);
	return rc;
}

/* Run an input's command in dir (coverage counts of the bad tree go to scratch). */
static int run_input(struct explain *x, const char *dir, const char *cmd, struct run_result *r, struct cerr *e)
{
	char *scratch = xasprintf("GCOV_PREFIX=%srefine-gcov", x->p->sessdir);
	const char *env[] = {scratch, NULL};
	struct run_opts ro = {.cmd = cmd, .cwd = dir, .timeout = x->opts.test_timeout, .cancel = x->hooks.cancel,
			      .env = env};
	int rc = run_command(&ro, r, e);
	free(scratch);
	return rc;
}

/* The branch a candidate negates, described. */
static char *branch_text(const struct trace *t, uint32_t b)
{
	const struct msite *st = b < t->n ? trace_stmt_of(t, b) : NULL;
	if (!st)
		return xstrdup("");
	const char *file = st->file >= 0 && (size_t)st->file < t->m->nfiles ? t->m->files[st->file] : "?";
	return xasprintf("%s:%d %s, now %s", file, st->line, st->text ? st->text : "", t->ev[b].val ? "false" : "true");
}

struct cand {
	struct gen_input in;
	char *cmd, *sig;
	struct run_result good;
	int ran, failing, dropped;
	struct bits *hit;       /* over x->p->cov's lines */
	size_t unknown;         /* lines hit that no earlier run had as executable */
	size_t covers, fresh;   /* suspects covered; lines no earlier test hit */
	size_t seqs;            /* change sequences it runs through whole */
	long cov_run;           /* its run in the candidates' coverage */
};

static int run_hits(const struct coverage *cc, const struct cov_run *run, const char *file, int line)
{
	long at = coverage_find(cc, file, (uint32_t)line);
	return at >= 0 && bits_test(run->hit, (size_t)at);
}

/* The change sequences (change -> interaction location -> output) a run goes through whole. */
static size_t sequences_run(const struct explain *x, const struct coverage *cc, const struct cov_run *run)
{
	size_t n = 0;
	for (size_t i = 0; x->interacted && i < x->interact.nseqs; i++) {
		const struct ia_seq *q = &x->interact.seqs[i];
		const struct change *ch = &x->set->changes[q->change];
		int hit = 0;
		for (int l = ch->new_start; l < ch->new_start + (ch->new_lines ? ch->new_lines : 1) && !hit; l++)
			hit = run_hits(cc, run, x->set->files[ch->file].new_path, l);
		if (hit && q->loc >= 0)
			hit = run_hits(cc, run, x->interact.locs[q->loc].file, x->interact.locs[q->loc].line);
		if (hit)
			hit = run_hits(cc, run, q->out_file, q->out_line);
		n += hit;
	}
	return n;
}

/* The suspect list: lines a failing test executes. */
static int is_suspect(const struct explain *x, const char *file, int line)
{
	const struct rank_entry *r = rank_find(&x->ranking, file, line);
	return r && r->s.ef > 0;
}

int explain_refine_propose(struct explain *x, struct cerr *e)
{
	const struct trace *t = x->trace;
	model_lock(x);
	proposal_release(&x->refine.cur);
	free(x->refine.note);
	x->refine.note = NULL;
	x->refine.state = REFINE_WORKING;
	model_unlock(x);
	char *note = NULL;
	int rc = 0;
	if (!t)
		note = xstrdup(x->opts.semantic ? "refinement needs the failing run's trace, and the explainer left none"
						: "refinement needs the failing run's trace: run without --no-semantic");
	if (!note && !x->ranked && !x->opts.replay) {
		rc = rank_suite(x, e);   /* the failing test alone, when there is no suite */
		if (rc < 0)
			return -1;
	}
	const char *culprit = explain_culprit_commit(x) ? explain_culprit_commit(x) : x->commits[x->hi];
	char *root = xasprintf("%str-%.12s", x->p->sessdir, culprit);
	struct gen_input own = {0};
	struct cerr ge = {0};
	if (!note && gen_original(t, root, &own, &ge) < 0)
		note = xasprintf("no tests can be generated: %s", ge.msg);
	char *cdir = NULL, *sig0 = NULL, *own_cmd = NULL;
	double t0 = now_seconds(), gen_s = 0, solver_s = 0;
	size_t checks = 0;
	if (!note) {
		set_activity(x, xstrdup("refinement: building both revisions"));
		rc = refine_trees(x, &cdir, e);
	}
	/* The failing run's own input, run the way candidates run: its signature. */
	if (!note && rc == 0) {
		own_cmd = gen_command(&own);
		struct run_result g, b;
		set_activity(x, xasprintf("refinement: running %s", own_cmd));
		rc = run_input(x, workspace_path(x->p->ws), own_cmd, &g, e);
		if (rc == 0) {
			rc = run_input(x, cdir, own_cmd, &b, e);
			if (rc == 0) {
				sig0 = refine_signature(&g, &b);
				run_result_release(&b);
			}
			run_result_release(&g);
		}
		if (rc == 0 && !sig0)
			note = xasprintf("the failing run's input, run alone (%s), behaves the same at both revisions: "
					 "culprit cannot judge new inputs", own_cmd);
	}
	/* New inputs, preferring the critical predicates and the branches the causes ran under. */
	struct cand *c = NULL;
	size_t nc = 0;
	if (!note && rc == 0) {
		size_t np = 0;
		uint32_t *prefer = xmalloc((2 * 4096 + 2) * sizeof(*prefer));
		for (size_t k = 0; k < x->tree.n && np < 8192; k++) {
			if (x->tree.nodes[k].edge_ev < t->n)
				prefer[np++] = x->tree.nodes[k].edge_ev;
			for (size_t i = 0; i < x->tree.nodes[k].nstmts && np < 8192; i++) {
				uint32_t ev = x->tree.nodes[k].stmts[i].ev;
				if (ev < t->n && t->ctl[ev] != TRACE_NONE)
					prefer[np++] = t->ctl[ev];
			}
		}
		/* And the branches that lead to interaction locations. */
		for (size_t i = 0; x->interacted && i < t->n && np < 8192; i++) {
			const struct msite *st = t->ev[i].kind == TE_STMT ? trace_stmt_of(t, (uint32_t)i) : NULL;
			if (!st || t->ctl[i] == TRACE_NONE)
				continue;
			const char *file = st->file >= 0 && (size_t)st->file < t->m->nfiles ? t->m->files[st->file] : "";
			for (size_t k = 0; k < x->interact.nlocs; k++)
				if (x->interact.locs[k].line == st->line && !strcmp(x->interact.locs[k].file, file)) {
					prefer[np++] = t->ctl[i];
					break;
				}
		}
		size_t nseen = 0;
		char **seen = refine_seen(x, &nseen);
		struct gen_input *v = NULL;
		struct gen_stats st;
		set_activity(x, xstrdup("refinement: solving for new inputs"));
		rc = gen_candidates(t, root, prefer, np, REFINE_CANDIDATES, seen, nseen, &v, &nc, &st, e);
		for (size_t i = 0; i < nseen; i++)
			free(seen[i]);
		free(seen);
		free(prefer);
		x->refine.solver_seconds += st.seconds;
		x->refine.checks += st.checks;
		solver_s = st.seconds;
		checks = st.checks;
		if (rc == 0) {
			c = xcalloc(nc + 1, sizeof(*c));
			for (size_t i = 0; i < nc; i++) {
				c[i].in = v[i];
				c[i].cmd = gen_command(&v[i]);
				c[i].cov_run = -1;
			}
			free(v);
			event(x, "GENERATED", "%zu new inputs from %zu input-dependent branches (%zu solver calls, %.2fs)",
			      nc, st.branches, st.checks, st.seconds);
			if (!nc)
				note = xstrdup("no new input: every branch that depends on the inputs was negated already, "
					       "or cannot be");
		}
	}
	gen_s = now_seconds() - t0;
	x->refine.gen_seconds += gen_s;
	double t1 = now_seconds();
	/* Run each at both revisions: the good one is the oracle. */
	for (size_t i = 0; rc == 0 && !note && i < nc; i++) {
		struct run_result b;
		set_activity(x, xasprintf("refinement: running %s", c[i].cmd));
		rc = run_input(x, workspace_path(x->p->ws), c[i].cmd, &c[i].good, e);
		if (rc < 0)
			break;
		c[i].ran = 1;
		rc = run_input(x, cdir, c[i].cmd, &b, e);
		if (rc < 0)
			break;
		if (b.status == RUN_CANCELLED || c[i].good.status == RUN_CANCELLED)
			rc = ABORT_STOPPED;
		c[i].sig = refine_signature(&c[i].good, &b);
		c[i].failing = c[i].sig != NULL;
		if (c[i].failing && strcmp(c[i].sig, sig0)) {
			c[i].dropped = 1;
			x->refine.dropped++;
			event(x, "CANDIDATE_DROPPED", "%s fails differently (%s, not %s): another fault", c[i].cmd,
			      c[i].sig, sig0);
			store_append(x, "refine.seen", c[i].cmd, NULL);   /* not run again */
		}
		run_result_release(&b);
	}
	/* Their coverage at the bad revision. */
	struct coverage cc = {0};
	if (rc == 0 && !note && nc) {
		struct suite cs = {xcalloc(nc + 1, sizeof(struct suite_test)), 0};
		for (size_t i = 0; i < nc; i++)
			if (!c[i].dropped) {
				c[i].cov_run = (long)cs.n;
				cs.v[cs.n++] = (struct suite_test){xasprintf("candidate%zu", i), c[i].cmd, 0};
			}
		char *runs = xasprintf("%sruns-refine", x->p->sessdir);
		int jobs = x->opts.jobs > 0 ? x->opts.jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
		if (cs.n)
			rc = coverage_collect(&cc, cdir, runs, &cs, jobs, x->opts.test_timeout, x->hooks.cancel, e);
		remove_tree(runs, NULL);
		free(runs);
		for (size_t i = 0; i < cs.n; i++)
			free(cs.v[i].name);
		free(cs.v);
	}
	x->refine.run_seconds += now_seconds() - t1;
	set_activity(x, NULL);
	/* SAT-TAR's choice. */
	long best = -1;
	if (rc == 0 && !note) {
		const struct coverage *old = &x->p->cov;
		for (size_t i = 0; i < nc; i++) {
			if (c[i].dropped || c[i].cov_run < 0)
				continue;
			const struct cov_run *run = &cc.runs[c[i].cov_run];
			c[i].hit = bits_new(old->nlines + 1);
			for (size_t l = 0; l < cc.nlines; l++) {
				if (!bits_test(run->hit, l))
					continue;
				const char *file = cc.files[cc.lines[l].file];
				long at = coverage_find(old, file, cc.lines[l].line);
				if (at < 0)
					c[i].unknown++;
				else
					bits_set(c[i].hit, (size_t)at);
				c[i].covers += is_suspect(x, file, (int)cc.lines[l].line);
			}
			c[i].seqs = sequences_run(x, &cc, run);
			int same = 0;
			for (size_t r = 0; r < old->nruns && !same; r++)
				same = !c[i].unknown && bits_equal(c[i].hit, old->runs[r].hit);
			if (same || !c[i].covers)
				continue;   /* nothing the ranking can learn from */
			c[i].fresh = c[i].unknown;
			for (size_t l = 0; l < old->nlines; l++) {
				if (!bits_test(c[i].hit, l))
					continue;
				int any = 0;
				for (size_t r = 0; r < old->nruns && !any; r++)
					any = bits_test(old->runs[r].hit, l);
				c[i].fresh += !any;
			}
			if (best < 0)
				best = (long)i;
			else {
				const struct cand *b = &c[best];
				/* SAT-TAR: most suspects (after a round that changed no rating: new
				 * coverage); then whole change sequences. */
				size_t k1 = x->refine.stale ? c[i].fresh : c[i].covers, b1 = x->refine.stale ? b->fresh : b->covers;
				size_t k2 = x->refine.stale ? c[i].covers : c[i].fresh, b2 = x->refine.stale ? b->covers : b->fresh;
				int better = k1 != b1 ? k1 > b1 : c[i].seqs != b->seqs ? c[i].seqs > b->seqs : k2 > b2;
				if (better)
					best = (long)i;
			}
		}
		if (best < 0)
			note = xstrdup("no new input adds coverage that no earlier test had: refinement is done");
	}
	if (rc == 0 && !x->opts.replay) {   /* this round's figures */
		char *before = explain_refine_rounds(x);
		int round = 1;
		for (const char *q = before; *q; q++)
			round += *q == '\n';
		free(before);
		char *line = xasprintf("%d %.3f %.3f %.3f %zu %zu", round, gen_s, solver_s, now_seconds() - t1, nc, checks);
		store_append(x, "refine.rounds", line, NULL);
		free(line);
	}
	model_lock(x);
	x->refine.candidates += nc;
	if (best >= 0) {
		struct cand *b = &c[best];
		struct refine_proposal *p = &x->refine.cur;
		char *next = store_get(x->p->store, x->p->session, "refine.next");
		int k = next ? atoi(next) : 1;
		free(next);
		p->name = xasprintf("gen%d", k);
		p->input = gen_describe(&b->in);
		p->cmd = xstrdup(b->cmd);
		p->test = refine_test_command(b->cmd, &b->good);
		p->branch = branch_text(t, b->in.branch);
		p->failing = b->failing;
		p->verdict = b->failing ? xasprintf("failing: %s (the good revision differs)", b->sig)
					: xstrdup("passing: both revisions behave the same");
		p->new_lines = b->fresh;
		p->sequences = b->seqs;
		const struct cov_run *run = &cc.runs[b->cov_run];
		for (size_t l = 0; l < cc.nlines; l++) {
			const char *file = cc.files[cc.lines[l].file];
			if (bits_test(run->hit, l) && is_suspect(x, file, (int)cc.lines[l].line)) {
				p->covered = xrealloc(p->covered, (p->ncovered + 1) * sizeof(*p->covered));
				p->covered[p->ncovered++] = xasprintf("%s:%u", file, cc.lines[l].line);
			}
		}
		x->refine.rounds++;
		x->refine.state = REFINE_PROPOSED;
	} else if (rc == 0) {
		x->refine.note = note ? note : xstrdup("nothing to propose");
		note = NULL;
		x->refine.state = REFINE_DONE;
	} else {
		x->refine.state = REFINE_IDLE;
	}
	model_unlock(x);
	if (best >= 0)
		event(x, "PROPOSED", "%s: %s (%s; covers %zu suspect statements)", x->refine.cur.name,
		      x->refine.cur.input, x->refine.cur.verdict, x->refine.cur.ncovered);
	else if (rc == 0)
		event(x, "REFINE_DONE", "%s", x->refine.note);
	for (size_t i = 0; i < nc; i++) {
		gen_input_release(&c[i].in);
		free(c[i].cmd);
		free(c[i].sig);
		if (c[i].ran)
			run_result_release(&c[i].good);
		bits_free(c[i].hit);
	}
	free(c);
	if (nc)
		coverage_release(&cc);
	gen_input_release(&own);
	free(own_cmd);
	free(sig0);
	free(cdir);
	free(root);
	free(note);
	if (rc == ABORT_STOPPED)
		return cerr_set(e, "refinement was cancelled");
	return rc < 0 ? -1 : best >= 0;
}

int explain_refine_answer(struct explain *x, enum refine_answer a, struct cerr *e)
{
	struct explain_refine *r = &x->refine;
	if (a == REFINE_STOP) {
		model_lock(x);
		proposal_release(&r->cur);
		r->state = REFINE_STOPPED;
		free(r->note);
		r->note = xasprintf("stopped by the user after %zu approved tests", r->approved);
		model_unlock(x);
		event(x, "REFINE_STOPPED", "%s", r->note);
		return 0;
	}
	if (r->state != REFINE_PROPOSED)
		return cerr_set(e, "no test is proposed");
	if (store_append(x, "refine.seen", r->cur.cmd, e) < 0)
		return -1;
	char *entry = xasprintf("%s\t%s\t%s\t%zu\t%s", a == REFINE_APPROVE ? "approved" : "rejected", r->cur.name,
				r->cur.failing ? "failing" : "passing", r->cur.ncovered, r->cur.input);
	for (char *q = entry; *q; q++)
		if (*q == '\n')
			*q = ' ';
	int logged = store_append(x, "refine.log", entry, e);
	free(entry);
	if (logged < 0)
		return -1;
	/* Names are not used twice. */
	char *next = store_get(x->p->store, x->p->session, "refine.next");
	char num[32];
	snprintf(num, sizeof(num), "%d", (next ? atoi(next) : 1) + 1);
	free(next);
	if (store_set(x->p->store, x->p->session, "refine.next", num, e) < 0)
		return -1;
	if (a == REFINE_REJECT) {
		event(x, "REJECTED", "%s: %s", r->cur.name, r->cur.input);
		model_lock(x);
		r->rejected++;
		proposal_release(&r->cur);
		r->state = REFINE_IDLE;
		model_unlock(x);
		return 0;
	}
	/* Approved: it joins the suite, and the ranking is computed again. */
	char *line = xasprintf("%s %s", r->cur.name, r->cur.test);
	int rc = store_append(x, "refine.approved", line, e);
	free(line);
	if (rc < 0)
		return -1;
	struct ranking before = {0};
	before.n = x->ranking.n;
	before.v = xcalloc(before.n + 1, sizeof(*before.v));
	for (size_t i = 0; i < before.n; i++) {
		before.v[i] = x->ranking.v[i];
		before.v[i].s.file = xstrdup(x->ranking.v[i].s.file);
	}
	event(x, "APPROVED", "%s: %s (%s)", r->cur.name, r->cur.input, r->cur.failing ? "failing" : "passing");
	rc = rank_suite(x, e);
	if (rc < 0) {
		rank_release(&before);
		return -1;
	}
	/* An approved failing test that rates a core statement lower ends its boost. */
	int changed = 0;
	struct buf unboost = BUF_INIT;
	for (size_t i = 0; i < before.n; i++) {
		const struct rank_entry *now = rank_find(&x->ranking, before.v[i].s.file, before.v[i].s.line);
		if (!now || now->raw != before.v[i].raw)
			changed = 1;
		if (r->cur.failing && now && before.v[i].boosted && now->raw < before.v[i].raw)
			buf_addf(&unboost, "%s%s:%d", unboost.len ? "\n" : "", now->s.file, now->s.line);
	}
	if (unboost.len && store_append(x, "refine.unboosted", unboost.s, e) == 0) {
		struct suite st;
		if (load_suite(x, &st, e) == 0) {
			rank_stored(x, &st, 1, e);
			suite_release(&st);
		}
	}
	buf_release(&unboost);
	model_lock(x);
	moves_release(r);
	r->moves = xcalloc(x->ranking.n + 1, sizeof(*r->moves));
	for (size_t i = 0; i < x->ranking.n; i++) {
		const struct rank_entry *now = &x->ranking.v[i];
		const struct rank_entry *was = rank_find(&before, now->s.file, now->s.line);
		r->moves[r->nmoves++] = (struct refine_move){xstrdup(now->s.file), now->s.line, was ? was->s.rank : 0,
							     now->s.rank, was ? was->s.score : 0, now->s.score};
	}
	r->stale = !changed;
	r->approved++;
	proposal_release(&r->cur);
	r->state = REFINE_IDLE;
	model_unlock(x);
	rank_release(&before);
	if (x->faulted && changed)
		explain_faults(x, e);   /* the weights changed */
	return 0;
}

char *explain_refine_rounds(const struct explain *x)
{
	char *v = store_get(x->p->store, x->p->session, "refine.rounds");
	return v ? v : xstrdup("");
}

char *explain_refine_log(const struct explain *x)
{
	char *v = store_get(x->p->store, x->p->session, "refine.log");
	return v ? v : xstrdup("");
}

char *explain_refine_suite(struct explain *x)
{
	char *v = store_get(x->p->store, x->p->session, "refine.approved");
	return v ? v : xstrdup("");
}

/* --------------------------------------------------------------- the run */

const char *explain_culprit_commit(const struct explain *x)
{
	if (!x->commits || x->hi != x->lo + 1 || x->unrelated)
		return NULL;
	return x->commits[x->hi];
}

/* Forget the previous run's model (the configurations tested stay: they are the cache). */

/* ------------------------------------------------ the semantic explainer */

static int why_worktree(void *priv, const char *hex, char **dir, struct cerr *e)
{
	struct explain *x = priv;
	char *d = xasprintf("%str-%.12s", x->p->sessdir, hex);
	struct workspace *ws = NULL;
	if (workspace_open(&ws, x->p->repo, d, hex, e) < 0) {
		free(d);
		return -1;
	}
	workspace_free(ws);
	*dir = d;
	return 0;
}

static int why_run_cmd(void *priv, const char *dir, const char *cmd, int is_build, const char *const *env,
		       struct run_result *r, struct cerr *e)
{
	struct explain *x = priv;
	if (is_build)
		return run_build(x, dir, cmd, "building instrumented", env, r, e);
	/* A traced run is slower: give it twenty times the test's time. */
	struct run_opts ro = {.cmd = cmd, .cwd = dir, .timeout = x->opts.test_timeout * 20, .cancel = x->hooks.cancel,
			      .on_output = on_output, .priv = x, .env = env};
	set_activity(x, xasprintf("tracing: %s", cmd));
	int rc = run_command(&ro, r, e);
	set_activity(x, NULL);
	return rc;
}

/* Does reverting units plus sr->reverted pass? (the dynamic round's property) */
static int pred_revert_plus(void *priv, const size_t *units, size_t n)
{
	struct search *sr = priv;
	struct bits *b = bits_new(sr->s->natoms);
	bits_fill(b);
	units_add_atoms(sr->u, sr->reverted, sr->nreverted, b, 0);
	units_add_atoms(sr->u, units, n, b, 0);
	int v = test_atoms(sr, b, 1, NULL);
	bits_free(b);
	return v < 0 ? v : v == VERDICT_PASS ? 1 : v == VERDICT_UNRESOLVED ? 2 : 0;
}

/* Alg. 2 of the explainer: the fewest of these changes whose reversion
 * passes, with the auxiliary changes their reversion needs to build. */
static int why_revert(void *priv, const size_t *ch, size_t n, size_t **root, size_t *nroot, size_t **aux,
		      size_t *naux, struct cerr *e)
{
	struct explain *x = priv;
	const struct change_set *s = x->set;
	struct units cu;
	units_init(&cu, s->nchanges);
	for (size_t c = 0; c < s->nchanges; c++) {
		cu.start[c] = s->changes[c].atom0;
		cu.len[c] = s->changes[c].natoms;
	}
	struct search sr = {.x = x, .s = s, .u = &cu};
	size_t *others = xmalloc((s->nchanges + 1) * sizeof(*others)), nothers = 0;
	size_t *a = xmalloc((s->nchanges + 1) * sizeof(*a)), na = 0;
	size_t *r = xmalloc((n + 1) * sizeof(*r)), nr = 0;
	for (size_t c = 0; c < s->nchanges; c++) {
		int in = 0;
		for (size_t i = 0; i < n; i++)
			in |= ch[i] == c;
		if (!in)
			others[nothers++] = c;
	}
	x->p->err.msg[0] = '\0';
	int rc = pred_revert(&sr, ch, n);
	if (rc == 2 && nothers) {
		/* It does not build: the fewest other changes to revert with it. */
		struct search sub = sr;
		sub.reverted = ch;
		sub.nreverted = n;
		rc = pred_builds(&sub, others, nothers);
		if (rc == 1)
			rc = dd_minimize(others, nothers, pred_builds, &sub, a, &na);
		else if (rc == 0)
			rc = 2;
		if (rc == 0) {
			sr.reverted = a;
			sr.nreverted = na;
			rc = pred_revert_plus(&sr, ch, n);
		}
	}
	if (rc == 1) {
		/* Reverting them passes: the fewest of them that still does. */
		sr.reverted = a;
		sr.nreverted = na;
		rc = n > 1 ? dd_minimize(ch, n, pred_revert_plus, &sr, r, &nr) : 0;
		if (n == 1) {
			r[0] = ch[0];
			nr = 1;
		}
		if (rc == 0 || rc == DD_STOP) {
			*root = r;
			*nroot = nr;
			*aux = a;
			*naux = na;
			r = a = NULL;
			rc = 1;
		}
	} else if (rc == 2) {
		rc = 0;
	}
	if (rc < 0 && x->p->err.msg[0])
		cerr_set(e, "%s", x->p->err.msg);
	else if (rc < 0)
		cerr_set(e, "stopped");
	free(r);
	free(a);
	free(others);
	units_release(&cu);
	return rc < 0 ? -1 : rc;
}

static int why_gate(void *priv, const char *label)
{
	struct explain *x = priv;
	if (x->hooks.cancel && *x->hooks.cancel)
		return -1;
	if (x->p->stopping)
		return 1;
	if (!x->hooks.gate)
		return 0;
	int g = x->hooks.gate(x->hooks.priv, label);
	if (g == 1)
		x->p->stopping = 1;
	return g;
}

static void why_event(void *priv, const char *type, const char *text)
{
	event(priv, type, "%s", text);
}

static void why_lock(void *priv, int on)
{
	on ? model_lock(priv) : model_unlock(priv);
}

static unsigned *change_ids(const struct change_set *s)
{
	unsigned *ids = xmalloc((s->nchanges + 1) * sizeof(*ids));
	for (size_t i = 0; i < s->nchanges; i++)
		ids[i] = s->changes[i].id;
	return ids;
}

/* Change interaction, before the change search: the culprit commit
 * instrumented (its metadata, the explainer's too), the dependences of its
 * changes, where they meet. Stored; on failure the search goes on without. */
static void explain_interact(struct explain *x)
{
	unsigned *ids = change_ids(x->set);
	char *stored = store_get(x->p->store, x->p->session, "interact");
	struct interact ia;
	struct cerr e = {{0}};
	int rc = -1;
	if (stored && interact_from_json(&ia, stored, strlen(stored), ids, x->set->nchanges, &e) == 0)
		rc = 0;
	free(stored);
	if (rc < 0 && !x->opts.replay && x->opts.semantic && x->set->nchanges > 1) {
		struct why_opts wo = {.good = x->commits[x->lo], .bad = x->commits[x->hi], .build = x->build,
				      .test = x->opts.test, .cflags = x->opts.cflags, .workdir = x->p->sessdir,
				      .test_timeout = x->opts.test_timeout, .max_rounds = x->opts.rounds};
		struct why_env env = {.priv = x, .worktree = why_worktree, .run = why_run_cmd, .revert = why_revert,
				      .gate = why_gate, .event = why_event, .lock = why_lock};
		why_free(x->p->why);
		x->p->why = why_new(&wo, x->set, &env);
		x->p->why_set = x->set;
		const struct tmeta *m;
		/* A build: one step of its own. */
		int g = x->hooks.gate ? x->hooks.gate(x->hooks.priv, "instrumenting for change interaction")
				      : 0;
		if (g > 0)
			x->p->stopping = 1;   /* the search that follows keeps its best answer */
		if (g == 0) {
			set_activity(x, xstrdup("change interaction: instrumenting the culprit commit"));
			rc = why_instrument(x->p->why, &m, &e);
			set_activity(x, NULL);
		}
		if (rc == 0) {
			interact_analyze(&ia, m, x->set);
			struct buf j = BUF_INIT;
			interact_json(&ia, ids, &j);
			store_set(x->p->store, x->p->session, "interact", j.s, NULL);
			buf_release(&j);
		}
	}
	model_lock(x);
	interact_release(&x->interact);
	free(x->interact_note);
	x->interact_note = NULL;
	x->interacted = rc == 0;
	if (rc == 0)
		x->interact = ia;
	else if (e.msg[0])
		x->interact_note = xasprintf("no change interaction: %s", e.msg);
	model_unlock(x);
	if (rc == 0)
		event(x, "INTERACTION", "%zu interaction locations, %zu change sequences (%zu statements, %zu dependences)",
		      ia.nlocs, ia.nseqs, ia.stmts, ia.edges);
	else if (x->interact_note)
		event(x, "INTERACTION", "%s", x->interact_note);
	free(ids);
}

static int explain_why(struct explain *x, struct cerr *e)
{
	unsigned *ids = change_ids(x->set);
	/* Stored by the flags it was instrumented with: other flags, another try. */
	char key[64] = "why.tree";
	if (x->opts.cflags) {
		char h[41];
		repo_hash(x->opts.cflags, strlen(x->opts.cflags), h);
		snprintf(key, sizeof(key), "why.tree.%.12s", h);
	}
	char *stored = store_get(x->p->store, x->p->session, key);
	int rc = 0;
	struct why_opts wo = {.good = x->commits[x->lo], .bad = x->commits[x->hi], .build = x->build,
			      .test = x->opts.test, .cflags = x->opts.cflags, .workdir = x->p->sessdir,
			      .test_timeout = x->opts.test_timeout, .max_rounds = x->opts.rounds};
	struct why_env env = {.priv = x, .worktree = why_worktree, .run = why_run_cmd, .revert = why_revert,
			      .gate = why_gate, .event = why_event, .lock = why_lock};
	if (stored) {
		struct ctree t;
		struct cerr je;
		/* A tree that never got to the failure is tried again. */
		if (ctree_from_json(&t, stored, strlen(stored), ids, x->set->nchanges, &je) == 0 &&
		    !t.failure && !x->opts.replay) {
			ctree_release(&t);
		} else if (t.done) {
			struct why *w = why_new(&wo, x->set, &env);
			if (x->opts.replay || why_reload(w, &je) < 0) {
				why_free(w);
				w = NULL;
			}
			model_lock(x);
			ctree_release(&x->tree);
			x->tree = t;
			x->why_state = 2;
			why_free(x->p->why);
			x->p->why = w;
			x->p->why_set = x->set;
			x->trace = why_trace(w);
			model_unlock(x);
			free(stored);
			free(ids);
			return 0;
		}
		free(stored);
	}
	if (x->opts.replay) {
		free(ids);
		return 0;
	}
	set_phase(x, PHASE_WHY);
	model_lock(x);
	ctree_release(&x->tree);
	x->why_state = 1;
	if (!x->p->why || x->p->why_set != x->set) {   /* (the static analysis may have instrumented already) */
		why_free(x->p->why);
		x->p->why = why_new(&wo, x->set, &env);
		x->p->why_set = x->set;
	}
	x->trace = NULL;
	model_unlock(x);
	struct cerr we = {0};
	int wr = why_run(x->p->why, &x->tree, &we);
	model_lock(x);
	x->why_state = 2;
	x->trace = why_trace(x->p->why);
	model_unlock(x);
	finish_marks(x);   /* the dynamic rounds showed their configurations */
	if (wr < 0 && (x->hooks.cancel && *x->hooks.cancel)) {
		rc = ABORT_STOPPED;
	} else {
		if (wr < 0)
			event(x, "WHY_FAILED", "%s", x->tree.note ? x->tree.note : we.msg);
		if (wr == 0 || (wr < 0 && x->tree.note)) {
			struct buf j = BUF_INIT;
			ctree_json(&x->tree, ids, &j);
			store_set(x->p->store, x->p->session, key, j.s, NULL);
			buf_release(&j);
		}
	}
	(void)e;
	free(ids);
	return rc;
}

static void reset_model(struct explain *x)
{
	model_lock(x);
	if (x->set && x->set != x->p->full)
		change_set_free(x->set);
	x->set = NULL;
	free(x->marks);
	x->marks = NULL;
	free(x->commits);
	x->commits = NULL;
	free(x->commit_verdict);
	x->commit_verdict = NULL;
	x->ncommits = x->lo = x->hi = 0;
	x->unrelated = 0;
	list_release(&x->inducing);
	list_release(&x->fix);
	list_release(&x->aux);
	free(x->note);
	x->note = NULL;
	free(x->signature);
	x->signature = NULL;
	x->refined = x->explained = x->commits_tested = 0;
	x->phase = PHASE_START;
	x->p->stopping = 0;
	x->p->err.msg[0] = '\0';
	model_unlock(x);
}

int explain_run(struct explain *x, struct cerr *e)
{
	int rc;

	reset_model(x);
	event(x, x->resumed ? "SESSION_RESUMED" : "SESSION_STARTED", "%s %.12s..%.12s: %s",
	      x->resumed ? "resuming" : "starting", x->good, x->bad, x->opts.test);
	rc = check_premise(x, e);
	if (rc == 0)
		rc = bisect(x, e);
	if (rc == 0)
		rc = search_changes(x, e);
	if (rc == 0 && x->explained && x->opts.semantic) {
		int wr = explain_why(x, e);
		if (wr < 0)
			rc = wr;
	}
	if (rc >= 0 && (x->opts.suite || refine_has_tests(x))) {
		int rr = rank_suite(x, e);
		if (rr == ABORT_STOPPED)
			rc = rr;
		else if (rr < 0)
			rc = -1;
	}
	if (rc >= 0 && x->explained && x->opts.semantic && x->tree.failure) {
		int fr = explain_faults(x, e);
		if (fr == ABORT_STOPPED)
			rc = fr;
	}
	x->elapsed = now_seconds() - x->started;
	if (!x->opts.replay) {
		char num[64];
		snprintf(num, sizeof(num), "%.3f", x->elapsed_before + x->elapsed);
		store_set(x->p->store, x->p->session, "elapsed", num, NULL);
	}
	if (rc == ABORT_STOPPED || rc == DD_STOP) {
		free(x->note);
		x->note = xstrdup(rc == DD_STOP ? "stopped before the changes were searched"
						: "the analysis was cancelled before it finished");
		event(x, "STOPPED", "%s", x->note);
		set_phase(x, PHASE_DONE);
		return 1;
	}
	if (rc < 0)
		return -1;
	set_phase(x, PHASE_DONE);
	if (!x->explained && !x->note)
		x->note = xstrdup("no set of changes reproduces the failure (every smaller configuration was unresolved)");
	event(x, "ANALYSIS_DONE", "%s", x->explained ? "explained" : x->note);
	return x->explained ? 0 : 1;
}
