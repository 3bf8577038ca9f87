/* The explain module: the semantic explainer's hooks and the change interaction. */
#include "core/session/stage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/isolate/workspace.h"

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
		return ex_run_build(x, dir, cmd, "building instrumented", env, r, e);
	int rc = ex_build_here(x, dir, x->build, NULL, "instrumented", e);
	if (rc < 0)
		return rc;
	/* A traced run is slower: give it twenty times the test's time. */
	struct run_opts ro = {.cmd = cmd, .cwd = dir, .timeout = x->opts.test_timeout * 20, .cancel = x->hooks.cancel,
			      .on_output = ex_on_output, .priv = x, .env = env};
	ex_activity(x, xasprintf("tracing: %s", cmd));
	rc = run_command(&ro, r, e);
	ex_activity(x, NULL);
	return rc;
}

/* The failing commit with a line added, built and tested (why_env.add_line). */
static int why_add_line(void *priv, const char *file, int after, const char *text, struct cerr *e)
{
	struct explain *x = priv;
	struct outcome o;
	int rc = ex_test_added_line(x, file, after, text, x->culprit_signature ? x->culprit_signature : x->signature,
				    &o, e);
	if (rc < 0)
		return rc == ABORT_STOPPED ? cerr_set(e, "stopped") : -1;
	int pass = o.verdict == VERDICT_PASS;
	outcome_release(&o);
	return pass;
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
	ex_event(priv, type, "%s", text);
}

static void why_lock(void *priv, int on)
{
	on ? ex_lock(priv) : ex_unlock(priv);
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
void ex_interact(struct explain *x, ex_revert_fn *revert)
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
		struct why_env env = {.priv = x, .worktree = why_worktree, .run = why_run_cmd, .add_line = why_add_line, .revert = revert,
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
			ex_activity(x, xstrdup("change interaction: instrumenting the culprit commit"));
			rc = why_instrument(x->p->why, &m, &e);
			ex_activity(x, NULL);
		}
		if (rc == 0) {
			interact_analyze(&ia, m, x->set);
			struct buf j = BUF_INIT;
			interact_json(&ia, ids, &j);
			store_set(x->p->store, x->p->session, "interact", j.s, NULL);
			buf_release(&j);
		}
	}
	ex_lock(x);
	interact_release(&x->interact);
	free(x->interact_note);
	x->interact_note = NULL;
	x->interacted = rc == 0;
	if (rc == 0)
		x->interact = ia;
	else if (e.msg[0])
		x->interact_note = xasprintf("no change interaction: %s", e.msg);
	ex_unlock(x);
	if (rc == 0)
		ex_event(x, "INTERACTION", "%zu interaction locations, %zu change sequences (%zu statements, %zu dependences)",
			 ia.nlocs, ia.nseqs, ia.stmts, ia.edges);
	else if (x->interact_note)
		ex_event(x, "INTERACTION", "%s", x->interact_note);
	free(ids);
}

int ex_why(struct explain *x, ex_revert_fn *revert, struct cerr *e)
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
	struct why_env env = {.priv = x, .worktree = why_worktree, .run = why_run_cmd, .add_line = why_add_line, .revert = revert,
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
			ex_lock(x);
			ctree_release(&x->tree);
			x->tree = t;
			x->why_state = 2;
			why_free(x->p->why);
			x->p->why = w;
			x->p->why_set = x->set;
			x->trace = why_trace(w);
			x->p->tree_stored = 1;
			ex_unlock(x);
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
	ex_phase(x, PHASE_WHY);
	ex_lock(x);
	x->p->tree_stored = 0;
	ctree_release(&x->tree);
	x->why_state = 1;
	if (!x->p->why || x->p->why_set != x->set) {   /* (the static analysis may have instrumented already) */
		why_free(x->p->why);
		x->p->why = why_new(&wo, x->set, &env);
		x->p->why_set = x->set;
	}
	x->trace = NULL;
	ex_unlock(x);
	struct cerr we = {0};
	int wr = why_run(x->p->why, &x->tree, &we);
	ex_lock(x);
	x->why_state = 2;
	x->trace = why_trace(x->p->why);
	ex_unlock(x);
	ex_finish_marks(x);   /* the dynamic rounds showed their configurations */
	if (wr < 0 && (x->hooks.cancel && *x->hooks.cancel)) {
		rc = ABORT_STOPPED;
	} else {
		if (wr < 0)
			ex_event(x, "WHY_FAILED", "%s", x->tree.note ? x->tree.note : we.msg);
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


/* After a replay (explain_restore): the failing run's trace again, for the
 * trace pane and refinement; the tree stays as stored. */
void ex_why_reload(struct explain *x)
{
	if (x->why_state != 2 || x->p->why || !x->set || !x->commits)
		return;
	struct why_opts wo = {.good = x->commits[x->lo], .bad = x->commits[x->hi], .build = x->build,
			      .test = x->opts.test, .cflags = x->opts.cflags, .workdir = x->p->sessdir,
			      .test_timeout = x->opts.test_timeout, .max_rounds = x->opts.rounds};
	struct why_env env = {.priv = x, .worktree = why_worktree, .run = why_run_cmd, .add_line = why_add_line, .revert = ex_revert,
			      .gate = why_gate, .event = why_event, .lock = why_lock};
	ex_activity(x, xstrdup("loading the failing run's trace"));
	struct why *w = why_new(&wo, x->set, &env);
	struct cerr je;
	if (why_reload(w, &je) < 0) {
		why_free(w);
		w = NULL;
	}
	ex_activity(x, NULL);
	ex_lock(x);
	why_free(x->p->why);
	x->p->why = w;
	x->p->why_set = x->set;
	x->trace = why_trace(w);
	ex_unlock(x);
}
