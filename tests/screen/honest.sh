#!/bin/sh
# The tree pane when the revert search found the root but no cause forces
# the failure: the root and the one-line reason there is no semantic
# explanation, both.
. "$TOP/tests/lib.sh"
SOCK=culprit-honest-$$
. "$TOP/tests/tmux.sh"
mkdir -p "$T/config/culprit"
: > "$T/config/culprit/keymap"

d=$(fixture sem_rootonly)
tm new-session -d -s w -x 160 -y 40 "cd '$d' && env LC_ALL=C.UTF-8 XDG_CONFIG_HOME='$T/config' '$CULPRIT' --good good --bad bad -- ./run-test.sh; echo EXITED \$?; sleep 30"
check "rootonly: the workbench starts" wait_for "s step r run"
keys r
check "rootonly: the tree pane explains" wait_for "why it fails" 60
keys 4 z
check "rootonly: the root cause, found by reverting" wait_for "root cause: #1 (reverting it passes)" 60
check "rootonly: and the line that there is no semantic explanation" \
	wait_for "no semantic explanation: the trace does not force the failure here" 60
keys q
finish
