/* csrc — the structure of C sources, with libclang: the functions of a file
 * with their line extents, and its branches (if, loops, switch, ?:) with the
 * variables each arm may assign, the static fact the explainer's critical
 * predicates need. Compiler flags come from compile_commands.json. */
#ifndef CULPRIT_CSRC_H
#define CULPRIT_CSRC_H

#include <stddef.h>
#include "core/util.h"

struct csrc_function {
	char *name;
	int start_line, end_line;
};

enum csrc_branch_kind {
	CSRC_IF,
	CSRC_WHILE,
	CSRC_FOR,
	CSRC_DO,
	CSRC_SWITCH,
	CSRC_CONDITIONAL,   /* c ? a : b */
};

/* Names assigned in one arm: plain variables by name; a struct field or an
 * array element by the name of the variable it belongs to. */
struct csrc_names {
	char **v;
	size_t n;
};

struct csrc_branch {
	enum csrc_branch_kind kind;
	int line;                    /* of the condition */
	struct csrc_names then_arm;  /* the body of a loop; the cases of a switch */
	struct csrc_names else_arm;  /* empty for loops and switch */
};

struct csrc_file {
	char *path;
	struct csrc_function *funcs;
	size_t nfuncs;
	struct csrc_branch *branches;
	size_t nbranches;
};

/* Parse path into *tu (in index) the way gcc would accept it: the
 * project's arguments, then errors gcc does not make (a bare `return;` in a
 * non-void function, implicit int or declarations, pointer and integer
 * mix-ups) turned into warnings; an argument clang does not know is dropped
 * and the parse tried again. unsaved may be NULL. 0, or <0 with e set. */
struct CXTranslationUnitImpl;
struct CXUnsavedFile;
int csrc_parse_tu(void *index, const char *path, struct CXUnsavedFile *unsaved, unsigned nunsaved,
		  const char *const *args, int nargs, unsigned options, struct CXTranslationUnitImpl **tu,
		  struct cerr *e);

/* Parse path with the compiler arguments args (may be NULL); f is embedded:
 * release with csrc_release. Syntax errors are not fatal (libclang keeps
 * going); a file that cannot be read or parsed at all is an error. */
int csrc_parse(struct csrc_file *f, const char *path, const char *const *args, int nargs, struct cerr *e);
void csrc_release(struct csrc_file *f);
/* The function whose extent holds line, or NULL. */
const struct csrc_function *csrc_function_at(const struct csrc_file *f, int line);
/* Whether name is in the set. */
int csrc_names_has(const struct csrc_names *s, const char *name);

/* The compiler arguments of file from the compile_commands.json in dir
 * (without the compiler, -c, -o and the file itself). 1 found, 0 not in the
 * database (or no database), <0 error. Caller frees with csrc_args_free. */
int csrc_flags(const char *dir, const char *file, char ***args, int *nargs, struct cerr *e);
void csrc_args_free(char **args, int nargs);
/* The source files (absolute) the compile_commands.json in dir compiles.
 * 1 with the list, 0 no database, <0 error. Free each and the array. */
int csrc_db_files(const char *dir, char ***files, size_t *n, struct cerr *e);

#endif
