#!/bin/sh
# Builds that build: a commit that adds a helper, a parameter with its
# callers, a renamed macro and a new field, and one wrong constant. The
# hunks that only compile together are searched as one (declarations and
# their uses, found lexically), so few configurations fail to build.
. "$TOP/tests/lib.sh"
d=$(fixture reshape)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "reshape: exit 0" [ "$RC" = 0 ]
check "reshape: the constant is failure-inducing" [ "$(jqf '.failure_inducing | length')" = 1 ]
check "reshape: the constant is failure-inducing (2)" [ "$(jqf '.failure_inducing[0].added[0]')" = "	int base = 4;" ]
check "reshape: the constant is the fix" [ "$(jqf '.fix | length')" = 1 ]
check "reshape: the constant is the fix (2)" [ "$(jqf '.fix[0].removed[0]')" = "	int base = 3;" ]
total=$(jqf .configurations_tested); unbuilt=$(jqf .configurations_failed_to_build)
check "reshape: at most 15% of configurations fail to build ($unbuilt of $total)" [ $((unbuilt * 100)) -le $((total * 15)) ]
(cd "$d" && "$CULPRIT" report) > "$T/report.txt" 2>&1
check "reshape: the report counts the configurations that failed to build" grep -q "$unbuilt failed to build" "$T/report.txt"
# A budget ends the search with the best answer so far, and says so.
culprit_json "$d" --good good --bad bad --no-semantic --fresh --max-configurations 4 -- ./run-test.sh
check "budget: not a usage error" [ "$RC" != 2 ]
check "budget: no more configurations built than allowed" [ "$(jqf .configurations_built_this_run)" -le 4 ]
check "budget: the note says the budget was spent" sh -c "jq -r .note '$T/out.json' | grep -q 'budget of 4 configurations'"
check "budget: an answer so far" [ "$(jqf '.failure_inducing | length')" -ge 1 ]
# culprit report on the unfinished session prints the partial answer.
(cd "$d" && "$CULPRIT" report --format json) > "$T/out.json" 2> "$T/err"; RC=$?
check "unfinished report: not refused" [ "$RC" != 2 ]
check "unfinished report: says it is not finished" sh -c "jq -r .note '$T/out.json' | grep -q 'not finished'"
check "unfinished report: the partial answer" [ "$(jqf '.failure_inducing | length')" -ge 1 ]
# A rewrite whose hunks only build together through an include and a
# label: the include is guessed up front (uint64_t, new to the file,
# declared by no change) and the label is a declaration its goto needs, so
# no configuration fails to build; the token level takes the value apart.
d=$(fixture rewrite)
(cd "$d" && "$CULPRIT" --batch --format json --good good --bad bad --no-semantic -- ./run-test.sh) > "$T/out.json" 2> "$T/err"
RC=$?
check "rewrite: exit 0" [ "$RC" = 0 ]
check "rewrite: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
check "rewrite: the token level takes the file apart: the fix is the wrong value alone" \
	sh -c "[ \"\$(jq '.fix | length' '$T/out.json')\" = 1 ] && jq -r '.fix[0].added_marked[]' '$T/out.json' | grep -qF '{+ + (n > 0)+}'"
check "rewrite: nothing of other.c in the fix" [ "$(jqf '[.fix[] | select(.file == "other.c")] | length')" = 0 ]
# Hunks that only build together in a way no declaration shows (a call
# switched to an unchanged helper of another arity, its arguments changed
# two lines below): the first configuration that takes the file in part
# and does not build teaches the search to take it whole; the token level
# takes it apart again around the wrong value.
d=$(fixture hidden_link)
(cd "$d" && "$CULPRIT" --batch --format json --good good --bad bad --no-semantic -- ./run-test.sh) > "$T/out.json" 2> "$T/err"
RC=$?
check "hidden_link: exit 0" [ "$RC" = 0 ]
hunk_unbuilt=$(sed -n '/failure-inducing: /q;/build failed/p' "$T/err" | wc -l)
check "hidden_link: at hunk level at most one configuration failed to build ($hunk_unbuilt)" [ "$hunk_unbuilt" -le 1 ]
check "hidden_link: the file is taken whole after it" grep -q "sum.c does not build with part of its 3 changes" "$T/err"
check "hidden_link: the fix is the wrong value alone" \
	sh -c "[ \"\$(jq '.fix | length' '$T/out.json')\" = 1 ] && jq -r '.fix[0].added_marked[]' '$T/out.json' | grep -qE '\\{\\+ ?2 \\* ?\\+\\}'"
check "hidden_link: nothing of other.c in the answer" \
	[ "$(jqf '[.fix[], .failure_inducing[] | select(.file == "other.c")] | length')" = 0 ]
# Old code wrapped in #ifdef ... #else new code #endif by two hunks: the
# conditional pairs them as braces do, so no configuration splits a wrap
# and the file is not taken whole; the constant alone is the answer.
d=$(fixture ifdef_wrap)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "ifdef_wrap: exit 0" [ "$RC" = 0 ]
check "ifdef_wrap: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
check "ifdef_wrap: the constant is the fix" [ "$(jqf '.fix | length')" = 1 ]
check "ifdef_wrap: the constant is the fix (2)" [ "$(jqf '.fix[0].removed[0]')" = "	return 3;" ]
# An unchanged field left under a new #else, with the #if's macro defined
# by the build: it is compiled out, as if the hunk opening the branch had
# removed it, so its wrapped uses in other files go with that hunk.
d=$(fixture guarded_field)
culprit_json "$d" --good good --bad bad --build 'make CFLAGS=-DSPLIT_BUF' --no-semantic -- ./run-test.sh
check "guarded_field: exit 0" [ "$RC" = 0 ]
check "guarded_field: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
check "guarded_field: the constant is the fix" [ "$(jqf '.fix | length')" = 1 ]
check "guarded_field: the constant is the fix (2)" [ "$(jqf '.fix[0].removed[0]')" = "	return 3;" ]
# A function moved above its callers with its forward declaration removed
# and the old definition renamed: its declarations build only together,
# whichever way, so reverting one reverts them all, and the token level
# ties only the pieces that hold the name.
d=$(fixture moved_mark)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "moved_mark: exit 0" [ "$RC" = 0 ]
total=$(jqf .configurations_tested); unbuilt=$(jqf .configurations_failed_to_build)
check "moved_mark: at most 15% of configurations fail to build ($unbuilt of $total)" [ $((unbuilt * 100)) -le $((total * 15)) ]
check "moved_mark: the wrong mark is failure-inducing" \
	sh -c "jq -r '.failure_inducing[].added[]' '$T/out.json' | grep -qF '	o->mark = 2;'"
check "moved_mark: the fix is proved" [ "$(jqf .fix_proof.verdict)" = PASS ]
# A static made unused and removed, the body of the function that read it
# unchanged and now reading a new parameter of the same name: the removal
# builds only with that parameter and with its uses removed, and the wrong
# value is among them. The search goes on among what the removal needs, so
# the caller's line is failure-inducing, not the removal.
d=$(fixture unused_static)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "unused_static: exit 0" [ "$RC" = 0 ]
check "unused_static: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
check "unused_static: the caller's wrong value is failure-inducing" \
	sh -c "jq -r '.failure_inducing[].added[]' '$T/out.json' | grep -qF 'unit_of(100)'"
check "unused_static: the static's removal is not failure-inducing" \
	[ "$(jqf '[.failure_inducing[].removed[] | select(contains("static int unit = 0;"))] | length')" = 0 ]
check "unused_static: the fix holds the wrong value, proved" \
	sh -c "jq -r '.fix[].added[]' '$T/out.json' | grep -qF 'unit_of(100)'" &&
	[ "$(jqf .fix_proof.verdict)" = PASS ]
# An assert() and its #include added in two hunks of one file, built as
# C89 without warnings: without the include only the linker complains
# ("undefined reference to `assert'", pointing into the file), and the
# search learns from that as from a compiler's error: one failed build.
d=$(fixture linked_assert)
culprit_json "$d" --good good --bad bad --build 'make CFLAGS="-g -w -std=gnu89"' --no-semantic -- ./run-test.sh
check "linked_assert: exit 0" [ "$RC" = 0 ]
check "linked_assert: one configuration failed to build, not more" [ "$(jqf .configurations_failed_to_build)" -le 1 ]
check "linked_assert: the check is failure-inducing" \
	sh -c "jq -r '.failure_inducing[].added[]' '$T/out.json' | grep -qF 'assert(x > 0);'"
check "linked_assert: the fix reverts the check, proved" \
	sh -c "jq -r '.fix[].added[]' '$T/out.json' | grep -qF 'assert(x > 0);'" &&
	[ "$(jqf .fix_proof.verdict)" = PASS ]
# A chain of needs whose top comes first in diff order (a tag's macro, the
# macro testing for it, the loop using that): the search tries the bottom
# first and does not go down the chain; the loop's rewrite is kept whole
# at token level, where its pieces would make code neither revision had.
d=$(fixture chain_of_needs)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "chain_of_needs: exit 0" [ "$RC" = 0 ]
check "chain_of_needs: the loop's rewrite is failure-inducing, alone" [ "$(jqf '.failure_inducing | length')" = 1 ]
check "chain_of_needs: the loop's rewrite is failure-inducing, alone (2)" sh -c "jq -r '.failure_inducing[0].added[]' '$T/out.json' | grep -qF 'while (e < end && e->key != key)'"
check "chain_of_needs: the fix reverts the loop, proved" \
	sh -c "jq -r '.fix[].added[]' '$T/out.json' | grep -qF 'while (e < end'" && [ "$(jqf .fix_proof.verdict)" = PASS ]
check "chain_of_needs: one configuration found it, one proved the fix ($(jqf .configurations_tested) tested)" \
	[ "$(jqf .configurations_tested)" -le 4 ]
check "chain_of_needs: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
check "chain_of_needs: not taken apart into tokens" [ "$(jqf .refined_to_tokens)" = false ]
# A submodule's directory exists in the worktrees, empty, as in a plain clone.
d=$(fixture submodule)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "submodule: the build finds the submodule's directory (exit $RC)" [ "$RC" = 0 ]
check "submodule: the constant is the fix" [ "$(jqf '.fix[0].added[0]')" = "	int n = 3;" ]
# A build that needs a submodule's files: the worktrees hold them at the
# commit each revision records, read from the clone's submodule; a commit
# moving the submodule to another commit changes its files, and a cause
# among them is named by its path. The submodule's clone is not touched.
d=$(fixture submodule_files)
sub_before=$(git -C "$d/modules/lib" rev-parse HEAD; git -C "$d/modules/lib" status --porcelain)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "submodule_files: the build finds the submodule's files (exit $RC)" [ "$RC" = 0 ]
check "submodule_files: the commit adding one is the culprit" [ "$(jqf .culprit_commit)" = "$(git -C "$d" rev-parse bad)" ]
check "submodule_files: the constant is the fix" [ "$(jqf '.fix[0].added[0]')" = "	int n = BASE * SCALE + 1;" ]
culprit_json "$d" --good scaled --bad bumped --build make --no-semantic -- ./run-test.sh
check "submodule_files: a submodule moved (exit $RC)" [ "$RC" = 0 ]
check "submodule_files: the commit moving it is the culprit" [ "$(jqf .culprit_commit)" = "$(git -C "$d" rev-parse bumped~1)" ]
check "submodule_files: the submodule's line is the fix" \
	[ "$(jqf '.fix[] | select(.file == "modules/lib/lib.h") | .added[] | select(startswith("#define BASE"))')" = "#define BASE 3" ]
check "submodule_files: the submodule's clone untouched" \
	[ "$(git -C "$d/modules/lib" rev-parse HEAD; git -C "$d/modules/lib" status --porcelain)" = "$sub_before" ]
# Opcodes listed as DEF(name, length) lines, their names made by a macro
# in an unchanged header that pastes tokens (OP_ ## id): the DEF lines a
# hunk adds declare the names the other files' hunks use, so the rename
# and the new opcode go with their uses and the constant stands alone.
d=$(fixture xmacro)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "xmacro: exit 0" [ "$RC" = 0 ]
check "xmacro: the constant is failure-inducing, alone" [ "$(jqf '.failure_inducing | length')" = 1 ]
check "xmacro: the constant is failure-inducing, alone (2)" [ "$(jqf '.failure_inducing[0].added[0]')" = "	return 3;" ]
check "xmacro: the constant is the fix" [ "$(jqf '.fix | length')" = 1 ]
check "xmacro: the constant is the fix (2)" [ "$(jqf '.fix[0].removed[0]')" = "	return 2;" ]
check "xmacro: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
# An error map kept as an X-macro list (`ERR_MAP(ERR_GEN)` with a pasting
# ERR_GEN): the list's new XX line declares the code the parser's new
# lines return, so they are applied together and nothing fails to build.
d=$(fixture errmap)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "errmap: exit 0" [ "$RC" = 0 ]
check "errmap: the constant is failure-inducing and the fix, alone" [ "$(jqf '.failure_inducing | length')" = 1 ]
check "errmap: the constant is failure-inducing and the fix, alone (2)" [ "$(jqf '.failure_inducing[0].added[0]')" = "#define LIMIT 10" ]
check "errmap: the constant is failure-inducing and the fix, alone (3)" [ "$(jqf '.fix | length')" = 1 ]
check "errmap: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
# Old-style (K&R) definitions: a local widened in one function and a
# constant changed beside another function's local of the same name are
# not tied (each function's locals are its own), so the constant alone
# is the answer.
d=$(fixture kr_locals)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "kr_locals: exit 0" [ "$RC" = 0 ]
check "kr_locals: the constant is failure-inducing, alone" [ "$(jqf '.failure_inducing | length')" = 1 ]
check "kr_locals: the constant is failure-inducing, alone (2)" [ "$(jqf '.failure_inducing[0].added[0]')" = "	n = x * 4;" ]
# A function rewritten whole, cut into four hunks at the lines both
# versions share: a mix of old and new lines is a function neither
# revision has, so the rewrite is applied and reverted whole, never taken
# apart, not even into token pieces.
d=$(fixture rewritten_function)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "rewritten_function: exit 0" [ "$RC" = 0 ]
check "rewritten_function: the rewrite's four hunks are failure-inducing, whole" \
	[ "$(jqf '[.failure_inducing[] | select(.kind == "hunk" and .file == "rle.c")] | length')" = 4 ] &&
	[ "$(jqf '.failure_inducing | length')" = 4 ]
check "rewritten_function: and the fix" [ "$(jqf '[.fix[].id] | join(" ")')" = "$(jqf '[.failure_inducing[].id] | join(" ")')" ]
check "rewritten_function: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
check "rewritten_function: not taken apart into tokens" [ "$(jqf .refined_to_tokens)" = false ]
check "rewritten_function: the fix's progress line says the rewrite is taken whole" \
	sh -c "sqlite3 '$d/.git/culprit/session.db' \"select text from event where type = 'FIX_FOUND'\" | grep -q 'rewritten function'"
# A void function made to return an error code, its returns in hunks of
# their own, its caller's `error` declared from its result (the old
# declaration removed lines above): the signature, its returns and the
# caller are one block, the moved local one group, so no configuration
# takes the signature without `return 0;` (which built under -w and
# failed as the program never did) and the constant is the answer.
d=$(fixture status_return)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "status_return: exit 0" [ "$RC" = 0 ]
check "status_return: the constant is failure-inducing, alone" [ "$(jqf '.failure_inducing | length')" = 1 ]
check "status_return: the constant is failure-inducing, alone (2)" [ "$(jqf '.failure_inducing[0].added[0]')" = "	return 2;" ]
check "status_return: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
# A new typedef name ending in _t (`typedef int flag_t;`) in a header
# that comes after its users in the search's order: it is a declaration
# they need, so no configuration takes them without it.
d=$(fixture typedef_t)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "typedef_t: exit 0" [ "$RC" = 0 ]
check "typedef_t: the constant is failure-inducing, alone" [ "$(jqf '.failure_inducing | length')" = 1 ]
check "typedef_t: the constant is failure-inducing, alone (2)" [ "$(jqf '.failure_inducing[0].added[0]')" = "	return 100;" ]
check "typedef_t: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
# A parameter made a position instead of a pointer, its callers changed
# with it, built with -w: the signature's pieces taken without the calls'
# build silently and fail otherwise. Such a declaration and its uses are
# one block: no answer holds the signature without the calls.
d=$(fixture pointer_position)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "pointer_position: exit 0" [ "$RC" = 0 ]
sig=$(jqf '[.failure_inducing[] | select(.added[0] | test("count\\(int"))] | length')
calls=$(jqf '[.failure_inducing[] | select(.added | join(" ") | test("count\\(0, 5\\)"))] | length')
check "pointer_position: the signature is not failure-inducing without its calls ($sig, $calls)" \
	[ "$sig" = 0 -o "$calls" -gt 0 ]
check "pointer_position: the bound is failure-inducing" \
	sh -c "jq -r '.failure_inducing[].added[]' '$T/out.json' | grep -qF 'top > bottom + 1'"
# Helpers commented out by a `/` `*` line added above them and its
# closing line below, their calls removed by other hunks: the comment's two
# lines are one block, and the helpers' names are its declarations, so no
# configuration keeps a call without its helper or half of the comment.
d=$(fixture commented_out)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "commented_out: exit 0" [ "$RC" = 0 ]
check "commented_out: the constant is failure-inducing, alone" [ "$(jqf '.failure_inducing | length')" = 1 ]
check "commented_out: the constant is failure-inducing, alone (2)" [ "$(jqf '.failure_inducing[0].added[0]')" = "	return 100;" ]
check "commented_out: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
# A static helper exported for another file (`static` dropped, a
# prototype added, a call in main.c): the call needs the export, one way,
# and its name and arguments are one piece (another function called), so
# no configuration fails to link or to compile; reverting the call alone
# fixes it.
d=$(fixture exported_helper)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "exported_helper: exit 0" [ "$RC" = 0 ]
check "exported_helper: the call is the fix, alone" [ "$(jqf '.fix | length')" = 1 ]
check "exported_helper: the call is the fix, alone (2)" [ "$(jqf '.fix[0].added[0]')" = "	long v = parse_number(\"-42\");" ]
check "exported_helper: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
# A switch's head moved into the hunk before its cases (`else` made
# `else switch (ret)`, the old switch's head and braces removed): the
# cases and the head need each other, so no configuration has cases
# outside a switch, or a switch without its cases.
d=$(fixture switch_moved)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "switch_moved: exit 0" [ "$RC" = 0 ]
check "switch_moved: the constant is failure-inducing, alone" [ "$(jqf '.failure_inducing | length')" = 1 ]
check "switch_moved: the constant is failure-inducing, alone (2)" [ "$(jqf '.failure_inducing[0].added[0]')" = "	return 3;" ]
check "switch_moved: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
# A counter raised and lowered by two hunks of one function (a parser's
# `quiet++` ... `quiet--`): the two need each other, so no configuration
# has one without the other, which silences what follows, a failure of
# its own; the count made double, between them, is the answer.
d=$(fixture paired_counter)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "paired_counter: exit 0" [ "$RC" = 0 ]
check "paired_counter: the count is failure-inducing, alone" [ "$(jqf '.failure_inducing | length')" = 1 ]
check "paired_counter: the count is failure-inducing, alone (2)" [ "$(jqf '.failure_inducing[0].added[1]')" = "	p->items += 2;" ]
check "paired_counter: no configuration failed differently" [ "$(jqf .configurations_failed_differently)" = 0 ]
# A new module: source and header added, the source listed in the
# Makefile, a header including the new one for prototypes taking its
# type. The listing and the file need each other, the include needs the
# new header and the prototypes need the include, so no configuration
# fails to build; the wrong constant is the answer.
d=$(fixture new_module)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "new_module: exit 0" [ "$RC" = 0 ]
check "new_module: the constant is failure-inducing, alone" [ "$(jqf '.failure_inducing | length')" = 1 ]
check "new_module: the constant is failure-inducing, alone (2)" [ "$(jqf '.failure_inducing[0].added[0]')" = "	return 100;" ]
check "new_module: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]

# A name the build makes from a data file (names.dat's `two` becomes
# N_TWO): the first configuration using it without the data file's change
# does not build; repair adds that change, and the search learns it.
d=$(fixture generated_names)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "generated: exit 0" [ "$RC" = 0 ]
check "generated: the constant is failure-inducing, alone" [ "$(jqf '.failure_inducing | length')" = 1 ]
check "generated: the constant is failure-inducing, alone (2)" [ "$(jqf '.failure_inducing[0].added[0]')" = "	return x * 3;" ]
check "generated: nothing auxiliary" [ "$(jqf '.auxiliary | length')" = 0 ]
check "generated: no configuration failed to build (the data file taken with its user)" [ "$(jqf .configurations_failed_to_build)" = 0 ]
# A module replaced by another (lex.c out, scan.c in, the Makefile's list
# and main.c's include and calls switched): the list line and the files
# need each other, so no reversion takes them apart, and the answer is
# the new module with what is tied to it both ways, never the list line
# alone with the rest as its build needs; the unrelated version stays out.
d=$(fixture replaced_module)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "replaced: exit 0" [ "$RC" = 0 ]
check "replaced: the fix holds the new module, not the version" \
	[ "$(jqf '[.fix[].file] | (index("scan.c") != null) and (index("version.h") == null)')" = true ]
check "replaced: the failure-inducing changes hold the new module, not the version" \
	[ "$(jqf '[.failure_inducing[].file] | (index("scan.c") != null) and (index("version.h") == null)')" = true ]
check "replaced: the list line is not the fix alone" [ "$(jqf '.fix | length')" -gt 1 ]
check "replaced: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
# A configuration held by one applied to good that passed passes, under
# the monotony the search assumes: the token level's first configuration
# (base() without z.c's pieces) is not built, and says so; the answer is
# still the constant, proved by configurations that were built.
d=$(fixture implied_pass)
(cd "$d" && "$CULPRIT" --batch --format json --no-semantic --good good --bad bad --build make -- ./run-test.sh) \
	> "$T/out.json" 2> "$T/implied.err"
RC=$?
check "implied: exit 0" [ "$RC" = 0 ]
check "implied: a pass is implied, not built" grep -q 'good with 3 4: PASS, implied' "$T/implied.err"
check "implied: that configuration was not built" sh -c "! grep -q 'good with 3 4: PASS (' '$T/implied.err'"
check "implied: the constant is failure-inducing, alone" [ "$(jqf '.failure_inducing | length')" = 1 ]
check "implied: the constant is failure-inducing, alone (2)" [ "$(jqf '.failure_inducing[0].added[0]')" = "	int factor = 3;" ]

# A function retired for a deprecated inline wrapper, its three callers
# moved to other functions: one dependence group, yet one caller moved
# alone builds. The answer is the wrong caller alone, proved by a
# configuration holding neither of the others.
d=$(fixture api_retired)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "retired: exit 0" [ "$RC" = 0 ]
check "retired: a.c's move is failure-inducing, alone" [ "$(jqf '[.failure_inducing[].file] | join(" ")')" = a.c ]
check "retired: a.c's move is the fix, alone" [ "$(jqf '[.fix[].file] | join(" ")')" = a.c ]
check "retired: the other callers are not in the answer" \
	[ "$(jqf '[.failure_inducing[], .fix[], .auxiliary[] | .file] | map(select(. == "b.c" or . == "c.c")) | length')" = 0 ]
check "retired: the failure-inducing proof is the caller applied alone" [ "$(jqf .failure_inducing_proof.label)" = "good with 1" ]
check "retired: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]

# A loop made a do-while, the `do` and its `while` in two hunks: they
# need each other, so no configuration holds one without the other, and
# the other function's harmless change is never taken along.
d=$(fixture do_while)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "do_while: exit 0" [ "$RC" = 0 ]
check "do_while: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
check "do_while: the fix is the new head with its while" [ "$(jqf '[.fix[].id] | join(" ")')" = "2 3" ]
check "do_while: the banner's change is in no set" \
	[ "$(jqf '[.failure_inducing[], .fix[], .auxiliary[] | .id | split(".")[0]] | index("1")')" = null ]

# A type moved to another header, read by a new function in a file that
# includes only the new one: the function needs the move, so no
# configuration holds it without (one failed to build before); the answer
# is the new call, the function and the move taken along.
d=$(fixture moved_type)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "moved_type: exit 0" [ "$RC" = 0 ]
check "moved_type: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
check "moved_type: the new call is the fix" [ "$(jqf '[.fix[].file] | join(" ")')" = main.c ]
check "moved_type: the function and the move are taken along" \
	[ "$(jqf '[.auxiliary[].file] | unique | join(" ")')" = "lex.h util.c util.h" ]

# A type migrated (a struct field and two other files' statics, read
# through a macro, retyped from one struct to another): their hunks are
# one block, so no configuration mixes the two types (5 of 11 failed to
# build before); the answer is the unrelated wrong change alone.
d=$(fixture type_migration)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "migration: exit 0" [ "$RC" = 0 ]
check "migration: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
check "migration: main's change is failure-inducing, alone" [ "$(jqf '[.failure_inducing[].file] | join(" ")')" = main.c ]
check "migration: main's change is the fix, alone" [ "$(jqf '[.fix[].file] | join(" ")')" = main.c ]
# Built with -Werror: a static helper without its caller, an old static
# whose last call is gone, or a local whose only use went fails to build
# ("defined but not used", "unused variable"). Repair reads those as it
# reads an undeclared name and adds the hunk that goes with it, so the
# file is not taken whole: the constant alone is the answer.
d=$(fixture werror_unused)
culprit_json "$d" --good good --bad bad --build 'make CFLAGS=-Werror' --no-semantic -- ./run-test.sh
check "werror_unused: exit 0" [ "$RC" = 0 ]
check "werror_unused: the constant is failure-inducing, alone" [ "$(jqf '.failure_inducing | length')" = 1 ]
check "werror_unused: the constant is failure-inducing, alone (2)" [ "$(jqf '.failure_inducing[0].added[0]')" = "	return 10;" ]
check "werror_unused: the constant is the fix, alone" [ "$(jqf '[.fix[].id] | join(" ")')" = "$(jqf '.failure_inducing[0].id')" ]
total=$(jqf .configurations_tested); unbuilt=$(jqf .configurations_failed_to_build)
check "werror_unused: at most one configuration failed to build ($unbuilt of $total)" [ "$unbuilt" -le 1 ]
check "werror_unused: the first such error took every declaration with its only use" \
	[ "$(sqlite3 "$d/.git/culprit/session.db" "select text from event where type = 'WERROR'")" = \
	  "unused names do not build: 3 declarations and only uses taken together from now on" ]
# The same with the cause in the helper's only caller: once a build has
# shown unused names are errors, the helper and its caller need each
# other, and the answer holds both, not the helper with its caller as
# what it needs to build.
d=$(fixture werror_helper)
culprit_json "$d" --good good --bad bad --build 'make CFLAGS=-Werror' --no-semantic -- ./run-test.sh
check "werror_helper: exit 0" [ "$RC" = 0 ]
check "werror_helper: the caller's line is failure-inducing" \
	sh -c "jq -r '.failure_inducing[].added[]' '$T/out.json' | grep -qxF '	return twice(x) + 1;'"
check "werror_helper: the helper is failure-inducing with it" \
	sh -c "jq -r '.failure_inducing[].added[]' '$T/out.json' | grep -qxF 'static int twice(int x)'"
check "werror_helper: the fix holds the caller's line, proved" \
	sh -c "jq -r '.fix[].added[]' '$T/out.json' | grep -qxF '	return twice(x) + 1;'" && [ "$(jqf .fix_proof.verdict)" = PASS ]
check "werror_helper: at most one configuration failed to build" [ "$(jqf .configurations_failed_to_build)" -le 1 ]
# A function made to return a status where it returned a struct typedef'd
# in an unchanged header, behind an export macro both revisions share:
# its old returns, assignments now, each in a hunk of its own, are in the
# signature's block, so no configuration returns a struct from an int
# function (4 of 6 had failed to build, the answer the whole commit).
d=$(fixture struct_return)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "struct_return: exit 0" [ "$RC" = 0 ]
check "struct_return: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
check "struct_return: the constant is the fix, alone" [ "$(jqf '.fix | length')" = 1 ]
check "struct_return: the constant is the fix, alone (2)" [ "$(jqf '.fix[0].removed[0]')" = "	return 100;" ]
# A function given an out-parameter, passed by name to a macro whose body
# a hunk changes to call it so, the lines passing it unchanged: the hunk
# changing the macro's body is in the function's block (no configuration
# fails to build); with the passing file unchanged, the compiler's note
# naming the macro tells repair, which learns it for the next ones (7 of
# 12 configurations had failed to build, and the macro had been named
# the cause).
d=$(fixture macro_callback)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "macro_callback: exit 0" [ "$RC" = 0 ]
check "macro_callback: no configuration failed to build" [ "$(jqf .configurations_failed_to_build)" = 0 ]
check "macro_callback: the constant is failure-inducing and the fix" \
	[ "$(jqf '[.failure_inducing[], .fix[] | .removed[0]] | unique | join(",")')" = "	return 100;" ]
d=$(fixture macro_callback_far)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "macro_callback_far: exit 0" [ "$RC" = 0 ]
check "macro_callback_far: the constant is failure-inducing and the fix" \
	[ "$(jqf '[.failure_inducing[], .fix[] | .removed[0]] | unique | join(",")')" = "	return 100;" ]
total=$(jqf .configurations_tested); unbuilt=$(jqf .configurations_failed_to_build)
check "macro_callback_far: one configuration failed to build, not more ($unbuilt of $total)" [ "$unbuilt" -le 1 ]
# A loop's head made `for (;;)`, its exit a `break` another hunk adds: the
# head needs the break, so no configuration loops until the timeout (one
# had, 5 s).
d=$(fixture endless_loop)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "endless_loop: exit 0" [ "$RC" = 0 ]
check "endless_loop: no configuration unresolved" [ "$(jqf .configurations_unresolved)" = 0 ]
check "endless_loop: the constant is the fix" [ "$(jqf '[.fix[].removed[0]] | join(",")')" = "	return 100;" ]
# An append given a fast path, the old walk moved into the new else
# branch: the diff cuts the rewrite into three hunks of one function,
# where the walk's head and step were removed and added anew. They are one
# block, so no configuration links the node twice or walks no more (two
# had failed otherwise).
d=$(fixture moved_statement)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "moved_statement: exit 0" [ "$RC" = 0 ]
check "moved_statement: no configuration failed otherwise" [ "$(jqf .configurations_failed_differently)" = 0 ]
check "moved_statement: the constant is the fix" [ "$(jqf '[.fix[].removed[0]] | join(",")')" = "	return 100;" ]
finish
