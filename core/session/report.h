/* report — the text, Markdown and JSON renderings of an analysis (the model
 * explain owns). The same text the workbench exports and `culprit report` prints. */
#ifndef CULPRIT_REPORT_H
#define CULPRIT_REPORT_H

#include "core/session/explain.h"
#include "core/util.h"

enum report_format {
	REPORT_TEXT,
	REPORT_MARKDOWN,
	REPORT_JSON,
};

/* "text", "markdown" (or "md"), "json" -> 0 and *f; else -1. */
int report_format_parse(const char *name, enum report_format *f);
/* Append the report of x to out; with a ranking, its top `top` lines. */
void report_render(const struct explain *x, enum report_format f, size_t top, struct buf *out);
/* Only the ranking (culprit rank): its top `top` lines (0: all). */
void report_ranking(const struct explain *x, enum report_format f, size_t top, struct buf *out);
/* Id of an answer item: "3" or "3.2" (a token piece of change 3). */
void report_item_id(const struct explain *x, const struct explain_item *it, struct buf *out);

/* One id per change: a change of good..bad (an index of x->set_full) is
 * shown with the id of the culprit commit's change at the same place.
 * report_set_change gives that change's index in x->set (-1: outside the
 * culprit commit); report_full_change_id writes "#5", or "-" outside (returns 0).
 * Before the culprit commit is known, the range's own ids. */
long report_set_change(const struct explain *x, size_t full);
int report_full_change_id(const struct explain *x, size_t full, char *out, size_t size);

#endif
