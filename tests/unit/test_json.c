/* json: string escaping. */
#include "core/json.h"
#include "tests/unit/test.h"

static char *esc(const char *s)
{
	struct buf b = BUF_INIT;
	json_str(&b, s);
	return buf_detach(&b);
}

static void test_escapes(void)
{
	char *s;
	CHECK_STR(s = esc("plain"), "\"plain\"");
	free(s);
	CHECK_STR(s = esc("a\"b\\c"), "\"a\\\"b\\\\c\"");
	free(s);
	CHECK_STR(s = esc("tab\there\nnl\r"), "\"tab\\there\\nnl\\r\"");
	free(s);
	CHECK_STR(s = esc("\x01\x1f"), "\"\\u0001\\u001f\"");
	free(s);
}

static void test_utf8(void)
{
	char *s;
	CHECK_STR(s = esc("caf\xc3\xa9 \xe2\x86\x92"), "\"caf\xc3\xa9 \xe2\x86\x92\"");
	free(s);
	/* Invalid bytes are replaced, never copied through. */
	CHECK_STR(s = esc("x\xff\xc3y"), "\"x\\ufffd\\ufffdy\"");
	free(s);
	CHECK_STR(s = esc("\xc0\xaf"), "\"\\ufffd\\ufffd\"");
	free(s);
}

static void test_null(void)
{
	struct buf b = BUF_INIT;
	json_str_or_null(&b, NULL);
	CHECK_STR(b.s, "null");
	buf_release(&b);
}

int main(void)
{
	RUN(test_escapes);
	RUN(test_utf8);
	RUN(test_null);
	TEST_EXIT();
}
