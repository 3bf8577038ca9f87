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
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include <pcre2.h>

#include "core/spectrum/spectra.h"
#include "views/view.h"

#define MIN_COLS 80
#define MIN_LINES 24
#define LIVE_MAX 4096
#define NPANES 4
#define PL(n) ((n) == 1 ? "" : "s")   /* "1 line", "2 lines" */

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
	int folded;                    /* the proposal dialog folded to a line while the panes are browsed */
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
	int restore;              /* the next start puts the stored model back (explain_restore) */
	int restoring;            /* it is being put back */
	char act_seen[256];       /* the activity the status bar last showed, and since when */
	double act_since;
	volatile int cancel;
	char result_msg[1100];
	char **log;
	size_t nlog;
	char live[LIVE_MAX + 1];
	size_t nlive;
	char next[48];            /* what the next step does (the gate's label) */
	int job;                  /* refinement work for the worker (JOB_*) */
	double busy_since;
	int st_phase, st_cols, st_level;   /* the status bar's form for this phase and width */
	int dirty;                /* the panes must be filled again (the model or what they show changed) */
};

static int proposal_shown(struct wb *w);
static int navigation(enum keymap_action a);
static void draw_proposal(struct wb *w);

/* ------------------------------------------------------------ the worker */

static int gate(void *priv, const char *label)
{
	struct wb *w = priv;
	int rc = 0;
	pthread_mutex_lock(&w->lock);
	w->waiting = 1;
	w->dirty = 1;   /* the model as the step left it */
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
	w->dirty = 1;
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
	w->dirty = 1;
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
	w->dirty = 1;
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
		int restore = w->restore;
		w->start = 0;
		w->restore = 0;
		w->restoring = restore;
		w->running = 1;
		w->cancel = 0;
		w->finished = 0;
		w->busy_since = now_seconds();
		pthread_mutex_unlock(&w->lock);
		struct cerr e = {{0}};
		int rc = restore ? explain_restore(w->x, &e) : explain_run(w->x, &e);
		pthread_mutex_lock(&w->lock);
		w->running = 0;
		w->restoring = 0;
		w->finished = 1;
		w->dirty = 1;
		w->result = rc;
		if (rc < 0)
			snprintf(w->result_msg, sizeof(w->result_msg), "error: %s", e.msg);
		else if (rc == 0)
			snprintf(w->result_msg, sizeof(w->result_msg), "done: failure-inducing changes found%s",
				 restore ? " (stored session)" : "");
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

/* Columns of the first len bytes of s (wcwidth; a byte that is not UTF-8 counts one). */
static size_t text_cols(const char *s, size_t len)
{
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	size_t cols = 0;
	for (size_t i = 0; i < len && s[i];) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s + i, len - i, &st);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&st, 0, sizeof(st));
			n = 1;
			wc = '?';
		}
		int cw = wcwidth(wc);
		cols += cw > 0 ? (size_t)cw : wc == '\t' ? 1 : 0;
		i += n;
	}
	return cols;
}

/* Write s from column skip on, at most cols columns wide (widths in
 * columns, not bytes: line drawing and wide characters fit). */
static void put_cols(const char *s, size_t skip, int cols)
{
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	size_t col = 0, len = strlen(s);
	for (size_t i = 0; i < len && cols > 0;) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s + i, len - i, &st);
		int bad = n == (size_t)-1 || n == (size_t)-2 || n == 0;
		if (bad) {
			memset(&st, 0, sizeof(st));
			n = 1;
		}
		int cw = bad ? 1 : wcwidth(wc);
		if (cw < 0)
			cw = 1;
		if (col >= skip) {
			if (cw > cols)
				break;
			if (bad || wc == '\t')
				addch(bad ? '?' : ' ');
			else
				addnstr(s + i, (int)n);
			cols -= cw;
		}
		col += (size_t)cw;
		i += n;
	}
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
	v->width = wd - 2;
	if (v->left && v->n) {   /* a line ends somewhere past the scroll, or scroll back */
		size_t widest = 0;
		for (size_t i = 0; i < v->n; i++) {
			size_t c = text_cols(v->lines[i].text, strlen(v->lines[i].text));
			widest = c > widest ? c : widest;
		}
		if (v->left + 8 > widest)
			v->left = widest > 8 ? widest - 8 : 0;
	}
	if (v->left) {   /* the title says how far the pane is scrolled */
		char m[32];
		snprintf(m, sizeof(m), " <%zu ", v->left);
		mvaddnstr(y, x + wd - 2 - (int)strlen(m), m, (int)strlen(m));
	}
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
		put_cols(v->lines[i].text, v->left, wd - 2);
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

/* The status bar, from the model's state: the phase (or how the run ended),
 * the configurations, an estimate of those left, what runs now with the
 * time since it started; the keys that matter now stay visible at the
 * right, the text is shortened first. */
static void draw_status(struct wb *w)
{
	struct buf s = BUF_INIT, keys = BUF_INIT;
	struct explain *x = w->x;
	pthread_mutex_lock(&w->lock);
	int running = w->running, waiting = w->waiting, mode = w->mode, finished = w->finished, result = w->result;
	char next[sizeof(w->next)];
	memcpy(next, w->next, sizeof(next));
	pthread_mutex_unlock(&w->lock);
	pthread_mutex_lock(&x->lock);
	size_t nconf = x->nconfigs;
	/* The text in pieces, each with a shorter form for a narrow bar. */
	static const char *short_phase[] = {"starting", "premise", "bisecting", "minimizing", "fix search", "tokens",
					    "explaining", "ranking", "done"};
	const char *phase = explain_phase_name(x->phase);
	enum explain_phase phase_now = x->phase;
	const char *phase_short = (size_t)x->phase < sizeof(short_phase) / sizeof(*short_phase) ? short_phase[x->phase] : phase;
	char est[32] = "";
	if (running && (x->phase == PHASE_INDUCING || x->phase == PHASE_FIX || x->phase == PHASE_REFINE) &&
	    x->search_left) {
		/* As the search published it: the tests it has left. */
		snprintf(est, sizeof(est), " (~%zu left)", x->search_left);
	} else if (running && (x->phase == PHASE_INDUCING || x->phase == PHASE_FIX) && x->set && x->marks) {
		/* ddmin halves what is still applied (or left out): about 2 log2 n tests to go. */
		size_t in = 0, left = 0;
		for (size_t i = 0; i < x->set->nchanges; i++)
			in += x->marks[i] == (x->phase == PHASE_INDUCING ? MARK_APPLIED : MARK_REVERTED);
		while (in > 1) {
			in /= 2;
			left += 2;
		}
		snprintf(est, sizeof(est), " (~%zu left)", left + 1);
	} else if (running && x->phase == PHASE_BISECT && x->commit_verdict) {
		size_t lo = 0, hi = x->ncommits ? x->ncommits - 1 : 0, left = 0;
		for (size_t i = 0; i < x->ncommits; i++)   /* the narrowest pass..fail bracket known */
			if (x->commit_verdict[i] == VERDICT_PASS && i > lo && i < hi)
				lo = i;
		for (size_t i = x->ncommits; i-- > lo + 1;)
			if (x->commit_verdict[i] == VERDICT_FAIL && i < hi)
				hi = i;
		for (size_t n = hi - lo; n > 1; n /= 2)
			left++;
		snprintf(est, sizeof(est), " (~%zu left)", left);
	}
	/* The current step's own elapsed time: since its activity began. */
	const char *act = running && !waiting ? x->activity : NULL;
	if (!act || strcmp(act, w->act_seen)) {
		snprintf(w->act_seen, sizeof(w->act_seen), "%s", act ? act : "");
		w->act_since = now_seconds();
	}
	struct buf actb = BUF_INIT;   /* the seconds first: they stay when the text is cut */
	if (act)
		buf_addf(&actb, " | %c %.0fs %s", spinner[(int)(now_seconds() * 4) % 4], now_seconds() - w->act_since, act);
	pthread_mutex_unlock(&x->lock);
	const char *pause = "", *pause_short = "";
	struct buf pb = BUF_INIT, pbs = BUF_INIT;
	if (running && waiting && mode != MODE_RUN && next[0]) {
		/* A commit id in the label: 8 digits say which (git's short ids say no more). */
		char *o = next;
		for (const char *p = next; *p;) {
			size_t n = strspn(p, "0123456789abcdef");
			size_t keep = n > 12 ? 8 : n ? n : 1;
			memmove(o, p, keep);
			o += keep;
			p += n ? n : 1;
		}
		*o = '\0';
		buf_addf(&pb, " | paused, next: %s", next);
		buf_addf(&pbs, " | paused: %s", next);
		pause = pb.s;
		pause_short = pbs.s;
	} else if (running && waiting) {
		pause = pause_short = mode == MODE_RUN ? " | starting" : " | paused";
	} else if (!running && !finished) {
		pause = pause_short = " | ready";
	}
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
		/* A short key where there is one (? rather than <F1>). */
		if (comma && strlen(comma + 2) < strlen(k.s) && !strchr(comma + 2, ','))
			memmove(k.s, comma + 2, strlen(comma + 2) + 1);
		if (k.s && k.s[0] && keys.len + strlen(k.s) + strlen(words[i]) + 2 <= (size_t)COLS * 2 / 5)
			buf_addf(&keys, " %s %s", k.s, words[i]);
		buf_release(&k);
	}
	/* Fullest first; then "configs", the phase's short name, "paused:". */
	size_t fit = COLS > (int)keys.len + 3 ? (size_t)COLS - keys.len - 3 : 0;
	/* Within a phase the bar does not grow back (no flicker between forms). */
	if (w->st_phase != (int)phase_now || w->st_cols != COLS) {
		w->st_phase = (int)phase_now;
		w->st_cols = COLS;
		w->st_level = 0;
	}
	for (int level = w->st_level; level < 4; level++) {
		w->st_level = level;
		buf_reset(&s);
		const char *what = level >= 1 ? "config" : "configuration";
		if (finished && !running)
			buf_addf(&s, " %zu %s%s | %s", nconf, what, PL(nconf), w->result_msg);
		else
			buf_addf(&s, " %s | %zu %s%s%s", level >= 2 ? phase_short : phase, nconf, what, PL(nconf), est);
		buf_addf(&s, "%s%s", actb.s ? actb.s : "", level >= 3 ? pause_short : pause);
		if (s.len <= fit)
			break;
	}
	buf_release(&actb);
	buf_release(&pb);
	buf_release(&pbs);
	attron(A_REVERSE);
	move(LINES - 2, 0);
	for (int i = 0; i < COLS; i++)
		addch(' ');
	int kl = (int)keys.len, room = COLS - kl - 2;
	if ((int)s.len > room && room > 1) {   /* shortened at its end (the details), the keys kept */
		mvaddnstr(LINES - 2, 0, s.s, room - 1);
		mvaddstr(LINES - 2, room - 1, w->utf8 ? "\xe2\x80\xa6" : "~");
	} else {
		mvaddnstr(LINES - 2, 0, s.s, room > 0 ? room : COLS - 1);
	}
	if (kl && kl < COLS)
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
		free(w->ctx.depth);
		w->ctx.depth = xmalloc((n + 1) * sizeof(*w->ctx.depth));
		int depth = 0;   /* calls entered and not returned: the statement's call depth */
		for (size_t i = 0; t && i < t->n; i++) {
			uint8_t k = t->ev[i].kind;
			if (k == TE_ENTER)
				depth++;
			else if ((k == TE_RET || k == TE_RET0) && depth > 0)
				depth--;
			else if (k == TE_STMT) {
				w->ctx.depth[w->ctx.nstmts] = (uint16_t)(depth > 1 ? (depth - 1 < 60000 ? depth - 1 : 60000) : 0);
				w->ctx.stmts[w->ctx.nstmts++] = (uint32_t)i;
			}
		}
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
		/* The longest of these that fits, whole: a cut message says nothing. */
		char m[4][128];
		snprintf(m[0], sizeof(m[0]), "culprit needs a terminal of at least %dx%d (this one is %dx%d; q quits)",
			 MIN_COLS, MIN_LINES, COLS, LINES);
		snprintf(m[1], sizeof(m[1]), "culprit needs %dx%d (this is %dx%d)", MIN_COLS, MIN_LINES, COLS, LINES);
		snprintf(m[2], sizeof(m[2]), "need %dx%d", MIN_COLS, MIN_LINES);
		snprintf(m[3], sizeof(m[3]), "%dx%d", MIN_COLS, MIN_LINES);
		int k = 0;
		while (k < 3 && (int)strlen(m[k]) > COLS)
			k++;
		mvaddnstr(LINES / 2, 0, m[k], COLS);
		refresh();
		return;
	}
	/* The panes are filled again only when what they show may have
	 * changed: moving, scrolling and focus only draw. */
	pthread_mutex_lock(&w->lock);
	int fill = w->dirty || (w->running && !w->waiting);
	w->dirty = 0;
	pthread_mutex_unlock(&w->lock);
	if (fill)
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
		if (ch == 27 || ch == 7) {   /* Esc, C-g */
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

/* A yes/no question on the message line: 1 for y. */
static int ask_yes(struct wb *w, const char *question)
{
	for (;;) {
		move(LINES - 1, 0);
		clrtoeol();
		mvaddnstr(LINES - 1, 0, question, COLS - 1);
		refresh();
		int ch = getch();
		if (ch == ERR)
			continue;
		if (ch == KEY_RESIZE) {
			draw(w);
			continue;
		}
		return ch == 'y' || ch == 'Y';
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
	size_t at = 0, end = 0;
	for (size_t k = 1; k <= n && found == n; k++) {
		size_t i = dir > 0 ? (v->cur + k) % n : (v->cur + n - k % n) % n;
		if (pcre2_match(re, (PCRE2_SPTR)v->lines[i].text, PCRE2_ZERO_TERMINATED, 0, 0, md, NULL) >= 0) {
			found = i;
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
			at = text_cols(v->lines[i].text, ov[0]);
			end = text_cols(v->lines[i].text, ov[1]);
		}
	}
	/* A match beyond the pane's edge: scroll it into view. */
	if (found < n && v->width > 0 && (at < v->left || end > v->left + (size_t)v->width))
		v->left = end <= (size_t)v->width ? 0 : at > (size_t)v->width / 3 ? at - (size_t)v->width / 3 : 0;
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	if (found == n) {
		message(w, 1, "not found: %s", w->search);
		return;
	}
	v->cur = found;
	message(w, 0, "/%s", w->search);
}

/* ~ and ~/ at the start of a path: the home directory (caller frees). */
static char *expand_home(const char *arg)
{
	const char *home = getenv("HOME");
	if (arg[0] == '~' && (arg[1] == '/' || !arg[1]) && home && home[0])
		return xasprintf("%s%s", home, arg + 1);
	return xstrdup(arg);
}

/* A name not taken yet: report.txt, else report-2.txt, report-3.txt, ... (caller frees). */
static char *new_name(const char *path)
{
	if (access(path, F_OK) != 0)
		return xstrdup(path);
	const char *slash = strrchr(path, '/');
	const char *dot = strrchr(slash ? slash : path, '.');
	size_t stem = dot && dot != (slash ? slash + 1 : path) ? (size_t)(dot - path) : strlen(path);
	for (int k = 2;; k++) {
		char *p = xasprintf("%.*s-%d%s", (int)stem, path, k, path + stem);
		if (access(p, F_OK) != 0)
			return p;
		free(p);
	}
}

static int ask_yes(struct wb *w, const char *question);

/* Write the report. An existing file is never overwritten silently: the
 * default name moves on to a new one, a name given is asked about. */
static void export_report(struct wb *w, const char *path, int given)
{
	struct buf out = BUF_INIT;
	struct cerr e;
	char *target = given ? xstrdup(path) : new_name(path);
	if (given && access(target, F_OK) == 0) {
		char q[600];
		snprintf(q, sizeof(q), "%s exists: overwrite it? (y/n) ", target);
		if (!ask_yes(w, q)) {
			message(w, 0, "not exported (%s is kept)", target);
			free(target);
			return;
		}
	}
	path = target;
	pthread_mutex_lock(&w->lock);
	int restoring = w->restoring;
	pthread_mutex_unlock(&w->lock);
	if (restoring) {   /* half a model would write less than is stored */
		message(w, 1, "the stored session is still being loaded: export again in a moment");
		free(target);
		return;
	}
	pthread_mutex_lock(&w->x->lock);
	report_render(w->x, w->format, w->o->top, &out);
	pthread_mutex_unlock(&w->x->lock);
	if (file_write_atomic(path, out.s, out.len, 0644, &e) < 0)
		message(w, 1, "export failed: %s", e.msg);
	else
		message(w, 0, "exported the report to %s", path);
	buf_release(&out);
	free(target);
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

/* Why :func NAME cannot show NAME (one line), or NULL: it ran in the
 * traced failing run. "" (every function) always can. */
static const char *func_missing(struct wb *w, const char *name)
{
	static char why[160];
	if (!name[0])
		return NULL;
	const char *r = NULL;
	pthread_mutex_lock(&w->x->lock);
	const struct trace *t = w->x->trace;
	int known = 0, ran = 0;
	for (unsigned i = 0; t && i < t->m->nids && !known; i++)
		known = t->m->site[i].kind == 'N' && !strcmp(t->m->site[i].name, name);
	for (size_t i = 0; known && !ran && i < w->ctx.nstmts && w->ctx.stmt_of == t; i++) {
		const struct msite *st = trace_stmt_of(t, w->ctx.stmts[i]);
		const struct msite *f = st ? tmeta_site(t->m, st->fid) : NULL;
		ran = f && f->kind == 'N' && !strcmp(f->name, name);
	}
	if (!t)
		r = "trace: the failing run is not traced yet (the semantic explainer traces it)";
	else if (!known)
		snprintf(why, sizeof(why), "trace: no function %.64s in the traced program", name), r = why;
	else if (!ran)
		snprintf(why, sizeof(why), "trace: %.64s ran no statement in the failing run", name), r = why;
	pthread_mutex_unlock(&w->x->lock);
	return r;
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
		char *path = *arg ? expand_home(arg) : default_export_path(w);
		export_report(w, path, *arg != '\0');
		free(path);
	} else if (!strcmp(line, "format")) {
		if (report_format_parse(arg, &f) < 0)
			message(w, 1, "format: text, markdown or json");
		else {
			w->format = f;
			message(w, 0, "export format: %s", arg);
		}
	} else if (!strcmp(line, "set")) {
		char name[32], num[64];
		double v = 0;
		int ok = sscanf(arg, "%31s %63s", name, num) == 2 && parse_seconds(num, &v) == 0;   /* as the options */
		if (ok && !strcmp(name, "timeout")) {
			pthread_mutex_lock(&w->x->lock);
			w->x->opts.test_timeout = v;
			pthread_mutex_unlock(&w->x->lock);
			message(w, 0, "test timeout: %g s", v);
		} else if (ok && !strcmp(name, "build-timeout")) {
			pthread_mutex_lock(&w->x->lock);
			w->x->opts.build_timeout = v;
			pthread_mutex_unlock(&w->x->lock);
			message(w, 0, "build timeout: %g s", v);
		} else {
			message(w, 1, "set: timeout SECONDS | build-timeout SECONDS");
		}
	} else if (!strcmp(line, "func")) {
		const char *why = func_missing(w, arg);
		if (why) {
			message(w, 1, "%s", why);
		} else {
			snprintf(w->ctx.trace_func, sizeof(w->ctx.trace_func), "%s", arg);
			w->ctx.trace_config = -1;
			w->ctx.trace_jump = 1;
			message(w, 0, *arg ? "trace: the statements of %s" : "trace: every function%s", arg);
		}
	} else if (!strcmp(line, "tests")) {
		char *path = expand_home(arg);
		export_tests(w, path);
		free(path);
	} else if (!strcmp(line, "help")) {
		message(w, 0, ":export [FILE]  :format text|markdown|json  :tests [FILE]  :set timeout N  "
			      ":set build-timeout N  :func [NAME]  :help");
	} else if (line[0]) {
		message(w, 1, "unknown command '%s' (:help)", line);
	}
	free(line);
}

/* The help pane: every action with its keys in the focused pane's scope
 * (and everywhere), the dialog's keys and the commands; it scrolls, and /
 * filters it. Its own keys are fixed, whatever the keymap. */
static void help(struct wb *w)
{
	enum keymap_scope sc = w->views[w->focus].ops->scope;
	struct buf b = BUF_INIT;
	char **lines = xmalloc((KA_COUNT + 16) * sizeof(*lines));
	size_t n = 0;
	for (int a = 1; a < KA_COUNT; a++) {
		buf_reset(&b);
		keymap_keys_for(w->o->keymap, sc, (enum keymap_action)a, &b);
		lines[n++] = xasprintf("%-18s %-14s %s", b.s && b.s[0] ? b.s : "(unbound)",
				       keymap_action_name((enum keymap_action)a), keymap_action_help((enum keymap_action)a));
	}
	buf_release(&b);
	lines[n++] = xstrdup("");
	lines[n++] = xstrdup("In the refinement dialog: a approve, r reject, s or Esc stop refinement");
	lines[n++] = xstrdup("Commands (:): :export [FILE] :format text|markdown|json :tests [FILE]");
	lines[n++] = xstrdup("              :set timeout N :set build-timeout N :func [NAME] :help");
	char filter[64] = "";
	size_t top = 0, flen = 0;
	int filtering = 0;
	size_t *shown = xmalloc(n * sizeof(*shown));
	for (;;) {
		size_t ns = 0;
		for (size_t i = 0; i < n; i++)
			if (!flen || strcasestr(lines[i], filter))
				shown[ns++] = i;
		size_t rows = LINES > 4 ? (size_t)LINES - 4 : 1;
		if (top + rows > ns)
			top = ns > rows ? ns - rows : 0;
		erase();
		char head[256];
		snprintf(head, sizeof(head), "keys of the %s pane (and everywhere): %zu-%zu of %zu",
			 w->views[w->focus].ops->title, ns ? top + 1 : 0, top + rows < ns ? top + rows : ns, ns);
		attron(A_BOLD);
		mvaddnstr(0, 0, head, COLS - 1);
		attroff(A_BOLD);
		for (size_t r = 0; r < rows && top + r < ns; r++)
			mvaddnstr(2 + (int)r, 0, lines[shown[top + r]], COLS - 1);
		attron(A_REVERSE);
		move(LINES - 1, 0);
		for (int i = 0; i < COLS; i++)
			addch(' ');
		char foot[160];
		if (filtering)
			snprintf(foot, sizeof(foot), " filter: %s_   (Enter keeps it, Esc clears it)", filter);
		else
			snprintf(foot, sizeof(foot), " j/k Up/Down PgUp/PgDn Space g/G scroll  / filter%s%s  q or Esc closes",
				 flen ? ": " : "", filter);
		mvaddnstr(LINES - 1, 0, foot, COLS - 1);
		attroff(A_REVERSE);
		refresh();
		int ch = getch();
		if (ch == ERR || ch == KEY_RESIZE)
			continue;
		if (filtering) {
			if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
				filtering = 0;
			else if (ch == 27 || ch == 7) {
				filtering = 0;
				flen = 0;
				filter[0] = '\0';
			} else if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && flen)
				filter[--flen] = '\0';
			else if (ch >= ' ' && ch < 127 && flen + 1 < sizeof(filter)) {
				filter[flen++] = (char)ch;
				filter[flen] = '\0';
				top = 0;
			}
			continue;
		}
		if (ch == 'q' || ch == 27 || ch == '?' || ch == 7 || ch == '\n' || ch == '\r' || ch == KEY_ENTER ||
		    ch == KEY_F(1))
			break;
		if (ch == '/') {
			filtering = 1;
			flen = 0;
			filter[0] = '\0';
		} else if (ch == 'j' || ch == KEY_DOWN || ch == 14)
			top++;
		else if ((ch == 'k' || ch == KEY_UP || ch == 16) && top)
			top--;
		else if (ch == ' ' || ch == KEY_NPAGE || ch == 22)
			top += rows;
		else if (ch == KEY_PPAGE || ch == 'b')
			top = top > rows ? top - rows : 0;
		else if (ch == 'g' || ch == KEY_HOME)
			top = 0;
		else if (ch == 'G' || ch == KEY_END)
			top = ns;
	}
	free(shown);
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
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
	long target = report_set_change(w->x, (size_t)change);
	if (target < 0) {
		message(w, 1, "this line's change is outside the culprit commit");
		return;
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
		w->folded = 0;   /* the next proposal opens whole */
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
	if (w->folded) {   /* one line above the status bar: the panes stay in view */
		buf_addf(&b, " Proposed test %s waits: a approve, r reject, s stop, Enter shows it ", r->cur.name);
		pthread_mutex_unlock(&w->x->lock);
		attron(A_REVERSE | A_BOLD);
		move(LINES - 3, 0);   /* (over the panes' last line: the status bar is drawn after) */
		clrtoeol();
		mvaddnstr(LINES - 3, 0, b.s, COLS);
		attroff(A_REVERSE | A_BOLD);
		buf_release(&b);
		return;
	}
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
	buf_addf(&b, "covers %zu suspect statement%s:", r->cur.ncovered, r->cur.ncovered == 1 ? "" : "s");
	for (size_t i = 0; i < r->cur.ncovered && i < 12; i++)
		buf_addf(&b, " %s", r->cur.covered[i]);
	if (r->cur.ncovered > 12)
		buf_adds(&b, " ...");
	buf_adds(&b, "\n\n  a approve: add it to the suite and rank again\n  r reject: never propose it again\n"
		     "  s stop refinement: keep the result as it is\n"
		     "  the panes' moving keys browse them (the dialog folds to a line; Enter shows it again)");
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

/* C-z: the terminal given back to the shell until fg. The workbench reads
 * the terminal raw, so the key is no signal: it stops itself, as the
 * terminal would have. */
static void suspend(struct wb *w)
{
	def_prog_mode();
	endwin();
	struct sigaction dfl, old;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGTSTP, &dfl, &old);
	kill(0, SIGTSTP);   /* the whole process group, as C-z would (builds under it too) */
	sigaction(SIGTSTP, &old, NULL);
	reset_prog_mode();
	clearok(curscr, TRUE);
	message(w, 0, "back from the shell");
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
		export_report(w, path, 0);
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
	case KA_SCROLL_LEFT:
		v->left = v->left > 8 ? v->left - 8 : 0;
		break;
	case KA_SCROLL_RIGHT:
		v->left += 8;
		break;
	case KA_CONTEXT:
		w->ctx.context = !w->ctx.context;
		message(w, 0, "diff: %s", w->ctx.context ? "3 lines of context around each change" : "changed lines only");
		break;
	case KA_SUSPEND:
		suspend(w);
		break;
	case KA_QUIT_ASK:
		if (ask_yes(w, "quit? the session stays stored (y quits, any other key goes on)"))
			return R_QUIT;
		w->msg[0] = '\0';
		break;
	case KA_NONE:
	case KA_COUNT:
		break;
	}
	return R_HANDLED;
}

/* Actions that only move through what the panes hold (no refill). */
static int navigation(enum keymap_action a)
{
	switch (a) {
	case KA_MOVE_UP: case KA_MOVE_DOWN: case KA_PAGE_UP: case KA_PAGE_DOWN: case KA_MOVE_FIRST:
	case KA_MOVE_LAST: case KA_SCROLL_LEFT: case KA_SCROLL_RIGHT: case KA_FOCUS_NEXT: case KA_FOCUS_PREV:
	case KA_FOCUS_DIFF: case KA_FOCUS_TRACE: case KA_FOCUS_RANK: case KA_FOCUS_TREE: case KA_ZOOM:
	case KA_LAYOUT: case KA_SEARCH_NEXT: case KA_SEARCH_PREV:
		return 1;
	default:
		return 0;
	}
}

static int handle_key(struct wb *w, int ch)
{
	if (ch == KEY_RESIZE || proposal_shown(w)) {
		pthread_mutex_lock(&w->lock);
		w->dirty = 1;
		pthread_mutex_unlock(&w->lock);
	}
	if (ch == KEY_RESIZE)
		return R_HANDLED;
	if (proposal_shown(w)) {   /* the dialog takes its own keys */
		if (ch == 'a' || ch == 'r')
			refine(w, ch == 'a' ? JOB_APPROVE : JOB_REJECT);
		else if (ch == 's' || ch == 27) {
			struct cerr e;
			explain_refine_answer(w->x, REFINE_STOP, &e);
			message(w, 0, "refinement stopped: the result stands");
			/* The status bar says how refinement ended, not the proposal it dropped. */
			pthread_mutex_lock(&w->lock);
			char *r = strstr(w->result_msg, "refinement: ");
			size_t at = r ? (size_t)(r - w->result_msg) : strlen(w->result_msg);
			snprintf(w->result_msg + at, sizeof(w->result_msg) - at, "%srefinement stopped",
				 at && !r ? "; " : "");
			pthread_mutex_unlock(&w->lock);
		} else if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
			w->folded = 0;
		} else {
			/* The panes stay browsable: a moving key goes to them, the dialog folded to a line. */
			enum keymap_action a = KA_NONE;
			int k1 = ch;
			if (keymap_lookup(w->o->keymap, w->views[w->focus].ops->scope, &k1, 1, &a) == KM_ACTION &&
			    navigation(a)) {
				w->folded = 1;
				w->nkeys = 0;
				return act(w, a);
			}
			message(w, 1, "a approve, r reject, s stop refinement; the panes' moving keys browse them");
		}
		return R_HANDLED;
	}
	if (ch == '\r' || ch == KEY_ENTER)
		ch = '\n';   /* <Enter>, whatever the terminal sends */
	if (w->nkeys == 1 && ch == 7) {   /* C-g cancels a pending prefix */
		w->nkeys = 0;
		message(w, 0, "quit: the key sequence was cancelled");
		return R_HANDLED;
	}
	w->keys[w->nkeys++] = ch;
	enum keymap_action a = KA_NONE;
	enum keymap_match m = keymap_lookup(w->o->keymap, w->views[w->focus].ops->scope, w->keys, w->nkeys, &a);
	if (m == KM_PREFIX && w->nkeys == 1) {
		char name[16];
		message(w, 0, "%s-", keymap_key_name(ch, name));   /* (C-g cancels it) */
		return R_HANDLED;
	}
	size_t had = w->nkeys;
	w->nkeys = 0;
	if (m != KM_ACTION) {
		char first[16], name[16];
		if (had == 2)
			message(w, 1, "%s %s is not bound (? shows the keys)", keymap_key_name(w->keys[0], first),
				keymap_key_name(ch, name));
		else
			message(w, 1, "%s is not bound (? shows the keys)", keymap_key_name(ch, name));
		return R_HANDLED;
	}
	w->msg[0] = '\0';
	if (!navigation(a)) {
		pthread_mutex_lock(&w->lock);
		w->dirty = 1;
		pthread_mutex_unlock(&w->lock);
	}
	return act(w, a);
}

/* The first line a user reads: the keys of the active keymap. */
static void startup_hint(struct wb *w)
{
	enum keymap_action acts[] = {KA_STEP, KA_RUN, KA_REFINE, KA_EXPORT, KA_HELP};
	const char *what[] = {"steps", "runs to the end", "refines", "exports", "lists the keys"};
	int restoring = w->restore;
	struct buf m = BUF_INIT, k = BUF_INIT;
	buf_adds(&m, restoring ? "stored session, as left:" : "culprit:");
	int first = 1;
	for (size_t i = 0; i < sizeof(acts) / sizeof(*acts); i++) {
		if (restoring ? (acts[i] == KA_STEP || acts[i] == KA_RUN) : (acts[i] == KA_REFINE || acts[i] == KA_EXPORT))
			continue;
		buf_reset(&k);
		keymap_keys_for(w->o->keymap, KS_GENERIC, acts[i], &k);
		if (!k.s || !k.s[0])
			continue;
		char *comma = strchr(k.s, ',');
		if (comma)
			*comma = '\0';
		buf_addf(&m, "%s %s %s", first ? "" : ",", k.s, what[i]);
		first = 0;
	}
	message(w, 0, "%s", m.s);
	buf_release(&m);
	buf_release(&k);
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
	w->dirty = 1;
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
	w->ctx.context = 1;
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
	/* Raw: the terminal's signal and flow-control keys (C-c, C-z, C-\\, C-s,
	 * C-q) reach the keymap like any other key, so C-c prefixes and C-s work. */
	raw();
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
	/* A finished analysis is on screen at once, as it was left: the stored
	 * model is put back (nothing is built or computed). */
	char *state = explain_stored_state(x);
	if (!strcmp(state, "explained") || !strcmp(state, "unexplained")) {
		w->start = 1;
		w->restore = 1;
		w->mode = MODE_RUN;
	}
	free(state);
	if (o->notice)
		message(w, 1, "%s", o->notice);
	else
		startup_hint(w);
	pthread_create(&w->worker, NULL, work, w);
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
	free(w->ctx.depth);
	for (size_t i = 0; i < w->nlog; i++)
		free(w->log[i]);
	free(w->log);
	free(w->search);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
	return rc;
}
