#include "core/isolate/run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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
	char **env = o->env ? make_env(o->env) : environ;
	double t0 = now_seconds();
	pid_t self = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		child(o, fds[1], env, self);
	}
	int fork_errno = errno;
	if (env != environ)
		free(env);
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
