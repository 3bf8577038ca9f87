#!/bin/sh
# Honest output when the revert search finds the root but no cause forces
# the failure: the root stands (reverting proves it), and the JSON, the text
# and the Markdown reports still say in one line why there is no semantic
# explanation; no statement is boosted by the causes that do not force.
. "$TOP/tests/lib.sh"

d=$(fixture sem_rootonly)
printf 'none [ "$(./prog)" = none ]\nmean ./run-test.sh\none [ "$(./prog 2)" = 2 ]\nzero [ "$(./prog 0 0)" = 0 ]\n' \
	> "$T/suite.list"
culprit_json "$d" --good good --bad bad --suite "$T/suite.list" -- ./run-test.sh
check "rootonly: the failure is the printf" \
	[ "$(jqf .causal_tree.failure)" = 'avg.c:14 printf("%d\n", (int)(mean + 1.5)); printed "6\n", the good revision printed "5\n"' ]
check "rootonly: root found by reverting" [ "$(jqf .causal_tree.root_found)" = true ]
check "rootonly: no cause forces it" \
	[ "$(jqf '[.causal_tree.nodes[] | select(.kind == "cause" and .forcing)] | length')" = 0 ]
check "rootonly: the JSON says why there is no explanation" \
	sh -c "jq -r .causal_tree.no_explanation '$T/out.json' | grep -q '^the trace does not force the failure here'"
check "rootonly: the ranking has the changed line" \
	[ "$(jqf '[.ranking[] | select(.line == 14)] | length')" = 1 ]
check "rootonly: nothing boosted by a cause that does not force" [ "$(jqf '[.ranking[] | select(.boosted)] | length')" = 0 ]
(cd "$d" && "$CULPRIT" report) > "$T/report.txt"
check "rootonly: the report keeps the root" grep -q '^root cause: change #1 (reverting it makes the test pass)' "$T/report.txt"
check "rootonly: and says in one line there is no semantic explanation" \
	[ "$(grep -c '^no semantic explanation: the trace does not force the failure here' "$T/report.txt")" = 1 ]
(cd "$d" && "$CULPRIT" report --format markdown) > "$T/report.md"
check "rootonly: the markdown report too" \
	[ "$(grep -c '^no semantic explanation: the trace does not force the failure here' "$T/report.md")" = 1 ]
finish
