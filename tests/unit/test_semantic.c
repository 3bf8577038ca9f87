/* The semantic explainer's pieces: metadata, the trace reader and its
 * links, C integer semantics in the formula, causes as unsat cores, and the
 * instrumenter on a real compiler. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/semantic/formula.h"
#include "core/semantic/instr.h"
#include "core/semantic/tmeta.h"
#include "core/semantic/trace.h"
#include "tests/unit/test.h"

static char dir[256];

/* ------------------------------------------------------------ building */

struct evs {
	struct tev *v;
	size_t n;
};

static uint32_t ev(struct evs *e, int kind, unsigned id, uint64_t addr, unsigned size, uint64_t val)
{
	e->v = xrealloc(e->v, (e->n + 1) * sizeof(*e->v));
	e->v[e->n] = (struct tev){(uint8_t)kind, (uint8_t)size, 0, id, addr, val};
	return (uint32_t)e->n++;
}

/* One chunk of pid's events as the runtime writes it. */
static void chunk(struct buf *b, long pid, const struct evs *e)
{
	struct tev h = {TE_PID, 0, 0, 0, e->n, (uint64_t)pid};
	buf_add(b, &h, sizeof(h));
	buf_add(b, e->v, e->n * sizeof(*e->v));
}

static int parse(struct trace *t, const struct tmeta *m, const struct evs *e)
{
	struct buf b = BUF_INIT;
	chunk(&b, 42, e);
	struct cerr err;
	int rc = trace_parse(t, b.s, b.len, m, &err);
	buf_release(&b);
	return rc;
}

/* x = 3; y = x + 4; z = 5; assert(y == 8) in function f. */
static const char meta_text[] =
	"F\t0\tt.c\n"
	"N\t1\t0\t1\tf\ti32\tint f(int p)\n"
	"P\t2\t1\t0\ti32\tp\n"
	"S\t3\t0\t3\t1\t10\t20\tdecl\tint x = 3;\n"
	"W\t4\t3\ti32\tx\t(x i32 (k 3 i32))\tx\n"
	"S\t5\t0\t4\t1\t21\t35\tdecl\tint y = x + 4;\n"
	"R\t6\t5\ti32\tx\n"
	"W\t7\t5\ti32\ty\t(x i32 (b + i32 (r 6 i32) (k 4 i32)))\ty\n"
	"S\t8\t0\t5\t1\t36\t46\tdecl\tint z = 5;\n"
	"W\t9\t8\ti32\tz\t(x i32 (k 5 i32))\tz\n"
	"S\t10\t0\t6\t1\t47\t80\tassert\tassert(y == 8);\n"
	"R\t11\t10\ti32\ty\n"
	"B\t12\t10\tassert\t(b == i32 (r 11 i32) (k 8 i32))\t-\t-\n"
	"S\t13\t0\t7\t1\t81\t120\tif\tif (p > 0) y = 1;\n"
	"R\t14\t13\ti32\tp\n"
	"B\t15\t13\tif\t(b > i32 (r 14 i32) (k 0 i32))\ty\t-\n"
	"S\t16\t0\t7\t1\t100\t110\texpr\ty = 1;\n"
	"S\t17\t0\t8\t1\t121\t130\treturn\treturn y;\n"
	"S\t19\t0\t9\t1\t131\t150\tif\tif (p < 0) return 0;\n"
	"B\t20\t19\tif\t(b < i32 (r 14 i32) (k 0 i32))\t-\t-\tt\n"
	"S\t21\t0\t9\t1\t143\t150\treturn\treturn 0;\n"
	"C\t18\t17\tg\ti32\t1\t-\n"
	"A\t18\t0\t(r 6 i32)\n"
	"X\t6\tnonnull\t(r 14 i32)\n";

static void test_metadata(void)
{
	struct tmeta m;
	struct cerr e;
	CHECK(tmeta_parse(&m, meta_text, strlen(meta_text), &e) == 0);
	CHECK(m.nfiles == 1 && !strcmp(m.files[0], "t.c"));
	const struct msite *w = tmeta_site(&m, 7);
	CHECK(w && w->kind == 'W' && w->sid == 5 && !strcmp(w->name, "y"));
	CHECK(w && w->tree && w->tree->op == 'x' && w->tree->k[0]->op == 'b' && !strcmp(w->tree->k[0]->sym, "+"));
	const struct msite *st = tmeta_stmt(&m, 7);
	CHECK(st && st->line == 4 && !strcmp(st->text, "int y = x + 4;"));
	const struct msite *b = tmeta_site(&m, 15);
	CHECK(b && tmeta_names_has(b->then_names, "y") && !tmeta_names_has(b->else_names, "y"));
	const struct msite *c = tmeta_site(&m, 18);
	CHECK(c && c->nargs == 1 && c->args[0] && c->args[0]->op == 'r');
	CHECK(tmeta_site(&m, 6)->check && !strcmp(tmeta_site(&m, 6)->check, "nonnull"));
	CHECK(tmeta_site(&m, 999) == NULL && tmeta_site(&m, 0) == NULL);
	struct buf s = BUF_INIT;
	tmeta_tree_str(w->tree, &s);
	CHECK_STR(s.s, "(x i32 (b + i32 (r 6 i32) (k 4 i32)))");
	buf_release(&s);
	tmeta_release(&m);

	static const char *bad[] = {"W\t1\t1\ti32\tx\t(x i32 (k 3 i32)\tx\n", "Q\t1\n", "A\t5\t0\t(k 1 i32)\n",
				    "S\t1\t0\n", "B\t1\t1\tif\t(z i32)\t-\t-\n"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char *text = xasprintf("F\t0\tt.c\n%s", bad[i]);
		CHECK(tmeta_parse(&m, text, strlen(text), &e) < 0);
		CHECK(strstr(e.msg, "line 2") != NULL);
		free(text);
	}
}

/* The events of f(p = 1): x = 3, y = x + 4, z = 5, assert false. */
static void straight_line(struct evs *e, uint32_t *wx, uint32_t *wy, uint32_t *wz, uint32_t *br)
{
	ev(e, TE_ENTER, 1, 0, 0, 0);
	ev(e, TE_PARAM, 2, 0x90, 4, 1);
	ev(e, TE_STMT, 3, 0, 0, 0);
	*wx = ev(e, TE_WRITE, 4, 0x100, 4, 3);
	ev(e, TE_STMT, 5, 0, 0, 0);
	ev(e, TE_READ, 6, 0x100, 4, 3);
	*wy = ev(e, TE_WRITE, 7, 0x104, 4, 7);
	ev(e, TE_STMT, 8, 0, 0, 0);
	*wz = ev(e, TE_WRITE, 9, 0x108, 4, 5);
	ev(e, TE_STMT, 10, 0, 0, 0);
	ev(e, TE_READ, 11, 0x104, 4, 7);
	*br = ev(e, TE_BRANCH, 12, 0, 0, 0);
}

static void test_links(void)
{
	struct tmeta m;
	struct cerr err;
	CHECK(tmeta_parse(&m, meta_text, strlen(meta_text), &err) == 0);
	struct evs e = {0};
	uint32_t wx, wy, wz, br;
	straight_line(&e, &wx, &wy, &wz, &br);
	/* if (p > 0) y = 1; then a read of y that an untraced write changed. */
	ev(&e, TE_STMT, 13, 0, 0, 0);
	uint32_t rp = ev(&e, TE_READ, 14, 0x90, 4, 1);
	uint32_t bif = ev(&e, TE_BRANCH, 15, 0, 0, 1);
	uint32_t inner = ev(&e, TE_STMT, 16, 0, 0, 0);
	uint32_t after = ev(&e, TE_STMT, 17, 0, 0, 0);
	uint32_t stale = ev(&e, TE_READ, 6, 0x100, 4, 99);
	/* if (p < 0) return 0; not taken: what follows ran because p >= 0. */
	ev(&e, TE_STMT, 19, 0, 0, 0);
	uint32_t early = ev(&e, TE_BRANCH, 20, 0, 0, 0);
	uint32_t later = ev(&e, TE_STMT, 3, 0, 0, 0);
	struct trace t;
	CHECK(parse(&t, &m, &e) == 0);
	CHECK(t.n == e.n && t.pid == 42 && t.nprocs == 1);
	CHECK(t.src[wy - 1] == wx);                     /* the read of x saw x = 3 */
	CHECK(t.src[stale] == TRACE_NONE);              /* value 99: someone else wrote it */
	CHECK(t.src[rp] == 1);                          /* p's value came from the parameter */
	CHECK(trace_dep_find(&t, wy, TE_READ, 6) == wy - 1);
	CHECK(trace_dep_find(&t, wy, TE_READ, 11) == TRACE_NONE);
	CHECK(t.ctl[inner] == bif);                     /* inside the if's extent */
	CHECK(t.ctl[after] != bif);                     /* after it */
	CHECK(t.ctl[later] == early);                   /* after an if that could have returned */
	struct bits *in = bits_new(t.n + 1);
	size_t n = trace_slice(&t, &br, 1, in);
	CHECK(bits_test(in, wy) && bits_test(in, wx) && !bits_test(in, wz));
	CHECK(n >= 4);
	bits_free(in);
	trace_release(&t);
	free(e.v);
	tmeta_release(&m);
}

static void test_calls_and_output(void)
{
	struct tmeta m;
	struct cerr err;
	CHECK(tmeta_parse(&m, meta_text, strlen(meta_text), &err) == 0);
	struct evs e = {0};
	ev(&e, TE_STMT, 17, 0, 0, 0);
	uint32_t call = ev(&e, TE_CALL, 18, 0, 0, 0);
	ev(&e, TE_READ, 6, 0x100, 4, 3);
	uint32_t enter = ev(&e, TE_ENTER, 1, 0, 0, 0);
	uint32_t param = ev(&e, TE_PARAM, 2, 0x200, 4, 3);
	uint32_t ret = ev(&e, TE_RET, 17, 0, 4, 8);
	uint32_t cret = ev(&e, TE_CRET, 18, 0, 4, 8);
	uint32_t out = ev(&e, TE_OUT, 0, 3, 1, 3);
	/* The bytes follow raw, as the runtime writes them: here \003 looks like a read. */
	e.v = xrealloc(e.v, (e.n + 1) * sizeof(*e.v));
	memset(&e.v[e.n], 0, sizeof(e.v[e.n]));
	memcpy(&e.v[e.n++], "\003i\n", 3);
	uint32_t sig = ev(&e, TE_SIG, 6, 0, 0, 11);
	struct trace t;
	CHECK(parse(&t, &m, &e) == 0);
	CHECK(t.src[enter] == call);
	CHECK(t.src[param] == enter);
	CHECK(t.src[cret] == ret);
	CHECK(trace_dep_find(&t, enter, TE_READ, 6) == call + 1);   /* the argument's read */
	CHECK(t.out.len == 3 && !memcmp(t.out.s, "\003i\n", 3) && t.out_ev[0] == out && t.out_ev[2] == out);
	CHECK(t.ev[out + 1].kind == TE_BYTES);
	CHECK(t.sig == 11 && t.sig_ev == sig);
	trace_release(&t);

	/* Two processes: the last one to write is the one read. */
	struct evs a = {0}, b = {0};
	ev(&a, TE_STMT, 3, 0, 0, 0);
	ev(&b, TE_STMT, 5, 0, 0, 0);
	ev(&b, TE_STMT, 8, 0, 0, 0);
	struct buf file = BUF_INIT;
	chunk(&file, 7, &a);
	chunk(&file, 8, &b);
	chunk(&file, 7, &a);
	chunk(&file, 8, &b);
	CHECK(trace_parse(&t, file.s, file.len, &m, &err) == 0);
	CHECK(t.nprocs == 2 && t.pid == 8 && t.n == 4);
	trace_release(&t);
	/* A chunk claiming more events than the file holds; an empty trace. */
	struct tev *h = (struct tev *)file.s;
	h->addr = 1000;
	CHECK(trace_parse(&t, file.s, file.len, &m, &err) < 0 && strstr(err.msg, "damaged"));
	CHECK(trace_parse(&t, file.s, 0, &m, &err) < 0 && strstr(err.msg, "empty"));
	buf_release(&file);
	free(a.v);
	free(b.v);
	free(e.v);
	tmeta_release(&m);
}

static void test_scale(void)
{
	struct tmeta m;
	struct cerr err;
	CHECK(tmeta_parse(&m, meta_text, strlen(meta_text), &err) == 0);
	const size_t n = 3000000;
	struct buf file = BUF_INIT;
	struct tev h = {TE_PID, 0, 0, 0, n, 1};
	buf_add(&file, &h, sizeof(h));
	buf_grow(&file, n * sizeof(struct tev));
	for (size_t i = 0; i < n; i++) {   /* statement, write, read, ... */
		struct tev v = {(uint8_t)(i % 3 == 0 ? TE_STMT : i % 3 == 1 ? TE_WRITE : TE_READ), 4, 0,
				i % 3 == 0 ? 3u : i % 3 == 1 ? 4u : 6u, 0x100 + (i / 3 % 8) * 4, i / 3};
		buf_add(&file, &v, sizeof(v));
	}
	struct trace t;
	CHECK(trace_parse(&t, file.s, file.len, &m, &err) == 0);
	CHECK(t.n == n);
	CHECK(t.src[n - 1] == n - 2);   /* the last read saw the last write */
	CHECK(trace_dep_find(&t, n - 2, TE_READ, 6) == TRACE_NONE);
	trace_release(&t);
	buf_release(&file);
	tmeta_release(&m);
}

/* ------------------------------------------------------------- formula */

static long long eval(const char *tree)
{
	struct tmeta m;
	struct cerr err;
	char *text = xasprintf("F\t0\tt.c\nS\t1\t0\t1\t0\t0\t1\texpr\tx\nW\t2\t1\ti64\tx\t%s\tx\n", tree);
	long long v = -12345;
	if (tmeta_parse(&m, text, strlen(text), &err) == 0) {
		struct evs e = {0};
		ev(&e, TE_STMT, 1, 0, 0, 0);
		uint32_t w = ev(&e, TE_WRITE, 2, 0x10, 8, 0);
		struct trace t;
		if (parse(&t, &m, &e) == 0) {
			if (formula_eval(&t, w, tmeta_site(&m, 2)->tree, &v) < 0)
				v = -99999;
			trace_release(&t);
		}
		free(e.v);
		tmeta_release(&m);
	}
	free(text);
	return v;
}

static void test_c_semantics(void)
{
	CHECK(eval("(b / i32 (k -7 i32) (k 2 i32))") == -3);
	CHECK(eval("(b % i32 (k -7 i32) (k 2 i32))") == -1);
	CHECK(eval("(b - u32 (k 0 u32) (k 1 u32))") == 4294967295LL);
	CHECK(eval("(x i8 (k 200 i32))") == -56);
	CHECK(eval("(x u8 (b + i32 (k 250 i32) (k 10 i32)))") == 4);
	CHECK(eval("(b >> i32 (k -8 i32) (k 1 i32))") == -4);
	CHECK(eval("(b >> u32 (k 4294967288 u32) (k 1 i32))") == 2147483644LL);
	CHECK(eval("(b < i32 (k -1 i32) (k 1 i32))") == 1);
	CHECK(eval("(b < i32 (k 4294967295 u32) (k 1 u32))") == 0);
	CHECK(eval("(b && i32 (k 2 i32) (k 0 i32))") == 0);
	CHECK(eval("(b || i32 (k 0 i32) (k 5 i32))") == 1);
	CHECK(eval("(u ! i32 (k 5 i32))") == 0);
	CHECK(eval("(q i32 (k 0 i32) (k 1 i32) (k 2 i32))") == 2);
	CHECK(eval("(x b8 (k 256 i32))") == 1);
	CHECK(eval("(b + i32 (k 2147483647 i32) (k 1 i32))") == -2147483648LL);
	CHECK(eval("(b + i32 (o i32) (k 1 i32))") == -99999);
}

static void test_causes(void)
{
	struct tmeta m;
	struct cerr err;
	CHECK(tmeta_parse(&m, meta_text, strlen(meta_text), &err) == 0);
	struct evs e = {0};
	uint32_t wx, wy, wz, br;
	straight_line(&e, &wx, &wy, &wz, &br);
	struct trace t;
	CHECK(parse(&t, &m, &e) == 0);
	struct formula *f = formula_new(&t);
	struct expect x = {.kind = EXPECT_FLIP, .ev = br};
	struct cause_result r;
	CHECK(formula_cause(f, &x, 1, &r, &err) == 0);
	CHECK(r.found && r.n == 2 && r.ev[0] == wx && r.ev[1] == wy);   /* not z */
	cause_result_release(&r);
	/* y's value is 7: expecting 8 contradicts; expecting 7 does not. */
	struct expect eq = {.kind = EXPECT_EVENT_EQ, .ev = wy, .value = 8};
	CHECK(formula_cause(f, &eq, 1, &r, &err) == 0 && r.found && r.n == 2);
	cause_result_release(&r);
	eq.value = 7;
	CHECK(formula_cause(f, &eq, 1, &r, &err) == 0 && !r.found && r.why);
	cause_result_release(&r);
	/* Trees evaluated in an event's context. */
	const struct mnode *ytree = tmeta_site(&m, 12)->tree->k[0];   /* (r 11 i32): y */
	struct expect ne = {.kind = EXPECT_NE, .ev = br, .tree = ytree, .value = 7};
	CHECK(formula_cause(f, &ne, 1, &r, &err) == 0 && r.found && r.n == 2);
	cause_result_release(&r);
	struct expect nz = {.kind = EXPECT_NONZERO, .ev = br, .tree = ytree};   /* y is 7: no contradiction */
	CHECK(formula_cause(f, &nz, 1, &r, &err) == 0 && !r.found);
	cause_result_release(&r);
	struct expect bounds = {.kind = EXPECT_BOUNDS, .ev = br, .tree = ytree, .value = 5};
	CHECK(formula_cause(f, &bounds, 1, &r, &err) == 0 && r.found && r.n == 2);
	cause_result_release(&r);
	bounds.value = 10;   /* 7 is within 0..9: nothing contradicts */
	CHECK(formula_cause(f, &bounds, 1, &r, &err) == 0 && !r.found);
	cause_result_release(&r);
	formula_free(f);
	trace_release(&t);
	free(e.v);
	tmeta_release(&m);

	/* An opaque condition cannot be asked about. */
	const char *opq = "F\t0\tt.c\nS\t1\t0\t1\t0\t0\t9\tassert\tassert(g());\nB\t2\t1\tassert\t(o i32)\t-\t-\n";
	CHECK(tmeta_parse(&m, opq, strlen(opq), &err) == 0);
	struct evs o = {0};
	ev(&o, TE_STMT, 1, 0, 0, 0);
	uint32_t ob = ev(&o, TE_BRANCH, 2, 0, 0, 0);
	CHECK(parse(&t, &m, &o) == 0);
	f = formula_new(&t);
	struct expect ox = {.kind = EXPECT_FLIP, .ev = ob};
	CHECK(formula_cause(f, &ox, 1, &r, &err) == 0 && !r.found && strstr(r.why, "opaque"));
	cause_result_release(&r);
	formula_free(f);
	trace_release(&t);
	free(o.v);
	tmeta_release(&m);
}

/* ---------------------------------------------------------- instrument */

static const char program[] =
	"#include <assert.h>\n"
	"#include <stdio.h>\n"
	"#define TWICE(x) ((x) * 2)\n"
	"struct pt { int x, y; };\n"
	"static int sum(const int *a, int n)\n"
	"{\n"
	"\tint s = 0;\n"
	"\tfor (int i = 0, j = n; i < j; i++, j--)\n"
	"\t\ts += a[i] + (i == j - 1 ? 0 : a[j - 1]);\n"
	"\treturn s;\n"
	"}\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\tint a[5] = {1, 2, 3, 4, 5};\n"
	"\tstruct pt p = {argc, 0};\n"
	"\tp.y = TWICE(p.x) + sum(a, 5);\n"
	"\tswitch (p.y % 3) {\n"
	"\tcase 0: puts(\"zero\"); break;\n"
	"\tdefault: printf(\"%d %s\\n\", p.y, argv[0] ? \"ok\" : \"none\");\n"
	"\t}\n"
	"\tif (p.y > 100)\n"
	"\t\treturn 1;\n"
	"\tassert(p.y < 10 && \"small\");\n"
	"\treturn 0;\n"
	"}\n";

static int sh(const char *cmd)
{
	int rc = system(cmd);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void test_instrument(void)
{
	char *src = xasprintf("%s/p.c", dir), *ins = xasprintf("%s/i.c", dir), *rt = xasprintf("%s/rt.h", dir);
	struct cerr e;
	CHECK(file_write_atomic(src, program, strlen(program), 0644, &e) == 0);
	CHECK(file_write_atomic(rt, instr_runtime(), strlen(instr_runtime()), 0644, &e) == 0);
	struct buf out = BUF_INIT, meta = BUF_INIT;
	buf_addf(&out, "#include \"%s\"\n#line 1\n", rt);
	unsigned next = 1;
	struct instr_stats st = {0};
	CHECK(instr_file(src, "p.c", NULL, 0, 0, NULL, 0, &next, &out, &meta, &st, &e) == 0);
	CHECK(st.functions == 2 && st.writes >= 4 && st.branches >= 4 && st.calls >= 3);
	CHECK(file_write_atomic(ins, out.s, out.len, 0644, &e) == 0);
	/* Every line where it was: the same number of newlines after the header. */
	size_t nl_src = 0, nl_out = 0;
	for (const char *p = program; *p; p++)
		nl_src += *p == '\n';
	for (size_t i = 0; i < out.len; i++)
		nl_out += out.s[i] == '\n';
	CHECK(nl_out == nl_src + 2);
	/* Built under the same names, the two must print the same, assert messages too. */
	char *cmd = xasprintf("cd %s && mkdir -p inst && cp i.c inst/p.c && cc -std=c99 -w -o p p.c && "
			      "(cd inst && cc -std=c99 -Wall -Wextra -Werror -o p p.c) && "
			      "./p > p.out 2> p.err; echo $? >> p.out; "
			      "inst/p > i.out 2> i.err; echo $? >> i.out; "
			      "CULPRIT_TRACE=%s/t.bin inst/p > t.out 2> t.err; echo $? >> t.out; "
			      "sed -i 's|inst/p|./p|' i.err t.err; "
			      "cmp -s p.out i.out && cmp -s p.out t.out && cmp -s p.err i.err && cmp -s p.err t.err",
			      dir, dir);
	CHECK(sh(cmd) == 0);
	free(cmd);
	/* The trace reads back: the assert failed at its line, output recorded. */
	struct tmeta m;
	struct trace t;
	char *tp = xasprintf("%s/t.bin", dir);
	CHECK(tmeta_parse(&m, meta.s, meta.len, &e) == 0);
	if (trace_load(&t, tp, &m, &e) == 0) {
		int failed_assert = 0;
		for (size_t i = 0; i < t.n; i++) {
			const struct msite *s = tmeta_site(&m, t.ev[i].id);
			if (t.ev[i].kind == TE_BRANCH && s && s->kind == 'B' && !strcmp(s->kindname, "assert"))
				failed_assert = !t.ev[i].val && trace_stmt_of(&t, i)->line == 23;
		}
		CHECK(failed_assert);
		CHECK(t.out.len && strstr(t.out.s, "ok") != NULL);
		CHECK(t.sig == 6);   /* abort */
		trace_release(&t);
	} else {
		CHECK(!"the trace loads");
	}
	tmeta_release(&m);
	free(tp);
	buf_release(&out);
	buf_release(&meta);
	free(src);
	free(ins);
	free(rt);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/culprit-semantic.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	RUN(test_metadata);
	RUN(test_links);
	RUN(test_calls_and_output);
	RUN(test_scale);
	RUN(test_c_semantics);
	RUN(test_causes);
	RUN(test_instrument);
	if (!getenv("KEEP"))
		remove_tree(dir, NULL);
	TEST_EXIT();
}
