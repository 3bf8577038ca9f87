#define CLANG_LOAD_IMPL
#include "core/semantic/clang_load.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where the library was at build time (the Makefile passes them): the
 * directory the linker searched, and the soname a linked binary would have
 * recorded; the soname alone then goes through the system's search path. */
#ifndef CLANG_LOAD_DIR
#define CLANG_LOAD_DIR "/usr/lib/llvm-14/lib"
#endif
#ifndef CLANG_LOAD_SONAME
#define CLANG_LOAD_SONAME "libclang-14.so.13"
#endif

struct clang_api clang_api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[sizeof(((struct cerr *)0)->msg)];

static void *open_library(void)
{
	const char *forced = getenv("CULPRIT_LIBCLANG");
	if (forced && forced[0]) {
		void *h = dlopen(forced, RTLD_LAZY | RTLD_LOCAL);
		if (!h)
			snprintf(failure, sizeof(failure), "libclang cannot be loaded from CULPRIT_LIBCLANG: %s",
				 dlerror());
		return h;
	}
	const char *tries[] = {CLANG_LOAD_DIR "/" CLANG_LOAD_SONAME, CLANG_LOAD_SONAME, CLANG_LOAD_DIR "/libclang.so"};
	char why[512] = "";
	for (size_t i = 0; i < sizeof(tries) / sizeof(*tries); i++) {
		void *h = dlopen(tries[i], RTLD_LAZY | RTLD_LOCAL);
		if (h)
			return h;
		if (i == 1) /* the system's search, the reason that tells the most */
			snprintf(why, sizeof(why), "%s", dlerror());
	}
	snprintf(failure, sizeof(failure),
		 "libclang cannot be loaded (%s); the semantic explainer needs it (or set CULPRIT_LIBCLANG)", why);
	return NULL;
}

static void load(void)
{
	void *h = open_library();
	if (!h) {
		text_sanitize(failure);   /* dlerror's text: one line */
		return;
	}
	/* A name missing means another libclang than the one built against. */
#define CLANG_LOAD_RESOLVE(f)                                                                                       \
	if (!failure[0] && !(*(void **)&clang_api.f = dlsym(h, #f)))                                               \
		snprintf(failure, sizeof(failure), "libclang has no %s (culprit was built against libclang %s)", #f, \
			 CLANG_LOAD_SONAME);
	CLANG_LOAD_FUNCS(CLANG_LOAD_RESOLVE)
#undef CLANG_LOAD_RESOLVE
	text_sanitize(failure);
}

int clang_load(struct cerr *e)
{
	pthread_once(&once, load);
	if (failure[0])
		return cerr_set(e, "%s", failure);
	return 0;
}
