/* libFuzzer target: the suite file reader (core/spectrum/suite.c). */
#include <stdint.h>
#include <stdlib.h>

#include "core/spectrum/suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xstrndup((const char *)data, size);
	struct suite s;
	struct cerr e;
	if (suite_parse(&s, text, "fuzz", &e) == 0)
		suite_release(&s);
	free(text);
	return 0;
}
