/* repair — the names a failed build complains about, read from gcc's and
 * clang's messages (undeclared, implicit declaration, too few or too many
 * arguments, conflicting types, no member named, unknown type name,
 * redefinition, undefined reference): the search adds the hunks that
 * declare them (deps.h) and tests the repaired configuration instead.
 * Under -Werror, a name left unused (defined but not used, unused
 * variable, set but not used) is the error: the search adds the hunks
 * that declare or use it, so its declaration goes with its last use. */
#ifndef CULPRIT_REPAIR_H
#define CULPRIT_REPAIR_H

#include <stddef.h>

/* The distinct names in a build's error output, in order of appearance;
 * *names is a NULL-ended array (free with repair_names_free). Returns how many. */
size_t repair_names(const char *output, char ***names);
/* Of those, the macros the errors came through (notes): the same way. */
size_t repair_macros(const char *output, char ***names);
/* Of those, the names left unused, on lines that say error: the same way. */
size_t repair_unused(const char *output, char ***names);
void repair_names_free(char **names);

#endif
