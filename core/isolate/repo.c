#include "core/isolate/repo.h"

#include <git2.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct repo {
	git_repository *r;
	char *gitdir, *workdir;
};

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int init_count;

static int git_fail(struct cerr *e, const char *what)
{
	const git_error *g = git_error_last();
	return cerr_set(e, "%s%s%s", what, g && g->message ? ": " : "", g && g->message ? g->message : "");
}

static char *with_slash(const char *p)
{
	size_t n = strlen(p);
	return n && p[n - 1] == '/' ? xstrdup(p) : xasprintf("%s/", p);
}

int repo_open(struct repo **out, const char *dir, struct cerr *e)
{
	pthread_mutex_lock(&init_lock);
	if (init_count++ == 0)
		git_libgit2_init();
	pthread_mutex_unlock(&init_lock);

	struct repo *r = xcalloc(1, sizeof(*r));
	*out = NULL;
	const char *d = dir ? dir : ".";
	char abs[PATH_MAX];
	if (!realpath(d, abs)) {
		cerr_set(e, "cannot open %s: no such directory", d);
		repo_free(r);
		return -1;
	}
	if (git_repository_open_ext(&r->r, abs, 0, NULL) < 0) {
		cerr_set(e, "not a git repository: %s", d);
		repo_free(r);
		return -1;
	}
	r->gitdir = with_slash(git_repository_commondir(r->r));
	if (git_repository_workdir(r->r))
		r->workdir = with_slash(git_repository_workdir(r->r));
	*out = r;
	return 0;
}

void repo_free(struct repo *r)
{
	if (!r)
		return;
	git_repository_free(r->r);
	free(r->gitdir);
	free(r->workdir);
	free(r);
	pthread_mutex_lock(&init_lock);
	if (--init_count == 0)
		git_libgit2_shutdown();
	pthread_mutex_unlock(&init_lock);
}

const char *repo_gitdir(const struct repo *r)
{
	return r->gitdir;
}

const char *repo_workdir(const struct repo *r)
{
	return r->workdir;
}

int repo_resolve(struct repo *r, const char *rev, char hex[41], struct cerr *e)
{
	git_object *obj = NULL, *commit = NULL;
	if (git_revparse_single(&obj, r->r, rev) < 0)
		return cerr_set(e, "unknown revision: %s", rev);
	int rc = git_object_peel(&commit, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (rc < 0)
		return cerr_set(e, "not a commit: %s", rev);
	git_oid_tostr(hex, 41, git_object_id(commit));
	git_object_free(commit);
	return 0;
}

int repo_is_ancestor(struct repo *r, const char *a_hex, const char *b_hex, struct cerr *e)
{
	git_oid a, b;
	if (git_oid_fromstr(&a, a_hex) < 0 || git_oid_fromstr(&b, b_hex) < 0)
		return cerr_set(e, "bad commit id");
	if (git_oid_equal(&a, &b))
		return 1;
	int rc = git_graph_descendant_of(r->r, &b, &a);
	return rc < 0 ? git_fail(e, "cannot walk history") : rc;
}

int repo_first_parents(struct repo *r, const char *good_hex, const char *bad_hex, char (**out)[41], size_t *n,
		       struct cerr *e)
{
	git_revwalk *w = NULL;
	git_oid oid;
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	char *range = xasprintf("%s..%s", good_hex, bad_hex);
	int rc = git_revwalk_new(&w, r->r);
	if (rc == 0)
		rc = git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	if (rc == 0)
		rc = git_revwalk_push_range(w, range);
	if (rc == 0)
		rc = git_revwalk_simplify_first_parent(w);
	free(range);
	if (rc < 0) {
		git_revwalk_free(w);
		return git_fail(e, "cannot list commits");
	}
	while ((rc = git_revwalk_next(&oid, w)) == 0) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			*out = xrealloc(*out, cap * sizeof(**out));
		}
		git_oid_tostr((*out)[(*n)++], 41, &oid);
	}
	git_revwalk_free(w);
	if (rc != GIT_ITEROVER) {
		free(*out);
		*out = NULL;
		*n = 0;
		return git_fail(e, "cannot list commits");
	}
	/* The walk hides everything reachable from good; keep only the
	 * first-parent chain that ends at bad, oldest first. */
	return 0;
}

void repo_graph_release(struct repo_graph *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->parents[i]);
	free(g->parents);
	free(g->nparents);
	free(g->id);
	free(g->first_parent);
	free(g->arity);
	free(g->date);
	free(g->idrank);
	memset(g, 0, sizeof(*g));
}

static int cmp_oid_index(const void *a, const void *b)
{
	return memcmp(a, b, 41);
}

struct idx {
	char id[41];
	size_t k;
};

/* A sorted copy of ids[0..n), each with its index. */
static struct idx *sort_ids(char (*ids)[41], size_t n)
{
	struct idx *sorted = xmalloc((n + 1) * sizeof(*sorted));
	for (size_t k = 0; k < n; k++) {
		memcpy(sorted[k].id, ids[k], 41);
		sorted[k].k = k;
	}
	qsort(sorted, n, sizeof(*sorted), cmp_oid_index);
	return sorted;
}

size_t *repo_id_ranks(char (*ids)[41], size_t n)
{
	struct idx *sorted = sort_ids(ids, n);
	size_t *rank = xmalloc((n + 1) * sizeof(*rank));
	for (size_t i = 0; i < n; i++)
		rank[sorted[i].k] = i;
	free(sorted);
	return rank;
}

int repo_graph(struct repo *r, const char *good_hex, const char *bad_hex, struct repo_graph *g, struct cerr *e)
{
	git_revwalk *w = NULL;
	git_oid oid, good, bad;
	size_t cap = 0;
	memset(g, 0, sizeof(*g));
	if (git_oid_fromstr(&good, good_hex) < 0 || git_oid_fromstr(&bad, bad_hex) < 0)
		return cerr_set(e, "bad commit id");
	int rc = git_revwalk_new(&w, r->r);
	if (rc == 0)
		rc = git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	if (rc == 0)
		rc = git_revwalk_push(w, &bad);
	if (rc == 0)
		rc = git_revwalk_hide(w, &good);
	if (rc < 0) {
		git_revwalk_free(w);
		return git_fail(e, "cannot list commits");
	}
	while ((rc = git_revwalk_next(&oid, w)) == 0) {
		if (g->n == cap) {
			cap = cap ? 2 * cap : 64;
			g->id = xrealloc(g->id, cap * sizeof(*g->id));
		}
		git_oid_tostr(g->id[g->n++], 41, &oid);
	}
	git_revwalk_free(w);
	if (rc != GIT_ITEROVER) {
		repo_graph_release(g);
		return git_fail(e, "cannot list commits");
	}
	/* Parents by index: a sorted copy of the ids to look them up. */
	struct idx *sorted = sort_ids(g->id, g->n);
	g->parents = xcalloc(g->n + 1, sizeof(*g->parents));
	g->nparents = xcalloc(g->n + 1, sizeof(*g->nparents));
	g->first_parent = xcalloc(g->n + 1, sizeof(*g->first_parent));
	g->arity = xcalloc(g->n + 1, sizeof(*g->arity));
	g->date = xcalloc(g->n + 1, sizeof(*g->date));
	g->idrank = xcalloc(g->n + 1, sizeof(*g->idrank));
	for (size_t i = 0; i < g->n; i++)
		g->idrank[sorted[i].k] = i;
	for (size_t k = 0; k < g->n; k++) {
		git_commit *c = NULL;
		git_oid_fromstr(&oid, g->id[k]);
		if (git_commit_lookup(&c, r->r, &oid) < 0) {
			free(sorted);
			repo_graph_release(g);
			return git_fail(e, "cannot read a commit");
		}
		unsigned np = git_commit_parentcount(c);
		g->arity[k] = np;
		g->date[k] = (long long)git_commit_time(c);
		g->parents[k] = xmalloc((np + 1) * sizeof(**g->parents));
		for (unsigned i = 0; i < np; i++) {
			char hex[41];
			git_oid_tostr(hex, 41, git_commit_parent_id(c, i));
			if (i == 0)
				memcpy(g->first_parent[k], hex, 41);
			struct idx *f = bsearch(hex, sorted, g->n, sizeof(*sorted), cmp_oid_index);
			if (f)
				g->parents[k][g->nparents[k]++] = f->k;
		}
		git_commit_free(c);
	}
	free(sorted);
	return 0;
}

/* Does data hold the block? */
static int holds(const char *data, size_t len, const char *block, size_t blen)
{
	if (!blen)
		return 0;
	for (size_t i = 0; i + blen <= len; i++)
		if (data[i] == block[0] && !memcmp(data + i, block, blen))
			return 1;
	return 0;
}

long repo_introduced(struct repo *r, const char (*ids)[41], size_t n, const char *newest_hex, const char *path,
		     int line, int count, const char *removed, size_t removed_len)
{
	long found = -1;
	if (count > 0) {
		git_blame *bl = NULL;
		git_blame_options bo;
		git_blame_options_init(&bo, GIT_BLAME_OPTIONS_VERSION);
		git_oid_fromstr(&bo.newest_commit, newest_hex);
		bo.min_line = (size_t)line;
		bo.max_line = (size_t)(line + count - 1);
		if (git_blame_file(&bl, r->r, path, &bo) < 0)
			return -1;
		/* The newest commit of the range among the lines' authors. */
		for (uint32_t i = 0; i < git_blame_get_hunk_count(bl); i++) {
			const git_blame_hunk *h = git_blame_get_hunk_byindex(bl, i);
			char hex[41];
			git_oid_tostr(hex, 41, &h->final_commit_id);
			for (size_t k = 0; k < n; k++)
				if (!strcmp(ids[k], hex) && (long)k > found)
					found = (long)k;
		}
		git_blame_free(bl);
		return found;
	}
	/* Removed lines: the newest commit whose first parent has them and it has not. */
	struct buf have = BUF_INIT, before = BUF_INIT;
	for (size_t k = n; k-- > 0 && found < 0;) {
		git_commit *c = NULL;
		git_oid oid;
		unsigned mode;
		git_oid_fromstr(&oid, ids[k]);
		if (git_commit_lookup(&c, r->r, &oid) < 0)
			break;
		char parent[41] = "";
		if (git_commit_parentcount(c) > 0)
			git_oid_tostr(parent, 41, git_commit_parent_id(c, 0));
		git_commit_free(c);
		if (!parent[0])
			continue;
		int a = repo_read_path(r, ids[k], path, &have, &mode, NULL);
		int b = repo_read_path(r, parent, path, &before, &mode, NULL);
		if (b == 1 && holds(before.s, before.len, removed, removed_len) &&
		    (a != 1 || !holds(have.s, have.len, removed, removed_len)))
			found = (long)k;
	}
	buf_release(&have);
	buf_release(&before);
	return found;
}

char *repo_commit_subject(struct repo *r, const char *hex)
{
	git_oid oid;
	git_commit *c = NULL;
	if (git_oid_fromstr(&oid, hex) < 0 || git_commit_lookup(&c, r->r, &oid) < 0)
		return NULL;
	const char *s = git_commit_summary(c);
	char *out = s ? xstrdup(s) : NULL;
	git_commit_free(c);
	return out;
}

char *repo_commit_author(struct repo *r, const char *hex, long long *when)
{
	git_oid oid;
	git_commit *c = NULL;
	*when = 0;
	if (git_oid_fromstr(&oid, hex) < 0 || git_commit_lookup(&c, r->r, &oid) < 0)
		return NULL;
	const git_signature *a = git_commit_author(c);
	char *out = a ? xasprintf("%s <%s>", a->name ? a->name : "", a->email ? a->email : "") : NULL;
	if (a)
		*when = (long long)a->when.time;
	git_commit_free(c);
	return out;
}

static int commit_tree(struct repo *r, const char *hex, git_tree **tree, struct cerr *e)
{
	git_oid oid;
	git_commit *c = NULL;
	if (git_oid_fromstr(&oid, hex) < 0 || git_commit_lookup(&c, r->r, &oid) < 0)
		return cerr_set(e, "cannot read commit %.12s", hex);
	int rc = git_commit_tree(tree, c);
	git_commit_free(c);
	return rc < 0 ? cerr_set(e, "cannot read the tree of %.12s", hex) : 0;
}

struct walk_ctx {
	struct repo *r;
	int (*want)(const char *path);
	repo_blob_cb cb;
	void *priv;
	int rc;
	struct cerr *e;
	const char *prefix;   /* a submodule's path and '/', or "" */
};

static int walk_cb(const char *root, const git_tree_entry *entry, void *payload)
{
	struct walk_ctx *w = payload;
	git_filemode_t mode = git_tree_entry_filemode(entry);
	if (mode == GIT_FILEMODE_COMMIT) {
		char *path = xasprintf("%s%s%s", w->prefix, root, git_tree_entry_name(entry));
		char hex[GIT_OID_HEXSZ + 1];
		git_oid_tostr(hex, sizeof(hex), git_tree_entry_id(entry));
		w->rc = w->cb(w->priv, path, (unsigned)mode, hex, GIT_OID_HEXSZ);
		free(path);
		return w->rc ? -1 : 0;
	}
	if (mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE && mode != GIT_FILEMODE_LINK)
		return 0;
	char *path = xasprintf("%s%s%s", w->prefix, root, git_tree_entry_name(entry));
	if (w->want && !w->want(path)) {
		free(path);
		return 0;
	}
	git_blob *blob = NULL;
	if (git_blob_lookup(&blob, w->r->r, git_tree_entry_id(entry)) < 0) {
		free(path);
		w->rc = git_fail(w->e, "cannot read a blob");
		return -1;
	}
	w->rc = w->cb(w->priv, path, (unsigned)mode, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	free(path);
	git_blob_free(blob);
	return w->rc ? -1 : 0;
}

int repo_tree_walk(struct repo *r, const char *commit_hex, repo_blob_cb cb, void *priv, struct cerr *e)
{
	return repo_tree_walk_some(r, commit_hex, NULL, cb, priv, e);
}

int repo_tree_walk_some(struct repo *r, const char *commit_hex, int (*want)(const char *path), repo_blob_cb cb,
			void *priv, struct cerr *e)
{
	git_tree *tree = NULL;
	if (commit_tree(r, commit_hex, &tree, e) < 0)
		return -1;
	struct walk_ctx w = {r, want, cb, priv, 0, e, ""};
	int rc = git_tree_walk(tree, GIT_TREEWALK_PRE, walk_cb, &w);
	git_tree_free(tree);
	if (w.rc)
		return w.rc;
	return rc < 0 ? git_fail(e, "cannot walk the tree") : 0;
}

/* The repository of submodule path: the one checked out in the work tree,
 * else the one git keeps under modules/ (a submodule deinitialized, or a
 * bare repository); NULL when there is none. */
static git_repository *submodule_repo(struct repo *r, const char *path)
{
	git_repository *sub = NULL;
	git_submodule *sm = NULL;
	if (r->workdir && git_submodule_lookup(&sm, r->r, path) == 0) {
		if (git_submodule_open(&sub, sm) < 0)
			sub = NULL;
		git_submodule_free(sm);
	}
	if (!sub) {
		char *dir = xasprintf("%smodules/%s", r->gitdir, path);
		if (git_repository_open_ext(&sub, dir, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0)
			sub = NULL;
		free(dir);
	}
	git_error_clear();
	return sub;
}

int repo_submodule_walk(struct repo *r, const char *path, const char *commit_hex, repo_blob_cb cb, void *priv,
			struct cerr *e)
{
	git_repository *sub = submodule_repo(r, path);
	if (!sub)
		return 0;
	git_oid oid;
	git_commit *c = NULL;
	git_tree *tree = NULL;
	int found = git_oid_fromstr(&oid, commit_hex) == 0 && git_commit_lookup(&c, sub, &oid) == 0 &&
		    git_commit_tree(&tree, c) == 0;
	git_commit_free(c);
	git_error_clear();
	int rc = 0;
	if (found) {
		struct repo sr = {sub, NULL, NULL};
		char *prefix = xasprintf("%s/", path);
		struct walk_ctx w = {&sr, NULL, cb, priv, 0, e, prefix};
		rc = git_tree_walk(tree, GIT_TREEWALK_PRE, walk_cb, &w);
		rc = w.rc ? w.rc : rc < 0 ? git_fail(e, "cannot walk a submodule's tree") : 1;
		free(prefix);
		git_tree_free(tree);
	}
	git_repository_free(sub);
	return rc;
}

static int sub_tree(git_repository *gr, const git_oid *oid, git_tree **tree);

/* Read path of tree (in repository gr) into out: 1 found, 0 absent, <0
 * error. A path inside a submodule of the top repository (at the commit
 * the tree records) is read from the submodule's repository. */
static int read_tree_path(struct repo *r, git_repository *gr, git_tree *tree, const char *path, struct buf *out,
			  unsigned *mode, struct cerr *e)
{
	git_tree_entry *entry = NULL;
	int rc = git_tree_entry_bypath(&entry, tree, path);
	if (rc == GIT_ENOTFOUND && gr == r->r) {
		/* The first directory of the path that is a submodule. */
		git_error_clear();
		for (const char *sl = strchr(path, '/'); sl; sl = strchr(sl + 1, '/')) {
			char *dir = xstrndup(path, (size_t)(sl - path));
			git_tree_entry *de = NULL;
			int found = git_tree_entry_bypath(&de, tree, dir) == 0;
			git_error_clear();
			int sub = found && git_tree_entry_filemode(de) == GIT_FILEMODE_COMMIT;
			git_repository *sr = sub ? submodule_repo(r, dir) : NULL;
			git_tree *st = NULL;
			rc = 0;
			if (sr && sub_tree(sr, git_tree_entry_id(de), &st) == 0 && st)
				rc = read_tree_path(r, sr, st, sl + 1, out, mode, e);
			git_tree_free(st);
			git_repository_free(sr);
			git_tree_entry_free(de);
			free(dir);
			if (sub || !found)
				return rc;
		}
		return 0;
	}
	if (rc == GIT_ENOTFOUND)
		return 0;
	if (rc < 0)
		return git_fail(e, "cannot read the tree");
	git_filemode_t m = git_tree_entry_filemode(entry);
	if (m != GIT_FILEMODE_BLOB && m != GIT_FILEMODE_BLOB_EXECUTABLE && m != GIT_FILEMODE_LINK) {
		git_tree_entry_free(entry);
		return 0;
	}
	git_blob *blob = NULL;
	rc = git_blob_lookup(&blob, gr, git_tree_entry_id(entry));
	git_tree_entry_free(entry);
	if (rc < 0)
		return git_fail(e, "cannot read a blob");
	buf_reset(out);
	buf_add(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	*mode = (unsigned)m;
	git_blob_free(blob);
	return 1;
}

int repo_read_path(struct repo *r, const char *commit_hex, const char *path, struct buf *out, unsigned *mode,
		   struct cerr *e)
{
	git_tree *tree = NULL;
	if (commit_tree(r, commit_hex, &tree, e) < 0)
		return -1;
	int rc = read_tree_path(r, r->r, tree, path, out, mode, e);
	git_tree_free(tree);
	return rc;
}

static int blob_data(git_repository *gr, const git_diff_file *f, git_blob **blob)
{
	*blob = NULL;
	if (!(f->flags & GIT_DIFF_FLAG_EXISTS) || git_oid_is_zero(&f->id))
		return 0;
	return git_blob_lookup(blob, gr, &f->id);
}

/* The function context of a hunk header: the text after the second "@@". */
static void hunk_function(const git_diff_hunk *h, const char **fn, size_t *len)
{
	const char *s = h->header, *end = h->header + h->header_len;
	const char *at = NULL;
	for (const char *p = s + 2; p + 1 < end; p++)
		if (p[0] == '@' && p[1] == '@') {
			at = p + 2;
			break;
		}
	*fn = "";
	*len = 0;
	if (!at)
		return;
	while (at < end && (*at == ' ' || *at == '\t'))
		at++;
	while (end > at && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	*fn = at;
	*len = (size_t)(end - at);
}

/* The tree of commit oid in repository gr (NULL oid or zero: none). */
static int sub_tree(git_repository *gr, const git_oid *oid, git_tree **tree)
{
	git_commit *c = NULL;
	*tree = NULL;
	if (!oid || git_oid_is_zero(oid))
		return 0;
	int rc = git_commit_lookup(&c, gr, oid) == 0 && git_commit_tree(tree, c) == 0 ? 0 : -1;
	git_commit_free(c);
	git_error_clear();
	return rc;
}

static int diff_trees(struct repo *r, git_repository *gr, git_tree *ot, git_tree *nt, const char *prefix,
		      struct change_set *s, struct cerr *e);

/* A submodule whose commit changed (or that came or went): the files of
 * its two commits, under its path, when its repository is here (see
 * submodule_repo); else nothing, as before. */
static int diff_submodule(struct repo *r, const git_diff_delta *d, const char *prefix, struct change_set *s,
			  struct cerr *e)
{
	int old = d->old_file.mode == GIT_FILEMODE_COMMIT, new = d->new_file.mode == GIT_FILEMODE_COMMIT;
	if ((d->old_file.mode && !old) || (d->new_file.mode && !new) || prefix[0])
		return 0;   /* a file made a submodule, or a submodule's own: left out */
	const char *path = new ? d->new_file.path : d->old_file.path;
	git_repository *sub = submodule_repo(r, path);
	if (!sub)
		return 0;
	git_tree *ot = NULL, *nt = NULL;
	int rc = 0;
	if (sub_tree(sub, old ? &d->old_file.id : NULL, &ot) == 0 && sub_tree(sub, new ? &d->new_file.id : NULL, &nt) == 0) {
		char *in = xasprintf("%s/", path);
		rc = diff_trees(r, sub, ot, nt, in, s, e);
		free(in);
	}
	git_tree_free(ot);
	git_tree_free(nt);
	git_repository_free(sub);
	return rc;
}

/* Add to s the changes between trees ot and nt of repository gr, their
 * paths under prefix (a submodule's, or ""). */
static int diff_trees(struct repo *r, git_repository *gr, git_tree *ot, git_tree *nt, const char *prefix,
		      struct change_set *s, struct cerr *e)
{
	git_diff *diff = NULL;
	git_diff_options opts;
	git_diff_find_options fopts;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	git_diff_find_options_init(&fopts, GIT_DIFF_FIND_OPTIONS_VERSION);
	opts.context_lines = 0;
	opts.interhunk_lines = 0;
	fopts.flags = GIT_DIFF_FIND_RENAMES;
	if (git_diff_tree_to_tree(&diff, gr, ot, nt, &opts) < 0 || git_diff_find_similar(diff, &fopts) < 0) {
		git_diff_free(diff);
		return git_fail(e, "cannot diff");
	}
	int rc = 0;
	size_t n = git_diff_num_deltas(diff);
	for (size_t i = 0; i < n && rc == 0; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		if (d->old_file.mode == GIT_FILEMODE_COMMIT || d->new_file.mode == GIT_FILEMODE_COMMIT) {
			rc = diff_submodule(r, d, prefix, s, e);
			continue;
		}
		enum change_file_status st;
		switch (d->status) {
		case GIT_DELTA_ADDED: st = CHANGE_ADDED; break;
		case GIT_DELTA_DELETED: st = CHANGE_DELETED; break;
		case GIT_DELTA_RENAMED: st = CHANGE_RENAMED; break;
		case GIT_DELTA_MODIFIED:
		case GIT_DELTA_TYPECHANGE: st = CHANGE_MODIFIED; break;
		default: continue;
		}
		git_blob *ob = NULL, *nb = NULL;
		git_patch *patch = NULL;
		if (blob_data(gr, &d->old_file, &ob) < 0 || blob_data(gr, &d->new_file, &nb) < 0) {
			rc = git_fail(e, "cannot read a blob");
		} else if (git_patch_from_diff(&patch, diff, i) < 0) {
			rc = git_fail(e, "cannot diff a file");
		} else {
			int binary = (d->flags & GIT_DIFF_FLAG_BINARY) != 0 ||
				     (ob && git_blob_is_binary(ob)) || (nb && git_blob_is_binary(nb));
			char *op = xasprintf("%s%s", prefix, d->old_file.path), *np = xasprintf("%s%s", prefix, d->new_file.path);
			change_set_add_file(s, st == CHANGE_ADDED ? np : op, st == CHANGE_DELETED ? op : np,
					    st == CHANGE_ADDED ? 0 : d->old_file.mode, st == CHANGE_DELETED ? 0 : d->new_file.mode,
					    ob ? git_blob_rawcontent(ob) : NULL, ob ? (size_t)git_blob_rawsize(ob) : 0,
					    nb ? git_blob_rawcontent(nb) : NULL, nb ? (size_t)git_blob_rawsize(nb) : 0, st, binary);
			free(op);
			free(np);
			if (st == CHANGE_ADDED) {
				change_set_add_file_change(s, CHANGE_FILE_ADD);
			} else if (st == CHANGE_DELETED) {
				change_set_add_file_change(s, CHANGE_FILE_DELETE);
			} else {
				if (st == CHANGE_RENAMED)
					change_set_add_file_change(s, CHANGE_FILE_RENAME);
				if (d->old_file.mode != d->new_file.mode)
					change_set_add_file_change(s, CHANGE_FILE_MODE);
				if (binary) {
					if (!git_oid_equal(&d->old_file.id, &d->new_file.id))
						change_set_add_file_change(s, CHANGE_FILE_BINARY);
				} else {
					size_t nh = git_patch_num_hunks(patch);
					for (size_t k = 0; k < nh; k++) {
						const git_diff_hunk *h;
						size_t lines;
						if (git_patch_get_hunk(&h, &lines, patch, k) < 0)
							continue;
						const char *fn;
						size_t fnlen;
						hunk_function(h, &fn, &fnlen);
						change_set_add_hunk(s, h->old_start, h->old_lines, h->new_start,
								    h->new_lines, fn, fnlen);
					}
				}
			}
		}
		git_patch_free(patch);
		git_blob_free(ob);
		git_blob_free(nb);
	}
	git_diff_free(diff);
	return rc;
}

int repo_diff(struct repo *r, const char *old_hex, const char *new_hex, struct change_set **out, struct cerr *e)
{
	git_tree *ot = NULL, *nt = NULL;
	int rc = -1;

	*out = NULL;
	if (commit_tree(r, old_hex, &ot, e) < 0 || commit_tree(r, new_hex, &nt, e) < 0)
		goto out;
	struct change_set *s = change_set_new(old_hex, new_hex);
	if (diff_trees(r, r->r, ot, nt, "", s, e) < 0 || change_set_finish(s, e) < 0) {
		change_set_free(s);
		goto out;
	}
	*out = s;
	rc = 0;
out:
	git_tree_free(ot);
	git_tree_free(nt);
	return rc;
}

void repo_hash(const void *data, size_t len, char hex[41])
{
	git_oid oid;
	git_odb_hash(&oid, data, len, GIT_OBJECT_BLOB);
	git_oid_tostr(hex, 41, &oid);
}
