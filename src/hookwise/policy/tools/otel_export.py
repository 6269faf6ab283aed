"""OpenTelemetry export of the audit log: one span per decision, never on the hook's path.

``hookwise hook`` only appends JSON lines (standard library, see audit.py). This module reads
them afterwards (``hookwise logs export --otel``, later the service) and sends each decision as
a ``hookwise.decision`` span through the official SDK and its OTLP/HTTP exporter. The SDK is
an optional extra, so it is imported only inside the functions that need it: this module
imports without it, and ``require_sdk`` turns its absence into one clear message.

A checkpoint next to the audit log (inode, offset, line, hash of the file's first bytes)
records how far the export got. It moves only after the collector accepted a batch, and it
follows the file through rotation (``audit.jsonl`` -> ``.1`` -> ``.2``), so a restart neither
sends a record twice nor skips one.
"""

from __future__ import annotations

import calendar
import contextlib
import datetime
import fcntl
import hashlib
import json
import math
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace.export import SpanExporter
    from opentelemetry.trace import TracerProvider

SPAN_NAME = "hookwise.decision"
INSTALL_HINT = "pip install 'hookwise[otel]'"
CHECKPOINT_SUFFIX = ".otel-checkpoint"
DEFAULT_ENDPOINT = "http://localhost:4318"
TRACES_PATH = "/v1/traces"
DEFAULT_BATCH = 512
_HEAD_BYTES = 256  # enough to tell a reused inode from the file it replaced

AttributeValue = str | int | list[str]

# (attribute, record key): string attributes, left out when the record has no value.
_TEXT_ATTRIBUTES = (
    ("session.id", "session"),
    ("hookwise.host", "host"),
    ("hookwise.event", "event"),
    ("hookwise.tool", "tool"),
    ("hookwise.host_tool", "host_tool"),
    ("hookwise.decision", "decision"),
    ("hookwise.rule", "rule"),
    ("hookwise.reason", "reason"),
    ("hookwise.source", "source"),
)


class OtelUnavailableError(RuntimeError):
    """The ``otel`` extra (opentelemetry-sdk and its OTLP/HTTP exporter) is not installed."""


class CheckpointError(RuntimeError):
    """The checkpoint cannot be read or is held by another export."""


def require_sdk() -> None:
    """Fail with the install command when the extra is missing (the CLI exits 2 on it)."""
    try:
        import opentelemetry.exporter.otlp.proto.http.trace_exporter
        import opentelemetry.sdk.trace  # noqa: F401
    except ImportError as exc:
        raise OtelUnavailableError(
            f"OpenTelemetry export needs the 'otel' extra: {INSTALL_HINT} ({exc})"
        ) from None


# -- record -> span ----------------------------------------------------------------------


def _text(value: Any) -> str | None:
    if value is None or value == "":
        return None
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def rule_ids(record: Mapping[str, Any]) -> list[str]:
    """The ids of every rule that matched (``rules`` holds one object per rule)."""
    rules = record.get("rules")
    if not isinstance(rules, list):
        return []
    out: list[str] = []
    for rule in rules:
        ident = rule.get("id") if isinstance(rule, dict) else rule
        text = _text(ident)
        if text is not None:
            out.append(text)
    return out


def span_attributes(record: Mapping[str, Any]) -> dict[str, AttributeValue]:
    """The span attributes of one audit record; only valid OTel attribute values, no None."""
    attributes: dict[str, AttributeValue] = {}
    for name, key in _TEXT_ATTRIBUTES:
        text = _text(record.get(key))
        if text is not None:
            attributes[name] = text
    attributes["hookwise.rules"] = rule_ids(record)
    canonical = record.get("canonical")
    if isinstance(canonical, list):
        attributes["hookwise.canonical"] = [t for t in map(_text, canonical) if t is not None]
    exit_code = record.get("exit_code")
    if isinstance(exit_code, int) and not isinstance(exit_code, bool):
        attributes["hookwise.exit_code"] = exit_code
    return attributes


def parse_time(value: Any) -> int:
    """Epoch nanoseconds of the record's ``time`` (ISO 8601, UTC when it names no zone)."""
    if not isinstance(value, str):
        raise ValueError("no 'time'")
    try:
        moment = datetime.datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"'time' is not an ISO 8601 time: {value!r}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    seconds = calendar.timegm(moment.utctimetuple())
    return seconds * 1_000_000_000 + moment.microsecond * 1000


def span_window(record: Mapping[str, Any]) -> tuple[int, int]:
    """(start, end) in epoch ns: the hook stamps ``time`` when it starts, then ``latency_ms``."""
    start = parse_time(record.get("time"))
    latency = record.get("latency_ms")
    if isinstance(latency, bool) or not isinstance(latency, int | float):
        return start, start
    if not math.isfinite(latency) or latency <= 0:
        return start, start
    return start, start + round(latency * 1_000_000)


def _failure(record: Mapping[str, Any]) -> str | None:
    error = record.get("error")
    if error:
        return _text(error)
    errors = record.get("errors")
    if isinstance(errors, list) and errors:
        return "; ".join(t for t in map(_text, errors) if t is not None)
    return None


def emit_spans(records: Iterable[Mapping[str, Any]], tracer_provider: TracerProvider) -> int:
    """Start and end one span per record on ``tracer_provider``; returns how many.

    Records are expected to be valid (``span_window`` does not raise); the provider's
    processors decide where the spans go, so tests can inject an in-memory exporter.
    """
    from opentelemetry.trace import SpanKind, Status, StatusCode

    from hookwise import __version__

    tracer = tracer_provider.get_tracer("hookwise", __version__)
    count = 0
    for record in records:
        start, end = span_window(record)
        span = tracer.start_span(
            SPAN_NAME, kind=SpanKind.INTERNAL, attributes=span_attributes(record), start_time=start
        )
        failure = _failure(record)
        if failure is not None:
            span.set_status(Status(StatusCode.ERROR, failure))
        span.end(end_time=end)
        count += 1
    return count


# -- sending -----------------------------------------------------------------------------


def default_resource() -> Resource:
    """``OTEL_SERVICE_NAME`` / ``OTEL_RESOURCE_ATTRIBUTES`` win; the service is else hookwise."""
    from opentelemetry.sdk.resources import Resource

    from hookwise import __version__

    resource = Resource.create({"service.version": __version__})
    if str(resource.attributes.get("service.name", "")).startswith("unknown_service"):
        resource = resource.merge(Resource({"service.name": "hookwise"}))
    return resource


def traces_endpoint(explicit: str | None, env: Mapping[str, str]) -> str:
    """The URL spans are POSTed to, with the precedence of the OTLP spec.

    ``explicit`` (``--endpoint``) and ``OTEL_EXPORTER_OTLP_ENDPOINT`` are base URLs that get
    ``/v1/traces`` (unless they already end with it); ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``
    is used as it is.
    """
    if explicit:
        base = explicit
    elif env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"):
        return env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]
    else:
        base = env.get("OTEL_EXPORTER_OTLP_ENDPOINT") or DEFAULT_ENDPOINT
    base = base.rstrip("/")
    return base if base.endswith(TRACES_PATH) else base + TRACES_PATH


class SpanSender:
    """Turns records into spans and exports them synchronously.

    A batch processor would hide whether the collector accepted the spans; the checkpoint
    may only move when it did, so spans are collected and handed to the exporter here.
    """

    def __init__(self, exporter: SpanExporter, resource: Resource | None = None) -> None:
        from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor, TracerProvider
        from opentelemetry.sdk.trace.sampling import ALWAYS_ON

        collected: list[ReadableSpan] = []

        class _Collect(SpanProcessor):
            def on_end(self, span: ReadableSpan) -> None:
                collected.append(span)

        self.exporter = exporter
        self.error = ""
        self._collected = collected
        # ALWAYS_ON: an audit export must not be thinned by an OTEL_TRACES_SAMPLER setting.
        self.provider = TracerProvider(
            sampler=ALWAYS_ON, resource=resource or default_resource(), shutdown_on_exit=False
        )
        self.provider.add_span_processor(_Collect())

    def send(self, records: Sequence[Mapping[str, Any]]) -> bool:
        """Export one batch; False (with ``error`` set) unless the exporter accepted all of it."""
        from opentelemetry.sdk.trace.export import SpanExportResult

        self._collected.clear()
        count = emit_spans(records, self.provider)
        spans = list(self._collected)
        self._collected.clear()
        if len(spans) != count:
            self.error = f"the SDK produced {len(spans)} span(s) for {count} record(s)"
            self.error += " (is OTEL_SDK_DISABLED set?)"
            return False
        if not spans:
            return True
        result = self.exporter.export(spans)
        if result is not SpanExportResult.SUCCESS:
            self.error = f"the exporter did not accept {count} span(s)"
            return False
        self.error = ""
        return True

    def shutdown(self) -> None:
        self.provider.shutdown()
        self.exporter.shutdown()


def otlp_sender(endpoint: str | None = None, env: Mapping[str, str] | None = None) -> SpanSender:
    """A sender over the SDK's OTLP/HTTP exporter (headers, timeout, TLS from OTEL_* vars)."""
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    url = traces_endpoint(endpoint, os.environ if env is None else env)
    return SpanSender(OTLPSpanExporter(endpoint=url))


# -- reading the log with a checkpoint ---------------------------------------------------


@dataclass(frozen=True)
class Checkpoint:
    """Where the export stopped: a byte offset (and line number) in the file with ``inode``.

    ``head`` hashes the file's first ``min(offset, 256)`` bytes, so a new file that got a
    recycled inode is not taken for the old one.
    """

    inode: int
    offset: int
    line: int
    head: str

    @classmethod
    def load(cls, path: str) -> Checkpoint | None:
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
            return cls(
                inode=int(data["inode"]),
                offset=int(data["offset"]),
                line=int(data["line"]),
                head=str(data["head"]),
            )
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise CheckpointError(
                f"{path}: unreadable checkpoint ({exc}); remove it to export the whole log again"
            ) from None

    def save(self, path: str, log: str) -> None:
        data = {
            "version": 1,
            "log": os.path.abspath(log),
            "inode": self.inode,
            "offset": self.offset,
            "line": self.line,
            "head": self.head,
        }
        tmp = f"{path}.tmp{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(data, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)


def _head(handle: IO[bytes], offset: int) -> str:
    prefix = os.pread(handle.fileno(), min(offset, _HEAD_BYTES), 0)
    return hashlib.sha256(prefix).hexdigest()


@dataclass
class _Open:
    path: str
    handle: IO[bytes]
    inode: int
    size: int


@dataclass
class PassResult:
    """One pass over the log: what was sent, skipped, and whether everything went out."""

    exported: int = 0
    skipped: int = 0
    ok: bool = True
    problems: list[str] = field(default_factory=list)


class LogExporter:
    """Sends the audit log's records from the checkpoint on, one batch at a time.

    ``send`` gets a batch of records and returns whether it arrived (``SpanSender.send``).
    ``report`` receives one line per problem: ``file:line: what`` for a malformed line, or a
    note about rotation and truncation. Use it as a context manager: it holds a lock so two
    exports of the same log cannot both send a record.
    """

    def __init__(
        self,
        log: str,
        send: Callable[[Sequence[Mapping[str, Any]]], bool],
        *,
        checkpoint: str | None = None,
        batch_size: int = DEFAULT_BATCH,
        report: Callable[[str], None] | None = None,
    ) -> None:
        self.log = log
        self.checkpoint_path = checkpoint or log + CHECKPOINT_SUFFIX
        self.batch_size = max(1, batch_size)
        self._send = send
        self._report = report or (lambda _message: None)
        self._lock_fd: int | None = None
        self._problems: list[str] = []

    def __enter__(self) -> LogExporter:
        os.makedirs(os.path.dirname(os.path.abspath(self.checkpoint_path)), exist_ok=True)
        fd = os.open(self.checkpoint_path + ".lock", os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise CheckpointError(
                f"{self.checkpoint_path}: another export of this log is running"
            ) from None
        self._lock_fd = fd
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def _files(self) -> list[_Open]:
        """The rotated files, oldest first, then the live one; opened, so names may move."""
        directory, base = os.path.split(self.log)
        pattern = re.compile(re.escape(base) + r"\.(\d+)")
        try:
            names = os.listdir(directory or ".")
        except FileNotFoundError:
            names = []
        numbered = sorted(
            ((int(m.group(1)), name) for name in names if (m := pattern.fullmatch(name))),
            reverse=True,
        )
        opened: list[_Open] = []
        for path in [os.path.join(directory, name) for _, name in numbered] + [self.log]:
            try:
                handle = open(path, "rb")  # noqa: SIM115 (closed by run_once)
            except FileNotFoundError:
                continue
            status = os.fstat(handle.fileno())
            opened.append(_Open(path, handle, status.st_ino, status.st_size))
        return opened

    def _start(self, files: list[_Open], saved: Checkpoint | None) -> tuple[int, int, int]:
        """(index of the file, offset, line) to read from."""
        if saved is None:
            return 0, 0, 1
        for index, item in enumerate(files):
            if item.inode != saved.inode or _head(item.handle, saved.offset) != saved.head:
                continue
            if item.size < saved.offset:
                self._note(f"{item.path}: shorter than the checkpoint; exporting it again")
                return index, 0, 1
            return index, saved.offset, saved.line
        if files:
            self._note(
                f"{self.log}: the checkpointed file is gone (rotated out?); records written to"
                f" it after line {saved.line - 1} could not be exported"
            )
        return 0, 0, 1

    def _note(self, message: str) -> None:
        self._problems.append(message)
        self._report(message)

    def _lines(
        self, files: list[_Open], start: tuple[int, int, int]
    ) -> Iterator[tuple[_Open, int, int, bytes | None]]:
        """(file, offset after the line, its number, the line or None when it is cut off)."""
        first, offset, number = start
        for index in range(first, len(files)):
            item = files[index]
            last = index == len(files) - 1
            handle = item.handle
            handle.seek(offset if index == first else 0)
            position = handle.tell()
            line = number if index == first else 1
            for raw in handle:
                if not raw.endswith(b"\n"):
                    if last:  # still being written: leave it for the next pass
                        break
                    position += len(raw)
                    yield item, position, line, None
                    break
                position += len(raw)
                yield item, position, line, raw
                line += 1
            yield item, position, line, b""  # marks the end of the file (moves the checkpoint)

    def run_once(self) -> PassResult:
        """Send everything after the checkpoint; stops at the first batch that fails."""
        result = PassResult()
        self._problems = result.problems
        saved = Checkpoint.load(self.checkpoint_path)
        files = self._files()
        try:
            if not files:
                return result
            start = self._start(files, saved)
            batch: list[Mapping[str, Any]] = []
            position: tuple[_Open, int, int] | None = None
            last_saved = saved

            def commit() -> bool:
                nonlocal last_saved
                if batch:
                    try:
                        sent = self._send(batch)
                    except Exception as exc:  # an exporter bug must not lose the checkpoint
                        self._note(f"export failed: {type(exc).__name__}: {exc}")
                        sent = False
                    if not sent:
                        result.ok = False
                        return False
                    result.exported += len(batch)
                    batch.clear()
                if position is not None:
                    item, offset, line = position
                    mark = Checkpoint(item.inode, offset, line, _head(item.handle, offset))
                    if mark != last_saved:
                        mark.save(self.checkpoint_path, self.log)
                        last_saved = mark
                return True

            for item, offset, number, raw in self._lines(files, start):
                if raw == b"":
                    position = (item, offset, number)
                    continue
                problem = None
                record: Any = None
                if raw is None:
                    problem = "incomplete line (no newline at the end of a rotated file)"
                else:
                    text = raw.decode("utf-8", errors="replace").strip()
                    if text:
                        try:
                            record = json.loads(text)
                        except ValueError as exc:
                            problem = f"not JSON ({exc})"
                        else:
                            problem = _problem(record)
                if problem is not None:
                    result.skipped += 1
                    self._note(f"{item.path}:{number}: skipped: {problem}")
                elif record is not None:
                    batch.append(record)
                position = (item, offset, number + 1)
                if len(batch) >= self.batch_size and not commit():
                    return result
            commit()
            return result
        finally:
            for item in files:
                item.handle.close()

    def follow(self, stop: threading.Event, poll: float = 0.5, max_backoff: float = 30.0) -> None:
        """Pass after pass until ``stop`` is set; after a failed batch, waits longer each time."""
        wait = poll
        while not stop.is_set():
            try:
                ok = self.run_once().ok
            except OSError as exc:  # e.g. a permission change; the next pass may work again
                self._report(f"{self.log}: {exc}")
                ok = False
            wait = poll if ok else min(max(wait, poll) * 2, max_backoff)
            stop.wait(wait)


def _problem(record: Any) -> str | None:
    if not isinstance(record, dict):
        return f"not a JSON object ({type(record).__name__})"
    try:
        span_window(record)
    except ValueError as exc:
        return str(exc)
    return None


@contextlib.contextmanager
def exporting(
    log: str,
    sender: SpanSender,
    *,
    checkpoint: str | None = None,
    report: Callable[[str], None] | None = None,
    batch_size: int = DEFAULT_BATCH,
) -> Iterator[LogExporter]:
    """A locked ``LogExporter`` over ``sender``; shuts the sender down (flushing it) after."""
    exporter = LogExporter(
        log, sender.send, checkpoint=checkpoint, report=report, batch_size=batch_size
    )
    try:
        with exporter:
            yield exporter
    finally:
        sender.shutdown()
