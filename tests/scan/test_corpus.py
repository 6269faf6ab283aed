"""The corpus: malicious setups modelled on public reports, benign ones from public hook
collections. Every malicious case must be detected with its expected rules; no benign case
may report anything above ``low``. The rates are measured over the whole corpus too."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookwise.scan.model import Severity
from tests.scan.support import Case, cases, scan_case

MALICIOUS = cases("malicious")
BENIGN = cases("benign")


def _worst(report_findings: list) -> Severity:  # type: ignore[type-arg]
    return max((f.severity for f in report_findings), key=lambda s: s.rank, default=Severity.INFO)


@pytest.mark.parametrize("case", MALICIOUS, ids=[c.name for c in MALICIOUS])
def test_malicious_case_is_detected(case: Case, tmp_path: Path) -> None:
    report = scan_case(case, tmp_path)
    rules = {f.rule for f in report.findings}
    expected = set(case.meta["expect"])  # type: ignore[arg-type]
    assert expected <= rules, (expected - rules, [f.as_dict() for f in report.findings])
    minimum = Severity.parse(str(case.meta["min"]))
    assert _worst(report.findings).rank >= minimum.rank, [f.as_dict() for f in report.findings]
    for finding in report.findings:
        assert finding.file and finding.line >= 1


@pytest.mark.parametrize("case", BENIGN, ids=[c.name for c in BENIGN])
def test_benign_case_reports_nothing_above_low(case: Case, tmp_path: Path) -> None:
    report = scan_case(case, tmp_path)
    above = [f.as_dict() for f in report.findings if f.severity.rank > Severity.LOW.rank]
    assert not above
    assert report.runnables or report.env_settings, "the case must give the scan something to read"


def test_detection_and_false_positive_rates(tmp_path: Path) -> None:
    detected = 0
    for index, case in enumerate(MALICIOUS):
        report = scan_case(case, tmp_path / f"m{index}")
        if _worst(report.findings).rank >= Severity.MEDIUM.rank:
            detected += 1
    false_positives = 0
    for index, case in enumerate(BENIGN):
        report = scan_case(case, tmp_path / f"b{index}")
        if _worst(report.findings).rank > Severity.LOW.rank:
            false_positives += 1
    detection = detected / len(MALICIOUS)
    fp_rate = false_positives / len(BENIGN)
    print(
        f"\nscan corpus: detection {detected}/{len(MALICIOUS)} = {detection:.0%}, "
        f"false positives {false_positives}/{len(BENIGN)} = {fp_rate:.0%}"
    )
    assert len(MALICIOUS) >= 15 and len(BENIGN) >= 15
    assert detection == 1.0
    assert fp_rate == 0.0
