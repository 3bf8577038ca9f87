#include "core/isolate/deps.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/isolate/scan.h"

/* ---------------------------------------------------------------- grouping */

static int c_like(const char *path)
{
	const char *dot = strrchr(path, '.');
	static const char *const ext[] = {".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".inc", ".y", ".l", NULL};
	for (size_t i = 0; dot && ext[i]; i++)
		if (!strcmp(dot, ext[i]))
			return 1;
	return 0;
}

static size_t find(long *parent, size_t a)
{
	while ((size_t)parent[a] != a)
		a = (size_t)(parent[a] = parent[parent[a]]);
	return a;
}

static void unite(long *parent, size_t a, size_t b)
{
	a = find(parent, a);
	b = find(parent, b);
	if (a != b)
		parent[a > b ? a : b] = (long)(a < b ? a : b);
}

/* The line range of change c on one side: [from, to). */
static void side_range(const struct change_set *s, size_t c, int side, int *from, int *to)
{
	const struct change *ch = &s->changes[c];
	*from = *to = 0;
	if (ch->kind == CHANGE_HUNK) {
		*from = side ? ch->new_start : ch->old_start;
		*to = *from + (side ? ch->new_lines : ch->old_lines);
	} else if ((ch->kind == CHANGE_FILE_ADD && side) || (ch->kind == CHANGE_FILE_DELETE && !side)) {
		*from = 1;
		*to = 1 << 30;
	}
}

/* One declaration seen in a hunk. */
struct hdecl {
	size_t change;
	int side;           /* 0 old, 1 new */
	const struct decl *d;
	int guarded;        /* unchanged, but in a conditional branch the hunk opens or closes */
	char *cond;         /* in a hunk: the conditions it is compiled under (cond_of), else NULL */
	const char *scope;  /* a local's function as the old revision names it (renamed_from), else NULL */
};

/* Whether the conditional at token g is `#ifndef X` (or `#if
 * !defined(X)`) followed by `#define X`: an include guard, or a default
 * value, true wherever it stands. */
static int self_guard(const struct scan *sc, size_t g)
{
	const struct tok *t = sc->t;
	size_t j = g + 1, x;
	int line = t[g].line;
	if (scan_tok_is(&t[g], "if") && j < sc->nt && scan_punct(&t[j], '!'))
		for (j++; j < sc->nt && t[j].line == line && (scan_tok_is(&t[j], "defined") || scan_punct(&t[j], '('));)
			j++;
	else if (!scan_tok_is(&t[g], "ifndef"))
		return 0;
	if (j >= sc->nt || t[j].line != line || t[j].kind != T_IDENT)
		return 0;
	x = j;
	while (j < sc->nt && t[j].line == line)
		j++;
	return j + 2 < sc->nt && scan_punct(&t[j], '#') && scan_tok_is(&t[j + 1], "define") &&
	       t[j + 2].len == t[x].len && !memcmp(t[j + 2].s, t[x].s, t[x].len);
}

/* The conditions token k of sc is compiled under: the directive lines of
 * its guards, innermost first, "" when none, include guards left out;
 * to free. */
static char *cond_of(const struct scan *sc, size_t k)
{
	struct buf o = BUF_INIT;
	for (long g = sc->t[k].guard; g >= 0; g = sc->t[g].guard) {
		if (self_guard(sc, (size_t)g))
			continue;
		for (size_t j = (size_t)g; j < sc->nt && sc->t[j].directive && sc->t[j].line == sc->t[g].line; j++) {
			buf_add(&o, sc->t[j].s, sc->t[j].len);
			buf_addc(&o, ' ');
		}
		buf_addc(&o, '|');
	}
	buf_addc(&o, '\0');
	return buf_detach(&o);
}

/* Whether one declaration in a hunk on each side (idx[0, n)), in one
 * file, is compiled under other conditions in the two revisions
 * (cond_of): put under a new `#ifndef`, or taken out of one. A name
 * declared in several branches, or moved to another file, is left to
 * the other ties. */
static int conds_differ(const struct change_set *s, const struct hdecl *hd, const size_t *idx, size_t n)
{
	const struct hdecl *x[2] = {NULL, NULL};
	for (size_t a = 0; a < n; a++) {
		const struct hdecl *h = &hd[idx[a]];
		if (!h->cond || (x[h->side] && x[h->side]->d != h->d))
			return 0;
		x[h->side] = h;
	}
	return x[0] && x[1] && s->changes[x[0]->change].file == s->changes[x[1]->change].file &&
	       strcmp(x[0]->cond, x[1]->cond) != 0;
}

/* The change owning each line of one side of file f (its hunk), else -1;
 * indexed by line, up to the scan's last line + 1. */
static long *line_owners(const struct change_set *s, size_t f, const struct scan *sc, int side)
{
	const struct change_file *cf = &s->files[f];
	int maxl = sc->nt ? sc->t[sc->nt - 1].line : 0;
	if (sc->ncm && sc->cm[sc->ncm - 1].last > maxl)
		maxl = sc->cm[sc->ncm - 1].last;
	long *own = xmalloc(((size_t)maxl + 2) * sizeof(*own));
	for (int l = 0; l <= maxl + 1; l++)
		own[l] = -1;
	for (size_t c = cf->change0; c < cf->change0 + cf->nchanges; c++) {
		int from, to;
		side_range(s, c, side, &from, &to);
		for (int l = from < 0 ? 0 : from; l < to && l <= maxl + 1; l++)
			own[l] = (long)c;
	}
	return own;
}

/* The line of the other side that unchanged line l of file f's side is:
 * l moved by what the changes before it added and removed (a change of no
 * lines on a side sits after its start line there, as git counts). */
static int other_line(const struct change_set *s, size_t f, int side, int l)
{
	const struct change_file *cf = &s->files[f];
	int other = l;
	for (size_t c = cf->change0; c < cf->change0 + cf->nchanges; c++) {
		int from, to, ofrom, oto;
		side_range(s, c, side, &from, &to);
		side_range(s, c, !side, &ofrom, &oto);
		if (to > from ? to <= l : from < l)
			other += (oto - ofrom) - (to - from);
	}
	return other;
}

/* Code commented out (or back in) by hunks: a block comment opened by an
 * added line above unchanged definitions and closed by another below them.
 * The unchanged lines a block comment covers on one side of file f, that
 * hold code on the other, are that code's removal (or addition) by the
 * hunk opening the comment (or, when its opening line is unchanged,
 * closing it): they are owned by it there, as an unchanged field under a
 * new `#else` is, so the names they declare are that hunk's and their
 * brackets its own. The hunks opening and closing such a comment are tied
 * as brackets are: one without the other comments out the file up to the
 * next end of a comment, or leaves a stray one. */
static void comment_owners(const struct change_set *s, size_t f, const struct scan *sc, long *const *owners,
			   long *hard)
{
	for (int side = 0; side < 2; side++) {
		const struct scan *o = &sc[!side];
		int maxo = o->nt ? o->t[o->nt - 1].line : 0;
		char *code = xcalloc((size_t)maxo + 2, 1);
		for (size_t k = 0; k < o->nt; k++)
			code[o->t[k].line] = 1;
		const long *own = owners[side];
		for (size_t i = 0; i < sc[side].ncm; i++) {
			const struct span *c = &sc[side].cm[i];
			long by = own[c->first] >= 0 ? own[c->first] : own[c->last];
			if (by < 0)
				continue;
			size_t hidden = 0;
			for (int l = c->first + 1; l < c->last; l++) {
				int ol = own[l] < 0 ? other_line(s, f, side, l) : 0;
				if (ol > 0 && ol <= maxo && code[ol] && owners[!side][ol] < 0) {
					owners[!side][ol] = by;
					hidden++;
				}
			}
			if (hidden && own[c->first] >= 0 && own[c->last] >= 0)
				unite(hard, (size_t)own[c->first], (size_t)own[c->last]);
		}
		free(code);
	}
}

/* The change whose conditional directive (#if, #else, #endif... in its
 * lines) decides whether unchanged token k is compiled: the nearest such
 * branch around it, or -1. An old field left under a new `#else` is
 * compiled out with the other branch's macro defined, as if that hunk had
 * removed it. */
static long guarded_by(const struct scan *sc, const long *own, size_t k)
{
	for (long g = sc->t[k].guard; g >= 0; g = sc->t[g].guard)
		if (own[sc->t[g].line] >= 0)
			return own[sc->t[g].line];
	return -1;
}

/* The change that token k belongs to: the hunk holding its line, else the
 * one guarding it, else -1. */
static long owner_of(const struct scan *sc, const long *own, size_t k)
{
	long o = own[sc->t[k].line];
	return o >= 0 ? o : guarded_by(sc, own, k);
}

static int bracket(const struct tok *t)
{
	return !t->directive && t->kind == T_PUNCT && t->len == 1 && strchr("{}()", t->s[0]);
}

/* How many bracket nodes token k of sc is: a #else or #elif is two (the
 * branch it closes, the one it opens). */
static int bracket_nodes(const struct scan *sc, size_t k)
{
	char c = scan_cond(sc, k);
	return c == 'm' ? 2 : c || bracket(&sc->t[k]);
}

/* Hunks that only build together because of their brackets. Each side of
 * file f is read as a sequence of braces, parentheses and preprocessor
 * conditionals (#ifdef ... #else ... #endif), each owned by the
 * hunk whose lines hold it or by the context (the unchanged text, whose
 * brackets are the same sequence on both sides). Pairing them (a stack
 * per kind) links owners: a bracket a hunk opens and another hunk closes
 * (an if wrapped around old code by two hunks), or a context bracket whose
 * partner differs between the revisions (a function split in two: the old
 * body's brace is closed by a new "}" in one hunk, and the old closing
 * brace now ends a function another hunk opens). The hunks of every
 * connected set holding such a link are one group; hunks that only replace
 * brackets alike (`-} else {` `+} else {`) stay apart. */
static void pair_brackets(const struct change_set *s, size_t f, const struct scan *sc, long *const *owners,
			  long *parent)
{
	const struct change_file *cf = &s->files[f];
	size_t nh = cf->nchanges, nctx[2] = {0, 0};
	for (int side = 0; side < 2; side++)
		for (size_t k = 0; k < sc[side].nt; k++)
			if (owners[side][sc[side].t[k].line] < 0)
				nctx[side] += (size_t)bracket_nodes(&sc[side], k);
	/* Nodes: hunks 0..nh-1, then context brackets, the k-th of the
	 * unchanged text the same node on both sides. An unchanged line may
	 * hold brackets on one side only (memcached's `}` ending a #define
	 * continued by backslashes in the old revision, a function's body in
	 * the new): then each unchanged line's brackets are nodes of both
	 * sides when the line holds as many on both, else of its side only. */
	int *first[2] = {NULL, NULL};   /* per side and line: its first node, or -1 */
	size_t nn = nh + nctx[0];
	char *one_side = xcalloc(nctx[0] + nctx[1] + 1, 1);   /* per context node */
	if (nctx[0] != nctx[1]) {
		int maxl[2];
		int *count[2];
		for (int side = 0; side < 2; side++) {
			maxl[side] = sc[side].nt ? sc[side].t[sc[side].nt - 1].line : 0;
			count[side] = xcalloc((size_t)maxl[side] + 2, sizeof(int));
			first[side] = xmalloc(((size_t)maxl[side] + 2) * sizeof(int));
			for (int l = 0; l <= maxl[side] + 1; l++)
				first[side][l] = -1;
			for (size_t k = 0; k < sc[side].nt; k++)
				if (owners[side][sc[side].t[k].line] < 0)
					count[side][sc[side].t[k].line] += bracket_nodes(&sc[side], k);
		}
		nn = nh;
		for (int l = 1; l <= maxl[0]; l++) {
			if (!count[0][l])
				continue;
			int o = other_line(s, f, 0, l), both = o >= 1 && o <= maxl[1] && count[1][o] == count[0][l] &&
							      first[1][o] < 0;
			first[0][l] = (int)nn;
			if (both)
				first[1][o] = (int)nn;
			for (int k = 0; k < count[0][l]; k++)
				one_side[nn - nh + (size_t)k] = !both;
			nn += (size_t)count[0][l];
		}
		for (int l = 1; l <= maxl[1]; l++)
			if (count[1][l] && first[1][l] < 0) {
				first[1][l] = (int)nn;
				for (int k = 0; k < count[1][l]; k++)
					one_side[nn - nh + (size_t)k] = 1;
				nn += (size_t)count[1][l];
			}
		free(count[0]);
		free(count[1]);
	}
	long *uf = xmalloc((nn + 1) * sizeof(*uf));
	long *partner = xmalloc((2 * (nn - nh) + 1) * sizeof(*partner));
	char *linked = xcalloc(nn + 1, 1);
	for (size_t i = 0; i < nn; i++)
		uf[i] = (long)i;
	for (size_t i = 0; i < 2 * (nn - nh); i++)
		partner[i] = -1;
	size_t *stack = xmalloc((sc[0].nt + sc[1].nt + 1) * sizeof(*stack));
	size_t *at = xmalloc((sc[0].nt + sc[1].nt + 1) * sizeof(*at));   /* each opener's token */
	for (int side = 0; side < 2; side++) {
		/* kind 0: braces, 1: parentheses, 2: conditionals */
		for (int kind = 0; kind < 3; kind++) {
			size_t sp = 0, ctx = 0, inline_ = 0;
			int line = -1;
			for (size_t k = 0; k < sc[side].nt; k++) {
				const struct tok *t = &sc[side].t[k];
				int nodes = bracket_nodes(&sc[side], k);
				if (!nodes)
					continue;
				long o = owners[side][t->line] < 0 ? -1 : owners[side][t->line] - (long)cf->change0;
				if (t->line != line) {
					line = t->line;
					inline_ = 0;
				}
				size_t node = o >= 0 ? (size_t)o : first[side] ? (size_t)first[side][t->line] + inline_ : nh + ctx;
				ctx += o < 0 ? (size_t)nodes : 0;
				inline_ += o < 0 ? (size_t)nodes : 0;
				char role = kind == 2 ? scan_cond(&sc[side], k)
					    : bracket(t) && t->s[0] == "{("[kind] ? 'o'
					    : bracket(t) && t->s[0] == "})"[kind] ? 'c' : 0;
				if ((role == 'c' || role == 'm') && sp > 0) {
					size_t mate = stack[--sp];
					unite(uf, node, mate);
					/* A hunk's brace closed by an unchanged one (or the
					 * other way): the conditionals hunks change between
					 * them are its set's too. littlefs's `if (...) {`
					 * moved into the `#else` branch whose `#endif`
					 * another hunk moved below the unchanged `}`: with
					 * the brace and not the `#endif`, the `}` closes
					 * the function when the macro is defined. */
					for (size_t j = at[sp] + 1; kind < 2 && (node < nh) != (mate < nh) && j < k; j++) {
						long oj = owners[side][sc[side].t[j].line];
						if (oj >= 0 && scan_cond(&sc[side], j))
							unite(uf, node, (size_t)(oj - (long)cf->change0));
					}
					if (node < nh && mate < nh && node != mate)
						linked[node] = 1;   /* (marks the set below) */
					if (node >= nh)
						partner[2 * (node - nh) + (size_t)side] = (long)mate;
					if (mate >= nh)
						partner[2 * (mate - nh) + (size_t)side] = (long)node;
				}
				/* A #else's second node (the branch it opens) follows its first. */
				if (role == 'm' && o < 0)
					node++;
				if (role == 'o' || role == 'm') {
					at[sp] = k;
					stack[sp++] = node;
				}
			}
		}
	}
	/* A set is linked when it holds a hunk paired with another hunk, or a
	 * context bracket paired differently in the two revisions. */
	char *set_linked = xcalloc(nn + 1, 1);
	for (size_t i = 0; i < nn; i++) {
		/* (A node of one side only has no partner to compare.) */
		int l = i < nh ? linked[i] : !one_side[i - nh] && partner[2 * (i - nh)] != partner[2 * (i - nh) + 1];
		if (l)
			set_linked[find(uf, i)] = 1;
	}
	size_t *head = xmalloc((nn + 1) * sizeof(*head));
	for (size_t i = 0; i < nn; i++)
		head[i] = SIZE_MAX;
	for (size_t h = 0; h < nh; h++) {
		size_t r = find(uf, h);
		if (!set_linked[r])
			continue;
		if (head[r] == SIZE_MAX)
			head[r] = h;
		else
			unite(parent, cf->change0 + head[r], cf->change0 + h);
	}
	free(head);
	free(first[0]);
	free(first[1]);
	free(one_side);
	free(set_linked);
	free(stack);
	free(at);
	free(linked);
	free(partner);
	free(uf);
}

/* Brace depth at the start of each line of sc, lines 1..nlines. */
static int *depths(const struct scan *sc, int nlines)
{
	int *d = xmalloc(((size_t)nlines + 2) * sizeof(*d));
	int depth = 0;
	size_t k = 0;
	for (int l = 0; l <= nlines; l++) {
		for (; k < sc->nt && sc->t[k].line < l; k++)
			if (bracket(&sc->t[k]) && (sc->t[k].s[0] == '{' || sc->t[k].s[0] == '}'))
				depth += sc->t[k].s[0] == '{' ? 1 : -1;
		d[l] = depth;
	}
	return d;
}

/* The function whose body holds line l of sc, or NULL. */
static const char *enclosing(const struct scan *sc, int l)
{
	for (size_t i = 0; i < sc->nb; i++)
		if (sc->b[i].first <= l && l <= sc->b[i].last)
			return sc->b[i].name;
	return NULL;
}

static const struct body *body_named(const struct scan *sc, const char *name);

/* The old name of each function of file f's new side that was renamed
 * (tcpdump's `ether_hdr_len_print` made `ether_print_common`, its body
 * kept): a new body whose name no old body has, whose unchanged lines lie
 * in an old body whose name no new body has. Per new body, that name or
 * NULL (to free; the names are the old scan's). */
static const char **renamed_from(const struct change_set *s, size_t f, const struct scan *sc, long *const *owners)
{
	const char **from = xcalloc(sc[1].nb + 1, sizeof(*from));
	for (size_t i = 0; i < sc[1].nb; i++) {
		const struct body *b = &sc[1].b[i];
		if (body_named(&sc[0], b->name))
			continue;
		const char *x = NULL;
		int agree = 1;
		for (int l = b->first + 1; l < b->last && agree; l++) {
			if (owners[1][l] >= 0)
				continue;
			const char *in = enclosing(&sc[0], other_line(s, f, 1, l));
			if (!in || (x && strcmp(in, x)))
				agree = 0;
			x = in;
		}
		if (agree && x && !body_named(&sc[1], x))
			from[i] = x;
	}
	/* One to one: an old function split in two is renamed by neither. */
	for (size_t i = 0; i < sc[1].nb; i++) {
		int twice = 0;
		for (size_t j = 0; j < sc[1].nb && from[i]; j++)
			twice |= j != i && from[j] && !strcmp(from[i], from[j]);
		if (twice)
			for (size_t j = sc[1].nb; j-- > 0;)
				if (j != i && from[j] && !strcmp(from[i], from[j]))
					from[j] = NULL;
		if (twice)
			from[i] = NULL;
	}
	return from;
}

/* How many lines a scan's tokens reach (one past its last token's line). */
static int scan_lines(const struct scan *sc)
{
	return sc->nt ? sc->t[sc->nt - 1].line + 1 : 1;
}

/* Where hunk c is on each side of a file of nl[0] and nl[1] lines: its
 * first line, or for lines only added (removed) the line after the point
 * they go in (came from), within the file. */
static void hunk_at(const struct change *c, const int nl[2], int *lo, int *ln)
{
	int o = c->old_lines ? c->old_start : c->old_start + 1, n = c->new_lines ? c->new_start : c->new_start + 1;
	*lo = o < 1 ? 1 : o > nl[0] ? nl[0] : o;
	*ln = n < 1 ? 1 : n > nl[1] ? nl[1] : n;
}

/* An unchanged line compiled under one hunk's conditional in the old
 * revision and under another's in the new (littlefs's `lfs_remove`: its
 * old body's `#ifdef LFS_READONLY return LFS_ERR_NOSYS; #else ... #endif`
 * removed by some hunks, the whole function put under `#ifndef
 * LFS_READONLY` by others): with the old guard gone and the new one not
 * there, the line is compiled where neither revision compiles it (a call
 * of a function defined only without the macro: undefined reference).
 * The two hunks are a block. */
static void guard_swaps(const struct change_set *s, size_t f, const struct scan *sc, long *const *owners, long *hard)
{
	int maxl = sc[1].nt ? sc[1].t[sc[1].nt - 1].line : 0;
	long *first = xmalloc(((size_t)maxl + 2) * sizeof(*first));   /* per new line: its first token */
	for (int l = 0; l <= maxl + 1; l++)
		first[l] = -1;
	for (size_t k = sc[1].nt; k-- > 0;)
		first[sc[1].t[k].line] = (long)k;
	int line = -1;
	for (size_t k = 0; k < sc[0].nt; k++) {
		const struct tok *t = &sc[0].t[k];
		if (t->line == line || owners[0][t->line] >= 0 || t->directive)
			continue;
		line = t->line;
		long a = guarded_by(&sc[0], owners[0], k);
		int nl = other_line(s, f, 0, line);
		if (a < 0 || nl < 1 || nl > maxl || first[nl] < 0)
			continue;
		long b = guarded_by(&sc[1], owners[1], (size_t)first[nl]);
		if (b >= 0 && b != a)
			unite(hard, (size_t)a, (size_t)b);
	}
	free(first);
}

/* Hunks whose code changes scope: a hunk that closes a function early
 * (`ares_free(channel);` and `}` in place of an if block, a new function
 * after it) leaves what follows it, until a brace restores the balance,
 * at file level in one revision and in the function in the other. A hunk
 * there applied without the hunk that moved the brace puts statements at
 * file level, or a function's head inside another's body, or the old
 * body's code (`channel->...`) inside the new function opened after it:
 * they are one block (the last hunk before it whose braces do not balance
 * as they did). */
static void scope_shifts(const struct change_set *s, size_t f, const struct scan *sc, long *const *owners, long *hard)
{
	const struct change_file *cf = &s->files[f];
	size_t nh = cf->nchanges;
	int nl[2] = {scan_lines(&sc[0]), scan_lines(&sc[1])};
	int *dep[2] = {depths(&sc[0], nl[0]), depths(&sc[1], nl[1])};
	long *bal = xcalloc(nh + 1, sizeof(*bal));   /* per hunk: new braces' balance less old's */
	for (int side = 0; side < 2; side++)
		for (size_t k = 0; k < sc[side].nt; k++) {
			const struct tok *t = &sc[side].t[k];
			long o = owners[side][t->line];
			if (o < 0 || !bracket(t) || (t->s[0] != '{' && t->s[0] != '}'))
				continue;
			bal[o - (long)cf->change0] += (side ? 1 : -1) * (t->s[0] == '{' ? 1 : -1);
		}
	long shifter = -1;
	const char *shifted_in = NULL;   /* the function the shifter's old lines are in */
	for (size_t h = 0; h < nh; h++) {
		const struct change *c = &s->changes[cf->change0 + h];
		if (c->kind != CHANGE_HUNK)
			continue;
		int lo, ln;
		hunk_at(c, nl, &lo, &ln);
		const char *in0 = enclosing(&sc[0], lo), *in1 = enclosing(&sc[1], ln);
		/* at file level on one side only, or in another function than
		 * the one the shifter's brace left */
		int moved = (dep[0][lo] <= 0) != (dep[1][ln] <= 0) ||
			    (in0 && in1 && strcmp(in0, in1) && shifted_in && !strcmp(shifted_in, in0));
		if (shifter >= 0 && moved)
			unite(hard, cf->change0 + (size_t)shifter, cf->change0 + h);
		if (bal[h]) {
			shifter = (long)h;
			shifted_in = in0;
		}
	}
	free(bal);
	free(dep[0]);
	free(dep[1]);
}

static void add_need(struct deps *d, size_t from, size_t to, const char *name);

/* The body named name in sc, or NULL. */
static const struct body *body_named(const struct scan *sc, const char *name)
{
	for (size_t i = 0; i < sc->nb; i++)
		if (!strcmp(sc->b[i].name, name))
			return &sc->b[i];
	return NULL;
}

/* The shape of function name's definition in sc (its declaration on
 * the body's first line), or NULL. */
static const char *head_shape(const struct scan *sc, const char *name)
{
	const struct body *b = body_named(sc, name);
	for (size_t k = 0; b && k < sc->nd; k++)
		if (sc->d[k].cls == 'g' && sc->d[k].first == b->first && !strcmp(sc->d[k].name, name))
			return sc->d[k].shape;
	return NULL;
}

/* The declaration of the local or parameter of fn named as use u, or
 * NULL; at > 0: one whose block holds line at. */
static const struct decl *local_of(const struct scan *sc, const char *fn, const struct use *u, int at)
{
	for (size_t k = 0; k < sc->nd; k++)
		if (sc->d[k].cls == 'l' && !strcmp(sc->d[k].scope, fn) && strlen(sc->d[k].name) == u->len &&
		    !memcmp(sc->d[k].name, u->s, u->len) &&
		    (at <= 0 || (sc->d[k].first <= at && (!sc->d[k].block_last || at <= sc->d[k].block_last))))
			return &sc->d[k];
	return NULL;
}

/* The return type a head's shape gives (its tokens before the name,
 * storage words left out), in b. */
static void return_type(const char *shape, const char *name, struct buf *b)
{
	size_t n = strlen(name);
	while (*shape) {
		size_t l = strcspn(shape, " ");
		if (l == n && !memcmp(shape, name, n))
			break;
		if (!(l == 6 && !memcmp(shape, "static", 6)) && !(l == 6 && !memcmp(shape, "inline", 6)) &&
		    !(l == 6 && !memcmp(shape, "extern", 6))) {
			buf_add(b, shape, l);
			buf_addc(b, ' ');
		}
		shape += l + (shape[l] == ' ');
	}
}

/* Whether the lines side of sc change c holds, placed in function in
 * at line at of the other side, instead of in from (the function they are
 * in on their side), no longer build there: they use a local or parameter
 * of from that in does not declare in a block holding that line, or
 * return a value where the two return different types. */
static int misplaced(const struct scan *sc, long *const *owners, int side, size_t c, const char *from, const char *in,
		     int at)
{
	const struct scan *here = &sc[side], *there = &sc[!side];
	for (size_t k = 0; k < here->nu; k++) {
		const struct use *u = &here->u[k];
		if (owners[side][u->line] != (long)c || u->member || strcmp(u->scope, from))
			continue;
		const struct decl *l = local_of(here, from, u, 0);
		/* (a local the hunk declares itself comes along) */
		if (l && owners[side][l->first] != (long)c && !local_of(there, in, u, at))
			return 1;
	}
	const char *hf = head_shape(here, from), *hi = head_shape(there, in);
	int values = 0;
	for (size_t k = 0; hf && hi && k + 1 < here->nt && !values; k++)
		values = owners[side][here->t[k].line] == (long)c && scan_tok_is(&here->t[k], "return") &&
			 !scan_punct(&here->t[k + 1], ';');
	if (!values)
		return 0;
	struct buf a = BUF_INIT, b = BUF_INIT;
	return_type(hf, from, &a);
	return_type(hi, in, &b);
	int differ = strcmp(a.s ? a.s : "", b.s ? b.s : "") != 0;
	buf_release(&a);
	buf_release(&b);
	return differ;
}

/* Hunks the diff moved into another function. When functions are
 * reordered or replaced, the diff pairs the old lines of one with the new
 * lines of another: a hunk whose old lines are in function f has its new
 * lines in g. Applied alone, its new lines land in f's body; reverted
 * alone, its old lines land in g's. When they do not build there (a
 * parameter of g's, `options->servers` inside ares_get_servers; a pointer
 * returned where f returns a status), the hunk needs the one holding g's
 * new head, or f's old head. A head inserted inside a function (a
 * function split in two: the old head renamed for the first half, the new
 * head opened in its middle) moves the old code after it into the new
 * function: the hunks there whose old lines use the old function's locals
 * (`i` of a loop the split removes further down) are needed by it, and
 * those whose new lines use the new function's locals need it. */
static void head_moves(const struct change_set *s, size_t f, const struct scan *sc, long *const *owners, struct deps *d)
{
	const struct change_file *cf = &s->files[f];
	int nl[2] = {scan_lines(&sc[0]), scan_lines(&sc[1])};
	int *dep0 = depths(&sc[0], nl[0]);
	for (size_t h = 0; h < cf->nchanges; h++) {
		size_t c = cf->change0 + h;
		const struct change *ch = &s->changes[c];
		if (ch->kind != CHANGE_HUNK)
			continue;
		int lo, ln;
		hunk_at(ch, nl, &lo, &ln);
		const char *in0 = enclosing(&sc[0], lo), *in1 = enclosing(&sc[1], ln);
		if (!in0 || !in1)
			continue;
		const struct body *g = body_named(&sc[1], in1), *fo = body_named(&sc[0], in0);
		long head_g = g && g->first >= 1 && g->first <= nl[1] ? owners[1][g->first] : -1;
		long head_f = fo && fo->first >= 1 && fo->first <= nl[0] ? owners[0][fo->first] : -1;
		if (strcmp(in0, in1)) {
			if (head_g >= 0 && misplaced(sc, owners, 1, c, in1, in0, lo))
				add_need(d, c, (size_t)head_g, in1);
			if (head_f >= 0 && misplaced(sc, owners, 0, c, in0, in1, ln))
				add_need(d, c, (size_t)head_f, in0);
			continue;
		}
		/* The same name: the function split, its new head inside the
		 * old body, ahead of this hunk. */
		if (head_g < 0 || head_g == (long)c || s->changes[head_g].file != f)
			continue;
		const struct change *gh = &s->changes[head_g];
		int glo = gh->old_lines ? gh->old_start : gh->old_start + 1;
		const char *gin = glo >= 1 && glo <= nl[0] ? enclosing(&sc[0], glo) : NULL;
		if (!gin || dep0[glo] <= 0 || strcmp(gin, in0) || glo <= fo->first)
			continue;
		if (misplaced(sc, owners, 0, c, in0, in1, ln))
			add_need(d, (size_t)head_g, c, in0);
		if (misplaced(sc, owners, 1, c, in1, in0, lo))
			add_need(d, c, (size_t)head_g, in1);
	}
	free(dep0);
}

#define REWRITE_LINES 6   /* a function this long or longer, rewritten by one hunk, is one piece */

/* Hunks that rewrite a function: one both revisions define (by name),
 * touched by three hunks or more, with most of its lines (two thirds)
 * changed on both sides. Its hunks cut old and new code at arbitrary
 * lines, and a mix of them is a function neither revision has: it may
 * build, and fail in its own way. They are one block, marked in rewrite
 * (never taken apart at token level either). */
static void rewrites(const struct scan *sc, long *const *owners, long *hard, char *rewrite)
{
	for (size_t i = 0; i < sc[1].nb; i++) {
		const struct body *b[2] = {NULL, &sc[1].b[i]};
		for (size_t k = 0; k < sc[0].nb && !b[0]; k++)
			if (!strcmp(sc[0].b[k].name, b[1]->name))
				b[0] = &sc[0].b[k];
		if (!b[0] || !b[0]->last || !b[1]->last)
			continue;
		/* The hunks touching a body are consecutive: lo to hi. */
		long lo = -1, hi = -1;
		int most = 1;
		for (int side = 0; side < 2; side++) {
			int changed = 0, lines = b[side]->last - b[side]->first + 1;
			for (int l = b[side]->first; l <= b[side]->last; l++) {
				long o = owners[side][l];
				if (o < 0)
					continue;
				changed++;
				lo = lo < 0 || o < lo ? o : lo;
				hi = o > hi ? o : hi;
			}
			most &= 3 * changed >= 2 * lines;
		}
		if (hi - lo < 2 || !most)
			continue;
		for (int side = 0; side < 2; side++)
			for (int l = b[side]->first; l <= b[side]->last; l++)
				if (owners[side][l] >= 0) {
					unite(hard, (size_t)lo, (size_t)owners[side][l]);
					rewrite[owners[side][l]] = 1;
				}
	}
	/* One hunk replacing most of a function's lines on both sides (of
	 * REWRITE_LINES lines or more; its name may change too: lighttpd's
	 * li_base64_decode rewritten as li_base64_dec) is a rewrite as well:
	 * its pieces apart are a function neither revision has. */
	long *most[2] = {NULL, NULL};
	size_t nmost[2] = {0, 0};
	for (int side = 0; side < 2; side++)
		for (size_t i = 0; i < sc[side].nb; i++) {
			const struct body *b = &sc[side].b[i];
			int lines = b->last - b->first + 1, n = 0;
			long o = b->last ? owners[side][b->first + lines / 2] : -1;
			if (o < 0 || lines < REWRITE_LINES)
				continue;
			for (int l = b->first; l <= b->last; l++)
				n += owners[side][l] == o;
			if (3 * n >= 2 * lines) {
				most[side] = xrealloc(most[side], (nmost[side] + 1) * sizeof(**most));
				most[side][nmost[side]++] = o;
			}
		}
	for (size_t i = 0; i < nmost[0]; i++)
		for (size_t j = 0; j < nmost[1]; j++)
			if (most[0][i] == most[1][j])
				rewrite[most[0][i]] = 1;
	free(most[0]);
	free(most[1]);
}

/* Whether a declaration's shape (its tokens, space-separated) says static. */
static int shape_static(const char *shape)
{
	return !strncmp(shape, "static ", 7) || strstr(shape, " static ");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One name in one scope (a local's key holds its function's name; the
 * caller also asks for the same file, as a function moved to another file
 * takes its own locals). */
static int same_key(const struct decl *a, const struct decl *b)
{
	return a->cls == b->cls && !strcmp(a->name, b->name) && !strcmp(a->scope, b->scope);
}

/* A new side's local d: the old name of its function when renamed
 * (renamed_from's list for its scan), else NULL. */
static const char *old_scope(const struct scan *sc, const char **renamed, const struct decl *d)
{
	for (size_t i = 0; d->cls == 'l' && i < sc->nb; i++)
		if (renamed[i] && !strcmp(sc->b[i].name, d->scope))
			return renamed[i];
	return NULL;
}

static void list_add(char **list, const char *name);

/* Change from needs change to, for name. */
static void add_need(struct deps *d, size_t from, size_t to, const char *name)
{
	if (from == to)
		return;
	for (size_t k = 0; k < d->nneed[from]; k++)
		if (d->need[from][k] == to) {
			list_add(&d->need_names[from][k], name);
			return;
		}
	d->need[from] = xrealloc(d->need[from], (d->nneed[from] + 1) * sizeof(**d->need));
	d->need_names[from] = xrealloc(d->need_names[from], (d->nneed[from] + 1) * sizeof(**d->need_names));
	d->need_names[from][d->nneed[from]] = NULL;
	list_add(&d->need_names[from][d->nneed[from]], name);
	d->need[from][d->nneed[from]++] = to;
}

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The parameters a declaration's shape lists (its first parenthesis's
 * top-level commas + 1; 0 for "()", "( void )" or none), -1 with no
 * parenthesis. */
static int params(const char *shape)
{
	const char *p = strchr(shape, '(');
	if (!p)
		return -1;
	/* A name a macro makes, `FN ( X ) ( ... )`: the second group; a
	 * macro's group holding the return type, `API ( void ) name ( ... )`:
	 * the group after the name. */
	int d = 0;
	for (const char *q = p; *q; q++) {
		d += (*q == '(') - (*q == ')');
		if (d == 0) {
			const char *w = q + 2, *e = w;
			while (*e && (isalnum((unsigned char)*e) || *e == '_'))
				e++;
			if (!strncmp(q, ") ( ", 4))
				p = q + 2;
			else if (q[1] == ' ' && e > w && !isdigit((unsigned char)*w) && !strncmp(e, " (", 2))
				p = e + 1;
			break;
		}
	}
	const char *group = p;
	int depth = 0, n = 0, any = 0;
	for (; *p; p++) {
		if (*p == '(' || *p == '[')
			depth++;
		else if (*p == ')' || *p == ']') {
			if (--depth == 0)
				break;
		} else if (depth == 1 && *p == ',')
			n++;
		else if (depth == 1 && *p != ' ')
			any = 1;
	}
	return !any || !strncmp(group, "( void )", 8) ? 0 : n + 1;
}

/* Whether every declaration on both sides takes as many parameters. */
static int same_arity(char **old, size_t nold, char **new, size_t nnew)
{
	int k = nold ? params(old[0]) : nnew ? params(new[0]) : -1;
	for (size_t i = 0; i < nold; i++)
		if (params(old[i]) != k)
			return 0;
	for (size_t i = 0; i < nnew; i++)
		if (params(new[i]) != k)
			return 0;
	return 1;
}

/* One declared type of a shape (space-separated tokens, deps' decl.shape):
 * its pointer level, and its base type without qualifiers, storage class
 * or the declared name. */
struct ctype {
	int stars;
	int quals;        /* const 1, volatile 2, on what the pointer points to */
	struct buf base;
};

static void ctype_of(char **tok, size_t a, size_t b, struct ctype *t)
{
	static const char *const quals[] = {"const", "volatile", "restrict", "static", "inline", "extern",
					    "register", "typedef", NULL};
	t->stars = t->quals = 0;
	buf_init(&t->base);
	/* An array's bounds: a pointer level, whatever its size. */
	while (b > a && !strcmp(tok[b - 1], "]")) {
		while (b > a && strcmp(tok[b - 1], "["))
			b--;
		t->stars += b > a;
		b -= b > a;
	}
	/* The name: the last token, when it is an identifier and not a type word. */
	if (b > a && (isalpha((unsigned char)tok[b - 1][0]) || tok[b - 1][0] == '_')) {
		struct tok last = {T_IDENT, tok[b - 1], strlen(tok[b - 1]), 0, 0, 0, -1};
		if (!scan_typeish(&last) || b - a > 1)
			b--;
	}
	for (size_t k = a; k < b; k++) {
		struct tok w = {T_IDENT, tok[k], strlen(tok[k]), 0, 0, 0, -1};
		if (!strcmp(tok[k], "*"))
			t->stars++;
		else if (!t->stars && (!strcmp(tok[k], "const") || !strcmp(tok[k], "volatile")))
			t->quals |= tok[k][0] == 'c' ? 1 : 2;
		else if (!scan_in_list(&w, quals)) {
			buf_adds(&t->base, tok[k]);
			buf_addc(&t->base, ' ');
		}
	}
}

/* What the changed files say of type names: the ones naming a struct or
 * union (a tag's definition, `typedef struct {...} T;`, `typedef struct
 * X T;`), and each `typedef struct X T;` as an alias (T is `struct X`). */
struct types {
	const char **structs;   /* sorted; the scans' strings */
	size_t nstructs;
	const char **alias, **target;   /* T, and "struct X " (owned) */
	size_t nalias;
	const char **ints;   /* the names typedef'd as integer types (`typedef unsigned long length_t;`) */
	size_t nints;
};

/* The keyword before the body whose `}` is token k - 1 of sc (`struct`,
 * `union`, `enum`, past a tag), or -1. */
static long body_keyword(const struct scan *sc, size_t k)
{
	if (k == 0 || !scan_punct(&sc->t[k - 1], '}'))
		return -1;
	int depth = 0;
	for (size_t i = k - 1; i-- > 0;) {
		if (scan_punct(&sc->t[i + 1], '}'))
			depth++;
		if (scan_punct(&sc->t[i + 1], '{') && --depth == 0) {
			size_t j = i;
			if (j > 0 && sc->t[j].kind == T_IDENT && !scan_tok_is(&sc->t[j], "struct") &&
			    !scan_tok_is(&sc->t[j], "union") && !scan_tok_is(&sc->t[j], "enum"))
				j--;   /* the tag */
			return (long)j;
		}
	}
	return -1;
}

/* Whether token k of sc is the name a `typedef enum ... { ... } T;` declares. */
static int names_enum(const struct scan *sc, size_t k)
{
	long j = body_keyword(sc, k);
	return j > 0 && scan_tok_is(&sc->t[j], "enum") && scan_tok_is(&sc->t[j - 1], "typedef");
}

/* Whether token k of sc names what a struct or union definition or
 * declaration declares: `struct s {`, `} T;` closing `typedef struct {`. */
static int names_struct(const struct scan *sc, size_t k)
{
	if (k == 0)
		return 0;
	const struct tok *t = &sc->t[k - 1];
	if (scan_tok_is(t, "struct") || scan_tok_is(t, "union"))
		return 1;
	long j = body_keyword(sc, k);
	return j >= 0 && (scan_tok_is(&sc->t[j], "struct") || scan_tok_is(&sc->t[j], "union"));
}

static int integer_word(const struct types *ty, const char *w);
static size_t shape_tokens(char *shape, char ***tok);

/* Whether a typedef declares its name as an integer type: its words
 * between `typedef` and the name are all integer words. */
static int integer_typedef(const struct types *ty, const struct decl *dc)
{
	char *sh = xstrdup(dc->shape), **tok;
	size_t n = shape_tokens(sh, &tok);
	int ok = n >= 3 && !strcmp(tok[n - 1], dc->name);
	for (size_t k = 1; ok && k + 1 < n && strcmp(tok[1], "enum"); k++)
		ok = integer_word(ty, tok[k]);
	free(tok);
	free(sh);
	return ok;
}

static void types_init(struct types *ty, const struct scan *scans, size_t nscans, const struct scan *more,
		       size_t nmore)
{
	memset(ty, 0, sizeof(*ty));
	/* Structs and their typedefs: the changed files', and the headers'
	 * read (a function made to return int where it returned a struct
	 * an unchanged header typedefs). */
	for (size_t g = 0; g < nscans + nmore; g++)
		for (size_t k = 0; k < (g < nscans ? scans[g] : more[g - nscans]).nd; k++) {
			const struct scan *sf = g < nscans ? &scans[g] : &more[g - nscans];
			const struct decl *dc = &sf->d[k];
			if (dc->cls != 'g')
				continue;
			const char *sh = dc->shape;
			int alias = (!strncmp(sh, "typedef struct ", 15) || !strncmp(sh, "typedef union ", 14)) &&
				    !strchr(sh, '*') && !strchr(sh, '(') && !strchr(sh, '[');
			if (alias) {
				/* "typedef struct X T ": the target is "struct X ". */
				const char *x = sh + 8, *end = strrchr(sh, ' ');
				while (end > x && end[-1] != ' ')
					end--;
				ty->alias = xrealloc(ty->alias, (ty->nalias + 1) * sizeof(*ty->alias));
				ty->target = xrealloc(ty->target, (ty->nalias + 1) * sizeof(*ty->target));
				ty->alias[ty->nalias] = dc->name;
				ty->target[ty->nalias++] = xstrndup(x, (size_t)(end - x));
			}
			if (alias || (dc->tok < sf->nt && names_struct(sf, dc->tok))) {
				ty->structs = xrealloc(ty->structs, (ty->nstructs + 1) * sizeof(*ty->structs));
				ty->structs[ty->nstructs++] = dc->name;
			}
		}
	if (ty->nstructs)
		qsort(ty->structs, ty->nstructs, sizeof(*ty->structs), cmp_cstr);
	/* The names every typedef of which, in the changed files and the
	 * headers read (more), is of an integer type (pigz's `typedef unsigned
	 * long length_t;`, and `typedef length_t val_t;` after it), and the
	 * enums typedef'd (less's `lbool`): integer words too. */
	const struct decl **td = NULL;
	size_t ntd = 0;
	for (size_t f = 0; f < nscans + nmore; f++) {
		const struct scan *sc = f < nscans ? &scans[f] : &more[f - nscans];
		for (size_t k = 0; k < sc->nd; k++) {
			const struct decl *dc = &sc->d[k];
			if (dc->cls == 'g' && dc->tok < sc->nt && names_enum(sc, dc->tok) &&
			    !integer_word(ty, dc->name)) {
				ty->ints = xrealloc(ty->ints, (ty->nints + 1) * sizeof(*ty->ints));
				ty->ints[ty->nints++] = dc->name;   /* an enum: an integer type */
			} else if (dc->cls == 'g' && !strncmp(dc->shape, "typedef ", 8)) {
				td = xrealloc(td, (ntd + 1) * sizeof(*td));
				td[ntd++] = dc;
			}
		}
	}
	for (int again = 1; again;) {
		again = 0;
		for (size_t k = 0; k < ntd; k++) {
			if (integer_word(ty, td[k]->name) || !integer_typedef(ty, td[k]))
				continue;
			int all = 1;
			for (size_t j = 0; j < ntd && all; j++)
				if (!strcmp(td[j]->name, td[k]->name))
					all = integer_typedef(ty, td[j]);
			if (all) {
				ty->ints = xrealloc(ty->ints, (ty->nints + 1) * sizeof(*ty->ints));
				ty->ints[ty->nints++] = td[k]->name;
				again = 1;
			}
		}
	}
	free(td);
}

static void types_release(struct types *ty)
{
	for (size_t k = 0; k < ty->nalias; k++)
		free((char *)ty->target[k]);
	free(ty->alias);
	free(ty->target);
	free(ty->structs);
	free(ty->ints);
}

/* A base type as the compiler sees it: a name the changed files typedef
 * as `struct X` is `struct X `. */
static const char *type_canon(const struct types *ty, const char *base)
{
	size_t n = strlen(base);
	const char *sp = strchr(base, ' ');
	for (size_t k = 0; ty && sp && !sp[1] && k < ty->nalias; k++)
		if (strlen(ty->alias[k]) == n - 1 && !strncmp(ty->alias[k], base, n - 1))
			return ty->target[k];
	return base;
}

/* Whether a base type is a struct or union (no value of another type is
 * given to one): written so, one the changed files define, or one the C
 * library's headers do (fpos_t is a struct in glibc). */
static int struct_like(const struct types *ty, const char *base)
{
	static const char *const libc[] = {"fpos_t", "div_t", "ldiv_t", "lldiv_t", "imaxdiv_t", "mbstate_t", "fd_set",
					   "sigset_t", "FILE", "DIR", "pthread_mutex_t", "pthread_cond_t",
					   "pthread_attr_t", "pthread_rwlock_t", NULL};
	if (!strncmp(base, "struct ", 7) || !strncmp(base, "union ", 6))
		return 1;
	const char *sp = strchr(base, ' ');
	if (!sp || sp[1])
		return 0;   /* one name, else words such as `unsigned int` */
	char *name = xstrndup(base, (size_t)(sp - base));
	const char *key = name;
	int yes = ty && ty->nstructs && bsearch(&key, ty->structs, ty->nstructs, sizeof(*ty->structs), cmp_cstr) != NULL;
	for (size_t i = 0; !yes && libc[i]; i++)
		yes = !strcmp(name, libc[i]);
	free(name);
	return yes;
}

/* Whether word w is one of the n words t. */
static int has_word(char *const *t, size_t n, const char *w)
{
	for (size_t j = 0; j < n; j++)
		if (!strcmp(t[j], w))
			return 1;
	return 0;
}

/* The words of base types a and b (ctype's) that the other lacks, into oa
 * and ob, each word followed by a space: a storage class or an export
 * macro both share (lua's `LUAI_FUNC TValue` made `LUAI_FUNC int`) is no
 * part of the type; struct, union, enum and integer words stay. */
static void own_words(const struct types *ty, const char *a, const char *b, struct buf *oa, struct buf *ob)
{
	char *sa = xstrdup(a ? a : ""), *sb = xstrdup(b ? b : ""), **ta, **tb;
	size_t na = shape_tokens(sa, &ta), nb = shape_tokens(sb, &tb);
	for (size_t k = 0; k < na + nb; k++) {
		const char *w = k < na ? ta[k] : tb[k - na];
		if (!has_word(k < na ? tb : ta, k < na ? nb : na, w) || !strcmp(w, "struct") || !strcmp(w, "union") || !strcmp(w, "enum") || integer_word(ty, w))
			buf_addf(k < na ? oa : ob, "%s ", w);
	}
	if (!oa->s)
		buf_adds(oa, "");
	if (!ob->s)
		buf_adds(ob, "");
	free(ta);
	free(tb);
	free(sa);
	free(sb);
}

/* Would a value of one type given where the other is declared be no C (a
 * constraint that gcc 12 and -w let pass with no word, or an error): a
 * pointer level added or removed, a pointer to another type (void *
 * aside), a pointer to const made a pointer to writable (the new code
 * writes through it), void against a value, or a struct against another
 * type (glibc's fpos_t made ctags' MIOPos)? */
static int ctypes_clash(const struct ctype *a, const struct ctype *b, const struct types *ty)
{
	struct buf oa = BUF_INIT, ob = BUF_INIT;
	own_words(ty, a->base.s, b->base.s, &oa, &ob);
	const char *ba = type_canon(ty, oa.s ? oa.s : ""), *bb = type_canon(ty, ob.s ? ob.s : "");
	int same = !strcmp(ba, bb);
	int avoid = !strcmp(ba, "void "), bvoid = !strcmp(bb, "void ");
	int clash;
	if (a->stars != b->stars)
		clash = 1;
	else if (a->stars)
		clash = a->quals != b->quals || (!same && !avoid && !bvoid);
	else
		clash = !same && (avoid || bvoid || struct_like(ty, ba) || struct_like(ty, bb));
	buf_release(&oa);
	buf_release(&ob);
	return clash;
}

/* Split a shape into its tokens (in place). */
static size_t shape_tokens(char *shape, char ***tok)
{
	size_t n = 0;
	*tok = NULL;
	for (char *p = strtok(shape, " "); p; p = strtok(NULL, " ")) {
		*tok = xrealloc(*tok, (n + 1) * sizeof(**tok));
		(*tok)[n++] = p;
	}
	return n;
}

/* The end of the shape segment starting at token i: the first '(' at
 * depth 0 (a function's type and name end there), or the ',' or ')' ending
 * a parameter at depth 1; *depth follows the parentheses. */
static size_t segment_end(char **tok, size_t n, size_t i, int *depth)
{
	for (; i < n; i++) {
		int open = !strcmp(tok[i], "("), close = !strcmp(tok[i], ")");
		if ((*depth == 0 && open) || (*depth == 1 && (close || !strcmp(tok[i], ","))))
			break;
		*depth += open - close;
	}
	return i;
}

/* Whether the old and new shapes of a declaration with the same arity
 * declare types no value passes between (ctypes_clash): 1 for the type
 * before a function's parenthesis (what it returns), or a variable's or
 * field's; 2 for a parameter's; else 0. The first such pair of types that
 * differ by more than a qualifier, one of them a struct, is added to pair
 * (when given), as "old-base stars>new-base stars". */
static int untyped(const char *shape);

/* Walk two shapes' types in step (segment_end): the type before a
 * function's parenthesis (or a variable's), then each parameter's; each
 * pair to visit (k: 0 for the first) until it returns nonzero. Returns
 * that value, 0 when either shape ended, or, with both_end, -1 when one
 * ended before the other. */
static int walk_types(const char *a, const char *b, int both_end,
		      int (*visit)(void *priv, size_t k, const struct ctype *ca, const struct ctype *cb), void *priv)
{
	char *sa = xstrdup(a), *sb = xstrdup(b), **ta, **tb;
	size_t na = shape_tokens(sa, &ta), nb = shape_tokens(sb, &tb), ia = 0, ib = 0;
	int rc = 0, da = 0, db = 0;
	for (size_t k = 0;; k++) {
		size_t ea = segment_end(ta, na, ia, &da), eb = segment_end(tb, nb, ib, &db);
		struct ctype ca, cb;
		ctype_of(ta, ia, ea, &ca);
		ctype_of(tb, ib, eb, &cb);
		rc = (ea > ia || eb > ib) ? visit(priv, k, &ca, &cb) : 0;
		buf_release(&ca.base);
		buf_release(&cb.base);
		if (rc)
			break;
		int enda = ea >= na || !strcmp(ta[ea], ")"), endb = eb >= nb || !strcmp(tb[eb], ")");
		if (enda || endb) {
			rc = both_end && enda != endb ? -1 : 0;
			break;
		}
		da += !strcmp(ta[ea], "(");   /* past a function's '(': its parameters */
		db += !strcmp(tb[eb], "(");
		ia = ea + 1;
		ib = eb + 1;
	}
	free(ta);
	free(tb);
	free(sa);
	free(sb);
	return rc;
}

struct clash_walk {
	const struct types *ty;
	struct buf *pair;
};

static int clash_visit(void *priv, size_t k, const struct ctype *ca, const struct ctype *cb)
{
	struct clash_walk *w = priv;
	if (!ctypes_clash(ca, cb, w->ty))
		return 0;
	/* The two types, when they differ by more than a qualifier. */
	const char *pa = type_canon(w->ty, ca->base.s ? ca->base.s : ""), *pb = type_canon(w->ty, cb->base.s ? cb->base.s : "");
	if (w->pair && (ca->stars != cb->stars || strcmp(pa, pb)) && (struct_like(w->ty, pa) || struct_like(w->ty, pb)) &&
	    !strpbrk(pa, ",()") && !strpbrk(pb, ",()"))
		buf_addf(w->pair, "%s%d>%s%d", pa, ca->stars, pb, cb->stars);
	return 1 + (k > 0);
}

static int types_clash(char *const *old, size_t nold, char *const *new, size_t nnew, const struct types *ty,
		       struct buf *pair)
{
	if (!nold || !nnew)
		return 0;
	/* A function-like macro's parameters and value have no type: any
	 * call of it builds against a function of as many parameters. */
	for (size_t i = 0; i < nold + nnew; i++)
		if (untyped(i < nold ? old[i] : new[i - nold]))
			return 0;
	struct clash_walk w = {ty, pair};
	return walk_types(old[0], new[0], 0, clash_visit, &w);
}

/* Whether a word names an integer type: C's own words, and the C
 * library's and POSIX's integer typedefs (a project's own, as `u32`, are
 * not known here). */
static int integer_word(const struct types *ty, const char *w)
{
	for (size_t k = 0; ty && k < ty->nints; k++)
		if (!strcmp(w, ty->ints[k]))
			return 1;
	static const char *const words[] = {"char", "short", "int", "long", "signed", "unsigned", "_Bool", "bool",
					    "size_t", "ssize_t", "off_t", "off64_t", "ptrdiff_t", "intptr_t",
					    "uintptr_t", "intmax_t", "uintmax_t", "time_t", "pid_t", "uid_t", "gid_t",
					    "mode_t", "wchar_t", "wint_t", "socklen_t", "clock_t", "dev_t", "ino_t",
					    "nlink_t", "useconds_t", "suseconds_t", "in_addr_t", "in_port_t",
					    "sig_atomic_t", NULL};
	for (size_t i = 0; words[i]; i++)
		if (!strcmp(w, words[i]))
			return 1;
	/* int8_t .. uint64_t, int_least16_t, uint_fast32_t */
	const char *p = w + (w[0] == 'u');
	if (strncmp(p, "int", 3))
		return 0;
	p += 3;
	if (!strncmp(p, "_least", 6))
		p += 6;
	else if (!strncmp(p, "_fast", 5))
		p += 5;
	return (!strcmp(p, "8_t") || !strcmp(p, "16_t") || !strcmp(p, "32_t") || !strcmp(p, "64_t"));
}

/* The tokens of a shape declaring several names that declare name: the
 * type before the first declarator, then name's own declarator
 * (`unsigned long check , len` declares len as `unsigned long len`). */
static size_t own_declarator(char **tok, size_t n, const char *name)
{
	size_t first = n, at = n;
	for (size_t k = 0; k < n && first == n; k++)
		if (!strcmp(tok[k], ","))
			first = k;
	if (first == n || !name)
		return n;
	for (size_t k = first, seg = 0; k < n && at == n; k++) {
		if (!strcmp(tok[k], ","))
			seg = k + 1;
		else if (!strcmp(tok[k], name))
			at = seg;
	}
	if (at == n)
		return first;   /* the first declarator's */
	size_t type = first;   /* the first declarator: its name and its stars */
	if (type > 0 && (isalpha((unsigned char)tok[type - 1][0]) || tok[type - 1][0] == '_'))
		type--;
	while (type > 0 && !strcmp(tok[type - 1], "*"))
		type--;
	size_t m = type;
	for (size_t k = at; k < n && strcmp(tok[k], ","); k++)
		tok[m++] = tok[k];
	return m;
}

/* A shape without its integer type words, into b; 0 when it is no
 * variable or field of an integer type (a pointer, an array, a function,
 * a typedef, or no integer word). Of a shape declaring several names,
 * name's own (own_declarator). */
static int integer_rest(const struct types *ty, const char *shape, const char *name, struct buf *b)
{
	char *sh = xstrdup(shape), **tok;
	size_t n = shape_tokens(sh, &tok);
	n = own_declarator(tok, n, name);
	int ints = 0, ok = 1;
	buf_reset(b);
	for (size_t k = 0; k < n && ok; k++) {
		ok = strcmp(tok[k], "*") && strcmp(tok[k], "[") && strcmp(tok[k], "(") && strcmp(tok[k], "typedef");
		if (integer_word(ty, tok[k]))
			ints++;
		else {
			buf_adds(b, tok[k]);
			buf_addc(b, ' ');
		}
	}
	free(tok);
	free(sh);
	return ok && ints;
}

/* Whether a variable's or field's declarations differ in their integer
 * type alone (frozen's `size_t size = ftell(fp);` made `long size`): every
 * use builds against either revision's, as C converts between integer
 * types, so its users need neither (the five hunks of `json_fread` that
 * use `size` had been one unit to take apart). A qualifier or storage
 * class changed, a pointer or an array (a pointer to another integer type
 * is no such value), a function or a typedef are not. */
static int integer_retyped(const struct types *ty, const char *name, char *const *old, size_t nold, char *const *new,
			   size_t nnew)
{
	struct buf first = BUF_INIT, b = BUF_INIT;
	int ok = nold && nnew;
	for (size_t i = 0; ok && i < nold + nnew; i++) {
		ok = integer_rest(ty, i < nold ? old[i] : new[i - nold], name, i ? &b : &first);
		ok = ok && first.s && (!i || (b.s && !strcmp(first.s, b.s)));
	}
	buf_release(&first);
	buf_release(&b);
	return ok;
}

/* Whether a shape is a function-like macro's (or a K&R definition's): its
 * name first, then its parameters, no type. */
static int untyped(const char *shape)
{
	const char *p = shape;
	if (!(isalpha((unsigned char)*p) || *p == '_'))
		return 0;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	return !strncmp(p, " (", 2);
}

/* Whether two base types (ctype's) are integer types both: each holds an
 * integer word, and the words one has and the other lacks are integer
 * words (a macro such as less's `public` before either is the same). */
static int integer_like(const struct types *ty, const char *a, const char *b)
{
	char *sa = xstrdup(a ? a : ""), *sb = xstrdup(b ? b : ""), **ta, **tb;
	size_t na = shape_tokens(sa, &ta), nb = shape_tokens(sb, &tb);
	int ia = 0, ib = 0, ok = 1;
	for (size_t k = 0; k < na; k++)
		ia |= integer_word(ty, ta[k]);
	for (size_t k = 0; k < nb; k++)
		ib |= integer_word(ty, tb[k]);
	for (size_t k = 0; ok && k < na + nb; k++) {
		const char *w = k < na ? ta[k] : tb[k - na];
		ok = has_word(k < na ? tb : ta, k < na ? nb : na, w) || integer_word(ty, w);
	}
	free(ta);
	free(tb);
	free(sa);
	free(sb);
	return ia && ib && ok;
}

/* Whether a pair of types differs by more than integer words (C converts
 * between integer types), `static` and `inline`. */
static int unlike_visit(void *priv, size_t k, const struct ctype *ca, const struct ctype *cb)
{
	const struct types *ty = priv;
	const char *pa = ca->base.s ? ca->base.s : "", *pb = cb->base.s ? cb->base.s : "";
	(void)k;
	return !(ca->stars == cb->stars && ca->quals == cb->quals &&
		 (!strcmp(pa, pb) || (!ca->stars && integer_like(ty, pa, pb))));
}

/* Whether two function shapes take and return the same types, but for
 * integer types, `static` and `inline`. */
static int alike_types(const struct types *ty, const char *a, const char *b)
{
	return walk_types(a, b, 1, unlike_visit, (void *)ty) == 0;
}

/* Whether every call of function name builds against either revision's
 * declarations, which differ: a function-like macro made a function of
 * as many parameters (htop's `#define String_startsWith(s, match)` made
 * `static inline bool String_startsWith(const char* s, const char*
 * match)`), or the reverse, as a call is text to the macro; or types that
 * differ in integer words, `static` or `inline` alone (`inline int
 * String_eq(...)` made `static inline bool String_eq(...)`). Its users then
 * need neither revision's, as an integer variable's do (integer_retyped);
 * the declarations still agree only together. The caller has checked the
 * arity. */
static int calls_alike(const struct types *ty, const char *name, char *const *old, size_t nold, char *const *new,
		       size_t nnew)
{
	int macro = 0;
	size_t n = strlen(name);
	if (!nold || !nnew)
		return 0;
	for (size_t i = 0; i < nold + nnew; i++) {
		const char *sh = i < nold ? old[i] : new[i - nold], *par = strstr(sh, " ( ");
		/* A function: its name right before its parameters (no pointer
		 * to one, no typedef). */
		if (!par || par < sh + n || memcmp(par - n, name, n) || (par > sh + n && par[-n - 1] != ' ') ||
		    !strncmp(sh, "typedef ", 8))
			return 0;
		macro |= untyped(sh);
	}
	for (size_t i = 1; !macro && i < nold + nnew; i++)
		if (!alike_types(ty, old[0], i < nold ? old[i] : new[i - nold]))
			return 0;
	return 1;
}

/* Whether a declaration's old lines and new lines are in different hunks:
 * some hunk declares it on one side only. */
static int moved(const size_t *members, const int *side, size_t n)
{
	for (size_t a = 0; a < n; a++) {
		int paired = 0;
		for (size_t b = 0; b < n && !paired; b++)
			paired = members[b] == members[a] && side[b] != side[a];
		if (!paired)
			return 1;
	}
	return 0;
}

/* Add name to a change's NUL-separated list (once). */
static void list_add(char **list, const char *name)
{
	size_t len = 0;
	for (const char *p = *list; p && *p; p += strlen(p) + 1) {
		if (!strcmp(p, name))
			return;
		len += strlen(p) + 1;
	}
	size_t n = strlen(name);
	*list = xrealloc(*list, len + n + 2);
	memcpy(*list + len, name, n + 1);
	(*list)[len + n + 1] = '\0';
}

/* A tie no build survives apart (a block), made by name. */
static void tie_hard(struct deps *d, long *hard, size_t a, size_t b, const char *name)
{
	unite(hard, a, b);
	list_add(&d->hard_names[a], name);
	list_add(&d->hard_names[b], name);
}

/* A local moved across a function's rename: a parameter or local of the
 * old function, removed by one hunk, declared anew in the renamed function
 * by another (tcpdump's `ether_hdr_len_print(..., u_int hdrlen)` made
 * `ether_print_common(...)`, `u_int hdrlen;` added below): apart, it is
 * declared twice or not at all. The two hunks are a block, as a local
 * moved within one function is. Only this tie: the rest of the renamed
 * function's names keep their own keys. */
static void renamed_locals(const struct change_set *s, const struct hdecl *hd, size_t nhd, struct deps *d, long *hard)
{
	for (size_t i = 0; i < nhd; i++) {
		if (!hd[i].scope || hd[i].side != 1 || hd[i].guarded)
			continue;
		for (size_t j = 0; j < nhd; j++)
			if (hd[j].side == 0 && !hd[j].guarded && hd[j].change != hd[i].change && hd[j].d->cls == 'l' &&
			    s->changes[hd[j].change].file == s->changes[hd[i].change].file &&
			    !strcmp(hd[j].d->name, hd[i].d->name) && !strcmp(hd[j].d->scope, hd[i].scope))
				tie_hard(d, hard, hd[i].change, hd[j].change, hd[i].d->name);
	}
}

/* One `case` label with a constant value (`case 44:`), in its function. */
struct label {
	char *key;   /* the function's name, a NUL, the label's text */
	size_t keylen;
	long owner;
	int side;
};

static int cmp_label(const void *a, const void *b)
{
	const struct label *x = a, *y = b;
	size_t n = x->keylen < y->keylen ? x->keylen : y->keylen;
	int c = memcmp(x->key, y->key, n);
	return c ? c : x->keylen < y->keylen ? -1 : x->keylen > y->keylen;
}

/* The token of the number macro name is #defined as in sc (`#define
 * NAME 50`, nothing else on the line), or -1. */
static long number_macro(const struct scan *sc, const struct tok *name)
{
	for (size_t k = 0; k + 2 < sc->nt; k++)
		if (sc->t[k].directive && scan_tok_is(&sc->t[k], "define") && sc->t[k + 1].len == name->len &&
		    !memcmp(sc->t[k + 1].s, name->s, name->len) && sc->t[k + 2].kind == T_OTHER &&
		    sc->t[k + 2].line == sc->t[k].line && isdigit((unsigned char)sc->t[k + 2].s[0]) &&
		    (k + 3 >= sc->nt || sc->t[k + 3].line != sc->t[k].line))
			return (long)(k + 2);
	return -1;
}

/* The constant labels of one side of a file: `case` followed by numbers
 * and punctuation only, up to its `:`, or by a macro defined as a number. */
static void labels_of(const struct scan *sc, const long *own, int side, struct label **l, size_t *n)
{
	for (size_t k = 0; k < sc->nt; k++) {
		if (sc->t[k].directive || sc->t[k].kind != T_IDENT || !scan_tok_is(&sc->t[k], "case"))
			continue;
		struct buf b = BUF_INIT;
		const char *fn = "";
		for (size_t i = 0; i < sc->nb; i++)
			if (sc->b[i].first <= sc->t[k].line && sc->t[k].line <= sc->b[i].last)
				fn = sc->b[i].name;
		buf_adds(&b, fn);
		buf_addc(&b, '\0');
		size_t j = k + 1;
		int constant = 1;
		long owner = owner_of(sc, own, k);
		for (; j < sc->nt && j < k + 9 && !scan_punct(&sc->t[j], ':'); j++) {
			constant &= sc->t[j].kind != T_IDENT;
			buf_add(&b, sc->t[j].s, sc->t[j].len);
		}
		/* A macro defined as a number (flex's `case YY_END_OF_BUFFER:`,
		 * `#define YY_END_OF_BUFFER 50` made 49 as a rule went): its
		 * value, changed with its #define's line when the label's is not. */
		long v = j == k + 2 && sc->t[k + 1].kind == T_IDENT ? number_macro(sc, &sc->t[k + 1]) : -1;
		if (v >= 0) {
			const struct tok *num = &sc->t[v];
			b.len -= sc->t[k + 1].len;
			buf_add(&b, num->s, num->len);
			constant = 1;
			if (owner < 0)
				owner = own[num->line];
		}
		if (!constant || j == k + 1 || j >= sc->nt || !scan_punct(&sc->t[j], ':')) {
			buf_release(&b);
			continue;
		}
		*l = xrealloc(*l, (*n + 1) * sizeof(**l));
		size_t len = b.len;
		(*l)[(*n)++] = (struct label){buf_detach(&b), len, owner, side};
	}
}

/* A switch's labels renumbered (a generated scanner's or parser's `case
 * 44:` made `case 43:` as a rule before it went, each in a hunk of its
 * own): a label value one hunk removes and another adds is moved, and the
 * two only build together (apart, `duplicate case value`, or a value gone
 * that the table still jumps to). Labels on unchanged lines tie nothing,
 * unless a macro names them whose #define a hunk changes. */
static void label_ties(const struct change_set *s, const struct scan *scans, long *const *owners, struct deps *d,
		       long *hard)
{
	for (size_t f = 0; f < s->nfiles; f++) {
		struct label *l = NULL;
		size_t n = 0;
		labels_of(&scans[2 * f], owners[2 * f], 0, &l, &n);
		labels_of(&scans[2 * f + 1], owners[2 * f + 1], 1, &l, &n);
		if (n)
			qsort(l, n, sizeof(*l), cmp_label);
		size_t *members = xmalloc((n + 1) * sizeof(*members));
		int *side = xmalloc((n + 1) * sizeof(*side));
		for (size_t i = 0, j; i < n; i = j) {
			int fixed = 0;
			size_t nm = 0;
			for (j = i; j < n && !cmp_label(&l[i], &l[j]); j++) {
				fixed |= l[j].owner < 0;
				if (l[j].owner >= 0) {
					members[nm] = (size_t)l[j].owner;
					side[nm++] = l[j].side;
				}
			}
			if (fixed || nm < 2 || !moved(members, side, nm))
				continue;
			for (size_t m = 1; m < nm; m++)
				if (members[m] != members[0])
					tie_hard(d, hard, members[0], members[m], "case");
		}
		for (size_t i = 0; i < n; i++)
			free(l[i].key);
		free(l);
		free(members);
		free(side);
	}
}

#define MOVED_TOKENS 5   /* a statement line this long or longer, moved, is not a coincidence */

/* The function whose body holds line l of sc or, past its end, whose
 * head is the last above l: a body the scan ended early (braces that
 * differ between a file's `#ifdef _WIN32` branches, read as one text)
 * still holds what follows. NULL above the first function. */
static const char *function_above(const struct scan *sc, int l)
{
	const struct body *best = NULL;
	for (size_t i = 0; i < sc->nb; i++)
		if (sc->b[i].first <= l && (!best || sc->b[i].first > best->first))
			best = &sc->b[i];
	return best ? best->name : NULL;
}

/* The statement lines of sc in function bodies (function_above), each keyed by its
 * function and its tokens, then the first name it holds (NUL-separated):
 * lines of MOVED_TOKENS tokens or more naming something (not only
 * keywords), without a directive. */
static void statement_lines(const struct scan *sc, const long *own, int side, struct label **l, size_t *n)
{
	for (size_t k = 0, j; k < sc->nt; k = j) {
		int line = sc->t[k].line, directive = 0;
		const struct tok *named = NULL;
		for (j = k; j < sc->nt && sc->t[j].line == line; j++) {
			const struct tok *t = &sc->t[j];
			directive |= t->directive;
			if (!named && t->kind == T_IDENT && !scan_in_list(t, scan_type_words) &&
			    !scan_in_list(t, scan_stmt_words))
				named = t;
		}
		const char *fn = function_above(sc, line);
		if (j - k < MOVED_TOKENS || !named || directive || !fn)
			continue;
		struct buf b = BUF_INIT;
		buf_adds(&b, fn);
		for (size_t i = k; i < j; i++) {
			buf_addc(&b, i == k ? '\0' : ' ');
			buf_add(&b, sc->t[i].s, sc->t[i].len);
		}
		buf_addc(&b, '\0');
		buf_add(&b, named->s, named->len);
		*l = xrealloc(*l, (*n + 1) * sizeof(**l));
		size_t len = b.len;
		(*l)[(*n)++] = (struct label){buf_detach(&b), len, own[line], side};
	}
}

/* Statements moved within a function from one hunk to another (cJSON's
 * append rewritten as `if (child->prev) {...} else { while (child->next)
 * ...; suffix_object(child, item); }`, the diff cutting it where the old
 * loop's head and call were removed and added anew): applied apart, the
 * statement runs twice or not at all, in a function neither revision has,
 * which builds and fails in its own way. A line of the function one hunk
 * alone removes and another alone adds, with no copy left unchanged, ties
 * the two into a block. */
static void moved_statements(const struct change_set *s, size_t f, const struct scan *sc, long *const *owners,
			     struct deps *d, long *hard)
{
	struct label *l = NULL;
	size_t n = 0;
	statement_lines(&sc[0], owners[0], 0, &l, &n);
	statement_lines(&sc[1], owners[1], 1, &l, &n);
	if (n)
		qsort(l, n, sizeof(*l), cmp_label);
	for (size_t i = 0, j; i < n; i = j) {
		long from = -1, to = -1;
		int clear = 1;
		for (j = i; j < n && !cmp_label(&l[i], &l[j]); j++) {
			long *at = l[j].side ? &to : &from;
			clear &= l[j].owner >= 0 && (*at < 0 || *at == l[j].owner);
			*at = l[j].owner;
		}
		if (clear && from >= 0 && to >= 0 && from != to && s->changes[from].file == f && s->changes[to].file == f)
			tie_hard(d, hard, (size_t)from, (size_t)to, strchr(strchr(l[i].key, '\0') + 1, '\0') + 1);
	}
	for (size_t i = 0; i < n; i++)
		free(l[i].key);
	free(l);
}

/* Whether a file's text says, near its top, that a tool wrote it (flex's
 * "A lexical scanner generated by flex", Bison's "A Bison parser, made by
 * GNU Bison" and Lrama's "A Bison parser, made by Lrama", byacc's, gperf's,
 * "DO NOT EDIT"). */
static int generated(const char *data, size_t len)
{
	static const char *const marks[] = {"generated by", "automatically generated", "generated automatically",
					    "autogenerated", "auto-generated", "do not edit", "a bison parser",
					    "made by gnu bison", "original parser id follows", "produced by gperf", NULL};
	size_t n = len < 1024 ? len : 1024;
	for (const char *const *m = marks; data && *m; m++) {
		size_t k = strlen(*m);
		for (size_t i = 0; i + k <= n; i++)
			if (!strncasecmp(data + i, *m, k))
				return 1;
	}
	return 0;
}

/* A generated file's hunks are one block (`generated_ties`): the tool
 * wrote them as one, and a mix of its old and new output is neither
 * (flex's tables with another revision's actions crash or loop, its
 * renumbered `case` labels clash). */
static void generated_ties(const struct change_set *s, long *hard)
{
	for (size_t f = 0; f < s->nfiles; f++) {
		const struct change_file *cf = &s->files[f];
		if (cf->binary || cf->nchanges < 2 ||
		    !(generated(cf->new_data, cf->new_len) || generated(cf->old_data, cf->old_len)))
			continue;
		for (size_t h = 1; h < cf->nchanges; h++)
			unite(hard, cf->change0, cf->change0 + h);
	}
}

/* The hunks holding a return statement in the body of function name in
 * sc: tied into change c's block (the function's type changed so that its
 * returns change with it), by the pieces holding `return`. */
static void returns_of(const struct scan *sc, const long *own, const char *name, struct deps *d, long *hard, size_t c)
{
	for (size_t i = 0; i < sc->nb; i++) {
		if (strcmp(sc->b[i].name, name))
			continue;
		for (size_t k = 0; k < sc->nt; k++)
			if (sc->t[k].line >= sc->b[i].first && sc->t[k].line <= sc->b[i].last && !sc->t[k].directive &&
			    scan_tok_is(&sc->t[k], "return") && own[sc->t[k].line] >= 0) {
				unite(hard, c, (size_t)own[sc->t[k].line]);
				list_add(&d->hard_names[own[sc->t[k].line]], "return");   /* the piece holding it */
			}
	}
}

/* An unchanged line using a declaration whose type clashes between the
 * revisions (deps_compute): the scan, the line, the declaring hunk and the
 * name. */
struct mix {
	size_t scan;
	int line;
	size_t decl;
	const char *name;
};

static int mix_cmp(const void *a, const void *b)
{
	const struct mix *x = a, *y = b;
	if (x->scan != y->scan)
		return x->scan < y->scan ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* An unchanged line that mixes two declarations whose types clash (`url =
 * clean_url(...)`, the local and the function's return made a pointer
 * together): neither builds without the other, so their blocks are one. */
static void mix_ties(struct mix *mix, size_t n, struct deps *d, long *hard)
{
	if (n)
		qsort(mix, n, sizeof(*mix), mix_cmp);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && mix[j].scan == mix[i].scan && mix[j].line == mix[i].line; j++)
			if (mix[j].decl != mix[i].decl) {
				tie_hard(d, hard, mix[i].decl, mix[j].decl, mix[i].name);
				list_add(&d->hard_names[mix[j].decl], mix[j].name);
			}
	}
	free(mix);
}

/* A declaration whose type changed so that no value passes between the
 * two (types_clash), by the pair of types: its first declaring hunk. */
struct migr {
	char *pair;
	size_t change;
	const char *name;
};

static int migr_cmp(const void *a, const void *b)
{
	const struct migr *x = a, *y = b;
	int c = strcmp(x->pair, y->pair);
	return c ? c : x->change < y->change ? -1 : x->change > y->change;
}

/* A type migrated: declarations of two names or more, in two hunks or
 * more, retyped from one type to the same other one, a struct (ctags' `fpos_t filePosition` field and its
 * files' `fpos_t` locals and statics, all made `MIOPos`) hold values
 * that pass between them through macros and assignments the names do not
 * show (`pos = getInputFilePosition ();`): no build mixes the two types,
 * so their hunks are one block. */
static void migration_ties(struct migr *m, size_t n, struct deps *d, long *hard)
{
	if (n)
		qsort(m, n, sizeof(*m), migr_cmp);
	for (size_t i = 0, j; i < n; i = j) {
		int names = 1, changes = 1;
		for (j = i + 1; j < n && !strcmp(m[j].pair, m[i].pair); j++) {
			names += strcmp(m[j].name, m[i].name) != 0;
			changes += m[j].change != m[j - 1].change;
		}
		for (size_t k = i + 1; names > 1 && changes > 1 && k < j; k++) {
			tie_hard(d, hard, m[i].change, m[k].change, m[k].name);
			list_add(&d->hard_names[m[i].change], m[i].name);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(m[i].pair);
	free(m);
}

/* When token k starts an `#include X` line, X as written (malloc'd). */
static char *include_key(const struct scan *sc, size_t k)
{
	const struct tok *t = &sc->t[k];
	if (k + 2 >= sc->nt || !t->directive || !scan_tok_is(t, "#") || !scan_tok_is(&t[1], "include") ||
	    t[1].line != t->line || t[2].line != t->line)
		return NULL;
	size_t e = k + 2;
	while (e + 1 < sc->nt && sc->t[e + 1].line == t->line)
		e++;
	return xstrndup(t[2].s, (size_t)(sc->t[e].s + sc->t[e].len - t[2].s));
}

/* The changed file that `#include "name"` names (a path it ends with),
 * or -1. */
static long included_file(const struct change_set *s, const char *name)
{
	size_t n = strlen(name);
	for (size_t g = 0; g < s->nfiles; g++) {
		const char *paths[2] = {s->files[g].new_path, s->files[g].old_path};
		for (int k = 0; k < 2; k++) {
			size_t m = paths[k] ? strlen(paths[k]) : 0;
			if (m >= n && !strcmp(paths[k] + m - n, name) && (m == n || paths[k][m - n - 1] == '/'))
				return (long)g;
		}
	}
	return -1;
}

/* A hunk adding, removing or moving `#include "x.c"` (a source compiled
 * inside another's translation unit) uses what the included file
 * declares: without that line, its definitions are not compiled (an
 * undefined reference), with it twice or beside a new one, defined twice. */
static void include_uses(const struct change_set *s, const struct scan *scans, long *const *owners,
			 const char **names, size_t nnames, struct buf *b)
{
	for (size_t f = 0; f < 2 * s->nfiles; f++) {
		const struct scan *sc = &scans[f];
		for (size_t k = 0; k < sc->nt; k++) {
			long c = owners[f][sc->t[k].line];
			char *key = c >= 0 ? include_key(sc, k) : NULL;
			size_t n = key ? strlen(key) : 0;
			long g = -1;
			if (n > 2 && key[0] == '"' && key[n - 1] == '"') {
				key[n - 1] = '\0';
				g = included_file(s, key + 1);
			}
			for (int side = 0; g >= 0 && side < 2; side++) {
				const struct scan *in = &scans[2 * g + side];
				for (size_t i = 0; i < in->nd; i++) {
					const char *nm = in->d[i].name;
					if (in->d[i].cls == 'g' && bsearch(&nm, names, nnames, sizeof(*names), cmp_cstr)) {
						buf_adds(&b[c], nm);
						buf_addc(&b[c], '\0');
					}
				}
			}
			free(key);
		}
	}
}

/* Each change's uses of the names some hunk declares: for repair. */
static void record_uses(const struct change_set *s, const struct scan *scans, long *const *owners,
			const struct hdecl *hd, size_t nhd, struct deps *d)
{
	const char **names = xmalloc((nhd + 1) * sizeof(*names));
	for (size_t i = 0; i < nhd; i++)
		names[i] = hd[i].d->name;
	qsort(names, nhd, sizeof(*names), cmp_cstr);
	struct buf *b = xcalloc(s->nchanges + 1, sizeof(*b));
	for (size_t f = 0; f < 2 * s->nfiles && nhd; f++) {
		const struct scan *sc = &scans[f];
		for (size_t k = 0; k < sc->nu; k++) {
			long c = owner_of(sc, owners[f], sc->u[k].tok);
			if (c < 0)
				continue;
			char *nm = xstrndup(sc->u[k].s, sc->u[k].len);
			const char *key = nm;
			if (bsearch(&key, names, nhd, sizeof(*names), cmp_cstr)) {
				buf_adds(&b[c], nm);
				buf_addc(&b[c], '\0');
			}
			free(nm);
		}
	}
	if (nhd)
		include_uses(s, scans, owners, names, nhd, b);
	for (size_t c = 0; c < s->nchanges; c++) {
		buf_addc(&b[c], '\0');
		d->uses[c] = buf_detach(&b[c]);
	}
	free(b);
	free(names);
}

/* When token k is a name called (`f(`), the index of its call's closing
 * parenthesis; else 0. */
static size_t call_args_end(const struct scan *sc, size_t k)
{
	if (k + 1 >= sc->nt || !scan_punct(&sc->t[k + 1], '('))
		return 0;
	int depth = 0;
	for (size_t i = k + 1; i < sc->nt; i++)
		if (scan_punct(&sc->t[i], '('))
			depth++;
		else if (scan_punct(&sc->t[i], ')') && --depth == 0)
			return i;
	return 0;
}

/* Whether hd holds a declaration of name of class cls on side (for a
 * local, in scope of file). */
static int hd_declares(const struct change_set *s, const struct hdecl *hd, size_t nhd, const char *name, char cls,
		       int side, const char *scope, size_t file)
{
	for (size_t j = 0; j < nhd; j++)
		if (hd[j].side == side && hd[j].d->cls == cls && !strcmp(hd[j].d->name, name) &&
		    (cls != 'l' || (!strcmp(hd[j].d->scope, scope) && s->changes[hd[j].change].file == file)))
			return 1;
	return 0;
}

/* A name moved into a struct (h, its old declaration): the hunks of files
 * [f0, f1) using it by name in their old lines, or as a field (`ctx.name`)
 * in their new ones (in function scope, when given), tied as a block to
 * h's when some new line uses the field. */
static void tie_moved_uses(const struct change_set *s, const struct scan *scans, long *const *owners,
			   const struct hdecl *h, size_t f0, size_t f1, const char *scope, struct deps *d, long *hard)
{
	const char *name = h->d->name;
	size_t len = strlen(name), renamed = 0, n = 0, cap = 16, *tied = xmalloc(cap * sizeof(*tied));
	for (size_t f = f0; f < f1; f++)
		for (int side = 0; side < 2; side++) {
			const struct scan *sc = &scans[2 * f + (size_t)side];
			for (size_t k = 0; k < sc->nu; k++) {
				const struct use *u = &sc->u[k];
				if (u->len != len || memcmp(u->s, name, len) || u->member != side ||
				    (scope && strcmp(u->scope, scope)))
					continue;
				long c = owner_of(sc, owners[2 * f + (size_t)side], u->tok);
				if (c < 0 || (size_t)c == h->change)
					continue;
				if (n == cap)
					tied = xrealloc(tied, (cap *= 2) * sizeof(*tied));
				renamed += side;   /* `ctx.name` in new lines */
				tied[n++] = (size_t)c;
			}
		}
	for (size_t k = 0; renamed && k < n; k++)
		tie_hard(d, hard, h->change, tied[k], name);
	free(tied);
}

/* Locals moved into a struct that outlives the call (ag's print_file_matches
 * keeping its state in a per-thread `print_context`): a local only the old
 * revision declares, a field of its name only the new one does, and the
 * hunks of its function renaming its uses `ctx.name`. Apart they build (the
 * local is still declared) but split the state between the two, and every
 * mix fails otherwise (25 of ag e2d0f49's 64 configurations): the hunks
 * removing the local and those reading or writing it, as a local in the
 * old lines or as the field in the new, in its function, are a block. */
static void locals_into_fields(const struct change_set *s, const struct scan *scans, long *const *owners,
			       const struct hdecl *hd, size_t nhd, struct deps *d, long *hard)
{
	for (size_t i = 0; i < nhd; i++) {
		const struct decl *l = hd[i].d;
		size_t file = s->changes[hd[i].change].file;
		if (hd[i].side != 0 || l->cls != 'l' || hd[i].guarded ||
		    hd_declares(s, hd, nhd, l->name, 'l', 1, l->scope, file) || !hd_declares(s, hd, nhd, l->name, 'f', 1, "", 0) ||
		    hd_declares(s, hd, nhd, l->name, 'f', 0, "", 0))
			continue;
		tie_moved_uses(s, scans, owners, &hd[i], file, file + 1, l->scope, d, hard);
	}
}

/* Whether the global declaration d of scan sc names a variable: no
 * parameter list, no macro, no type after its name. */
static int variable_decl(const struct scan *sc, const struct decl *d)
{
	if (d->tok == 0 || d->tok + 1 >= sc->nt || sc->t[d->tok].directive || strstr(d->shape, "typedef") ||
	    scan_tok_is(&sc->t[d->tok - 1], "struct") || scan_tok_is(&sc->t[d->tok - 1], "union") ||
	    scan_tok_is(&sc->t[d->tok - 1], "enum"))
		return 0;
	const struct tok *next = &sc->t[d->tok + 1];
	return scan_punct(next, ';') || scan_punct(next, '=') || scan_punct(next, ',') || scan_punct(next, '[');
}

/* Whether any scan of side declares name as class cls. */
static int side_declares(const struct change_set *s, const struct scan *scans, int side, const char *name, char cls)
{
	for (size_t f = 0; f < s->nfiles; f++) {
		const struct scan *sc = &scans[2 * f + (size_t)side];
		for (size_t k = 0; k < sc->nd; k++)
			if (sc->d[k].cls == cls && !strcmp(sc->d[k].name, name))
				return 1;
	}
	return 0;
}

/* Globals moved into a struct (flex's `csize` made `ctrl.csize` in
 * fifteen files): a variable only the old revision declares, a field of
 * its name only the new one does, and hunks renaming its uses
 * `ctrl.name`. Apart they build while a reverted hunk keeps the global
 * declared, but writers and readers then use two places: a failure of its
 * own (5 of flex 99e6b1c's 13 configurations). The hunks removing the
 * global's declarations, those using it in their old lines and those using
 * the field in their new lines are a block, as locals_into_fields for a
 * function's locals. */
static void globals_into_fields(const struct change_set *s, const struct scan *scans, long *const *owners,
				const struct hdecl *hd, size_t nhd, struct deps *d, long *hard)
{
	for (size_t i = 0; i < nhd; i++) {
		const struct decl *g = hd[i].d;
		size_t file = s->changes[hd[i].change].file;
		if (hd[i].side != 0 || g->cls != 'g' || hd[i].guarded || !variable_decl(&scans[2 * file], g) ||
		    side_declares(s, scans, 1, g->name, 'g') || !side_declares(s, scans, 1, g->name, 'f') ||
		    side_declares(s, scans, 0, g->name, 'f'))
			continue;
		tie_moved_uses(s, scans, owners, &hd[i], 0, s->nfiles, NULL, d, hard);
	}
}

/* When token k is an argument of a call (`m(a, k, b)` on its statement),
 * the index of the called name's token; else SIZE_MAX. */
static size_t enclosing_call(const struct scan *sc, size_t k)
{
	int depth = 0;
	for (size_t i = k; i-- > 0;) {
		const struct tok *t = &sc->t[i];
		if (t->directive != sc->t[k].directive || scan_punct(t, ';') || scan_punct(t, '{') || scan_punct(t, '}'))
			break;
		if (scan_punct(t, ')'))
			depth++;
		else if (scan_punct(t, '(') && depth-- == 0)
			return i > 0 && sc->t[i - 1].kind == T_IDENT ? i - 1 : SIZE_MAX;
	}
	return SIZE_MAX;
}

/* A function whose calls do not build against the other revision's
 * declaration (members, tied as a block), passed by name on an unchanged
 * line to a function-like macro whose body a hunk changes (lua's
 * `luaV_fastget(t, k, slot, luaH_get, ...)`, the macro's body made to
 * call `f(hvalue(t), k, slot)` as luaH_get took an out-parameter): the
 * macro's body calls it, so the hunks changing that body are the call's
 * and join the block. */
static void macro_arg_ties(const struct scan *sc, size_t tok, const struct hdecl *hd, size_t nhd,
			   const struct scan *scans, const struct change_set *s, struct deps *d, long *hard,
			   size_t member, const char *name)
{
	size_t m = enclosing_call(sc, tok);
	if (m == SIZE_MAX)
		return;
	for (size_t j = 0; j < nhd; j++) {
		const struct decl *md = hd[j].d;
		if (md->cls != 'g' || strlen(md->name) != sc->t[m].len || memcmp(md->name, sc->t[m].s, sc->t[m].len))
			continue;
		const struct scan *ms = &scans[2 * s->changes[hd[j].change].file + (size_t)hd[j].side];
		if (md->tok > 0 && md->tok + 1 < ms->nt && ms->t[md->tok - 1].directive &&
		    scan_tok_is(&ms->t[md->tok - 1], "define") && scan_punct(&ms->t[md->tok + 1], '('))
			tie_hard(d, hard, member, hd[j].change, name);
	}
}

/* Whether scan sc declares global name at all (*any), and before line. */
static int declared_before(const struct scan *sc, const char *name, int line, int *any)
{
	*any = 0;
	for (size_t k = 0; k < sc->nd; k++)
		if (sc->d[k].cls == 'g' && !strcmp(sc->d[k].name, name)) {
			*any = 1;
			if (sc->d[k].first < line)
				return 1;
		}
	return 0;
}

/* Change c, a use on side (1: its new lines, applied to the old
 * revision), needs the hunks moving a declaration (members): applied, the
 * move applied; reverted (side 0), the move reverted. */
static void needs_the_move(struct deps *d, size_t c, const size_t *members, size_t nm, int side, const char *name)
{
	for (size_t m = 0; m < nm; m++) {
		if (side)
			add_need(d, c, members[m], name);
		else
			add_need(d, members[m], c, name);
	}
}

/* The hunk owning token k of sc when it is not one of members (the hunks
 * declaring what it uses), else -1. */
static long user_of(const struct scan *sc, const long *own, size_t k, const size_t *members, size_t nm)
{
	long c = owner_of(sc, own, k);
	for (size_t m = 0; m < nm && c >= 0; m++)
		if (members[m] == (size_t)c)
			return -1;
	return c;
}

/* A declaration moved within a file: C wants it before its uses. A hunk
 * using the name where the other revision's file declares it only further
 * down (a function moved up above a new call) builds only on the side of
 * the move it was written for: applied, it needs the moved declaration
 * applied; reverted, the move reverted. A local (key in changed file
 * file) moved within its function (`int len;` in a branch made `int len =
 * 0;` at the top, its new uses above the old place) likewise, where the
 * other revision declares it in no block holding that place. */
static void order_needs(const struct change_set *s, const struct scan *scans, long *const *owners,
			const struct decl *key, size_t file, const size_t *members, size_t nm, struct deps *d)
{
	size_t len = strlen(key->name);
	int local = key->cls == 'l';
	for (size_t f = local ? 2 * file : 0; f < (local ? 2 * file + 2 : 2 * s->nfiles); f++) {
		const struct scan *sc = &scans[f];
		int side = (int)(f % 2), any;
		for (size_t k = 0; k < sc->nu; k++) {
			const struct use *u = &sc->u[k];
			if (u->member || u->len != len || memcmp(u->s, key->name, len) ||
			    (local && (strcmp(u->scope, key->scope) || !local_of(sc, key->scope, u, u->line))))
				continue;
			long c = user_of(sc, owners[f], u->tok, members, nm);
			int from, to;
			if (c < 0)
				continue;
			side_range(s, (size_t)c, !side, &from, &to);
			if (local ? from > 0 && !local_of(&scans[f ^ 1], key->scope, u, from)
				  : !declared_before(&scans[f ^ 1], key->name, from, &any) && any)
				needs_the_move(d, (size_t)c, members, nm, side, key->name);
		}
	}
}

/* What the changed files include: per changed file, the changed files
 * it includes in either revision (`#include "x.h"` or <x.h> naming a
 * changed file by its path's end), ended by -1; and, filled in as asked,
 * which it reaches through them. */
struct includes {
	size_t n;
	long **incl;
	char **reach;
};

static void includes_init(struct includes *in, const struct change_set *s, const struct scan *scans)
{
	in->n = s->nfiles;
	in->incl = xcalloc(s->nfiles + 1, sizeof(*in->incl));
	in->reach = xcalloc(s->nfiles + 1, sizeof(*in->reach));
	for (size_t f = 0; f < s->nfiles; f++) {
		size_t n = 0;
		in->incl[f] = xmalloc(sizeof(**in->incl));
		for (int side = 0; side < 2; side++) {
			const struct scan *sc = &scans[2 * f + side];
			for (size_t k = 0; k < sc->nt; k++) {
				char *key = sc->t[k].directive ? include_key(sc, k) : NULL;
				size_t m = key ? strlen(key) : 0;
				if (m > 2 && ((key[0] == '"' && key[m - 1] == '"') || (key[0] == '<' && key[m - 1] == '>'))) {
					key[m - 1] = '\0';
					long g = included_file(s, key + 1);
					if (g >= 0) {
						in->incl[f] = xrealloc(in->incl[f], (n + 2) * sizeof(**in->incl));
						in->incl[f][n++] = g;
					}
				}
				free(key);
			}
		}
		in->incl[f][n] = -1;
	}
}

static void includes_release(struct includes *in)
{
	for (size_t f = 0; f < in->n; f++) {
		free(in->incl[f]);
		free(in->reach[f]);
	}
	free(in->incl);
	free(in->reach);
}

/* Whether changed file f sees what changed file g declares: it is g, or
 * includes it, directly or through other changed files. */
static int sees_file(struct includes *in, size_t f, size_t g)
{
	if (!in->reach[f]) {
		char *r = in->reach[f] = xcalloc(in->n + 1, 1);
		size_t *queue = xmalloc((in->n + 1) * sizeof(*queue)), head = 0, tail = 0;
		r[f] = 1;
		queue[tail++] = f;
		while (head < tail)
			for (const long *i = in->incl[queue[head++]]; *i >= 0; i++)
				if (!r[*i]) {
					r[*i] = 1;
					queue[tail++] = (size_t)*i;
				}
		free(queue);
	}
	return in->reach[f][g];
}

/* A changed file's path: its new one, or its old one when deleted. */
static const char *path_of(const struct change_file *cf)
{
	return cf->new_path ? cf->new_path : cf->old_path;
}

/* Whether path is a header: what declares there reaches a source only by
 * an #include of it. */
static int header_like(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	return dot && (!strcmp(dot, ".h") || !strcmp(dot, ".hh") || !strcmp(dot, ".hpp") || !strcmp(dot, ".inc"));
}

/* Whether a field declared by the hunks members can be used in changed
 * file f: a struct a source defines is seen there (and where that source
 * is included) only; one in a header, anywhere (through files that did
 * not change, as far as is known). A member access names the field, not
 * its struct: tinyproxy's struct acl_s, in acl.c, lost its `mask` field,
 * and upstream.c's `->mask` is its own struct's. */
static int field_in_sight(const struct change_set *s, struct includes *incl, const size_t *members, size_t nm,
			  size_t f)
{
	for (size_t m = 0; m < nm; m++) {
		const struct change_file *cf = &s->files[s->changes[members[m]].file];
		const char *path = path_of(cf);
		if (!path || header_like(path) || !c_like(path) || sees_file(incl, f, s->changes[members[m]].file))
			return 1;
	}
	return 0;
}

/* A declaration moved to another file (samurai's `struct evalstring`,
 * from lex.h to util.h): a hunk using the name in a file that does not
 * see the other revision's place (util.c's new `delevalstr`, which
 * includes util.h, not lex.h) builds only on the side of the move it was
 * written for: applied, it needs the move applied; reverted, the move
 * reverted. Only where the file sees its own revision's place (else
 * it reads the name through files that did not change); and a function
 * whose other place is a source is reached through a prototype and the
 * linker, not its place. */
static void moved_file_needs(const struct change_set *s, const struct scan *scans, long *const *owners,
			     struct includes *incl, const char *name, const size_t *members, const int *mside,
			     size_t nm, struct deps *d)
{
	size_t len = strlen(name);
	for (size_t f = 0; f < 2 * s->nfiles; f++) {
		const struct scan *sc = &scans[f];
		int side = (int)(f % 2);
		for (size_t k = 0; k < sc->nu; k++) {
			const struct use *u = &sc->u[k];
			if (u->member || u->len != len || memcmp(u->s, name, len))
				continue;
			long c = owner_of(sc, owners[f], u->tok);
			int mine = 0, seen = 0, places = 0, own = 0;
			for (size_t m = 0; m < nm && c >= 0; m++)
				mine |= members[m] == (size_t)c;
			if (c < 0 || mine || (u->scope[0] && local_of(sc, u->scope, u, u->line)))
				continue;
			/* Its own revision's place in sight (else the file sees the
			 * name through files that did not change: nothing known). */
			for (size_t m = 0; m < nm && !own; m++)
				own = mside[m] == side && sees_file(incl, f / 2, s->changes[members[m]].file);
			/* The other revision's places of the declaration. */
			for (size_t m = 0; m < nm && own && !seen; m++) {
				size_t g = s->changes[members[m]].file;
				if (mside[m] == side)
					continue;
				const struct scan *gs = &scans[2 * g + mside[m]];
				int function = 0;
				for (size_t j = 0; j < gs->nd && !function; j++)
					function = gs->d[j].cls == 'g' && !strcmp(gs->d[j].name, name) && gs->d[j].tok + 1 < gs->nt &&
						   !gs->t[gs->d[j].tok].directive && scan_punct(&gs->t[gs->d[j].tok + 1], '(');
				places++;
				const char *path = path_of(&s->files[g]);
				seen = sees_file(incl, f / 2, g) || (function && !header_like(path));
			}
			if (!places || seen)
				continue;
			needs_the_move(d, (size_t)c, members, nm, side, name);
		}
	}
}


/* A `do` and the `while (...);` closing its braced body, in two hunks,
 * need each other: a hunk turning a loop into `do { ... } while (...);`
 * holds the `do` above the unchanged body, another the `while` below it;
 * the `do` alone is a syntax error, the `while` alone a loop of its own
 * (mxml's loader, its first character read before the loop). */
static void do_needs(const struct change_set *s, const struct scan *scans, long *const *owners, struct deps *d)
{
	for (size_t f = 0; f < 2 * s->nfiles; f++) {
		const struct scan *sc = &scans[f];
		long *head = xmalloc((sc->nt + 1) * sizeof(*head));   /* per open brace: its `do`, or -1 */
		size_t sp = 0;
		long pending = -1;
		for (size_t k = 0; k < sc->nt; k++) {
			const struct tok *t = &sc->t[k];
			if (t->directive)
				continue;
			if (t->kind == T_IDENT && scan_tok_is(t, "do")) {
				pending = (long)k;
				continue;
			}
			if (scan_punct(t, '{')) {
				head[sp++] = pending;
			} else if (scan_punct(t, '}') && sp > 0) {
				long dk = head[--sp];
				size_t w = k + 1;
				while (w < sc->nt && sc->t[w].directive)
					w++;
				if (dk >= 0 && w < sc->nt && sc->t[w].kind == T_IDENT && scan_tok_is(&sc->t[w], "while")) {
					long a = owner_of(sc, owners[f], (size_t)dk), b = owner_of(sc, owners[f], w);
					if (a >= 0 && b >= 0 && a != b) {
						add_need(d, (size_t)a, (size_t)b, "do");
						add_need(d, (size_t)b, (size_t)a, "do");
					}
				}
			}
			pending = -1;
		}
		free(head);
	}
}

/* A `case` or `default` label must be in a switch, and a switch is
 * nothing without its labels: a hunk holding labels of a switch whose
 * `switch` another hunk holds and that hunk need each other (an `else`
 * made `else switch (ret)` by one hunk, the old switch's cases made its
 * own by the next: the cases alone are "not within a switch statement",
 * the head alone a switch that jumps past its body). A `continue` must be
 * in a loop and a `break` in a loop or a switch: a hunk adding one inside
 * a braced body whose head another hunk adds needs that hunk (tidy's
 * `if ... else` chain made `while (node)`, the body's new `continue`
 * lines below: "continue statement not within a loop"); in the old
 * revision, removing the head needs the statement removed. A new head
 * without a condition (`for (;;)`, `while (1)`) needs the hunks adding
 * the breaks it ends by (zstd 6004c11's `while (...)` made `for (;;)`,
 * its exits added below: without them seven configurations looped until
 * the timeout). */
/* Whether the loop whose head is token k has no condition: `for (;;)`,
 * `for (init;; step)` (dash's scanright made `for (loc = endp, loc2 =
 * rmescend;; ...)`, its bound a `break` below), `while (1)`,
 * `while (true)`. */
static int endless_head(const struct scan *sc, size_t k)
{
	const struct tok *t = sc->t;
	if (k + 4 < sc->nt && scan_tok_is(&t[k], "for") && scan_punct(&t[k + 1], '(')) {
		/* `for (init;; step)`: nothing between the first two `;`. */
		int depth = 0;
		for (size_t j = k + 2; j + 1 < sc->nt; j++) {
			depth += scan_punct(&t[j], '(') - scan_punct(&t[j], ')');
			if (depth < 0)
				return 0;
			if (depth == 0 && scan_punct(&t[j], ';'))
				return scan_punct(&t[j + 1], ';');
		}
		return 0;
	}
	return k + 3 < sc->nt && scan_tok_is(&t[k], "while") && scan_punct(&t[k + 1], '(') &&
	       (scan_tok_is(&t[k + 2], "1") || scan_tok_is(&t[k + 2], "true")) && scan_punct(&t[k + 3], ')');
}

static void switch_needs(const struct change_set *s, const struct scan *scans, long *const *owners, struct deps *d)
{
	for (size_t f = 0; f < 2 * s->nfiles; f++) {
		const struct scan *sc = &scans[f];
		long *body = xmalloc((sc->nt + 1) * sizeof(*body));   /* per open brace: its head's token, or -1 */
		char *kind = xmalloc(sc->nt + 1);                      /* 's' a switch's body, 'l' a loop's */
		size_t sp = 0;
		long pending = -1;
		char pkind = 0;
		int depth = 0, at = 0;   /* parentheses; those the pending head was at */
		for (size_t k = 0; k < sc->nt; k++) {
			const struct tok *t = &sc->t[k];
			if (t->directive)
				continue;
			int loop = t->kind == T_IDENT && (scan_tok_is(t, "for") || scan_tok_is(t, "while") || scan_tok_is(t, "do"));
			if ((scan_tok_is(t, "switch") && t->kind == T_IDENT) || loop) {
				pending = (long)k;
				pkind = loop ? 'l' : 's';
				at = depth;
			} else if (scan_punct(t, '(')) {
				depth++;
			} else if (scan_punct(t, ')')) {
				depth--;
			} else if (scan_punct(t, ';') && depth == at) {
				pending = -1;   /* `while (x);`, the end of `do ... while (x);` */
			} else if (scan_punct(t, '{')) {
				body[sp] = pending >= 0 && depth == at ? pending : -1;
				kind[sp++] = pkind;
				pending = -1;
			} else if (scan_punct(t, '}')) {
				sp -= sp > 0;
			} else if (t->kind == T_IDENT && (scan_tok_is(t, "case") || scan_tok_is(t, "default") ||
							  scan_tok_is(t, "continue") || scan_tok_is(t, "break"))) {
				int label = scan_tok_is(t, "case") || scan_tok_is(t, "default");
				long head = -1;
				for (size_t i = sp; i-- > 0 && head < 0;)
					if (body[i] >= 0 && (kind[i] == 'l' ? !label : !scan_tok_is(t, "continue")))
						head = body[i];
				long lo = owner_of(sc, owners[f], k), ho = head >= 0 ? owner_of(sc, owners[f], (size_t)head) : -1;
				if (lo < 0 || ho < 0 || lo == ho)
					continue;
				if (label) {
					add_need(d, (size_t)lo, (size_t)ho, "switch");
					add_need(d, (size_t)ho, (size_t)lo, "switch");
				} else if (f % 2) {
					add_need(d, (size_t)lo, (size_t)ho, "loop");
					/* A head without a condition ends by its breaks. */
					if (scan_tok_is(t, "break") && endless_head(sc, (size_t)head))
						add_need(d, (size_t)ho, (size_t)lo, "loop");
				} else {
					add_need(d, (size_t)ho, (size_t)lo, "loop");
				}
			}
		}
		free(body);
		free(kind);
	}
}

/* Words that name one half of a balanced pair of calls, as a segment of
 * a name (between underscores, or a case change): `pthread_mutex_lock`
 * and `pthread_mutex_unlock`, `Py_INCREF` and `Py_DECREF`. */
static const char *const pair_words[][2] = {
	{"lock", "unlock"}, {"inc", "dec"}, {"incref", "decref"}, {"ref", "unref"}, {"push", "pop"},
	{"enter", "leave"}, {"begin", "end"}, {"enable", "disable"}, {"suspend", "resume"},
	{"save", "restore"}, {"acquire", "release"}, {"block", "unblock"},
};

/* The key of a call's name that pair_words pairs (the name with the
 * segment replaced by the pair's index) and its direction (+1 the first
 * half, -1 the second); 0 when none. */
static int pair_call(const struct tok *t, struct buf *key)
{
	for (size_t i = 0; i < t->len;) {
		size_t j = i + 1;
		while (j < t->len && t->s[j] != '_' &&
		       !(isupper((unsigned char)t->s[j]) && islower((unsigned char)t->s[j - 1])))
			j++;
		for (size_t w = 0; w < sizeof(pair_words) / sizeof(*pair_words); w++)
			for (int h = 0; h < 2; h++)
				if (strlen(pair_words[w][h]) == j - i && !strncasecmp(t->s + i, pair_words[w][h], j - i)) {
					buf_add(key, t->s, i);
					buf_addf(key, "#%zu", w);
					buf_add(key, t->s + j, t->len - j);
					return h ? -1 : 1;
				}
		i = j + (j < t->len && t->s[j] == '_');
	}
	return 0;
}

/* Appends the tokens of an lvalue chain (`p->st.depth`) from a to b
 * (inclusive) to key. */
static void chain_text(const struct tok *t, size_t a, size_t b, struct buf *key)
{
	for (size_t k = a; k <= b; k++)
		buf_add(key, t[k].s, t[k].len);
}

static int chain_link(const struct tok *t)
{
	return t->kind == T_PUNCT && (scan_tok_is(t, ".") || scan_tok_is(t, "->"));
}

/* One balanced operation in a function: the change owning it, the
 * function (a scan and one of its bodies), what it raises or lowers, how. */
struct pair_op {
	size_t change, file, body;
	char *key;
	int dir;
};

/* The operation at token k of body b, a statement of its own: a counter
 * raised or lowered (`x++;`, `--p->n;`, `p->n += 2;`, not a local's: a
 * loop's index) or a paired call (`unlock(&m);`), its key and direction;
 * 0 when none. */
static int pair_op_at(const struct scan *sc, const struct body *b, size_t k, struct buf *key)
{
	const struct tok *t = sc->t;
	size_t a, e;
	int dir = 0;
	int stmt = k == 0 || scan_punct(&t[k - 1], ';') || scan_punct(&t[k - 1], '{') ||
		   scan_punct(&t[k - 1], '}') || scan_punct(&t[k - 1], ')') || scan_tok_is(&t[k - 1], "else");
	if (!stmt || t[k].directive)
		return 0;
	if (t[k].kind == T_PUNCT && (scan_tok_is(&t[k], "++") || scan_tok_is(&t[k], "--"))) {
		dir = t[k].s[0] == '+' ? 1 : -1;   /* `++x;` */
		a = e = k + 1;
	} else if (t[k].kind == T_IDENT) {
		a = e = k;
	} else {
		return 0;
	}
	if (e >= sc->nt || t[e].kind != T_IDENT)
		return 0;
	while (e + 2 < sc->nt && chain_link(&t[e + 1]) && t[e + 2].kind == T_IDENT)
		e += 2;
	if (e + 1 >= sc->nt)
		return 0;
	const struct tok *op = &t[e + 1];
	if (!dir && a == e && scan_punct(op, '(')) {
		dir = pair_call(&t[a], key);   /* `lock(&m);`: its first argument is part of the key */
		if (!dir)
			return 0;
		buf_addc(key, '(');
		int depth = 0;
		for (size_t j = e + 2; j < sc->nt && !(depth == 0 && (scan_punct(&t[j], ',') || scan_punct(&t[j], ')'))); j++) {
			depth += scan_punct(&t[j], '(') - scan_punct(&t[j], ')');
			buf_add(key, t[j].s, t[j].len);
		}
		return dir;
	}
	if (!dir) {
		if (op->kind != T_PUNCT)
			return 0;
		if (scan_tok_is(op, "++") || scan_tok_is(op, "+="))
			dir = 1;
		else if (scan_tok_is(op, "--") || scan_tok_is(op, "-="))
			dir = -1;
		else
			return 0;
		if (op->s[1] != '=' && (e + 2 >= sc->nt || !scan_punct(&t[e + 2], ';')))
			return 0;   /* `x++ < n`: a value */
	} else if (!scan_punct(op, ';')) {
		return 0;
	}
	if (a == e)
		for (size_t i = 0; i < sc->nd; i++)
			if (sc->d[i].cls == 'l' && !strcmp(sc->d[i].scope, b->name) && strlen(sc->d[i].name) == t[a].len &&
			    !strncmp(sc->d[i].name, t[a].s, t[a].len))
				return 0;   /* a local: an index, a length */
	chain_text(t, a, e, key);
	return dir;
}

static int cmp_pair_op(const void *x, const void *y)
{
	const struct pair_op *a = x, *b = y;
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	if (a->body != b->body)
		return a->body < b->body ? -1 : 1;
	int c = strcmp(a->key, b->key);
	return c ? c : (a->change > b->change) - (a->change < b->change);
}

#define PAIR_HUNKS_MAX 4   /* more hunks raising and lowering one thing: a pattern, not a pair */

/* Whether token k of n is the local name (not a member), and whether it
 * sets it there (`name =`, or `&name` passed on). */
static int local_token(const struct scan *n, size_t k, const char *name)
{
	return n->t[k].kind == T_IDENT && !n->t[k].member && scan_tok_is(&n->t[k], name);
}

static int sets_local(const struct scan *n, size_t k)
{
	return (k + 1 < n->nt && scan_punct(&n->t[k + 1], '=')) || (k > 0 && scan_punct(&n->t[k - 1], '&'));
}

/* set_needs (side 1: a local only the new revision declares, a reader
 * needs its setters) and unset_needs (side 0: one only the old revision
 * declares, a setter removed needs its uses removed): a local declared
 * without a value on that side, its setters and uses in its function, in
 * hunks, the use after the setter. A use by `&name` reads on side 0 (the
 * setter removed above it leaves it unset), sets on side 1. */
static void set_needs_side(const struct change_set *s, const struct scan *scans, long *const *owners, struct deps *d,
			   int side)
{
	for (size_t f = 0; f < s->nfiles; f++) {
		const struct scan *n = &scans[2 * f + (size_t)side], *o = &scans[2 * f + (size_t)!side];
		const long *own = owners[2 * f + (size_t)side];
		for (size_t k = 0; k < n->nd; k++) {
			const struct decl *nd = &n->d[k];
			if (nd->cls != 'l' || own[n->t[nd->tok].line] < 0 || nd->tok + 1 >= n->nt ||
			    scan_punct(&n->t[nd->tok + 1], '=') || scan_punct(&n->t[nd->tok + 1], '['))
				continue;
			int other = 0;
			for (size_t j = 0; j < o->nd && !other; j++)
				other = o->d[j].cls == 'l' && !strcmp(o->d[j].name, nd->name) && !strcmp(o->d[j].scope, nd->scope);
			if (other)
				continue;   /* on both sides: init_needs, or unchanged */
			for (size_t r = nd->tok + 1; r < n->nt; r++) {
				if (!local_token(n, r, nd->name))
					continue;
				const char *in = enclosing(n, n->t[r].line);
				if (!in || strcmp(in, nd->scope))
					continue;
				if (nd->block_last && n->t[r].line > nd->block_last)
					break;
				long rh = own[n->t[r].line];
				int sets = side ? sets_local(n, r) : r + 1 < n->nt && scan_punct(&n->t[r + 1], '=');
				if (sets || rh < 0)
					continue;
				/* A use in hunk rh: the setters above it, in other hunks. */
				for (size_t w = nd->tok + 1; w < r; w++) {
					long wh = local_token(n, w, nd->name) ? own[n->t[w].line] : -1;
					if (wh < 0 || wh == rh || !sets_local(n, w))
						continue;
					if (side)
						add_need(d, (size_t)rh, (size_t)wh, nd->name);
					else
						add_need(d, (size_t)wh, (size_t)rh, nd->name);
				}
			}
		}
	}
}

/* A new local declared without a value, set by one hunk and read by
 * another: opus's `packet_frame_size`, declared by one hunk, set from the
 * packet by a second, read by a third (`pcm + ...*(frame_size -
 * packet_frame_size)`). The reader without the setter reads it
 * uninitialized, which a build under -w does not warn of: a crash, or a
 * failure of its own. A hunk reading such a local needs the other hunks
 * setting it (`name =`, or `&name` passed on) above the read, in its
 * function (reverting one of those takes it back, as needs go). */
static void set_needs(const struct change_set *s, const struct scan *scans, long *const *owners, struct deps *d)
{
	set_needs_side(s, scans, owners, d, 1);
}

/* The same, the other way: a local the new revision no longer declares,
 * set by one hunk's old lines and used by another's (expat's build_model
 * rewritten: `cpos = &ret[1];` removed by one hunk, the call passing
 * `&cpos` by another). The setter removed without the use leaves it read
 * uninitialized: a crash. The hunk removing the setter needs the hunks
 * removing the uses below it (keeping a use takes the setter back). */
static void unset_needs(const struct change_set *s, const struct scan *scans, long *const *owners, struct deps *d)
{
	set_needs_side(s, scans, owners, d, 0);
}

/* A new field set by some hunks and read by others (brotli's
 * `max_base64_regions`, set in the encoder's parameters by one hunk, read
 * by another to size an allocation): the reader without the setter reads
 * what the memory held, a crash or a failure of its own (19 of 44
 * configurations). A hunk reading such a field needs the hunks setting it
 * (`->name =`, `.name =`, or its address passed on), one way, as set_needs
 * for a new local; a field no other struct of the changed files has in the
 * old revision, set by three hunks at most (more are a pattern, not an
 * initialization). */
static void field_set_needs(const struct change_set *s, const struct scan *scans, long *const *owners,
			    struct deps *d)
{
	for (size_t f = 0; f < s->nfiles; f++) {
		const struct scan *n = &scans[2 * f + 1];
		for (size_t k = 0; k < n->nd; k++) {
			const struct decl *nd = &n->d[k];
			if (nd->cls != 'f' || owners[2 * f + 1][n->t[nd->tok].line] < 0)
				continue;
			int old = 0, twice = 0;
			for (size_t g = 0; g < 2 * s->nfiles && !old; g++)
				for (size_t j = 0; j < scans[g].nd && !old; j++)
					if (scans[g].d[j].cls == 'f' && !strcmp(scans[g].d[j].name, nd->name)) {
						old = g % 2 == 0;
						twice |= &scans[g].d[j] != nd;
					}
			if (old || twice)
				continue;
			size_t set[4], nset = 0, len = strlen(nd->name);
			for (size_t pass = 0; pass < 2; pass++)
				for (size_t g = 0; g < s->nfiles && nset <= 3; g++) {
					const struct scan *sc = &scans[2 * g + 1];
					for (size_t t = 1; t + 1 < sc->nt && nset <= 3; t++) {
						const struct tok *tk = &sc->t[t];
						long h = owners[2 * g + 1][tk->line];
						if (h < 0 || !tk->member || tk->len != len || memcmp(tk->s, nd->name, len))
							continue;
						int sets = scan_punct(&sc->t[t + 1], '=') ||
							   (t >= 2 && scan_punct(&sc->t[t - 2], '&'));
						if (pass == 0 && sets) {
							int seen = 0;
							for (size_t q = 0; q < nset; q++)
								seen |= set[q] == (size_t)h;
							if (!seen)
								set[nset++] = (size_t)h;
						} else if (pass == 1 && !sets && nset <= 3) {
							for (size_t q = 0; q < nset; q++)
								if (set[q] != (size_t)h)
									add_need(d, (size_t)h, set[q], nd->name);
						}
					}
				}
		}
	}
}

/* A local's initializer moved into assignments: `bool validid = true;`
 * made `bool validid;` by one hunk, `validid = isidchar(*value);` added on
 * its paths by another. The first without the second reads the local
 * uninitialized, which a build under -w does not even warn of: a failure
 * of its own. The hunk dropping the initializer needs the hunks adding
 * assignments to the local in its function (reverting one of those takes
 * it back, as needs go). */
static void init_needs(const struct change_set *s, const struct scan *scans, long *const *owners, struct deps *d)
{
	for (size_t f = 0; f < s->nfiles; f++) {
		const struct scan *o = &scans[2 * f], *n = &scans[2 * f + 1];
		for (size_t k = 0; k < o->nd; k++) {
			const struct decl *od = &o->d[k];
			if (od->cls != 'l' || od->tok + 1 >= o->nt || !scan_punct(&o->t[od->tok + 1], '='))
				continue;
			long a = owners[2 * f][o->t[od->tok].line];
			const struct decl *nd = NULL;
			for (size_t j = 0; a >= 0 && j < n->nd && !nd; j++) {
				const struct decl *c = &n->d[j];
				if (c->cls == 'l' && !strcmp(c->name, od->name) && !strcmp(c->scope, od->scope) &&
				    c->tok + 1 < n->nt && !scan_punct(&n->t[c->tok + 1], '=') &&
				    owners[2 * f + 1][n->t[c->tok].line] == a)
					nd = c;
			}
			size_t len = strlen(od->name);
			for (size_t t = 1; nd && t + 1 < n->nt; t++) {
				const struct tok *tk = &n->t[t], *prev = &n->t[t - 1];
				if (t == nd->tok || tk->kind != T_IDENT || tk->len != len || memcmp(tk->s, od->name, len) ||
				    !scan_punct(&n->t[t + 1], '=') || scan_punct(prev, '.') ||
				    (prev->len == 2 && !memcmp(prev->s, "->", 2)))
					continue;
				const char *in = enclosing(n, tk->line);
				long b = owners[2 * f + 1][tk->line];
				if (in && !strcmp(in, od->scope) && b >= 0)
					add_need(d, (size_t)a, (size_t)b, od->name);
			}
		}
	}
}

/* Balanced operations split over hunks: a counter raised by one hunk of
 * a function and lowered by another (`p->depth++;` before a loop,
 * `p->depth--;` after it), or a call and its counterpart (`lock(&m)`,
 * `unlock(&m)`), each hunk unbalanced on its own. A configuration with
 * one and not the other runs what follows at the wrong level: a failure
 * of its own, not the one searched for. The hunks raising and those
 * lowering need each other. */
static void pair_needs(const struct change_set *s, const struct scan *scans, long *const *owners, struct deps *d)
{
	struct pair_op *v = NULL;
	size_t n = 0;
	for (size_t f = 0; f < 2 * s->nfiles; f++) {
		const struct scan *sc = &scans[f];
		size_t k = 0;
		for (size_t bi = 0; bi < sc->nb; bi++) {
			const struct body *b = &sc->b[bi];
			while (k < sc->nt && sc->t[k].line < b->first)
				k++;
			for (; k < sc->nt && sc->t[k].line <= b->last; k++) {
				long c = owners[f][sc->t[k].line];
				if (c < 0)
					continue;
				struct buf key = BUF_INIT;
				int dir = pair_op_at(sc, b, k, &key);
				if (!dir) {
					buf_release(&key);
					continue;
				}
				v = xrealloc(v, (n + 1) * sizeof(*v));
				v[n++] = (struct pair_op){(size_t)c, f, bi, buf_detach(&key), dir};
			}
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_pair_op);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && v[j].file == v[i].file && v[j].body == v[i].body && !strcmp(v[j].key, v[i].key); j++)
			;
		/* each change's net direction on the key */
		size_t up[PAIR_HUNKS_MAX], down[PAIR_HUNKS_MAX], nup = 0, ndown = 0, many = 0;
		for (size_t a = i, z; a < j; a = z) {
			int net = 0;
			for (z = a; z < j && v[z].change == v[a].change; z++)
				net += v[z].dir;
			if (!net)
				continue;
			if (nup + ndown == PAIR_HUNKS_MAX)
				many = 1;
			else if (net > 0)
				up[nup++] = v[a].change;
			else
				down[ndown++] = v[a].change;
		}
		for (size_t a = 0; !many && a < nup; a++)
			for (size_t z = 0; z < ndown; z++) {
				add_need(d, up[a], down[z], "pair");
				add_need(d, down[z], up[a], "pair");
			}
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].key);
	free(v);
}

/* Whether `#include KEY` includes a source, not a header: "x.c", which
 * has no guard against being included twice. */
static int included_source(const char *key)
{
	size_t n = strlen(key);
	return n > 4 && key[0] == '"' && !strcmp(key + n - 3, ".c\"");
}

/* An include moved: a hunk removing `#include X` (from a header its users
 * read X through) and a hunk adding it elsewhere (to the file that uses
 * what X declares): without the addition, what X declares is gone, so the
 * removal needs it. A source included (`#include "rexpdb.c"` moved up in
 * the file that compiles it) is not guarded: the addition without the
 * removal defines it all twice, so the two need each other; so does an
 * include moved within one file (mandoc's headers have no guards: the
 * addition without the removal declares everything twice). */
static void include_needs(const struct change_set *s, const struct scan *scans, long *const *owners, struct deps *d)
{
	struct inc {
		size_t change, file;
		int side;
		char *key;
	} *v = NULL;
	size_t n = 0;
	for (size_t f = 0; f < 2 * s->nfiles; f++) {
		const struct scan *sc = &scans[f];
		for (size_t k = 0; k + 2 < sc->nt; k++) {
			char *key = owners[f][sc->t[k].line] >= 0 ? include_key(sc, k) : NULL;
			if (!key)
				continue;
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n++] = (struct inc){(size_t)owners[f][sc->t[k].line], f / 2, (int)(f % 2), key};
		}
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; v[i].side == 0 && j < n; j++)
			if (v[j].side == 1 && v[j].change != v[i].change && !strcmp(v[i].key, v[j].key)) {
				add_need(d, v[i].change, v[j].change, v[i].key);
				if (included_source(v[i].key) || v[i].file == v[j].file)
					add_need(d, v[j].change, v[i].change, v[i].key);
			}
	for (size_t i = 0; i < n; i++)
		free(v[i].key);
	free(v);
}

static int in_sorted(const char **v, size_t n, const char *name)
{
	return bsearch(&name, v, n, sizeof(*v), cmp_cstr) != NULL;
}

/* Change from needs change to where names left unused are errors (quiet). */
static void add_quiet(struct deps *d, size_t from, size_t to, const char *name)
{
	if (from == to)
		return;
	d->quiet = xrealloc(d->quiet, (d->nquiet + 1) * sizeof(*d->quiet));
	d->quiet_names = xrealloc(d->quiet_names, (d->nquiet + 1) * sizeof(*d->quiet_names));
	d->quiet[d->nquiet][0] = from;
	d->quiet[d->nquiet][1] = to;
	d->quiet_names[d->nquiet++] = xstrdup(name);
}

/* Change from likely needs include change to, for name (header_needs). */
static void add_header(struct deps *d, size_t from, size_t to, const char *name)
{
	if (from == to)
		return;   /* the include and its use in one hunk */
	for (size_t k = 0; k < d->nheader; k++)
		if (d->header[k][0] == from && d->header[k][1] == to) {
			list_add(&d->header_names[k], name);
			return;
		}
	d->header = xrealloc(d->header, (d->nheader + 1) * sizeof(*d->header));
	d->header_names = xrealloc(d->header_names, (d->nheader + 1) * sizeof(*d->header_names));
	d->header[d->nheader][0] = from;
	d->header[d->nheader][1] = to;
	d->header_names[d->nheader] = NULL;
	list_add(&d->header_names[d->nheader++], name);
}

/* Whether sc declares name at file level (a function, a type, a macro,
 * a variable). */
static int declares_global(const struct scan *sc, const char *name)
{
	for (size_t k = 0; k < sc->nd; k++)
		if (sc->d[k].cls == 'g' && !strcmp(sc->d[k].name, name))
			return 1;
	return 0;
}

/* Every name the changed files declare, either revision, sorted (the
 * strings are the scans'; to free). */
static const char **declared_names(const struct change_set *s, const struct scan *scans, size_t *n)
{
	*n = 0;
	for (size_t f = 0; f < 2 * s->nfiles; f++)
		*n += scans[f].nd;
	const char **v = xmalloc((*n + 1) * sizeof(*v));
	*n = 0;
	for (size_t f = 0; f < 2 * s->nfiles; f++)
		for (size_t k = 0; k < scans[f].nd; k++)
			v[(*n)++] = scans[f].d[k].name;
	qsort(v, *n, sizeof(*v), cmp_cstr);
	return v;
}

/* Every name sc mentions, sorted (to free with names_free). */
static const char **mentioned_names(const struct scan *sc, size_t *n)
{
	*n = sc->nu;
	const char **v = xmalloc((*n + 1) * sizeof(*v));
	for (size_t k = 0; k < *n; k++)
		v[k] = xstrndup(sc->u[k].s, sc->u[k].len);
	qsort(v, *n, sizeof(*v), cmp_cstr);
	return v;
}

static void names_free(const char **v, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free((char *)v[k]);
	free(v);
}

/* Whether token k of sc starts an #include that other does not have;
 * *file: the changed file it names (a "..." include), or -1. */
static int include_gained(const struct change_set *s, const struct scan *sc, const struct scan *other, size_t k,
			  long *file)
{
	char *key = include_key(sc, k);
	*file = -1;
	if (!key)
		return 0;
	int known = 0;
	for (size_t j = 0; j + 2 < other->nt && !known; j++) {
		char *o = include_key(other, j);
		known = o && !strcmp(o, key);
		free(o);
	}
	if (!known && key[0] == '"') {
		key[strlen(key) - 1] = '\0';
		*file = included_file(s, key + 1);
	}
	free(key);
	return !known;
}

/* Whether path reads as documentation: a file a build never turns into
 * code (README, NEWS, a man page, Markdown, anything under doc/). */
static int doc_like(const char *path)
{
	static const char *const ext[] = {".md", ".markdown", ".rst", ".adoc", ".txt", ".html", ".htm", ".texi",
					  ".texinfo", ".tex", ".pod", ".1", ".3", ".5", ".7", ".8", NULL};
	static const char *const base[] = {"README", "NEWS", "ChangeLog", "CHANGES", "CHANGELOG", "AUTHORS",
					   "THANKS", "TODO", "COPYING", "LICENSE", NULL};
	static const char *const dir[] = {"doc/", "docs/", "man/", "Documentation/", NULL};
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path, *dot = strrchr(name, '.');
	for (size_t i = 0; dot && ext[i]; i++)
		if (!strcmp(dot, ext[i]))
			return 1;
	for (size_t i = 0; base[i]; i++)
		if (!strncmp(name, base[i], strlen(base[i])))
			return 1;
	for (size_t i = 0; dir[i]; i++)
		for (const char *p = strstr(path, dir[i]); p; p = strstr(p + 1, dir[i]))
			if (p == path || p[-1] == '/')
				return 1;
	return 0;
}

/* Whether change c's new text holds name as a word, or its part after
 * its first underscore, in any case (a data file's `dollarhex` that a
 * script makes D_DOLLARHEX). */
static int new_text_holds(const struct change_set *s, size_t c, const char *name)
{
	const struct change *ch = &s->changes[c];
	const struct change_file *f = &s->files[ch->file];
	const char *us = strchr(name, '_');
	const char *stems[2] = {name, us && strlen(us + 1) > 2 ? us + 1 : NULL};
	for (size_t a = ch->atom0; a < ch->atom0 + ch->natoms; a++) {
		const struct change_atom *t = &s->atoms[a];
		for (int k = 0; k < 2; k++)
			if (stems[k] && scan_holds_word(f->new_data + t->new_off, t->new_end - t->new_off, stems[k],
							strlen(stems[k]), 1))
				return 1;
	}
	return 0;
}

/* Change c's new comments and string literals, a hyphen read as an
 * underscore, each followed by a space (NULL when it has none): where a
 * build script may read names it makes (busybox's `//config:config
 * FEATURE_FIND_EXEC_PLUS` made `IF_FEATURE_FIND_EXEC_PLUS`, toybox's
 * option string `"(no-wildcards)(wildcards)"` made `FLAG_no_wildcards`). */
static char *new_notes(const struct change_set *s, size_t c)
{
	const struct change *ch = &s->changes[c];
	const struct change_file *f = &s->files[ch->file];
	const char *data = f->new_data;
	size_t from = 0, to, len = f->new_len;
	if (!data || ch->new_lines <= 0)
		return NULL;
	for (int l = 1; l < ch->new_start && from < len; from++)   /* the hunk's new lines, whole */
		l += data[from] == '\n';
	int lines = 0;
	for (to = from; to < len && lines < ch->new_lines; to++)
		lines += data[to] == '\n';
	struct buf notes = BUF_INIT;
	for (size_t i = from; i < to; i++) {
		size_t end;
		if (data[i] == '"') {
			for (end = i + 1; end < to && data[end] != '"' && data[end] != '\n'; end++)
				if (data[end] == '\\')
					end++;
		} else if (data[i] == '/' && i + 1 < to && data[i + 1] == '/') {
			for (end = i; end < to && data[end] != '\n'; end++)
				;
		} else if (data[i] == '/' && i + 1 < to && data[i + 1] == '*') {
			for (end = i + 2; end + 1 < to && !(data[end] == '*' && data[end + 1] == '/'); end++)
				;
		} else {
			continue;
		}
		for (size_t k = i; k < end && k < to; k++)
			buf_addc(&notes, data[k] == '-' ? '_' : data[k]);
		buf_addc(&notes, ' ');
		i = end;
	}
	return buf_detach(&notes);
}

/* Whether notes (new_notes) hold the part of name after its first
 * underscore, five characters or more, as a word in any case. */
static int notes_hold(const char *notes, const char *name)
{
	const char *us = strchr(name, '_');
	return notes && us && strlen(us + 1) >= 5 && scan_holds_word(notes, strlen(notes), us + 1, strlen(us + 1), 1);
}

/* A name from a header: a hunk newly using a name (one its file's old
 * revision never mentions) that no changed file declares, in a file that
 * gains #include lines, most likely uses what a new include declares
 * (assert after #include <assert.h>): it needs the hunks adding the
 * includes its file did not have (d->header: a guess, which the search
 * holds as it holds what a repair teaches). A hunk newly using a name
 * that a changed file declares, in a file gaining `#include` of that
 * file, needs the include: no guess (a header's new prototypes taking
 * `Picoc *pc`, the typedef in interpreter.h it now includes). A name
 * made by the build, too: such a hunk likely needs the hunks of changed
 * files neither C nor documentation whose new text holds the name, or its
 * part after its first underscore (nasm's directiv.dat gains `dollarhex`,
 * a perl script makes `D_DOLLARHEX` of it; a grammar's new %token). */
static void header_needs(const struct change_set *s, const struct scan *scans, long *const *owners, struct deps *d)
{
	size_t *gen = NULL, ngen = 0;   /* the hunks of files neither C nor documentation */
	for (size_t c = 0; c < s->nchanges; c++) {
		const struct change_file *f = &s->files[s->changes[c].file];
		if (!f->binary && f->new_data && !c_like(f->new_path) && !doc_like(f->new_path)) {
			gen = xrealloc(gen, (ngen + 1) * sizeof(*gen));
			gen[ngen++] = c;
		}
	}
	size_t nall;
	const char **declared = declared_names(s, scans, &nall);
	char **notes = xcalloc(s->nchanges + 1, sizeof(*notes));   /* per C hunk: new_notes */
	for (size_t c = 0; c < s->nchanges; c++)
		if (s->changes[c].kind == CHANGE_HUNK && c_like(s->files[s->changes[c].file].new_path))
			notes[c] = new_notes(s, c);
	for (size_t f = 0; f < s->nfiles; f++) {
		const struct scan *old = &scans[2 * f], *new = &scans[2 * f + 1];
		/* The includes the file did not have, and their hunks. */
		size_t *inc = NULL, ninc = 0;
		long *incf = NULL;   /* per include: the changed file it names, or -1 */
		for (size_t k = 0; k + 2 < new->nt; k++) {
			long c = owners[2 * f + 1][new->t[k].line], g;
			if (c < 0 || !include_gained(s, new, old, k, &g))
				continue;
			inc = xrealloc(inc, (ninc + 1) * sizeof(*inc));
			incf = xrealloc(incf, (ninc + 1) * sizeof(*incf));
			incf[ninc] = g;
			inc[ninc++] = (size_t)c;
		}
		size_t nold = 0;
		const char **oldn = mentioned_names(old, &nold);
		for (size_t k = 0; oldn && k < new->nu; k++) {
			const struct use *u = &new->u[k];
			const struct tok *t = &new->t[u->tok];
			long c = owner_of(new, owners[2 * f + 1], u->tok);
			if (c < 0 || u->member || t->directive || scan_in_list(t, scan_type_words) || scan_in_list(t, scan_stmt_words))
				continue;
			char *name = xstrndup(u->s, u->len);
			if (!in_sorted(oldn, nold, name) && !in_sorted(declared, nall, name)) {
				for (size_t j = 0; j < ninc; j++)
					add_header(d, (size_t)c, inc[j], name);
				for (size_t j = 0; j < ngen; j++)
					if (new_text_holds(s, gen[j], name))
						add_header(d, (size_t)c, gen[j], name);   /* D_DOLLARHEX from `dollarhex` */
				for (size_t j = 0; j < s->nchanges; j++)
					if (j != (size_t)c && notes_hold(notes[j], name))
						add_header(d, (size_t)c, j, name);   /* FLAG_wildcards from `(wildcards)` */
			}
			for (size_t j = 0; j < ninc && !in_sorted(oldn, nold, name); j++)
				if (incf[j] >= 0 && declares_global(&scans[2 * incf[j] + 1], name))
					add_need(d, (size_t)c, inc[j], name);   /* `Picoc *pc` after `#include "interpreter.h"` */
			free(name);
		}
		if (oldn)
			names_free(oldn, nold);
		free(inc);
		free(incf);
		/* Read backwards: a hunk removing an #include its file loses
		 * likely needs the hunks removing the file's last uses of names
		 * no changed file declares (htop's `#include <sys/capability.h>`
		 * gone with the body using `cap_t`: that body reverted without
		 * the include did not build), and restoring such a use restores
		 * the include. */
		size_t nnew = 0;
		const char **newn = NULL;
		for (size_t k = 0; k + 2 < old->nt; k++) {
			long r = owners[2 * f][old->t[k].line], g;
			if (r < 0 || !include_gained(s, old, new, k, &g))
				continue;
			if (!newn)
				newn = mentioned_names(new, &nnew);
			for (size_t j = 0; j < old->nu; j++) {
				const struct use *u = &old->u[j];
				const struct tok *t = &old->t[u->tok];
				long c = owner_of(old, owners[2 * f], u->tok);
				if (c < 0 || u->member || t->directive || scan_in_list(t, scan_type_words) ||
				    scan_in_list(t, scan_stmt_words))
					continue;
				char *name = xstrndup(u->s, u->len);
				if (!in_sorted(newn, nnew, name) && !in_sorted(declared, nall, name))
					add_header(d, (size_t)r, (size_t)c, name);
				free(name);
			}
		}
		if (newn)
			names_free(newn, nnew);
	}
	for (size_t c = 0; c < s->nchanges; c++)
		free(notes[c]);
	free(notes);
	free(declared);
	free(gen);
}

/* Whether sc uses name (not as a member). */
static int uses_name(const struct scan *sc, const char *name)
{
	size_t n = strlen(name);
	for (size_t k = 0; k < sc->nu; k++)
		if (!sc->u[k].member && sc->u[k].len == n && !memcmp(sc->u[k].s, name, n))
			return 1;
	return 0;
}

/* An include removed: a hunk removing `#include "x.h"` (x.h a changed
 * file) from a file that used names x.h's old revision declares needs the
 * file to do without them: the hunks removing those uses (samurai's
 * `lexfile = mkfile(manifest);` gone with `#include "lex.h"`), or, for a
 * name the file still uses, the hunks declaring it anew in another
 * changed file (`struct evalstring` moved from lex.h to util.h). Read
 * backwards, restoring old uses restores the include. */
static void include_removed_needs(const struct change_set *s, const struct scan *scans, long *const *owners,
				  struct deps *d)
{
	for (size_t f = 0; f < s->nfiles; f++) {
		const struct scan *old = &scans[2 * f], *new = &scans[2 * f + 1];
		for (size_t k = 0; k + 2 < old->nt; k++) {
			long r = owners[2 * f][old->t[k].line], x;
			if (r < 0 || !include_gained(s, old, new, k, &x) || x < 0 || (size_t)x == f)
				continue;
			const struct scan *hx = &scans[2 * x];
			for (size_t u = 0; u < old->nu; u++) {
				const struct use *us = &old->u[u];
				long c = owners[2 * f][us->line];
				if (us->member)
					continue;
				char *name = xstrndup(us->s, us->len);
				if (!declares_global(hx, name) || declares_global(old, name)) {
					free(name);
					continue;
				}
				if (!uses_name(new, name)) {
					if (c >= 0)
						add_need(d, (size_t)r, (size_t)c, name);
				} else {
					for (size_t g = 0; g < s->nfiles; g++)
						for (size_t j = 0; g != (size_t)x && g != f && j < scans[2 * g + 1].nd; j++) {
							const struct decl *dc = &scans[2 * g + 1].d[j];
							long o = owners[2 * g + 1][dc->first];
							if (o >= 0 && dc->cls == 'g' && !strcmp(dc->name, name))
								add_need(d, (size_t)r, (size_t)o, name);
						}
				}
				free(name);
			}
		}
	}
}



/* An unchanged use of a global name only one revision declares: on the
 * side without the global, a local or parameter of its function that a
 * hunk declares must stand in for it (a static removed, its function's
 * body unchanged, now reading a new parameter of the same name). Removing
 * the global needs that local declared; the other way, removing the local
 * needs the global. */
static void shadow_needs(const struct hdecl *hd, size_t nhd, const struct use *u, int side, const size_t *members,
			 size_t nm, int added, struct deps *d)
{
	for (size_t j = 0; j < nhd; j++) {
		const struct decl *l = hd[j].d;
		if (hd[j].side != side || l->cls != 'l' || strlen(l->name) != u->len ||
		    memcmp(l->name, u->s, u->len) || strcmp(l->scope, u->scope))
			continue;
		int both = 0;   /* declared on the other side too: it stood in there as well */
		for (size_t k = 0; k < nhd && !both; k++)
			both = hd[k].side != side && same_key(hd[k].d, l);
		if (both)
			continue;
		for (size_t m = 0; m < nm; m++) {
			if (added < 0)
				add_need(d, members[m], hd[j].change, l->name);
			else
				add_need(d, hd[j].change, members[m], l->name);
		}
	}
}

/* Whether path names a build file, whose lists of sources say what is
 * compiled: a Makefile (Makefile.inc, Makefile.am, GNUmakefile, *.mk), a
 * CMakeLists.txt or *.cmake, meson.build, a configure script's source,
 * SCons, Bazel, qmake, Visual Studio or gyp/gn project files. Not a
 * README or a ChangeLog that names the file. */
static int build_file(const char *path)
{
	static const char *const names[] = {"CMakeLists.txt", "meson.build", "configure.ac", "configure.in",
					    "SConstruct", "SConscript", "BUILD", "BUILD.bazel", "build.ninja", NULL};
	static const char *const ext[] = {".mk", ".am", ".cmake", ".pro", ".pri", ".vcxproj", ".vcproj", ".gyp",
					  ".gypi", ".gn", ".bzl", ".mak", NULL};
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	if (strstr(b, "akefile"))   /* Makefile, makefile, GNUmakefile, Makefile.inc, Makefile.in */
		return 1;
	for (size_t i = 0; names[i]; i++)
		if (!strcmp(b, names[i]))
			return 1;
	const char *dot = strrchr(b, '.');
	for (size_t i = 0; dot && ext[i]; i++)
		if (!strcmp(dot, ext[i]))
			return 1;
	return 0;
}

/* Whether line mentions name as a word of a path list (`foo.c \`,
 * `src/foo.c`, `"foo.h"`). */
static int mentions(const char *line, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = line; (p = strstr(p, name)); p++) {
		char before = p > line ? p[-1] : ' ', after = p[n];
		if (!(isalnum((unsigned char)before) || strchr("_.-", before)) &&
		    !(isalnum((unsigned char)after) || (after && strchr("_.-", after))))
			return 1;
	}
	return 0;
}

/* A file added or deleted and the lines naming it: an `#include "x.h"`
 * added needs x.h added (one way: a missing header is a fatal error),
 * and x.h deleted needs such an include removed; a build file's list
 * (Makefile.inc's `CSOURCES`, CMakeLists.txt) that gains or loses the
 * file, or a source's object (`x.o`, `x.lo`, `x.obj`), and the file itself
 * need each other (the file compiled only when
 * listed, its functions undefined at link time otherwise; a listed file
 * missing stops the build). */
static void file_needs(const struct change_set *s, struct deps *d)
{
	for (size_t f = 0; f < s->nchanges; f++) {
		const struct change *fc = &s->changes[f];
		if (fc->kind != CHANGE_FILE_ADD && fc->kind != CHANGE_FILE_DELETE)
			continue;
		int added = fc->kind == CHANGE_FILE_ADD;
		const struct change_file *cf = &s->files[fc->file];
		const char *path = added ? cf->new_path : cf->old_path;
		if (!path)
			continue;
		const char *base = strrchr(path, '/');
		base = base ? base + 1 : path;
		/* A source is listed by its objects too (libtommath's makefile,
		 * `s_mp_div_recursive.o s_mp_div_school.o ...`). */
		char objs[3][256] = {"", "", ""};
		const char *dot = strrchr(base, '.');
		static const char *const srcext[] = {".c", ".cc", ".cpp", ".cxx", ".s", ".S", NULL};
		static const char *const objext[] = {".o", ".lo", ".obj"};
		for (size_t i = 0; dot && srcext[i] && (size_t)(dot - base) < 200; i++)
			for (size_t k = 0; !strcmp(dot, srcext[i]) && k < 3; k++)
				snprintf(objs[k], sizeof(objs[k]), "%.*s%s", (int)(dot - base), base, objext[k]);
		for (size_t c = 0; c < s->nchanges; c++) {
			const struct change *h = &s->changes[c];
			if (h->kind != CHANGE_HUNK || h->file == fc->file)
				continue;
			const struct change_file *hf = &s->files[h->file];
			const char *hpath = path_of(hf);
			struct change_lines l;
			change_lines_of(s, c, &l);
			char **lines = added ? l.added : l.removed;
			size_t n = added ? l.nadded : l.nremoved;
			int include = 0, listed = 0;
			for (size_t k = 0; k < n; k++) {
				if (!mentions(lines[k], base)) {
					for (size_t o = 0; o < 3 && objs[o][0] && !listed; o++)
						listed = mentions(lines[k], objs[o]) && build_file(hpath);
					continue;
				}
				const char *q = lines[k] + strspn(lines[k], " \t");
				if (*q == '#' && strstr(q, "include"))
					include = 1;
				else if (build_file(hpath))
					listed = 1;
			}
			change_lines_free(&l);
			if (listed) {
				add_need(d, c, f, base);
				add_need(d, f, c, base);
			} else if (include) {
				if (added)
					add_need(d, c, f, base);
				else
					add_need(d, f, c, base);
			}
		}
	}
}

int deps_reads(const char *path)
{
	return c_like(path);
}

int deps_source_of(const char *path, const char *data, size_t len)
{
	return c_like(path) && data &&
	       (memmem(data, len, "##", 2) || (header_like(path) && memmem(data, len, "typedef", 7)));
}

static int cmp_hdecl_key(const void *a, const void *b, void *priv)
{
	const struct hdecl *hd = priv;
	const struct decl *x = hd[*(const size_t *)a].d, *y = hd[*(const size_t *)b].d;
	int c = x->cls - y->cls;
	if (!c)
		c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->scope, y->scope);
}

/* Whether global declaration h is shared by name beyond its file: not
 * static, or static in a header (an inline function, often one platform's
 * version of what another's source defines: htop's darwin/Platform.h's
 * `static bool Platform_getLongOption(...)` and linux/Platform.c's). */
static int shared_decl(const struct change_set *s, const struct hdecl *h)
{
	return !shape_static(h->d->shape) || header_like(s->files[s->changes[h->change].file].new_path);
}

/* Whether declarations x and y (of one name, in two files, on two sides)
 * are a static moved from the old one's file to the new one's: gone from
 * the first, new in the second (htop's dropCapabilities moved from htop.c
 * to linux/Platform.c). */
static int static_moved(const struct change_set *s, const struct scan *scans, const struct hdecl *x,
			const struct hdecl *y)
{
	if (x->side == y->side)
		return 0;
	const struct hdecl *o = x->side ? y : x, *n = x->side ? x : y;
	size_t fo = s->changes[o->change].file, fn = s->changes[n->change].file;
	return !declares_global(&scans[2 * fo + 1], o->d->name) && !declares_global(&scans[2 * fn], n->d->name);
}

/* The declarations of one thing, as a union-find over hd: one name in one
 * scope (a local's in one file), and a global declared static in one file
 * only with that file's declarations (two files' statics of one name are
 * two functions; a static and an extern declaration in one file are one,
 * as a function made non-static; a static moved to another file is one). */
static long *entities(const struct change_set *s, const struct scan *scans, const struct hdecl *hd, size_t nhd)
{
	long *ent = xmalloc((nhd + 1) * sizeof(*ent));
	size_t *idx = xmalloc((nhd + 1) * sizeof(*idx));
	for (size_t i = 0; i < nhd; i++) {
		ent[i] = (long)i;
		idx[i] = i;
	}
	qsort_r(idx, nhd, sizeof(*idx), cmp_hdecl_key, (void *)hd);
	for (size_t a = 0, b; a < nhd; a = b) {
		for (b = a + 1; b < nhd && same_key(hd[idx[a]].d, hd[idx[b]].d); b++)
			;
		for (size_t i = a; i < b; i++)
			for (size_t k = i + 1; k < b; k++) {
				const struct hdecl *x = &hd[idx[i]], *y = &hd[idx[k]];
				int one_file = s->changes[x->change].file == s->changes[y->change].file;
				if (one_file || (x->d->cls == 'f') ||
				    (x->d->cls == 'g' && ((shared_decl(s, x) && shared_decl(s, y)) ||
							  static_moved(s, scans, x, y))))
					unite(ent, idx[i], idx[k]);
			}
	}
	free(idx);
	return ent;
}

/* Whether scan sc (of file f) declares name static, f being none of the
 * files of members (the hunks declaring the global): its uses there are
 * its own static's. */
static int own_static(const struct change_set *s, const struct scan *sc, size_t f, const char *name,
		      const size_t *members, size_t nm)
{
	for (size_t m = 0; m < nm; m++)
		if (s->changes[members[m]].file == f)
			return 0;
	for (size_t k = 0; k < sc->nd; k++)
		if (sc->d[k].cls == 'g' && shape_static(sc->d[k].shape) && !strcmp(sc->d[k].name, name))
			return 1;
	return 0;
}

/* Whether file f sees a static of file sfile: itself, a header's static
 * anywhere (an inline function), a source it includes, or a file the
 * source includes (brotli's template header backward_references_inc.h,
 * included by the source defining its static `kBase64TriggerLen`). */
static int static_in_sight(const struct change_set *s, struct includes *incl, size_t f, long sfile)
{
	return sfile < 0 || (size_t)sfile == f || header_like(s->files[sfile].new_path) ||
	       sees_file(incl, f, (size_t)sfile) || sees_file(incl, (size_t)sfile, f);
}

/* The tokens of lines [from, to) of sc, without the parentheses right
 * after `return` that close before the statement's `;` (`return ('x');`
 * made `return 'x';`), into v; their count, or SIZE_MAX when a line there
 * is a directive's, or a block comment crosses the range's edge (its
 * tokens then change the lines around it). */
static size_t range_tokens(const struct scan *sc, int from, int to, const struct tok **v)
{
	for (size_t k = 0; k < sc->ncm; k++)
		if (sc->cm[k].last >= from && sc->cm[k].first < to && (sc->cm[k].first < from || sc->cm[k].last >= to))
			return SIZE_MAX;
	size_t n = 0;
	const struct tok *before = NULL, *after = NULL;
	for (size_t k = 0; k < sc->nt; k++) {
		const struct tok *t = &sc->t[k];
		if (t->line < from) {
			before = t;
		} else if (t->line >= to) {
			after = t;
			break;
		} else if (t->directive) {
			return SIZE_MAX;
		} else {
			v[n++] = t;
		}
	}
	if (before && after && before->directive && after->directive && !scan_punct(after, '#'))
		return SIZE_MAX;   /* perhaps within a directive continued over lines */
	/* `return (x);` is `return x;`. */
	for (size_t i = 0; i + 1 < n; i++) {
		if (!scan_tok_is(v[i], "return") || !scan_punct(v[i + 1], '('))
			continue;
		size_t depth = 0, j;
		for (j = i + 1; j < n; j++)
			if (scan_punct(v[j], '('))
				depth++;
			else if (scan_punct(v[j], ')') && --depth == 0)
				break;
		if (j + 1 < n && scan_punct(v[j + 1], ';')) {
			memmove(&v[j], &v[j + 1], (n - j - 1) * sizeof(*v));
			n--;
			memmove(&v[i + 1], &v[i + 2], (n - i - 2) * sizeof(*v));
			n--;
		}
	}
	return n;
}

/* Per change: 1 when it changes no token, only layout or comments (a line
 * re-indented, a call's spacing, a comment reworded, `return (x);` made
 * `return x;`): as if unchanged, it is tied to nothing (tcsh 7b343e1's
 * spacing of a `ReplaceFile(...)` call under `#ifdef WINNT_NATIVE` had
 * joined the rename it names a local of, and stood in the answer). Not
 * a directive's lines, where spacing may matter (`#define F (x)`). */
static unsigned char *neutral_changes(const struct change_set *s, const struct scan *scans)
{
	unsigned char *neutral = xcalloc(s->nchanges + 1, 1);
	for (size_t f = 0; f < s->nfiles; f++) {
		const struct change_file *cf = &s->files[f];
		const struct scan *o = &scans[2 * f], *n = &scans[2 * f + 1];
		if (cf->binary || !c_like(cf->new_path) || !c_like(cf->old_path) || !o->nt || !n->nt)
			continue;
		const struct tok **a = xmalloc((o->nt + 1) * sizeof(*a)), **b = xmalloc((n->nt + 1) * sizeof(*b));
		for (size_t c = cf->change0; c < cf->change0 + cf->nchanges; c++) {
			int of, ot, nf, nt;
			if (s->changes[c].kind != CHANGE_HUNK)
				continue;
			side_range(s, c, 0, &of, &ot);
			side_range(s, c, 1, &nf, &nt);
			size_t na = range_tokens(o, of, ot, a), nb = range_tokens(n, nf, nt, b);
			int same = na != SIZE_MAX && na == nb;
			for (size_t k = 0; same && k < na; k++)
				same = a[k]->kind == b[k]->kind && a[k]->len == b[k]->len && !memcmp(a[k]->s, b[k]->s, a[k]->len);
			neutral[c] = (unsigned char)same;
		}
		free(a);
		free(b);
	}
	return neutral;
}

/* Drop the needs from and to neutral changes (list n of pairs, names). */
static void drop_neutral_pairs(size_t (*v)[2], char **names, size_t *n, const unsigned char *neutral)
{
	size_t k = 0;
	for (size_t i = 0; i < *n; i++) {
		if (neutral[v[i][0]] || neutral[v[i][1]]) {
			free(names[i]);
			continue;
		}
		v[k][0] = v[i][0];
		v[k][1] = v[i][1];
		names[k++] = names[i];
	}
	*n = k;
}

void deps_compute(const struct change_set *s, const struct deps_source *src, size_t nsrc, struct deps *d)
{
	memset(d, 0, sizeof(*d));
	d->nchanges = s->nchanges;
	d->group = xmalloc((s->nchanges + 1) * sizeof(*d->group));
	d->names = xcalloc(s->nchanges + 1, sizeof(*d->names));
	d->uses = xcalloc(s->nchanges + 1, sizeof(*d->uses));
	d->hard_names = xcalloc(s->nchanges + 1, sizeof(*d->hard_names));
	d->need = xcalloc(s->nchanges + 1, sizeof(*d->need));
	d->nneed = xcalloc(s->nchanges + 1, sizeof(*d->nneed));
	d->need_names = xcalloc(s->nchanges + 1, sizeof(*d->need_names));
	d->block = xmalloc((s->nchanges + 1) * sizeof(*d->block));
	d->rewrite = xcalloc(s->nchanges + 1, 1);
	long *parent = xmalloc((s->nchanges + 1) * sizeof(*parent));
	long *hard = xmalloc((s->nchanges + 1) * sizeof(*hard));   /* the blocks' ties, also the groups' */
	for (size_t c = 0; c < s->nchanges; c++)
		parent[c] = hard[c] = (long)c;

	struct scan *scans = xcalloc(2 * s->nfiles + 1, sizeof(*scans));
	long **owners = xcalloc(2 * s->nfiles + 1, sizeof(*owners));
	struct hdecl *hd = NULL;
	size_t nhd = 0;
	for (size_t f = 0; f < s->nfiles; f++) {
		const struct change_file *cf = &s->files[f];
		if (!cf->binary && c_like(cf->new_path)) {
			scan_file(cf->old_data, cf->old_len, &scans[2 * f]);
			scan_file(cf->new_data, cf->new_len, &scans[2 * f + 1]);
		}
		for (int side = 0; side < 2; side++)
			owners[2 * f + side] = line_owners(s, f, &scans[2 * f + side], side);
		comment_owners(s, f, &scans[2 * f], &owners[2 * f], hard);
	}
	scan_paste_declare(scans, 2 * s->nfiles, src, nsrc);
	const char ***renamed = xcalloc(s->nfiles + 1, sizeof(*renamed));
	for (size_t f = 0; f < s->nfiles; f++)
		renamed[f] = renamed_from(s, f, &scans[2 * f], &owners[2 * f]);
	/* The declarations in each hunk, and the unchanged ones whose branch a
	 * hunk's directive opens or closes (on both sides: their condition is
	 * what changed). */
	for (size_t f = 0; f < 2 * s->nfiles; f++) {
		const struct scan *sc = &scans[f];
		const long *own = owners[f];
		int side = (int)(f % 2);
		for (size_t k = 0; k < sc->nd; k++) {
			long last = -1;
			for (int l = sc->d[k].first; l <= sc->d[k].last; l++)
				if (own[l] >= 0 && own[l] != last) {
					last = own[l];
					hd = xrealloc(hd, (nhd + 1) * sizeof(*hd));
					hd[nhd++] = (struct hdecl){(size_t)last, side, &sc->d[k], 0, cond_of(sc, sc->d[k].tok),
								   side ? old_scope(sc, renamed[f / 2], &sc->d[k]) : NULL};
				}
			/* A hunk adding lines within a parameter list and removing
			 * none of its lines here (`unsigned short port,` added to a
			 * list over several lines) changes the declaration on this
			 * side too: else it would seem new, and its callers only to
			 * need it. (An initializer's lines are no declarator: a
			 * table's new entries change no type.) */
			const struct change_file *cf = &s->files[f / 2];
			int params = sc->d[k].tok + 1 < sc->nt && scan_punct(&sc->t[sc->d[k].tok + 1], '(');
			for (size_t c = cf->change0; params && sc->d[k].first < sc->d[k].last && c < cf->change0 + cf->nchanges;
			     c++) {
				int from, to;
				side_range(s, c, side, &from, &to);
				if (from != to || from < sc->d[k].first || from >= sc->d[k].last ||
				    s->changes[c].kind != CHANGE_HUNK)
					continue;
				last = (long)c;
				hd = xrealloc(hd, (nhd + 1) * sizeof(*hd));
				hd[nhd++] = (struct hdecl){c, side, &sc->d[k], 0, cond_of(sc, sc->d[k].tok),
							   side ? old_scope(sc, renamed[f / 2], &sc->d[k]) : NULL};
			}
			/* A name a macro pastes: the hunks changing the macro's
			 * #define declare it too. */
			const struct decl *dk = &sc->d[k];
			for (int l = dk->via_first; dk->via && l <= dk->via_last; l++) {
				long o = owners[dk->via - 1][l];
				if (o >= 0 && o != last) {
					last = o;
					hd = xrealloc(hd, (nhd + 1) * sizeof(*hd));
					hd[nhd++] = (struct hdecl){(size_t)o, side, dk, 0, NULL, NULL};
				}
			}
			long g = last < 0 ? guarded_by(sc, own, sc->d[k].tok) : -1;
			if (g >= 0) {
				hd = xrealloc(hd, (nhd + 2) * sizeof(*hd));
				hd[nhd++] = (struct hdecl){(size_t)g, 0, &sc->d[k], 1, NULL, NULL};
				hd[nhd++] = (struct hdecl){(size_t)g, 1, &sc->d[k], 1, NULL, NULL};
			}
		}
	}
	struct buf *names = xcalloc(s->nchanges + 1, sizeof(*names));
	for (size_t i = 0; i < nhd; i++) {
		buf_adds(&names[hd[i].change], hd[i].d->name);
		buf_addc(&names[hd[i].change], '\0');
	}
	for (size_t c = 0; c < s->nchanges; c++) {
		buf_addc(&names[c], '\0');
		d->names[c] = buf_detach(&names[c]);
	}
	free(names);
	/* Hunks that change how the brackets pair only build together. */
	for (size_t f = 0; f < s->nfiles; f++) {
		const struct change_file *cf = &s->files[f];
		if (!cf->binary && c_like(cf->new_path))
		{
			pair_brackets(s, f, &scans[2 * f], &owners[2 * f], hard);
			scope_shifts(s, f, &scans[2 * f], &owners[2 * f], hard);
			guard_swaps(s, f, &scans[2 * f], &owners[2 * f], hard);
			head_moves(s, f, &scans[2 * f], &owners[2 * f], d);
			rewrites(&scans[2 * f], &owners[2 * f], hard, d->rewrite);
			moved_statements(s, f, &scans[2 * f], &owners[2 * f], d, hard);
		}
	}
	/* Each name whose declarations changed ties its declaring hunks to its users. */
	struct includes incl;
	includes_init(&incl, s, scans);
	/* The unchanged headers that typedef types: which of them are
	 * integers (an enum in lang.h returned by a changed function). */
	struct scan *sscans = xcalloc(nsrc + 1, sizeof(*sscans));
	size_t nss = 0;
	for (size_t f = 0; f < nsrc; f++)
		if (src[f].data && memmem(src[f].data, src[f].len, "typedef", 7))
			scan_file(src[f].data, src[f].len, &sscans[nss++]);
	struct types ty;
	types_init(&ty, scans, 2 * s->nfiles, sscans, nss);
	struct migr *migr = NULL;   /* declarations whose type changed so */
	size_t nmigr = 0;
	char *done = xcalloc(nhd + 1, 1);
	struct mix *mix = NULL;   /* unchanged uses of declarations whose types clash */
	size_t nmix = 0;
	long *ent = entities(s, scans, hd, nhd);
	for (size_t i = 0; i < nhd; i++) {
		if (done[i])
			continue;
		char **sh[2] = {xmalloc((nhd + 1) * sizeof(char *)), xmalloc((nhd + 1) * sizeof(char *))};
		size_t nsh[2] = {0, 0};
		size_t *members = xmalloc((nhd + 1) * sizeof(*members)), nm = 0;
		int *mside = xmalloc((nhd + 1) * sizeof(*mside));
		size_t *idx = xmalloc((nhd + 1) * sizeof(*idx));
		size_t (*dtok)[2] = xmalloc((nhd + 1) * sizeof(*dtok));   /* its declarations: scan, token */
		int guarded = 0, statics[2] = {0, 0};
		long sfile = -1;   /* a file where it is static */
		int external = 0;   /* a global declared without static (else one file's own) */
		for (size_t k = i; k < nhd; k++)
			if (!done[k] && find(ent, k) == find(ent, i)) {
				done[k] = 1;
				external |= hd[k].d->cls == 'g' && shared_decl(s, &hd[k]);
				guarded |= hd[k].guarded;
				if (hd[k].d->cls == 'g' && shape_static(hd[k].d->shape)) {
					statics[hd[k].side] = 1;
					sfile = (long)s->changes[hd[k].change].file;
				}
				sh[hd[k].side][nsh[hd[k].side]++] = hd[k].d->shape;
				mside[nm] = hd[k].side;
				dtok[nm][0] = 2 * s->changes[hd[k].change].file + (size_t)hd[k].side;
				dtok[nm][1] = hd[k].d->tok;
				idx[nm] = k;
				members[nm++] = hd[k].change;
			}
		/* Declared in both revisions under other conditions (littlefs's
		 * `LFS_F_ERRED` put under a new `#ifndef LFS_READONLY` by the
		 * hunk that fixed its comment): compiled out with the macro
		 * defined, its uses build only with the hunks guarding them. */
		guarded |= conds_differ(s, hd, idx, nm);
		free(idx);
		int changed = guarded || nsh[0] != nsh[1];
		if (!changed) {
			qsort(sh[0], nsh[0], sizeof(char *), cmp_str);
			qsort(sh[1], nsh[1], sizeof(char *), cmp_str);
			for (size_t k = 0; k < nsh[0] && !changed; k++)
				changed = strcmp(sh[0][k], sh[1][k]) != 0;
		}
		/* The same declaration moved to another hunk (a function rewritten
		 * around it, a prototype moved): the hunk removing it and the hunk
		 * adding it only build together (without the one the name is gone,
		 * without the other it is defined twice); its users need neither,
		 * unless they sit between its two places. */
		if (!changed && hd[i].d->cls == 'g' && moved(members, mside, nm)) {
			for (size_t k = 1; k < nm; k++)
				tie_hard(d, hard, members[0], members[k], hd[i].d->name);
			order_needs(s, scans, owners, hd[i].d, 0, members, nm, d);
			moved_file_needs(s, scans, owners, &incl, hd[i].d->name, members, mside, nm, d);
		}
		/* A local or field moved to another hunk (`unsigned error = 0;`
		 * removed, `unsigned error = f();` added lines below): without
		 * the removal it is declared twice, without the addition its
		 * uses are undeclared, applied or reverted. (The scan knows a
		 * function's locals, not their blocks: two loops' `i` may be
		 * tied for nothing, which costs precision, not builds.) */
		if (!changed && hd[i].d->cls != 'g' && moved(members, mside, nm)) {
			for (size_t k = 1; k < nm; k++)
				tie_hard(d, hard, members[0], members[k], hd[i].d->name);
			if (hd[i].d->cls == 'l')
				order_needs(s, scans, owners, hd[i].d, s->changes[hd[i].change].file, members, nm, d);
		}
		/* Only one revision declares it (within the hunks): a one-way tie. */
		int added = !changed ? 0 : nsh[0] == 0 ? 1 : nsh[1] == 0 ? -1 : 0;
		if (changed) {
			const struct decl *key = hd[i].d;
			/* An object-like macro is used after `.` or `->` too
			 * (c-ares's `#define addrV4 addr.addr4`, used as
			 * `server->addrV4`). */
			const struct scan *ks = &scans[2 * s->changes[hd[i].change].file + (size_t)hd[i].side];
			const struct tok *kt = key->tok < ks->nt ? &ks->t[key->tok] : NULL;
			int macro = kt && key->cls == 'g' && !key->via && !hd[i].guarded && key->tok > 0 &&
				    ks->t[key->tok - 1].directive && scan_tok_is(&ks->t[key->tok - 1], "define") &&
				    !(key->tok + 1 < ks->nt && ks->t[key->tok + 1].s == kt->s + kt->len &&
				      scan_punct(&ks->t[key->tok + 1], '('));
			size_t len = strlen(key->name);
			/* A function or macro whose parameters were added or
			 * removed: no call builds against the other revision's. */
			int arity = key->cls == 'g' && !same_arity(sh[0], nsh[0], sh[1], nsh[1]);
			/* A type no value passes to or from (a pointer made a
			 * number, void made a value): no use builds as C against
			 * the other revision's, though gcc may only warn. */
			struct buf pair = BUF_INIT;
			int clash = !added ? types_clash(sh[0], nsh[0], sh[1], nsh[1], &ty, arity ? NULL : &pair) : 0;
			arity |= clash != 0;
			int retyped = !added && !arity && !guarded &&
				      (integer_retyped(&ty, key->name, sh[0], nsh[0], sh[1], nsh[1]) ||
				       (key->cls == 'g' && calls_alike(&ty, key->name, sh[0], nsh[0], sh[1], nsh[1])));
			if (pair.len) {
				migr = xrealloc(migr, (nmigr + 1) * sizeof(*migr));
				migr[nmigr++] = (struct migr){buf_detach(&pair), members[0], key->name};
			}
			buf_release(&pair);
			/* Made static or no longer (a helper exported with a
			 * prototype for another file): a use in another file does
			 * not link against the static one, so it needs the export
			 * (and making it static needs such uses gone), one way. */
			int linkage = statics[0] != statics[1];
			/* A function whose type changed so: its returns with it
			 * (`return 0;` added as void becomes a value). */
			for (size_t f = 0; clash == 1 && key->cls == 'g' && f < 2 * s->nfiles; f++)
				returns_of(&scans[f], owners[f], key->name, d, hard, members[0]);
			/* A function's, type's or macro's declarations must agree:
			 * a prototype reverted without its definition conflicts, a
			 * definition kept beside its old place is defined twice. */
			/* A local retyped and moved to another hunk (a parameter
			 * `const size_t ntokens` made a local `int ntokens = ...`
			 * below the new head): declared twice or not at all apart,
			 * as a local moved unchanged. */
			int moved_local = !added && key->cls == 'l' && moved(members, mside, nm);
			for (size_t k = 1; !added && k < nm; k++) {
				if (guarded || key->cls == 'g' || arity || moved_local)
					tie_hard(d, hard, members[0], members[k], key->name);
				else
					unite(parent, members[0], members[k]);
			}
			if (moved_local)
				order_needs(s, scans, owners, key, s->changes[hd[i].change].file, members, nm, d);
			/* A static or local only one revision declares, used
			 * there by one hunk alone and by no unchanged line: left
			 * unused without it (quiet). */
			int quiet = added && (key->cls == 'l' || statics[added > 0]);
			long quser = -1;
			/* Its users, old lines or new (in a hunk, or in a branch one guards). */
			for (size_t f = 0; f < 2 * s->nfiles; f++) {
				const struct scan *sc = &scans[f];
				int side = (int)(f % 2);
				if (key->cls == 'f' && !field_in_sight(s, &incl, members, nm, f / 2))
					continue;
				/* A file's own static of that name is another function
				 * (tcsh's sh.file.c and tw.parse.c each define a static
				 * `filetype`), and one file's static is not another's. */
				if (key->cls == 'g' && !(external ? !own_static(s, sc, f / 2, key->name, members, nm)
								  : static_in_sight(s, &incl, f / 2, sfile)))
					continue;
				for (size_t k = 0; k < sc->nu; k++) {
					const struct use *u = &sc->u[k];
					if (u->len != len || memcmp(u->s, key->name, len) ||
					    (key->cls == 'f' ? !u->member : u->member && !macro) ||
					    (key->cls == 'l' && (strcmp(u->scope, key->scope) || f / 2 != s->changes[hd[i].change].file)))
						continue;
					long c = owner_of(sc, owners[f], u->tok);
					int far = linkage && (long)(f / 2) != sfile;
					int declaring = 0;   /* the name's own declarator */
					for (size_t m = 0; m < nm && !declaring; m++)
						declaring = dtok[m][0] == f && dtok[m][1] == u->tok;
					for (size_t m = 0; quiet && !declaring && side == (added > 0) && m < nm; m++)
						if (c == (long)members[m])
							quiet = 0;   /* used where it is declared */
					if (quiet && !declaring && side == (added > 0))
						quiet = c >= 0 && (quser < 0 || quser == c) ? (quser = c, 1) : 0;
					if (c < 0 && added && key->cls == 'g' && side == (added > 0 ? 0 : 1))
						shadow_needs(hd, nhd, u, side, members, nm, added, d);
					if (c < 0 && !added && (arity || clash) && key->cls == 'g')
						macro_arg_ties(sc, u->tok, hd, nhd, scans, s, d, hard, members[0], key->name);
					if (c < 0 && clash && side) {
						mix = xrealloc(mix, (nmix + 1) * sizeof(*mix));
						mix[nmix++] = (struct mix){f, u->line, members[0], key->name};
					}
					/* A call on an unchanged line whose arguments changed
					 * on a line after it (a multi-line call): the hunks
					 * holding its arguments are the call's. */
					for (size_t a = c < 0 ? call_args_end(sc, u->tok) : 0, t = u->tok + 1; t < a; t++) {
						long o = owners[f][sc->t[t].line];
						if (o < 0)
							continue;
						/* Of a name the hunks declare in one revision only,
						 * the unchanged line calls it in both: the other
						 * declaration is out of sight (a macro made it), and
						 * the arguments changed with the one in sight
						 * (libwebp's `DecodeAlphaData(...,` on an unchanged
						 * line, its last argument dropped below it). */
						if (guarded || arity || added)
							tie_hard(d, hard, members[0], (size_t)o, key->name);
						else
							unite(parent, members[0], (size_t)o);
					}
					if (c < 0)
						continue;
					/* A use reading a local or parameter of its function
					 * by that name is the local's, not the global's
					 * (cproc's parameter `s`, all over expr.c, and a new
					 * test source's global `s`). */
					if (key->cls == 'g' && !u->member && u->scope[0] && local_of(sc, u->scope, u, u->line))
						continue;
					/* A use the export lets another file make needs it;
					 * making it static needs such uses gone. */
					for (size_t m = 0; far && side == statics[0] && m < nm; m++) {
						if (side)
							add_need(d, (size_t)c, members[m], key->name);
						else
							add_need(d, members[m], (size_t)c, key->name);
					}
					if (!added && (guarded || arity))
						tie_hard(d, hard, members[0], (size_t)c, key->name);
					else if (!added && !retyped)
						unite(parent, members[0], (size_t)c);
					else if (added > 0 && side == 1)
						/* A new name's user needs its declarations. */
						for (size_t m = 0; m < nm; m++)
							add_need(d, (size_t)c, members[m], key->name);
					else if (added < 0 && side == 0)
						/* Removing a name's declaration needs its uses gone. */
						for (size_t m = 0; m < nm; m++)
							add_need(d, members[m], (size_t)c, key->name);
					else if (added && side == (added < 0) && owners[f][u->line] < 0)
						/* Unchanged code a hunk's conditional compiles out
						 * in the revision that lacks the name (QCBOR's old
						 * Init under a new `#if NODEF`, its body using a
						 * field renamed): removing the name needs the code
						 * compiled out, and compiling it back in needs the
						 * name. */
						for (size_t m = 0; m < nm; m++) {
							if (side)
								add_need(d, members[m], (size_t)c, key->name);
							else
								add_need(d, (size_t)c, members[m], key->name);
						}
				}
			}
			for (size_t m = 0; quiet && quser >= 0 && m < nm; m++) {
				if (added > 0)
					add_quiet(d, members[m], (size_t)quser, key->name);
				else
					add_quiet(d, (size_t)quser, members[m], key->name);
			}
		}
		free(sh[0]);
		free(sh[1]);
		free(members);
		free(mside);
		free(dtok);
	}
	free(done);
	free(ent);
	includes_release(&incl);
	migration_ties(migr, nmigr, d, hard);
	renamed_locals(s, hd, nhd, d, hard);
	locals_into_fields(s, scans, owners, hd, nhd, d, hard);
	globals_into_fields(s, scans, owners, hd, nhd, d, hard);
	types_release(&ty);
	for (size_t f = 0; f < nss; f++)
		scan_release(&sscans[f]);
	free(sscans);
	mix_ties(mix, nmix, d, hard);
	label_ties(s, scans, owners, d, hard);
	generated_ties(s, hard);
	include_needs(s, scans, owners, d);
	switch_needs(s, scans, owners, d);
	do_needs(s, scans, owners, d);
	pair_needs(s, scans, owners, d);
	init_needs(s, scans, owners, d);
	set_needs(s, scans, owners, d);
	unset_needs(s, scans, owners, d);
	field_set_needs(s, scans, owners, d);
	file_needs(s, d);
	header_needs(s, scans, owners, d);
	include_removed_needs(s, scans, owners, d);
	record_uses(s, scans, owners, hd, nhd, d);
	unsigned char *neutral = neutral_changes(s, scans);
	for (size_t i = 0; i < nhd; i++)
		free(hd[i].cond);
	free(hd);
	for (size_t f = 0; f < 2 * s->nfiles; f++) {
		scan_release(&scans[f]);
		free(owners[f]);
	}
	for (size_t f = 0; f < s->nfiles; f++)
		free(renamed[f]);
	free(renamed);
	free(owners);
	free(scans);

	/* A change of layout only is tied to nothing. */
	for (size_t c = 0; c < s->nchanges; c++) {
		if (neutral[c]) {
			for (size_t k = 0; k < d->nneed[c]; k++)
				free(d->need_names[c][k]);
			d->nneed[c] = 0;
			continue;
		}
		size_t k = 0;
		for (size_t i = 0; i < d->nneed[c]; i++) {
			if (neutral[d->need[c][i]]) {
				free(d->need_names[c][i]);
				continue;
			}
			d->need[c][k] = d->need[c][i];
			d->need_names[c][k++] = d->need_names[c][i];
		}
		d->nneed[c] = k;
	}
	/* (A guess on a comment's hunk stands: a build script may read it.) */
	drop_neutral_pairs(d->quiet, d->quiet_names, &d->nquiet, neutral);

	size_t *size = xcalloc(s->nchanges + 1, sizeof(*size)), *bsize = xcalloc(s->nchanges + 1, sizeof(*bsize));
	unsigned char *counted = xcalloc(s->nchanges + 1, 1);
	for (size_t c = 0; c < s->nchanges; c++) {
		unite(parent, c, find(hard, c));
		bsize[find(hard, c)] += !neutral[c];
	}
	for (size_t c = 0; c < s->nchanges; c++) {
		size[find(parent, c)] += !neutral[c];
		d->block[c] = !neutral[c] && bsize[find(hard, c)] > 1 ? (long)find(hard, c) : -1;
	}
	for (size_t c = 0; c < s->nchanges; c++) {
		size_t r = find(parent, c);
		d->group[c] = !neutral[c] && size[r] > 1 ? (long)r : -1;
		if (d->group[c] >= 0) {
			d->linked++;
			d->ngroups += !counted[r];
			counted[r] = 1;
		}
		if (!d->names[c])
			d->names[c] = xcalloc(2, 1);
		if (!d->uses[c])
			d->uses[c] = xcalloc(2, 1);
		if (!d->hard_names[c])
			d->hard_names[c] = xcalloc(2, 1);
	}
	free(size);
	free(bsize);
	free(parent);
	free(hard);
	free(neutral);
	free(counted);
}

void deps_release(struct deps *d)
{
	for (size_t c = 0; c < d->nchanges; c++) {
		free(d->names[c]);
		free(d->uses[c]);
		free(d->hard_names[c]);
		free(d->need[c]);
		for (size_t k = 0; k < d->nneed[c]; k++)
			free(d->need_names[c][k]);
		free(d->need_names[c]);
	}
	free(d->names);
	free(d->uses);
	free(d->hard_names);
	free(d->need);
	free(d->need_names);
	free(d->nneed);
	free(d->group);
	free(d->block);
	free(d->rewrite);
	for (size_t k = 0; k < d->nheader; k++)
		free(d->header_names[k]);
	free(d->header);
	free(d->header_names);
	for (size_t k = 0; k < d->nquiet; k++)
		free(d->quiet_names[k]);
	free(d->quiet);
	free(d->quiet_names);
	memset(d, 0, sizeof(*d));
}

size_t deps_declaring(const struct deps *d, const char *name, size_t *out)
{
	size_t n = 0;
	for (size_t c = 0; c < d->nchanges; c++)
		for (const char *p = d->names[c]; p && *p; p += strlen(p) + 1)
			if (!strcmp(p, name)) {
				out[n++] = c;
				break;
			}
	return n;
}

size_t deps_involving(const struct deps *d, const char *name, size_t *out)
{
	size_t n = 0;
	for (size_t c = 0; c < d->nchanges; c++) {
		int in = 0;
		for (const char *p = d->names[c]; p && *p && !in; p += strlen(p) + 1)
			in = !strcmp(p, name);
		for (const char *p = d->uses[c]; p && *p && !in; p += strlen(p) + 1)
			in = !strcmp(p, name);
		if (in)
			out[n++] = c;
	}
	return n;
}

/* The units' needs as a graph, for deps_order: Tarjan's strongly
 * connected components (units that need each other, as a definition and
 * its prototype in two hunks, only come in together). */
struct needs_graph {
	size_t n, **adj, *nadj;
	long *index, *low, *comp;
	size_t *stack, nstack, next;
	char *on;
	size_t ncomp;
};

static void strong(struct needs_graph *g, size_t v)
{
	g->index[v] = g->low[v] = (long)g->next++;
	g->stack[g->nstack++] = v;
	g->on[v] = 1;
	for (size_t k = 0; k < g->nadj[v]; k++) {
		size_t w = g->adj[v][k];
		if (g->index[w] < 0) {
			strong(g, w);
			if (g->low[w] < g->low[v])
				g->low[v] = g->low[w];
		} else if (g->on[w] && g->index[w] < g->low[v]) {
			g->low[v] = g->index[w];
		}
	}
	if (g->low[v] == g->index[v]) {
		size_t w;
		do {
			w = g->stack[--g->nstack];
			g->on[w] = 0;
			g->comp[w] = (long)g->ncomp;
		} while (w != v);
		g->ncomp++;
	}
}

/* Place component c once the components it needs are placed, its units in
 * the order of all. */
static void place(const struct needs_graph *g, size_t c, char *placed, const size_t *all, size_t nall, size_t *order,
		  size_t *no)
{
	placed[c] = 1;
	for (size_t i = 0; i < nall; i++) {
		size_t u = all[i];
		if (g->comp[u] != (long)c)
			continue;
		for (size_t k = 0; k < g->nadj[u]; k++) {
			size_t d = (size_t)g->comp[g->adj[u][k]];
			if (!placed[d])
				place(g, d, placed, all, nall, order, no);
		}
	}
	for (size_t i = 0; i < nall; i++)
		if (g->comp[all[i]] == (long)c)
			order[(*no)++] = all[i];
}

/* Add edge: change from needs change to (users_first: the reverse), as units. */
static void edge(struct needs_graph *g, const long *unit_of, size_t from, size_t to, int users_first)
{
	long u = unit_of[users_first ? to : from], v = unit_of[users_first ? from : to];
	if (u < 0 || v < 0 || u == v)
		return;
	g->adj[u] = xrealloc(g->adj[u], (g->nadj[u] + 1) * sizeof(**g->adj));
	g->adj[u][g->nadj[u]++] = (size_t)v;
}

/* Order the n units in order (rewritten in place) so that what a unit
 * needs comes before it, keeping the given order otherwise. */
void deps_order(const struct deps *d, const long *unit_of, size_t nunits, size_t *order, size_t n,
		const size_t (*more)[2], size_t nmore, int users_first)
{
	size_t nc = d ? d->nchanges : 0;
	struct needs_graph g = {.n = nunits};
	g.adj = xcalloc(nunits + 1, sizeof(*g.adj));
	g.nadj = xcalloc(nunits + 1, sizeof(*g.nadj));
	for (size_t c = 0; c < nc; c++)
		for (size_t k = 0; k < d->nneed[c]; k++)
			edge(&g, unit_of, c, d->need[c][k], users_first);
	for (size_t k = 0; k < nmore; k++)
		edge(&g, unit_of, more[k][0], more[k][1], users_first);
	g.index = xmalloc((nunits + 1) * sizeof(*g.index));
	g.low = xmalloc((nunits + 1) * sizeof(*g.low));
	g.comp = xmalloc((nunits + 1) * sizeof(*g.comp));
	g.stack = xmalloc((nunits + 1) * sizeof(*g.stack));
	g.on = xcalloc(nunits + 1, 1);
	for (size_t u = 0; u < nunits; u++)
		g.index[u] = -1;
	for (size_t u = 0; u < nunits; u++)
		if (g.index[u] < 0)
			strong(&g, u);
	char *placed = xcalloc(g.ncomp + 1, 1);
	size_t *out = xmalloc((n + 1) * sizeof(*out)), no = 0;
	for (size_t i = 0; i < n; i++)
		if (!placed[g.comp[order[i]]])
			place(&g, (size_t)g.comp[order[i]], placed, order, n, out, &no);
	memcpy(order, out, no * sizeof(*order));
	free(out);
	free(placed);
	for (size_t u = 0; u < nunits; u++)
		free(g.adj[u]);
	free(g.adj);
	free(g.nadj);
	free(g.index);
	free(g.low);
	free(g.comp);
	free(g.stack);
	free(g.on);
}

/* Whether change c only declares, in both revisions (not an empty side);
 * the names it declares in *names (NUL-separated). */
int deps_declaration_change(const struct change_set *s, size_t c, struct buf *names)
{
	if (s->changes[c].kind != CHANGE_HUNK)
		return 0;
	struct change_lines l;
	change_lines_of(s, c, &l);
	struct buf side[2] = {BUF_INIT, BUF_INIT};
	for (int k = 0; k < 2; k++) {
		char **lines = k ? l.added : l.removed;
		size_t n = k ? l.nadded : l.nremoved;
		int comment = 0;
		for (size_t i = 0; i < n; i++)
			for (const char *p = lines[i]; *p; p++) {
				if (comment) {
					if (p[0] == '*' && p[1] == '/') {
						comment = 0;
						p++;
					}
				} else if (p[0] == '/' && p[1] == '*') {
					comment = 1;
					p++;
				} else if (p[0] == '/' && p[1] == '/') {
					break;
				} else {
					buf_addc(&side[k], *p == '\t' ? ' ' : *p);
				}
			}
		buf_addc(&side[k], ' ');
	}
	int only = (l.nremoved || l.nadded) && scan_declares_only(side[0].s, names) && scan_declares_only(side[1].s, names);
	int any = 0;
	for (int k = 0; k < 2; k++) {
		for (const char *p = side[k].s; *p && !any; p++)
			any = !isspace((unsigned char)*p);
		buf_release(&side[k]);
	}
	change_lines_free(&l);
	return only && any;
}
