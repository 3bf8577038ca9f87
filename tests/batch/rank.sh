#!/bin/sh
# The suspiciousness ranking through the real binary: suites, coverage,
# tests failing at good, culprit rank, and its errors.
. "$TOP/tests/lib.sh"
. "$TOP/tests/fixtures/lib.sh"
set +e

d=$(fixture different_failure)
# A suite: the program run under a few names, one test that fails at good
# too, and one that times out.
cat > "$T/suite.list" <<'LIST'
# name  command
ok1   ./prog
ok2   ./prog > /dev/null
always-broken  exit 3
slow  sleep 30
LIST
culprit_json "$d" --good good --bad bad --suite "$T/suite.list" --test-timeout 3 --jobs 2 -- ./run-test.sh
check "rank: exit 0" [ "$RC" = 0 ]
check "rank: the formula" [ "$(jqf .suspiciousness.formula)" = ochiai ]
check "rank: the failing test counts as failing" [ "$(jqf .suspiciousness.failing)" -ge 1 ]
check "rank: a test failing at good is left out" [ "$(jqf .suspiciousness.left_out_failing_at_good)" = 1 ]
check "rank: a test that times out is unresolved" [ "$(jqf .suspiciousness.unresolved)" = 1 ]
check "rank: the entries have the documented fields" \
	[ "$(jqf '.ranking[0] | keys | sort | join(",")')" = "boosted,change_id,confidence,ef,ep,failure_inducing,file,line,range_change_id,rank,rank_avg,score" ]
check "rank: the failure-inducing change's line is marked" \
	[ "$(jqf '[.ranking[] | select(.failure_inducing) | .file] | unique | join(",")')" = "stats.c" ]
check "rank: the changed total line is ranked" \
	[ "$(jqf '[.ranking[] | select(.file == "stats.c" and .change_id != null)] | length')" -ge 1 ]

# culprit rank prints the stored ranking, with any formula, without building.
before=$(repo_state "$d")
(cd "$d" && "$CULPRIT" rank --formula dstar --format json --top 0) > "$T/rank.json" 2> "$T/err"
check "culprit rank: exit 0" [ $? = 0 ]
check "culprit rank: the formula asked for" [ "$(jq -r .formula "$T/rank.json")" = dstar ]
check "culprit rank: every line" [ "$(jq '.ranking | length' "$T/rank.json")" = "$(jq .lines "$T/rank.json")" ]
check "culprit rank: ranks never decrease" \
	[ "$(jq '[.ranking[].rank] | . == sort' "$T/rank.json")" = true ]
(cd "$d" && "$CULPRIT" rank --changed --format json) > "$T/changed.json"
check "culprit rank --changed: only changed lines" \
	[ "$(jq '[.ranking[] | select(.range_change_id == null)] | length' "$T/changed.json")" = 0 ]
check "culprit rank --changed: some lines" [ "$(jq '.ranking | length' "$T/changed.json")" -ge 1 ]
(cd "$d" && "$CULPRIT" rank --top 3) > "$T/rank.txt"
check "culprit rank: text table" grep -q '^ *rank *score *conf' "$T/rank.txt"
check "culprit rank: builds nothing, touches nothing" [ "$before" = "$(repo_state "$d")" ]
(cd "$d" && "$CULPRIT" rank --formula bogus) 2> "$T/err"
check "culprit rank: unknown formula is exit 2" [ $? = 2 ]

# Bad suite files: file:line errors.
printf 't1 ./prog\nt2\n' > "$T/bad1.list"
culprit_json "$d" --good good --bad bad --suite "$T/bad1.list" -- ./run-test.sh
check "suite: empty command" grep -q "^culprit: $T/bad1.list:2: test 't2' has no command" "$T/err"
printf 't1 ./prog\nt1 ./prog\n' > "$T/bad2.list"
culprit_json "$d" --good good --bad bad --suite "$T/bad2.list" -- ./run-test.sh
check "suite: duplicate names" grep -q "bad2.list:2: duplicate test name 't1'" "$T/err"
culprit_json "$d" --good good --bad bad --suite "$T/nonexistent.list" -- ./run-test.sh
check "suite: unreadable file is exit 2" [ "$RC" = 2 ]
check "suite: names the file" grep -q "nonexistent.list" "$T/err"

# A project that does not build with coverage: the error names the command.
culprit_json "$d" --good good --bad bad --suite "$T/suite.list" --coverage-build 'make no-such-target' -- ./run-test.sh
check "coverage build failing: exit 2" [ "$RC" = 2 ]
check "coverage build failing: names the command" grep -q "coverage build failed (make no-such-target)" "$T/err"
finish
