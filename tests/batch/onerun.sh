#!/bin/sh
# One run per repository, and outcomes trusted only from a worktree that
# holds their configuration.
. "$TOP/tests/lib.sh"
set +e
d=$(fixture badinput)
r=$d/simple

# A first run waits inside its tests until told to go; a second is refused
# in one line while the first holds the repository.
slow="touch '$T/started'; while [ ! -e '$T/go' ]; do sleep 0.05; done; ./run-test.sh"
(cd "$r" && "$CULPRIT" --batch --format json --quiet --good good --bad bad -- "$slow" > "$T/first.json" 2> "$T/first.err"; echo $? > "$T/first.rc") &
first=$!
i=0
while [ ! -e "$T/started" ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
culprit_json "$r" --good good --bad bad -- "$slow"
check "second run: refused with exit 2" [ "$RC" = 2 ]
check "second run: one line naming the other run" sh -c "[ \$(wc -l < '$T/err') = 1 ] && grep -q 'another culprit run (pid [0-9]*) is using this repository' '$T/err'"
(cd "$r" && "$CULPRIT" report > /dev/null 2> "$T/report.err")
check "report reads without the lock" sh -c "! grep -q 'another culprit run' '$T/report.err'"
touch "$T/go"
wait $first
check "first run: undisturbed (exit 0)" [ "$(cat "$T/first.rc")" = 0 ]
culprit_json "$r" --good good --bad bad -- "$slow"
check "plain rerun: exit 0" [ "$RC" = 0 ]
check "plain rerun: the same answer" [ "$(jqf .failure_inducing)" = "$(jq -r .failure_inducing "$T/first.json")" ]
check "plain rerun: nothing tested again" [ "$(jqf .configurations_built_this_run)" = 0 ]

# Something writes into the worktree while a configuration is tested (here
# the test itself, once): the outcome is not stored as it was; the
# configuration is tested again.
once="./run-test.sh; s=\$?; [ -e '$T/once' ] || { touch '$T/once'; echo '/* changed */' >> main.c; }; exit \$s"
(cd "$r" && "$CULPRIT" --batch --fresh --format json --good good --bad bad -- "$once" > "$T/out.json" 2> "$T/err")
RC=$?
check "disturbed worktree: explained (exit 0)" [ "$RC" = 0 ]
check "disturbed worktree: tested again" grep -q 'main.c changed in the worktree while it was built and tested: tested again' "$T/err"
check "disturbed worktree: the answer" [ "$(jqf '.failure_inducing[0].added[0]')" = '	printf("%d\n", 2 + 3);' ]

# A stored premise that fails (the test failed at the good revision for a
# reason now gone) is tested again, not trusted on every rerun.
poison="[ ! -e '$T/poison' ] && ./run-test.sh"
touch "$T/poison"
culprit_json "$r" --fresh --good good --bad bad -- "$poison"
check "poisoned premise: refused" sh -c "[ $RC = 2 ] && grep -q 'fails at the good revision' '$T/err'"
rm -f "$T/poison"
culprit_json "$r" --good good --bad bad -- "$poison"
check "stored failing premise: tested again, explained" [ "$RC" = 0 ]
finish
