"""Writes hookwise's own conformance cases (oracle case format) to cases/hookwise.jsonl.

The public oracle cases leave gaps; these cover every event, every merge rule, chaining,
matchers, odd answers and translation edge cases. Their reference answers are recorded
with the real engine (see README.md here) and replayed by test_conformance.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

CASES: list[dict[str, Any]] = []


def hook(command: str, name: str | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "command", "command": command}
    if name:
        out["name"] = name
    out.update(extra)
    return out


def echo(obj: Any) -> str:
    return "echo " + shell_quote(json.dumps(obj))


def shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def add(case_id: str, event: str, definitions: list[dict[str, Any]], **rest: Any) -> None:
    case: dict[str, Any] = {"id": case_id, "event": event, "hooks": {event: definitions}}
    case.update(rest)
    CASES.append(case)


SHELL = {"tool_name": "run_shell_command", "tool_input": {"command": "ls", "dir": "."}}
READ = {
    "tool_name": "read_file",
    "tool_input": {"absolute_path": "/a"},
    "tool_response": {"llmContent": "body", "returnDisplay": "shown"},
}
REQ = {
    "model": "gemini-2.5-pro",
    "contents": [
        {"role": "user", "parts": [{"text": "hello"}]},
        {"role": "model", "parts": [{"text": "cal"}, {"functionCall": {"name": "ls", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "ls", "response": {"x": 1}}}]},
        "bare string",
        {"role": "system", "parts": [{"text": "sys"}]},
    ],
    "config": {
        "temperature": 0.7,
        "topP": 0.9,
        "maxOutputTokens": 100,
        "tools": [{"functionDeclarations": [{"name": "ls"}, {"name": "cat"}]}],
    },
}
RESP = {
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [
                    {"text": "Hi "},
                    {"text": "there", "thought": True},
                    {"functionCall": {"name": "ls"}},
                ],
            },
            "finishReason": "STOP",
            "index": 0,
            "safetyRatings": [
                {"category": "HARM_CATEGORY_X", "probability": "LOW", "blocked": False}
            ],
        }
    ],
    "usageMetadata": {
        "promptTokenCount": 4,
        "candidatesTokenCount": 2,
        "totalTokenCount": 6,
        "thoughtsTokenCount": 1,
    },
}

# ---- BeforeTool: interpretation and OR merge
add(
    "bt_exit2_json_deny_and_text",
    "BeforeTool",
    [
        {
            "hooks": [
                hook(echo({"decision": "deny", "reason": "j"}) + "; exit 2", "a"),
                hook("echo plain; exit 5", "b"),
            ]
        }
    ],
    args=SHELL,
)
add(
    "bt_exit1_stdout_warning",
    "BeforeTool",
    [{"hooks": [hook("echo careful; exit 1", "a")]}],
    args=SHELL,
)
add(
    "bt_exit0_stderr_text",
    "BeforeTool",
    [{"hooks": [hook("echo 'only stderr' >&2", "a")]}],
    args=SHELL,
)
add(
    "bt_whitespace_only",
    "BeforeTool",
    [{"hooks": [hook("printf '  \\n\\t '; exit 3", "a")]}],
    args=SHELL,
)
add("bt_json_true", "BeforeTool", [{"hooks": [hook("echo true", "a")]}], args=SHELL)
add("bt_json_empty_object", "BeforeTool", [{"hooks": [hook("echo '{}'", "a")]}], args=SHELL)
add(
    "bt_json_invalid_object",
    "BeforeTool",
    [{"hooks": [hook("echo '{decision: deny}'; exit 2", "a")]}],
    args=SHELL,
)
add(
    "bt_json_trailing_garbage",
    "BeforeTool",
    [{"hooks": [hook('echo \'{"decision":"deny"} x\'', "a")]}],
    args=SHELL,
)
add(
    "bt_two_json_lines",
    "BeforeTool",
    [{"hooks": [hook("echo '{\"a\":1}'; echo '{\"b\":2}'", "a")]}],
    args=SHELL,
)
add("bt_nan_not_json", "BeforeTool", [{"hooks": [hook("echo NaN", "a")]}], args=SHELL)
add(
    "bt_reason_number",
    "BeforeTool",
    [{"hooks": [hook(echo({"decision": "deny", "reason": 42}), "a")]}],
    args=SHELL,
)
add(
    "bt_reason_empty_stop_reason",
    "BeforeTool",
    [{"hooks": [hook(echo({"decision": "block", "reason": "", "stopReason": ""}), "a")]}],
    args=SHELL,
)
add(
    "bt_decision_case",
    "BeforeTool",
    [{"hooks": [hook(echo({"decision": "DENY"}), "a")]}],
    args=SHELL,
)
add(
    "bt_continue_string_false",
    "BeforeTool",
    [{"hooks": [hook(echo({"continue": "false", "stopReason": "s"}), "a")]}],
    args=SHELL,
)
add(
    "bt_ask_and_system_messages",
    "BeforeTool",
    [
        {
            "hooks": [
                hook(echo({"decision": "ask", "systemMessage": "m1"}), "a"),
                hook(echo({"systemMessage": "m2", "suppressOutput": True}), "b"),
            ]
        }
    ],
    args=SHELL,
)
add(
    "bt_tool_input_array_ignored",
    "BeforeTool",
    [{"hooks": [hook(echo({"hookSpecificOutput": {"tool_input": [1, 2]}}), "a")]}],
    args=SHELL,
)
add(
    "bt_tool_input_null",
    "BeforeTool",
    [{"hooks": [hook(echo({"hookSpecificOutput": {"tool_input": None}}), "a")]}],
    args=SHELL,
)
add(
    "bt_tool_input_empty",
    "BeforeTool",
    [{"hooks": [hook(echo({"hookSpecificOutput": {"tool_input": {}}}), "a")]}],
    args=SHELL,
)
add(
    "bt_hso_string",
    "BeforeTool",
    [{"hooks": [hook(echo({"hookSpecificOutput": "abc"}), "a")]}],
    args=SHELL,
)
add(
    "bt_hso_array",
    "BeforeTool",
    [{"hooks": [hook(echo({"hookSpecificOutput": ["q"]}), "a")]}],
    args=SHELL,
)
add(
    "bt_seq_chain_three",
    "BeforeTool",
    [
        {
            "sequential": True,
            "hooks": [
                hook(echo({"hookSpecificOutput": {"tool_input": {"command": "pwd"}}}), "s1"),
                hook("exit 1", "s2"),
                hook(echo({"hookSpecificOutput": {"tool_input": {"x": 1}}}) + "; exit 2", "s3"),
                hook("cat", "s4"),
            ],
        }
    ],
    args=SHELL,
)
add(
    "bt_seq_nonzero_json_no_chain",
    "BeforeTool",
    [
        {
            "sequential": True,
            "hooks": [
                hook(
                    echo({"hookSpecificOutput": {"tool_input": {"command": "rm"}}}) + "; exit 1",
                    "s1",
                ),
                hook(
                    "python3 -c \"import sys,json; d=json.load(sys.stdin); print(json.dumps({'systemMessage': d['tool_input']['command']}))\"",
                    "s2",
                ),
            ],
        }
    ],
    args=SHELL,
)
add(
    "bt_mcp_tool",
    "BeforeTool",
    [{"matcher": "mcp__github__.*", "hooks": [hook("cat", "a")]}],
    args={
        "tool_name": "mcp__github__create_issue",
        "tool_input": {"title": "t"},
        "mcp_context": {
            "server_name": "github",
            "tool_name": "create_issue",
            "command": "gh-mcp",
            "args": ["--x"],
        },
        "original_request_name": "orig",
    },
)
add(
    "bt_matcher_alternation",
    "BeforeTool",
    [
        {"matcher": "write_file|replace", "hooks": [hook("echo hit", "a")]},
        {"matcher": "read_file", "hooks": [hook("echo miss", "b")]},
    ],
    args={"tool_name": "replace", "tool_input": {}},
)
add(
    "bt_matcher_case_sensitive",
    "BeforeTool",
    [{"matcher": "Run_Shell", "hooks": [hook("echo hit", "a")]}],
    args=SHELL,
)
add(
    "bt_matcher_dot_star_anchor",
    "BeforeTool",
    [{"matcher": "^run_.*_command$", "hooks": [hook("echo hit", "a")]}],
    args=SHELL,
)
add(
    "bt_matcher_lookahead",
    "BeforeTool",
    [{"matcher": "^(?!read).*", "hooks": [hook("echo hit", "a")]}],
    args=SHELL,
)
add(
    "bt_matcher_named_group",
    "BeforeTool",
    [{"matcher": "(?<verb>run)_shell", "hooks": [hook("echo hit", "a")]}],
    args=SHELL,
)
add(
    "bt_matcher_python_only_syntax",
    "BeforeTool",
    [{"matcher": "(?P<v>run)_shell", "hooks": [hook("echo hit", "a")]}],
    args=SHELL,
)
add(
    "bt_matcher_inline_flag",
    "BeforeTool",
    [{"matcher": "(?i)RUN", "hooks": [hook("echo hit", "a")]}],
    args=SHELL,
)
add(
    "bt_matcher_exact_fallback",
    "BeforeTool",
    [{"matcher": "run_shell_command[", "hooks": [hook("echo hit", "a")]}],
    args={"tool_name": "run_shell_command[", "tool_input": {}},
)
add(
    "bt_matcher_empty_string",
    "BeforeTool",
    [{"matcher": "", "hooks": [hook("echo hit", "a")]}],
    args=SHELL,
)
add(
    "bt_matcher_escape_d",
    "BeforeTool",
    [{"matcher": "tool\\d+", "hooks": [hook("echo hit", "a")]}],
    args={"tool_name": "tool٣", "tool_input": {}},
)
add(
    "bt_dedup_across_definitions",
    "BeforeTool",
    [
        {"hooks": [hook("echo one", "x")]},
        {"sequential": False, "hooks": [hook("echo one", "x", timeout=1000), hook("echo one")]},
        {"hooks": [hook("echo one")]},
    ],
    args=SHELL,
)
add(
    "bt_disabled_command_unnamed",
    "BeforeTool",
    [{"hooks": [hook("echo a"), hook("echo b", "named-b")]}],
    args=SHELL,
    disabled=["echo a", "named-b"],
)
add(
    "bt_extension_runs_after_project",
    "BeforeTool",
    [{"hooks": [hook(echo({"systemMessage": "p", "decision": "deny", "reason": "p"}), "p")]}],
    args=SHELL,
    extension_hooks=[
        {"BeforeTool": [{"hooks": [hook(echo({"systemMessage": "e1"}), "e1")]}]},
        {"BeforeTool": [{"matcher": "read", "hooks": [hook("echo e2", "e2")]}]},
    ],
)
add(
    "bt_untrusted_only_extensions",
    "BeforeTool",
    [{"hooks": [hook("echo p", "p")]}],
    args=SHELL,
    trusted=False,
    extension_hooks=[{"BeforeTool": [{"hooks": [hook("echo e", "e")]}]}],
)
add(
    "bt_plugin_type_no_command",
    "BeforeTool",
    [{"hooks": [{"type": "plugin", "name": "pl"}, hook("echo ok", "ok")]}],
    args=SHELL,
)
add(
    "bt_timeout_string",
    "BeforeTool",
    [{"hooks": [hook("sleep 2; echo late", "a", timeout="200")]}],
    args=SHELL,
)
add(
    "bt_hook_env_overrides",
    "BeforeTool",
    [
        {
            "hooks": [
                hook(
                    'echo "$GEMINI_CWD|$GEMINI_SESSION_ID|$MINE"',
                    "a",
                    env={"GEMINI_CWD": "/over", "MINE": "m"},
                )
            ]
        }
    ],
    args=SHELL,
)
add(
    "bt_expansion_prefix_and_braces",
    "BeforeTool",
    [{"hooks": [hook("echo $GEMINI_SESSION_IDX ${GEMINI_SESSION_ID} $GEMINI_PLANS_DIR", "a")]}],
    args=SHELL,
    base={"session_id": "s'q"},
)
add(
    "bt_session_id_with_quote",
    "BeforeTool",
    [{"hooks": [hook('echo "$GEMINI_SESSION_ID"', "a")]}],
    args=SHELL,
    base={"session_id": "it's $x"},
)
add(
    "bt_redaction_values_and_lists",
    "BeforeTool",
    [
        {
            "hooks": [
                hook(
                    "python3 -c \"import os,json; print(json.dumps({'systemMessage': json.dumps({k: os.environ.get(k) for k in ['A_URL','GH','SAFE_KEY','BLOCKED','PATH_OK','GEMINI_CLI_X','GIT_CONFIG_A']})}))\"",
                    "a",
                )
            ]
        }
    ],
    args=SHELL,
    env={
        "A_URL": "https://u:p@h",
        "GH": "ghp_" + "a" * 36,
        "SAFE_KEY": "k",
        "BLOCKED": "b",
        "PATH_OK": "1",
        "GEMINI_CLI_X": "ghp_" + "b" * 36,
        "GIT_CONFIG_A": "v",
    },
    sanitization={
        "enableEnvironmentVariableRedaction": True,
        "allowedEnvironmentVariables": ["safe_key"],
        "blockedEnvironmentVariables": ["BLOCKED"],
    },
)
add(
    "bt_stdin_unicode_and_numbers",
    "BeforeTool",
    [{"hooks": [hook("cat", "a")]}],
    args={
        "tool_name": "write_file",
        "tool_input": {
            "content": "héllo ☃ \u2028 😀",
            "n": 1.5,
            "big": 1e21,
            "small": 1e-7,
            "int": 10,
            "neg": -0.0,
            "nested": {"2": "b", "1": "a", "z": None},
        },
    },
)
add(
    "bt_large_output",
    "BeforeTool",
    [{"hooks": [hook("python3 -c \"print('x'*200000)\"", "a")]}],
    args=SHELL,
)
add("bt_no_hooks_for_event", "BeforeTool", [], args=SHELL)
# ---- AfterTool
add(
    "at_context_with_list_content",
    "AfterTool",
    [
        {
            "hooks": [
                hook(echo({"hookSpecificOutput": {"additionalContext": "c1"}}), "a"),
                hook(echo({"hookSpecificOutput": {"additionalContext": "<c2>"}}), "b"),
            ]
        }
    ],
    args={**READ, "tool_response": {"llmContent": [{"text": "p1"}], "returnDisplay": "d"}},
)
add(
    "at_context_no_content",
    "AfterTool",
    [{"hooks": [hook(echo({"hookSpecificOutput": {"additionalContext": "c"}}), "a")]}],
    args={**READ, "tool_response": {"returnDisplay": "d"}},
)
add(
    "at_stop",
    "AfterTool",
    [{"hooks": [hook(echo({"continue": False, "reason": "r"}), "a")]}],
    args=READ,
)
add(
    "at_deny_plain_exit2",
    "AfterTool",
    [{"hooks": [hook("echo redacted >&2; exit 2", "a")]}],
    args=READ,
)
add(
    "at_context_not_string",
    "AfterTool",
    [{"hooks": [hook(echo({"hookSpecificOutput": {"additionalContext": 7}}), "a")]}],
    args=READ,
)
add(
    "at_tail_array_ignored",
    "AfterTool",
    [{"hooks": [hook(echo({"hookSpecificOutput": {"tailToolCallRequest": ["x"]}}), "a")]}],
    args=READ,
)
add(
    "at_error_response",
    "AfterTool",
    [{"hooks": [hook("cat", "a")]}],
    args={
        **READ,
        "tool_response": {
            "llmContent": "",
            "returnDisplay": "",
            "error": {"message": "boom", "type": "x"},
        },
    },
)
# ---- BeforeAgent / AfterAgent
add(
    "ba_stop_keeps_prompt",
    "BeforeAgent",
    [{"hooks": [hook(echo({"continue": False, "stopReason": "halt", "systemMessage": "s"}), "a")]}],
    args={"prompt": "p"},
)
add(
    "ba_deny_json",
    "BeforeAgent",
    [{"hooks": [hook(echo({"decision": "deny", "reason": "no"}), "a")]}],
    args={"prompt": "p"},
)
add(
    "ba_seq_context_chain_two",
    "BeforeAgent",
    [
        {
            "sequential": True,
            "hooks": [
                hook(echo({"hookSpecificOutput": {"additionalContext": "A"}}), "a"),
                hook(echo({"hookSpecificOutput": {"additionalContext": 5}}), "b"),
                hook(
                    "python3 -c \"import json,sys; print(json.dumps({'hookSpecificOutput': {'additionalContext': json.load(sys.stdin)['prompt']}}))\"",
                    "c",
                ),
            ],
        }
    ],
    args={"prompt": "start"},
)
add(
    "ba_matcher_ignored",
    "BeforeAgent",
    [{"matcher": "nothing-matches-this", "hooks": [hook("echo ran", "a")]}],
    args={"prompt": "p"},
)
add(
    "aa_stop_with_clear",
    "AfterAgent",
    [
        {
            "hooks": [
                hook(echo({"continue": False, "hookSpecificOutput": {"clearContext": True}}), "a")
            ]
        }
    ],
    args={"prompt": "p", "prompt_response": "r"},
)
add(
    "aa_exit2_retry",
    "AfterAgent",
    [{"hooks": [hook("echo 'add tests' >&2; exit 2", "a")]}],
    args={"prompt": "p", "prompt_response": "r"},
)
add(
    "aa_allow",
    "AfterAgent",
    [
        {
            "hooks": [
                hook(
                    echo({"decision": "allow", "hookSpecificOutput": {"clearContext": "yes"}}), "a"
                )
            ]
        }
    ],
    args={"prompt": "p", "prompt_response": "r", "stop_hook_active": True},
)
# ---- Model events
add(
    "bm_partial_config_and_messages",
    "BeforeModel",
    [
        {
            "hooks": [
                hook(
                    echo(
                        {
                            "hookSpecificOutput": {
                                "llm_request": {
                                    "config": {"topK": 5},
                                    "messages": [
                                        {"role": "user", "content": "HELLO"},
                                        {"role": "model", "content": 12},
                                    ],
                                }
                            }
                        }
                    ),
                    "a",
                )
            ]
        }
    ],
    args={"llm_request": REQ},
)
add(
    "bm_extra_messages_appended",
    "BeforeModel",
    [
        {
            "hooks": [
                hook(
                    echo(
                        {
                            "hookSpecificOutput": {
                                "llm_request": {
                                    "messages": [
                                        {"role": "user", "content": "1"},
                                        {"role": "model", "content": "2"},
                                        {"role": "system", "content": "3"},
                                        {"role": "user", "content": "4"},
                                        {"role": "user", "content": "5"},
                                    ]
                                }
                            }
                        }
                    ),
                    "a",
                )
            ]
        }
    ],
    args={"llm_request": REQ},
)
add(
    "bm_synthetic_without_deny",
    "BeforeModel",
    [
        {
            "hooks": [
                hook(
                    echo(
                        {
                            "hookSpecificOutput": {
                                "llm_response": {
                                    "candidates": [{"content": {"role": "model", "parts": ["x"]}}]
                                }
                            }
                        }
                    ),
                    "a",
                )
            ]
        }
    ],
    args={"llm_request": REQ},
)
add(
    "bm_synthetic_bad_shape",
    "BeforeModel",
    [
        {
            "hooks": [
                hook(
                    echo(
                        {
                            "decision": "deny",
                            "hookSpecificOutput": {"llm_response": {"text": "no candidates"}},
                        }
                    ),
                    "a",
                )
            ]
        }
    ],
    args={"llm_request": REQ},
)
add(
    "bm_seq_chain_request",
    "BeforeModel",
    [
        {
            "sequential": True,
            "hooks": [
                hook(
                    echo(
                        {
                            "hookSpecificOutput": {
                                "llm_request": {"model": "m2", "config": {"temperature": 0}}
                            }
                        }
                    ),
                    "a",
                ),
                hook(
                    "python3 -c \"import json,sys; d=json.load(sys.stdin)['llm_request']; print(json.dumps({'hookSpecificOutput': {'llm_request': {'messages': d['messages'][:1]}}}))\"",
                    "b",
                ),
            ],
        }
    ],
    args={"llm_request": REQ},
)
add(
    "bm_string_contents",
    "BeforeModel",
    [{"hooks": [hook("cat", "a")]}],
    args={"llm_request": {"model": "", "contents": "just text"}},
)
add(
    "bm_no_model_no_config",
    "BeforeModel",
    [{"hooks": [hook(echo({"hookSpecificOutput": {"llm_request": {"model": "x"}}}), "a")]}],
    args={"llm_request": {"contents": [{"role": "user", "parts": [{"text": "q"}]}]}},
)
add(
    "am_replace_multiple_candidates",
    "AfterModel",
    [
        {
            "hooks": [
                hook(
                    echo(
                        {
                            "hookSpecificOutput": {
                                "llm_response": {
                                    "text": "t",
                                    "candidates": [
                                        {
                                            "content": {"role": "model", "parts": ["A", "B"]},
                                            "finishReason": "MAX_TOKENS",
                                        },
                                        {"content": {"parts": ["C"]}},
                                    ],
                                }
                            }
                        }
                    ),
                    "a",
                )
            ]
        }
    ],
    args={"llm_request": REQ, "llm_response": RESP},
)
add(
    "am_stop",
    "AfterModel",
    [{"hooks": [hook(echo({"continue": False, "stopReason": "enough"}), "a")]}],
    args={"llm_request": REQ, "llm_response": RESP},
)
add(
    "am_input_translation",
    "AfterModel",
    [{"hooks": [hook("cat", "a")]}],
    args={"llm_request": REQ, "llm_response": RESP},
)
add(
    "am_deny_and_replace",
    "AfterModel",
    [
        {
            "hooks": [
                hook(
                    echo(
                        {
                            "decision": "deny",
                            "reason": "pii",
                            "hookSpecificOutput": {
                                "llm_response": {"candidates": [{"content": {"parts": ["R"]}}]}
                            },
                        }
                    ),
                    "a",
                )
            ]
        }
    ],
    args={"llm_request": REQ, "llm_response": RESP},
)
add(
    "bts_modes_any_auto",
    "BeforeToolSelection",
    [
        {
            "hooks": [
                hook(
                    echo(
                        {
                            "hookSpecificOutput": {
                                "toolConfig": {"mode": "AUTO", "allowedFunctionNames": ["b"]}
                            }
                        }
                    ),
                    "a",
                ),
                hook(echo({"hookSpecificOutput": {"toolConfig": {"mode": "ANY"}}}), "b"),
                hook(echo({"continue": False, "decision": "deny"}), "c"),
            ]
        }
    ],
    args={"llm_request": REQ},
)
add(
    "bts_names_string",
    "BeforeToolSelection",
    [
        {
            "hooks": [
                hook(
                    echo({"hookSpecificOutput": {"toolConfig": {"allowedFunctionNames": "ba"}}}),
                    "a",
                )
            ]
        }
    ],
    args={"llm_request": REQ},
)
add(
    "bts_input",
    "BeforeToolSelection",
    [{"hooks": [hook("cat", "a")]}],
    args={
        "llm_request": {
            **REQ,
            "config": {
                "toolConfig": {
                    "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["ls"]}
                }
            },
        }
    },
)
# ---- Lifecycle
add(
    "ss_clear_matcher_and_context",
    "SessionStart",
    [
        {
            "matcher": "clear",
            "hooks": [
                hook(
                    echo({"hookSpecificOutput": {"additionalContext": "<ctx>"}, "continue": False}),
                    "a",
                )
            ],
        },
        {"matcher": "*", "hooks": [hook(echo({"systemMessage": "any"}), "b")]},
    ],
    args={"source": "clear"},
)
add("ss_no_output", "SessionStart", [{"hooks": [hook("true", "a")]}], args={"source": "startup"})
add(
    "se_matcher_reason",
    "SessionEnd",
    [
        {"matcher": "logout", "hooks": [hook(echo({"systemMessage": "bye"}), "a")]},
        {"matcher": "exit", "hooks": [hook("echo no", "b")]},
    ],
    args={"reason": "logout"},
)
add(
    "pc_auto",
    "PreCompress",
    [{"matcher": "auto", "hooks": [hook("cat", "a"), hook(echo({"continue": False}), "b")]}],
    args={"trigger": "auto"},
)
add(
    "nt_confirmation_details",
    "Notification",
    [{"hooks": [hook("cat", "a")]}],
    args={
        "confirmation_details": {
            "type": "edit",
            "title": "Edit a.py",
            "fileName": "a.py",
            "filePath": "/a.py",
            "fileDiff": "-x\n+y",
            "originalContent": "x",
            "newContent": "y",
            "isModifying": False,
            "onConfirm": None,
        }
    },
)
add(
    "nt_exec_details",
    "Notification",
    [{"hooks": [hook("cat", "a")]}],
    args={
        "confirmation_details": {
            "type": "exec",
            "title": "Shell",
            "command": "ls",
            "rootCommand": "ls",
            "extra": 1,
        }
    },
)
# ---- raw input and plan / translate
CASES.append(
    {
        "id": "raw_input_bm",
        "event": "BeforeModel",
        "hooks": {"BeforeModel": [{"hooks": [hook(echo({"decision": "deny"}), "a")]}]},
        "input": {
            "hook_event_name": "BeforeModel",
            "cwd": "{{TMP}}",
            "session_id": "r",
            "llm_request": {"model": "m"},
        },
    }
)
CASES.append(
    {
        "id": "raw_input_context_override",
        "event": "BeforeTool",
        "hooks": {"BeforeTool": [{"matcher": "write", "hooks": [hook("cat", "a")]}]},
        "input": {"tool_name": "read_file", "cwd": "{{TMP}}"},
        "context": {"toolName": "write_file"},
    }
)
CASES.append(
    {
        "id": "plan_sources_disabled",
        "op": "plan",
        "event": "AfterTool",
        "hooks": {
            "AfterTool": [
                {"matcher": "a", "sequential": True, "hooks": [hook("x", "n1"), hook("y")]}
            ],
            "enabled": True,
            "BadEvent": [],
        },
        "disabled": ["y"],
        "extension_hooks": [{"AfterTool": [{"hooks": [hook("z")]}]}],
        "args": {"tool_name": "abc"},
    }
)
for fn, args in [
    ("toHookLLMRequest", [REQ]),
    ("toHookLLMRequest", [{"contents": {"role": "user", "parts": {"text": "single"}}}]),
    (
        "toHookLLMRequest",
        [
            {
                "model": "m",
                "contents": [{"text": "bare part"}, {"role": "user", "parts": []}],
                "config": None,
            }
        ],
    ),
    ("fromHookLLMRequest", [{"messages": [{"role": "user", "content": "X"}]}, REQ]),
    (
        "fromHookLLMRequest",
        [{"model": "n", "messages": [{"role": "model", "content": ["a", "b"]}]}, None],
    ),
    (
        "fromHookLLMRequest",
        [
            {"config": {"temperature": 1}},
            {"model": "b", "contents": [], "config": {"topK": 2, "systemInstruction": "s"}},
        ],
    ),
    ("toHookLLMResponse", [RESP]),
    ("toHookLLMResponse", [{"candidates": []}]),
    (
        "fromHookLLMResponse",
        [
            {
                "text": "t",
                "candidates": [
                    {
                        "content": {"role": "model", "parts": ["a"]},
                        "safetyRatings": [{"category": "c", "probability": "p"}],
                    }
                ],
                "usageMetadata": {"totalTokenCount": 1},
            }
        ],
    ),
    ("toHookToolConfig", [{"functionCallingConfig": {"mode": "NONE"}}]),
    ("fromHookToolConfig", [{"mode": "ANY", "allowedFunctionNames": ["a"]}]),
    ("fromHookToolConfig", [{}]),
]:
    CASES.append(
        {
            "id": f"translate_{fn}_{len([c for c in CASES if c.get('fn') == fn])}",
            "op": "translate",
            "fn": fn,
            "args": args,
        }
    )


def main() -> None:
    out = (
        Path(sys.argv[1])
        if len(sys.argv) > 1
        else Path(__file__).parent / "cases" / "hookwise.jsonl"
    )
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    out.write_text(
        "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in CASES), encoding="utf-8"
    )
    print(f"{len(CASES)} cases -> {out}")


if __name__ == "__main__":
    main()
