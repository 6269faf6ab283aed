"""The audit log: one JSON line per decision, size-rotated.

Path: ``$HOOKWISE_AUDIT_LOG``, else ``settings.audit.path``, else
``$XDG_STATE_HOME/hookwise/audit.jsonl`` (``~/.local/state/hookwise/audit.jsonl``). When a
write would take the file past ``settings.audit.max_bytes`` (10 MiB), it is renamed to
``audit.jsonl.1`` (``.1`` to ``.2`` and so on, ``settings.audit.keep`` files, 5 by default).
Each record is appended with a single ``write`` on an ``O_APPEND`` descriptor, so concurrent
hooks do not interleave lines; rotation happens under an ``flock``, never waited for. The
log is opened non-blocking, never through a symlink, and used only when it is a regular
file (safe_files.py): a FIFO or a link planted in its place is reported, and the answer is
neither delayed nor changed.

Record keys: ``time`` (UTC, ISO 8601), ``host``, ``session``, ``event`` (the host's name),
``canonical`` (list), ``tool``, ``host_tool``, ``cwd``, ``command`` (a shell tool's command
line, cut at 4,096 characters; absent for other tools), ``tool_use_id`` and ``agent_id``
(the host's ids of the call and of the subagent making it, when the host sends them),
``decision`` (deny / ask / allow /
none), ``reason``, ``rule`` (the deciding rule), ``rules`` (every matching rule with its
action, mode and outcome), ``contexts``, ``messages``, ``warnings``, ``updated_input``,
``stop``, ``retry``, ``notes`` (what the host could not be given), ``errors``, ``exit_code``,
``latency_ms``, ``policy`` (the files), ``source`` (hook / explain / test / integration),
``approval`` (an ``ask`` sent to settings.approvals: ``id``, ``outcome`` allowed / denied /
timeout / unreachable / mismatch / handed_over / withdrawn / invalid, ``approver``, ``note``,
``remembered_from``, ``page_url``, ``waited_ms``, ``error``).
Decisions for framework agents (``hookwise.integrations``, source ``integration``) also
carry ``framework`` and ``agent`` (``hookwise logs --framework/--agent``), ``call_id``,
``hooks`` (what ``hooks_from`` hooks answered), ``policy_decision`` (the policy's own
decision when the hooks made it stricter) and ``ask_resolved`` (how an ask was answered);
they have no ``exit_code``.
Standard library only (hot path).
"""

from __future__ import annotations

import sys
import time

from hookwise.policy import fastjson
from hookwise.policy import os_lite as os  # os without its import cost
from hookwise.policy.safe_files import open_append, read_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DEFAULT_MAX_BYTES = 10 * 1024 * 1024
DEFAULT_KEEP = 5


def state_dir(env: dict[str, str]) -> str:
    """hookwise's per-user state: ``$XDG_STATE_HOME/hookwise`` (~/.local/state/hookwise)."""
    state = env.get("XDG_STATE_HOME") or os.path.join(env.get("HOME") or "~", ".local", "state")
    return os.path.join(os.path.expanduser(state), "hookwise")


def default_path(env: dict[str, str]) -> str:
    return os.path.join(state_dir(env), "audit.jsonl")


def audit_path(settings: dict[str, Any], env: dict[str, str]) -> str:
    explicit = env.get("HOOKWISE_AUDIT_LOG")
    if explicit:
        return explicit
    configured = settings.get("audit.path")
    return str(configured) if configured else default_path(env)


def iso_time(epoch: float) -> str:
    millis = int(epoch * 1000) % 1000
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(epoch)) + f".{millis:03d}Z"


def is_audit_log(path: str) -> bool:
    """Whether ``path`` is a file hookwise wrote: its first line is an audit record.

    Rotation renames and deletes files; it touches only audit logs, never a file a
    setting happens to name (``~/.bashrc``).
    """
    try:
        first = read_regular(path, 1 << 40)[:65536].split(b"\n", 1)[0]
    except OSError:
        return False
    if not first.strip():
        return False
    try:
        record = fastjson.loads(first.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(record, dict) and "time" in record and "decision" in record


def _rotate(path: str, keep: int) -> None:
    if not is_audit_log(path):
        return  # not ours: appended to, never renamed or deleted
    if keep <= 0:
        os.unlink(path)
        return
    directory, base = os.path.split(path)
    prefix = base + "."
    numbers = [
        int(name[len(prefix) :])
        for name in os.listdir(directory or ".")
        if name.startswith(prefix) and name[len(prefix) :].isdigit()
    ]
    # (the files there, newest last: a large ``keep`` costs nothing while few exist)
    for index in sorted((n for n in numbers if 0 < n < keep), reverse=True):
        older = f"{path}.{index}"
        if not is_audit_log(older):
            return
        os.replace(older, f"{path}.{index + 1}")
    target = f"{path}.1"
    if os.path.lexists(target) and not is_audit_log(target):
        return
    os.replace(path, target)


def append(path: str, record: dict[str, Any], max_bytes: int, keep: int) -> None:
    """Append one record; rotates first when the file would grow past ``max_bytes``.

    Raises OSError when the log cannot be written (not a regular file, a symlink, ...). A
    log that would make the hook wait (a lease another process holds, or a mandatory lock:
    the non-blocking open fails with EAGAIN) keeps the record in a file of its own under
    :func:`pending_dir`, which the next append moves into the log, and raises saying so
    (red team s28 run #5: a read lease lost the records, said only on stderr)."""
    line = (fastjson.dumps(record) + "\n").encode("utf-8")
    fd = -1
    try:
        try:
            fd = open_append(path)
        except FileNotFoundError:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            fd = open_append(path)
        size = os.fstat(fd).st_size
        if size and size + len(line) > max_bytes and _rotated(path, len(line), max_bytes, keep):
            os.close(fd)
            fd = -1
            fd = open_append(path)
        limit = file_size_limit(os.fstat(fd).st_size + len(line))
        if limit is not None:
            kept = _keep(path, line)
            raise OSError(
                f"the file size limit of this process (RLIMIT_FSIZE, {limit} bytes, hard: "
                f"set on its host?) is below what {path} needs: the record is kept in "
                f"{kept}, and the next call that can write the log appends it"
            )
        os.write(fd, line)
        _drain(path, fd)
    except BlockingIOError as exc:
        kept = _keep(path, line)
        raise OSError(
            f"{exc.strerror} (another process holds a lease or lock on {path}): the record "
            f"is kept in {kept}, and the next call that can write the log appends it"
        ) from exc
    finally:
        if fd >= 0:
            os.close(fd)


def file_size_limit(size: int) -> int | None:
    """None when a file of ``size`` bytes fits under this process's file size limit, else
    the limit. A tool call can set ``RLIMIT_FSIZE`` on its host, and every later hook
    inherits it: the append then failed (or wrote part of a line) and the record was lost,
    said on stderr only (red team s30 run #7). The soft limit is raised to the hard one
    first, which any process may do. (The limits are read from /proc/self/limits: the
    ``resource`` module is imported only where one is set, off the hook's hot path.)"""
    soft = _file_size_soft()
    if soft is None or size <= soft:
        return None
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    if soft == resource.RLIM_INFINITY or size <= soft:
        return None
    if hard != soft:
        try:
            resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
        except (OSError, ValueError):
            return soft
        soft = hard
    return None if soft == resource.RLIM_INFINITY or size <= soft else soft


def _file_size_soft() -> int | None:
    """This process's soft RLIMIT_FSIZE (None: unlimited), or 0 where it cannot be read
    (then ``resource`` says)."""
    try:
        fd = os.open("/proc/self/limits", os.O_RDONLY)
    except OSError:
        return 0
    try:
        text = os.read(fd, 4096).decode("ascii", "replace")
    except OSError:
        return 0
    finally:
        os.close(fd)
    for line in text.splitlines():
        if line.startswith("Max file size"):
            soft = line[26:].split()[:1]
            return (
                None if soft == ["unlimited"] else int(soft[0]) if soft and soft[0].isdigit() else 0
            )
    return 0


def pending_dir(path: str) -> str:
    """Where records the log could not take yet are kept, one file each."""
    return f"{path}.pending"


_PENDING_SUFFIX = ".jsonl"
_MAX_PENDING = 1 << 24


def _keep(path: str, line: bytes) -> str:
    """``line`` in a new file of its own under :func:`pending_dir` (O_EXCL, a name no other
    process chose: nothing can hold a lease on it before it exists)."""
    directory = pending_dir(path)
    os.makedirs(directory, 0o700, exist_ok=True)
    name = os.path.join(directory, f"{time.time_ns()}-{os.getpid()}{_PENDING_SUFFIX}")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_NONBLOCK
    fd = os.open(name, flags, 0o600)
    try:
        written = os.write(fd, line)
    except OSError:
        written = -1
    finally:
        os.close(fd)
    if written != len(line):  # a file size limit below one record: no cut record is kept
        os.unlink(name)  # (it would glue onto the next line of the log: red team s31 run #4)
        raise OSError(f"the record ({len(line)} bytes) does not fit under the file size limit")
    return name


def pending(path: str) -> list[str]:
    """The kept records' files, oldest first (doctor says how many)."""
    try:
        names = os.listdir(pending_dir(path))
    except OSError:
        return []
    return [
        os.path.join(pending_dir(path), n) for n in sorted(names) if n.endswith(_PENDING_SUFFIX)
    ]


def _drain(path: str, fd: int) -> None:
    """Append the kept records to the log open at ``fd``: each claimed by a rename first
    (two hooks never append the same one), removed once written, put back if not."""
    import posix

    for name in pending(path):
        claimed = f"{name}.{os.getpid()}"
        try:
            posix.rename(name, claimed)
        except OSError:
            continue  # another hook took it
        try:
            data = read_regular(claimed, _MAX_PENDING)
            if not data.endswith(b"\n"):  # cut (a kept file is one whole line): dropped
                os.unlink(claimed)
                continue
            if file_size_limit(os.fstat(fd).st_size + len(data)) is not None:
                raise OSError("past the file size limit")  # (kept for a later call)
            os.write(fd, data)
        except OSError:
            posix.rename(claimed, name)
            return  # (this call's record is in; the rest wait for the next)
        os.unlink(claimed)


def _rotated(path: str, adding: int, max_bytes: int, keep: int) -> bool:
    """Rotate under the lock file when no other hook holds it (never wait: a lock held
    forever must not hold the answer); whether the file was rotated."""
    import fcntl

    try:
        lock_fd = open_append(path + ".lock")
    except OSError:
        return False
    try:
        fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(lock_fd)
        return False  # another hook is rotating: append to whichever file is there
    try:
        if os.stat(path).st_size + adding > max_bytes:
            _rotate(path, keep)
            return True
    except FileNotFoundError:
        return True
    finally:
        os.close(lock_fd)
    return False


# Inside `hookwise run` the log is read-only: records go to the session's sink, a datagram
# socket the supervisor reads outside (run/audit_sink.py), one JSON object per datagram.
MAX_RECORD = 64 * 1024
SEND_TIMEOUT = 0.02  # seconds: a full queue (a stalled supervisor) costs the hook this, once
_SEND_TIMEVAL = (0).to_bytes(8, sys.byteorder) + int(SEND_TIMEOUT * 1e6).to_bytes(8, sys.byteorder)
_KEPT_WHEN_LARGE = ("time", "host", "session", "event", "tool", "decision", "reason", "rule")


# Where the supervisor puts a hook's own socket as the hook's exec starts (run/exec_watch.py):
# records sent there cannot be crowded out by processes flooding the session's socket.
HOOK_CHANNEL_FD = 1011
_S_IFSOCK = 0o140000
_channel: list[Any] = []  # the channel, once looked for ([None]: there is none)


def _hook_channel() -> Any:
    """This hook's own channel to the sink, or None (not a hook the supervisor saw start)."""
    if _channel:
        return _channel[0]
    _channel.append(None)
    try:
        if os.fstat(HOOK_CHANNEL_FD).st_mode & 0o170000 != _S_IFSOCK:
            return None
        import _socket
        import posix

        sock = _socket.socket(fileno=posix.dup(HOOK_CHANNEL_FD))
        if sock.type != _socket.SOCK_SEQPACKET:
            sock.close()
            return None
        os.close(HOOK_CHANNEL_FD)  # (the copy is close-on-exec: no child of the hook has it)
        sock.setsockopt(_socket.SOL_SOCKET, _socket.SO_SNDTIMEO, _SEND_TIMEVAL)
        _channel[0] = sock
    except Exception:
        return None
    return _channel[0]


def send_record(socket_path: str, record_bytes: bytes) -> bool:
    """Send one record (a JSON object, as bytes) to a session's sink; whether the socket
    took it. Never raises, never waits longer than :data:`SEND_TIMEOUT`. A hook the
    supervisor saw start sends on its own channel (:func:`_hook_channel`)."""
    channel = _hook_channel()
    if channel is not None:
        try:
            channel.send(record_bytes)
            return True
        except Exception:  # (then the session's socket)
            pass
    try:
        import _socket  # (socket.py costs ~10 ms through enum and selectors)

        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_DGRAM | _socket.SOCK_CLOEXEC)
        try:
            # a blocking send bounded by SO_SNDTIMEO waits in the kernel's queue of senders
            # for a free slot; a timeout (a non-blocking socket polled) retried in a busy loop
            # and lost most slots to processes flooding the socket (rt24 #8: 7 of 15 records
            # got in under 3 flooders, 15 of 15 so)
            sock.setsockopt(_socket.SOL_SOCKET, _socket.SO_SNDTIMEO, _SEND_TIMEVAL)
            sock.sendto(record_bytes, socket_path)
            return True
        finally:
            sock.close()
    except Exception:
        return False


def confined_sink(env: dict[str, str]) -> str | None:
    """The session sink's socket when this process runs inside `hookwise run` (checked on
    the mounts, not believed from the variables), else None."""
    from hookwise.policy import confinement

    return env.get(confinement.AUDIT_VARIABLE) if confinement.confined(env) else None


# A hook inside a session tells the sink it started, then delivers its record (or, without
# one, that it is done): a hook that starts and never answers (killed, stopped by another
# process of the session) is reported by the supervisor, which knows the sender's pid.
HOOK_STARTED = b'{"hookwise_run": "started"}'
HOOK_DONE = b'{"hookwise_run": "done"}'


def hook_started(env: dict[str, str]) -> str | None:
    """Inside a session: send :data:`HOOK_STARTED` and return the sink (the hook sends its
    record, or :data:`HOOK_DONE`, there before it ends); outside: None, no system call."""
    sink = confined_sink(env)
    if sink is not None:
        send_record(sink, HOOK_STARTED)
    return sink


def release_output() -> None:
    """Point stdout and stderr at /dev/null once the answer is written, before the hook
    tells the session's sink it answered: the sink then kills whatever else holds the
    host's pipes, and no process can reopen them through this one afterwards (through
    ``/proc/<pid>/fd/1``) and keep the host waiting for their end."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        null = os.open("/dev/null", os.O_WRONLY)
    except OSError:
        return
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)


def deliver(record: dict[str, Any], settings: dict[str, Any], env: dict[str, str]) -> None:
    """One decision to the audit log: through the session's sink when confined (where the
    log is read-only), else appended to the file. Raises OSError when it could not be."""
    sink = confined_sink(env)
    if sink is None:
        append(
            audit_path(settings, env),
            record,
            int(settings.get("audit.max_bytes", DEFAULT_MAX_BYTES)),
            int(settings.get("audit.keep", DEFAULT_KEEP)),
        )
        return
    data = fastjson.dumps(record).encode("utf-8")
    if len(data) > MAX_RECORD:
        kept = {key: record[key] for key in _KEPT_WHEN_LARGE if key in record}
        data = fastjson.dumps({**kept, "truncated": True}).encode("utf-8")
    if not send_record(sink, data):
        raise OSError(f"the session's audit sink {sink} did not take the record")


def read_records(path: str) -> list[tuple[int, dict[str, Any] | None, str]]:
    """(line number, record or None when the line is not a JSON object, raw line)."""
    out: list[tuple[int, dict[str, Any] | None, str]] = []
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for number, raw in enumerate(handle, 1):
                text = raw.rstrip("\n")
                if not text.strip():
                    continue
                try:
                    value = fastjson.loads(text)
                except ValueError:
                    out.append((number, None, text))
                    continue
                out.append((number, value if isinstance(value, dict) else None, text))
    except FileNotFoundError:
        pass
    return out
