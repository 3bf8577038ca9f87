#include "core/session/report.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/json.h"
#include <stdlib.h>
#include "core/spectrum/spectra.h"

#define PL(n) ((n) == 1 ? "" : "s")   /* "1 line", "2 lines" */

int report_format_parse(const char *name, enum report_format *f)
{
	if (!strcmp(name, "text"))
		*f = REPORT_TEXT;
	else if (!strcmp(name, "markdown") || !strcmp(name, "md"))
		*f = REPORT_MARKDOWN;
	else if (!strcmp(name, "json"))
		*f = REPORT_JSON;
	else
		return -1;
	return 0;
}

void report_item_id(const struct explain *x, const struct explain_item *it, struct buf *out)
{
	const struct change *c = &x->set->changes[it->change];
	if (it->atom >= 0 && x->set->atoms[it->atom].sub)
		buf_addf(out, "%u.%u", c->id, x->set->atoms[it->atom].sub);
	else
		buf_addf(out, "%u", c->id);
}

/* Two changes at the same place: same file, kind and added text (or, when
 * later commits touched the lines again, the same number of new lines). */
static int same_text(const struct change_set *a, size_t i, const struct change_set *b, size_t j)
{
	struct change_lines la, lb;
	change_lines_of(a, i, &la);
	change_lines_of(b, j, &lb);
	int same = la.nadded == lb.nadded && la.nremoved == lb.nremoved;
	for (size_t k = 0; same && k < la.nadded; k++)
		same = !strcmp(la.added[k], lb.added[k]);
	change_lines_free(&la);
	change_lines_free(&lb);
	return same;
}

long report_set_change(const struct explain *x, size_t full)
{
	const struct change_set *f = x->set_full, *s = x->set;
	if (!f || full >= f->nchanges)
		return -1;
	if (!s || s == f)
		return (long)full;
	const struct change *c = &f->changes[full];
	const char *path = f->files[c->file].new_path;
	long near = -1;
	for (size_t i = 0; i < s->nchanges; i++) {
		const struct change *d = &s->changes[i];
		if (strcmp(s->files[d->file].new_path, path) || d->kind != c->kind)
			continue;
		if (same_text(f, full, s, i))
			return (long)i;
		if (near < 0 && d->new_lines == c->new_lines)
			near = (long)i;
	}
	return near;
}

int report_full_change_id(const struct explain *x, size_t full, char *out, size_t size)
{
	long i = report_set_change(x, full);
	const struct change_set *s = x->set ? x->set : x->set_full;
	if (i < 0 || !s) {
		snprintf(out, size, "-");
		return 0;
	}
	snprintf(out, size, "#%u", s->changes[i].id);
	return 1;
}

static void item_lines(const struct explain *x, const struct explain_item *it, struct change_lines *l)
{
	if (it->atom >= 0)
		change_lines_of_atom(x->set, (size_t)it->atom, l);
	else
		change_lines_of(x->set, it->change, l);
}

static const char *item_kind(const struct explain *x, const struct explain_item *it)
{
	static const char *kinds[] = {"hunk", "file added", "file deleted", "file renamed",
				      "mode changed", "binary file changed"};
	if (it->atom >= 0 && x->set->atoms[it->atom].sub)
		return "token";
	return kinds[x->set->changes[it->change].kind];
}

/* "src/parse.c:41 (parse_expr)" or "old.c -> new.c". */
static void item_where(const struct explain *x, const struct explain_item *it, struct buf *b)
{
	const struct change *c = &x->set->changes[it->change];
	const struct change_file *f = &x->set->files[c->file];
	struct change_lines l;

	switch (c->kind) {
	case CHANGE_FILE_RENAME:
		buf_addf(b, "%s -> %s", f->old_path, f->new_path);
		return;
	case CHANGE_FILE_MODE:
		buf_addf(b, "%s (mode %o -> %o)", f->new_path, f->old_mode, f->new_mode);
		return;
	case CHANGE_FILE_ADD:
	case CHANGE_FILE_DELETE:
	case CHANGE_FILE_BINARY:
		buf_adds(b, f->new_path);
		return;
	case CHANGE_HUNK:
		break;
	}
	item_lines(x, it, &l);
	buf_addf(b, "%s:%d", f->new_path, l.new_lines ? l.new_start : l.old_start);
	change_lines_free(&l);
	if (c->function && c->function[0])
		buf_addf(b, " (%s)", c->function);
}

/* A set's build needs that are the other set's causes: "applied with them,
 * as their build needs (in the fix, below): #4 #5". */
static void needs_line(const struct explain *x, const struct explain_list *l, const char *how, const char *where,
		       int md, struct buf *b)
{
	if (!l->n)
		return;
	buf_addf(b, "%s%s with them, as their build needs (%s):", md ? "\n" : "  ", how, where);
	for (size_t i = 0; i < l->n; i++) {
		buf_adds(b, " #");
		report_item_id(x, &l->v[i], b);
	}
	buf_addc(b, '\n');
}

static void text_items(const struct explain *x, const struct explain_list *l, int md, struct buf *b)
{
	if (l->n == 0) {
		buf_adds(b, md ? "none\n\n" : "    none\n");
		return;
	}
	/* The tested configuration that proves the set. */
	if (l->proof_key[0])
		buf_addf(b, md ? "Proved by configuration `%.12s`: %s: %s\n\n" : "  proved by configuration %.12s: %s: %s\n",
			 l->proof_key, l->proof_label ? l->proof_label : "", verdict_name(l->proof_verdict));
	for (size_t i = 0; i < l->n; i++) {
		const struct explain_item *it = &l->v[i];
		struct change_lines cl;
		if (md)
			buf_adds(b, "- **#");
		else
			buf_adds(b, "  #");
		report_item_id(x, it, b);
		buf_adds(b, md ? "** " : "  ");
		item_where(x, it, b);
		buf_addf(b, " [%s]", item_kind(x, it));
		if (!explain_culprit_commit(x) && explain_change_commit(x, it->change))
			buf_addf(b, " from commit %.12s", explain_change_commit(x, it->change));
		buf_addc(b, '\n');
		item_lines(x, it, &cl);
		if (cl.nremoved + cl.nadded > 0) {
			buf_adds(b, md ? "\n  ```diff\n" : "");
			/* A piece: the real lines of good and bad, the piece marked. */
			char **rm = cl.removed_marked ? cl.removed_marked : cl.removed;
			char **ad = cl.added_marked ? cl.added_marked : cl.added;
			for (size_t k = 0; k < cl.nremoved; k++)
				buf_addf(b, "%s-%s\n", md ? "  " : "      ", rm[k]);
			for (size_t k = 0; k < cl.nadded; k++)
				buf_addf(b, "%s+%s\n", md ? "  " : "      ", ad[k]);
			buf_adds(b, md ? "  ```\n" : "");
		}
		change_lines_free(&cl);
	}
	buf_adds(b, md ? "\n" : "");
}

static size_t configs_built(const struct explain *x)
{
	size_t n = 0;
	for (size_t i = 0; i < x->nconfigs; i++)
		n += (size_t)!x->configs[i].stored;
	return n;
}

static size_t configs_unbuilt(const struct explain *x)
{
	size_t n = 0;
	for (size_t i = 0; i < x->nconfigs; i++)
		n += (size_t)(x->configs[i].why == WHY_BUILD || x->configs[i].why == WHY_BUILD_TIMEOUT);
	return n;
}

static size_t configs_different(const struct explain *x)
{
	size_t n = 0;
	for (size_t i = 0; i < x->nconfigs; i++)
		n += (size_t)(x->configs[i].why == WHY_DIFFERENT);
	return n;
}

static size_t configs_unresolved(const struct explain *x)
{
	size_t n = 0;
	for (size_t i = 0; i < x->nconfigs; i++)
		n += (size_t)(x->configs[i].verdict == VERDICT_UNRESOLVED);
	return n;
}

/* Change interaction: where changes meet, and the sequences to outputs. */
static void interact_text(const struct explain *x, int md, struct buf *b)
{
	const struct interact *ia = &x->interact;
	buf_addf(b, "\n%sChange interaction (static dependences of %zu statement%s): %zu interaction location%s, "
		    "%zu change sequence%s\n%s",
		 md ? "## " : "", ia->stmts, PL(ia->stmts), ia->nlocs, PL(ia->nlocs), ia->nseqs, PL(ia->nseqs),
		 md ? "\n" : "");
	for (size_t i = 0; i < ia->nlocs; i++) {
		buf_addf(b, "%s%s:%d  %s  <- changes", md ? "- " : "  ", ia->locs[i].file, ia->locs[i].line, ia->locs[i].text);
		for (size_t k = 0; k < ia->locs[i].nchanges; k++)
			buf_addf(b, " #%u", x->set->changes[ia->locs[i].changes[k]].id);
		buf_addc(b, '\n');
	}
	for (size_t i = 0; i < ia->nseqs && i < 20; i++) {
		const struct ia_seq *q = &ia->seqs[i];
		buf_addf(b, "%ssequence: #%u", md ? "- " : "  ", x->set->changes[q->change].id);
		if (q->loc >= 0)
			buf_addf(b, " -> %s:%d", ia->locs[q->loc].file, ia->locs[q->loc].line);
		buf_addf(b, " -> %s:%d %s\n", q->out_file, q->out_line, q->out_text);
	}
	if (ia->nseqs > 20)
		buf_addf(b, "%s... %zu more sequence%s\n", md ? "- " : "  ", ia->nseqs - 20, PL(ia->nseqs - 20));
}

/* The MaxSAT fault sets, each line with what the formula says of it. */
static void faults_text(const struct explain *x, int md, struct buf *b)
{
	const struct comss_result *r = &x->faults;
	if (!x->faulted) {
		buf_addf(b, "%s%s\n", md ? "\n" : "\n", x->faults_note);
		return;
	}
	buf_addf(b, "\n%sFault sets (MaxSAT: lines that, changed together, would let the failing run pass; %s; "
		    "%d run%s, %zu clause%s):\n%s",
		 md ? "## " : "", r->weighted ? "cheapest first, weight 1/suspiciousness" : "smallest first", r->paths,
		 r->paths == 1 ? "" : "s", r->clauses, PL(r->clauses), md ? "\n" : "");
	for (size_t i = 0; i < r->n; i++) {
		buf_addf(b, "%s%zu. {", md ? "" : "  ", i + 1);
		for (size_t k = 0; k < r->sets[i].n; k++)
			buf_addf(b, "%s%s:%d", k ? ", " : "", r->sets[i].v[k].file, r->sets[i].v[k].line);
		buf_addf(b, "}  cost %.3g\n", r->sets[i].cost);
		for (size_t k = 0; k < r->sets[i].n; k++)
			buf_addf(b, "%s     %s:%d  %s\n", md ? "   " : "  ", r->sets[i].v[k].file, r->sets[i].v[k].line,
				 r->sets[i].v[k].clause ? r->sets[i].v[k].clause : "");
	}
	if (!r->n)
		buf_addf(b, "%snone\n", md ? "" : "  ");
	if (r->note)
		buf_addf(b, "%s%s\n", md ? "" : "  ", r->note);
}

static void render_text(const struct explain *x, int md, struct buf *b)
{
	const char *culprit = explain_culprit_commit(x);
	const char *h = md ? "## " : "";

	buf_addf(b, "%sculprit: `%s`\n\n", md ? "# " : "", x->opts.test);
	buf_addf(b, "%sgood %s (%.12s): passes\n", md ? "- " : "  ", x->opts.good, x->good);
	buf_addf(b, "%sbad  %s (%.12s): fails with %s\n\n", md ? "- " : "  ", x->opts.bad, x->bad,
		 x->signature ? x->signature : "?");
	if (culprit) {
		buf_addf(b, "%sCulprit commit: %.12s%s%s\n", h, culprit, x->culprit_subject ? " " : "",
			 x->culprit_subject ? x->culprit_subject : "");
		if (x->culprit_author) {
			char date[32] = "";
			time_t t = (time_t)x->culprit_time;
			struct tm tm;
			if (localtime_r(&t, &tm))
				strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm);
			buf_addf(b, "%sAuthor: %s, %s\n", md ? "\n" : "  ", x->culprit_author, date);
		}
		if (x->culprit_signature)
			buf_addf(b, "%sIt fails otherwise than the bad revision, with %s; its changes were searched for that failure\n",
				 md ? "\n" : "  ", x->culprit_signature);
	} else if (x->unrelated) {
		buf_addf(b, "%sNo culprit commit: good is not an ancestor of bad, so the changes are those between the two trees\n", h);
	} else if (x->commits && x->hi > x->lo + 1) {
		buf_addf(b, "%sCulprit range: %.12s..%.12s (%zu commit%s in between could not be tested)\n", h,
			 x->commits[x->lo], x->commits[x->hi], x->hi - x->lo - 1, PL(x->hi - x->lo - 1));
	}
	if (md)
		buf_addc(b, '\n');
	if (!x->set) {
		buf_addf(b, "%s\n", x->note ? x->note : "the analysis has not reached the changes yet");
	} else {
		buf_addf(b, "%sFailure-inducing changes (applied to the good revision, they make the test fail):\n%s",
			 h, md ? "\n" : "");
		text_items(x, &x->inducing, md, b);
		needs_line(x, &x->ind_needs, "applied", "in the fix, below", md, b);
		buf_addf(b, "%sFix (reverted from the bad revision, the test passes):\n%s", h, md ? "\n" : "");
		text_items(x, &x->fix, md, b);
		needs_line(x, &x->fix_needs, "reverted", "failure-inducing, above", md, b);
		if (x->nfix_other) {
			buf_addf(b, "%sOther fixes (the failure needs these with the fix's changes: each reverted alone, the test passes too):\n%s",
				 h, md ? "\n" : "");
			for (size_t i = 0; i < x->nfix_other; i++)
				text_items(x, &x->fix_other[i], md, b);
		}
		if (x->why_state == 2 && x->tree.stale_fix)   /* no reversion gives an omitted line */
			buf_addf(b, "%sor a line the commit omitted (a stale field, below): %s\n", md ? "\n" : "  ",
				 x->tree.stale_fix);
		buf_addf(b, "%sAuxiliary changes (taken along with the changes above so they build, by the code's dependences or the compiler's errors; not tested without them, nor as causes):\n%s", h,
			 md ? "\n" : "");
		text_items(x, &x->aux, md, b);
		if (x->note)
			buf_addf(b, "%s%s\n", md ? "\n" : "", x->note);
	}
	if (x->set && x->why_state == 2) {
		unsigned *ids = xmalloc((x->set->nchanges + 1) * sizeof(*ids));
		for (size_t i = 0; i < x->set->nchanges; i++)
			ids[i] = x->set->changes[i].id;
		buf_addf(b, "\n%sWhy it fails (causal tree):\n%s", h, md ? "\n```\n" : "");
		ctree_text(&x->tree, ids, 1, b);
		if (md)
			buf_adds(b, "```\n");
		free(ids);
	}
	if (x->faulted || x->faults_note)
		faults_text(x, md, b);
	if (x->interacted && x->set)
		interact_text(x, md, b);
	buf_addf(b, "%s%zu configuration%s tested (%d commit%s, %zu unresolved, %zu failed to build", md ? "\n" : "\n",
		 x->nconfigs, PL(x->nconfigs), x->commits_tested, PL(x->commits_tested), configs_unresolved(x),
		 configs_unbuilt(x));
	if (configs_different(x))
		buf_addf(b, ", %zu failed differently", configs_different(x));
	if (x->flaky)
		buf_addf(b, ", %d flaky", x->flaky);
	/* The session's totals; what this run added only when it ran (a stored
	 * session's report says what the analysis took, not what reading it took). */
	if (x->opts.replay) {
		buf_addf(b, "), %d build%s; %.1f s\n", x->builds_before, x->builds_before == 1 ? "" : "s",
			 x->elapsed_before);
	} else {
		int total = x->builds_before + x->builds;
		buf_addf(b, "), %d build%s; %.1f s", total, total == 1 ? "" : "s", x->elapsed_before + x->elapsed);
		if (x->resumed)
			buf_addf(b, " (this run: %zu configuration%s built, %.1f s)", configs_built(x),
				 configs_built(x) == 1 ? "" : "s", x->elapsed);
		buf_adds(b, "\n");
	}
	buf_addf(b, "%stimeouts: test %.3g s (%s), build %.3g s (%s)\n", md ? "- " : "  ", x->opts.test_timeout,
		 x->derived_test_timeout ? "derived: 10x the slower of the good and bad runs, at least 5 s" : "given",
		 x->opts.build_timeout,
		 x->derived_build_timeout ? "derived: 10x the bad revision's build, at least 60 s" : "given");
	for (size_t i = 0; i < x->nconfigs; i++)
		if (x->configs[i].why == WHY_FLAKY)
			buf_addf(b, "%sflaky (its --repeat runs disagree): %s\n", md ? "- " : "  ", x->configs[i].label);
}

static void json_items(const struct explain *x, const struct explain_list *l, struct buf *b)
{
	buf_addc(b, '[');
	for (size_t i = 0; i < l->n; i++) {
		const struct explain_item *it = &l->v[i];
		const struct change *c = &x->set->changes[it->change];
		const struct change_file *f = &x->set->files[c->file];
		struct change_lines cl;
		struct buf id = BUF_INIT;

		report_item_id(x, it, &id);
		item_lines(x, it, &cl);
		buf_adds(b, i ? ",\n    {\"id\": " : "\n    {\"id\": ");
		json_str(b, id.s);
		buf_adds(b, ", \"kind\": ");
		json_str(b, item_kind(x, it));
		buf_adds(b, ", \"commit\": ");
		json_str_or_null(b, explain_change_commit(x, it->change));
		buf_adds(b, ", \"file\": ");
		json_str(b, f->new_path);
		buf_adds(b, ", \"old_file\": ");
		json_str(b, f->old_path);
		buf_adds(b, ", \"function\": ");
		json_str(b, c->function ? c->function : "");
		buf_addf(b, ", \"old_start\": %d, \"old_lines\": %d, \"new_start\": %d, \"new_lines\": %d",
			 cl.old_start, cl.old_lines, cl.new_start, cl.new_lines);
		buf_adds(b, ", \"removed\": ");
		json_str_array(b, cl.removed, cl.nremoved);
		buf_adds(b, ", \"added\": ");
		json_str_array(b, cl.added, cl.nadded);
		if (cl.removed_marked) {
			/* A piece: the same real lines with it between [- -] and {+ +}. */
			buf_adds(b, ", \"removed_marked\": ");
			json_str_array(b, cl.removed_marked, cl.nremoved);
			buf_adds(b, ", \"added_marked\": ");
			json_str_array(b, cl.added_marked, cl.nadded);
		}
		buf_adds(b, "}");
		change_lines_free(&cl);
		buf_release(&id);
	}
	buf_adds(b, l->n ? "\n  ]" : "]");
}

static void json_proof(const struct explain_list *l, struct buf *b)
{
	if (!l->n || !l->proof_key[0]) {
		buf_adds(b, "null");
		return;
	}
	buf_adds(b, "{\"key\": ");
	json_str(b, l->proof_key);
	buf_adds(b, ", \"label\": ");
	json_str(b, l->proof_label ? l->proof_label : "");
	buf_adds(b, ", \"verdict\": ");
	json_str(b, verdict_name(l->proof_verdict));
	buf_adds(b, "}");
}

static void render_json(const struct explain *x, struct buf *b)
{
	buf_adds(b, "{\n  \"good\": ");
	json_str(b, x->good);
	buf_adds(b, ",\n  \"bad\": ");
	json_str(b, x->bad);
	buf_adds(b, ",\n  \"good_rev\": ");
	json_str(b, x->opts.good);
	buf_adds(b, ",\n  \"bad_rev\": ");
	json_str(b, x->opts.bad);
	buf_adds(b, ",\n  \"test\": ");
	json_str(b, x->opts.test);
	buf_adds(b, ",\n  \"build\": ");
	json_str(b, x->build ? x->build : "");
	buf_adds(b, ",\n  \"signature\": ");
	json_str_or_null(b, x->signature);
	buf_adds(b, ",\n  \"culprit_commit\": ");
	json_str_or_null(b, explain_culprit_commit(x));
	buf_adds(b, ",\n  \"culprit_signature\": ");
	json_str_or_null(b, x->culprit_signature);
	buf_adds(b, ",\n  \"culprit_subject\": ");
	json_str_or_null(b, x->culprit_subject);
	buf_adds(b, ",\n  \"culprit_author\": ");
	json_str_or_null(b, x->culprit_author);
	buf_addf(b, ",\n  \"culprit_time\": %lld", x->culprit_time);
	buf_adds(b, ",\n  \"culprit_range\": ");
	if (x->commits && x->hi > x->lo + 1) {
		buf_adds(b, "[");
		json_str(b, x->commits[x->lo]);
		buf_adds(b, ", ");
		json_str(b, x->commits[x->hi]);
		buf_adds(b, "]");
	} else {
		buf_adds(b, "null");
	}
	buf_addf(b, ",\n  \"explained\": %s", x->explained ? "true" : "false");
	buf_adds(b, ",\n  \"note\": ");
	json_str_or_null(b, x->note);
	buf_addf(b, ",\n  \"commits\": %zu", x->ncommits ? x->ncommits - 1 : 0);
	buf_addf(b, ",\n  \"commits_tested\": %d", x->commits_tested);
	buf_addf(b, ",\n  \"configurations_tested\": %zu", x->nconfigs);
	buf_addf(b, ",\n  \"configurations_built_this_run\": %zu", configs_built(x));
	buf_addf(b, ",\n  \"configurations_unresolved\": %zu", configs_unresolved(x));
	buf_addf(b, ",\n  \"configurations_failed_to_build\": %zu", configs_unbuilt(x));
	buf_addf(b, ",\n  \"configurations_failed_differently\": %zu", configs_different(x));
	buf_addf(b, ",\n  \"flaky\": %d", x->flaky);
	buf_adds(b, ",\n  \"flaky_configurations\": [");
	int first = 1;
	for (size_t i = 0; i < x->nconfigs; i++)
		if (x->configs[i].why == WHY_FLAKY) {
			buf_adds(b, first ? "" : ", ");
			json_str(b, x->configs[i].label);
			first = 0;
		}
	buf_adds(b, "]");
	buf_addf(b, ",\n  \"builds\": %d", x->builds);
	buf_addf(b, ",\n  \"builds_total\": %d", x->builds_before + x->builds);
	buf_addf(b, ",\n  \"test_timeout\": %.3f, \"test_timeout_derived\": %s", x->opts.test_timeout,
		 x->derived_test_timeout ? "true" : "false");
	buf_addf(b, ",\n  \"build_timeout\": %.3f, \"build_timeout_derived\": %s", x->opts.build_timeout,
		 x->derived_build_timeout ? "true" : "false");
	buf_addf(b, ",\n  \"resumed\": %s", x->resumed ? "true" : "false");
	buf_addf(b, ",\n  \"refined_to_tokens\": %s", x->refined ? "true" : "false");
	buf_addf(b, ",\n  \"elapsed_seconds\": %.3f", x->opts.replay ? x->elapsed_before : x->elapsed_before + x->elapsed);
	buf_addf(b, ",\n  \"changes\": %zu", x->set ? x->set->nchanges : 0);
	buf_adds(b, ",\n  \"failure_inducing\": ");
	if (x->set)
		json_items(x, &x->inducing, b);
	else
		buf_adds(b, "[]");
	buf_adds(b, ",\n  \"fix\": ");
	if (x->set)
		json_items(x, &x->fix, b);
	else
		buf_adds(b, "[]");
	buf_adds(b, ",\n  \"auxiliary\": ");
	if (x->set)
		json_items(x, &x->aux, b);
	else
		buf_adds(b, "[]");
	/* ids: the other side's causes each set's proof needs to build */
	const struct explain_list *needs[] = {&x->ind_needs, &x->fix_needs};
	for (int k = 0; k < 2; k++) {
		buf_adds(b, k ? ",\n  \"fix_needs\": [" : ",\n  \"failure_inducing_needs\": [");
		for (size_t i = 0; x->set && i < needs[k]->n; i++) {
			struct buf id = BUF_INIT;
			report_item_id(x, &needs[k]->v[i], &id);
			buf_adds(b, i ? ", " : "");
			json_str(b, id.s);
			buf_release(&id);
		}
		buf_addc(b, ']');
	}
	/* The configurations that prove the three sets. */
	buf_adds(b, ",\n  \"failure_inducing_proof\": ");
	json_proof(&x->inducing, b);
	buf_adds(b, ",\n  \"fix_proof\": ");
	json_proof(&x->fix, b);
	buf_adds(b, ",\n  \"auxiliary_proof\": ");
	json_proof(&x->aux, b);
	/* Other fixes, each a set with its proof. */
	buf_adds(b, ",\n  \"other_fixes\": [");
	for (size_t i = 0; x->set && i < x->nfix_other; i++) {
		buf_adds(b, i ? ", {\"changes\": " : "{\"changes\": ");
		json_items(x, &x->fix_other[i], b);
		buf_adds(b, ", \"proof\": ");
		json_proof(&x->fix_other[i], b);
		buf_addc(b, '}');
	}
	buf_addc(b, ']');
	buf_adds(b, ",\n  \"causal_tree\": ");
	if (x->set && x->why_state == 2) {
		unsigned *ids = xmalloc((x->set->nchanges + 1) * sizeof(*ids));
		for (size_t i = 0; i < x->set->nchanges; i++)
			ids[i] = x->set->changes[i].id;
		ctree_json(&x->tree, ids, b);
		free(ids);
	} else {
		buf_adds(b, "null");
	}
	buf_adds(b, ",\n  \"interaction\": ");
	if (x->interacted && x->set) {
		unsigned *ids = xmalloc((x->set->nchanges + 1) * sizeof(*ids));
		for (size_t i = 0; i < x->set->nchanges; i++)
			ids[i] = x->set->changes[i].id;
		interact_json(&x->interact, ids, b);
		free(ids);
	} else {
		buf_adds(b, "null");
	}
	buf_adds(b, ",\n  \"fault_sets\": ");
	if (x->faulted)
		comss_json(&x->faults, b);
	else
		buf_adds(b, "null");
	buf_adds(b, "\n}\n");
}

/* Whether a ranked line's change is among the failure-inducing changes
 * (only when the ranking and the analysis share one change set). */
static int entry_inducing(const struct explain *x, const struct rank_entry *e)
{
	long c = e->change < 0 ? -1 : report_set_change(x, (size_t)e->change);
	if (c < 0)
		return 0;
	for (size_t i = 0; i < x->inducing.n; i++)
		if ((long)x->inducing.v[i].change == c)
			return 1;
	return 0;
}

static size_t shown(const struct explain *x, size_t top)
{
	return top == 0 || top > x->ranking.n ? x->ranking.n : top;
}

static void ranking_text(const struct explain *x, int md, size_t top, struct buf *b)
{
	const struct ranking *r = &x->ranking;
	if (!x->ranked) {
		buf_addf(b, "%sno suspiciousness ranking: %s\n", md ? "\n" : "\n",
			 x->ranking_note ? x->ranking_note : "no test suite given (--suite FILE)");
		return;
	}
	buf_addf(b, "\n%sSuspiciousness (%s; %d failing and %d passing tests", md ? "## " : "",
		 spectra_formula_name(r->formula), r->F, r->P);
	if (x->tests_failing_at_good)
		buf_addf(b, "; %zu left out: they fail at the good revision too", x->tests_failing_at_good);
	if (x->tests_unresolved)
		buf_addf(b, "; %zu unresolved (timed out or exit 125)", x->tests_unresolved);
	int boosted = 0;
	for (size_t i = 0; i < r->n; i++)
		boosted |= r->v[i].boosted;
	buf_addf(b, "; %zu lines%s%s%s):\n\n", r->n, boosted ? "; * +1: in a cause's unsat core" : "", x->opts.changed_only ? " changed by good..bad" : "",
		 x->set && x->set != x->set_full ? "; change ids of the culprit commit, - outside it; ! marks a failure-inducing change"
						 : "; ! marks a failure-inducing change");
	if (md)
		buf_adds(b, "| rank | score | conf | line | ef | ep | change | source |\n|---:|---:|---:|---|---:|---:|---|---|\n");
	else
		buf_addf(b, "  %5s %8s %5s  %-24s %4s %4s %-7s %s\n", "rank", "score", "conf", "line", "ef", "ep", "change", "source");
	for (size_t i = 0; i < shown(x, top); i++) {
		const struct rank_entry *e = &r->v[i];
		char where[512], change[32] = "-";
		snprintf(where, sizeof(where), "%s:%d", e->s.file, e->s.line);
		if (e->change >= 0 && x->set_full) {
			char id[24];
			report_full_change_id(x, (size_t)e->change, id, sizeof(id));
			snprintf(change, sizeof(change), "%s%s", id, entry_inducing(x, e) ? "!" : "");
		}
		struct buf src = BUF_INIT;
		const char *t = e->text ? e->text : "";
		size_t n = e->text ? e->text_len : 0;
		while (n && (*t == ' ' || *t == '\t'))
			t++, n--;
		buf_add(&src, t, n > 60 ? 60 : n);
		if (md)
			buf_addf(b, "| %zu | %.3f | %.2f | %s | %d | %d | %s | `%s` |\n", e->s.rank, e->s.score, e->s.confidence,
				 where, e->s.ef, e->s.ep, change, src.s ? src.s : "");
		else
			buf_addf(b, "  %5zu %7.3f%c %5.2f  %-24s %4d %4d %-7s %s\n", e->s.rank, e->s.score,
				 e->boosted ? '*' : ' ', e->s.confidence, where, e->s.ef, e->s.ep, change, src.s ? src.s : "");
		buf_release(&src);
	}
}

static void ranking_json(const struct explain *x, size_t top, struct buf *b)
{
	const struct ranking *r = &x->ranking;
	buf_addf(b, "{\"formula\": \"%s\", \"failing\": %d, \"passing\": %d, \"tests\": %zu, "
		    "\"left_out_failing_at_good\": %zu, \"unresolved\": %zu, \"lines\": %zu, \"ranking\": [",
		 spectra_formula_name(r->formula), r->F, r->P, x->tests, x->tests_failing_at_good, x->tests_unresolved, r->n);
	for (size_t i = 0; i < shown(x, top); i++) {
		const struct rank_entry *e = &r->v[i];
		buf_adds(b, i ? ",\n    {\"file\": " : "\n    {\"file\": ");
		json_str(b, e->s.file);
		buf_addf(b, ", \"line\": %d, \"score\": %.6g, \"confidence\": %.6g, \"rank\": %zu, \"rank_avg\": %.6g, "
			    "\"ef\": %d, \"ep\": %d, \"change_id\": ",
			 e->s.line, e->s.score, e->s.confidence, e->s.rank, e->s.rank_avg, e->s.ef, e->s.ep);
		char id[24];
		if (e->change >= 0 && x->set_full && report_full_change_id(x, (size_t)e->change, id, sizeof(id)))
			buf_addf(b, "\"%s\"", id + 1);
		else
			buf_adds(b, "null");
		buf_adds(b, ", \"range_change_id\": ");
		if (e->change >= 0 && x->set_full)
			buf_addf(b, "\"%u\"", x->set_full->changes[e->change].id);
		else
			buf_adds(b, "null");
		buf_addf(b, ", \"failure_inducing\": %s, \"boosted\": %s", entry_inducing(x, e) ? "true" : "false",
			 e->boosted ? "true" : "false");
		if (e->spectrum_of)
			buf_addf(b, ", \"spectrum_of_line\": %d", e->spectrum_of);
		buf_addc(b, '}');
	}
	buf_adds(b, r->n ? "\n  ]}" : "]}");
}

/* The answered proposals, split into fields (log lines; see explain_refine_log). */
struct answered {
	char *kind, *name, *verdict, *input;
	long covers;
};

static size_t answered_parse(char *log, struct answered **out)
{
	size_t n = 0;
	*out = NULL;
	for (char *p = log, *nl; p && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		char *f[5] = {0};
		int k = 0;
		for (char *q = p; k < 5; k++) {
			f[k] = q;
			char *tab = k < 4 ? strchr(q, '\t') : NULL;
			if (!tab)
				break;
			*tab = '\0';
			q = tab + 1;
		}
		if (k < 4)
			continue;
		*out = xrealloc(*out, (n + 1) * sizeof(**out));
		(*out)[n++] = (struct answered){f[0], f[1], f[2], f[4], atol(f[3])};
	}
	return n;
}

static void refine_text(const struct explain *x, int md, struct buf *b)
{
	char *log = explain_refine_log(x);
	struct answered *a;
	size_t n = answered_parse(log, &a);
	const struct explain_refine *r = &x->refine;
	if (!n && r->state == REFINE_IDLE) {
		free(log);
		return;
	}
	size_t approved = 0, rejected = 0;
	for (size_t i = 0; i < n; i++)
		*a[i].kind == 'a' ? approved++ : rejected++;
	buf_addf(b, "\n%sRefinement: %zu generated test%s approved, %zu rejected", md ? "## " : "", approved,
		 PL(approved), rejected);
	if (r->dropped)
		buf_addf(b, ", %zu not proposed (they fail differently: another fault)", r->dropped);
	buf_adds(b, md ? "\n\n" : "\n");
	for (size_t i = 0; i < n; i++)
		buf_addf(b, "%s%-8s %-6s %s (%s; covers %ld suspect statement%s)\n", md ? "- " : "  ", a[i].kind,
			 a[i].name, a[i].input, a[i].verdict, a[i].covers, PL(a[i].covers));
	if (r->note)
		buf_addf(b, "%s%s\n", md ? "\n" : "  ", r->note);
	size_t moved = 0;
	for (size_t i = 0; i < r->nmoves; i++)
		moved += r->moves[i].before != r->moves[i].after;
	if (moved) {
		buf_addf(b, "%sthe last approved test moved %zu line%s:", md ? "\n" : "  ", moved, PL(moved));
		size_t shown_ = 0;
		for (size_t i = 0; i < r->nmoves && shown_ < 10; i++)
			if (r->moves[i].before != r->moves[i].after) {
				buf_addf(b, " %s:%d %zu->%zu", r->moves[i].file, r->moves[i].line, r->moves[i].before,
					 r->moves[i].after);
				shown_++;
			}
		buf_addc(b, '\n');
	}
	free(a);
	free(log);
}

static void refine_json(const struct explain *x, struct buf *b)
{
	char *log = explain_refine_log(x);
	struct answered *a;
	size_t n = answered_parse(log, &a);
	buf_adds(b, "{\"answered\": [");
	for (size_t i = 0; i < n; i++) {
		buf_adds(b, i ? ", {\"answer\": " : "{\"answer\": ");
		json_str(b, a[i].kind);
		buf_adds(b, ", \"name\": ");
		json_str(b, a[i].name);
		buf_adds(b, ", \"verdict\": ");
		json_str(b, a[i].verdict);
		buf_adds(b, ", \"input\": ");
		json_str(b, a[i].input);
		buf_addf(b, ", \"covers\": %ld}", a[i].covers);
	}
	buf_addf(b, "], \"dropped\": %zu, \"note\": ", x->refine.dropped);
	if (x->refine.note)
		json_str(b, x->refine.note);
	else
		buf_adds(b, "null");
	buf_adds(b, ", \"rounds\": [");
	char *rounds = explain_refine_rounds(x);
	int nr = 0;
	for (char *p = rounds, *nl; p && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		int round;
		double gen, solver, run;
		unsigned long cand, calls;
		if (sscanf(p, "%d %lf %lf %lf %lu %lu", &round, &gen, &solver, &run, &cand, &calls) == 6)
			buf_addf(b, "%s{\"round\": %d, \"generation_seconds\": %.3f, \"solver_seconds\": %.3f, "
				    "\"run_seconds\": %.3f, \"candidates\": %lu, \"solver_calls\": %lu}",
				 nr++ ? ", " : "", round, gen, solver, run, cand, calls);
		if (!nl)
			break;
	}
	free(rounds);
	buf_adds(b, "], \"moves\": [");
	for (size_t i = 0; i < x->refine.nmoves; i++) {
		const struct refine_move *m = &x->refine.moves[i];
		buf_adds(b, i ? ", {\"file\": " : "{\"file\": ");
		json_str(b, m->file);
		buf_addf(b, ", \"line\": %d, \"before\": %zu, \"after\": %zu}", m->line, m->before, m->after);
	}
	buf_adds(b, "]}");
	free(a);
	free(log);
}

void report_ranking(const struct explain *x, enum report_format f, size_t top, struct buf *out)
{
	if (f == REPORT_JSON) {
		if (x->ranked)
			ranking_json(x, top, out);
		else
			buf_adds(out, "null");
		buf_addc(out, '\n');
	} else {
		ranking_text(x, f == REPORT_MARKDOWN, top, out);
	}
}

void report_render(const struct explain *x, enum report_format f, size_t top, struct buf *out)
{
	if (f == REPORT_JSON) {
		render_json(x, out);
		/* render_json ends with "\n}\n": put the ranking before the brace. */
		out->len -= 3;
		out->s[out->len] = '\0';
		buf_adds(out, ",\n  \"suspiciousness\": ");
		if (x->ranked)
			ranking_json(x, top, out);
		else
			buf_adds(out, "null");
		buf_adds(out, ",\n  \"refinement\": ");
		refine_json(x, out);
		buf_adds(out, ",\n  \"ranking\": ");
		if (x->ranked) {
			/* The plain list, as the issue's contract names it. */
			struct buf tmp = BUF_INIT;
			ranking_json(x, top, &tmp);
			const char *lst = strstr(tmp.s, "\"ranking\": ");
			buf_add(out, lst + 11, tmp.len - (size_t)(lst + 11 - tmp.s) - 1);
			buf_release(&tmp);
		} else {
			buf_adds(out, "[]");
		}
		buf_adds(out, "\n}\n");
	} else {
		render_text(x, f == REPORT_MARKDOWN, out);
		if (x->opts.suite || x->ranked)
			ranking_text(x, f == REPORT_MARKDOWN, top, out);
		refine_text(x, f == REPORT_MARKDOWN, out);
	}
}
