/* scan — the lexical pass deps reads C with: one file's tokens (with the
 * preprocessor conditional each is compiled in), the declarations it makes
 * (globals, fields, locals of each function, parameters), the names it
 * uses, its function bodies (K&R definitions too), and the names macro
 * calls make by token pasting, X-macro lists included. No preprocessing,
 * no parsing beyond what tells a declaration from a use. */
#ifndef CULPRIT_SCAN_H
#define CULPRIT_SCAN_H

#include <stddef.h>

struct deps_source;

enum tk { T_IDENT, T_PUNCT, T_OTHER };

struct tok {
	enum tk kind;
	const char *s;
	size_t len;
	int line;
	int member;        /* an identifier after '.' or '->' */
	int directive;     /* inside a preprocessor line */
	long guard;        /* the innermost #if, #ifdef, #ifndef, #else or #elif whose branch holds it, or -1 */
};

struct decl {
	char *name, *scope, *shape;   /* scope: "" for the file, else the function */
	char cls;                     /* 'g' global name (function, variable, type, macro, enumerator), 'f' field, 'l' local */
	int first, last;              /* lines of its declarator */
	size_t tok;                   /* its name's token */
	/* A name a macro call makes by pasting: 1 + the index, among the
	 * scans passed to scan_paste_declare, of the scan defining the macro
	 * (0: none, or an unchanged file), and the lines of its #define there. */
	size_t via;
	int via_first, via_last;
	int block_last;               /* a local: the last line of the block declaring it (0: the function's) */
};

struct use {
	const char *s;
	size_t len;
	int line, member;
	size_t tok;
	const char *scope;            /* the function it is in, "" or a macro body's (owned by the scan's scopes, or static) */
};

/* A function definition: its name (one of the scan's scopes) and lines,
 * from its declaration's first line to its closing brace. */
struct body {
	const char *name;
	int first, last;
};

/* Lines first to last (first < last): a block comment over several lines. */
struct span {
	int first, last;
};

struct scan {
	struct tok *t;
	size_t nt;
	struct span *cm;
	size_t ncm;
	struct decl *d;
	size_t nd;
	struct use *u;
	size_t nu;
	char **scopes;
	size_t nscopes;
	struct body *b;
	size_t nb;
};

/* Scan data (len bytes, NULL for a file absent) into *sc; release it. */
void scan_file(const char *data, size_t len, struct scan *sc);
void scan_release(struct scan *sc);
/* Declare in scans the names their macro calls make by token pasting
 * (`DEF(id)` with `#define DEF(x) OP_ ## x`, an X-macro list passed a
 * pasting macro), from the pasting macros of the scans and of the nsrc
 * unchanged sources. */
void scan_paste_declare(struct scan *scans, size_t nscans, const struct deps_source *src, size_t nsrc);

/* Token tests: t's text is s; t is the punctuator c; t is one of the
 * NULL-ended words l; t reads as a type (a type word, or a name ending in
 * _t). */
int scan_tok_is(const struct tok *t, const char *s);
int scan_punct(const struct tok *t, char c);
int scan_in_list(const struct tok *t, const char *const *l);
int scan_typeish(const struct tok *t);
/* Whether text[0, n) holds word (k bytes) as an identifier; nocase: in any case. */
int scan_holds_word(const char *text, size_t n, const char *word, size_t k, int nocase);
/* The preprocessor conditional at token k read as a bracket: 'o' opens
 * (#if, #ifdef, #ifndef), 'c' closes (#endif), 'm' both (#else, #elif);
 * 0 for any other token. */
char scan_cond(const struct scan *sc, size_t k);
/* C's type and statement keywords, NULL-ended. */
extern const char *const scan_type_words[], *const scan_stmt_words[];
/* Whether text (one side of a change, without comments) only declares:
 * each statement a prototype, a variable or field without an initializer,
 * or a struct, union or typedef without values; nothing that runs. The
 * names it declares are appended to *names, NUL-separated. */
struct buf;
int scan_declares_only(const char *text, struct buf *names);

#endif
