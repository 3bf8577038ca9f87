/* interact — change interaction (Böhme, Oliveira, Roychoudhury), statically,
 * from the instrumenter's metadata of the failing revision (libclang's view
 * of each statement: the variables it reads and writes, the calls it makes,
 * the statements it contains). A statement depends on another that writes
 * a variable it reads in the same function, that calls it with arguments
 * or returns to it, or that contains it (control). An interaction location
 * is a statement where the dependences of two or more changes first meet.
 * The change sequence graph links changes, interaction locations and
 * outputs (output calls, asserts) that depend on them, in that order. */
#ifndef CULPRIT_INTERACT_H
#define CULPRIT_INTERACT_H

#include <stddef.h>
#include "core/isolate/change.h"
#include "core/semantic/tmeta.h"

struct ia_loc {
	char *file;
	int line;
	char *text;
	size_t *changes;        /* change indices whose dependences meet here */
	size_t nchanges;
};

/* One sequence: change -> interaction location (or none) -> output. */
struct ia_seq {
	size_t change;
	long loc;               /* index in locs, -1: the change reaches the output alone */
	char *out_file;
	int out_line;
	char *out_text;
};

struct interact {
	struct ia_loc *locs;
	size_t nlocs;
	struct ia_seq *seqs;
	size_t nseqs;
	long *group;            /* per change: the first change of its interacting group, -1 alone */
	size_t nchanges;
	size_t stmts, edges;    /* the dependence graph's size */
};

/* Analyze the changes s (their new side) against the metadata m of the
 * same revision. 0 (always: what cannot be mapped is left out). */
int interact_analyze(struct interact *ia, const struct tmeta *m, const struct change_set *s);
void interact_release(struct interact *ia);
/* As JSON (change ids from ids[change index]), and back. */
void interact_json(const struct interact *ia, const unsigned *ids, struct buf *b);
int interact_from_json(struct interact *ia, const char *text, size_t len, const unsigned *ids, size_t nids,
		       struct cerr *e);

#endif
