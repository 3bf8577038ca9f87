#!/bin/sh
# Bad input: one line on stderr, exit 2, and the repository untouched.
. "$TOP/tests/lib.sh"
d=$(fixture badinput)

# bad_case NAME DIR ARGS...: expect exit 2 and exactly one "culprit: " line.
bad_case() {
	_bn=$1; shift
	culprit_json "$@"
	_lines=$(wc -l < "$T/err")
	if [ "$RC" = 2 ] && [ "$_lines" = 1 ] && grep -q '^culprit: ' "$T/err"; then
		ok "$_bn"
	else
		fail "$_bn" "exit $RC, stderr: $(cat "$T/err")"
	fi
}

mkdir -p "$T/plain"
bad_case "not a repository" "$T/plain" --good good --bad bad -- ./run-test.sh
bad_case "unknown revision" "$d/simple" --good nosuch --bad bad -- ./run-test.sh
bad_case "good equal to bad" "$d/simple" --good bad --bad bad -- ./run-test.sh
bad_case "empty diff" "$d/simple" --good bad --bad same -- ./run-test.sh
bad_case "test command not found" "$d/simple" --good good --bad bad -- ./no-such-test.sh
bad_case "test passing at bad" "$d/simple" --good good --bad bad -- true
bad_case "test failing at good" "$d/simple" --good good --bad bad -- false
bad_case "build failing at good" "$d/build_good" --good good --bad bad -- ./run-test.sh
bad_case "build failing at bad" "$d/build_bad" --good good --bad bad -- ./run-test.sh
bad_case "bad fail pattern" "$d/simple" --good good --bad bad --fail-pattern 'a(' -- ./run-test.sh
bad_case "unknown option" "$d/simple" --good good --bad bad --frobnicate -- ./run-test.sh
bad_case "missing test command" "$d/simple" --good good --bad bad
bad_case "bad timeout" "$d/simple" --good good --bad bad --test-timeout zero -- ./run-test.sh
bad_case "bad format" "$d/simple" --good good --bad bad --format xml -- ./run-test.sh
culprit_json "$d/simple" --good good --bad bad -- false
check "test failing at good: names the revision" grep -q "the test fails at the good revision $(git -C "$d/simple" rev-parse --short=12 good)" "$T/err"
culprit_json "$d/build_bad" --good good --bad bad -- ./run-test.sh
check "build failing at bad: shows the compiler error" grep -q 'main.c:4:[0-9]*: error:' "$T/err"
finish
