#!/bin/sh
# Field benchmark: culprit against `git bisect run` on real regressions.
# usage: bench/field.sh LIST REPO...
#   LIST: one regression a line, tab-separated:
#     name  repo  good  bad  bug-commit  build-command  test-command
#   (repo: the base name of one of the REPO paths; '#' starts a comment).
#   The commands run at the top of a clone; the repositories are cloned to a
#   scratch directory and never written.
# Prints for each: right commit, builds, configurations that failed to
# build, seconds, for culprit and for git bisect run with the same commands,
# the culprit commit's changes (hunks) and the bar culprit's builds should
# meet for a single-cause commit: bisect's steps + ceil(log2 hunks) + 4.
# Each row's commands run with TMPDIR set to a scratch directory of its own.
# KEEP=DIR keeps each culprit report (NAME.json) and its progress log (NAME.err);
# CULPRIT_ARGS adds options to culprit's command (e.g. a budget,
# --max-configurations N).
set -u
[ $# -ge 2 ] || { echo "usage: $0 LIST REPO..." >&2; exit 2; }
TOP=$(cd "$(dirname "$0")/.." && pwd)
CULPRIT=${CULPRIT:-$TOP/build/culprit}
list=$1; shift
W=$(mktemp -d "${TMPDIR:-/tmp}/culprit-field.XXXXXX")
trap 'rm -rf "$W"' EXIT
repo_of() { for r in "$@"; do [ "$(basename "$r")" = "$want" ] && { echo "$r"; return; }; done; }
printf '%-18s %-8s %-6s %6s %7s %8s   %-6s %6s %7s %8s   %6s %4s\n' regression culprit right builds unbuilt seconds bisect builds skipped seconds hunks bar
tab=$(printf '\t')
# The list is read on descriptor 3: the rows' commands read nothing (a
# test that searches its standard input when it is a file, as ag does,
# would read the list).
while IFS="$tab" read -r name repo good bad bug build test <&3; do
	case "$name" in ''|'#'*) continue ;; esac
	want=$repo; src=$(repo_of "$@")
	[ -n "$src" ] || { echo "$name: no repository named $repo" >&2; continue; }
	git clone -q "$src" "$W/$name-c" && git clone -q "$src" "$W/$name-b" || continue
	# Each row's commands get a scratch directory of their own (TMPDIR):
	# build scripts that build in a fixed place under it do not collide
	# with another run of this benchmark.
	mkdir -p "$W/$name-tmp"
	bug=$(git -C "$W/$name-c" rev-parse "$bug^{commit}")
	# culprit
	t0=$(date +%s.%N)
	quiet=--quiet; [ -n "${KEEP:-}" ] && quiet=   # kept, the log holds the progress lines
	# shellcheck disable=SC2086
	(cd "$W/$name-c" && TMPDIR=$W/$name-tmp "$CULPRIT" --batch $quiet --format json --no-semantic ${CULPRIT_ARGS:-} --build "$build" \
		--good "$good" --bad "$bad" -- sh -c "$test") > "$W/$name.json" 2> "$W/$name.err"
	t1=$(date +%s.%N)
	cc=$(jq -r '.culprit_commit // "none"' "$W/$name.json" 2>/dev/null || echo error)
	cb=$(jq -r '.builds' "$W/$name.json" 2>/dev/null); cu=$(jq -r '.configurations_failed_to_build' "$W/$name.json" 2>/dev/null)
	cs=$(echo "$t1 - $t0" | bc)
	# git bisect run, same build and test
	t0=$(date +%s.%N)
	(cd "$W/$name-b" && export TMPDIR="$W/$name-tmp" && git bisect start "$bad" "$good" >/dev/null 2>&1 &&
	 git bisect run sh -c "($build) >/dev/null 2>&1 || exit 125; $test" > "$W/$name.bisect" 2>&1)
	t1=$(date +%s.%N)
	bc_=$(git -C "$W/$name-b" rev-parse -q --verify refs/bisect/bad 2>/dev/null || echo none)
	steps=$(git -C "$W/$name-b" bisect log 2>/dev/null | grep -c '^git bisect \(good\|bad\|skip\) ')
	skips=$(git -C "$W/$name-b" bisect log 2>/dev/null | grep -c '^git bisect skip ')
	bs=$(echo "$t1 - $t0" | bc)
	git -C "$W/$name-b" bisect reset -q >/dev/null 2>&1
	hunks=$(jq -r '.changes' "$W/$name.json" 2>/dev/null || echo 0)
	log2=$(awk -v n="$hunks" 'BEGIN { l = 0; while (2 ^ l < n) l++; print l }')
	printf '%-18s %-8.8s %-6s %6s %7s %8.1f   %-6s %6s %7s %8.1f   %6s %4s\n' "$name" "$cc" \
		"$([ "$cc" = "$bug" ] && echo yes || echo no)" "$cb" "$cu" "$cs" \
		"$([ "$bc_" = "$bug" ] && echo yes || echo no)" "$steps" "$skips" "$bs" "$hunks" $((steps + log2 + 4))
	[ -n "${KEEP:-}" ] && cp "$W/$name.json" "$W/$name.err" "$KEEP/" 2>/dev/null
	rm -rf "$W/$name-c" "$W/$name-b" "$W/$name-tmp"
done 3< "$list" < /dev/null
