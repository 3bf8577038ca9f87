# Sourced by the screen tests after tests/lib.sh, with SOCK set to a socket
# name of their own: a private tmux server (no status line) and the helpers
# that drive it.
command -v tmux >/dev/null || { fail "tmux" "tmux is not installed"; finish; }
conf=$T/tmux.conf
echo 'set -g status off' > "$conf"
tm() { tmux -L "$SOCK" -f "$conf" "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$T"' EXIT
# A session that lives as long as the test: the server never exits between
# two sessions (a new-session racing a server that shuts down fails on a busy machine).
tm new-session -d -s keep 'sleep 100000'
screen() { tm capture-pane -p -t w; }
# wait_for TEXT [SECONDS]: poll the screen until it shows TEXT. The bound
# is four times SECONDS: a loaded machine redraws late, and a text that
# comes returns at once.
wait_for() {
	_i=0
	while [ $_i -lt $((${2:-15} * 40)) ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	screen | sed 's/^/  | /'   # what was there instead
	return 1
}
# gone TEXT: the screen no longer shows TEXT (after a moment to redraw).
gone() {
	_i=0
	while [ $_i -lt 30 ]; do
		screen | grep -qF -- "$1" || return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	screen | sed 's/^/  | /'
	return 1
}
keys() { tm send-keys -t w "$@"; }
# until_ok CMD...: run CMD until it succeeds (a minute at most), for what
# a key changes on the screen some time later.
until_ok() {
	_i=0
	while [ $_i -lt 600 ]; do "$@" && return 0; sleep 0.1; _i=$((_i + 1)); done
	"$@"
}
# Kill the session "w" and wait until it is gone (a new one may take the name).
end_session() {
	tm kill-session -t w 2>/dev/null
	_i=0
	while tm has-session -t w 2>/dev/null && [ $_i -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
}
