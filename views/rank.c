/* The suspiciousness pane: the ranked lines, or what the ranking needs. */
#include "views/view.h"
#include "core/session/report.h"

#include <stdio.h>
#include <string.h>

#include "core/spectrum/spectra.h"

static void fill(struct view *v, const struct view_ctx *c)
{
	const struct explain *x = c->x;
	if (!x->ranked) {
		if (x->opts.suite)
			view_add(v, VC_DIM, -1, -1, "the ranking comes after the changes are searched");
		else if (x->opts.semantic && c->refine_key[0])
			view_add(v, VC_DIM, -1, -1, "no test suite given: --suite FILE, or %s (refine) after the analysis "
				 "generates tests", c->refine_key);
		else
			view_add(v, VC_DIM, -1, -1, "no test suite given: --suite FILE");
		return;
	}
	const struct ranking *r = &x->ranking;
	view_add(v, VC_HEADER, -1, -1, "%s: %d failing, %d passing tests; %zu lines", spectra_formula_name(r->formula),
		 r->F, r->P, r->n);
	const struct explain_refine *rf = &x->refine;
	if (rf->nmoves)
		view_add(v, VC_DIM, -1, -1, "the last approved test moved the lines (rank before->after); * in a cause's core");
	view_add(v, VC_DIM, -1, -1, "%5s %7s %5s  %-22s %3s %3s %-6s%s", "rank", "score", "conf", "line", "ef", "ep", "change",
		 rf->nmoves ? " moved   " : "");
	for (size_t i = 0; i < r->n; i++) {
		const struct rank_entry *e = &r->v[i];
		char moved[32] = "";
		for (size_t k = 0; k < rf->nmoves; k++)
			if (rf->moves[k].line == e->s.line && !strcmp(rf->moves[k].file, e->s.file)) {
				if (rf->moves[k].before == rf->moves[k].after)
					snprintf(moved, sizeof(moved), " %-8s", "=");
				else if (rf->moves[k].before)
					snprintf(moved, sizeof(moved), " %zu->%-5zu", rf->moves[k].before, rf->moves[k].after);
				else
					snprintf(moved, sizeof(moved), " %-8s", "new");
				break;
			}
		char change[24] = "-";
		if (e->change >= 0 && x->set_full)
			report_full_change_id(x, (size_t)e->change, change, sizeof(change));
		char where[64];
		snprintf(where, sizeof(where), "%s:%d", e->s.file, e->s.line);
		view_add(v, e->change >= 0 ? VC_FIX : VC_NORMAL, e->change, -1, "%5zu %6.3f%c %5.2f  %-22s %3d %3d %-6s%s %.*s",
			 e->s.rank, e->s.score, e->boosted ? '*' : ' ', e->s.confidence, where, e->s.ef, e->s.ep, change, moved,
			 (int)(e->text_len > 60 ? 60 : e->text_len), e->text ? e->text : "");
	}
}

const struct view_ops rank_view_ops = {"rank", "suspiciousness", KS_RANK, fill};
