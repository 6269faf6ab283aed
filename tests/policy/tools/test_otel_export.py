"""OpenTelemetry export of the audit log (hookwise.policy.tools.otel_export, `logs export --otel`)."""

from __future__ import annotations

import datetime
import gzip
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from hookwise.cli.app import cli
from hookwise.policy import audit
from hookwise.policy.tools import otel_export
from hookwise.policy.tools.otel_export import LogExporter, SpanSender

BASE = 1_767_607_200.0  # 2026-01-05T10:00:00Z


def record(index: int, **changes: Any) -> dict[str, Any]:
    """An audit record shaped like hook.audit_record's; ``reason`` carries the index."""
    value: dict[str, Any] = {
        "time": audit.iso_time(BASE + index),
        "source": "hook",
        "host": "claude",
        "session": f"s{index % 2}",
        "event": "PreToolUse",
        "canonical": ["tool.before"],
        "tool": "shell",
        "host_tool": "Bash",
        "cwd": "/p",
        "decision": "deny" if index % 2 else "allow",
        "reason": f"r{index}",
        "rule": "no-force-push" if index % 2 else None,
        "rules": [{"id": "no-force-push", "action": "deny"}, {"id": "audit-all"}]
        if index % 2
        else [],
        "exit_code": 0,
        "latency_ms": 1.5,
        "policy": ["/p/.hookwise/policy.yaml"],
    }
    value.update(changes)
    return value


def write(log: Path, indexes: Sequence[int], max_bytes: int = 10**6, keep: int = 5) -> None:
    for index in indexes:
        audit.append(str(log), record(index), max_bytes, keep)


class Memory:
    """A sender over the SDK's in-memory exporter; ``fail`` makes the next sends fail."""

    def __init__(self) -> None:
        self.exporter = InMemorySpanExporter()
        self.sender = SpanSender(self.exporter)
        self.fail = 0

    def send(self, records: Sequence[Mapping[str, Any]]) -> bool:
        if self.fail:
            self.fail -= 1
            return False
        return self.sender.send(records)

    def reasons(self) -> list[str]:
        return [
            str((span.attributes or {})["hookwise.reason"])
            for span in self.exporter.get_finished_spans()
        ]


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "state" / "audit.jsonl"


@pytest.fixture
def memory() -> Memory:
    return Memory()


def export(log: Path, memory: Memory, **options: Any) -> tuple[otel_export.PassResult, list[str]]:
    notes: list[str] = []
    with LogExporter(str(log), memory.send, report=notes.append, **options) as exporter:
        return exporter.run_once(), notes


# -- record -> span ---------------------------------------------------------------------


def test_one_span_per_record_with_the_decision_attributes() -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    records = [record(0), record(1), record(2, error="internal error: boom", decision="deny")]
    assert otel_export.emit_spans(records, provider) == 3
    spans = exporter.get_finished_spans()
    assert [span.name for span in spans] == ["hookwise.decision"] * 3
    assert dict(spans[1].attributes or {}) == {
        "session.id": "s1",
        "hookwise.host": "claude",
        "hookwise.event": "PreToolUse",
        "hookwise.tool": "shell",
        "hookwise.host_tool": "Bash",
        "hookwise.decision": "deny",
        "hookwise.rule": "no-force-push",
        "hookwise.reason": "r1",
        "hookwise.source": "hook",
        "hookwise.rules": ("no-force-push", "audit-all"),
        "hookwise.canonical": ("tool.before",),
        "hookwise.exit_code": 0,
    }
    assert (spans[0].attributes or {})["hookwise.rules"] == ()
    assert "hookwise.rule" not in (spans[0].attributes or {})
    start = int(BASE + 1) * 10**9
    assert (spans[1].start_time, spans[1].end_time) == (start, start + 1_500_000)
    assert spans[1].status.status_code is StatusCode.UNSET
    assert spans[2].status.status_code is StatusCode.ERROR
    assert spans[2].status.description == "internal error: boom"
    assert spans[0].context is not None and spans[1].context is not None
    assert spans[0].context.trace_id != spans[1].context.trace_id  # one trace per decision


def test_span_window() -> None:
    assert otel_export.span_window({"time": "2026-01-05T10:00:00.250Z", "latency_ms": 2}) == (
        1_767_607_200_250_000_000,
        1_767_607_200_252_000_000,
    )
    naive = otel_export.span_window({"time": "2026-01-05T10:00:00"})  # UTC when no zone
    assert naive == (1_767_607_200 * 10**9, 1_767_607_200 * 10**9)
    for latency in (-1, None, "3", True, float("nan")):
        start, end = otel_export.span_window(
            {"time": "2026-01-05T10:00:00Z", "latency_ms": latency}
        )
        assert start == end
    for bad in ({}, {"time": 5}, {"time": "yesterday"}):
        with pytest.raises(ValueError, match="time"):
            otel_export.span_window(bad)


def test_traces_endpoint_precedence() -> None:
    endpoint = otel_export.traces_endpoint
    assert endpoint(None, {}) == "http://localhost:4318/v1/traces"
    assert endpoint(None, {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318/"}) == (
        "http://c:4318/v1/traces"
    )
    both = {
        "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318",
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://t/custom",
    }
    assert endpoint(None, both) == "http://t/custom"
    assert endpoint("http://x:1", both) == "http://x:1/v1/traces"
    assert endpoint("http://x:1/v1/traces", both) == "http://x:1/v1/traces"


_TEXT_KEYS = {
    "session.id": "session",
    "hookwise.host": "host",
    "hookwise.event": "event",
    "hookwise.tool": "tool",
    "hookwise.host_tool": "host_tool",
    "hookwise.decision": "decision",
    "hookwise.rule": "rule",
    "hookwise.reason": "reason",
    "hookwise.source": "source",
}
_loose = st.none() | st.text(max_size=12) | st.integers(-3, 3) | st.booleans()
_rules = st.lists(
    st.fixed_dictionaries({"id": _loose}, optional={"action": st.sampled_from(["deny", "allow"])})
    | st.text(max_size=6),
    max_size=4,
)
_times = st.datetimes(
    min_value=datetime.datetime(2000, 1, 1), max_value=datetime.datetime(2100, 1, 1)
).map(lambda moment: moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z")
_records = st.fixed_dictionaries(
    {"time": _times},
    optional={
        **{key: _loose for key in _TEXT_KEYS.values()},
        "rules": _rules | st.none() | st.text(max_size=3),
        "canonical": st.lists(st.text(max_size=10) | st.none(), max_size=3),
        "exit_code": st.integers(0, 2) | st.booleans() | st.none(),
        "latency_ms": st.floats(min_value=0, max_value=60_000) | st.integers(0, 10**4) | st.none(),
        "cwd": st.text(max_size=5),
    },
)


@settings(max_examples=150, deadline=None)
@given(_records)
def test_attribute_mapping_property(value: dict[str, Any]) -> None:
    attributes = otel_export.span_attributes(value)
    for name, key in _TEXT_KEYS.items():
        raw = value.get(key)
        if raw is None or raw == "":
            assert name not in attributes
        else:
            assert attributes[name] == (raw if isinstance(raw, str) else json.dumps(raw))
    rules = value.get("rules")
    ids = [
        (r.get("id") if isinstance(r, dict) else r)
        for r in (rules if isinstance(rules, list) else [])
    ]
    expected_rules = [
        i if isinstance(i, str) else json.dumps(i) for i in ids if i is not None and i != ""
    ]
    assert attributes["hookwise.rules"] == expected_rules
    if "exit_code" in value and type(value["exit_code"]) is int:
        assert attributes["hookwise.exit_code"] == value["exit_code"]
    else:
        assert "hookwise.exit_code" not in attributes
    assert "hookwise.cwd" not in attributes
    for item in attributes.values():
        assert isinstance(item, str | int) or all(isinstance(part, str) for part in item)
    # The SDK keeps every attribute as it is: none is an invalid OTel value.
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    otel_export.emit_spans([value], provider)
    (span,) = exporter.get_finished_spans()
    kept = {k: tuple(v) if isinstance(v, list) else v for k, v in attributes.items()}
    assert dict(span.attributes or {}) == kept
    assert span.start_time == otel_export.parse_time(value["time"])
    assert span.end_time is not None and span.end_time >= span.start_time


# -- the log, the checkpoint, rotation ---------------------------------------------------


def test_checkpoint_second_export_sends_nothing_new(log: Path, memory: Memory) -> None:
    write(log, range(3))
    result, notes = export(log, memory)
    assert (result.exported, result.skipped, result.ok, notes) == (3, 0, True, [])
    assert memory.reasons() == ["r0", "r1", "r2"]
    checkpoint = json.loads(log.with_name("audit.jsonl.otel-checkpoint").read_text())
    assert checkpoint["inode"] == log.stat().st_ino
    assert checkpoint["offset"] == log.stat().st_size and checkpoint["line"] == 4
    result, _ = export(log, memory)
    assert result.exported == 0
    assert memory.reasons() == ["r0", "r1", "r2"]
    write(log, [3, 4])
    result, _ = export(log, memory)
    assert result.exported == 2
    assert memory.reasons() == ["r0", "r1", "r2", "r3", "r4"]


def test_rotation_is_followed_by_inode(log: Path, memory: Memory) -> None:
    size = len(json.dumps(record(0))) + 1
    write(log, range(4), max_bytes=size * 3, keep=10)
    assert log.with_name("audit.jsonl.1").exists()
    result, _ = export(log, memory, batch_size=2)
    assert result.exported == 4
    # The checkpointed file rotates twice (to .2) while nobody exports.
    write(log, range(4, 11), max_bytes=size * 3, keep=10)
    assert log.with_name("audit.jsonl.3").exists()
    result, notes = export(log, memory, batch_size=2)
    assert (result.exported, notes) == (7, [])
    assert memory.reasons() == [f"r{i}" for i in range(11)]
    assert export(log, memory)[0].exported == 0


def test_a_file_rotated_out_is_reported(log: Path, memory: Memory) -> None:
    size = len(json.dumps(record(0))) + 1
    write(log, range(2), max_bytes=size * 2, keep=1)
    export(log, memory)
    write(log, range(2, 9), max_bytes=size * 2, keep=1)  # the old file is deleted
    result, notes = export(log, memory)
    assert len(notes) == 1 and "checkpointed file is gone" in notes[0]
    on_disk = [
        json.loads(line)["reason"]
        for name in ("audit.jsonl.1", "audit.jsonl")
        for line in log.with_name(name).read_text().splitlines()
    ]
    assert "r2" not in on_disk and result.exported == len(on_disk)
    assert memory.reasons() == ["r0", "r1", *on_disk]


def test_a_truncated_log_is_exported_from_its_start(log: Path, memory: Memory) -> None:
    write(log, range(3))
    export(log, memory)
    text = log.read_text().splitlines(keepends=True)
    log.write_text(text[0])  # same inode, same first bytes, but shorter
    result, notes = export(log, memory)
    assert result.exported == 1 and "shorter than the checkpoint" in notes[0]


def test_a_recycled_inode_is_not_taken_for_the_old_file(log: Path, memory: Memory) -> None:
    write(log, range(3))
    export(log, memory)
    checkpoint = log.with_name("audit.jsonl.otel-checkpoint")
    data = json.loads(checkpoint.read_text())
    log.write_text(json.dumps(record(7)) + "\n" * 400)  # same inode (written in place)
    assert log.stat().st_ino == data["inode"]
    result, notes = export(log, memory)
    assert result.exported == 1 and "gone" in notes[0]
    assert memory.reasons()[-1] == "r7"


def test_malformed_lines_are_reported_and_skipped(log: Path, memory: Memory) -> None:
    write(log, [0])
    with log.open("a") as handle:
        handle.write("garbage\n[1, 2]\n\n")
        handle.write(json.dumps({"host": "claude"}) + "\n")
        handle.write(json.dumps(record(1, time="noon")) + "\n")
    write(log, [2])
    result, notes = export(log, memory)
    assert (result.exported, result.skipped) == (2, 4)
    assert [note.split(": skipped: ")[0] for note in notes] == [
        f"{log}:2",
        f"{log}:3",
        f"{log}:5",
        f"{log}:6",
    ]
    assert "not JSON" in notes[0] and "not a JSON object (list)" in notes[1]
    assert "no 'time'" in notes[2] and "'noon'" in notes[3]
    assert memory.reasons() == ["r0", "r2"]
    assert export(log, memory) == (otel_export.PassResult(), [])  # not reported twice


def test_a_line_still_being_written_waits(log: Path, memory: Memory) -> None:
    write(log, [0])
    line = json.dumps(record(1))
    with log.open("a") as handle:
        handle.write(line[:20])
    result, notes = export(log, memory)
    assert (result.exported, notes) == (1, [])
    with log.open("a") as handle:
        handle.write(line[20:] + "\n")
    result, notes = export(log, memory)
    assert (result.exported, notes) == (1, [])
    assert memory.reasons() == ["r0", "r1"]


def test_a_failed_batch_keeps_the_checkpoint_before_it(log: Path, memory: Memory) -> None:
    write(log, range(5))
    memory.fail = 0
    sent: list[int] = []

    def flaky(records: Sequence[Mapping[str, Any]]) -> bool:
        sent.append(len(records))
        return len(sent) != 2 and memory.send(records)

    with LogExporter(str(log), flaky, batch_size=2) as exporter:
        result = exporter.run_once()
    assert (result.ok, result.exported) == (False, 2)
    result, _ = export(log, memory, batch_size=2)
    assert (result.ok, result.exported) == (True, 3)
    assert memory.reasons() == [f"r{i}" for i in range(5)]


def test_an_exporter_exception_is_a_failed_batch(log: Path) -> None:
    write(log, [0])

    def broken(records: Sequence[Mapping[str, Any]]) -> bool:
        raise ConnectionError("collector down")

    notes: list[str] = []
    with LogExporter(str(log), broken, report=notes.append) as exporter:
        result = exporter.run_once()
    assert not result.ok and notes == ["export failed: ConnectionError: collector down"]
    assert not log.with_name("audit.jsonl.otel-checkpoint").exists()


def test_two_exports_of_one_log_cannot_run_at_once(log: Path, memory: Memory) -> None:
    write(log, [0])
    with (
        LogExporter(str(log), memory.send),
        pytest.raises(otel_export.CheckpointError, match="another export"),
        LogExporter(str(log), memory.send),
    ):
        pass


def test_an_unreadable_checkpoint_stops_the_export(log: Path, memory: Memory) -> None:
    write(log, [0])
    log.with_name("audit.jsonl.otel-checkpoint").write_text("{")
    with pytest.raises(otel_export.CheckpointError, match="remove it"):
        export(log, memory)
    assert memory.reasons() == []


def test_follow_exports_new_records_across_rotations(log: Path, memory: Memory) -> None:
    size = len(json.dumps(record(0))) + 1
    write(log, range(2), max_bytes=size * 3, keep=10)
    stop = threading.Event()
    with LogExporter(str(log), memory.send) as exporter:
        thread = threading.Thread(target=exporter.follow, args=(stop, 0.02))
        thread.start()
        try:
            for index in range(2, 14):
                write(log, [index], max_bytes=size * 3, keep=10)
                time.sleep(0.01)
            deadline = time.monotonic() + 20
            while len(memory.reasons()) < 14 and time.monotonic() < deadline:
                time.sleep(0.02)
        finally:
            stop.set()
            thread.join(10)
    assert memory.reasons() == [f"r{i}" for i in range(14)]


def test_follow_retries_after_a_failure(log: Path, memory: Memory) -> None:
    write(log, range(2))
    memory.fail = 2
    stop = threading.Event()
    with LogExporter(str(log), memory.send) as exporter:
        thread = threading.Thread(target=exporter.follow, args=(stop, 0.01, 0.05))
        thread.start()
        deadline = time.monotonic() + 20
        while len(memory.reasons()) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        stop.set()
        thread.join(10)
    assert memory.reasons() == ["r0", "r1"]


# -- a real OTLP/HTTP round trip ---------------------------------------------------------


class Collector:
    """A minimal OTLP/HTTP receiver: POST /v1/traces with a protobuf body."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, str], ExportTraceServiceRequest]] = []
        self.status = 200
        collector = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                request = ExportTraceServiceRequest()
                request.ParseFromString(body)
                if collector.status == 200:
                    collector.requests.append(
                        (self.path, {k.lower(): v for k, v in self.headers.items()}, request)
                    )
                reply = ExportTraceServiceResponse().SerializeToString()
                self.send_response(collector.status)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def spans(self) -> list[Any]:
        return [
            span
            for _, _, request in self.requests
            for resource_spans in request.resource_spans
            for scope_spans in resource_spans.scope_spans
            for span in scope_spans.spans
        ]


def _value(value: AnyValue) -> Any:
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return [_value(v) for v in value.array_value.values]
    return getattr(value, kind) if kind else None


def _attributes(items: Any) -> dict[str, Any]:
    return {item.key: _value(item.value) for item in items}


@pytest.fixture
def collector(monkeypatch: pytest.MonkeyPatch) -> Iterator[Collector]:
    for name in [
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
        "OTEL_EXPORTER_OTLP_HEADERS",
        "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
        "OTEL_EXPORTER_OTLP_COMPRESSION",
        "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION",
        "OTEL_SERVICE_NAME",
        "OTEL_RESOURCE_ATTRIBUTES",
        "OTEL_SDK_DISABLED",
        "OTEL_TRACES_SAMPLER",
    ]:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    server = Collector()
    server.thread.start()
    yield server
    server.server.shutdown()
    server.server.server_close()


def test_otlp_http_round_trip(log: Path, collector: Collector) -> None:
    write(log, range(3))
    runner = CliRunner()
    args = ["logs", "export", "--otel", "--path", str(log), "--endpoint", collector.url]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert f"exported 3 decision(s) to {collector.url}/v1/traces" in result.output
    assert [path for path, _, _ in collector.requests] == ["/v1/traces"]
    _, headers, request = collector.requests[0]
    assert headers["content-type"] == "application/x-protobuf"
    resource = _attributes(request.resource_spans[0].resource.attributes)
    assert resource["service.name"] == "hookwise"
    assert request.resource_spans[0].scope_spans[0].scope.name == "hookwise"
    spans = collector.spans()
    assert [span.name for span in spans] == ["hookwise.decision"] * 3
    attributes = _attributes(spans[1].attributes)
    assert attributes == {
        "session.id": "s1",
        "hookwise.host": "claude",
        "hookwise.event": "PreToolUse",
        "hookwise.tool": "shell",
        "hookwise.host_tool": "Bash",
        "hookwise.decision": "deny",
        "hookwise.rule": "no-force-push",
        "hookwise.reason": "r1",
        "hookwise.source": "hook",
        "hookwise.rules": ["no-force-push", "audit-all"],
        "hookwise.canonical": ["tool.before"],
        "hookwise.exit_code": 0,
    }
    start = int(BASE + 1) * 10**9
    assert (spans[1].start_time_unix_nano, spans[1].end_time_unix_nano) == (
        start,
        start + 1_500_000,
    )
    # Run again: the checkpoint says everything went out.
    result = runner.invoke(cli, args)
    assert result.exit_code == 0 and "exported 0 decision(s)" in result.output
    assert len(collector.requests) == 1


def test_the_standard_otel_variables_configure_the_export(
    log: Path, collector: Collector, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(log, [0])
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.url)
    monkeypatch.setenv("OTEL_SERVICE_NAME", "agents-ci")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_HEADERS", "x-token=s3cret")
    checkpoint = log.parent / "elsewhere" / "cp.json"
    result = CliRunner().invoke(
        cli,
        ["logs", "export", "--otel", "--path", str(log), "--checkpoint", str(checkpoint)],
    )
    assert result.exit_code == 0, result.output
    _, headers, request = collector.requests[0]
    assert headers["x-token"] == "s3cret"
    assert _attributes(request.resource_spans[0].resource.attributes)["service.name"] == (
        "agents-ci"
    )
    assert json.loads(checkpoint.read_text())["line"] == 2


def test_a_rejected_batch_exits_1_and_is_sent_again(log: Path, collector: Collector) -> None:
    write(log, range(2))
    collector.status = 400  # not retryable: the exporter gives up at once
    args = ["logs", "export", "--otel", "--path", str(log), "--endpoint", collector.url]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1
    assert "failed" in result.output and "run again to resume" in result.output
    collector.status = 200
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert [_attributes(s.attributes)["hookwise.reason"] for s in collector.spans()] == [
        "r0",
        "r1",
    ]


def test_logs_still_shows_the_log_and_export_needs_a_target(log: Path) -> None:
    write(log, [1])
    runner = CliRunner()
    result = runner.invoke(cli, ["logs", "--path", str(log)])
    assert result.exit_code == 0
    assert "claude PreToolUse Bash -> deny [no-force-push]: r1" in result.output
    result = runner.invoke(cli, ["logs", "export", "--path", str(log)])
    assert result.exit_code == 2 and "--otel" in result.output


# -- without the extra -------------------------------------------------------------------


def test_missing_extra_is_a_clear_error(log: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(log, [0])
    monkeypatch.setitem(sys.modules, "opentelemetry.sdk.trace", None)
    with pytest.raises(otel_export.OtelUnavailableError, match=r"pip install 'hookwise\[otel\]'"):
        otel_export.require_sdk()
    result = CliRunner().invoke(cli, ["logs", "export", "--otel", "--path", str(log)])
    assert result.exit_code == 2
    assert "pip install 'hookwise[otel]'" in result.output
    assert not log.with_name("audit.jsonl.otel-checkpoint").exists()


def test_the_module_imports_without_opentelemetry() -> None:
    probe = (
        "import sys\n"
        "import hookwise.policy.tools.otel_export\n"
        "print(' '.join(m for m in sys.modules if m.startswith('opentelemetry')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == ""
