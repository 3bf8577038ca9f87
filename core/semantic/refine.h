/* refine — the differential oracle for generated tests (Böhme et al.; the
 * good revision is the specification): a verdict and failure signature from
 * running one input on both revisions, and the self-checking suite command
 * an approved input becomes. */
#ifndef CULPRIT_REFINE_H
#define CULPRIT_REFINE_H

#include "core/isolate/run.h"

/* NULL when both runs agree (status, code and output): a passing input.
 * Otherwise how the bad run fails: "assertion failed at calc.c:12",
 * "signal 11", "timeout", "exit 3", "different output" (caller frees). */
char *refine_signature(const struct run_result *good, const struct run_result *bad);

/* The suite command that passes when cmd prints what the good run printed
 * and exits as it did (caller frees). */
char *refine_test_command(const char *cmd, const struct run_result *good);

#endif
