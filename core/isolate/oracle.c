#include "core/isolate/oracle.h"

#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#define BUILD_ERROR_LINES 8

struct oracle {
	pcre2_code *pattern;     /* --fail-pattern, or NULL */
	pcre2_code *assertion;   /* glibc's "Assertion `...' failed" */
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
	if (!o->assertion) {
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

/* The run's failure without a fail pattern: exit status or signal, plus the
 * condition of a failed assert() (never its file or line: hunks shift lines). */
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
	char *a = first_match(o->assertion, r->out.s ? r->out.s : "", r->out.len);
	if (a) {
		buf_addf(&b, "; assertion `%s' failed", a);
		free(a);
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
	} else if (expected && !strcmp(sig, expected)) {
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
	/* The first compiler errors (and the notes naming what they are about),
	 * a line each: what repair reads names from. */
	static const char pattern[] = "^(?:[^:\\n]+:[0-9]+:(?:[0-9]+:)? (?:fatal )?error: .*|.*undefined reference to .*"
				      "|[^:\\n]+:[0-9]+:(?:[0-9]+:)? note: .* declared here)$";
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
