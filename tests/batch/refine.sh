#!/bin/sh
# Refinement through the real binary: generated inputs judged by the good
# revision, proposed one at a time and approved by --refine N; the ranking
# they sharpen; the other fault's inputs left out; the approved tests as a
# suite file.
. "$TOP/tests/lib.sh"

# rank_of FILE LINE: the line's rank in the last JSON report.
rank_of() { jq -r --arg f "$1" --argjson l "$2" '[.ranking[] | select(.file == $f and .line == $l)][0].rank' "$T/out.json"; }

# One changed line; the suite holds only the failing test, so all lines tie.
d=$(fixture refine_rank)
culprit_json "$d" --good good --bad bad --suite tests.list -- ./run-test.sh
check "rank: explained" [ "$RC" = 0 ]
before=$(rank_of scale.c 8)
check "rank: the faulty line ties with the others" [ "$before" -gt 1 ]
check "rank: the cause's statements are boosted" [ "$(jqf '[.ranking[] | select(.boosted)] | length')" -ge 3 ]
culprit_json "$d" --good good --bad bad --suite tests.list --refine 1 -- ./run-test.sh
check "rank: one test approved" [ "$(jqf '.refinement.answered | length')" = 1 ]
check "rank: the first proposal passes on both revisions" [ "$(jqf '.refinement.answered[0].verdict')" = passing ]
check "rank: it takes x > 10 the other way" [ "$(jqf '.refinement.answered[0].input' | awk '{print $2}')" -le 10 ]
after=$(rank_of scale.c 8)
check "rank: the faulty line's rank improves after approval ($before -> $after)" [ "$after" -lt "$before" ]
check "rank: to the top" [ "$after" = 1 ]
check "rank: the ranking counts the new passing test" [ "$(jqf .suspiciousness.passing)" = 1 ]
check "rank: the pane's moves are reported" \
	[ "$(jqf '[.refinement.moves[] | select(.file == "scale.c" and .line == 8)][0].after')" = 1 ]
(cd "$d" && "$CULPRIT" tests) > "$T/suite.list"
check "rank: culprit tests prints the suite" grep -q '^gen1 ' "$T/suite.list"
# The exported test passes at both revisions (it agrees with the good one).
cmd=$(grep '^gen1 ' "$T/suite.list" | sed 's/^gen1 //')
git -C "$d" worktree add -q "$T/at-good" good 2>/dev/null && (cd "$T/at-good" && make -s >/dev/null 2>&1)
check "rank: the exported test passes at the good revision" sh -c "cd '$T/at-good' && $cmd"
git -C "$d" worktree remove --force "$T/at-good" 2>/dev/null
(cd "$d" && make -s >/dev/null 2>&1)
check "rank: and at the bad one (the input does not reach the fault)" sh -c "cd '$d' && $cmd"
(cd "$d" && git clean -qfdx && git checkout -q .)
culprit_json "$d" --good good --bad bad --suite tests.list --refine 3 -- ./run-test.sh
check "rank: then another failing input on the failing run's lines, and nothing more: two tests" \
	[ "$(jqf '[.refinement.answered[] | .verdict] | join(" ")')" = "passing failing" ]
check "rank: the faulty line stays first" [ "$(rank_of scale.c 8)" = 1 ]
(cd "$d" && "$CULPRIT" report) > "$T/report.txt"
check "rank: the text report lists the approved test" grep -q '^  approved gen1 ' "$T/report.txt"

# Beyond one negated branch: the approved test's own run, traced, leads on.
d=$(fixture refine_deep)
(cd "$d" && "$CULPRIT" --batch --format json --good good --bad bad --refine 5 -- ./run-test.sh > "$T/out.json" 2> "$T/err2")
check "deep: explained" [ "$?" = 0 ]
check "deep: first a <= 0, from the failing run" [ "$(jqf '.refinement.answered[0].input' | awk '{print ($2 <= 0 && $3 > 0)}')" = 1 ]
check "deep: then b <= 0 too, from the approved test's run" \
	[ "$(jqf '.refinement.answered[1].input' | awk '{print ($2 <= 0 && $3 <= 0)}')" = 1 ]
check "deep: generated from two runs" grep -q 'new inputs from .* of 2 runs' "$T/err2"
check "deep: then a failing input on the failing run's lines, once: three tests" \
	[ "$(jqf '[.refinement.answered[] | .verdict] | join(" ")')" = "passing passing failing" ]
check "deep: and it says why each candidate was dropped, in both searches" \
	sh -c "jq -r .refinement.note '$T/out.json' | grep -q '^no new input adds coverage or an outcome that no earlier test had: refinement is done ([0-9]* generated; [0-9]* runs* the very lines an earlier test ran, with its outcome); nor a wider search, the failing run.s path with other values ([0-9]* generated[^)]*)\$'"

# Two faults: an input that violates the other check is not proposed.
d=$(fixture refine_two)
(cd "$d" && "$CULPRIT" --batch --format json --good good --bad bad --refine 5 -- ./run-test.sh > "$T/out.json" 2> "$T/err2")
check "two: explained" [ "$?" = 0 ]
check "two: the other fault's input is left out" [ "$(jqf .refinement.dropped)" -ge 1 ]
check "two: it says why" grep -q 'fails differently (assertion failed at main.c:22, not assertion failed at main.c:23): another fault' "$T/err2"
check "two: no negative input approved" [ "$(jqf '[.refinement.answered[] | select(.input | test("prog -"))] | length')" = 0 ]
check "two: failing inputs of the same fault are proposed" \
	[ "$(jqf '[.refinement.answered[] | select(.verdict == "failing")] | length')" -ge 1 ]
check "two: and a passing one" [ "$(jqf '[.refinement.answered[] | select(.verdict == "passing")] | length')" = 1 ]
check "two: the faulty line ranks first" [ "$(rank_of main.c 11)" = 1 ]

# Fault sets (MaxSAT), weighted by the suite's suspiciousness.
culprit_json "$d" --good good --bad bad --suite tests.list -- ./run-test.sh
check "faults: sets in the JSON report" [ "$(jqf '.fault_sets.sets | length')" -ge 2 ]
check "faults: weighted by suspiciousness" [ "$(jqf .fault_sets.weighted)" = true ]
check "faults: the faulty line's set first" [ "$(jqf '.fault_sets.sets[0].lines | map(.file + ":" + (.line|tostring)) | join(" ")')" = main.c:11 ]
check "faults: with its clause" [ "$(jqf '.fault_sets.sets[0].lines[0].clause' | grep -c 'y = y - 1;')" = 1 ]
check "faults: widened: a branch and its other arm together" \
	[ "$(jqf '[.fault_sets.sets[] | select((.lines | map(.line) | sort) == [8, 9])] | length')" = 1 ]
check "faults: forced runs counted" [ "$(jqf .fault_sets.paths)" -ge 2 ]
(cd "$d" && "$CULPRIT" report) > "$T/report.txt"
check "faults: the text report" grep -q '^  1. {main.c:11}' "$T/report.txt"

# Change interaction: two changes feed one statement.
d=$(fixture interact)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
ind=$(jqf '[.failure_inducing[].id] | sort | join(" ")')
check "interaction: one location" [ "$(jqf '.interaction.locations | length')" = 1 ]
check "interaction: where x and y meet" [ "$(jqf '.interaction.locations[0] | .file + ":" + (.line|tostring)')" = main.c:7 ]
check "interaction: the two failure-inducing changes" [ "$(jqf '.interaction.locations[0].changes | sort | join(" ")')" = "$ind" ]
check "interaction: sequences on to the output" \
	[ "$(jqf '[.interaction.sequences[] | select(.location == 0 and .output_line == 8)] | length')" = 2 ]
(cd "$d" && "$CULPRIT" report) > "$T/report.txt"
check "interaction: in the text report" grep -q '^  main.c:7  int total = get_x() + get_y();  <- changes' "$T/report.txt"

# Usage errors.
(cd "$d" && "$CULPRIT" --good good --bad bad --refine 2 -- ./run-test.sh) > /dev/null 2> "$T/err3"
check "usage: --refine needs --batch" sh -c "[ $? = 2 ] && grep -q -- '--refine N goes with --batch' '$T/err3'"
(cd "$d" && "$CULPRIT" --batch --no-semantic --good good --bad bad --refine 2 -- ./run-test.sh) > /dev/null 2> "$T/err3"
check "usage: --refine needs the explainer" grep -q -- '--refine needs the semantic explainer' "$T/err3"
(cd "$d" && "$CULPRIT" --batch --good good --bad bad --refine x -- ./run-test.sh) > /dev/null 2> "$T/err3"
check "usage: --refine takes a number" grep -q -- '--refine needs a number' "$T/err3"
d2=$(fixture interact)
(cd "$d2" && "$CULPRIT" --batch -q --good good --bad bad -- ./run-test.sh >/dev/null 2>&1; "$CULPRIT" tests) > /dev/null 2> "$T/err3"
check "tests: a session without approved tests says so" grep -q 'no approved tests' "$T/err3"
finish
