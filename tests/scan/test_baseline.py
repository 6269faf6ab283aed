"""``--baseline FILE`` read back: only its own shape, anything else a named error."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from hookwise.scan.baseline import BaselineError, read_baseline


@given(st.binary(max_size=300))
def test_read_baseline_accepts_only_its_own_shape(tmp_path_factory: object, data: bytes) -> None:
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"hookwise-baseline-fuzz-{os.getpid()}.json"
    path.write_bytes(data)
    try:
        entries = read_baseline(path)
    except BaselineError as exc:
        assert str(path) in str(exc)
    else:
        assert isinstance(entries, dict)
    finally:
        path.unlink()
