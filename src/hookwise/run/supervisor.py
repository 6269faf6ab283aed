"""``hookwise run``: prepare the guarded paths, start the agent confined, stay outside.

The supervisor stays in every parent namespace: nothing inside can see it in its pid
namespace, so nothing inside can signal or trace it (``PR_SET_DUMPABLE`` 0 keeps unconfined
processes of the same user from tracing it too). It forwards SIGINT, SIGTERM, SIGHUP, SIGQUIT,
SIGWINCH, SIGUSR1 and SIGUSR2 *sent to it with kill* to the agent (the terminal's own signals
reach the agent directly: it runs in the same terminal and process group), serves the audit
sink, and exits with the agent's status (128 + n when a signal ended it; 125 when the
confinement could not be set up, with the reason on stderr). Placeholders are removed after
the session when untouched. Hooks that started and never answered are reported at the end
(:mod:`hookwise.run.hook_watch`), or end the session with ``--on-hook-lost=stop``.
"""

from __future__ import annotations

import _thread
import gc
import os
import stat
import sys
import time

from hookwise.policy.confinement import (
    AUDIT_VARIABLE,
    LAUNCHER_NAME,
    RECORD_NAME,
    SESSION_PREFIX,
    SESSION_VARIABLE,
    SOCKET_SUFFIX,
    START_VARIABLE,
    confinement_status,
    format_record,
    is_pinned,
    sessions_dirs,
)
from hookwise.run import placeholders, session_log
from hookwise.run.agent_code import agent_code
from hookwise.run.audit_sink import AuditSink, SinkError
from hookwise.run.cpu_group import EXPOSED, CpuGroup
from hookwise.run.guarded_paths import (
    STATE,
    Guarded,
    audit_limits,
    audit_log,
    creatable,
    guarded_paths,
    import_problems,
    interpreter_problems,
    run_sessions,
    secrets_pack,
)
from hookwise.run.hidden import (
    SERVICE_VARIABLES,
    bound_hides,
    bound_sockets,
    device_hides,
    ipc_hides,
    secret_hides,
    service_hides,
)
from hookwise.run.hook_watch import exiting
from hookwise.run.namespaces import FORWARDED, GO, SETUP_FAILED, Launch, send, spawn
from hookwise.run.plan import Hide, MountPlan, build
from hookwise.run.signals import signal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from hookwise.run.exec_watch import HookExecs


class RunError(Exception):
    """``hookwise run`` cannot start the agent confined; the message says why and where."""

    def __init__(self, message: str, code: int = 125) -> None:
        super().__init__(message)
        self.code = code


def runtime_base() -> str:
    """Where sessions keep their sockets and journal: ``/run/user/<uid>`` when it is this
    user's, else ``/tmp``. Not from the environment: every session of this user, whatever
    its ``$HOME``, must share one journal (placeholders are shared, see placeholders.py)."""
    uid = os.getuid()
    private = f"/run/user/{uid}"
    try:
        info = os.lstat(private)
    except OSError:
        return "/tmp"
    usable = stat.S_ISDIR(info.st_mode) and info.st_uid == uid and os.access(private, os.W_OK)
    return private if usable else "/tmp"


def user_dir(base: str) -> str:
    """This user's directory of sessions (private, checked; read-only inside): the lock
    and journal of placeholders, each session's audit socket, the empty sources of hides."""
    path = os.path.join(base, f"{SESSION_PREFIX}{os.getuid()}")
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise RunError(f"cannot make {path}: {exc.strerror}") from None
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise RunError(f"{path} is not a private directory of this user; remove it")
    return path


def other_places(directory: str, *, make: bool = True) -> list[Guarded]:
    """The places the registered command and the hook also look for a session's files
    (``confinement.sessions_dirs``), other than ``directory``, made so nothing inside can
    create them: a ``launcher`` planted there would be read by every later hook, in and out
    of sessions, and a journal there would be trusted by the next supervisor (red team s24,
    #1 and #7: root made ``/run/user/0/hookwise-run-0/`` inside a session based in /tmp).

    ``/tmp/hookwise-run-<uid>`` is made now when missing (private, this user's: a sessions
    directory with nothing in it) and bound read-only, whoever made it. For
    ``/run/user/<uid>/...``, ``/run/user`` is bound read-only whole (making
    ``/run/user/<uid>`` would move later sessions' base, and a directory the login manager
    makes there during the session must stay unwritable inside), or made empty when missing
    and this user could create it."""
    why = "where the registered command also looks for a session's launcher"
    out: list[Guarded] = []
    for place in sessions_dirs(os.getuid()):
        if place == directory:
            continue
        if place.startswith("/tmp/"):
            if make and not os.path.lexists(place):
                try:
                    os.mkdir(place, 0o700)
                except FileExistsError:
                    pass  # (whoever made it meanwhile: bound read-only all the same)
                except OSError as exc:
                    raise RunError(f"cannot make {place}: {exc.strerror}") from None
            out.append(Guarded(place, STATE, why, directory=not make))
            continue
        runtime = os.path.dirname(os.path.dirname(place))  # /run/user
        if os.path.lexists(runtime):
            out.append(Guarded(runtime, STATE, why))
        elif creatable(runtime):
            out.append(Guarded(runtime, STATE, why, directory=True))
    return out


SESSION_FILES = (RECORD_NAME, LAUNCHER_NAME)


def write_records(
    directory: str, session: str, env: dict[str, str], cwd: str
) -> list[tuple[str, str]]:
    """(a file of this session's, the empty file of the sessions directory it is bound over
    inside, in this session's mount namespace only) for: its record, the variables the hook
    pins (``confinement.pinned_env``) as the session starts with them and its start
    directory; its launcher, the one line the registered command reads in place of
    ``$XDG_DATA_HOME`` (``config/hookwise_command.SESSION_LAUNCHER``)."""
    from hookwise.policy.trust.scopes import launcher_path

    for name in SESSION_FILES:
        target = os.path.join(directory, name)
        if not os.path.lexists(target):
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o400))
        info = os.lstat(target)
        if not stat.S_ISREG(info.st_mode) or info.st_size:
            raise RunError(f"{target} is not an empty file; remove it")
    pinned = {name: value for name, value in env.items() if is_pinned(name)}
    pinned[START_VARIABLE] = cwd
    contents = (
        format_record(pinned),
        (launcher_path(env) + "\n").encode("utf-8", "surrogateescape"),
    )
    out: list[tuple[str, str]] = []
    for name, text in zip(SESSION_FILES, contents, strict=True):
        source = os.path.join(directory, f"{session}.{name}")
        fd = os.open(source, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o400)
        try:
            os.write(fd, text)
        finally:
            os.close(fd)
        out.append((source, os.path.join(directory, name)))
    return out


def _empty_sources(directory: str) -> tuple[str, str]:
    """(an empty directory, an empty file), mode 000: what hides are bound from."""
    empty_dir = os.path.join(directory, "empty")
    empty_file = os.path.join(directory, "empty-file")
    if not os.path.isdir(empty_dir):
        os.mkdir(empty_dir, 0o000)
    if not os.path.isfile(empty_file):
        os.close(os.open(empty_file, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o000))
    for path in (empty_dir, empty_file):
        info = os.lstat(path)
        if stat.S_IMODE(info.st_mode) or (stat.S_ISREG(info.st_mode) and info.st_size):
            raise RunError(f"{path} is not empty with mode 000; remove it")
    return empty_dir, empty_file


def hides(env: dict[str, str], cwd: str, protect_secrets: bool, own: str = "") -> list[Hide]:
    """What is covered inside (``own``: the session's audit socket, kept reachable)."""
    from hookwise.policy.trust.scopes import launcher_path

    own_data = os.path.dirname(launcher_path(env))
    bound = bound_sockets()  # (read once: every process's table in /proc, for both)
    out = ipc_hides(env, bound) + device_hides() + service_hides(env, own_data, cwd)
    for hide in bound_hides(env, own, bound=bound):  # (not twice, nor inside a covered dir)
        if not any(
            hide.path == o.path or (o.directory and hide.path.startswith(o.path + "/")) for o in out
        ):
            out.append(hide)
    if protect_secrets:
        from hookwise.run.guarded_paths import project_roots

        out += secret_hides(env, project_roots(cwd, env)[1], secrets_pack())
    return out


def describe(
    env: dict[str, str], cwd: str, protect_secrets: bool, command: list[str] | None = None
) -> list[str]:
    """What a session started here would protect, one line each (``--print-paths``)."""
    lines: list[str] = []
    seen: set[str] = set()
    sessions = os.path.join(runtime_base(), f"{SESSION_PREFIX}{os.getuid()}")
    places = other_places(sessions, make=False)
    for entry in guarded_paths(env, cwd) + agent_code(command or [], env) + places:
        if entry.path in seen:
            continue
        seen.add(entry.path)
        if os.path.lexists(entry.path):
            state = ""
        elif entry.directory:
            state = "; missing: made empty for the session"
        elif entry.placeholder is not None:
            state = "; missing: made with neutral content for the session"
        else:
            continue
        lines.append(f"read-only  {entry.path}  ({entry.role}: {entry.why}{state})")
    lines.append(f"read-only  {audit_log(env)}  (audit log: appended by the supervisor only)")
    for hide in hides(env, cwd, protect_secrets):
        lines.append(f"hidden     {hide.path}  ({hide.why})")
    return lines


def _check_std_fds(plan: MountPlan) -> None:
    """An inherited descriptor on a guarded file would reach it around the read-only mount
    (it was opened through the writable one): refuse; and a directory descriptor would let
    ``openat`` walk the unprotected tree."""
    files: set[tuple[int, int]] = set()
    for path, _entry in plan.readonly:
        try:
            info = os.stat(path)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            files.add((info.st_dev, info.st_ino))
    for fd in (0, 1, 2):
        try:
            info = os.fstat(fd)
        except OSError:
            continue
        try:
            path = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            path = f"descriptor {fd}"
        if stat.S_ISDIR(info.st_mode):
            raise RunError(
                f"descriptor {fd} is the directory {path}: files could be opened through it "
                "around the confinement; start hookwise run without redirecting it"
            )
        if (info.st_dev, info.st_ino) in files or (
            stat.S_ISREG(info.st_mode) and plan.protected(path)
        ):
            raise RunError(
                f"descriptor {fd} is open on the guarded file {path}: it could be written "
                "around the confinement; redirect it elsewhere"
            )


def _identities(plan: MountPlan) -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    for path, _entry in plan.readonly:
        try:
            info = os.lstat(path)
        except OSError:
            continue
        out[path] = (info.st_dev, info.st_ino)
    return out


def _replaced(identities: dict[str, tuple[int, int]]) -> list[str]:
    """Guarded paths that are another file than at the start: the kernel lifts a mount from
    a name another namespace unlinks or renames over (an unconfined editor's atomic save)."""
    out: list[str] = []
    for path, identity in identities.items():
        try:
            info = os.lstat(path)
        except OSError:
            out.append(path)
            continue
        if (info.st_dev, info.st_ino) != identity:
            out.append(path)
    return out


def _read_report(fd: int) -> tuple[int | None, str | None]:
    data = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except InterruptedError:
            continue
        if not chunk:
            break
        data += chunk
    os.close(fd)
    pid: int | None = None
    error: str | None = None
    for line in data.decode("utf-8", "replace").splitlines():
        if line.startswith("pid "):
            pid = int(line[4:])
        elif line.startswith("error ") and error is None:
            error = line[6:]
    return pid, error


def _supervise(builder: int, init_pid: int | None, waited: set[signal.Signals]) -> int:
    from hookwise.run.init import SENT_BY_A_PROCESS, exit_code

    while True:
        info = signal.sigwaitinfo(waited)
        if info.si_signo == signal.SIGCHLD:
            pid, status = os.waitpid(builder, os.WNOHANG)
            if pid:
                return exit_code(status)
        elif init_pid is not None and info.si_code in SENT_BY_A_PROCESS:
            try:
                os.kill(init_pid, info.si_signo)
            except ProcessLookupError:
                continue


def _say(line: str) -> None:
    sys.stderr.write(f"hookwise run: {line}\n")


def run(
    argv: list[str],
    env: dict[str, str],
    cwd: str,
    *,
    protect_secrets: bool = False,
    read_only_proc: bool = False,
    on_hook_lost: str = "report",
    note: Callable[[str], None] | None = None,
    hook_script: Callable[[str], bool] | None = None,
    collect: bool | None = None,
) -> int:
    """Run ``argv`` confined; its exit status. Raises :class:`RunError` when the
    confinement cannot be set up (nothing was started). ``hook_script``: whether a shell's
    ``-c`` script is a registered hook command (run/exec_watch.py; the CLI hands in
    ``config/hookwise_command.runs_only_hookwise``). ``collect``: whether the garbage
    collector runs once the agent has started (None: as it does now); it never runs before
    (the setup's objects live for the session: collections of them cost the start about a
    tenth of its instructions), and what exists then is frozen out of later collections."""
    if collect is None:
        collect = gc.isenabled()
    gc.disable()
    try:
        return _confined(
            argv,
            env,
            cwd,
            options=(protect_secrets, read_only_proc, on_hook_lost),
            note=note,
            hook_script=hook_script,
            collect=collect,
        )
    finally:
        if collect:
            gc.enable()


def _confined(
    argv: list[str],
    env: dict[str, str],
    cwd: str,
    *,
    options: tuple[bool, bool, str],
    note: Callable[[str], None] | None,
    hook_script: Callable[[str], bool] | None,
    collect: bool,
) -> int:
    """:func:`run`, its collector set (``options``: protect_secrets, read_only_proc,
    on_hook_lost)."""
    from hookwise.run.available import available

    protect_secrets, read_only_proc, on_hook_lost = options

    say = note or _say
    confined, _why = confinement_status(env)
    if confined:  # already inside a session: the command inherits its confinement
        say(f"already confined (session {env[SESSION_VARIABLE]}): running {argv[0]} in it")
        try:
            os.chdir(cwd)
            os.execvpe(argv[0], argv, env)
        except OSError as exc:
            raise RunError(f"cannot run {argv[0]}: {exc.strerror}", 127) from None
    reason = available(probe=False)
    if reason:
        raise RunError(f"cannot confine here: {reason}")
    waited = {*FORWARDED, signal.SIGCHLD}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, waited)
    child = _Builder()
    try:
        return _run(
            child,
            argv,
            env,
            cwd,
            protect_secrets=protect_secrets,
            read_only_proc=read_only_proc,
            on_hook_lost=on_hook_lost,
            say=say,
            hook_script=hook_script or (lambda _script: False),
            collect=collect,
        )
    finally:
        child.abandon()
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class _Builder:
    """The builder, once forked (:meth:`start`), and the supervisor's ends of its pipes."""

    def __init__(self) -> None:
        self.pid = -1
        self.report = self.gate = self.launch = self.notify = -1
        self.reaped = True  # (nothing to reap until started)

    def start(self) -> None:
        """Fork the builder, once the plan is made: forked earlier, to build its namespaces
        while this process plans, it cost more than it saved (measured: the copy-on-write
        faults of a Python process planning beside its child, and a second core is rarely
        free; docs/benchmarks.md). It imports ctypes there, this process never does."""
        import _socket

        pipes = [os.pipe() for _ in range(3)]  # report, gate, launch
        ours, theirs = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_STREAM)
        try:
            self.pid = spawn(pipes[0][1], pipes[1][0], pipes[2][0], theirs.fileno())
            self.reaped = False
        finally:
            for fd in (pipes[0][1], pipes[1][0], pipes[2][0]):
                os.close(fd)
            theirs.close()
        self.report, self.gate, self.launch = pipes[0][0], pipes[1][1], pipes[2][1]
        self.notify = ours.detach()

    def listener(self) -> int:
        """The exec listener init sends before it waits at the gate; -1 when init failed
        first (it says why on the report pipe)."""
        import _socket

        sock = _socket.socket(fileno=self.notify)
        self.notify = -1
        try:
            _data, ancillary, _flags, _address = sock.recvmsg(1, _socket.CMSG_SPACE(4))
        except OSError:
            return -1
        finally:
            sock.close()
        for level, kind, data in ancillary:
            if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS and len(data) >= 4:
                return int.from_bytes(data[:4], sys.byteorder)
        return -1

    def abandon(self) -> None:
        """Whatever was not used: closed (the builder then ends), and the builder reaped."""
        for name in ("launch", "gate", "report", "notify"):
            fd = getattr(self, name)
            if fd >= 0:
                os.close(fd)
                setattr(self, name, -1)
        if self.reaped:
            return
        self.reaped = True
        try:  # (ended already when the setup failed; else its session ends with it)
            if os.waitpid(self.pid, os.WNOHANG)[0] == 0:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
        except (ChildProcessError, ProcessLookupError):
            return


def _run(
    builder: _Builder,
    argv: list[str],
    env: dict[str, str],
    cwd: str,
    *,
    protect_secrets: bool,
    read_only_proc: bool,
    on_hook_lost: str,
    say: Callable[[str], None],
    hook_script: Callable[[str], bool],
    collect: bool,
) -> int:
    cwd = os.path.abspath(cwd)
    directory = user_dir(runtime_base())
    session = os.urandom(8).hex()
    socket_path = os.path.join(directory, f"{session}{SOCKET_SUFFIX}")
    try:
        journal = placeholders.Journal(directory, session)
    except OSError as exc:
        raise RunError(f"cannot use {directory}: {exc.strerror}") from None
    sink: AuditSink | None = None
    made: list[placeholders.Made] = []
    cpu_group = CpuGroup()
    from hookwise.config.env_files import hook_variables

    planted = hook_variables(cwd, env)
    if planted:  # (exported to every hook by the host: refused, not warned)
        raise RunError("; ".join(planted))
    from hookwise.run.start_env import code_loading

    loading = code_loading(env)
    if loading:  # (loaded into the agent itself: red team s35 #1)
        raise RunError("; ".join(loading))
    sessions = run_sessions(env)
    problem = session_log.prepare(sessions)
    if problem is not None:
        raise RunError(problem)
    try:
        entries = guarded_paths(env, cwd, directory) + agent_code(argv, env)
        planted = interpreter_problems(env)  # (asked while the paths were computed)
        refused, unguarded = import_problems(env)
        if planted or refused:  # (read by every hook's interpreter, this one's too: refused)
            raise RunError("; ".join(planted + refused))
        for line in unguarded:
            say(line)
        entries.append(Guarded(directory, STATE, "the sessions' sockets and journal"))
        entries += other_places(directory)
        empty_dir, empty_file = _empty_sources(directory)
        try:
            stopper = _Stopper(on_hook_lost)
            sink = AuditSink(
                socket_path,
                audit_log(env),
                session=session,
                on_lost=stopper,
                limits=lambda: audit_limits(env, cwd),
                on_dead=stopper.end,
            )
        except SinkError as exc:
            raise RunError(str(exc.strerror)) from None
        covered = hides(env, cwd, protect_secrets, socket_path)
        try:
            made = placeholders.create(entries)
            journal.record(made)
            plan = build(entries, covered)
            from hookwise.run.links import unlink_hard_links

            targets = [Guarded(real, entry.role, entry.why) for real, entry in plan.readonly]
            for line in unlink_hard_links(targets):
                say(line)
            journal.register([p for real, entry in plan.readonly for p in (real, entry.path)])
        except OSError as exc:  # (name the file: a bare strerror said nothing in CI)
            where = f"{exc.filename}: " if exc.filename else ""
            why = f"{where}{exc.strerror or exc}"
            raise RunError(f"cannot prepare the session's mounts: {why}") from None
        _check_std_fds(plan)
        agent_env = {k: v for k, v in env.items() if k not in SERVICE_VARIABLES}
        agent_env.update({SESSION_VARIABLE: session, AUDIT_VARIABLE: socket_path})
        # a bash started by a host for a hook reads ~/.bashrc when SSH_CLIENT is set and
        # SHLVL is not (Debian's SSH_SOURCE_BASHRC: red team s35 #2); with SHLVL set it
        # reads no start-up file (the files are read-only inside anyway)
        agent_env.setdefault("SHLVL", "1")
        try:
            records = write_records(directory, session, agent_env, cwd)
        except OSError as exc:
            raise RunError(f"cannot write the session's record: {exc}") from None
        launch = Launch(
            plan,
            argv=argv,
            env=agent_env,
            cwd=cwd,
            empty_dir=empty_dir,
            empty_file=empty_file,
            read_only_proc=read_only_proc,
            records=records,
        )
        identities = _identities(plan)
        begun = time.time()
        problem = session_log.record(sessions, session, "start")
        if problem is not None:  # the trust check would not know: nothing is started
            raise RunError(problem)
        try:
            builder.start()
            if not cpu_group.place(builder.pid, session):  # (before the plan: all inherit)
                say(f"hookwise run: {EXPOSED}")
            send(builder.launch, launch)
            builder.launch = -1
            from hookwise.run.exec_watch import HookExecs

            hook_execs = HookExecs(agent_env, hook_script)
            code = _start(
                builder,
                sink,
                say,
                targets=targets,
                stopper=stopper,
                entries=entries,
                hook_execs=hook_execs,
                collect=collect,
                hook_cpu=cpu_group.take,
            )
        finally:
            problem = session_log.record(sessions, session, "end")
            if problem is not None:
                say(problem)
            _report_policies(cwd, begun, sessions, session, say, home=env.get("HOME") or "")
        for path in _replaced(identities):
            say(
                f"{path} was replaced from outside during the session; its read-only bind "
                "went with the old file, so the session could write the new one: check it"
            )
        return code
    finally:
        builder.abandon()  # (before the placeholders go: nothing binds them any more)
        cpu_group.remove()
        if sink is not None:
            sink.close()
        for name in SESSION_FILES:  # (written once the plan was made)
            written = os.path.join(directory, f"{session}.{name}")
            if os.path.lexists(written):
                os.unlink(written)
        for path in journal.finish(made):
            say(f"kept {path}: it changed during the session (made as a placeholder)")


def _report_policies(
    cwd: str,
    begun: float,
    sessions: str,
    session: str,
    say: Callable[[str], None],
    *,
    home: str,
) -> None:
    """Policy files below the start, above it or in the home written during the session:
    on stderr and in the sessions log (untrusted anyway; the user should know something
    inside wrote them)."""
    from hookwise.run.policy_changes import changed_policies

    homes = (home,) if os.path.isabs(home) else ()
    written, stopped = changed_policies(cwd, begun, homes=homes)
    if stopped:
        say(
            f"stopped looking for policy files written during the session below {cwd}: "
            "too many directories"
        )
    if not written:
        return
    say(
        f"{len(written)} policy file(s) below {cwd}, above it or in the home were created "
        "or changed during the "
        "session (not trusted: read them, then `hookwise policy trust FILE` if they are "
        "yours): " + ", ".join(written)
    )
    problem = session_log.record_policies(sessions, session, written)
    if problem is not None:
        say(problem)


def _open_gate(fd: int, go: bool) -> None:
    """Let init start the agent, or not; a builder that already failed reads nothing."""
    try:
        os.write(fd, GO if go else b"stop")
    except BrokenPipeError:
        pass
    finally:
        os.close(fd)


STOP_GRACE = 5.0  # seconds the agent has to end on SIGTERM before the session is killed


def _first_child(pid: int) -> int | None:
    """init's first child: the agent's process (its own pid namespace's 2)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", "rb") as handle:
            words = handle.read().split()
    except OSError:
        return None
    return int(words[0]) if words else None


class _Stopper:
    """``--on-hook-lost=stop``: the first lost hook ends the session (SIGTERM to the agent
    through init, SIGKILL to the whole session :data:`STOP_GRACE` seconds later). Called
    from the sink's thread; signals go through pidfds (no pid reused meanwhile is hit)."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.init_fd = -1
        self.builder_fd = -1
        self.stopped = False

    def __call__(self, _lost: object) -> None:
        if self.mode == "stop":
            self.end()

    def end(self) -> None:
        """End the session (a lost hook with ``stop``; the audit sink unable to go on)."""
        if self.stopped or self.init_fd < 0:
            return
        self.stopped = True
        try:
            signal.pidfd_send_signal(self.init_fd, signal.SIGTERM)
        except OSError:
            return

        def escalate() -> None:
            time.sleep(STOP_GRACE)
            try:
                signal.pidfd_send_signal(self.builder_fd, signal.SIGKILL)
            except OSError:
                return

        _thread.start_new_thread(escalate, ())


def _raise_descriptor_limit() -> int:
    """The supervisor's soft RLIMIT_NOFILE raised to its hard limit (after the builder's
    fork: the agent keeps the limit it was given); the limit now. Each hook it watches costs
    it two descriptors while the hook lives (red team s25 #11: under the usual 1024, 600
    processes posing as hooks left none for the pipe-holder check)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (OSError, ValueError):
            pass
    return soft


def _pidfd(pid: int) -> int:
    try:
        return os.pidfd_open(pid)
    except OSError:
        return -1


def _report_sink(sink: AuditSink, stopper: _Stopper, say: Callable[[str], None]) -> None:
    """What the sink saw, at the end of the session (stderr; the log has its records)."""
    if sink.refused:
        say(f"refused {sink.refused} audit record(s): not one JSON object of at most 64 KiB")
    if sink.capped:
        kept = f"; hooks' records past it: {sink.reserved} bytes" if sink.reserved else ""
        if sink.compacted:
            kept += f"; {sink.compacted} hook record(s) past that kept as their decision only"
        say(
            f"refused {sink.capped} audit record(s) ({sink.capped_bytes} bytes) past the "
            f"session's limit of {sink.cap // (1024 * 1024)} MiB (a process flooded the "
            f"audit socket?){kept}"
        )
    lost = sink.watch.lost
    if lost:
        say(
            f"{len(lost)} hook(s) started and never answered: the host may have run those "
            "tool calls unguarded (a process of the session killing or stopping hooks?): "
            + "; ".join(item.describe() for item in lost[:10])
            + (f"; and {len(lost) - 10} more" if len(lost) > 10 else "")
        )
        if stopper.stopped and stopper.mode == "stop":
            say("ended the session at the first one (--on-hook-lost=stop)")
    held = sink.watch.intruders
    if held:
        say(
            f"killed {len(held)} process(es) that held a hook's output pipe when it answered "
            "(written into through /proc/<pid>/fd: an answer of their own, or a host kept "
            "waiting), or a host left waiting on a pipe the look could not clear: "
            + "; ".join(item.describe() for item in held[:10])
        )
    unwritten = sink.lost + len(sink.pending)
    if unwritten:
        say(
            f"{unwritten} audit record(s) lost: the log refused them ({sink.write_error}) "
            "and they could not be kept until it took lines again"
        )
    elif sink.write_error:
        say(f"{sink.write_error}; every record was written once it took lines again")
    if sink.signals_refused:
        say(
            f"refused {sink.signals_refused} signal(s) to hooks from other processes of the "
            "session (a hook killed or stopped lets the host run the tool unguarded): "
            + "; ".join(item.describe() for item in sink.refusals[:10])
        )
    untracked = sink.exec_watch.untracked if sink.exec_watch is not None else 0
    if untracked:
        say(
            f"{untracked} hook start(s) not watched: {sink.watched_max()} hooks were running "
            "unanswered at once, the most this session's descriptors allow (processes "
            "posing as hooks?); those hooks had no channel of their own and a lost one "
            "would not be named"
        )
    guard = sink.exec_watch.guard if sink.exec_watch is not None else None
    if guard is not None and guard.failed:
        say(guard.failed)
    if guard is not None and guard.unaccounted:
        say(f"{guard.unaccounted} ({guard.refused_unaccounted} refused)")
    if sink.failed and sink.failed != sink.write_error:
        say(sink.failed)


def _watch_execs(
    listener: int,
    sink: AuditSink,
    hook_execs: HookExecs,
    hook_cpu: Callable[[int], object] = lambda _pid: None,
) -> None:
    """Serve the exec listener in a thread of its own (run/exec_watch.py); without one (init
    failed before sending it) nothing starts, and the report says why. Each hook goes to
    ``hook_cpu`` first, while its exec waits (the hooks' CPU cgroup: run/cpu_group.py), when
    it is hookwise's own program started as registered: never a shell, which runs what its
    environment says first (``BASH_ENV``) inside the hooks' share (red team s29 run #2),
    and only as a host's hook (run/hook_hosts.py): hookwise's launcher started by any other
    process on a 1.8 MB command burned the deadline there (red team s30 run #6)."""
    if listener < 0:
        return
    from hookwise.run.exec_watch import ExecWatch
    from hookwise.run.signal_guard import SignalGuard

    def launched(pid: int, pidfd: int, channel: int, command: str, program: bool) -> None:
        if program:
            hook_cpu(pid)
        sink.hook_launched(pid, pidfd, channel, command)

    watch = ExecWatch(
        listener,
        launched,
        hook_execs,
        SignalGuard(sink.signal_refused),
        sink.has_room,
    )
    sink.exec_watch = watch

    def serve() -> None:
        try:
            watch.serve()
        finally:
            os.close(listener)

    _thread.start_new_thread(serve, ())


def _start(
    builder: _Builder,
    sink: AuditSink,
    say: Callable[[str], None],
    *,
    targets: list[Guarded],
    stopper: _Stopper,
    entries: list[Guarded],
    hook_execs: HookExecs,
    collect: bool,
    hook_cpu: Callable[[int], object] = lambda _pid: None,
) -> int:
    """While the builder builds the mounts, check the guarded code (the agent starts only
    when the check passed); then warn of host settings that switch hooks off, serve the
    sink, forward signals, wait."""
    from hookwise.run.arch import undumpable
    from hookwise.run.host_switches import hooks_switched_off
    from hookwise.run.links import linked_code

    waited = {*FORWARDED, signal.SIGCHLD}
    stopper.builder_fd = _pidfd(builder.pid)
    undumpable()
    sink.fd_limit = _raise_descriptor_limit()
    refused: str | None = "the check of hookwise's code did not finish"
    try:
        refused = linked_code(targets)
        if refused is None:
            _watch_execs(builder.listener(), sink, hook_execs, hook_cpu)
    finally:
        _open_gate(builder.gate, refused is None)
        builder.gate = -1
    if collect:  # (the setup's objects stay for the session: out of every collection)
        gc.freeze()
        gc.enable()
    for line in hooks_switched_off(entries):  # (warnings: after the start)
        say(f"warning: {line}")
    init_pid, error = _read_report(builder.report)
    builder.report = -1
    if init_pid is not None:
        stopper.init_fd = _pidfd(init_pid)
        agent: list[int | None] = [None]

        def agent_pid() -> int | None:
            agent[0] = agent[0] or _first_child(init_pid)
            return agent[0]

        sink.watch.agent = agent_pid
        sink.watch.root = init_pid
        if sink.exec_watch is not None:  # (hosts: the agent, and the parent of each hook)
            sink.exec_watch.guard.init_pid = init_pid
            sink.exec_watch.guard.agent = agent_pid
        sink.watch.session_ending = lambda: exiting(init_pid)
    done = _thread.allocate_lock()
    done.acquire()

    def serve() -> None:
        try:
            sink.serve()
        except BaseException as exc:  # (serve catches its loop's errors; this is the rest)
            sink.failed = f"the audit sink stopped ({type(exc).__name__}: {exc}): session ended"
            stopper.end()
        finally:
            done.release()

    _thread.start_new_thread(serve, ())
    try:
        code = _supervise(builder.pid, init_pid, waited)
        builder.reaped = True
    finally:
        sink.stop()
        done.acquire()
        for fd in (stopper.init_fd, stopper.builder_fd):
            if fd >= 0:
                os.close(fd)
        stopper.init_fd = stopper.builder_fd = -1
    _report_sink(sink, stopper, say)
    if refused:
        raise RunError(refused)
    if error is not None:
        if code == SETUP_FAILED:
            raise RunError(error)
        say(error)
    return code
