/* The session's shared helpers, used by every stage (explain_bisect.c,
 * explain_search.c, explain_rank.c, explain_refine.c, explain_why.c) and by
 * the state machine in explain.c: the model's lock, events, activity and
 * phase; running a build; testing one configuration (from the store or built
 * and tested now); the suite and the coverage build. It calls no stage. */
#include "core/session/stage.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <unistd.h>

#include "core/isolate/config.h"
#include "core/isolate/dd.h"
#include "core/isolate/workspace.h"

#define EXCERPT_MAX 4096
#define FAILING_TEST_NAME "(the failing test)"
#define DEFAULT_COVERAGE_BUILD "make CFLAGS=\"-O0 -g --coverage -include $CULPRIT_GCOV_FLUSH\" LDFLAGS=--coverage"

/* Included in every file of the coverage build (through $CULPRIT_GCOV_FLUSH):
 * a test that crashes or fails an assert still leaves its coverage, since
 * gcov only writes its counts at exit. */
static const char gcov_flush_header[] =
	"/* written by culprit: dump coverage counts when a test dies by a signal */\n"
	"#include <signal.h>\n"
	"extern void __gcov_dump(void);\n"
	"static void culprit_gcov_on_signal(int sig)\n"
	"{\n"
	"\t__gcov_dump();\n"
	"\tsignal(sig, SIG_DFL);\n"
	"\traise(sig);\n"
	"}\n"
	"__attribute__((constructor)) static void culprit_gcov_catch(void)\n"
	"{\n"
	"\tstatic const int sigs[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTERM};\n"
	"\tfor (unsigned i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)\n"
	"\t\tsignal(sigs[i], culprit_gcov_on_signal);\n"
	"}\n";

/* The commit bisection named, when it named one. */
const char *explain_culprit_commit(const struct explain *x)
{
	if (!x->commits || x->hi != x->lo + 1 || x->unrelated)
		return NULL;
	return x->commits[x->hi];
}

void ex_short_hex(const char *hex, char out[13])
{
	snprintf(out, 13, "%.12s", hex);
}

void ex_lock(struct explain *x)
{
	pthread_mutex_lock(&x->lock);
}

void ex_unlock(struct explain *x)
{
	pthread_mutex_unlock(&x->lock);
}

void ex_event(struct explain *x, const char *type, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (!x->opts.replay)
		store_event_add(x->p->store, x->p->session, type, b.s, NULL);
	if (x->hooks.event)
		x->hooks.event(x->hooks.priv, type, b.s);
	buf_release(&b);
}

void ex_activity(struct explain *x, char *activity)
{
	ex_lock(x);
	free(x->activity);
	x->activity = activity;
	ex_unlock(x);
}

void ex_phase(struct explain *x, enum explain_phase p)
{
	ex_lock(x);
	x->phase = p;
	ex_unlock(x);
}

char *ex_dup(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void ex_list_release(struct explain_list *l)
{
	free(l->v);
	free(l->proof_label);
	l->v = NULL;
	l->n = 0;
	l->proof_key[0] = '\0';
	l->proof_label = NULL;
}

int ex_ensure_workspace(struct explain *x, const char *base, struct cerr *e)
{
	if (x->p->ws && !strcmp(x->p->ws_base, base))
		return 0;
	workspace_free(x->p->ws);
	x->p->ws = NULL;
	char *dir = xasprintf("%sculprit/wt-%.12s", x->gitdir, base);
	int rc = workspace_open(&x->p->ws, x->p->repo, dir, base, e);
	free(dir);
	if (rc < 0)
		return -1;
	memcpy(x->p->ws_base, base, 41);
	return 0;
}

void ex_on_output(void *priv, const char *data, size_t len)
{
	struct explain *x = priv;
	if (x->hooks.output)
		x->hooks.output(x->hooks.priv, data, len);
}

/* The last lines of an output, at most EXCERPT_MAX bytes: from the first
 * line that starts inside the window, or, when the window holds no line
 * start (one long line), from the cut, past any UTF-8 continuation bytes. */
static char *tail_excerpt(const struct buf *out)
{
	if (!out->s || !out->len)
		return xstrdup("");
	size_t from = out->len > EXCERPT_MAX ? out->len - EXCERPT_MAX : 0;
	if (from > 0) {
		const char *nl = memchr(out->s + from - 1, '\n', out->len - from);
		if (nl)
			from = (size_t)(nl - out->s) + 1;
		else
			while (from < out->len && ((unsigned char)out->s[from] & 0xC0) == 0x80)
				from++;
	}
	return xstrndup(out->s + from, out->len - from);
}

int ex_was_stopped(const struct explain *x)
{
	return x->hooks.cancel && *x->hooks.cancel;
}

/* Run a build command in dir (counted, shown as the activity). */
int ex_run_build(struct explain *x, const char *dir, const char *cmd, const char *what, const char *const *env,
		 struct run_result *r, struct cerr *e)
{
	struct run_opts ro = {.cmd = cmd, .cwd = dir, .timeout = x->opts.build_timeout, .cancel = x->hooks.cancel,
			      .on_output = ex_on_output, .priv = x, .env = env};
	ex_activity(x, xasprintf("%s: %s", what, cmd));
	if (run_command(&ro, r, e) < 0)
		return -1;
	x->builds++;
	free(x->p->built_dir);
	x->p->built_dir = xstrdup(dir);
	return 0;
}

/* Whether the last build ran in dir. */
int ex_built_last(const struct explain *x, const char *dir)
{
	return x->p->built_dir && !strcmp(x->p->built_dir, dir);
}

/* Build dir; an error unless the build succeeded. */
static int build_checked(struct explain *x, const char *dir, const char *cmd, const char *const *env,
			 const char *label, const char *what, struct cerr *e)
{
	struct run_result r;
	if (ex_run_build(x, dir, cmd, label, env, &r, e) < 0)
		return -1;
	ex_activity(x, NULL);
	int rc = 0;
	if (r.status == RUN_CANCELLED)
		rc = ABORT_STOPPED;
	else if (r.status != RUN_EXITED || r.code != 0) {
		char *err = ex_build_error(x, &r);
		rc = cerr_set(e, "the %s build failed (%s): %s", what, cmd, err ? err : "no output");
		free(err);
	}
	run_result_release(&r);
	return rc;
}

/* Before a run in dir that no build precedes: when the last build ran in
 * another tree, build dir again, since what a build writes may lie
 * outside its tree (one binary for every tree) and be another tree's now.
 * Builds that write in their own tree only make nothing here. */
int ex_build_here(struct explain *x, const char *dir, const char *cmd, const char *const *env, const char *what,
		  struct cerr *e)
{
	if (!cmd || !cmd[0] || ex_built_last(x, dir))
		return 0;
	char *label = xasprintf("building %s again", what);
	int rc = build_checked(x, dir, cmd, env, label, what, e);
	free(label);
	return rc;
}

/* What a failed build says: its first compiler error, or that it timed out. */
char *ex_build_error(const struct explain *x, const struct run_result *r)
{
	return r->status == RUN_TIMEOUT ? run_describe(r, x->opts.build_timeout)
					: oracle_build_error(r->out.s ? r->out.s : "");
}

#define IDENTITY_RUNS 5
#define TREE_MARK "<tree>"

/* The worktree's own path in a run's output made one mark: a failure
 * printing an absolute path (an assert's __FILE__ as CMake passes it, a
 * test naming `$PWD/prog`) is the same failure in every tree culprit
 * builds in. */
static void tree_neutral(struct buf *out, const char *dir)
{
	size_t n = strlen(dir);
	if (!n || !out->s || !memmem(out->s, out->len, dir, n))
		return;
	struct buf o = BUF_INIT;
	for (size_t i = 0; i < out->len;) {
		const char *hit = memmem(out->s + i, out->len - i, dir, n);
		size_t upto = hit ? (size_t)(hit - out->s) : out->len;
		buf_add(&o, out->s + i, upto - i);
		if (!hit)
			break;
		buf_adds(&o, TREE_MARK);
		i = upto + n;
	}
	buf_release(out);
	*out = o;
}

/* Build and test the worktree as it is now. expected NULL: the bad revision,
 * whose failure becomes the signature. Fills o (not its key or label). */
static int build_and_test(struct explain *x, const char *expected, struct outcome *o, struct cerr *e)
{
	const char *dir = workspace_path(x->p->ws);
	struct run_opts ro = {.cwd = dir, .cancel = x->hooks.cancel, .on_output = ex_on_output, .priv = x};
	struct run_result r;

	if (x->build[0]) {
		if (ex_run_build(x, dir, x->build, "building", NULL, &r, e) < 0)
			return -1;
		o->build_seconds = r.seconds;
		if (r.status == RUN_CANCELLED) {
			run_result_release(&r);
			return ABORT_STOPPED;
		}
		if (r.status != RUN_EXITED || r.code != 0) {
			o->verdict = VERDICT_UNRESOLVED;
			o->why = r.status == RUN_TIMEOUT ? WHY_BUILD_TIMEOUT : WHY_BUILD;
			o->excerpt = ex_build_error(x, &r);
			run_result_release(&r);
			return 0;
		}
		run_result_release(&r);
	}

	ro.cmd = x->opts.test;
	ro.timeout = x->opts.test_timeout;
	ex_activity(x, xasprintf("testing: %s", x->opts.test));
	/* The bad revision runs IDENTITY_RUNS times at least: what differs
	 * between its failing runs is masked in the failure's identity (a
	 * failure whose manner varies, as memory corruption's does, shows
	 * itself in a few runs more often than in two). */
	int runs = !expected && x->opts.repeat < IDENTITY_RUNS ? IDENTITY_RUNS : x->opts.repeat;
	struct run_result first;
	memset(&first, 0, sizeof(first));
	for (int i = 0; i < runs; i++) {
		if (run_command(&ro, &r, e) < 0) {
			run_result_release(&first);
			return -1;
		}
		if (r.status == RUN_CANCELLED) {
			run_result_release(&r);
			run_result_release(&first);
			return ABORT_STOPPED;
		}
		enum unresolved_why why = WHY_NONE;
		char *sig = NULL;
		tree_neutral(&r.out, dir);
		char *real = realpath(dir, NULL);
		if (real && strcmp(real, dir))
			tree_neutral(&r.out, real);
		free(real);
		enum verdict v = oracle_judge(x->p->oracle, expected, &r, &why, &sig);
		if (!expected && sig) {
			v = VERDICT_FAIL;   /* at the bad revision, any failure is the failure */
			why = WHY_NONE;
		}
		o->test_seconds += r.seconds;
		o->runs++;
		if (i == 0) {
			o->verdict = v;
			o->why = why;
			o->signature = sig;
			free(o->excerpt);
			o->excerpt = r.status == RUN_TIMEOUT ? run_describe(&r, ro.timeout) : tail_excerpt(&r.out);
		} else {
			if ((int)v != o->verdict)
				o->flaky = 1;
			if (!expected && i == 1 && v == VERDICT_FAIL && o->verdict == VERDICT_FAIL) {
				char *id = NULL;
				if (oracle_identity(x->p->oracle, &first, &r, &id) != 0)
					o->flaky = 1;
				free(o->signature);
				o->signature = id;
			} else if (!expected && i > 1 && v == VERDICT_FAIL && o->verdict == VERDICT_FAIL &&
				   oracle_identity_add(x->p->oracle, &o->signature, &r) != 0) {
				o->flaky = 1;
			}
			free(sig);
		}
		if (i == 0 && !expected) {
			first = r;   /* kept for the identity */
			continue;
		}
		run_result_release(&r);
	}
	run_result_release(&first);
	if (o->flaky) {
		o->verdict = VERDICT_UNRESOLVED;
		o->why = WHY_FLAKY;
	}
	return 0;
}

static void remember_config(struct explain *x, const struct outcome *o, int stored)
{
	ex_lock(x);
	x->configs = xrealloc(x->configs, (x->nconfigs + 1) * sizeof(*x->configs));
	struct explain_config *c = &x->configs[x->nconfigs++];
	memcpy(c->key, o->key, 41);
	c->label = xstrdup(o->label ? o->label : "");
	c->verdict = o->verdict;
	c->why = o->why;
	c->signature = ex_dup(o->signature);
	c->excerpt = ex_dup(o->excerpt);
	c->build_seconds = o->build_seconds;
	c->test_seconds = o->test_seconds;
	c->stored = stored;
	if (o->why == WHY_FLAKY)
		x->flaky++;
	ex_unlock(x);
}

/* Apply, build and test now. The outcome is trusted only when the worktree
 * still holds the configuration afterwards (something else writing there,
 * such as a second run before the lock, would make it a false verdict): else
 * the worktree is reopened from what is on disk and the configuration tested
 * again. Differing twice means the build or the test writes those files
 * itself: the outcome stands, and later checks look at the state file only. */
static int test_now(struct explain *x, const struct change_set *s, const struct bits *applied, const char *label,
		    const char *expected, struct outcome *o, struct cerr *e)
{
	for (int attempt = 0;; attempt++) {
		size_t written = 0;
		if (ex_ensure_workspace(x, s->old_rev, e) < 0 || workspace_apply(x->p->ws, s, applied, &written, e) < 0)
			return -1;
		double t0 = now_seconds();
		int rc = build_and_test(x, expected, o, e);
		ex_activity(x, NULL);
		if (rc < 0)
			return rc;
		struct cerr diff = {{0}};
		int same = workspace_verify(x->p->ws, !x->p->tree_written_by_build, &diff);
		if (!same && attempt == 0) {
			ex_event(x, "WORKTREE_CHANGED", "%s: %s while it was built and tested: tested again", label,
				 diff.msg);
			char key[41];
			memcpy(key, o->key, 41);
			outcome_release(o);
			memset(o, 0, sizeof(*o));
			memcpy(o->key, key, 41);
			o->label = xstrdup(label);
			workspace_free(x->p->ws);   /* reopened from the disk, not from what we think is there */
			x->p->ws = NULL;
			continue;
		}
		if (!same) {
			x->p->tree_written_by_build = 1;
			ex_event(x, "WORKTREE_CHANGED", "%s: %s again: the build or the test writes it", label, diff.msg);
		}
		ex_event(x, "CONFIG_TESTED", "%s: %s%s%s%s%s (%.1fs, %zu file%s written)", label, verdict_name(o->verdict),
			 o->why ? ", " : "", why_name(o->why), o->why == WHY_DIFFERENT ? ": " : "",
			 o->why == WHY_DIFFERENT && o->signature ? o->signature : "", now_seconds() - t0, written,
			 written == 1 ? "" : "s");
		return 0;
	}
}

/* The failing commit with one line added after line `after` of file (a
 * candidate for an assignment the commit omitted, indented as that line),
 * built and tested for the failure `expected`; the file is put back and
 * the worktree is read again from the disk. 0 with o filled, or <0. */
int ex_test_added_line(struct explain *x, const char *file, int after, const char *text, const char *expected,
		       struct outcome *o, struct cerr *e)
{
	memset(o, 0, sizeof(*o));
	if (ex_was_stopped(x))
		return ABORT_STOPPED;
	struct bits *all = bits_new(x->set->natoms);
	bits_fill(all);
	int rc = ex_ensure_workspace(x, x->set->old_rev, e) < 0 || workspace_apply(x->p->ws, x->set, all, NULL, e) < 0
			 ? -1
			 : 0;
	bits_free(all);
	if (rc < 0)
		return -1;
	char *path = xasprintf("%s/%s", workspace_path(x->p->ws), file);
	struct buf old = BUF_INIT, patched = BUF_INIT;
	rc = file_read(path, &old, 64 << 20, e);
	const char *at = old.s;
	for (int l = 1; rc == 0 && at && l <= after; l++) {
		at = memchr(at, '\n', old.len - (size_t)(at - old.s));
		at = at ? at + 1 : NULL;
	}
	if (rc == 0 && !at)
		rc = cerr_set(e, "%s has no line %d", file, after);
	struct stat st;
	unsigned mode = rc == 0 && stat(path, &st) == 0 ? (unsigned)st.st_mode & 07777 : 0644;
	if (rc == 0) {
		const char *line = at - 1;   /* the start of line `after`, for its indentation */
		while (line > old.s && line[-1] != '\n')
			line--;
		size_t indent = strspn(line, " \t");
		buf_add(&patched, old.s, (size_t)(at - old.s));
		buf_add(&patched, line, indent);
		buf_addf(&patched, "%s\n", text);
		buf_add(&patched, at, old.len - (size_t)(at - old.s));
		rc = file_write_atomic(path, patched.s, patched.len, mode, e);
	}
	if (rc == 0) {
		char *label = xasprintf("bad + \"%s\" after %s:%d", text, file, after);
		ex_event(x, "ADDED_LINE", "%s", label);
		o->label = label;
		rc = build_and_test(x, expected, o, e);
		ex_activity(x, NULL);
		struct cerr e2;
		if (file_write_atomic(path, old.s, old.len, mode, &e2) < 0 && rc == 0)
			rc = cerr_set(e, "%s", e2.msg);
		free(x->p->built_dir);   /* what was built is not the worktree now */
		x->p->built_dir = NULL;
		workspace_free(x->p->ws);
		x->p->ws = NULL;
		if (rc == 0)
			ex_event(x, "CONFIG_TESTED", "%s: %s%s%s", label, verdict_name(o->verdict), o->why ? ", " : "",
				 why_name(o->why));
	}
	buf_release(&old);
	buf_release(&patched);
	free(path);
	return rc;
}

/* A failing run stored under one identity judged against another: the
 * verdict is a function of the run's signature and the failure looked for
 * (the culprit commit's own, when it fails otherwise than the bad revision). */
static void rejudge(const char *expected, struct outcome *o)
{
	if (!expected || !o->signature || !(o->verdict == VERDICT_FAIL || o->why == WHY_DIFFERENT))
		return;
	int same = oracle_same(expected, o->signature);
	o->verdict = same ? VERDICT_FAIL : VERDICT_UNRESOLVED;
	o->why = same ? WHY_NONE : WHY_DIFFERENT;
}

static int test_config(struct explain *x, const struct change_set *s, const struct bits *applied,
		       const char *label, const char *expected, int trust_stored, struct outcome *o, struct cerr *e)
{
	memset(o, 0, sizeof(*o));
	config_key(s, applied, o->key);
	for (size_t i = 0; trust_stored && i < x->nconfigs; i++)
		if (!strcmp(x->configs[i].key, o->key)) {
			const struct explain_config *c = &x->configs[i];
			o->label = xstrdup(c->label);
			o->verdict = c->verdict;
			o->why = c->why;
			o->signature = ex_dup(c->signature);
			o->excerpt = ex_dup(c->excerpt);
			o->build_seconds = c->build_seconds;
			o->test_seconds = c->test_seconds;
			rejudge(expected, o);
			return 0;
		}
	int found = trust_stored ? store_outcome_get(x->p->store, x->p->session, o->key, o, e) : 0;
	if (found < 0)
		return -1;
	if (found) {
		x->stored_hits++;
		remember_config(x, o, 1);
		rejudge(expected, o);
		return 0;
	}
	if (x->opts.replay) {
		/* An unfinished session: the answer so far, as a budget would end it. */
		if (x->p->stopping != 3)
			ex_event(x, "UNFINISHED", "the stored session is not finished (%s was not tested yet)", label);
		x->p->stopping = 3;
		return DD_STOP;
	}
	if (ex_was_stopped(x))
		return ABORT_STOPPED;
	if (x->p->stopping)
		return DD_STOP;
	if (x->opts.max_configs && !x->opts.replay) {
		size_t built = 0;
		for (size_t i = 0; i < x->nconfigs; i++)
			built += (size_t)!x->configs[i].stored;
		if (built >= x->opts.max_configs) {
			/* The budget: unwind every search with its best answer so far. */
			x->p->stopping = 2;
			ex_event(x, "BUDGET", "the budget of %zu configurations (--max-configurations) is spent",
				 x->opts.max_configs);
			return DD_STOP;
		}
	}
	int g = x->hooks.gate ? x->hooks.gate(x->hooks.priv, label) : 0;
	if (g < 0)
		return ABORT_STOPPED;
	if (g > 0) {
		x->p->stopping = 1;   /* unwind every search with its best answer */
		return DD_STOP;
	}

	o->label = xstrdup(label);
	int rc = test_now(x, s, applied, label, expected, o, e);
	if (rc < 0)
		return rc;
	if (store_outcome_put(x->p->store, x->p->session, o, e) < 0)
		return -1;
	remember_config(x, o, 0);
	return 0;
}

/* Test the configuration `applied` of set s (relative to s->old_rev): from
 * the session when it was tested before, else built and tested now. */
int ex_test_config(struct explain *x, const struct change_set *s, const struct bits *applied,
		   const char *label, const char *expected, struct outcome *o, struct cerr *e)
{
	return test_config(x, s, applied, label, expected, 1, o, e);
}

int ex_config_from_store(struct explain *x, const char *key)
{
	int stored = 0;
	ex_lock(x);
	for (size_t i = 0; i < x->nconfigs; i++)
		if (!strcmp(x->configs[i].key, key))
			stored = x->configs[i].stored;
	ex_unlock(x);
	return stored;
}

int ex_retest_config(struct explain *x, const struct change_set *s, const struct bits *applied,
		     const char *label, const char *expected, struct outcome *o, struct cerr *e)
{
	char key[41];
	config_key(s, applied, key);
	ex_lock(x);
	for (size_t i = 0; i < x->nconfigs; i++)
		if (!strcmp(x->configs[i].key, key)) {
			struct explain_config *c = &x->configs[i];
			if (c->why == WHY_FLAKY)
				x->flaky--;
			int was_stored = c->stored;
			free(c->label);
			free(c->signature);
			free(c->excerpt);
			memmove(c, c + 1, (x->nconfigs - i - 1) * sizeof(*c));
			x->stored_hits -= was_stored;
			x->nconfigs--;
			break;
		}
	ex_unlock(x);
	return test_config(x, s, applied, label, expected, 0, o, e);
}

/* One run per repository: two would share the scratch worktrees. An
 * advisory lock (flock: the kernel drops it when the holder dies, even by
 * SIGKILL) on <gitdir>/culprit/lock, which names the holder's pid. */
int ex_lock_repository(struct explain *x, struct cerr *e)
{
	char *path = xasprintf("%slock", x->p->sessdir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		cerr_set(e, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	int rc;
	while ((rc = flock(fd, LOCK_EX | LOCK_NB)) < 0 && errno == EINTR)
		;
	if (rc < 0 && errno == EWOULDBLOCK) {
		char who[32] = "";
		ssize_t n = pread(fd, who, sizeof(who) - 1, 0);
		who[n > 0 ? n : 0] = '\0';
		who[strcspn(who, "\n")] = '\0';
		char *msg = xasprintf("another culprit run%s%s%s is using this repository (%s)", who[0] ? " (pid " : "",
				      who, who[0] ? ")" : "", path);
		if (!x->opts.lock_waiting) {
			cerr_set(e, "%s: wait for it to finish, or stop it", msg);
			free(msg);
			free(path);
			close(fd);
			return -1;
		}
		x->opts.lock_waiting(msg);
		free(msg);
		while ((rc = flock(fd, LOCK_EX)) < 0 && errno == EINTR)
			;
	}
	if (rc < 0) {
		cerr_set(e, "%s: cannot lock: %s", path, strerror(errno));
		free(path);
		close(fd);
		return -1;
	}
	free(path);
	char pid[32];
	int len = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)len, 0) < 0) {
		/* the pid is for the message only */
	}
	x->p->lockfd = fd;
	return 0;
}

void ex_unlock_repository(struct explain *x)
{
	if (x->p && x->p->lockfd > 0) {
		close(x->p->lockfd);   /* releases the lock */
		x->p->lockfd = -1;
	}
}

void ex_finish_marks(struct explain *x)
{
	ex_lock(x);
	for (size_t c = 0; c < x->set->nchanges; c++)
		x->marks[c] = MARK_APPLIED;   /* not a cause: it stays as the bad revision has it */
	for (size_t i = 0; i < x->aux.n; i++)
		x->marks[x->aux.v[i].change] = MARK_AUX;
	for (size_t i = 0; i < x->fix.n; i++)
		x->marks[x->fix.v[i].change] = MARK_FIX;
	for (size_t i = 0; i < x->inducing.n; i++)
		x->marks[x->inducing.v[i].change] = x->inducing.n > 1 ? MARK_INTERACTING : MARK_INDUCING;
	ex_unlock(x);
}

/* Build dir's tree with cmd; 0, or an error naming the command. */
int ex_build_for_suite(struct explain *x, const char *dir, const char *cmd, const char *what, struct cerr *e)
{
	if (!cmd[0])
		return 0;
	char *header = xasprintf("%sgcov-flush.h", x->p->sessdir);
	char *env0 = xasprintf("CULPRIT_GCOV_FLUSH=%s", header);
	const char *env[] = {env0, NULL};
	/* Written once: a newer header would make gcov warn about every object. */
	struct buf have = BUF_INIT;
	int same = file_read(header, &have, 1 << 16, NULL) == 0 && have.len == sizeof(gcov_flush_header) - 1 &&
		   !memcmp(have.s, gcov_flush_header, have.len);
	buf_release(&have);
	int wrote = same ? 0 : file_write_atomic(header, gcov_flush_header, sizeof(gcov_flush_header) - 1, 0644, e);
	free(header);
	if (wrote < 0) {
		free(env0);
		return -1;
	}
	char *label = xasprintf("building %s", what);
	int rc = build_checked(x, dir, cmd, env, label, what, e);
	free(label);
	free(env0);
	return rc;
}

/* The suite file, with the failing test added when the suite lacks it: it
 * counts as failing even if the suite has no failing test. */
int ex_load_suite(struct explain *x, struct suite *s, struct cerr *e)
{
	if (x->opts.suite && suite_load(s, x->opts.suite, e) < 0)
		return -1;
	if (!x->opts.suite)
		memset(s, 0, sizeof(*s));
	/* The tests approved in refinement join it. */
	char *approved = store_get(x->p->store, x->p->session, "refine.approved");
	if (approved && approved[0]) {
		struct suite more;
		if (suite_parse(&more, approved, "the approved tests", e) < 0) {
			free(approved);
			suite_release(s);
			return -1;
		}
		s->v = xrealloc(s->v, (s->n + more.n + 1) * sizeof(*s->v));
		memcpy(s->v + s->n, more.v, more.n * sizeof(*s->v));
		s->n += more.n;
		free(more.v);
	}
	free(approved);
	int has_failing = 0;
	for (size_t i = 0; i < s->n; i++)
		has_failing |= !strcmp(s->v[i].cmd, x->opts.test);
	if (!has_failing) {
		s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
		s->v[s->n++] = (struct suite_test){xstrdup(FAILING_TEST_NAME), xstrdup(x->opts.test), 0};
	}
	return 0;
}

/* Coverage results and worktrees go by coverage build command too: another
 * command, other objects and other counts. */
const char *ex_coverage_build_of(const struct explain *x, char hash[41])
{
	const char *cbuild = x->opts.coverage_build ? x->opts.coverage_build : DEFAULT_COVERAGE_BUILD;
	repo_hash(cbuild, strlen(cbuild), hash);
	return cbuild;
}

