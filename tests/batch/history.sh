#!/bin/sh
# Commit bisection over 20+ first-parent commits with unbuildable ones.
. "$TOP/tests/lib.sh"
d=$(fixture history)
n=$(git -C "$d" rev-list --count good..bad)
check "history: at least 20 commits (the merged branch too)" [ "$n" -ge 20 ]
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "history: exit 0" [ "$RC" = 0 ]
check "history: the culprit commit" [ "$(jqf .culprit_commit)" = "$(git -C "$d" rev-parse culprit)" ]
check "history: commits counted" [ "$(jqf .commits)" = "$n" ]
check "history: far fewer commits tested than there are" [ "$(jqf .commits_tested)" -le 8 ]
check "history: the loop bound hunk" [ "$(jqf '.failure_inducing[0].added[0]')" = "	for (int i = 0; i < n - 1; i++)" ]
check "history: each change names the commit" [ "$(jqf '.failure_inducing[0].commit')" = "$(git -C "$d" rev-parse culprit)" ]
# good on another branch than bad: no bisection, no culprit commit.
. "$TOP/tests/fixtures/lib.sh"
set +e
fx_init "$T/apart"
printf 'x\n' > f.txt
printf '#!/bin/sh\ngrep -q x f.txt\n' > t.sh
chmod +x t.sh
fx_commit base
git checkout -q -b side
printf 'y\n' > f.txt
fx_commit "side" bad
git checkout -q main
printf 'x\nz\n' > f.txt
fx_commit "main" good
cd "$T"
culprit_json "$T/apart" --good good --bad bad --build true -- ./t.sh
check "unrelated revisions: exit 0" [ "$RC" = 0 ]
check "unrelated revisions: no culprit commit" [ "$(jqf .culprit_commit)" = null ]
check "unrelated revisions: the change between the trees" [ "$(jqf '.failure_inducing[0].added[0]')" = y ]
# A later commit changes the failure's message: the commits between the
# culprit and it fail otherwise than the bad revision. Bisection takes them
# as failing, as git bisect does, names the culprit, and searches its
# changes for its own failure.
d=$(fixture renamed_failure)
want=$(git -C "$d" rev-parse culprit)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "renamed failure: the culprit commit, not a range" [ "$(jqf .culprit_commit)" = "$want" ]
check "renamed failure: the culprit's own failure" [ "$(jqf .culprit_signature)" = 'exit 1; output ends "check_total: got 6, want 10"' ]
check "renamed failure: the loop bound alone is failure-inducing" \
	[ "$(jqf '[.failure_inducing[].added[]] | join("|")')" = '	for (int i = 0; i < n - 1; i++)' ]
(cd "$d" && "$CULPRIT" report) > "$T/report.txt" 2>&1
check "renamed failure: the report says it fails otherwise" grep -q '^  It fails otherwise than the bad revision, with exit 1; output ends "check_total' "$T/report.txt"
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "renamed failure: a second run builds nothing" [ "$(jqf .configurations_built_this_run)" = 0 ]
check "renamed failure: and gives the same answer" [ "$(jqf .culprit_commit)" = "$want" ]
culprit_json "$d" --good good --bad bad --no-semantic --first-parent --fresh -- ./run-test.sh
check "renamed failure: --first-parent names it too" [ "$(jqf .culprit_commit)" = "$want" ]

finish
