/* The explain module: refinement, generated tests the user approves or rejects. */
#include "core/session/stage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/isolate/workspace.h"
#include "core/semantic/gen.h"
#include "core/semantic/refine.h"
#include "core/semantic/shape.h"

#define REFINE_CANDIDATES 12    /* new inputs generated and run per round */
#define REFINE_TRACED 4         /* approved tests traced per round for more */
#define REFINE_WIDE 8           /* suite tests traced anew per wider search */
#define REFINE_WIDE_SECONDS 60  /* no more suite tests traced after this long */

int ex_refine_has_tests(struct explain *x)
{
	char *v = store_get(x->p->store, x->p->session, "refine.approved");
	int has = v && v[0];
	free(v);
	return has;
}

static void proposal_release(struct refine_proposal *p)
{
	free(p->name);
	free(p->input);
	free(p->cmd);
	free(p->test);
	free(p->branch);
	free(p->verdict);
	for (size_t i = 0; i < p->ncovered; i++)
		free(p->covered[i]);
	free(p->covered);
	free(p->good_out);
	free(p->bad_out);
	for (size_t i = 0; i < p->ntop; i++)
		free(p->top[i]);
	free(p->top);
	memset(p, 0, sizeof(*p));
}

static void moves_release(struct explain_refine *r)
{
	for (size_t i = 0; i < r->nmoves; i++)
		free(r->moves[i].file);
	free(r->moves);
	r->moves = NULL;
	r->nmoves = 0;
}

void ex_refine_release(struct explain_refine *r)
{
	proposal_release(&r->cur);
	moves_release(r);
	free(r->note);
	free(r->wide_note);
	memset(r, 0, sizeof(*r));
}

/* Append a line to a stored list. */
static int store_append(struct explain *x, const char *key, const char *line, struct cerr *e)
{
	char *old = store_get(x->p->store, x->p->session, key);
	char *v = xasprintf("%s%s\n", old ? old : "", line);
	int rc = store_set(x->p->store, x->p->session, key, v, e);
	free(old);
	free(v);
	return rc;
}

/* A stored list, a line each: refine.seen, the program commands of the
 * inputs answered or left out; refine.commands, those of the approved ones. */
static char **store_lines(struct explain *x, const char *key, size_t *n)
{
	char *v = store_get(x->p->store, x->p->session, key);
	char **out = NULL;
	*n = 0;
	for (char *p = v, *nl; p && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		out = xrealloc(out, (*n + 1) * sizeof(*out));
		out[(*n)++] = xstrndup(p, (size_t)(nl - p));
	}
	free(v);
	return out;
}

void ex_traces_release(struct explain_priv *p)
{
	for (size_t i = 0; i < p->ntr; i++) {
		trace_release(&p->tr[i]);
		free(p->tr_cmd[i]);
	}
	free(p->tr);
	free(p->tr_cmd);
	p->tr = NULL;
	p->tr_cmd = NULL;
	p->ntr = 0;
	p->tr_why = NULL;
}

/* An approved test's run, traced in the instrumented tree (once). */
static const struct trace *approved_trace(struct explain *x, const char *cmd, struct cerr *e)
{
	struct explain_priv *p = x->p;
	if (p->tr_why != p->why)
		ex_traces_release(p);
	p->tr_why = p->why;
	for (size_t i = 0; i < p->ntr; i++)
		if (!strcmp(p->tr_cmd[i], cmd))
			return &p->tr[i];
	struct trace t;
	ex_activity(x, xasprintf("refinement: tracing %s", cmd));
	if (why_run_traced(p->why, cmd, NULL, &t, e) < 0)
		return NULL;
	p->tr = xrealloc(p->tr, (p->ntr + 1) * sizeof(*p->tr));
	p->tr_cmd = xrealloc(p->tr_cmd, (p->ntr + 1) * sizeof(*p->tr_cmd));
	p->tr[p->ntr] = t;
	p->tr_cmd[p->ntr] = xstrdup(cmd);
	return &p->tr[p->ntr++];
}

/* The good revision built plainly and the bad one built for coverage. */
static int refine_trees(struct explain *x, char **cdir, struct cerr *e)
{
	int rc = ex_ensure_workspace(x, x->good, e);
	if (rc == 0) {
		struct bits *none = bits_new(x->p->full->natoms);
		rc = workspace_apply(x->p->ws, x->p->full, none, NULL, e);
		bits_free(none);
	}
	if (rc == 0 && x->build[0]) {
		struct run_result r;
		rc = ex_run_build(x, workspace_path(x->p->ws), x->build, "building the good revision", NULL, &r, e);
		if (rc == 0 && (r.status != RUN_EXITED || r.code != 0))
			rc = cerr_set(e, "the good revision's build failed (%s)", x->build);
		if (rc == 0)
			run_result_release(&r);
		ex_activity(x, NULL);
	}
	char ch[41];
	const char *cbuild = ex_coverage_build_of(x, ch);
	*cdir = xasprintf("%swt-cov-%.12s-%.8s", x->p->sessdir, x->bad, ch);
	struct workspace *cw = NULL;
	if (rc == 0)
		rc = workspace_open(&cw, x->p->repo, *cdir, x->bad, e);
	workspace_free(cw);
	if (rc == 0)
		rc = ex_build_for_suite(x, *cdir, cbuild, "coverage", e);
	return rc;
}

/* A candidate's time limit: derived from the failing test's own run time
 * (a generated input may make the program wait for input or loop). */
static double cand_timeout(const struct explain *x)
{
	return x->refine.timeout > 0 ? x->refine.timeout : x->opts.test_timeout;
}

/* Build the good tree or the coverage tree again when the last build ran
 * in another (ex_build_here). */
static int tree_built(struct explain *x, const char *dir, struct cerr *e)
{
	if (ex_built_last(x, dir))
		return 0;
	if (!strcmp(dir, workspace_path(x->p->ws)))
		return ex_build_here(x, dir, x->build, NULL, "good revision's", e);
	char ch[41];
	return ex_build_for_suite(x, dir, ex_coverage_build_of(x, ch), "coverage", e);
}

/* Run an input's command in dir (coverage counts of the bad tree go to scratch). */
static int run_input(struct explain *x, const char *dir, const char *cmd, struct run_result *r, struct cerr *e)
{
	int rc = tree_built(x, dir, e);
	if (rc < 0)
		return rc;
	char *scratch = xasprintf("GCOV_PREFIX=%srefine-gcov", x->p->sessdir);
	const char *env[] = {scratch, NULL};
	struct run_opts ro = {.cmd = cmd, .cwd = dir, .timeout = cand_timeout(x), .cancel = x->hooks.cancel,
			      .env = env};
	rc = run_command(&ro, r, e);
	free(scratch);
	return rc;
}

/* Argument id k as a person reads it: "argument 2", or "variable LIMIT"
 * for an environment variable's value. */
static char *arg_text(const struct trace *t, unsigned k)
{
	const char *p = t->env.s;
	for (size_t j = 0; p && k >= TRACE_ENV && j < t->nenv; j++, p += strlen(p) + 1)
		if (j == k - TRACE_ENV)
			return xasprintf("variable %.*s", (int)strcspn(p, "="), p);
	return xasprintf("argument %u", k);
}

/* The branch a candidate negates, described. */
static char *branch_text(const struct trace *t, uint32_t b, uint32_t varied)
{
	if (b == TRACE_NONE && varied < t->n) {   /* no branch flipped: the same path, one input changed */
		const struct tev *v = &t->ev[varied];
		if (v->aux == TIN_STDINT)
			return xasprintf("none: the same path with another value of standard input's number %u", v->id + 1);
		if (v->aux != TIN_ARGINT && v->aux != TIN_ARGBYTE)
			return xasprintf("none: the same path with another byte of input");
		char *a = arg_text(t, v->aux == TIN_ARGINT ? v->id : v->id >> 16), *r;
		if (v->aux == TIN_ARGINT)
			r = xasprintf("none: the same path with another value of %s", a);
		else
			r = xasprintf("none: the same path with another byte %u of %s", v->id & 0xffff, a);
		free(a);
		return r;
	}
	const struct msite *st = b < t->n ? trace_stmt_of(t, b) : NULL;
	if (!st)
		return xstrdup("");
	const char *file = st->file >= 0 && (size_t)st->file < t->m->nfiles ? t->m->files[st->file] : "?";
	return xasprintf("%s:%d %s, now %s", file, st->line, st->text ? st->text : "", t->ev[b].val ? "false" : "true");
}

struct cand {
	struct gen_input in;
	char *cmd, *sig;
	struct run_result good;
	struct buf bad_out;     /* the bad revision's output */
	int ran, failing, dropped;
	struct bits *hit;       /* over x->p->cov's lines */
	size_t unknown;         /* lines hit that no earlier run had as executable */
	size_t covers, fresh;   /* suspects covered; lines no earlier test hit */
	size_t seqs;            /* change sequences it runs through whole */
	size_t split;           /* how evenly it splits the lines tied at the top */
	long cov_run;           /* its run in the candidates' coverage */
	int same_lines;         /* runs the very lines an earlier test ran (kept for its outcome) */
};

static int run_hits(const struct coverage *cc, const struct cov_run *run, const char *file, int line)
{
	long at = coverage_find(cc, file, (uint32_t)line);
	return at >= 0 && bits_test(run->hit, (size_t)at);
}

/* The change sequences (change -> interaction location -> output) a run goes through whole. */
static size_t sequences_run(const struct explain *x, const struct coverage *cc, const struct cov_run *run)
{
	size_t n = 0;
	for (size_t i = 0; x->interacted && i < x->interact.nseqs; i++) {
		const struct ia_seq *q = &x->interact.seqs[i];
		const struct change *ch = &x->set->changes[q->change];
		int hit = 0;
		for (int l = ch->new_start; l < ch->new_start + (ch->new_lines ? ch->new_lines : 1) && !hit; l++)
			hit = run_hits(cc, run, x->set->files[ch->file].new_path, l);
		if (hit && q->loc >= 0)
			hit = run_hits(cc, run, x->interact.locs[q->loc].file, x->interact.locs[q->loc].line);
		if (hit)
			hit = run_hits(cc, run, q->out_file, q->out_line);
		n += hit;
	}
	return n;
}

/* The suspect list: lines a failing test executes. */
static int is_suspect(const struct explain *x, const char *file, int line)
{
	const struct rank_entry *r = rank_find(&x->ranking, file, line);
	return r && r->s.ef > 0;
}

/* What a program command prints on standard output at dir (stderr left out:
 * a suite's $(...) and cmp see standard output only). */
static int stdout_of(struct explain *x, const char *dir, const char *cmd, struct buf *out, struct cerr *e)
{
	char *c = xasprintf("{ %s; } 2>/dev/null", cmd);
	struct run_result r;
	int rc = run_input(x, dir, c, &r, e);
	free(c);
	buf_init(out);
	if (rc == 0) {
		buf_add(out, r.out.s ? r.out.s : "", r.out.len);
		run_result_release(&r);
	}
	return rc;
}

/* Whether the run read standard input. */
static int reads_stdin(const struct trace *t)
{
	for (size_t i = 0; i < t->n; i++) {
		if (t->ev[i].kind == TE_IN && (t->ev[i].aux == TIN_STDBYTE || t->ev[i].aux == TIN_STDINT) &&
		    (t->ev[i].id == ~0u || t->ev[i].id >> 24 == 0))
			return 1;
		if (t->ev[i].kind == TE_ARG && t->ev[i].id == 0xffffff01u && t->ev[i].aux == 0)
			return 1;   /* a scanf item kept as written (%f) */
	}
	return 0;
}

/* The standard input an approved test's program command gives (the
 * command is culprit's own: printf ... | prog). 1 when known. */
static int approved_stdin(struct explain *x, const struct trace *t, const char *cmd, struct buf *in)
{
	if (!t->nargs)
		return 0;
	char **argv = xcalloc(t->nargs + 1, sizeof(*argv));
	const char *p = t->args.s;
	for (size_t k = 0; k < t->nargs; k++) {
		argv[k] = (char *)p;
		p += strlen(p) + 1;
	}
	struct shape sh;
	struct buf none = BUF_INIT;
	int known = shape_find(&sh, cmd, workspace_path(x->p->ws), argv, t->nargs, NULL, 0, 1, &none, NULL) == 0 &&
		    shape_stdin(&sh, workspace_path(x->p->ws), in) == 0;
	if (known || sh.cmd)
		shape_release(&sh);
	free(argv);
	return known;
}

/* Generation's figures over the runs it used. */
struct gen_acc {
	size_t runs, branches, checks;
	double solver_s;
	int capped;             /* a path's floating-point arithmetic was past what the solver is given */
};

/* Appends the inputs w[0..nw) to *v, and adds their figures. */
static void take_inputs(struct gen_input **v, size_t *nc, struct gen_input *w, size_t nw, const struct gen_stats *sa,
			struct gen_acc *acc)
{
	*v = xrealloc(*v, (*nc + nw + 1) * sizeof(**v));
	memcpy(*v + *nc, w, nw * sizeof(*w));
	*nc += nw;
	free(w);
	acc->runs++;
	acc->branches += sa->branches;
	acc->solver_s += sa->seconds;
	acc->checks += sa->checks;
	acc->capped |= sa->capped;
}

/* The commands in seen and those of v[0..nc), for the exclusions (free
 * the copies with seen_drop). */
static char **seen_with(char **seen, size_t nseen, const struct gen_input *v, size_t nc)
{
	char **all = xmalloc((nseen + nc + 1) * sizeof(*all));
	memcpy(all, seen, nseen * sizeof(*seen));
	for (size_t i = 0; i < nc; i++)
		all[nseen + i] = gen_command(&v[i]);
	return all;
}

static void seen_drop(char **all, size_t nseen, size_t nc)
{
	for (size_t i = nseen; i < nseen + nc; i++)
		free(all[i]);
	free(all);
}

/* Inputs from another run (cmd: an approved test's program command or a
 * suite test), traced: its branches negated, appended to *v up to
 * REFINE_CANDIDATES, none in seen or found already. <0 when it could not
 * be traced. */
static int more_from(struct explain *x, const char *cmd, const char *root, const char *filedir, char **seen,
		     size_t nseen, struct gen_input **v, size_t *nc, struct gen_acc *acc)
{
	struct cerr te = {0};
	const struct trace *ta = approved_trace(x, cmd, &te);
	if (!ta) {
		if (!ex_was_stopped(x))
			ex_event(x, "GENERATED", "%s not traced: %s", cmd, te.msg);
		return -1;
	}
	char **all = seen_with(seen, nseen, *v, *nc);
	struct gen_input *w = NULL;
	size_t nw = 0, had = *nc;
	struct gen_stats sa;
	ex_activity(x, xasprintf("refinement: solving for new inputs from %s", cmd));
	struct buf ain;
	int ain_known = approved_stdin(x, ta, cmd, &ain);
	if (gen_candidates(ta, root, ain_known ? &ain : NULL, filedir, NULL, 0, REFINE_CANDIDATES - *nc, all,
			   nseen + *nc, &w, &nw, &sa, &te) == 0)
		take_inputs(v, nc, w, nw, &sa, acc);
	if (ain_known)
		buf_release(&ain);
	seen_drop(all, nseen, had);
	return 0;
}

/* The wider search: the failing run's own path with other values of its
 * inputs (a failing input there tells the ranking something once), then
 * branches negated along the runs of the suite's passing tests, traced,
 * in the suite's order (at most REFINE_WIDE traced anew, none after
 * REFINE_WIDE_SECONDS). */
static void wide_candidates(struct explain *x, const struct trace *t, const char *root, const struct buf *in0,
			    const char *filedir, const char *own_cmd, char ***seen, size_t *nseen, struct gen_input **v,
			    size_t *nc, struct gen_acc *acc)
{
	*seen = xrealloc(*seen, (*nseen + 1) * sizeof(**seen));
	(*seen)[(*nseen)++] = xstrdup(own_cmd);
	char **all = seen_with(*seen, *nseen, *v, *nc);
	struct gen_input *w = NULL;
	size_t nw = 0, had = *nc;
	struct gen_stats sa;
	struct cerr te = {0};
	ex_activity(x, xstrdup("refinement: solving for the failing run's path with other values"));
	if (gen_same_path(t, root, in0, filedir, REFINE_CANDIDATES / 4, all, *nseen + *nc, &w, &nw, &sa, &te) == 0)
		take_inputs(v, nc, w, nw, &sa, acc);
	seen_drop(all, *nseen, had);
	struct suite s;
	if (!x->opts.suite || suite_load(&s, x->opts.suite, &te) < 0)
		return;
	size_t fresh = 0;
	double t0 = now_seconds();
	for (size_t i = 0; i < s.n && *nc < REFINE_CANDIDATES && fresh < REFINE_WIDE && !ex_was_stopped(x) &&
			   now_seconds() - t0 < REFINE_WIDE_SECONDS;
	     i++) {
		const struct coverage *cov = &x->p->cov;
		int passing = 0;
		for (size_t r = 0; r < cov->nruns && !passing; r++)
			passing = cov->runs[r].status == COV_PASS && !strcmp(cov->runs[r].name, s.v[i].name);
		if (!passing || !strcmp(s.v[i].cmd, x->opts.test))
			continue;
		int traced = 0;
		for (size_t k = 0; k < x->p->ntr && !traced; k++)
			traced = !strcmp(x->p->tr_cmd[k], s.v[i].cmd);
		fresh += !traced;
		more_from(x, s.v[i].cmd, root, filedir, *seen, *nseen, v, nc, acc);
	}
	suite_release(&s);
}

/* The suite test an input becomes: the failing test's own shape when the
 * program's invocation was found in it and the result passes at the good
 * revision; else culprit's own form (output and status compared). */
static char *suite_test(struct explain *x, const struct shape *sh, const struct cand *c, const char *name)
{
	if (sh) {
		struct buf out;
		struct cerr se = {0};
		char *test = NULL;
		if (stdout_of(x, workspace_path(x->p->ws), c->cmd, &out, &se) == 0) {
			test = shape_render(sh, &c->in, &out, x->p->sessdir, name, &se);
			buf_release(&out);
		}
		if (test && strchr(test, '\n')) {   /* a suite's test is one line */
			ex_event(x, "GENERATED", "%s in the suite's shape would span lines (the expected output "
				 "does): written in culprit's own form", name);
			free(test);
			return refine_test_command(c->cmd, &c->good);
		}
		struct run_result r;
		if (test && run_input(x, workspace_path(x->p->ws), test, &r, &se) == 0) {
			int passes = r.status == RUN_EXITED && r.code == 0;
			run_result_release(&r);
			if (passes)
				return test;
			ex_event(x, "GENERATED", "%s in the suite's shape (%s) fails at the good revision: written in "
				 "culprit's own form", name, test);
		} else if (!test) {
			ex_event(x, "GENERATED", "%s cannot be written in the suite's shape: %s", name, se.msg);
		}
		free(test);
	}
	return refine_test_command(c->cmd, &c->good);
}

/* The names of the approved tests. */
static char **approved_names(struct explain *x, size_t *n)
{
	char **v = store_lines(x, "refine.approved", n);
	for (size_t i = 0; i < *n; i++)
		v[i][strcspn(v[i], " \t")] = '\0';
	return v;
}

static int is_approved(size_t n, char *const *names, const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

/* The lines tied at the top of the ranking (those scoring as the third
 * does, or better): how evenly a run splits them, min(hit, missed) —
 * SAT-TAR's aim, a test that tells the tied lines apart. */
static size_t top_split(const struct explain *x, const struct coverage *old, const struct bits *hit)
{
	size_t n = x->ranking.n, in = 0, out = 0;
	if (n < 2)
		return 0;
	double bar = x->ranking.v[n < 3 ? n - 1 : 2].s.score;
	for (size_t i = 0; i < n && x->ranking.v[i].s.score >= bar; i++) {
		long at = coverage_find(old, x->ranking.v[i].s.file, (uint32_t)x->ranking.v[i].s.line);
		if (at < 0)
			continue;
		if (bits_test(hit, (size_t)at))
			in++;
		else
			out++;
	}
	return in < out ? in : out;
}

/* The note when the wider search found nothing either: the first search's
 * reasons, then the wider one's counts (its parenthesis). */
static char *wide_note(const char *first, const char *note, int suite)
{
	const char *counts = note ? strchr(note, '(') : NULL;
	return xasprintf("%s; nor a wider search, the failing run's path with other values%s %s", first,
			 suite ? " and branches negated along the suite's passing runs" : "", counts ? counts : "(0 generated)");
}

/* One proposal; the state machine has ranked the failing test already when
 * there is no suite. */
int ex_refine_propose(struct explain *x, struct cerr *e)
{
	const struct trace *t = x->trace;
	ex_lock(x);
	proposal_release(&x->refine.cur);
	free(x->refine.note);
	x->refine.note = NULL;
	x->refine.state = REFINE_WORKING;
	ex_unlock(x);
	char *note = NULL;
	int rc = 0;
	if (!t)
		note = xstrdup(x->opts.semantic ? "refinement needs the failing run's trace, and the explainer left none"
						: "refinement needs the failing run's trace: run without --no-semantic");
	const char *culprit = explain_culprit_commit(x) ? explain_culprit_commit(x) : x->commits[x->hi];
	char *root = xasprintf("%str-%.12s", x->p->sessdir, culprit);
	struct gen_input own = {0};
	struct cerr ge = {0};
	char *filedir = xasprintf("%srefine-in", x->p->sessdir);
	if (!note && gen_original(t, root, NULL, filedir, &own, &ge) < 0)
		note = xasprintf("no tests can be generated: %s", ge.msg);
	char *cdir = NULL, *sig0 = NULL, *own_cmd = NULL;
	int exhausted = 0;   /* every input found repeats what is known: a wider search may follow */
	double t0 = now_seconds(), gen_s = 0, solver_s = 0;
	size_t checks = 0;
	if (!note) {
		ex_activity(x, xstrdup("refinement: building both revisions"));
		rc = refine_trees(x, &cdir, e);
	}
	/* The failing test's own shape, for the tests to come; the standard
	 * input it gives the program. */
	struct shape shp, *shape = NULL;
	struct buf in0 = BUF_INIT;
	int in_known = 0;
	if (!note && rc == 0) {
		struct buf gout;
		struct cerr se = {0};
		own_cmd = gen_command(&own);
		if (stdout_of(x, workspace_path(x->p->ws), own_cmd, &gout, &se) == 0) {
			if (shape_find(&shp, x->opts.test, workspace_path(x->p->ws), own.argv, own.argc, own.env, own.nenv,
				       reads_stdin(t), &gout, &se) == 0)
				shape = &shp;
			else
				ex_event(x, "GENERATED", "tests are written in culprit's own form: %s", se.msg);
			buf_release(&gout);
		}
		if (shape && shape_stdin(shape, workspace_path(x->p->ws), &in0) == 0) {
			in_known = 1;
			gen_input_release(&own);
			if (gen_original(t, root, &in0, filedir, &own, &ge) < 0)
				note = xasprintf("no tests can be generated: %s", ge.msg);
			free(own_cmd);
			own_cmd = note ? NULL : gen_command(&own);
		}
	}
	/* The failing run's own input, run the way candidates run: its signature. */
	if (!note && rc == 0) {
		struct run_result g, b;
		ex_activity(x, xasprintf("refinement: running %s", own_cmd));
		rc = run_input(x, workspace_path(x->p->ws), own_cmd, &g, e);
		if (rc == 0) {
			rc = run_input(x, cdir, own_cmd, &b, e);
			if (rc == 0) {
				sig0 = refine_signature(&g, &b);
				run_result_release(&b);
			}
			run_result_release(&g);
		}
		if (rc == 0 && !sig0)
			note = xasprintf("the failing run's input, run alone (%s), behaves the same at both revisions: "
					 "culprit cannot judge new inputs", own_cmd);
	}
	/* New inputs, preferring the critical predicates and the branches the causes ran under. */
	struct cand *c = NULL;
	size_t nc = 0;
	if (!note && rc == 0) {
		size_t np = 0;
		uint32_t *prefer = xmalloc((2 * 4096 + 2) * sizeof(*prefer));
		for (size_t k = 0; k < x->tree.n && np < 8192; k++) {
			if (x->tree.nodes[k].edge_ev < t->n)
				prefer[np++] = x->tree.nodes[k].edge_ev;
			for (size_t i = 0; i < x->tree.nodes[k].nstmts && np < 8192; i++) {
				uint32_t ev = x->tree.nodes[k].stmts[i].ev;
				if (ev < t->n && t->ctl[ev] != TRACE_NONE)
					prefer[np++] = t->ctl[ev];
			}
		}
		/* And the branches that lead to interaction locations. */
		for (size_t i = 0; x->interacted && i < t->n && np < 8192; i++) {
			const struct msite *st = t->ev[i].kind == TE_STMT ? trace_stmt_of(t, (uint32_t)i) : NULL;
			if (!st || t->ctl[i] == TRACE_NONE)
				continue;
			const char *file = st->file >= 0 && (size_t)st->file < t->m->nfiles ? t->m->files[st->file] : "";
			for (size_t k = 0; k < x->interact.nlocs; k++)
				if (x->interact.locs[k].line == st->line && !strcmp(x->interact.locs[k].file, file)) {
					prefer[np++] = t->ctl[i];
					break;
				}
		}
		size_t nseen = 0;
		char **seen = store_lines(x, "refine.seen", &nseen);
		struct gen_input *v = NULL;
		struct gen_stats st;
		/* (The wider search leaves out the failing run's negations: the
		 * round's first search had them.) */
		struct gen_acc acc = {0};
		if (!x->refine.wide) {
			ex_activity(x, xstrdup("refinement: solving for new inputs"));
			rc = gen_candidates(t, root, in_known ? &in0 : NULL, filedir, prefer, np, REFINE_CANDIDATES, seen,
					    nseen, &v, &nc, &st, e);
			acc = (struct gen_acc){1, st.branches, st.checks, st.seconds, st.capped};
		}
		free(prefer);
		/* Too few: the approved tests' runs, traced, newest first, give
		 * more (a second branch negated beyond the failing run's). */
		size_t napp = 0;
		char **app = rc == 0 && nc < REFINE_CANDIDATES ? store_lines(x, "refine.commands", &napp) : NULL;
		if (napp) {   /* not the failing run's own input either */
			seen = xrealloc(seen, (nseen + 1) * sizeof(*seen));
			seen[nseen++] = xstrdup(own_cmd);
		}
		for (size_t a = napp, tried = 0; a-- > 0 && nc < REFINE_CANDIDATES && tried++ < REFINE_TRACED;)
			if (more_from(x, app[a], root, filedir, seen, nseen, &v, &nc, &acc) < 0 && ex_was_stopped(x))
				break;
		/* A wider search, when the last one's inputs all repeated what
		 * earlier tests showed: the failing run's own path with other
		 * values, then branches negated along the suite's passing runs. */
		if (rc == 0 && x->refine.wide && nc < REFINE_CANDIDATES)
			wide_candidates(x, t, root, in_known ? &in0 : NULL, filedir, own_cmd, &seen, &nseen, &v, &nc, &acc);
		for (size_t i = 0; i < napp; i++)
			free(app[i]);
		free(app);
		for (size_t i = 0; i < nseen; i++)
			free(seen[i]);
		free(seen);
		solver_s = acc.solver_s;
		checks = acc.checks;
		x->refine.solver_seconds += solver_s;
		x->refine.checks += checks;
		if (rc == 0) {
			c = xcalloc(nc + 1, sizeof(*c));
			for (size_t i = 0; i < nc; i++) {
				c[i].in = v[i];
				c[i].cmd = gen_command(&v[i]);
				c[i].cov_run = -1;
			}
			free(v);
			ex_event(x, "GENERATED", "%zu new inputs from %zu input-dependent branches of %zu run%s "
				 "(%zu solver calls, %.2fs)%s", nc, acc.branches, acc.runs, acc.runs == 1 ? "" : "s", checks, solver_s,
				 x->refine.wide ? " in a wider search" : "");
			if (!nc) {
				note = xstrdup(acc.capped ? "no new input: each branch that depends on the inputs, in the failing "
							    "run and the approved tests, is negated already or cannot be negated, "
							    "or lies past more floating-point arithmetic than the solver is given"
							  : "no new input: each branch that depends on the inputs, in the failing run and "
							    "the approved tests, is negated already or cannot be negated");
				exhausted = 1;
			}
		}
	}
	gen_s = now_seconds() - t0;
	x->refine.gen_seconds += gen_s;
	double t1 = now_seconds();
	/* Run each at both revisions: the good one is the oracle. */
	size_t why_near = 0, why_other = 0, why_same = 0, why_none = 0, why_time = 0;
	for (size_t i = 0; rc == 0 && !note && i < nc; i++) {
		struct run_result b;
		if (gen_near_copy(&c[i].in, &own)) {   /* the failing input with a blank more says nothing new */
			c[i].dropped = 1;
			why_near++;
			ex_event(x, "CANDIDATE_DROPPED", "%s is the failing input but for blanks", c[i].cmd);
			store_append(x, "refine.seen", c[i].cmd, NULL);
			continue;
		}
		ex_activity(x, xasprintf("refinement: running %s", c[i].cmd));
		rc = run_input(x, workspace_path(x->p->ws), c[i].cmd, &c[i].good, e);
		if (rc < 0)
			break;
		c[i].ran = 1;
		rc = run_input(x, cdir, c[i].cmd, &b, e);
		if (rc < 0)
			break;
		if (b.status == RUN_CANCELLED || c[i].good.status == RUN_CANCELLED)
			rc = ABORT_STOPPED;
		/* (a hang at the bad revision is the failure itself when the failing input hangs) */
		if (rc == 0 && (c[i].good.status == RUN_TIMEOUT || (b.status == RUN_TIMEOUT && strcmp(sig0, "timeout")))) {
			c[i].dropped = 1;
			why_time++;
			x->refine.dropped++;
			ex_event(x, "CANDIDATE_DROPPED", "%s runs past %.3g s at the %s revision: it waits for input or "
				 "loops", c[i].cmd, cand_timeout(x), c[i].good.status == RUN_TIMEOUT ? "good" : "bad");
			store_append(x, "refine.seen", c[i].cmd, NULL);
			run_result_release(&b);
			continue;
		}
		c[i].sig = refine_signature(&c[i].good, &b);
		buf_add(&c[i].bad_out, b.out.s ? b.out.s : "", b.out.len);
		c[i].failing = c[i].sig != NULL;
		if (c[i].failing && strcmp(c[i].sig, sig0)) {
			c[i].dropped = 1;
			why_other++;
			x->refine.dropped++;
			ex_event(x, "CANDIDATE_DROPPED", "%s fails differently (%s, not %s): another fault", c[i].cmd,
				 c[i].sig, sig0);
			store_append(x, "refine.seen", c[i].cmd, NULL);   /* not run again */
		}
		run_result_release(&b);
	}
	/* Their coverage at the bad revision. */
	struct coverage cc = {0};
	if (rc == 0 && !note && nc) {
		struct suite cs = {xcalloc(nc + 1, sizeof(struct suite_test)), 0};
		for (size_t i = 0; i < nc; i++)
			if (!c[i].dropped) {
				c[i].cov_run = (long)cs.n;
				cs.v[cs.n++] = (struct suite_test){xasprintf("candidate%zu", i), c[i].cmd, 0};
			}
		char *runs = xasprintf("%sruns-refine", x->p->sessdir);
		int jobs = x->opts.jobs > 0 ? x->opts.jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
		if (cs.n)
			rc = coverage_collect(&cc, cdir, runs, &cs, jobs, cand_timeout(x), x->hooks.cancel, e);
		remove_tree(runs, NULL);
		free(runs);
		for (size_t i = 0; i < cs.n; i++)
			free(cs.v[i].name);
		free(cs.v);
	}
	x->refine.run_seconds += now_seconds() - t1;
	ex_activity(x, NULL);
	/* SAT-TAR's choice. */
	long best = -1;
	size_t napproved = 0;
	char **approved = rc == 0 && !note ? approved_names(x, &napproved) : NULL;
	char *nr = store_get(x->p->store, x->p->session, "refine.no_repeats");
	int no_repeats = nr && nr[0] == '1';   /* a rejected proposal only repeated earlier lines */
	free(nr);
	if (rc == 0 && !note) {
		const struct coverage *old = &x->p->cov;
		for (size_t i = 0; i < nc; i++) {
			if (c[i].dropped || c[i].cov_run < 0)
				continue;
			const struct cov_run *run = &cc.runs[c[i].cov_run];
			c[i].hit = bits_new(old->nlines + 1);
			for (size_t l = 0; l < cc.nlines; l++) {
				if (!bits_test(run->hit, l))
					continue;
				const char *file = cc.files[cc.lines[l].file];
				long at = coverage_find(old, file, cc.lines[l].line);
				if (at < 0)
					c[i].unknown++;
				else
					bits_set(c[i].hit, (size_t)at);
				c[i].covers += is_suspect(x, file, (int)cc.lines[l].line);
			}
			c[i].seqs = sequences_run(x, &cc, run);
			/* A passing test that runs the very lines an earlier passing one
			 * ran tells the ranking nothing. The same lines with another
			 * outcome do: a passing input where the earlier runs of those
			 * lines failed; a failing input (it tells the revisions apart and
			 * adds a failing run to the lines' spectrum), once per path: not
			 * where an approved test failed on those lines already. */
			int same = 0, drop = 0;
			for (size_t r = 0; r < old->nruns && !c[i].unknown; r++) {
				int eq = 1;
				for (size_t l = 0; l < old->nlines && eq; l++)
					eq = bits_test(c[i].hit, l) == bits_test(old->runs[r].hit, l);
				if (!eq)
					continue;
				same = 1;
				if (c[i].failing)
					drop |= old->runs[r].status == COV_FAIL && is_approved(napproved, approved, old->runs[r].name);
				else
					drop |= old->runs[r].status == COV_PASS;
			}
			c[i].same_lines = same;
			same = drop || (same && no_repeats);
			if (same)   /* for good: later rounds only add runs */
				store_append(x, "refine.seen", c[i].cmd, NULL);
			if (same || !c[i].covers) {   /* nothing the ranking can learn from */
				why_same += same;
				why_none += !same;
				continue;
			}
			c[i].split = top_split(x, old, c[i].hit);
			c[i].fresh = c[i].unknown;
			for (size_t l = 0; l < old->nlines; l++) {
				if (!bits_test(c[i].hit, l))
					continue;
				int any = 0;
				for (size_t r = 0; r < old->nruns && !any; r++)
					any = bits_test(old->runs[r].hit, l);
				c[i].fresh += !any;
			}
			if (best < 0)
				best = (long)i;
			else {
				const struct cand *b = &c[best];
				/* SAT-TAR: most suspects (after a round that changed no rating: new
				 * coverage); then whole change sequences. */
				size_t k1 = x->refine.stale ? c[i].fresh : c[i].covers, b1 = x->refine.stale ? b->fresh : b->covers;
				size_t k2 = x->refine.stale ? c[i].covers : c[i].fresh, b2 = x->refine.stale ? b->covers : b->fresh;
				int better = c[i].same_lines != b->same_lines ? !c[i].same_lines
					     : c[i].split != b->split ? c[i].split > b->split
					     : k1 != b1			 ? k1 > b1
					     : c[i].seqs != b->seqs	 ? c[i].seqs > b->seqs
									 : k2 > b2;
				if (better)
					best = (long)i;
			}
		}
		if (best < 0) {
			struct buf w = BUF_INIT;
			buf_addf(&w, "no new input adds coverage or an outcome that no earlier test had: refinement is done (%zu generated", nc);
			if (why_other)
				buf_addf(&w, "; %zu fail%s differently: another fault", why_other, why_other == 1 ? "s" : "");
			if (why_same)
				buf_addf(&w, "; %zu run%s the very lines an earlier test ran, with its outcome", why_same,
					 why_same == 1 ? "s" : "");
			if (why_none)
				buf_addf(&w, "; %zu cover%s no suspect line", why_none, why_none == 1 ? "s" : "");
			if (why_near)
				buf_addf(&w, "; %zu %s the failing input but for blanks", why_near, why_near == 1 ? "is" : "are");
			if (why_time)
				buf_addf(&w, "; %zu run%s past %.3g s: waiting for input or looping", why_time,
					 why_time == 1 ? "s" : "", cand_timeout(x));
			buf_addc(&w, ')');
			note = buf_detach(&w);
			exhausted = 1;
		}
	}
	for (size_t i = 0; i < napproved; i++)
		free(approved[i]);
	free(approved);
	if (rc == 0 && !x->opts.replay) {   /* this round's figures */
		char *before = explain_refine_rounds(x);
		int round = 1;
		for (const char *q = before; *q; q++)
			round += *q == '\n';
		free(before);
		char *line = xasprintf("%d %.3f %.3f %.3f %zu %zu", round, gen_s, solver_s, now_seconds() - t1, nc, checks);
		store_append(x, "refine.rounds", line, NULL);
		free(line);
	}
	char *name = NULL, *test = NULL;
	if (best >= 0) {
		char *next = store_get(x->p->store, x->p->session, "refine.next");
		name = xasprintf("gen%d", next ? atoi(next) : 1);
		free(next);
		ex_activity(x, xasprintf("refinement: writing %s as a test", name));
		test = suite_test(x, shape, &c[best], name);
		ex_activity(x, NULL);
	}
	int widen = rc == 0 && best < 0 && exhausted && !x->refine.wide;
	if (rc == 0 && best < 0 && exhausted && x->refine.wide_note) {
		char *both = wide_note(x->refine.wide_note, note, x->opts.suite != NULL);
		free(note);
		note = both;
	}
	ex_lock(x);
	x->refine.candidates += nc;
	if (best >= 0) {
		struct cand *b = &c[best];
		struct refine_proposal *p = &x->refine.cur;
		p->name = name;
		p->input = gen_describe(&b->in);
		p->cmd = xstrdup(b->cmd);
		p->test = test;
		p->branch = branch_text(t, b->in.branch, b->in.varied);
		p->failing = b->failing;
		p->verdict = b->failing ? xasprintf("failing: %s (the good revision differs)", b->sig)
					: xstrdup("passing: both revisions behave the same");
		p->new_lines = b->fresh;
		p->repeats = b->same_lines;
		p->sequences = b->seqs;
		p->good_out = xstrndup(b->good.out.s ? b->good.out.s : "", b->good.out.len < 4096 ? b->good.out.len : 4096);
		p->bad_out = xstrndup(b->bad_out.s ? b->bad_out.s : "", b->bad_out.len < 4096 ? b->bad_out.len : 4096);
		if (x->ranking.n) {   /* the lines tied at the top that it runs */
			double bar = x->ranking.v[x->ranking.n < 3 ? x->ranking.n - 1 : 2].s.score;
			for (size_t i = 0; i < x->ranking.n && x->ranking.v[i].s.score >= bar; i++) {
				long at = coverage_find(&x->p->cov, x->ranking.v[i].s.file, (uint32_t)x->ranking.v[i].s.line);
				if (at < 0 || !b->hit || !bits_test(b->hit, (size_t)at))
					continue;
				p->top = xrealloc(p->top, (p->ntop + 1) * sizeof(*p->top));
				p->top[p->ntop++] = xasprintf("%s:%d", x->ranking.v[i].s.file, x->ranking.v[i].s.line);
			}
		}
		const struct cov_run *run = &cc.runs[b->cov_run];
		for (size_t l = 0; l < cc.nlines; l++) {
			const char *file = cc.files[cc.lines[l].file];
			if (bits_test(run->hit, l) && is_suspect(x, file, (int)cc.lines[l].line)) {
				p->covered = xrealloc(p->covered, (p->ncovered + 1) * sizeof(*p->covered));
				p->covered[p->ncovered++] = xasprintf("%s:%u", file, cc.lines[l].line);
			}
		}
		x->refine.rounds++;
		x->refine.state = REFINE_PROPOSED;
	} else if (widen) {   /* the round goes on */
		x->refine.wide_note = note;
		note = NULL;
	} else if (rc == 0) {
		x->refine.note = note ? note : xstrdup("nothing to propose");
		note = NULL;
		x->refine.state = REFINE_DONE;
	} else {
		x->refine.state = REFINE_IDLE;
	}
	ex_unlock(x);
	if (best >= 0)
		ex_event(x, "PROPOSED", "%s: %s (%s; covers %zu suspect statements)", x->refine.cur.name,
			 x->refine.cur.input, x->refine.cur.verdict, x->refine.cur.ncovered);
	else if (widen)
		ex_event(x, "GENERATED", "%s: a wider search follows", x->refine.wide_note);
	else if (rc == 0)
		ex_event(x, "REFINE_DONE", "%s", x->refine.note);
	for (size_t i = 0; i < nc; i++) {
		gen_input_release(&c[i].in);
		free(c[i].cmd);
		free(c[i].sig);
		if (c[i].ran)
			run_result_release(&c[i].good);
		buf_release(&c[i].bad_out);
		bits_free(c[i].hit);
	}
	free(c);
	if (nc)
		coverage_release(&cc);
	if (shape)
		shape_release(shape);
	buf_release(&in0);
	free(filedir);
	gen_input_release(&own);
	free(own_cmd);
	free(sig0);
	free(cdir);
	free(root);
	free(note);
	if (rc == ABORT_STOPPED)
		return cerr_set(e, "refinement was cancelled");
	if (widen) {
		x->refine.wide = 1;
		int r = ex_refine_propose(x, e);
		x->refine.wide = 0;
		free(x->refine.wide_note);
		x->refine.wide_note = NULL;
		return r;
	}
	return rc < 0 ? -1 : best >= 0;
}

/* An answer to the proposal, stored. 1 when it was approved: the state
 * machine ranks again, then calls ex_refine_moves with the ranking before
 * (a copy, filled here). */
int ex_refine_record(struct explain *x, enum refine_answer a, struct ranking *before, struct cerr *e)
{
	struct explain_refine *r = &x->refine;
	if (a == REFINE_STOP) {
		ex_lock(x);
		proposal_release(&r->cur);
		r->state = REFINE_STOPPED;
		free(r->note);
		r->note = xasprintf("stopped by the user after %zu approved tests", r->approved);
		ex_unlock(x);
		ex_event(x, "REFINE_STOPPED", "%s", r->note);
		return 0;
	}
	if (r->state != REFINE_PROPOSED)
		return cerr_set(e, "no test is proposed");
	if (store_append(x, "refine.seen", r->cur.cmd, e) < 0)
		return -1;
	char *entry = xasprintf("%s\t%s\t%s\t%zu\t%s", a == REFINE_APPROVE ? "approved" : "rejected", r->cur.name,
				r->cur.failing ? "failing" : "passing", r->cur.ncovered, r->cur.input);
	for (char *q = entry; *q; q++)
		if (*q == '\n')
			*q = ' ';
	int logged = store_append(x, "refine.log", entry, e);
	free(entry);
	if (logged < 0)
		return -1;
	/* Names are not used twice. */
	char *next = store_get(x->p->store, x->p->session, "refine.next");
	char num[32];
	snprintf(num, sizeof(num), "%d", (next ? atoi(next) : 1) + 1);
	free(next);
	if (store_set(x->p->store, x->p->session, "refine.next", num, e) < 0)
		return -1;
	if (a == REFINE_REJECT) {
		ex_event(x, "REJECTED", "%s: %s", r->cur.name, r->cur.input);
		/* The user does not want inputs that only repeat earlier lines. */
		if (r->cur.repeats && store_set(x->p->store, x->p->session, "refine.no_repeats", "1", e) < 0)
			return -1;
		ex_lock(x);
		r->rejected++;
		proposal_release(&r->cur);
		r->state = REFINE_IDLE;
		ex_unlock(x);
		return 0;
	}
	/* Approved: it joins the suite, and the ranking is computed again. */
	if (store_append(x, "refine.commands", r->cur.cmd, e) < 0)
		return -1;
	char *line = xasprintf("%s %s", r->cur.name, r->cur.test);
	int rc = store_append(x, "refine.approved", line, e);
	free(line);
	if (rc < 0)
		return -1;
	before->n = x->ranking.n;
	before->v = xcalloc(before->n + 1, sizeof(*before->v));
	for (size_t i = 0; i < before->n; i++) {
		before->v[i] = x->ranking.v[i];
		before->v[i].s.file = xstrdup(x->ranking.v[i].s.file);
	}
	ex_event(x, "APPROVED", "%s: %s (%s)", r->cur.name, r->cur.input, r->cur.failing ? "failing" : "passing");
	return 1;
}

/* After the ranking with an approved test: how each line moved. *changed
 * says whether any score changed. 1 when a core statement lost its boost
 * (an approved failing test rates it lower): the state machine ranks again. */
int ex_refine_moves(struct explain *x, const struct ranking *before, int *changed, struct cerr *e)
{
	struct explain_refine *r = &x->refine;
	int unboosted = 0;
	*changed = 0;
	struct buf unboost = BUF_INIT;
	for (size_t i = 0; i < before->n; i++) {
		const struct rank_entry *now = rank_find(&x->ranking, before->v[i].s.file, before->v[i].s.line);
		if (!now || now->raw != before->v[i].raw)
			*changed = 1;
		if (r->cur.failing && now && before->v[i].boosted && now->raw < before->v[i].raw)
			buf_addf(&unboost, "%s%s:%d", unboost.len ? "\n" : "", now->s.file, now->s.line);
	}
	if (unboost.len && store_append(x, "refine.unboosted", unboost.s, e) == 0)
		unboosted = 1;
	buf_release(&unboost);
	return unboosted;
}

/* The moves shown, and the proposal done with. */
void ex_refine_done(struct explain *x, const struct ranking *before, int changed)
{
	struct explain_refine *r = &x->refine;
	ex_lock(x);
	moves_release(r);
	r->moves = xcalloc(x->ranking.n + 1, sizeof(*r->moves));
	for (size_t i = 0; i < x->ranking.n; i++) {
		const struct rank_entry *now = &x->ranking.v[i];
		const struct rank_entry *was = rank_find(before, now->s.file, now->s.line);
		r->moves[r->nmoves++] = (struct refine_move){xstrdup(now->s.file), now->s.line, was ? was->s.rank : 0,
							     now->s.rank, was ? was->s.score : 0, now->s.score};
	}
	r->stale = !changed;
	r->approved++;
	proposal_release(&r->cur);
	r->state = REFINE_IDLE;
	ex_unlock(x);
}

char *explain_refine_rounds(const struct explain *x)
{
	char *v = store_get(x->p->store, x->p->session, "refine.rounds");
	return v ? v : xstrdup("");
}

char *explain_refine_log(const struct explain *x)
{
	char *v = store_get(x->p->store, x->p->session, "refine.log");
	return v ? v : xstrdup("");
}

char *explain_refine_suite(struct explain *x)
{
	char *v = store_get(x->p->store, x->p->session, "refine.approved");
	if (!v || !v[0]) {
		free(v);
		return xstrdup("");
	}
	char *s = xasprintf("# tests generated by culprit and approved; each passes when the program prints\n"
			    "# and exits as the good revision %.12s did\n%s", x->good, v);
	free(v);
	return s;
}

