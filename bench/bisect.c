/* Commit bisection as git bisect chooses: steps and CPU time over made-up
 * histories (a straight line; a main line with a branch of 8 commits merged
 * every 16 commits, dated so branches interleave), for each culprit
 * position sampled, with and without a tenth of the commits unbuildable.
 * Prints figures; never fails on time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include "core/isolate/bisect.h"
#include "core/util.h"

struct hist {
	size_t n;
	size_t **parents;
	size_t *np;
	long long *date;
	size_t *rank;
	char *anc;          /* anc[culprit]: scratch, descendants of the culprit */
	char *broken;
};

struct run {
	struct hist *h;
	size_t culprit;
	int steps;
};

/* Commits descending from the culprit fail: marked by walking forwards,
 * parents before children in index order. */
static void mark_from(struct hist *h, size_t culprit)
{
	memset(h->anc, 0, h->n);
	h->anc[culprit] = 1;
	for (size_t k = culprit + 1; k < h->n; k++)
		for (size_t i = 0; i < h->np[k] && !h->anc[k]; i++)
			h->anc[k] = h->anc[h->parents[k][i]];
}

static int test(void *priv, size_t k)
{
	struct run *r = priv;
	r->steps++;
	if (r->h->broken[k])
		return 2;
	return r->h->anc[k];
}

static void add_commit(struct hist *h, size_t a, size_t b, long long date)
{
	size_t k = h->n++;
	h->parents[k] = xmalloc(2 * sizeof(**h->parents));
	h->np[k] = 0;
	if (a != (size_t)-1)
		h->parents[k][h->np[k]++] = a;
	if (b != (size_t)-1)
		h->parents[k][h->np[k]++] = b;
	h->date[k] = date;
	h->rank[k] = (k * 2654435761u) % 1000003;   /* ids in no order */
}

static void make(struct hist *h, size_t n, int merges)
{
	memset(h, 0, sizeof(*h));
	h->parents = xmalloc((n + 1) * sizeof(*h->parents));
	h->np = xmalloc((n + 1) * sizeof(*h->np));
	h->date = xmalloc((n + 1) * sizeof(*h->date));
	h->rank = xmalloc((n + 1) * sizeof(*h->rank));
	size_t tip = (size_t)-1;
	long long t = 1000000;
	while (h->n + (merges ? 10 : 1) <= n) {
		if (!merges || h->n % 16) {
			add_commit(h, tip, (size_t)-1, t += 60);
			tip = h->n - 1;
			continue;
		}
		/* A branch of 8 from tip, its dates among the main line's. */
		size_t b = tip;
		for (int i = 0; i < 8; i++) {
			add_commit(h, b, (size_t)-1, t - 400 + 50 * i);
			b = h->n - 1;
		}
		add_commit(h, tip, (size_t)-1, t += 60);
		add_commit(h, h->n - 1, b, t += 60);
		tip = h->n - 1;
	}
	h->anc = xmalloc(h->n + 1);
	h->broken = xcalloc(h->n + 1, 1);
}

static void release(struct hist *h)
{
	for (size_t k = 0; k < h->n; k++)
		free(h->parents[k]);
	free(h->parents);
	free(h->np);
	free(h->date);
	free(h->rank);
	free(h->anc);
	free(h->broken);
}

int main(void)
{
	printf("%-9s %7s %8s %7s %9s %9s %10s\n", "history", "commits", "broken", "runs", "steps", "log2(n)",
	       "ms/bisect");
	const size_t sizes[] = {100, 1000, 10000};
	for (int merges = 0; merges < 2; merges++)
		for (size_t si = 0; si < 3; si++)
			for (int br = 0; br < 2; br++) {
				struct hist h;
				make(&h, sizes[si], merges);
				srand(7);
				for (size_t k = 1; br && k + 1 < h.n; k++)
					h.broken[k] = rand() % 10 == 0;
				struct dd_graph g = {h.n, (const size_t *const *)h.parents, h.np, h.date, h.rank};
				char *cand = xmalloc(h.n + 1);
				int runs = 0;
				double steps = 0;
				clock_t c0 = clock();
				for (size_t culprit = 1; culprit < h.n; culprit += h.n / 20 + 1) {
					struct run r = {&h, culprit, 0};
					mark_from(&h, culprit);
					size_t bad = 0;
					if (dd_bisect_graph(&g, test, &r, &bad, cand) == 0) {
						steps += r.steps;
						runs++;
					}
				}
				double ms = 1000.0 * (double)(clock() - c0) / CLOCKS_PER_SEC / (runs ? runs : 1);
				printf("%-9s %7zu %7s %7d %9.1f %9.1f %10.2f\n", merges ? "merges" : "line", h.n,
				       br ? "10%" : "0", runs, runs ? steps / runs : 0, log2((double)h.n), ms);
				free(cand);
				release(&h);
			}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("max RSS %ld KB\n", ru.ru_maxrss);
	return 0;
}
