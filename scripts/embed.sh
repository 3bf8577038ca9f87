#!/bin/sh
# embed.sh FILE NAME: print FILE as a C string constant named NAME.
set -e
printf 'static const char %s[] =\n' "$2"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/\\n"/' "$1"
printf ';\n'
