/* libFuzzer target: the JSON reader (core/json.c), which reads stored
 * sessions' documents back. */
#include <stdint.h>

#include "core/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cerr e;
	json_free(json_parse((const char *)data, size, &e));
	return 0;
}
