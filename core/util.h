/* util — errors for the user, allocation that cannot fail silently, growable
 * buffers, bit sets and small file helpers shared by every core module. */
#ifndef CULPRIT_UTIL_H
#define CULPRIT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* A caller-owned error: functions return a negative status and fill msg with
 * one line fit for the user (no trailing newline). */
struct cerr {
	char msg[1024];
};

/* Fill e (may be NULL) and return -1. */
int cerr_set(struct cerr *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Make text safe to print on one terminal line, in place: newline and tab
 * become spaces, other control characters (C0, DEL, UTF-8 C1) '?'. */
void text_sanitize(char *s);

/* Allocation: abort with a message when memory is exhausted. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n); /* never p = realloc(p, n): the block is kept on failure by aborting */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable byte buffer, always NUL-terminated. Embedded: buf_init/buf_release. */
struct buf {
	char *s;
	size_t len, cap;
};
#define BUF_INIT {NULL, 0, 0}
void buf_init(struct buf *b);
void buf_release(struct buf *b);
void buf_reset(struct buf *b);
void buf_grow(struct buf *b, size_t extra);
void buf_add(struct buf *b, const void *p, size_t n);
void buf_adds(struct buf *b, const char *s);
void buf_addc(struct buf *b, char c);
void buf_addf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vaddf(struct buf *b, const char *fmt, va_list ap);
/* Hand the string to the caller (free() it); b is empty afterwards. */
char *buf_detach(struct buf *b);

/* A fixed-size bit set. Heap: bits_new/bits_free (bits_free(NULL) is a no-op). */
struct bits {
	size_t n;
	uint64_t *w;
};
struct bits *bits_new(size_t n);
struct bits *bits_dup(const struct bits *b);
void bits_free(struct bits *b);
void bits_set(struct bits *b, size_t i);
void bits_clear(struct bits *b, size_t i);
int bits_test(const struct bits *b, size_t i);
size_t bits_count(const struct bits *b);
void bits_fill(struct bits *b);   /* set all n bits */
void bits_zero(struct bits *b);
void bits_invert(struct bits *b);   /* flip all n bits */
int bits_equal(const struct bits *a, const struct bits *b);
int bits_subset(const struct bits *a, const struct bits *b);   /* a within b (same size) */
void bits_or(struct bits *a, const struct bits *b);   /* a |= b (same size) */

/* Read a whole file (at most max bytes, else an error). */
int file_read(const char *path, struct buf *out, size_t max, struct cerr *e);
/* Write data to path through a temporary file and rename(). */
int file_write_atomic(const char *path, const void *data, size_t len, unsigned mode, struct cerr *e);
/* mkdir -p */
int mkdir_p(const char *path, unsigned mode, struct cerr *e);
/* rm -rf (refuses "/" and ""). */
int remove_tree(const char *path, struct cerr *e);

/* Quote one word for /bin/sh (adds single quotes only when needed). */
void shell_quote(struct buf *b, const char *word);
/* Bytes s[0..n) as the single-quoted argument of printf %b: one line,
 * whatever they hold (controls and non-ASCII bytes as \0ooo). */
void shell_quote_b(struct buf *b, const char *s, size_t n);
/* Whether s[0..n) is a shell variable's name (NAME=value before a command sets it). */
int shell_name(const char *s, size_t n);

/* Monotonic seconds. */
double now_seconds(void);

/* A positive, finite number of seconds (a timeout), at most SECONDS_MAX
 * (a year): 0, or -1 for anything else (words, NaN, inf, <= 0, too large). */
#define SECONDS_MAX (366.0 * 24 * 3600)
int parse_seconds(const char *s, double *out);

#endif
