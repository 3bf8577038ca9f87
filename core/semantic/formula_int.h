/* formula_int — the trace formula's builder, shared with core/comss (the
 * MaxSAT fault sets), which encodes several traces in one Z3 context. */
#ifndef CULPRIT_FORMULA_INT_H
#define CULPRIT_FORMULA_INT_H

#include <z3.h>
#include "core/semantic/formula.h"

struct formula {
	const struct trace *t;
	Z3_context z;
	/* Per round. */
	struct bits *queued;
	uint32_t *queue;
	size_t qhead, qtail, qcap;
	unsigned fresh;
	int failed;
	int symbolic;           /* inputs are variables (generation), not their observed values */
	uint32_t *inputs;       /* the input events given variables */
	size_t ninputs, capinputs;
	char err[256];
	/* For core/comss. */
	int shared;             /* z belongs to the caller */
	char tag[8];            /* prefix of variable names (several traces in one context) */
	uint32_t prefix_upto;   /* events before it are another trace's too: named with prefix_tag */
	char prefix_tag[8];
	unsigned rlimit;        /* generation's checks give up past this resource count (0: only the time limit) */
	size_t fp_ops;          /* floating-point operations built: each is a large circuit to the solver */
	int no_overflow;        /* signed + - * must not overflow: side conditions gathered in side */
	Z3_ast *side;
	size_t nside, capside;
	/* The value a read sees (NULL: the default, formula_read_value). */
	Z3_ast (*read_hook)(void *priv, struct formula *f, uint32_t read, int sgn, int w);
	void *hook_priv;
};

/* A formula over t in the caller's context, its names prefixed by tag. */
struct formula *formula_new_shared(const struct trace *t, Z3_context z, const char *tag);
/* Z3's error handler for culprit's contexts: errors are read back with
 * Z3_get_error_code (Z3's own default prints and exits the process). */
void formula_quiet_errors(Z3_context c, Z3_error_code code);
/* Start collecting: empty queue. */
void formula_begin(struct formula *f);
/* The next queued event (a write, parameter or return whose variable a
 * term used), or 0 when none. */
int formula_pop(struct formula *f, uint32_t *e);
Z3_ast formula_var(struct formula *f, uint32_t e);
/* v_e = [[e's expression]] (opaque: its observed value). */
Z3_ast formula_clause_body(struct formula *f, uint32_t e, int *opaque);
/* The branch event's condition as a Boolean (switch: equals the value taken); NULL if opaque. */
Z3_ast formula_branch_cond(struct formula *f, uint32_t b);
/* The expectation as a Boolean, or NULL. */
Z3_ast formula_expect(struct formula *f, const struct expect *x);
/* The value read r sees by default: its write's variable, or what was observed. */
Z3_ast formula_read_value(struct formula *f, uint32_t r, int sgn, int w);
Z3_ast formula_fresh(struct formula *f, int w);

#endif
