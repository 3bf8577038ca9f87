/* libFuzzer target: the instrumenter's input (core/semantic/instr.c): any
 * C text, as a project's file could hold, parsed by libclang and rewritten. */
#include <stdint.h>
#include <stdlib.h>

#include "core/semantic/instr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf out = BUF_INIT, meta = BUF_INIT;
	struct instr_stats st;
	struct cerr e;
	unsigned next = 1;
	char *text = xstrndup((const char *)data, size);
	instr_file("/fuzz/input.c", "input.c", text, size, 0, NULL, 0, &next, &out, &meta, &st, &e);
	free(text);
	buf_release(&out);
	buf_release(&meta);
	return 0;
}
