#!/bin/sh
# The stored session: resuming after SIGKILL, second runs, --fresh, report.
. "$TOP/tests/lib.sh"

# Resume: kill culprit with SIGKILL in the middle of a run, start it again:
# no configuration recorded before the kill is built again, and the answer
# is the same as an uninterrupted run's.
d=$(fixture two_wrong_values)   # a dozen builds: the kill falls in the middle
cp -r "$d" "$T/resume-copy"
log=$T/builds.log
: > "$log"
build="cat *.c | cksum >> $log; make -s"
(cd "$d" && exec "$CULPRIT" --batch --quiet --format json --no-semantic --build "$build" --good good --bad bad -- ./run-test.sh \
	> "$T/killed.json" 2>&1) &
pid=$!
i=0
while [ "$(wc -l < "$log")" -lt 7 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
db=$d/.git/culprit/session.db
recorded=$(sqlite3 "$db" 'select count(*) from outcome')
built_before=$(wc -l < "$log")
check "resume: killed in the middle" sh -c "[ $recorded -ge 5 ] && [ ! -s '$T/killed.json' ]"
check "resume: no build left running" [ -z "$(procs_under "$d")" ]
culprit_json "$d" --no-semantic --build "$build" --good good --bad bad -- ./run-test.sh
check "resume: finishes" [ "$RC" = 0 ]
check "resume: says it resumed" [ "$(jqf .resumed)" = true ]
total=$(jqf .configurations_tested)
built_after=$(( $(wc -l < "$log") - built_before ))
check "resume: nothing recorded is built again" [ "$built_after" -le $((total - recorded)) ]
check "resume: at most the interrupted build repeats" [ "$(sort "$log" | uniq -d | wc -l)" -le 1 ]
cp "$T/out.json" "$T/resumed.json"
culprit_json "$T/resume-copy" --good good --bad bad -- ./run-test.sh
answer() { jq -c '[.failure_inducing[].id, "/", .fix[].id, "/", .auxiliary[].id]' "$1"; }
check "resume: same answer as an uninterrupted run" [ "$(answer "$T/resumed.json")" = "$(answer "$T/out.json")" ]

check "store: the changes are kept" [ "$(sqlite3 "$db" 'select count(*) from change')" -ge 4 ]
check "store: outcomes carry signatures and build errors" \
	[ "$(sqlite3 "$db" "select count(*) from outcome where signature like 'exit 1%' or excerpt like '%error:%'")" -ge 2 ]
check "store: the event log" [ "$(sqlite3 "$db" "select count(*) from event where type = 'ANALYSIS_DONE'")" -ge 1 ]

# A second run of the same inputs builds nothing and gives the same answer.
d=$T/resume-copy
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "second run: builds nothing" [ "$(jqf .builds)" = 0 ]
check "second run: same answer" [ "$(answer "$T/out.json")" = "$(answer "$T/resumed.json")" ]
culprit_json "$d" --good good --bad bad --fresh -- ./run-test.sh
check "--fresh: builds again" [ "$(jqf .builds)" -gt 0 ]
check "--fresh: same answer" [ "$(answer "$T/out.json")" = "$(answer "$T/resumed.json")" ]

# culprit report: the stored session's report, without building.
before=$(repo_state "$d")
(cd "$d" && "$CULPRIT" report --format json) > "$T/report.json" 2> "$T/err"
check "report: exit 0" [ $? = 0 ]
check "report: same answer" [ "$(answer "$T/report.json")" = "$(answer "$T/resumed.json")" ]
check "report: nothing built" [ "$(jq .builds "$T/report.json")" = 0 ]
(cd "$d" && "$CULPRIT" report) > "$T/report.txt"
check "report: text names the culprit commit" grep -q "Culprit commit: $(git -C "$d" rev-parse --short=12 bad)" "$T/report.txt"
check "report: text lists the change ids" grep -q "#$(jq -r '.fix[0].id' "$T/resumed.json")  $(jq -r '.fix[0].file' "$T/resumed.json")" "$T/report.txt"
(cd "$d" && "$CULPRIT" report --format markdown) > "$T/report.md"
check "report: markdown headings" grep -q '^## Failure-inducing changes' "$T/report.md"
check "report: markdown diff blocks" grep -q '```diff' "$T/report.md"
check "report: repository untouched" [ "$before" = "$(repo_state "$d")" ]
mkdir -p "$T/empty"
(cd "$T/empty" && git init -q . && "$CULPRIT" report) 2> "$T/err"
check "report: no session is an error" [ $? = 2 ]
check "report: one line" [ "$(wc -l < "$T/err")" = 1 ]

# -C from a subdirectory, and the command line without "--".
mkdir -p "$d/sub/dir"
(cd "$T" && "$CULPRIT" -C "$d/sub/dir" --batch --quiet --format json --good good --bad bad ./run-test.sh) > "$T/out.json"
check "-C from a subdirectory" [ "$(answer "$T/out.json")" = "$(answer "$T/resumed.json")" ]
rmdir "$d/sub/dir" "$d/sub"

"$CULPRIT" --help > "$T/help" 2>&1
check "--help: exit 0" [ $? = 0 ]
check "--help: usage" grep -q '^usage: culprit' "$T/help"
finish
