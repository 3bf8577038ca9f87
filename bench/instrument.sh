#!/bin/sh
# bench/instrument.sh [BUILD] PROJECT...: the explainer's instrumentation on
# real projects. Each PROJECT is a path to a clone (never modified: it is
# copied twice), optionally with its recipe: PATH@@CONFIGURE@@BUILD@@TEST
# (an empty part: guessed from the tree: CMake, autotools or a Makefile).
# For each: the plain copy is configured, built and tested; the other is
# configured, instrumented whole (bench/instrument: the explainer's own
# code), built, and tested without tracing. One line per project: files
# instrumented, statements left alone (opaque), files restored, build
# errors, whether the tests agree (status and per-test counts), slowdown.
BUILD=build
if [ $# -gt 0 ] && [ -x "$1/bench/instrument" ]; then BUILD=$1; shift; fi
cd "$(dirname "$0")/.." || exit 1
TOP=$(pwd)
BIN=$TOP/$BUILD/bench/instrument
# Rebuilt when stale (a runtime or instrumenter newer than the binary).
make -s BUILD="$BUILD" "$BUILD/bench/instrument" >&2 || { echo "cannot build $BUILD/bench/instrument" >&2; exit 2; }
if [ $# -eq 0 ]; then
	echo "no project given: bench/instrument.sh PROJECT... (paths of clones; see docs/FIELD.md)"
	exit 0
fi
W=${TMPDIR:-/tmp}/culprit-instrument.$$
mkdir -p "$W"
trap 'rm -rf "$W"' EXIT

now() { date +%s.%N; }

# The recipe a tree suggests.
guess() {
	if [ -f "$1/CMakeLists.txt" ] && [ ! -f "$1/configure.ac" ] && [ ! -f "$1/configure" ]; then
		echo 'cmake -S . -B _b -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null && ln -sf _b/compile_commands.json .'
		echo 'cmake --build _b -j2'
		echo 'cd _b && ctest'
	elif [ -f "$1/configure.ac" ] || [ -f "$1/configure" ]; then
		echo '{ [ -x configure ] || autoreconf -fi; } >/dev/null 2>&1 && ./configure >/dev/null'
		echo 'make -j2'
		echo 'make -j2 check'
	else
		echo 'true'
		echo 'make -j2'
		echo 'if make -n check >/dev/null 2>&1; then make check; else make test; fi'
	fi
}

# Per-test counts from what the suite printed (automake, ctest, TAP, ok/FAIL lines, gawk's summary).
counts() {
	grep -E '^# (PASS|FAIL|XFAIL|XPASS|SKIP|ERROR): |tests passed|^(ok|not ok) [0-9]|^(PASS|FAIL): |^[0-9]+ TESTS? FAILED|^ALL TESTS PASSED' "$1" |
		sed -E 's/[0-9.]+ sec//; s/Total Test time.*//' | sort | uniq -c | tr -s ' ' | tr '\n' ';'
}

printf '%-10s %6s %7s %8s %7s %6s %-14s %8s\n' project files opaque restored errors build tests slowdown
for spec in "$@"; do
	path=${spec%%@@*}
	name=$(basename "$path")
	rest=${spec#"$path"}
	g=$(guess "$path")
	conf=$(echo "$g" | sed -n 1p); bld=$(echo "$g" | sed -n 2p); tst=$(echo "$g" | sed -n 3p)
	if [ -n "$rest" ]; then
		rest=${rest#@@}; c=${rest%%@@*}; [ -n "$c" ] && conf=$c
		rest=${rest#"$c"}; rest=${rest#@@}; b=${rest%%@@*}; [ -n "$b" ] && bld=$b
		rest=${rest#"$b"}; rest=${rest#@@}; [ -n "$rest" ] && tst=$rest
	fi
	for side in plain inst; do
		rm -rf "$W/$side-$name"
		git clone -q --local --no-hardlinks "$path" "$W/$side-$name" 2>/dev/null || cp -a "$path" "$W/$side-$name"
		(cd "$W/$side-$name" && git submodule -q update --init 2>/dev/null; sh -c "$conf") > "$W/$side-$name.conf" 2>&1
	done
	# Plain: build, test.
	(cd "$W/plain-$name" && sh -c "$bld") > "$W/plain.build" 2>&1
	t0=$(now); (cd "$W/plain-$name" && sh -c "$tst") > "$W/plain.test" 2>&1; ps=$?; t1=$(now)
	# Instrumented: the explainer's instrumentation and build, then the same tests.
	"$BIN" "$W/inst-$name" "$bld" > "$W/inst.out" 2> "$W/inst.log"; is=$?
	line=$(grep '^files ' "$W/inst.out")
	files=$(echo "$line" | awk '{print $2}'); restored=$(echo "$line" | awk '{print $4}')
	opaque=$(echo "$line" | awk '{print $10}')
	errors=$(echo "$line" | awk '{print $12}')
	if [ "$is" = 0 ]; then
		t2=$(now); (cd "$W/inst-$name" && sh -c "$tst") > "$W/inst.test" 2>&1; ts=$?; t3=$(now)
		if [ "$ps" = "$ts" ] && [ "$(counts "$W/plain.test")" = "$(counts "$W/inst.test")" ]; then
			agree="agree(exit $ps)"
		else
			agree="DIFFER($ps/$ts)"
		fi
		slow=$(echo "$t0 $t1 $t2 $t3" | awk '{ p = $2 - $1; i = $4 - $3; printf "%.1fx", (p > 0 ? i / p : 0) }')
		build=ok
	else
		agree=-; slow=-; build=FAILED
	fi
	printf '%-10s %6s %7s %8s %7s %6s %-14s %8s\n' "$name" "${files:-0}" "${opaque:-0}" "${restored:-0}" "$errors" \
		"$build" "$agree" "$slow"
	sed -n 's/^/    /; /^    restored:\|^    not instrumented\|^    error:/p' "$W/inst.out"
	[ -n "$KEEP" ] && cp -r "$W" "$KEEP"
done
exit 0
