/* spectra — spectrum-based suspiciousness: the formulas (Tarantula with
 * confidence, Ochiai, DStar(2), Op2, Jaccard) over the counts of failing and
 * passing tests that execute each line, and the ranks (pessimistic and
 * average over ties). Pure computation: no I/O. */
#ifndef CULPRIT_SPECTRA_H
#define CULPRIT_SPECTRA_H

#include <stddef.h>

enum spectra_formula {
	SPECTRA_TARANTULA,
	SPECTRA_OCHIAI,
	SPECTRA_DSTAR,
	SPECTRA_OP2,
	SPECTRA_JACCARD,
	SPECTRA_NFORMULAS,
};

const char *spectra_formula_name(enum spectra_formula f);   /* "tarantula", "ochiai", ... */
int spectra_formula_parse(const char *name, enum spectra_formula *f);   /* 0, or -1 if unknown */

/* Suspiciousness of a line executed by ef of F failing and ep of P passing
 * tests. Divisions by zero count as 0. *confidence (may be NULL) gets
 * Tarantula's confidence max(ef/F, ep/P), the tie-breaker for every formula. */
double spectra_score(enum spectra_formula f, int ef, int ep, int F, int P, double *confidence);

/* One ranked line. The caller fills file, line, ef, ep (and priv). */
struct spectra_line {
	const char *file;
	int line;
	int ef, ep;
	void *priv;
	double score, confidence;
	size_t rank;        /* lines one examines to reach this one, ties counted pessimistically */
	double rank_avg;    /* the same with ties averaged */
};

/* Score and sort lines (most suspicious first: score, then confidence,
 * descending; then file and line for a stable order) and set their ranks. */
void spectra_rank(struct spectra_line *lines, size_t n, enum spectra_formula f, int F, int P);
/* Sort and rank lines by the scores they have. */
void spectra_order(struct spectra_line *lines, size_t n);

#endif
