/* deps — which hunks only compile together, from the code alone: a lexical
 * pass over both revisions of every changed C file (no build, no
 * instrumentation) finds the names each hunk declares or defines (function,
 * parameter, macro, type, field, enumerator, variable, label, or a name a macro
 * call makes by token pasting) and the names it
 * uses. A name whose declarations differ between the revisions (added,
 * removed, renamed, its signature or type changed; not a new initializer
 * or macro value) ties the hunks declaring it to the hunks using it, old
 * lines or new; a
 * declaration moved from one hunk to another ties those
 * two; hunks that change how braces, parentheses or preprocessor
 * conditionals pair (one opens what another closes, as an #ifdef line and
 * its #else ... #endif wrapped around old code; or an unchanged bracket's
 * partner differs between the revisions) are tied; an unchanged
 * declaration or use inside a conditional branch a hunk's directive opens
 * or closes counts as that hunk's (an old field under a new #else is
 * compiled out with the #if's macro defined), and so does a declaration
 * in a hunk compiled under other conditions in the two revisions; an
 * unchanged line whose guard moves from one hunk's conditional to
 * another's ties the two, and a hunk's brace paired with an unchanged one
 * ties the hunks changing conditionals between them; the hunks rewriting a
 * function (three or more, two thirds of its lines changed on both sides)
 * are tied, and so are the declarations of two names or more retyped from
 * one struct type to the same other one (a type migrated), and the hunks
 * moving a switch's constant label value (`case 44:` made `case 43:` in
 * one, `case 45:` made `case 44:` in another), and a generated file's
 * hunks (its top says a tool wrote it). The groups are the connected hunks. A name that only one revision declares
 * ties one way (needs): applied to the old revision, a hunk using a new
 * name needs the hunks declaring it, and a hunk removing a name's
 * declaration needs the hunks removing its uses; reverted from the new
 * revision, the same ties read backwards (a reverted declaration needs its
 * new users reverted). Two more one-way ties come from where a name is
 * declared: a declaration moved up within its file is needed by the hunks
 * using it between its two places (C wants it declared before use), a
 * local moved within its function by the hunks using it where the other
 * revision declares it in no block holding that place, one
 * moved to another file by the hunks using it in a file that includes
 * its new place and not its old one (or the other way reverted), and a
 * global removed while an unchanged use now reads a local or parameter of
 * the same name that a hunk declares needs that hunk; a hunk removing an
 * #include needs the hunk adding the same #include elsewhere (an include
 * moved from a header into the file that uses it); a hunk removing an
 * #include of a changed header needs the hunks removing the file's uses
 * of what the header declared, or declaring anew elsewhere what the
 * file still uses. Two hunks of one
 * function raising and lowering one counter, or calling the two halves of
 * a pair (lock and unlock), need each other; so do a switch and its
 * labels, a `do` and the `while` closing its body, a file added or
 * deleted and the build file's line listing it;
 * a continue or break needs its loop's new head, a read of a new local
 * declared without a value needs the hunks setting it above the read,
 * and an include of a new header needs the header. A hunk newly using a
 * name no changed file declares, in a file that gains #include lines,
 * likely needs the hunks adding them (header: kept apart, a guess); so
 * does one newly using a name no changed file declares the hunks of
 * files neither C nor documentation whose new text holds it (a name the
 * build makes from a data file). Where unused names are errors
 * (-Werror), a new static's or local's declaration needs its only user,
 * and removing the only use of one needs its declaration removed (quiet:
 * kept apart, for the search to take when it sees such an error). Also
 * the hunks that declare or use a given name,
 * for repairing a configuration from compiler errors (repair.h). The
 * lexical pass itself is scan.h's. */
#ifndef CULPRIT_DEPS_H
#define CULPRIT_DEPS_H

#include <stddef.h>
#include "core/isolate/change.h"

struct deps {
	long *group;        /* per change: its group's first change, or -1 when alone */
	size_t ngroups;     /* groups of two changes or more */
	size_t linked;      /* changes in such groups */
	/* Per change: its block's first change, or -1 when alone. A block is
	 * the part of a group tied by what no build survives apart, either
	 * way: brackets one hunk opens and another closes; a declaration
	 * compiled out by a conditional a hunk puts around it, with its uses;
	 * the hunks declaring one function, type or macro whose declarations
	 * changed (a prototype and its definition), or that moved; the hunks
	 * rewriting one function. A changed
	 * name's users, and fields and locals, tie groups only: reverting part
	 * of such a group may build. */
	long *block;
	/* Per change: the names whose declarations tie it into its block (none
	 * for brackets or a rewritten function), NUL-separated, "" ended: a piece of it not holding
	 * one of them is not held by the block. */
	char **hard_names;
	/* Per change: 1 when it is one of the hunks rewriting a function
	 * (their block), or one hunk replacing most of a function: one
	 * piece, never taken apart. */
	char *rewrite;
	/* Per change: the names it declares or defines (either side), NUL-separated, "" ended. */
	char **names;
	/* Per change: the names of hunk declarations it uses (either side), the same way. */
	char **uses;
	/* Per change: the changes it needs when applied to the old revision
	 * (one-way ties; the groups' ties go both ways and are not listed). */
	size_t **need;
	char ***need_names;  /* per need: the names it is for, NUL-separated, "" ended */
	size_t *nneed;
	/* Likely needs on includes: change header[k][0] newly uses names
	 * header_names[k] (NUL-separated, "" ended) that no changed file
	 * declares, and change header[k][1] adds an #include its file did not
	 * have, or is in a data file whose new text holds the name. A guess,
	 * not listed in need. */
	size_t (*header)[2];
	char **header_names;
	size_t nheader;
	/* Needs that hold where a name left unused does not build (-Werror):
	 * change quiet[k][0] needs quiet[k][1] for quiet_names[k]. A new
	 * static's or local's declaration needs its only user's hunk, and
	 * the hunk removing the only use of one needs its declaration's
	 * removal. Without -Werror they only warn: not listed in need (the
	 * search takes them at the first such error). */
	size_t (*quiet)[2];
	char **quiet_names;
	size_t nquiet;
	size_t nchanges;
};

/* An unchanged file the changed ones may read: only the macros it
 * defines that paste names (`#define DEF(id) OP_ ## id,`) are used, for
 * the names their calls in changed files make, and the types it typedefs
 * as integers or enums (a changed function's `int` made `lbool`). */
struct deps_source {
	const char *data;
	size_t len;
};

/* Whether a file at path is C that deps reads; whether an unchanged one
 * with these contents is worth passing as a source: C that pastes tokens,
 * or a header that typedefs. */
int deps_reads(const char *path);
int deps_source_of(const char *path, const char *data, size_t len);
/* Compute the groups of set s, with nsrc unchanged sources. Never fails:
 * files it cannot read as C are left alone (their changes stay single). */
void deps_compute(const struct change_set *s, const struct deps_source *src, size_t nsrc, struct deps *d);
void deps_release(struct deps *d);
/* The changes that declare or define name: indices into s->changes, in
 * out (room for s->nchanges); returns how many. */
size_t deps_declaring(const struct deps *d, const char *name, size_t *out);
/* The changes that declare or use name (either side): the same way. */
size_t deps_involving(const struct deps *d, const char *name, size_t *out);

/* Order units for a search that keeps the shortest failing prefix: what a
 * unit needs comes before it, so that a prefix is its own closure. unit_of:
 * per change, its unit (< nunits) or -1; order: n units, rewritten in
 * place; more: nmore needs beside d's (change more[k][0] needs change
 * more[k][1]; d may be NULL). Otherwise the given order is kept, and so is it between
 * units that need each other (Tarjan's components). users_first: the
 * reverse, for a search that reverts (reverting a change reverts its
 * users). */
void deps_order(const struct deps *d, const long *unit_of, size_t nunits, size_t *order, size_t n,
		const size_t (*more)[2], size_t nmore, int users_first);
/* Whether change c of s only declares, in both revisions (not an empty
 * change): a prototype, a typedef, a field or a variable without a value;
 * the names it declares appended to *names, NUL-separated. */
struct buf;
int deps_declaration_change(const struct change_set *s, size_t c, struct buf *names);

#endif
