/* The causal-tree pane: the culprit commit, then the failure-inducing
 * changes, the fix and the auxiliary changes, each a node that opens; then
 * the semantic explainer's causal tree as it grows: the failure, the causes
 * linked by their critical predicates, the changes in them, the root cause. */
#include <langinfo.h>
#include <stdio.h>
#include <string.h>

#include "core/session/report.h"
#include "views/view.h"

#define PL(n) ((n) == 1 ? "" : "s")   /* "1 line", "2 lines" */

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
		/* A changed line reads as its old and its new text. */
		for (size_t k = 0; k < cl.nremoved && k < 3; k++)
			view_add(v, VC_DEL, (long)it->change, -1, "        -%s", cl.removed[k]);
		for (size_t k = 0; k < cl.nadded && k < 3; k++)
			view_add(v, VC_ADD, (long)it->change, -1, "        +%s", cl.added[k]);
		if (cl.nremoved > 3 || cl.nadded > 3)
			view_add(v, VC_DIM, (long)it->change, -1, "        ...");
		change_lines_free(&cl);
	}
}

static int utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && !strcmp(cs, "UTF-8");
}

static void ids(const struct explain *x, const size_t *v, size_t n, struct buf *b)
{
	for (size_t i = 0; i < n; i++)
		buf_addf(b, "%s#%u", i ? " " : "", x->set->changes[v[i]].id);
}

/* A set's build needs that are the other set's causes, as the report names them. */
static void needs(struct view *v, const struct explain *x, const struct explain_list *l, const char *how,
		  const char *where)
{
	if (!l->n)
		return;
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < l->n; i++) {
		buf_adds(&b, i ? " #" : "#");
		report_item_id(x, &l->v[i], &b);
	}
	view_add(v, VC_DIM, -1, -1, "  %s with them, as their build needs (%s): %s", how, where, b.s);
	buf_release(&b);
}

static void why_node(struct view *v, const struct explain *x, size_t k, const char *prefix, int last, int u)
{
	const struct ctree *t = &x->tree;
	const struct ct_node *n = &t->nodes[k];
	struct buf head = BUF_INIT, sub = BUF_INIT;
	buf_addf(&head, "%s%scause %zu", prefix, u ? (last ? "└─ " : "├─ ") : (last ? "`- " : "|- "), k + 1);
	if (n->edge)
		buf_addf(&head, " %s %s", u ? "←" : "<-", n->edge);
	if (n->nchanges) {
		buf_adds(&head, " [");
		ids(x, n->changes, n->nchanges, &head);
		buf_addc(&head, ']');
	}
	view_add(v, n->nchanges ? VC_INDUCING : VC_NORMAL, n->nchanges ? (long)n->changes[0] : -1, -1, "%s", head.s);
	view_set_ev(v, n->edge ? (long)n->edge_ev : n->nstmts ? (long)n->stmts[0].ev : -1);
	buf_addf(&sub, "%s%s", prefix, u ? (last ? "   " : "│  ") : (last ? "   " : "|  "));
	for (size_t i = n->nstmts; i-- > 0;) {
		const struct ct_stmt *s = &n->stmts[i];
		if (n->edge && s->ev == n->edge_ev)
			continue;
		char id[24] = "";
		if (s->change >= 0)
			snprintf(id, sizeof(id), "  #%u", x->set->changes[s->change].id);
		view_add(v, s->change >= 0 ? VC_INDUCING : VC_NORMAL, s->change, -1, "%s  %s:%d  %s  (%s)%s%s", sub.s,
			 s->file, s->line, s->text, s->values, id, s->opaque ? " [opaque]" : "");
		view_set_ev(v, (long)s->ev);
	}
	if (n->note)
		view_add(v, VC_DIM, -1, -1, "%s  (%s)", sub.s, n->note);
	size_t nk = 0, seen = 0;
	for (size_t i = 0; i < t->n; i++)
		nk += t->nodes[i].parent == (int)k;
	for (size_t i = 0; i < t->n; i++)
		if (t->nodes[i].parent == (int)k)
			why_node(v, x, i, sub.s, ++seen == nk, u);
	buf_release(&head);
	buf_release(&sub);
}

/* The semantic explainer's tree. */
static void why(struct view *v, const struct view_ctx *c)
{
	const struct explain *x = c->x;
	if (!x->opts.semantic || !x->set)
		return;
	const struct ctree *t = &x->tree;
	if (x->why_state == 0) {
		if (x->phase < PHASE_WHY)
			view_add(v, VC_DIM, -1, TREE_WHY, "+ why it fails: after the changes are found");
		return;
	}
	int open = !c->collapsed[TREE_WHY];
	view_add(v, VC_HEADER, -1, TREE_WHY, "%s why it fails%s", open ? "-" : "+",
		 x->why_state == 1 ? " (explaining...)" : "");
	if (!open)
		return;
	if (!t->failure) {
		view_add(v, VC_DIM, -1, -1, "  %s", t->note ? t->note : "tracing the failing run...");
		return;
	}
	view_add(v, VC_DEL, -1, -1, "  failure: %s", t->failure);
	view_set_ev(v, (long)t->failure_ev);
	int u = utf8();
	size_t nk = 0, seen = 0;
	for (size_t i = 0; i < t->n; i++)
		nk += t->nodes[i].parent < 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->nodes[i].parent < 0)
			why_node(v, x, i, "  ", ++seen == nk, u);
	if (t->root_found) {
		struct buf b = BUF_INIT;
		ids(x, t->root, t->nroot, &b);
		buf_adds(&b, t->nroot > 1 ? " (reverting them passes); auxiliary: " : " (reverting it passes); auxiliary: ");
		if (t->naux)
			ids(x, t->aux, t->naux, &b);
		else
			buf_adds(&b, "none");
		view_add(v, VC_FIX, (long)t->root[0], -1, "  root cause: %s", b.s);
		buf_release(&b);
	} else if (t->note && x->why_state == 2) {
		view_add(v, VC_DIM, -1, -1, "  %s", t->note);
	}
	if (t->no_explanation && x->why_state == 2 && (!t->note || strncmp(t->note, "no semantic explanation", 23)))
		view_add(v, VC_DIM, -1, -1, "  no semantic explanation: %s", t->no_explanation);
	if (t->stale)
		view_add(v, VC_DEL, -1, -1, "  stale field: %s", t->stale);
	if (t->stale_fix)
		view_add(v, VC_FIX, -1, -1, "  stale field's fix: %s", t->stale_fix);
	if (x->why_state == 2)
		view_add(v, VC_DIM, -1, -1, "  %d semantic, %d dynamic round%s; %zu event%s traced, %zu clause%s",
			 t->semantic_rounds, t->dynamic_rounds, PL(t->dynamic_rounds), t->events, PL(t->events), t->clauses,
			 PL(t->clauses));
}

/* The MaxSAT fault sets: each a node line, its clauses below. */
static void faults(struct view *v, const struct view_ctx *c)
{
	const struct explain *x = c->x;
	if (!x->faulted) {
		if (x->faults_note)
			view_add(v, VC_DIM, -1, -1, "%s", x->faults_note);
		return;
	}
	const struct comss_result *r = &x->faults;
	int open = !c->collapsed[TREE_FAULTS];
	view_add(v, VC_HEADER, -1, TREE_FAULTS, "%s fault sets (%zu; MaxSAT%s, %d run%s, %zu clause%s)", open ? "-" : "+",
		 r->n, r->weighted ? " weighted by suspiciousness" : "", r->paths, r->paths == 1 ? "" : "s", r->clauses,
		 PL(r->clauses));
	if (!open)
		return;
	for (size_t i = 0; i < r->n; i++) {
		struct buf b = BUF_INIT;
		for (size_t k = 0; k < r->sets[i].n; k++)
			buf_addf(&b, "%s%s:%d", k ? ", " : "", r->sets[i].v[k].file, r->sets[i].v[k].line);
		view_add(v, i == 0 ? VC_FIX : VC_NORMAL, -1, -1, "  %zu. {%s}  cost %.3g", i + 1, b.s, r->sets[i].cost);
		buf_release(&b);
		for (size_t k = 0; k < r->sets[i].n; k++)
			view_add(v, VC_DIM, -1, -1, "       %s:%d  %s", r->sets[i].v[k].file, r->sets[i].v[k].line,
				 r->sets[i].v[k].clause ? r->sets[i].v[k].clause : "");
	}
	if (r->note)
		view_add(v, VC_DIM, -1, -1, "  %s", r->note);
}

/* The change sequence graph as a tree: change, interaction location, output. */
static void sequences(struct view *v, const struct view_ctx *c)
{
	const struct explain *x = c->x;
	if (!x->interacted || !x->set)
		return;
	const struct interact *ia = &x->interact;
	int open = !c->collapsed[TREE_SEQS];
	view_add(v, VC_HEADER, -1, TREE_SEQS, "%s change sequences (%zu; %zu interaction location%s)", open ? "-" : "+",
		 ia->nseqs, ia->nlocs, PL(ia->nlocs));
	if (!open)
		return;
	long last_change = -1, last_loc = -2;
	for (size_t i = 0; i < ia->nseqs; i++) {
		const struct ia_seq *q = &ia->seqs[i];
		const struct change *ch = &x->set->changes[q->change];
		if ((long)q->change != last_change) {
			view_add(v, VC_NORMAL, (long)q->change, -1, "  #%u %s:%d", ch->id, x->set->files[ch->file].new_path,
				 ch->new_start);
			last_change = (long)q->change;
			last_loc = -2;
		}
		if (q->loc >= 0 && q->loc != last_loc) {
			const struct ia_loc *l = &ia->locs[q->loc];
			struct buf b = BUF_INIT;
			for (size_t k = 0; k < l->nchanges; k++)
				if (l->changes[k] != q->change)
					buf_addf(&b, "%s#%u", b.len ? ", " : "", x->set->changes[l->changes[k]].id);
			view_add(v, VC_AUX, (long)q->change, -1, "    -> %s:%d %s  (meets %s)", l->file, l->line, l->text, b.s);
			buf_release(&b);
			last_loc = q->loc;
		}
		view_add(v, VC_DIM, (long)q->change, -1, "%s-> %s:%d %s", q->loc >= 0 ? "       " : "    ", q->out_file,
			 q->out_line, q->out_text);
	}
}

static void fill(struct view *v, const struct view_ctx *c)
{
	const struct explain *x = c->x;
	const char *commit = explain_culprit_commit(x);
	view_add(v, VC_HEADER, -1, -1, "failure: %s", x->signature ? x->signature : "(not checked yet)");
	if (commit)
		view_add(v, VC_HEADER, -1, -1, "culprit commit %.12s%s%s", commit, x->culprit_subject ? " " : "",
			 x->culprit_subject ? x->culprit_subject : "");
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
	needs(v, x, &x->ind_needs, "applied", "in the fix");
	items(v, c, &x->fix, TREE_FIX, "fix (reverting these passes)", VC_FIX);
	needs(v, x, &x->fix_needs, "reverted", "failure-inducing");
	for (size_t i = 0; i < x->nfix_other; i++) {
		struct buf b = BUF_INIT;
		for (size_t k = 0; k < x->fix_other[i].n; k++) {
			buf_adds(&b, k ? " #" : "#");
			report_item_id(x, &x->fix_other[i].v[k], &b);
		}
		view_add(v, VC_FIX, -1, -1, "  another fix: reverting %s alone passes too", b.s);
		buf_release(&b);
	}
	items(v, c, &x->aux, TREE_AUX, "auxiliary (taken along to build; not tested as causes)", VC_AUX);
	if (x->note)
		view_add(v, VC_DIM, -1, -1, "%s", x->note);
	why(v, c);
	faults(v, c);
	sequences(v, c);
}

const struct view_ops tree_view_ops = {"tree", "causal tree", KS_TREE, fill};
