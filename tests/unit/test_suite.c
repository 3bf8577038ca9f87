/* suite: the suite file's syntax and its errors. */
#include <string.h>

#include "core/spectrum/suite.h"
#include "tests/unit/test.h"

static void test_parse(void)
{
	struct suite s;
	struct cerr e;
	CHECK(suite_parse(&s, "# the suite\n\nt1 ./run.sh 1\n  t2\t./run.sh  2 # not a comment \r\n"
			      "   # indented comment\nt3 sh -c 'exit 0'", "x.list", &e) == 0);
	CHECK(s.n == 3);
	CHECK_STR(s.v[0].name, "t1");
	CHECK_STR(s.v[0].cmd, "./run.sh 1");
	CHECK(s.v[0].line == 3);
	CHECK_STR(s.v[1].name, "t2");
	CHECK_STR(s.v[1].cmd, "./run.sh  2 # not a comment");
	CHECK_STR(s.v[2].cmd, "sh -c 'exit 0'");
	CHECK(s.v[2].line == 6);
	suite_release(&s);
}

static void test_errors(void)
{
	struct suite s;
	struct cerr e;
	CHECK(suite_parse(&s, "t1 a\nt2\n", "x.list", &e) < 0);
	CHECK_STR(e.msg, "x.list:2: test 't2' has no command");
	CHECK(suite_parse(&s, "t1 a\n# c\nt1 b\n", "x.list", &e) < 0);
	CHECK_STR(e.msg, "x.list:3: duplicate test name 't1' (first on line 1)");
	CHECK(suite_parse(&s, "# only comments\n\n", "x.list", &e) < 0);
	CHECK_STR(e.msg, "x.list: no test in the suite");
	CHECK(suite_load(&s, "/no/such/suite.list", &e) < 0);
	CHECK(strncmp(e.msg, "/no/such/suite.list: ", 21) == 0);
}

int main(void)
{
	RUN(test_parse);
	RUN(test_errors);
	TEST_EXIT();
}
