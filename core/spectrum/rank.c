#include "core/spectrum/rank.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The change of good..bad whose new side holds (file, line), or -1. */
static long change_at(const struct change_set *s, const char *file, int line)
{
	if (!s)
		return -1;
	for (size_t fi = 0; fi < s->nfiles; fi++) {
		const struct change_file *f = &s->files[fi];
		if (strcmp(f->new_path, file) || f->status == CHANGE_DELETED)
			continue;
		for (size_t ci = f->change0; ci < f->change0 + f->nchanges; ci++) {
			const struct change *c = &s->changes[ci];
			if (c->kind == CHANGE_FILE_ADD)
				return (long)ci;
			if (c->kind == CHANGE_HUNK && c->new_lines > 0 && line >= c->new_start &&
			    line < c->new_start + c->new_lines)
				return (long)ci;
		}
	}
	return -1;
}

void rank_compute(struct ranking *r, const struct coverage *c, const int *counted, const struct change_set *changes,
		  enum spectra_formula f, int changed_only)
{
	memset(r, 0, sizeof(*r));
	r->formula = f;
	for (size_t i = 0; i < c->nruns; i++)
		if (counted[i])
			c->runs[i].status == COV_FAIL ? r->F++ : r->P++;
	struct spectra_line *v = xcalloc(c->nlines + 1, sizeof(*v));
	size_t n = 0;
	for (size_t l = 0; l < c->nlines; l++) {
		int ef = 0, ep = 0;
		for (size_t i = 0; i < c->nruns; i++)
			if (counted[i] && bits_test(c->runs[i].hit, l))
				c->runs[i].status == COV_FAIL ? ef++ : ep++;
		if (ef + ep == 0)
			continue;
		const char *file = c->files[c->lines[l].file];
		long ch = change_at(changes, file, (int)c->lines[l].line);
		if (changed_only && ch < 0)
			continue;
		v[n++] = (struct spectra_line){file, (int)c->lines[l].line, ef, ep, (void *)(ch + 1), 0, 0, 0, 0};
	}
	spectra_rank(v, n, f, r->F, r->P);
	r->v = xcalloc(n + 1, sizeof(*r->v));
	r->n = n;
	for (size_t i = 0; i < n; i++) {
		r->v[i].s = v[i];
		r->v[i].s.file = xstrdup(v[i].file);   /* the ranking outlives the coverage */
		r->v[i].change = (long)(intptr_t)v[i].priv - 1;
		r->v[i].s.priv = NULL;
		r->v[i].raw = v[i].score;
	}
	free(v);
}

void rank_boost(struct ranking *r, char *const *files, const int *lines, size_t n)
{
	int any = 0;
	for (size_t i = 0; i < r->n; i++)
		for (size_t k = 0; k < n && !r->v[i].boosted; k++)
			if (r->v[i].s.line == lines[k] && !strcmp(r->v[i].s.file, files[k])) {
				r->v[i].boosted = 1;
				r->v[i].s.score = r->v[i].raw + 1;
				any = 1;
			}
	if (!any)
		return;
	/* Sort the lines (their entries ride along in priv). */
	struct spectra_line *v = xcalloc(r->n + 1, sizeof(*v));
	struct rank_entry *old = r->v;
	for (size_t i = 0; i < r->n; i++) {
		v[i] = old[i].s;
		v[i].priv = &old[i];
	}
	spectra_order(v, r->n);
	r->v = xcalloc(r->n + 1, sizeof(*r->v));
	for (size_t i = 0; i < r->n; i++) {
		r->v[i] = *(struct rank_entry *)v[i].priv;
		r->v[i].s = v[i];
		r->v[i].s.priv = NULL;
	}
	free(old);
	free(v);
}

const struct rank_entry *rank_find(const struct ranking *r, const char *file, int line)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].s.line == line && !strcmp(r->v[i].s.file, file))
			return &r->v[i];
	return NULL;
}

void rank_release(struct ranking *r)
{
	for (size_t i = 0; i < r->n; i++)
		free((char *)r->v[i].s.file);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

double rank_of_change(const struct ranking *r, size_t change)
{
	double best = 0;
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].change == (long)change && r->v[i].s.score > best)
			best = r->v[i].s.score;
	return best;
}
