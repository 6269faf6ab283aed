"""What agents will run on their own for a repository and a user (``hookwise scan``), and
which tool calls ran without a hookwise decision (``hookwise coverage``).

Scan: ``scan_project(ScanContext.create(project))`` (``scan.report``) reads every host's
configuration through ``hookwise.config`` into runnables (``scan.sources``), analyses each
command and the scripts it calls into facts (``scan.analysis``), judges them
(``scan.findings``, ``scan.rules``) and returns a ``ScanReport`` of runnables and findings
(``scan.model``). Coverage (``scan.coverage``) joins the hosts' own records of what ran
(``scan.transcripts``) with the audit log. The package imports nothing itself, so each
command loads only its half.
"""
