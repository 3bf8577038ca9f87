/* view — one small interface for the workbench's panes: a pane fills a list
 * of lines (text, colour, the model item it stands for) from the engine's
 * model; scrolling, selection, search and drawing are the workbench's. Panes
 * never own analysis state and never call libgit2, Z3 or libclang. */
#ifndef CULPRIT_VIEW_H
#define CULPRIT_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include "core/session/explain.h"
#include "keymaps/keymap.h"

enum view_color {
	VC_NORMAL,
	VC_HEADER,
	VC_ADD,
	VC_DEL,
	VC_INDUCING,
	VC_FIX,
	VC_AUX,
	VC_DIM,
	VC_COUNT
};

struct vline {
	char *text;
	enum view_color color;
	long ref;       /* the change (diff, tree, rank) or configuration (trace) it shows, or -1 */
	int node;       /* tree: the node this line opens or closes, or -1 */
	long ev;        /* tree, trace: the event of the failing run it stands for, or -1 */
};

/* What the panes read besides the engine's model (owned by the workbench). */
struct view_ctx {
	struct explain *x;        /* read under x->lock */
	char **log;               /* event lines */
	size_t nlog;
	long trace_config;        /* configuration shown in the trace pane, -1: the latest */
	const char *live;         /* the running command's output tail, or NULL */
	int collapsed[8];         /* tree nodes */
	char refine_key[24];      /* the key that proposes a generated test ("" unbound) */
	int context;              /* the diff pane shows 3 lines of context around each hunk */
	/* The failing run in the trace pane. */
	long trace_ev;            /* the event to show (-1: the failure) */
	char trace_func[64];      /* show only this function's statements ("" all) */
	int trace_jump;           /* put the cursor on trace_ev at the next fill */
	const struct trace *stmt_of;   /* the trace stmts indexes (the pane's cache) */
	uint32_t *stmts;          /* its statement events */
	uint16_t *depth;          /* their call depth (main's statements 0) */
	size_t nstmts;
};

struct view;

struct view_ops {
	const char *name;         /* "diff", ... (also its keymap scope's name) */
	const char *title;
	enum keymap_scope scope;
	void (*fill)(struct view *v, const struct view_ctx *c);
};

struct view {
	const struct view_ops *ops;
	struct vline *lines;
	size_t n, cap;
	size_t top, cur;          /* first line shown, selected line */
	size_t left;              /* columns scrolled to the right */
	int width;                /* text columns at the last draw */
	size_t head;              /* lines above the content at the last fill (the trace pane's "running:") */
};

void view_clear(struct view *v);
void view_add(struct view *v, enum view_color color, long ref, int node, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* The event of the failing run the last line added stands for. */
void view_set_ev(struct view *v, long ev);
/* Add text that may hold several lines, each with the prefix. */
void view_add_text(struct view *v, enum view_color color, long ref, const char *prefix, const char *text, size_t len);
void view_release(struct view *v);

extern const struct view_ops diff_view_ops, trace_view_ops, rank_view_ops, tree_view_ops, log_view_ops;

/* Tree nodes. */
enum { TREE_INDUCING, TREE_FIX, TREE_AUX, TREE_RANGE, TREE_WHY, TREE_FAULTS, TREE_SEQS };

#endif
