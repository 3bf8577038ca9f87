/* The workbench's speed, headless: the real binary on a pseudo-terminal,
 * on a repository whose bad revision has 1,000 changes. Time from start to
 * the first full screen (target < 150 ms) and from a key press to the
 * redrawn screen (target: median < 5 ms). Prints figures; never fails on time. */
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"

static char dir[256];

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Read what the screen gets until it has been quiet for quiet seconds or
 * deadline passes; returns the time of the first byte (or -1). */
static double drain(int fd, struct buf *seen, double quiet, double deadline)
{
	double first = -1, last = now_seconds();
	char chunk[65536];
	for (;;) {
		double now = now_seconds();
		if (now > deadline || (first >= 0 && now - last > quiet))
			return first;
		struct pollfd p = {fd, POLLIN, 0};
		if (poll(&p, 1, 2) > 0) {
			ssize_t n = read(fd, chunk, sizeof(chunk));
			if (n <= 0)
				return first;
			if (first < 0)
				first = now_seconds();
			last = now_seconds();
			if (seen)
				buf_add(seen, chunk, (size_t)n);
		}
	}
}

int main(int argc, char **argv)
{
	const char *culprit = argc > 1 ? argv[1] : "build/culprit";
	char abs[1024];
	if (!realpath(culprit, abs)) {
		perror(culprit);
		return 1;
	}
	snprintf(dir, sizeof(dir), "%s/culprit-ui.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	struct buf cmd = BUF_INIT;
	buf_addf(&cmd, "cd '%s' && export GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@e GIT_COMMITTER_NAME=b "
		       "GIT_COMMITTER_EMAIL=b@e GIT_CONFIG_NOSYSTEM=1 HOME='%s' && git init -q -b main . && "
		       "for f in $(seq 0 99); do seq 1 60 | sed 's/^/value /' > f$f.txt; done && "
		       "printf '#!/bin/sh\\nexit 0\\n' > t.sh && chmod +x t.sh && git add -A && git commit -qm good && "
		       "git tag good && for f in $(seq 0 99); do sed -i '3s/$/ x/; 9s/$/ x/; 15s/$/ x/; 21s/$/ x/; "
		       "27s/$/ x/; 33s/$/ x/; 39s/$/ x/; 45s/$/ x/; 51s/$/ x/; 57s/$/ x/' f$f.txt; done && "
		       "git commit -qam bad && git tag bad", dir, dir);
	if (system(cmd.s) != 0) {
		printf("setup failed\n");
		return 1;
	}
	buf_release(&cmd);

	int fd;
	struct winsize ws = {40, 120, 0, 0};
	double t0 = now_seconds();
	pid_t pid = forkpty(&fd, NULL, NULL, &ws);
	if (pid == 0) {
		if (chdir(dir) < 0)
			_exit(127);
		setenv("TERM", "xterm", 1);
		setenv("LC_ALL", "C.UTF-8", 1);
		execl(abs, "culprit", "--good", "good", "--bad", "bad", "--build", "true", "--", "./t.sh", (char *)NULL);
		_exit(127);
	}
	struct buf seen = BUF_INIT;
	double first_screen = -1;
	while (now_seconds() - t0 < 10) {
		drain(fd, &seen, 0.005, now_seconds() + 0.05);
		if (seen.s && strstr(seen.s, "? help")) {
			first_screen = now_seconds() - t0;
			break;
		}
	}
	drain(fd, NULL, 0.05, now_seconds() + 1);   /* let it settle */
	enum { PRESSES = 60 };
	double lat[PRESSES];
	const char keys[] = "jjjjjjjjjjkkkkkkkkkk\t\t\t\tjjjjjjjjjjGgg\t\t\t\tzzLL1jjjjjjkkkkkk";
	int n = 0;
	for (size_t i = 0; i < sizeof(keys) - 1 && n < PRESSES; i++) {
		double t = now_seconds();
		if (write(fd, &keys[i], 1) != 1)
			break;
		double f = drain(fd, NULL, 0.01, t + 1);
		if (f >= 0)
			lat[n++] = (f - t) * 1000;
	}
	if (write(fd, "q", 1) != 1)
		kill(pid, SIGTERM);
	drain(fd, NULL, 0.05, now_seconds() + 2);
	int status;
	waitpid(pid, &status, 0);
	qsort(lat, (size_t)n, sizeof(*lat), cmp_double);
	printf("session with 1000 changes: first full screen after %.0f ms (target < 150 ms)\n",
	       first_screen * 1000);
	if (n)
		printf("redraw after a key press: median %.2f ms, 90th percentile %.2f ms, max %.2f ms over %d keys"
		       " (target: median < 5 ms)\n", lat[n / 2], lat[n * 9 / 10], lat[n - 1], n);
	buf_release(&seen);
	remove_tree(dir, NULL);
	return 0;
}
