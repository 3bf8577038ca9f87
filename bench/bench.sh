#!/bin/sh
# Run every benchmark: the compiled ones (build/bench/*) and the scripts here.
BUILD=${1:-build}
cd "$(dirname "$0")/.." || exit 1
for b in "$BUILD"/bench/*; do
	[ -x "$b" ] || continue
	echo "== $(basename "$b")"
	"$b"
	echo
done
for s in bench/*.sh; do
	[ "$s" = bench/bench.sh ] && continue
	echo "== $(basename "$s" .sh)"
	sh "$s" "$BUILD"
	echo
done
