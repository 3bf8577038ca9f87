#!/bin/sh
# Run every test: unit binaries, then batch and screen scripts. Ends with "N passed, N failed".
BUILD=${1:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
export TOP BUILD
cd "$TOP" || exit 2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
runone() {
	# A program that dies without reporting counts as one failure.
	out=$("$@" 2>&1); rc=$?
	printf '%s\n' "$out" | sed 's/^/  /' >&2
	printf '%s\n' "$out" | grep -E '^(ok|FAIL) ' >> "$log"
	if [ $rc -ne 0 ] && ! printf '%s\n' "$out" | grep -q '^FAIL '; then
		echo "FAIL $*: exited $rc without reporting a failure" >> "$log"
		echo "FAIL $*: exited $rc" >&2
	fi
}
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	echo "== $t" >&2
	runone "$t"
done
for t in tests/batch/*.sh tests/screen/*.sh; do
	[ -f "$t" ] || continue
	echo "== $t" >&2
	runone sh "$t"
done
grep '^FAIL ' "$log" >&2
p=$(grep -c '^ok ' "$log"); f=$(grep -c '^FAIL ' "$log")
echo "$p passed, $f failed"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
