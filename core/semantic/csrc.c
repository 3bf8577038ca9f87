#include "core/semantic/csrc.h"

#include "core/json.h"

#include "core/semantic/clang_load.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct walk {
	struct csrc_file *f;
	CXTranslationUnit tu;
	CXFile file;
};

static void names_add(struct csrc_names *s, const char *name)
{
	if (!name[0] || csrc_names_has(s, name))
		return;
	s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
	s->v[s->n++] = xstrdup(name);
}

int csrc_names_has(const struct csrc_names *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], name))
			return 1;
	return 0;
}

static int line_of(CXCursor c)
{
	unsigned line;
	clang_getSpellingLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
	return (int)line;
}

static int in_main_file(struct walk *w, CXCursor c)
{
	CXFile file;
	clang_getSpellingLocation(clang_getCursorLocation(c), &file, NULL, NULL, NULL);
	return file && clang_File_isEqual(file, w->file);
}

/* The variable an lvalue belongs to: x, x.f, x->f, x[i], *x -> "x". */
static void base_name(CXCursor c, char *out, size_t size);

static enum CXChildVisitResult first_child(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	*(CXCursor *)d = c;
	return CXChildVisit_Break;
}

static void base_name(CXCursor c, char *out, size_t size)
{
	out[0] = '\0';
	for (int depth = 0; depth < 32; depth++) {
		enum CXCursorKind k = clang_getCursorKind(c);
		if (k == CXCursor_DeclRefExpr) {
			CXString s = clang_getCursorSpelling(c);
			snprintf(out, size, "%s", clang_getCString(s));
			clang_disposeString(s);
			return;
		}
		if (k == CXCursor_MemberRefExpr || k == CXCursor_ArraySubscriptExpr || k == CXCursor_UnaryOperator ||
		    k == CXCursor_ParenExpr || k == CXCursor_UnexposedExpr || k == CXCursor_CStyleCastExpr) {
			CXCursor child = clang_getNullCursor();
			clang_visitChildren(c, first_child, &child);
			if (clang_Cursor_isNull(child))
				return;
			c = child;
			continue;
		}
		return;
	}
}

/* The operator token of a binary or unary operator: the first token after
 * the first child (binary), or the first/last token (unary). libclang 14 has
 * no operator-kind API. */
static void operator_of(CXTranslationUnit tu, CXCursor c, int binary, char *op, size_t size)
{
	CXToken *toks;
	unsigned n;
	op[0] = '\0';
	clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
	if (!n)
		return;
	if (binary) {
		CXCursor lhs = clang_getNullCursor();
		clang_visitChildren(c, first_child, &lhs);
		CXSourceRange r = clang_getCursorExtent(lhs);
		unsigned end;
		clang_getSpellingLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &end);
		for (unsigned i = 0; i < n; i++) {
			unsigned off;
			clang_getSpellingLocation(clang_getTokenLocation(tu, toks[i]), NULL, NULL, NULL, &off);
			if (off >= end && clang_getTokenKind(toks[i]) == CXToken_Punctuation) {
				CXString s = clang_getTokenSpelling(tu, toks[i]);
				snprintf(op, size, "%s", clang_getCString(s));
				clang_disposeString(s);
				break;
			}
		}
	} else {
		for (unsigned i = 0; i < n; i += n - 1 ? n - 1 : 1) {
			CXString s = clang_getTokenSpelling(tu, toks[i]);
			const char *t = clang_getCString(s);
			if (!strcmp(t, "++") || !strcmp(t, "--"))
				snprintf(op, size, "%s", t);
			clang_disposeString(s);
			if (op[0] || n == 1)
				break;
		}
	}
	clang_disposeTokens(tu, toks, n);
}

struct collect {
	struct walk *w;
	struct csrc_names *names;
};

/* Every variable assigned anywhere below c. */
static enum CXChildVisitResult assigns(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	struct collect *col = d;
	enum CXCursorKind k = clang_getCursorKind(c);
	char op[8], name[256];
	if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
		operator_of(col->w->tu, c, 1, op, sizeof(op));
		size_t n = strlen(op);
		if (n && op[n - 1] == '=' && strcmp(op, "==") && strcmp(op, "!=") && strcmp(op, "<=") && strcmp(op, ">=")) {
			CXCursor lhs = clang_getNullCursor();
			clang_visitChildren(c, first_child, &lhs);
			base_name(lhs, name, sizeof(name));
			names_add(col->names, name);
		}
	} else if (k == CXCursor_UnaryOperator) {
		operator_of(col->w->tu, c, 0, op, sizeof(op));
		if (op[0]) {
			base_name(c, name, sizeof(name));
			names_add(col->names, name);
		}
	} else if (k == CXCursor_VarDecl) {
		CXString s = clang_getCursorSpelling(c);
		names_add(col->names, clang_getCString(s));
		clang_disposeString(s);
	}
	return CXChildVisit_Recurse;
}

/* The children of a statement, in order (at most 8). */
struct kids {
	CXCursor v[8];
	int n;
};

static enum CXChildVisitResult gather(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	struct kids *k = d;
	if (k->n < 8)
		k->v[k->n++] = c;
	return CXChildVisit_Continue;
}

static void arm(struct walk *w, CXCursor c, struct csrc_names *names)
{
	struct collect col = {w, names};
	assigns(c, clang_getNullCursor(), &col);
	clang_visitChildren(c, assigns, &col);
}

static void add_branch(struct walk *w, CXCursor c, enum csrc_branch_kind kind)
{
	struct kids k = {.n = 0};
	clang_visitChildren(c, gather, &k);
	struct csrc_file *f = w->f;
	f->branches = xrealloc(f->branches, (f->nbranches + 1) * sizeof(*f->branches));
	struct csrc_branch *b = &f->branches[f->nbranches++];
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->line = line_of(c);
	switch (kind) {
	case CSRC_IF:
	case CSRC_CONDITIONAL:
		/* cond, then [, else] (libclang skips empty children) */
		if (k.n >= 2)
			arm(w, k.v[1], &b->then_arm);
		if (k.n >= 3)
			arm(w, k.v[2], &b->else_arm);
		break;
	case CSRC_DO:
		if (k.n >= 1)
			arm(w, k.v[0], &b->then_arm);
		break;
	default:
		/* while, switch: cond, body; for: [init, cond, inc,] body */
		if (k.n >= 1)
			arm(w, k.v[k.n - 1], &b->then_arm);
		if (kind == CSRC_FOR && k.n >= 2)
			arm(w, k.v[k.n - 2], &b->then_arm);   /* the increment runs with the body */
		break;
	}
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	struct walk *w = d;
	if (!in_main_file(w, c))
		return CXChildVisit_Continue;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
		struct csrc_file *f = w->f;
		CXSourceRange r = clang_getCursorExtent(c);
		unsigned start, end;
		clang_getSpellingLocation(clang_getRangeStart(r), NULL, &start, NULL, NULL);
		clang_getSpellingLocation(clang_getRangeEnd(r), NULL, &end, NULL, NULL);
		CXString s = clang_getCursorSpelling(c);
		f->funcs = xrealloc(f->funcs, (f->nfuncs + 1) * sizeof(*f->funcs));
		f->funcs[f->nfuncs++] = (struct csrc_function){xstrdup(clang_getCString(s)), (int)start, (int)end};
		clang_disposeString(s);
	}
	switch (k) {
	case CXCursor_IfStmt: add_branch(w, c, CSRC_IF); break;
	case CXCursor_WhileStmt: add_branch(w, c, CSRC_WHILE); break;
	case CXCursor_ForStmt: add_branch(w, c, CSRC_FOR); break;
	case CXCursor_DoStmt: add_branch(w, c, CSRC_DO); break;
	case CXCursor_SwitchStmt: add_branch(w, c, CSRC_SWITCH); break;
	case CXCursor_ConditionalOperator: add_branch(w, c, CSRC_CONDITIONAL); break;
	default: break;
	}
	return CXChildVisit_Recurse;
}

/* What gcc accepts and clang calls an error, as clang's own warning groups. */
static const char *const tolerant[] = {
	"-Wno-error",
	"-Wno-error=return-type",
	"-Wno-return-type",
	"-Wno-error=implicit-function-declaration",
	"-Wno-error=implicit-int",
	"-Wno-error=int-conversion",
	"-Wno-error=incompatible-pointer-types",
	"-Wno-error=incompatible-function-pointer-types",
	"-Wno-error=int-to-pointer-cast",
	"-Wno-error=pointer-sign",
	"-Wno-unknown-warning-option",
	"-Wno-unused-command-line-argument",
	"-Wno-ignored-optimization-argument",
	"-ferror-limit=0",
};

/* The argument a driver diagnostic names ("unknown argument: '-fx'"), or -1. */
static int unknown_arg(CXTranslationUnit tu, char **av, int n)
{
	for (unsigned i = 0; tu && i < clang_getNumDiagnostics(tu); i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		CXString s = clang_getDiagnosticSpelling(d);
		const char *m = clang_getCString(s), *q = m ? strstr(m, "unknown argument: '") : NULL;
		int found = -1;
		if (q) {
			q += strlen("unknown argument: '");
			size_t l = strcspn(q, "'");
			for (int k = 0; k < n && found < 0; k++)
				if (strlen(av[k]) == l && !strncmp(av[k], q, l))
					found = k;
		}
		clang_disposeString(s);
		clang_disposeDiagnostic(d);
		if (found >= 0)
			return found;
	}
	return -1;
}

int csrc_parse_tu(void *index, const char *path, struct CXUnsavedFile *unsaved, unsigned nunsaved,
		  const char *const *args, int nargs, unsigned options, struct CXTranslationUnitImpl **tu,
		  struct cerr *e)
{
	int n = 0, cap = nargs + (int)(sizeof(tolerant) / sizeof(*tolerant));
	char **av = xmalloc((size_t)(cap + 1) * sizeof(*av));
	for (int i = 0; i < nargs; i++)
		av[n++] = (char *)args[i];
	for (size_t i = 0; i < sizeof(tolerant) / sizeof(*tolerant); i++)
		av[n++] = (char *)tolerant[i];
	enum CXErrorCode ec = CXError_Failure;
	for (int tries = 0; tries < 16; tries++) {
		*tu = NULL;
		ec = clang_parseTranslationUnit2(index, path, (const char *const *)av, n, unsaved, nunsaved, options, tu);
		int bad = ec == CXError_Success && *tu ? unknown_arg(*tu, av, n) : -1;
		if (bad < 0)
			break;
		clang_disposeTranslationUnit(*tu);
		*tu = NULL;
		memmove(av + bad, av + bad + 1, (size_t)(n - bad - 1) * sizeof(*av));
		n--;
	}
	free(av);
	if (ec != CXError_Success || !*tu) {
		if (*tu)
			clang_disposeTranslationUnit(*tu);
		*tu = NULL;
		return cerr_set(e, "%s: libclang cannot parse it (error %d)", path, (int)ec);
	}
	return 0;
}

int csrc_parse(struct csrc_file *f, const char *path, const char *const *args, int nargs, struct cerr *e)
{
	memset(f, 0, sizeof(*f));
	if (clang_load(e) < 0)
		return -1;
	CXIndex idx = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	if (csrc_parse_tu(idx, path, NULL, 0, args, nargs,
			  CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing, &tu, e) < 0) {
		clang_disposeIndex(idx);
		return -1;
	}
	f->path = xstrdup(path);
	struct walk w = {f, tu, clang_getFile(tu, path)};
	clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, &w);
	clang_disposeTranslationUnit(tu);
	clang_disposeIndex(idx);
	return 0;
}

static void names_release(struct csrc_names *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

void csrc_release(struct csrc_file *f)
{
	for (size_t i = 0; i < f->nfuncs; i++)
		free(f->funcs[i].name);
	for (size_t i = 0; i < f->nbranches; i++) {
		names_release(&f->branches[i].then_arm);
		names_release(&f->branches[i].else_arm);
	}
	free(f->funcs);
	free(f->branches);
	free(f->path);
	memset(f, 0, sizeof(*f));
}

const struct csrc_function *csrc_function_at(const struct csrc_file *f, int line)
{
	for (size_t i = 0; i < f->nfuncs; i++)
		if (line >= f->funcs[i].start_line && line <= f->funcs[i].end_line)
			return &f->funcs[i];
	return NULL;
}

/* Split a shell command into words (quotes and backslashes, no expansion). */
static void split_words(const char *cmd, struct buf *words, int *n)
{
	*n = 0;
	const char *p = cmd;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		char q = 0;
		while (*p && (q || (*p != ' ' && *p != '\t'))) {
			if (!q && (*p == '\'' || *p == '"'))
				q = *p++;
			else if (q && *p == q)
				q = 0, p++;
			else if (*p == '\\' && p[1] && q != '\'')
				buf_addc(words, p[1]), p += 2;
			else
				buf_addc(words, *p++);
		}
		buf_addc(words, '\0');
		(*n)++;
	}
}

static void add_arg(char ***args, int *nargs, const char *a, int *skip)
{
	size_t al = strlen(a);
	if (*skip) {
		*skip = 0;
		return;
	}
	if (!strcmp(a, "-o")) {
		*skip = 1;
		return;
	}
	if (!strcmp(a, "-c") || !strncmp(a, "-fanalyzer", 10) || (a[0] != '-' && al > 2 && !strcmp(a + al - 2, ".c")))
		return;
	*args = xrealloc(*args, (size_t)(*nargs + 1) * sizeof(**args));
	(*args)[(*nargs)++] = xstrdup(a);
}

int csrc_flags(const char *dir, const char *file, char ***args, int *nargs, struct cerr *e)
{
	*args = NULL;
	*nargs = 0;
	char *path = xasprintf("%s/compile_commands.json", dir);
	struct buf text = BUF_INIT;
	int rc = file_read(path, &text, 256u << 20, NULL);
	if (rc < 0) {
		free(path);
		buf_release(&text);
		return 0;   /* no database */
	}
	struct cerr je;
	struct json *db = json_parse(text.s ? text.s : "", text.len, &je);
	buf_release(&text);
	if (!db || db->type != JSON_ARRAY) {
		rc = cerr_set(e, "%s: not a compilation database%s%s", path, db ? "" : ": ", db ? "" : je.msg);
		json_free(db);
		free(path);
		return rc;
	}
	free(path);
	rc = 0;
	for (size_t i = 0; i < db->n && !rc; i++) {
		const struct json *d = json_get(db->kids[i], "directory"), *f = json_get(db->kids[i], "file");
		if (!f || f->type != JSON_STRING)
			continue;
		char *full = f->str[0] == '/' || !d || d->type != JSON_STRING ? xstrdup(f->str)
									   : xasprintf("%s/%s", d->str, f->str);
		int match = !strcmp(full, file);
		free(full);
		if (!match)
			continue;
		const struct json *av = json_get(db->kids[i], "arguments"), *cmd = json_get(db->kids[i], "command");
		int skip = 0;
		if (d && d->type == JSON_STRING) {   /* relative -I and friends */
			char *wd = xasprintf("-working-directory=%s", d->str);
			add_arg(args, nargs, wd, &skip);
			free(wd);
		}
		if (av && av->type == JSON_ARRAY) {
			for (size_t k = 1; k < av->n; k++)   /* 0 is the compiler */
				if (av->kids[k]->type == JSON_STRING)
					add_arg(args, nargs, av->kids[k]->str, &skip);
		} else if (cmd && cmd->type == JSON_STRING) {
			struct buf words = BUF_INIT;
			int n;
			split_words(cmd->str, &words, &n);
			const char *w = words.s;
			for (int k = 0; k < n; k++, w += strlen(w) + 1)
				if (k > 0)
					add_arg(args, nargs, w, &skip);
			buf_release(&words);
		}
		rc = 1;
	}
	json_free(db);
	return rc;
}

void csrc_args_free(char **args, int nargs)
{
	for (int i = 0; i < nargs; i++)
		free(args[i]);
	free(args);
}

int csrc_db_files(const char *dir, char ***files, size_t *n, struct cerr *e)
{
	*files = NULL;
	*n = 0;
	char *path = xasprintf("%s/compile_commands.json", dir);
	struct buf text = BUF_INIT;
	if (file_read(path, &text, 256u << 20, NULL) < 0) {
		free(path);
		buf_release(&text);
		return 0;
	}
	struct cerr je;
	struct json *db = json_parse(text.s ? text.s : "", text.len, &je);
	buf_release(&text);
	if (!db || db->type != JSON_ARRAY) {
		int rc = cerr_set(e, "%s: not a compilation database%s%s", path, db ? "" : ": ", db ? "" : je.msg);
		json_free(db);
		free(path);
		return rc;
	}
	free(path);
	for (size_t i = 0; i < db->n; i++) {
		const struct json *d = json_get(db->kids[i], "directory"), *f = json_get(db->kids[i], "file");
		if (!f || f->type != JSON_STRING)
			continue;
		char *full = f->str[0] == '/' || !d || d->type != JSON_STRING ? xstrdup(f->str)
									   : xasprintf("%s/%s", d->str, f->str);
		int dup = 0;
		for (size_t k = 0; k < *n && !dup; k++)
			dup = !strcmp((*files)[k], full);
		if (dup) {
			free(full);
			continue;
		}
		*files = xrealloc(*files, (*n + 1) * sizeof(**files));
		(*files)[(*n)++] = full;
	}
	json_free(db);
	return 1;
}
