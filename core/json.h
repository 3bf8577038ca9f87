/* json — the small JSON writer the reports use (no parser is needed). */
#ifndef CULPRIT_JSON_H
#define CULPRIT_JSON_H

#include "core/util.h"

/* Append s as a JSON string literal (quoted, escaped; invalid UTF-8 bytes become U+FFFD). */
void json_str(struct buf *b, const char *s);
/* Append s, or null when s is NULL. */
void json_str_or_null(struct buf *b, const char *s);

#endif
