#include "core/semantic/trace.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------ address -> write */

struct amap {
	uint64_t *key;
	uint32_t *val;
	size_t cap, n;
};

static size_t amap_slot(const struct amap *m, uint64_t k)
{
	uint64_t h = k * 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 20) & (m->cap - 1);
}

static void amap_put(struct amap *m, uint64_t k, uint32_t v);

static void amap_grow(struct amap *m)
{
	struct amap old = *m;
	m->cap = old.cap ? old.cap * 2 : 1024;
	m->key = xcalloc(m->cap, sizeof(*m->key));
	m->val = xmalloc(m->cap * sizeof(*m->val));
	m->n = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.key[i])
			amap_put(m, old.key[i], old.val[i]);
	free(old.key);
	free(old.val);
}

/* Keys are addresses + 1 (0 marks a free slot). */
static void amap_put(struct amap *m, uint64_t k, uint32_t v)
{
	if (2 * (m->n + 1) > m->cap)
		amap_grow(m);
	k++;
	size_t i = amap_slot(m, k);
	while (m->key[i] && m->key[i] != k)
		i = (i + 1) & (m->cap - 1);
	if (!m->key[i])
		m->n++;
	m->key[i] = k;
	m->val[i] = v;
}

static uint32_t amap_get(const struct amap *m, uint64_t k)
{
	if (!m->cap)
		return TRACE_NONE;
	k++;
	size_t i = amap_slot(m, k);
	while (m->key[i]) {
		if (m->key[i] == k)
			return m->val[i];
		i = (i + 1) & (m->cap - 1);
	}
	return TRACE_NONE;
}

/* ------------------------------------------------------------- frames */

struct u32v {
	uint32_t *v;
	size_t n, cap;
};

/* An evaluation context longer than this (a statement that never ends:
 * a loop without statements) keeps only its newest half. */
#define CTX_MAX 256

static void ctx_push(struct u32v *a, uint32_t x);

static void u32_push(struct u32v *a, uint32_t x)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 8;
		a->v = xrealloc(a->v, a->cap * sizeof(*a->v));
	}
	a->v[a->n++] = x;
}

static void ctx_push(struct u32v *a, uint32_t x)
{
	if (a->n == CTX_MAX) {
		memmove(a->v, a->v + CTX_MAX / 2, (CTX_MAX / 2) * sizeof(*a->v));
		a->n = CTX_MAX / 2;
	}
	u32_push(a, x);
}

struct pending {
	uint32_t call, ret;
};

struct region {
	uint32_t branch;
	unsigned sid;
	int file;
	unsigned s, e;
	int skip_jumps;         /* the arm not taken could have left: what follows depends on it */
	uint32_t after;         /* the latest such if inside it, already left */
};

struct frame {
	uint32_t enter;
	uint32_t base_ctl;      /* the caller's governing branch at the call */
	uint32_t after;         /* the last if whose other arm could have left before here */
	struct u32v ctx;        /* the evaluation context */
	struct pending *calls;
	size_t ncalls, capcalls;
	struct region *reg;
	size_t nreg, capreg;
};

static void frame_release(struct frame *f)
{
	free(f->ctx.v);
	free(f->calls);
	free(f->reg);
}

static uint32_t frame_ctl(const struct frame *f)
{
	if (f->nreg) {
		const struct region *r = &f->reg[f->nreg - 1];
		return r->after != TRACE_NONE ? r->after : r->branch;
	}
	return f->after != TRACE_NONE ? f->after : f->base_ctl;
}

long long trace_value(const struct tev *ev, int is_signed)
{
	unsigned bits = ev->size ? ev->size * 8u : 64u;
	uint64_t v = ev->val;
	if (bits >= 64)
		return (long long)v;
	v &= (1ull << bits) - 1;
	if (is_signed && (v >> (bits - 1)) & 1)
		v |= ~((1ull << bits) - 1);
	return (long long)v;
}

void trace_show_value(const struct trace *t, const struct tev *ev, struct buf *b)
{
	const struct msite *s = tmeta_site(t->m, ev->id);
	char cls = s ? s->t.cls : 'i';
	if (cls == 'p')
		buf_addf(b, ev->val ? "%#llx" : "NULL", (unsigned long long)ev->val);
	else if (cls == 'b')
		buf_adds(b, ev->val ? "true" : "false");
	else
		tmeta_show_value(s && s->kind == 'T' ? tmeta_site(t->m, s->fid) : s,
				 (unsigned long long)trace_value(ev, cls == 'i'), cls == 'i', b);
}

const struct msite *trace_stmt_of(const struct trace *t, size_t i)
{
	return tmeta_stmt(t->m, t->ev[i].id);
}

uint32_t trace_dep_find(const struct trace *t, size_t owner, int kind, unsigned id)
{
	const uint32_t *d;
	size_t n = trace_deps(t, owner, &d);
	for (size_t k = n; k-- > 0;)
		if (t->ev[d[k]].kind == kind && t->ev[d[k]].id == id)
			return d[k];
	return TRACE_NONE;
}

/* Take the events of one process out of the chunks: the want-th to write
 * (in the order of their first chunk), or the last one (want < 0). */
static int select_events(struct trace *t, const unsigned char *p, size_t len, long want, struct cerr *e)
{
	const size_t R = sizeof(struct tev);
	long last = -1, chosen = -1;
	size_t count = 0, procs = 0;
	long seen[64];
	for (size_t off = 0; off + R <= len;) {
		struct tev h;
		memcpy(&h, p + off, R);
		if (h.kind != TE_PID || h.addr >= (len - off) / R)   /* the header and h.addr records */
			return cerr_set(e, "the trace is damaged at byte %zu", off);
		int known = 0;
		for (size_t i = 0; i < procs && i < 64; i++)
			known |= seen[i] == (long)h.val;
		if (!known && procs < 64)
			seen[procs] = (long)h.val;
		if (!known && want >= 0 && (size_t)want == procs)
			chosen = (long)h.val;
		procs += !known;
		last = (long)h.val;
		off += R * (1 + h.addr);
	}
	if (want >= 0) {
		if (chosen < 0)
			return cerr_set(e, "the trace holds %zu processes, not %ld", procs, want + 1);
		last = chosen;
	}
	for (size_t off = 0; off + R <= len;) {
		struct tev h;
		memcpy(&h, p + off, R);
		if ((long)h.val == last)
			count += h.addr;
		off += R * (1 + h.addr);
	}
	if (count == 0)
		return cerr_set(e, "the trace is empty: the program did not run instrumented code");
	if (count >= TRACE_NONE)
		return cerr_set(e, "the trace has %zu events, more than culprit reads", count);
	t->ev = malloc(count * R);
	if (!t->ev)
		return cerr_set(e, "out of memory for a trace of %zu events", count);
	t->n = 0;
	for (size_t off = 0; off + R <= len;) {
		struct tev h;
		memcpy(&h, p + off, R);
		if ((long)h.val == last) {
			memcpy(t->ev + t->n, p + off + R, R * h.addr);
			t->n += h.addr;
		}
		off += R * (1 + h.addr);
	}
	t->pid = last;
	t->nprocs = procs;
	/* A run longer than the cap: the runtime wrote its first part, a CUT
	 * event, then its newest events. Only those are kept: a trace starts
	 * anywhere (reads of unknown writes are inputs), and the newest part
	 * is the one nearest the failure. */
	size_t cut = SIZE_MAX;
	for (size_t i = 0; i < t->n; i++) {
		const struct tev *v = &t->ev[i];
		if (v->kind == TE_CUT)
			cut = i;
		else if (v->kind == TE_OUT || v->kind == TE_ARG || v->kind == TE_CWD)
			i += (size_t)((v->addr + R - 1) / R);   /* raw bytes follow */
	}
	if (cut != SIZE_MAX) {
		memmove(t->ev, t->ev + cut, (t->n - cut) * R);
		t->n -= cut;
	}
	return 0;
}

static void deps_add(struct trace *t, size_t *cap, size_t i, const struct u32v *ctx)
{
	t->dep_off[i] = (uint32_t)t->ndeps;
	if (t->ndeps + ctx->n > *cap) {
		while (t->ndeps + ctx->n > *cap)
			*cap = *cap ? 2 * *cap : 4096;
		t->deps = xrealloc(t->deps, *cap * sizeof(*t->deps));
	}
	if (ctx->n)
		memcpy(t->deps + t->ndeps, ctx->v, ctx->n * sizeof(*t->deps));
	t->ndeps += ctx->n;
}

/* The bytes after event i follow as raw records (no kind): skip them. */
static size_t skip_raw(struct trace *t, size_t i, size_t bytes)
{
	size_t raw = (bytes + sizeof(struct tev) - 1) / sizeof(struct tev);
	for (size_t k = 0; k < raw && i + 1 < t->n; k++) {
		i++;
		t->src[i] = TRACE_NONE;
		t->ctl[i] = t->ctl[i - 1];
		t->dep_off[i] = (uint32_t)t->ndeps;
		t->ev[i].kind = TE_BYTES;
	}
	return i;
}

static int index_events(struct trace *t, struct cerr *e)
{
	size_t n = t->n, capdeps = 0;
	t->src = xmalloc(n * sizeof(*t->src));
	t->ctl = xmalloc(n * sizeof(*t->ctl));
	t->dep_off = xmalloc((n + 2) * sizeof(*t->dep_off));
	t->out_ev = NULL;
	t->sig_ev = t->last_stmt = TRACE_NONE;
	struct amap writes = {0};
	struct frame *fr = xcalloc(1, sizeof(*fr));
	size_t nfr = 1, capfr = 1;
	fr[0].enter = fr[0].base_ctl = fr[0].after = TRACE_NONE;
	size_t outcap = 0;

	for (size_t i = 0; i < n; i++) {
		struct tev *v = &t->ev[i];
		struct frame *f = &fr[nfr - 1];
		t->src[i] = TRACE_NONE;
		t->ctl[i] = frame_ctl(f);
		t->dep_off[i] = (uint32_t)t->ndeps;
		switch (v->kind) {
		case TE_STMT: {
			const struct msite *s = tmeta_site(t->m, v->id);
			if (s && s->kind == 'S') {
				while (f->nreg) {
					const struct region *r = &f->reg[f->nreg - 1];
					if (r->file == s->file && r->s <= s->s && s->e <= r->e && r->sid != v->id)
						break;
					/* if (x) return; s: s runs because x was false. */
					uint32_t left = r->skip_jumps ? r->branch : r->after;
					if (left != TRACE_NONE) {
						if (f->nreg > 1)
							f->reg[f->nreg - 2].after = left;
						else
							f->after = left;
					}
					f->nreg--;
				}
			}
			t->ctl[i] = frame_ctl(f);
			f->ctx.n = 0;
			t->last_stmt = (uint32_t)i;
			break;
		}
		case TE_READ: {
			uint32_t w = amap_get(&writes, v->addr);
			if (w != TRACE_NONE && t->ev[w].size == v->size && t->ev[w].val == v->val)
				t->src[i] = w;
			ctx_push(&f->ctx, (uint32_t)i);
			break;
		}
		case TE_WRITE:
		case TE_PARAM:
			deps_add(t, &capdeps, i, &f->ctx);
			for (unsigned k = 1; k < v->size && k < 8; k++)
				if (amap_get(&writes, v->addr + k) != TRACE_NONE)
					amap_put(&writes, v->addr + k, TRACE_NONE);
			amap_put(&writes, v->addr, (uint32_t)i);
			if (v->kind == TE_PARAM)
				t->src[i] = f->enter;
			else
				ctx_push(&f->ctx, (uint32_t)i);
			break;
		case TE_BRANCH: {
			deps_add(t, &capdeps, i, &f->ctx);
			const struct msite *b = tmeta_site(t->m, v->id);
			const struct msite *s = b ? tmeta_site(t->m, b->sid) : NULL;
			if (!b || !s || b->kind != 'B' || s->kind != 'S')
				break;
			/* A ?: or an assert is inside an expression that goes on;
			 * a statement's condition ends its evaluation. */
			if (!strcmp(b->kindname, "cond") || !strcmp(b->kindname, "assert"))
				break;
			f->ctx.n = 0;
			while (f->nreg && f->reg[f->nreg - 1].sid == b->sid)
				f->nreg--;
			t->ctl[i] = frame_ctl(f);
			if (f->nreg == f->capreg) {
				f->capreg = f->capreg ? 2 * f->capreg : 8;
				f->reg = xrealloc(f->reg, f->capreg * sizeof(*f->reg));
			}
			f->reg[f->nreg++] = (struct region){(uint32_t)i, b->sid, s->file, s->s, s->e,
							    v->val ? b->jumps_else : b->jumps_then, TRACE_NONE};
			break;
		}
		case TE_CALL:
			if (f->ncalls == f->capcalls) {
				f->capcalls = f->capcalls ? 2 * f->capcalls : 8;
				f->calls = xrealloc(f->calls, f->capcalls * sizeof(*f->calls));
			}
			f->calls[f->ncalls++] = (struct pending){(uint32_t)i, TRACE_NONE};
			break;
		case TE_ENTER: {
			deps_add(t, &capdeps, i, &f->ctx);
			uint32_t call = f->ncalls ? f->calls[f->ncalls - 1].call : TRACE_NONE;
			t->src[i] = call;
			uint32_t base = frame_ctl(f);
			if (nfr == capfr) {
				capfr *= 2;
				fr = xrealloc(fr, capfr * sizeof(*fr));
			}
			f = &fr[nfr++];
			memset(f, 0, sizeof(*f));
			f->enter = (uint32_t)i;
			f->base_ctl = base;
			f->after = TRACE_NONE;
			t->ctl[i] = base;
			break;
		}
		case TE_RET:
		case TE_RET0:
			deps_add(t, &capdeps, i, &f->ctx);
			if (nfr > 1) {
				frame_release(f);
				nfr--;
				struct frame *c = &fr[nfr - 1];
				if (c->ncalls && v->kind == TE_RET && v->size)
					c->calls[c->ncalls - 1].ret = (uint32_t)i;
			}
			break;
		case TE_CRET: {
			deps_add(t, &capdeps, i, &f->ctx);
			/* Pop to the matching call (longjmp and friends skip some);
			 * a macro's value (a CRET with no call, like NULL passed
			 * to strtol) pops nothing. */
			size_t m = f->ncalls;
			while (m && t->ev[f->calls[m - 1].call].id != v->id)
				m--;
			if (m) {
				f->ncalls = m;
				t->src[i] = f->calls[f->ncalls - 1].ret;
				f->ncalls--;
			}
			ctx_push(&f->ctx, (uint32_t)i);
			break;
		}
		case TE_OUT: {
			deps_add(t, &capdeps, i, &f->ctx);
			t->src[i] = f->ncalls ? f->calls[f->ncalls - 1].call : TRACE_NONE;
			size_t keep = (size_t)v->addr;
			if (v->size == 1) {
				size_t at = t->out.len;
				for (size_t k = 0; k < keep && i + 1 + k / sizeof(struct tev) < n; k++) {
					const unsigned char *bytes = (const unsigned char *)&t->ev[i + 1 + k / sizeof(struct tev)];
					buf_addc(&t->out, (char)bytes[k % sizeof(struct tev)]);
				}
				if (t->out.len > outcap) {
					outcap = t->out.len * 2;
					t->out_ev = xrealloc(t->out_ev, outcap * sizeof(*t->out_ev));
				}
				for (size_t k = at; k < t->out.len; k++)
					t->out_ev[k] = (uint32_t)i;
			}
			i = skip_raw(t, i, keep);
			break;
		}
		case TE_ARG:
		case TE_CWD: {
			size_t keep = (size_t)v->addr;
			struct buf b = BUF_INIT;
			for (size_t k = 0; k < keep && i + 1 + k / sizeof(struct tev) < n; k++)
				buf_addc(&b, (char)((const unsigned char *)&t->ev[i + 1 + k / sizeof(struct tev)])[k % sizeof(struct tev)]);
			if (v->kind == TE_CWD) {
				free(t->cwd);
				t->cwd = xstrndup(b.s ? b.s : "", b.len);
			} else if (v->id == t->nargs && v->id < TRACE_ENV) {
				buf_add(&t->args, b.s ? b.s : "", b.len);
				buf_addc(&t->args, '\0');
				t->nargs++;
			} else if (v->id == TRACE_ENV + t->nenv && b.len && memchr(b.s, '=', b.len) &&
				   !memchr(b.s, '\0', b.len)) {
				buf_add(&t->env, b.s, b.len);
				buf_addc(&t->env, '\0');
				t->nenv++;
			}
			buf_release(&b);
			i = skip_raw(t, i, keep);
			break;
		}
		case TE_IN:
			if (v->addr) {   /* the value went to memory: reads find it there */
				for (unsigned k = 1; k < v->size && k < 8; k++)
					if (amap_get(&writes, v->addr + k) != TRACE_NONE)
						amap_put(&writes, v->addr + k, TRACE_NONE);
				amap_put(&writes, v->addr, (uint32_t)i);
			} else if (f->ncalls && v->aux != TIN_ARGBYTE) {
				f->calls[f->ncalls - 1].ret = (uint32_t)i;   /* the library call's result */
			}
			break;
		case TE_CUT:
			t->cut = 1;
			break;
		case TE_SIG:
			deps_add(t, &capdeps, i, &f->ctx);
			t->sig = (int)v->val;
			t->sig_ev = (uint32_t)i;
			break;
		default:
			break;
		}
	}
	/* Owner n: the innermost context when the trace ends (exit's arguments). */
	deps_add(t, &capdeps, n, &fr[nfr - 1].ctx);
	t->dep_off[n + 1] = (uint32_t)t->ndeps;
	for (size_t k = 0; k < nfr; k++)
		frame_release(&fr[k]);
	free(fr);
	free(writes.key);
	free(writes.val);
	(void)e;
	return 0;
}

int trace_parse(struct trace *t, const void *data, size_t len, const struct tmeta *m, struct cerr *e)
{
	return trace_parse_proc(t, data, len, m, -1, e);
}

int trace_parse_proc(struct trace *t, const void *data, size_t len, const struct tmeta *m, long proc, struct cerr *e)
{
	memset(t, 0, sizeof(*t));
	t->m = m;
	if (len % sizeof(struct tev))
		len -= len % sizeof(struct tev);   /* a write cut short by a kill */
	if (select_events(t, data, len, proc, e) < 0)
		return -1;
	if (index_events(t, e) < 0) {
		trace_release(t);
		return -1;
	}
	return 0;
}

int trace_load(struct trace *t, const char *path, const struct tmeta *m, struct cerr *e)
{
	return trace_load_proc(t, path, m, -1, e);
}

int trace_load_proc(struct trace *t, const char *path, const struct tmeta *m, long proc, struct cerr *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return cerr_set(e, "%s: no trace was written", path);
	struct stat st;
	if (fstat(fd, &st) < 0 || st.st_size == 0) {
		close(fd);
		return cerr_set(e, "%s: the trace is empty: the test did not run instrumented code", path);
	}
	void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return cerr_set(e, "%s: cannot map the trace", path);
	int rc = trace_parse_proc(t, p, (size_t)st.st_size, m, proc, e);
	munmap(p, (size_t)st.st_size);
	return rc;
}

void trace_release(struct trace *t)
{
	free(t->ev);
	free(t->src);
	free(t->ctl);
	free(t->dep_off);
	free(t->deps);
	free(t->out_ev);
	buf_release(&t->out);
	buf_release(&t->args);
	buf_release(&t->env);
	free(t->cwd);
	memset(t, 0, sizeof(*t));
}

size_t trace_slice(const struct trace *t, const uint32_t *seeds, size_t nseeds, struct bits *in)
{
	struct u32v q = {0};
	size_t count = 0;
	for (size_t i = 0; i < nseeds; i++)
		if (seeds[i] < t->n && !bits_test(in, seeds[i])) {
			bits_set(in, seeds[i]);
			u32_push(&q, seeds[i]);
			count++;
		}
	while (q.n) {
		uint32_t i = q.v[--q.n];
		uint32_t next[3] = {t->src[i], t->ctl[i], TRACE_NONE};
		if (t->ev[i].kind == TE_PARAM && t->src[i] != TRACE_NONE)
			next[2] = t->src[t->src[i]];   /* the call that bound it */
		for (int k = 0; k < 3; k++)
			if (next[k] != TRACE_NONE && !bits_test(in, next[k])) {
				bits_set(in, next[k]);
				u32_push(&q, next[k]);
				count++;
			}
		const uint32_t *d;
		size_t nd = trace_deps(t, i, &d);
		for (size_t k = 0; k < nd; k++)
			if (!bits_test(in, d[k])) {
				bits_set(in, d[k]);
				u32_push(&q, d[k]);
				count++;
			}
	}
	free(q.v);
	return count;
}

size_t trace_taint(const struct trace *t, struct bits *tainted)
{
	size_t count = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct tev *v = &t->ev[i];
		int on = 0;
		switch (v->kind) {
		case TE_IN:
			on = 1;
			break;
		case TE_READ:
		case TE_CRET:
			on = t->src[i] != TRACE_NONE && bits_test(tainted, t->src[i]);
			break;
		case TE_WRITE:
		case TE_RET:
		case TE_BRANCH:
		case TE_ENTER: {
			const uint32_t *d;
			size_t nd = trace_deps(t, i, &d);
			for (size_t k = 0; k < nd && !on; k++)
				on = bits_test(tainted, d[k]);
			break;
		}
		case TE_PARAM:
			on = t->src[i] != TRACE_NONE && bits_test(tainted, t->src[i]);
			break;
		default:
			break;
		}
		if (on) {
			bits_set(tainted, i);
			count++;
		}
	}
	return count;
}

int trace_other_arm_assigns(const struct trace *t, uint32_t b, const char *name)
{
	const struct msite *s = tmeta_site(t->m, t->ev[b].id);
	if (!s || s->kind != 'B')
		return 0;
	const char *k = s->kindname;
	if (!strcmp(k, "cond") || !strcmp(k, "assert"))
		return 0;
	if (!strcmp(k, "switch"))
		return tmeta_names_has(s->then_names, name);
	if (!strcmp(k, "if"))
		return tmeta_names_has(t->ev[b].val ? s->else_names : s->then_names, name);
	/* loops: only leaving early could have skipped assignments */
	return !t->ev[b].val && tmeta_names_has(s->then_names, name);
}
