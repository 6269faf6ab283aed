"""What agents will run on their own for a repository and a user (``hookwise scan``).

``scan_project(ScanContext.create(project))`` reads every host's configuration through
``hookwise.config``, analyses each command and the scripts it calls, and returns a
:class:`ScanReport` of runnables and findings. The ``coverage`` modules of this package
are separate (they read what did run).
"""

from __future__ import annotations

from hookwise.scan.context import ScanContext
from hookwise.scan.model import Finding, Runnable, ScanReport, Severity
from hookwise.scan.report import scan_project

__all__ = ["Finding", "Runnable", "ScanContext", "ScanReport", "Severity", "scan_project"]
