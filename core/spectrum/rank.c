#include "core/spectrum/rank.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The text of a line without comments and whitespace; *in_comment
 * carries a block comment from one line to the next. */
static void code_of(const char *l, int *in_comment, struct buf *out)
{
	buf_reset(out);
	for (const char *p = l; *p;) {
		if (*in_comment) {
			if (p[0] == '*' && p[1] == '/') {
				*in_comment = 0;
				p += 2;
			} else {
				p++;
			}
		} else if (p[0] == '/' && p[1] == '*') {
			*in_comment = 1;
			p += 2;
		} else if (p[0] == '/' && p[1] == '/') {
			break;
		} else if (*p == '"' || *p == '\'') {   /* a literal keeps its spaces and slashes */
			char q = *p;
			buf_addc(out, *p++);
			while (*p && *p != q) {
				if (*p == '\\' && p[1])
					buf_addc(out, *p++);
				buf_addc(out, *p++);
			}
			if (*p)
				buf_addc(out, *p++);
		} else {
			if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\f' && *p != '\v')
				buf_addc(out, *p);
			p++;
		}
	}
}

/* Which lines of a hunk's new side change code: not a line that is only a
 * comment or blank, nor one whose code equals a removed line's (only its
 * comment or spacing changed). One flag per new line. */
static unsigned char *code_lines(const struct change_set *s, size_t ci)
{
	struct change_lines cl;
	change_lines_of(s, ci, &cl);
	unsigned char *real = xcalloc(cl.nadded + 1, 1);
	char **old = xcalloc(cl.nremoved + 1, sizeof(*old));
	struct buf b = BUF_INIT;
	int inc = 0;
	for (size_t i = 0; i < cl.nremoved; i++) {
		code_of(cl.removed[i], &inc, &b);
		old[i] = xstrdup(b.s ? b.s : "");
	}
	inc = 0;
	for (size_t i = 0; i < cl.nadded; i++) {
		code_of(cl.added[i], &inc, &b);
		if (!b.len)
			continue;
		real[i] = 1;
		for (size_t k = 0; k < cl.nremoved; k++)
			if (old[k] && !strcmp(old[k], b.s)) {
				free(old[k]);
				old[k] = NULL;   /* each removed line matches once */
				real[i] = 0;
				break;
			}
	}
	for (size_t i = 0; i < cl.nremoved; i++)
		free(old[i]);
	free(old);
	buf_release(&b);
	change_lines_free(&cl);
	return real;
}

/* The change of good..bad whose new side holds (file, line) and changes
 * its code, or -1. real caches code_lines per change. */
static long change_at(const struct change_set *s, unsigned char **real, const char *file, int line)
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
			    line < c->new_start + c->new_lines) {
				if (!real[ci])
					real[ci] = code_lines(s, ci);
				return real[ci][line - c->new_start] ? (long)ci : -1;
			}
		}
	}
	return -1;
}

/* What a ranked line carries through the sort. */
struct line_extra {
	long change;
	int spectrum_of;
};

static void counts_of(const struct coverage *c, const int *counted, size_t l, int *ef, int *ep)
{
	*ef = *ep = 0;
	for (size_t i = 0; i < c->nruns; i++)
		if (counted[i] && bits_test(c->runs[i].hit, l))
			c->runs[i].status == COV_FAIL ? (*ef)++ : (*ep)++;
}

/* The changed lines of changes' new side that hold code but have no
 * coverage record of their own, while their file has some: a predicate the
 * compiler folded to a constant, a declaration. Each takes the spectrum of
 * the next line of its file that has a record (the code that runs in its
 * place; the previous one at the end of the file), so that the line a fix
 * would touch is never missing from the ranking. */
static size_t add_codeless(struct spectra_line *v, struct line_extra *ex, size_t n, const struct coverage *c,
			   const int *counted, const struct change_set *s, unsigned char **real)
{
	for (size_t ci = 0; s && ci < s->nchanges; ci++) {
		const struct change *ch = &s->changes[ci];
		const struct change_file *cf = &s->files[ch->file];
		if (ch->kind != CHANGE_HUNK || ch->new_lines <= 0 || cf->status == CHANGE_DELETED)
			continue;
		size_t lo = 0;   /* the file's records: [lo, hi) of c->lines */
		while (lo < c->nlines && strcmp(c->files[c->lines[lo].file], cf->new_path))
			lo++;
		size_t hi = lo;
		while (hi < c->nlines && c->lines[hi].file == c->lines[lo].file)
			hi++;
		if (lo == hi)
			continue;
		if (!real[ci])
			real[ci] = code_lines(s, ci);
		for (int k = 0; k < ch->new_lines; k++) {
			uint32_t line = (uint32_t)(ch->new_start + k);
			if (!real[ci][k] || coverage_find(c, cf->new_path, line) >= 0)
				continue;
			size_t at = lo;
			while (at < hi && c->lines[at].line < line)
				at++;
			if (at == hi)
				at = hi - 1;
			int ef, ep;
			counts_of(c, counted, at, &ef, &ep);
			if (ef + ep == 0)
				continue;
			ex[n] = (struct line_extra){(long)ci, (int)c->lines[at].line};
			v[n] = (struct spectra_line){c->files[c->lines[at].file], (int)line, ef, ep, &ex[n], 0, 0, 0, 0};
			n++;
		}
	}
	return n;
}

/* How many new-side lines the hunks of s hold (the most add_codeless adds). */
static size_t changed_lines_max(const struct change_set *s)
{
	size_t n = 0;
	for (size_t ci = 0; s && ci < s->nchanges; ci++)
		if (s->changes[ci].kind == CHANGE_HUNK && s->changes[ci].new_lines > 0)
			n += (size_t)s->changes[ci].new_lines;
	return n;
}

void rank_compute(struct ranking *r, const struct coverage *c, const int *counted, const struct change_set *changes,
		  enum spectra_formula f, int changed_only)
{
	memset(r, 0, sizeof(*r));
	r->formula = f;
	for (size_t i = 0; i < c->nruns; i++)
		if (counted[i])
			c->runs[i].status == COV_FAIL ? r->F++ : r->P++;
	size_t cap = c->nlines + changed_lines_max(changes) + 1;
	struct spectra_line *v = xcalloc(cap, sizeof(*v));
	struct line_extra *ex = xcalloc(cap, sizeof(*ex));
	unsigned char **real = changes ? xcalloc(changes->nchanges + 1, sizeof(*real)) : NULL;
	size_t n = 0;
	for (size_t l = 0; l < c->nlines; l++) {
		int ef, ep;
		counts_of(c, counted, l, &ef, &ep);
		if (ef + ep == 0)
			continue;
		const char *file = c->files[c->lines[l].file];
		long ch = change_at(changes, real, file, (int)c->lines[l].line);
		if (changed_only && ch < 0)
			continue;
		ex[n] = (struct line_extra){ch, 0};
		v[n] = (struct spectra_line){file, (int)c->lines[l].line, ef, ep, &ex[n], 0, 0, 0, 0};
		n++;
	}
	n = add_codeless(v, ex, n, c, counted, changes, real);
	for (size_t i = 0; changes && i < changes->nchanges; i++)
		free(real[i]);
	free(real);
	spectra_rank(v, n, f, r->F, r->P);
	r->v = xcalloc(n + 1, sizeof(*r->v));
	r->n = n;
	for (size_t i = 0; i < n; i++) {
		const struct line_extra *e = v[i].priv;
		r->v[i].s = v[i];
		r->v[i].s.file = xstrdup(v[i].file);   /* the ranking outlives the coverage */
		r->v[i].change = e->change;
		r->v[i].spectrum_of = e->spectrum_of;
		r->v[i].s.priv = NULL;
		r->v[i].raw = v[i].score;
	}
	free(v);
	free(ex);
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

static int by_preference(const void *a, const void *b)
{
	const struct rank_entry *x = a, *y = b;
	if (x->preferred != y->preferred)
		return x->preferred ? -1 : 1;
	return x->s.rank_avg < y->s.rank_avg ? -1 : x->s.rank_avg > y->s.rank_avg;
}

void rank_prefer(struct ranking *r, const unsigned char *preferred, size_t nchanges)
{
	int any = 0;
	for (size_t i = 0; i < r->n; i++) {
		long c = r->v[i].change;
		r->v[i].preferred = c >= 0 && (size_t)c < nchanges && preferred[c];
		any |= r->v[i].preferred;
	}
	if (!any)
		return;
	/* Sorted already: a stable move of the preferred lines to the front
	 * (ties by the rank they had), then ranks again among equals. */
	qsort(r->v, r->n, sizeof(*r->v), by_preference);
	for (size_t i = 0; i < r->n;) {
		size_t j = i;
		while (j + 1 < r->n && r->v[j + 1].preferred == r->v[i].preferred &&
		       r->v[j + 1].s.score == r->v[i].s.score && r->v[j + 1].s.confidence == r->v[i].s.confidence)
			j++;
		for (size_t k = i; k <= j; k++) {
			r->v[k].s.rank = j + 1;
			r->v[k].s.rank_avg = (double)(i + 1 + j + 1) / 2;
		}
		i = j + 1;
	}
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
