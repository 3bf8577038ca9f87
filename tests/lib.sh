# Shared helpers for shell tests: source it, then call ok/fail per case.
# Each case prints "ok NAME" or "FAIL NAME: why"; tests/run.sh counts them.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-build}
CULPRIT=${CULPRIT:-$TOP/$BUILD/culprit}
T=$(mktemp -d "${TMPDIR:-/tmp}/culprit-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
FAILED=0

ok() { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; FAILED=$((FAILED + 1)); }
# check NAME CONDITION-COMMAND...: run the command, ok if it succeeds.
check() { n=$1; shift; if "$@"; then ok "$n"; else fail "$n" "$*"; fi; }

# repo_state DIR: print everything culprit must never change in the user's repo.
repo_state() {
	( cd "$1" && git rev-parse HEAD 2>/dev/null; git symbolic-ref -q HEAD;
	  git for-each-ref --format='%(refname) %(objectname)';
	  git ls-files -s | git hash-object --stdin;
	  git status --porcelain=v1 --untracked-files=all --ignored | grep -v '^!! \.git' ;
	  find . -path ./.git -prune -o -type f -print0 | sort -z | xargs -0 sha1sum ) 2>/dev/null
}

finish() { exit $((FAILED > 0)); }
