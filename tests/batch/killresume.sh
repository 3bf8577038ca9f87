#!/bin/sh
# SIGKILL at moments spread over a run, each kill followed by a resume that
# is killed in turn, the last one left to finish: the undisturbed answer,
# no configuration whose outcome was stored tested again, nothing left
# running in the scratch worktrees. (bench/killresume.sh: 30 kills.)
. "$TOP/tests/lib.sh"
set +e
export LC_ALL=C
command -v sqlite3 >/dev/null || { fail "sqlite3" "sqlite3 is not installed"; finish; }
d=$(fixture interact)
cp -a "$d" "$T/undisturbed"
db=$d/.git/culprit/session.db
set -- --batch --format json --quiet --no-semantic --good good --bad bad -- ./run-test.sh
# The answer: the report without this run's counts and any duration.
answer() {
	jq -S 'del(.configurations_built_this_run, .builds, .builds_total, .resumed)
		| walk(if type == "object" then with_entries(select(.key | test("seconds$") | not)) else . end)' "$1"
}
stored() { sqlite3 "$db" 'SELECT key, created FROM outcome ORDER BY key' 2>/dev/null; }
in_worktrees() { procs_under "$d/.git/culprit"; }

start=$(date +%s.%N)
"$CULPRIT" -C "$T/undisturbed" "$@" > "$T/ref.json" 2> "$T/ref.err"
ref_rc=$?
t0=$(echo "$(date +%s.%N) - $start" | bc)
check "undisturbed run: explained" [ $ref_rc = 0 ]
answer "$T/ref.json" > "$T/ref.answer"

# Kill moments: spread over the first fifth of the undisturbed run's
# duration, so that five kills leave work for the last resume.
kills=0 retested=0 left=0
for f in 0.31 0.07 0.53 0.19 0.97; do
	stored > "$T/before"
	"$CULPRIT" -C "$d" "$@" > "$T/killed.json" 2> "$T/killed.err" &
	pid=$!
	sleep "$(echo "0.05 + $f * $t0 / 5" | bc)"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	[ $? = 137 ] && kills=$((kills + 1))
	# The guard of each running command kills its group when culprit dies.
	i=0
	while [ -n "$(in_worktrees)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	left=$((left + $(in_worktrees | wc -l)))
	stored > "$T/after"
	# Stored before and written anew: tested again.
	retested=$((retested + $(comm -23 "$T/before" "$T/after" | wc -l)))
done
stored > "$T/before"
"$CULPRIT" -C "$d" "$@" > "$T/resume.json" 2> "$T/resume.err"
rc=$?
stored > "$T/after"
retested=$((retested + $(comm -23 "$T/before" "$T/after" | wc -l)))
check "kills: at least one run was killed ($kills)" [ $kills -ge 1 ]
check "kills: nothing left running in the worktrees" [ $left = 0 ]
same=no
[ $rc = $ref_rc ] && answer "$T/resume.json" | cmp -s - "$T/ref.answer" && same=yes
check "resume: the undisturbed answer" [ $same = yes ]
check "resume: no stored outcome tested again ($retested)" [ $retested = 0 ]
# A slow start (sanitizers) can have every kill land before the session is
# stored; when an outcome was stored, the last run resumed that session.
if [ -s "$T/before" ]; then
	check "resume: resumed" [ "$(jq .resumed "$T/resume.json")" = true ]
else
	ok "resume: no outcome was stored before the last run (nothing to resume)"
fi
finish
