/* The trace pane: for the selected configuration, the build's error excerpt
 * or the test's output; while a build or test runs, its live output. */
#include "views/view.h"

#include <string.h>

static void fill(struct view *v, const struct view_ctx *c)
{
	const struct explain *x = c->x;
	if (x->activity) {
		view_add(v, VC_HEADER, -1, -1, "running: %s", x->activity);
		if (c->live)
			view_add_text(v, VC_NORMAL, -1, "  ", c->live, strlen(c->live));
		view_add(v, VC_DIM, -1, -1, "%s", "");
	}
	if (x->nconfigs == 0) {
		if (!x->activity)
			view_add(v, VC_DIM, -1, -1, "no configuration tested yet: press s to step, r to run");
		return;
	}
	long i = c->trace_config >= 0 && (size_t)c->trace_config < x->nconfigs ? c->trace_config : (long)x->nconfigs - 1;
	const struct explain_config *cf = &x->configs[i];
	view_add(v, VC_HEADER, i, -1, "configuration %ld of %zu: %s", i + 1, x->nconfigs, cf->label);
	enum view_color col = cf->verdict == VERDICT_FAIL ? VC_DEL : cf->verdict == VERDICT_PASS ? VC_ADD : VC_FIX;
	view_add(v, col, i, -1, "%s%s%s%s%s (build %.1fs, test %.1fs)%s", verdict_name(cf->verdict), cf->why ? ", " : "",
		 why_name(cf->why), cf->signature ? ": " : "", cf->signature ? cf->signature : "", cf->build_seconds,
		 cf->test_seconds, cf->stored ? " [stored]" : "");
	if (cf->excerpt && cf->excerpt[0]) {
		view_add(v, VC_DIM, i, -1, "%s", cf->why == WHY_BUILD ? "first compiler error:" : "output:");
		view_add_text(v, VC_NORMAL, i, "  ", cf->excerpt, strlen(cf->excerpt));
	}
	view_add(v, VC_DIM, -1, -1, "(no execution trace: tracing the failing run is not in this version)");
}

const struct view_ops trace_view_ops = {"trace", "trace", KS_TRACE, fill};
