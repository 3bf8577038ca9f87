/* json — the small JSON writer the reports use, and a small reader for the
 * JSON other tools give us (gcov's --json-format): untrusted input, bounded
 * depth, clear errors. */
#ifndef CULPRIT_JSON_H
#define CULPRIT_JSON_H

#include "core/util.h"

/* Append s as a JSON string literal (quoted, escaped; invalid UTF-8 bytes become U+FFFD). */
void json_str(struct buf *b, const char *s);
/* Append s, or null when s is NULL. */
void json_str_or_null(struct buf *b, const char *s);
/* Append an array of the n strings v: ["a", "b"]. */
void json_str_array(struct buf *b, char *const *v, size_t n);

enum json_type { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

/* A parsed value. Arrays and objects hold n children in kids (objects:
 * keys[i] names kids[i]). Heap: json_parse / json_free (json_free(NULL) is a no-op). */
struct json {
	enum json_type type;
	double num;
	char *str;              /* JSON_STRING, NUL-terminated (may contain NULs from \u0000: use len) */
	size_t len;
	struct json **kids;
	char **keys;
	size_t n;
};

/* Parse text[0..len). On error: NULL and e says where ("offset N: ..."). */
struct json *json_parse(const char *text, size_t len, struct cerr *e);
void json_free(struct json *j);
/* The member named key of an object, or NULL. */
const struct json *json_get(const struct json *obj, const char *key);
/* A member's string (a copy; NULL when absent or not a string) and number (0 then). */
char *json_get_str(const struct json *obj, const char *key);
double json_get_num(const struct json *obj, const char *key);

#endif
