#!/bin/sh
# The real engine on generated repositories: configurations tested and time
# for n one-line changes (16, 64, 256, 1024) with one culprit and with two
# interacting culprits. The "build" is a no-op and the test a grep, so the
# figures measure culprit itself. Prints figures; never fails on time.
BUILD=${1:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
CULPRIT=$TOP/$BUILD/culprit
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.org GIT_COMMITTER_NAME=bench \
	GIT_COMMITTER_EMAIL=bench@example.org GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' \
	GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'

# make_repo DIR N CULPRITS...: N changes, 16 per file; the culprits add a BUG marker.
make_repo() {
	dir=$1 n=$2; shift 2
	mkdir -p "$dir/src" && cd "$dir" && git init -q -b main .
	files=$(( (n + 15) / 16 ))
	i=0
	while [ $i -lt "$files" ]; do
		awk 'BEGIN { for (l = 0; l < 16; l++) printf "value %d = 0;\nkeep;\nkeep;\n", l }' > src/f$i.txt
		i=$((i + 1))
	done
	printf '#!/bin/sh\n# fails when every marker listed in markers is present\nfor m in $(cat markers); do grep -q "$m" src/*.txt || exit 0; done\nexit 1\n' > test.sh
	chmod +x test.sh
	: > markers
	for c in "$@"; do echo "BUG$c" >> markers; done
	git add -A && git commit -qm good && git tag good
	i=0
	while [ $i -lt "$n" ]; do
		f=$((i / 16)) l=$((i % 16)) mark=
		for c in "$@"; do [ "$c" -eq $i ] && mark=" BUG$c"; done
		sed -i "s/^value $l = 0;\$/value $l = 1;$mark/" src/f$f.txt
		i=$((i + 1))
	done
	git commit -qam bad && git tag bad
	cd - >/dev/null
}

printf '%-18s %6s %8s %16s %8s %10s\n' case n target configurations builds seconds
for n in 16 64 256 1024; do
	for kind in one two; do
		d=$T/$kind-$n
		c1=$(( (n * 5) / 7 ))
		if [ $kind = one ]; then make_repo "$d" $n $c1; else make_repo "$d" $n $((n / 5)) $c1; fi
		start=$(date +%s.%N)
		out=$("$CULPRIT" -C "$d" --good good --bad bad --build true --batch --quiet --format json -- ./test.sh)
		end=$(date +%s.%N)
		configs=$(printf '%s' "$out" | jq .configurations_tested)
		builds=$(printf '%s' "$out" | jq .builds)
		found=$(printf '%s' "$out" | jq -r '[.failure_inducing[].id] | join(",")')
		target=-
		[ $kind = one ] && target=$(awk -v n=$n 'BEGIN { l = log(n) / log(2); c = int(l); if (c < l) c++; print c + 4 }')
		printf '%-18s %6d %8s %16s %8s %10.2f   found %s\n' "$kind culprit" $n "$target" "$configs" "$builds" \
			"$(echo "$end - $start" | bc)" "$found"
	done
done
echo "(configurations and target include the two premise checks, good and bad: target = ceil(log2 n) + 2 + 2)"
