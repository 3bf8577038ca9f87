#include "core/semantic/why.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/semantic/csrc.h"
#include "core/semantic/formula.h"
#include "core/semantic/instr.h"
#include "core/json.h"
#include "core/isolate/oracle.h"
#include "core/semantic/tmeta.h"

#define MAX_EXPECT 8

struct seed {
	struct expect x[MAX_EXPECT];
	size_t nx;
	int parent;
	uint32_t stmt_ev;     /* the event the seed is about (branch, failure) */
	char *edge, *edge_file;
	int edge_line;
	int repeat;           /* its branch site already has a seed: it waits for the new ones */
	int done;
};

struct side {             /* one traced revision */
	char *hex, *dir;
	struct tmeta meta;
	struct trace tr;
	int loaded;
	int instrumented;     /* meta holds the instrumented tree's metadata, built */
};

struct why {
	struct why_opts o;
	const struct change_set *set;
	struct why_env env;
	struct side bad, good;
	struct formula *f;
	struct seed *q;
	size_t nq, qhead;
	struct bits *visited;     /* branch events used as seeds */
	struct bits *sites;       /* branch sites that have a seed (any instance) */
	struct ctree *t;
	struct expect fail_x[MAX_EXPECT];   /* the failure's expected outcome */
	size_t fail_nx;
	int reloading;            /* why_reload: nothing is built or run */
	long bad_proc;            /* the failing process's rank in the trace (-1: the last) */
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void emit(struct why *w, const char *type, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void emit(struct why *w, const char *type, const char *fmt, ...)
{
	if (!w->env.event)
		return;
	va_list ap;
	va_start(ap, fmt);
	struct buf b = BUF_INIT;
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	w->env.event(w->env.priv, type, b.s);
	buf_release(&b);
}

static void lock(struct why *w, int on)
{
	if (w->env.lock)
		w->env.lock(w->env.priv, on);
}

struct why *why_new(const struct why_opts *o, const struct change_set *set, const struct why_env *env)
{
	struct why *w = xcalloc(1, sizeof(*w));
	w->o = *o;
	w->bad_proc = -1;
	w->set = set;
	w->env = *env;
	return w;
}

static void side_release(struct side *s)
{
	if (s->loaded)
		trace_release(&s->tr);
	if (s->loaded || s->instrumented)
		tmeta_release(&s->meta);
	free(s->hex);
	free(s->dir);
	memset(s, 0, sizeof(*s));
}

void why_free(struct why *w)
{
	if (!w)
		return;
	side_release(&w->bad);
	side_release(&w->good);
	formula_free(w->f);
	for (size_t i = 0; i < w->nq; i++) {
		free(w->q[i].edge);
		free(w->q[i].edge_file);
	}
	free(w->q);
	bits_free(w->visited);
	bits_free(w->sites);
	free(w);
}

static int failure_point(struct why *w, struct seed *s, struct cerr *e);

/* One side as an earlier run left it: metadata and trace. */
static int reload_side(struct why *w, struct side *s, const char *hex, struct cerr *e)
{
	s->dir = xasprintf("%s/tr-%.12s", w->o.workdir, hex);
	s->hex = xstrdup(hex);
	char *mp = xasprintf("%s/.culprit/meta", s->dir);
	char *tp = xasprintf("%s/trace-%.12s.bin", w->o.workdir, hex);
	int rc = tmeta_load(&s->meta, mp, e);
	if (rc == 0) {
		rc = trace_load(&s->tr, tp, &s->meta, e);
		if (rc == 0)
			s->loaded = 1;
		else
			tmeta_release(&s->meta);
	}
	free(mp);
	free(tp);
	return rc;
}

int why_reload(struct why *w, struct cerr *e)
{
	int rc = reload_side(w, &w->bad, w->o.bad, e);
	if (rc < 0)
		return rc;
	/* The failure's expected outcome again (the good run's output, when it is about output). */
	struct cerr ge;
	reload_side(w, &w->good, w->o.good, &ge);
	struct ctree scratch = {0};
	struct seed first = {0};
	w->t = &scratch;
	w->reloading = 1;
	if (failure_point(w, &first, &ge) == 0) {
		memcpy(w->fail_x, first.x, first.nx * sizeof(*first.x));
		w->fail_nx = first.nx;
	}
	free(first.edge);
	free(first.edge_file);
	ctree_release(&scratch);
	w->t = NULL;
	w->reloading = 0;
	return 0;
}

const struct trace *why_trace(const struct why *w)
{
	return w && w->bad.loaded ? &w->bad.tr : NULL;
}

size_t why_failure(const struct why *w, const struct expect **x)
{
	*x = w->fail_x;
	return w->bad.loaded ? w->fail_nx : 0;
}

int why_run_traced(struct why *w, const char *cmd, const char *force, struct trace *out, struct cerr *e)
{
	if (!w->bad.loaded || !w->bad.dir)
		return cerr_set(e, "the failing run was not traced in this session");
	char *tp = xasprintf("%s/trace-more.bin", w->o.workdir);
	char *env0 = xasprintf("CULPRIT_TRACE=%s", tp), *env1 = force ? xasprintf("CULPRIT_FORCE=%s", force) : NULL;
	const char *env[] = {env0, env1, NULL};
	unlink(tp);
	struct run_result r;
	int rc = w->env.run(w->env.priv, w->bad.dir, cmd ? cmd : w->o.test, 0, env, &r, e);
	if (rc == 0) {
		if (r.status == RUN_CANCELLED)
			rc = cerr_set(e, "stopped");
		run_result_release(&r);
	}
	if (rc == 0 && (w->bad_proc < 0 || trace_load_proc(out, tp, &w->bad.meta, w->bad_proc, e) < 0))
		rc = trace_load(out, tp, &w->bad.meta, e);   /* the same process as the failing run's */
	unlink(tp);
	free(tp);
	free(env0);
	free(env1);
	return rc;
}

int why_run_forced(struct why *w, unsigned site, unsigned instance, int outcome, struct trace *out, struct cerr *e)
{
	char force[64];
	snprintf(force, sizeof(force), "%u:%u:%d", site, instance, outcome);
	return why_run_traced(w, NULL, force, out, e);
}

/* ------------------------------------------------------- instrumenting */

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);
	return n >= k && !strcmp(s + n - k, suf);
}

/* Every .c file under dir (not in hidden directories). */
static void c_files(const char *dir, char ***v, size_t *n, int depth)
{
	DIR *d = opendir(dir);
	if (!d || depth > 32) {
		if (d)
			closedir(d);
		return;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *p = xasprintf("%s/%s", dir, de->d_name);
		struct stat st;
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			c_files(p, v, n, depth + 1);
			free(p);
		} else if (S_ISREG(st.st_mode) && has_suffix(p, ".c")) {
			*v = xrealloc(*v, (*n + 1) * sizeof(**v));
			(*v)[(*n)++] = p;
		} else {
			free(p);
		}
	}
	closedir(d);
}

static void split_flags(const char *s, char ***args, int *n)
{
	const char *p = s;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		const char *q = p;
		while (*q && *q != ' ' && *q != '\t')
			q++;
		*args = xrealloc(*args, (size_t)(*n + 1) * sizeof(**args));
		(*args)[(*n)++] = xstrndup(p, (size_t)(q - p));
		p = q;
	}
}

static int run_ok(struct why *w, const char *dir, const char *cmd, int is_build, const char *const *env,
		  const char *what, struct cerr *e)
{
	struct run_result r;
	if (w->env.run(w->env.priv, dir, cmd, is_build, env, &r, e) < 0)
		return -1;
	int rc = 0;
	if (r.status == RUN_CANCELLED)
		rc = cerr_set(e, "stopped");
	else if (r.status != RUN_EXITED || r.code != 0) {
		char *why = oracle_build_error(r.out.s ? r.out.s : "");
		char *how = run_describe(&r, 0);
		rc = cerr_set(e, "%s failed (%s): %s", what, how, why && *why ? why : "no output");
		free(why);
		free(how);
	}
	run_result_release(&r);
	return rc;
}

/* The compilation database of the worktree: the project's own, or one bear records. */
static int compile_db(struct why *w, const char *dir, char **dbdir, struct cerr *e)
{
	char *own = xasprintf("%s/compile_commands.json", dir);
	char *ours = xasprintf("%s/.culprit/compile_commands.json", dir);
	struct stat st;
	int rc = 0;
	if (stat(own, &st) == 0) {
		*dbdir = xstrdup(dir);
	} else if (stat(ours, &st) == 0 && st.st_size > 4) {
		*dbdir = xasprintf("%s/.culprit", dir);
	} else if (!w->o.build || !w->o.build[0]) {
		rc = cerr_set(e, "no compile_commands.json and no build command to record one (give --cflags)");
	} else {
		struct buf cmd = BUF_INIT;
		buf_adds(&cmd, "bear --output ");
		shell_quote(&cmd, ours);
		buf_adds(&cmd, " -- /bin/sh -c ");
		shell_quote(&cmd, w->o.build);
		rc = run_ok(w, dir, cmd.s, 1, NULL, "recording the compilation database with bear", e);
		buf_release(&cmd);
		char **files = NULL;
		size_t n = 0;
		if (rc == 0) {
			char *d = xasprintf("%s/.culprit", dir);
			int have = csrc_db_files(d, &files, &n, e);
			if (have < 0)
				rc = -1;
			else if (n == 0)
				rc = cerr_set(e, "bear recorded no compile commands for `%s` (give --cflags)", w->o.build);
			for (size_t i = 0; i < n; i++)
				free(files[i]);
			free(files);
			if (rc == 0)
				*dbdir = d;
			else
				free(d);
			if (rc < 0)
				unlink(ours);
		} else if (strstr(e->msg, "exit 127")) {
			rc = cerr_set(e, "no compilation database: bear is not installed and --cflags was not given");
		}
	}
	free(own);
	free(ours);
	return rc;
}

static int write_if_changed(const char *path, const struct buf *b, struct cerr *e)
{
	struct buf cur = BUF_INIT;
	int same = file_read(path, &cur, (size_t)256 << 20, NULL) == 0 && cur.len == b->len &&
		   !memcmp(cur.s ? cur.s : "", b->s ? b->s : "", b->len);
	buf_release(&cur);
	return same ? 0 : file_write_atomic(path, b->s ? b->s : "", b->len, 0644, e);
}

/* One file of the instrumented tree: its pristine text and its metadata. */
struct ifile {
	char *path;
	const char *rel;   /* in path */
	struct buf text, meta;
	int restored;
};

/* Whether a compiler message's file name (as the build printed it, maybe
 * relative to a subdirectory) names path. */
static int names_file(const char *msg, size_t n, const char *path)
{
	size_t pl = strlen(path);
	if (n == 0 || n > pl || memcmp(path + pl - n, msg, n))
		return 0;
	return n == pl || path[pl - n - 1] == '/' || (msg[0] == '.' && msg[1] == '/');
}

/* The instrumented files a failed build's output blames ("f.c:12:3: error:",
 * "f.c:12: error:"): put back to their pristine text. How many. */
static int restore_blamed(struct ifile *fs, size_t n, const char *out, struct buf *names, struct cerr *e)
{
	int count = 0;
	const char *incl = NULL;   /* "In file included from F:1": the error in a header is F's */
	size_t incl_len = 0;
	for (const char *l = out; l && *l;) {
		const char *nl = strchr(l, '\n'), *end = nl ? nl : l + strlen(l);
		const char *f = l;
		while (*f == ' ')
			f++;
		const char *chain = !strncmp(f, "In file included from ", 22) ? f + 22 : !strncmp(f, "from ", 5) ? f + 5 : NULL;
		const char *colon = memchr(f, ':', (size_t)(end - f));
		if (chain) {
			const char *c = memchr(chain, ':', (size_t)(end - chain));
			if (c) {
				incl = chain;
				incl_len = (size_t)(c - chain);
			}
			l = nl ? nl + 1 : NULL;
			continue;
		}
		const char *err = colon ? strstr(colon, "error") : NULL;
		if (colon && colon > f && colon[1] >= '0' && colon[1] <= '9' && err && err < end) {
			for (int pass = 0; pass < 2; pass++) {
				const char *name = pass ? incl : f;
				size_t len = pass ? incl_len : (size_t)(colon - f);
				if (!name)
					continue;
				if (!strncmp(name, "./", 2))
					name += 2, len -= 2;
				int hit = 0;
				for (size_t i = 0; i < n; i++)
					hit |= names_file(name, len, fs[i].path);
				if (!hit)
					continue;
				f = name;
				colon = name + len;
				break;
			}
			for (size_t i = 0; i < n; i++) {
				if (fs[i].restored || !names_file(f, (size_t)(colon - f), fs[i].path))
					continue;
				if (file_write_atomic(fs[i].path, fs[i].text.s ? fs[i].text.s : "", fs[i].text.len, 0644, e) < 0)
					return -1;
				fs[i].restored = 1;
				buf_release(&fs[i].meta);
				count++;
				buf_addf(names, "%s%s", names->len ? ", " : "", fs[i].rel);
			}
		}
		incl = NULL;
		l = nl ? nl + 1 : NULL;
	}
	return count;
}

/* The project's build of the instrumented tree: a file the compiler
 * rejects is put back as it was (its code untraced) and the build runs
 * again. 0 built, <0 with e set. */
static int build_instrumented(struct why *w, const char *dir, struct ifile *fs, size_t n, struct buf *restored,
			      struct cerr *e)
{
	for (int round = 0;; round++) {
		struct run_result r;
		if (w->env.run(w->env.priv, dir, w->o.build, 1, NULL, &r, e) < 0)
			return -1;
		int rc = 0;
		if (r.status == RUN_CANCELLED) {
			rc = cerr_set(e, "stopped");
		} else if (r.status != RUN_EXITED || r.code != 0) {
			struct cerr re = {{0}};
			int k = round < 64 ? restore_blamed(fs, n, r.out.s ? r.out.s : "", restored, &re) : 0;
			if (k < 0) {
				rc = cerr_set(e, "%s", re.msg);
			} else if (k == 0) {
				char *why = oracle_build_error(r.out.s ? r.out.s : "");
				char *how = run_describe(&r, 0);
				rc = cerr_set(e, "the instrumented build failed (%s): %s", how, why && *why ? why : "no output");
				free(why);
				free(how);
			} else {
				rc = 1;   /* again, without them */
			}
		}
		run_result_release(&r);
		if (rc <= 0)
			return rc;
	}
}

/* Instrument every file the build compiles, build, run the test traced. */
static int instrument_side(struct why *w, struct side *s, const char *hex, struct cerr *e)
{
	double t0 = now();
	free(s->hex);
	free(s->dir);
	s->hex = xstrdup(hex);
	if (w->env.worktree(w->env.priv, hex, &s->dir, e) < 0)
		return -1;
	const char *dir = s->dir;
	char *cul = xasprintf("%s/.culprit", dir);
	if (mkdir_p(cul, 0755, e) < 0) {
		free(cul);
		return -1;
	}
	char **files = NULL;
	size_t nfiles = 0;
	char *dbdir = NULL;
	int rc = 0;
	if (w->o.cflags) {
		c_files(dir, &files, &nfiles, 0);
	} else {
		rc = compile_db(w, dir, &dbdir, e);
		if (rc == 0 && csrc_db_files(dbdir, &files, &nfiles, e) < 0)
			rc = -1;
	}
	char *rt = xasprintf("%s/trace_rt.h", cul);
	struct buf rtb = BUF_INIT, meta = BUF_INIT;
	buf_adds(&rtb, instr_runtime());
	if (rc == 0)
		rc = write_if_changed(rt, &rtb, e);
	buf_release(&rtb);
	unsigned next = 1;
	struct instr_stats st = {0};
	size_t dl = strlen(dir);
	int fidx = 0, skipped = 0;
	char *first_skip = NULL;
	struct ifile *fs = NULL;
	size_t nfs = 0;
	struct buf skipped_names = BUF_INIT;
	for (size_t i = 0; i < nfiles && rc == 0; i++) {
		const char *path = files[i];
		if (strncmp(path, dir, dl) || path[dl] != '/' || !has_suffix(path, ".c"))
			continue;   /* outside the tree: system or generated elsewhere */
		const char *rel = path + dl + 1;
		if (!strncmp(rel, ".culprit/", 9))
			continue;
		/* The pristine text: saved before the first rewrite. */
		char *orig = xasprintf("%s/orig/%s", cul, rel);
		struct buf text = BUF_INIT;
		if (file_read(orig, &text, (size_t)64 << 20, NULL) < 0) {
			buf_reset(&text);
			char *slash = strrchr(orig, '/');
			*slash = '\0';
			rc = mkdir_p(orig, 0755, e);
			*slash = '/';
			if (rc == 0)
				rc = file_read(path, &text, (size_t)64 << 20, e);
			if (rc == 0)
				rc = file_write_atomic(orig, text.s ? text.s : "", text.len, 0644, e);
		}
		char **args = NULL;
		int nargs = 0;
		if (rc == 0) {
			if (w->o.cflags) {
				char *wd = xasprintf("-working-directory=%s", dir);
				split_flags(wd, &args, &nargs);
				free(wd);
				split_flags(w->o.cflags, &args, &nargs);
			} else if (csrc_flags(dbdir, path, &args, &nargs, e) < 0) {
				rc = -1;
			}
		}
		struct buf out = BUF_INIT;
		if (rc == 0) {
			buf_addf(&out, "#include \"%s\"\n#line 1\n", rt);
			struct buf fmeta = BUF_INIT;
			struct cerr fe = {{0}};
			unsigned fnext = next;
			if (instr_file(path, rel, text.s ? text.s : "", text.len, fidx, (const char *const *)args, nargs,
				       &fnext, &out, &fmeta, &st, &fe) == 0) {
				fs = xrealloc(fs, (nfs + 1) * sizeof(*fs));
				fs[nfs] = (struct ifile){xstrdup(path), NULL, BUF_INIT, fmeta, 0};
				fs[nfs].rel = fs[nfs].path + dl + 1;
				buf_add(&fs[nfs].text, text.s ? text.s : "", text.len);
				nfs++;
				fmeta = (struct buf)BUF_INIT;
				next = fnext;
				fidx++;
			} else {
				/* Not this file: it stays as it is, its code opaque. */
				if (!skipped++)
					first_skip = xstrdup(fe.msg);
				buf_addf(&skipped_names, "%s%s", skipped_names.len ? ", " : "", rel);
				buf_reset(&out);
				buf_add(&out, text.s ? text.s : "", text.len);
			}
			buf_release(&fmeta);
		}
		if (rc == 0)
			rc = write_if_changed(path, &out, e);
		buf_release(&out);
		csrc_args_free(args, nargs);
		buf_release(&text);
		free(orig);
	}
	for (size_t i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
	free(dbdir);
	if (skipped)
		emit(w, "TRACE", "%d file%s not instrumented (their code is opaque); the first: %s", skipped,
		     skipped > 1 ? "s are" : " is", first_skip);
	free(first_skip);
	if (rc == 0 && fidx == 0)
		rc = cerr_set(e, skipped ? "no C file of the project could be instrumented (%d tried)"
					 : "no C file of the project to instrument", skipped);
	struct buf restored = BUF_INIT;
	if (rc == 0) {
		emit(w, "TRACE", "instrumented %d files of %.12s: %u statements, %u reads, %u writes, %u branches, "
				 "%u calls (%u opaque parts)",
		     fidx, hex, st.stmts, st.reads, st.writes, st.branches, st.calls, st.opaque);
		if (w->o.build && w->o.build[0])
			rc = build_instrumented(w, dir, fs, nfs, &restored, e);
		if (restored.len)
			emit(w, "TRACE", "the compiler rejected the instrumented text of %s: put back as it was (untraced)",
			     restored.s);
	}
	/* The metadata of the files that stay instrumented (a restored one keeps its F record). */
	for (size_t i = 0; i < nfs; i++) {
		if (fs[i].restored) {
			buf_addf(&meta, "F\t%zu\t%s\n", i, fs[i].rel);
		} else {
			buf_add(&meta, fs[i].meta.s ? fs[i].meta.s : "", fs[i].meta.len);
		}
	}
	if (rc == 0) {
		char *mp = xasprintf("%s/meta", cul);
		rc = file_write_atomic(mp, meta.s ? meta.s : "", meta.len, 0644, e);
		free(mp);
	}
	if (rc == 0)
		rc = tmeta_parse(&s->meta, meta.s ? meta.s : "", meta.len, e);
	buf_release(&meta);
	/* What is not traced, for the report. */
	if (rc == 0 && w->t) {
		struct buf u = BUF_INIT;
		if (skipped_names.len)
			buf_addf(&u, "not instrumented (libclang): %s", skipped_names.s);
		if (restored.len)
			buf_addf(&u, "%srestored (the compiler rejected the instrumented text): %s", u.len ? "; " : "",
				 restored.s);
		lock(w, 1);
		free(w->t->untraced);
		w->t->untraced = u.len ? buf_detach(&u) : NULL;
		lock(w, 0);
		buf_release(&u);
	}
	buf_release(&restored);
	buf_release(&skipped_names);
	for (size_t i = 0; i < nfs; i++) {
		free(fs[i].path);
		buf_release(&fs[i].text);
		buf_release(&fs[i].meta);
	}
	free(fs);
	if (w->t)
		w->t->instrument_seconds += now() - t0;
	s->instrumented = rc == 0;
	free(rt);
	free(cul);
	return rc;
}

static int trace_side(struct why *w, struct side *s, const char *hex, struct cerr *e)
{
	int rc = s->instrumented ? 0 : instrument_side(w, s, hex, e);
	const char *dir = s->dir;
	if (rc == 0) {
		double t1 = now();
		char *tp = xasprintf("%s/trace-%.12s.bin", w->o.workdir, hex);
		char *env0 = xasprintf("CULPRIT_TRACE=%s", tp);
		const char *env[] = {env0, NULL};
		unlink(tp);
		struct run_result r;
		rc = w->env.run(w->env.priv, dir, w->o.test, 0, env, &r, e);
		if (rc == 0) {
			if (r.status == RUN_CANCELLED)
				rc = cerr_set(e, "stopped");
			run_result_release(&r);
		}
		w->t->traced_seconds += now() - t1;
		if (rc == 0)
			rc = trace_load(&s->tr, tp, &s->meta, e);
		if (rc == 0 && s->tr.cut) {
			/* Longer than the cap: the runtime kept the newest events, nearest the failure. */
			const char *cap = getenv("CULPRIT_TRACE_MAX");
			lock(w, 1);
			free(w->t->trace_cut);
			w->t->trace_cut = xasprintf("the %s run wrote more than %s bytes of trace (CULPRIT_TRACE_MAX): "
						    "only its last %zu events are kept", s == &w->bad ? "failing" : "good",
						    cap && *cap ? cap : "134217728", s->tr.n);
			lock(w, 0);
			emit(w, "TRACE", "%s", w->t->trace_cut);
		}
		if (rc == 0)
			s->loaded = 1;
		else {
			tmeta_release(&s->meta);
			s->instrumented = 0;
		}
		free(env0);
		free(tp);
	}
	return rc;
}

int why_instrument(struct why *w, const struct tmeta **m, struct cerr *e)
{
	if (!w->bad.instrumented && instrument_side(w, &w->bad, w->o.bad, e) < 0)
		return -1;
	*m = &w->bad.meta;
	return 0;
}

/* ------------------------------------------------------ describing */

static const char *file_of(const struct side *s, int fidx)
{
	return fidx >= 0 && (size_t)fidx < s->meta.nfiles ? s->meta.files[fidx] : "?";
}

static long change_at(const struct why *w, const char *file, int line)
{
	for (size_t i = 0; i < w->set->nchanges; i++) {
		const struct change *c = &w->set->changes[i];
		const struct change_file *f = &w->set->files[c->file];
		if (strcmp(f->new_path, file))
			continue;
		int lo = c->new_start, hi = c->new_start + (c->new_lines > 0 ? c->new_lines - 1 : 1);
		if (c->new_lines == 0)
			lo = c->new_start;
		if (line >= lo && line <= hi)
			return (long)i;
	}
	return -1;
}

/* The one string literal of a statement's text ("..." with its quotes),
 * when the text has exactly one: what a pointer to it shows. */
static int one_literal(const char *text, struct buf *b)
{
	const char *p = text ? strchr(text, '"') : NULL, *q = p;
	if (!p || (p > text && p[-1] == '\''))
		return 0;
	for (q = p + 1; *q && *q != '"'; q++)
		if (*q == '\\' && q[1])
			q++;
	if (*q != '"' || strchr(q + 1, '"'))
		return 0;
	buf_add(b, p, (size_t)(q + 1 - p));
	return 1;
}

/* The string literal a pointer value of event e came from, following
 * its definition through reads, call results and copies: 1 with the
 * literal added to b. */
static int literal_value(const struct trace *t, uint32_t e, struct buf *b, int depth)
{
	if (e == TRACE_NONE || e >= t->n || depth > 16 || !t->ev[e].val)
		return 0;
	const struct tev *v = &t->ev[e];
	const struct msite *site = tmeta_site(t->m, v->id);
	if (!site || (v->kind != TE_WRITE && v->kind != TE_RET) || site->t.cls != 'p' || !site->tree)
		return 0;
	const struct mnode *n = site->tree;
	while (n && n->op == 'x')
		n = n->k[0];
	if (!n)
		return 0;
	if (n->op == 's') {
		const struct msite *st = trace_stmt_of(t, e);
		return st && one_literal(st->text, b);
	}
	if (n->op == 'r') {
		uint32_t r = trace_dep_find(t, e, TE_READ, (unsigned)n->v);
		return r != TRACE_NONE && t->ev[r].val == v->val && literal_value(t, t->src[r], b, depth + 1);
	}
	if (n->op == 'c') {
		uint32_t c = trace_dep_find(t, e, TE_CRET, (unsigned)n->v);
		return c != TRACE_NONE && t->ev[c].val == v->val && literal_value(t, t->src[c], b, depth + 1);
	}
	return 0;
}

static void escape_out(const char *s, size_t n, struct buf *b)
{
	for (size_t i = 0; i < n && i < 60; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n')
			buf_adds(b, "\\n");
		else if (c < 32 || c == 127)
			buf_addf(b, "\\x%02x", c);
		else
			buf_addc(b, (char)c);
	}
	if (n > 60)
		buf_adds(b, "...");
}

/* The bytes an OUT event wrote. */
static void out_bytes(const struct trace *t, uint32_t o, struct buf *b)
{
	for (size_t k = 0; k < t->out.len; k++)
		if (t->out_ev[k] == o)
			buf_addc(b, t->out.s[k]);
}

static void stmt_of(struct why *w, uint32_t e, struct ct_stmt *s)
{
	const struct trace *t = &w->bad.tr;
	const struct tev *v = &t->ev[e];
	const struct msite *site = tmeta_site(t->m, v->id);
	const struct msite *st = trace_stmt_of(t, e);
	if (v->kind == TE_OUT && t->src[e] != TRACE_NONE)
		st = trace_stmt_of(t, t->src[e]);
	if ((v->kind == TE_SIG && !st) && t->last_stmt != TRACE_NONE)
		st = trace_stmt_of(t, t->last_stmt);
	if (v->kind == TE_PARAM && site)   /* the function's header */
		st = tmeta_site(t->m, site->fid);
	memset(s, 0, sizeof(*s));
	s->ev = e;
	s->file = xstrdup(st ? file_of(&w->bad, st->file) : "?");
	s->line = st ? st->line : 0;
	s->text = xstrdup(st && st->text ? st->text : "");
	struct buf b = BUF_INIT;
	/* A pointer to a string literal shows as the string. */
	if (site && (v->kind == TE_WRITE || v->kind == TE_PARAM)) {
		buf_addf(&b, "%s = ", site->kind == 'W' && site->text && site->text[0] ? site->text : site->name);
		if (!literal_value(t, e, &b, 0))
			trace_show_value(t, v, &b);
	} else if (site && v->kind == TE_RET) {
		buf_adds(&b, "returned ");
		if (!literal_value(t, e, &b, 0))
			trace_show_value(t, v, &b);
	} else if (site && v->kind == TE_BRANCH) {
		if (!strcmp(site->kindname, "switch"))
			buf_addf(&b, "switch on %lld", trace_value(v, site->tree && site->tree->t.cls == 'i'));
		else
			buf_addf(&b, "was %s", v->val ? "true" : "false");
	} else if (v->kind == TE_OUT) {
		struct buf o = BUF_INIT;
		out_bytes(t, e, &o);
		buf_adds(&b, "printed \"");
		escape_out(o.s ? o.s : "", o.len, &b);
		buf_addc(&b, '"');
		buf_release(&o);
	} else if (v->kind == TE_SIG) {
		buf_addf(&b, "signal %d (%s)", (int)v->val, strsignal((int)v->val));
	}
	s->values = buf_detach(&b);
	s->change = s->file[0] ? change_at(w, s->file, s->line) : -1;
}

static void node_add_stmt(struct why *w, struct ct_node *n, uint32_t e, int opaque)
{
	for (size_t i = 0; i < n->nstmts; i++)
		if (n->stmts[i].ev == e)
			return;
	n->stmts = xrealloc(n->stmts, (n->nstmts + 1) * sizeof(*n->stmts));
	stmt_of(w, e, &n->stmts[n->nstmts]);
	n->stmts[n->nstmts].opaque = opaque;
	long c = n->stmts[n->nstmts].change;
	n->nstmts++;
	if (c < 0)
		return;
	for (size_t i = 0; i < n->nchanges; i++)
		if (n->changes[i] == (size_t)c)
			return;
	n->changes = xrealloc(n->changes, (n->nchanges + 1) * sizeof(*n->changes));
	n->changes[n->nchanges++] = (size_t)c;
}

/* "parse.c:41 if (prec(op) < min) was true" */
static void branch_desc(struct why *w, uint32_t b, struct seed *s)
{
	const struct trace *t = &w->bad.tr;
	const struct msite *st = trace_stmt_of(t, b);
	const struct msite *site = tmeta_site(t->m, t->ev[b].id);
	struct buf d = BUF_INIT;
	s->edge_file = xstrdup(st ? file_of(&w->bad, st->file) : "?");
	s->edge_line = st ? st->line : 0;
	buf_addf(&d, "%s:%d %s ", s->edge_file, s->edge_line, st ? st->text : "");
	if (site && !strcmp(site->kindname, "switch"))
		buf_addf(&d, "took case %lld", trace_value(&t->ev[b], 1));
	else
		buf_addf(&d, "was %s", t->ev[b].val ? "true" : "false");
	s->edge = buf_detach(&d);
}

/* ------------------------------------------------------- failure point */

/* The bad run printed less than the good one, and what it printed is the
 * start of the good run's output (the same lines, one missing): no byte
 * differs. The good run's next output ran under a branch; the first run of
 * that branch (the same statement in the bad revision) whose outcome
 * differs between the two runs is where the bad run lost the line. Its
 * event in the bad trace, or TRACE_NONE. */
static uint32_t missing_output_branch(const struct why *w, const struct trace *t, const struct trace *g,
				      uint32_t go)
{
	uint32_t gcall = g->src[go] != TRACE_NONE ? g->src[go] : go;
	uint32_t gb = g->ctl ? g->ctl[gcall] : TRACE_NONE;
	if (gb >= g->n || g->ev[gb].kind != TE_BRANCH)
		return TRACE_NONE;
	const struct msite *gst = trace_stmt_of(g, gb);
	if (!gst || !gst->text)
		return TRACE_NONE;
	const char *gfile = file_of(&w->good, gst->file);
	/* The same branch in the bad revision: its statement's text in the
	 * same file, the nearest line when several match. */
	unsigned bsite = 0;
	int found = 0, dist = 0;
	for (unsigned id = 0; id < t->m->nids; id++) {
		const struct msite *x = &t->m->site[id];
		const struct msite *xst = x->kind == 'B' ? tmeta_stmt(t->m, id) : NULL;
		if (!xst || !xst->text || strcmp(xst->text, gst->text) || strcmp(file_of(&w->bad, xst->file), gfile))
			continue;
		int dl = abs(xst->line - gst->line);
		if (!found || dl < dist) {
			bsite = id;
			dist = dl;
			found = 1;
		}
	}
	if (!found)
		return TRACE_NONE;
	size_t i = 0, j = 0;
	for (;;) {
		while (i < g->n && !(g->ev[i].kind == TE_BRANCH && g->ev[i].id == g->ev[gb].id))
			i++;
		while (j < t->n && !(t->ev[j].kind == TE_BRANCH && t->ev[j].id == bsite))
			j++;
		if (i >= g->n || j >= t->n || i > gb)
			return TRACE_NONE;
		if (g->ev[i].val != t->ev[j].val)
			return (uint32_t)j;
		i++;
		j++;
	}
}


static uint32_t find_call_without_return(const struct trace *t, const char *callee)
{
	for (size_t i = t->n; i-- > 0;) {
		const struct tev *v = &t->ev[i];
		if (v->kind == TE_CRET)
			return TRACE_NONE;
		if (v->kind == TE_CALL) {
			const struct msite *c = tmeta_site(t->m, v->id);
			return c && c->kind == 'C' && !strcmp(c->name, callee) ? (uint32_t)i : TRACE_NONE;
		}
	}
	return TRACE_NONE;
}

static const struct mnode *div_by_zero(const struct trace *t, uint32_t owner, const struct mnode *n)
{
	if (!n)
		return NULL;
	if (n->op == 'b' && (n->sym[0] == '/' || n->sym[0] == '%') && !n->sym[1]) {
		long long v;
		if (formula_eval(t, owner, n->k[1], &v) == 0 && v == 0)
			return n->k[1];
	}
	for (int i = 0; i < 3; i++) {
		const struct mnode *d = div_by_zero(t, owner, n->k[i]);
		if (d)
			return d;
	}
	return NULL;
}

/* Whether argument a of output call callee is a string it prints (not a
 * format, not a stream). */
static int string_arg(const char *callee, int a)
{
	static const struct { const char *name; int first, last; } calls[] = {   /* last -1: all after first */
		{"puts", 0, 0}, {"fputs", 0, 0}, {"printf", 1, -1}, {"fprintf", 2, -1}, {"dprintf", 2, -1},
	};
	for (size_t i = 0; callee && i < sizeof(calls) / sizeof(calls[0]); i++)
		if (!strcmp(callee, calls[i].name))
			return a >= calls[i].first && (calls[i].last < 0 || a <= calls[i].last);
	return 0;
}

/* The exit call that ended the process, or TRACE_NONE. */
static uint32_t exit_call_of(const struct trace *t)
{
	uint32_t c = find_call_without_return(t, "exit");
	return c != TRACE_NONE ? c : find_call_without_return(t, "_exit");
}

/* main's return that ended the process (the last return in the trace), or TRACE_NONE. */
static uint32_t main_return_of(const struct trace *t)
{
	for (size_t i = t->n; i-- > 0;) {
		const struct tev *v = &t->ev[i];
		if (v->kind != TE_RET)
			continue;
		const struct msite *r = tmeta_site(t->m, v->id);
		const struct msite *fn = r ? tmeta_site(t->m, r->fid) : NULL;
		return fn && fn->kind == 'N' && !strcmp(fn->name, "main") ? (uint32_t)i : TRACE_NONE;
	}
	return TRACE_NONE;
}

/* An lvalue as written that names a field ("s->len", "p.n"): the length of
 * its base ("s") and the field; 0 when it names none. */
static int lvalue_field(const char *text, size_t *base_len, const char **field)
{
	const char *sep = NULL;
	for (const char *p = text; *p; p++)
		if (*p == '.' || (p[0] == '-' && p[1] == '>'))
			sep = p;
	if (!sep || sep == text)
		return 0;
	*base_len = (size_t)(sep - text);
	*field = sep + (*sep == '.' ? 1 : 2);
	for (const char *p = *field; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return **field != 0;
}

/* Each event's function invocation (0: outside any traced function), and
 * per invocation k its function site fn[k] and the invocation that called
 * it, caller[k] (0: code outside the project, or none). */
static uint32_t *invocations(const struct trace *t, uint32_t **fn, uint32_t **caller)
{
	uint32_t *inv = xmalloc((t->n + 1) * sizeof(*inv)), *stack = xmalloc((t->n + 1) * sizeof(*stack));
	size_t depth = 0, next = 1;
	*fn = xmalloc((t->n + 2) * sizeof(**fn));
	*caller = xmalloc((t->n + 2) * sizeof(**caller));
	(*fn)[0] = (*caller)[0] = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct tev *e = &t->ev[i];
		if (e->kind == TE_ENTER) {
			(*fn)[next] = e->id;
			(*caller)[next] = depth ? stack[depth - 1] : 0;
			stack[depth++] = (uint32_t)next++;
		}
		inv[i] = depth ? stack[depth - 1] : 0;
		if ((e->kind == TE_RET || e->kind == TE_RET0) && depth)
			depth--;
	}
	free(stack);
	return inv;
}

/* A field left stale: the value a statement of the causes wrote into a
 * field (W, "string->length = len") is read at the end (R) after another
 * function updated the same object's other field that W's function wrote
 * with it ("string->value = dup") but not this one. The update is where a
 * missing assignment would go. NULL when none. */
struct added {
	const char *file;
	int after;
	char *text;   /* the assignment to add, or NULL */
};

/* The assignment W's statement made (its text from the lvalue to the first
 * ';'), written on the update's object: "s->length = n;" for "str" gives
 * "str->length = n;". NULL when the statement holds no such text. */
static char *omitted_assignment(const char *stmt, const char *lvalue, size_t base_len, const char *ubase,
				size_t ubase_len, const char *usep)
{
	const char *at = strstr(stmt, lvalue), *semi = at ? strchr(at, ';') : NULL;
	if (!at || !semi)
		return NULL;
	const char *rest = at + base_len;   /* "->length = n;" */
	rest += *rest == '.' ? 1 : 2;
	return xasprintf("%.*s%s%.*s", (int)ubase_len, ubase, usep, (int)(semi + 1 - rest), rest);
}

static char *stale_write(struct why *w, const struct trace *t, const uint32_t *inv, const uint32_t *fn, uint32_t W,
			 struct added *add)
{
	const struct tev *we = &t->ev[W];
	const struct msite *ws = tmeta_site(t->m, we->id);
	size_t bl;
	const char *field;
	if (we->kind != TE_WRITE || !ws || !ws->text || !lvalue_field(ws->text, &bl, &field))
		return NULL;
	uint32_t R = TRACE_NONE;
	for (size_t i = t->n; i-- > W + 1 && R == TRACE_NONE;)
		if (t->ev[i].kind == TE_READ && t->src[i] == W)
			R = (uint32_t)i;
	if (R == TRACE_NONE || !inv[W])
		return NULL;
	for (size_t j = 0; j < R; j++) {   /* the fields W's invocation wrote with it */
		const struct msite *sj = tmeta_site(t->m, t->ev[j].id);
		size_t bj;
		const char *fj;
		if (inv[j] != inv[W] || t->ev[j].kind != TE_WRITE || !sj || !sj->text || t->ev[j].addr == we->addr ||
		    !lvalue_field(sj->text, &bj, &fj) || bj != bl || strncmp(sj->text, ws->text, bl) || !strcmp(fj, field))
			continue;
		for (size_t k = W + 1; k < R; k++) {   /* a later update of that field elsewhere */
			if (t->ev[k].kind != TE_WRITE || t->ev[k].addr != t->ev[j].addr || inv[k] == inv[W] || !inv[k])
				continue;
			int wrote = 0;
			for (size_t q = W + 1; q < R && !wrote; q++)
				wrote = inv[q] == inv[k] && t->ev[q].kind == TE_WRITE && t->ev[q].addr == we->addr;
			const struct msite *uk = tmeta_site(t->m, t->ev[k].id);
			const struct msite *us = trace_stmt_of(t, k), *wst = trace_stmt_of(t, W), *rst = trace_stmt_of(t, R);
			const struct msite *uf = tmeta_site(t->m, fn[inv[k]]), *wf = tmeta_site(t->m, fn[inv[W]]);
			size_t ub;
			const char *uf_field;
			if (wrote || !uk || !uk->text || !us || !wst || !rst || !uf || !wf ||
			    !lvalue_field(uk->text, &ub, &uf_field))
				continue;
			const char *usep = uk->text[ub] == '.' ? "." : "->";
			add->file = file_of(&w->bad, us->file);
			add->after = us->line;
			add->text = omitted_assignment(wst->text, ws->text, bl, uk->text, ub, usep);
			/* the stale field named as the update writes its object: "str->length" */
			return xasprintf("%s:%d %s in %s() updates %s but not %.*s%s%s, which %s() set with it (%s:%d %s): "
					 "%s:%d reads the old %s (%lld)",
					 file_of(&w->bad, us->file), us->line, us->text, uf->name, uk->text, (int)ub, uk->text,
					 uk->text[ub] == '.' ? "." : "->", field, wf->name, file_of(&w->bad, wst->file),
					 wst->line, wst->text, file_of(&w->bad, rst->file), rst->line, field,
					 trace_value(we, 1));
		}
	}
	return NULL;
}

/* The first field left stale among the writes of the tree's causes, and
 * the assignment that would refresh it (add). */
static char *stale_field(struct why *w, const struct ctree *ct, struct added *add)
{
	const struct trace *t = &w->bad.tr;
	if (!ct->n || t->cut)
		return NULL;
	uint32_t *fn, *caller, *inv = invocations(t, &fn, &caller);
	char *s = NULL;
	for (size_t i = 0; i < ct->n && !s; i++)
		for (size_t k = 0; k < ct->nodes[i].nstmts && !s; k++)
			if (ct->nodes[i].stmts[k].ev < t->n)
				s = stale_write(w, t, inv, fn, ct->nodes[i].stmts[k].ev, add);
	free(inv);
	free(fn);
	free(caller);
	return s;
}

/* The stale field's omitted assignment, added and tested: a fix no
 * reversion can give. rc <0 only when stopped or on an error. */
static int stale_fix(struct why *w, struct ctree *t, const struct added *add, struct cerr *e)
{
	if (!add->text || !w->env.add_line)
		return 0;
	int pass = w->env.add_line(w->env.priv, add->file, add->after, add->text, e);
	if (pass < 0)
		return -1;
	emit(w, "STALE_FIX", "adding \"%s\" after %s:%d %s", add->text, add->file, add->after,
	     pass ? "makes the test pass" : "does not make the test pass");
	if (pass) {
		lock(w, 1);
		free(t->stale_fix);
		t->stale_fix = xasprintf("adding \"%s\" after %s:%d makes the test pass (built and tested)", add->text,
					 add->file, add->after);
		lock(w, 0);
	}
	return 0;
}

/* The values returned to code outside the project (a test driver not
 * built with it, the caller of a library): returns of functions entered
 * when no traced function was running, pointers left out (their addresses
 * differ from run to run). k-th of n: event, function. */
struct outside_ret {
	uint32_t ev;
	const char *fn;
};

static struct outside_ret *outside_returns(const struct trace *t, size_t *n)
{
	struct outside_ret *v = NULL;
	size_t cap = 0;
	uint32_t *fns, *caller, *inv = invocations(t, &fns, &caller);
	*n = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct tev *e = &t->ev[i];
		if (e->kind != TE_RET || !inv[i] || caller[inv[i]])
			continue;
		const struct msite *r = tmeta_site(t->m, e->id);
		const struct msite *fn = r ? tmeta_site(t->m, r->fid) : NULL;
		if (!fn || fn->kind != 'N' || r->t.cls == 'p' || !strcmp(fn->name, "main"))
			continue;
		if (*n == cap)
			v = xrealloc(v, (cap = cap ? 2 * cap : 16) * sizeof(*v));
		v[(*n)++] = (struct outside_ret){(uint32_t)i, fn->name};
	}
	free(inv);
	free(fns);
	free(caller);
	return v;
}

/* The first value the failing run returned to code outside the project
 * that differs from the good run's for the same call (paired by function
 * and rank): its event, and the good run's value in *good_value. */
static uint32_t outside_return_of(const struct trace *t, const struct trace *g, long long *good_value)
{
	size_t nb, ng;
	struct outside_ret *b = outside_returns(t, &nb), *gv = outside_returns(g, &ng);
	uint32_t found = TRACE_NONE;
	for (size_t i = 0; i < nb && found == TRACE_NONE; i++) {
		size_t rank = 0, j;
		for (size_t k = 0; k < i; k++)
			rank += !strcmp(b[k].fn, b[i].fn);
		for (j = 0; j < ng; j++)
			if (!strcmp(gv[j].fn, b[i].fn) && rank-- == 0)
				break;
		if (j == ng)
			continue;
		long long bvv = trace_value(&t->ev[b[i].ev], 1), gvv = trace_value(&g->ev[gv[j].ev], 1);
		if (bvv != gvv) {
			found = b[i].ev;
			*good_value = gvv;
		}
	}
	free(b);
	free(gv);
	return found;
}

/* The status a traced process exited with, as its trace tells: exit(n)'s
 * argument or main's return value; -1 when it does not tell. */
static long long exit_status_of(const struct trace *t)
{
	uint32_t c = exit_call_of(t);
	if (c != TRACE_NONE) {
		const struct msite *site = tmeta_site(t->m, t->ev[c].id);
		long long v;
		if (site && site->nargs == 1 && site->args[0] && formula_eval(t, (uint32_t)t->n, site->args[0], &v) == 0)
			return v & 0xff;
		return -1;
	}
	uint32_t r = main_return_of(t);
	return r != TRACE_NONE ? trace_value(&t->ev[r], 1) & 0xff : -1;
}

static int assert_failed(const struct trace *t)
{
	for (size_t i = t->n; i-- > 0;) {
		const struct tev *v = &t->ev[i];
		if (v->kind != TE_BRANCH || v->val)
			continue;
		const struct msite *b = tmeta_site(t->m, v->id);
		if (b && b->kind == 'B' && !strcmp(b->kindname, "assert"))
			return 1;
	}
	return 0;
}

/* Whether process b of the failing run fails where the good run's process
 * g (NULL: none to compare with) did not: an assert, a crash, an exit
 * status, or output that differs. */
static int process_fails(const struct trace *b, const struct trace *g)
{
	if (assert_failed(b) && !(g && assert_failed(g)))
		return 1;
	if (b->sig && !(g && g->sig == b->sig))
		return 1;
	long long sb = exit_status_of(b), sg = g ? exit_status_of(g) : 0;
	if (sb > 0 && sg != sb)
		return 1;
	return g && (b->out.len != g->out.len || (b->out.len && memcmp(b->out.s, g->out.s, b->out.len)));
}

/* A test command that runs several traced processes (a script running the
 * program on several inputs, a pipe of two programs): the failure is in
 * the first process that fails where the good run's process of the same
 * rank did not. Both sides' traces become those processes; with none, the
 * last process stays. */
static void choose_process(struct why *w)
{
	char *bp = xasprintf("%s/trace-%.12s.bin", w->o.workdir, w->o.bad);
	char *gp = xasprintf("%s/trace-%.12s.bin", w->o.workdir, w->o.good);
	size_t n = w->bad.tr.nprocs < 64 ? w->bad.tr.nprocs : 64;
	for (size_t i = 0; i < n; i++) {
		struct trace b, g;
		struct cerr ie;
		if (trace_load_proc(&b, bp, &w->bad.meta, (long)i, &ie) < 0)
			continue;
		int hg = w->good.loaded && trace_load_proc(&g, gp, &w->good.meta, (long)i, &ie) == 0;
		if (process_fails(&b, hg ? &g : NULL)) {
			trace_release(&w->bad.tr);
			w->bad.tr = b;
			if (hg) {
				trace_release(&w->good.tr);
				w->good.tr = g;
			}
			w->bad_proc = (long)i;
			break;
		}
		trace_release(&b);
		if (hg)
			trace_release(&g);
	}
	free(bp);
	free(gp);
}

/* Whether an expression's value comes from the run (a read, a write, a
 * call's result, or what the metadata could not describe), not from
 * constants written in the source alone. */
static int tree_reads(const struct mnode *n)
{
	if (!n)
		return 0;
	if (n->op == 's')   /* a string literal */
		return 0;
	if (n->op != 'k' && n->op != 'u' && n->op != 'b' && n->op != 'q' && n->op != 'x')
		return 1;
	for (int i = 0; i < 3; i++)
		if (tree_reads(n->k[i]))
			return 1;
	return 0;
}

static int failure_point(struct why *w, struct seed *s, struct cerr *e)
{
	struct ctree *ct = w->t;
	struct buf d = BUF_INIT;
	memset(s, 0, sizeof(*s));
	s->parent = -1;
	s->stmt_ev = TRACE_NONE;
	const struct msite *where = NULL;   /* the statement the description names */
	if (w->bad.tr.nprocs > 1) {
		if (!w->good.loaded && !w->reloading && trace_side(w, &w->good, w->o.good, e) < 0)
			return -1;
		choose_process(w);
	}
	struct trace *t = &w->bad.tr;

	/* A failed assert. */
	for (size_t i = t->n; i-- > 0 && s->stmt_ev == TRACE_NONE;) {
		const struct tev *v = &t->ev[i];
		if (v->kind != TE_BRANCH || v->val)
			continue;
		const struct msite *b = tmeta_site(t->m, v->id);
		if (b && b->kind == 'B' && !strcmp(b->kindname, "assert")) {
			s->stmt_ev = (uint32_t)i;
			s->x[s->nx++] = (struct expect){.kind = EXPECT_FLIP, .ev = (uint32_t)i};
			const struct msite *st = trace_stmt_of(t, i);
			where = st;
			buf_addf(&d, "%s:%d %s failed", file_of(&w->bad, st->file), st->line, st->text);
		}
	}
	/* A crash. */
	if (s->stmt_ev == TRACE_NONE && t->sig && t->sig != SIGABRT && t->sig_ev != TRACE_NONE) {
		const struct tev *v = &t->ev[t->sig_ev];
		s->stmt_ev = t->sig_ev;
		const struct msite *site = tmeta_site(t->m, v->id);
		const struct msite *st = site ? tmeta_stmt(t->m, v->id) : NULL;
		if (!st && t->last_stmt != TRACE_NONE)
			st = trace_stmt_of(t, t->last_stmt);
		if (site && site->check && site->check_tree) {
			if (!strncmp(site->check, "bounds:", 7))
				s->x[s->nx++] = (struct expect){.kind = EXPECT_BOUNDS, .ev = t->sig_ev,
								.tree = site->check_tree,
								.value = atoll(site->check + 7)};
			else
				s->x[s->nx++] = (struct expect){.kind = EXPECT_NONZERO, .ev = t->sig_ev,
								.tree = site->check_tree};
		} else if (v->val == SIGFPE && st) {
			for (unsigned id = 0; id < t->m->nids && !s->nx; id++) {
				const struct msite *x = &t->m->site[id];
				if (x->kind && x->sid == st->sid && x->kind != 'S') {
					const struct mnode *dz = div_by_zero(t, t->sig_ev, x->tree);
					for (int a = 0; !dz && a < x->nargs; a++)
						dz = div_by_zero(t, t->sig_ev, x->args[a]);
					if (dz)
						s->x[s->nx++] = (struct expect){.kind = EXPECT_NONZERO, .ev = t->sig_ev,
										.tree = dz};
				}
			}
		}
		where = st;
		int stopped = v->val == SIGTERM || v->val == SIGINT || v->val == SIGALRM;   /* a hang ended from outside */
		buf_addf(&d, "%s:%d %s %s: signal %d (%s)", st ? file_of(&w->bad, st->file) : "?",
			 st ? st->line : 0, st ? st->text : "", stopped ? "was stopped" : "crashed", (int)v->val,
			 strsignal((int)v->val));
	}
	/* Output that differs from the good revision's. */
	uint32_t exit_call = s->stmt_ev == TRACE_NONE && exit_status_of(t) != 0 ? exit_call_of(t) : TRACE_NONE;
	if (s->stmt_ev == TRACE_NONE) {
		if (!w->good.loaded && (w->reloading || trace_side(w, &w->good, w->o.good, e) < 0)) {
			buf_release(&d);
			return w->reloading ? cerr_set(e, "the good revision's trace is gone") : -1;
		}
		struct trace *g = &w->good.tr;
		size_t k = 0;
		while (k < t->out.len && k < g->out.len && t->out.s[k] == g->out.s[k])
			k++;
		if (k < t->out.len && (k < g->out.len || t->out.len != g->out.len)) {
			uint32_t o = t->out_ev[k], call = t->src[o];
			const struct msite *c = call != TRACE_NONE ? tmeta_site(t->m, t->ev[call].id) : NULL;
			uint32_t go = k < g->out.len ? g->out_ev[k] : TRACE_NONE;
			uint32_t gcall = go != TRACE_NONE ? g->src[go] : TRACE_NONE;
			const struct msite *gc = gcall != TRACE_NONE ? tmeta_site(g->m, g->ev[gcall].id) : NULL;
			for (int a = 0; c && gc && a < c->nargs && a < gc->nargs && s->nx < MAX_EXPECT; a++) {
				long long bv, gv;
				if (formula_eval(t, o, c->args[a], &bv) == 0 && formula_eval(g, go, gc->args[a], &gv) == 0 &&
				    bv != gv && c->args[a]->t.cls != 'p')
					s->x[s->nx++] = (struct expect){.kind = EXPECT_EQ, .ev = o, .tree = c->args[a],
									.value = gv};
			}
			/* No number differs: the string printed does. Printed from
			 * memory a string function filled (its identity, read by
			 * the output call, comes from a copy), the copy must have
			 * written another string. */
			if (c && !s->nx) {
				const uint32_t *dd;
				size_t nd = trace_deps(t, o, &dd);
				for (size_t q = 0; q < nd && !s->nx; q++) {   /* (printf: its first %s copied) */
					const struct tev *r = &t->ev[dd[q]];
					uint32_t wr = r->kind == TE_READ && r->id == 0 ? t->src[dd[q]] : TRACE_NONE;
					if (wr != TRACE_NONE && t->ev[wr].kind == TE_WRITE)
						s->x[s->nx++] = (struct expect){.kind = EXPECT_EVENT_NE, .ev = wr,
										.value = (long long)t->ev[wr].val};
				}
			}
			/* Otherwise its pointer
			 * (to a literal, followed by the formula) must then be
			 * another than the one that printed the wrong text. When
			 * no value decides it (the literal is written in the call
			 * itself), what fails is that the statement ran: the branch
			 * that governs it must go the other way. */
			uint32_t gov = t->ctl ? t->ctl[call != TRACE_NONE ? call : o] : TRACE_NONE;
			for (int a = 0; c && !s->nx && a < c->nargs; a++) {
				long long bv;
				if (!c->args[a] || (c->args[a]->t.cls != 'p' && c->args[a]->op != 's') || !string_arg(c->name, a) ||
				    s->nx >= MAX_EXPECT)
					continue;
				if (!tree_reads(c->args[a]) && gov < t->n && t->ev[gov].kind == TE_BRANCH)
					s->x[s->nx++] = (struct expect){.kind = EXPECT_FLIP, .ev = gov};
				else if (formula_eval(t, o, c->args[a], &bv) == 0)
					s->x[s->nx++] = (struct expect){.kind = EXPECT_NE, .ev = o, .tree = c->args[a],
									.value = bv};
			}
			if (s->nx || exit_call == TRACE_NONE) {
				s->stmt_ev = o;
				const struct msite *st = trace_stmt_of(t, call != TRACE_NONE ? call : o);
				struct buf bb = BUF_INIT, gb = BUF_INIT;
				out_bytes(t, o, &bb);
				if (go != TRACE_NONE)
					out_bytes(g, go, &gb);
				where = st;
				buf_addf(&d, "%s:%d %s printed \"", st ? file_of(&w->bad, st->file) : "?", st ? st->line : 0,
					 st ? st->text : "");
				escape_out(bb.s ? bb.s : "", bb.len, &d);
				if (go != TRACE_NONE) {
					buf_adds(&d, "\", the good revision printed \"");
					escape_out(gb.s ? gb.s : "", gb.len, &d);
					buf_addc(&d, '"');
				} else {
					buf_adds(&d, "\", the good revision printed nothing more");
				}
				buf_release(&bb);
				buf_release(&gb);
			}
		} else if (k == t->out.len && k < g->out.len && exit_call == TRACE_NONE) {
			uint32_t go = g->out_ev[k], b = missing_output_branch(w, t, g, go);
			if (b != TRACE_NONE) {
				s->stmt_ev = b;
				s->x[s->nx++] = (struct expect){.kind = EXPECT_FLIP, .ev = b};
				const struct msite *st = trace_stmt_of(t, b);
				struct buf gb = BUF_INIT;
				out_bytes(g, go, &gb);
				where = st;
				buf_addf(&d, "%s:%d %s was %s where the good revision's was %s and printed \"",
					 st ? file_of(&w->bad, st->file) : "?", st ? st->line : 0, st ? st->text : "",
					 t->ev[b].val ? "true" : "false", t->ev[b].val ? "false" : "true");
				escape_out(gb.s ? gb.s : "", gb.len, &d);
				buf_adds(&d, "\": this run printed less");
				buf_release(&gb);
			}
		}
	}
	/* A non-zero exit status. */
	if (s->stmt_ev == TRACE_NONE && exit_call != TRACE_NONE) {
		const struct msite *c = tmeta_site(t->m, t->ev[exit_call].id);
		s->stmt_ev = exit_call;
		if (c->nargs == 1 && c->args[0])
			s->x[s->nx++] = (struct expect){.kind = EXPECT_EQ, .ev = (uint32_t)t->n, .tree = c->args[0],
							.value = 0};
		const struct msite *st = trace_stmt_of(t, exit_call);
		where = st;
		buf_addf(&d, "%s:%d %s exited with a failure status", st ? file_of(&w->bad, st->file) : "?",
			 st ? st->line : 0, st ? st->text : "");
	}
	uint32_t mret = s->stmt_ev == TRACE_NONE ? main_return_of(t) : TRACE_NONE;
	if (mret != TRACE_NONE && t->ev[mret].val) {
		const struct tev *v = &t->ev[mret];
		s->stmt_ev = mret;
		s->x[s->nx++] = (struct expect){.kind = EXPECT_EVENT_EQ, .ev = mret, .value = 0};
		const struct msite *st = trace_stmt_of(t, mret);
		where = st;
		buf_addf(&d, "%s:%d %s: main returned %lld", file_of(&w->bad, st->file), st->line, st->text,
			 trace_value(v, 1));
	}
	/* A value returned to code outside the project (the test's own
	 * driver, built apart) that the good revision's run did not return. */
	long long gval = 0;
	uint32_t oret = s->stmt_ev == TRACE_NONE && w->good.loaded && !t->cut && !w->good.tr.cut
				? outside_return_of(t, &w->good.tr, &gval)
				: TRACE_NONE;
	if (oret != TRACE_NONE) {
		const struct msite *r = tmeta_site(t->m, t->ev[oret].id);
		const struct msite *fn = tmeta_site(t->m, r->fid);
		s->stmt_ev = oret;
		s->x[s->nx++] = (struct expect){.kind = EXPECT_EVENT_EQ, .ev = oret, .value = gval};
		const struct msite *st = trace_stmt_of(t, oret);
		where = st;
		buf_addf(&d, "%s:%d %s: %s returned %lld to its caller outside the project, the good revision's %lld",
			 file_of(&w->bad, st->file), st->line, st->text, fn->name, trace_value(&t->ev[oret], 1), gval);
	}
	if (s->stmt_ev == TRACE_NONE) {
		buf_release(&d);
		return cerr_set(e, "no failure point in the trace: the program neither failed an assert, crashed, "
				   "exited with a failure status, printed something else than the good revision nor "
				   "returned another value to its caller outside the project");
	}
	if (w->bad_proc >= 0)
		buf_addf(&d, " (traced run %ld of %zu)", w->bad_proc + 1, t->nprocs);
	lock(w, 1);
	ct->failure = buf_detach(&d);
	uint32_t at = s->stmt_ev;
	if (t->ev[at].kind == TE_OUT && t->src[at] != TRACE_NONE)
		at = t->src[at];   /* the output call's statement */
	const struct msite *st = where ? where : trace_stmt_of(t, at);
	if (!st && t->last_stmt != TRACE_NONE)
		st = trace_stmt_of(t, t->last_stmt);
	ct->failure_file = xstrdup(st ? file_of(&w->bad, st->file) : "?");
	ct->failure_line = st ? st->line : 0;
	ct->failure_ev = s->stmt_ev;
	lock(w, 0);
	return 0;
}

/* ------------------------------------------------ critical predicates */

/* Each cause gives at most 8 critical predicates at branch sites that have
 * no seed yet, and at most 8 more that are other instances (loop
 * iterations) of a site that has one: those are repeats, run only when no
 * new site is left, so a loop's iterations neither crowd out the other
 * predicates of a cause nor spend the rounds before the tree goes deeper. */
struct pushed {
	size_t fresh, repeats;
};

static void push_pred(struct why *w, uint32_t b, int parent, struct pushed *p)
{
	if (b == TRACE_NONE || bits_test(w->visited, b))
		return;
	const struct trace *t = &w->bad.tr;
	size_t site = t->ev[b].id;
	int repeat = site < t->m->nids && bits_test(w->sites, site);
	if (repeat ? p->repeats >= 8 : p->fresh >= 8)
		return;
	bits_set(w->visited, b);
	if (site < t->m->nids)
		bits_set(w->sites, site);
	w->q = xrealloc(w->q, (w->nq + 1) * sizeof(*w->q));
	struct seed *s = &w->q[w->nq++];
	memset(s, 0, sizeof(*s));
	s->parent = parent;
	s->stmt_ev = b;
	s->repeat = repeat;
	s->x[s->nx++] = (struct expect){.kind = EXPECT_FLIP, .ev = b};
	branch_desc(w, b, s);
	if (repeat)
		p->repeats++;
	else
		p->fresh++;
}

static void critical_predicates(struct why *w, const struct ct_node *n, int node)
{
	const struct trace *t = &w->bad.tr;
	struct pushed added = {0, 0};
	/* Direct influence: the branch each statement ran under. */
	for (size_t i = 0; i < n->nstmts; i++)
		if (n->stmts[i].ev < t->n) {
			uint32_t c = t->ctl[n->stmts[i].ev];
			if (c != TRACE_NONE && t->ev[c].kind == TE_BRANCH)
				push_pred(w, c, node, &added);
		}
	/* Indirect influence: a branch between a read and the write it saw
	 * whose other arm could have assigned the variable. */
	for (size_t i = 0; i < n->nstmts; i++) {
		uint32_t e = n->stmts[i].ev;
		if (e >= t->n)
			continue;
		const uint32_t *d;
		size_t nd = trace_deps(t, e, &d);
		for (size_t k = 0; k < nd; k++) {
			if (t->ev[d[k]].kind != TE_READ)
				continue;
			const struct msite *r = tmeta_site(t->m, t->ev[d[k]].id);
			if (!r || !r->name)
				continue;
			uint32_t from = t->src[d[k]];
			size_t lo = from == TRACE_NONE ? 0 : from, steps = 0;
			for (size_t b = d[k]; b-- > lo + 1 && steps < 200000; steps++)
				if (t->ev[b].kind == TE_BRANCH && trace_other_arm_assigns(t, (uint32_t)b, r->name))
					push_pred(w, (uint32_t)b, node, &added);
		}
	}
}

/* The next seed: the first waiting one at a new branch site (breadth
 * first), else the first waiting repeat; NULL when none is left. */
static struct seed *next_seed(struct why *w)
{
	while (w->qhead < w->nq && w->q[w->qhead].done)
		w->qhead++;
	struct seed *first = NULL;
	for (size_t i = w->qhead; i < w->nq; i++) {
		if (w->q[i].done)
			continue;
		if (!w->q[i].repeat)
			return &w->q[i];
		if (!first)
			first = &w->q[i];
	}
	return first;
}

/* ----------------------------------------------------------- the rounds */

static int changes_of_all(const struct why *w, struct bits *u)
{
	int any = 0;
	for (size_t i = 0; i < w->t->n; i++)
		for (size_t k = 0; k < w->t->nodes[i].nchanges; k++) {
			any |= !bits_test(u, w->t->nodes[i].changes[k]);
			bits_set(u, w->t->nodes[i].changes[k]);
		}
	return any;
}

static int gate(struct why *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int gate(struct why *w, const char *fmt, ...)
{
	if (!w->env.gate)
		return 0;
	va_list ap;
	va_start(ap, fmt);
	struct buf b = BUF_INIT;
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	int rc = w->env.gate(w->env.priv, b.s);
	buf_release(&b);
	return rc;
}

static int dynamic_round(struct why *w, struct bits *u, struct cerr *e)
{
	struct ctree *t = w->t;
	size_t n = bits_count(u), k = 0;
	size_t *ch = xmalloc((n + 1) * sizeof(*ch));
	for (size_t i = 0; i < u->n; i++)
		if (bits_test(u, i))
			ch[k++] = i;
	struct buf ids = BUF_INIT;
	for (size_t i = 0; i < k; i++)
		buf_addf(&ids, "%s#%u", i ? " " : "", w->set->changes[ch[i]].id);
	int g = gate(w, "dynamic round: reverting %s", ids.s);
	if (g) {
		free(ch);
		buf_release(&ids);
		return g < 0 ? -1 : 1;
	}
	size_t *root = NULL, *aux = NULL, nroot = 0, naux = 0;
	int rc = w->env.revert(w->env.priv, ch, k, &root, &nroot, &aux, &naux, e);
	lock(w, 1);
	t->dynamic_rounds++;
	if (rc == 1) {
		t->root = root;
		t->nroot = nroot;
		t->aux = aux;
		t->naux = naux;
		t->root_found = 1;
		root = aux = NULL;
	}
	lock(w, 0);
	if (rc == 1)
		emit(w, "ROOT", "root cause found: reverting %zu of %s passes", nroot, ids.s);
	else if (rc == 0)
		emit(w, "DYNAMIC", "reverting %s does not pass: the root lies further up", ids.s);
	free(root);
	free(aux);
	free(ch);
	buf_release(&ids);
	return rc < 0 ? -1 : 0;
}

static void ct_node_release(struct ct_node *n);

static int same_str(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

/* The tree's cause that n repeats (another iteration of its predicate,
 * under the same cause, with the same statements and values), or -1. */
static int repeated_cause(const struct ctree *t, const struct ct_node *n)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct ct_node *o = &t->nodes[i];
		int same = o->parent == n->parent && same_str(o->edge, n->edge) && o->nstmts == n->nstmts &&
			   same_str(o->note, n->note);
		for (size_t k = 0; same && k < n->nstmts; k++)
			same = same_str(o->stmts[k].file, n->stmts[k].file) && o->stmts[k].line == n->stmts[k].line &&
			       same_str(o->stmts[k].values, n->stmts[k].values);
		if (same)
			return (int)i;
	}
	return -1;
}

int why_run(struct why *w, struct ctree *t, struct cerr *e)
{
	w->t = t;
	int max = w->o.max_rounds > 0 ? w->o.max_rounds : 16;
	int g0 = gate(w, "tracing the failing run of %.12s", w->o.bad);
	if (g0) {
		lock(w, 1);
		t->note = xstrdup("stopped before the failing run was traced");
		t->done = 1;
		lock(w, 0);
		if (g0 < 0)
			cerr_set(e, "stopped");
		return g0 < 0 ? -1 : 1;
	}
	if (trace_side(w, &w->bad, w->o.bad, e) < 0)
		goto failed;
	lock(w, 1);
	t->events = w->bad.tr.n;
	lock(w, 0);
	emit(w, "TRACE", "traced the failing run: %zu events", w->bad.tr.n);
	struct seed first;
	if (failure_point(w, &first, e) < 0)
		goto failed;
	{
		struct bits *sl = bits_new(w->bad.tr.n + 1);
		uint32_t seed = first.stmt_ev;
		size_t size = trace_slice(&w->bad.tr, &seed, 1, sl);
		bits_free(sl);
		lock(w, 1);
		t->slice = size;
		lock(w, 0);
	}
	emit(w, "FAILURE", "failure: %s", t->failure);
	w->visited = bits_new(w->bad.tr.n + 1);
	w->sites = bits_new(w->bad.tr.m->nids + 1);
	if (first.stmt_ev < w->bad.tr.n)
		bits_set(w->visited, first.stmt_ev);
	memcpy(w->fail_x, first.x, first.nx * sizeof(*first.x));
	w->fail_nx = first.nx;
	w->q = xmalloc(sizeof(*w->q));
	w->q[0] = first;
	w->nq = 1;
	w->f = formula_new(&w->bad.tr);
	struct bits *u = bits_new(w->set->nchanges + 1);
	int rc = 0;
	while (next_seed(w) && !t->root_found) {
		if (t->semantic_rounds >= max) {
			lock(w, 1);
			t->note = xasprintf("stopped after %d semantic rounds", max);
			lock(w, 0);
			break;
		}
		struct seed *s = next_seed(w);
		s->done = 1;
		int g = gate(w, "semantic round %d: %s", t->semantic_rounds + 1, s->edge ? s->edge : t->failure);
		if (g) {
			rc = g < 0 ? -1 : 1;
			if (g < 0)
				cerr_set(e, "stopped");
			break;
		}
		struct cause_result cr;
		if (formula_cause(w->f, s->x, s->nx, &cr, e) < 0) {
			rc = -1;
			break;
		}
		struct ct_node n = {0};
		n.parent = s->parent;
		n.edge = s->edge ? xstrdup(s->edge) : NULL;
		n.edge_file = s->edge_file ? xstrdup(s->edge_file) : NULL;
		n.edge_line = s->edge_line;
		n.edge_ev = s->parent >= 0 ? s->stmt_ev : TRACE_NONE;
		node_add_stmt(w, &n, s->stmt_ev, 0);
		for (size_t i = 0; i < cr.n; i++)
			node_add_stmt(w, &n, cr.ev[i], 0);
		/* It forces the failure when its core is found and what it explains does. */
		n.forcing = cr.found && (s->parent < 0 || (s->parent < (int)t->n && t->nodes[s->parent].forcing));
		if (!cr.found)
			n.note = xstrdup(cr.why ? cr.why : "no cause");
		else if (cr.boundary)
			n.note = xasprintf("the chain goes on: %zu values are taken as observed where the search stopped "
					   "(%zu clauses)", cr.boundary, cr.clauses);
		else if (cr.opaque)
			n.note = xasprintf("%zu of its statements could not be modelled: their observed values are taken "
					   "as given", cr.opaque);
		/* Another iteration that says what a cause already says: counted,
		 * not shown, and its predicates are that cause's. */
		int same = repeated_cause(t, &n);
		lock(w, 1);
		if (same < 0) {
			t->nodes = xrealloc(t->nodes, (t->n + 1) * sizeof(*t->nodes));
			t->nodes[t->n++] = n;
		}
		t->semantic_rounds++;
		t->clauses += cr.clauses;
		t->formula_checks += cr.checks;
		t->solver_seconds += cr.seconds;
		lock(w, 0);
		if (same >= 0) {
			emit(w, "CAUSE", "cause %d again (another iteration: the same statements and values)", same + 1);
			ct_node_release(&n);
			cause_result_release(&cr);
			continue;
		}
		emit(w, "CAUSE", "cause %zu: %zu statements (%zu clauses, %.2fs)%s%s", t->n, n.nstmts, cr.clauses,
		     cr.seconds, cr.found ? "" : ": ", cr.found ? "" : n.note);
		cause_result_release(&cr);
		int node = (int)t->n - 1;
		if (changes_of_all(w, u)) {
			int d = dynamic_round(w, u, e);
			if (d) {
				rc = d;
				break;
			}
		}
		if (!t->root_found)
			critical_predicates(w, &t->nodes[node], node);
	}
	bits_free(u);
	lock(w, 1);
	/* Honest: when no cause forces the failure, say why in one line, also
	 * when the revert search found the root (reverting proves the root, not
	 * the chain: the tree's causes then explain nothing). */
	size_t forcing = 0;
	for (size_t i = 0; i < t->n; i++)
		forcing += t->nodes[i].forcing;
	if (!forcing && !t->no_explanation) {
		const char *why = t->n && t->nodes[0].note ? t->nodes[0].note : "no cause was found";
		t->no_explanation = t->trace_cut ? xasprintf("the trace was cut, its values before the cut are not "
							    "followed: %s", why)
						 : xstrdup(why);
		if (!t->note && rc == 0 && !t->root_found)   /* (the note is what the tree pane shows) */
			t->note = xasprintf("no semantic explanation: %s", t->no_explanation);
	}
	if (!t->root_found && !t->note && rc == 0)
		t->note = xstrdup(t->n ? "no critical predicate is left and reverting the changes in the causes does "
					 "not pass: the dynamic analysis's answer stands"
				       : "no cause");
	if (rc == 1 && !t->note)
		t->note = xstrdup("stopped: the tree is partial");
	struct added add = {0};
	free(t->stale);
	t->stale = rc == 0 ? stale_field(w, t, &add) : NULL;
	t->done = !add.text;
	lock(w, 0);
	if (add.text && stale_fix(w, t, &add, e) < 0 && e->msg[0] && strcmp(e->msg, "stopped"))
		emit(w, "STALE_FIX", "the omitted assignment was not tested: %s", e->msg);
	free(add.text);
	lock(w, 1);
	t->done = 1;
	lock(w, 0);
	return rc;
failed:
	lock(w, 1);
	free(t->note);
	t->note = xasprintf("no semantic explanation: %s", e->msg);
	free(t->no_explanation);
	t->no_explanation = xstrdup(e->msg);
	t->done = 1;
	lock(w, 0);
	return -1;
}

/* ------------------------------------------------------------- the tree */

static void ct_node_release(struct ct_node *n)
{
	free(n->edge);
	free(n->edge_file);
	free(n->note);
	for (size_t k = 0; k < n->nstmts; k++) {
		free(n->stmts[k].file);
		free(n->stmts[k].text);
		free(n->stmts[k].values);
	}
	free(n->stmts);
	free(n->changes);
}

void ctree_release(struct ctree *t)
{
	for (size_t i = 0; i < t->n; i++)
		ct_node_release(&t->nodes[i]);
	free(t->nodes);
	free(t->failure);
	free(t->failure_file);
	free(t->root);
	free(t->aux);
	free(t->note);
	free(t->no_explanation);
	free(t->untraced);
	free(t->trace_cut);
	free(t->stale);
	free(t->stale_fix);
	memset(t, 0, sizeof(*t));
}

static void ids_json(const size_t *v, size_t n, const unsigned *ids, struct buf *b)
{
	buf_addc(b, '[');
	for (size_t i = 0; i < n; i++)
		buf_addf(b, "%s%u", i ? "," : "", ids[v[i]]);
	buf_addc(b, ']');
}

void ctree_json(const struct ctree *t, const unsigned *ids, struct buf *b)
{
	buf_adds(b, "{\"failure\":");
	json_str_or_null(b, t->failure);
	buf_adds(b, ",\"failure_file\":");
	json_str_or_null(b, t->failure_file);
	buf_addf(b, ",\"failure_line\":%d,\"failure_event\":%u,\"root_found\":%s,\"root\":", t->failure_line,
		 t->failure_ev, t->root_found ? "true" : "false");
	ids_json(t->root, t->nroot, ids, b);
	buf_adds(b, ",\"auxiliary\":");
	ids_json(t->aux, t->naux, ids, b);
	buf_adds(b, ",\"note\":");
	json_str_or_null(b, t->note);
	buf_adds(b, ",\"no_explanation\":");
	json_str_or_null(b, t->no_explanation);
	buf_adds(b, ",\"untraced\":");
	json_str_or_null(b, t->untraced);
	buf_adds(b, ",\"trace_cut\":");
	json_str_or_null(b, t->trace_cut);
	buf_adds(b, ",\"stale\":");
	json_str_or_null(b, t->stale);
	buf_adds(b, ",\"stale_fix\":");
	json_str_or_null(b, t->stale_fix);
	buf_addf(b, ",\"semantic_rounds\":%d,\"dynamic_rounds\":%d,\"events\":%zu,\"slice\":%zu,\"clauses\":%zu,"
		    "\"solver_checks\":%zu,\"instrument_seconds\":%.3f,\"traced_seconds\":%.3f,\"solver_seconds\":%.3f",
		 t->semantic_rounds, t->dynamic_rounds, t->events, t->slice, t->clauses, t->formula_checks,
		 t->instrument_seconds, t->traced_seconds, t->solver_seconds);
	buf_adds(b, ",\"nodes\":[{\"id\":0,\"kind\":\"failure\",\"file\":");
	json_str_or_null(b, t->failure_file);
	buf_addf(b, ",\"line\":%d,\"text\":", t->failure_line);
	json_str_or_null(b, t->failure);
	buf_adds(b, "}");
	for (size_t i = 0; i < t->n; i++) {
		const struct ct_node *n = &t->nodes[i];
		buf_addf(b, ",{\"id\":%zu,\"kind\":\"cause\",\"parent\":%d,\"file\":", i + 1, n->parent + 1);
		json_str_or_null(b, n->nstmts ? n->stmts[0].file : NULL);
		buf_addf(b, ",\"line\":%d,\"edge\":", n->nstmts ? n->stmts[0].line : 0);
		json_str_or_null(b, n->edge);
		buf_adds(b, ",\"edge_file\":");
		json_str_or_null(b, n->edge_file);
		buf_addf(b, ",\"edge_line\":%d,\"edge_event\":%u,\"forcing\":%s,\"note\":", n->edge_line, n->edge_ev,
			 n->forcing ? "true" : "false");
		json_str_or_null(b, n->note);
		buf_adds(b, ",\"changes\":");
		ids_json(n->changes, n->nchanges, ids, b);
		buf_adds(b, ",\"statements\":[");
		for (size_t k = 0; k < n->nstmts; k++) {
			const struct ct_stmt *s = &n->stmts[k];
			buf_adds(b, k ? ",{\"file\":" : "{\"file\":");
			json_str(b, s->file);
			buf_addf(b, ",\"line\":%d,\"text\":", s->line);
			json_str(b, s->text);
			buf_adds(b, ",\"values\":");
			json_str(b, s->values);
			if (s->change >= 0)
				buf_addf(b, ",\"change\":%u", ids[s->change]);
			else
				buf_adds(b, ",\"change\":null");
			buf_addf(b, ",\"opaque\":%s,\"event\":%u}", s->opaque ? "true" : "false", s->ev);
		}
		buf_adds(b, "]}");
	}
	/* The changes are the leaves. */
	for (size_t i = 0; i < t->n; i++)
		for (size_t k = 0; k < t->nodes[i].nchanges; k++)
			buf_addf(b, ",{\"id\":\"change-%zu-%u\",\"kind\":\"change\",\"change\":%u}", i + 1,
				 ids[t->nodes[i].changes[k]], ids[t->nodes[i].changes[k]]);
	buf_adds(b, "],\"edges\":[");
	int first = 1;
	for (size_t i = 0; i < t->n; i++) {
		const struct ct_node *n = &t->nodes[i];
		buf_addf(b, "%s{\"from\":%d,\"to\":%zu,\"predicate\":", first ? "" : ",", n->parent + 1, i + 1);
		json_str_or_null(b, n->edge);
		buf_adds(b, "}");
		first = 0;
		for (size_t k = 0; k < n->nchanges; k++)
			buf_addf(b, ",{\"from\":%zu,\"to\":\"change-%zu-%u\",\"predicate\":null}", i + 1, i + 1,
				 ids[n->changes[k]]);
	}
	buf_adds(b, "]}");
}

static size_t *jids(const struct json *a, const unsigned *ids, size_t nids, size_t *n)
{
	*n = 0;
	if (!a || a->type != JSON_ARRAY)
		return NULL;
	size_t *v = xmalloc((a->n + 1) * sizeof(*v));
	for (size_t i = 0; i < a->n; i++)
		for (size_t c = 0; c < nids; c++)
			if (a->kids[i]->type == JSON_NUMBER && ids[c] == (unsigned)a->kids[i]->num) {
				v[(*n)++] = c;
				break;
			}
	return v;
}

int ctree_from_json(struct ctree *t, const char *text, size_t len, const unsigned *ids, size_t nids, struct cerr *e)
{
	memset(t, 0, sizeof(*t));
	struct json *j = json_parse(text, len, e);
	if (!j)
		return -1;
	if (j->type != JSON_OBJECT) {
		json_free(j);
		return cerr_set(e, "the stored causal tree is not an object");
	}
	t->failure = json_get_str(j, "failure");
	t->failure_file = json_get_str(j, "failure_file");
	t->failure_line = (int)json_get_num(j, "failure_line");
	t->failure_ev = (uint32_t)json_get_num(j, "failure_event");
	const struct json *rf = json_get(j, "root_found");
	t->root_found = rf && rf->type == JSON_TRUE;
	t->root = jids(json_get(j, "root"), ids, nids, &t->nroot);
	t->aux = jids(json_get(j, "auxiliary"), ids, nids, &t->naux);
	t->note = json_get_str(j, "note");
	t->no_explanation = json_get_str(j, "no_explanation");
	t->untraced = json_get_str(j, "untraced");
	t->trace_cut = json_get_str(j, "trace_cut");
	t->stale = json_get_str(j, "stale");
	t->stale_fix = json_get_str(j, "stale_fix");
	t->semantic_rounds = (int)json_get_num(j, "semantic_rounds");
	t->dynamic_rounds = (int)json_get_num(j, "dynamic_rounds");
	t->events = (size_t)json_get_num(j, "events");
	t->slice = (size_t)json_get_num(j, "slice");
	t->clauses = (size_t)json_get_num(j, "clauses");
	t->formula_checks = (size_t)json_get_num(j, "solver_checks");
	t->instrument_seconds = json_get_num(j, "instrument_seconds");
	t->traced_seconds = json_get_num(j, "traced_seconds");
	t->solver_seconds = json_get_num(j, "solver_seconds");
	t->done = 1;
	const struct json *nodes = json_get(j, "nodes");
	for (size_t i = 0; nodes && nodes->type == JSON_ARRAY && i < nodes->n; i++) {
		const struct json *o = nodes->kids[i];
		const struct json *kind = json_get(o, "kind");
		if (!kind || kind->type != JSON_STRING || strcmp(kind->str, "cause"))
			continue;
		t->nodes = xrealloc(t->nodes, (t->n + 1) * sizeof(*t->nodes));
		struct ct_node *n = &t->nodes[t->n++];
		memset(n, 0, sizeof(*n));
		n->parent = (int)json_get_num(o, "parent") - 1;
		n->edge = json_get_str(o, "edge");
		n->edge_file = json_get_str(o, "edge_file");
		n->edge_line = (int)json_get_num(o, "edge_line");
		n->edge_ev = (uint32_t)json_get_num(o, "edge_event");
		n->note = json_get_str(o, "note");
		const struct json *fo = json_get(o, "forcing");
		n->forcing = fo && fo->type == JSON_TRUE;   /* unknown: not boosted */
		n->changes = jids(json_get(o, "changes"), ids, nids, &n->nchanges);
		const struct json *st = json_get(o, "statements");
		for (size_t k = 0; st && st->type == JSON_ARRAY && k < st->n; k++) {
			const struct json *s = st->kids[k];
			n->stmts = xrealloc(n->stmts, (n->nstmts + 1) * sizeof(*n->stmts));
			struct ct_stmt *c = &n->stmts[n->nstmts++];
			memset(c, 0, sizeof(*c));
			c->file = json_get_str(s, "file");
			if (!c->file)
				c->file = xstrdup("?");
			c->line = (int)json_get_num(s, "line");
			c->text = json_get_str(s, "text");
			if (!c->text)
				c->text = xstrdup("");
			c->values = json_get_str(s, "values");
			if (!c->values)
				c->values = xstrdup("");
			c->ev = (uint32_t)json_get_num(s, "event");
			const struct json *op = json_get(s, "opaque");
			c->opaque = op && op->type == JSON_TRUE;
			c->change = -1;
			const struct json *ch = json_get(s, "change");
			for (size_t x = 0; ch && ch->type == JSON_NUMBER && x < nids; x++)
				if (ids[x] == (unsigned)ch->num)
					c->change = (long)x;
		}
	}
	json_free(j);
	return 0;
}

/* ------------------------------------------------------------ as text */

static void change_list(const size_t *v, size_t n, const unsigned *ids, struct buf *b)
{
	for (size_t i = 0; i < n; i++)
		buf_addf(b, "%s#%u", i == 0 ? "" : i + 1 == n ? " and " : ", ", ids[v[i]]);
}

static void text_node(const struct ctree *t, size_t k, const unsigned *ids, int utf8, const char *prefix, int last,
		      struct buf *b)
{
	const struct ct_node *n = &t->nodes[k];
	const char *branch = utf8 ? (last ? "└─ " : "├─ ") : (last ? "`- " : "|- ");
	const char *cont = utf8 ? (last ? "   " : "│  ") : (last ? "   " : "|  ");
	buf_addf(b, "%s%scause %zu", prefix, branch, k + 1);
	if (n->edge)
		buf_addf(b, " %s %s", utf8 ? "←" : "<-", n->edge);
	if (n->nchanges) {
		buf_adds(b, " [change ");
		change_list(n->changes, n->nchanges, ids, b);
		buf_addc(b, ']');
	}
	buf_addc(b, '\n');
	struct buf sub = BUF_INIT;
	buf_addf(&sub, "%s%s", prefix, cont);
	size_t shown = 0;
	/* Closest to the failure first: the chain read backwards. */
	for (size_t i = n->nstmts; i-- > 0;) {
		const struct ct_stmt *s = &n->stmts[i];
		if (n->edge && s->ev == n->edge_ev)
			continue;   /* the predicate itself is on the node's line */
		if (shown++ == 12) {
			buf_addf(b, "%s   ... %zu more statements\n", sub.s, i + 1);
			break;
		}
		buf_addf(b, "%s   %s:%d  %s", sub.s, s->file, s->line, s->text);
		if (s->values && s->values[0])
			buf_addf(b, "  (%s)", s->values);
		if (s->change >= 0)
			buf_addf(b, "  change #%u", ids[s->change]);
		if (s->opaque)
			buf_adds(b, "  [opaque]");
		buf_addc(b, '\n');
	}
	if (n->note)
		buf_addf(b, "%s   (%s)\n", sub.s, n->note);
	size_t nk = 0, seen = 0;
	for (size_t i = 0; i < t->n; i++)
		nk += t->nodes[i].parent == (int)k;
	for (size_t i = 0; i < t->n; i++)
		if (t->nodes[i].parent == (int)k)
			text_node(t, i, ids, utf8, sub.s, ++seen == nk, b);
	buf_release(&sub);
}

void ctree_text(const struct ctree *t, const unsigned *ids, int utf8, struct buf *b)
{
	if (!t->failure) {
		if (t->no_explanation)
			buf_addf(b, "no semantic explanation: %s\n", t->no_explanation);
		else
			buf_addf(b, "%s\n", t->note ? t->note : "no semantic explanation");
		if (t->untraced)
			buf_addf(b, "untraced: %s\n", t->untraced);
		if (t->trace_cut)
			buf_addf(b, "trace cut: %s\n", t->trace_cut);
		return;
	}
	buf_addf(b, "failure: %s\n", t->failure);
	size_t nk = 0, seen = 0;
	for (size_t i = 0; i < t->n; i++)
		nk += t->nodes[i].parent < 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->nodes[i].parent < 0)
			text_node(t, i, ids, utf8, "", ++seen == nk, b);
	if (t->root_found) {
		buf_adds(b, t->nroot > 1 ? "root cause: changes " : "root cause: change ");
		change_list(t->root, t->nroot, ids, b);
		buf_addf(b, " (reverting %s makes the test pass); auxiliary: ", t->nroot > 1 ? "them" : "it");
		if (t->naux)
			change_list(t->aux, t->naux, ids, b);
		else
			buf_adds(b, "none");
		buf_addc(b, '\n');
	} else if (t->note) {
		buf_addf(b, "%s\n", t->note);
	}
	if (t->no_explanation && (!t->note || strncmp(t->note, "no semantic explanation", 23)))
		buf_addf(b, "no semantic explanation: %s\n", t->no_explanation);
	if (t->stale)
		buf_addf(b, "stale field: %s\n", t->stale);
	if (t->stale_fix)
		buf_addf(b, "stale field's fix: %s\n", t->stale_fix);
	buf_addf(b, "%d semantic and %d dynamic rounds; %zu events traced, slice of %zu, %zu clauses, %.2f s in Z3\n",
		 t->semantic_rounds, t->dynamic_rounds, t->events, t->slice, t->clauses, t->solver_seconds);
	if (t->untraced)
		buf_addf(b, "untraced: %s\n", t->untraced);
	if (t->trace_cut)
		buf_addf(b, "trace cut: %s\n", t->trace_cut);
}
