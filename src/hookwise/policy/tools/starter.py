"""The commented starter policy ``hookwise policy init`` writes."""

from __future__ import annotations

from hookwise.policy.rules import packs as _packs

_TEMPLATE = """\
# hookwise policy (format version 1). Reference: `hookwise policy docs` (the full
# format, the actions and how each agent is answered).
#
# `hookwise hook` answers Gemini CLI, Claude Code and Codex from this one file.
# Check it with `hookwise policy validate`, see the merged result with
# `hookwise policy show`, and try a payload with `hookwise explain`.
#
# Scopes, all merged: managed (/etc/hookwise/policy.yaml), user
# (~/.config/hookwise/policy.yaml), this project file, and .hookwise/policy.local.yaml
# (personal, keep it out of git). Managed rules cannot be disabled or weakened.
version: 1

# Built-in rule packs (`hookwise policy docs`, "Rule packs"); their rule ids read
# hookwise/<pack>:<rule>, so `overrides:` can switch one off. Pin a version with @1.
# extends: [@PACKS@]
@EXTENDS@
settings:
  # A broken policy or an unreadable event denies tool calls and lets the rest pass.
  on_error: {tool_events: deny, other_events: allow}
  # Where a host cannot ask the user (Codex), `ask` becomes this.
  ask_fallback: deny

rules:
  # Rules match canonical tools (shell, write, edit, read, ...) and events
  # (tool.before, prompt, agent.stop, ...), so one rule covers every host.

  - id: no-force-push
    description: Force pushes rewrite shared history.
    match:
      tool: shell
      # Shell-aware: `git push -f` anywhere in `a && b | c` or `bash -c '...'` matches;
      # a branch called feature-fix does not.
      command:
        - {program: git, args: [push], any_flags: [--force, -f]}  # not --force-with-lease
        - {program: git, args: [push, "+**"]}   # +main, +refs/heads/main
    action: deny
    reason: Force pushes are not allowed here. Push to a new branch and open a review.
    priority: 100
    metadata: {owner: platform-team, tags: [git]}

  - id: no-rm-rf-outside-workspace
    description: Recursive deletes outside the working directory.
    match:
      command: {program: rm, any_flags: [-r]}   # -R, --recursive, --rec... match too
      # Paths are resolved against the event's cwd; ~, $HOME and .. count.
      files: {outside_workspace: true, operands_only: true, exclude: ["/tmp/**"]}
    action: deny
    reason: rm -r outside the workspace is blocked. Delete inside the project only.
    priority: 90

  - id: no-rm-rf-workspace
    description: Deleting the whole working directory (`cd .. && rm -rf proj`, `rm -rf .`).
    match:
      command: {program: rm, any_flags: [-r]}   # -R, --recursive, --rec... match too
      files: ["."]
    action: deny
    reason: rm -r of the whole workspace is blocked.
    priority: 90

  - id: no-secrets-in-files
    description: Credentials written into files.
    match:
      tool: [write, edit]
    # AWS access keys, private keys, GitHub tokens; extend the patterns for your stack.
    when: >-
      str(input.content) matches "AKIA[0-9A-Z]{16}|-----BEGIN [A-Z ]*PRIVATE KEY-----"
      or str(input.content) matches "gh[pousr]_[A-Za-z0-9]{36}"
      or str(input.new_string) matches "AKIA[0-9A-Z]{16}|-----BEGIN [A-Z ]*PRIVATE KEY-----"
      or str(input.new_string) matches "gh[pousr]_[A-Za-z0-9]{36}"
    action: deny
    reason: The content looks like a secret (a key or a token). Use an environment variable.
    priority: 80

  - id: protect-env-files
    description: .env files hold local secrets.
    match:
      tool: [write, edit]
      files: {globs: [".env", ".env.*"], exclude: [".env.example"]}
    action: deny
    reason: Do not edit .env files; change .env.example and say what to set.
    priority: 70

  - id: confirm-hard-reset
    description: git reset --hard throws work away.
    match:
      command: git reset --hard
    action: ask
    reason: git reset --hard discards uncommitted work. Allow it?

  - id: confirm-recursive-delete
    description: A recursive delete inside the project (`rm -rf build`) is confirmed first.
    match:
      command: {program: rm, any_flags: [-r]}
    # ask: the agent's own prompt where it has one; headless runs and Codex get
    # ask_fallback (deny above). Delete this rule if your agents clean builds on their own.
    action: ask
    reason: rm -r deletes a whole directory tree. Allow it?
    priority: 10

  - id: warn-curl-pipe-shell
    description: Piping a download into a shell.
    match:
      command: {line_regex: "(curl|wget)[^|]*\\\\|\\\\s*(sudo\\\\s+)?(ba|z)?sh\\\\b"}
    action: deny
    reason: Piping a download into a shell runs unreviewed code.
    # warn: the call goes through, the user sees a warning; change to enforce to block.
    mode: warn

  # Context for the model (hosts that do not read it are listed by `policy validate`).
  - id: deploy-context
    description: Remind the agent how deployments work.
    match:
      prompt: {words: [deploy, release]}
    action: context
    context: Deployments go through the release pipeline (make release); never deploy by hand.
    enabled: false

  # Send the agent back when it stops too early (a loop guard limits the retries).
  - id: finish-todos
    description: Do not stop with TODOs left in the answer.
    match:
      response: {contains: ["TODO"], case_sensitive: true}
    action: retry
    reason: Your answer still lists TODOs. Finish them, or say why they cannot be done.
    max_retries: 2
    enabled: false
"""


def starter_policy(enabled: list[str] | None = None) -> str:
    """The starter with ``extends:`` listing ``enabled`` packs (names, or ``all``).

    Every shipped pack is offered on the commented line; unknown names raise ValueError.
    """
    names = list(_packs.available())
    chosen = names if enabled == ["all"] else list(enabled or [])
    for name in chosen:
        if name.removeprefix(_packs.PREFIX) not in names:
            raise ValueError(f"unknown pack {name!r}; packs: {', '.join(names)}, all")
    offered = ", ".join(_packs.PREFIX + n for n in names)
    extends = ""
    if chosen:
        refs = ", ".join(_packs.PREFIX + n.removeprefix(_packs.PREFIX) for n in chosen)
        extends = f"extends: [{refs}]\n"
    return _TEMPLATE.replace("@PACKS@", offered).replace("@EXTENDS@\n", extends + "\n")


STARTER_POLICY = starter_policy()
