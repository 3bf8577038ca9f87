#include "core/isolate/scan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/isolate/deps.h"

/* ------------------------------------------------------------------ lexing */

static int is_ident0(int c) { return isalpha(c) || c == '_'; }
static int is_ident(int c) { return isalnum(c) || c == '_'; }

/* The length of the operator at p: C's two- and three-character operators
 * are one token (so that `!=` or `<=` is no '=', `->` no '>'). */
static size_t operator_len(const char *p, size_t n)
{
	static const char *const ops[] = {"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
					  "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##",
					  NULL};
	for (const char *const *o = ops; *o; o++) {
		size_t k = strlen(*o);
		if (k <= n && !memcmp(p, *o, k))
			return k;
	}
	return 1;
}

static void lex(const char *p, size_t len, struct scan *sc)
{
	size_t cap = 0, i = 0;
	int line = 1, bol = 1, directive = 0;
	while (i < len) {
		char c = p[i];
		if (c == '\n') {
			line++;
			bol = 1;
			if (!(i > 0 && p[i - 1] == '\\'))
				directive = 0;
			i++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\\') {
			i++;
			continue;
		}
		if (c == '/' && i + 1 < len && p[i + 1] == '/') {
			while (i < len && p[i] != '\n')
				i++;
			continue;
		}
		if (c == '/' && i + 1 < len && p[i + 1] == '*') {
			int first = line;
			i += 2;
			while (i + 1 < len && !(p[i] == '*' && p[i + 1] == '/')) {
				if (p[i] == '\n')
					line++;
				i++;
			}
			i += 2;
			if (line > first) {
				sc->cm = xrealloc(sc->cm, (sc->ncm + 1) * sizeof(*sc->cm));
				sc->cm[sc->ncm++] = (struct span){first, line};
			}
			continue;
		}
		if (bol && c == '#')
			directive = 1;
		bol = 0;
		struct tok t = {T_OTHER, p + i, 1, line, 0, directive, -1};
		if (c == '"' || c == '\'') {
			size_t j = i + 1;
			while (j < len && p[j] != c && p[j] != '\n') {
				if (p[j] == '\\')
					j++;
				j++;
			}
			t.len = (j < len ? j + 1 : len) - i;
		} else if (is_ident0((unsigned char)c)) {
			size_t j = i;
			while (j < len && is_ident((unsigned char)p[j]))
				j++;
			t.kind = T_IDENT;
			t.len = j - i;
		} else if (isdigit((unsigned char)c)) {
			size_t j = i;
			while (j < len && (is_ident((unsigned char)p[j]) || p[j] == '.'))
				j++;
			t.len = j - i;
		} else {
			t.kind = T_PUNCT;
			t.len = operator_len(p + i, len - i);
		}
		if (sc->nt == cap) {
			cap = cap ? 2 * cap : 256;
			sc->t = xrealloc(sc->t, cap * sizeof(*sc->t));
		}
		if (t.kind == T_IDENT && sc->nt > 0 && sc->t[sc->nt - 1].kind == T_PUNCT &&
		    (scan_tok_is(&sc->t[sc->nt - 1], ".") || scan_tok_is(&sc->t[sc->nt - 1], "->")))
			t.member = 1;
		sc->t[sc->nt++] = t;
		for (size_t j = 0; j < t.len; j++)
			line += t.s[j] == '\n';   /* a literal continued by a backslash (`"\` at a line's end) */
		i += t.len;
	}
}

int scan_tok_is(const struct tok *t, const char *s)
{
	return t->len == strlen(s) && !memcmp(t->s, s, t->len);
}

int scan_punct(const struct tok *t, char c)
{
	return t->kind == T_PUNCT && t->len == 1 && t->s[0] == c;
}

const char *const scan_type_words[] = {"void", "char", "short", "int", "long", "float", "double", "signed",
					 "unsigned", "_Bool", "bool", "struct", "union", "enum", "const",
					 "volatile", "static", "extern", "register", "inline", "typedef", "auto",
					 "restrict", "size_t", NULL};
const char *const scan_stmt_words[] = {"return", "if", "else", "while", "for", "do", "switch", "case",
					 "goto", "break", "continue", "sizeof", "default", NULL};

int scan_in_list(const struct tok *t, const char *const *l)
{
	for (; *l; l++)
		if (scan_tok_is(t, *l))
			return 1;
	return 0;
}

int scan_holds_word(const char *text, size_t n, const char *word, size_t k, int nocase)
{
	for (const char *p = text; k && p + k <= text + n; p++)
		if (!(nocase ? strncasecmp(p, word, k) : memcmp(p, word, k)) &&
		    (p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
		    (p + k == text + n || !(isalnum((unsigned char)p[k]) || p[k] == '_')))
			return 1;
	return 0;
}

int scan_typeish(const struct tok *t)
{
	return t->kind == T_IDENT && (scan_in_list(t, scan_type_words) || (t->len > 2 && !memcmp(t->s + t->len - 2, "_t", 2)));
}

/* Words whose parenthesized group qualifies a declaration, never its declarator. */
static const char *const attribute_words[] = {"__attribute__", "__attribute", "__declspec", "__asm__", "__asm", "asm",
					      "_Alignas", "alignas", NULL};

/* Words that may precede a function's type. */
static const char *const storage_words[] = {"extern", "static", "inline", "__inline", "__inline__", "__extension__", NULL};

/* The token closing the parenthesis at t[open], or b - 1. */
static size_t group_end(const struct tok *t, size_t open, size_t b)
{
	size_t d = 0;
	for (size_t j = open; j < b; j++) {
		if (scan_punct(&t[j], '('))
			d++;
		else if (scan_punct(&t[j], ')') && --d == 0)
			return j;
	}
	return b - 1;
}

/* Whether t[k..b) holds a function's declarator, NAME ( at depth 0. */
static int function_after(const struct tok *t, size_t k, size_t b)
{
	for (size_t j = k + 1; j < b; j++)
		if (scan_punct(&t[j], '(') && t[j - 1].kind == T_IDENT && !scan_in_list(&t[j - 1], scan_type_words) &&
		    !scan_in_list(&t[j - 1], attribute_words))
			return 1;
		else if (scan_punct(&t[j], '('))
			j = group_end(t, j, b);
	return 0;
}

static void add_decl(struct scan *sc, const struct tok *name, const char *scope, char cls, const struct tok *from,
		     const struct tok *to, int skip_init)
{
	if (scan_in_list(name, scan_stmt_words))
		return;   /* code misread as a declaration (a definition without its brace) */
	struct buf shape = BUF_INIT;
	int init = 0, depth = 0;
	for (const struct tok *t = from; t <= to; t++) {
		/* an attribute qualifies it, it is not its shape (`static int
		 * __attribute__((unused)) f(int x)` takes one parameter) */
		if (t < to && t->kind == T_IDENT && scan_in_list(t, attribute_words) && scan_punct(t + 1, '(')) {
			t = sc->t + group_end(sc->t, (size_t)(t + 1 - sc->t), (size_t)(to - sc->t) + 1);
			continue;
		}
		if (skip_init) {
			if (scan_punct(t, '(') || scan_punct(t, '['))
				depth++;
			else if (scan_punct(t, ')') || scan_punct(t, ']'))
				depth--;
			if (depth == 0 && scan_punct(t, '='))
				init = 1;
			else if (depth == 0 && scan_punct(t, ','))
				init = 0;
			if (init)
				continue;
		}
		buf_add(&shape, t->s, t->len);
		buf_addc(&shape, ' ');
	}
	sc->d = xrealloc(sc->d, (sc->nd + 1) * sizeof(*sc->d));
	sc->d[sc->nd++] = (struct decl){xstrndup(name->s, name->len), xstrdup(scope), buf_detach(&shape), cls,
					from->line, to->line, (size_t)(name - sc->t), 0, 0, 0, 0};
}

/* Classify the statement t[a..b) (b: the ';' '{' or ',' ending it) as declarations. */
static void declare(struct scan *sc, size_t a, size_t b, char ctx, const char *scope, int opens_body,
		    char **fn_out)
{
	struct tok *t = sc->t;
	if (a >= b)
		return;
	if (ctx == 'E') {   /* an enumerator */
		if (t[a].kind == T_IDENT)
			add_decl(sc, &t[a], "", 'g', &t[a], &t[a], 0);
		return;
	}
	if (t[a].kind != T_IDENT || scan_in_list(&t[a], scan_stmt_words))
		return;
	/* An attribute before a function's declaration, as a macro or GNU's
	 * own (`attr(printf(3, 4)) static bool opt_debug(...)`,
	 * `__attribute__((unused)) int f(void)`): a NAME ( ... ) group opening
	 * it, and a NAME ( after it. Not what a K&R head's parameter list is
	 * followed by (`f(a) int a;`: no NAME ( after). The group may hold
	 * the return type itself (cJSON's `CJSON_PUBLIC(cJSON *)
	 * cJSON_Parse(const char *value)`): the function's name follows it. */
	int typed = 0;
	while (ctx == 'G' && !scope[0] && a + 1 < b && t[a].kind == T_IDENT && scan_punct(&t[a + 1], '(') &&
	       !scan_in_list(&t[a], scan_type_words)) {
		size_t close = group_end(t, a + 1, b);
		if (close + 1 >= b || !function_after(t, close + 1, b))
			break;
		a = close + 1;
		typed = a + 1 < b && t[a].kind == T_IDENT && scan_punct(&t[a + 1], '(');
	}
	if (t[a].kind != T_IDENT || scan_in_list(&t[a], scan_stmt_words))
		return;
	int typedef_ = scan_tok_is(&t[a], "typedef");
	if (ctx != 'S' && !scan_typeish(&t[a]) && !typed) {
		/* A typedef'd type: NAME NAME or NAME * ... NAME. */
		size_t k = a + 1;
		while (k < b && (scan_punct(&t[k], '*') || scan_tok_is(&t[k], "const")))
			k++;
		if (!(k < b && t[k].kind == T_IDENT))
			return;
	}
	/* Function: the first NAME ( at depth 0, before any '='. */
	int depth = 0;
	for (size_t k = a + 1; k < b; k++) {
		if (scan_punct(&t[k], '='))
			break;
		if (depth == 0 && scan_punct(&t[k], '(') && t[k - 1].kind == T_IDENT && !typedef_ && ctx != 'S' &&
		    !scan_in_list(&t[k - 1], scan_type_words) && !scan_in_list(&t[k - 1], attribute_words)) {
			/* The declarator to its closing parenthesis; its parameters. */
			size_t close = k, d2 = 0;
			for (size_t j = k; j < b; j++) {
				if (scan_punct(&t[j], '('))
					d2++;
				else if (scan_punct(&t[j], ')') && --d2 == 0) {
					close = j;
					break;
				}
			}
			/* A macro's group holding the return type, the function's
			 * name after it (xz's `extern LZMA_API(void)
			 * lzma_get_progress(...)`): the declarator is further on. */
			int storage = 1;   /* only storage words before it: no type */
			for (size_t j = a; j + 1 < k && storage; j++)
				storage = scan_in_list(&t[j], storage_words);
			if (!scope[0] && storage && close + 2 < b && t[close + 1].kind == T_IDENT &&
			    scan_punct(&t[close + 2], '(') && !(close + 3 < b && scan_punct(&t[close + 3], '(')) &&
			    !scan_in_list(&t[close + 1], attribute_words)) {
				k = close;
				continue;
			}
			if (scope[0])
				return;   /* a call or a local prototype inside a function: not tracked */
			/* A name a macro makes, its parameters after it (a template
			 * header's `static void FN(BuildAndStoreEntropyCodes)(...)`,
			 * FN pasting a suffix): the declarator goes on to them. */
			size_t name = k - 1;
			if (close + 1 < b && scan_punct(&t[close + 1], '(')) {
				k = close + 1;
				close = group_end(t, k, b);
			}
			add_decl(sc, &t[name], "", 'g', &t[a], &t[close], 0);
			if (opens_body) {
				*fn_out = xstrndup(t[name].s, t[name].len);
				/* Each parameter: its name ends it; its shape is its own tokens. */
				size_t p0 = k + 1;
				int pd = 0;
				for (size_t j = k + 1; j <= close; j++) {
					if (scan_punct(&t[j], '(') || scan_punct(&t[j], '['))
						pd++;
					else if ((scan_punct(&t[j], ')') || scan_punct(&t[j], ']')) && j < close)
						pd--;
					if (pd == 0 && (scan_punct(&t[j], ',') || j == close)) {
						/* before an attribute (`char *p __attribute__((unused))`) */
						size_t nm = j;
						for (size_t q = p0; q + 1 < j; q++)
							if (scan_in_list(&t[q], attribute_words) && scan_punct(&t[q + 1], '(')) {
								nm = q;
								break;
							}
						while (nm > p0 && t[nm - 1].kind != T_IDENT)
							nm--;
						if (nm > p0 && !scan_in_list(&t[nm - 1], scan_type_words) && nm - 1 > p0)
							add_decl(sc, &t[nm - 1], *fn_out, 'l', &t[p0], &t[j - 1], 0);
						p0 = j + 1;
					}
				}
			}
			return;
		}
		if (scan_punct(&t[k], '('))
			depth++;
		else if (scan_punct(&t[k], ')'))
			depth--;
	}
	if (opens_body)
		return;
	/* Variables, fields, typedef names: identifiers ending a declarator. */
	char cls = ctx == 'S' ? 'f' : scope[0] ? 'l' : 'g';
	depth = 0;
	int init = 0;
	for (size_t k = a + 1; k <= b; k++) {
		if (k < b && (scan_punct(&t[k], ')') || scan_punct(&t[k], ']') || scan_punct(&t[k], '}')))
			depth--;
		/* The '=' ends the declarator before it (`size_t n = 0`), then
		 * starts the initializer, whose names are uses; so does the '['
		 * of an array (`char buf[32]`). */
		int end = k == b || (depth == 0 && (scan_punct(&t[k], ',') || scan_punct(&t[k], ':') || scan_punct(&t[k], '[') ||
						   scan_punct(&t[k], '=')));
		if (k < b && (scan_punct(&t[k], '(') || scan_punct(&t[k], '[') || scan_punct(&t[k], '{')))
			depth++;
		/* A name ending in _t reads as a type (`size_t n`), but not
		 * the name a typedef declares (`typedef int flag_t;`). */
		if (end && !init && t[k - 1].kind == T_IDENT &&
		    (!scan_typeish(&t[k - 1]) || (typedef_ && k - 1 > a + 1 && !scan_in_list(&t[k - 1], scan_type_words))))
			add_decl(sc, &t[k - 1], cls == 'g' ? "" : scope, cls, &t[a], &t[b - 1], 1);
		/* A function pointer: ( * NAME ) */
		if (k + 2 < b && scan_punct(&t[k], '(') && scan_punct(&t[k + 1], '*') && t[k + 2].kind == T_IDENT && !init)
			add_decl(sc, &t[k + 2], cls == 'g' ? "" : scope, cls, &t[a], &t[b - 1], 1);
		if (depth == 0 && k < b && scan_punct(&t[k], '='))
			init = 1;
		if (depth == 0 && k < b && scan_punct(&t[k], ','))
			init = 0;
	}
}

/* A preprocessor conditional's directive at token k of sc, read as a
 * bracket: 'o' opens (#if, #ifdef, #ifndef), 'c' closes (#endif), 'm'
 * closes a branch and opens the next (#else, #elif); 0 for any other
 * token. */
char scan_cond(const struct scan *sc, size_t k)
{
	const struct tok *t = &sc->t[k];
	if (!t->directive || t->kind != T_IDENT || k == 0 || !scan_punct(&sc->t[k - 1], '#') ||
	    sc->t[k - 1].line != t->line)
		return 0;
	if (scan_tok_is(t, "if") || scan_tok_is(t, "ifdef") || scan_tok_is(t, "ifndef"))
		return 'o';
	if (scan_tok_is(t, "endif"))
		return 'c';
	return scan_tok_is(t, "else") || scan_tok_is(t, "elif") ? 'm' : 0;
}

/* Each token's guard: the conditional branch it is compiled in (a stack
 * of the open branches; a #else or #elif replaces its #if's). A
 * directive's own guard is the branch around it. */
static void guard_tokens(struct scan *sc)
{
	long *open = xmalloc((sc->nt + 1) * sizeof(*open));
	size_t sp = 0;
	for (size_t k = 0; k < sc->nt; k++) {
		char c = scan_cond(sc, k);
		if (c == 'c' || c == 'm')
			sp -= sp > 0;
		sc->t[k].guard = sp ? open[sp - 1] : -1;
		if (c == 'o' || c == 'm')
			open[sp++] = (long)k;
	}
	free(open);
}

/* Append token k (the name of a `#define A B` whose value is one name) to
 * the aliases; their new count. */
static size_t alias_add(size_t **alias, size_t n, size_t k)
{
	*alias = xrealloc(*alias, (n + 1) * sizeof(**alias));
	(*alias)[n] = k;
	return n + 1;
}

/* A file that defines `#define A B` and then declares A (a function
 * defined under its new name while its callers keep the old one) declares
 * B: the compiler sees B, whose other declarations it must agree with. */
static void alias_declare(struct scan *sc, const size_t *alias, size_t nalias)
{
	size_t nd = sc->nd;
	for (size_t i = 0; i < nalias; i++) {
		const struct tok *a = &sc->t[alias[i]], *b = a + 1;
		for (size_t k = 0; k < nd; k++) {
			struct decl *d = &sc->d[k];
			if (d->tok <= alias[i] || strlen(d->name) != a->len || memcmp(d->name, a->s, a->len))
				continue;
			sc->d = xrealloc(sc->d, (sc->nd + 1) * sizeof(*sc->d));
			d = &sc->d[k];
			sc->d[sc->nd++] = (struct decl){xstrndup(b->s, b->len), xstrdup(d->scope), xstrdup(d->shape), d->cls,
							d->first, d->last, d->tok, d->via, d->via_first, d->via_last, d->block_last};
		}
	}
}

/* A function body opens: its name (owned by the scan from now on) becomes
 * the scope of what follows, and its lines start at first. */
static const char *open_body(struct scan *sc, char *name, int first)
{
	sc->scopes = xrealloc(sc->scopes, (sc->nscopes + 1) * sizeof(*sc->scopes));
	sc->scopes[sc->nscopes++] = name;
	sc->b = xrealloc(sc->b, (sc->nb + 1) * sizeof(*sc->b));
	sc->b[sc->nb++] = (struct body){name, first, 0};
	return name;
}

/* A function a macro makes, `mut_step_i(cmdcopy) {` or `TEST_F(Suite,
 * Name) {`: the head's text, tokens stmt to i (one call, its closing
 * parenthesis before the '{' at i), names its scope, so that its locals are
 * its own and not globals shared by every such body. NULL when the head is
 * not one call of a name. */
static char *macro_head(const struct scan *sc, size_t stmt, size_t i)
{
	if (stmt + 2 >= i || sc->t[stmt].kind != T_IDENT || !scan_punct(&sc->t[stmt + 1], '(') ||
	    scan_in_list(&sc->t[stmt], scan_stmt_words) || scan_in_list(&sc->t[stmt], scan_type_words))
		return NULL;
	int depth = 0;
	for (size_t k = stmt + 1; k < i; k++) {
		depth += scan_punct(&sc->t[k], '(') - scan_punct(&sc->t[k], ')');
		if (depth == 0 && k != i - 1)
			return NULL;
	}
	struct buf b = BUF_INIT;
	for (size_t k = stmt; k < i && b.len < 200; k++)
		buf_add(&b, sc->t[k].s, sc->t[k].len);
	return buf_detach(&b);
}

/* The head of an old-style (K&R) definition before the '{' at token i,
 * `f(a, b) int a; char *b; {`: the parameters' names in parentheses, then
 * their declarations. Returns the function name's token, else i. */
static size_t kr_head(const struct scan *sc, size_t i)
{
	const struct tok *t = sc->t;
	if (i == 0 || !scan_punct(&t[i - 1], ';'))
		return i;
	size_t k = i - 1;
	for (; k > 0 && !scan_punct(&t[k], ')'); k--)
		if (t[k].directive || !(t[k].kind != T_PUNCT || scan_punct(&t[k], '*') || scan_punct(&t[k], ',') ||
					scan_punct(&t[k], ';') || scan_punct(&t[k], '[') || scan_punct(&t[k], ']')))
			return i;
	size_t open = k;
	while (open > 0 && (t[open - 1].kind == T_IDENT || scan_punct(&t[open - 1], ',')))
		open--;
	if (open < 2 || open == k || !scan_punct(&t[open - 1], '(') || t[open - 2].kind != T_IDENT ||
	    scan_in_list(&t[open - 2], scan_type_words) || scan_in_list(&t[open - 2], scan_stmt_words))
		return i;
	return open - 2;
}

/* An old-style definition's parameter declarations, between its name's
 * closing parenthesis and the body's '{' at token i, were read as globals
 * (the head looks like a prototype): they are the function's locals. */
static void kr_params(struct scan *sc, size_t name, size_t i, const char *fn)
{
	size_t close = name + 1;
	while (!scan_punct(&sc->t[close], ')'))
		close++;
	size_t keep = 0;
	for (size_t k = 0; k < sc->nd; k++) {
		if (sc->d[k].tok > close && sc->d[k].tok < i) {
			free(sc->d[k].name);
			free(sc->d[k].scope);
			free(sc->d[k].shape);
		} else {
			sc->d[keep++] = sc->d[k];
		}
	}
	sc->nd = keep;
	for (size_t a = close + 1, k = a; k < i; k++)
		if (scan_punct(&sc->t[k], ';')) {
			declare(sc, a, k, 'G', fn, 0, NULL);
			a = k + 1;
		}
}

static int continues(const struct scan *sc, size_t k);

/* The scope of the locals a macro's body declares and of the names a
 * macro's body at file level uses: a macro expands inside functions, so
 * `mbedtls_mpi C;` in one macro's body is what `&C` in another's reads. */
static const char macro_scope[] = "#define";

/* The declarations among the statements of the body of the macro whose
 * name or parameter list ends at token end. */
static void macro_locals(struct scan *sc, size_t end)
{
	size_t a = end + 1;
	for (size_t k = end + 1; k < sc->nt && sc->t[k].directive && continues(sc, k); k++)
		if (scan_punct(&sc->t[k], ';') || scan_punct(&sc->t[k], '{') || scan_punct(&sc->t[k], '}')) {
			if (scan_punct(&sc->t[k], ';'))
				declare(sc, a, k, 'G', macro_scope, 0, NULL);
			a = k + 1;
		}
}

/* Whether token i is a macro used as a statement: a name in capitals
 * (digits and underscores too), not a keyword, alone on its line, another
 * name starting the next line. */
static int statement_macro(const struct scan *sc, size_t i)
{
	const struct tok *t = &sc->t[i];
	if ((i > 0 && sc->t[i - 1].line == t->line) || i + 1 >= sc->nt || sc->t[i + 1].line == t->line ||
	    sc->t[i + 1].kind != T_IDENT || sc->t[i + 1].directive || scan_in_list(t, scan_type_words) ||
	    scan_in_list(t, scan_stmt_words))
		return 0;
	int upper = 0;
	for (size_t k = 0; k < t->len; k++) {
		unsigned char c = (unsigned char)t->s[k];
		if (islower(c))
			return 0;
		upper |= isupper(c);
	}
	return upper;
}

/* Whether token i is a `%` starting its line: a grammar's or a scanner's
 * mark or option, even after a line no `;` ended (flex's `N [0-9]+`). */
static int line_percent(const struct scan *sc, size_t i)
{
	const struct tok *t = &sc->t[i];
	return t->kind == T_PUNCT && t->len == 1 && t->s[0] == '%' && (i == 0 || sc->t[i - 1].line < t->line);
}

/* Token i of sc used, in scope. */
static void add_use(struct scan *sc, size_t i, const char *scope)
{
	const struct tok *t = &sc->t[i];
	sc->u = xrealloc(sc->u, (sc->nu + 1) * sizeof(*sc->u));
	sc->u[sc->nu++] = (struct use){t->s, t->len, t->line, t->member, i, scope};
}

void scan_file(const char *data, size_t len, struct scan *sc)
{
	memset(sc, 0, sizeof(*sc));
	if (!data)
		return;
	lex(data, len, sc);
	guard_tokens(sc);
	struct frame {
		char kind;        /* 'S' struct/union body, 'E' enum body, 'F' function body, 'B' block, 'I' initializer */
		size_t stmt;      /* the statement it interrupted (S, E, I continue it) */
		char *tag;        /* S: the struct's tag, a field's scope ("" for none; owned) */
		size_t open;      /* its brace's token */
	} *st = xmalloc((sc->nt + 2) * sizeof(*st));
	size_t sp = 0, stmt = 0;
	int post_body = 0;   /* after a struct, union or enum body: "} NAME ;" declares NAME */
	int externs = 0;     /* `extern "C" {` blocks open */
	int marks = 0;       /* a grammar's or a scanner's `%%` marks passed */
	size_t *alias = NULL, nalias = 0;
	char *fn = NULL;
	sc->scopes = xmalloc(sizeof(*sc->scopes));
	sc->scopes[sc->nscopes++] = xstrdup("");
	const char *scope = "";

	for (size_t i = 0; i < sc->nt; i++) {
		struct tok *t = &sc->t[i];
		char ctx = sp ? st[sp - 1].kind : 'G';
		if (t->directive) {
			if (scan_tok_is(t, "define") && i + 1 < sc->nt && sc->t[i + 1].kind == T_IDENT &&
			    sc->t[i + 1].line == t->line) {
				/* The macro's shape: its name and parameters, not its value. */
				size_t k = i + 1, end = k;
				const char *after = sc->t[k].s + sc->t[k].len;
				if (k + 1 < sc->nt && sc->t[k + 1].s == after && scan_punct(&sc->t[k + 1], '('))
					for (end = k + 1; end < sc->nt && !scan_punct(&sc->t[end], ')'); end++)
						;
				if (end >= sc->nt)
					end = k;
				add_decl(sc, &sc->t[k], "", 'g', &sc->t[k], &sc->t[end], 0);
				if (!scope[0])
					macro_locals(sc, end);
				if (end == k && k + 1 < sc->nt && sc->t[k + 1].kind == T_IDENT && sc->t[k + 1].directive &&
				    sc->t[k + 1].line == t->line && !(k + 2 < sc->nt && sc->t[k + 2].directive &&
								     sc->t[k + 2].line == t->line))
					nalias = alias_add(&alias, nalias, k);
				i = end;
				stmt = end + 1;
				continue;
			}
			if (t->kind == T_IDENT && !scan_tok_is(t, "include") && !scan_tok_is(t, "ifdef") && !scan_tok_is(t, "ifndef") &&
			    !scan_tok_is(t, "endif") && !scan_tok_is(t, "if") && !scan_tok_is(t, "else") && !scan_tok_is(t, "elif") &&
			    !scan_tok_is(t, "undef") && !scan_tok_is(t, "defined")) {
				/* A directive's words start no statement: `#ifdef RO`
				 * before `return E_NOSYS;` declares no local E_NOSYS. */
				stmt = i + 1;
				goto use;
			}
			stmt = i + 1;
			continue;
		}
		/* A grammar's or a scanner's rules section (between its first
		 * two `%%` marks) holds no C at file level but its actions'
		 * blocks, which declare nothing: `arp return ARP;` declares no
		 * ARP, `expr: expr '+' term` no term, and a pattern `go(x) {`
		 * opens no function. Its names are uses. */
		if (marks == 1 && ctx == 'G' && !line_percent(sc, i)) {
			if (scan_punct(t, '{'))
				st[sp++] = (struct frame){'B', 0, NULL, i};
			else if (t->kind == T_IDENT)
				add_use(sc, i, sc->scopes[0]);
			stmt = i + 1;
			continue;
		}
		/* `extern "C" {` (under `#ifdef __cplusplus`, read like the
		 * rest) opens no block: what it holds is at file level, and the
		 * `}` closing it at file level closes nothing. */
		if (scan_punct(t, '{') && ctx == 'G' && i >= 2 && scan_tok_is(&sc->t[i - 2], "extern") &&
		    sc->t[i - 1].kind == T_OTHER && sc->t[i - 1].len == 3 && !memcmp(sc->t[i - 1].s, "\"C\"", 3)) {
			externs++;
			stmt = i + 1;
			continue;
		}
		if (scan_punct(t, '}') && !sp && externs) {
			externs--;
			stmt = i + 1;
			continue;
		}
		if (scan_punct(t, '{')) {
			int has_eq = 0, has_tag = -1, depth = 0;
			size_t k;
			for (k = stmt; k < i; k++) {
				depth += scan_punct(&sc->t[k], '(') - scan_punct(&sc->t[k], ')');
				has_eq |= depth == 0 && scan_punct(&sc->t[k], '=');
				if (has_tag < 0 && (scan_tok_is(&sc->t[k], "struct") || scan_tok_is(&sc->t[k], "union")))
					has_tag = 'S';
				if (has_tag < 0 && scan_tok_is(&sc->t[k], "enum"))
					has_tag = 'E';
			}
			has_eq &= depth >= 0;   /* `for (;; i = j) {`: the header's end, a block */
			if (has_eq || ctx == 'I') {
				st[sp++] = (struct frame){'I', stmt, NULL, i};
			} else if (has_tag > 0 && !(i > 0 && scan_punct(&sc->t[i - 1], ')'))) {
				int tagged = i > 0 && sc->t[i - 1].kind == T_IDENT && !scan_tok_is(&sc->t[i - 1], "struct") &&
					     !scan_tok_is(&sc->t[i - 1], "union") && !scan_tok_is(&sc->t[i - 1], "enum");
				if (tagged)
					add_decl(sc, &sc->t[i - 1], "", 'g', &sc->t[i - 1], &sc->t[i - 1], 0);
				/* A field is keyed by its struct's tag: one moved from
				 * struct a to struct b is removed from one, added to
				 * the other, not the same declaration. A struct or
				 * union without a tag inside one is keyed by the
				 * enclosing tag (tinyproxy's `union { char *string;
				 * ... } address;` in struct acl_s moved to struct
				 * hostspec). */
				char *tag = tagged && has_tag == 'S' ? xstrndup(sc->t[i - 1].s, sc->t[i - 1].len)
					    : ctx == 'S' ? xstrdup(st[sp - 1].tag) : xstrdup("");
				st[sp++] = (struct frame){(char)has_tag, stmt, tag, i};
				stmt = i + 1;
			} else if (ctx == 'G' && i > 0 && scan_punct(&sc->t[i - 1], ')')) {
				free(fn);
				fn = NULL;
				declare(sc, stmt, i, 'G', "", 1, &fn);
				if (!fn)
					fn = macro_head(sc, stmt, i);
				if (fn)
					scope = open_body(sc, fn, sc->t[stmt].line);
				fn = NULL;
				st[sp++] = (struct frame){'F', 0, NULL, i};
				stmt = i + 1;
			} else if (ctx == 'G' && (k = kr_head(sc, i)) < i) {
				scope = open_body(sc, xstrndup(sc->t[k].s, sc->t[k].len), sc->t[k].line);
				kr_params(sc, k, i, scope);
				st[sp++] = (struct frame){'F', 0, NULL, i};
				stmt = i + 1;
			} else {
				st[sp++] = (struct frame){'B', 0, NULL, i};
				stmt = i + 1;
			}
			continue;
		}
		if (scan_punct(t, '}')) {
			if (ctx == 'E')
				declare(sc, stmt, i, 'E', "", 0, NULL);
			if (sp) {
				struct frame f = st[--sp];
				free(f.tag);
				/* The locals this block declared end with it (an inner
				 * block's have their end already). */
				for (size_t k = sc->nd; (f.kind == 'B' || f.kind == 'F') && k-- > 0;) {
					if (sc->d[k].cls != 'l')
						continue;
					if (sc->d[k].tok < f.open)
						break;
					if (!sc->d[k].block_last)
						sc->d[k].block_last = t->line;
				}
				stmt = f.kind == 'I' ? f.stmt : i + 1;   /* an initializer's declaration goes on */
				post_body = f.kind == 'S' || f.kind == 'E';
				if (f.kind == 'F' && scope[0]) {
					sc->b[sc->nb - 1].last = t->line;
					scope = "";
				}
			} else {
				stmt = i + 1;   /* a stray `}` (flex's `%top {` ... `}`) ends what came before */
			}
			continue;
		}
		if (scan_punct(t, ';') || (ctx == 'E' && scan_punct(t, ','))) {
			if (ctx != 'I' && post_body) {
				char cls = ctx == 'S' ? 'f' : scope[0] ? 'l' : 'g';
				for (size_t k = stmt; k < i; k++)
					if (sc->t[k].kind == T_IDENT && (scan_punct(&sc->t[k + 1], ',') || scan_punct(&sc->t[k + 1], ';') ||
									scan_punct(&sc->t[k + 1], '[') || scan_punct(&sc->t[k + 1], '=')))
						add_decl(sc, &sc->t[k], cls == 'l' ? scope : cls == 'f' ? st[sp - 1].tag : "", cls, &sc->t[k],
							 &sc->t[k], 0);
			} else if (ctx != 'I' && !(ctx == 'B' && !scope[0])) {
				/* (A block outside any function is a grammar's or a
				 * scanner's action: `for (int i = ...)` there declares
				 * no global.) */
				declare(sc, stmt, i, ctx == 'S' ? 'S' : ctx == 'E' ? 'E' : 'G', ctx == 'S' ? st[sp - 1].tag : scope, 0, NULL);
			}
			if (ctx != 'I') {
				stmt = i + 1;
				post_body = 0;
			}
			continue;
		}
		/* A line starting with `%` at file level is no C: a grammar's or
		 * a scanner's section mark or option (`%%`, `%{`, `%option`).
		 * Its names are uses, but for a grammar's tokens (`%token`,
		 * `%left`, ...: not the `<type>`), which it declares, each on
		 * its own, for the scanner's rules and the grammar's to use. */
		if (ctx == 'G' && line_percent(sc, i)) {
			const struct tok *w = i + 1 < sc->nt && sc->t[i + 1].s == t->s + 1 ? &sc->t[i + 1] : NULL;
			static const char *const token_words[] = {"token", "left", "right", "nonassoc", "precedence", NULL};
			int tokens = w && w->kind == T_IDENT && scan_in_list(w, token_words), angle = 0;
			if (w && scan_punct(w, '%'))
				marks++;
			for (i += tokens; i + 1 < sc->nt && sc->t[i + 1].line == t->line;) {
				w = &sc->t[++i];
				angle += scan_punct(w, '<') - scan_punct(w, '>');
				if (w->kind == T_IDENT && tokens && !angle)
					add_decl(sc, w, "", 'g', w, w, 0);
				else if (w->kind == T_IDENT)
					add_use(sc, i, sc->scopes[0]);
			}
			stmt = i + 1;
			continue;
		}
		if (t->kind != T_IDENT)
			continue;
		/* A macro alone on its line at file level, in capitals, a name
		 * after it (flex's `DIAG_ON_FLEX`, `G_BEGIN_DECLS`), is a
		 * statement of its own: the definition below it is not its
		 * declarator (libpcap's `static int\nstou(...)` after
		 * `DIAG_ON_FLEX` had declared nothing, its locals globals). */
		if (ctx == 'G' && !scope[0] && i == stmt && statement_macro(sc, i)) {
			stmt = i + 1;
			goto use;
		}
		/* A label (`done:` starting a statement in a function): a local
		 * its gotos use. A macro's call may end the statement before it
		 * without a `;` (busybox's `IF_FEATURE_FIND_EXEC_PLUS(status =
		 * flush_exec_plus();)` above `out:`): a name first on its line
		 * after a line ending in `)` starts one too. */
		int after_call = i > 0 && sc->t[i - 1].line < t->line && scan_punct(&sc->t[i - 1], ')');
		if (scope[0] && (i == stmt || after_call) && (ctx == 'F' || ctx == 'B') && i + 1 < sc->nt &&
		    scan_punct(&sc->t[i + 1], ':') && !scan_in_list(t, scan_stmt_words)) {
			add_decl(sc, t, scope, 'l', t, t, 0);
			stmt = ++i + 1;
			continue;
		}
	use:
		add_use(sc, i, !scope[0] ? (t->directive ? macro_scope : sc->scopes[0]) : sc->scopes[sc->nscopes - 1]);
	}
	free(fn);
	while (sp)
		free(st[--sp].tag);   /* bodies left open at the end */
	free(st);
	alias_declare(sc, alias, nalias);
	free(alias);
}

/* ------------------------------------------------------------ token pasting */

/* A chain of pasted tokens in a function-like macro's body (`OP_ ## id`,
 * `id ## _t`): its macro's name, parameters and chain, as tokens of the
 * scan defining it. */
struct paste {
	const struct scan *sc;
	size_t name, p0, p1;   /* the name; the parameters' tokens, between its parentheses */
	size_t a, b;           /* the chain, first to last token */
	size_t end;            /* one past the macro's last token */
	size_t via;            /* 1 + the index of its scan among the changed files' scans, or 0 */
};

static int same_text(const struct tok *a, const struct tok *b)
{
	return a->len == b->len && !memcmp(a->s, b->s, a->len);
}

/* The index of parameter t among the tokens p0..p1 (separated by commas), or -1. */
static int param_index(const struct scan *sc, size_t p0, size_t p1, const struct tok *t)
{
	int n = 0;
	for (size_t k = p0; k < p1; k++) {
		if (scan_punct(&sc->t[k], ','))
			n++;
		else if (sc->t[k].kind == T_IDENT && same_text(&sc->t[k], t))
			return n;
	}
	return -1;
}

/* Does the directive go on from token k - 1 to token k (same line, or a
 * line ended with a backslash)? */
static int continues(const struct scan *sc, size_t k)
{
	const struct tok *a = &sc->t[k - 1], *b = &sc->t[k];
	if (!b->directive)
		return 0;
	if (a->line == b->line)
		return 1;
	for (const char *p = a->s + a->len; p < b->s; p++)
		if (*p == '\\')
			return 1;
	return 0;
}

/* Whether token k names a function-like macro being defined: an
 * identifier with its '(' right after it (`#define F(x)`, not `#define X (1)`). */
static int function_like(const struct scan *sc, size_t k)
{
	return k + 1 < sc->nt && sc->t[k].kind == T_IDENT && scan_punct(&sc->t[k + 1], '(') &&
	       sc->t[k + 1].s == sc->t[k].s + sc->t[k].len;
}

static int pasteable(const struct tok *t)
{
	return t->kind == T_IDENT || (t->kind == T_OTHER && isdigit((unsigned char)t->s[0]));
}

/* The token-pasting chains of sc's function-like macros, appended to *p. */
static size_t paste_chains(const struct scan *sc, struct paste **p, size_t n)
{
	for (size_t i = 0; i + 2 < sc->nt; i++) {
		const struct tok *t = &sc->t[i];
		if (!t->directive || !scan_tok_is(t, "define") || !function_like(sc, i + 1))
			continue;
		size_t close = i + 3;
		while (close < sc->nt && continues(sc, close) && !scan_punct(&sc->t[close], ')'))
			close++;
		if (close >= sc->nt || !scan_punct(&sc->t[close], ')'))
			continue;
		size_t end = close + 1;
		while (end < sc->nt && continues(sc, end))
			end++;
		for (size_t k = close + 1; k < end; k++) {
			if (!pasteable(&sc->t[k]) || !(k + 2 < end && scan_tok_is(&sc->t[k + 1], "##")))
				continue;
			size_t b = k;
			while (b + 2 < end && scan_tok_is(&sc->t[b + 1], "##") && pasteable(&sc->t[b + 2]))
				b += 2;
			int params = 0;
			for (size_t j = k; j <= b; j += 2)
				params |= param_index(sc, i + 3, close, &sc->t[j]) >= 0;
			if (b > k && params) {
				*p = xrealloc(*p, (n + 1) * sizeof(**p));
				(*p)[n++] = (struct paste){sc, i + 1, i + 3, close, k, b, end, 0};
			}
			k = b;
		}
		i = end - 1;
	}
	return n;
}

/* The name chain c makes of the call whose arguments' tokens start at
 * arg[j] and end before arg[j + 1] (one token each), or NULL. */
static char *paste_name(const struct paste *c, const struct scan *sc, const size_t *arg, size_t nargs)
{
	struct buf name = BUF_INIT;
	for (size_t k = c->a; k <= c->b; k += 2) {
		const struct tok *t = &c->sc->t[k];
		int j = param_index(c->sc, c->p0, c->p1, t);
		if (j < 0) {
			buf_add(&name, t->s, t->len);
			continue;
		}
		if ((size_t)j >= nargs || arg[j + 1] - arg[j] != 2 || !pasteable(&sc->t[arg[j]])) {
			buf_release(&name);
			return NULL;
		}
		buf_add(&name, sc->t[arg[j]].s, sc->t[arg[j]].len);
	}
	return buf_detach(&name);
}

/* The arguments of the call whose '(' is token open: arg[j] is where
 * argument j starts, arg[nargs] one past the ')' (one token each, at
 * least). Returns nargs, or -1 when the parentheses do not close. */
static long call_args(const struct scan *sc, size_t open, size_t **arg)
{
	size_t nargs = 0;
	int depth = 1;
	*arg = xrealloc(*arg, 2 * sizeof(**arg));
	(*arg)[0] = open + 1;
	for (size_t k = open + 1; k < sc->nt && depth > 0; k++) {
		if (scan_punct(&sc->t[k], '(') || scan_punct(&sc->t[k], '[') || scan_punct(&sc->t[k], '{'))
			depth++;
		else if (scan_punct(&sc->t[k], ')') || scan_punct(&sc->t[k], ']') || scan_punct(&sc->t[k], '}'))
			depth--;
		if ((depth == 1 && scan_punct(&sc->t[k], ',')) || depth == 0) {
			*arg = xrealloc(*arg, (nargs + 3) * sizeof(**arg));
			(*arg)[++nargs] = k + 1;   /* the next argument's start: after the comma */
		}
	}
	return depth ? -1 : (long)nargs;
}

/* Whether token i is a call's name: an identifier before '(' that is not
 * the name a #define defines. */
static int call_at(const struct scan *sc, size_t i)
{
	return i + 1 < sc->nt && sc->t[i].kind == T_IDENT && scan_punct(&sc->t[i + 1], '(') &&
	       !(i > 0 && sc->t[i].directive && scan_tok_is(&sc->t[i - 1], "define"));
}

/* The function-like #define whose body holds token i: its name's token,
 * and its parameters' tokens in p0..p1; SIZE_MAX when none. */
static size_t define_of(const struct scan *sc, size_t i, size_t *p0, size_t *p1)
{
	if (!sc->t[i].directive)
		return SIZE_MAX;
	size_t k = i;
	while (k > 0 && continues(sc, k))
		k--;
	if (k + 3 >= i || !scan_tok_is(&sc->t[k + 1], "define") || !function_like(sc, k + 2))
		return SIZE_MAX;
	*p0 = k + 4;
	for (*p1 = *p0; *p1 < i && !scan_punct(&sc->t[*p1], ')'); ++*p1)
		;
	return *p1 < i ? k + 2 : SIZE_MAX;
}

/* A pasting macro passed to another macro (`MAP(GEN)`, where `#define
 * MAP(XX) XX(OK, "success") ...`): within that macro's body, the calls of
 * the parameter it is passed as are its calls. */
struct pass {
	const struct tok *macro, *arg;   /* the macro called; the pasting macro passed */
	size_t index;                    /* as its argument number index */
};

static int pastes(const struct paste *p, size_t np, const struct tok *t)
{
	for (size_t c = 0; c < np; c++)
		if (same_text(&p[c].sc->t[p[c].name], t))
			return 1;
	return 0;
}

/* The passes of pasting macros (p) to other macros in sc, appended to *out. */
static size_t passes_of(const struct scan *sc, const struct paste *p, size_t np, struct pass **out, size_t n)
{
	size_t *arg = NULL;
	for (size_t i = 0; i < sc->nt; i++) {
		long nargs = call_at(sc, i) ? call_args(sc, i + 1, &arg) : -1;
		for (long j = 0; j < nargs; j++)
			if (arg[j + 1] - arg[j] == 2 && sc->t[arg[j]].kind == T_IDENT && pastes(p, np, &sc->t[arg[j]])) {
				*out = xrealloc(*out, (n + 1) * sizeof(**out));
				(*out)[n++] = (struct pass){&sc->t[i], &sc->t[arg[j]], (size_t)j};
			}
	}
	free(arg);
	return n;
}

/* The pasting macros a call at token i of sc stands for: its own name,
 * and, when it calls a parameter of the #define around it, the macros
 * passed as that parameter. n of them, in *callee. */
static size_t callees(const struct scan *sc, size_t i, const struct pass *ps, size_t nps, const struct tok ***callee)
{
	size_t n = 0, p0, p1;
	*callee = xrealloc(*callee, (nps + 1) * sizeof(**callee));
	(*callee)[n++] = &sc->t[i];
	size_t m = define_of(sc, i, &p0, &p1);
	int j = m == SIZE_MAX ? -1 : param_index(sc, p0, p1, &sc->t[i]);
	for (size_t k = 0; j >= 0 && k < nps; k++)
		if (ps[k].index == (size_t)j && same_text(ps[k].macro, &sc->t[m]))
			(*callee)[n++] = ps[k].arg;
	return n;
}

/* A macro whose body declares its parameter (`#define PARAMS(p)
 * png_warning_parameters p;`): its name and the parameter's index. */
struct declarer {
	const struct tok *name;
	int index;
};

/* The function whose body holds line l of sc, or "" (its scope). */
static const char *body_at(const struct scan *sc, int l)
{
	for (size_t b = 0; b < sc->nb; b++)
		if (sc->b[b].first <= l && l <= sc->b[b].last)
			return sc->b[b].name;
	return "";
}

/* Declare, in every scan, the names calls of macros that declare their
 * parameter are passed: `PARAMS(p)` in a function declares its local p. */
static void declarers_declare(struct scan *scans, size_t nscans)
{
	struct declarer *dc = NULL;
	size_t ndc = 0, p0, p1;
	for (size_t f = 0; f < nscans; f++) {
		const struct scan *sc = &scans[f];
		for (size_t k = 0; k < sc->nd; k++) {
			const struct decl *d = &sc->d[k];
			size_t m = strcmp(d->scope, macro_scope) ? SIZE_MAX : define_of(sc, d->tok, &p0, &p1);
			int j = m == SIZE_MAX ? -1 : param_index(sc, p0, p1, &sc->t[d->tok]);
			if (j >= 0) {
				dc = xrealloc(dc, (ndc + 1) * sizeof(*dc));
				dc[ndc++] = (struct declarer){&sc->t[m], j};
			}
		}
	}
	size_t *arg = NULL;
	for (size_t f = 0; ndc && f < nscans; f++) {
		struct scan *sc = &scans[f];
		for (size_t i = 0; i + 1 < sc->nt; i++) {
			if (sc->t[i].directive || !call_at(sc, i))
				continue;
			size_t m = 0;
			while (m < ndc && !same_text(dc[m].name, &sc->t[i]))
				m++;
			if (m == ndc)
				continue;
			long nargs = call_args(sc, i + 1, &arg);
			if (nargs <= dc[m].index || arg[dc[m].index + 1] != arg[dc[m].index] + 2 ||
			    sc->t[arg[dc[m].index]].kind != T_IDENT)
				continue;
			const struct tok *t = &sc->t[arg[dc[m].index]];
			const char *scope = body_at(sc, t->line);
			add_decl(sc, t, scope, scope[0] ? 'l' : 'g', &sc->t[i], &sc->t[arg[nargs] - 1], 0);
		}
	}
	free(arg);
	free(dc);
}

/* The statement of a macro's body holding chain c (`static void
 * emit_ ## type ## _start (struct ctx *ctx, bool first);`, `OP_ ## id,`):
 * tokens s0 to s1 (exclusive), from after the `;`, `{`, `}` or top-level
 * `,` before it to its own `;` or `,` or the body's end. */
static void paste_statement(const struct paste *c, size_t *s0, size_t *s1)
{
	const struct tok *t = c->sc->t;
	size_t body = c->p1 + 1;
	int depth = 0;
	size_t a = c->a;
	while (a > body) {
		const struct tok *x = &t[a - 1];
		depth += scan_punct(x, ')') - scan_punct(x, '(');
		if (scan_punct(x, ';') || scan_punct(x, '{') || scan_punct(x, '}') || (depth == 0 && scan_punct(x, ',')) ||
		    depth < 0)
			break;
		a--;
	}
	depth = 0;
	size_t b = c->b + 1;
	while (b < c->end) {
		const struct tok *x = &t[b];
		depth += scan_punct(x, '(') - scan_punct(x, ')');
		b++;
		if (scan_punct(x, ';') || scan_punct(x, '{') || (depth == 0 && scan_punct(x, ',')) || depth < 0)
			break;
	}
	*s0 = a;
	*s1 = b;
}

/* A declaration's shape whose declarator is a call of a pasting macro
 * (`static void FN ( Build ) ( int a )`), with name in place of the call
 * (`static void BuildLiteral ( int a )`), into b. */
static void made_shape(const char *shape, const struct tok *call, const char *name, struct buf *b)
{
	size_t n = call->len, at = 0, len = strlen(shape);
	/* The call: its name at the start or after a space, then its group. */
	while (at + n + 3 <= len && !((at == 0 || shape[at - 1] == ' ') && !strncmp(shape + at, call->s, n) &&
				      !strncmp(shape + at + n, " ( ", 3)))
		at++;
	if (at + n + 3 > len) {
		buf_adds(b, shape);
		return;
	}
	buf_add(b, shape, at);
	buf_adds(b, name);
	const char *q = shape + at + n + 1;   /* its '(' */
	for (int d = 0; *q; q++) {
		d += (*q == '(') - (*q == ')');
		if (d == 0)
			break;
	}
	buf_adds(b, *q ? q + 1 : "");
}

/* Names made by token pasting: a call of a macro whose body pastes a
 * parameter to other text (`#define DEF(id, size) REOP_ ## id,` over the
 * `DEF(drop, 1)` lines of a header) declares, at the call, the name it
 * makes (REOP_drop). So does a call, in a macro's body, of the parameter
 * a pasting macro is passed as (the X-macro list `#define MAP(XX) XX(OK,
 * "success") ...`, expanded as `MAP(GEN)` with `#define GEN(n, s) E_ ##
 * n,`). The macro may be defined in another changed file; a name made by
 * a definition the call never meets is a name nothing uses, so taking
 * every definition of the macro is harmless. */
void scan_paste_declare(struct scan *scans, size_t nscans, const struct deps_source *src, size_t nsrc)
{
	struct paste *p = NULL;
	size_t np = 0;
	declarers_declare(scans, nscans);
	for (size_t f = 0; f < nscans; f++) {
		size_t n0 = np;
		np = paste_chains(&scans[f], &p, np);
		for (size_t c = n0; c < np; c++)
			p[c].via = f + 1;
	}
	struct scan *ctx = xcalloc(nsrc + 1, sizeof(*ctx));
	for (size_t f = 0; f < nsrc; f++) {
		lex(src[f].data, src[f].len, &ctx[f]);
		np = paste_chains(&ctx[f], &p, np);
	}
	struct pass *ps = NULL;
	size_t nps = 0;
	for (size_t f = 0; np && f < nscans; f++)
		nps = passes_of(&scans[f], p, np, &ps, nps);
	for (size_t f = 0; np && f < nsrc; f++)
		nps = passes_of(&ctx[f], p, np, &ps, nps);
	size_t *arg = NULL;
	const struct tok **callee = NULL;
	for (size_t f = 0; np && f < nscans; f++) {
		struct scan *sc = &scans[f];
		size_t nd = sc->nd;
		for (size_t i = 0; i + 1 < sc->nt; i++) {
			if (!call_at(sc, i))
				continue;
			size_t ncallee = callees(sc, i, ps, nps, &callee), m = 0;
			while (m < ncallee && !pastes(p, np, callee[m]))
				m++;
			if (m == ncallee)
				continue;
			long nargs = call_args(sc, i + 1, &arg);
			if (nargs < 0)
				break;
			size_t k = arg[nargs];   /* past the call */
			/* The macro's definitions in this revision first (a changed
			 * file's, on this side, or an unchanged file's), then the other's. */
			for (int pass = 0; pass < 2; pass++)
				for (size_t c = 0; c < np; c++) {
					int here = !p[c].via || (p[c].via - 1) % 2 == f % 2;
					if (here == pass)
						continue;
					for (m = 0; m < ncallee && !same_text(&p[c].sc->t[p[c].name], callee[m]); m++)
						;
					if (m == ncallee)
						continue;
					char *name = paste_name(&p[c], sc, arg, (size_t)nargs);
					int seen = 0;
					for (size_t j = nd; name && j < sc->nd && !seen; j++)
						seen = sc->d[j].tok >= i && sc->d[j].tok < k && !strcmp(sc->d[j].name, name);
					if (name && !seen) {
						/* Its shape is the macro's text: a new body (other
						 * parameters for every function it declares) is a
						 * new declaration of each name. */
						size_t s0, s1;
						paste_statement(&p[c], &s0, &s1);
						struct buf shape = BUF_INIT;
						buf_adds(&shape, name);
						for (size_t j = s0; j < s1; j++) {
							buf_addc(&shape, ' ');
							buf_add(&shape, p[c].sc->t[j].s, p[c].sc->t[j].len);
						}
						/* The call a declarator (a template header's
						 * `static void FN(Build)(...)`): its declaration, the
						 * made name in place of the call, parameters changed
						 * with it. */
						for (size_t j = 0; j < nd; j++)
							if (sc->d[j].tok == i && sc->d[j].cls == 'g') {
								buf_reset(&shape);
								made_shape(sc->d[j].shape, &sc->t[i], name, &shape);
								break;
							}
						sc->d = xrealloc(sc->d, (sc->nd + 1) * sizeof(*sc->d));
						sc->d[sc->nd++] = (struct decl){name, xstrdup(""), buf_detach(&shape), 'g',
										sc->t[i].line, sc->t[k - 1].line, i, p[c].via,
										p[c].sc->t[s0].line, p[c].sc->t[s1 - 1].line, 0};
					} else {
						free(name);
					}
				}
		}
	}
	free(callee);
	free(arg);
	free(ps);
	free(p);
	for (size_t f = 0; f < nsrc; f++) {
		free(ctx[f].t);
		free(ctx[f].cm);
	}
	free(ctx);
}

void scan_release(struct scan *sc)
{
	for (size_t i = 0; i < sc->nd; i++) {
		free(sc->d[i].name);
		free(sc->d[i].scope);
		free(sc->d[i].shape);
	}
	for (size_t i = 0; i < sc->nscopes; i++)
		free(sc->scopes[i]);
	free(sc->scopes);
	free(sc->b);
	free(sc->d);
	free(sc->u);
	free(sc->t);
	free(sc->cm);
}

/* Whether text (one side of a change, comments out) only declares: each
 * statement a prototype, a variable or field without an initializer, or a
 * struct, union or typedef without values; nothing that runs. */
int scan_declares_only(const char *t, struct buf *names)
{
	static const char *const stmt[] = {"return", "if", "while", "for", "switch", "do", "else", "case", "goto",
					   "break", "continue", "default", NULL};
	size_t words = 0;
	int depth = 0, paren = 0, braces = 0, tag = 0, first = 1;
	const char *last = NULL, *named = NULL;   /* the last word at statement level; the one before its '(' */
	size_t nlast = 0, nnamed = 0;
	for (const char *p = t; *p; p++) {
		if (*p == '#' || *p == '"' || *p == '\'' || *p == '=')
			return 0;   /* a directive, a literal, an initializer or a value */
		if (*p == '{') {
			if (!tag || paren)
				return 0;   /* a body, a compound statement */
			depth++;
			braces = 1;
		} else if (*p == '}') {
			depth--;
		} else if (*p == '(') {
			if (depth == 0 && !paren && words < 2)
				return 0;   /* a call: no type before its name */
			if (depth == 0 && !paren && !named) {
				named = last;
				nnamed = nlast;
			}
			paren++;
		} else if (*p == ')') {
			paren--;
		} else if (*p == ';' && depth == 0 && !paren) {
			if (words < 2 && !braces)
				return 0;   /* `x;`, `f(y);` */
			const char *nm = named ? named : last;
			if (nm) {
				buf_add(names, nm, named ? nnamed : nlast);
				buf_addc(names, '\0');
			}
			named = last = NULL;
			words = 0;
			tag = braces = 0;
			first = 1;
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			const char *e = p;
			while (isalnum((unsigned char)*e) || *e == '_')
				e++;
			size_t n = (size_t)(e - p);
			for (size_t k = 0; first && stmt[k]; k++)
				if (strlen(stmt[k]) == n && !strncmp(p, stmt[k], n))
					return 0;
			if ((n == 6 && (!strncmp(p, "struct", 6))) || (n == 5 && !strncmp(p, "union", 5)) ||
			    (n == 7 && !strncmp(p, "typedef", 7)))
				tag = 1;
			if (depth == 0 && !paren) {
				words++;
				last = p;
				nlast = n;
			}
			first = 0;
			p = e - 1;
		} else if (*p == '*' && depth == 0 && !paren) {
			words += words > 0;   /* `char *name` */
		}
	}
	return depth == 0 && paren == 0 && words == 0 && !tag;   /* every statement ended */
}
