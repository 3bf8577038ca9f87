#!/bin/sh
# The semantic explainer on fixture programs with known causes: the causal
# tree in the JSON report, the text report, and the instrumented program
# behaving exactly as the original.
. "$TOP/tests/lib.sh"

# cause_has FILTER: some statement of some cause matches the jq condition.
cause_has() {
	[ "$(jq "[.causal_tree.nodes[] | select(.kind == \"cause\") | .statements[] | select($1)] | length" \
		"$T/out.json")" -gt 0 ]
}
# change_id FILE TEXT: the id of the change whose added lines hold TEXT.
id_of() { jq -r --arg f "$1" --arg t "$2" \
	'[.fix[], .failure_inducing[]] | map(select(.file == $f and (.added | join("\n") | contains($t)))) | .[0].id' \
	"$T/out.json"; }

# same_behaviour NAME DIR: the instrumented build of the failing commit in
# culprit's trace worktree prints and exits exactly as a plain build.
same_behaviour() {
	_tr=$(ls -d "$2"/.git/culprit/tr-* | head -1)
	_plain=$T/plain-$1
	rm -rf "$_plain" && mkdir -p "$_plain"
	_rev=$(basename "$_tr" | sed 's/^tr-//')
	(cd "$2" && git archive "$_rev" | tar -x -C "$_plain")
	(cd "$_plain" && make -s >/dev/null 2>&1)
	(cd "$_plain" && ./prog > "$T/plain.out" 2> "$T/plain.err"; echo "exit $?" >> "$T/plain.out")
	(cd "$_tr" && ./prog > "$T/traced.out" 2> "$T/traced.err"; echo "exit $?" >> "$T/traced.out")
	check "$1: the instrumented program prints the same" cmp -s "$T/plain.out" "$T/traced.out"
	check "$1: and writes the same errors" cmp -s "$T/plain.err" "$T/traced.err"
	# Two lines of header (the runtime and #line 1), then every line where it was.
	_lines=ok
	for _f in "$_plain"/*.c; do
		_n=$(basename "$_f")
		[ "$(tail -n +3 "$_tr/$_n" | wc -l)" -eq "$(wc -l < "$_f")" ] || _lines="$_n"
		[ "$(sed -n 2p "$_tr/$_n")" = "#line 1" ] || _lines="$_n"
	done
	check "$1: the instrumented sources keep every line" [ "$_lines" = ok ]
}

# The running example: the assert's chain holds one change; a critical
# predicate leads to the second; the root cause is both.
d=$(fixture sem_paper)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "paper: explained" [ "$RC" = 0 ]
c1=$(jq -r '.fix | map(select(.added | join(" ") | contains("return 2;"))) | .[0].id' "$T/out.json")
c2=$(jq -r '.fix | map(select(.added | join(" ") | contains("v + 4"))) | .[0].id' "$T/out.json")
check "paper: the dynamic analysis finds both changes" [ "$c1" != null ] && [ "$c2" != null ]
check "paper: the root cause names both" \
	[ "$(jqf '.causal_tree.root | sort | map(tostring) | join(" ")')" = "$(printf '%s\n%s\n' "$c1" "$c2" | sort -n | tr '\n' ' ' | sed 's/ $//')" ]
check "paper: found by the explainer" [ "$(jqf .causal_tree.root_found)" = true ]
check "paper: the first cause is the assert's chain, with the bonus change" \
	[ "$(jq "[.causal_tree.nodes[] | select(.id == 1) | .changes[] | select(. == $c2)] | length" "$T/out.json")" = 1 ]
check "paper: a second cause through the predicate v > limit()" \
	[ "$(jq -r "[.causal_tree.nodes[] | select(.kind == \"cause\" and .parent == 1 and (.edge // \"\" | contains(\"v > limit()\")) and (.changes | index($c1)))] | length" "$T/out.json")" = 1 ]
check "paper: the edge links them" [ "$(jqf '[.causal_tree.edges[] | select(.from == 1 and .to == 2)] | length')" = 1 ]
check "paper: the failure is the assert" [ "$(jqf '.causal_tree.nodes[0].text' | grep -c 'assert(r < 7)')" = 1 ]
check "paper: statements carry values" cause_has '.text | contains("return v + 4")' && cause_has '.values == "returned 7"'
check "paper: changes are leaves" [ "$(jqf '[.causal_tree.nodes[] | select(.kind == "change")] | length')" -ge 2 ]
(cd "$d" && "$CULPRIT" report) > "$T/report.txt"
check "paper: the text report has the tree" grep -q '^failure: main.c:15 assert(r < 7); failed' "$T/report.txt"
check "paper: and the root cause" grep -q "^root cause: changes #$(printf '%s\n%s\n' "$c1" "$c2" | sort -n | head -1) and #" "$T/report.txt"
check "paper: and the predicate" grep -q '← main.c:10 if (v > limit()) was true' "$T/report.txt"
(cd "$d" && "$CULPRIT" report --format markdown) > "$T/report.md"
check "paper: the markdown report has the tree" grep -q '^## Why it fails' "$T/report.md"
same_behaviour paper "$d"

# A struct field and an array element.
d=$(fixture sem_struct)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
c=$(jqf '.fix[0].id')
check "struct: the cause holds the array store" \
	cause_has ".text | contains(\"a->items[i] = v + (i == 1);\")"
check "struct: with its value and change" cause_has ".values == \"a->items[i] = 4\" and .change == $c"
check "struct: and the field" cause_has '.values == "a->total = 9"'
check "struct: root found" [ "$(jqf .causal_tree.root_found)" = true ]
same_behaviour struct "$d"

# Two calls down.
d=$(fixture sem_calls)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "calls: the cause reaches tax()" cause_has '.text | contains("return cents * 25 / 100;")'
check "calls: through price()" cause_has '.text | contains("return cents + t;")' && cause_has '.values == "returned 625"'
check "calls: parameters bind arguments" cause_has '.values == "cents = 500"'
check "calls: root is the rate" [ "$(jqf '.causal_tree.root[0]')" = "$(jqf '.fix[0].id')" ]
same_behaviour calls "$d"

# A crash.
d=$(fixture sem_crash)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "crash: the failure is the dereference" [ "$(jqf '.causal_tree.failure' | grep -c 'list.c:19 .*signal 11')" = 1 ]
check "crash: the NULL comes from the walk" cause_has '.text | contains("h = h->next;")' && cause_has '.values == "h = NULL"'
check "crash: and the changed call" cause_has "(.text | contains(\"find(&a, 4)\")) and .change == $(jqf '.fix[0].id')"
check "crash: root found" [ "$(jqf .causal_tree.root_found)" = true ]
same_behaviour crash "$d"

# Wrong output, compared with the good revision.
d=$(fixture sem_output)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "output: the failure names both outputs" \
	[ "$(jqf .causal_tree.failure)" = 'area.c:11 printf("%d\n", area(w, h)); printed "7\n", the good revision printed "12\n"' ]
check "output: the cause is the sum" cause_has '.text == "return w + h;" and .values == "returned 7"'
check "output: failure_line is the line the failure names" \
	[ "$(jqf .causal_tree.failure_line)" = "$(jqf .causal_tree.failure | sed -n 's/^[^:]*:\([0-9]*\) .*/\1/p')" ]
same_behaviour output "$d"

# Only the third iteration goes wrong.
d=$(fixture sem_loop)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "loop: the third iteration's value" cause_has '.text | contains("return i == 2 ? 10 : i;")' && cause_has '.values == "returned 10"'
check "loop: its i" cause_has '.values == "i = 2"'
check "loop: root found" [ "$(jqf .causal_tree.root_found)" = true ]
same_behaviour loop "$d"

# A macro, a switch, commas and ++ in a for condition.
d=$(fixture sem_syntax)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "syntax: explained" [ "$RC" = 0 ]
check "syntax: the macro's case" cause_has '.text | contains("return DOUBLE(c) + 2;")'
check "syntax: the accumulation" cause_has '.text | contains("n += classify(i % 3);")'
check "syntax: root found" [ "$(jqf .causal_tree.root_found)" = true ]
same_behaviour syntax "$d"

# No compilation database and none can be recorded: a clear note, the
# dynamic answer stands.
d=$(fixture sem_nocdb)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "no database: still explained" [ "$RC" = 0 ] && [ "$(jqf '.failure_inducing | length')" = 1 ]
check "no database: says why there is no semantic explanation" \
	[ "$(jqf .causal_tree.note)" = 'no semantic explanation: bear recorded no compile commands for `make` (give --cflags)' ]
culprit_json "$d" --good good --bad bad --fresh --no-semantic -- ./run-test.sh
check "--no-semantic: no tree" [ "$(jqf .causal_tree)" = null ]

# A run longer than the trace's cap: a clear note, the dynamic answer.
d=$(fixture sem_loop)
CULPRIT_TRACE_MAX=2000 culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "trace cap: still explained" [ "$RC" = 0 ]
check "trace cap: says the run is too long" sh -c "jq -r .causal_tree.note '$T/out.json' | grep -q 'more than 2000 bytes of trace'"

# --cflags instead of a compilation database.
d=$(fixture sem_calls)
culprit_json "$d" --good good --bad bad --cflags "-std=c99" -- ./run-test.sh
check "--cflags: explained without bear" [ "$(jqf .causal_tree.root_found)" = true ]
check "--cflags: no database was recorded" [ ! -e "$(ls -d "$d"/.git/culprit/tr-* | head -1)/.culprit/compile_commands.json" ]

finish
