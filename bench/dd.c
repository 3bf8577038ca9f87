/* Configurations tested versus the number of changes: culprit's minimization
 * against plain ddmin, for one culprit and for two interacting culprits, with
 * and without unresolved configurations. Prints figures; never fails on time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/resource.h>

#include "core/isolate/dd.h"
#include "core/util.h"

struct world {
	size_t a, b;       /* culprits (b == a: one culprit) */
	int unresolved;    /* configurations holding exactly one of (a+1, a+2) do not build */
	size_t n;
	int calls;         /* distinct configurations: the engine tests each at most once */
	uint64_t seen[4096];
};

static int cmp_size(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	return a < b ? -1 : a > b;
}

/* Count a configuration once, as the engine's cache does. */
static void count(struct world *w, const size_t *u, size_t n)
{
	size_t *s = xmalloc((n + 1) * sizeof(*s));
	memcpy(s, u, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_size);
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 1099511628211ull;
	h |= 1;
	free(s);
	for (size_t i = h % 4096;; i = (i + 1) % 4096) {
		if (w->seen[i] == h)
			return;
		if (!w->seen[i]) {
			w->seen[i] = h;
			w->calls++;
			return;
		}
	}
}

static int has(const size_t *u, size_t n, size_t x)
{
	for (size_t i = 0; i < n; i++)
		if (u[i] == x)
			return 1;
	return 0;
}

static int pred(void *priv, const size_t *u, size_t n)
{
	struct world *w = priv;
	count(w, u, n);
	if (w->unresolved && w->a + 2 < w->n && has(u, n, w->a + 1) != has(u, n, w->a + 2))
		return 2;
	return has(u, n, w->a) && has(u, n, w->b);
}

static void run(size_t n, int two, int unresolved, double *mean_ours, int *max_ours, double *mean_ddmin,
		int *max_ddmin)
{
	size_t *units = xmalloc(n * sizeof(*units)), *out = xmalloc(n * sizeof(*out)), nout;
	long sum_o = 0, sum_d = 0;
	int trials = 0;
	*max_ours = *max_ddmin = 0;
	for (size_t i = 0; i < n; i++)
		units[i] = i;
	srand((unsigned)n * 7 + (unsigned)two);
	for (int t = 0; t < 40; t++) {
		size_t a = (size_t)rand() % n, b = two ? (size_t)rand() % n : a;
		static struct world w1, w2;
		memset(&w1, 0, sizeof(w1));
		w1.a = a;
		w1.b = b;
		w1.unresolved = unresolved;
		w1.n = n;
		w2 = w1;
		dd_minimize(units, n, pred, &w1, out, &nout);
		dd_ddmin(units, n, pred, &w2, out, &nout);
		sum_o += w1.calls;
		sum_d += w2.calls;
		*max_ours = w1.calls > *max_ours ? w1.calls : *max_ours;
		*max_ddmin = w2.calls > *max_ddmin ? w2.calls : *max_ddmin;
		trials++;
	}
	*mean_ours = (double)sum_o / trials;
	*mean_ddmin = (double)sum_d / trials;
	free(units);
	free(out);
}

int main(void)
{
	size_t sizes[] = {16, 64, 256, 1024};
	printf("distinct configurations tested (mean / max over 40 random placements)\n");
	printf("%-28s %6s %8s %16s %16s\n", "case", "n", "target", "culprit", "plain ddmin");
	for (int two = 0; two <= 1; two++)
		for (int unres = 0; unres <= 1; unres++)
			for (size_t i = 0; i < 4; i++) {
				double mo, md;
				int xo, xd;
				double t0 = now_seconds();
				run(sizes[i], two, unres, &mo, &xo, &md, &xd);
				(void)t0;
				char target[16] = "-";
				if (!two)
					snprintf(target, sizeof(target), "%d", (int)ceil(log2((double)sizes[i])) + 2);
				char c[64];
				snprintf(c, sizeof(c), "%s%s", two ? "two interacting" : "one culprit",
					 unres ? " + unresolved" : "");
				printf("%-28s %6zu %8s %9.1f / %-4d %9.1f / %-4d\n", c, sizes[i], target, mo, xo, md, xd);
			}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("peak memory: %ld KiB\n", ru.ru_maxrss);
	return 0;
}
