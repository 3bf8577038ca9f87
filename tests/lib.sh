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
check() { _cn=$1; shift; if "$@"; then ok "$_cn"; else fail "$_cn" "$*"; fi; }

# repo_state DIR: print everything culprit must never change in the user's repo.
repo_state() {
	( cd "$1" && git rev-parse HEAD 2>/dev/null; git symbolic-ref -q HEAD;
	  git for-each-ref --format='%(refname) %(objectname)';
	  git ls-files -s | git hash-object --stdin;
	  git status --porcelain=v1 --untracked-files=all --ignored | grep -v '^!! \.git' ;
	  find . -path ./.git -prune -o -type f -print0 | sort -z | xargs -0 sha1sum ) 2>/dev/null
}

finish() { exit $((FAILED > 0)); }

# fixture NAME: build tests/fixtures/NAME.sh into $T/NAME and print its path.
fixture() {
	rm -rf "$T/$1"
	FX_HOME=$T/home sh "$TOP/tests/fixtures/$1.sh" "$T/$1" >/dev/null 2>&1 || { echo "fixture $1 failed" >&2; return 1; }
	echo "$T/$1"
}

# culprit_json DIR ARGS...: run culprit --batch --format json --quiet in DIR;
# stdout in $T/out.json, stderr in $T/err, exit status in RC. Checks that
# the repository's state is unchanged (a failed check is reported as FAIL).
culprit_json() {
	_cd=$1; shift
	_before=$(repo_state "$_cd")
	(cd "$_cd" && "$CULPRIT" --batch --format json --quiet "$@") > "$T/out.json" 2> "$T/err"
	RC=$?
	_after=$(repo_state "$_cd")
	if [ "$_before" != "$_after" ]; then
		fail "repository untouched ($(basename "$_cd") $*)" "working tree, index, HEAD or refs changed"
	fi
	return 0
}

# jqf FILTER: evaluate a jq filter on the last JSON output.
jqf() { jq -r "$1" "$T/out.json"; }

# procs_under DIR: the processes whose working directory is inside DIR.
procs_under() {
	for _p in /proc/[0-9]*; do
		case "$(readlink "$_p/cwd" 2>/dev/null)" in
		"$1"/*) echo "${_p#/proc/}" ;;
		esac
	done
}
