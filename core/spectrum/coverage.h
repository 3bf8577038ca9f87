/* coverage — per-test line coverage with gcov. A revision built with
 * coverage in its own worktree; each test runs with its own GCOV_PREFIX
 * directory, so counts never accumulate across tests, also when tests run in
 * parallel; gcov's JSON is read back and only the project's own source files
 * (relative paths inside the worktree) are kept. */
#ifndef CULPRIT_COVERAGE_H
#define CULPRIT_COVERAGE_H

#include <stddef.h>
#include <stdint.h>
#include "core/spectrum/suite.h"
#include "core/util.h"

struct cov_line {
	uint32_t file;      /* index into files */
	uint32_t line;
};

enum cov_status { COV_PASS, COV_FAIL, COV_UNRESOLVED };

struct cov_run {
	char *name;
	enum cov_status status;
	int code;           /* exit status, or signal */
	double seconds;
	struct bits *hit;   /* over lines: executed at least once */
};

struct coverage {
	char **files;
	size_t nfiles;
	struct cov_line *lines;   /* every executable line seen, by file then line */
	size_t nlines;
	struct cov_run *runs;     /* one per test, in suite order */
	size_t nruns;
};

/* Run every test of s in worktree (already built with coverage), at most
 * jobs at a time, each killed after timeout seconds; scratch files go under
 * rundir (created, emptied). Embedded: release with coverage_release. */
int coverage_collect(struct coverage *c, const char *worktree, const char *rundir, const struct suite *s,
		     int jobs, double timeout, const volatile int *cancel, struct cerr *e);
void coverage_release(struct coverage *c);
/* A run's executed lines as text, "file\tline\n" each (caller frees), and
 * back: rebuild a coverage from runs given as names, statuses, codes and such
 * texts (what the session stores). */
char *coverage_hits_text(const struct coverage *c, size_t run);
int coverage_from_text(struct coverage *c, size_t nruns, char *const *names, const enum cov_status *status,
		       const int *codes, char *const *hits, struct cerr *e);
/* Index of (file, line) in c->lines, or -1. */
long coverage_find(const struct coverage *c, const char *file, uint32_t line);

#endif
