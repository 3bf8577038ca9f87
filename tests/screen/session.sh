#!/bin/sh
# A workbench you can trust in a triage session, through tmux: reopening a
# finished analysis shows it on the first screen, exports after reopening
# hold it, the emacs keymap's C-c prefix and C-s arrive (raw mode), and the
# help pane reaches every action at 80x24.
. "$TOP/tests/lib.sh"
SOCK=culprit-session-$$
. "$TOP/tests/tmux.sh"
mkdir -p "$T/config/culprit"
: > "$T/config/culprit/keymap"
open_wb() {   # open_wb DIR WIDTH HEIGHT ARGS...: the workbench in DIR
	_d=$1 _x=$2 _y=$3
	shift 3
	end_session
	tm new-session -d -s w -x "$_x" -y "$_y" \
		"cd '$_d' && env LC_ALL=C.UTF-8 HOME='$T/home' XDG_CONFIG_HOME='$T/config' '$CULPRIT' $*; echo EXITED \$?; sleep 30"
}

# Reopening a finished run: the culprit commit and the causes on the first screen.
d=$T/demo
sh "$TOP/scripts/demo-repo.sh" "$d" >/dev/null
for i in 1 2 3 4 5 6 7 8; do echo "t$i ./tests/run.sh t$i"; done > "$T/suite.list"
args="--good v1.0 --bad HEAD --build 'make -s' --suite '$T/suite.list' -- ./tests/run.sh t3"
(cd "$d" && eval "'$CULPRIT' --batch --quiet $args") > "$T/batch.txt"
culprit=$(sed -n 's/^Culprit commit: \([0-9a-f]*\).*/\1/p' "$T/batch.txt")
subject=$(git -C "$d" log -1 --format=%s "$culprit")
open_wb "$d" 120 40 "$args"
check "reopen: the culprit commit on the first screen" wait_for "culprit commit $culprit" 10
check "reopen: its subject and author in the diff pane" wait_for "commit $culprit $subject" 10
check "reopen: its author" wait_for "$(git -C "$d" log -1 --format='%an <%ae>' "$culprit"), "
check "reopen: the causes" wait_for "└─ cause 1" 10
check "reopen: the failure-inducing change" wait_for "#5.2 parse.c:13" 10
check "reopen: the status bar says it is the stored session" wait_for "done: failure-inducing changes found (stored session)"
check "reopen: nothing was built" sh -c "! tmux -L '$SOCK' capture-pane -p -t w | grep -q 'building'"
check "reopen: the hint names the keys of this state" wait_for "stored session, as left: R refines, e exports"
keys 4 z / 'fault sets \(' Enter
check "reopen: the fault sets are there" wait_for "- fault sets ("
keys z
# One id per change: the ranked line of the failure-inducing change, the
# diff, the tree and the JSON name it alike (the culprit commit's id).
(cd "$d" && "$CULPRIT" report --format json) > "$T/ids.json"
id=$(jq -r '.ranking[] | select(.file == "parse.c" and .line == 13) | .change_id' "$T/ids.json")
fid=$(jq -r '.failure_inducing[0].id' "$T/ids.json")
check "ids: the JSON ranking and answer agree" [ "${fid%%.*}" = "$id" ]
keys 3 z / 'parse\.c:13 ' Enter
check "ids: the suspiciousness pane" until_ok sh -c "tmux -L '$SOCK' capture-pane -p -t w | grep -q 'parse\.c:13 .* #$id '"
keys z 1 z / "#$id " Enter
check "ids: the diff pane" wait_for "#$id [failure-inducing]"
keys z 4 g g z
check "ids: the tree pane" wait_for "#$fid parse.c:13"
keys z
keys e
check "export after reopen: confirms" wait_for "exported the report to $d/.git/culprit/report.txt"
check "export after reopen: the culprit commit" grep -q "Culprit commit: $culprit $subject" "$d/.git/culprit/report.txt"
check "export after reopen: the causes" grep -q "cause 1" "$d/.git/culprit/report.txt"
check "export after reopen: the fault sets" grep -q "^Fault sets" "$d/.git/culprit/report.txt"
same_report() {   # all but the last line (the time taken)
	diff "$T/batch.txt" "$d/.git/culprit/report.txt" | grep '^[<>]' | grep -v 'configurations tested' | grep -v ' s in Z3$' > "$T/report.diff"
	[ ! -s "$T/report.diff" ] || { sed 's/^/  | /' "$T/report.diff"; return 1; }
}
check "export after reopen: the same report as the run's" same_report
keys e
check "export again: a new name, the first kept" wait_for "exported the report to $d/.git/culprit/report-2.txt"
mkdir -p "$T/home"
echo keep > "$T/home/x.txt"
keys : "export ~/x.txt" Enter
check ":export to an existing file asks" wait_for "$T/home/x.txt exists: overwrite it? (y/n)"
keys n
check ":export: n keeps the file" wait_for "not exported ($T/home/x.txt is kept)"
check ":export: kept" grep -qx keep "$T/home/x.txt"
keys : "export ~/y.txt" Enter
check ":export ~/FILE is in the home directory" wait_for "exported the report to $T/home/y.txt"
keys : "export /nonexistent/dir/r.txt" Enter
check ":export: a failure names the file, not a temporary one" wait_for "export failed: /nonexistent/dir/r.txt: No such file"
keys q
check "reopen: q quits" wait_for "EXITED 0"

# A failed run of another command does not hide the finished one from report.
(cd "$d" && "$CULPRIT" --batch --quiet --good v1.0 --bad HEAD -- ./nosuch.sh) > /dev/null 2>&1
(cd "$d" && "$CULPRIT" report) > "$T/after-typo.txt"
check "report after a failed run: still the finished analysis" grep -q "Culprit commit: $culprit" "$T/after-typo.txt"

# The emacs keymap: C-c is a prefix, C-s searches; nothing stops or freezes.
d=$(fixture interact)
open_wb "$d" 80 24 --keys emacs --good good --bad bad -- ./run-test.sh
check "emacs: the hint names emacs keys" wait_for "culprit: <F5> steps, <C-c> <C-r> runs to the end"
keys C-c
check "emacs: C-c waits for the next key" wait_for "<C-c>-"
keys C-s
check "emacs: C-c C-s steps" wait_for "1 config" 20
check "emacs: and the program keeps running" sh -c "! tmux -L '$SOCK' capture-pane -p -t w | grep -q EXITED"
keys C-c C-g
check "emacs: C-g cancels a prefix" wait_for "the key sequence was cancelled"
keys C-s
check "emacs: C-s opens the search" until_ok sh -c "tmux -L '$SOCK' capture-pane -p -t w | tail -1 | grep -q '^/'"
keys 'b\.c' Enter
check "emacs: the screen is not frozen after C-s" wait_for '/b\.c'
keys C-c C-r
check "emacs: C-c C-r runs to the end" wait_for "| done: failure-inducing" 60
check "emacs: still running" sh -c "! tmux -L '$SOCK' capture-pane -p -t w | grep -q EXITED"

# Horizontal scroll: a search match beyond the pane's edge comes into view.
keys M-'<'
check "hscroll: the match is beyond the edge at first" until_ok sh -c "! tmux -L '$SOCK' capture-pane -p -t w | grep -q 'unused_a(void)'"
keys C-s '@@ int unused_a' Enter   # the hunk header's, not a context line's
check "hscroll: the search scrolls to it" wait_for "unused_a(void)"
check "hscroll: the title says how far" sh -c "tmux -L '$SOCK' capture-pane -p -t w | head -1 | grep -q ' <[0-9]* '"
keys C-x '<' C-x '<' C-x '<' C-x '<' C-x '<' C-x '<'
check "hscroll: and back" wait_for "commit "

# Help at 80x24: it scrolls and filters; every action can be reached.
keys '?'
check "help: a pane" wait_for "keys of the diff pane (and everywhere)"
: > "$T/help-seen"
i=0
page=$(screen)
printf '%s\n' "$page" >> "$T/help-seen"
while [ $i -lt 6 ]; do
	# Space pages down; the next page is read once it is drawn (the last one does not change).
	keys Space
	j=0
	while [ $j -lt 50 ] && [ "$(screen)" = "$page" ]; do sleep 0.1; j=$((j + 1)); done
	[ "$(screen)" = "$page" ] && break
	page=$(screen)
	printf '%s\n' "$page" >> "$T/help-seen"
	i=$((i + 1))
done
missing=
for a in $("$CULPRIT" --keys emacs --dump-keymap | awk '{print $NF}' | sort -u); do
	grep -q " $a " "$T/help-seen" || missing="$missing $a"
done
check "help: scrolling reaches every bound action$missing" [ -z "$missing" ]
keys /
keys refine
check "help: / filters" wait_for "filter: refine_"
check "help: the filtered line" wait_for "<C-c> <C-f>        refine"
check "help: only matching lines" sh -c "! tmux -L '$SOCK' capture-pane -p -t w | grep -q 'move-down'"
keys Escape q
check "help: closes" wait_for "1 diff"
keys C-x C-c
check "emacs: C-x C-c quits" wait_for "EXITED 0"
finish
