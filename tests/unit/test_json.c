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

static void test_array(void)
{
	char *v[] = {"a", "b\"c"};
	struct buf b = BUF_INIT;
	json_str_array(&b, v, 0);
	buf_adds(&b, " ");
	json_str_array(&b, v, 2);
	CHECK_STR(b.s, "[] [\"a\", \"b\\\"c\"]");
	buf_release(&b);
}

static void test_parse(void)
{
	struct cerr e;
	const char *t = "{\"files\": [{\"file\": \"a.c\", \"lines\": [{\"line_number\": 3, \"count\": 2}, "
			"{\"line_number\": 4, \"count\": 0}]}], \"ok\": true, \"no\": null, \"f\": -1.5e2,"
			" \"s\": \"q\\\"\\u00e9\\ud83d\\ude00\\n\"}";
	struct json *j = json_parse(t, strlen(t), &e);
	CHECK(j != NULL);
	if (!j)
		return;
	const struct json *files = json_get(j, "files");
	CHECK(files && files->type == JSON_ARRAY && files->n == 1);
	const struct json *lines = json_get(files->kids[0], "lines");
	CHECK(lines && lines->n == 2);
	CHECK(json_get(lines->kids[0], "line_number")->num == 3);
	CHECK(json_get(lines->kids[1], "count")->num == 0);
	CHECK_STR(json_get(files->kids[0], "file")->str, "a.c");
	CHECK(json_get(j, "ok")->type == JSON_TRUE);
	CHECK(json_get(j, "no")->type == JSON_NULL);
	CHECK(json_get(j, "f")->num == -150);
	CHECK_STR(json_get(j, "s")->str, "q\"\xc3\xa9\xf0\x9f\x98\x80\n");
	CHECK(json_get(j, "missing") == NULL);
	json_free(j);
}

static void test_parse_errors(void)
{
	struct cerr e;
	const char *bad[] = {"", "{", "[1,]", "{\"a\" 1}", "\"open", "[1] x", "tru", "{1: 2}", "\"\\x\"", "[\"\x01\"]"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct json *j = json_parse(bad[i], strlen(bad[i]), &e);
		CHECK(j == NULL);
		CHECK(strncmp(e.msg, "offset ", 7) == 0);
		json_free(j);
	}
	/* Deep nesting is refused, not a stack overflow. */
	struct buf b = BUF_INIT;
	for (int i = 0; i < 10000; i++)
		buf_addc(&b, '[');
	CHECK(json_parse(b.s, b.len, &e) == NULL);
	CHECK(strstr(e.msg, "nested too deeply") != NULL);
	buf_release(&b);
}

int main(void)
{
	RUN(test_array);
	RUN(test_parse);
	RUN(test_parse_errors);
	RUN(test_escapes);
	RUN(test_utf8);
	RUN(test_null);
	TEST_EXIT();
}
