/* The causal-tree pane: the culprit commit, then the failure-inducing
 * changes, the fix and the auxiliary changes, each a node that opens. */
#include <stdio.h>

#include "views/view.h"

static void items(struct view *v, const struct view_ctx *c, const struct explain_list *l, int node,
		  const char *title, enum view_color color)
{
	const struct explain *x = c->x;
	view_add(v, color, -1, node, "%s %s (%zu)", c->collapsed[node] ? "+" : "-", title, l->n);
	if (c->collapsed[node])
		return;
	for (size_t i = 0; i < l->n; i++) {
		const struct explain_item *it = &l->v[i];
		const struct change *ch = &x->set->changes[it->change];
		const struct change_file *f = &x->set->files[ch->file];
		struct change_lines cl;
		if (it->atom >= 0)
			change_lines_of_atom(x->set, (size_t)it->atom, &cl);
		else
			change_lines_of(x->set, it->change, &cl);
		char score[32] = "";
		if (x->ranked && x->set == x->set_full)
			snprintf(score, sizeof(score), " (score %.3f)", rank_of_change(&x->ranking, it->change));
		if (it->atom >= 0 && x->set->atoms[it->atom].sub)
			view_add(v, color, (long)it->change, -1, "    #%u.%u %s:%d%s", ch->id, x->set->atoms[it->atom].sub,
				 f->new_path, cl.new_start, score);
		else
			view_add(v, color, (long)it->change, -1, "    #%u %s:%d %s%s", ch->id, f->new_path,
				 cl.new_lines ? cl.new_start : cl.old_start, ch->function ? ch->function : "", score);
		for (size_t k = 0; k < cl.nadded && k < 3; k++)
			view_add(v, VC_ADD, (long)it->change, -1, "        +%s", cl.added[k]);
		change_lines_free(&cl);
	}
}

static void fill(struct view *v, const struct view_ctx *c)
{
	const struct explain *x = c->x;
	const char *commit = explain_culprit_commit(x);
	view_add(v, VC_HEADER, -1, -1, "failure: %s", x->signature ? x->signature : "(not checked yet)");
	if (commit)
		view_add(v, VC_HEADER, -1, -1, "culprit commit %.12s", commit);
	else if (x->commits && x->hi > x->lo + 1)
		view_add(v, VC_HEADER, -1, -1, "culprit range %.12s..%.12s", x->commits[x->lo], x->commits[x->hi]);
	else if (x->commits && x->phase > PHASE_BISECT)
		view_add(v, VC_HEADER, -1, -1, "the changes between good and bad");
	if (!x->set || x->phase < PHASE_DONE) {
		view_add(v, VC_DIM, -1, -1, "  %s...", explain_phase_name(x->phase));
		if (!x->set)
			return;
	}
	items(v, c, &x->inducing, TREE_INDUCING, "failure-inducing", VC_INDUCING);
	items(v, c, &x->fix, TREE_FIX, "fix (reverting these passes)", VC_FIX);
	items(v, c, &x->aux, TREE_AUX, "auxiliary (the build needs them, not causes)", VC_AUX);
	if (x->note)
		view_add(v, VC_DIM, -1, -1, "%s", x->note);
	view_add(v, VC_DIM, -1, -1, "(semantic causes are not in this version)");
}

const struct view_ops tree_view_ops = {"tree", "causal tree", KS_TREE, fill};
