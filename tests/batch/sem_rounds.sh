#!/bin/sh
# The semantic rounds follow distinct statements: causes that are the same
# statement in another iteration of a loop wait until the new statements
# are explained, so an input loop ahead of the fault does not spend the
# rounds (nor the critical predicates of a cause) before the faulty
# predicate is reached.
. "$TOP/tests/lib.sh"

cause_has() {
	[ "$(jq "[.causal_tree.nodes[] | select(.kind == \"cause\") | .statements[] | select($1)] | length" \
		"$T/out.json")" -gt 0 ]
}
edge_has() {
	[ "$(jq "[.causal_tree.nodes[] | select(.kind == \"cause\" and (.edge // \"\" | contains(\"$1\")))] | length" \
		"$T/out.json")" -gt 0 ]
}

d=$(fixture sem_inputloop)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "inputloop: the failure is the first number printed" \
	[ "$(jqf .causal_tree.failure)" = 'share.c:26 printf("%d ", lo[i]); printed "7 ", the good revision printed "6 "' ]
check "inputloop: the tree reaches the faulty predicate" edge_has 'share.c:17 if (spare >= hi[i]) { was false'
check "inputloop: a cause holds its line" cause_has '.line == 17'
check "inputloop: root found" [ "$(jqf .causal_tree.root_found)" = true ]
# No two causes explain the same loop condition before that predicate is reached.
first=$(jq '[.causal_tree.nodes[] | select(.kind == "cause")] | map(.edge // "") | index("share.c:17 if (spare >= hi[i]) { was false")' "$T/out.json")
dups=$(jq --argjson k "${first:-0}" '[.causal_tree.nodes[] | select(.kind == "cause")][:$k] | map(.edge // "") | map(select(. != "")) | (length - (unique | length))' "$T/out.json")
check "inputloop: no loop condition twice before it" [ "$dups" = 0 ]
check "inputloop: within the round budget" [ "$(jqf .causal_tree.semantic_rounds)" -le 16 ]

# Iterations that repeat a cause (same predicate, statements and values)
# are not shown again.
d=$(fixture sem_repeat)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
failure_is_last() {
	jq -e '.causal_tree.failure | startswith("conv.c:24 printf(") and endswith("the good revision printed \"f\\n\"")' \
		"$T/out.json" >/dev/null
}
check "repeat: the failure is the printf of last" failure_is_last
check "repeat: the predicate's cause is shown" edge_has 'conv.c:14 if (len > 1) was false'
twice=$(jq '[.causal_tree.nodes[] | select(.kind == "cause") | [.parent, .edge, [.statements[] | [.file, .line, .values]]]] | length - (unique | length)' "$T/out.json")
check "repeat: no cause shown twice" [ "$twice" = 0 ]
check "repeat: the predicate once" [ "$(jq '[.causal_tree.nodes[] | select(.edge == "conv.c:14 if (len > 1) was false")] | length' "$T/out.json")" = 1 ]
finish
