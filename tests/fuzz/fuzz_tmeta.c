/* libFuzzer target: the trace metadata reader (core/semantic/tmeta.c); the
 * file lives under <gitdir>/culprit/ and can be damaged. */
#include <stdint.h>

#include "core/semantic/tmeta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tmeta m;
	struct cerr e;
	if (tmeta_parse(&m, (const char *)data, size, &e) < 0)
		return 0;
	struct buf b = BUF_INIT;
	for (unsigned id = 0; id < m.nids; id++) {
		const struct msite *s = tmeta_site(&m, id);
		if (!s)
			continue;
		tmeta_stmt(&m, id);
		tmeta_tree_str(s->tree, &b);
		tmeta_tree_str(s->check_tree, &b);
		for (int a = 0; a < s->nargs; a++)
			tmeta_tree_str(s->args[a], &b);
		buf_reset(&b);
	}
	buf_release(&b);
	tmeta_release(&m);
	return 0;
}
