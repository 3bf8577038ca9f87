/* deps — which hunks only compile together, from the code alone: a lexical
 * pass over both revisions of every changed C file (no build, no
 * instrumentation) finds the names each hunk declares or defines (function,
 * parameter, macro, type, field, enumerator, variable) and the names it
 * uses. A name whose declarations differ between the revisions (added,
 * removed, renamed, its signature or type changed; not a new initializer
 * or macro value) ties the hunks declaring it to the hunks using it, old
 * lines or new. The groups are the connected hunks. Also the hunks that
 * declare a given name, for repairing a configuration from compiler
 * errors (repair.h). */
#ifndef CULPRIT_DEPS_H
#define CULPRIT_DEPS_H

#include <stddef.h>
#include "core/isolate/change.h"

struct deps {
	long *group;        /* per change: its group's first change, or -1 when alone */
	size_t ngroups;     /* groups of two changes or more */
	size_t linked;      /* changes in such groups */
	/* Per change: the names it declares or defines (either side), NUL-separated, "" ended. */
	char **names;
	size_t nchanges;
};

/* Compute the groups of set s. Never fails: files it cannot read as C are
 * left alone (their changes stay single). */
void deps_compute(const struct change_set *s, struct deps *d);
void deps_release(struct deps *d);
/* The changes that declare or define name: indices into s->changes, in
 * out (room for s->nchanges); returns how many. */
size_t deps_declaring(const struct deps *d, const char *name, size_t *out);

#endif
