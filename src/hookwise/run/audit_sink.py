"""The session's audit log, written from outside: a confined process can add records, never
remove, truncate, replace or redirect the log.

The supervisor binds a unix datagram socket in the user's session directory (read-only
inside, so the socket cannot be replaced) and appends each record it receives to the real
log, which is read-only inside too. A record is one datagram holding one JSON object of at most
:data:`MAX_RECORD` bytes; anything else is counted and refused. The log is a regular file
opened ``O_APPEND | O_NOFOLLOW | O_NONBLOCK``: a FIFO, a symlink or anything but a regular
file is refused with a message, before the agent starts.

The client the confined hook calls is ``policy/audit.py``'s :func:`send_record`
(``deliver`` picks it when the hook runs confined).

A session appends at most :data:`SESSION_CAP` bytes: a process flooding the socket cannot
fill the disk (a red team wrote 300 MB in 5 s). Past it, records are refused and counted,
except a hook's own: a record of a decision's size on the channel of a hook the exec watch
saw start as registered (:mod:`hookwise.run.exec_watch`) still gets in, up to
:data:`HOOK_RESERVE` more, and past that as a short line of its decision fields. The sink
also writes the supervisor's own records: a hook lost, the cap reached, records lost to a
full disk.

The log rotates as it does outside a session (``policy/audit.py``: past
``settings.audit.max_bytes`` it becomes ``audit.jsonl.1``, and so on, under the same lock
file, so hooks outside the session and the sink take turns): before each record the sink
checks the size, and whether the path still names the file it holds (rotated by a hook
outside: then it opens the new one). A record is written whole to one file or the other,
never lost to a rotation.
"""

from __future__ import annotations

import _socket
import os
import stat
import sys
import time

from hookwise.policy.audit import (
    DEFAULT_KEEP,
    DEFAULT_MAX_BYTES,
    HOOK_DONE,
    HOOK_STARTED,
    MAX_RECORD,
    iso_time,
)
from hookwise.run.hook_watch import HookWatch, Intruder, Lost

TYPE_CHECKING = False
if TYPE_CHECKING:
    import select
    from collections.abc import Callable

    from hookwise.run.exec_watch import ExecWatch
    from hookwise.run.signal_guard import Refusal

SESSION_CAP = 64 * 1024 * 1024  # bytes one session may append
HOOK_RESERVE = 16 * 1024 * 1024  # more, for the hooks' own records once the cap is reached
# Only a launched hook's record on its own channel: one per hookwise process the exec watch saw
# start as registered, of a decision's size (one is about 1 KiB), so using it up costs
# thousands of real hook processes, each deciding honestly; a hook's record past it (or
# larger) is kept as one short line of its decision fields, within COMPACT_RESERVE more: a
# flood costs a real hook's deny its detail, not the fact of it (rt23 #3).
HOOK_RECORD_MAX = 4096
FD_MARGIN = 256  # descriptors kept for the log, /proc scans and sockets, not for hooks
FDS_PER_HOOK = 3  # the sink's pidfd and channel, the signal guard's pidfd
COMPACT_RESERVE = 4 * 1024 * 1024
COMPACT_FIELDS = ("time", "host", "event", "tool", "decision", "rule", "run_session")
# A record the disk refuses (ENOSPC, EIO...) waits in memory, up to PENDING_MAX bytes, and is
# written first when the log takes lines again; past that it is counted lost, and a
# ``records_lost`` record says how many (an agent filling the disk chooses when the log is
# blind: rt23 #8).
PENDING_MAX = 8 * 1024 * 1024
_CREDENTIALS = _socket.CMSG_SPACE(12)  # struct ucred: pid, uid, gid
FOLLOW_EVERY = 0.5  # seconds between looks for a rotation made outside
MAX_LOOP_FAILURES = 20  # the loop failing this many times in a row ends the session
LOOP_PAUSE = 0.05  # seconds after a failed round (a persistent error is not a busy loop)
REFUSED_EVERY = 1.0  # seconds between records_refused records while datagrams are refused
REFUSED_SENDERS = 8  # senders named in one records_refused record
ROUND = 1000  # datagrams read before the loop looks at the hooks again
REFUSED_SIGNAL_RECORDS = 1000  # distinct refused signals recorded in a session (all counted)


class SinkError(OSError):
    """The audit log or its socket cannot be used (named in the message)."""


def open_log(path: str) -> int:
    """The log opened for appending (made, mode 600, with its directory, when missing);
    refuses anything but a regular file."""
    directory = os.path.dirname(path)
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
        fd = os.open(path, flags | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            mode = stat.S_IFREG
        if not stat.S_ISREG(mode):
            raise SinkError(exc.errno, _not_a_file(path, mode)) from None
        raise SinkError(exc.errno, f"cannot open the audit log {path}: {exc.strerror}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise SinkError(0, _not_a_file(path, info.st_mode))
    return fd


def _not_a_file(path: str, mode: int) -> str:
    kinds = (
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISDIR, "a directory"),
    )
    kind = next((name for test, name in kinds if test(mode)), "not a regular file")
    return f"the audit log {path} is {kind}; remove it (rm {path})"


def line_of(record: bytes) -> bytes | None:
    """The log line for a received record, or None when it is not one JSON object of at most
    :data:`MAX_RECORD` bytes. A raw newline in valid JSON is whitespace, so it is replaced
    by a space: one record stays one line. Whatever the bytes, this returns: a datagram
    nested past the recursion limit (RecursionError), or anything else the parser raises,
    is that datagram's refusal, not the end of the sink's thread (a red team killed it so)."""
    if len(record) > MAX_RECORD:
        return None
    body = record.strip()
    if not body.startswith(b"{"):
        return None
    import json

    try:
        value = json.loads(body)
    except Exception:  # (RecursionError past the nesting limit, MemoryError, ...)
        return None
    if not isinstance(value, dict):
        return None
    return body.replace(b"\n", b" ").replace(b"\r", b" ") + b"\n"


def stamped_line(line: bytes, sender: dict[str, object]) -> bytes:
    """A record from inside as its log line, stamped with what the kernel says of its
    sender (``sender``: pid and uid from ``SCM_CREDENTIALS``, whether it said it is a hook,
    the session, the time the sink received it): any process inside can send any bytes, so
    the record's own ``time``, ``source`` and the rest are claims; ``sender`` is not (rt24
    #5). A record claiming to be the supervisor's (``"source": "run"``) keeps the claim as
    ``claimed_source``, and one carrying its own ``sender`` as ``claimed_sender``."""
    import json

    value = json.loads(line)
    if "sender" in value:
        value["claimed_sender"] = value.pop("sender")
    if value.get("source") == SUPERVISOR_SOURCE:
        value["source"] = "inside"
        value["claimed_source"] = SUPERVISOR_SOURCE
    value["sender"] = sender
    try:
        text = json.dumps(value, separators=(",", ":"))
    except Exception:  # (what loads took, dumps may not: nesting near the limit)
        text = json.dumps({"sender": sender, "record_text": line.decode("utf-8", "replace")})
    return (text + "\n").encode("ascii")


SUPERVISOR_SOURCE = "run"  # the mark of the supervisor's own records, never of one from inside


def supervisor_record(session: str, event: str, reason: str, **extra: object) -> bytes:
    """One record of the supervisor's own, as a log line."""
    import json

    record = {
        "time": iso_time(time.time()),
        "source": SUPERVISOR_SOURCE,
        "run_session": session,
        "event": event,
        "decision": "none",
        "reason": reason,
        **extra,
    }
    return (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


class AuditSink:
    """The supervisor's side: a bound socket and the open log; :meth:`serve` runs until
    :meth:`stop` (from another thread)."""

    def __init__(
        self,
        socket_path: str,
        log_path: str,
        *,
        session: str = "",
        cap: int = SESSION_CAP,
        reserve: int = HOOK_RESERVE,
        on_lost: Callable[[Lost], None] | None = None,
        limits: Callable[[], tuple[int, int]] | None = None,
        on_dead: Callable[[], None] | None = None,
    ) -> None:
        self.socket_path = socket_path
        self.log_path = log_path
        # (max_bytes, keep) of the user's settings, read beside the sink once it serves
        self._limits: Callable[[], tuple[int, int]] | None = limits
        self.max_bytes, self.keep = DEFAULT_MAX_BYTES, DEFAULT_KEEP
        self._looked = 0.0  # when the path was last compared with the file held
        self.rotations = 0  # made by this sink (room kept for what the session wrote)
        self.session = session
        self.cap = cap
        self.reserve = reserve
        self.log = open_log(log_path)
        self.accepted = 0
        self.refused = 0
        self.refused_unreported = 0  # of which no records_refused record says so yet
        self.refused_by: dict[int, int] = {}  # sender pid -> refused, since the last report
        self.refused_others = 0  # refused from senders past REFUSED_SENDERS
        self._refused_at = 0.0
        self.broken = 0  # datagrams whose handling raised (refused too)
        self.loop_errors = 0  # rounds of the loop that raised outside a datagram
        self.on_dead = on_dead  # the loop cannot go on: end the session
        self.capped = 0  # records refused past the cap
        self.capped_bytes = 0
        self.written = 0  # bytes appended from inside
        self.reserved = 0  # of which past the cap (hooks' records)
        self.compacted = 0  # hooks' records past the reserve, kept as a short line
        self.compacted_bytes = 0
        self.pending: list[bytes] = []  # lines the log refused, in order, to write again
        self.pending_bytes = 0
        self.lost = 0  # lines dropped: the log refused them and memory was full
        self.lost_unreported = 0  # of which no records_lost record says so yet
        self.write_error: str | None = None
        self._partial = False  # the first pending line's start is in the log already
        self.failed: str | None = None
        self.bound = False
        self.on_lost = on_lost
        self.watch = HookWatch(self._lost)
        self.watch.on_intruder = self._intruder
        self.sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_DGRAM | _socket.SOCK_CLOEXEC)
        try:
            self.sock.bind(socket_path)
            self.bound = True
        except OSError as exc:
            self.close()
            raise SinkError(
                exc.errno, f"cannot bind the audit socket {socket_path}: {exc.strerror}"
            ) from None
        self.sock.setsockopt(_socket.SOL_SOCKET, _socket.SO_PASSCRED, 1)
        self.sock.setblocking(False)
        self._wake_read, self._wake_write = os.pipe()
        # hooks the exec watch saw start (its thread -> this one), and the pipe saying so
        self._launched: list[tuple[int, int, int, str]] = []
        self.channels: dict[int, int] = {}  # a hook's own socket -> its pid
        self.exec_watch: ExecWatch | None = None  # (set by the supervisor once it serves)
        self.fd_limit = 1024  # (the supervisor's RLIMIT_NOFILE, set once raised)
        self.watch.room = self.has_room
        self.watch.protected = self._protected
        self.watch.hosts = self._hosts
        self._launch_read, self._launch_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        # signals to hooks refused by the exec watch's thread (run/signal_guard.py)
        self._notes: list[bytes] = []
        self.signals_refused = 0
        self.refusals: list[Refusal] = []  # (those recorded)
        self._refusals_seen: set[tuple[int, int, int, str]] = set()
        self._poller: select.poll | None = None

    def _append(self, line: bytes) -> None:
        """Write ``line`` after any the log refused before (kept in memory, bounded)."""
        if self.pending and not self._flush():
            self._keep(line)
            return
        rest = self._write(line, whole=True)
        if rest:  # (nothing is pending here: the rest of the line goes first)
            self._partial = len(rest) < len(line)
            self._keep(rest, always=self._partial)

    def _write(self, data: bytes, *, whole: bool) -> bytes:
        """Append ``data`` (a whole line, or the rest of one a short write left); what the
        log did not take."""
        if whole:  # (never between the two parts of a line)
            self._rotate(len(data))
        try:
            written = os.write(self.log, data)
        except OSError as exc:
            self.write_error = f"cannot append to the audit log {self.log_path}: {exc.strerror}"
            self.failed = self.write_error
            return data
        if written < len(data):  # (a full disk: part of it went)
            self.write_error = f"cannot append to the audit log {self.log_path}: disk full"
            self.failed = self.write_error
        return data[written:]

    def _keep(self, line: bytes, *, always: bool = False) -> None:
        if not always and self.pending_bytes + len(line) > PENDING_MAX:
            self.lost += 1
            self.lost_unreported += 1
            return
        self.pending.append(line)
        self.pending_bytes += len(line)

    def _flush(self) -> bool:
        """Write the lines kept while the log refused them, then say how many were lost;
        whether all went."""
        while self.pending:
            first = self.pending[0]
            rest = self._write(first, whole=not self._partial)
            self._partial = bool(rest) and len(rest) < len(first)
            if rest:
                self.pending[0] = rest
                self.pending_bytes -= len(first) - len(rest)
                return False
            self.pending_bytes -= len(self.pending.pop(0))
        if self.lost_unreported:
            record = supervisor_record(
                self.session,
                "records_lost",
                f"{self.lost_unreported} audit record(s) lost: the log refused them "
                f"({self.write_error}) and more than {PENDING_MAX} bytes waited in memory",
                lost=self.lost_unreported,
            )
            rest = self._write(record, whole=True)
            if rest:
                if len(rest) < len(record):  # (its start is in the log: the rest first)
                    self._partial = True
                    self._keep(rest, always=True)
                    self.lost_unreported = 0
                return False
            self.lost_unreported = 0
        return True

    def _load_limits(self, limits: Callable[[], tuple[int, int]]) -> None:
        """The user's settings.audit, read beside the sink (a stale policy cache is compiled,
        which takes long enough to fill the socket's queue); the defaults until then."""
        try:
            self.max_bytes, self.keep = limits()
        except Exception as exc:  # the defaults, and say why
            self.failed = f"cannot read settings.audit (rotating at the defaults): {exc}"

    def kept(self) -> int:
        """How many rotated files the sink keeps: the user's ``keep``, and room for what
        this session has written, so a process flooding the socket cannot push the log's
        earlier records out of it (rotations outside the session apply the user's ``keep``
        again; files past it are left where they are, as outside)."""
        room = -(-self.written // max(self.max_bytes, 1)) + 1
        return max(self.keep, 0) + max(room, self.rotations + 1)

    def _rotate(self, adding: int) -> None:
        """Rotate the log when this record would take it past ``max_bytes``, and follow a
        rotation made by a hook outside (looked for twice a second: meanwhile records go
        to the renamed file, ``.1``, not lost); on any trouble keep appending where it is."""
        try:
            held = os.fstat(self.log)
            rotating = bool(held.st_size) and held.st_size + adding > self.max_bytes
            now = time.monotonic()
            if not rotating and now - self._looked < FOLLOW_EVERY:
                return
            self._looked = now
            if rotating:
                from hookwise.policy.audit import _rotated

                _rotated(self.log_path, adding, self.max_bytes, self.kept())
                self.rotations += 1
            there = os.stat(self.log_path)
            if (there.st_dev, there.st_ino) == (held.st_dev, held.st_ino):
                return
        except OSError:
            pass  # (renamed away and nothing made yet: open_log makes it)
        try:
            fresh = open_log(self.log_path)
        except SinkError as exc:
            self.failed = str(exc.strerror)
            return
        os.close(self.log)
        self.log = fresh

    def _lost(self, lost: Lost) -> None:
        self._append(
            supervisor_record(
                self.session,
                "hook_lost",
                f"a hook {lost.how}: the host may have run the tool unguarded",
                pid=lost.pid,
                command=lost.command,
                seconds=lost.seconds,
            )
        )
        if self.on_lost is not None:
            self.on_lost(lost)

    def _intruder(self, intruder: Intruder) -> None:
        self._append(
            supervisor_record(
                self.session,
                "hook_output_held",
                f"another process held the output pipe of a hook (pid {intruder.hook}) when "
                "it answered: it could write an answer of its own or make the host wait; "
                "killed",
                pid=intruder.pid,
                command=intruder.command,
                hook_pid=intruder.hook,
                hook_command=intruder.hook_command,
                why=intruder.why,
            )
        )

    def _receive(self) -> tuple[bytes, int, int] | None:
        """One datagram and its sender's pid and uid (pid 0 when the kernel gave none);
        None when empty."""
        try:
            record, ancillary, _flags, _address = self.sock.recvmsg(MAX_RECORD + 1, _CREDENTIALS)
        except (BlockingIOError, InterruptedError):
            return None
        pid = uid = 0
        for level, kind, data in ancillary:
            if level == _socket.SOL_SOCKET and kind == _socket.SCM_CREDENTIALS and len(data) >= 8:
                pid = int.from_bytes(data[:4], sys.byteorder, signed=True)
                uid = int.from_bytes(data[4:8], sys.byteorder)
        return record, pid, uid

    @staticmethod
    def _uid(ancillary: list[tuple[int, int, bytes]]) -> int:
        for level, kind, data in ancillary:
            if level == _socket.SOL_SOCKET and kind == _socket.SCM_CREDENTIALS and len(data) >= 8:
                return int.from_bytes(data[4:8], sys.byteorder)
        return 0

    def _receive_all(self) -> bool:
        """What is queued, at most :data:`ROUND` datagrams: a flood that keeps the queue
        full must not keep the loop from its other work (the lost-hook watch, reports).
        Whether more may be queued."""
        for _ in range(ROUND):
            try:
                received = self._receive()
            except OSError as exc:  # (not the thread's end: the next poll tries again)
                self._broke(exc)
                return False
            if received is None:
                return False
            try:
                self._take(*received)
            except Exception as exc:  # one datagram's error, never the sink's end
                self._refuse(received[1])
                self._broke(exc)
        return True

    def _broke(self, exc: BaseException) -> None:
        self.broken += 1
        if self.broken == 1:
            self._append(
                supervisor_record(
                    self.session,
                    "audit_record_error",
                    f"handling a datagram on the audit socket raised {type(exc).__name__}: "
                    f"{str(exc)[:200]}; refused, the sink goes on",
                )
            )

    def _take(self, record: bytes, pid: int, uid: int = 0, channel: bool = False) -> None:
        """One datagram: a hook's control message, or a record to append. ``channel``: it
        came on the hook's own channel, which only hookwise's program started as registered
        gets (exec_watch.HookExecs.accounted): such a record is a launched hook's, and only
        such a record may use the reserve (red team s25 #8: one process saying ``started``
        before each of its records used it up)."""
        if record == HOOK_STARTED and pid > 0:
            new, closed = self.watch.started(pid)
            if not channel and self._channelless_program(pid):  # (checked while it runs)
                self.watch.pending[pid].vouched = True
            self._unwatch_fd(closed)
            self._watch_fd(new)
            for fd in self.watch.settle_ancestors(pid):
                self._unwatch_fd(fd)
            return
        hook = pid > 0 and self.watch.is_hook(pid)
        launched = hook and channel and self.watch.launched_hook(pid)
        if hook:
            self._late(pid)
            vouched = launched or (not channel and self.watch.vouched(pid))
            vouched = vouched or (not channel and self._channelless_program(pid))
            self._unwatch_fd(self.watch.answer(pid, launched=vouched))
            if record == HOOK_DONE:
                return
        over = self.written + len(record) + 1 > self.cap
        if over and not launched:
            self._capped(record)
            return
        line = line_of(record)
        if line is None:
            self._refuse(pid)
            return
        size = len(line)
        line = stamped_line(line, self._sender(pid, uid, hook, launched))
        over = self.written + len(line) > self.cap
        if over and not launched:
            self._capped(record)
            return
        if over and (size > HOOK_RECORD_MAX or self.reserved + len(line) > self.reserve):
            self._compact(line, pid)
            return
        self._append(line)
        self.accepted += 1
        self.written += len(line)
        if over:
            self.reserved += len(line)

    def _late(self, pid: int) -> None:
        """A hook's answer past the timeout ``hookwise install`` writes, counted from its
        exec: recorded as ``hook_late`` before it, since the host may have run the tool
        already and the answer below was not the call's (red team s29 run #1: the log held
        late denies as the calls' answers while both tools ran)."""
        pending = self.watch.pending.get(pid)
        if pending is None or not pending.launched:
            return
        from hookwise.policy.install.registrations import BASE_TIMEOUT_S

        seconds = time.monotonic() - pending.since
        if seconds > BASE_TIMEOUT_S:
            self._append(
                supervisor_record(
                    self.session,
                    "hook_late",
                    f"a hook answered {seconds:.1f} s after its exec, past the host's "
                    f"{BASE_TIMEOUT_S} s: the host may have run the tool; its answer below "
                    "was not the call's",
                    pid=pid,
                    command=pending.command,
                    seconds=round(seconds, 3),
                )
            )

    def _sender(self, pid: int, uid: int, hook: bool, launched: bool) -> dict[str, object]:
        """What the kernel and the sink know of a record's sender (pid and uid outside the
        session's namespaces; ``hook``: it was a pending hook; ``launched``: the exec watch
        saw it start as one, so no process inside chose to call itself a hook)."""
        return {
            "pid": pid,
            "uid": uid,
            "hook": hook,
            "launched": launched,
            "run_session": self.session,
            "received": iso_time(time.time()),
        }

    def _refuse(self, pid: int) -> None:
        """A datagram that is no record: counted, by sender, for the log's next
        ``records_refused`` record (rt24 #8: a flood left the log without a trace)."""
        self.refused += 1
        self.refused_unreported += 1
        if pid in self.refused_by or len(self.refused_by) < REFUSED_SENDERS:
            self.refused_by[pid] = self.refused_by.get(pid, 0) + 1
        else:
            self.refused_others += 1

    def _report_refused(self, *, now: float, final: bool = False) -> None:
        """Write what was refused since the last report, at most every
        :data:`REFUSED_EVERY` seconds while it goes on, and at the end."""
        if not self.refused_unreported or (not final and now - self._refused_at < REFUSED_EVERY):
            return
        self._refused_at = now
        senders = sorted(self.refused_by.items(), key=lambda item: -item[1])
        self._append(
            supervisor_record(
                self.session,
                "records_refused",
                f"{self.refused_unreported} datagram(s) on the audit socket were not a record "
                "(not one JSON object of at most 64 KiB): a process flooding it keeps hooks' "
                "records out of the socket's queue",
                refused=self.refused_unreported,
                senders={str(pid): count for pid, count in senders},
                other_senders=self.refused_others,
            )
        )
        self.refused_unreported = self.refused_others = 0
        self.refused_by = {}

    def _capped(self, record: bytes) -> None:
        self.capped += 1
        self.capped_bytes += len(record)

    def _compact(self, line: bytes, pid: int) -> None:
        """A hook's record past the reserve: its decision fields in one short line (within
        :data:`COMPACT_RESERVE`), the rest counted as refused."""
        import json

        self._capped(line)
        value = json.loads(line)
        kept = {k: str(value[k])[:200] for k in COMPACT_FIELDS if k in value}
        short = supervisor_record(
            self.session,
            "audit_record_shortened",
            f"a hook's record of {len(line)} bytes past the session's limit: its decision only",
            pid=pid,
            record=kept,
        )
        if self.compacted_bytes + len(short) <= COMPACT_RESERVE:
            self._append(short)
            self.compacted += 1
            self.compacted_bytes += len(short)

    def watched_max(self) -> int:
        """How many unanswered hooks are watched at once: each costs :data:`FDS_PER_HOOK`
        descriptors; :data:`FD_MARGIN` stays for the log, the scans and the sockets."""
        return max(0, (self.fd_limit - FD_MARGIN) // FDS_PER_HOOK)

    def has_room(self) -> bool:
        """Whether one more hook fits (:meth:`watched_max`); read from the exec watch's
        thread too (the sizes of dicts and a list: a moment's view)."""
        held = len(self.watch.by_fd) + len(self.channels) + 2 * len(self._launched)
        guarded = len(self.exec_watch.guard.hooks) if self.exec_watch is not None else 0
        return held + guarded + FDS_PER_HOOK <= FDS_PER_HOOK * self.watched_max()

    def _protected(self) -> list[int]:
        """What the pipe-holder check spares: the signal guard's protected processes and the
        hooks seen with no channel (none without an exec watch)."""
        if self.exec_watch is None:
            return []
        return [*self.exec_watch.guard.protected(), *self.exec_watch.channelless_alive()]

    def _hosts(self) -> list[int]:
        """The hosts the exec watch proved (none without one)."""
        return [] if self.exec_watch is None else self.exec_watch.host_starts.hosts()

    def _channelless_program(self, pid: int) -> bool:
        """Whether ``pid`` is hookwise's program started as registered, seen with no channel
        (past the room, or a descriptor limit: its word comes on the session's socket, from
        its own pid)."""
        return self.exec_watch is not None and self.exec_watch.channelless_program(pid)

    def hook_launched(self, pid: int, pidfd: int, channel: int, command: str) -> None:
        """From the exec watch's thread: a hook is starting (``pidfd`` and ``channel``, the
        hook's own socket or -1, are the sink's now)."""
        self._launched.append((pid, pidfd, channel, command))  # (list.append is atomic)
        try:  # noqa: SIM105 - no contextlib (collections, functools) at the start
            os.write(self._launch_write, b"h")
        except BlockingIOError:  # (full of wake-ups: the list is read)
            pass

    def signal_refused(self, refusal: Refusal) -> None:
        """From the exec watch's thread: a signal to a hook was refused. One record per
        sender, hook, signal and call (a killer retrying in a loop is one line), at most
        :data:`REFUSED_SIGNAL_RECORDS`; all are counted."""
        self.signals_refused += 1
        key = (refusal.sender, refusal.target, refusal.signal, refusal.call)
        if key in self._refusals_seen or len(self._refusals_seen) >= REFUSED_SIGNAL_RECORDS:
            return
        self._refusals_seen.add(key)
        self.refusals.append(refusal)
        what = (
            f"changed the scheduling of a hook (or of its host) with {refusal.call}"
            if refusal.scheduling()
            else f"sent signal {refusal.signal} with {refusal.call} to a hook (or a host's "
            "child before its exec)"
        )
        line = supervisor_record(
            self.session,
            "signal_refused",
            f"a process of the session {what} it did not start: refused (a hook killed, "
            "stopped or starved lets the host run the tool)",
            pid=refusal.sender,
            command=refusal.command,
            program=refusal.program,
            target_pid=refusal.target,
            target_command=refusal.target_command,
            signal=refusal.signal,
            call=refusal.call,
        )
        self._notes.append(line)  # (list.append is atomic)
        try:  # noqa: SIM105 - no contextlib (collections, functools) at the start
            os.write(self._launch_write, b"n")
        except BlockingIOError:
            pass

    def _take_launched(self) -> None:
        try:
            while os.read(self._launch_read, 4096):
                pass
        except BlockingIOError:
            pass
        while self._notes:
            self._append(self._notes.pop(0))
        while self._launched:
            pid, pidfd, channel, command = self._launched.pop(0)
            self._watch_fd(self.watch.launched(pid, pidfd, command))
            if channel >= 0:
                self.channels[channel] = pid
                self._watch_fd(channel)

    def _drain_channel(self, fd: int) -> None:
        """What a hook sent on its own channel (its records, taken as from its pid); closed
        once the hook's end is closed."""
        pid = self.channels.get(fd)
        if pid is None:
            return
        sock = _socket.socket(fileno=fd)
        try:
            while True:
                try:
                    record, ancillary, _flags, _address = sock.recvmsg(MAX_RECORD + 1, _CREDENTIALS)
                except (BlockingIOError, InterruptedError):
                    return
                if not record:  # (the hook's end closed: it exited)
                    self.channels.pop(fd)
                    self._unwatch_fd(fd)
                    sock.close()
                    return
                uid = self._uid(ancillary)
                try:
                    self._take(record, pid, uid, channel=True)
                except Exception as exc:
                    self._refuse(pid)
                    self._broke(exc)
        finally:
            if fd in self.channels:
                sock.detach()

    def _watch_fd(self, fd: int | None) -> None:
        if fd is not None and self._poller is not None:
            self._poller.register(fd, 1)  # POLLIN

    def _unwatch_fd(self, fd: int | None) -> None:
        if fd is not None and self._poller is not None:
            try:
                self._poller.unregister(fd)
            except KeyError:
                return

    def serve(self) -> None:
        import select  # (after the start: the sink serves once the agent runs)

        if self._limits is not None:  # (a thread: compiling must not hold the records up)
            import _thread

            _thread.start_new_thread(self._load_limits, (self._limits,))
            self._limits = None
        poller = select.poll()
        self._poller = poller
        poller.register(self.sock.fileno(), select.POLLIN)
        poller.register(self._wake_read, select.POLLIN)
        poller.register(self._launch_read, select.POLLIN)
        failures = 0
        while True:
            ready: set[int] = set()
            try:
                ready = {fd for fd, _event in poller.poll(self._timeout())}
                self._take_launched()  # (first: a hook's record may be queued already)
                self._receive_all()
                for fd in ready & self.channels.keys():  # (before the hooks' ends, below)
                    self._drain_channel(fd)
                self._report_refused(now=time.monotonic())
                for fd in ready - {self.sock.fileno(), self._wake_read, self._launch_read}:
                    if fd in self.channels:
                        continue
                    self._unwatch_fd(self.watch.ended(fd))
                for fd in self.watch.check():
                    self._unwatch_fd(fd)
                failures = 0
            except Exception as exc:  # the watch, the poll: never the session's sink silently
                failures += 1
                self._loop_broke(exc)
                if failures >= MAX_LOOP_FAILURES:
                    self._die(exc)
                    return
                time.sleep(LOOP_PAUSE)
            if self._wake_read in ready:
                try:
                    self._drain_all()
                    self.watch.finish()
                finally:
                    self._summary()
                return

    def _drain_all(self) -> None:
        """The session ended (nothing inside sends any more): everything still queued, on
        the socket and on the hooks' channels, before the last records."""
        self._take_launched()
        while self._receive_all():
            pass
        for fd in list(self.channels):
            self._drain_channel(fd)

    def _timeout(self) -> int:
        """Milliseconds the loop may sleep: the watch's, or until refusals are reported."""
        timeout = self.watch.poll_timeout()
        if self.refused_unreported:
            wait = int(REFUSED_EVERY * 1000) + 1
            return wait if timeout < 0 else min(timeout, wait)
        return timeout

    def _loop_broke(self, exc: BaseException) -> None:
        """An error of the loop around the datagrams (the hook watch, the poll): recorded
        once, then only counted; the loop goes on."""
        self.loop_errors += 1
        if self.loop_errors == 1:
            self._append(
                supervisor_record(
                    self.session,
                    "audit_sink_error",
                    f"the audit sink's loop raised {type(exc).__name__}: {str(exc)[:200]}; "
                    "it goes on",
                )
            )

    def _die(self, exc: BaseException) -> None:
        """The loop failed :data:`MAX_LOOP_FAILURES` times in a row: no record and no lost
        hook would be seen any more, so the session ends (``on_dead``), visibly."""
        self.failed = (
            f"the audit sink failed {MAX_LOOP_FAILURES} times in a row ({type(exc).__name__}: "
            f"{str(exc)[:200]}): records and lost hooks could no longer be seen, so the "
            "session was ended"
        )
        self._append(supervisor_record(self.session, "audit_sink_dead", self.failed))
        if self.on_dead is not None:
            self.on_dead()

    def _summary(self) -> None:
        self._report_refused(now=time.monotonic(), final=True)
        guard = self.exec_watch.guard if self.exec_watch is not None else None
        if guard is not None and guard.failed:  # (once: the first failure's reason)
            self._append(supervisor_record(self.session, "signal_guard_failed", guard.failed))
        if self.pending or self.lost_unreported:
            self._flush()  # (the last chance; what stays unwritten is said on stderr)
        if self.capped:
            self._append(
                supervisor_record(
                    self.session,
                    "audit_capped",
                    f"{self.capped} record(s) ({self.capped_bytes} bytes) refused past the "
                    f"session's limit of {self.cap} bytes",
                    refused=self.capped,
                )
            )

    def stop(self) -> None:
        """Ask :meth:`serve` to drain what is queued and return."""
        os.write(self._wake_write, b"x")

    def close(self) -> None:
        pipes = ("_wake_read", "_wake_write", "_launch_read", "_launch_write")
        for fd in (self.log, *(getattr(self, name, -1) for name in pipes)):
            if fd >= 0:
                os.close(fd)
        leftover = [fd for item in getattr(self, "_launched", []) for fd in item[1:3]]
        for fd in [*getattr(self, "channels", {}), *leftover]:
            if fd >= 0:
                os.close(fd)
        if hasattr(self, "sock"):
            self.sock.close()
        if getattr(self, "bound", False):
            try:
                os.unlink(self.socket_path)
            except FileNotFoundError:
                return
