/* formula — the trace formula in Z3 bit-vectors and the causes it yields.
 * Each write, parameter binding and return in the backward data slice of an
 * expected outcome becomes one tracked clause `v_e = [[expr]]` (SSA: one
 * variable per event), with C's integer semantics; reads take the variable
 * of the write that gave their value, or their observed value when no traced
 * write did (inputs, untraced memory). Clauses are added backwards in
 * windows closed by boundary facts (the observed values of the events just
 * beyond), so each check is decided; the minimal unsat core names the
 * cause, and the boundary facts it leans on are expanded, deeper each time,
 * until it leans on none (or a budget of 4096 clauses is spent). */
#ifndef CULPRIT_FORMULA_H
#define CULPRIT_FORMULA_H

#include <stddef.h>
#include <stdint.h>
#include "core/semantic/trace.h"

enum expect_kind {
	EXPECT_FLIP,     /* the branch event takes its other outcome */
	EXPECT_EQ,       /* the tree's value equals value */
	EXPECT_NE,       /* the tree's value differs from value */
	EXPECT_NONZERO,  /* the tree's value is not 0 */
	EXPECT_BOUNDS,   /* 0 <= value of tree < value */
	EXPECT_EVENT_EQ, /* the value of event ev (a write or return) equals value */
	EXPECT_EVENT_NE, /* the value of event ev (a write or return) differs from value */
};

struct expect {
	enum expect_kind kind;
	uint32_t ev;                /* the event whose context evaluates tree (n: the end) */
	const struct mnode *tree;   /* NULL for FLIP (the branch's own) and EVENT_EQ */
	long long value;
};

struct cause_result {
	int found;               /* 1: a cause; 0: none (why says) */
	char *why;
	uint32_t *ev;            /* the core's events, in trace order */
	size_t n;
	size_t opaque;           /* of them, clauses that only restate an observed value */
	size_t boundary;         /* of those, values taken as observed where the search stopped (the budget) */
	size_t clauses;          /* clauses built */
	size_t checks;           /* solver calls */
	double seconds;
};

struct formula;

struct formula *formula_new(const struct trace *t);
/* symbolic: the program's inputs (TE_IN) are variables, for generation. */
struct formula *formula_new_mode(const struct trace *t, int symbolic);
void formula_free(struct formula *f);   /* NULL is a no-op */
void cause_result_release(struct cause_result *r);

/* The cause of the conjunction of the expectations. 0, or <0 with e set
 * (the solver failed). */
int formula_cause(struct formula *f, const struct expect *x, size_t nx, struct cause_result *out,
		  struct cerr *e);

/* Evaluate a tree concretely with the observed values of owner's context. 0
 * with *v, or -1 when the tree cannot be evaluated (opaque parts). */
int formula_eval(const struct trace *t, uint32_t owner, const struct mnode *n, long long *v);

/* Whether event w (a write, parameter or return) has a clause. */
int formula_has_clause(const struct trace *t, uint32_t w);

/* Generation (a formula made symbolic): walk the branches br (events in
 * trace order; those whose condition is opaque are left to the run), and
 * for each with want[i] solve the path condition with it taking its other
 * outcome, the branches before it as they ran; at most max_checks solver
 * calls. Inputs keep their values, stay near them, stay printable or
 * modest, and arithmetic stays free of signed overflow, as far as the path
 * allows. Each solution lists the inputs the formula mentions and their new
 * values (the others keep theirs). 0, or <0 with e set. */
struct flip {
	uint32_t branch;        /* the negated branch (TRACE_NONE: the same path) */
	uint32_t varied;        /* the input made to differ on the same path (else TRACE_NONE) */
	uint32_t *in;
	long long *val;
	size_t n;
};
struct flips {
	struct flip *v;
	size_t n;
	size_t checks, clauses;
	double seconds;
	int capped;             /* the path's floating-point arithmetic outgrew what the solver is given */
};
int formula_flips(struct formula *f, const uint32_t *br, size_t nbr, const unsigned char *want, size_t max_checks,
		  struct flips *out, struct cerr *e);
/* The same path with other values: up to per_input solutions for each
 * input the run read (its numbers, or its bytes when it read no number),
 * the branches br all as they ran, that input unlike its own value and
 * every earlier solution's (at most max_checks solver calls). */
int formula_same_path(struct formula *f, const uint32_t *br, size_t nbr, size_t per_input, size_t max_checks,
		      struct flips *out, struct cerr *e);
void flips_release(struct flips *fl);

#endif
