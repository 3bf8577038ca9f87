#!/bin/sh
# The change-aware ranking (--changed): a line whose change touched only
# its comment is not a changed line, and the lines of the failure-inducing
# changes come before the other changed lines.
. "$TOP/tests/lib.sh"

d=$(fixture rank_comment)
cat > "$T/suite.list" <<'LIST'
top    [ "$(./prog 95)" = 4 ]
good   [ "$(./prog 85)" = 3 ]
pass   [ "$(./prog 50)" = 2 ]
exact  [ "$(./prog 90)" = 4 ]
LIST
culprit_json "$d" --good good --bad bad --suite "$T/suite.list" --no-semantic --changed -- ./run-test.sh
check "changed: explained" [ "$RC" = 0 ]
check "changed: the comment's line is not a changed line" \
	[ "$(jqf '[.ranking[] | select(.line == 18)] | length')" = 0 ]
check "changed: the failure-inducing predicate ranks first" \
	[ "$(jqf '.ranking[0].line')" = 6 ] && [ "$(jqf '.ranking[0].rank')" = 1 ]
check "changed: the harmless rewrite after it" [ "$(jqf '.ranking[1].line')" = 19 ]
(cd "$d" && "$CULPRIT" rank --changed --format json) > "$T/changed.json"
check "culprit rank --changed: the predicate first" [ "$(jq '.ranking[0].line' "$T/changed.json")" = 6 ]
(cd "$d" && "$CULPRIT" rank --format json --top 0) > "$T/all.json"
check "without --changed: the plain order (the rewrite above the predicate)" \
	[ "$(jq '[.ranking[] | select(.line == 19 or .line == 6) | .line] | .[0]' "$T/all.json")" = 19 ]
check "without --changed: the comment's line is ranked but not a change" \
	[ "$(jq '[.ranking[] | select(.line == 18) | .change_id] | .[0]' "$T/all.json")" = null ]

finish
