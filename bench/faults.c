/* bench/faults: MaxSAT fault sets on real instrumented programs.
 *   - the OFC paper's example: sets, runs and clauses with on-demand widening
 *     and with every branch widened (all paths);
 *   - a generated program with k diamonds the failure depends on and k it
 *     does not: OFC against all paths (runs, clauses, time);
 *   - clause weighting: the position of the true fault's set with and
 *     without weights from an Ochiai ranking of traced runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "core/semantic/comss.h"
#include "core/semantic/instr.h"
#include "core/spectrum/spectra.h"
#include "core/semantic/tmeta.h"
#include "core/semantic/trace.h"
#include "core/util.h"

#include "tests/unit/traced.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *cur_name, *cur_args;
static struct tmeta *cur_meta;
static int forced_runs;

/* Run dir/name/p with args traced (env: extra variables); 0 with t. */
static int run(const char *name, const char *args, const char *env, const struct tmeta *m, struct trace *t,
	       struct cerr *e)
{
	char *cmd = xasprintf("cd %s/%s && rm -f t.bin && %s CULPRIT_TRACE=%s/%s/t.bin ./p %s > /dev/null 2>&1", dir, name,
			      env ? env : "", dir, name, args);
	sh(cmd);
	free(cmd);
	char *tp = xasprintf("%s/%s/t.bin", dir, name);
	int rc = trace_load(t, tp, m, e);
	free(tp);
	return rc;
}

static int forced(void *priv, unsigned site, unsigned instance, int outcome, struct trace *out, struct cerr *e)
{
	(void)priv;
	char env[64];
	snprintf(env, sizeof(env), "CULPRIT_FORCE=%u:%u:%d", site, instance, outcome);
	forced_runs++;
	return run(cur_name, cur_args, env, cur_meta, out, e);
}

static void release(void *priv, struct trace *t)
{
	(void)priv;
	trace_release(t);
}

/* The failed assert's branch event: the expectation that it holds. */
static int failed_assert(const struct trace *t, struct expect *x)
{
	for (size_t i = t->n; i-- > 0;) {
		const struct msite *s = tmeta_site(t->m, t->ev[i].id);
		if (t->ev[i].kind == TE_BRANCH && s && s->kind == 'B' && !strcmp(s->kindname, "assert") && !t->ev[i].val) {
			*x = (struct expect){EXPECT_FLIP, (uint32_t)i, NULL, 0};
			return 0;
		}
	}
	return -1;
}

/* The 1-based position of the first set holding line, 0 none. */
static size_t position(const struct comss_result *r, int line)
{
	for (size_t i = 0; i < r->n; i++)
		for (size_t k = 0; k < r->sets[i].n; k++)
			if (r->sets[i].v[k].line == line)
				return i + 1;
	return 0;
}

static void one(const char *what, const struct trace *t, const struct expect *x, struct comss_opts *o,
		int fault_line)
{
	struct comss_result r;
	struct cerr e;
	forced_runs = 0;
	double t0 = now();
	if (comss_run(t, x, 1, o, &r, &e) < 0) {
		printf("  %-28s failed: %s\n", what, e.msg);
		return;
	}
	printf("  %-28s %4zu sets %4d runs %6zu clauses %5zu solver calls %8.3f s   true fault's set: %zu\n", what,
	       r.n, r.paths, r.clauses, r.checks, now() - t0, position(&r, fault_line));
	comss_release(&r);
}

static const char ofc[] =
	"#include <assert.h>\n"
	"#include <stdlib.h>\n"
	"int P(int x, int y)\n"
	"{\tint a, b;\n"
	"\tif (x >= 0)\n"
	"\t\ta = x;\n"
	"\telse\n"
	"\t\ta = -x;\n"
	"\tif (y < 5)\n"
	"\t\tb = a + 1;\n"
	"\telse\n"
	"\t\tb = a + 2;\n"
	"\tassert(b <= a);\n"
	"\treturn b;\n"
	"}\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\treturn argc > 2 ? P(atoi(argv[1]), atoi(argv[2])) : 2;\n"
	"}\n";

/* k diamonds feeding t (even steps: the parity stays), k feeding s (never
 * checked), and a fault that makes t odd for x > 5. */
static char *diamonds(int k, int *fault_line)
{
	struct buf b = BUF_INIT;
	int line = 1;
	buf_adds(&b, "#include <assert.h>\n#include <stdio.h>\n#include <stdlib.h>\n");
	line += 3;
	buf_adds(&b, "int main(int argc, char **argv)\n{\n\tint x = argc > 1 ? atoi(argv[1]) : 0, s = 0, t = x * 2;\n");
	line += 3;
	for (int i = 0; i < k; i++) {
		buf_addf(&b, "\tif (x > %d)\n\t\tt = t + 2;\n\telse\n\t\tt = t + 4;\n", i);
		buf_addf(&b, "\tif (x > %d)\n\t\ts = s + 1;\n\telse\n\t\ts = s + 3;\n", i + 1);
		line += 8;
	}
	buf_adds(&b, "\tif (x > 5)\n\t\tt = t - 1;\n");
	*fault_line = line + 1;
	buf_adds(&b, "\tprintf(\"%d\\n\", s);\n\tassert(t % 2 == 0);\n\treturn 0;\n}\n");
	return buf_detach(&b);
}

/* Ochiai of each line over traced runs of inputs 0..n-1 (a run fails when its assert did). */
struct spectrum {
	int line[4096];
	int ef[4096], ep[4096];
	int F, P;
};

static struct spectrum spec;

static double susp(void *priv, const char *file, int line)
{
	(void)priv;
	(void)file;
	if (line <= 0 || line >= 4096)
		return 0;
	return spectra_score(SPECTRA_OCHIAI, spec.ef[line], spec.ep[line], spec.F, spec.P, NULL);
}

static void spectrum_of(const char *name, const struct tmeta *m, int n)
{
	memset(&spec, 0, sizeof(spec));
	for (int i = 0; i < n; i++) {
		char args[16];
		snprintf(args, sizeof(args), "%d", i);
		struct trace t;
		struct cerr e;
		if (run(name, args, NULL, m, &t, &e) < 0)
			continue;
		int failed = t.sig != 0;
		failed ? spec.F++ : spec.P++;
		static unsigned char hit[4096];
		memset(hit, 0, sizeof(hit));
		for (size_t k = 0; k < t.n; k++) {
			const struct msite *st = t.ev[k].kind == TE_STMT ? tmeta_site(m, t.ev[k].id) : NULL;
			if (st && st->line > 0 && st->line < 4096)
				hit[st->line] = 1;
		}
		for (int l = 0; l < 4096; l++)
			if (hit[l])
				failed ? spec.ef[l]++ : spec.ep[l]++;
		trace_release(&t);
	}
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/culprit-bench-faults.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	struct tmeta m;
	struct trace t;
	struct expect x;
	struct cerr e;

	printf("The OFC paper's example, input (0, 0); the fault sets {b = a + 1} and {if (y < 5), b = a + 2}:\n");
	if (instrumented("ofc", ofc, NULL, &m) == 0 && run("ofc", "0 0", NULL, &m, &t, &e) == 0 && failed_assert(&t, &x) == 0) {
		cur_name = "ofc", cur_args = "0 0", cur_meta = &m;
		struct comss_opts o = {.forced = forced, .release = release};
		one("one run (no widening)", &t, &x, &o, 10);
		o.ofc = 1;
		one("OFC (on demand)", &t, &x, &o, 10);
		o.ofc = 0;
		o.all_paths = 1;
		one("all paths", &t, &x, &o, 10);
		trace_release(&t);
		tmeta_release(&m);
	}

	for (int k = 2; k <= 6; k += 2) {
		int fault;
		char *src = diamonds(k, &fault);
		char name[32];
		snprintf(name, sizeof(name), "d%d", k);
		printf("\n%d diamonds the failure depends on, %d it does not; input 9; the fault at line %d:\n", k, k, fault);
		if (instrumented(name, src, NULL, &m) == 0 && run(name, "9", NULL, &m, &t, &e) == 0 && failed_assert(&t, &x) == 0) {
			cur_name = name, cur_args = "9", cur_meta = &m;
			struct comss_opts o = {.ofc = 1, .forced = forced, .release = release, .max_paths = 16};
			one("OFC", &t, &x, &o, fault);
			o.ofc = 0;
			o.all_paths = 1;
			one("all paths", &t, &x, &o, fault);
			spectrum_of(name, &m, 12);
			o.all_paths = 0;
			o.ofc = 1;
			o.weighted = 1;
			o.susp = susp;
			char label[64];
			snprintf(label, sizeof(label), "OFC + weights (%dF/%dP runs)", spec.F, spec.P);
			one(label, &t, &x, &o, fault);
			trace_release(&t);
			tmeta_release(&m);
		}
		free(src);
	}
	if (!getenv("KEEP"))
		remove_tree(dir, NULL);
	return 0;
}
