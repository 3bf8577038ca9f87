/* Test generation: the runtime marks the program's inputs, the path
 * condition over them is solved with one branch negated, and the solution
 * becomes a command line and standard input that take the other way; the
 * runtime can force a branch (for on-demand formulas). Real programs,
 * instrumented with libclang and built with the system compiler. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/semantic/formula_int.h"
#include "core/semantic/gen.h"
#include "core/semantic/instr.h"
#include "core/semantic/tmeta.h"
#include "core/semantic/trace.h"
#include "tests/unit/test.h"

#include "tests/unit/traced.h"

static const char numbers[] =
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\tint x = atoi(argv[1]);\n"
	"\tint c = getchar();\n"
	"\tif (x > 10) {\n"
	"\t\tif (c == 'q')\n"
	"\t\t\tputs(\"quit\");\n"
	"\t\telse\n"
	"\t\t\tputs(\"big\");\n"
	"\t} else {\n"
	"\t\tputs(\"small\");\n"
	"\t}\n"
	"\tif (argc > 2 && argv[2][0] == '-')\n"
	"\t\tputs(\"dash\");\n"
	"\tint z = 0;\n"
	"\tif (argc > 3 && sscanf(argv[3], \"%d\", &z) == 1 && z * 3 == 126)\n"
	"\t\tputs(\"answer\");\n"
	"\treturn 0;\n"
	"}\n";

static int has_candidate(struct gen_input *v, size_t n, const char *needle)
{
	for (size_t i = 0; i < n; i++) {
		char *c = gen_command(&v[i]);
		int hit = strstr(c, needle) != NULL;
		free(c);
		if (hit)
			return 1;
	}
	return 0;
}

static void test_inputs(void)
{
	struct tmeta m;
	struct trace t;
	if (traced("num", numbers, "sh -c 'printf a | ./p 20 x 7' > /dev/null", NULL, &m, &t) < 0) {
		CHECK(!"traced");
		return;
	}
	CHECK(t.nargs == 4);
	CHECK_STR(t.args.s + 4, "20");
	CHECK(t.cwd && strstr(t.cwd, "/num") != NULL);
	struct cerr e;
	struct gen_input g;
	char *root = xasprintf("%s", dir);
	CHECK(gen_original(&t, root, NULL, NULL, &g, &e) == 0);
	char *own = gen_command(&g);
	CHECK_STR(own, "cd num && printf '%s' a | ./p 20 x 7");
	free(own);
	gen_input_release(&g);
	struct gen_input *v = NULL;
	size_t n = 0;
	struct gen_stats st;
	CHECK(gen_candidates(&t, root, NULL, NULL, NULL, 0, 16, NULL, 0, &v, &n, &st, &e) == 0);
	CHECK(st.branches >= 3 && st.checks >= 3);
	/* x > 10 negated; c == 'q' taken; argv[2][0] == '-' taken. */
	int small = 0;
	for (size_t i = 0; i < n; i++)
		small |= atoi(v[i].argv[1]) <= 10;
	CHECK(small);
	for (size_t i = 0; i < n && getenv("VERBOSE"); i++) {
		char *c = gen_command(&v[i]);
		printf("  %s\n", c);
		free(c);
	}
	CHECK(has_candidate(v, n, "printf '%s' q"));
	CHECK(has_candidate(v, n, " 20 - 7"));
	CHECK(has_candidate(v, n, " 20 x 42"));   /* sscanf's %d: z * 3 == 126 */
	/* Each candidate really takes its branch the other way. */
	for (size_t i = 0; i < n; i++) {
		char *c = gen_command(&v[i]);
		char *cmd = xasprintf("cd %s && %s > out.txt", dir, c);
		CHECK(sh(cmd) == 0);
		free(cmd);
		free(c);
	}
	for (size_t i = 0; i < n; i++)
		gen_input_release(&v[i]);
	free(v);
	/* A seen input is not proposed again. */
	CHECK(gen_candidates(&t, root, NULL, NULL, NULL, 0, 16, NULL, 0, &v, &n, &st, &e) == 0);
	size_t before = n;
	char **seen = xcalloc(n + 1, sizeof(*seen));
	for (size_t i = 0; i < n; i++) {
		seen[i] = gen_command(&v[i]);
		gen_input_release(&v[i]);
	}
	free(v);
	CHECK(gen_candidates(&t, root, NULL, NULL, NULL, 0, 16, seen, before, &v, &n, &st, &e) == 0);
	CHECK(n == 0);
	for (size_t i = 0; i < before; i++)
		free(seen[i]);
	free(seen);
	free(v);
	/* Outside the tree: a clear refusal. */
	CHECK(gen_original(&t, "/nonexistent", NULL, NULL, &g, &e) < 0 && strstr(e.msg, "outside the tree"));
	free(root);
	trace_release(&t);
	tmeta_release(&m);
}

static const char items[] =
	"#include <stdio.h>\n"
	"int main(void)\n"
	"{\n"
	"\tint a = 0, b = 0;\n"
	"\tif (scanf(\"%d %d\", &a, &b) != 2)\n"
	"\t\treturn 2;\n"
	"\tif (a * 3 == b + 7)\n"
	"\t\tputs(\"hit\");\n"
	"\treturn 0;\n"
	"}\n";

static void test_scanf(void)
{
	struct tmeta m;
	struct trace t;
	if (traced("items", items, "sh -c 'echo 1 2 | ./p'", NULL, &m, &t) < 0) {
		CHECK(!"traced");
		return;
	}
	struct cerr e;
	struct gen_input *v = NULL;
	size_t n = 0;
	struct gen_stats st;
	if (gen_candidates(&t, dir, NULL, NULL, NULL, 0, 8, NULL, 0, &v, &n, &st, &e) < 0)
		printf("  %s\n", e.msg);
	int hit = 0;
	for (size_t i = 0; i < n; i++) {
		long long a, b;
		if (v[i].in.s && sscanf(v[i].in.s, "%lld %lld", &a, &b) == 2 && a * 3 == b + 7)
			hit = 1;
		gen_input_release(&v[i]);
	}
	CHECK(hit);
	free(v);
	trace_release(&t);
	tmeta_release(&m);
}

/* Branches on the math library's exact functions of a double read by
 * scanf("%lf"): sqrt, fabs and floor are modelled in floating point (not
 * taken as their observed values), so each branch can be negated. */
static const char roots[] =
	"#include <math.h>\n"
	"#include <stdio.h>\n"
	"int main(void)\n"
	"{\n"
	"\tdouble x = 0;\n"
	"\tif (scanf(\"%lf\", &x) != 1)\n"
	"\t\treturn 2;\n"
	"\tif (sqrt(fabs(x)) >= 3)\n"
	"\t\tputs(\"far\");\n"
	"\telse if (floor(x) == 2)\n"
	"\t\tputs(\"two\");\n"
	"\telse\n"
	"\t\tputs(\"near\");\n"
	"\treturn 0;\n"
	"}\n";

/* The candidates for the program src run as cmd: the number each one's
 * standard input starts with, in x (at most max); returns how many. */
static size_t candidate_doubles(const char *name, const char *src, const char *cmd, double *x, size_t max,
				struct gen_stats *st)
{
	struct tmeta m;
	struct trace t;
	if (traced(name, src, cmd, NULL, &m, &t) < 0) {
		CHECK(!"traced");
		return 0;
	}
	struct cerr e;
	struct gen_input *v = NULL;
	size_t n = 0, k = 0;
	CHECK(gen_candidates(&t, dir, NULL, NULL, NULL, 0, 8, NULL, 0, &v, &n, st, &e) == 0);
	for (size_t i = 0; i < n; i++) {
		if (k < max && v[i].in.s && sscanf(v[i].in.s, "%lf", &x[k]) == 1)
			k++;
		gen_input_release(&v[i]);
	}
	free(v);
	trace_release(&t);
	tmeta_release(&m);
	return k;
}

static void test_math(void)
{
	double x[8];
	struct gen_stats st;
	size_t n = candidate_doubles("roots", roots, "sh -c 'echo 4 | ./p' > /dev/null", x, 8, &st);
	int far = 0, two = 0;
	for (size_t i = 0; i < n; i++) {
		far |= sqrt(fabs(x[i])) >= 3;
		two |= sqrt(fabs(x[i])) < 3 && floor(x[i]) == 2;
	}
	CHECK(far);
	CHECK(two);
}

/* A descent loop of divisions on a double read by scanf: past the
 * floating-point operations the solver is given, the walk along the path
 * stops (the branches after it stay as they ran) instead of building a
 * formula no check can finish; the stats say so. The branch before the
 * loop is still negated. */
static const char descent[] =
	"#include <stdio.h>\n"
	"int main(void)\n"
	"{\n"
	"\tdouble x = 0;\n"
	"\tint steps = 0;\n"
	"\tif (scanf(\"%lf\", &x) != 1)\n"
	"\t\treturn 2;\n"
	"\tif (x < 0)\n"
	"\t\tx = -x;\n"
	"\twhile (x > 1e-9 && steps < 400) {\n"
	"\t\tx = x / 1.5 - x / 7;\n"
	"\t\tsteps++;\n"
	"\t}\n"
	"\tprintf(\"%d\\n\", steps);\n"
	"\treturn 0;\n"
	"}\n";

static void test_fp_cap(void)
{
	double x[8];
	struct gen_stats st = {0};
	size_t n = candidate_doubles("descent", descent, "sh -c 'echo 1000 | ./p' > /dev/null", x, 8, &st);
	CHECK(st.capped);
	int negative = 0;
	for (size_t i = 0; i < n; i++)
		negative |= x[i] < 0;
	CHECK(negative);
}

/* When the solver gives up on a path condition (forced here by a tiny
 * resource limit; on real programs, products of doubles past the time
 * limit), values are guessed near the inputs' own and checked against the
 * formula: the branch on a product of two doubles read by scanf is still
 * negated, and on the same path the number still takes other values. */
static const char product[] =
	"#include <stdio.h>\n"
	"int main(void)\n"
	"{\n"
	"\tdouble a = 0, b = 0;\n"
	"\tif (scanf(\"%lf %lf\", &a, &b) != 2)\n"
	"\t\treturn 2;\n"
	"\tif (a * b > 100.0)\n"
	"\t\tputs(\"big\");\n"
	"\telse\n"
	"\t\tputs(\"small\");\n"
	"\treturn 0;\n"
	"}\n";

/* The value input event ev takes in solution fl (its own when unchanged). */
static double flip_double(const struct trace *t, const struct flip *fl, uint32_t ev)
{
	unsigned long long u = t->ev[ev].val;
	for (size_t k = 0; k < fl->n; k++)
		if (fl->in[k] == ev)
			u = (unsigned long long)fl->val[k];
	double d;
	memcpy(&d, &u, sizeof(d));
	return d;
}

static void test_guess(void)
{
	struct tmeta m;
	struct trace t;
	if (traced("product", product, "sh -c 'echo 3 4 | ./p' > /dev/null", NULL, &m, &t) < 0) {
		CHECK(!"traced");
		return;
	}
	uint32_t br[8], in[2];
	size_t nbr = 0, nin = 0;
	for (size_t i = 0; i < t.n; i++) {
		if (t.ev[i].kind == TE_BRANCH && nbr < 8)
			br[nbr++] = (uint32_t)i;
		if (t.ev[i].kind == TE_IN && t.ev[i].aux == TIN_STDINT && nin < 2)
			in[nin++] = (uint32_t)i;
	}
	CHECK(nin == 2);
	unsigned char want[8];
	memset(want, 1, sizeof(want));
	struct cerr e;
	struct flips fl;
	struct formula *f = formula_new_mode(&t, 1);
	f->rlimit = 1;
	CHECK(formula_flips(f, br, nbr, want, 64, &fl, &e) == 0);
	int big = 0;
	for (size_t i = 0; i < fl.n && nin == 2; i++)
		big |= flip_double(&t, &fl.v[i], in[0]) * flip_double(&t, &fl.v[i], in[1]) > 100.0;
	CHECK(big);
	flips_release(&fl);
	CHECK(formula_same_path(f, br, nbr, 2, 64, &fl, &e) == 0);
	CHECK(fl.n >= 2);
	for (size_t i = 0; i < fl.n && nin == 2; i++) {
		double a = flip_double(&t, &fl.v[i], in[0]), b = flip_double(&t, &fl.v[i], in[1]);
		CHECK(a * b <= 100.0 && (a != 3 || b != 4));
	}
	flips_release(&fl);
	formula_free(f);
	trace_release(&t);
	tmeta_release(&m);
}

/* The run's own path with other values, asked for even where a branch
 * could be negated: each input keeps the outcome of every branch (here
 * scanf's count and a * 3 == b + 7 false), one number changed at a time. */
static void test_same_path(void)
{
	struct tmeta m;
	struct trace t;
	if (traced("same", items, "sh -c 'echo 1 2 | ./p'", NULL, &m, &t) < 0) {
		CHECK(!"traced");
		return;
	}
	struct cerr e;
	struct gen_input *v = NULL;
	size_t n = 0;
	struct gen_stats st;
	CHECK(gen_same_path(&t, dir, NULL, NULL, 4, NULL, 0, &v, &n, &st, &e) == 0);
	CHECK(n >= 2 && n <= 4);
	size_t other = 0;
	for (size_t i = 0; i < n; i++) {
		long long a, b;
		CHECK(v[i].in.s && sscanf(v[i].in.s, "%lld %lld", &a, &b) == 2);
		CHECK(a * 3 != b + 7);           /* the same path */
		other += a != 1 || b != 2;       /* another input */
		CHECK(v[i].varied != TRACE_NONE);   /* the input it changed */
	}
	CHECK(other == n);
	/* The inputs found are not given again. */
	char **seen = xcalloc(n + 1, sizeof(*seen));
	for (size_t i = 0; i < n; i++) {
		seen[i] = gen_command(&v[i]);
		gen_input_release(&v[i]);
	}
	free(v);
	size_t before = n;
	CHECK(gen_same_path(&t, dir, NULL, NULL, 4, seen, before, &v, &n, &st, &e) == 0);
	for (size_t i = 0; i < n; i++) {
		char *c = gen_command(&v[i]);
		for (size_t k = 0; k < before; k++)
			CHECK(strcmp(c, seen[k]) != 0);
		free(c);
		gen_input_release(&v[i]);
	}
	free(v);
	for (size_t i = 0; i < before; i++)
		free(seen[i]);
	free(seen);
	trace_release(&t);
	tmeta_release(&m);
}

/* Lines read by gets (C99's, no bound): its bytes are inputs, the newline
 * it drops stays in the text. */
static const char lines[] =
	"#include <stdio.h>\n"
	"int main(void)\n"
	"{\n"
	"\tchar s[64];\n"
	"\tint plus = 0, other = 0;\n"
	"\twhile (gets(s)) {\n"
	"\t\tif (s[0] == '+')\n"
	"\t\t\tplus++;\n"
	"\t\telse\n"
	"\t\t\tother++;\n"
	"\t}\n"
	"\tprintf(\"%d %d\\n\", plus, other);\n"
	"\treturn 0;\n"
	"}\n";

static void test_gets(void)
{
	struct tmeta m;
	struct trace t;
	const char *std = traced_std;
	traced_std = "-std=gnu99";   /* gets is declared up to C99 */
	int got = traced("gets", lines, "sh -c 'printf \"+a\\nb\\n\" | ./p' > /dev/null", NULL, &m, &t);
	traced_std = std;
	if (got < 0) {
		CHECK(!"traced");
		return;
	}
	struct cerr e;
	struct gen_input *v = NULL;
	size_t n = 0;
	struct gen_stats st;
	CHECK(gen_candidates(&t, dir, NULL, NULL, NULL, 0, 8, NULL, 0, &v, &n, &st, &e) == 0);
	CHECK(st.branches >= 2);
	/* Each line's first byte negated, the other line kept as a line. */
	int first_other = 0, second_plus = 0;
	for (size_t i = 0; i < n; i++) {
		const char *in = v[i].in.s ? v[i].in.s : "";
		const char *nl = strchr(in, '\n');
		first_other |= in[0] != '+' && nl && !strcmp(nl, "\nb\n");
		second_plus |= !strncmp(in, "+a\n+", 4);
		gen_input_release(&v[i]);
	}
	CHECK(first_other && second_plus);
	free(v);
	trace_release(&t);
	tmeta_release(&m);
}

/* CULPRIT_FORCE makes the n-th run of a branch site take the other way. */
static void test_forced(void)
{
	struct tmeta m;
	struct trace t;
	if (traced("num", numbers, "./p 20 < /dev/null > /dev/null", NULL, &m, &t) < 0) {
		CHECK(!"traced");
		return;
	}
	unsigned site = 0;
	for (size_t i = 0; i < t.n && !site; i++)
		if (t.ev[i].kind == TE_BRANCH && trace_stmt_of(&t, i) && trace_stmt_of(&t, i)->line == 7)
			site = t.ev[i].id;
	CHECK(site != 0);
	CHECK(t.out.s && strstr(t.out.s, "big"));
	trace_release(&t);
	tmeta_release(&m);
	char env[64];
	snprintf(env, sizeof(env), "CULPRIT_FORCE=%u:0:0", site);
	if (traced("num", numbers, "./p 20 < /dev/null > /dev/null", env, &m, &t) < 0) {
		CHECK(!"traced");
		return;
	}
	CHECK(t.out.s && strstr(t.out.s, "small"));
	trace_release(&t);
	tmeta_release(&m);
}

static const char bytes[] =
	"#include <stdio.h>\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\tconst char *s = argv[1];\n"
	"\tint digits = 0;\n"
	"\tfor (int i = 0; s[i]; i++) {\n"
	"\t\tif (s[i] >= '0' && s[i] <= '9')\n"
	"\t\t\tdigits++;\n"
	"\t\telse\n"
	"\t\t\tbreak;\n"
	"\t}\n"
	"\tint c = getchar();\n"
	"\tif (c != 'x')\n"
	"\t\tputs(\"other\");\n"
	"\tprintf(\"%d\\n\", digits);\n"
	"\treturn 0;\n"
	"}\n";

/* Bytes the solver is free to choose come out printable where the path allows. */
static void test_tame(void)
{
	struct tmeta m;
	struct trace t;
	if (traced("bytes", bytes, "sh -c 'printf x | ./p 12' > /dev/null", NULL, &m, &t) < 0) {
		CHECK(!"traced");
		return;
	}
	struct cerr e;
	struct gen_input *v = NULL;
	size_t n = 0;
	struct gen_stats st;
	char *root = xasprintf("%s", dir);
	CHECK(gen_candidates(&t, root, NULL, NULL, NULL, 0, 16, NULL, 0, &v, &n, &st, &e) == 0);
	CHECK(n >= 3);   /* a non-digit first, a third character, another byte than x */
	for (size_t i = 0; i < n; i++) {
		char *d = gen_describe(&v[i]);
		if (getenv("VERBOSE"))
			printf("  %s\n", d);
		CHECK(!strstr(d, " $'") && !strstr(d, "\\x"));
		free(d);
		gen_input_release(&v[i]);
	}
	free(v);
	free(root);
	trace_release(&t);
	tmeta_release(&m);
}

/* Any bytes: the command is one line and gives the program exactly them. */
static void test_commands(void)
{
	char *argv[] = {"printf", "%s|", "2+3\b4", "a'b\\c\n", "\xcd" "x", "plain"};
	struct gen_input g = {.argv = argv, .argc = 6, .in = BUF_INIT, .dir = ".", .branch = TRACE_NONE,
			      .varied = TRACE_NONE};
	char *cmd = gen_command(&g);
	CHECK(!strchr(cmd, '\n'));
	FILE *p = popen(cmd, "r");
	char out[256];
	size_t n = p ? fread(out, 1, sizeof(out), p) : 0;
	CHECK(p && pclose(p) == 0);
	static const char want[] = "2+3\b4|a'b\\c\n|\xcd" "x|plain|";
	CHECK(n == sizeof(want) - 1 && !memcmp(out, want, n));
	char *d = gen_describe(&g);
	CHECK_STR(d, "printf '%s|' $'2+3\\x084' $'a\\'b\\\\c\\n' $'\\xcdx' plain");
	free(d);
	free(cmd);

	char *cat[] = {"cat"};
	struct gen_input s = {.argv = cat, .argc = 1, .in = BUF_INIT, .dir = ".", .branch = TRACE_NONE,
			      .varied = TRACE_NONE};
	static const char in[] = "1 2\n\0\x01'\\\xff\n";
	buf_add(&s.in, in, sizeof(in) - 1);
	cmd = gen_command(&s);
	CHECK(!strchr(cmd, '\n'));
	p = popen(cmd, "r");
	n = p ? fread(out, 1, sizeof(out), p) : 0;
	CHECK(p && pclose(p) == 0);
	CHECK(n == sizeof(in) - 1 && !memcmp(out, in, n));
	d = gen_describe(&s);
	CHECK_STR(d, "cat < \"1 2\\n\\x00\\x01'\\\\\\xff\\n\"");
	free(d);
	free(cmd);
	buf_release(&s.in);
}

/* Mixed reads in one run: a comment line read by fgets and left alone, a
 * line read by fgets and then by sscanf (%ld and %c), a %lld item; new
 * values replace only their own text. */
static const char mixed[] =
	"#include <stdio.h>\n"
	"int main(void)\n"
	"{\n"
	"\tchar line[64];\n"
	"\tlong n = 0;\n"
	"\tchar op = 0;\n"
	"\tlong long k = 0;\n"
	"\tif (!fgets(line, sizeof line, stdin) || !fgets(line, sizeof line, stdin))\n"
	"\t\treturn 2;\n"
	"\tif (sscanf(line, \"%ld %c\", &n, &op) != 2 || scanf(\"%lld\", &k) != 1)\n"
	"\t\treturn 2;\n"
	"\tif (op == '*' && n * 2 == k)\n"
	"\t\tputs(\"double\");\n"
	"\treturn 0;\n"
	"}\n";

static void test_mixed(void)
{
	struct tmeta m;
	struct trace t;
	if (traced("mixed", mixed, "sh -c 'printf \"# note\\n5 +\\n  9\\n\" | ./p'", NULL, &m, &t) < 0) {
		CHECK(!"traced");
		return;
	}
	struct cerr e;
	struct gen_input *v = NULL;
	size_t n = 0;
	struct gen_stats st;
	struct buf in0 = BUF_INIT;
	buf_adds(&in0, "# note\n5 +\n  9\n");
	char *root = xasprintf("%s/mixed", dir);
	CHECK(gen_candidates(&t, root, &in0, NULL, NULL, 0, 16, NULL, 0, &v, &n, &st, &e) == 0);
	int star = 0, twice = 0;
	for (size_t i = 0; i < n; i++) {
		const char *s = v[i].in.s ? v[i].in.s : "";
		long a;
		long long b;
		char c;
		if (getenv("VERBOSE"))
			printf("  [%s]\n", s);
		CHECK(!strncmp(s, "# note\n", 7));   /* the line nobody parsed stays */
		if (sscanf(s + 7, "%ld %c %lld", &a, &c, &b) == 3) {
			star |= c == '*';
			twice |= c == '*' && a * 2 == b;
		}
		gen_input_release(&v[i]);
	}
	CHECK(star);
	free(v);
	/* From the approved test's side: the '*' taken, then n * 2 == k. */
	buf_release(&in0);
	trace_release(&t);
	tmeta_release(&m);
	if (traced("mixed", mixed, "sh -c 'printf \"# note\\n5 *\\n  9\\n\" | ./p'", NULL, &m, &t) < 0) {
		CHECK(!"traced");
		free(root);
		return;
	}
	buf_adds(&in0, "# note\n5 *\n  9\n");
	CHECK(gen_candidates(&t, root, &in0, NULL, NULL, 0, 16, NULL, 0, &v, &n, &st, &e) == 0);
	for (size_t i = 0; i < n; i++) {
		const char *s = v[i].in.s ? v[i].in.s : "";
		long a;
		long long b;
		char c;
		if (sscanf(s, "# note\n%ld %c %lld", &a, &c, &b) == 3 && c == '*' && a * 2 == b)
			twice = 1;
		gen_input_release(&v[i]);
	}
	CHECK(twice);
	free(v);
	buf_release(&in0);
	free(root);
	trace_release(&t);
	tmeta_release(&m);
}

/* A file named on the command line, read with fscanf and fgetc: its bytes
 * and numbers are inputs, and a new file is written for a new input. */
static const char fileread[] =
	"#include <stdio.h>\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\tFILE *f = argc > 1 ? fopen(argv[1], \"r\") : NULL;\n"
	"\tint x = 0;\n"
	"\tif (!f || fscanf(f, \"%d\", &x) != 1)\n"
	"\t\treturn 2;\n"
	"\tfgetc(f);\n"
	"\tint c = fgetc(f);\n"
	"\tfclose(f);\n"
	"\tif (x * 2 == 14)\n"
	"\t\tputs(\"seven\");\n"
	"\tif (c == 'z')\n"
	"\t\tputs(\"zed\");\n"
	"\treturn 0;\n"
	"}\n";

static void test_file_argument(void)
{
	struct tmeta m;
	struct trace t;
	char *data = xasprintf("%s/file/data.txt", dir), *mk = xasprintf("mkdir -p %s/file", dir);
	sh(mk);
	free(mk);
	CHECK(file_write_atomic(data, "3 a\nrest\n", 9, 0644, NULL) == 0);
	if (traced("file", fileread, "./p data.txt", NULL, &m, &t) < 0) {
		CHECK(!"traced");
		free(data);
		return;
	}
	struct cerr e;
	struct gen_input *v = NULL;
	size_t n = 0;
	struct gen_stats st;
	char *root = xasprintf("%s/file", dir), *files = xasprintf("%s/generated", dir);
	CHECK(gen_candidates(&t, root, NULL, files, NULL, 0, 16, NULL, 0, &v, &n, &st, &e) == 0);
	int seven = 0, zed = 0;
	for (size_t i = 0; i < n; i++) {
		struct buf f = BUF_INIT;
		CHECK(v[i].argc == 2 && !strncmp(v[i].argv[1], files, strlen(files)));
		if (v[i].argc == 2 && file_read(v[i].argv[1], &f, 1024, NULL) == 0) {
			if (getenv("VERBOSE"))
				printf("  %s: [%.*s]\n", v[i].argv[1], (int)f.len, f.s);
			seven |= f.len == 9 && !memcmp(f.s, "7 a\nrest\n", 9);
			zed |= f.len == 9 && !memcmp(f.s, "3 z\nrest\n", 9);
		}
		buf_release(&f);
		gen_input_release(&v[i]);
	}
	CHECK(seven);
	CHECK(zed);
	free(v);
	free(root);
	free(files);
	free(data);
	trace_release(&t);
	tmeta_release(&m);
}

static const char environ_src[] =
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\tconst char *lim = getenv(\"LIMIT\"), *mode = getenv(\"MODE\");\n"
	"\tint n = argc > 1 ? atoi(argv[1]) : 0;\n"
	"\tif (getenv(\"CULPRIT_TEST_UNSET\"))\n"
	"\t\tputs(\"unset\");\n"
	"\tif (lim && n > atoi(lim))\n"
	"\t\tputs(\"over\");\n"
	"\tif (mode && mode[1] == 'x')\n"
	"\t\tputs(\"x\");\n"
	"\tint a = 0, b = 0;\n"
	"\tif (getenv(\"PAIR\") && sscanf(getenv(\"PAIR\"), \"%d,%d\", &a, &b) == 2 && a + b == 10)\n"
	"\t\tputs(\"ten\");\n"
	"\treturn 0;\n"
	"}\n";

/* Environment variables read with getenv: their values are inputs like
 * arguments (the number atoi or sscanf parses from one, the bytes of
 * another), written
 * back as NAME=value before the program; one unset in the run is not. */
static void test_environment(void)
{
	struct tmeta m;
	struct trace t;
	if (traced("env", environ_src, "./p 3 > /dev/null", "LIMIT=5 MODE=ab PAIR=3,4", &m, &t) < 0) {
		CHECK(!"traced");
		return;
	}
	CHECK(t.nenv == 3);
	CHECK_STR(t.env.s, "LIMIT=5");
	CHECK(t.env.len == 25 && !strcmp(t.env.s + 8, "MODE=ab") && !strcmp(t.env.s + 16, "PAIR=3,4"));
	struct cerr e;
	struct gen_input g;
	char *root = xasprintf("%s", dir);
	CHECK(gen_original(&t, root, NULL, NULL, &g, &e) == 0);
	char *own = gen_command(&g), *d = gen_describe(&g);
	CHECK_STR(own, "cd env && LIMIT=5 MODE=ab PAIR=3,4 ./p 3 < /dev/null");
	CHECK_STR(d, "LIMIT=5 MODE=ab PAIR=3,4 ./p 3");
	free(own);
	free(d);
	/* A value the environment the tests run in has already (HOME, a
	 * locale) is inherited, not written: the test does not depend on
	 * this machine. */
	setenv("MODE", "ab", 1);
	own = gen_command(&g);
	CHECK_STR(own, "cd env && LIMIT=5 PAIR=3,4 ./p 3 < /dev/null");
	free(own);
	setenv("MODE", "other", 1);
	own = gen_command(&g);
	CHECK_STR(own, "cd env && LIMIT=5 MODE=ab PAIR=3,4 ./p 3 < /dev/null");
	free(own);
	unsetenv("MODE");
	gen_input_release(&g);
	struct gen_input *v = NULL;
	size_t n = 0;
	struct gen_stats st;
	CHECK(gen_candidates(&t, root, NULL, NULL, NULL, 0, 16, NULL, 0, &v, &n, &st, &e) == 0);
	/* Each branch on a variable taken the other way, run as written. */
	int over = 0, x = 0, ten = 0;
	for (size_t i = 0; i < n; i++) {
		char *c = gen_command(&v[i]);
		char *cmd = xasprintf("cd %s && %s > out.txt", dir, c);
		CHECK(sh(cmd) == 0);
		struct buf out = BUF_INIT;
		char *op = xasprintf("%s/env/out.txt", dir);
		if (file_read(op, &out, 1024, NULL) == 0 && out.len) {
			over |= strstr(out.s, "over") != NULL;
			x |= strstr(out.s, "x\n") != NULL;
			ten |= strstr(out.s, "ten") != NULL;
		}
		if (getenv("VERBOSE"))
			printf("  %s\n", c);
		buf_release(&out);
		free(op);
		free(cmd);
		free(c);
	}
	CHECK(over && x && ten);
	CHECK(has_candidate(v, n, "MODE=axb ") || has_candidate(v, n, "MODE=ax "));
	for (size_t i = 0; i < n; i++)
		gen_input_release(&v[i]);
	free(v);
	free(root);
	trace_release(&t);
	tmeta_release(&m);
}

/* A near-copy: the same but for blanks. */
static void test_near_copy(void)
{
	char *a1[] = {"./p", "3", "5"}, *a2[] = {"./p", "3 ", "5"}, *a3[] = {"./p", "3", "6"};
	struct gen_input a = {.argv = a1, .argc = 3, .in = BUF_INIT, .dir = ".", .branch = TRACE_NONE, .varied = TRACE_NONE};
	struct gen_input b = a, c = a;
	b.argv = a2;
	c.argv = a3;
	buf_adds(&a.in, "1 2\n");
	buf_adds(&b.in, "1 2\n ");
	buf_adds(&c.in, "1 2\n");
	CHECK(gen_near_copy(&a, &b));
	CHECK(!gen_near_copy(&a, &c));
	buf_release(&a.in);
	buf_release(&b.in);
	buf_release(&c.in);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/culprit-gen.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	RUN(test_commands);
	RUN(test_inputs);
	RUN(test_tame);
	RUN(test_scanf);
	RUN(test_same_path);
	RUN(test_math);
	RUN(test_fp_cap);
	RUN(test_guess);
	RUN(test_gets);
	RUN(test_forced);
	RUN(test_mixed);
	RUN(test_file_argument);
	RUN(test_near_copy);
	RUN(test_environment);
	if (!getenv("KEEP"))
		remove_tree(dir, NULL);
	TEST_EXIT();
}
