#include "core/semantic/instr.h"
#include "core/semantic/csrc.h"

#include "core/semantic/clang_load.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#include "core/semantic/trace_rt.inc"

const char *instr_runtime(void)
{
	return trace_rt;
}

/* ---------------------------------------------------------------- the AST */

struct ty {
	char cls;   /* i signed, u unsigned, b _Bool, p pointer, f floating, v void, a array, s other */
	int bits;
	long long count;  /* arrays: elements (0 unknown) */
};

struct node {
	CXCursor c;
	enum CXCursorKind k;
	unsigned s, e;    /* byte offsets in the file */
	int line;
	struct ty t;
	int mac;          /* 1: a macro's expansion (extent = the call), 2: inside a macro's arguments */
	struct mrange *mr;
	struct node **kid;
	int nk;
	struct node *up;
	int depth;
	char op[4];       /* operator spelling for operators */
	unsigned opoff;
	int postfix, arrow;
	unsigned rid, wid, oldrid, cid, vid; /* sites, when instrumented */
};

struct tok {
	unsigned off, len;
	CXTokenKind kind;
};

struct edit {
	unsigned off, del;
	int phase;        /* 0 close, 1 open */
	int depth;
	unsigned seq;
	char *text;
};

struct mrange {
	unsigned s, e;
	char *name;
	int semi;   /* its body has a `;` of its own: never inside an expression we write */
};

struct ctx {
	CXTranslationUnit tu;
	CXFile file;
	const char *src;
	size_t len;
	int fidx;
	struct tok *toks;
	size_t ntoks;
	struct mrange *mr;
	size_t nmr;
	struct edit *ed;
	size_t ned, cap;
	unsigned seq;
	unsigned *next;
	struct buf *meta;
	struct instr_stats *st;
	unsigned fid;      /* current function */
	unsigned sid;      /* current statement */
	struct node **all;
	size_t nall;
	int functions_pass;
	char *rettype;     /* current function's result type as spelled (scalars), or NULL */
};

static void ty_of(CXType t0, struct ty *t)
{
	CXType t1 = clang_getCanonicalType(t0);
	t->bits = 0;
	t->count = 0;
	/* clang_Type_getSizeOf crashes on some types (unexposed builtins): ask
	 * it only about the kinds culprit models. */
	switch (t1.kind) {
	case CXType_Bool: case CXType_Char_S: case CXType_SChar: case CXType_Short: case CXType_Int:
	case CXType_Long: case CXType_LongLong: case CXType_WChar: case CXType_Char_U: case CXType_UChar:
	case CXType_UShort: case CXType_UInt: case CXType_ULong: case CXType_ULongLong: case CXType_Char16:
	case CXType_Char32: case CXType_Enum: case CXType_Pointer: case CXType_Float: case CXType_Double:
	case CXType_LongDouble: {
		long long size = clang_Type_getSizeOf(t1);
		t->bits = size > 0 ? (int)size * 8 : 0;
		break;
	}
	default:
		break;
	}
	switch (t1.kind) {
	case CXType_Bool:
		t->cls = 'b';
		break;
	case CXType_Char_S: case CXType_SChar: case CXType_Short: case CXType_Int: case CXType_Long:
	case CXType_LongLong: case CXType_WChar:
		t->cls = 'i';
		break;
	case CXType_Char_U: case CXType_UChar: case CXType_UShort: case CXType_UInt: case CXType_ULong:
	case CXType_ULongLong: case CXType_Char16: case CXType_Char32:
		t->cls = 'u';
		break;
	case CXType_Enum: {
		CXType it = clang_getEnumDeclIntegerType(clang_getTypeDeclaration(t1));
		struct ty u;
		ty_of(it, &u);
		t->cls = u.cls == 'u' ? 'u' : 'i';
		break;
	}
	case CXType_Pointer:
		t->cls = 'p';
		break;
	case CXType_Float: case CXType_Double: case CXType_LongDouble:
		t->cls = 'f';
		break;
	case CXType_Void:
		t->cls = 'v';
		t->bits = 0;
		break;
	case CXType_ConstantArray:
		t->cls = 'a';
		t->count = clang_getArraySize(t1);
		break;
	default:
		t->cls = 's';
		break;
	}
	if ((t->cls == 'i' || t->cls == 'u' || t->cls == 'b' || t->cls == 'p') && (t->bits <= 0 || t->bits > 64))
		t->cls = 's';
}

static int ty_int(const struct ty *t) { return t->cls == 'i' || t->cls == 'u' || t->cls == 'b'; }
static int ty_scalar(const struct ty *t) { return ty_int(t) || t->cls == 'p'; }
/* A value culprit records: a scalar, or a float or double (as its bits). */
static int ty_val(const struct ty *t) { return ty_scalar(t) || (t->cls == 'f' && (t->bits == 32 || t->bits == 64)); }

static void ty_str(const struct ty *t, struct buf *b)
{
	if (t->cls == 'a' || t->cls == 's')
		buf_adds(b, "s0");
	else if (t->cls == 'v')
		buf_adds(b, "v0");
	else
		buf_addf(b, "%c%d", t->cls, t->bits);
}

/* How a value of type t written at site id (or a parameter) shows: a Y record
 * for plain char ("char": as '4') and for enums ("enum" and the constants:
 * by name). Other types need none. Only display reads it. */
struct enum_names {
	struct buf *b;
	int n;
};

static enum CXChildVisitResult enum_constant(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct enum_names *en = data;
	if (clang_getCursorKind(c) != CXCursor_EnumConstantDecl || en->n >= 256)
		return CXChildVisit_Continue;
	CXString nm = clang_getCursorSpelling(c);
	buf_addf(en->b, "%s%s=%lld", en->n++ ? "," : "", clang_getCString(nm), clang_getEnumConstantDeclValue(c));
	clang_disposeString(nm);
	return CXChildVisit_Continue;
}

static void show_type(struct ctx *x, unsigned id, CXType t)
{
	CXType c = clang_getCanonicalType(t);
	if (c.kind == CXType_Char_S || c.kind == CXType_Char_U) {
		buf_addf(x->meta, "Y\t%u\tchar\n", id);
	} else if (c.kind == CXType_Enum) {
		struct buf names = BUF_INIT;
		struct enum_names en = {&names, 0};
		clang_visitChildren(clang_getTypeDeclaration(c), enum_constant, &en);
		if (en.n)
			buf_addf(x->meta, "Y\t%u\tenum\t%s\n", id, names.s);
		buf_release(&names);
	}
}

static unsigned offset_of(CXSourceLocation l, int *line)
{
	unsigned off, ln;
	clang_getFileLocation(l, NULL, &ln, NULL, &off);
	if (line)
		*line = (int)ln;
	return off;
}

/* Whether a declaration's name is a macro's expansion (`#define unused
 * unused __attribute__((unused))`, a parameter named unused): its name
 * written again would expand. */
static int named_by_macro(struct ctx *x, const struct node *n, const char *name)
{
	for (size_t i = 0; i < x->nmr; i++)
		if (x->mr[i].s >= n->s && x->mr[i].e <= n->e && x->mr[i].name && !strcmp(x->mr[i].name, name))
			return 1;
	return 0;
}

/* The innermost macro expansion holding [s, e), or NULL. */
static struct mrange *macro_at(struct ctx *x, unsigned s, unsigned e)
{
	struct mrange *best = NULL;
	for (size_t i = 0; i < x->nmr; i++)
		if (s >= x->mr[i].s && e <= x->mr[i].e && s < x->mr[i].e &&
		    (!best || x->mr[i].e - x->mr[i].s < best->e - best->s))
			best = &x->mr[i];
	return best;
}

/* Whether [s, e) begins or ends strictly inside a macro expansion it does
 * not cover: text that is partly a macro's, never to be rewritten. */
static int straddles(struct ctx *x, unsigned s, unsigned e)
{
	for (size_t i = 0; i < x->nmr; i++) {
		const struct mrange *m = &x->mr[i];
		int s_in = s > m->s && s < m->e, e_in = e > m->s && e < m->e;
		if (s_in != e_in || (s_in && e_in && (s < m->s || e > m->e)))
			return 1;
	}
	return 0;
}

/* Whether [s, e) holds the call of a macro whose body ends a statement
 * (`#define BACKREFS_P(br) (...);`): the expression it is in cannot be
 * wrapped, its `;` would end up inside our parentheses. */
static int holds_semi_macro(struct ctx *x, unsigned s, unsigned e)
{
	for (size_t i = 0; i < x->nmr; i++)
		if (x->mr[i].semi && x->mr[i].s >= s && x->mr[i].e <= e && x->mr[i].s < e)
			return 1;
	return 0;
}

/* Whether a macro's definition has a `;` outside parentheses, brackets
 * and braces (a statement's end, not a for's or a block's). */
static int semi_body(CXTranslationUnit tu, CXCursor def)
{
	CXToken *t;
	unsigned n, depth = 0;
	int semi = 0;
	clang_tokenize(tu, clang_getCursorExtent(def), &t, &n);
	for (unsigned i = 1; i < n && !semi; i++) {   /* the first token is the name */
		if (clang_getTokenKind(t[i]) != CXToken_Punctuation)
			continue;
		CXString sp = clang_getTokenSpelling(tu, t[i]);
		const char *p = clang_getCString(sp);
		if (p[0] && !p[1] && strchr("([{", p[0]))
			depth++;
		else if (p[0] && !p[1] && strchr(")]}", p[0]) && depth)
			depth--;
		else if (!strcmp(p, ";") && !depth)
			semi = 1;
		clang_disposeString(sp);
	}
	clang_disposeTokens(tu, t, n);
	return semi;
}

static size_t tok_at(struct ctx *x, unsigned off)   /* first token at or after off */
{
	size_t lo = 0, hi = x->ntoks;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (x->toks[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int tok_is(struct ctx *x, size_t i, const char *s)
{
	size_t n = strlen(s);
	return i < x->ntoks && x->toks[i].len == n && !memcmp(x->src + x->toks[i].off, s, n);
}

struct build {
	struct ctx *x;
	struct node *up;
};

/* A node whose children do not fit the text (they overlap, or fill a
 * block's braces): its structure comes from a macro's expansion, although
 * no recorded expansion holds it (an object-like macro naming a
 * function-like one). */
static int macro_shaped(const struct node *n)
{
	if (n->k == CXCursor_CompoundStmt && n->nk && (n->kid[0]->s <= n->s || n->kid[n->nk - 1]->e >= n->e))
		return 1;
	if (!clang_isStatement(n->k) && !clang_isExpression(n->k))
		return 0;
	if (n->k == CXCursor_DeclStmt)
		return 0;   /* int a, b: both declarators start at the type */
	for (int i = 1; i < n->nk; i++)
		if (n->kid[i]->s < n->kid[i - 1]->e && n->kid[i - 1]->k != CXCursor_TypeRef)
			return 1;
	return 0;
}

static struct node *build(struct ctx *x, CXCursor c, struct node *up);

static enum CXChildVisitResult build_kid(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	struct build *b = d;
	struct node *k = build(b->x, c, b->up);
	b->up->kid = xrealloc(b->up->kid, (size_t)(b->up->nk + 1) * sizeof(*b->up->kid));
	b->up->kid[b->up->nk++] = k;
	return CXChildVisit_Continue;
}

static struct node *build(struct ctx *x, CXCursor c, struct node *up)
{
	struct node *n = xcalloc(1, sizeof(*n));
	n->c = c;
	n->k = clang_getCursorKind(c);
	CXSourceRange r = clang_getCursorExtent(c);
	n->s = offset_of(clang_getRangeStart(r), &n->line);
	n->e = offset_of(clang_getRangeEnd(r), NULL);
	if (n->e < n->s || n->e > x->len)
		n->e = n->s;
	/* A range whose last token is a macro call ends where the call
	 * begins (`p != NULL`): it ends where the call ends. */
	unsigned end = n->e;
	for (size_t i = 0; i < x->nmr; i++)
		if (x->mr[i].s == n->e && x->mr[i].e > end)
			end = x->mr[i].e;
	n->e = end;
	ty_of(clang_getCursorType(c), &n->t);
	n->up = up;
	n->depth = up ? up->depth + 1 : 0;
	n->mr = macro_at(x, n->s, n->e);
	n->mac = !n->mr ? 0 : n->mr->s == n->s && n->mr->e == n->e ? 1 : 2;
	if (!n->mac && straddles(x, n->s, n->e))
		n->mac = 3;
	if (clang_isExpression(n->k) && holds_semi_macro(x, n->s, n->e))
		n->mac = 3;
	x->all = xrealloc(x->all, (x->nall + 1) * sizeof(*x->all));
	x->all[x->nall++] = n;
	struct build b = {x, n};
	clang_visitChildren(c, build_kid, &b);
	if (!n->mac && macro_shaped(n))
		n->mac = 3;
	/* Operators: the token after the left operand, or the first/last token. */
	if (n->k == CXCursor_BinaryOperator || n->k == CXCursor_CompoundAssignOperator) {
		if (n->nk == 2 && n->mac != 1) {
			size_t i = tok_at(x, n->kid[0]->e);
			if (i < x->ntoks && x->toks[i].len < sizeof(n->op)) {
				memcpy(n->op, x->src + x->toks[i].off, x->toks[i].len);
				n->opoff = x->toks[i].off;
			}
		}
	} else if (n->k == CXCursor_UnaryOperator && n->nk == 1 && n->mac != 1) {
		size_t i = tok_at(x, n->s);
		if (i < x->ntoks && x->toks[i].off == n->s && x->toks[i].kind == CXToken_Punctuation &&
		    n->kid[0]->s > n->s) {
			if (x->toks[i].len < sizeof(n->op))
				memcpy(n->op, x->src + x->toks[i].off, x->toks[i].len);
			n->opoff = n->s;
		} else {
			i = tok_at(x, n->kid[0]->e);
			if (i < x->ntoks && x->toks[i].len < sizeof(n->op)) {
				memcpy(n->op, x->src + x->toks[i].off, x->toks[i].len);
				n->opoff = x->toks[i].off;
				n->postfix = 1;
			}
		}
	} else if (n->k == CXCursor_MemberRefExpr && n->nk >= 1) {
		size_t i = tok_at(x, n->kid[0]->e);
		n->arrow = tok_is(x, i, "->");
	}
	return n;
}

static void node_free(struct ctx *x)
{
	for (size_t i = 0; i < x->nall; i++) {
		free(x->all[i]->kid);
		free(x->all[i]);
	}
	free(x->all);
	x->all = NULL;
	x->nall = 0;
}

/* ---------------------------------------------------------------- edits */

static void edit(struct ctx *x, unsigned off, unsigned del, int phase, int depth, char *text)
{
	if (x->ned == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 256;
		x->ed = xrealloc(x->ed, x->cap * sizeof(*x->ed));
	}
	x->ed[x->ned++] = (struct edit){off, del, phase, depth, x->seq++, text};
}

static void open_(struct ctx *x, unsigned off, int depth, char *text) { edit(x, off, 0, 1, depth, text); }
static void close_(struct ctx *x, unsigned off, int depth, char *text) { edit(x, off, 0, 0, depth, text); }

static int edit_cmp(const void *a, const void *b)
{
	const struct edit *p = a, *q = b;
	if (p->off != q->off)
		return p->off < q->off ? -1 : 1;
	if (p->phase != q->phase)
		return p->phase - q->phase;
	if (p->depth != q->depth)
		return p->phase ? p->depth - q->depth : q->depth - p->depth;
	return p->phase ? (p->seq < q->seq ? -1 : 1) : (p->seq < q->seq ? 1 : -1);
}

static unsigned new_id(struct ctx *x) { return (*x->next)++; }

/* ---------------------------------------------------------------- helpers */

static struct node *strip(struct node *n)   /* through parentheses */
{
	while (n && n->k == CXCursor_ParenExpr && n->nk == 1)
		n = n->kid[0];
	return n;
}

static int is_var_ref(struct node *n, int *addressable)
{
	if (n->k != CXCursor_DeclRefExpr)
		return 0;
	CXCursor d = clang_getCursorReferenced(n->c);
	enum CXCursorKind k = clang_getCursorKind(d);
	if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
		return 0;
	*addressable = clang_Cursor_getStorageClass(d) != CX_SC_Register;
	return 1;
}

/* An lvalue whose address can be taken. */
static int lvalue(struct node *n)
{
	n = strip(n);
	int addr = 0;
	if (!n || n->mac)
		return 0;
	switch (n->k) {
	case CXCursor_DeclRefExpr:
		return is_var_ref(n, &addr) && addr;
	case CXCursor_ArraySubscriptExpr:
		return 1;
	case CXCursor_UnaryOperator:
		return !strcmp(n->op, "*");
	case CXCursor_MemberRefExpr: {
		CXCursor f = clang_getCursorReferenced(n->c);
		if (clang_Cursor_isBitField(f))
			return 0;
		return n->nk >= 1 && (n->arrow || lvalue(n->kid[0]));
	}
	default:
		return 0;
	}
}

static void base_name(struct node *n, struct buf *b)
{
	for (int i = 0; n && i < 64; i++) {
		if (n->k == CXCursor_DeclRefExpr) {
			CXString s = clang_getCursorSpelling(n->c);
			buf_adds(b, clang_getCString(s));
			clang_disposeString(s);
			return;
		}
		if (n->nk == 0)
			break;
		n = n->k == CXCursor_CStyleCastExpr ? n->kid[n->nk - 1] : n->kid[0];
	}
	buf_addc(b, '?');
}

static char *name_of(struct node *n)
{
	struct buf b = BUF_INIT;
	base_name(n, &b);
	return buf_detach(&b);
}

static void meta_tree(struct ctx *x, struct node *n, struct buf *b);

static void promote(struct ty *t)
{
	if (t->cls == 'b' || t->bits < 32) {
		t->cls = 'i';
		t->bits = 32;
	}
}

static void uac(const struct ty *a0, const struct ty *b0, struct ty *out)
{
	struct ty a = *a0, b = *b0;
	promote(&a);
	promote(&b);
	if (a.bits != b.bits)
		*out = a.bits > b.bits ? a : b;
	else
		*out = a.cls == 'u' ? a : b;
}

/* ---------------------------------------------------------------- trees */

/* A floating constant of type float or double: its bit pattern (the
 * formula keeps floating values as their IEEE bits). */
static int try_fconst(struct node *n, struct buf *b)
{
	if (n->t.cls != 'f' || (n->t.bits != 32 && n->t.bits != 64) || n->k != CXCursor_FloatingLiteral)
		return 0;
	CXEvalResult r = clang_Cursor_Evaluate(n->c);
	if (!r)
		return 0;
	int ok = clang_EvalResult_getKind(r) == CXEval_Float;
	if (ok) {
		double d = clang_EvalResult_getAsDouble(r);
		unsigned long long u = 0;
		if (n->t.bits == 32) {
			float fl = (float)d;
			unsigned u32;
			memcpy(&u32, &fl, 4);
			u = u32;
		} else {
			memcpy(&u, &d, 8);
		}
		buf_addf(b, "(k %llu ", u);
		ty_str(&n->t, b);
		buf_addc(b, ')');
	}
	clang_EvalResult_dispose(r);
	return ok;
}

static int try_const(struct node *n, struct buf *b)
{
	if (n->t.cls == 'f')
		return try_fconst(n, b);
	if (!ty_int(&n->t))
		return 0;
	if (n->k == CXCursor_DeclRefExpr &&
	    clang_getCursorKind(clang_getCursorReferenced(n->c)) == CXCursor_EnumConstantDecl) {
		buf_addf(b, "(k %lld ", clang_getEnumConstantDeclValue(clang_getCursorReferenced(n->c)));
		ty_str(&n->t, b);
		buf_addc(b, ')');
		return 1;
	}
	if (n->k != CXCursor_IntegerLiteral && n->k != CXCursor_CharacterLiteral && n->k != CXCursor_UnaryExpr &&
	    !n->mac)
		return 0;
	CXEvalResult r = clang_Cursor_Evaluate(n->c);
	if (!r)
		return 0;
	int ok = clang_EvalResult_getKind(r) == CXEval_Int;
	if (ok) {
		if (clang_EvalResult_isUnsignedInt(r))
			buf_addf(b, "(k %llu ", clang_EvalResult_getAsUnsigned(r));
		else
			buf_addf(b, "(k %lld ", clang_EvalResult_getAsLongLong(r));
		ty_str(&n->t, b);
		buf_addc(b, ')');
	}
	clang_EvalResult_dispose(r);
	return ok;
}

static void opaque(struct ctx *x, struct node *n, struct buf *b)
{
	buf_adds(b, "(o ");
	ty_str(&n->t, b);
	buf_addc(b, ')');
	x->st->opaque++;
}

static void meta_tree(struct ctx *x, struct node *n, struct buf *b)
{
	if (try_const(n, b))
		return;
	if (n->vid) {
		buf_addf(b, "(c %u ", n->vid);
		ty_str(&n->t, b);
		buf_addc(b, ')');
		return;
	}
	if (n->mac) {
		opaque(x, n, b);
		return;
	}
	switch (n->k) {
	case CXCursor_ParenExpr:
		if (n->nk == 1) {
			meta_tree(x, n->kid[0], b);
			return;
		}
		break;
	case CXCursor_UnexposedExpr:
	case CXCursor_CStyleCastExpr: {
		if (n->nk < 1)
			break;
		struct node *k = n->kid[n->nk - 1];
		struct node *l = strip(k);
		if (l->rid && !l->wid) {   /* a read */
			buf_addf(b, "(r %u ", l->rid);
			ty_str(&l->t, b);
			buf_addc(b, ')');
			if (l->t.cls != n->t.cls || l->t.bits != n->t.bits) {
				/* never: a read's cast has its own type */
			}
			return;
		}
		if (l->k == CXCursor_StringLiteral && !l->mac && ty_scalar(&n->t)) {   /* the array decays */
			buf_adds(b, "(s ");
			ty_str(&n->t, b);
			buf_addc(b, ')');
			return;
		}
		if (ty_val(&n->t) && ty_val(&k->t)) {
			buf_adds(b, "(x ");
			ty_str(&n->t, b);
			buf_addc(b, ' ');
			meta_tree(x, k, b);
			buf_addc(b, ')');
			return;
		}
		break;
	}
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator:
		if (n->wid) {
			buf_addf(b, "(w %u ", n->wid);
			ty_str(&n->t, b);
			buf_addc(b, ')');
			return;
		}
		if (n->nk == 2 && n->op[0] && strcmp(n->op, "=") && n->k == CXCursor_BinaryOperator) {
			buf_addf(b, "(b %s ", n->op);
			ty_str(&n->t, b);
			buf_addc(b, ' ');
			meta_tree(x, n->kid[0], b);
			buf_addc(b, ' ');
			meta_tree(x, n->kid[1], b);
			buf_addc(b, ')');
			return;
		}
		break;
	case CXCursor_UnaryOperator:
		if (n->wid) {
			if (n->postfix)
				buf_addf(b, "(r %u ", n->oldrid);
			else
				buf_addf(b, "(w %u ", n->wid);
			ty_str(&n->t, b);
			buf_addc(b, ')');
			return;
		}
		if (n->nk == 1 && (!strcmp(n->op, "-") || !strcmp(n->op, "~") || !strcmp(n->op, "!") ||
				   !strcmp(n->op, "+"))) {
			buf_addf(b, "(u %s ", n->op);
			ty_str(&n->t, b);
			buf_addc(b, ' ');
			meta_tree(x, n->kid[0], b);
			buf_addc(b, ')');
			return;
		}
		break;
	case CXCursor_ConditionalOperator:
		if (n->nk == 3) {
			buf_adds(b, "(q ");
			ty_str(&n->t, b);
			for (int i = 0; i < 3; i++) {
				buf_addc(b, ' ');
				meta_tree(x, n->kid[i], b);
			}
			buf_addc(b, ')');
			return;
		}
		break;
	case CXCursor_CallExpr:
		if (n->cid) {
			buf_addf(b, "(c %u ", n->cid);
			ty_str(&n->t, b);
			buf_addc(b, ')');
			return;
		}
		break;
	case CXCursor_StringLiteral:
		/* A constant address: the formula takes its observed value as a fact, not an opaque part. */
		buf_adds(b, "(s ");
		ty_str(&n->t, b);
		buf_addc(b, ')');
		return;
	default:
		break;
	}
	opaque(x, n, b);
}

static char *tree_of(struct ctx *x, struct node *n)
{
	struct buf b = BUF_INIT;
	meta_tree(x, n, &b);
	return buf_detach(&b);
}

/* --------------------------------------------------------- instrumenting */

static void expr(struct ctx *x, struct node *n, int rv);
static void stmt(struct ctx *x, struct node *n);
static void line_text(struct ctx *x, unsigned off, struct buf *b);

static void kids(struct ctx *x, struct node *n, int rv)
{
	for (int i = 0; i < n->nk; i++)
		expr(x, n->kid[i], rv);
}

/* The crash check of an access through lvalue l. */
static void crash_check(struct ctx *x, unsigned site, struct node *l)
{
	l = strip(l);
	struct node *base = NULL;
	const char *kind = NULL;
	long long count = 0;
	if (l->k == CXCursor_UnaryOperator && l->nk == 1) {
		base = l->kid[0];
		kind = "nonnull";
	} else if (l->k == CXCursor_MemberRefExpr && l->arrow && l->nk >= 1) {
		base = l->kid[0];
		kind = "nonnull";
	} else if (l->k == CXCursor_ArraySubscriptExpr && l->nk == 2) {
		struct node *a = strip(l->kid[0]);
		if (a->k == CXCursor_UnexposedExpr && a->nk == 1 && strip(a->kid[0])->t.cls == 'a' &&
		    strip(a->kid[0])->t.count > 0) {
			base = l->kid[1];
			kind = "bounds";
			count = strip(a->kid[0])->t.count;
		} else if (a->t.cls == 'p') {
			base = l->kid[0];
			kind = "nonnull";
		}
	}
	if (!base)
		return;
	char *t = tree_of(x, base);
	if (count)
		buf_addf(x->meta, "X\t%u\tbounds:%lld\t%s\n", site, count, t);
	else
		buf_addf(x->meta, "X\t%u\t%s\t%s\n", site, kind, t);
	free(t);
}

static void read_site(struct ctx *x, struct node *l, unsigned sid)
{
	l->rid = new_id(x);
	x->st->reads++;
	open_(x, l->s, 2 * l->depth, xstrdup("(*__extension__ ({ __auto_type __cu_q = &("));
	close_(x, l->e, 2 * l->depth,
	       xasprintf("); __cu_rd(%u, __cu_q, sizeof *__cu_q); __cu_q; }))", l->rid));
	struct buf b = BUF_INIT;
	ty_str(&l->t, &b);
	char *name = name_of(l);
	buf_addf(x->meta, "R\t%u\t%u\t%s\t%s\n", l->rid, sid, b.s, name);
	free(name);
	buf_release(&b);
}


static int call_excluded(const char *name)
{
	static const char *no[] = {"setjmp", "_setjmp", "sigsetjmp", "__sigsetjmp", "vfork", "alloca",
				   "longjmp", "siglongjmp", "_longjmp", NULL};
	if (!strncmp(name, "__builtin", 9))
		return 1;
	for (int i = 0; no[i]; i++)
		if (!strcmp(name, no[i]))
			return 1;
	return 0;
}

static const char *output_call(const char *name)
{
	static const char *out[] = {"printf", "fprintf", "puts", "fputs", "putchar", "fputc", "putc", "fwrite",
				    "write", NULL};
	for (int i = 0; out[i]; i++)
		if (!strcmp(name, out[i]))
			return out[i];
	return NULL;
}

/* Library calls that read the program's inputs: the runtime's wrappers
 * mark what they return as inputs. */
static const char *input_call(const char *name)
{
	static const char *in[] = {"atoi", "atol", "atoll", "strtol", "strtoul", "strtoll", "strtoull", "sscanf",
				   "getchar", "fgetc", "getc", "fgets", "gets", "scanf", "fscanf", "fread", "read", "fopen",
				   "fclose", "strtod", "atof", "getenv", NULL};
	for (int i = 0; in[i]; i++)
		if (!strcmp(name, in[i]))
			return in[i];
	return NULL;
}

static void src_text(struct ctx *x, unsigned s, unsigned e, struct buf *b);

/* String functions the runtime follows (see trace_rt.h, "strings"): a copy
 * writes its destination's identity (a W site, the source's read the next
 * id), a comparison or length reads its arguments' (the ids after its own).
 * Returns the number of string arguments read, 0 when name is none. */
static int string_call(const char *name, int *copy)
{
	static const struct { const char *name; int copy, reads; } fns[] = {
		{"strcpy", 1, 1}, {"strncpy", 1, 1}, {"memcpy", 1, 1}, {"memmove", 1, 1}, {"strcat", 1, 1},
		{"strncat", 1, 1}, {"strcmp", 0, 2}, {"strncmp", 0, 2}, {"memcmp", 0, 2}, {"strlen", 0, 1},
	};
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		if (!strcmp(name, fns[i].name)) {
			*copy = fns[i].copy;
			return fns[i].reads;
		}
	return 0;
}

/* Whether the function a call names is declared in a system header (the
 * library's, not a definition of the project's own with the same name). */
static int system_decl(struct node *f)
{
	CXCursor d = clang_getCursorReferenced(f->c);
	return !clang_Cursor_isNull(d) && clang_Location_isInSystemHeader(clang_getCursorLocation(d));
}

/* The offset just after the '(' that opens a call's arguments after its callee, or 0. */
static unsigned args_open(struct ctx *x, struct node *f)
{
	unsigned i = f->e;
	while (i < x->len && (x->src[i] == ' ' || x->src[i] == '\t'))
		i++;
	return i < x->len && x->src[i] == '(' ? i + 1 : 0;
}

/* The C library's function, not the program's own of the same name (a
 * competitive programmer's read()). */
static int library_decl(struct node *f)
{
	CXCursor d = clang_getCursorReferenced(f->c);
	if (clang_Cursor_isNull(d) || clang_Location_isInSystemHeader(clang_getCursorLocation(d)))
		return 1;
	/* Called without a declaration (old code calling printf with no
	 * <stdio.h>): clang declares it implicitly at the call itself. */
	unsigned dl, fl;
	CXFile df, ff;
	clang_getSpellingLocation(clang_getCursorLocation(d), &df, NULL, NULL, &dl);
	clang_getSpellingLocation(clang_getCursorLocation(f->c), &ff, NULL, NULL, &fl);
	return df && ff && clang_File_isEqual(df, ff) && dl == fl;
}

static struct node *callee_ref(struct node *n)
{
	struct node *c = n->nk ? n->kid[0] : NULL;
	while (c && (c->k == CXCursor_UnexposedExpr || c->k == CXCursor_ParenExpr) && c->nk == 1)
		c = c->kid[0];
	return c && c->k == CXCursor_DeclRefExpr ? c : NULL;
}

static void call_site(struct ctx *x, struct node *n)
{
	struct node *f = callee_ref(n);
	char *name = NULL;
	if (f) {
		CXString s = clang_getCursorSpelling(f->c);
		name = xstrdup(clang_getCString(s));
		clang_disposeString(s);
	}
	/* The callee is a designator, not a value to record. */
	for (int i = 0; i < n->nk; i++)
		expr(x, n->kid[i], i > 0);
	int statement = n->up && (n->up->k == CXCursor_CompoundStmt || n->up->k == CXCursor_CaseStmt ||
				  n->up->k == CXCursor_DefaultStmt || n->up->k == CXCursor_LabelStmt);
	int value = ty_scalar(&n->t) || n->t.cls == 'f';
	if ((name && call_excluded(name)) || (!value && n->t.cls != 'v' && !statement)) {
		free(name);
		return;
	}
	n->cid = new_id(x);
	x->st->calls++;
	const char *out = name ? output_call(name) : NULL, *in = name ? input_call(name) : NULL;
	if ((out || in) && f && !f->mac && f->e - f->s == strlen(name) && library_decl(f))
		edit(x, f->s, (unsigned)strlen(name), 1, 2 * f->depth, xasprintf("__cu_%s", out ? out : in));
	else
		out = NULL;
	int copy = 0, sreads = name ? string_call(name, &copy) : 0;
	unsigned sbase = 0, paren = 0;
	if (sreads && f && !f->mac && f->e - f->s == strlen(name) && n->nk - 1 >= 1 + copy &&
	    (paren = args_open(x, f)) && system_decl(f)) {
		sbase = new_id(x);
		for (int i = 0; i < sreads; i++)
			new_id(x);
		edit(x, f->s, (unsigned)strlen(name), 1, 2 * f->depth, xasprintf("__cu_%s", name));
		open_(x, paren, 2 * n->depth, xasprintf("%u, ", sbase));
	}
	if (!value) {   /* void, or a value nobody uses */
		open_(x, n->s, 2 * n->depth, xasprintf("__extension__ ({ __cu_call(%u); ", n->cid));
		close_(x, n->e, 2 * n->depth, xasprintf("; __cu_cret0(%u); })", n->cid));
	} else {
		open_(x, n->s, 2 * n->depth,
		      xasprintf("__extension__ ({ __cu_call(%u); __auto_type __cu_c = (", n->cid));
		close_(x, n->e, 2 * n->depth, xasprintf("); __cu_cret(%u, &__cu_c, sizeof __cu_c); __cu_c; })", n->cid));
	}
	struct buf t = BUF_INIT;
	ty_str(&n->t, &t);
	int nargs = n->nk - 1;
	buf_addf(x->meta, "C\t%u\t%u\t%s\t%s\t%d\t%s\n", n->cid, x->sid, name ? name : "?", t.s, nargs,
		 out ? out : "-");
	for (int i = 1; i < n->nk; i++) {
		char *tr = tree_of(x, n->kid[i]);
		buf_addf(x->meta, "A\t%u\t%d\t%s\n", n->cid, i - 1, tr);
		free(tr);
	}
	if (sbase) {
		/* A copy's source read is the string copied (dst is argument 0);
		 * a comparison's reads are its arguments. */
		for (int i = 0; i < sreads; i++) {
			struct node *a = n->kid[1 + copy + i];
			char *an = name_of(a);
			buf_addf(x->meta, "R\t%u\t%u\tp64\t%s\n", sbase + 1 + i, x->sid, an);
			free(an);
		}
		if (copy) {
			/* The value written: a literal copied is that constant
			 * address; a buffer copied, the identity its read saw;
			 * a concatenation, a new string. */
			struct node *src = n->kid[2];
			char *st = tree_of(x, src), *dn = name_of(n->kid[1]);
			const char *p = st;
			while (!strncmp(p, "(x ", 3) && strchr(p + 3, '('))
				p = strchr(p + 3, '(');
			struct buf tree = BUF_INIT, lx = BUF_INIT;
			if (!strcmp(name, "strcat") || !strcmp(name, "strncat"))
				buf_adds(&tree, "(o p64)");
			else if (!strncmp(p, "(s ", 3))
				buf_adds(&tree, "(s p64)");
			else
				buf_addf(&tree, "(r %u p64)", sbase + 1);
			src_text(x, n->kid[1]->s, n->kid[1]->e, &lx);
			buf_addf(x->meta, "W\t%u\t%u\tp64\t*%s\t%s\t*%s\n", sbase, x->sid, dn, tree.s, lx.s);
			buf_release(&tree);
			buf_release(&lx);
			free(st);
			free(dn);
		}
	}
	buf_release(&t);
	free(name);
}

/* The source text of [s, e) on one line, tabs and newlines as spaces, at most 80 bytes. */
static void src_text(struct ctx *x, unsigned s, unsigned e, struct buf *b)
{
	buf_adds(b, "");
	for (unsigned i = s; i < e && i < x->len && b->len < 80; i++) {
		char c = x->src[i];
		if (c == '\t' || c == '\n' || c == '\r')
			c = ' ';
		if (c == ' ' && b->len && b->s[b->len - 1] == ' ')
			continue;
		buf_addc(b, c);
	}
}

static void write_site(struct ctx *x, struct node *n, struct node *lhs, struct node *rhs)
{
	/* Instrument inside the lvalue (indices, pointers) and the right side. */
	kids(x, lhs, 1);
	if (rhs)
		expr(x, rhs, 1);
	n->wid = new_id(x);
	x->st->writes++;
	int compound = n->k == CXCursor_CompoundAssignOperator || n->k == CXCursor_UnaryOperator;
	if (compound)
		n->oldrid = new_id(x);
	int d = 2 * n->depth;
	if (n->k == CXCursor_UnaryOperator) {
		const char *op = n->op;
		if (n->postfix) {
			open_(x, n->s, d, xstrdup("__extension__ ({ __auto_type __cu_a = &("));
			edit(x, n->opoff, 2, 1, d,
			     xasprintf("); __cu_rd(%u, __cu_a, sizeof *__cu_a); __auto_type __cu_o = (*__cu_a)%s; "
				       "__cu_w(%u, __cu_a, sizeof *__cu_a); __cu_o; })",
				       n->oldrid, op, n->wid));
		} else {
			edit(x, n->opoff, 2, 1, d, xstrdup("__extension__ ({ __auto_type __cu_a = &("));
			close_(x, n->e, d,
			       xasprintf("); __cu_rd(%u, __cu_a, sizeof *__cu_a); %s*__cu_a; "
					 "__cu_w(%u, __cu_a, sizeof *__cu_a); *__cu_a; })",
					 n->oldrid, op, n->wid));
		}
	} else {
		open_(x, n->s, d, xstrdup("__extension__ ({ __auto_type __cu_a = &("));
		if (compound)
			edit(x, n->opoff, (unsigned)strlen(n->op), 1, d,
			     xasprintf("); __cu_rd(%u, __cu_a, sizeof *__cu_a); *__cu_a %s (", n->oldrid, n->op));
		else
			edit(x, n->opoff, 1, 1, d, xasprintf("); __cu_wpre(%u, __cu_a); *__cu_a = (", n->wid));
		close_(x, n->e, d, xasprintf("); __cu_w(%u, __cu_a, sizeof *__cu_a); *__cu_a; })", n->wid));
	}
	/* Metadata: the old value's read, the value written. */
	struct buf lt = BUF_INIT, tree = BUF_INIT;
	ty_str(&lhs->t, &lt);
	char *name = name_of(lhs);
	if (compound)
		buf_addf(x->meta, "R\t%u\t%u\t%s\t%s\n", n->oldrid, x->sid, lt.s, name);
	struct ty ct;
	if (!ty_int(&lhs->t) && !(ty_val(&lhs->t) && !compound && n->k != CXCursor_UnaryOperator)) {
		buf_adds(&tree, "(o ");
		ty_str(&lhs->t, &tree);
		buf_addc(&tree, ')');
	} else if (n->k == CXCursor_UnaryOperator) {
		ct = lhs->t;
		promote(&ct);
		buf_addf(&tree, "(x %s (b %c ", lt.s, n->op[0]);
		ty_str(&ct, &tree);
		buf_adds(&tree, " (x ");
		ty_str(&ct, &tree);
		buf_addf(&tree, " (r %u %s)) (k 1 ", n->oldrid, lt.s);
		ty_str(&ct, &tree);
		buf_adds(&tree, ")))");
	} else if (compound) {
		char op[4] = {0};
		memcpy(op, n->op, strlen(n->op) - 1);
		if (!ty_int(&rhs->t)) {
			buf_addf(&tree, "(o %s)", lt.s);
		} else {
			if (!strcmp(op, "<<") || !strcmp(op, ">>")) {
				ct = lhs->t;
				promote(&ct);
			} else {
				uac(&lhs->t, &rhs->t, &ct);
			}
			char *r = tree_of(x, rhs);
			struct buf cs = BUF_INIT;
			ty_str(&ct, &cs);
			buf_addf(&tree, "(x %s (b %s %s (x %s (r %u %s)) (x %s %s)))", lt.s, op, cs.s, cs.s, n->oldrid,
				 lt.s, cs.s, r);
			buf_release(&cs);
			free(r);
		}
	} else {
		char *r = tree_of(x, rhs);
		buf_addf(&tree, "(x %s %s)", lt.s, r);
		free(r);
	}
	struct buf lx = BUF_INIT;
	src_text(x, lhs->s, lhs->e, &lx);
	buf_addf(x->meta, "W\t%u\t%u\t%s\t%s\t%s\t%s\n", n->wid, x->sid, lt.s, name, tree.s, lx.s);
	show_type(x, n->wid, clang_getCursorType(lhs->c));
	buf_release(&lx);
	crash_check(x, n->wid, lhs);
	free(name);
	buf_release(&lt);
	buf_release(&tree);
}

static void expr(struct ctx *x, struct node *n, int rv)
{
	if (n->mac) {
		/* A whole macro call used as a value: record the value it gives. */
		struct mrange *m = macro_at(x, n->s, n->e);
		if (rv && m && m->s == n->s && m->e == n->e && ty_scalar(&n->t) && clang_isExpression(n->k) &&
		    !(n->up && n->up->s == n->s && n->up->e == n->e)) {
			struct buf probe = BUF_INIT;
			int constant = try_const(n, &probe);
			buf_release(&probe);
			if (!constant) {
				n->vid = new_id(x);
				open_(x, n->s, 2 * n->depth,
				      xasprintf("__extension__ ({ __auto_type __cu_m = ("));
				close_(x, n->e, 2 * n->depth,
				       xasprintf("); __cu_cret(%u, &__cu_m, sizeof __cu_m); __cu_m; })", n->vid));
				buf_addf(x->meta, "C\t%u\t%u\t%s\t", n->vid, x->sid, "(macro)");
				ty_str(&n->t, x->meta);
				buf_adds(x->meta, "\t0\t-\n");
			}
		}
		return;
	}
	switch (n->k) {
	case CXCursor_UnaryExpr:          /* sizeof, _Alignof: not evaluated */
	case CXCursor_StmtExpr:
	case CXCursor_CompoundLiteralExpr:
	case CXCursor_InitListExpr:
		return;
	case CXCursor_UnexposedExpr:
		if (n->nk == 1) {
			struct node *l = strip(n->kid[0]);
			if (l->t.cls == n->t.cls && l->t.bits == n->t.bits && ty_val(&n->t) && lvalue(l) &&
			    (l->k == CXCursor_DeclRefExpr || l->k == CXCursor_MemberRefExpr ||
			     l->k == CXCursor_ArraySubscriptExpr || l->k == CXCursor_UnaryOperator)) {
				kids(x, l, 1);
				read_site(x, l, x->sid);
				crash_check(x, l->rid, l);
				return;
			}
		}
		kids(x, n, rv);
		return;
	case CXCursor_BinaryOperator:
		if (!strcmp(n->op, "=") && n->nk == 2 && lvalue(n->kid[0]) && ty_val(&n->kid[0]->t)) {
			write_site(x, n, strip(n->kid[0]), n->kid[1]);
			return;
		}
		if (!strcmp(n->op, "=") && n->nk == 2) {   /* an assignment culprit cannot trace */
			expr(x, n->kid[0], 0);
			expr(x, n->kid[1], 1);
			return;
		}
		kids(x, n, 1);
		return;
	case CXCursor_CompoundAssignOperator:
		if (n->nk == 2 && n->op[0] && lvalue(n->kid[0]) && ty_val(&n->kid[0]->t)) {
			write_site(x, n, strip(n->kid[0]), n->kid[1]);
			return;
		}
		if (n->nk == 2) {
			expr(x, n->kid[0], 0);
			expr(x, n->kid[1], 1);
			return;
		}
		kids(x, n, 1);
		return;
	case CXCursor_UnaryOperator:
		if ((!strcmp(n->op, "++") || !strcmp(n->op, "--")) && n->nk == 1 && lvalue(n->kid[0]) &&
		    ty_val(&n->kid[0]->t)) {
			write_site(x, n, strip(n->kid[0]), NULL);
			return;
		}
		kids(x, n, !strcmp(n->op, "&") || !strcmp(n->op, "++") || !strcmp(n->op, "--") ? 0 : 1);
		return;
	case CXCursor_MemberRefExpr:
		kids(x, n, n->arrow);   /* the base of a . is an lvalue */
		return;
	case CXCursor_ParenExpr:
		kids(x, n, rv);   /* &(NCAR(node)): still the operand of & */
		return;
	case CXCursor_CallExpr:
		call_site(x, n);
		return;
	case CXCursor_ConditionalOperator:
		if (n->nk == 3) {
			struct node *c = n->kid[0];
			expr(x, c, 1);
			unsigned bid = new_id(x);
			x->st->branches++;
			open_(x, c->s, 2 * c->depth - 1, xasprintf("__cu_br(%u, !!(", bid));
			close_(x, c->e, 2 * c->depth - 1, xstrdup("))"));
			char *t = tree_of(x, c);
			buf_addf(x->meta, "B\t%u\t%u\tcond\t%s\t-\t-\n", bid, x->sid, t);
			free(t);
			expr(x, n->kid[1], rv);
			expr(x, n->kid[2], rv);
			return;
		}
		kids(x, n, rv);
		return;
	default:
		kids(x, n, 1);
		return;
	}
}

/* ------------------------------------------------------------ statements */

static void names_in(struct node *n, struct buf *b)
{
	if (!n)
		return;
	struct node *l = NULL;
	if ((n->k == CXCursor_BinaryOperator && !strcmp(n->op, "=")) || n->k == CXCursor_CompoundAssignOperator ||
	    (n->k == CXCursor_UnaryOperator && (!strcmp(n->op, "++") || !strcmp(n->op, "--"))))
		l = n->nk ? n->kid[0] : NULL;
	if (l || n->k == CXCursor_VarDecl) {
		struct buf nm = BUF_INIT;
		if (l) {
			base_name(l, &nm);
		} else {
			CXString s = clang_getCursorSpelling(n->c);
			buf_adds(&nm, clang_getCString(s));
			clang_disposeString(s);
		}
		/* a set: skip names already there */
		int seen = 0;
		if (b->len) {
			char *copy = xstrdup(b->s);
			for (char *t = strtok(copy, ","); t; t = strtok(NULL, ","))
				seen |= !strcmp(t, nm.s);
			free(copy);
		}
		if (!seen && strcmp(nm.s, "?")) {
			if (b->len)
				buf_addc(b, ',');
			buf_adds(b, nm.s);
		}
		buf_release(&nm);
	}
	for (int i = 0; i < n->nk; i++)
		names_in(n->kid[i], b);
}

/* Whether an arm can leave what follows its if: a return or goto, or a
 * break or continue that is not inside a loop or switch of its own. */
static int jumps(const struct node *n, int in_loop)
{
	if (!n)
		return 0;
	switch (n->k) {
	case CXCursor_ReturnStmt:
	case CXCursor_GotoStmt:
		return 1;
	case CXCursor_BreakStmt:
	case CXCursor_ContinueStmt:
		return !in_loop;
	case CXCursor_WhileStmt:
	case CXCursor_ForStmt:
	case CXCursor_DoStmt:
	case CXCursor_SwitchStmt:
		in_loop = 1;
		break;
	default:
		break;
	}
	for (int i = 0; i < n->nk; i++)
		if (jumps(n->kid[i], in_loop))
			return 1;
	return 0;
}

static void branch_meta(struct ctx *x, unsigned bid, unsigned sid, const char *kind, struct node *cond,
			struct node *then_arm, struct node *else_arm)
{
	char *t = tree_of(x, cond);
	struct buf a = BUF_INIT, e = BUF_INIT;
	names_in(then_arm, &a);
	names_in(else_arm, &e);
	int jt = !strcmp(kind, "if") && jumps(then_arm, 0), je = !strcmp(kind, "if") && jumps(else_arm, 0);
	buf_addf(x->meta, "B\t%u\t%u\t%s\t%s\t%s\t%s\t%s%s%s\n", bid, sid, kind, t, a.len ? a.s : "-",
		 e.len ? e.s : "-", jt ? "t" : "", je ? "e" : "", jt || je ? "" : "-");
	buf_release(&a);
	buf_release(&e);
	free(t);
}

static unsigned branch(struct ctx *x, struct node *c, int sw)
{
	expr(x, c, 1);
	unsigned bid = new_id(x);
	x->st->branches++;
	/* `if ISZERO(dn)`: the parentheses the statement needs come from the
	 * macro, and the condition is no longer the macro's whole text. */
	size_t i = tok_at(x, c->s);
	int paren = i > 0 && (tok_is(x, i - 1, "if") || tok_is(x, i - 1, "while") || tok_is(x, i - 1, "switch"));
	open_(x, c->s, 2 * c->depth - 1,
	      sw ? xasprintf("%s__cu_sw(%u, (unsigned long long)(", paren ? "(" : "", bid)
		 : xasprintf("%s__cu_br(%u, !!(", paren ? "(" : "", bid));
	close_(x, c->e, 2 * c->depth - 1, xstrdup(paren ? ")))" : "))"));
	return bid;
}

static unsigned stmt_end(struct ctx *x, struct node *n)
{
	if (n->k == CXCursor_CompoundStmt)
		return n->e;
	size_t i = tok_at(x, n->e);
	if (tok_is(x, i, ";"))
		return x->toks[i].off + 1;
	return n->e;
}

static const char *stmt_kind(enum CXCursorKind k)
{
	switch (k) {
	case CXCursor_DeclStmt: return "decl";
	case CXCursor_ReturnStmt: return "return";
	case CXCursor_IfStmt: return "if";
	case CXCursor_WhileStmt: return "while";
	case CXCursor_ForStmt: return "for";
	case CXCursor_DoStmt: return "do";
	case CXCursor_SwitchStmt: return "switch";
	case CXCursor_BreakStmt: return "break";
	case CXCursor_ContinueStmt: return "continue";
	case CXCursor_GotoStmt: return "goto";
	default: return clang_isExpression(k) ? "expr" : "other";
	}
}

static void line_text(struct ctx *x, unsigned off, struct buf *b)
{
	unsigned s = off, e = off;
	while (s > 0 && x->src[s - 1] != '\n')
		s--;
	while (e < x->len && x->src[e] != '\n')
		e++;
	while (s < e && (x->src[s] == ' ' || x->src[s] == '\t'))
		s++;
	while (e > s && (x->src[e - 1] == ' ' || x->src[e - 1] == '\t' || x->src[e - 1] == '\r'))
		e--;
	if (e - s > 160)
		e = s + 160;
	for (unsigned i = s; i < e; i++)
		buf_addc(b, x->src[i] == '\t' ? ' ' : x->src[i]);
}

/* The assert's argument is the user's own text: instrument it. */
static void unmark(struct node *n, struct mrange *m)
{
	if (n->mac == 2 && n->mr == m)
		n->mac = 0;
	for (int i = 0; i < n->nk; i++)
		unmark(n->kid[i], m);
}

/* The cursor of an assert's condition inside its expansion, or NULL. */
static struct node *assert_cond(struct node *n, const struct mrange *m)
{
	if ((n->k == CXCursor_IfStmt || n->k == CXCursor_ConditionalOperator) && n->nk >= 2) {
		/* Down to the first node inside the parentheses: the argument,
		 * itself maybe a macro call (assert(LIMIT)). */
		struct node *c = n->kid[0];
		while (c->s == m->s && c->e == m->e && c->nk == 1)
			c = c->kid[0];
		if (c->s > m->s && c->e < m->e)
			return c;
	}
	for (int i = 0; i < n->nk; i++) {
		if (n->kid[i]->k == CXCursor_UnaryExpr)
			continue;
		struct node *c = assert_cond(n->kid[i], m);
		if (c)
			return c;
	}
	return NULL;
}

static void stringify(struct ctx *x, unsigned s, unsigned e, struct buf *b)
{
	size_t i = tok_at(x, s);
	int first = 1;
	unsigned prev_end = s;
	for (; i < x->ntoks && x->toks[i].off < e; i++) {
		const struct tok *t = &x->toks[i];
		if (!first) {
			for (unsigned k = prev_end; k < t->off; k++)
				if (x->src[k] == ' ' || x->src[k] == '\t' || x->src[k] == '\n') {
					buf_addc(b, ' ');
					break;
				}
		}
		for (unsigned k = t->off; k < t->off + t->len; k++) {
			char ch = x->src[k];
			if (ch == '"' || ch == '\\')
				buf_addc(b, '\\');
			buf_addc(b, ch);
		}
		prev_end = t->off + t->len;
		first = 0;
	}
}

/* The initializers of a declaration: each a write to its variable. */
static void decl(struct ctx *x, struct node *n)
{
	for (int i = 0; i < n->nk; i++) {
		struct node *v = n->kid[i];
		if (v->k != CXCursor_VarDecl)
			continue;
		CXCursor init = clang_Cursor_getVarDeclInitializer(v->c);
		if (clang_Cursor_isNull(init))
			continue;
		struct node *in = NULL;
		for (int k = 0; k < v->nk; k++)
			if (clang_equalCursors(v->kid[k]->c, init))
				in = v->kid[k];
		if (!in)
			continue;
		enum CX_StorageClass sc = clang_Cursor_getStorageClass(v->c);
		if (sc == CX_SC_Static || sc == CX_SC_Extern)
			continue;
		expr(x, in, 1);
		if (!ty_val(&v->t) || sc == CX_SC_Register || in->mac || v->mac || in->k == CXCursor_InitListExpr)
			continue;   /* (int n = {3}: braces are no expression) */
		/* __auto_type v = e: v is not declared inside its own initializer. */
		int auto_type = 0;
		for (size_t k = tok_at(x, n->s); k < x->ntoks && x->toks[k].off < in->s && !auto_type; k++)
			auto_type = tok_is(x, k, "__auto_type");
		if (auto_type) {
			x->st->opaque++;
			continue;
		}
		CXString nm = clang_getCursorSpelling(v->c);
		const char *name = clang_getCString(nm);
		unsigned wid = new_id(x);
		x->st->writes++;
		open_(x, in->s, 2 * in->depth - 1,
		      xasprintf("__extension__ ({ __typeof__(%s) __cu_v = (", name));
		close_(x, in->e, 2 * in->depth - 1,
		       xasprintf("); __cu_wv(%u, &%s, sizeof %s, &__cu_v); __cu_v; })", wid, name, name));
		char *t = tree_of(x, in);
		struct buf ts = BUF_INIT;
		ty_str(&v->t, &ts);
		buf_addf(x->meta, "W\t%u\t%u\t%s\t%s\t(x %s %s)\n", wid, x->sid, ts.s, name, ts.s, t);
		show_type(x, wid, clang_getCursorType(v->c));
		buf_release(&ts);
		free(t);
		clang_disposeString(nm);
	}
}

static const char *keyword_of(enum CXCursorKind k)
{
	switch (k) {
	case CXCursor_ReturnStmt: return "return";
	case CXCursor_IfStmt: return "if";
	case CXCursor_WhileStmt: return "while";
	case CXCursor_ForStmt: return "for";
	case CXCursor_DoStmt: return "do";
	case CXCursor_SwitchStmt: return "switch";
	case CXCursor_BreakStmt: return "break";
	case CXCursor_ContinueStmt: return "continue";
	case CXCursor_GotoStmt: case CXCursor_IndirectGotoStmt: return "goto";
	default: return NULL;
	}
}

static void stmt(struct ctx *x, struct node *n)
{
	if (n->mac && !(n->mac == 1 && (!n->up || !n->up->mac) && n->mr && n->mr->s == n->s)) {
		x->st->opaque++;   /* inside a macro: the expansion is not our text */
		return;
	}
	if (n->k == CXCursor_CompoundStmt && !n->mac) {
		for (int i = 0; i < n->nk; i++)
			stmt(x, n->kid[i]);
		return;
	}
	if (n->k == CXCursor_NullStmt)
		return;
	if (n->k == CXCursor_CaseStmt || n->k == CXCursor_DefaultStmt || n->k == CXCursor_LabelStmt) {
		if (n->nk)
			stmt(x, n->kid[n->nk - 1]);
		return;
	}
	if (n->k == CXCursor_DeclStmt) {
		int any = 0;
		for (int i = 0; i < n->nk; i++)
			any |= n->kid[i]->k == CXCursor_VarDecl;
		if (!any)
			return;   /* struct, typedef and enum declarations */
	}
	/* A statement a macro made (`EINTRLOOP(r, f());` is a while): its
	 * keyword is not the text's, the expansion is not ours to rewrite. */
	const char *kw = keyword_of(n->k);
	int made = kw && !tok_is(x, tok_at(x, n->s), kw);
	/* The statement a label (or case) belongs to is one: when it is the
	 * body of an if, a loop or a switch (`if (bad) error: return -1;`),
	 * braces go around the labels too, the record after them. */
	struct node *top = n;
	while (top->up && (top->up->k == CXCursor_CaseStmt || top->up->k == CXCursor_DefaultStmt ||
			   top->up->k == CXCursor_LabelStmt))
		top = top->up;
	int braces = top->up && top->up->k != CXCursor_CompoundStmt;
	unsigned sid = new_id(x), saved = x->sid;
	x->sid = sid;
	x->st->stmts++;
	struct mrange *m = macro_at(x, n->s, n->e > n->s ? n->e : n->s + 1);
	int from_macro = m && m->s == n->s;
	if (braces && top != n)
		open_(x, top->s, 2 * top->depth - 1, xstrdup("{ "));
	if (braces && top == n)
		open_(x, n->s, 2 * n->depth - 1, xasprintf("{ __cu_s(%u); ", sid));
	else
		open_(x, n->s, 2 * n->depth - 1, xasprintf("__cu_s(%u); ", sid));
	if (braces)
		close_(x, stmt_end(x, n), 2 * top->depth - 1, xstrdup(" }"));
	struct buf text = BUF_INIT;
	line_text(x, n->s, &text);
	buf_addf(x->meta, "S\t%u\t%d\t%d\t%u\t%u\t%u\t%s\t%s\n", sid, x->fidx, n->line, x->fid, n->s,
		 stmt_end(x, n), from_macro && !strcmp(m->name, "assert") ? "assert" : stmt_kind(n->k), text.s);
	buf_release(&text);

	if (made && !from_macro) {
		x->st->opaque++;
		x->sid = saved;
		return;
	}
	if (from_macro) {
		if (!strcmp(m->name, "assert")) {
			struct node *c = assert_cond(n, m);
			if (c) {
				unmark(c, m);
				expr(x, c, 1);
				unsigned bid = new_id(x);
				x->st->branches++;
				struct buf s = BUF_INIT;
				stringify(x, c->s, c->e, &s);
				open_(x, c->s, 2 * c->depth - 1, xasprintf("__cu_br(%u, !!(", bid));
				close_(x, c->e, 2 * c->depth - 1,
				       xasprintf(")) || (__assert_fail(\"%s\", __FILE__, __LINE__, __func__), 0)", s.s));
				buf_release(&s);
				branch_meta(x, bid, sid, "assert", c, NULL, NULL);
			}
		} else {
			x->st->opaque++;
		}
		x->sid = saved;
		return;
	}

	switch (n->k) {
	case CXCursor_DeclStmt:
		decl(x, n);
		break;
	case CXCursor_IfStmt:
		if (n->nk >= 2) {
			unsigned bid = branch(x, n->kid[0], 0);
			branch_meta(x, bid, sid, "if", n->kid[0], n->kid[1], n->nk > 2 ? n->kid[2] : NULL);
			for (int i = 1; i < n->nk; i++)
				stmt(x, n->kid[i]);
		}
		break;
	case CXCursor_WhileStmt:
		if (n->nk == 2) {
			unsigned bid = branch(x, n->kid[0], 0);
			branch_meta(x, bid, sid, "while", n->kid[0], n->kid[1], NULL);
			stmt(x, n->kid[1]);
		}
		break;
	case CXCursor_DoStmt:
		if (n->nk == 2) {
			stmt(x, n->kid[0]);
			x->sid = sid;
			unsigned bid = branch(x, n->kid[1], 0);
			branch_meta(x, bid, sid, "do", n->kid[1], n->kid[0], NULL);
		}
		break;
	case CXCursor_SwitchStmt:
		if (n->nk == 2) {
			unsigned bid = branch(x, n->kid[0], 1);
			branch_meta(x, bid, sid, "switch", n->kid[0], n->kid[1], NULL);
			stmt(x, n->kid[1]);
		}
		break;
	case CXCursor_ForStmt: {
		/* The parts by the top-level semicolons inside the parentheses. */
		size_t i = tok_at(x, n->s) + 1;
		unsigned semi[2] = {0, 0}, close = n->e;
		int depth = 0, ns = 0;
		for (; i < x->ntoks && x->toks[i].off < n->e; i++) {
			if (tok_is(x, i, "("))
				depth++;
			else if (tok_is(x, i, ")") && --depth == 0) {
				close = x->toks[i].off;
				break;
			} else if (tok_is(x, i, ";") && depth == 1 && ns < 2)
				semi[ns++] = x->toks[i].off;
		}
		struct node *body = NULL, *cond = NULL;
		for (int k = 0; k < n->nk; k++) {
			struct node *c = n->kid[k];
			if (c->s > close)
				body = c;
			else if (c->s < semi[0] && c->k == CXCursor_DeclStmt)
				decl(x, c);
			else if (c->s > semi[0] && c->s < semi[1])
				cond = c;
		}
		x->sid = sid;
		for (int k = 0; k < n->nk; k++) {
			struct node *c = n->kid[k];
			if (c->s < semi[0] && c->k != CXCursor_DeclStmt)
				expr(x, c, 1);
		}
		unsigned bid = 0;
		if (cond) {
			bid = branch(x, cond, 0);
			branch_meta(x, bid, sid, "for", cond, body, NULL);
		}
		for (int k = 0; k < n->nk; k++) {
			struct node *c = n->kid[k];
			if (c->s > semi[1] && c->s < close)
				expr(x, c, 1);
		}
		if (body)
			stmt(x, body);
		break;
	}
	case CXCursor_ReturnStmt:
		if (n->nk == 1 && !n->kid[0]->mac && n->kid[0]->t.cls != 'v') {
			struct node *v = n->kid[0];
			expr(x, v, 1);
			unsigned tid = new_id(x);
			/* A leading blank: `return(0);` has none after the keyword. */
			open_(x, v->s, 2 * v->depth - 1,
			      x->rettype ? xasprintf(" __extension__ ({ __typeof__(%s) __cu_r = (", x->rettype)
					 : xstrdup(" __extension__ ({ __auto_type __cu_r = ("));
			close_(x, v->e, 2 * v->depth - 1,
			       xasprintf("); __cu_ret(%u, &__cu_r, %s); __cu_r; })", tid,
					 ty_scalar(&v->t) ? "sizeof __cu_r" : "0"));
			char *t = tree_of(x, v);
			struct buf ts = BUF_INIT;
			ty_str(&v->t, &ts);
			buf_addf(x->meta, "T\t%u\t%u\t%u\t%s\t%s\n", tid, sid, x->fid, ts.s, t);
			buf_release(&ts);
			free(t);
		} else {
			size_t i = tok_at(x, n->s);
			if (tok_is(x, i, "return"))
				open_(x, n->s, 2 * n->depth, xasprintf("__cu_ret0(%u); ", x->fid));
			if (n->nk == 1)
				expr(x, n->kid[0], 1);
		}
		break;
	default:
		if (clang_isExpression(n->k))
			expr(x, n, 1);
		break;
	}
	x->sid = saved;
}

static void function(struct ctx *x, struct node *f)
{
	struct node *body = NULL;
	for (int i = 0; i < f->nk; i++)
		if (f->kid[i]->k == CXCursor_CompoundStmt)
			body = f->kid[i];
	if (!body || body->mac)
		return;   /* (the declaration may start inside a macro: CJSON_PUBLIC(int) f(...)) */
	x->fid = new_id(x);
	x->st->functions++;
	CXString nm = clang_getCursorSpelling(f->c);
	struct ty rt;
	ty_of(clang_getResultType(clang_getCursorType(f->c)), &rt);
	struct buf rts = BUF_INIT;
	ty_str(&rt, &rts);
	struct buf head = BUF_INIT;
	line_text(x, f->s, &head);
	buf_addf(x->meta, "N\t%u\t%d\t%d\t%s\t%s\t%s\n", x->fid, x->fidx, f->line, clang_getCString(nm), rts.s,
		 head.s ? head.s : "");
	buf_release(&head);
	buf_release(&rts);
	show_type(x, x->fid, clang_getResultType(clang_getCursorType(f->c)));
	char fname[8];
	snprintf(fname, sizeof(fname), "%s", clang_getCString(nm));
	clang_disposeString(nm);
	char pnames[2][64];
	int nparams = 0;
	struct buf entry = BUF_INIT;
	buf_addf(&entry, " __cu_enter(%u);", x->fid);
	int idx = 0;
	for (int i = 0; i < f->nk; i++) {
		struct node *p = f->kid[i];
		if (p->k != CXCursor_ParmDecl)
			continue;
		CXString pn = clang_getCursorSpelling(p->c);
		const char *name = clang_getCString(pn);
		if (idx < 2 && name[0] && strlen(name) < sizeof(pnames[0]) && !named_by_macro(x, p, name)) {
			snprintf(pnames[idx], sizeof(pnames[0]), "%s", name);
			nparams += idx == nparams;
		}
		if (name[0] && ty_val(&p->t) && clang_Cursor_getStorageClass(p->c) != CX_SC_Register &&
		    !named_by_macro(x, p, name)) {
			unsigned pid = new_id(x);
			buf_addf(&entry, " __cu_p(%u, &%s, sizeof %s);", pid, name, name);
			struct buf ts = BUF_INIT;
			ty_str(&p->t, &ts);
			buf_addf(x->meta, "P\t%u\t%u\t%d\t%s\t%s\n", pid, x->fid, idx, ts.s, name);
			show_type(x, pid, clang_getCursorType(p->c));
			buf_release(&ts);
		}
		clang_disposeString(pn);
		idx++;
	}
	if (!strcmp(fname, "main") && nparams >= 2)
		buf_addf(&entry, " __cu_main(%s, (char **)(%s));", pnames[0], pnames[1]);
	else if (!strcmp(fname, "main"))
		buf_adds(&entry, " __cu_main(0, 0);");
	buf_addc(&entry, ' ');
	open_(x, body->s + 1, 0, buf_detach(&entry));
	/* A return's value is held in a variable of the function's own type
	 * (spelled as declared), so converting it warns only as the return
	 * did: `return 0;` in an unsigned function stays a constant's. */
	CXString rs = clang_getTypeSpelling(clang_getResultType(clang_getCursorType(f->c)));
	const char *rsp = clang_getCString(rs);
	free(x->rettype);
	x->rettype = (ty_scalar(&rt) || rt.cls == 'f') && rsp && *rsp && !strstr(rsp, "anonymous") && !strstr(rsp, "unnamed") ?
		     xstrdup(rsp) : NULL;
	clang_disposeString(rs);
	stmt(x, body);
	free(x->rettype);
	x->rettype = NULL;
	if (body->e > body->s + 1)
		open_(x, body->e - 1, 0, xasprintf(" __cu_ret0(%u); ", x->fid));
}

/* ------------------------------------------------------------- the file */

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	struct ctx *x = d;
	CXFile file;
	clang_getFileLocation(clang_getCursorLocation(c), &file, NULL, NULL, NULL);
	if (!file || !clang_File_isEqual(file, x->file))
		return CXChildVisit_Continue;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_MacroExpansion && !x->functions_pass) {
		CXSourceRange r = clang_getCursorExtent(c);
		CXString s = clang_getCursorSpelling(c);
		x->mr = xrealloc(x->mr, (x->nmr + 1) * sizeof(*x->mr));
		x->mr[x->nmr].s = offset_of(clang_getRangeStart(r), NULL);
		x->mr[x->nmr].e = offset_of(clang_getRangeEnd(r), NULL);
		x->mr[x->nmr].name = xstrdup(clang_getCString(s));
		CXCursor def = clang_getCursorReferenced(c);
		x->mr[x->nmr].semi = !clang_Cursor_isNull(def) && semi_body(x->tu, def);
		x->nmr++;
		clang_disposeString(s);
		return CXChildVisit_Continue;
	}
	if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(c) && x->functions_pass) {
		struct node *f = build(x, c, NULL);
		function(x, f);
		node_free(x);
	}
	return CXChildVisit_Continue;
}

/* Feature-test macros (_GNU_SOURCE, _POSIX_C_SOURCE, ...) decide what the
 * system headers declare, and the first system header fixes them. The
 * runtime, included first, includes system headers: so the definitions the
 * file makes before its first #include, or that its own headers make (a
 * config.h), are repeated ahead of the runtime, token for token, so that
 * the file's own definition later is an identical redefinition. */
struct features {
	struct ctx *x;
	unsigned first_include;   /* offset of the file's first #include */
	struct buf main_defs;     /* the file's own, with their offsets */
	struct buf defs;
};

static int feature_macro(const char *name)
{
	static const char *fm[] = {"_GNU_SOURCE", "_POSIX_C_SOURCE", "_XOPEN_SOURCE", "_XOPEN_SOURCE_EXTENDED",
				   "_DEFAULT_SOURCE", "_BSD_SOURCE", "_SVID_SOURCE", "_POSIX_SOURCE", "_ISOC99_SOURCE",
				   "_ISOC11_SOURCE", "_ISOC2X_SOURCE", "_LARGEFILE_SOURCE", "_LARGEFILE64_SOURCE",
				   "_FILE_OFFSET_BITS", "_TIME_BITS", "_REENTRANT", "_THREAD_SAFE", "_ALL_SOURCE",
				   "_NETBSD_SOURCE", "_DARWIN_C_SOURCE", "__EXTENSIONS__", "_TANDEM_SOURCE",
				   "_OPENBSD_SOURCE", "__STDC_WANT_LIB_EXT1__", "__STDC_WANT_IEC_60559_BFP_EXT__",
				   "__STDC_WANT_IEC_60559_FUNCS_EXT__", "__STDC_WANT_IEC_60559_TYPES_EXT__",
				   "__STDC_WANT_MATH_SPEC_FUNCS__", "__STDC_WANT_IEC_60559_ATTRIBS__",
				   "__STDC_WANT_IEC_60559_DFP_EXT__", "_HPUX_ALT_XOPEN_SOCKET_API", "_MINIX",
				   "_POSIX_1_SOURCE", "_POSIX_PTHREAD_SEMANTICS", NULL};
	for (int i = 0; fm[i]; i++)
		if (!strcmp(name, fm[i]))
			return 1;
	return 0;
}

static enum CXChildVisitResult feature_visit(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	struct features *fe = d;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k != CXCursor_MacroDefinition && k != CXCursor_InclusionDirective)
		return CXChildVisit_Continue;
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile file;
	unsigned s, en;
	clang_getFileLocation(clang_getRangeStart(r), &file, NULL, NULL, &s);
	clang_getFileLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &en);
	if (!file || clang_Location_isInSystemHeader(clang_getRangeStart(r)))
		return CXChildVisit_Continue;
	int in_main = clang_File_isEqual(file, fe->x->file);
	if (k == CXCursor_InclusionDirective) {
		if (in_main && s < fe->first_include)
			fe->first_include = s;
		return CXChildVisit_Continue;
	}
	CXString nm = clang_getCursorSpelling(c);
	int want = feature_macro(clang_getCString(nm));
	clang_disposeString(nm);
	size_t size = 0;
	const char *text = want ? clang_getFileContents(fe->x->tu, file, &size) : NULL;
	if (!text || en > size || en <= s)
		return CXChildVisit_Continue;
	struct buf *b = in_main ? &fe->main_defs : &fe->defs;
	if (in_main)
		buf_addf(b, "%u ", s);
	buf_adds(b, "#define ");
	for (unsigned i = s; i < en; i++)
		buf_addc(b, text[i] == '\n' || text[i] == '\r' ? ' ' : text[i]);
	buf_addc(b, '\n');
	return CXChildVisit_Continue;
}

/* The prelude of feature-test macro definitions (see struct features). */
static void features_of(struct ctx *x, struct buf *prelude)
{
	struct features fe = {x, UINT_MAX, BUF_INIT, BUF_INIT};
	clang_visitChildren(clang_getTranslationUnitCursor(x->tu), feature_visit, &fe);
	for (const char *p = fe.main_defs.s; p && *p;) {
		char *end;
		unsigned long off = strtoul(p, &end, 10);
		const char *nl = strchr(end, '\n');
		if (off < fe.first_include)
			buf_add(prelude, end + 1, (size_t)(nl - end));
		p = nl + 1;
	}
	if (fe.defs.len)
		buf_add(prelude, fe.defs.s, fe.defs.len);
	buf_release(&fe.main_defs);
	buf_release(&fe.defs);
}

int instr_file(const char *path, const char *rel, const char *text, size_t len, int fidx, const char *const *args,
	       int nargs, unsigned *next_id, struct buf *out, struct buf *meta, struct instr_stats *st, struct cerr *e)
{
	if (clang_load(e) < 0)
		return -1;
	struct buf src = BUF_INIT;
	if (text)
		buf_add(&src, text, len);
	else if (file_read(path, &src, (size_t)64 << 20, e) < 0)
		return -1;
	struct CXUnsavedFile unsaved = {path, src.s ? src.s : "", (unsigned long)src.len};
	CXIndex index = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	if (csrc_parse_tu(index, path, &unsaved, 1, args, nargs,
			  CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing, &tu, e) < 0) {
		clang_disposeIndex(index);
		buf_release(&src);
		return -1;
	}
	for (unsigned i = 0; i < clang_getNumDiagnostics(tu); i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		if (sev >= CXDiagnostic_Error) {
			CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation |
							       CXDiagnostic_DisplayColumn);
			cerr_set(e, "%s: cannot instrument: %s", rel, clang_getCString(s));
			clang_disposeString(s);
			clang_disposeDiagnostic(d);
			clang_disposeTranslationUnit(tu);
			clang_disposeIndex(index);
			buf_release(&src);
			return -1;
		}
		clang_disposeDiagnostic(d);
	}
	struct ctx x = {0};
	x.tu = tu;
	x.file = clang_getFile(tu, path);
	x.src = src.s ? src.s : "";
	x.len = src.len;
	x.fidx = fidx;
	x.next = next_id;
	x.meta = meta;
	x.st = st;
	/* Tokens of the whole file, for operators and statement ends. */
	CXSourceRange whole = clang_getRange(clang_getLocationForOffset(tu, x.file, 0),
					     clang_getLocationForOffset(tu, x.file, (unsigned)x.len));
	CXToken *toks = NULL;
	unsigned ntoks = 0;
	clang_tokenize(tu, whole, &toks, &ntoks);
	x.toks = xmalloc((ntoks + 1) * sizeof(*x.toks));
	for (unsigned i = 0; i < ntoks; i++) {
		CXSourceRange r = clang_getTokenExtent(tu, toks[i]);
		unsigned s = offset_of(clang_getRangeStart(r), NULL), en = offset_of(clang_getRangeEnd(r), NULL);
		x.toks[x.ntoks++] = (struct tok){s, en - s, clang_getTokenKind(toks[i])};
	}
	clang_disposeTokens(tu, toks, ntoks);
	buf_addf(meta, "F\t%d\t%s\n", fidx, rel);

	/* The macro expansions first, then the functions. */
	CXCursor root = clang_getTranslationUnitCursor(tu);
	clang_visitChildren(root, top_visit, &x);
	x.functions_pass = 1;
	clang_visitChildren(root, top_visit, &x);

	struct buf prelude = BUF_INIT;
	features_of(&x, &prelude);
	if (prelude.len) {   /* ahead of what the caller put first (the runtime's include) */
		buf_add(&prelude, out->s ? out->s : "", out->len);
		buf_release(out);
		*out = prelude;
	}

	if (x.ned)   /* qsort(NULL, 0) is undefined */
		qsort(x.ed, x.ned, sizeof(*x.ed), edit_cmp);
	size_t at = 0;
	for (size_t i = 0; i < x.ned; i++) {
		struct edit *d = &x.ed[i];
		if (d->off < at)   /* overlapping replacement: never expected */
			continue;
		buf_add(out, x.src + at, d->off - at);
		buf_adds(out, d->text);
		at = d->off + d->del;
	}
	buf_add(out, x.src + at, x.len - at);
	for (size_t i = 0; i < x.ned; i++)
		free(x.ed[i].text);
	free(x.ed);
	for (size_t i = 0; i < x.nmr; i++)
		free(x.mr[i].name);
	free(x.mr);
	free(x.toks);
	clang_disposeTranslationUnit(tu);
	clang_disposeIndex(index);
	buf_release(&src);
	return 0;
}
