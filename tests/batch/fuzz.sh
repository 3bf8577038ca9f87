#!/bin/sh
# The libFuzzer targets (make fuzz), each run a fixed number of times over
# its seed corpus in tests/fuzz/NAME/ (new inputs go to a scratch corpus, not
# the tree). Only where clang with libFuzzer is installed (scripts/deps.sh
# installs it); a longer run: make fuzz-run FUZZ_SECONDS=600.
. "$TOP/tests/lib.sh"
set +e
cc=${FUZZ_CC:-/usr/lib/llvm-14/bin/clang}
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$T/probe.c"
if ! "$cc" -fsanitize=fuzzer,address -o "$T/probe" "$T/probe.c" 2> /dev/null; then
	echo "note: no clang with libFuzzer ($cc): fuzz targets not run"
	exit 0
fi
if ! (cd "$TOP" && unset MAKEFLAGS MFLAGS MAKELEVEL && make -s fuzz FUZZ_CC="$cc" > "$T/build.log" 2>&1); then
	fail "make fuzz" "$(tail -5 "$T/build.log")"
	finish
fi
ok "make fuzz builds the targets"
for t in keymap suite json trace tmeta instr; do
	runs=20000
	[ "$t" = instr ] && runs=150   # libclang parses every input
	mkdir -p "$T/corpus/$t"
	"$TOP/build-fuzz/fuzz/fuzz_$t" -runs=$runs -seed=1 -rss_limit_mb=2048 -artifact_prefix="$T/crash-$t-" \
		"$T/corpus/$t" "$TOP/tests/fuzz/$t" > "$T/$t.log" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		ok "fuzz $t: $runs runs from tests/fuzz/$t"
	else
		fail "fuzz $t" "exit $rc: $(grep -E 'ERROR|runtime error|SUMMARY' "$T/$t.log" | head -3)"
	fi
done
finish
