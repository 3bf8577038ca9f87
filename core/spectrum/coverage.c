#include "core/spectrum/coverage.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/json.h"
#include "core/isolate/run.h"

#define GCOV_MAX_OUTPUT (256u << 20)

/* One test's raw result: (file path, line, count) triples. */
struct raw_line {
	char *file;
	uint32_t line;
	int hit;
};

struct job {
	const struct suite_test *t;
	const char *worktree;
	char *dir;                 /* its GCOV_PREFIX directory */
	double timeout;
	const volatile int *cancel;
	struct cov_run run;
	struct raw_line *raw;
	size_t nraw, capraw;
	char err[2048];
};

struct pool {
	struct job *jobs;
	size_t njobs, next;
	pthread_mutex_t lock;
};

static int path_components(const char *p)
{
	int n = 0;
	for (; *p; p++)
		if (*p == '/' && p[1] && p[1] != '/')
			n++;
	return n;
}

/* The project's own files only: relative paths that stay inside the worktree. */
static int own_file(const char *f)
{
	return f[0] && f[0] != '/' && strncmp(f, "../", 3) && !strstr(f, "/../");
}

static void add_raw(struct job *j, const char *file, uint32_t line, int hit)
{
	if (j->nraw == j->capraw) {
		j->capraw = j->capraw ? 2 * j->capraw : 256;
		j->raw = xrealloc(j->raw, j->capraw * sizeof(*j->raw));
	}
	j->raw[j->nraw++] = (struct raw_line){xstrdup(file), line, hit};
}

/* The data files of all runs, read by gcov in batches. */
struct gcda {
	size_t job;
	char *path;
};

struct gcda_list {
	struct gcda *v;
	size_t n, cap;
};

#define GCOV_BATCH 256

/* Every .gcda under dir (rel: its path below the prefix root), with the
 * notes file linked beside it, where gcov looks for it. */
static void find_gcda(struct job *j, size_t job, const char *dir, const char *rel, struct gcda_list *l)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *path = xasprintf("%s/%s", dir, de->d_name);
		char *sub = rel[0] ? xasprintf("%s/%s", rel, de->d_name) : xstrdup(de->d_name);
		struct stat st;
		size_t nl = strlen(de->d_name);
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			find_gcda(j, job, path, sub, l);
		} else if (nl > 5 && !strcmp(de->d_name + nl - 5, ".gcda")) {
			char *src = xasprintf("%s/%.*s.gcno", j->worktree, (int)(strlen(sub) - 5), sub);
			char *dst = xasprintf("%.*s.gcno", (int)(strlen(path) - 5), path);
			unlink(dst);
			if (symlink(src, dst) == 0) {
				if (l->n == l->cap) {
					l->cap = l->cap ? 2 * l->cap : 64;
					l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
				}
				l->v[l->n++] = (struct gcda){job, path};
				path = NULL;
			}
			free(src);
			free(dst);
		}
		free(path);
		free(sub);
	}
	closedir(d);
}

/* One gcov document (the counts of one data file) into its job's raw lines. */
static int take_doc(struct job *jobs, const struct gcda_list *l, size_t from, size_t to, const struct json *doc)
{
	const struct json *data = json_get(doc, "data_file");
	if (!data || data->type != JSON_STRING)
		return -1;
	size_t k = from;
	while (k < to && strcmp(l->v[k].path, data->str))
		k++;
	if (k == to)
		return -1;
	struct job *j = &jobs[l->v[k].job];
	const struct json *files = json_get(doc, "files");
	for (size_t f = 0; files && f < files->n; f++) {
		const struct json *name = json_get(files->kids[f], "file");
		const struct json *lines = json_get(files->kids[f], "lines");
		if (!name || name->type != JSON_STRING || !own_file(name->str) || !lines)
			continue;
		for (size_t i = 0; i < lines->n; i++) {
			const struct json *ln = json_get(lines->kids[i], "line_number");
			const struct json *cnt = json_get(lines->kids[i], "count");
			if (ln && cnt && ln->type == JSON_NUMBER && cnt->type == JSON_NUMBER && ln->num >= 1)
				add_raw(j, name->str, (uint32_t)ln->num, cnt->num > 0);
		}
	}
	return 0;
}

/* gcov over data files [from, to): one process for the whole batch. */
static int read_batch(struct job *jobs, const char *worktree, const struct gcda_list *l, size_t from, size_t to,
		      struct cerr *e)
{
	struct buf cmd = BUF_INIT;
	buf_adds(&cmd, "gcov --json-format --stdout");
	for (size_t k = from; k < to; k++) {
		buf_addc(&cmd, ' ');
		shell_quote(&cmd, l->v[k].path);
	}
	buf_adds(&cmd, " 2>/dev/null");   /* warnings (a source newer than its notes) are not JSON */
	struct run_opts o = {.cmd = cmd.s, .cwd = worktree, .timeout = 300, .output_cap = GCOV_MAX_OUTPUT};
	struct run_result r;
	int rc = run_command(&o, &r, e);
	buf_release(&cmd);
	if (rc < 0)
		return -1;
	if (r.status != RUN_EXITED || r.code != 0 || r.truncated) {
		run_result_release(&r);
		return cerr_set(e, "gcov failed on the data files of the tests");
	}
	for (char *p = r.out.s; rc == 0 && p && *p;) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len > 0 && *p == '{') {
			struct json *doc = json_parse(p, len, e);
			if (!doc)
				rc = -1;
			else if (take_doc(jobs, l, from, to, doc) < 0)
				rc = cerr_set(e, "gcov's JSON names a data file it was not given");
			json_free(doc);
		}
		p = nl ? nl + 1 : NULL;
	}
	run_result_release(&r);
	return rc;
}

static int read_all_gcda(struct job *jobs, size_t n, const char *worktree, struct cerr *e)
{
	struct gcda_list l = {NULL, 0, 0};
	for (size_t i = 0; i < n; i++)
		find_gcda(&jobs[i], i, jobs[i].dir, "", &l);
	int rc = 0;
	for (size_t k = 0; rc == 0 && k < l.n; k += GCOV_BATCH)
		rc = read_batch(jobs, worktree, &l, k, k + GCOV_BATCH < l.n ? k + GCOV_BATCH : l.n, e);
	for (size_t k = 0; k < l.n; k++)
		free(l.v[k].path);
	free(l.v);
	return rc;
}

static void run_job(struct job *j)
{
	struct cerr e;
	char *prefix = xasprintf("GCOV_PREFIX=%s", j->dir);
	char *strip = xasprintf("GCOV_PREFIX_STRIP=%d", path_components(j->worktree));
	const char *env[] = {prefix, strip, NULL};
	struct run_opts o = {.cmd = j->t->cmd, .cwd = j->worktree, .timeout = j->timeout, .cancel = j->cancel, .env = env};
	struct run_result r;
	j->run.name = xstrdup(j->t->name);
	if (mkdir_p(j->dir, 0755, &e) < 0 || run_command(&o, &r, &e) < 0) {
		snprintf(j->err, sizeof(j->err), "%.1000s", e.msg);
	} else {
		j->run.seconds = r.seconds;
		j->run.code = r.code;
		if (r.status == RUN_EXITED && r.code == 0)
			j->run.status = COV_PASS;
		else if (r.status == RUN_TIMEOUT || r.status == RUN_CANCELLED || (r.status == RUN_EXITED && r.code == 125))
			j->run.status = COV_UNRESOLVED;
		else
			j->run.status = COV_FAIL;
		run_result_release(&r);
	}
	free(prefix);
	free(strip);
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		size_t i = p->next < p->njobs ? p->next++ : p->njobs;
		pthread_mutex_unlock(&p->lock);
		if (i == p->njobs)
			return NULL;
		run_job(&p->jobs[i]);
	}
}

static int cmp_line(const void *a, const void *b)
{
	const struct cov_line *x = a, *y = b;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static uint32_t file_index(const struct coverage *c, const char *f)
{
	char *const *hit = bsearch(&f, c->files, c->nfiles, sizeof(*c->files), cmp_str);
	return (uint32_t)(hit - c->files);
}

long coverage_find(const struct coverage *c, const char *file, uint32_t line)
{
	char *const *fp = bsearch(&file, c->files, c->nfiles, sizeof(*c->files), cmp_str);
	if (!fp)
		return -1;
	struct cov_line key = {(uint32_t)(fp - c->files), line};
	struct cov_line *hit = bsearch(&key, c->lines, c->nlines, sizeof(*c->lines), cmp_line);
	return hit ? hit - c->lines : -1;
}

/* Build the file table, the line table and each run's hits from the jobs'
 * raw lines; the runs' names move into c. */
static void assemble(struct coverage *c, struct job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < jobs[i].nraw; k++) {
			const char *f = jobs[i].raw[k].file;
			int known = 0;
			for (size_t x = 0; x < c->nfiles && !known; x++)
				known = !strcmp(c->files[x], f);
			if (!known) {
				c->files = xrealloc(c->files, (c->nfiles + 1) * sizeof(*c->files));
				c->files[c->nfiles++] = xstrdup(f);
			}
		}
	if (c->nfiles)
		qsort(c->files, c->nfiles, sizeof(*c->files), cmp_str);
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += jobs[i].nraw;
	c->lines = xmalloc((total + 1) * sizeof(*c->lines));
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < jobs[i].nraw; k++)
			c->lines[c->nlines++] = (struct cov_line){file_index(c, jobs[i].raw[k].file), jobs[i].raw[k].line};
	if (c->nlines)
		qsort(c->lines, c->nlines, sizeof(*c->lines), cmp_line);
	size_t u = 0;
	for (size_t i = 0; i < c->nlines; i++)
		if (u == 0 || cmp_line(&c->lines[u - 1], &c->lines[i]))
			c->lines[u++] = c->lines[i];
	c->nlines = u;
	c->runs = xcalloc(n + 1, sizeof(*c->runs));
	c->nruns = n;
	for (size_t i = 0; i < n; i++) {
		c->runs[i] = jobs[i].run;
		jobs[i].run.name = NULL;
		c->runs[i].hit = bits_new(c->nlines);
		for (size_t k = 0; k < jobs[i].nraw; k++)
			if (jobs[i].raw[k].hit)
				bits_set(c->runs[i].hit, (size_t)coverage_find(c, jobs[i].raw[k].file, jobs[i].raw[k].line));
	}
}

static void release_jobs(struct job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < jobs[i].nraw; k++)
			free(jobs[i].raw[k].file);
		free(jobs[i].raw);
		free(jobs[i].dir);
		free(jobs[i].run.name);
	}
	free(jobs);
}

int coverage_collect(struct coverage *c, const char *worktree, const char *rundir, const struct suite *s,
		     int jobs, double timeout, const volatile int *cancel, struct cerr *e)
{
	memset(c, 0, sizeof(*c));
	if (remove_tree(rundir, e) < 0 || mkdir_p(rundir, 0755, e) < 0)
		return -1;
	struct pool p = {xcalloc(s->n + 1, sizeof(struct job)), s->n, 0, PTHREAD_MUTEX_INITIALIZER};
	for (size_t i = 0; i < s->n; i++) {
		p.jobs[i].t = &s->v[i];
		p.jobs[i].worktree = worktree;
		p.jobs[i].dir = xasprintf("%s/%zu", rundir, i);
		p.jobs[i].timeout = timeout;
		p.jobs[i].cancel = cancel;
	}
	if (jobs < 1)
		jobs = 1;
	pthread_t *th = xcalloc((size_t)jobs, sizeof(*th));
	int started = 0;
	for (int i = 0; i < jobs; i++)
		if (pthread_create(&th[i], NULL, worker, &p) == 0)
			started++;
	if (started == 0)
		worker(&p);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	free(th);

	int rc = 0;
	for (size_t i = 0; i < s->n && !rc; i++)
		if (p.jobs[i].err[0])
			rc = cerr_set(e, "test '%s': %s", s->v[i].name, p.jobs[i].err);
	if (rc == 0)
		rc = read_all_gcda(p.jobs, s->n, worktree, e);
	if (rc == 0)
		assemble(c, p.jobs, s->n);
	release_jobs(p.jobs, s->n);
	if (rc < 0)
		coverage_release(c);
	return rc;
}

char *coverage_hits_text(const struct coverage *c, size_t run)
{
	struct buf b = BUF_INIT;
	for (size_t l = 0; l < c->nlines; l++)
		if (bits_test(c->runs[run].hit, l))
			buf_addf(&b, "%s\t%u\n", c->files[c->lines[l].file], c->lines[l].line);
	return buf_detach(&b);
}

int coverage_from_text(struct coverage *c, size_t nruns, char *const *names, const enum cov_status *status,
		       const int *codes, char *const *hits, struct cerr *e)
{
	struct job *jobs = xcalloc(nruns + 1, sizeof(*jobs));
	int rc = 0;
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < nruns && !rc; i++) {
		for (const char *p = hits[i] ? hits[i] : ""; *p;) {
			const char *tab = strchr(p, '\t'), *nl = strchr(p, '\n');
			if (!tab || !nl || tab > nl) {
				rc = cerr_set(e, "stored coverage of '%s' is damaged", names[i]);
				break;
			}
			char *file = xstrndup(p, (size_t)(tab - p));
			add_raw(&jobs[i], file, (uint32_t)strtoul(tab + 1, NULL, 10), 1);
			free(file);
			p = nl + 1;
		}
		jobs[i].run.name = xstrdup(names[i]);
		jobs[i].run.status = status[i];
		jobs[i].run.code = codes[i];
	}
	if (rc == 0)
		assemble(c, jobs, nruns);
	release_jobs(jobs, nruns);
	return rc;
}

void coverage_release(struct coverage *c)
{
	for (size_t i = 0; i < c->nfiles; i++)
		free(c->files[i]);
	for (size_t i = 0; i < c->nruns; i++) {
		free(c->runs[i].name);
		bits_free(c->runs[i].hit);
	}
	free(c->files);
	free(c->lines);
	free(c->runs);
	memset(c, 0, sizeof(*c));
}
