/* culprit's trace runtime, included at the top of every instrumented file.
 * It writes nothing unless CULPRIT_TRACE names a file. Events are 24-byte
 * records (see core/semantic/trace.h) gathered in a buffer that is written with one
 * write(2) per chunk, each chunk headed by the process id; the buffer is
 * flushed when full, before every output call, at exit and on a fatal
 * signal, so a crashing program leaves its trace whole. All state is in weak
 * symbols: every object file of the program shares one copy. */
#ifndef CULPRIT_TRACE_RT_H
#define CULPRIT_TRACE_RT_H
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wlong-long"
#pragma GCC diagnostic ignored "-Wdeclaration-after-statement"
#pragma GCC diagnostic ignored "-Wc++-compat"
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wunused-value"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wmissing-declarations"
#pragma GCC diagnostic ignored "-Wgnu-statement-expression"
#pragma GCC diagnostic ignored "-Wgnu-auto-type"
/* Warnings the instrumented text may add to what the project's code gives
 * (a value passed through a temporary, larger frames), which a -Werror
 * build would otherwise turn into a restored, untraced file. */
#pragma GCC diagnostic ignored "-Wunknown-warning-option"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wfloat-conversion"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wcast-align"
#pragma GCC diagnostic ignored "-Wbad-function-cast"
#pragma GCC diagnostic ignored "-Wnull-dereference"
#pragma GCC diagnostic ignored "-Wstrict-overflow"
#pragma GCC diagnostic ignored "-Wjump-misses-init"
#pragma GCC diagnostic ignored "-Wframe-larger-than="
#pragma GCC diagnostic ignored "-Wstack-usage="
#pragma GCC diagnostic ignored "-Wlarger-than="
#pragma GCC diagnostic ignored "-Wstack-protector"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wtype-limits"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"   /* the runtime's own scanf of one conversion */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
/* Not <string.h>: in GNU modes it brings <strings.h>'s index and rindex,
 * which a file that never includes it may use as its own names. */
extern void *memcpy(void *, const void *, size_t);
extern void *memmove(void *, const void *, size_t);
extern void *memset(void *, int, size_t);
extern int memcmp(const void *, const void *, size_t);
extern size_t strlen(const char *);
extern char *strcpy(char *, const char *);
extern char *strncpy(char *, const char *, size_t);
extern char *strcat(char *, const char *);
extern char *strncat(char *, const char *, size_t);
extern int strcmp(const char *, const char *);
extern int strncmp(const char *, const char *, size_t);
extern char *strchr(const char *, int);
#include <unistd.h>
#include <fcntl.h>
#include <signal.h>

/* Not declared by <stdio.h> in strict C89 modes. */
extern int vsnprintf(char *, size_t, const char *, va_list);
extern int vscanf(const char *, va_list);
extern int vsscanf(const char *, const char *, va_list);
extern long long atoll(const char *);
extern long long strtoll(const char *, char **, int);
extern unsigned long long strtoull(const char *, char **, int);

struct __cu_ev {
	unsigned char kind, size;
	unsigned short aux;
	unsigned int id;
	unsigned long long addr, val;
};

enum {
	__CU_PID = 1, __CU_STMT, __CU_READ, __CU_WRITE, __CU_BRANCH, __CU_ENTER, __CU_PARAM,
	__CU_RET, __CU_RET0, __CU_CALL, __CU_CRET, __CU_OUT, __CU_SIG, __CU_BYTES, __CU_FAULT, __CU_CUT,
	__CU_IN, __CU_ARG, __CU_CWD
};
/* What an input event (__CU_IN, aux) holds: id is the argument's index
 * (bytes: index << 16 | offset; an environment variable's value is an
 * argument from __CU_ENV on), the stdin offset, or the scanf item. */
enum { __CU_IN_ARGBYTE = 1, __CU_IN_ARGINT, __CU_IN_STDBYTE, __CU_IN_STDINT };

#define __CU_CAP 2730
__attribute__((weak)) int __cu_fd = -2;
__attribute__((weak)) unsigned __cu_n;
__attribute__((weak)) struct __cu_ev __cu_buf[__CU_CAP + 1];
__attribute__((weak)) unsigned long long __cu_pending_addr;
__attribute__((weak)) unsigned __cu_pending_id;
__attribute__((weak)) unsigned long long __cu_written, __cu_max = 128ull << 20;
/* Forced branches (CULPRIT_FORCE="site:instance:outcome,..."): the
 * instance-th run of a branch site takes the given outcome. */
#define __CU_NFORCE 16
__attribute__((weak)) unsigned __cu_nforce;
__attribute__((weak)) unsigned long __cu_force[__CU_NFORCE][4];   /* site, instance, outcome, seen */
/* The program's arguments (from main) and how much of stdin it read. */
__attribute__((weak)) char **__cu_argv;
__attribute__((weak)) int __cu_argc;
__attribute__((weak)) char __cu_altstack[1 << 16];   /* the fatal-signal handler's own stack */
__attribute__((weak)) unsigned long __cu_stdin_off, __cu_scanf_items;

/* Write events [from, from + n) of buf as one chunk headed by the process id. */
__attribute__((weak)) void __cu_chunk(struct __cu_ev *head, unsigned n)
{
	const char *p = (const char *)head;
	size_t left = (size_t)(n + 1) * sizeof(struct __cu_ev);
	memset(head, 0, sizeof(*head));
	head->kind = __CU_PID;
	head->val = (unsigned long long)getpid();
	head->addr = n;
	while (left) {
		ssize_t w = write(__cu_fd, p, left);
		if (w <= 0)
			break;
		p += w;
		left -= (size_t)w;
	}
}

/* The cap (CULPRIT_TRACE_MAX bytes, default 128 MiB): the first half is
 * written as it comes; past it, the newest events are kept in a ring of the
 * other half's size, written after a CUT event when the process ends (exit
 * or a fatal signal: a hang is ended by SIGTERM), so the trace keeps the
 * part nearest the failure. A ring slot starting an event (not the raw
 * bytes after an output) is flagged, so the oldest kept event is whole. */
__attribute__((weak)) struct __cu_ev *__cu_ring;
__attribute__((weak)) unsigned char *__cu_rflag;
__attribute__((weak)) size_t __cu_rcap, __cu_rhead, __cu_rcount, __cu_rraw;
__attribute__((weak)) volatile int __cu_tail;   /* 1: in the ring; 2: the ring is written */
/* Set while a fatal signal is handled: the handler never allocates (the
 * signal may have stopped malloc holding its lock), and a second signal
 * arriving meanwhile just ends the process. */
__attribute__((weak)) volatile int __cu_in_signal;

__attribute__((weak)) void __cu_ring_push(const struct __cu_ev *v, unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++) {
		int start = __cu_rraw == 0;
		if (start) {
			unsigned k = v[i].kind;
			if (k == __CU_OUT || k == __CU_ARG || k == __CU_CWD)
				__cu_rraw = (size_t)((v[i].addr + sizeof(struct __cu_ev) - 1) / sizeof(struct __cu_ev));
		} else {
			__cu_rraw--;
		}
		__cu_ring[__cu_rhead] = v[i];
		__cu_rflag[__cu_rhead] = (unsigned char)start;
		__cu_rhead = (__cu_rhead + 1) % __cu_rcap;
		if (__cu_rcount < __cu_rcap)
			__cu_rcount++;
	}
}

__attribute__((weak)) void __cu_ring_write(void)
{
	size_t at;
	if (__cu_tail != 1 || __cu_fd < 0)
		return;
	if (__cu_n) {   /* what the buffer still holds is the newest */
		__cu_ring_push(&__cu_buf[1], __cu_n);
		__cu_n = 0;
	}
	at = (__cu_rhead + __cu_rcap - __cu_rcount) % __cu_rcap;
	__cu_tail = 2;
	while (__cu_rcount && !__cu_rflag[at]) {   /* the oldest slots: raw bytes of an event dropped */
		at = (at + 1) % __cu_rcap;
		__cu_rcount--;
	}
	memset(&__cu_buf[1], 0, sizeof(__cu_buf[1]));
	__cu_buf[1].kind = __CU_CUT;
	__cu_chunk(&__cu_buf[0], 1);
	while (__cu_rcount) {
		unsigned n = 0;
		while (n < __CU_CAP - 1 && __cu_rcount) {
			__cu_buf[1 + n++] = __cu_ring[at];
			at = (at + 1) % __cu_rcap;
			__cu_rcount--;
		}
		__cu_chunk(&__cu_buf[0], n);
	}
}

/* The slot after event i of the buffer and its raw bytes, if any. */
__attribute__((weak)) unsigned __cu_next_ev(unsigned i)
{
	unsigned k = __cu_buf[i].kind;
	if (k == __CU_OUT || k == __CU_ARG || k == __CU_CWD)
		return i + 1 + (unsigned)((__cu_buf[i].addr + sizeof(struct __cu_ev) - 1) / sizeof(struct __cu_ev));
	return i + 1;
}

/* The cap reached in a signal handler, where no ring can be allocated: the
 * buffer holds the newest events there are, so write, as the ring would
 * have, the CUT and the newest of them that fit in the ring's half. */
__attribute__((weak)) void __cu_cut_in_place(void)
{
	const unsigned long long keep = __cu_max / 2 / sizeof(struct __cu_ev);
	unsigned from = 1;
	struct __cu_ev cut[2];
	memset(cut, 0, sizeof(cut));
	cut[1].kind = __CU_CUT;
	__cu_chunk(&cut[0], 1);
	while (from <= __cu_n && __cu_n + 1 - from > keep)
		from = __cu_next_ev(from);
	if (from <= __cu_n)
		__cu_chunk(&__cu_buf[from - 1], __cu_n + 1 - from);
	__cu_tail = 2;
	__cu_n = 0;
}

__attribute__((weak)) void __cu_flush(void)
{
	if (__cu_fd < 0 || __cu_n == 0 || __cu_tail == 2)
		return;
	if (!__cu_tail && __cu_written + (__cu_n + 1) * sizeof(struct __cu_ev) > __cu_max / 2) {
		if (__cu_in_signal) {
			__cu_cut_in_place();
			return;
		}
		__cu_rcap = (size_t)(__cu_max / 2 / sizeof(struct __cu_ev));
		__cu_ring = __cu_rcap ? (struct __cu_ev *)malloc(__cu_rcap * sizeof(struct __cu_ev)) : NULL;
		__cu_rflag = __cu_rcap ? (unsigned char *)malloc(__cu_rcap) : NULL;
		if (!__cu_ring || !__cu_rflag) {   /* no ring: say the trace is cut, and stop */
			memset(&__cu_buf[1], 0, sizeof(__cu_buf[1]));
			__cu_buf[1].kind = __CU_CUT;
			__cu_chunk(&__cu_buf[0], 1);
			close(__cu_fd);
			__cu_fd = -1;
			__cu_n = 0;
			return;
		}
		__asm__ __volatile__("" ::: "memory");   /* the ring is set before the handler may see it used */
		__cu_tail = 1;
		atexit(__cu_ring_write);   /* after the last flush (atexit runs in reverse) */
	}
	if (__cu_tail) {
		__cu_ring_push(&__cu_buf[1], __cu_n);
		__cu_n = 0;
		return;
	}
	__cu_written += (__cu_n + 1) * sizeof(struct __cu_ev);
	__cu_chunk(&__cu_buf[0], __cu_n);
	__cu_n = 0;
}

/* A hang is ended by SIGTERM, often twice (timeout signals the program,
 * then its group), and the handler may be long at writing the ring: the
 * termination signals are ignored from its first instruction. Where the
 * handler is set by signal(), delivery resets it (SysV), and a second
 * signal would otherwise end the program halfway through its trace. */
__attribute__((weak)) void __cu_on_signal(int sig)
{
	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	if (__cu_fd >= 0 && !__cu_in_signal) {
		struct __cu_ev *e;
		__cu_in_signal = 1;
		e = &__cu_buf[++__cu_n];   /* at most the spare last slot: the buffer is flushed below */
		memset(e, 0, sizeof(*e));
		e->kind = __CU_SIG;
		e->id = __cu_pending_id;
		e->addr = __cu_pending_addr;
		e->val = (unsigned long long)sig;
		__cu_flush();
		__cu_ring_write();
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Strict C modes make glibc's signal() SysV's (reset on delivery, the
 * signal not blocked in the handler: timeout's second SIGTERM, a moment
 * after the first, would end the program before the handler's first
 * instruction). The symbol itself has BSD's semantics: bound by name. */
#if defined(__GLIBC__) && !defined(SA_ONSTACK)
extern void (*__cu_bsd_signal(int, void (*)(int)))(int) __asm__("signal");
#define __CU_SIGNAL __cu_bsd_signal
#else
#define __CU_SIGNAL signal
#endif

__attribute__((weak)) void __cu_open(void)
{
	const char *path = getenv("CULPRIT_TRACE"), *max = getenv("CULPRIT_TRACE_MAX");
	static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT};
	size_t i;
	__cu_fd = -1;
	if (!path || !*path)
		return;
	__cu_fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (__cu_fd < 0)
		return;
	fcntl(__cu_fd, F_SETFD, FD_CLOEXEC);
	if (max && *max)
		__cu_max = strtoull(max, NULL, 10);
	{
		const char *f = getenv("CULPRIT_FORCE");
		unsigned long a, b, c;
		int used;
		while (f && __cu_nforce < __CU_NFORCE && sscanf(f, "%lu:%lu:%lu%n", &a, &b, &c, &used) == 3) {
			__cu_force[__cu_nforce][0] = a;
			__cu_force[__cu_nforce][1] = b;
			__cu_force[__cu_nforce][2] = c;
			__cu_force[__cu_nforce++][3] = 0;
			f += used;
			if (*f != ',')
				break;
			f++;
		}
	}
	atexit(__cu_flush);
#ifdef SA_ONSTACK
	{
		/* The handler runs on a stack of its own: a crash by stack overflow
		 * (a recursion that never ends) leaves none to run it on, and the
		 * trace would be lost with the process. Strict C89 modes declare
		 * neither sigaction nor sigaltstack: there, signal() as before. */
		stack_t ss;
		struct sigaction sa;
		memset(&ss, 0, sizeof(ss));
		ss.ss_sp = __cu_altstack;
		ss.ss_size = sizeof(__cu_altstack);
		sigaltstack(&ss, NULL);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = __cu_on_signal;
		sa.sa_flags = SA_ONSTACK;
		sigemptyset(&sa.sa_mask);
		for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			sigaction(sigs[i], &sa, NULL);
		return;
	}
#endif
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		__CU_SIGNAL(sigs[i], __cu_on_signal);
}

static __inline__ __attribute__((always_inline)) struct __cu_ev *__cu_ev(unsigned kind, unsigned id)
{
	struct __cu_ev *e;
	if (__builtin_expect(__cu_fd == -2, 0))
		__cu_open();
	if (__cu_fd < 0)
		return &__cu_buf[__CU_CAP];  /* a scratch slot: tracing is off */
	if (__cu_n == __CU_CAP - 1)
		__cu_flush();
	e = &__cu_buf[++__cu_n];
	e->kind = (unsigned char)kind;
	e->size = 0;
	e->aux = 0;
	e->id = id;
	e->addr = 0;
	e->val = 0;
	return e;
}

static __inline__ unsigned long long __cu_load(const volatile void *p, unsigned size)
{
	unsigned long long v = 0;
	if (size > sizeof(v))
		size = sizeof(v);
	memcpy(&v, (const void *)p, size);   /* a volatile object read once, as the program reads it */
	return v;
}

static __inline__ void __cu_s(unsigned id) { __cu_ev(__CU_STMT, id); }
static __inline__ void __cu_enter(unsigned id) { __cu_ev(__CU_ENTER, id); }
static __inline__ void __cu_call(unsigned id) { __cu_ev(__CU_CALL, id); }
static __inline__ void __cu_ret0(unsigned id) { __cu_ev(__CU_RET0, id); }
static __inline__ void __cu_cret0(unsigned id) { __cu_ev(__CU_CRET, id); }

static __inline__ void __cu_mem(unsigned kind, unsigned id, const volatile void *p, unsigned size)
{
	unsigned long long v;
	struct __cu_ev *e;
	if (__builtin_expect(__cu_fd == -2, 0))
		__cu_open();
	if (__cu_fd < 0)
		return;   /* not traced: no cost beyond this test */
	__cu_pending_id = id;
	__cu_pending_addr = (unsigned long long)(size_t)p;
	v = __cu_load(p, size);
	e = __cu_ev(kind, id);
	e->addr = (unsigned long long)(size_t)p;
	e->size = (unsigned char)size;
	e->val = v;
	__cu_pending_id = 0;
}

/* A read of *p, a write already done to *p, a parameter's value (p may
 * point to a volatile object). */
static __inline__ void __cu_rd(unsigned id, const volatile void *p, unsigned size) { __cu_mem(__CU_READ, id, p, size); }
static __inline__ void __cu_w(unsigned id, const volatile void *p, unsigned size) { __cu_mem(__CU_WRITE, id, p, size); }
static __inline__ void __cu_p(unsigned id, const volatile void *p, unsigned size) { __cu_mem(__CU_PARAM, id, p, size); }
/* The value *v about to be stored at p (a declaration's initializer). */
static __inline__ void __cu_wv(unsigned id, const volatile void *p, unsigned size, const volatile void *v)
{
	struct __cu_ev *e = __cu_ev(__CU_WRITE, id);
	e->addr = (unsigned long long)(size_t)p;
	e->size = (unsigned char)size;
	e->val = __cu_load(v, size);
}
/* About to write through p (a crash there names the write). */
static __inline__ void __cu_wpre(unsigned id, const volatile void *p)
{
	__cu_pending_id = id;
	__cu_pending_addr = (unsigned long long)(size_t)p;
}
static __inline__ void __cu_ret(unsigned id, const volatile void *v, unsigned size)
{
	struct __cu_ev *e = __cu_ev(__CU_RET, id);
	e->size = (unsigned char)size;
	e->val = __cu_load(v, size);
}
static __inline__ void __cu_cret(unsigned id, const volatile void *v, unsigned size)
{
	struct __cu_ev *e = __cu_ev(__CU_CRET, id);
	e->size = (unsigned char)size;
	e->val = __cu_load(v, size);
}
__attribute__((weak)) int __cu_forced(unsigned id, int v)
{
	unsigned i;
	for (i = 0; i < __cu_nforce; i++)
		if (__cu_force[i][0] == id && __cu_force[i][3]++ == __cu_force[i][1])
			return (int)__cu_force[i][2];
	return v;
}
static __inline__ int __cu_br(unsigned id, int v)
{
	struct __cu_ev *e = __cu_ev(__CU_BRANCH, id);
	if (__builtin_expect(__cu_nforce != 0, 0))
		v = __cu_forced(id, v != 0);
	e->val = (unsigned long long)(v != 0);
	return v;
}
static __inline__ unsigned long long __cu_sw(unsigned id, unsigned long long v)
{
	__cu_ev(__CU_BRANCH, id)->val = v;
	return v;
}

/* ----------------------------------------------------------------- strings */

/* Bytes copied into memory by the string functions are followed as one
 * value each: the string's identity, the address of the literal (or other
 * untracked memory) they first came from. A copy writes the identity of
 * what it read to its destination (a WRITE of 8 bytes at it, after a READ of
 * the source's identity), and a table remembers which bytes it left there
 * (their length and a checksum), so a later read of the same address finds
 * the identity only while those bytes are unchanged. */
#define __CU_NSTR 64
struct __cu_str { const char *at; unsigned long long id, sum; size_t len; };
__attribute__((weak)) struct __cu_str __cu_strs[__CU_NSTR];
__attribute__((weak)) unsigned __cu_nstrs;

static __inline__ unsigned long long __cu_sum(const void *p, size_t n)
{
	const unsigned char *b = (const unsigned char *)p;
	unsigned long long h = 1469598103934665603ull;
	size_t i;
	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

/* The identity of the n bytes at p: the copy that left them there, or p. */
__attribute__((weak)) unsigned long long __cu_ident(const void *p, size_t n)
{
	unsigned i;
	for (i = 0; i < __cu_nstrs && i < __CU_NSTR; i++) {
		const struct __cu_str *s = &__cu_strs[i];
		if (s->at == (const char *)p && (s->len == n || s->len == n + 1 || s->len + 1 == n) && s->sum == __cu_sum(p, s->len))
			return s->id;
	}
	return (unsigned long long)(size_t)p;
}

/* Read the identity of the n bytes at p (site id, 0: an output's), and return it. */
__attribute__((weak)) unsigned long long __cu_sread(unsigned id, const void *p, size_t n)
{
	unsigned long long v;
	struct __cu_ev *e;
	if (__builtin_expect(__cu_fd == -2, 0))
		__cu_open();
	if (__cu_fd < 0 || !p)
		return 0;
	v = __cu_ident(p, n);
	e = __cu_ev(__CU_READ, id);
	e->addr = (unsigned long long)(size_t)p;
	e->size = 8;
	e->val = v;
	return v;
}

/* n bytes at p now hold a string of identity v (write site id). */
__attribute__((weak)) void __cu_swrite(unsigned id, const void *p, size_t n, unsigned long long v)
{
	struct __cu_ev *e;
	unsigned i, slot = __cu_nstrs % __CU_NSTR;
	if (__cu_fd < 0 || !p)
		return;
	for (i = 0; i < __cu_nstrs && i < __CU_NSTR; i++)
		if (__cu_strs[i].at == (const char *)p)
			slot = i;
	if (slot == __cu_nstrs % __CU_NSTR)
		__cu_nstrs++;
	__cu_strs[slot].at = (const char *)p;
	__cu_strs[slot].id = v;
	__cu_strs[slot].len = n;
	__cu_strs[slot].sum = __cu_sum(p, n);
	e = __cu_ev(__CU_WRITE, id);
	e->addr = (unsigned long long)(size_t)p;
	e->size = 8;
	e->val = v;
}

/* The length of the string at s, at most n (s need not end within n). */
static __inline__ size_t __cu_strnlen(const char *s, size_t n)
{
	size_t k = 0;
	while (k < n && s[k])
		k++;
	return k;
}

/* The copies, called with their write site (the source's read is site + 1). */
__attribute__((weak)) char *__cu_strcpy(unsigned id, char *d, const char *s)
{
	size_t n = __cu_fd != -1 ? strlen(s) : 0;
	unsigned long long v = __cu_sread(id + 1, s, n);
	char *r = strcpy(d, s);
	__cu_swrite(id, d, n, v);
	return r;
}
__attribute__((weak)) char *__cu_strncpy(unsigned id, char *d, const char *s, size_t n)
{
	size_t k = __cu_fd != -1 ? __cu_strnlen(s, n) : 0;
	unsigned long long v = __cu_sread(id + 1, s, k);
	char *r = strncpy(d, s, n);
	__cu_swrite(id, d, k, v);
	return r;
}
__attribute__((weak)) void *__cu_memcpy(unsigned id, void *d, const void *s, size_t n)
{
	unsigned long long v = __cu_sread(id + 1, s, n);
	void *r = memcpy(d, s, n);
	__cu_swrite(id, d, n, v);
	return r;
}
__attribute__((weak)) void *__cu_memmove(unsigned id, void *d, const void *s, size_t n)
{
	unsigned long long v = __cu_sread(id + 1, s, n);
	void *r = memmove(d, s, n);
	__cu_swrite(id, d, n, v);
	return r;
}
/* strcat: the result is a new string (its checksum as identity). */
__attribute__((weak)) char *__cu_strcat(unsigned id, char *d, const char *s)
{
	char *r;
	if (__cu_fd != -1)
		__cu_sread(id + 1, s, strlen(s));
	r = strcat(d, s);
	if (__cu_fd >= 0)
		__cu_swrite(id, d, strlen(d), __cu_sum(d, strlen(d)));
	return r;
}
__attribute__((weak)) char *__cu_strncat(unsigned id, char *d, const char *s, size_t n)
{
	char *r;
	if (__cu_fd != -1)
		__cu_sread(id + 1, s, __cu_strnlen(s, n));
	r = strncat(d, s, n);
	if (__cu_fd >= 0)
		__cu_swrite(id, d, strlen(d), __cu_sum(d, strlen(d)));
	return r;
}
/* Comparisons and lengths: the identities they read (result site + 1, + 2). */
__attribute__((weak)) int __cu_strcmp(unsigned id, const char *a, const char *b)
{
	if (__cu_fd != -1) {
		__cu_sread(id + 1, a, strlen(a));
		__cu_sread(id + 2, b, strlen(b));
	}
	return strcmp(a, b);
}
__attribute__((weak)) int __cu_strncmp(unsigned id, const char *a, const char *b, size_t n)
{
	if (__cu_fd != -1) {
		__cu_sread(id + 1, a, __cu_strnlen(a, n));
		__cu_sread(id + 2, b, __cu_strnlen(b, n));
	}
	return strncmp(a, b, n);
}
__attribute__((weak)) int __cu_memcmp(unsigned id, const void *a, const void *b, size_t n)
{
	__cu_sread(id + 1, a, n);
	__cu_sread(id + 2, b, n);
	return memcmp(a, b, n);
}
__attribute__((weak)) size_t __cu_strlen(unsigned id, const char *s)
{
	size_t n = strlen(s);
	__cu_sread(id + 1, s, n);
	return n;
}

/* ------------------------------------------------------------ output calls */

__attribute__((weak)) void __cu_bytes(int fd, const void *data, size_t len)
{
	struct __cu_ev *e = __cu_ev(__CU_OUT, 0);
	size_t keep = len > 4096 ? 4096 : len, off;
	const unsigned char *p = (const unsigned char *)data;
	if (__cu_fd < 0)
		return;
	e->size = (unsigned char)fd;
	e->val = len;
	e->addr = keep;
	for (off = 0; off < keep; off += sizeof(struct __cu_ev)) {
		struct __cu_ev *b = __cu_ev(__CU_BYTES, 0);
		size_t n = keep - off < sizeof(*b) ? keep - off : sizeof(*b);
		memset(b, 0, sizeof(*b));
		memcpy(b, p + off, n);
	}
	__cu_flush();
}

static __inline__ int __cu_fdof(FILE *f)
{
	return f == stdout ? 1 : f == stderr ? 2 : 3;
}

/* The identities of the strings a format prints (%s), read for the
 * failure point; stops at a conversion it does not know. */
__attribute__((weak)) void __cu_fmt_reads(const char *fmt, va_list ap)
{
	const char *p;
	for (p = fmt; p && *p; p++) {
		int longs = 0, wide = 0;
		if (*p != '%')
			continue;
		p++;
		if (*p == '%')
			continue;
		while (*p && strchr("-+ #0'", *p))
			p++;
		if (*p == '*') {
			(void)va_arg(ap, int);
			p++;
		}
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == '.') {
			p++;
			if (*p == '*') {
				(void)va_arg(ap, int);
				p++;
			}
			while (*p >= '0' && *p <= '9')
				p++;
		}
		for (; *p && strchr("hlLqjzt", *p); p++)
			longs += *p == 'l' || *p == 'q' || *p == 'j' || *p == 'z' || *p == 't' ? (*p == 'l' ? 1 : 2) : 0,
			wide |= *p == 'L';
		switch (*p) {
		case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'c':
			if (longs >= 2)
				(void)va_arg(ap, long long);
			else if (longs == 1 && *p != 'c')
				(void)va_arg(ap, long);
			else
				(void)va_arg(ap, int);
			break;
		case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
			if (wide)
				(void)va_arg(ap, long double);
			else
				(void)va_arg(ap, double);
			break;
		case 'p': case 'n':
			(void)va_arg(ap, void *);
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (s && !longs)
				__cu_sread(0, s, strlen(s));
			break;
		}
		default:
			return;
		}
	}
}

__attribute__((weak)) int __cu_vfprintf(FILE *f, const char *fmt, va_list ap)
{
	char small[512], *s = small;
	va_list again, strs;
	int n;
	size_t w;
	if (__cu_fd != -1) {
		__builtin_va_copy(strs, ap);
		__cu_fmt_reads(fmt, strs);
		va_end(strs);
	}
	__builtin_va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n < 0) {
		va_end(again);
		return n;
	}
	if ((size_t)n >= sizeof(small)) {
		s = (char *)malloc((size_t)n + 1);
		if (!s) {
			va_end(again);
			return -1;
		}
		vsnprintf(s, (size_t)n + 1, fmt, again);
	}
	va_end(again);
	__cu_bytes(__cu_fdof(f), s, (size_t)n);
	w = fwrite(s, 1, (size_t)n, f);
	if (s != small)
		free(s);
	return w == (size_t)n ? n : -1;
}
__attribute__((weak)) int __cu_printf(const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = __cu_vfprintf(stdout, fmt, ap);
	va_end(ap);
	return n;
}
__attribute__((weak)) int __cu_fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = __cu_vfprintf(f, fmt, ap);
	va_end(ap);
	return n;
}
__attribute__((weak)) int __cu_puts(const char *s)
{
	size_t n = strlen(s);
	__cu_sread(0, s, n);   /* the string's identity, for the failure point */
	__cu_bytes(1, s, n);
	__cu_bytes(1, "\n", 1);
	return puts(s);
}
__attribute__((weak)) int __cu_fputs(const char *s, FILE *f)
{
	__cu_sread(0, s, strlen(s));
	__cu_bytes(__cu_fdof(f), s, strlen(s));
	return fputs(s, f);
}
__attribute__((weak)) int __cu_putchar(int c)
{
	unsigned char b = (unsigned char)c;
	__cu_bytes(1, &b, 1);
	return putchar(c);
}
__attribute__((weak)) int __cu_fputc(int c, FILE *f)
{
	unsigned char b = (unsigned char)c;
	__cu_bytes(__cu_fdof(f), &b, 1);
	return fputc(c, f);
}
__attribute__((weak)) int __cu_putc(int c, FILE *f) { return __cu_fputc(c, f); }
__attribute__((weak)) size_t __cu_fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	__cu_bytes(__cu_fdof(f), p, size * n);
	return fwrite(p, size, n, f);
}
__attribute__((weak)) ssize_t __cu_write(int fd, const void *p, size_t n)
{
	__cu_bytes(fd, p, n);
	return write(fd, p, n);
}

/* ------------------------------------------------------------- input calls */

/* Bytes after an ARG or CWD event, as raw records. */
__attribute__((weak)) void __cu_raw(unsigned kind, unsigned id, const char *p, size_t n)
{
	struct __cu_ev *e = __cu_ev(kind, id);
	size_t off;
	if (__cu_fd < 0)
		return;
	if (n > 4096)
		n = 4096;
	e->val = n;
	e->addr = n;
	for (off = 0; off < n; off += sizeof(struct __cu_ev)) {
		struct __cu_ev *b = __cu_ev(__CU_BYTES, 0);
		size_t k = n - off < sizeof(*b) ? n - off : sizeof(*b);
		memset(b, 0, sizeof(*b));
		memcpy(b, p + off, k);
	}
}

static __inline__ void __cu_in(unsigned kind, unsigned id, const void *addr, unsigned size, long long v)
{
	struct __cu_ev *e = __cu_ev(__CU_IN, id);
	e->aux = (unsigned short)kind;
	e->size = (unsigned char)size;
	e->addr = (unsigned long long)(size_t)addr;
	e->val = (unsigned long long)v;
}

/* At the start of main: the arguments, each byte an input, and the directory. */
__attribute__((weak)) void __cu_main(int argc, char **argv)
{
	char cwd[4096];
	int k;
	size_t i, n;
	__cu_argc = argc;
	__cu_argv = argv;
	if (__cu_fd == -2)
		__cu_open();
	if (__cu_fd < 0)
		return;
	if (getcwd(cwd, sizeof(cwd)))
		__cu_raw(__CU_CWD, 0, cwd, strlen(cwd));
	if (!argv) {   /* main(void): the words from the kernel, not inputs the program reads */
		int fd = open("/proc/self/cmdline", O_RDONLY);
		ssize_t got = fd >= 0 ? read(fd, cwd, sizeof(cwd) - 1) : -1;
		char *p = cwd;
		if (fd >= 0)
			close(fd);
		for (k = 0; got > 0 && p < cwd + got && k < 256; k++) {
			n = strlen(p);
			__cu_raw(__CU_ARG, (unsigned)k, p, n);
			p += n + 1;
		}
		return;
	}
	for (k = 0; k < argc && k < 256; k++) {
		n = strlen(argv[k]);
		__cu_raw(__CU_ARG, (unsigned)k, argv[k], n);
		for (i = 0; k > 0 && i <= n && i < 4096; i++)
			__cu_in(__CU_IN_ARGBYTE, (unsigned)k << 16 | (unsigned)i, argv[k] + i, 1,
				(unsigned char)argv[k][i]);
	}
}

/* Environment variables the program reads (getenv) are arguments too:
 * the value of the j-th one read has the argument id __CU_ENV + j (argv's
 * ids stay below 256), its "NAME=value" an ARG record of that id, its
 * bytes and the numbers parsed from it input events like an argument's. A
 * variable unset in the run is not an input. */
#define __CU_ENV 0x100
#define __CU_NENV 16
#define __CU_INARG 0x8000   /* a scanf item's place: inside argument where & ~__CU_INARG */
__attribute__((weak)) const char *__cu_env_at[__CU_NENV];
__attribute__((weak)) unsigned __cu_nenv;

static __inline__ int __cu_argof(const char *s)
{
	int k;
	unsigned j;
	for (k = 1; k < __cu_argc && k < 256; k++)
		if (__cu_argv[k] == s)
			return k;
	for (j = 0; j < __cu_nenv; j++)
		if (__cu_env_at[j] == s)
			return (int)(__CU_ENV + j);
	return -1;
}

__attribute__((weak)) char *__cu_getenv(const char *name)
{
	char *v = getenv(name);
	char rec[4096];
	size_t nl, n, i;
	unsigned k;
	if (!v || __cu_argof(v) > 0 || __cu_nenv >= __CU_NENV)
		return v;
	if (__cu_fd == -2)
		__cu_open();
	if (__cu_fd < 0)
		return v;
	nl = strlen(name);
	n = strlen(v);
	if (nl + 1 + n >= sizeof(rec))
		return v;
	k = __CU_ENV + __cu_nenv;
	__cu_env_at[__cu_nenv++] = v;
	memcpy(rec, name, nl);
	rec[nl] = '=';
	memcpy(rec + nl + 1, v, n);
	__cu_raw(__CU_ARG, k, rec, nl + 1 + n);
	for (i = 0; i <= n; i++)
		__cu_in(__CU_IN_ARGBYTE, k << 16 | (unsigned)i, v + i, 1, (unsigned char)v[i]);
	return v;
}
/* Input streams: 0 standard input, k a file named by argument k (opened
 * with fopen). Bytes read are TIN_STDBYTE events with id stream << 24 |
 * offset; scanf's numbers TIN_STDINT events with id stream << 24 | item,
 * each after a range record (an ARG event with id __CU_RANGE, aux the
 * stream (__CU_INARG | k: inside argument k), size the conversion, val the
 * item's text as start | end << 32) so that a new value replaces only
 * its text. */
#define __CU_RANGE 0xffffff01u
#define __CU_NFILES 16
__attribute__((weak)) FILE *__cu_files[__CU_NFILES];
__attribute__((weak)) int __cu_file_arg[__CU_NFILES];
/* The last lines fgets read (sscanf of them is read from the stream). */
#define __CU_NLINES 8
__attribute__((weak)) const char *__cu_line_at[__CU_NLINES];
__attribute__((weak)) unsigned long __cu_line_len[__CU_NLINES], __cu_line_off[__CU_NLINES];
__attribute__((weak)) int __cu_line_stream[__CU_NLINES];
__attribute__((weak)) unsigned __cu_nline;

static __inline__ int __cu_stream(FILE *f)
{
	int i;
	if (f == stdin)
		return 0;
	for (i = 0; i < __CU_NFILES; i++)
		if (__cu_files[i] && __cu_files[i] == f)
			return __cu_file_arg[i];
	return -1;
}
static __inline__ unsigned long __cu_offset(FILE *f, int stream)
{
	long o;
	if (stream == 0)
		return __cu_stdin_off;
	o = ftell(f);
	return o < 0 ? 0 : (unsigned long)o;
}
static __inline__ void __cu_inbyte(int stream, unsigned long off, const void *addr, long long v)
{
	if (stream >= 0 && off < (1ul << 24))
		__cu_in(__CU_IN_STDBYTE, (unsigned)stream << 24 | (unsigned)off, addr, addr ? 1 : sizeof(int), v);
}
__attribute__((weak)) FILE *__cu_fopen(const char *path, const char *mode)
{
	FILE *f = fopen(path, mode);
	int k, i;
	if (!f || mode[0] != 'r' || !__cu_argv)
		return f;
	for (k = 1; k < __cu_argc && k < 256; k++)
		if (__cu_argv[k] == path || !strcmp(__cu_argv[k], path))
			break;
	if (k >= __cu_argc || k >= 256)
		return f;
	for (i = 0; i < __CU_NFILES; i++)
		if (!__cu_files[i] || __cu_files[i] == f) {
			__cu_files[i] = f;
			__cu_file_arg[i] = k;
			break;
		}
	return f;
}
__attribute__((weak)) int __cu_fclose(FILE *f)
{
	int i;
	for (i = 0; i < __CU_NFILES; i++)
		if (__cu_files[i] == f)
			__cu_files[i] = 0;
	return fclose(f);
}
static __inline__ void __cu_argint(const char *s, long long v, unsigned size)
{
	int k = __cu_argof(s);
	if (k > 0)
		__cu_in(__CU_IN_ARGINT, (unsigned)k, 0, size, v);
}
__attribute__((weak)) int __cu_atoi(const char *s)
{
	int v = atoi(s);
	__cu_argint(s, v, sizeof(v));
	return v;
}
__attribute__((weak)) long __cu_atol(const char *s)
{
	long v = atol(s);
	__cu_argint(s, v, sizeof(v));
	return v;
}
__attribute__((weak)) long long __cu_atoll(const char *s)
{
	long long v = atoll(s);
	__cu_argint(s, v, sizeof(v));
	return v;
}
/* strto*: base 10 or 0 (a new value is written in decimal). */
__attribute__((weak)) long __cu_strtol(const char *s, char **end, int base)
{
	long v = strtol(s, end, base);
	if (base == 10 || base == 0)
		__cu_argint(s, v, sizeof(v));
	return v;
}
__attribute__((weak)) unsigned long __cu_strtoul(const char *s, char **end, int base)
{
	unsigned long v = strtoul(s, end, base);
	if (base == 10 || base == 0)
		__cu_argint(s, (long long)v, sizeof(v));
	return v;
}
__attribute__((weak)) long long __cu_strtoll(const char *s, char **end, int base)
{
	long long v = strtoll(s, end, base);
	if (base == 10 || base == 0)
		__cu_argint(s, v, sizeof(v));
	return v;
}
__attribute__((weak)) unsigned long long __cu_strtoull(const char *s, char **end, int base)
{
	unsigned long long v = strtoull(s, end, base);
	if (base == 10 || base == 0)
		__cu_argint(s, (long long)v, sizeof(v));
	return v;
}

/* strtod and atof of an argument: the double's bits, its text's range
 * noted (conversion 'g') so that a new value is written as a double. */
static __inline__ void __cu_argdbl(const char *s, const char *end, double v)
{
	int k = __cu_argof(s);
	long long bits;
	struct __cu_ev *r;
	if (k <= 0)
		return;
	memcpy(&bits, &v, sizeof(bits));
	r = __cu_ev(__CU_ARG, __CU_RANGE);
	r->aux = (unsigned short)(__CU_INARG | k);
	r->size = (unsigned char)'g';
	r->val = (unsigned long long)(end && end >= s ? (unsigned long)(end - s) : strlen(s)) << 32;
	__cu_in(__CU_IN_ARGINT, (unsigned)k, 0, sizeof(v), bits);
}
__attribute__((weak)) double __cu_strtod(const char *s, char **end)
{
	char *e = 0;
	double v = strtod(s, &e);
	if (end)
		*end = e;
	__cu_argdbl(s, e, v);
	return v;
}
__attribute__((weak)) double __cu_atof(const char *s)
{
	char *e = 0;
	double v = strtod(s, &e);
	__cu_argdbl(s, e, v);
	return v;
}

/* One item scanf converted, as input events: where its text was (stream,
 * or __CU_INARG | k inside argument k) and its value. */
static __inline__ void __cu_item(int where, unsigned long start, unsigned long end, char conv, const char *len, int width,
				 void *ptr)
{
	unsigned size = 4;
	long long v;
	struct __cu_ev *r;
	unsigned long i;
	if (where < 0 || !ptr)
		return;
	if (conv == 'c' || conv == 's' || conv == '[') {
		unsigned long n = conv == 'c' ? (unsigned long)(width > 0 ? width : 1) : strlen((const char *)ptr);
		if (where >= __CU_INARG)
			return;   /* an argument's bytes are inputs already */
		for (i = 0; i < n && i < 4096; i++)
			__cu_inbyte(where, start + (conv == 'c' ? i : end - n - start + i), (const char *)ptr + i,
				    (unsigned char)((const char *)ptr)[i]);
		return;
	}
	if (strchr("fFeEgGaA", conv) && len[0] != 'L') {   /* float or double: its bits are the value */
		size = len[0] == 'l' ? 8 : 4;
		v = size == 8 ? *(long long *)ptr : (long long)*(unsigned *)ptr;
		r = __cu_ev(__CU_ARG, __CU_RANGE);
		r->aux = (unsigned short)where;
		r->size = (unsigned char)(size == 8 ? 'g' : 'f');
		r->val = (unsigned long long)start | (unsigned long long)end << 32;
		if (where >= __CU_INARG)
			__cu_in(__CU_IN_ARGINT, (unsigned)(where & ~__CU_INARG), ptr, size, v);
		else
			__cu_in(__CU_IN_STDINT, (unsigned)where << 24 | (unsigned)(__cu_scanf_items++ & 0xffffff), ptr,
				size, v);
		return;
	}
	if (!strchr("diuoxX", conv)) {   /* long double and pointers: kept as written, the read noted */
		if (where < __CU_INARG) {
			r = __cu_ev(__CU_ARG, __CU_RANGE);
			r->aux = (unsigned short)where;
			r->size = (unsigned char)conv;
			r->val = (unsigned long long)start | (unsigned long long)end << 32;
		}
		return;
	}
	if (len[0] == 'h')
		size = len[1] == 'h' ? 1 : 2;
	else if (len[0] == 'l' || len[0] == 'L' || len[0] == 'q' || len[0] == 'j' || len[0] == 'z' || len[0] == 't')
		size = 8;
	if (size == 8)
		v = *(long long *)ptr;
	else if (conv != 'd' && conv != 'i')
		v = (long long)(size == 1 ? *(unsigned char *)ptr : size == 2 ? *(unsigned short *)ptr : *(unsigned *)ptr);
	else if (size == 1)
		v = (long long)*(signed char *)ptr;
	else if (size == 2)
		v = (long long)*(short *)ptr;
	else
		v = (long long)*(int *)ptr;
	r = __cu_ev(__CU_ARG, __CU_RANGE);
	r->aux = (unsigned short)where;
	r->size = (unsigned char)conv;
	r->val = (unsigned long long)start | (unsigned long long)end << 32;
	if (where >= __CU_INARG)
		__cu_in(__CU_IN_ARGINT, (unsigned)(where & ~__CU_INARG), ptr, size, v);
	else
		__cu_in(__CU_IN_STDINT, (unsigned)where << 24 | (unsigned)(__cu_scanf_items++ & 0xffffff), ptr, size, v);
}

/* scanf, fscanf and sscanf: each conversion scanned alone between two %n,
 * so that the offsets of its text are known; the same results as one call. */
__attribute__((weak)) int __cu_vscan(FILE *f, const char *str, const char *fmt, va_list ap)
{
	size_t fl = strlen(fmt);
	char *piece = (char *)malloc(fl + 16);
	const char *p = fmt;
	int assigned = 0, any = 0, where = -1, stream = f ? __cu_stream(f) : -1;
	unsigned long used = 0, base = 0;
	unsigned i;
	if (!piece)
		return EOF;
	if (f && stream >= 0) {
		where = stream;
		base = __cu_offset(f, stream);
	} else if (str) {
		int k = __cu_argof(str);
		if (k > 0)
			where = __CU_INARG | k;
		for (i = 0; i < __CU_NLINES && i < __cu_nline && where < 0; i++) {   /* the newest first */
			unsigned j = (__cu_nline - 1 - i) % __CU_NLINES;
			if (__cu_line_at[j] && str >= __cu_line_at[j] && str <= __cu_line_at[j] + __cu_line_len[j]) {
				where = __cu_line_stream[j];
				base = __cu_line_off[j] + (unsigned long)(str - __cu_line_at[j]);
			}
		}
	}
	for (;;) {
		const char *q = p, *c, *len;
		char conv, *w;
		int skip = 0, width = 0, b = -1, e = -1, r;
		void *ptr = 0;
		while (*q && !(q[0] == '%' && q[1] != '%'))
			q += q[0] == '%' ? 2 : 1;
		memcpy(piece, p, (size_t)(q - p));
		w = piece + (q - p);
		if (!*q) {   /* literal text at the end */
			strcpy(w, "%n");
			r = f ? fscanf(f, piece, &e) : sscanf(str + used, piece, &e);
			if (e >= 0)
				used += (unsigned long)e;
			break;
		}
		c = q + 1;
		if (*c == '*') {
			skip = 1;
			c++;
		}
		while (*c == '\'' || *c == 'I')
			c++;
		while (*c >= '0' && *c <= '9')
			width = width * 10 + (*c++ - '0');
		len = c;
		while (*c && strchr("hlLqjzt", *c))
			c++;
		conv = *c;
		if (conv == '[') {
			c++;
			if (*c == '^')
				c++;
			if (*c == ']')
				c++;
			while (*c && *c != ']')
				c++;
		}
		if (!*c)
			break;
		c++;
		if (conv == 'n') {   /* the caller's %n: what was read so far */
			strcpy(w, "%n");
			r = f ? fscanf(f, piece, &e) : sscanf(str + used, piece, &e);
			if (e >= 0)
				used += (unsigned long)e;
			if (!skip)
				*va_arg(ap, int *) = (int)used;
			p = c;
			continue;
		}
		if (conv != 'c' && conv != '[')
			*w++ = ' ';
		strcpy(w, "%n");
		w += 2;
		memcpy(w, q, (size_t)(c - q));
		w += c - q;
		strcpy(w, "%n");
		if (!skip)
			ptr = va_arg(ap, void *);
		if (skip)
			r = f ? fscanf(f, piece, &b, &e) : sscanf(str + used, piece, &b, &e);
		else
			r = f ? fscanf(f, piece, &b, ptr, &e) : sscanf(str + used, piece, &b, ptr, &e);
		if (r == EOF || e < 0) {
			if (r == EOF && !any)
				assigned = EOF;
			break;
		}
		any = 1;
		if (!skip) {
			assigned++;
			__cu_item(where, base + used + (unsigned long)b, base + used + (unsigned long)e, conv, len, width,
				  ptr);
		}
		used += (unsigned long)e;
		p = c;
	}
	free(piece);
	if (stream == 0)
		__cu_stdin_off = base + used;
	return assigned;
}
__attribute__((weak)) int __cu_scanf(const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = __cu_vscan(stdin, 0, fmt, ap);
	va_end(ap);
	return n;
}
__attribute__((weak)) int __cu_fscanf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = __cu_vscan(f, 0, fmt, ap);
	va_end(ap);
	return n;
}
__attribute__((weak)) int __cu_sscanf(const char *str, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = __cu_vscan(0, str, fmt, ap);
	va_end(ap);
	return n;
}
__attribute__((weak)) int __cu_fgetc(FILE *f)
{
	int stream = __cu_stream(f);
	unsigned long off = stream >= 0 ? __cu_offset(f, stream) : 0;
	int c = fgetc(f);
	if (stream >= 0) {
		__cu_inbyte(stream, off, 0, c);
		if (stream == 0)
			__cu_stdin_off += c != EOF;
	}
	return c;
}
__attribute__((weak)) int __cu_getc(FILE *f) { return __cu_fgetc(f); }
__attribute__((weak)) int __cu_getchar(void) { return __cu_fgetc(stdin); }
__attribute__((weak)) char *__cu_fgets(char *s, int size, FILE *f)
{
	int stream = __cu_stream(f);
	unsigned long off = stream >= 0 ? __cu_offset(f, stream) : 0;
	char *r = fgets(s, size, f);
	size_t i, n;
	if (r && stream >= 0) {
		unsigned slot = __cu_nline++ % __CU_NLINES;
		n = strlen(s);
		for (i = 0; i < n; i++)
			__cu_inbyte(stream, off + i, s + i, (unsigned char)s[i]);
		__cu_line_at[slot] = s;
		__cu_line_len[slot] = n;
		__cu_line_off[slot] = off;
		__cu_line_stream[slot] = stream;
		if (stream == 0)
			__cu_stdin_off += n;
	}
	return r;
}
/* gets: a line of standard input, its newline read but not stored (no
 * bound, as gets has none); read here byte by byte, the newline an input
 * byte as fgetc's are (so that a stream made from the run keeps it). */
__attribute__((weak)) char *__cu_gets(char *s)
{
	unsigned long off = __cu_stdin_off;
	size_t i, n = 0;
	int c;
	while ((c = fgetc(stdin)) != EOF && c != '\n')
		s[n++] = (char)c;
	if (c == EOF && n == 0)
		return NULL;
	s[n] = '\0';
	unsigned slot = __cu_nline++ % __CU_NLINES;
	for (i = 0; i < n; i++)
		__cu_inbyte(0, off + i, s + i, (unsigned char)s[i]);
	if (c == '\n')   /* read, not stored: as fgetc's */
		__cu_inbyte(0, off + n, 0, c);
	__cu_line_at[slot] = s;
	__cu_line_len[slot] = n;
	__cu_line_off[slot] = off;
	__cu_line_stream[slot] = 0;
	__cu_stdin_off += n + (c == '\n');
	return s;
}
__attribute__((weak)) size_t __cu_fread(void *p, size_t size, size_t n, FILE *f)
{
	int stream = __cu_stream(f);
	unsigned long off = stream >= 0 ? __cu_offset(f, stream) : 0;
	size_t got = fread(p, size, n, f), i;
	if (stream >= 0) {
		for (i = 0; i < got * size && i < 4096; i++)
			__cu_inbyte(stream, off + i, (char *)p + i, ((unsigned char *)p)[i]);
		if (stream == 0)
			__cu_stdin_off += got * size;
	}
	return got;
}
__attribute__((weak)) ssize_t __cu_read(int fd, void *p, size_t n)
{
	ssize_t got = read(fd, p, n), i;
	if (fd == 0 && got > 0) {
		for (i = 0; i < got && i < 4096; i++)
			__cu_inbyte(0, __cu_stdin_off + (unsigned long)i, (char *)p + i, ((unsigned char *)p)[i]);
		__cu_stdin_off += (unsigned long)got;
	}
	return got;
}

#endif
