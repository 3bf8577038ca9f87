/* suite — the test suite file: one test a line, a name, white space, then
 * the shell command; blank lines and lines starting with '#' are ignored.
 * Errors name the file and line ("tests.list:4: duplicate test name 't3'"). */
#ifndef CULPRIT_SUITE_H
#define CULPRIT_SUITE_H

#include <stddef.h>
#include "core/util.h"

struct suite_test {
	char *name, *cmd;
	int line;
};

struct suite {
	struct suite_test *v;
	size_t n;
};

/* Load path into s (embedded: release with suite_release). */
int suite_load(struct suite *s, const char *path, struct cerr *e);
/* Parse text as if read from origin (for tests and stdin). */
int suite_parse(struct suite *s, const char *text, const char *origin, struct cerr *e);
void suite_release(struct suite *s);

#endif
