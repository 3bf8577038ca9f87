/* gen — new test inputs from the failing run's trace (SAT-TAR; DART-style):
 * the program's inputs (its arguments and the values of the environment
 * variables it read with getenv, the numbers parsed from them, and the
 * bytes and scanf numbers of standard input and of the files named by its
 * arguments) are the variables of the path condition; each solution of the
 * path condition with one branch negated is turned back into a command
 * line (variables set before the program) and standard input; when no
 * branch gives one, the same path with another value of an input. */
#ifndef CULPRIT_GEN_H
#define CULPRIT_GEN_H

#include <stddef.h>
#include <stdint.h>
#include "core/semantic/trace.h"
#include "core/util.h"

struct gen_input {
	char **argv;            /* argv[0] as the test ran it, then the arguments */
	size_t argc;
	char **env;             /* the environment variables the run read: "NAME=value" */
	size_t nenv;
	struct buf in;          /* standard input */
	char *dir;              /* the working directory, relative to the tree ("." at its top) */
	uint32_t branch;        /* the negated branch event (TRACE_NONE: the run's own input) */
	uint32_t varied;        /* on the same path: the input event given another value (else TRACE_NONE) */
};

struct gen_stats {
	size_t branches;        /* input-dependent branches in the run */
	size_t checks;          /* solver calls */
	size_t clauses;
	size_t candidates;      /* distinct new inputs */
	double seconds;
	int capped;             /* a path's floating-point arithmetic was past what the solver is given */
};

/* The run's own input: root is the tree the test ran in; in0 its standard
 * input when known (else made from what the run read); files named by the
 * arguments are read from the tree, and new ones written to filedir (NULL:
 * files are left as they are). 0, or <0 with a one-line reason. */
int gen_original(const struct trace *t, const char *root, const struct buf *in0, const char *filedir,
		 struct gen_input *g, struct cerr *e);
/* Up to max new inputs, branches in prefer (events) tried first; inputs
 * equal to the run's own or to one in seen (commands) are left out. */
int gen_candidates(const struct trace *t, const char *root, const struct buf *in0, const char *filedir,
		   const uint32_t *prefer, size_t nprefer, size_t max, char *const *seen, size_t nseen,
		   struct gen_input **out, size_t *n, struct gen_stats *st, struct cerr *e);
/* Up to max new inputs that take the run's own path with other values (a
 * few for each input it read); the same exclusions as gen_candidates. */
int gen_same_path(const struct trace *t, const char *root, const struct buf *in0, const char *filedir, size_t max,
		  char *const *seen, size_t nseen, struct gen_input **out, size_t *n, struct gen_stats *st,
		  struct cerr *e);
/* Equal to b but for blanks: a near-copy that says nothing new. */
int gen_near_copy(const struct gen_input *a, const struct gen_input *b);
void gen_input_release(struct gen_input *g);
/* The shell command that runs the input from the tree's top:
 * cd 'dir' && printf '%s' '...' | NAME='v' './prog' 'arg' (caller frees). */
char *gen_command(const struct gen_input *g);
/* The variables, arguments and input for display: "N=3 './calc' '5' < \"1 2\"" (caller frees). */
char *gen_describe(const struct gen_input *g);

#endif
