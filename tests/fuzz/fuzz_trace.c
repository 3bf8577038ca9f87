/* libFuzzer target: the trace reader (core/semantic/trace.c) with the
 * metadata of a small real program; the trace lives under <gitdir>/culprit/
 * and can be damaged or cut short by a kill. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/semantic/tmeta.h"
#include "core/semantic/trace.h"

/* static const char meta_text[]: tests/fuzz/trace.meta, embedded by the Makefile. */
#include "trace_meta.inc"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tmeta m;
	static int loaded;
	struct cerr e;
	if (!loaded) {
		if (tmeta_parse(&m, meta_text, strlen(meta_text), &e) < 0)
			abort();
		loaded = 1;
	}
	struct trace t;
	if (trace_parse(&t, data, size, &m, &e) < 0)
		return 0;
	for (size_t i = 0; i < t.n; i++) {
		trace_stmt_of(&t, i);
		const uint32_t *d;
		trace_deps(&t, i, &d);
	}
	if (t.n) {
		uint32_t seed = (uint32_t)(t.n - 1);
		struct bits *in = bits_new(t.n);
		trace_slice(&t, &seed, 1, in);
		bits_free(in);
	}
	trace_release(&t);
	return 0;
}
