#include "core/isolate/oracle.h"

#include <ctype.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#define BUILD_ERROR_LINES 10
#define TAIL_LINES 3            /* the failing output's last lines kept in its identity */
#define TAIL_WIDTH 100          /* bytes of each line kept (the rest masked) */
#define MASK "\xe2\x80\xa6"      /* "…": in an identity, stands for any text */
#define MASK_LEN 3
#define MASK_CUT_MIN 4          /* bytes of a masked text at least before a cut */

struct oracle {
	pcre2_code *pattern;     /* --fail-pattern, or NULL */
	pcre2_code *assertion;   /* glibc's "Assertion `...' failed" */
	/* What moves when the code changes, not between runs of one build: a
	 * source position's numbers ("file.c:12"), a pointer-sized hex address
	 * (where the allocator puts a block, as AddressSanitizer reports it,
	 * depends on what the code allocated before); and what moves every
	 * run, in a report whose lines are cut: the process id that starts
	 * each line of a sanitizer's or valgrind's report ("==4242=="). */
	pcre2_code *moving;
};

const char *verdict_name(enum verdict v)
{
	static const char *const names[] = {"PASS", "FAIL", "UNRESOLVED"};
	return (unsigned)v < sizeof(names) / sizeof(*names) ? names[v] : "?";
}

const char *why_name(enum unresolved_why w)
{
	static const char *const names[] = {"", "build failed", "build timed out", "test timed out",
				      "test exited 125 (cannot test)", "failed differently", "flaky",
				      "cancelled"};
	return (unsigned)w < sizeof(names) / sizeof(*names) ? names[w] : "?";
}

static pcre2_code *compile(const char *re, struct cerr *e, const char *what)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *c = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, PCRE2_MULTILINE, &err, &off, NULL);
	if (!c) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(err, msg, sizeof(msg));
		cerr_set(e, "bad %s at offset %zu: %s", what, (size_t)off, (char *)msg);
		return NULL;
	}
	pcre2_jit_compile(c, PCRE2_JIT_COMPLETE);   /* optional: falls back to the interpreter */
	return c;
}

int oracle_new(struct oracle **out, const char *fail_pattern, struct cerr *e)
{
	struct oracle *o = xcalloc(1, sizeof(*o));
	*out = NULL;
	if (fail_pattern && !(o->pattern = compile(fail_pattern, e, "--fail-pattern"))) {
		free(o);
		return -1;
	}
	o->assertion = compile("Assertion [`'\"](.*)['\"] failed", e, "assertion pattern");
	o->moving = compile("[\\w./+-]+\\.(?:c|h|cc|cpp|cxx|hh|hpp|y|l|inc|def):\\K[0-9]+(?::[0-9]+)?"
			    "|\\b0x\\K[0-9a-fA-F]{6,16}\\b|^==\\K[0-9]+(?===)", e, "moving-text pattern");
	if (!o->assertion || !o->moving) {
		oracle_free(o);
		return -1;
	}
	*out = o;
	return 0;
}

void oracle_free(struct oracle *o)
{
	if (!o)
		return;
	pcre2_code_free(o->pattern);
	pcre2_code_free(o->assertion);
	pcre2_code_free(o->moving);
	free(o);
}

/* The first match of c in s (its first group when it has one), or NULL. */
static char *first_match(pcre2_code *c, const char *s, size_t len)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(c, NULL);
	char *m = NULL;
	if (pcre2_match(c, (PCRE2_SPTR)s, len, 0, 0, md, NULL) >= 0) {
		uint32_t groups = 0;
		pcre2_pattern_info(c, PCRE2_INFO_CAPTURECOUNT, &groups);
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		int g = groups > 0 && ov[2] != PCRE2_UNSET ? 1 : 0;
		m = xstrndup(s + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
	}
	pcre2_match_data_free(md);
	return m;
}

/* The last TAIL_LINES non-empty lines of an output (without '\r' and
 * trailing blanks), oldest first; n set. Pointers into out. */
static size_t tail_lines(const char *s, size_t len, const char *line[TAIL_LINES], size_t llen[TAIL_LINES])
{
	size_t n = 0, end = len;
	while (end > 0 && n < TAIL_LINES) {
		size_t e = end;
		while (e > 0 && (s[e - 1] == '\n' || s[e - 1] == '\r' || s[e - 1] == ' ' || s[e - 1] == '\t'))
			e--;
		if (e == 0)
			break;
		size_t b = e;
		while (b > 0 && s[b - 1] != '\n')
			b--;
		line[n] = s + b;
		llen[n++] = e - b;
		end = b;
	}
	for (size_t i = 0; i < n / 2; i++) {   /* oldest first */
		const char *t = line[i];
		size_t tl = llen[i];
		line[i] = line[n - 1 - i];
		llen[i] = llen[n - 1 - i];
		line[n - 1 - i] = t;
		llen[n - 1 - i] = tl;
	}
	return n;
}

static void add_text(struct buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' || s[i] == '"')
			buf_addc(b, '\\');
		buf_addc(b, (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i]);
	}
}

/* A sanitizer's runtime error names what went wrong where; its values
 * move with the code as positions do (UBSan's "runtime error: 2.15771e+09
 * is outside the range of representable values of type 'int'" is
 * 9.36229e+09 once another change is applied): the numbers after
 * "runtime error:" are masked. */
static void mask_sanitizer_values(struct buf *m)
{
	static const char key[] = "runtime error: ";
	const char *at = m->s ? memmem(m->s, m->len, key, sizeof(key) - 1) : NULL;
	if (!at)
		return;
	size_t from = (size_t)(at - m->s) + sizeof(key) - 1;
	struct buf o = BUF_INIT;
	buf_add(&o, m->s, from);
	for (size_t i = from; i < m->len;) {
		int word = i > 0 && (isalnum((unsigned char)m->s[i - 1]) || m->s[i - 1] == '_');
		if (!word && isdigit((unsigned char)m->s[i])) {
			while (i < m->len && (isalnum((unsigned char)m->s[i]) || m->s[i] == '.' ||
					      ((m->s[i] == '+' || m->s[i] == '-') && (m->s[i - 1] == 'e' || m->s[i - 1] == 'E'))))
				i++;
			buf_adds(&o, MASK);
		} else
			buf_addc(&o, m->s[i++]);
	}
	buf_release(m);
	*m = o;
}

/* One line as it appears in an identity: at most TAIL_WIDTH bytes (a
 * longer line ends in the mask), control bytes as '?', backslash and quote
 * escaped, source positions' numbers and addresses masked (hunks move
 * lines and what is allocated where). */
static void add_line(const struct oracle *o, struct buf *b, const char *s, size_t len)
{
	/* Masked first, then cut: a moving part of another length (a pid's
	 * digits) must not move where the line is cut. */
	struct buf m = BUF_INIT;
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(o->moving, NULL);
	size_t at = 0;
	while (at <= len && pcre2_match(o->moving, (PCRE2_SPTR)(len ? s : ""), len, at, 0, md, NULL) >= 0) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		buf_add(&m, s + at, ov[0] - at);
		buf_adds(&m, MASK);
		at = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
	}
	pcre2_match_data_free(md);
	if (at < len)
		buf_add(&m, s + at, len - at);
	mask_sanitizer_values(&m);
	size_t keep = m.len > TAIL_WIDTH ? TAIL_WIDTH : m.len;
	while (keep < m.len && keep > 0 && ((unsigned char)m.s[keep] & 0xc0) == 0x80)
		keep--;   /* not inside a mask or another UTF-8 character */
	add_text(b, m.s ? m.s : "", keep);
	if (keep < m.len)
		buf_adds(b, MASK);
	buf_release(&m);
}

/* The run's failure without a fail pattern: exit status or signal, the
 * condition of a failed assert() (never its file or line: hunks shift
 * lines), and the output's last lines. */
static char *status_signature(const struct oracle *o, const struct run_result *r)
{
	struct run_result shown = {.status = r->status, .code = r->code};
	if (r->status == RUN_EXITED && r->code > 128 && r->code <= 128 + 64) {
		shown.status = RUN_SIGNALED;   /* the shell's 128+N for a child killed by N */
		shown.code = r->code - 128;
	}
	struct buf b = BUF_INIT;
	char *what = run_describe(&shown, 0);
	buf_adds(&b, what);
	free(what);
	const char *out = r->out.s ? r->out.s : "";
	char *a = first_match(o->assertion, out, r->out.len);
	if (a) {
		buf_addf(&b, "; assertion `%s' failed", a);
		free(a);
	}
	const char *line[TAIL_LINES];
	size_t llen[TAIL_LINES], n = tail_lines(out, r->out.len, line, llen);
	if (n) {
		buf_adds(&b, "; output ends \"");
		for (size_t i = 0; i < n; i++) {
			if (i)
				buf_adds(&b, "\\n");
			add_line(o, &b, line[i], llen[i]);
		}
		buf_addc(&b, '"');
	}
	return buf_detach(&b);
}

char *oracle_signature(const struct oracle *o, const struct run_result *r)
{
	if (r->status == RUN_TIMEOUT || r->status == RUN_CANCELLED)
		return NULL;
	if (r->status == RUN_EXITED && r->code == 125)
		return NULL;
	if (o->pattern) {
		/* A match fails the run whatever its exit status. */
		char *m = first_match(o->pattern, r->out.s ? r->out.s : "", r->out.len);
		if (m) {
			char *sig = xasprintf("match: %s", m);
			free(m);
			return sig;
		}
	}
	if (r->status == RUN_EXITED && r->code == 0)
		return NULL;
	return status_signature(o, r);
}

/* The length of the token at s: a run of letters, digits and '_', a mask,
 * or one other byte. */
static size_t token_len(const char *s)
{
	if (!strncmp(s, MASK, MASK_LEN))
		return MASK_LEN;
	size_t n = 0;
	while (s[n] && (isalnum((unsigned char)s[n]) || s[n] == '_'))
		n++;
	return n ? n : 1;
}

struct tokens {
	const char **p;
	size_t *len, n;
};

static void tokenize(const char *s, struct tokens *t)
{
	size_t cap = strlen(s) + 1;
	t->p = xmalloc(cap * sizeof(*t->p));
	t->len = xmalloc(cap * sizeof(*t->len));
	t->n = 0;
	while (*s) {
		size_t l = token_len(s);
		t->p[t->n] = s;
		t->len[t->n++] = l;
		s += l;
	}
}

static int tok_eq(const struct tokens *a, size_t i, const struct tokens *b, size_t j)
{
	return a->len[i] == b->len[j] && !memcmp(a->p[i], b->p[j], a->len[i]);
}

static void add_masked(struct buf *out, int *masked)
{
	if (!*masked)
		buf_adds(out, MASK);
	*masked = 1;
}

/* Is this signature's status a death by a signal (a crash)? */
static int crashed(const char *sig, size_t status_len)
{
	return status_len > 7 && !strncmp(sig, "signal ", 7);
}

/* sa with the tokens where it differs from sb masked: what varies by
 * itself. Sets *agree when the status (the exit status or signal) is the
 * same, or when both runs died by a signal: a failure whose manner varies,
 * as memory corruption's does, crashes one run (SIGSEGV) and fails an
 * assert the next (SIGABRT); the signal, the assert's condition and the
 * output are then masked alike, and the identity is "a crash". */
static char *mask_pair(const char *sa, const char *sb, int *agree)
{
	struct tokens ta, tb;
	tokenize(sa, &ta);
	tokenize(sb, &tb);
	struct buf r = BUF_INIT;
	size_t pre = 0, suf = 0;
	while (pre < ta.n && pre < tb.n && tok_eq(&ta, pre, &tb, pre))
		pre++;
	while (suf < ta.n - pre && suf < tb.n - pre && tok_eq(&ta, ta.n - 1 - suf, &tb, tb.n - 1 - suf))
		suf++;
	for (size_t i = 0; i < pre; i++)
		buf_add(&r, ta.p[i], ta.len[i]);
	int masked = 0;
	if (ta.n == tb.n) {
		/* Same shape: token by token. */
		for (size_t i = pre; i < ta.n - suf; i++) {
			if (tok_eq(&ta, i, &tb, i)) {
				buf_add(&r, ta.p[i], ta.len[i]);
				masked = 0;
			} else {
				add_masked(&r, &masked);
			}
		}
	} else if (pre < ta.n - suf || pre < tb.n - suf) {
		add_masked(&r, &masked);
	}
	for (size_t i = ta.n - suf; i < ta.n; i++)
		buf_add(&r, ta.p[i], ta.len[i]);
	size_t la = strcspn(sa, ";"), lb = strcspn(sb, ";");
	*agree = (la == lb && !memcmp(sa, sb, la)) || (crashed(sa, la) && crashed(sb, lb));
	free(ta.p);
	free(ta.len);
	free(tb.p);
	free(tb.len);
	return buf_detach(&r);
}

int oracle_identity(const struct oracle *o, const struct run_result *a, const struct run_result *b, char **out)
{
	*out = NULL;
	char *sa = oracle_signature(o, a), *sb = oracle_signature(o, b);
	if (!sa || !sb || o->pattern) {
		/* Passing runs, or a fail pattern: the signature itself (agreeing or not). */
		int same = (!sa && !sb) || (sa && sb && !strcmp(sa, sb));
		*out = sa;
		free(sb);
		return same ? 0 : 1;
	}
	int agree;
	*out = mask_pair(sa, sb, &agree);
	free(sa);
	free(sb);
	return agree ? 0 : 1;
}

int oracle_identity_add(const struct oracle *o, char **identity, const struct run_result *r)
{
	char *sig = oracle_signature(o, r);
	if (!*identity || !sig || o->pattern) {
		int same = (!*identity && !sig) || (*identity && sig && !strcmp(*identity, sig));
		free(sig);
		return same ? 0 : 1;
	}
	int agree;
	char *m = mask_pair(*identity, sig, &agree);
	free(sig);
	free(*identity);
	*identity = m;
	return agree ? 0 : 1;
}

char *oracle_mask_texts(const char *identity, const char *const *text, const size_t *len, size_t n)
{
	size_t il = strlen(identity);
	char *hide = xcalloc(il + 1, 1);
	for (size_t k = 0; k < n; k++) {
		int plain = len[k] > 0;
		for (size_t i = 0; i < len[k] && plain; i++)
			plain = !((unsigned char)text[k][i] < 0x20 || text[k][i] == 0x7f || text[k][i] == '"' ||
				  text[k][i] == '\\');
		for (const char *p = identity, *hit; plain && (hit = memmem(p, il - (size_t)(p - identity), text[k], len[k]));
		     p = hit + 1)
			memset(hide + (hit - identity), 1, len[k]);
		/* A line cut inside the text (it ends in a mask): its start. */
		for (const char *p = identity, *cut; plain && (cut = strstr(p, MASK)); p = cut + MASK_LEN)
			for (size_t l = len[k] - 1; l >= MASK_CUT_MIN && l < len[k]; l--)
				if ((size_t)(cut - identity) >= l && !memcmp(cut - l, text[k], l)) {
					memset(hide + (cut - l - identity), 1, l + MASK_LEN);
					break;
				}
	}
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < il; i++)
		if (!hide[i])
			buf_addc(&b, identity[i]);
		else if (i == 0 || !hide[i - 1])
			buf_adds(&b, MASK);
	free(hide);
	return buf_detach(&b);
}

/* Does sig match identity, where each mask stands for any text? */
int oracle_same(const char *identity, const char *sig)
{
	const char *p = identity, *s = sig, *star = NULL, *back = NULL;
	while (*s) {
		if (!strncmp(p, MASK, MASK_LEN)) {
			star = p += MASK_LEN;
			back = s;
		} else if (*p && *p == *s) {
			p++;
			s++;
		} else if (star) {
			p = star;
			s = ++back;
		} else {
			return 0;
		}
	}
	while (!strncmp(p, MASK, MASK_LEN))
		p += MASK_LEN;
	return *p == '\0';
}

enum verdict oracle_judge(const struct oracle *o, const char *expected, const struct run_result *r,
			  enum unresolved_why *why, char **sigout)
{
	*why = WHY_NONE;
	if (sigout)
		*sigout = NULL;
	if (r->status == RUN_TIMEOUT) {
		*why = WHY_TEST_TIMEOUT;
		return VERDICT_UNRESOLVED;
	}
	if (r->status == RUN_CANCELLED) {
		*why = WHY_CANCELLED;
		return VERDICT_UNRESOLVED;
	}
	if (r->status == RUN_EXITED && r->code == 125) {
		*why = WHY_UNTESTABLE;
		return VERDICT_UNRESOLVED;
	}
	char *sig = oracle_signature(o, r);
	enum verdict v;
	if (!sig) {
		v = VERDICT_PASS;
	} else if (expected && oracle_same(expected, sig)) {
		v = VERDICT_FAIL;
	} else {
		v = VERDICT_UNRESOLVED;
		*why = WHY_DIFFERENT;
	}
	if (sigout)
		*sigout = sig;
	else
		free(sig);
	return v;
}

char *oracle_build_error(const char *output)
{
	/* The first compiler errors (and the notes naming what they are about:
	 * a declaration, the macro an error came through), a line each: what
	 * repair reads names from. */
	static const char pattern[] = "^(?:[^:\\n]+:[0-9]+:(?:[0-9]+:)? (?:fatal )?error: .*|.*undefined reference to .*"
				      "|[^:\\n]+:[0-9]+:(?:[0-9]+:)? note: (?:.* declared here|in (?:expansion|definition) of "
				      "macro .*|expanded from macro .*))$";
	size_t len = strlen(output);
	pcre2_code *c = compile(pattern, NULL, "pattern");
	struct buf b = BUF_INIT;
	if (c) {
		pcre2_match_data *md = pcre2_match_data_create_from_pattern(c, NULL);
		PCRE2_SIZE start = 0;
		for (int lines = 0; lines < BUILD_ERROR_LINES && start < len &&
				    pcre2_match(c, (PCRE2_SPTR)output, len, start, 0, md, NULL) >= 0;
		     lines++) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
			int note = strstr(output + ov[0], " note: ") && (size_t)(strstr(output + ov[0], " note: ") - output) < ov[1];
			if (!(note && b.len == 0)) {   /* never a note first */
				if (b.len)
					buf_addc(&b, '\n');
				buf_add(&b, output + ov[0], ov[1] - ov[0]);
			}
			start = ov[1] > start ? ov[1] : start + 1;
		}
		pcre2_match_data_free(md);
		pcre2_code_free(c);
	}
	if (b.len)
		return buf_detach(&b);
	buf_release(&b);
	/* Else the last non-empty line. */
	const char *end = output + len;
	while (end > output && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	if (end == output)
		return NULL;
	const char *start = end;
	while (start > output && start[-1] != '\n')
		start--;
	return xstrndup(start, (size_t)(end - start));
}
