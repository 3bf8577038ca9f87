/* core/spectrum/ owns suspiciousness: the suite, per-test coverage, the
 * formulas and the ranking; it uses isolate's changes and run, nothing else.
 *
 * rank — the suspiciousness ranking of a session: spectra over the coverage
 * of the suite's tests, each line tied to the change (of good..bad) that
 * added or modified it, a change's score being the highest of its lines. */
#ifndef CULPRIT_RANK_H
#define CULPRIT_RANK_H

#include "core/isolate/change.h"
#include "core/spectrum/coverage.h"
#include "core/spectrum/spectra.h"

struct rank_entry {
	struct spectra_line s;  /* file, line, ef, ep, score, confidence, rank, rank_avg */
	long change;            /* index into the change set, or -1: not changed by good..bad */
	const char *text;       /* the source line (not NUL-terminated; may be NULL) */
	double raw;             /* the formula's score (score is raw + 1 when boosted) */
	int boosted;            /* in a cause's unsat core (SAT-TAR) */
	int preferred;          /* --changed: its change is failure-inducing (ranked before the others) */
	int spectrum_of;        /* 0; or, for a changed line without code of its own, the line whose spectrum it takes */
	size_t text_len;
};

struct ranking {
	enum spectra_formula formula;
	int F, P;               /* failing and passing tests counted */
	struct rank_entry *v;   /* most suspicious first */
	size_t n;
};

/* Rank every line executed by at least one counted test of c (runs whose
 * counted[i] is 0 are left out: unresolved, or failing at the good revision
 * too). changes (may be NULL) maps lines of its new side to changes; a
 * line whose change touched only its comments or spacing is not changed.
 * changed_only keeps only lines the changes added or modified. A changed
 * line with code but no coverage record (folded by the compiler, a
 * declaration) is ranked with the spectrum of the next recorded line of its
 * file (spectrum_of). */
void rank_compute(struct ranking *r, const struct coverage *c, const int *counted, const struct change_set *changes,
		  enum spectra_formula f, int changed_only);
void rank_release(struct ranking *r);
/* SAT-TAR: the lines (file, line) of the causes' unsat cores get +1; the
 * ranking is sorted and ranked again. */
void rank_boost(struct ranking *r, char *const *files, const int *lines, size_t n);
/* The change-aware order (--changed): lines whose change is marked in
 * preferred (indexed by change) come first, each group in its order; ranks
 * are numbered again. */
void rank_prefer(struct ranking *r, const unsigned char *preferred, size_t nchanges);
/* The entry of (file, line), or NULL. */
const struct rank_entry *rank_find(const struct ranking *r, const char *file, int line);

/* The highest score among a change's lines (0 when none ranked). */
double rank_of_change(const struct ranking *r, size_t change);

#endif
