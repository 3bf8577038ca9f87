#!/bin/sh
# Failure points of real tests: main returning 1 from a driver's own check,
# exit(n) chosen by a condition, output compared by cmp against an expected
# file from another directory, and a wrapper script that runs the program
# several times (the failing run is not the last one traced); a program
# built outside the tree; a driver built from outside the repository; a
# field an update leaves stale.
. "$TOP/tests/lib.sh"

cause_has() {
	[ "$(jq "[.causal_tree.nodes[] | select(.kind == \"cause\") | .statements[] | select($1)] | length" \
		"$T/out.json")" -gt 0 ]
}
edge_has() {
	[ "$(jq "[.causal_tree.nodes[] | select(.kind == \"cause\" and (.edge // \"\" | contains(\"$1\")))] | length" \
		"$T/out.json")" -gt 0 ]
}

d=$(fixture sem_driver)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "driver: the failure is main's return 1" \
	[ "$(jqf .causal_tree.failure)" = 'test.c:15 return 1;: main returned 1' ]
check "driver: through the driver's check" edge_has 'test.c:13 if (n != 4) { was true'
check "driver: the tree reaches the duplicate check" edge_has 'set.c:6 for (i = 0; i + 1 < s->n; i++)'
check "driver: root found" [ "$(jqf .causal_tree.root_found)" = true ]

d=$(fixture sem_exit)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "exit: the failure is exit(code)" \
	[ "$(jqf .causal_tree.failure)" = 'main.c:7 exit(code); exited with a failure status' ]
check "exit: with its status" cause_has '.values == "code = 3"'
check "exit: the condition that chose it" edge_has 'main.c:23 if (t > limit) was true'
check "exit: back to the loop" edge_has 'main.c:13 for (i = 0; i <= n; i++)'

# The program built outside the tree: each configuration's build overwrites
# it, so the instrumented tree is built again before it is traced.
d=$(fixture sem_outside)
culprit_json "$d" --good good --bad bad --build ./build.sh -- ./run-test.sh
check "outside: the failure is exit(code)" \
	[ "$(jqf .causal_tree.failure)" = 'main.c:7 exit(code); exited with a failure status' ]
check "outside: through the condition" edge_has 'main.c:23 if (t > limit) was true'
check "outside: back to the loop" edge_has 'main.c:13 for (i = 0; i <= n; i++)'

# A driver built from outside the repository is not traced: the failure is
# the value the library returned to it, where the good revision's differs.
d=$(fixture sem_extdriver)
culprit_json "$d" --good good --bad bad --build ./build.sh -- ./run-test.sh
check "outside driver: the failure is count_words's return" \
	[ "$(jqf .causal_tree.failure)" = "words.c:14 return n;: count_words returned 2 to its caller outside the project, the good revision's 3" ]
check "outside driver: through the blank's branch" edge_has "words.c:7 if (s[i] == ' ') { was true"
check "outside driver: root found" [ "$(jqf .causal_tree.root_found)" = true ]

# A field the change caches, which an update of its object leaves stale:
# the update is named, where the missing assignment goes.
d=$(fixture sem_stale)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "stale: the output differs" \
	[ "$(jqf .causal_tree.failure)" = 'main.c:9 printf("%d\n", str_len(s)); printed "6\n", the good revision printed "2\n"' ]
check "stale: the update that left the length" [ "$(jqf .causal_tree.stale)" = \
	'str.c:30 str->value = copy; in str_set() updates str->value but not str->length, which str_new() set with it (str.c:20 s->length = (int)strlen(v);): str.c:36 reads the old length (6)' ]
check "stale: the omitted assignment, added after the update, passes" [ "$(jqf .causal_tree.stale_fix)" = \
	'adding "str->length = (int)strlen(v);" after str.c:30 makes the test pass (built and tested)' ]
(cd "$d" && "$CULPRIT" --batch --quiet --good good --bad bad -- ./run-test.sh) > "$T/stale.txt" 2>&1
check "stale: the text report's fix names the omitted line" \
	grep -qF 'or a line the commit omitted (a stale field, below): adding "str->length = (int)strlen(v);" after str.c:30' "$T/stale.txt"
check "stale: the scratch worktree is put back" \
	[ "$(cat "$d"/.git/culprit/wt-*/str.c | grep -c 'str->length')" = 0 ]
culprit_json "$T/sem_outside" --good good --bad bad --build ./build.sh -- ./run-test.sh
check "stale: none where every field is written" [ "$(jqf '[.causal_tree.stale, .causal_tree.stale_fix] | tostring')" = '[null,null]' ]

d=$(fixture sem_cmp)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "cmp: the first differing output, not exit(0)" \
	[ "$(jqf .causal_tree.failure)" = 'main.c:13 printf("scaled %d\n", scale(x)); printed "scaled 11\n", the good revision printed "scaled 10\n"' ]
check "cmp: the cause is the rounding" cause_has '.text == "return x * 3 / 2 + (x > 5);" and .values == "returned 11"'
check "cmp: the failure line is the printf's" [ "$(jqf .causal_tree.failure_line)" = 13 ]

d=$(fixture sem_wrapper)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "wrapper: the failing run is the first of three" \
	sh -c "jq -r .causal_tree.failure '$T/out.json' | grep -qF 'printed \"7\\n\", the good revision printed \"9\\n\" (traced run 1 of 3)'"
check "wrapper: the tree reaches the predicate" edge_has 'max.c:6 if (a >= b || a >= c) was true'
check "wrapper: root found" [ "$(jqf .causal_tree.root_found)" = true ]

# A word copied into a char array by strcpy and printed from it: the copy
# is followed, so the tree reaches the branch that chose the word.
d=$(fixture sem_buffer)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "buffer: the failure is the puts, not exit(0)" \
	[ "$(jqf .causal_tree.failure)" = 'label.c:17 puts(buf); printed "small", the good revision printed "big"' ]
check "buffer: the cause is the strcpy, shown as the string" cause_has '.text == "strcpy(out, \"small\");" and .values == "*out = \"small\""'
check "buffer: the tree reaches the faulty predicate" edge_has 'label.c:7 if (v > 20) was false'
check "buffer: root found" [ "$(jqf .causal_tree.root_found)" = true ]

# The same word printed by printf after a number: the format is walked to
# its %s.
d=$(fixture sem_printf)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "printf: the failure is the printf" \
	[ "$(jqf .causal_tree.failure)" = 'label.c:17 printf("%d: %s\n", argc, buf); printed "2: small\n", the good revision printed "2: big\n"' ]
check "printf: the tree reaches the faulty predicate" edge_has 'label.c:7 if (v > 20) was false'

# strcpy, strlen, memcpy and strcmp: a driver's strcmp check leads through
# both copies to the predicate that chose the word.
d=$(fixture sem_strfuncs)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "strfuncs: the failure is main's return 1" \
	[ "$(jqf .causal_tree.failure)" = 'mode.c:19 return 1;: main returned 1' ]
check "strfuncs: through the strcmp check" edge_has 'mode.c:18 if (strcmp(copy, \"fast\") != 0) was true'
check "strfuncs: through the memcpy" cause_has '.text == "memcpy(copy, mode, strlen(mode) + 1);" and .values == "*copy = \"slow\""'
check "strfuncs: through the strcpy" cause_has '.text == "strcpy(out, \"slow\");"'
check "strfuncs: the tree reaches the faulty predicate" edge_has 'mode.c:7 if (v > 20) was false'

# A linked list walked by address: the sum's loop over next leads to the
# unlink that rewrote the links, and on to the removal predicate.
d=$(fixture sem_list)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "list: the failure is main's return 1" [ "$(jqf .causal_tree.failure)" = 'list.c:46 return 1;: main returned 1' ]
check "list: through the walk over next" edge_has 'list.c:43 for (n = head; n; n = n->next) was true'
check "list: through the links unlink_node rewrote" edge_has 'list.c:24 if (n->prev) was true'
check "list: the tree reaches the removal predicate" edge_has 'list.c:40 if (n->v % 2 == 1 || n->v == 4) was true'
check "list: root found" [ "$(jqf .causal_tree.root_found)" = true ]

# Honest output: a word formatted by snprintf into a char array is not
# followed; no cause forces the failure (output, not exit(0)), so the
# report says so in one line, the JSON has the reason, and nothing is
# boosted.
d=$(fixture sem_format)
printf 'big ./prog 12\nsmall ./prog 3\nhuge ./prog 40\nwho [ "$(./prog 12)" = big ]\n' > "$T/suite.list"
culprit_json "$d" --good good --bad bad --suite "$T/suite.list" -- ./run-test.sh
check "format: the failure is the puts, not exit(0)" \
	[ "$(jqf .causal_tree.failure)" = 'label.c:17 puts(buf); printed "small", the good revision printed "big"' ]
check "format: no cause forces it" \
	[ "$(jqf '[.causal_tree.nodes[] | select(.kind == "cause" and .forcing)] | length')" = 0 ]
check "format: the JSON says why there is no explanation" [ "$(jqf '.causal_tree.no_explanation | length > 0')" = true ]
check "format: no statement boosted by a cause that does not force" [ "$(jqf '[.ranking[] | select(.boosted)] | length')" = 0 ]
(cd "$d" && "$CULPRIT" report) > "$T/report.txt"
check "format: the report says so in one line" [ "$(grep -c '^no semantic explanation: ' "$T/report.txt")" = 1 ]

# A hang ended by the test's own timeout: the traced run is capped, the
# newest events kept (the loop), and the report says the trace was cut.
d=$(fixture sem_hang)
CULPRIT_TRACE_MAX=4000000 culprit_json "$d" --good good --bad bad -- ./run-test.sh
# What the run found, for a failure below to be read from the log.
jq -c '.causal_tree | {failure, trace_cut, events, no_explanation}' "$T/out.json" 2>&1 | sed 's/^/hang: /'
check "hang: the failure is in the loop, stopped by the timeout" \
	sh -c "jq -r .causal_tree.failure '$T/out.json' | grep -Eq '^count.c:(5|11|12|13) .* was stopped: signal 15 \(Terminated\)$'"
check "hang: the trace was cut" sh -c "jq -r .causal_tree.trace_cut '$T/out.json' | grep -q '^the failing run wrote more than 4000000 bytes'"
check "hang: the trace file stays under the cap" \
	[ "$(for f in "$d"/.git/culprit/trace-*.bin; do wc -c < "$f"; done | sort -n | tail -1)" -le 4000000 ]
check "hang: the events kept are the tail's" [ "$(jqf .causal_tree.events)" -le 83334 ]
(cd "$d" && "$CULPRIT" report) > "$T/report.txt"
check "hang: the report says the trace was cut" grep -q '^trace cut: the failing run wrote more' "$T/report.txt"

# A crash by stack overflow (a recursion that never ends): the handler runs
# on its own stack, so the trace keeps the crash, and the analysis of a
# trace as deep as the recursion ends (joins in one pass).
d=$(fixture sem_overflow)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "overflow: the failure is the crash in the recursion" \
	[ "$(jqf .causal_tree.failure)" = 'sum.c:7 return n + sum(n - 2); crashed: signal 11 (Segmentation fault)' ]
check "overflow: the tree holds the changed step" cause_has '.line == 7 and (.text | contains("sum(n - 2)"))'

# printf called with no declaration (no <stdio.h>): still the library's
# output, so the wrong output is the failure point.
d=$(fixture sem_implicit)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "implicit printf: the failure is its output" \
	[ "$(jqf .causal_tree.failure)" = 'area.c:8 printf("%d\n", area(3, 4)); printed "7\n", the good revision printed "12\n"' ]
check "implicit printf: the cause is the sum" cause_has '.text == "return w + h;"'

# Output that ends early: the bad run prints the first of the good run's
# two lines and stops, so no byte differs. The failure point is the run of
# the governing branch whose outcome differs from the good run's.
d=$(fixture sem_missing)
culprit_json "$d" --good good --bad bad -- ./run-test.sh
check "missing output: the failure is the branch that lost the line" \
	[ "$(jqf .causal_tree.failure)" = 'main.c:13 if (over(v[i], 10)) was false where the good revision'"'"'s was true and printed "over": this run printed less' ]
check "missing output: the tree reaches the comparison" cause_has '.text == "return x > limit;"'
check "missing output: root found" [ "$(jqf .causal_tree.root_found)" = true ]

finish
