#include "core/isolate/dd.h"

#include <stdlib.h>
#include <string.h>

/* pred on a[0..na) followed by b[0..nb), through one scratch array. */
static int pred2(dd_pred pred, void *priv, size_t *scratch, const size_t *a, size_t na,
		 const size_t *b, size_t nb)
{
	memcpy(scratch, a, na * sizeof(*a));
	memcpy(scratch + na, b, nb * sizeof(*b));
	return pred(priv, scratch, na + nb);
}

/* Keep f in the callers' unit order so every configuration is listed canonically. */
static void insert_sorted(size_t *f, size_t *nf, size_t u, const size_t *order, size_t norder)
{
	size_t pos_u = 0;
	while (pos_u < norder && order[pos_u] != u)
		pos_u++;
	size_t i = *nf;
	while (i > 0) {
		size_t pos = 0;
		while (pos < norder && order[pos] != f[i - 1])
			pos++;
		if (pos < pos_u)
			break;
		f[i] = f[i - 1];
		i--;
	}
	f[i] = u;
	(*nf)++;
}

static size_t log2_up(size_t n);

/* The split nearest to mid (within a quarter of the range) with the
 * strongest border, among those that leave neither side longer than
 * halving would in the end: a power of two, so that a border costs no
 * configuration more than plain halving (five units split 1 + 4, then
 * 2 + 2: three configurations, as halving takes). */
static size_t best_split(const size_t *units, size_t lo, size_t hi, size_t mid, dd_boundary boundary, void *priv)
{
	if (!boundary)
		return mid;
	size_t best = mid, window = (hi - lo) / 4, side = (size_t)1 << (log2_up(hi - lo) - 1);
	int strength = boundary(priv, units[mid - 1], units[mid]);
	for (size_t d = 1; d <= window && strength < 2; d++) {
		size_t cand[2] = {mid - d, mid + d};
		for (int k = 0; k < 2; k++) {
			if (cand[k] <= lo || cand[k] >= hi || cand[k] - lo > side || hi - cand[k] > side)
				continue;
			int b = boundary(priv, units[cand[k] - 1], units[cand[k]]);
			if (b > strength) {
				strength = b;
				best = cand[k];
			}
		}
	}
	return best;
}

int dd_minimize(const size_t *units, size_t n, dd_pred pred, void *priv, size_t *out, size_t *nout)
{
	return dd_minimize_hier(units, n, pred, NULL, priv, out, nout);
}

static size_t log2_up(size_t n)
{
	size_t l = 0;
	while (((size_t)1 << l) < n)
		l++;
	return l;
}

int dd_minimize_hier(const size_t *units, size_t n, dd_pred pred, dd_boundary boundary, void *priv, size_t *out,
		     size_t *nout)
{
	return dd_minimize_left(units, n, pred, boundary, NULL, priv, out, nout);
}

int dd_minimize_left(const size_t *units, size_t n, dd_pred pred, dd_boundary boundary, dd_left left, void *priv,
		     size_t *out, size_t *nout)
{
	size_t *found = xmalloc((n + 1) * sizeof(*found));
	size_t *scratch = xmalloc((n + 1) * sizeof(*scratch));
	size_t nfound = 0, nrest = n;
	int rc = 0;

	*nout = 0;
	/* Invariant: pred(found + units[0..nrest)) holds. */
	int stopped = 0;
	while (nrest > 0) {
		if (nfound > 0) {
			if (left)
				left(priv, 1 + log2_up(nrest) + nfound + 1);
			rc = pred(priv, found, nfound);
			if (rc == DD_STOP)
				goto stop;
			if (rc < 0)
				goto out;
			if (rc == 1)
				break;
		}
		if (nrest == 1) {   /* the one left is needed */
			insert_sorted(found, &nfound, units[0], units, n);
			break;
		}
		/* The shortest prefix of the rest that, with found, keeps the property. */
		size_t lo = 0, hi = nrest;
		/* After the first unit found, its neighbour first: the order puts
		 * what a unit needs just before it, and changes that work together
		 * are mostly neighbours in the diff. One configuration when it is
		 * the one, one more than halving when not (unresolved counts as
		 * "has not", as halving counts it in the end). */
		if (nfound > 0 && hi - lo > 1) {
			if (left)
				left(priv, log2_up(hi - lo) + 2 + nfound + 1);
			rc = pred2(pred, priv, scratch, found, nfound, units, hi - 1);
			if (rc == DD_STOP) {
				nrest = hi;   /* the prefix known to keep it */
				goto stop;
			}
			if (rc < 0)
				goto out;
			if (rc == 1)
				hi--;
			else
				lo = hi - 1;
		}
		while (hi - lo > 1) {
			size_t mid = best_split(units, lo, hi, lo + (hi - lo) / 2, boundary, priv), at = mid;
			if (left)
				left(priv, log2_up(hi - lo) + 1 + nfound + 1);
			rc = pred2(pred, priv, scratch, found, nfound, units, mid);
			/* Unresolved: the split may cut through changes that only
			 * build together; probe the nearest other splits. */
			for (size_t d = 1; rc == 2 && d <= 2; d++) {
				size_t cand[2] = {mid + d, mid - d};
				for (int k = 0; k < 2 && rc == 2; k++) {
					if (cand[k] <= lo || cand[k] >= hi || (k == 1 && d > mid))
						continue;
					rc = pred2(pred, priv, scratch, found, nfound, units, cand[k]);
					at = cand[k];
				}
			}
			if (rc == DD_STOP) {
				nrest = hi;
				goto stop;
			}
			if (rc < 0)
				goto out;
			if (rc == 1)
				hi = at;
			else
				lo = rc == 0 ? at : mid;   /* unresolved (2 or 3): as "has not" */
		}
		insert_sorted(found, &nfound, units[hi - 1], units, n);
		nrest = hi - 1;
	}

	/* 1-minimality: no single unit can go. Binary search assumed monotony;
	 * unresolved configurations can break it, so check. */
	for (int again = 1; again && nfound > 1;) {
		again = 0;
		for (size_t i = 0; i < nfound; i++) {
			size_t k = 0;
			for (size_t j = 0; j < nfound; j++)
				if (j != i)
					scratch[k++] = found[j];
			if (left)
				left(priv, nfound - i);
			rc = pred(priv, scratch, k);
			if (rc == DD_STOP) {
				nrest = 0;
				goto stop;
			}
			if (rc < 0)
				goto out;
			if (rc == 1) {
				memcpy(found, scratch, k * sizeof(*found));
				nfound = k;
				again = 1;
				break;
			}
		}
	}
	/* A 1-minimal set can still hide a smaller one (a unit that fails alone
	 * while the prefix order paired it with units it does not need): polish
	 * with ddmin, which tries small subsets first. Free when one unit is left. */
	if (nfound > 1) {
		rc = dd_ddmin(found, nfound, pred, priv, out, nout);
		goto out;
	}
	rc = 0;
	memcpy(out, found, nfound * sizeof(*found));
	*nout = nfound;
	goto out;
stop:
	/* The best known: what was found plus what was still left. */
	stopped = 1;
	memcpy(out, found, nfound * sizeof(*found));
	memcpy(out + nfound, units, nrest * sizeof(*units));
	*nout = nfound + nrest;
out:
	free(found);
	free(scratch);
	if (left)
		left(priv, 0);
	if (stopped)
		return DD_STOP;
	return rc < 0 ? rc : 0;
}

int dd_ddmin(const size_t *units, size_t n, dd_pred pred, void *priv, size_t *out, size_t *nout)
{
	size_t *c = xmalloc((n + 1) * sizeof(*c));
	size_t *sub = xmalloc((n + 1) * sizeof(*sub));
	size_t nc = n, gran = 2;
	int rc = 0;

	memcpy(c, units, n * sizeof(*c));
	while (nc >= 2) {
		if (gran > nc)
			gran = nc;
		int reduced = 0;
		/* Subsets. */
		for (size_t i = 0; i < gran && !reduced; i++) {
			size_t b = nc * i / gran, e = nc * (i + 1) / gran;
			rc = pred(priv, c + b, e - b);
			if (rc < 0)
				goto out;
			if (rc == 1) {
				memmove(c, c + b, (e - b) * sizeof(*c));
				nc = e - b;
				gran = 2;
				reduced = 1;
			}
		}
		/* Complements (at granularity 2 they are the subsets again). */
		for (size_t i = 0; i < gran && !reduced && gran > 2; i++) {
			size_t b = nc * i / gran, e = nc * (i + 1) / gran, k = 0;
			for (size_t j = 0; j < nc; j++)
				if (j < b || j >= e)
					sub[k++] = c[j];
			rc = pred(priv, sub, k);
			if (rc < 0)
				goto out;
			if (rc == 1) {
				memcpy(c, sub, k * sizeof(*c));
				nc = k;
				gran = gran - 1 > 2 ? gran - 1 : 2;
				reduced = 1;
			}
		}
		if (!reduced) {
			if (gran >= nc)
				break;
			gran = gran * 2 < nc ? gran * 2 : nc;
		}
	}
	rc = 0;
out:
	if (rc == 0 || rc == DD_STOP) {
		memcpy(out, c, nc * sizeof(*c));   /* c always has the property */
		*nout = nc;
	}
	free(c);
	free(sub);
	return rc < 0 ? rc : 0;
}
