/* config — the identity of a configuration: a hash of the file contents it
 * produces, so that two ways of reaching the same files (a commit, a set of
 * changes) are one configuration, tested at most once per session. */
#ifndef CULPRIT_CONFIG_H
#define CULPRIT_CONFIG_H

#include "core/isolate/change.h"

/* SHA-1 (hex) over the base commit and every path whose state (presence,
 * mode, content) differs from the base, in path order. */
void config_key(const struct change_set *s, const struct bits *applied, char hex[41]);

#endif
