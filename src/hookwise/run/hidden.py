"""What the agent must not reach at all: the sockets of unconfined processes (a terminal
multiplexer, the user's service manager and session bus, a database, a container engine
would run a command outside the confinement: by name where they usually are, and every
socket file bound at the start that this user could connect to), a local ``hookwise
serve``'s admin token and database, and, with ``--protect-secrets``, the secrets of the
secrets pack.

Each is covered by an empty, read-only directory or file (mode 000). So are the devices this
user can write that reach around every mount (block devices, virtual input). Abstract unix sockets
and the network cannot be covered this way: docs/confinement.md lists them.
"""

from __future__ import annotations

import os
import stat

from hookwise.run.plan import Hide

# Directories under $HOME whose other files are the same secrets (token caches) as the ones
# the pack names: ~/.aws/sso/cache beside ~/.aws/credentials, ~/.kube/cache beside config.
WIDEN = ("~/.aws", "~/.kube")
# Not walked for project secrets: tools' own trees, large and rebuilt from elsewhere.
SKIPPED_DIRS = frozenset(
    (".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache")
)


def _user(env: dict[str, str]) -> str:
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_name
    except (ImportError, KeyError):
        return env.get("USER") or env.get("LOGNAME") or str(os.getuid())


def _socket_path(address: str) -> str | None:
    """The file of a D-Bus address (``unix:path=/run/user/1000/bus,guid=...``)."""
    for part in address.split(";"):
        if part.startswith("unix:"):
            for item in part[5:].split(","):
                if item.startswith("path="):
                    return item[5:]
    return None


# Servers that run commands for local clients: a client inside reaches them by their socket
# file and they act outside (PostgreSQL's COPY ... TO PROGRAM as its own user, MySQL's UDFs,
# Redis' MODULE LOAD / CONFIG SET dir, Docker's and containerd's containers, podman's,
# libvirt's, BuildKit's). Matched on the socket's name wherever it is bound (/proc/net/unix
# lists the bound paths), and looked for where they usually are: a server of another network
# namespace is not listed there, and its file is reachable all the same.
COMMAND_SERVERS = (
    (".s.PGSQL.*", "PostgreSQL (COPY ... TO PROGRAM)"),
    ("mysqld.sock", "MySQL"),
    ("mysql.sock", "MySQL"),
    ("mysqlx.sock", "MySQL"),
    ("redis*.sock", "Redis"),
    ("docker.sock", "Docker"),
    ("containerd.sock", "containerd"),
    ("podman.sock", "podman"),
    ("libvirt-sock", "libvirt"),
    ("buildkitd.sock", "BuildKit"),
)
COMMAND_SERVER_DIRS = (
    "/tmp",
    "/var/run/postgresql",
    "/run/postgresql",
    "/var/run/mysqld",
    "/run/mysqld",
    "/var/run/redis",
    "/run/redis",
    "/var/run",
    "/run",
    "/run/docker",
    "/run/containerd",
    "/run/podman",
    "/var/run/libvirt",
    "/run/buildkit",
)
MAX_BOUND = 100_000  # lines of /proc/net/unix read


# (glob, head, star, tail, why) of each: a start matches every name of /tmp against them
_SERVER_GLOBS = tuple((glob, *glob.partition("*"), why) for glob, why in COMMAND_SERVERS)


def _server(name: str) -> str | None:
    """Which server a socket's name is (its glob: at most one ``*``; no ``re`` at start)."""
    for glob, head, star, tail, why in _SERVER_GLOBS:
        if name == glob or (star and name.startswith(head) and name[len(head) :].endswith(tail)):
            return why
    return None


def _unix_tables() -> list[str]:
    """``/proc/<pid>/net/unix`` of one process per network namespace this user's processes
    are in, this one's first: a socket file bound in another namespace (``unshare -n tmux
    -S PATH``) is reachable by its path all the same (red team s25 #7); other users'
    processes cannot be looked into, and their namespaces are not listed."""
    tables = ["/proc/net/unix"]
    try:
        seen = {os.readlink("/proc/self/ns/net")}
    except OSError:
        return tables
    uid = os.getuid()
    try:
        pids = [e.name for e in os.scandir("/proc") if e.name.isdigit()]
    except OSError:
        return tables
    for pid in pids:
        try:
            if os.stat(f"/proc/{pid}").st_uid != uid:
                continue
            namespace = os.readlink(f"/proc/{pid}/ns/net")
        except OSError:
            continue
        if namespace not in seen:
            seen.add(namespace)
            tables.append(f"/proc/{pid}/net/unix")
    return tables


def bound_sockets() -> list[str]:
    """The paths of the unix sockets bound in the network namespaces of this user's
    processes (:func:`_unix_tables`)."""
    out: list[str] = []
    for table in _unix_tables():
        try:
            with open(table, encoding="utf-8", errors="surrogateescape") as handle:
                lines = handle.read(1 << 24).splitlines()[1:MAX_BOUND]
        except OSError:
            continue
        out += [
            f[7] for f in (line.split(None, 7) for line in lines) if len(f) == 8 and f[7][:1] == "/"
        ]
    return out


def server_hides(env: dict[str, str], bound: list[str] | None = None) -> list[Hide]:
    """The socket files of servers that run commands for local clients (:data:`COMMAND_SERVERS`):
    bound here, in their usual directories, in the user's runtime directory, or named by
    ``$DOCKER_HOST``, ``$CONTAINER_HOST``, ``$PGHOST``. Their TCP ports stay reachable
    (docs/confinement.md). ``bound``: :func:`bound_sockets`, when the caller has read them."""
    candidates = list(bound_sockets() if bound is None else bound)
    directories = list(COMMAND_SERVER_DIRS)
    runtime = env.get("XDG_RUNTIME_DIR")
    if runtime:
        directories += [runtime, os.path.join(runtime, "podman"), os.path.join(runtime, "docker")]
    host = env.get("PGHOST") or ""
    if host.startswith("/"):
        directories.append(host)
    for name in ("DOCKER_HOST", "CONTAINER_HOST"):
        value = env.get(name) or ""
        if value.startswith("unix://"):
            candidates.append(value[len("unix://") :])
    for directory in directories:
        try:
            candidates += [e.path for e in os.scandir(directory) if _server(e.name)]
        except OSError:
            continue
    out: list[Hide] = []
    for path in dict.fromkeys(os.path.abspath(p) for p in candidates):
        why = _server(os.path.basename(path))
        try:
            is_socket = stat.S_ISSOCK(os.lstat(path).st_mode)
        except OSError:
            continue
        if why is not None and is_socket:
            out.append(Hide(path, False, f"{why}: a server that runs commands for its clients"))
    return out


def _connectable(info: os.stat_result, uid: int, groups: set[int]) -> bool:
    """Whether a process of this user without capabilities (as everything inside is) may
    connect to a socket file: ``connect`` needs write permission on it."""
    if info.st_uid == uid:
        return bool(info.st_mode & 0o200)
    if info.st_gid in groups:
        return bool(info.st_mode & 0o020)
    return bool(info.st_mode & 0o002)


# Where socket files usually are, walked for every socket file whatever its name (two
# levels down; a home's dot-directories too): /proc/net/unix keeps the name given to
# bind(), so a socket linked or renamed into place after it (OpenSSH's ControlMaster binds
# PATH.<random> and links it to PATH) is listed under a name that no longer exists (red
# team s26 #8). The directory of every such dead name is walked as well.
SOCKET_DIRS = ("/tmp", "/var/tmp", "/dev/shm", "/run/user/{uid}")
WALK_DEPTH = 2
MAX_WALKED = 50_000  # directory entries looked at, in all


def _socket_roots(env: dict[str, str], listed: list[str]) -> list[str]:
    """The directories :func:`_socket_files` walks (see :data:`SOCKET_DIRS`)."""
    roots = [d.format(uid=os.getuid()) for d in SOCKET_DIRS]
    roots += [env[name] for name in ("XDG_RUNTIME_DIR", "TMPDIR") if env.get(name)]
    home = env.get("HOME") or ""
    try:
        entries = list(os.scandir(home)) if home.startswith("/") else []
    except OSError:
        entries = []
    roots += [e.path for e in entries if e.name.startswith(".") and e.is_dir(follow_symlinks=False)]
    for path in listed:  # (a dead name: its socket was linked or renamed, most often nearby)
        if not os.path.lexists(path):
            roots.append(os.path.dirname(path))
    return list(dict.fromkeys(os.path.abspath(r) for r in roots))


def _socket_files(roots: list[str]) -> list[str]:
    """The socket files under ``roots`` (:data:`WALK_DEPTH` levels, at most
    :data:`MAX_WALKED` entries; symbolic links not followed)."""
    out: list[str] = []
    budget = [MAX_WALKED]

    def walk(directory: str, depth: int) -> None:
        try:
            entries = list(os.scandir(directory))
        except OSError:
            return
        for entry in entries:
            budget[0] -= 1
            if budget[0] < 0:
                return
            try:
                if entry.is_symlink() or entry.is_file(follow_symlinks=False):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if depth > 1 and entry.name not in SKIPPED_DIRS:
                        walk(entry.path, depth - 1)
                elif stat.S_ISSOCK(entry.stat(follow_symlinks=False).st_mode):
                    out.append(entry.path)
            except OSError:
                continue

    for root in roots:
        walk(root, WALK_DEPTH)
    return out


def bound_hides(
    env: dict[str, str], own: str, allowed: tuple[str, ...] = (), bound: list[str] | None = None
) -> list[Hide]:
    """Every socket file bound when the session starts, in any network namespace of this
    user's processes (all of them
    processes outside: nothing inside runs yet) that this user could connect to: the class,
    not a list of servers' names (rt24 #3: tmux at ``-S PATH`` or another ``TMUX_TMPDIR``
    ran commands outside; so would screen, dtach, an editor's or terminal's remote control,
    a database), and every socket file where they usually are, whatever its name
    (:func:`_socket_files`: a listed name may be stale). Kept reachable: the session's own
    audit socket ``own``, the SSH agent's (``$SSH_AUTH_SOCK``: signing, no command) and
    ``allowed``. A socket bound with a relative path (listed as given) and then moved out of
    the walked directories, and one bound later, are not covered. ``bound``:
    :func:`bound_sockets`, when the caller has read them."""
    uid = os.getuid()
    groups = {os.getgid(), *os.getgroups()}
    keep = {os.path.realpath(p) for p in (own, env.get("SSH_AUTH_SOCK") or "", *allowed) if p}
    out: list[Hide] = []
    listed = bound_sockets() if bound is None else bound
    found = _socket_files(_socket_roots(env, listed))
    for path in dict.fromkeys([*listed, *found]):
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISSOCK(info.st_mode) or os.path.realpath(path) in keep:
            continue
        if _connectable(info, uid, groups):
            out.append(Hide(path, False, "a socket of a process outside the session"))
    return out


def ipc_hides(env: dict[str, str], bound: list[str] | None = None) -> list[Hide]:
    """The sockets and socket directories of this user's unconfined servers (``bound``:
    :func:`bound_sockets`, when the caller has read them)."""
    uid = os.getuid()
    user = _user(env)
    out: list[Hide] = []

    def add(path: str | None, why: str) -> None:
        if path and os.path.lexists(path) and all(h.path != path for h in out):
            out.append(Hide(os.path.abspath(path), os.path.isdir(path), why))

    tmux_base = env.get("TMUX_TMPDIR") or "/tmp"
    add(os.path.join(tmux_base, f"tmux-{uid}"), "tmux server sockets")
    if env.get("TMUX"):
        add(env["TMUX"].split(",")[0], "the tmux server of $TMUX")
    for directory in (
        env.get("SCREENDIR"),
        f"/run/screen/S-{user}",
        f"/var/run/screen/S-{user}",
        f"/tmp/screens/S-{user}",
        f"/tmp/uscreens/S-{user}",
    ):
        add(directory, "screen sessions")
    runtime = env.get("XDG_RUNTIME_DIR")
    if runtime:
        add(os.path.join(runtime, "bus"), "the session D-Bus (systemd-run --user)")
        add(os.path.join(runtime, "systemd"), "the user service manager (systemd/private)")
    bus = _socket_path(env.get("DBUS_SESSION_BUS_ADDRESS") or "")
    add(bus, "the session D-Bus ($DBUS_SESSION_BUS_ADDRESS)")
    if os.geteuid() == 0:  # root's requests to the system's servers are obeyed
        add("/run/systemd/private", "the system service manager (root)")
        add("/run/dbus/system_bus_socket", "the system D-Bus (root)")
        add("/run/udev/control", "udev's control socket (root)")
    return out + [h for h in server_hides(env, bound) if all(o.path != h.path for o in out)]


# What a local `hookwise serve` keeps in its data directory that grants approvals or runs
# commands: its generated admin token (every route: deciding the agent's own asks,
# execute-with-output of an allow-listed project script), its database (tokens, pending
# requests; a SQLite journal or WAL written beside it is replayed into it), its settings.
SERVICE_FILES = ("api-token", "service.db", "service.db-wal", "service.db-shm",
                 "service.db-journal", "service.yaml")  # fmt: skip
# The service's variables: the admin token, the database's credentials (none is the hook's:
# it uses an agent-role token, settings.approvals.token_file or token_env)
SERVICE_VARIABLES = ("HOOKWISE_API_TOKEN", "HOOKWISE_DATABASE_URL")


def _serve_data_dirs(env: dict[str, str]) -> list[str]:
    """The data directory each running ``hookwise serve`` of this user recorded
    (``scopes.services_dir``: a file per server, named by its pid; one whose process is gone
    is left out). Asking each process's command line instead cost seconds on a loaded
    machine (reading ``/proc/<pid>/cmdline`` waits for a busy process's memory lock), and
    the service's environment, which may name it, is unreadable (undumpable)."""
    from hookwise.policy.trust.scopes import services_dir

    directory = services_dir(env)
    out: list[str] = []
    try:
        names = [name for name in os.listdir(directory) if name.isdigit()]
    except OSError:
        return out
    for name in names:
        try:
            if os.stat(f"/proc/{name}").st_uid != os.getuid():
                continue
            with open(f"/proc/{name}/comm", "rb") as handle:  # (a reused pid: not a server)
                comm = handle.read(64).strip()
            if not (comm.startswith(b"python") or comm == b"hookwise"):
                continue
            with open(os.path.join(directory, name), encoding="utf-8") as handle:
                recorded = handle.read(4096).strip()
        except (OSError, UnicodeDecodeError):
            continue
        if recorded.startswith("/"):
            out.append(recorded)
    return out


def service_hides(env: dict[str, str], own_data: str, cwd: str) -> list[Hide]:
    """A local `hookwise serve`'s admin token, database and settings (rt24 #11: the agent
    read the generated token, approved its own ask and ran a rewritten project script
    outside through execute-with-output). Its data directory is the one this environment
    names (``HOOKWISE_DATA_DIR``, else hookwise's data directory) and the one each running
    service recorded. In hookwise's own data directory (read-only, the launcher's)
    its files are covered; any other is covered whole, so no journal can be planted beside
    the database; never one holding the start directory."""
    home = env.get("HOME") or os.path.expanduser("~")
    candidates = [env["HOOKWISE_DATA_DIR"]] if env.get("HOOKWISE_DATA_DIR") else []
    candidates += [own_data, *_serve_data_dirs(env)]
    out: list[Hide] = []
    for directory in dict.fromkeys(os.path.realpath(os.path.expanduser(c)) for c in candidates):
        if (
            directory == os.path.realpath(own_data)
            or _holds(directory, cwd)
            or _holds(directory, home)
        ):
            for name in SERVICE_FILES:
                path = os.path.join(directory, name)
                if os.path.lexists(path):
                    out.append(Hide(path, False, "hookwise serve's token and database"))
        elif os.path.isdir(directory):
            out.append(Hide(directory, True, "hookwise serve's data (its token and database)"))
    return out


def _holds(directory: str, path: str) -> bool:
    real = os.path.realpath(path)
    return real == directory or real.startswith(directory.rstrip("/") + "/")


def device_hides() -> list[Hide]:
    """Devices this user can write that reach around every mount: block devices (raw writes
    to the blocks of a guarded file) and virtual input (typing into a terminal outside)."""
    out: list[Hide] = []
    for directory in ("/dev", "/dev/mapper"):
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            if stat.S_ISBLK(mode) and os.access(entry.path, os.W_OK):
                out.append(Hide(entry.path, False, "a block device this user can write"))
    for path, is_dir in (("/dev/uinput", False), ("/dev/input", True)):
        if os.path.exists(path) and os.access(path, os.W_OK):
            out.append(Hide(path, is_dir, "virtual input (keystrokes outside)"))
    return out


def _pack_rules(pack: str) -> list[tuple[list[str], list[str]]]:
    """(the file globs, the excluded globs) of each of the secrets pack's file rules: an
    exclusion holds for its own rule only (sourcing a .env is free, reading it is not)."""
    import yaml

    with open(pack, encoding="utf-8") as handle:
        document = yaml.safe_load(handle)
    out: list[tuple[list[str], list[str]]] = []
    for rule in document.get("rules") or []:
        files = ((rule.get("match") or {}).get("files")) or {}
        if files.get("globs"):
            out.append((list(files["globs"]), list(files.get("exclude") or [])))
    return out


def _home_paths(globs: list[str], home: str) -> list[str]:
    out: list[str] = []
    for glob in globs:
        if not glob.startswith("~/"):
            continue
        name = glob.removesuffix("/**")
        for wide in WIDEN:
            if name.startswith(wide + "/"):
                name = wide
        if any(c in name for c in "*?["):
            continue
        path = os.path.join(home, name[2:])
        if path not in out:
            out.append(path)
    return out


def _project_files(root: str, rules: list[tuple[list[str], list[str]]]) -> list[str]:
    """The project's files whose names one rule names and does not exclude."""
    from fnmatch import fnmatch

    def secret(name: str) -> bool:
        return any(
            any(fnmatch(name, g) for g in globs if "/" not in g)
            and not any(fnmatch(name, x) for x in excluded if "/" not in x)
            for globs, excluded in rules
        )

    out: list[str] = []
    pending = [root]
    while pending:
        directory = pending.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name not in SKIPPED_DIRS:
                    pending.append(entry.path)
            elif secret(entry.name):
                out.append(entry.path)
    return sorted(out)


def secret_hides(env: dict[str, str], project: str, pack: str) -> list[Hide]:
    """The secrets pack's files: those under ``~`` it names (a directory whole), and the
    files of the project whose names match its name globs (``.env``, ``*.pem``...)."""
    rules = _pack_rules(pack)
    globs = list(dict.fromkeys(g for rule_globs, _ in rules for g in rule_globs))
    home = os.path.abspath(env.get("HOME") or os.path.expanduser("~"))
    out = [
        Hide(path, os.path.isdir(path), "a secret (--protect-secrets)")
        for path in _home_paths(globs, home)
        if os.path.lexists(path)
    ]
    for path in _project_files(project, rules):
        if not any(path == h.path or path.startswith(h.path + "/") for h in out):
            out.append(Hide(path, False, "a secret file of the project (--protect-secrets)"))
    return out
