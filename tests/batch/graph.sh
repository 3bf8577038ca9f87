#!/bin/sh
# Bisection over the commit graph: a bug made on a merged branch is named
# where git bisect names it, not on the merge; --first-parent keeps the
# first-parent walk (which can only name the merge).
. "$TOP/tests/lib.sh"
d=$(fixture merge_branch)
n=$(git -C "$d" rev-list --count good..bad)
check "graph: 13 commits" [ "$(git -C "$d" rev-list --count bad)" = 13 ]
check "graph: one merge in the range" [ "$(git -C "$d" rev-list --merges --count good..bad)" = 1 ]
# What git bisect names, in a copy.
git clone -q "$d" "$T/copy"
(cd "$T/copy" && git bisect start bad good >/dev/null && git bisect run sh -c 'make -s >/dev/null 2>&1 || exit 125; ./run-test.sh' >/dev/null 2>&1 &&
 git rev-parse refs/bisect/bad) > "$T/bisect" 2>/dev/null
check "graph: git bisect names the branch commit" [ "$(cat "$T/bisect")" = "$(git -C "$d" rev-parse culprit)" ]
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "graph: exit 0" [ "$RC" = 0 ]
check "graph: the branch commit, as git bisect" [ "$(jqf .culprit_commit)" = "$(git -C "$d" rev-parse culprit)" ]
check "graph: every commit of the range counted" [ "$(jqf .commits)" = "$n" ]
check "graph: about log2 of them tested" [ "$(jqf .commits_tested)" -le 5 ]
check "graph: the change is the branch commit's own" [ "$(jqf '.failure_inducing[0].added[0]')" = "	return v * 2 + 1;" ]
culprit_json "$d" --good good --bad bad --no-semantic --first-parent --fresh -- ./run-test.sh
check "graph: --first-parent names the merge" [ "$(jqf .culprit_commit)" = "$(git -C "$d" rev-parse merge)" ]
# Untestable commits around the culprit: a range, each change named by the
# commit that introduced its lines.
d=$(fixture untestable_range)
culprit_json "$d" --good good --bad bad --no-semantic -- ./run-test.sh
check "range: exit 0" [ "$RC" = 0 ]
check "range: no single culprit commit" [ "$(jqf .culprit_commit)" = null ]
check "range: the range is named" [ "$(jqf '.culprit_range[1]')" = "$(git -C "$d" rev-parse bad)" ]
check "range: the failure-inducing change" [ "$(jqf '.failure_inducing[0].added[0]')" = "	return 11;" ]
check "range: attributed to the commit that made it" [ "$(jqf '.failure_inducing[0].commit')" = "$(git -C "$d" rev-parse culprit)" ]
# The commits tested are the ones git bisect tests, in its order: ties in
# date order, a commit dated before its parent, a branch forked before good,
# merges, and skips (the pick away from a skipped best); with
# --first-parent, the ones git bisect --first-parent tests.
d=$(fixture bisect_order)
for c in a2 m4 M1 x1 M2 m10 b2 b5 m8 fp:M1 fp:m7 fp:m10 fp:m2; do
	fp=
	case $c in fp:*) c=${c#fp:}; fp=--first-parent ;; esac
	rm -rf "$T/git" "$T/cu"
	git clone -q "$d" "$T/git" && git clone -q "$d" "$T/cu"
	gseq=$(cd "$T/git" && git bisect start $fp bad good >/dev/null &&
		git bisect run sh -c "test ! -e broken || exit 125; test ! -e marks/$c" >/dev/null 2>&1;
		git bisect log | sed -n 's/^git bisect \(good\|bad\|skip\) \([0-9a-f]*\)$/\2/p' | cut -c1-12 | tr '\n' ' ')
	culprit_json "$T/cu" --good good --bad bad --no-semantic $fp --build 'test ! -e broken' -- sh -c "test ! -e marks/$c"
	cseq=$(sqlite3 "$T/cu/.git/culprit/session.db" \
		"select label from outcome where label like 'commit %' order by created" | cut -d' ' -f2 | tr '\n' ' ')
	check "graph order: culprit $c$fp, git bisect tested commits" [ -n "$gseq" ]
	check "graph order: culprit $c$fp, the commits git bisect tests" [ "$cseq" = "$gseq" ]
	named=$(jqf .culprit_commit)
	if [ "$named" != null ]; then
		check "graph order: culprit $c$fp, the commit git bisect names" [ "$named" = "$(git -C "$T/git" rev-parse refs/bisect/bad)" ]
	else
		check "graph order: culprit $c$fp, a range where git bisect has only skipped commits left" \
			[ "$(jqf '.culprit_range[1]')" = "$(git -C "$T/git" rev-parse refs/bisect/bad)" ]
	fi
done
finish
