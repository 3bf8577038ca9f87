#include "core/semantic/formula.h"
#include "core/semantic/formula_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <z3.h>



void formula_quiet_errors(Z3_context c, Z3_error_code code)
{
	(void)c;
	(void)code;   /* checked through Z3_get_error_code where it matters */
}

struct formula *formula_new(const struct trace *t)
{
	return formula_new_mode(t, 0);
}

struct formula *formula_new_mode(const struct trace *t, int symbolic)
{
	struct formula *f = xcalloc(1, sizeof(*f));
	f->t = t;
	f->symbolic = symbolic;
	Z3_config cfg = Z3_mk_config();
	Z3_set_param_value(cfg, "model", symbolic ? "true" : "false");
	f->z = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	Z3_set_error_handler(f->z, formula_quiet_errors);
	return f;
}

struct formula *formula_new_shared(const struct trace *t, Z3_context z, const char *tag)
{
	struct formula *f = xcalloc(1, sizeof(*f));
	f->t = t;
	f->z = z;
	f->shared = 1;
	snprintf(f->tag, sizeof(f->tag), "%s", tag);
	return f;
}

void formula_free(struct formula *f)
{
	if (!f)
		return;
	if (!f->shared)
		Z3_del_context(f->z);
	free(f->side);
	bits_free(f->queued);
	free(f->queue);
	free(f->inputs);
	free(f);
}

void cause_result_release(struct cause_result *r)
{
	free(r->why);
	free(r->ev);
	memset(r, 0, sizeof(*r));
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------- clauses */

static int width(const struct mtype *t)
{
	if (t->cls == 'b')
		return 8;
	return t->bits > 0 && t->bits <= 64 ? t->bits : 0;
}

/* float and double: kept as their IEEE bits, computed on in Z3's floating point. */
static int is_fp(const struct mtype *t)
{
	return t->cls == 'f' && (t->bits == 32 || t->bits == 64);
}

static int modelled(const struct mtype *t)
{
	return ((t->cls == 'i' || t->cls == 'u' || t->cls == 'b' || t->cls == 'p') && width(t) > 0) || is_fp(t);
}

static int ev_width(const struct tev *v)
{
	return v->size ? v->size * 8 : 64;
}

int formula_has_clause(const struct trace *t, uint32_t w)
{
	if (w >= t->n)
		return 0;
	const struct tev *v = &t->ev[w];
	if (v->kind == TE_WRITE || v->kind == TE_RET)
		return 1;
	if (v->kind != TE_PARAM)
		return 0;
	uint32_t enter = t->src[w];
	uint32_t call = enter != TRACE_NONE ? t->src[enter] : TRACE_NONE;
	if (call == TRACE_NONE)
		return 0;
	const struct msite *p = tmeta_site(t->m, v->id), *c = tmeta_site(t->m, t->ev[call].id);
	return p && c && c->kind == 'C' && p->idx < c->nargs && c->args[p->idx];
}

static Z3_ast bv(struct formula *f, unsigned long long v, int w)
{
	return Z3_mk_unsigned_int64(f->z, w < 64 ? v & ((1ull << w) - 1) : v, Z3_mk_bv_sort(f->z, (unsigned)w));
}

static Z3_ast fresh(struct formula *f, int w)
{
	char name[32];
	snprintf(name, sizeof(name), "%sfree%u", f->tag, f->fresh++);
	return Z3_mk_const(f->z, Z3_mk_string_symbol(f->z, name), Z3_mk_bv_sort(f->z, (unsigned)w));
}

static void enqueue(struct formula *f, uint32_t e)
{
	if (bits_test(f->queued, e))
		return;
	bits_set(f->queued, e);
	if (f->qtail == f->qcap) {
		f->qcap = f->qcap ? 2 * f->qcap : 256;
		f->queue = xrealloc(f->queue, f->qcap * sizeof(*f->queue));
	}
	f->queue[f->qtail++] = e;
}

static Z3_ast var(struct formula *f, uint32_t e)
{
	char name[32];
	snprintf(name, sizeof(name), "%sv%u", e < f->prefix_upto ? f->prefix_tag : f->tag, e);
	enqueue(f, e);
	return Z3_mk_const(f->z, Z3_mk_string_symbol(f->z, name),
			   Z3_mk_bv_sort(f->z, (unsigned)ev_width(&f->t->ev[e])));
}

/* Resize a to width w as a value of a type with signedness sgn. */
static Z3_ast resize(struct formula *f, Z3_ast a, int sgn, int w)
{
	unsigned have = Z3_get_bv_sort_size(f->z, Z3_get_sort(f->z, a));
	if ((int)have == w)
		return a;
	if ((int)have > w)
		return Z3_mk_extract(f->z, (unsigned)w - 1, 0, a);
	return sgn ? Z3_mk_sign_ext(f->z, (unsigned)w - have, a) : Z3_mk_zero_ext(f->z, (unsigned)w - have, a);
}

static Z3_ast fp_conv(struct formula *f, Z3_ast a, const struct mtype *from, const struct mtype *to);

static Z3_ast conv(struct formula *f, Z3_ast a, const struct mtype *from, const struct mtype *to)
{
	if (is_fp(from) || is_fp(to))
		return fp_conv(f, a, from, to);
	int w = width(to);
	if (to->cls == 'b') {
		unsigned have = Z3_get_bv_sort_size(f->z, Z3_get_sort(f->z, a));
		return Z3_mk_ite(f->z, Z3_mk_eq(f->z, a, bv(f, 0, (int)have)), bv(f, 0, 8), bv(f, 1, 8));
	}
	return resize(f, a, from->cls == 'i', w);
}

static Z3_ast truth(struct formula *f, Z3_ast c, int w)
{
	return Z3_mk_ite(f->z, c, bv(f, 1, w), bv(f, 0, w));
}

static Z3_ast nonzero(struct formula *f, Z3_ast a)
{
	unsigned have = Z3_get_bv_sort_size(f->z, Z3_get_sort(f->z, a));
	return Z3_mk_not(f->z, Z3_mk_eq(f->z, a, bv(f, 0, (int)have)));
}

static Z3_ast term(struct formula *f, uint32_t owner, const struct mnode *n);
static Z3_ast call_result(struct formula *f, uint32_t owner, const struct mnode *n, int w);

static int input_width(const struct tev *v)
{
	return v->size >= 1 && v->size <= 8 ? 8 * v->size : 32;
}

/* The value of input event e: observed, or its variable when generating. */
static Z3_ast input(struct formula *f, uint32_t e, int sgn, int w)
{
	const struct tev *v = &f->t->ev[e];
	if (!f->symbolic || (v->aux == TIN_STDINT && v->id == ~0u))
		return bv(f, v->val, w);
	char name[32];
	snprintf(name, sizeof(name), "in%u", e);
	Z3_ast x = Z3_mk_const(f->z, Z3_mk_string_symbol(f->z, name), Z3_mk_bv_sort(f->z, (unsigned)input_width(v)));
	if (!bits_test(f->queued, e)) {   /* (inputs have no clause: queued marks them known) */
		bits_set(f->queued, e);
		if (f->ninputs == f->capinputs) {
			f->capinputs = f->capinputs ? 2 * f->capinputs : 16;
			f->inputs = xrealloc(f->inputs, f->capinputs * sizeof(*f->inputs));
		}
		f->inputs[f->ninputs++] = e;
	}
	return resize(f, x, sgn, w);
}

static Z3_ast leaf(struct formula *f, uint32_t owner, const struct mnode *n)
{
	const struct trace *t = f->t;
	int w = width(&n->t);
	if (n->op == 'r') {
		uint32_t r = trace_dep_find(t, owner, TE_READ, (unsigned)n->v);
		if (r == TRACE_NONE)
			return fresh(f, w);   /* not evaluated (short circuit) */
		if (f->read_hook)
			return f->read_hook(f->hook_priv, f, r, n->t.cls == 'i', w);
		return formula_read_value(f, r, n->t.cls == 'i', w);
	}
	if (n->op == 'w') {
		uint32_t r = trace_dep_find(t, owner, TE_WRITE, (unsigned)n->v);
		return r == TRACE_NONE ? fresh(f, w) : resize(f, var(f, r), n->t.cls == 'i', w);
	}
	return call_result(f, owner, n, w);
}

Z3_ast formula_read_value(struct formula *f, uint32_t r, int sgn, int w)
{
	const struct trace *t = f->t;
	{
		uint32_t src = t->src[r];
		if (src != TRACE_NONE && t->ev[src].kind == TE_IN)
			return input(f, src, sgn, w);
		if (src != TRACE_NONE && formula_has_clause(t, src))
			return resize(f, var(f, src), sgn, w);
		return bv(f, t->ev[r].val, w);
	}
}

/* The result of a string comparison or length (strcmp, strlen, ...: the
 * runtime read the identities of its strings, sites cid + 2 and cid + 3)
 * as a function of those identities known at one point: the observed
 * result when each identity is the observed one, anything otherwise. NULL
 * when the call is not one of them. */
static Z3_ast string_result(struct formula *f, uint32_t c, int w)
{
	const struct trace *t = f->t;
	const struct msite *cs = tmeta_site(t->m, t->ev[c].id);
	static const char *fns[] = {"strcmp", "strncmp", "memcmp", "strlen"};
	int known = 0;
	for (size_t i = 0; cs && cs->name && i < sizeof(fns) / sizeof(fns[0]); i++)
		known |= !strcmp(cs->name, fns[i]);
	if (!known)
		return NULL;
	Z3_ast same[2];
	unsigned n = 0;
	for (unsigned k = 0; k < 2; k++) {
		const struct msite *rs = tmeta_site(t->m, t->ev[c].id + 2 + k);
		uint32_t r = rs && rs->kind == 'R' && rs->sid == cs->sid ?
			     trace_dep_find(t, c, TE_READ, t->ev[c].id + 2 + k) : TRACE_NONE;
		if (r == TRACE_NONE)
			continue;
		same[n++] = Z3_mk_eq(f->z, formula_read_value(f, r, 0, 64), bv(f, t->ev[r].val, 64));
	}
	if (!n)
		return NULL;
	return Z3_mk_ite(f->z, n == 1 ? same[0] : Z3_mk_and(f->z, n, same), bv(f, t->ev[c].val, w), fresh(f, w));
}

static Z3_ast fp_of(struct formula *f, Z3_ast a);
static Z3_ast fp_bits(struct formula *f, Z3_ast x);
static Z3_sort fp_sort(struct formula *f, int w);

/* The math library's functions whose results IEEE arithmetic gives
 * exactly (correctly rounded: what glibc returns), by name, float and long
 * forms included; the integer absolute values too. */
enum mathfn { M_NONE, M_SQRT, M_FABS, M_FLOOR, M_CEIL, M_ROUND, M_TRUNC, M_RINT, M_FMIN, M_FMAX, M_ABS };

static enum mathfn math_fn(const char *name, int *nargs)
{
	static const struct {
		const char *name;
		enum mathfn fn;
		int nargs;
	} fns[] = {
		{"sqrt", M_SQRT, 1}, {"fabs", M_FABS, 1}, {"floor", M_FLOOR, 1}, {"ceil", M_CEIL, 1},
		{"round", M_ROUND, 1}, {"trunc", M_TRUNC, 1}, {"rint", M_RINT, 1}, {"nearbyint", M_RINT, 1},
		{"fmin", M_FMIN, 2}, {"fmax", M_FMAX, 2},
	};
	if (!name)
		return M_NONE;
	if (!strcmp(name, "abs") || !strcmp(name, "labs") || !strcmp(name, "llabs")) {
		*nargs = 1;
		return M_ABS;
	}
	size_t len = strlen(name);
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		size_t l = strlen(fns[i].name);
		if (!strncmp(name, fns[i].name, l) && (len == l || (len == l + 1 && name[l] == 'f'))) {
			*nargs = fns[i].nargs;
			return fns[i].fn;
		}
	}
	return M_NONE;
}

/* The result of a call of the math library (math_fn) from its arguments
 * (the reads of call event c's context), of the call's type t; NULL when
 * the call is not one of them or an argument is not modelled. */
static Z3_ast math_result(struct formula *f, uint32_t c, const struct msite *cs, const struct mtype *t)
{
	int nargs = 0;
	enum mathfn fn = math_fn(cs ? cs->name : NULL, &nargs);
	if (fn == M_NONE || cs->nargs != nargs || (fn == M_ABS ? t->cls != 'i' : !is_fp(t)))
		return NULL;
	Z3_ast a[2] = {NULL, NULL};
	for (int k = 0; k < nargs; k++) {
		const struct mnode *arg = cs->args[k];
		if (!arg || !modelled(&arg->t) || !(a[k] = term(f, c, arg)))
			return NULL;
		a[k] = conv(f, a[k], &arg->t, t);
	}
	if (fn == M_ABS)
		return Z3_mk_ite(f->z, Z3_mk_bvslt(f->z, a[0], bv(f, 0, width(t))), Z3_mk_bvneg(f->z, a[0]), a[0]);
	Z3_ast x = fp_of(f, a[0]), y = nargs == 2 ? fp_of(f, a[1]) : NULL, v;
	f->fp_ops++;
	switch (fn) {
	case M_SQRT: v = Z3_mk_fpa_sqrt(f->z, Z3_mk_fpa_rne(f->z), x); break;
	case M_FABS: v = Z3_mk_fpa_abs(f->z, x); break;
	case M_FLOOR: v = Z3_mk_fpa_round_to_integral(f->z, Z3_mk_fpa_rtn(f->z), x); break;
	case M_CEIL: v = Z3_mk_fpa_round_to_integral(f->z, Z3_mk_fpa_rtp(f->z), x); break;
	case M_ROUND: v = Z3_mk_fpa_round_to_integral(f->z, Z3_mk_fpa_rna(f->z), x); break;
	case M_TRUNC: v = Z3_mk_fpa_round_to_integral(f->z, Z3_mk_fpa_rtz(f->z), x); break;
	case M_RINT: v = Z3_mk_fpa_round_to_integral(f->z, Z3_mk_fpa_rne(f->z), x); break;
	case M_FMIN: v = Z3_mk_fpa_min(f->z, x, y); break;
	case M_FMAX: v = Z3_mk_fpa_max(f->z, x, y); break;
	default: return NULL;
	}
	return fp_bits(f, v);
}

/* c: a call's result */
static Z3_ast call_result(struct formula *f, uint32_t owner, const struct mnode *n, int w)
{
	const struct trace *t = f->t;
	uint32_t c = trace_dep_find(t, owner, TE_CRET, (unsigned)n->v);
	if (c == TRACE_NONE || (!t->ev[c].size && t->src[c] == TRACE_NONE))
		return fresh(f, w);
	uint32_t ret = t->src[c];
	if (ret == TRACE_NONE) {
		Z3_ast sv = string_result(f, c, w);
		if (sv)
			return sv;
		const struct msite *cs = tmeta_site(t->m, t->ev[c].id);
		Z3_ast mv = math_result(f, c, cs, &n->t);
		if (mv)
			return resize(f, mv, n->t.cls == 'i', w);
	}
	if (ret != TRACE_NONE && t->ev[ret].kind == TE_IN)
		return input(f, ret, 1, w);
	if (ret != TRACE_NONE) {
		const struct msite *ts = tmeta_site(t->m, t->ev[ret].id);
		struct mtype rt = ts ? ts->t : n->t;
		if (modelled(&rt))
			return conv(f, var(f, ret), &rt, &n->t);
	}
	return bv(f, t->ev[c].val, w);
}

static int is_cmp(const char *s)
{
	return !strcmp(s, "<") || !strcmp(s, ">") || !strcmp(s, "<=") || !strcmp(s, ">=") || !strcmp(s, "==") ||
	       !strcmp(s, "!=");
}

static Z3_ast fp_binary(struct formula *f, uint32_t owner, const struct mnode *n);
static Z3_ast fp_unary(struct formula *f, Z3_ast a, const struct mnode *n);
static Z3_ast tnonzero(struct formula *f, Z3_ast a, const struct mtype *t);

static Z3_ast binary(struct formula *f, uint32_t owner, const struct mnode *n)
{
	const struct mnode *l = n->k[0], *r = n->k[1];
	const char *op = n->sym;
	int w = width(&n->t);
	if (!modelled(&n->t) || !modelled(&l->t) || !modelled(&r->t))
		return NULL;
	if (is_fp(&n->t) || is_fp(&l->t) || is_fp(&r->t))
		return fp_binary(f, owner, n);
	Z3_ast a = term(f, owner, l);
	if (!a)
		return NULL;
	Z3_ast b = term(f, owner, r);
	if (!b)
		return NULL;
	if (!strcmp(op, "&&") || !strcmp(op, "||")) {
		Z3_ast args[2] = {nonzero(f, a), nonzero(f, b)};
		return truth(f, op[0] == '&' ? Z3_mk_and(f->z, 2, args) : Z3_mk_or(f->z, 2, args), w);
	}
	if (!strcmp(op, ","))
		return conv(f, b, &r->t, &n->t);
	if (is_cmp(op)) {
		int cw = width(&l->t) > width(&r->t) ? width(&l->t) : width(&r->t);
		int sgn = l->t.cls == 'i' && r->t.cls == 'i';
		a = resize(f, a, l->t.cls == 'i', cw);
		b = resize(f, b, r->t.cls == 'i', cw);
		Z3_ast c;
		if (!strcmp(op, "=="))
			c = Z3_mk_eq(f->z, a, b);
		else if (!strcmp(op, "!="))
			c = Z3_mk_not(f->z, Z3_mk_eq(f->z, a, b));
		else if (!strcmp(op, "<"))
			c = sgn ? Z3_mk_bvslt(f->z, a, b) : Z3_mk_bvult(f->z, a, b);
		else if (!strcmp(op, ">"))
			c = sgn ? Z3_mk_bvsgt(f->z, a, b) : Z3_mk_bvugt(f->z, a, b);
		else if (!strcmp(op, "<="))
			c = sgn ? Z3_mk_bvsle(f->z, a, b) : Z3_mk_bvule(f->z, a, b);
		else
			c = sgn ? Z3_mk_bvsge(f->z, a, b) : Z3_mk_bvuge(f->z, a, b);
		return truth(f, c, w);
	}
	if (n->t.cls == 'p' || l->t.cls == 'p' || r->t.cls == 'p')
		return NULL;   /* pointer arithmetic scales: addresses stay concrete */
	int sgn = n->t.cls == 'i';
	a = conv(f, a, &l->t, &n->t);
	b = conv(f, b, &r->t, &n->t);
	if (f->no_overflow && sgn && (op[0] == '+' || op[0] == '-' || op[0] == '*')) {
		Z3_ast c[2];
		if (op[0] == '+') {
			c[0] = Z3_mk_bvadd_no_overflow(f->z, a, b, 1);
			c[1] = Z3_mk_bvadd_no_underflow(f->z, a, b);
		} else if (op[0] == '-') {
			c[0] = Z3_mk_bvsub_no_overflow(f->z, a, b);
			c[1] = Z3_mk_bvsub_no_underflow(f->z, a, b, 1);
		} else {
			c[0] = Z3_mk_bvmul_no_overflow(f->z, a, b, 1);
			c[1] = Z3_mk_bvmul_no_underflow(f->z, a, b);
		}
		if (f->nside + 2 > f->capside) {
			f->capside = f->capside ? 2 * f->capside + 2 : 16;
			f->side = xrealloc(f->side, f->capside * sizeof(*f->side));
		}
		f->side[f->nside++] = c[0];
		f->side[f->nside++] = c[1];
	}
	switch (op[0]) {
	case '+': return Z3_mk_bvadd(f->z, a, b);
	case '-': return Z3_mk_bvsub(f->z, a, b);
	case '*': return Z3_mk_bvmul(f->z, a, b);
	case '/': return sgn ? Z3_mk_bvsdiv(f->z, a, b) : Z3_mk_bvudiv(f->z, a, b);
	case '%': return sgn ? Z3_mk_bvsrem(f->z, a, b) : Z3_mk_bvurem(f->z, a, b);
	case '&': return Z3_mk_bvand(f->z, a, b);
	case '|': return Z3_mk_bvor(f->z, a, b);
	case '^': return Z3_mk_bvxor(f->z, a, b);
	case '<': return Z3_mk_bvshl(f->z, a, b);
	case '>': return sgn ? Z3_mk_bvashr(f->z, a, b) : Z3_mk_bvlshr(f->z, a, b);
	default: return NULL;
	}
}

static Z3_ast term(struct formula *f, uint32_t owner, const struct mnode *n)
{
	if (!n || !modelled(&n->t))
		return NULL;
	int w = width(&n->t);
	switch (n->op) {
	case 'k':
		return bv(f, n->v, w);
	case 'r': case 'w': case 'c':
		return leaf(f, owner, n);
	case 'x': {
		if (!modelled(&n->k[0]->t))
			return NULL;
		Z3_ast a = term(f, owner, n->k[0]);
		return a ? conv(f, a, &n->k[0]->t, &n->t) : NULL;
	}
	case 'u': {
		if (!modelled(&n->k[0]->t) || n->t.cls == 'p')
			return NULL;
		Z3_ast a = term(f, owner, n->k[0]);
		if (!a)
			return NULL;
		if (is_fp(&n->k[0]->t) || is_fp(&n->t))
			return fp_unary(f, a, n);
		if (n->sym[0] == '!')
			return truth(f, Z3_mk_not(f->z, nonzero(f, a)), w);
		a = conv(f, a, &n->k[0]->t, &n->t);
		if (n->sym[0] == '-')
			return Z3_mk_bvneg(f->z, a);
		if (n->sym[0] == '~')
			return Z3_mk_bvnot(f->z, a);
		return a;
	}
	case 'b':
		return binary(f, owner, n);
	case 'q': {
		if (!modelled(&n->k[0]->t) || !modelled(&n->k[1]->t) || !modelled(&n->k[2]->t))
			return NULL;
		Z3_ast c = term(f, owner, n->k[0]), a = c ? term(f, owner, n->k[1]) : NULL,
		       b = a ? term(f, owner, n->k[2]) : NULL;
		if (!b)
			return NULL;
		return Z3_mk_ite(f->z, tnonzero(f, c, &n->k[0]->t), conv(f, a, &n->k[1]->t, &n->t),
				 conv(f, b, &n->k[2]->t, &n->t));
	}
	default:
		return NULL;
	}
}

/* ------------------------------------------------------ floating point */

static Z3_sort fp_sort(struct formula *f, int w)
{
	return w == 32 ? Z3_mk_fpa_sort_single(f->z) : Z3_mk_fpa_sort_double(f->z);
}

/* The floating value whose IEEE bits are a (32 or 64 bits). */
static Z3_ast fp_of(struct formula *f, Z3_ast a)
{
	unsigned w = Z3_get_bv_sort_size(f->z, Z3_get_sort(f->z, a));
	return Z3_mk_fpa_to_fp_bv(f->z, a, fp_sort(f, (int)w));
}

static Z3_ast fp_bits(struct formula *f, Z3_ast x)
{
	return Z3_mk_fpa_to_ieee_bv(f->z, x);
}

/* Whether a value of type t is nonzero (C's truth: -0.0 and 0.0 are false). */
static Z3_ast tnonzero(struct formula *f, Z3_ast a, const struct mtype *t)
{
	if (!is_fp(t))
		return nonzero(f, a);
	return Z3_mk_not(f->z, Z3_mk_fpa_is_zero(f->z, fp_of(f, a)));
}

/* C's conversions to and from float and double: rounding to nearest, and
 * toward zero into an integer. */
static Z3_ast fp_conv(struct formula *f, Z3_ast a, const struct mtype *from, const struct mtype *to)
{
	Z3_ast rne = Z3_mk_fpa_rne(f->z);
	f->fp_ops++;
	if (is_fp(from) && is_fp(to)) {
		if (from->bits == to->bits)
			return a;
		return fp_bits(f, Z3_mk_fpa_to_fp_float(f->z, rne, fp_of(f, a), fp_sort(f, to->bits)));
	}
	if (is_fp(to)) {
		Z3_ast x = from->cls == 'i' ? Z3_mk_fpa_to_fp_signed(f->z, rne, a, fp_sort(f, to->bits))
					    : Z3_mk_fpa_to_fp_unsigned(f->z, rne, a, fp_sort(f, to->bits));
		return fp_bits(f, x);
	}
	if (to->cls == 'b')
		return truth(f, tnonzero(f, a, from), 8);
	Z3_ast rtz = Z3_mk_fpa_rtz(f->z);
	unsigned w = (unsigned)width(to);
	return to->cls == 'i' ? Z3_mk_fpa_to_sbv(f->z, rtz, fp_of(f, a), w) : Z3_mk_fpa_to_ubv(f->z, rtz, fp_of(f, a), w);
}

static Z3_ast fp_unary(struct formula *f, Z3_ast a, const struct mnode *n)
{
	const struct mtype *kt = &n->k[0]->t;
	if (n->sym[0] == '!')
		return truth(f, Z3_mk_not(f->z, tnonzero(f, a, kt)), width(&n->t));
	if (n->sym[0] != '-' && n->sym[0] != '+')
		return NULL;
	a = conv(f, a, kt, &n->t);
	if (n->sym[0] == '-' && is_fp(&n->t))
		return fp_bits(f, Z3_mk_fpa_neg(f->z, fp_of(f, a)));
	return n->sym[0] == '-' ? Z3_mk_bvneg(f->z, a) : a;
}

/* A binary operator with a floating operand or result. */
static Z3_ast fp_binary(struct formula *f, uint32_t owner, const struct mnode *n)
{
	const struct mnode *l = n->k[0], *r = n->k[1];
	const char *op = n->sym;
	Z3_ast a = term(f, owner, l);
	Z3_ast b = a ? term(f, owner, r) : NULL;
	if (!b)
		return NULL;
	int w = width(&n->t);
	if (!strcmp(op, "&&") || !strcmp(op, "||")) {
		Z3_ast args[2] = {tnonzero(f, a, &l->t), tnonzero(f, b, &r->t)};
		return truth(f, op[0] == '&' ? Z3_mk_and(f->z, 2, args) : Z3_mk_or(f->z, 2, args), w);
	}
	if (!strcmp(op, ","))
		return conv(f, b, &r->t, &n->t);
	/* The operands' common type: the wider floating one. */
	struct mtype ct = is_fp(&l->t) ? l->t : r->t;
	if (is_fp(&l->t) && is_fp(&r->t) && r->t.bits > l->t.bits)
		ct = r->t;
	if (!is_fp(&ct))
		return NULL;
	Z3_ast x = fp_of(f, conv(f, a, &l->t, &ct)), y = fp_of(f, conv(f, b, &r->t, &ct));
	if (is_cmp(op)) {
		Z3_ast c;
		if (!strcmp(op, "=="))
			c = Z3_mk_fpa_eq(f->z, x, y);
		else if (!strcmp(op, "!="))
			c = Z3_mk_not(f->z, Z3_mk_fpa_eq(f->z, x, y));
		else if (!strcmp(op, "<"))
			c = Z3_mk_fpa_lt(f->z, x, y);
		else if (!strcmp(op, ">"))
			c = Z3_mk_fpa_gt(f->z, x, y);
		else if (!strcmp(op, "<="))
			c = Z3_mk_fpa_leq(f->z, x, y);
		else
			c = Z3_mk_fpa_geq(f->z, x, y);
		return truth(f, c, w);
	}
	Z3_ast rne = Z3_mk_fpa_rne(f->z), v;
	f->fp_ops++;
	switch (op[0]) {
	case '+': v = Z3_mk_fpa_add(f->z, rne, x, y); break;
	case '-': v = Z3_mk_fpa_sub(f->z, rne, x, y); break;
	case '*': v = Z3_mk_fpa_mul(f->z, rne, x, y); break;
	case '/': v = Z3_mk_fpa_div(f->z, rne, x, y); break;
	default: return NULL;
	}
	return conv(f, fp_bits(f, v), &ct, &n->t);
}

/* Whether the tree is a string literal (through conversions). */
static int literal_of(const struct mnode *n)
{
	while (n && n->op == 'x')
		n = n->k[0];
	return n && n->op == 's';
}

/* The tree whose value event e (a write, return or parameter) records. */
static const struct mnode *clause_tree(const struct trace *t, uint32_t e, const struct msite *s)
{
	const struct tev *v = &t->ev[e];
	if (v->kind == TE_PARAM) {
		uint32_t enter = t->src[e], call = enter != TRACE_NONE ? t->src[enter] : TRACE_NONE;
		const struct msite *c = call != TRACE_NONE ? tmeta_site(t->m, t->ev[call].id) : NULL;
		return c && c->kind == 'C' && s->idx < c->nargs ? c->args[s->idx] : NULL;
	}
	return s->tree;
}

/* The clause of event e: its variable equals its expression, or (opaque)
 * its observed value. */
static Z3_ast clause(struct formula *f, uint32_t e, int *opaque)
{
	const struct trace *t = f->t;
	const struct tev *v = &t->ev[e];
	const struct msite *s = tmeta_site(t->m, v->id);
	Z3_ast x = var(f, e), rhs = NULL;
	int w = ev_width(v);
	if (s && v->kind == TE_WRITE && s->kind == 'W' && s->tree) {
		rhs = term(f, e, s->tree);
	} else if (s && v->kind == TE_RET && s->kind == 'T' && s->tree && modelled(&s->t)) {
		rhs = term(f, e, s->tree);
	} else if (s && v->kind == TE_PARAM && s->kind == 'P') {
		uint32_t enter = t->src[e], call = t->src[enter];
		const struct msite *c = tmeta_site(t->m, t->ev[call].id);
		const struct mnode *arg = c->args[s->idx];
		Z3_ast a = modelled(&arg->t) ? term(f, enter, arg) : NULL;
		if (a && modelled(&s->t))
			rhs = conv(f, a, &arg->t, &s->t);
	}
	if (!rhs && s && literal_of(clause_tree(t, e, s)))
		rhs = bv(f, v->val, w);   /* a string literal's address: a constant of the program */
	if (rhs && (int)Z3_get_bv_sort_size(f->z, Z3_get_sort(f->z, rhs)) != w)
		rhs = resize(f, rhs, 0, w);
	*opaque = rhs == NULL;
	if (!rhs)
		rhs = bv(f, v->val, w);
	return Z3_mk_eq(f->z, x, rhs);
}

/* ------------------------------------------------------------ expected */

static Z3_ast expected(struct formula *f, const struct expect *x)
{
	const struct trace *t = f->t;
	if (x->kind == EXPECT_FLIP) {
		const struct tev *b = &t->ev[x->ev];
		const struct msite *s = tmeta_site(t->m, b->id);
		if (!s || s->kind != 'B')
			return NULL;
		Z3_ast c = term(f, x->ev, s->tree);
		if (!c)
			return NULL;
		if (!strcmp(s->kindname, "switch"))
			return Z3_mk_not(f->z, Z3_mk_eq(f->z, c, bv(f, b->val, width(&s->tree->t))));
		return b->val ? Z3_mk_not(f->z, tnonzero(f, c, &s->tree->t)) : tnonzero(f, c, &s->tree->t);
	}
	if (x->kind == EXPECT_EVENT_EQ || x->kind == EXPECT_EVENT_NE) {
		Z3_ast v = var(f, x->ev);
		Z3_ast eq = Z3_mk_eq(f->z, v, bv(f, (unsigned long long)x->value, ev_width(&t->ev[x->ev])));
		return x->kind == EXPECT_EVENT_EQ ? eq : Z3_mk_not(f->z, eq);
	}
	if (!x->tree || !modelled(&x->tree->t) || is_fp(&x->tree->t))
		return NULL;
	Z3_ast a = term(f, x->ev, x->tree);
	if (!a)
		return NULL;
	int w = width(&x->tree->t);
	switch (x->kind) {
	case EXPECT_EQ:
		return Z3_mk_eq(f->z, a, bv(f, (unsigned long long)x->value, w));
	case EXPECT_NE:
		return Z3_mk_not(f->z, Z3_mk_eq(f->z, a, bv(f, (unsigned long long)x->value, w)));
	case EXPECT_NONZERO:
		return nonzero(f, a);
	case EXPECT_BOUNDS: {
		Z3_ast a64 = resize(f, a, x->tree->t.cls == 'i', 64);
		Z3_ast both[2] = {Z3_mk_bvsge(f->z, a64, bv(f, 0, 64)),
				  Z3_mk_bvslt(f->z, a64, bv(f, (unsigned long long)x->value, 64))};
		return Z3_mk_and(f->z, 2, both);
	}
	default:
		return NULL;
	}
}

static int ev_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* One tracked literal: a clause of an event, or the boundary fact "its
 * value is the observed one". */
struct lits {
	Z3_ast *lit, *body;
	uint32_t *ev;
	unsigned char *kind;    /* 0 clause, 1 clause that only restates the value, 2 boundary fact */
	unsigned char *on;      /* in the assumptions */
	size_t n, cap;
};

static void lit_add(struct formula *f, Z3_solver s, struct lits *l, uint32_t ev, int kind, Z3_ast body)
{
	char name[32];
	snprintf(name, sizeof(name), "%c%u", kind == 2 ? 'b' : 'a', ev);
	Z3_ast lit = Z3_mk_const(f->z, Z3_mk_string_symbol(f->z, name), Z3_mk_bool_sort(f->z));
	Z3_solver_assert(f->z, s, Z3_mk_implies(f->z, lit, body));
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->lit = xrealloc(l->lit, l->cap * sizeof(*l->lit));
		l->body = xrealloc(l->body, l->cap * sizeof(*l->body));
		l->ev = xrealloc(l->ev, l->cap * sizeof(*l->ev));
		l->kind = xrealloc(l->kind, l->cap);
		l->on = xrealloc(l->on, l->cap);
	}
	l->lit[l->n] = lit;
	l->body[l->n] = body;
	l->ev[l->n] = ev;
	l->kind[l->n] = (unsigned char)kind;
	l->on[l->n++] = 1;
}

/* Clauses for the queued events, `levels` deep: what they read is queued
 * in turn. */
static void expand(struct formula *f, Z3_solver s, struct lits *l, struct bits *added, int levels)
{
	const struct trace *t = f->t;
	for (int lv = 0; lv < levels && f->qhead < f->qtail; lv++) {
		size_t end = f->qtail;
		while (f->qhead < end) {
			uint32_t ev = f->queue[f->qhead++];
			if (bits_test(added, ev) || !formula_has_clause(t, ev))
				continue;
			bits_set(added, ev);
			int o = 0;
			Z3_ast c = clause(f, ev, &o);
			lit_add(f, s, l, ev, o, c);
		}
	}
}

#define CLAUSE_BUDGET 1024

/* A solver (referenced: the caller dec_refs it) that gives up after ms
 * milliseconds, minimizing its unsat cores when asked. */
static Z3_solver timed_solver(struct formula *f, unsigned ms, int minimize_cores)
{
	Z3_solver s = Z3_mk_solver(f->z);
	Z3_solver_inc_ref(f->z, s);
	Z3_params p = Z3_mk_params(f->z);
	Z3_params_inc_ref(f->z, p);
	if (minimize_cores)
		Z3_params_set_bool(f->z, p, Z3_mk_string_symbol(f->z, "core.minimize"), 1);
	Z3_params_set_uint(f->z, p, Z3_mk_string_symbol(f->z, "timeout"), ms);
	if (f->rlimit)
		Z3_params_set_uint(f->z, p, Z3_mk_string_symbol(f->z, "rlimit"), f->rlimit);
	Z3_solver_set_params(f->z, s, p);
	Z3_params_dec_ref(f->z, p);
	return s;
}

/* Shrink a core to a minimal one: its clauses alone, with Z3's core
 * minimization, within a time limit (past it the core stays as found). */
static void minimize(struct formula *f, Z3_ast *goal, size_t nx, const struct lits *l, uint32_t *cev,
		     unsigned char *ckind, size_t *nclauses, size_t *nboundary)
{
	size_t n = *nclauses + *nboundary;
	if (n <= 1 || n > 128)
		return;   /* a long chain's links are each needed: minimizing costs more than it gains */
	Z3_solver s = timed_solver(f, 10000, 1);
	Z3_solver_assert(f->z, s, nx == 1 ? goal[0] : Z3_mk_and(f->z, (unsigned)nx, goal));
	Z3_ast *as = xmalloc(n * sizeof(*as));
	size_t *idx = xmalloc(n * sizeof(*idx));
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < l->n; j++)
			if (l->ev[j] == cev[i] && (l->kind[j] == 2) == (ckind[i] == 2)) {
				idx[i] = j;
				break;
			}
		as[i] = l->lit[idx[i]];
		Z3_solver_assert(f->z, s, Z3_mk_implies(f->z, as[i], l->body[idx[i]]));
	}
	if (Z3_solver_check_assumptions(f->z, s, (unsigned)n, as) == Z3_L_FALSE) {
		Z3_ast_vector core = Z3_solver_get_unsat_core(f->z, s);
		Z3_ast_vector_inc_ref(f->z, core);
		unsigned k = Z3_ast_vector_size(f->z, core);
		size_t c = 0, b = 0;
		for (unsigned i = 0; i < k; i++) {
			Z3_ast a = Z3_ast_vector_get(f->z, core, i);
			for (size_t j = 0; j < n; j++)
				if (Z3_is_eq_ast(f->z, a, as[j])) {
					size_t at = c + b;
					cev[at] = l->ev[idx[j]];
					ckind[at] = l->kind[idx[j]];
					if (ckind[at] == 2)
						b++;
					else
						c++;
					break;
				}
		}
		*nclauses = c;
		*nboundary = b;
		Z3_ast_vector_dec_ref(f->z, core);
	}
	free(as);
	free(idx);
	Z3_solver_dec_ref(f->z, s);
}

int formula_cause(struct formula *f, const struct expect *xs, size_t nx, struct cause_result *out,
		  struct cerr *e)
{
	const struct trace *t = f->t;
	double t0 = now();
	memset(out, 0, sizeof(*out));
	bits_free(f->queued);
	f->queued = bits_new(t->n + 1);
	f->qhead = f->qtail = 0;

	Z3_ast goal[16];
	if (nx > 16)
		nx = 16;
	for (size_t i = 0; i < nx; i++) {
		goal[i] = expected(f, &xs[i]);
		if (!goal[i]) {
			out->why = xstrdup("the expected outcome cannot be modelled (opaque values)");
			return 0;
		}
	}
	Z3_solver s = timed_solver(f, 20000, 0);
	Z3_solver_assert(f->z, s, nx == 1 ? goal[0] : Z3_mk_and(f->z, (unsigned)nx, goal));

	/* Backwards from the expectation, in windows: the clauses of the
	 * events `levels` deep, and beyond them boundary facts (the observed
	 * values), so every check is decided. A core without boundary facts is
	 * the cause; otherwise the boundary events in it are expanded, twice
	 * as deep each time, within a budget of clauses. */
	struct lits l = {0};
	struct bits *added = bits_new(t->n + 1), *bounded = bits_new(t->n + 1);
	int levels = 4, rc = 0;
	Z3_ast *assume = NULL;
	for (;;) {
		expand(f, s, &l, added, levels);
		for (size_t i = f->qhead; i < f->qtail; i++) {
			uint32_t ev = f->queue[i];
			if (bits_test(added, ev) || bits_test(bounded, ev) || !formula_has_clause(t, ev))
				continue;
			bits_set(bounded, ev);
			const struct tev *v = &t->ev[ev];
			char name[32];
			snprintf(name, sizeof(name), "v%u", ev);
			Z3_ast x = Z3_mk_const(f->z, Z3_mk_string_symbol(f->z, name),
					       Z3_mk_bv_sort(f->z, (unsigned)ev_width(v)));
			lit_add(f, s, &l, ev, 2, Z3_mk_eq(f->z, x, bv(f, v->val, ev_width(v))));
		}
		assume = xrealloc(assume, (l.n + 1) * sizeof(*assume));
		unsigned na = 0;
		for (size_t i = 0; i < l.n; i++)
			if (l.on[i])
				assume[na++] = l.lit[i];
		out->checks++;
		Z3_lbool r = Z3_solver_check_assumptions(f->z, s, na, assume);
		if (Z3_get_error_code(f->z) != Z3_OK) {
			rc = cerr_set(e, "the solver failed: %s", Z3_get_error_msg(f->z, Z3_get_error_code(f->z)));
			break;
		}
		if (r == Z3_L_UNDEF) {
			out->why = xstrdup("the solver gave up (timeout)");
			break;
		}
		if (r == Z3_L_TRUE) {
			out->why = xstrdup("the trace does not force the failure here: the expected outcome is consistent "
					   "with it (values come from code the formula cannot model)");
			break;
		}
		Z3_ast_vector core = Z3_solver_get_unsat_core(f->z, s);
		Z3_ast_vector_inc_ref(f->z, core);
		unsigned k = Z3_ast_vector_size(f->z, core);
		size_t boundary = 0, clauses = 0;
		uint32_t *cev = xmalloc((k + 1) * sizeof(*cev));
		unsigned char *ckind = xmalloc(k + 1);
		for (unsigned i = 0; i < k; i++) {
			Z3_ast a = Z3_ast_vector_get(f->z, core, i);
			for (size_t j = 0; j < l.n; j++)
				if (Z3_is_eq_ast(f->z, a, l.lit[j])) {
					cev[clauses + boundary] = l.ev[j];
					ckind[clauses + boundary] = l.kind[j];
					boundary += l.kind[j] == 2;
					clauses += l.kind[j] != 2;
					break;
				}
		}
		Z3_ast_vector_dec_ref(f->z, core);
		size_t nadded = bits_count(added);
		if (boundary == 0 || nadded >= CLAUSE_BUDGET) {
			minimize(f, goal, nx, &l, cev, ckind, &clauses, &boundary);
			out->ev = xmalloc((clauses + boundary + 1) * sizeof(*out->ev));
			for (size_t i = 0; i < clauses + boundary; i++) {
				out->ev[out->n++] = cev[i];
				out->opaque += ckind[i] != 0;
			}
			out->boundary = boundary;
			qsort(out->ev, out->n, sizeof(*out->ev), ev_cmp);
			out->found = 1;
			free(cev);
			free(ckind);
			break;
		}
		/* Expand the boundary the core leans on. */
		f->qhead = f->qtail;
		for (size_t i = 0; i < clauses + boundary; i++)
			if (ckind[i] == 2) {
				for (size_t j = 0; j < l.n; j++)
					if (l.kind[j] == 2 && l.ev[j] == cev[i])
						l.on[j] = 0;
				bits_clear(f->queued, cev[i]);
				enqueue(f, cev[i]);
			}
		free(cev);
		free(ckind);
		levels *= 2;
	}
	out->clauses = bits_count(added);
	out->seconds = now() - t0;
	free(assume);
	free(l.lit);
	free(l.body);
	free(l.ev);
	free(l.kind);
	free(l.on);
	bits_free(added);
	bits_free(bounded);
	Z3_solver_dec_ref(f->z, s);
	return rc;
}

/* ------------------------------------------------------ concrete values */

static long long wrap(long long v, const struct mtype *t)
{
	int w = width(t);
	if (w <= 0 || w >= 64)
		return v;
	unsigned long long u = (unsigned long long)v & ((1ull << w) - 1);
	if (t->cls == 'i' && (u >> (w - 1)) & 1)
		u |= ~((1ull << w) - 1);
	return (long long)u;
}

int formula_eval(const struct trace *t, uint32_t owner, const struct mnode *n, long long *v)
{
	if (!n || !modelled(&n->t) || is_fp(&n->t))
		return -1;
	long long a = 0, b = 0, c = 0;
	switch (n->op) {
	case 'k':
		*v = wrap((long long)n->v, &n->t);
		return 0;
	case 'r': case 'w': case 'c': {
		int kind = n->op == 'r' ? TE_READ : n->op == 'w' ? TE_WRITE : TE_CRET;
		uint32_t r = trace_dep_find(t, owner, kind, (unsigned)n->v);
		if (r == TRACE_NONE || (kind == TE_CRET && !t->ev[r].size))
			return -1;
		*v = wrap((long long)t->ev[r].val, &n->t);
		return 0;
	}
	case 'x':
		if (formula_eval(t, owner, n->k[0], &a) < 0)
			return -1;
		*v = n->t.cls == 'b' ? a != 0 : wrap(a, &n->t);
		return 0;
	case 'u':
		if (formula_eval(t, owner, n->k[0], &a) < 0)
			return -1;
		*v = wrap(n->sym[0] == '-' ? -a : n->sym[0] == '~' ? ~a : n->sym[0] == '!' ? !a : a, &n->t);
		return 0;
	case 'q':
		if (formula_eval(t, owner, n->k[0], &c) < 0)
			return -1;
		if (formula_eval(t, owner, n->k[c ? 1 : 2], &a) < 0)
			return -1;
		*v = wrap(a, &n->t);
		return 0;
	case 'b': {
		const char *op = n->sym;
		if (formula_eval(t, owner, n->k[0], &a) < 0)
			return -1;
		if (!strcmp(op, "&&") && !a) {
			*v = 0;
			return 0;
		}
		if (!strcmp(op, "||") && a) {
			*v = 1;
			return 0;
		}
		if (formula_eval(t, owner, n->k[1], &b) < 0)
			return -1;
		int uns = n->k[0]->t.cls == 'u' || n->k[1]->t.cls == 'u' || n->k[0]->t.cls == 'p';
		unsigned long long ua = (unsigned long long)a, ub = (unsigned long long)b;
		long long r;
		if (!strcmp(op, "&&") || !strcmp(op, "||"))
			r = b != 0;
		else if (!strcmp(op, ","))
			r = b;
		else if (!strcmp(op, "=="))
			r = a == b;
		else if (!strcmp(op, "!="))
			r = a != b;
		else if (!strcmp(op, "<"))
			r = uns ? ua < ub : a < b;
		else if (!strcmp(op, ">"))
			r = uns ? ua > ub : a > b;
		else if (!strcmp(op, "<="))
			r = uns ? ua <= ub : a <= b;
		else if (!strcmp(op, ">="))
			r = uns ? ua >= ub : a >= b;
		else if (n->t.cls == 'p')
			return -1;
		else if (op[0] == '+')
			r = (long long)(ua + ub);
		else if (op[0] == '-')
			r = (long long)(ua - ub);
		else if (op[0] == '*')
			r = (long long)(ua * ub);
		else if (op[0] == '/' || op[0] == '%') {
			if (b == 0)
				return -1;
			if (n->t.cls == 'u')
				r = (long long)(op[0] == '/' ? ua / ub : ua % ub);
			else if (b == -1)
				r = op[0] == '/' ? (long long)(0 - ua) : 0;
			else
				r = op[0] == '/' ? a / b : a % b;
		} else if (op[0] == '&')
			r = a & b;
		else if (op[0] == '|')
			r = a | b;
		else if (op[0] == '^')
			r = a ^ b;
		else if (!strcmp(op, "<<"))
			r = b >= 0 && b < 64 ? (long long)(ua << b) : 0;
		else if (!strcmp(op, ">>"))
			r = b >= 0 && b < 64 ? (n->t.cls == 'u' ? (long long)(ua >> b) : a >> b) : 0;
		else
			return -1;
		*v = wrap(r, &n->t);
		return 0;
	}
	default:
		return -1;
	}
}

/* ------------------------------------------------------- for core/comss */

void formula_begin(struct formula *f)
{
	bits_free(f->queued);
	f->queued = bits_new(f->t->n + 1);
	f->qhead = f->qtail = 0;
	f->nside = 0;
}

int formula_pop(struct formula *f, uint32_t *e)
{
	while (f->qhead < f->qtail) {
		uint32_t ev = f->queue[f->qhead++];
		if (formula_has_clause(f->t, ev)) {
			*e = ev;
			return 1;
		}
	}
	return 0;
}

Z3_ast formula_var(struct formula *f, uint32_t e)
{
	return var(f, e);
}

Z3_ast formula_clause_body(struct formula *f, uint32_t e, int *opaque)
{
	return clause(f, e, opaque);
}

Z3_ast formula_branch_cond(struct formula *f, uint32_t b)
{
	struct expect x = {EXPECT_FLIP, b, NULL, 0};
	Z3_ast flip = expected(f, &x);   /* the other outcome */
	if (!flip)
		return NULL;
	const struct tev *v = &f->t->ev[b];
	const struct msite *s = tmeta_site(f->t->m, v->id);
	/* if: the condition is nonzero; switch: it equals the value taken. */
	if (s && s->kindname && !strcmp(s->kindname, "switch"))
		return Z3_mk_not(f->z, flip);
	return v->val ? Z3_mk_not(f->z, flip) : flip;
}

Z3_ast formula_expect(struct formula *f, const struct expect *x)
{
	return expected(f, x);
}

Z3_ast formula_fresh(struct formula *f, int w)
{
	return fresh(f, w);
}

/* ------------------------------------------------------------ generation */

void flips_release(struct flips *fl)
{
	for (size_t i = 0; i < fl->n; i++) {
		free(fl->v[i].in);
		free(fl->v[i].val);
	}
	free(fl->v);
	memset(fl, 0, sizeof(*fl));
}

/* Assert the clauses of everything queued (definitions: always true of the run). */
static size_t assert_queued(struct formula *f, Z3_solver s, struct bits *added)
{
	size_t n = 0;
	while (f->qhead < f->qtail) {
		uint32_t ev = f->queue[f->qhead++];
		if (bits_test(added, ev) || !formula_has_clause(f->t, ev))
			continue;
		bits_set(added, ev);
		int o = 0;
		Z3_solver_assert(f->z, s, clause(f, ev, &o));
		n++;
	}
	return n;
}

#define NPREF 3   /* preferences an input has: keep its value, stay near it, be tame */
#define TAME_INT 1000   /* a tame number's bound */

/* What the inputs can be: getchar gives a byte or EOF; a line from fgets
 * holds no NUL and no newline before its end. */
/* Whether input event e is a float or double read (its range record says
 * a floating conversion: scanf's %f family, strtod, atof). */
static int input_is_fp(const struct trace *t, uint32_t e)
{
	const struct tev *v = &t->ev[e];
	if (v->aux != TIN_ARGINT && v->aux != TIN_STDINT)
		return 0;
	for (uint32_t k = e; k-- > 0 && e - k < 4;)
		if (t->ev[k].kind == TE_ARG && t->ev[k].id == 0xffffff01u)
			return strchr("fFeEgGaA", (char)t->ev[k].size) && (v->size == 4 || v->size == 8);
	return 0;
}

/* A floating input's domain: a number (not NaN, not infinite); near its
 * value (within 64), and tame (whole, within 1000) when it was. */
static void fp_domain(struct formula *f, Z3_solver s, Z3_ast x, const struct tev *v, Z3_ast pref[NPREF])
{
	int w = input_width(v);
	Z3_sort so = fp_sort(f, w);
	Z3_ast fx = fp_of(f, x), fv = fp_of(f, bv(f, v->val, w));
	Z3_solver_assert(f->z, s, Z3_mk_not(f->z, Z3_mk_fpa_is_nan(f->z, fx)));
	Z3_solver_assert(f->z, s, Z3_mk_not(f->z, Z3_mk_fpa_is_infinite(f->z, fx)));
	Z3_solver_assert(f->z, s, Z3_mk_implies(f->z, pref[0], Z3_mk_eq(f->z, x, bv(f, v->val, w))));
	Z3_ast rne = Z3_mk_fpa_rne(f->z);
	Z3_ast d = Z3_mk_fpa_abs(f->z, Z3_mk_fpa_sub(f->z, rne, fx, fv));
	Z3_solver_assert(f->z, s, Z3_mk_implies(f->z, pref[1], Z3_mk_fpa_leq(f->z, d, Z3_mk_fpa_numeral_double(f->z, 64, so))));
	double o;
	if (w == 32) {
		unsigned u32 = (unsigned)v->val;
		float fl;
		memcpy(&fl, &u32, 4);
		o = fl;
	} else {
		unsigned long long u = v->val;
		memcpy(&o, &u, 8);
	}
	if (o == (double)(long long)o && o >= -TAME_INT && o <= TAME_INT) {
		Z3_ast t[3] = {Z3_mk_fpa_eq(f->z, Z3_mk_fpa_round_to_integral(f->z, Z3_mk_fpa_rtz(f->z), fx), fx),
			       Z3_mk_fpa_geq(f->z, fx, Z3_mk_fpa_numeral_double(f->z, -TAME_INT, so)),
			       Z3_mk_fpa_leq(f->z, fx, Z3_mk_fpa_numeral_double(f->z, TAME_INT, so))};
		Z3_solver_assert(f->z, s, Z3_mk_implies(f->z, pref[2], Z3_mk_and(f->z, 3, t)));
	}
}

static void input_domain(struct formula *f, Z3_solver s, uint32_t e, Z3_ast pref[NPREF])
{
	const struct tev *v = &f->t->ev[e];
	char name[32];
	snprintf(name, sizeof(name), "in%u", e);
	int w = input_width(v);
	Z3_ast x = Z3_mk_const(f->z, Z3_mk_string_symbol(f->z, name), Z3_mk_bv_sort(f->z, (unsigned)w));
	if (input_is_fp(f->t, e)) {
		static const char *const fname[NPREF] = {"pin", "near", "tame"};
		for (int k = 0; k < NPREF; k++) {
			snprintf(name, sizeof(name), "%s%u", fname[k], e);
			pref[k] = Z3_mk_const(f->z, Z3_mk_string_symbol(f->z, name), Z3_mk_bool_sort(f->z));
		}
		fp_domain(f, s, x, v, pref);
		return;
	}
	/* Preferences, as assumptions: the input keeps its value; a number
	 * stays near it; a byte is printable (a tab or newline in standard
	 * input, EOF from getchar) and a number modest, so that a generated
	 * test reads well. */
	static const char *const pname[NPREF] = {"pin", "near", "tame"};
	for (int k = 0; k < NPREF; k++) {
		snprintf(name, sizeof(name), "%s%u", pname[k], e);
		pref[k] = Z3_mk_const(f->z, Z3_mk_string_symbol(f->z, name), Z3_mk_bool_sort(f->z));
	}
	Z3_solver_assert(f->z, s, Z3_mk_implies(f->z, pref[0], Z3_mk_eq(f->z, x, bv(f, v->val, w))));
	Z3_ast d = Z3_mk_bvsub(f->z, x, bv(f, v->val, w));
	Z3_ast around[2] = {Z3_mk_bvsge(f->z, d, bv(f, (unsigned long long)-64, w)),
			    Z3_mk_bvsle(f->z, d, bv(f, 64, w))};
	Z3_solver_assert(f->z, s, Z3_mk_implies(f->z, pref[1], Z3_mk_and(f->z, 2, around)));
	long long o = w < 64 && (v->val >> (w - 1)) & 1 ? (long long)(v->val | ~((1ull << w) - 1)) : (long long)v->val;
	/* Tame: printable, or an argument's terminating NUL; in standard input
	 * a tab, a newline or EOF too. A byte the run had otherwise stays free. */
	int arg = v->aux == TIN_ARGBYTE;
	int tame_now = (o >= ' ' && o <= '~') || (arg && o == 0) ||
		       (v->aux == TIN_STDBYTE && (o == '\n' || o == '\t' || o == -1));
	if ((arg || v->aux == TIN_STDBYTE) && tame_now) {
		Z3_ast range[2] = {Z3_mk_bvsge(f->z, x, bv(f, ' ', w)), Z3_mk_bvsle(f->z, x, bv(f, '~', w))};
		Z3_ast tame[4] = {Z3_mk_and(f->z, 2, range), Z3_mk_eq(f->z, x, bv(f, 0, w)),
				  Z3_mk_eq(f->z, x, bv(f, '\n', w)), Z3_mk_eq(f->z, x, bv(f, '\t', w))};
		if (!arg) {
			tame[1] = Z3_mk_eq(f->z, x, bv(f, (unsigned long long)-1, w));
			Z3_solver_assert(f->z, s, Z3_mk_implies(f->z, pref[2], Z3_mk_or(f->z, 4, tame)));
		} else {
			Z3_solver_assert(f->z, s, Z3_mk_implies(f->z, pref[2], Z3_mk_or(f->z, 2, tame)));
		}
	} else if ((v->aux == TIN_ARGINT || v->aux == TIN_STDINT) && o >= -TAME_INT && o <= TAME_INT) {
		/* A number: modest, as a person would write it. */
		Z3_ast range[2] = {Z3_mk_bvsge(f->z, x, bv(f, (unsigned long long)-TAME_INT, w)),
				   Z3_mk_bvsle(f->z, x, bv(f, TAME_INT, w))};
		Z3_solver_assert(f->z, s, Z3_mk_implies(f->z, pref[2], Z3_mk_and(f->z, 2, range)));
	}
	if (v->aux == TIN_STDBYTE && !v->addr) {
		Z3_ast r[2] = {Z3_mk_bvsge(f->z, x, bv(f, (unsigned long long)-1, w)),
			       Z3_mk_bvsle(f->z, x, bv(f, 255, w))};
		Z3_solver_assert(f->z, s, Z3_mk_and(f->z, 2, r));
	} else if (v->aux == TIN_STDBYTE) {
		Z3_solver_assert(f->z, s, Z3_mk_not(f->z, Z3_mk_eq(f->z, x, bv(f, 0, w))));
		if (v->val != '\n')
			Z3_solver_assert(f->z, s, Z3_mk_not(f->z, Z3_mk_eq(f->z, x, bv(f, '\n', w))));
	}
}

/* Record the model's values of the formula's inputs as a solution. */
static void record_model(struct formula *f, Z3_model m, uint32_t branch, uint32_t varied, struct flips *out, size_t *cap)
{
	const struct trace *t = f->t;
	if (out->n == *cap) {
		*cap = *cap ? 2 * *cap : 8;
		out->v = xrealloc(out->v, *cap * sizeof(*out->v));
	}
	struct flip *fl = &out->v[out->n++];
	fl->branch = branch;
	fl->varied = varied;
	fl->n = 0;
	fl->in = xmalloc((f->ninputs + 1) * sizeof(*fl->in));
	fl->val = xmalloc((f->ninputs + 1) * sizeof(*fl->val));
	for (size_t k = 0; k < f->ninputs; k++) {
		uint32_t ev = f->inputs[k];
		int w = input_width(&t->ev[ev]);
		char name[32];
		snprintf(name, sizeof(name), "in%u", ev);
		Z3_ast var_ = Z3_mk_const(f->z, Z3_mk_string_symbol(f->z, name), Z3_mk_bv_sort(f->z, (unsigned)w));
		Z3_ast val = NULL;
		uint64_t u;
		if (!Z3_model_eval(f->z, m, var_, 1, &val) || !Z3_get_numeral_uint64(f->z, val, &u))
			continue;
		long long sv = (long long)u;
		if (w < 64 && (u >> (w - 1)) & 1 && (t->ev[ev].aux == TIN_ARGINT || t->ev[ev].aux == TIN_STDINT ||
						     (t->ev[ev].aux == TIN_STDBYTE && !t->ev[ev].addr)))
			sv = (long long)(u | ~((1ull << w) - 1));
		fl->in[fl->n] = ev;
		fl->val[fl->n++] = sv;
	}
}

/* Whether input event e can take other values in a generated test: a
 * number read (modelled), or a byte when numbers is 0. */
static int variable_input(const struct tev *v, int numbers)
{
	if (v->kind != TE_IN)
		return 0;
	if (v->aux == TIN_ARGINT || (v->aux == TIN_STDINT && v->id != ~0u))
		return numbers;
	return !numbers && (v->aux == TIN_ARGBYTE || v->aux == TIN_STDBYTE);
}

/* Check with the preferences as assumptions, all on at first: keep the
 * other inputs as they were where the path allows, dropping the
 * preferences an unsat core names (the strongest kind first: keeping a
 * value, then staying near, then tame; the overflow guard last), and try
 * again. */
static Z3_lbool solve_relaxed(struct formula *f, Z3_solver s, Z3_ast *prefs, unsigned char *on, size_t domained,
			      Z3_ast noov, size_t *checks)
{
	if (domained)
		memset(on, 1, NPREF * domained);
	int noov_on = 1;
	Z3_lbool r = Z3_L_UNDEF;
	for (int tries = 0; tries < 12; tries++) {
		Z3_ast *as = xmalloc((NPREF * domained + 2) * sizeof(*as));
		unsigned na = 0;
		if (noov_on)
			as[na++] = noov;
		for (size_t k = 0; k < NPREF * domained; k++)
			if (on[k])
				as[na++] = prefs[k];
		(*checks)++;
		r = Z3_solver_check_assumptions(f->z, s, na, as);
		free(as);
		if (r != Z3_L_FALSE || na == 0)
			break;
		Z3_ast_vector core = Z3_solver_get_unsat_core(f->z, s);
		Z3_ast_vector_inc_ref(f->z, core);
		unsigned kc = Z3_ast_vector_size(f->z, core);
		size_t nnamed = 0;
		int kind = NPREF;
		for (unsigned c = 0; c < kc; c++)
			for (size_t k = 0; k < NPREF * domained; k++)
				if (on[k] && Z3_is_eq_ast(f->z, Z3_ast_vector_get(f->z, core, c), prefs[k])) {
					if ((int)(k % NPREF) < kind)
						kind = (int)(k % NPREF);
					break;
				}
		for (unsigned c = 0; c < kc; c++)
			for (size_t k = (size_t)kind; k < NPREF * domained; k += NPREF)
				if (Z3_is_eq_ast(f->z, Z3_ast_vector_get(f->z, core, c), prefs[k])) {
					on[k] = 0;
					nnamed++;
				}
		if (nnamed == 0 && noov_on)
			for (unsigned c = 0; c < kc; c++)
				if (Z3_is_eq_ast(f->z, Z3_ast_vector_get(f->z, core, c), noov)) {
					noov_on = 0;
					nnamed++;
				}
		Z3_ast_vector_dec_ref(f->z, core);
		if (nnamed == 0)
			break;
	}
	return r;
}

/* ------------------------------------------------ guessing, when slow */

/* A path condition over floating-point numbers can take the solver longer
 * than its limit (each product or quotient of doubles is a large circuit).
 * Then values are guessed instead: the numbers the formula reads take
 * values near their own or small round ones, and each guess is checked by
 * evaluating the solver's assertions under it, which costs microseconds.
 * A guess that holds is a model like the solver's; the run checks it. */
#define GUESSES 4000

/* The value of number input ev as a double (its bits for float and double). */
static double input_number(const struct trace *t, uint32_t ev)
{
	const struct tev *v = &t->ev[ev];
	int w = input_width(v);
	if (input_is_fp(t, ev) && w == 32) {
		unsigned u32 = (unsigned)v->val;
		float fl;
		memcpy(&fl, &u32, 4);
		return fl;
	}
	if (input_is_fp(t, ev)) {
		unsigned long long u = v->val;
		double d;
		memcpy(&d, &u, 8);
		return d;
	}
	return (double)trace_value(v, 1);
}

/* The bits input ev holds when its number is x (rounded toward zero for an integer). */
static unsigned long long number_bits(const struct trace *t, uint32_t ev, double x)
{
	int w = input_width(&t->ev[ev]);
	if (input_is_fp(t, ev) && w == 32) {
		float fl = (float)x;
		unsigned u32;
		memcpy(&u32, &fl, 4);
		return u32;
	}
	if (input_is_fp(t, ev)) {
		unsigned long long u;
		memcpy(&u, &x, 8);
		return u;
	}
	if (x > 9e18 || x < -9e18)
		x = 0;
	return (unsigned long long)(long long)x;
}

/* The k-th value tried for a number that was o: steps away from it, then
 * its double, half and negation, then small round numbers. */
static int guess_value(double o, unsigned k, double *x)
{
	static const double step[] = {1, -1, 2, -2, 0.5, -0.5, 5, -5, 10, -10, 50, -50, 64, -64, 100, -100};
	static const double round_[] = {0, 1, 2, 3, 4, 5, 7, 10, 20, 50, 100, 1000, -1, -2, -10};
	size_t ns = sizeof(step) / sizeof(step[0]), nr = sizeof(round_) / sizeof(round_[0]);
	if (k < ns)
		*x = o + step[k];
	else if (k < ns + 3)
		*x = k == ns ? 2 * o : k == ns + 1 ? o / 2 : -o;
	else if (k < ns + 3 + nr)
		*x = round_[k - ns - 3];
	else
		return 0;
	return 1;
}

/* A clause v_e = rhs among the solver's assertions: in a guess, v_e takes
 * rhs's value (events in trace order: a clause reads earlier ones only). */
struct def {
	uint32_t e;
	Z3_func_decl d;
	Z3_ast rhs;
};

static int def_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct def *)a)->e, y = ((const struct def *)b)->e;
	return x < y ? -1 : x > y;
}

/* Whether assertion a is a clause v_e = rhs; its parts into d. */
static int def_of(struct formula *f, Z3_ast a, struct def *d)
{
	if (Z3_get_ast_kind(f->z, a) != Z3_APP_AST)
		return 0;
	Z3_app app = Z3_to_app(f->z, a);
	if (Z3_get_decl_kind(f->z, Z3_get_app_decl(f->z, app)) != Z3_OP_EQ || Z3_get_app_num_args(f->z, app) != 2)
		return 0;
	Z3_ast x = Z3_get_app_arg(f->z, app, 0);
	if (Z3_get_ast_kind(f->z, x) != Z3_APP_AST || Z3_get_app_num_args(f->z, Z3_to_app(f->z, x)) != 0)
		return 0;
	Z3_func_decl dx = Z3_get_app_decl(f->z, Z3_to_app(f->z, x));
	if (Z3_get_decl_kind(f->z, dx) != Z3_OP_UNINTERPRETED)
		return 0;
	const char *name = Z3_get_symbol_string(f->z, Z3_get_decl_name(f->z, dx));
	size_t tl = strlen(f->tag);
	unsigned e;
	int used = 0;
	if (strncmp(name, f->tag, tl) || sscanf(name + tl, "v%u%n", &e, &used) != 1 || name[tl + (size_t)used])
		return 0;
	*d = (struct def){e, dx, Z3_get_app_arg(f->z, app, 1)};
	return 1;
}

/* A model of the inputs: number input k (of f->inputs) has value vals[k],
 * the others their own, each clause's variable its value from them;
 * preferences off, no overflow wanted. */
static Z3_model guess_model(struct formula *f, const double *vals, Z3_ast noov, const struct def *defs, size_t ndefs)
{
	const struct trace *t = f->t;
	Z3_model m = Z3_mk_model(f->z);
	Z3_model_inc_ref(f->z, m);
	for (size_t k = 0; k < f->ninputs; k++) {
		uint32_t ev = f->inputs[k];
		int w = input_width(&t->ev[ev]);
		char name[32];
		snprintf(name, sizeof(name), "in%u", ev);
		Z3_func_decl d = Z3_mk_func_decl(f->z, Z3_mk_string_symbol(f->z, name), 0, NULL,
						 Z3_mk_bv_sort(f->z, (unsigned)w));
		unsigned long long u = variable_input(&t->ev[ev], 1) ? number_bits(t, ev, vals[k]) : t->ev[ev].val;
		Z3_add_const_interp(f->z, m, d, bv(f, u, w));
	}
	Z3_add_const_interp(f->z, m, Z3_get_app_decl(f->z, Z3_to_app(f->z, noov)), Z3_mk_true(f->z));
	for (size_t i = 0; i < ndefs; i++) {
		Z3_ast v = NULL;
		if (Z3_model_eval(f->z, m, defs[i].rhs, 1, &v) && v)
			Z3_add_const_interp(f->z, m, defs[i].d, v);
	}
	return m;
}

/* Whether the assertions hold under m (free variables at Z3's defaults). */
static int holds(struct formula *f, Z3_ast all, Z3_model m)
{
	Z3_ast v = NULL;
	return Z3_model_eval(f->z, m, all, 1, &v) && v && Z3_get_bool_value(f->z, v) == Z3_L_TRUE;
}

/* The model of the guessed values when the assertions hold in it, else NULL. */
static Z3_model guess_try(struct formula *f, const double *vals, Z3_ast noov, const struct def *defs, size_t ndefs,
			  Z3_ast all)
{
	Z3_model m = guess_model(f, vals, noov, defs, ndefs);
	if (holds(f, all, m))
		return m;
	Z3_model_dec_ref(f->z, m);
	return NULL;
}

/* Guess values of the number inputs that satisfy the solver's assertions:
 * first one input moved at a time, then several at once (a fixed
 * pseudo-random sequence, so runs repeat), for at most GUESS_SECONDS. A
 * model (referenced), or NULL. */
#define GUESS_SECONDS 2.0
static Z3_model guess(struct formula *f, Z3_solver s, Z3_ast noov)
{
	const struct trace *t = f->t;
	size_t n = f->ninputs, nnum = 0;
	for (size_t k = 0; k < n; k++)
		nnum += variable_input(&t->ev[f->inputs[k]], 1);
	if (!nnum)
		return NULL;
	double t0 = now();
	Z3_ast_vector av = Z3_solver_get_assertions(f->z, s);
	Z3_ast_vector_inc_ref(f->z, av);
	unsigned na = Z3_ast_vector_size(f->z, av);
	Z3_ast *as = xmalloc((na + 1) * sizeof(*as));
	struct def *defs = xmalloc((na + 1) * sizeof(*defs));
	size_t ndefs = 0;
	for (unsigned i = 0; i < na; i++) {
		as[i] = Z3_ast_vector_get(f->z, av, i);
		ndefs += def_of(f, as[i], &defs[ndefs]);
	}
	qsort(defs, ndefs, sizeof(*defs), def_cmp);
	Z3_ast all = na ? Z3_mk_and(f->z, na, as) : Z3_mk_true(f->z);
	Z3_inc_ref(f->z, all);
	free(as);
	double *own = xmalloc(n * sizeof(*own)), *vals = xmalloc(n * sizeof(*vals));
	for (size_t k = 0; k < n; k++)
		own[k] = vals[k] = variable_input(&t->ev[f->inputs[k]], 1) ? input_number(t, f->inputs[k]) : 0;
	Z3_model found = NULL;
	unsigned tries = 0, seed = 12345;
	for (size_t k = 0; k < n && !found; k++) {
		double x;
		if (!variable_input(&t->ev[f->inputs[k]], 1))
			continue;
		for (unsigned j = 0; guess_value(own[k], j, &x) && !found && tries < GUESSES; j++, tries++) {
			vals[k] = x;
			found = guess_try(f, vals, noov, defs, ndefs, all);
		}
		vals[k] = own[k];
	}
	while (!found && tries++ < GUESSES && now() - t0 < GUESS_SECONDS) {
		for (size_t k = 0; k < n; k++) {
			double x = own[k];
			seed = seed * 1103515245u + 12345u;
			if ((seed >> 16) & 1)
				(void)guess_value(own[k], (seed >> 17) % 34, &x);
			vals[k] = x;
		}
		found = guess_try(f, vals, noov, defs, ndefs, all);
	}
	free(own);
	free(vals);
	free(defs);
	Z3_dec_ref(f->z, all);
	Z3_ast_vector_dec_ref(f->z, av);
	return found;
}

/* Assert what the walk queued since the last call, and give the new
 * inputs their domains and preferences. */
static void catch_up(struct formula *f, Z3_solver s, struct bits *added, Z3_ast noov, size_t *sided, size_t *domained,
		     size_t *cap_pref, Z3_ast **prefs, unsigned char **on, struct flips *out)
{
	out->clauses += assert_queued(f, s, added);
	for (; *sided < f->nside; (*sided)++)
		Z3_solver_assert(f->z, s, Z3_mk_implies(f->z, noov, f->side[*sided]));
	for (; *domained < f->ninputs; (*domained)++) {
		if (*domained == *cap_pref) {
			*cap_pref = *cap_pref ? 2 * *cap_pref : 16;
			*prefs = xrealloc(*prefs, NPREF * *cap_pref * sizeof(**prefs));
			*on = xrealloc(*on, NPREF * *cap_pref);
		}
		input_domain(f, s, f->inputs[*domained], &(*prefs)[NPREF * *domained]);
	}
}

/* The solving of one path condition's negations stops after this long (a
 * check already started ends at its own 5 s limit): floating-point paths
 * can take the solver seconds a check, and a round has others to run. */
#define FLIPS_SECONDS 20.0

/* A path whose prefix holds more floating-point operations than this is
 * not solved past that point: each is a circuit of thousands of clauses,
 * and the solver's time limit does not bound building them (a loop of
 * divisions took minutes and gigabytes in one check, where a few dozen
 * operations take seconds). */
#define FP_OPS_MAX 128

/* A model of the solver's assertions with the other inputs kept where
 * the path allows (solve_relaxed): once a check of this path ran out of
 * time (*slow), guessed first. *m is NULL when none was found; -1 when
 * the solver failed. */
static int path_model(struct formula *f, Z3_solver s, Z3_ast *prefs, unsigned char *on, size_t domained, Z3_ast noov,
		      int *slow, size_t *checks, Z3_model *m, struct cerr *e)
{
	*m = *slow ? guess(f, s, noov) : NULL;
	Z3_lbool r = *m ? Z3_L_TRUE : solve_relaxed(f, s, prefs, on, domained, noov, checks);
	if (Z3_get_error_code(f->z) != Z3_OK)
		return cerr_set(e, "the solver failed: %s", Z3_get_error_msg(f->z, Z3_get_error_code(f->z)));
	if (r == Z3_L_UNDEF && !*slow) {
		*slow = 1;
		*m = guess(f, s, noov);
	} else if (r == Z3_L_TRUE && !*m) {
		*m = Z3_solver_get_model(f->z, s);
		Z3_model_inc_ref(f->z, *m);
	}
	return 0;
}

static int flips_run(struct formula *f, const uint32_t *br, size_t nbr, const unsigned char *want, size_t max_checks,
		     size_t per_input, struct flips *out, struct cerr *e)
{
	const struct trace *t = f->t;
	double t0 = now();
	memset(out, 0, sizeof(*out));
	bits_free(f->queued);
	f->queued = bits_new(t->n + 1);
	f->qhead = f->qtail = 0;
	f->ninputs = 0;
	f->fp_ops = 0;
	Z3_solver s = timed_solver(f, 5000, 0);
	struct bits *added = bits_new(t->n + 1);
	size_t domained = 0, cap = 0, cap_pref = 0, sided = 0, walked = 0;
	/* One more preference: no signed overflow on the way (an input that
	 * gets its way by undefined behaviour is not a test anyone wants). */
	f->no_overflow = 1;
	f->nside = 0;
	Z3_ast noov = Z3_mk_const(f->z, Z3_mk_string_symbol(f->z, "noov"), Z3_mk_bool_sort(f->z));
	Z3_ast *prefs = NULL;
	unsigned char *on = NULL;
	int rc = 0, slow = 0;   /* slow: a check ran out of time */
	for (size_t i = 0; i < nbr && out->checks < max_checks && now() - t0 < FLIPS_SECONDS; i++) {
		struct expect x = {EXPECT_FLIP, br[i], NULL, 0};
		Z3_ast flip = expected(f, &x);
		if (!flip) {
			walked = i + 1;
			continue;   /* an opaque condition: the run's values decide it */
		}
		catch_up(f, s, added, noov, &sided, &domained, &cap_pref, &prefs, &on, out);
		if (f->fp_ops > FP_OPS_MAX) {
			out->capped = 1;   /* the solver is not asked: its later branches stay as they ran */
			break;
		}
		if (want[i]) {
			Z3_solver_push(f->z, s);
			Z3_solver_assert(f->z, s, flip);
			Z3_model m;
			if ((rc = path_model(f, s, prefs, on, domained, noov, &slow, &out->checks, &m, e)) < 0)
				break;
			if (m) {
				record_model(f, m, br[i], TRACE_NONE, out, &cap);
				Z3_model_dec_ref(f->z, m);
			}
			Z3_solver_pop(f->z, s, 1);
		}
		Z3_solver_assert(f->z, s, Z3_mk_not(f->z, flip));   /* the prefix: as it ran */
		walked = i + 1;
	}
	/* The same path with other values: for each input the run read (its
	 * numbers; its bytes when it read no number), models of the whole
	 * path with that input unlike its value and every value found for it
	 * before. Straight-line code, or a branch no input can turn, has no
	 * branch to negate; its inputs can still differ. */
	for (int numbers = 1; per_input && rc == 0 && walked == nbr && numbers >= 0 && out->n == 0; numbers--) {
		for (size_t i = 0; i < t->n; i++)
			if (variable_input(&t->ev[i], numbers))
				(void)input(f, (uint32_t)i, 1, input_width(&t->ev[i]));
		catch_up(f, s, added, noov, &sided, &domained, &cap_pref, &prefs, &on, out);
		for (size_t k = 0; k < domained && out->checks < max_checks && rc == 0 && now() - t0 < FLIPS_SECONDS; k++) {
			uint32_t ev = f->inputs[k];
			if (!variable_input(&t->ev[ev], numbers))
				continue;
			int w = input_width(&t->ev[ev]);
			char name[32];
			snprintf(name, sizeof(name), "in%u", ev);
			Z3_ast x = Z3_mk_const(f->z, Z3_mk_string_symbol(f->z, name), Z3_mk_bv_sort(f->z, (unsigned)w));
			Z3_solver_push(f->z, s);
			Z3_solver_assert(f->z, s, Z3_mk_not(f->z, Z3_mk_eq(f->z, x, bv(f, t->ev[ev].val, w))));
			for (size_t j = 0; j < per_input && out->checks < max_checks && now() - t0 < FLIPS_SECONDS; j++) {
				Z3_model m;
				if ((rc = path_model(f, s, prefs, on, domained, noov, &slow, &out->checks, &m, e)) < 0)
					break;
				if (!m)
					break;
				Z3_ast val = NULL;
				int got = Z3_model_eval(f->z, m, x, 1, &val);
				if (got)
					record_model(f, m, TRACE_NONE, ev, out, &cap);
				Z3_model_dec_ref(f->z, m);
				if (!got)
					break;
				Z3_solver_assert(f->z, s, Z3_mk_not(f->z, Z3_mk_eq(f->z, x, val)));
			}
			Z3_solver_pop(f->z, s, 1);
		}
	}
	out->seconds = now() - t0;
	free(prefs);
	free(on);
	bits_free(added);
	Z3_solver_dec_ref(f->z, s);
	return rc;
}

int formula_flips(struct formula *f, const uint32_t *br, size_t nbr, const unsigned char *want, size_t max_checks,
		  struct flips *out, struct cerr *e)
{
	return flips_run(f, br, nbr, want, max_checks, 0, out, e);
}

int formula_same_path(struct formula *f, const uint32_t *br, size_t nbr, size_t per_input, size_t max_checks,
		      struct flips *out, struct cerr *e)
{
	unsigned char *none = xcalloc(nbr + 1, 1);
	int rc = flips_run(f, br, nbr, none, max_checks, per_input, out, e);
	free(none);
	return rc;
}
