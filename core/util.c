#include "core/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int cerr_set(struct cerr *e, const char *fmt, ...)
{
	if (e) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
		text_sanitize(e->msg);   /* messages quote revisions, paths, file contents */
	}
	return -1;
}

void text_sanitize(char *s)
{
	for (unsigned char *p = (unsigned char *)s; *p; p++) {
		if (*p == '\n' || *p == '\t')
			*p = ' ';
		else if (*p < 0x20 || *p == 0x7f)
			*p = '?';
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)   /* C1 controls in UTF-8 */
			p[0] = p[1] = '?';
	}
}

static void oom(size_t n)
{
	fprintf(stderr, "culprit: out of memory (%zu bytes)\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	return buf_detach(&b);
}

void buf_init(struct buf *b)
{
	b->s = NULL;
	b->len = b->cap = 0;
}

void buf_release(struct buf *b)
{
	free(b->s);
	buf_init(b);
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

void buf_grow(struct buf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < b->len + extra + 1)
		cap *= 2;
	b->s = xrealloc(b->s, cap);
	b->cap = cap;
}

void buf_add(struct buf *b, const void *p, size_t n)
{
	buf_grow(b, n);
	if (n)
		memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
	char small[256];
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(small, sizeof(small), fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	buf_grow(b, (size_t)n);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vaddf(b, fmt, ap);
	va_end(ap);
}

char *buf_detach(struct buf *b)
{
	char *s = b->s ? b->s : xstrdup("");
	buf_init(b);
	return s;
}

struct bits *bits_new(size_t n)
{
	struct bits *b = xmalloc(sizeof(*b));
	b->n = n;
	b->w = xcalloc((n + 63) / 64 + 1, sizeof(uint64_t));
	return b;
}

struct bits *bits_dup(const struct bits *b)
{
	struct bits *c = bits_new(b->n);
	memcpy(c->w, b->w, ((b->n + 63) / 64) * sizeof(uint64_t));
	return c;
}

void bits_free(struct bits *b)
{
	if (!b)
		return;
	free(b->w);
	free(b);
}

void bits_set(struct bits *b, size_t i)
{
	b->w[i / 64] |= (uint64_t)1 << (i % 64);
}

void bits_clear(struct bits *b, size_t i)
{
	b->w[i / 64] &= ~((uint64_t)1 << (i % 64));
}

int bits_test(const struct bits *b, size_t i)
{
	return (int)((b->w[i / 64] >> (i % 64)) & 1);
}

size_t bits_count(const struct bits *b)
{
	size_t c = 0;
	for (size_t i = 0; i < (b->n + 63) / 64; i++)
		c += (size_t)__builtin_popcountll(b->w[i]);
	return c;
}

void bits_fill(struct bits *b)
{
	for (size_t i = 0; i < b->n; i++)
		bits_set(b, i);
}

void bits_invert(struct bits *b)
{
	for (size_t i = 0; i < b->n; i++)
		b->w[i / 64] ^= (uint64_t)1 << (i % 64);
}

void bits_zero(struct bits *b)
{
	memset(b->w, 0, ((b->n + 63) / 64) * sizeof(uint64_t));
}

int bits_equal(const struct bits *a, const struct bits *b)
{
	return a->n == b->n && !memcmp(a->w, b->w, ((a->n + 63) / 64) * sizeof(uint64_t));
}

int bits_subset(const struct bits *a, const struct bits *b)
{
	for (size_t i = 0; i < (a->n + 63) / 64; i++)
		if (a->w[i] & ~b->w[i])
			return 0;
	return 1;
}

void bits_or(struct bits *a, const struct bits *b)
{
	for (size_t i = 0; i < (a->n + 63) / 64; i++)
		a->w[i] |= b->w[i];
}

int file_read(const char *path, struct buf *out, size_t max, struct cerr *e)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer; only regular
	 * files are read (a FIFO or a device could block or never end). */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return cerr_set(e, "%s: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int err = errno;
		close(fd);
		return cerr_set(e, "%s: %s", path, strerror(err));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return cerr_set(e, "%s: %s", path, S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	buf_reset(out);
	for (;;) {
		buf_grow(out, 65536);
		ssize_t n = read(fd, out->s + out->len, out->cap - out->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int err = errno;
			close(fd);
			return cerr_set(e, "%s: %s", path, strerror(err));
		}
		if (n == 0) {
			out->s[out->len] = '\0';   /* (also when the file is empty) */
			break;
		}
		out->len += (size_t)n;
		out->s[out->len] = '\0';
		if (out->len > max) {
			close(fd);
			return cerr_set(e, "%s: larger than %zu bytes", path, max);
		}
	}
	close(fd);
	return 0;
}

int file_write_atomic(const char *path, const void *data, size_t len, unsigned mode, struct cerr *e)
{
	char *tmp = xasprintf("%s.culprit-tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode ? mode : 0644);
	if (fd < 0) {
		cerr_set(e, "%s: %s", path, strerror(errno));   /* (not the temporary name) */
		free(tmp);
		return -1;
	}
	const char *p = data;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			cerr_set(e, "%s: %s", path, strerror(errno));   /* (not the temporary name) */
			close(fd);
			unlink(tmp);
			free(tmp);
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	if (mode)
		fchmod(fd, mode);
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		cerr_set(e, "%s: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

int mkdir_p(const char *path, unsigned mode, struct cerr *e)
{
	char *p = xstrdup(path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST) {
			cerr_set(e, "cannot create %s: %s", p, strerror(errno));
			free(p);
			return -1;
		}
		*s = '/';
	}
	if (mkdir(p, mode) < 0 && errno != EEXIST) {
		cerr_set(e, "cannot create %s: %s", p, strerror(errno));
		free(p);
		return -1;
	}
	free(p);
	return 0;
}

int remove_tree(const char *path, struct cerr *e)
{
	if (!path[0] || !strcmp(path, "/"))
		return cerr_set(e, "refusing to remove '%s'", path);
	struct stat st;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : cerr_set(e, "%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		if (unlink(path) < 0)
			return cerr_set(e, "cannot remove %s: %s", path, strerror(errno));
		return 0;
	}
	DIR *d = opendir(path);
	if (!d)
		return cerr_set(e, "%s: %s", path, strerror(errno));
	struct dirent *de;
	int rc = 0;
	while (!rc && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *sub = xasprintf("%s/%s", path, de->d_name);
		rc = remove_tree(sub, e);
		free(sub);
	}
	closedir(d);
	if (!rc && rmdir(path) < 0)
		return cerr_set(e, "cannot remove %s: %s", path, strerror(errno));
	return rc;
}

void shell_quote(struct buf *b, const char *w)
{
	int plain = *w != '\0';
	for (const char *p = w; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%", *p))
			plain = 0;
	if (plain) {
		buf_adds(b, w);
		return;
	}
	buf_addc(b, '\'');
	for (const char *p = w; *p; p++) {
		if (*p == '\'')
			buf_adds(b, "'\\''");
		else
			buf_addc(b, *p);
	}
	buf_addc(b, '\'');
}

void shell_quote_b(struct buf *b, const char *s, size_t n)
{
	buf_addc(b, '\'');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\\')
			buf_adds(b, "\\\\");
		else if (c == '\'')
			buf_adds(b, "'\\''");
		else if (c == '\n')
			buf_adds(b, "\\n");
		else if (c == '\t')
			buf_adds(b, "\\t");
		else if (c < ' ' || c > '~')
			buf_addf(b, "\\0%03o", c);
		else
			buf_addc(b, (char)c);
	}
	buf_addc(b, '\'');
}

int shell_name(const char *s, size_t n)
{
	if (!n || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!s[i] || !strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", s[i]))
			return 0;
	return 1;
}

double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int parse_seconds(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	/* !(v > 0) also refuses NaN; the upper bound refuses inf and values
	 * whose deadline (now + v) would lose all precision. */
	if (end == s || *end || errno == ERANGE || !(v > 0) || v > SECONDS_MAX)
		return -1;
	*out = v;
	return 0;
}
