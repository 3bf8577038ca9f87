#include "core/isolate/change.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKEN_PRODUCT 4000000  /* old tokens x new tokens beyond which a hunk stays whole */
#define MAX_PIECES 64              /* a hunk splitting into more pieces stays whole */
#define MAX_LINES_SHOWN 500

struct change_set *change_set_new(const char *old_rev, const char *new_rev)
{
	struct change_set *s = xcalloc(1, sizeof(*s));
	s->old_rev = xstrdup(old_rev);
	s->new_rev = xstrdup(new_rev);
	return s;
}

void change_set_free(struct change_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nfiles; i++) {
		free(s->files[i].old_path);
		free(s->files[i].new_path);
		free(s->files[i].old_data);
		free(s->files[i].new_data);
	}
	for (size_t i = 0; i < s->nchanges; i++)
		free(s->changes[i].function);
	free(s->files);
	free(s->changes);
	free(s->atoms);
	free(s->old_rev);
	free(s->new_rev);
	free(s);
}

static char *copy_data(const void *p, size_t n)
{
	if (!p)
		return NULL;
	char *d = xmalloc(n + 1);
	memcpy(d, p, n);
	d[n] = '\0';
	return d;
}

size_t change_set_add_file(struct change_set *s, const char *old_path, const char *new_path, unsigned old_mode,
			   unsigned new_mode, const void *old_data, size_t old_len, const void *new_data,
			   size_t new_len, enum change_file_status status, int binary)
{
	s->files = xrealloc(s->files, (s->nfiles + 1) * sizeof(*s->files));
	struct change_file *f = &s->files[s->nfiles];
	memset(f, 0, sizeof(*f));
	f->old_path = xstrdup(old_path);
	f->new_path = xstrdup(new_path);
	f->old_mode = old_mode;
	f->new_mode = new_mode;
	f->old_data = copy_data(old_data, old_len);
	f->new_data = copy_data(new_data, new_len);
	f->old_len = old_data ? old_len : 0;
	f->new_len = new_data ? new_len : 0;
	f->status = status;
	f->binary = binary;
	f->change0 = s->nchanges;
	return s->nfiles++;
}

static struct change *add_change(struct change_set *s, enum change_kind kind)
{
	s->changes = xrealloc(s->changes, (s->nchanges + 1) * sizeof(*s->changes));
	struct change *c = &s->changes[s->nchanges];
	memset(c, 0, sizeof(*c));
	c->id = (unsigned)s->nchanges + 1;
	c->file = s->nfiles - 1;
	c->kind = kind;
	s->nchanges++;
	s->files[s->nfiles - 1].nchanges++;
	return c;
}

void change_set_add_file_change(struct change_set *s, enum change_kind kind)
{
	add_change(s, kind)->function = xstrdup("");
}

void change_set_add_hunk(struct change_set *s, int old_start, int old_lines, int new_start, int new_lines,
			 const char *function, size_t function_len)
{
	struct change *c = add_change(s, CHANGE_HUNK);
	c->old_start = old_start;
	c->old_lines = old_lines;
	c->new_start = new_start;
	c->new_lines = new_lines;
	c->function = xstrndup(function ? function : "", function ? function_len : 0);
}

/* ------------------------------------------------------------ line tables */

struct lines {
	size_t *start;  /* start[k] = offset of line k+1 (1-based lines); start[n] = len */
	size_t n;
};

static void lines_init(struct lines *l, const char *d, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += d[i] == '\n';
	if (len && d[len - 1] != '\n')
		n++;
	l->start = xmalloc((n + 2) * sizeof(*l->start));
	l->n = 0;
	if (len)
		l->start[l->n++] = 0;
	for (size_t i = 0; i < len; i++)
		if (d[i] == '\n' && i + 1 < len)
			l->start[l->n++] = i + 1;
	l->start[l->n] = len;
}

/* Offset where 1-based line k starts (k = n+1: the end). */
static size_t line_off(const struct lines *l, long k)
{
	if (k < 1)
		return 0;
	if ((size_t)k > l->n)
		return l->start[l->n];
	return l->start[k - 1];
}

/* 1-based line containing offset off. */
static int line_of(const struct lines *l, size_t off)
{
	size_t lo = 0, hi = l->n;
	if (l->n == 0)
		return 1;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (l->start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return (int)lo + 1;
}

/* ------------------------------------------------------------- tokenizing */

static int word_char(unsigned char c)
{
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

/* Token start offsets of d[0..len), plus a final entry = len. */
static size_t *tokenize(const char *d, size_t len, size_t *n)
{
	size_t cap = 16, k = 0;
	size_t *t = xmalloc(cap * sizeof(*t));
	size_t i = 0;
	while (i < len) {
		if (k + 2 > cap) {
			cap *= 2;
			t = xrealloc(t, cap * sizeof(*t));
		}
		t[k++] = i;
		unsigned char c = (unsigned char)d[i];
		if (word_char(c)) {
			while (i < len && word_char((unsigned char)d[i]))
				i++;
		} else if (c == ' ' || c == '\t') {
			while (i < len && (d[i] == ' ' || d[i] == '\t'))
				i++;
		} else if (c == '\r' && i + 1 < len && d[i + 1] == '\n') {
			i += 2;
		} else {
			i++;
		}
	}
	t[k] = len;
	*n = k;
	return t;
}

static int tok_eq(const char *a, const size_t *ta, size_t i, const char *b, const size_t *tb, size_t j)
{
	size_t la = ta[i + 1] - ta[i], lb = tb[j + 1] - tb[j];
	return la == lb && !memcmp(a + ta[i], b + tb[j], la);
}

struct piece {
	size_t o0, o1, n0, n1;  /* byte offsets relative to the hunk's old / new text */
};

/* The lexical shape of a hunk's text, offset by offset: the state before
 * each byte (code, comment, string or character literal) and the depth of
 * each kind of bracket. A token piece is only applied alone when its text,
 * in both revisions, closes what it opens outside comments and literals;
 * otherwise most configurations holding it would not compile. */
struct shape {
	unsigned char *st;
	int *d[3];
};

enum { SH_CODE, SH_BLOCK, SH_LINE, SH_STR, SH_CHR };

static void shape_init(struct shape *sh, const char *t, size_t len)
{
	sh->st = xmalloc(len + 1);
	for (int k = 0; k < 3; k++)
		sh->d[k] = xmalloc((len + 1) * sizeof(int));
	int st = SH_CODE, d[3] = {0, 0, 0};
	for (size_t i = 0; i <= len; i++) {
		sh->st[i] = (unsigned char)st;
		for (int k = 0; k < 3; k++)
			sh->d[k][i] = d[k];
		if (i == len)
			break;
		char c = t[i], n = i + 1 < len ? t[i + 1] : 0;
		switch (st) {
		case SH_CODE:
			if (c == '/' && n == '*') {
				st = SH_BLOCK;
				i++;
				sh->st[i] = SH_BLOCK;
				for (int k = 0; k < 3; k++)
					sh->d[k][i] = d[k];
			} else if (c == '/' && n == '/') {
				st = SH_LINE;
			} else if (c == '"') {
				st = SH_STR;
			} else if (c == '\'') {
				st = SH_CHR;
			} else {
				const char *o = strchr("({[", c), *cl = strchr(")}]", c);
				if (c && o)
					d[o - "({["]++;
				else if (c && cl)
					d[cl - ")}]"]--;
			}
			break;
		case SH_BLOCK:
			if (c == '*' && n == '/') {
				i++;
				sh->st[i] = SH_BLOCK;
				for (int k = 0; k < 3; k++)
					sh->d[k][i] = d[k];
				st = SH_CODE;
			}
			break;
		case SH_LINE:
			if (c == '\n')
				st = SH_CODE;
			break;
		default:
			if (c == '\\' && i + 1 < len) {
				i++;
				sh->st[i] = (unsigned char)st;
				for (int k = 0; k < 3; k++)
					sh->d[k][i] = d[k];
			} else if ((st == SH_STR && c == '"') || (st == SH_CHR && c == '\'') || c == '\n') {
				st = SH_CODE;
			}
			break;
		}
	}
}

static void shape_free(struct shape *sh)
{
	free(sh->st);
	for (int k = 0; k < 3; k++)
		free(sh->d[k]);
}

/* Does the text [a, b) close all it opens, and open nothing it does not close? */
static int shape_balanced(const struct shape *sh, size_t a, size_t b)
{
	if (sh->st[a] != sh->st[b])
		return 0;
	for (int k = 0; k < 3; k++) {
		if (sh->d[k][b] != sh->d[k][a])
			return 0;
		for (size_t i = a; i <= b; i++)
			if (sh->d[k][i] < sh->d[k][a])
				return 0;
	}
	return 1;
}

/* The piece holding byte off of one side (new: 1, old: 0), or -1 in the
 * text they share. */
static long piece_at(const struct piece *p, size_t np, int new, size_t off)
{
	for (size_t k = 0; k < np; k++)
		if (off >= (new ? p[k].n0 : p[k].o0) && off < (new ? p[k].n1 : p[k].o1))
			return (long)k;
	return -1;
}

/* An else and its if (the nearest one before it at the same depth) in two
 * pieces of one side: the pieces only build together, reach[] says so. */
static void pair_if_else(const char *t, size_t len, const struct shape *sh, const struct piece *p, size_t np, int new,
			 size_t *reach)
{
	size_t nif = 0, cap = 8, *ifs = xmalloc(cap * sizeof(*ifs));
	for (size_t i = 0; i < len; i++) {
		if (sh->st[i] != SH_CODE || !word_char((unsigned char)t[i]) || (i && word_char((unsigned char)t[i - 1])))
			continue;
		size_t e = i;
		while (e < len && word_char((unsigned char)t[e]))
			e++;
		if (e - i == 2 && !memcmp(t + i, "if", 2)) {
			if (nif == cap)
				ifs = xrealloc(ifs, (cap *= 2) * sizeof(*ifs));
			ifs[nif++] = i;
		} else if (e - i == 4 && !memcmp(t + i, "else", 4)) {
			for (size_t k = nif; k-- > 0;) {
				size_t f = ifs[k];
				if (sh->d[0][f] != sh->d[0][i] || sh->d[1][f] != sh->d[1][i])
					continue;
				long a = piece_at(p, np, new, f), b = piece_at(p, np, new, i);
				if (a >= 0 && b >= 0 && a != b && reach[a] < (size_t)b)
					reach[a] = (size_t)b;
				break;
			}
		}
		i = e - 1;
	}
	free(ifs);
}

/* Each bracket's partner in t (its offset), or -1 when it has none in t;
 * -1 for every other byte. Brackets in comments and literals are text. */
static long *partners(const char *t, size_t len, const struct shape *sh)
{
	long *pt = xmalloc((len + 1) * sizeof(*pt)), *stack = xmalloc((len + 1) * sizeof(*stack));
	size_t sp = 0;
	for (size_t i = 0; i < len; i++) {
		pt[i] = -1;
		if (sh->st[i] != SH_CODE)
			continue;
		const char *o = strchr("({[", t[i]), *c = strchr(")}]", t[i]);
		if (t[i] && o)
			stack[sp++] = (long)i;
		else if (t[i] && c && sp && t[stack[sp - 1]] == "({["[c - ")}]"]) {
			pt[i] = stack[--sp];
			pt[pt[i]] = (long)i;
		}
	}
	free(stack);
	return pt;
}

/* The pieces of one side that [a, b] overlaps, and the one ending at a
 * (the name before a bracket: `f(` is a call, `(` alone a cast or a
 * grouping), widen [*lo, *hi]. */
static void pieces_over(const struct piece *p, size_t np, int new, size_t a, size_t b, long *lo, long *hi)
{
	for (size_t k = 0; k < np; k++) {
		size_t s = new ? p[k].n0 : p[k].o0, e = new ? p[k].n1 : p[k].o1;
		if ((s <= b && e > a) || e == a) {
			if (*lo < 0 || (long)k < *lo)
				*lo = (long)k;
			if ((long)k > *hi)
				*hi = (long)k;
		}
	}
}

/* Whether t[0..n) starts with an operator applying to the value before
 * it: `->`, `.`, `[` or `(`. */
static int postfix(const char *t, size_t n)
{
	return n >= 1 && (t[0] == '.' || t[0] == '[' || t[0] == '(' || (n >= 2 && t[0] == '-' && t[1] == '>'));
}

/* The call whose `(` is at old[i] and new[m] (its `)` at old[a], new[b]):
 * when a piece ends at its `(` with a name on either side (the function
 * called changed), the pieces among its arguments go with that piece, and
 * so does one just after its `)` that applies to its value (`->`, `.`,
 * `[` or `(` on either side: `getFilePtr(argv[0])` made
 * `AS_INSTANCE(argv[0])->_internal`, whose halves apart are a member of
 * FILE or an instance taken for a FILE). */
static void call_renamed(const char *old, const char *new, const struct piece *p, size_t np, size_t i, size_t m,
			 size_t a, size_t b, size_t *reach)
{
	long name = -1;
	for (size_t k = 0; k < np && name < 0; k++)
		if ((p[k].o1 == i && p[k].n1 == m) &&
		    ((p[k].o1 > p[k].o0 && word_char((unsigned char)old[p[k].o1 - 1])) ||
		     (p[k].n1 > p[k].n0 && word_char((unsigned char)new[p[k].n1 - 1]))))
			name = (long)k;
	if (name < 0)
		return;
	long lo = name, hi = name;
	pieces_over(p, np, 0, i + 1, a, &lo, &hi);
	pieces_over(p, np, 1, m + 1, b, &lo, &hi);
	for (size_t k = 0; k < np; k++)
		if (p[k].o0 == a + 1 && p[k].n0 == b + 1 &&
		    (postfix(old + p[k].o0, p[k].o1 - p[k].o0) || postfix(new + p[k].n0, p[k].n1 - p[k].n0)) && (long)k > hi)
			hi = (long)k;
	if (hi > lo && reach[lo] < (size_t)hi)
		reach[lo] = (size_t)hi;
}

/* A bracket both revisions share whose partner is not the same shared
 * bracket in both (a cast's `(` that a new call's name before it makes the
 * call's, its `)` removed and the call's kept at the end) means one thing
 * in each: the pieces between it and its partners, and the one just
 * before it, only build together; reach[] says so. The text outside the
 * pieces is the same in both revisions, byte for byte and in order. */
static void pair_roles(const char *old, size_t ol, const struct shape *so, const char *new, size_t nl,
		       const struct shape *sn, const struct piece *p, size_t np, size_t *reach)
{
	long *po = partners(old, ol, so), *pn = partners(new, nl, sn), *map = xmalloc((ol + 1) * sizeof(*map));
	size_t j = 0, k = 0;
	for (size_t i = 0; i < ol; i++) {
		while (k < np && i >= p[k].o1 && j >= p[k].n1)
			k++;
		if (k < np && i >= p[k].o0 && i < p[k].o1) {
			map[i] = -1;
			continue;
		}
		if (k < np && j >= p[k].n0 && j < p[k].n1)
			j = p[k].n1;
		map[i] = j < nl ? (long)j++ : -1;
	}
	for (size_t i = 0; i < ol; i++) {
		long m = map[i];
		if (m < 0 || so->st[i] != SH_CODE || !strchr("(){}[]", old[i]) || !old[i])
			continue;
		long a = po[i], b = pn[m];
		if ((a < 0 && b < 0) || (a >= 0 && b >= 0 && map[a] == b)) {
			/* The same call's brackets, another function called
			 * (`strtol(s, NULL, 10)` made `parse(s)`): its arguments
			 * are the new callee's. */
			if (old[i] == '(' && a > (long)i)
				call_renamed(old, new, p, np, i, (size_t)m, (size_t)a, (size_t)b, reach);
			continue;
		}
		/* its partner replaced within one piece: `n > alloced)` made
		 * `n > max_size) {` */
		long ka = a >= 0 ? piece_at(p, np, 0, (size_t)a) : -1, kb = b >= 0 ? piece_at(p, np, 1, (size_t)b) : -1;
		if (ka >= 0 && ka == kb)
			continue;
		long lo = -1, hi = -1;
		size_t x = (size_t)(a < 0 ? (long)i : a), y = (size_t)m, z = (size_t)(b < 0 ? m : b);
		pieces_over(p, np, 0, i < x ? i : x, i < x ? x : i, &lo, &hi);
		pieces_over(p, np, 1, y < z ? y : z, y < z ? z : y, &lo, &hi);
		if (lo >= 0 && hi > lo && reach[lo] < (size_t)hi)
			reach[lo] = (size_t)hi;
	}
	free(map);
	free(po);
	free(pn);
}

/* One pass of merge_unbalanced: each piece goes with the ones after it
 * until it is balanced in both revisions and holds the pieces reach[]
 * ties to it (the last takes what is left). Returns the new number. */
static size_t merge_pass(const struct shape *so, const struct shape *sn, struct piece *p, size_t np,
			 const size_t *reach)
{
	size_t out = 0;
	for (size_t i = 0; i < np;) {
		size_t j = i, need = reach[i];
		while (j + 1 < np && (j < need || !(shape_balanced(so, p[i].o0, p[j].o1) &&
						    shape_balanced(sn, p[i].n0, p[j].n1)))) {
			j++;
			if (reach[j] > need)
				need = reach[j];
		}
		p[out++] = (struct piece){p[i].o0, p[j].o1, p[i].n0, p[j].n1};
		i = j + 1;
	}
	return out;
}

/* Merge neighbouring pieces until each is balanced in both revisions,
 * holds the if of each else it holds and the reverse, and holds what a
 * shared bracket's new meaning ties to it (pair_roles, read on the
 * balanced pieces, again until nothing more is tied). Returns the new
 * number of pieces. */
static size_t merge_unbalanced(const char *old, size_t ol, const struct shape *so, const char *new, size_t nl,
			       const struct shape *sn, struct piece *p, size_t np)
{
	size_t *reach = xmalloc(np * sizeof(*reach));
	for (size_t k = 0; k < np; k++)
		reach[k] = k;
	pair_if_else(old, ol, so, p, np, 0, reach);
	pair_if_else(new, nl, sn, p, np, 1, reach);
	for (;;) {
		np = merge_pass(so, sn, p, np, reach);
		int tied = 0;
		for (size_t k = 0; k < np; k++)
			reach[k] = k;
		pair_roles(old, ol, so, new, nl, sn, p, np, reach);
		for (size_t k = 0; k < np && !tied; k++)
			tied = reach[k] != k;
		if (!tied)
			break;
	}
	free(reach);
	return np;
}

/* Whether text[a..b) is only blanks outside literals (a literal's blank
 * is text the program sees). */
static int blank_run(const char *text, const struct shape *sh, size_t a, size_t b)
{
	for (size_t i = a; i < b; i++)
		if (!isspace((unsigned char)text[i]) || sh->st[i] == SH_STR || sh->st[i] == SH_CHR)
			return 0;
	return 1;
}

/* Pieces that only change blanks (an indent, a space before `+=`) change
 * nothing the compiler sees: each joins the piece after it (the last, the
 * one before), so no configuration is spent on it. Returns the new number. */
static size_t merge_blank(const char *old, const struct shape *so, const char *new, const struct shape *sn,
			  struct piece *p, size_t np)
{
	size_t out = 0;
	for (size_t k = 0; k < np; k++) {
		int blank = blank_run(old, so, p[k].o0, p[k].o1) && blank_run(new, sn, p[k].n0, p[k].n1);
		if (blank && k + 1 < np) {
			p[k + 1].o0 = p[k].o0;
			p[k + 1].n0 = p[k].n0;
		} else if (blank && out > 0) {
			p[out - 1].o1 = p[k].o1;
			p[out - 1].n1 = p[k].n1;
		} else {
			p[out++] = p[k];
		}
	}
	return out;
}

/* Statement of each token of d (tokens ta[0..n)): a statement ends after
 * a `;` outside parentheses, a `{` or a `}`, in code (not in a comment or
 * a literal). Returns the number of statements. */
static size_t statements(const char *d, const struct shape *sh, const size_t *ta, size_t n, size_t *stmt)
{
	size_t s = 0;
	for (size_t k = 0; k < n; k++) {
		stmt[k] = s;
		size_t o = ta[k];
		if (sh->st[o] == SH_CODE && ta[k + 1] == o + 1 &&
		    ((d[o] == ';' && sh->d[0][o] <= 0) || d[o] == '{' || d[o] == '}'))
			s++;
	}
	return n && stmt[n - 1] == s ? s + 1 : s;
}

static int blank_tok(const char *d, const size_t *ta, size_t k)
{
	return isspace((unsigned char)d[ta[k]]);
}

static int tok_is(const char *d, const size_t *ta, size_t k, const char *w)
{
	return ta[k + 1] - ta[k] == strlen(w) && !memcmp(d + ta[k], w, ta[k + 1] - ta[k]);
}

/* The keyword a statement of tokens ta[a0..a1) starts with (return, if,
 * while, ...), after any preprocessor lines and labels (`done:`, `case X:`,
 * `default:`), or NULL for an expression or a declaration. */
static const char *stmt_kind(const char *d, const size_t *ta, size_t a0, size_t a1)
{
	static const char *const kw[] = {"return", "if", "else", "while", "for", "do", "switch",
					 "goto", "break", "continue", NULL};
	size_t k = a0;
	for (;;) {   /* blanks, preprocessor lines and labels before it */
		while (k < a1 && blank_tok(d, ta, k))
			k++;
		if (k == a1)
			return NULL;
		if (d[ta[k]] == '#') {
			while (k < a1 && d[ta[k]] != '\n')
				k++;
			continue;
		}
		if (!word_char((unsigned char)d[ta[k]]))
			break;
		size_t c = k + 1;
		if (tok_is(d, ta, k, "case"))   /* its expression, up to the colon */
			while (c < a1 && !(d[ta[c]] == ':' && (c + 1 == a1 || d[ta[c + 1]] != ':')))
				c += c + 1 < a1 && d[ta[c]] == ':' ? 2 : 1;
		else
			while (c < a1 && blank_tok(d, ta, c))
				c++;
		if (c >= a1 || d[ta[c]] != ':' || (c + 1 < a1 && d[ta[c + 1]] == ':'))
			break;
		k = c + 1;
	}
	for (size_t i = 0; kw[i]; i++)
		if (tok_is(d, ta, k, kw[i]))
			return kw[i];
	return NULL;
}

/* The longest common subsequence of tokens a[a0..a1) and b[b0..b1),
 * appended to m as (i, j) pairs, earliest matches first. Returns its
 * weight: a token that is not blank weighs as much as four blanks. With m
 * NULL, only weighs it. */
static size_t lcs(const char *old, const size_t *ta, size_t a0, size_t a1, const char *new, const size_t *tb,
		  size_t b0, size_t b1, size_t (*m)[2], size_t *nm)
{
	size_t n = a1 - a0, w = b1 - b0 + 1;
	uint16_t *L = xcalloc((n + 1) * w, sizeof(*L));
#define AT(i, j) L[(size_t)(i) * w + (j)]
	for (size_t i = n; i-- > 0;)
		for (size_t j = w - 1; j-- > 0;)
			AT(i, j) = tok_eq(old, ta, a0 + i, new, tb, b0 + j)
					   ? (uint16_t)(AT(i + 1, j + 1) + 1)
					   : (AT(i + 1, j) >= AT(i, j + 1) ? AT(i + 1, j) : AT(i, j + 1));
	size_t i = 0, j = 0, solid = 0;
	while (i < n && j < w - 1) {
		if (tok_eq(old, ta, a0 + i, new, tb, b0 + j) && AT(i, j) == AT(i + 1, j + 1) + 1) {
			solid += blank_tok(old, ta, a0 + i) ? 1 : 4;
			if (m) {
				m[*nm][0] = a0 + i;
				m[*nm][1] = b0 + j;
				++*nm;
			}
			i++;
			j++;
		} else if (AT(i, j + 1) >= AT(i + 1, j)) {
			j++;
		} else {
			i++;
		}
	}
#undef AT
	free(L);
	return solid;
}

/* Split old[0..ol) -> new[0..nl) into runs of differing tokens. Returns the
 * number of pieces (0 when the hunk should stay whole). Tokens match
 * within statements the two sides pair (each old statement with at most
 * one new one, in order, as many tokens alike as can be): a statement
 * added next to a changed one is a piece of its own, not the tail of the
 * changed one (`p->items++;` made `p->items += 2;` with `p->quiet++;`
 * added: `++;` is not the old line's). Pieces that do not close their
 * brackets are merged with their neighbours. */
static size_t split_tokens(const char *old, size_t ol, const char *new, size_t nl, struct piece **out)
{
	size_t na, nb;
	size_t *ta = tokenize(old, ol, &na), *tb = tokenize(new, nl, &nb);
	*out = NULL;
	if ((uint64_t)(na + 1) * (nb + 1) > MAX_TOKEN_PRODUCT) {
		free(ta);
		free(tb);
		return 0;
	}
	struct shape so, sn;   /* read once, for statements and for merging pieces */
	shape_init(&so, old, ol);
	shape_init(&sn, new, nl);
	size_t *sa = xmalloc((na + 1) * sizeof(*sa)), *sb = xmalloc((nb + 1) * sizeof(*sb));
	size_t ns = statements(old, &so, ta, na, sa), ms = statements(new, &sn, tb, nb, sb);
	size_t *fa = xcalloc(ns + 1, sizeof(*fa)), *fb = xcalloc(ms + 1, sizeof(*fb));   /* first token of each */
	for (size_t k = na; k-- > 0;)
		fa[sa[k]] = k;
	for (size_t k = nb; k-- > 0;)
		fb[sb[k]] = k;
	fa[ns] = na;
	fb[ms] = nb;
	/* Statements paired in order, the most tokens alike in all. */
	size_t *sim = xmalloc((ns * ms + 1) * sizeof(*sim)), *S = xcalloc((ns + 1) * (ms + 1), sizeof(*S));
	/* Only statements of one kind pair: `int retval = ... ? 0 : -1;` is
	 * not what `return -1;` edits (pocketpy's three lines made one: their
	 * pieces cut statements apart, and 4 of 6 configurations did not
	 * build); `return retval;` is. */
	for (size_t x = 0; x < ns; x++)
		for (size_t y = 0; y < ms; y++)
			sim[x * ms + y] = stmt_kind(old, ta, fa[x], fa[x + 1]) != stmt_kind(new, tb, fb[y], fb[y + 1])
						  ? 0
						  : lcs(old, ta, fa[x], fa[x + 1], new, tb, fb[y], fb[y + 1], NULL, NULL);
#define AT(i, j) S[(size_t)(i) * (ms + 1) + (j)]
	for (size_t x = ns; x-- > 0;)
		for (size_t y = ms; y-- > 0;) {
			size_t v = AT(x + 1, y) >= AT(x, y + 1) ? AT(x + 1, y) : AT(x, y + 1);
			size_t d = sim[x * ms + y] ? AT(x + 1, y + 1) + sim[x * ms + y] : 0;
			AT(x, y) = d > v ? d : v;
		}
	size_t (*m)[2] = xmalloc((na < nb ? na : nb) * sizeof(*m) + sizeof(*m)), nm = 0;
	for (size_t x = 0, y = 0; x < ns && y < ms;) {
		if (sim[x * ms + y] && AT(x, y) == AT(x + 1, y + 1) + sim[x * ms + y]) {
			lcs(old, ta, fa[x], fa[x + 1], new, tb, fb[y], fb[y + 1], m, &nm);
			x++;
			y++;
		} else if (AT(x, y + 1) >= AT(x + 1, y)) {
			y++;
		} else {
			x++;
		}
	}
#undef AT
	/* The runs between matches are the pieces. */
	size_t np = 0, cap = 8;
	struct piece *p = xmalloc(cap * sizeof(*p));
	for (size_t k = 0, i = 0, j = 0; k <= nm; k++) {
		size_t i1 = k < nm ? m[k][0] : na, j1 = k < nm ? m[k][1] : nb;
		if (i1 > i || j1 > j) {
			if (np == cap)
				p = xrealloc(p, (cap *= 2) * sizeof(*p));
			p[np++] = (struct piece){ta[i], ta[i1], tb[j], tb[j1]};
		}
		i = i1 + 1;
		j = j1 + 1;
	}
	free(m);
	free(sim);
	free(S);
	free(sa);
	free(sb);
	free(fa);
	free(fb);
	free(ta);
	free(tb);
	if (np >= 2)
		np = merge_blank(old, &so, new, &sn, p, np);
	if (np >= 2)
		np = merge_unbalanced(old, ol, &so, new, nl, &sn, p, np);
	shape_free(&so);
	shape_free(&sn);
	if (np < 2 || np > MAX_PIECES) {
		free(p);
		return 0;
	}
	*out = p;
	return np;
}

static struct change_atom *add_atom(struct change_set *s, size_t *cap)
{
	if (s->natoms == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		s->atoms = xrealloc(s->atoms, *cap * sizeof(*s->atoms));
	}
	struct change_atom *a = &s->atoms[s->natoms++];
	memset(a, 0, sizeof(*a));
	return a;
}

int change_set_finish(struct change_set *s, struct cerr *e)
{
	size_t cap = 0;
	for (size_t fi = 0; fi < s->nfiles; fi++) {
		struct change_file *f = &s->files[fi];
		struct lines ol, nl;
		lines_init(&ol, f->old_data ? f->old_data : "", f->old_len);
		lines_init(&nl, f->new_data ? f->new_data : "", f->new_len);
		for (size_t ci = f->change0; ci < f->change0 + f->nchanges; ci++) {
			struct change *c = &s->changes[ci];
			c->atom0 = s->natoms;
			if (c->kind != CHANGE_HUNK) {
				struct change_atom *a = add_atom(s, &cap);
				a->change = ci;
				c->natoms = 1;
				continue;
			}
			size_t o0 = c->old_lines ? line_off(&ol, c->old_start) : line_off(&ol, c->old_start + 1);
			size_t o1 = c->old_lines ? line_off(&ol, c->old_start + c->old_lines) : o0;
			size_t n0 = c->new_lines ? line_off(&nl, c->new_start) : line_off(&nl, c->new_start + 1);
			size_t n1 = c->new_lines ? line_off(&nl, c->new_start + c->new_lines) : n0;
			if (o1 < o0 || n1 < n0 || o1 > f->old_len || n1 > f->new_len)
				return cerr_set(e, "%s: a hunk does not fit the file", f->new_path);
			struct piece *p = NULL;
			size_t np = split_tokens(f->old_data + o0, o1 - o0, f->new_data + n0, n1 - n0, &p);
			if (np == 0) {
				struct change_atom *a = add_atom(s, &cap);
				*a = (struct change_atom){ci, 0, o0, o1, n0, n1, line_of(&ol, o0), line_of(&nl, n0)};
				c->natoms = 1;
				continue;
			}
			for (size_t k = 0; k < np; k++) {
				struct change_atom *a = add_atom(s, &cap);
				*a = (struct change_atom){ci, (unsigned)k + 1, o0 + p[k].o0, o0 + p[k].o1, n0 + p[k].n0,
							  n0 + p[k].n1, line_of(&ol, o0 + p[k].o0), line_of(&nl, n0 + p[k].n0)};
			}
			c->natoms = np;
			free(p);
		}
		free(ol.start);
		free(nl.start);
	}
	return 0;
}

struct bits *change_atoms_of(const struct change_set *s, const size_t *changes, size_t n)
{
	struct bits *b = bits_new(s->natoms);
	for (size_t i = 0; i < n; i++) {
		const struct change *c = &s->changes[changes[i]];
		for (size_t a = c->atom0; a < c->atom0 + c->natoms; a++)
			bits_set(b, a);
	}
	return b;
}

/* ------------------------------------------------------- materializing */

static int kind_applied(const struct change_set *s, const struct change_file *f, const struct bits *applied,
			enum change_kind kind)
{
	for (size_t ci = f->change0; ci < f->change0 + f->nchanges; ci++)
		if (s->changes[ci].kind == kind)
			return bits_test(applied, s->changes[ci].atom0);
	return 0;
}

int change_materialize(const struct change_set *s, const struct bits *applied, change_file_cb cb, void *priv)
{
	struct buf out = BUF_INIT;
	int rc = 0;
	for (size_t fi = 0; fi < s->nfiles && !rc; fi++) {
		const struct change_file *f = &s->files[fi];
		if (f->status == CHANGE_ADDED) {
			int on = kind_applied(s, f, applied, CHANGE_FILE_ADD);
			rc = cb(priv, f->new_path, on, f->new_mode, f->new_data ? f->new_data : "", f->new_len);
			continue;
		}
		if (f->status == CHANGE_DELETED) {
			int gone = kind_applied(s, f, applied, CHANGE_FILE_DELETE);
			rc = cb(priv, f->old_path, !gone, f->old_mode, f->old_data ? f->old_data : "", f->old_len);
			continue;
		}
		buf_reset(&out);
		if (kind_applied(s, f, applied, CHANGE_FILE_BINARY)) {
			buf_add(&out, f->new_data ? f->new_data : "", f->new_len);
		} else {
			size_t pos = 0;
			for (size_t ci = f->change0; ci < f->change0 + f->nchanges; ci++) {
				const struct change *c = &s->changes[ci];
				if (c->kind != CHANGE_HUNK)
					continue;
				for (size_t ai = c->atom0; ai < c->atom0 + c->natoms; ai++) {
					const struct change_atom *a = &s->atoms[ai];
					buf_add(&out, f->old_data + pos, a->old_off - pos);
					if (bits_test(applied, ai))
						buf_add(&out, f->new_data + a->new_off, a->new_end - a->new_off);
					else
						buf_add(&out, f->old_data + a->old_off, a->old_end - a->old_off);
					pos = a->old_end;
				}
			}
			buf_add(&out, (f->old_data ? f->old_data : "") + pos, f->old_len - pos);
		}
		unsigned mode = kind_applied(s, f, applied, CHANGE_FILE_MODE) ? f->new_mode : f->old_mode;
		if (f->status == CHANGE_RENAMED) {
			int moved = kind_applied(s, f, applied, CHANGE_FILE_RENAME);
			rc = cb(priv, f->old_path, !moved, mode, out.s ? out.s : "", out.len);
			if (!rc)
				rc = cb(priv, f->new_path, moved, mode, out.s ? out.s : "", out.len);
		} else {
			rc = cb(priv, f->old_path, 1, mode, out.s ? out.s : "", out.len);
		}
	}
	buf_release(&out);
	return rc;
}

/* ---------------------------------------------------------------- lines */

static void split_lines(const char *d, size_t len, char ***v, size_t *n)
{
	size_t cap = 0;
	*v = NULL;
	*n = 0;
	size_t i = 0;
	while (i < len && *n < MAX_LINES_SHOWN) {
		size_t j = i;
		while (j < len && d[j] != '\n')
			j++;
		size_t k = j;
		if (k > i && d[k - 1] == '\r')
			k--;
		if (*n == cap) {
			cap = cap ? 2 * cap : 8;
			*v = xrealloc(*v, cap * sizeof(**v));
		}
		(*v)[(*n)++] = xstrndup(d + i, k - i);
		i = j + 1;
	}
}

void change_lines_of(const struct change_set *s, size_t ci, struct change_lines *out)
{
	const struct change *c = &s->changes[ci];
	const struct change_file *f = &s->files[c->file];
	memset(out, 0, sizeof(*out));
	switch (c->kind) {
	case CHANGE_FILE_ADD:
		if (!f->binary)
			split_lines(f->new_data ? f->new_data : "", f->new_len, &out->added, &out->nadded);
		out->new_start = 1;
		out->new_lines = (int)out->nadded;
		return;
	case CHANGE_FILE_DELETE:
		if (!f->binary)
			split_lines(f->old_data ? f->old_data : "", f->old_len, &out->removed, &out->nremoved);
		out->old_start = 1;
		out->old_lines = (int)out->nremoved;
		return;
	case CHANGE_FILE_RENAME:
	case CHANGE_FILE_MODE:
	case CHANGE_FILE_BINARY:
		return;
	case CHANGE_HUNK:
		break;
	}
	const struct change_atom *first = &s->atoms[c->atom0];
	/* The hunk's whole range: from the first atom's start to the last's end,
	 * widened to lines (a split hunk keeps unchanged tokens between pieces). */
	struct lines ol;
	lines_init(&ol, f->old_data ? f->old_data : "", f->old_len);
	size_t o0 = c->old_lines ? line_off(&ol, c->old_start) : first->old_off;
	size_t o1 = c->old_lines ? line_off(&ol, c->old_start + c->old_lines) : o0;
	free(ol.start);
	struct lines nl;
	lines_init(&nl, f->new_data ? f->new_data : "", f->new_len);
	size_t n0 = c->new_lines ? line_off(&nl, c->new_start) : 0;
	size_t n1 = c->new_lines ? line_off(&nl, c->new_start + c->new_lines) : n0;
	free(nl.start);
	split_lines(f->old_data + o0, o1 - o0, &out->removed, &out->nremoved);
	if (c->new_lines)
		split_lines(f->new_data + n0, n1 - n0, &out->added, &out->nadded);
	out->old_start = c->old_start;
	out->old_lines = c->old_lines;
	out->new_start = c->new_start;
	out->new_lines = c->new_lines;
}

/* Widen [off, end) of d to whole lines: from the start of the line holding
 * its first byte to the end (with the newline) of the line holding its
 * last. An empty range at a line start that stands for whole lines
 * inserted or deleted on the other side (whole) touches no line here. */
static void whole_lines(const char *d, size_t len, size_t off, size_t end, int whole, size_t *ls, size_t *le)
{
	*ls = off;
	*le = end;
	while (*ls > 0 && d[*ls - 1] != '\n')
		(*ls)--;
	if (whole && off == end && *ls == off)
		return;
	if (*le == *ls || d[*le - 1] != '\n') {
		while (*le < len && d[*le] != '\n')
			(*le)++;
		if (*le < len)
			(*le)++;   /* and its newline */
	}
}

/* lines [ls, le) of d with [off, end) between open and close (when not empty). */
static void marked_lines(const char *d, size_t ls, size_t le, size_t off, size_t end, const char *open,
			 const char *close, char ***v, size_t *n)
{
	struct buf b = BUF_INIT;
	buf_add(&b, d + ls, off - ls);
	if (end > off) {
		buf_adds(&b, open);
		/* A piece across lines is marked on each of them. */
		for (size_t i = off; i < end; i++) {
			if (d[i] == '\n' && i + 1 < end) {
				buf_adds(&b, close);
				buf_addc(&b, '\n');
				buf_adds(&b, open);
				continue;
			}
			if (d[i] == '\n') {
				buf_adds(&b, close);
				buf_addc(&b, '\n');
				goto rest;
			}
			buf_addc(&b, d[i]);
		}
		buf_adds(&b, close);
	}
rest:
	buf_add(&b, d + end, le - end);
	split_lines(b.s ? b.s : "", b.len, v, n);
	buf_release(&b);
}

void change_lines_of_atom(const struct change_set *s, size_t ai, struct change_lines *out)
{
	const struct change_atom *a = &s->atoms[ai];
	const struct change *c = &s->changes[a->change];
	const struct change_file *f = &s->files[c->file];
	if (c->kind != CHANGE_HUNK || c->natoms == 1) {
		change_lines_of(s, a->change, out);
		return;
	}
	memset(out, 0, sizeof(*out));
	const char *od = f->old_data ? f->old_data : "", *nd = f->new_data ? f->new_data : "";
	/* The real lines of both revisions the piece touches: never a line made
	 * of the piece applied alone, which exists in neither. */
	int inserts_lines = a->old_off == a->old_end && a->new_end > a->new_off && nd[a->new_end - 1] == '\n';
	int deletes_lines = a->new_off == a->new_end && a->old_end > a->old_off && od[a->old_end - 1] == '\n';
	size_t ols, ole, nls, nle;
	whole_lines(od, f->old_len, a->old_off, a->old_end, inserts_lines, &ols, &ole);
	whole_lines(nd, f->new_len, a->new_off, a->new_end, deletes_lines, &nls, &nle);
	split_lines(od + ols, ole - ols, &out->removed, &out->nremoved);
	split_lines(nd + nls, nle - nls, &out->added, &out->nadded);
	marked_lines(od, ols, ole, a->old_off, a->old_end, "[-", "-]", &out->removed_marked, &out->nremoved);
	marked_lines(nd, nls, nle, a->new_off, a->new_end, "{+", "+}", &out->added_marked, &out->nadded);
	struct lines ol;
	lines_init(&ol, od, f->old_len);
	out->old_start = line_of(&ol, ols);
	free(ol.start);
	out->old_lines = (int)out->nremoved;
	struct lines nl;
	lines_init(&nl, nd, f->new_len);
	out->new_start = line_of(&nl, nls);
	free(nl.start);
	out->new_lines = (int)out->nadded;
}

void change_lines_free(struct change_lines *l)
{
	for (size_t i = 0; l->removed_marked && i < l->nremoved; i++)
		free(l->removed_marked[i]);
	for (size_t i = 0; l->added_marked && i < l->nadded; i++)
		free(l->added_marked[i]);
	free(l->removed_marked);
	free(l->added_marked);
	for (size_t i = 0; i < l->nremoved; i++)
		free(l->removed[i]);
	for (size_t i = 0; i < l->nadded; i++)
		free(l->added[i]);
	free(l->removed);
	free(l->added);
	memset(l, 0, sizeof(*l));
}
