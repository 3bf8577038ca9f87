#include "core/json.h"

#include <string.h>

/* Length of the valid UTF-8 sequence at p (0 if invalid). */
static size_t utf8_len(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	size_t n = (p[0] & 0xe0) == 0xc0 ? 2 : (p[0] & 0xf0) == 0xe0 ? 3 : (p[0] & 0xf8) == 0xf0 ? 4 : 0;
	if (n == 0 || (n == 2 && p[0] < 0xc2))
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

void json_str(struct buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	buf_addc(b, '"');
	while (*p) {
		switch (*p) {
		case '"': buf_adds(b, "\\\""); p++; continue;
		case '\\': buf_adds(b, "\\\\"); p++; continue;
		case '\n': buf_adds(b, "\\n"); p++; continue;
		case '\r': buf_adds(b, "\\r"); p++; continue;
		case '\t': buf_adds(b, "\\t"); p++; continue;
		default: break;
		}
		if (*p < 0x20) {
			buf_addf(b, "\\u%04x", *p);
			p++;
			continue;
		}
		size_t n = utf8_len(p);
		if (n == 0) {
			buf_adds(b, "\\ufffd");
			p++;
			continue;
		}
		buf_add(b, p, n);
		p += n;
	}
	buf_addc(b, '"');
}

void json_str_or_null(struct buf *b, const char *s)
{
	if (s)
		json_str(b, s);
	else
		buf_adds(b, "null");
}
