/* core/semantic/ owns the explainer and test generation: instrumentation,
 * the trace, the Z3 formula, causes, fault sets, interaction, new inputs.
 *
 * why — the semantic explainer (Yi et al., Alg. 1). It instruments a
 * scratch copy of the failing revision, traces the failing test, finds the
 * failure point, and alternates semantic rounds (the unsat core of the
 * trace formula with the expected outcome of one critical predicate: a
 * cause) with dynamic rounds (the revert search over the changes that occur
 * in the causes so far), until reverting the changes of the causes passes
 * (the root cause), nothing is left, or the driver stops it. The result is
 * a causal tree: causes linked by the critical predicates that lead from
 * one to the next, the changes marked. */
#ifndef CULPRIT_WHY_H
#define CULPRIT_WHY_H

#include <stddef.h>
#include <stdint.h>
#include "core/util.h"
#include "core/isolate/change.h"
#include "core/isolate/run.h"
#include "core/semantic/trace.h"
#include "core/semantic/formula.h"

struct ct_stmt {
	uint32_t ev;            /* its event in the failing run */
	char *file;
	int line;
	char *text;             /* the source line */
	char *values;           /* "lhs = 5", "returned 3", "was false" */
	long change;            /* index in the change set, or -1 */
	int opaque;             /* the formula only restates the observed value */
};

struct ct_node {
	int parent;             /* -1: linked to the failure itself */
	char *edge;             /* the critical predicate: "parse.c:41 if (prec(op) < min) was true" */
	char *edge_file;
	int edge_line;
	uint32_t edge_ev;
	struct ct_stmt *stmts;
	size_t nstmts;
	size_t *changes;        /* indices in the change set */
	size_t nchanges;
	char *note;             /* why it holds no statements */
	int forcing;            /* its core forces the failure (an unsat core was found): only then boosted */
};

struct ctree {
	char *failure;          /* "calc.c:17 printf(...) printed 20, the good revision printed 14" */
	char *failure_file;
	int failure_line;
	uint32_t failure_ev;
	struct ct_node *nodes;
	size_t n;
	size_t *root, nroot;    /* the root cause: change indices */
	size_t *aux, naux;
	int root_found;
	int done;               /* the explainer ended (root, exhausted, or stopped) */
	char *note;             /* how it ended when no root was found */
	char *no_explanation;   /* why no cause forces the failure (one line), or NULL */
	char *untraced;         /* files left as they were (not instrumented, or restored), or NULL */
	char *trace_cut;        /* the run was longer than the trace's cap: what was kept, or NULL */
	char *stale;            /* a field a later update of its object left as it was, or NULL */
	char *stale_fix;        /* the omitted assignment added after the update passes: what, or NULL */
	int semantic_rounds, dynamic_rounds;
	size_t events, slice, clauses, formula_checks;
	double instrument_seconds, traced_seconds, solver_seconds;
};

void ctree_release(struct ctree *t);
/* JSON of the tree: {"failure":..., "nodes":[...], "edges":[...], ...}; change
 * ids from ids[change index]. */
void ctree_json(const struct ctree *t, const unsigned *ids, struct buf *b);
/* The tree as indented text (box-drawing characters when utf8). */
void ctree_text(const struct ctree *t, const unsigned *ids, int utf8, struct buf *b);
/* Read back what ctree_json wrote. 0, or <0. */
int ctree_from_json(struct ctree *t, const char *text, size_t len, const unsigned *ids, size_t nids,
		    struct cerr *e);

/* What the explainer needs from the engine. */
struct why_env {
	void *priv;
	/* A scratch worktree holding commit hex (created on first use). */
	int (*worktree)(void *priv, const char *hex, char **dir, struct cerr *e);
	/* Run cmd in dir (a build when is_build) with extra environment; r released by the caller. */
	int (*run)(void *priv, const char *dir, const char *cmd, int is_build, const char *const *env,
		   struct run_result *r, struct cerr *e);
	/* The smallest subset of these changes whose reversion from the failing
	 * commit passes, with the auxiliary changes the build needs: 1 found,
	 * 0 none, <0 stopped or error. */
	int (*revert)(void *priv, const size_t *changes, size_t n, size_t **root, size_t *nroot, size_t **aux,
		      size_t *naux, struct cerr *e);
	/* The failing commit with one line of text added after line `after` of
	 * file, built and tested: 1 it passes, 0 not, <0 stopped or error. */
	int (*add_line)(void *priv, const char *file, int after, const char *text, struct cerr *e);
	/* Pace and stop: 0 go on, 1 stop with what is there, <0 cancel. */
	int (*gate)(void *priv, const char *label);
	void (*event)(void *priv, const char *type, const char *text);
	/* The tree changed (the driver locks its model around the update). */
	void (*lock)(void *priv, int on);
};

struct why_opts {
	const char *good, *bad;        /* hex: the last passing and the first failing commit */
	const char *build, *test;
	const char *cflags;            /* instead of a compilation database, or NULL */
	const char *workdir;           /* where traces and metadata go */
	double test_timeout;
	int max_rounds;                /* semantic rounds (0: 16) */
};

struct why;

struct why *why_new(const struct why_opts *o, const struct change_set *set, const struct why_env *env);
void why_free(struct why *w);   /* NULL is a no-op */
/* Run the explainer into t (guarded by env->lock). 0: ended (t->note may
 * say it is partial), 1: stopped by the driver, <0: error in e (the tree
 * carries a note; the dynamic answer stands). */
int why_run(struct why *w, struct ctree *t, struct cerr *e);
/* Load the failing run's trace an earlier why_run left in workdir (for
 * viewing a stored session). */
int why_reload(struct why *w, struct cerr *e);
/* The failing run's trace, after why_run or why_reload (NULL before or when it failed). */
const struct trace *why_trace(const struct why *w);
/* Instrument the failing revision (and build it) without running it: its
 * metadata, for static analyses before the explainer runs. */
int why_instrument(struct why *w, const struct tmeta **m, struct cerr *e);
/* The failure's expected outcome (after why_run found the failure): how many, 0 none. */
size_t why_failure(const struct why *w, const struct expect **x);
/* Run the failing test again in the instrumented tree, traced, with the
 * instance-th run of branch site `site` forced to `outcome`. */
int why_run_forced(struct why *w, unsigned site, unsigned instance, int outcome, struct trace *out, struct cerr *e);
/* Run cmd (NULL: the failing test) in the instrumented tree, traced; force
 * NULL or CULPRIT_FORCE's "site:instance:outcome". */
int why_run_traced(struct why *w, const char *cmd, const char *force, struct trace *out, struct cerr *e);

#endif
