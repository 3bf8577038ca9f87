#include <stdlib.h>
#include <unistd.h>

#include "core/isolate/oracle.h"
#include "core/isolate/run.h"
#include "core/util.h"
#include "tests/unit/test.h"

static struct run_result result(enum run_status status, int code, const char *out)
{
	struct run_result r;
	memset(&r, 0, sizeof(r));
	r.status = status;
	r.code = code;
	buf_init(&r.out);
	buf_adds(&r.out, out);
	r.total = r.out.len;
	return r;
}

#define M "\xe2\x80\xa6"   /* the mask */

static int starts(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

/* The signature of a made-up run; "(null)" for NULL. */
static char *sig_of(const struct oracle *o, enum run_status status, int code, const char *out)
{
	struct run_result r = result(status, code, out);
	char *s = oracle_signature(o, &r);
	run_result_release(&r);
	return s ? s : xstrdup("(null)");
}

#define CHECK_SIG(o, status, code, out, want)                       \
	do {                                                        \
		char *s_ = sig_of(o, status, code, out);            \
		CHECK_STR(s_, want);                                \
		free(s_);                                           \
	} while (0)

static void test_signatures(void)
{
	struct oracle *o;
	struct cerr e;
	CHECK(oracle_new(&o, NULL, &e) == 0);
	CHECK_SIG(o, RUN_EXITED, 0, "all good\n", "(null)");
	CHECK_SIG(o, RUN_EXITED, 1, "", "exit 1");
	CHECK_SIG(o, RUN_EXITED, 2, "FAIL\n", "exit 2; output ends \"FAIL\"");
	/* The last three non-empty lines, escaped, long lines cut (the rest masked). */
	CHECK_SIG(o, RUN_EXITED, 1, "a\nb \"q\" \\\n\n\nc\r\nd  \n\n", "exit 1; output ends \"b \\\"q\\\" \\\\\\nc\\nd\"");
	char *longest = sig_of(o, RUN_EXITED, 1, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	CHECK(strlen(longest) < 140 && strstr(longest, "x\xe2\x80\xa6\""));
	free(longest);
	/* Output without a newline at its end, longer than anything kept. */
	char *ys = xmalloc(5001);
	memset(ys, 'y', 5000);
	ys[5000] = '\0';
	longest = sig_of(o, RUN_EXITED, 1, ys);
	CHECK(!strncmp(longest, "exit 1; output ends \"yyy", 24) && strlen(longest) < 140);
	free(longest);
	free(ys);
	CHECK_SIG(o, RUN_EXITED, 125, "", "(null)");
	CHECK_SIG(o, RUN_TIMEOUT, 15, "", "(null)");
	CHECK_SIG(o, RUN_CANCELLED, 9, "", "(null)");
	CHECK_SIG(o, RUN_SIGNALED, 11, "", "signal 11 (SIGSEGV)");
	CHECK_SIG(o, RUN_EXITED, 139, "", "signal 11 (SIGSEGV)");
	CHECK_SIG(o, RUN_EXITED, 134, "", "signal 6 (SIGABRT)");
	CHECK_SIG(o, RUN_EXITED, 128, "", "exit 128");
	CHECK_SIG(o, RUN_EXITED, 193, "", "exit 193");
	oracle_free(o);
	oracle_free(NULL);
}

static void test_assertion(void)
{
	struct oracle *o;
	struct cerr e;
	CHECK(oracle_new(&o, NULL, &e) == 0);
	CHECK_SIG(o, RUN_SIGNALED, 6, "running\nprog: src/a.c:12: check: Assertion `x > 0' failed.\n",
		  "signal 6 (SIGABRT); assertion `x > 0' failed; output ends \"running\\nprog: src/a.c:\xe2\x80\xa6: check: "
		  "Assertion `x > 0' failed.\"");
	/* Hunks applied elsewhere move the line: the signature stays. */
	char *a = sig_of(o, RUN_EXITED, 134, "prog: src/a.c:12: check: Assertion `n == len' failed.\n");
	char *b = sig_of(o, RUN_EXITED, 134, "prog: src/a.c:97: check: Assertion `n == len' failed.\n");
	CHECK(starts(a, "signal 6 (SIGABRT); assertion `n == len' failed; output ends"));
	CHECK_STR(a, b);
	free(a);
	free(b);
	/* A different condition is a different failure. */
	a = sig_of(o, RUN_EXITED, 134, "prog: src/a.c:12: check: Assertion `n != 0' failed.\n");
	CHECK(strcmp(a, "signal 6 (SIGABRT); assertion `n == len' failed") != 0);
	free(a);
	oracle_free(o);
}

static void test_fail_pattern(void)
{
	struct oracle *o;
	struct cerr e;
	CHECK(oracle_new(&o, "^FAIL: (\\w+)", &e) == 0);
	CHECK_SIG(o, RUN_EXITED, 0, "ok a\nFAIL: test_b (expected 3)\n", "match: test_b");
	CHECK_SIG(o, RUN_EXITED, 1, "ok a\nFAIL: test_b (expected 3)\n", "match: test_b");
	CHECK_SIG(o, RUN_EXITED, 0, "ok a\nok b\n", "(null)");
	CHECK_SIG(o, RUN_EXITED, 2, "ok a\nnot FAIL: x\n", "exit 2; output ends \"ok a\\nnot FAIL: x\"");
	CHECK_SIG(o, RUN_EXITED, 125, "FAIL: test_b\n", "(null)");
	CHECK_SIG(o, RUN_TIMEOUT, 15, "FAIL: test_b\n", "(null)");
	oracle_free(o);

	CHECK(oracle_new(&o, "FAIL: \\w+", &e) == 0);
	CHECK_SIG(o, RUN_EXITED, 0, "ok a\nFAIL: test_b (expected 3)\n", "match: FAIL: test_b");
	oracle_free(o);

	/* An optional group that did not take part: the whole match. */
	CHECK(oracle_new(&o, "FAIL(: \\w+)?", &e) == 0);
	CHECK_SIG(o, RUN_EXITED, 0, "FAIL\n", "match: FAIL");
	oracle_free(o);
}

static void test_identity(void)
{
	struct oracle *o;
	struct cerr e;
	CHECK(oracle_new(&o, NULL, &e) == 0);
	/* What varies between two runs of the bad revision is masked: times, pids, addresses. */
	struct run_result a = result(RUN_EXITED, 1, "start\nlist at 0x55d0c3a0 pid 4242\nFAIL: lost link after 12 ms\n");
	struct run_result b = result(RUN_EXITED, 1, "start\nlist at 0x55e1f7b0 pid 4250\nFAIL: lost link after 9 ms\n");
	char *id = NULL;
	CHECK(oracle_identity(o, &a, &b, &id) == 0);
	CHECK_STR(id, "exit 1; output ends \"start\\nlist at 0x\xe2\x80\xa6 pid \xe2\x80\xa6\\nFAIL: lost link after \xe2\x80\xa6 ms\"");
	struct run_result same = result(RUN_EXITED, 1, "start\nlist at 0x1 pid 7\nFAIL: lost link after 3000 ms\n");
	struct run_result other = result(RUN_EXITED, 1, "start\nlist at 0x1 pid 7\nFAIL: lost item after 3 ms\n");
	struct run_result status = result(RUN_EXITED, 2, "start\nlist at 0x1 pid 7\nFAIL: lost link after 3 ms\n");
	enum unresolved_why why;
	CHECK(oracle_judge(o, id, &same, &why, NULL) == VERDICT_FAIL);
	CHECK(oracle_judge(o, id, &other, &why, NULL) == VERDICT_UNRESOLVED && why == WHY_DIFFERENT);
	CHECK(oracle_judge(o, id, &status, &why, NULL) == VERDICT_UNRESOLVED && why == WHY_DIFFERENT);
	free(id);
	/* Unmasked: nothing differed, nothing is masked. */
	CHECK(oracle_identity(o, &a, &a, &id) == 0);
	CHECK(oracle_judge(o, id, &b, &why, NULL) == VERDICT_UNRESOLVED);
	free(id);
	/* AddressSanitizer's report: the same heap address in both runs of the
	 * bad revision (its allocator is deterministic), another one where other
	 * code allocated before; one failure. A small hex value is data. */
	struct run_result uaf1 = result(RUN_EXITED, 1, "==1234==ERROR: AddressSanitizer: heap-use-after-free on address "
					"0x60300000e4b0 at pc 0x55871f95969a\nREAD of size 1 at 0x60300000e4b0 thread T0\n");
	struct run_result uaf1b = result(RUN_EXITED, 1, "==1240==ERROR: AddressSanitizer: heap-use-after-free on address "
					 "0x60300000e4b0 at pc 0x55e9d25e005b\nREAD of size 1 at 0x60300000e4b0 thread T0\n");
	struct run_result uaf2 = result(RUN_EXITED, 1, "==5678==ERROR: AddressSanitizer: heap-use-after-free on address "
					"0x60300000e690 at pc 0x5560983425e3\nREAD of size 1 at 0x60300000e690 thread T0\n");
	struct run_result hex1 = result(RUN_EXITED, 1, "flags 0x10\n"), hex2 = result(RUN_EXITED, 1, "flags 0x20\n");
	CHECK(oracle_identity(o, &uaf1, &uaf1b, &id) == 0);
	CHECK(oracle_judge(o, id, &uaf2, &why, NULL) == VERDICT_FAIL);
	free(id);
	/* A line longer than is kept, starting with the process id: a pid of
	 * another length does not move where the line is cut. */
	struct run_result long1 = result(RUN_EXITED, 1, "==7134==ERROR: AddressSanitizer: heap-use-after-free on address "
					 "0x60300000e4b0 at pc 0x55871f95969a bp 0x7ffd2c1e3a40 sp 0x7ffd2c1e3a38\n");
	struct run_result long2 = result(RUN_EXITED, 1, "==7160==ERROR: AddressSanitizer: heap-use-after-free on address "
					 "0x60300000e4b0 at pc 0x55e9d25e005b bp 0x7ffc1b2e4a40 sp 0x7ffc1b2e4a38\n");
	struct run_result long3 = result(RUN_EXITED, 1, "==10988==ERROR: AddressSanitizer: heap-use-after-free on address "
					 "0x60300000e690 at pc 0x5560983425e3 bp 0x7ffe0b1e2a40 sp 0x7ffe0b1e2a38\n");
	CHECK(oracle_identity(o, &long1, &long2, &id) == 0);
	CHECK(oracle_judge(o, id, &long3, &why, NULL) == VERDICT_FAIL);
	free(id);
	run_result_release(&long1);
	run_result_release(&long2);
	run_result_release(&long3);
	CHECK(oracle_identity(o, &hex1, &hex1, &id) == 0);
	CHECK(oracle_judge(o, id, &hex2, &why, NULL) == VERDICT_UNRESOLVED && why == WHY_DIFFERENT);
	free(id);
	run_result_release(&uaf1);
	run_result_release(&uaf1b);
	run_result_release(&uaf2);
	run_result_release(&hex1);
	run_result_release(&hex2);
	/* UBSan's runtime error: its values move with the code (libxmp's
	 * time made a double: the value cast out of range differs once
	 * another change is applied); its kind and type do not. */
	struct run_result ub1 = result(RUN_EXITED, 1, "src/scan.c:412:20: runtime error: 2.15771e+09 is outside the range "
				       "of representable values of type 'int'\n");
	struct run_result ub2 = result(RUN_EXITED, 1, "src/scan.c:415:20: runtime error: 9.36229e+09 is outside the range "
				       "of representable values of type 'int'\n");
	struct run_result ub3 = result(RUN_EXITED, 1, "src/scan.c:415:9: runtime error: signed integer overflow: "
				       "2147483647 + 1 cannot be represented in type 'int'\n");
	CHECK(oracle_identity(o, &ub1, &ub1, &id) == 0);
	CHECK(oracle_judge(o, id, &ub2, &why, NULL) == VERDICT_FAIL);
	CHECK(oracle_judge(o, id, &ub3, &why, NULL) == VERDICT_UNRESOLVED && why == WHY_DIFFERENT);
	free(id);
	run_result_release(&ub1);
	run_result_release(&ub2);
	run_result_release(&ub3);
	/* Runs that disagree on the status: flaky. */
	CHECK(oracle_identity(o, &a, &status, &id) == 1);
	free(id);
	/* The same status with another failed assert (a corruption that shows
	 * otherwise each run): the condition is masked, not flaky. */
	struct run_result as1 = result(RUN_EXITED, 1, "prog: ldo.c:497: move: Assertion `0' failed.\nAborted\n");
	struct run_result as2 = result(RUN_EXITED, 1, "prog: ldo.c:497: move: Assertion `n >= 0' failed.\nAborted\n");
	CHECK(oracle_identity(o, &as1, &as2, &id) == 0);
	CHECK(oracle_judge(o, id, &as1, &why, NULL) == VERDICT_FAIL);
	CHECK(oracle_judge(o, id, &as2, &why, NULL) == VERDICT_FAIL);
	CHECK(oracle_judge(o, id, &other, &why, NULL) == VERDICT_UNRESOLVED);
	/* A third run that fails in yet another manner with the same status
	 * widens the mask; one with another status disagrees. */
	struct run_result seg = result(RUN_EXITED, 1, "Segmentation fault\n");
	CHECK(oracle_identity_add(o, &id, &seg) == 0);
	CHECK(oracle_judge(o, id, &seg, &why, NULL) == VERDICT_FAIL);
	CHECK(oracle_judge(o, id, &as1, &why, NULL) == VERDICT_FAIL);
	CHECK(oracle_identity_add(o, &id, &status) == 1);
	free(id);
	/* Runs that die by different signals (a corruption: SIGSEGV one run,
	 * a failed assert's SIGABRT the next, the shell's 128+N alike): one
	 * failure, a crash, not flaky; a run that exits with a status is
	 * another failure. */
	struct run_result segv = result(RUN_EXITED, 139, "");
	struct run_result abrt = result(RUN_SIGNALED, 6, "lua: ldo.c:497: genmoveresults: Assertion `0' failed.\n");
	CHECK(oracle_identity(o, &segv, &abrt, &id) == 0);
	CHECK(oracle_judge(o, id, &segv, &why, NULL) == VERDICT_FAIL);
	CHECK(oracle_judge(o, id, &abrt, &why, NULL) == VERDICT_FAIL);
	CHECK(oracle_judge(o, id, &status, &why, NULL) == VERDICT_UNRESOLVED && why == WHY_DIFFERENT);
	free(id);
	run_result_release(&segv);
	run_result_release(&abrt);
	run_result_release(&seg);
	run_result_release(&as1);
	run_result_release(&as2);
	run_result_release(&a);
	run_result_release(&b);
	run_result_release(&same);
	run_result_release(&other);
	run_result_release(&status);
	CHECK(oracle_same("a" M "b" M, "axxbyy"));
	CHECK(oracle_same("a" M "b", "ab"));
	CHECK(!oracle_same("a" M "b", "abc"));
	CHECK(oracle_same("exit 1", "exit 1"));
	CHECK(!oracle_same("exit 1", "exit 12"));
	/* Reworded text masked, every occurrence, overlapping texts as one
	 * mask; a text the identity shows escaped is left alone. */
	const char *words[] = {"the limit", "limit 9 is", "rather low", "a \"b\""};
	size_t lens[] = {9, 10, 10, 7};
	char *masked = oracle_mask_texts("exit 1; output ends \"note: the limit 9 is rather low\\nthe limit 9\"", words, lens, 4);
	CHECK(!strcmp(masked, "exit 1; output ends \"note: " M " " M "\\n" M " 9\""));
	CHECK(oracle_same(masked, "exit 1; output ends \"note: limit 9 is low\\nlimit 9\""));
	CHECK(!oracle_same(masked, "exit 2; output ends \"note: limit 9 is low\\nlimit 9\""));
	free(masked);
	masked = oracle_mask_texts("out \"f.cab: note: the lim" M "\"", words, lens, 1);
	CHECK(!strcmp(masked, "out \"f.cab: note: " M "\""));
	free(masked);
	masked = oracle_mask_texts("say \"a \\\"b\\\"\"", words + 3, lens + 3, 1);
	CHECK(!strcmp(masked, "say \"a \\\"b\\\"\""));
	free(masked);
	oracle_free(o);

	/* A fail pattern overrides: the match is the identity. */
	CHECK(oracle_new(&o, "FAIL: \\w+", &e) == 0);
	CHECK(oracle_identity(o, &(struct run_result){0}, &(struct run_result){0}, &id) == 0 && id == NULL);
	oracle_free(o);
}

static void test_bad_pattern(void)
{
	struct oracle *o = (struct oracle *)&o;
	struct cerr e;
	CHECK(oracle_new(&o, "FAIL(", &e) < 0);
	CHECK(o == NULL);
	CHECK(!strncmp(e.msg, "bad --fail-pattern at offset 5: ", 32));
	CHECK(strstr(e.msg, "missing closing parenthesis") != NULL);
}

static void test_judge(void)
{
	struct oracle *o;
	struct cerr e;
	CHECK(oracle_new(&o, NULL, &e) == 0);
	struct {
		enum run_status status;
		int code;
		enum verdict v;
		enum unresolved_why why;
		const char *sig;
	} cases[] = {
		{RUN_EXITED, 0, VERDICT_PASS, WHY_NONE, NULL},
		{RUN_EXITED, 1, VERDICT_FAIL, WHY_NONE, "exit 1"},
		{RUN_EXITED, 2, VERDICT_UNRESOLVED, WHY_DIFFERENT, "exit 2"},
		{RUN_SIGNALED, 11, VERDICT_UNRESOLVED, WHY_DIFFERENT, "signal 11 (SIGSEGV)"},
		{RUN_EXITED, 125, VERDICT_UNRESOLVED, WHY_UNTESTABLE, NULL},
		{RUN_TIMEOUT, 15, VERDICT_UNRESOLVED, WHY_TEST_TIMEOUT, NULL},
		{RUN_CANCELLED, 15, VERDICT_UNRESOLVED, WHY_CANCELLED, NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct run_result r = result(cases[i].status, cases[i].code, "");
		enum unresolved_why why = WHY_FLAKY;
		char *sig = (char *)"unset";
		enum verdict v = oracle_judge(o, "exit 1", &r, &why, &sig);
		CHECK(v == cases[i].v);
		CHECK(why == cases[i].why);
		if (cases[i].sig)
			CHECK_STR(sig, cases[i].sig);
		else
			CHECK(sig == NULL);
		free(sig);
		CHECK(oracle_judge(o, "exit 1", &r, &why, NULL) == cases[i].v);
		run_result_release(&r);
	}
	oracle_free(o);

	CHECK_STR(verdict_name(VERDICT_PASS), "PASS");
	CHECK_STR(verdict_name(VERDICT_FAIL), "FAIL");
	CHECK_STR(verdict_name(VERDICT_UNRESOLVED), "UNRESOLVED");
	CHECK_STR(why_name(WHY_NONE), "");
	CHECK_STR(why_name(WHY_BUILD), "build failed");
	CHECK_STR(why_name(WHY_BUILD_TIMEOUT), "build timed out");
	CHECK_STR(why_name(WHY_TEST_TIMEOUT), "test timed out");
	CHECK_STR(why_name(WHY_UNTESTABLE), "test exited 125 (cannot test)");
	CHECK_STR(why_name(WHY_DIFFERENT), "failed differently");
	CHECK_STR(why_name(WHY_FLAKY), "flaky");
	CHECK_STR(why_name(WHY_CANCELLED), "cancelled");
}

/* Run cmd in dir; the output. Caller frees. */
static char *output_of(const char *dir, const char *cmd, int *code)
{
	struct run_opts ro = {.cmd = cmd, .cwd = dir, .timeout = 60};
	struct run_result r;
	struct cerr e;
	if (run_command(&ro, &r, &e) < 0)
		return xstrdup("");
	*code = r.status == RUN_EXITED ? r.code : 128 + r.code;
	char *s = buf_detach(&r.out);
	run_result_release(&r);
	return s;
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct cerr e;
	CHECK(file_write_atomic(path, text, strlen(text), 0644, &e) == 0);
	free(path);
}

static void test_real_compiler(void)
{
	char dir[] = "/tmp/culprit-oracle-XXXXXX";
	struct cerr e;
	int code = 0;
	CHECK(mkdtemp(dir) != NULL);
	write_file(dir, "broken.c", "#include <stdio.h>\nint main(void)\n{\n\tint x = 1\n\treturn x;\n}\n");
	char *out = output_of(dir, "cc -Wall -c broken.c", &code);
	char *line = oracle_build_error(out);
	CHECK(code != 0);
	CHECK(line && !strncmp(line, "broken.c:", 9) && strstr(line, "error: ") && !strchr(line, '\n'));
	free(line);
	free(out);

	write_file(dir, "undef.c", "int missing(void);\nint main(void) { return missing(); }\n");
	out = output_of(dir, "cc -o undef undef.c", &code);
	line = oracle_build_error(out);
	CHECK(code != 0);
	CHECK(line && strstr(line, "undefined reference to") && strstr(line, "missing"));
	free(line);
	free(out);

	/* A real assert() in two versions whose lines differ. */
	write_file(dir, "a1.c", "#include <assert.h>\nint main(void)\n{\n\tint x = 0;\n\tassert(x > 0);\n}\n");
	write_file(dir, "a2.c", "#include <assert.h>\n\n\nint main(void)\n{\n\tint x = 0;\n\n\tassert(x > 0);\n}\n");
	free(output_of(dir, "cc -o a1 a1.c && cc -o a2 a2.c", &code));
	CHECK(code == 0);
	struct oracle *o;
	CHECK(oracle_new(&o, NULL, &e) == 0);
	struct run_opts ro = {.cmd = "./a1", .cwd = dir};
	struct run_result r1, r2;
	CHECK(run_command(&ro, &r1, &e) == 0);
	ro.cmd = "./a2";
	CHECK(run_command(&ro, &r2, &e) == 0);
	char *s1 = oracle_signature(o, &r1), *s2 = oracle_signature(o, &r2);
	CHECK(starts(s1, "signal 6 (SIGABRT); assertion `x > 0' failed; output ends"));
	/* The same failure in both versions (the programs' names aside). */
	CHECK(strstr(s1, "a1.c:\xe2\x80\xa6: main: Assertion `x > 0' failed.") != NULL);
	CHECK(strstr(s2, "a2.c:\xe2\x80\xa6: main: Assertion `x > 0' failed.") != NULL);
	free(s1);
	free(s2);
	run_result_release(&r1);
	run_result_release(&r2);
	oracle_free(o);
	CHECK(remove_tree(dir, &e) == 0);
}

static void test_build_error_text(void)
{
	char *s = oracle_build_error("make: Entering\nlib.c:3:1: warning: unused\nlib.c:7: error: no\nmain.c:9:2: fatal error: x.h: No such file\n");
	CHECK_STR(s, "lib.c:7: error: no\nmain.c:9:2: fatal error: x.h: No such file");
	free(s);
	/* The notes saying where a name was declared come with the errors (repair reads them). */
	s = oracle_build_error("m.c:5:9: error: too many arguments to function call, expected 1, have 2\n"
			       "c.h:3:5: note: 'clamp' declared here\n");
	CHECK_STR(s, "m.c:5:9: error: too many arguments to function call, expected 1, have 2\nc.h:3:5: note: 'clamp' declared here");
	free(s);
	/* So do the notes naming the macro an error came through. */
	s = oracle_build_error("m.c:6:23: error: too few arguments to function \xe2\x80\x98get\xe2\x80\x99\n"
			       "   6 |  fastget(1, 2, get, o);\n"
			       "m.c:2:40: note: in definition of macro \xe2\x80\x98" "fastget\xe2\x80\x99\n"
			       "m.c:1:5: note: declared here\n");
	CHECK_STR(s, "m.c:6:23: error: too few arguments to function \xe2\x80\x98get\xe2\x80\x99\n"
		     "m.c:2:40: note: in definition of macro \xe2\x80\x98" "fastget\xe2\x80\x99");
	free(s);
	s = oracle_build_error("step 1\nstep 2 failed\n\n  \n");
	CHECK_STR(s, "step 2 failed");
	free(s);
	s = oracle_build_error("/usr/bin/ld: t.o: in function `main':\nt.c:(.text+0x5): undefined reference to `f'\n"
			       "collect2: error: ld returned 1 exit status\n");
	CHECK_STR(s, "t.c:(.text+0x5): undefined reference to `f'");
	free(s);
	CHECK(oracle_build_error("") == NULL);
	CHECK(oracle_build_error("\n\n") == NULL);
}

int main(void)
{
	RUN(test_signatures);
	RUN(test_assertion);
	RUN(test_fail_pattern);
	RUN(test_identity);
	RUN(test_bad_pattern);
	RUN(test_judge);
	RUN(test_real_compiler);
	RUN(test_build_error_text);
	TEST_EXIT();
}
