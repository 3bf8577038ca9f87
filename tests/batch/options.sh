#!/bin/sh
# Oracle options: --fail-pattern and --repeat (flaky configurations).
. "$TOP/tests/lib.sh"
. "$TOP/tests/fixtures/lib.sh"
set +e
cd "$T"

# A test that never exits non-zero: the failure is a line it prints.
fx_init "$T/pattern"
printf 'x=1\ny=1\n' > vals
cat > run-test.sh <<'SH'
#!/bin/sh
. ./vals
[ "$x" = 2 ] && echo "FAIL: overflow"
[ "$y" = 2 ] && echo "FAIL: underflow"
echo done
SH
chmod +x run-test.sh
fx_commit start good
printf 'x=2\ny=1\n' > vals
fx_commit "raise x" bad
cd "$T"
culprit_json "$T/pattern" --good good --bad bad --fail-pattern 'FAIL: (\w+)' -- ./run-test.sh
check "fail pattern: exit 0" [ "$RC" = 0 ]
check "fail pattern: the signature is the match" [ "$(jqf .signature)" = "match: overflow" ]
check "fail pattern: the change" [ "$(jqf '.failure_inducing[0].added[0]')" = "x=2" ]
culprit_json "$T/pattern" --good good --bad bad -- ./run-test.sh
check "without the pattern the test passes at bad" [ "$RC" = 2 ]

# A configuration whose repeated runs disagree is flaky, hence unresolved.
fx_init "$T/flaky"
fx_makefile
printf '#include <stdio.h>\nint main(void)\n{\n\tprintf("%%d\\n", 2 + 2);\n\treturn 0;\n}\n' > main.c
cat > run-test.sh <<SH
#!/bin/sh
# Alternates between pass and fail when the "wobbly" file exists.
n=\$(cat "$T/counter" 2>/dev/null || echo 0)
echo \$((n + 1)) > "$T/counter"
[ "\$(./prog)" = 4 ] || exit 1
if [ -f wobbly ] && [ \$((n % 2)) = 1 ]; then exit 3; fi
exit 0
SH
chmod +x run-test.sh
fx_commit start good
echo wobbly > wobbly
sed -i 's/2 + 2/2 + 3/' main.c
fx_commit "two changes" bad
cd "$T"
culprit_json "$T/flaky" --good good --bad bad --repeat 2 -- ./run-test.sh
check "repeat: exit 0" [ "$RC" = 0 ]
check "repeat: a flaky configuration is reported" [ "$(jqf .flaky)" -ge 1 ]
check "repeat: and named" [ "$(jqf '.flaky_configurations | length')" -ge 1 ]
check "repeat: the answer is the real change" [ "$(jqf '[.failure_inducing[].file] | join(",")')" = "main.c" ]
culprit_json "$T/flaky" --good good --bad bad --repeat 0 -- ./run-test.sh
check "repeat: 0 is refused" [ "$RC" = 2 ]
finish
