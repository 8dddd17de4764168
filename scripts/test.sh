#!/usr/bin/env bash
# The test command (`make test`): installs the pinned dynalite and DuckDB
# (testdata/peers, used by tests through internal/duckdbtest), starts dynalite on a
# free loopback port, checks formatting and vet, runs the Go tests with the
# race detector against it, and always stops the server.
#
#   scripts/test.sh [go test flags and packages...]   e.g. scripts/test.sh -run TestLoad -count=1
#
# Extra arguments go to `go test -race ./...` unchanged. The exit status is
# go test's (or non-zero when setup, gofmt or go vet fails first).
#
# Environment:
#   DDBSQL_TEST_DYNALITE_TIMEOUT  seconds to wait for the server (default 30)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

dyn_dir="testdata/dynalite"
timeout_s="${DDBSQL_TEST_DYNALITE_TIMEOUT:-30}"

die() {
	echo "scripts/test.sh: $*" >&2
	exit 1
}

for tool in go node npm; do
	command -v "$tool" >/dev/null 2>&1 ||
		die "'$tool' not found on PATH; the tests need Go, Node.js (>= 20) and npm to run dynalite and DuckDB"
done

# go test -race needs cgo and so a C compiler (Go turns cgo off by itself when
# it finds none).
cc="$(go env CC)"
if [[ "$(go env CGO_ENABLED)" != 1 ]] || ! command -v "${cc%% *}" >/dev/null 2>&1; then
	die "go test -race needs cgo and a C compiler: CGO_ENABLED=$(go env CGO_ENABLED), CC='$cc'; install gcc (Debian: apt-get install gcc) and do not set CGO_ENABLED=0"
fi

# --- install dynalite (skipped when node_modules matches the lockfile) -------
# npm ci writes node_modules from package-lock.json exactly. Install scripts
# are not run: dynalite's in-memory store is pure JavaScript (classic-level's
# native addon is only for on-disk stores, and server.js copes without it).
stamp="$dyn_dir/node_modules/.ddbsql-installed"
want_stamp="$(cat "$dyn_dir/package.json" "$dyn_dir/package-lock.json"; node --version)"
if [[ ! -f "$dyn_dir/node_modules/dynalite/package.json" || ! -f "$stamp" || "$(cat "$stamp")" != "$want_stamp" ]]; then
	echo "scripts/test.sh: installing dynalite (npm ci)" >&2
	npm ci --prefix "$dyn_dir" --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null ||
		die "npm ci in $dyn_dir failed"
	printf '%s' "$want_stamp" >"$stamp"
fi

# --- install DuckDB (test-only peer; skipped when node_modules matches) ------
# internal/duckdbtest runs DuckDB through its Node API. Its native binding is
# a prebuilt optional dependency (@duckdb/node-bindings-<platform>), so no
# install script needs to run here either.
peers_dir="testdata/peers"
stamp="$peers_dir/node_modules/.ddbsql-installed"
want_stamp="$(cat "$peers_dir/package.json" "$peers_dir/package-lock.json"; node --version)"
if [[ ! -f "$peers_dir/node_modules/@duckdb/node-api/package.json" || ! -f "$stamp" || "$(cat "$stamp")" != "$want_stamp" ]]; then
	echo "scripts/test.sh: installing DuckDB's Node API (npm ci)" >&2
	npm ci --prefix "$peers_dir" --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null ||
		die "npm ci in $peers_dir failed"
	printf '%s' "$want_stamp" >"$stamp"
fi

# --- start the server ---------------------------------------------------------
tmp="$(mktemp -d "${TMPDIR:-/tmp}/ddbsql-test.XXXXXX")"
server_pid=""

cleanup() {
	local status=$?
	# Closing fd 3 closes the server's stdin, which stops it even if the
	# signal below is lost; then make sure.
	exec 3>&- 2>/dev/null || true
	if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
		kill -TERM "$server_pid" 2>/dev/null || true
		for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
			kill -0 "$server_pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The server's stdin is a FIFO whose only writer is this shell (fd 3): if this
# script dies, even by SIGKILL, the server sees end of file and exits. Every
# command started after this point gets `3>&-` so that no child (go test,
# which may outlive a killed script) keeps the server alive.
mkfifo "$tmp/stdin"
: >"$tmp/stdout"
node "$dyn_dir/server.js" <"$tmp/stdin" >"$tmp/stdout" 2>"$tmp/stderr" &
server_pid=$!
exec 3>"$tmp/stdin"

port=""
deadline=$((SECONDS + timeout_s))
while :; do
	if read -r word value <"$tmp/stdout" && [[ "$word" == LISTENING && -n "$value" ]]; then
		port="$value"
		break
	fi
	if ! kill -0 "$server_pid" 2>/dev/null; then
		wait "$server_pid" 2>/dev/null && rc=0 || rc=$?
		server_pid=""
		echo "scripts/test.sh: dynalite exited (status $rc) before it was ready; its output:" >&2
		cat "$tmp/stdout" "$tmp/stderr" >&2
		exit 1
	fi
	if ((SECONDS >= deadline)); then
		echo "scripts/test.sh: dynalite did not print LISTENING within ${timeout_s}s; its output:" >&2
		cat "$tmp/stdout" "$tmp/stderr" >&2
		exit 1
	fi
	sleep 0.05 3>&-
done

export DDBSQL_TEST_DYNALITE="http://127.0.0.1:$port"
echo "scripts/test.sh: dynalite listening on $DDBSQL_TEST_DYNALITE" >&2

# --- format and vet ------------------------------------------------------------
# Every .go file outside testdata, node_modules and hidden directories (the
# same files the go command sees).
unformatted="$({ find . \( -name testdata -o -name node_modules -o -name vendor -o -name '.?*' -o -name '_*' \) -prune -o -name '*.go' -type f -print0 |
	xargs -0 -r gofmt -l; } 3>&-)"
if [[ -n "$unformatted" ]]; then
	echo "scripts/test.sh: gofmt -l lists these files (run gofmt -w):" >&2
	echo "$unformatted" >&2
	exit 1
fi

go vet ./... 3>&-

# --- test ------------------------------------------------------------------------
# go test's default of 10 minutes per package is too tight for the CLI's
# race-instrumented subprocess tests on a busy 2-core machine; a hang is still
# caught well inside CI's limit.
status=0
go test -race -timeout 30m ./... "$@" 3>&- || status=$?
exit "$status"
