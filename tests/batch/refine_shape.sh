#!/bin/sh
# Refinement on the inputs real programs read, with tests in the suite's own
# shape: argv numbers through strtol, a number from the environment through
# atoi(getenv(...)) set in the test's command, standard input through
# scanf, a check.sh EXPECTED ARGS wrapper, output compared with cmp against
# an expected file. Each approves at least two tests, each exported test passes
# at the good revision as `culprit tests` writes it, and the faulty line
# ends in the top three.
. "$TOP/tests/lib.sh"

rank_of() { jq -r --arg f "$1" --argjson l "$2" '[.ranking[] | select(.file == $f and .line == $l)][0].rank' "$T/out.json"; }

# shaped REGEX: every exported test matches it.
shaped() { ! grep '^gen' "$T/suite.list" | grep -v "^gen[0-9]* $1\$" | grep -q .; }

# one FIXTURE FILE LINE SHAPE-REGEX TEST-COMMAND
one() {
	fx=$1 file=$2 line=$3 shape=$4
	shift 4
	d=$(fixture "$fx")
	culprit_json "$d" --good good --bad bad --suite tests.list --refine 5 -- "$@"
	check "$fx: explained" [ "$RC" = 0 ]
	n=$(jqf '[.refinement.answered[] | select(.answer == "approved")] | length')
	check "$fx: at least ${MIN:-2} tests approved ($n)" [ "$n" -ge "${MIN:-2}" ]
	r=$(rank_of "$file" "$line")
	check "$fx: the faulty line ends in the top three ($r)" sh -c "[ '$r' != null ] && [ '$r' -le 3 ]"
	(cd "$d" && "$CULPRIT" tests) > "$T/suite.list"
	check "$fx: the tests are in the suite's shape" shaped "$shape"
	git -C "$d" worktree add -q "$T/at-good" good 2>/dev/null && (cd "$T/at-good" && make -s >/dev/null 2>&1)
	grep '^gen' "$T/suite.list" | while read -r name cmd; do
		if (cd "$T/at-good" && sh -c "$cmd") >/dev/null 2>&1; then ok "$fx: $name passes at the good revision"
		else fail "$fx: $name passes at the good revision" "$cmd"; fi
	done
	git -C "$d" worktree remove --force "$T/at-good" 2>/dev/null
}

one refine_strtol temp.c 22 '\[ "\$(\./prog [-0-9]* [-0-9]* [-0-9]*)" = .* \]' '[ "$(./prog 25 10 20)" = "hot 5" ]'
one refine_getenv quota.c 19 '\[ "\$(LIMIT=[-0-9]* \./prog [-0-9]*)" = .* \]' '[ "$(LIMIT=10 ./prog 13)" = "over 3" ]'
# The variable set by the suite's environment, not by the test: a new value
# is set before the program.
export LIMIT=10
one refine_getenv quota.c 19 '\[ "\$(\(LIMIT=[-0-9]* \)\{0,1\}\./prog [-0-9]*)" = .* \]' '[ "$(./prog 13)" = "over 3" ]'
unset LIMIT
one refine_scanf pass.c 16 '\[ "\$(\./prog < /.*/gen[0-9]*\.in)" = .* \]' '[ "$(./prog < tests/2.in)" = "1 1" ]'
one refine_wrapper year.c 10 "sh check.sh [-0-9]* [-0-9']*" sh check.sh 1 2024
one refine_cmp fizz.c 17 "\./prog [-0-9']* | cmp -s - '*/.*/gen[0-9]*\.out'*" './prog 6 | cmp -s - tests/6.out'
# Straight-line code (no branch to negate): inputs on the same path with
# other values; the one failing such input is approved (the passing ones
# repeat the suite's passing test's lines and outcome).
MIN=1 one refine_straight tiles.c 8 '\[ "\$(\./prog < /.*/gen[0-9]*\.in)" = .* \]' '[ "$(./prog < tests/2.in)" = "4" ]'
check "straight: candidates on the same path" [ "$(jqf '.refinement.rounds[0].candidates')" -ge 1 ]
check "straight: the note says a wider search found nothing either" sh -c "jq -r .refinement.note '$T/out.json' | grep -q 'nor a wider search'"
# A suite that runs each path both ways already: an input that repeats a
# suite test's lines and outcome is not proposed again, and when a round's
# inputs all repeat, a wider search (the failing run's own path with other
# values, branches negated along the suite's passing runs) finds failing
# inputs the suite has not (before: three passing tests, no failing one).
MIN=4 one refine_spread spread.c 23 '.*\./prog.*' '[ "$(./prog < tests/9.in)" = "$(printf '"'"'YES\n4 1 '"'"')" ]'
check "spread: a failing test approved" [ "$(jqf '[.refinement.answered[] | select(.answer == "approved" and .verdict == "failing")] | length')" -ge 1 ]
# Doubles read by scanf("%lf"): the comparison on the value is solved in
# floating point, the new value written back as a number (the suite's other
# tests leave one new coverage to find).
MIN=1 one refine_float heat.c 9 '\(\[ "\$(\./prog < /.*/gen[0-9]*\.in)" = .* \]\|.*printf .%b. .*\)' '[ "$(./prog < tests/2.in)" = "hot" ]'
check "float: each approved test is one line of the suite" [ "$(grep -c '^gen' "$T/suite.list")" = "$(jqf '[.refinement.answered[] | select(.answer == "approved")] | length')" ]
check "float: the new reading is a number" sh -c "grep '^gen' '$T/suite.list' | head -1 | sed 's/.*< //; s/).*//' | xargs cat | grep -qE '^-?[0-9]+(\.[0-9]+)?\$'"

# A candidate that makes the program loop (the sentinel 0 replaced, end of
# input unchecked) is dropped after the candidates' short time limit, and
# the note says why.
d=$(fixture refine_loop)
culprit_json "$d" --good good --bad bad --suite tests.list --refine 5 -- '[ "$(./prog < tests/2.in)" = "1 0" ]'
check "loop: explained" [ "$RC" = 0 ]
check "loop: a test approved" [ "$(jqf '[.refinement.answered[] | select(.answer == "approved")] | length')" -ge 1 ]
check "loop: the looping candidate dropped, with its reason" sh -c "jq -r .refinement.note '$T/out.json' | grep -q 'waiting for input or looping'"

# Fault sets when the chain is cut (string literals printed): the path to
# the failure instead of the output check; stored, not computed again when
# the session is reopened.
d=$(fixture faults_cut)
(cd "$d" && "$CULPRIT" --batch --format json --good good --bad bad --suite tests.list -- sh check.sh common 1900) > "$T/out.json" 2> "$T/err"
check "cut: fault sets" [ "$(jqf '.fault_sets.sets | length')" -ge 1 ]
check "cut: the faulty line's set among them" [ "$(jqf '[.fault_sets.sets[] | select(.lines | map(.file + ":" + (.line|tostring)) | index("year.c:8"))] | length')" -ge 1 ]
check "cut: it says how they were found" sh -c "jq -r .fault_sets.note '$T/out.json' | grep -q 'off the failure'"
check "cut: computed" grep -q 'fault sets (MaxSAT' "$T/err"
(cd "$d" && "$CULPRIT" --batch --format json --good good --bad bad --suite tests.list -- sh check.sh common 1900) > "$T/out.json" 2> "$T/err"
check "cut: reopened, the stored sets are shown" [ "$(jqf '.fault_sets.sets | length')" -ge 1 ]
check "cut: and not computed again" sh -c "! grep -q 'fault sets (MaxSAT' '$T/err'"
finish
