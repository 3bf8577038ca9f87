/* Names read from gcc's and clang's error messages. */
#include <string.h>

#include "test.h"
#include "core/isolate/repair.h"
#include "core/isolate/change.h"
#include "core/isolate/deps.h"
#include "core/isolate/scan.h"
#include "core/session/search.h"
#include "core/util.h"

static int has(char **names, const char *n)
{
	for (size_t i = 0; names[i]; i++)
		if (!strcmp(names[i], n))
			return 1;
	return 0;
}

/* Whether a NUL-separated, "" ended list holds n. */
static int list_has(const char *l, const char *n)
{
	for (; l && *l; l += strlen(l) + 1)
		if (!strcmp(l, n))
			return 1;
	return 0;
}

/* A modified file of set s, from its old and new texts. */
static void add_text(struct change_set *s, const char *path, const char *old, const char *new)
{
	change_set_add_file(s, path, path, 0100644, 0100644, old, strlen(old), new, strlen(new), CHANGE_MODIFIED, 0);
}

/* Finish set s and compute its dependences into d. */
static void deps_of(struct change_set *s, struct deps *d)
{
	struct cerr e;
	CHECK(change_set_finish(s, &e) == 0);
	deps_compute(s, NULL, 0, d);
}

static void test_gcc_messages(void)
{
	char **names;
	size_t n = repair_names("main.c:14:24: error: \xe2\x80\x98ITEM_LIMIT\xe2\x80\x99 undeclared (first use in this function)\n"
				"main.c:14:10: error: too many arguments to function \xe2\x80\x98" "clamp\xe2\x80\x99; expected 1, have 2\n"
				"util.c:9:9: error: implicit declaration of function \xe2\x80\x98" "at_most\xe2\x80\x99 [-Wimplicit-function-declaration]\n"
				"stats.c:6:10: error: \xe2\x80\x98struct stats\xe2\x80\x99 has no member named \xe2\x80\x98" "count\xe2\x80\x99\n"
				"util.c:3:5: error: conflicting types for 'clamp'\n", &names);
	CHECK(n == 4);
	CHECK(has(names, "ITEM_LIMIT") && has(names, "clamp") && has(names, "at_most") && has(names, "count"));
	repair_names_free(names);
	/* Errors that name a type or a member, not the declaration. */
	n = repair_names("inlines.c:648:35: error: incompatible types when initializing type \xe2\x80\x98"
			 "delimiter *\xe2\x80\x99 using type \xe2\x80\x98" "delimiter\xe2\x80\x99\n"
			 "list.c:9:12: error: request for member \xe2\x80\x98next\xe2\x80\x99 in something not a structure or union\n"
			 "calc.c:3:11: error: invalid operands to binary + (have \xe2\x80\x98struct num\xe2\x80\x99 and \xe2\x80\x98int\xe2\x80\x99)\n",
			 &names);
	CHECK(has(names, "delimiter") && has(names, "next") && has(names, "num"));
	repair_names_free(names);
}

static void test_clang_messages(void)
{
	char **names;
	size_t n = repair_names("main.c:14:24: error: use of undeclared identifier 'ITEM_LIMIT'\n"
				"main.c:14:21: error: too many arguments to function call, expected single argument 'v', have 2 arguments\n"
				"./config.h:10:5: note: 'clamp' declared here\n"
				"util.c:9:9: error: call to undeclared function 'at_most'; ISO C99 and later do not support implicit function declarations\n"
				"stats.c:6:5: error: no member named 'count' in 'struct stats'\n"
				"/usr/bin/ld: main.o: in function `main':\nmain.c:(.text+0x1e): undefined reference to `helper'\n", &names);
	CHECK(n == 5);
	CHECK(has(names, "ITEM_LIMIT") && has(names, "clamp") && has(names, "at_most") && has(names, "count") &&
	      has(names, "helper"));
	repair_names_free(names);
	/* The macro an error came through, as clang and gcc name it. */
	n = repair_names("m.c:6:2: error: too few arguments to function call, expected 3, have 2\n"
			 "m.c:2:46: note: expanded from macro 'fastget'\n"
			 "n.c:6:23: error: too few arguments to function \xe2\x80\x98get\xe2\x80\x99\n"
			 "n.c:2:40: note: in definition of macro \xe2\x80\x98" "fastget2\xe2\x80\x99\n"
			 "o.c:9:3: note: in expansion of macro 'fastget3'\n", &names);
	CHECK(has(names, "fastget") && has(names, "get") && has(names, "fastget2") && has(names, "fastget3"));
	repair_names_free(names);
	/* Bytes that are not UTF-8 do not stop the reading. */
	n = repair_names("\xff\xfe x.c:1:1: error: unknown type name 'widget_t'\n", &names);
	CHECK(n == 1 && has(names, "widget_t"));
	repair_names_free(names);
	n = repair_names("x.c:4:8: error: initializing 'struct point *' with an expression of incompatible type 'long'\n", &names);
	CHECK(has(names, "point"));
	repair_names_free(names);
}

/* Warnings made errors: names left unused, read only where the line says
 * error (a plain warning fails no build); they are names repair knows too. */
static void test_unused_messages(void)
{
	char **names;
	const char *out =
		"calc.c:3:12: error: \xe2\x80\x98twice\xe2\x80\x99 defined but not used [-Werror=unused-function]\n"
		"calc.c:45:13: error: unused variable \xe2\x80\x98" "bias\xe2\x80\x99 [-Werror=unused-variable]\n"
		"calc.c:50:9: error: variable 'total' set but not used [-Werror,-Wunused-but-set-variable]\n"
		"calc.c:60:12: error: unused function 'legacy' [-Werror,-Wunused-function]\n"
		"calc.c:70:13: error: 'probe' declared 'static' but never defined [-Werror=unused-function]\n"
		"main.c:7:6: warning: unused variable 'spare' [-Wunused-variable]\n";
	size_t n = repair_unused(out, &names);
	CHECK(n == 5);
	CHECK(has(names, "twice") && has(names, "bias") && has(names, "total") && has(names, "legacy") && has(names, "probe"));
	CHECK(!has(names, "spare"));
	repair_names_free(names);
	n = repair_names(out, &names);
	CHECK(has(names, "twice") && has(names, "legacy") && !has(names, "spare"));
	repair_names_free(names);
	/* Used and never defined: the declaration is wanted, as undeclared. */
	n = repair_names("x.c:2:12: error: \xe2\x80\x98probe\xe2\x80\x99 used but never defined [-Werror]\n"
			 "y.c:2:12: error: function 'scan' has internal linkage but is not defined [-Werror,-Wundefined-internal]\n", &names);
	CHECK(n == 2 && has(names, "probe") && has(names, "scan"));
	repair_names_free(names);
	n = repair_unused("x.c:2:12: error: \xe2\x80\x98probe\xe2\x80\x99 used but never defined\n", &names);
	CHECK(n == 0);
	repair_names_free(names);
}

/* Whether d keeps quiet need from -> to for name. */
static int quiet_has(const struct deps *d, size_t from, size_t to, const char *name)
{
	for (size_t k = 0; k < d->nquiet; k++)
		if (d->quiet[k][0] == from && d->quiet[k][1] == to && !strcmp(d->quiet_names[k], name))
			return 1;
	return 0;
}

/* Needs that hold only where unused names are errors (-Werror): a new
 * static helper's definition needs its only caller, the only call of an
 * old static removed needs its definition removed, and so for a local;
 * not for an exported function, nor for a static used by two hunks, and
 * none of them is a need without -Werror. */
static void test_quiet_needs(void)
{
	const char *old = "static int legacy(int x)\n{\n\treturn x * 2;\n}\n\nint keep(int x)\n{\n\treturn x;\n}\n\n"
			  "int scaled(int x)\n{\n\tint bias = 1;\n\tint y = x;\n\ty++;\n\ty--;\n\ty++;\n\ty--;\n"
			  "\treturn legacy(y) + bias;\n}\n";
	const char *new = "static int twice(int x)\n{\n\treturn x + x;\n}\n\nint open_one(int x)\n{\n\treturn x;\n}\n\n"
			  "int keep(int x)\n{\n\treturn x;\n}\n\n"
			  "int scaled(int x)\n{\n\tint y = x;\n\ty++;\n\ty--;\n\ty++;\n\ty--;\n"
			  "\treturn twice(y);\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 1, 4, 1, 9, "", 0);     /* - legacy; + twice, + open_one */
	change_set_add_hunk(s, 13, 1, 18, 0, "", 0);   /* - int bias = 1; */
	change_set_add_hunk(s, 19, 1, 23, 1, "", 0);   /* - return legacy(y) + bias; + return twice(y); */
	struct deps d;
	deps_of(s, &d);
	CHECK(quiet_has(&d, 0, 2, "twice"));    /* the helper needs its caller */
	CHECK(quiet_has(&d, 2, 0, "legacy"));   /* the last call's removal needs the definition's */
	CHECK(quiet_has(&d, 2, 1, "bias"));     /* the last use of a local, its declaration */
	for (size_t k = 0; k < d.nquiet; k++)
		CHECK(strcmp(d.quiet_names[k], "open_one") && strcmp(d.quiet_names[k], "keep"));
	/* Not needs: applied, the helper's definition alone builds without
	 * -Werror (the first hunk needs the last for legacy's uses alone). */
	for (size_t k = 0; k < d.nneed[0]; k++)
		CHECK(!list_has(d.need_names[0][k], "twice"));
	deps_release(&d);
	change_set_free(s);
	/* A static two hunks use: no quiet need (either use is enough). */
	const char *o2 = "int a(int x)\n{\n\treturn x;\n}\n\n\n\n\n\n\nint b(int x)\n{\n\treturn x;\n}\n";
	const char *n2 = "static int h(int x)\n{\n\treturn x;\n}\n\nint a(int x)\n{\n\treturn h(x);\n}\n\n\n\n\n\n\n"
			 "int b(int x)\n{\n\treturn h(x);\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "g.c", o2, n2);
	change_set_add_hunk(s, 0, 0, 1, 5, "", 0);
	change_set_add_hunk(s, 3, 1, 9, 1, "", 0);
	change_set_add_hunk(s, 13, 1, 19, 1, "", 0);
	deps_of(s, &d);
	CHECK(d.nquiet == 0);
	deps_release(&d);
	change_set_free(s);
}

/* A hunk that opens a block and the hunk that closes it build only
 * together; a balanced hunk between or after them stays alone. */
static void test_unbalanced_hunks(void)
{
	const char *old = "int f(int x)\n{\n\tx++;\n\treturn x;\n}\n";
	const char *new = "int f(int x)\n{\n\tif (x > 0) {\n\tx++;\n\t}\n\treturn x + 1;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 2, 0, 3, 1, "", 0);   /* + if (x > 0) { */
	change_set_add_hunk(s, 3, 0, 5, 1, "", 0);   /* + } */
	change_set_add_hunk(s, 4, 1, 6, 1, "", 0);   /* return x + 1 */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.group[0] >= 0 && d.group[0] == d.group[1]);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1]);   /* no part builds alone */
	CHECK(d.group[2] < 0);
	deps_release(&d);
	change_set_free(s);
}

/* A name only the new revision declares ties one way: its user needs the
 * declaring hunk, not the reverse, and they are no group. */
static void test_one_way_needs(void)
{
	const char *old = "#define A 1\n\nint f(void)\n{\n\treturn 1;\n}\n";
	const char *new = "#define A 1\n#define LIMIT 8\n\nint f(void)\n{\n\treturn LIMIT;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);   /* + #define LIMIT 8 */
	change_set_add_hunk(s, 5, 1, 6, 1, "", 0);   /* return LIMIT */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.group[0] < 0 && d.group[1] < 0);
	CHECK(d.nneed[1] == 1 && d.need[1][0] == 0);
	CHECK(d.nneed[0] == 0);
	size_t out[2];
	CHECK(deps_involving(&d, "LIMIT", out) == 2);
	CHECK(deps_declaring(&d, "LIMIT", out) == 1 && out[0] == 0);
	deps_release(&d);
	change_set_free(s);
}

/* Brackets pair across hunks: the hunk opening a block and the hunk
 * closing it are one group, a hunk between them that changes a statement
 * inside stays apart (it builds either way), and so does a hunk replacing a
 * closing and opening brace by the same. */
static void test_bracket_pairs(void)
{
	const char *old = "int f(int x)\n{\n\tx++;\n\tx *= 2;\n\tx--;\n\tif (x) {\n\t\tx = 1;\n\t} else {\n"
			  "\t\tx = 2;\n\t}\n\treturn x;\n}\n";
	const char *new = "int f(int x)\n{\n\tif (x > 0) {\n\tx++;\n\tx *= 3;\n\tx--;\n\t}\n\tif (x) {\n\t\tx = 1;\n"
			  "\t} else if (x < 0) {\n\t\tx = 2;\n\t}\n\treturn x;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 2, 0, 3, 1, "", 0);    /* + if (x > 0) { */
	change_set_add_hunk(s, 4, 1, 5, 1, "", 0);    /* x *= 2 -> x *= 3 */
	change_set_add_hunk(s, 5, 0, 7, 1, "", 0);    /* + } */
	change_set_add_hunk(s, 8, 1, 10, 1, "", 0);   /* } else { -> } else if (x < 0) { */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.group[0] >= 0 && d.group[0] == d.group[2]);
	CHECK(d.group[1] < 0);
	CHECK(d.group[3] < 0);
	deps_release(&d);
	change_set_free(s);
}

/* A function rewritten around an unchanged definition line: the hunk
 * removing `int g(int x)` and the hunk adding it again further down only
 * build together (apart, g is gone or defined twice); its caller, which
 * works with either, stays alone. */
static void test_moved_definition(void)
{
	const char *old = "int g(int x)\n{\n\treturn x;\n}\n\nint h(void)\n{\n\treturn g(1);\n}\n";
	const char *new = "static int core(int x, int k)\n{\n\treturn x * k;\n}\n\nint g(int x)\n{\n"
			  "\treturn core(x, 1);\n}\n\nint h(void)\n{\n\treturn g(2);\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);    /* - int g(int x)  + static int core(int x, int k) */
	change_set_add_hunk(s, 3, 1, 3, 6, "", 0);    /* - return x;  + return x * k; } int g(int x) { return core(x, 1); */
	change_set_add_hunk(s, 8, 1, 13, 1, "", 0);   /* return g(1) -> g(2) */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.group[0] >= 0 && d.group[0] == d.group[1]);
	CHECK(d.group[2] < 0);
	deps_release(&d);
	change_set_free(s);
}

/* A function moved up above a new call to it: the hunk adding it above
 * and the hunk removing it below are one block, and the new call, which the
 * old revision's file declares only further down, needs them (without,
 * the call is an implicit declaration the definition then conflicts
 * with); a call below both places needs nothing. */
static void test_moved_up_definition(void)
{
	const char *old = "int h(void)\n{\n\treturn 1;\n}\n\nstatic int g(int x)\n{\n\treturn x;\n}\n"
			  "int k(void)\n{\n\treturn g(2);\n}\n";
	const char *new = "static int g(int x)\n{\n\treturn x;\n}\n\nint h(void)\n{\n\treturn g(1);\n}\n"
			  "int k(void)\n{\n\treturn g(3);\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 0, 0, 1, 5, "", 0);    /* + g above h */
	change_set_add_hunk(s, 3, 1, 8, 1, "", 0);    /* return 1 -> return g(1) */
	change_set_add_hunk(s, 5, 5, 9, 0, "", 0);    /* - g below h */
	change_set_add_hunk(s, 12, 1, 12, 1, "", 0);  /* g(2) -> g(3) */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[2]);
	CHECK(d.block[1] < 0 && d.nneed[1] == 2);
	CHECK(!strcmp(d.need_names[1][0], "g") && !d.need_names[1][0][2]);   /* the need is for g */
	CHECK(d.nneed[3] == 0 && d.block[3] < 0);
	deps_release(&d);
	change_set_free(s);
}

/* A static removed while the unchanged body of the function that read it
 * now reads a new parameter of the same name: the removal needs the
 * parameter (and its old uses removed); the parameter needs nothing. */
static void test_shadowing_parameter(void)
{
	const char *old = "static int unit;\n\nstatic void drop(void)\n{\n\tunit = 0;\n}\n\n/* x */\n"
			  "static int get(void)\n{\n\treturn unit;\n}\n";
	const char *new = "/* x */\nstatic int get(int unit)\n{\n\treturn unit;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 1, 7, 0, 0, "", 0);    /* - the static and drop */
	change_set_add_hunk(s, 9, 1, 2, 1, "", 0);    /* get(void) -> get(int unit) */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.nneed[0] == 1 && d.need[0][0] == 1);
	CHECK(!strcmp(d.need_names[0][0], "unit"));
	CHECK(d.nneed[1] == 0);
	deps_release(&d);
	change_set_free(s);
}

/* An array declarator declares its name (`char buf[12];`): a new array
 * field's users need the hunk adding it. */
static void test_array_field(void)
{
	const char *oh = "struct it {\n\tint n;\n};\n";
	const char *nh = "struct it {\n\tint n;\n\tchar buf[12];\n};\n";
	const char *oc = "int f(struct it *p)\n{\n\treturn p->n;\n}\n";
	const char *nc = "int f(struct it *p)\n{\n\treturn p->buf[0];\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "a.h", oh, nh);
	change_set_add_hunk(s, 2, 0, 3, 1, "", 0);
	add_text(s, "b.c", oc, nc);
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);
	struct deps d;
	deps_of(s, &d);
	size_t out[3];
	CHECK(deps_declaring(&d, "buf", out) == 1 && out[0] == 0);
	CHECK(d.nneed[1] == 1 && d.need[1][0] == 0);
	deps_release(&d);
	change_set_free(s);
}

/* An include moved from a header into the file that uses it: removing it
 * from the header needs it added there. */
static void test_moved_include(void)
{
	const char *oh = "#include <stddef.h>\n#include \"jv.h\"\nvoid *al(size_t);\n";
	const char *nh = "#include <stddef.h>\nvoid *al(size_t);\n";
	const char *oc = "#include \"al.h\"\nint x;\n";
	const char *nc = "#include \"jv.h\"\nint x;\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "al.c", oc, nc);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);
	add_text(s, "al.h", oh, nh);
	change_set_add_hunk(s, 2, 1, 1, 0, "", 0);
	struct deps d;
	deps_of(s, &d);
	CHECK(d.nneed[1] == 1 && d.need[1][0] == 0 && !strcmp(d.need_names[1][0], "\"jv.h\""));
	CHECK(d.nneed[0] == 0);
	deps_release(&d);
	change_set_free(s);
	/* Moved within one file (mandoc's headers have no guards: both lines
	 * in, mandoc.h is read twice): the two need each other. */
	const char *om = "#include \"mandoc.h\"\n#include \"aux.h\"\n#include \"out.h\"\n#include \"html.h\"\n"
			 "#include \"main.h\"\n\nint x;\n";
	const char *nm = "#include \"aux.h\"\n#include \"out.h\"\n#include \"html.h\"\n#include \"main.h\"\n"
			 "#include \"mandoc.h\"\n\nint x;\n";
	s = change_set_new("a", "b");
	add_text(s, "man_html.c", om, nm);
	change_set_add_hunk(s, 1, 1, 0, 0, "", 0);
	change_set_add_hunk(s, 5, 0, 5, 1, "", 0);
	deps_of(s, &d);
	CHECK(d.nneed[0] == 1 && d.need[0][0] == 1);
	CHECK(d.nneed[1] == 1 && d.need[1][0] == 0);
	deps_release(&d);
	change_set_free(s);
}

/* A function defined under a new name that a macro maps to the old one,
 * with another signature, while the old definition goes in another hunk:
 * the compiler sees one name declared twice, so the two hunks only build
 * together. */
static void test_macro_alias(void)
{
	const char *old = "int h(int n);\n\nint f(int n)\n{\n\treturn n;\n}\n\nint h(int n)\n{\n\treturn f(n);\n}\n";
	const char *new = "int h(int n);\n\nint h(int n)\n{\n\treturn f(n);\n}\n#define f2 f\nlong f2(long n)\n{\n"
			  "\treturn n;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 3, 5, 2, 0, "", 0);    /* - int f(int n) { ... } */
	change_set_add_hunk(s, 11, 0, 7, 5, "", 0);   /* + #define f2 f, long f2(long n) { ... } */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1]);
	size_t out[2];
	CHECK(deps_declaring(&d, "f", out) == 2);
	deps_release(&d);
	change_set_free(s);
}

/* A name from a header: the hunk newly using assert likely needs the hunk
 * adding the include the file did not have (a guess, kept apart from the
 * needs); a hunk using only names the old file had (calloc) needs nothing. */
static void test_header_include(void)
{
	const char *old = "#include <stdlib.h>\n\nvoid *m(size_t n)\n{\n\treturn calloc(n, 1);\n}\n";
	const char *new = "#include <assert.h>\n#include <stdlib.h>\n\nvoid *m(size_t n)\n{\n\tassert(n > 0);\n"
			  "\treturn calloc(n, 1);\n}\nvoid *z(void) { return calloc(1, 1); }\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "m.c", old, new);
	change_set_add_hunk(s, 0, 0, 1, 1, "", 0);   /* + #include <assert.h> */
	change_set_add_hunk(s, 4, 0, 6, 1, "", 0);   /* + assert(n > 0); */
	change_set_add_hunk(s, 6, 0, 9, 1, "", 0);   /* + void *z(void) ... */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.nheader == 1 && d.header[0][0] == 1 && d.header[0][1] == 0);
	CHECK(d.nheader == 1 && !strcmp(d.header_names[0], "assert"));
	CHECK(d.nneed[1] == 0 && d.nneed[2] == 0);
	deps_release(&d);
	change_set_free(s);
	/* The include and its use in one hunk: nothing to guess. */
	s = change_set_new("a", "b");
	add_text(s, "m.c", old, new);
	change_set_add_hunk(s, 0, 0, 1, 6, "", 0);
	deps_of(s, &d);
	CHECK(d.nheader == 0);
	deps_release(&d);
	change_set_free(s);
	/* Read backwards: removing an include likely needs the last uses of
	 * what it declared gone (htop's `#include <sys/capability.h>` and the
	 * body using `cap_t`); restoring them restores it. calloc, still
	 * used, and the unchanged include tie nothing. */
	s = change_set_new("a", "b");
	add_text(s, "m.c", new, old);
	change_set_add_hunk(s, 1, 1, 0, 0, "", 0);   /* - #include <assert.h> */
	change_set_add_hunk(s, 6, 1, 5, 0, "", 0);   /* - assert(n > 0); */
	change_set_add_hunk(s, 9, 1, 7, 0, "", 0);   /* - void *z(void) ... */
	deps_of(s, &d);
	CHECK(d.nheader == 1 && d.header[0][0] == 0 && d.header[0][1] == 1);
	CHECK(d.nheader == 1 && !strcmp(d.header_names[0], "assert"));
	deps_release(&d);
	change_set_free(s);
}

/* A name the build makes from a data file: the hunk newly using N_TWO,
 * which no changed C file declares, likely needs the data file's hunk
 * that adds `two` (its part after the underscore, in any case); a
 * README's hunk holding the same word is documentation, never a guess. */
static void test_generated_name(void)
{
	const char *oldc = "#include \"names.h\"\nint f(void)\n{\n\treturn N_ONE;\n}\n";
	const char *newc = "#include \"names.h\"\nint f(void)\n{\n\treturn N_ONE + N_TWO;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", oldc, newc);
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);
	add_text(s, "names.dat", "one\n", "one\ntwo\n");
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);
	add_text(s, "README", "Words: one.\n", "Words: one, two.\n");
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);
	struct deps d;
	deps_of(s, &d);
	CHECK(d.nheader == 1 && d.header[0][0] == 0 && d.header[0][1] == 1);
	CHECK(d.nheader == 1 && !strcmp(d.header_names[0], "N_TWO"));
	CHECK(d.nneed[0] == 0);
	deps_release(&d);
	change_set_free(s);
	/* N_ONE was used before: the data file's other words tie nothing. */
	s = change_set_new("a", "b");
	add_text(s, "f.c", oldc, "#include \"names.h\"\nint f(void)\n{\n\treturn N_ONE * 2;\n}\n");
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);
	add_text(s, "names.dat", "one\n", "one\nthree\n");
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);
	deps_of(s, &d);
	CHECK(d.nheader == 0);
	deps_release(&d);
	change_set_free(s);
	/* A name the build makes from a comment or a string of a C hunk
	 * (a config comment read by a script, an option string): the hunk
	 * newly using IF_FEATURE_PLUSES or FLAG_no_wildcards likely needs
	 * the hunk holding `FEATURE_PLUSES` or `(no-wildcards)`, though that
	 * hunk changes no token; a code word is no such source. */
	const char *oldg = "//config:config FEATURE_OTHER\nint g(void)\n{\n\treturn 0;\n}\n"
			   "static const char opts[] = \"(wildcards)\";\nint h(int x)\n{\n\treturn x;\n}\n";
	const char *newg = "//config:config FEATURE_OTHER\n//config:config FEATURE_PLUSES\nint g(void)\n{\n"
			   "\treturn IF_FEATURE_PLUSES(1) 0;\n}\n"
			   "static const char opts[] = \"(no-wildcards)(wildcards)\";\nint h(int x)\n{\n"
			   "\treturn x + FLAG_no_wildcards + mem_quietly(x);\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "g.c", oldg, newg);
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);    /* 0: the config comment */
	change_set_add_hunk(s, 4, 1, 5, 1, "", 0);    /* 1: IF_FEATURE_PLUSES */
	change_set_add_hunk(s, 6, 1, 7, 1, "", 0);    /* 2: the option string */
	change_set_add_hunk(s, 9, 1, 10, 1, "", 0);   /* 3: FLAG_no_wildcards, mem_quietly */
	deps_of(s, &d);
	int plus = 0, flag = 0, other = 0;
	for (size_t k = 0; k < d.nheader; k++) {
		plus |= d.header[k][0] == 1 && d.header[k][1] == 0;
		flag |= d.header[k][0] == 3 && d.header[k][1] == 2;
		other |= !(d.header[k][0] == 1 && d.header[k][1] == 0) && !(d.header[k][0] == 3 && d.header[k][1] == 2);
	}
	CHECK(plus && flag && !other);
	deps_release(&d);
	change_set_free(s);
}

/* An include removed (samurai's lexer replaced): the hunk removing
 * `#include "lex.h"` needs the hunk removing the file's use of lex.h's
 * lexfile, and, for struct evalstring that the file still uses, the hunk
 * declaring it anew in util.h. Read backwards: restoring the old use
 * restores the include. */
static void test_include_removed(void)
{
	const char *oldc = "#include \"lex.h\"\n#include \"util.h\"\n\nstruct evalstring *e;\n\nint main(void)\n{\n"
			   "\tlexfile = 0;\n\treturn 0;\n}\n";
	const char *newc = "#include \"util.h\"\n\nstruct evalstring *e;\n\nint main(void)\n{\n\treturn 0;\n}\n";
	const char *oldh = "struct evalstring { int n; };\nextern int lexfile;\n";
	const char *oldu = "int util(void);\n";
	const char *newu = "int util(void);\nstruct evalstring { int n; };\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "main.c", oldc, newc);
	change_set_add_hunk(s, 1, 1, 0, 0, "", 0);   /* - #include "lex.h" */
	change_set_add_hunk(s, 8, 1, 6, 0, "", 0);   /* - lexfile = 0; */
	change_set_add_file(s, "lex.h", "lex.h", 0100644, 0, oldh, strlen(oldh), "", 0, CHANGE_DELETED, 0);
	change_set_add_hunk(s, 1, 2, 0, 0, "", 0);
	add_text(s, "util.h", oldu, newu);
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);   /* + struct evalstring { ... }; */
	struct deps d;
	deps_of(s, &d);
	int lexfile = 0, evalstring = 0;
	for (size_t k = 0; k < d.nneed[0]; k++) {
		lexfile |= d.need[0][k] == 1 && !strcmp(d.need_names[0][k], "lexfile");
		evalstring |= d.need[0][k] == 3 && !strcmp(d.need_names[0][k], "evalstring");
	}
	CHECK(lexfile);
	CHECK(evalstring);
	deps_release(&d);
	change_set_free(s);
}

/* A type moved to another header (samurai's struct evalstring, lex.h to
 * util.h): a new function in util.c, which includes util.h and not lex.h,
 * needs the move; a use in a file seeing both places does not; nor does
 * a use of a function whose definition moved between two sources. */
static void test_moved_across_files(void)
{
	const char *oldh = "struct evalstring { int n; };\nint lexfile;\n";
	const char *oldu = "int util(void);\n";
	const char *newu = "int util(void);\nstruct evalstring { int n; };\n";
	const char *oldc = "#include \"util.h\"\n\nint util(void)\n{\n\treturn 0;\n}\n";
	const char *newc = "#include \"util.h\"\n\nint util(void)\n{\n\treturn 0;\n}\n\n"
			   "int del(struct evalstring *e)\n{\n\treturn e->n;\n}\n";
	const char *oldp = "#include \"lex.h\"\n#include \"util.h\"\n\nint f(struct evalstring *e)\n{\n\treturn 1;\n}\n";
	const char *newp = "#include \"lex.h\"\n#include \"util.h\"\n\nint f(struct evalstring *e)\n{\n\treturn 2;\n}\n";
	const char *olda = "int g(int x)\n{\n\treturn x;\n}\n";
	const char *newb = "int g(int x)\n{\n\treturn x;\n}\n";
	const char *oldk = "int g(int);\nint k(void)\n{\n\treturn g(1);\n}\n";
	const char *newk = "int g(int);\nint k(void)\n{\n\treturn g(2);\n}\n";
	struct change_set *s = change_set_new("a", "b");
	change_set_add_file(s, "lex.h", "lex.h", 0100644, 0100644, oldh, strlen(oldh), "int lexfile;\n",
			    strlen("int lexfile;\n"), CHANGE_MODIFIED, 0);
	change_set_add_hunk(s, 1, 1, 0, 0, "", 0);    /* 0: - struct evalstring */
	add_text(s, "util.h", oldu, newu);
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);    /* 1: + struct evalstring */
	add_text(s, "util.c", oldc, newc);
	change_set_add_hunk(s, 6, 0, 7, 5, "", 0);    /* 2: + del(struct evalstring *e) */
	add_text(s, "parse.c", oldp, newp);
	change_set_add_hunk(s, 6, 1, 6, 1, "", 0);    /* 3: return 1 -> 2, in f(struct evalstring *) */
	change_set_add_file(s, "a.c", "a.c", 0100644, 0, olda, strlen(olda), "", 0, CHANGE_DELETED, 0);
	change_set_add_hunk(s, 1, 4, 0, 0, "", 0);    /* 4: - g */
	change_set_add_file(s, "b.c", "b.c", 0, 0100644, "", 0, newb, strlen(newb), CHANGE_ADDED, 0);
	change_set_add_hunk(s, 0, 0, 1, 4, "", 0);    /* 5: + g */
	add_text(s, "k.c", oldk, newk);
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);    /* 6: g(1) -> g(2) */
	struct deps d;
	deps_of(s, &d);
	int to_old = 0, to_new = 0;
	for (size_t k = 0; k < d.nneed[2]; k++) {
		to_old |= d.need[2][k] == 0 && !strcmp(d.need_names[2][k], "evalstring");
		to_new |= d.need[2][k] == 1 && !strcmp(d.need_names[2][k], "evalstring");
	}
	CHECK(to_old && to_new);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1]);
	for (size_t k = 0; k < d.nneed[3]; k++)
		CHECK(d.need[3][k] != 0 && d.need[3][k] != 1);
	for (size_t k = 0; k < d.nneed[6]; k++)
		CHECK(d.need[6][k] != 4 && d.need[6][k] != 5);
	deps_release(&d);
	change_set_free(s);
}

/* A local moved within its function (memcached's `int len;` in a branch
 * made `int len = 0;` at the top, read by new lines above the old
 * place): the hunk reading it there needs the move, applied or reverted;
 * a hunk using it where both revisions declare it needs nothing of it. */
static void test_moved_local(void)
{
	const char *oldc = "int st(const char *cmd)\n{\n\tif (cmd[0] == 'd') {\n\t\tint len;\n\t\tlen = dump();\n"
			   "\t\treturn len;\n\t}\n\treturn strcmp(cmd, \"on\");\n}\n";
	const char *newc = "int st(const char *cmd)\n{\n\tint len = 2;\n\tif (cmd[0] == 'd') {\n\t\tint l;\n\t\tl = dump();\n"
			   "\t\treturn l;\n\t}\n\treturn strncmp(cmd, \"on\", len);\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "st.c", oldc, newc);
	change_set_add_hunk(s, 2, 0, 3, 1, "", 0);    /* 0: + int len = 2; */
	change_set_add_hunk(s, 4, 3, 5, 3, "", 0);    /* 1: int len; ... -> int l; ... */
	change_set_add_hunk(s, 8, 1, 9, 1, "", 0);    /* 2: strcmp -> strncmp(..., len) */
	struct deps d;
	deps_of(s, &d);
	int to_add = 0, to_remove = 0;
	for (size_t k = 0; k < d.nneed[2]; k++) {
		to_add |= d.need[2][k] == 0 && !strcmp(d.need_names[2][k], "len");
		to_remove |= d.need[2][k] == 1 && !strcmp(d.need_names[2][k], "len");
	}
	CHECK(to_add && to_remove);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1]);
	deps_release(&d);
	change_set_free(s);
	/* A parameter made a local of another type (memcached's `const size_t
	 * ntokens` made `int ntokens = pr->tok.ntokens;`): the head and the
	 * new local are one block; a use both revisions declare needs neither. */
	oldc = "int lru(const char *t, unsigned n)\n{\n\tif (n > 3)\n\t\treturn t[0];\n\treturn 0;\n}\n";
	newc = "int lru(const char *t, struct parser *p)\n{\n\tint n = p->n;\n\tif (n > 2)\n\t\treturn t[0];\n\treturn 0;\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "lru.c", oldc, newc);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);    /* 0: unsigned n -> struct parser *p */
	change_set_add_hunk(s, 2, 0, 3, 1, "", 0);    /* 1: + int n = p->n; */
	change_set_add_hunk(s, 3, 1, 4, 1, "", 0);    /* 2: n > 3 -> n > 2 */
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1]);
	for (size_t k = 0; k < d.nneed[2]; k++)
		CHECK(d.need[2][k] != 0 && d.need[2][k] != 1);
	deps_release(&d);
	change_set_free(s);
}

/* A variable retyped from one integer type to another (frozen's `size_t
 * size = ftell(fp);` made `long size`): its uses build against either
 * revision's, so they are tied to it by nothing; made a pointer, or made
 * const, they are. */
/* A statement right after a conditional directive declares nothing:
 * `#ifdef RO` then `return E_NOSYS;` is no local E_NOSYS of type RO. The
 * hunk removing the enumerator needs the hunk removing that use. */
static void test_statement_after_directive(void)
{
	const char *oldh = "enum err {\n\tE_OK = 0,\n\tE_NOSYS = -38,\n\tE_IO = -5,\n};\n";
	const char *newh = "enum err {\n\tE_OK = 0,\n\tE_IO = -5,\n};\n";
	const char *oldc = "int mk(int *p)\n{\n#ifdef RO\n\treturn E_NOSYS;\n#else\n\treturn go(p);\n#endif\n}\n";
	const char *newc = "int mk(int *p)\n{\n\treturn go(p);\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "e.h", oldh, newh);
	change_set_add_hunk(s, 3, 1, 2, 0, "", 0);    /* 0: E_NOSYS removed */
	add_text(s, "f.c", oldc, newc);
	change_set_add_hunk(s, 3, 3, 2, 0, "", 0);    /* 1: #ifdef RO ... #else removed */
	change_set_add_hunk(s, 7, 1, 3, 0, "", 0);    /* 2: #endif removed */
	struct deps d;
	deps_of(s, &d);
	size_t out[3];
	CHECK(deps_declaring(&d, "E_NOSYS", out) == 1 && out[0] == 0);
	int needs = 0;
	for (size_t k = 0; k < d.nneed[0]; k++)
		needs |= d.need[0][k] == 1;
	CHECK(needs);
	deps_release(&d);
	change_set_free(s);
	/* Nor does a declaration after a #define whose value is a name: a
	 * macro's new value changes no declaration of `level`. */
	const char *olds = "#define MODE fast\nint level = 1;\nint get(void)\n{\n\treturn level + 1;\n}\n";
	const char *news = "#define MODE slow\nint level = 1;\nint get(void)\n{\n\treturn level + 2;\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "m.c", olds, news);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);    /* 0: the macro's value */
	change_set_add_hunk(s, 5, 1, 5, 1, "", 0);    /* 1: a use of level */
	deps_of(s, &d);
	CHECK(d.group[0] < 0 && d.group[1] < 0);
	deps_release(&d);
	change_set_free(s);
}

/* A declaration its hunk puts under a new #ifndef (littlefs's
 * LFS_F_ERRED, its comment fixed on the way) builds only with the hunks
 * that guard its uses the same way; a header's include guard is no such
 * condition, and a macro given a value per branch is not held in a block. */
static void test_declaration_guarded(void)
{
	const char *oldh = "#ifndef FLAGS_H\n#define FLAGS_H\nenum flags {\n\tF_OPEN = 1,\n\tF_ERRED = 8, /* occured */\n};\n#endif\n";
	const char *newh = "#ifndef FLAGS_H\n#define FLAGS_H\nenum flags {\n\tF_OPEN = 1,\n#ifndef RO\n\tF_ERRED = 8, /* occurred */\n#endif\n};\n#endif\n";
	const char *oldc = "int bad(int f)\n{\n\treturn f & F_ERRED;\n}\nint open_(int f)\n{\n\treturn f & F_OPEN;\n}\n";
	const char *newc = "int bad(int f)\n{\n#ifndef RO\n\treturn f & F_ERRED;\n#endif\n\treturn 0;\n}\nint open_(int f)\n{\n\treturn f & F_OPEN + 0;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "flags.h", oldh, newh);
	change_set_add_hunk(s, 5, 1, 5, 3, "", 0);    /* 0: F_ERRED under #ifndef RO */
	add_text(s, "f.c", oldc, newc);
	change_set_add_hunk(s, 2, 0, 3, 1, "", 0);    /* 1: #ifndef RO */
	change_set_add_hunk(s, 3, 0, 5, 2, "", 0);    /* 2: #endif, return 0 */
	change_set_add_hunk(s, 7, 1, 10, 1, "", 0);   /* 3: a use of F_OPEN */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1] && d.block[1] == d.block[2]);
	CHECK(d.group[3] < 0);
	deps_release(&d);
	change_set_free(s);
	/* A value per branch: defined whichever is taken (its users are its
	 * group, as its declarations changed in number, not its block). */
	oldh = "#define MAX_KEY 1700\nint keys[MAX_KEY];\n";
	newh = "#if BIG\n#define MAX_KEY 600\n#else\n#define MAX_KEY 200\n#endif\nint keys[MAX_KEY];\n";
	oldc = "int room(void)\n{\n\treturn MAX_KEY - 1;\n}\n";
	newc = "int room(void)\n{\n\treturn MAX_KEY - 2;\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "k.h", oldh, newh);
	change_set_add_hunk(s, 1, 1, 1, 5, "", 0);    /* 0: MAX_KEY per branch */
	add_text(s, "k.c", oldc, newc);
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);    /* 1: a use of MAX_KEY */
	deps_of(s, &d);
	CHECK(d.block[1] < 0);
	deps_release(&d);
	change_set_free(s);
}

/* A brace moved into the #else branch whose #endif another hunk moves
 * below the unchanged `}` (littlefs's lfs_file_opencfg): the brace's
 * hunks and the #endif's are one block, as the `}` closes the function
 * with the brace alone when the macro is defined. And a line whose
 * guard moves from one hunk's conditional to another's (an old
 * `#ifdef RO ... #else` inside the body removed, the whole function put
 * under `#ifndef RO`) ties the two hunks: with neither guard, the line
 * is compiled where neither revision compiles it. */
static void test_conditionals_moved(void)
{
	const char *oldc = "int f(int flags)\n{\n\tif (flags) {\n#ifdef RO\n\t\treturn -1;\n#else\n"
			   "\t\tint err = g();\n\t\tif (err)\n\t\t\treturn err;\n#endif\n\t}\n\treturn 0;\n}\n";
	const char *newc = "int f(int flags)\n{\n#ifdef RO\n\tassert(!flags);\n#else\n\tif (flags) {\n"
			   "\t\tint err = g();\n\t\tif (err)\n\t\t\treturn err;\n\t}\n#endif\n\treturn 0;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", oldc, newc);
	change_set_add_hunk(s, 3, 1, 2, 0, "", 0);     /* 0: `if (flags) {` removed */
	change_set_add_hunk(s, 5, 1, 4, 1, "", 0);     /* 1: return -1 -> assert */
	change_set_add_hunk(s, 6, 0, 6, 1, "", 0);     /* 2: `if (flags) {` under #else */
	change_set_add_hunk(s, 10, 1, 9, 0, "", 0);    /* 3: #endif removed */
	change_set_add_hunk(s, 11, 0, 11, 1, "", 0);   /* 4: #endif below the `}` */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[2] && d.block[0] == d.block[3] && d.block[0] == d.block[4]);
	CHECK(d.group[1] < 0);
	deps_release(&d);
	change_set_free(s);
	oldc = "int rm(void)\n{\n#ifdef RO\n\treturn -1;\n#else\n\treturn force();\n#endif\n}\n";
	newc = "#ifndef RO\nint rm(void)\n{\n\treturn force();\n}\n#endif\n";
	s = change_set_new("a", "b");
	add_text(s, "r.c", oldc, newc);
	change_set_add_hunk(s, 1, 0, 1, 1, "", 0);     /* 0: #ifndef RO */
	change_set_add_hunk(s, 3, 3, 3, 0, "", 0);     /* 1: #ifdef RO ... #else removed */
	change_set_add_hunk(s, 7, 1, 4, 0, "", 0);     /* 2: #endif removed */
	change_set_add_hunk(s, 8, 0, 6, 1, "", 0);     /* 3: #endif */
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1] && d.block[0] == d.block[2] && d.block[0] == d.block[3]);
	deps_release(&d);
	change_set_free(s);
}

static void test_integer_retyped(void)
{
	const char *oldc = "long rd(FILE *fp)\n{\n\tsize_t size = ftell(fp);\n\tchar *data = malloc(size + 1);\n"
			   "\tif (data != NULL)\n\t\tdata[size] = 0;\n\treturn size;\n}\n";
	const char *newc = "long rd(FILE *fp)\n{\n\tlong size = ftell(fp);\n\tchar *data = malloc(size + 2);\n"
			   "\tif (size > 0 && data != NULL)\n\t\tdata[size] = 0;\n\treturn size;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "rd.c", oldc, newc);
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);    /* 0: size_t size -> long size */
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);    /* 1: size + 1 -> size + 2 */
	change_set_add_hunk(s, 5, 1, 5, 1, "", 0);    /* 2: size > 0 && */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.group[0] < 0 && d.group[1] < 0 && d.group[2] < 0);
	CHECK(d.block[0] < 0);
	deps_release(&d);
	change_set_free(s);
	/* Made const: a use assigning it builds against one revision only. */
	oldc = "int f(int n)\n{\n\tunsigned k = n;\n\tk = k * 2;\n\treturn k;\n}\n";
	newc = "int f(int n)\n{\n\tconst unsigned long k = n;\n\tk = k * 3;\n\treturn k;\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "f.c", oldc, newc);
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);    /* 0: unsigned k -> const unsigned long k */
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);    /* 1: k * 2 -> k * 3 */
	deps_of(s, &d);
	CHECK(d.group[0] >= 0 && d.group[0] == d.group[1]);
	deps_release(&d);
	change_set_free(s);
	/* A declaration of two names split in two, one retyped to a typedef
	 * of an integer type the file declares (pigz's `unsigned long check,
	 * len;` made `unsigned long check;` and `length_t len;`): neither
	 * name's users are tied. */
	oldc = "typedef unsigned long long length_t;\nint f(int n)\n{\n\tunsigned long check, len;\n\tlen = n;\n"
	       "\tcheck = len;\n\treturn check;\n}\n";
	newc = "typedef unsigned long long length_t;\nint f(int n)\n{\n\tunsigned long check;\n\tlength_t len;\n\tlen = n + 1;\n"
	       "\tcheck = len + 1;\n\treturn check;\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "f.c", oldc, newc);
	change_set_add_hunk(s, 4, 1, 4, 2, "", 0);    /* 0: the declaration split */
	change_set_add_hunk(s, 5, 1, 6, 1, "", 0);    /* 1: len = n + 1 */
	change_set_add_hunk(s, 6, 1, 7, 1, "", 0);    /* 2: check = len + 1 */
	deps_of(s, &d);
	CHECK(d.group[0] < 0 && d.group[1] < 0 && d.group[2] < 0);
	deps_release(&d);
	change_set_free(s);
	/* Made a pointer to another integer type: no value passes. */
	oldc = "int g(void)\n{\n\tint *p = get();\n\tint v = p[0];\n\treturn v;\n}\n";
	newc = "int g(void)\n{\n\tlong *p = get();\n\tint v = p[1];\n\treturn v;\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "g.c", oldc, newc);
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);    /* 0: int *p -> long *p */
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);    /* 1: p[0] -> p[1] */
	deps_of(s, &d);
	CHECK(d.group[0] >= 0 && d.group[0] == d.group[1]);
	deps_release(&d);
	change_set_free(s);
}

/* Calls that build against either revision's declarations: a function-like
 * macro made a static inline function of as many parameters, a function's
 * `int` made `bool`. Its users need neither (htop's `String_startsWith`
 * users, one hunk each, had been one unit with the header); the macro's
 * removal and the function's addition still agree only together. A
 * parameter made a pointer to another type still ties its callers. */
static void test_calls_alike(void)
{
	const char *oldh = "#define starts(s, m) (strncmp((s), (m), strlen(m)) == 0)\nint same(const char *a, const char *b);\n"
			   "char **split(const char *s, int *n);\n";
	const char *newh = "static inline bool starts(const char *s, const char *m)\n{\n\treturn strncmp(s, m, strlen(m)) == 0;\n}\n"
			   "bool same(const char *a, const char *b);\nchar **split(const char *s, size_t *n);\n";
	const char *oldc = "int f(const char *x)\n{\n\tint n;\n\tif (starts(x, \"BAT\"))\n\t\treturn 1;\n"
			   "\tif (same(x, \"AC\"))\n\t\treturn 2;\n\tsplit(x, &n);\n\treturn 0;\n}\n";
	const char *newc = "int f(const char *x)\n{\n\tint n;\n\tif (!starts(x, \"BAT\"))\n\t\treturn 1;\n"
			   "\tif (same(x, \"DC\"))\n\t\treturn 2;\n\tsplit(x, NULL);\n\treturn 0;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "u.h", oldh, newh);
	change_set_add_hunk(s, 1, 1, 1, 4, "", 0);    /* 0: the macro made a function */
	change_set_add_hunk(s, 2, 1, 5, 1, "", 0);    /* 1: int same -> bool same */
	change_set_add_hunk(s, 3, 1, 6, 1, "", 0);    /* 2: int *n -> size_t *n */
	add_text(s, "f.c", oldc, newc);
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);    /* 3: a use of starts */
	change_set_add_hunk(s, 6, 1, 6, 1, "", 0);    /* 4: a use of same */
	change_set_add_hunk(s, 8, 1, 8, 1, "", 0);    /* 5: a use of split */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.group[3] < 0 && d.group[4] < 0);
	CHECK(d.block[2] >= 0 && d.block[2] == d.block[5]);
	CHECK(d.block[0] < 0 || d.block[0] != d.block[3]);
	deps_release(&d);
	change_set_free(s);
}

/* A function made to return an enum an unchanged header typedefs (less's
 * `public int is_ascii_char(...)` made `public lbool is_ascii_char(...)`,
 * `lbool` in lang.h): C converts between an enum and int, so its callers
 * are not tied to it; without the header, `lbool` is a type unknown. */
static void test_enum_typedef_source(void)
{
	const char *lang = "typedef enum lbool { LFALSE, LTRUE } lbool;\n";
	const char *oldc = "#define public\npublic int is_ascii(int c)\n{\n\treturn c < 128;\n}\n"
			   "int ctl(int c)\n{\n\tif (is_ascii(c))\n\t\treturn 1;\n\treturn 0;\n}\n";
	const char *newc = "#define public\npublic lbool is_ascii(int c)\n{\n\treturn c < 128;\n}\n"
			   "int ctl(int c)\n{\n\tif (!is_ascii(c))\n\t\treturn 1;\n\treturn 0;\n}\n";
	for (int with = 0; with < 2; with++) {
		struct change_set *s = change_set_new("a", "b");
		add_text(s, "line.c", oldc, newc);
		change_set_add_hunk(s, 2, 1, 2, 1, "", 0);   /* 0: int made lbool */
		change_set_add_hunk(s, 8, 1, 8, 1, "", 0);   /* 1: a caller */
		struct cerr e;
		CHECK(change_set_finish(s, &e) == 0);
		CHECK(deps_source_of("lang.h", lang, strlen(lang)));
		struct deps_source src = {lang, strlen(lang)};
		struct deps d;
		deps_compute(s, with ? &src : NULL, (size_t)with, &d);
		CHECK(with ? d.group[1] < 0 : d.group[1] >= 0);
		deps_release(&d);
		change_set_free(s);
	}
}

/* A switch's labels renumbered, each in a hunk of its own (a generated
 * scanner's `case 44:` made `case 43:`): a value one hunk removes and
 * another adds only builds with it (`duplicate case value`); a hunk
 * changing a case's body is not tied. */
static void test_renumbered_labels(void)
{
	const char *oldc = "int act(int r)\n{\n\tswitch (r) {\n\tcase 1:\n\t\treturn 10;\n\tcase 2:\n\t\treturn 20;\n"
			   "\tcase 3:\n\t\treturn 30;\n\t}\n\treturn 0;\n}\n";
	const char *newc = "int act(int r)\n{\n\tswitch (r) {\n\tcase 1:\n\t\treturn 11;\n\tcase 3:\n\t\treturn 20;\n"
			   "\tcase 2:\n\t\treturn 30;\n\t}\n\treturn 0;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "act.c", oldc, newc);
	change_set_add_hunk(s, 5, 1, 5, 1, "", 0);    /* 0: return 10 -> 11 */
	change_set_add_hunk(s, 6, 1, 6, 1, "", 0);    /* 1: case 2 -> case 3 */
	change_set_add_hunk(s, 8, 1, 8, 1, "", 0);    /* 2: case 3 -> case 2 */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[1] >= 0 && d.block[1] == d.block[2]);
	CHECK(d.block[0] < 0);
	deps_release(&d);
	change_set_free(s);
	/* A label naming a macro (flex's `case YY_END_OF_BUFFER:`): its value
	 * moves with the #define's line, to the value a removed label had. */
	oldc = "#define END 3\nint act(int r)\n{\n\tswitch (r) {\n\tcase 1:\n\t\treturn 10;\n\tcase 2:\n\t\treturn 20;\n"
	       "\tcase END:\n\t\treturn 0;\n\t}\n\treturn 1;\n}\n";
	newc = "#define END 2\nint act(int r)\n{\n\tswitch (r) {\n\tcase 1:\n\t\treturn 10;\n"
	       "\tcase END:\n\t\treturn 0;\n\t}\n\treturn 1;\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "act.c", oldc, newc);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);    /* 0: END 3 -> 2 */
	change_set_add_hunk(s, 7, 2, 6, 0, "", 0);    /* 1: - case 2: return 20; */
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1]);
	deps_release(&d);
	change_set_free(s);
}

/* A generated file (a scanner flex wrote, committed): its hunks are one
 * block, as a mix of two revisions' output is neither; a file written by
 * hand, with the same changes, is not. */
static void test_generated_file(void)
{
	const char *body_old = "int yy_accept[] = { 0, 3, 4 };\nint act(int r)\n{\n\treturn r + 1;\n}\n";
	const char *body_new = "int yy_accept[] = { 0, 2, 4 };\nint act(int r)\n{\n\treturn r + 2;\n}\n";
	struct buf o = BUF_INIT, n = BUF_INIT;
	buf_adds(&o, "/* A lexical scanner generated by flex */\n");
	buf_adds(&o, body_old);
	buf_adds(&n, "/* A lexical scanner generated by flex */\n");
	buf_adds(&n, body_new);
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "scanner.c", o.s, n.s);
	change_set_add_hunk(s, 2, 1, 2, 1, "", 0);    /* 0: the table */
	change_set_add_hunk(s, 5, 1, 5, 1, "", 0);    /* 1: the action */
	add_text(s, "hand.c", "int table[] = { 0, 3, 4 };\nint work(int r)\n{\n\treturn r + 1;\n}\n",
		 "int table[] = { 0, 2, 4 };\nint work(int r)\n{\n\treturn r + 2;\n}\n");
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);    /* 2 */
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);    /* 3 */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1]);
	CHECK(d.block[2] < 0 && d.block[3] < 0);
	deps_release(&d);
	change_set_free(s);
	/* Another tool's parser says so in its own words (mruby's y.tab.c, by Lrama). */
	buf_reset(&o);
	buf_reset(&n);
	buf_adds(&o, "/* A Bison parser, made by Lrama 0.7.0.  */\n");
	buf_adds(&o, body_old);
	buf_adds(&n, "/* A Bison parser, made by Lrama 0.7.0.  */\n");
	buf_adds(&n, body_new);
	s = change_set_new("a", "b");
	add_text(s, "y.tab.c", o.s, n.s);
	change_set_add_hunk(s, 2, 1, 2, 1, "", 0);
	change_set_add_hunk(s, 5, 1, 5, 1, "", 0);
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1]);
	deps_release(&d);
	change_set_free(s);
	buf_release(&o);
	buf_release(&n);
}

/* A function behind an attribute macro (bfs's `attr(printf(3, 4))` on
 * the line above `static bool opt_debug(...)`, GNU's `__attribute__`
 * before or after the type): it is declared, its parameters are its
 * locals, and a call passing one argument fewer is tied to it. */
static void test_attribute_macro(void)
{
	const char *oldc = "attr(printf(3, 4))\nstatic int logit(int a, int level __attribute__((unused)), const char *format, ...) {\n\treturn a + level;\n}\n"
			   "static int __attribute__((unused)) other(int x) {\n\treturn x;\n}\n"
			   "int use1(void) {\n\treturn logit(1, 2, \"x\") + other(1);\n}\n";
	const char *newc = "attr(printf(2, 3))\nstatic int logit(int a, const char *format, ...) {\n\treturn a;\n}\n"
			   "static int __attribute__((unused)) other(int x, int y) {\n\treturn x + y;\n}\n"
			   "int use1(void) {\n\treturn logit(1, \"x\") + other(1, 2);\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "a.c", oldc, newc);
	change_set_add_hunk(s, 1, 3, 1, 3, "", 0);    /* 0: logit loses level */
	change_set_add_hunk(s, 5, 2, 5, 2, "", 0);    /* 1: other gains y */
	change_set_add_hunk(s, 9, 1, 9, 1, "", 0);    /* 2: the calls */
	struct deps d;
	deps_of(s, &d);
	CHECK(list_has(d.names[0], "logit") && !list_has(d.names[0], "attr"));
	CHECK(list_has(d.names[1], "other") && !list_has(d.names[1], "__attribute__"));
	CHECK(list_has(d.names[0], "level") && list_has(d.names[0], "format") && !list_has(d.names[0], "unused"));
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[2] && d.block[1] == d.block[2]);
	deps_release(&d);
	change_set_free(s);
}

/* A function whose return type is a macro's argument (cJSON's
 * `CJSON_PUBLIC(cJSON *) cJSON_Parse(const char *value)`): it is declared,
 * its body is its parameters' scope, and a call passing one argument
 * fewer is tied to it. */
static void test_export_macro_type(void)
{
	const char *oldc = "PUBLIC(int) add(int a, int b)\n{\n\treturn a + b;\n}\n"
			   "int use1(void)\n{\n\treturn add(1, 2);\n}\n";
	const char *newc = "PUBLIC(int) add(int a)\n{\n\treturn a + 1;\n}\n"
			   "int use1(void)\n{\n\treturn add(1);\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "a.c", oldc, newc);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);    /* 0: add loses b */
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);    /* 1: its return */
	change_set_add_hunk(s, 7, 1, 7, 1, "", 0);    /* 2: the call */
	struct deps d;
	deps_of(s, &d);
	CHECK(list_has(d.names[0], "add") && list_has(d.names[0], "b") && !list_has(d.names[0], "PUBLIC"));
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[2]);
	deps_release(&d);
	change_set_free(s);
	/* After a storage class (xz's `extern LZMA_API(void)
	 * lzma_get_progress(...)`), in a header and its source. */
	s = change_set_new("a", "b");
	add_text(s, "api.h", "extern API(void) put(int a, int b);\nchar *dup(const char *s) ATTRS((unused_result));\n",
		 "extern API(void) put(int a);\nchar *dup(const char *s, int n) ATTRS((unused_result));\n");
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);    /* 0: the prototype */
	change_set_add_hunk(s, 2, 1, 2, 1, "", 0);    /* 1: an attribute after the declarator */
	add_text(s, "api.c", "extern API(void)\nput(int a, int b)\n{\n}\nvoid use2(void)\n{\n\tput(1, 2);\n}\n",
		 "extern API(void)\nput(int a)\n{\n}\nvoid use2(void)\n{\n\tput(1);\n}\n");
	change_set_add_hunk(s, 2, 1, 2, 1, "", 0);    /* 2: the definition */
	change_set_add_hunk(s, 7, 1, 7, 1, "", 0);    /* 3: the call */
	deps_of(s, &d);
	CHECK(list_has(d.names[0], "put") && !list_has(d.names[0], "API"));
	CHECK(list_has(d.names[1], "dup") && !list_has(d.names[1], "ATTRS"));
	CHECK(list_has(d.names[2], "put") && list_has(d.names[2], "b"));
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[2] && d.block[2] == d.block[3]);
	deps_release(&d);
	change_set_free(s);
}

/* A loop's head losing its condition, `for (i = 0;; i++)` as `for (;;)`,
 * needs the hunk adding the break it ends by; one keeping it does not. */
static void test_endless_heads(void)
{
	const char *heads[2][2] = {{"\tfor (i = 0;; i++) {\n", "1"}, {"\tfor (i = 0; (i); i++) {\n", "0"}};
	for (int h = 0; h < 2; h++) {
		struct buf n = BUF_INIT;
		buf_adds(&n, "int f(int n)\n{\n\tint i;\n");
		buf_adds(&n, heads[h][0]);
		buf_adds(&n, "\t\tg(i);\n\t\tpad();\n\t\tif (i >= n)\n\t\t\tbreak;\n\t\tpad();\n\t}\n\treturn i;\n}\n");
		struct change_set *s = change_set_new("a", "b");
		add_text(s, "f.c", "int f(int n)\n{\n\tint i;\n\tfor (i = 0; i < n; i++) {\n\t\tg(i);\n\t\tpad();\n"
			 "\t\tpad();\n\t}\n\treturn i;\n}\n", n.s);
		change_set_add_hunk(s, 4, 1, 4, 1, "", 0);    /* 0: the head */
		change_set_add_hunk(s, 6, 0, 7, 2, "", 0);    /* 1: the break */
		struct deps d;
		deps_of(s, &d);
		int needs = 0;
		for (size_t k = 0; k < d.nneed[0]; k++)
			needs |= d.need[0][k] == 1;
		CHECK(needs == (heads[h][1][0] == '1'));
		deps_release(&d);
		change_set_free(s);
		buf_release(&n);
	}
}

/* Statements moved within a function from one hunk to another (the walk
 * to a list's last node moved into a new else branch): the two hunks are
 * a block. A short line (`i++;`), a line with a copy left unchanged, or
 * one moved into another function ties nothing. */
static void test_moved_statements(void)
{
	const char *oldc = "int f(int *p, int n)\n{\n\tint i = 0;\n"
			   "\twhile (p[i] != n)\n"            /* 4: moved by 0 to 1 */
			   "\t\ti++;\n"                       /* 5: moved by 0 to 1, short */
			   "\tg(p, n);\n"                      /* 6: unchanged copy */
			   "\tn = 1;\n\tn = 2;\n\tn = 3;\n"
			   "\tg(p, n);\n"                      /* 10: removed by 2 */
			   "\treturn i;\n}\n"
			   "int h(int *p, int n)\n{\n\treturn 0;\n}\n";
	const char *newc = "int f(int *p, int n)\n{\n\tint i = 0;\n"
			   "\tg(p, n);\n"
			   "\tn = 1;\n\tn = 2;\n"
			   "\twhile (p[i] != n)\n\t\ti++;\n"   /* 7, 8: added by 1 */
			   "\tn = 3;\n"
			   "\treturn i;\n}\n"
			   "int h(int *p, int n)\n{\n\tg(p, n);\n\treturn 0;\n}\n";   /* 14: added by 3 */
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "a.c", oldc, newc);
	change_set_add_hunk(s, 4, 2, 3, 0, "", 0);    /* 0: - the loop */
	change_set_add_hunk(s, 8, 0, 7, 2, "", 0);    /* 1: + the loop */
	change_set_add_hunk(s, 10, 1, 9, 0, "", 0);   /* 2: - g(p, n) */
	change_set_add_hunk(s, 14, 0, 14, 1, "", 0);  /* 3: + g(p, n) in h */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1]);
	CHECK(d.block[2] < 0 && d.block[3] < 0);
	deps_release(&d);
	change_set_free(s);
	/* Past the end of a body the scan read short (its braces differ
	 * between #ifdef branches, read as one text), still the function's. */
	const char *oldw = "int f(int *p, int n)\n{\n\tif (n) {\n#ifdef W\n\t}\n#else\n\t}\n#endif\n"
			   "\tg(p, n, 1);\n\tn = 1;\n\tn = 2;\n\treturn n;\n}\n";
	const char *neww = "int f(int *p, int n)\n{\n\tif (n) {\n#ifdef W\n\t}\n#else\n\t}\n#endif\n"
			   "\tn = 1;\n\tn = 2;\n\tg(p, n, 1);\n\treturn n;\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "w.c", oldw, neww);
	change_set_add_hunk(s, 9, 1, 8, 0, "", 0);    /* 0: - g(p, n, 1) */
	change_set_add_hunk(s, 11, 0, 11, 1, "", 0);  /* 1: + g(p, n, 1) below */
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1]);
	deps_release(&d);
	change_set_free(s);
}

/* Two files' statics of one name are two functions: a parameter added
 * to one file's static ties its callers there, not the other file's uses
 * of its own static; a header's static (an inline function) is the
 * includers' too. */
static void test_static_namesakes(void)
{
	const char *olda = "static int ftype(const char *p)\n{\n\treturn *p;\n}\nint a(void)\n{\n\treturn ftype(\"x\");\n}\n";
	const char *newa = "static int ftype(const char *p, int n)\n{\n\treturn *p + n;\n}\nint a(void)\n{\n\treturn ftype(\"x\", 1);\n}\n";
	const char *oldb = "static int ftype(int m)\n{\n\treturn m;\n}\nint b(void)\n{\n\treturn ftype(1);\n}\n";
	const char *newb = "static int ftype(int m)\n{\n\treturn m;\n}\nint b(void)\n{\n\treturn ftype(2);\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "a.c", olda, newa);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);    /* 0: a parameter added */
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);    /* 1: its body */
	change_set_add_hunk(s, 7, 1, 7, 1, "", 0);    /* 2: its call */
	add_text(s, "b.c", oldb, newb);
	change_set_add_hunk(s, 7, 1, 7, 1, "", 0);    /* 3: b.c's own ftype called */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[2]);
	CHECK(d.group[3] < 0 && d.block[3] < 0);
	deps_release(&d);
	change_set_free(s);

	const char *oldh = "static inline int hf(int a)\n{\n\treturn a;\n}\n";
	const char *newh = "static inline int hf(int a, int b)\n{\n\treturn a + b;\n}\n";
	const char *oldc = "#include \"h.h\"\nint c(void)\n{\n\treturn hf(1);\n}\n";
	const char *newc = "#include \"h.h\"\nint c(void)\n{\n\treturn hf(1, 2);\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "c.c", oldc, newc);
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);    /* 0: the call */
	add_text(s, "h.h", oldh, newh);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);    /* 1: a parameter added */
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);    /* 2: its body */
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1]);
	deps_release(&d);
	change_set_free(s);

	/* A template header the source includes sees its statics. */
	const char *oldt = "static int trig(int a)\n{\n\treturn a;\n}\n#include \"t_inc.h\"\n";
	const char *newt = "static int trig(int a, int b)\n{\n\treturn a + b;\n}\n#include \"t_inc.h\"\n";
	const char *oldi = "int use(void)\n{\n\treturn trig(1);\n}\n";
	const char *newi = "int use(void)\n{\n\treturn trig(1, 2);\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "t.c", oldt, newt);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);    /* 0: a parameter added */
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);    /* 1: its body */
	add_text(s, "t_inc.h", oldi, newi);
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);    /* 2: the call in the header */
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[2]);
	deps_release(&d);
	change_set_free(s);

	/* A static moved from one source to another is one function moved:
	 * the hunk removing it and the hunk adding it are a block. */
	const char *oldx = "static int mv(int a)\n{\n\treturn a;\n}\nint x(void)\n{\n\treturn mv(1);\n}\n";
	const char *newx = "int x(void)\n{\n\treturn 1;\n}\n";
	const char *oldy = "int y(void)\n{\n\treturn 2;\n}\n";
	const char *newy = "static int mv(int a)\n{\n\treturn a;\n}\nint y(void)\n{\n\treturn mv(2);\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "x.c", oldx, newx);
	change_set_add_hunk(s, 1, 4, 0, 0, "", 0);    /* 0: - mv */
	change_set_add_hunk(s, 7, 1, 3, 1, "", 0);    /* 1: its call */
	add_text(s, "y.c", oldy, newy);
	change_set_add_hunk(s, 0, 0, 1, 4, "", 0);    /* 2: + mv */
	change_set_add_hunk(s, 3, 1, 7, 1, "", 0);    /* 3: its call */
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[2]);
	deps_release(&d);
	change_set_free(s);
}

/* A hunk that changes no token (a line re-spaced, `return (n);` made
 * `return n;`) is tied to nothing, though it names what another hunk
 * changes; a directive re-spaced is a change (`#define F(x)` made
 * `#define F (x)` is another macro). */
static void test_neutral_changes(void)
{
	const char *oldc = "int f(int a)\n{\n\tint n = a;\n\tg(n);\n\tpad();\n\th( n,1 );\n\tpad();\n\treturn n;\n}\n";
	const char *newc = "int f(int a)\n{\n\tint *n = &a;\n\tg(n);\n\tpad();\n\th(n, 1);\n\tpad();\n\treturn *n + 1;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", oldc, newc);
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);    /* 0: n made a pointer */
	change_set_add_hunk(s, 6, 1, 6, 1, "", 0);    /* 1: h( n,1 ) re-spaced */
	change_set_add_hunk(s, 8, 1, 8, 1, "", 0);    /* 2: return *n + 1 */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.group[0] >= 0 && d.group[0] == d.group[2]);
	CHECK(d.group[1] < 0 && d.block[1] < 0 && d.nneed[1] == 0);
	for (size_t c = 0; c < 3; c++)
		for (size_t k = 0; k < d.nneed[c]; k++)
			CHECK(d.need[c][k] != 1);
	deps_release(&d);
	change_set_free(s);

	const char *oldr = "int f(int a)\n{\n\tint n = a;\n\tg(n);\n\treturn (n);\n}\n";
	const char *newr = "int f(int a)\n{\n\tint *n = &a;\n\tg(n);\n\treturn n;\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "r.c", oldr, newr);
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);    /* 0: n made a pointer */
	change_set_add_hunk(s, 5, 1, 5, 1, "", 0);    /* 1: return (n) made return n */
	deps_of(s, &d);
	CHECK(d.group[1] < 0);
	deps_release(&d);
	change_set_free(s);

	const char *oldm = "#define F(x) (x)\nint u(int n)\n{\n\treturn F(n);\n}\n";
	const char *newm = "#define F (x) (x)\nint u(int n)\n{\n\treturn F(n) + 0;\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "m.c", oldm, newm);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);    /* 0: F re-spaced: another macro */
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);    /* 1: a use of F */
	deps_of(s, &d);
	CHECK(d.group[0] >= 0 && d.group[0] == d.group[1]);
	deps_release(&d);
	change_set_free(s);
}

/* A parameter line added to a list over several lines (nothing removed
 * from the declarator): the function changed, not new, so its callers and
 * its prototype are a block with it; they do not build apart. */
static void test_parameter_line_added(void)
{
	const char *oldc = "int parse(const char *buf,\n\t  int len,\n\t  int *out)\n{\n\treturn len;\n}\n"
			   "int use(int *o)\n{\n\treturn parse(\"x\", 1, o);\n}\n";
	const char *newc = "int parse(const char *buf,\n\t  int len,\n\t  unsigned short port,\n\t  int *out)\n{\n"
			   "\treturn len + port;\n}\n"
			   "int use(int *o)\n{\n\treturn parse(\"x\", 1, 0, o);\n}\n";
	const char *oldh = "int parse(const char *buf,\n\t  int len,\n\t  int *out);\n";
	const char *newh = "int parse(const char *buf,\n\t  int len,\n\t  unsigned short port,\n\t  int *out);\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "p.c", oldc, newc);
	change_set_add_hunk(s, 2, 0, 3, 1, "", 0);    /* 0: + port, */
	change_set_add_hunk(s, 5, 1, 6, 1, "", 0);    /* 1: return len + port */
	change_set_add_hunk(s, 9, 1, 10, 1, "", 0);   /* 2: the call */
	add_text(s, "p.h", oldh, newh);
	change_set_add_hunk(s, 2, 0, 3, 1, "", 0);    /* 3: + port, in the prototype */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[2] && d.block[0] == d.block[3]);
	deps_release(&d);
	change_set_free(s);
	/* Entries added to a table's initializer: no declarator changed, the
	 * two entries are not tied. */
	const char *oldt = "static const struct ent tbl[] = {\n\tENT(\"a\", fa),\n\tENT(\"b\", fb),\n\tENT(\"c\", fc),\n};\n";
	const char *newt = "static const struct ent tbl[] = {\n\tENT(\"0\", f0),\n\tENT(\"a\", fa),\n\tENT(\"b\", fb),\n"
			   "\tENT(\"bb\", fbb),\n\tENT(\"c\", fc),\n};\n";
	s = change_set_new("a", "b");
	add_text(s, "t.c", oldt, newt);
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);    /* 0: + ENT("0") */
	change_set_add_hunk(s, 3, 0, 5, 1, "", 0);    /* 1: + ENT("bb") */
	deps_of(s, &d);
	CHECK(d.block[0] < 0 || d.block[0] != d.block[1]);
	deps_release(&d);
	change_set_free(s);
}

/* Globals moved into a struct (a context whose fields take their names):
 * the hunk removing the globals and the hunks renaming their uses are a
 * block. A global removed with no field of its name, or one whose name a
 * field already had, ties nothing. */
static void test_globals_into_fields(void)
{
	const char *oldc = "int count;\nint last;\nvoid f(void)\n{\n\tcount++;\n\tlast = 1;\n}\n"
			   "int g(void)\n{\n\treturn count;\n}\n";
	const char *newc = "struct st { int count; } ctx;\nvoid f(void)\n{\n\tctx.count++;\n}\n"
			   "int g(void)\n{\n\treturn ctx.count;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "a.c", oldc, newc);
	change_set_add_hunk(s, 1, 2, 1, 1, "", 0);    /* 0: the globals made a struct */
	change_set_add_hunk(s, 5, 2, 4, 1, "", 0);    /* 1: f's uses */
	change_set_add_hunk(s, 10, 1, 8, 1, "", 0);   /* 2: g's use */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1] && d.block[1] == d.block[2]);
	deps_release(&d);
	change_set_free(s);
	const char *oldt = "struct acc { int total; };\nint total;\nint f(struct acc *a)\n{\n\treturn total;\n}\n";
	const char *newt = "struct acc { int total; };\nint f(struct acc *a)\n{\n\treturn a->total;\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "t.c", oldt, newt);
	change_set_add_hunk(s, 2, 1, 1, 0, "", 0);    /* 0: - int total */
	change_set_add_hunk(s, 5, 1, 4, 1, "", 0);    /* 1: total made a->total */
	deps_of(s, &d);
	CHECK(d.block[0] < 0 || d.block[0] != d.block[1]);
	deps_release(&d);
	change_set_free(s);
}

/* A struct value retyped (ctags' `fpos_t filePosition` made `MIOPos`, a
 * struct the changed header typedefs): no value passes between the two,
 * so its users are tied to it as a block; a number retyped (`int` made
 * `long`) ties its users only as a group. Two names retyped from fpos_t
 * to MIOPos in two files (a field, and a static read through a macro)
 * are one block; a typedef and its struct are one type. */
static void test_struct_migration(void)
{
	const char *oldm = "int mio_init(void);\n";
	const char *newm = "int mio_init(void);\ntypedef struct _MIOPos MIOPos;\nstruct _MIOPos { long off; };\n";
	const char *oldr = "#include <stdio.h>\nstruct input {\n\tfpos_t filePosition;\n\tint lines;\n};\n"
			   "#define getPos(f) ((f)->filePosition)\n";
	const char *newr = "#include <stdio.h>\n#include \"mio.h\"\nstruct input {\n\tMIOPos filePosition;\n\tlong lines;\n};\n"
			   "#define getPos(f) ((f)->filePosition)\n";
	const char *olda = "#include \"read.h\"\nstatic fpos_t matchPos;\n\nvoid mark(struct input *in)\n{\n"
			   "\tmatchPos = getPos(in);\n}\n\nint count(struct input *in)\n{\n\treturn in->lines;\n}\n";
	const char *newa = "#include \"read.h\"\nstatic MIOPos matchPos;\n\nvoid mark(struct input *in)\n{\n"
			   "\tmatchPos = getPos(in);\n}\n\nint count(struct input *in)\n{\n\treturn in->lines + 0;\n}\n";
	const char *oldb = "#include \"mio.h\"\nstruct _MIOPos *last;\nint use(void)\n{\n\treturn 1;\n}\n";
	const char *newb = "#include \"mio.h\"\nMIOPos *last;\nint use(void)\n{\n\treturn 2;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "mio.h", oldm, newm);
	change_set_add_hunk(s, 1, 0, 2, 2, "", 0);    /* 0: + MIOPos */
	add_text(s, "read.h", oldr, newr);
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);    /* 1: + #include "mio.h" */
	change_set_add_hunk(s, 3, 1, 4, 1, "", 0);    /* 2: fpos_t filePosition -> MIOPos */
	change_set_add_hunk(s, 4, 1, 5, 1, "", 0);    /* 3: int lines -> long */
	add_text(s, "a.c", olda, newa);
	change_set_add_hunk(s, 2, 1, 2, 1, "", 0);    /* 4: static fpos_t matchPos -> MIOPos */
	change_set_add_hunk(s, 11, 1, 11, 1, "", 0);  /* 5: return in->lines + 0 */
	add_text(s, "b.c", oldb, newb);
	change_set_add_hunk(s, 2, 1, 2, 1, "", 0);    /* 6: struct _MIOPos * -> MIOPos * */
	change_set_add_hunk(s, 5, 1, 5, 1, "", 0);    /* 7: return 1 -> 2 */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[2] >= 0 && d.block[2] == d.block[4]);   /* the field and the static: one block */
	CHECK(d.block[3] < 0 || d.block[3] != d.block[5]);    /* int made long: no block with its user */
	CHECK(d.group[3] < 0 || d.group[3] != d.group[5]);    /* nor a group: its uses build against either */
	CHECK(d.block[6] < 0 || d.block[6] != d.block[2]);    /* MIOPos is struct _MIOPos: no clash */
	deps_release(&d);
	change_set_free(s);
}

/* Fields after a nested union are its struct's (tinyproxy's `union {
 * char *string; ... } address;` in struct acl_s, moved to struct
 * hostspec as acl_s gained `struct hostspec h;`): removing them needs
 * the file's old uses gone. A struct a source defines is not seen in
 * another file: its `->mask` there is another struct's. */
static void test_nested_fields(void)
{
	const char *text = "struct acl_s {\n\tint access;\n\tunion {\n\t\tchar *string;\n\t\tstruct {\n"
			   "\t\t\tint mask;\n\t\t} ip;\n\t} address;\n};\n";
	struct scan sc;
	scan_file(text, strlen(text), &sc);
	int seen = 0;
	for (size_t k = 0; k < sc.nd; k++)
		if (sc.d[k].cls == 'f') {
			CHECK(!strcmp(sc.d[k].scope, "acl_s"));
			seen++;
		}
	CHECK(seen == 5);
	scan_release(&sc);

	const char *olda = "struct acl_s {\n\tint access;\n\tunion {\n\t\tchar *string;\n\t\tint mask;\n\t} address;\n};\n\n"
			   "int f(struct acl_s *a)\n{\n\treturn a->address.string[0];\n}\n";
	const char *newa = "#include \"hostspec.h\"\nstruct acl_s {\n\tint access;\n\tstruct hostspec h;\n};\n\n"
			   "int f(struct acl_s *a)\n{\n\treturn a->h.address.string[0];\n}\n";
	const char *newh = "struct hostspec {\n\tunion {\n\t\tchar *string;\n\t\tint mask;\n\t} address;\n};\n";
	const char *oldu = "struct up { int mask; };\nint g(struct up *u)\n{\n\treturn u->mask;\n}\n";
	const char *newu = "struct up { int mask; };\nint g(struct up *u)\n{\n\treturn u->mask + 1;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "acl.c", olda, newa);
	change_set_add_hunk(s, 0, 0, 1, 1, "", 0);    /* 0: + #include */
	change_set_add_hunk(s, 3, 4, 4, 1, "", 0);    /* 1: the union made struct hostspec h */
	change_set_add_hunk(s, 11, 1, 9, 1, "", 0);   /* 2: a->address -> a->h.address */
	change_set_add_file(s, "hostspec.h", "hostspec.h", 0, 0100644, "", 0, newh, strlen(newh), CHANGE_ADDED, 0);
	change_set_add_hunk(s, 0, 0, 1, 6, "", 0);    /* 3: the new header */
	add_text(s, "up.c", oldu, newu);
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);    /* 4: u->mask + 1 */
	struct deps d;
	deps_of(s, &d);
	int old_use = 0, other = 0;
	for (size_t k = 0; k < d.nneed[1]; k++) {
		old_use |= d.need[1][k] == 2;
		other |= d.need[1][k] == 4;
	}
	CHECK(old_use);
	CHECK(!other);
	deps_release(&d);
	change_set_free(s);
}

/* An unchanged line whose brace is a macro's in one revision and code in
 * the other (memcached's `}` ending a #define continued by backslashes,
 * then a function's body): the brackets of the rest of the file still
 * pair, so an #ifdef and its #endif added by two hunks around an
 * unchanged include are one block. */
static void test_shifted_context_brackets(void)
{
	const char *old = "#include \"a.h\"\n#include \"tls.h\"\n\n#define PUT(p) { \\\n\t*p = 0; \\\n}\n\nint x;\n";
	const char *new = "#include \"a.h\"\n#ifdef TLS\n#include \"tls.h\"\n#endif\n\nstatic void put(char *p) {\n\t*p = 1;\n}\n\nint x;\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);   /* 0: + #ifdef TLS */
	change_set_add_hunk(s, 2, 0, 4, 1, "", 0);   /* 1: + #endif */
	change_set_add_hunk(s, 4, 2, 6, 2, "", 0);   /* 2: the macro made a function; its `}` line unchanged */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1]);
	CHECK(d.block[2] < 0 || d.block[2] != d.block[0]);
	deps_release(&d);
	change_set_free(s);
}

/* A loop's head and a `continue` in its body in two hunks (tidy's if
 * chain made a while loop): the continue needs the head, not the other
 * way round. */
static void test_loop_continue(void)
{
	const char *old = "int f(int *v, int n)\n{\n\tint s = 0, i = 0;\n\tif (n > 0) {\n\t\ts += v[i];\n\t}\n"
			  "\treturn s;\n}\n";
	const char *new = "int f(int *v, int n)\n{\n\tint s = 0, i = 0;\n\twhile (i < n) {\n\t\tif (v[i++] < 0)\n"
			  "\t\t\tcontinue;\n\t\ts += v[i - 1];\n\t}\n\treturn s;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);   /* if (n > 0) { made while (i < n) { */
	change_set_add_hunk(s, 5, 1, 5, 3, "", 0);   /* the body, with its continue */
	struct deps d;
	deps_of(s, &d);
	int loop = 0;
	for (size_t k = 0; k < d.nneed[1]; k++)
		loop |= d.need[1][k] == 0 && !strcmp(d.need_names[1][k], "loop");
	CHECK(loop);
	for (size_t k = 0; k < d.nneed[0]; k++)
		CHECK(d.need[0][k] != 1);
	deps_release(&d);
	change_set_free(s);
}

/* A loop made a do-while: the `do` above the unchanged body and the
 * `while (...);` below it, in two hunks, need each other; the same body
 * with a plain loop head changed ties nothing. */
static void test_do_while(void)
{
	const char *old = "int f(const char *s)\n{\n\tint n = 0, c;\n\twhile ((c = *s++))\n\t{\n\t\tn++;\n\t}\n"
			  "\treturn n;\n}\n";
	const char *new = "int f(const char *s)\n{\n\tint n = 0, c = *s++;\n\tdo\n\t{\n\t\tn++;\n\t}\n"
			  "\twhile ((c = *s++));\n\treturn n;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 3, 2, 3, 2, "", 0);   /* c read first; the head made do */
	change_set_add_hunk(s, 8, 0, 8, 1, "", 0);   /* the while closing it */
	struct deps d;
	deps_of(s, &d);
	int ab = 0, ba = 0;
	for (size_t k = 0; k < d.nneed[0]; k++)
		ab |= d.need[0][k] == 1 && !strcmp(d.need_names[0][k], "do");
	for (size_t k = 0; k < d.nneed[1]; k++)
		ba |= d.need[1][k] == 0 && !strcmp(d.need_names[1][k], "do");
	CHECK(ab && ba);
	deps_release(&d);
	change_set_free(s);

	const char *new2 = "int f(const char *s)\n{\n\tint n = 0, c;\n\twhile ((c = *s++) != 0)\n\t{\n\t\tn++;\n\t}\n"
			   "\treturn n + 1;\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "f.c", old, new2);
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);
	change_set_add_hunk(s, 8, 1, 8, 1, "", 0);
	deps_of(s, &d);
	CHECK(d.nneed[0] == 0 && d.nneed[1] == 0);
	deps_release(&d);
	change_set_free(s);
}

/* A use reading its function's parameter is not a use of a new global
 * of the same name in another file (cproc's `s`, a new test source's
 * global); a use where no local shadows it is. */
static void test_local_shadows_global(void)
{
	const char *tc = "struct S { int x; } s;\nint main(void)\n{\n\treturn s.x;\n}\n";
	const char *old = "int f(int s)\n{\n\treturn s;\n}\nint g(void)\n{\n\treturn 0;\n}\n";
	const char *new = "int f(int s)\n{\n\treturn s + 1;\n}\nint g(void)\n{\n\treturn s.x;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	change_set_add_file(s, "t.c", "t.c", 0, 0100644, NULL, 0, tc, strlen(tc), CHANGE_ADDED, 0);
	change_set_add_file_change(s, CHANGE_FILE_ADD);   /* 0 */
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);        /* 1: the parameter's use */
	change_set_add_hunk(s, 7, 1, 7, 1, "", 0);        /* 2: the global's use */
	struct deps d;
	deps_of(s, &d);
	int to_new[3] = {0};
	for (size_t c = 1; c < 3; c++)
		for (size_t k = 0; k < d.nneed[c]; k++)
			to_new[c] |= d.need[c][k] == 0;
	CHECK(!to_new[1]);
	CHECK(to_new[2]);
	deps_release(&d);
	change_set_free(s);
}

/* A new local declared without a value, set by one hunk and read by
 * another: the reader needs the setter (one way); a setter through `&`
 * counts; a local the old revision had ties nothing here. Removed, the
 * other way: removing the setter needs the use removed. */
static void test_set_needs(void)
{
	const char *old = "int f(int a)\n{\n\tint c = 0;\n\tc += a;\n\tc += 2;\n\treturn a;\n}\n";
	const char *set[2] = {"\tb = a * 2;\n", "\tget(&b);\n"};
	for (int v = 0; v < 2; v++) {
		char new[256];
		snprintf(new, sizeof(new), "int f(int a)\n{\n\tint c = 0, b;\n%s\tc += 2;\n\treturn b + c;\n}\n", set[v]);
		struct change_set *s = change_set_new("a", "b");
		add_text(s, "f.c", old, new);
		change_set_add_hunk(s, 3, 1, 3, 1, "", 0);   /* 0: b declared */
		change_set_add_hunk(s, 4, 1, 4, 1, "", 0);   /* 1: b set (or through &) */
		change_set_add_hunk(s, 6, 1, 6, 1, "", 0);   /* 2: b read */
		struct deps d;
		deps_of(s, &d);
		int rs = 0, sr = 0;
		for (size_t k = 0; k < d.nneed[2]; k++)
			rs |= d.need[2][k] == 1;
		for (size_t k = 0; k < d.nneed[1]; k++)
			sr |= d.need[1][k] == 2;
		CHECK(rs && !sr);
		deps_release(&d);
		change_set_free(s);

		/* The other way (the local removed, its setter and its use by
		 * two hunks): removing the setter needs the use removed. */
		s = change_set_new("a", "b");
		add_text(s, "f.c", new, old);
		change_set_add_hunk(s, 3, 1, 3, 1, "", 0);
		change_set_add_hunk(s, 4, 1, 4, 1, "", 0);
		change_set_add_hunk(s, 6, 1, 6, 1, "", 0);
		deps_of(s, &d);
		rs = sr = 0;
		for (size_t k = 0; k < d.nneed[2]; k++)
			rs |= d.need[2][k] == 1;
		for (size_t k = 0; k < d.nneed[1]; k++)
			sr |= d.need[1][k] == 2;
		CHECK(sr && !rs);
		deps_release(&d);
		change_set_free(s);
	}

	/* c is the old revision's local: nothing new to set. */
	const char *new3 = "int f(int a)\n{\n\tint c = 0;\n\tc = a;\n\tc += 2;\n\treturn c;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new3);
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);   /* 0: c set */
	change_set_add_hunk(s, 6, 1, 6, 1, "", 0);   /* 1: c read */
	struct deps d;
	deps_of(s, &d);
	for (size_t k = 0; k < d.nneed[1]; k++)
		CHECK(d.need[1][k] != 0);
	deps_release(&d);
	change_set_free(s);
}

/* `extern "C" {` under `#ifdef __cplusplus` opens no block: the function
 * below it is a function (its local a local, its body known), and the
 * prototypes stay at file level (libwebp's vp8l.c had no function at all). */
static void test_extern_c(void)
{
	const char *text = "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint foo(int x);\n"
			   "static int f(int a)\n{\n\tint b = a;\n\treturn b;\n}\n#ifdef __cplusplus\n}\n#endif\n"
			   "int g(void)\n{\n\treturn 0;\n}\n";
	struct scan sc;
	scan_file(text, strlen(text), &sc);
	char cls_b = 0, cls_foo = 0;
	for (size_t k = 0; k < sc.nd; k++) {
		if (!strcmp(sc.d[k].name, "b"))
			cls_b = sc.d[k].cls;
		if (!strcmp(sc.d[k].name, "foo"))
			cls_foo = sc.d[k].cls;
	}
	CHECK(cls_b == 'l' && cls_foo == 'g');
	CHECK(sc.nb == 2 && !strcmp(sc.b[0].name, "f") && !strcmp(sc.b[1].name, "g"));
	scan_release(&sc);
}

/* A flex scanner's C: `%top {` ... `}`, `%option` lines and `%%` marks
 * are no C, and a statement macro alone on its line (`DIAG_ON_FLEX`) is
 * no declaration's start: the prototype and the function after them are
 * declared, the function's locals are its own (libpcap's scanner.l had
 * declared neither, its locals read as globals). */
static void test_flex_sections(void)
{
	const char *text = "%top {\n#include <config.h>\n}\n%option reentrant\n%{\nstatic int stou(char *, int *);\n%}\n"
			   "N [0-9]+\n%%\n{N}\t{ return stou(yytext, yylval); }\n%%\nDIAG_ON_FLEX\n\nstatic int\n"
			   "stou(char *arg, int *out)\n{\n\tchar *s = arg;\n\t*out = atoi(s);\n\treturn 1;\n}\n";
	struct scan sc;
	scan_file(text, strlen(text), &sc);
	int protos = 0;
	char cls_s = 0;
	for (size_t k = 0; k < sc.nd; k++) {
		protos += !strcmp(sc.d[k].name, "stou") && sc.d[k].cls == 'g';
		if (!strcmp(sc.d[k].name, "s"))
			cls_s = sc.d[k].cls;
	}
	CHECK(protos == 2);
	CHECK(cls_s == 'l');
	CHECK(sc.nb >= 1 && !strcmp(sc.b[sc.nb - 1].name, "stou"));
	scan_release(&sc);
	/* A macro in capitals alone on its line ends nothing inside a
	 * declaration: `struct s\nNAME;` is still one. */
	text = "static int\nVALUE;\nint f(void)\n{\n\treturn VALUE;\n}\n";
	scan_file(text, strlen(text), &sc);
	char cls_v = 0;
	for (size_t k = 0; k < sc.nd; k++)
		if (!strcmp(sc.d[k].name, "VALUE"))
			cls_v = sc.d[k].cls;
	CHECK(cls_v == 'g');
	scan_release(&sc);
	/* Functions a macro makes (`mut_step_i(cmdcopy) {`) are bodies of
	 * their own, their locals theirs, not globals two such bodies share;
	 * a block outside any function (a scanner's action) declares nothing. */
	text = "mut_step_i(cmdcopy) {\n\tint clen = 1;\n\treturn clen;\n}\nmut_step_n(cmdset) {\n\tint clen = 2;\n"
	       "\treturn clen;\n}\n%%\n[a-z]+ {\n\tfor (int i = 0; i < 2; i++)\n\t\tgo(i);\n}\n";
	scan_file(text, strlen(text), &sc);
	int locals = 0, globals = 0;
	for (size_t k = 0; k < sc.nd; k++) {
		locals += !strcmp(sc.d[k].name, "clen") && sc.d[k].cls == 'l';
		globals += sc.d[k].cls == 'g';
	}
	CHECK(locals == 2 && globals == 0);
	CHECK(sc.nb == 2 && strcmp(sc.b[0].name, sc.b[1].name));
	scan_release(&sc);
	/* A rules section (between the first two `%%` marks) is no C but its
	 * actions: `arp return ARP;` declares no ARP, a grammar's rule no
	 * `term`, a pattern `go(x) {` opens no function; their names are
	 * uses. After the second mark, C again. A grammar's `%token` line
	 * declares its tokens, each on its own, not its `<type>`. */
	text = "%{\nint seen;\n%}\nN [0-9]+\n%token <s> ARP\n%%\narp\treturn ARP;\n"
	       "expr: expr '+' term { $$ = $1 + $3; }\n\t| term\n\t;\ngo(x) {\n\tint k = 1;\n\tgo(k);\n}\n%%\nint after;\n";
	scan_file(text, strlen(text), &sc);
	int decls = 0, seen = 0, after = 0, arp = 0, arp_used = 0;
	for (size_t k = 0; k < sc.nd; k++) {
		seen += !strcmp(sc.d[k].name, "seen");
		after += !strcmp(sc.d[k].name, "after") && sc.d[k].cls == 'g';
		arp += !strcmp(sc.d[k].name, "ARP") && sc.d[k].cls == 'g' && !strstr(sc.d[k].shape, "token");
		decls++;
	}
	for (size_t k = 0; k < sc.nu; k++)
		arp_used += sc.u[k].len == 3 && !memcmp(sc.u[k].s, "ARP", 3);
	CHECK(seen == 1 && after == 1 && arp == 1 && decls == 3);
	CHECK(arp_used == 1);
	CHECK(sc.nb == 0);
	scan_release(&sc);
}

/* A token added to a grammar's `%token` line and returned by a new
 * scanner rule: the rule needs the token, one way (bison's header
 * declares it); the rule had been read as declaring it, the tie the
 * wrong way round. */
static int needs_change(const struct deps *d, size_t from, size_t to);

static void test_grammar_tokens(void)
{
	const char *gold = "%token NUM\n%%\nexpr: NUM { $$ = $1; }\n\t;\n%%\n";
	const char *gnew = "%token NUM\n%token NETBEUI\n%%\nexpr: NUM { $$ = $1; }\n\t| NETBEUI { $$ = 0; }\n\t;\n%%\n";
	const char *lold = "%{\n#include \"grammar.h\"\n%}\n%%\n[0-9]+\treturn NUM;\n%%\n";
	const char *lnew = "%{\n#include \"grammar.h\"\n%}\n%%\n[0-9]+\treturn NUM;\nnetbeui\treturn NETBEUI;\n%%\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "grammar.y", gold, gnew);
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);   /* 0: %token NETBEUI */
	change_set_add_hunk(s, 3, 0, 5, 1, "", 0);   /* 1: the grammar's rule */
	add_text(s, "scanner.l", lold, lnew);
	change_set_add_hunk(s, 5, 0, 6, 1, "", 0);   /* 2: the scanner's rule */
	struct deps d;
	deps_of(s, &d);
	CHECK(needs_change(&d, 2, 0) && needs_change(&d, 1, 0));
	CHECK(!needs_change(&d, 0, 2) && d.block[0] < 0 && d.block[2] < 0);
	deps_release(&d);
	change_set_free(s);
}

/* A call on an unchanged line whose arguments changed below it, of a
 * function only the new revision's hunks declare (the old one a macro
 * made, out of sight): the hunk holding the arguments and the new
 * definition only build together, either way. */
static void test_call_args_new_name(void)
{
	const char *old = "MAKE(decode, int)\nint run(int a)\n{\n\treturn decode(a,\n\t\t1);\n}\n";
	const char *new = "static int decode(int a)\n{\n\treturn a;\n}\nint run(int a)\n{\n\treturn decode(a,\n\t\t0);\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 1, 1, 1, 4, "", 0);   /* 0: the function defined */
	change_set_add_hunk(s, 5, 1, 8, 1, "", 0);   /* 1: the call's last argument */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1]);
	deps_release(&d);
	change_set_free(s);
}

/* deps_order over needs given by hand: change k is unit k. */
static void order_of(size_t n, const long *needs, size_t *order)
{
	struct deps d = {.nchanges = n};
	d.need = xcalloc(n, sizeof(*d.need));
	d.nneed = xcalloc(n, sizeof(*d.nneed));
	long unit_of[8];
	for (size_t c = 0; c < n; c++) {
		unit_of[c] = (long)c;
		order[c] = c;
		d.need[c] = xmalloc(n * sizeof(**d.need));
	}
	for (size_t k = 0; needs[k] >= 0; k += 2)
		d.need[needs[k]][d.nneed[needs[k]]++] = (size_t)needs[k + 1];
	deps_order(&d, unit_of, n, order, n, NULL, 0, 0);
	for (size_t c = 0; c < n; c++)
		free(d.need[c]);
	free(d.need);
	free(d.nneed);
}

/* A chain of needs whose top comes first (a removed tag, the removed macro
 * testing it, the loop using that) is taken bottom first; what needs
 * nothing keeps its place. */
static void test_order_chain(void)
{
	const long needs[] = {0, 2, 2, 3, -1};   /* 0 needs 2, 2 needs 3 */
	size_t order[5];
	order_of(5, needs, order);
	CHECK(order[0] == 3 && order[1] == 2 && order[2] == 0 && order[3] == 1 && order[4] == 4);
}

/* Reverting, users come first (reverting what they need reverts them),
 * by needs learnt apart from the dependences (none here): an include a
 * use needs comes after the use. */
static void test_order_users_first(void)
{
	long unit_of[4] = {0, 1, 2, 3};
	size_t order[4] = {0, 1, 2, 3};
	const size_t more[1][2] = {{2, 0}};   /* 2 uses what include 0 declares */
	deps_order(NULL, unit_of, 4, order, 4, more, 1, 1);
	CHECK(order[0] == 2 && order[1] == 0 && order[2] == 1 && order[3] == 3);
	size_t again[4] = {0, 1, 2, 3};
	deps_order(NULL, unit_of, 4, again, 4, more, 1, 0);   /* applying: the include first, as given */
	CHECK(again[0] == 0 && again[1] == 1 && again[2] == 2 && again[3] == 3);
}

/* Units that need each other (a definition and its prototype, the
 * prototype last in diff order) keep their order: the definition, which
 * may hold the cause, comes first, and what needs them comes after both. */
static void test_order_cycle(void)
{
	const long needs[] = {0, 3, 3, 0, 1, 0, -1};   /* 0 and 3 need each other; 1 needs 0 */
	size_t order[4];
	order_of(4, needs, order);
	CHECK(order[0] == 0 && order[1] == 3 && order[2] == 1 && order[3] == 2);
}

/* Net depth of one kind of bracket over d[a, b), or -1 when it closes one
 * it did not open (comments are not in these texts). */
static int depth_of(const char *d, size_t a, size_t b, char open, char close)
{
	int n = 0;
	for (size_t i = a; i < b; i++) {
		n += d[i] == open;
		n -= d[i] == close;
		if (n < 0)
			return -1;
	}
	return n;
}

/* Token pieces keep their brackets: a piece that would open a block
 * without its close (an if/else wrapped around old code) is merged with its
 * neighbours, so no piece alone leaves the file unbalanced; pieces that
 * are balanced (two constants on one line) stay apart, and a bracket in a
 * comment does not count. */
static void test_pieces_balanced(void)
{
	const char *old = "int f(struct n *c)\n{\n\twhile (c->next)\n\t\tc = c->next;\n\treturn g(1) + 2; /* ( */\n}\n";
	const char *new = "int f(struct n *c)\n{\n\tif (c->prev) {\n\t\tadd(c->prev);\n\t} else {\n\t\twhile (c->next)\n"
			  "\t\t\tc = c->next;\n\t}\n\treturn g(3) + 4; /* ( */\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 3, 2, 3, 6, "", 0);   /* the loop wrapped in if/else */
	change_set_add_hunk(s, 5, 1, 9, 1, "", 0);   /* two constants */
	struct cerr e;
	CHECK(change_set_finish(s, &e) == 0);
	CHECK(s->changes[1].natoms == 2);
	for (size_t a = 0; a < s->natoms; a++) {
		const struct change_atom *t = &s->atoms[a];
		for (int k = 0; k < 3; k++) {
			char o = "({["[k], c = ")}]"[k];
			CHECK(depth_of(old, t->old_off, t->old_end, o, c) == 0);
			CHECK(depth_of(new, t->new_off, t->new_end, o, c) == 0);
		}
	}
	change_set_free(s);
}

/* A cast's `(` that a call's name put before it makes the call's (its
 * `)` removed, the call's own kept at the end): the name alone would call
 * the cast, the rest alone is a comma expression. One piece, so the hunk
 * stays whole; a bracket whose partner is replaced within one piece does
 * not tie (`n > max) {`). */
static void test_pieces_call_made(void)
{
	const char *old = "long f(const char *s)\n{\n\tchar *e;\n\tlong v = (long) strtol(s, &e, 10);\n"
			  "\tif (n == 0 || n > cap)\n\t\treturn v;\n\treturn 0;\n}\n";
	const char *new = "long f(const char *s)\n{\n\tchar *e;\n\tlong v = parse((const unsigned char *) s,\n"
			  "\t\tstrlen(s));\n\tif ((n == 0 && *s) || n > max) {\n\t\treturn v;\n\t}\n\treturn 0;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "p.c", old, new);
	change_set_add_hunk(s, 4, 1, 4, 2, "", 0);   /* the cast made a call */
	change_set_add_hunk(s, 5, 2, 6, 3, "", 0);   /* a condition and a bound */
	struct cerr e;
	CHECK(change_set_finish(s, &e) == 0);
	CHECK(s->changes[0].natoms == 1);
	CHECK(s->changes[1].natoms >= 2);
	change_set_free(s);
}

/* Another function called with other arguments (`strtol(s, NULL, 10)`
 * made `parse(s)`): the arguments are the new callee's, one piece with its
 * name; the same callee's arguments changed alone stay pieces of their own. */
static void test_pieces_callee(void)
{
	const char *old = "long f(const char *s)\n{\n\tlong v = strtol(s, NULL, 10);\n\treturn g(v, 1) + 2;\n}\n";
	const char *new = "long f(const char *s)\n{\n\tlong v = parse(s);\n\treturn g(v, 3) + 4;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "c.c", old, new);
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);   /* another callee */
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);   /* two constants */
	struct cerr e;
	CHECK(change_set_finish(s, &e) == 0);
	CHECK(s->changes[0].natoms == 1);
	CHECK(s->changes[1].natoms == 2);
	change_set_free(s);
	/* What the new callee's value is used for goes with it (kuroko's
	 * `getFilePtr(argv[0])` made `AS_INSTANCE(argv[0])->_internal`);
	 * what merely follows the call does not. */
	old = "int w(void **argv)\n{\n\tFILE *f = getFilePtr(argv[0]);\n\treturn h(argv[1]) + 1;\n}\n";
	new = "int w(void **argv)\n{\n\tFILE *f = AS_INSTANCE(argv[0])->_internal;\n\treturn k(argv[1]) + 2;\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "w.c", old, new);
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);   /* another callee, its value's member */
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);   /* another callee, another constant */
	CHECK(change_set_finish(s, &e) == 0);
	CHECK(s->changes[0].natoms == 1);
	CHECK(s->changes[1].natoms == 2);
	change_set_free(s);
}

/* A piece in the parameter list of a function's declarator holds the
 * function's name (editline's prototype made `(const char *terminal_name)`:
 * its `const` piece only builds with the definition's); a piece in the
 * arguments of a call does not. */
static void test_piece_in_declarator(void)
{
	const char *old = "extern void reset(char *p);\nint use(int n)\n{\n\treturn add(n, 1) + 3;\n}\n";
	const char *new = "extern void reset(const char *name);\nint use(int n)\n{\n\treturn add(n, 2) + 4;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "e.h", old, new);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);   /* the parameter */
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);   /* a call's argument */
	struct cerr e;
	CHECK(change_set_finish(s, &e) == 0);
	const char reset[] = "reset\0", add[] = "add\0";
	size_t pieces = 0;
	for (size_t a = s->changes[0].atom0; a < s->changes[0].atom0 + s->changes[0].natoms; a++, pieces++)
		CHECK(sr_piece_names(s, a, reset));
	CHECK(pieces >= 1);
	CHECK(s->changes[1].natoms == 2);
	for (size_t a = s->changes[1].atom0; a < s->changes[1].atom0 + s->changes[1].natoms; a++)
		CHECK(!sr_piece_names(s, a, add));
	change_set_free(s);
}

/* A piece that opens an #if, or a brace, another piece or hunk closes is
 * bracketed; one that changes a condition or a value is not, nor is a
 * piece whose brackets pair within it. */
static void test_piece_bracketed(void)
{
	const char *old = "int f(int q)\n{\n\tif (q > s) {\n\t\treturn 1;\n\t}\n\treturn g(q);\n}\n";
	const char *new = "int f(int q)\n{\n#if FEATURE\n\tif (q > t) {\n\t\treturn 1;\n\t}\n\treturn g(h(q));\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 3, 1, 3, 2, "", 0);   /* #if added, s -> t */
	change_set_add_hunk(s, 6, 1, 7, 1, "", 0);   /* a call wrapped: h( ) */
	struct cerr e;
	CHECK(change_set_finish(s, &e) == 0);
	CHECK(s->changes[0].natoms == 2);
	size_t a0 = s->changes[0].atom0, nb = 0;
	for (size_t a = a0; a < a0 + s->changes[0].natoms; a++) {
		const struct change_atom *t = &s->atoms[a];
		int holds_if = memmem(new + t->new_off, t->new_end - t->new_off, "#if", 3) != NULL;
		CHECK(sr_piece_bracketed(s, a) == holds_if);
		nb += (size_t)holds_if;
	}
	CHECK(nb == 1);
	for (size_t a = s->changes[1].atom0; a < s->changes[1].atom0 + s->changes[1].natoms; a++) {
		const struct change_atom *t = &s->atoms[a];
		int paired = memchr(new + t->new_off, '(', t->new_end - t->new_off) &&
			     memchr(new + t->new_off, ')', t->new_end - t->new_off);
		CHECK(sr_piece_bracketed(s, a) == !paired);
	}
	change_set_free(s);
}

/* A local's declaration replaced by another's, name and type changed:
 * the line's pieces are one; the next line's stay apart. */
static void test_declaration_pieces_tied(void)
{
	const char *old = "void f(void)\n{\n\tbool save = st.flag;\n\tst.flag = false;\n\trun();\n}\n";
	const char *new = "void f(void)\n{\n\tstate_t *saved = save_state();\n\treset_state(false);\n\trun();\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 3, 2, 3, 2, "", 0);
	struct cerr e;
	CHECK(change_set_finish(s, &e) == 0);
	CHECK(s->changes[0].natoms >= 3);
	struct search sr;
	memset(&sr, 0, sizeof(sr));
	sr.s = s;
	sr.token_tie = xmalloc(s->natoms * sizeof(*sr.token_tie));
	for (size_t a = 0; a < s->natoms; a++)
		sr.token_tie[a] = a;
	sr_tie_declarations(&sr, 0);
	size_t root = SIZE_MAX, line1 = 0, apart = 0;
	for (size_t a = 0; a < s->natoms; a++) {
		const struct change_atom *t = &s->atoms[a];
		int on1 = t->old_line == 3 || t->new_line == 3;
		if (on1 && root == SIZE_MAX)
			root = sr_tie_root(sr.token_tie, a);
		if (on1) {
			line1++;
			CHECK(sr_tie_root(sr.token_tie, a) == root);
		} else if (t->old_line >= 4 && t->new_line >= 4) {
			apart += sr_tie_root(sr.token_tie, a) != root;
		}
	}
	CHECK(line1 >= 2);
	CHECK(apart >= 1);
	free(sr.token_tie);
	change_set_free(s);
}

/* Finish set s and tie its change 0's pieces into sr (sr_tie_declarations). */
static void tie_pieces(struct change_set *s, struct search *sr)
{
	struct cerr e;
	CHECK(change_set_finish(s, &e) == 0);
	memset(sr, 0, sizeof(*sr));
	sr->s = s;
	sr->token_tie = xmalloc((s->natoms + 1) * sizeof(*sr->token_tie));
	for (size_t a = 0; a < s->natoms; a++)
		sr->token_tie[a] = a;
	sr_tie_declarations(sr, 0);
}

static void untie(struct search *sr)
{
	free(sr->token_tie);
	free(sr->token_need);
}

/* A local renamed where it was declared and declared anew on a line the
 * hunk adds (zstd's `dictStartIndex` made `validLow`, `dictStartIndex =
 * lowLimit` added below): the rename's piece and the new declaration's
 * are one piece; the new line's other pieces are not tied to them. A new
 * local's use needs its declaration, one way. */
static void test_moved_declaration_pieces(void)
{
	struct search sr;
	const char *old = "void f(void)\n{\n\tconst int start = w.low;\n\tconst int gap = 1;\n\trun(start, gap);\n}\n";
	const char *new = "void f(void)\n{\n\tconst int valid = w.low;\n\tconst int gap = 2;\n"
			  "\tconst int start = valid > 9 ? 9 : valid;\n\trun(start, gap);\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 3, 2, 3, 3, "", 0);
	tie_pieces(s, &sr);
	CHECK(s->changes[0].natoms >= 3);
	size_t rename = SIZE_MAX, added = SIZE_MAX, gap = SIZE_MAX;
	for (size_t a = 0; a < s->natoms; a++) {
		const struct change_atom *t = &s->atoms[a];
		if (t->old_end > t->old_off && t->old_line == 3)
			rename = a;
		else if (t->new_end > t->new_off && t->new_line == 5)
			added = a;
		else if (t->old_end > t->old_off && t->old_line == 4)
			gap = a;
	}
	CHECK(rename != SIZE_MAX && added != SIZE_MAX && gap != SIZE_MAX);
	CHECK(sr_tie_root(sr.token_tie, rename) == sr_tie_root(sr.token_tie, added));
	CHECK(sr_tie_root(sr.token_tie, gap) != sr_tie_root(sr.token_tie, rename));
	untie(&sr);
	change_set_free(s);
	/* A new local and the piece using it; the other piece stays apart. */
	s = change_set_new("a", "b");
	add_text(s, "f.c", "void f(void)\n{\n\trun(1);\n\tstop(2);\n}\n",
		 "void f(void)\n{\n\tint extra = 3;\n\trun(4);\n\tstop(extra);\n}\n");
	change_set_add_hunk(s, 3, 2, 3, 3, "", 0);
	tie_pieces(s, &sr);
	CHECK(s->changes[0].natoms >= 3);
	size_t decl = SIZE_MAX, use = SIZE_MAX, other = SIZE_MAX;
	for (size_t a = 0; a < s->natoms; a++) {
		const struct change_atom *t = &s->atoms[a];
		const char *text = s->files[0].new_data + t->new_off;
		size_t n = t->new_end - t->new_off;
		if (n >= 5 && memmem(text, n, "int extra", 9))
			decl = a;
		else if (n == 5 && !memcmp(text, "extra", 5))
			use = a;
		else if (n == 1 && text[0] == '4')
			other = a;
	}
	CHECK(decl != SIZE_MAX && use != SIZE_MAX && other != SIZE_MAX);
	CHECK(sr.ntoken_need == 1 && sr.token_need[0][0] == use && sr.token_need[0][1] == decl);
	CHECK(sr_tie_root(sr.token_tie, other) != sr_tie_root(sr.token_tie, decl));
	untie(&sr);
	change_set_free(s);
	/* An assignment moved below a new check (make's `name = namemap +
	 * atoi (name + 1);` split): its removal and its new line are one
	 * piece, the check apart. */
	s = change_set_new("a", "b");
	add_text(s, "f.c", "void f(void)\n{\n\tname = map + atoi(name + 1);\n\tuse(name);\n}\n",
		 "void f(void)\n{\n\tint off = atoi(name + 1);\n\tif (off > 16)\n\t\treturn;\n"
		 "\tname = map + off;\n\tuse(name);\n}\n");
	change_set_add_hunk(s, 3, 1, 3, 4, "", 0);
	tie_pieces(s, &sr);
	size_t removal = SIZE_MAX, moved = SIZE_MAX, check = SIZE_MAX;
	for (size_t a = 0; a < s->natoms; a++) {
		const struct change_atom *t = &s->atoms[a];
		const char *text = s->files[0].new_data + t->new_off;
		size_t n = t->new_end - t->new_off;
		if (t->old_end > t->old_off && removal == SIZE_MAX)
			removal = a;
		if (memmem(text, n, "name = map + off", 16))
			moved = a;
		if (memmem(text, n, "if (off > 16)", 13))
			check = a;
	}
	CHECK(removal != SIZE_MAX && moved != SIZE_MAX && check != SIZE_MAX && moved != check);
	CHECK(sr_tie_root(sr.token_tie, removal) == sr_tie_root(sr.token_tie, moved));
	CHECK(sr_tie_root(sr.token_tie, check) != sr_tie_root(sr.token_tie, moved));
	/* The check uses the new local: it needs the declaration, and is
	 * none (its text starts at the declaration line's end). */
	int check_needs = 0;
	for (size_t k = 0; k < sr.ntoken_need; k++) {
		CHECK(sr.token_need[k][1] != check);
		check_needs |= sr.token_need[k][0] == check;
	}
	CHECK(check_needs);
	untie(&sr);
	change_set_free(s);
	/* An assignment edited in place, text inserted within it: no move. */
	s = change_set_new("a", "b");
	add_text(s, "f.c", "void f(void)\n{\n\ts = add2(s, v);\n}\n", "void f(void)\n{\n\ts = add2((int)s, 2 * v);\n}\n");
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);
	tie_pieces(s, &sr);
	CHECK(s->changes[0].natoms == 2);
	CHECK(sr_tie_root(sr.token_tie, 0) != sr_tie_root(sr.token_tie, 1));
	untie(&sr);
	change_set_free(s);
}

/* Statements pair with statements of their kind: `return -1;` edits
 * `return retval;`, not the declaration before it that also ends in
 * `-1;` (pocketpy's pieces had cut statements apart). A label (`done:`,
 * `case X:`) or a preprocessor line before a statement does not change
 * its kind. */
static void test_pieces_pair_kinds(void)
{
	const char *old = "int f(void)\n{\n\tint retval = flag ? 0 : -1;\n\tflag = 0;\n\treturn retval;\n}\n";
	const char *new = "int f(void)\n{\n\treturn -1;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 3, 3, 3, 1, "", 0);
	struct cerr e;
	CHECK(change_set_finish(s, &e) == 0);
	int edited = 0;
	for (size_t a = 0; a < s->natoms; a++) {
		const struct change_atom *t = &s->atoms[a];
		size_t ol = t->old_end - t->old_off, nl = t->new_end - t->new_off;
		CHECK(!(memmem(old + t->old_off, ol, "int", 3) && memmem(old + t->old_off, ol, "return", 6)));
		edited |= ol == 6 && !memcmp(old + t->old_off, "retval", 6) && nl == 2 && !memcmp(new + t->new_off, "-1", 2);
	}
	CHECK(edited);
	change_set_free(s);
	old = "int g(int n)\n{\n\treturn n;\n}\n";
	new = "int g(int n)\n{\ndone:\n\treturn n + 1;\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "g.c", old, new);
	change_set_add_hunk(s, 3, 1, 3, 2, "", 0);
	CHECK(change_set_finish(s, &e) == 0);
	CHECK(s->changes[0].natoms >= 2);
	change_set_free(s);
	/* A case label is a label: its return still edits the old one. */
	old = "int h(int t)\n{\n\tswitch (t) {\n\tdefault:\n\t\treturn 2;\n\t}\n}\n";
	new = "int h(int t)\n{\n\tswitch (t) {\n\tcase T_PERCENT:\n\t\treturn 1;\n\t}\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "h.c", old, new);
	change_set_add_hunk(s, 4, 2, 4, 2, "", 0);
	CHECK(change_set_finish(s, &e) == 0);
	CHECK(s->changes[0].natoms >= 2);
	change_set_free(s);
}

/* An else and its if in two different pieces only build together: the
 * pieces are one (while -> if, and a block with its else added). */
static void test_pieces_if_else(void)
{
	const char *old = "void f(struct n *c)\n{\n\twhile (c->next)\n\t\tc = c->next;\n}\n";
	const char *new = "void f(struct n *c)\n{\n\tif (c->prev)\n\t{\n\t\tc = c->prev;\n\t}\n\telse\n"
			  "\t\tc = c->next;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 3, 1, 3, 5, "", 0);
	struct cerr e;
	CHECK(change_set_finish(s, &e) == 0);
	for (size_t a = 0; a < s->natoms; a++) {
		const struct change_atom *t = &s->atoms[a];
		const char *in = memmem(new + t->new_off, t->new_end - t->new_off, "else", 4);
		const char *ifp = memmem(new + t->new_off, t->new_end - t->new_off, "if", 2);
		CHECK(!in || ifp);
	}
	change_set_free(s);
}

/* A local variable declared in a block whose condition compares (!=, ==,
 * <=) is a declaration of that function: the hunk using the new local
 * needs the hunk declaring it, and a comparison's operand is no member. */
static void test_local_in_compared_block(void)
{
	const char *old = "int f(int n, int *p)\n{\n\tint t = 0;\n\tfor (; n != 0 && t <= 99; p = p) {\n\t\tint k;\n"
			  "\t\tk = n--;\n\t\tt += k;\n\t}\n\treturn t + *p;\n}\n";
	const char *new = "int f(int n, int *p)\n{\n\tint t = 0;\n\tfor (; n != 0 && t <= 99; p = p) {\n\t\tint k;\n"
			  "\t\tint step;\n\t\tk = n--;\n\t\tstep = k;\n\t\tt += step;\n\t}\n\treturn t == *p;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 5, 0, 6, 1, "", 0);   /* + int step; */
	change_set_add_hunk(s, 7, 1, 8, 2, "", 0);   /* step = k; t += step; */
	change_set_add_hunk(s, 9, 1, 11, 1, "", 0);  /* return t == *p; */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.nneed[1] == 1 && d.need[1][0] == 0);
	CHECK(d.nneed[0] == 0 && d.nneed[2] == 0);
	CHECK(d.group[2] < 0);
	size_t out[3];
	CHECK(deps_declaring(&d, "step", out) == 1 && out[0] == 0);
	deps_release(&d);
	change_set_free(s);
}

/* A field left unchanged under a new #else is compiled out when the #if's
 * macro is defined, as if the hunk holding the #else had removed it: that
 * hunk, its #endif and the uses of the field wrapped the same way in
 * another file are one block (no part of it builds reverted alone), and a
 * constant elsewhere stays alone. */
static void test_guarded_field(void)
{
	const char *oh = "struct s {\n\tint n;\n\tint *buf;\n};\n";
	const char *nh = "struct s {\n\tint n;\n#ifdef X\n\tint *lo;\n#else\n\tint *buf;\n#endif\n};\n";
	const char *ou = "int f(struct s *p)\n{\n\treturn p->buf[0];\n}\n";
	const char *nu = "int f(struct s *p)\n{\n#ifdef X\n\treturn p->lo[0];\n#else\n\treturn p->buf[0];\n#endif\n}\n";
	const char *og = "int g(void)\n{\n\treturn 3;\n}\n", *ng = "int g(void)\n{\n\treturn 4;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "a.h", oh, nh);
	change_set_add_hunk(s, 2, 0, 3, 3, "", 0);   /* + #ifdef X  int *lo;  #else */
	change_set_add_hunk(s, 3, 0, 7, 1, "", 0);   /* + #endif */
	add_text(s, "b.c", ou, nu);
	change_set_add_hunk(s, 2, 0, 3, 3, "", 0);
	change_set_add_hunk(s, 3, 0, 7, 1, "", 0);
	add_text(s, "c.c", og, ng);
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0);
	for (size_t c = 1; c < 4; c++)
		CHECK(d.block[c] == d.block[0] && d.group[c] == d.group[0]);
	CHECK(d.block[4] < 0 && d.group[4] < 0);
	size_t out[5];
	CHECK(deps_declaring(&d, "buf", out) == 1 && out[0] == 0);
	deps_release(&d);
	change_set_free(s);
}

/* A function's prototype and definition are one block whenever their
 * declarations change; its callers join the block only when parameters
 * were added or removed (a call does not build against the other arity),
 * and are not tied at all when an integer type changed (int to long: the
 * call builds either way). */
static void test_signature_blocks(void)
{
	const char *oh = "int f(int x);\nint g(int x);\n", *nh = "int f(int x, int k);\nint g(long x);\n";
	const char *oc = "int f(int x)\n{\n\treturn x;\n}\nint g(int x)\n{\n\treturn 2;\n}\n"
			 "int h(void)\n{\n\treturn f(1) + g(2);\n}\n";
	const char *nc = "int f(int x, int k)\n{\n\treturn x;\n}\nint g(long x)\n{\n\treturn 2;\n}\n"
			 "int h(void)\n{\n\treturn f(1, 2) +\n\t\tg(3);\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "a.h", oh, nh);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);    /* f's prototype */
	change_set_add_hunk(s, 2, 1, 2, 1, "", 0);    /* g's prototype */
	add_text(s, "b.c", oc, nc);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);    /* f's definition */
	change_set_add_hunk(s, 5, 1, 5, 1, "", 0);    /* g's definition */
	change_set_add_hunk(s, 11, 1, 11, 2, "", 0);  /* the calls */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[2] && d.block[0] == d.block[4]);   /* f: arity */
	CHECK(d.block[1] >= 0 && d.block[1] == d.block[3] && d.block[1] != d.block[0]);   /* g: type */
	CHECK(d.group[1] >= 0 && d.group[4] != d.group[1]);   /* the call to g is not tied to g */
	size_t out[5];
	CHECK(deps_declaring(&d, "f", out) == 2);
	CHECK(!strcmp(d.hard_names[4], "f") && !d.hard_names[4][2]);   /* the name that ties it, not g */
	deps_release(&d);
	change_set_free(s);
}

/* A local renamed where it is declared with an initializer and where it is
 * used, in two hunks: each needs the other (the new name's use needs its
 * declaration, the old declaration's removal needs its use gone). */
static void test_renamed_initialized_local(void)
{
	const char *old = "int f(const char *s)\n{\n\tsize_t alloced = strlen(s) + 1;\n\tint a = 1;\n"
			  "\treturn a + (int)alloced;\n}\n";
	const char *new = "int f(const char *s)\n{\n\tsize_t max_size = strlen(s) + 1;\n\tint a = 1;\n"
			  "\treturn a + (int)max_size;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);   /* size_t max_size = ... */
	change_set_add_hunk(s, 5, 1, 5, 1, "", 0);   /* return a + (int)max_size; */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.nneed[0] == 1 && d.need[0][0] == 1);
	CHECK(d.nneed[1] == 1 && d.need[1][0] == 0);
	size_t out[2];
	CHECK(deps_declaring(&d, "max_size", out) == 1 && out[0] == 0);
	CHECK(deps_declaring(&d, "alloced", out) == 1 && out[0] == 0);
	deps_release(&d);
	change_set_free(s);
}

/* A multi-line call whose arguments change only on a line after the
 * name's (quickjs: `JS_NewCFunction3(ctx, ...,\n  proto);` given one
 * argument more): the hunk holding them is the call's, in the block of
 * the function whose parameters were added; a call to a function whose
 * type changed is tied softly the same way. */
static void test_multiline_call(void)
{
	const char *old = "static int mk(int a,\n\tint b)\n{\n\treturn a * b;\n}\n"
			  "static long w(int x)\n{\n\treturn x;\n}\n"
			  "int use(void)\n{\n\tint x = mk(1,\n\t\t2);\n\tlong y = w(1 +\n\t\t1);\n\treturn x + (int)y;\n}\n";
	const char *new = "static int mk(int a,\n\tint b, int c)\n{\n\treturn a * b;\n}\n"
			  "static long w(long x)\n{\n\treturn x;\n}\n"
			  "int use(void)\n{\n\tint x = mk(1,\n\t\t2, 0);\n\tlong y = w(1 +\n\t\t2L);\n\treturn x + (int)y;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "m.c", old, new);
	change_set_add_hunk(s, 2, 1, 2, 1, "", 0);     /* mk gains c */
	change_set_add_hunk(s, 6, 1, 6, 1, "", 0);     /* w takes a long */
	change_set_add_hunk(s, 13, 1, 13, 1, "", 0);   /* mk's call: its second line */
	change_set_add_hunk(s, 15, 1, 15, 1, "", 0);   /* w's call: its second line */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[2]);   /* mk: arity */
	CHECK(d.block[1] < 0 || d.block[1] != d.block[3]);    /* w: a type, not a block */
	CHECK(d.group[1] >= 0 && d.group[1] == d.group[3]);   /* but a group */
	CHECK(d.group[0] != d.group[1] || d.group[0] < 0 || d.block[0] != d.block[1]);
	deps_release(&d);
	change_set_free(s);
}

/* Names made by token pasting: a header of DEF(...) lines, read by a
 * macro another file defines (`OP_ ## id`, `id ## _t`, two parameters
 * pasted), declares OP_pop where DEF(pop, 1) is; renaming the opcode ties
 * the header's hunk to the hunks using the new and old names. */
/* A new field, set by one hunk (the parameters' initialization) and read
 * by another (an allocation's size): the reader needs the setter, one
 * way; a field the old revision had ties nothing so. */
static void test_field_set_needs(void)
{
	const char *oldh = "struct params {\n\tint quality;\n};\n";
	const char *newh = "struct params {\n\tint quality;\n\tsize_t max_regions;\n};\n";
	const char *oldc = "#include \"p.h\"\nvoid init(struct params *p)\n{\n\tp->quality = 5;\n}\n"
			   "void *make(struct params *p)\n{\n\treturn malloc(p->quality);\n}\n";
	const char *newc = "#include \"p.h\"\nvoid init(struct params *p)\n{\n\tp->quality = 5;\n\tp->max_regions = 64;\n}\n"
			   "void *make(struct params *p)\n{\n\treturn malloc(p->quality + p->max_regions);\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "p.h", oldh, newh);
	change_set_add_hunk(s, 2, 0, 3, 1, "", 0);   /* 0: the field */
	add_text(s, "p.c", oldc, newc);
	change_set_add_hunk(s, 4, 0, 5, 1, "", 0);   /* 1: its value set */
	change_set_add_hunk(s, 8, 1, 9, 1, "", 0);   /* 2: read */
	struct deps d;
	deps_of(s, &d);
	CHECK(needs_change(&d, 2, 1) && !needs_change(&d, 1, 2));
	CHECK(needs_change(&d, 2, 0) && needs_change(&d, 1, 0));
	deps_release(&d);
	change_set_free(s);
}

/* A template header: its function's name made by a pasting macro the
 * including file defines before each include (brotli's `static void
 * FN(BuildAndStoreEntropyCodes)(...)` with `#define FN(X) X ## Literal`),
 * a parameter added: the callers of each made name are its block. */
static void test_template_header(void)
{
	const char *oldh = "static void FN(Build)(int a)\n{\n\tuse(a);\n}\n";
	const char *newh = "static void FN(Build)(int a, const int *b64)\n{\n\tuse(a + (b64 != 0));\n}\n";
	const char *oldc = "#define FN(X) X ## Lit\n#include \"tmpl.h\"\n#undef FN\n#define FN(X) X ## Cmd\n#include \"tmpl.h\"\n"
			   "#undef FN\nint run(void)\n{\n\tBuildLit(1);\n\tBuildCmd(2);\n\treturn 0;\n}\n";
	const char *newc = "#define FN(X) X ## Lit\n#include \"tmpl.h\"\n#undef FN\n#define FN(X) X ## Cmd\n#include \"tmpl.h\"\n"
			   "#undef FN\nint run(void)\n{\n\tBuildLit(1, 0);\n\tBuildCmd(2, 0);\n\treturn 0;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "tmpl.h", oldh, newh);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);   /* 0: the new parameter */
	add_text(s, "m.c", oldc, newc);
	change_set_add_hunk(s, 9, 1, 9, 1, "", 0);   /* 1: BuildLit's call */
	change_set_add_hunk(s, 10, 1, 10, 1, "", 0); /* 2: BuildCmd's call */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1] && d.block[0] == d.block[2]);
	deps_release(&d);
	change_set_free(s);
}

static void test_pasted_names(void)
{
	const char *oldh = "DEF(push, 1)\nDEF(drop, 1)\nDEF(halt, 0)\n";
	const char *newh = "DEF(push, 1)\nDEF(pop, 1)\nDEF(halt, 0)\n";
	const char *oldc = "#define DEF(id, n) OP_ ## id,\nenum {\n#include \"ops.h\"\n};\n#undef DEF\n"
			   "#define DEF(id, n) typedef int id ## _t; enum { K_ ## id ## _ ## n = n };\n"
			   "#include \"ops.h\"\n#undef DEF\n"
			   "int run(int op)\n{\n\tif (op == OP_drop)\n\t\treturn 2;\n\treturn 0;\n}\n"
			   "int size(void)\n{\n\treturn K_push_1;\n}\n";
	const char *newc = "#define DEF(id, n) OP_ ## id,\nenum {\n#include \"ops.h\"\n};\n#undef DEF\n"
			   "#define DEF(id, n) typedef int id ## _t; enum { K_ ## id ## _ ## n = n };\n"
			   "#include \"ops.h\"\n#undef DEF\n"
			   "int run(int op)\n{\n\tif (op == OP_pop)\n\t\treturn 2;\n\treturn 0;\n}\n"
			   "int size(void)\n{\n\treturn K_push_1 + (int)sizeof(pop_t);\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "ops.h", oldh, newh);
	change_set_add_hunk(s, 2, 1, 2, 1, "", 0);   /* ops.h: DEF(drop, 1) -> DEF(pop, 1) */
	add_text(s, "m.c", oldc, newc);
	change_set_add_hunk(s, 11, 1, 11, 1, "", 0); /* m.c: OP_drop -> OP_pop */
	change_set_add_hunk(s, 17, 1, 17, 1, "", 0); /* m.c: + sizeof(pop_t) */
	struct deps d;
	deps_of(s, &d);
	size_t out[3];
	CHECK(deps_declaring(&d, "OP_pop", out) == 1 && out[0] == 0);
	CHECK(deps_declaring(&d, "OP_drop", out) == 1 && out[0] == 0);
	CHECK(deps_declaring(&d, "pop_t", out) == 1 && out[0] == 0);
	CHECK(deps_declaring(&d, "K_pop_1", out) == 1 && out[0] == 0);
	CHECK(deps_declaring(&d, "K_push_1", out) == 0);   /* an unchanged line */
	CHECK(deps_declaring(&d, "OP_", out) == 0);
	/* The new names' users need the header's hunk, and removing OP_drop
	 * needs its use gone. */
	int n1 = 0, n2 = 0, n0 = 0;
	for (size_t k = 0; k < d.nneed[1]; k++)
		n1 |= d.need[1][k] == 0;
	for (size_t k = 0; k < d.nneed[2]; k++)
		n2 |= d.need[2][k] == 0;
	for (size_t k = 0; k < d.nneed[0]; k++)
		n0 |= d.need[0][k] == 1;
	CHECK(n1 && n2 && n0);
	deps_release(&d);
	change_set_free(s);
	/* The macro in an unchanged header: read from the sources given. */
	const char *vm = "enum {\n#define DEF(id, n) OP_ ## id,\n#include \"ops.h\"\n#undef DEF\n};\n";
	const char *oldu = "#include \"vm.h\"\nint f(void)\n{\n\treturn OP_drop;\n}\n";
	const char *newu = "#include \"vm.h\"\nint f(void)\n{\n\treturn OP_pop;\n}\n";
	struct deps_source src = {vm, strlen(vm)};
	CHECK(deps_source_of("vm.h", vm, strlen(vm)) && deps_reads("vm.h") && !deps_reads("README"));
	CHECK(!deps_source_of("vm.txt", vm, strlen(vm)) && !deps_source_of("u.c", oldu, strlen(oldu)));
	for (int with = 0; with < 2; with++) {
		s = change_set_new("a", "b");
		add_text(s, "ops.h", oldh, newh);
		change_set_add_hunk(s, 2, 1, 2, 1, "", 0);
		add_text(s, "u.c", oldu, newu);
		change_set_add_hunk(s, 4, 1, 4, 1, "", 0);
		struct cerr e;
		CHECK(change_set_finish(s, &e) == 0);
		deps_compute(s, with ? &src : NULL, with ? 1 : 0, &d);
		CHECK(deps_declaring(&d, "OP_pop", out) == (size_t)with);
		CHECK((d.nneed[1] == 1 && d.need[1][0] == 0) == with);
		deps_release(&d);
		change_set_free(s);
	}
}

/* A type changed so that no value passes between the revisions' (a
 * pointer made a number, void made a value, a pointer to another type)
 * ties its declaring hunk and its users as a block, as an arity change
 * does: gcc 12 with -w builds such a mix silently; so is a pointer to
 * const made writable or the reverse (the new code writes through it). A
 * change values still pass through (int to long, void * to char *) ties a
 * group only. */
static void test_type_clash(void)
{
	const char *old = "struct node { struct node *next; };\n"
			  "static void emph(struct node *bottom)\n{\n\t(void)bottom;\n}\n"
			  "static void move(int a)\n{\n\t(void)a;\n}\n"
			  "static long widen(int a)\n{\n\treturn a;\n}\n"
			  "static int len(char *s)\n{\n\treturn s[0];\n}\n"
			  "static void *any(struct node *n)\n{\n\treturn n;\n}\n"
			  "int use(struct node *n)\n{\n\temph(n->next);\n\tmove(1);\n\tchar buf[8] = \"x\";\n"
			  "\treturn (int)widen(1) + len(buf) + (any(n) != 0);\n}\n";
	const char *new = "struct node { struct node *next; };\n"
			  "static void emph(long bottom)\n{\n\t(void)bottom;\n}\n"
			  "static int move(int a)\n{\n\treturn a;\n}\n"
			  "static long widen(long a)\n{\n\treturn a;\n}\n"
			  "static int len(const char *s)\n{\n\treturn s[0];\n}\n"
			  "static char *any(struct node *n)\n{\n\treturn (char *)n;\n}\n"
			  "int use(struct node *n)\n{\n\temph(0);\n\tint r = move(1);\n\tchar buf[16] = \"x\";\n"
			  "\treturn (int)widen(2) + len(buf) + (any(n) != 0) + r;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "t.c", old, new);
	change_set_add_hunk(s, 2, 1, 2, 1, "", 0);     /* 0: emph takes a long */
	change_set_add_hunk(s, 6, 1, 6, 1, "", 0);     /* 1: move returns int */
	change_set_add_hunk(s, 8, 1, 8, 1, "", 0);     /* 2: ... its value */
	change_set_add_hunk(s, 10, 1, 10, 1, "", 0);   /* 3: widen takes a long */
	change_set_add_hunk(s, 14, 1, 14, 1, "", 0);   /* 4: len takes a const char * */
	change_set_add_hunk(s, 18, 1, 18, 1, "", 0);   /* 5: any returns a char * */
	change_set_add_hunk(s, 20, 1, 20, 1, "", 0);   /* 6: return (char *)n */
	change_set_add_hunk(s, 24, 3, 24, 3, "", 0);   /* 7: the calls, buf[16] */
	change_set_add_hunk(s, 27, 1, 27, 1, "", 0);   /* 8: widen(2), r */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[7]);   /* a pointer made a number */
	CHECK(d.block[1] >= 0 && d.block[1] == d.block[7]);   /* void made a value */
	CHECK(d.block[3] < 0 || d.block[3] != d.block[8]);    /* int to long: the call builds either way */
	CHECK(d.group[3] < 0 || d.group[3] != d.group[8]);
	CHECK(d.block[4] >= 0 && d.block[4] == d.block[8]);   /* a pointer to const */
	CHECK(d.block[5] < 0 || d.block[5] != d.block[8]);    /* void * to char * */
	deps_release(&d);
	change_set_free(s);
}

/* A label and its gotos: a hunk adding `goto done;` needs the hunk
 * adding `done:` (gcc: label 'done' used but not defined), also when a
 * macro's call without `;` ends the statement above it; removing a label
 * needs its gotos gone. A case label, a ternary and a bit-field declare
 * nothing. */
static void test_labels(void)
{
	const char *old = "struct b { int x : 3; };\nint f(int x)\n{\n\tint r = 0;\n\tswitch (x) {\n\tcase 1:\n"
			  "\t\tr = x ? 1 : 2;\n\t\tbreak;\n\t}\n\tif (x < 0)\n\t\tgoto out;\n\tr++;\nout:\n\treturn r;\n}\n";
	const char *new = "struct b { int x : 3; };\nint f(int x)\n{\n\tint r = 0;\n\tswitch (x) {\n\tcase 1:\n"
			  "\t\tr = x ? 1 : 2;\n\t\tbreak;\n\t}\n\tif (x > 9)\n\t\tgoto done;\n\tr++;\ndone:\n\treturn r;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 10, 2, 10, 2, "", 0);   /* if (x > 9) goto done; */
	change_set_add_hunk(s, 13, 1, 13, 1, "", 0);   /* out: -> done: */
	struct deps d;
	deps_of(s, &d);
	size_t out[2];
	CHECK(deps_declaring(&d, "done", out) == 1 && out[0] == 1);
	CHECK(deps_declaring(&d, "out", out) == 1 && out[0] == 1);
	CHECK(deps_declaring(&d, "x", out) == 0 && deps_declaring(&d, "case", out) == 0);
	CHECK(d.nneed[0] == 1 && d.need[0][0] == 1);   /* the goto needs its label */
	CHECK(d.nneed[1] == 1 && d.need[1][0] == 0);   /* out: removed needs its goto gone */
	deps_release(&d);
	change_set_free(s);

	/* After a macro's call that ends its statement without a `;`. */
	const char *oldm = "int g(int x)\n{\n\tint r = 0;\n\tif (x)\n\t\tr = 1;\n\tr++;\n\tIF_PLUS(r = h();)\n\treturn r;\n}\n";
	const char *newm = "int g(int x)\n{\n\tint r = 0;\n\tif (x)\n\t\tgoto out;\n\tr++;\n\tIF_PLUS(r = h();)\n"
			   "out:\n\treturn r;\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "g.c", oldm, newm);
	change_set_add_hunk(s, 5, 1, 5, 1, "", 0);   /* goto out; */
	change_set_add_hunk(s, 7, 0, 8, 1, "", 0);   /* out: */
	deps_of(s, &d);
	CHECK(deps_declaring(&d, "out", out) == 1 && out[0] == 1);
	CHECK(d.nneed[0] == 1 && d.need[0][0] == 1);
	deps_release(&d);
	change_set_free(s);
}

/* A pasting macro passed to an X-macro list (`MAP(GEN)`): the list's
 * calls of its parameter declare the names GEN makes. */
static void test_passed_paste(void)
{
	const char *oh = "#define MAP(XX) \\\n  XX(OK, \"ok\") \\\n  XX(LONG, \"too long\")\n"
			 "#define GEN(n, s) E_##n,\nenum err { MAP(GEN) };\n";
	const char *nh = "#define MAP(XX) \\\n  XX(OK, \"ok\") \\\n  XX(SHORT, \"too short\") \\\n"
			 "  XX(LONG, \"too long\")\n#define GEN(n, s) E_##n,\nenum err { MAP(GEN) };\n";
	const char *oc = "#include \"e.h\"\nint check(int n)\n{\n\tif (n > 9)\n\t\treturn E_LONG;\n\treturn E_OK;\n}\n";
	const char *nc = "#include \"e.h\"\nint check(int n)\n{\n\tif (n > 9)\n\t\treturn E_LONG;\n"
			 "\tif (n < 2)\n\t\treturn E_SHORT;\n\treturn E_OK;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "e.h", oh, nh);
	change_set_add_hunk(s, 2, 0, 3, 1, "", 0);   /* XX(SHORT, ...) */
	add_text(s, "e.c", oc, nc);
	change_set_add_hunk(s, 5, 0, 6, 2, "", 0);   /* return E_SHORT */
	struct deps d;
	deps_of(s, &d);
	size_t out[2];
	CHECK(deps_declaring(&d, "E_SHORT", out) == 1 && out[0] == 0);
	CHECK(d.nneed[1] == 1 && d.need[1][0] == 0);   /* the use needs the list's line */
	CHECK(deps_declaring(&d, "E_OK", out) == 0);   /* unchanged lines declare nothing a hunk holds */
	deps_release(&d);
	change_set_free(s);
}

/* Old-style (K&R) definitions: their parameters and locals are the
 * function's, not globals of the file, so a local's change in one
 * function does not tie the uses of a local of that name in another. */
static void test_kr_definitions(void)
{
	const char *old = "int f(s, n)\n  char *s;\n  int n;\n{\n\tunsigned len;\n\tlen = n;\n\treturn len;\n}\n"
			  "int g(p)\n  char *p;\n{\n\tunsigned len;\n\tlen = 1;\n\treturn len;\n}\n";
	const char *new = "int f(s, n)\n  char *s;\n  int n;\n{\n\tlong len;\n\tlen = n;\n\treturn len;\n}\n"
			  "int g(p)\n  char *p;\n{\n\tunsigned len;\n\tlen = 2;\n\treturn len;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "k.c", old, new);
	change_set_add_hunk(s, 5, 1, 5, 1, "", 0);    /* f's len: unsigned -> long */
	change_set_add_hunk(s, 13, 1, 13, 1, "", 0);  /* g: len = 2 */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.group[0] == -1 && d.group[1] == -1);   /* two functions' locals */
	size_t out[2];
	CHECK(deps_declaring(&d, "len", out) == 1 && out[0] == 0);
	deps_release(&d);
	change_set_free(s);
}

/* A function rewritten by several hunks (most of its lines changed on
 * both sides) is one block; a function changed in two places is not. */
static void test_rewritten_function(void)
{
	const char *old = "int sum(int *v, int n)\n{\n\tint s = 0;\n\tfor (int i = 0; i < n; i++)\n\t\ts += v[i];\n"
			  "\treturn s;\n}\n"
			  "int max(int *v, int n)\n{\n\tint m = v[0];\n\tfor (int i = 1; i < n; i++)\n"
			  "\t\tif (v[i] > m)\n\t\t\tm = v[i];\n\treturn m;\n}\n";
	const char *new = "int sum(const int *v, int n)\n{\n\tint t = 0;\n\twhile (n-- > 0)\n\t\tt += *v++;\n"
			  "\treturn t;\n}\n"
			  "int max(int *v, int n)\n{\n\tint m = v[0];\n\tfor (int i = 1; i < n; i++)\n"
			  "\t\tif (v[i] >= m)\n\t\t\tm = v[i];\n\treturn m;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "r.c", old, new);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);    /* sum's signature */
	change_set_add_hunk(s, 3, 3, 3, 3, "", 0);    /* sum's body */
	change_set_add_hunk(s, 6, 1, 6, 1, "", 0);    /* sum's return */
	change_set_add_hunk(s, 12, 1, 12, 1, "", 0);  /* max: > to >= */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] == 0 && d.block[1] == 0 && d.block[2] == 0);
	CHECK(d.block[3] == -1);
	CHECK(d.rewrite[0] && d.rewrite[1] && d.rewrite[2] && !d.rewrite[3]);
	deps_release(&d);
	change_set_free(s);
	/* Rewritten and renamed by one hunk (lighttpd's li_base64_decode made
	 * li_base64_dec): one piece too; max's one-line edit is not. */
	const char *renamed = "int total(const int *v, int n)\n{\n\tint t = 0;\n\twhile (n-- > 0)\n\t\tt += *v++;\n"
			      "\treturn t;\n}\n"
			      "int max(int *v, int n)\n{\n\tint m = v[0];\n\tfor (int i = 1; i < n; i++)\n"
			      "\t\tif (v[i] >= m)\n\t\t\tm = v[i];\n\treturn m;\n}\n";
	s = change_set_new("a", "b");
	add_text(s, "r.c", old, renamed);
	change_set_add_hunk(s, 1, 6, 1, 6, "", 0);    /* sum rewritten as total */
	change_set_add_hunk(s, 12, 1, 12, 1, "", 0);  /* max: > to >= */
	deps_of(s, &d);
	CHECK(d.rewrite[0] && !d.rewrite[1]);
	deps_release(&d);
	change_set_free(s);
}

/* A void function made to return a value: the hunks holding its returns
 * are in its block with the signature and the caller using the value; a
 * local moved to another hunk (`unsigned e = 0;` removed, `unsigned e =
 * init();` added) ties the two hunks into that block. */
static void test_returns_and_moved_local(void)
{
	const char *old = "void init(int *p)\n{\n\t*p = 0;\n}\n"
			  "int run(void)\n{\n\tunsigned e = 0;\n\tint v;\n\tinit(&v);\n\treturn e + v;\n}\n";
	const char *new = "unsigned init(int *p)\n{\n\t*p = 0;\n\treturn 0;\n}\n"
			  "int run(void)\n{\n\tint v;\n\tunsigned e = init(&v);\n\treturn e + v;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "i.c", old, new);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);   /* void -> unsigned */
	change_set_add_hunk(s, 3, 0, 4, 1, "", 0);   /* return 0; */
	change_set_add_hunk(s, 7, 1, 7, 0, "", 0);   /* unsigned e = 0; removed */
	change_set_add_hunk(s, 9, 1, 9, 1, "", 0);   /* unsigned e = init(&v); */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] == 0 && d.block[1] == 0 && d.block[3] == 0);
	CHECK(d.block[2] == 0);   /* the moved local, with the call it is declared from */
	deps_release(&d);
	change_set_free(s);
}

/* A typedef name ending in _t is declared (`typedef int flag_t;`), and
 * the prototype using it needs it. */
static void test_typedef_t(void)
{
	const char *old = "int f(int v);\n";
	const char *new = "typedef int flag_t;\nint f(int v);\nstatic flag_t g(flag_t v);\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "t.c", old, new);
	change_set_add_hunk(s, 0, 0, 1, 1, "", 0);   /* the typedef */
	change_set_add_hunk(s, 1, 0, 3, 1, "", 0);   /* its user */
	struct deps d;
	deps_of(s, &d);
	size_t out[2];
	CHECK(deps_declaring(&d, "flag_t", out) == 1 && out[0] == 0);
	CHECK(d.nneed[1] == 1 && d.need[1][0] == 0);
	deps_release(&d);
	change_set_free(s);
}

/* An unchanged line mixing two declarations whose types changed together
 * (`url = clean(...)`: a local and a function's return, both made
 * pointers) ties their blocks. */
static void test_mixed_clash(void)
{
	const char *old = "struct chunk { char *p; };\nstruct chunk clean(int n);\nint use(int n)\n{\n"
			  "\tstruct chunk url;\n\turl = clean(n);\n\treturn 0;\n}\n";
	const char *new = "struct chunk { char *p; };\nchar *clean(int n);\nint use(int n)\n{\n"
			  "\tchar *url;\n\turl = clean(n);\n\treturn 0;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "m.c", old, new);
	change_set_add_hunk(s, 2, 1, 2, 1, "", 0);   /* clean's type */
	change_set_add_hunk(s, 5, 1, 5, 1, "", 0);   /* url's type */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] == 0 && d.block[1] == 0);
	deps_release(&d);
	change_set_free(s);
}

/* Helpers commented out: a `/` `*` line added above two unchanged
 * functions and its closing line below them, while a third hunk removes
 * a call. The two comment lines are one block, the functions' names are
 * the opening hunk's, and it needs the call's removal. */
static void test_commented_out(void)
{
	const char *old = "static int depth;\nstatic void enter(void) { depth++; }\nstatic void leave(void) { depth--; }\n"
			  "int f(void)\n{\n\tenter();\n\treturn depth;\n}\n";
	const char *new = "static int depth;\n/*\nstatic void enter(void) { depth++; }\nstatic void leave(void) { depth--; }\n"
			  "*/\nint f(void)\n{\n\treturn depth;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "c.c", old, new);
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);   /* the comment's opening line */
	change_set_add_hunk(s, 3, 0, 5, 1, "", 0);   /* its closing line */
	change_set_add_hunk(s, 6, 1, 7, 0, "", 0);   /* the call removed */
	struct deps d;
	deps_of(s, &d);
	size_t out[3];
	CHECK(d.block[0] == 0 && d.block[1] == 0);
	CHECK(deps_declaring(&d, "enter", out) == 1 && out[0] == 0);
	CHECK(deps_declaring(&d, "leave", out) == 1 && out[0] == 0);
	CHECK(d.nneed[0] == 1 && d.need[0][0] == 2);
	deps_release(&d);
	change_set_free(s);
}


/* An old function compiled out by a new `#if NODEF` ... `#endif` around
 * it (QCBOR's old Init kept for reference): its unchanged body still uses a
 * field another hunk renames. Renaming the field builds only with the old
 * body compiled out: the rename needs the conditional's hunks. */
static void test_compiled_out(void)
{
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "b.h", "struct buf {\n\tint size;\n};\n", "struct buf {\n\tint len;\n};\n");
	change_set_add_hunk(s, 2, 1, 2, 1, "", 0);   /* 0: the field renamed */
	add_text(s, "b.c",
		 "#include \"b.h\"\nvoid init_old(struct buf *b)\n{\n\tb->size = 0;\n}\nvoid init(struct buf *b, int n)\n{\n"
		 "\tb->size = n;\n}\n",
		 "#include \"b.h\"\n#if NODEF\nvoid init_old(struct buf *b)\n{\n\tb->size = 0;\n}\n#endif\nvoid init(struct "
		 "buf *b, int n)\n{\n\tb->len = n;\n}\n");
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);   /* 1: #if NODEF */
	change_set_add_hunk(s, 5, 0, 7, 1, "", 0);   /* 2: #endif */
	change_set_add_hunk(s, 8, 1, 10, 1, "", 0);  /* 3: the use renamed */
	struct deps d;
	deps_of(s, &d);
	CHECK(needs_change(&d, 0, 1));
	CHECK(d.block[1] >= 0 && d.block[1] == d.block[2]);
	CHECK(needs_change(&d, 0, 3) && needs_change(&d, 3, 0));
	/* The conditional's hunks need nothing of the rename: reverting the
	 * rename with the old body compiled out builds. */
	CHECK(d.nneed[1] == 0 && d.nneed[2] == 0 && d.block[0] != d.block[1]);
	deps_release(&d);
	change_set_free(s);
}

/* An object-like macro read as a member (c-ares's `#define addrV4
 * addr.addr4`, used as `server->addrV4`): removing the macro needs its
 * uses gone, as for any name. */
static void test_macro_member(void)
{
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "a.h", "struct sa { union { int addr4; } addr; };\n#define addrV4 addr.addr4\n",
		 "struct sa { union { int addr4; } addr; };\n");
	change_set_add_hunk(s, 2, 1, 1, 0, "", 0);   /* 0: the macro removed */
	add_text(s, "a.c", "#include \"a.h\"\nint get(struct sa *s)\n{\n\treturn s->addrV4;\n}\n",
		 "#include \"a.h\"\nint get(struct sa *s)\n{\n\treturn s->addr.addr4;\n}\n");
	change_set_add_hunk(s, 4, 1, 4, 1, "", 0);   /* 1: its use */
	struct deps d;
	deps_of(s, &d);
	CHECK(needs_change(&d, 0, 1));
	deps_release(&d);
	change_set_free(s);
}

/* A function renamed, a parameter of the old head made a local of the new
 * body by another hunk (tcpdump's `ether_hdr_len_print(..., u_int hdrlen)`
 * made `ether_print_common(...)` with `u_int hdrlen;` below): apart,
 * `hdrlen` is declared twice, or not at all. The two are a block. */
static void test_renamed_parameter_local(void)
{
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "p.c", "static void hdr_print(int len, int hdrlen)\n{\n\tint n = len;\n\tn += hdrlen;\n\tout(n);\n}\n",
		 "static void print_common(int len, int tag)\n{\n\tint hdrlen;\n\tint n = len;\n\thdrlen = tag * 2;\n"
		 "\tn += hdrlen;\n\tout(n);\n}\n");
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);   /* 0: the head renamed, hdrlen dropped */
	change_set_add_hunk(s, 2, 0, 3, 1, "", 0);   /* 1: the local */
	change_set_add_hunk(s, 3, 0, 5, 1, "", 0);   /* 2: its value */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1]);
	deps_release(&d);
	change_set_free(s);
	/* Not renamed, a function of the same lines elsewhere keeps its own. */
	s = change_set_new("a", "b");
	add_text(s, "q.c", "static void one(int k)\n{\n\tout(k);\n}\n",
		 "static void one(int k)\n{\n\tint j;\n\tout(k);\n}\nstatic void two(int j)\n{\n\tout(j);\n}\n");
	change_set_add_hunk(s, 2, 0, 3, 1, "", 0);   /* 0: a local j */
	change_set_add_hunk(s, 4, 0, 6, 4, "", 0);   /* 1: a new function with a parameter j */
	deps_of(s, &d);
	CHECK(d.block[0] < 0 || d.block[0] != d.block[1]);
	deps_release(&d);
	change_set_free(s);
}

/* A static helper exported: `static` dropped from its definition in one
 * file, a prototype added to a header, a call added in another file. The
 * call needs both (it does not link against the static one). */
static void test_static_exported(void)
{
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "num.c", "static long parse(const char *s)\n{\n\treturn 0;\n}\nlong two(void)\n{\n\treturn parse(\"2\");\n}\n",
		 "long parse(const char *s)\n{\n\treturn 0;\n}\nlong two(void)\n{\n\treturn parse(\"2\");\n}\n");
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);   /* static dropped */
	add_text(s, "num.h", "long two(void);\n", "long two(void);\nlong parse(const char *s);\n");
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);   /* the prototype */
	add_text(s, "main.c", "int main(void)\n{\n\treturn (int)two();\n}\n",
		 "int main(void)\n{\n\treturn (int)parse(\"1\");\n}\n");
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);   /* the call */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.nneed[2] == 2 && ((d.need[2][0] == 0 && d.need[2][1] == 1) || (d.need[2][0] == 1 && d.need[2][1] == 0)));
	deps_release(&d);
	change_set_free(s);
}

/* An `else` made `else switch (ret)` by one hunk, the cases of the old
 * switch (removed with its braces by the next hunk) made its own: the
 * cases' hunk and the switch's need each other. */
static void test_switch_moved(void)
{
	const char *old = "const char *f(int ret)\n{\n\tconst char *msg;\n\tif (ret == 0)\n\t\tmsg = \"ok\";\n"
			  "\telse\n\t{\n\t\tswitch (ret)\n\t\t{\n\t\tcase 1:\n\t\t\tmsg = \"one\";\n\t\t\tbreak;\n"
			  "\t\tdefault:\n\t\t\tmsg = \"many\";\n\t\t}\n\t}\n\treturn msg;\n}\n";
	const char *new = "const char *f(int ret)\n{\n\tconst char *msg;\n\tif (ret == 0)\n\t\tmsg = \"ok\";\n"
			  "\telse switch (ret)\n\t{\n\tcase 1:\n\t\tmsg = \"one\";\n\t\tbreak;\n"
			  "\tdefault:\n\t\tmsg = \"many\";\n\t}\n\treturn msg;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "m.c", old, new);
	change_set_add_hunk(s, 6, 1, 6, 1, "", 0);     /* else -> else switch (ret) */
	change_set_add_hunk(s, 8, 7, 8, 5, "", 0);     /* the old switch's head gone, its cases re-indented */
	change_set_add_hunk(s, 15, 1, 12, 0, "", 0);   /* its closing brace */
	struct deps d;
	deps_of(s, &d);
	int needs = 0, back = 0;
	for (size_t k = 0; k < d.nneed[1]; k++)
		needs |= d.need[1][k] == 0;
	for (size_t k = 0; k < d.nneed[0]; k++)
		back |= d.need[0][k] == 1;
	CHECK(needs && back);
	deps_release(&d);
	change_set_free(s);
}

/* A local declared in one macro's body (`struct num C;` in INIT) and read
 * in another's (`&C` in LAST): removing the declaration needs the use
 * gone. A name in an array's initializer is no declaration. */
static void test_macro_local(void)
{
	const char *old = "#define INIT(b) \\\n\tint i = 0; \\\n\tstruct num C; \\\n\tC.n = (b);\n"
			  "#define LAST \\\n\tfix(N, &C, i);\n"
			  "static const struct opt opts[] = {\n\t{ 0, \"a\", 1 },\n\t{ 0, NULL, 0 }\n};\n";
	const char *new = "#define INIT(b) \\\n\tint i = 0; \\\n\tsize_t bits = (b);\n"
			  "#define LAST \\\n\tfix(N, bits, i);\n"
			  "static const struct opt opts[] = {\n\t{ 0, \"a\", 1 },\n\t{ 0, \"b\", 2 },\n\t{ 0, NULL, 0 }\n};\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "ecp.c", old, new);
	change_set_add_hunk(s, 3, 2, 3, 1, "", 0);   /* C's declaration and use in INIT made bits */
	change_set_add_hunk(s, 6, 1, 5, 1, "", 0);   /* LAST's &C made bits */
	change_set_add_hunk(s, 8, 0, 8, 1, "", 0);   /* a row of the table */
	struct deps d;
	deps_of(s, &d);
	int needs = 0;
	for (size_t k = 0; k < d.nneed[0]; k++)
		needs |= d.need[0][k] == 1;
	CHECK(needs);
	size_t out[3];
	CHECK(deps_declaring(&d, "NULL", out) == 0);
	deps_release(&d);
	change_set_free(s);
}

/* A source included into another's translation unit (`#include "split.c"`
 * moved into a branch the build does not take, a new definition of its
 * function added elsewhere): the include's hunk is involved in the
 * function's name, for repairing a configuration that links without it. */
static void test_included_source(void)
{
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "re.c", "#ifndef SYS\n#include \"split.c\"\n#else\n#endif\n",
		 "#ifndef SYS\n#else\n#include \"split.c\"\n#endif\n");
	change_set_add_hunk(s, 2, 1, 1, 0, "", 0);   /* the include gone from the taken branch */
	change_set_add_hunk(s, 3, 0, 2, 1, "", 0);   /* and put in the other */
	add_text(s, "builtin.c", "int one(void) { return 1; }\n",
		 "int one(void) { return 1; }\nint is_split(int c) { return c == ' '; }\n");
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);   /* a new definition */
	add_text(s, "split.c", "int is_split(int c)\n{\n\treturn c == 1;\n}\n",
		 "int is_split(int c)\n{\n\treturn c == 2;\n}\n");
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);   /* its old definition changed */
	struct deps d;
	deps_of(s, &d);
	size_t out[8];
	size_t n = deps_involving(&d, "is_split", out);
	int inc = 0;
	for (size_t k = 0; k < n; k++)
		inc |= out[k] == 0 || out[k] == 1;
	CHECK(inc);
	deps_release(&d);
	change_set_free(s);
}

/* A macro whose body declares its parameter (`#define PARAMS(p) struct
 * params p;`): its call in a function declares the local it is passed,
 * which the hunk below it uses. */
static void test_declaring_macro(void)
{
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "priv.h", "struct params { int n; };\n",
		 "struct params { int n; };\n#define PARAMS(p) struct params p;\n");
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);   /* the macro */
	add_text(s, "warn.c", "void warn(int a)\n{\n\tif (a)\n\t\treturn;\n\tsay(a);\n}\n",
		 "void warn(int a)\n{\n\tPARAMS(q)\n\tif (a)\n\t\treturn;\n\tq.n = a;\n\tsay_with(&q);\n}\n");
	change_set_add_hunk(s, 2, 0, 3, 1, "", 0);   /* PARAMS(q) */
	change_set_add_hunk(s, 5, 1, 6, 2, "", 0);   /* q used */
	struct deps d;
	deps_of(s, &d);
	int needs = 0;
	for (size_t k = 0; k < d.nneed[2]; k++)
		needs |= d.need[2][k] == 1;
	CHECK(needs);
	deps_release(&d);
	change_set_free(s);
}

/* Tokens match within the statements the two sides pair: a statement
 * added after a changed one is a piece of its own (`p->items++;` made
 * `p->items += 2;` with `p->quiet++;` added: the old `++;` is not the new
 * line's tail). A piece that only changes blanks joins its neighbour; a
 * blank inside a literal is a piece. */
static void test_pieces_statements(void)
{
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "i.c", "\tp->items++;\n", "\tp->items += 2;\n\tp->quiet++;\n");
	change_set_add_hunk(s, 1, 1, 1, 2, "", 0);
	struct cerr e;
	CHECK(change_set_finish(s, &e) == 0);
	CHECK(s->changes[0].natoms == 2);
	struct change_lines l;
	change_lines_of_atom(s, 0, &l);
	CHECK(l.nadded == 1 && l.added_marked && strstr(l.added_marked[0], "{+ += 2+}"));
	change_lines_free(&l);
	change_lines_of_atom(s, 1, &l);
	CHECK(l.nremoved == 0 && l.nadded == 1 && !strcmp(l.added[0], "\tp->quiet++;"));
	change_lines_free(&l);
	change_set_free(s);

	s = change_set_new("a", "b");
	add_text(s, "w.c", "\tfoo(a, b,\n\t    c);\n", "\tfoo(a,\n\t    b, d);\n");
	change_set_add_hunk(s, 1, 2, 1, 2, "", 0);
	CHECK(change_set_finish(s, &e) == 0);
	CHECK(s->changes[0].natoms == 1);   /* the rewrap joins c made d */
	change_set_free(s);

	s = change_set_new("a", "b");
	add_text(s, "q.c", "\tputs(\"a b\"); x = 1;\n", "\tputs(\"a  b\"); x = 2;\n");
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);
	CHECK(change_set_finish(s, &e) == 0);
	CHECK(s->changes[0].natoms == 2);
	change_set_free(s);
}

/* A string literal continued by backslashes over three lines: what
 * follows it is on the lines the file has (the hunk changing the function
 * below owns its declaration). */
static void test_continued_literal(void)
{
	const char *text = "const char defs[] = \"\\\ntypedef int a;\\\ntypedef int b;\\\n\";\n\nvoid setup(int *pc)\n{\n}\n";
	struct scan sc;
	scan_file(text, strlen(text), &sc);
	int line = 0;
	for (size_t k = 0; k < sc.nd; k++)
		if (!strcmp(sc.d[k].name, "setup"))
			line = sc.d[k].first;
	CHECK(line == 6);
	scan_release(&sc);
}

/* A header gains `#include "state.h"` and, below it, prototypes taking
 * the type state.h now declares (`State *st`): the prototypes need the
 * include, as a file including only the header would not know the type. */
static void test_new_include_declares(void)
{
	const char *oh = "#include <stddef.h>\n\n/* run */\nvoid run(void);\n";
	const char *nh = "#include <stddef.h>\n#include \"state.h\"\n\n/* run */\nvoid run(State *st);\n";
	const char *os = "struct other { int n; };\n";
	const char *ns = "struct other { int n; };\ntypedef struct state { int n; } State;\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "run.h", oh, nh);
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);   /* 0: the include */
	change_set_add_hunk(s, 4, 1, 5, 1, "", 0);   /* 1: the prototype */
	add_text(s, "state.h", os, ns);
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);   /* 2: the typedef */
	struct deps d;
	deps_of(s, &d);
	int inc = 0;
	for (size_t k = 0; k < d.nneed[1]; k++)
		inc |= d.need[1][k] == 0;
	CHECK(inc);
	deps_release(&d);
	change_set_free(s);
}

/* A source and its header added, listed in Makefile.inc's source list
 * and included by a changed header: the list and the file need each other
 * (compiled only when listed; a listed file missing stops the build); the
 * include needs the header, one way. A line naming another file, or a
 * NEWS file naming it, does not tie. A makefile listing the source's
 * object ties as its list does. */
static void test_added_file_listed(void)
{
	const char *hc = "int ht_get(int k)\n{\n\treturn k;\n}\n";
	const char *hh = "int ht_get(int k);\n";
	const char *om = "SRC = a.c \\\n  b.c\n";
	const char *nm = "SRC = a.c \\\n  ht.c \\\n  b.c\nEXTRA = ht.c.in\n";
	const char *op = "#include \"a.h\"\nint x;\n";
	const char *np = "#include \"a.h\"\n#include \"ht.h\"\nint x;\n";
	struct change_set *s = change_set_new("a", "b");
	change_set_add_file(s, "src/ht.c", "src/ht.c", 0, 0100644, NULL, 0, hc, strlen(hc), CHANGE_ADDED, 0);
	change_set_add_file_change(s, CHANGE_FILE_ADD);   /* 0 */
	change_set_add_file(s, "src/ht.h", "src/ht.h", 0, 0100644, NULL, 0, hh, strlen(hh), CHANGE_ADDED, 0);
	change_set_add_file_change(s, CHANGE_FILE_ADD);   /* 1 */
	add_text(s, "src/Makefile.inc", om, nm);
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);        /* 2: ht.c listed */
	change_set_add_hunk(s, 2, 0, 4, 1, "", 0);        /* 3: ht.c.in, another file */
	add_text(s, "src/priv.h", op, np);
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);        /* 4: the include */
	add_text(s, "NEWS", "1.0\n", "1.1: ht.c\n1.0\n");
	change_set_add_hunk(s, 0, 0, 1, 1, "", 0);        /* 5: news naming it */
	struct deps d;
	deps_of(s, &d);
	int needs[6][6] = {{0}};
	for (size_t c = 0; c < 6; c++)
		for (size_t k = 0; k < d.nneed[c]; k++)
			if (d.need[c][k] < 6)
				needs[c][d.need[c][k]] = 1;
	CHECK(needs[0][2] && needs[2][0]);
	CHECK(needs[4][1] && !needs[1][4]);
	CHECK(!needs[3][0] && !needs[0][3]);
	CHECK(!needs[5][0] && !needs[0][5]);
	deps_release(&d);
	change_set_free(s);
	/* Listed by its object (libtommath's makefile); an object of another
	 * name does not tie. */
	s = change_set_new("a", "b");
	change_set_add_file(s, "ht.c", "ht.c", 0, 0100644, NULL, 0, hc, strlen(hc), CHANGE_ADDED, 0);
	change_set_add_file_change(s, CHANGE_FILE_ADD);   /* 0 */
	add_text(s, "makefile", "OBJ = a.o \\\n  b.o\n", "OBJ = a.o \\\n  ht.o hts.o \\\n  b.o\nX = ht.obj2\n");
	change_set_add_hunk(s, 1, 0, 2, 1, "", 0);        /* 1: ht.o listed */
	change_set_add_hunk(s, 2, 0, 4, 1, "", 0);        /* 2: another name */
	deps_of(s, &d);
	int n01 = 0, n10 = 0, n02 = 0;
	for (size_t k = 0; k < d.nneed[0]; k++) {
		n01 |= d.need[0][k] == 1;
		n02 |= d.need[0][k] == 2;
	}
	for (size_t k = 0; k < d.nneed[1]; k++)
		n10 |= d.need[1][k] == 0;
	CHECK(n01 && n10 && !n02);
	deps_release(&d);
	change_set_free(s);
}

/* A function closed early by one hunk (`y();` and `}` in place of an if
 * block) and a new function opened by another: the hunk removing the
 * statements between them is at file level in the new revision and in
 * the function in the old, so without the closing hunk it would put its
 * statements at file level; the hunk after g's head changes f's code
 * into g's (`u(a)` made `u(s)`): the four are one block. */
static void test_scope_shift(void)
{
	const char *old = "void f(int a)\n{\n\tif (a) {\n\t\tx();\n\t}\n\t/* then */\n\tif (c) {\n\t\tz();\n\t}\n"
			  "\t/* last */\n\tw();\n\t/* more */\n\tu(a);\n}\n";
	const char *new = "void f(int a)\n{\n\ty();\n}\n\t/* then */\n\t/* last */\nvoid g(int s)\n{\n\t/* more */\n"
			  "\tu(s);\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", old, new);
	change_set_add_hunk(s, 3, 3, 3, 2, "", 0);    /* 0: closes f early */
	change_set_add_hunk(s, 7, 3, 5, 0, "", 0);    /* 1: the if between */
	change_set_add_hunk(s, 11, 1, 7, 2, "", 0);   /* 2: opens g */
	change_set_add_hunk(s, 13, 1, 10, 1, "", 0);  /* 3: f's code made g's */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1] && d.block[1] == d.block[2] && d.block[2] == d.block[3]);
	deps_release(&d);
	change_set_free(s);
}

/* A definition missing its opening brace (code under an #if no build
 * here compiles): the `if (x == NULL) {` below it reads as a function's
 * head, but a keyword is never declared. */
static void test_keyword_not_declared(void)
{
	const char *text = "#if defined(ANDROID)\nstatic int init(int *s)\n  int i;\n#ifdef HAVE_OLD\n  if (s == NULL) {\n"
			   "    i = 1;\n  }\n#endif\n  return 0;\n}\n#endif\n";
	struct scan sc;
	scan_file(text, strlen(text), &sc);
	int kw = 0;
	for (size_t k = 0; k < sc.nd; k++)
		kw |= !strcmp(sc.d[k].name, "if");
	CHECK(!kw);
	scan_release(&sc);
}

/* Prototypes a macro makes by pasting (`static void emit_ ## type ##
 * _start(struct ctx *c, bool first);`, called as `OPS(json)`): a hunk
 * changing the macro's parameters changes each name's declaration, so it
 * declares them, in one block with the definition changed to match; a
 * hunk changing another statement of the macro does not. */
static void test_pasted_prototype(void)
{
	const char *old = "#define OPS(type) \\\n\tstatic void emit_ ## type ## _start(struct ctx *c); \\\n"
			  "\tstatic void emit_ ## type ## _end(struct ctx *c);\nOPS(json)\n\n"
			  "static void emit_json_start(struct ctx *c)\n{\n\tput(c);\n}\n";
	const char *new = "#define OPS(type) \\\n\tstatic void emit_ ## type ## _start(struct ctx *c, int first); \\\n"
			  "\tstatic void emit_ ## type ## _end(struct ctx *c);\nOPS(json)\n\n"
			  "static void emit_json_start(struct ctx *c, int first)\n{\n\tput(c);\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "e.c", old, new);
	change_set_add_hunk(s, 2, 1, 2, 1, "", 0);   /* 0: the macro's _start prototype */
	change_set_add_hunk(s, 6, 1, 6, 1, "", 0);   /* 1: the definition */
	struct deps d;
	deps_of(s, &d);
	CHECK(d.block[0] >= 0 && d.block[0] == d.block[1]);
	CHECK(strstr(d.names[0], "emit_json_start") && !strstr(d.names[0], "emit_json_end"));
	deps_release(&d);
	change_set_free(s);
}

/* A function's locals are its file's: `f` rewritten in a.c loses its
 * local `s` (one hunk) and its uses (another), while b.c gains a static
 * `f` with the same local. Removing the declaration needs its uses
 * removed; b.c's `s` is another variable. */
static void test_locals_per_file(void)
{
	const char *oa = "static int f(int n)\n{\n\tint s = 0;\n\t/* sum */\n\ts += n;\n\treturn s;\n}\n";
	const char *na = "static int f(int n)\n{\n\t/* sum */\n\treturn n;\n}\n";
	const char *ob = "int x;\n";
	const char *nb = "int x;\nstatic int f(int n)\n{\n\tint s = 0;\n\treturn s + n;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "a.c", oa, na);
	change_set_add_hunk(s, 3, 1, 2, 0, "", 0);   /* 0: `int s = 0;` removed */
	change_set_add_hunk(s, 5, 2, 3, 1, "", 0);   /* 1: its uses removed */
	add_text(s, "b.c", ob, nb);
	change_set_add_hunk(s, 1, 0, 2, 5, "", 0);   /* 2: b.c's f */
	struct deps d;
	deps_of(s, &d);
	int need = 0;
	for (size_t k = 0; k < d.nneed[0]; k++)
		need |= d.need[0][k] == 1;
	CHECK(need);
	CHECK(d.block[0] < 0 || d.block[0] != d.block[2]);
	deps_release(&d);
	change_set_free(s);
}

static int needs_change(const struct deps *d, size_t from, size_t to)
{
	for (size_t k = 0; k < d->nneed[from]; k++)
		if (d->need[from][k] == to)
			return 1;
	return 0;
}

/* A field moved from one struct to another (`port` from struct addr to
 * struct server, its uses `s->addr.port` made `s->port`): keyed by its
 * struct, it is removed from one and added to the other, not the same
 * declaration moved. The new use needs the field added; removing the
 * field from struct addr needs the old use gone (reverted, the use
 * restored takes the field back). */
static void test_field_moved(void)
{
	const char *oh = "struct addr {\n\tint a;\n\tshort port;\n};\nstruct server {\n\tint idx;\n\tstruct addr addr;\n};\n";
	const char *nh = "struct addr {\n\tint a;\n};\nstruct server {\n\tint idx;\n\tstruct addr addr;\n\tshort port;\n};\n";
	const char *oc = "int p(struct server *s)\n{\n\treturn s->addr.port;\n}\n";
	const char *nc = "int p(struct server *s)\n{\n\treturn s->port;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.h", oh, nh);
	change_set_add_hunk(s, 3, 1, 2, 0, "", 0);   /* 0: port leaves struct addr */
	change_set_add_hunk(s, 7, 0, 7, 1, "", 0);   /* 1: port joins struct server */
	add_text(s, "u.c", oc, nc);
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);   /* 2: the use */
	struct deps d;
	deps_of(s, &d);
	CHECK(needs_change(&d, 2, 1));
	CHECK(needs_change(&d, 0, 2));
	CHECK(d.block[0] < 0 || d.block[0] != d.block[1]);
	deps_release(&d);
	change_set_free(s);
}

/* Functions reordered: the diff pairs the old lines of one function with
 * the new lines of another. A hunk whose old lines are in get() and new
 * lines in save() (`o->n = n;`), applied alone, puts save's code in get's
 * body, where its parameter o is undeclared: it needs the hunk holding
 * save's new head. So does one in a function put in another's place with
 * another type; a hunk inside a function renamed in place does not. */
static void test_head_moved(void)
{
	const char *o = "int get(int n)\n{\n\tint r = n;\n\treturn r;\n}\n"
			"void save(struct opt *o, int n)\n{\n\to->m = n;\n}\n"
			"int old_name(int k)\n{\n\treturn 0;\n}\n"
			"static int next(int q)\n{\n\treturn 0;\n}\n";
	const char *n = "void save(struct opt *o, int n)\n{\n\to->n = n;\n\treturn;\n}\n"
			"int get(int n)\n{\n\treturn n;\n}\n"
			"int new_name(int k)\n{\n\treturn 1;\n}\n"
			"static char *pick(int q)\n{\n\treturn name();\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "m.c", o, n);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);     /* 0: get's head made save's */
	change_set_add_hunk(s, 3, 2, 3, 2, "", 0);     /* 1: get's lines made save's */
	change_set_add_hunk(s, 6, 1, 6, 1, "", 0);     /* 2: save's head made get's */
	change_set_add_hunk(s, 8, 1, 8, 1, "", 0);     /* 3: save's line made get's */
	change_set_add_hunk(s, 10, 1, 10, 1, "", 0);   /* 4: the rename */
	change_set_add_hunk(s, 12, 1, 12, 1, "", 0);   /* 5: in the renamed function */
	change_set_add_hunk(s, 14, 1, 14, 1, "", 0);   /* 6: next replaced by pick, another type */
	change_set_add_hunk(s, 16, 1, 16, 1, "", 0);   /* 7: its return */
	struct deps d;
	deps_of(s, &d);
	CHECK(needs_change(&d, 1, 0));
	CHECK(needs_change(&d, 3, 2));
	CHECK(!needs_change(&d, 5, 4));
	CHECK(needs_change(&d, 7, 6));
	deps_release(&d);
	change_set_free(s);
}

/* A function split in two: its head renamed for the first half (leaf),
 * a new head with the old name opened in its middle. The old code after
 * the new head is now the new function's: the hunk removing the old loop
 * that uses the old function's `i` is needed by the new head (without it,
 * `i` is undeclared there, the new function's own `i` being in a block
 * that ends before). A function renamed with the same parameters
 * does not tie its body's hunks (the test above). */
static void test_function_split(void)
{
	const char *o = "int get(struct c *c, const char *name)\n{\n\tunsigned int i;\n\tfor (i = 0; c->o[i]; i++)\n"
			"\t\tif (eq(c->o[i], name))\n\t\t\treturn i;\n\tfor (i = 0; c->s[i]; i++)\n\t\tlook(c->s[i]);\n"
			"\treturn -1;\n}\n";
	const char *n = "static int leaf(struct c *c, const char *name)\n{\n\tunsigned int i;\n\tfor (i = 0; c->o[i]; i++)\n"
			"\t\tif (eq(c->o[i], name))\n\t\t\treturn i;\n\treturn -1;\n}\nint get(struct c *c, const char *name)\n"
			"{\n\tif (name) {\n\t\tunsigned int i;\n\t\tfor (i = 0; i < 1; i++)\n\t\t\tname++;\n\t}\n"
			"\treturn leaf(c, name);\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "g.c", o, n);
	change_set_add_hunk(s, 1, 1, 1, 1, "", 0);    /* 0: get's head made leaf's */
	change_set_add_hunk(s, 6, 0, 7, 10, "", 0);   /* 1: leaf's end, the new get, its own i in a block */
	change_set_add_hunk(s, 7, 3, 16, 0, "", 0);   /* 2: the old loop over i removed */
	struct deps d;
	deps_of(s, &d);
	CHECK(needs_change(&d, 1, 2));
	deps_release(&d);
	change_set_free(s);
}

/* A local's initializer dropped by one hunk (`int ok = 1;` made `int ok;`)
 * and an assignment added by another: without the second, the first reads
 * the local uninitialized, so it needs it; not the other way. */
static void test_init_moved(void)
{
	const char *o = "int f(int c)\n{\n\tint ok = 1;\n\tc++;\n\treturn ok + c;\n}\n";
	const char *n = "int f(int c)\n{\n\tint ok;\n\tc++;\n\tok = c > 1;\n\treturn ok + c;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "i.c", o, n);
	change_set_add_hunk(s, 3, 1, 3, 1, "", 0);   /* 0: the initializer dropped */
	change_set_add_hunk(s, 4, 0, 5, 1, "", 0);   /* 1: the assignment */
	struct deps d;
	deps_of(s, &d);
	CHECK(needs_change(&d, 0, 1));
	CHECK(!needs_change(&d, 1, 0));
	deps_release(&d);
	change_set_free(s);
}

/* A counter raised by one hunk of a function and lowered by another
 * (`p->quiet++;` ... `p->quiet--;`), a lock and its unlock: the hunks
 * need each other. A parameter or local (an index), a count raised
 * alone, and a hunk balanced on its own do not tie. */
static void test_paired_operations(void)
{
	const char *o = "void f(struct s *p, int k)\n{\n\tsay(p);\n\tfor (int i = 0; i < k; i++)\n\t\tput(i);\n\tdone(p);\n\tp->n++;\n\treturn;\n}\n";
	const char *n = "void f(struct s *p, int k)\n{\n\tsay(p);\n\tp->quiet++;\n\tlock(&p->m); k++;\n\tfor (int i = 0; i < k; i++)\n\t\tput(i);\n\tk--;\n\tdone(p);\n\tp->n += 2;\n\tunlock(&p->m);\n\tp->quiet--;\n\tp->x++;\n\tp->x--;\n}\n";
	struct change_set *s = change_set_new("a", "b");
	add_text(s, "f.c", o, n);
	change_set_add_hunk(s, 3, 0, 4, 2, "", 0);    /* 0: quiet++, lock, k++ */
	change_set_add_hunk(s, 5, 0, 8, 1, "", 0);    /* 1: k-- (a parameter) */
	change_set_add_hunk(s, 7, 2, 10, 5, "", 0);   /* 2: n += 2, unlock, quiet--, x++, x-- */
	struct deps d;
	deps_of(s, &d);
	int need02 = 0, need20 = 0, need1 = d.nneed[1] > 0;
	for (size_t k = 0; k < d.nneed[0]; k++)
		need02 |= d.need[0][k] == 2;
	for (size_t k = 0; k < d.nneed[2]; k++)
		need20 |= d.need[2][k] == 0;
	CHECK(need02 && need20);
	CHECK(!need1);
	deps_release(&d);
	change_set_free(s);
}

/* A change that only declares: prototypes, locals and fields without a
 * value, struct and typedef bodies; the names it declares. Anything that
 * runs or holds a value does not. */
static int only_declares(const char *text, const char *want)
{
	struct buf names = BUF_INIT;
	int only = scan_declares_only(text, &names);
	int named = 1;
	if (want) {
		struct buf w = BUF_INIT;
		for (const char *p = want; *p; p++)
			buf_addc(&w, *p == ' ' ? '\0' : *p);
		buf_addc(&w, '\0');
		named = names.len == w.len && !memcmp(names.s, w.s, w.len);
		buf_release(&w);
	}
	buf_release(&names);
	return only && named;
}

static void test_declares_only(void)
{
	CHECK(only_declares(" static int grow(struct it *p, size_t n); ", "grow"));
	CHECK(only_declares(" int n; char *name; ", "n name"));
	CHECK(only_declares(" struct pt { int x; int y; }; ", NULL));
	CHECK(only_declares(" typedef struct { int a; } cell_t; ", NULL));
	CHECK(!only_declares(" int n = 0; ", NULL));
	CHECK(!only_declares(" grow(p, 2); ", NULL));
	CHECK(!only_declares(" return n; ", NULL));
	CHECK(!only_declares(" n++; ", NULL));
	CHECK(!only_declares(" #define N 4 ", NULL));
	CHECK(!only_declares(" int f(void) { return 1; } ", NULL));
	CHECK(!only_declares(" struct pt p = { 0, 1 }; ", NULL));
}

int main(void)
{
	RUN(test_declares_only);
	RUN(test_paired_operations);
	RUN(test_locals_per_file);
	RUN(test_field_moved);
	RUN(test_generated_name);
	RUN(test_include_removed);
	RUN(test_loop_continue);
	RUN(test_do_while);
	RUN(test_local_shadows_global);
	RUN(test_set_needs);
	RUN(test_extern_c);
	RUN(test_call_args_new_name);
	RUN(test_head_moved);
	RUN(test_function_split);
	RUN(test_init_moved);
	RUN(test_pasted_prototype);
	RUN(test_keyword_not_declared);
	RUN(test_scope_shift);
	RUN(test_added_file_listed);
	RUN(test_new_include_declares);
	RUN(test_continued_literal);
	RUN(test_pieces_statements);
	RUN(test_declaring_macro);
	RUN(test_included_source);
	RUN(test_switch_moved);
	RUN(test_macro_local);
	RUN(test_static_exported);
	RUN(test_commented_out);
	RUN(test_compiled_out);
	RUN(test_renamed_parameter_local);
	RUN(test_macro_member);
	RUN(test_flex_sections);
	RUN(test_grammar_tokens);
	RUN(test_typedef_t);
	RUN(test_mixed_clash);
	RUN(test_returns_and_moved_local);
	RUN(test_passed_paste);
	RUN(test_kr_definitions);
	RUN(test_rewritten_function);
	RUN(test_labels);
	RUN(test_type_clash);
	RUN(test_pasted_names);
	RUN(test_template_header);
	RUN(test_field_set_needs);
	RUN(test_multiline_call);
	RUN(test_renamed_initialized_local);
	RUN(test_signature_blocks);
	RUN(test_guarded_field);
	RUN(test_local_in_compared_block);
	RUN(test_one_way_needs);
	RUN(test_unbalanced_hunks);
	RUN(test_moved_definition);
	RUN(test_moved_up_definition);
	RUN(test_array_field);
	RUN(test_moved_include);
	RUN(test_moved_across_files);
	RUN(test_moved_local);
	RUN(test_integer_retyped);
	RUN(test_calls_alike);
	RUN(test_enum_typedef_source);
	RUN(test_renumbered_labels);
	RUN(test_attribute_macro);
	RUN(test_export_macro_type);
	RUN(test_moved_statements);
	RUN(test_globals_into_fields);
	RUN(test_parameter_line_added);
	RUN(test_neutral_changes);
	RUN(test_static_namesakes);
	RUN(test_endless_heads);
	RUN(test_generated_file);
	RUN(test_struct_migration);
	RUN(test_nested_fields);
	RUN(test_shifted_context_brackets);
	RUN(test_order_chain);
	RUN(test_macro_alias);
	RUN(test_header_include);
	RUN(test_order_cycle);
	RUN(test_order_users_first);
	RUN(test_shadowing_parameter);
	RUN(test_bracket_pairs);
	RUN(test_pieces_balanced);
	RUN(test_pieces_if_else);
	RUN(test_pieces_call_made);
	RUN(test_pieces_callee);
	RUN(test_piece_in_declarator);
	RUN(test_piece_bracketed);
	RUN(test_statement_after_directive);
	RUN(test_declaration_guarded);
	RUN(test_conditionals_moved);
	RUN(test_declaration_pieces_tied);
	RUN(test_moved_declaration_pieces);
	RUN(test_pieces_pair_kinds);
	RUN(test_gcc_messages);
	RUN(test_clang_messages);
	RUN(test_unused_messages);
	RUN(test_quiet_needs);
	TEST_EXIT();
}
