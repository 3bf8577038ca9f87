#!/bin/sh
# bench/explain_small: the semantic explainer's causal tree on small real
# faulty programs whose faulty statements are known (the smallprogs
# repositories: tags good and bad, failing.txt, and faulty-lines.tsv beside
# them). Per version: whether the tree reaches a faulty line (a cause's
# statement on it: "yes"; only the failure itself is on it: "failure"; the
# tree does not touch it: "no"), whether a root was found, the one-line
# no-explanation reason, and the seconds of the run. The repositories are
# copied, never changed.
#
#   bench/explain_small.sh SMALLPROGS-DIR [COUNT] [BUILD]
#
# ONLY="NAME NAME ..." in the environment measures those versions only;
# KEEP=DIR keeps each version's JSON report there.
DIR=${1:?usage: explain_small.sh SMALLPROGS-DIR [COUNT] [BUILD]}
COUNT=${2:-1000}
BUILD=${3:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
CULPRIT=$TOP/$BUILD/culprit
T=$(mktemp -d "${TMPDIR:-/tmp}/culprit-explain.XXXXXX")
trap 'rm -rf "$T"' EXIT
command -v jq >/dev/null || { echo "jq is needed"; exit 1; }
LINES=$DIR/faulty-lines.tsv
[ -r "$LINES" ] || { echo "$LINES: not found"; exit 1; }
[ -n "${KEEP:-}" ] && mkdir -p "$KEEP"

printf '| version | faulty lines | tree reaches | root | forcing/causes | no explanation | seconds |\n'
printf '| --- | --- | --- | --- | ---: | --- | ---: |\n'
n=0 yes=0 fail=0 root=0
for repo in $(ls "$DIR" | sort -V); do
	[ -d "$DIR/$repo/.git" ] || continue
	if [ -n "${ONLY:-}" ]; then case " $ONLY " in *" $repo "*) ;; *) continue ;; esac; fi
	[ "$n" -lt "$COUNT" ] || break
	n=$((n + 1))
	want=$(awk -F'\t' -v r="$repo" '$1 == r { printf "%s\"%s\"", (n++ ? "," : "["), $2 } END { if (n) print "]"; else print "[]" }' "$LINES")
	d=$T/$repo
	git clone -q "$DIR/$repo" "$d" 2>/dev/null && git -C "$d" fetch -q --tags 2>/dev/null
	start=$(date +%s)
	(cd "$d" && "$CULPRIT" --batch -q -f json --good good --bad bad --build make --test-timeout 5 \
		-- "$(cat failing.txt)") > "$T/out.json" 2> "$T/err"
	secs=$(($(date +%s) - start))
	[ -n "${KEEP:-}" ] && cp "$T/out.json" "$KEEP/$repo.json"
	# The tree's cause statements and its failure line, against the faulty lines.
	reach=$(jq -r --argjson want "$want" '
		def on($f; $l): ($f + ":" + ($l|tostring)) as $k | $want | index($k);
		(.causal_tree // {}) as $t
		| if ([$t.nodes[]? | select(.kind == "cause") | .statements[]? | select(on(.file; .line))] | length) > 0
		  then "yes"
		  elif $t.failure_file != null and on($t.failure_file; $t.failure_line) then "failure"
		  else "no" end' "$T/out.json" 2>/dev/null)
	[ -n "$reach" ] || reach=no
	r=$(jq -r '.causal_tree.root_found // false' "$T/out.json" 2>/dev/null)
	causes=$(jq -r '[.causal_tree.nodes[]? | select(.kind == "cause")] | "\([.[] | select(.forcing)] | length)/\(length)"' \
		"$T/out.json" 2>/dev/null)
	# The one-line reason: no_explanation, or the tree's own note when it found no root.
	why=$(jq -r '.causal_tree as $t | $t.no_explanation // (if $t == null then (.note // "no report")
		elif $t.root_found then "-" else ($t.note // "-") end)' \
		"$T/out.json" 2>/dev/null | tr '\n|' ' /' | sed 's/ *$//')
	[ -s "$T/out.json" ] || why="culprit failed: $(tail -1 "$T/err" | tr '|' /)"
	case $reach in yes) yes=$((yes + 1)) ;; failure) fail=$((fail + 1)) ;; esac
	[ "$r" = true ] && root=$((root + 1))
	printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$repo" "$(echo "$want" | tr -d '[]"' | sed 's/prog.c://g')" \
		"$reach" "$r" "${causes:-0/0}" "$why" "$secs"
	rm -rf "$d"
done
[ "$n" -gt 0 ] || { echo "no repositories in $DIR"; exit 1; }
printf '\n%d versions: a cause on a faulty line in %d (%d%%); the failure itself on it in %d more; a root in %d\n' \
	"$n" "$yes" $((100 * yes / n)) "$fail" "$root"
