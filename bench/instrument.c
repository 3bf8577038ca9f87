/* bench/instrument: the explainer's instrumentation of a whole project, as
 * the explainer does it (compilation database or bear, every file, the
 * project's build, files the compiler rejects put back). Usage:
 *   instrument DIR BUILD-COMMAND
 * DIR is a configured copy of the project (it is rewritten in place). Prints
 * one line: "files N restored R skipped S statements T opaque O seconds X",
 * then the untraced files; exit 0 when the instrumented build succeeded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/semantic/why.h"

struct bench {
	const char *dir;
	int files, skipped, restored, errors;
	unsigned stmts, opaque;
	char *restored_names, *skipped_first;
};

static int bench_worktree(void *priv, const char *hex, char **dir, struct cerr *e)
{
	(void)hex;
	(void)e;
	*dir = xstrdup(((struct bench *)priv)->dir);
	return 0;
}

static int bench_run(void *priv, const char *dir, const char *cmd, int is_build, const char *const *env,
		     struct run_result *r, struct cerr *e)
{
	struct bench *b = priv;
	struct run_opts ro = {.cmd = cmd, .cwd = dir, .timeout = 3600, .env = env, .output_cap = 4u << 20};
	int rc = run_command(&ro, r, e);
	/* The compiler's errors on the instrumented text, over every build
	 * (each on standard error, to diagnose a restored file). */
	for (const char *p = r->out.s; rc == 0 && is_build && p && (p = strstr(p, ": error")); p++) {
		const char *bol = p, *eol = strchr(p, '\n');
		while (bol > r->out.s && bol[-1] != '\n')
			bol--;
		fprintf(stderr, "  build error: %.*s\n", (int)((eol ? eol : p + strlen(p)) - bol), bol);
		b->errors++;
	}
	return rc;
}

static void bench_event(void *priv, const char *type, const char *text)
{
	struct bench *b = priv;
	const char *p;
	if (strcmp(type, "TRACE"))
		return;
	if (sscanf(text, "instrumented %d files", &b->files) == 1) {
		sscanf(strstr(text, ": ") ? strstr(text, ": ") + 2 : "", "%u statements", &b->stmts);
		p = strrchr(text, '(');
		if (p)
			sscanf(p, "(%u opaque", &b->opaque);
	} else if (sscanf(text, "%d file", &b->skipped) == 1 && strstr(text, "not instrumented")) {
		p = strstr(text, "the first: ");
		free(b->skipped_first);
		b->skipped_first = xstrdup(p ? p + 11 : text);
	} else if ((p = strstr(text, "instrumented text of "))) {
		const char *q = strstr(p, ": put back");
		free(b->restored_names);
		b->restored_names = xstrndup(p + 21, q ? (size_t)(q - p - 21) : strlen(p + 21));
		b->restored = 1;
		for (const char *c = b->restored_names; *c; c++)
			b->restored += *c == ',';
	}
	fprintf(stderr, "  %s\n", text);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc != 3) {   /* (make bench runs it bare: bench/instrument.sh gives it projects) */
		fprintf(stderr, "usage: instrument DIR BUILD-COMMAND (see bench/instrument.sh)\n");
		return argc == 1 ? 0 : 2;
	}
	struct bench b = {.dir = argv[1]};
	char *work = xasprintf("%s/.culprit", argv[1]);
	struct why_opts o = {.good = "good", .bad = "bad", .build = argv[2], .test = "true", .workdir = work,
			     .test_timeout = 60};
	struct why_env env = {.priv = &b, .worktree = bench_worktree, .run = bench_run, .event = bench_event};
	struct change_set set = {0};
	struct why *w = why_new(&o, &set, &env);
	const struct tmeta *m;
	struct cerr e = {{0}};
	double t0 = now();
	int rc = why_instrument(w, &m, &e);
	printf("files %d restored %d skipped %d statements %u opaque %u errors %d seconds %.1f\n", b.files,
	       b.restored, b.skipped, b.stmts, b.opaque, b.errors, now() - t0);
	if (b.restored_names)
		printf("restored: %s\n", b.restored_names);
	if (b.skipped_first)
		printf("not instrumented, the first: %s\n", b.skipped_first);
	if (rc < 0)
		printf("error: %s\n", e.msg);
	why_free(w);
	free(b.restored_names);
	free(b.skipped_first);
	free(work);
	return rc < 0 ? 1 : 0;
}
