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
check "paper: the dynamic analysis finds the first change" [ "$c1" != null ]
check "paper: the dynamic analysis finds the second change" [ "$c2" != null ]
check "paper: the root cause names both" \
	[ "$(jqf '.causal_tree.root | sort | map(tostring) | join(" ")')" = "$(printf '%s\n%s\n' "$c1" "$c2" | sort -n | tr '\n' ' ' | sed 's/ $//')" ]
check "paper: found by the explainer" [ "$(jqf .causal_tree.root_found)" = true ]
check "paper: the first cause is the assert's chain, with the bonus change" \
	[ "$(jq "[.causal_tree.nodes[] | select(.id == 1) | .changes[] | select(. == $c2)] | length" "$T/out.json")" = 1 ]
check "paper: a second cause through the predicate v > limit()" \
	[ "$(jq -r "[.causal_tree.nodes[] | select(.kind == \"cause\" and .parent == 1 and (.edge // \"\" | contains(\"v > limit()\")) and (.changes | index($c1)))] | length" "$T/out.json")" = 1 ]
check "paper: the edge links them" [ "$(jqf '[.causal_tree.edges[] | select(.from == 1 and .to == 2)] | length')" = 1 ]
check "paper: the failure is the assert" [ "$(jqf '.causal_tree.nodes[0].text' | grep -c 'assert(r < 7)')" = 1 ]
check "paper: statements carry values" cause_has '.text | contains("return v + 4")'
check "paper: statements carry values (2)" cause_has '.values == "returned 7"'
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
check "calls: through price()" cause_has '.text | contains("return cents + t;")'
check "calls: through price() (2)" cause_has '.values == "returned 625"'
check "calls: parameters bind arguments" cause_has '.values == "cents = 500"'
check "calls: root is the rate" [ "$(jqf '.causal_tree.root[0]')" = "$(jqf '.fix[0].id')" ]
same_behaviour calls "$d"

# A crash.
d=$(fixture sem_crash)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "crash: the failure is the dereference" [ "$(jqf '.causal_tree.failure' | grep -c 'list.c:19 .*signal 11')" = 1 ]
check "crash: the NULL comes from the walk" cause_has '.text | contains("h = h->next;")'
check "crash: the NULL comes from the walk (2)" cause_has '.values == "h = NULL"'
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
check "loop: the third iteration's value" cause_has '.text | contains("return i == 2 ? 10 : i;")'
check "loop: the third iteration's value (2)" cause_has '.values == "returned 10"'
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
check "no database: exit 0" [ "$RC" = 0 ]
check "no database: still explained" [ "$(jqf '.failure_inducing | length')" = 1 ]
check "no database: says why there is no semantic explanation" \
	[ "$(jqf .causal_tree.note)" = 'no semantic explanation: bear recorded no compile commands for `make` (give --cflags)' ]
culprit_json "$d" --good good --bad bad --fresh --no-semantic -- ./run-test.sh
check "--no-semantic: no tree" [ "$(jqf .causal_tree)" = null ]

# A run longer than the trace's cap: the newest events are kept, the tree
# says the trace was cut, and why no cause forces the failure.
d=$(fixture sem_loop)
CULPRIT_TRACE_MAX=2000 culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "trace cap: still explained" [ "$RC" = 0 ]
check "trace cap: says the trace was cut" sh -c "jq -r .causal_tree.trace_cut '$T/out.json' | grep -q 'more than 2000 bytes of trace'"
check "trace cap: the failure is still the assert" [ "$(jqf .causal_tree.failure)" = 'loop.c:13 assert(sum == 10); failed' ]
check "trace cap: the reason names the cut" sh -c "jq -r .causal_tree.no_explanation '$T/out.json' | grep -q '^the trace was cut'"

# --cflags instead of a compilation database.
d=$(fixture sem_calls)
culprit_json "$d" --good good --bad bad --cflags "-std=c99" -- ./run-test.sh
check "--cflags: explained without bear" [ "$(jqf .causal_tree.root_found)" = true ]
check "--cflags: no database was recorded" [ ! -e "$(ls -d "$d"/.git/culprit/tr-* | head -1)/.culprit/compile_commands.json" ]

# A file the compiler rejects once instrumented: put back, built again, the
# explanation goes through the others; the report names it.
d=$(fixture sem_restore)
culprit_json "$d" --good good --bad bad --cflags "-O0" -- ./run-test.sh
check "restore: explained" [ "$(jqf .causal_tree.root_found)" = true ]
check "restore: the cause in main.c" cause_has '.text | contains("int lim = 3 + w;")'
check "restore: wide.c is named untraced" sh -c "jq -r .causal_tree.untraced '$T/out.json' | grep -q 'restored.*wide.c'"
(cd "$d" && git show bad:wide.c) > "$T/wide.c"
check "restore: wide.c is as it was" cmp -s "$T/wide.c" "$(ls -d "$d"/.git/culprit/tr-* | head -1)/wide.c"
(cd "$d" && "$CULPRIT" report) > "$T/report.txt"
check "restore: the text report says so" grep -q '^untraced: .*wide.c' "$T/report.txt"

# Strings: the classifier's word is a pointer to a string literal; the
# printed word differs, so the pointer must be another: back through the
# return of the literal to the predicate that chose it. Forcing causes
# boost, and the faulty predicate keeps rank 1.
d=$(fixture sem_strings)
printf 'iso ./prog 3 3 5\nequi ./prog 2 2 2\nscal ./prog 3 4 5\nwho [ "$(./prog 3 3 5)" = isosceles ]\n' > "$T/suite.list"
culprit_json "$d" --good good --bad bad --suite "$T/suite.list" -- ./run-test.sh
check "strings: the failure is the puts, not exit(0)" \
	[ "$(jqf .causal_tree.failure)" = 'tri.c:18 puts(k); printed "scalene", the good revision printed "isosceles"' ]
check "strings: through the literal returned" cause_has '.text == "return \"scalene\";"'
check "strings: the tree reaches the faulty predicate" \
	[ "$(jqf '[.causal_tree.nodes[] | select(.kind == "cause" and .forcing and (.edge // "" | contains("if (a == b + 1 || b == c || a == c) was false")))] | length')" -gt 0 ]
check "strings: explained" [ "$(jqf '.causal_tree.no_explanation')" = null ]
check "strings: the faulty predicate ranks first" [ "$(jqf '.ranking[0].line')" = 8 ]


# Values as the trace pane shows them, in the tree and the reports: a
# plain char as '+', an enum by its constant's name, a char parameter too.
d=$(fixture sem_show)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "show: explained" [ "$(jqf '.causal_tree.no_explanation')" = null ]
check "show: a char written reads '+'" cause_has '.text == "char c = first(in);" and .values == "c = '"'+'"'"'
check "show: a char returned" cause_has '.text == "return s[1];" and .values == "returned '"'+'"'"'
check "show: a char parameter" cause_has '(.text | startswith("static enum tok kind")) and .values == "c = '"'+'"'"'
check "show: an enum by name" cause_has '.text == "enum tok k = kind(c);" and .values == "k = T_PLUS"'
check "show: an enum returned by name" cause_has '(.text | startswith("return c >=")) and .values == "returned T_PLUS"'
(cd "$d" && "$CULPRIT" report) > "$T/report.txt"
check "show: the text report the same" grep -q "enum tok k = kind(c);  (k = T_PLUS)" "$T/report.txt"
check "show: no raw code in the report" sh -c "! grep -Eq '\\(c = 43\\)|\\(k = 1\\)' '$T/report.txt'"

finish
