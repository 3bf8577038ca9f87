#!/bin/sh
# A changed line without code of its own (a predicate the compiler folds
# away) is still ranked: it takes the spectrum of the next line that has
# code, and keeps its change.
. "$TOP/tests/lib.sh"

d=$(fixture rank_folded)
cat > "$T/suite.list" <<'LIST'
eight  [ "$(./prog 8)" = YES ]
ten    [ "$(./prog 10)" = YES ]
three  [ "$(./prog 3)" = NO ]
two    [ "$(./prog 2)" = NO ]
LIST
culprit_json "$d" --good good --bad bad --suite "$T/suite.list" --no-semantic --top 0 -- ./run-test.sh
check "folded: explained" [ "$RC" = 0 ]
check "folded: the predicate's line is ranked" [ "$(jqf '[.ranking[] | select(.line == 6)] | length')" = 1 ]
check "folded: with the spectrum of the line run in its place" \
	[ "$(jqf '[.ranking[] | select(.line == 6) | .ef, .ep, .spectrum_of_line] | map(tostring) | join(" ")')" = \
	  "$(jqf '[.ranking[] | select(.line == 7) | .ef, .ep] | map(tostring) | join(" ")') 7" ]
check "folded: tied to its change" [ "$(jqf '[.ranking[] | select(.line == 6) | .change_id] | .[0]')" != null ]
check "folded: tied with the top" \
	[ "$(jqf '[.ranking[] | select(.line == 6) | .rank] | .[0]')" = "$(jqf '[.ranking[] | select(.line == 7) | .rank] | .[0]')" ]
(cd "$d" && "$CULPRIT" rank --format json --top 0) > "$T/again.json"
check "culprit rank: the same entry from the stored coverage" \
	[ "$(jq '[.ranking[] | select(.line == 6) | .spectrum_of_line] | .[0]' "$T/again.json")" = 7 ]

finish
