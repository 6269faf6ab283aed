#!/bin/sh
# A throwaway PostgreSQL server for the test suite (`make pg`, `make pg-stop`).
#
#   sh scripts/pg-test-server.sh start   # install if needed, init, start, create hookwise_test
#   sh scripts/pg-test-server.sh stop
#   sh scripts/pg-test-server.sh status
#
# No root and no systemd needed to run it. The server binaries come from Debian's `postgresql`
# package (apt-get installs it when missing, if we are root). Layout under $HOOKWISE_PG_DIR:
#   data/  the cluster (trust auth, 127.0.0.1:$HOOKWISE_PG_PORT, no other interface)
#   run/   its unix socket     server.log   its log     url   the SQLAlchemy URL of hookwise_test
# PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user (or
# `nobody`) and lives under /tmp by default, since /root is not readable by that user.
#
# Idempotent: a running server on the right port is left alone; a stale postmaster.pid (crash,
# reboot) is removed and the server restarted. When the binaries are missing and cannot be
# installed, it prints why and exits 0 (the tests skip), or 1 under CI=true (the tests would fail).
# HOOKWISE_PG_BINDIR names the server binaries' directory, if not Debian's /usr/lib/postgresql/N/bin.
set -eu

PORT=${HOOKWISE_PG_PORT:-55432}
DB=hookwise_test
UID_NOW=$(id -u)
if [ -z "${HOOKWISE_PG_DIR:-}" ]; then
    if [ "$UID_NOW" = 0 ]; then
        HOOKWISE_PG_DIR=/tmp/hookwise-pg
    else
        HOOKWISE_PG_DIR=${XDG_CACHE_HOME:-$HOME/.cache}/hookwise/pg
    fi
fi
ROOT=$HOOKWISE_PG_DIR
PGDATA_DIR=$ROOT/data
SOCK=$ROOT/run
LOG=$ROOT/server.log
URL_FILE=$ROOT/url
LC_ALL=C
export LC_ALL

say() { printf 'pg: %s\n' "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }

in_ci() {
    case "${CI:-}" in '' | 0 | false | FALSE | False | no | NO) return 1 ;; *) return 0 ;; esac
}

# Binaries missing and not installable: a clear message; fatal only under CI.
unavailable() {
    say "$*"
    if in_ci; then
        say "CI=${CI}: the PostgreSQL tests cannot run, failing now"
        exit 1
    fi
    say "the PostgreSQL tests will be skipped (install Debian's postgresql package, then make pg)"
    rm -f "$URL_FILE"
    exit 0
}

# The newest /usr/lib/postgresql/N/bin with a server, or the directory of `postgres` on PATH.
find_bindir() {
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5,5nr); do
        if [ -x "$d/postgres" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
            echo "$d"
            return 0
        fi
    done
    p=$(command -v postgres 2>/dev/null || true)
    if [ -n "$p" ]; then
        d=$(dirname "$p")
        if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
            echo "$d"
            return 0
        fi
    fi
    return 1
}

apt_install() {
    export DEBIAN_FRONTEND=noninteractive
    aptlog=$(mktemp)
    set -- -y -q --no-install-recommends --no-upgrade -o DPkg::Lock::Timeout=300 install "$@"
    if ! ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1; then
        apt-get -q update >>"$aptlog" 2>&1 || true
    fi
    if apt-get "$@" </dev/null >>"$aptlog" 2>&1 ||
        { apt-get -q update >>"$aptlog" 2>&1 && apt-get "$@" </dev/null >>"$aptlog" 2>&1; }; then
        rm -f "$aptlog"
        return 0
    fi
    tail -n 15 "$aptlog" >&2
    rm -f "$aptlog"
    return 1
}

ensure_binaries() {
    if [ -n "${HOOKWISE_PG_BINDIR:-}" ]; then
        BINDIR=$HOOKWISE_PG_BINDIR
        [ -x "$BINDIR/postgres" ] && [ -x "$BINDIR/initdb" ] && [ -x "$BINDIR/pg_ctl" ] ||
            unavailable "HOOKWISE_PG_BINDIR=$BINDIR has no postgres, initdb and pg_ctl"
        return 0
    fi
    if BINDIR=$(find_bindir); then return 0; fi
    if [ "$UID_NOW" != 0 ]; then
        unavailable "no PostgreSQL server binaries (postgres, initdb, pg_ctl) and not root, so apt-get cannot install them"
    fi
    command -v apt-get >/dev/null 2>&1 || unavailable "no PostgreSQL server binaries and no apt-get"
    say "installing Debian's postgresql with apt-get (server binaries missing)"
    apt_install postgresql || unavailable "apt-get install postgresql failed (no network or no mirror?)"
    BINDIR=$(find_bindir) || unavailable "postgresql installed but no server binaries found under /usr/lib/postgresql"
}

# The unprivileged account that owns and runs the cluster.
pick_user() {
    if [ "$UID_NOW" != 0 ]; then
        PGUSER_NAME=$(id -un)
        return 0
    fi
    # An existing cluster keeps its owner (its superuser role has the same name).
    owner=$(stat -c %U "$PGDATA_DIR" 2>/dev/null || true)
    if [ -n "$owner" ] && [ "$owner" != root ] && [ "$owner" != UNKNOWN ]; then
        PGUSER_NAME=$owner
    elif id -u postgres >/dev/null 2>&1; then
        PGUSER_NAME=postgres
    elif id -u nobody >/dev/null 2>&1; then
        PGUSER_NAME=nobody
    else
        die "running as root and neither a postgres nor a nobody user exists"
    fi
}

# Run a command as the cluster's owner, from / (root's cwd may be unreadable to it).
as_owner() {
    if [ "$UID_NOW" != 0 ]; then
        (cd / && "$@")
    elif command -v setpriv >/dev/null 2>&1; then
        # util-linux, no PAM session (runuser's can be refused in containers)
        (cd / && setpriv --reuid="$PGUSER_NAME" --regid="$(id -g "$PGUSER_NAME")" --init-groups -- "$@")
    elif command -v runuser >/dev/null 2>&1; then
        (cd / && runuser -u "$PGUSER_NAME" -- "$@")
    else
        cmd=""
        for a in "$@"; do
            cmd="$cmd '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"
        done
        (cd / && su -s /bin/sh "$PGUSER_NAME" -c "$cmd")
    fi
}

pid_of_server() {
    [ -f "$PGDATA_DIR/postmaster.pid" ] || return 1
    pid=$(sed -n 1p "$PGDATA_DIR/postmaster.pid")
    case "$pid" in '' | *[!0-9]*) return 1 ;; esac
    kill -0 "$pid" 2>/dev/null || return 1
    # The pid may have been reused by another process after a crash or a reboot.
    if [ -r "/proc/$pid/stat" ]; then
        case "$(cat "/proc/$pid/comm")" in postgres | postmaster) ;; *) return 1 ;; esac
        # A killed postmaster that nobody reaped yet (a zombie) is not running either.
        case "$(sed 's/^.*) //' "/proc/$pid/stat")" in Z* | X*) return 1 ;; esac
    fi
    echo "$pid"
}

server_port() { sed -n 4p "$PGDATA_DIR/postmaster.pid" 2>/dev/null || true; }

ready() { "$BINDIR/pg_isready" -q -h 127.0.0.1 -p "$PORT" -U "$PGUSER_NAME" -d postgres -t 3 >/dev/null 2>&1; }

psql_q() {
    "$BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -U "$PGUSER_NAME" -d postgres "$@"
}

init_cluster() {
    if [ -f "$PGDATA_DIR/PG_VERSION" ]; then
        have=$(cat "$PGDATA_DIR/PG_VERSION")
        want=$("$BINDIR/postgres" --version | sed 's/[^0-9]*\([0-9][0-9]*\).*/\1/')
        [ "$have" = "$want" ] && return 0
        say "cluster is PostgreSQL $have, server is $want: re-creating the throwaway cluster"
        rm -rf "$PGDATA_DIR"
    fi
    say "initdb $PGDATA_DIR (owner $PGUSER_NAME)"
    as_owner "$BINDIR/initdb" -D "$PGDATA_DIR" -U "$PGUSER_NAME" --auth=trust --encoding=UTF8 \
        --no-locale --no-sync >"$ROOT/initdb.log" 2>&1 || {
        tail -n 20 "$ROOT/initdb.log" >&2
        die "initdb failed (log: $ROOT/initdb.log)"
    }
    printf "include_if_exists = 'hookwise.conf'\n" >>"$PGDATA_DIR/postgresql.conf"
}

write_conf() {
    sock_q=$(printf '%s' "$SOCK" | sed "s/'/''/g")
    cat >"$PGDATA_DIR/hookwise.conf" <<EOF
# written by scripts/pg-test-server.sh at every start; a throwaway test server
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$sock_q'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
}

start() {
    ensure_binaries
    pick_user
    mkdir -p "$ROOT"
    if pid=$(pid_of_server); then
        if [ "$(server_port)" = "$PORT" ] && ready; then
            ensure_db
            return 0
        fi
        say "server (pid $pid) is not answering on port $PORT: restarting it"
        as_owner "$BINDIR/pg_ctl" -D "$PGDATA_DIR" -m fast -w stop >/dev/null 2>&1 ||
            kill -9 "$pid" 2>/dev/null || true
    fi
    if [ -f "$PGDATA_DIR/postmaster.pid" ] && ! pid_of_server >/dev/null; then
        say "removing stale $PGDATA_DIR/postmaster.pid"
        rm -f "$PGDATA_DIR/postmaster.pid" "$SOCK"/.s.PGSQL.*.lock
    fi
    mkdir -p "$SOCK"
    if [ "$UID_NOW" = 0 ]; then
        chown "$PGUSER_NAME" "$ROOT"
        chmod 0755 "$ROOT"
        [ ! -d "$PGDATA_DIR" ] || chown -R "$PGUSER_NAME" "$PGDATA_DIR"
        chown -R "$PGUSER_NAME" "$SOCK"
        touch "$LOG" && chown "$PGUSER_NAME" "$LOG"
    fi
    init_cluster
    write_conf
    [ "$UID_NOW" != 0 ] || chown "$PGUSER_NAME" "$PGDATA_DIR/hookwise.conf"
    say "starting PostgreSQL on 127.0.0.1:$PORT (data $PGDATA_DIR, log $LOG)"
    if ! as_owner "$BINDIR/pg_ctl" -D "$PGDATA_DIR" -l "$LOG" -w -t 60 start >/dev/null 2>&1; then
        tail -n 20 "$LOG" >&2
        die "PostgreSQL did not start (log: $LOG; is port $PORT taken? set HOOKWISE_PG_PORT)"
    fi
    ready || die "PostgreSQL started but does not answer on 127.0.0.1:$PORT"
    ensure_db
}

ensure_db() {
    if [ "$(psql_q -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != 1 ]; then
        psql_q -c "CREATE DATABASE $DB" 2>/dev/null ||
            [ "$(psql_q -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'")" = 1 ] ||
            die "could not create database $DB"
        say "created database $DB"
    fi
    url="postgresql+psycopg://$PGUSER_NAME@127.0.0.1:$PORT/$DB"
    if [ "$(cat "$URL_FILE" 2>/dev/null || true)" != "$url" ]; then
        printf '%s\n' "$url" >"$URL_FILE.tmp"
        chmod 0644 "$URL_FILE.tmp"
        mv -f "$URL_FILE.tmp" "$URL_FILE"
    fi
    say "ready: $url"
}

stop() {
    if ! BINDIR=$(find_bindir); then
        say "no PostgreSQL binaries: nothing to stop"
        return 0
    fi
    pick_user
    if pid_of_server >/dev/null; then
        as_owner "$BINDIR/pg_ctl" -D "$PGDATA_DIR" -m fast -w stop >/dev/null
        say "stopped the test server in $PGDATA_DIR"
    else
        say "no test server running in $PGDATA_DIR"
    fi
}

status() {
    if pid=$(pid_of_server); then
        say "running: pid $pid, port $(server_port), data $PGDATA_DIR, url $(cat "$URL_FILE" 2>/dev/null || echo '?')"
    else
        say "not running (data $PGDATA_DIR)"
        return 3
    fi
}

case "${1:-start}" in
start) start ;;
stop) stop ;;
status) status ;;
*)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac
