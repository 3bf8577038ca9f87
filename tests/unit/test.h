/* A tiny unit-test harness: each CHECK that fails prints "FAIL name: file:line: expr";
 * every test function prints "ok name" or "FAIL name"; tests/run.sh counts them. */
#ifndef CULPRIT_TEST_H
#define CULPRIT_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failed_now;
static int test_failures;

#define CHECK(expr)                                                                     \
	do {                                                                            \
		if (!(expr)) {                                                          \
			printf("  check failed: %s:%d: %s\n", __FILE__, __LINE__, #expr); \
			test_failed_now = 1;                                            \
		}                                                                       \
	} while (0)

#define CHECK_STR(a, b)                                                                 \
	do {                                                                            \
		const char *a_ = (a), *b_ = (b);                                        \
		if (!a_ || !b_ || strcmp(a_, b_)) {                                     \
			printf("  check failed: %s:%d: %s == %s (\"%s\" vs \"%s\")\n",   \
			       __FILE__, __LINE__, #a, #b, a_ ? a_ : "(null)",            \
			       b_ ? b_ : "(null)");                                     \
			test_failed_now = 1;                                            \
		}                                                                       \
	} while (0)

#define RUN(fn)                                                                         \
	do {                                                                            \
		test_failed_now = 0;                                                    \
		fn();                                                                   \
		printf("%s %s\n", test_failed_now ? "FAIL" : "ok", #fn);                \
		fflush(stdout);                                                         \
		test_failures += test_failed_now;                                       \
	} while (0)

#define TEST_EXIT() return test_failures ? 1 : 0

#endif
