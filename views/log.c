/* The log pane: every event of the session so far. */
#include "views/view.h"

static void fill(struct view *v, const struct view_ctx *c)
{
	for (size_t i = 0; i < c->nlog; i++)
		view_add(v, VC_NORMAL, -1, -1, "%s", c->log[i]);
	if (!c->nlog)
		view_add(v, VC_DIM, -1, -1, "no events yet");
}

const struct view_ops log_view_ops = {"log", "log", KS_LOG, fill};
