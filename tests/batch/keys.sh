#!/bin/sh
# --dump-keymap and --keys: the effective bindings, the user's file, its errors.
. "$TOP/tests/lib.sh"
mkdir -p "$T/config/culprit"
export XDG_CONFIG_HOME="$T/config"
"$CULPRIT" --dump-keymap > "$T/vi" 2> "$T/err"
check "dump: exit 0" [ $? = 0 ]
check "dump: vi defaults" grep -q '^bind generic g g move-first$' "$T/vi"
check "dump: no warnings without a file" [ ! -s "$T/err" ]
"$CULPRIT" --keys emacs --dump-keymap > "$T/emacs"
check "dump: emacs defaults" grep -q '^bind generic <C-n> move-down$' "$T/emacs"
printf 'bind generic x step\nbind generic y nothing-at-all\nunbind generic s\n' > "$T/config/culprit/keymap"
"$CULPRIT" --dump-keymap > "$T/user" 2> "$T/err"
check "dump: the user's binding" grep -q '^bind generic x step$' "$T/user"
check "dump: unbind applies" sh -c "! grep -q '^bind generic s step$' '$T/user'"
check "dump: a bad line names its file and line" grep -q "^$T/config/culprit/keymap:2: unknown action 'nothing-at-all'$" "$T/err"
printf 'set keys emacs\n' > "$T/config/culprit/keymap"
"$CULPRIT" --dump-keymap > "$T/style"
check "dump: 'set keys emacs' in the file" grep -q '^bind generic <C-n> move-down$' "$T/style"
"$CULPRIT" --keys vi --dump-keymap > "$T/style"
check "dump: --keys wins over the file" grep -q '^bind generic j move-down$' "$T/style"
"$CULPRIT" --keys qwerty --dump-keymap 2> "$T/err"
check "--keys: a bad style is exit 2" [ $? = 2 ]
finish
