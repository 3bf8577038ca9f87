/* How the trace pane shows values: the instrumenter records, from
 * libclang, which written values are plain chars and which are enums (with
 * their constants), and tmeta_show_value prints them as a C developer
 * reads them. */
#include "tests/unit/test.h"

#include <stdlib.h>
#include <string.h>

#include "core/semantic/instr.h"
#include "core/semantic/tmeta.h"

static const char program[] =
	"enum tok { T_NUM, T_PLUS = 5, T_END };\n"
	"typedef enum tok tok_t;\n"
	"static tok_t kind(char c) { return c == '+' ? T_PLUS : T_NUM; }\n"
	"int main(void) {\n"
	"\tchar c = '4';\n"
	"\tsigned char s = 52;\n"
	"\ttok_t t = kind(c);\n"
	"\tint n = 52;\n"
	"\tc = 'x';\n"
	"\tt = T_END;\n"
	"\treturn n + s + t;\n"
	"}\n";

/* The write site of name's nth write (0-based), or NULL. */
static const struct msite *write_of(const struct tmeta *m, const char *name, int nth)
{
	for (unsigned i = 0; i < m->nids; i++)
		if (m->site[i].kind == 'W' && !strcmp(m->site[i].name, name) && nth-- == 0)
			return &m->site[i];
	return NULL;
}

static const char *shown(const struct msite *s, unsigned long long v, int sgn)
{
	static char out[64];
	struct buf b = BUF_INIT;
	tmeta_show_value(s, v, sgn, &b);
	snprintf(out, sizeof(out), "%s", b.s ? b.s : "");
	buf_release(&b);
	return out;
}

static void test_char_and_enum(void)
{
	char dir[] = "/tmp/culprit-tshow.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char *src = xasprintf("%s/p.c", dir);
	struct cerr e;
	CHECK(file_write_atomic(src, program, strlen(program), 0644, &e) == 0);
	struct buf out = BUF_INIT, meta = BUF_INIT;
	unsigned next = 1;
	struct instr_stats st = {0};
	CHECK(instr_file(src, "p.c", NULL, 0, 0, NULL, 0, &next, &out, &meta, &st, &e) == 0);
	struct tmeta m;
	CHECK(tmeta_parse(&m, meta.s ? meta.s : "", meta.len, &e) == 0);
	const struct msite *c0 = write_of(&m, "c", 0), *c1 = write_of(&m, "c", 1), *s = write_of(&m, "s", 0);
	const struct msite *t0 = write_of(&m, "t", 0), *t1 = write_of(&m, "t", 1), *n = write_of(&m, "n", 0);
	CHECK(c0 && c1 && s && t0 && t1 && n);
	if (c0 && c1 && s && t0 && t1 && n) {
		CHECK(!strcmp(shown(c0, 52, 1), "'4'"));
		CHECK(!strcmp(shown(c1, 'x', 1), "'x'"));
		CHECK(!strcmp(shown(c1, '\n', 1), "'\\n'"));
		CHECK(!strcmp(shown(c1, 0, 1), "'\\0'"));
		CHECK(!strcmp(shown(c1, 200, 0), "'\\xc8'"));
		CHECK(!strcmp(shown(s, 52, 1), "52"));      /* signed char is a number */
		CHECK(!strcmp(shown(n, 52, 1), "52"));
		CHECK(!strcmp(shown(t0, 0, 0), "T_NUM"));
		CHECK(!strcmp(shown(t0, 5, 0), "T_PLUS"));
		CHECK(!strcmp(shown(t1, 6, 0), "T_END"));
		CHECK(!strcmp(shown(t1, 9, 0), "9"));       /* no constant: the number */
	}
	/* The function kind returns an enum: its N site says so. */
	int ret_enum = 0;
	for (unsigned i = 0; i < m.nids; i++)
		if (m.site[i].kind == 'N' && !strcmp(m.site[i].name, "kind"))
			ret_enum = !strcmp(shown(&m.site[i], 5, 0), "T_PLUS");
	CHECK(ret_enum);
	tmeta_release(&m);
	buf_release(&out);
	buf_release(&meta);
	char *rm = xasprintf("rm -rf %s", dir);
	CHECK(system(rm) == 0);
	free(rm);
	free(src);
}

int main(void)
{
	RUN(test_char_and_enum);
	TEST_EXIT();
}
