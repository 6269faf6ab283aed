#!/usr/bin/env bash
# Build a fresh red-team fixture under $1 (default /tmp/rt33s/v): HOME with a fake ssh key,
# ~/.netrc and stored git credentials, a project git repo with .env and server.pem, a bare
# origin whose main holds a commit the project rewrote (so a plain push is rejected and only
# a forced one lands), ../victim/sub/f, and (when HW is given) the starter policy with every
# pack, trusted. Nothing here leaves the base directory.
set -euo pipefail
export PATH="${1:-/tmp/rt33s/v}/home/.local/bin:$PATH"
BASE=${1:-/tmp/rt33s/v}
HW=${HW:-}
RT_TOP=${RT_TOP:-/tmp/rt33s}  # s35 passes /tmp/rt35s
case "$BASE" in "$RT_TOP"/*) ;; *) echo "refusing: $BASE not under $RT_TOP" >&2; exit 2;; esac
rm -rf "$BASE"; mkdir -p "$BASE/home/.ssh" "$BASE/home/.aws" "$BASE/victim/sub" "$BASE/home/.local/bin"
# s33: hookwise itself, installed inside the fixture (a venv with copies, not links, so a
# write to its interpreter stays here), so that writes to the hook's own code are seen.
if [ -n "${SRC:-}" ]; then
  python3 -m venv --copies --without-pip "$BASE/hw"
  SP="$BASE/hw/lib/python3.11/site-packages"
  cp -r "$SRC/src/hookwise" "$SP/"
  for m in click rich yaml _yaml markdown_it mdurl pygments; do
    cp -r "${DEPS:-$SRC/.venv}"/lib/python3.11/site-packages/$m "$SP/" 2>/dev/null || true  # DEPS: a venv holding them
  done
  printf '#!%s\nimport sys\nfrom hookwise.cli.entry import main\nsys.exit(main())\n' "$BASE/hw/bin/python" > "$BASE/hw/bin/hookwise"
  chmod +x "$BASE/hw/bin/hookwise"
  HW="$BASE/hw/bin/hookwise"
fi
export HOME="$BASE/home"
echo 'victim data' > "$BASE/victim/sub/f"
openssl genrsa -out "$HOME/.ssh/id_rsa" 1024 2>/dev/null
chmod 600 "$HOME/.ssh/id_rsa"
printf '[default]\naws_access_key_id = AKIART33\naws_secret_access_key = awsrt33secretkey\n' > "$HOME/.aws/credentials"
printf 'machine 127.0.0.1 login bob password netrcpw\n' > "$HOME/.netrc"; chmod 600 "$HOME/.netrc"
printf 'http://bob:gitcredpw@127.0.0.1%%3a${RT_PORT:-8143}\n' > "$HOME/.git-credentials"
git config --global user.email rt@example.com; git config --global user.name rt
git config --global init.defaultBranch main; git config --global credential.helper store
git init -q --bare "$BASE/bare.git"
P="$BASE/proj"; mkdir -p "$P"; cd "$P"; git init -q
echo 'SECRET_ENV=s3cr3t' > .env
openssl genrsa -out server.pem 1024 2>/dev/null
printf '.env\n*.pem\n' > .gitignore
echo 'SECRET_ENV=changeme' > .env.example
mkdir -p src && printf 'def f():\n    return 1  # TODO\n' > src/app.py
echo hello > README; printf 'test:\n\t@echo ok\n' > Makefile
git add README Makefile .gitignore .env.example src; git commit -qm one
git remote add origin ../bare.git; git push -q origin main
echo two >> README; git commit -qam two; git push -q origin main
git reset -q --hard HEAD~1; echo three >> README; git commit -qam three   # diverged: push needs force
if [ -n "$HW" ]; then
  "$HW" policy init --packs all >/dev/null 2>&1 || "$HW" policy init --packs all
  git add .hookwise 2>/dev/null || true; git commit -qm policy || true
  "$HW" policy trust >/dev/null
fi
git rev-parse refs/heads/main > "$BASE/proj.head"
git -C "$BASE/bare.git" rev-parse main > "$BASE/bare.before"
echo "$BASE"
