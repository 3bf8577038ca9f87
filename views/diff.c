/* The diff pane: the changes grouped by commit and file, each marked with
 * its state, with the hunk text coloured. */
#include "views/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PL(n) ((n) == 1 ? "" : "s")   /* "1 line", "2 lines" */

#define MAX_SHOWN_LINES 40
#define CONTEXT_LINES 3     /* around each hunk, as git shows them */

static enum view_color mark_color(enum change_mark m)
{
	switch (m) {
	case MARK_INDUCING:
	case MARK_INTERACTING:
		return VC_INDUCING;
	case MARK_FIX:
		return VC_FIX;
	case MARK_AUX:
		return VC_AUX;
	default:
		return VC_HEADER;
	}
}

/* " [root, causes 1 3]": where the causal tree holds change i. */
static void in_causes(const struct explain *x, size_t i, char *out, size_t size)
{
	struct buf b = BUF_INIT;
	const struct ctree *t = &x->tree;
	for (size_t r = 0; r < t->nroot; r++)
		if (t->root[r] == i)
			buf_adds(&b, "root");
	int any = 0;
	for (size_t k = 0; k < t->n; k++)
		for (size_t j = 0; j < t->nodes[k].nchanges; j++)
			if (t->nodes[k].changes[j] == i) {
				buf_addf(&b, "%s%zu", any ? " " : b.len ? ", cause " : "cause ", k + 1);
				any = 1;
			}
	snprintf(out, size, "%s%s%s", b.len ? " [" : "", b.len ? b.s : "", b.len ? "]" : "");
	buf_release(&b);
}

/* Lines of a file's text, found by number going forward (the changes of
 * a file come in order, so the walk is once over the file). */
struct lines_at {
	const char *data;
	size_t len, off;   /* off: where line `line` starts */
	int line;
};

/* Line n (1-based) of the text: its start and length, or NULL past the end. */
static const char *line_at(struct lines_at *c, int n, size_t *len)
{
	if (n < c->line) {
		c->off = 0;
		c->line = 1;
	}
	while (c->line < n && c->off < c->len) {
		const char *nl = memchr(c->data + c->off, '\n', c->len - c->off);
		c->off = nl ? (size_t)(nl - c->data) + 1 : c->len;
		c->line++;
	}
	if (n < 1 || c->line != n || c->off >= c->len)
		return NULL;
	const char *p = c->data + c->off, *nl = memchr(p, '\n', c->len - c->off);
	*len = nl ? (size_t)(nl - p) : c->len - c->off;
	return p;
}

/* Up to n old lines [from, to] as context, not those already shown. */
static void context(struct view *v, long i, struct lines_at *c, int from, int to, int *shown)
{
	if (from <= *shown)
		from = *shown + 1;
	for (int k = from; k <= to; k++) {
		size_t len;
		const char *p = line_at(c, k, &len);
		if (!p)
			break;
		view_add(v, VC_NORMAL, i, -1, "     %.*s", (int)len, p);
		*shown = k;
	}
}

/* Where change i meets other changes (interaction locations), a line under its header. */
static void interactions(struct view *v, const struct explain *x, const struct change_set *s, size_t i)
{
	if (!x->interacted || s != x->set)
		return;
	for (size_t k = 0; k < x->interact.nlocs; k++) {
		const struct ia_loc *l = &x->interact.locs[k];
		int mine = 0;
		for (size_t j = 0; j < l->nchanges; j++)
			mine |= l->changes[j] == i;
		if (!mine)
			continue;
		struct buf b = BUF_INIT;
		for (size_t j = 0; j < l->nchanges; j++)
			if (l->changes[j] != i)
				buf_addf(&b, "%s#%u", b.len ? ", " : "", s->changes[l->changes[j]].id);
		view_add(v, VC_AUX, (long)i, -1, "    interaction location %s:%d with %s: %s", l->file, l->line, b.s,
			 l->text);
		buf_release(&b);
	}
}

static void fill(struct view *v, const struct view_ctx *c)
{
	const struct explain *x = c->x;
	const struct change_set *s = x->set ? x->set : x->set_full;
	if (!s) {
		view_add(v, VC_DIM, -1, -1, "no changes yet");
		return;
	}
	const char *commit = explain_culprit_commit(x);
	if (x->set && commit && x->culprit_subject) {
		view_add(v, VC_HEADER, -1, -1, "commit %.12s %s", commit, x->culprit_subject);
		char date[32] = "";
		time_t t = (time_t)x->culprit_time;
		struct tm tm;
		if (x->culprit_time && localtime_r(&t, &tm))
			strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm);
		view_add(v, VC_DIM, -1, -1, "  %s, %s", x->culprit_author ? x->culprit_author : "?", date);
	} else if (x->set)
		view_add(v, VC_HEADER, -1, -1, "commit %.12s%s", commit ? commit : s->new_rev,
			 commit ? "" : " (the changes between the last passing and the first failing commit)");
	else
		view_add(v, VC_HEADER, -1, -1, "good..bad %.12s..%.12s (bisection narrows it first)", s->old_rev,
			 s->new_rev);
	size_t last_file = (size_t)-1;
	struct lines_at old = {0};
	int ctx_shown = 0;   /* the last old line shown in this file */
	for (size_t i = 0; i < s->nchanges; i++) {
		const struct change *ch = &s->changes[i];
		const struct change_file *f = &s->files[ch->file];
		if (ch->file != last_file) {
			last_file = ch->file;
			old = (struct lines_at){f->old_data, f->old_data ? f->old_len : 0, 0, 1};
			ctx_shown = 0;
			if (f->status == CHANGE_RENAMED)
				view_add(v, VC_HEADER, (long)i, -1, "%s -> %s", f->old_path, f->new_path);
			else
				view_add(v, VC_HEADER, (long)i, -1, "%s%s", f->new_path,
					 f->status == CHANGE_ADDED ? " (added)" : f->status == CHANGE_DELETED ? " (deleted)" : "");
		}
		enum change_mark m = x->set && x->marks ? x->marks[i] : MARK_UNTESTED;
		/* Once the answer stands, the last configuration's applied/reverted
		 * says nothing: a change outside the answer is no cause. */
		int settled = x->phase == PHASE_DONE && x->explained &&
			      (m == MARK_APPLIED || m == MARK_REVERTED || m == MARK_UNTESTED);
		char score[32] = "", why[64] = "";
		if (x->ranked && s == x->set_full)
			snprintf(score, sizeof(score), " score %.3f", rank_of_change(&x->ranking, i));
		if (x->set && x->why_state)
			in_causes(x, i, why, sizeof(why));
		view_add(v, settled ? VC_DIM : mark_color(m), (long)i, -1, "  #%u [%s]%s%s @@ -%d,%d +%d,%d @@ %s", ch->id,
			 settled ? "not a cause" : change_mark_name(m),
			 why, score, ch->old_start, ch->old_lines, ch->new_start, ch->new_lines, ch->function ? ch->function : "");
		interactions(v, x, s, i);
		struct change_lines l;
		change_lines_of(s, i, &l);
		/* Git's numbers (no context): a hunk that removes nothing comes after old_start. */
		int before = ch->old_lines ? ch->old_start - 1 : ch->old_start;
		int ctx = ch->kind == CHANGE_HUNK && f->old_data && c->context ? CONTEXT_LINES : 0;
		if (ctx)
			context(v, (long)i, &old, before - ctx + 1, before, &ctx_shown);
		size_t shown = 0;
		for (size_t k = 0; k < l.nremoved && shown < MAX_SHOWN_LINES; k++, shown++)
			view_add(v, VC_DEL, (long)i, -1, "    -%s", l.removed[k]);
		for (size_t k = 0; k < l.nadded && shown < MAX_SHOWN_LINES; k++, shown++)
			view_add(v, VC_ADD, (long)i, -1, "    +%s", l.added[k]);
		if (l.nremoved + l.nadded > shown)
			view_add(v, VC_DIM, (long)i, -1, "    ... %zu more line%s", l.nremoved + l.nadded - shown,
				 PL(l.nremoved + l.nadded - shown));
		if (ctx) {
			/* After it, up to the next change of the file (whose context goes on from there). */
			int after = before + ch->old_lines, last = after + ctx;
			if (i + 1 < s->nchanges && s->changes[i + 1].file == ch->file && s->changes[i + 1].kind == CHANGE_HUNK) {
				const struct change *nx = &s->changes[i + 1];
				int next_first = nx->old_lines ? nx->old_start : nx->old_start + 1;
				if (last >= next_first)
					last = next_first - 1;
			}
			if (ctx_shown < after)
				ctx_shown = after;
			context(v, (long)i, &old, after + 1, last, &ctx_shown);
		}
		change_lines_free(&l);
	}
}

const struct view_ops diff_view_ops = {"diff", "diff", KS_DIFF, fill};
