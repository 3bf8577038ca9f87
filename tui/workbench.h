/* workbench — the full-screen terminal UI: four panes and a status bar over
 * the engine's model, the analysis in a worker thread paced by the user. */
#ifndef CULPRIT_WORKBENCH_H
#define CULPRIT_WORKBENCH_H

#include "core/session/explain.h"
#include "core/session/report.h"
#include "keymaps/keymap.h"

struct workbench_opts {
	struct keymap *keymap;
	enum report_format format;   /* for export */
	size_t top;                  /* ranked lines in exports */
	const char *notice;          /* shown first (keymap warnings), or NULL */
};

/* Run the workbench until the user quits. Returns the exit status: 0 when
 * a failure-inducing set was found, 1 when not, 2 on errors (e says why:
 * unknown terminal, ...). */
int workbench_run(struct explain *x, const struct workbench_opts *o, struct cerr *e);

#endif
