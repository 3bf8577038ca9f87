/* The session's insides. explain.c is the state machine: it opens the
 * session and calls the stages in turn, explain_bisect.c (bisection),
 * explain_search.c (the change search), explain_why.c (change interaction, the semantic
 * explainer), explain_rank.c (ranking, the core boost, fault sets) and
 * explain_refine.c (refinement). The stages use the helpers of stage.c
 * (lock, events, activity, phase, builds, testing a configuration, the
 * suite) and never call explain.c or one another: what one stage needs of
 * another, the state machine hands it. Nothing outside core/session/
 * includes this header. */
#ifndef CULPRIT_STAGE_H
#define CULPRIT_STAGE_H

#include <stdint.h>

#include "core/session/explain.h"
#include "core/spectrum/coverage.h"
#include "core/isolate/run.h"
#include "core/spectrum/suite.h"
#include "core/session/store.h"
#include "core/isolate/deps.h"

#define ABORT_STOPPED (-100)    /* the gate or the cancel flag stopped the analysis */

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
	struct bits *whole_file, *whole_group;   /* what the change search learnt only builds whole
						    (struct search), for the explainer's reversions; NULL before */
	char *built_dir;             /* the tree the last build ran in: a build may write outside its
					tree (`-o /tmp/t`, cmake -B), so another tree's run builds again */
	struct buf *sources;         /* files of the bad revision the ranking shows lines of */
	struct why *why;             /* the semantic explainer (kept for its trace) */
	struct coverage cov;         /* the suite's coverage at the bad revision, as last ranked */
	const struct change_set *why_set;   /* the set why was made for */
	/* The approved tests' runs, traced for refinement (by program command;
	 * they point into tr_why's metadata, so another why drops them). */
	struct trace *tr;
	char **tr_cmd;
	size_t ntr;
	const struct why *tr_why;
	size_t nsources;
	int tree_stored;             /* the causal tree was taken from the store, not computed */
	int lockfd;                  /* <gitdir>/culprit/lock, held for the run's life; -1 none */
	int tree_written_by_build;   /* the build or test writes files of the diff: verify the state file only */
};

/* What the units of one search stand for: unit u is atoms [start[u],
 * start[u]+len[u]), or with member set, the nmember[u] atom ranges
 * (start, len) in member[u][0..2*nmember[u]) (hunks that only build
 * together; start and len are then its first range). */
struct units {
	size_t *start, *len;
	size_t n;
	size_t **member, *nmember;
	int tokens;                  /* a unit is one token-level atom */
};

/* One search over the change set: which set, its units, the aux memo. */
struct search {
	struct explain *x;
	const struct change_set *s;
	const struct units *u;       /* the units being searched */
	const size_t *reverted;      /* while searching aux: the reverted units (of u) */
	size_t nreverted;
	const size_t *with;          /* while searching a fix beyond them: the failure-inducing units (of u) */
	size_t nwith;
	const struct deps *deps;     /* which changes declare what, for repairing builds (or NULL) */
	const struct bits *pool;     /* the atoms a repair may add (the search's candidates) */
	enum unresolved_why why;     /* why the last configuration tested was unresolved */
	/* Learnt from failed builds (or NULL): files (over s->files) and
	 * dependence groups (over s->changes, a group by its first change)
	 * that only build whole; every configuration takes them whole
	 * (search_build.c, learn_whole). */
	struct bits *whole_file, *whole_group;
	/* Dependence groups (over s->changes, by first change) applied to
	 * good by their changes' needs and blocks, not whole: taken apart
	 * once a part of one failed alone (explain_search.c, narrow_groups).
	 * NULL or empty: every group whole. */
	struct bits *groups_apart;
	/* At token level, the changes of a whole file that are taken apart
	 * (those holding a failure-inducing change); its other changes stay
	 * whole together. Over s->changes; NULL before the token level. */
	struct bits *token_apart;
	/* At token level, the dependence blocks (deps.h, by first change)
	 * whose pieces failed to build apart: the pieces that hold what ties
	 * them (whole changes that are not taken apart) are taken together
	 * from then on. */
	struct bits *token_block;
	struct bits *token_tied;     /* over s->atoms: the pieces those blocks hold */
	struct bits *token_named;    /* over s->atoms: pieces taken apart whose tokens hold their change's names */
	struct bits *token_bracketed; /* over s->atoms: pieces taken apart holding a bracket or #if they do not close */
	/* At token level, over s->atoms: the pieces taken apart that a failed
	 * build's errors named together (a label's goto and its definition),
	 * as a forest (each piece's parent, itself at a root): taken together
	 * from then on. */
	size_t *token_tie;
	/* At token level, pieces a piece needs, one way (a new local's uses
	 * need its declaration): pairs (user, declaration), or NULL. */
	size_t (*token_need)[2];
	size_t ntoken_need;
	size_t token_start;          /* x->nconfigs when the token level began */
	size_t token_split;          /* its configurations, tested or implied, that took a change in part */
	size_t token_phase;          /* x->nconfigs when its current search (failure-inducing or fix) began */
	size_t token_skip;           /* 1 + the configuration its counts leave out (all the fix's pieces reverted), or 0 */
	int coarse_search;           /* a hunk-level search (failure-inducing or fix, since token_phase) may end coarse */
	int coarse;                  /* ...and its configurations failed otherwise too often: the best so far stands */
	/* The configurations that passed, as tested, applied to good or
	 * reverted from bad (or NULL): shared by the copies of a search. */
	struct passed *passed;
	/* Needs learnt from repairs (or NULL): a change using a name a header
	 * declares needs the change adding its #include (add_includes); the
	 * search starts with the ones deps guesses (header_needs). Shared by
	 * the copies of a search. */
	struct learnt *learnt;
};

struct passed {
	struct bits **b;
	char *reverted;   /* per configuration: 1 when tested as a reversion from bad */
	size_t n;
	char implied[41]; /* the last configuration whose pass was implied (said once) */
};

struct learnt {
	size_t (*need)[2];   /* change need[k][0] needs change need[k][1] */
	char **name;         /* for name[k] ("" ended, to free) */
	size_t n;
	int quiet;           /* the deps' quiet needs are taken: unused names do not build */
};

/* stage.c: the helpers every stage uses */
void ex_lock(struct explain *x);
void ex_unlock(struct explain *x);
void ex_event(struct explain *x, const char *type, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void ex_activity(struct explain *x, char *activity);
void ex_phase(struct explain *x, enum explain_phase p);
void ex_short_hex(const char *hex, char out[13]);
char *ex_dup(const char *s);
void ex_list_release(struct explain_list *l);
int ex_ensure_workspace(struct explain *x, const char *base, struct cerr *e);
void ex_on_output(void *priv, const char *data, size_t len);
int ex_was_stopped(const struct explain *x);
int ex_run_build(struct explain *x, const char *dir, const char *cmd, const char *what, const char *const *env,
		 struct run_result *r, struct cerr *e);
char *ex_build_error(const struct explain *x, const struct run_result *r);
int ex_test_added_line(struct explain *x, const char *file, int after, const char *text, const char *expected,
		       struct outcome *o, struct cerr *e);
int ex_built_last(const struct explain *x, const char *dir);
int ex_build_here(struct explain *x, const char *dir, const char *cmd, const char *const *env, const char *what,
		  struct cerr *e);
int ex_test_config(struct explain *x, const struct change_set *s, const struct bits *applied,
		   const char *label, const char *expected, struct outcome *o, struct cerr *e);
/* Was the configuration with this key taken from the store in this run? */
int ex_config_from_store(struct explain *x, const char *key);
/* Test it now, whatever the store says, and store the new outcome. */
int ex_retest_config(struct explain *x, const struct change_set *s, const struct bits *applied,
		     const char *label, const char *expected, struct outcome *o, struct cerr *e);
/* The run's hold on the repository (<gitdir>/culprit/lock): taken by
 * explain_open unless replaying, kept until explain_free. */
int ex_lock_repository(struct explain *x, struct cerr *e);
void ex_unlock_repository(struct explain *x);
void ex_finish_marks(struct explain *x);
int ex_build_for_suite(struct explain *x, const char *dir, const char *cmd, const char *what, struct cerr *e);
int ex_load_suite(struct explain *x, struct suite *s, struct cerr *e);
const char *ex_coverage_build_of(const struct explain *x, char hash[41]);

/* The revert search over some changes of the culprit commit (explain_search.c),
 * handed by the state machine to the explainer (explain_why.c). */
typedef int ex_revert_fn(void *priv, const size_t *ch, size_t n, size_t **root, size_t *nroot, size_t **aux,
			 size_t *naux, struct cerr *e);

/* The stages, called by explain.c only. */

/* explain_bisect.c */
int ex_bisect(struct explain *x, struct cerr *e);

/* explain_search.c */
int ex_search_begin(struct explain *x, struct cerr *e);
int ex_search_changes(struct explain *x, struct cerr *e);
ex_revert_fn ex_revert;

/* explain_why.c */
void ex_interact(struct explain *x, ex_revert_fn *revert);
int ex_why(struct explain *x, ex_revert_fn *revert, struct cerr *e);
void ex_why_reload(struct explain *x);

/* explain_rank.c */
void ex_boost(struct explain *x);
/* --changed: the failure-inducing changes' lines first (ex_boost calls it). Under the lock. */
void ex_prefer_inducing(struct explain *x);
int ex_rank_stored(struct explain *x, const struct suite *s, int quiet, struct cerr *e);
int ex_rank_suite(struct explain *x, struct cerr *e);
int ex_faults(struct explain *x, struct cerr *e);
int ex_faults_stored(struct explain *x);

/* explain_refine.c */
int ex_refine_has_tests(struct explain *x);
void ex_refine_release(struct explain_refine *r);
void ex_traces_release(struct explain_priv *p);
int ex_refine_propose(struct explain *x, struct cerr *e);
int ex_refine_record(struct explain *x, enum refine_answer a, struct ranking *before, struct cerr *e);
int ex_refine_moves(struct explain *x, const struct ranking *before, int *changed, struct cerr *e);
void ex_refine_done(struct explain *x, const struct ranking *before, int changed);

#endif
