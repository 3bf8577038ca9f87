#!/bin/sh
# Reliability: any test output, bad option values, files that are not
# regular, control characters in what is echoed.
. "$TOP/tests/lib.sh"
d=$(fixture badinput)

# one_line_exit2 NAME: the last culprit_json ended with exit 2 and one "culprit: " line.
one_line_exit2() {
	if [ "$RC" = 2 ] && [ "$(wc -l < "$T/err")" = 1 ] && grep -q '^culprit: ' "$T/err"; then
		ok "$1"
	else
		fail "$1" "exit $RC, stderr: $(cat "$T/err")"
	fi
}

# A failing test whose last 4 KB of output hold no newline.
culprit_json "$d/simple" --good good --bad bad -- './run-test.sh || { head -c 9000 /dev/zero | tr "\0" x; exit 1; }'
check "output without a newline: explained (exit 0)" [ "$RC" = 0 ]

# Timeouts are finite positive numbers.
for v in nan inf -inf NaN 1e400 0 -3 ''; do
	culprit_json "$d/simple" --good good --bad bad --test-timeout "$v" -- ./run-test.sh
	one_line_exit2 "--test-timeout '$v' refused"
	culprit_json "$d/simple" --good good --bad bad --build-timeout "$v" -- ./run-test.sh
	one_line_exit2 "--build-timeout '$v' refused"
done
culprit_json "$d/simple" --good good --bad bad --test-timeout 0.5e1 --build-timeout 30 -- ./run-test.sh
check "finite timeouts accepted" [ "$RC" = 0 ]

# --test-memory: every build and test gets the address-space limit.
culprit_json "$d/simple" --fresh --good good --bad bad --test-memory 1024 -- \
	'[ "$(ulimit -v)" = 1048576 ] || exit 125; ./run-test.sh'
check "--test-memory: the tests run under the limit" [ "$RC" = 0 ]
culprit_json "$d/simple" --fresh --good good --bad bad --test-memory 1024 --build \
	'[ "$(ulimit -v)" = 1048576 ] && make' -- ./run-test.sh
check "--test-memory: the builds run under the limit" [ "$RC" = 0 ]
culprit_json "$d/simple" --good good --bad bad --test-memory 8 -- ./run-test.sh
one_line_exit2 "--test-memory below 16 refused"

# A test's descendant that leaves the group (setsid) and ignores TERM does
# not outlive the run.
culprit_json "$d/simple" --fresh --good good --bad bad -- \
	"setsid sh -c 'trap \"\" TERM; echo \$\$ >> \"$T/escaped\"; exec sleep 300' & ./run-test.sh"
check "setsid descendants: the run ends (exit 0)" [ "$RC" = 0 ]
check "setsid descendants: some were started" [ -s "$T/escaped" ]
left=0
for p in $(cat "$T/escaped"); do
	if [ -d "/proc/$p" ] && ! grep -q '^State:.*Z' "/proc/$p/status" 2>/dev/null; then
		left=$((left + 1))
		kill -9 "$p" 2>/dev/null
	fi
done
check "setsid descendants: none survive the run" [ "$left" = 0 ]

# A second signal ends the run at once, by that signal, where the first
# waits for a step to end (here the grace a test that ignores TERM gets
# before KILL); the test's processes do not outlive it.
rm -f "$T/started" "$T/termed" "$T/pids"
(cd "$d/simple" && exec "$CULPRIT" --batch --quiet --fresh --good good --bad bad --no-semantic -- \
	"echo \$\$ >> '$T/pids'; trap 'touch \"$T/termed\"' TERM; touch '$T/started'; while :; do sleep 0.1; done") \
	> /dev/null 2>&1 &
cpid=$!
i=0
while [ ! -e "$T/started" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $cpid
i=0   # culprit has passed the first on to the test: it now waits for it
while [ ! -e "$T/termed" ] && [ $i -lt 600 ]; do sleep 0.02; i=$((i + 1)); done
kill -TERM $cpid
{ wait $cpid; } 2>/dev/null
st=$?
check "two signals: the run ends by the second (status 143)" [ "$st" = 143 ]
left=0
for p in $(cat "$T/pids"); do
	i=0
	while [ -d "/proc/$p" ] && ! grep -q '^State:.*Z' "/proc/$p/status" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	if [ -d "/proc/$p" ] && ! grep -q '^State:.*Z' "/proc/$p/status" 2>/dev/null; then
		left=$((left + 1))
		kill -9 "$p" 2>/dev/null
	fi
done
check "two signals: the test's processes do not outlive the run" [ "$left" = 0 ]

# --suite is read before anything is built.
culprit_json "$d/simple" --fresh --good good --bad bad --build "touch '$T/built'; make" --suite "$T/no-such-suite" -- ./run-test.sh
one_line_exit2 "--suite missing: refused"
check "--suite missing: nothing built" [ ! -e "$T/built" ]
mkfifo "$T/suite-fifo"
(cd "$d/simple" && timeout 60 "$CULPRIT" --batch --quiet --good good --bad bad --suite "$T/suite-fifo" -- ./run-test.sh) \
	> /dev/null 2> "$T/err"
RC=$?
one_line_exit2 "--suite a FIFO: refused"

# Control characters from arguments never reach the terminal.
esc=$(printf '\033')
culprit_json "$d/simple" --good "$(printf 'x\033]0;pwned\007\033[31m')" --bad bad -- ./run-test.sh
one_line_exit2 "revision with escapes: refused"
check "revision with escapes: none echoed" sh -c "! grep -q '$esc' '$T/err' && ! grep -q \"\$(printf '\\007')\" '$T/err'"
culprit_json "$d/simple" --good good --bad bad --format "$(printf 'x\033[2J')" -- ./run-test.sh
one_line_exit2 "option value with escapes: refused"
check "option value with escapes: none echoed" sh -c "! grep -q '$esc' '$T/err'"

# The keymap file: a FIFO is not read (nor waited for); its lines' escapes are not echoed.
mkdir -p "$T/config/culprit"
mkfifo "$T/config/culprit/keymap"
XDG_CONFIG_HOME="$T/config" timeout 20 "$CULPRIT" --dump-keymap > "$T/keys" 2> "$T/err"
rc=$?
check "keymap FIFO: --dump-keymap does not block" [ "$rc" = 0 ]
check "keymap FIFO: says it is not a regular file" grep -q 'keymap: not a regular file' "$T/err"
rm -f "$T/config/culprit/keymap"
printf 'bind generic x \033[31mred\n' > "$T/config/culprit/keymap"
XDG_CONFIG_HOME="$T/config" "$CULPRIT" --dump-keymap > "$T/keys" 2> "$T/err"
check "keymap escapes: warned" grep -q 'keymap:1:' "$T/err"
check "keymap escapes: none echoed" sh -c "! grep -q '$esc' '$T/err'"
finish
