#include "core/semantic/refine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "p.c:12" from glibc's "prog: p.c:12: main: Assertion `x' failed." */
static char *assert_site(const struct buf *out)
{
	const char *a = out->s ? strstr(out->s, ": Assertion `") : NULL;
	if (!a)
		return NULL;
	const char *line = a;
	while (line > out->s && line[-1] != '\n')
		line--;
	const char *f = strstr(line, ": ");
	if (!f || f >= a)
		return NULL;
	f += 2;
	const char *end = strstr(f, ": ");
	if (!end || end > a)
		return NULL;
	return xstrndup(f, (size_t)(end - f));
}

static int same_output(const struct run_result *a, const struct run_result *b)
{
	return a->out.len == b->out.len && (!a->out.len || !memcmp(a->out.s, b->out.s, a->out.len));
}

char *refine_signature(const struct run_result *good, const struct run_result *bad)
{
	if (good->status == bad->status && good->code == bad->code && same_output(good, bad))
		return NULL;
	char *site = assert_site(&bad->out), *good_site = assert_site(&good->out);
	char *sig = NULL;
	if (site && (!good_site || strcmp(site, good_site)))
		sig = xasprintf("assertion failed at %s", site);
	else if (bad->status == RUN_SIGNALED)
		sig = xasprintf("signal %d", bad->code);
	else if (bad->status == RUN_TIMEOUT)
		sig = xstrdup("timeout");
	else if (bad->status == RUN_EXITED && bad->code > 128 && bad->code != good->code)
		sig = xasprintf("signal %d", bad->code - 128);
	else if (bad->status != good->status || bad->code != good->code)
		sig = xasprintf("exit %d", bad->code);
	else
		sig = xstrdup("different output");
	free(site);
	free(good_site);
	return sig;
}

char *refine_test_command(const char *cmd, const struct run_result *good)
{
	/* One line (a suite file holds a test a line): the expected output
	 * goes through printf %b, newlines and other controls escaped. */
	struct buf b = BUF_INIT;
	buf_adds(&b, "[ \"$(");
	buf_adds(&b, cmd);
	buf_adds(&b, " 2>&1; echo \"~$?\")\" = \"$(printf '%b' ");
	shell_quote_b(&b, good->out.s ? good->out.s : "", good->out.len);
	buf_addf(&b, "'~%d')\" ]", good->status == RUN_SIGNALED ? 128 + good->code : good->code);
	return buf_detach(&b);
}
