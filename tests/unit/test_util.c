/* Shared helpers that guard the user's input: the seconds parser, text made
 * safe for a terminal line, reading only regular files. */
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "tests/unit/test.h"

static void test_parse_seconds(void)
{
	double v = -1;
	CHECK(parse_seconds("60", &v) == 0 && v == 60);
	CHECK(parse_seconds("0.25", &v) == 0 && v == 0.25);
	CHECK(parse_seconds("1e3", &v) == 0 && v == 1000);
	static const char *bad[] = {"", "0", "-1", "nan", "NaN", "inf", "-inf", "infinity", "1e400", "1e-400",
				    "5s", " ", "0x", "1e9"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		v = 7;
		if (parse_seconds(bad[i], &v) == 0)
			printf("  accepted '%s'\n", bad[i]);
		CHECK(parse_seconds(bad[i], &v) < 0 && v == 7);
	}
}

static void test_sanitize(void)
{
	char s[] = "a\033[31mb\tc\nd\x7f" "e\xc2\x9b" "f\xc3\xa9";
	text_sanitize(s);
	CHECK_STR(s, "a?[31mb c d?e??f\xc3\xa9");
	struct cerr e;
	cerr_set(&e, "bad '%s'", "\033]0;x\007");
	CHECK_STR(e.msg, "bad '?]0;x?'");
}

/* The names NAME=value before a command sets: a letter or '_' first. */
static void test_shell_name(void)
{
	CHECK(shell_name("LIMIT=5", 5));
	CHECK(shell_name("_x1", 3));
	CHECK(!shell_name("1X", 2));
	CHECK(!shell_name("A-B", 3));
	CHECK(!shell_name("AB", 0));
}

static void test_read_regular_only(void)
{
	char dir[] = "/tmp/culprit-util.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char *fifo = xasprintf("%s/fifo", dir), *file = xasprintf("%s/file", dir);
	CHECK(mkfifo(fifo, 0600) == 0);
	struct buf b = BUF_INIT;
	struct cerr e;
	CHECK(file_read(fifo, &b, 100, &e) < 0 && strstr(e.msg, "not a regular file"));   /* no writer: no wait */
	CHECK(file_read(dir, &b, 100, &e) < 0 && strstr(e.msg, "is a directory"));
	CHECK(file_write_atomic(file, "hi\n", 3, 0644, &e) == 0);
	CHECK(file_read(file, &b, 100, &e) == 0 && b.len == 3 && !strcmp(b.s, "hi\n"));
	buf_release(&b);
	unlink(fifo);
	unlink(file);
	rmdir(dir);
	free(fifo);
	free(file);
}

/* Bit sets across a word boundary: invert flips exactly the n bits. */
static void test_bits(void)
{
	struct bits *b = bits_new(70);
	bits_set(b, 3);
	bits_set(b, 65);
	bits_invert(b);
	CHECK(bits_count(b) == 68 && !bits_test(b, 3) && !bits_test(b, 65) && bits_test(b, 0) && bits_test(b, 69));
	struct bits *c = bits_dup(b);
	bits_invert(c);
	bits_or(c, b);
	CHECK(bits_count(c) == 70);
	bits_zero(c);
	bits_fill(c);
	CHECK(bits_count(c) == 70 && bits_subset(b, c) && !bits_equal(b, c));
	bits_free(b);
	bits_free(c);
}

int main(void)
{
	alarm(60);   /* a read that blocks fails the test instead of hanging the suite */
	RUN(test_parse_seconds);
	RUN(test_sanitize);
	RUN(test_shell_name);
	RUN(test_read_regular_only);
	RUN(test_bits);
	TEST_EXIT();
}
