#include "core/isolate/bisect.h"

#include <stdlib.h>
#include <string.h>

/* The state of one graph bisection. */
struct gb {
	const struct dd_graph *g;
	char *good, *skipped, *cand, *mark;
	size_t *stack, *list, *weight;
	size_t bad, nc, nskipped;
};

#define UNKNOWN ((size_t)-1)

/* Mark k and its ancestors in mark (1), through the stack; with within
 * non-NULL only commits it holds are walked. Returns how many were marked. */
static size_t ancestors(struct gb *b, size_t k, const char *within)
{
	size_t sp = 0, count = 0;
	if (b->mark[k])
		return 0;
	b->mark[k] = 1;
	b->stack[sp++] = k;
	while (sp) {
		size_t c = b->stack[--sp];
		count++;
		for (size_t i = 0; i < b->g->nparents[c]; i++) {
			size_t p = b->g->parents[c][i];
			if (!b->mark[p] && (!within || within[p])) {
				b->mark[p] = 1;
				b->stack[sp++] = p;
			}
		}
	}
	return count;
}

/* The candidates: ancestors of bad that no passing commit reaches. */
static void candidates(struct gb *b)
{
	size_t n = b->g->n;
	memset(b->mark, 0, n);
	for (size_t k = 0; k < n; k++)
		if (b->good[k])
			ancestors(b, k, NULL);
	char *reached = xmalloc(n);
	memcpy(reached, b->mark, n);
	memset(b->mark, 0, n);
	ancestors(b, b->bad, NULL);
	b->nc = 0;
	for (size_t k = 0; k < n; k++) {
		b->cand[k] = b->mark[k] && !reached[k];
		b->nc += (size_t)b->cand[k];
	}
	free(reached);
}

/* Is a before b in a walk newest first (ties: first queued first)? */
static int newer(const struct dd_graph *g, const size_t *seq, size_t a, size_t b)
{
	if (g->date[a] != g->date[b])
		return g->date[a] > g->date[b];
	return seq[a] < seq[b];
}

static void heap_push(const struct dd_graph *g, const size_t *seq, size_t *heap, size_t *nh, size_t k)
{
	size_t i = (*nh)++;
	while (i > 0 && newer(g, seq, k, heap[(i - 1) / 2])) {
		heap[i] = heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	heap[i] = k;
}

static size_t heap_pop(const struct dd_graph *g, const size_t *seq, size_t *heap, size_t *nh)
{
	size_t top = heap[0], last = heap[--*nh], i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= *nh)
			break;
		if (c + 1 < *nh && newer(g, seq, heap[c + 1], heap[c]))
			c++;
		if (!newer(g, seq, heap[c], last))
			break;
		heap[i] = heap[c];
		i = c;
	}
	if (*nh)
		heap[i] = last;
	return top;
}

/* b->list: the candidates in the order git bisect weighs them, the reverse
 * of its walk from bad newest first by committer date (ties in the order
 * they were queued, first parent first); without dates, parents first. */
static void walk_order(struct gb *b)
{
	const struct dd_graph *g = b->g;
	size_t n = g->n, m = 0;
	if (!g->date) {
		for (size_t k = 0; k < n; k++)
			if (b->cand[k])
				b->list[m++] = k;
		return;
	}
	size_t *seq = xmalloc(n * sizeof(*seq)), *heap = xmalloc(n * sizeof(*heap)), nh = 0, queued = 0;
	memset(b->mark, 0, n);
	seq[b->bad] = queued++;
	b->mark[b->bad] = 1;
	heap_push(g, seq, heap, &nh, b->bad);
	while (nh) {
		size_t c = heap_pop(g, seq, heap, &nh);
		b->list[m++] = c;
		for (size_t i = 0; i < g->nparents[c]; i++) {
			size_t p = g->parents[c][i];
			if (b->cand[p] && !b->mark[p]) {
				b->mark[p] = 1;
				seq[p] = queued++;
				heap_push(g, seq, heap, &nh, p);
			}
		}
	}
	for (size_t i = 0; i < m / 2; i++) {
		size_t t = b->list[i];
		b->list[i] = b->list[m - 1 - i];
		b->list[m - 1 - i] = t;
	}
	free(seq);
	free(heap);
}

/* Is weight w about half of nr, as git judges it? */
static int about_half(size_t w, size_t nr)
{
	long long diff = 2 * (long long)w - (long long)nr;
	return (diff >= -1 && diff <= 1) || llabs(diff) < (long long)(nr / 1024);
}

static size_t cand_parents(const struct gb *b, size_t k)
{
	size_t c = 0;
	for (size_t i = 0; i < b->g->nparents[k]; i++)
		c += (size_t)b->cand[b->g->parents[k][i]];
	return c;
}

/* Weigh the candidates in git's order: the ones without candidate parents
 * weigh 1, merges are counted, then each other commit weighs one more than
 * its parent. Unless all is set, the first commit weighed (not counting the
 * first kind) that is about half way is returned; else UNKNOWN. */
static size_t weigh(struct gb *b, int all)
{
	size_t nc = b->nc, known = 0;
	for (size_t i = 0; i < nc; i++) {
		size_t k = b->list[i];
		b->weight[k] = UNKNOWN;
		if (!cand_parents(b, k)) {
			b->weight[k] = 1;
			known++;
		}
	}
	for (size_t i = 0; i < nc; i++) {
		size_t k = b->list[i];
		if (cand_parents(b, k) < 2)
			continue;
		memset(b->mark, 0, b->g->n);
		b->weight[k] = ancestors(b, k, b->cand);
		known++;
		if (!all && about_half(b->weight[k], nc))
			return k;
	}
	while (known < nc) {
		size_t before = known;
		for (size_t i = 0; i < nc; i++) {
			size_t k = b->list[i], w = UNKNOWN;
			if (b->weight[k] != UNKNOWN)
				continue;
			for (size_t j = 0; j < b->g->nparents[k] && w == UNKNOWN; j++) {
				size_t p = b->g->parents[k][j];
				if (b->cand[p])
					w = b->weight[p];
			}
			if (w == UNKNOWN)
				continue;
			b->weight[k] = w + 1;
			known++;
			if (!all && about_half(b->weight[k], nc))
				return k;
		}
		if (known == before)
			break;   /* not a graph of parents first: cannot happen */
	}
	return UNKNOWN;
}

static size_t distance(const struct gb *b, size_t k)
{
	size_t w = b->weight[k];
	return w < b->nc - w ? w : b->nc - w;
}

/* git bisect's pseudo-random number and integer square root, so that a
 * skipped commit is stepped away from as git steps. */
static unsigned prn(unsigned count)
{
	count = count * 1103515245u + 12345u;
	return (count / 65536) % 32768;
}

static int sqrt_int(int val)
{
	float x = (float)val, d;
	if (!val)
		return 0;
	do {
		float y = (x + (float)val / x) / 2;
		d = y > x ? y - x : x - y;
		x = y;
	} while (d >= 0.5f);
	return (int)x;
}

struct ranked {
	size_t distance, idrank, k;
};

static int by_distance(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	if (a->distance != b->distance)
		return a->distance > b->distance ? -1 : 1;
	return a->idrank < b->idrank ? -1 : a->idrank > b->idrank;
}

/* Sort b->list as git does after a skip: by distance, then by id. */
static void sort_by_distance(struct gb *b)
{
	struct ranked *r = xmalloc((b->nc + 1) * sizeof(*r));
	for (size_t i = 0; i < b->nc; i++) {
		size_t k = b->list[i];
		r[i] = (struct ranked){distance(b, k), b->g->idrank ? b->g->idrank[k] : k, k};
	}
	qsort(r, b->nc, sizeof(*r), by_distance);
	for (size_t i = 0; i < b->nc; i++)
		b->list[i] = r[i].k;
	free(r);
}

/* The commit git bisect tests next, UNKNOWN when only skipped candidates
 * (and bad) are left. */
static size_t pick(struct gb *b)
{
	size_t nc = b->nc;
	walk_order(b);
	if (!b->nskipped) {
		size_t k = weigh(b, 0);
		if (k != UNKNOWN)
			return k;
		size_t best = UNKNOWN;
		for (size_t i = 0; i < nc; i++)
			if (best == UNKNOWN || distance(b, b->list[i]) > distance(b, best))
				best = b->list[i];
		return best == b->bad ? UNKNOWN : best;
	}
	/* After a skip git weighs them all and sorts them by distance, then id. */
	weigh(b, 1);
	sort_by_distance(b);
	if (!b->skipped[b->list[0]])
		return b->list[0] == b->bad ? UNKNOWN : b->list[0];
	/* The best is skipped: one of the others, away from it. */
	size_t count = 0;
	for (size_t i = 0; i < nc; i++)
		if (!b->skipped[b->list[i]])
			b->list[count++] = b->list[i];
	if (!count)
		return UNKNOWN;
	unsigned r = prn((unsigned)count);
	size_t index = (size_t)((unsigned long long)count * r / 32768) * (size_t)sqrt_int((int)r) /
		       (size_t)sqrt_int(32768);
	size_t k = b->list[index];
	if (k == b->bad)
		k = b->list[index ? index - 1 : 0];
	return k == b->bad ? UNKNOWN : k;
}

int dd_bisect_graph(const struct dd_graph *g, dd_commit_test test, void *priv, size_t *pbad, char *cand)
{
	size_t n = g->n;
	*pbad = n ? n - 1 : 0;
	if (n < 2) {
		if (n)
			cand[0] = 1;
		return 0;
	}
	struct gb b = {
		.g = g,
		.good = xcalloc(n + 1, 1),
		.skipped = xcalloc(n + 1, 1),
		.cand = cand,
		.mark = xcalloc(n + 1, 1),
		.stack = xmalloc((n + 1) * sizeof(size_t)),
		.list = xmalloc((n + 1) * sizeof(size_t)),
		.weight = xmalloc((n + 1) * sizeof(size_t)),
		.bad = n - 1,
	};
	int rc = 0;
	for (;;) {
		candidates(&b);
		if (b.nc <= 1)
			break;
		size_t k = pick(&b);
		if (k == UNKNOWN)
			break;   /* only skipped candidates are left */
		rc = test(priv, k);
		if (rc < 0)
			break;   /* DD_STOP too: the candidates are the narrowest known */
		if (rc == 0) {
			b.good[k] = 1;
		} else if (rc == 1) {
			b.bad = k;
		} else {
			b.skipped[k] = 1;
			b.nskipped++;
		}
		rc = 0;
	}
	*pbad = b.bad;
	free(b.good);
	free(b.skipped);
	free(b.mark);
	free(b.stack);
	free(b.list);
	free(b.weight);
	return rc;
}

/* The chain's test: graph commit j is chain commit j + 1. */
struct chain {
	dd_commit_test test;
	void *priv;
};

static int chain_test(void *priv, size_t j)
{
	struct chain *c = priv;
	return c->test(c->priv, j + 1);
}

int dd_bisect(size_t n, const size_t *idrank, dd_commit_test test, void *priv, size_t *plo, size_t *phi)
{
	*plo = 0;
	*phi = n ? n - 1 : 0;
	if (n < 3)
		return 0;
	size_t m = n - 1, *up = xmalloc(m * sizeof(*up)), *np = xmalloc(m * sizeof(*np));
	const size_t **parents = xmalloc(m * sizeof(*parents));
	for (size_t j = 0; j < m; j++) {
		up[j] = j ? j - 1 : 0;
		np[j] = j > 0;
		parents[j] = &up[j];
	}
	struct dd_graph g = {m, parents, np, NULL, idrank ? idrank + 1 : NULL};
	struct chain c = {test, priv};
	char *cand = xcalloc(m, 1);
	size_t bad = m - 1;
	int rc = dd_bisect_graph(&g, chain_test, &c, &bad, cand);
	size_t oldest = bad;
	for (size_t j = 0; j < m; j++)
		if (cand[j]) {
			oldest = j;
			break;
		}
	*plo = oldest;
	*phi = bad + 1;
	free(cand);
	free(parents);
	free(np);
	free(up);
	return rc;
}
