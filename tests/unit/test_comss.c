/* MaxSAT fault sets on a real instrumented program: the example of the OFC
 * paper (Jin & Orso), whose CoMSSs are {line 6} and {line 5} from the
 * failing run alone, and after widening {line 6} and {line 5, line 8};
 * clause weighting puts the likelier lines first. */
#include "core/semantic/comss.h"
#include "tests/unit/test.h"
#include "tests/unit/traced.h"

/* The paper's P with its line numbers: line 1 is `if (x >= 0)`, line 9 the
 * assert (<assert.h> and <stdlib.h> come in by -include). */
static const char ofc[] =
	"int P(int x, int y) { int a, b; if (x >= 0)\n"   /* 1 */
	"\t\ta = x;\n"                                      /* 2 */
	"\telse\n"                                           /* 3 */
	"\t\ta = -x;\n"                                     /* 4 */
	"\tif (y < 5)\n"                                     /* 5 */
	"\t\tb = a + 1;\n"                                  /* 6 */
	"\telse\n"                                           /* 7 */
	"\t\tb = a + 2;\n"                                  /* 8 */
	"\tassert(b <= a);\n"                                /* 9 */
	"\treturn b;\n"
	"}\n"
	"int main(int argc, char **argv) { return argc > 2 ? P(atoi(argv[1]), atoi(argv[2])) : 2; }\n";
static const char *const includes[] = {"assert.h", "stdlib.h", NULL};

struct env {
	struct tmeta *m;
	int runs;
};

static int forced(void *priv, unsigned site, unsigned instance, int outcome, struct trace *out, struct cerr *e)
{
	struct env *v = priv;
	char *cmd = xasprintf("cd %s/ofc && rm -f f.bin && CULPRIT_FORCE=%u:%u:%d CULPRIT_TRACE=%s/ofc/f.bin ./p 0 0 > /dev/null 2>&1",
			      dir, site, instance, outcome, dir);
	sh(cmd);
	free(cmd);
	v->runs++;
	char *tp = xasprintf("%s/ofc/f.bin", dir);
	int rc = trace_load(out, tp, v->m, e);
	free(tp);
	return rc;
}

static void release(void *priv, struct trace *t)
{
	(void)priv;
	trace_release(t);
}

/* Whether the result holds a set of exactly these lines. */
static int has_set(const struct comss_result *r, const int *lines, size_t n)
{
	for (size_t i = 0; i < r->n; i++) {
		if (r->sets[i].n != n)
			continue;
		size_t hit = 0;
		for (size_t k = 0; k < n; k++)
			for (size_t j = 0; j < r->sets[i].n; j++)
				hit += r->sets[i].v[j].line == lines[k];
		if (hit == n)
			return 1;
	}
	return 0;
}

static void show(const struct comss_result *r)
{
	if (!getenv("VERBOSE"))
		return;
	printf("  %zu sets, %d paths, %zu clauses, %zu checks\n", r->n, r->paths, r->clauses, r->checks);
	for (size_t i = 0; i < r->n; i++) {
		printf("  {");
		for (size_t k = 0; k < r->sets[i].n; k++)
			printf(" %d", r->sets[i].v[k].line);
		printf(" } cost %.0f\n", r->sets[i].cost);
	}
}

static double susp_58(void *priv, const char *file, int line)
{
	(void)priv;
	(void)file;
	return line == 5 || line == 8 ? 0.9 : 0.1;   /* the branch and b = a + 2 look likeliest */
}

static int want_4(void *priv, const char *file, int line)
{
	(void)priv;
	(void)file;
	return line == 4;   /* a = -x, which never ran */
}

static int want_3(void *priv, const char *file, int line)
{
	(void)priv;
	(void)file;
	return line == 3;
}

static int want_6(void *priv, const char *file, int line)
{
	(void)priv;
	(void)file;
	return line == 6;
}

static void test_ofc_example(void)
{
	struct tmeta m;
	struct trace t;
	if (traced_with("ofc", ofc, "./p 0 0 2>/dev/null", NULL, includes, &m, &t) < 0) {
		CHECK(!"traced");
		return;
	}
	uint32_t fail = TRACE_NONE;
	for (size_t i = 0; i < t.n; i++) {
		const struct msite *s = tmeta_site(&m, t.ev[i].id);
		if (t.ev[i].kind == TE_BRANCH && s && s->kind == 'B' && !strcmp(s->kindname, "assert") && !t.ev[i].val)
			fail = (uint32_t)i;
	}
	CHECK(fail != TRACE_NONE);
	struct expect x = {EXPECT_FLIP, fail, NULL, 0};
	struct env v = {&m, 0};
	struct comss_opts o = {.ofc = 0, .forced = forced, .release = release, .priv = &v};
	struct comss_result r;
	struct cerr e;
	/* One run: {6} and the branch {5}, whose other arm never ran. */
	CHECK(comss_run(&t, &x, 1, &o, &r, &e) == 0);
	show(&r);
	int l6[] = {6}, l5[] = {5}, l58[] = {5, 8}, l2[] = {2};
	CHECK(has_set(&r, l6, 1));
	CHECK(has_set(&r, l5, 1));
	CHECK(!has_set(&r, l2, 1));   /* a = x: any a fails b <= a */
	CHECK(r.paths == 1);
	comss_release(&r);
	/* Widening: the run forced down y >= 5 adds b = a + 2. */
	o.ofc = 1;
	CHECK(comss_run(&t, &x, 1, &o, &r, &e) == 0);
	show(&r);
	CHECK(has_set(&r, l6, 1));
	CHECK(has_set(&r, l58, 2));
	CHECK(!has_set(&r, l5, 1));
	CHECK(v.runs == 1);
	CHECK(r.sets[0].n && r.sets[0].v[0].clause && strstr(r.sets[0].v[0].clause, "b = a + 1"));
	CHECK(r.paths == 2);   /* the paper's two paths of four */
	CHECK(r.n >= 2 && r.sets[0].n == 1);   /* unweighted: the smallest first */
	comss_release(&r);
	/* Weighted by suspiciousness: the likeliest lines' set comes first. */
	o.weighted = 1;
	o.susp = susp_58;
	CHECK(comss_run(&t, &x, 1, &o, &r, &e) == 0);
	show(&r);
	CHECK(r.n >= 2 && r.sets[0].n == 2 && has_set(&r, l58, 2) && r.sets[0].v[1].line == 8);
	CHECK(r.sets[0].cost < r.sets[1].cost);
	comss_release(&r);
	/* A wanted line (say, changed) in an arm no set's branch leads to:
	 * widening goes on to the decision that holds it (x >= 0), and the
	 * sets stay what they are — a = -x fixes nothing. */
	o.weighted = 0;
	o.wanted = want_4;
	v.runs = 0;
	CHECK(comss_run(&t, &x, 1, &o, &r, &e) == 0);
	show(&r);
	CHECK(r.paths == 3 && v.runs == 2);
	CHECK(has_set(&r, l6, 1) && has_set(&r, l58, 2));
	int l4[] = {4};
	CHECK(!has_set(&r, l4, 1));
	comss_release(&r);
	/* A wanted line a set holds: no further widening. */
	o.wanted = want_6;
	v.runs = 0;
	CHECK(comss_run(&t, &x, 1, &o, &r, &e) == 0);
	CHECK(r.paths == 2 && v.runs == 1);
	comss_release(&r);
	trace_release(&t);
	tmeta_release(&m);
}

/* The output call prints the wrong value: its arguments are code like
 * any other, so the line that printed is a set of its own beside the
 * line that computed the value. */
static const char wrongarg[] =
	"int main(int argc, char **argv) {\n"   /* 1 */
	"\tint a = atoi(argv[1]);\n"            /* 2 */
	"\tint b = a + 1;\n"                    /* 3 */
	"\tprintf(\"%d\\n\", b);\n"             /* 4 */
	"\treturn b > 100;\n"                   /* 5 */
	"}\n";
static const char *const stdio[] = {"stdio.h", "stdlib.h", NULL};

static void test_output_line(void)
{
	struct tmeta m;
	struct trace t;
	if (traced_with("out", wrongarg, "./p 3 >/dev/null", NULL, stdio, &m, &t) < 0) {
		CHECK(!"traced");
		return;
	}
	/* The check: the printed argument should have been 6. */
	struct expect x = {EXPECT_EQ, TRACE_NONE, NULL, 6};
	for (size_t i = 0; i < t.n; i++)
		if (t.ev[i].kind == TE_OUT && t.src[i] != TRACE_NONE) {
			const struct msite *call = tmeta_site(&m, t.ev[t.src[i]].id);
			if (call && call->nargs > 1) {
				x.ev = (uint32_t)i;
				x.tree = call->args[1];
			}
		}
	CHECK(x.tree != NULL);
	struct comss_opts o = {0};
	struct comss_result r;
	struct cerr e;
	CHECK(comss_run(&t, &x, 1, &o, &r, &e) == 0);
	show(&r);
	int l4[] = {4}, l3[] = {3}, l2[] = {2};
	CHECK(has_set(&r, l4, 1));
	CHECK(has_set(&r, l3, 1));
	CHECK(!has_set(&r, l2, 1));   /* the input, passed on as it is: hard */
	CHECK(r.note == NULL);         /* the check itself, not the path to it */
	int shows = 0;
	for (size_t i = 0; i < r.n; i++)
		shows += r.sets[i].v[0].line == 4 && strstr(r.sets[i].v[0].clause, "where the failure shows") != NULL;
	CHECK(shows == 1);
	comss_release(&r);
	trace_release(&t);
	tmeta_release(&m);
}

/* No check to model (nx = 0): the goal is the failure's path. The run
 * passes off it (the decision flips), or with another value shown (the
 * statement that computed it, or the output call itself). */
static const char pathprog[] =
	"int main(int argc, char **argv) {\n"   /* 1 */
	"\tint a = atoi(argv[1]), b = 0;\n"     /* 2 */
	"\tif (a > 0)\n"                        /* 3 */
	"\t\tb = a + 1;\n"                      /* 4 */
	"\tprintf(\"%d\\n\", b);\n"             /* 5 */
	"\treturn 0;\n"                         /* 6 */
	"}\n";

static void test_path_goal(void)
{
	struct tmeta m;
	struct trace t;
	if (traced_with("path", pathprog, "./p 3 >/dev/null", NULL, stdio, &m, &t) < 0) {
		CHECK(!"traced");
		return;
	}
	struct comss_opts o = {0};
	struct comss_result r;
	struct cerr e;
	CHECK(comss_run(&t, NULL, 0, &o, &r, &e) == 0);
	show(&r);
	int l3[] = {3}, l4[] = {4}, l5[] = {5};
	CHECK(has_set(&r, l3, 1));
	CHECK(has_set(&r, l4, 1));
	CHECK(has_set(&r, l5, 1));
	CHECK(r.note && strstr(r.note, "or change a statement it depends on"));
	comss_release(&r);
	/* A wanted line off the path: the statements wait. */
	o.wanted = want_3;
	CHECK(comss_run(&t, NULL, 0, &o, &r, &e) == 0);
	show(&r);
	CHECK(has_set(&r, l3, 1) && !has_set(&r, l4, 1));
	comss_release(&r);
	/* Not reached off the path: they join. */
	o.wanted = want_4;
	CHECK(comss_run(&t, NULL, 0, &o, &r, &e) == 0);
	CHECK(has_set(&r, l3, 1) && has_set(&r, l4, 1));
	comss_release(&r);
	trace_release(&t);
	tmeta_release(&m);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/culprit-comss.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	RUN(test_ofc_example);
	RUN(test_output_line);
	RUN(test_path_goal);
	if (!getenv("KEEP"))
		remove_tree(dir, NULL);
	TEST_EXIT();
}
