#!/bin/sh
# The known answers of the fixture repositories, through the real binary.
. "$TOP/tests/lib.sh"

# Two changes that fail only together.
d=$(fixture interact)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "interact: exit 0" [ "$RC" = 0 ]
check "interact: culprit commit" [ "$(jqf .culprit_commit)" = "$(git -C "$d" rev-parse culprit)" ]
check "interact: both changes and only them" \
	[ "$(jqf '[.failure_inducing[] | .file + ":" + (.added | join("|"))] | sort | join(",")')" = "a.c:	return 6;,b.c:	return 6;" ]
check "interact: the fix is one of them" [ "$(jqf '.fix | length')" = 1 ]
check "interact: no auxiliary" [ "$(jqf '.auxiliary | length')" = 0 ]
# Reverting the other one alone passes too: another fix, with its proof.
check "interact: the other change is another fix" \
	[ "$(jqf '[.fix[].file, .other_fixes[].changes[].file] | sort | join(",")')" = "a.c,b.c" ]
check "interact: another fix's proof reverts it alone and passes" \
	[ "$(jqf '.other_fixes[0].proof | "\(.label) \(.verdict)"')" = "bad without $(jqf '.other_fixes[0].changes[0].id') PASS" ]
k=$(jqf '.other_fixes[0].proof.key')
check "interact: that proof is a tested configuration that passed" \
	[ "$(sqlite3 "$d/.git/culprit/session.db" "select verdict from outcome where key='$k'")" = 0 ]
check "interact: the text report names the other fix" \
	sh -c "cd '$d' && '$CULPRIT' report | grep -A2 '^Other fixes' | grep -q 'bad without'"

# The faulty hunk's reversion needs its callers reverted: auxiliary, not causes.
d=$(fixture auxiliary)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "auxiliary: exit 0" [ "$RC" = 0 ]
check "auxiliary: the fix is the +1 piece of scale.c" \
	[ "$(jqf '[.fix[] | select(.file == "scale.c" and (.added | join("") | test("k \\+ 1")))] | length')" = 1 ]
check "auxiliary: nothing else in the fix" [ "$(jqf '.fix | length')" = 1 ]
check "auxiliary: both caller hunks are auxiliary" \
	[ "$(jqf '[.auxiliary[] | select(.file == "main.c")] | length')" = 2 ]
check "auxiliary: callers are not causes" \
	[ "$(jqf '[.failure_inducing[], .fix[] | select(.file == "main.c")] | length')" = 0 ]

# Rename and value change in one line: token level tells them apart.
d=$(fixture rename_value)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "rename_value: exit 0" [ "$RC" = 0 ]
check "rename_value: failure-inducing is the value piece" \
	[ "$(jqf '[.failure_inducing[] | .id + " " + (.added_marked | join(""))] | join(",")')" = "1.2 int max_items = {+5+};" ]
check "rename_value: shown as the real lines of good and bad, never \"int limit = 5;\"" \
	[ "$(jqf '.failure_inducing[0] | .removed[0] + "|" + .added[0]')" = "int limit = 10;|int max_items = 5;" ]
check "rename_value: the fix is the value piece" [ "$(jqf '[.fix[].id] | join(",")')" = "1.2" ]
check "rename_value: the value piece builds alone both ways: the renames are not even build needs" \
	[ "$(jqf '[.auxiliary[].id] | join(",")')" = "" ]
check "rename_value: the fix is proved by reverting the value piece alone (the same tree as the renames applied)" \
	sh -c "jq -r .fix_proof.label '$T/out.json' | grep -qx 'bad without 1.2\|good with 1.1 2 3'"
check "rename_value: the proof passes" [ "$(jqf .fix_proof.verdict)" = PASS ]
check "rename_value: refined to tokens" [ "$(jqf .refined_to_tokens)" = true ]

# Two causes: the factor alone makes good fail, but the fix needs
# total.c's new start value too, in a hunk whose new type comes from an
# include another hunk adds (the old file names the type in code compiled
# out, so it is not guessed from the start: rewrite in builds.sh is). The
# configuration without the include does not build; the include is added to
# it, and the hunks using the type need it from then on, both ways: the fix
# is the two wrong values, each proved.
d=$(fixture two_causes)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "two causes: exit 0" [ "$RC" = 0 ]
check "two causes: failure-inducing is the factor piece" \
	[ "$(jqf '[.failure_inducing[] | .id + " " + (.added_marked | join(""))] | join(",")')" = "1.1 	int factor = {+2+}, spare = 00;" ]
check "two causes: the fix is the factor and the start value" \
	[ "$(jqf '[.fix[] | .added_marked | join("")] | join(",")')" = "	int factor = {+2+}, spare = 00;,	uint64_t s = {+1+};" ]
check "two causes: the fix's proof passes" [ "$(jqf .fix_proof.verdict)" = PASS ]
check "two causes: the include is not in the fix" [ "$(jqf '[.fix[].added[] | select(contains("#include"))] | length')" = 0 ]
check "two causes: at most the one configuration the include was learnt from fails to build" \
	[ "$(jqf .configurations_failed_to_build)" -le 1 ]

# Renamed, added, deleted and binary files in the diff.
d=$(fixture files)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "files: exit 0" [ "$RC" = 0 ]
check "files: the edit in the renamed file" \
	[ "$(jqf '[.failure_inducing[] | .file + " " + .old_file + " " + .kind] | join(",")')" = "src/helpers.c src/util.c hunk" ]
check "files: its text" [ "$(jqf '.failure_inducing[0].added[0]')" = "	return x + x + 1;" ]
check "files: every kind of change is in the set" [ "$(jqf .changes)" -ge 5 ]

# A configuration that fails differently is unresolved, not FAIL.
d=$(fixture different_failure)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "different failure: exit 0" [ "$RC" = 0 ]
check "different failure: the signature is the assertion and the output's last lines" \
	[ "$(jqf '.signature | startswith("signal 6 (SIGABRT); assertion `total == 10'"'"' failed; output ends \"")')" = true ]
check "different failure: only the total's hunk" \
	[ "$(jqf '[.failure_inducing[].file] | join(",")')" = "stats.c" ]
check "different failure: count.c alone was unresolved" [ "$(jqf .configurations_unresolved)" -ge 1 ]

# A checker's report names the freed block's address, which each commit
# that allocates moves: the commits between the culprit and bad fail the
# same way, not differently.
d=$(fixture moved_address)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "moved address: exit 0" [ "$RC" = 0 ]
check "moved address: culprit commit" [ "$(jqf .culprit_commit)" = "$(git -C "$d" rev-parse culprit)" ]
check "moved address: the address is masked in the signature" \
	[ "$(jqf '.signature | endswith("on address 0x\u2026\"")')" = true ]
check "moved address: no configuration failed differently" [ "$(jqf .configurations_failed_differently)" = 0 ]

# A configuration that hangs is bounded by the timeout.
d=$(fixture hang)
culprit_json "$d" --good good --bad bad --test-timeout 2 -- ./run-test.sh
check "hang: exit 0" [ "$RC" = 0 ]
check "hang: both hunks needed" [ "$(jqf '.failure_inducing | length')" = 2 ]
check "hang: the hanging configuration was unresolved" [ "$(jqf .configurations_unresolved)" -ge 1 ]
check "hang: no test process left" [ -z "$(procs_under "$d")" ]
check "hang: the given timeout is reported as given" \
	[ "$(jqf '"\(.test_timeout) \(.test_timeout_derived)"')" = "2 false" ]

# Without --test-timeout, the timeout comes from the good and bad runs
# (milliseconds here): 5 s, and the report says so.
d=$(fixture hang)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "derived timeout: exit 0" [ "$RC" = 0 ]
check "derived timeout: 5 s, derived" [ "$(jqf '"\(.test_timeout) \(.test_timeout_derived)"')" = "5 true" ]
check "derived timeout: the build's derived too" [ "$(jqf '.build_timeout_derived')" = true ]
check "derived timeout: the hang was unresolved" [ "$(jqf .configurations_unresolved)" -ge 1 ]

# A loop rewritten over a renamed bound: the rewrite is one piece at token
# level, tied both ways to the rename it needs. The answer is the rewrite
# whole with the rename's piece, not one of its pieces alone; the comment
# beside the rename is no part of it.
d=$(fixture rewrite_piece)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "rewrite_piece: exit 0" [ "$RC" = 0 ]
check "rewrite_piece: failure-inducing, the rename's piece and the whole loop" \
	[ "$(jqf '[.failure_inducing[].id] | join(" ")')" = "1.1 2" ]
check "rewrite_piece: the fix, the same" [ "$(jqf '[.fix[].id] | join(" ")')" = "1.1 2" ]
check "rewrite_piece: the progress log ends on the answer as reported" \
	[ "$(sqlite3 "$d/.git/culprit/session.db" "select text from event where type = 'ANSWER'")" = \
	  "answer: failure-inducing 1.1 2; fix: reverting 1.1 2; auxiliary: none" ]
# One data flow rewritten line by line: the token pieces of the rewrite
# build apart but fail otherwise (a crash) when mixed. The locals it
# moves into the expression's fields (`offset`, `lvalue`) tie the hunk
# removing them to the rewrite, as a block, so no piece is taken apart
# from what it reads (the token level had given up after its first three
# configurations failing otherwise): the answer is the two hunks, whole.
d=$(fixture refine_dataflow)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "dataflow: exit 0" [ "$RC" = 0 ]
check "dataflow: the answer is the two hunks, whole" [ "$(jqf '[.failure_inducing[].id] | join(" ")')" = "3 4" ]
check "dataflow: the answer is the two hunks, whole (2)" [ "$(jqf '[.failure_inducing[].file] | unique | join(" ")')" = field.c ]
check "dataflow: the answer is the two hunks, whole (3)" [ "$(jqf '[.fix[].id] | join(" ")')" = "3 4" ]
check "dataflow: the fix, proved" [ "$(jqf .fix_proof.verdict)" = PASS ]
check "dataflow: three configurations failed otherwise, no more" [ "$(jqf .configurations_failed_differently)" -le 3 ]

# A constant changed on the line that starts calling a new helper: the
# hunk needs the helper's hunk to build, so the token level takes it apart
# whatever the hunk-level fix; the fix is searched among the pieces first,
# and the hunk's own reversion is never built.
d=$(fixture value_with_helper)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "value_with_helper: exit 0" [ "$RC" = 0 ]
check "value_with_helper: failure-inducing, the constant's piece" \
	[ "$(jqf '[.failure_inducing[] | .added_marked | join("")] | join(",")')" = '	printf("%d\n", clamp(twice(3)) + offset() + {+2+});' ]
check "value_with_helper: the fix, the same piece" [ "$(jqf '[.fix[].id] | join(" ")')" = "$(jqf '[.failure_inducing[].id] | join(" ")')" ]
check "value_with_helper: the fix's proof passes" [ "$(jqf .fix_proof.verdict)" = PASS ]
hunk=$(jqf '.failure_inducing[0].id' | cut -d. -f1)
check "value_with_helper: the whole hunk's reversion was not built" \
	[ "$(sqlite3 "$d/.git/culprit/session.db" "select count(*) from outcome where label = 'bad without $hunk'")" = 0 ]
check "value_with_helper: no hunk-level fix was searched" \
	[ "$(sqlite3 "$d/.git/culprit/session.db" "select count(*) from event where type = 'FIX_FOUND' and text not like '%(token level)%'")" = 0 ]

# The failure-inducing change's reversion does not pass: the fix holds it
# and more. The more is sought with it reverted in every configuration;
# only the check that the fix needs it leaves it applied.
d=$(fixture two_wrong_values)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "two_wrong_values: exit 0" [ "$RC" = 0 ]
check "two_wrong_values: failure-inducing, one of the values" \
	[ "$(jqf '[.failure_inducing[] | .file] | join(" ")' | grep -cx 'width.c\|height.c')" = 1 ]
check "two_wrong_values: the fix, both" [ "$(jqf '[.fix[] | .file] | sort | join(" ")')" = "height.c width.c" ]
check "two_wrong_values: the fix's proof passes" [ "$(jqf .fix_proof.verdict)" = PASS ]
ind=$(jqf '.failure_inducing[0].id')
check "two_wrong_values: one reversion leaves the failure-inducing change applied" \
	[ "$(sqlite3 "$d/.git/culprit/session.db" "select label from outcome where label like 'bad without %'" |
	     grep -cv " $ind\( \|\$\)")" = 1 ]

# A hunk adds an #endif, another an #if above a line it changes: the #if's
# piece is taken with the #endif's hunk, and no configuration fails to build.
d=$(fixture moved_conditional)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "moved_conditional: exit 0" [ "$RC" = 0 ]
check "moved_conditional: failure-inducing, both calc.c hunks" \
	[ "$(jqf '[.failure_inducing[] | .file + ":" + (.id | tostring)] | join(" ")')" = "calc.c:1 calc.c:2" ]
check "moved_conditional: the fix's proof passes" [ "$(jqf .fix_proof.verdict)" = PASS ]
check "moved_conditional: every configuration built" \
	[ "$(sqlite3 "$d/.git/culprit/session.db" "select count(*) from outcome where why = 1")" = 0 ]

# A warning reworded before the failing output: the old words are the same
# failure; the limit alone is the cause.
d=$(fixture reworded_message)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "reworded_message: exit 0" [ "$RC" = 0 ]
check "reworded_message: failure-inducing, the limit" [ "$(jqf '[.failure_inducing[] | .file] | join(" ")')" = limit.c ]
check "reworded_message: the fix, the limit" [ "$(jqf '[.fix[] | .file] | join(" ")')" = limit.c ]
check "reworded_message: no configuration failed differently" [ "$(jqf .configurations_failed_differently)" = 0 ]

# The failing test prints the program's absolute path, the worktree's: the
# same failure in the tree the changes are searched in.
d=$(fixture tree_path)
culprit_json "$d" --good good --bad bad --build make --no-semantic -- ./run-test.sh
check "tree_path: exit 0" [ "$RC" = 0 ]
check "tree_path: failure-inducing, the factor's hunk alone" [ "$(jqf '[.failure_inducing[].id | tostring] | join(" ")')" = 1 ]
check "tree_path: no configuration failed differently" [ "$(jqf .configurations_failed_differently)" = 0 ]
check "tree_path: the identity names no tree" sh -c "! printf '%s' '$(jqf .signature)' | grep -q culprit/wt-"
# A line re-spaced (no token changed) that names what a rename changed:
# tied to nothing, it is in no answer; the rename, the static of the old
# name and its assignment are.
d=$(fixture layout_only)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "layout_only: exit 0" [ "$RC" = 0 ]
check "layout_only: the rename, the static and its assignment are failure-inducing" \
	[ "$(jqf '[.failure_inducing[].id] | join(" ")')" = "1 2 3" ]
check "layout_only: the re-spaced line is in no set" \
	sh -c "! jq -r '.failure_inducing[], .fix[], .auxiliary[] | .added[]' '$T/out.json' | grep -q fprintf"
finish
