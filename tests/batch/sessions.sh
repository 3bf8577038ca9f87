#!/bin/sh
# Sessions you can name: culprit sessions, report/rank/tests --session ID,
# the last finished analysis by default (a failed run does not hide it),
# -C DIR before or after the subcommand, a relative --suite kept absolute.
. "$TOP/tests/lib.sh"
set +e

d=$(fixture different_failure)
mkdir -p "$d/suites"
printf 'runs ./prog\nsurvives sh -c "./prog; true"\n' > "$d/suites/s.list"
(cd "$d" && "$CULPRIT" --batch --quiet --format json --no-semantic --suite suites/s.list --good good --bad bad \
	-- ./run-test.sh) > "$T/good.json"
check "a finished analysis" [ "$(jq -r .explained "$T/good.json")" = true ]
builds=$(jq .builds "$T/good.json")
(cd "$d" && "$CULPRIT" --batch --quiet --no-semantic --good good --bad bad -- ./nosuch.sh) 2> "$T/err" > /dev/null
check "a typo fails" [ $? = 2 ]

(cd "$d" && "$CULPRIT" sessions) > "$T/sessions" 2> "$T/err"
check "sessions: exit 0" [ $? = 0 ]
check "sessions: a header" grep -q '^ *ID *STATE *DATE *GOOD\.\.BAD *CONFIGS *TEST' "$T/sessions"
check "sessions: the finished one, marked as the default" grep -q '^\* *1  explained .* good\.\.bad .* \./run-test\.sh$' "$T/sessions"
check "sessions: the failed one" grep -q '^  *2  failed .* \./nosuch\.sh$' "$T/sessions"
check "sessions: a date" grep -q ' 20[0-9][0-9]-[01][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9] ' "$T/sessions"

# The default is the last finished analysis, not the last run.
(cd "$d" && "$CULPRIT" report --format json) > "$T/report.json" 2> "$T/err"
check "report: a failed run does not hide the finished one" [ "$(jq -r .explained "$T/report.json")" = true ]
check "report: the stored total of builds" [ "$(jq .builds_total "$T/report.json")" = "$builds" ]
(cd "$d" && "$CULPRIT" report) > "$T/report.txt"
check "report: the text ends with a newline" [ "$(tail -c 1 "$T/report.txt" | od -An -c | tr -d ' ')" = '\n' ]
check "report: the text says the builds the analysis made" grep -q ", $builds builds; " "$T/report.txt"
(cd "$d" && "$CULPRIT" rank --top 2) > /dev/null 2> "$T/err"
check "rank: reads the finished one" [ $? = 0 ]
(cd "$d" && "$CULPRIT" report --session 2) > /dev/null 2> "$T/err"
check "report --session: the failed session says why" grep -q 'test command not found' "$T/err"
(cd "$d" && "$CULPRIT" report --session 1 --format json) > "$T/r1.json"
check "report --session 1" [ "$(jq -r .explained "$T/r1.json")" = true ]
(cd "$d" && "$CULPRIT" report --session 99) 2> "$T/err"
check "report --session: an unknown id is exit 2" [ $? = 2 ]
check "report --session: says so" grep -q 'no stored session 99 (culprit sessions lists them)' "$T/err"
(cd "$d" && "$CULPRIT" tests --session 1) 2> "$T/err"
check "tests --session: no approved tests is exit 1" [ $? = 1 ]

# -C DIR before or after the subcommand, from anywhere; a relative --suite.
(cd / && "$CULPRIT" -C "$d" report --format json) > "$T/c1.json" 2> "$T/err"
check "-C DIR report" [ "$(jq -r .explained "$T/c1.json")" = true ]
(cd / && "$CULPRIT" --format json report -C "$d") > "$T/c2.json" 2> "$T/err"
check "options before and after the subcommand" cmp -s "$T/c1.json" "$T/c2.json"
(cd / && "$CULPRIT" rank -C "$d" --top 2) > "$T/rank.txt" 2> "$T/err"
check "rank from another directory finds the relative suite" grep -q '^ *rank *score' "$T/rank.txt"
(cd / && "$CULPRIT" -C "$d" sessions) > /dev/null
check "-C DIR sessions" [ $? = 0 ]
(cd "$d" && "$CULPRIT" --session 1 --good good --bad bad -- ./run-test.sh) 2> "$T/err"
check "--session without a subcommand is bad usage" [ $? = 2 ]
mkdir -p "$T/empty"
(cd "$T/empty" && git init -q . && "$CULPRIT" sessions) 2> "$T/err"
check "sessions: none is an error" [ $? = 2 ]
finish
