#include "core/isolate/repair.h"

#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* Quotes: gcc writes ‘name’ in UTF-8 locales and 'name' else; clang 'name'. */
#define Q "(?:'|\\x{2018}|`)"
#define E "(?:'|\\x{2019})"

static const char *const patterns[] = {
	Q "(\\w+)" E " undeclared",
	"undeclared identifier " Q "(\\w+)" E,
	"implicit declaration of function " Q "(\\w+)" E,
	"call to undeclared function " Q "(\\w+)" E,
	"too (?:few|many) arguments to function " Q "(\\w+)" E,
	"note: " Q "(\\w+)" E " declared here",
	"conflicting types for " Q "(\\w+)" E,
	"has no member named " Q "(\\w+)" E,
	"no member named " Q "(\\w+)" E,
	"unknown type name " Q "(\\w+)" E,
	"redefinition of " Q "(?:struct |union |enum )?(\\w+)" E,
	"undefined reference to " Q "(\\w+)" E,
	"incompatible (?:type|pointer type) for argument \\d+ of " Q "(\\w+)" E,
	"passing argument \\d+ of " Q "(\\w+)" E,
	"(?:storage size|field) of " Q "(\\w+)" E,
	"invalid use of (?:undefined|incomplete) type " Q "(?:struct |union )?(\\w+)" E,
	"incomplete type " Q "(?:struct |union )?(\\w+)" E,
	"unknown field " Q "(\\w+)" E,
	"field designator " Q "(\\w+)" E " does not refer",
	"label " Q "(\\w+)" E " used but not defined",
	"use of undeclared label " Q "(\\w+)" E,
	/* A type the error names: the declaration whose type changed. */
	"type " Q "(?:(?:const|volatile|struct|union|enum) )*(\\w+)",
	"(?:initializing|assigning to|returning|\\(have) " Q "(?:(?:const|volatile|struct|union|enum) )*(\\w+)",
	"request for member " Q "(\\w+)" E,
	/* The macro an error came through, when a hunk changed its body (a
	 * function passed to it called with other arguments: lua's
	 * luaV_fastget(..., luaH_get, ...)). */
	"(?:in (?:expansion|definition) of|expanded from) macro " Q "(\\w+)" E,
	"(?:function|variable) " Q "(\\w+)" E " has internal linkage but is not defined",
	Q "(\\w+)" E " used but never defined",
};

/* The notes naming the macro an error came through. */
static const char *const macro_patterns[] = {
	"(?:in (?:expansion|definition) of|expanded from) macro " Q "(\\w+)" E,
};

/* Warnings made errors (-Werror): a name declared and no longer used, or
 * used and no longer declared, when the hunks removing or adding its
 * declaration and its last use are taken apart. */
static const char *const unused_patterns[] = {
	Q "(\\w+)" E " defined but not used",
	Q "(\\w+)" E " declared " Q "static" E " but never defined",
	"unused (?:variable|function|label|typedef|local typedef|const variable|parameter|macro) " Q "(\\w+)" E,
	"variable " Q "(\\w+)" E " set but not used",
};

static void add_name(char ***names, size_t *n, const char *s, size_t len)
{
	for (size_t i = 0; i < *n; i++)
		if (strlen((*names)[i]) == len && !memcmp((*names)[i], s, len))
			return;
	*names = xrealloc(*names, (*n + 2) * sizeof(**names));
	(*names)[(*n)++] = xstrndup(s, len);
	(*names)[*n] = NULL;
}

/* Whether the line of output holding offset at says it is an error (a
 * warning does not fail a build). */
static int error_line(const char *output, size_t len, size_t at)
{
	size_t b = at, e = at;
	while (b > 0 && output[b - 1] != '\n')
		b--;
	while (e < len && output[e] != '\n')
		e++;
	return memmem(output + b, e - b, "error", 5) != NULL;
}

/* Add the names pattern table t (n of them) captures in output to *names;
 * errors_only: only on lines that say error. */
static void match_all(const char *const *t, size_t nt, const char *output, int errors_only, char ***names, size_t *n)
{
	size_t len = strlen(output);
	for (size_t p = 0; p < nt; p++) {
		int err;
		PCRE2_SIZE off;
		pcre2_code *c = pcre2_compile((PCRE2_SPTR)t[p], PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_MATCH_INVALID_UTF,
					      &err, &off, NULL);
		if (!c)
			continue;
		pcre2_match_data *md = pcre2_match_data_create_from_pattern(c, NULL);
		PCRE2_SIZE start = 0;
		while (start < len && pcre2_match(c, (PCRE2_SPTR)output, len, start, 0, md, NULL) >= 0) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
			if (!errors_only || error_line(output, len, ov[2]))
				add_name(names, n, output + ov[2], ov[3] - ov[2]);
			start = ov[1] > start ? ov[1] : start + 1;
		}
		pcre2_match_data_free(md);
		pcre2_code_free(c);
	}
}

size_t repair_names(const char *output, char ***names)
{
	size_t n = 0;
	*names = xcalloc(1, sizeof(**names));
	match_all(patterns, sizeof(patterns) / sizeof(*patterns), output, 0, names, &n);
	match_all(unused_patterns, sizeof(unused_patterns) / sizeof(*unused_patterns), output, 1, names, &n);
	return n;
}

size_t repair_macros(const char *output, char ***names)
{
	size_t n = 0;
	*names = xcalloc(1, sizeof(**names));
	match_all(macro_patterns, sizeof(macro_patterns) / sizeof(*macro_patterns), output, 0, names, &n);
	return n;
}

size_t repair_unused(const char *output, char ***names)
{
	size_t n = 0;
	*names = xcalloc(1, sizeof(**names));
	match_all(unused_patterns, sizeof(unused_patterns) / sizeof(*unused_patterns), output, 1, names, &n);
	return n;
}

void repair_names_free(char **names)
{
	for (size_t i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}
