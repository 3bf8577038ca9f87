/* run — child processes: `/bin/sh -c CMD` in a directory, in its own process
 * group, stdin from /dev/null, stdout and stderr captured together up to a
 * cap, a wall-clock timeout (TERM to the whole group, then KILL), and a
 * cancel flag, an optional address-space limit. No zombies and no stray
 * group members are left behind: culprit is the subreaper of the commands'
 * descendants, and those that escaped the group (setsid) are killed when
 * their command ends. */
#ifndef CULPRIT_RUN_H
#define CULPRIT_RUN_H

#include <stddef.h>
#include "core/util.h"

enum run_status {
	RUN_EXITED,     /* code = exit status */
	RUN_SIGNALED,   /* code = signal number */
	RUN_TIMEOUT,    /* killed after the timeout */
	RUN_CANCELLED,  /* killed because *cancel became non-zero */
};

struct run_opts {
	const char *cmd;               /* given to /bin/sh -c */
	const char *cwd;
	double timeout;                /* seconds; <= 0: none */
	double grace;                  /* seconds between TERM and KILL (default 2 when 0) */
	size_t output_cap;             /* bytes kept (default 256 KiB when 0): the first half and the last half */
	const volatile int *cancel;    /* polled; may be NULL */
	const char *const *env;        /* extra NAME=VALUE strings, NULL-terminated; may be NULL */
	/* Called with each chunk of output as it arrives (for a live tail); may be NULL. */
	void (*on_output)(void *priv, const char *data, size_t len);
	void *priv;
};

struct run_result {
	enum run_status status;
	int code;
	double seconds;
	struct buf out;                /* captured output (possibly with an omission marker) */
	size_t total;                  /* bytes the command wrote in all */
	int truncated;
};

/* Run o->cmd to completion. Returns 0 when the command ran (whatever its
 * status), <0 when it could not be started. r must be released. */
int run_command(const struct run_opts *o, struct run_result *r, struct cerr *e);
void run_result_release(struct run_result *r);

/* Limit every command's address space to mb MiB (0: no limit, the default). */
void run_set_memory_limit(size_t mb);

/* "exit 3", "signal 11 (SIGSEGV)", "timeout after 10s", "cancelled". Caller frees. */
char *run_describe(const struct run_result *r, double timeout);

#endif
