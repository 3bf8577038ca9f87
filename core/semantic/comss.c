#include "core/semantic/comss.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/semantic/formula_int.h"
#include "core/json.h"

#define MAX_PATHS 16
#define MAX_OFF 64          /* the failure's decisions, and its statements, a path goal takes at most */
#define SCAN_BACK 4096      /* events looked back from a read for the branches that decide its value */

/* One run: the failing one (p[0]) or one forced at a branch of it. */
struct path {
	struct trace tr;        /* forced runs: the caller's, released through o->release */
	const struct trace *t;
	uint32_t fork;          /* the forced branch event (the same index in both runs) */
	uint32_t join0, joinc;  /* where its region ends in the failing run, and here */
	size_t aligned;         /* events from the joins on that are the same in both */
	struct formula *f;
};

/* One soft group: the clauses of a line. */
struct sel {
	int file, line;
	Z3_ast lit;
	double weight;
	char *clause;           /* the first clause's description */
	uint32_t guard_ev;      /* a branch event of the failing run on this line (TRACE_NONE: none) */
};

struct enc {
	Z3_context z;
	Z3_optimize o;
	const struct comss_opts *op;
	const struct trace *t;  /* the failing run */
	struct path *p;
	size_t np;
	struct sel *sels;
	size_t nsels;
	struct bits *guarded;   /* branch events of the failing run with a guard clause */
	uint32_t *gq;
	size_t ngq, capgq;
	uint32_t *join;         /* per event of the failing run: the end of its region (0: not known) */
	struct bits *taint;     /* events of the failing run whose values come from its inputs */
	size_t clauses;
	double wmax;
	int path_goal;          /* the output check cannot be modelled: leave the failure's path instead */
	int stmt_goal;          /* no decision on that path: only statements the failure depends on */
	int stmt_only;          /* the solver gave up on that path: its statements, without the formula */
	int wide;               /* the path goal takes the slice's statements too */
	int gave_up;            /* the last solve timed out */
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void comss_release(struct comss_result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		for (size_t k = 0; k < r->sets[i].n; k++) {
			free(r->sets[i].v[k].file);
			free(r->sets[i].v[k].text);
			free(r->sets[i].v[k].clause);
		}
		free(r->sets[i].v);
	}
	free(r->sets);
	free(r->note);
	memset(r, 0, sizeof(*r));
}

/* Whether event j ran under branch event b (b is on its chain of governing branches). */
static int under(const struct trace *t, uint32_t j, uint32_t b)
{
	for (uint32_t c = t->ctl[j]; c != TRACE_NONE && c >= b; c = t->ctl[c])
		if (c == b)
			return 1;
	return 0;
}

/* The first event after b that did not run under it. */
static uint32_t join_of(const struct trace *t, uint32_t b)
{
	uint32_t j = b + 1;
	while (j < t->n && (under(t, j, b) || t->ev[j].kind == TE_BYTES))
		j++;
	return j;
}

/* join_of for every branch of the trace in one pass. A naive join walks
 * each later event's chain of governing branches, which in a deep
 * recursion (every call under the base case's branch) costs the depth per
 * event, per branch. Here the branches whose region is still open form a
 * stack along one chain; each event closes the open ones that are not on
 * its own chain, found by walking that chain down to the deepest survivor. */
static uint32_t *joins_all(const struct trace *t)
{
	uint32_t *join = xcalloc(t->n + 1, sizeof(*join));
	uint32_t *open = xmalloc((t->n + 1) * sizeof(*open));
	size_t nopen = 0;
	for (uint32_t j = 0; j < t->n; j++) {
		if (t->ev[j].kind == TE_BYTES)
			continue;
		uint32_t p = t->ctl[j];
		while (nopen) {
			uint32_t top = open[nopen - 1];
			while (p != TRACE_NONE && p > top)
				p = t->ctl[p];
			if (p == top)
				break;   /* under top, so under every branch below it too */
			join[top] = j;
			nopen--;
		}
		if (t->ev[j].kind == TE_BRANCH)
			open[nopen++] = j;
	}
	while (nopen)
		join[open[--nopen]] = (uint32_t)t->n;
	free(open);
	return join;
}

static uint32_t enc_join(struct enc *c, uint32_t b)
{
	if (!c->join[b])
		c->join[b] = join_of(c->t, b);
	return c->join[b];
}

/* A branch of an if, a loop or a switch (not ?: or assert, inside expressions). */
static int is_decision(const struct trace *t, uint32_t b)
{
	if (t->ev[b].kind != TE_BRANCH)
		return 0;
	const struct msite *s = tmeta_site(t->m, t->ev[b].id);
	return s && s->kind == 'B' && s->kindname && strcmp(s->kindname, "cond") && strcmp(s->kindname, "assert");
}

static int observed(const struct trace *t, uint32_t b)
{
	const struct msite *s = tmeta_site(t->m, t->ev[b].id);
	if (s && s->kindname && !strcmp(s->kindname, "switch"))
		return 1;   /* its condition: "equals the value taken" */
	return t->ev[b].val != 0;
}

static Z3_ast guard(struct enc *c, uint32_t b)
{
	char name[32];
	snprintf(name, sizeof(name), "g%u", b);
	Z3_ast g = Z3_mk_const(c->z, Z3_mk_string_symbol(c->z, name), Z3_mk_bool_sort(c->z));
	if (!bits_test(c->guarded, b)) {
		bits_set(c->guarded, b);
		if (c->ngq == c->capgq) {
			c->capgq = c->capgq ? 2 * c->capgq : 32;
			c->gq = xrealloc(c->gq, c->capgq * sizeof(*c->gq));
		}
		c->gq[c->ngq++] = b;
	}
	return g;
}

/* g_b takes the outcome it took in the run. */
static Z3_ast as_run(struct enc *c, uint32_t b)
{
	Z3_ast g = guard(c, b);
	return observed(c->t, b) ? g : Z3_mk_not(c->z, g);
}

static struct path *forked_at(struct enc *c, uint32_t b)
{
	for (size_t k = 1; k < c->np; k++)
		if (c->p[k].fork == b)
			return &c->p[k];
	return NULL;
}

static Z3_ast fit(Z3_context z, Z3_ast a, int sgn, int w)
{
	unsigned have = Z3_get_bv_sort_size(z, Z3_get_sort(z, a));
	if ((int)have == w)
		return a;
	if ((int)have > w)
		return Z3_mk_extract(z, (unsigned)w - 1, 0, a);
	return sgn ? Z3_mk_sign_ext(z, (unsigned)w - have, a) : Z3_mk_zero_ext(z, (unsigned)w - have, a);
}

/* The last write of variable name in t within (from, to), or TRACE_NONE. */
static uint32_t last_write(const struct trace *t, uint32_t from, uint32_t to, const char *name)
{
	for (uint32_t j = to; j-- > from + 1;) {
		if (t->ev[j].kind != TE_WRITE)
			continue;
		const struct msite *s = tmeta_site(t->m, t->ev[j].id);
		if (s && s->name && !strcmp(s->name, name))
			return j;
	}
	return TRACE_NONE;
}

/* The value of variable name after branch b's join had b gone the other
 * way: what the run forced there wrote in that arm (or, writing nothing,
 * what was there before); without such a run, an unknown value (one per
 * branch and variable, so every read after the join sees the same). */
static Z3_ast other_value(struct enc *c, uint32_t b, const char *name, uint32_t src, Z3_ast inner, int sgn, int w)
{
	struct path *p = forked_at(c, b);
	if (p && name) {
		uint32_t j = last_write(p->t, p->fork, p->joinc, name);
		if (j != TRACE_NONE)
			return fit(c->z, formula_var(p->f, j), sgn, w);
		if (src == TRACE_NONE || src < b)
			return inner;   /* neither arm wrote it */
		uint32_t before = last_write(c->t, 0, b, name);
		if (before != TRACE_NONE)
			return fit(c->z, formula_var(c->p[0].f, before), sgn, w);
	}
	char sym[96];
	snprintf(sym, sizeof(sym), "u%u_%.60s_%d", b, name ? name : "?", w);
	return Z3_mk_const(c->z, Z3_mk_string_symbol(c->z, sym), Z3_mk_bv_sort(c->z, (unsigned)w));
}

/* The value a read sees, over every way the branches that decide it could
 * go: ite(g_b as run, value, the other arm's). A read of a forced run
 * whose value comes from before the fork is decided by the branches of
 * the shared part, as in the failing run. */
static Z3_ast phi_read(void *priv, struct formula *f, uint32_t r, int sgn, int w)
{
	struct enc *c = priv;
	const struct trace *t = c->t, *ft = f->t;
	Z3_ast v = formula_read_value(f, r, sgn, w);
	uint32_t src = ft->src[r], limit = r;
	if (f != c->p[0].f) {
		uint32_t fork = TRACE_NONE;
		for (size_t k = 1; k < c->np; k++)
			if (c->p[k].f == f)
				fork = c->p[k].fork;
		if (fork == TRACE_NONE || (src != TRACE_NONE && src >= fork))
			return v;   /* written in the forced arm */
		limit = fork;
	}
	const struct msite *rs = tmeta_site(ft->m, ft->ev[r].id);
	const char *name = rs ? rs->name : NULL;
	/* Branches whose arm held the write, and branches after it whose other arm could write the variable. */
	uint32_t from = src != TRACE_NONE ? src : (limit > SCAN_BACK ? limit - SCAN_BACK : 0);
	uint32_t *bs = NULL;
	size_t nb = 0;
	if (src != TRACE_NONE)
		for (uint32_t a = t->ctl[src]; a != TRACE_NONE; a = t->ctl[a]) {
			/* Regions nest: once one is still open at the read, every
			 * outer one is too (the chain of a deep recursion is long). */
			if (t->ev[a].kind == TE_BRANCH && enc_join(c, a) > limit)
				break;
			if (is_decision(t, a)) {
				bs = xrealloc(bs, (nb + 1) * sizeof(*bs));
				bs[nb++] = a;
			}
		}
	for (uint32_t b = from + 1; b < limit && limit - b <= SCAN_BACK; b++)
		if (is_decision(t, b) && name && enc_join(c, b) <= limit && trace_other_arm_assigns(t, b, name)) {
			bs = xrealloc(bs, (nb + 1) * sizeof(*bs));
			bs[nb++] = b;
		}
	/* Earliest first, so the latest decides last (outermost). */
	for (size_t i = 0; i < nb; i++)
		for (size_t k = i + 1; k < nb; k++)
			if (bs[k] < bs[i]) {
				uint32_t x = bs[i];
				bs[i] = bs[k];
				bs[k] = x;
			}
	for (size_t i = 0; i < nb; i++)
		v = Z3_mk_ite(c->z, as_run(c, bs[i]), v, other_value(c, bs[i], name, src, v, sgn, w));
	free(bs);
	return v;
}

static struct sel *sel_of(struct enc *c, const struct trace *t, uint32_t e)
{
	const struct msite *st = trace_stmt_of(t, e);
	if (!st) {   /* a parameter: its function's line */
		const struct msite *s = tmeta_site(t->m, t->ev[e].id);
		st = s && s->kind == 'P' ? tmeta_site(t->m, s->fid) : NULL;
	}
	int file = st ? st->file : -1, line = st ? st->line : 0;
	for (size_t i = 0; i < c->nsels; i++)
		if (c->sels[i].file == file && c->sels[i].line == line)
			return &c->sels[i];
	c->sels = xrealloc(c->sels, (c->nsels + 1) * sizeof(*c->sels));
	struct sel *s = &c->sels[c->nsels];
	char name[48];
	snprintf(name, sizeof(name), "line%zu", c->nsels++);
	s->file = file;
	s->line = line;
	s->lit = Z3_mk_const(c->z, Z3_mk_string_symbol(c->z, name), Z3_mk_bool_sort(c->z));
	s->clause = NULL;
	s->guard_ev = TRACE_NONE;
	double susp = 0;
	const char *fname = file >= 0 && (size_t)file < t->m->nfiles ? t->m->files[file] : "?";
	if (c->op->weighted && c->op->susp)
		susp = c->op->susp(c->op->priv, fname, line);
	s->weight = !c->op->weighted ? 1 : susp > 0 ? 1 / susp : c->wmax;
	return s;
}

/* What a clause says, for people: the statement, and the value it gave. */
static char *describe(const struct trace *t, uint32_t e)
{
	const struct msite *st = trace_stmt_of(t, e);
	const struct msite *s = tmeta_site(t->m, t->ev[e].id);
	if (!st && s && s->kind == 'P')
		st = tmeta_site(t->m, s->fid);   /* a parameter: its function's head */
	const char *text = st && st->text ? st->text : "";
	while (*text == ' ' || *text == '\t')
		text++;
	if (t->ev[e].kind == TE_BRANCH)
		return xasprintf("%s  (was %s)", text, t->ev[e].val ? "true" : "false");
	struct buf b = BUF_INIT;
	if (t->ev[e].kind == TE_RET)
		buf_addf(&b, "%s  (returned ", text);
	else
		buf_addf(&b, "%s  (%s = ", text, s && s->kind == 'W' && s->text ? s->text : s && s->name ? s->name : "value");
	trace_show_value(t, &t->ev[e], &b);
	buf_addc(&b, ')');
	return buf_detach(&b);
}

static void soft(struct enc *c, const struct trace *t, uint32_t e, Z3_ast body)
{
	struct sel *s = sel_of(c, t, e);
	Z3_optimize_assert(c->z, c->o, Z3_mk_implies(c->z, s->lit, body));
	if (!s->clause)
		s->clause = describe(t, e);
	if (t == c->t && t->ev[e].kind == TE_BRANCH && s->guard_ev == TRACE_NONE)
		s->guard_ev = e;
	c->clauses++;
}

/* The statement event i ran in (an output call's TE_OUT: the call's
 * statement, a few events back), or TRACE_NONE. */
static uint32_t stmt_ev(const struct trace *t, uint32_t i)
{
	uint32_t ev = i;
	while (!trace_stmt_of(t, ev) && ev > 0 && i - ev < 64 && t->ev[ev].kind != TE_STMT)
		ev--;
	return trace_stmt_of(t, ev) ? ev : TRACE_NONE;
}

/* The soft group of the statement event i ran in, said as where the
 * failure shows; NULL when i ran in none. */
static struct sel *shown_sel(struct enc *c, uint32_t i)
{
	const struct trace *t = c->t;
	uint32_t ev = stmt_ev(t, i);
	if (ev == TRACE_NONE)
		return NULL;
	struct sel *s = sel_of(c, t, ev);
	if (!s->clause) {
		const char *text = trace_stmt_of(t, ev)->text;
		text = text ? text : "";
		while (*text == ' ' || *text == '\t')
			text++;
		s->clause = xasprintf("%s  (where the failure shows)", text);
	}
	return s;
}

/* The soft group of the statement where the failure shows — the output
 * call that printed the wrong text, the access whose index or divisor
 * crashed: that code is a candidate like any other, so the check holds
 * only while its line is kept. The caller's event, or else the statement
 * the first check's expression is written in; NULL when neither is known
 * (a branch to flip, a write's value, the end of the run). */
static struct sel *check_sel(struct enc *c, const struct expect *x, size_t nx)
{
	const struct trace *t = c->t;
	if (c->op->shown)
		return c->op->shown - 1 < t->n ? shown_sel(c, (uint32_t)(c->op->shown - 1)) : NULL;
	if (!nx || !x->tree || x->ev >= t->n ||
	    (x->kind != EXPECT_EQ && x->kind != EXPECT_NE && x->kind != EXPECT_NONZERO && x->kind != EXPECT_BOUNDS))
		return NULL;
	return shown_sel(c, x->ev);
}

/* The clause of event e of path p (side conditions: no signed overflow). */
static void add_clause(struct enc *c, struct path *p, uint32_t e)
{
	size_t n0 = p->f->nside;
	int opaque = 0;
	Z3_ast body = formula_clause_body(p->f, e, &opaque);
	/* The test's input, passed on as it is (x = atoi(argv[1])): hard, as inputs are. */
	if (p == &c->p[0] && bits_test(c->taint, e) && Z3_get_ast_kind(c->z, body) == Z3_APP_AST &&
	    Z3_get_app_num_args(c->z, Z3_to_app(c->z, body)) == 2 &&
	    Z3_is_numeral_ast(c->z, Z3_simplify(c->z, Z3_get_app_arg(c->z, Z3_to_app(c->z, body), 1)))) {
		Z3_optimize_assert(c->z, c->o, body);
		return;
	}
	if (p->f->nside > n0) {
		Z3_ast *all = xmalloc((p->f->nside - n0 + 1) * sizeof(*all));
		all[0] = body;
		memcpy(all + 1, p->f->side + n0, (p->f->nside - n0) * sizeof(*all));
		body = Z3_mk_and(c->z, (unsigned)(p->f->nside - n0 + 1), all);
		free(all);
	}
	soft(c, p->t, e, body);
}

/* Everything the queued terms lean on, until nothing is left. */
static void close_formula(struct enc *c)
{
	for (int again = 1; again;) {
		again = 0;
		uint32_t e;
		while (formula_pop(c->p[0].f, &e)) {
			add_clause(c, &c->p[0], e);
			again = 1;
		}
		for (size_t k = 1; k < c->np; k++)
			while (formula_pop(c->p[k].f, &e)) {
				if (e < c->p[k].fork)
					formula_var(c->p[0].f, e);   /* the shared part: the failing run's clause */
				else
					add_clause(c, &c->p[k], e);
				again = 1;
			}
		while (c->ngq) {
			uint32_t b = c->gq[--c->ngq];
			Z3_ast g = guard(c, b);
			Z3_ast cond = formula_branch_cond(c->p[0].f, b);
			if (cond)
				soft(c, c->t, b, Z3_mk_eq(c->z, g, cond));
			else
				Z3_optimize_assert(c->z, c->o, as_run(c, b));   /* opaque: as it ran */
			again = 1;
		}
	}
}

/* Where the failure shows: the caller's event; else the first check's (the
 * last statement run for a check at the end), or with no check the last
 * output. */
static uint32_t failure_at(const struct trace *t, const struct expect *x, size_t nx, const struct comss_opts *o)
{
	if (o->shown && o->shown - 1 < t->n)
		return (uint32_t)(o->shown - 1);
	if (nx)
		return x[0].ev < t->n ? x[0].ev : t->last_stmt;
	if (t->out.len && t->out_ev[t->out.len - 1] < t->n)
		return t->out_ev[t->out.len - 1];
	return t->last_stmt;
}

/* The formula of the paths, and its CoMSSs into out (replacing them). */
static int solve(struct enc *c, const struct expect *x, size_t nx, struct comss_result *out, struct cerr *e)
{
	const struct trace *t = c->t;
	const struct comss_opts *op = c->op;
	c->o = Z3_mk_optimize(c->z);
	Z3_optimize_inc_ref(c->z, c->o);
	Z3_params prm = Z3_mk_params(c->z);
	Z3_params_inc_ref(c->z, prm);
	Z3_params_set_uint(c->z, prm, Z3_mk_string_symbol(c->z, "timeout"), 20000);
	/* MaxRes over the SMT core: on traces with multiplications the SAT
	 * core's bit-blasting made some checks 10-100 times slower. */
	Z3_params_set_bool(c->z, prm, Z3_mk_string_symbol(c->z, "enable_sat"), 0);
	Z3_optimize_set_params(c->z, c->o, prm);
	Z3_params_dec_ref(c->z, prm);
	char tag[8];
	for (size_t k = 0; k < c->np; k++) {
		snprintf(tag, sizeof(tag), "p%u_", (unsigned)k % MAX_PATHS);
		c->p[k].f = formula_new_shared(c->p[k].t, c->z, tag);
		c->p[k].f->no_overflow = 1;
		formula_begin(c->p[k].f);
		if (k) {
			c->p[k].f->prefix_upto = c->p[k].fork;
			snprintf(c->p[k].f->prefix_tag, sizeof(c->p[k].f->prefix_tag), "p0_");
		}
	}
	for (size_t k = 0; k < c->np; k++) {
		c->p[k].f->read_hook = phi_read;
		c->p[k].f->hook_priv = c;
	}
	bits_zero(c->guarded);
	c->ngq = 0;
	for (size_t i = 0; i < c->nsels; i++)
		free(c->sels[i].clause);
	c->nsels = 0;
	c->clauses = 0;
	c->gave_up = 0;
	/* Hard: where the failure is checked, the check holds. */
	Z3_ast *goal = xmalloc((nx + 1) * sizeof(*goal));
	int rc = 0;
	if (c->path_goal) {
		/* The chain to the failure is cut (values the formula cannot
		 * model): the run passes only off the failing path, so some
		 * decision the failure depends on (its backward slice: control
		 * and data) goes the other way — or the value it shows is
		 * another, so a statement of that slice is wrong: each one a
		 * set of its own, the statement where it shows among them. */
		uint32_t at = failure_at(t, x, nx, c->op);
		struct bits *sl = bits_new(t->n + 1);
		if (at != TRACE_NONE)
			trace_slice(t, &at, 1, sl);
		Z3_ast off[2 * MAX_OFF + 1];
		unsigned noff = 0, ndec = 0;
		for (size_t i = at != TRACE_NONE && !c->stmt_only ? at + 1 : 0; i-- > 0 && noff < MAX_OFF;)
			if (bits_test(sl, i) && is_decision(t, (uint32_t)i))
				off[noff++] = Z3_mk_not(c->z, as_run(c, (uint32_t)i));
		ndec = noff;
		struct sel *cs = check_sel(c, x, nx);
		if (!cs && !nx && at != TRACE_NONE && t->ev[at].kind == TE_OUT)
			cs = shown_sel(c, at);
		if (cs)
			off[noff++] = Z3_mk_not(c->z, cs->lit);
		for (size_t i = at != TRACE_NONE && (c->wide || !ndec) ? at + 1 : 0; i-- > 0 && noff < ndec + MAX_OFF;) {
			uint32_t k = t->ev[i].kind;
			if (!bits_test(sl, i) || (k != TE_WRITE && k != TE_RET && k != TE_OUT && k != TE_CRET && k != TE_STMT))
				continue;
			uint32_t ev = stmt_ev(t, (uint32_t)i);   /* an output call's statement: the one it ran in */
			if (ev == TRACE_NONE)
				continue;
			const struct msite *st = trace_stmt_of(t, ev);
			size_t before = c->nsels;
			struct sel *sv = sel_of(c, t, ev);
			if (c->nsels == before)
				continue;   /* its line has a set already */
			sv->clause = k == TE_WRITE || k == TE_RET ? describe(t, ev) : xstrdup(st->text ? st->text : "");
			off[noff++] = Z3_mk_not(c->z, sv->lit);
		}
		c->stmt_goal = !ndec;
		bits_free(sl);
		if (!noff)
			rc = cerr_set(e, "nothing in the run leads to the failure");
		else
			Z3_optimize_assert(c->z, c->o, noff == 1 ? off[0] : Z3_mk_or(c->z, noff, off));
		if (rc == 0 && !c->stmt_only)
			close_formula(c);
		nx = 0;
	}
	for (size_t i = 0; i < nx && rc == 0; i++) {
		goal[i] = formula_expect(c->p[0].f, &x[i]);
		if (!goal[i])
			rc = cerr_set(e, "the expected outcome cannot be modelled (opaque values)");
	}
	if (rc == 0 && !c->path_goal) {
		Z3_ast expect = nx == 1 ? goal[0] : Z3_mk_and(c->z, (unsigned)nx, goal);
		uint32_t at = x[0].ev < t->n ? x[0].ev : t->last_stmt;
		size_t na = 0;
		Z3_ast path[64];
		for (uint32_t a = at != TRACE_NONE ? t->ctl[at] : TRACE_NONE; a != TRACE_NONE && na < 64; a = t->ctl[a])
			if (is_decision(t, a))
				path[na++] = as_run(c, a);
		if (na)
			expect = Z3_mk_implies(c->z, Z3_mk_and(c->z, (unsigned)na, path), expect);
		struct sel *cs = check_sel(c, x, nx);
		if (cs)
			expect = Z3_mk_implies(c->z, cs->lit, expect);
		Z3_optimize_assert(c->z, c->o, expect);
		close_formula(c);
	}
	if (rc == 0) {
		/* Weights: 1/suspiciousness, the largest for lines at 0. */
		for (size_t i = 0; i < c->nsels; i++) {
			char w[32];
			snprintf(w, sizeof(w), "%ld", (long)(c->sels[i].weight * 1000 + 0.5) > 0 ? (long)(c->sels[i].weight * 1000 + 0.5) : 1);
			Z3_optimize_assert_soft(c->z, c->o, c->sels[i].lit, w, Z3_mk_string_symbol(c->z, "lines"));
		}
	}
	free(goal);
	comss_release(out);
	size_t max_sets = op->max_sets ? op->max_sets : 8, max_size = op->max_size ? op->max_size : 6;
	while (rc == 0 && out->n < max_sets) {
		out->checks++;
		Z3_lbool r = Z3_optimize_check(c->z, c->o, 0, NULL);
		if (Z3_get_error_code(c->z) != Z3_OK) {
			rc = cerr_set(e, "the solver failed: %s", Z3_get_error_msg(c->z, Z3_get_error_code(c->z)));
			break;
		}
		if (r == Z3_L_UNDEF) {
			out->note = xstrdup("the solver gave up (timeout)");
			c->gave_up = 1;
			break;
		}
		if (r == Z3_L_FALSE)
			break;   /* no other set */
		Z3_model m = Z3_optimize_get_model(c->z, c->o);
		Z3_model_inc_ref(c->z, m);
		struct comss_set set = {0};
		Z3_ast *block = xmalloc((c->nsels + 1) * sizeof(*block));
		for (size_t i = 0; i < c->nsels; i++) {
			Z3_ast v = NULL;
			if (Z3_model_eval(c->z, m, c->sels[i].lit, 1, &v) && Z3_get_bool_value(c->z, v) == Z3_L_FALSE) {
				block[set.n] = c->sels[i].lit;
				set.v = xrealloc(set.v, (set.n + 1) * sizeof(*set.v));
				const struct sel *s = &c->sels[i];
				const char *fname = s->file >= 0 && (size_t)s->file < t->m->nfiles ? t->m->files[s->file] : "?";
				set.v[set.n++] = (struct comss_line){xstrdup(fname), s->line, NULL,
								     xstrdup(s->clause ? s->clause : ""), s->weight};
				set.cost += s->weight;
			}
		}
		Z3_model_dec_ref(c->z, m);
		if (set.n == 0) {
			free(block);
			free(set.v);
			out->note = xstrdup("the formula does not force the failure (values from code it cannot model)");
			break;
		}
		Z3_optimize_assert(c->z, c->o, set.n == 1 ? block[0] : Z3_mk_or(c->z, (unsigned)set.n, block));
		free(block);
		if (set.n > max_size) {
			for (size_t k = 0; k < set.n; k++) {
				free(set.v[k].file);
				free(set.v[k].clause);
			}
			free(set.v);
			break;   /* larger sets are not fixes anyone makes */
		}
		/* Lines in file order within a set. */
		for (size_t i = 0; i < set.n; i++)
			for (size_t k = i + 1; k < set.n; k++)
				if (strcmp(set.v[k].file, set.v[i].file) < 0 ||
				    (!strcmp(set.v[k].file, set.v[i].file) && set.v[k].line < set.v[i].line)) {
					struct comss_line tmp = set.v[i];
					set.v[i] = set.v[k];
					set.v[k] = tmp;
				}
		out->sets = xrealloc(out->sets, (out->n + 1) * sizeof(*out->sets));
		out->sets[out->n++] = set;
	}
	out->clauses = c->clauses;
	for (size_t k = 0; k < c->np; k++) {
		formula_free(c->p[k].f);
		c->p[k].f = NULL;
	}
	Z3_optimize_dec_ref(c->z, c->o);
	return rc;
}

/* A branch of a set whose other arm no run took: the branch event to force. */
static uint32_t unexplored(struct enc *c, const struct comss_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		for (size_t k = 0; k < r->sets[i].n; k++) {
			const struct comss_line *l = &r->sets[i].v[k];
			for (size_t s = 0; s < c->nsels; s++) {
				const struct sel *sl = &c->sels[s];
				const char *fname = sl->file >= 0 && (size_t)sl->file < c->t->m->nfiles ? c->t->m->files[sl->file]
												      : "?";
				if (sl->line != l->line || strcmp(fname, l->file) || sl->guard_ev == TRACE_NONE)
					continue;
				uint32_t b = sl->guard_ev;
				const struct msite *bs = tmeta_site(c->t->m, c->t->ev[b].id);
				if (bs && bs->kindname && !strcmp(bs->kindname, "switch"))
					continue;   /* a switch has no single other arm to force */
				unsigned site = c->t->ev[b].id;
				int other = !c->t->ev[b].val, seen = 0;
				for (size_t p = 0; p < c->np && !seen; p++)
					for (size_t j = 0; j < c->p[p].t->n && !seen; j++)
						seen = c->p[p].t->ev[j].kind == TE_BRANCH && c->p[p].t->ev[j].id == site &&
						       (c->p[p].t->ev[j].val != 0) == other;
				if (!seen && !forked_at(c, b))
					return b;
			}
		}
	return TRACE_NONE;
}

/* Whether a set holds a line the caller wants reached. */
static int reaches(const struct enc *c, const struct comss_result *r)
{
	if (!c->op->wanted)
		return 1;
	for (size_t i = 0; i < r->n; i++)
		for (size_t k = 0; k < r->sets[i].n; k++)
			if (c->op->wanted(c->op->priv, r->sets[i].v[k].file, r->sets[i].v[k].line))
				return 1;
	return 0;
}

/* The next level of widening, when the sets reach no wanted line: the
 * latest decision of the failing run (before where the failure shows)
 * whose statement holds a wanted statement no run has executed, that arm
 * not run yet; TRACE_NONE when there is none. */
static uint32_t toward_wanted(struct enc *c, uint32_t at)
{
	const struct trace *t = c->t;
	const struct tmeta *m = t->m;
	struct bits *ran = bits_new(m->nids + 1), *seen = bits_new(m->nids + 1);
	for (size_t p = 0; p < c->np; p++)
		for (size_t j = 0; j < c->p[p].t->n; j++)
			if (c->p[p].t->ev[j].kind == TE_STMT && c->p[p].t->ev[j].id <= m->nids)
				bits_set(ran, c->p[p].t->ev[j].id);
	/* The wanted statements no run executed. */
	unsigned *want = NULL;
	size_t nwant = 0;
	for (unsigned id = 0; id < m->nids; id++) {
		const struct msite *s = &m->site[id];
		if (s->kind != 'S' || bits_test(ran, id) || s->file < 0 || (size_t)s->file >= m->nfiles ||
		    !c->op->wanted(c->op->priv, m->files[s->file], s->line))
			continue;
		want = xrealloc(want, (nwant + 1) * sizeof(*want));
		want[nwant++] = id;
	}
	uint32_t found = TRACE_NONE;
	for (uint32_t b = at < t->n ? at : (uint32_t)t->n; nwant && b-- > 0 && found == TRACE_NONE;) {
		if (!is_decision(t, b) || bits_test(seen, t->ev[b].id) || forked_at(c, b))
			continue;
		bits_set(seen, t->ev[b].id);   /* a site's latest run only */
		const struct msite *bs = tmeta_site(m, t->ev[b].id), *st = tmeta_stmt(m, t->ev[b].id);
		if (!st || !strcmp(bs->kindname, "switch"))
			continue;
		for (size_t i = 0; i < nwant && found == TRACE_NONE; i++) {
			const struct msite *w = &m->site[want[i]];
			if (w->file == st->file && w->s > st->s && w->e <= st->e)
				found = b;
		}
	}
	free(want);
	bits_free(ran);
	bits_free(seen);
	return found;
}

int comss_run(const struct trace *t, const struct expect *x, size_t nx, const struct comss_opts *o,
	      struct comss_result *out, struct cerr *e)
{
	double t0 = now();
	memset(out, 0, sizeof(*out));
	struct enc c = {0};
	c.op = o;
	c.t = t;
	Z3_config cfg = Z3_mk_config();
	Z3_set_param_value(cfg, "model", "true");
	c.z = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	Z3_set_error_handler(c.z, formula_quiet_errors);
	c.p = xcalloc(MAX_PATHS, sizeof(*c.p));
	c.p[0].t = t;
	c.p[0].fork = TRACE_NONE;
	c.np = 1;
	c.guarded = bits_new(t->n + 1);
	c.join = joins_all(t);   /* every branch's; other events' on demand */
	c.taint = bits_new(t->n + 1);
	trace_taint(t, c.taint);
	c.wmax = 1;
	if (o->weighted && o->susp) {   /* the largest weight: above every suspicious line's */
		double lo = 0;
		for (size_t i = 0; i < t->n; i++) {
			const struct msite *st = t->ev[i].kind == TE_STMT ? tmeta_site(t->m, t->ev[i].id) : NULL;
			if (!st || st->file < 0 || (size_t)st->file >= t->m->nfiles)
				continue;
			double s = o->susp(o->priv, t->m->files[st->file], st->line);
			if (s > 0 && (lo == 0 || s < lo))
				lo = s;
		}
		c.wmax = lo > 0 ? 2 / lo : 1;
	}
	c.path_goal = nx == 0;   /* no check to model: the path to where the run ended */
	c.wide = !o->wanted;     /* nothing to reach: the slice's statements from the first */
	int max_paths = o->max_paths > 0 && o->max_paths <= MAX_PATHS ? o->max_paths : 8;
	int rc = 0;
	uint32_t next_all = 0;   /* all_paths: the next branch to look at */
	for (;;) {
		uint32_t b = TRACE_NONE;
		if (o->all_paths && o->forced) {
			for (; next_all < t->n && b == TRACE_NONE; next_all++)
				if (is_decision(t, next_all) && !forked_at(&c, next_all) &&
				    strcmp(tmeta_site(t->m, t->ev[next_all].id)->kindname, "switch")) {
					int first = 1;   /* the first run of its site */
					for (size_t k = 1; k < c.np && first; k++)
						first = t->ev[c.p[k].fork].id != t->ev[next_all].id;
					if (first)
						b = next_all;
				}
		}
		if (b == TRACE_NONE) {
			out->iterations++;
			rc = solve(&c, x, nx, out, e);
			if (!c.path_goal && (rc < 0 || !out->n)) {
				/* The check cannot be modelled, or the formula does not
				 * force it: the path to the failure instead. */
				struct cerr pe = {{0}};
				c.path_goal = 1;
				free(out->note);
				out->note = NULL;
				rc = solve(&c, x, nx, out, &pe);
				if (rc < 0 && e)
					snprintf(e->msg, sizeof(e->msg), "%s", pe.msg);
			}
			if (rc == 0 && c.path_goal && !c.wide && !c.gave_up && !reaches(&c, out)) {
				/* Off the path alone reaches no wanted line: a
				 * statement of the slice may be what is wrong too. */
				c.wide = 1;
				rc = solve(&c, x, nx, out, e);
			}
			if (rc == 0 && c.path_goal && !out->n && c.gave_up && !c.stmt_only) {
				/* Too hard a path for the solver: with no decision
				 * to flip, each statement it depends on is a set
				 * whatever the formula says, so it is left out. */
				c.stmt_only = 1;
				rc = solve(&c, x, nx, out, e);
				break;
			}
			if (rc < 0 || o->all_paths || !o->ofc || !o->forced)
				break;
			b = unexplored(&c, out);
			if (b == TRACE_NONE && !reaches(&c, out))
				b = toward_wanted(&c, failure_at(t, x, nx, o));
			if (b == TRACE_NONE)
				break;
		}
		if ((int)c.np >= max_paths && o->all_paths && next_all < t->n) {
			next_all = (uint32_t)t->n;   /* no more runs: solve what there is */
			free(out->note);
			out->note = xasprintf("widened to %d runs, the most it takes", (int)c.np);
			continue;
		}
		if ((int)c.np >= max_paths) {
			free(out->note);
			out->note = xasprintf("widened to %d runs, the most it takes; branches with unexplored arms remain",
					      (int)c.np);
			break;
		}
		/* Force its other arm: the how-many-th run of the site it was. */
		unsigned site = t->ev[b].id, instance = 0;
		for (uint32_t j = 0; j < b; j++)
			instance += t->ev[j].kind == TE_BRANCH && t->ev[j].id == site;
		struct path *p = &c.p[c.np];
		memset(p, 0, sizeof(*p));
		if (o->forced(o->priv, site, instance, !t->ev[b].val, &p->tr, e) < 0) {
			rc = -1;
			break;
		}
		p->t = &p->tr;
		p->fork = b;
		/* The same run up to the branch, which went the other way. */
		int same = p->tr.n > b && p->tr.ev[b].kind == TE_BRANCH && p->tr.ev[b].id == site &&
			   p->tr.ev[b].val == !t->ev[b].val;
		for (uint32_t j = 0; same && j < b; j++)
			same = p->tr.ev[j].kind == t->ev[j].kind && p->tr.ev[j].id == t->ev[j].id;
		if (!same) {
			if (o->release)
				o->release(o->priv, &p->tr);
			if (o->all_paths)
				continue;
			free(out->note);
			out->note = xstrdup("a forced run differs before the forced branch (the test is not deterministic): "
					    "not widened");
			break;
		}
		p->join0 = enc_join(&c, b);
		p->joinc = join_of(&p->tr, b);
		while (p->join0 + p->aligned < t->n && p->joinc + p->aligned < p->tr.n &&
		       t->ev[p->join0 + p->aligned].kind == p->tr.ev[p->joinc + p->aligned].kind &&
		       t->ev[p->join0 + p->aligned].id == p->tr.ev[p->joinc + p->aligned].id)
			p->aligned++;
		c.np++;
	}
	out->paths = (int)c.np;
	out->weighted = o->weighted && o->susp;
	if (c.path_goal && rc == 0) {
		char *n = xasprintf("the output check is not in the formula: %s%s%s",
				    c.stmt_only ? "the solver gave up on the failure's path, each statement it depends on is a set"
				    : c.stmt_goal ? "no decision leads to the failure, each statement it depends on is a set"
				    : c.wide ? "sets that take the run off the failure's path or change a statement it depends on"
					     : "sets that take the run off the failure's path",
				    out->note ? "; " : "", out->note ? out->note : "");
		free(out->note);
		out->note = n;
	}
	out->seconds = now() - t0;
	for (size_t k = 1; k < c.np; k++)
		if (o->release)
			o->release(o->priv, &c.p[k].tr);
	for (size_t i = 0; i < c.nsels; i++)
		free(c.sels[i].clause);
	free(c.sels);
	free(c.gq);
	free(c.join);
	bits_free(c.guarded);
	bits_free(c.taint);
	free(c.p);
	Z3_del_context(c.z);
	return rc;
}

/* ----------------------------------------------------------------- JSON */

void comss_json(const struct comss_result *r, struct buf *b)
{
	buf_addf(b, "{\"paths\": %d, \"iterations\": %d, \"clauses\": %zu, \"checks\": %zu, \"seconds\": %.3f, "
		    "\"weighted\": %s, \"note\": ",
		 r->paths, r->iterations, r->clauses, r->checks, r->seconds, r->weighted ? "true" : "false");
	json_str_or_null(b, r->note);
	buf_adds(b, ", \"sets\": [");
	for (size_t i = 0; i < r->n; i++) {
		buf_addf(b, "%s{\"cost\": %.6g, \"lines\": [", i ? ", " : "", r->sets[i].cost);
		for (size_t k = 0; k < r->sets[i].n; k++) {
			const struct comss_line *l = &r->sets[i].v[k];
			buf_adds(b, k ? ", {\"file\": " : "{\"file\": ");
			json_str(b, l->file);
			buf_addf(b, ", \"line\": %d, \"weight\": %.6g, \"clause\": ", l->line, l->weight);
			json_str_or_null(b, l->clause);
			buf_adds(b, "}");
		}
		buf_adds(b, "]}");
	}
	buf_adds(b, "]}");
}

int comss_from_json(struct comss_result *r, const char *text, size_t len, struct cerr *e)
{
	memset(r, 0, sizeof(*r));
	struct json *j = json_parse(text, len, e);
	if (!j)
		return -1;
	r->paths = (int)json_get_num(j, "paths");
	r->iterations = (int)json_get_num(j, "iterations");
	r->clauses = (size_t)json_get_num(j, "clauses");
	r->checks = (size_t)json_get_num(j, "checks");
	r->seconds = json_get_num(j, "seconds");
	const struct json *w = json_get(j, "weighted");
	r->weighted = w && w->type == JSON_TRUE;
	r->note = json_get_str(j, "note");
	const struct json *sets = json_get(j, "sets");
	for (size_t i = 0; sets && i < sets->n; i++) {
		const struct json *lines = json_get(sets->kids[i], "lines");
		struct comss_set s = {0};
		s.cost = json_get_num(sets->kids[i], "cost");
		for (size_t k = 0; lines && k < lines->n; k++) {
			const struct json *l = lines->kids[k];
			s.v = xrealloc(s.v, (s.n + 1) * sizeof(*s.v));
			s.v[s.n++] = (struct comss_line){json_get_str(l, "file"), (int)json_get_num(l, "line"), NULL,
							 json_get_str(l, "clause"), json_get_num(l, "weight")};
		}
		r->sets = xrealloc(r->sets, (r->n + 1) * sizeof(*r->sets));
		r->sets[r->n++] = s;
	}
	json_free(j);
	return 0;
}
