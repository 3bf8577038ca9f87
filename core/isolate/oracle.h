/* oracle — failure signatures and the PASS / FAIL / UNRESOLVED verdict.
 * Exit codes follow `git bisect run`: 0 pass, 125 cannot be tested, other
 * 1..127 fail; death by signal (also as the shell's 128+N) is a crash. A
 * failure counts as FAIL only with the same identity as on the bad revision:
 * the exit status or signal, a failed assert()'s condition and the output's
 * last lines, where what varied between two runs of the bad revision (times,
 * addresses, pids) is masked ("…", any text) and so are source line numbers
 * and pointer-sized hex addresses (applied hunks move them, and what is
 * allocated where). With --fail-pattern, the pattern's match alone. */
#ifndef CULPRIT_ORACLE_H
#define CULPRIT_ORACLE_H

#include "core/util.h"
#include "core/isolate/run.h"

enum verdict {
	VERDICT_PASS,
	VERDICT_FAIL,
	VERDICT_UNRESOLVED,
};

enum unresolved_why {
	WHY_NONE,
	WHY_BUILD,          /* the build failed */
	WHY_BUILD_TIMEOUT,
	WHY_TEST_TIMEOUT,
	WHY_UNTESTABLE,     /* the test exited 125 */
	WHY_DIFFERENT,      /* failed, but with another signature */
	WHY_FLAKY,          /* --repeat runs disagreed */
	WHY_CANCELLED,
};

const char *verdict_name(enum verdict v);           /* "PASS", "FAIL", "UNRESOLVED" */
const char *why_name(enum unresolved_why w);        /* "build failed", ... ; "" for WHY_NONE */

struct oracle;

/* fail_pattern: a PCRE2 pattern (may be NULL). On a bad pattern: error with its offset. */
int oracle_new(struct oracle **out, const char *fail_pattern, struct cerr *e);
void oracle_free(struct oracle *o);                 /* NULL is a no-op */

/* The failure signature of a test run, or NULL when the run passed (or was
 * untestable: 125, timeout, cancelled): "exit 1; assertion `x' failed;
 * output ends \"...\n...\"". With a fail pattern the signature is the
 * pattern's match (a run whose output does not match has signature "exit N"
 * etc. and is a different failure). Caller frees. */
char *oracle_signature(const struct oracle *o, const struct run_result *r);

/* The identity of the bad revision's failure from two runs of its test:
 * the first run's signature with what differed in the second masked. 0, or
 * 1 when the runs disagree (one passes, or another status: flaky). *out is
 * NULL when the first run passed. Caller frees. */
int oracle_identity(const struct oracle *o, const struct run_result *a, const struct run_result *b, char **out);
/* Another run of the same test: mask in *identity what differs in r's
 * signature. 0, or 1 when r disagrees (passes, or another status). */
int oracle_identity_add(const struct oracle *o, char **identity, const struct run_result *r);

/* The identity with every occurrence of the n texts (text[k], len[k]
 * bytes) masked, all found in the identity as given (text the changes
 * rewrite, a message reworded, is no part of the failure), and the start
 * of one where a line was cut (before a mask). A text an
 * identity would show escaped (a quote, a backslash, a control byte) is
 * left alone. Caller frees. */
char *oracle_mask_texts(const char *identity, const char *const *text, const size_t *len, size_t n);

/* Does a run's signature match an identity (each "…" standing for any text)? */
int oracle_same(const char *identity, const char *sig);

/* Judge a test run against the bad revision's identity. *why explains
 * UNRESOLVED; *sig (may be NULL) gets the run's own signature (caller frees). */
enum verdict oracle_judge(const struct oracle *o, const char *expected, const struct run_result *r,
			  enum unresolved_why *why, char **sig);

/* The first compiler error lines ("file:line:col: error: ...", with the
 * notes saying what was declared where; a few at most, one a line) of a
 * build's output, else its last non-empty line; NULL for empty output.
 * Caller frees. */
char *oracle_build_error(const char *output);

#endif
