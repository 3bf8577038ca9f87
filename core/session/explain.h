/* core/session/ runs the analyses and keeps them: the state machine and its
 * stages (stage.h), the SQLite store, the reports.
 *
 * explain — the session's state machine: it checks the premise, bisects the
 * commits, minimizes the failure-inducing changes, searches the fix and its
 * auxiliary changes, and refines to token level where hunks cannot be told
 * apart. It owns the model the report and the views read. Drivers (--batch,
 * the workbench) run explain_run(), in a worker thread for the workbench, and
 * pace it through the gate hook: one call per configuration to build. */
#ifndef CULPRIT_EXPLAIN_H
#define CULPRIT_EXPLAIN_H

#include <pthread.h>
#include <stdint.h>
#include "core/util.h"
#include "core/isolate/change.h"
#include "core/isolate/oracle.h"
#include "core/spectrum/rank.h"
#include "core/semantic/why.h"
#include "core/semantic/comss.h"
#include "core/semantic/interact.h"

struct explain_opts {
	const char *dir;            /* repository or any subdirectory (NULL: .) */
	const char *good, *bad;     /* revisions, any syntax */
	const char *build;          /* NULL: `make` when the bad tree has a Makefile, else none */
	const char *test;           /* shell command */
	const char *fail_pattern;   /* PCRE2 or NULL */
	int repeat;                 /* test runs per configuration (>= 1) */
	double build_timeout, test_timeout;   /* seconds; 0: derived from the premise's runs */
	const char *suite;          /* suite file for the suspiciousness ranking, or NULL */
	const char *coverage_build; /* NULL: make CFLAGS='-O0 -g --coverage' LDFLAGS=--coverage */
	int jobs;                   /* tests run at once for coverage (0: the number of cores) */
	int formula;                /* enum spectra_formula */
	int changed_only;           /* rank only lines good..bad added or modified */
	int fresh;                  /* forget the stored session */
	int semantic;               /* run the semantic explainer after the change search */
	const char *cflags;         /* its compiler flags when there is no compile_commands.json, or NULL */
	int rounds;                 /* its semantic rounds at most (0: 16) */
	int replay;                 /* use stored outcomes only; never build (culprit report) */
	int first_parent;           /* bisect first-parent commits only (else the graph, as git bisect) */
	size_t max_configs;         /* configurations to build and test at most (0: no budget) */
	int64_t session;            /* with replay: the stored session's id (0: the one of these inputs) */
	/* Another run holds the repository: NULL refuses (explain_open fails);
	 * else it is called with a one-line message, then the run waits. */
	void (*lock_waiting)(const char *msg);
};

struct explain_hooks {
	/* Before a configuration is built and tested (never for stored ones):
	 * return 0 to go on; 1 to stop refinement and keep the best answer so
	 * far; <0 to cancel the analysis (explain_run returns 1). May block:
	 * the workbench steps the analysis by releasing it. */
	int (*gate)(void *priv, const char *label);
	/* After every event (also stored in the session's log). */
	void (*event)(void *priv, const char *type, const char *text);
	/* Live output of the running build or test. */
	void (*output)(void *priv, const char *data, size_t len);
	void *priv;
	const volatile int *cancel; /* set to kill the running build or test */
};

/* Refinement (SAT-TAR): one generated test proposed at a time. */
struct refine_proposal {
	char *name;                 /* "gen3": its name in the suite */
	char *input;                /* the arguments and standard input, for display */
	char *cmd;                  /* how it runs the program, from the top of the tree */
	char *test;                 /* the suite command it becomes (checks the good revision's output) */
	char *branch;               /* the branch it takes the other way: "calc.c:7 if (x > 10), now false" */
	char *verdict;              /* "passing: both revisions agree" / "failing: exit 1" */
	int failing;
	char **covered;             /* the suspect statements it covers: "calc.c:8" */
	size_t ncovered;
	size_t new_lines;           /* lines no earlier test covered */
	int repeats;                /* runs the very lines of an earlier run (proposed for its outcome) */
	char *good_out, *bad_out;   /* what the program printed at each revision (the start of it) */
	char **top;                 /* the lines tied at the top of the ranking that it runs */
	size_t ntop;
	size_t sequences;           /* change sequences it runs through whole */
};

struct refine_move {
	char *file;
	int line;
	size_t before, after;       /* ranks; 0: not ranked */
	double score_before, score_after;
};

enum refine_state {
	REFINE_IDLE,                /* nothing asked yet */
	REFINE_WORKING,             /* generating and running candidates */
	REFINE_PROPOSED,            /* cur waits for an answer */
	REFINE_STOPPED,             /* the user stopped: the result stands */
	REFINE_DONE,                /* nothing more to propose (note says why) */
};

enum refine_answer { REFINE_APPROVE, REFINE_REJECT, REFINE_STOP };

struct explain_refine {
	enum refine_state state;
	struct refine_proposal cur;
	int rounds;                 /* proposals made */
	size_t approved, rejected, dropped, candidates;
	int stale;                  /* the last approved test changed no rating */
	char *note;
	struct refine_move *moves;  /* how the last approval moved the suspects */
	size_t nmoves;
	double gen_seconds, solver_seconds, run_seconds;
	size_t checks;
	double timeout;             /* a candidate's run: from the failing test's own time; 0: the test timeout */
	int wide;                   /* the round's second, wider search is running */
	char *wide_note;            /* why the round's first search found nothing */
};

enum explain_phase {
	PHASE_START,
	PHASE_PREMISE,
	PHASE_BISECT,
	PHASE_INDUCING,
	PHASE_FIX,
	PHASE_REFINE,
	PHASE_WHY,
	PHASE_RANK,
	PHASE_DONE,
};
const char *explain_phase_name(enum explain_phase p);

enum change_mark {
	MARK_UNTESTED,
	MARK_APPLIED,       /* applied in the configuration being tested */
	MARK_REVERTED,      /* left out of the configuration being tested */
	MARK_INDUCING,
	MARK_FIX,
	MARK_AUX,
	MARK_INTERACTING,   /* failure-inducing only together with others */
};
const char *change_mark_name(enum change_mark m);

/* One element of an answer: a whole change (atom < 0) or one of its atoms. */
struct explain_item {
	size_t change;
	long atom;
};

/* A set of the answer and the tested configuration that proves it (its
 * key, label and verdict: FAIL for the failure-inducing changes applied to
 * good, PASS for the fix reverted from bad with its auxiliary changes). */
struct explain_list {
	struct explain_item *v;
	size_t n;
	char proof_key[41];         /* "" when none */
	char *proof_label;
	int proof_verdict;          /* enum verdict */
};

/* A configuration as the driver sees it, in the order tested or looked up. */
struct explain_config {
	char key[41];
	char *label;
	enum verdict verdict;
	enum unresolved_why why;
	char *signature, *excerpt;
	double build_seconds, test_seconds;
	int stored;                 /* taken from the session, not run now */
};

struct explain {
	struct explain_opts opts;   /* strings owned copies */
	char good[41], bad[41];
	char *build;                /* effective build command ("" for none) */
	char *gitdir;
	char *signature;            /* the failure at the bad revision */
	char *culprit_signature;    /* the culprit commit's own failure when another than the bad
				       revision's (bisection took it as failing): what its search looks for */
	int resumed;
	int derived_test_timeout, derived_build_timeout;   /* opts' timeouts were measured, not given */

	/* [0] good, then good..bad first parents, last = bad. Bisecting the
	 * graph, they are good..bad in topological order and, once bisected,
	 * reordered so that commits[lo] is the culprit's parent (standing in
	 * for good when it lies outside the range) and commits[hi] the
	 * culprit, the untestable candidates of a range between them. */
	char (*commits)[41];
	size_t ncommits;
	int *commit_verdict;        /* -1 untested, else enum verdict */
	size_t lo, hi;              /* last passing / first failing commit */
	int unrelated;              /* good is not an ancestor of bad: no bisection, no culprit commit */

	struct change_set *set;     /* diff(commits[lo], commits[hi]) */
	char (*change_commit)[41];  /* per change of set, in a range: the commit that introduced it, or "" */
	const struct change_set *set_full;  /* diff(good, bad): what the ranking's change ids refer to */
	enum change_mark *marks;    /* per change */
	struct explain_list inducing, fix, aux;
	/* Causes of one side that the other side's proof needs to build: fix
	 * changes applied with the failure-inducing ones, failure-inducing
	 * changes reverted with the fix (listed there, not as auxiliary). */
	struct explain_list ind_needs, fix_needs;
	/* Other fixes: failure-inducing changes outside the fix whose
	 * reversion alone passes too, each with the configuration proving it. */
	struct explain_list *fix_other;
	size_t nfix_other;
	int refined;                /* answers are at token level */
	int explained;
	char *note;                 /* why nothing was explained, or NULL */

	struct explain_config *configs;
	size_t nconfigs;
	size_t search_left;         /* the change search's estimate of the tests it has left (0: none published) */
	int commits_tested, builds, stored_hits, flaky;   /* flaky: configurations whose --repeat runs disagreed */
	int builds_before;          /* builds of the session's earlier runs (stored) */
	/* The culprit commit as a person reads it (once bisection found it; else NULL/0). */
	char *culprit_subject, *culprit_author;
	long long culprit_time;

	/* The suspiciousness ranking (with --suite). */
	int ranked;
	struct ranking ranking;
	size_t tests, tests_failing_at_good, tests_unresolved;
	char *ranking_note;         /* why there is no ranking, or NULL */
	double elapsed, elapsed_before, started;

	/* The semantic explainer's causal tree (with opts.semantic). */
	struct ctree tree;
	int why_state;              /* 0 not run, 1 running, 2 ended */
	const struct trace *trace;  /* the failing run's trace while the session is open, or NULL */

	struct explain_refine refine;

	/* Change interaction (static, on the culprit commit; with the explainer). */
	struct interact interact;
	int interacted;             /* interact holds a result for x->set */
	char *interact_note;

	/* Fault sets (MaxSAT CoMSSs of the failing run; with the explainer). */
	struct comss_result faults;
	int faulted;                /* faults holds a result */
	char *faults_note;          /* why there is none, or NULL */

	enum explain_phase phase;
	char *activity;             /* what runs now ("building changes 3 5"), or NULL */

	struct explain_hooks hooks;
	pthread_mutex_t lock;       /* guards the model while a worker runs */

	/* Private to explain.c. */
	struct explain_priv *p;
};

/* Open the repository and the session, check the inputs that need no build
 * (revisions, ancestry, empty diff). Errors are for the user (exit 2). */
int explain_open(struct explain **out, const struct explain_opts *o, const struct explain_hooks *h,
		 struct cerr *e);
/* Reopen a stored session of the repository at dir (culprit report, rank,
 * tests): session > 0 that one, 0 the last finished analysis (else the most
 * recent session); ranking with formula (enum spectra_formula) and changed_only. */
int explain_open_stored(struct explain **out, const char *dir, int64_t session, int formula, int changed_only,
			struct cerr *e);
/* Every stored session of the repository at dir (free with
 * store_sessions_free), and *pick, the one explain_open_stored takes by default. */
struct session_row;
int explain_sessions(const char *dir, struct session_row **rows, size_t *n, int64_t *pick, struct cerr *e);
/* What the stored session's last run came to: "explained", "unexplained"
 * (both finished), "stopped", "failed", or "new" (caller frees). */
char *explain_stored_state(struct explain *x);
/* Put the stored session's model back without building or computing
 * anything (the workbench on reopening a finished analysis): the stored
 * outcomes replayed, the causal tree and the fault sets as stored; then the
 * failing run's trace is reloaded for the trace pane and refinement. Returns
 * what explain_run would have returned. */
int explain_restore(struct explain *x, struct cerr *e);
void explain_free(struct explain *x);   /* NULL is a no-op */

/* Run the analysis to the end. 0: a failure-inducing set was found; 1: it
 * could not be explained (x->note says why) or was stopped; <0: error (the
 * premise does not hold, or something broke), e says what. It can be run
 * again on the same x (after a cancel): configurations already tested are
 * not tested again. Set x->hooks before calling it. */
int explain_run(struct explain *x, struct cerr *e);

/* Driver state kept with the session (the workbench's screen state): a
 * value by name; get returns NULL when unset (caller frees). */
int explain_state_set(struct explain *x, const char *name, const char *value);
char *explain_state_get(struct explain *x, const char *name);
/* Where the session is stored (<gitdir>/culprit/), for logs next to it. */
const char *explain_dir(const struct explain *x);

/* Rank again from the stored coverage with another formula (enum
 * spectra_formula) or restriction; nothing runs. Not while explain_run runs. */
int explain_rerank(struct explain *x, int formula, int changed_only, struct cerr *e);

/* Refinement, after explain_run. Propose the next generated test: 1 one
 * waits in x->refine.cur, 0 none (x->refine.note says why; the state is
 * DONE), <0 error. Runs builds and tests: call it where explain_run would
 * run (the workbench's worker). */
int explain_refine_propose(struct explain *x, struct cerr *e);
/* Answer the proposal: approve (the test joins the suite and the ranking
 * is computed again), reject (never proposed again), or stop refinement
 * (the result stands). 0, or <0 with e set. */
int explain_refine_answer(struct explain *x, enum refine_answer a, struct cerr *e);
/* What was answered, a line each: "approved|rejected TAB name TAB
 * passing|failing TAB suspects covered TAB input" (caller frees). */
char *explain_refine_log(const struct explain *x);
/* Each round's figures, a line each: "round generation-seconds
 * solver-seconds run-seconds candidates solver-calls" (caller frees). */
char *explain_refine_rounds(const struct explain *x);
/* The approved tests as a suite file (caller frees; "" when none). */
char *explain_refine_suite(struct explain *x);

/* The commit a change belongs to (hex), or NULL when a range is left. */
const char *explain_culprit_commit(const struct explain *x);
/* The commit change (an index into x->set) came from: the culprit commit,
 * or in a range the commit that introduced its lines; NULL when unknown. */
const char *explain_change_commit(const struct explain *x, size_t change);

#endif
