#!/bin/sh
# bench/killresume: culprit SIGKILLed at random moments, each kill followed
# by a resume, on the demo repository (scripts/demo-repo.sh) with CPU-heavy
# work beside it; then two concurrent runs. Prints figures: kills, resumes
# giving the undisturbed answer, configurations tested again although their
# outcome was stored before the kill, processes left in the scratch
# worktrees after a kill, seconds. Never fails on time.
#   KILLS=N (default 30)  LOAD=N busy loops beside it (default 1)  SEED=N
#   ARGS='...' more culprit options (e.g. --no-semantic for shorter runs)
BUILD=${1:-build}
export LC_ALL=C
TOP=$(cd "$(dirname "$0")/.." && pwd)
CULPRIT=$TOP/$BUILD/culprit
KILLS=${KILLS:-30}
LOAD=${LOAD:-1}
SEED=${SEED:-$(date +%s)}
T=$(mktemp -d "${TMPDIR:-/tmp}/culprit-bench.XXXXXX")
busy= pid=
trap 'for p in $busy $pid; do kill "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
command -v jq >/dev/null && command -v sqlite3 >/dev/null || { echo "jq and sqlite3 are needed"; exit 1; }

repo=$T/demo
sh "$TOP/scripts/demo-repo.sh" "$repo" >/dev/null || exit 1
db=$repo/.git/culprit/session.db
set -- --batch --format json --quiet ${ARGS:-} -C "$repo" --good v1.0 --bad HEAD --build 'make -s' -- ./tests/run.sh t3
# What a run must answer the same whatever happened before it: the report
# without this run's counts and any duration.
answer() {
	jq -S 'del(.configurations_built_this_run, .builds, .builds_total, .resumed)
		| walk(if type == "object" then with_entries(select(.key | test("seconds$") | not)) else . end)' "$1"
}
stored() { sqlite3 "$db" 'SELECT key, created FROM outcome ORDER BY key' 2>/dev/null; }
# The processes whose working directory is in the scratch worktrees.
leftover() {
	n=0
	for p in /proc/[0-9]*; do
		case "$(readlink "$p/cwd" 2>/dev/null)" in "$repo"/.git/culprit/*) n=$((n + 1)) ;; esac
	done
	echo $n
}
i=0
while [ $i -lt "$LOAD" ]; do
	timeout 7200 sh -c 'while :; do :; done' &
	busy="$busy $!"
	i=$((i + 1))
done

start=$(date +%s.%N)
"$CULPRIT" --fresh "$@" > "$T/ref.json" 2> "$T/ref.err"
ref_rc=$?
t0=$(echo "$(date +%s.%N) - $start" | bc)
answer "$T/ref.json" > "$T/ref.answer"
printf 'undisturbed run: exit %d, %s s, %s configurations, failure-inducing %s\n' $ref_rc "$t0" \
	"$(jq .configurations_tested "$T/ref.json")" "$(jq -c '[.failure_inducing[].id]' "$T/ref.json")"

# Kill moments: uniform over the undisturbed run's duration.
awk -v s="$SEED" -v t="$t0" -v n=$((KILLS * 3)) 'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%.2f\n", 0.05 + rand() * t * 0.95 }' \
	> "$T/delays"
kills=0 same=0 retested=0 left=0 finished=0 resume_s=0
for d in $(cat "$T/delays"); do
	[ $kills -ge "$KILLS" ] && break
	"$CULPRIT" --fresh "$@" > "$T/killed.json" 2> "$T/killed.err" &
	pid=$!
	sleep "$d"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	rc=$?
	pid=
	if [ $rc != 137 ]; then
		finished=$((finished + 1))   # it ended before the kill: not counted
		continue
	fi
	kills=$((kills + 1))
	# The guard of each running command kills its group when culprit dies.
	k=0
	while [ "$(leftover)" != 0 ] && [ $k -lt 50 ]; do sleep 0.1; k=$((k + 1)); done
	l=$(leftover)
	left=$((left + l))
	stored > "$T/before"
	s0=$(date +%s.%N)
	"$CULPRIT" "$@" > "$T/resume.json" 2> "$T/resume.err"
	rrc=$?
	resume_s=$(echo "$resume_s + $(date +%s.%N) - $s0" | bc)
	stored > "$T/after"
	# Stored before the kill and tested again: its row was written anew.
	r=$(comm -23 "$T/before" "$T/after" | wc -l)
	retested=$((retested + r))
	if [ $rrc = $ref_rc ] && answer "$T/resume.json" | cmp -s - "$T/ref.answer"; then
		same=$((same + 1))
		verdict=same
	else
		verdict="DIFFERENT (exit $rrc)"
		answer "$T/resume.json" | diff "$T/ref.answer" - | head -20 | sed 's/^/    /'
		sed 's/^/    stderr: /' "$T/resume.err" | head -5
	fi
	printf '  kill %2d after %5.2f s: %3d outcomes stored, %d tested again, %d processes left; resume %s\n' \
		$kills "$d" "$(wc -l < "$T/before")" "$r" "$l" "$verdict"
done

# Two concurrent runs: the second refuses in one line while the first holds
# the repository; afterwards a plain run gives the undisturbed answer.
"$CULPRIT" --fresh "$@" > "$T/first.json" 2> "$T/first.err" &
first=$!
k=0
while flock -n "$repo/.git/culprit/lock" true 2>/dev/null && [ $k -lt 600 ]; do sleep 0.05; k=$((k + 1)); done
"$CULPRIT" "$@" > "$T/second.json" 2> "$T/second.err"
second_rc=$?
second_lines=$(wc -l < "$T/second.err")
wait $first
first_rc=$?
"$CULPRIT" "$@" > "$T/plain.json" 2> "$T/plain.err"
plain_rc=$?
conc=different
[ $first_rc = $ref_rc ] && answer "$T/first.json" | cmp -s - "$T/ref.answer" && conc=same
plain=different
[ $plain_rc = $ref_rc ] && answer "$T/plain.json" | cmp -s - "$T/ref.answer" && plain=same
total=$(echo "$(date +%s.%N) - $start" | bc)

echo
printf 'seed %s, options %s, %d busy loop(s) beside it, %d run(s) ended before their kill (not counted)\n' "$SEED" "${ARGS:--}" "$LOAD" $finished
printf '%-44s %s\n' "kills (SIGKILL at a random moment)" $kills \
	"resumes giving the undisturbed answer" "$same/$kills" \
	"configurations tested again after a kill" $retested \
	"processes left in the worktrees after a kill" $left \
	"seconds per resume (mean)" "$(echo "scale=2; $resume_s / ($kills + ($kills == 0))" | bc)" \
	"second concurrent run" "exit $second_rc, $second_lines line(s): $(head -c 100 "$T/second.err")" \
	"first concurrent run's answer" "$conc" \
	"plain run afterwards" "$plain (exit $plain_rc, $(jq .configurations_built_this_run "$T/plain.json") configurations built)" \
	"seconds in all" "$total"
