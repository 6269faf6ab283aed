"""Library code that reads a login from the file its library keeps it in, with no path
in the code (red team s32 I): ``netrc.netrc()`` parses ``~/.netrc``, a boto3 or botocore
session's ``get_credentials()``/``full_config``/``get_scoped_config()`` hand the code
``~/.aws/credentials``. Such code reads that file as much as ``cat`` of it does: the
table below says, per library, which of its names give the code the login and which
files they read, and python code importing the library and using one of those names is a
read of each file (judged by the rules on it).

The same for perl, ruby and node (session 33): perl's ``Net::Netrc->lookup(HOST)`` (libnet,
core perl: it reads the netrc of the user's passwd home), ruby's ``Net::Netrc`` and the
``netrc`` gem, the AWS SDKs' shared-file readers (ruby ``Aws::SharedCredentials``,
``Aws::SharedConfig``; node ``aws-sdk``'s ``SharedIniFileCredentials``,
``@aws-sdk/credential-providers``' ``fromIni``, ``@aws-sdk/shared-ini-file-loader``),
node's ``netrc`` package. In perl and ruby a library is named by its package or
constant wherever the code uses it; in node by the string ``require``/``import`` load.

A library used only to talk to its service (``boto3.client("s3").list_buckets()``) sends
the login where it belongs, as ``aws s3 ls`` does: not a read here.

Cold: loaded only for interpreter code. Standard library only."""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_AWS_FILES = ("~/.aws/credentials", "~/.aws/config")
_AWS_NAMES = (
    r"get_credentials|get_frozen_credentials|full_config|get_scoped_config|"
    r"get_config_variable|access_key|secret_key|_credentials|_config|credentials"
)
# top-level module -> (a pattern of the names that hand the code the login, None: any use
# of the module does; the files they read)
LOGIN_LIBRARIES: dict[str, tuple[str | None, tuple[str, ...]]] = {
    "netrc": (None, ("~/.netrc",)),  # its only job: netrc.netrc() with no file
    "boto3": (_AWS_NAMES, _AWS_FILES),
    "botocore": (_AWS_NAMES, _AWS_FILES),
    "aiobotocore": (_AWS_NAMES, _AWS_FILES),
    "aioboto3": (_AWS_NAMES, _AWS_FILES),
    "google": (
        r"default|credentials|token",
        ("~/.config/gcloud/application_default_credentials.json",),
    ),
    "huggingface_hub": (r"get_token|HfFolder|token", ("~/.cache/huggingface/token",)),
}
_NODE_AWS = r"fromIni|fromNodeProviderChain|defaultProvider|loadSharedConfigFiles|SharedIni\w*"
# language -> library (perl/ruby: its package or constant; node: the string loaded) ->
# (a pattern of the names that hand the code the login, None: any use; the files read)
OTHER_LOGIN_LIBRARIES: dict[str, dict[str, tuple[str | None, tuple[str, ...]]]] = {
    "perl": {"Net::Netrc": (None, ("~/.netrc",))},
    "ruby": {
        "Net::Netrc": (None, ("~/.netrc",)),
        "Netrc": (None, ("~/.netrc",)),
        "Aws::SharedCredentials": (None, _AWS_FILES),
        "Aws::SharedConfig": (None, _AWS_FILES),
    },
    "node": {
        "netrc": (None, ("~/.netrc",)),
        "netrc-parser": (None, ("~/.netrc",)),
        "aws-sdk": (r"SharedIniFileCredentials|credentials|config\.credentials", _AWS_FILES),
        "@aws-sdk/credential-providers": (_NODE_AWS, _AWS_FILES),
        "@aws-sdk/credential-provider-ini": (_NODE_AWS, _AWS_FILES),
        "@aws-sdk/credential-provider-node": (_NODE_AWS, _AWS_FILES),
        "@aws-sdk/shared-ini-file-loader": (None, _AWS_FILES),
    },
}
_NODE_LOADED = re.compile(r"""(?:\brequire\s*\(|\bimport\s*\(|\bfrom)\s*['"`]([^'"`]+)['"`]""")
_IMPORTED = re.compile(
    r"\b(?:from\s+([\w.]+)\s+import|import\s+([\w.,\s]+?)(?:\s+as\s+\w+)?(?:;|$))", re.M
)


def _imported(code: str) -> set[str]:
    """The top-level modules python code imports."""
    found: set[str] = set()
    for match in _IMPORTED.finditer(code):
        names = [match.group(1)] if match.group(1) else match.group(2).split(",")
        for name in names:
            words = name.split()
            if words:
                found.add(words[0].split(".", 1)[0])
    return found


def _used(language: str, code: str) -> set[str]:
    """The libraries of OTHER_LOGIN_LIBRARIES[language] the code uses."""
    table = OTHER_LOGIN_LIBRARIES[language]
    if language == "node":
        return {m.group(1) for m in _NODE_LOADED.finditer(code)} & table.keys()
    return {name for name in table if re.search(rf"(?<![\w:]){re.escape(name)}(?![\w])", code)}


def login_reads(code: str, language: str = "python") -> list[tuple[str, Any]]:
    """("read", file) for each login file the code's libraries read for it."""
    out: list[tuple[str, Any]] = []
    if language == "python":
        table, used = LOGIN_LIBRARIES, _imported(code) & LOGIN_LIBRARIES.keys()
    elif language in OTHER_LOGIN_LIBRARIES:
        table, used = OTHER_LOGIN_LIBRARIES[language], _used(language, code)
    else:
        return out
    for module in sorted(used):
        names, files = table[module]
        if names is None or re.search(rf"\b(?:{names})\b", code):
            out += [("read", path) for path in files]
    return out
