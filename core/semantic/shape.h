/* shape — generated tests in the suite's own shape. The program's
 * invocation is found inside the failing test's command (through sh -c,
 * wrappers, pipes, redirections, cd) or inside a script the command runs;
 * a new test is that command with only the program's inputs replaced (its
 * arguments, the environment variables it read where the command sets them
 * or set before it when they change, the file its standard input comes
 * from or the command that feeds it) and the expectation the suite wrote (a word equal to the good
 * revision's output, or a file holding it) replaced by the good revision's
 * behaviour on the new input. Files it needs are written next to the
 * session, named after the test. */
#ifndef CULPRIT_SHAPE_H
#define CULPRIT_SHAPE_H

#include <stddef.h>
#include "core/semantic/gen.h"
#include "core/util.h"

struct shape_sub {
	size_t off, len;        /* in text */
	int what;               /* SHAPE_ARG, SHAPE_ENV, SHAPE_ENV_ADD, SHAPE_STDIN_FILE, ... */
	size_t arg;             /* SHAPE_ARG: the argument's index; SHAPE_ENV*: the variable's */
};

/* SHAPE_ENV: a NAME=value word setting a variable the program read;
 * SHAPE_ENV_ADD: where to set one the command does not (before the
 * program's word), written only when its value changes. */
enum {
	SHAPE_ARG = 1, SHAPE_ENV, SHAPE_ENV_ADD, SHAPE_STDIN_FILE, SHAPE_STDIN_PIPE, SHAPE_STDIN_ADD, SHAPE_EXPECT,
	SHAPE_EXPECT_FILE
};

struct shape {
	char *cmd;              /* the failing test's command */
	char *text;             /* where the invocation is: cmd, or the script's contents */
	size_t script_off, script_len;   /* the script's word in cmd (len 0: none) */
	int script_run_by_sh;   /* the word follows sh/bash: replace it by a path only */
	int inline_text;        /* the word is sh -c's text: replace it by the new text */
	struct shape_sub *subs;
	size_t nsubs;
	int expects;            /* an expectation was found to replace */
	char **env;             /* the variables the run read, "NAME=value" as it had them */
	size_t nenv;
};

/* Find the invocation of the program that ran with argv (argc words) and
 * read the environment variables env ("NAME=value", nenv of them) in cmd
 * (run at the top of root); reads_stdin: the run read standard input;
 * good_out: what the good revision's program printed on standard output
 * for the original input. The standard input the command gives is kept
 * whether or not the run was seen reading it. 0, or -1 with a one-line
 * reason. */
int shape_find(struct shape *s, const char *cmd, const char *root, char *const *argv, size_t argc, char *const *env,
	       size_t nenv, int reads_stdin, const struct buf *good_out, struct cerr *e);
/* The original standard input, as the command gives it (a file or the
 * command that feeds the program, run in root); 0 when known. */
int shape_stdin(const struct shape *s, const char *root, struct buf *in);
/* The test for input g whose good run printed good_out: files go to
 * dir/NAME.* (dir absolute, ending in '/'). Caller frees. */
char *shape_render(const struct shape *s, const struct gen_input *g, const struct buf *good_out, const char *dir,
		   const char *name, struct cerr *e);
void shape_release(struct shape *s);

#endif
