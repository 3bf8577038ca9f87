/* bench/why: the semantic explainer's pieces on generated programs whose
 * failing runs have about 10^3 .. 10^6 events: instrumentation time, the
 * traced run against the plain run, loading the trace, the slice, the
 * formula and Z3 to the first cause, and memory; then a reader check at
 * 10^7 events. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/semantic/formula.h"
#include "core/semantic/instr.h"
#include "core/semantic/tmeta.h"
#include "core/semantic/trace.h"
#include "core/util.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static long maxrss_mb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss / 1024;
}

/* The generated program: records from a static table (inputs: not traced),
 * each weighed by a function; the assert checks the last weight (a short
 * cause) or the running sum (a chain through every iteration). What it
 * computes, to make its assert fail: */
static long expected(long n, int chain)
{
	long sum = 0, last = 0;
	for (long i = 0; i < n; i++) {
		long w = (i * 7 % 101) * 3 + 1;
		sum += w;
		last = w;
	}
	return chain ? sum : last;
}

static int sh(const char *cmd)
{
	int rc = system(cmd);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static double timed(const char *cmd)
{
	double t0 = now();
	sh(cmd);
	return now() - t0;
}

struct result {
	size_t events, slice, clauses, core, checks;
	double instrument, plain, traced, load, z3;
	int found;
};

static int one(const char *dir, long n, int chain, int formula, struct result *r, struct cerr *e)
{
	memset(r, 0, sizeof(*r));
	char *src = xasprintf("%s/prog.c", dir), *ins = xasprintf("%s/inst.c", dir), *rt = xasprintf("%s/rt.h", dir);
	struct buf text = BUF_INIT, out = BUF_INIT, meta = BUF_INIT;
	buf_addf(&text, "#include <assert.h>\nstatic const int data[101] = {");
	for (int i = 0; i < 101; i++)
		buf_addf(&text, "%s%d", i ? ", " : "", i);
	buf_addf(&text,
		 "};\n\nstatic long weight(long x)\n{\n\treturn x * 3 + 1;\n}\n\n"
		 "int main(void)\n{\n\tlong sum = 0, last = 0;\n"
		 "\tfor (long i = 0; i < %ldL; i++) {\n\t\tlong w = weight(data[i * 7 %% 101]);\n"
		 "\t\tsum += w;\n\t\tlast = w;\n\t}\n"
		 "\tassert(%s != %ldL);\n\treturn 0;\n}\n",
		 n, chain ? "sum" : "last", expected(n, chain));
	int rc = file_write_atomic(src, text.s, text.len, 0644, e);
	struct buf rtb = BUF_INIT;
	buf_adds(&rtb, instr_runtime());
	if (rc == 0)
		rc = file_write_atomic(rt, rtb.s, rtb.len, 0644, e);
	buf_release(&rtb);
	unsigned next = 1;
	struct instr_stats st = {0};
	double t0 = now();
	buf_addf(&out, "#include \"%s\"\n#line 1\n", rt);
	if (rc == 0)
		rc = instr_file(src, "prog.c", text.s, text.len, 0, NULL, 0, &next, &out, &meta, &st, e);
	r->instrument = now() - t0;
	if (rc == 0)
		rc = file_write_atomic(ins, out.s, out.len, 0644, e);
	char *cmd = xasprintf("cd %s && cc -std=gnu11 -O0 -o plain prog.c && cc -std=gnu11 -O0 -w -o traced inst.c", dir);
	if (rc == 0 && sh(cmd) != 0)
		rc = cerr_set(e, "cannot build the generated program");
	free(cmd);
	if (rc == 0) {
		cmd = xasprintf("cd %s && ./plain 2>/dev/null", dir);
		r->plain = timed(cmd);
		free(cmd);
		cmd = xasprintf("cd %s && rm -f trace.bin && CULPRIT_TRACE=%s/trace.bin CULPRIT_TRACE_MAX=100000000000 "
				"./traced 2>/dev/null", dir, dir);
		r->traced = timed(cmd);
		free(cmd);
	}
	struct tmeta m;
	struct trace t;
	if (rc == 0)
		rc = tmeta_parse(&m, meta.s, meta.len, e);
	if (rc == 0) {
		char *tp = xasprintf("%s/trace.bin", dir);
		t0 = now();
		rc = trace_load(&t, tp, &m, e);
		r->load = now() - t0;
		free(tp);
		if (rc < 0)
			tmeta_release(&m);
	}
	if (rc == 0) {
		r->events = t.n;
		uint32_t fail = TRACE_NONE;
		for (size_t i = t.n; i-- > 0 && fail == TRACE_NONE;) {
			const struct msite *s = tmeta_site(&m, t.ev[i].id);
			if (t.ev[i].kind == TE_BRANCH && !t.ev[i].val && s && s->kind == 'B' && !strcmp(s->kindname, "assert"))
				fail = (uint32_t)i;
		}
		if (fail == TRACE_NONE)
			rc = cerr_set(e, "no failed assert in the trace");
		if (rc == 0 && formula) {
			struct bits *in = bits_new(t.n + 1);
			t0 = now();
			r->slice = trace_slice(&t, &fail, 1, in);
			bits_free(in);
			struct formula *f = formula_new(&t);
			struct expect x = {.kind = EXPECT_FLIP, .ev = fail};
			struct cause_result cr;
			rc = formula_cause(f, &x, 1, &cr, e);
			r->z3 = now() - t0;
			if (rc == 0) {
				r->found = cr.found;
				r->clauses = cr.clauses;
				r->core = cr.n;
				r->checks = cr.checks;
				cause_result_release(&cr);
			}
			formula_free(f);
		}
		trace_release(&t);
		tmeta_release(&m);
	}
	buf_release(&text);
	buf_release(&out);
	buf_release(&meta);
	free(src);
	free(ins);
	free(rt);
	return rc;
}

int main(int argc, char **argv)
{
	char dir[256];
	snprintf(dir, sizeof(dir), "%s/culprit-bench-why.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	/* About 16 events an iteration. */
	static const long sizes[] = {64, 640, 6400, 64000};
	int big = argc < 2 || strcmp(argv[1], "--quick");
	int status = 0;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
		struct result r;
		struct cerr e = {{0}};
		if (one(dir, sizes[k], 0, 1, &r, &e) < 0) {
			fprintf(stderr, "bench/why: %s\n", e.msg);
			status = 1;
			break;
		}
		double slow = r.traced / (r.plain > 1e-3 ? r.plain : 1e-3);
		printf("why (the last record): events=%zu instrument=%.3fs plain=%.3fs traced=%.3fs slowdown=%.1fx load=%.3fs slice=%zu "
		       "clauses=%zu core=%zu checks=%zu z3=%.3fs to-first-cause=%.3fs cause=%s maxrss=%ldMB\n",
		       r.events, r.instrument, r.plain, r.traced, slow, r.load, r.slice, r.clauses, r.core, r.checks, r.z3,
		       r.load + r.z3, r.found ? "found" : "none", maxrss_mb());
		fflush(stdout);
	}
	for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes) && !status; k++) {
		struct result r;
		struct cerr e = {{0}};
		if (one(dir, sizes[k], 1, 1, &r, &e) < 0) {
			fprintf(stderr, "bench/why: %s\n", e.msg);
			status = 1;
			break;
		}
		printf("why (the running sum, a chain through every iteration): events=%zu clauses=%zu core=%zu "
		       "checks=%zu to-first-cause=%.3fs cause=%s maxrss=%ldMB\n",
		       r.events, r.clauses, r.core, r.checks, r.load + r.z3, r.found ? "found" : "none", maxrss_mb());
		fflush(stdout);
	}
	if (big && !status) {
		struct result r;
		struct cerr e = {{0}};
		if (one(dir, 640000, 0, 0, &r, &e) < 0) {
			fprintf(stderr, "bench/why: %s\n", e.msg);
			status = 1;
		} else {
			printf("why reader: events=%zu traced=%.3fs load=%.3fs maxrss=%ldMB\n", r.events, r.traced, r.load,
			       maxrss_mb());
		}
	}
	remove_tree(dir, NULL);
	return status;
}
