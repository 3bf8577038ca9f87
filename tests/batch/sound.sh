#!/bin/sh
# Sound answers: every set named with the tested configuration that proves
# it, token-level answers shown as real lines, configurations that fail
# otherwise (crash, loop, another output) never taken for the failure, and
# the derived timeout bounding the loops; commits that do not build in the
# middle of the range skipped; a failing output without a final newline.
. "$TOP/tests/lib.sh"

# A list-insert regression whose partial configurations crash or loop.
d=$(fixture list_insert)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "list: exit 0" [ "$RC" = 0 ]
check "list: explained" [ "$(jqf .explained)" = true ]
check "list: the timeout derived (5 s)" [ "$(jqf '"\(.test_timeout) \(.test_timeout_derived)"')" = "5 true" ]
# Every line shown exists in the revision it is said to come from.
git -C "$d" show good:list.c good:main.c good:list.h > "$T/good.txt"
git -C "$d" show bad:list.c bad:main.c bad:list.h > "$T/bad.txt"
real=ok
for set in failure_inducing fix auxiliary; do
	jqf ".${set}[].removed[]" > "$T/removed.txt"
	jqf ".${set}[].added[]" > "$T/added.txt"
	while IFS= read -r line; do grep -qxF -- "$line" "$T/good.txt" || { real="not in good: $line"; break; }; done < "$T/removed.txt"
	while IFS= read -r line; do grep -qxF -- "$line" "$T/bad.txt" || { real="not in bad: $line"; break; }; done < "$T/added.txt"
done
check "list: only real lines reported ($real)" [ "$real" = ok ]
check "list: token pieces are marked in the real lines" \
	[ "$(jqf '[.failure_inducing[], .fix[], .auxiliary[] | select(.kind == "token")
		| (.added_marked + .removed_marked) | map(select(contains("{+") or contains("[-"))) | length > 0] | all')" = true ]
# A change named as a cause is not also a build need: neither it, its hunk
# nor its pieces are listed as auxiliary.
check "list: no cause is listed as auxiliary too" \
	[ "$(jqf '[.failure_inducing[].id, .fix[].id] as $c | [.auxiliary[].id as $a | $c[]
		| select(. == $a or startswith($a + ".") or ($a | startswith(. + ".")))] | length')" = 0 ]
# Reverting either hunk without the other still fails (crashes, loops or
# prints otherwise): both are causes, neither a build need.
check "list: a change the fix cannot pass without is a cause, not auxiliary" \
	[ "$(jqf '"\(.fix | length) \(.auxiliary | length)"')" = "2 0" ]
check "list: no set needs the other's causes to build" \
	[ "$(jqf '[.failure_inducing_needs, .fix_needs] | tostring')" = '[[],[]]' ]
check "list: the failure-inducing set's proof fails" [ "$(jqf .failure_inducing_proof.verdict)" = FAIL ]
check "list: the fix set's proof passes" [ "$(jqf .fix_proof.verdict)" = PASS ]
db="$d/.git/culprit/session.db"
proofs_ok=ok
for p in failure_inducing_proof fix_proof; do
	k=$(jqf ".$p.key")
	v=$(sqlite3 "$db" "select verdict from outcome where key='$k'")
	want=$([ $p = fix_proof ] && echo 0 || echo 1)
	[ "$v" = "$want" ] || proofs_ok="$p $k: $v"
done
check "list: the proofs are tested configurations with those verdicts ($proofs_ok)" [ "$proofs_ok" = ok ]
check "list: the report counts the configurations that failed differently" [ "$(jqf .configurations_failed_differently)" -ge 1 ]
check "list: some configurations crashed, looped or failed otherwise" \
	[ "$(sqlite3 "$db" "select count(*) from outcome where why in (3, 5)")" -ge 1 ]
# The mechanism, not the machine: a run is killed at the timeout (plus the
# two seconds between TERM and KILL).
check "list: no configuration's test ran past the derived timeout" \
	[ "$(sqlite3 "$db" "select count(*) from outcome where test_seconds > 5 + 2 + 1")" = 0 ]
check "list: the text report shows the proofs" \
	sh -c "cd '$d' && '$CULPRIT' report | grep -q 'proved by configuration'"

# Commits that do not build in the middle of the range are skipped.
d=$(fixture unbuildable_middle)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "unbuildable middle: exit 0" [ "$RC" = 0 ]
check "unbuildable middle: the culprit named" [ "$(jqf .culprit_commit)" = "$(git -C "$d" rev-parse culprit)" ]
check "unbuildable middle: the change" [ "$(jqf '.failure_inducing[0].added[0]')" = "	return 12;" ]

# Many changes: progress labels that stay readable.
d=$(fixture many_changes)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "many changes: exit 0" [ "$RC" = 0 ]
check "many changes: the change to f27.txt" [ "$(jqf '[.failure_inducing[].file] | join(",")')" = f27.txt ]
check "many changes: large configurations labelled by count" \
	[ "$(sqlite3 "$d/.git/culprit/session.db" "select count(*) from outcome where label like 'good + % of 40 changes in % files' or label like 'bad - % of 40 changes in % files'")" -ge 1 ]

# A failing output that ends without a newline.
d=$(fixture no_newline)
culprit_json "$d" --good good --bad bad --build true --no-semantic -- ./run-test.sh
check "no newline: exit 0 (no crash)" [ "$RC" = 0 ]
check "no newline: the failure's identity holds the output's end" \
	[ "$(jqf '.signature | startswith("exit 1; output ends \"yyyy")')" = true ]

# The derived timeout is per run: the bad revision runs five times (its
# failure's identity), the good one once; 10x the slower run, not the sum.
d2=$T/slow
FX_HOME=$T/home sh "$TOP/tests/fixtures/list_insert.sh" "$d2" >/dev/null 2>&1
(cd "$d2" && "$CULPRIT" --batch --format json --quiet --no-semantic --good good --bad bad \
	-- sh -c 'sleep 0.6; ./run-test.sh') > "$T/slow.json" 2>/dev/null
want=$(sqlite3 "$d2/.git/culprit/session.db" "SELECT max(test_seconds / runs) FROM outcome WHERE label LIKE 'bad revision%' OR label LIKE 'good revision%'")
got=$(jq -r .test_timeout "$T/slow.json")
echo "slow: per run ${want} s, timeout ${got} s"
check "slow: the derived timeout is 10x the slower run" \
	awk -v w="$want" -v g="$got" 'BEGIN { e = 10 * w; if (e < 5) e = 5; exit !(w > 0.5 && g > 0.99 * e && g < 1.01 * e) }'

# Changes that only work together: six header widths, the reader skipping
# their sum. Any part of them applied or reverted apart reads another
# offset, a failure of its own; after a few such configurations the six
# stand whole, proved, and the note says why they are not narrowed.
d=$(fixture coupled_offsets)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "coupled: exit 0" [ "$RC" = 0 ]
check "coupled: the six are failure-inducing, whole" [ "$(jqf '[.failure_inducing[].id] | join(" ")')" = "1 2 3 4 5 6" ]
check "coupled: the six are the fix, proved" [ "$(jqf '[.fix[].id] | join(" ")')" = "1 2 3 4 5 6" ]
check "coupled: the six are the fix, proved (2)" [ "$(jqf .fix_proof.verdict)" = PASS ]
check "coupled: the six are the fix, proved (3)" [ "$(jqf .failure_inducing_proof.verdict)" = FAIL ]
check "coupled: the note says they only work together" sh -c "jq -r .note '$T/out.json' | grep -q 'only work together'"
check "coupled: no more than 5 configurations failed otherwise ($(jqf .configurations_failed_differently))" \
	[ "$(jqf .configurations_failed_differently)" -le 5 ]
# Locals moved into a struct that outlives the call, each use renamed in a
# hunk of its own: the move is one block (a mix splits the state between
# the local and the field and fails otherwise), and it is the answer.
d=$(fixture local_to_field)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "local_to_field: exit 0" [ "$RC" = 0 ]
check "local_to_field: the move is failure-inducing, whole" \
	[ "$(jqf '[.failure_inducing[] | select(.kind == "hunk") | .added[] | select(contains("ctx."))] | length')" = 4 ]
check "local_to_field: and the fix, proved" [ "$(jqf '[.fix[].id] | join(" ")')" = "$(jqf '[.failure_inducing[].id] | join(" ")')" ]
check "local_to_field: and the fix, proved (2)" [ "$(jqf .fix_proof.verdict)" = PASS ]
check "local_to_field: no configuration failed otherwise" [ "$(jqf .configurations_failed_differently)" = 0 ]
# Globals moved into a struct a header declares: the same, across files.
# A mix builds while a reverted hunk keeps the globals declared, and fails
# otherwise; the move is one block, and it is the answer, with the struct
# and its definition as what it needs to build.
d=$(fixture global_to_field)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "global_to_field: exit 0" [ "$RC" = 0 ]
check "global_to_field: the move is failure-inducing, whole" \
	[ "$(jqf '[.failure_inducing[] | select(.kind == "hunk") | .added[] | select(contains("ctx."))] | length')" = 4 ]
check "global_to_field: the globals' removal with it" \
	[ "$(jqf '[.failure_inducing[] | .removed[] | select(. == "int count;")] | length')" = 1 ]
check "global_to_field: and the fix, proved" [ "$(jqf '[.fix[].id] | join(" ")')" = "$(jqf '[.failure_inducing[].id] | join(" ")')" ]
check "global_to_field: and the fix, proved (2)" [ "$(jqf .fix_proof.verdict)" = PASS ]
check "global_to_field: no configuration failed otherwise" [ "$(jqf .configurations_failed_differently)" = 0 ]
# A convention dropped from two lines of one function, among a dozen other
# changes: the loop is failure-inducing; reverted alone it fails otherwise,
# so the fix is sought with it, first among its function's changes: the
# loop and the escape's bound, found with one configuration more.
d=$(fixture fix_nearby)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "fix_nearby: exit 0" [ "$RC" = 0 ]
check "fix_nearby: the loop is failure-inducing" [ "$(jqf '[.failure_inducing[].id] | join(" ")')" = 1 ]
check "fix_nearby: the fix is the loop and the escape's bound" [ "$(jqf '[.fix[].id] | join(" ")')" = "1 2" ]
check "fix_nearby: the fix, proved" [ "$(jqf .fix_proof.verdict)" = PASS ]
check "fix_nearby: sought in the loop's function first ($(jqf .configurations_tested) tested)" \
	[ "$(jqf .configurations_tested)" -le 8 ]
finish
