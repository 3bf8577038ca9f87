/* The change search's insides, shared by its two halves: explain_search.c
 * (the search: levels, predicates, answers and their proofs) and
 * search_build.c (what a configuration must hold to build, and its repair
 * from compiler errors). Nothing outside them includes this header. */
#ifndef CULPRIT_SEARCH_H
#define CULPRIT_SEARCH_H

#include "core/session/stage.h"

/* explain_search.c: test the set's configuration `applied` (revert_view:
 * labelled as a reversion from bad); the verdict, or <0; *why (or NULL)
 * why it was unresolved; *excerpt (or NULL) the build's or test's output
 * excerpt, to free. */
int sr_test_atoms_ex(struct search *sr, const struct bits *applied, int revert_view, enum unresolved_why *why,
		     char **excerpt);
int sr_test_atoms(struct search *sr, const struct bits *applied, int revert_view, enum unresolved_why *why);
/* explain_search.c: say that configuration `applied` passes without a
 * build, as one holding it passed. */
void sr_note_implied(struct search *sr, const struct bits *applied);
/* explain_search.c: whether configuration `applied` was tested (its
 * outcome is known). */
int sr_tested(const struct search *sr, const struct bits *applied);

/* search_build.c. In b, revert 0 means applied to good, revert 1 reverted
 * from bad; the closures return how many changes or pieces they added. */

/* Whether change ch has an atom at value in b. */
int sr_change_touched(const struct change *ch, const struct bits *b, int value);
/* Whether piece a's own tokens (either revision) hold one of the names
 * (a NUL-separated, "" ended list). */
int sr_piece_names(const struct change_set *s, size_t a, const char *names);
/* Whether piece a (either revision) holds a brace, parenthesis or
 * preprocessor conditional it does not pair itself. */
int sr_piece_bracketed(const struct change_set *s, size_t a);
/* Tie (sr->token_tie) change c's pieces on a line replacing one local's
 * declaration with another's, name and type changed. */
void sr_tie_declarations(struct search *sr, size_t c);
/* b closed under the dependences' groups and blocks (blocks_only: blocks). */
size_t sr_close_deps(const struct search *sr, struct bits *b, int revert, int blocks_only);
/* b closed under the dependences, and under their quiet needs once a
 * build has shown that unused names are errors (not blocks, files learnt
 * whole or other needs learnt); how many atoms it changed. */
size_t sr_close_needs(const struct search *sr, struct bits *b, int revert);
/* b closed under the files and groups failed builds showed only build whole. */
size_t sr_close_blocks(const struct search *sr, struct bits *b, int revert);
/* At token level, b closed under the blocks learnt there. */
size_t sr_close_token_blocks(const struct search *sr, struct bits *b, int revert);
/* b closed under all of these and the needs learnt from failed builds. */
size_t sr_close_config(const struct search *sr, struct bits *b, int revert);
/* Whether block root has a change at value in b (*in) and one not (*out). */
void sr_block_touched(const struct search *sr, size_t root, const struct bits *b, int value, int *in, int *out);
/* The root of piece a in the forest of pieces tied together. */
size_t sr_tie_root(size_t *tie, size_t a);
/* The needs a search starts with beside the dependences; their release. */
void sr_learnt_init(struct learnt *l, const struct deps *dp);
void sr_learnt_release(struct learnt *l);
/* Whether change c stays one piece at token level (a rewrite). */
int sr_one_piece(const struct search *sr, size_t c);
/* Whether a configuration holding b passed. */
int sr_passed_holds(const struct search *sr, const struct bits *b);
/* Test `applied` (applied to good), repaired from its compiler errors by
 * adding what declares what they name; applied grows by it. The verdict,
 * or <0. */
int sr_test_repaired(struct search *sr, struct bits *applied);
/* Test `applied` as a reversion from bad, repaired by reverting what
 * declares or uses what the errors name; applied shrinks by it. */
int sr_test_revert_repaired(struct search *sr, struct bits *applied, enum unresolved_why *why_out);

#endif
