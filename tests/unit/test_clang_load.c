/* clang_load: libclang is not in the process until the first parse, and a
 * library that cannot be opened is one clear line, every time it is asked. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/semantic/csrc.h"
#include "tests/unit/test.h"

static char dir[256];

/* Is a libclang mapped in this process? */
static int libclang_mapped(void)
{
	struct buf maps = BUF_INIT;
	struct cerr e;
	if (file_read("/proc/self/maps", &maps, (size_t)64 << 20, &e) < 0)
		return -1;
	int found = maps.s && strstr(maps.s, "libclang") != NULL;
	buf_release(&maps);
	return found;
}

/* In a child (whose libclang state is still unloaded): a library that cannot
 * be opened fails each parse with one line naming libclang. */
static void test_cannot_load(void)
{
	int fds[2];
	CHECK(pipe(fds) == 0);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		setenv("CULPRIT_LIBCLANG", "/nonexistent/libclang.so", 1);
		struct csrc_file f;
		struct cerr e1 = {""}, e2 = {""};
		char *path = xasprintf("%s/p.c", dir);
		int rc1 = csrc_parse(&f, path, NULL, 0, &e1), rc2 = csrc_parse(&f, path, NULL, 0, &e2);
		int ok = rc1 < 0 && rc2 < 0 && strstr(e1.msg, "libclang cannot be loaded") &&
			 strstr(e1.msg, "/nonexistent/libclang.so") && !strchr(e1.msg, '\n') && !strcmp(e1.msg, e2.msg);
		if (!ok)
			dprintf(fds[1], "%d %d [%s] [%s]", rc1, rc2, e1.msg, e2.msg);
		_exit(ok ? 0 : 1);
	}
	close(fds[1]);
	char why[2048] = "";
	ssize_t n = read(fds[0], why, sizeof(why) - 1);
	close(fds[0]);
	int status = 0;
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	if (n > 0)
		printf("  child: %s\n", why);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_loaded_at_first_use(void)
{
	CHECK(libclang_mapped() == 0);
	struct csrc_file f;
	struct cerr e;
	char *path = xasprintf("%s/p.c", dir);
	CHECK(csrc_parse(&f, path, NULL, 0, &e) == 0);
	CHECK(f.nfuncs == 1);
	csrc_release(&f);
	free(path);
	CHECK(libclang_mapped() == 1);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/culprit-clang-load.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	char *p = xasprintf("%s/p.c", dir);
	struct cerr e;
	file_write_atomic(p, "int f(int x) { return x + 1; }\n", 32, 0644, &e);
	free(p);
	RUN(test_cannot_load);
	RUN(test_loaded_at_first_use);
	remove_tree(dir, NULL);
	TEST_EXIT();
}
