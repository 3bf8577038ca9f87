#include "core/isolate/run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <pthread.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define DEFAULT_CAP (256 * 1024)
#define TICK_MS 50            /* how often timeout and cancel are checked */
#define WAIT_TICK_MS 5        /* the same once the output pipe is closed: exit is near */
#define READS_PER_TICK 16     /* a command that floods output cannot starve the checks */
#define DRAIN_SECONDS 0.5     /* reading on after the command exited (escaped group members) */

/* Output kept: the first half of the cap, and a ring of the last half. */
struct capture {
	struct buf head;
	char *ring;
	size_t ring_cap, ring_len, ring_pos;
	size_t total, half;
};

static void capture_add(struct capture *c, const char *p, size_t n)
{
	c->total += n;
	size_t h = c->head.len < c->half ? c->half - c->head.len : 0;
	if (h > n)
		h = n;
	buf_add(&c->head, p, h);
	p += h;
	n -= h;
	while (n > 0) {
		size_t k = c->ring_cap - c->ring_pos;
		if (k > n)
			k = n;
		memcpy(c->ring + c->ring_pos, p, k);
		c->ring_pos = (c->ring_pos + k) % c->ring_cap;
		c->ring_len = c->ring_len + k < c->ring_cap ? c->ring_len + k : c->ring_cap;
		p += k;
		n -= k;
	}
}

static void capture_finish(struct capture *c, struct run_result *r)
{
	buf_reset(&r->out);
	buf_add(&r->out, c->head.s ? c->head.s : "", c->head.len);
	size_t omitted = c->total - c->head.len - c->ring_len;
	if (omitted)
		buf_addf(&r->out, "\n[... %zu bytes omitted ...]\n", omitted);
	size_t start = (c->ring_pos + c->ring_cap - c->ring_len) % c->ring_cap;
	size_t first = c->ring_cap - start < c->ring_len ? c->ring_cap - start : c->ring_len;
	buf_add(&r->out, c->ring + start, first);
	buf_add(&r->out, c->ring, c->ring_len - first);
	r->total = c->total;
	r->truncated = omitted > 0;
	buf_release(&c->head);
	free(c->ring);
}

/* Process-wide: the address-space limit of every command (0: none), and
 * the commands' guards, our own children; any other child is a descendant
 * of a command that escaped its process group and was handed to us as the
 * subreaper. Each command carries a token in its environment (RUN_TOKEN)
 * that its descendants inherit, so one command's end kills its own escaped
 * descendants and leaves those of a command still running in another thread. */
#define RUN_TOKEN "CULPRIT_RUN"
static pthread_mutex_t guards_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t *guards;
static size_t nguards, capguards;
static unsigned long run_counter;
static size_t memory_mb;

void run_set_memory_limit(size_t mb)
{
	memory_mb = mb;
}

static void guard_add(pid_t pid)
{
	if (nguards == capguards) {
		capguards = capguards ? 2 * capguards : 16;
		guards = xrealloc(guards, capguards * sizeof(*guards));
	}
	guards[nguards++] = pid;
}

static void guard_remove(pid_t pid)
{
	pthread_mutex_lock(&guards_lock);
	for (size_t i = 0; i < nguards; i++)
		if (guards[i] == pid) {
			guards[i] = guards[--nguards];
			break;
		}
	pthread_mutex_unlock(&guards_lock);
}

static int is_guard(pid_t pid)
{
	for (size_t i = 0; i < nguards; i++)
		if (guards[i] == pid)
			return 1;
	return 0;
}

/* Does process pid carry token (or no readable token at all)? */
static int carries_token(pid_t pid, const char *token)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/environ", (long)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;   /* gone, or not ours to read: nothing of another command's */
	static const char key[] = RUN_TOKEN "=";
	struct buf b = BUF_INIT;
	char chunk[4096];
	ssize_t n;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0 && b.len < (1u << 20))
		buf_add(&b, chunk, (size_t)n);
	close(fd);
	int found = 0, mine = 1;
	for (size_t i = 0; i < b.len; i += strlen(b.s + i) + 1)
		if (!strncmp(b.s + i, key, sizeof(key) - 1)) {
			found = 1;
			mine = !strcmp(b.s + i + sizeof(key) - 1, token);
		}
	buf_release(&b);
	return found ? mine : 1;
}

/* Our children that are not guards and carry token. */
static size_t inherited(const char *token, pid_t *out, size_t max)
{
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	pid_t self = getpid();
	size_t n = 0;
	struct dirent *de;
	while (n < max && (de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		if (end == de->d_name || *end || pid <= 0)
			continue;
		char path[64], line[512];
		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t got = read(fd, line, sizeof(line) - 1);
		close(fd);
		if (got <= 0)
			continue;
		line[got] = '\0';
		const char *rp = strrchr(line, ')');   /* the name may hold spaces and parentheses */
		char state;
		long ppid;
		if (!rp || sscanf(rp + 1, " %c %ld", &state, &ppid) != 2 || ppid != self)
			continue;
		pthread_mutex_lock(&guards_lock);
		int guard = is_guard((pid_t)pid);
		pthread_mutex_unlock(&guards_lock);
		if (!guard && carries_token((pid_t)pid, token))
			out[n++] = (pid_t)pid;
	}
	closedir(d);
	return n;
}

/* Kill the descendants of a command that escaped its group and were handed
 * to us (a killed one's own children come to us in turn: rounds). */
static void kill_inherited(const char *token)
{
	pid_t v[256];
	for (int round = 0; round < 1000; round++) {
		size_t n = inherited(token, v, sizeof(v) / sizeof(*v));
		if (!n)
			return;
		for (size_t i = 0; i < n; i++) {
			kill(v[i], SIGKILL);
			if (getpgid(v[i]) == v[i])
				kill(-v[i], SIGKILL);   /* it made a group of its own: its members too */
		}
		for (size_t i = 0; i < n; i++)
			while (waitpid(v[i], NULL, 0) < 0 && errno == EINTR)
				;
	}
}

/* Does "NAME=..." s set a name that one of the NAME=VALUE strings in list sets? */
static int overridden(const char *s, const char *const *list)
{
	size_t n = strcspn(s, "=");
	for (; *list; list++)
		if (!strncmp(*list, s, n) && (*list)[n] == '=')
			return 1;
	return 0;
}

/* Our environment with extra NAME=VALUE strings added or replacing. Built
 * before fork: after fork in a threaded process, setenv could deadlock. The
 * strings stay owned by environ and extra; free() the array alone. */
static char **make_env(const char *const *extra)
{
	size_t n = 0, k = 0, m = 0;
	while (environ && environ[n])
		n++;
	while (extra[k])
		k++;
	char **env = xcalloc(n + k + 1, sizeof(*env));
	for (size_t i = 0; i < n; i++)
		if (!overridden(environ[i], extra))
			env[m++] = environ[i];
	for (size_t j = 0; j < k; j++)
		if (!overridden(extra[j], extra + j + 1))   /* the last one of a name wins */
			env[m++] = (char *)extra[j];
	return env;
}

static void child_fail(const char *what, const char *arg)
{
	const char *err = strerror(errno);
	dprintf(2, "culprit: %s %s: %s\n", what, arg, err);
	_exit(127);
}

#define GUARD_SIGNAL SIGUSR2

static void guard_on_parent_death(int sig)
{
	(void)sig;
	kill(0, SIGKILL);
}

/* In the child: only async-signal-safe work from here to exec. */
static void child(const struct run_opts *o, int out, char **env, pid_t parent)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (int s = 1; s < NSIG; s++)
		sigaction(s, &sa, NULL);   /* fails harmlessly for KILL, STOP and libc's own */
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setpgid(0, 0);

	/* Copies above 2 first, so dup2 below never finds its target already in place. */
	int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int in = fcntl(nul, F_DUPFD_CLOEXEC, 3), o1 = fcntl(out, F_DUPFD_CLOEXEC, 3);
	if (nul < 0 || in < 0 || o1 < 0 || dup2(in, 0) < 0 || dup2(o1, 1) < 0 || dup2(o1, 2) < 0)
		_exit(127);
	/* O_CLOEXEC is not used everywhere (libraries): close the rest by hand. */
	if (close_range(3, ~0U, 0) < 0)
		for (int fd = 3; fd < 65536; fd++)
			close(fd);
	if (o->cwd && chdir(o->cwd) < 0)
		child_fail("cannot enter", o->cwd);
	char *const argv[] = {"sh", "-c", (char *)o->cmd, NULL};
	/* A guard stays in the group and runs the command as its child: if
	 * culprit dies, even by SIGKILL, the kernel signals the guard, which
	 * kills the whole group, so no build outlives us. */
	pid_t cmd = fork();
	if (cmd < 0)
		child_fail("cannot fork for", o->cmd);
	if (cmd == 0) {
		if (memory_mb) {
			struct rlimit rl = {(rlim_t)memory_mb << 20, (rlim_t)memory_mb << 20};
			if (setrlimit(RLIMIT_AS, &rl) < 0)
				child_fail("cannot limit the memory of", o->cmd);
		}
		execve("/bin/sh", argv, env);
		child_fail("cannot run", "/bin/sh");
	}
	/* The group's TERM and KILL are for the command: the guard ignores what
	 * can be ignored and reports how the command ended. */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sa.sa_handler = guard_on_parent_death;
	sigaction(GUARD_SIGNAL, &sa, NULL);
	prctl(PR_SET_PDEATHSIG, GUARD_SIGNAL);
	if (getppid() != parent)
		kill(0, SIGKILL);   /* the parent died before prctl */
	int status;
	while (waitpid(cmd, &status, 0) < 0)
		if (errno != EINTR)
			_exit(127);
	if (WIFEXITED(status))
		_exit(WEXITSTATUS(status));
	/* Die the way the command died. */
	int sig = WTERMSIG(status);
	sa.sa_handler = SIG_DFL;
	sigaction(sig, &sa, NULL);
	kill(getpid(), sig);
	_exit(128 + sig);
}

/* Read what is there (up to READS_PER_TICK chunks). 0 at end of file. */
static int read_some(int fd, struct capture *cap, const struct run_opts *o)
{
	char chunk[65536];
	for (int i = 0; i < READS_PER_TICK; i++) {
		ssize_t got = read(fd, chunk, sizeof(chunk));
		if (got == 0)
			return 0;
		if (got < 0)
			return errno == EAGAIN || errno == EINTR ? 1 : 0;
		capture_add(cap, chunk, (size_t)got);
		if (o->on_output)
			o->on_output(o->priv, chunk, (size_t)got);
	}
	return 1;
}

/* Has the child exited? Leaves it a zombie (WNOWAIT), so its pid, which is
 * also the process group's id, cannot be reused while we kill the group. */
static int has_exited(pid_t pid)
{
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno != EINTR;   /* ECHILD: reaped elsewhere; nothing to wait for */
	return si.si_pid == pid;
}

int run_command(const struct run_opts *o, struct run_result *r, struct cerr *e)
{
	size_t limit = o->output_cap ? o->output_cap : DEFAULT_CAP;
	double grace = o->grace > 0 ? o->grace : 2.0;
	struct capture cap = {BUF_INIT, NULL, 0, 0, 0, 0, 0};
	int fds[2];

	memset(r, 0, sizeof(*r));
	buf_init(&r->out);
	if (pipe2(fds, O_CLOEXEC) < 0)
		return cerr_set(e, "cannot create a pipe: %s", strerror(errno));
	/* Orphans of the command's descendants come to us, not to init. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	pid_t self = getpid();
	char token[64];
	pthread_mutex_lock(&guards_lock);
	snprintf(token, sizeof(token), "%ld.%lu", (long)self, ++run_counter);
	pthread_mutex_unlock(&guards_lock);
	char *token_env = xasprintf(RUN_TOKEN "=%s", token);
	const char *none[] = {NULL};
	const char *const *extra = o->env ? o->env : none;
	size_t nextra = 0;
	while (extra[nextra])
		nextra++;
	const char **with_token = xcalloc(nextra + 2, sizeof(*with_token));
	memcpy(with_token, extra, nextra * sizeof(*extra));
	with_token[nextra] = token_env;
	char **env = make_env(with_token);
	double t0 = now_seconds();
	/* Registered before another thread can look for inherited children. */
	pthread_mutex_lock(&guards_lock);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		child(o, fds[1], env, self);
	}
	int fork_errno = errno;
	if (pid > 0)
		guard_add(pid);
	pthread_mutex_unlock(&guards_lock);
	free(env);
	free(with_token);
	free(token_env);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return cerr_set(e, "cannot fork: %s", strerror(fork_errno));
	}
	setpgid(pid, pid);   /* also here, so no kill below can precede the child's own call */
	fcntl(fds[0], F_SETFL, O_NONBLOCK);

	cap.half = limit / 2;
	cap.ring_cap = limit - cap.half;
	cap.ring = xmalloc(cap.ring_cap);
	int status = 0, exited = 0, pipe_open = 1, stage = 0;
	double kill_at = 0, drain_until = 0;
	enum run_status why = RUN_EXITED;

	while (!exited || pipe_open) {
		if (pipe_open) {
			struct pollfd p = {fds[0], POLLIN, 0};
			if (poll(&p, 1, TICK_MS) > 0 && !read_some(fds[0], &cap, o))
				pipe_open = 0;
		} else {
			poll(NULL, 0, WAIT_TICK_MS);
		}
		double now = now_seconds();
		if (!exited && has_exited(pid)) {
			/* Nothing of the group may outlive the command: a backgrounded
			 * child would hold the pipe open forever. */
			kill(-pid, SIGKILL);
			if (waitpid(pid, &status, 0) < 0)
				status = 127 << 8;   /* reaped by someone else: status lost */
			guard_remove(pid);
			/* Nor anything that left the group (setsid) and was handed to us. */
			kill_inherited(token);
			exited = 1;
			drain_until = now + DRAIN_SECONDS;
		}
		if (exited) {
			if (pipe_open && now > drain_until)
				pipe_open = 0;   /* a member escaped the group (setsid) */
			continue;
		}
		if (stage == 0) {
			if (o->timeout > 0 && now - t0 >= o->timeout)
				why = RUN_TIMEOUT;
			else if (o->cancel && *o->cancel)
				why = RUN_CANCELLED;
			if (why != RUN_EXITED) {
				kill(-pid, SIGTERM);
				kill_at = now + grace;
				stage = 1;
			}
		} else if (stage == 1 && now >= kill_at) {
			kill(-pid, SIGKILL);
			stage = 2;
		}
	}
	close(fds[0]);
	kill_inherited(token);   /* what escaped while we drained */
	r->seconds = now_seconds() - t0;
	capture_finish(&cap, r);
	if (why != RUN_EXITED) {
		r->status = why;
		r->code = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		r->status = RUN_SIGNALED;
		r->code = WTERMSIG(status);
	} else {
		r->status = RUN_EXITED;
		r->code = WEXITSTATUS(status);
	}
	return 0;
}

void run_result_release(struct run_result *r)
{
	buf_release(&r->out);
}

char *run_describe(const struct run_result *r, double timeout)
{
	switch (r->status) {
	case RUN_EXITED:
		return xasprintf("exit %d", r->code);
	case RUN_SIGNALED: {
		const char *name = sigabbrev_np(r->code);
		return name ? xasprintf("signal %d (SIG%s)", r->code, name) : xasprintf("signal %d", r->code);
	}
	case RUN_TIMEOUT:
		return xasprintf("timeout after %gs", timeout);
	case RUN_CANCELLED:
		return xstrdup("cancelled");
	}
	return xstrdup("?");
}
