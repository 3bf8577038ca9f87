/* workspace — one scratch worktree under <gitdir>/culprit/, never the user's
 * working tree. It holds the base commit's files and materializes any
 * configuration by writing only the files whose content differs from what is
 * on disk, so build products stay and builds remain incremental. Reused across
 * runs: a state file beside it records which paths were overridden. */
#ifndef CULPRIT_WORKSPACE_H
#define CULPRIT_WORKSPACE_H

#include <stddef.h>
#include "core/util.h"
#include "core/isolate/repo.h"
#include "core/isolate/change.h"

struct workspace;

/* Open or create the worktree at dir (absolute) populated with base_hex's
 * tree. If dir holds another base, it is rebuilt from scratch. Paths
 * overridden by an earlier run are restored to the base first. */
int workspace_open(struct workspace **out, struct repo *r, const char *dir, const char *base_hex,
		   struct cerr *e);
void workspace_free(struct workspace *w);       /* NULL is a no-op */
const char *workspace_path(const struct workspace *w);

/* Make the worktree hold the configuration: the base tree with the set's
 * applied atoms; every path an earlier call overrode and this one does not
 * is restored to the base. *written (may be NULL) gets the number of files
 * written or removed. */
int workspace_apply(struct workspace *w, const struct change_set *s, const struct bits *applied,
		    size_t *written, struct cerr *e);

/* Does the worktree still hold what we wrote: the state file names the base
 * and lists every path a configuration overrode, and (contents != 0) those
 * paths hold what was last written there? 1 yes, 0 no (e says what differs). */
int workspace_verify(struct workspace *w, int contents, struct cerr *e);

/* Return every overridden path to the base. */
int workspace_reset(struct workspace *w, size_t *written, struct cerr *e);

#endif
