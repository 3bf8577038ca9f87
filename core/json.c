#include "core/json.h"

#include <stdlib.h>
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

void json_str_array(struct buf *b, char *const *v, size_t n)
{
	buf_adds(b, "[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_adds(b, ", ");
		json_str(b, v[i]);
	}
	buf_adds(b, "]");
}

/* ------------------------------------------------------------- reading */

#define JSON_MAX_DEPTH 64

struct reader {
	const char *p, *end, *start;
	struct cerr *e;
	int failed;
};

static void *rfail(struct reader *r, const char *what)
{
	if (!r->failed)
		cerr_set(r->e, "offset %zu: %s", (size_t)(r->p - r->start), what);
	r->failed = 1;
	return NULL;
}

static void skip_ws(struct reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static int hex4(struct reader *r, unsigned *out)
{
	if (r->end - r->p < 4)
		return -1;
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = r->p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	r->p += 4;
	*out = v;
	return 0;
}

static void put_utf8(struct buf *b, unsigned c)
{
	if (c < 0x80) {
		buf_addc(b, (char)c);
	} else if (c < 0x800) {
		buf_addc(b, (char)(0xc0 | (c >> 6)));
		buf_addc(b, (char)(0x80 | (c & 0x3f)));
	} else if (c < 0x10000) {
		buf_addc(b, (char)(0xe0 | (c >> 12)));
		buf_addc(b, (char)(0x80 | ((c >> 6) & 0x3f)));
		buf_addc(b, (char)(0x80 | (c & 0x3f)));
	} else {
		buf_addc(b, (char)(0xf0 | (c >> 18)));
		buf_addc(b, (char)(0x80 | ((c >> 12) & 0x3f)));
		buf_addc(b, (char)(0x80 | ((c >> 6) & 0x3f)));
		buf_addc(b, (char)(0x80 | (c & 0x3f)));
	}
}

/* A string literal at r->p (the opening quote); its text in out. */
static int read_string(struct reader *r, struct buf *out)
{
	r->p++;
	while (r->p < r->end && *r->p != '"') {
		unsigned char c = (unsigned char)*r->p;
		if (c < 0x20)
			return rfail(r, "control character in a string"), -1;
		if (c != '\\') {
			buf_addc(out, (char)c);
			r->p++;
			continue;
		}
		if (++r->p >= r->end)
			break;
		char esc = *r->p++;
		unsigned u;
		switch (esc) {
		case '"': buf_addc(out, '"'); break;
		case '\\': buf_addc(out, '\\'); break;
		case '/': buf_addc(out, '/'); break;
		case 'b': buf_addc(out, '\b'); break;
		case 'f': buf_addc(out, '\f'); break;
		case 'n': buf_addc(out, '\n'); break;
		case 'r': buf_addc(out, '\r'); break;
		case 't': buf_addc(out, '\t'); break;
		case 'u':
			if (hex4(r, &u) < 0)
				return rfail(r, "bad \\u escape"), -1;
			if (u >= 0xd800 && u < 0xdc00) {
				unsigned lo;
				if (r->end - r->p >= 6 && r->p[0] == '\\' && r->p[1] == 'u') {
					r->p += 2;
					if (hex4(r, &lo) < 0 || lo < 0xdc00 || lo > 0xdfff)
						return rfail(r, "bad surrogate pair"), -1;
					u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
				} else {
					u = 0xfffd;
				}
			} else if (u >= 0xdc00 && u < 0xe000) {
				u = 0xfffd;
			}
			put_utf8(out, u);
			break;
		default:
			return rfail(r, "bad escape"), -1;
		}
	}
	if (r->p >= r->end)
		return rfail(r, "unterminated string"), -1;
	r->p++;
	return 0;
}

static struct json *read_value(struct reader *r, int depth);

static struct json *add_kid(struct json *j, struct json *kid, char *key)
{
	if ((j->n & (j->n - 1)) == 0) {   /* grow at powers of two */
		size_t cap = j->n ? j->n * 2 : 4;
		j->kids = xrealloc(j->kids, cap * sizeof(*j->kids));
		if (j->type == JSON_OBJECT)
			j->keys = xrealloc(j->keys, cap * sizeof(*j->keys));
	}
	j->kids[j->n] = kid;
	if (j->type == JSON_OBJECT)
		j->keys[j->n] = key;
	j->n++;
	return j;
}

static struct json *read_container(struct reader *r, int depth, enum json_type type)
{
	char close = type == JSON_ARRAY ? ']' : '}';
	struct json *j = xcalloc(1, sizeof(*j));
	j->type = type;
	r->p++;
	skip_ws(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return j;
	}
	for (;;) {
		char *key = NULL;
		skip_ws(r);
		if (type == JSON_OBJECT) {
			struct buf k = BUF_INIT;
			if (r->p >= r->end || *r->p != '"' || read_string(r, &k) < 0) {
				buf_release(&k);
				rfail(r, "expected a member name");
				json_free(j);
				return NULL;
			}
			key = buf_detach(&k);
			skip_ws(r);
			if (r->p >= r->end || *r->p != ':') {
				free(key);
				rfail(r, "expected ':'");
				json_free(j);
				return NULL;
			}
			r->p++;
		}
		struct json *v = read_value(r, depth + 1);
		if (!v) {
			free(key);
			json_free(j);
			return NULL;
		}
		add_kid(j, v, key);
		skip_ws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			return j;
		}
		rfail(r, type == JSON_ARRAY ? "expected ',' or ']'" : "expected ',' or '}'");
		json_free(j);
		return NULL;
	}
}

static struct json *read_value(struct reader *r, int depth)
{
	if (depth > JSON_MAX_DEPTH)
		return rfail(r, "nested too deeply");
	skip_ws(r);
	if (r->p >= r->end)
		return rfail(r, "unexpected end");
	char c = *r->p;
	if (c == '{')
		return read_container(r, depth, JSON_OBJECT);
	if (c == '[')
		return read_container(r, depth, JSON_ARRAY);
	if (c == '"') {
		struct buf s = BUF_INIT;
		if (read_string(r, &s) < 0) {
			buf_release(&s);
			return NULL;
		}
		struct json *j = xcalloc(1, sizeof(*j));
		j->type = JSON_STRING;
		j->len = s.len;
		j->str = buf_detach(&s);
		return j;
	}
	static const struct { const char *word; enum json_type type; } words[] = {
		{"null", JSON_NULL}, {"false", JSON_FALSE}, {"true", JSON_TRUE}};
	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(words[i].word);
		if ((size_t)(r->end - r->p) >= n && !memcmp(r->p, words[i].word, n)) {
			r->p += n;
			struct json *j = xcalloc(1, sizeof(*j));
			j->type = words[i].type;
			return j;
		}
	}
	if (c == '-' || (c >= '0' && c <= '9')) {
		char tmp[64];
		size_t n = 0;
		while (r->p + n < r->end && n < sizeof(tmp) - 1 && strchr("+-0123456789.eE", r->p[n]))
			n++;
		memcpy(tmp, r->p, n);
		tmp[n] = '\0';
		char *endp;
		double v = strtod(tmp, &endp);
		if (endp != tmp + n || n == 0)
			return rfail(r, "bad number");
		r->p += n;
		struct json *j = xcalloc(1, sizeof(*j));
		j->type = JSON_NUMBER;
		j->num = v;
		return j;
	}
	return rfail(r, "unexpected character");
}

struct json *json_parse(const char *text, size_t len, struct cerr *e)
{
	struct reader r = {text, text + len, text, e, 0};
	struct json *j = read_value(&r, 0);
	if (!j)
		return NULL;
	skip_ws(&r);
	if (r.p != r.end) {
		rfail(&r, "trailing characters");
		json_free(j);
		return NULL;
	}
	return j;
}

void json_free(struct json *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->n; i++) {
		json_free(j->kids[i]);
		if (j->keys)
			free(j->keys[i]);
	}
	free(j->kids);
	free(j->keys);
	free(j->str);
	free(j);
}

const struct json *json_get(const struct json *obj, const char *key)
{
	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->kids[i];
	return NULL;
}

char *json_get_str(const struct json *o, const char *k)
{
	const struct json *v = json_get(o, k);
	return v && v->type == JSON_STRING ? xstrdup(v->str) : NULL;
}

double json_get_num(const struct json *o, const char *k)
{
	const struct json *v = json_get(o, k);
	return v && v->type == JSON_NUMBER ? v->num : 0;
}
