#include "core/isolate/config.h"

#include <stdlib.h>
#include <string.h>
#include "core/isolate/repo.h"


struct collect {
	const struct change_set *s;
	char **lines;
	size_t n, cap;
};

/* The base's state of a path: the old side of the file that had it. */
static int base_state(const struct change_set *s, const char *path, unsigned *mode,
		      const char **data, size_t *len)
{
	for (size_t i = 0; i < s->nfiles; i++) {
		const struct change_file *f = &s->files[i];
		if (f->status != CHANGE_ADDED && !strcmp(f->old_path, path)) {
			*mode = f->old_mode;
			*data = f->old_data ? f->old_data : "";
			*len = f->old_len;
			return 1;
		}
	}
	return 0;
}

static int collect_cb(void *priv, const char *path, int present, unsigned mode, const char *data,
		      size_t len)
{
	struct collect *c = priv;
	unsigned bmode = 0;
	const char *bdata = "";
	size_t blen = 0;
	int bpresent = base_state(c->s, path, &bmode, &bdata, &blen);

	if (present == bpresent &&
	    (!present || (mode == bmode && len == blen && !memcmp(data, bdata, len))))
		return 0;
	char id[41] = "-";
	if (present)
		repo_hash(data, len, id);
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->lines = xrealloc(c->lines, c->cap * sizeof(*c->lines));
	}
	c->lines[c->n++] = xasprintf("%s\t%o\t%s", path, present ? mode : 0, id);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void config_key(const struct change_set *s, const struct bits *applied, char hex[41])
{
	struct collect c = {s, NULL, 0, 0};
	struct buf b = BUF_INIT;

	change_materialize(s, applied, collect_cb, &c);
	if (c.n)
		qsort(c.lines, c.n, sizeof(*c.lines), cmp_str);
	buf_addf(&b, "base %s\n", s->old_rev);
	for (size_t i = 0; i < c.n; i++) {
		buf_adds(&b, c.lines[i]);
		buf_addc(&b, '\n');
		free(c.lines[i]);
	}
	free(c.lines);
	repo_hash(b.s, b.len, hex);
	buf_release(&b);
}
