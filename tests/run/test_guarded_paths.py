"""What is guarded and hidden, computed from an environment and a directory; the copies of
config/'s facts kept in guarded_paths agree with their sources."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.config.claude import settings as claude_settings
from hookwise.config.claude import trust as claude_trust
from hookwise.config.codex import settings as codex_settings
from hookwise.config.gemini import paths as gemini_paths
from hookwise.config.host_homes import claude_config_dir, codex_home, gemini_home
from hookwise.run import guarded_paths as guarded
from hookwise.run.hidden import ipc_hides, secret_hides
from tests.run.conftest import World, needs_namespaces


def test_the_copied_facts_agree_with_config() -> None:
    assert str(claude_settings._managed_dir_default("linux")) == guarded.CLAUDE_MANAGED_DIR
    assert gemini_paths._system_settings_default("linux") == guarded.GEMINI_SYSTEM_SETTINGS
    assert (
        str(codex_settings.CodexPaths.from_environment("/").managed_dir)
        == guarded.CODEX_MANAGED_DIR
    )
    stores = {
        codex_settings.TRUST_STORE,
        claude_trust.CLAUDE_TRUST_STORE,
        gemini_paths.HOOKWISE_TRUST_STORE,
    }
    assert stores == {guarded.HOOK_TRUST_STORE}
    for env in (
        {"HOME": "/home/u"},
        {"HOME": "/home/u", "CLAUDE_CONFIG_DIR": "/c", "CODEX_HOME": "/x", "GEMINI_CLI_HOME": "/g"},
        {"HOME": "/home/u", "CLAUDE_CONFIG_DIR": "rel/c"},
    ):
        homes = guarded._host_dirs(env)
        assert homes["claude"] == str(claude_config_dir(env))
        assert homes["codex"] == str(codex_home(env))
        assert homes["gemini"] == str(gemini_home(env) / ".gemini")


def _by_path(world: World) -> dict[str, guarded.Guarded]:
    return {g.path: g for g in guarded.guarded_paths(world.env, str(world.project))}


def test_the_world_s_files_are_guarded(world: World) -> None:
    found = _by_path(world)
    home, project = world.home, world.project
    for path in (
        home / ".config/hookwise",
        home / ".local/share/hookwise",
        home / ".cache/hookwise",
        home / ".local/state/hookwise",
        home / ".claude/settings.json",
        home / ".gemini/settings.json",
        home / ".gemini/trustedFolders.json",
        home / ".codex/hooks.json",
        home / ".codex/config.toml",
        project / ".hookwise",
        project / ".claude/settings.json",
        project / ".claude/settings.local.json",
    ):
        assert str(path) in found, path
    # a host directory missing from the project is made empty (nothing can be created in it)
    for name in (".gemini", ".codex"):
        entry = found[str(project / name)]
        assert entry.directory and entry.role == guarded.HOST
    # a settings file missing from an existing directory gets neutral content
    local = found[str(project / ".claude/settings.local.json")]
    assert local.placeholder == b"{}\n" and not local.directory
    assert found[str(home / ".codex/config.toml")].placeholder == b""
    assert found[str(home / ".config/hookwise")].directory
    assert found[str(project / ".mcp.json")].must_exist is False
    assert any(g.role == guarded.CODE and g.path.endswith("/hookwise") for g in found.values())


def test_every_registry_row_is_guarded_plugin_directories_as_directories(tmp_path: Path) -> None:
    """Rows past the first three (Copilot, Qwen, OpenCode, Kilo) are guarded from their own
    config_dir; a plugin host's plugins directories stay read-only (every file in one runs in
    the host, hookwise's plugin among them)."""
    home, project = tmp_path / "home", tmp_path / "proj"
    (project / ".opencode" / "plugins").mkdir(parents=True)
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(tmp_path / "xdg"), "COPILOT_HOME": "/cp"}
    found = {g.path: g for g in guarded.guarded_paths(env, str(project))}
    for path in (
        "/cp/hooks/hookwise.json",
        str(home / ".qwen/settings.json"),
        str(tmp_path / "xdg/opencode/plugins"),
        str(tmp_path / "xdg/kilo/plugin"),
        str(project / ".opencode/plugins"),
        str(project / ".opencode/plugin"),
        str(project / ".kilo"),  # missing: the folder itself is made empty
    ):
        assert path in found, path
    assert found[str(project / ".opencode/plugins")].directory
    assert found[str(tmp_path / "xdg/opencode/plugins")].directory
    assert str(project / ".kilo/plugins") not in found


def test_plugin_hosts_settings_naming_plugins_are_guarded(tmp_path: Path) -> None:
    """opencode.json / kilo.json name plugins (``plugin``: npm names, file:// paths) the host
    loads at start: an agent that writes one plants code in the next session, so each of the
    rows' ``code_files`` is read-only, or made with neutral content when missing."""
    from hookwise.protocol.hosts import HOSTS

    home, project = tmp_path / "home", tmp_path / "proj"
    (project / ".opencode").mkdir(parents=True)
    (project / "opencode.json").write_text('{"plugin": ["file:///tmp/x.js"]}')
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    found = {g.path: g for g in guarded.guarded_paths(env, str(project))}
    assert found[str(project / "opencode.json")].placeholder == b"{}\n"
    assert found[str(project / "kilo.jsonc")].placeholder == b"{}\n"  # missing: made neutral
    assert str(project / ".opencode/opencode.jsonc") in found
    assert found[str(project / ".kilo")].directory  # missing folder: made empty
    assert str(tmp_path / "xdg/opencode/opencode.json") in found
    assert str(tmp_path / "xdg/kilo/config.json") in found
    for info in HOSTS.values():
        for name in info.code_files.get("project", ()):
            here = project / name
            assert str(here) in found or str(here.parent) in found, here
    paths = [g.path for g in guarded.guarded_paths(env, str(project))]
    assert paths.count(str(project / "opencode.json")) == 1  # OpenCode's and Kilo's: once


def test_native_rule_files_install_writes_are_guarded(tmp_path: Path) -> None:
    """`hookwise install --native` keeps rules in files of the hosts' own permission systems
    (Gemini CLI's policies, Codex's exec-policy rules): any file there can approve a tool
    call, so an agent inside a session must not add, edit or remove one. Each user-scope
    native target (and its record beside it) is under a read-only guarded directory."""
    from hookwise.policy.install.native import NATIVE_HOSTS, native_target
    from hookwise.policy.install.native_record import record_path
    from hookwise.protocol.hosts import host as host_info

    home, project = tmp_path / "home", tmp_path / "proj"
    project.mkdir()
    env = {"HOME": str(home), "CODEX_HOME": str(tmp_path / "codex")}
    found = guarded.guarded_paths(env, str(project))
    checked = 0
    for name in NATIVE_HOSTS:
        target = native_target(name, "user", project, env)
        if target.name in host_info(name).user_files or target.name.endswith(".json"):
            continue  # a settings file install registers hooks in: guarded as such (above)
        for path in (target, record_path(target)):
            assert any(g.directory and str(path).startswith(g.path + "/") for g in found), (
                name,
                path,
            )
        checked += 1
    assert checked >= 2  # Gemini CLI and Codex


def test_the_project_walk_passes_nested_repositories(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    inner = outer / "vendor/inner"
    for directory in (outer, inner):
        (directory / ".hookwise").mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(directory)], check=True)
    cwd = inner / "src"
    cwd.mkdir()
    found, outermost = guarded.project_roots(str(cwd), {"HOME": str(tmp_path)})
    assert found == [str(outer), str(inner)]
    assert outermost == str(outer)
    paths = _paths(guarded.guarded_paths({"HOME": str(tmp_path / "home")}, str(cwd)))
    assert {str(outer / ".hookwise"), str(inner / ".hookwise")} <= paths
    # Codex reads a layer from every directory between the repository root and the cwd
    assert {str(inner / ".codex"), str(cwd / ".codex")} <= paths


def test_explicit_policy_files_are_guarded_with_their_local_twin(tmp_path: Path) -> None:
    policy = tmp_path / "team/policy.yaml"
    policy.parent.mkdir()
    policy.write_text("version: 1\n")
    env = {"HOME": str(tmp_path / "home"), "HOOKWISE_POLICY": str(policy)}
    found = {g.path: g for g in guarded.guarded_paths(env, str(tmp_path))}
    assert str(policy) in found
    local = found[str(tmp_path / "team/policy.local.yaml")]
    assert local.placeholder == guarded.NEUTRAL_POLICY


def _paths(entries: list[guarded.Guarded]) -> set[str]:
    return {g.path for g in entries}


def test_ipc_sockets_of_unconfined_servers_are_hidden(tmp_path: Path) -> None:
    runtime = tmp_path / "run"
    (runtime / "systemd").mkdir(parents=True)
    (runtime / "bus").write_text("")
    tmux = tmp_path / "tmux-sockets"
    tmux.mkdir()
    (tmux / "default").write_text("")
    env = {
        "HOME": str(tmp_path),
        "XDG_RUNTIME_DIR": str(runtime),
        "TMUX": f"{tmux / 'default'},123,0",
    }
    hidden = {h.path: h.directory for h in ipc_hides(env)}
    assert hidden[str(runtime / "systemd")] is True
    assert hidden[str(runtime / "bus")] is False
    assert hidden[str(tmux / "default")] is False


def test_secrets_come_from_the_secrets_pack(tmp_path: Path) -> None:
    home = tmp_path / "home"
    project = tmp_path / "project"
    for path in (
        home / ".ssh/id_ed25519",
        home / ".aws/sso/cache/token.json",
        home / ".netrc",
        home / ".config/gcloud/credentials.db",
        project / ".env",
        project / "deploy/.env.production",
        project / "certs/server.pem",
        project / ".env.example",
        project / "node_modules/pkg/.env",
    ):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("secret\n")
    hides = {
        h.path: h.directory
        for h in secret_hides({"HOME": str(home)}, str(project), guarded.secrets_pack())
    }
    assert hides[str(home / ".ssh")] is True
    assert hides[str(home / ".aws")] is True  # widened: its token caches are secrets too
    assert hides[str(home / ".netrc")] is False
    assert hides[str(home / ".config/gcloud")] is True
    assert str(home / ".config") not in hides
    for name in (".env", "deploy/.env.production", "certs/server.pem"):
        assert hides[str(project / name)] is False
    assert str(project / ".env.example") not in hides  # the pack's exclusion
    assert str(project / "node_modules/pkg/.env") not in hides


@needs_namespaces
def test_protect_secrets_makes_them_unreadable_inside(world: World) -> None:
    key = world.home / ".ssh/id_rsa"
    key.parent.mkdir()
    key.write_text("PRIVATE KEY\n")
    env_file = world.project / ".env"
    env_file.write_text("TOKEN=abc\n")
    script = (
        'cat "$HOME/.ssh/id_rsa" .env; ls "$HOME/.ssh"; '
        'tar -C "$HOME" -cf - .ssh | tar -tf - ; grep -r TOKEN . ; '
        "python3 -c \"print(open('.env').read())\"; echo END"
    )
    done = world.run(script, "--protect-secrets")
    assert "END" in done.stdout, done.stderr
    assert "PRIVATE KEY" not in done.stdout and "TOKEN=abc" not in done.stdout
    assert "Permission denied" in done.stderr
    plain = world.run('cat "$HOME/.ssh/id_rsa" .env')
    assert "PRIVATE KEY" in plain.stdout and "TOKEN=abc" in plain.stdout
    assert key.read_text() == "PRIVATE KEY\n" and env_file.read_text() == "TOKEN=abc\n"


def test_a_program_s_name_is_guarded_on_path_up_to_where_it_is_found(tmp_path: Path) -> None:
    """A writable directory gets a placeholder, a missing one this user could create is made
    with the placeholder inside, and the search stops where the program is found."""
    writable = tmp_path / "bin"
    writable.mkdir()
    missing = tmp_path / "home/.local/bin"
    real = tmp_path / "real"
    real.mkdir()
    (real / "tool").write_text("#!/bin/sh\n")
    (real / "tool").chmod(0o755)
    later = tmp_path / "later"
    env = {"PATH": f"{writable}:{missing}:{real}:{later}"}
    found = {g.path: g for g in guarded.path_shadows("tool", env, "t")}
    assert set(found) == {str(writable / "tool"), str(missing / "tool"), str(real / "tool")}
    assert found[str(missing / "tool")].placeholder == b""
    assert found[str(writable / "tool")].role == guarded.HOST
    assert found[str(real / "tool")].role == guarded.SYSTEM  # found: bound, never rewritten


def test_a_virtualenv_s_base_interpreter_and_its_libraries_are_guarded(tmp_path: Path) -> None:
    """pyvenv.cfg names the base interpreter (the venv's python only links to it); where
    this user can write it, it and its libpython and standard library are guarded, for the
    launcher's interpreter as for this one."""
    base = tmp_path / "pyenv/versions/3.99.0"
    (base / "bin").mkdir(parents=True)
    (base / "bin/python3.99").write_text("binary")
    (base / "lib/python3.99").mkdir(parents=True)
    (base / "lib/python3.99/os.py").write_text("")
    (base / "lib/libpython3.99.so.1.0").write_text("library")
    (base / "lib/libpython3.99.so").symlink_to("libpython3.99.so.1.0")
    (base / "lib/pkgconfig").mkdir()
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin/python").symlink_to(base / "bin/python3.99")
    (venv / "pyvenv.cfg").write_text(
        f"home = {base}/bin\nversion = 3.99.0\nexecutable = {base}/bin/python3.99\n"
    )
    found = {g.path: g.why for g in guarded._interpreter(str(venv / "bin/python"), "the x")}
    assert found == {
        str(venv): "the x's virtualenv",
        str(base / "bin/python3.99"): "the x's base interpreter",
        str(base / "lib/libpython3.99.so.1.0"): "the x's base interpreter's libpython3.99.so.1.0",
        str(base / "lib/python3.99"): "the x's base interpreter's standard library",
        # (asked of the interpreter, which cannot run here: its chain only)
        str(venv / "bin/python"): "the x's base interpreter: a symlink of its chain",
        # the directories its next start reads (._pth, pybuilddir.txt, pyvenv.cfg), whole
        **{
            str(d): f"the x's base interpreter: {d}, whose start files (._pth, pybuilddir.txt)"
            " set its path"
            for d in (base, base / "bin", venv / "bin")
        },
    }
    (venv / "pyvenv.cfg").write_text(f"home = {base}/bin\nversion = 3.99.0\n")  # older venvs
    assert str(base / "bin/python3.99") in {
        g.path for g in guarded._interpreter(str(venv / "bin/python"), "the x")
    }


class _Row:
    """A host registry row as another host would add it (only what run/ reads)."""

    def __init__(self, name: str, project: tuple[str, ...], user: tuple[str, ...]) -> None:
        self.name, self.title = name, name.title()
        self.project_files, self.user_files = project, user
        self.env_files = ((".newhost/.env",), (".newhost.env",), True)
        self.extension_env_files = (".newhost/extensions/*/.env",)
        self.config_dir = (None, f".{name}", "")
        self.hooks_layout = "groups"
        self.code_files = {
            "user": ("plugins/", "plugins.json"),
            "project": (".newhost/agents/", "newhost.json"),
        }


def test_a_host_added_to_the_registry_is_guarded_unchanged(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """run/ reads every host's files from its registry row: files, directories (``dir/``)
    and patterns (``.github/hooks/*.json``: the directory whole), in the home and in every
    directory from the repository root to the cwd; the hook trust store beside each."""
    rows = dict(guarded.HOSTS)
    rows["newhost"] = _Row(  # type: ignore[assignment]
        "newhost",
        (".github/hooks/*.json", ".newhost/settings.json", ".newhost/rules/"),
        (".newhost/config.json", ".config/newhost/hooks/*.json"),
    )
    monkeypatch.setattr(guarded, "HOSTS", rows)
    home, project = world.home, world.project
    (project / ".github" / "workflows").mkdir(parents=True)
    found = _by_path(world)
    expected = {
        project / ".github/hooks": True,  # the pattern's directory, made empty when missing
        project / ".newhost": True,  # missing: made empty (nothing can be created in it)
        home / ".newhost/config.json": False,
        home / ".newhost" / guarded.HOOK_TRUST_STORE: False,
        home / ".config/newhost/hooks": True,
        home / ".newhost/.env": False,  # its env file, made empty when missing
        project / "newhost.json": False,  # its code_files: a file naming plugins,
        home / ".newhost/plugins.json": False,
        home / ".newhost/plugins": True,  # and a directory of code
        project / ".newhost/agents": True,
    }
    for path, directory in expected.items():
        assert str(path) in found, (path, sorted(found))
        assert found[str(path)].directory is directory, path
    assert str(project / ".github") not in found  # .github/workflows stays writable
    assert found[str(home / ".newhost/config.json")].placeholder == guarded.NEUTRAL_JSON
    assert found[str(home / ".newhost/.env")].placeholder == b""


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.from_regex(r"[A-Za-z_][A-Za-z0-9_.-]{0,20}", fullmatch=True),
        st.text(alphabet=st.characters(blacklist_characters="\n\r\0"), max_size=30),
        max_size=8,
    ),
    st.booleans(),
)
def test_every_dotenv_key_is_seen(values: dict[str, str], exported: bool) -> None:
    from hookwise.config.env_files import keys

    text = "".join(f"{'export ' if exported else ''}{k}={v}\n" for k, v in values.items())
    assert set(values) <= set(keys(text))


@given(st.text(max_size=500))
def test_dotenv_keys_of_any_text(text: str) -> None:
    from hookwise.config.env_files import affects_hooks, keys

    for key in keys(text):
        assert key and not key.startswith(" ")
        affects_hooks(key)
