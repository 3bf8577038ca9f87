/* Materializing configurations: a repository of 5,000 files with 1,000
 * changed hunks (target: under 20 ms a configuration), and the proof that a
 * configuration differing in one file recompiles only that file with make.
 * Prints figures; never fails on time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/isolate/repo.h"
#include "core/isolate/workspace.h"
#include "core/util.h"

static char dir[256];

static int sh(const char *script)
{
	struct buf cmd = BUF_INIT;
	buf_addf(&cmd, "cd '%s' && export GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@e GIT_COMMITTER_NAME=b "
		       "GIT_COMMITTER_EMAIL=b@e GIT_CONFIG_NOSYSTEM=1 HOME='%s' && %s", dir, dir, script);
	int rc = system(cmd.s);
	buf_release(&cmd);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void materialize(void)
{
	/* 5,000 files in 50 directories; the second commit edits 5 lines in each of 200 files. */
	sh("git init -q -b main . && awk 'BEGIN { for (d = 0; d < 50; d++) { system(\"mkdir -p d\" d); "
	   "for (f = 0; f < 100; f++) { p = \"d\" d \"/f\" f \".c\"; for (l = 0; l < 60; l++) "
	   "printf \"int v%d_%d = %d;\\n\", f, l, l > p; close(p) } } }' && git add -A && git commit -qm good && "
	   "git tag good && awk 'BEGIN { for (k = 0; k < 200; k++) { d = k % 50; f = int(k / 50) * 7; "
	   "print \"d\" d \"/f\" f \".c\" } }' | while read p; do sed -i '5s/= 4;/= 40;/; 15s/= 14;/= 140;/; "
	   "25s/= 24;/= 240;/; 35s/= 34;/= 340;/; 45s/= 44;/= 440;/' $p; done && git commit -qam bad && git tag bad");
	struct repo *r;
	struct cerr e;
	char good[41], bad[41], wt[300];
	if (repo_open(&r, dir, &e) < 0 || repo_resolve(r, "good", good, &e) < 0 || repo_resolve(r, "bad", bad, &e) < 0) {
		printf("setup failed: %s\n", e.msg);
		return;
	}
	struct change_set *s;
	double t0 = now_seconds();
	if (repo_diff(r, good, bad, &s, &e) < 0) {
		printf("diff failed: %s\n", e.msg);
		return;
	}
	double tdiff = now_seconds() - t0;
	snprintf(wt, sizeof(wt), "%s/.git/culprit/wt", dir);
	struct workspace *w;
	t0 = now_seconds();
	if (workspace_open(&w, r, wt, good, &e) < 0) {
		printf("workspace failed: %s\n", e.msg);
		return;
	}
	double topen = now_seconds() - t0;
	enum { ROUNDS = 50 };
	double ms[ROUNDS];
	size_t files = 0;
	struct bits *b = bits_new(s->natoms);
	srand(1);
	for (int i = 0; i < ROUNDS; i++) {
		bits_zero(b);
		for (size_t a = 0; a < s->natoms; a++)
			if (rand() & 1)
				bits_set(b, a);
		size_t written;
		t0 = now_seconds();
		workspace_apply(w, s, b, &written, &e);
		ms[i] = (now_seconds() - t0) * 1000;
		files += written;
	}
	qsort(ms, ROUNDS, sizeof(*ms), cmp_double);
	printf("repository: 5000 files; changes: %zu hunks in %zu files; diff %.1f ms; first checkout %.0f ms\n",
	       s->nchanges, s->nfiles, tdiff * 1000, topen * 1000);
	printf("materialize a random configuration: median %.2f ms, max %.2f ms (target < 20 ms), %.0f files written on average\n",
	       ms[ROUNDS / 2], ms[ROUNDS - 1], (double)files / ROUNDS);
	bits_free(b);
	change_set_free(s);
	workspace_free(w);
	repo_free(r);
}

static void incremental(void)
{
	sh("rm -rf inc && mkdir inc && cd inc && git init -q -b main . && "
	   "for i in $(seq 1 20); do printf 'int f%d(void) { return %d; }\\n' $i $i > f$i.c; done && "
	   "printf 'int main(void) { return 0; }\\n' > main.c && "
	   "printf 'OBJ := $(patsubst %%.c,%%.o,$(wildcard *.c))\\nprog: $(OBJ)\\n\\t$(CC) -o $@ $(OBJ)\\n"
	   "%%.o: %%.c\\n\\techo compiling $<; $(CC) -c -o $@ $<\\n' > Makefile && "
	   "git add -A && git commit -qm good && git tag good && sed -i 's/return 7;/return 70;/' f7.c && "
	   "git commit -qam bad && git tag bad");
	char repo[300], wt[320];
	snprintf(repo, sizeof(repo), "%s/inc", dir);
	snprintf(wt, sizeof(wt), "%s/.git/culprit/wt", repo);
	struct repo *r;
	struct cerr e;
	char good[41], bad[41];
	struct workspace *w;
	struct change_set *s;
	if (repo_open(&r, repo, &e) < 0 || repo_resolve(r, "good", good, &e) < 0 || repo_resolve(r, "bad", bad, &e) < 0 ||
	    workspace_open(&w, r, wt, good, &e) < 0 || repo_diff(r, good, bad, &s, &e) < 0) {
		printf("setup failed: %s\n", e.msg);
		return;
	}
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "cd '%s' && make -s 2>&1 | grep -c '^compiling'", wt);
	FILE *p = popen(cmd, "r");
	int first = 0, second = 0;
	if (fscanf(p, "%d", &first) != 1)
		first = -1;
	pclose(p);
	struct bits *b = bits_new(s->natoms);
	bits_fill(b);
	sleep(1);   /* let mtimes move on coarse-grained file systems */
	workspace_apply(w, s, b, NULL, &e);
	p = popen(cmd, "r");
	if (fscanf(p, "%d", &second) != 1)
		second = -1;
	pclose(p);
	printf("incremental build: first build compiled %d files; a configuration differing in one file recompiled %d of 21\n",
	       first, second);
	bits_free(b);
	change_set_free(s);
	workspace_free(w);
	repo_free(r);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/culprit-bench.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	materialize();
	incremental();
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("peak memory: %ld KiB\n", ru.ru_maxrss);
	remove_tree(dir, NULL);
	return 0;
}
