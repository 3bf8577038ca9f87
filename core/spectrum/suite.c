#include "core/spectrum/suite.h"

#include <stdlib.h>
#include <string.h>

#define SUITE_MAX_BYTES (16u << 20)
#define SUITE_MAX_NAME 200

void suite_release(struct suite *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].name);
		free(s->v[i].cmd);
	}
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

int suite_parse(struct suite *s, const char *text, const char *origin, struct cerr *e)
{
	int lineno = 0;
	s->v = NULL;
	s->n = 0;
	for (const char *p = text; *p;) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		lineno++;
		while (len && (p[len - 1] == '\r' || p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		size_t i = 0;
		while (i < len && (p[i] == ' ' || p[i] == '\t'))
			i++;
		if (i < len && p[i] != '#') {
			size_t n0 = i;
			while (i < len && p[i] != ' ' && p[i] != '\t')
				i++;
			size_t nlen = i - n0;
			while (i < len && (p[i] == ' ' || p[i] == '\t'))
				i++;
			char *name = xstrndup(p + n0, nlen);
			if (i == len) {
				cerr_set(e, "%s:%d: test '%s' has no command", origin, lineno, name);
				free(name);
				suite_release(s);
				return -1;
			}
			if (nlen > SUITE_MAX_NAME) {
				cerr_set(e, "%s:%d: test name longer than %d characters", origin, lineno, SUITE_MAX_NAME);
				free(name);
				suite_release(s);
				return -1;
			}
			for (size_t k = 0; k < s->n; k++)
				if (!strcmp(s->v[k].name, name)) {
					cerr_set(e, "%s:%d: duplicate test name '%s' (first on line %d)", origin, lineno,
						 name, s->v[k].line);
					free(name);
					suite_release(s);
					return -1;
				}
			s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
			s->v[s->n++] = (struct suite_test){name, xstrndup(p + i, len - i), lineno};
		}
		p = end ? end + 1 : p + strlen(p);
	}
	if (s->n == 0)
		return cerr_set(e, "%s: no test in the suite", origin);
	return 0;
}

int suite_load(struct suite *s, const char *path, struct cerr *e)
{
	struct buf b = BUF_INIT;
	s->v = NULL;
	s->n = 0;
	if (file_read(path, &b, SUITE_MAX_BYTES, e) < 0) {
		buf_release(&b);
		return -1;
	}
	if (memchr(b.s ? b.s : "", '\0', b.len)) {
		buf_release(&b);
		return cerr_set(e, "%s: not a text file", path);
	}
	int rc = suite_parse(s, b.s ? b.s : "", path, e);
	buf_release(&b);
	return rc;
}
