/* repair — the names a failed build complains about, read from gcc's and
 * clang's messages (undeclared, implicit declaration, too few or too many
 * arguments, conflicting types, no member named, unknown type name,
 * redefinition, undefined reference): the search adds the hunks that
 * declare them (deps.h) and tests the repaired configuration instead. */
#ifndef CULPRIT_REPAIR_H
#define CULPRIT_REPAIR_H

#include <stddef.h>

/* The distinct names in a build's error output, in order of appearance;
 * *names is a NULL-ended array (free with repair_names_free). Returns how many. */
size_t repair_names(const char *output, char ***names);
void repair_names_free(char **names);

#endif
