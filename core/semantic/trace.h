/* trace — the dynamic side: the binary trace an instrumented program
 * writes (24-byte events in chunks headed by the writer's process id), read
 * into memory and indexed in one pass:
 *   - def-use: each read is linked to the write that gave its value (same
 *     address, size and value; otherwise the value is an input);
 *   - calls: parameters to the call that bound them, call results to the
 *     callee's return;
 *   - evaluation context: each owner event (write, branch, return, call
 *     entry, output, signal) lists the reads, writes and call results of
 *     the expression it completes;
 *   - dynamic control dependence: the branch instance each event ran under;
 * and sliced backwards over those links. */
#ifndef CULPRIT_TRACE_H
#define CULPRIT_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include "core/util.h"
#include "core/semantic/tmeta.h"

enum tev_kind {
	TE_PID = 1, TE_STMT, TE_READ, TE_WRITE, TE_BRANCH, TE_ENTER, TE_PARAM,
	TE_RET, TE_RET0, TE_CALL, TE_CRET, TE_OUT, TE_SIG, TE_BYTES, TE_FAULT, TE_CUT,
	TE_IN, TE_ARG, TE_CWD
};

/* Input events (TE_IN): aux says what was read, id where. An argument id
 * from TRACE_ENV on is the value of the (id - TRACE_ENV)-th environment
 * variable the program read with getenv (its "NAME=value" in an ARG record
 * of that id). */
enum tin_kind {
	TIN_ARGBYTE = 1,    /* a byte of argument id >> 16 at offset id & 0xffff (addr: where) */
	TIN_ARGINT,         /* atoi/atol/strtol/strtod/sscanf("%d") of argument id: the result (addr: where sscanf put it) */
	TIN_STDBYTE,        /* standard input byte at offset id (addr 0: getchar's result, -1 at EOF) */
	TIN_STDINT,         /* scanf's %d item id (addr: where it went; id ~0: an item not modelled) */
};

struct tev {
	uint8_t kind, size;
	uint16_t aux;
	uint32_t id;
	uint64_t addr, val;
};

#define TRACE_NONE UINT32_MAX
#define TRACE_ENV 0x100     /* the runtime's __CU_ENV */

struct trace {
	struct tev *ev;
	size_t n;
	const struct tmeta *m;
	uint32_t *src;      /* see above; TRACE_NONE */
	uint32_t *ctl;      /* governing branch event */
	uint32_t *dep_off;  /* n + 2 offsets into deps: owner n is the context at the end */
	uint32_t *deps;
	size_t ndeps;
	long pid;           /* the process read (the last one that wrote, unless one was asked for) */
	size_t nprocs;      /* how many processes wrote into the file */
	/* Standard output as written: the bytes and, per byte, its OUT event. */
	struct buf out;
	uint32_t *out_ev;
	int sig;            /* the fatal signal, 0 none */
	uint32_t sig_ev;    /* its event */
	uint32_t last_stmt; /* the last statement event */
	int cut;            /* the program wrote more than the cap: the end is missing */
	/* The program's arguments (NUL-separated) and working directory, when main was traced. */
	struct buf args;
	size_t nargs;
	char *cwd;
	/* The environment variables read, set in the run: "NAME=value", NUL-separated. */
	struct buf env;
	size_t nenv;
};

/* Load and index the trace at path against m (kept by pointer). A trace
 * with no events is an error. */
int trace_load(struct trace *t, const char *path, const struct tmeta *m, struct cerr *e);
/* The same from bytes in memory. */
int trace_parse(struct trace *t, const void *data, size_t len, const struct tmeta *m, struct cerr *e);
/* The proc-th process to write into the file (in the order of their first
 * chunk; < 0: the last one). */
int trace_load_proc(struct trace *t, const char *path, const struct tmeta *m, long proc, struct cerr *e);
int trace_parse_proc(struct trace *t, const void *data, size_t len, const struct tmeta *m, long proc, struct cerr *e);
void trace_release(struct trace *t);

/* The evaluation context of owner event i (i = n: where the trace ends). */
static inline size_t trace_deps(const struct trace *t, size_t i, const uint32_t **out)
{
	*out = t->deps ? t->deps + t->dep_off[i] : t->deps;   /* no deps at all: NULL, not NULL + 0 */
	return t->dep_off[i + 1] - t->dep_off[i];
}

/* The event of the context of owner i of the given kind and site id, or TRACE_NONE. */
uint32_t trace_dep_find(const struct trace *t, size_t owner, int kind, unsigned id);

/* The statement site of event i (via its site), or NULL. */
const struct msite *trace_stmt_of(const struct trace *t, size_t i);

/* Backward dynamic slice (data and control dependence) from the seeds:
 * marks in (n bits) and returns how many events it holds. */
size_t trace_slice(const struct trace *t, const uint32_t *seeds, size_t nseeds, struct bits *in);

/* Forward taint from the inputs (TE_IN): marks in (n bits) the events whose
 * values depend on them, through def-use, calls and evaluation contexts;
 * returns how many. */
size_t trace_taint(const struct trace *t, struct bits *in);

/* Whether the arm branch event b did not take could assign the variable
 * name (from the static sets of names each arm assigns). */
int trace_other_arm_assigns(const struct trace *t, uint32_t b, const char *name);

/* The observed value of event i as a signed or unsigned number of its size. */
long long trace_value(const struct tev *ev, int is_signed);
/* The value of a write, parameter or return event as every pane and report
 * shows it, into b: a pointer as its address or NULL, a bool as true or
 * false, the rest by tmeta_show_value (a char as '4', an enum by name, a
 * float as a number) with the type of the site (the function's for a
 * return). */
void trace_show_value(const struct trace *t, const struct tev *ev, struct buf *b);

#endif
