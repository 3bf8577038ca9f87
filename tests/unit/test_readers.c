/* The readers of files that live under <gitdir>/culprit/ and can be damaged
 * (the trace, its metadata): bad input is an error, never a read past the
 * input, a wild write or a leak. Inputs sit at the very end of a mapping
 * followed by an inaccessible page, so an over-read crashes here even
 * without AddressSanitizer. */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/semantic/tmeta.h"
#include "core/semantic/trace.h"
#include "tests/unit/test.h"

struct guarded {
	char *map, *data;
	size_t maplen;
};

static void guarded_new(struct guarded *g, const void *data, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t pages = (len + page - 1) / page + 1;
	g->maplen = (pages + 1) * page;
	g->map = mmap(NULL, g->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g->map == MAP_FAILED)
		abort();
	mprotect(g->map + pages * page, page, PROT_NONE);
	g->data = g->map + pages * page - len;
	memcpy(g->data, data, len);
}

static void guarded_free(struct guarded *g)
{
	munmap(g->map, g->maplen);
}

static void test_trace_chunk_size_checked(void)
{
	/* One chunk header (kind 1 = PID) that claims one event, and no event. */
	static const unsigned char in[24] = {1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
	struct tmeta m;
	struct cerr e;
	CHECK(tmeta_parse(&m, "", 0, &e) == 0);
	struct guarded g;
	guarded_new(&g, in, sizeof(in));
	struct trace t;
	CHECK(trace_parse(&t, g.data, sizeof(in), &m, &e) < 0 && strstr(e.msg, "damaged"));
	guarded_free(&g);
	tmeta_release(&m);
}

static void test_tmeta_tree_cut_short(void)
{
	/* A write site whose tree is a lone "(" at the end of the line. */
	static const char in[] = "W\t1\t0\ti32\tx\t(";
	struct guarded g;
	guarded_new(&g, in, sizeof(in) - 1);
	struct tmeta m;
	struct cerr e;
	CHECK(tmeta_parse(&m, g.data, sizeof(in) - 1, &e) < 0 && strstr(e.msg, "line 1"));
	guarded_free(&g);
}

static void test_tmeta_bad_ids(void)
{
	/* Negative and huge ids are malformed, not an index far off the table. */
	static const char *bad[] = {"S\t-1\t0\t1\t0\t0\t0\texpr\tx\n", "S\t4294967295\t0\t1\t0\t0\t0\texpr\tx\n",
				    "N\t99999999999\t0\t1\tf\ti32\n", "S\tx\t0\t1\t0\t0\t0\texpr\tx\n"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct tmeta m;
		struct cerr e;
		CHECK(tmeta_parse(&m, bad[i], strlen(bad[i]), &e) < 0 && strstr(e.msg, "line 1"));
	}
}

static void test_tmeta_repeated_id(void)
{
	/* The second definition of site 1 replaces the first (under the leak
	 * checker, the first's strings must not be lost). */
	static const char in[] = "S\t1\t0\t1\t0\t0\t4\texpr\tx = 1;\nS\t1\t0\t2\t0\t0\t4\tdecl\ty = 2;\n"
				 "C\t2\t1\tf\ti32\t1\tputs\nC\t2\t1\tg\ti32\t2\t-\n";
	struct tmeta m;
	struct cerr e;
	CHECK(tmeta_parse(&m, in, strlen(in), &e) == 0);
	const struct msite *s = tmeta_site(&m, 1);
	CHECK(s && s->line == 2 && !strcmp(s->text, "y = 2;") && !strcmp(s->kindname, "decl"));
	const struct msite *c = tmeta_site(&m, 2);
	CHECK(c && c->nargs == 2 && !strcmp(c->name, "g") && c->out == NULL);
	tmeta_release(&m);
}

int main(void)
{
	RUN(test_trace_chunk_size_checked);
	RUN(test_tmeta_tree_cut_short);
	RUN(test_tmeta_bad_ids);
	RUN(test_tmeta_repeated_id);
	TEST_EXIT();
}
