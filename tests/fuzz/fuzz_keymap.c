/* libFuzzer target: the keymap file reader (keymaps/keymap.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "keymaps/keymap.h"

static void ignore(void *priv, const char *msg)
{
	(void)priv;
	(void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xstrndup((const char *)data, size);
	struct keymap *km = keymap_new(size && data[0] & 1 ? KEYMAP_EMACS : KEYMAP_VI);
	keymap_load_string(km, text, "fuzz", ignore, NULL);
	struct buf out = BUF_INIT;
	keymap_dump(km, &out);
	buf_release(&out);
	keymap_free(km);
	free(text);
	return 0;
}
