/* workspace: scratch worktrees that write only what differs, restore what
 * earlier configurations overrode, recover after a kill, never escape. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/isolate/repo.h"
#include "core/isolate/workspace.h"
#include "tests/unit/test.h"

static char dir[256], wt[300];
static char good[41], bad[41], other[41];
static struct repo *r;

static void sh(const char *script)
{
	struct buf cmd = BUF_INIT;
	buf_addf(&cmd, "cd '%s' && export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@e GIT_COMMITTER_NAME=t "
		       "GIT_COMMITTER_EMAIL=t@e GIT_CONFIG_NOSYSTEM=1 HOME='%s' && %s", dir, dir, script);
	if (system(cmd.s) != 0) {
		printf("  setup failed: %s\n", cmd.s);
		exit(1);
	}
	buf_release(&cmd);
}

/* The worktree holds exactly rev's files (ignoring untracked build products). */
static int matches(const char *rev)
{
	struct buf cmd = BUF_INIT;
	buf_addf(&cmd, "cd '%s' && git archive %s | tar -x -C '%s.expect' && diff -r -x '*.o' '%s.expect' '%s' >/dev/null"
		       " && for f in $(cd '%s' && find . -type f ! -name '*.o'); do [ -e '%s.expect'/$f ] || exit 1; done",
		 dir, rev, wt, wt, wt, wt, wt);
	struct buf prep = BUF_INIT;
	buf_addf(&prep, "rm -rf '%s.expect' && mkdir -p '%s.expect'", wt, wt);
	int ok = system(prep.s) == 0 && system(cmd.s) == 0;
	buf_release(&cmd);
	buf_release(&prep);
	return ok;
}

static ino_t inode(const char *path)
{
	char full[512];
	struct stat st;
	snprintf(full, sizeof(full), "%s/%s", wt, path);
	return stat(full, &st) == 0 ? st.st_ino : 0;
}

static struct change_set *diff(const char *a, const char *b)
{
	struct change_set *s = NULL;
	struct cerr e;
	CHECK(repo_diff(r, a, b, &s, &e) == 0);
	return s;
}

static void test_populate_and_apply(void)
{
	struct workspace *w;
	struct cerr e;
	CHECK(workspace_open(&w, r, wt, good, &e) == 0);
	CHECK(matches("good"));
	struct change_set *s = diff(good, bad);
	struct bits *b = bits_new(s->natoms);
	bits_fill(b);
	size_t written = 0;
	ino_t keep = inode("same.c");
	CHECK(workspace_apply(w, s, b, &written, &e) == 0);
	CHECK(matches("bad"));
	CHECK(written > 0);
	CHECK(inode("same.c") == keep);   /* an unchanged file is never rewritten */
	CHECK(workspace_apply(w, s, b, &written, &e) == 0);
	CHECK(written == 0);              /* the same configuration writes nothing */
	bits_zero(b);
	CHECK(workspace_apply(w, s, b, &written, &e) == 0);
	CHECK(matches("good"));
	bits_free(b);
	change_set_free(s);
	workspace_free(w);
}

static void test_another_set_restores(void)
{
	struct workspace *w;
	struct cerr e;
	CHECK(workspace_open(&w, r, wt, good, &e) == 0);
	struct change_set *s1 = diff(good, bad), *s2 = diff(good, other);
	struct bits *b1 = bits_new(s1->natoms), *b2 = bits_new(s2->natoms);
	bits_fill(b1);
	bits_fill(b2);
	CHECK(workspace_apply(w, s1, b1, NULL, &e) == 0);
	CHECK(workspace_apply(w, s2, b2, NULL, &e) == 0);
	CHECK(matches("other"));   /* paths only the first set touched are back to the base */
	CHECK(workspace_reset(w, NULL, &e) == 0);
	CHECK(matches("good"));
	bits_free(b1);
	bits_free(b2);
	change_set_free(s1);
	change_set_free(s2);
	workspace_free(w);
}

static void test_reopen_after_kill(void)
{
	struct workspace *w;
	struct cerr e;
	CHECK(workspace_open(&w, r, wt, good, &e) == 0);
	struct change_set *s = diff(good, bad);
	struct bits *b = bits_new(s->natoms);
	bits_fill(b);
	CHECK(workspace_apply(w, s, b, NULL, &e) == 0);
	/* No reset: as if killed. A build product must survive the reopen. */
	char obj[512];
	snprintf(obj, sizeof(obj), "%s/main.o", wt);
	CHECK(file_write_atomic(obj, "obj", 3, 0644, &e) == 0);
	workspace_free(w);
	CHECK(workspace_open(&w, r, wt, good, &e) == 0);
	CHECK(matches("good"));
	CHECK(access(obj, F_OK) == 0);
	workspace_free(w);
	/* Another base: rebuilt from scratch. */
	CHECK(workspace_open(&w, r, wt, bad, &e) == 0);
	CHECK(matches("bad"));
	CHECK(access(obj, F_OK) != 0);
	bits_free(b);
	change_set_free(s);
	workspace_free(w);
}

static void test_refuses_to_escape(void)
{
	struct workspace *w;
	struct cerr e;
	CHECK(workspace_open(&w, r, wt, good, &e) == 0);
	struct change_set *s = change_set_new(good, bad);
	change_set_add_file(s, "../escape.txt", "../escape.txt", 0, 0100644, NULL, 0, "x\n", 2, CHANGE_ADDED, 0);
	change_set_add_file_change(s, CHANGE_FILE_ADD);
	CHECK(change_set_finish(s, &e) == 0);
	struct bits *b = bits_new(s->natoms);
	bits_fill(b);
	CHECK(workspace_apply(w, s, b, NULL, &e) < 0);
	CHECK(strstr(e.msg, "outside the worktree") != NULL);
	char outside[512];
	snprintf(outside, sizeof(outside), "%s/../escape.txt", wt);
	CHECK(access(outside, F_OK) != 0);
	bits_free(b);
	change_set_free(s);
	workspace_free(w);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/culprit-wt.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	sh("git init -q -b main . && printf 'int main(void) { return 0; }\\n' > main.c && "
	   "printf 'same\\n' > same.c && printf 'a\\n' > a.txt && printf 'link\\n' > target && ln -s target link && "
	   "mkdir -p d/e && printf 'deep\\n' > d/e/f.txt && "
	   "git add -A && git commit -qm good && git tag good && "
	   "printf 'int main(void) { return 1; }\\n' > main.c && git rm -q a.txt && printf 'new\\n' > d/new.txt && "
	   "chmod +x d/e/f.txt && git add -A && git commit -qm bad && git tag bad && "
	   "git checkout -q good && printf 'other\\n' > other.txt && git add -A && git commit -qm other && "
	   "git tag other && git checkout -q main");
	snprintf(wt, sizeof(wt), "%s/.git/culprit/wt", dir);
	struct cerr e;
	if (repo_open(&r, dir, &e) < 0 || repo_resolve(r, "good", good, &e) < 0 ||
	    repo_resolve(r, "bad", bad, &e) < 0 || repo_resolve(r, "other", other, &e) < 0)
		return 1;
	struct buf before = BUF_INIT, after = BUF_INIT;
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "cd '%s' && git status --porcelain && git rev-parse HEAD && git ls-files -s | sha1sum", dir);
	FILE *p = popen(cmd, "r");
	char line[256];
	while (fgets(line, sizeof(line), p))
		buf_adds(&before, line);
	pclose(p);
	RUN(test_populate_and_apply);
	RUN(test_another_set_restores);
	RUN(test_reopen_after_kill);
	RUN(test_refuses_to_escape);
	p = popen(cmd, "r");
	while (fgets(line, sizeof(line), p))
		buf_adds(&after, line);
	pclose(p);
	test_failed_now = 0;
	CHECK(!strcmp(before.s, after.s));
	printf("%s the user's repository is untouched\n", test_failed_now ? "FAIL" : "ok");
	test_failures += test_failed_now;
	buf_release(&before);
	buf_release(&after);
	repo_free(r);
	remove_tree(dir, NULL);
	TEST_EXIT();
}
