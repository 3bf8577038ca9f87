/* keymap — the workbench's actions (one table: name and help), the default
 * bindings (written in the user's keymap syntax and compiled in, vi and
 * emacs styles), the parser of the user's keymap file, and key lookup with
 * two-key sequences. No drawing. */
#ifndef CULPRIT_KEYMAP_H
#define CULPRIT_KEYMAP_H

#include <stddef.h>
#include "core/util.h"

#define KEYMAP_ACTIONS(X)                                                              \
	X(QUIT, "quit", "quit; the session stays stored and the next start resumes it") \
	X(HELP, "help", "show the key bindings of the focused pane")                   \
	X(STEP, "step", "build and test one configuration, then pause")                \
	X(RUN, "run", "run the analysis to the end")                                   \
	X(PAUSE, "pause", "pause before the next configuration")                       \
	X(CANCEL, "cancel", "kill the running build or test and stop the analysis")     \
	X(STOP, "stop", "stop refinement and keep the best answer so far")             \
	X(EXPORT, "export", "export the report to the session directory as report.txt (report.md, report.json after :format), or a new name when it exists (:export FILE for another file)")                 \
	X(COMMAND, "command", "open the command prompt (:export FILE, :format F, :tests FILE, :set timeout N, :set build-timeout N, :func NAME, :help)") \
	X(SEARCH, "search", "search the focused pane (PCRE2)")                         \
	X(SEARCH_NEXT, "search-next", "next match")                                    \
	X(SEARCH_PREV, "search-prev", "previous match")                                \
	X(FOCUS_NEXT, "focus-next", "focus the next pane")                             \
	X(FOCUS_PREV, "focus-prev", "focus the previous pane")                         \
	X(FOCUS_DIFF, "focus-diff", "focus the diff pane")                             \
	X(FOCUS_TRACE, "focus-trace", "focus the trace pane")                          \
	X(FOCUS_RANK, "focus-rank", "focus the suspiciousness pane")                   \
	X(FOCUS_TREE, "focus-tree", "focus the causal-tree pane")                      \
	X(ZOOM, "zoom", "zoom the focused pane to the full screen and back")           \
	X(LAYOUT, "layout", "switch between the 2x2 and the stacked layout")           \
	X(TOGGLE_LOG, "toggle-log", "show or hide the event log")                      \
	X(REDRAW, "redraw", "redraw the screen")                                       \
	X(MOVE_UP, "move-up", "move up a line")                                        \
	X(MOVE_DOWN, "move-down", "move down a line")                                  \
	X(PAGE_UP, "page-up", "move up a page")                                        \
	X(PAGE_DOWN, "page-down", "move down a page")                                  \
	X(MOVE_FIRST, "move-first", "go to the first line")                            \
	X(MOVE_LAST, "move-last", "go to the last line")                               \
	X(EXPAND, "expand", "expand the selected tree node")                           \
	X(COLLAPSE, "collapse", "collapse the selected tree node")                     \
	X(TOGGLE, "toggle", "expand or collapse the selected node, and show it in the other panes") \
	X(FORMULA, "formula", "rank with the next suspiciousness formula")                  \
	X(CHANGED_ONLY, "changed-only", "rank every line, or only the lines good..bad changed") \
	X(JUMP, "jump", "show the selected line's change in the diff pane")            \
	X(REFINE, "refine", "propose a generated test (a approve, r reject, s stop refinement)") \
	X(SCROLL_LEFT, "scroll-left", "scroll the focused pane left")                  \
	X(SCROLL_RIGHT, "scroll-right", "scroll the focused pane right (long lines go on beyond the edge)") \
	X(CONTEXT, "context", "show or hide the 3 lines of context around each change in the diff pane") \
	X(SUSPEND, "suspend", "suspend culprit to the shell (fg brings it back; the analysis waits)") \
	X(QUIT_ASK, "quit-ask", "ask, then quit (y); the session stays stored")

enum keymap_action {
	KA_NONE,
#define KEYMAP_ENUM(id, name, help) KA_##id,
	KEYMAP_ACTIONS(KEYMAP_ENUM)
#undef KEYMAP_ENUM
	KA_COUNT
};

enum keymap_scope {
	KS_GENERIC,
	KS_DIFF,
	KS_TRACE,
	KS_RANK,
	KS_TREE,
	KS_LOG,
	KS_COUNT
};

enum keymap_style {
	KEYMAP_VI,
	KEYMAP_EMACS,
};

enum keymap_match {
	KM_NONE,
	KM_PREFIX,   /* the first key of a two-key binding: wait for the next */
	KM_ACTION,
};

const char *keymap_action_name(enum keymap_action a);
const char *keymap_action_help(enum keymap_action a);
enum keymap_action keymap_action_by_name(const char *name);   /* KA_NONE if unknown */
const char *keymap_scope_name(enum keymap_scope s);

/* Key names: "j", "<Tab>", "<C-n>", "<F5>", "<lt>" ... A key is an ncurses
 * key code or a character; 0 and -1 on error. Alt-x is the two keys <Esc> x. */
int keymap_key_parse(const char *name);
/* The canonical name of a key (a static buffer per call site: copy it). */
const char *keymap_key_name(int key, char buf[16]);

struct keymap;

/* A keymap holding the compiled-in defaults of a style. */
struct keymap *keymap_new(enum keymap_style style);
void keymap_free(struct keymap *km);   /* NULL is a no-op */

/* Lines of the keymap syntax: "bind SCOPE KEYS ACTION", "unbind SCOPE KEYS",
 * "set keys vi|emacs" (first line only: the defaults it starts from), '#'
 * comments. A bad line is reported through warn as "origin:line: message";
 * the rest still applies. Returns the number of bad lines. */
typedef void (*keymap_warn_fn)(void *priv, const char *message);
int keymap_load_string(struct keymap *km, const char *text, const char *origin, keymap_warn_fn warn, void *priv);
/* Load a file (a missing file is no error; an unreadable one is a warning). */
int keymap_load_file(struct keymap *km, const char *path, keymap_warn_fn warn, void *priv);
/* $XDG_CONFIG_HOME/culprit/keymap, or ~/.config/culprit/keymap (caller frees). */
char *keymap_default_path(void);
/* The style a file asks for with "set keys", or -1 (to pick the defaults first). */
int keymap_file_style(const char *path);

/* Look keys[0..n) up in scope, then in generic. */
enum keymap_match keymap_lookup(const struct keymap *km, enum keymap_scope scope, const int *keys, size_t n,
				enum keymap_action *out);
/* "j, <Down>": the keys bound to an action in a scope (generic too). */
void keymap_keys_for(const struct keymap *km, enum keymap_scope scope, enum keymap_action a, struct buf *out);
/* The effective bindings, in the keymap syntax (loading them back gives the same keymap). */
void keymap_dump(const struct keymap *km, struct buf *out);

#endif
