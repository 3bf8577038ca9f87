#include "core/semantic/gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/semantic/formula.h"

void gen_input_release(struct gen_input *g)
{
	for (size_t i = 0; i < g->argc; i++)
		free(g->argv[i]);
	free(g->argv);
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
	if (g->in.len && printable(g->in.s, g->in.len)) {
		buf_adds(&b, "printf '%s' ");
		shell_quote(&b, g->in.s);
		buf_adds(&b, " | ");
	} else if (g->in.len) {
		buf_adds(&b, "printf '%b' ");
		shell_quote_b(&b, g->in.s, g->in.len);
		buf_adds(&b, " | ");
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
	for (size_t i = 0; i < g->argc; i++) {
		const char *a = g->argv[i];
		if (i)
			buf_addc(&b, ' ');
		if (printable(a, strlen(a))) {
			shell_quote(&b, a);
			continue;
		}
		buf_adds(&b, "$'");   /* as bash writes it */
		for (const char *p = a; *p; p++)
			describe_byte(&b, (unsigned char)*p, '\'');
		buf_addc(&b, '\'');
	}
	if (g->in.len) {
		buf_adds(&b, " < \"");
		for (size_t i = 0; i < g->in.len && i < 200; i++)
			describe_byte(&b, (unsigned char)g->in.s[i], '"');
		buf_adds(&b, g->in.len > 200 ? "...\"" : "\"");
	}
	return buf_detach(&b);
}

/* How the run read standard input: 0 not at all, 1 bytes, 2 %d items; -1 not modelled. */
static int stdin_mode(const struct trace *t)
{
	int bytes = 0, items = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct tev *v = &t->ev[i];
		if (v->kind != TE_IN)
			continue;
		if (v->aux == TIN_STDBYTE)
			bytes = 1;
		if (v->aux == TIN_STDINT) {
			if (v->id == ~0u)
				return -1;
			items = 1;
		}
	}
	if (bytes && items)
		return -1;
	return items ? 2 : bytes;
}

/* The input with the values vals of the input events ev (the run's own for the rest). */
static void rebuild(const struct trace *t, const struct gen_input *orig, const uint32_t *ev, const long long *vals,
		    size_t n, int mode, struct gen_input *g)
{
	memset(g, 0, sizeof(*g));
	g->dir = xstrdup(orig->dir);
	g->argc = orig->argc;
	g->argv = xcalloc(g->argc + 1, sizeof(*g->argv));
	struct buf *w = xcalloc(g->argc + 1, sizeof(*w));
	for (size_t k = 0; k < g->argc; k++) {
		buf_init(&w[k]);
		buf_add(&w[k], orig->argv[k], strlen(orig->argv[k]) + 1);
	}
	/* Standard input: bytes by offset, or items by index. */
	size_t cap = orig->in.len + 64, len = 0;
	long long *items = xcalloc(cap, sizeof(*items));
	int eof_at = -1;
	for (size_t i = 0; i < t->n; i++) {
		const struct tev *v = &t->ev[i];
		if (v->kind != TE_IN || (v->aux != TIN_STDBYTE && v->aux != TIN_STDINT) || v->id >= cap)
			continue;
		long long x = v->aux == TIN_STDBYTE && !v->addr ? trace_value(v, 1) : (long long)v->val;
		for (size_t k = 0; k < n; k++)
			if (ev[k] == i)
				x = vals[k];
		if (x < 0 && v->aux == TIN_STDBYTE) {
			if (eof_at < 0 || (int)v->id < eof_at)
				eof_at = (int)v->id;
			continue;
		}
		items[v->id] = x;
		if (v->id + 1 > len)
			len = v->id + 1;
	}
	if (eof_at >= 0 && (size_t)eof_at < len)
		len = (size_t)eof_at;
	for (size_t k = 0; k < n; k++) {
		const struct tev *v = &t->ev[ev[k]];
		if (v->aux == TIN_ARGINT && (v->id) < g->argc) {
			buf_release(&w[v->id]);
			buf_addf(&w[v->id], "%lld", vals[k]);
			buf_addc(&w[v->id], '\0');
		}
	}
	for (size_t k = 0; k < n; k++) {
		const struct tev *v = &t->ev[ev[k]];
		size_t word = v->id >> 16, off = v->id & 0xffff;
		if (v->aux != TIN_ARGBYTE || word >= g->argc)
			continue;
		int parsed = 0;   /* an argument read as an integer is rewritten whole */
		for (size_t j = 0; j < n; j++)
			parsed |= t->ev[ev[j]].aux == TIN_ARGINT && t->ev[ev[j]].id == word;
		if (parsed)
			continue;
		while (w[word].len < off + 2)
			buf_addc(&w[word], '\0');
		w[word].s[off] = (char)vals[k];
	}
	for (size_t k = 0; k < g->argc; k++) {
		g->argv[k] = xstrdup(w[k].s ? w[k].s : "");   /* up to the first NUL */
		buf_release(&w[k]);
	}
	free(w);
	buf_init(&g->in);
	if (mode == 1)
		for (size_t i = 0; i < len; i++)
			buf_addc(&g->in, (char)items[i]);
	else if (mode == 2)
		for (size_t i = 0; i < len; i++)
			buf_addf(&g->in, "%lld\n", items[i]);
	else
		buf_add(&g->in, orig->in.s, orig->in.len);
	free(items);
	g->branch = TRACE_NONE;
}

int gen_original(const struct trace *t, const char *root, struct gen_input *g, struct cerr *e)
{
	memset(g, 0, sizeof(*g));
	if (!t->nargs || !t->cwd)
		return cerr_set(e, "the failing run's main function was not traced: its inputs are unknown");
	size_t rl = strlen(root);
	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	if (strncmp(t->cwd, root, rl) || (t->cwd[rl] && t->cwd[rl] != '/'))
		return cerr_set(e, "the failing test runs its program outside the tree (in %s)", t->cwd);
	int mode = stdin_mode(t);
	if (mode < 0)
		return cerr_set(e, "the program reads standard input in ways culprit does not model (scanf conversions "
				   "other than %%d, or scanf mixed with reading bytes)");
	struct gen_input base = {0};
	base.dir = xstrdup(t->cwd[rl] ? t->cwd + rl + 1 : ".");
	base.argc = t->nargs;
	base.argv = xcalloc(base.argc + 1, sizeof(*base.argv));
	const char *p = t->args.s;
	for (size_t k = 0; k < base.argc; k++) {
		base.argv[k] = xstrdup(p);
		p += strlen(p) + 1;
	}
	buf_init(&base.in);
	rebuild(t, &base, NULL, NULL, 0, mode, g);
	gen_input_release(&base);
	return 0;
}

int gen_candidates(const struct trace *t, const char *root, const uint32_t *prefer, size_t nprefer, size_t max,
		   char *const *seen, size_t nseen, struct gen_input **out, size_t *nout, struct gen_stats *st,
		   struct cerr *e)
{
	memset(st, 0, sizeof(*st));
	*out = NULL;
	*nout = 0;
	struct gen_input orig;
	if (gen_original(t, root, &orig, e) < 0)
		return -1;
	int mode = stdin_mode(t);
	struct bits *taint = bits_new(t->n + 1);
	trace_taint(t, taint);
	uint32_t *br = xmalloc((t->n + 1) * sizeof(*br));
	size_t nbr = 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->ev[i].kind == TE_BRANCH && bits_test(taint, i))
			br[nbr++] = (uint32_t)i;
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
			rebuild(t, &orig, fl.v[i].in, fl.v[i].val, fl.v[i].n, mode, &g);
			g.branch = fl.v[i].branch;
			char *cmd = gen_command(&g);
			int dup = !strcmp(cmd, own);
			for (size_t k = 0; k < nseen && !dup; k++)
				dup = !strcmp(cmd, seen[k]);
			for (size_t k = 0; k < n && !dup; k++) {
				char *c2 = gen_command(&v[k]);
				dup = !strcmp(cmd, c2);
				free(c2);
			}
			free(cmd);
			if (dup)
				gen_input_release(&g);
			else
				v[n++] = g;
		}
	st->candidates = n;
	free(own);
	flips_release(&fl);
	free(want);
	free(br);
	bits_free(taint);
	gen_input_release(&orig);
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
