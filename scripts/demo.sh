#!/bin/sh
# demo.sh: build the demo repository (once) and explain its failing test:
# the workbench on a terminal, the batch report otherwise.
# CULPRIT_DEMO_DIR chooses where the demo repository lives.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${CULPRIT_DEMO_DIR:-${TMPDIR:-/tmp}/culprit-demo}
if [ ! -d "$dir/.git" ]; then
	sh "$top/scripts/demo-repo.sh" "$dir"
	echo "demo repository: $dir" >&2
fi
cd "$dir"
# On a terminal the workbench opens; otherwise (or with DEMO_BATCH=1) the batch report.
batch=--batch
[ -t 0 ] && [ -t 1 ] && [ -z "${DEMO_BATCH:-}" ] && batch=
echo "\$ culprit --good v1.0 --bad HEAD --build 'make -s' $batch -- ./tests/run.sh t3" >&2
exec "$top/build/culprit" --good v1.0 --bad HEAD --build 'make -s' $batch "$@" -- ./tests/run.sh t3
