"""``hookwise hook``: the command every agent runs before (and after) its actions.

Usage: ``hookwise hook [--host HOST] [--policy FILE] [--no-audit]``

Reads one event on stdin, decides with the policy, prints only the host's answer on stdout
and exits with the code that host obeys. Diagnostics go to stderr and the audit log.

This is the hot path: it runs as a fresh process for every tool call, so it imports only
the standard library and reads the compiled policy cache (cache.py); PyYAML and the
compiler load only when a policy file changed. It never fails silently: a payload it
cannot read, a broken or unreadable policy file or an internal error denies tool calls
(with a reason naming the file and the error) and lets advisory events pass with a
visible message, unless ``settings.on_error`` or ``HOOKWISE_ON_ERROR`` says otherwise.
"""

from __future__ import annotations

import sys
import time

from hookwise.policy import audit, call_deadline, confinement, fastjson
from hookwise.policy import os_lite as os  # os without its import cost
from hookwise.policy.adapters.base import exit_blocking
from hookwise.policy.cache import cache_dir, compiled_policy
from hookwise.policy.canonical import HookEnv
from hookwise.policy.pipeline import Outcome, decide, failure_answer

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal as _signal  # the builtin's stub: the same functions
    from typing import Any

    from hookwise.policy.retry_state import FileRetryState
else:
    import _signal  # builtin and loaded already; ``signal`` imports enum (about 0.1 s)

USAGE = """\
Usage: hookwise hook [--host HOST] [--policy FILE] [--no-audit]

Answer one agent hook event (JSON on stdin) with the policy's decision, in the form the
host obeys. Register it as the hook command of an agent with `hookwise install HOST`.

Options:
  --host NAME      the agent (default: detected from the payload); --platform, the
                   spelling of commands registered earlier, is the same
  --policy FILE    use FILE as the project policy (default: .hookwise/policy.yaml found
                   from the event's cwd; also $HOOKWISE_POLICY)
  --no-audit       do not write the audit log
  -h, --help       show this message
"""


def parse_args(argv: list[str]) -> tuple[str | None, str | None, bool]:
    """(host, policy file, audit) of the hook's command line; ValueError says what is wrong.
    A tuple and ValueError, not classes of their own: each class costs every hook call
    its creation (about 0.07 M instructions)."""
    platform: str | None = None
    policy: str | None = None
    audit = True
    args = list(argv)
    while args:
        arg = args.pop(0)
        name, eq, inline = arg.partition("=")
        if name in ("--platform", "--host", "--policy"):
            if eq:
                value = inline
            elif args:
                value = args.pop(0)
            else:
                raise ValueError(f"{name} needs a value")
            if name != "--policy":  # --host: the CLI's name for it; --platform stays registered
                # checked against the compiled host tables once they are loaded (main)
                platform = value
            else:
                policy = value
        elif arg == "--no-audit":
            audit = False
        else:
            raise ValueError(f"unexpected argument {arg!r}")
    return platform, policy, audit


def retry_state_dir(env: dict[str, str]) -> str:
    """Where retry counters live between calls: the cache directory; inside `hookwise run`
    (where it is read-only) a directory of this user's under the session's temp directory.

    Retry counters bound a stop-retry loop; they are not a guard. The agent can always feed
    the hook a Stop payload of its own, so a counter it moves ends a loop early at most; it
    never lets a tool call through (docs/confinement.md)."""
    if not confinement.confined(env):
        return os.path.join(cache_dir(env), "state")
    base = env.get("TMPDIR") or "/tmp"
    return os.path.join(base, f"hookwise-retry-{os.getuid()}-{env.get('HOOKWISE_RUN', '')}")


def _broken_policy(message: str, path: str) -> dict[str, Any]:
    """A stand-in policy that only carries an error (a file could not be read)."""
    from hookwise.policy.adapters.hosts import host_tables
    from hookwise.policy.rules.schema import default_settings

    return {
        "rules": [],
        "index": {},
        "settings": default_settings(),
        "errors": [{"file": path, "line": 0, "column": 0, "message": message}],
        "warnings": [],
        "hosts": host_tables(),
        "files": [],
    }


def _follow(
    payload: Any,
    policy: dict[str, Any],
    platform: str | None,
    *,
    cwd: str,
    env: dict[str, str],
    now: float,
    begun: float,
) -> tuple[Outcome | None, dict[str, Any]]:
    """(the payload decoded, the policy for it): the cwd's, or, when the command line moves
    into a directory with a project scope of its own (``cd sub && curl``), the policy
    loaded with that scope too (trust/followed.py), within the same load budget."""
    from hookwise.policy.adapters import DecodeError
    from hookwise.policy.pipeline import decode_payload

    decoded = Outcome()
    try:
        decode_payload(payload, platform, policy["hosts"], env, now=now, outcome=decoded)
    except DecodeError:
        return None, policy
    if not any(ev.command or ev.paths for ev in decoded.events):  # (paths: s27 #6)
        return decoded, policy
    from hookwise.policy.trust.followed import extra_starts

    also: list[str] = []
    for ev in decoded.events:
        also += [d for d in extra_starts(ev, cwd, env) if d not in also]
    if not also:
        return decoded, policy
    try:
        return decoded, compiled_policy(cwd, env, since=begun, also=also)[0]
    except OSError as exc:
        broken = _broken_policy(
            f"cannot read the policy: {exc}", getattr(exc, "filename", "") or "policy"
        )
        return None, broken


def nested_payload(payload: dict[str, Any]) -> bool:
    """Whether an event holds another event (an object naming ``hook_event_name`` below the
    top). Inside ``hookwise run`` another process of the session can reopen the hook's
    stdin through ``/proc`` and write a payload of its own around the host's (an opening
    before, a closing brace after), so that the hook decides on a command of its choosing;
    the host's payload then sits inside it, which no host sends."""
    pending: list[Any] = list(payload.values())
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            if "hook_event_name" in value:
                return True
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return False


# Said on stderr when a person runs the hook at a terminal: it would otherwise wait silently.
TERMINAL_NOTE = (
    "hookwise hook: reading one JSON event on stdin, as an agent sends it to its hook\n"
    '  (e.g. {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": '
    '{"command": "ls"}});\n'
    "  end it with Ctrl-D, leave with Ctrl-C; `hookwise explain` shows the rules' reasoning\n"
)


def _read_stdin() -> str:
    data = sys.stdin.buffer.read()
    text = data.decode("utf-8")
    return text[1:] if text.startswith("\ufeff") else text


# A shell command longer than this is logged cut (heredocs, generated scripts).
COMMAND_LIMIT = 4096


def audit_record(
    outcome: Outcome,
    *,
    now: float,
    latency_ms: float,
    files: list[Any],
    source: str,
) -> dict[str, Any]:
    """The audit log line for one decision (also used by explain and test)."""
    events = outcome.events
    first = events[0] if events else None
    decision = outcome.decision
    record: dict[str, Any] = {
        "time": audit.iso_time(now),
        "source": source,
        "host": outcome.host,
        "session": first.session if first else None,
        "event": outcome.host_event,
        "canonical": [e.name for e in events],
        "tool": first.tool if first else None,
        "host_tool": first.host_tool if first else None,
        "cwd": first.cwd if first else None,
        "decision": (decision.decision if decision else None) or "none",
        "reason": decision.reason if decision else "",
        "rule": decision.rule if decision else None,
        "rules": decision.records if decision else [],
        "exit_code": outcome.answer.exit_code,
        "latency_ms": round(latency_ms, 3),
        "policy": [path for _, path in files],
    }
    command = first.command if first else None
    if command is not None:
        record["command"] = command[:COMMAND_LIMIT]
    if first is not None:
        # the host's id of the call and of the subagent making it: `hookwise coverage`
        # joins the hosts' transcripts with this log on them
        for key in ("tool_use_id", "agent_id"):
            value = first.payload.get(key)
            if isinstance(value, str) and value:
                record[key] = value[:200]
    if decision is not None:
        for key, value in (
            ("contexts", decision.contexts),
            ("messages", decision.messages),
            ("warnings", decision.warnings),
            ("notes", decision.notes),
            ("errors", decision.errors),
        ):
            if value:
                record[key] = value
        if decision.updated_input is not None:
            record["updated_input"] = decision.updated_input
        if decision.stop is not None:
            record["stop"] = decision.stop
        if decision.retry is not None:
            record["retry"] = decision.retry
    if outcome.error:
        record["error"] = outcome.error
    if outcome.approval is not None:
        record["approval"] = outcome.approval
    return record


# `fire` and `simulate` set this for the hooks they run: their decisions are labelled in the
# audit log and `coverage` does not count them as an agent's. A label can only make
# `coverage` report more undecided calls, never fewer, so an agent gains nothing by it.
SOURCE_VARIABLE = "HOOKWISE_AUDIT_SOURCE"
SOURCES = ("fire", "simulate")


def audit_source(env: dict[str, str]) -> str:
    """``hook``, or the tool that ran this hook instead of an agent."""
    source = env.get(SOURCE_VARIABLE)
    return source if source in SOURCES else "hook"


def relay_ask(outcome: Outcome, policy: dict[str, Any], env: dict[str, str]) -> None:
    """An ``ask`` goes to a person through settings.approvals (relay.py), then re-encoded.

    Nothing of the relay is imported unless the decision is such an ``ask``."""
    decision = outcome.decision
    if decision is None or decision.decision != "ask" or outcome.host is None:
        return
    from hookwise.policy.adapters import adapter
    from hookwise.policy.approvals import relay

    settings = policy["settings"]
    tables = policy["hosts"]
    if not relay.applies(decision, outcome.events, settings, tables):
        return
    result = relay.relay(decision, outcome.events, outcome.host, tables, settings, env=env)
    outcome.approval = result.as_dict()
    for note in outcome.answer.notes:  # the first encoding's notes were about the ask
        if note in decision.notes:
            decision.notes.remove(note)
    answer = adapter(outcome.host).encode(decision, outcome.events, tables, settings)
    decision.notes.extend(answer.notes)
    outcome.answer = answer


def fast_exit(code: int) -> None:
    """Flush and leave without the interpreter's teardown (about 2 ms of a hook's run)."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


class _HeldTerm:
    """SIGTERM held until the event is known. A host may end the hooks of an event whose
    answer it discards as it exits (Claude Code 2.1.330 sends SIGTERM to StopFailure hooks
    0.1-0.4 s after starting them, as ``-p`` ends; no SIGKILL follows): the audit record is
    then the hook's only job, so it is finished. Any other event gets SIGTERM back as soon
    as it is known, and dies of a held one then, as the host expects. (``_signal``: the
    builtin, without the enum import of ``signal``.)"""

    __slots__ = ("arrived",)

    def __init__(self) -> None:
        self.arrived = False
        _signal.signal(_signal.SIGTERM, self._hold)

    def _hold(self, signum: int, frame: Any) -> None:
        self.arrived = True

    def release(self, outcome: Outcome, policy: dict[str, Any] | None) -> None:
        """Back to the default unless the host discards this event's answer."""
        tables = policy["hosts"] if policy else {}
        spec = tables.get(outcome.host or "", {}).get("events", {}).get(outcome.host_event)
        if isinstance(spec, dict) and spec.get("honoured") is False:
            return
        _signal.signal(_signal.SIGTERM, _signal.SIG_DFL)
        if self.arrived:
            os.kill(os.getpid(), _signal.SIGTERM)


def main(argv: list[str], *, own_process: bool = False) -> int:
    started = time.perf_counter()
    # the policy load's deadline (rules/budget.py) and the call's count from the process's
    # start: the host's start of the hook, the interpreter's start-up included
    # (``own_process``: this process was started for this call, by the entry points)
    now_m = time.monotonic()
    begun = call_deadline.process_began(now_m) if own_process else now_m
    now = time.time()
    term = _HeldTerm()
    if sys.stdin is None or sys.stdout is None or sys.stderr is None:
        # Python could not open a standard stream (a descriptor limit the host inherited
        # from a tool call, red team s31 run #5): no event can be read or answer given, and
        # exit 2 is the answer every host takes as "blocked" (an exception would exit 1)
        try:  # noqa: SIM105 - contextlib is not loaded on the hot path
            os.write(2, b"hookwise hook: a standard stream could not be opened; blocked\n")
        except OSError:
            pass
        return 2
    if argv and argv[0] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return 0
    try:
        platform, policy_file, write_audit = parse_args(argv)
    except ValueError as exc:
        # A broken hook command must not let tool calls through unnoticed: exit 2 blocks.
        sys.stderr.write(f"hookwise hook: {exc}\n{USAGE}")
        return 2
    raw = HookEnv(os.environ_copy())  # (env. conditions: canonical.HookEnv)
    env: dict[str, str] = raw
    pin_error: str | None = None
    try:  # inside `hookwise run`: where the session started and what it guarded, not $VARS
        env = confinement.pinned_env(env)
        env = env if env is raw else HookEnv(env)
    except OSError as exc:
        pin_error = str(exc)
    sink = audit.hook_started(env)  # inside `hookwise run`: the supervisor waits for an answer
    if policy_file:
        env["HOOKWISE_POLICY"] = os.path.abspath(policy_file)
    outcome = Outcome()
    policy: dict[str, Any] | None = None
    files: list[Any] = []
    made: list[FileRetryState] = []  # the retry counters, once an event used them

    def retry_state() -> FileRetryState:
        if not made:
            from hookwise.policy.retry_state import FileRetryState

            made.append(FileRetryState(retry_state_dir(env)))
        return made[0]

    interactive = sys.stdin.isatty()
    if interactive:
        sys.stderr.write(TERMINAL_NOTE)
    decoded: Outcome | None = None
    # from the hook's start (begun); armed here, where its expiry is answered (below), and
    # disarmed on every way out of the block
    call_deadline.start(begun)
    try:
        payload: Any = None
        bad_input: str | None = None
        try:
            payload = fastjson.loads(_read_stdin())
        except (ValueError, UnicodeDecodeError) as exc:
            bad_input = f"stdin is not a JSON event: {exc}"
        except OSError as exc:
            bad_input = f"cannot read stdin: {exc}"
        if sink is not None and isinstance(payload, dict) and nested_payload(payload):
            bad_input = (
                "stdin holds one event inside another: another process of the session "
                "wrote into the hook's input"
            )
        if isinstance(payload, dict) and not payload.get("cwd"):
            # no cwd in the event: paths are relative to where the host started the hook
            payload["cwd"] = os.getcwd()
        cwd = payload.get("cwd") if isinstance(payload, dict) else None
        where = cwd if isinstance(cwd, str) and cwd else os.getcwd()
        try:
            if pin_error is not None:
                raise OSError(pin_error)
            from hookwise.protocol.guard_env import moves_guard  # (snapshot: plain data)

            if env is raw and any(moves_guard(name) for name in env):
                # before the load: what a host's env file set must not choose the policy,
                # the cache it is read from or the audit log (s26 #9, s27 #3-#5)
                from hookwise.policy.env_origin import drop_planted

                kept = ("HOOKWISE_POLICY",) if policy_file else ()  # (the command's own)
                for note in drop_planted(env, [where, os.getcwd()], kept, platform):
                    sys.stderr.write(note)
            found = compiled_policy(where, env, since=begun)[0]
            policy = found
            files = policy.get("files", [])
        except OSError as exc:
            policy = _broken_policy(
                f"cannot read the policy: {exc}", getattr(exc, "filename", "") or "policy"
            )
        if platform is not None and platform not in policy["hosts"]:
            known = ", ".join(policy["hosts"])
            sys.stderr.write(
                f"hookwise hook: unknown host {platform!r}; expected one of: {known}\n{USAGE}"
            )
            call_deadline.stop()
            return 2  # a broken hook command must not let tool calls through: exit 2 blocks
        if bad_input is not None:
            outcome.host = platform
            outcome.answer = failure_answer(
                outcome, bad_input, policy["hosts"], policy["settings"], env
            )
        else:
            if not policy["errors"]:
                decoded, policy = _follow(
                    payload, policy, platform, cwd=where, env=env, now=now, begun=begun
                )
                files = policy.get("files", [])
            outcome = decide(
                payload, policy, platform, env, now=now, state=retry_state, decoded=decoded
            )
            if policy["settings"].get("approvals") and outcome.decision is not None:
                with call_deadline.paused():  # the relay's wait is bounded by its own
                    relay_ask(outcome, policy, env)
        call_deadline.stop()
    except call_deadline.DecideTimeoutError as late:
        call_deadline.stop()
        if outcome.host is None:  # decoded so far: answered in the host's form
            outcome = decoded if decoded is not None and decoded.events else outcome
            outcome.host = outcome.host or platform
        settings = policy["settings"] if policy else {}
        tables = policy["hosts"] if policy else None
        outcome.answer = failure_answer(outcome, str(late), tables, settings, env)
    except KeyboardInterrupt:
        call_deadline.stop()
        if interactive:  # a person at a terminal: leave quietly, as a shell command does
            sys.stderr.write("\n")
            if sink is not None:
                audit.send_record(sink, audit.HOOK_DONE)
            return 130
        # an agent's hook interrupted: still answer, closed where a guard is concerned
        settings = policy["settings"] if policy else {}
        outcome.answer = failure_answer(outcome, "interrupted (SIGINT)", None, settings, env)
    except Exception as exc:  # an internal error must still answer
        call_deadline.stop()
        import traceback

        traceback.print_exc(file=sys.stderr)
        settings = policy["settings"] if policy else {}
        message = f"internal error: {type(exc).__name__}: {exc}"
        tables = policy["hosts"] if policy else None
        outcome.events = []  # the event is in doubt: answer as for an unknown one
        outcome.answer = failure_answer(outcome, message, tables, settings, env)
    term.release(outcome, policy)
    answer = outcome.answer
    if sink is not None and policy is not None and outcome.host is not None:
        events = policy["hosts"].get(outcome.host, {}).get("events", {})
        exit_blocking(answer, outcome.decision, events.get(outcome.host_event))
    if answer.stdout:
        sys.stdout.write(answer.stdout + "\n")
        sys.stdout.flush()
    if answer.stderr:
        sys.stderr.write(answer.stderr)
    for state in made:
        state.save()
    settings = policy["settings"] if policy else {}
    if write_audit and settings.get("audit.enabled", True) and env.get("HOOKWISE_AUDIT") != "0":
        try:
            record = audit_record(
                outcome,
                now=now,
                latency_ms=(time.perf_counter() - started) * 1000,
                files=files,
                source=audit_source(env),
            )
            if policy and policy.get("untrusted"):
                record["untrusted"] = policy["untrusted"]
            if sink is not None:  # (an unsent record: the sink names the hook lost)
                audit.release_output()
            audit.deliver(record, settings, env)
            sink = None  # the record said it
        except (OSError, ValueError, TypeError) as exc:
            sys.stderr.write(f"hookwise: cannot write the audit log: {exc}\n")
    if sink is not None:
        audit.release_output()
        audit.send_record(sink, audit.HOOK_DONE)
    return answer.exit_code
