/* Names read from gcc's and clang's error messages. */
#include "test.h"
#include "core/isolate/repair.h"

static int has(char **names, const char *n)
{
	for (size_t i = 0; names[i]; i++)
		if (!strcmp(names[i], n))
			return 1;
	return 0;
}

static void test_gcc_messages(void)
{
	char **names;
	size_t n = repair_names("main.c:14:24: error: \xe2\x80\x98ITEM_LIMIT\xe2\x80\x99 undeclared (first use in this function)\n"
				"main.c:14:10: error: too many arguments to function \xe2\x80\x98" "clamp\xe2\x80\x99; expected 1, have 2\n"
				"util.c:9:9: error: implicit declaration of function \xe2\x80\x98" "at_most\xe2\x80\x99 [-Wimplicit-function-declaration]\n"
				"stats.c:6:10: error: \xe2\x80\x98struct stats\xe2\x80\x99 has no member named \xe2\x80\x98" "count\xe2\x80\x99\n"
				"util.c:3:5: error: conflicting types for 'clamp'\n", &names);
	CHECK(n == 4);
	CHECK(has(names, "ITEM_LIMIT") && has(names, "clamp") && has(names, "at_most") && has(names, "count"));
	repair_names_free(names);
}

static void test_clang_messages(void)
{
	char **names;
	size_t n = repair_names("main.c:14:24: error: use of undeclared identifier 'ITEM_LIMIT'\n"
				"main.c:14:21: error: too many arguments to function call, expected single argument 'v', have 2 arguments\n"
				"./config.h:10:5: note: 'clamp' declared here\n"
				"util.c:9:9: error: call to undeclared function 'at_most'; ISO C99 and later do not support implicit function declarations\n"
				"stats.c:6:5: error: no member named 'count' in 'struct stats'\n"
				"/usr/bin/ld: main.o: in function `main':\nmain.c:(.text+0x1e): undefined reference to `helper'\n", &names);
	CHECK(n == 5);
	CHECK(has(names, "ITEM_LIMIT") && has(names, "clamp") && has(names, "at_most") && has(names, "count") &&
	      has(names, "helper"));
	repair_names_free(names);
	/* Bytes that are not UTF-8 do not stop the reading. */
	n = repair_names("\xff\xfe x.c:1:1: error: unknown type name 'widget_t'\n", &names);
	CHECK(n == 1 && has(names, "widget_t"));
	repair_names_free(names);
}

int main(void)
{
	RUN(test_gcc_messages);
	RUN(test_clang_messages);
	TEST_EXIT();
}
