/* The trace pane: once the semantic explainer has traced the failing run,
 * its executed statements with the values they wrote, around the failure or
 * the event a tree node points to (:func NAME shows one function's only);
 * for a configuration picked in the other panes, or before the run is
 * traced, the build's error excerpt or the test's output; while a build or
 * test runs, its live output. */
#include "views/view.h"

#include <stdlib.h>
#include <string.h>

#define PL(n) ((n) == 1 ? "" : "s")   /* "1 line", "2 lines" */

#define WINDOW 300   /* statements shown before and after the focus */

static void config_output(struct view *v, const struct view_ctx *c)
{
	const struct explain *x = c->x;
	if (x->nconfigs == 0) {
		if (!x->activity)
			view_add(v, VC_DIM, -1, -1, "no configuration tested yet: press s to step, r to run");
		return;
	}
	long i = c->trace_config >= 0 && (size_t)c->trace_config < x->nconfigs ? c->trace_config : (long)x->nconfigs - 1;
	const struct explain_config *cf = &x->configs[i];
	view_add(v, VC_HEADER, i, -1, "configuration %ld of %zu: %s", i + 1, x->nconfigs, cf->label);
	enum view_color col = cf->verdict == VERDICT_FAIL ? VC_DEL : cf->verdict == VERDICT_PASS ? VC_ADD : VC_FIX;
	view_add(v, col, i, -1, "%s%s%s%s%s (build %.1fs, test %.1fs)%s", verdict_name(cf->verdict), cf->why ? ", " : "",
		 why_name(cf->why), cf->signature ? ": " : "", cf->signature ? cf->signature : "", cf->build_seconds,
		 cf->test_seconds, cf->stored ? " [stored]" : "");
	if (cf->excerpt && cf->excerpt[0]) {
		view_add(v, VC_DIM, i, -1, "%s", cf->why == WHY_BUILD ? "first compiler error:" : "output:");
		view_add_text(v, VC_NORMAL, i, "  ", cf->excerpt, strlen(cf->excerpt));
	}
}

static const char *func_of(const struct trace *t, const struct msite *st)
{
	const struct msite *f = st ? tmeta_site(t->m, st->fid) : NULL;
	return f && f->kind == 'N' ? f->name : "?";
}

/* What statement sid did from event i on: the values it wrote, in its own
 * frame (calls it makes are skipped), up to its function's next statement;
 * each says what it is (v = 20, branch false, returned T_NUM), chars and
 * enums as C spells them. A value of another statement before that (a for
 * loop's increment and condition, after its body), or of its own after its
 * branch (a loop going round), ends the row: its event is returned (0: none). */
static size_t values(const struct trace *t, size_t i, unsigned sid, struct buf *b)
{
	int shown = 0, depth = 0, branched = 0;
	for (size_t k = i + 1; k < t->n && k < i + 4096 && shown < 4; k++) {
		const struct tev *e = &t->ev[k];
		if (e->kind == TE_ENTER) {
			depth++;
			continue;
		}
		if ((e->kind == TE_RET || e->kind == TE_RET0) && depth > 0) {
			depth--;
			continue;
		}
		if (depth > 0)
			continue;
		if (e->kind == TE_STMT)
			break;
		const struct msite *s = tmeta_site(t->m, e->id);
		if (!s)
			continue;
		int mine = (e->kind == TE_WRITE && s->kind == 'W') || (e->kind == TE_RET && s->kind == 'T') ||
			   (e->kind == TE_BRANCH && s->kind == 'B' && strcmp(s->kindname, "switch"));
		if (mine && (s->sid != sid || branched))
			return k;   /* another statement's, or its own loop going round */
		if (e->kind == TE_WRITE && s->kind == 'W') {
			buf_addf(b, "%s%s = ", shown++ ? ", " : "", s->text && s->text[0] ? s->text : s->name);
			trace_show_value(t, e, b);
		} else if (e->kind == TE_RET && s->kind == 'T') {
			buf_addf(b, "%sreturned ", shown++ ? ", " : "");
			trace_show_value(t, e, b);
			break;
		} else if (mine) {
			const char *what = !strcmp(s->kindname, "assert") ? "assertion" : "branch";
			buf_addf(b, "%s%s %s", shown++ ? ", " : "", what, e->val ? "true" : "false");
			branched = 1;
		}
	}
	return 0;
}

/* A statement's row: its call depth as indentation, then function,
 * place, text and what it did from event i on. Returns where another
 * statement's values begin (0: none). */
static size_t row_text(const struct trace *t, const struct msite *st, size_t i, int depth, struct buf *b)
{
	struct buf vals = BUF_INIT;
	size_t next = values(t, i, st ? st->sid : 0, &vals);
	const char *file = st && (size_t)st->file < t->m->nfiles ? t->m->files[st->file] : "?";
	buf_addf(b, "%*s%-12s %s:%d  %s%s%s", 2 * (depth < 16 ? depth : 16), "", func_of(t, st), file, st ? st->line : 0,
		 st ? st->text : "", vals.len ? "    " : "", vals.len ? vals.s : "");
	buf_release(&vals);
	return next;
}

static void failing_run(struct view *v, const struct view_ctx *c)
{
	const struct explain *x = c->x;
	const struct trace *t = x->trace;
	long focus = c->trace_ev >= 0 ? c->trace_ev : (long)x->tree.failure_ev;
	/* Lines above (what runs now) came or went: the cursor stays on its line. */
	if (v->n != v->head) {
		size_t was = v->head;
		v->head = v->n;
		if (v->n > was) {
			v->cur += v->n - was;
			v->top += v->n - was;
		} else {
			v->cur = v->cur > was - v->n ? v->cur - (was - v->n) : 0;
			v->top = v->top > was - v->n ? v->top - (was - v->n) : 0;
		}
	}
	/* The last statement at or before the focus. */
	size_t lo = 0, hi = c->nstmts;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if ((long)c->stmts[mid] <= focus)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t at = lo ? lo - 1 : 0;
	size_t first = at, shown_before = 0, scanned = 0;
	while (first > 0 && shown_before < WINDOW && scanned++ < 200000) {
		first--;
		const struct msite *st = trace_stmt_of(t, c->stmts[first]);
		if (!c->trace_func[0] || !strcmp(func_of(t, st), c->trace_func))
			shown_before++;
	}
	view_add(v, VC_HEADER, -1, -1, "failing run: %zu event%s, %zu statement%s executed%s%s%s", t->n, PL(t->n),
		 c->nstmts, PL(c->nstmts),
		 c->trace_func[0] ? "; function " : "", c->trace_func, c->trace_func[0] ? " (:func clears)" : "");
	size_t shown_after = 0, near = v->n;
	/* A row like the one before it (a loop going round without writing
	 * anything new) is merged into it: "(3 times)". */
	struct buf prev = BUF_INIT;
	size_t reps = 0;
	for (size_t k = first; k < c->nstmts && shown_after <= WINDOW && scanned++ < 400000; k++) {
		uint32_t e = c->stmts[k];
		const struct msite *st = trace_stmt_of(t, e);
		if (c->trace_func[0] && strcmp(func_of(t, st), c->trace_func))
			continue;
		size_t from = e, its = v->n;
		for (int part = 0; part < 1000 && st; part++) {
			struct buf row = BUF_INIT;
			size_t next = row_text(t, st, from, c->depth ? c->depth[k] : 0, &row);
			if (reps && prev.len == row.len && !memcmp(prev.s, row.s, row.len)) {
				struct vline l = v->lines[--v->n];
				free(l.text);
				view_add(v, k == at ? VC_DEL : l.color, -1, -1, "%s  (%zu times)", prev.s, ++reps);
				view_set_ev(v, l.ev);
				buf_release(&row);
			} else {
				view_add(v, k == at && part == 0 ? VC_DEL : VC_NORMAL, -1, -1, "%s", row.s);
				view_set_ev(v, (long)(part ? from + 1 : e));
				buf_release(&prev);
				prev = row;
				reps = 1;
			}
			if (!next)
				break;
			st = tmeta_stmt(t->m, t->ev[next].id);
			from = next - 1;
		}
		if (k <= at)
			near = its < v->n ? its : v->n - 1;   /* the focus, or the closest shown before it */
		if (k >= at)
			shown_after++;
	}
	buf_release(&prev);
	if (x->tree.failure && (focus == (long)x->tree.failure_ev || c->trace_ev < 0))
		view_add(v, VC_DEL, -1, -1, "failure: %s", x->tree.failure);
	if (c->trace_jump) {
		v->cur = near < v->n ? near : 0;
		v->top = v->cur > 5 ? v->cur - 5 : 0;
	}
}

static void fill(struct view *v, const struct view_ctx *c)
{
	const struct explain *x = c->x;
	if (x->activity) {
		view_add(v, VC_HEADER, -1, -1, "running: %s", x->activity);
		if (c->live)
			view_add_text(v, VC_NORMAL, -1, "  ", c->live, strlen(c->live));
		view_add(v, VC_DIM, -1, -1, "%s", "");
	}
	if (x->trace && c->stmt_of == x->trace && c->trace_config < 0 && c->nstmts)
		failing_run(v, c);
	else
		config_output(v, c);
}

const struct view_ops trace_view_ops = {"trace", "trace", KS_TRACE, fill};
