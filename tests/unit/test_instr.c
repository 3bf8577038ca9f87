/* The instrumenter on what gcc builds: for each construct of real C code, the
 * instrumented program builds with gcc and behaves as the original (output
 * and exit status, traced or not), and its trace reads back. */
#include "test.h"
#include "traced.h"

#include "core/semantic/csrc.h"

/* Build src plainly and instrumented (gcc, its default dialect), run both
 * (the instrumented one also traced) with args; 0 when they agree. */
static int agrees(const char *name, const char *src, const char *args)
{
	struct tmeta m;
	if (instrumented(name, src, NULL, &m) < 0) {
		printf("  %s: the instrumented program does not build\n", name);
		return -1;
	}
	struct cerr e;
	char *d = xasprintf("%s/%s", dir, name), *orig = xasprintf("%s/orig/p.c", d);
	char *mk = xasprintf("mkdir -p %s/orig", d);
	sh(mk);
	free(mk);
	file_write_atomic(orig, src, strlen(src), 0644, &e);
	/* Under the same names, so that assert messages compare too. */
	char *cmd = xasprintf("cd %s && (cd orig && cc -w -o p p.c) && "
			      "(cd orig && ./p %s) > o.out 2> o.err; echo $? >> o.out; "
			      "(./p %s) > p.out 2> p.err; echo $? >> p.out; "
			      "(CULPRIT_TRACE=%s/t.bin ./p %s) > t.out 2> t.err; echo $? >> t.out; "
			      "cmp -s o.out p.out && cmp -s o.out t.out && cmp -s o.err p.err && cmp -s o.err t.err",
			      d, args, args, d, args);
	int rc = sh(cmd);
	free(cmd);
	if (rc)
		printf("  %s: the instrumented program behaves differently\n", name);
	struct trace t;
	char *tp = xasprintf("%s/t.bin", d);
	if (rc == 0 && trace_load(&t, tp, &m, &e) < 0) {
		printf("  %s: %s\n", name, e.msg);
		rc = -1;
	} else if (rc == 0) {
		if (t.n == 0)
			rc = -1;
		trace_release(&t);
	}
	tmeta_release(&m);
	free(tp);
	free(orig);
	free(d);
	return rc;
}

/* Macros that expand to statements, macros at the edge of a condition, and
 * a condition whose parentheses come from its macro (`if ISZERO(x) {`). */
static void test_macros(void)
{
	static const char src[] =
		"#include <assert.h>\n#include <errno.h>\n#include <stdio.h>\n"
		"#define EINTRLOOP(v, expr) while (((v) = (expr)) == -1 && errno == EINTR)\n"
		"#define SWAP(a, b) do { int t_ = a; a = b; b = t_; } while (0)\n"
		"#define CHECKED(x) if ((x) < 0) return -1\n"
		"#define FOREACH(i, n) for (i = 0; i < (n); i++)\n"
		"#define LIMIT 10\n#define IS_OK(x) ((x) > 0)\n#define MYNULL ((void *)0)\n"
		"static int f(int x) { return x - 3; }\n"
		"static int g(int a, int b)\n{\n\tint r, i, s = 0;\n\tEINTRLOOP(r, f(4));\n\tSWAP(a, b);\n"
		"\tCHECKED(a - 5);\n\tFOREACH(i, b) s += i;\n\tif (a < LIMIT)\n\t\tSWAP(a, b);\n"
		"\treturn r + a * 10 + b + s;\n}\n"
		"static int h(const int *p)\n{\n\tint v = 3;\n\tassert(p != NULL);\n\tassert(&v != MYNULL);\n"
		"\tassert(LIMIT);\n\tassert(IS_OK(v));\n\tassert(v < LIMIT);\n\tassert(NULL != p && v);\n"
		"\treturn v + (p == NULL) + (MYNULL == p);\n}\n"
		"static int k(int n)\n{\n\tint s = 0;\n\tif IS_OK(n) {\n\t\ts = 1;\n\t}\n"
		"\twhile IS_OK(n)\n\t\tn--;\n\tswitch IS_OK(s) {\n\tcase 1: s += 2; break;\n\t}\n\treturn s + n;\n}\n"
		"int main(int argc, char **argv)\n{\n\tint a[2] = {argc, 0};\n"
		"\tprintf(\"%d %d %d\\n\", g(7, argc + 2), h(a), k(argc));\n"
		"\tassert(argc < 3);\n\treturn 0;\n}\n";
	CHECK(agrees("macros", src, "") == 0);
	CHECK(agrees("macros_assert", src, "x y") == 0);   /* the assert fails alike */
}

/* Bit-fields, register variables, K&R definitions, volatile. */
static void test_old_style(void)
{
	static const char src[] =
		"#include <stdio.h>\n#include <string.h>\n"
		"struct flags { unsigned a : 3; signed b : 5; unsigned c : 1; int n; };\n"
		"static int bits(struct flags *p)\n{\n\tstruct flags f = {1, -2, 0, 4};\n\tf.a += 5;\n"
		"\tf.b = f.b - 3;\n\tf.c = !f.c;\n\tf.a++;\n\t--f.b;\n\tp->a = f.a;\n\tp->n = f.b;\n"
		"\tif (f.c && p->a > 1)\n\t\tp->c = 1;\n\treturn f.a + f.b + f.c + p->n;\n}\n"
		"static int regs(register int n)\n{\n\tregister int i, s = 0;\n\tfor (i = 0; i < n; i++)\n"
		"\t\ts += i;\n\treturn s;\n}\n"
		"static int kr(a, b)\n\tint a;\n\tchar *b;\n{\n\treturn a + (int)strlen(b);\n}\n"
		"static int oldret(x)\n{\n\tif (x > 100)\n\t\treturn;\n\treturn x + 1;\n}\n"
		"static volatile int count;\n"
		"static int vol(void)\n{\n\tint braced = {2};\n\tvolatile int x = 5 + braced;\n\tx += 2;\n\tcount++;\n\treturn x + count;\n}\n"
		"int main(void)\n{\n\tstruct flags q = {0};\n\tint b = bits(&q);\n"
		"\tprintf(\"%d %d %d %d %d %d\\n\", b, q.a, regs(5), kr(3, \"abcd\"), oldret(5), vol());\n"
		"\treturn 0;\n}\n";
	CHECK(agrees("old_style", src, "") == 0);
}

/* Variable-length arrays, flexible array members, varargs. */
static void test_arrays_varargs(void)
{
	static const char src[] =
		"#include <stdarg.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
		"struct fam { int n; int v[]; };\n"
		"static int vla(int n)\n{\n\tint a[n];\n\tfor (int i = 0; i < n; i++)\n\t\ta[i] = i * i;\n"
		"\tint (*pa)[n] = &a;\n\tint m[n][2];\n\tm[n - 1][1] = a[1];\n"
		"\treturn (*pa)[n - 1] + (int)sizeof(a) + m[n - 1][1];\n}\n"
		"static int fam(int n)\n{\n\tstruct fam *p = malloc(sizeof(*p) + n * sizeof(int));\n\tp->n = n;\n"
		"\tfor (int i = 0; i < n; i++)\n\t\tp->v[i] = i + 1;\n\tint s = 0;\n"
		"\tfor (int i = 0; i < p->n; i++)\n\t\ts += p->v[i];\n\tfree(p);\n\treturn s;\n}\n"
		"static int sum(int n, ...)\n{\n\tva_list ap, aq;\n\tva_start(ap, n);\n\tva_copy(aq, ap);\n\tint s = 0;\n"
		"\tfor (int i = 0; i < n; i++)\n\t\ts += va_arg(ap, int);\n\ts += va_arg(aq, int);\n"
		"\tva_end(aq);\n\tva_end(ap);\n\treturn s;\n}\n"
		"static void say(const char *fmt, ...)\n{\n\tva_list ap;\n\tva_start(ap, fmt);\n"
		"\tvprintf(fmt, ap);\n\tva_end(ap);\n}\n"
		"int main(void)\n{\n\tsay(\"%d %d %d\\n\", vla(4), fam(5), sum(3, 4, 5, 6));\n\treturn 0;\n}\n";
	CHECK(agrees("arrays_varargs", src, "") == 0);
}

/* setjmp/longjmp, computed goto, statement expressions, typeof, inline asm. */
static void test_gnu(void)
{
	static const char src[] =
		"#include <setjmp.h>\n#include <stdio.h>\n"
		"static jmp_buf jb;\n"
		"static void jumper(int v)\n{\n\tif (v > 2)\n\t\tlongjmp(jb, v);\n}\n"
		"static int sj(void)\n{\n\tvolatile int tries = 0;\n\tint r = setjmp(jb);\n\tif (r == 0) {\n"
		"\t\ttries++;\n\t\tjumper(tries + 5);\n\t\treturn -1;\n\t}\n\tif (setjmp(jb) == 0)\n"
		"\t\ttries += 10;\n\treturn r * 100 + tries;\n}\n"
		"static int cgoto(int k)\n{\n\tstatic void *tbl[] = {&&one, &&two, &&three};\n\tint acc = 0;\n"
		"\tvoid *to = tbl[k];\n\tgoto *to;\none:\n\tacc += 1;\ntwo:\n\tacc += 10;\nthree:\n\tacc += 100;\n"
		"\treturn acc;\n}\n"
		"#define MAX(a, b) ({ __typeof__(a) a_ = (a), b_ = (b); a_ > b_ ? a_ : b_; })\n"
		"static int gnu(int x)\n{\n\tint y = ({ int t = x * 2; t + 1; });\n\ttypeof(y) z = y + 1;\n"
		"\t__typeof__(x) *pz = &z;\n\t__auto_type w = *pz * 2;\n\t__auto_type u = w;\n\tu += MAX(x, 2);\n"
		"\treturn w + u + (x ?: 7) + ({ x > 1 ? 3 : 4; });\n}\n"
		"static int asmf(int x)\n{\n\tint y = x;\n#if defined(__x86_64__) || defined(__i386__)\n"
		"\t__asm__ volatile (\"\" : \"+r\"(y));\n\tasm(\"\");\n#endif\n\treturn y + 1;\n}\n"
		"int main(int argc, char **argv)\n{\n\t(void)argv;\n"
		"\tprintf(\"%d %d %d %d %d %d %d\\n\", sj(), cgoto(0), cgoto(1), cgoto(2), gnu(3), gnu(0), asmf(4));\n"
		"\treturn argc > 1 ? 3 : 0;\n}\n";
	CHECK(agrees("gnu", src, "") == 0);
	CHECK(agrees("gnu_status", src, "x") == 0);
}

/* libclang as tolerant as gcc: a bare return in a non-void function, an
 * implicit declaration, an int where a pointer goes. */
static void test_tolerant(void)
{
	static const char src[] =
		"#include <stdio.h>\n"
		"static int f(int x)\n{\n\tif (x > 100)\n\t\treturn;\n\treturn x + 1;\n}\n"
		"static int g(char *p) { return p != 0; }\n"
		"int main(void)\n{\n\tint n = 0;\n\tprintf(\"%d %d\\n\", f(4), g(n));\n\treturn 0;\n}\n";
	CHECK(agrees("tolerant", src, "") == 0);
	/* An argument clang does not know is dropped, not fatal. */
	struct cerr e;
	char *p = xasprintf("%s/tolerant/orig/p.c", dir);
	const char *args[] = {"-fno-gcc-only-flag-xyz", "-O2"};
	struct buf out = BUF_INIT, meta = BUF_INIT;
	unsigned next = 1;
	struct instr_stats st = {0};
	CHECK(instr_file(p, "p.c", NULL, 0, 0, args, 2, &next, &out, &meta, &st, &e) == 0);
	CHECK(st.functions == 3);
	buf_release(&out);
	buf_release(&meta);
	free(p);
}

/* Strict C89 with errors for implicit declarations (cJSON's flags): the
 * runtime declares what such modes hide. */
static void test_strict_c89(void)
{
	static const char src[] =
		"#include <stdio.h>\n"
		"static int twice(int x)\n{\n\tint y;\n\ty = x * 2;\n\treturn y;\n}\n"
		"int main(void)\n{\n\tint i, s = 0;\n\tfor (i = 0; i < 3; i++)\n\t\ts += twice(i);\n"
		"\tprintf(\"%d\\n\", s);\n\treturn 0;\n}\n";
	struct tmeta m;
	CHECK(instrumented("c89", src, NULL, &m) == 0);
	tmeta_release(&m);
	char *cmd = xasprintf("cd %s/c89 && cc -std=c89 -pedantic -Werror=implicit-function-declaration "
			      "-Werror=declaration-after-statement -c -o p.o p.c", dir);
	CHECK(sh(cmd) == 0);
	free(cmd);
}

/* The string functions the runtime follows (renamed to its wrappers, with
 * their site) behave as the library's, traced or not, and the program's
 * own functions stay as they are. */
static void test_strings(void)
{
	static const char src[] =
		"#include <stdio.h>\n#include <string.h>\n"
		"static size_t mylen(const char *s) { return strlen(s); }\n"
		"static int strlen2(const char *s) { return (int)strlen(s) * 2; }\n"
		"int main(int argc, char **argv)\n{\n\tchar a[32], b[32];\n"
		"\tstrcpy(a, argc > 1 ? argv[1] : \"none\");\n\tstrncpy(b, a, sizeof b);\n"
		"\tmemmove(b + 1, b, 3);\n\tmemcpy(a, b, strlen(b) + 1);\n\tstrcat(a, \"!\");\n"
		"\tstrncat(a, \"??\", 1);\n"
		"\tprintf(\"%s %d %d %d %d\\n\", a, strcmp(a, b) > 0, strncmp(a, b, 2), memcmp(a, b, 1), strlen2(a));\n"
		"\tputs(a);\n\tputc('.', stdout);\n\treturn (int)mylen(a) - 9;\n}\n";
	CHECK(agrees("strings", src, "word") == 0);
	CHECK(agrees("strings0", src, "") == 0);
	char *cmd = xasprintf("cd %s/strings && grep -q '__cu_strcpy([0-9]*, a, ' p.c && "
			      "grep -q '__cu_memcpy([0-9]*, a, b, ' p.c && ! grep -q '__cu_strlen2' p.c", dir);
	CHECK(sh(cmd) == 0);
	free(cmd);
}

/* A return converted to the function's type warns as the original did: not
 * for a constant (`return 0;` in an unsigned function), under the
 * project's -Wconversion -Werror. */
static void test_warning_clean(void)
{
	static const char src[] =
		"static unsigned hex(const unsigned char *p)\n{\n\tif (*p >= 'a')\n\t\treturn 0;\n"
		"\treturn (unsigned)(*p - '0');\n}\n"
		"static unsigned char low(unsigned v)\n{\n\tif (v > 255)\n\t\treturn 0;\n\treturn (unsigned char)v;\n}\n"
		"int main(void)\n{\n\tconst unsigned char s[] = \"7\";\n\tvolatile double zero = 0.0;\n"
		"\tzero = zero * 2.0;\n\treturn (int)(hex(s) + low(3)) - 10 + (int)zero;\n}\n";
	struct tmeta m;
	CHECK(instrumented("wclean", src, NULL, &m) == 0);
	tmeta_release(&m);
	char *cmd = xasprintf("cd %s/wclean && cc -std=c89 -pedantic -Wall -Wextra -Wconversion -Wsign-conversion -Wformat=2 "
			      "-Wstrict-prototypes -Wwrite-strings -Wshadow -Winit-self -Wcast-align -Wmissing-prototypes "
			      "-Wstrict-overflow=2 -Wcast-qual -Wundef -Wswitch-default -Wswitch-enum -Wc++-compat "
			      "-Wdouble-promotion -Wparentheses -Wformat-overflow -Wunused-macros -Werror -c -o p.o p.c", dir);
	CHECK(sh(cmd) == 0);
	free(cmd);
}

/* Feature-test macros the file defines before its includes, or that its
 * own config header defines, still decide what the system headers declare
 * although the runtime (which includes some) comes first: struct
 * sigaction under -std=c99 needs _POSIX_C_SOURCE, asprintf _GNU_SOURCE. */
static void test_features(void)
{
	static const char src[] =
		"#define _POSIX_C_SOURCE 200809L\n#include <signal.h>\n#include <string.h>\n#include <stdio.h>\n"
		"static void on(int s) { (void)s; }\n"
		"int main(void)\n{\n\tstruct sigaction sa;\n\tmemset(&sa, 0, sizeof sa);\n\tsa.sa_handler = on;\n"
		"\tsigemptyset(&sa.sa_mask);\n\treturn sigaction(SIGINT, &sa, NULL) != 0 || !strdup(\"x\");\n}\n";
	static const char src2[] =
		"#include \"cfg.h\"\n#include <stdio.h>\n#include <stdlib.h>\n"
		"int main(void)\n{\n\tchar *s = NULL;\n\tif (asprintf(&s, \"%d\", 42) < 0)\n\t\treturn 1;\n"
		"\tputs(s);\n\tfree(s);\n\treturn 0;\n}\n";
	struct tmeta m;
	CHECK(instrumented("feat", src, NULL, &m) == 0);
	tmeta_release(&m);
	char *cmd = xasprintf("cd %s/feat && cc -std=c99 -Werror=implicit-function-declaration -c -o p.o p.c", dir);
	CHECK(sh(cmd) == 0);
	free(cmd);
	cmd = xasprintf("mkdir -p %s/feat2 && printf '#ifndef CFG_H\\n#define CFG_H\\n#define _GNU_SOURCE 1\\n#endif\\n' "
			"> %s/feat2/cfg.h", dir, dir);
	CHECK(sh(cmd) == 0);
	free(cmd);
	CHECK(instrumented("feat2", src2, NULL, &m) == 0);
	tmeta_release(&m);
	cmd = xasprintf("cd %s/feat2 && cc -std=c99 -Werror=implicit-function-declaration -c -o p.o p.c", dir);
	CHECK(sh(cmd) == 0);
	free(cmd);
}

/* A hang's timeout can arrive while the runtime's own malloc (the ring, at
 * half the cap) holds malloc's lock: the handler must not allocate. The
 * forced-in header interposes malloc, sends SIGTERM from inside the ring's
 * allocation, and aborts if malloc is entered again meanwhile. */
static void test_signal_in_malloc(void)
{
	static const char hdr[] =
		"#include <signal.h>\n#include <stdlib.h>\n"
		"extern void *__libc_malloc(size_t);\n"
		"static int in_malloc;\n"
		"void *malloc(size_t n)\n{\n\tvoid *p;\n\tif (in_malloc)\n\t\tabort();\n\tin_malloc = 1;\n"
		"\tif (n >= 50000)\n\t\traise(SIGTERM);\n\tp = __libc_malloc(n);\n\tin_malloc = 0;\n\treturn p;\n}\n";
	static const char src[] =
		"int main(void)\n{\n\tlong i = 0;\n\twhile (i >= 0)\n\t\ti = i + 1;\n\treturn 0;\n}\n";
	char *h = xasprintf("%s/sigmalloc.h", dir);
	struct cerr e;
	CHECK(file_write_atomic(h, hdr, sizeof(hdr) - 1, 0644, &e) == 0);
	const char *headers[] = {h, NULL};
	struct tmeta m;
	struct trace t;
	memset(&t, 0, sizeof(t));
	CHECK(traced_with("sigmalloc", src, "./p", "CULPRIT_TRACE_MAX=200000", headers, &m, &t) == 0);
	CHECK(t.sig == 15);   /* not 6: the handler did not allocate */
	CHECK(t.n > 0 && t.ev[t.n - 1].kind == TE_SIG);
	trace_release(&t);
	tmeta_release(&m);
	free(h);
}

/* A hang ended by `timeout`, which signals the program and then its whole
 * group: two SIGTERMs a moment apart. In strict C modes the handler is set
 * by signal(), which resets it on delivery (SysV), so a second signal
 * arriving while the first one's handler wrote the ring killed the program
 * before its tail was written. Made certain here: the trace goes through a
 * pipe whose reader is stopped, so the handler is blocked writing when the
 * second SIGTERM comes. The trace must keep the cut tail and the signal. */
static void test_two_terms(void)
{
	static const char src[] =
		"int main(void)\n{\n\tlong i = 0;\n\twhile (i >= 0)\n\t\ti = i + 1;\n\treturn 0;\n}\n";
	const char *std = traced_std;
	traced_std = "-std=c99";   /* no sigaction there: the runtime uses signal() */
	struct tmeta m;
	struct trace t;
	memset(&t, 0, sizeof(t));
	CHECK(traced("twoterms", src,
		     "rm -f f && mkfifo f && sh -c 'cat f > t.bin & R=$!; "
		     "CULPRIT_TRACE_MAX=400000 CULPRIT_TRACE=$PWD/f ./p & P=$!; "
		     "sleep 0.5; kill -STOP $R; kill -TERM $P; sleep 0.3; kill -TERM $P; kill -CONT $R; wait'",
		     NULL, &m, &t) == 0);
	traced_std = std;
	CHECK(t.cut);
	CHECK(t.sig == 15);
	CHECK(t.n > 0 && t.ev[t.n - 1].kind == TE_SIG);
	trace_release(&t);
	tmeta_release(&m);
}

/* Idioms of old GNU code (gawk): `return(x);` with no blank after the
 * keyword, and a file's own variable named like a function of <strings.h>
 * (which the file never includes, so the runtime must not either). */
static void test_names(void)
{
	static const char src[] =
		"#include <stdio.h>\n"
		"static int index = -1;\nstatic int stack[8];\n"
		"static int push(int v)\n{\n\tif (index + 1 >= 8)\n\t\treturn(0);\n\tstack[++index] = v;\n\treturn(1);\n}\n"
		"static int pop(void)\n{\n\treturn(stack[index--]);\n}\n"
		"int main(void)\n{\n\tpush(4);\n\tpush(9);\n\tprintf(\"%d %d\\n\", pop(), pop());\n\treturn(0);\n}\n";
	CHECK(agrees("names", src, "") == 0);
	/* A parameter whose name is a macro (gawk's support/minrx.c: `#define
	 * unused unused __attribute__((__unused__))`): its name written again
	 * would expand to an attribute in an expression. */
	static const char attr[] =
		"#include <stdio.h>\n"
		"#define unused unused __attribute__((__unused__))\n"
		"static int twice(int v, const char *unused)\n{\n\treturn 2 * v;\n}\n"
		"int main(void)\n{\n\tprintf(\"%d\\n\", twice(21, \"x\"));\n\treturn 0;\n}\n";
	CHECK(agrees("param_macro", attr, "") == 0);
}

/* A labelled statement as the body of an if, a loop or a switch
 * (gawk's `if (bad) error: return -1;`, entered by goto too): the
 * statement's record goes inside braces around the label, never between
 * the label and an if's body. */
static void test_label_bodies(void)
{
	static const char src[] =
		"#include <stdio.h>\n"
		"static int next(const char *s, int *n)\n{\n\tint u = s[0];\n\tif (u < 'a')\n\terror:\n"
		"\t\treturn -1;\n\tif (u > 'y')\n\t\tgoto error;\n\t*n += 1;\n\treturn u;\n}\n"
		"static int count(int k)\n{\n\tint c = 0;\n\twhile (k-- > 0)\n\tagain:\n\t\tc++;\n"
		"\tif (c < 5)\n\t\tgoto again;\n\tswitch (k)\n\tcase -1:\n\t\tc += 10;\n\treturn c;\n}\n"
		"int main(int argc, char **argv)\n{\n\tint n = 0;\n"
		"\tprintf(\"%d %d %d %d %d\\n\", next(\"b\", &n), next(\"A\", &n), next(\"z\", &n), n, count(argc + 1));\n"
		"\treturn 0;\n}\n";
	CHECK(agrees("label_bodies", src, "") == 0);
}

/* Macros from oniguruma's headers: a member read through a macro whose
 * address is taken in parentheses (`&(NCAR(node))`), an assignment inside a
 * macro's argument in a loop's condition, and a macro whose expansion ends
 * with its own `;` (`v = BACKREFS_P(br);`). */
static void test_macro_values(void)
{
	static const char src[] =
		"#include <stdio.h>\n"
		"struct node;\nstruct cons { int car; struct node *cdr; };\n"
		"struct node { int type; union { struct cons cons; int base; } u; };\n"
		"#define NCONS(node) (&((node)->u.cons))\n#define NCAR(node) (NCONS(node)->car)\n"
		"#define NCDR(node) (NCONS(node)->cdr)\n#define IS_NOT_NULL(p) (((void *)(p)) != (void *)0)\n"
		"#define PICK(n) \\\n  ((n)->type ? (n)->u.cons.car : (n)->type);\n"
		"static int sum(struct node *node)\n{\n\tint s = 0;\n\tdo {\n\t\tint *p = &(NCAR(node));\n"
		"\t\ts += *p;\n\t} while (s < 100 && IS_NOT_NULL(node = NCDR(node)));\n\treturn s;\n}\n"
		"static int pick(struct node *n)\n{\n\tint v;\n\tv = PICK(n);\n\treturn v + PICK(n)\n}\n"
		"int main(void)\n{\n\tstruct node b = {1, {{5, NULL}}}, a = {1, {{7, &b}}};\n"
		"\tint *q = &(NCAR(&a));\n\t*q += 1;\n"
		"\tprintf(\"%d %d\\n\", sum(&a), pick(&b));\n\treturn 0;\n}\n";
	CHECK(agrees("macro_values", src, "") == 0);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/culprit-instr.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	traced_std = "";   /* gcc's default, GNU C */
	RUN(test_macros);
	RUN(test_old_style);
	RUN(test_arrays_varargs);
	RUN(test_gnu);
	RUN(test_tolerant);
	RUN(test_strict_c89);
	RUN(test_strings);
	RUN(test_warning_clean);
	RUN(test_features);
	RUN(test_signal_in_malloc);
	RUN(test_two_terms);
	RUN(test_names);
	RUN(test_label_bodies);
	RUN(test_macro_values);
	if (!getenv("KEEP"))
		remove_tree(dir, NULL);
	TEST_EXIT();
}
