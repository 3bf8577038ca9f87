#!/bin/sh
# Reading a change and a trace as a C developer reads them, through tmux:
# hunks between their context lines (o toggles), a changed line in the tree
# as its - and + pair with the culprit commit's subject, the trace pane with
# call depth, chars as '4', enums by name, each value annotated and rows
# repeated alike merged; C-z suspends to the shell and fg brings it back; in
# the vi keymap C-c asks before it quits.
. "$TOP/tests/lib.sh"
SOCK=culprit-reading-$$
. "$TOP/tests/tmux.sh"
mkdir -p "$T/config/culprit" "$T/home"
: > "$T/config/culprit/keymap"

d=$(fixture sem_tokens)
args="--good good --bad bad -- ./run-test.sh"
(cd "$d" && eval "'$CULPRIT' --batch --quiet $args") > "$T/batch.txt"
check "the fixture is explained" grep -q "root cause: change #1" "$T/batch.txt"

# An interactive shell with job control, so that C-z can stop culprit.
tm new-session -d -s w -x 120 -y 40 "env -i PATH='$PATH' TERM=screen HOME='$T/home' PS1='sh\$ ' bash --norc --noprofile -i"
sleep 0.5
keys "cd '$d' && env LC_ALL=C.UTF-8 XDG_CONFIG_HOME='$T/config' '$CULPRIT' $args; echo EXITED \$?" Enter
check "the stored session opens" wait_for "stored session, as left" 15

# The diff pane: the hunk between its context lines; o hides them, o shows them again.
check "diff: the line before the change as context" wait_for "     static enum tok classify(char c)"
check "diff: the removed line" wait_for "    -    if (c >= '0' && c <= '9')"
check "diff: the line after it as context" wait_for "             return T_NUM;"
keys o
check "diff: o leaves the changed lines only" gone "     static enum tok classify(char c)"
check "diff: o says so" wait_for "diff: changed lines only"
keys o
check "diff: o brings the context back" wait_for "     static enum tok classify(char c)"

# The tree: the culprit commit's subject, a changed line as its - and + pair.
check "tree: the culprit commit's subject" wait_for "Digits below nine"
check "tree: the old line" wait_for "        -    if (c >= '0' && c <= '9')"
check "tree: the new line" wait_for "        +    if (c >= '0' && c < '9')"

# The trace pane, zoomed, from its first line.
keys 2 z g g
check "trace: a char as C writes it" wait_for "char c = s[i];    c = '4'"
check "trace: an enum by its constant's name" wait_for "enum tok t = classify(c);    t = T_NUM"
check "trace: a return of an enum by name" wait_for "return T_PLUS;    returned T_PLUS"
check "trace: a branch says what it is" wait_for "if (t == T_NUM)    branch false"
check "trace: call depth as indentation" sh -c "tmux -L '$SOCK' capture-pane -p -t w | grep -q '^│    classify  *tok.c:8 '"
check "trace: main at the left" sh -c "tmux -L '$SOCK' capture-pane -p -t w | grep -q '^│main  *tok.c:31 '"
check "trace: a for loop's increment and condition on its own row" wait_for "for (int i = 0; s[i]; i++) {    i = 1, branch true"
check "trace: rows repeated alike merged" wait_for "while (getchar() != EOF) {    branch true  (3 times)"
check "trace: and the last round apart" wait_for "while (getchar() != EOF) {    branch false"
# :func NAME: one function's statements, or one line saying why not.
keys : "func nosuch" Enter
check ":func: an unknown function says so" wait_for "trace: no function nosuch in the traced program"
check ":func: and the trace stays whole" wait_for "main         tok.c:31"
keys : "func classify" Enter
check ":func: a function's statements" wait_for "trace: the statements of classify"
check ":func: only its statements" sh -c "sleep 0.3; ! tmux -L '$SOCK' capture-pane -p -t w | grep -q 'eval  *tok.c'"
keys : "func" Enter z

# C-z: the shell gets the terminal back; fg redraws the workbench.
keys C-z
check "C-z: the shell's prompt" wait_for "Stopped"
keys "jobs" Enter
check "C-z: culprit is a stopped job" wait_for "culprit"
keys "fg" Enter
check "fg: the workbench is back" wait_for "back from the shell"
check "fg: redrawn" wait_for "4 causal tree"

# vi keymap: C-c asks; any key but y goes on, y quits.
keys C-c
check "C-c: asks before quitting" wait_for "quit? the session stays stored"
keys n
check "C-c then n: still running" sh -c "sleep 0.5; ! tmux -L '$SOCK' capture-pane -p -t w | grep -q 'EXITED'"
check "C-c then n: the question is gone" gone "quit? the session stays stored"
keys C-c y
check "C-c then y: quits" wait_for "EXITED"
finish
