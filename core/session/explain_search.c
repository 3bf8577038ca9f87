/* The explain module: the search of the culprit commit's changes (delta debugging). */
#include "core/session/search.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/isolate/config.h"
#include "core/isolate/dd.h"
#include "core/json.h"
#include "core/isolate/workspace.h"

#define REFINE_MAX_ATOMS 32     /* token-level search budget, in pieces */
#define TOKEN_UNBUILT_MAX 4     /* token pieces that failed to build this often do not build apart */
#define TOKEN_UNBUILT_FIRST 2   /* nor when they failed this often before any built */
#define TOKEN_UNRESOLVED_FIRST 3 /* nor when a token search's first configurations were this many unresolved */
#define TOKEN_UNRESOLVED_MAX 8  /* nor when this many of a token search's configurations, */
#define TOKEN_UNRESOLVED_PER 3  /* this many for each that passed or failed, were unresolved */
#define TOKENS_DROPPED (-1001)  /* the token level gave up: the hunk-level answer stands */
#define COARSE_DIFFERENT_RUN 5  /* hunk-level configurations failing otherwise this often in a row, or */
#define COARSE_DIFFERENT_PER 2  /*   as often and twice as often as they pass or fail: the best so far stands */
#define REWORD_MIN 6            /* a reworded message's words this long at least are masked */
#define REWORD_LITERALS 8       /* string literals a piece may hold to be read for rewording */

/* The string literals of text[0, n), their contents between the quotes,
 * into lit[] and len[] (max at most), and the rest without blanks into
 * *skel. How many, or -1 (more than max, or a literal the text cuts). */
static int literals(const char *t, size_t n, struct buf *skel, const char **lit, size_t *len, int max)
{
	int k = 0;
	for (size_t i = 0; i < n; i++) {
		if (t[i] == '"' || t[i] == '\'') {
			size_t j = i + 1;
			while (j < n && t[j] != t[i])
				j += t[j] == '\\' ? 2 : 1;
			if (j >= n || (t[i] == '"' && k == max))
				return -1;
			if (t[i] == '"') {
				lit[k] = t + i + 1;
				len[k++] = j - i - 1;
				buf_addc(skel, '"');
			} else {
				buf_add(skel, t + i, j - i + 1);
			}
			i = j;
		} else if (!isspace((unsigned char)t[i])) {
			buf_addc(skel, t[i]);
		}
	}
	return k;
}

/* Words to mask in an identity (pointers into text that outlives them). */
struct words {
	const char **w;
	size_t *len, n;
};

static void words_add(struct words *ws, const char *w, size_t n)
{
	ws->w = xrealloc(ws->w, (ws->n + 1) * sizeof(*ws->w));
	ws->len = xrealloc(ws->len, (ws->n + 1) * sizeof(*ws->len));
	ws->w[ws->n] = w;
	ws->len[ws->n++] = n;
}

/* The words of a literal's contents: its runs between escapes and printf
 * conversions (`%d`, `%-8s`), blanks trimmed, of REWORD_MIN bytes at
 * least. */
static void literal_words(struct words *ws, const char *l, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t b = i;
		while (i < n && l[i] != '\\' && l[i] != '%')
			i++;
		size_t e = i;
		while (b < e && l[b] == ' ')
			b++;
		while (e > b && l[e - 1] == ' ')
			e--;
		if (e - b >= REWORD_MIN)
			words_add(ws, l + b, e - b);
		if (i < n && l[i] == '\\') {
			i += 2;
		} else if (i < n) {
			for (i++; i < n && strchr("-+ #0123456789.*hlLqjzt", l[i]); i++)
				;
			i += i < n;
		}
	}
}

/* The new words of the literals a removed text and an added one differ
 * in, when nothing else differs (blanks aside). */
static void reworded(struct words *ws, const char *old, const char *new)
{
	struct buf so = BUF_INIT, sn = BUF_INIT;
	const char *lo[REWORD_LITERALS], *ln[REWORD_LITERALS];
	size_t no[REWORD_LITERALS], nn[REWORD_LITERALS];
	int ko = literals(old, strlen(old), &so, lo, no, REWORD_LITERALS);
	int kn = literals(new, strlen(new), &sn, ln, nn, REWORD_LITERALS);
	if (ko > 0 && ko == kn && so.len == sn.len && !memcmp(so.s, sn.s, so.len))
		for (int i = 0; i < kn; i++)
			if (no[i] != nn[i] || memcmp(lo[i], ln[i], nn[i]))
				literal_words(ws, ln[i], nn[i]);
	buf_release(&so);
	buf_release(&sn);
}

/* The failure the change search looks for: the culprit commit's own, else
 * the bad revision's. A message a hunk rewords in place (libmspack's
 * `"atypical offset to the first CFFILE entry"` made `"WARNING; atypical
 * files offset in header"`, the call around it the same) is no part of
 * it: a configuration without that hunk prints the old words and fails
 * the same way. The new words are masked: of a hunk whose two sides, or
 * whose lines taken pairwise, differ only in their string literals. To
 * free. */
static char *wanted(const struct explain *x, const struct change_set *s)
{
	const char *id = x->culprit_signature ? x->culprit_signature : x->signature;
	if (!id || x->opts.fail_pattern)
		return id ? xstrdup(id) : NULL;
	struct words ws = {NULL, NULL, 0};
	struct change_lines *ls = xcalloc(s->nchanges + 1, sizeof(*ls));
	struct buf *text = xcalloc(2 * s->nchanges + 1, sizeof(*text));
	for (size_t c = 0; c < s->nchanges; c++) {
		if (s->changes[c].kind != CHANGE_HUNK)
			continue;
		struct change_lines *l = &ls[c];
		change_lines_of(s, c, l);
		struct buf *o = &text[2 * c], *n = &text[2 * c + 1];
		for (size_t i = 0; i < l->nremoved; i++)
			buf_addf(o, "%s\n", l->removed[i]);
		for (size_t i = 0; i < l->nadded; i++)
			buf_addf(n, "%s\n", l->added[i]);
		if (o->len && n->len)
			reworded(&ws, o->s, n->s);
		for (size_t i = 0; l->nremoved > 1 && l->nremoved == l->nadded && i < l->nremoved; i++)
			reworded(&ws, l->removed[i], l->added[i]);
	}
	char *sig = oracle_mask_texts(id, ws.w, ws.len, ws.n);
	for (size_t c = 0; c < s->nchanges; c++) {
		if (s->changes[c].kind == CHANGE_HUNK)
			change_lines_free(&ls[c]);
		buf_release(&text[2 * c]);
		buf_release(&text[2 * c + 1]);
	}
	free(ls);
	free(text);
	free(ws.w);
	free(ws.len);
	return sig;
}

/* ------------------------------------------------------ searching changes */

static void set_range(struct bits *b, size_t from, size_t len, int value)
{
	for (size_t a = from; a < from + len; a++)
		value ? bits_set(b, a) : bits_clear(b, a);
}

static void units_add_atoms(const struct units *u, const size_t *units, size_t n, struct bits *b,
			    int value)
{
	for (size_t i = 0; i < n; i++) {
		if (!u->member) {
			set_range(b, u->start[units[i]], u->len[units[i]], value);
			continue;
		}
		/* A group of changes: all their atom ranges. */
		for (size_t k = 0; k < u->nmember[units[i]]; k++)
			set_range(b, u->member[units[i]][2 * k], u->member[units[i]][2 * k + 1], value);
	}
}

static void atom_name(const struct change_set *s, size_t atom, struct buf *b)
{
	const struct change_atom *a = &s->atoms[atom];
	if (a->sub)
		buf_addf(b, "%u.%u", s->changes[a->change].id, a->sub);
	else
		buf_addf(b, "%u", s->changes[a->change].id);
}

/* "3 5.2 8": the applied (or, with invert, the left out) changes and atoms. */
static void describe_atoms(const struct change_set *s, const struct bits *b, int invert, struct buf *out)
{
	size_t shown = 0;
	for (size_t c = 0; c < s->nchanges; c++) {
		const struct change *ch = &s->changes[c];
		size_t in = 0;
		for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
			in += (size_t)(bits_test(b, a) != invert);
		if (in == 0)
			continue;
		if (shown++ == 12) {
			buf_adds(out, " ...");
			return;
		}
		if (shown > 1)
			buf_addc(out, ' ');
		if (in == ch->natoms) {
			buf_addf(out, "%u", ch->id);
			continue;
		}
		int first = 1;
		for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
			if (bits_test(b, a) != invert) {
				if (!first)
					buf_addc(out, ' ');
				first = 0;
				atom_name(s, a, out);
			}
	}
	if (!shown)
		buf_adds(out, "none");
}

#define LABEL_LISTED 12   /* changes named one by one in a label at most */

/* A configuration's label: "good with 3 5.2 8" (applied to good) or "bad
 * without 3 5.2" (reverted from bad); with many changes, what stays
 * readable: "good + 37 of 991 changes in 12 files". */
static void config_label(const struct change_set *s, const struct bits *b, int revert_view, struct buf *out)
{
	size_t n = 0, files = 0;
	long last_file = -1;
	for (size_t c = 0; c < s->nchanges; c++) {
		const struct change *ch = &s->changes[c];
		int in = 0;
		for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms && !in; a++)
			in = bits_test(b, a) != revert_view;
		if (!in)
			continue;
		n++;
		if ((long)ch->file != last_file)
			files++;   /* changes come file by file */
		last_file = (long)ch->file;
	}
	if (n <= LABEL_LISTED) {
		buf_adds(out, revert_view ? "bad without " : "good with ");
		describe_atoms(s, b, revert_view, out);
		return;
	}
	buf_addf(out, "%s %zu of %zu changes in %zu file%s", revert_view ? "bad -" : "good +", n, s->nchanges, files,
		 files == 1 ? "" : "s");
}

static void show_marks(struct explain *x, const struct bits *applied)
{
	ex_lock(x);
	for (size_t c = 0; c < x->set->nchanges; c++) {
		const struct change *ch = &x->set->changes[c];
		int any = 0;
		for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
			any |= bits_test(applied, a);
		x->marks[c] = any ? MARK_APPLIED : MARK_REVERTED;
	}
	ex_unlock(x);
}

/* Whether the configuration keyed key was tested (its outcome is known). */
static int key_tested(const struct explain *x, const char *key)
{
	for (size_t i = 0; i < x->nconfigs; i++)
		if (!strcmp(x->configs[i].key, key))
			return 1;
	return 0;
}

/* Test configuration `applied` of the culprit's set. All of it applied is
 * the culprit commit's tree and none of it its parent's: when bisection
 * tested that commit already, its outcome is taken (no build). */
static int test_config(struct explain *x, const struct change_set *s, const struct bits *applied, const char *label,
		       struct outcome *o, struct cerr *e)
{
	size_t n = bits_count(applied);
	if (s == x->set && s != x->p->full && x->commits && (n == 0 || n == s->natoms)) {
		const char *commit = n ? x->commits[x->hi] : x->commits[x->lo];
		struct change_set *same = NULL;
		const struct change_set *as = x->p->full;
		if (strcmp(commit, x->good)) {
			struct cerr ignored;
			if (repo_diff(x->p->repo, x->good, commit, &same, &ignored) < 0)
				same = NULL;
			as = same;
		}
		if (as) {
			struct bits *b = bits_new(as->natoms);
			if (as != x->p->full || n)
				bits_fill(b);   /* a commit: diff(good, commit), all applied */
			char key[41];
			config_key(as, b, key);
			char *w = wanted(x, s);
			int rc = key_tested(x, key) ? ex_test_config(x, as, b, label, w, o, e) : 1;
			free(w);
			bits_free(b);
			change_set_free(same);
			if (rc <= 0)
				return rc;
		}
	}
	char *w = wanted(x, s);
	int rc = ex_test_config(x, s, applied, label, w, o, e);
	free(w);
	return rc;
}

/* Whether applied takes a change refined to tokens in part. */
static int split_config(const struct search *sr, const struct bits *applied)
{
	for (size_t c = 0; sr->token_apart && sr->u && sr->u->tokens && c < sr->s->nchanges; c++) {
		const struct change *ch = &sr->s->changes[c];
		if (!bits_test(sr->token_apart, c))
			continue;
		size_t in = 0;
		for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
			in += bits_test(applied, a);
		if (in > 0 && in < ch->natoms)
			return 1;
	}
	return 0;
}

/* Test the set's configuration `applied`; the verdict, or <0. */
int sr_test_atoms_ex(struct search *sr, const struct bits *applied, int revert_view, enum unresolved_why *why,
			 char **excerpt)
{
	struct explain *x = sr->x;
	struct buf label = BUF_INIT;
	struct outcome o;

	config_label(sr->s, applied, revert_view, &label);
	show_marks(x, applied);
	sr->token_split += split_config(sr, applied);
	int rc = test_config(x, sr->s, applied, label.s, &o, &x->p->err);
	buf_release(&label);
	if (rc < 0)
		return rc;
	rc = (int)o.verdict;
	sr->why = o.why;
	if (why)
		*why = o.why;
	if (excerpt) {
		*excerpt = o.excerpt;
		o.excerpt = NULL;
	}
	outcome_release(&o);
	return rc;
}

int sr_tested(const struct search *sr, const struct bits *applied)
{
	char key[41];
	config_key(sr->s, applied, key);
	return key_tested(sr->x, key);
}

void sr_note_implied(struct search *sr, const struct bits *applied)
{
	char key[41];
	config_key(sr->s, applied, key);
	if (sr->passed && !strcmp(sr->passed->implied, key))
		return;
	if (sr->passed)
		memcpy(sr->passed->implied, key, sizeof(key));
	sr->token_split += split_config(sr, applied);
	struct buf label = BUF_INIT;
	config_label(sr->s, applied, 0, &label);
	ex_event(sr->x, "CONFIG_IMPLIED", "%s: PASS, implied (a configuration holding it passed; not built)", label.s);
	buf_release(&label);
}

int sr_test_atoms(struct search *sr, const struct bits *applied, int revert_view, enum unresolved_why *why)
{
	return sr_test_atoms_ex(sr, applied, revert_view, why, NULL);
}

/* An unresolved configuration for the search: 2 when it did not build
 * (a split nearby may), 3 when the program ran and failed otherwise; at
 * token level, pieces that failed to build TOKEN_UNBUILT_MAX times, or
 * TOKEN_UNBUILT_FIRST times before any built (a function rewritten: its
 * pieces share locals no lexical tie sees), end the token level
 * (TOKENS_DROPPED): they do not build apart, and each further try would
 * cost a build for nothing. So do the pieces of one token search (the
 * failure-inducing pieces, or the fix's) when what they give is
 * unresolved, its first TOKEN_UNRESOLVED_FIRST configurations or most of
 * them (TOKEN_UNRESOLVED_PER for each that passed or failed, and
 * TOKEN_UNRESOLVED_MAX at least): pieces of one data flow
 * rewritten line by line (cproc's member access made an expression of its
 * own) build apart, but read what no revision sets or use what it has not
 * made yet, and fail otherwise (a wrong offset, a crash) nearly
 * every time: the search learns nothing from them. */
static int unresolved_code(struct search *sr)
{
	if (sr->u && sr->u->tokens && (sr->why == WHY_BUILD || sr->why == WHY_BUILD_TIMEOUT)) {
		size_t unbuilt = 0, built = 0;   /* distinct configurations since the token level began */
		for (size_t i = sr->token_start; i < sr->x->nconfigs; i++) {
			int no = sr->x->configs[i].why == WHY_BUILD || sr->x->configs[i].why == WHY_BUILD_TIMEOUT;
			unbuilt += no;
			built += !no;
		}
		if (unbuilt >= TOKEN_UNBUILT_MAX || (!built && unbuilt >= TOKEN_UNBUILT_FIRST))
			return TOKENS_DROPPED;
	}
	if (sr->u && sr->u->tokens) {
		size_t unresolved = 0, resolved = 0;   /* since this token search began */
		for (size_t i = sr->token_phase; i < sr->x->nconfigs; i++) {
			if (i + 1 == sr->token_skip)
				continue;
			int no = sr->x->configs[i].verdict == VERDICT_UNRESOLVED;
			unresolved += no;
			resolved += !no;
		}
		if ((!resolved && unresolved >= TOKEN_UNRESOLVED_FIRST) ||
		    (unresolved >= TOKEN_UNRESOLVED_MAX && unresolved >= TOKEN_UNRESOLVED_PER * resolved))
			return TOKENS_DROPPED;
	}
	/* At hunk level, configurations that fail otherwise again and again
	 * take apart changes that only work together, a data flow no lexical
	 * tie sees (tcpdump b258556b: hunks advancing one pointer and its
	 * lengths, reverted some without the others, misparsed every frame
	 * 11 times in 16; lua 0593256's type migration, 52 builds, 23 of them
	 * unbuilt): the best set so far stands, the smallest that failed or
	 * whose reversion passed (DD_STOP with coarse), not narrowed at a
	 * build each. Again and again: five in a row (a build that failed
	 * tells neither way), or five and twice as many as passed or failed. */
	if (!(sr->u && sr->u->tokens) && sr->coarse_search && sr->why == WHY_DIFFERENT) {
		size_t run = 0, different = 0, resolved = 0;
		for (size_t i = sr->x->nconfigs; i > sr->token_phase; i--) {
			const struct explain_config *c = &sr->x->configs[i - 1];
			int no = c->verdict == VERDICT_UNRESOLVED;
			different += no && c->why == WHY_DIFFERENT;
			resolved += !no;
			if (!resolved)
				run = different;
		}
		if (run >= COARSE_DIFFERENT_RUN ||
		    (different >= COARSE_DIFFERENT_RUN && different >= COARSE_DIFFERENT_PER * resolved)) {
			sr->coarse = 1;
			return DD_STOP;
		}
	}
	return sr->why == WHY_DIFFERENT ? 3 : 2;
}

static int pred_inducing(void *priv, const size_t *units, size_t n)
{
	struct search *sr = priv;
	struct bits *b = bits_new(sr->s->natoms);
	units_add_atoms(sr->u, units, n, b, 1);
	int v = sr_test_repaired(sr, b);
	bits_free(b);
	return v < 0 ? v : v == VERDICT_FAIL ? 1 : v == VERDICT_UNRESOLVED ? unresolved_code(sr) : 0;
}

static size_t *bits_list(const struct bits *b, size_t *n)
{
	size_t *v = xmalloc((bits_count(b) + 1) * sizeof(*v));
	*n = 0;
	for (size_t i = 0; i < b->n; i++)
		if (bits_test(b, i))
			v[(*n)++] = i;
	return v;
}

/* Does reverting these units from the failing commit make the test pass? */
static int pred_revert(void *priv, const size_t *units, size_t n)
{
	struct search *sr = priv;
	struct bits *b = bits_new(sr->s->natoms);
	bits_fill(b);
	units_add_atoms(sr->u, units, n, b, 0);
	int v = sr_test_revert_repaired(sr, b, NULL);
	bits_free(b);
	return v < 0 ? v : v == VERDICT_PASS ? 1 : v == VERDICT_UNRESOLVED ? unresolved_code(sr) : 0;
}

/* While searching a fix beyond the failure-inducing units: does reverting
 * these units with them (sr->with) pass? */
static int pred_revert_with(void *priv, const size_t *units, size_t n)
{
	struct search *sr = priv;
	size_t *all = xmalloc((n + sr->nwith + 1) * sizeof(*all));
	memcpy(all, sr->with, sr->nwith * sizeof(*all));
	if (n)
		memcpy(all + sr->nwith, units, n * sizeof(*all));
	int rc = pred_revert(sr, all, n + sr->nwith);
	free(all);
	return rc;
}

/* While searching auxiliary changes: does reverting sr->reverted (units)
 * and these units still build? */
static int pred_builds(void *priv, const size_t *units, size_t n)
{
	struct search *sr = priv;
	struct bits *b = bits_new(sr->s->natoms);
	bits_fill(b);
	units_add_atoms(sr->u, sr->reverted, sr->nreverted, b, 0);
	units_add_atoms(sr->u, units, n, b, 0);
	enum unresolved_why why = WHY_NONE;
	sr_close_config(sr, b, 1);
	int v = sr_test_atoms(sr, b, 1, &why);
	bits_free(b);
	return v < 0 ? v : why != WHY_BUILD && why != WHY_BUILD_TIMEOUT;
}

/* Whether a dependence block (deps.h) has a change in b (atoms) and a
 * change out of it. */
static int straddles_block(const struct search *sr, const struct bits *b)
{
	for (size_t c = 0; sr->deps && c < sr->s->nchanges; c++) {
		int in, out;
		if (sr->deps->block[c] != (long)c)
			continue;
		sr_block_touched(sr, c, b, 1, &in, &out);
		if (in && out)
			return 1;
	}
	return 0;
}

/* The dependences' closure of taking piece a alone (revert: reverting it
 * from bad), as the pieces it holds (to free): not what failed builds
 * taught, which ties pieces both ways where one only needs the other,
 * except the quiet needs -Werror makes true (a new static and its only
 * caller then need each other: quickjs-ng's js_finrec_job had been the
 * answer, its caller, the developers' line, auxiliary). */
static struct bits *piece_closure(const struct search *sr, size_t a, int revert)
{
	struct bits *b = bits_new(sr->s->natoms);
	if (revert) {
		bits_fill(b);
		bits_clear(b, a);
	} else {
		bits_set(b, a);
	}
	sr_close_needs(sr, b, revert);
	if (revert)
		bits_invert(b);
	return b;
}

/* Split a minimal fix R (units of sr->u) into causes and auxiliary units: a
 * unit is a cause when reverting R without it still fails; the auxiliary
 * units are the fewest of the others that reverting the causes needs to
 * build. 1 when split (causes and aux filled, as atoms), 0 when the units
 * of R cannot be told apart at this level, <0 on abort. */
static int split_fix(struct search *sr, const size_t *R, size_t nr, struct bits *causes, struct bits *aux)
{
	size_t *c = xmalloc((nr + 1) * sizeof(*c)), *rest = xmalloc((nr + 1) * sizeof(*rest));
	size_t nc = 0, nrest = 0;
	int rc = 0;

	for (size_t i = 0; i < nr; i++) {
		size_t k = 0;
		for (size_t j = 0; j < nr; j++)
			if (j != i)
				rest[k++] = R[j];
		rc = nr == 1 ? 0 : pred_revert(sr, rest, k);
		if (rc < 0)
			goto out;
		/* Without it the test does not pass, and not for want of a
		 * build: a cause (failing otherwise, or hanging, is still not
		 * passing). */
		if (rc == 0 || (rc > 1 && (sr->why == WHY_DIFFERENT || sr->why == WHY_TEST_TIMEOUT)))
			c[nc++] = R[i];
	}
	if (nc == 0)
		goto out;
	for (size_t i = 0; i < nr; i++) {
		int in = 0;
		for (size_t j = 0; j < nc; j++)
			in |= c[j] == R[i];
		if (!in)
			rest[nrest++] = R[i];
	}
	size_t *a = xmalloc((nrest + 1) * sizeof(*a)), na = 0;
	/* The causes reverted alone, closed as every configuration is (at
	 * token level too: the blocks learnt there). */
	struct search sub = *sr;
	sub.reverted = c;
	sub.nreverted = nc;
	rc = nrest ? pred_builds(&sub, NULL, 0) : 1;
	if (rc == 0) {
		rc = dd_minimize(rest, nrest, pred_builds, &sub, a, &na);
	} else if (rc == 1) {
		rc = 0;
	}
	sr->token_split = sub.token_split;
	if (rc < 0) {
		free(a);
		goto out;
	}
	units_add_atoms(sr->u, c, nc, causes, 1);
	sr_close_blocks(sr, causes, 0);   /* a cause in a file learnt whole: the file, whole */
	sr_close_token_blocks(sr, causes, 0);   /* a cause's pieces a learnt block holds: all of them */
	units_add_atoms(sr->u, a, na, aux, 1);
	for (size_t k = 0; k < sr->s->natoms; k++)
		if (bits_test(causes, k))
			bits_clear(aux, k);
	free(a);
	rc = 1;
out:
	free(c);
	free(rest);
	return rc;
}

static void to_items(const struct change_set *s, const struct bits *b, struct explain_list *l)
{
	ex_list_release(l);
	l->v = xmalloc((s->natoms + 1) * sizeof(*l->v));
	for (size_t c = 0; c < s->nchanges; c++) {
		const struct change *ch = &s->changes[c];
		size_t in = 0;
		for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
			in += (size_t)bits_test(b, a);
		if (in == ch->natoms && in > 0) {
			l->v[l->n++] = (struct explain_item){c, -1};
			continue;
		}
		for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
			if (bits_test(b, a))
				l->v[l->n++] = (struct explain_item){c, (long)a};
	}
}

/* How strong the border between two units is: for changes, 2 another
 * file, 1 another function; for atoms, 2 another hunk, 1 another line. */
static int border(void *priv, size_t a, size_t b)
{
	struct search *sr = priv;
	const struct change_set *s = sr->s;
	size_t atom_a = sr->u->start[a], atom_b = sr->u->start[b];
	const struct change_atom *x = &s->atoms[atom_a], *y = &s->atoms[atom_b];
	const struct change *cx = &s->changes[x->change], *cy = &s->changes[y->change];
	if (sr->u->tokens)
		return cx != cy ? 2 : x->old_line != y->old_line;
	struct explain *ex = sr->x;
	if (sr->u->n == s->nchanges && ex->interacted && ex->interact.group[x->change] >= 0 &&
	    ex->interact.group[x->change] == ex->interact.group[y->change])
		return -1;   /* interacting changes: split them last */
	if (cx->file != cy->file)
		return 2;
	return strcmp(cx->function ? cx->function : "", cy->function ? cy->function : "") != 0;
}

/* The search's remaining work, for the status bar. */
static void publish_left(void *priv, size_t k)
{
	struct search *sr = priv;
	ex_lock(sr->x);
	sr->x->search_left = k;
	ex_unlock(sr->x);
}

/* Minimize over units `cand` of table u with predicate p: the result as
 * units (out, room for n) and as atoms (result). */
static int minimize(struct search *sr, const struct units *u, const size_t *cand, size_t n, dd_pred p,
		    size_t *out, size_t *nout, struct bits *result)
{
	sr->u = u;
	int rc = dd_minimize_left(cand, n, p, border, publish_left, sr, out, nout);
	if (rc == 0 || rc == DD_STOP) {
		units_add_atoms(u, out, *nout, result, 1);
		sr_close_blocks(sr, result, 0);   /* a file or hunk learnt whole is in the answer whole */
	}
	return rc;
}

/* Whether unit k of u has an atom set in b. */
static int unit_in(const struct units *u, size_t k, const struct bits *b)
{
	size_t nr = u->member ? u->nmember[k] : 1;
	for (size_t r = 0; r < nr; r++) {
		size_t start = u->member ? u->member[k][2 * r] : u->start[k];
		size_t len = u->member ? u->member[k][2 * r + 1] : u->len[k];
		for (size_t a = start; a < start + len; a++)
			if (bits_test(b, a))
				return 1;
	}
	return 0;
}

/* The pieces (or hunks) an answer's piece cannot be told from are part of
 * the answer (set), not what it needs to build (taken from aux, when
 * given): the other pieces of a rewritten hunk, which is one piece (zstd's
 * blank line, the first piece of a rewritten loop, had been named alone),
 * and the pieces the dependences tie to it both ways (a rename's piece and
 * the rewrite using the new name, whose old name it removes; a deleted
 * source and the build file's line listing it, which no reversion takes
 * apart: samurai's build.ninja line had been named the fix alone). */
static void add_tied_pieces(const struct search *sr, struct bits *set, struct bits *aux, int revert)
{
	const struct change_set *s = sr->s;
	struct bits *done = bits_new(s->natoms);   /* the pieces whose ties were taken */
	for (int again = 1; again;) {
		again = 0;
		for (size_t a = 0; a < s->natoms; a++) {
			if (!bits_test(set, a) || bits_test(done, a))
				continue;
			bits_set(done, a);
			struct bits *tied = piece_closure(sr, a, revert);
			size_t c = s->atoms[a].change;
			for (size_t k = s->changes[c].atom0; sr_one_piece(sr, c) && k < s->changes[c].atom0 + s->changes[c].natoms; k++)
				bits_set(tied, k);
			for (size_t k = 0; k < s->natoms; k++) {
				if (bits_test(set, k) || !bits_test(tied, k))
					continue;
				struct bits *back = piece_closure(sr, k, revert);
				size_t kc = s->atoms[k].change;
				if (kc == c ? sr_one_piece(sr, c) : bits_test(back, a)) {
					bits_set(set, k);
					if (aux)
						bits_clear(aux, k);
					again = 1;
				}
				bits_free(back);
			}
			bits_free(tied);
		}
	}
	bits_free(done);
}

/* The atoms taking units (applying them, or revert: reverting them from
 * the failing commit) takes, closed as every configuration is (to free). */
static struct bits *units_taken(struct search *sr, const struct units *u, const size_t *units, size_t n, int revert)
{
	struct bits *b = bits_new(sr->s->natoms);
	units_add_atoms(u, units, n, b, 1);
	if (!revert) {
		sr_close_config(sr, b, 0);
		return b;
	}
	bits_invert(b);   /* the atoms kept as in bad */
	sr_close_config(sr, b, 1);
	bits_invert(b);
	return b;
}

/* A failure-inducing set (out, over candidates cand) can be minimal only
 * with what it needs to build: a declaration's removal is applied with the
 * removal of its uses, and those may hold the cause (a static made unused
 * by the change that breaks the test). Each unit whose closure brings in
 * other candidates is tried without it, with those of them that do not
 * bring it back; when that fails as well, the search goes on among them,
 * until no unit's needs fail without it. At token level too: a rename
 * piece is not the answer when the piece beside it fails without it.
 * revert: the same for a fix, whose reversion passes only with what
 * reverting it needs to build (samurai's build.ninja line naming lex.c,
 * whose reversion brings back the whole old lexer: reverting the lexer
 * without that line passes). result: the answer as atoms. Returns 0,
 * DD_STOP or <0. */
static int narrow_needs(struct search *sr, const struct units *u, const size_t *cand, size_t n, size_t *out,
			size_t *nout, struct bits *result, int revert)
{
	int rc = 0;
	dd_pred pred = revert ? pred_revert : pred_inducing;
	size_t *rest = xmalloc((n + 1) * sizeof(*rest));
	for (int again = 1; again && rc == 0;) {
		again = 0;
		struct bits *all = units_taken(sr, u, out, *nout, revert);
		for (size_t i = 0; i < *nout && !again && rc == 0; i++) {
			/* The candidates in the closure that do not bring it back. */
			size_t nr = 0, others = 0;
			for (size_t k = 0; k < n; k++) {
				if (cand[k] == out[i] || !unit_in(u, cand[k], all))
					continue;
				struct bits *b = units_taken(sr, u, &cand[k], 1, revert);
				if (!unit_in(u, out[i], b)) {
					int mine = 0;
					for (size_t j = 0; j < *nout && !mine; j++)
						mine = out[j] == cand[k];
					rest[nr++] = cand[k];
					others += !mine;
				}
				bits_free(b);
			}
			if (!others)
				continue;   /* no other candidate in its closure stands without it */
			struct bits *b = units_taken(sr, u, rest, nr, revert);
			int back = unit_in(u, out[i], b);   /* the rest needs it: nothing to try */
			/* A configuration holding them passed: under the
			 * monotony the search assumes, they pass. */
			back = back || (!revert && sr_passed_holds(sr, b));
			bits_free(b);
			if (back)
				continue;
			struct buf d = BUF_INIT;
			struct bits *one = bits_new(sr->s->natoms);
			units_add_atoms(u, &out[i], 1, one, 1);
			describe_atoms(sr->s, one, 0, &d);
			bits_free(one);
			sr->u = u;
			int v = pred(sr, rest, nr);
			if (v == 1) {
				if (revert)
					ex_event(sr->x, "NARROW", "reverting %s passes only with what its reversion needs to "
						 "build, which passes without it: searching among those", d.s);
				else
					ex_event(sr->x, "NARROW", "%s is failure-inducing only with what it needs to build, "
						 "which fails without it: searching among those", d.s);
				rc = dd_minimize_left(rest, nr, pred, border, publish_left, sr, out, nout);
				again = 1;
			} else if (v < 0) {
				rc = v;
			}
			buf_release(&d);
		}
		bits_free(all);
	}
	free(rest);
	if (rc == 0 || rc == DD_STOP) {
		bits_zero(result);
		units_add_atoms(u, out, *nout, result, 1);
		if (u->tokens)
			add_tied_pieces(sr, result, NULL, revert);
		sr_close_blocks(sr, result, 0);
	}
	return rc;
}

static void units_init(struct units *u, size_t n)
{
	memset(u, 0, sizeof(*u));
	u->n = n;
	u->start = xmalloc((n + 1) * sizeof(*u->start));
	u->len = xmalloc((n + 1) * sizeof(*u->len));
}

static void units_release(struct units *u)
{
	for (size_t i = 0; u->member && i < u->n; i++)
		free(u->member[i]);
	free(u->member);
	free(u->nmember);
	free(u->start);
	free(u->len);
}

/* The search at one level (changes or atoms) over candidate units cand. */
struct level {
	struct bits *inducing, *revert, *causes, *aux;
	struct bits *repair;   /* what compiler-error repair added to the failure-inducing configuration */
	int split;      /* the fix could be split into causes and auxiliary units */
	size_t *found, nfound;   /* the failure-inducing units (level_inducing) */
	int unfixed;    /* reverting all the fix's candidates did not pass */
	int coarse;     /* the fix was not narrowed: its parts reverted apart failed otherwise */
};

static void level_init(struct level *l, size_t natoms)
{
	l->inducing = bits_new(natoms);
	l->revert = bits_new(natoms);
	l->causes = bits_new(natoms);
	l->aux = bits_new(natoms);
	l->repair = bits_new(natoms);
	l->split = 0;
	l->found = NULL;
	l->nfound = 0;
	l->unfixed = 0;
	l->coarse = 0;
}

static void level_release(struct level *l)
{
	bits_free(l->inducing);
	bits_free(l->revert);
	bits_free(l->causes);
	bits_free(l->aux);
	bits_free(l->repair);
	free(l->found);
}

/* The token level's pieces: those of the hunk-level answer's changes with
 * what those changes need to build — applied, the dependences' closure, the
 * files learnt whole and what repair added; reverted, the same backwards and
 * the fix's auxiliary changes. Without them no piece would build, and the
 * test of all the pieces, which must fail (pass, reverted), would cost a
 * build for nothing. */
static void token_pools(struct search *sr, const struct units *hunks, const struct level *hl, int fix_pending,
			struct bits **ind, struct bits **rev)
{
	/* The hunk-level fix not searched yet (refine_first), the
	 * failure-inducing changes stand for it. */
	const struct bits *fix = fix_pending ? hl->inducing : hl->revert;
	const struct units *u = sr->u;
	const struct bits *pool = sr->pool;
	sr->u = hunks;
	sr->pool = NULL;
	*ind = bits_dup(hl->inducing);
	bits_or(*ind, hl->repair);
	sr_close_config(sr, *ind, 0);
	struct bits *kept = bits_new(sr->s->natoms);   /* reverted: the atoms left as in bad */
	bits_fill(kept);
	for (size_t a = 0; a < sr->s->natoms; a++)
		if (bits_test(fix, a) || bits_test(hl->aux, a))
			bits_clear(kept, a);
	sr_close_config(sr, kept, 1);
	*rev = bits_new(sr->s->natoms);
	for (size_t a = 0; a < sr->s->natoms; a++)
		if (!bits_test(kept, a))
			bits_set(*rev, a);
	bits_free(kept);
	sr->u = u;
	sr->pool = pool;
}

/* Whether every change b touches is one of the hunks rewriting a
 * function (deps.h). */
static int rewrites_only(const struct search *sr, const struct bits *b)
{
	int any = 0;
	for (size_t c = 0; sr->deps && c < sr->s->nchanges; c++) {
		if (!sr_change_touched(&sr->s->changes[c], b, 1))
			continue;
		if (!sr->deps->rewrite[c])
			return 0;
		any = 1;
	}
	return any;
}

/* The failure-inducing units among ind_cand, into l (l->found, the units
 * themselves, for the fix's search). 0, or <0 aborted (TOKENS_DROPPED: the
 * pieces do not fail together as their hunks did). */
static int level_inducing(struct explain *x, struct search *sr, const struct units *u, const size_t *ind_cand,
			  size_t nind, struct level *l, int *stopped)
{
	size_t *out = xmalloc((nind + 1) * sizeof(*out)), nout = 0;
	struct buf d = BUF_INIT;
	const char *lvl = u->tokens ? " (token level)" : "";
	int rc;

	ex_phase(x, lvl[0] ? PHASE_REFINE : PHASE_INDUCING);
	sr->token_phase = x->nconfigs;
	struct bits *pool = bits_new(sr->s->natoms);
	units_add_atoms(u, ind_cand, nind, pool, 1);
	sr->pool = pool;
	/* The search assumes all the candidates have the property. Pieces
	 * taken without what their hunks needed to build may not: then the
	 * token level can tell nothing. */
	sr->u = u;
	rc = u->tokens ? pred_inducing(sr, ind_cand, nind) : 1;
	if (rc >= 0 && rc != 1)
		rc = TOKENS_DROPPED;
	sr->coarse_search = !u->tokens;
	sr->coarse = 0;
	if (rc == 1)
		rc = minimize(sr, u, ind_cand, nind, pred_inducing, out, &nout, l->inducing);
	l->coarse = rc == DD_STOP && sr->coarse;
	sr->coarse_search = sr->coarse = 0;
	if (l->coarse) {
		ex_event(x, "INDUCING_COARSE", "part of the failure-inducing changes failed otherwise too often: "
			 "the smallest set that failed stands, not narrowed further");
		rc = 0;
	} else if (rc == 0 && sr->deps)
		rc = narrow_needs(sr, u, ind_cand, nind, out, &nout, l->inducing, 0);
	if (rc == DD_STOP)
		*stopped = 1;
	if (rc == 0) {
		/* The configuration that proves it: with what repair added (tested, stored). */
		struct bits *proof = bits_dup(l->inducing);
		if (sr_test_repaired(sr, proof) >= 0)
			for (size_t a = 0; a < sr->s->natoms; a++)
				if (bits_test(proof, a) && !bits_test(l->inducing, a))
					bits_set(l->repair, a);
		bits_free(proof);
	}
	sr->pool = NULL;
	bits_free(pool);
	if (rc < 0 && rc != DD_STOP)
		goto out;
	describe_atoms(sr->s, l->inducing, 0, &d);
	ex_event(x, "INDUCING_FOUND", "failure-inducing%s: %s%s", lvl, d.s, *stopped ? " (stopped, not minimal)" : "");
	rc = 0;
	free(l->found);
	l->found = out;
	l->nfound = nout;
	out = NULL;
out:
	free(out);
	buf_release(&d);
	return rc;
}

/* The fix among rev_cand, tried first among the failure-inducing units
 * level_inducing found (l->found), into l. 0, or <0 aborted. */
/* Into near, the units of others (n units of u) whose changes are in a
 * function (by their hunk header) of a file that one of the with units'
 * changes is in; their count. */
static size_t near_units(const struct search *sr, const struct units *u, const size_t *with, size_t nwith,
			 const size_t *others, size_t n, size_t *near)
{
	const struct change_set *s = sr->s;
	size_t nn = 0;
	for (size_t k = 0; k < n; k++) {
		const struct change *c = &s->changes[s->atoms[u->start[others[k]]].change];
		int in = 0;
		for (size_t j = 0; j < nwith && !in && c->kind == CHANGE_HUNK && c->function[0]; j++) {
			const struct change *w = &s->changes[s->atoms[u->start[with[j]]].change];
			in = w->kind == CHANGE_HUNK && w->file == c->file && !strcmp(w->function, c->function);
		}
		if (in)
			near[nn++] = others[k];
	}
	return nn;
}

static int level_fix(struct explain *x, struct search *sr, const struct units *u, const size_t *rev_cand, size_t nrev,
		     struct level *l, int *stopped)
{
	size_t n = l->nfound > nrev ? l->nfound : nrev;
	const size_t *out0 = l->found;
	size_t *out = xmalloc((n + 1) * sizeof(*out)), nout = l->nfound;
	struct buf d = BUF_INIT;
	const char *lvl = u->tokens ? " (token level)" : "";
	int rc;

	memcpy(out, out0, nout * sizeof(*out));
	ex_phase(x, lvl[0] ? PHASE_REFINE : PHASE_FIX);
	sr->token_phase = x->nconfigs;
	sr->coarse_search = !u->tokens;
	sr->coarse = 0;
	/* The fix is searched change by change: reverting a use without its
	 * declaration builds, and what reverting needs to build is found as
	 * auxiliary changes; groups only matter when applying to good. */
	struct units cu1 = {0};
	const struct units *ru = u;
	size_t *rcand = NULL, nrc = nrev;
	size_t *finducing = xmalloc((n + sr->s->nchanges + 1) * sizeof(*finducing)), nfi = nout;
	memcpy(finducing, out, nout * sizeof(*out));
	if (u->member) {
		units_init(&cu1, sr->s->nchanges);
		struct bits *in = bits_new(sr->s->natoms), *rv = bits_new(sr->s->natoms);
		units_add_atoms(u, out, nout, in, 1);
		units_add_atoms(u, rev_cand, nrev, rv, 1);
		rcand = xmalloc((sr->s->nchanges + 1) * sizeof(*rcand));
		nfi = nrc = 0;
		for (size_t c = 0; c < sr->s->nchanges; c++) {
			cu1.start[c] = sr->s->changes[c].atom0;
			cu1.len[c] = sr->s->changes[c].natoms;
			if (bits_test(in, cu1.start[c]))
				finducing[nfi++] = c;
			if (bits_test(rv, cu1.start[c]))
				rcand[nrc++] = c;
		}
		bits_free(in);
		bits_free(rv);
		ru = &cu1;
		rev_cand = rcand;
		free(out);
		out = xmalloc((sr->s->nchanges + 1) * sizeof(*out));
		/* Reverting an include learnt from a repair reverts the changes
		 * that use what it declares: they come first, so that the search
		 * ends on the use that holds the cause, not on the include whose
		 * reversion brings it along. (The dependences' own needs keep diff
		 * order here: taking their users first cost the fix search more
		 * builds on the field than it saved.) */
		if (sr->learnt && sr->learnt->n) {
			long *self = xmalloc((sr->s->nchanges + 1) * sizeof(*self));
			for (size_t c = 0; c < sr->s->nchanges; c++)
				self[c] = (long)c;
			const size_t(*more)[2] = (const size_t(*)[2])sr->learnt->need;
			deps_order(NULL, self, sr->s->nchanges, rcand, nrc, more, sr->learnt->n, 1);
			deps_order(NULL, self, sr->s->nchanges, finducing, nfi, more, sr->learnt->n, 1);
			free(self);
		}
	}
	/* Most often reverting the failure-inducing changes fixes the test:
	 * then the fix lies among them, and the search stays that small. */
	sr->u = ru;
	rc = nfi < nrc ? pred_revert(sr, finducing, nfi) : 0;
	if (u->tokens && rc >= 0 && rc != 1) {   /* as above: all the pieces reverted must pass */
		/* Whole hunks reverted, it tells nothing of how the pieces
		 * fare apart: the count that ends the token level leaves it
		 * out (the hunk-level fix, searched first, had tested it). */
		size_t n0 = x->nconfigs;
		rc = pred_revert(sr, rev_cand, nrc);
		if (x->nconfigs == n0 + 1)
			sr->token_skip = n0 + 1;
		if (rc >= 0 && rc != 1) {
			l->unfixed = 1;
			rc = TOKENS_DROPPED;
		}
		if (rc < 0) {
			free(finducing);
			sr->u = u;
			goto out;
		}
		rc = 0;
	}
	const size_t *fcand = rc == 1 ? finducing : rev_cand;
	size_t nfcand = rc == 1 ? nfi : nrc;
	/* Failure-inducing changes whose parts failed otherwise apart
	 * (level_inducing ended coarse) fail otherwise reverted apart too:
	 * when reverting them passes, they are the fix, not narrowed. */
	int together = !u->tokens && l->coarse && (rc == 1 || (rc == 0 && nfi == nrc));
	if (together) {
		memcpy(out, fcand, nfcand * sizeof(*out));
		nout = nfcand;
		units_add_atoms(ru, out, nout, l->revert, 1);
		sr_close_blocks(sr, l->revert, 0);
		sr->coarse = 1;
		rc = DD_STOP;
	} else if ((rc == 0 || rc == 3) && nfi > 0 && nfi < nrc) {
		/* Reverting the failure-inducing units does not pass: the fix
		 * is most often they and more (a second use of what they
		 * changed). The more is sought among the others, each
		 * configuration reverting them too (kuroko bb6b4d0's fix, the
		 * failure-inducing change and one other of ten, had cost 13
		 * builds searched among all); split_fix then drops those the
		 * fix can do without. */
		size_t *others = xmalloc((nrc + 1) * sizeof(*others)), no = 0;
		for (size_t k = 0; k < nrc; k++) {
			int in = 0;
			for (size_t j = 0; j < nfi && !in; j++)
				in = finducing[j] == rev_cand[k];
			if (!in)
				others[no++] = rev_cand[k];
		}
		sr->with = finducing;
		sr->nwith = nfi;
		/* The more is most often in the failure-inducing changes'
		 * own functions (cmus cd2e7d7 dropped a convention from two
		 * lines of one function: reverting the first alone failed
		 * otherwise, and so did every half of the other 52 changes
		 * reverted with it, until the search ended coarse on 50): when
		 * reverting those others passes, the search stays among them. */
		size_t *near = xmalloc((no + 1) * sizeof(*near));
		size_t nn = near_units(sr, ru, finducing, nfi, others, no, near);
		if (nn > 0 && nn < no) {
			rc = pred_revert_with(sr, near, nn);
			if (rc == 1) {
				memcpy(others, near, nn * sizeof(*others));
				no = nn;
			}
		}
		free(near);
		if (rc < 0)
			goto fixed;
		rc = minimize(sr, ru, others, no, pred_revert_with, out, &nout, l->revert);
fixed:
		sr->with = NULL;
		sr->nwith = 0;
		free(others);
		if (rc == 0 || rc == DD_STOP) {
			memcpy(out + nout, finducing, nfi * sizeof(*out));
			nout += nfi;
			units_add_atoms(ru, finducing, nfi, l->revert, 1);
		}
	} else if (rc >= 0) {
		rc = minimize(sr, ru, fcand, nfcand, pred_revert, out, &nout, l->revert);
	}
	if (rc == 0 && sr->deps)
		rc = narrow_needs(sr, ru, fcand, nfcand, out, &nout, l->revert, 1);
	free(finducing);
	int coarse = rc == DD_STOP && sr->coarse;
	sr->coarse_search = sr->coarse = 0;
	if (coarse)
		ex_event(x, "FIX_COARSE", together ? "the failure-inducing changes only work together: reverting them is "
			 "the fix, not narrowed" : "reverting part of the fix failed otherwise too often: the smallest "
			 "reversion that passed stands, not narrowed further");
	l->coarse = coarse;
	if (rc == DD_STOP) {
		*stopped = !coarse;
		bits_free(l->causes);
		l->causes = bits_dup(l->revert);
		rc = 0;
	} else if (rc >= 0) {
		rc = split_fix(sr, out, nout, l->causes, l->aux);
		if (rc == 1 && u->tokens)
			add_tied_pieces(sr, l->causes, l->aux, 1);
		if (rc == 1) {
			/* What the dependences reverted along with the fix is
			 * what its reversion needs to build: auxiliary (at token
			 * level, the whole changes its named pieces bring). */
			struct bits *b = bits_new(sr->s->natoms);
			bits_fill(b);
			for (size_t a = 0; a < sr->s->natoms; a++)
				if (bits_test(l->causes, a) || bits_test(l->aux, a))
					bits_clear(b, a);
			sr_close_config(sr, b, 1);
			for (size_t a = 0; a < sr->s->natoms; a++)
				if (!bits_test(b, a) && !bits_test(l->causes, a))
					bits_set(l->aux, a);
			bits_free(b);
			/* A cause whose block (deps.h) is partly auxiliary was
			 * never told from its block mates: no reversion takes one
			 * without the others. The fix is the blocks whole, and the
			 * token level may tell their pieces apart. */
			if (!u->tokens && straddles_block(sr, l->causes)) {
				for (size_t a = 0; a < sr->s->natoms; a++)
					if (bits_test(l->aux, a) || bits_test(l->causes, a))
						bits_set(l->revert, a);
				bits_zero(l->causes);
				bits_zero(l->aux);
				rc = 0;
			}
		}
	}
	sr->u = u;
	free(rcand);
	if (u->member)
		units_release(&cu1);
	if (*stopped)
		goto out;
	if (rc == DD_STOP) {
		*stopped = 1;
		rc = 0;
	}
	if (rc < 0)
		goto out;
	l->split = rc == 1;
	buf_reset(&d);
	describe_atoms(sr->s, l->split ? l->causes : l->revert, 0, &d);
	buf_adds(&d, " makes the test pass (auxiliary: ");
	describe_atoms(sr->s, l->aux, 0, &d);
	buf_adds(&d, l->split ? ")" : rewrites_only(sr, l->revert) ? "; a rewritten function's hunks, taken whole)"
			 : l->coarse ? "; its parts apart fail otherwise, taken whole)"
								   : "; causes and build needs cannot be told apart here)");
	ex_event(x, "FIX_FOUND", "fix%s: reverting %s", lvl, d.s);
	rc = 0;
out:
	free(out);
	buf_release(&d);
	return rc;
}

/* Keep the changes being searched in the session, one JSON object each. */
static int store_changes(struct explain *x, const struct change_set *s, struct cerr *e)
{
	static const char *const kinds[] = {"hunk", "file added", "file deleted", "file renamed",
					    "mode changed", "binary file changed"};
	char **ids = xcalloc(s->nchanges + 1, sizeof(*ids)), **json = xcalloc(s->nchanges + 1, sizeof(*json));
	for (size_t i = 0; i < s->nchanges; i++) {
		const struct change *c = &s->changes[i];
		const struct change_file *f = &s->files[c->file];
		struct buf b = BUF_INIT;
		ids[i] = xasprintf("%u", c->id);
		const char *from = x->change_commit && x->change_commit[i][0] ? x->change_commit[i] : s->new_rev;
		buf_addf(&b, "{\"id\": \"%u\", \"kind\": \"%s\", \"commit\": \"%s\", \"file\": ", c->id, kinds[c->kind],
			 from);
		json_str(&b, f->new_path);
		buf_adds(&b, ", \"old_file\": ");
		json_str(&b, f->old_path);
		buf_adds(&b, ", \"function\": ");
		json_str(&b, c->function ? c->function : "");
		buf_addf(&b, ", \"old_start\": %d, \"old_lines\": %d, \"new_start\": %d, \"new_lines\": %d, \"pieces\": %zu}",
			 c->old_start, c->old_lines, c->new_start, c->new_lines, c->natoms);
		json[i] = buf_detach(&b);
	}
	int rc = store_changes_put(x->p->store, x->p->session, (const char *const *)ids, (const char *const *)json,
				   s->nchanges, e);
	for (size_t i = 0; i < s->nchanges; i++) {
		free(ids[i]);
		free(json[i]);
	}
	free(ids);
	free(json);
	return rc;
}

/* In a range that bisection could not narrow (untestable commits), each
 * change is the commit's that introduced its lines: blame over the range. */
static void attribute_changes(struct explain *x, const struct change_set *s)
{
	size_t n = x->hi - x->lo;   /* the candidates commits[lo+1 .. hi] */
	char(*cc)[41] = xcalloc(s->nchanges + 1, sizeof(*cc));
	for (size_t c = 0; c < s->nchanges; c++) {
		const struct change *ch = &s->changes[c];
		const struct change_file *f = &s->files[ch->file];
		const char *removed = "";
		size_t rlen = 0;
		if (ch->kind == CHANGE_HUNK && ch->new_lines == 0 && f->old_data) {
			const struct change_atom *a0 = &s->atoms[ch->atom0], *a1 = &s->atoms[ch->atom0 + ch->natoms - 1];
			removed = f->old_data + a0->old_off;
			rlen = a1->old_end - a0->old_off;
		}
		long k = ch->kind == CHANGE_HUNK || ch->kind == CHANGE_FILE_ADD
				 ? repo_introduced(x->p->repo, (const char(*)[41])(x->commits + x->lo + 1), n,
						   x->commits[x->hi], f->new_path,
						   ch->kind == CHANGE_HUNK ? ch->new_start : 1,
						   ch->kind == CHANGE_HUNK ? ch->new_lines : 1, removed, rlen)
				 : -1;
		if (k >= 0)
			memcpy(cc[c], x->commits[x->lo + 1 + (size_t)k], 41);
	}
	ex_lock(x);
	free(x->change_commit);
	x->change_commit = cc;
	ex_unlock(x);
}

const char *explain_change_commit(const struct explain *x, size_t change)
{
	const char *culprit = explain_culprit_commit(x);
	if (culprit || !x->change_commit || !x->change_commit[change][0])
		return culprit;
	return x->change_commit[change];
}

/* The culprit commit's changes become the model's; 1 when there are none. */
int ex_search_begin(struct explain *x, struct cerr *e)
{
	struct change_set *s = x->p->full;
	if (strcmp(x->commits[x->lo], x->good) || strcmp(x->commits[x->hi], x->bad)) {
		if (repo_diff(x->p->repo, x->commits[x->lo], x->commits[x->hi], &s, e) < 0)
			return -1;
	}
	ex_lock(x);
	x->set = s;
	x->marks = xcalloc(s->nchanges + 1, sizeof(*x->marks));
	ex_unlock(x);
	if (!x->unrelated && x->hi > x->lo + 1)
		attribute_changes(x, s);
	if (!x->opts.replay && store_changes(x, s, e) < 0)
		return -1;
	if (s->nchanges == 0) {
		x->note = xstrdup("the culprit commit changes no file");
		return 1;
	}
	return 0;
}

/* Whether reverting atoms and extra from bad is a configuration tested
 * already (its outcome known without a build). */
static int tested_reverted(const struct explain *x, const struct change_set *s, const struct bits *atoms,
			   const struct bits *extra)
{
	struct bits *b = bits_new(s->natoms);
	bits_fill(b);
	for (size_t a = 0; a < s->natoms; a++)
		if (bits_test(atoms, a) || bits_test(extra, a))
			bits_clear(b, a);
	char key[41];
	config_key(s, b, key);
	bits_free(b);
	return key_tested(x, key);
}

/* Test the configuration that proves a set: `atoms` (with `extra`, what
 * it needs to build) applied to good (want FAIL) or reverted from bad (want
 * PASS); usually a configuration the search tested already. 1 when it
 * proves the set (its key and label kept in l), 0 when not, <0 aborted. */
static int prove_as(struct search *sr, const struct bits *atoms, struct bits *extra, int revert_view, int closed,
		    struct explain_list *l)
{
	struct explain *x = sr->x;
	struct bits *b = bits_dup(atoms);
	bits_or(b, extra);
	if (revert_view) {
		struct bits *all = bits_new(sr->s->natoms);
		bits_fill(all);
		for (size_t a = 0; a < sr->s->natoms; a++)
			if (bits_test(b, a))
				bits_clear(all, a);
		bits_free(b);
		b = all;
	}
	if (closed) {
		/* A hunk-level set is proved as the search tested it: with
		 * what its dependences and compiler-error repair brought
		 * along, which is then auxiliary. */
		struct search hs = *sr;
		hs.u = NULL;
		hs.pool = NULL;
		int v = revert_view ? sr_test_revert_repaired(&hs, b, NULL) : sr_test_repaired(&hs, b);
		if (v == DD_STOP)
			v = 0;
		if (v < 0) {
			bits_free(b);
			return v;
		}
		for (size_t a = 0; a < sr->s->natoms; a++)
			if (bits_test(b, a) != revert_view && !bits_test(atoms, a))
				bits_set(extra, a);
	}
	struct buf label = BUF_INIT;
	struct outcome o;
	config_label(sr->s, b, revert_view, &label);
	int rc = test_config(x, sr->s, b, label.s, &o, &x->p->err);
	buf_release(&label);
	bits_free(b);
	if (rc == DD_STOP)
		return 0;   /* the budget is spent: nothing new can prove it */
	if (rc < 0)
		return rc;
	int want = revert_view ? VERDICT_PASS : VERDICT_FAIL;
	rc = o.verdict == want;
	if (rc) {
		memcpy(l->proof_key, o.key, 41);
		free(l->proof_label);
		l->proof_label = xstrdup(o.label ? o.label : "");
		l->proof_verdict = o.verdict;
	}
	outcome_release(&o);
	return rc;
}

static int prove(struct search *sr, const struct bits *atoms, struct bits *extra, int revert_view,
		 struct explain_list *l)
{
	return prove_as(sr, atoms, extra, revert_view, !sr->x->refined, l);
}

/* Other fixes. When the failure needs several changes together, reverting
 * another of them alone may pass too, and the developers' own fix may be
 * that one (vifm 7f32f8a: #2 and #5 fail only together, #2 was found, they
 * fixed #5). When the failure-inducing changes are a few
 * (OTHER_FIXES_MAX at most: more are most often each other's build
 * needs, as QCBOR 2296db5's 16, none passing alone), each with no part in
 * the fix is reverted whole from bad with what it needs to build; those
 * that pass are kept in *out (*nout), each with the configuration that
 * proves it. 0, or <0 aborted. */
#define OTHER_FIXES_MAX 4
static int other_fixes(struct search *sr, const struct bits *ind, const struct bits *fix, struct explain_list **out,
		       size_t *nout)
{
	const struct change_set *s = sr->s;
	size_t inducing = 0;
	for (size_t c = 0; c < s->nchanges; c++)
		inducing += (size_t)sr_change_touched(&s->changes[c], ind, 1);
	if (inducing > OTHER_FIXES_MAX)
		return 0;
	int rc = 0;
	for (size_t c = 0; c < s->nchanges && rc >= 0; c++) {
		const struct change *ch = &s->changes[c];
		int in = 0, fixes = 0;
		for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++) {
			in |= bits_test(ind, a);
			fixes |= bits_test(fix, a);
		}
		if (!in || fixes)
			continue;
		struct bits *atoms = bits_new(s->natoms), *extra = bits_new(s->natoms);
		for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
			bits_set(atoms, a);
		struct explain_list proof = {0};
		rc = prove_as(sr, atoms, extra, 1, 1, &proof);
		if (rc == 1) {
			struct buf d = BUF_INIT;
			describe_atoms(s, atoms, 0, &d);
			ex_event(sr->x, "OTHER_FIX", "another fix: reverting %s alone passes too", d.s);
			buf_release(&d);
			struct explain_list l = {0};
			to_items(s, atoms, &l);
			memcpy(l.proof_key, proof.proof_key, sizeof(l.proof_key));
			l.proof_label = proof.proof_label;
			l.proof_verdict = proof.proof_verdict;
			proof.proof_label = NULL;
			*out = xrealloc(*out, (*nout + 1) * sizeof(**out));
			(*out)[(*nout)++] = l;
		}
		ex_list_release(&proof);
		bits_free(atoms);
		bits_free(extra);
	}
	return rc < 0 ? rc : 0;
}

/* A set whose changes only declare (a prototype, a typedef, a local
 * without a value) has no behaviour of its own: the changes its proof took
 * along (aux) that define or use what they declare join it, as causes and
 * build needs that cannot be told apart (libxml2's new function's
 * prototype had been named alone, its definition among 52 auxiliary
 * changes). */
static void with_declared(const struct change_set *s, const struct deps *d, struct bits *set, const struct bits *aux)
{
	if (!bits_count(set))
		return;
	struct buf names = BUF_INIT;
	int only = 1;
	for (size_t c = 0; c < s->nchanges && only; c++)
		if (sr_change_touched(&s->changes[c], set, 1))
			only = deps_declaration_change(s, c, &names);
	size_t *inv = xmalloc((s->nchanges + 1) * sizeof(*inv));
	for (size_t off = 0; only && off < names.len; off += strlen(names.s + off) + 1) {
		size_t n = deps_involving(d, names.s + off, inv);
		for (size_t k = 0; k < n; k++) {
			const struct change *g = &s->changes[inv[k]];
			for (size_t a = g->atom0; a < g->atom0 + g->natoms; a++)
				if (bits_test(aux, a))
					bits_set(set, a);
		}
	}
	free(inv);
	buf_release(&names);
}

/* An answer: the sets and what each needs to build in its proof. */
struct answer {
	struct bits *ind, *ind_aux;   /* applied to good: FAIL */
	struct bits *fix, *fix_aux;   /* reverted from bad: PASS */
};

static void answer_init(struct answer *a, size_t natoms)
{
	a->ind = bits_new(natoms);
	a->ind_aux = bits_new(natoms);
	a->fix = bits_new(natoms);
	a->fix_aux = bits_new(natoms);
}

static void answer_release(struct answer *a)
{
	bits_free(a->ind);
	bits_free(a->ind_aux);
	bits_free(a->fix);
	bits_free(a->fix_aux);
}

/* The hunk-level fix of level l. */
static void answer_fix_of_hunks(struct answer *a, const struct level *l)
{
	bits_zero(a->fix);
	bits_zero(a->fix_aux);
	bits_or(a->fix, l->split ? l->causes : l->revert);
	if (l->split)
		bits_or(a->fix_aux, l->aux);
}

/* The hunk-level answer of level l. */
static void answer_of_hunks(struct answer *a, const struct level *l)
{
	bits_zero(a->ind);
	bits_zero(a->ind_aux);
	bits_or(a->ind, l->inducing);
	bits_or(a->ind_aux, l->repair);
	answer_fix_of_hunks(a, l);
}

/* The fix as the revert search found it, before it was split into causes
 * and build needs: the configuration it tested. */
static void answer_fix_whole(struct answer *a, const struct level *l)
{
	bits_zero(a->fix);
	bits_zero(a->fix_aux);
	bits_or(a->fix, l->revert);
}

/* The unchanged files of a set's new tree that its changed files may read
 * for names made by token pasting (deps_source_of). */
struct sources {
	const struct change_set *s;
	struct deps_source *v;
	size_t n;
};

static int source_cb(void *priv, const char *path, unsigned mode, const char *data, size_t len)
{
	struct sources *ss = priv;
	if (mode == 0160000)
		return 0;   /* a submodule: its commit id, no source */
	if (!deps_source_of(path, data, len))
		return 0;
	for (size_t f = 0; f < ss->s->nfiles; f++)
		if (!strcmp(ss->s->files[f].new_path, path) || !strcmp(ss->s->files[f].old_path, path))
			return 0;
	char *copy = xmalloc(len + 1);
	memcpy(copy, data, len);
	copy[len] = '\0';
	ss->v = xrealloc(ss->v, (ss->n + 1) * sizeof(*ss->v));
	ss->v[ss->n++] = (struct deps_source){copy, len};
	return 0;
}

/* The dependences of set s (deps.h), with the unchanged files that paste
 * tokens; a tree that cannot be read leaves those out. */
static void search_deps(struct explain *x, const struct change_set *s, struct deps *d)
{
	struct sources ss = {s, NULL, 0};
	struct cerr e;
	(void)repo_tree_walk_some(x->p->repo, s->new_rev, deps_reads, source_cb, &ss, &e);
	deps_compute(s, ss.v, ss.n, d);
	for (size_t k = 0; k < ss.n; k++)
		free((char *)ss.v[k].data);
	free(ss.v);
}

/* The change search over the model's changes (after change interaction,
 * whose groups it keeps together). */
/* Order the hunk-level units (all, nall: every unit of cu) so that what a
 * unit needs to build comes before it (deps_order). The search keeps the
 * shortest prefix that fails; in this order a prefix is its own closure,
 * and the unit it ends on is the bottom of a chain of needs, not the
 * removed declaration whose removal brings the cause along. */
static void needs_first(const struct deps *dp, const struct units *cu, const size_t *first, size_t *all, size_t nall)
{
	size_t nc = dp->nchanges;
	long *unit_of = xmalloc((nc + 1) * sizeof(*unit_of));
	for (size_t c = 0; c < nc; c++)
		unit_of[c] = -1;
	for (size_t u = 0; u < cu->n; u++)
		for (size_t c = 0; c < nc; c++)
			if (c == first[u] || (dp->group[c] >= 0 && dp->group[c] == (long)first[u]))
				unit_of[c] = (long)u;
	deps_order(dp, unit_of, cu->n, all, nall, NULL, 0, 0);
	free(unit_of);
}

/* A hunk-level failure-inducing set holds dependence groups whole: a
 * group's ties go both ways, though a change in it may need none of the
 * others (a function retired for a deprecated wrapper, its callers moved
 * to other functions: each caller moved alone builds; lighttpd's
 * buffer_string_set_length had three callers named for one). When the
 * fix's causes are part of such a group, they are applied alone with what
 * they need, those groups taken apart (one configuration): if that fails,
 * it is the failure-inducing set, the needs as what it needs to build,
 * and the groups stay apart for the proofs. 0, or <0 aborted. */
static int narrow_groups(struct search *sr, struct level *l)
{
	const struct change_set *s = sr->s;
	const struct deps *d = sr->deps;
	if (!d || !l->split || !bits_count(l->causes))
		return 0;
	for (size_t a = 0; a < s->natoms; a++)
		if (bits_test(l->causes, a) && !bits_test(l->inducing, a))
			return 0;   /* the fix reaches beyond the failure-inducing set */
	struct bits *apart = bits_new(s->nchanges);
	for (size_t c = 0; c < s->nchanges; c++)
		if (d->group[c] >= 0 && sr_change_touched(&s->changes[c], l->causes, 1) &&
		    !bits_test(sr->whole_group, (size_t)d->group[c]))
			bits_set(apart, (size_t)d->group[c]);
	struct bits *pool = bits_dup(l->inducing);
	bits_or(pool, l->repair);
	struct bits *b = bits_dup(l->causes);
	struct bits *saved = sr->groups_apart;
	const struct bits *saved_pool = sr->pool;
	const struct units *saved_u = sr->u;
	sr->groups_apart = apart;
	sr->pool = pool;
	sr->u = NULL;
	sr_close_config(sr, b, 0);
	/* Worth a build only when it leaves out part of such a group (a
	 * whole unit left out was tried by the search already). */
	int cut = 0;
	for (size_t c = 0; c < s->nchanges && !cut; c++)
		cut = d->group[c] >= 0 && bits_test(apart, (size_t)d->group[c]) &&
		      sr_change_touched(&s->changes[c], l->inducing, 1) && !sr_change_touched(&s->changes[c], b, 1);
	int rc = 0;
	if (cut && !sr_passed_holds(sr, b)) {
		int v = sr_test_repaired(sr, b);
		if (v == VERDICT_FAIL) {
			struct buf desc = BUF_INIT;
			describe_atoms(s, l->causes, 0, &desc);
			ex_event(sr->x, "NARROW", "failure-inducing: %s, with what it needs, its dependence group "
				 "taken apart", desc.s);
			buf_release(&desc);
			bits_zero(l->inducing);
			bits_or(l->inducing, l->causes);
			bits_zero(l->repair);
			for (size_t a = 0; a < s->natoms; a++)
				if (bits_test(b, a) && !bits_test(l->causes, a))
					bits_set(l->repair, a);
			bits_free(saved);
			saved = apart;
			apart = NULL;
		} else if (v < 0 && v != DD_STOP) {
			rc = v;
		}
	}
	sr->groups_apart = saved;
	sr->pool = saved_pool;
	sr->u = saved_u;
	bits_free(apart);
	bits_free(pool);
	bits_free(b);
	return rc;
}

/* The hunk-level fix, when still to be searched (*pending), with the
 * failure-inducing set narrowed to what the fix's causes need. 0, or <0
 * aborted. */
static int hunk_fix(struct search *sr, const struct units *cu, const size_t *all, size_t nall, struct level *hl,
		    int *stopped, int *pending)
{
	if (!*pending)
		return 0;
	*pending = 0;
	int rc = level_fix(sr->x, sr, cu, all, nall, hl, stopped);
	if (rc >= 0 && !*stopped)
		rc = narrow_groups(sr, hl);
	return rc;
}

/* Whether the token level will take the hunk-level failure-inducing set
 * apart whatever the fix: a change in it has pieces to tell apart, and the
 * failure needed more than the set (what the dependences or repair brought
 * along; see ex_search_changes), or the set is one block of hunks, which
 * a hunk-level fix reverts whole, its causes and build needs not told
 * apart (htop's getopt string and its long options' table). Then the fix
 * is searched first among the token level's failure-inducing pieces, and
 * among the hunks only when their reversion does not pass or the token
 * level's answer does not stand: the build that proved the hunk-level fix
 * is saved when it does. */
static int refine_first(struct search *sr, const struct units *cu, const struct level *hl)
{
	const struct change_set *s = sr->s;
	int splittable = 0;
	for (size_t c = 0; c < s->nchanges && !splittable; c++)
		splittable = s->changes[c].natoms > 1 && !sr_one_piece(sr, c) && bits_test(hl->inducing, s->changes[c].atom0);
	long block = -2;
	size_t held = 0;
	for (size_t c = 0; sr->deps && c < s->nchanges; c++)
		if (sr_change_touched(&s->changes[c], hl->inducing, 1)) {
			held++;
			block = block == -2 || block == sr->deps->block[c] ? sr->deps->block[c] : -1;
		}
	int one_block = held >= 2 && block >= 0;
	if (!splittable || !(bits_count(hl->repair) || one_block))
		return 0;
	struct bits *ind, *rev;
	token_pools(sr, cu, hl, 1, &ind, &rev);
	bits_or(ind, rev);
	int ok = bits_count(ind) <= REFINE_MAX_ATOMS;
	bits_free(ind);
	bits_free(rev);
	return ok;
}

int ex_search_changes(struct explain *x, struct cerr *e)
{
	const struct change_set *s = x->set;
	struct units cu, au;
	/* Hunks that only build together (a declaration and its uses) are one unit. */
	struct deps dp;
	search_deps(x, s, &dp);
	if (dp.ngroups)
		ex_event(x, "DEPENDENCES", "%zu of %zu changes in %zu group%s that only build or run together "
			 "(names declared and used, brackets paired, statements moved)", dp.linked, s->nchanges, dp.ngroups, dp.ngroups == 1 ? "" : "s");
	size_t nu = 0, *first = xmalloc((s->nchanges + 1) * sizeof(*first));
	units_init(&cu, s->nchanges - dp.linked + dp.ngroups);
	cu.member = xcalloc(cu.n + 1, sizeof(*cu.member));
	cu.nmember = xcalloc(cu.n + 1, sizeof(*cu.nmember));
	for (size_t c = 0; c < s->nchanges; c++) {
		if (dp.group[c] >= 0 && (size_t)dp.group[c] != c)
			continue;   /* in its group's unit */
		first[nu] = c;
		cu.start[nu] = s->changes[c].atom0;
		cu.len[nu] = s->changes[c].natoms;
		cu.member[nu] = xmalloc(2 * (s->nchanges + 1) * sizeof(**cu.member));
		for (size_t k = c; k < s->nchanges; k++)
			if (k == c || (dp.group[c] >= 0 && dp.group[k] == dp.group[c])) {
				cu.member[nu][2 * cu.nmember[nu]] = s->changes[k].atom0;
				cu.member[nu][2 * cu.nmember[nu]++ + 1] = s->changes[k].natoms;
			}
		nu++;
	}
	units_init(&au, s->natoms);
	au.tokens = 1;
	for (size_t a = 0; a < s->natoms; a++) {
		au.start[a] = a;
		au.len[a] = 1;
	}
	size_t *all = xmalloc((nu + 1) * sizeof(*all)), nall = 0;
	char *placed = xcalloc(nu + 1, 1);
	/* Interacting changes next to each other, in one partition where it costs nothing (border). */
	for (size_t u = 0; u < nu; u++) {
		if (placed[u])
			continue;
		long g = x->interacted ? x->interact.group[first[u]] : -1;
		all[nall++] = u;
		placed[u] = 1;
		for (size_t k = u + 1; g >= 0 && k < nu; k++)
			if (!placed[k] && x->interact.group[first[k]] == g) {
				all[nall++] = k;
				placed[k] = 1;
			}
	}
	free(placed);
	needs_first(&dp, &cu, first, all, nall);
	free(first);

	struct passed passed = {0};
	struct learnt repaired;
	sr_learnt_init(&repaired, &dp);
	struct search sr = {.x = x, .s = s, .deps = &dp, .passed = &passed, .learnt = &repaired, .whole_file = bits_new(s->nfiles),
			    .whole_group = bits_new(s->nchanges)};
	struct level hl, tl;
	struct answer ans;
	struct bits *ind = NULL, *fix = NULL, *ind_pool = NULL, *rev_pool = NULL;
	int stopped = 0, rc;
	level_init(&hl, s->natoms);
	level_init(&tl, s->natoms);
	answer_init(&ans, s->natoms);

	rc = level_inducing(x, &sr, &cu, all, nall, &hl, &stopped);
	int fix_pending = rc >= 0 && !stopped;
	if (fix_pending && !refine_first(&sr, &cu, &hl))
		rc = hunk_fix(&sr, &cu, all, nall, &hl, &stopped, &fix_pending);
	if (rc < 0)
		goto out;
	answer_of_hunks(&ans, &hl);

	/* Hunks that cannot be told apart (the fix needs auxiliary changes, or
	 * the failure needs more than the fix): go to token level inside them. */
	int splittable = 0;
	for (size_t c = 0; c < s->nchanges; c++)
		if (s->changes[c].natoms > 1 && !sr_one_piece(&sr, c) &&
		    (bits_test(hl.inducing, s->changes[c].atom0) || bits_test(hl.revert, s->changes[c].atom0)))
			splittable = 1;
	/* The failure needing more than the fix is no reason when the more is
	 * the rest of the causes' dependence groups (pieces of a group do not
	 * build apart: a commit that reshapes code, one wrong line in it) and
	 * no cause has pieces to tell apart. */
	struct bits *cause_units = bits_new(s->natoms);
	for (size_t u = 0; u < cu.n; u++) {
		int has = 0;
		for (size_t k = 0; k < cu.nmember[u] && !has; k++)
			for (size_t a = cu.member[u][2 * k]; a < cu.member[u][2 * k] + cu.member[u][2 * k + 1] && !has; a++)
				has = bits_test(hl.causes, a);
		if (has)
			units_add_atoms(&cu, &u, 1, cause_units, 1);
	}
	int cause_pieces = 0;
	for (size_t c = 0; c < s->nchanges; c++)
		if (s->changes[c].natoms > 1 && !sr_one_piece(&sr, c) && bits_test(hl.causes, s->changes[c].atom0))
			cause_pieces = 1;
	/* What the dependences or repair brought along to build the
	 * failure-inducing changes is a reason too: a piece may do without it. */
	int entangled = !hl.split || bits_count(hl.aux) > 0 || bits_count(hl.repair) > 0 ||
			(!bits_equal(hl.inducing, hl.causes) && (cause_pieces || !bits_equal(hl.inducing, cause_units)));
	/* So is a file or group the search learnt to take whole: its hunks
	 * were never told apart (and a fix split over it is no split). */
	int learnt = 0;
	for (size_t c = 0; c < s->nchanges; c++) {
		const struct change *ch = &s->changes[c];
		int whole = bits_test(sr.whole_file, ch->file) ||
			    (dp.group[c] >= 0 && bits_test(sr.whole_group, (size_t)dp.group[c]));
		learnt |= whole && bits_test(hl.revert, ch->atom0);
		entangled |= whole && (bits_test(hl.inducing, ch->atom0) || bits_test(hl.revert, ch->atom0));
	}
	bits_free(cause_units);
	/* Token pieces of large rewrites mostly give configurations that do not
	 * build: past a budget, the hunk-level answer is the answer. */
	token_pools(&sr, &cu, &hl, fix_pending, &ind_pool, &rev_pool);
	struct bits *both = bits_dup(ind_pool);
	bits_or(both, rev_pool);
	size_t pieces = bits_count(both);
	bits_free(both);
	/* Changes whose parts apart failed otherwise: their pieces would,
	 * more so. */
	if (splittable && entangled && !stopped && hl.coarse) {
		ex_event(x, "REFINE_SKIPPED", "not refined to tokens: the fix's parts fail otherwise apart");
		splittable = 0;
	}
	if (splittable && entangled && !stopped && pieces > REFINE_MAX_ATOMS) {
		ex_event(x, "REFINE_SKIPPED", "not refined to tokens: %zu pieces is more than %d", pieces, REFINE_MAX_ATOMS);
		splittable = 0;
	}
	if (splittable && entangled && !stopped) {
		size_t ni, nr;
		size_t *ic = bits_list(ind_pool, &ni), *rc_ = bits_list(rev_pool, &nr);
		sr.token_start = x->nconfigs;
		sr.token_apart = bits_new(s->nchanges);
		sr.token_block = bits_new(s->nchanges);
		sr.token_tied = bits_new(s->natoms);
		sr.token_tie = xmalloc((s->natoms + 1) * sizeof(*sr.token_tie));
		for (size_t a = 0; a < s->natoms; a++)
			sr.token_tie[a] = a;
		for (size_t c = 0; c < s->nchanges; c++)
			if (sr_change_touched(&s->changes[c], hl.inducing, 1) && !dp.rewrite[c])
				bits_set(sr.token_apart, c);
		sr.token_named = bits_new(s->natoms);
		for (size_t c = 0; c < s->nchanges; c++)
			for (size_t a = s->changes[c].atom0; bits_test(sr.token_apart, c) &&
			     a < s->changes[c].atom0 + s->changes[c].natoms; a++)
				if (sr_piece_names(s, a, dp.names[c]) || sr_piece_names(s, a, dp.uses[c]))
					bits_set(sr.token_named, a);
		sr.token_bracketed = bits_new(s->natoms);
		for (size_t c = 0; c < s->nchanges; c++)
			for (size_t a = s->changes[c].atom0; bits_test(sr.token_apart, c) &&
			     a < s->changes[c].atom0 + s->changes[c].natoms; a++)
				if (sr_piece_bracketed(s, a))
					bits_set(sr.token_bracketed, a);
		for (size_t c = 0; c < s->nchanges; c++)   /* a rewrite is one piece */
			for (size_t a = s->changes[c].atom0 + 1; sr_one_piece(&sr, c) && a < s->changes[c].atom0 + s->changes[c].natoms; a++)
				sr.token_tie[sr_tie_root(sr.token_tie, a)] = sr_tie_root(sr.token_tie, s->changes[c].atom0);
		for (size_t c = 0; c < s->nchanges; c++)
			if (bits_test(sr.token_apart, c) && !sr_one_piece(&sr, c))
				sr_tie_declarations(&sr, c);
		/* Each change's pieces tied into one (a new local and its uses,
		 * a declaration moved): nothing to take apart. */
		int apart = 0;
		for (size_t c = 0; c < s->nchanges && !apart; c++)
			for (size_t a = s->changes[c].atom0 + 1; bits_test(sr.token_apart, c) && !apart &&
			     a < s->changes[c].atom0 + s->changes[c].natoms; a++)
				apart = sr_tie_root(sr.token_tie, a) != sr_tie_root(sr.token_tie, s->changes[c].atom0);
		if (!apart)
			ex_event(x, "REFINE_SKIPPED", "not refined to tokens: the pieces of each change only build together");
		rc = apart ? level_inducing(x, &sr, &au, ic, ni, &tl, &stopped) : TOKENS_DROPPED;
		int fix_searched = rc >= 0 && !stopped;
		if (fix_searched)
			rc = level_fix(x, &sr, &au, rc_, nr, &tl, &stopped);
		if (rc == TOKENS_DROPPED && fix_searched && tl.unfixed && fix_pending) {
			/* The failure-inducing pieces, reverted, do not make the
			 * fix: it is searched among the hunks, then its pieces. */
			rc = hunk_fix(&sr, &cu, all, nall, &hl, &stopped, &fix_pending);
			bits_free(ind_pool);
			bits_free(rev_pool);
			token_pools(&sr, &cu, &hl, 0, &ind_pool, &rev_pool);
			free(rc_);
			rc_ = bits_list(rev_pool, &nr);
			if (rc >= 0 && !stopped)
				rc = level_fix(x, &sr, &au, rc_, nr, &tl, &stopped);
		}
		free(ic);
		free(rc_);
		if (rc == TOKENS_DROPPED) {
			if (apart)
				ex_event(x, "REFINE_DROPPED", "the token pieces do not build or fail apart as their hunks "
					 "do: the hunk-level answer stands");
			rc = 0;
			goto proofs;
		}
		if (rc < 0)
			goto out;
		/* No configuration took a hunk in part (each piece brought the
		 * rest of its hunk with it, as a retyped declaration its
		 * uses): the pieces tell nothing the hunks did not. */
		if (!sr.token_split) {
			ex_event(x, "REFINE_DROPPED", "no configuration took a hunk in part: the hunk-level answer stands");
			rc = 0;
			goto proofs;
		}
		bits_zero(ans.ind);
		bits_zero(ans.ind_aux);
		bits_or(ans.ind, tl.inducing);
		sr_close_token_blocks(&sr, ans.ind, 0);
		/* What the answer's blocks hold (a declaration moved: both its
		 * places) is the answer, not what it needs to build. */
		sr_close_deps(&sr, ans.ind, 0, 1);
		bits_or(ans.ind_aux, tl.repair);   /* what the dependences brought (no repair at token level) */
		for (size_t a = 0; a < s->natoms; a++)
			if (bits_test(ans.ind, a))
				bits_clear(ans.ind_aux, a);
		if (tl.split) {
			/* When the hunk-level fix only built as a whole, what it
			 * carried beyond the token-level causes is what the build
			 * needs with them: auxiliary. */
			bits_zero(ans.fix);
			bits_or(ans.fix, tl.causes);
			bits_zero(ans.fix_aux);
			if (!hl.split || learnt)
				bits_or(ans.fix_aux, hl.revert);
			bits_or(ans.fix_aux, hl.aux);
			bits_or(ans.fix_aux, tl.aux);
		} else if (fix_pending) {
			/* Not split at token level: the hunk level's fix, as
			 * when it is searched first. */
			rc = hunk_fix(&sr, &cu, all, nall, &hl, &stopped, &fix_pending);
			if (rc < 0)
				goto out;
			answer_fix_of_hunks(&ans, &hl);
		}
		sr_close_deps(&sr, ans.fix, 0, 1);   /* a cause's block mates: causes too */
		for (size_t a = 0; a < s->natoms; a++)
			if (bits_test(ans.fix, a))
				bits_clear(ans.fix_aux, a);
		x->refined = 1;
	}

proofs:
	if (fix_pending && !x->refined) {   /* the token level's answer did not stand */
		rc = hunk_fix(&sr, &cu, all, nall, &hl, &stopped, &fix_pending);
		if (rc < 0)
			goto out;
		answer_of_hunks(&ans, &hl);
	}
	/* Every set is reported with the tested configuration that proves it;
	 * a token-level answer that no configuration proves (its pieces fail
	 * only otherwise) gives way to the hunk-level one. */
	struct explain_list pind = {0}, pfix = {0};
	int ok_ind = 0, ok_fix = 0;
	for (int attempt = 0; attempt < 2; attempt++) {
		ok_ind = bits_count(ans.ind) ? prove(&sr, ans.ind, ans.ind_aux, 0, &pind) : 0;
		ok_fix = ok_ind >= 0 && bits_count(ans.fix) ? prove(&sr, ans.fix, ans.fix_aux, 1, &pfix) : 0;
		if (ok_fix == 0 && ok_ind >= 0 && !x->refined && hl.split && bits_count(hl.revert)) {
			/* Split into causes and build needs, nothing proves it:
			 * the fix as found, the configuration its search tested. */
			answer_fix_whole(&ans, &hl);
			ok_fix = prove(&sr, ans.fix, ans.fix_aux, 1, &pfix);
		}
		if (ok_fix == 0 && ok_ind >= 0 && x->refined && tl.split) {
			/* The hunk level's build needs do not build with the
			 * token-level causes (a use renamed back, its new name
			 * kept): what the token level's own search reverted, if
			 * it tested that (no new build for a proof). */
			struct bits *aux = bits_dup(tl.aux);
			for (size_t a = 0; a < s->natoms; a++)
				if (bits_test(ans.fix, a))
					bits_clear(aux, a);
			if (tested_reverted(x, s, ans.fix, aux)) {
				bits_zero(ans.fix_aux);
				bits_or(ans.fix_aux, aux);
				ex_list_release(&pfix);
				ok_fix = prove(&sr, ans.fix, ans.fix_aux, 1, &pfix);
			}
			bits_free(aux);
		}
		if (ok_ind < 0 || ok_fix < 0) {
			rc = ok_ind < 0 ? ok_ind : ok_fix;
			ex_list_release(&pind);
			ex_list_release(&pfix);
			goto out;
		}
		if (!x->refined || (ok_ind && ok_fix))
			break;
		ex_event(x, "REFINE_DROPPED", "the token-level %s is not proved by a tested configuration: "
			 "the hunk-level answer stands", !ok_ind ? "failure-inducing set" : "fix");
		rc = hunk_fix(&sr, &cu, all, nall, &hl, &stopped, &fix_pending);
		if (rc < 0)
			goto out;
		answer_of_hunks(&ans, &hl);
		x->refined = 0;
	}
	/* A hunk-level answer's changes tied both ways to what they need to
	 * build (a deleted source and the build file's line listing it) were
	 * never told apart from them: part of the answer, not its build
	 * needs, as at token level (samurai's build.ninja line had been the
	 * answer alone). The proofs' configurations hold them already. */
	if (!x->refined) {
		const struct units *level = sr.u;
		sr.u = &cu;
		add_tied_pieces(&sr, ans.ind, ans.ind_aux, 0);
		add_tied_pieces(&sr, ans.fix, ans.fix_aux, 1);
		sr.u = level;
	}
	/* Changes the failure needs only to build are auxiliary, not causes:
	 * its own build needs, and the fix's when the fix reverts some of
	 * the failure-inducing changes (what reverting those needs to build,
	 * applying them needs too). A fix among other changes tells nothing
	 * of the failure-inducing ones' needs (c-ares 778d7cd9: the fix's
	 * needs taken away, the rest named as the cause was a block that
	 * passed alone). */
	struct bits *aux = bits_dup(ans.ind_aux);
	int fix_in_ind = 0;
	for (size_t a = 0; a < s->natoms && !fix_in_ind; a++)
		fix_in_ind = bits_test(ans.fix, a) && bits_test(ans.ind, a);
	if (fix_in_ind)
		bits_or(aux, ans.fix_aux);
	ind = bits_dup(ans.ind);
	fix = bits_dup(ans.fix);
	struct bits *causes = bits_dup(ind);
	for (size_t a = 0; a < s->natoms; a++)
		if (bits_test(aux, a))
			bits_clear(causes, a);
	if (bits_count(causes) > 0) {
		bits_free(ind);
		ind = causes;
	} else {
		bits_free(causes);
	}
	/* A declaration alone is no cause: what defines or uses it, taken
	 * along in the set's proof, cannot be told from it. */
	with_declared(s, &dp, ind, ans.ind_aux);
	with_declared(s, &dp, fix, ans.fix_aux);
	/* A set without a configuration that proves it is not reported. */
	if (!ok_ind)
		bits_zero(ind);
	if (!ok_fix) {
		bits_zero(fix);
		bits_zero(ans.fix_aux);
	}
	if (!ok_ind)
		bits_zero(ans.ind_aux);
	bits_zero(aux);
	bits_or(aux, ans.ind_aux);
	bits_or(aux, ans.fix_aux);
	struct explain_list *others = NULL;
	size_t nothers = 0;
	if (ok_ind && ok_fix && !stopped && bits_count(ind) > bits_count(fix)) {
		rc = other_fixes(&sr, ind, fix, &others, &nothers);
		if (rc < 0) {
			for (size_t i = 0; i < nothers; i++)
				ex_list_release(&others[i]);
			free(others);
			bits_free(aux);
			ex_list_release(&pind);
			ex_list_release(&pfix);
			goto out;
		}
	}
	/* A change named as a cause on either side is not listed again as
	 * a build need of the other: a hunk whose piece is a cause shows
	 * its other pieces. The failure-inducing ones the fix's reversion
	 * needs are named with the fix, which does not pass without them. */
	struct bits *ind_needs = bits_new(s->natoms), *fix_needs = bits_new(s->natoms);
	for (size_t a = 0; a < s->natoms; a++) {
		if (bits_test(ans.ind_aux, a) && bits_test(fix, a) && !bits_test(ind, a))
			bits_set(ind_needs, a);
		if (bits_test(ans.fix_aux, a) && bits_test(ind, a) && !bits_test(fix, a))
			bits_set(fix_needs, a);
		if (bits_test(ind, a) || bits_test(fix, a))
			bits_clear(aux, a);
	}
	ex_lock(x);
	to_items(s, ind_needs, &x->ind_needs);
	to_items(s, fix_needs, &x->fix_needs);
	bits_free(ind_needs);
	bits_free(fix_needs);
	to_items(s, ind, &x->inducing);
	to_items(s, fix, &x->fix);
	to_items(s, aux, &x->aux);
	for (size_t i = 0; i < x->nfix_other; i++)
		ex_list_release(&x->fix_other[i]);
	free(x->fix_other);
	x->fix_other = others;
	x->nfix_other = nothers;
	/* The answer as reported, after its proofs: the progress lines before
	 * it told what each search found, which the proofs may have narrowed. */
	struct buf answer = BUF_INIT;
	if (bits_count(ind) || bits_count(fix)) {
		buf_adds(&answer, "answer: failure-inducing ");
		describe_atoms(s, ind, 0, &answer);
		buf_adds(&answer, "; fix: reverting ");
		describe_atoms(s, fix, 0, &answer);
		buf_adds(&answer, "; auxiliary: ");
		describe_atoms(s, aux, 0, &answer);
	}
	const struct explain_list *pr[] = {&pind, &pfix, bits_count(ans.fix_aux) ? &pfix : &pind};
	struct explain_list *dst[] = {&x->inducing, &x->fix, &x->aux};
	for (int i = 0; i < 3; i++)
		if (dst[i]->n && pr[i]->proof_key[0]) {
			memcpy(dst[i]->proof_key, pr[i]->proof_key, 41);
			dst[i]->proof_label = xstrdup(pr[i]->proof_label);
			dst[i]->proof_verdict = pr[i]->proof_verdict;
		}
	bits_free(aux);
	ex_list_release(&pind);
	ex_list_release(&pfix);
	x->explained = x->inducing.n > 0;
	free(x->note);
	x->note = NULL;
	if (stopped) {
		x->note = x->p->stopping == 2
				  ? xasprintf("the budget of %zu configurations (--max-configurations) was spent: these "
					      "sets are the best found so far, not minimal", x->opts.max_configs)
				  : x->p->stopping == 3
				  ? xstrdup("the stored session is not finished (run culprit again to finish it): these "
					    "sets are the best found so far, not minimal")
				  : xstrdup("the search was stopped: these sets are the best found so far, not minimal");
	} else if (!hl.split && !tl.split && hl.coarse) {
		x->note = xstrdup("the changes only work together: their parts applied or reverted apart fail otherwise, so "
				  "the sets are not narrowed to them");
	} else if (!hl.split && !tl.split) {
		x->note = xstrdup("the fix's changes only build together: culprit could not tell causes from build needs");
	}
	if (!ok_ind || !ok_fix) {
		char *more = xasprintf("%s%sno tested configuration proves the %s, so %s not reported", x->note ? x->note : "",
				       x->note ? "; " : "",
				       !ok_ind && !ok_fix ? "failure-inducing changes or the fix"
				       : !ok_ind ? "failure-inducing changes" : "fix",
				       !ok_ind && !ok_fix ? "they are" : "it is");
		free(x->note);
		x->note = more;
	}
	ex_unlock(x);
	if (answer.len)
		ex_event(x, "ANSWER", "%s", answer.s);
	buf_release(&answer);
	ex_finish_marks(x);
	rc = 0;
out:
	if (rc < 0 && rc != ABORT_STOPPED && x->p->err.msg[0])
		cerr_set(e, "%s", x->p->err.msg);
	level_release(&hl);
	level_release(&tl);
	bits_free(x->p->whole_file);   /* kept for the explainer's reversions (ex_revert) */
	bits_free(x->p->whole_group);
	x->p->whole_file = sr.whole_file;
	x->p->whole_group = sr.whole_group;
	for (size_t i = 0; i < passed.n; i++)
		bits_free(passed.b[i]);
	free(passed.b);
	free(passed.reverted);
	sr_learnt_release(&repaired);
	bits_free(sr.token_apart);
	bits_free(sr.token_block);
	bits_free(sr.token_tied);
	free(sr.token_tie);
	free(sr.token_need);
	bits_free(sr.token_named);
	bits_free(sr.token_bracketed);
	bits_free(sr.groups_apart);
	bits_free(ind);
	bits_free(fix);
	bits_free(ind_pool);
	bits_free(rev_pool);
	answer_release(&ans);
	free(all);
	units_release(&cu);
	units_release(&au);
	deps_release(&dp);
	return rc;
}

/* Does reverting units plus sr->reverted pass? (the dynamic round's property) */
static int pred_revert_plus(void *priv, const size_t *units, size_t n)
{
	struct search *sr = priv;
	struct bits *b = bits_new(sr->s->natoms);
	bits_fill(b);
	units_add_atoms(sr->u, sr->reverted, sr->nreverted, b, 0);
	units_add_atoms(sr->u, units, n, b, 0);
	int v = sr_test_atoms(sr, b, 1, NULL);
	bits_free(b);
	return v < 0 ? v : v == VERDICT_PASS ? 1 : v == VERDICT_UNRESOLVED ? 2 : 0;
}

/* The changes the closure of reverting r (and a) adds to a (room for all). */
static void add_closure(struct search *sr, const size_t *r, size_t nr, size_t *a, size_t *na)
{
	const struct change_set *s = sr->s;
	struct bits *b = bits_new(s->natoms), *named = bits_new(s->nchanges);
	bits_fill(b);
	units_add_atoms(sr->u, r, nr, b, 0);
	units_add_atoms(sr->u, a, *na, b, 0);
	for (size_t i = 0; i < nr; i++)
		bits_set(named, r[i]);
	for (size_t i = 0; i < *na; i++)
		bits_set(named, a[i]);
	sr_close_config(sr, b, 1);
	for (size_t c = 0; c < s->nchanges; c++)
		if (!bits_test(named, c) && sr_change_touched(&s->changes[c], b, 0))
			a[(*na)++] = c;
	bits_free(b);
	bits_free(named);
}

/* Alg. 2 of the explainer: the fewest of these changes whose reversion
 * passes, with the auxiliary changes their reversion needs to build. The
 * reversions follow what the change search knows: the dependences, and the
 * files and groups it learnt only build whole. */
int ex_revert(void *priv, const size_t *ch, size_t n, size_t **root, size_t *nroot, size_t **aux,
	      size_t *naux, struct cerr *e)
{
	struct explain *x = priv;
	const struct change_set *s = x->set;
	struct units cu;
	units_init(&cu, s->nchanges);
	for (size_t c = 0; c < s->nchanges; c++) {
		cu.start[c] = s->changes[c].atom0;
		cu.len[c] = s->changes[c].natoms;
	}
	struct deps dp;
	search_deps(x, s, &dp);
	if (!x->p->whole_file) {
		x->p->whole_file = bits_new(s->nfiles);
		x->p->whole_group = bits_new(s->nchanges);
	}
	struct learnt guessed;
	sr_learnt_init(&guessed, &dp);
	struct search sr = {.x = x, .s = s, .u = &cu, .deps = &dp, .learnt = &guessed, .whole_file = x->p->whole_file,
			    .whole_group = x->p->whole_group};
	size_t *others = xmalloc((s->nchanges + 1) * sizeof(*others)), nothers = 0;
	size_t *a = xmalloc((s->nchanges + 1) * sizeof(*a)), na = 0;
	size_t *r = xmalloc((n + 1) * sizeof(*r)), nr = 0;
	for (size_t c = 0; c < s->nchanges; c++) {
		int in = 0;
		for (size_t i = 0; i < n; i++)
			in |= ch[i] == c;
		if (!in)
			others[nothers++] = c;
	}
	x->p->err.msg[0] = '\0';
	int rc = pred_revert(&sr, ch, n);
	if (rc == 3)
		rc = 0;   /* failed otherwise: no fix */
	if (rc == 2 && nothers) {
		/* It does not build: the fewest other changes to revert with it. */
		struct search sub = sr;
		sub.reverted = ch;
		sub.nreverted = n;
		rc = pred_builds(&sub, others, nothers);
		if (rc == 1)
			rc = dd_minimize(others, nothers, pred_builds, &sub, a, &na);
		else if (rc == 0)
			rc = 2;
		if (rc == 0) {
			sr.reverted = a;
			sr.nreverted = na;
			rc = pred_revert_plus(&sr, ch, n);
		}
	}
	if (rc == 1) {
		/* Reverting them passes: the fewest of them that still does. */
		sr.reverted = a;
		sr.nreverted = na;
		rc = n > 1 ? dd_minimize(ch, n, pred_revert_plus, &sr, r, &nr) : 0;
		if (n == 1) {
			r[0] = ch[0];
			nr = 1;
		}
		if (rc == 0 || rc == DD_STOP) {
			add_closure(&sr, r, nr, a, &na);
			*root = r;
			*nroot = nr;
			*aux = a;
			*naux = na;
			r = a = NULL;
			rc = 1;
		}
	} else if (rc == 2) {
		rc = 0;
	}
	if (rc < 0 && x->p->err.msg[0])
		cerr_set(e, "%s", x->p->err.msg);
	else if (rc < 0)
		cerr_set(e, "stopped");
	free(r);
	free(a);
	free(others);
	units_release(&cu);
	sr_learnt_release(&guessed);
	deps_release(&dp);
	return rc < 0 ? -1 : rc;
}

