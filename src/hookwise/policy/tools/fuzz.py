"""``hookwise policy fuzz``: mutation testing of a policy's own deny and ask rules.

For each deny/ask rule with a command matcher, a *seed* command the rule is meant to catch is
derived from the rule itself (its command pattern, its program/args/flags, or a string its
line regex matches). The seed is respelled in ways bash runs identically (flag orders and
aliases, wrappers, nested shells, substitutions, here-documents, chains, interpreter
one-liners, quoting) and surrounded by near misses that only *mention* the command. Every
variant goes through the same :func:`~hookwise.policy.pipeline.decide` as the hook: a variant
that passes is an escape, a near miss that is blocked is a false positive.

Cold path: imported by the CLI only.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from hookwise.policy.pipeline import decide
from hookwise.policy.tools.payloads import build_payload
from hookwise.shell.programs import OPTIONS, canonical_flag, expand_long

BLOCKING = ("deny", "ask")


# Spellings to try for a flag (what users and models type; the matcher's own option
# table decides what they mean, this only generates candidates).
def _flag_aliases(program: str, flag: str) -> list[str]:
    """Other spellings of ``flag`` that ``program`` accepts (programs.OPTIONS, the table
    the matcher reads), and one GNU abbreviation of its long form that stays unambiguous."""
    spec = OPTIONS.get(program)
    if spec is None:
        return []
    groups = spec[0]
    canonical = canonical_flag(program, flag)
    group = next((g for g in groups if g[0] == canonical), (canonical,))
    out = [spelling for spelling in group if spelling != flag]
    for spelling in group:
        if not spelling.startswith("--"):
            continue
        for size in range(4, len(spelling)):
            prefix = spelling[:size]
            if prefix != flag and expand_long(program, prefix) == spelling:
                out.append(prefix)
                break
    return out


_COREUTILS = frozenset(
    [
        "rm",
        "mv",
        "cp",
        "chmod",
        "chown",
        "chgrp",
        "dd",
        "shred",
        "find",
        "ln",
        "truncate",
        "mkfs",
        "cat",
        "tee",
        "touch",
        "rmdir",
    ]
)


@dataclass
class Finding:
    """One generated command the policy gets wrong."""

    rule: str
    kind: str  # "escape": an equivalent the policy lets through; "false-positive"
    form: str  # the mutation that produced it
    command: str
    seed: str
    blocked_by: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "kind": self.kind,
            "form": self.form,
            "command": self.command,
            "seed": self.seed,
            "blocked_by": self.blocked_by,
        }


@dataclass
class RuleReport:
    """What fuzzing one rule found."""

    rule: str
    seed: str | None
    tried: int = 0
    findings: list[Finding] = field(default_factory=list)
    note: str = ""


# -- seeds ------------------------------------------------------------------------------


def _sample_regex(pattern: str) -> str | None:
    """A short string the regex matches (the first branch, minimal repeats), or None."""
    try:
        import re._parser as sre_parse  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # pragma: no cover - Python < 3.11
        import sre_parse  # type: ignore[no-redef,unused-ignore]

    try:
        parsed = sre_parse.parse(pattern)
    except re.error:
        return None
    out: list[str] = []

    def walk(items: Any) -> bool:
        for op, arg in items:
            name = str(op)
            if name == "LITERAL":
                out.append(chr(arg))
            elif name == "NOT_LITERAL":
                out.append("x" if chr(arg) != "x" else "y")
            elif name == "ANY":
                out.append("x")
            elif name == "IN":
                kinds = {str(k): v for k, v in arg}
                if "NEGATE" in kinds:
                    out.append("x")
                elif "LITERAL" in kinds:
                    out.append(chr(kinds["LITERAL"]))
                elif "RANGE" in kinds:
                    out.append(chr(kinds["RANGE"][0]))
                elif "CATEGORY" in kinds:
                    out.append(" " if "SPACE" in str(kinds["CATEGORY"]) else "x")
                else:
                    return False
            elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                low, _high, sub = arg
                for _ in range(max(low, 0)):
                    if not walk(sub):
                        return False
            elif name == "SUBPATTERN":
                if not walk(arg[-1]):
                    return False
            elif name == "BRANCH":
                if not walk(arg[1][0]):
                    return False
            elif name in ("AT", "ASSERT", "ASSERT_NOT"):
                continue
            elif name == "CATEGORY":
                out.append(" " if "SPACE" in str(arg) else "x")
            else:
                return False
        return True

    if not walk(parsed):
        return None
    text = "".join(out).strip()
    return text or None


def _sample_glob(pattern: str) -> str:
    text = re.sub(r"\{([^,}]*)[^}]*\}", r"\1", pattern)
    text = text.replace("**", "x").replace("*", "x").replace("?", "x").replace("\\", "")
    return re.sub(r"\[!?([^\]])[^\]]*\]", r"\1", text)


def _regex_sample(source: dict[str, Any]) -> str | None:
    """A word the spec's argument or line regex needs, if it has one."""
    for key in ("regex", "line_regex"):
        for pattern in source.get(key, []):
            sample = _sample_regex(pattern)
            if sample:
                return sample
    return None


# Programs whose first operand is a pattern: a path rule's target goes after one.
_SEARCHERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack"})


def _spec_seed(spec: dict[str, Any], target: str) -> tuple[str, str] | None:
    """A command the spec matches: its program, arguments and flags, the rule's path
    ``target``, and a sample of its regexes (``psql 'drop database'``, ``find -delete``);
    with that sample, a word the program's option table does not describe ("" if none)."""
    if spec.get("pattern"):
        return str(spec["pattern"]), ""
    source = spec.get("source") or {}
    if "program" not in source and source.get("reads"):
        source = {**source, "program": ["cat"]}  # `reads: true`: any reader stands for it
    if "program" not in source:
        for pattern in source.get("line_regex", []):
            sample = _sample_regex(pattern)
            if sample:
                return sample, ""
        return None
    words = [_sample_glob(source["program"][0])]
    words += [_sample_glob(a) for a in source.get("args", [])]
    words += list(source.get("flags", []))
    if source.get("any_flags"):
        words.append(source["any_flags"][0])
    if target and words[0] in _SEARCHERS and not source.get("args"):
        words.append("x")  # a searcher's first operand is its pattern, not a file
    if target:
        words.append(target)
    sample = _regex_sample(source) or ""
    if sample:
        words.append(sample)
    return " ".join(shlex.quote(w) for w in words), sample


def _sample_compiled_glob(glob: Any) -> str:
    """A path a compiled glob (globs.py) matches: literals kept, wildcards one ``x``."""
    if isinstance(glob, str):  # the cache's form of a one-literal glob
        return glob
    out: list[str] = []
    for token in glob[0]:
        kind = token[0]
        if kind == "L":
            out.append(str(token[1]))
        elif kind == "C":
            _, negated, chars, ranges = token
            out.append("x" if negated else (chars[:1] or ranges[0][0]))
        elif kind != "**/":
            out.append("x")
    return "".join(out)


def _target_for(rule: dict[str, Any], which: int = 0) -> str:
    """A path argument that makes the rule's files matcher hold, if it has one (``which``:
    its n-th glob, for a rule whose first glob is one it excludes for its program)."""
    files = rule["m"].get("files")
    if not files:
        return ""
    if files.get("outside"):
        return "../victim"
    if files.get("globs"):
        globs = files["globs"]
        return _sample_compiled_glob(globs[min(which, len(globs) - 1)][0])
    if files.get("extensions"):
        return f"victim.{files['extensions'][0].lstrip('.')}"
    return "victim"


def seeds(rule: dict[str, Any], which: int = 0) -> dict[str, str]:
    """Commands the rule should catch, derived from its own command matchers, each with
    the word of it sampled from a regex (data to the program, never respelt as flags)."""
    out: dict[str, str] = {}
    target = _target_for(rule, which)
    for spec in rule["m"].get("command", []):
        found = _spec_seed(spec, target)
        if found:
            out.setdefault(*found)
    return out


# -- mutations --------------------------------------------------------------------------


def _is_flag(word: str) -> bool:
    return word.startswith("-") and len(word) > 1 and word != "--"


def _flag_forms(argv: list[str], data: str = "") -> list[tuple[str, list[str]]]:
    """Respellings of the flags, kept where they stand (``git --force push`` is not
    ``git push --force``), plus all flags moved after the operands. ``data``: a word
    that only looks like a flag (``find -delete``), never respelt."""
    out: list[tuple[str, list[str]]] = []
    flags = [w for w in argv[1:] if _is_flag(w) and w != data]
    if not flags:
        return out
    first = argv.index(flags[0])
    bare = [w for w in argv if not _is_flag(w) or w == data]

    def at_first(words: list[str]) -> list[str]:
        return [*bare[:first], *words, *bare[first:]]

    split = [
        piece for w in flags for piece in ([w] if w.startswith("--") else [f"-{c}" for c in w[1:]])
    ]
    if split != flags:
        out.append(("flags split", at_first(split)))
    if len(split) > 1:
        out.append(("flags reversed", at_first(list(reversed(split)))))
    shorts = [w for w in split if not w.startswith("--")]
    longs = [w for w in split if w.startswith("--")]
    if len(shorts) > 1:
        combined = "-" + "".join(w[1:] for w in reversed(shorts))
        out.append(("flags combined", at_first([combined, *longs])))
    if bare[first:]:
        out.append(("flags after operands", [*bare, *flags]))
    for index, word in enumerate(split):
        for alias in _flag_aliases(os.path.basename(argv[0]), word):
            replaced = [*split[:index], *alias.split(), *split[index + 1 :]]
            out.append((f"flag alias {word} -> {alias}", at_first(replaced)))
    return out


def variants(seed: str, data: str = "") -> list[tuple[str, str]]:
    """(form, command) spellings that bash runs like ``seed`` (``data``: a word of it
    that only looks like a flag, _flag_forms)."""
    try:
        argv = shlex.split(seed)
    except ValueError:
        return []
    if not argv:
        return []
    prog, rest = argv[0], argv[1:]
    line = shlex.join(argv)
    quoted = shlex.quote(line)
    out: list[tuple[str, str]] = [
        (form, shlex.join(words)) for form, words in _flag_forms(argv, data)
    ]
    tail = " ".join(shlex.quote(w) for w in rest)
    if len(prog) > 1 and prog.isalnum():
        out += [
            ("quoted program 'r'm", f"'{prog[0]}'{prog[1:]} {tail}"),
            ("backslash \\rm", f"\\{prog} {tail}"),
            ('double-quoted program "rm"', f'"{prog}" {tail}'),
            ('empty quotes r""m', f'{prog[0]}""{prog[1:]} {tail}'),
            ("ANSI-C $'rm'", f"$'{prog}' {tail}"),
            ("ANSI-C octal program", f"$'{_octal(prog)}' {tail}"),
        ]
    if prog in _COREUTILS:
        out += [
            ("absolute path", f"/bin/{prog} {tail}"),
            ("busybox", f"busybox {line}"),
        ]
    if rest and not _is_flag(rest[-1]):
        out.append(("xargs", f"echo {shlex.quote(rest[-1])} | xargs {shlex.join(argv[:-1])}"))
    out += [
        ("sudo", f"sudo {line}"),
        ("sudo -u", f"sudo -u root {line}"),
        ("env", f"env {line}"),
        ("env VAR=", f"env LC_ALL=C {line}"),
        ("leading assignment", f"FOO=1 {line}"),
        ("nohup", f"nohup {line}"),
        ("timeout", f"timeout 60 {line}"),
        ("nice", f"nice -n 5 {line}"),
        ("command", f"command {line}"),
        ("exec", f"exec {line}"),
        ("time", f"time {line}"),
        ("stdbuf", f"stdbuf -o0 {line}"),
        ("setsid", f"setsid {line}"),
        ("flock", f"flock /tmp/hookwise-fuzz.lock {line}"),
        ("bash -c", f"bash -c {quoted}"),
        ("sh -c", f"sh -c {quoted}"),
        ("bash -lc", f"bash -lc {quoted}"),
        ("eval", f"eval {quoted}"),
        ("$(...)", f"echo $({line})"),
        ("backticks", f"echo `{line}`"),
        ("process substitution", f"cat <({line})"),
        ("subshell", f"({line})"),
        ("group", f"{{ {line}; }}"),
        ("chain &&", f"true && {line}"),
        ("chain ;", f"cd . ; {line}"),
        ("chain ||", f"false || {line}"),
        ("pipe", f"{line} | cat"),
        ("background", f"{line} &"),
        ("newline", f"echo start\n{line}"),
        ("function", f"f() {{ {line}; }}; f"),
        ("function keyword", f"function f {{ {line}; }}; f"),
        ("if", f"if true; then {line}; fi"),
        ("for loop", f"for i in 1; do {line}; done"),
        ("piped to sh", f"echo {quoted} | sh"),
        ("here-string to bash", f"bash <<< {quoted}"),
        ("here-document to sh", f"sh <<'EOF'\n{line}\nEOF"),
        ("substitution in here-document", f"cat > /dev/null <<EOF\n$({line})\nEOF"),
        ("base64 to sh", f"echo {_b64(line)} | base64 -d | sh"),
        (
            "python os.system",
            f"python3 -c {shlex.quote(f'import os; os.system({_js(line)})')}",
        ),
        (
            "python subprocess",
            "python3 -c "
            + shlex.quote(f"import subprocess; subprocess.run({_js(line)}, shell=True)"),
        ),
        ("perl system", f"perl -e {shlex.quote(f'system(q({line}))')}"),
        (
            "node execSync",
            "node -e " + shlex.quote(f'require("child_process").execSync({_js(line)})'),
        ),
        ("awk system", f"awk {shlex.quote(f'BEGIN {{system({_js(line)})}}')}"),
        # what bash and programs run that no word of the line shows as a command
        ("alias", f"shopt -s expand_aliases\nalias hw_fuzz={quoted}\nhw_fuzz"),
        ("trap EXIT", f"trap {quoted} EXIT"),
        ("arithmetic substitution", f"echo $((1+$({line}; echo 0)))"),
        ("parameter default substitution", f": ${{hw_fuzz:=$({line})}}"),
        ("case body", f"case x in x) {line} ;; esac"),
        ("while body", f"while true; do {line}; break; done"),
        ("until condition", f"until {line}; do break; done"),
        ("coproc", f"coproc {line}"),
        ("eval ANSI-C", f"eval $'{_octal(line)}'"),
        ("env -i", f"env -i PATH=/usr/bin:/bin {line}"),
        ("env -C", f"env -C . {line}"),
        ("sudo -u --", f"sudo -u root -- {line}"),
        ("command -p", f"command -p {line}"),
        ("quoted wrapper", f"'nohup' {line}"),
        ("timeout -s", f"timeout -s KILL 60 {line}"),
        ("compgen -C", f"compgen -C {quoted} x"),
        ("git core.sshCommand", f"git -c core.sshCommand={quoted} ls-remote ssh://h/r"),
        ("GIT_SSH_COMMAND", f"GIT_SSH_COMMAND={quoted} git ls-remote ssh://h/r"),
        ("PROMPT_COMMAND", f"PROMPT_COMMAND={quoted} bash -i"),
        (
            "tar --checkpoint-action",
            f"tar -cf /dev/null . --checkpoint=1 --checkpoint-action=exec={quoted}",
        ),
        ("sed e", f"sed -n {shlex.quote('1e ' + line)} /etc/hostname"),
        ("make --eval", f"make --eval={shlex.quote('x: ; ' + line)} x"),
        ("vim -c !", f"vim -es -c {shlex.quote('!' + line)} -c 'q!'"),
        ("awk getline", f"awk {shlex.quote(f'BEGIN {{{_js(line)} | getline}}')}"),
    ]
    if rest and not _is_flag(rest[-1]):
        out.append(
            (
                "xargs -I",
                f"echo {shlex.quote(rest[-1])} | xargs -I{{}} {shlex.join(argv[:-1])} {{}}",
            )
        )
    out += run_time_forms(argv, data)
    seen: set[str] = {seed}
    unique: list[tuple[str, str]] = []
    for form, raw in out:
        command = raw.rstrip()
        if command not in seen:
            seen.add(command)
            unique.append((form, command))
    return unique


def run_time_forms(argv: list[str], data: str = "") -> list[tuple[str, str]]:
    """Spellings whose words, code or program are made when the line runs (issue 24's
    classes): hookwise must find them or answer them unverifiable, never let them by."""
    prog, rest = argv[0], argv[1:]
    line = shlex.join(argv)
    quoted = shlex.quote(line)
    tail = shlex.join(rest)
    program = shlex.quote(prog)
    all_args = '"$@"'
    array = '"${a[@]}"'
    system = f"import os; os.system({_js(line)})"
    reflection = f"getattr(__import__('os'), 'system')({_js(line)})"
    aliased = f"import os as o; o.system({_js(line)})"
    esm = f"import {{execSync as x}} from 'child_process'; x({_js(line)})"
    out: list[tuple[str, str]] = [
        ("program from a variable", f"p={program}; $p {tail}"),
        ("words in an array", f"a=({tail}); {program} {array}"),
        ("positional parameters", f"set -- {tail}; {program} {all_args}"),
        ("sh -c with arguments", f"sh -c {shlex.quote(prog + ' ' + all_args)} _ {tail}"),
        ("line read from data", f"read -r l <<< {quoted}; $l"),
        ("python on stdin", f"echo {shlex.quote(system)} | python3"),
        ("python here-string", f"python3 <<< {shlex.quote(system)}"),
        ("python reflection", f"python3 -c {shlex.quote(reflection)}"),
        ("python aliased import", f"python3 -c {shlex.quote(aliased)}"),
        ("node ESM import", f"node --input-type=module -e {shlex.quote(esm)}"),
        ("script written then run", f"printf '%s\\n' {quoted} > hw_fuzz.sh; sh hw_fuzz.sh"),
        ("script decoded then run", f"echo {_b64(line)} | base64 -d > hw.sh; bash hw.sh"),
        ("makefile written then make", f"printf 'hw:\\n\\t%s\\n' {quoted} > Makefile; make hw"),
        ("env -S attached", f"env -S{quoted}"),
        ("prlimit", f"prlimit --nofile=1024 {line}"),
        ("git rebase --exec", f"git rebase --exec {quoted} HEAD~1"),
        (
            "git config from the environment",
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.hw "
            f"GIT_CONFIG_VALUE_0={shlex.quote('!' + line)} git hw",
        ),
        ("ssh ProxyCommand", f"ssh -o ProxyCommand={quoted} host"),
        ("tmux -c", f"tmux -c {quoted}"),
        ("parallel command", f"parallel ::: {quoted}"),
        ("xargs -i", f"echo x | xargs -i {line}"),
        ("arithmetic subscript", f"x={shlex.quote('a[$(' + line + ')]')}; echo $((x))"),
        ("mapfile callback", f"mapfile -C {quoted} -c 1 a <<< x"),
        (
            "exported function",
            f"env {shlex.quote('BASH_FUNC_hw%%=() { ' + line + '; }')} bash -c hw",
        ),
    ]
    if len(argv) > 1 and all(w and not set(w) & set(" ,{}'\"$\\") for w in argv):
        out.append(("brace expansion", "{" + ",".join(argv) + "}"))
    if len(prog) > 1 and prog.isalnum():
        out.append(("line continuation in the program", f"{prog[0]}\\\n{prog[1:]} {tail}"))
        out.append(("program by a glob", f"/usr/bin/{prog[0]}[{prog[1]}]{prog[2:]} {tail}"))
    flags = [w for w in rest if _is_flag(w) and w != data]
    if flags:
        flag = flags[0]
        after = shlex.join([w for w in rest if w != flag])
        out += [
            ("flag from a variable", f"f={flag}; {program} $f {after}"),
            ("flag from a default", f"{program} ${{hw_fuzz:-{flag}}} {after}"),
            ("flag read from data", f"read f <<< {flag}; {program} $f {after}"),
            ("flag from printf -v", f"printf -v f %s {flag}; {program} $f {after}"),
            ("flag from a command", f"{program} $(echo {flag}) {after}"),
        ]
    if rest and not _is_flag(rest[0]):
        out.append(("computed subcommand", f"{program} $(echo {rest[0]}) {shlex.join(rest[1:])}"))
    if argv[:2] == ["git", "push"]:
        out.append(("+ refspec", "git push origin +HEAD:main"))
    return out + _words_made_on_the_line(argv)


def _words_made_on_the_line(argv: list[str]) -> list[tuple[str, str]]:
    """Session 23's classes: the words reach the program through xargs, a keyed array, a
    here-string or process substitution; the program through a nameref to bash's alias
    table; the line through a Python call the one-liner reader does not know; a file read
    by a subcommand of a program that reads none (git diff --no-index)."""
    prog, rest = argv[0], argv[1:]
    line = shlex.join(argv)
    program = shlex.quote(prog)
    out: list[tuple[str, str]] = []
    if rest:
        words = shlex.join(rest)
        keyed = " ".join(f"[{i}]={shlex.quote(w)}" for i, w in enumerate(rest))
        out += [
            ("xargs -0 from printf", f"printf '%s\\0' {words} | xargs -0 {program}"),
            ("xargs -d from printf", f"printf '%s,' {words} | xargs -d, {program}"),
            (
                "xargs from a here-string of an array",
                f'a=({words}); xargs {program} <<< "${{a[*]}}"',
            ),
            ("xargs from process substitution", f"xargs -0 {program} < <(printf '%s\\0' {words})"),
            ("keyed array", f'a=({keyed}); {program} "${{a[@]}}"'),
        ]
        last, head = shlex.quote(rest[-1]), shlex.join(rest[:-1])
        out.append(
            ("xargs -I from printf", f"printf '%s\\n' {last} | xargs -I{{}} {program} {head} {{}}")
        )
    if prog == "cat" and len(rest) == 1:  # session 23b: a subcommand of a non-reader prints it
        quoted = shlex.quote(rest[0])
        out.append(("git diff --no-index", f"git --no-pager diff --no-index /dev/null {quoted}"))
    out += [
        (
            "nameref to BASH_ALIASES",
            f"declare -n t=BASH_ALIASES; t[hw]={shlex.quote(line)}; shopt -s expand_aliases\nhw",
        ),
        (
            "python stdlib call that runs a command",
            f"python3 -c {shlex.quote(f'import pydoc; pydoc.pipepager(str(), {_js(line)})')}",
        ),
        (
            "python module under another name",
            f"python3 -c {shlex.quote(f'import os; m = os; m.system({_js(line)})')}",
        ),
    ]
    return out


def near_misses(seed: str) -> list[tuple[str, str]]:
    """(form, command) lines that only mention ``seed``: they must not be blocked."""
    try:
        argv = shlex.split(seed)
    except ValueError:
        return []
    if not argv:
        return []
    prog = argv[0]
    line = shlex.join(argv)
    quoted = shlex.quote(line)
    return [
        ("echo", f"echo {line}"),
        ("echo quoted", f"echo {quoted}"),
        ("printf", f"printf '%s\\n' {quoted}"),
        ("comment", f"true # {line}"),
        ("grep for it", f"grep -rn {quoted} docs"),
        ("commit message", f"git commit -m {shlex.quote('do not ' + line)}"),
        ("man page", f"man {shlex.quote(prog)}"),
        ("which", f"which {shlex.quote(prog)}"),
        ("quoted in a file name", f"cat {shlex.quote('notes-' + prog + '.txt')}"),
        ("single-quoted here-document", f"cat > notes.md <<'EOF'\n{line}\nEOF"),
    ]


def _octal(text: str) -> str:
    """``rm`` as ``\\162\\155``: the body of a bash ``$'...'`` that decodes to ``text``."""
    return "".join(f"\\{b:03o}" for b in text.encode())


def _b64(text: str) -> str:
    import base64

    return base64.b64encode(text.encode()).decode()


def _js(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# -- running ----------------------------------------------------------------------------


def _verdict(
    policy: dict[str, Any], command: str, cwd: str, env: dict[str, str]
) -> tuple[bool, str | None]:
    payload = build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": command}, cwd=cwd
    )
    outcome = decide(payload, policy, "claude", env, now=0.0, run_validators=False)
    decision = outcome.decision
    if decision is None:
        return False, None
    blocked = decision.decision in BLOCKING
    return blocked, decision.rule if blocked else None


def fuzz_rule(
    policy: dict[str, Any], rule: dict[str, Any], cwd: str, env: dict[str, str]
) -> RuleReport:
    """Every escape and false positive found for one rule."""
    report = RuleReport(rule["id"], None)
    candidates = seeds(rule)
    caught = [s for s in candidates if _verdict(policy, s, cwd, env)[0]]
    globs = len((rule["m"].get("files") or {}).get("globs") or ())
    for which in range(1, min(globs, 8)):  # its other globs, while none is caught
        if caught:
            break
        candidates = seeds(rule, which)
        caught = [s for s in candidates if _verdict(policy, s, cwd, env)[0]]
    if not caught:
        report.note = "no seed command could be derived that the policy blocks" + (
            f" (tried: {'; '.join(candidates)})" if candidates else ""
        )
        return report
    for seed in caught:
        report.seed = report.seed or seed
        for form, command in variants(seed, candidates[seed]):
            report.tried += 1
            blocked, _ = _verdict(policy, command, cwd, env)
            if not blocked:
                report.findings.append(Finding(rule["id"], "escape", form, command, seed))
        for form, command in near_misses(seed):
            report.tried += 1
            blocked, by = _verdict(policy, command, cwd, env)
            if blocked:
                report.findings.append(
                    Finding(rule["id"], "false-positive", form, command, seed, by)
                )
    return report


def fuzzable(rule: dict[str, Any]) -> bool:
    return (
        rule.get("enabled", True)
        and rule["action"] in BLOCKING
        and rule.get("mode", "enforce") == "enforce"
        and bool(rule["m"].get("command"))
    )


def fuzz_policy(
    policy: dict[str, Any],
    *,
    rule_id: str | None = None,
    cwd: str = "/home/dev/project",
    env: dict[str, str] | None = None,
) -> list[RuleReport]:
    """Fuzz every deny/ask command rule (or the one ``rule_id``); KeyError if unknown."""
    rules = [r for r in policy["rules"] if fuzzable(r)]
    if rule_id is not None:
        rules = [r for r in rules if r["id"] == rule_id]
        if not rules:
            known = ", ".join(r["id"] for r in policy["rules"] if fuzzable(r)) or "none"
            raise KeyError(
                f"no enabled deny/ask rule with a command matcher has id {rule_id!r} "
                f"(fuzzable rules: {known})"
            )
    environment = dict(env or {})
    environment.setdefault("HOME", "/home/dev")
    return [fuzz_rule(policy, rule, cwd, environment) for rule in rules]
