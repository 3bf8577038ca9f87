#include "core/spectrum/spectra.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[SPECTRA_NFORMULAS] = {"tarantula", "ochiai", "dstar", "op2", "jaccard"};

const char *spectra_formula_name(enum spectra_formula f)
{
	return (unsigned)f < SPECTRA_NFORMULAS ? names[f] : "?";
}

int spectra_formula_parse(const char *name, enum spectra_formula *f)
{
	for (int i = 0; i < SPECTRA_NFORMULAS; i++)
		if (!strcmp(name, names[i])) {
			*f = (enum spectra_formula)i;
			return 0;
		}
	return -1;
}

static double ratio(double a, double b)
{
	return b == 0 ? 0 : a / b;
}

double spectra_score(enum spectra_formula f, int ef, int ep, int F, int P, double *confidence)
{
	double fr = ratio(ef, F), pr = ratio(ep, P);
	if (confidence)
		*confidence = fr > pr ? fr : pr;
	switch (f) {
	case SPECTRA_TARANTULA:
		return ratio(fr, fr + pr);
	case SPECTRA_OCHIAI:
		return ratio(ef, sqrt((double)F * (ef + ep)));
	case SPECTRA_DSTAR:
		return ratio((double)ef * ef, (double)ep + (F - ef));
	case SPECTRA_OP2:
		return ef - ratio(ep, P + 1.0);
	case SPECTRA_JACCARD:
		return ratio(ef, (double)F + ep);
	case SPECTRA_NFORMULAS:
		break;
	}
	return 0;
}

static int by_suspicion(const void *pa, const void *pb)
{
	const struct spectra_line *a = pa, *b = pb;
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	if (a->confidence != b->confidence)
		return a->confidence > b->confidence ? -1 : 1;
	int c = strcmp(a->file ? a->file : "", b->file ? b->file : "");
	if (c)
		return c;
	return (a->line > b->line) - (a->line < b->line);
}

void spectra_rank(struct spectra_line *v, size_t n, enum spectra_formula f, int F, int P)
{
	for (size_t i = 0; i < n; i++)
		v[i].score = spectra_score(f, v[i].ef, v[i].ep, F, P, &v[i].confidence);
	spectra_order(v, n);
}

void spectra_order(struct spectra_line *v, size_t n)
{
	qsort(v, n, sizeof(*v), by_suspicion);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && v[j + 1].score == v[i].score && v[j + 1].confidence == v[i].confidence)
			j++;
		for (size_t k = i; k <= j; k++) {
			v[k].rank = j + 1;
			v[k].rank_avg = (double)(i + 1 + j + 1) / 2;
		}
		i = j + 1;
	}
}
