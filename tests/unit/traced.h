/* Unit tests on real instrumented programs: instrument a C source with
 * libclang, build it with the system compiler, run it traced, load the
 * metadata and the trace. */
#ifndef CULPRIT_TESTS_TRACED_H
#define CULPRIT_TESTS_TRACED_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "core/semantic/instr.h"
#include "core/semantic/tmeta.h"
#include "core/semantic/trace.h"

static char dir[256];
/* The compiler's dialect for the instrumented build (a test may want gcc's own). */
static const char *traced_std = "-std=c99";

static int sh(const char *cmd)
{
	int rc = system(cmd);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* Instrument src as dir/name/p.c and build it as dir/name/p (headers:
 * forced in, for the parser and the compiler alike); load its metadata.
 * 0 when all went well. */
static int instrumented(const char *name, const char *src, const char *const *headers, struct tmeta *m)
{
	struct cerr e;
	char *d = xasprintf("%s/%s", dir, name), *p = xasprintf("%s/p.c", d), *rt = xasprintf("%s/rt.h", dir);
	char *mk = xasprintf("mkdir -p %s", d);
	int rc = sh(mk);
	free(mk);
	rc |= file_write_atomic(p, src, strlen(src), 0644, &e);
	rc |= file_write_atomic(rt, instr_runtime(), strlen(instr_runtime()), 0644, &e);
	struct buf out = BUF_INIT, meta = BUF_INIT;
	buf_addf(&out, "#include \"%s\"\n#line 1\n", rt);
	unsigned next = 1;
	struct instr_stats st = {0};
	const char *args[16];
	int nargs = 0;
	struct buf inc = BUF_INIT;
	buf_adds(&inc, "");
	for (int i = 0; headers && headers[i] && nargs < 14; i++) {
		args[nargs++] = "-include";
		args[nargs++] = headers[i];
		buf_addf(&inc, " -include %s", headers[i]);
	}
	rc |= instr_file(p, "p.c", NULL, 0, 0, nargs ? args : NULL, nargs, &next, &out, &meta, &st, &e);
	rc |= file_write_atomic(p, out.s, out.len, 0644, &e);
	char *cc = xasprintf("cd %s && cc %s -w%s -o p p.c -lm", d, traced_std, inc.s);
	rc |= sh(cc);
	free(cc);
	buf_release(&inc);
	rc |= tmeta_parse(m, meta.s, meta.len, &e);
	buf_release(&out);
	buf_release(&meta);
	free(d);
	free(p);
	free(rt);
	return rc ? -1 : 0;
}

/* Instrument src as dir/name/p.c, build it, run cmd (from dir/name) traced;
 * load metadata and trace. 0 when all went well. */
static int traced_with(const char *name, const char *src, const char *cmd, const char *env,
		       const char *const *headers, struct tmeta *m, struct trace *t)
{
	if (instrumented(name, src, headers, m) < 0)
		return -1;
	struct cerr e;
	char *d = xasprintf("%s/%s", dir, name);
	char *run = xasprintf("cd %s && rm -f t.bin && %s CULPRIT_TRACE=%s/t.bin %s", d, env ? env : "", d, cmd);
	sh(run);   /* (the test may fail: that is the point) */
	free(run);
	char *tp = xasprintf("%s/t.bin", d);
	int rc = 0;
	if (trace_load(t, tp, m, &e) < 0) {
		printf("  %s\n", e.msg);
		rc = -1;
	}
	free(tp);
	free(d);
	return rc;
}

/* The same, without a forced include. */
static inline int traced(const char *name, const char *src, const char *cmd, const char *env, struct tmeta *m,
			 struct trace *t)
{
	return traced_with(name, src, cmd, env, NULL, m, t);
}

#endif
