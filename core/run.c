#include "core/run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_CAP (256 * 1024)

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
	for (size_t i = 0; i < n; i++) {
		c->ring[c->ring_pos] = p[i];
		c->ring_pos = (c->ring_pos + 1) % c->ring_cap;
		if (c->ring_len < c->ring_cap)
			c->ring_len++;
	}
}

static void capture_finish(struct capture *c, struct run_result *r)
{
	buf_init(&r->out);
	buf_add(&r->out, c->head.s ? c->head.s : "", c->head.len);
	size_t omitted = c->total - c->head.len - c->ring_len;
	if (omitted)
		buf_addf(&r->out, "\n[... %zu bytes omitted ...]\n", omitted);
	size_t start = (c->ring_pos + c->ring_cap - c->ring_len) % c->ring_cap;
	for (size_t i = 0; i < c->ring_len; i++)
		buf_addc(&r->out, c->ring[(start + i) % c->ring_cap]);
	r->total = c->total;
	r->truncated = omitted > 0;
	buf_release(&c->head);
	free(c->ring);
}

static void child(const struct run_opts *o, int out)
{
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL);
	setpgid(0, 0);
	int in = open("/dev/null", O_RDONLY);
	if (in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
		_exit(127);
	struct rlimit rl;
	int maxfd = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 65536 ? (int)rl.rlim_cur : 65536;
	for (int fd = 3; fd < maxfd; fd++)
		close(fd);
	if (o->cwd && chdir(o->cwd) < 0) {
		dprintf(2, "culprit: cannot enter %s: %s\n", o->cwd, strerror(errno));
		_exit(127);
	}
	for (const char *const *e = o->env; e && *e; e++)
		putenv((char *)*e);
	execl("/bin/sh", "sh", "-c", o->cmd, (char *)NULL);
	_exit(127);
}

static void kill_group(pid_t pgid, int sig)
{
	kill(-pgid, sig);
}

int run_command(const struct run_opts *o, struct run_result *r, struct cerr *e)
{
	int fds[2];
	struct capture cap = {BUF_INIT, NULL, 0, 0, 0, 0, 0};
	size_t limit = o->output_cap ? o->output_cap : DEFAULT_CAP;
	double grace = o->grace > 0 ? o->grace : 2.0;

	memset(r, 0, sizeof(*r));
	cap.half = limit / 2;
	cap.ring_cap = limit - cap.half + 1;
	cap.ring = xmalloc(cap.ring_cap);
	if (pipe2(fds, O_CLOEXEC) < 0) {
		free(cap.ring);
		return cerr_set(e, "cannot create a pipe: %s", strerror(errno));
	}
	double t0 = now_seconds();
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		free(cap.ring);
		return cerr_set(e, "cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(fds[0]);
		child(o, fds[1]);
	}
	setpgid(pid, pid);   /* also here: no race with the child's own call */
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);

	int status = 0, exited = 0, pipe_open = 1, killed = 0;
	double kill_at = 0, drain_until = 0;
	enum run_status why = RUN_EXITED;
	char chunk[65536];

	while (!exited || pipe_open) {
		struct pollfd p = {fds[0], POLLIN, 0};
		int n = pipe_open ? poll(&p, 1, 50) : (usleep(20000), 0);
		if (n > 0) {
			for (;;) {
				ssize_t got = read(fds[0], chunk, sizeof(chunk));
				if (got > 0) {
					capture_add(&cap, chunk, (size_t)got);
					if (o->on_output)
						o->on_output(o->priv, chunk, (size_t)got);
					continue;
				}
				if (got == 0)
					pipe_open = 0;
				break;
			}
		}
		if (!exited) {
			pid_t w = waitpid(pid, &status, WNOHANG);
			if (w == pid) {
				exited = 1;
				/* Nothing of the group may outlive the command (a backgrounded
				 * child would hold the pipe open forever). */
				kill_group(pid, SIGKILL);
				drain_until = now_seconds() + 1.0;
			}
		}
		double now = now_seconds();
		if (exited && pipe_open && now > drain_until)
			pipe_open = 0;
		if (exited)
			continue;
		if (!killed && o->timeout > 0 && now - t0 > o->timeout) {
			why = RUN_TIMEOUT;
			killed = 1;
		} else if (!killed && o->cancel && *o->cancel) {
			why = RUN_CANCELLED;
			killed = 1;
		}
		if (killed == 1) {
			kill_group(pid, SIGTERM);
			kill_at = now + grace;
			killed = 2;
		} else if (killed == 2 && now > kill_at) {
			kill_group(pid, SIGKILL);
			killed = 3;
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
	case RUN_SIGNALED:
		return xasprintf("signal %d (SIG%s)", r->code, sigabbrev_np(r->code) ? sigabbrev_np(r->code) : "?");
	case RUN_TIMEOUT:
		return xasprintf("timeout after %gs", timeout);
	case RUN_CANCELLED:
		return xstrdup("cancelled");
	}
	return xstrdup("?");
}
