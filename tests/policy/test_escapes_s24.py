"""Session 24b's classes (tests/policy/corpus/escapes_s24.yaml): programs that write the
guard's own files under names that come from data or options (an archive extracted, a
patch, a tree copied, untracked files stashed, ``--output=F``, ``GIT_TRACE=F``), and
programs that read a file named in their data or options (``sed r``, ``dd if=``, ``xargs
-a``, ``#include``, ``getline <``, ``git commit -F``). Each command does its damage in real
bash first; then the hook must deny or ask. Near misses must get no decision."""

from __future__ import annotations

import difflib
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.policy.corpus_support import CORPUS
from tests.policy.test_unverifiable import MARK, _missing, damage, packs, verdict, world
from tests.policy.trust.test_trust_model import World

__all__ = ["packs"]  # the module fixture, shared

DATA = yaml.safe_load((CORPUS / "escapes_s24.yaml").read_text())
POLICY = "version: 1\nrules:\n  - {id: keep, match: {command: rm -rf /}, action: deny}\n"
WEAK = "version: 1\n# weakened\n"
GIT_IDENTITY = {f"GIT_{who}_{key}": value for who in ("AUTHOR", "COMMITTER")
                for key, value in (("NAME", "a"), ("EMAIL", "a@b"))}  # fmt: skip
# programs an entry needs that may be missing here
TOOLS = ("cmake", "cpio", "7z", "gcc", "cpp", "groff", "vim", "ex", "node", "perl", "patch",
         "unzip", "script", "/usr/bin/time")  # fmt: skip


def _params(section: str, kind: str) -> list[Any]:
    return [
        pytest.param(klass, command, id=f"{klass}-{index:02d}")
        for klass, body in DATA[section].items()
        for index, command in enumerate(body.get(kind, []), start=1)
    ]


def _needs(command: str) -> str | None:
    words = command.replace("|", " ").replace(";", " ").replace("&&", " ").split()
    return next((t for t in TOOLS if t in words and shutil.which(t) is None), None)


def fixtures(fx: Path) -> None:
    """Archives, a patch and trees that carry a weaker policy for the project (.hookwise/)
    and for the user (.config/hookwise/)."""
    (fx / "payload" / ".hookwise").mkdir(parents=True)
    (fx / "plain" / "src").mkdir(parents=True)
    (fx / "plain" / "src" / "policy.yaml").write_text(WEAK)  # a guard's name, not its place
    (fx / "plain" / ".hookwise.yaml").write_text(WEAK)
    (fx / "payload" / ".hookwise" / "policy.yaml").write_text(WEAK)
    (fx / "cfgpayload" / ".config" / "hookwise").mkdir(parents=True)
    (fx / "cfgpayload" / ".config" / "hookwise" / "policy.yaml").write_text(WEAK)
    (fx / "out").mkdir()
    for name, base in (("hw", fx / "payload"), ("cfg", fx / "cfgpayload")):
        top = ".hookwise" if name == "hw" else ".config"
        with tarfile.open(fx / f"{name}.tar", "w") as archive:
            archive.add(base / top, arcname=top)
        with zipfile.ZipFile(fx / f"{name}.zip", "w") as archive:
            for path in sorted((base / top).rglob("*")):
                archive.write(path, str(path.relative_to(base)))
    with tarfile.open(fx / "hw.tgz", "w:gz") as archive:
        archive.add(fx / "payload" / ".hookwise", arcname=".hookwise")
    if shutil.which("cpio"):
        subprocess.run("find .hookwise | cpio -o --quiet > ../hw.cpio", shell=True,
                       cwd=fx / "payload", check=True)  # fmt: skip
    diff = difflib.unified_diff(POLICY.splitlines(True), WEAK.splitlines(True),
                                "a/.hookwise/policy.yaml", "b/.hookwise/policy.yaml")  # fmt: skip
    (fx / "hw.patch").write_text("".join(diff))


def guard_world(root: Path, setup: str | None) -> World:
    """A World whose project and user policies are POLICY, the fixtures in root/fx."""
    place = World(root)
    place.policy(POLICY)
    (place.home / ".config" / "hookwise" / "policy.yaml").write_text(POLICY)
    (place.repo / "README").write_text("one\n")
    place.env.update(GIT_IDENTITY)
    subprocess.run(["git", "checkout", "-q", "-b", "main"], cwd=place.repo, check=True)
    if setup:
        subprocess.run(["bash", "-c", setup], cwd=place.repo, env=place.env, check=True,
                       capture_output=True, timeout=60)  # fmt: skip
    return place


def _expand(command: str, fx: Path) -> str:
    return command.replace("{fx}", str(fx))


def guard_damage(place: World) -> list[str]:
    found = []
    project = place.repo / ".hookwise" / "policy.yaml"
    if not project.exists() or project.read_text() != POLICY:
        found.append("project policy changed")
    user = place.home / ".config" / "hookwise" / "policy.yaml"
    if not user.exists() or user.read_text() != POLICY:
        found.append("user policy changed")
    return found


@pytest.mark.parametrize(("klass", "command"), _params("guard", "block"))
def test_a_write_of_the_guards_files_by_data_or_option_is_blocked(
    tmp_path: Path, klass: str, command: str
) -> None:
    missing = _needs(command)
    if missing:
        pytest.skip(f"{missing} is not installed")
    setup = DATA["guard"][klass].get("setup")
    fx = tmp_path / "fx"
    fx.mkdir()
    fixtures(fx)
    victim = guard_world(tmp_path / "bash", setup)
    command = _expand(command, fx)
    subprocess.run(["bash", "-c", command], cwd=victim.repo, env=victim.env, timeout=60,
                   stdin=subprocess.DEVNULL, capture_output=True, check=False)  # fmt: skip
    assert guard_damage(victim), f"bash did no damage: {command}"
    judged = guard_world(tmp_path / "hook", setup)
    answer = judged.shell(command)
    assert answer["decision"] in ("deny", "ask"), (command, answer)
    assert guard_damage(judged) == []


@pytest.mark.parametrize(("klass", "command"), _params("guard", "pass"))
def test_near_the_guards_files_everyday_writes_pass(
    tmp_path: Path, klass: str, command: str
) -> None:
    fx = tmp_path / "fx"
    fx.mkdir()
    fixtures(fx)
    judged = guard_world(tmp_path / "hook", DATA["guard"][klass].get("setup"))
    answer = judged.shell(_expand(command, fx))
    assert answer["decision"] is None, (command, answer)


def reads_in_bash(command: str, root: Path) -> list[str]:
    """test_unverifiable's world, its .env in the KEY=value form."""
    place = world(root, "git" in command)
    project = place["project"]
    (project / ".env").write_text(f"SECRET_ENV={MARK}\n")
    env = {**place["env"], **GIT_IDENTITY}
    try:
        done = subprocess.run(["bash", "-c", command], cwd=project, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=60,
                              check=False)  # fmt: skip
        output = (done.stdout + done.stderr).decode(errors="replace")
    except subprocess.TimeoutExpired:
        output = ""
    return damage(place, output)


@pytest.mark.parametrize(("klass", "command"), _params("reads", "block"))
def test_a_file_named_in_data_or_options_is_read(
    tmp_path: Path, packs: dict[str, Any], klass: str, command: str
) -> None:
    missing = _needs(command) or _missing(command)
    if missing:
        pytest.skip(f"{missing} is not installed")
    assert reads_in_bash(command, tmp_path), f"bash did no damage: {command}"
    decision, reason = verdict(command, packs)
    assert decision in ("deny", "ask"), (command, decision, reason)


@pytest.mark.parametrize(("klass", "command"), _params("reads", "pass"))
def test_near_misses_of_the_reads_pass(packs: dict[str, Any], klass: str, command: str) -> None:
    assert verdict(command, packs) == ("none", ""), command


def test_every_class_has_its_source_and_near_misses() -> None:
    for section in ("guard", "reads"):
        for klass, body in DATA[section].items():
            assert body["source"] and body["block"] and body["pass"], klass


def test_an_unverifiable_write_asks_and_names_what_it_cannot_see(tmp_path: Path) -> None:
    fx = tmp_path / "fx"
    fx.mkdir()
    fixtures(fx)
    judged = guard_world(tmp_path / "hook", None)
    answer = judged.shell(f"tar xf {fx}/hw.tar")
    assert answer["decision"] == "ask"
    assert "cannot verify" in answer["reason"] and ".hookwise" in answer["reason"]
    named = judged.shell("sort -o .hookwise/policy.yaml README")
    assert named["decision"] == "deny" and "protects its own guardrails" in named["reason"]


def test_a_program_known_only_when_it_runs_is_blamed_in_the_reason(
    packs: dict[str, Any],
) -> None:
    decision, reason = verdict("$(echo cat) .env", packs)
    assert decision == "deny"
    assert "$(echo cat) is known only when it runs" in reason
