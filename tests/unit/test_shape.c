/* Tests in the suite's own shape: the program's invocation found in the
 * failing test's command (sh -c, cd, pipes, redirections, wrappers,
 * scripts), only its inputs and the expectation replaced, and the result
 * run by the shell in a real directory. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/semantic/shape.h"
#include "tests/unit/test.h"

static char dir[256];

static int sh(const char *cmd)
{
	int rc = system(cmd);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void put(const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);
	CHECK(file_write_atomic(p, text, strlen(text), 0755, NULL) == 0);
	free(p);
}

static int passes(const char *cmd)
{
	char *c = xasprintf("cd '%s' && %s", dir, cmd);
	int rc = sh(c);
	free(c);
	return rc == 0;
}

static void test_shapes(void)
{
	/* A program that prints its arguments' sum, and standard input after. */
	put("prog", "#!/bin/sh\ns=0\nfor a in \"$@\"; do s=$((s + a)); done\necho $s\ncat\n");
	put("check.sh", "#!/bin/sh\nexp=$1\nshift\n[ \"$(./prog \"$@\" < /dev/null)\" = \"$exp\" ]\n");
	put("exp3.txt", "3\n");
	put("exp3ab.txt", "3\nab\n");
	put("run-test.sh", "#!/bin/sh\nout=$(./prog 1 2 < /dev/null)\n[ \"$out\" = 3 ]\n");
	char *mk = xasprintf("mkdir -p '%s/sub' && cp '%s/prog' '%s/sub/'", dir, dir, dir);
	CHECK(sh(mk) == 0);
	free(mk);
	char *a12[] = {"./prog", "1", "2"}, *a45[] = {"./prog", "4", "5"};
	char *t;

	/* sh -c with $(...) inside double quotes, the expected word replaced. */
	{
		struct shape s;
		struct buf o = BUF_INIT, o2 = BUF_INIT;
		buf_adds(&o, "3\n");
		buf_adds(&o2, "9\n");
		CHECK(shape_find(&s, "sh -c '[ \"$(./prog 1 2 < /dev/null)\" = 3 ]'", dir, a12, 3, NULL, 0, 0, &o, NULL) == 0);
		struct gen_input g = {.argv = a45, .argc = 3, .in = BUF_INIT, .dir = ".", .branch = 0, .varied = TRACE_NONE};
		char *files = xasprintf("%s/", dir);
		t = shape_render(&s, &g, &o2, files, "t1", NULL);
		CHECK_STR(t, "sh -c '[ \"$(./prog 4 5 < /dev/null)\" = 9 ]'");
		CHECK(t && passes(t));
		free(t);
		shape_release(&s);
		/* A wrapper: check.sh EXPECTED ARGS. */
		CHECK(shape_find(&s, "sh check.sh 3 1 2", dir, a12, 3, NULL, 0, 0, &o, NULL) == 0);
		t = shape_render(&s, &g, &o2, files, "t2", NULL);
		CHECK_STR(t, "sh check.sh 9 4 5");
		CHECK(t && passes(t));
		free(t);
		shape_release(&s);
		/* A pipe into cmp against an expected file: a new expected file. */
		CHECK(shape_find(&s, "./prog 1 2 < /dev/null | cmp -s - exp3.txt", dir, a12, 3, NULL, 0, 0, &o, NULL) == 0);
		t = shape_render(&s, &g, &o2, files, "t3", NULL);
		CHECK(t && strstr(t, "/t3.out") && passes(t));
		free(t);
		shape_release(&s);
		/* Standard input from a pipe: the feeding command becomes cat of a file. */
		buf_reset(&o);
		buf_adds(&o, "3\nab\n");
		CHECK(shape_find(&s, "printf 'ab\\n' | ./prog 1 2 | cmp -s - exp3ab.txt", dir, a12, 3, NULL, 0, 1, &o, NULL) == 0);
		struct buf in;
		CHECK(shape_stdin(&s, dir, &in) == 0 && in.len == 3 && !memcmp(in.s, "ab\n", 3));
		buf_release(&in);
		buf_adds(&g.in, "cd\n");
		buf_reset(&o2);
		buf_adds(&o2, "9\ncd\n");
		t = shape_render(&s, &g, &o2, files, "t4", NULL);
		if (getenv("VERBOSE"))
			printf("  %s\n", t);
		CHECK(t && !strncmp(t, "cat ", 4) && strstr(t, "/t4.in | ./prog 4 5 | cmp -s - ") && strstr(t, "/t4.out") &&
		      passes(t));
		free(t);
		shape_release(&s);
		/* Standard input from a file. */
		put("in.txt", "ab\n");
		CHECK(shape_find(&s, "[ \"$(./prog 1 2 < in.txt)\" = \"$(printf '3\\nab')\" ]", dir, a12, 3, NULL, 0, 1, &o, NULL) ==
		      0);
		CHECK(shape_stdin(&s, dir, &in) == 0 && in.len == 3);
		buf_release(&in);
		shape_release(&s);
		/* In a script the command runs: a copy of the script. */
		buf_reset(&o);
		buf_adds(&o, "3\n");
		buf_reset(&o2);
		buf_adds(&o2, "9\n");
		buf_reset(&g.in);
		CHECK(shape_find(&s, "./run-test.sh", dir, a12, 3, NULL, 0, 0, &o, NULL) == 0);
		t = shape_render(&s, &g, &o2, files, "t5", NULL);
		if (getenv("VERBOSE"))
			printf("  %s\n", t);
		CHECK(t && !strncmp(t, "sh ", 3) && strstr(t, "/t5.sh") && passes(t));
		free(t);
		shape_release(&s);
		/* Not there: a reason. */
		struct cerr e = {0};
		CHECK(shape_find(&s, "./other 7", dir, a12, 3, NULL, 0, 0, &o, &e) < 0 && strstr(e.msg, "do not appear"));
		buf_release(&g.in);
		buf_release(&o);
		buf_release(&o2);
		free(files);
	}
}

/* The environment variables the program read: the word that sets one is
 * replaced; one the command does not set is set before the program when
 * its value changes, and left to the environment when it does not. */
static void test_environment(void)
{
	put("penv", "#!/bin/sh\necho $((${LIMIT:-0} + $1))\n");
	char *a1[] = {"./penv", "1"}, *a2[] = {"./penv", "2"}, *env5[] = {"LIMIT=5"}, *env7[] = {"LIMIT=7"};
	struct gen_input g = {.argv = a2, .argc = 2, .env = env7, .nenv = 1, .in = BUF_INIT, .dir = ".",
			      .branch = 0, .varied = TRACE_NONE};
	struct buf o = BUF_INIT, o2 = BUF_INIT;
	buf_adds(&o, "6\n");
	buf_adds(&o2, "9\n");
	char *files = xasprintf("%s/", dir), *t;
	struct shape s;
	CHECK(shape_find(&s, "[ \"$(LIMIT=5 ./penv 1)\" = 6 ]", dir, a1, 2, env5, 1, 0, &o, NULL) == 0);
	t = shape_render(&s, &g, &o2, files, "e1", NULL);
	CHECK_STR(t, "[ \"$(LIMIT=7 ./penv 2)\" = 9 ]");
	CHECK(t && passes(t));
	free(t);
	shape_release(&s);
	CHECK(shape_find(&s, "export LIMIT='5'; [ \"$(./penv 1)\" = 6 ]", dir, a1, 2, env5, 1, 0, &o, NULL) == 0);
	t = shape_render(&s, &g, &o2, files, "e2", NULL);
	CHECK_STR(t, "export LIMIT=7; [ \"$(./penv 2)\" = 9 ]");
	CHECK(t && passes(t));
	free(t);
	shape_release(&s);
	/* Set outside the command (the suite's environment). */
	CHECK(shape_find(&s, "[ \"$(./penv 1)\" = 6 ]", dir, a1, 2, env5, 1, 0, &o, NULL) == 0);
	t = shape_render(&s, &g, &o2, files, "e3", NULL);
	CHECK_STR(t, "[ \"$(LIMIT=7 ./penv 2)\" = 9 ]");
	CHECK(t && passes(t));
	free(t);
	g.env = env5;
	buf_reset(&o2);
	buf_adds(&o2, "7\n");
	t = shape_render(&s, &g, &o2, files, "e4", NULL);
	CHECK_STR(t, "[ \"$(./penv 2)\" = 7 ]");
	free(t);
	shape_release(&s);
	buf_release(&o);
	buf_release(&o2);
	free(files);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/culprit-shape.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	RUN(test_shapes);
	RUN(test_environment);
	if (!getenv("KEEP"))
		remove_tree(dir, NULL);
	TEST_EXIT();
}
