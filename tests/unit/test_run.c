#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/isolate/run.h"
#include "tests/unit/test.h"

static int run(const char *cmd, double timeout, struct run_result *r)
{
	struct run_opts o = {.cmd = cmd, .timeout = timeout, .grace = 0.3};
	struct cerr e;
	return run_command(&o, r, &e);
}

/* Live processes (not zombies) in process group pgid, from /proc. */
static int group_alive(pid_t pgid)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;
	while (d && (de = readdir(d))) {
		char path[300], line[512];
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f)) {
			/* pid (comm) state ppid pgrp ...; comm may hold spaces */
			char *p = strrchr(line, ')'), state;
			int ppid, pgrp;
			if (p && sscanf(p + 1, " %c %d %d", &state, &ppid, &pgrp) == 3 && pgrp == pgid &&
			    state != 'Z')
				n++;
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

/* The group is gone, allowing the kernel a moment to finish the kills. */
static int group_gone(pid_t pgid)
{
	for (int i = 0; i < 100; i++) {
		if (!group_alive(pgid))
			return 1;
		usleep(10000);
	}
	return 0;
}

static void test_exit_codes(void)
{
	struct run_result r;
	CHECK(run("true", 0, &r) == 0);
	CHECK(r.status == RUN_EXITED && r.code == 0);
	CHECK(r.out.len == 0 && r.total == 0 && !r.truncated);
	run_result_release(&r);

	CHECK(run("echo out; echo err >&2; exit 3", 0, &r) == 0);
	CHECK(r.status == RUN_EXITED && r.code == 3);
	CHECK_STR(r.out.s, "out\nerr\n");
	CHECK(r.total == 8);
	char *d = run_describe(&r, 0);
	CHECK_STR(d, "exit 3");
	free(d);
	run_result_release(&r);

	CHECK(run("cat", 0, &r) == 0);   /* stdin is /dev/null: returns at once */
	CHECK(r.status == RUN_EXITED && r.code == 0 && r.out.len == 0);
	run_result_release(&r);
}

static void test_signals(void)
{
	struct run_result r;
	CHECK(run("kill -SEGV $$", 0, &r) == 0);
	CHECK(r.status == RUN_SIGNALED && r.code == SIGSEGV);
	char *d = run_describe(&r, 0);
	CHECK_STR(d, "signal 11 (SIGSEGV)");
	free(d);
	run_result_release(&r);

	/* The inner shell dies; the outer one reports it as 128+N. */
	CHECK(run("sh -c 'kill -ABRT $$'; exit $?", 0, &r) == 0);
	CHECK(r.status == RUN_EXITED && r.code == 128 + SIGABRT);
	run_result_release(&r);
}

/* Timeouts under load: a busy machine may not even start the shell within a
 * short limit, so each case retries with longer limits until the command got
 * as far as the case needs (its first output); the commands would run 100 s,
 * so a result well under that shows the kill. */
static int run_until_output(const char *cmd, const char *want, double *limit, struct run_result *r)
{
	for (*limit = 0.3; *limit < 60; *limit *= 4) {
		if (run(cmd, *limit, r) < 0)
			return -1;
		if (r->out.s && !strncmp(r->out.s, want, strlen(want)))
			return 0;
		run_result_release(r);
	}
	return run(cmd, *limit, r);
}

static void test_timeout(void)
{
	struct run_result r;
	double limit;
	CHECK(run_until_output("echo started; sleep 100", "started", &limit, &r) == 0);
	CHECK(r.status == RUN_TIMEOUT);
	CHECK(r.code == SIGTERM);
	CHECK(r.seconds >= limit && r.seconds < 90);
	CHECK_STR(r.out.s, "started\n");
	run_result_release(&r);
	r.status = RUN_TIMEOUT;
	char *d = run_describe(&r, 0.3);
	CHECK_STR(d, "timeout after 0.3s");
	free(d);
}

static void test_term_ignored(void)
{
	struct run_result r;
	double limit;
	/* Its pid is printed once the trap is set. */
	CHECK(run_until_output("trap '' TERM; echo $$; sleep 100; echo survived", "", &limit, &r) == 0);
	while (limit < 60 && !strchr(r.out.s ? r.out.s : "", '\n')) {
		run_result_release(&r);
		limit *= 4;
		CHECK(run("trap '' TERM; echo $$; sleep 100; echo survived", limit, &r) == 0);
	}
	CHECK(r.status == RUN_TIMEOUT);
	CHECK(r.code == SIGKILL);
	CHECK(r.seconds < 90);
	CHECK(!strstr(r.out.s, "survived"));
	pid_t pgid = (pid_t)atoi(r.out.s);
	CHECK(pgid > 1 && group_gone(pgid));
	run_result_release(&r);
}

static void test_background(void)
{
	struct run_result r;
	CHECK(run("echo $$; sleep 100 & echo $!; echo hi", 0, &r) == 0);
	CHECK(r.status == RUN_EXITED && r.code == 0);
	CHECK(r.seconds < 90);
	pid_t pgid = 0, bg = 0;
	CHECK(sscanf(r.out.s, "%d\n%d\nhi\n", &pgid, &bg) == 2);
	CHECK(pgid > 1 && bg > 1);
	CHECK(group_alive(getpgrp()) > 0);   /* the helper does see live groups */
	CHECK(group_gone(pgid));
	run_result_release(&r);
}

static void test_output_cap(void)
{
	struct run_result r;
	struct run_opts o = {.cmd = "printf START; i=0; while [ $i -lt 2000 ]; do echo 123456789; i=$((i+1)); done;"
				    " printf END",
			     .output_cap = 1000};
	struct cerr e;
	CHECK(run_command(&o, &r, &e) == 0);
	size_t total = 5 + 2000 * 10 + 3;
	CHECK(r.total == total);
	CHECK(r.truncated);
	CHECK(!strncmp(r.out.s, "START123456789\n1234", 19));
	CHECK(r.out.len > 3 && !strcmp(r.out.s + r.out.len - 14, "\n123456789\nEND"));
	char marker[64];
	snprintf(marker, sizeof(marker), "\n[... %zu bytes omitted ...]\n", total - 1000);
	char *m = strstr(r.out.s, marker);
	CHECK(m && m - r.out.s == 500);
	CHECK(r.out.len == 1000 + strlen(marker));
	run_result_release(&r);

	o.cmd = "printf 0123456789";
	o.output_cap = 10;
	CHECK(run_command(&o, &r, &e) == 0);
	CHECK_STR(r.out.s, "0123456789");
	CHECK(!r.truncated && r.total == 10);
	run_result_release(&r);
}

struct flag {
	volatile int cancel;
	size_t seen;
};

/* Cancel once the command has printed (however slow the machine is). */
static void *cancel_later(void *p)
{
	struct flag *f = p;
	while (__atomic_load_n(&f->seen, __ATOMIC_SEQ_CST) < 3)
		usleep(10000);
	f->cancel = 1;
	return NULL;
}

static void on_output(void *priv, const char *data, size_t len)
{
	__atomic_add_fetch(&((struct flag *)priv)->seen, len, __ATOMIC_SEQ_CST);
}

static void test_cancel(void)
{
	struct flag f = {0, 0};
	struct run_opts o = {.cmd = "echo go; sleep 100", .cancel = &f.cancel, .grace = 0.3,
			     .on_output = on_output, .priv = &f};
	struct run_result r;
	struct cerr e;
	pthread_t t;
	pthread_create(&t, NULL, cancel_later, &f);
	CHECK(run_command(&o, &r, &e) == 0);
	pthread_join(t, NULL);
	CHECK(r.status == RUN_CANCELLED);
	CHECK(r.seconds < 90);
	CHECK(f.seen == 3);
	char *d = run_describe(&r, 0);
	CHECK_STR(d, "cancelled");
	free(d);
	run_result_release(&r);
}

static void *run_in_thread(void *p)
{
	struct run_result *r = p;
	run("echo from a thread", 0, r);
	return NULL;
}

static void test_thread(void)
{
	struct run_result r;
	pthread_t t;
	pthread_create(&t, NULL, run_in_thread, &r);
	pthread_join(t, NULL);
	CHECK_STR(r.out.s, "from a thread\n");
	run_result_release(&r);
}

static void test_cwd_env_fds(void)
{
	char dir[] = "/tmp/culprit-run-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	setenv("CULPRIT_TEST_OLD", "old", 1);
	const char *env[] = {"CULPRIT_TEST_NEW=new value", "CULPRIT_TEST_OLD=replaced", NULL};
	struct run_opts o = {.cmd = "pwd; echo \"$CULPRIT_TEST_NEW|$CULPRIT_TEST_OLD\"; env | grep -c CULPRIT_TEST_OLD",
			     .cwd = dir, .env = env};
	struct run_result r;
	struct cerr e;
	CHECK(run_command(&o, &r, &e) == 0);
	char want[200];
	snprintf(want, sizeof(want), "%s\nnew value|replaced\n1\n", dir);
	CHECK_STR(r.out.s, want);
	run_result_release(&r);

	/* A descriptor we leave open without O_CLOEXEC does not reach the command. */
	int leak = open("/dev/null", O_RDONLY);
	o.cmd = "ls /proc/$$/fd";   /* no pipe: the shell's own would show */
	o.env = NULL;
	CHECK(run_command(&o, &r, &e) == 0);
	CHECK_STR(r.out.s, "0\n1\n2\n");
	run_result_release(&r);
	close(leak);

	o.cwd = "/nonexistent/culprit";
	o.cmd = "echo ran";
	CHECK(run_command(&o, &r, &e) == 0);
	CHECK(r.status == RUN_EXITED && r.code == 127);
	CHECK(strstr(r.out.s, "cannot enter /nonexistent/culprit") && !strstr(r.out.s, "ran"));
	run_result_release(&r);
	rmdir(dir);
}

/* Is pid alive (not a zombie)? */
static int alive(pid_t pid)
{
	char path[64], line[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	int live = 0;
	if (fgets(line, sizeof(line), f)) {
		char *p = strrchr(line, ')');
		live = p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
	}
	fclose(f);
	return live;
}

/* A descendant that leaves the group with setsid and ignores TERM, directly
 * or through a parent that exits at once (a daemon's double fork): none
 * outlives its command. */
static void test_setsid_escape(void)
{
	char dir[] = "/tmp/culprit-run-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	for (int i = 0; i < 2; i++) {
		char *cmd = i == 0 ? xasprintf("setsid sh -c 'trap \"\" TERM; echo $$ > %s/pid; exec sleep 300' & "
					       "while [ ! -s %s/pid ]; do sleep 0.01; done", dir, dir)
				   : xasprintf("sh -c 'setsid sh -c \"trap \\\"\\\" TERM; echo \\$\\$ > %s/pid; "
					       "exec sleep 300\" &'; while [ ! -s %s/pid ]; do sleep 0.01; done", dir, dir);
		char *pidf = xasprintf("%s/pid", dir);
		unlink(pidf);
		struct run_result r;
		CHECK(run(cmd, 0, &r) == 0);
		CHECK(r.status == RUN_EXITED && r.code == 0);
		struct buf b = BUF_INIT;
		CHECK(file_read(pidf, &b, 100, NULL) == 0);
		pid_t pid = b.s ? (pid_t)atoi(b.s) : 0;
		CHECK(pid > 1);
		if (pid > 1 && alive(pid)) {
			printf("  form %d: pid %d survived its command\n", i, (int)pid);
			CHECK(0);
			kill(pid, SIGKILL);
		}
		buf_release(&b);
		run_result_release(&r);
		unlink(pidf);
		free(pidf);
		free(cmd);
	}
	rmdir(dir);
}

static void test_memory_limit(void)
{
	struct run_result r;
	run_set_memory_limit(64);
	CHECK(run("ulimit -v", 0, &r) == 0);
	CHECK_STR(r.out.s, "65536\n");
	run_result_release(&r);
	/* A command that wants more fails instead of eating the machine. */
	CHECK(run("x=$(head -c 200000000 /dev/zero | tr '\\0' a); echo ${#x}", 0, &r) == 0);
	CHECK(!(r.status == RUN_EXITED && r.code == 0 && !strcmp(r.out.s, "200000000\n")));
	run_result_release(&r);
	run_set_memory_limit(0);
	CHECK(run("ulimit -v", 0, &r) == 0);
	CHECK_STR(r.out.s, "unlimited\n");
	run_result_release(&r);
}

static void test_no_zombies(void)
{
	errno = 0;
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD);
}

int main(void)
{
	RUN(test_exit_codes);
	RUN(test_signals);
	RUN(test_timeout);
	RUN(test_term_ignored);
	RUN(test_background);
	RUN(test_output_cap);
	RUN(test_cancel);
	RUN(test_thread);
	RUN(test_cwd_env_fds);
	RUN(test_setsid_escape);
	RUN(test_memory_limit);
	RUN(test_no_zombies);
	TEST_EXIT();
}
