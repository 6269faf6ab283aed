"""Every way the agent could switch the guard off from inside, run as a real shell command
under ``hookwise run``: each must fail, and every guarded file must hash the same after.

A script prints SESSION first (it ran, confined) and BROKEN only when its attack succeeded.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.run.conftest import HOOKWISE, World, needs_namespaces

pytestmark = needs_namespaces

C = '"$HOME/.config/hookwise"'
LOG = '"$HOME/.local/state/hookwise/audit.jsonl"'
PY = "python3 -c"

ATTACKS: dict[str, str] = {
    "rm the user policy": f"rm -f {C}/policy.yaml && echo BROKEN",
    "rm -rf the config dir": f"rm -rf {C} && echo BROKEN",
    "rm the project policy": "rm -f .hookwise/policy.yaml && echo BROKEN",
    "mv the trust store away": f"mv {C}/trust.json /tmp/t.json && echo BROKEN",
    "cp over the trust store": f"cp /etc/hostname {C}/trust.json && echo BROKEN",
    "redirect over the policy": f"echo 'version: 1' > {C}/policy.yaml && echo BROKEN",
    "python computed path": (
        f"{PY} \"import os; p=os.path.expanduser('~')+'/.con'+'fig/hook'+'wise/policy.yaml'; "
        "open(p,'w').write('version: 1')\" && echo BROKEN"
    ),
    "python computed project path": (
        f"{PY} \"open('.hook'+'wise/policy.yaml','w').write('version: 1')\" && echo BROKEN"
    ),
    "python os.replace": (
        f"{PY} \"import os; open('/tmp/evil','w').write('x'); "
        "os.replace('/tmp/evil', '.hookwise/policy.yaml')\" && echo BROKEN"
    ),
    "sort -o the trust store": f"sort -o {C}/trust.json /dev/null && echo BROKEN",
    "truncate the policy": "truncate -s0 .hookwise/policy.yaml && echo BROKEN",
    "sed -i the policy": "sed -i 's/deny/allow/' .hookwise/policy.yaml && echo BROKEN",
    "ln -sf over the policy": "ln -sf /dev/null .hookwise/policy.yaml && echo BROKEN",
    "symlink then truncate": (
        f'ln -s {C}/policy.yaml "$TMPDIR_/l" && truncate -s0 "$TMPDIR_/l" && echo BROKEN'
    ),
    "mkfifo in place of the audit log": f"rm -f {LOG}; mkfifo {LOG} && echo BROKEN",
    "symlink in place of the audit log": f"ln -sf /dev/stdout {LOG} && echo BROKEN",
    "truncate the audit log": f"( : > {LOG} ) && echo BROKEN",
    "create policy.local.yaml": "echo 'version: 1' > .hookwise/policy.local.yaml && echo BROKEN",
    "create .claude/settings.local.json": (
        "echo '{\"disableAllHooks\": true}' > .claude/settings.local.json && echo BROKEN"
    ),
    "create a project .gemini/settings.json": (
        "mkdir -p .gemini && echo '{}' > .gemini/settings.json && echo BROKEN"
    ),
    "create a project .codex/config.toml": (
        "mkdir -p .codex && echo '[features]' > .codex/config.toml && echo BROKEN"
    ),
    "write the user Claude settings": "echo '{}' > \"$HOME/.claude/settings.json\" && echo BROKEN",
    "write Gemini trusted folders": (
        'echo \'{"/": "TRUST_FOLDER"}\' > "$HOME/.gemini/trustedFolders.json" && echo BROKEN'
    ),
    "write the Codex config": "echo 'x' >> \"$HOME/.codex/config.toml\" && echo BROKEN",
    "overwrite the snapshot": (
        'echo x > "$HOME/.local/share/hookwise/hook.snapshot" && echo BROKEN'
    ),
    "overwrite the launcher": 'echo x > "$HOME/.local/share/hookwise/hook" && echo BROKEN',
    "write a compiled cache": 'echo x > "$HOME/.cache/hookwise/rules-0123.cache" && echo BROKEN',
    "add a compiled cache": 'echo x > "$HOME/.cache/hookwise/new.cache" && echo BROKEN',
    "chmod the policy": "chmod 777 .hookwise/policy.yaml && echo BROKEN",
    "chmod the config dir": f"chmod 777 {C} && echo BROKEN",
    "touch the policy": "touch .hookwise/policy.yaml && echo BROKEN",
    "touch a new file in .hookwise": "touch .hookwise/new.yaml && echo BROKEN",
    "umount the config dir": f"umount {C} && echo BROKEN; umount -l {C} && echo BROKEN",
    "remount the config dir rw": f"mount -o remount,rw {C} && echo BROKEN",
    "remount bind rw": f"mount -o remount,bind,rw {C} && echo BROKEN",
    "mount --bind over the policy": (
        'echo evil > "$TMPDIR_/evil"; mount --bind "$TMPDIR_/evil" .hookwise/policy.yaml '
        "&& echo BROKEN"
    ),
    "unshare -Urm then umount and remount": (
        f"unshare -Urm sh -c 'umount {C} && echo BROKEN; umount -l {C} && echo BROKEN; "
        f"mount -o remount,rw {C} && echo BROKEN; echo x > {C}/policy.yaml && echo BROKEN'"
    ),
    "unshare -Um (capabilities, no map) then umount": (
        f"unshare -Um sh -c 'umount -l {C} && echo BROKEN; "
        f"mount -o remount,bind,rw {C} && echo BROKEN; "
        f"echo x > {C}/policy.yaml && echo BROKEN'"
    ),
    "unshare -Um then bind over the policy": (
        'echo evil > "$TMPDIR_/evil"; unshare -Um sh -c '
        '\'mount --bind "$TMPDIR_/evil" .hookwise/policy.yaml; echo y >> .hookwise/policy.yaml '
        "&& echo BROKEN'"
    ),
    "git checkout over the policy": (
        "git add -A >/dev/null 2>&1; git rm -q --cached -r . >/dev/null 2>&1; "
        "git rm -f -q .hookwise/policy.yaml && echo BROKEN"
    ),
    "hookwise policy init --force": (
        "hookwise policy init --force >/dev/null 2>&1; test -s .hookwise/policy.yaml && "
        "! grep -q no-rm .hookwise/policy.yaml && echo BROKEN"
    ),
    "pid 1 and /proc of the supervisor": (
        "test -e /proc/$SUPERVISOR && echo BROKEN; kill -0 $SUPERVISOR 2>/dev/null && echo BROKEN"
    ),
    "strace the supervisor": "strace -p $SUPERVISOR -o /dev/null & sleep 0.3; kill -0 $! 2>/dev/null && echo BROKEN",
    "kernel.core_pattern (root runs it outside)": (
        'v=$(cat /proc/sys/kernel/core_pattern); echo "$v" > /proc/sys/kernel/core_pattern '
        "&& echo BROKEN"
    ),
    "a sysctl": 'v=$(cat /proc/sys/vm/swappiness); echo "$v" > /proc/sys/vm/swappiness && echo BROKEN',
    "sysfs": (
        f"{PY} \"import os; os.open('/sys/kernel/mm/transparent_hugepage/enabled', os.O_WRONLY)\" "
        "&& echo BROKEN"
    ),
    "sysrq": "echo h > /proc/sysrq-trigger && echo BROKEN",
    "a block device": (
        f"for d in /dev/vda /dev/sda /dev/nvme0n1 /dev/loop0; do test -b $d && "
        f"{PY} \"import os; os.open('$d', os.O_WRONLY)\" && echo BROKEN; done"
    ),
    "add an ssh key (ssh localhost)": (
        'mkdir -p "$HOME/.ssh" && echo \'ssh-ed25519 AAAA k\' >> "$HOME/.ssh/authorized_keys" '
        "&& echo BROKEN"
    ),
    "python ptrace attach": (
        f'{PY} "import ctypes,os,sys; l=ctypes.CDLL(None,use_errno=True); '
        "r=l.ptrace(16,int(os.environ['SUPERVISOR']),0,0); sys.exit(0 if r==0 else 1)\" "
        "&& echo BROKEN"
    ),
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_attack_fails_and_changes_nothing(world: World, attack: str) -> None:
    before = world.snapshot()
    done = run_with_supervisor_pid(world, "echo SESSION; " + ATTACKS[attack] + "; true")
    assert "SESSION" in done.stdout, done.stderr
    assert "BROKEN" not in done.stdout, (done.stdout, done.stderr)
    assert done.returncode == 0, done.stderr
    assert world.snapshot() == before


def run_with_supervisor_pid(world: World, script: str) -> subprocess.CompletedProcess[str]:
    """Run ``script`` confined with $SUPERVISOR (the supervisor's pid, outside) and $TMPDIR_
    (a scratch directory outside the guarded ones) set."""
    scratch = world.outside
    pid_file = scratch / "pid"
    wrapped = (
        f'while [ ! -s "$TMPDIR_/pid" ]; do sleep 0.02; done; SUPERVISOR=$(cat "$TMPDIR_/pid"); '
        f"{script}"
    )
    proc = subprocess.Popen(
        [HOOKWISE, "run", "--", "sh", "-c", wrapped],
        cwd=world.project,
        env={**world.env, "TMPDIR_": str(scratch)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    pid_file.write_text(str(proc.pid))
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_the_programs_hooks_run_with_cannot_be_shadowed(world: World) -> None:
    """Gemini CLI and Codex run hooks with `bash -c` found on PATH: a writable directory
    early in PATH must not take a `bash` (or `hookwise`) the agent writes."""
    early = world.home / ".local/bin"
    early.mkdir(parents=True)
    env = {**world.env, "PATH": f"{early}:{world.env['PATH']}"}
    script = (
        "echo SESSION; "
        f"printf '#!/bin/sh\\necho allow\\n' > '{early}/bash' && echo BROKEN1; "
        f"printf '#!/bin/sh\\necho allow\\n' > '{early}/hookwise' && echo BROKEN2; "
        f"echo tool > '{early}/mytool' && chmod +x '{early}/mytool' && echo INSTALLED; true"
    )
    done = world.run(script, env=env)
    assert "SESSION" in done.stdout, done.stderr
    assert "BROKEN" not in done.stdout, (done.stdout, done.stderr)
    assert "INSTALLED" in done.stdout  # the directory itself stays the agent's
    assert sorted(p.name for p in early.iterdir()) == ["mytool"]
    # an environment with BASH_ENV is refused at the start now (red team s35 #1:
    # run/start_env.CODE_LOADING; tests/run/test_s35_startup_files.py)
    refused = world.run("echo SESSION", env={**env, "BASH_ENV": str(world.home / ".bashenv")})
    assert refused.returncode == 125 and "SESSION" not in refused.stdout, refused.stderr
    assert not (world.home / ".bashenv").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="root's own system files")
@pytest.mark.parametrize(
    "target",
    [
        "/etc/ld.so.preload",
        "/etc/cron.d/hookwise-test",
        "/var/spool/hookwise-test",
        "/etc/hookwise/policy.yaml",
    ],
)
def test_root_cannot_plant_code_the_system_runs_outside(world: World, target: str) -> None:
    done = world.run(
        f"echo SESSION; mkdir -p $(dirname {target}) && echo x >> {target} && echo BROKEN; true"
    )
    assert "SESSION" in done.stdout, done.stderr
    assert "BROKEN" not in done.stdout, done.stderr
    assert not os.path.exists(target) or target == "/etc/ld.so.preload"


def test_the_agent_cannot_rewrite_its_own_program(world: World) -> None:
    """An npm-installed CLI under the home: its script, its package and the node it runs on
    are read-only, or the next session would start a host that skips its hooks."""
    prefix = world.home / ".npm-global"
    package = prefix / "lib/node_modules/@acme/agent-cli"
    (package / "bin").mkdir(parents=True)
    runtime = world.home / ".nvm/bin/fakenode"
    runtime.parent.mkdir(parents=True)
    runtime.write_text('#!/bin/sh\nexec sh "$@"\n')
    runtime.chmod(0o755)
    cli = package / "bin/cli.js"
    cli.write_text('#!/usr/bin/env fakenode\nprintf "RAN\\n"; eval "$2"\n')  # $1 is -c
    cli.chmod(0o755)
    (prefix / "bin").mkdir()
    (prefix / "bin/agent").symlink_to(cli)
    (package / "package.json").write_text('{"name": "@acme/agent-cli"}\n')
    env = {**world.env, "PATH": f"{prefix / 'bin'}:{runtime.parent}:{world.env['PATH']}"}
    before = {p: p.read_bytes() for p in (cli, runtime, package / "package.json")}
    script = (
        "printf 'AGENT' && "
        f"( echo hacked >> '{cli}' && echo BROKEN1; echo x > '{package}/new.js' && echo BROKEN2; "
        f"echo x >> '{runtime}' && echo BROKEN3; ln -sfn /tmp '{prefix}/bin/agent' && echo BROKEN4; true )"
    )
    done = subprocess.run(
        [HOOKWISE, "run", "--", "agent", "-c", script],
        cwd=world.project,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert "RAN" in done.stdout and "AGENT" in done.stdout, done.stderr
    assert "BROKEN" not in done.stdout, (done.stdout, done.stderr)
    assert {p: p.read_bytes() for p in before} == before
    assert (prefix / "bin/agent").resolve() == cli
