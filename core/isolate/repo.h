/* repo — everything libgit2: open the user's repository from any
 * subdirectory, resolve revisions, list first-parent commits, read trees and
 * blobs, and diff two trees (zero context) into a change set. Read-only: it
 * never writes the user's working tree, index, HEAD or refs. */
#ifndef CULPRIT_REPO_H
#define CULPRIT_REPO_H

#include <stddef.h>
#include "core/util.h"
#include "core/isolate/change.h"

struct repo;

/* Open the repository containing dir (NULL: the current directory). */
int repo_open(struct repo **out, const char *dir, struct cerr *e);
void repo_free(struct repo *r);                 /* NULL is a no-op */
/* Absolute path of the git directory (the common one for linked worktrees), with a trailing '/'. */
const char *repo_gitdir(const struct repo *r);
/* Absolute path of the working tree with a trailing '/', or NULL for a bare repository. */
const char *repo_workdir(const struct repo *r);

/* Resolve any revision syntax (HEAD~3, v1.0, abc123, main@{1}) to a commit id. */
int repo_resolve(struct repo *r, const char *rev, char hex[41], struct cerr *e);
/* Whether commit a is an ancestor of commit b (1 yes, 0 no, <0 error). */
int repo_is_ancestor(struct repo *r, const char *a_hex, const char *b_hex, struct cerr *e);
/* The first-parent commits of good..bad, oldest first, ending with bad.
 * *out is an array of 41-byte strings owned by the caller (free()). */
int repo_first_parents(struct repo *r, const char *good_hex, const char *bad_hex,
		       char (**out)[41], size_t *n, struct cerr *e);
/* The commits reachable from bad and not from good (what `git bisect`
 * searches), parents before children, bad last. parents[k] lists the
 * indices of commit k's parents inside the range (first parent first);
 * first_parent[k] is its first parent's id ("" for a root commit); date[k]
 * its committer time and idrank[k] its id's rank in byte order (what git
 * bisect's choice depends on besides the graph). */
struct repo_graph {
	char (*id)[41];
	size_t n;
	size_t **parents;
	size_t *nparents;
	char (*first_parent)[41];
	unsigned *arity;            /* all its parents, in the range or not */
	long long *date;
	size_t *idrank;
};
int repo_graph(struct repo *r, const char *good_hex, const char *bad_hex, struct repo_graph *g, struct cerr *e);
void repo_graph_release(struct repo_graph *g);
/* The rank of each of ids[0..n) in byte order (malloc'd). */
size_t *repo_id_ranks(char (*ids)[41], size_t n);

/* The commit among ids[0..n) (a range, parents first) that last touched the
 * lines [line, line+count) of path as they are in newest (count 0: the
 * place where lines were removed: the commit whose first parent still had
 * the removed text). Returns its index, or -1 when none can be told. */
long repo_introduced(struct repo *r, const char (*ids)[41], size_t n, const char *newest_hex, const char *path,
		     int line, int count, const char *removed, size_t removed_len);

/* The first line of a commit's message (caller frees). */
char *repo_commit_subject(struct repo *r, const char *hex);
/* The commit's author ("Name <email>", caller frees; NULL when unreadable) and time (seconds since the epoch). */
char *repo_commit_author(struct repo *r, const char *hex, long long *when);

/* Call cb for every blob and symlink of the commit's tree, and for every
 * submodule with mode 0160000 and its commit's id (40 hex digits) as data. */
typedef int (*repo_blob_cb)(void *priv, const char *path, unsigned mode, const char *data, size_t len);
int repo_tree_walk(struct repo *r, const char *commit_hex, repo_blob_cb cb, void *priv, struct cerr *e);
/* The same for the blobs whose path want() accepts: the others are not read. */
int repo_tree_walk_some(struct repo *r, const char *commit_hex, int (*want)(const char *path), repo_blob_cb cb,
			void *priv, struct cerr *e);
/* Call cb for every blob and symlink of submodule path at commit_hex, its
 * paths under path/: 1 done, 0 when the submodule's repository or that
 * commit is not here (neither checked out nor kept under modules/), <0
 * error. Nothing is written to the submodule's repository. */
int repo_submodule_walk(struct repo *r, const char *path, const char *commit_hex, repo_blob_cb cb, void *priv,
			struct cerr *e);
/* Read one path of a commit's tree: 1 found (data in out, mode set), 0 absent, <0 error. */
int repo_read_path(struct repo *r, const char *commit_hex, const char *path, struct buf *out,
		   unsigned *mode, struct cerr *e);

/* Diff the trees of two commits at zero context, with rename detection, into
 * a new change set (caller frees with change_set_free). */
int repo_diff(struct repo *r, const char *old_hex, const char *new_hex, struct change_set **out,
	      struct cerr *e);

/* The git blob id of data (SHA-1 of "blob <len>\0" + data), as hex. */
void repo_hash(const void *data, size_t len, char hex[41]);

#endif
