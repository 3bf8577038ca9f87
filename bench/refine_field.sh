#!/bin/sh
# bench/refine_field: refinement on small real faulty programs with their own
# test suites (the smallprogs repositories: tags good and bad, tests.list,
# failing.txt, and faulty-lines.tsv beside them). Per version: the tests
# generated, approved (--refine 5) and valid (each passes at the good
# revision when run as `culprit tests` writes it), the faulty line's rank
# before and after the rounds, and whether a fault set holds it; then the
# shares the issue asks for. The repositories are copied, never changed.
#
#   bench/refine_field.sh SMALLPROGS-DIR [COUNT] [BUILD]
#
# ONLY="NAME NAME ..." in the environment measures those versions only.
DIR=${1:?usage: refine_field.sh SMALLPROGS-DIR [COUNT] [BUILD]}
COUNT=${2:-10}   # tests run with --test-timeout 5, as the repositories were checked
BUILD=${3:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
CULPRIT=$TOP/$BUILD/culprit
T=$(mktemp -d "${TMPDIR:-/tmp}/culprit-field.XXXXXX")
trap 'rm -rf "$T"' EXIT
command -v jq >/dev/null || { echo "jq is needed"; exit 1; }
LINES=$DIR/faulty-lines.tsv
[ -r "$LINES" ] || { echo "$LINES: not found"; exit 1; }

# best_rank: the best rank of the version's faulty lines in $T/out.json ("-": not ranked).
best_rank() {
	jq -r --argjson want "$1" '[.ranking[] | select((.file + ":" + (.line|tostring)) as $k | $want | index($k))
		| .rank] | min // "-"' "$T/out.json"
}

printf '| version | tests | generated | approved | valid | rank before | rank after | fault set | seconds |\n'
printf '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |\n'
n=0 two=0 better=0 inset=0
for repo in $(ls "$DIR" | sort -V); do
	[ -d "$DIR/$repo/.git" ] || continue
	if [ -n "${ONLY:-}" ]; then case " $ONLY " in *" $repo "*) ;; *) continue ;; esac; fi
	[ "$n" -lt "$COUNT" ] || break
	n=$((n + 1))
	want=$(awk -F'\t' -v r="$repo" '$1 == r { printf "%s\"%s\"", (n++ ? "," : "["), $2 } END { if (n) print "]"; else print "[]" }' "$LINES")
	d=$T/$repo
	git clone -q "$DIR/$repo" "$d" 2>/dev/null && git -C "$d" fetch -q --tags 2>/dev/null
	fail=$(cat "$d/failing.txt")
	start=$(date +%s)
	(cd "$d" && "$CULPRIT" --batch -q -f json --top 0 --good good --bad bad --build make --test-timeout 5 --suite tests.list -- "$fail") \
		> "$T/out.json" 2>/dev/null
	before=$(best_rank "$want")
	(cd "$d" && "$CULPRIT" --batch -q -f json --top 0 --good good --bad bad --build make --test-timeout 5 --suite tests.list --refine 5 \
		-- "$fail") > "$T/out.json" 2> "$T/err"
	secs=$(($(date +%s) - start))
	after=$(best_rank "$want")
	gen=$(jq -r '[.refinement.rounds[]?.candidates] | add // 0' "$T/out.json")
	app=$(jq -r '[.refinement.answered[]? | select(.answer == "approved")] | length' "$T/out.json")
	set=$(jq -r --argjson want "$want" '[.fault_sets.sets[]?.lines[]? | (.file + ":" + (.line|tostring))
		| select(. as $k | $want | index($k))] | length' "$T/out.json")
	tests=$(grep -c '^[^#]' "$d/tests.list")
	echo "$repo: $(jq -r '.refinement.note // "-"' "$T/out.json")" >&2   # why refinement stopped
	# Valid: each exported test passes at the good revision, run as written.
	valid=0
	(cd "$d" && "$CULPRIT" tests) > "$T/suite.list" 2>/dev/null
	git -C "$d" worktree add -q "$T/at-good" good 2>/dev/null && (cd "$T/at-good" && make -s >/dev/null 2>&1)
	while read -r name cmd; do
		case $name in gen*) ;; *) continue ;; esac
		(cd "$T/at-good" && timeout 10 sh -c "$cmd") >/dev/null 2>&1 && valid=$((valid + 1))
	done < "$T/suite.list"
	git -C "$d" worktree remove --force "$T/at-good" 2>/dev/null
	[ "$valid" -ge 2 ] && two=$((two + 1))
	case "$before$after" in
	*-*) [ "$before" = - ] && better=$((better + 1)) ;;
	*) [ "$after" -le "$before" ] && better=$((better + 1)) ;;
	esac
	[ "$set" -gt 0 ] && inset=$((inset + 1))
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$repo" "$tests" "$gen" "$app" "$valid" "$before" "$after" \
		"$([ "$set" -gt 0 ] && echo yes || echo no)" "$secs"
	rm -rf "$d"
done
[ "$n" -gt 0 ] || { echo "no repositories in $DIR"; exit 1; }
printf '\n%d versions: at least 2 valid tests approved in %d (%d%%); the faulty line'"'"'s rank improved or unchanged in %d (%d%%); a fault set holds it in %d (%d%%)\n' \
	"$n" "$two" $((100 * two / n)) "$better" $((100 * better / n)) "$inset" $((100 * inset / n))
