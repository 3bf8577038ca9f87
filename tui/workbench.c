/* The workbench: layout, focus, prompts, the status line, the worker thread
 * that runs the engine, and the only place that draws. Key handlers return
 * what must happen; the loop draws. */
#include "tui/workbench.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcre2.h>

#include "core/spectrum/spectra.h"
#include "views/view.h"

#define MIN_COLS 80
#define MIN_LINES 24
#define LIVE_MAX 4096
#define NPANES 4

enum { PANE_DIFF, PANE_TRACE, PANE_RANK, PANE_TREE, PANE_LOG };
enum { MODE_STEP, MODE_RUN };
enum { R_NONE = 0, R_HANDLED = 1, R_QUIT = 2 };
enum { JOB_NONE, JOB_PROPOSE, JOB_APPROVE, JOB_REJECT };

struct wb {
	struct explain *x;
	const struct workbench_opts *o;
	struct view views[5];
	struct view_ctx ctx;
	int focus, zoom, stacked, show_log;
	int utf8, color;
	char msg[512];                 /* the status line's message */
	int msg_error;
	int keys[2];
	size_t nkeys;
	char *search;                  /* the last pattern */
	enum report_format format;

	/* Shared with the worker, under lock. */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t worker;
	int mode, credits, waiting, running, start, stop, quitting, finished, result;
	volatile int cancel;
	char result_msg[1100];
	char **log;
	size_t nlog;
	char live[LIVE_MAX + 1];
	size_t nlive;
	char next[48];            /* what the next step does (the gate's label) */
	int job;                  /* refinement work for the worker (JOB_*) */
	double busy_since;
};

static int proposal_shown(struct wb *w);
static void draw_proposal(struct wb *w);

/* ------------------------------------------------------------ the worker */

static int gate(void *priv, const char *label)
{
	struct wb *w = priv;
	int rc = 0;
	pthread_mutex_lock(&w->lock);
	w->waiting = 1;
	snprintf(w->next, sizeof(w->next), "%s", label ? label : "");
	while (!w->quitting && !w->stop && !w->cancel && w->mode != MODE_RUN && w->credits == 0)
		pthread_cond_wait(&w->cond, &w->lock);
	w->waiting = 0;
	if (w->quitting || w->cancel)
		rc = -1;
	else if (w->stop) {
		w->stop = 0;
		rc = 1;
	} else if (w->mode != MODE_RUN)
		w->credits--;
	w->nlive = 0;
	w->live[0] = '\0';
	w->busy_since = now_seconds();
	pthread_mutex_unlock(&w->lock);
	return rc;
}

static void on_event(void *priv, const char *type, const char *text)
{
	struct wb *w = priv;
	pthread_mutex_lock(&w->lock);
	w->log = xrealloc(w->log, (w->nlog + 1) * sizeof(*w->log));
	w->log[w->nlog++] = xasprintf("%s  %s", type, text);
	pthread_mutex_unlock(&w->lock);
}

static void on_output(void *priv, const char *data, size_t len)
{
	struct wb *w = priv;
	pthread_mutex_lock(&w->lock);
	if (len >= LIVE_MAX) {
		data += len - LIVE_MAX;
		len = LIVE_MAX;
	}
	if (w->nlive + len > LIVE_MAX) {
		size_t drop = w->nlive + len - LIVE_MAX;
		memmove(w->live, w->live + drop, w->nlive - drop);
		w->nlive -= drop;
	}
	memcpy(w->live + w->nlive, data, len);
	w->nlive += len;
	w->live[w->nlive] = '\0';
	pthread_mutex_unlock(&w->lock);
}

/* Refinement in the worker (called and returning with w->lock held): an
 * answer, then the next proposal. */
static void refine_job(struct wb *w)
{
	int job = w->job;
	w->job = JOB_NONE;
	w->running = 1;
	w->cancel = 0;
	w->busy_since = now_seconds();
	pthread_mutex_unlock(&w->lock);
	struct cerr e = {{0}};
	int rc = 0;
	char done[256] = "";
	if (job == JOB_APPROVE || job == JOB_REJECT) {
		pthread_mutex_lock(&w->x->lock);
		snprintf(done, sizeof(done), "%s %s", job == JOB_APPROVE ? "approved" : "rejected",
			 w->x->refine.cur.name ? w->x->refine.cur.name : "");
		pthread_mutex_unlock(&w->x->lock);
		rc = explain_refine_answer(w->x, job == JOB_APPROVE ? REFINE_APPROVE : REFINE_REJECT, &e);
	}
	if (rc == 0)
		rc = explain_refine_propose(w->x, &e);
	pthread_mutex_lock(&w->lock);
	w->running = 0;
	w->finished = 1;
	if (!strncmp(w->msg, "refinement: ", 12))
		w->msg[0] = '\0';   /* what the job was doing: the status line now says how it ended */
	if (rc < 0)
		snprintf(w->result_msg, sizeof(w->result_msg), "refinement: %s", e.msg);
	else if (rc == 0)
		snprintf(w->result_msg, sizeof(w->result_msg), "%s%srefinement: %s", done, done[0] ? "; " : "",
			 w->x->refine.note ? w->x->refine.note : "nothing to propose");
	else
		snprintf(w->result_msg, sizeof(w->result_msg), "%s%srefinement: %s proposed", done, done[0] ? "; " : "",
			 w->x->refine.cur.name);
}

static void *work(void *arg)
{
	struct wb *w = arg;
	pthread_mutex_lock(&w->lock);
	while (!w->quitting) {
		while (!w->quitting && !w->start && !w->job)
			pthread_cond_wait(&w->cond, &w->lock);
		if (w->quitting)
			break;
		if (w->job) {
			refine_job(w);
			continue;
		}
		w->start = 0;
		w->running = 1;
		w->cancel = 0;
		w->finished = 0;
		pthread_mutex_unlock(&w->lock);
		struct cerr e = {{0}};
		int rc = explain_run(w->x, &e);
		pthread_mutex_lock(&w->lock);
		w->running = 0;
		w->finished = 1;
		w->result = rc;
		if (rc < 0)
			snprintf(w->result_msg, sizeof(w->result_msg), "error: %s", e.msg);
		else if (rc == 0)
			snprintf(w->result_msg, sizeof(w->result_msg), "done: failure-inducing changes found");
		else
			snprintf(w->result_msg, sizeof(w->result_msg), "%s",
				 w->x->note ? w->x->note : "the failure could not be explained");
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* Step, run: start the analysis when it is not running. */
static void drive(struct wb *w, int mode)
{
	pthread_mutex_lock(&w->lock);
	w->mode = mode;
	if (mode == MODE_STEP)
		w->credits++;
	if (!w->running) {
		if (w->finished && w->result == 0 && !w->x->note) {
			snprintf(w->msg, sizeof(w->msg), "the analysis is finished");
		} else {
			w->start = 1;
			w->finished = 0;
		}
	}
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

/* ------------------------------------------------------------- drawing */

static int pair_of(enum view_color c)
{
	return (int)c + 1;
}

static attr_t attr_of(const struct wb *w, enum view_color c)
{
	if (w->color)
		return COLOR_PAIR(pair_of(c)) | (c == VC_HEADER || c == VC_INDUCING ? A_BOLD : 0);
	switch (c) {
	case VC_HEADER:
	case VC_INDUCING:
		return A_BOLD;
	case VC_DIM:
		return A_DIM;
	case VC_FIX:
	case VC_AUX:
		return A_UNDERLINE;
	default:
		return A_NORMAL;
	}
}

static void hline_at(const struct wb *w, int y, int x, int n)
{
	for (int i = 0; i < n; i++)
		if (w->utf8)
			mvaddstr(y, x + i, "\xe2\x94\x80");
		else
			mvaddch(y, x + i, '-');
}

static void vline_at(const struct wb *w, int y, int x, int n)
{
	for (int i = 0; i < n; i++)
		if (w->utf8)
			mvaddstr(y + i, x, "\xe2\x94\x82");
		else
			mvaddch(y + i, x, '|');
}

static void corner(const struct wb *w, int y, int x, const char *utf)
{
	if (w->utf8)
		mvaddstr(y, x, utf);
	else
		mvaddch(y, x, '+');
}

/* Draw a pane in the box (y, x, h, wd). */
static void draw_pane(struct wb *w, int pane, int y, int x, int h, int wd)
{
	struct view *v = &w->views[pane];
	int focused = pane == w->focus;
	if (focused)
		attron(A_BOLD);
	hline_at(w, y, x + 1, wd - 2);
	hline_at(w, y + h - 1, x + 1, wd - 2);
	vline_at(w, y + 1, x, h - 2);
	vline_at(w, y + 1, x + wd - 1, h - 2);
	corner(w, y, x, "\xe2\x94\x8c");
	corner(w, y, x + wd - 1, "\xe2\x94\x90");
	corner(w, y + h - 1, x, "\xe2\x94\x94");
	corner(w, y + h - 1, x + wd - 1, "\xe2\x94\x98");
	char title[128];
	snprintf(title, sizeof(title), " %d %s%s ", pane < NPANES ? pane + 1 : 5, v->ops->title, focused ? " *" : "");
	mvaddnstr(y, x + 2, title, wd - 4);
	if (focused)
		attroff(A_BOLD);
	int rows = h - 2;
	if (v->cur >= v->n && v->n)
		v->cur = v->n - 1;
	if (v->cur < v->top)
		v->top = v->cur;
	if (rows > 0 && v->cur >= v->top + (size_t)rows)
		v->top = v->cur - (size_t)rows + 1;
	for (int r = 0; r < rows; r++) {
		size_t i = v->top + (size_t)r;
		if (i >= v->n)
			break;
		attr_t a = attr_of(w, v->lines[i].color);
		if (focused && i == v->cur)
			a = A_REVERSE | (w->color ? 0 : A_BOLD);
		attron(a);
		move(y + 1 + r, x + 1);
		addnstr(v->lines[i].text, wd - 2);
		if (focused && i == v->cur) {
			int cy, cx;
			getyx(stdscr, cy, cx);
			for (int k = cx; k < x + wd - 1; k++)
				mvaddch(cy, k, ' ');
		}
		attroff(a);
	}
}

static const char spinner[] = "|/-\\";

static void draw_status(struct wb *w)
{
	struct buf s = BUF_INIT, keys = BUF_INIT;
	struct explain *x = w->x;
	pthread_mutex_lock(&w->lock);
	int running = w->running, waiting = w->waiting, mode = w->mode, finished = w->finished, result = w->result;
	double since = w->busy_since;
	char next[sizeof(w->next)];
	memcpy(next, w->next, sizeof(next));
	pthread_mutex_unlock(&w->lock);
	pthread_mutex_lock(&x->lock);
	buf_addf(&s, " %s | %zu configurations", explain_phase_name(x->phase), x->nconfigs);
	if (x->phase == PHASE_INDUCING || x->phase == PHASE_FIX) {
		size_t n = x->set ? x->set->nchanges : 0, left = 1;
		while (n > 1) {
			n /= 2;
			left++;
		}
		buf_addf(&s, " (~%zu left)", left);
	}
	if (x->activity && running && !waiting)
		buf_addf(&s, " | %c %s %.0fs", spinner[(int)(now_seconds() * 4) % 4], x->activity, now_seconds() - since);
	pthread_mutex_unlock(&x->lock);
	if (running && waiting && mode != MODE_RUN && next[0])
		buf_addf(&s, " | paused, next: %s", next);
	else if (running && waiting)
		buf_adds(&s, mode == MODE_RUN ? " | starting" : " | paused");
	else if (!running && !finished)
		buf_adds(&s, " | ready");
	else if (finished)
		buf_addf(&s, " | %s", w->result_msg);
	/* The keys that matter now. */
	enum keymap_scope sc = w->views[w->focus].ops->scope;
	enum keymap_action hints[] = {KA_STEP, KA_RUN, KA_PAUSE, KA_CANCEL, KA_STOP, KA_REFINE, KA_HELP, KA_QUIT};
	const char *words[] = {"step", "run", "pause", "cancel", "stop", "refine", "help", "quit"};
	int refinable = finished && !running && result == 0 && x->opts.semantic;
	for (size_t i = 0; i < sizeof(hints) / sizeof(*hints); i++) {
		if ((hints[i] == KA_PAUSE && !(running && mode == MODE_RUN)) ||
		    (hints[i] == KA_REFINE && !refinable) ||
		    ((hints[i] == KA_STEP || hints[i] == KA_RUN) && refinable) ||
		    ((hints[i] == KA_CANCEL || hints[i] == KA_STOP) && !running) ||
		    ((hints[i] == KA_STEP || hints[i] == KA_RUN) && running && mode == MODE_RUN))
			continue;
		struct buf k = BUF_INIT;
		keymap_keys_for(w->o->keymap, sc, hints[i], &k);
		char *comma = k.s ? strchr(k.s, ',') : NULL;
		if (comma)
			*comma = '\0';
		if (k.s && k.s[0])
			buf_addf(&keys, " %s %s", k.s, words[i]);
		buf_release(&k);
	}
	attron(A_REVERSE);
	move(LINES - 2, 0);
	for (int i = 0; i < COLS; i++)
		addch(' ');
	mvaddnstr(LINES - 2, 0, s.s, COLS - 1);
	int kl = (int)keys.len;
	if (kl < COLS - (int)s.len - 2)
		mvaddnstr(LINES - 2, COLS - kl - 1, keys.s, kl);
	attroff(A_REVERSE);
	move(LINES - 1, 0);
	clrtoeol();
	if (w->msg[0]) {
		if (w->msg_error)
			attron(A_BOLD);
		mvaddnstr(LINES - 1, 0, w->msg, COLS - 1);
		if (w->msg_error)
			attroff(A_BOLD);
	}
	buf_release(&s);
	buf_release(&keys);
}

/* Refill every pane from the model. */
static void refill(struct wb *w)
{
	/* The event lines as they are now: the worker appends (and moves the
	 * array) under w->lock, so the panes read a copy of it. The lines
	 * themselves live until the workbench ends. */
	pthread_mutex_lock(&w->lock);
	char **log = xmalloc((w->nlog + 1) * sizeof(*log));
	if (w->nlog)
		memcpy(log, w->log, w->nlog * sizeof(*log));
	w->ctx.log = log;
	w->ctx.nlog = w->nlog;
	char *live = w->nlive ? xstrdup(w->live) : NULL;
	pthread_mutex_unlock(&w->lock);
	w->ctx.live = live;
	pthread_mutex_lock(&w->x->lock);
	if (w->x->trace != w->ctx.stmt_of) {
		/* The failing run's statement events, for the trace pane. */
		const struct trace *t = w->x->trace;
		free(w->ctx.stmts);
		w->ctx.stmts = NULL;
		w->ctx.nstmts = 0;
		size_t n = 0;
		for (size_t i = 0; t && i < t->n; i++)
			n += t->ev[i].kind == TE_STMT;
		w->ctx.stmts = xmalloc((n + 1) * sizeof(*w->ctx.stmts));
		for (size_t i = 0; t && i < t->n; i++)
			if (t->ev[i].kind == TE_STMT)
				w->ctx.stmts[w->ctx.nstmts++] = (uint32_t)i;
		w->ctx.stmt_of = t;
		w->ctx.trace_jump = t != NULL;   /* open on the failure */
	}
	for (int i = 0; i < 5; i++) {
		view_clear(&w->views[i]);
		w->views[i].ops->fill(&w->views[i], &w->ctx);
	}
	w->ctx.trace_jump = 0;
	pthread_mutex_unlock(&w->x->lock);
	w->ctx.live = NULL;
	free(live);
	w->ctx.log = NULL;
	w->ctx.nlog = 0;
	free(log);
}

static void draw(struct wb *w)
{
	erase();
	if (COLS < MIN_COLS || LINES < MIN_LINES) {
		char m[128];
		snprintf(m, sizeof(m), "culprit needs a terminal of at least %dx%d (this one is %dx%d)", MIN_COLS, MIN_LINES,
			 COLS, LINES);
		mvaddnstr(LINES / 2, 0, m, COLS);
		refresh();
		return;
	}
	refill(w);
	int h = LINES - 2, logh = w->show_log ? h / 4 : 0;
	int top = h - logh;
	if (w->zoom) {
		draw_pane(w, w->focus, 0, 0, h, COLS);
	} else if (w->stacked) {
		int each = top / NPANES;
		for (int p = 0; p < NPANES; p++)
			draw_pane(w, p, p * each, 0, p == NPANES - 1 ? top - p * each : each, COLS);
	} else {
		int hh = top / 2, hw = COLS / 2;
		draw_pane(w, PANE_DIFF, 0, 0, hh, hw);
		draw_pane(w, PANE_TRACE, 0, hw, hh, COLS - hw);
		draw_pane(w, PANE_RANK, hh, 0, top - hh, hw);
		draw_pane(w, PANE_TREE, hh, hw, top - hh, COLS - hw);
	}
	if (logh && !w->zoom)
		draw_pane(w, PANE_LOG, top, 0, logh, COLS);
	if (proposal_shown(w))
		draw_proposal(w);
	draw_status(w);
	refresh();
}

/* ------------------------------------------------------------- actions */

static void message(struct wb *w, int error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void message(struct wb *w, int error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->msg, sizeof(w->msg), fmt, ap);
	va_end(ap);
	w->msg_error = error;
}

/* Read a line at the bottom; NULL when cancelled with Esc. */
static char *prompt(struct wb *w, const char *lead)
{
	struct buf b = BUF_INIT;
	for (;;) {
		move(LINES - 1, 0);
		clrtoeol();
		mvaddnstr(LINES - 1, 0, lead, COLS - 1);
		addnstr(b.s ? b.s : "", COLS - 1 - (int)strlen(lead));
		refresh();
		int ch = getch();
		if (ch == ERR)
			continue;
		if (ch == 27) {
			buf_release(&b);
			return NULL;
		}
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
			return buf_detach(&b);
		if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
			if (b.len)
				b.s[--b.len] = '\0';
		} else if (ch == KEY_RESIZE) {
			draw(w);
		} else if (ch >= ' ' && ch < 256 && b.len < 500) {
			buf_addc(&b, (char)ch);
		}
	}
}

static void search(struct wb *w, int dir)
{
	if (!w->search) {
		message(w, 1, "no search yet: / to search");
		return;
	}
	int err;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)w->search, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_MATCH_INVALID_UTF,
				       &err, &off, NULL);
	if (!re) {
		PCRE2_UCHAR m[200];
		pcre2_get_error_message(err, m, sizeof(m));
		message(w, 1, "search: %s at offset %zu", (char *)m, (size_t)off);
		return;
	}
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	struct view *v = &w->views[w->focus];
	size_t n = v->n, found = n;
	for (size_t k = 1; k <= n && found == n; k++) {
		size_t i = dir > 0 ? (v->cur + k) % n : (v->cur + n - k % n) % n;
		if (pcre2_match(re, (PCRE2_SPTR)v->lines[i].text, PCRE2_ZERO_TERMINATED, 0, 0, md, NULL) >= 0)
			found = i;
	}
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	if (found == n) {
		message(w, 1, "not found: %s", w->search);
		return;
	}
	v->cur = found;
	message(w, 0, "/%s", w->search);
}

static void export_report(struct wb *w, const char *path)
{
	struct buf out = BUF_INIT;
	struct cerr e;
	pthread_mutex_lock(&w->x->lock);
	report_render(w->x, w->format, w->o->top, &out);
	pthread_mutex_unlock(&w->x->lock);
	if (file_write_atomic(path, out.s, out.len, 0644, &e) < 0)
		message(w, 1, "export failed: %s", e.msg);
	else
		message(w, 0, "exported the report to %s", path);
	buf_release(&out);
}

/* The approved generated tests as a suite file (--suite reads it). */
static void export_tests(struct wb *w, const char *arg)
{
	char *suite = explain_refine_suite(w->x);
	if (!suite[0]) {
		message(w, 1, "no approved tests yet (refine proposes them)");
		free(suite);
		return;
	}
	char *path = *arg ? xstrdup(arg) : xasprintf("%stests.list", explain_dir(w->x));
	struct cerr e;
	size_t n = 0;   /* its tests: the lines that are not comments */
	for (const char *q = suite; *q; q = strchr(q, '\n') ? strchr(q, '\n') + 1 : q + strlen(q))
		n += *q != '#' && *q != '\n';
	if (file_write_atomic(path, suite, strlen(suite), 0644, &e) < 0)
		message(w, 1, "tests: %s", e.msg);
	else
		message(w, 0, "wrote %zu approved test%s to %s", n, n == 1 ? "" : "s", path);
	free(path);
	free(suite);
}

static char *default_export_path(struct wb *w)
{
	static const char *ext[] = {"txt", "md", "json"};
	return xasprintf("%sreport.%s", explain_dir(w->x), ext[w->format]);
}

static void command(struct wb *w)
{
	char *line = prompt(w, ":");
	if (!line)
		return;
	char *arg = line + strcspn(line, " ");
	if (*arg)
		*arg++ = '\0';
	while (*arg == ' ')
		arg++;
	enum report_format f;
	if (!strcmp(line, "export")) {
		char *path = *arg ? xstrdup(arg) : default_export_path(w);
		export_report(w, path);
		free(path);
	} else if (!strcmp(line, "format")) {
		if (report_format_parse(arg, &f) < 0)
			message(w, 1, "format: text, markdown or json");
		else {
			w->format = f;
			message(w, 0, "export format: %s", arg);
		}
	} else if (!strcmp(line, "set")) {
		char name[32];
		double v;
		if (sscanf(arg, "%31s %lf", name, &v) == 2 && v > 0 && !strcmp(name, "timeout")) {
			pthread_mutex_lock(&w->x->lock);
			w->x->opts.test_timeout = v;
			pthread_mutex_unlock(&w->x->lock);
			message(w, 0, "test timeout: %g s", v);
		} else if (sscanf(arg, "%31s %lf", name, &v) == 2 && v > 0 && !strcmp(name, "build-timeout")) {
			pthread_mutex_lock(&w->x->lock);
			w->x->opts.build_timeout = v;
			pthread_mutex_unlock(&w->x->lock);
			message(w, 0, "build timeout: %g s", v);
		} else {
			message(w, 1, "set: timeout SECONDS | build-timeout SECONDS");
		}
	} else if (!strcmp(line, "func")) {
		snprintf(w->ctx.trace_func, sizeof(w->ctx.trace_func), "%s", arg);
		w->ctx.trace_config = -1;
		w->ctx.trace_jump = 1;
		message(w, 0, *arg ? "trace: the statements of %s" : "trace: every function%s", arg);
	} else if (!strcmp(line, "tests")) {
		export_tests(w, arg);
	} else if (!strcmp(line, "help")) {
		message(w, 0, ":export [FILE]  :format text|markdown|json  :tests [FILE]  :set timeout N  "
			      ":set build-timeout N  :func [NAME]  :help");
	} else if (line[0]) {
		message(w, 1, "unknown command '%s' (:help)", line);
	}
	free(line);
}

static void help(struct wb *w)
{
	enum keymap_scope sc = w->views[w->focus].ops->scope;
	struct buf b = BUF_INIT;
	erase();
	mvprintw(0, 0, "keys of the %s pane (and everywhere); any key closes", w->views[w->focus].ops->title);
	int y = 2;
	for (int a = 1; a < KA_COUNT && y < LINES - 1; a++) {
		buf_reset(&b);
		keymap_keys_for(w->o->keymap, sc, (enum keymap_action)a, &b);
		mvprintw(y++, 0, "%-16s %-14s %s", b.s ? b.s : "", keymap_action_name((enum keymap_action)a),
			 keymap_action_help((enum keymap_action)a));
	}
	buf_release(&b);
	refresh();
	int ch;
	while ((ch = getch()) == ERR)
		;
}

/* Show a change in the diff pane and its last configuration in the trace pane. */
static void select_change(struct wb *w, long change)
{
	if (change < 0)
		return;
	struct view *d = &w->views[PANE_DIFF];
	for (size_t i = 0; i < d->n; i++)
		if (d->lines[i].ref == change && strstr(d->lines[i].text, "#")) {
			d->cur = i;
			d->top = i;
			break;
		}
	pthread_mutex_lock(&w->x->lock);
	const struct change_set *s = w->x->set ? w->x->set : w->x->set_full;
	w->ctx.trace_config = -1;
	if (s && (size_t)change < s->nchanges) {
		char id[24];
		snprintf(id, sizeof(id), "%u", s->changes[change].id);
		for (size_t i = w->x->nconfigs; i-- > 0;) {
			const char *p = w->x->configs[i].label;
			/* The id as a word of the label ("good with 3 5", "bad without 3.2"). */
			for (const char *q = strstr(p, id); q; q = strstr(q + 1, id)) {
				char after = q[strlen(id)];
				if ((q == p || q[-1] == ' ') && (after == '\0' || after == ' ' || after == '.')) {
					w->ctx.trace_config = (long)i;
					break;
				}
			}
			if (w->ctx.trace_config >= 0)
				break;
		}
	}
	pthread_mutex_unlock(&w->x->lock);
}

/* The suspiciousness pane's formula and restriction: ranked again from the stored coverage. */
static void rerank(struct wb *w, enum keymap_action a)
{
	pthread_mutex_lock(&w->lock);
	int running = w->running;
	pthread_mutex_unlock(&w->lock);
	if (running) {
		message(w, 1, "the ranking changes once the analysis is paused or done");
		return;
	}
	if (!w->x->ranked) {
		message(w, 1, "no ranking: start culprit with --suite FILE");
		return;
	}
	int f = w->x->opts.formula, changed = w->x->opts.changed_only;
	if (a == KA_FORMULA)
		f = (f + 1) % SPECTRA_NFORMULAS;
	else
		changed = !changed;
	struct cerr e;
	if (explain_rerank(w->x, f, changed, &e) < 0)
		message(w, 1, "ranking: %s", e.msg);
	else
		message(w, 0, "ranking: %s%s", spectra_formula_name((enum spectra_formula)f),
			changed ? ", changed lines only" : "");
}

/* A ranked line's change (of good..bad) in the diff pane. */
static void jump_to_change(struct wb *w, long change)
{
	if (change < 0) {
		message(w, 1, "this line is not changed by good..bad");
		return;
	}
	const struct change_set *full = w->x->set_full, *s = w->x->set;
	long target = change;
	if (s && s != full) {
		/* The culprit commit's change at the same place, if any. */
		const struct change *c = &full->changes[change];
		const char *path = full->files[c->file].new_path;
		target = -1;
		for (size_t i = 0; i < s->nchanges && target < 0; i++)
			if (!strcmp(s->files[s->changes[i].file].new_path, path) && s->changes[i].kind == c->kind &&
			    s->changes[i].new_lines == c->new_lines)
				target = (long)i;
		if (target < 0) {
			message(w, 1, "change #%u is outside the culprit commit", c->id);
			return;
		}
	}
	select_change(w, target);
	w->focus = PANE_DIFF;
}

/* Refinement: ask the worker (after the analysis has run). */
static void refine(struct wb *w, int job)
{
	pthread_mutex_lock(&w->lock);
	if (w->running)
		message(w, 1, "busy: refinement starts when the analysis has finished");
	else if (!w->finished || w->result < 0)
		message(w, 1, "refinement comes after the analysis: r runs it first");
	else {
		w->job = job;
		pthread_cond_broadcast(&w->cond);
		message(w, 0, job == JOB_PROPOSE ? "refinement: generating tests" : "refinement: ranking again");
	}
	pthread_mutex_unlock(&w->lock);
}

/* The proposal waiting for an answer, drawn over the panes. */
static int proposal_shown(struct wb *w)
{
	pthread_mutex_lock(&w->x->lock);
	int shown = w->x->refine.state == REFINE_PROPOSED;
	pthread_mutex_unlock(&w->x->lock);
	pthread_mutex_lock(&w->lock);
	shown = shown && !w->running;
	pthread_mutex_unlock(&w->lock);
	return shown;
}

static void draw_proposal(struct wb *w)
{
	struct buf b = BUF_INIT;
	pthread_mutex_lock(&w->x->lock);
	const struct explain_refine *r = &w->x->refine;
	buf_addf(&b, "Proposed test %s (round %d; %zu approved, %zu rejected so far)\n\n", r->cur.name, r->rounds,
		 r->approved, r->rejected);
	buf_addf(&b, "input:   %s\n", r->cur.input);
	if (r->cur.branch && r->cur.branch[0])
		buf_addf(&b, "takes:   %s\n", r->cur.branch);
	buf_addf(&b, "verdict: %s\n", r->cur.verdict);
	if (r->cur.test)
		buf_addf(&b, "suite:   %s %s\n", r->cur.name, r->cur.test);
	/* Both revisions' output side by side; the first line that differs marked. */
	if (r->cur.good_out && r->cur.bad_out) {
		buf_addf(&b, "\n%-44s %s\n", "good revision printed", "bad revision printed");
		const char *g = r->cur.good_out, *d = r->cur.bad_out;
		int marked = 0;
		for (int k = 0; k < 6 && (*g || *d); k++) {
			size_t gl = strcspn(g, "\n"), dl = strcspn(d, "\n");
			int differ = gl != dl || memcmp(g, d, gl);
			buf_addf(&b, "%s%-43.*s %.*s\n", differ && !marked ? "\x01" : "", (int)(gl < 43 ? gl : 43), g,
				 (int)(dl < 43 ? dl : 43), d);
			marked |= differ;
			g += gl + (g[gl] == '\n');
			d += dl + (d[dl] == '\n');
		}
	}
	if (r->cur.ntop) {
		buf_adds(&b, "runs the top-tied lines:");
		for (size_t i = 0; i < r->cur.ntop && i < 10; i++)
			buf_addf(&b, " %s", r->cur.top[i]);
		buf_adds(&b, r->cur.ntop > 10 ? " ...\n" : "\n");
	}
	if (r->cur.sequences)
		buf_addf(&b, "runs through %zu change sequence%s (change, interaction location, output)\n", r->cur.sequences,
			 r->cur.sequences == 1 ? "" : "s");
	buf_addf(&b, "covers %zu suspect statements:", r->cur.ncovered);
	for (size_t i = 0; i < r->cur.ncovered && i < 12; i++)
		buf_addf(&b, " %s", r->cur.covered[i]);
	if (r->cur.ncovered > 12)
		buf_adds(&b, " ...");
	buf_adds(&b, "\n\n  a approve: add it to the suite and rank again\n  r reject: never propose it again\n"
		     "  s stop refinement: keep the result as it is");
	pthread_mutex_unlock(&w->x->lock);
	int wd = COLS - 8 < 100 ? COLS - 8 : 100, h = 0;
	char *lines[40];
	for (char *p = b.s; p && *p && h < 40;) {
		char *nl = strchr(p, '\n');
		lines[h++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	int y0 = (LINES - 2 - (h + 2)) / 2, x0 = (COLS - wd) / 2;
	attron(A_REVERSE);
	for (int y = 0; y < h + 2; y++) {
		move(y0 + y, x0);
		for (int i = 0; i < wd; i++)
			addch(' ');
	}
	for (int i = 0; i < h; i++) {
		int mark = lines[i][0] == '\x01';   /* the first differing output line */
		if (mark)
			attron(A_BOLD | A_UNDERLINE);
		mvaddnstr(y0 + 1 + i, x0 + 2, lines[i] + mark, wd - 4);
		if (mark)
			attroff(A_BOLD | A_UNDERLINE);
	}
	attroff(A_REVERSE);
	buf_release(&b);
}

static int act(struct wb *w, enum keymap_action a)
{
	struct view *v = &w->views[w->focus];
	int page = LINES / 2 - 3;
	switch (a) {
	case KA_QUIT:
		return R_QUIT;
	case KA_HELP:
		help(w);
		break;
	case KA_STEP:
		drive(w, MODE_STEP);
		break;
	case KA_RUN:
		drive(w, MODE_RUN);
		break;
	case KA_PAUSE:
		pthread_mutex_lock(&w->lock);
		w->mode = MODE_STEP;
		w->credits = 0;
		pthread_mutex_unlock(&w->lock);
		message(w, 0, "paused: the running configuration finishes first");
		break;
	case KA_CANCEL:
		pthread_mutex_lock(&w->lock);
		if (w->running) {
			w->cancel = 1;
			pthread_cond_broadcast(&w->cond);
		}
		pthread_mutex_unlock(&w->lock);
		message(w, 0, "cancelled: r runs it again (nothing tested is lost)");
		break;
	case KA_STOP:
		pthread_mutex_lock(&w->lock);
		if (w->running) {
			w->stop = 1;
			pthread_cond_broadcast(&w->cond);
		}
		pthread_mutex_unlock(&w->lock);
		message(w, 0, "stopping: keeping the best answer so far");
		break;
	case KA_EXPORT: {
		char *path = default_export_path(w);
		export_report(w, path);
		free(path);
		break;
	}
	case KA_COMMAND:
		command(w);
		break;
	case KA_SEARCH: {
		char *p = prompt(w, "/");
		if (p && *p) {
			free(w->search);
			w->search = p;
			search(w, 1);
		} else {
			free(p);
		}
		break;
	}
	case KA_SEARCH_NEXT:
		search(w, 1);
		break;
	case KA_SEARCH_PREV:
		search(w, -1);
		break;
	case KA_FOCUS_NEXT:
		w->focus = (w->focus + 1) % (w->show_log ? 5 : NPANES);
		break;
	case KA_FOCUS_PREV:
		w->focus = (w->focus + (w->show_log ? 4 : NPANES - 1)) % (w->show_log ? 5 : NPANES);
		break;
	case KA_FOCUS_DIFF:
	case KA_FOCUS_TRACE:
	case KA_FOCUS_RANK:
	case KA_FOCUS_TREE:
		w->focus = (int)(a - KA_FOCUS_DIFF);
		break;
	case KA_ZOOM:
		w->zoom = !w->zoom;
		break;
	case KA_LAYOUT:
		w->stacked = !w->stacked;
		break;
	case KA_TOGGLE_LOG:
		w->show_log = !w->show_log;
		if (!w->show_log && w->focus == PANE_LOG)
			w->focus = PANE_DIFF;
		break;
	case KA_REDRAW:
		clearok(stdscr, TRUE);
		break;
	case KA_MOVE_UP:
		if (v->cur > 0)
			v->cur--;
		break;
	case KA_MOVE_DOWN:
		if (v->cur + 1 < v->n)
			v->cur++;
		break;
	case KA_PAGE_UP:
		v->cur = v->cur > (size_t)page ? v->cur - (size_t)page : 0;
		break;
	case KA_PAGE_DOWN:
		v->cur = v->n ? (v->cur + (size_t)page < v->n ? v->cur + (size_t)page : v->n - 1) : 0;
		break;
	case KA_MOVE_FIRST:
		v->cur = 0;
		break;
	case KA_MOVE_LAST:
		v->cur = v->n ? v->n - 1 : 0;
		break;
	case KA_EXPAND:
	case KA_COLLAPSE:
	case KA_TOGGLE:
		if (v->cur < v->n && v->lines[v->cur].node >= 0) {
			int node = v->lines[v->cur].node;
			w->ctx.collapsed[node] = a == KA_TOGGLE ? !w->ctx.collapsed[node] : a == KA_COLLAPSE;
		} else if (v->cur < v->n) {
			select_change(w, v->lines[v->cur].ref);
			if (v->lines[v->cur].ev >= 0 && w->views[w->focus].ops == &tree_view_ops) {
				/* A node of the causal tree: its events in the trace pane. */
				w->ctx.trace_ev = v->lines[v->cur].ev;
				w->ctx.trace_config = -1;
				w->ctx.trace_jump = 1;
			}
		}
		break;
	case KA_FORMULA:
	case KA_CHANGED_ONLY:
		rerank(w, a);
		break;
	case KA_JUMP:
		if (v->cur < v->n)
			jump_to_change(w, v->lines[v->cur].ref);
		break;
	case KA_REFINE:
		refine(w, JOB_PROPOSE);
		break;
	case KA_NONE:
	case KA_COUNT:
		break;
	}
	return R_HANDLED;
}

static int handle_key(struct wb *w, int ch)
{
	if (ch == KEY_RESIZE)
		return R_HANDLED;
	if (proposal_shown(w)) {   /* the dialog takes its own keys */
		if (ch == 'a' || ch == 'r')
			refine(w, ch == 'a' ? JOB_APPROVE : JOB_REJECT);
		else if (ch == 's' || ch == 27) {
			struct cerr e;
			explain_refine_answer(w->x, REFINE_STOP, &e);
			message(w, 0, "refinement stopped: the result stands");
		} else
			message(w, 1, "a approve, r reject, s stop refinement");
		return R_HANDLED;
	}
	if (ch == '\r' || ch == KEY_ENTER)
		ch = '\n';   /* <Enter>, whatever the terminal sends */
	w->keys[w->nkeys++] = ch;
	enum keymap_action a = KA_NONE;
	enum keymap_match m = keymap_lookup(w->o->keymap, w->views[w->focus].ops->scope, w->keys, w->nkeys, &a);
	if (m == KM_PREFIX && w->nkeys == 1)
		return R_HANDLED;
	w->nkeys = 0;
	if (m != KM_ACTION) {
		char name[16];
		message(w, 1, "%s is not bound (? shows the keys)", keymap_key_name(ch, name));
		return R_HANDLED;
	}
	w->msg[0] = '\0';
	return act(w, a);
}

/* ------------------------------------------------------- screen state */

static void restore_state(struct wb *w)
{
	const char *names[] = {"focus", "zoom", "stacked", "log"};
	int *fields[] = {&w->focus, &w->zoom, &w->stacked, &w->show_log};
	for (size_t i = 0; i < 4; i++) {
		char *v = explain_state_get(w->x, names[i]);
		if (v)
			*fields[i] = atoi(v);
		free(v);
	}
	if (w->focus < 0 || w->focus > (w->show_log ? 4 : NPANES - 1))
		w->focus = 0;
	for (int p = 0; p < 5; p++) {
		char key[32];
		snprintf(key, sizeof(key), "cursor.%s", w->views[p].ops->name);
		char *v = explain_state_get(w->x, key);
		if (v)
			w->views[p].cur = (size_t)strtoul(v, NULL, 10);
		free(v);
	}
}

static void save_state(struct wb *w)
{
	const char *names[] = {"focus", "zoom", "stacked", "log"};
	int fields[] = {w->focus, w->zoom, w->stacked, w->show_log};
	char num[32];
	for (size_t i = 0; i < 4; i++) {
		snprintf(num, sizeof(num), "%d", fields[i]);
		explain_state_set(w->x, names[i], num);
	}
	for (int p = 0; p < 5; p++) {
		char key[32];
		snprintf(key, sizeof(key), "cursor.%s", w->views[p].ops->name);
		snprintf(num, sizeof(num), "%zu", w->views[p].cur);
		explain_state_set(w->x, key, num);
	}
}

/* ----------------------------------------------------------------- main */

static void init_colors(struct wb *w)
{
	w->color = has_colors() && !getenv("NO_COLOR");
	if (!w->color)
		return;
	start_color();
	use_default_colors();
	short fg[VC_COUNT] = {-1, COLOR_BLUE, COLOR_GREEN, COLOR_RED, COLOR_RED, COLOR_YELLOW, COLOR_CYAN, -1};
	for (int c = 0; c < VC_COUNT; c++)
		init_pair((short)pair_of((enum view_color)c), fg[c], -1);
}

int workbench_run(struct explain *x, const struct workbench_opts *o, struct cerr *e)
{
	static const struct view_ops *const ops[5] = {&diff_view_ops, &trace_view_ops, &rank_view_ops, &tree_view_ops,
						       &log_view_ops};
	struct wb *w = xcalloc(1, sizeof(*w));
	w->x = x;
	w->o = o;
	w->format = o->format;
	w->ctx.x = x;
	w->ctx.trace_config = -1;
	w->ctx.trace_ev = -1;
	struct buf rk = BUF_INIT;
	keymap_keys_for(o->keymap, KS_GENERIC, KA_REFINE, &rk);
	if (rk.s && strchr(rk.s, ','))
		*strchr(rk.s, ',') = '\0';
	snprintf(w->ctx.refine_key, sizeof(w->ctx.refine_key), "%s", rk.s ? rk.s : "");
	buf_release(&rk);
	for (int i = 0; i < 5; i++)
		w->views[i].ops = ops[i];
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	const char *cs = nl_langinfo(CODESET);
	w->utf8 = cs && !strcmp(cs, "UTF-8");

	const char *term = getenv("TERM");
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		cerr_set(e, "unknown terminal type '%s'", term ? term : "");
		free(w);
		return 2;
	}
	/* Nothing the libraries print may reach the screen: stderr goes to the log. */
	fflush(stderr);
	int saved_err = dup(2);
	char *logpath = xasprintf("%sculprit.log", explain_dir(x));
	int logfd = open(logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	free(logpath);
	if (logfd >= 0) {
		dup2(logfd, 2);
		close(logfd);
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(50);
	timeout(100);
	init_colors(w);
	restore_state(w);

	x->hooks = (struct explain_hooks){.gate = gate, .event = on_event, .output = on_output, .priv = w,
					  .cancel = &w->cancel};
	pthread_create(&w->worker, NULL, work, w);
	if (o->notice)
		message(w, 1, "%s", o->notice);
	else
		message(w, 0, "culprit: s steps one configuration, r runs to the end, ? shows the keys");
	for (;;) {
		draw(w);
		int ch = getch();
		if (ch == ERR)
			continue;
		if (COLS < MIN_COLS || LINES < MIN_LINES) {
			if (ch == 'q')
				break;
			continue;
		}
		if (handle_key(w, ch) == R_QUIT)
			break;
	}
	save_state(w);
	pthread_mutex_lock(&w->lock);
	w->quitting = 1;
	w->cancel = 1;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->worker, NULL);
	endwin();
	delscreen(scr);
	if (saved_err >= 0) {
		dup2(saved_err, 2);
		close(saved_err);
	}
	int rc = w->finished ? (w->result < 0 ? 2 : w->result) : 1;
	if (w->finished && w->result < 0)
		cerr_set(e, "%s", w->result_msg + 7);
	for (int i = 0; i < 5; i++)
		view_release(&w->views[i]);
	free(w->ctx.stmts);
	for (size_t i = 0; i < w->nlog; i++)
		free(w->log[i]);
	free(w->log);
	free(w->search);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
	return rc;
}
