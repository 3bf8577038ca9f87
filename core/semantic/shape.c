#include "core/semantic/shape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/isolate/run.h"

/* A shell word or operator of a command text, as far as finding words
 * goes: val is the word without its quotes, NULL when it expands
 * something ($x, `...`) or is cut by a command substitution. */
struct tok {
	size_t off, len;
	char *val;
	char op;        /* 0: a word; else '|', '&' (&&), 'o' (||), ';', '<', '>', '(', ')' */
};

struct toks {
	struct tok *v;
	size_t n;
};

static void tok_push(struct toks *t, size_t off, size_t len, char *val, char op)
{
	t->v = xrealloc(t->v, (t->n + 1) * sizeof(*t->v));
	t->v[t->n++] = (struct tok){off, len, val, op};
}

static void toks_release(struct toks *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].val);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* Words and operators; a "$(...)" inside double quotes is tokenized as
 * commands of its own (the quoted text around it makes no word). */
static void tokenize(const char *s, struct toks *t)
{
	size_t i = 0, n = strlen(s);
	int dq_depth[64], nd = 0, depth = 0;
	while (i < n) {
		char c = s[i];
		if (c == ' ' || c == '\t' || (c == '\\' && s[i + 1] == '\n')) {
			i += c == '\\' ? 2 : 1;
			continue;
		}
		if (c == '#') {
			while (i < n && s[i] != '\n')
				i++;
			continue;
		}
		if (c == '\n' || c == ';') {
			tok_push(t, i++, 1, NULL, ';');
			continue;
		}
		if (c == '|' || c == '&') {
			int two = s[i + 1] == c;
			tok_push(t, i, two ? 2 : 1, NULL, c == '|' ? (two ? 'o' : '|') : (two ? '&' : ';'));
			i += two ? 2 : 1;
			continue;
		}
		if (c == '<' || c == '>' || (c >= '0' && c <= '9' && (s[i + 1] == '>' || s[i + 1] == '<'))) {
			size_t j = i;
			if (c >= '0' && c <= '9')
				j++;
			char op = s[j];
			j++;
			if (s[j] == op || s[j] == '&')
				j++;
			if (s[j - 1] == '&') {   /* 2>&1: no file word follows */
				while (j < n && s[j] >= '0' && s[j] <= '9')
					j++;
				tok_push(t, i, j - i, NULL, 'r');
			} else {
				tok_push(t, i, j - i, NULL, c >= '0' && c <= '9' ? '>' : op);
			}
			i = j;
			continue;
		}
		if (c == '(' || (c == '$' && s[i + 1] == '(')) {
			tok_push(t, i, c == '$' ? 2 : 1, NULL, '(');
			i += c == '$' ? 2 : 1;
			depth++;
			continue;
		}
		if (c == ')') {
			tok_push(t, i++, 1, NULL, ')');
			if (depth)
				depth--;
			if (nd && dq_depth[nd - 1] == depth) {
				/* back inside a double-quoted string: skip to its end */
				nd--;
				while (i < n && s[i] != '"') {
					if (s[i] == '\\' && i + 1 < n)
						i++;
					else if (s[i] == '$' && s[i + 1] == '(')
						break;
					i++;
				}
				if (i < n && s[i] == '"')
					i++;
				else if (i < n) {   /* another substitution in the same string */
					if (nd < 64)
						dq_depth[nd++] = depth;
					tok_push(t, i, 2, NULL, '(');
					i += 2;
					depth++;
				}
			}
			continue;
		}
		/* A word. */
		size_t start = i;
		struct buf v = BUF_INIT;
		int literal = 1, cut = 0;
		while (i < n && !strchr(" \t\n;|&<>()", s[i])) {
			if (s[i] == '\'') {
				size_t e = i + 1;
				while (e < n && s[e] != '\'')
					e++;
				buf_add(&v, s + i + 1, e - i - 1);
				i = e < n ? e + 1 : e;
			} else if (s[i] == '"') {
				i++;
				while (i < n && s[i] != '"') {
					if (s[i] == '\\' && i + 1 < n && strchr("\"\\$`\n", s[i + 1])) {
						buf_addc(&v, s[i + 1]);
						i += 2;
						continue;
					}
					if (s[i] == '$' && s[i + 1] == '(') {
						cut = 1;
						break;
					}
					if (s[i] == '$' || s[i] == '`')
						literal = 0;
					buf_addc(&v, s[i++]);
				}
				if (cut)
					break;
				i++;
			} else if (s[i] == '\\' && i + 1 < n) {
				buf_addc(&v, s[i + 1]);
				i += 2;
			} else {
				if (s[i] == '$' || s[i] == '`' || s[i] == '*' || s[i] == '?' || s[i] == '~')
					literal = 0;
				if (s[i] == '$' && s[i + 1] == '(')
					break;
				buf_addc(&v, s[i++]);
			}
		}
		if (cut) {   /* "...$(": the substitution's commands are tokens */
			buf_release(&v);
			if (nd < 64)
				dq_depth[nd++] = depth;
			tok_push(t, i, 2, NULL, '(');
			i += 2;
			depth++;
			continue;
		}
		if (i == start) {   /* a lone character we do not know: skip it */
			buf_release(&v);
			i++;
			continue;
		}
		buf_addc(&v, '\0');
		tok_push(t, start, i - start, literal ? buf_detach(&v) : NULL, 0);
		if (!literal)
			buf_release(&v);
	}
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

static int is_word(const struct toks *t, size_t i, const char *v)
{
	return i < t->n && !t->v[i].op && t->v[i].val && !strcmp(t->v[i].val, v);
}

/* The first token of argv's invocation: its arguments as consecutive words
 * (after the program's own word if there is one), or the program's word
 * alone when it has none. -1 when absent. */
static long find_invocation(const struct toks *t, char *const *argv, size_t argc, long *prog)
{
	const char *b = base_name(argv[0]);
	long any = -1;
	*prog = -1;
	for (size_t i = 0; i < t->n; i++) {
		int progword = !t->v[i].op && t->v[i].val && !strcmp(base_name(t->v[i].val), b);
		if (argc == 1) {
			if (progword) {
				*prog = (long)i;
				return (long)i + 1;
			}
			continue;
		}
		size_t k = 1;
		while (k < argc && is_word(t, i + k - 1, argv[k]))
			k++;
		if (k < argc)
			continue;
		if (i > 0 && !t->v[i - 1].op && t->v[i - 1].val && !strcmp(base_name(t->v[i - 1].val), b)) {
			*prog = (long)i - 1;
			return (long)i;
		}
		if (any < 0)
			any = (long)i;
	}
	return any;
}

static int readable_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A file named by a word, relative to the test's directory (the top of root). */
static char *word_file(const char *root, const char *w)
{
	char *p = w[0] == '/' ? xstrdup(w) : xasprintf("%s/%s", root, w);
	if (readable_file(p))
		return p;
	free(p);
	return NULL;
}

static void add_sub(struct shape *s, size_t off, size_t len, int what, size_t arg)
{
	s->subs = xrealloc(s->subs, (s->nsubs + 1) * sizeof(*s->subs));
	s->subs[s->nsubs++] = (struct shape_sub){off, len, what, arg};
}

/* The end of the pipeline segment holding token i, and its start. */
static size_t seg_end(const struct toks *t, size_t i)
{
	int d = 0;
	for (; i < t->n; i++) {
		char op = t->v[i].op;
		if (op == '(')
			d++;
		else if (op == ')' && d-- == 0)
			return i;
		else if (!d && (op == '|' || op == ';' || op == '&' || op == 'o'))
			return i;
	}
	return t->n;
}

static size_t seg_start(const struct toks *t, size_t i)
{
	int d = 0;
	while (i > 0) {
		char op = t->v[i - 1].op;
		if (op == ')')
			d++;
		else if (op == '(' && d-- == 0)
			return i;
		else if (!d && (op == '|' || op == ';' || op == '&' || op == 'o'))
			return i;
		i--;
	}
	return 0;
}

/* The program's standard input: a "<" in its segment or its wrapper's, the
 * command piped into it, or none (a "<" is added). */
static void find_stdin(struct shape *s, const struct toks *t, size_t first, size_t last, int reads)
{
	size_t a = seg_start(t, first), z = seg_end(t, last);
	for (size_t i = a; i < z; i++)
		if (t->v[i].op == '<' && t->v[i].len == 1 && i + 1 < z && !t->v[i + 1].op) {
			if (reads || !t->v[i + 1].val || strcmp(t->v[i + 1].val, "/dev/null"))
				add_sub(s, t->v[i + 1].off, t->v[i + 1].len, SHAPE_STDIN_FILE, 0);
			return;
		}
	if (a > 0 && t->v[a - 1].op == '|') {
		size_t p = seg_start(t, a - 1);
		size_t off = t->v[p].off, end = t->v[a - 1].off;
		while (end > off && s->text[end - 1] == ' ')
			end--;
		add_sub(s, off, end - off, SHAPE_STDIN_PIPE, 0);
		return;
	}
	if (!reads)
		return;   /* none given, none read */
	size_t end = t->v[last].off + t->v[last].len;
	add_sub(s, end, 0, SHAPE_STDIN_ADD, 0);
}

static int same_bytes(const struct buf *a, const char *s, size_t n)
{
	return a->len == n && (!n || !memcmp(a->s, s, n));
}

/* Text with blank lines and the blanks around each line dropped: an
 * expected file a suite compares loosely (sed, diff -Z, diff -b). */
static void loose(const char *s, size_t n, struct buf *out)
{
	buf_init(out);
	size_t i = 0;
	while (i < n) {
		size_t e = i;
		while (e < n && s[e] != '\n')
			e++;
		size_t a = i, z = e;
		while (a < z && strchr(" \t\r\v\f", s[a]))
			a++;
		while (z > a && strchr(" \t\r\v\f", s[z - 1]))
			z--;
		if (z > a) {
			buf_add(out, s + a, z - a);
			buf_addc(out, '\n');
		}
		i = e + 1;
	}
}

static int same_loosely(const struct buf *a, const struct buf *b)
{
	struct buf x, y;
	loose(a->s ? a->s : "", a->len, &x);
	loose(b->s ? b->s : "", b->len, &y);
	int same = x.len && x.len == y.len && !memcmp(x.s, y.s, x.len);
	buf_release(&x);
	buf_release(&y);
	return same;
}

/* Output without its trailing newlines, as $(...) gives it. */
static char *trimmed(const struct buf *b)
{
	size_t n = b->len;
	while (n && b->s[n - 1] == '\n')
		n--;
	return xstrndup(b->s ? b->s : "", n);
}

/* A word that says what the program prints: the output itself, or a file
 * holding it. */
static void find_expect(struct shape *s, const struct toks *t, const char *root, const struct buf *good_out,
			size_t skip_from, size_t skip_to)
{
	char *want = trimmed(good_out);
	for (size_t i = 0; i < t->n && !s->expects; i++) {
		if (t->v[i].op || !t->v[i].val || (i >= skip_from && i < skip_to))
			continue;
		if (want[0] && !strcmp(t->v[i].val, want)) {
			add_sub(s, t->v[i].off, t->v[i].len, SHAPE_EXPECT, 0);
			s->expects = 1;
			continue;
		}
		char *p = word_file(root, t->v[i].val);
		struct buf f = BUF_INIT;
		if (p && file_read(p, &f, 1 << 20, NULL) == 0 && good_out->len &&
		    (same_bytes(&f, good_out->s, good_out->len) || same_loosely(&f, good_out))) {
			add_sub(s, t->v[i].off, t->v[i].len, SHAPE_EXPECT_FILE, 0);
			s->expects = 1;
		}
		buf_release(&f);
		free(p);
	}
	free(want);
}

/* The word setting each variable the run read (NAME=..., the nearest
 * before the program's word at tok), or the place to set it. */
static void find_env(struct shape *s, const struct toks *t, size_t tok)
{
	for (size_t j = 0; j < s->nenv; j++) {
		const char *eq = strchr(s->env[j], '=');
		size_t nl = eq ? (size_t)(eq - s->env[j]) + 1 : 0;
		if (!eq || !shell_name(s->env[j], nl - 1))
			continue;   /* no shell word sets it */
		size_t i = tok;
		while (i-- > 0)
			if (!t->v[i].op && t->v[i].val && !strncmp(t->v[i].val, s->env[j], nl))
				break;
		if (i < tok)
			add_sub(s, t->v[i].off, t->v[i].len, SHAPE_ENV, j);
		else
			add_sub(s, t->v[tok].off, 0, SHAPE_ENV_ADD, j);
	}
}

static int find_in(struct shape *s, const char *root, char *const *argv, size_t argc, int reads_stdin,
		   const struct buf *good_out)
{
	struct toks t = {0};
	tokenize(s->text, &t);
	long prog, first = find_invocation(&t, argv, argc, &prog);
	if (first < 0) {
		toks_release(&t);
		return -1;
	}
	for (size_t k = 1; k < argc; k++)
		add_sub(s, t.v[first + k - 1].off, t.v[first + k - 1].len, SHAPE_ARG, k);
	size_t from = prog >= 0 ? (size_t)prog : (size_t)first, to = (size_t)first + argc - 1;
	find_env(s, &t, prog >= 0 ? (size_t)prog : seg_start(&t, (size_t)first));
	find_stdin(s, &t, from, to > from ? to - 1 : from, reads_stdin);
	find_expect(s, &t, root, good_out, from, to);
	toks_release(&t);
	return 0;
}

int shape_find(struct shape *s, const char *cmd, const char *root, char *const *argv, size_t argc, char *const *env,
	       size_t nenv, int reads_stdin, const struct buf *good_out, struct cerr *e)
{
	memset(s, 0, sizeof(*s));
	s->cmd = xstrdup(cmd);
	s->text = xstrdup(cmd);
	s->env = xcalloc(nenv + 1, sizeof(*s->env));
	for (size_t j = 0; j < nenv; j++)
		s->env[s->nenv++] = xstrdup(env[j]);
	if (find_in(s, root, argv, argc, reads_stdin, good_out) == 0)
		return 0;
	/* In a script the command runs. */
	struct toks t = {0};
	tokenize(cmd, &t);
	for (size_t i = 0; i < t.n; i++) {
		if (t.v[i].op || !t.v[i].val)
			continue;
		int by_sh = i > 0 && !t.v[i - 1].op && t.v[i - 1].val &&
			    (!strcmp(base_name(t.v[i - 1].val), "sh") || !strcmp(base_name(t.v[i - 1].val), "bash"));
		/* sh -c 'TEXT': the text is the command */
		int inline_text = i > 1 && is_word(&t, i - 1, "-c") && !t.v[i - 2].op && t.v[i - 2].val &&
				  (!strcmp(base_name(t.v[i - 2].val), "sh") || !strcmp(base_name(t.v[i - 2].val), "bash"));
		struct buf f = BUF_INIT;
		if (inline_text) {
			buf_adds(&f, t.v[i].val);
		} else {
			char *p = word_file(root, t.v[i].val);
			int text = p && file_read(p, &f, 1 << 20, NULL) == 0 && f.len && !memchr(f.s, '\0', f.len) &&
				   !(f.len > 4 && !memcmp(f.s, "\177ELF", 4));
			free(p);
			if (!text) {
				buf_release(&f);
				continue;
			}
		}
		free(s->text);
		s->text = buf_detach(&f);
		s->nsubs = 0;
		if (find_in(s, root, argv, argc, reads_stdin, good_out) == 0) {
			s->script_off = t.v[i].off;
			s->script_len = t.v[i].len;
			s->script_run_by_sh = by_sh;
			s->inline_text = inline_text;
			toks_release(&t);
			return 0;
		}
	}
	toks_release(&t);
	shape_release(s);
	return cerr_set(e, "the program's arguments do not appear in the test's command or the scripts it names");
}

int shape_stdin(const struct shape *s, const char *root, struct buf *in)
{
	buf_init(in);
	for (size_t i = 0; i < s->nsubs; i++) {
		const struct shape_sub *u = &s->subs[i];
		char *w = xstrndup(s->text + u->off, u->len);
		int rc = -1;
		if (u->what == SHAPE_STDIN_FILE) {
			struct toks t = {0};
			tokenize(w, &t);
			char *p = t.n && t.v[0].val ? word_file(root, t.v[0].val) : NULL;
			rc = p && file_read(p, in, 1 << 20, NULL) == 0 ? 0 : -1;
			free(p);
			toks_release(&t);
		} else if (u->what == SHAPE_STDIN_PIPE) {
			struct run_opts ro = {.cmd = w, .cwd = root, .timeout = 10};
			struct run_result r;
			if (run_command(&ro, &r, NULL) == 0) {
				if (r.status == RUN_EXITED && !r.truncated) {
					buf_add(in, r.out.s ? r.out.s : "", r.out.len);
					rc = 0;
				}
				run_result_release(&r);
			}
		} else if (u->what == SHAPE_STDIN_ADD) {
			rc = 0;   /* none given: the terminal's, or nothing */
		}
		free(w);
		if (u->what == SHAPE_STDIN_FILE || u->what == SHAPE_STDIN_PIPE || u->what == SHAPE_STDIN_ADD)
			return rc;
	}
	return -1;
}

static int write_file(const char *dir, const char *name, const char *ext, const char *data, size_t len, char **path,
		      struct cerr *e)
{
	*path = xasprintf("%s%s.%s", dir, name, ext);
	return file_write_atomic(*path, data ? data : "", len, 0644, e);
}

char *shape_render(const struct shape *s, const struct gen_input *g, const struct buf *good_out, const char *dir,
		   const char *name, struct cerr *e)
{
	/* Substitutions from the end, so that offsets hold. */
	struct shape_sub *v = xmalloc((s->nsubs + 1) * sizeof(*v));
	memcpy(v, s->subs, s->nsubs * sizeof(*v));
	for (size_t i = 0; i < s->nsubs; i++)
		for (size_t j = i + 1; j < s->nsubs; j++)
			if (v[j].off > v[i].off) {
				struct shape_sub x = v[i];
				v[i] = v[j];
				v[j] = x;
			}
	char *text = xstrdup(s->text);
	int rc = 0;
	for (size_t i = 0; i < s->nsubs && rc == 0; i++) {
		struct buf b = BUF_INIT, w = BUF_INIT;
		char *path = NULL;
		switch (v[i].what) {
		case SHAPE_ARG:
			shell_quote(&w, v[i].arg < g->argc ? g->argv[v[i].arg] : "");
			break;
		case SHAPE_ENV:
		case SHAPE_ENV_ADD: {
			const char *nv = v[i].arg < g->nenv ? g->env[v[i].arg] : s->env[v[i].arg];
			const char *eq = strchr(nv, '=');
			if (v[i].what == SHAPE_ENV_ADD && !strcmp(nv, s->env[v[i].arg]))
				break;   /* as the environment gives it */
			buf_add(&w, nv, (size_t)(eq + 1 - nv));
			shell_quote(&w, eq + 1);
			if (v[i].what == SHAPE_ENV_ADD)
				buf_addc(&w, ' ');
			break;
		}
		case SHAPE_STDIN_FILE:
		case SHAPE_STDIN_PIPE:
		case SHAPE_STDIN_ADD:
			rc = write_file(dir, name, "in", g->in.s, g->in.len, &path, e);
			if (v[i].what == SHAPE_STDIN_PIPE)
				buf_adds(&w, "cat ");
			else if (v[i].what == SHAPE_STDIN_ADD)
				buf_adds(&w, " < ");
			shell_quote(&w, path ? path : "");
			break;
		case SHAPE_EXPECT: {
			char *t = trimmed(good_out);
			shell_quote(&w, t);
			free(t);
			break;
		}
		case SHAPE_EXPECT_FILE:
			rc = write_file(dir, name, "out", good_out->s, good_out->len, &path, e);
			shell_quote(&w, path ? path : "");
			break;
		}
		free(path);
		buf_add(&b, text, v[i].off);
		buf_add(&b, w.s ? w.s : "", w.len);
		buf_adds(&b, text + v[i].off + v[i].len);
		free(text);
		text = buf_detach(&b);
		buf_release(&w);
	}
	free(v);
	if (rc < 0) {
		free(text);
		return NULL;
	}
	if (!s->script_len)
		return text;
	if (s->inline_text) {   /* sh -c 'TEXT' with the new text */
		struct buf b = BUF_INIT;
		buf_add(&b, s->cmd, s->script_off);
		shell_quote(&b, text);
		buf_adds(&b, s->cmd + s->script_off + s->script_len);
		free(text);
		return buf_detach(&b);
	}
	/* The invocation was in a script: a copy of it, run in its place. */
	char *path = NULL;
	rc = write_file(dir, name, "sh", text, strlen(text), &path, e);
	free(text);
	if (rc < 0) {
		free(path);
		return NULL;
	}
	struct buf b = BUF_INIT;
	buf_add(&b, s->cmd, s->script_off);
	if (!s->script_run_by_sh)
		buf_adds(&b, "sh ");
	shell_quote(&b, path);
	buf_adds(&b, s->cmd + s->script_off + s->script_len);
	free(path);
	return buf_detach(&b);
}

void shape_release(struct shape *s)
{
	for (size_t j = 0; j < s->nenv; j++)
		free(s->env[j]);
	free(s->env);
	free(s->cmd);
	free(s->text);
	free(s->subs);
	memset(s, 0, sizeof(*s));
}
