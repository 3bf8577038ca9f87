#!/bin/sh
# Install the Debian packages culprit needs, when any is missing.
PKGS="build-essential pkg-config git tmux libncurses-dev libgit2-dev libz3-dev libpcre2-dev libclang-14-dev clang-14 libclang-rt-14-dev libsqlite3-dev bear jq bc sqlite3"
missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing" >&2
SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq && $SUDO apt-get install -y -qq $missing >/dev/null
