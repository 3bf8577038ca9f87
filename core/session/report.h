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

#endif
