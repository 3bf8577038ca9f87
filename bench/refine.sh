#!/bin/sh
# bench/refine: refinement on the fixtures, one approved test a round: the
# faulty line's rank after each round, and each round's generation time,
# solver time, time running candidates and candidates considered.
BUILD=${1:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
CULPRIT=$TOP/$BUILD/culprit
T=$(mktemp -d "${TMPDIR:-/tmp}/culprit-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
command -v jq >/dev/null || { echo "jq is needed"; exit 1; }

# bench FIXTURE FILE LINE [ARGS...]: rounds 0 to 3 on a fresh copy of the fixture
bench() {
	fx=$1 file=$2 line=$3
	shift 3
	d=$T/$fx
	FX_HOME=$T/home sh "$TOP/tests/fixtures/$fx.sh" "$d" >/dev/null 2>&1
	printf '%s (faulty line %s:%s)\n' "$fx" "$file" "$line"
	printf '  %5s %6s %10s %9s %9s %10s %9s\n' round rank approved gen_s solver_s run_s candidates
	k=0
	while [ $k -le 3 ]; do
		start=$(date +%s.%N)
		(cd "$d" && "$CULPRIT" --batch -q -f json "$@" --refine $((k > 0)) --good good --bad bad -- ./run-test.sh) \
			> "$T/out.json" 2>/dev/null
		secs=$(echo "$(date +%s.%N) - $start" | bc)
		rank=$(jq -r --arg f "$file" --argjson l "$line" \
			'[.ranking[] | select(.file == $f and .line == $l)][0].rank // "-"' "$T/out.json")
		n=$(jq -r '.refinement.answered | map(select(.answer == "approved")) | length' "$T/out.json")
		r=$(jq -r '.refinement.rounds | last // {} | "\(.generation_seconds // "-") \(.solver_seconds // "-") \(.run_seconds // "-") \(.candidates // "-")"' "$T/out.json")
		[ $k = 0 ] && r="- - - -"
		printf '  %5s %6s %10s %9s %9s %10s %9s   (%.1f s in all)\n' "$k" "$rank" "$n" $r "$secs"
		k=$((k + 1))
	done
}

bench refine_rank scale.c 8 --suite tests.list
bench refine_two main.c 11
bench refine_deep main.c 8
