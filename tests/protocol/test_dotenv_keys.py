"""protocol/dotenv.keys against dotenv's own parse (Gemini CLI's project .env reader).

``keys`` must name every key the host's parser sets, never fewer (red team s27 #8: a lone
CR, a BOM, a VT/FF/NBSP or U+2028 before a key hid it from ``hookwise run``, doctor and
the hook). The fixture holds dotenv 16.6.1's answers for a fixed corpus (see
fixtures/README.md); the live test runs the real package under node when both are here.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.protocol.dotenv import keys

FIXTURES = Path(__file__).parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
from dotenv_inputs import HAND, KEYS, RAW, SEPARATORS, SPACES, VALUES  # noqa: E402

PACKAGE = Path(
    os.environ.get("DOTENV_PACKAGE", Path.home() / ".cache" / "hookwise" / "dotenv-16" / "package")
)


def _read(data: bytes) -> list[str]:
    """What hookwise's readers do with a file's bytes (env_origin, config/env_files)."""
    return keys(data.decode("utf-8", "replace"))


def _recorded() -> list[tuple[bytes, list[str]]]:
    rows = (json.loads(line) for line in (FIXTURES / "dotenv_keys.jsonl").open())
    return [(base64.b64decode(row["b64"]), row["keys"]) for row in rows]


def test_the_fixture_covers_the_red_teams_texts() -> None:
    recorded = dict(_recorded())
    assert recorded[b"A=1\rBASH_ENV=/tmp/b.sh\n"] == ["A", "BASH_ENV"]
    assert recorded[b"\xef\xbb\xbfBASH_ENV=/tmp/b.sh\n"] == ["BASH_ENV"]
    assert all(text in recorded for text in HAND)


@pytest.mark.parametrize(("data", "expected"), _recorded())
def test_every_key_dotenv_sets_is_named(data: bytes, expected: list[str]) -> None:
    missing = set(expected) - set(_read(data))
    assert not missing, f"dotenv 16.6.1 sets {sorted(missing)} from {data!r}"


def _live(texts: list[bytes]) -> list[list[str]]:
    node = shutil.which("node")
    if node is None or not (PACKAGE / "lib" / "main.js").is_file():
        pytest.skip(f"needs node and dotenv 16 unpacked at {PACKAGE} (npm pack dotenv@16)")
    payload = json.dumps([base64.b64encode(t).decode() for t in texts])
    script = FIXTURES / "dotenv_oracle.js"
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json") as handle:
        handle.write(payload)
        handle.flush()
        done = subprocess.run(
            [node, str(script), handle.name],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "DOTENV_PACKAGE": str(PACKAGE)},
            check=True,
        )
    return [json.loads(line)["keys"] for line in done.stdout.splitlines()]


_PIECE = st.one_of(
    st.sampled_from(KEYS),
    st.sampled_from(SPACES),
    st.sampled_from(SEPARATORS),
    st.sampled_from(VALUES),
    st.sampled_from(["export ", "export\t", "#", "'", '"', "`", "\\"]),
    st.text(max_size=3),
).map(lambda s: s.encode("utf-8", "surrogatepass"))
_TEXT = st.lists(st.one_of(_PIECE, st.sampled_from(RAW), st.binary(max_size=2)), max_size=24).map(
    b"".join
)


@settings(max_examples=15, deadline=None)
@given(st.lists(_TEXT, min_size=20, max_size=40))
def test_hostile_texts_against_the_real_parser(texts: list[bytes]) -> None:
    for data, expected in zip(texts, _live(texts), strict=True):
        missing = set(expected) - set(_read(data))
        assert not missing, f"dotenv sets {sorted(missing)} from {data!r}"
