/* tmeta — the static side of a trace: the metadata records core/instr
 * writes (statements, functions, and the read, write, branch, return, call
 * and parameter sites with their expression trees), loaded into a table
 * indexed by id. */
#ifndef CULPRIT_TMETA_H
#define CULPRIT_TMETA_H

#include <stddef.h>
#include "core/util.h"

struct mtype {
	char cls;   /* i u b p f v s (see instr.h) */
	int bits;
};

struct mnode {
	char op;            /* k r c w u b q x o */
	char sym[4];        /* operator of u and b */
	struct mtype t;
	unsigned long long v;   /* k: the constant; r c w: the site id */
	struct mnode *k[3];
};

struct msite {
	char kind;          /* 0 none, S N P R W B T C */
	unsigned sid;       /* the statement it belongs to (S: itself) */
	unsigned fid;       /* S, P, T: the function */
	int file, line;     /* S, N */
	unsigned s, e;      /* S: byte extent */
	int idx;            /* P: parameter index */
	struct mtype t;
	char *name;         /* R W P: the variable; N: the function; C: the callee */
	char *text;         /* S, N: the source line; W: the lvalue as written */
	char *kindname;     /* S, B: if while for do switch cond assert, expr decl ... */
	struct mnode *tree; /* W B T */
	char *then_names, *else_names;   /* B: comma-separated, "" none */
	int jumps_then, jumps_else;      /* B (if): the arm may return, goto, break or continue out */
	char *out;          /* C: output call name or NULL */
	int nargs;
	struct mnode **args;
	char *check;        /* R W: "nonnull" or "bounds:N" */
	struct mnode *check_tree;
	char *show;         /* W, N (its return): "char", or "enum" then "\tNAME=V,..." (Y records); NULL: a number */
};

struct tmeta {
	char **files;
	size_t nfiles;
	struct msite *site;
	unsigned nids;
	struct mnode **pool;   /* every node, for release */
	size_t npool;
};

int tmeta_load(struct tmeta *m, const char *path, struct cerr *e);
int tmeta_parse(struct tmeta *m, const char *text, size_t len, struct cerr *e);
void tmeta_release(struct tmeta *m);
/* The site with this id, or NULL. */
const struct msite *tmeta_site(const struct tmeta *m, unsigned id);
/* The statement a site belongs to, or NULL. */
const struct msite *tmeta_stmt(const struct tmeta *m, unsigned id);
/* Whether name is in a comma-separated list. */
int tmeta_names_has(const char *list, const char *name);
/* A value of site s's type for display, into b: 52 as '4' for char, an
 * enum by its constant's name, otherwise the number (signed if is_signed). */
void tmeta_show_value(const struct msite *s, unsigned long long v, int is_signed, struct buf *b);
/* A tree as text, for display: (b + i32 (r 4 i32) (k 1 i32)). */
void tmeta_tree_str(const struct mnode *n, struct buf *b);

#endif
