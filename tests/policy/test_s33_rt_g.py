"""Red team s33 (shell), classes G, H, I (session 33, issue 24), by mechanism.

- G: node (deno, bun) code whose standard input the line gives may run that input as code,
  as python's may (code_residue.node_fed_residue): a module not known to run no code
  (``repl``, ``vm``, any package), a code maker used as a value (``on("line", eval)``,
  ``.constructor``) or reflection is unverifiable; a console module (``repl``) reads its
  stdin as code whatever the line gives.

Blocked rows do their damage in real bash first where the tool is installed here (a
secret printed, or ``../victim`` deleted); then the hook must ask or deny; the everyday
neighbours must get through."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.policy.redteam_tree import GIT_ENV, MARKS, judging

RED_ROOT = "/tmp/rt33s"


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One tree for the module (redteam_tree.red_tree), the starter policy with every pack
    compiled once with its home."""
    root = tmp_path_factory.mktemp("s33g") / "rt33s"
    with judging(root, RED_ROOT) as decided:
        project = root / "work" / "proj"
        (project / "package.json").write_text('{"name": "proj"}\n')
        path = os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])
        env = {"PATH": path, "HOME": str(root / "work" / "home"), **GIT_ENV}
        yield {"decided": decided, "project": project, "env": env, "root": root}


def _bash(command: str, place: dict[str, Any]) -> str:
    done = subprocess.run(["bash", "-c", command], cwd=place["project"], env=place["env"],
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=120,
                          check=False)  # fmt: skip
    return (done.stdout + done.stderr).decode(errors="replace")  # (a runner may cat a binary)


def _damage(command: str, place: dict[str, Any]) -> bool:
    """Whether ``command`` in real bash prints a secret or deletes ``../victim`` (put
    back first, and after)."""
    victim = place["root"] / "work" / "victim" / "sub"
    victim.mkdir(parents=True, exist_ok=True)
    (victim / "f").write_text("victim data\n")
    output = _bash(command, place)
    deleted = not (victim / "f").is_file()
    victim.mkdir(parents=True, exist_ok=True)
    (victim / "f").write_text("victim data\n")
    return deleted or any(mark in output for mark in MARKS)


def _verdict(command: str, place: dict[str, Any]) -> tuple[str, str]:
    answer: tuple[str, str] = place["decided"](command)
    return answer


def _blocked(command: str, tool: str, place: dict[str, Any]) -> tuple[str, str]:
    if shutil.which(tool, path=place["env"]["PATH"]) is not None:
        assert _damage(command, place), f"bash did no damage: {command}"
    return _verdict(command, place)


RM = 'require("fs").rmSync("../victim",{recursive:true})'
NETRC = 'console.log(require("fs").readFileSync("../home/.netrc","utf8"))'
# (command, the program that must be installed for bash to run it here)
G_BLOCK = [
    (f"node -e 'require(\"repl\").start()' <<< '{RM}'", "node"),
    (f"node -e 'require(\"node:repl\").start({{prompt:\"\"}})' <<< '{NETRC}'", "node"),
    (f"echo '{NETRC}' | node -e 'const r=require(\"repl\"); r.start(\"\")'", "node"),
    (f"node --input-type=module -e 'import r from \"node:repl\"; r.start()' <<< '{RM}'", "node"),
    (f"node -e 'new (require(\"repl\").REPLServer)()' <<< '{RM}'", "node"),
    (f"node -e 'require(\"readline\").createInterface({{input:process.stdin}}).on(\"line\",eval)'"
     f" <<< '{RM}'", "node"),
    (f"node -e 'require(\"vm\").runInThisContext(require(\"fs\").readFileSync(0,\"utf8\"))'"
     f" <<< '{NETRC}'", "node"),
    (f"node -e 'new (require(\"vm\").Script)(require(\"fs\").readFileSync(\"/dev/stdin\","
     f"\"utf8\")).runInThisContext()' <<< '{RM}'", "node"),
    # spellings the red team did not try: the same mechanisms
    (f"node -e 'require(\"fs\").readFileSync(0,\"utf8\").split(\"\\n\").map(globalThis.eval)'"
     f" <<< '{RM}'", "node"),
    (f"node -e 'const f=(()=>{{}}).constructor; f(require(\"fs\").readFileSync(0,\"utf8\"))()'"
     f" <<< '{RM}'", "node"),
    (f"node -e 'const w=require(\"worker_threads\"); new w.Worker(require(\"fs\")"
     f".readFileSync(0,\"utf8\"),{{eval:true}})' <<< '{RM}'", "node"),
    (f"node -e 'const m=require(\"module\"); new m()._compile(require(\"fs\")"
     f".readFileSync(0,\"utf8\"),\"x.js\")' <<< '{RM}'", "node"),
    (f"node -e 'const [a]=[eval]; a(require(\"fs\").readFileSync(0,\"utf8\"))' < /dev/stdin"
     f" <<< '{RM}'", "node"),
    (f"deno eval 'eval(await new Response(Deno.stdin.readable).text())' <<< '{RM}'", "deno"),
    (f"bun -e 'const [a]=[eval]; a(await Bun.stdin.text())' <<< '{RM}'", "bun"),
]  # fmt: skip
G_PASS = [
    'node -e \'const d=JSON.parse(require("fs").readFileSync(0,"utf8")); console.log(d.name)\''
    " < package.json",
    'node -e \'require("readline").createInterface({input:process.stdin}).on("line",'
    "l=>console.log(l.toUpperCase()))' <<< 'abc'",
    "echo hi | node -e 'process.stdin.on(\"data\",d=>process.stdout.write(d))'",
    'node -e \'const p=require("node:path"); console.log(p.join("a","b"))\' <<< x',
    "node -e 'console.log(require(\"os\").cpus().length)'",
    "cat package.json | node -p 'JSON.parse(require(\"fs\").readFileSync(0)).name'",
    "deno eval 'console.log((await new Response(Deno.stdin.readable).text()).length)' <<< abc",
]


@pytest.mark.parametrize(("command", "tool"), G_BLOCK)
def test_node_code_that_runs_its_fed_stdin_is_unverifiable(
    place: dict[str, Any], command: str, tool: str
) -> None:
    decision, reason = _blocked(command, tool, place)
    assert decision in ("ask", "deny"), (command, decision, reason)


def test_a_node_console_reads_its_stdin_as_code_whatever_the_line_gives(
    place: dict[str, Any],
) -> None:
    decision, reason = _verdict("node -e 'require(\"repl\").start()'", place)
    assert decision == "ask", reason
    assert "standard input" in reason, reason


@pytest.mark.parametrize("command", G_PASS)
def test_node_that_reads_its_stdin_as_data_gets_through(
    place: dict[str, Any], command: str
) -> None:
    decision, reason = _verdict(command, place)
    assert decision == "allow", (command, decision, reason)


H_BLOCK = [
    ("MAKEFILES=/dev/stdin make -f /dev/null x <<< '$(info $(file <../home/.netrc))'", "make"),
    ("MAKEFILES=/dev/stdin make -f /dev/null x <<< '$(shell rm -rf ../victim)'", "make"),
    ("export MAKEFILES=/dev/fd/0; make -f /dev/null x <<< '$(shell rm -rf ../victim)'", "make"),
    ("make --eval='$(info $(file <../home/.netrc))' -f /dev/null", "make"),
    ("make --ev='$(info $(file <../home/.netrc))' -f /dev/null", "make"),
    ("make -C ../home -E '$(info $(file <.netrc))' -f /dev/null", "make"),
    ("make -C .. -C home -E '$(info $(file <.netrc))' -f /dev/null", "make"),
    ("make --directory=../victim -E '$(shell rm -rf sub)' -f /dev/null", "make"),
    ("make -C ../home -f - x <<< $'x:\\n\\t@cat .netrc'", "make"),
    ("make -C ../home -f /dev/stdin <<< $'x:\\n\\t@cat .aws/credentials'", "make"),
    ("make -f /dev/stdin -C ../home <<< '$(info $(file <.netrc))'", "make"),
    ("make --file=- -C ../home <<< $'.RECIPEPREFIX=>\\nx:\\n>@cat .netrc'", "make"),
    ("make -E '.RECIPEPREFIX=>' -E $'x:\\n>@cat ../home/.netrc' x -f /dev/null", "make"),
    ("make -E '$(file >.hookwise/policy.yaml,x)' -f /dev/null", "make"),
    ("make -C .hookwise -E '$(file >>policy.yaml,x)' -f /dev/null", "make"),
]
H_PASS = [
    "make test",
    "make -C src -n",
    "make -j4 test",
    "make -E 'x:=1' test",
    "make -E '$(info $(file <README))' -f /dev/null",
    "make -f Makefile test",
]


@pytest.mark.parametrize(("command", "tool"), H_BLOCK)
def test_make_code_on_the_line_is_judged_and_a_fed_makefile_unverifiable(
    place: dict[str, Any], command: str, tool: str
) -> None:
    if "$(file >" in command:  # a write: the file's text is changed, not deleted
        decision, reason = _verdict(command, place)
    else:
        decision, reason = _blocked(command, tool, place)
    assert decision in ("ask", "deny"), (command, decision, reason)


@pytest.mark.parametrize("command", H_PASS)
def test_make_of_the_project_gets_through(place: dict[str, Any], command: str) -> None:
    decision, reason = _verdict(command, place)
    assert decision == "allow", (command, decision, reason)


RUNNER = "target.x86_64-unknown-linux-gnu.runner"
I_BLOCK = [
    f"cargo --config '{RUNNER}=\"rm -rf ../victim\"' run -q",
    f'cargo run -q --config \'{RUNNER}=["sh","-c","cat ../home/.netrc"]\'',
    "cargo --config 'build.target-dir=\"../victim\"' clean",
    "cargo --config \"target.'cfg(unix)'.runner='rm -rf ../victim'\" run -q",
    "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER='rm -rf ../victim' cargo run -q",
    "export CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER='cat ../home/.netrc'; cargo run -q",
    "CARGO_BUILD_TARGET_DIR=../victim cargo clean",
    "cargo --config 'build.rustc-wrapper=\"/bin/sh\"' build -q",
    "RUSTC_WRAPPER=/bin/sh cargo build -q",
    "RUSTFLAGS='-C linker=/bin/sh' cargo build -q",
    "cargo --config .cargo/other.toml run -q",
]
I_PASS = [
    "cargo build -q",
    "cargo run -q",
    "cargo --config 'term.color=\"always\"' build",
    "cargo --config build.jobs=2 build",
    "CARGO_TERM_COLOR=always cargo test",
    "RUSTFLAGS='-C target-cpu=native' cargo build --release",
    "RUSTFLAGS='-D warnings' cargo clippy",
    "RUST_BACKTRACE=1 cargo test",
    "CARGO_INCREMENTAL=0 cargo build",
    "cargo run -q -- --config x=1",
]


def _crate(place: dict[str, Any]) -> dict[str, Any]:
    """The project as a fresh crate (cargo init), the real toolchain's homes for rustup."""
    project = place["project"]
    for made in ("Cargo.toml", "Cargo.lock", "src/main.rs"):
        (project / made).unlink(missing_ok=True)
    shutil.rmtree(project / "target", ignore_errors=True)
    real = Path(pwd.getpwuid(os.getuid()).pw_dir)  # (HOME is the tree's home here)
    env = {
        **place["env"],
        "RUSTUP_HOME": os.environ.get("RUSTUP_HOME", str(real / ".rustup")),
        "PATH": os.pathsep.join([str(real / ".cargo" / "bin"), place["env"]["PATH"]]),
    }
    done = subprocess.run(["cargo", "init", "-q", "--name", "x"], cwd=project, env=env,
                   capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return {**place, "env": env}


@pytest.mark.parametrize("command", I_BLOCK)
def test_cargo_settings_on_the_line_that_name_a_program_are_unverifiable(
    place: dict[str, Any], command: str
) -> None:
    real = Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cargo" / "bin"
    runs_here = shutil.which("cargo", path=f"{real}:{os.environ['PATH']}") is not None
    runs_here = runs_here and "/bin/sh" not in command
    if runs_here and "other.toml" not in command:
        crate = _crate(place)
        assert _damage(command, crate), f"bash did no damage: {command}"
    decision, reason = _verdict(command, place)
    assert decision in ("ask", "deny"), (command, decision, reason)


@pytest.mark.parametrize("command", I_PASS)
def test_cargo_of_the_project_gets_through(place: dict[str, Any], command: str) -> None:
    decision, reason = _verdict(command, place)
    assert decision == "allow", (command, decision, reason)
