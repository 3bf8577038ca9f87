/* The change search's builds: what a configuration must hold to build (the
 * dependences' groups and blocks, the ties learnt at token level, the needs
 * learnt from failed builds) and the repair of a configuration from its
 * compiler errors (the changes that declare what the errors name, the
 * includes a name needs, the files and groups that only build whole). */
#include "core/session/search.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/isolate/repair.h"
#include "core/isolate/scan.h"

#define REPAIR_ROUNDS 3         /* compiler-error repairs of one configuration at most */
#define REWRITE_PERCENT 85      /* a hunk whose pieces hold this much of its text is kept whole */

int sr_change_touched(const struct change *ch, const struct bits *b, int value)
{
	for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
		if (bits_test(b, a) == value)
			return 1;
	return 0;
}


/* Whether NUL-separated, "" ended list l holds name. */
static int listed(const char *l, const char *name)
{
	for (; *l; l += strlen(l) + 1)
		if (!strcmp(l, name))
			return 1;
	return 0;
}

/* Append to o the names of NUL-separated, "" ended list l (that list also
 * holds, when given), once each. */
static void names_add(struct buf *o, const char *l, const char *also)
{
	for (; *l; l += strlen(l) + 1) {
		if (also && !listed(also, l))
			continue;
		if (!listed(o->len ? o->s : "", l)) {
			buf_adds(o, l);
			buf_addc(o, '\0');
		}
	}
}

/* The names a tie between changes c and g is for (deps.h): those of the
 * needs either way, and the names that tie both into their block.
 * NUL-separated, "" ended; to free. */
static char *tie_names(const struct deps *d, size_t c, size_t g)
{
	struct buf o = BUF_INIT;
	for (size_t k = 0; k < d->nneed[c]; k++)
		if (d->need[c][k] == g)
			names_add(&o, d->need_names[c][k], NULL);
	for (size_t k = 0; k < d->nneed[g]; k++)
		if (d->need[g][k] == c)
			names_add(&o, d->need_names[g][k], NULL);
	if (d->block[c] >= 0 && d->block[c] == d->block[g])
		names_add(&o, d->hard_names[c], d->hard_names[g]);
	buf_addc(&o, '\0');
	return buf_detach(&o);
}

/* Whether piece a of a change taken apart carries a tie by names (none
 * known, as brackets: by its change's own names, sr->token_named), or,
 * the tie a block's, by a bracket it leaves open (sr->token_bracketed:
 * an `#if` whose `#endif` another hunk moved). */
static int piece_ties(const struct search *sr, size_t a, const char *names, int block)
{
	if (block && sr->token_bracketed && bits_test(sr->token_bracketed, a))
		return 1;
	return names[0] ? sr_piece_names(sr->s, a, names) : bits_test(sr->token_named, a);
}

/* The dependences' closure: applied to good (revert 0), each applied
 * change brings its group and what it needs; reverted from bad (revert 1),
 * each reverted change takes the changes that need it (the new users of a
 * declaration it takes away). At token level, a change taken apart
 * (sr->token_apart) ties by its pieces that hold the names the tie is for
 * (tie_names): it brings a change it ties to as soon as one of them is in
 * (a new field its new lines use), and a change that needs it or shares
 * its block brings those pieces (the rename a use needs), not the others
 * (the value beside it). blocks_only: only the ties of blocks. Returns
 * how many changes or pieces it added. */
size_t sr_close_deps(const struct search *sr, struct bits *b, int revert, int blocks_only)
{
	const struct deps *d = sr->deps;
	const struct change_set *s = sr->s;
	const struct bits *apart = sr->u && sr->u->tokens ? sr->token_apart : NULL;
	size_t added = 0;
	int value = revert ? 0 : 1;   /* the bit value of a change that is in */
	for (int again = 1; again;) {
		again = 0;
		for (size_t c = 0; c < s->nchanges; c++) {
			const struct change *ch = &s->changes[c];
			int capart = apart && bits_test(apart, c);
			if (!capart && !sr_change_touched(ch, b, value))
				continue;
			for (size_t g = 0; g < s->nchanges; g++) {
				if (g == c)
					continue;
				int gapart = apart && bits_test(apart, g);
				/* Reverting, only a block's ties are followed: reverting
				 * part of a group is how the fix search tells its causes
				 * from its build needs (split_fix), but no part of a block
				 * builds. Into a change taken apart, and within a group
				 * taken apart, only the ties no build survives (blocks
				 * and needs). */
				int gsplit = !revert && d->group[c] >= 0 && sr->groups_apart &&
					     bits_test(sr->groups_apart, (size_t)d->group[c]);
				int tie = revert || gapart || blocks_only || gsplit
						  ? d->block[c] >= 0 && d->block[c] == d->block[g]
						  : d->group[c] >= 0 && d->group[c] == d->group[g];
				for (size_t k = 0; !tie && !blocks_only && !revert && k < d->nneed[c]; k++)
					tie = d->need[c][k] == g;
				for (size_t k = 0; !tie && !blocks_only && revert && k < d->nneed[g]; k++)
					tie = d->need[g][k] == c;
				if (!tie)
					continue;
				const struct change *gh = &s->changes[g];
				char *tn = capart || gapart ? tie_names(d, c, g) : NULL;
				int blk = d->block[c] >= 0 && d->block[c] == d->block[g];
				int in = !capart;
				for (size_t a = ch->atom0; !in && a < ch->atom0 + ch->natoms; a++)
					in = bits_test(b, a) == value && piece_ties(sr, a, tn, blk);
				for (size_t a = gh->atom0; in && gapart && a < gh->atom0 + gh->natoms; a++)
					if (bits_test(b, a) != value && piece_ties(sr, a, tn, blk)) {
						value ? bits_set(b, a) : bits_clear(b, a);
						added++;
						again = 1;
					}
				free(tn);
				if (!in || gapart || !sr_change_touched(gh, b, !value))
					continue;
				if (!revert && sr->pool && !bits_test(sr->pool, gh->atom0))
					continue;
				for (size_t a = gh->atom0; a < gh->atom0 + gh->natoms; a++)
					value ? bits_set(b, a) : bits_clear(b, a);
				added++;
				again = 1;
			}
		}
	}
	return added;
}

/* Set every atom of change c to value; 1 when one changed. */
static int change_set_to(const struct change *ch, struct bits *b, int value)
{
	int changed = 0;
	for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
		if (bits_test(b, a) != value) {
			value ? bits_set(b, a) : bits_clear(b, a);
			changed = 1;
		}
	return changed;
}

/* What failed builds taught (learn_whole): a file that is in at all
 * (revert 0: applied; revert 1: reverted) is in whole, and so is a group
 * reverted. The token level takes a whole file apart again, but only in
 * the changes that hold a failure-inducing one (sr->token_apart): the
 * others stay whole together, as the file's builds showed they must.
 * Returns how many changes it completed. */
size_t sr_close_blocks(const struct search *sr, struct bits *b, int revert)
{
	const struct change_set *s = sr->s;
	int value = revert ? 0 : 1, tokens = sr->u && sr->u->tokens;
	size_t added = 0;
	if (tokens && !sr->token_apart)
		return 0;
	for (size_t f = 0; sr->whole_file && f < s->nfiles; f++) {
		const struct change_file *cf = &s->files[f];
		if (!bits_test(sr->whole_file, f))
			continue;
		int in = 0;
		for (size_t c = cf->change0; c < cf->change0 + cf->nchanges && !in; c++)
			in = !(tokens && bits_test(sr->token_apart, c)) && sr_change_touched(&s->changes[c], b, value);
		for (size_t c = cf->change0; in && c < cf->change0 + cf->nchanges; c++)
			if (!(tokens && bits_test(sr->token_apart, c)))
				added += (size_t)change_set_to(&s->changes[c], b, value);
	}
	if (tokens)
		return added;   /* groups: the token level's pieces are tied by their hunks only */
	/* Applied, a group is always whole (sr_close_deps); reverted, once learnt. */
	for (size_t c = 0; revert && sr->whole_group && sr->deps && c < s->nchanges; c++) {
		long g = sr->deps->group[c];
		if (g < 0 || !bits_test(sr->whole_group, (size_t)g) || !sr_change_touched(&s->changes[c], b, value))
			continue;
		for (size_t k = (size_t)g; k < s->nchanges; k++)
			if (sr->deps->group[k] == g)
				added += (size_t)change_set_to(&s->changes[k], b, value);
	}
	return added;
}

/* Whether text[0, n) holds one of the NUL-separated names as an identifier. */
static int holds_name(const char *text, size_t n, const char *names)
{
	for (const char *nm = names; *nm; nm += strlen(nm) + 1)
		if (scan_holds_word(text, n, nm, strlen(nm), 0))
			return 1;
	return 0;
}

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Whether offset off of text lies in the parameter list of a function
 * declarator of one of the names: the nearest '(' left open before it,
 * within the statement, follows one of them, itself after a type word
 * or a '*' (`extern void rl_reset_terminal(char *p);`, not a call). */
static int in_declarator_of(const char *text, size_t off, const char *names)
{
	size_t i = off, stop = off > 4096 ? off - 4096 : 0;
	int depth = 0;
	while (i > stop) {
		char c = text[--i];
		if (c == ')')
			depth++;
		else if (c == '(' && depth-- == 0)
			break;
		else if (depth == 0 && (c == ';' || c == '{' || c == '}'))
			return 0;
		if (i == stop)
			return 0;
	}
	if (depth >= 0)
		return 0;
	size_t e = i;
	while (e > 0 && isspace((unsigned char)text[e - 1]))
		e--;
	size_t b = e;
	while (b > 0 && ident_char(text[b - 1]))
		b--;
	if (b == e || isdigit((unsigned char)text[b]))
		return 0;
	int named = 0;
	for (const char *nm = names; *nm && !named; nm += strlen(nm) + 1)
		named = strlen(nm) == e - b && !memcmp(nm, text + b, e - b);
	size_t p = b;
	while (p > 0 && isspace((unsigned char)text[p - 1]))
		p--;
	if (!named || p == 0)
		return 0;
	if (text[p - 1] == '*')
		return 1;
	size_t w = p;
	while (w > 0 && ident_char(text[w - 1]))
		w--;
	static const char *const stmt[] = {"return", "else", "case", "sizeof", "do", "goto", NULL};
	for (size_t k = 0; stmt[k]; k++)
		if (strlen(stmt[k]) == p - w && !memcmp(stmt[k], text + w, p - w))
			return 0;
	return w < p;
}

/* Whether piece a's own tokens (either revision) hold one of the names,
 * or it lies in the parameter list of one's declarator (a parameter made
 * `const char *terminal_name`: the prototype's piece holds no name, yet
 * it only builds with the definition's). */
int sr_piece_names(const struct change_set *s, size_t a, const char *names)
{
	const struct change_atom *t = &s->atoms[a];
	const struct change_file *f = &s->files[s->changes[t->change].file];
	return (f->old_data && holds_name(f->old_data + t->old_off, t->old_end - t->old_off, names)) ||
	       (f->new_data && holds_name(f->new_data + t->new_off, t->new_end - t->new_off, names)) ||
	       (f->old_data && in_declarator_of(f->old_data, t->old_off, names)) ||
	       (f->new_data && in_declarator_of(f->new_data, t->new_off, names));
}

/* One side of a piece: whether it holds a bracket or conditional it
 * does not pair (a closer first, or one left open). */
static int text_bracketed(const char *text, size_t n)
{
	if (!n)
		return 0;
	struct scan sc;
	scan_file(text, n, &sc);
	int depth[3] = {0, 0, 0}, open = 0;
	for (size_t k = 0; k < sc.nt && !open; k++) {
		const struct tok *t = &sc.t[k];
		char cond = scan_cond(&sc, k);
		int kind = cond ? 2 : scan_punct(t, '{') || scan_punct(t, '}') ? 0 : scan_punct(t, '(') || scan_punct(t, ')') ? 1 : -1;
		if (kind < 0 || (!cond && t->directive))
			continue;
		int closes = cond ? cond != 'o' : t->s[0] == '}' || t->s[0] == ')';
		int opens = cond ? cond != 'c' : !closes;
		if (closes && depth[kind]-- == 0)
			open = 1;
		if (opens)
			depth[kind]++;
	}
	scan_release(&sc);
	return open || depth[0] || depth[1] || depth[2];
}

int sr_piece_bracketed(const struct change_set *s, size_t a)
{
	const struct change_atom *t = &s->atoms[a];
	const struct change_file *f = &s->files[s->changes[t->change].file];
	return (f->old_data && text_bracketed(f->old_data + t->old_off, t->old_end - t->old_off)) ||
	       (f->new_data && text_bracketed(f->new_data + t->new_off, t->new_end - t->new_off));
}

/* Whether the real lines holding piece a (either revision) hold one of
 * the NUL-separated names as an identifier. */
static int atom_holds(const struct change_set *s, size_t a, const char *names)
{
	struct change_lines l;
	change_lines_of_atom(s, a, &l);
	int found = 0;
	for (size_t i = 0; i < l.nremoved + l.nadded && !found; i++) {
		const char *line = i < l.nremoved ? l.removed[i] : l.added[i - l.nremoved];
		found = holds_name(line, strlen(line), names);
	}
	change_lines_free(&l);
	return found;
}

/* Whether the block whose first change is root (deps.h) has a change
 * touched at value in b (*in) and one touched at the other value (*out). */
void sr_block_touched(const struct search *sr, size_t root, const struct bits *b, int value, int *in, int *out)
{
	*in = *out = 0;
	for (size_t k = root; k < sr->s->nchanges; k++)
		if (sr->deps->block[k] == (long)root) {
			*in |= sr_change_touched(&sr->s->changes[k], b, value);
			*out |= sr_change_touched(&sr->s->changes[k], b, !value);
		}
}

/* At token level, a configuration b that did not build and took a
 * dependence block in part (deps.h: what no build survives apart, as a
 * function moved with its prototype removed): the block's pieces whose
 * lines hold the names that tie it (all of a change not taken apart, or
 * of a block tied by brackets) are taken together from now on
 * (sr_close_token_blocks), so they cost one failed build, not one per
 * configuration. Learnt for the configurations to come: b itself is not
 * tested again. */
static void learn_block(struct search *sr, const struct bits *b, int revert)
{
	const struct change_set *s = sr->s;
	for (size_t c = 0; sr->deps && sr->token_block && c < s->nchanges; c++) {
		if (sr->deps->block[c] != (long)c || bits_test(sr->token_block, c))
			continue;
		int in, out;
		sr_block_touched(sr, c, b, revert ? 0 : 1, &in, &out);
		if (!in || !out)
			continue;
		bits_set(sr->token_block, c);
		for (size_t k = c; k < s->nchanges; k++) {
			const struct change *ch = &s->changes[k];
			for (size_t a = ch->atom0; sr->deps->block[k] == (long)c && a < ch->atom0 + ch->natoms; a++)
				if (!bits_test(sr->token_apart, k) || !sr->deps->hard_names[k][0] ||
				    atom_holds(s, a, sr->deps->hard_names[k]) ||
				    (sr->token_bracketed && bits_test(sr->token_bracketed, a)))
					bits_set(sr->token_tied, a);
		}
		ex_event(sr->x, "WHOLE", "the pieces of #%u's block that hold what ties it do not build apart: "
			 "they are taken together", s->changes[c].id);
	}
}

size_t sr_tie_root(size_t *tie, size_t a)
{
	while (tie[a] != a)
		a = tie[a] = tie[tie[a]];
	return a;
}

/* A copy of a NUL-separated, "" ended list; to free. */
static char *list_dup(const char *list)
{
	size_t n = 0;
	while (list[n])
		n += strlen(list + n) + 1;
	char *c = xmalloc(n + 1);
	memcpy(c, list, n + 1);
	return c;
}

/* The needs a search starts with beside the dependences: the includes
 * deps guesses new code needs, held as the ones a repair teaches (both
 * ways, users first in the fix). */
void sr_learnt_init(struct learnt *l, const struct deps *dp)
{
	l->n = dp->nheader;
	l->quiet = 0;
	l->need = xmalloc((dp->nheader + 1) * sizeof(*l->need));
	l->name = xmalloc((dp->nheader + 1) * sizeof(*l->name));
	for (size_t k = 0; k < dp->nheader; k++) {
		memcpy(l->need[k], dp->header[k], sizeof(*l->need));
		l->name[k] = list_dup(dp->header_names[k]);
	}
}

void sr_learnt_release(struct learnt *l)
{
	for (size_t k = 0; k < l->n; k++)
		free(l->name[k]);
	free(l->name);
	free(l->need);
}

/* Name as a NUL-separated, "" ended list of one; to free. */
static char *one_name(const char *name)
{
	char *list = xcalloc(strlen(name) + 2, 1);
	memcpy(list, name, strlen(name));
	return list;
}

/* At token level, a configuration b that did not build with errors naming
 * something (repair.h) that pieces taken apart hold, some in b and some
 * out (revert 0: applied; 1: reverted): those pieces only build together
 * (a variable's declaration and its uses, a label and its goto) and are
 * taken together from now on (close_token_ties). Returns how many names
 * it learnt. */
static size_t learn_names(struct search *sr, const char *excerpt, const struct bits *b, int revert)
{
	const struct change_set *s = sr->s;
	if (!sr->token_tie || !excerpt)
		return 0;
	char **names;
	size_t nn = repair_names(excerpt, &names), learnt = 0;
	int value = revert ? 0 : 1;
	for (size_t i = 0; i < nn; i++) {
		char *list = one_name(names[i]);
		long first = -1;
		int in = 0, out = 0, joined = 0;
		for (size_t a = 0; a < s->natoms; a++) {
			if (!bits_test(sr->token_apart, s->atoms[a].change) || !sr_piece_names(s, a, list))
				continue;
			in |= bits_test(b, a) == value;
			out |= bits_test(b, a) != value;
			if (first < 0)
				first = (long)a;
		}
		for (size_t a = (size_t)first + 1; first >= 0 && in && out && a < s->natoms; a++)
			if (bits_test(sr->token_apart, s->atoms[a].change) && sr_piece_names(s, a, list)) {
				size_t r = sr_tie_root(sr->token_tie, a), q = sr_tie_root(sr->token_tie, (size_t)first);
				if (r != q) {
					sr->token_tie[r] = q;
					joined = 1;
				}
			}
		if (joined) {
			ex_event(sr->x, "WHOLE", "the pieces that hold '%s' do not build apart: they are taken together",
				 names[i]);
			learnt++;
		}
		free(list);
	}
	repair_names_free(names);
	return learnt;
}

/* Whether text declares one name and nothing else: one statement, one
 * declaration (in a function, as a local). Its name and the shape without
 * it into *name and *type (to free). */
static int one_declaration(const char *text, char **name, char **type)
{
	static const char fn[] = "void f(void)\n{\n";
	struct buf b = BUF_INIT;
	buf_adds(&b, fn);
	buf_adds(&b, text);
	buf_adds(&b, "\n}\n");
	struct scan sc;
	scan_file(b.s, b.len, &sc);
	size_t semis = 0, nd = 0, d = 0;
	for (size_t k = 0; k < sc.nt; k++)
		semis += scan_punct(&sc.t[k], ';');
	for (size_t k = 0; k < sc.nd; k++)
		if (sc.d[k].cls == 'l') {
			nd++;
			d = k;
		}
	int one = semis == 1 && nd == 1 && sc.d[d].shape;
	if (one) {
		*name = xstrdup(sc.d[d].name);
		struct buf t = BUF_INIT;
		const char *sh = sc.d[d].shape, *at = strstr(sh, sc.d[d].name);
		buf_add(&t, sh, at ? (size_t)(at - sh) : strlen(sh));
		*type = buf_detach(&t);
	}
	scan_release(&sc);
	buf_release(&b);
	return one;
}

/* Whether text is one simple assignment to a name, `name = value;`: the
 * name, to free, or NULL. */
static char *one_assignment(const char *text)
{
	struct scan sc;
	scan_file(text, strlen(text), &sc);
	char *name = NULL;
	size_t semis = 0;
	for (size_t k = 0; k < sc.nt; k++)
		semis += scan_punct(&sc.t[k], ';');
	if (sc.nt >= 4 && semis == 1 && scan_punct(&sc.t[sc.nt - 1], ';') && sc.t[0].kind == T_IDENT &&
	    !scan_in_list(&sc.t[0], scan_stmt_words) && sc.t[1].len == 1 && scan_punct(&sc.t[1], '=') &&
	    !sc.t[0].directive)
		name = xstrndup(sc.t[0].s, sc.t[0].len);
	scan_release(&sc);
	return name;
}

/* Whether atom a's text on one side (old: side 0) touches line l. */
static int atom_on_line(const struct change_set *s, size_t a, int side, int l)
{
	const struct change_atom *t = &s->atoms[a];
	const struct change_file *f = &s->files[s->changes[t->change].file];
	const char *d = side ? f->new_data : f->old_data;
	size_t off = side ? t->new_off : t->old_off, end = side ? t->new_end : t->old_end;
	int first = side ? t->new_line : t->old_line, last = first;
	for (size_t i = off; d && i + 1 < end; i++)
		last += d[i] == '\n';
	return end > off && first <= l && l <= last;
}

/* Change c's pieces whose new text holds name need the one on new line l
 * that holds it, its declaration. */
static void need_holding(struct search *sr, size_t c, const char *name, int l)
{
	const struct change_set *s = sr->s;
	const struct change *ch = &s->changes[c];
	const char *d = s->files[ch->file].new_data;
	size_t n = strlen(name);
	for (size_t k = ch->atom0; k < ch->atom0 + ch->natoms; k++) {
		const struct change_atom *dk = &s->atoms[k];
		/* Its text on line l holds the name (a piece starting with
		 * that line's end, the lines after it added, does not). */
		const char *p = d + dk->new_off, *end = d + dk->new_end;
		for (int at = dk->new_line; at < l && p < end; at++) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			p = nl ? nl + 1 : end;
		}
		const char *eol = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
		if (dk->new_line > l || p >= end || !scan_holds_word(p, (size_t)((eol ? eol : end) - p), name, n, 0))
			continue;
		for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++) {
			const struct change_atom *t = &s->atoms[a];
			if (a == k || !scan_holds_word(d + t->new_off, t->new_end - t->new_off, name, n, 0))
				continue;
			sr->token_need = xrealloc(sr->token_need, (sr->ntoken_need + 1) * sizeof(*sr->token_need));
			sr->token_need[sr->ntoken_need][0] = a;
			sr->token_need[sr->ntoken_need++][1] = k;
		}
	}
}

/* Change c's pieces on its old line i or its new line j: one piece. */
static void tie_lines(struct search *sr, size_t c, const struct change_lines *l, size_t i, size_t j)
{
	const struct change *ch = &sr->s->changes[c];
	size_t root = SIZE_MAX;
	for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++) {
		if (!atom_on_line(sr->s, a, 0, l->old_start + (int)i) && !atom_on_line(sr->s, a, 1, l->new_start + (int)j))
			continue;
		if (root == SIZE_MAX)
			root = sr_tie_root(sr->token_tie, a);
		else
			sr->token_tie[sr_tie_root(sr->token_tie, a)] = root;
	}
}

/* Whether old line i and new line j of change c, declaring or assigning
 * one name, are a statement moved within the hunk: no piece of it touches
 * both (none edits the one line into the other). */
static int moved_line(const struct change_set *s, size_t c, const struct change_lines *l, size_t i, size_t j)
{
	const struct change *ch = &s->changes[c];
	for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++) {
		const struct change_atom *t = &s->atoms[a];
		/* A piece inserting text within a line (`(int)` before `s`)
		 * is on the old line where it goes; one inserting lines is
		 * not. */
		const struct change_file *f = &s->files[ch->file];
		int on_old = t->old_end > t->old_off ? atom_on_line(s, a, 0, l->old_start + (int)i)
			     : t->old_line == l->old_start + (int)i &&
				       !memchr(f->new_data + t->new_off, '\n', t->new_end - t->new_off);
		int on_new = t->new_end > t->new_off ? atom_on_line(s, a, 1, l->new_start + (int)j)
			     : t->new_line == l->new_start + (int)j &&
				       !memchr(f->old_data + t->old_off, '\n', t->old_end - t->old_off);
		if (on_old && on_new)
			return 0;
	}
	return 1;
}

/* At token level, change c's pieces on a line declaring one local that a
 * line of the other side replaces with another, its name and its type
 * both changed (yash's `bool save_noreturn = execstate.noreturn;` made
 * `execstate_T *saveexecstate = save_execstate();`), are one piece: a
 * new variable, whose type, name and value taken apart do not build (4
 * of 7 configurations had not). So are the pieces removing a local's
 * declaration and those adding it on another line (zstd's `const U32
 * dictStartIndex = ms->window.lowLimit;` renamed validLow, `const U32
 * dictStartIndex = lowLimit;` added below it): apart, it is declared
 * twice or not at all. And the pieces using a new local need the one
 * declaring it (zstd's `const U32 endIndex = ...;`, the `lowLimit`
 * computed from it another piece; sr->token_need): without it, the uses
 * are undeclared. */
void sr_tie_declarations(struct search *sr, size_t c)
{
	const struct change_set *s = sr->s;
	const struct change *ch = &s->changes[c];
	if (ch->kind != CHANGE_HUNK || ch->natoms < 2)
		return;
	struct change_lines l;
	change_lines_of(s, c, &l);
	char **name[2] = {xcalloc(l.nremoved + 1, sizeof(char *)), xcalloc(l.nadded + 1, sizeof(char *))};
	char **type[2] = {xcalloc(l.nremoved + 1, sizeof(char *)), xcalloc(l.nadded + 1, sizeof(char *))};
	for (size_t i = 0; i < l.nremoved; i++)
		one_declaration(l.removed[i], &name[0][i], &type[0][i]);
	for (size_t j = 0; j < l.nadded; j++)
		one_declaration(l.added[j], &name[1][j], &type[1][j]);
	for (size_t i = 0; i < l.nremoved; i++)
		for (size_t j = 0; name[0][i] && j < l.nadded; j++) {
			if (name[1][j] && (!strcmp(name[0][i], name[1][j]) ? moved_line(s, c, &l, i, j)
									   : strcmp(type[0][i], type[1][j])))
				tie_lines(sr, c, &l, i, j);
		}
	/* An assignment moved within the hunk (make's `name = namemap +
	 * atoi (name + 1);` made `int name_off = atoi (name + 1);`, a check,
	 * and `name = namemap + name_off;`): the pieces removing it and those
	 * adding it elsewhere are one piece; apart, the name is set twice or
	 * not at all. */
	for (size_t i = 0; i < l.nremoved; i++) {
		char *x = one_assignment(l.removed[i]);
		for (size_t j = 0; x && j < l.nadded; j++) {
			char *y = one_assignment(l.added[j]);
			if (y && !strcmp(x, y) && moved_line(s, c, &l, i, j))
				tie_lines(sr, c, &l, i, j);
			free(y);
		}
		free(x);
	}
	/* A new local's declaration and its uses. */
	for (size_t j = 0; j < l.nadded; j++) {
		int fresh = name[1][j] != NULL;
		for (size_t i = 0; fresh && i < l.nremoved; i++)
			fresh = !name[0][i] || strcmp(name[0][i], name[1][j]);
		if (fresh)
			need_holding(sr, c, name[1][j], l.new_start + (int)j);
	}
	for (int side = 0; side < 2; side++) {
		for (size_t i = 0; i < (side ? l.nadded : l.nremoved); i++) {
			free(name[side][i]);
			free(type[side][i]);
		}
		free(name[side]);
		free(type[side]);
	}
	change_lines_free(&l);
}

/* Whether change c is a rewrite: its token pieces hold nearly all of its
 * text (REWRITE_PERCENT), the old lines replaced rather than edited. Its
 * pieces applied apart give code that neither revision had and that
 * seldom builds (a loop made an if): the token level keeps it whole. */
static int rewritten(const struct change_set *s, size_t c)
{
	const struct change *ch = &s->changes[c];
	if (ch->natoms < 2)
		return 0;
	size_t pieces = 0, text = 0;
	for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
		pieces += s->atoms[a].old_end - s->atoms[a].old_off + s->atoms[a].new_end - s->atoms[a].new_off;
	struct change_lines l;
	change_lines_of(s, c, &l);
	for (size_t i = 0; i < l.nremoved; i++)
		text += strlen(l.removed[i]) + 1;
	for (size_t i = 0; i < l.nadded; i++)
		text += strlen(l.added[i]) + 1;
	change_lines_free(&l);
	return pieces * 100 >= text * REWRITE_PERCENT;
}

/* Whether change c is one piece at token level: a rewritten hunk, or one
 * of the hunks rewriting a function (deps.h), never taken apart. */
int sr_one_piece(const struct search *sr, size_t c)
{
	return (sr->deps && sr->deps->rewrite[c]) || rewritten(sr->s, c);
}

/* At token level, the ties learnt from named errors (learn_names): when
 * one of a tie's pieces is in, all are. Returns how many pieces it added. */
static size_t close_token_ties(const struct search *sr, struct bits *b, int revert)
{
	const struct change_set *s = sr->s;
	int value = revert ? 0 : 1;
	size_t added = 0;
	if (!sr->token_tie || !(sr->u && sr->u->tokens))
		return 0;
	struct bits *roots = bits_new(s->natoms);
	for (size_t a = 0; a < s->natoms; a++)
		if (bits_test(b, a) == value)
			bits_set(roots, sr_tie_root(sr->token_tie, a));
	for (size_t a = 0; a < s->natoms; a++)
		if (bits_test(b, a) != value && bits_test(roots, sr_tie_root(sr->token_tie, a))) {
			value ? bits_set(b, a) : bits_clear(b, a);
			added++;
		}
	bits_free(roots);
	return added;
}

/* At token level, the pieces a piece needs (sr->token_need): applied
 * (revert 0), a piece brings its declaration; reverted, a declaration
 * takes its users. Returns how many pieces it added. */
static size_t close_token_needs(const struct search *sr, struct bits *b, int revert)
{
	size_t added = 0;
	if (!(sr->u && sr->u->tokens))
		return 0;
	for (size_t k = 0; k < sr->ntoken_need; k++) {
		size_t user = sr->token_need[k][0], decl = sr->token_need[k][1];
		if (!revert && bits_test(b, user) && !bits_test(b, decl)) {
			bits_set(b, decl);
			added++;
		} else if (revert && !bits_test(b, decl) && bits_test(b, user)) {
			bits_clear(b, user);
			added++;
		}
	}
	return added;
}

/* At token level, the blocks learnt there (learn_block): when one of a
 * block's tied pieces is in (revert 0: applied; 1: reverted), all of them
 * are. Returns how many pieces it added. */
size_t sr_close_token_blocks(const struct search *sr, struct bits *b, int revert)
{
	const struct change_set *s = sr->s;
	int value = revert ? 0 : 1;
	size_t added = 0;
	for (size_t c = 0; sr->token_block && sr->u && sr->u->tokens && c < s->nchanges; c++) {
		if (!bits_test(sr->token_block, c))
			continue;
		int in = 0;
		for (size_t k = c; k < s->nchanges && !in; k++)
			for (size_t a = s->changes[k].atom0; sr->deps->block[k] == (long)c &&
			     a < s->changes[k].atom0 + s->changes[k].natoms && !in; a++)
				in = bits_test(sr->token_tied, a) && bits_test(b, a) == value;
		for (size_t k = c; in && k < s->nchanges; k++)
			for (size_t a = s->changes[k].atom0; sr->deps->block[k] == (long)c &&
			     a < s->changes[k].atom0 + s->changes[k].natoms; a++)
				if (bits_test(sr->token_tied, a) && bits_test(b, a) != value) {
					value ? bits_set(b, a) : bits_clear(b, a);
					added++;
				}
	}
	return added;
}

static size_t close_learnt(const struct search *sr, struct bits *b, int revert);

/* Close a configuration under the dependences (hunk level) and what failed
 * builds taught. Returns how many changes it added. */
size_t sr_close_config(const struct search *sr, struct bits *b, int revert)
{
	size_t added = 0, n;
	do {
		n = sr->deps && (!(sr->u && sr->u->tokens) || sr->token_apart) ? sr_close_deps(sr, b, revert, 0) : 0;
		n += sr_close_blocks(sr, b, revert);
		n += sr_close_token_blocks(sr, b, revert);
		n += close_token_ties(sr, b, revert);
		n += close_token_needs(sr, b, revert);
		n += close_learnt(sr, b, revert);
		added += n;
	} while (n);
	return added;
}

/* The changed file a compiler's error line points into (PATH:LINE[:COL]:
 * [fatal ]error: ...), or a linker's (PATH:LINE: undefined reference to
 * ..., from the debug information: a macro its header no longer defines,
 * called as a function), as an index into s->files, or -1. The path may be
 * relative to the top (./src/a.c), to a build directory (../src/a.c) or
 * absolute: it matches a file whose path it ends with. */
static long error_file(const struct change_set *s, const char *line, size_t len)
{
	const char *colon = memchr(line, ':', len);
	const char *err = NULL;
	for (const char *p = line; p + 7 <= line + len && !err; p++)
		if (!strncmp(p, ": error", 7) || !strncmp(p, ": fatal error", 13) ||
		    !strncmp(p, ": undefined reference to", 24))
			err = p;
	if (!colon || !err || colon == line || !isdigit((unsigned char)colon[1]))
		return -1;
	size_t plen = (size_t)(colon - line);
	for (size_t f = 0; f < s->nfiles; f++) {
		const char *paths[2] = {s->files[f].new_path, s->files[f].old_path};
		for (int k = 0; k < 2; k++) {
			size_t n = paths[k] ? strlen(paths[k]) : 0;
			if (n && n <= plen && !memcmp(line + plen - n, paths[k], n) &&
			    (n == plen || line[plen - n - 1] == '/'))
				return (long)f;
		}
	}
	return -1;
}

/* Does the error line name something the dependences know a change
 * declares or uses (a helper undeclared, a changed prototype's conflicting
 * types)? Then it is repair's to mend. An error that names nothing (a
 * function nested by a brace another hunk holds, a label, a syntax error),
 * or only names no change is known to declare or use, says the file was
 * cut. */
static int error_named(const struct search *sr, const char *line, size_t len)
{
	char *copy = xstrndup(line, len), **names;
	size_t nn = repair_names(copy, &names), *tmp = xmalloc((sr->s->nchanges + 1) * sizeof(*tmp));
	int known = 0;
	for (size_t i = 0; i < nn && !known && sr->deps; i++)
		known = deps_involving(sr->deps, names[i], tmp) > 0;
	free(tmp);
	repair_names_free(names);
	free(copy);
	return known;
}

/* A configuration that did not build, with errors in a file it took in
 * part (some of its changes in, some out) that name nothing repair
 * knows (error_named), or any errors once repair has tried and the build
 * still fails: that file only builds whole — a rewrite whose hunks cut through
 * functions, a label, an include — and from now on every
 * configuration takes it whole, so the search learns from each failed
 * build instead of paying for it again. Reverting, a dependence group
 * reverted in part with a change in such a file (a prototype reverted, its
 * definition not) is learnt whole too. b is the configuration as tested
 * (revert: as reverted from bad). Returns how many it learnt. */
static size_t learn_whole(struct search *sr, const char *excerpt, const struct bits *b, int revert, int beyond)
{
	const struct change_set *s = sr->s;
	int value = revert ? 0 : 1;
	size_t learnt = 0;
	/* At token level failed builds are how the fix's pieces are told from
	 * their build needs (split_fix): only blocks are learnt there. */
	if (sr->u && sr->u->tokens) {
		learn_block(sr, b, revert);
		return learn_names(sr, excerpt, b, revert);
	}
	if (!sr->whole_file || !excerpt)
		return 0;
	for (const char *line = excerpt; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		long f = error_file(s, line, len);
		int named = f >= 0 && !beyond && error_named(sr, line, len);
		line += len + (nl != NULL);
		if (f < 0 || named)
			continue;
		/* A group reverted in part is learnt even in a file already
		 * learnt whole: the file's changes are in or out together, the
		 * group's other changes are elsewhere. */
		const struct change_file *cf = &s->files[f];
		int in = 0, out = 0;
		for (size_t c = cf->change0; c < cf->change0 + cf->nchanges; c++) {
			const struct change *ch = &s->changes[c];
			in |= sr_change_touched(ch, b, value);
			out |= sr_change_touched(ch, b, !value);
		}
		for (size_t c = cf->change0; revert && sr->whole_group && sr->deps &&
					     c < cf->change0 + cf->nchanges; c++) {
			long g = sr->deps->group[c];
			if (g < 0 || bits_test(sr->whole_group, (size_t)g))
				continue;
			int gin = 0, gout = 0;
			for (size_t k = (size_t)g; k < s->nchanges; k++)
				if (sr->deps->group[k] == g) {
					gin |= sr_change_touched(&s->changes[k], b, value);
					gout |= sr_change_touched(&s->changes[k], b, !value);
				}
			if (gin && gout) {
				bits_set(sr->whole_group, (size_t)g);
				ex_event(sr->x, "WHOLE", "the group of #%u does not build reverted in part: it is "
					 "reverted whole", s->changes[g].id);
				learnt++;
			}
		}
		if (in && out && !bits_test(sr->whole_file, (size_t)f)) {
			bits_set(sr->whole_file, (size_t)f);
			ex_event(sr->x, "WHOLE", "%s does not build with part of its %zu changes: they are taken "
				 "together", cf->new_path, cf->nchanges);
			learnt++;
		}
	}
	return learnt;
}

/* The changes that declare (involving: declare or use) the names a failed
 * build's first errors complain about, in *out (to free; a change may be
 * listed once per name); their count. */
static size_t complained_of(struct search *sr, const char *excerpt, int involving, size_t **out)
{
	char **names;
	size_t nn = repair_names(excerpt, &names), n = 0;
	*out = xmalloc((nn * sr->s->nchanges + 1) * sizeof(**out));
	for (size_t i = 0; i < nn; i++) {
		/* A name left unused whose needs are taken (learn_quiet):
		 * they mend it, not every change that holds a local's name. */
		int quiet = 0;
		for (size_t k = 0; involving && sr->learnt && sr->learnt->quiet && k < sr->deps->nquiet && !quiet; k++)
			quiet = !strcmp(sr->deps->quiet_names[k], names[i]);
		if (!quiet)
			n += (involving ? deps_involving : deps_declaring)(sr->deps, names[i], *out + n);
	}
	repair_names_free(names);
	return n;
}

/* Whether line p is blank, a comment or an #include (counted in *includes). */
static int include_line(const char *p, int *includes)
{
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || !strncmp(p, "/*", 2) || !strncmp(p, "//", 2) || *p == '*')
		return 1;
	if (*p++ != '#')
		return 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, "include", 7))
		return 0;
	++*includes;
	return 1;
}

/* Whether change c adds #include lines and touches nothing else (blank
 * lines, comments and other includes aside): an include some new code
 * needs, not a rewrite that holds one. */
static int adds_include(const struct change_set *s, size_t c)
{
	struct change_lines l;
	change_lines_of(s, c, &l);
	int includes = 0, gone = 0, only = 1;
	for (size_t i = 0; i < l.nremoved && only; i++)
		only = include_line(l.removed[i], &gone);
	for (size_t i = 0; i < l.nadded && only; i++)
		only = include_line(l.added[i], &includes);
	change_lines_free(&l);
	return only && includes;
}

/* Learn that change u needs change c, for name (a compiler's spelling of
 * it), unless that is known. */
static void learn_need(struct learnt *l, size_t u, size_t c, const char *name)
{
	for (size_t k = 0; k < l->n; k++)
		if (l->need[k][0] == u && l->need[k][1] == c)
			return;
	l->need = xrealloc(l->need, (l->n + 1) * sizeof(*l->need));
	l->name = xrealloc(l->name, (l->n + 1) * sizeof(*l->name));
	l->name[l->n] = one_name(name);
	l->need[l->n][0] = u;
	l->need[l->n++][1] = c;
}

/* Learn that the changes of include change c's file whose added lines
 * hold a name error line `line` gives (one no change declares) need c,
 * both ways from now on (close_learnt). */
static void learn_include(struct search *sr, size_t c, const char *line)
{
	const struct change_set *s = sr->s;
	struct learnt *l = sr->learnt;
	if (!l)
		return;
	char **names;
	size_t nn = repair_names(line, &names);
	const struct change_file *cf = &s->files[s->changes[c].file];
	for (size_t u = cf->change0; u < cf->change0 + cf->nchanges; u++) {
		if (u == c)
			continue;
		struct change_lines cl;
		change_lines_of(s, u, &cl);
		size_t holds = 0;   /* 1 + the name's index */
		for (size_t i = 0; i < nn && !holds; i++) {
			char *list = one_name(names[i]);
			for (size_t k = 0; k < cl.nadded && !holds; k++)
				holds = holds_name(cl.added[k], strlen(cl.added[k]), list) ? i + 1 : 0;
			free(list);
		}
		change_lines_free(&cl);
		if (holds)
			learn_need(l, u, c, names[holds - 1]);
	}
	repair_names_free(names);
}

/* Reverting, repair took back with a change declaring a name the errors
 * give the changes that use it (an include of the source defining it moved
 * away, a caller): learn that they need it, so that from now on reverting
 * it reverts them (close_learnt), and the search pays for that failed
 * build once. reverted: the configuration as tested (reverted atoms
 * clear). */
static void learn_reverted_uses(struct search *sr, const char *excerpt, const struct bits *reverted)
{
	struct learnt *l = sr->learnt;
	if (!l || !sr->deps)
		return;
	char **names;
	size_t nn = repair_names(excerpt, &names);
	size_t *decl = xmalloc((sr->s->nchanges + 1) * sizeof(*decl)), *inv = xmalloc((sr->s->nchanges + 1) * sizeof(*inv));
	for (size_t i = 0; i < nn; i++) {
		size_t nd = deps_declaring(sr->deps, names[i], decl), ni = deps_involving(sr->deps, names[i], inv);
		for (size_t a = 0; a < nd; a++) {
			if (sr_change_touched(&sr->s->changes[decl[a]], reverted, 1))
				continue;   /* not reverted */
			for (size_t b = 0; b < ni; b++) {
				size_t u = inv[b];
				if (u != decl[a] && sr_change_touched(&sr->s->changes[u], reverted, 1))
					learn_need(l, u, decl[a], names[i]);
			}
		}
	}
	free(decl);
	free(inv);
	repair_names_free(names);
}

/* The needs learnt from repairs: applied (revert 0), a change brings what
 * it needs; reverted (revert 1), a change takes what needs it. At token
 * level, a change taken apart ties by its pieces that hold the name the
 * need is for, as sr_close_deps does. Returns how many atoms it added. */
static size_t close_learnt(const struct search *sr, struct bits *b, int revert)
{
	const struct change_set *s = sr->s;
	const struct learnt *l = sr->learnt;
	const struct bits *apart = sr->u && sr->u->tokens ? sr->token_apart : NULL;
	int value = revert ? 0 : 1;
	size_t added = 0;
	for (size_t k = 0; l && k < l->n; k++) {
		size_t fc = l->need[k][revert], tc = l->need[k][!revert];
		const struct change *from = &s->changes[fc], *to = &s->changes[tc];
		int in = 0;
		for (size_t a = from->atom0; a < from->atom0 + from->natoms && !in; a++)
			in = bits_test(b, a) == value && !(apart && bits_test(apart, fc) && !sr_piece_names(s, a, l->name[k]));
		if (!in || (!revert && sr->pool && !bits_test(sr->pool, to->atom0)))
			continue;
		for (size_t a = to->atom0; a < to->atom0 + to->natoms; a++)
			if (bits_test(b, a) != value && !(apart && bits_test(apart, tc) && !sr_piece_names(s, a, l->name[k]))) {
				value ? bits_set(b, a) : bits_clear(b, a);
				added++;
			}
	}
	return added;
}

size_t sr_close_needs(const struct search *sr, struct bits *b, int revert)
{
	const struct change_set *s = sr->s;
	const struct deps *d = sr->deps;
	int value = revert ? 0 : 1;
	size_t n = 0;
	for (size_t k = 1; k;) {
		k = d ? sr_close_deps(sr, b, revert, 0) : 0;
		for (size_t q = 0; d && sr->learnt && sr->learnt->quiet && q < d->nquiet; q++) {
			const struct change *from = &s->changes[d->quiet[q][revert]], *to = &s->changes[d->quiet[q][!revert]];
			if (!sr_change_touched(from, b, value))
				continue;
			for (size_t a = to->atom0; a < to->atom0 + to->natoms; a++)
				if (bits_test(b, a) != value) {
					value ? bits_set(b, a) : bits_clear(b, a);
					k++;
				}
		}
		n += k;
	}
	return n;
}

/* A name the errors say is missing that no change declares comes from a
 * header (assert, memcpy): the changes of the search that add an #include
 * to the file the error is in are added to applied (and to added_all).
 * Returns how many atoms it added. */
static size_t add_includes(struct search *sr, const char *excerpt, struct bits *applied, struct bits *added_all)
{
	const struct change_set *s = sr->s;
	size_t added = 0, *tmp = xmalloc((s->nchanges + 1) * sizeof(*tmp));
	for (const char *line = excerpt; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		long f = error_file(s, line, len);
		char *copy = xstrndup(line, len), **names;
		size_t nn = f >= 0 ? repair_names(copy, &names) : 0;
		int undeclared = 0;
		for (size_t i = 0; i < nn && !undeclared; i++)
			undeclared = deps_declaring(sr->deps, names[i], tmp) == 0;
		if (f >= 0)
			repair_names_free(names);
		line += len + (nl != NULL);
		if (!undeclared) {
			free(copy);
			continue;
		}
		const struct change_file *cf = &s->files[f];
		for (size_t c = cf->change0; c < cf->change0 + cf->nchanges; c++) {
			const struct change *ch = &s->changes[c];
			if (!bits_test(sr->pool, ch->atom0) || bits_test(applied, ch->atom0) || !adds_include(s, c))
				continue;
			for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++) {
				bits_set(applied, a);
				bits_set(added_all, a);
				added++;
			}
			learn_include(sr, c, copy);
		}
		free(copy);
	}
	free(tmp);
	return added;
}

/* The changes whose new lines use name, a name change gen makes by way
 * of the build (a data file's line a script turns into a macro), need
 * gen from now on. */
static void learn_generator(struct search *sr, size_t gen, const char *name)
{
	struct learnt *l = sr->learnt;
	char *list = one_name(name);
	for (size_t u = 0; l && u < sr->s->nchanges; u++) {
		if (u == gen || !deps_reads(sr->s->files[sr->s->changes[u].file].new_path))
			continue;
		struct change_lines cl;
		change_lines_of(sr->s, u, &cl);
		int holds = 0;
		for (size_t k = 0; k < cl.nadded && !holds; k++)
			holds = holds_name(cl.added[k], strlen(cl.added[k]), list);
		change_lines_free(&cl);
		if (holds)
			learn_need(l, u, gen, name);
	}
	free(list);
}

/* A name the errors say is undeclared, that no change declares, may be
 * made by the build from a file that is not C: nasm's directiv.dat lists
 * `dollarhex` and a script makes `D_DOLLARHEX` of it. The changes of the
 * search in such files whose new text holds the name, or its part after
 * its first underscore, as a word in any case, are added to applied (and
 * to added_all). Returns how many atoms it added. */
static size_t add_generators(struct search *sr, const char *excerpt, struct bits *applied, struct bits *added_all)
{
	const struct change_set *s = sr->s;
	char **names;
	size_t nn = repair_names(excerpt, &names), added = 0, *tmp = xmalloc((s->nchanges + 1) * sizeof(*tmp));
	for (size_t i = 0; i < nn; i++) {
		if (deps_declaring(sr->deps, names[i], tmp) > 0)
			continue;
		const char *us = strchr(names[i], '_');
		const char *stems[2] = {names[i], us && us[1] ? us + 1 : NULL};
		for (size_t c = 0; c < s->nchanges; c++) {
			const struct change *ch = &s->changes[c];
			const struct change_file *f = &s->files[ch->file];
			if (!bits_test(sr->pool, ch->atom0) || bits_test(applied, ch->atom0) || !f->new_data ||
			    deps_reads(f->new_path))
				continue;
			int holds = 0;
			for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms && !holds; a++) {
				const struct change_atom *t = &s->atoms[a];
				for (int k = 0; k < 2 && !holds; k++)
					holds = stems[k] && scan_holds_word(f->new_data + t->new_off, t->new_end - t->new_off, stems[k],
									 strlen(stems[k]), 1);
			}
			for (size_t a = ch->atom0; holds && a < ch->atom0 + ch->natoms; a++) {
				bits_set(applied, a);
				bits_set(added_all, a);
				added++;
			}
			if (holds)
				learn_generator(sr, c, names[i]);
		}
	}
	free(tmp);
	repair_names_free(names);
	return added;
}

/* An error that came through a macro a change of the search redefines
 * (a function passed by name to it, called with the arguments of one
 * revision: lua's luaV_fastget): the changes applied that declare the
 * other names the errors give need the changes defining the macro that
 * repair is adding (not applied, in the pool), from now on, so the
 * search pays for that failed build once. */
static void learn_macros(struct search *sr, const char *excerpt, const struct bits *applied)
{
	struct learnt *l = sr->learnt;
	if (!l || !sr->deps)
		return;
	char **macros, **names;
	size_t nm = repair_macros(excerpt, &macros), nn = nm ? repair_names(excerpt, &names) : 0;
	size_t *mdecl = xmalloc((sr->s->nchanges + 1) * sizeof(*mdecl)), *ndecl = xmalloc((sr->s->nchanges + 1) * sizeof(*ndecl));
	for (size_t i = 0; i < nm; i++) {
		size_t nmd = deps_declaring(sr->deps, macros[i], mdecl);
		for (size_t k = 0; k < nmd; k++) {
			const struct change *h = &sr->s->changes[mdecl[k]];
			if (sr_change_touched(h, applied, 1) || !bits_test(sr->pool, h->atom0))
				continue;
			for (size_t j = 0; j < nn; j++) {
				int macro = 0;
				for (size_t q = 0; q < nm && !macro; q++)
					macro = !strcmp(names[j], macros[q]);
				size_t nnd = macro ? 0 : deps_declaring(sr->deps, names[j], ndecl);
				for (size_t u = 0; u < nnd; u++)
					if (ndecl[u] != mdecl[k] && sr_change_touched(&sr->s->changes[ndecl[u]], applied, 1))
						learn_need(l, ndecl[u], mdecl[k], macros[i]);
			}
		}
	}
	free(mdecl);
	free(ndecl);
	if (nm)
		repair_names_free(names);
	repair_names_free(macros);
}

/* Close b under the needs (sr_close_config), marking in noted the atoms
 * that changed; how many. */
static size_t close_noting(const struct search *sr, struct bits *b, int revert, struct bits *noted)
{
	struct bits *before = bits_dup(b);
	size_t n = 0;
	if (sr_close_config(sr, b, revert))
		for (size_t a = 0; a < sr->s->natoms; a++)
			if (bits_test(before, a) != bits_test(b, a)) {
				bits_set(noted, a);
				n++;
			}
	bits_free(before);
	return n;
}

/* A build error for a name left unused says the build makes warnings
 * errors (-Werror): from now on every configuration takes the needs deps
 * keeps for that case (quiet: a new static's declaration with its only
 * user, the only use of an old one removed with its declaration), so one
 * failed build teaches them all. Whether it took them. */
static int learn_quiet(struct search *sr, const char *excerpt)
{
	struct learnt *l = sr->learnt;
	if (!l || l->quiet || !sr->deps)
		return 0;
	char **names;
	size_t nn = repair_unused(excerpt, &names);
	repair_names_free(names);
	if (!nn)
		return 0;
	l->quiet = 1;
	for (size_t k = 0; k < sr->deps->nquiet; k++)
		learn_need(l, sr->deps->quiet[k][0], sr->deps->quiet[k][1], sr->deps->quiet_names[k]);
	if (sr->deps->nquiet)
		ex_event(sr->x, "WERROR", "unused names do not build: %zu declaration%s and only use%s taken together "
			 "from now on", sr->deps->nquiet, sr->deps->nquiet == 1 ? "" : "s", sr->deps->nquiet == 1 ? "" : "s");
	return 1;
}

/* Under -Werror a name left unused fails the build: a static helper
 * without its caller, an old static whose last call is gone, a local
 * whose only use went. The change of the search that takes its
 * declaration away goes in (the old static's removal), or else the first
 * that uses it (the helper's caller): one use is enough. It is added to
 * applied (and to added_all), and the applied changes involving the name
 * need it from now on (close_learnt), so the search pays for that failed
 * build once. Returns how many atoms it added. */
static size_t add_unused(struct search *sr, const char *excerpt, struct bits *applied, struct bits *added_all)
{
	const struct change_set *s = sr->s;
	char **names;
	size_t nn = repair_unused(excerpt, &names), added = 0;
	if (learn_quiet(sr, excerpt))
		added += close_noting(sr, applied, 0, added_all);   /* what the needs bring, as repair adds */
	size_t *inv = xmalloc((s->nchanges + 1) * sizeof(*inv)), *decl = xmalloc((s->nchanges + 1) * sizeof(*decl));
	char *in = xmalloc(s->nchanges + 1), *take = xmalloc(s->nchanges + 1);
	for (size_t i = 0; i < nn; i++) {
		size_t ni = deps_involving(sr->deps, names[i], inv), nd = deps_declaring(sr->deps, names[i], decl);
		long first = -1;
		int declares = 0;
		for (size_t k = 0; k < ni; k++) {
			const struct change *ch = &s->changes[inv[k]];
			in[inv[k]] = sr_change_touched(ch, applied, 1);
			take[inv[k]] = !in[inv[k]] && bits_test(sr->pool, ch->atom0);
			for (size_t j = 0; take[inv[k]] && j < nd; j++)
				declares |= decl[j] == inv[k];
			if (take[inv[k]] && first < 0)
				first = (long)inv[k];
		}
		for (size_t k = 0; k < ni; k++) {
			int d = 0;
			for (size_t j = 0; j < nd; j++)
				d |= decl[j] == inv[k];
			if (!take[inv[k]] || (declares ? !d : (long)inv[k] != first))
				continue;
			const struct change *ch = &s->changes[inv[k]];
			for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
				if (!bits_test(applied, a)) {
					bits_set(applied, a);
					bits_set(added_all, a);
					added++;
				}
			for (size_t u = 0; sr->learnt && u < ni; u++)
				if (in[inv[u]])
					learn_need(sr->learnt, inv[u], inv[k], names[i]);
		}
	}
	free(take);
	free(in);
	free(decl);
	free(inv);
	repair_names_free(names);
	return added;
}

/* Did a configuration holding b pass (good_only: one applied to good,
 * not a reversion from bad)? Under the monotony the search assumes, b
 * passes too. */
static int passed_holds(const struct search *sr, const struct bits *b, int good_only)
{
	for (size_t k = 0; sr->passed && k < sr->passed->n; k++)
		if ((!good_only || !sr->passed->reverted[k]) && bits_subset(b, sr->passed->b[k]))
			return 1;
	return 0;
}

int sr_passed_holds(const struct search *sr, const struct bits *b)
{
	return passed_holds(sr, b, 0);
}

/* Keep a configuration that passed (sr_passed_holds reads them). */
static void remember_passed(struct search *sr, const struct bits *applied, int reverted)
{
	struct passed *p = sr->passed;
	if (!p)
		return;
	p->b = xrealloc(p->b, (p->n + 1) * sizeof(*p->b));
	p->reverted = xrealloc(p->reverted, p->n + 1);
	p->reverted[p->n] = (char)reverted;
	p->b[p->n++] = bits_dup(applied);
}

/* Test `applied` (applied to the good side); when it does not build, add
 * the changes of the search that declare what the compiler says is missing
 * or wrong, and test that repaired configuration instead, a few rounds at
 * most. applied grows by what was added. The verdict, or <0. */
int sr_test_repaired(struct search *sr, struct bits *applied)
{
	struct bits *added_all = bits_new(sr->s->natoms);
	for (int round = 0;; round++) {
		sr_close_config(sr, applied, 0);
		/* Under the monotony the search assumes, a configuration held
		 * by one applied to good that passed passes: no build. Never
		 * against a tested outcome, and a failure is never implied.
		 * (A reversion that passed is no ground: reverting more than
		 * the fix may mask the failure, moved_mark.) */
		if (round == 0 && !sr_tested(sr, applied) && passed_holds(sr, applied, 1)) {
			sr_note_implied(sr, applied);
			bits_free(added_all);
			return VERDICT_PASS;
		}
		enum unresolved_why why = WHY_NONE;
		char *excerpt = NULL;
		int v = sr_test_atoms_ex(sr, applied, 0, &why, &excerpt);
		int names = sr->deps && sr->pool && !(sr->u && sr->u->tokens);
		if (v != VERDICT_UNRESOLVED || why != WHY_BUILD || round == REPAIR_ROUNDS || !excerpt) {
			free(excerpt);
			if (v == VERDICT_PASS)
				remember_passed(sr, applied, 0);
			/* Sound only when what repair added does not fail by itself
			 * (tested, unless a configuration holding it passed): else
			 * the cause may be in it, and this subset tells nothing. */
			if (v == VERDICT_FAIL && bits_count(added_all) > 0)
				sr_close_config(sr, added_all, 0);   /* alone, it builds only with what it needs */
			if (v == VERDICT_FAIL && bits_count(added_all) > 0 && !sr_passed_holds(sr, added_all)) {
				int alone = sr_test_atoms(sr, added_all, 0, NULL);
				if (alone < 0)
					v = alone;
				else if (alone == VERDICT_FAIL)
					v = VERDICT_UNRESOLVED;
			}
			bits_free(added_all);
			return v;
		}
		if (names)
			learn_macros(sr, excerpt, applied);
		size_t *decl = NULL, nd = names ? complained_of(sr, excerpt, 0, &decl) : 0, added = 0;
		for (size_t k = 0; k < nd; k++) {
			const struct change *ch = &sr->s->changes[decl[k]];
			for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
				if (bits_test(sr->pool, a) && !bits_test(applied, a)) {
					bits_set(applied, a);
					bits_set(added_all, a);
					added++;
				}
		}
		free(decl);
		/* Names left unused (-Werror): their declarations with their uses. */
		added += names ? add_unused(sr, excerpt, applied, added_all) : 0;
		/* Names from a header: its include, before learning the file whole. */
		size_t inc = !added && names ? add_includes(sr, excerpt, applied, added_all) : 0;
		/* Names a build script makes from a data file. */
		inc += !added && !inc && names ? add_generators(sr, excerpt, applied, added_all) : 0;
		added += inc;
		/* Errors no name explains: the file was taken in part. */
		if (!inc && learn_whole(sr, excerpt, applied, 0, round > 0)) {
			added += sr_close_config(sr, applied, 0);
			/* What repair added to a file now whole is there anyway. */
			for (size_t a = 0; a < sr->s->natoms; a++)
				if (bits_test(added_all, a) &&
				    bits_test(sr->whole_file, sr->s->changes[sr->s->atoms[a].change].file))
					bits_clear(added_all, a);
		}
		free(excerpt);
		if (!added) {
			bits_free(added_all);
			return v;
		}
	}
}

/* Test `applied` as a reversion from bad, closed under the dependences;
 * when it does not build, revert also the changes of the search that
 * declare or use what the compiler complains about, a few rounds at most.
 * applied shrinks by what was reverted. The verdict, or <0; *why as
 * sr_test_atoms. */
int sr_test_revert_repaired(struct search *sr, struct bits *applied, enum unresolved_why *why_out)
{
	struct bits *added_all = bits_new(sr->s->natoms);
	sr_close_config(sr, applied, 1);
	for (int round = 0;; round++) {
		enum unresolved_why why = WHY_NONE;
		char *excerpt = NULL;
		int v = sr_test_atoms_ex(sr, applied, 1, &why, &excerpt);
		int names = sr->deps && !(sr->u && sr->u->tokens);
		if (v != VERDICT_UNRESOLVED || why != WHY_BUILD || round == REPAIR_ROUNDS || !excerpt) {
			free(excerpt);
			if (v == VERDICT_PASS)
				remember_passed(sr, applied, 1);
			/* Sound only when reverting what repair added still
			 * fails by itself: else the fix may be in it. */
			if (v == VERDICT_PASS && bits_count(added_all) > 0) {
				struct bits *alone = bits_new(sr->s->natoms);
				bits_fill(alone);
				for (size_t a = 0; a < sr->s->natoms; a++)
					if (bits_test(added_all, a))
						bits_clear(alone, a);
				sr_close_config(sr, alone, 1);
				int w = sr_test_atoms(sr, alone, 1, NULL);
				bits_free(alone);
				if (w < 0)
					v = w;
				else if (w != VERDICT_FAIL)
					v = VERDICT_UNRESOLVED;
			}
			bits_free(added_all);
			if (why_out)
				*why_out = why;
			return v;
		}
		if (names)
			learn_reverted_uses(sr, excerpt, applied);
		size_t quiet = names && learn_quiet(sr, excerpt) ? close_noting(sr, applied, 1, added_all) : 0;
		size_t *inv = NULL, ni = names ? complained_of(sr, excerpt, 1, &inv) : 0, added = quiet;
		for (size_t k = 0; k < ni; k++) {
			const struct change *ch = &sr->s->changes[inv[k]];
			if (!sr_change_touched(ch, applied, 1))
				continue;
			for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++)
				if (bits_test(applied, a)) {
					bits_clear(applied, a);
					bits_set(added_all, a);
				}
			added++;
		}
		free(inv);
		/* Errors no name explains: the file (group) was taken in part. */
		if (learn_whole(sr, excerpt, applied, 1, round > 0))
			added += sr_close_config(sr, applied, 1);
		free(excerpt);
		if (!added) {
			bits_free(added_all);
			if (why_out)
				*why_out = why;
			return v;
		}
		close_noting(sr, applied, 1, added_all);
	}
}

