/* comss — formula-based fault sets (BugAssist; Jin & Orso): the failing
 * run's formula with each line's clauses soft and the expected outcome
 * hard; every CoMSS (a complement of a maximal satisfiable subset: lines
 * that, changed, would let the run pass) is enumerated, cheapest first.
 * With clause weighting a line's weight is 1 / suspiciousness (the largest
 * at 0), so likely-faulty lines are dropped first. With on-demand widening
 * (OFC), a CoMSS holding a branch whose other arm never ran makes the test
 * run again with that branch forced; the other arm's statements join the
 * formula (values after the join: ite(guard, this arm's, the other's)),
 * until no CoMSS branch has an unexplored arm — and on, while no CoMSS
 * holds a wanted line, to decisions with such a line in an arm no run
 * took. The statement where the failure shows is soft like the others (its
 * arguments are code). When the check cannot be modelled, the goal is the
 * failure's path: a decision of its slice flips, or the statement where it
 * shows is wrong — or, when no set holds a wanted line, any statement of
 * the slice (each a set); when even that is too hard for the solver, the
 * statements alone, without the formula. */
#ifndef CULPRIT_COMSS_H
#define CULPRIT_COMSS_H

#include <stddef.h>
#include "core/semantic/formula.h"
#include "core/semantic/trace.h"

struct comss_line {
	char *file;
	int line;
	char *text;             /* the source line */
	char *clause;           /* what the formula says of it: "b = a + 1 (b = 1)", "if (y < 5) was true" */
	double weight;
};

struct comss_set {
	struct comss_line *v;
	size_t n;
	double cost;            /* the sum of the weights */
};

struct comss_result {
	struct comss_set *sets; /* best first */
	size_t n;
	int paths;              /* runs encoded: the failing one and the forced ones */
	int iterations;
	size_t clauses;         /* soft clauses in the last formula */
	size_t checks;          /* solver calls */
	double seconds;
	int weighted;
	char *note;             /* why it ended early, or NULL */
};

struct comss_opts {
	int weighted;           /* clause weighting by suspiciousness */
	int ofc;                /* widen on demand */
	int all_paths;          /* widen at every branch first (the whole function, for comparison) */
	size_t max_sets;        /* (0: 8) */
	size_t max_size;        /* lines in a set at most (0: 6) */
	int max_paths;          /* runs at most (0: 8) */
	/* A line the sets should reach: changed, or ranked at the top (NULL:
	 * none). While no set holds one, widening goes on past the sets'
	 * own branches, to decisions with such a line in an arm no run took. */
	int (*wanted)(void *priv, const char *file, int line);
	size_t shown;           /* 1 + the event where the failure shows (its output, its crash); 0: not known */
	/* The suspiciousness of a line (weighted only). */
	double (*susp)(void *priv, const char *file, int line);
	/* Run the failing test again, traced, with the instance-th run of
	 * branch site `site` taking `outcome`; the trace is the caller's
	 * until comss_run returns (release). 0, or <0 with e set. */
	int (*forced)(void *priv, unsigned site, unsigned instance, int outcome, struct trace *out, struct cerr *e);
	void (*release)(void *priv, struct trace *t);
	void *priv;
};

/* The fault sets of the failing run t (its failure: the expectations x).
 * 0, or <0 with e set. */
int comss_run(const struct trace *t, const struct expect *x, size_t nx, const struct comss_opts *o,
	      struct comss_result *out, struct cerr *e);
void comss_release(struct comss_result *r);
/* The result as JSON, and back. */
void comss_json(const struct comss_result *r, struct buf *b);
int comss_from_json(struct comss_result *r, const char *text, size_t len, struct cerr *e);

#endif
