#!/bin/sh
# The workbench driven through tmux (private socket, fixed size): what a
# person sees, in a UTF-8 and in a C locale.
. "$TOP/tests/lib.sh"
SOCK=culprit-test-$$
. "$TOP/tests/tmux.sh"
start() {   # start LOCALE SIZE-X SIZE-Y EXTRA-ENV...
	loc=$1 cx=$2 cy=$3
	shift 3
	end_session
	tm new-session -d -s w -x "$cx" -y "$cy" \
		"cd '$d' && env LC_ALL=$loc XDG_CONFIG_HOME='$T/config' $* '$CULPRIT' --good good --bad bad -- ./run-test.sh; echo EXITED \$?; sleep 30"
}

for loc in C.UTF-8 C; do
	d=$(fixture interact)
	mkdir -p "$T/config/culprit"
	: > "$T/config/culprit/keymap"
	if [ $loc = C ]; then bar='+-'; else bar='┌─'; fi

	start $loc 120 40
	check "$loc: the four panes" wait_for "$bar 4 causal tree"
	s=$(screen)
	check "$loc: diff pane" sh -c "printf '%s' \"\$1\" | grep -qF -- '$bar 1 diff *'" x "$s"
	check "$loc: trace and suspiciousness panes" sh -c "printf '%s' \"\$1\" | grep -q '2 trace' && printf '%s' \"\$1\" | grep -q '3 suspiciousness'" x "$s"
	check "$loc: the suspiciousness pane says what it needs" wait_for "no test suite given: --suite FILE"
	check "$loc: the status bar shows the keys" wait_for "s step r run"

	keys s
	check "$loc: a step tests one configuration" wait_for "| 1 config"
	check "$loc: then it pauses" wait_for "| paused"
	i=0
	while [ $i -lt 120 ] && ! screen | grep -q '\[reverted\]\|\[applied\]'; do keys s; sleep 0.5; i=$((i + 1)); done
	check "$loc: stepping into the changes marks them in the diff" sh -c "tmux -L '$SOCK' capture-pane -p -t w | grep -q '\[reverted\]\|\[applied\]'"
	keys r
	check "$loc: run to the end" wait_for "done: failure-inducing changes found" 60
	check "$loc: the tree shows the failure-inducing changes" wait_for "- failure-inducing (2)"
	check "$loc: and the other fix" wait_for "another fix: reverting #3 alone passes too"
	check "$loc: the diff marks them" wait_for "#1 [interacting]"
	check "$loc: and where they meet" wait_for "interaction location main.c:7 with #3"

	keys 4 j j j j Enter
	check "$loc: Enter on a change shows its last configuration" wait_for "bad without 1"
	keys Tab
	check "$loc: Tab moves the focus" wait_for "1 diff *"
	keys 4
	check "$loc: 4 focuses the tree" wait_for "4 causal tree *"
	keys z
	check "$loc: zoom shows one pane" until_ok sh -c "! tmux -L '$SOCK' capture-pane -p -t w | grep -q '1 diff'"
	keys z
	check "$loc: and back" wait_for "1 diff"
	keys L
	check "$loc: the stacked layout" wait_for "3 suspiciousness"
	keys L

	keys 1 g g
	check "$loc: the last diff line is below the pane" until_ok sh -c "! tmux -L '$SOCK' capture-pane -p -t w | grep -q 'in units'"
	keys 1 G
	check "$loc: G scrolls to the last line" wait_for "the budget, in units"
	keys / 'b\.c' Enter
	check "$loc: search" wait_for '/b\.c'
	keys / '(' Enter
	check "$loc: a bad pattern is shown inline" wait_for "search: missing closing parenthesis at offset 1"
	keys : "export $T/report-$loc.txt" Enter
	check "$loc: export confirms" wait_for "exported the report to $T/report-$loc.txt"
	check "$loc: the exported report" grep -q "Culprit commit: $(git -C "$d" rev-parse --short=12 culprit)" "$T/report-$loc.txt"
	keys : "format json" Enter
	check "$loc: :format" wait_for "export format: json"
	keys e
	check "$loc: e after :format json writes report.json" wait_for "$d/.git/culprit/report.json"
	check "$loc: a JSON report" sh -c "jq -e .changes '$d/.git/culprit/report.json' >/dev/null"
	keys : "set timeout 30" Enter
	check "$loc: :set timeout" wait_for "test timeout: 30 s"
	keys '?'
	check "$loc: ? shows the live bindings" wait_for "step           build and test one configuration"
	keys q

	tm resize-window -t w -x 80 -y 24
	check "$loc: 80x24 keeps every pane" wait_for "4 causal tree"
	tm resize-window -t w -x 60 -y 20
	check "$loc: too small says so, in a message that fits" wait_for "culprit needs 80x24 (this is 60x20)"
	tm resize-window -t w -x 100 -y 20
	check "$loc: too small: the whole message where it fits" \
		wait_for "culprit needs a terminal of at least 80x24 (this one is 100x20; q quits)"
	tm resize-window -t w -x 120 -y 40
	check "$loc: and recovers" wait_for "1 diff"

	keys 4 q
	check "$loc: q quits" wait_for "EXITED 0"
	start $loc 120 40
	check "$loc: restart resumes on the same pane" wait_for "4 causal tree *"
	keys r
	check "$loc: resumed without building again" wait_for "done: failure-inducing changes found" 20
	keys v Tab Tab Tab Tab
	check "$loc: the log lists the events" wait_for "SESSION_RESUMED"
	check "$loc: nothing was built again" sh -c "! tmux -L '$SOCK' capture-pane -p -t w | grep -q CONFIG_TESTED"
	keys q
	wait_for "EXITED" >/dev/null

	# A user keymap: a rebinding of step works, a bad line is reported with its line.
	printf 'bind generic x step\nbind generic y no-such-action\n' > "$T/config/culprit/keymap"
	d=$(fixture interact)
	start $loc 120 40
	check "$loc: a bad keymap line names its line" wait_for "keymap:2: unknown action 'no-such-action'"
	keys x
	check "$loc: the rebound step works" wait_for "| 1 config"
	keys q
	wait_for "EXITED" >/dev/null
done

# The demo repository.
d=$T/demo
sh "$TOP/scripts/demo-repo.sh" "$d" >/dev/null
end_session
tm new-session -d -s w -x 120 -y 40 "cd '$d' && env LC_ALL=C.UTF-8 XDG_CONFIG_HOME='$T/config' '$CULPRIT' --good v1.0 --bad HEAD --build 'make -s' -- ./tests/run.sh t3; echo EXITED \$?; sleep 30"
check "demo: the four panes and the status bar" wait_for "s step r run"
check "demo: the diff of good..bad" wait_for "calc.h"
keys r
check "demo: the failure-inducing piece in the tree" wait_for "#5.2 parse.c:13" 60
check "demo: the causal tree grows in its pane" wait_for "why it fails" 60
keys 4 z
check "demo: the failure, with the good revision's output" \
	wait_for 'main.c:18 printf("%ld\n", v); printed "20\n", the good revision printed "14\n"' 60
check "demo: a cause through a critical predicate" wait_for "← parse.c:58 while (prec(l->tok) >= min" 60
# The root cause may be below the pane's edge: searched for until it is there.
i=0
while [ $i -lt 60 ] && ! screen | grep -qF "root cause: #5"; do keys / 'root cause: ' Enter; sleep 1; i=$((i + 1)); done
check "demo: the root cause" wait_for "root cause: #5 (reverting it passes)"
keys z 1 z / '#5 \[' Enter
check "demo: the diff marks changes in causes" wait_for "#5 [failure-inducing] [root, cause"
keys z 2 z
check "demo: the trace pane opens on the failure" wait_for "main         main.c:18  printf(\"%ld\\n\", v);"
check "demo: statements with their values" wait_for "apply        parse.c:43  case T_STAR: return a * b;    returned 20"
keys z 4 /
sleep 0.3
keys "returned 1" Enter
sleep 0.3
keys Enter 2 z
check "demo: a tree node opens its events in the trace" wait_for "prec         parse.c:13  return 1;    returned 1"
keys : "func atom" Enter
check "demo: :func shows one function" wait_for "atom         parse.c:33  long v = l->num;    v = 4"
check "demo: only its statements" sh -c "sleep 0.3; ! tmux -L '$SOCK' capture-pane -p -t w | grep -q 'climb        parse.c'"
keys q

# Stepping through the explainer: one round a key, stop keeps what is there.
d=$(fixture sem_paper)
end_session
tm new-session -d -s w -x 120 -y 40 "cd '$d' && env LC_ALL=C.UTF-8 XDG_CONFIG_HOME='$T/config' '$CULPRIT' --good good --bad bad -- ./run-test.sh; echo EXITED \$?; sleep 30"
wait_for "s step r run" >/dev/null
# One s at a time, each when the last has been taken (a step pressed while
# one runs is kept as a credit, and would step past the rounds below).
status() { screen | tail -2 | head -1; }
i=0
while [ $i -lt 120 ] && ! status | grep -q "explaining.* | paused"; do
	before=$(status)
	if printf '%s' "$before" | grep -q "| paused\|| ready"; then
		keys s
		j=0
		while [ $j -lt 100 ] && [ "$(status)" = "$before" ]; do sleep 0.1; j=$((j + 1)); done
	fi
	sleep 0.3
	i=$((i + 1))
done
check "explainer: stepping reaches it" wait_for "explaining"
keys 4 z s
check "explainer: the failing run is traced in a step" wait_for "failure: main.c:15 assert(r < 7); failed"
check "explainer: then it pauses before a semantic round" wait_for ": semantic round"   # "paused, next:" or, narrower, "paused:"
keys s
check "explainer: one semantic round, one cause" wait_for "cause 1"
check "explainer: a dynamic round next" wait_for ": dynamic round"
check "explainer: not the next one yet" sh -c "! tmux -L '$SOCK' capture-pane -p -t w | grep -q 'cause 2'"
keys S
check "explainer: stop keeps the partial tree" wait_for "stopped: the tree is partial"
check "explainer: the analysis ends" wait_for "| done"
keys q

# Cancel kills the running build; stop keeps the best answer so far.
d=$(fixture interact)
end_session
tm new-session -d -s w -x 120 -y 40 "cd '$d' && env LC_ALL=C.UTF-8 XDG_CONFIG_HOME='$T/config' '$CULPRIT' --good good --bad bad --build 'sleep 60; make -s' -- ./run-test.sh; echo EXITED \$?; sleep 30"
keys s
check "cancel: the build runs, the screen stays live" wait_for "building: sleep 60"
keys c
check "cancel: the analysis stops" wait_for "the analysis was cancelled before it finished"
check "cancel: the build is killed" until_ok sh -c "[ -z \"\$(for p in /proc/[0-9]*; do readlink \$p/cwd; done 2>/dev/null | grep '$d/.git/culprit')\" ]"
keys q
wait_for "EXITED" >/dev/null
d=$(fixture interact)
end_session
tm new-session -d -s w -x 120 -y 40 "cd '$d' && env LC_ALL=C.UTF-8 XDG_CONFIG_HOME='$T/config' '$CULPRIT' --good good --bad bad -- ./run-test.sh; echo EXITED \$?; sleep 30"
i=0
# One step at a time: a step is given only when the last one has paused,
# so no step is left over to run the search past the stop.
while [ $i -lt 150 ] && ! screen | grep -q 'minimizing failure-inducing'; do
	screen | grep -Eq '\| (ready|paused)' && keys s
	sleep 0.4
	i=$((i + 1))
done
keys S
wait_for "| done" >/dev/null
keys 4 z
check "stop: keeps the best answer so far" wait_for "the search was stopped"
check "stop: the tree shows it" wait_for "- failure-inducing ("
keys z q
wait_for "EXITED" >/dev/null

# The suspiciousness pane.
d=$(fixture different_failure)
printf 'runs ./prog\nsurvives sh -c "./prog; true"\n' > "$T/suite.list"
end_session
tm new-session -d -s w -x 120 -y 40 "cd '$d' && env LC_ALL=C.UTF-8 XDG_CONFIG_HOME='$T/config' '$CULPRIT' --good good --bad bad --suite '$T/suite.list' -- ./run-test.sh; echo EXITED \$?; sleep 30"
keys r
check "rank pane: the ranking" wait_for "ochiai: 2 failing, 1 passing tests" 60
check "rank pane: a line of a change" wait_for "stats.c:3 "
check "rank pane: the changes show their score" wait_for "(score "
wait_for "| done" 60 >/dev/null   # (the ranking changes once the analysis is done)
keys 3 f
check "rank pane: the next formula" wait_for "dstar: 2 failing"
keys C
check "rank pane: changed lines only" wait_for "ranking: dstar, changed lines only"
keys / 'stats\.c:3 ' Enter Enter
check "rank pane: jump to the change in the diff" wait_for "1 diff *"
keys q

# Refinement: the proposal dialog (reject, approve), then stop.
d=$(fixture refine_two)
end_session
tm new-session -d -s w -x 120 -y 40 "cd '$d' && env LC_ALL=C.UTF-8 XDG_CONFIG_HOME='$T/config' '$CULPRIT' --good good --bad bad -- ./run-test.sh; echo EXITED \$?; sleep 30"
wait_for "s step r run" >/dev/null
check "refine: the suspiciousness pane points to it" wait_for "no test suite given: --suite FILE, or R (refine)"
keys R
check "refine: not before the analysis" wait_for "refinement comes after the analysis"
keys r
check "refine: the analysis runs first" wait_for "done: failure-inducing changes found" 60
check "refine: the status bar offers it when the analysis is done" wait_for "R refine ? help"
keys 4 z
check "faults: the fault sets in the tree pane" wait_for "- fault sets ("
check "faults: a set with its clause" wait_for "main.c:11  y = y - 1;  (y = 39)"
keys z
keys R
check "refine: a proposal in a dialog" wait_for "Proposed test gen1" 60
check "refine: its input" wait_for "input:   ./prog "
check "refine: its verdict from the good revision" wait_for "verdict: passing: both revisions behave the same"
check "refine: the suspect statements it covers" wait_for "covers 11 suspect statements: main.c:5"
check "refine: the suite line it becomes" wait_for "suite:   gen1 "
check "refine: both revisions' output" wait_for "good revision printed"
check "refine: the answers" wait_for "a approve: add it to the suite and rank again"
keys '%'
check "refine: other keys are refused while it waits" wait_for "a approve, r reject, s stop refinement; the panes"
keys j
check "refine: the panes stay browsable: a moving key folds the dialog to a line" \
	wait_for "Proposed test gen1 waits: a approve, r reject, s stop, Enter shows it"
check "refine: folded, the panes are in view" sh -c "! tmux -L '$SOCK' capture-pane -p -t w | grep -q 'a approve: add it to the suite'"
keys Enter
check "refine: Enter shows the dialog again" wait_for "a approve: add it to the suite and rank again"
keys j
check "refine: folded again" wait_for "Proposed test gen1 waits"
keys a
check "refine: approve ranks again" wait_for "approved gen1" 60
check "refine: what it was doing is not left on the screen" sh -c "! tmux -L '$SOCK' capture-pane -p -t w | grep -q 'refinement: ranking again'"
check "refine: then the next proposal" wait_for "Proposed test gen2" 60
check "refine: a failing input of the same fault" wait_for "verdict: failing: assertion failed at main.c:23"
first=$(screen | grep -o 'input:   ./prog [0-9-]*' | head -1)
keys r
check "refine: then a failing input on the failing run's lines (for its outcome)" wait_for "Proposed test gen3" 60
keys r
check "refine: nothing more to propose: no other input only repeating earlier lines after that rejection" \
	wait_for "refinement: no new input"
check "refine: the ranking counts it" wait_for "ochiai: 1 failing, 1 passing tests"
check "refine: the pane shows how lines moved" wait_for "rank before->after"
check "refine: the rejected input is not proposed again" sh -c "! tmux -L '$SOCK' capture-pane -p -t w | grep -qF -- '$first'"
keys : "tests $T/from-screen.list" Enter
check "refine: :tests writes the approved tests" wait_for "wrote 1 approved test to $T/from-screen.list"
keys q
wait_for "EXITED" >/dev/null
(cd "$d" && "$CULPRIT" tests) > "$T/tests.list"
check "refine: the approved test is stored, the rejected one not" \
	sh -c "[ \$(grep -c '^gen' '$T/tests.list') = 1 ] && grep -q '^gen1 ' '$T/tests.list'"
check "refine: :tests wrote the same suite" cmp -s "$T/tests.list" "$T/from-screen.list"
d=$(fixture refine_rank)
end_session
tm new-session -d -s w -x 120 -y 40 "cd '$d' && env LC_ALL=C.UTF-8 XDG_CONFIG_HOME='$T/config' '$CULPRIT' --good good --bad bad --suite tests.list -- ./run-test.sh; echo EXITED \$?; sleep 30"
wait_for "s step r run" >/dev/null
keys r
wait_for "done: failure-inducing changes found" 60 >/dev/null
keys R
check "refine stop: a proposal" wait_for "Proposed test gen1" 60
keys Escape
check "refine stop: the dialog closes" wait_for "refinement stopped: the result stands"
check "refine stop: the ranking stays as it was" wait_for "ochiai: 1 failing, 0 passing tests"
check "refine stop: no dialog" sh -c "! tmux -L '$SOCK' capture-pane -p -t w | grep -q 'Proposed test'"
check "refine stop: the status bar no longer says a test is proposed" \
	sh -c "sleep 0.3; ! tmux -L '$SOCK' capture-pane -p -t w | grep -q 'gen1 proposed'"
check "refine stop: it says refinement stopped" wait_for "| refinement stopped"
keys : "tests" Enter
check "refine stop: :tests with nothing approved says so" wait_for "no approved tests yet"
keys q
wait_for "EXITED" >/dev/null
(cd "$d" && "$CULPRIT" report) > "$T/report.txt"
check "refine stop: the report keeps the result" grep -q '1 failing and 0 passing tests' "$T/report.txt"

# Monochrome and old terminals.
d=$(fixture interact)
: > "$T/config/culprit/keymap"
start C.UTF-8 80 24 TERM=vt100 NO_COLOR=1
check "vt100 without colour: the panes" wait_for "4 causal tree"
keys r
check "vt100 without colour: runs to the end" wait_for "failure-inducing (2)" 60
keys q

# An unknown terminal: one line, exit 2.
d=$(fixture interact)
end_session
tm new-session -d -s w -x 120 -y 40 "cd '$d' && TERM=no-such-terminal '$CULPRIT' --good good --bad bad -- ./run-test.sh; echo EXITED \$?; sleep 30"
check "unknown TERM: one line" wait_for "culprit: unknown terminal type 'no-such-terminal'"
check "unknown TERM: exit 2" wait_for "EXITED 2"
# Without a terminal: the workbench says so.
(cd "$d" && "$CULPRIT" --good good --bad bad -- ./run-test.sh) > "$T/out" 2> "$T/err" < /dev/null
check "no terminal: exit 2" [ $? = 2 ]
check "no terminal: one line" grep -q "^culprit: the workbench needs a terminal; use --batch" "$T/err"

# One run per repository: the workbench waits for a batch run holding it.
d=$(fixture interact)
slow="touch '$T/lock-started'; while [ ! -e '$T/lock-go' ]; do sleep 0.05; done; ./run-test.sh"
"$CULPRIT" -C "$d" --batch --quiet --good good --bad bad -- "$slow" > /dev/null 2>&1 &
holder=$!
until_ok [ -e "$T/lock-started" ]
end_session
tm new-session -d -s w -x 120 -y 40 "cd '$d' && env LC_ALL=C.UTF-8 XDG_CONFIG_HOME='$T/config' '$CULPRIT' --good good --bad bad -- ./run-test.sh; echo EXITED \$?; sleep 30"
# (-J: the line is longer than the terminal is wide)
check "lock: the workbench says in one line what it waits for" until_ok sh -c \
	"tmux -L '$SOCK' capture-pane -p -J -t w | grep -q '^culprit: another culprit run (pid $holder) is using this repository (.*); waiting for it to finish\$'"
check "lock: it does not open meanwhile" sh -c "! tmux -L '$SOCK' capture-pane -p -t w | grep -q 's step r run'"
touch "$T/lock-go"
check "lock: it opens when the other run ends" wait_for "s step r run" 60
wait $holder
check "lock: the other run was undisturbed" [ $? = 0 ]
keys q
wait_for "EXITED" >/dev/null
finish
