#include "core/semantic/gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/semantic/formula.h"

void gen_input_release(struct gen_input *g)
{
	for (size_t i = 0; i < g->argc; i++)
		free(g->argv[i]);
	free(g->argv);
	for (size_t i = 0; i < g->nenv; i++)
		free(g->env[i]);
	free(g->env);
	buf_release(&g->in);
	free(g->dir);
	memset(g, 0, sizeof(*g));
}

static int printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < ' ' || (unsigned char)s[i] > '~')
			return 0;
	return 1;
}

/* Whether "NAME=value" can be written so before a command. */
static int env_settable(const char *nv)
{
	const char *eq = strchr(nv, '=');
	return eq && shell_name(nv, (size_t)(eq - nv));
}

/* Whether the variable has this value in culprit's own environment, which
 * the test's commands inherit: then the command need not set it (HOME,
 * PATH, a locale), and the written test does not depend on this machine. */
static int env_inherited(const char *nv)
{
	const char *eq = strchr(nv, '=');
	char *name = xstrndup(nv, (size_t)(eq - nv));
	const char *cur = getenv(name);
	free(name);
	return cur && !strcmp(cur, eq + 1);
}

char *gen_command(const struct gen_input *g)
{
	/* One line, byte for byte: an argument holding a control or non-ASCII
	 * byte is made by printf %b into a variable first (its trailing '_'
	 * keeps a trailing newline through the command substitution). */
	struct buf b = BUF_INIT;
	if (strcmp(g->dir, ".")) {
		buf_adds(&b, "cd ");
		shell_quote(&b, g->dir);
		buf_adds(&b, " && ");
	}
	for (size_t i = 0; i < g->argc; i++)
		if (!printable(g->argv[i], strlen(g->argv[i]))) {
			buf_addf(&b, "a%zu=$(printf '%%b_' ", i);
			shell_quote_b(&b, g->argv[i], strlen(g->argv[i]));
			buf_addf(&b, ") && a%zu=${a%zu%%_} && ", i, i);
		}
	for (size_t i = 0; i < g->nenv; i++) {
		const char *v = strchr(g->env[i], '=');
		if (env_settable(g->env[i]) && !env_inherited(g->env[i]) && !printable(v + 1, strlen(v + 1))) {
			buf_addf(&b, "e%zu=$(printf '%%b_' ", i);
			shell_quote_b(&b, v + 1, strlen(v + 1));
			buf_addf(&b, ") && e%zu=${e%zu%%_} && ", i, i);
		}
	}
	if (g->in.len && printable(g->in.s, g->in.len)) {
		buf_adds(&b, "printf '%s' ");
		shell_quote(&b, g->in.s);
		buf_adds(&b, " | ");
	} else if (g->in.len) {
		buf_adds(&b, "printf '%b' ");
		shell_quote_b(&b, g->in.s, g->in.len);
		buf_adds(&b, " | ");
	}
	for (size_t i = 0; i < g->nenv; i++) {
		const char *v = strchr(g->env[i], '=');
		if (!env_settable(g->env[i]) || env_inherited(g->env[i]))
			continue;   /* the environment's own, as the run had it */
		buf_add(&b, g->env[i], (size_t)(v + 1 - g->env[i]));
		if (printable(v + 1, strlen(v + 1)))
			shell_quote(&b, v + 1);
		else
			buf_addf(&b, "\"$e%zu\"", i);
		buf_addc(&b, ' ');
	}
	for (size_t i = 0; i < g->argc; i++) {
		if (i)
			buf_addc(&b, ' ');
		if (printable(g->argv[i], strlen(g->argv[i])))
			shell_quote(&b, g->argv[i]);
		else
			buf_addf(&b, "\"$a%zu\"", i);
	}
	if (!g->in.len)
		buf_adds(&b, " < /dev/null");
	return buf_detach(&b);
}

/* A byte as it reads in $'...' and "..." alike. */
static void describe_byte(struct buf *b, unsigned char c, char quote)
{
	if (c == '\n')
		buf_adds(b, "\\n");
	else if (c == '\t')
		buf_adds(b, "\\t");
	else if (c == quote || c == '\\')
		buf_addf(b, "\\%c", c);
	else if (c < ' ' || c > '~')
		buf_addf(b, "\\x%02x", c);
	else
		buf_addc(b, (char)c);
}

char *gen_describe(const struct gen_input *g)
{
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < g->nenv + g->argc; i++) {
		const char *a = i < g->nenv ? strchr(g->env[i], '=') + 1 : g->argv[i - g->nenv];
		if (i < g->nenv)
			buf_add(&b, g->env[i], (size_t)(a - g->env[i]));
		else if (i > g->nenv)
			buf_addc(&b, ' ');
		if (printable(a, strlen(a))) {
			shell_quote(&b, a);
		} else {
			buf_adds(&b, "$'");   /* as bash writes it */
			for (const char *p = a; *p; p++)
				describe_byte(&b, (unsigned char)*p, '\'');
			buf_addc(&b, '\'');
		}
		if (i < g->nenv)
			buf_addc(&b, ' ');
	}
	if (g->in.len) {
		buf_adds(&b, " < \"");
		for (size_t i = 0; i < g->in.len && i < 200; i++)
			describe_byte(&b, (unsigned char)g->in.s[i], '"');
		buf_adds(&b, g->in.len > 200 ? "...\"" : "\"");
	}
	return buf_detach(&b);
}

#define RANGE_ID 0xffffff01u   /* the runtime's __CU_RANGE record */

/* The text range of item event i (the range record just before it), or 0. */
static int item_range(const struct trace *t, size_t i, size_t *start, size_t *end, char *conv)
{
	for (size_t k = i; k-- > 0 && i - k < 4;)
		if (t->ev[k].kind == TE_ARG && t->ev[k].id == RANGE_ID) {
			*start = (size_t)(t->ev[k].val & 0xffffffffu);
			*end = (size_t)(t->ev[k].val >> 32);
			*conv = (char)t->ev[k].size;
			return *end >= *start;
		}
	return 0;
}

/* Which stream an input event read (0 stdin, k the file of argument k), -1 none. */
static int stream_of(const struct tev *v)
{
	if (v->kind != TE_IN || (v->aux != TIN_STDBYTE && v->aux != TIN_STDINT) || v->id == ~0u)
		return -1;
	return (int)(v->id >> 24);
}

static size_t stream_off(const struct tev *v)
{
	return v->id & 0xffffff;
}

/* A float's or double's bits as the shortest text that reads back as the
 * same value (a person's 2.5, not 2.50000000000000000). */
static void float_text(struct buf *b, unsigned long long u, unsigned size)
{
	double d;
	if (size == 4) {
		unsigned u32 = (unsigned)u;
		float fl;
		memcpy(&fl, &u32, 4);
		d = fl;
	} else {
		memcpy(&d, &u, 8);
	}
	char s[64];
	if (d == (double)(long long)d && d > -1e15 && d < 1e15 && !(d == 0 && signbit(d))) {
		buf_addf(b, "%lld", (long long)d);   /* a whole number as a person writes it: 20, not 2e+01 */
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(s, sizeof(s), "%.*g", prec, d);
		double back = strtod(s, NULL);
		if (size == 4 ? (float)back == (float)d : back == d)
			break;
	}
	buf_adds(b, s);
}

/* An item's new text, written the way scanf reads it back. */
static void item_text(struct buf *b, long long x, char conv, unsigned size)
{
	unsigned long long u = (unsigned long long)x;
	if (size < 8)
		u &= (1ull << (8 * size)) - 1;
	if (strchr("fFeEgGaA", conv) && (size == 4 || size == 8)) {
		float_text(b, u, size);
		return;
	}
	if (conv == 'x' || conv == 'X')
		buf_addf(b, "%llx", u);
	else if (conv == 'o')
		buf_addf(b, "%llo", u);
	else if (conv == 'u')
		buf_addf(b, "%llu", u);
	else
		buf_addf(b, "%lld", x);
}

struct edit {
	size_t start, end;      /* replaced range; a byte edit: end = start + 1 */
	int truncate;           /* EOF here: the input ends */
	char *text;
	size_t len;
	int item;
};

static void edit_add(struct edit **v, size_t *n, size_t start, size_t end, const char *text, size_t len, int item,
		     int truncate)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = (struct edit){start, end, truncate, xstrndup(text, len), len, item};
}

/* Apply edits (an item's edit wins over byte edits inside its text). */
static void edits_apply(struct buf *content, struct edit *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (v[j].start > v[i].start || (v[j].start == v[i].start && v[j].item > v[i].item)) {
				struct edit x = v[i];
				v[i] = v[j];
				v[j] = x;
			}
	size_t lo = (size_t)-1;   /* the start of the last item applied */
	for (size_t i = 0; i < n; i++) {
		if (!v[i].item && v[i].start >= lo)
			continue;
		if (v[i].start > content->len)
			continue;
		if (v[i].truncate) {
			content->len = v[i].start;
			continue;
		}
		size_t end = v[i].end < content->len ? v[i].end : content->len;
		struct buf b = BUF_INIT;
		buf_add(&b, content->s, v[i].start);
		buf_add(&b, v[i].text, v[i].len);
		buf_add(&b, content->s + end, content->len - end);
		buf_release(content);
		*content = b;
		if (v[i].item)
			lo = v[i].start;
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].text);
}

/* A stream's text as the run read it when the original is not at hand:
 * the bytes read, the items' numbers, blanks between. */
static void synthesize(const struct trace *t, int stream, struct buf *out)
{
	buf_init(out);
	size_t len = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct tev *v = &t->ev[i];
		size_t a, z;
		char conv;
		if (stream_of(v) != stream)
			continue;
		if (v->aux == TIN_STDBYTE && (v->addr || trace_value(v, 1) >= 0) && stream_off(v) + 1 > len)
			len = stream_off(v) + 1;
		if (v->aux == TIN_STDINT && item_range(t, i, &a, &z, &conv) && z > len)
			len = z;
	}
	buf_grow(out, len + 2);
	memset(out->s, ' ', len);
	out->len = len;
	for (size_t i = 0; i < t->n; i++) {
		const struct tev *v = &t->ev[i];
		size_t a, z;
		char conv;
		if (stream_of(v) != stream)
			continue;
		long long x = v->aux == TIN_STDBYTE && !v->addr ? trace_value(v, 1) : (long long)v->val;
		if (v->aux == TIN_STDBYTE && x >= 0 && stream_off(v) < len)
			out->s[stream_off(v)] = (char)x;
		if (v->aux == TIN_STDINT && item_range(t, i, &a, &z, &conv)) {
			struct buf b = BUF_INIT;
			item_text(&b, trace_value(v, 1), conv, v->size);
			if (b.len <= z - a)   /* right-aligned: blanks before a number read alike */
				memcpy(out->s + z - b.len, b.s, b.len);
			buf_release(&b);
		}
	}
	if (len && out->s[len - 1] == ' ')
		out->s[len - 1] = '\n';
	out->s[out->len] = '\0';
}

/* A generated file's path: its contents' hash in dir (the same contents, the same path). */
static char *file_for(const char *dir, const struct buf *b, struct cerr *e)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < b->len; i++)
		h = (h ^ (unsigned char)b->s[i]) * 1099511628211ull;
	if (mkdir_p(dir, 0755, e) < 0)
		return NULL;
	char *p = xasprintf("%s/in-%016llx", dir, (unsigned long long)h);
	if (file_write_atomic(p, b->s ? b->s : "", b->len, 0644, e) < 0) {
		free(p);
		return NULL;
	}
	return p;
}

/* The edit target of argument id k: argument k's, or past the streams an
 * environment variable's (k >= TRACE_ENV); SIZE_MAX none. */
static size_t arg_target(const struct gen_input *g, size_t k)
{
	if (k < g->argc)
		return k;
	if (k >= TRACE_ENV && k - TRACE_ENV < g->nenv)
		return 2 * g->argc + 1 + (k - TRACE_ENV);
	return SIZE_MAX;
}

/* A word (an argument or a variable's value) with its edits: a NUL
 * written into it ends it there; one read as a number is written whole. */
static char *word_edited(const char *orig, struct edit *ed, size_t ned, int whole)
{
	struct buf w = BUF_INIT;
	buf_adds(&w, orig);
	if (whole)
		for (size_t i = 0; i < ned; i++)
			if (!ed[i].item) {
				free(ed[i].text);
				ed[i--] = ed[--ned];
			}
	for (size_t i = 0; i < ned; i++)   /* a byte past the end grows it */
		while (ed[i].start < (size_t)-1 && ed[i].end != (size_t)-1 && w.len < ed[i].start)
			buf_addc(&w, '\0');
	edits_apply(&w, ed, ned);
	buf_addc(&w, '\0');
	char *s = xstrdup(w.s);   /* up to the first NUL */
	buf_release(&w);
	return s;
}

/* The input with the values vals of the input events ev (the run's own for the rest). */
static void rebuild(const struct trace *t, const struct gen_input *orig, const uint32_t *ev, const long long *vals,
		    size_t n, const char *root, const char *filedir, struct gen_input *g)
{
	memset(g, 0, sizeof(*g));
	g->dir = xstrdup(orig->dir);
	g->argc = orig->argc;
	g->argv = xcalloc(g->argc + 1, sizeof(*g->argv));
	g->nenv = orig->nenv;
	g->env = xcalloc(g->nenv + 1, sizeof(*g->env));
	/* Edits per target: arguments 0..argc-1, then streams (stdin, argument
	 * k's file), then the environment variables' values. */
	size_t ntarget = 2 * g->argc + 1 + g->nenv;
	struct edit **ed = xcalloc(ntarget, sizeof(*ed));
	size_t *ned = xcalloc(ntarget, sizeof(*ned));
	unsigned char *whole = xcalloc(ntarget, 1);
	for (size_t k = 0; k < n; k++) {
		const struct tev *v = &t->ev[ev[k]];
		size_t a, z, tg;
		char conv;
		struct buf b = BUF_INIT;
		if (v->aux == TIN_ARGINT && (tg = arg_target(g, v->id)) != SIZE_MAX) {
			item_text(&b, vals[k], 'd', v->size);
			if (item_range(t, ev[k], &a, &z, &conv)) {
				b.len = 0;
				item_text(&b, vals[k], conv, v->size);
				edit_add(&ed[tg], &ned[tg], a, z, b.s, b.len, 1, 0);
			} else {
				edit_add(&ed[tg], &ned[tg], 0, (size_t)-1, b.s, b.len, 1, 0);
				whole[tg] = 1;
			}
		} else if (v->aux == TIN_ARGBYTE && (tg = arg_target(g, v->id >> 16)) != SIZE_MAX) {
			char c = (char)vals[k];
			edit_add(&ed[tg], &ned[tg], v->id & 0xffff, (v->id & 0xffff) + 1, &c, 1, 0, 0);
		} else if (stream_of(v) >= 0 && (size_t)stream_of(v) < g->argc) {
			tg = g->argc + (size_t)stream_of(v);
			if (v->aux == TIN_STDBYTE) {
				char c = (char)vals[k];
				edit_add(&ed[tg], &ned[tg], stream_off(v), stream_off(v) + 1, &c, 1, 0, vals[k] < 0);
			} else if (item_range(t, ev[k], &a, &z, &conv)) {
				item_text(&b, vals[k], conv, v->size);
				edit_add(&ed[tg], &ned[tg], a, z, b.s, b.len, 1, 0);
			}
		}
		buf_release(&b);
	}
	for (size_t k = 0; k < g->argc; k++)
		g->argv[k] = word_edited(orig->argv[k], ed[k], ned[k], whole[k]);
	for (size_t j = 0; j < g->nenv; j++) {
		const char *eq = strchr(orig->env[j], '=');
		size_t tg = 2 * g->argc + 1 + j;
		char *val = word_edited(eq + 1, ed[tg], ned[tg], whole[tg]);
		g->env[j] = xasprintf("%.*s=%s", (int)(eq - orig->env[j]), orig->env[j], val);
		free(val);
	}
	/* Standard input. */
	buf_init(&g->in);
	buf_add(&g->in, orig->in.s, orig->in.len);
	edits_apply(&g->in, ed[g->argc], ned[g->argc]);
	/* Files named by arguments, written anew when they change. */
	for (size_t k = 1; k < g->argc; k++) {
		size_t tg = g->argc + k;
		if (!ned[tg] || !filedir) {
			for (size_t i = 0; i < ned[tg]; i++)
				free(ed[tg][i].text);
			continue;
		}
		struct buf f = BUF_INIT;
		char *path = orig->argv[k][0] == '/' ? xstrdup(orig->argv[k])
						     : xasprintf("%s/%s/%s", root, orig->dir, orig->argv[k]);
		if (file_read(path, &f, 1 << 24, NULL) < 0)
			synthesize(t, (int)k, &f);
		free(path);
		edits_apply(&f, ed[tg], ned[tg]);
		char *np = file_for(filedir, &f, NULL);
		if (np) {
			free(g->argv[k]);
			g->argv[k] = np;
		}
		buf_release(&f);
	}
	for (size_t i = 0; i < ntarget; i++)
		free(ed[i]);
	free(ed);
	free(ned);
	free(whole);
	g->branch = TRACE_NONE;
	g->varied = TRACE_NONE;
}

/* Whether the run read standard input. */
static int reads_stdin(const struct trace *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (stream_of(&t->ev[i]) == 0)
			return 1;
	return 0;
}

int gen_original(const struct trace *t, const char *root, const struct buf *in0, const char *filedir,
		 struct gen_input *g, struct cerr *e)
{
	memset(g, 0, sizeof(*g));
	if (!t->nargs || !t->cwd)
		return cerr_set(e, "the failing run's main function was not traced: its inputs are unknown");
	size_t rl = strlen(root);
	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	if (strncmp(t->cwd, root, rl) || (t->cwd[rl] && t->cwd[rl] != '/'))
		return cerr_set(e, "the failing test runs its program outside the tree (in %s)", t->cwd);
	struct gen_input base = {0};
	base.dir = xstrdup(t->cwd[rl] ? t->cwd + rl + 1 : ".");
	base.argc = t->nargs;
	base.argv = xcalloc(base.argc + 1, sizeof(*base.argv));
	const char *p = t->args.s;
	for (size_t k = 0; k < base.argc; k++) {
		base.argv[k] = xstrdup(p);
		p += strlen(p) + 1;
	}
	base.nenv = t->nenv;
	base.env = xcalloc(base.nenv + 1, sizeof(*base.env));
	p = t->env.s;
	for (size_t k = 0; k < base.nenv; k++) {
		base.env[k] = xstrdup(p);
		p += strlen(p) + 1;
	}
	if (in0)
		buf_add(&base.in, in0->s ? in0->s : "", in0->len);
	else if (reads_stdin(t))
		synthesize(t, 0, &base.in);
	rebuild(t, &base, NULL, NULL, 0, root, filedir, g);
	gen_input_release(&base);
	return 0;
}

/* A near-copy of the run's own input: the same words and bytes but for
 * blanks (a trailing space, a doubled newline) — it says nothing new. */
int gen_near_copy(const struct gen_input *a, const struct gen_input *b)
{
	if (a->argc != b->argc || a->nenv != b->nenv)
		return 0;
	struct buf x = BUF_INIT, y = BUF_INIT;
	for (int side = 0; side < 2; side++) {
		const struct gen_input *g = side ? b : a;
		struct buf *o = side ? &y : &x;
		for (size_t k = 0; k <= g->argc + g->nenv; k++) {
			const char *s = k < g->argc ? g->argv[k] : k > g->argc ? g->env[k - g->argc - 1] : g->in.s;
			size_t n = k == g->argc ? g->in.len : strlen(s);
			for (size_t i = 0; i < n; i++)
				if (!strchr(" \t\r\n\v\f", s[i]))
					buf_addc(o, s[i]);
			buf_addc(o, '\x01');
		}
	}
	int same = x.len == y.len && !memcmp(x.s, y.s, x.len);
	buf_release(&x);
	buf_release(&y);
	return same;
}

/* Whether g's command is the run's own (own), one in seen, or one of v[0..n). */
static int known_input(const struct gen_input *g, const char *own, char *const *seen, size_t nseen,
		       const struct gen_input *v, size_t n)
{
	char *cmd = gen_command(g);
	int dup = !strcmp(cmd, own);
	for (size_t k = 0; k < nseen && !dup; k++)
		dup = !strcmp(cmd, seen[k]);
	for (size_t k = 0; k < n && !dup; k++) {
		char *c2 = gen_command(&v[k]);
		dup = !strcmp(cmd, c2);
		free(c2);
	}
	free(cmd);
	return dup;
}

/* The run's own path with other values, a few for each input the run
 * read (br: its input-dependent branches), appended to *v up to max. */
static int same_path(const struct trace *t, const struct gen_input *orig, const char *root, const char *filedir,
		     const uint32_t *br, size_t nbr, size_t max, const char *own, char *const *seen, size_t nseen,
		     struct gen_input **v, size_t *n, struct gen_stats *st, struct cerr *e)
{
	struct flips sp;
	struct formula *f = formula_new_mode(t, 1);
	size_t per = max / 4 ? max / 4 : 1;
	if (per > 3)
		per = 3;
	int rc = formula_same_path(f, br, nbr, per, max * 16, &sp, e);
	formula_free(f);
	st->checks += sp.checks;
	st->clauses += sp.clauses;
	st->seconds += sp.seconds;
	st->capped |= sp.capped;
	*v = xrealloc(*v, (*n + sp.n + 1) * sizeof(**v));
	for (size_t i = 0; rc == 0 && i < sp.n && *n < max; i++) {
		struct gen_input g;
		rebuild(t, orig, sp.v[i].in, sp.v[i].val, sp.v[i].n, root, filedir, &g);
		g.varied = sp.v[i].varied;
		if (known_input(&g, own, seen, nseen, *v, *n))
			gen_input_release(&g);
		else
			(*v)[(*n)++] = g;
	}
	flips_release(&sp);
	return rc;
}

/* The inputs v[0..n) to the caller, or released when rc < 0. */
static int hand_out(int rc, struct gen_input *v, size_t n, struct gen_input **out, size_t *nout)
{
	if (rc < 0) {
		for (size_t i = 0; i < n; i++)
			gen_input_release(&v[i]);
		free(v);
		return -1;
	}
	*out = v;
	*nout = n;
	return 0;
}

/* The branches of run t whose outcome depends on its inputs, in the order
 * they ran (*n of them). */
static uint32_t *input_branches(const struct trace *t, size_t *n)
{
	struct bits *taint = bits_new(t->n + 1);
	trace_taint(t, taint);
	uint32_t *br = xmalloc((t->n + 1) * sizeof(*br));
	*n = 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->ev[i].kind == TE_BRANCH && bits_test(taint, i))
			br[(*n)++] = (uint32_t)i;
	bits_free(taint);
	return br;
}

int gen_candidates(const struct trace *t, const char *root, const struct buf *in0, const char *filedir,
		   const uint32_t *prefer, size_t nprefer, size_t max, char *const *seen, size_t nseen,
		   struct gen_input **out, size_t *nout, struct gen_stats *st, struct cerr *e)
{
	memset(st, 0, sizeof(*st));
	*out = NULL;
	*nout = 0;
	struct gen_input orig;
	if (gen_original(t, root, in0, filedir, &orig, e) < 0)
		return -1;
	size_t nbr;
	uint32_t *br = input_branches(t, &nbr);
	st->branches = nbr;
	/* Which to negate: the preferred ones, then the first run of each
	 * branch site and outcome, in the order they ran. */
	unsigned char *want = xcalloc(nbr + 1, 1);
	size_t budget = max * 4, wanted = 0;
	for (size_t k = 0; k < nprefer && wanted < budget; k++)
		for (size_t i = 0; i < nbr; i++)
			if (br[i] == prefer[k] && !want[i]) {
				want[i] = 1;
				wanted++;
			}
	for (size_t i = 0; i < nbr && wanted < budget; i++) {
		int first = 1;
		for (size_t j = 0; j < i && first; j++)
			first = !(t->ev[br[j]].id == t->ev[br[i]].id && t->ev[br[j]].val == t->ev[br[i]].val && want[j]);
		if (first && !want[i]) {
			want[i] = 1;
			wanted++;
		}
	}
	struct formula *f = formula_new_mode(t, 1);
	struct flips fl;
	int rc = formula_flips(f, br, nbr, want, budget, &fl, e);
	formula_free(f);
	st->checks = fl.checks;
	st->clauses = fl.clauses;
	st->seconds = fl.seconds;
	st->capped = fl.capped;
	char *own = gen_command(&orig);
	struct gen_input *v = xcalloc(fl.n + 1, sizeof(*v));
	size_t n = 0;
	/* Preferred branches' solutions first. */
	for (int pass = 0; rc == 0 && pass < 2; pass++)
		for (size_t i = 0; i < fl.n && n < max; i++) {
			int pref = 0;
			for (size_t k = 0; k < nprefer && !pref; k++)
				pref = prefer[k] == fl.v[i].branch;
			if (pref != (pass == 0))
				continue;
			struct gen_input g;
			rebuild(t, &orig, fl.v[i].in, fl.v[i].val, fl.v[i].n, root, filedir, &g);
			g.branch = fl.v[i].branch;
			if (known_input(&g, own, seen, nseen, v, n))
				gen_input_release(&g);
			else
				v[n++] = g;
		}
	/* No branch can be negated (straight-line code, branches no input
	 * can turn): the same path with other values. (When negations were
	 * found before, the approved tests' runs give the next ones instead.) */
	if (rc == 0 && fl.n == 0 && n == 0 && max > 0)
		rc = same_path(t, &orig, root, filedir, br, nbr, max, own, seen, nseen, &v, &n, st, e);
	st->candidates = n;
	free(own);
	flips_release(&fl);
	free(want);
	free(br);
	gen_input_release(&orig);
	return hand_out(rc, v, n, out, nout);
}

int gen_same_path(const struct trace *t, const char *root, const struct buf *in0, const char *filedir, size_t max,
		  char *const *seen, size_t nseen, struct gen_input **out, size_t *nout, struct gen_stats *st,
		  struct cerr *e)
{
	memset(st, 0, sizeof(*st));
	*out = NULL;
	*nout = 0;
	struct gen_input orig;
	if (gen_original(t, root, in0, filedir, &orig, e) < 0)
		return -1;
	size_t nbr;
	uint32_t *br = input_branches(t, &nbr);
	st->branches = nbr;
	char *own = gen_command(&orig);
	struct gen_input *v = NULL;
	size_t n = 0;
	int rc = max ? same_path(t, &orig, root, filedir, br, nbr, max, own, seen, nseen, &v, &n, st, e) : 0;
	st->candidates = n;
	free(own);
	free(br);
	gen_input_release(&orig);
	return hand_out(rc, v, n, out, nout);
}
