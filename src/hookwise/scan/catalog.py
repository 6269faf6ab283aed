"""What the scan rules know about programs, paths and variables: one table per fact.

Kept apart from the rules so that a new credential file, profile or hijackable variable
is one line here and every analyser (shell, Python, JavaScript, settings) sees it.
"""

from __future__ import annotations

import fnmatch
import re
from typing import Final
from urllib.parse import urlsplit

# ----------------------------------------------------------------------------- programs

FETCHERS: Final = frozenset(
    [
        "curl",
        "wget",
        "fetch",
        "aria2c",
        "http",
        "https",
        "xh",
        "lwp-download",
        "lwp-request",
        "httpie",
        "curlie",
        "wget2",
        "axel",
    ]
)
RAW_SOCKETS: Final = frozenset(["nc", "ncat", "netcat", "socat", "telnet", "openssl"])
COPIERS: Final = frozenset(["scp", "rsync", "sftp", "ftp", "tftp", "lftp"])
POWERSHELLS: Final = frozenset(["powershell", "powershell.exe", "pwsh", "pwsh.exe"])
DECODERS: Final = frozenset(["base64", "base32", "basenc", "xxd", "uudecode", "openssl", "gpg"])
REGISTRY_RUNNERS: Final = frozenset(["npx", "bunx", "uvx", "pnpx"])
"""Programs that download a package and run it (``npx -y pkg``)."""
REGISTRY_SUBCOMMANDS: Final = {"pnpm": "dlx", "yarn": "dlx", "pipx": "run", "uv": "tool"}
SHELL_SOURCES: Final = frozenset(["source", "."])

# curl/wget options that send data (exfiltration), not only fetch.
UPLOAD_OPTIONS: Final = frozenset(
    [
        "-d",
        "--data",
        "--data-binary",
        "--data-raw",
        "--data-urlencode",
        "--data-ascii",
        "-F",
        "--form",
        "-T",
        "--upload-file",
        "--post-data",
        "--post-file",
        "--body-data",
        "--body-file",
        "--json",
    ]
)

# ----------------------------------------------------------------------------- paths

SYSTEM_PREFIXES: Final = (
    "/usr/",
    "/bin/",
    "/sbin/",
    "/lib/",
    "/lib64/",
    "/opt/homebrew/",
    "/nix/",
    "/snap/",
    "/etc/alternatives/",
    "/System/",
    "/Library/Apple/",
    "/dev/null",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/tty",
    "/proc/self/fd/",
)
TEMP_PREFIXES: Final = (
    "/tmp/",
    "/var/tmp/",
    "/dev/shm/",
    "/private/tmp/",
    "$TMPDIR/",
    "${TMPDIR}/",
)

# Files whose content is a credential. Globs on the path with ``~`` for the home directory.
CREDENTIAL_PATHS: Final = (
    "~/.aws/credentials",
    "~/.aws/config",
    "~/.ssh/id_*",
    "~/.ssh/*_key",
    "~/.ssh",
    "~/.ssh/",
    "~/.gnupg",
    "~/.gnupg/*",
    "~/.npmrc",
    "*/.npmrc",
    ".npmrc",
    "~/.pypirc",
    ".pypirc",
    "~/.netrc",
    ".netrc",
    "~/.git-credentials",
    ".git-credentials",
    "~/.docker/config.json",
    "~/.kube/config",
    "~/.config/gh/hosts.yml",
    "~/.config/gcloud",
    "~/.config/gcloud/*",
    "~/.azure",
    "~/.azure/*",
    "~/.claude/.credentials.json",
    "~/.claude.json",
    "~/.codex/auth.json",
    "~/.gemini/oauth_creds.json",
    "~/.config/op/*",
    "/etc/shadow",
    "~/.bitcoin/wallet.dat",
    "~/.electrum/wallets/*",
    "~/Library/Keychains",
    "~/Library/Keychains/*",
    "~/.local/share/keyrings/*",
    "~/.vault-token",
    ".env.production",
)
KEYCHAIN_COMMANDS: Final = (
    ("security", ("find-generic-password", "find-internet-password", "dump-keychain")),
    ("secret-tool", ("lookup", "search")),
    ("gh", ("auth token",)),
    ("gcloud", ("auth print-access-token",)),
    ("aws", ("configure export-credentials", "configure get")),
    ("gpg", ("--export-secret-keys",)),
)

# Well-known secrets in the environment (a hook's own settings, such as a webhook URL, are
# not on this list: only credentials of other services).
CREDENTIAL_ENV: Final = frozenset(
    [
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AWS_ACCESS_KEY_ID",
        "GITHUB_TOKEN",
        "GH_TOKEN",
        "GITLAB_TOKEN",
        "NPM_TOKEN",
        "NODE_AUTH_TOKEN",
        "PYPI_TOKEN",
        "TWINE_PASSWORD",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "CLAUDE_CODE_OAUTH_TOKEN",
        "OPENAI_API_KEY",
        "GEMINI_API_KEY",
        "GOOGLE_API_KEY",
        "GOOGLE_APPLICATION_CREDENTIALS",
        "AZURE_CLIENT_SECRET",
        "DOCKER_PASSWORD",
        "HF_TOKEN",
        "HUGGING_FACE_HUB_TOKEN",
        "SLACK_BOT_TOKEN",
        "STRIPE_SECRET_KEY",
        "DATABASE_URL",
        "CODEX_API_KEY",
        "CIRCLE_TOKEN",
        "VAULT_TOKEN",
        "CARGO_REGISTRY_TOKEN",
    ]
)

SHELL_PROFILES: Final = (
    "~/.bashrc",
    "~/.bash_profile",
    "~/.bash_login",
    "~/.profile",
    "~/.zshrc",
    "~/.zprofile",
    "~/.zshenv",
    "~/.zlogin",
    "~/.kshrc",
    "~/.config/fish/config.fish",
    "~/.config/fish/conf.d/*",
    "/etc/profile",
    "/etc/profile.d/*",
    "/etc/bash.bashrc",
    "/etc/zshrc",
    "/etc/environment",
    "~/.pam_environment",
    "~/.inputrc",
)
AGENT_SETTINGS: Final = (
    "*.claude/settings.json",
    "*.claude/settings.local.json",
    "~/.claude.json",
    "*.claude/hooks/*",
    "*.gemini/settings.json",
    "*.gemini/extensions/*",
    "*.gemini/.env",
    "*.codex/config.toml",
    "*.codex/hooks.json",
    "*.mcp.json",
    ".mcp.json",
    "*.agent/hook.toml",
    "*.hookwise/policy.yaml",
    "*.hookwise/policy.local.yaml",
    "*.cursor/*",
    "*.vscode/settings.json",
    "*.vscode/tasks.json",
    "*/CLAUDE.md",
    "CLAUDE.md",
    "*/GEMINI.md",
    "GEMINI.md",
    "*/AGENTS.md",
    "AGENTS.md",
    "*.claude/settings*.json",
    "*.claude/agents/*",
    "*.claude/commands/*",
    "*.claude/skills/*",
)
PERSISTENCE: Final = (
    "~/.ssh/authorized_keys",
    "*.git/hooks/*",
    "*.git/config",
    "~/.gitconfig",
    "~/.config/autostart/*",
    "~/.config/systemd/user/*",
    "/etc/systemd/*",
    "~/Library/LaunchAgents/*",
    "/Library/LaunchDaemons/*",
    "/etc/cron*",
    "/var/spool/cron/*",
    "/etc/sudoers*",
    "/etc/ld.so.preload",
    "*/node_modules/.bin/*",
    "*site-packages/*.pth",
)
PERSISTENCE_COMMANDS: Final = frozenset(["crontab", "launchctl", "systemctl", "at", "schtasks"])

# ----------------------------------------------------------------------------- variables

BASE_URL_VARS: Final = frozenset(
    [
        "ANTHROPIC_BASE_URL",
        "ANTHROPIC_API_URL",
        "ANTHROPIC_BEDROCK_BASE_URL",
        "ANTHROPIC_VERTEX_BASE_URL",
        "ANTHROPIC_FOUNDRY_BASE_URL",
        "OPENAI_BASE_URL",
        "OPENAI_API_BASE",
        "OPENAI_API_HOST",
        "GOOGLE_GEMINI_BASE_URL",
        "GOOGLE_VERTEX_BASE_URL",
        "GEMINI_BASE_URL",
        "CODE_ASSIST_ENDPOINT",
        "AZURE_OPENAI_ENDPOINT",
        "HTTPS_PROXY",
        "HTTP_PROXY",
        "ALL_PROXY",
        "https_proxy",
        "http_proxy",
        "all_proxy",
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT",
        "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    ]
)
"""Where the agent sends the user's credentials, prompts or telemetry."""
CODE_INJECTION_VARS: Final = frozenset(
    [
        "NODE_OPTIONS",
        "LD_PRELOAD",
        "LD_LIBRARY_PATH",
        "LD_AUDIT",
        "DYLD_INSERT_LIBRARIES",
        "DYLD_LIBRARY_PATH",
        "DYLD_FRAMEWORK_PATH",
        "PYTHONSTARTUP",
        "PYTHONPATH",
        "PYTHONHOME",
        "PYTHONUSERBASE",
        "PERL5OPT",
        "PERL5LIB",
        "PERLLIB",
        "RUBYOPT",
        "RUBYLIB",
        "BASH_ENV",
        "ENV",
        "ZDOTDIR",
        "PROMPT_COMMAND",
        "GIT_SSH_COMMAND",
        "GIT_SSH",
        "GIT_EXEC_PATH",
        "GIT_ASKPASS",
        "SSH_ASKPASS",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_SYSTEM",
        "GIT_TEMPLATE_DIR",
        "GIT_EXTERNAL_DIFF",
        "GIT_PAGER",
        "PAGER",
        "EDITOR",
        "VISUAL",
        "JAVA_TOOL_OPTIONS",
        "_JAVA_OPTIONS",
        "NODE_PATH",
        "NODE_EXTRA_CA_CERTS",
        "NODE_TLS_REJECT_UNAUTHORIZED",
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
        "REQUESTS_CA_BUNDLE",
        "CURL_CA_BUNDLE",
        "PIP_INDEX_URL",
        "PIP_EXTRA_INDEX_URL",
        "NPM_CONFIG_REGISTRY",
        "npm_config_registry",
        "UV_INDEX_URL",
        "UV_EXTRA_INDEX_URL",
        "YARN_REGISTRY",
        "CLAUDE_CODE_SHELL_PREFIX",
        "SHELL",
        "PATH",
    ]
)
"""Variables that make another program load or run code, trust another CA or registry."""
HIJACK_VARS: Final = BASE_URL_VARS | CODE_INJECTION_VARS

# NODE_OPTIONS flags that load code (memory and warning flags are harmless).
NODE_CODE_FLAGS: Final = re.compile(
    r"(^|\s)(-r|--require|--import|--loader|--experimental-loader)\b"
)

OFFICIAL_HOSTS: Final = (
    "api.anthropic.com",
    "*.anthropic.com",
    "api.openai.com",
    "*.openai.azure.com",
    "generativelanguage.googleapis.com",
    "*.googleapis.com",
    "*.amazonaws.com",
)

# ----------------------------------------------------------------------------- helpers


def home_form(path: str, home: str) -> str:
    """``path`` with the home directory (``$HOME``, ``${HOME}``, ``~user``-less) as ``~``."""
    text = path.strip().strip("\"'")
    for prefix in ("${HOME}", "$HOME", home.rstrip("/")):
        if prefix and (text == prefix or text.startswith(prefix + "/")):
            return "~" + text[len(prefix) :]
    return text


def _matches(path: str, patterns: tuple[str, ...], home: str) -> str | None:
    text = home_form(path, home)
    if not text:
        return None
    for pattern in patterns:
        if fnmatch.fnmatchcase(text, pattern):
            return pattern
        if (
            pattern.startswith("~/")
            and not pattern.endswith("*")
            and text.startswith(pattern + "/")
        ):
            return pattern
    return None


def credential_path(path: str, home: str) -> str | None:
    return _matches(path, CREDENTIAL_PATHS, home)


def profile_path(path: str, home: str) -> str | None:
    return _matches(path, SHELL_PROFILES, home)


def agent_settings_path(path: str, home: str) -> str | None:
    return _matches(path, AGENT_SETTINGS, home)


def persistence_path(path: str, home: str) -> str | None:
    return _matches(path, PERSISTENCE, home)


def is_loopback(url: str) -> bool:
    try:
        host = urlsplit(url if "//" in url else f"//{url}").hostname or ""
    except ValueError:
        return False
    return host in ("localhost", "127.0.0.1", "::1", "0.0.0.0") or host.startswith("127.")


def is_official(url: str) -> bool:
    try:
        host = urlsplit(url if "//" in url else f"//{url}").hostname or ""
    except ValueError:
        return False
    return any(fnmatch.fnmatchcase(host, pattern) for pattern in OFFICIAL_HOSTS)


def mentioned_paths(text: str) -> list[str]:
    """Path-like words in free text (string literals of scripts): ``~/...``, ``$HOME/...``,
    ``/etc/...``, and dot-files."""
    return re.findall(r"(?:~|\$\{?HOME\}?|/)[\w./@*-]*|\.[\w-]+(?:/[\w.*-]+)*", text)
