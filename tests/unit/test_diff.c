/* repo + change: real repositories, zero-context diffs of every kind of
 * file change, and materialization byte for byte. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/isolate/change.h"
#include "core/isolate/repo.h"
#include "tests/unit/test.h"

static char dir[256];

static void sh(const char *script)
{
	struct buf cmd = BUF_INIT;
	buf_addf(&cmd, "cd '%s' && %s", dir, script);
	if (system(cmd.s) != 0) {
		printf("  setup failed: %s\n", cmd.s);
		exit(1);
	}
	buf_release(&cmd);
}

#define setup_env \
	"export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t " \
	"GIT_COMMITTER_EMAIL=t@example.org GIT_CONFIG_NOSYSTEM=1 HOME=%s; "

/* Build a repository with tags good and bad covering every kind of change. */
static void make_repo(void)
{
	struct buf script = BUF_INIT;
	buf_addf(&script, setup_env, dir);
	buf_adds(&script,
		 "git init -q -b main . && git config core.autocrlf false && "
		 "printf 'one\\ntwo\\nthree\\nfour\\nfive\\nsix\\nseven\\n' > text.txt && "
		 "printf 'no newline at the end\\nlast' > nonl.txt && "
		 "printf 'a\\r\\nb\\r\\nc\\r\\n' > crlf.txt && "
		 "printf 'int limit = 10;\\n' > lim.c && "
		 "awk 'BEGIN { for (i = 0; i < 40; i++) printf \"line %d of a file that will move\\n\", i }' > old.txt && "
		 "printf 'to delete\\n' > gone.txt && "
		 "printf '#!/bin/sh\\necho hi\\n' > run.sh && "
		 "awk 'BEGIN { for (i = 0; i < 256; i++) printf \"%c\", i }' > blob.bin && "
		 "mkdir -p sub/dir && printf 'deep\\n' > sub/dir/deep.txt && "
		 "git add -A && git commit -qm good && git tag good && "
		 "printf 'zero\\none\\nTWO\\nthree\\nfive\\nsix\\nseven\\neight\\n' > text.txt && "
		 "printf 'no newline at the end\\nlast, changed' > nonl.txt && "
		 "printf 'a\\r\\nB\\r\\nc\\r\\n' > crlf.txt && "
		 "printf 'int max_items = 5;\\n' > lim.c && "
		 "git mv old.txt new.txt && sed -i 's/line 20 /line twenty /' new.txt && "
		 "git rm -q gone.txt && printf 'added\\n' > added.txt && "
		 "chmod +x run.sh && "
		 "awk 'BEGIN { for (i = 255; i >= 0; i--) printf \"%c\", i }' > blob.bin && "
		 "printf 'deeper\\n' > sub/dir/deep.txt && "
		 "git add -A && git commit -qm bad && git tag bad && "
		 "git commit -q --allow-empty -m empty && git tag same");
	sh(script.s);
	buf_release(&script);
}

struct tree_check {
	struct repo *r;
	const char *rev;
	int mismatches, seen;
};

/* Each materialized path must equal the revision's file (or be absent there). */
static int check_cb(void *priv, const char *path, int present, unsigned mode, const char *data, size_t len)
{
	struct tree_check *t = priv;
	struct buf b = BUF_INIT;
	unsigned m = 0;
	int found = repo_read_path(t->r, t->rev, path, &b, &m, NULL);
	t->seen++;
	if (found != present || (present && (m != mode || b.len != len || memcmp(b.s, data, len)))) {
		printf("  %s differs from %s (present %d/%d)\n", path, t->rev, present, found);
		t->mismatches++;
	}
	buf_release(&b);
	return 0;
}

static struct change_set *diff(struct repo *r, const char *a, const char *b)
{
	char ha[41], hb[41];
	struct change_set *s = NULL;
	struct cerr e;
	CHECK(repo_resolve(r, a, ha, &e) == 0);
	CHECK(repo_resolve(r, b, hb, &e) == 0);
	CHECK(repo_diff(r, ha, hb, &s, &e) == 0);
	return s;
}

static const struct change_file *file_named(const struct change_set *s, const char *path)
{
	for (size_t i = 0; i < s->nfiles; i++)
		if (!strcmp(s->files[i].new_path, path))
			return &s->files[i];
	return NULL;
}

static void test_open_and_resolve(void)
{
	struct repo *r;
	struct cerr e;
	char sub[300], h1[41], h2[41];
	snprintf(sub, sizeof(sub), "%s/sub/dir", dir);
	CHECK(repo_open(&r, sub, &e) == 0);
	CHECK(strstr(repo_gitdir(r), ".git/") != NULL);
	CHECK(repo_resolve(r, "bad~1", h1, &e) == 0);
	CHECK(repo_resolve(r, "good", h2, &e) == 0);
	CHECK_STR(h1, h2);
	h1[7] = '\0';
	CHECK(repo_resolve(r, h1, h2, &e) == 0);   /* a short hash */
	CHECK(repo_resolve(r, "no-such-rev", h2, &e) < 0);
	CHECK_STR(e.msg, "unknown revision: no-such-rev");
	repo_free(r);
	CHECK(repo_open(&r, "/", &e) < 0);
	CHECK(strstr(e.msg, "not a git repository") != NULL);
}

static void test_kinds_of_change(void)
{
	struct repo *r;
	struct cerr e;
	CHECK(repo_open(&r, dir, &e) == 0);
	struct change_set *s = diff(r, "good", "bad");
	const struct change_file *f;
	CHECK((f = file_named(s, "new.txt")) && f->status == CHANGE_RENAMED && !strcmp(f->old_path, "old.txt"));
	CHECK(f && f->nchanges == 2 && s->changes[f->change0].kind == CHANGE_FILE_RENAME &&
	      s->changes[f->change0 + 1].kind == CHANGE_HUNK);
	CHECK((f = file_named(s, "gone.txt")) && f->status == CHANGE_DELETED && f->nchanges == 1 &&
	      s->changes[f->change0].kind == CHANGE_FILE_DELETE);
	CHECK((f = file_named(s, "added.txt")) && f->status == CHANGE_ADDED &&
	      s->changes[f->change0].kind == CHANGE_FILE_ADD);
	CHECK((f = file_named(s, "run.sh")) && f->nchanges == 1 && s->changes[f->change0].kind == CHANGE_FILE_MODE &&
	      f->new_mode == 0100755);
	CHECK((f = file_named(s, "blob.bin")) && f->binary && f->nchanges == 1 &&
	      s->changes[f->change0].kind == CHANGE_FILE_BINARY);
	/* text.txt: an insertion at the top, a change, a deletion, an insertion at the end. */
	CHECK((f = file_named(s, "text.txt")) && f->nchanges == 4);
	CHECK(f && s->changes[f->change0].old_lines == 0 && s->changes[f->change0].old_start == 0);
	CHECK((f = file_named(s, "nonl.txt")) && f->nchanges == 1);
	CHECK((f = file_named(s, "crlf.txt")) && f->nchanges == 1);
	change_set_free(s);
	s = diff(r, "bad", "same");
	CHECK(s->nchanges == 0);
	change_set_free(s);
	repo_free(r);
}

static void test_materialize_all_and_none(void)
{
	struct repo *r;
	struct cerr e;
	CHECK(repo_open(&r, dir, &e) == 0);
	struct change_set *s = diff(r, "good", "bad");
	struct bits *b = bits_new(s->natoms);
	char good[41], bad[41];
	repo_resolve(r, "good", good, &e);
	repo_resolve(r, "bad", bad, &e);
	struct tree_check t = {r, good, 0, 0};
	change_materialize(s, b, check_cb, &t);
	CHECK(t.mismatches == 0 && t.seen >= 10);
	bits_fill(b);
	struct tree_check u = {r, bad, 0, 0};
	change_materialize(s, b, check_cb, &u);
	CHECK(u.mismatches == 0 && u.seen >= 10);
	bits_free(b);
	change_set_free(s);
	repo_free(r);
}

struct grab {
	const char *path;
	char *data;
	int present;
};

static int grab_cb(void *priv, const char *path, int present, unsigned mode, const char *data, size_t len)
{
	struct grab *g = priv;
	if (!strcmp(path, g->path)) {
		g->data = xstrndup(data, len);
		g->present = present;
	}
	return 0;
}

static char *content(const struct change_set *s, const struct bits *b, const char *path, int *present)
{
	struct grab g = {path, NULL, 0};
	change_materialize(s, b, grab_cb, &g);
	if (present)
		*present = g.present;
	return g.data;
}

static void test_token_atoms(void)
{
	struct repo *r;
	struct cerr e;
	CHECK(repo_open(&r, dir, &e) == 0);
	struct change_set *s = diff(r, "good", "bad");
	const struct change_file *f = file_named(s, "lim.c");
	CHECK(f && f->nchanges == 1);
	const struct change *c = &s->changes[f->change0];
	CHECK(c->natoms == 2);
	struct bits *b = bits_new(s->natoms);
	bits_set(b, c->atom0 + 1);   /* only the value */
	char *t = content(s, b, "lim.c", NULL);
	CHECK_STR(t, "int limit = 5;\n");
	free(t);
	bits_zero(b);
	bits_set(b, c->atom0);       /* only the name */
	t = content(s, b, "lim.c", NULL);
	CHECK_STR(t, "int max_items = 10;\n");
	free(t);
	struct change_lines l;
	change_lines_of_atom(s, c->atom0 + 1, &l);
	CHECK(l.nremoved == 1 && l.nadded == 1);
	/* The real lines of both revisions, never "int limit = 5;" (in neither). */
	CHECK_STR(l.removed[0], "int limit = 10;");
	CHECK_STR(l.added[0], "int max_items = 5;");
	CHECK_STR(l.removed_marked[0], "int limit = [-10-];");
	CHECK_STR(l.added_marked[0], "int max_items = {+5+};");
	CHECK(l.old_start == 1 && l.new_start == 1);
	change_lines_free(&l);
	change_lines_of(s, f->change0, &l);
	CHECK(l.nremoved == 1 && l.nadded == 1);
	CHECK_STR(l.added[0], "int max_items = 5;");
	change_lines_free(&l);
	bits_free(b);
	change_set_free(s);
	repo_free(r);
}

static void test_subsets(void)
{
	struct repo *r;
	struct cerr e;
	CHECK(repo_open(&r, dir, &e) == 0);
	struct change_set *s = diff(r, "good", "bad");
	const struct change_file *f = file_named(s, "text.txt");
	struct bits *b = bits_new(s->natoms);
	/* Only the insertion at the top. */
	bits_set(b, s->changes[f->change0].atom0);
	char *t = content(s, b, "text.txt", NULL);
	CHECK_STR(t, "zero\none\ntwo\nthree\nfour\nfive\nsix\nseven\n");
	free(t);
	/* Only the deletion of "four". */
	bits_zero(b);
	for (size_t c = f->change0; c < f->change0 + f->nchanges; c++)
		if (s->changes[c].new_lines == 0)
			bits_set(b, s->changes[c].atom0);
	t = content(s, b, "text.txt", NULL);
	CHECK_STR(t, "one\ntwo\nthree\nfive\nsix\nseven\n");
	free(t);
	/* CRLF kept byte for byte. */
	bits_fill(b);
	t = content(s, b, "crlf.txt", NULL);
	CHECK_STR(t, "a\r\nB\r\nc\r\n");
	free(t);
	/* The rename alone moves the old content. */
	bits_zero(b);
	bits_set(b, s->changes[file_named(s, "new.txt")->change0].atom0);
	int present;
	t = content(s, b, "old.txt", &present);
	CHECK(!present);
	free(t);
	t = content(s, b, "new.txt", &present);
	CHECK(present && strstr(t, "line 20 of") && !strstr(t, "twenty"));
	free(t);
	/* Random subsets never crash and are deterministic. */
	srand(7);
	for (int k = 0; k < 200; k++) {
		bits_zero(b);
		for (size_t a = 0; a < s->natoms; a++)
			if (rand() & 1)
				bits_set(b, a);
		char *x = content(s, b, "text.txt", NULL), *y = content(s, b, "text.txt", NULL);
		CHECK(x && y && !strcmp(x, y));
		free(x);
		free(y);
	}
	bits_free(b);
	change_set_free(s);
	repo_free(r);
}

static void test_first_parents(void)
{
	struct repo *r;
	struct cerr e;
	char good[41], bad[41];
	CHECK(repo_open(&r, dir, &e) == 0);
	repo_resolve(r, "good", good, &e);
	repo_resolve(r, "same", bad, &e);
	char(*v)[41];
	size_t n;
	CHECK(repo_first_parents(r, good, bad, &v, &n, &e) == 0);
	CHECK(n == 2);
	CHECK(n == 2 && !strcmp(v[1], bad));
	CHECK(repo_is_ancestor(r, good, bad, &e) == 1);
	CHECK(repo_is_ancestor(r, bad, good, &e) == 0);
	free(v);
	repo_free(r);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/culprit-diff.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	make_repo();
	RUN(test_open_and_resolve);
	RUN(test_kinds_of_change);
	RUN(test_materialize_all_and_none);
	RUN(test_token_atoms);
	RUN(test_subsets);
	RUN(test_first_parents);
	remove_tree(dir, NULL);
	TEST_EXIT();
}
