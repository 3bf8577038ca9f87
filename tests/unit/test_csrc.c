/* csrc: functions, branches and what each arm may assign, with libclang. */
#include <stdlib.h>
#include <string.h>

#include "core/semantic/csrc.h"
#include "tests/unit/test.h"

static char dir[256];

static const char source[] =
	"#include \"defs.h\"\n"                       /* 1 */
	"struct acc { int total; int items[4]; };\n"  /* 2 */
	"static int scale(int x)\n"                   /* 3 */
	"{\n"                                         /* 4 */
	"\treturn x * FACTOR;\n"                      /* 5 */
	"}\n"                                         /* 6 */
	"int run(struct acc *a, int n)\n"             /* 7 */
	"{\n"                                         /* 8 */
	"\tint lhs = 0, rhs = 1;\n"                   /* 9 */
	"\tif (n > 2)\n"                              /* 10 */
	"\t\tlhs += rhs;\n"                           /* 11 */
	"\telse {\n"                                  /* 12 */
	"\t\ta->total = scale(n);\n"                  /* 13 */
	"\t\ta->items[1]++;\n"                        /* 14 */
	"\t}\n"                                       /* 15 */
	"\tfor (int i = 0; i < n; i++)\n"             /* 16 */
	"\t\trhs = rhs * 2;\n"                        /* 17 */
	"\twhile (lhs < 10)\n"                        /* 18 */
	"\t\t--lhs;\n"                                /* 19 */
	"\tswitch (n) {\n"                            /* 20 */
	"\tcase 1: rhs = 3; break;\n"                 /* 21 */
	"\tdefault: break;\n"                         /* 22 */
	"\t}\n"                                       /* 23 */
	"\treturn n ? (lhs = 1) : rhs;\n"             /* 24 */
	"}\n";                                        /* 25 */

static const struct csrc_branch *branch_at(const struct csrc_file *f, int line)
{
	for (size_t i = 0; i < f->nbranches; i++)
		if (f->branches[i].line == line)
			return &f->branches[i];
	return NULL;
}

static void write_file(const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);
	struct cerr e;
	file_write_atomic(p, text, strlen(text), 0644, &e);
	free(p);
}

static void test_functions_and_branches(void)
{
	struct csrc_file f;
	struct cerr e;
	char *path = xasprintf("%s/run.c", dir);
	char *inc = xasprintf("-I%s/include", dir);
	const char *args[] = {inc};
	CHECK(csrc_parse(&f, path, args, 1, &e) == 0);
	CHECK(f.nfuncs == 2);
	const struct csrc_function *fn = csrc_function_at(&f, 13);
	CHECK(fn && !strcmp(fn->name, "run") && fn->start_line == 7 && fn->end_line == 25);
	fn = csrc_function_at(&f, 5);
	CHECK(fn && !strcmp(fn->name, "scale"));
	CHECK(csrc_function_at(&f, 2) == NULL);

	const struct csrc_branch *b = branch_at(&f, 10);
	CHECK(b && b->kind == CSRC_IF);
	CHECK(b && csrc_names_has(&b->then_arm, "lhs") && b->then_arm.n == 1);
	CHECK(b && csrc_names_has(&b->else_arm, "a") && b->else_arm.n == 1);   /* a->total, a->items[1]++ */
	b = branch_at(&f, 16);
	CHECK(b && b->kind == CSRC_FOR && csrc_names_has(&b->then_arm, "rhs") && csrc_names_has(&b->then_arm, "i"));
	b = branch_at(&f, 18);
	CHECK(b && b->kind == CSRC_WHILE && csrc_names_has(&b->then_arm, "lhs") && b->then_arm.n == 1);
	b = branch_at(&f, 20);
	CHECK(b && b->kind == CSRC_SWITCH && csrc_names_has(&b->then_arm, "rhs"));
	b = branch_at(&f, 24);
	CHECK(b && b->kind == CSRC_CONDITIONAL && csrc_names_has(&b->then_arm, "lhs") && b->else_arm.n == 0);
	csrc_release(&f);
	free(path);
	free(inc);
}

static void test_compilation_database(void)
{
	char *db = xasprintf("[{\"directory\": \"%s\", \"command\": \"cc -I%s/include -DEXTRA=1 -c -o run.o run.c\","
			     " \"file\": \"%s/run.c\"}]", dir, dir, dir);
	write_file("compile_commands.json", db);
	free(db);
	char **args;
	int n;
	struct cerr e;
	char *path = xasprintf("%s/run.c", dir);
	CHECK(csrc_flags(dir, path, &args, &n, &e) == 1);
	CHECK(n == 3);
	if (n == 3) {
		CHECK(!strncmp(args[0], "-working-directory=", 19));   /* relative paths are the entry's */
		CHECK(!strncmp(args[1], "-I", 2));
		CHECK_STR(args[2], "-DEXTRA=1");
	}
	struct csrc_file f;
	CHECK(csrc_parse(&f, path, (const char *const *)args, n, &e) == 0);
	CHECK(f.nfuncs == 2);
	csrc_release(&f);
	csrc_args_free(args, n);
	char *other = xasprintf("%s/other.c", dir);
	CHECK(csrc_flags(dir, other, &args, &n, &e) == 0);
	CHECK(csrc_flags("/nonexistent", path, &args, &n, &e) == 0);
	free(other);
	/* "arguments" instead of "command", with quoting. */
	db = xasprintf("[{\"directory\": \"%s\", \"arguments\": [\"gcc\", \"-DMSG=\\\"a b\\\"\", \"-c\", \"run.c\"],"
		       " \"file\": \"run.c\"}]", dir);
	write_file("compile_commands.json", db);
	free(db);
	CHECK(csrc_flags(dir, path, &args, &n, &e) == 1);
	CHECK(n == 2 && !strcmp(args[1], "-DMSG=\"a b\""));
	csrc_args_free(args, n);
	write_file("compile_commands.json", "{not json");
	CHECK(csrc_flags(dir, path, &args, &n, &e) < 0);
	CHECK(strstr(e.msg, "not a compilation database") != NULL);
	free(path);
}

static void test_unreadable(void)
{
	struct csrc_file f;
	struct cerr e;
	CHECK(csrc_parse(&f, "/no/such/file.c", NULL, 0, &e) < 0);
	CHECK(strstr(e.msg, "/no/such/file.c") != NULL);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/culprit-csrc.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	char *incdir = xasprintf("%s/include", dir);
	mkdir_p(incdir, 0755, NULL);
	free(incdir);
	write_file("include/defs.h", "#define FACTOR 2\n");
	write_file("run.c", source);
	RUN(test_functions_and_branches);
	RUN(test_compilation_database);
	RUN(test_unreadable);
	remove_tree(dir, NULL);
	TEST_EXIT();
}
