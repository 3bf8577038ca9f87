#!/bin/sh
# The man pages stay true: every option of --help, every command, every
# workbench ':' command and every default binding of both keymaps is in them.
. "$TOP/tests/lib.sh"
set +e
man1=$TOP/man/culprit.1
man5=$TOP/man/culprit-keymap.5
# roff's \- as a plain -
sed 's/\\-/-/g' "$man1" > "$T/culprit.1"
sed 's/\\-/-/g' "$man5" > "$T/culprit-keymap.5"

"$CULPRIT" --help > "$T/help"
missing=
for o in $(grep -o -- '--[a-z][a-z-]*' "$T/help" | sort -u); do
	grep -q -- "$o" "$T/culprit.1" || missing="$missing $o"
done
check "culprit.1: every option of --help$missing" [ -z "$missing" ]

missing=
for c in $(sed -n 's/^ *culprit \([a-z][a-z]*\) .*/\1/p; s/^ *culprit \([a-z][a-z]*\)$/\1/p' "$T/help" | sort -u); do
	grep -q "^\.B culprit $c " "$T/culprit.1" || missing="$missing $c"
	# each of its options
	for o in $(grep "culprit $c " "$T/help" | grep -o -- '--[a-z][a-z-]*'); do
		sed -n "/^\.B culprit $c /p" "$T/culprit.1" | grep -q -- "$o" || missing="$missing $c$o"
	done
done
check "culprit.1: every command and its options under COMMANDS$missing" [ -z "$missing" ]

# The workbench's ':' commands, as its command dispatcher knows them.
missing=
for c in $(sed -n 's/.*!strcmp(line, "\([a-z]*\)").*/\1/p' "$TOP/tui/workbench.c" | sort -u); do
	grep -q ":$c" "$T/culprit.1" || missing="$missing culprit.1::$c"
	grep -q ":$c" "$T/culprit-keymap.5" || missing="$missing culprit-keymap.5::$c"
done
for s in timeout build-timeout; do
	grep -q ":set $s" "$T/culprit.1" || missing="$missing culprit.1::set-$s"
	grep -q ":set $s" "$T/culprit-keymap.5" || missing="$missing culprit-keymap.5::set-$s"
done
check "man pages: every ':' command$missing" [ -z "$missing" ]

# Every default binding of both styles, as --dump-keymap prints it.
missing=
for style in vi emacs; do
	XDG_CONFIG_HOME=$T/none HOME=$T/none "$CULPRIT" --keys $style --dump-keymap | grep '^bind ' > "$T/$style"
	while IFS= read -r line; do
		grep -qxF -- "$line" "$T/culprit-keymap.5" || missing="$missing [$style: $line]"
	done < "$T/$style"
done
check "culprit-keymap.5: every default binding$missing" [ -z "$missing" ]

# Every action of the keymap is described in culprit-keymap.5 (and its help is the page's).
missing=
for a in $(awk '{print $NF}' "$T/vi" | sort -u); do
	grep -q "^\.B $a\$" "$T/culprit-keymap.5" || missing="$missing $a"
done
check "culprit-keymap.5: every action$missing" [ -z "$missing" ]

# The export file the page names is the one the workbench writes.
check "culprit.1: the export's file names" grep -q 'report.md ", " report.json' "$man1"
finish
